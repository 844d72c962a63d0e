"""What the shared conformance tests (replay, undo, refusals, the allowed-actions table, both
languages: tests/test_engine.py and the tests built on it) play on this game: `SCRIPT`, a short
session through its main actions (new-game form, then actions), and `CONFIGS`, new-game forms that
between them reach every setup item, step and text of the game; for the random legal games of the
property tests (tests/fuzz.py), `arguments`, the arguments in range of an action the game's table
allows, and `score_input`, a finished game's own numbers as `companion score` input."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine import auction
from ...engine.draw import Draw, player
from ...engine.model import Rule
from .moves import waiting_movers
from .phases import next_stop
from .preparation import ELFENGOLD, GOLD_DISCS, HAND_AFTER_MOVE, TOWN_LIST, _variant

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


def _move(draw: Draw, colour: str, state: Mapping, config: Mapping) -> dict[str, Any]:
    """A move of one to three towns (a wizard's carpet or a gold road now and then in Elfengold), with
    its gold or 2 cards."""
    gold = _variant(config) == ELFENGOLD
    visits, here = [], state["players"][colour]["at"]
    for _town in range(draw.integer(1, 3)):
        town = draw.choice([t for t in TOWN_LIST if t != here])
        carpet = gold and config["wizards"] and draw.integer(0, 5) == 0
        visits.append({"town": town, "carpet": carpet, "gold_road": gold and not carpet and draw.integer(0, 3) == 0})
        here = town
    args: dict[str, Any] = {"player": colour, "visits": visits}
    if gold:
        args["take"] = draw.choice(["gold", "cards"])
        args["wizard_obstacles"] = draw.integer(0, 1) if config["wizards"] else 0
        args["gold_cards"] = draw.integer(0, 1) if args["take"] == "cards" else 0
    return args


def _auction(kind: str, draw: Draw, rule: Rule, state: Mapping, config: Mapping) -> dict[str, Any]:
    """A bid of the bidder on turn (a little over the highest), a pass, or one of the quiet paths for
    the tile on offer."""
    current = state["auction"]
    if kind in ("no_bid", "no_more_bids"):
        return {"tile": current["lot"]["index"], "winner": current["leader"], "price": current["high"]}
    args: dict[str, Any] = {"player": player(draw, rule, config)}
    if kind == "bid":
        args["amount"] = auction.lowest_bid(current) + draw.integer(0, 3)
    return args


def arguments(kind: str, rule: Rule, state: Mapping, config: Mapping, draw: Draw) -> dict[str, Any] | None:
    """Arguments in range for an action the table allows (tests/fuzz.py plays random legal games with them)."""
    colours = [p["colour"] for p in config["players"]]
    if kind == "advance":
        return {"to": next_stop(state, config)}
    if kind in ("bid", "pass_bid", "sit_out", "no_bid", "no_more_bids"):
        return _auction(kind, draw, rule, state, config)
    if kind == "move":
        return _move(draw, player(draw, rule, config), state, config)
    if kind == "pass_move":
        cards = _variant(config) == ELFENGOLD and draw.integer(0, 3) == 0
        return {"player": player(draw, rule, config), "gold_cards": 1 if cards else 0}
    if kind == "nobody_moves":
        return {"players": waiting_movers(state, config)}
    if kind == "take_pile":
        return {"player": player(draw, rule, config), "cards": state["gold_pile"]}
    if kind == "town":
        return {"player": player(draw, rule, config), "town": draw.choice(sorted(GOLD_DISCS)), "collected": draw.boolean()}
    if kind == "adjust":
        return {"player": player(draw, rule, config), "delta": draw.choice([-3, -1, 1, 2, 5]), "reason": "miscounted"}
    if kind == "cards":
        return {"cards": {c: draw.integer(0, HAND_AFTER_MOVE) for c in colours}}
    return {}


def score_input(state: Mapping, config: Mapping) -> dict[str, Any]:
    """`companion score elfenland` input from a finished game: each player's town pieces, and gold
    (Elfengold) or travel cards in hand (the base game's tie-break)."""
    gold = _variant(config) == ELFENGOLD
    return {"options": [ELFENGOLD] if gold else [],
            "players": [{"id": p["colour"], "towns": len(state["players"][p["colour"]]["towns"]),
                         **({"gold": state["players"][p["colour"]]["gold"]} if gold
                            else {"cards": state["players"][p["colour"]]["cards"]})}
                        for p in config["players"]]}
