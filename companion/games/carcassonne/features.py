"""Carcassonne's features: what each is worth, who scores it and why, and a feature checked against
the box and the rules.

Encodes the rulebook as summarised in ../shared/rules/FACTS.md §4.1, §4.3, §4.4:
- scoring of complete features: road 1 per tile, city 2 per tile + 2 per pennant, monastery 9, and the
  majority rule (most meeples score the full value, tied players all score it in full; FACTS §4.3,
  TV-C1…C4, TV-C6): `feature_value`, `feature_points`, `explain_feature`;
- at the end of the game: unfinished road 1 per tile, unfinished city 1 per tile + 1 per pennant,
  unfinished monastery 1 per tile present in its 3×3, fields 3 per completed city bordering them
  (FACTS §4.4, TV-C5): `feature_value`.

Decisions where the sources are silent (FACTS marks them UNKNOWN): the box limits checked: 72 land
tiles, 7 meeples in a player's supply, 25 gift cards, 2–5 players (5 colours); no tile closes a road
or a city alone (a completed one covers at least 2 tiles), and a monastery with all 9 tiles of its
3×3 is complete. A player's 7 meeples bound his meeples on unfinished features and fields together
(the board at the end of the game); a complete feature listed here was scored during play and its
meeples went back to the supply, so it is bounded only on its own. A count of 0 meeples is accepted
and means none (the contract allows non-negative counts): `check_feature`, `check_meeples_on_board`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine import inputs
from ...engine.model import Msg, N_, P_, listed
from ...engine.ranking import tied_groups


ID = "carcassonne"


GIFTS_OPTION = "gifts"


TYPES = ("road", "city", "monastery", "field")


#: What the box contains (FACTS §4.1, §4.5).
LAND_TILES = 72                 # start tile included


MEEPLES = 7                     # in a player's supply (the 8th stays on the score track)


GIFT_CARDS = 25


MONASTERY_AREA = 9              # the monastery and the 8 tiles around it


MIN_COMPLETE = 2                # no tile closes a road or a city on its own


#: Points (FACTS §4.3, §4.4, §4.5).
COMPLETE_MONASTERY = 9


FIELD_PER_CITY = 3


GIFT_POINTS = 2


#: The breakdown category each feature type scores into.
CATEGORY = {"road": "roads", "city": "cities", "monastery": "monasteries", "field": "fields"}


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


def _names(names: list[str]) -> Msg | str:
    """Player names listed as the reader says them ("Anna and Bořek"; names are the players' own)."""
    return listed(names)


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


def explain_feature(feature: Mapping, names: Mapping[str, str], number: int = 1) -> Msg:
    """One line: the feature, its value, who scores it and why."""
    return P_("Feature {i}, {what} = {n} point: {who}.", "Feature {i}, {what} = {n} points: {who}.",
              feature_value(feature), i=number, what=_what(feature), who=_who(feature, names))


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
            if not complete and tiles == MONASTERY_AREA:
                raise inputs.InputError(j("tiles"), Msg(N_("an unfinished monastery has at most {n} tiles in its "
                                                           "3×3: with all {all} it is complete"),
                                                        {"n": MONASTERY_AREA - 1, "all": MONASTERY_AREA}))
        else:
            tiles = inputs.whole(raw["tiles"], j("tiles"), 1, LAND_TILES, N_("land tiles in the box"))
            if complete and tiles < MIN_COMPLETE:
                raise inputs.InputError(j("tiles"), Msg(N_("a completed road covers at least {n} tiles") if kind == "road"
                                                        else N_("a completed city covers at least {n} tiles"),
                                                        {"n": MIN_COMPLETE}))
        feature = {"type": kind, "tiles": tiles, "complete": complete}
        if kind == "city":
            feature["pennants"] = inputs.whole(raw.get("pennants", 0), j("pennants"), 0, tiles,
                                               N_("a city tile has at most one coat of arms"))
    feature["meeples"] = _check_meeples(raw, j("meeples"), players)
    return feature


def _check_meeples(raw: Mapping, path: str, players: list[str]) -> dict[str, int]:
    """A feature's meeples per player: players of the game, at most a supply's 7 each."""
    meeples_in = inputs.obj(raw.get("meeples", {}), path,
                            optional=raw["meeples"].keys() if isinstance(raw.get("meeples"), dict) else ())
    meeples = {}
    for pid, count in meeples_in.items():
        where = inputs.join(path, pid)
        if pid not in players:
            raise inputs.InputError(where, Msg(N_("no meeples of a colour that is not in the game: {got}"),
                                               {"got": pid}))
        count = inputs.whole(count, where, 0, MEEPLES, N_("meeples in a player's supply"))
        if count:                                       # 0 meeples: no meeple of that player
            meeples[pid] = count
    return meeples


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
