"""What the shared conformance tests (replay, undo, refusals, the allowed-actions table, both
languages: tests/test_engine.py and the tests built on it) play on this game: `SCRIPT`, a short
session through its main actions (new-game form, then actions), and `CONFIGS`, new-game forms that
between them reach every setup item, step and text of the game."""
from __future__ import annotations

from typing import Any

SCRIPT: tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]] = ({"variant": "standard", "start": 1, "players": [
        {"colour": "blue", "name": "A"}, {"colour": "red", "name": "B"}, {"colour": "green", "name": "C"}],
        "empty_city": "ypres"}, [
        ("tick", {"item": "board", "done": True}), ("begin", {}), ("goto_step", {"step": "reveal"}),
        ("turn_order", {"cards": {"blue": 2, "red": 1, "green": 3}}), ("action_done", {"player": "green"}),
        ("action_done", {"player": "blue"}), ("action_done", {"player": "red"}), ("gold_influence", {}),
        ("goto_step", {"step": "scoring"}),
        ("score_city", {"city": "ghent", "quarters": {"blue": 2, "red": 1}, "church": 1}),
        ("correct", {"track": "grey", "points": 1, "reason": "forgot"}),
        ("end_round", {"board": False, "deck": False}), ("goto_step", {"step": "scoring"}),
        ("end_round", {"board": True, "deck": False}),
        *[("score_city", {"city": c, "quarters": {"grey": 1}}) for c in ("bruges", "leuven", "utrecht", "liege")],
        ("finish", {"cards": {"blue": 2, "red": 4, "green": 1}}),
    ])

CONFIGS: list[dict[str, Any]] = [
    {"variant": "standard", "start": 0, "empty_city": "leuven",
     "players": [{"colour": c, "name": c} for c in ("blue", "red", "green")]},
    {"variant": "standard", "start": 0, "players": [{"colour": c, "name": c} for c in ("blue", "red", "green", "yellow")]},
    {"variant": "two-player", "start": 0, "players": [{"colour": c, "name": c} for c in ("blue", "red")],
     "influenced": {"blue": "green", "red": "yellow"}},
]
