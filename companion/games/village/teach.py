"""Village teaching (companion/teach.py finds it here): the step shown during the mass, and on the spot
each market day, sale by sale (what each sale cost and where it left the seller's life marker), with
this table's names and numbers. Pure: no Flet, no TinyDB."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import Msg, N_, P_
from . import rules

#: "Next player": the next turn goes through the same steps, and shows their cards anew.
TURN_ENDS = ("next_turn",)


def step(config: Mapping, state: Mapping) -> str | None:
    """The step whose "how" and "why" are shown (the mass is a phase of its own)."""
    if state.get("phase") == "mass":
        return "mass"
    return state.get("step")


def round_steps(config: Mapping) -> list[str]:
    """Seeding, the turns, the round's end, then the mass."""
    return ["seed", "turns", "round_end", "mass"]


def explain(config: Mapping, state: Mapping, names: Mapping[str, str], log: list) -> list[Msg]:
    """The market day under way: who took the cube, then each sale (empty without a market day)."""
    market = state.get("market")
    if not market:
        return []
    lines = [Msg(N_("Market day: {name} took the market cube and so serves the first customer, free. Every other "
                    "customer served, {name}'s further ones too, costs 1 green influence cube and 1 time; whoever "
                    "passes sells nothing more this market day."), {"name": names[market["trigger"]]})]
    for sale in market["sales"]:
        lines += _sale(config, sale, names)
    return lines


def _sale(config: Mapping, sale: Mapping, names: Mapping[str, str]) -> list[Msg]:
    name = names[sale["player"]]
    paid = rules.payment(sale["grain"], sale["goods"]) or Msg(N_("nothing"))
    if sale["free"]:
        return [P_("{name}: a customer worth {n} prestige point at the end of the game, paid with {paid}; free: no "
                   "green cube and no time (the first customer of the market day).",
                   "{name}: a customer worth {n} prestige points at the end of the game, paid with {paid}; free: no "
                   "green cube and no time (the first customer of the market day).", sale["prestige"],
                   name=name, paid=paid)]
    lines = [P_("{name}: a customer worth {n} prestige point at the end of the game, paid with {paid}, and with 1 "
                "green influence cube and 1 time.",
                "{name}: a customer worth {n} prestige points at the end of the game, paid with {paid}, and with 1 "
                "green influence cube and 1 time.", sale["prestige"], name=name, paid=paid)]
    left = config["lap"] - sale["time"] % config["lap"]
    if left == config["lap"]:  # the time just spent brought the marker to the bridge
        lines.append(Msg(N_("{name}: the life marker has reached the bridge, so a family member dies, on a market "
                            "day at once, before the market goes on."), {"name": name}))
    else:
        lines.append(P_("{name}: the life marker is now {n} space before the bridge.",
                        "{name}: the life marker is now {n} spaces before the bridge.", left, name=name))
    return lines
