"""Carcassonne's final scoring: the final tally at the table, one category at a time, and the same
`final_scores` for `companion score carcassonne`.

Encodes ../shared/rules/FACTS.md §4.4, §4.5:
- the end of the game: the score track plus every unfinished feature and field scored now (FACTS §4.4,
  TV-C5), entered at the table one category at a time: `_end_game`, `_tally_feature`, `_tally_next`;
- The Gifts at the final scoring: +2 per unopened gift card (FACTS §4.5, TV-C10): option `gifts`.

Decision where the sources are silent (FACTS marks it UNKNOWN): the winner's tie-break is not in
the sources: tied players share the place ("1, 1, 3"), and an explain line says so.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine import inputs
from ...engine.model import InvalidAction, Msg, N_, P_
from ...engine.ranking import places_without_tie_break
from .features import (CATEGORY, GIFT_CARDS, GIFT_POINTS, GIFTS_OPTION, ID, _names, check_feature,
                       check_meeples_on_board, explain_feature, feature_points)
from .session import TALLY, _checked, tallied


def final_scores(options: list[str], players: list[dict], features: list[dict]) -> dict:
    """The final result: score track + every feature scored now (+ unopened gifts with The Gifts).

    `players`: `{"id", "track"}` plus `"gifts"` with the option and an optional display `"name"`;
    `features`: checked features (`check_feature`). Players tied on the total share the place.
    """
    gifts = GIFTS_OPTION in options
    names = {p["id"]: p.get("name", p["id"]) for p in players}
    rows = []
    for p in players:
        breakdown = {"track": p["track"], "roads": 0, "cities": 0, "monasteries": 0, "fields": 0}
        if gifts:
            breakdown["gifts"] = GIFT_POINTS * p["gifts"]
        rows.append({"id": p["id"], "breakdown": breakdown})
    by_id = {r["id"]: r for r in rows}
    explain: list[Msg] = []
    for i, feature in enumerate(features):
        for pid, pts in feature_points(feature).items():
            by_id[pid]["breakdown"][CATEGORY[feature["type"]]] += pts
        explain.append(explain_feature(feature, names, i + 1))
    if gifts:
        for p in players:
            explain.append(P_("{name}: {n} unopened gift card × 2 = {points}",
                              "{name}: {n} unopened gift cards × 2 = {points}",
                              p["gifts"], name=names[p["id"]], points=GIFT_POINTS * p["gifts"]))
    explain += places_without_tie_break(rows, lambda group: _names([names[r["id"]] for r in group]))
    return {"game": "carcassonne",
            "players": [{"id": r["id"], "total": r["total"], "place": r["place"], "breakdown": r["breakdown"]}
                        for r in rows],
            "winners": [r["id"] for r in rows if r["place"] == 1], "explain": explain}


def check_player(raw: Any, path: str, gifts: bool) -> dict:
    """One player's entry: the points on the score track and, with The Gifts, unopened gift cards."""
    if not gifts and isinstance(raw, dict) and GIFTS_OPTION in raw:
        raise inputs.InputError(inputs.join(path, GIFTS_OPTION),
                                Msg(N_("unknown field: gift cards count only with the option gifts")))
    inputs.obj(raw, path, required=["id", "track", *([GIFTS_OPTION] if gifts else [])])
    p = {"id": raw["id"], "track": inputs.whole(raw["track"], inputs.join(path, "track"), 0)}
    if gifts:
        p["gifts"] = inputs.whole(raw["gifts"], inputs.join(path, "gifts"), 0, GIFT_CARDS,
                                  N_("gift cards in the deck"))
    return p


def score_cli(data: Any) -> dict:
    """`companion score carcassonne`: check the input (scoring-contract.md) and score it."""
    data, options, players = inputs.common(data, ID, [GIFTS_OPTION], 2, 5, top=["features"])
    gifts = GIFTS_OPTION in options
    checked = [check_player(p, inputs.join("players", i), gifts) for i, p in enumerate(players)]
    if gifts and sum(p["gifts"] for p in checked) > GIFT_CARDS:
        raise inputs.InputError("players", Msg(N_("more unopened gift cards in all than the deck's {n}"),
                                               {"n": GIFT_CARDS}))
    ids = [p["id"] for p in checked]
    features = [check_feature(f, inputs.join("features", i), ids)
                for i, f in enumerate(inputs.array(data["features"], "features"))]
    check_meeples_on_board(features, "features", ids)
    return final_scores(options, checked, features)


def _end_game(state: dict, args: Mapping, config: Mapping) -> None:
    """The last tile is placed: the final tally begins with the unfinished roads."""
    state["phase"] = "tally"
    state["category"] = TALLY[0]


def _tally_feature(state: dict, args: Mapping, config: Mapping) -> None:
    """One unfinished feature (or field) of the current category, with the meeples on it."""
    if args.get("type") != state["category"]:
        raise InvalidAction(Msg(N_("Enter the features of the current category.")), field="type")
    feature = _checked(args, False, config)
    counted = tallied(state)
    for colour, n in feature["meeples"].items():
        if counted[colour] + n > state["meeples"][colour]:  # each meeple on the board stands in one place
            raise InvalidAction(P_("Only {n} meeple of this player is on the board.",
                                   "Only {n} meeples of this player are on the board.",
                                   state["meeples"][colour]), field=f"meeples.{colour}")
    state["tally"].append(feature)


def _tally_next(state: dict, args: Mapping, config: Mapping) -> None:
    """The next category (then the review: "review" is the last one)."""
    order = [*TALLY, "review"]
    state["category"] = order[order.index(state["category"]) + 1]


def _finish(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "over"


def result(state: Mapping, config: Mapping) -> dict:
    """The final result: the score track plus the tally (the same `final_scores` as `score`)."""
    options = [GIFTS_OPTION] if config["gifts"] else []
    players = [{"id": p["colour"], "name": p["name"], "track": state["scores"][p["colour"]],
                **({"gifts": state["gifts"]["held"][p["colour"]]} if config["gifts"] else {})}
               for p in config["players"]]
    return final_scores(options, players, state["tally"])
