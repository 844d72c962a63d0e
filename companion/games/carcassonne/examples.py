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
from .features import MEEPLES, MIN_COMPLETE, MONASTERY_AREA
from .gifts import GIFT_KINDS
from .session import ORDER, tallied

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


def _meeples(draw: Draw, free: Mapping[str, int]) -> dict[str, int]:
    """Meeples on a feature: some of those each player has on the board."""
    return {c: draw.integer(1, n) for c, n in free.items() if n and draw.boolean()}


def _feature(draw: Draw, kind: str, complete: bool, free: Mapping[str, int]) -> dict[str, Any]:
    """A feature in range: a road or city of its tiles (a city with pennants), a monastery, a field."""
    if kind == "field":
        return {"type": kind, "cities": draw.integer(0, 12), "meeples": _meeples(draw, free)}
    if kind == "monastery":
        tiles = MONASTERY_AREA if complete else draw.integer(1, MONASTERY_AREA - 1)
        return {"type": kind, "tiles": tiles, "meeples": _meeples(draw, free)}
    tiles = draw.integer(MIN_COMPLETE if complete else 1, 12)
    feature: dict[str, Any] = {"type": kind, "tiles": tiles, "meeples": _meeples(draw, free)}
    if kind == "city":
        feature["pennants"] = draw.integer(0, min(tiles, 4))
    return feature


def arguments(kind: str, rule: Rule, state: Mapping, config: Mapping, draw: Draw) -> dict[str, Any] | None:
    """Arguments in range for an action the table allows (tests/fuzz.py plays random legal games with them)."""
    on_board = dict(state["meeples"])
    if kind == "goto_step":
        return {"step": draw.choice([s for s in ORDER if s != "gift" or config["gifts"]])}
    if kind == "meeple":
        return {"player": player(draw, rule, config), "delta": draw.choice([1, 1, -1])}
    if kind == "score_feature":
        return _feature(draw, draw.choice(["road", "city", "monastery"]), True, on_board)
    if kind == "gift_open":
        return {"card": draw.choice(GIFT_KINDS)}
    if kind == "road_sweeper":
        return {k: v for k, v in _feature(draw, "road", False, on_board).items() if k != "type"}
    if kind == "cash_out":
        return {"meeples": draw.integer(1, MEEPLES)}
    if kind == "tally_feature":
        counted = tallied(state)
        return _feature(draw, state["category"], False, {c: n - counted[c] for c, n in on_board.items()})
    if kind == "end_game" and draw.integer(0, 5):
        return None  # the game goes on a while before its last tile
    return {}


def score_input(state: Mapping, config: Mapping) -> dict[str, Any]:
    """`companion score carcassonne` input from a finished game: the score track, the unopened gifts
    and the features of the final tally."""
    players = [{"id": p["colour"], "track": state["scores"][p["colour"]],
                **({"gifts": state["gifts"]["held"][p["colour"]]} if config["gifts"] else {})}
               for p in config["players"]]
    return {"options": ["gifts"] if config["gifts"] else [], "players": players,
            "features": [dict(f) for f in state["tally"]]}
