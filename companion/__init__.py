"""companion: a rulebook companion and scoring assistant for board games."""
__version__ = "0.1.0"
