"""Village: the round and the family's books during it.

- the round: seeding, turns, the last cube, the mass (FACTS §2.4, §2.6): `STEPS`;
- plague, time and death (FACTS §2.4, §2.7; TV-V2, TV-V10): `_time`, `_death`, `deaths_due`, `_dying`;
- birth (FACTS §2.5.2; TV-V3): `_birth`;
- coins, grain, the church action and the next-starting-player marker: `_coins`, `_grain`, `_church`,
  `_next_marker`.
"""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import InvalidAction, Msg, N_, Step
from .box import (COINS, FARMYARD_GRAIN, GRAIN, PLAGUE_TIME, PROFESSIONS, _player, _seat, _whole, in_church, living,
                  lowest_visible)
from .ending import _final_action_done

STEPS = (Step("seed"), Step("turns", helper="turns"), Step("round_end"), Step("mass", helper="mass"))


def deaths_due(player: Mapping, lap: int) -> int:
    """Deaths the time track has caused so far and not yet carried out (one per bridge passed)."""
    return player["time"] // lap - player["deaths"]


def _dying(state: Mapping, config: Mapping) -> list[str]:
    """The families whose time marker passed the bridge and whose death is not yet recorded."""
    return [p["colour"] for p in config["players"] if deaths_due(state["players"][p["colour"]], config["lap"]) > 0]


def _begin(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "play"


def _goto_step(state: dict, args: Mapping, config: Mapping) -> None:
    if args.get("step") not in ("seed", "turns", "round_end"):
        raise InvalidAction(Msg(N_("There is no such step.")))
    state["step"] = args["step"]


def _next_turn(state: dict, args: Mapping, config: Mapping) -> None:
    """The next player clockwise (the table of allowed actions holds it back while a market day runs or
    a death the time track caused is due)."""
    colour = config["players"][state["turn"]]["colour"]
    if state["phase"] == "final_actions":
        _final_action_done(state, config, colour)
        return
    state["turn"] = (state["turn"] + 1) % len(config["players"])


def _time(state: dict, args: Mapping, config: Mapping) -> None:
    """Time spent (an action's hourglasses, or 2 for a plague cube): the marker moves on."""
    _colour, player = _player(state, config, args)
    amount = PLAGUE_TIME if args.get("plague") else _whole(args, "amount", 1, 12)
    player["time"] += amount


def _birth(state: dict, args: Mapping, config: Mapping) -> None:
    """Family action: the lowest-numbered member still in the supply is born onto the farmyard."""
    _colour, player = _player(state, config, args)
    numbers = [k for k, v in player["supply"].items() if v > 0]
    if not numbers:
        raise InvalidAction(Msg(N_("All 11 family members have been born.")))
    number = min(numbers, key=int)
    player["supply"][number] -= 1
    player["living"][number] = player["living"].get(number, 0) + 1


def _death(state: dict, args: Mapping, config: Mapping) -> None:
    """A member dies (the lowest-numbered visible one): to the chronicle of his profession if a space
    is free, else to an anonymous grave; in the final actions with neither free, out of the game.

    The books know how many members of each number live, and how many of them are in the black bag,
    not which: a member of a higher number may die only while every living member of a lower number
    could be in the bag (FACTS §2.7)."""
    colour, player = _player(state, config, args)
    number = args.get("number")
    if not isinstance(number, str) or player["living"].get(number, 0) <= 0:
        raise InvalidAction(Msg(N_("No living family member has that number.")), field="number")
    visible = lowest_visible(player)
    if visible is not None and int(number) > int(visible):
        raise InvalidAction(Msg(N_("A family member with a lower number is in sight: one of the lowest-numbered "
                                   "visible members dies.")), field="number")
    if args.get("profession") not in PROFESSIONS:
        raise InvalidAction(Msg(N_("Where did he work?")), field="profession")
    where = args.get("place")
    if where not in ("chronicle", "grave", "removed"):
        raise InvalidAction(Msg(N_("Choose where he goes.")), field="place")
    if where == "removed" and state["phase"] != "final_actions":
        raise InvalidAction(Msg(N_("Only in the final actions does a member leave the game when no space is "
                                   "free.")), field="place")
    if args["profession"] == "church":
        window = args.get("window")
        if not isinstance(window, int) or not 0 <= window < 4 or player["windows"][window] <= 0:
            raise InvalidAction(Msg(N_("None of his family sits on that church window.")), field="window")
        player["windows"][window] -= 1
    if in_church(player) > living(player) - 1:
        raise InvalidAction(Msg(N_("That member is in the black bag: choose a visible one.")), field="number")
    player["living"][number] -= 1
    player[{"chronicle": "chronicle", "grave": "graves", "removed": "removed"}[where]] += 1
    player["deaths"] += 1


def _coins(state: dict, args: Mapping, config: Mapping) -> None:
    """Coins gained (mill, travel) or spent (joker, council stage 4, mass), within the box's 15."""
    _colour, player = _player(state, config, args)
    delta = _whole(args, "delta", -COINS, COINS)
    if player["coins"] + delta < 0:
        raise InvalidAction(Msg(N_("Not enough coins.")), field="delta")
    if sum(p["coins"] for p in state["players"].values()) + delta > COINS:
        raise InvalidAction(Msg(N_("The box has only 15 coins.")), field="delta")
    player["coins"] += delta


def _grain(state: dict, args: Mapping, config: Mapping) -> None:
    """Grain harvested or paid, within 5 per farmyard and the box's 20 bags."""
    _colour, player = _player(state, config, args)
    delta = _whole(args, "delta", -GRAIN, GRAIN)
    if player["grain"] + delta < 0:
        raise InvalidAction(Msg(N_("Not enough grain.")), field="delta")
    if player["grain"] + delta > FARMYARD_GRAIN:
        raise InvalidAction(Msg(N_("A farmyard holds at most 5 grain bags.")), field="delta")
    if sum(p["grain"] for p in state["players"].values()) + delta > GRAIN:
        raise InvalidAction(Msg(N_("The box has only 20 grain bags.")), field="delta")
    player["grain"] += delta


def _church(state: dict, args: Mapping, config: Mapping) -> None:
    """Church action: a farmyard member goes into the black bag (1 brown cube or 3 time)."""
    _colour, player = _player(state, config, args)
    if in_church(player) >= living(player):
        raise InvalidAction(Msg(N_("Every living family member is already in the church.")))
    player["bag"] += 1


def _next_marker(state: dict, args: Mapping, config: Mapping) -> None:
    """Council stage 1: the next-starting-player marker (nothing if it is already taken)."""
    colour, _player_state = _player(state, config, args)
    state["next_start"] = _seat(config, colour)
