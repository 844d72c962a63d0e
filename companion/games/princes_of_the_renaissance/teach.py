"""Princes of the Renaissance teaching (companion/teach.py finds it here): its round is the decade, the
step shown is the war or the auction under way, and on the spot the last war and the last auction,
with this table's names and numbers. Pure: no Flet, no TinyDB."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import Msg, N_, P_, Ref
from . import rules


def round_of(state: Mapping, log: list) -> int:
    """The decade."""
    return state["decade"]


def step(config: Mapping, state: Mapping) -> str | None:
    """The step whose "how" and "why" are shown: a war, an auction, else the player's turn."""
    if state.get("war"):
        return "war"
    return "auction" if state.get("auction") else "turn"


def explain(config: Mapping, state: Mapping, names: Mapping[str, str]) -> list[Msg]:
    """The last war fought, else the last auction (empty before either)."""
    war = state.get("last_war")
    if war and war.get("rounds"):
        return _war(state, war, names)
    done = state.get("last_auction")
    if done:
        return _auction(state, done, names)
    return []


def _war(state: Mapping, war: Mapping, names: Mapping[str, str]) -> list[Msg]:
    last = war["rounds"][-1]["sides"]
    lines = [Msg(N_("War: {attacker} attacked {defender}. Each side adds its troops to its die: "
                    "{attacker} {a}, {defender} {d}."),
                 {"attacker": rules.city_name(war["attacker"]), "defender": rules.city_name(war["defender"]),
                  "a": last["attacker"]["total"], "d": last["defender"]["total"]})]
    if not war["winner"]:
        lines.append(Msg(N_("Nobody wins this war: the statuses stay.")))
        return lines
    winner = war["winner"]
    lines.append(P_("{city} wins and its status rises by {n}, the loser's falls by {n} (twice the loser's "
                    "total or more: 2, else 1).",
                    "{city} wins and its status rises by {n}, the loser's falls by {n} (twice the loser's "
                    "total or more: 2, else 1).", war["change"], city=rules.city_name(war[winner])))
    hired = war["condottieri"][winner]
    if hired:
        lines.append(Msg(N_("{name} led the winning side and takes a VP counter: {n} now."),
                         {"name": names[hired], "n": state["players"][hired]["vp"]}))
    return lines


def _lot(state: Mapping, lot: Mapping) -> Msg | Ref:
    """What was auctioned: a city, the Pope, an event, or a condottiere (of its side in the war under way)."""
    what = {"city": rules.city_name(lot.get("city", "")), "pope": rules.text("pope"),
            "event": rules.text(f"event.{lot.get('event')}")}.get(lot["kind"])
    if what is not None:
        return what
    side = (state.get("war") or {}).get(lot.get("side"))
    return Msg(N_("the condottiere of {city}"), {"city": rules.city_name(side)}) if side else Msg(N_("a condottiere"))


def _auction(state: Mapping, done: Mapping, names: Mapping[str, str]) -> list[Msg]:
    what = _lot(state, done["lot"])
    if not done["winner"]:
        return [Msg(N_("Auction: {lot}. Everyone passed: nobody takes it."), {"lot": what})]
    winner = done["winner"]
    currency = rules.text(f"currency.{done['currency']}")
    lines = [Msg(N_("Auction: {lot}. Each player in turn raised or passed, and a pass is final; "
                    "{name} bid {bid} last and takes it."), {"lot": what, "name": names[winner], "bid": done["bid"]}),
             Msg(N_("{name} pays {paid} ({currency}) and has {left} left."),
                 {"name": names[winner], "paid": done["paid"], "currency": currency,
                  "left": state["players"][winner][done["currency"]]})]
    if done["paid"] < done["bid"]:
        lines.append(Msg(N_("The price is {paid}, not {bid}: {name}'s tiles give a discount."),
                         {"name": names[winner], "paid": done["paid"], "bid": done["bid"]}))
    return lines
