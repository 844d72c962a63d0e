"""Princes of the Renaissance: a turn, troops, deals and ledger corrections.

Encodes (FACTS §3 of ../shared/rules/FACTS.md):
- a decade: one action per turn clockwise (FACTS §3.3, §3.4): `_begin`, `_end_turn`;
- the actions: troops (FACTS §3.4): `_buy_troop`, `_discard_troop`; while an auction runs, a deal
  that would leave its leader unable to pay is refused, and a ledger correction waits until the
  auction is over (FACTS §3.4): `_transfer`, `_adjust`.

Where the Czech summary and the English rules disagree (the readings, see `setup`):
- FACTS §3.4 and §6 "tradable items": VP counters may be traded too (`trade_vp`; English
  `trade_gold_influence_only`): `_transfer`.
"""
from __future__ import annotations

from collections.abc import Mapping
from ...engine.model import InvalidAction, Msg, N_

from .auction import _leader_can_pay
from .ledger import _count, _family, _spend
from .preparation import LEDGER_MAX, TROOPS, active_family, hand_limit, option, vp_counter_limit, wars_left


def _begin(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "play"


def _end_turn(state: dict, args: Mapping, config: Mapping) -> None:
    """End the turn (without an action it is a pass: the player may act again next time round)."""
    state.update(turn=(state["turn"] + 1) % len(config["players"]), acted=False, last_auction=None, last_war=None,
                 turn_cards=[])


def _troop_stats(args: Mapping) -> dict:
    """A troop's values read off its tile: every troop costs gold (no free troop from an untouched form)."""
    cost = args.get("cost")
    if isinstance(cost, bool) or not isinstance(cost, int) or not 1 <= cost <= 99:
        raise InvalidAction(Msg(N_("Enter the troop's price printed on the tile (1 to 99 gold).")), field="cost")
    return {"cost": cost,
            "attack": _count(args.get("attack"), "attack", 0, 9),
            "defence": _count(args.get("defence"), "defence", 0, 9),
            "gold": _count(args.get("gold", 0), "gold", 0, 9),
            "influence": _count(args.get("influence", 0), "influence", 0, 9)}


def _buy_troop(state: dict, args: Mapping, config: Mapping) -> None:
    """Buy a troop for the gold printed on it; only one troop of each type (FACTS §3.4.1)."""
    family = active_family(state, config)
    troop = args.get("troop")
    if troop not in TROOPS:
        raise InvalidAction(Msg(N_("Choose a troop.")), field="troop")
    if troop in state["players"][family]["troops"]:
        raise InvalidAction(Msg(N_("Only one troop of each type per player.")), field="troop")
    stats = _troop_stats(args)
    _spend(state, family, "gold", stats["cost"], "cost")
    state["players"][family]["troops"][troop] = stats
    state["acted"] = True


def _discard_troop(state: dict, args: Mapping, config: Mapping) -> None:
    family = active_family(state, config)
    if args.get("troop") not in state["players"][family]["troops"]:
        raise InvalidAction(Msg(N_("This player has no such troop.")), field="troop")
    del state["players"][family]["troops"][args["troop"]]
    state["acted"] = True


def _transfer(state: dict, args: Mapping, config: Mapping) -> None:
    """A deal between players: gold or influence (VP counters too with the option `trade_vp`)."""
    giver = _family(state, args.get("giver"), "giver")
    taker = _family(state, args.get("taker"), "taker")
    if giver == taker:
        raise InvalidAction(Msg(N_("Choose another player.")), field="taker")
    allowed = ("gold", "influence", "vp") if option(config, "trade_vp") else ("gold", "influence")
    currency = args.get("currency")
    if currency not in allowed:
        raise InvalidAction(Msg(N_("Only gold and influence may change hands.")), field="currency")
    amount = _count(args.get("amount"), "deal_amount", 1, LEDGER_MAX)
    if state["players"][giver][currency] < amount:
        raise InvalidAction(Msg(N_("The giver holds only {n}."), {"n": state["players"][giver][currency]}),
                            field="deal_amount")
    state["players"][giver][currency] -= amount
    state["players"][taker][currency] += amount
    _leader_can_pay(state, config, "deal_amount")


def _adjust(state: dict, args: Mapping, config: Mapping) -> None:
    """A ledger correction with a reason (a miscount at the table; never during an auction, see `moves`).
    VP counters stay within the wars a game can have less those still to come (`wars_left`): a counter
    is a war won, so the wars fought after a correction can never take the total past the box's rule."""
    family = _family(state, args.get("player"))
    what = args.get("what")
    if what not in ("gold", "influence", "vp", "treachery"):
        raise InvalidAction(Msg(N_("Choose what to correct.")), field="what")
    delta = args.get("delta")
    if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0 or abs(delta) > LEDGER_MAX:
        raise InvalidAction(Msg(N_("Enter a whole number other than 0.")), field="delta")
    reason = args.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidAction(Msg(N_("Say why the ledger is corrected.")), field="reason")
    value = state["players"][family][what] + delta
    players = len(config["players"])
    high = {"treachery": hand_limit(state, family),
            "vp": vp_counter_limit(players) - wars_left(state, players) - sum(
                p["vp"] for f, p in state["players"].items() if f != family)}.get(what, LEDGER_MAX)
    if not 0 <= value <= high:
        if what == "vp":
            raise InvalidAction(Msg(N_("A game hands out one VP counter per war won, at most {n} in all, and {left} "
                                       "wars can still come: this player can have from 0 to {high}."),
                                    {"n": vp_counter_limit(players), "left": wars_left(state, players),
                                     "high": max(0, high)}), field="delta")
        raise InvalidAction(Msg(N_("The result must be from 0 to {n}."), {"n": high}), field="delta")
    state["players"][family][what] = value
    state["corrections"].append({"track": family, "what": what, "points": delta, "reason": reason.strip()[:200]})


def _finish(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "over"
