"""Princes of the Renaissance teaching (companion/teach.py finds it here): its round is the decade, the
step shown is the war or the auction under way, and on the spot each war (the attack, the counter-attack,
the statuses it moved) and each auction, with this table's names and numbers. Pure: no Flet, no TinyDB."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import Msg, N_, Ref
from . import rules

#: The end of a turn: the next player's turn shows its cards anew.
TURN_ENDS = ("end_turn",)


def round_of(state: Mapping, log: list) -> int:
    """The decade."""
    return state["decade"]


def step(config: Mapping, state: Mapping) -> str | None:
    """The step whose "how" and "why" are shown: a war, an auction, else the player's turn."""
    if state.get("war"):
        return "war"
    return "auction" if state.get("auction") else "turn"


def round_steps(config: Mapping) -> list[str]:
    """A turn, an auction, a war: what a decade is made of."""
    return ["turn", "auction", "war"]


def explain(config: Mapping, state: Mapping, names: Mapping[str, str], log: list) -> list[Msg]:
    """The last thing this turn settled: a condottiere auction of the war under way, else the war just
    fought, else the last auction (empty before any)."""
    war, done = state.get("war"), state.get("last_auction")
    if war:  # its condottiere auctions: the attacker's is settled once the defender's is on
        if done and war["stage"] in ("defender", "battle") and done["lot"]["kind"] == "condottiere":
            return _auction(state, done, names)
        return []
    if state.get("last_war"):
        return _war(state, state["last_war"], names)
    return _auction(state, done, names) if done else []


def _war(state: Mapping, war: Mapping, names: Mapping[str, str]) -> list[Msg]:
    cities = {"attacker": rules.city_name(war["attacker"]), "defender": rules.city_name(war["defender"])}
    if war.get("vetoed"):
        return [Msg(N_("War: {attacker} against {defender}. {name} vetoed it: it does not happen, but it still "
                       "counts on the war track."), {**cities, "name": names[war["vetoed"]]})]
    if not war["rounds"]:
        return [Msg(N_("War: {attacker} against {defender}. Nobody became condottiere, so the war ends without a "
                       "result."), cities)]
    first = war["rounds"][0]["sides"]
    lines = [Msg(N_("War: {attacker} attacked {defender}. {attacker}'s troops attack and {defender}'s defend, each "
                    "side adding its die: {attacker} {a} against {defender} {d}."),
                 {**cities, "a": first["attacker"]["total"], "d": first["defender"]["total"]})]
    for side in ("attacker", "defender"):
        if not war["condottieri"][side]:
            lines.append(Msg(N_("{city} had no condottiere and fought with attack 3 and defence 3."),
                             {"city": cities[side]}))
    if len(war["rounds"]) > 1:
        second = war["rounds"][1]["sides"]
        lines.append(Msg(N_("The attack did not win, so {defender} strikes back: now {defender}'s troops attack and "
                            "{attacker}'s defend, each side with a new die: {defender} {a} against {attacker} {d}."),
                         {**cities, "a": second["defender"]["total"], "d": second["attacker"]["total"]}))
    winner = war["winner"]
    if not winner:
        lines.append(Msg(N_("Nobody wins this war: the statuses stay.")))
        return lines
    loser = "defender" if winner == "attacker" else "attacker"
    lines.append(Msg(N_("{city} wins: its status rises by {n} and {loser}'s falls by {n} (by 2 when the winning total "
                        "is at least twice the losing one, else by 1), never above 10 or below 3. Status now: "
                        "{city} {won}, {loser} {lost}."),
                     {"city": cities[winner], "loser": cities[loser], "n": war["change"],
                      "won": state["cities"][war[winner]]["status"], "lost": state["cities"][war[loser]]["status"]}))
    hired = war["condottieri"][winner]
    if hired:
        lines.append(Msg(N_("{name} led the winning side and takes a VP counter: {n} now."),
                         {"name": names[hired], "n": state["players"][hired]["vp"]}))
    return lines


def _lot(state: Mapping, lot: Mapping) -> Msg | Ref:
    """What was auctioned: a city tile (named, or of a city), the Pope, an event, or a condottiere (of
    its side in the war under way)."""
    if lot["kind"] == "city":
        city = rules.city_name(lot["city"])
        if lot.get("tile", "plain") == "plain":
            return Msg(N_("a city tile of {city}"), {"city": city})
        return Msg(N_("{tile}, a city tile of {city}"), {"tile": rules.text(f"tile.{lot['tile']}"), "city": city})
    if lot["kind"] == "pope":
        return rules.text("pope")
    if lot["kind"] == "event":
        return rules.text(f"event.{lot.get('event')}")
    side = (state.get("war") or state.get("last_war") or {}).get(lot.get("side"))
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
