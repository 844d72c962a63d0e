"""Flanders 1302: one folder holds the game.

- the rules (pure: no Flet, no TinyDB), by concern: `preparation.py` (the box, the variants, the setup),
  `rounds.py` (the round and its turn order), `cities.py` (city scoring), `scoring.py` (the final
  scoring); `rules.py` holds the table of allowed actions and `GAME`, the game's definition for the
  engine;
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
