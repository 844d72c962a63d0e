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
from .cities import most_masters
from .preparation import STANDARD, STEPS, TWO_PLAYER, cities_in_play, guilds_in_play

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


def _city(draw: Draw, state: Mapping, config: Mapping) -> dict[str, Any]:
    """A city's scoring in range: completed quarters of some guilds in play, church quarters, a cathedral
    (not in the two-player variant), guild masters, now and then a neutral city centre."""
    quarters = {g: draw.integer(0, 3) for g in guilds_in_play(config) if draw.boolean()}
    city: dict[str, Any] = {"city": draw.choice([c for c in cities_in_play(config) if c not in state["cities"]]),
                            "quarters": quarters, "church": draw.integer(0, 2)}
    if config["variant"] == STANDARD:
        city["church_with_cathedral"] = draw.integer(0, 1)
    city["masters"] = {g: draw.integer(0, most_masters(n, config["variant"])) for g, n in quarters.items() if n}
    if draw.integer(0, 3) == 0:
        city["neutral_centre"] = 1
    return city


def arguments(kind: str, rule: Rule, state: Mapping, config: Mapping, draw: Draw) -> dict[str, Any] | None:
    """Arguments in range for an action the table allows (tests/fuzz.py plays random legal games with them)."""
    colours = [p["colour"] for p in config["players"]]
    if kind == "goto_step":
        return {"step": draw.choice([s.id for s in STEPS[config["variant"]]])}
    if kind == "turn_order":
        return {"cards": {c: draw.integer(1, state["influence"][c] + 1) for c in colours}}
    if kind == "action_done":
        return {"player": player(draw, rule, config)}
    if kind == "score_city":
        return _city(draw, state, config)
    if kind == "end_round":
        ends = draw.integer(0, 3) == 0
        if config["variant"] == TWO_PLAYER:
            return {"board": ends}
        deck = ends and draw.boolean()
        return {"board": ends and not deck, "deck": deck}
    if kind == "finish" and config["variant"] == STANDARD:
        return {"cards": {c: draw.choice([state["influence"][c], draw.integer(0, 4)]) for c in colours}}
    return {}


def score_input(state: Mapping, config: Mapping) -> dict[str, Any]:
    """`companion score flanders-1302` input from a finished game: every city scored, and each player's
    influence cards in hand (in the two-player variant, the influenced guild)."""
    if config["variant"] == TWO_PLAYER:
        players = [{"id": p["colour"], "influenced_guild": config["influenced"][p["colour"]]} for p in config["players"]]
    else:
        players = [{"id": p["colour"], "influence_cards": state["influence"][p["colour"]]} for p in config["players"]]
    cities = [{"name": name, **{k: v for k, v in city.items() if k != "round"}} for name, city in state["cities"].items()]
    return {"options": [TWO_PLAYER] if config["variant"] == TWO_PLAYER else [], "players": players, "cities": cities}
