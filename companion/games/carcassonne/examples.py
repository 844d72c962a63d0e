"""What the shared conformance tests (replay, undo, refusals, the allowed-actions table, both
languages: tests/test_engine.py and the tests built on it) play on this game: `SCRIPT`, a short
session through its main actions (new-game form, then actions), and `CONFIGS`, new-game forms that
between them reach every setup item, step and text of the game."""
from __future__ import annotations

from typing import Any

SCRIPT: tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]] = ({"start": 1, "gifts": True, "players": [{"colour": "red", "name": "A"},
                                                           {"colour": "black", "name": "B"}]}, [
        ("tick", {"item": "tiles", "done": True}), ("begin", {}), ("goto_step", {"step": "place"}),
        ("meeple", {"player": "red", "delta": 1}), ("gift_draw", {}),
        ("score_feature", {"type": "road", "tiles": 3, "meeples": {"red": 1}}), ("next_turn", {}),
        ("correct", {"track": "black", "points": 2, "reason": "x"}),
        ("end_game", {}), ("tally_next", {}),
        ("meeple", {"player": "black", "delta": 1}), ("tally_feature", {"type": "city", "tiles": 2, "meeples": {"black": 1}}),
        ("tally_next", {}), ("tally_next", {}), ("tally_next", {}), ("finish", {}),
    ])

CONFIGS: list[dict[str, Any]] = [
    {"start": 0, "gifts": gifts, "players": [{"colour": c, "name": c} for c in ("red", "blue", "black")]}
    for gifts in (True, False)
]
