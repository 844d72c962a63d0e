"""Flanders 1302: the box, the variants and the setup.

- the player counts: the standard game for 3 or 4 players, 2 players only in the two-player variant
  (rulebook "Pravidla pro 2 hráče"; FACTS §1.1, §1.9): `new_config`;
- components and setup per player count (rulebook "Komponenty a příprava hry"; FACTS §1.2, §1.3): `setup_items`;
- the round of six steps (rulebook "1.–6."; FACTS §1.4): `STEPS`;
- the end condition's question about the board (rulebook "Konec hry"; FACTS §1.3, §1.8): `end_question`;
- the two-player variant (rulebook "Pravidla pro 2 hráče"; FACTS §1.9): option `two-player`, the
  influenced guilds chosen by the players, one each.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from ...engine.model import InvalidAction, Msg, N_, Ref, Step
from ...engine.seats import check_seats

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
NEUTRAL_CENTRES = 2          # the rulebook's Utrecht and Liège centres, in the cities no player's centre took
PRINTED_MASTERS_PER_QUARTER = 2
SILVER_INFLUENCE = 3
GOLD_CARDS = 28
INFLUENCE_BONUS = 3

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
