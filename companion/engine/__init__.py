"""The pure rules engine: no Flet, no TinyDB (tests/test_purity.py checks the imports)."""
