"""The Flet user interface: a thin layer over the view-model."""
