"""What the shared conformance tests (replay, undo, refusals, the allowed-actions table, both
languages: tests/test_engine.py and the tests built on it) play on this game: `SCRIPT`, a short
session through its main actions (new-game form, then actions), and `CONFIGS`, new-game forms that
between them reach every setup item, step and text of the game."""
from __future__ import annotations

from typing import Any

SCRIPT: tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]] = ({"start": 0, "lap": 6, "players": [{"colour": "red", "name": "A"}, {"colour": "ivory", "name": "B"}]}, [
        ("tick", {"item": "board", "done": True}), ("begin", {}), ("time", {"player": "red", "amount": 3}),
        ("market_start", {"player": "red"}), ("market_sell", {"player": "red", "prestige": 4, "goods": ["horse"]}),
        ("market_pass", {"player": "ivory"}), ("market_pass", {"player": "red"}), ("church", {"player": "ivory"}),
        ("coins", {"player": "ivory", "delta": 2}), ("correct", {"track": "red", "points": 3, "reason": "travel"}),
        ("next_turn", {}), ("round_end", {}), ("mass_buy", {"player": "ivory"}),
        ("mass_draw", {"members": {}, "monks": 3}), ("mass_end", {}),
        ("time", {"player": "ivory", "amount": 6}),
        ("death", {"player": "ivory", "number": "1", "profession": "farmyard", "place": "grave"}),
        ("market_start", {"player": "red"}), ("end_trigger", {"player": "ivory"}), ("market_pass", {"player": "red"}),
        ("market_pass", {"player": "ivory"}), ("next_turn", {}), ("next_turn", {}), ("mass_quiet", {}),
        ("finish", {"players": {"red": {"cities_visited": 1, "council": [0, 0, 0, 0]},
                                "ivory": {"cities_visited": 0, "council": [0, 0, 0, 0]}}}),
    ])

CONFIGS: list[dict[str, Any]] = [
    {"start": 0, "lap": 8, "players": [{"colour": c, "name": c} for c in colours]}
    for colours in (("red", "blue"), ("red", "blue", "ivory"), ("red", "blue", "ivory", "yellow"))
]
