"""What the shared conformance tests (replay, undo, refusals, the allowed-actions table, both
languages: tests/test_engine.py and the tests built on it) play on this game: `SCRIPT`, a short
session through its main actions (new-game form, then actions), and `CONFIGS`, new-game forms that
between them reach every setup item, step and text of the game."""
from __future__ import annotations

from typing import Any

SCRIPT: tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]] = ({"start": 0, "variant": "elfengold", "wizards": True, "players": [
        {"colour": "red", "name": "A"}, {"colour": "blue", "name": "B"}]}, [
        ("tick", {"item": "board", "done": True}), ("begin", {}),
        ("next_phase", {}), ("reveal", {"tiles": ["dragon", "gold", "tree", "unicorn"]}),
        ("bid", {"player": "red", "amount": 30}), ("pass_bid", {"player": "blue"}),   # red cannot pay: broke
        ("bid", {"player": "blue", "amount": 2}), ("pass_bid", {"player": "blue"}),
        ("pass_bid", {"player": "blue"}), ("pass_bid", {"player": "blue"}),
        ("next_phase", {}), ("next_phase", {}),
        ("move", {"player": "red", "visits": [{"town": "beata"}, {"town": "virst", "gold_road": True}],
                  "take": "gold"}), ("pass_move", {"player": "blue", "gold_cards": 1}),
        ("gold_card", {}), ("take_pile", {"player": "blue"}),
        ("town", {"player": "blue", "town": "yttar", "collected": True}),
        ("adjust", {"player": "blue", "delta": -1, "reason": "x"}),
        ("advance", {"to": "end"}), ("advance", {"to": "draw"}), ("gold_card", {}),
        ("take_pile", {"player": "red", "cards": 1}), ("advance", {"to": "tiles"}), ("advance", {"to": "auction"}),
        ("bid", {"player": "blue", "amount": 1}), ("sit_out", {"player": "red"}),   # red bids no more
        ("no_bid", {"tile": 1, "winner": None, "price": None}),
        ("no_more_bids", {"tile": 2, "winner": None, "price": None}), ("advance", {"to": "move"}),
        ("nobody_moves", {"players": ["blue", "red"]}),
    ])

CONFIGS: list[dict[str, Any]] = [
    {"start": 0, "variant": variant, "wizards": wizards, "players": [{"colour": c, "name": c} for c in colours]}
    for variant, wizards, colours in (("elfengold", True, ("red", "blue")), ("elfengold", False, ("red", "blue", "black")),
                                      ("base", False, ("red", "blue", "green", "yellow", "purple", "black")))
]
