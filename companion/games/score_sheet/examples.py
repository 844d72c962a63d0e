"""What the shared conformance tests (replay, undo, refusals, the allowed-actions table, both
languages: tests/test_engine.py and the tests built on it) play on this game: `SCRIPT`, a short
session through its main actions (new-game form, then actions), and `CONFIGS`, new-game forms that
between them reach every setup item, step and text of the game."""
from __future__ import annotations

from typing import Any

SCRIPT: tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]] = ({"start": 0, "sheet": {"name": "Azul", "categories": ["cards", "bonus"], "per_round": True,
                                           "lowest": False, "tie_break": "bonus"},
                     "players": [{"colour": "red", "name": "A"}, {"colour": "teal", "name": "B"}]}, [
        ("score", {"player": "red", "category": "cards", "value": 5, "round": 1}),
        ("score", {"player": "teal", "category": "cards", "value": -2, "round": 1}),
        ("score", {"player": "red", "category": "bonus", "value": 0, "round": 1}),
        ("score", {"player": "teal", "category": "bonus", "value": 3, "round": 1}),
        ("next_round", {}), ("score", {"player": "red", "category": "cards", "value": 1, "round": 2}),
        ("score", {"player": "red", "category": "cards", "value": None, "round": 2}),
    ])

CONFIGS: list[dict[str, Any]] = [
    {"start": 0, "sheet": {"name": "Golf", "categories": categories, "per_round": per_round, "lowest": lowest,
                           "tie_break": None}, "players": [{"colour": c, "name": c} for c in colours]}
    for categories, per_round, lowest, colours in (([], True, True, ("red",)), (["a", "b"], False, False,
                                                                             ("red", "blue", "lime")))
]
