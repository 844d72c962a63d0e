"""Flanders 1302: the end of the game and the final scoring (rulebook "Konec hry"; FACTS §1.8, TV-F4):
`final_scores`, `score_cli`, `result`.

- the winner's tie-break is not in the rulebook: tied players share the place;
- the +3 influence bonus needs at least one influence card in hand (nobody "has the most" of none);
- kept gold influence cards count as influence cards in hand (FACTS §1.8, inferred);
- with 3 players the city left empty is never scored, so `companion score` takes at most 5 cities
  (6 with 4 players or the variant); which city it is, the input does not say;
- the gold deck's composition is unknown, so influence cards in hand are bounded only by the box
  (3 silver cards per player, and all hands together hold at most the 28 gold cards).
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from ...engine import inputs
from ...engine.model import InvalidAction, Msg, N_
from ...engine.ranking import places_without_tie_break
from .cities import _names, check_city, check_totals, score_city
from .rounds import _player_counts
from .preparation import (CITIES, COLOURS, GOLD_CARDS, GREY, GUILDS, INFLUENCE_BONUS, SILVER_INFLUENCE, STANDARD,
                    TWO_PLAYER, city_name, guild_name)

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


def final_scores(variant: str, players: list[dict], cities: list[dict],
                 corrections: Mapping[str, int] | None = None, names: Mapping[str, str] | None = None) -> dict:
    """The final result: per-guild city points, per-player breakdown, places and explanations.

    `players`: `{"id": colour, "influence_cards": n}` or, in the variant, `{"id", "influenced_guild"}`;
    `cities`: every city scoring of the game (checked input); `corrections`: manual points per guild
    (in the standard game a category of every player's breakdown once a player has any: every
    breakdown has the same categories, as the charts and the history read them);
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
        corrected = any(corrections.get(p["id"]) for p in players)
        for p in players:
            bonus = INFLUENCE_BONUS if most > 0 and p["influence_cards"] == most else 0
            breakdown = {"cities": guilds[p["id"]], "influence": bonus}
            if corrected:  # a category for every player: the breakdowns are read side by side
                breakdown["corrections"] = corrections.get(p["id"], 0)
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
                raise inputs.InputError(inputs.join(path, "name"), Msg(N_("{name} is scored twice"), {"name": city_name(name)}))
            names.add(name)
            city["name"] = name
        cities.append(city)
    check_totals(cities, "cities", variant)
    return final_scores(variant, [dict(p) for p in players], cities)


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
