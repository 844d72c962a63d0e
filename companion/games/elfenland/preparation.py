"""Elfenland and Elfengold: the components, the setup and the session's configuration.

Encodes ../shared/rules/FACTS.md §5.1–5.3 (the English Elfenland rules S-RP-E; Elfengold from the
Czech seed 004 and S-GT, S-LZ, S-SM):
- components and setup of both games (FACTS §5.1–5.3): `setup_items`; the tiles Elfengold leaves in
  the box (FACTS §5.1 vs §5.3): `setup_items`;
- the round: 6 phases in Elfenland (4 rounds), 7 in Elfengold (6 rounds; round 1 skips drawing
  and income), the start player passing left (FACTS §5.1, §5.4): `PHASES`, `_first_phase`
  (the phases themselves: `phases.py`);
- the town race: 20 town pieces per player (FACTS §5.5): `TOWNS`.

Decision where the sources are silent (FACTS §5.8 lists it as open): the Elfengold variants with
town cards or randomly placed gold discs are not computed: the move helper uses the printed disc
values (FACTS §5.3); correct the ledger if you play them.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine.model import InvalidAction, Msg, N_, Ref, Step
from ...engine.seats import check_seats


ELFENGOLD = "elfengold"


ID = "elfenland"


TOWNS = 20            # town pieces per player (FACTS §5.1)


GOLD_IN_BOX = 300     # 25 × 1 + 25 × 5 + 15 × 10 (FACTS §5.2)


HAND_AFTER_MOVE = 4   # base game: a hand is reduced to 4 cards at the end of each move (FACTS §5.1)


COLOURS = ("red", "blue", "green", "yellow", "purple", "black")


#: Elfengold's gold discs, printed value per town (FACTS §5.3); Elvenhold, the capital, has none.
GOLD_DISCS = {"al_baran": 7, "kihromah": 6, "grangor": 5, "mah_davikia": 5, "jaccaranda": 5, "erg_eren": 5,
              "strykhaven": 4, "dag_amura": 4, "yttar": 4, "parundia": 4, "usselen": 4, "feodor": 4,
              "virst": 3, "ixara": 3, "wylhien": 3, "throtmanni": 3, "tichih": 3, "rivinia": 3,
              "beata": 2, "lapphalia": 2}


CAPITAL = "elvenhold"


TOWN_LIST = (CAPITAL, *sorted(GOLD_DISCS))


ROUNDS = {"base": 4, "elfengold": 6}


PHASES = {"base": ("deal", "draw_one", "draw_three", "plan", "move", "end"),
          "elfengold": ("draw", "income", "tiles", "auction", "plan", "move", "end")}


FIRST_ROUND_SKIPS = ("draw", "income")    # Elfengold round 1 (FACTS §5.4)


START_GOLD = 12


#: Elfengold's face-down pool (FACTS §5.3): 48 tiles.
POOL = {"dragon": 4, "magic_cloud": 4, "unicorn": 5, "elfcycle": 8, "troll_wagon": 8, "giant_pig": 9, "gold": 2,
        "double_transport": 2, "exchange": 2, "tree": 2, "sea_monster": 2}


def text(key: str) -> Ref:
    return Ref(f"{ID}.{key}")


def _variant(config: Mapping) -> str:
    return config["variant"]


def new_config(raw: Mapping) -> dict:
    """Players clockwise with boot colours, the start player (the oldest), Elfengold or the base game,
    and Elfengold's Elf-wizard variant."""
    players, start = check_seats(raw, COLOURS, 2, 6)
    variant = raw.get("variant", "elfengold")
    if variant not in ROUNDS:
        raise InvalidAction(Msg(N_("Choose Elfengold or the base game.")), field="variant")
    wizards = raw.get("wizards", False)
    if not isinstance(wizards, bool) or (wizards and variant != "elfengold"):
        raise InvalidAction(Msg(N_("The Elf wizards are an Elfengold variant.")), field="wizards")
    return {"game": ID, "variant": variant, "players": players, "start": start, "wizards": wizards}


def setup_items(config: Mapping) -> list[dict]:
    n = len(config["players"])
    start = {"name": config["players"][config["start"]]["name"]}
    items: list[dict[str, Any]]
    if _variant(config) == "base":
        items = [{"id": "board"}, {"id": "base_towns", "params": {"pieces": TOWNS}}, {"id": "base_counters"},
                 {"id": "base_cards"}, {"id": "base_obstacles", "params": {"n": n}}, {"id": "base_rounds"},
                 {"id": "start_player", "params": start}]
    else:
        items = [{"id": "board"}, {"id": "base_towns", "params": {"pieces": TOWNS}}, {"id": "gold_discs"},
                 {"id": "pool", "params": {"n": sum(POOL.values())}}, {"id": "rounds"},
                 {"id": "cards", "params": {"n": n * 5}}]
        if config["wizards"]:
            items.append({"id": "wizards"})
        items += [{"id": "gold", "params": {"gold": START_GOLD}}, {"id": "start_player", "params": start}]
    for item in items:
        item.setdefault("params", {})
    return items


def steps(config: Mapping) -> tuple:
    return tuple(Step(p) for p in PHASES[_variant(config)])


def initial_state(config: Mapping) -> dict:
    gold = START_GOLD if _variant(config) == "elfengold" else 0
    return {"phase": "setup", "round": 1, "start": config["start"], "turn": config["start"],
            "step": _first_phase(config, 1),
            "players": {p["colour"]: {"gold": gold, "towns": [], "at": CAPITAL, "moved": False, "cards": 0}
                        for p in config["players"]},
            "gold_pile": 0, "row": [], "next_tile": 0, "auction": None, "sold": [], "sitting_out": [],
            "last_move": None}


def _first_phase(config: Mapping, round_: int) -> str:
    phases = PHASES[_variant(config)]
    return next(p for p in phases if not (round_ == 1 and p in FIRST_ROUND_SKIPS))


def rounds(config: Mapping) -> int:
    return ROUNDS[_variant(config)]


def colour_at(config: Mapping, seat: int) -> str:
    return config["players"][seat % len(config["players"])]["colour"]


def _player(state: Mapping, value: Any) -> str:
    if value not in state["players"]:
        raise InvalidAction(Msg(N_("Choose a player.")), field="player")
    return value


def _name(config: Mapping, colour: str) -> str:
    return next(p["name"] for p in config["players"] if p["colour"] == colour)
