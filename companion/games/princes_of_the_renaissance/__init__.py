"""Princes of the Renaissance: one folder holds the game.

- `rules.py`: `GAME`, its definition for the engine, assembled from the rules split by concern
  (pure: no Flet, no TinyDB): `preparation.py`, `ledger.py`, `turn.py`, `abilities.py`, `auction.py`,
  `war.py`, `income.py`, `scoring.py` and `moves.py` (the allowed-actions table);
- `screens.py`: its own screens (new-game form, round guide, final scoring), found by the UI as
  `companion.games.princes_of_the_renaissance.screens`;
- `examples.py`: the sessions the conformance tests (tests/test_engine.py and the others) play on
  every game;
- `teach.py`: teach mode's explanations on the spot, with this table's names and numbers;
- its texts, in Czech and English: data/princes_of_the_renaissance.toml.

Importing the folder imports the rules only (`companion score` loads nothing else).
"""
from .rules import GAME

__all__ = ["GAME"]
