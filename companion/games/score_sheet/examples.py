"""What the shared conformance tests (replay, undo, refusals, the allowed-actions table, both
languages: tests/test_engine.py and the tests built on it) play on this game: `SCRIPT`, a short
session through its main actions (new-game form, then actions), and `CONFIGS`, new-game forms that
between them reach every setup item, step and text of the game; for the random legal games of the
property tests (tests/fuzz.py), `arguments`, the arguments in range of an action the game's table
allows, and `score_input`, a finished game's own numbers as `companion score` input."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine.draw import Draw, player
from ...engine.model import Rule
from .rules import categories, missing

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


def arguments(kind: str, rule: Rule, state: Mapping, config: Mapping, draw: Draw) -> dict[str, Any] | None:
    """Arguments in range for an action the table allows (tests/fuzz.py plays random legal games with them):
    mostly the next cell still blank, now and then any cell (or a cell cleared)."""
    if kind != "score":
        return {}
    gap = missing(state, config)
    value = None if draw.integer(0, 9) == 0 else draw.integer(-20, 60)
    if gap is not None and draw.integer(0, 3):
        colour, round_, key = gap
        return {"player": colour, "category": key, "value": draw.integer(-20, 60), "round": round_}
    colour = player(draw, rule, config)
    return {"player": colour, "category": draw.choice(categories(config["sheet"])), "value": value,
            "round": draw.integer(1, len(state["cells"][colour]))}


def score_input(state: Mapping, config: Mapping) -> dict[str, Any]:
    """`companion score score-sheet` input from a finished game: the sheet and every cell."""
    keys = categories(config["sheet"])
    players = []
    for p in config["players"]:
        rows = [{k: cells.get(k, 0) for k in keys} for cells in state["cells"][p["colour"]]]
        players.append({"id": p["colour"], **({"rounds": rows} if config["sheet"]["per_round"] else {"scores": rows[0]})})
    return {"sheet": dict(config["sheet"]), "players": players}
