"""Carcassonne (Klaus-Jürgen Wrede, Hans im Glück 2000) with The Gifts: final scoring for `companion score`.

Encodes the rulebook as summarised in ../shared/rules/FACTS.md §4 (seed 003 for The Gifts):
- scoring of complete features: road 1 per tile, city 2 per tile + 2 per pennant, monastery 9, and the
  majority rule (most meeples score the full value, tied players all score it in full; FACTS §4.3,
  TV-C1…C4, TV-C6): `feature_value`, `feature_points`;
- the end of the game: unfinished road 1 per tile, unfinished city 1 per tile + 1 per pennant,
  unfinished monastery 1 per tile present in its 3×3, fields 3 per completed city bordering them
  (FACTS §4.4, TV-C5): `feature_value`, `final_scores`;
- The Gifts at the final scoring: +2 per unopened gift card (FACTS §4.5, TV-C10): option `gifts`.

A session (`GAME`) adds the table side: the setup checklist (FACTS §4.1), the turn guide (§4.2,
§4.5: draw → open at most one gift → place → meeple → score), meeples on the board (at most 7 per
player), completed features scored during play (§4.3), the gift deck as counts (cards in the deck,
the discard pile and each player's hand, never more than 25; reshuffled when the deck is empty; no
gift when every card is held), the Road Sweeper and Cash Out calculators and Synod (§4.5), and the
final tally one category at a time (§4.4) with the same `final_scores` as the `score` command.
`moves` is the table of allowed actions: who acts in each phase and step and why anything else is
refused (a gift is opened after drawing the tile and before placing it, so never in the turn it was
received); the header's step follows what the turn has entered.

Decisions where the sources are silent (FACTS marks them UNKNOWN):
- the winner's tie-break is not in the sources: tied players share the place ("1, 1, 3"), and an
  explain line says so;
- the box limits checked: 72 land tiles, 7 meeples in a player's supply, 25 gift cards, 2–5
  players (5 colours); no tile closes a road or a city alone (a completed one covers at least 2
  tiles), and a monastery with all 9 tiles of its 3×3 is complete. A player's 7 meeples bound his meeples on unfinished features and fields
  together (the board at the end of the game); a complete feature listed here was scored during
  play and its meeples went back to the supply, so it is bounded only on its own. A count of 0
  meeples is accepted and means none (the contract allows non-negative counts).
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from ...engine import inputs
from ...engine.flow import by_name, score_track
from ...engine.model import ALLOWED, GameDef, Guide, InvalidAction, Msg, N_, P_, Ref, Rule, Step, refused
from ...engine.seats import check_seats
from ...engine.ranking import places_without_tie_break, tied_groups

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


def explain_feature(feature: Mapping, names: Mapping[str, str], number: int = 1) -> Msg:
    """One line: the feature, its value, who scores it and why."""
    return P_("Feature {i}, {what} = {n} point: {who}.", "Feature {i}, {what} = {n} points: {who}.",
              feature_value(feature), i=number, what=_what(feature), who=_who(feature, names))


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
    meeples_in = inputs.obj(raw.get("meeples", {}), j("meeples"),
                            optional=raw["meeples"].keys() if isinstance(raw.get("meeples"), dict) else ())
    meeples = {}
    for pid, count in meeples_in.items():
        where = inputs.join(j("meeples"), pid)
        if pid not in players:
            raise inputs.InputError(where, Msg(N_("no meeples of a colour that is not in the game: {got}"),
                                               {"got": pid}))
        count = inputs.whole(count, where, 0, MEEPLES, N_("meeples in a player's supply"))
        if count:                                       # 0 meeples: no meeple of that player
            meeples[pid] = count
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


# ----------------------------------------------------------------------------------------------
# A session at the table

COLOURS = ("red", "green", "blue", "yellow", "black")
GIFT_KINDS = ("synod", "road_sweeper", "change_position", "cash_out", "take_2")
STEPS = (Step("draw"), Step("gift", helper="gifts"), Step("place"), Step("meeple"), Step("score", helper="score"))
ORDER = tuple(s.id for s in STEPS)
TALLY = ("road", "city", "monastery", "field")


def text(key: str) -> Ref:
    return Ref(f"{ID}.{key}")


def new_config(raw: Mapping) -> dict:
    """Players in seat order (clockwise), the start player (the youngest) and The Gifts on or off."""
    players, start = check_seats(raw, COLOURS, 2, 5)
    gifts = raw.get("gifts", False)
    if not isinstance(gifts, bool):
        raise InvalidAction(Msg(N_("Choose whether The Gifts are in play.")), field="gifts")
    return {"game": ID, "variant": "standard", "players": players, "start": start, "gifts": gifts}


def setup_items(config: Mapping) -> list[dict]:
    items: list[dict[str, Any]] = [{"id": "tiles"}, {"id": "scoreboard"}]
    if config["gifts"]:
        items.append({"id": "gifts"})
    items.append({"id": "start_player", "params": {"name": config["players"][config["start"]]["name"]}})
    for item in items:
        item.setdefault("params", {})
    return items


def steps(config: Mapping) -> tuple:
    return STEPS if config["gifts"] else tuple(s for s in STEPS if s.id != "gift")


def initial_state(config: Mapping) -> dict:
    colours = [p["colour"] for p in config["players"]]
    return {"phase": "setup", "turn": config["start"], "step": "draw", "placed": False,
            "scores": {c: 0 for c in colours},
            "meeples": {c: 0 for c in colours}, "scored": [], "tally": [], "category": "road",
            "gifts": ({"deck": GIFT_CARDS, "discard": 0, "held": {c: 0 for c in colours}, "opened": None,
                       "drawn": False} if config["gifts"] else None)}



def _colour(state: Mapping, args: Mapping) -> str:
    colour = args.get("player")
    if not isinstance(colour, str) or colour not in state["scores"]:
        raise InvalidAction(Msg(N_("Choose a player.")), field="player")
    return colour


def _active(state: Mapping, config: Mapping) -> str:
    return config["players"][state["turn"]]["colour"]


def _checked(raw: Mapping, complete: bool, config: Mapping) -> dict:
    """A feature entered at the table, checked like the `score` command's (field names as paths)."""
    feature = {k: raw[k] for k in ("type", "tiles", "pennants", "cities", "meeples") if k in raw}
    feature["meeples"] = {c: n for c, n in (feature.get("meeples") or {}).items() if n}
    if complete and feature.get("type") != "field":
        feature["complete"] = True
    try:
        return check_feature(feature, "", [p["colour"] for p in config["players"]])
    except inputs.InputError as error:
        raise InvalidAction(Msg(N_("That is more than the box holds or the rules allow ({detail})."),
                                {"detail": error.msg}), field=error.path.lstrip(".")) from None


def _reached(state: dict, step: str) -> None:
    """The turn has got to `step` (an action of that step or a later one was entered): the header
    follows it, never back. From the placing of the tile on, the tile is down for this turn."""
    if ORDER.index(state["step"]) < ORDER.index(step):
        state["step"] = step
    if ORDER.index(step) >= ORDER.index("place"):
        state["placed"] = True


def _begin(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "play"


def _goto_step(state: dict, args: Mapping, config: Mapping) -> None:
    if args.get("step") not in [s.id for s in steps(config)]:
        raise InvalidAction(Msg(N_("There is no such step.")))
    state["step"] = args["step"]


def _next_turn(state: dict, args: Mapping, config: Mapping) -> None:
    state["turn"] = (state["turn"] + 1) % len(config["players"])
    state["step"], state["placed"] = "draw", False
    if state["gifts"]:
        state["gifts"]["opened"], state["gifts"]["drawn"] = None, False


def _meeple(state: dict, args: Mapping, config: Mapping) -> None:
    """A meeple placed on the board (+1) or taken back (−1): at most 7 of a player's are out. The
    player on turn placing one has placed the tile (the meeple step); in the final tally a count is
    corrected, never below the meeples the tally has already counted on the board."""
    colour = _colour(state, args)
    delta = args.get("delta")
    if delta not in (1, -1):
        raise InvalidAction(Msg(N_("This action is not understood.")))
    if state["meeples"][colour] + delta > MEEPLES:
        raise InvalidAction(Msg(N_("A player has 7 meeples to place.")), field="player")
    if state["meeples"][colour] + delta < (tallied(state)[colour] if state["phase"] == "tally" else 0):
        raise InvalidAction(Msg(N_("None of this player's meeples is on the board.") if state["phase"] != "tally"
                                else N_("The tally has already counted each of this player's meeples on the board.")),
                            field="player")
    state["meeples"][colour] += delta
    if state["phase"] == "play" and delta > 0 and colour == _active(state, config):
        _reached(state, "meeple")


def tallied(state: Mapping) -> dict[str, int]:
    """Each player's meeples the final tally has counted so far."""
    counted = {c: 0 for c in state["meeples"]}
    for feature in state["tally"]:
        for colour, n in feature["meeples"].items():
            counted[colour] += n
    return counted


def _return_meeples(state: dict, meeples: Mapping[str, int]) -> None:
    for colour, n in meeples.items():
        if state["meeples"][colour] < n:
            raise InvalidAction(Msg(N_("Fewer meeples of that colour are on the board."), {}),
                                field=f"meeples.{colour}")
    for colour, n in meeples.items():
        state["meeples"][colour] -= n


def _score_feature(state: dict, args: Mapping, config: Mapping) -> None:
    """A feature completed this turn: the majority scores, the meeples go home (FACTS §4.3)."""
    if args.get("type") == "field":
        raise InvalidAction(Msg(N_("Fields are scored only at the end of the game.")), field="type")
    feature = _checked(args, True, config)
    _return_meeples(state, feature["meeples"])
    for colour, pts in feature_points(feature).items():
        state["scores"][colour] += pts
    state["scored"].append(feature)
    _reached(state, "score")


def _gift_draw(state: dict, args: Mapping, config: Mapping) -> None:
    """The tile placed extended someone else's road or city: one gift card (the table allows one per
    turn, and none when every card is held). The tile is down: the turn is past opening gifts."""
    gifts = state["gifts"]
    if gifts["deck"] == 0:
        gifts["deck"], gifts["discard"] = gifts["discard"], 0
    gifts["deck"] -= 1
    gifts["held"][_active(state, config)] += 1
    gifts["drawn"] = True
    _reached(state, "place")


def _gift_open(state: dict, args: Mapping, config: Mapping) -> None:
    """After drawing and before placing: open one gift, resolve it, discard it."""
    if args.get("card") not in GIFT_KINDS:
        raise InvalidAction(Msg(N_("Which gift was opened?")), field="card")
    gifts = state["gifts"]
    gifts["held"][_active(state, config)] -= 1
    gifts["discard"] += 1
    gifts["opened"] = args["card"]
    _reached(state, "gift")


def _synod(state: dict, args: Mapping, config: Mapping) -> None:
    """Synod: a meeple from the supply of the player on turn onto any unfinished monastery."""
    colour = _active(state, config)
    if state["meeples"][colour] == MEEPLES:
        raise InvalidAction(Msg(N_("A player has 7 meeples to place.")))
    state["meeples"][colour] += 1
    state["gifts"]["opened"] = "done"


def _road_sweeper(state: dict, args: Mapping, config: Mapping) -> None:
    """Road Sweeper: an unfinished road scores as at the end of the game; all its meeples go home."""
    feature = _checked(dict(args, type="road"), False, config)
    _return_meeples(state, feature["meeples"])
    for colour, pts in feature_points(feature).items():
        state["scores"][colour] += pts
    state["scored"].append(feature)
    state["gifts"]["opened"] = "done"


def _cash_out(state: dict, args: Mapping, config: Mapping) -> None:
    """Cash Out: take one of your meeples back and score 2 per meeple in that feature, yours included."""
    n = args.get("meeples")
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MEEPLES * len(config["players"]):
        raise InvalidAction(Msg(N_("Count the meeples in that feature, yours included (at least 1).")),
                            field="meeples")
    colour = _active(state, config)
    state["meeples"][colour] -= 1
    state["scores"][colour] += 2 * n
    state["gifts"]["opened"] = "done"


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


def moves(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The table of allowed actions: the setup, then turns (the player on turn moves between its
    steps, receives and opens gifts and ends it; anyone enters meeples and completed features), then
    the final tally one category at a time (meeple counts still corrected), then nothing but the
    result."""
    phase = state["phase"]
    table = dict.fromkeys(REDUCERS, refused({
        "setup": N_("The game has not begun yet: finish the setup first."),
        "play": N_("The final tally begins once the last tile is placed."),
        "tally": N_("The last tile is placed: the final tally is under way."),
    }.get(phase, N_("The game is over."))))
    if phase == "setup":
        table["begin"] = ALLOWED
    elif phase == "play":
        table.update(_turn_moves(state, config))
    elif phase == "tally":
        review = state["category"] == "review"
        table["meeple"] = ALLOWED
        table["tally_feature"] = refused(N_("Every category is entered: check the review.")) if review else ALLOWED
        table["tally_next"] = refused(N_("This is the review, the tally's last step.")) if review else ALLOWED
        table["finish"] = ALLOWED if review else refused(N_("Go through every category first."))
    if phase != "setup":
        table["begin"] = refused(N_("The game has already begun."))
    if not config["gifts"]:
        table.update(dict.fromkeys(("gift_draw", "gift_open", "synod", "road_sweeper", "cash_out"),
                                   refused(N_("The Gifts are not in this game."))))
    return table


def _turn_moves(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The table during play: the turn's own actions are the player on turn's."""
    active = _active(state, config)
    on_turn = frozenset({active})
    table = {"goto_step": Rule(by=on_turn), "next_turn": Rule(by=on_turn), "meeple": ALLOWED,
             "score_feature": ALLOWED, "end_game": ALLOWED}
    gifts = state["gifts"]
    if gifts is None:
        return table
    name = by_name(config, {active})
    if gifts["drawn"]:
        table["gift_draw"] = refused(N_("Only one gift is received per turn, even for several features."))
    elif gifts["deck"] == 0 and gifts["discard"] == 0:
        table["gift_draw"] = refused(N_("Every gift card is in the players' hands: no gift."))
    else:
        table["gift_draw"] = Rule(by=on_turn)
    held = gifts["held"][active]
    placed = state["placed"] or ORDER.index(state["step"]) >= ORDER.index("place")
    if gifts["opened"] is not None:
        table["gift_open"] = refused(N_("Only one gift may be opened per turn."))
    elif placed and gifts["drawn"] and held == 1:
        table["gift_open"] = refused(N_("A gift received this turn can be opened from the next turn on: a gift is "
                                        "opened after drawing a tile and before placing it."))
    elif placed:
        table["gift_open"] = refused(N_("This turn's tile is already placed: a gift is opened after drawing a tile "
                                        "and before placing it."))
    elif held == 0:
        table["gift_open"] = refused(N_("{name} holds no gift card."), name=name)
    else:
        table["gift_open"] = Rule(by=on_turn)
    for card in ("synod", "road_sweeper", "cash_out"):
        table[card] = Rule(by=on_turn) if gifts["opened"] == card else refused(N_("Open that gift first."))
    if gifts["opened"] == "cash_out" and state["meeples"][active] == 0:
        table["cash_out"] = refused(N_("None of this player's meeples is on the board."))
    return table


REDUCERS = {
    "begin": _begin, "goto_step": _goto_step, "next_turn": _next_turn, "meeple": _meeple,
    "score_feature": _score_feature, "gift_draw": _gift_draw, "gift_open": _gift_open, "synod": _synod,
    "road_sweeper": _road_sweeper, "cash_out": _cash_out, "end_game": _end_game,
    "tally_feature": _tally_feature, "tally_next": _tally_next, "finish": _finish,
}


def result(state: Mapping, config: Mapping) -> dict:
    """The final result: the score track plus the tally (the same `final_scores` as `score`)."""
    options = [GIFTS_OPTION] if config["gifts"] else []
    players = [{"id": p["colour"], "name": p["name"], "track": state["scores"][p["colour"]],
                **({"gifts": state["gifts"]["held"][p["colour"]]} if config["gifts"] else {})}
               for p in config["players"]]
    return final_scores(options, players, state["tally"])


def describe(action: Mapping, config: Mapping) -> Msg:
    """What an action did, for the game log and the undo button."""
    kind, args = action.get("type"), action.get("args", {})
    names = {p["colour"]: p["name"] for p in config["players"]}
    who = names.get(args.get("player"), "")
    simple = {"begin": N_("Setup finished, the game begins"), "goto_step": N_("Moved to another step"),
              "next_turn": N_("Next player"), "end_game": N_("The last tile is placed: final tally"),
              "tally_next": N_("Next category"), "finish": N_("Final scoring done"),
              "gift_draw": N_("A gift card was drawn"), "synod": N_("Synod: a meeple on a monastery"),
              "tick": N_("Setup: ticked an item")}
    if kind == "meeple":
        return Msg(N_("{name}: a meeple placed") if args.get("delta") == 1 else N_("{name}: a meeple taken back"),
                   {"name": who})
    if kind in ("score_feature", "tally_feature", "road_sweeper"):
        feature = _checked(dict(args, type="road") if kind == "road_sweeper" else args, kind == "score_feature",
                           config)
        points = {c: n for c, n in feature_points(feature).items() if n}
        scored = ", ".join(f"{names[c]} +{n}" for c, n in points.items())
        if kind == "road_sweeper":
            return Msg(N_("Road Sweeper: {points}"), {"points": scored or "0"})
        if not points:
            return Msg(N_("{feature}: no meeple in it, no points"), {"feature": text(f"feature.{feature['type']}")})
        return Msg(N_("{feature} scored: {points}"), {"feature": text(f"feature.{feature['type']}"), "points": scored})
    if kind == "cash_out":
        n = args.get("meeples", 0)
        return Msg(N_("Cash Out: {meeples}, {points}"), {"meeples": P_("{n} meeple", "{n} meeples", n),
                                                         "points": P_("{n} point", "{n} points", 2 * n)})
    if kind == "gift_open":
        return Msg(N_("Gift opened: {card}"), {"card": text(f"gift.{args.get('card')}.title")})
    if kind == "correct":
        return Msg(N_("Score correction for {name}: {points:+d} ({reason})"),
                   {"name": names.get(args.get("track"), ""), "points": args.get("points", 0),
                    "reason": args.get("reason", "")})
    return Msg(simple.get(str(kind), N_("Unknown action")))



def guide(state: Mapping, config: Mapping) -> Guide:
    """The pinned header: the step of the turn (or the final tally's category), the player on turn
    and every player's score."""
    figures = {p["colour"]: Msg("{n}", {"n": state["scores"][p["colour"]]}) for p in config["players"]}
    if state["phase"] == "tally":
        return Guide(Msg({"road": N_("Final tally: unfinished roads"), "city": N_("Final tally: unfinished cities"),
                          "monastery": N_("Final tally: unfinished monasteries"),
                          "field": N_("Final tally: fields")}.get(state["category"], N_("Final tally"))),
                     figures=figures, screen=f"tally:{state['category']}")
    if state["phase"] == "over":
        return Guide(Msg(N_("The game is over")), figures=figures, screen="over")
    ids = [s.id for s in steps(config)]
    where = Msg(N_("Step {n} of {all}: {step}"), {"n": ids.index(state["step"]) + 1, "all": len(ids),
                                                   "step": text(f"step.standard.{state['step']}.title")})
    return Guide(where, _active(state, config), Msg(N_("On turn:")), figures, "play")


GAME = GameDef(
    id=ID, cli_name="carcassonne", min_players=2, max_players=5,
    new_config=new_config, setup_items=setup_items, initial_state=initial_state,
    reducers=REDUCERS, describe=describe, score_cli=score_cli, steps=steps, result=result,
    independent=frozenset({"meeple"}), progress=score_track, guide=guide, navigation=frozenset({"goto_step"}),
    personal=frozenset({"meeple"}), moves=moves,
    order=40,
)
