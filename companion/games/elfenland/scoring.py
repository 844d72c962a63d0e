"""Elfenland's final scoring, for the session and for `companion score elfenland`.

Encodes ../shared/rules/FACTS.md §5.1, §5.5 (TV-E9): most towns; tie → most gold (Elfengold) or
most travel cards in hand (base game); players still tied share the place, and a line says who:
`final_scores`; the base game's travel cards counted at the end: `_cards`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine import inputs
from ...engine.model import InvalidAction, Msg, N_, P_, listed
from ...engine.ranking import shared_places, tied_groups
from .preparation import ELFENGOLD, GOLD_IN_BOX, HAND_AFTER_MOVE, TOWNS, _variant


def final_scores(elfengold: bool, players: list[dict]) -> dict:
    """Most towns wins; the tie-break is gold (Elfengold) or travel cards in hand (base game)."""
    second = "gold" if elfengold else "cards"
    explain = [P_("{name}: {n} town", "{name}: {n} towns", p["towns"], name=p.get("name", p["id"])) for p in players]
    groups = tied_groups(players, key=lambda p: (p["towns"], p[second]))
    place = {p["id"]: n for group, n in zip(groups, shared_places(groups)) for p in group}
    for group in tied_groups(players, key=lambda p: p["towns"]):
        if len(group) < 2:
            continue
        details = ", ".join(f"{p.get('name', p['id'])} {p[second]}" for p in group)
        explain.append(Msg(N_("Tie on {n} towns: the most gold wins ({details}).") if elfengold else
                           N_("Tie on {n} towns: the most travel cards in hand wins ({details})."),
                           {"n": group[0]["towns"], "details": details}))
        for still in tied_groups(group, key=lambda p: p[second]):
            if len(still) > 1:
                explain.append(Msg(N_("{names} still tie on gold as well and share place {place}.") if elfengold
                                   else N_("{names} still tie on travel cards as well and share place {place}."),
                                   {"names": listed([p.get("name", p["id"]) for p in still]),
                                    "place": place[still[0]["id"]]}))
    return {"game": "elfenland",
            "players": [{"id": p["id"], "total": p["towns"], "place": place[p["id"]],
                         "breakdown": {"towns": p["towns"]}} for p in players],
            "winners": [p["id"] for p in players if place[p["id"]] == 1], "explain": explain}


def score_cli(data: Any) -> dict:
    """`companion score elfenland`: check the input (scoring-contract.md) and score it."""
    _data, options, players = inputs.common(data, "elfenland", [ELFENGOLD], 2, 6)
    elfengold = ELFENGOLD in options
    second = "gold" if elfengold else "cards"
    each = GOLD_IN_BOX if elfengold else HAND_AFTER_MOVE
    checked = []
    for i, raw in enumerate(players):
        path = inputs.join("players", i)
        inputs.obj(raw, path, required=["id", "towns", second])
        checked.append({"id": raw["id"],
                        "towns": inputs.whole(raw["towns"], inputs.join(path, "towns"), 0, TOWNS,
                                              N_("town pieces per player")),
                        second: inputs.whole(raw[second], inputs.join(path, second), 0, each,
                                             N_("gold in the box") if elfengold else
                                             N_("cards a hand keeps at the end of a move"))})
    if elfengold and sum(p["gold"] for p in checked) > GOLD_IN_BOX:      # hands of 4 never reach the 72 cards
        raise inputs.InputError("players", Msg(N_("more gold in all than the box's {n}"), {"n": GOLD_IN_BOX}))
    return final_scores(elfengold, checked)


def _cards(state: dict, args: Mapping, config: Mapping) -> None:
    """The base game's tie-break: travel cards in each hand at the end, at most the 4 a hand keeps at
    the end of a move (FACTS §5.1)."""
    cards = args.get("cards")
    if not isinstance(cards, Mapping) or set(cards) != set(state["players"]):
        raise InvalidAction(Msg(N_("Count every player's travel cards.")), field="cards")
    for family, n in cards.items():
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= HAND_AFTER_MOVE:
            raise InvalidAction(Msg(N_("Enter a whole number from {low} to {high}: a hand keeps at most 4 cards at "
                                       "the end of a move."), {"low": 0, "high": HAND_AFTER_MOVE}),
                                field=f"cards.{family}")
    for family, n in cards.items():
        state["players"][family]["cards"] = n


def _finish(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "over"


def result(state: Mapping, config: Mapping) -> dict:
    """The final scoring of the session: the same `final_scores` as `companion score`."""
    return final_scores(_variant(config) == "elfengold",
                        [{"id": p["colour"], "name": p["name"], "towns": len(state["players"][p["colour"]]["towns"]),
                          "gold": state["players"][p["colour"]]["gold"],
                          "cards": state["players"][p["colour"]]["cards"]} for p in config["players"]])
