"""What the shared conformance tests (replay, undo, refusals, the allowed-actions table, both
languages: tests/test_engine.py and the tests built on it) play on this game: `SCRIPT`, a short
session through its main actions (new-game form, then actions), and `CONFIGS`, new-game forms that
between them reach every setup item, step and text of the game."""
from __future__ import annotations

from typing import Any

SCRIPT: tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]] = ({"start": 1, "players": [
        {"colour": "baglioni", "name": "A"}, {"colour": "d_este", "name": "B"}, {"colour": "gonzaga", "name": "C"}]}, [
        ("tick", {"item": "board", "done": True}), ("begin", {}),
        ("buy_troop", {"troop": "pike", "cost": 4, "attack": 0, "defence": 2}), ("end_turn", {}),
        ("open_auction", {"lot": "city", "city": "rome", "tile": "plain", "gold": 1, "influence": 0, "amount": 10}),
        ("bid", {"player": "baglioni", "amount": 11}), ("pass_bid", {"player": "d_este"}), ("pass_bid", {"player": "gonzaga"}),
        ("end_turn", {}), ("declare_war", {"attacker": "rome", "defender": "milan"}), ("no_veto", {}),
        ("bid", {"player": "d_este", "amount": 2}), ("battle", {"dice": {"attacker": 4, "defender": 2}}),
        ("transfer", {"giver": "gonzaga", "taker": "d_este", "currency": "gold", "amount": 3}),
        ("adjust", {"player": "gonzaga", "what": "vp", "delta": 1, "reason": "x"}),
    ])

CONFIGS: list[dict[str, Any]] = [
    {"start": 0, "edition": edition, "options": options, "players": [{"colour": c, "name": c} for c in families]}
    for edition, options, families in (
        ("czech", [], ("baglioni", "gonzaga", "d_este")),
        ("czech", ["counter_attack", "banking_any_time", "tied_gold_no_second"],
         ("baglioni", "gonzaga", "d_este", "malatesta", "bentivogli", "montefeltro")),
        ("english", ["opener_may_pass"], ("baglioni", "gonzaga", "d_este", "malatesta")))
]
