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
from .income import income
from .preparation import (CITIES, CITY_MINIMUM, EVENTS, KNOWN_EVENT_CURRENCY, STATUS_ARTISTS, TILE_KINDS, TROOPS,
                          active_family, owns)
from .rules import scoring_input
from .war import war_armies

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


def _lot(draw: Draw, state: Mapping) -> dict[str, Any]:
    """What the player on turn auctions: a city tile (mostly a plain one), the Pope or an event tile of
    this decade, with a first bid near the minimum (or none: the Czech reading lets the opener pass)."""
    lot = draw.choice(["city", "pope", "event", "event", "event"])
    amount = draw.integer(0, 4)
    if lot == "city":
        city = draw.choice(CITIES)
        kind = draw.choice(["plain", "plain", "plain", "merchant", draw.choice(TILE_KINDS)])
        return {"lot": lot, "city": city, "tile": kind, "gold": draw.integer(0, 3), "influence": draw.integer(0, 2),
                "amount": CITY_MINIMUM * state["cities"][city]["status"] + amount}
    args: dict[str, Any] = {"lot": lot, "amount": None if draw.integer(0, 4) == 0 else amount}
    if lot == "event":
        event = draw.choice([e for e in EVENTS if e not in state["events_done"]] or list(EVENTS))
        args.update(event=event, currency=KNOWN_EVENT_CURRENCY.get(event, draw.choice(["gold", "influence"])),
                    vp=draw.integer(0, 4))
    return args


def _war(kind: str, draw: Draw, rule: Rule, state: Mapping, config: Mapping) -> dict[str, Any] | None:
    """A war's entries: the veto (by card or Lorenzo Medici), the Pope's side, a bribed troop, a
    modifier, the dice."""
    war = state["war"]
    if kind == "veto":
        who = player(draw, rule, config)
        if not state["players"][who]["treachery"] and not owns(state, who, "lorenzo_medici"):
            return None
        return {"player": who, "how": "lorenzo_medici" if owns(state, who, "lorenzo_medici") and draw.boolean()
                else "card"}
    if kind == "pope_joins":
        return {"player": player(draw, rule, config), "side": draw.choice(["attacker", "defender"])}
    if kind == "bribe":
        armies = war_armies(state, war)
        sides = [s for s, family in armies.items() if state["players"][family]["troops"]]
        if not sides:
            return None
        side, who = draw.choice(sides), player(draw, rule, config)
        if not state["players"][who]["treachery"]:
            return None
        return {"player": who, "side": side,
                "troop": draw.choice(sorted(state["players"][armies[side]]["troops"]))}
    if kind == "modifier":
        return {"attacker": draw.integer(-2, 2), "defender": draw.integer(-2, 2)}
    return {"dice": {"attacker": draw.integer(1, 6), "defender": draw.integer(1, 6)}}


def _ledger(kind: str, draw: Draw, rule: Rule, state: Mapping, config: Mapping) -> dict[str, Any] | None:
    """The entries that change the ledgers: troops, treachery cards, tile abilities, deals, corrections."""
    colours = [p["colour"] for p in config["players"]]
    turn = active_family(state, config)
    troops = state["players"][turn]["troops"]
    if kind == "buy_troop":
        return {"troop": draw.choice([t for t in TROOPS if t not in troops] or list(TROOPS)), "cost": draw.integer(1, 9),
                "attack": draw.integer(0, 3), "defence": draw.integer(0, 3), "gold": draw.integer(0, 1),
                "influence": draw.integer(0, 1)}
    if kind == "discard_troop":
        return {"troop": draw.choice(sorted(troops) or list(TROOPS))}
    if kind == "play_card":
        who = player(draw, rule, config)
        if not state["players"][who]["treachery"]:
            return None
        card = "freeze_bid" if state["auction"] else draw.choice(["steal_influence", "raid_gold"])
        return {"player": who, "card": card, "target": draw.choice([c for c in colours if c != who])}
    if kind == "ability":
        owners = [(f, a) for f in colours for a in ("banking", "lucrezia_borgia", "alfonso_of_aragon") if owns(state, f, a)]
        if not owners:
            return None
        who, ability = draw.choice(owners)
        return {"player": who, "ability": ability, "amount": draw.choice([-3, -1, 1, 2, 3]),
                "target": draw.choice([c for c in colours if c != who])}
    if kind == "transfer":
        giver = draw.choice(colours)
        currency = draw.choice(["gold", "influence"])
        return {"giver": giver, "taker": draw.choice([c for c in colours if c != giver]), "currency": currency,
                "amount": draw.integer(1, max(1, min(5, state["players"][giver][currency])))}
    return {"player": draw.choice(colours), "what": draw.choice(["gold", "influence", "vp", "treachery"]),
            "delta": draw.choice([-2, -1, 1, 3]), "reason": "miscounted"}


#: Entries a table makes now and then, not on every turn: drawn, they are made one time in three (so that
#: a random game gets through its three decades).
NOW_AND_THEN = ("transfer", "adjust", "ability", "modifier", "discard_troop", "buy_card", "play_card", "correct")


def arguments(kind: str, rule: Rule, state: Mapping, config: Mapping, draw: Draw) -> dict[str, Any] | None:
    """Arguments in range for an action the table allows (tests/fuzz.py plays random legal games with them)."""
    if kind in NOW_AND_THEN and draw.integer(0, 2):
        return None
    if kind == "open_auction":
        return _lot(draw, state)
    if kind in ("bid", "pass_bid"):
        who = player(draw, rule, config)
        if kind == "pass_bid":
            return {"player": who}
        return {"player": who, "amount": auction.lowest_bid(state["auction"]) + draw.integer(0, 2)}
    if kind == "place":
        return {"city": None if state["pending"]["event"] not in STATUS_ARTISTS and draw.boolean()
                else draw.choice(CITIES)}
    if kind == "declare_war":
        attacker = draw.choice(CITIES)
        return {"attacker": attacker, "defender": draw.choice([c for c in CITIES if c != attacker]),
                "card": state["acted"] or draw.integer(0, 5) == 0}
    if kind in ("veto", "pope_joins", "bribe", "modifier", "battle"):
        return _war(kind, draw, rule, state, config)
    if kind in ("buy_troop", "discard_troop", "play_card", "ability", "transfer", "adjust"):
        return _ledger(kind, draw, rule, state, config)
    if kind == "book_income":
        return {"incomes": {p["colour"]: {k: income(state, config, p["colour"])[k] for k in ("gold", "influence")}
                            for p in config["players"]}}
    return {}


def score_input(state: Mapping, config: Mapping) -> dict[str, Any]:
    """`companion score princes-of-the-renaissance` input from a finished game: the cities and the ledgers."""
    cities, players = scoring_input(state, config)
    return {"options": ["tied-gold-no-second"] if "tied_gold_no_second" in config["options"] else [],
            "cities": {c: dict(v) for c, v in cities.items()},
            "players": [{k: v for k, v in p.items() if k != "name"} for p in players]}
