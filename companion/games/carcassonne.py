"""Carcassonne (Klaus-Jürgen Wrede, Hans im Glück 2000) with The Gifts: final scoring for `companion score`.

Encodes the rulebook as summarised in ../shared/rules/FACTS.md §4 (seed 003 for The Gifts):
- scoring of complete features: road 1 per tile, city 2 per tile + 2 per pennant, monastery 9, and the
  majority rule (most meeples score the full value, tied players all score it in full; FACTS §4.3,
  TV-C1…C4, TV-C6): `feature_value`, `feature_points`;
- the end of the game: unfinished road 1 per tile, unfinished city 1 per tile + 1 per pennant,
  unfinished monastery 1 per tile present in its 3×3, fields 3 per completed city bordering them
  (FACTS §4.4, TV-C5): `feature_value`, `final_scores`;
- The Gifts at the final scoring: +2 per unopened gift card (FACTS §4.5, TV-C10): option `gifts`.

The rest of the game (new game and setup, the turn guide, the gift deck, the Road Sweeper and
Cash Out calculators, the screens) comes with its own issue.

Decisions where the sources are silent (FACTS marks them UNKNOWN):
- the winner's tie-break is not in the sources: tied players share the place ("1, 1, 3"), and an
  explain line says so;
- the box limits checked: 72 land tiles, 7 meeples in a player's supply, 25 gift cards, 2–5
  players (5 colours). A player's 7 meeples bound his meeples on unfinished features and fields
  together (the board at the end of the game); a complete feature listed here was scored during
  play and its meeples went back to the supply, so it is bounded only on its own.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..engine import inputs
from ..engine.model import Msg, N_, P_
from ..engine.ranking import places_without_tie_break, tied_groups

ID = "carcassonne"
GIFTS_OPTION = "gifts"
TYPES = ("road", "city", "monastery", "field")

#: What the box contains (FACTS §4.1, §4.5).
LAND_TILES = 72                 # start tile included
MEEPLES = 7                     # in a player's supply (the 8th stays on the score track)
GIFT_CARDS = 25
MONASTERY_AREA = 9              # the monastery and the 8 tiles around it

#: Points (FACTS §4.3, §4.4, §4.5).
COMPLETE_MONASTERY = 9
FIELD_PER_CITY = 3
GIFT_POINTS = 2

#: The breakdown category each feature type scores into.
CATEGORY = {"road": "roads", "city": "cities", "monastery": "monasteries", "field": "fields"}


# ----------------------------------------------------------------------------------------------
# Scoring one feature


def feature_value(feature: Mapping) -> int:
    """What the feature is worth to each player who has the majority in it (FACTS §4.3, §4.4)."""
    kind, complete = feature["type"], feature.get("complete", False)
    if kind == "road":
        return feature["tiles"]
    if kind == "city":
        per = 2 if complete else 1
        return per * feature["tiles"] + per * feature.get("pennants", 0)
    if kind == "monastery":
        return COMPLETE_MONASTERY if complete else feature["tiles"]
    return FIELD_PER_CITY * feature["cities"]


def majority(meeples: Mapping[str, int]) -> list[str]:
    """The players with the most meeples in a feature (all of them when tied); none without meeples."""
    groups = tied_groups([p for p, n in meeples.items() if n > 0], key=lambda p: meeples[p])
    return groups[0] if groups else []


def feature_points(feature: Mapping) -> dict[str, int]:
    """Points per player with meeples in the feature: the majority scores the full value, others 0."""
    meeples = feature.get("meeples", {})
    leaders, value = majority(meeples), feature_value(feature)
    return {p: value if p in leaders else 0 for p, n in meeples.items() if n > 0}


def _what(feature: Mapping) -> Msg:
    """The feature and how its value is counted, for the explain line."""
    kind, complete = feature["type"], feature.get("complete", False)
    if kind == "road":
        return Msg(N_("complete road: tiles {tiles} × 1") if complete else N_("unfinished road: tiles {tiles} × 1"),
                   {"tiles": feature["tiles"]})
    if kind == "city":
        params = {"tiles": feature["tiles"], "pennants": feature.get("pennants", 0)}
        if complete:
            return Msg(N_("complete city: tiles {tiles} × 2 + pennants {pennants} × 2"), params)
        return Msg(N_("unfinished city: tiles {tiles} × 1 + pennants {pennants} × 1"), params)
    if kind == "monastery":
        if complete:
            return Msg(N_("complete monastery, surrounded by 8 tiles"))
        return Msg(N_("unfinished monastery: tiles in its 3×3 {tiles} × 1"), {"tiles": feature["tiles"]})
    return Msg(N_("field: completed cities bordering it {cities} × 3"), {"cities": feature["cities"]})


def _names(names: list[str]) -> Msg:
    """Player names joined by commas (names are the players' own, never translated)."""
    template = ", ".join("{p%d}" % i for i in range(len(names)))
    return Msg(template, {f"p{i}": name for i, name in enumerate(names)})


def _who(feature: Mapping, names: Mapping[str, str]) -> Msg:
    """Who scores the feature and why: the majority, a tie, or nobody."""
    meeples = {p: n for p, n in feature.get("meeples", {}).items() if n > 0}
    leaders = majority(meeples)
    if not leaders:
        return Msg(N_("no meeple on it, nobody scores"))
    most = meeples[leaders[0]]
    if len(leaders) == 1:
        scores = Msg(N_("{name} has the most meeples ({n}) and scores it"), {"name": names[leaders[0]], "n": most})
    else:
        scores = P_("{names} tie with {n} meeple each and each scores the full value",
                    "{names} tie with {n} meeples each and each scores the full value",
                    most, names=_names([names[p] for p in leaders]))
    others = [names[p] for p in meeples if p not in leaders]
    if not others:
        return scores
    return Msg("{scores}; {others}", {"scores": scores,
                                      "others": Msg(N_("{names}: fewer meeples, no points"),
                                                    {"names": _names(others)})})


# ----------------------------------------------------------------------------------------------
# Final scoring


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
        value = feature_value(feature)
        for pid, pts in feature_points(feature).items():
            by_id[pid]["breakdown"][CATEGORY[feature["type"]]] += pts
        explain.append(P_("Feature {i}, {what} = {n} point: {who}.", "Feature {i}, {what} = {n} points: {who}.",
                          value, i=i + 1, what=_what(feature), who=_who(feature, names)))
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


# ----------------------------------------------------------------------------------------------
# Checking the input


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


def check_feature(raw: Any, path: str, players: list[str]) -> dict:
    """One feature to score now, checked against the box and the rules (FACTS §4.1–§4.4)."""
    inputs.obj(raw, path, required=["type"], optional=raw.keys() if isinstance(raw, dict) else ())
    j = lambda key: inputs.join(path, key)  # noqa: E731
    kind = inputs.choice(raw["type"], j("type"), TYPES)
    if kind != "city" and "pennants" in raw:
        raise inputs.InputError(j("pennants"), Msg(N_("only cities have pennants")))
    if kind == "field":
        if "tiles" in raw:
            raise inputs.InputError(j("tiles"), Msg(N_("a field scores by the completed cities it borders "
                                                       "(\"cities\"), not by its tiles")))
        if "complete" in raw:
            raise inputs.InputError(j("complete"), Msg(N_("a field is never complete: fields score only at "
                                                          "the end of the game")))
        inputs.obj(raw, path, required=["type", "cities"], optional=["meeples"])
        feature = {"type": kind, "cities": inputs.whole(raw["cities"], j("cities"), 0, LAND_TILES,
                                                        N_("land tiles in the box"))}
    else:
        inputs.obj(raw, path, required=["type", "tiles"],
                   optional=["complete", "meeples", *(["pennants"] if kind == "city" else [])])
        complete = inputs.boolean(raw.get("complete", False), j("complete"))
        if kind == "monastery":
            tiles = inputs.whole(raw["tiles"], j("tiles"), 1, MONASTERY_AREA, N_("the monastery and the 8 tiles "
                                                                                  "around it"))
            if complete and tiles != MONASTERY_AREA:
                raise inputs.InputError(j("tiles"), Msg(N_("a complete monastery is surrounded by 8 tiles: "
                                                           "must be {n}, got {got}"),
                                                        {"n": MONASTERY_AREA, "got": tiles}))
        else:
            tiles = inputs.whole(raw["tiles"], j("tiles"), 1, LAND_TILES, N_("land tiles in the box"))
        feature = {"type": kind, "tiles": tiles, "complete": complete}
        if kind == "city":
            feature["pennants"] = inputs.whole(raw.get("pennants", 0), j("pennants"), 0, tiles,
                                               N_("a city tile has at most one coat of arms"))
    meeples_in = inputs.obj(raw.get("meeples", {}), j("meeples"),
                            optional=raw["meeples"].keys() if isinstance(raw.get("meeples"), dict) else ())
    meeples = {}
    for pid, count in meeples_in.items():
        where = inputs.join(j("meeples"), pid)
        if pid not in players:
            raise inputs.InputError(where, Msg(N_("no meeples of a colour that is not in the game: {got}"),
                                               {"got": pid}))
        meeples[pid] = inputs.whole(count, where, 1, MEEPLES, N_("meeples in a player's supply"))
    feature["meeples"] = meeples
    return feature


def check_meeples_on_board(features: list[dict], path: str, players: list[str]) -> None:
    """At the end a player's meeples on unfinished features and fields together are at most his 7.

    Complete features scored during play gave their meeples back, so they do not count here.
    """
    on_board = {p: 0 for p in players}
    for i, feature in enumerate(features):
        if feature.get("complete", False):
            continue
        for pid, count in feature["meeples"].items():
            on_board[pid] += count
            if on_board[pid] > MEEPLES:
                raise inputs.InputError(inputs.join(inputs.join(inputs.join(path, i), "meeples"), pid),
                                        Msg(N_("{player} has {got} meeples on unfinished features and fields, "
                                               "more than the {n} of a supply"),
                                            {"player": pid, "got": on_board[pid], "n": MEEPLES}))


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
