"""Carcassonne with The Gifts: one folder holds the game.

- `rules.py`: the table of allowed actions and `GAME`, its definition for the engine; the rules it
  assembles (pure: no Flet, no TinyDB) by concern: `features.py` (features and their scoring),
  `session.py` (setup, turns, meeples), `gifts.py` (The Gifts), `scoring.py` (the final tally),
  `describe.py` (log and header);
- `screens.py`: its own screens (new-game form, round guide, final scoring), found by the UI as
  `companion.games.carcassonne.screens`;
- `examples.py`: the sessions the conformance tests (tests/test_engine.py and the others) play on
  every game;
- `teach.py`: teach mode's explanations on the spot, with this table's names and numbers;
- its texts, in Czech and English: data/carcassonne.toml.

Importing the folder imports the rules only (`companion score` loads nothing else).
"""
from .rules import GAME

__all__ = ["GAME"]
