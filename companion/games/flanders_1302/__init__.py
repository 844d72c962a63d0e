"""Flanders 1302: one folder holds the game.

- `rules.py`: the rules (pure: no Flet, no TinyDB) and `GAME`, its definition for the engine;
- `screens.py`: its own screens (new-game form, round guide, final scoring), found by the UI as
  `companion.games.flanders_1302.screens`;
- `examples.py`: the sessions the conformance tests (tests/test_engine.py and the others) play on
  every game;
- `teach.py`: teach mode's explanations on the spot, with this table's names and numbers;
- its texts, in Czech and English: data/flanders_1302.toml.

Importing the folder imports the rules only (`companion score` loads nothing else).
"""
from .rules import GAME

__all__ = ["GAME"]
