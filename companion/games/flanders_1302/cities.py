"""Flanders 1302: city scoring in step 6 and at the end of the game (rulebook "6. Přidělení bodů",
"Remíza"; FACTS §1.7, TV-F2, TV-F3): `score_city`, and the checks of a city as entered against the box:
`check_city`, `check_totals`.

A city is scored with at least one completed quarter entered (every city in play has a city centre).
Guild masters per guild in a city are bounded by 2 printed per quarter + 4 tiles.

The neutral city centres: with 3 or 4 players (and in the two-player variant) the two centres the
rulebook calls the Utrecht and Liège centres go into the cities no player's centre went to (seed 000,
"Komponenty a příprava hry"; FACTS §1.2, §1.3). The rulebook counts a city centre as a quarter ("the
city centre is also a quarter!", its Liège example; FACTS §1.7: "incl. city centres" = 1), so a
neutral centre adds 1 to its city's value. It belongs to none of the guilds that rank (the four
player guilds and grey: the Czech edition's grey guild has 15 quarters and no centre), so it ranks
none. A city whose only completed quarter is its neutral centre is scored with value 1 and no
points (`neutral_centre` in the entry, at most the two in the box: `NEUTRAL_CENTRES`). One English
listing counts 16 grey quarters with a grey centre (FACTS §1.2, S-BS); the app follows the Czech box.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from ...engine import inputs
from ...engine.model import InvalidAction, Msg, N_, P_, Ref, listed
from ...engine.ranking import points_lowest_of_tied, positions, tied_groups
from .preparation import (CATHEDRALS, CHURCH_QUARTERS, GREY, GREY_QUARTERS, GUILD_QUARTERS, GUILDS, MASTER_TILES,
                    NEUTRAL_CENTRES, PRINTED_MASTERS_PER_QUARTER, STANDARD, TWO_PLAYER, cities_in_play, city_name, guild_name,
                    guilds_in_play)

#: Points for the places 3, 4 and 5 of a city scoring; places 1 and 2 depend on the value.
LOW_PLACES = (4, 2, 0)


def city_value(city: Mapping) -> int:
    """Completed guild quarters (centres included, the neutral one too) 1 each, church quarters 2, with a
    cathedral 3."""
    return (sum(city["quarters"].values()) + city.get("neutral_centre", 0) + 2 * city["church"]
            + 3 * city["church_with_cathedral"])


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
    neutral = city.get("neutral_centre", 0)
    explain = [Msg(worth, dict(counts, value=value - neutral))]
    if neutral:
        explain.append(Msg(N_("The neutral city centre is a quarter too: +1, so the city's value is {value}. It "
                              "belongs to no guild and ranks none."), {"value": value}))
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


def _names(guilds: list[str], names: Mapping[str, str] | None = None) -> Msg | Ref | str:
    """Guild names (or their players' names) listed as the reader says them ("Blue and Grey"), each in
    the reader's language."""
    return listed([(names or {}).get(g) or guild_name(g) for g in guilds])


#: A city entered with no completed quarter at all: no city in play is scored so (its centre is a quarter,
#: a neutral one too).
NOTHING_BUILT = N_("no completed quarter entered: a scored city has at least its city centre")


def check_city(raw: Any, path: str, variant: str, guilds: list[str]) -> dict:
    """One city scoring as entered (the `score` command's city object, or the UI's form)."""
    inputs.obj(raw, path, required=["quarters"],
               optional=["name", "church", "church_with_cathedral", "masters", "neutral_centre"])
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
    neutral = inputs.whole(raw.get("neutral_centre", 0), inputs.join(path, "neutral_centre"), 0, 1,
                           N_("a city has one city centre"))
    if not sum(quarters.values()) + church + cathedral + neutral:
        raise inputs.InputError(inputs.join(path, "quarters"), Msg(NOTHING_BUILT))
    return {"quarters": quarters, "church": church, "church_with_cathedral": cathedral, "masters": masters,
            **({"neutral_centre": neutral} if neutral else {})}


def most_masters(quarters: int, variant: str) -> int:
    """The most guild masters a guild can have on `quarters` completed quarters of one city: those
    printed on them, plus the 4 tiles in the standard game (the two-player variant has none)."""
    if not quarters:
        return 0
    return PRINTED_MASTERS_PER_QUARTER * quarters + (MASTER_TILES if variant == STANDARD else 0)


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
    if sum(c.get("neutral_centre", 0) for c in cities) > NEUTRAL_CENTRES:
        raise inputs.InputError(inputs.join(path, "neutral_centre"),
                                Msg(N_("more neutral city centres in all cities than the box's {box}"),
                                    {"box": NEUTRAL_CENTRES}))
    if sum(c["church_with_cathedral"] for c in cities) > CATHEDRALS:
        raise inputs.InputError(inputs.join(path, "church_with_cathedral"),
                                Msg(N_("more cathedrals in all cities than the box's {box}"), {"box": CATHEDRALS}))


def _score_city(state: dict, args: Mapping, config: Mapping) -> None:
    """Step 6 (or the end of the game): score one completed city and move the score markers."""
    name = args.get("city")
    if name not in cities_in_play(config):
        raise InvalidAction(Msg(N_("Choose a city in play.")), field="city")
    if name in state["cities"]:
        raise InvalidAction(Msg(N_("{city} has already been scored."), {"city": city_name(name)}), field="city")
    raw = {k: args[k] for k in ("quarters", "church", "church_with_cathedral", "masters", "neutral_centre") if k in args}
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
                      "is one). Enter the completed quarters of each guild, or its neutral city centre."))
    return Msg(N_("That is more than the box holds or the rules allow ({detail})."), {"detail": error.msg})
