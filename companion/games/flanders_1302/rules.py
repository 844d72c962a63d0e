"""Flanders 1302 (Wolfgang Panning, Queen Games 2004): setup, round guide, bookkeeping, scoring.

Encodes the rulebook as summarised in ../shared/rules/FACTS.md §1 (Czech seed 000):
- the player counts: the standard game for 3 or 4 players, 2 players only in the two-player variant
  (rulebook "Pravidla pro 2 hráče"; FACTS §1.1, §1.9): `new_config`, `score_cli`;
- components and setup per player count (rulebook "Komponenty a příprava hry"; FACTS §1.2, §1.3): `setup_items`;
- the round of six steps (rulebook "1.–6."; FACTS §1.4): `STEPS`;
- turn order in step 3 (rulebook "3. Odkrytí karet"; FACTS §1.4, TV-F1): `turn_order`;
- city scoring in step 6 (rulebook "6. Přidělení bodů", "Remíza"; FACTS §1.7, TV-F2, TV-F3): `score_city`;
- end of game and the influence-card bonus (rulebook "Konec hry"; FACTS §1.8, TV-F4): `end_question`,
  `final_scores`;
- the two-player variant (rulebook "Pravidla pro 2 hráče"; FACTS §1.9): option `two-player`.

Decisions where the sources are silent (FACTS marks them UNKNOWN or inferred):
- the winner's tie-break is not in the rulebook: tied players share the place;
- the +3 influence bonus needs at least one influence card in hand (nobody "has the most" of none);
- kept gold influence cards count as influence cards in hand (FACTS §1.8, inferred);
- with 3 players the empty city's building spaces do not count for the end condition "at most one
  empty building space": nothing can be built there (`end_question` asks with that text);
- with 3 players the city left empty is never scored, so `companion score` takes at most 5 cities
  (6 with 4 players or the variant); which city it is, the input does not say;
- the gold deck's composition is unknown, so influence cards in hand are bounded only by the box
  (3 silver cards per player, and all hands together hold at most the 28 gold cards); guild masters
  per guild in a city by 2 printed per quarter + 4 tiles;
- in the two-player variant the influenced guilds are chosen by the players, one each;
- step 4 follows the turn order of step 3: each player's action is marked done in that order (by the
  player on turn), so the header names who acts; steps 2, 3 and 6 are everyone's, steps 1 and 5 the
  start player's (`moves`, `guide`);
- a city is scored with at least one completed quarter entered (every city in play has a city centre);
  a city holding only a neutral centre cannot be entered (the rulebook does not say whom it counts for).
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from ...engine import inputs
from ...engine.flow import score_track
from ...engine.model import ALLOWED, GameDef, Guide, InvalidAction, Msg, N_, P_, Ref, Rule, Step, refused
from ...engine.seats import check_seats
from ...engine.ranking import places_without_tie_break, points_lowest_of_tied, positions, tied_groups

ID = "flanders_1302"
COLOURS = ("blue", "yellow", "green", "red")
GREY = "grey"
GUILDS = COLOURS + (GREY,)
CITIES = ("bruges", "ghent", "ypres", "leuven", "utrecht", "liege")
STANDARD, TWO_PLAYER = "standard", "two-player"

#: What the box contains (FACTS §1.2).
GUILD_QUARTERS = 16          # per player guild, city centre included
GREY_QUARTERS = 15
CHURCH_QUARTERS = 13
CATHEDRALS = 4
MASTER_TILES = 4
PRINTED_MASTERS_PER_QUARTER = 2
SILVER_INFLUENCE = 3
GOLD_CARDS = 28
INFLUENCE_BONUS = 3

#: Points for the places 3, 4 and 5 of a city scoring; places 1 and 2 depend on the value.
LOW_PLACES = (4, 2, 0)

#: Steps 1–3 of the standard round: nothing is entered for the gold card (1) nor for the cards chosen
#: in secret (2), so the cards revealed in step 3 may be entered on any of them; entering them ends
#: the three steps and step 4 begins.
BEFORE_ACTIONS = ("gold_card", "choose", "reveal")

STEPS = {
    STANDARD: (Step("gold_card"), Step("choose"), Step("reveal", helper="turn_order"),
               Step("actions"), Step("start_gold", helper="gold_influence"),
               Step("scoring", helper="city_scoring")),
    TWO_PLAYER: (Step("own"), Step("influenced"), Step("scoring", helper="city_scoring")),
}


def text(key: str) -> Ref:
    """A reference to this game's rule text (`data/flanders_1302.toml`)."""
    return Ref(f"{ID}.{key}")


def guild_name(guild: str) -> Ref:
    return text(f"guild.{guild}")


def city_name(city: str) -> Ref:
    return text(f"city.{city}")


# ----------------------------------------------------------------------------------------------
# New game


def new_config(raw: Mapping) -> dict:
    """Check the new-game form: players in seat order (clockwise), variant, start player, and
    the empty city (3 players) or the influenced guilds (two-player variant)."""
    variant = raw.get("variant", STANDARD)
    if variant not in STEPS:
        raise InvalidAction(Msg(N_("Choose the standard game or the two-player variant.")), field="variant")
    low, high = (2, 2) if variant == TWO_PLAYER else (2, 4)
    clean, start = check_seats(raw, COLOURS, low, high)
    if variant == STANDARD and len(clean) == 2:
        raise InvalidAction(Msg(N_("The standard game is for 3 or 4 players; with 2 players choose the two-player "
                                   "variant.")), field="players")
    seen = {p["colour"] for p in clean}
    config: dict[str, Any] = {"game": ID, "variant": variant, "players": clean, "start": start}
    if variant == STANDARD and len(clean) == 3:
        empty = raw.get("empty_city")
        if empty not in CITIES:
            raise InvalidAction(Msg(N_("With three players one city stays empty: choose which.")),
                                field="empty_city")
        config["empty_city"] = empty
    if variant == TWO_PLAYER:
        free = [c for c in COLOURS if c not in seen]
        influenced: dict[str, Any] = {}
        for i, player in enumerate(clean):
            chosen = (raw.get("influenced") or {}).get(player["colour"])
            if chosen not in free:
                raise InvalidAction(Msg(N_("Choose one of the two unplayed guilds as the influenced guild.")),
                                    field=f"influenced.{i}")
            if chosen in influenced.values():
                raise InvalidAction(Msg(N_("The two players influence different guilds.")),
                                    field=f"influenced.{i}")
            influenced[player["colour"]] = chosen
        config["influenced"] = influenced
    return config


def cities_in_play(config: Mapping) -> list[str]:
    return [c for c in CITIES if c != config.get("empty_city")]


def end_question(config: Mapping) -> str:
    """The text key of the end-of-round question about the board: with 3 players it says that the
    empty city's spaces do not count (the app's reading; FACTS §1.3, §1.8)."""
    if config["variant"] == TWO_PLAYER:
        return "end.two_board"
    return "end.board_three" if len(config["players"]) == 3 else "end.board"


def guilds_in_play(config: Mapping) -> list[str]:
    """Guilds with quarters on the board: the players' (and in the variant the influenced) plus grey."""
    if config["variant"] == TWO_PLAYER:
        return list(GUILDS)
    played = {p["colour"] for p in config["players"]}
    return [g for g in COLOURS if g in played] + [GREY]


def setup_items(config: Mapping) -> list[dict]:
    """The setup checklist for exactly this configuration, each item a text id with its parameters."""
    players = config["players"]
    start = players[config["start"]]["name"]
    items: list[dict[str, Any]]
    if config["variant"] == TWO_PLAYER:
        names = {p["colour"]: p["name"] for p in players}
        items = [
            {"id": "board"},
            {"id": "two_general"},
            {"id": "two_guild_material"},
            {"id": "centres"},
            {"id": "two_influenced", "params": {
                "first": names[players[0]["colour"]], "first_guild": guild_name(config["influenced"][players[0]["colour"]]),
                "second": names[players[1]["colour"]],
                "second_guild": guild_name(config["influenced"][players[1]["colour"]])}},
            {"id": "two_influenced_material"},
            {"id": "two_deck"},
            {"id": "neutral_centres"},
        ]
    else:
        items = [{"id": "board"}, {"id": "gold_decks"}, {"id": "supply"}, {"id": "guild_material"}]
        if len(players) == 3:  # the empty city comes first, so no centre is ever put there
            empty = {"city": city_name(config["empty_city"])}
            items[1:1] = [{"id": "unused_guild"}]
            items += [{"id": "empty_city", "params": empty}, {"id": "centres_three", "params": empty},
                      {"id": "neutral_centres_three", "params": empty}]
        else:
            items += [{"id": "centres"}, {"id": "neutral_centres"}, {"id": "all_cities"}]
    items.append({"id": "start_player", "params": {"name": start}})
    for item in items:
        item.setdefault("params", {})
    return items


def initial_state(config: Mapping) -> dict:
    state: dict[str, Any] = {
        "phase": "setup", "round": 1, "start": config["start"], "step": STEPS[config["variant"]][0].id,
        "scores": {g: 0 for g in guilds_in_play(config)}, "cities": {}, "order": None, "end": None,
    }
    if config["variant"] == STANDARD:
        state["influence"] = {p["colour"]: SILVER_INFLUENCE for p in config["players"]}
        state["gold_influence"] = None
    return state


# ----------------------------------------------------------------------------------------------
# Turn order (step 3)


def turn_order(seats: list[str], start: int, cards: Mapping[str, int]) -> list[str]:
    """Most cards first; ties go to the player sitting closest clockwise to the start player
    (the start player himself counts as closest). `seats` are in clockwise order."""
    n = len(seats)
    distance = {seats[(start + k) % n]: k for k in range(n)}
    return sorted(seats, key=lambda colour: (-cards[colour], distance[colour]))


def explain_order(config: Mapping, start: int, cards: Mapping[str, int]) -> list[Msg]:
    """Why the order is what it is: one line per player, and the seat rule where it decided."""
    seats = [p["colour"] for p in config["players"]]
    names = {p["colour"]: p["name"] for p in config["players"]}
    order = turn_order(seats, start, cards)
    lines = []
    for i, colour in enumerate(order):
        lines.append(P_("{place}. {name}: {n} card", "{place}. {name}: {n} cards", cards[colour],
                        place=i + 1, name=names[colour]))
    for group in tied_groups(order, key=lambda c: cards[c]):
        if len(group) > 1:
            lines.append(Msg(N_("{names} played the same number of cards: whoever sits closer clockwise to the "
                                "start player ({start}) goes first."),
                             {"names": ", ".join(names[c] for c in group), "start": names[seats[start]]}))
    if all(cards[c] == 1 for c in seats):
        lines.append(Msg(N_("Everyone played one card: the start player begins.")))
    return lines


# ----------------------------------------------------------------------------------------------
# City scoring (step 6 and the end of the game)


def city_value(city: Mapping) -> int:
    """Completed guild quarters (centres included) 1 each, church quarters 2, with a cathedral 3."""
    return sum(city["quarters"].values()) + 2 * city["church"] + 3 * city["church_with_cathedral"]


def rank_table(value: int) -> list[int]:
    """Points by place: the value, half the value rounded up, then 4, 2, 0."""
    return [value, (value + 1) // 2, *LOW_PLACES]


def score_city(city: Mapping, names: Mapping[str, str] | None = None) -> dict:
    """Points per guild for one city, with the lines that explain them.

    Guilds rank by completed quarters; a tie is broken by guild masters on completed quarters;
    guilds still tied all take the points of the lowest place they occupy. Guilds with no
    completed quarter do not rank. `names` (guild colour → player name) lets the lines name the
    players rather than their guild colours.
    """
    def label(guild: str) -> str | Ref:
        return (names or {}).get(guild) or guild_name(guild)

    quarters, masters = city["quarters"], city["masters"]
    value = city_value(city)
    present = [g for g in GUILDS if quarters.get(g, 0) > 0]
    groups = tied_groups(present, key=lambda g: (quarters[g], masters.get(g, 0)))
    points = {g: 0 for g in GUILDS}
    counts = {"guild": sum(quarters.values()), "church": city["church"], "cathedral": city["church_with_cathedral"],
              "value": value}
    if counts["cathedral"]:
        worth = N_("City value: guild quarters {guild} × 1 + church quarters {church} × 2 + "
                   "with a cathedral {cathedral} × 3 = {value}")
    elif counts["church"]:
        worth = N_("City value: guild quarters {guild} × 1 + church quarters {church} × 2 = {value}")
    else:
        worth = N_("City value: guild quarters {guild} × 1 = {value}")
    explain = [Msg(worth, counts)]
    by_quarters = {q: [g for g in present if quarters[g] == q] for q in {quarters[g] for g in present}}
    for group, (first, last), award in zip(groups, positions(groups), points_lowest_of_tied(groups, rank_table(value))):
        for guild in group:
            points[guild] = award
            explain.append(P_("{guild}: quarters {quarters}, guild masters {masters}, place {place}: {n} point",
                              "{guild}: quarters {quarters}, guild masters {masters}, place {place}: {n} points",
                              award, guild=label(guild), quarters=quarters[guild],
                              masters=masters.get(guild, 0),
                              place=str(first) if first == last else f"{first}–{last}"))
        rivals = [g for g in by_quarters[quarters[group[0]]] if g not in group] if len(group) == 1 else []
        above = [g for g in rivals if masters.get(g, 0) > masters.get(group[0], 0)]
        if rivals and not above:
            explain.append(Msg(N_("{guild} ties on quarters with {others} and wins the tie with more guild masters."),
                               {"guild": label(group[0]), "others": _names(rivals, names)}))
        elif above:
            explain.append(Msg(N_("{guild} ties on quarters with {others} but loses the tie: fewer guild masters "
                                  "({masters} against {best})."),
                               {"guild": label(group[0]), "others": _names(above, names),
                                "masters": masters.get(group[0], 0), "best": max(masters.get(g, 0) for g in above)}))
        if len(group) > 1:
            explain.append(Msg(N_("{guilds} are still tied after counting guild masters: they share places "
                                  "{first}–{last} and each takes the points of place {last}."),
                               {"guilds": _names(group, names), "first": first, "last": last}))
    for guild in GUILDS:
        if guild not in present and guild in quarters:
            explain.append(Msg(N_("{guild} has no completed quarter here and does not rank."),
                               {"guild": label(guild)}))
    return {"value": value, "points": points, "explain": explain}


def _names(guilds: list[str], names: Mapping[str, str] | None = None) -> Msg:
    """Guild names (or their players' names) joined by commas, each in the reader's language."""
    template = ", ".join("{g%d}" % i for i in range(len(guilds)))
    return Msg(template, {f"g{i}": (names or {}).get(g) or guild_name(g) for i, g in enumerate(guilds)})


#: A city entered with no completed quarter at all: no city in play is scored so (its centre is a quarter).
NOTHING_BUILT = N_("no completed quarter entered: a scored city has at least its city centre")


def check_city(raw: Any, path: str, variant: str, guilds: list[str]) -> dict:
    """One city scoring as entered (the `score` command's city object, or the UI's form)."""
    inputs.obj(raw, path, required=["quarters"],
               optional=["name", "church", "church_with_cathedral", "masters"])
    quarters_in = inputs.obj(raw["quarters"], inputs.join(path, "quarters"), optional=GUILDS)
    masters_in = inputs.obj(raw.get("masters", {}), inputs.join(path, "masters"), optional=GUILDS)
    quarters, masters = {}, {}
    for guild in GUILDS:
        box = GREY_QUARTERS if guild == GREY else GUILD_QUARTERS
        q = inputs.whole(quarters_in.get(guild, 0), inputs.join(inputs.join(path, "quarters"), guild), 0, box,
                         N_("quarters of that guild in the box"))
        m = inputs.whole(masters_in.get(guild, 0), inputs.join(inputs.join(path, "masters"), guild), 0,
                         most_masters(q, variant),
                         (N_("printed on its completed quarters plus the tiles") if variant == STANDARD else
                          N_("printed on its completed quarters: the two-player variant has no guild-master tiles"))
                         if q else N_("it has no completed quarter"))
        if q and guild not in guilds:
            raise inputs.InputError(inputs.join(inputs.join(path, "quarters"), guild),
                                    Msg(N_("that guild is not in this game")))
        if q or guild in quarters_in:
            quarters[guild] = q
        if m:
            masters[guild] = m
    cathedral_box = 0 if variant == TWO_PLAYER else CATHEDRALS
    church = inputs.whole(raw.get("church", 0), inputs.join(path, "church"), 0, CHURCH_QUARTERS,
                          N_("church quarters in the box"))
    cathedral = inputs.whole(raw.get("church_with_cathedral", 0), inputs.join(path, "church_with_cathedral"), 0,
                             cathedral_box, N_("cathedrals in the box") if cathedral_box else N_("no cathedrals in this variant"))
    if church + cathedral > CHURCH_QUARTERS:
        raise inputs.InputError(inputs.join(path, "church"),
                                Msg(N_("church quarters with and without a cathedral add up to more than the "
                                       "box's {box}"), {"box": CHURCH_QUARTERS}))
    if not sum(quarters.values()) + church + cathedral:
        raise inputs.InputError(inputs.join(path, "quarters"), Msg(NOTHING_BUILT))
    return {"quarters": quarters, "church": church, "church_with_cathedral": cathedral, "masters": masters}


def most_masters(quarters: int, variant: str) -> int:
    """The most guild masters a guild can have on `quarters` completed quarters of one city: those
    printed on them, plus the 4 tiles in the standard game (the two-player variant has none)."""
    if not quarters:
        return 0
    return PRINTED_MASTERS_PER_QUARTER * quarters + (MASTER_TILES if variant == STANDARD else 0)


def gold_influence_beyond_box(cards: list[int]) -> int | None:
    """The index of the first hand that takes the influence cards in all hands beyond the box: 3 silver
    ones per player, and kept gold influence cards from the 28 gold cards (their number is unknown,
    so the whole gold deck bounds them). None when every hand fits."""
    gold = 0
    for i, n in enumerate(cards):
        gold += max(0, n - SILVER_INFLUENCE)
        if gold > GOLD_CARDS:
            return i
    return None


def check_totals(cities: list[dict], path: str, variant: str) -> None:
    """Across all scored cities no guild, church or cathedral count may exceed the box."""
    for guild in GUILDS:
        box = GREY_QUARTERS if guild == GREY else GUILD_QUARTERS
        if sum(c["quarters"].get(guild, 0) for c in cities) > box:
            raise inputs.InputError(inputs.join(path, f"quarters.{guild}"),
                                    Msg(N_("more {guild} quarters in all cities than the box's {box}"),
                                        {"guild": guild_name(guild), "box": box}))
    if sum(c["church"] + c["church_with_cathedral"] for c in cities) > CHURCH_QUARTERS:
        raise inputs.InputError(inputs.join(path, "church"),
                                Msg(N_("more church quarters in all cities than the box's {box}"),
                                    {"box": CHURCH_QUARTERS}))
    if sum(c["church_with_cathedral"] for c in cities) > CATHEDRALS:
        raise inputs.InputError(inputs.join(path, "church_with_cathedral"),
                                Msg(N_("more cathedrals in all cities than the box's {box}"), {"box": CATHEDRALS}))


# ----------------------------------------------------------------------------------------------
# Final scoring


def final_scores(variant: str, players: list[dict], cities: list[dict],
                 corrections: Mapping[str, int] | None = None, names: Mapping[str, str] | None = None) -> dict:
    """The final result: per-guild city points, per-player breakdown, places and explanations.

    `players`: `{"id": colour, "influence_cards": n}` or, in the variant, `{"id", "influenced_guild"}`;
    `cities`: every city scoring of the game (checked input); `corrections`: manual points per guild;
    `names`: guild colour → player name, for the lines (the app has names, the `score` command ids).
    """
    corrections = dict(corrections or {})
    guilds = {g: 0 for g in GUILDS}
    explain: list[Msg] = []
    for city in cities:
        result = score_city(city, names)
        for guild, pts in result["points"].items():
            guilds[guild] += pts
        if "name" in city:
            explain.append(Msg(N_("{city} (value {value}):"), {"city": city_name(city["name"]), "value": result["value"]}))
        explain.extend(result["explain"])
    for guild, pts in corrections.items():
        if pts:
            explain.append(Msg(N_("{guild}: manual corrections {points:+d}"), {"guild": guild_name(guild), "points": pts}))
    track = {g: guilds[g] + corrections.get(g, 0) for g in GUILDS}
    rows = []
    if variant == TWO_PLAYER:
        for p in players:
            rows.append({"id": p["id"], "breakdown": {"own": track[p["id"]], "influenced": track[p["influenced_guild"]]}})
            explain.append(Msg(N_("{guild}: own guild {own} + influenced guild {other} ({influenced})"),
                               {"guild": guild_name(p["id"]), "own": track[p["id"]],
                                "other": guild_name(p["influenced_guild"]), "influenced": track[p["influenced_guild"]]}))
    else:
        most = max(p["influence_cards"] for p in players)
        for p in players:
            bonus = INFLUENCE_BONUS if most > 0 and p["influence_cards"] == most else 0
            breakdown = {"cities": guilds[p["id"]], "influence": bonus}
            if corrections.get(p["id"]):
                breakdown["corrections"] = corrections[p["id"]]
            rows.append({"id": p["id"], "breakdown": breakdown})
        if most > 0:
            leaders = [p["id"] for p in players if p["influence_cards"] == most]
            explain.append(Msg(N_("Most influence cards in hand ({n}): +3 for {guilds}."),
                               {"n": most, "guilds": _names(leaders)}))
        else:
            explain.append(Msg(N_("Nobody holds an influence card: no influence bonus.")))
    explain += places_without_tie_break(rows, lambda group: _names([r["id"] for r in group]))
    ordered = [next(r for r in rows if r["id"] == p["id"]) for p in players]
    return {
        "game": "flanders-1302",
        "players": [{"id": r["id"], "total": r["total"], "place": r["place"], "breakdown": r["breakdown"]}
                    for r in ordered],
        "winners": [r["id"] for r in ordered if r["place"] == 1],
        "guilds": guilds,
        "explain": explain,
    }


def score_cli(data: Any) -> dict:
    """`companion score flanders-1302`: check the input (scoring-contract.md) and score it."""
    data, options, players = inputs.common(data, "flanders-1302", [TWO_PLAYER], 2, 4, top=["cities"])
    variant = TWO_PLAYER if TWO_PLAYER in options else STANDARD
    if variant == TWO_PLAYER:
        inputs.array(players, "players", 2, 2)
    elif len(players) < 3:
        raise inputs.InputError("players", Msg(N_("the standard game is for 3 or 4 players; 2 players play the "
                                                  "two-player variant (option two-player), got {got}"),
                                               {"got": len(players)}))
    colours = []
    for i, player in enumerate(players):
        path = inputs.join("players", i)
        inputs.choice(player["id"], inputs.join(path, "id"), COLOURS)
        colours.append(player["id"])
    for i, player in enumerate(players):
        path = inputs.join("players", i)
        if variant == TWO_PLAYER:
            inputs.obj(player, path, required=["id", "influenced_guild"])
            free = [c for c in COLOURS if c not in colours]
            inputs.choice(player["influenced_guild"], inputs.join(path, "influenced_guild"), free)
        else:
            inputs.obj(player, path, required=["id", "influence_cards"])
            inputs.whole(player["influence_cards"], inputs.join(path, "influence_cards"), 0,
                         SILVER_INFLUENCE + GOLD_CARDS, N_("3 silver influence cards plus the 28 gold cards"))
    if variant == STANDARD:
        over = gold_influence_beyond_box([p["influence_cards"] for p in players])
        if over is not None:
            raise inputs.InputError(inputs.join(inputs.join("players", over), "influence_cards"),
                                    Msg(N_("more influence cards in all hands than 3 silver ones each plus the {n} "
                                           "gold cards"), {"n": GOLD_CARDS}))
    if variant == TWO_PLAYER and players[0]["influenced_guild"] == players[1]["influenced_guild"]:
        raise inputs.InputError("players[1].influenced_guild", Msg(N_("the two players influence different guilds")))
    guilds = list(GUILDS) if variant == TWO_PLAYER else colours + [GREY]
    scored = inputs.array(data["cities"], "cities")
    if variant == STANDARD and len(players) == 3 and len(scored) > len(CITIES) - 1:
        raise inputs.InputError("cities", Msg(N_("with 3 players one city stays empty and is never scored: at most "
                                                 "{n} cities, got {got}"), {"n": len(CITIES) - 1, "got": len(scored)}))
    if len(scored) > len(CITIES):
        raise inputs.InputError("cities", Msg(N_("the board has {n} cities, got {got}"),
                                              {"n": len(CITIES), "got": len(scored)}))
    cities, names = [], set()
    for i, raw in enumerate(scored):
        path = inputs.join("cities", i)
        city = check_city(raw, path, variant, guilds)
        name = inputs.choice(raw.get("name"), inputs.join(path, "name"), CITIES) if "name" in raw else None
        if name is not None:
            if name in names:
                raise inputs.InputError(inputs.join(path, "name"), Msg(N_("city {name} is scored twice"), {"name": name}))
            names.add(name)
            city["name"] = name
        cities.append(city)
    check_totals(cities, "cities", variant)
    return final_scores(variant, [dict(p) for p in players], cities)


# ----------------------------------------------------------------------------------------------
# Actions of a session (reducers: mutate the given copy or raise InvalidAction)



def _begin(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "round"


def _goto_step(state: dict, args: Mapping, config: Mapping) -> None:
    if args.get("step") not in [s.id for s in STEPS[config["variant"]]]:
        raise InvalidAction(Msg(N_("There is no such step.")))
    state["step"] = args["step"]


def _player_counts(args: Mapping, config: Mapping, key: str, low: int) -> dict[str, int]:
    raw = args.get(key)
    if not isinstance(raw, Mapping):
        raise InvalidAction(Msg(N_("Enter a number for every player.")), field=key)
    counts = {}
    for p in config["players"]:
        n = raw.get(p["colour"])
        if isinstance(n, bool) or not isinstance(n, int) or n < low:
            raise InvalidAction(Msg(N_("Enter a whole number of at least {low}."), {"low": low}),
                                field=f"{key}.{p['colour']}")
        counts[p["colour"]] = n
    return counts


def _turn_order(state: dict, args: Mapping, config: Mapping) -> None:
    """Step 3: cards revealed per player → the order; played influence cards leave the game."""
    cards = _player_counts(args, config, "cards", 1)
    for p in config["players"]:
        held = state["influence"][p["colour"]]
        if cards[p["colour"]] - 1 > held:
            raise InvalidAction(P_("{name} can play at most {n} card: one action card plus the influence "
                                   "cards still in hand.",
                                   "{name} can play at most {n} cards: one action card plus the influence "
                                   "cards still in hand.", held + 1, name=p["name"]),
                                field=f"cards.{p['colour']}")
    for colour, n in cards.items():
        state["influence"][colour] -= n - 1
    seats = [p["colour"] for p in config["players"]]
    state["order"] = {"cards": cards, "order": turn_order(seats, state["start"], cards), "acted": 0}
    state["step"] = "actions"


def _action_done(state: dict, args: Mapping, config: Mapping) -> None:
    """Step 4: the player on turn has carried out the action; after the last one, step 5 follows."""
    if not isinstance(args.get("player"), str):
        raise InvalidAction(Msg(N_("Say which player carried out the action.")), field="player")
    state["order"]["acted"] += 1
    if state["order"]["acted"] == len(state["order"]["order"]):
        state["step"] = "start_gold"


def _gold_influence(state: dict, args: Mapping, config: Mapping) -> None:
    """Step 5: the start player's gold card is an influence card; he keeps it."""
    colour = config["players"][state["start"]]["colour"]
    state["influence"][colour] += 1
    state["gold_influence"] = state["round"]


def _score_city(state: dict, args: Mapping, config: Mapping) -> None:
    """Step 6 (or the end of the game): score one completed city and move the score markers."""
    name = args.get("city")
    if name not in cities_in_play(config):
        raise InvalidAction(Msg(N_("Choose a city in play.")), field="city")
    if name in state["cities"]:
        raise InvalidAction(Msg(N_("{city} has already been scored."), {"city": city_name(name)}), field="city")
    raw = {k: args[k] for k in ("quarters", "church", "church_with_cathedral", "masters") if k in args}
    try:
        city = check_city(raw, "", config["variant"], guilds_in_play(config))
        check_totals([*state["cities"].values(), city], "", config["variant"])
    except inputs.InputError as error:
        raise InvalidAction(_form_message(error), field=error.path.lstrip(".")) from None
    result = score_city(city)
    for guild, pts in result["points"].items():
        if guild in state["scores"]:
            state["scores"][guild] += pts
    city["round"] = state["round"]
    state["cities"][name] = city


def _form_message(error: inputs.InputError) -> Msg:
    """A form-friendly message for a count the box cannot hold (or a city with nothing entered)."""
    if error.msg.text == NOTHING_BUILT:
        return Msg(N_("Nothing is entered for this city: every scored city has completed quarters (its city centre "
                      "is one). Enter the completed quarters of each guild."))
    return Msg(N_("That is more than the box holds or the rules allow ({detail})."), {"detail": error.msg})


def _end_round(state: dict, args: Mapping, config: Mapping) -> None:
    """After step 6: check the end triggers with the players; either the game ends or a new round starts."""
    board = args.get("board")
    deck = args.get("deck", False)
    if not isinstance(board, bool) or not isinstance(deck, bool):
        raise InvalidAction(Msg(N_("Answer both questions about the end of the game.")))
    if config["variant"] == TWO_PLAYER and deck:
        raise InvalidAction(Msg(N_("The two-player variant plays without gold cards.")))
    if board or deck:
        state["phase"] = "final"
        state["end"] = {"board": board, "deck": deck}
        return
    state["round"] += 1
    state["start"] = (state["start"] + 1) % len(config["players"])
    state["step"] = STEPS[config["variant"]][0].id
    state["order"] = None


def _finish(state: dict, args: Mapping, config: Mapping) -> None:
    """The final scoring: every city scored (the table checks it); in the standard game the influence
    cards each player really holds are entered (the app's own count is offered as the starting value)."""
    if config["variant"] == STANDARD:
        counts = _player_counts(args, config, "cards", 0)
        over = gold_influence_beyond_box(list(counts.values()))
        if over is not None:
            raise InvalidAction(Msg(N_("More influence cards than the box holds: 3 silver ones per player plus "
                                       "the 28 gold cards in all.")), field=f"cards.{list(counts)[over]}")
        state["influence"] = counts
    state["phase"] = "over"


def on_turn(state: Mapping, config: Mapping) -> str | None:
    """Who carries out an action now in step 4 (the turn order of step 3), None when the order is
    not worked out or everyone has acted."""
    order = state.get("order")
    if not order or order["acted"] >= len(order["order"]):
        return None
    return order["order"][order["acted"]]


def moves(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The table of allowed actions: for each phase and step of the round, what may be entered and by
    whom, and why the rest is refused (rulebook "1.–6.", "Konec hry", "Pravidla pro 2 hráče")."""
    phase, step = state["phase"], state.get("step")
    standard = config["variant"] == STANDARD
    if phase == "over":
        return {kind: refused(N_("The game is over.")) for kind in REDUCERS}
    if phase == "setup":
        later = refused(N_("The rounds begin once the setup is done."))
        return {**{kind: later for kind in REDUCERS}, "begin": ALLOWED}
    if phase == "final":
        ended = refused(N_("The game has ended: score the cities left, then show the winner."))
        table = {kind: ended for kind in REDUCERS}
        table["begin"] = refused(N_("The game has already begun."))
        table["score_city"] = _city_rule(state, config)
        missing = [c for c in cities_in_play(config) if c not in state["cities"]]
        table["finish"] = Rule(Msg(N_("Score every city first; still to score: {cities}."), {"cities": Msg(
            ", ".join("{c%d}" % i for i in range(len(missing))), {f"c{i}": city_name(c) for i, c in enumerate(missing)})})
        ) if missing else ALLOWED
        return table
    start = config["players"][state["start"]]["colour"]
    if not standard:
        turn_order = action_done = refused(N_("The two-player variant has no turn order to work out."))
        gold = refused(N_("The two-player variant plays without gold cards."))
    else:
        if step not in BEFORE_ACTIONS:
            turn_order = refused(N_("The cards are revealed in step 3: go to step 3 to enter them."))
        elif state["order"] is not None:
            turn_order = refused(N_("The turn order of this round is already set: undo it to enter it again."))
        else:
            turn_order = ALLOWED
        if step != "actions":
            action_done = refused(N_("The players carry out their actions in step 4."))
        elif state["order"] is None:
            action_done = refused(N_("Work out the turn order in step 3 first: it says who acts when."))
        elif (turn := on_turn(state, config)) is None:
            action_done = refused(N_("Every player has carried out an action this round."))
        else:
            action_done = Rule(by=frozenset({turn}))
        if step != "start_gold":
            gold = refused(N_("The start player reveals the gold card in step 5."))
        elif state["gold_influence"] == state["round"]:
            gold = refused(N_("The start player takes one gold card per round."))
        else:
            gold = Rule(by=frozenset({start}))
    if step != "scoring":
        end_round = refused(N_("The round ends after step 6: go to step 6 first.") if standard
                            else N_("The turn ends after its scoring (step 3): go to step 3 first."))
    else:
        end_round = ALLOWED if standard else Rule(by=frozenset({start}))
    return {
        "begin": refused(N_("The game has already begun.")), "goto_step": ALLOWED, "turn_order": turn_order,
        "action_done": action_done, "gold_influence": gold, "score_city": _city_rule(state, config),
        "end_round": end_round,
        "finish": refused(N_("The final scoring begins once the end of the game is checked after step 6.")
                          if standard else
                          N_("The final scoring begins once the end of the game is checked at the end of a turn.")),
    }


def _city_rule(state: Mapping, config: Mapping) -> Rule:
    """Cities are scored in the round's scoring step and in the final scoring, each once."""
    if state["phase"] == "round" and state["step"] != "scoring":
        return refused(N_("Completed cities are scored in step 6.") if config["variant"] == STANDARD
                       else N_("Completed cities are scored at the end of the turn (step 3)."))
    if all(c in state["cities"] for c in cities_in_play(config)):
        return refused(N_("Every city in play has been scored."))
    return ALLOWED


REDUCERS = {
    "begin": _begin, "goto_step": _goto_step, "turn_order": _turn_order, "action_done": _action_done,
    "gold_influence": _gold_influence,
    "score_city": _score_city, "end_round": _end_round, "finish": _finish,
}


def result(state: Mapping, config: Mapping) -> dict:
    """The final result of a session (the same scoring as `companion score`)."""
    if config["variant"] == TWO_PLAYER:
        players = [{"id": p["colour"], "influenced_guild": config["influenced"][p["colour"]]}
                   for p in config["players"]]
    else:
        players = [{"id": p["colour"], "influence_cards": state["influence"][p["colour"]]}
                   for p in config["players"]]
    cities = [dict(city, name=name) for name, city in state["cities"].items()]
    corrections: dict[str, int] = {}
    for c in state.get("corrections", []):
        corrections[c["track"]] = corrections.get(c["track"], 0) + c["points"]
    return final_scores(config["variant"], players, cities, corrections,
                        {p["colour"]: p["name"] for p in config["players"]})


def describe(action: Mapping, config: Mapping) -> Msg:
    """What an action did, for the game log and the undo button."""
    kind, args = action.get("type"), action.get("args", {})
    names = {p["colour"]: p["name"] for p in config["players"]}
    if kind == "tick":
        return Msg(N_("Setup: ticked an item") if args.get("done") else N_("Setup: unticked an item"))
    if kind == "begin":
        return Msg(N_("Setup finished, round 1 begins"))
    if kind == "goto_step":
        return Msg(N_("Moved to step: {step}"), {"step": text(f"step.{config['variant']}.{args.get('step')}.title")})
    if kind == "turn_order":
        cards = args.get("cards", {})
        return Msg(N_("Cards revealed: {cards}"), {"cards": ", ".join(f"{names[c]} {cards.get(c)}" for c in names)})
    if kind == "action_done":
        return Msg(N_("{name} carried out the action"), {"name": names.get(args.get("player"), "")})
    if kind == "gold_influence":
        return Msg(N_("The start player kept a gold influence card"))
    if kind == "score_city":
        city = check_city({k: args[k] for k in ("quarters", "church", "church_with_cathedral", "masters")
                           if k in args}, "", config["variant"], list(GUILDS))
        return Msg(N_("Scored {city} (value {value})"), {"city": city_name(args["city"]), "value": city_value(city)})
    if kind == "end_round":
        return Msg(N_("End of round checked: the game ends") if args.get("board") or args.get("deck")
                   else N_("End of round checked: next round"))
    if kind == "finish":
        return Msg(N_("Final scoring done"))
    if kind == "correct":
        track = args.get("track")
        who = guild_name(track)
        return Msg(N_("Score correction for {guild}: {points:+d} ({reason})"),
                   {"guild": who, "points": args.get("points", 0), "reason": args.get("reason", "")})
    return Msg(N_("Unknown action"))


def guide(state: Mapping, config: Mapping) -> Guide:
    """The pinned header: round (or turn) and step, and who acts in that step: the start player in
    steps 1 and 5, the player on turn in step 4 (by the turn order of step 3), nobody in particular
    where everyone acts at once (steps 2, 3) or the table scores (step 6); in the two-player variant
    the player on turn. Every player's points (own guild plus influenced guild in the variant)."""
    variant = config["variant"]
    totals = {p["colour"]: state["scores"][p["colour"]] + state["scores"].get(config.get("influenced", {}).get(
        p["colour"]), 0) for p in config["players"]}
    figures = {colour: Msg("{n}", {"n": n}) for colour, n in totals.items()}
    if state["phase"] == "final":
        return Guide(Msg(N_("End of the game: score every city left, then the winner")), figures=figures,
                     screen="final")
    if state["phase"] == "over":
        return Guide(Msg(N_("The game is over")), figures=figures, screen="over")
    steps = STEPS[variant]
    index = [s.id for s in steps].index(state["step"])
    where = Msg(N_("Round {round} · step {n} of {all}: {step}") if variant == STANDARD
                else N_("Turn {round} · step {n} of {all}: {step}"),
                {"round": state["round"], "n": index + 1, "all": len(steps),
                 "step": text(f"step.{variant}.{state['step']}.title")})
    start = config["players"][state["start"]]["colour"]
    screen = f"round:{state['step']}"
    if variant == TWO_PLAYER:
        return Guide(where, start, Msg(N_("On turn:")), figures, screen)
    if state["step"] in ("gold_card", "start_gold"):
        return Guide(where, start, Msg(N_("Start player:")), figures, screen)
    if state["step"] == "actions" and on_turn(state, config):
        return Guide(where, on_turn(state, config), Msg(N_("On turn:")), figures, screen)
    return Guide(where, None, None, figures, screen)


GAME = GameDef(
    id=ID, cli_name="flanders-1302", min_players=2, max_players=4,
    new_config=new_config, setup_items=setup_items, initial_state=initial_state,
    reducers=REDUCERS, describe=describe, score_cli=score_cli,
    steps=lambda config: STEPS[config["variant"]], result=result,
    progress=score_track, guide=guide, navigation=frozenset({"goto_step"}),
    personal=frozenset({"turn_order", "action_done"}), moves=moves,
    order=10,
)
