"""Elfenland with Elfengold: one folder holds the game.

- `rules.py`: the table of allowed actions and `GAME`, its definition for the engine; the rules it
  assembles (pure: no Flet, no TinyDB) by concern: `preparation.py`, `phases.py`, `elfengold.py` (the gold
  ledger and the tile auction), `moves.py` (moves and towns), `scoring.py`, `describe.py` (log and header);
- `screens.py`: its own screens (new-game form, round guide, final scoring), found by the UI as
  `companion.games.elfenland.screens`;
- `examples.py`: the sessions the conformance tests (tests/test_engine.py and the others) play on
  every game;
- `teach.py`: teach mode's explanations on the spot, with this table's names and numbers;
- its texts, in Czech and English: data/elfenland.toml.

Importing the folder imports the rules only (`companion score` loads nothing else).
"""
from .rules import GAME

__all__ = ["GAME"]
