"""Princes of the Renaissance (Martin Wallace, Warfrog 2003): setup, decades, the ledgers, auctions,
wars, income and the final scoring.

Encodes the rulebook as summarised in ../shared/rules/FACTS.md §3 (seed 002 and the English rules
S-RP-P):
- setup: 40 gold and 12 influence each, the cities' starting status, families, decade I events,
  the first player (FACTS §3.2): `new_config`, `setup_items`, `initial_state`;
- a decade: one action per turn clockwise, ended by the auction of its last event tile (FACTS §3.3,
  §3.4): `_end_turn`, `_settle_auction`;
- the actions: troops, treachery cards (hand limit), the auctions of city tiles, the Pope and event
  tiles with their minimums, eligibility and discounts (FACTS §3.4, §3.8; TV-P1, TV-P2):
  `_buy_troop`, `_buy_card`, `_open_auction`, `bid_limit`, `price`;
- never bid more than you can pay (FACTS §3.4): the limit counts discounts, Bribe Cardinal and the
  swap an unused Banking tile allows; while an auction runs, a deal or Banking that would leave its
  leader unable to pay is refused (a ledger correction waits until the auction is over), and the
  payment is checked again: `bid_limit`, `banking_room`, `_leader_can_pay`, `_settle_auction`;
- the cards and tile abilities the ledgers feel (FACTS §3.8): Freeze Bid (the bidder on turn on
  another bidder still in), Steal Influence and Raid Gold Shipment, Banking, Lucrezia Borgia and
  Alfonso of Aragon (the player on turn; Lucrezia never during an auction): `_play_card`, `_ability`;
- war: the war track, veto, the condottiere auctions (TV-P3), war pay, the Pope's Holy League,
  Bribe Troops on any troop in the war, one's own and the Pope's too, the battle with its
  counter-attack and result (FACTS §3.5, §3.8; TV-P4): `_declare_war`, `_bribe`, `strength`,
  `battle_round`, `_battle`;
- income at the end of a decade (FACTS §3.6; TV-P5): `income`, `_book_income`;
- what the box contains, as far as it bounds a final-scoring input (FACTS §3.1, §3.4, §3.8): five
  major cities with status 3–10, 4 "+1 status" artist tiles, 12 event tiles, 6 city tiles per city,
  at most 6 city tiles from at most 3 cities per player, exactly two Merchant city tiles, one Pope,
  and one VP counter per war won: at most 3 decades × 4 wars (5 with 5–6 players) plus the war of
  the one Start War card (`vp_counter_limit`). Gold and influence have no box count in the sources
  (the counters are not counted), so they are not bounded by one;
- the city ranks 10/7/5/3/2 with the artist tie-break and shared lowest rank (FACTS §3.7.1; TV-P7):
  `city_ranks`;
- the final scoring: city tiles, Merchant event, event tiles, Pope, gold, influence and the
  triangular VP counters, winner and shared places (FACTS §3.7.2–6; TV-P6, TV-P8): `final_scores`,
  `score_cli`.

Where the Czech summary (seed) and the English rules disagree, the Czech reading is the default and
the English one a named option of the new game (`ENGLISH_READINGS`; the config stores the readings in
force, `CZECH_READINGS`, so a game saved before this default keeps the English rules it had):
- FACTS §3.2 and §6 "Milan starting status": Milan starts at 7 (`milan_seven`; English `milan_six`);
- FACTS §3.3 and §6 "decade 2/3 first player": the left neighbour of the last first player
  (`first_left`; English `first_after_last_auction`);
- FACTS §3.8 and §6 "Swiss Mercenaries": +1 attack only (`swiss_attack_only`; English
  `swiss_attack_and_defence`);
- FACTS §3.5.8 and §6 "counter-attack": none, a higher defender wins and a tie is a draw
  (`no_counter_attack`; English `counter_attack`);
- FACTS §3.4 and §6 "tradable items": VP counters may be traded too (`trade_vp`; English
  `trade_gold_influence_only`);
- FACTS §3.8 Banking [CONFLICT]: on your turn or when paying for a tile you won
  (`banking_own_turn`; English `banking_any_time`), never after the decade's last event tile except
  to pay for it;
- FACTS §3.4 auction procedure (the seed's "Průběh dražby"): the opener bids or passes
  (`opener_may_pass`; English `opener_bids`).
None of them changes the final scoring, so `companion score` reads the same with either.

Tile data no source settles (troops' cost, strength and income; the 30 city tiles' city, income and
ability; the event tiles' decade, VP and currency) is entered from the physical tile when it is
bought or auctioned, never invented; the few known values only prefill the forms (`KNOWN_TROOPS`).

Decisions where the sources are silent (FACTS §3.10 marks them UNKNOWN):
- second-most gold when several players tie for most gold: by default it is still awarded, to the
  players with the next lower gold amount. Gold ranks by distinct amounts: every player with the
  highest amount gets 6, every player with the next lower amount gets 3 (an explain line says so
  when it applies); when everybody has the same gold, all get 6 and nobody gets 3. The rule option
  `tied_gold_no_second` (`companion score`: `tied-gold-no-second`) gives the 3 to nobody after a tie;
- a winner short of the auction's currency when paying uses his unused Banking tile: the app swaps
  just what is missing (at most 3);
- a player's "merchant_tiles" are among his city tiles (so never more than those), and the
  Merchant event's bonus is 1 VP per such tile (two exist, so at most 2 VP);
- event tiles scored are bounded only by the 12 event tiles of the game; artist tiles placed at
  the cities by the 4 "+1 status" artists;
- "the next player after whoever took the last action" (the English rules' first player of the
  next decade) is read as the player after the one who opened the auction of the decade's last
  event tile: that auction is the decade's last action;
- treachery cards are secret, so the app counts them and never names them; a card bought over the
  hand limit is discarded at once (the count stays at the limit); the Treachery cards the app acts
  on are named when played (Freeze Bid, Steal Influence, Raid Gold Shipment, Bribe Troops, Veto,
  Start War, and Bribe Cardinal declared with a Pope bid);
- whoever opens an auction bids or passes (the Czech summary lets him pass; whoever starts a war
  opens both condottiere auctions and may own no troop at all); an auction nobody bids in gives the
  lot to nobody (an event tile is gone unsold and counts toward the decade's end);
- who acts now and what may be done (issue 22) is one table, `moves`: the player on turn for his
  turn's action and the end of his turn (one war a turn: the war of the action, or of the Start War
  card, once a turn; the Veto card once a turn), the bidder on turn, the winner of an event tile
  placing it, the war's starter going on past the veto, the condottiere whose attack (or
  counter-attack) the dice decide; no ledger correction while an auction runs;
- Ludovico Sforza's re-roll: the dice first entered are taken back with undo and the new ones are
  entered naming his holder, which turns the tile for the decade (`_battle`).
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from ...engine import auction, inputs
from ...engine.flow import by_name
from ...engine.model import ALLOWED, GameDef, Guide, InvalidAction, Msg, N_, P_, Ref, Rule, Step, refused
from ...engine.seats import check_seats
from ...engine.ranking import places_without_tie_break, points_lowest_of_tied, positions, tied_groups

ID = "princes_of_the_renaissance"
CLI_NAME = "princes-of-the-renaissance"
CITIES = ("venice", "milan", "florence", "rome", "naples")

#: What the box contains (FACTS §3.1, §3.4, §3.8).
STATUS_LOW, STATUS_HIGH = 3, 10          # the city-status track
ARTIST_TILES = 4                         # "+1 status" artists: Botticelli, Pinturicchio, Carpaccio, Ghirlandaio
EVENT_TILES = 12                         # 4 per decade
EVENT_VP_MAX = 10                        # printed VP of one event tile (bound for typos only)
TILES_PER_CITY = 6
TILES_PER_PLAYER = 6
CITIES_PER_PLAYER = 3
MERCHANT_TILES = 2

#: Final scoring (FACTS §3.7).
RANKS = (10, 7, 5, 3, 2)                 # points per city tile by the city's rank
POPE = 3
GOLD = (6, 3)                            # most, second-most
INFLUENCE = 4                            # most


def text(key: str) -> Ref:
    return Ref(f"{ID}.{key}")


def city_name(city: str) -> Ref:
    return text(f"city.{city}")


def _cities(cities: list[str]) -> Msg:
    """City names joined by commas, each in the reader's language."""
    template = ", ".join("{c%d}" % i for i in range(len(cities)))
    return Msg(template, {f"c{i}": city_name(c) for i, c in enumerate(cities)})


def triangular(n: int) -> int:
    """VP counters score 1, 3, 6, 10, 15, 21, … (FACTS §3.7.6; TV-P6)."""
    return n * (n + 1) // 2


# ----------------------------------------------------------------------------------------------
# City ranks


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


# ----------------------------------------------------------------------------------------------
# Final scoring


def _names(rows: list[dict]) -> str:
    return ", ".join(r["name"] for r in rows)


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


# ----------------------------------------------------------------------------------------------
# Checking `companion score` input


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
                                            {"city": city, "n": TILES_PER_CITY,
                                             "got": sum(q["city_tiles"].get(city, 0) for q in players)}))


def score_cli(data: Any) -> dict:
    """`companion score princes-of-the-renaissance`: check the input (scoring-contract.md) and score it."""
    data, options, players = inputs.common(data, CLI_NAME, [CLI_GOLD_OPTION], 3, 6, top=["cities"])
    cities = check_cities(data["cities"], "cities")
    checked = [check_player(p, inputs.join("players", i)) for i, p in enumerate(players)]
    check_totals(checked)
    return final_scores(cities, checked, CLI_GOLD_OPTION in options)


# ----------------------------------------------------------------------------------------------
# The session: what the box holds beyond the final scoring (FACTS §3.1, §3.2, §3.8)

#: Players choose a family; the family tile also identifies the player on every screen.
FAMILIES = ("baglioni", "bentivogli", "malatesta", "montefeltro", "gonzaga", "d_este")
START_STATUS = {"venice": 7, "milan": 6, "florence": 6, "rome": 5, "naples": 5}
MILAN_SEED = 7                           # reading `milan_seven`: the Czech summary's value
START_GOLD, START_INFLUENCE = 40, 12
FAMILY_INCOME = (12, 8)                  # gold, influence printed on every family tile
POPE_INCOME = 3                          # gold
MERCHANT_INCOME = 1                      # gold per Merchant city tile with the Merchant event
DECADES = 3
EVENTS_PER_DECADE = 4
CARD_PRICE = (1, 1)                      # a treachery card: 1 gold + 1 influence
TREACHERY_CARDS = 23
START_WAR_CARDS = 1
HAND_LIMIT = 2
CITY_MINIMUM = 2                         # × the city's status
CONDOTTIERE_MINIMUM = 1
BRIBE_CARDINAL = 3                       # influence toward the Pope
STEAL_INFLUENCE, RAID_GOLD = 2, 3
LUCREZIA = 2                             # influence stolen by Lucrezia Borgia
BANKING = 3                              # at most this much swapped
NEUTRAL = 3                              # attack and defence of a city without a condottiere
DIE = 6
LEDGER_MAX = 999                         # gold or influence a player can plausibly hold

TROOPS = ("light_infantry", "crossbow", "pike", "cavalry", "artillery", "fortification")
#: Values the English rules' worked example shows (FACTS §3.8); everything else is read off the tile.
KNOWN_TROOPS = {"pike": {"attack": 0, "defence": 2}, "artillery": {"attack": 3, "defence": 1},
                "fortification": {"attack": 0, "defence": 3}, "cavalry": {"influence": 2}}

#: City tiles: "plain" (income only), "merchant" (two exist), or one of the named tiles with an
#: ability (each exists once). Their city is entered from the tile unless a source names it.
ABILITY_TILES = ("banking", "lucrezia_borgia", "ludovico_sforza", "lorenzo_medici", "cesare_borgia",
                 "ferrante_of_aragon", "alfonso_of_aragon", "roderigo_borgia", "giovanni_medici", "della_rovere",
                 "orsini", "colonna", "caterina_sforza", "genoese_crossbow", "swiss_mercenaries", "armourer",
                 "spanish_infantry")
TILE_KINDS = ("plain", "merchant", *ABILITY_TILES)
KNOWN_TILE_CITY = {"giovanni_medici": "florence"}
POPE_DISCOUNT = ("roderigo_borgia", "giovanni_medici", "della_rovere", "orsini", "colonna")
CONDOTTIERE_DISCOUNT = ("swiss_mercenaries", "armourer")
HAND_TILES = ("cesare_borgia", "ferrante_of_aragon")
HAND_FAMILIES = ("bentivogli", "malatesta")
ARTIST_FAMILIES = ("montefeltro", "gonzaga")
ONCE_A_DECADE = ("banking", "lucrezia_borgia", "alfonso_of_aragon", "lorenzo_medici", "ludovico_sforza")

#: Event tiles (FACTS §3.8): 11 are named; the 12th is "other". Currency and VP are read off the tile.
VP_ARTISTS = ("gozzoli", "bellini", "da_vinci", "verrocchio", "michelangelo")
STATUS_ARTISTS = ("botticelli", "pinturicchio", "carpaccio", "ghirlandaio")
EVENTS = (*VP_ARTISTS, *STATUS_ARTISTS, "french_invasion", "merchant", "other")
KNOWN_EVENT_CURRENCY = {"gozzoli": "influence"}
FRENCH_INVASION = 2                      # status lost by the invaded city

CARDS = ("bribe_troops", "bribe_cardinal", "freeze_bid", "steal_influence", "raid_gold", "veto", "start_war")
#: The Czech edition's readings where it and the English rules differ (FACTS §3.2 Milan, §3.3 first
#: player, §3.4 trading and the auction procedure, §3.5.8 counter-attack, §3.8 Banking and Swiss
#: Mercenaries; §6): each is the default, and a stored config names those in force.
CZECH_READINGS = ("milan_seven", "first_left", "swiss_attack_only", "no_counter_attack", "trade_vp",
                  "banking_own_turn", "opener_may_pass")
#: The new-game form's options: the English rules' reading of each point (it replaces the Czech one),
#: and the one point neither text settles.
ENGLISH_READINGS = {"milan_six": "milan_seven", "first_after_last_auction": "first_left",
                    "swiss_attack_and_defence": "swiss_attack_only", "counter_attack": "no_counter_attack",
                    "trade_gold_influence_only": "trade_vp", "banking_any_time": "banking_own_turn",
                    "opener_bids": "opener_may_pass"}
FORM_OPTIONS = (*ENGLISH_READINGS, "tied_gold_no_second")
#: What a stored config's "options" may name: the readings in force (a game created before the
#: Czech readings became the default names those it chose, and the English reading holds elsewhere).
OPTIONS = (*CZECH_READINGS, "tied_gold_no_second")
#: The one rule option that changes the final scoring (`tied_gold_no_second`), as `companion score` names it.
CLI_GOLD_OPTION = "tied-gold-no-second"

#: The actions of a turn, in the rulebook's order: the turn guide's steps (FACTS §3.4).
STEPS = tuple(Step(a, helper=a) for a in ("troop", "treachery", "city", "pope", "event", "war", "pass"))


def family_name(family: str) -> Ref:
    return text(f"family.{family}")


def war_limit(players: int) -> int:
    """Wars per decade: 4, or 5 with 5–6 players (FACTS §3.4.6)."""
    return 5 if players >= 5 else 4


def vp_counter_limit(players: int) -> int:
    """VP counters a whole game can hand out: one per war won (FACTS §3.5.9), at most `war_limit` wars
    a decade on the track for 3 decades, plus the war of the one Start War card (FACTS §3.1)."""
    return DECADES * war_limit(players) + START_WAR_CARDS


# ----------------------------------------------------------------------------------------------
# New game and setup


def new_config(raw: Mapping) -> dict:
    """Players clockwise, each with his family (the family is his colour), the first player of
    decade I, and the rules read as the Czech edition reads them unless the form chose the English
    reading of a point (`ENGLISH_READINGS`; a Czech reading's own name may be given too, it is the
    default). The config stores the readings in force, so a saved game keeps its rules."""
    players, start = check_seats(raw, FAMILIES, 3, 6)
    chosen = raw.get("options", [])
    if not isinstance(chosen, list) or any(o not in FORM_OPTIONS and o not in OPTIONS for o in chosen):
        raise InvalidAction(Msg(N_("There is no such rule option.")), field="options")
    english = {ENGLISH_READINGS[o] for o in chosen if o in ENGLISH_READINGS}
    return {"game": ID, "variant": "standard", "players": players, "start": start,
            "options": [o for o in OPTIONS if o not in english and (o in CZECH_READINGS or o in chosen)]}


def option(config: Mapping, name: str) -> bool:
    return name in config.get("options", ())


def start_status(config: Mapping) -> dict[str, int]:
    return dict(START_STATUS, milan=MILAN_SEED) if option(config, "milan_seven") else dict(START_STATUS)


def setup_items(config: Mapping) -> list[dict]:
    status = start_status(config)
    items: list[dict[str, Any]] = [{"id": "board", "params": {c: status[c] for c in CITIES}},
             {"id": "war_marker"},
             {"id": "money", "params": {"gold": START_GOLD, "influence": START_INFLUENCE}},
             {"id": "families"},
             {"id": "treachery", "params": {"n": TREACHERY_CARDS}},
             {"id": "tiles"},
             {"id": "events"},
             {"id": "first_player", "params": {"name": config["players"][config["start"]]["name"]}}]
    for item in items:
        item.setdefault("params", {})
    return items


def steps(config: Mapping) -> tuple:
    return STEPS


def initial_state(config: Mapping) -> dict:
    status = start_status(config)
    return {
        "phase": "setup", "decade": 1, "first": config["start"], "turn": config["start"], "acted": False,
        "cities": {c: {"status": status[c], "artists": 0} for c in CITIES},
        "players": {p["colour"]: {"gold": START_GOLD, "influence": START_INFLUENCE, "vp": 0, "treachery": 0,
                                  "pay": 0, "tiles": [], "troops": {}, "events": []} for p in config["players"]},
        "pope": None, "merchant_event": None, "wars": 0, "events_left": EVENTS_PER_DECADE, "events_done": [],
        "used": [], "turn_cards": [], "pope_joined": False, "auction": None, "war": None, "pending": None, "last_war": None,
        "last_auction": None, "last_opener": None, "incomes": [],
    }


# ----------------------------------------------------------------------------------------------
# Reading the state


def seat_order(config: Mapping, opener: str) -> list[str]:
    """Every family clockwise from `opener`."""
    families = [p["colour"] for p in config["players"]]
    i = families.index(opener)
    return families[i:] + families[:i]


def active_family(state: Mapping, config: Mapping) -> str:
    return config["players"][state["turn"]]["colour"]


def owns(state: Mapping, family: str, kind: str) -> bool:
    return any(t["kind"] == kind for t in state["players"][family]["tiles"])


def hand_limit(state: Mapping, family: str) -> int:
    """2, +1 for Bentivogli or Malatesta, +1 for each of Cesare Borgia and Ferrante of Aragon."""
    return (HAND_LIMIT + (family in HAND_FAMILIES)
            + sum(owns(state, family, kind) for kind in HAND_TILES))


def cities_held(state: Mapping, family: str) -> set[str]:
    return {t["city"] for t in state["players"][family]["tiles"]}


def may_take_city_tile(state: Mapping, family: str, city: str) -> bool:
    """At most 6 city tiles, from at most 3 different cities (FACTS §3.4.3; TV-P1)."""
    held = cities_held(state, family)
    return (len(state["players"][family]["tiles"]) < TILES_PER_PLAYER
            and (city in held or len(held) < CITIES_PER_PLAYER))


def pope_discount(state: Mapping, family: str) -> int:
    return sum(owns(state, family, kind) for kind in POPE_DISCOUNT)


def condottiere_discount(state: Mapping, family: str) -> int:
    """Baglioni −1; Swiss Mercenaries −1; Armourer −1 (FACTS §3.8; TV-P3)."""
    return (family == "baglioni") + sum(owns(state, family, kind) for kind in CONDOTTIERE_DISCOUNT)


def is_artist(event: str) -> bool:
    return event in VP_ARTISTS or event in STATUS_ARTISTS


def discount(state: Mapping, family: str, lot: Mapping) -> int:
    """What the winner of `lot` pays less than his bid (the documented discounts)."""
    if lot["kind"] == "pope":
        return pope_discount(state, family)
    if lot["kind"] == "condottiere":
        return condottiere_discount(state, family)
    if lot["kind"] == "event" and is_artist(lot["event"]):
        return 1 if family in ARTIST_FAMILIES else 0
    return 0


def banking_room(state: Mapping, config: Mapping, family: str, lot: Mapping, currency: str) -> int:
    """What an unused Banking tile can add to `currency` when its owner pays for `lot`: up to 3 of the
    other currency. By the Czech summary's reading (`banking_own_turn`) it is used on your turn
    or to pay for a tile you won, so a condottiere is paid with it only by the player on turn."""
    if not owns(state, family, "banking") or f"{family}:banking" in state["used"]:
        return 0
    if (option(config, "banking_own_turn") and lot["kind"] == "condottiere"
            and family != active_family(state, config)):
        return 0
    other = "influence" if currency == "gold" else "gold"
    return min(BANKING, state["players"][family][other])


def bid_limit(state: Mapping, config: Mapping, family: str, lot: Mapping, currency: str, cardinal: int = 0) -> int:
    """The highest bid a player can honour: what he holds plus his discounts (a bid may exceed his
    holdings when discounts cover it, FACTS §3.4.5; TV-P2), 3 per Bribe Cardinal toward the Pope, and
    the swap an unused Banking tile allows."""
    held = state["players"][family][currency]
    return (held + discount(state, family, lot) + BRIBE_CARDINAL * cardinal
            + banking_room(state, config, family, lot, currency))


def price(state: Mapping, family: str, lot: Mapping, amount: int, cardinal: int = 0) -> int:
    """What the winner pays for a bid of `amount` (never below 0)."""
    return max(0, amount - discount(state, family, lot) - BRIBE_CARDINAL * cardinal)


def income(state: Mapping, config: Mapping, family: str) -> dict:
    """A decade's income (FACTS §3.6; TV-P5): the family tile, city tiles and troops as printed, the
    Pope, the Merchant event, and the war pay waiting in the home city. Parts name where it comes from."""
    p = state["players"][family]
    parts = [("income.family", FAMILY_INCOME[0], FAMILY_INCOME[1])]
    for tile in p["tiles"]:
        if tile["gold"] or tile["influence"]:
            parts.append((f"tile.{tile['kind']}", tile["gold"], tile["influence"]))
    for troop in TROOPS:
        stats = p["troops"].get(troop)
        if stats and (stats["gold"] or stats["influence"]):
            parts.append((f"troop.{troop}", stats["gold"], stats["influence"]))
    if state["pope"] == family:
        parts.append(("pope", POPE_INCOME, 0))
    merchants = sum(t["kind"] == "merchant" for t in p["tiles"])
    if state["merchant_event"] == family and merchants:
        parts.append(("event.merchant", MERCHANT_INCOME * merchants, 0))
    if p["pay"]:
        parts.append(("income.war_pay", p["pay"], 0))
    return {"gold": sum(g for _, g, _ in parts), "influence": sum(i for _, _, i in parts), "parts": parts}


# ----------------------------------------------------------------------------------------------
# Battle (FACTS §3.5; TV-P4)

#: City-tile and family modifiers: (owner test, troop, attack bonus, defence bonus).
def _troop_bonuses(state: Mapping, config: Mapping, family: str) -> dict[str, tuple[int, int, str]]:
    bonuses: dict[str, tuple[int, int, str]] = {}
    if family == "d_este":
        bonuses["artillery"] = (1, 1, "family.d_este")
    if owns(state, family, "genoese_crossbow"):
        bonuses["crossbow"] = (0, 1, "tile.genoese_crossbow")
    if owns(state, family, "swiss_mercenaries"):
        bonuses["pike"] = (1, 0 if option(config, "swiss_attack_only") else 1, "tile.swiss_mercenaries")
    if owns(state, family, "armourer"):
        bonuses["cavalry"] = (1, 0, "tile.armourer")
    if owns(state, family, "spanish_infantry"):
        bonuses["light_infantry"] = (1, 1, "tile.spanish_infantry")
    return bonuses


def strength(state: Mapping, config: Mapping, war: Mapping, side: str, stat: str) -> tuple[int, list]:
    """A side's attack or defence before the die: its condottiere's troops (less any bribed), his
    tile and family bonuses, Caterina Sforza's +2 defence (for owning a troop: a bribe does not take it), the Pope's raw troop values (less any
    bribed) if he joined this side, and the modifier entered for anything else. A side without
    condottiere is 3/3.

    Returns the total and its parts `(text key, value)`.
    """
    family = war["condottieri"][side]
    parts: list[tuple[str, int]] = []
    if family is None:
        parts.append(("battle.neutral", NEUTRAL))
    else:
        troops = [t for t in TROOPS if t in state["players"][family]["troops"] and t not in war["bribed"][side]]
        bonuses = _troop_bonuses(state, config, family)
        for troop in troops:
            parts.append((f"troop.{troop}", state["players"][family]["troops"][troop][stat]))
            if troop in bonuses:
                attack, defence, label = bonuses[troop]
                bonus = attack if stat == "attack" else defence
                if bonus:
                    parts.append((label, bonus))
        if stat == "defence" and state["players"][family]["troops"] and owns(state, family, "caterina_sforza"):
            parts.append(("tile.caterina_sforza", 2))
    if war["pope"] == side and state["pope"]:
        raw = sum(t[stat] for name, t in state["players"][state["pope"]]["troops"].items()
                  if name not in war["bribed"]["pope"])
        parts.append(("pope", raw))
    if war["extra"][side]:
        parts.append(("battle.modifier", war["extra"][side]))
    return sum(v for _, v in parts), parts


def battle_round(state: Mapping, config: Mapping, war: Mapping, number: int, dice: Mapping[str, int]) -> dict:
    """One round: in round 1 the attacker's attack meets the defender's defence; in the counter-attack
    (round 2) the defender's attack meets the attacker's defence. Each side adds its die."""
    stats = {"attacker": "attack", "defender": "defence"} if number == 1 else \
        {"attacker": "defence", "defender": "attack"}
    result: dict[str, Any] = {"number": number, "dice": dict(dice), "sides": {}}
    for side, stat in stats.items():
        base, parts = strength(state, config, war, side, stat)
        result["sides"][side] = {"stat": stat, "base": base, "parts": parts, "total": base + dice[side]}
    return result


def outcome(rounds: list[dict], counter_attack: bool = True) -> tuple[str, str | None]:
    """("counter" | "over", winning side or None) after the rounds fought so far (FACTS §3.5.8)."""
    first = rounds[0]["sides"]
    if first["attacker"]["total"] > first["defender"]["total"]:
        return "over", "attacker"
    if not counter_attack:
        return "over", "defender" if first["defender"]["total"] > first["attacker"]["total"] else None
    if len(rounds) == 1:
        return "counter", None
    second = rounds[1]["sides"]
    return "over", "defender" if second["defender"]["total"] > second["attacker"]["total"] else None


def status_change(winner_total: int, loser_total: int) -> int:
    """2 when the winner's total is at least twice the loser's, otherwise 1 (FACTS §3.5.9)."""
    return 2 if winner_total >= 2 * loser_total else 1


def _clamped(status: int) -> int:
    return max(STATUS_LOW, min(STATUS_HIGH, status))


# ----------------------------------------------------------------------------------------------
# Checks shared by the reducers

#: The one action of a turn is used (FACTS §3.4).
ACTED = N_("One action per turn: this player has had his. End the turn.")


def _family(state: Mapping, value: Any, field: str = "player") -> str:
    if value not in state["players"]:
        raise InvalidAction(Msg(N_("Choose a player.")), field=field)
    return value


def _count(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidAction(Msg(N_("Enter a whole number from {low} to {high}."), {"low": low, "high": high}),
                            field=field)
    return value


def _city(value: Any, field: str = "city") -> str:
    if value not in CITIES:
        raise InvalidAction(Msg(N_("Choose a city.")), field=field)
    return value


def _spend(state: dict, family: str, currency: str, amount: int, field: str = "player") -> None:
    if state["players"][family][currency] < amount:
        raise InvalidAction(Msg(N_("Not enough gold: {n} needed, {have} held.") if currency == "gold" else
                                N_("Not enough influence: {n} needed, {have} held."),
                                {"n": amount, "have": state["players"][family][currency]}), field=field)
    state["players"][family][currency] -= amount


def _card(state: dict, family: str, field: str = "player") -> None:
    """Play one treachery card from the hand (the app counts cards, it never sees them)."""
    if state["players"][family]["treachery"] < 1:
        raise InvalidAction(Msg(N_("This player holds no treachery card.")), field=field)
    state["players"][family]["treachery"] -= 1


def _once(state: dict, family: str, ability: str) -> None:
    """City-tile abilities usable once per decade (the tile is turned until the decade ends)."""
    if not owns(state, family, ability):
        raise InvalidAction(Msg(N_("This player does not hold that city tile.")), field="player")
    used = f"{family}:{ability}"
    if used in state["used"]:
        raise InvalidAction(Msg(N_("That tile has been used this decade already.")), field="player")
    state["used"].append(used)


# ----------------------------------------------------------------------------------------------
# Turns and the small actions


def _begin(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "play"


def _end_turn(state: dict, args: Mapping, config: Mapping) -> None:
    """End the turn (without an action it is a pass: the player may act again next time round)."""
    state.update(turn=(state["turn"] + 1) % len(config["players"]), acted=False, last_auction=None, last_war=None,
                 turn_cards=[])


def _troop_stats(args: Mapping) -> dict:
    """A troop's values read off its tile: every troop costs gold (no free troop from an untouched form)."""
    cost = args.get("cost")
    if isinstance(cost, bool) or not isinstance(cost, int) or not 1 <= cost <= 99:
        raise InvalidAction(Msg(N_("Enter the troop's price printed on the tile (1 to 99 gold).")), field="cost")
    return {"cost": cost,
            "attack": _count(args.get("attack"), "attack", 0, 9),
            "defence": _count(args.get("defence"), "defence", 0, 9),
            "gold": _count(args.get("gold", 0), "gold", 0, 9),
            "influence": _count(args.get("influence", 0), "influence", 0, 9)}


def _buy_troop(state: dict, args: Mapping, config: Mapping) -> None:
    """Buy a troop for the gold printed on it; only one troop of each type (FACTS §3.4.1)."""
    family = active_family(state, config)
    troop = args.get("troop")
    if troop not in TROOPS:
        raise InvalidAction(Msg(N_("Choose a troop.")), field="troop")
    if troop in state["players"][family]["troops"]:
        raise InvalidAction(Msg(N_("Only one troop of each type per player.")), field="troop")
    stats = _troop_stats(args)
    _spend(state, family, "gold", stats["cost"], "cost")
    state["players"][family]["troops"][troop] = stats
    state["acted"] = True


def _discard_troop(state: dict, args: Mapping, config: Mapping) -> None:
    family = active_family(state, config)
    if args.get("troop") not in state["players"][family]["troops"]:
        raise InvalidAction(Msg(N_("This player has no such troop.")), field="troop")
    del state["players"][family]["troops"][args["troop"]]
    state["acted"] = True


def _draw_card(state: dict, family: str) -> None:
    """A card drawn over the hand limit is discarded at once (FACTS §3.4.2)."""
    held = sum(p["treachery"] for p in state["players"].values())
    if held >= TREACHERY_CARDS:
        raise InvalidAction(Msg(N_("All {n} treachery cards are in the players' hands."), {"n": TREACHERY_CARDS}))
    p = state["players"][family]
    p["treachery"] = min(p["treachery"] + 1, hand_limit(state, family))


def _buy_card(state: dict, args: Mapping, config: Mapping) -> None:
    """A treachery card for 1 gold + 1 influence, drawn at random."""
    family = active_family(state, config)
    p = state["players"][family]
    if p["gold"] < CARD_PRICE[0] or p["influence"] < CARD_PRICE[1]:
        raise InvalidAction(Msg(N_("A treachery card costs 1 gold and 1 influence.")))
    _draw_card(state, family)
    p["gold"] -= CARD_PRICE[0]
    p["influence"] -= CARD_PRICE[1]
    state["acted"] = True


def _play_card(state: dict, args: Mapping, config: Mapping) -> None:
    """Treachery cards the ledger feels: Freeze Bid (played by the bidder on turn on another bidder
    still in, who passes when his turn next comes), Steal Influence (2) and Raid Gold Shipment (3),
    these two by the player on turn and not during an auction (the table names who plays now)."""
    family = _family(state, args.get("player"))
    card = args.get("card")
    if card == "freeze_bid":
        current = state["auction"]
        if not current or auction.finished(current):
            raise InvalidAction(Msg(N_("Freeze Bid is played during an auction.")), field="card")
        auction.freeze(current, family, args.get("target"))
        _card(state, family)
        return
    if card not in ("steal_influence", "raid_gold"):
        raise InvalidAction(Msg(N_("Choose a card.")), field="card")
    if state["auction"]:
        raise InvalidAction(Msg(N_("Not during an auction.")), field="card")
    target = _family(state, args.get("target"), "target")
    if target == family:
        raise InvalidAction(Msg(N_("Choose another player.")), field="target")
    _card(state, family)
    currency, amount = ("influence", STEAL_INFLUENCE) if card == "steal_influence" else ("gold", RAID_GOLD)
    taken = min(amount, state["players"][target][currency])
    state["players"][target][currency] -= taken
    state["players"][family][currency] += taken


def _ability(state: dict, args: Mapping, config: Mapping) -> None:
    """Once-a-decade city tiles: Banking (swap up to 3 gold and influence: at any time, or with the
    option `banking_own_turn` on the owner's turn; never after the decade's last event tile, except
    to pay for it, which the payment does by itself), Lucrezia Borgia (take 2 influence: the player
    on turn, never during an auction), Alfonso of Aragon (a treachery card without using the action:
    the player on turn)."""
    family = _family(state, args.get("player"))
    ability = args.get("ability")
    on_turn = family == active_family(state, config)
    if ability in ("lucrezia_borgia", "alfonso_of_aragon") and not on_turn:
        raise InvalidAction(Msg(N_("Only the player on turn may use this tile.")), field="player")
    if ability == "banking":
        if state["events_left"] == 0:
            raise InvalidAction(Msg(N_("Banking is not used after the decade's last event tile (paying for that "
                                       "tile uses it by itself).")), field="player")
        if option(config, "banking_own_turn") and not on_turn:
            raise InvalidAction(Msg(N_("By the rule option chosen for this game, Banking is used on your own turn "
                                       "or when paying for a tile you won.")), field="player")
        amount = args.get("amount")
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < abs(amount) <= BANKING:
            raise InvalidAction(Msg(N_("Banking swaps 1 to 3 at a time: enter 1 to 3 (gold to influence) or −1 to −3 "
                                       "(influence to gold).")), field="amount")
        give, get = ("gold", "influence") if amount > 0 else ("influence", "gold")
        if state["players"][family][give] < abs(amount):
            raise InvalidAction(Msg(N_("Not enough to swap.")), field="amount")
        _once(state, family, ability)
        state["players"][family][give] -= abs(amount)
        state["players"][family][get] += abs(amount)
        _leader_can_pay(state, config, "amount")
    elif ability == "lucrezia_borgia":
        if state["auction"]:
            raise InvalidAction(Msg(N_("Not during an auction.")), field="player")
        target = _family(state, args.get("target"), "target")
        if target == family:
            raise InvalidAction(Msg(N_("Choose another player.")), field="target")
        _once(state, family, ability)
        taken = min(LUCREZIA, state["players"][target]["influence"])
        state["players"][target]["influence"] -= taken
        state["players"][family]["influence"] += taken
    elif ability == "alfonso_of_aragon":
        _once(state, family, ability)
        _draw_card(state, family)
    else:
        raise InvalidAction(Msg(N_("Choose a city tile.")), field="ability")


def _transfer(state: dict, args: Mapping, config: Mapping) -> None:
    """A deal between players: gold or influence (VP counters too with the option `trade_vp`)."""
    giver = _family(state, args.get("giver"), "giver")
    taker = _family(state, args.get("taker"), "taker")
    if giver == taker:
        raise InvalidAction(Msg(N_("Choose another player.")), field="taker")
    allowed = ("gold", "influence", "vp") if option(config, "trade_vp") else ("gold", "influence")
    currency = args.get("currency")
    if currency not in allowed:
        raise InvalidAction(Msg(N_("Only gold and influence may change hands.")), field="currency")
    amount = _count(args.get("amount"), "deal_amount", 1, LEDGER_MAX)
    if state["players"][giver][currency] < amount:
        raise InvalidAction(Msg(N_("The giver holds only {n}."), {"n": state["players"][giver][currency]}),
                            field="deal_amount")
    state["players"][giver][currency] -= amount
    state["players"][taker][currency] += amount
    _leader_can_pay(state, config, "deal_amount")


def _adjust(state: dict, args: Mapping, config: Mapping) -> None:
    """A ledger correction with a reason (a miscount at the table; never during an auction, see `moves`)."""
    family = _family(state, args.get("player"))
    what = args.get("what")
    if what not in ("gold", "influence", "vp", "treachery"):
        raise InvalidAction(Msg(N_("Choose what to correct.")), field="what")
    delta = args.get("delta")
    if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0 or abs(delta) > LEDGER_MAX:
        raise InvalidAction(Msg(N_("Enter a whole number other than 0.")), field="delta")
    reason = args.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidAction(Msg(N_("Say why the ledger is corrected.")), field="reason")
    value = state["players"][family][what] + delta
    high = {"treachery": hand_limit(state, family),
            "vp": vp_counter_limit(len(config["players"])) - sum(
                p["vp"] for f, p in state["players"].items() if f != family)}.get(what, LEDGER_MAX)
    if not 0 <= value <= high:
        if what == "vp":
            raise InvalidAction(Msg(N_("A game hands out one VP counter per war won, at most {n} in all: this "
                                       "player can have from 0 to {high}."),
                                    {"n": vp_counter_limit(len(config["players"])), "high": high}), field="delta")
        raise InvalidAction(Msg(N_("The result must be from 0 to {n}."), {"n": high}), field="delta")
    state["players"][family][what] = value
    state["corrections"].append({"track": family, "what": what, "points": delta, "reason": reason.strip()[:200]})


# ----------------------------------------------------------------------------------------------
# Auctions: city tiles, the Pope, event tiles (FACTS §3.4.3–5; TV-P1, TV-P2)


def _city_lot(state: Mapping, args: Mapping) -> dict:
    city = _city(args.get("city"))
    kind = args.get("tile")
    if kind not in TILE_KINDS:
        raise InvalidAction(Msg(N_("Which city tile is it?")), field="tile")
    if KNOWN_TILE_CITY.get(kind, city) != city:
        raise InvalidAction(Msg(N_("That tile belongs to {city}."), {"city": city_name(KNOWN_TILE_CITY[kind])}),
                            field="tile")
    owned = [t for p in state["players"].values() for t in p["tiles"]]
    if sum(t["city"] == city for t in owned) >= TILES_PER_CITY:
        raise InvalidAction(Msg(N_("All {n} tiles of this city are taken."), {"n": TILES_PER_CITY}), field="city")
    if kind in ABILITY_TILES and any(t["kind"] == kind for t in owned):
        raise InvalidAction(Msg(N_("That tile exists once and is taken.")), field="tile")
    if kind == "merchant" and sum(t["kind"] == "merchant" for t in owned) >= MERCHANT_TILES:
        raise InvalidAction(Msg(N_("Both Merchant city tiles are taken.")), field="tile")
    return {"kind": "city", "city": city, "tile": kind, "gold": _count(args.get("gold", 0), "gold", 0, 9),
            "influence": _count(args.get("influence", 0), "influence", 0, 9)}


def _event_lot(state: Mapping, args: Mapping) -> tuple[dict, str]:
    event = args.get("event")
    if event not in EVENTS:
        raise InvalidAction(Msg(N_("Which event tile is it?")), field="event")
    if event in state["events_done"]:
        raise InvalidAction(Msg(N_("That event tile has been auctioned already.")), field="event")
    currency = args.get("currency")
    if currency not in ("gold", "influence"):
        raise InvalidAction(Msg(N_("Is it paid in gold (circle) or influence (square)?")), field="currency")
    if KNOWN_EVENT_CURRENCY.get(event, currency) != currency:
        raise InvalidAction(Msg(N_("This tile is paid in influence.")), field="currency")
    vp = _count(args.get("vp", 0), "vp", 0, EVENT_VP_MAX)
    return {"kind": "event", "event": event, "vp": vp}, currency


def _open_auction(state: dict, args: Mapping, config: Mapping) -> None:
    """The player on turn auctions a city tile, the Pope or an event of this decade and makes the
    first bid or passes (no `amount`: the Czech rules let the opener pass); the others bid clockwise.
    Players who may not take the lot are skipped."""
    opener = active_family(state, config)
    what = args.get("lot")
    skipped = []
    order = seat_order(config, opener)
    if what == "city":
        lot = _city_lot(state, args)
        currency, minimum = "gold", CITY_MINIMUM * state["cities"][lot["city"]]["status"]
        if not may_take_city_tile(state, opener, lot["city"]):
            raise InvalidAction(Msg(N_("At most 6 city tiles from at most 3 cities: this player may not take "
                                       "this one.")), field="city")
        skipped = [{"player": f, "reason": "city_limit"} for f in order if not may_take_city_tile(state, f, lot["city"])]
    elif what == "pope":
        if state["pope"]:
            raise InvalidAction(Msg(N_("The Pope is taken for this decade.")), field="lot")
        lot, currency, minimum = {"kind": "pope"}, "influence", 0
    elif what == "event":
        if state["events_left"] == 0:
            raise InvalidAction(Msg(N_("Every event tile of this decade is gone.")), field="lot")
        lot, currency = _event_lot(state, args)
        minimum = 0
    else:
        raise InvalidAction(Msg(N_("Choose what to auction.")), field="lot")
    lot["cardinal"] = {}
    bidders = [f for f in order if f not in {s["player"] for s in skipped}]
    state["auction"] = auction.start(lot, currency, minimum, bidders, skipped=skipped)
    state["acted"] = True
    if args.get("amount") is None:
        if not option(config, "opener_may_pass"):
            raise InvalidAction(Msg(N_("By the English rules chosen for this game, whoever opens the auction makes "
                                       "the first bid.")), field="amount")
        _pass_bid(state, {"player": opener}, config)
    else:
        _bid(state, dict(args, player=opener), config)


def _bid(state: dict, args: Mapping, config: Mapping) -> None:
    """The bidder on turn raises; refused above what he can pay (discounts and declared Bribe
    Cardinal cards counted)."""
    current = auction.running(state["auction"])
    family = _family(state, args.get("player"))
    cardinal = 0
    if current["lot"]["kind"] == "pope":
        cardinal = _count(args.get("cardinal", 0), "cardinal", 0, 2)
        held = state["players"][family]["treachery"]
        if cardinal > held:
            raise InvalidAction(P_("Each Bribe Cardinal is one of the treachery cards in hand, and this player "
                                   "holds only {n}.",
                                   "Each Bribe Cardinal is one of the treachery cards in hand, and this player "
                                   "holds only {n}.", held), field="cardinal")
    limit = bid_limit(state, config, family, current["lot"], current["currency"], cardinal)
    auction.bid(current, family, args.get("amount"), limit)
    current["lot"]["cardinal"][family] = cardinal
    _after_bid(state, config)


def _pass_bid(state: dict, args: Mapping, config: Mapping) -> None:
    current = auction.running(state["auction"])
    auction.pass_(current, _family(state, args.get("player")))
    _after_bid(state, config)


def _after_bid(state: dict, config: Mapping) -> None:
    current = state["auction"]
    if auction.finished(current):
        state["auction"] = None
        _settle_auction(state, config, current)


def _settle_auction(state: dict, config: Mapping, done: dict) -> None:
    """The last bidder pays (less his discounts) and takes the lot; an event tile may need a city."""
    lot, winner, currency = done["lot"], auction.winner(done), done["currency"]
    paid = swapped = 0
    if winner:
        cardinal = lot["cardinal"].get(winner, 0)
        paid = price(state, winner, lot, done["high"], cardinal)
        ledger = state["players"][winner]
        swapped = max(0, paid - ledger[currency])
        if ledger["treachery"] < cardinal or swapped > banking_room(state, config, winner, lot, currency):
            raise InvalidAction(_cannot_pay(config, winner, currency, paid))
        if swapped:
            ledger["influence" if currency == "gold" else "gold"] -= swapped
            ledger[currency] += swapped
            state["used"].append(f"{winner}:banking")
        ledger[currency] -= paid
        ledger["treachery"] -= cardinal
    state["last_auction"] = {"lot": lot, "winner": winner, "bid": done["high"], "paid": paid, "banking": swapped,
                             "currency": currency, "log": done["log"], "skipped": done["skipped"]}
    kind = lot["kind"]
    if kind == "condottiere":
        _hired(state, config, lot["side"], winner)
        return
    if kind == "city" and winner:
        state["players"][winner]["tiles"].append({k: lot[k] for k in ("city", "gold", "influence")} |
                                                 {"kind": lot["tile"]})
    elif kind == "pope":
        state["pope"] = winner
    elif kind == "event":
        event = lot["event"]
        state["events_done"].append(event)
        state["events_left"] -= 1
        state["last_opener"] = done["bidders"][0]
        if winner and (event in STATUS_ARTISTS or event == "french_invasion"):
            state["pending"] = {"event": event, "player": winner, "vp": lot["vp"]}
        elif winner:  # without a winner (nobody bid) the tile is gone unsold
            state["players"][winner]["events"].append({"event": event, "vp": lot["vp"]})
            if event == "merchant":
                state["merchant_event"] = winner
        _decade_over(state)


def _cannot_pay(config: Mapping, family: str, currency: str, amount: int) -> Msg:
    name = next(p["name"] for p in config["players"] if p["colour"] == family)
    if currency == "gold":
        return P_("{name} cannot pay {n} gold any more: undo or correct the ledger first.",
                  "{name} cannot pay {n} gold any more: undo or correct the ledger first.", amount, name=name)
    return P_("{name} cannot pay {n} influence any more: undo or correct the ledger first.",
              "{name} cannot pay {n} influence any more: undo or correct the ledger first.", amount, name=name)


def _leader_can_pay(state: Mapping, config: Mapping, field: str) -> None:
    """Refuse a change of the ledgers (a deal, Banking, a correction) that would leave the leader of the
    auction under way unable to pay his bid."""
    current = state["auction"]
    if not current or current["leader"] is None:
        return
    leader, lot = current["leader"], current["lot"]
    cardinal = lot["cardinal"].get(leader, 0)
    if (state["players"][leader]["treachery"] < cardinal
            or bid_limit(state, config, leader, lot, current["currency"], cardinal) < current["high"]):
        name = next(p["name"] for p in config["players"] if p["colour"] == leader)
        raise InvalidAction(Msg(N_("{name} leads the auction with a bid of {n} and could not pay it after this: "
                                   "finish the auction first."), {"name": name, "n": current["high"]}), field=field)


def _place(state: dict, args: Mapping, config: Mapping) -> None:
    """A "+1 status" artist goes to a major city at once (status +1); the French Invasion takes 2
    status from a city, or is discarded (city None); it is removed either way."""
    pending = state["pending"]
    city = args.get("city")
    if pending["event"] == "french_invasion":
        if city is not None:
            _city(city)
            state["cities"][city]["status"] = _clamped(state["cities"][city]["status"] - FRENCH_INVASION)
    else:
        _city(city)
        state["cities"][city]["status"] = _clamped(state["cities"][city]["status"] + 1)
        state["cities"][city]["artists"] += 1
        state["players"][pending["player"]]["events"].append({"event": pending["event"], "vp": pending["vp"],
                                                             "city": city})
    state["pending"] = None
    _decade_over(state)


def _decade_over(state: dict) -> None:
    """The decade ends as soon as its last event tile is auctioned (and placed)."""
    if state["events_left"] == 0 and not state["pending"]:
        state["phase"] = "decade_end"


# ----------------------------------------------------------------------------------------------
# War (FACTS §3.5; TV-P3, TV-P4)


def _declare_war(state: dict, args: Mapping, config: Mapping) -> None:
    """Attacker and defender among the five cities; the war track goes up (not with a Start War card,
    played at the end of the turn)."""
    card = args.get("card", False)
    if not isinstance(card, bool):
        raise InvalidAction(Msg(N_("This action is not understood.")))
    starter = active_family(state, config)
    if card:
        if "start_war" in state["turn_cards"]:
            raise InvalidAction(Msg(N_("The Start War card has been played this turn already.")), field="card")
        _card(state, starter, "card")
        state["turn_cards"].append("start_war")
    else:
        if state["acted"]:
            raise InvalidAction(Msg(ACTED), field="card")
        if state["wars"] >= war_limit(len(config["players"])):
            raise InvalidAction(Msg(N_("No more wars this decade: the war track is full ({n})."),
                                    {"n": war_limit(len(config["players"]))}), field="attacker")
    attacker, defender = _city(args.get("attacker"), "attacker"), _city(args.get("defender"), "defender")
    if attacker == defender:
        raise InvalidAction(Msg(N_("A city cannot fight itself.")), field="defender")
    if not card:
        state["wars"] += 1
    state["acted"] = True
    state["war"] = {"attacker": attacker, "defender": defender, "starter": starter, "card": card, "stage": "veto",
                    "condottieri": {"attacker": None, "defender": None}, "pay": {"attacker": 0, "defender": 0},
                    "bribed": {"attacker": [], "defender": [], "pope": []}, "pope": None,
                    "extra": {"attacker": 0, "defender": 0},
                    "rounds": []}


def veto_possible(state: Mapping) -> bool:
    """Whether anyone could veto a war now: a treachery card in a hand (it may be the Veto; the hands
    are hidden) while no Veto has been played this turn, or an unused Lorenzo Medici."""
    cards = "veto" not in state["turn_cards"] and any(p["treachery"] for p in state["players"].values())
    return cards or _lorenzo(state)


def _veto(state: dict, args: Mapping, config: Mapping) -> None:
    """Veto card or Lorenzo Medici: the war does not happen; it still counts on the track."""
    war = state["war"]
    family = _family(state, args.get("player"))
    if args.get("how") == "lorenzo_medici":
        _once(state, family, "lorenzo_medici")
    elif args.get("how") == "card":
        if "veto" in state["turn_cards"]:
            raise InvalidAction(Msg(N_("The Veto card has been played this turn already.")), field="how")
        _card(state, family)
        state["turn_cards"].append("veto")
    else:
        raise InvalidAction(Msg(N_("Veto card or Lorenzo Medici?")), field="how")
    _end_war(state, dict(war, vetoed=family))


def _condottiere_auction(state: dict, config: Mapping, side: str) -> None:
    """Influence, minimum 1, clockwise from the player who started the war; only players with a
    troop, and never the attacking city's condottiere for the defending city."""
    war = state["war"]
    war["stage"] = side
    skipped = []
    for family in seat_order(config, war["starter"]):
        if not state["players"][family]["troops"]:
            skipped.append({"player": family, "reason": "no_troops"})
        elif family == war["condottieri"]["attacker"]:
            skipped.append({"player": family, "reason": "attacker"})
    bidders = [f for f in seat_order(config, war["starter"]) if f not in {s["player"] for s in skipped}]
    lot = {"kind": "condottiere", "side": side, "city": war[side], "cardinal": {}}
    started = auction.start(lot, "influence", CONDOTTIERE_MINIMUM, bidders, skipped=skipped)
    if auction.finished(started):
        _settle_auction(state, config, started)
    else:
        state["auction"] = started


def _no_veto(state: dict, args: Mapping, config: Mapping) -> None:
    _condottiere_auction(state, config, "attacker")


def _hired(state: dict, config: Mapping, side: str, family: str | None) -> None:
    """A condottiere is hired: his pay (the city's status in gold) waits in his home city."""
    war = state["war"]
    if family:
        war["condottieri"][side] = family
        war["pay"][side] = state["cities"][war[side]]["status"]
        state["players"][family]["pay"] += war["pay"][side]
    if side == "attacker":
        _condottiere_auction(state, config, "defender")
    elif not any(war["condottieri"].values()):
        _end_war(state, war)
    else:
        war["stage"] = "battle"


def _pope_joins(state: dict, args: Mapping, config: Mapping) -> None:
    """Holy League: the Pope's holder adds his troops' raw values to one side, once a decade."""
    war = state["war"]
    side = args.get("side")
    if side not in ("attacker", "defender"):
        raise InvalidAction(Msg(N_("Choose a side.")), field="side")
    war["pope"] = side
    state["pope_joined"] = True


def war_armies(state: Mapping, war: Mapping) -> dict[str, str]:
    """Whose troops fight in the war: the condottiere of each side and the Pope's holder if he joined
    (`{"attacker": family, "defender": family, "pope": family}`, absent ones left out)."""
    armies = {side: family for side, family in war["condottieri"].items() if family}
    if war["pope"] and state["pope"]:
        armies["pope"] = state["pope"]
    return armies


def _bribe(state: dict, args: Mapping, config: Mapping) -> None:
    """Bribe Troops: one troop taking part in this war, any side's and even your own or the Pope's,
    does not fight in it (before the dice; FACTS §3.8)."""
    war = state["war"]
    family = _family(state, args.get("player"))
    armies = war_armies(state, war)
    side, troop = args.get("side"), args.get("troop")
    if side not in armies:
        raise InvalidAction(Msg(N_("Choose a troop that takes part in this war.")), field="side")
    if troop not in state["players"][armies[side]]["troops"] or troop in war["bribed"][side]:
        raise InvalidAction(Msg(N_("Choose a troop that takes part in this war.")), field="troop")
    _card(state, family)
    war["bribed"][side].append(troop)


def _modifier(state: dict, args: Mapping, config: Mapping) -> None:
    """Any other modifier the players know of, per side, before the dice: `{"attacker": n, "defender": n}`."""
    war = state["war"]
    for side in ("attacker", "defender"):
        war["extra"][side] = _count(args.get(side, 0), side, -9, 9)


def _battle(state: dict, args: Mapping, config: Mapping) -> None:
    """One round of dice (entered, or rolled by the app before it sends them). `reroll` names the
    holder of Ludovico Sforza when these dice are the re-roll he asked for: his tile is turned for
    the decade (once a decade; the new roll stands)."""
    war = state["war"]
    dice = args.get("dice")
    if not isinstance(dice, Mapping):
        raise InvalidAction(Msg(N_("Enter both dice.")), field="dice")
    for side in ("attacker", "defender"):
        _count(dice.get(side), f"dice.{side}", 1, DIE)
    number = len(war["rounds"]) + 1
    played = battle_round(state, config, war, number, dice)
    if args.get("reroll") is not None:
        family = _family(state, args["reroll"], "reroll")
        if not owns(state, family, "ludovico_sforza"):
            raise InvalidAction(Msg(N_("This player does not hold Ludovico Sforza.")), field="reroll")
        if f"{family}:ludovico_sforza" in state["used"]:
            raise InvalidAction(Msg(N_("Ludovico Sforza has had the dice re-rolled this decade already.")),
                                field="reroll")
        state["used"].append(f"{family}:ludovico_sforza")
        played["reroll"] = family
    war["rounds"].append(played)
    stage, winner = outcome(war["rounds"], not option(config, "no_counter_attack"))
    if stage == "over":
        _result(state, war, winner)


def _result(state: dict, war: dict, winner: str | None) -> None:
    """Winner's condottiere +1 VP counter; status ±2 when the winner's total is at least twice the
    loser's, otherwise ±1, each city within 3…10 on its own."""
    war["winner"] = winner
    if winner:
        loser = "defender" if winner == "attacker" else "attacker"
        last = war["rounds"][-1]["sides"]
        change = status_change(last[winner]["total"], last[loser]["total"])
        war["change"] = change
        for side, sign in ((winner, 1), (loser, -1)):
            city = state["cities"][war[side]]
            city["status"] = _clamped(city["status"] + sign * change)
        if war["condottieri"][winner]:
            state["players"][war["condottieri"][winner]]["vp"] += 1
    _end_war(state, war)


def _end_war(state: dict, war: dict) -> None:
    war.setdefault("winner", None)
    state["last_war"] = war
    state["war"] = None


# ----------------------------------------------------------------------------------------------
# Decade end and final scoring (FACTS §3.3, §3.6, §3.7)


def _book_income(state: dict, args: Mapping, config: Mapping) -> None:
    """Book each player's income (as computed, or as counted at the table), collect the war pay,
    then: the Pope back, the war track to 0, the turned tiles reset, the next decade's events and
    first player. After decade III the final scoring follows."""
    incomes = args.get("incomes")
    if not isinstance(incomes, Mapping) or set(incomes) != set(state["players"]):
        raise InvalidAction(Msg(N_("Enter every player's income.")), field="incomes")
    checked = {}
    for family, entry in incomes.items():
        if not isinstance(entry, Mapping):
            raise InvalidAction(Msg(N_("Enter every player's income.")), field=f"incomes.{family}")
        checked[family] = {c: _count(entry.get(c), f"incomes.{family}.{c}", 0, LEDGER_MAX)
                           for c in ("gold", "influence")}
    for family, got in checked.items():
        p = state["players"][family]
        p["gold"] += got["gold"]
        p["influence"] += got["influence"]
        p["pay"] = 0
    state["incomes"].append({"decade": state["decade"], "incomes": checked})
    if state["decade"] == DECADES:
        state["phase"] = "final"
        return
    n = len(config["players"])
    if option(config, "first_left") or state["last_opener"] is None:
        first = (state["first"] + 1) % n
    else:
        families = [p["colour"] for p in config["players"]]
        first = (families.index(state["last_opener"]) + 1) % n
    state.update(phase="play", decade=state["decade"] + 1, first=first, turn=first, acted=False, pope=None,
                 wars=0, used=[], turn_cards=[], pope_joined=False, events_left=EVENTS_PER_DECADE, last_war=None,
                 last_auction=None)


def _finish(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "over"


REDUCERS = {
    "begin": _begin, "end_turn": _end_turn, "buy_troop": _buy_troop, "discard_troop": _discard_troop,
    "buy_card": _buy_card, "play_card": _play_card, "ability": _ability, "transfer": _transfer, "adjust": _adjust,
    "open_auction": _open_auction, "bid": _bid, "pass_bid": _pass_bid, "place": _place,
    "declare_war": _declare_war, "veto": _veto, "no_veto": _no_veto, "pope_joins": _pope_joins, "bribe": _bribe,
    "modifier": _modifier, "battle": _battle, "book_income": _book_income, "finish": _finish,
}


def scoring_input(state: Mapping, config: Mapping) -> tuple[dict, list[dict]]:
    """The final-scoring entries from the ledgers (the same shape `companion score` checks)."""
    players = []
    for p in config["players"]:
        ledger = state["players"][p["colour"]]
        tiles = {c: sum(t["city"] == c for t in ledger["tiles"]) for c in CITIES}
        players.append({"id": p["colour"], "name": p["name"], "gold": ledger["gold"],
                        "influence": ledger["influence"], "pope": state["pope"] == p["colour"],
                        "events_vp": [e["vp"] for e in ledger["events"]], "vp_counters": ledger["vp"],
                        "city_tiles": {c: n for c, n in tiles.items() if n},
                        "merchant_tiles": sum(t["kind"] == "merchant" for t in ledger["tiles"]),
                        "merchant_event": state["merchant_event"] == p["colour"]})
    return state["cities"], players


def result(state: Mapping, config: Mapping) -> dict:
    """The final scoring of the session: the same `final_scores` as `companion score`."""
    return final_scores(*scoring_input(state, config), option(config, "tied_gold_no_second"))


def describe(action: Mapping, config: Mapping) -> Msg:
    """What an action did, for the game log and the undo button."""
    kind, args = action.get("type"), action.get("args", {})
    names = {p["colour"]: p["name"] for p in config["players"]}
    who = names.get(args.get("player"), "")
    simple = {"begin": N_("Setup finished, decade I begins"), "end_turn": N_("Turn ended"),
              "buy_card": N_("A treachery card bought"), "no_veto": N_("No veto: the condottieri are auctioned"),
              "finish": N_("Final scoring done"), "tick": N_("Setup: ticked an item"),
              "book_income": N_("Income booked, the decade ends")}
    if kind == "buy_troop":
        return Msg(N_("Troop bought: {troop}"), {"troop": text(f"troop.{args.get('troop')}")})
    if kind == "discard_troop":
        return Msg(N_("Troop discarded: {troop}"), {"troop": text(f"troop.{args.get('troop')}")})
    if kind == "open_auction":
        lot = {"city": text(f"city.{args.get('city')}"), "pope": text("pope"),
               "event": text(f"event.{args.get('event')}")}.get(args.get("lot"), "")
        return Msg(N_("Auction opened: {lot}, first bid {amount}"), {"lot": lot, "amount": args.get("amount")})
    if kind == "bid":
        return Msg(N_("{name} bids {amount}"), {"name": who, "amount": args.get("amount")})
    if kind == "pass_bid":
        return Msg(N_("{name} passes"), {"name": who})
    if kind == "place":
        return (Msg(N_("Event placed at {city}"), {"city": city_name(args["city"])}) if args.get("city") in CITIES
                else Msg(N_("Event discarded")))
    if kind == "declare_war":
        return Msg(N_("War: {attacker} attacks {defender}"),
                   {"attacker": text(f"city.{args.get('attacker')}"), "defender": text(f"city.{args.get('defender')}")})
    if kind == "veto":
        return Msg(N_("{name} vetoes the war"), {"name": who})
    if kind == "pope_joins":
        return Msg(N_("The Pope joins the war"))
    if kind == "bribe":
        return Msg(N_("{name} bribes: {troop}"), {"name": who, "troop": text(f"troop.{args.get('troop')}")})
    if kind == "modifier":
        return Msg(N_("Battle modifier set"))
    if kind == "battle":
        dice = args.get("dice") or {}
        return Msg(N_("Dice: {a} and {d}"), {"a": dice.get("attacker"), "d": dice.get("defender")})
    if kind == "play_card":
        return Msg(N_("{name} plays {card}"), {"name": who, "card": text(f"card.{args.get('card')}")})
    if kind == "ability":
        return Msg(N_("{name} uses {tile}"), {"name": who, "tile": text(f"tile.{args.get('ability')}")})
    if kind == "transfer":
        return Msg(N_("{giver} gives {taker} {amount} {currency}"),
                   {"giver": names.get(args.get("giver"), ""), "taker": names.get(args.get("taker"), ""),
                    "amount": args.get("amount"), "currency": text(f"currency.{args.get('currency')}")})
    if kind == "adjust":
        return Msg(N_("Ledger correction for {name}: {what} {delta:+d} ({reason})"),
                   {"name": who, "what": text(f"currency.{args.get('what')}"), "delta": args.get("delta", 0),
                    "reason": args.get("reason", "")})
    return Msg(simple.get(str(kind), N_("Unknown action")))



def guide(state: Mapping, config: Mapping) -> Guide:
    """The pinned header: the decade with its event tiles and wars, who acts now (the bidder in an
    auction, the winner of an event tile deciding, else the player on turn) and every family's gold
    and influence."""
    figures = {p["colour"]: Msg(N_("{gold} g · {influence} inf."), {
        "gold": state["players"][p["colour"]]["gold"], "influence": state["players"][p["colour"]]["influence"]})
        for p in config["players"]}
    phase = state["phase"]
    roman = {1: "I", 2: "II", 3: "III"}[state["decade"]]
    if phase == "decade_end":
        return Guide(Msg(N_("End of decade {decade}: income"), {"decade": roman}), figures=figures,
                     screen=f"decade_end:{state['decade']}")
    if phase in ("final", "over"):
        return Guide(Msg(N_("Final scoring")), figures=figures, screen=phase)
    where = Msg(N_("Decade {decade} · event tiles left {events} of {all} · wars {wars} of {limit}"),
                {"decade": roman, "events": state["events_left"], "all": EVENTS_PER_DECADE, "wars": state["wars"],
                 "limit": war_limit(len(config["players"]))})
    if state["pending"]:
        return Guide(where, state["pending"]["player"], Msg(N_("Decides:")), figures, "pending")
    if state["auction"] and not auction.finished(state["auction"]):
        return Guide(where, state["auction"]["next"], Msg(N_("Bids:")), figures,
                     "war-auction" if state["war"] else "auction")
    if state["war"]:
        actor, role = war_actor(state, state["war"])
        return Guide(where, actor, role, figures, "war")
    return Guide(where, active_family(state, config), Msg(N_("On turn:")), figures, f"turn:{state['decade']}")


# ----------------------------------------------------------------------------------------------
# The table of allowed actions (issue 22): who acts now and what each action waits for


def war_actor(state: Mapping, war: Mapping) -> tuple[str, Msg]:
    """Whose decision a war waits for, with his role: before the condottiere auctions the player who
    started it (anyone may still veto); in the battle the attacking city's condottiere (his attack),
    in the counter-attack the defending city's (his attack against the attacker's defence); a side
    without condottiere is fought by the other side's."""
    if war["stage"] == "veto":
        return war["starter"], Msg(N_("Started the war:"))
    counter = len(war["rounds"]) == 1
    first, second = ("defender", "attacker") if counter else ("attacker", "defender")
    if war["condottieri"][first]:
        return war["condottieri"][first], Msg(N_("Counter-attacks:") if counter else N_("Attacks:"))
    return war["condottieri"][second], Msg(N_("Defends:"))


def moves(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """What may be done now and by whom: the setup, then a decade's turns (one action each, cards and
    tile abilities besides), an auction (the bidder on turn), an event tile waiting for its city (its
    winner), a war (the veto, the condottiere auctions, the battle), the income, the final scoring."""
    phase = state["phase"]
    names = [kind for kind in REDUCERS if kind != "adjust"]
    if phase != "play":
        reason = {"setup": refused(N_("The decades have not begun: finish the setup first.")),
                  "decade_end": refused(N_("The decade is over: book the income first.")),
                  "final": refused(N_("The decades are over: only the final scoring is left.")),
                  "over": refused(N_("The game is over."))}[phase]
        table = dict.fromkeys(names, reason)
        if phase == "setup":
            table["begin"] = ALLOWED
        elif phase == "decade_end":
            table["book_income"] = ALLOWED
        elif phase == "final":
            table["finish"] = ALLOWED
        table["adjust"] = reason if phase in ("setup", "over") else ALLOWED
        return table
    on_turn = frozenset({active_family(state, config)})
    war, current, pending = state["war"], state["auction"], state["pending"]
    table = dict.fromkeys(names, refused(N_("That is not possible at this point of the game.")))
    table["begin"] = refused(N_("The setup is done already."))
    table["book_income"] = refused(N_("The decade is not over: its last event tile is still to be auctioned."))
    table["finish"] = refused(N_("The final scoring comes after the income of decade III."))
    table["transfer"] = table["ability"] = ALLOWED
    table["adjust"] = (refused(N_("An auction is under way: correct the ledgers after it.")) if current
                       else ALLOWED)
    if pending:
        busy = refused(N_("{name} places the event tile first."), name=by_name(config, {pending["player"]}))
    elif current:
        busy = refused(N_("An auction is under way: finish it first."))
    elif war:
        busy = refused(N_("A war is under way: finish it first."))
    else:
        busy = None
    table["end_turn"] = busy or Rule(by=on_turn)
    turn_action = busy or (refused(ACTED) if state["acted"] else Rule(by=on_turn))
    for kind in ("buy_troop", "buy_card", "open_auction"):
        table[kind] = turn_action
    table["discard_troop"] = turn_action if turn_action.refusal or state["players"][min(on_turn)]["troops"] \
        else refused(N_("This player has no troop to discard."))
    table["declare_war"] = busy or _war_rule(state, config, on_turn)
    table["play_card"] = (Rule(by=frozenset({current["next"]})) if current
                          else Rule(by=on_turn))
    if current:
        bidder = Rule(by=frozenset({current["next"]}))
        table["bid"] = bidder
        table["pass_bid"] = (refused(N_("Whoever opens the auction makes the first bid."))
                             if current["opener_must_bid"] and not current["log"] else bidder)
    else:
        table["bid"] = table["pass_bid"] = refused(N_("No auction is under way."))
    table["place"] = (Rule(by=frozenset({pending["player"]})) if pending
                      else refused(N_("No event tile is waiting to be placed.")))
    war_kinds = ("veto", "no_veto", "pope_joins", "bribe", "modifier", "battle")
    if not war:
        table.update(dict.fromkeys(war_kinds, refused(N_("No war is under way."))))
    elif current:
        table.update(dict.fromkeys(war_kinds, refused(N_("The condottieri are being auctioned: finish the auction "
                                                          "first."))))
    else:
        table.update(_war_moves(state, war))
    return table


def _war_rule(state: Mapping, config: Mapping, on_turn: frozenset) -> Rule:
    """A war as the turn's action (while the war track has room), or by the Start War card at the end
    of the turn (once a turn, by the player on turn holding a treachery card)."""
    family = min(on_turn)
    card = state["players"][family]["treachery"] > 0 and "start_war" not in state["turn_cards"]
    limit = war_limit(len(config["players"]))
    if not state["acted"] and (state["wars"] < limit or card):
        return Rule(by=on_turn)
    if state["acted"] and card:
        return Rule(by=on_turn)
    if "start_war" in state["turn_cards"]:
        return refused(N_("One war a turn: the Start War card has been played this turn. End the turn."))
    if state["acted"]:
        return refused(ACTED)
    return Rule(Msg(N_("No more wars this decade: the war track is full ({n})."), {"n": limit}), field="attacker")


def _war_moves(state: Mapping, war: Mapping) -> dict[str, Rule]:
    """A war's steps: the veto, then (after the condottiere auctions) the Pope, bribes and modifiers
    before the dice, the dice."""
    table: dict[str, Rule] = {}
    actor, _ = war_actor(state, war)
    if war["stage"] == "veto":
        table["veto"] = (refused(N_("Nobody can veto: the Veto card has been played this turn and no Lorenzo "
                                    "Medici is left unused."))
                         if "veto" in state["turn_cards"] and not _lorenzo(state) else ALLOWED)
        table["no_veto"] = Rule(by=frozenset({actor}))
        later = refused(N_("First the veto, then the condottiere auctions."))
        table.update(pope_joins=later, bribe=later, modifier=later, battle=later)
        return table
    veto_over = refused(N_("The veto comes before the condottiere auctions."))
    table.update(veto=veto_over, no_veto=veto_over)
    table["battle"] = Rule(by=frozenset({actor}))
    if war["rounds"]:
        dice = refused(N_("The dice are rolled: bribes, the Pope and modifiers come before them."))
        table.update(pope_joins=dice, bribe=dice, modifier=dice)
        return table
    table["modifier"] = ALLOWED
    armies = war_armies(state, war)
    table["bribe"] = Rule(by=frozenset(armies.values()))
    pope = state["pope"]
    if not pope:
        table["pope_joins"] = refused(N_("Nobody holds the Pope."))
    elif state["pope_joined"] or war["pope"]:
        table["pope_joins"] = refused(N_("The Pope joins one war a decade, and he has joined one."))
    elif pope in war["condottieri"].values():
        table["pope_joins"] = refused(N_("The Pope's holder fights in this war already."))
    else:
        table["pope_joins"] = Rule(by=frozenset({pope}))
    return table


def _lorenzo(state: Mapping) -> bool:
    """Whether someone holds an unused Lorenzo Medici (a veto once a decade)."""
    return any(owns(state, f, "lorenzo_medici") and f"{f}:lorenzo_medici" not in state["used"]
               for f in state["players"])



GAME = GameDef(
    id=ID, cli_name=CLI_NAME, min_players=3, max_players=6,
    new_config=new_config, setup_items=setup_items, initial_state=initial_state,
    reducers=REDUCERS, describe=describe, score_cli=score_cli, steps=steps, result=result,
    independent=frozenset({"adjust"}), guide=guide, moves=moves,
    personal=frozenset({"bid", "pass_bid", "veto", "bribe", "play_card", "ability"}),
    order=30
)
