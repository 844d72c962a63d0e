"""Village (Czech edition: Kronika panství): one folder holds the game.

- the rules (pure: no Flet, no TinyDB), by concern: `box.py` (the box and the scoring tables),
  `preparation.py`, `turns.py` (the round, time and death, the family's books), `market.py`, `mass.py`,
  `ending.py` (the final actions), `scoring.py`; `rules.py` holds the table of allowed actions and
  `GAME`, the game's definition for the engine;
- `screens.py`: its own screens (new-game form, round guide, final scoring), found by the UI as
  `companion.games.village.screens`;
- `examples.py`: the sessions the conformance tests (tests/test_engine.py and the others) play on
  every game;
- `teach.py`: teach mode's explanations on the spot, with this table's names and numbers;
- its texts, in Czech and English: data/village.toml.

Importing the folder imports the rules only (`companion score` loads nothing else).
"""
from .rules import GAME

__all__ = ["GAME"]
