"""Flanders 1302 teaching (companion/teach.py finds it here): the step shown in the two-player variant,
and on the spot the first city scoring and the turn order, from the rules' own results with this
table's names and numbers. Pure: no Flet, no TinyDB."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import Msg, N_, P_
from . import rules


def step(config: Mapping, state: Mapping) -> str | None:
    """The step whose "how" and "why" are shown (the two-player variant has its own texts)."""
    if config.get("variant") == "two-player":
        return f"two_{state['step']}"
    return state.get("step")


def explain(config: Mapping, state: Mapping, names: Mapping[str, str]) -> list[Msg]:
    """The first city scoring, else the turn order just set (empty before either)."""
    if state["cities"]:
        name, city = next(iter(state["cities"].items()))
        result = rules.score_city(city, names)
        value = result["value"]
        lead = P_("First city scoring: {city} is worth {n} point to the guild in first place and {second} to the "
                  "second; the third takes 4, the fourth 2.",
                  "First city scoring: {city} is worth {n} points to the guild in first place and {second} to the "
                  "second; the third takes 4, the fourth 2.", value, city=rules.city_name(name),
                  second=rules.rank_table(value)[1])
        return [lead, *result["explain"]]
    if state.get("order"):
        cards = state["order"]["cards"]
        lead = Msg(N_("Turn order: whoever played more cards acts earlier; the influence cards played are now "
                      "out of the game."))
        return [lead, *rules.explain_order(config, state["start"], cards)]
    return []
