"""Princes of the Renaissance: the box, the new game and its setup, reading the state.

Encodes (FACTS §3 of ../shared/rules/FACTS.md):
- setup: 40 gold and 12 influence each, the cities' starting status, families, decade I events,
  the first player (FACTS §3.2): `new_config`, `setup_items`, `initial_state`;
- what the box contains, as far as it bounds a final-scoring input (FACTS §3.1, §3.4, §3.8): five
  major cities with status 3–10, 4 "+1 status" artist tiles, 12 event tiles, 6 city tiles per city,
  at most 6 city tiles from at most 3 cities per player, exactly two Merchant city tiles, one Pope,
  and one VP counter per war won: at most 3 decades × 4 wars (5 with 5–6 players) plus the war of
  the one Start War card, which is played once a game (`vp_counter_limit`, `start_war_left`). Gold and influence have no box count in the sources
  (the counters are not counted), so they are not bounded by one.

Where the Czech summary (seed) and the English rules disagree, the new game's form chooses the
rulebook the group plays by (`EDITIONS`: Czech or English, proposed by the phone's language), and
each point may then be read the other way (`ENGLISH_READINGS` names each English reading and the Czech
one it replaces). The config stores the readings in force (`CZECH_READINGS`; a point not named is read
the English way), so a saved game keeps its rules whatever the form proposes later. Each reading is
encoded, and listed, in the module that reads it; this one:
- FACTS §3.2 and §6 "Milan starting status": Milan starts at 7 (`milan_seven`; English `milan_six`):
  `start_status`.
None of them changes the final scoring, so `companion score` reads the same with either.

Tile data no source settles (troops' cost, strength and income; the 30 city tiles' city, income and
ability; the event tiles' decade, VP and currency) is entered from the physical tile when it is
bought or auctioned, never invented; the few known values only prefill the forms (`KNOWN_TROOPS`).
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping
from ...engine.model import InvalidAction, Msg, N_, Ref, Step
from ...engine.seats import check_seats


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


#: The box's one Start War card (FACTS §3.1): played once, it is gone (no source returns a played card
#: to the deck), so a game has at most this many wars off the war track. The engine refuses a card war
#: after it (`start_war_left`) and `companion score` counts it in its bound of VP counters
#: (`vp_counter_limit`): one rule for both.
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


#: The rulebooks a group may play by: the Czech summary's readings, or the English rules' (a form that
#: names none is Czech, as every form was before the choice).
EDITIONS = ("czech", "english")


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


def start_war_left(state: Mapping) -> bool:
    """Whether the Start War card is still in the game (`START_WAR_CARDS`)."""
    return bool(state["start_wars"] < START_WAR_CARDS)


def wars_left(state: Mapping, players: int) -> int:
    """The wars the game can still have: the room left on this decade's war track (none once the
    decade's turns are over), the later decades' tracks, and the Start War card while it is unplayed."""
    this_decade = war_limit(players) - state["wars"] if state["phase"] in ("setup", "play") else 0
    return max(0, this_decade) + (DECADES - state["decade"]) * war_limit(players) + \
        (START_WAR_CARDS - state["start_wars"])


def vp_counter_limit(players: int) -> int:
    """VP counters a whole game can hand out: one per war won (FACTS §3.5.9), at most `war_limit` wars
    a decade on the track for 3 decades, plus the war of the one Start War card (FACTS §3.1)."""
    return DECADES * war_limit(players) + START_WAR_CARDS


def new_config(raw: Mapping) -> dict:
    """Players clockwise, each with his family (the family is his colour), the first player of
    decade I, the rulebook the group plays by (`edition`, Czech unless the form says otherwise) and
    the points read the other way (`options`: a reading's own name, English or Czech, takes that
    reading of its point; `tied_gold_no_second` the one point neither settles). The config stores the
    readings in force, so a saved game keeps its rules: a stored config (one this function made, which
    an import or a check of the saved file passes back) names exactly the Czech readings in force."""
    players, start = check_seats(raw, FAMILIES, 3, 6)
    edition = raw.get("edition", "czech")
    if edition not in EDITIONS:
        raise InvalidAction(Msg(N_("Choose the Czech or the English rulebook.")), field="edition")
    chosen = raw.get("options", [])
    if not isinstance(chosen, list) or any(o not in FORM_OPTIONS and o not in OPTIONS for o in chosen):
        raise InvalidAction(Msg(N_("There is no such rule option.")), field="options")
    stored = raw.get("game") == ID
    czech = set(CZECH_READINGS) if edition == "czech" and not stored else set()
    for name in chosen:
        if name in ENGLISH_READINGS:
            czech.discard(ENGLISH_READINGS[name])
        elif name in CZECH_READINGS:
            czech.add(name)
    if stored and "edition" not in raw:       # saved before the choice: the rulebook most points follow
        edition = "czech" if 2 * len(czech) > len(CZECH_READINGS) else "english"
    return {"game": ID, "variant": "standard", "players": players, "start": start, "edition": edition,
            "options": [o for o in OPTIONS if o in czech or o not in CZECH_READINGS and o in chosen]}


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
        "used": [], "turn_cards": [], "start_wars": 0, "pope_joined": False, "auction": None, "war": None, "pending": None, "last_war": None,
        "last_auction": None, "last_opener": None, "incomes": [],
    }


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
