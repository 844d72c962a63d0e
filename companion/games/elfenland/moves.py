"""Elfenland's moves and the race for towns.

Encodes ../shared/rules/FACTS.md §5.1, §5.4.5, §5.5, §5.6.3:
- travel-card costs per road: terrain, transport, obstacles, sea monsters, rafts, caravans
  (FACTS §5.1 cost table, §5.4.5; TV-E1…E4, TV-E6): `road_cost`;
- obstacles: one per road, so a wizard card stands in for at most one obstacle card per road
  travelled (FACTS §5.1, §5.6.3): `_move`;
- the town race: 20 town pieces, a piece collected in each new town reached (FACTS §5.5): `_move`,
  `_town` (the game's end: `phases._end_round`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine.model import InvalidAction, Msg, N_, P_
from .elfengold import WIZARD_CARPET, WIZARD_OBSTACLE, _gold_cards_drawn, _pay, move_gold
from .preparation import CAPITAL, GOLD_DISCS, TOWN_LIST, _player, _variant, colour_at


TRANSPORTS = ("giant_pig", "elfcycle", "magic_cloud", "unicorn", "troll_wagon", "dragon")


TERRAINS = ("plains", "woods", "desert", "mountains")


WATERS = ("downstream", "upstream", "lake")


#: Travel cards per road (FACTS §5.1): transport → cards per terrain, None where it cannot go.
COST = {"giant_pig": (1, 1, None, None), "elfcycle": (1, 1, None, 2), "magic_cloud": (2, 2, None, 1),
        "unicorn": (None, 1, 2, 1), "troll_wagon": (1, 2, 2, 2), "dragon": (1, 2, 1, 1)}


RAFTS = {"downstream": 1, "upstream": 2, "lake": 2}


CARAVAN = 3


def road_cost(road: str, transport: str | None, obstacle: bool = False) -> int | None:
    """Travel cards for one road (FACTS §5.1; TV-E1…E4, E6): the transport's cost on that terrain, or
    rafts on water (no counter needed); a caravan (transport None) pays any 3 cards, never on water;
    an obstacle (a tree on land, a sea monster on water) adds one card. None: not possible."""
    if road in WATERS:
        return RAFTS[road] + obstacle
    if transport is None:
        return CARAVAN + obstacle
    cost = COST[transport][TERRAINS.index(road)]
    return None if cost is None else cost + obstacle


def waiting_movers(state: Mapping, config: Mapping) -> list[str]:
    """The players who have not moved this round, in moving order from the one on turn."""
    n = len(config["players"])
    seats = [colour_at(config, state["turn"] + i) for i in range(n)]
    return [c for c in seats if not state["players"][c]["moved"]]


def destinations(here: str) -> list[str]:
    """The towns a road may lead to from `here` (FACTS §5.1: a move travels roads between towns): every
    other town (the board's roads are not encoded: the players see them), in the box's order."""
    return [t for t in TOWN_LIST if t != here]


def _check_visits(state: Mapping, config: Mapping, family: str, raw: Any) -> list[dict]:
    if not isinstance(raw, list) or not raw:
        raise InvalidAction(Msg(N_("Tap the towns reached, in order.")), field="visits")
    visits, here = [], state["players"][family]["at"]
    for visit in raw:
        if not isinstance(visit, Mapping) or visit.get("town") not in TOWN_LIST:
            raise InvalidAction(Msg(N_("Tap the towns reached, in order.")), field="visits")
        if visit["town"] not in destinations(here):
            raise InvalidAction(Msg(N_("A road leads to another town.")), field="visits")
        carpet, gold_road = bool(visit.get("carpet")), bool(visit.get("gold_road"))
        if carpet and not config["wizards"]:
            raise InvalidAction(Msg(N_("The flying carpet is an Elf-wizard card.")), field="visits")
        if carpet and gold_road:
            raise InvalidAction(Msg(N_("A flying carpet uses no road.")), field="visits")
        if gold_road and _variant(config) != "elfengold":
            raise InvalidAction(Msg(N_("That is an Elfengold rule.")), field="visits")
        visits.append({"town": visit["town"], "carpet": carpet, "gold_road": gold_road})
        here = visit["town"]
    return visits


def _move(state: dict, args: Mapping, config: Mapping) -> None:
    """The player on turn moves: the towns reached in order (new town pieces collected), then the
    gold of the move or 2 cards instead (Elfengold), paying any Elf-wizard costs first."""
    family = _player(state, args.get("player"))
    visits = _check_visits(state, config, family, args.get("visits"))
    p = state["players"][family]
    earned, cost = 0, 0
    if _variant(config) == "elfengold":
        take = args.get("take")
        if take not in ("gold", "cards"):
            raise InvalidAction(Msg(N_("Gold or 2 cards?")), field="take")
        obstacles = args.get("wizard_obstacles", 0)
        roads = sum(not v["carpet"] for v in visits)      # a road holds at most one obstacle
        if (isinstance(obstacles, bool) or not isinstance(obstacles, int) or obstacles < 0
                or (obstacles and not config["wizards"]) or obstacles > roads):
            raise InvalidAction(P_("Enter how many obstacles a wizard card paid for: a road holds at most one "
                                   "obstacle, and this move used {n} road.",
                                   "Enter how many obstacles a wizard card paid for: a road holds at most one "
                                   "obstacle, and this move used {n} roads.", roads), field="wizard_obstacles")
        cost = WIZARD_OBSTACLE * obstacles + WIZARD_CARPET * sum(v["carpet"] for v in visits)
        if cost > p["gold"]:
            raise InvalidAction(Msg(N_("The wizard costs {n} gold; this player has {have}."),
                                    {"n": cost, "have": p["gold"]}), field="wizard_obstacles")
        p["gold"] -= cost                                  # to the bank, before the bank pays the move
        earned = _pay(state, family, move_gold(visits)[0]) if take == "gold" else 0
        state["gold_pile"] += _gold_cards_drawn(state, config, args, take == "cards")
    new = [v["town"] for v in visits if v["town"] != CAPITAL and v["town"] not in p["towns"]]
    p["towns"] += list(dict.fromkeys(new))
    p["at"], p["moved"] = visits[-1]["town"], True
    state["last_move"] = {"player": family, "visits": visits, "earned": earned, "cost": cost,
                          "take": args.get("take"), "new": list(dict.fromkeys(new))}
    _next_mover(state, config)


def _pass_move(state: dict, args: Mapping, config: Mapping) -> None:
    """The player on turn does not move (in Elfengold he draws 2 cards)."""
    family = _player(state, args.get("player"))
    state["gold_pile"] += _gold_cards_drawn(state, config, args, _variant(config) == "elfengold")
    state["players"][family]["moved"] = True
    state["last_move"] = {"player": family, "visits": [], "earned": 0, "cost": 0, "take": "cards", "new": []}
    _next_mover(state, config)


def _next_mover(state: dict, config: Mapping) -> None:
    for i in range(1, len(config["players"]) + 1):
        seat = (state["turn"] + i) % len(config["players"])
        if not state["players"][colour_at(config, seat)]["moved"]:
            state["turn"] = seat
            return


def _town(state: dict, args: Mapping, config: Mapping) -> None:
    """A correction: a town piece collected or given back."""
    family = _player(state, args.get("player"))
    town, collected = args.get("town"), args.get("collected")
    if town not in GOLD_DISCS or not isinstance(collected, bool):
        raise InvalidAction(Msg(N_("Choose a town.")), field="town")
    towns = state["players"][family]["towns"]
    if collected and town not in towns:
        towns.append(town)
    elif not collected and town in towns:
        towns.remove(town)
