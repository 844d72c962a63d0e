"""Princes of the Renaissance: the city ranks, the final scoring and `companion score`.

Encodes (FACTS §3 of ../shared/rules/FACTS.md):
- the city ranks 10/7/5/3/2 with the artist tie-break and shared lowest rank (FACTS §3.7.1; TV-P7):
  `city_ranks`;
- the final scoring: city tiles, Merchant event, event tiles, Pope, gold, influence and the
  triangular VP counters, winner and shared places (FACTS §3.7.2–6; TV-P6, TV-P8): `final_scores`,
  `score_cli`; its input is bounded by what the box contains (see `setup`): `check_player`,
  `check_totals`.

Decisions where the sources are silent (FACTS §3.10 marks them UNKNOWN):
- second-most gold when several players tie for most gold: by default it is still awarded, to the
  players with the next lower gold amount. Gold ranks by distinct amounts: every player with the
  highest amount gets 6, every player with the next lower amount gets 3 (an explain line says so
  when it applies); when everybody has the same gold, all get 6 and nobody gets 3. The rule option
  `tied_gold_no_second` (`companion score`: `tied-gold-no-second`) gives the 3 to nobody after a tie;
- a player's "merchant_tiles" are among his city tiles (so never more than those), and the
  Merchant event's bonus is 1 VP per such tile (two exist, so at most 2 VP);
- event tiles scored are bounded only by the 12 event tiles of the game; artist tiles placed at
  the cities by the 4 "+1 status" artists.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping
from ...engine import inputs
from ...engine.model import Msg, N_, P_, listed
from ...engine.ranking import places_without_tie_break, points_lowest_of_tied, positions, tied_groups

from .preparation import (
    ARTIST_TILES, CITIES, CITIES_PER_PLAYER, CLI_GOLD_OPTION, CLI_NAME, EVENT_TILES, EVENT_VP_MAX, GOLD, INFLUENCE,
    MERCHANT_TILES, POPE, RANKS, STATUS_HIGH, STATUS_LOW, TILES_PER_CITY, TILES_PER_PLAYER, _cities, city_name,
    vp_counter_limit, war_limit)


def triangular(n: int) -> int:
    """VP counters score 1, 3, 6, 10, 15, 21, … (FACTS §3.7.6; TV-P6)."""
    return n * (n + 1) // 2


def rank_cities(cities: Mapping[str, Mapping]) -> tuple[dict[str, int], list[Msg]]:
    """Points per city tile of each city, with the lines that explain them (FACTS §3.7.1; TV-P7).

    Cities rank by final status; a tie is broken by more "+1 status" artist tiles placed there;
    cities still tied all take the points of the lowest rank they occupy, and the next city
    continues after them.
    """
    groups = tied_groups(CITIES, key=lambda c: (cities[c]["status"], cities[c]["artists"]))
    points: dict[str, int] = {}
    explain: list[Msg] = []
    by_status: dict[int, list[str]] = {}
    for city in CITIES:
        by_status.setdefault(cities[city]["status"], []).append(city)
    told = set()
    for group, (first, last), award in zip(groups, positions(groups), points_lowest_of_tied(groups, RANKS)):
        status = cities[group[0]]["status"]
        same = sorted(by_status[status], key=CITIES.index)
        if len(same) > len(group) and status not in told:
            told.add(status)
            explain.append(Msg(N_("{cities} tie on status {status}: more artist tiles placed there rank higher."),
                               {"cities": _cities(same), "status": status}))
        for city in group:
            points[city] = award
            explain.append(P_("{city}: status {status}, artist tiles {artists}, rank {rank}: {n} point per city tile",
                              "{city}: status {status}, artist tiles {artists}, rank {rank}: {n} points per city tile",
                              award, city=city_name(city), status=status, artists=cities[city]["artists"],
                              rank=str(first) if first == last else f"{first}–{last}"))
        if len(group) > 1:
            explain.append(Msg(N_("{cities} are still tied (status {status}, artist tiles {artists}): they share "
                                  "ranks {first}–{last} and each takes the points of rank {last}."),
                               {"cities": _cities(group), "status": status, "artists": cities[group[0]]["artists"],
                                "first": first, "last": last}))
    return points, explain


def city_ranks(cities: Mapping[str, Mapping]) -> dict[str, int]:
    """Points per city tile: `{"venice": 10, ...}` from `{"venice": {"status": 9, "artists": 0}, ...}`."""
    return rank_cities(cities)[0]


def _names(rows: list[dict]) -> Msg | str:
    return listed([r["name"] for r in rows])


def final_scores(cities: Mapping[str, Mapping], players: list[dict], tied_gold_no_second: bool = False) -> dict:
    """Final scoring (FACTS §3.7) of checked input: city tiles by rank, Merchant event, event tiles,
    Pope, VP counters, most and second-most gold, most influence; ties in a bonus give every tied
    player the full amount; the winner has most VP, tied players share the place. With
    `tied_gold_no_second` (a rule option) nobody scores second-most gold when most gold is tied."""
    ranks, explain = rank_cities(cities)
    rows = []
    for p in players:
        who = p.get("name", p["id"])
        tiles = [(c, p["city_tiles"][c]) for c in CITIES if p["city_tiles"].get(c, 0) > 0]
        breakdown = {"cities": sum(n * ranks[c] for c, n in tiles),
                     "merchants": p["merchant_tiles"] if p["merchant_event"] else 0,
                     "events": sum(p["events_vp"]),
                     "pope": POPE if p["pope"] else 0,
                     "war": triangular(p["vp_counters"]),
                     "gold": 0, "influence": 0}
        if tiles:
            template = " + ".join("{c%d} {n%d} × {v%d}" % (i, i, i) for i in range(len(tiles)))
            params: dict[str, Any] = {}
            for i, (c, n) in enumerate(tiles):
                params.update({f"c{i}": city_name(c), f"n{i}": n, f"v{i}": ranks[c]})
            explain.append(Msg(N_("{name}: city tiles {tiles} = {points}"),
                               {"name": who, "tiles": Msg(template, params), "points": breakdown["cities"]}))
        else:
            explain.append(Msg(N_("{name}: no city tiles"), {"name": who}))
        if p["merchant_event"]:
            explain.append(P_("{name}: Merchant event with {n} Merchant city tile: +{n}",
                              "{name}: Merchant event with {n} Merchant city tiles: +{n}",
                              p["merchant_tiles"], name=who))
        elif p["merchant_tiles"]:
            explain.append(P_("{name}: {n} Merchant city tile but not the Merchant event: +0",
                              "{name}: {n} Merchant city tiles but not the Merchant event: +0",
                              p["merchant_tiles"], name=who))
        if len(p["events_vp"]) == 1:
            explain.append(P_("{name}: an event tile worth {n} point", "{name}: an event tile worth {n} points",
                              breakdown["events"], name=who))
        elif p["events_vp"]:
            explain.append(Msg(N_("{name}: event tiles {list} = {points}"),
                               {"name": who, "list": " + ".join(map(str, p["events_vp"])),
                                "points": breakdown["events"]}))
        if p["pope"]:
            explain.append(Msg(N_("{name} holds the Pope: +{points}"), {"name": who, "points": POPE}))
        if p["vp_counters"] == 1:
            explain.append(Msg(N_("{name}: 1 VP counter = 1"), {"name": who}))
        elif p["vp_counters"]:  # the k-th counter is worth k: 1, 1 + 2, 1 + 2 + 3, ...
            n = p["vp_counters"]
            steps = " + ".join(map(str, range(1, n + 1))) if n <= 4 else f"1 + 2 + … + {n}"
            explain.append(P_("{name}: {n} VP counter, {steps} = {points}",
                              "{name}: {n} VP counters, {steps} = {points}",
                              n, name=who, steps=steps, points=breakdown["war"]))
        rows.append({"id": p["id"], "name": who, "gold": p["gold"], "influence": p["influence"],
                     "breakdown": breakdown})
    explain += _gold(rows, tied_gold_no_second) + _influence(rows)
    explain += places_without_tie_break(rows, _names)
    return {"game": CLI_NAME,
            "players": [{"id": r["id"], "total": r["total"], "place": r["place"], "breakdown": r["breakdown"]}
                        for r in rows],
            "winners": [r["id"] for r in rows if r["place"] == 1], "explain": explain}


def _gold(rows: list[dict], tied_no_second: bool = False) -> list[Msg]:
    """Most gold +6, second-most +3, by distinct gold amounts: ties get the full amount; a tie for
    most still leaves the next lower amount second, or, with the rule option, nobody (FACTS §3.10
    leaves this open)."""
    groups = tied_groups(rows, key=lambda r: r["gold"])
    explain = []
    if len(groups) > 1 and len(groups[0]) > 1 and tied_no_second:
        for row in groups[0]:
            row["breakdown"]["gold"] = GOLD[0]
        return [Msg(N_("Most gold ({n}): +{points} for {names}."),
                    {"n": groups[0][0]["gold"], "points": GOLD[0], "names": _names(groups[0])}),
                Msg(N_("Most gold is tied: by the rule option chosen for this game, nobody scores second-most "
                       "gold."))]
    if len(groups) == 1:
        for row in groups[0]:
            row["breakdown"]["gold"] = GOLD[0]
        return [Msg(N_("Everyone has {n} gold: +{points} each for most gold, nobody is second."),
                    {"n": groups[0][0]["gold"], "points": GOLD[0]})]
    for group, award, line in zip(groups, GOLD, (N_("Most gold ({n}): +{points} for {names}."),
                                                 N_("Second-most gold ({n}): +{points} for {names}."))):
        for row in group:
            row["breakdown"]["gold"] = award
        explain.append(Msg(line, {"n": group[0]["gold"], "points": award, "names": _names(group)}))
    if len(groups[0]) > 1:
        explain.append(Msg(N_("Most gold is tied: the rulebook does not say whether second-most gold is still "
                              "awarded; here the next lower amount ({n}) counts as second-most (a rule option "
                              "gives it to nobody)."),
                           {"n": groups[1][0]["gold"]}))
    return explain


def _influence(rows: list[dict]) -> list[Msg]:
    """Most influence +4; every tied player gets it."""
    best = tied_groups(rows, key=lambda r: r["influence"])[0]
    for row in best:
        row["breakdown"]["influence"] = INFLUENCE
    return [Msg(N_("Most influence ({n}): +{points} for {names}."),
                {"n": best[0]["influence"], "points": INFLUENCE, "names": _names(best)})]


def check_cities(raw: Any, path: str) -> dict:
    """The five major cities' final status and artist tiles placed there."""
    inputs.obj(raw, path, required=CITIES)
    cities, artists = {}, 0
    for city in CITIES:
        where = inputs.join(path, city)
        inputs.obj(raw[city], where, required=["status", "artists"])
        status = inputs.whole(raw[city]["status"], inputs.join(where, "status"), STATUS_LOW, STATUS_HIGH,
                              N_("the top of the city-status track"))
        placed = inputs.whole(raw[city]["artists"], inputs.join(where, "artists"), 0, ARTIST_TILES,
                              N_('"+1 status" artist tiles in the game'))
        artists += placed
        if artists > ARTIST_TILES:
            raise inputs.InputError(inputs.join(where, "artists"),
                                    Msg(N_('more artist tiles in all cities than the {n} "+1 status" artists, '
                                           'got {got}'), {"n": ARTIST_TILES, "got": artists}))
        cities[city] = {"status": status, "artists": placed}
    return cities


def check_player(raw: Any, path: str) -> dict:
    """One player's final-scoring entry, checked against the box (FACTS §3.1, §3.4, §3.8)."""
    fields = ["id", "gold", "influence", "pope", "events_vp", "vp_counters", "city_tiles", "merchant_tiles",
              "merchant_event"]
    inputs.obj(raw, path, required=fields)
    j = lambda key: inputs.join(path, key)  # noqa: E731
    p = {"id": raw["id"], "gold": inputs.whole(raw["gold"], j("gold")),
         "influence": inputs.whole(raw["influence"], j("influence")),
         "pope": inputs.boolean(raw["pope"], j("pope")),
         "vp_counters": inputs.whole(raw["vp_counters"], j("vp_counters")),
         "merchant_event": inputs.boolean(raw["merchant_event"], j("merchant_event"))}
    events = inputs.array(raw["events_vp"], j("events_vp"), 0, EVENT_TILES)
    p["events_vp"] = [inputs.whole(v, inputs.join(j("events_vp"), i), 0, EVENT_VP_MAX,
                                   N_("the app's bound against typing errors: the sources do not list every event "
                                      "tile's VP"))
                      for i, v in enumerate(events)]
    inputs.obj(raw["city_tiles"], j("city_tiles"), optional=CITIES)
    tiles = {}
    for city in CITIES:
        if city in raw["city_tiles"]:
            tiles[city] = inputs.whole(raw["city_tiles"][city], inputs.join(j("city_tiles"), city), 0, TILES_PER_CITY,
                                       N_("city tiles per city"))
    p["city_tiles"] = tiles
    owned = sum(tiles.values())
    if owned > TILES_PER_PLAYER:
        raise inputs.InputError(j("city_tiles"), Msg(N_("a player holds at most {n} city tiles, got {got}"),
                                                     {"n": TILES_PER_PLAYER, "got": owned}))
    held = [c for c, n in tiles.items() if n > 0]
    if len(held) > CITIES_PER_PLAYER:
        raise inputs.InputError(j("city_tiles"), Msg(N_("a player holds city tiles of at most {n} different "
                                                        "cities, got {got}"),
                                                     {"n": CITIES_PER_PLAYER, "got": len(held)}))
    p["merchant_tiles"] = inputs.whole(raw["merchant_tiles"], j("merchant_tiles"), 0, MERCHANT_TILES,
                                       N_("Merchant city tiles in the game"))
    if p["merchant_tiles"] > owned:
        raise inputs.InputError(j("merchant_tiles"), Msg(N_("more Merchant city tiles than city tiles ({n}), "
                                                            "got {got}"), {"n": owned, "got": p["merchant_tiles"]}))
    return p


def check_totals(players: list[dict]) -> None:
    """Across all players: one Pope, one Merchant event, two Merchant tiles, 12 event tiles, 6 tiles per city,
    and no more VP counters than the wars a game can have (`vp_counter_limit`).

    The error names the field of the first player that goes beyond the box.
    """
    counts = {"pope": 0, "merchant_event": 0, "merchant_tiles": 0, "events_vp": 0, "vp_counters": 0}
    wars = vp_counter_limit(len(players))
    per_city = {c: 0 for c in CITIES}
    for i, p in enumerate(players):
        path = inputs.join("players", i)
        counts["pope"] += p["pope"]
        if counts["pope"] > 1:
            raise inputs.InputError(inputs.join(path, "pope"),
                                    Msg(N_("at most one player holds the pope, got {n}"),
                                        {"n": sum(q["pope"] for q in players)}))
        counts["merchant_event"] += p["merchant_event"]
        if counts["merchant_event"] > 1:
            raise inputs.InputError(inputs.join(path, "merchant_event"),
                                    Msg(N_("at most one player holds the Merchant event, got {n}"),
                                        {"n": sum(q["merchant_event"] for q in players)}))
        counts["merchant_tiles"] += p["merchant_tiles"]
        if counts["merchant_tiles"] > MERCHANT_TILES:
            raise inputs.InputError(inputs.join(path, "merchant_tiles"),
                                    Msg(N_("more Merchant city tiles in all than the {n} in the game, got {got}"),
                                        {"n": MERCHANT_TILES, "got": sum(q["merchant_tiles"] for q in players)}))
        counts["vp_counters"] += p["vp_counters"]
        if counts["vp_counters"] > wars:
            raise inputs.InputError(inputs.join(path, "vp_counters"),
                                    Msg(N_("one VP counter per war won, and a game of {players} players has at most "
                                           "{n} wars (3 decades × {limit}, plus the Start War card), got {got} in all"),
                                        {"players": len(players), "n": wars, "limit": war_limit(len(players)),
                                         "got": sum(q["vp_counters"] for q in players)}))
        counts["events_vp"] += len(p["events_vp"])
        if counts["events_vp"] > EVENT_TILES:
            raise inputs.InputError(inputs.join(path, "events_vp"),
                                    Msg(N_("more event tiles in all than the {n} in the game, got {got}"),
                                        {"n": EVENT_TILES, "got": sum(len(q["events_vp"]) for q in players)}))
        for city, n in p["city_tiles"].items():
            per_city[city] += n
            if per_city[city] > TILES_PER_CITY:
                raise inputs.InputError(inputs.join(inputs.join(path, "city_tiles"), city),
                                        Msg(N_("more {city} tiles in all than the {n} in the game, got {got}"),
                                            {"city": city_name(city), "n": TILES_PER_CITY,
                                             "got": sum(q["city_tiles"].get(city, 0) for q in players)}))


def score_cli(data: Any) -> dict:
    """`companion score princes-of-the-renaissance`: check the input (scoring-contract.md) and score it."""
    data, options, players = inputs.common(data, CLI_NAME, [CLI_GOLD_OPTION], 3, 6, top=["cities"])
    cities = check_cities(data["cities"], "cities")
    checked = [check_player(p, inputs.join("players", i)) for i, p in enumerate(players)]
    check_totals(checked)
    return final_scores(cities, checked, CLI_GOLD_OPTION in options)
