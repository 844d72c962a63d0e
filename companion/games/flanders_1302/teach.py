"""Flanders 1302 teaching (companion/teach.py finds it here): the two-player variant's own texts, its
round counted over both players' turns, and on the spot each city scoring and the turn order, from the
rules' own results with this table's names and numbers. Pure: no Flet, no TinyDB."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import Msg, N_, P_
from . import rules


def _two(config: Mapping) -> bool:
    return config.get("variant") == rules.TWO_PLAYER


def variant(config: Mapping) -> str | None:
    """The two-player variant has its own cards, setup lines and recap (`teach.two.*`)."""
    return "two" if _two(config) else None


def round_of(state: Mapping, log: list) -> int:
    """The round; in the two-player variant a round of the rules is one player's turn, so the group's
    first round is both players' first turns (its state is the one without influence cards)."""
    return state["round"] if "influence" in state else (state["round"] + 1) // 2


def step(config: Mapping, state: Mapping) -> str | None:
    """The step whose "how" and "why" are shown (the two-player variant has its own texts)."""
    if _two(config):
        return f"two_{state['step']}"
    return state.get("step")


def explain(config: Mapping, state: Mapping, names: Mapping[str, str], log: list) -> list[Msg]:
    """The city scored last, else the turn order just set (empty before either)."""
    if state["cities"]:
        name, city = list(state["cities"].items())[-1]
        return _city(config, name, city, names)
    if state.get("order"):
        cards = state["order"]["cards"]
        lead = Msg(N_("Turn order: whoever played more cards acts earlier; the influence cards played are now "
                      "out of the game."))
        return [lead, *rules.explain_order(config, state["start"], cards)]
    return []


def _city(config: Mapping, name: str, city: Mapping, names: Mapping[str, str]) -> list[Msg]:
    result = rules.score_city(city, names)
    value = result["value"]
    lead = P_("City scoring: {city} is worth {n} point to the guild in first place and {second} to the second; "
              "the third takes 4, the fourth 2.",
              "City scoring: {city} is worth {n} points to the guild in first place and {second} to the second; "
              "the third takes 4, the fourth 2.", value, city=rules.city_name(name),
              second=rules.rank_table(value)[1])
    lines = [lead, *result["explain"]]
    if _two(config):
        for player in config["players"]:
            guild = config["influenced"][player["colour"]]
            if city["quarters"].get(guild):
                lines.append(Msg(N_("{guild} is the guild {name} influences: its points here count for {name} "
                                    "at the end too."),
                                 {"guild": rules.guild_name(guild), "name": player["name"]}))
    return lines
