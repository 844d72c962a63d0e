"""Carcassonne teaching (companion/teach.py finds it here): its round is the lap of turns, and on the
spot the first completed feature, scored by the rules with this table's names. Pure: no Flet, no
TinyDB."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import Msg, N_
from . import rules


def round_of(state: Mapping, log: list) -> int:
    """The lap of turns: 1 until every player has had one turn."""
    laps = sum(1 for a in log if a.get("type") == "next_turn")
    return 1 + laps // len(state["scores"])


def explain(config: Mapping, state: Mapping, names: Mapping[str, str]) -> list[Msg]:
    """The first completed feature and the scores after it (empty before one)."""
    if not state["scored"]:
        return []
    feature = state["scored"][0]
    lines = [Msg(N_("A completed feature scores at once, and its meeples go back to their owners:")),
             rules.explain_feature(feature, names)]
    totals = ", ".join(f"{names[c]} {state['scores'][c]}" for c in names)
    lines.append(Msg(N_("Scores now: {totals}."), {"totals": totals}))
    return lines
