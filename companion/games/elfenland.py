"""Elfenland (Alan R. Moon, 1998) and its expansion Elfengold: the final scoring.

Encodes ../shared/rules/FACTS.md §5.1 (base game: after the last round most town pieces wins, a tie
goes to the most travel cards in hand) and §5.5 (Elfengold: most town pieces, a tie goes to the most
gold). Rounds, the gold ledger, the tile auction and the screens come with the game's own issue.
Players still tied share the place.
"""
from __future__ import annotations

from typing import Any

from ..engine import inputs
from ..engine.model import Msg, N_, P_
from ..engine.ranking import shared_places, tied_groups

ELFENGOLD = "elfengold"
TOWNS = 20            # town pieces per player (FACTS §5.1)
GOLD_IN_BOX = 300     # 25 × 1 + 25 × 5 + 15 × 10 (FACTS §5.2)
TRAVEL_CARDS = 72     # base game (FACTS §5.1)


def final_scores(elfengold: bool, players: list[dict]) -> dict:
    """Most towns wins; the tie-break is gold (Elfengold) or travel cards in hand (base game)."""
    second = "gold" if elfengold else "cards"
    explain = [P_("{name}: {n} town", "{name}: {n} towns", p["towns"], name=p["id"]) for p in players]
    groups = tied_groups(players, key=lambda p: (p["towns"], p[second]))
    place = {p["id"]: n for group, n in zip(groups, shared_places(groups)) for p in group}
    for group in tied_groups(players, key=lambda p: p["towns"]):
        if len(group) < 2:
            continue
        details = ", ".join(f"{p['id']} {p[second]}" for p in group)
        explain.append(Msg(N_("Tie on {n} towns: the most gold wins ({details}).") if elfengold else
                           N_("Tie on {n} towns: the most travel cards in hand wins ({details})."),
                           {"n": group[0]["towns"], "details": details}))
    return {"game": "elfenland",
            "players": [{"id": p["id"], "total": p["towns"], "place": place[p["id"]],
                         "breakdown": {"towns": p["towns"]}} for p in players],
            "winners": [p["id"] for p in players if place[p["id"]] == 1], "explain": explain}


def score_cli(data: Any) -> dict:
    """`companion score elfenland`: check the input (scoring-contract.md) and score it."""
    _data, options, players = inputs.common(data, "elfenland", [ELFENGOLD], 2, 6)
    elfengold = ELFENGOLD in options
    second, box = ("gold", GOLD_IN_BOX) if elfengold else ("cards", TRAVEL_CARDS)
    checked = []
    for i, raw in enumerate(players):
        path = inputs.join("players", i)
        inputs.obj(raw, path, required=["id", "towns", second])
        checked.append({"id": raw["id"],
                        "towns": inputs.whole(raw["towns"], inputs.join(path, "towns"), 0, TOWNS,
                                              N_("town pieces per player")),
                        second: inputs.whole(raw[second], inputs.join(path, second), 0, box,
                                             N_("gold in the box") if elfengold else N_("travel cards in the box"))})
    if sum(p[second] for p in checked) > box:
        raise inputs.InputError("players", Msg(N_("more {what} in all than the box's {n}"),
                                               {"what": second, "n": box}))
    return final_scores(elfengold, checked)
