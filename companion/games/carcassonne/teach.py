"""Carcassonne teaching (companion/teach.py finds it here): The Gifts' own cards, its round as the lap
of turns, and on the spot what the turn under way scored (each completed feature, a Road Sweeper's
unfinished road, a Cash Out, a Synod), scored by the rules with this table's names. Pure: no Flet, no
TinyDB."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import Msg, N_
from . import rules

#: "Next player": the next turn goes through the same steps, and shows their cards anew.
TURN_ENDS = ("next_turn",)

#: The actions that open a turn: what the turn scored is what came after the last of them.
TURN_START = ("begin", *TURN_ENDS)


def variant(config: Mapping) -> str | None:
    """With The Gifts the cards say what the gifts add (`teach.gifts.*`)."""
    return "gifts" if config.get("gifts") else None


def round_of(state: Mapping, log: list) -> int:
    """The lap of turns: 1 until every player has had one turn."""
    laps = sum(1 for a in log if a.get("type") == "next_turn")
    return 1 + laps // len(state["scores"])


def _this_turn(log: list) -> list[Mapping]:
    starts = [i for i, a in enumerate(log) if a.get("type") in TURN_START]
    return log[starts[-1] + 1:] if starts else []


def explain(config: Mapping, state: Mapping, names: Mapping[str, str], log: list) -> list[Msg]:
    """What the turn under way scored, each in its order, and the scores after it (empty before)."""
    turn = _this_turn(log)
    scoring = [a for a in turn if a.get("type") in ("score_feature", "road_sweeper")]
    features = iter(state["scored"][len(state["scored"]) - len(scoring):])
    player = names[config["players"][state["turn"]]["colour"]]
    lines: list[Msg] = []
    number, led = 0, False
    for action in turn:
        kind = action.get("type")
        if kind == "road_sweeper":
            lines += [Msg(N_("Road Sweeper: an unfinished road scores now, as at the end of the game (1 point per "
                             "tile), and every meeple on it goes back to its owner:")),
                      rules.explain_feature(next(features), names, number := number + 1)]
        elif kind == "score_feature":
            if not led:
                lines.append(Msg(N_("A completed feature scores at once, and its meeples go back to their owners:")))
                led = True
            lines.append(rules.explain_feature(next(features), names, number := number + 1))
        elif kind == "cash_out":
            n = action.get("args", {}).get("meeples", 0)
            lines.append(Msg(N_("Cash Out: {name} takes a meeple back and scores 2 for each meeple in that feature, "
                                "the one taken back included: {n} × 2 = {points}."),
                             {"name": player, "n": n, "points": 2 * n}))
        elif kind == "synod":
            lines.append(Msg(N_("Synod: {name} puts a meeple from the supply on an unfinished monastery; when it is "
                                "completed, whoever has the most meeples on it scores it."), {"name": player}))
    if lines:
        totals = ", ".join(f"{names[c]} {state['scores'][c]}" for c in names)
        lines.append(Msg(N_("Scores now: {totals}."), {"totals": totals}))
    return lines
