"""Village teaching (companion/teach.py finds it here): the step shown during the mass, and on the spot
the first market day, sale by sale, with this table's names and numbers. Pure: no Flet, no TinyDB."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import Msg, N_, P_
from . import rules


def step(config: Mapping, state: Mapping) -> str | None:
    """The step whose "how" and "why" are shown (the mass is a phase of its own)."""
    if state.get("phase") == "mass":
        return "mass"
    return state.get("step")


def explain(config: Mapping, state: Mapping, names: Mapping[str, str]) -> list[Msg]:
    """The market day under way: who took the cube, then each sale (empty without a market day)."""
    market = state.get("market")
    if not market:
        return []
    trigger = names[market["trigger"]]
    lines = [Msg(N_("Market day: {name} took the market cube, so {name} serves a customer first and pays no time "
                    "for that first customer; every other customer served costs {n} time."),
                 {"name": trigger, "n": rules.MARKET_TIME})]
    for sale in market["sales"]:
        paid = rules.payment(sale["grain"], sale["goods"]) or Msg(N_("nothing"))
        params = {"name": names[sale["player"]], "paid": paid, "time": state["players"][sale["player"]]["time"]}
        lines.append(P_("{name}: a customer worth {n} prestige point at the end of the game, paid with {paid}; "
                        "free of time (the first customer of the market day).",
                        "{name}: a customer worth {n} prestige points at the end of the game, paid with {paid}; "
                        "free of time (the first customer of the market day).", sale["prestige"], **params)
                     if sale["free"] else
                     P_("{name}: a customer worth {n} prestige point at the end of the game, paid with {paid}; "
                        "1 time, the life marker now stands on {time}.",
                        "{name}: a customer worth {n} prestige points at the end of the game, paid with {paid}; "
                        "1 time, the life marker now stands on {time}.", sale["prestige"], **params))
    return lines
