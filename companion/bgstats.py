"""BG Stats interchange: its JSON export read as finished games, and the history written as one.

A BG Stats export is a JSON object with the lists `games` (`id`, `name`, `bggId`, optionally
`highestWins`), `players` (`id`, `name`), `locations` (`id`, `name`) and `plays`, each play with
`uuid`, `playDate` ("YYYY-MM-DD HH:MM:SS", local time), `durationMin`, `gameRefId`, optionally
`locationRefId`, and `playerScores` (`playerRefId`, `score` as text, `winner`, `startPlayer`,
`newPlayer`, `seatOrder`, optionally `rank`).

Reading (`check`): a play of one of the registry's games (`own_games`: every game but the score
sheet, which holds the plays of any other; matched by its BoardGameGeek id, `GameDef.bgg_id`, or by
its name in English or Czech, or one of its `GameDef.other_names`) becomes a finished game of that
game; a play of any other game a finished score-sheet game named after it (its name cut to the
sheet's 40 characters; `highestWins` false: the lowest total wins). Either is marked `imported`
(`{"source": "bgstats", "uuid"}`) and has no move log: its result (totals, places, winners) is the
one the file gives. Places are the file's `rank` where every player has one, else the winners first
and then by total. Every field is checked for type and range before anything is kept; a file that
contradicts itself (a score for a player not in `players`, a play of a game not in `games`, a date
that is no date, a play in it twice) is refused whole (`Refused`, naming the entry). Player names
are cut to the app's 24 characters and places to 60. A score must be a whole number (BG Stats writes
it as text; an empty score counts 0).

Writing (`export`): every finished game, its game with its `bggId` (`GameDef.bgg_id`, 0 where none
is known), its players (one id per name) in seat order, its place as a location, its date, minutes,
scores, ranks and winners (`startPlayer` and `newPlayer` are not kept, so they are written false). A
play keeps the uuid it was imported with; a game played here gets a uuid made from what never
changes about it (its game, its creation time and its players: `play_uuid`), not from its id in this
folder, so it is the same play however often it is exported, from this folder, from a restored
backup or from another folder its JSON export was imported into; an import knows it by that uuid and
adds nothing twice.

Pure: no Flet, no TinyDB (the store calls it through companion/exchange.py).
"""
from __future__ import annotations

import re
import time
import uuid as uuids
from datetime import datetime
from typing import Any
from collections.abc import Iterable, Mapping

from . import games as registry, history, texts
from .engine.model import GameDef, Msg, N_
from .games.score_sheet import rules as score_sheet

SOURCE = "bgstats"
#: Plays' players get these colours in seat order (the score sheet's twelve, told apart on screen).
COLOURS = score_sheet.COLOURS
MAX_PLAYERS = score_sheet.MAX_PLAYERS
MAX_ITEMS = 100_000               # games, players, locations or plays in one file
NAME, LONG_NAME, PLACE = 24, 200, 60
MINUTES = 10_000
SCORE = 10 ** 9 - 1
ID_RANGE = (-(2 ** 53), 2 ** 53)
UUID_LENGTH = 64
DATE = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}")
WHOLE = re.compile(r"-?\d{1,9}")
NAMESPACE = uuids.UUID("6f1c7f8e-3b1a-4f0e-9a57-2d6c1e0b7a41")  # the uuids of plays made here


class Refused(Exception):
    """The file is not a BG Stats export this program can take; `msg` names the entry, in any language."""

    def __init__(self, msg: Msg):
        super().__init__(msg.english())
        self.msg = msg


def looks_like(data: Any) -> bool:
    """Whether a JSON document is meant as a BG Stats export (its four lists, no format of ours)."""
    return isinstance(data, dict) and "format" not in data and "plays" in data and "players" in data


def _clean(text: str) -> str:
    return " ".join(text.split())


def _key(text: str) -> str:
    return _clean(text).casefold()


def own_games() -> list[GameDef]:
    """The games a BG Stats play can be a game of: every game of the registry but the score sheet (a play
    of any other game becomes a score sheet), in the home screen's order."""
    return [game for game in registry.GAMES.values() if game.id != score_sheet.ID]


def _names() -> dict[str, str]:
    """Every name the games go by (English, Czech, other editions), casefolded, to the game."""
    out = {}
    for game in own_games():
        titles = texts.load(texts.data_file(game.id))[0].get(f"{game.id}.game.title", {})
        for name in (*titles.values(), *game.other_names):
            out[_key(name)] = game.id
    return out


# -- reading -------------------------------------------------------------------------------------


def _int(value: Any, where: str, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Refused(Msg(N_("{where}: {field} must be a whole number from {low} to {high}"),
                          {"where": where, "field": field, "low": low, "high": high}))
    return value


def _text(value: Any, where: str, field: str, longest: int, empty: bool = False) -> str:
    if not isinstance(value, str) or len(value) > longest or not empty and not value.strip():
        raise Refused(Msg(N_("{where}: {field} must be text of at most {n} characters"),
                          {"where": where, "field": field, "n": longest}))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused(Msg(N_("{where}: {field} must be text of at most {n} characters"),
                          {"where": where, "field": field, "n": longest})) from None
    return _clean(value)


def _flag(value: Any, where: str, field: str) -> bool:
    if not isinstance(value, bool):
        raise Refused(Msg(N_("{where}: {field} must be true or false"), {"where": where, "field": field}))
    return value


def _table(data: dict[str, Any], name: str, optional: bool = False) -> list[Any]:
    items = data.get(name, [] if optional else None)
    if not isinstance(items, list) or len(items) > MAX_ITEMS:
        raise Refused(Msg(N_("not a BG Stats export: {name} must be a list of at most {n} entries"),
                          {"name": name, "n": MAX_ITEMS}))
    return items


def _by_id(items: list[Any], name: str, longest: int) -> dict[int, dict[str, Any]]:
    """A table's entries by their id, each an object with a whole-number id (once) and a name."""
    out: dict[int, dict[str, Any]] = {}
    for i, item in enumerate(items):
        where = f"{name}[{i}]"
        if not isinstance(item, dict):
            raise Refused(Msg(N_("{where} must be an object"), {"where": where}))
        ident = _int(item.get("id"), where, "id", *ID_RANGE)
        if ident in out:
            raise Refused(Msg(N_("{where}: the id {id} is used twice"), {"where": where, "id": ident}))
        out[ident] = dict(item, name=_text(item.get("name"), where, "name", longest))
    return out


def _date(value: Any, where: str) -> float:
    try:
        if not isinstance(value, str) or not DATE.fullmatch(value):
            raise ValueError(value)
        when = datetime.strptime(value, "%Y-%m-%d %H:%M:%S")
        if not 1970 <= when.year <= 2099:
            raise ValueError(value)
        created = time.mktime(when.timetuple())
    except (ValueError, OverflowError):
        raise Refused(Msg(N_("{where}: playDate must be a date and time (YYYY-MM-DD HH:MM:SS) between 1970 and "
                             "2099"), {"where": where})) from None
    return max(0.0, created)


def _score(value: Any, where: str) -> int:
    if value is None or value == "":
        return 0
    if isinstance(value, str) and WHOLE.fullmatch(value.strip()):
        return int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= SCORE:
        return value
    raise Refused(Msg(N_("{where}: {field} must be a whole number from {low} to {high}"),
                      {"where": where, "field": "score", "low": -SCORE, "high": SCORE}))


def check(data: Any) -> list[dict[str, Any]]:
    """The plays of a BG Stats export (a parsed JSON document) as finished games, each `{"game",
    "config", "log" (empty), "status", "created", "result", "details", "imported"}`, in the file's
    order; Refused naming the first fault (nothing is kept)."""
    if not isinstance(data, dict):
        raise Refused(Msg(N_("not a BG Stats export: {name} must be a list of at most {n} entries"),
                          {"name": "plays", "n": MAX_ITEMS}))
    games = _by_id(_table(data, "games"), "games", LONG_NAME)
    players = _by_id(_table(data, "players"), "players", LONG_NAME)
    locations = _by_id(_table(data, "locations", optional=True), "locations", LONG_NAME)
    names = _names()
    for i, game in enumerate(games.values()):
        where = f"games[{i}]"
        bgg = game.get("bggId", 0)
        game["bggId"] = 0 if bgg is None else _int(bgg, where, "bggId", 0, 10 ** 9)
        if "highestWins" in game:
            _flag(game["highestWins"], where, "highestWins")
    out, seen = [], set()
    for i, play in enumerate(_table(data, "plays")):
        where = f"plays[{i}]"
        if not isinstance(play, dict):
            raise Refused(Msg(N_("{where} must be an object"), {"where": where}))
        uuid = _text(play.get("uuid"), where, "uuid", UUID_LENGTH)
        if uuid in seen:
            raise Refused(Msg(N_("{where}: the play {uuid} is in the file twice"), {"where": where, "uuid": uuid}))
        seen.add(uuid)
        created = _date(play.get("playDate"), where)
        minutes = play.get("durationMin", 0)
        minutes = 0 if minutes is None else _int(minutes, where, "durationMin", 0, MINUTES)
        ref = _int(play.get("gameRefId"), where, "gameRefId", *ID_RANGE)
        if ref not in games:
            raise Refused(Msg(N_("{where}: there is no game {id} in games"), {"where": where, "id": ref}))
        place = ""
        spot = play.get("locationRefId")
        if spot is not None:
            spot = _int(spot, where, "locationRefId", *ID_RANGE)
            if spot in locations:
                place = locations[spot]["name"][:PLACE]
            elif spot != 0:  # BG Stats writes 0 for a play without a location
                raise Refused(Msg(N_("{where}: there is no location {id} in locations"), {"where": where, "id": spot}))
        out.append(_play(play, where, uuid, created, minutes, place, games[ref], players, names))
    return out


def _play(play: dict[str, Any], where: str, uuid: str, created: float, minutes: int, place: str, game: dict[str, Any],
          players: dict[int, dict[str, Any]], names: dict[str, str]) -> dict[str, Any]:
    scores = play.get("playerScores")
    if not isinstance(scores, list) or not 1 <= len(scores) <= MAX_PLAYERS:
        raise Refused(Msg(N_("{where}: playerScores must list 1 to {n} players"), {"where": where, "n": MAX_PLAYERS}))
    rows, met = [], set()
    for k, raw in enumerate(scores):
        at = f"{where}.playerScores[{k}]"
        if not isinstance(raw, dict):
            raise Refused(Msg(N_("{where} must be an object"), {"where": at}))
        ref = _int(raw.get("playerRefId"), at, "playerRefId", *ID_RANGE)
        if ref not in players:
            raise Refused(Msg(N_("{where}: there is no player {id} in players"), {"where": at, "id": ref}))
        if ref in met:
            raise Refused(Msg(N_("{where}: the player {id} is listed twice"), {"where": at, "id": ref}))
        met.add(ref)
        for field in ("winner", "startPlayer", "newPlayer"):
            if field in raw:
                _flag(raw[field], at, field)
        seat = raw.get("seatOrder", k)
        rank = raw.get("rank", 0)
        rows.append({"name": players[ref]["name"][:NAME].strip(), "total": _score(raw.get("score"), at),
                     "winner": raw.get("winner", False),
                     "seat": k if seat is None else _int(seat, at, "seatOrder", 0, 999),
                     "rank": 0 if rank is None else _int(rank, at, "rank", 0, 999)})
    rows.sort(key=lambda r: r["seat"])  # stable: players without a seat keep the file's order
    game_id = game_of(game, names)
    lowest = game_id is None and game.get("highestWins") is False
    config_players = [{"colour": COLOURS[k], "name": row["name"]} for k, row in enumerate(rows)]
    if game_id is None:
        title = game["name"][:score_sheet.NAME_LENGTH].strip()
        sheet = {"id": "", "name": title, "categories": [], "per_round": True, "lowest": lowest, "tie_break": None}
        config = {"game": score_sheet.ID, "variant": "standard", "players": config_players, "start": 0,
                  "sheet": sheet, "title": title}
        kind = score_sheet.kind(config)
    else:
        config, kind = {"players": config_players}, None
    result = {"winners": [COLOURS[k] for k, row in enumerate(rows) if row["winner"]],
              "players": [{"colour": COLOURS[k], "name": row["name"], "total": row["total"], "place": place_,
                           "breakdown": {}} for k, (row, place_) in enumerate(zip(rows, _places(rows, lowest)))]}
    if kind is not None:
        result["kind"], result["title"] = kind
    if lowest:
        result["lowest"] = True
    if minutes:
        result["minutes"] = minutes
    return {"game": game_id or score_sheet.ID, "config": config, "log": [], "status": "finished", "created": created,
            "result": result, "details": {"minutes": minutes or None, "place": place, "note": ""},
            "imported": {"source": SOURCE, "uuid": uuid}}


def game_of(game: Mapping[str, Any], names: Mapping[str, str] | None = None) -> str | None:
    """Which of the registry's games a BG Stats game is (by BoardGameGeek id, else by name); None: another."""
    for own in own_games():
        if own.bgg_id and game.get("bggId") == own.bgg_id:
            return own.id
    return (names if names is not None else _names()).get(_key(game["name"]))


def _places(rows: list[dict[str, Any]], lowest: bool) -> list[int]:
    """The file's ranks where every player has one; else the winners first, then by total (tied
    totals share a place)."""
    if all(row["rank"] > 0 for row in rows):
        return [row["rank"] for row in rows]
    order = sorted(range(len(rows)), key=lambda k: (not rows[k]["winner"],
                                                    rows[k]["total"] if lowest else -rows[k]["total"]))
    places = [0] * len(rows)
    for position, k in enumerate(order):
        before = order[position - 1] if position else None
        same = before is not None and (rows[before]["winner"], rows[before]["total"]) == (rows[k]["winner"],
                                                                                            rows[k]["total"])
        places[k] = places[before] if same and before is not None else position + 1
    return places


# -- writing -------------------------------------------------------------------------------------


def play_uuid(entry: Mapping[str, Any]) -> str:
    """The play's uuid: the one it was imported with, else one made from the game, its creation time and
    its players (a catalogue entry's, or an import's `config`), which its id is not: an import gives a
    game a new id."""
    imported = entry.get("imported") or {}
    if imported.get("uuid"):
        return str(imported["uuid"])
    players = entry["players"] if "players" in entry else entry["config"]["players"]
    seats = "|".join(f"{p['colour']}={p['name']}" for p in players)
    return str(uuids.uuid5(NAMESPACE, f"{entry['game']}|{entry['created']!r}|{seats}"))


def export(entries: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The finished games (catalogue entries with their summary, oldest first) as a BG Stats export."""
    games: dict[str, dict[str, Any]] = {}
    players: dict[str, dict[str, Any]] = {}
    locations: dict[str, dict[str, Any]] = {}
    plays = []
    for entry in sorted((e for e in entries if e.get("result")), key=lambda e: (e["created"], e["id"])):
        result = entry["result"]
        key = history.kind(entry)
        if key not in games:
            name = result.get("title") or texts.english_title(entry["game"])
            games[key] = {"id": len(games) + 1, "name": name, "bggId": registry.GAMES[entry["game"]].bgg_id,
                          "highestWins": not result.get("lowest", False)}
        details = entry.get("details") or {}
        place = details.get("place") or ""
        if place and place.casefold() not in locations:
            locations[place.casefold()] = {"id": len(locations) + 1, "name": place}
        winners = set(result["winners"])
        seats = [p.get("colour") for p in entry.get("players", [])]
        scores = []
        for seat, row in enumerate(sorted(result["players"], key=lambda r: seats.index(r["colour"])
                                          if r["colour"] in seats else len(seats))):
            who = _key(row["name"])
            if who not in players:
                players[who] = {"id": len(players) + 1, "name": _clean(row["name"])}
            scores.append({"playerRefId": players[who]["id"], "score": str(row["total"]),
                           "winner": row["colour"] in winners, "startPlayer": False, "newPlayer": False,
                           "seatOrder": seat + 1, "rank": row["place"]})
        minutes = history.minutes(entry)
        plays.append({"uuid": play_uuid(entry), "playDate": time.strftime("%Y-%m-%d %H:%M:%S",
                                                                          time.localtime(entry["created"])),
                      "durationMin": minutes or 0, "gameRefId": games[key]["id"],
                      **({"locationRefId": locations[place.casefold()]["id"]} if place else {}),
                      "playerScores": scores})
    return {"games": list(games.values()), "players": list(players.values()), "locations": list(locations.values()),
            "plays": plays}
