"""What the files may hold, by type and range: the checks that refuse a backup or an import (backup.py,
exchange.py) and leave out what is found on disk (Store.sessions, Store.setting), so that whatever a file
holds, every screen can be drawn. Which games exist and whether a game's log replays is not storage's
to know: the checks that need it take the game ids, or live above storage (companion/store.py)."""
from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, TypeGuard

from .. import table as table_mode
from .. import texts as text_data
from ..messages import Msg, N_
#: A session id (also its file's name): 12 hex digits.
SESSION_ID = re.compile(r"[0-9a-f]{12}")
#: What a game's id looks like (its folder's name).
GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")
STATUSES = ("active", "finished", "damaged", "abandoned")
#: Times the screens show: from 1970 to 2100 (a time outside is not a time of a game played).
LATEST = 4_102_444_800


def is_document(data: Any) -> TypeGuard[dict[str, Any]]:
    """A TinyDB document: tables by name, each of documents (objects) by numeric id."""
    return isinstance(data, dict) and all(
        isinstance(table, dict) and all(key.isdecimal() and isinstance(doc, dict) for key, doc in table.items())
        for table in data.values())


def is_time(value: Any) -> bool:
    """A time in seconds since 1970 that the screens can show (1970–2100; not NaN, not infinite)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < LATEST


def is_whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= 10 ** 9


def _is_players(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("colour"), str) for p in value)


def _is_result(result: Any) -> bool:
    """The summary of a finished game (history.summary): winners, and per player colour, name, total,
    place and a breakdown with the same categories for everyone."""
    if not isinstance(result, dict) or not isinstance(result.get("winners"), list) \
            or not all(isinstance(w, str) for w in result["winners"]):
        return False
    rows = result.get("players")
    if not isinstance(rows, list) or not rows or not _is_players(rows):
        return False
    if not all(isinstance(result.get(k, ""), str) and len(result.get(k, "")) <= 60 for k in ("kind", "title")) \
            or not isinstance(result.get("lowest", False), bool) \
            or "minutes" in result and not (is_whole(result["minutes"]) and result["minutes"] >= 0):
        return False
    for row in rows:
        breakdown = row.get("breakdown")
        if not is_whole(row.get("total")) or not is_whole(row.get("place")) or row["place"] < 1 \
                or not isinstance(breakdown, dict) or not all(is_whole(v) for v in breakdown.values()) \
                or list(breakdown) != list(rows[0]["breakdown"]):
            return False
    return True


def is_game(value: Any, games: Collection[str] | None) -> bool:
    """A game's id: one of `games` (None: any id, a short name of letters, digits and _)."""
    return isinstance(value, str) and (value in games if games is not None else bool(GAME_ID.fullmatch(value)))


def entry_fault(entry: Any, games: Collection[str] | None = None) -> Msg | None:
    """What is wrong with a catalogue entry (None: nothing); `games`: the ids of the games there are."""
    if not isinstance(entry, dict):
        return Msg(N_("an entry must be an object"))
    checks: list[tuple[str, Callable[[Any], object], str]] = [
          ("id", lambda v: isinstance(v, str) and SESSION_ID.fullmatch(v), N_("id must be 12 hexadecimal digits")),
          ("game", lambda v: is_game(v, games), N_("game must name one of the games")),
          ("created", is_time, N_("created must be a time in seconds between 1970 and 2100")),
          ("status", lambda v: v in STATUSES, N_("status must be active, finished, damaged or abandoned")),
          ("players", _is_players, N_("players must be a list of players, each with a name and a colour")),
          ("result", lambda v: v is None or _is_result(v), N_("result must be the summary of a finished game")),
          ("title", lambda v: isinstance(v, str) and 0 < len(v) <= 40, N_("title must be a game's name")),
          ("details", lambda v: details_fault(v) is None,
           N_("details must be a play time in minutes, a place and a note")),
          ("imported", lambda v: isinstance(v, dict) and set(v) == {"source", "uuid"} and v["source"] == "bgstats"
           and isinstance(v["uuid"], str) and 0 < len(v["uuid"]) <= 64,
           N_("imported must name the BG Stats play the game came from"))]
    for name, good, why in checks:
        if name in ("result", "title", "details", "imported") and name not in entry:
            continue
        try:
            ok = name in entry and good(entry[name])
        except TypeError:  # an unhashable value where a name belongs
            ok = False
        if not ok:
            return Msg(why)
    return None


def imported_fault(meta: Mapping[str, Any]) -> Msg | None:
    """What is wrong with an imported game's mark (`meta["imported"]`: from BG Stats, its play's uuid
    and the result the file gave, for players of the game's configuration); None: nothing."""
    imported = meta.get("imported")
    players = meta.get("config", {}).get("players")
    if not isinstance(imported, dict) or imported.get("source") != "bgstats" \
            or not isinstance(imported.get("uuid"), str) or not 0 < len(imported["uuid"]) <= 64 \
            or not _is_result(imported.get("result")) or not _is_players(players) \
            or [r["colour"] for r in imported["result"]["players"]] != [p["colour"] for p in players] \
            or not set(imported["result"]["winners"]) <= {p["colour"] for p in players}:
        return Msg(N_("its import mark must name the BG Stats play and its result"))
    return None


#: The longest place and note a finished game's details take; the longest play time (minutes).
PLACE_LENGTH, NOTE_LENGTH, MINUTES = 60, 500, 10_000


def details_fault(details: Any) -> Msg | None:
    """What is wrong with a finished game's details `{"minutes", "place", "note"}` (None: nothing)."""
    if not isinstance(details, dict) or set(details) != {"minutes", "place", "note"}:
        return Msg(N_("details must be a play time in minutes, a place and a note"))
    minutes = details["minutes"]
    if minutes is not None and not (is_whole(minutes) and 0 <= minutes <= MINUTES):
        return Msg(N_("the play time must be a whole number of minutes from 0 to {n}"), {"n": MINUTES})
    if not isinstance(details["place"], str) or len(details["place"]) > PLACE_LENGTH:
        return Msg(N_("the place must be text of at most {n} characters"), {"n": PLACE_LENGTH})
    if not isinstance(details["note"], str) or len(details["note"]) > NOTE_LENGTH:
        return Msg(N_("the note must be text of at most {n} characters"), {"n": NOTE_LENGTH})
    return None


#: The most score sheets a device keeps (backup.py bounds the catalogue by it).
MAX_SHEETS = 200
SHEET_KEYS = ("id", "name", "categories", "per_round", "lowest", "tie_break")


def sheet_shape_fault(doc: Any) -> Msg | None:
    """What is wrong with the shape of a saved score sheet (None: nothing): it must have the keys the
    "Another game" form saves, with its id. (Whether its categories and names are right is the score
    sheet game's check: `companion.store.sheet_fault`.)"""
    if not isinstance(doc, dict) or set(doc) != set(SHEET_KEYS) or not isinstance(doc["id"], str) or not doc["id"]:
        return Msg(N_("a score sheet must have an id, a name, categories, per round, lowest and a tie-breaker"))
    return None


#: The settings the app reads, and what each may be; a setting of another name may hold anything.
SETTINGS: dict[str, tuple[Callable[[Any], object], str]] = {
    "language": (lambda v: v in text_data.LANGUAGES, N_("language must be cs or en")),
    "table_token": (table_mode.is_token, N_("table_token must be a join token (32 letters, digits, - or _)"))}


def settings_of(docs: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The settings documents of `docs` that are right, as the copy beside the catalogue keeps them."""
    return [{"name": doc["name"], "value": doc["value"]} for doc in docs if setting_fault(doc) is None]


def setting_fault(doc: Any) -> Msg | None:
    """What is wrong with a settings document `{"name", "value"}` (None: nothing)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("name"), str) or "value" not in doc:
        return Msg(N_("a setting must be an object with a name and a value"))
    good, why = SETTINGS.get(doc["name"], (lambda v: True, ""))
    try:
        ok = good(doc["value"])
    except TypeError:  # an unhashable value
        ok = False
    return None if ok else Msg(why)


def is_action(action: Any) -> bool:
    """An action of a log: a type, arguments, and (once recorded) the time it was recorded."""
    return isinstance(action, dict) and isinstance(action.get("type"), str) \
        and isinstance(action.get("args", {}), dict) and ("at" not in action or is_time(action["at"]))


def session_fault(document: Any, games: Collection[str] | None = None) -> Msg | None:
    """What is wrong with a game file's TinyDB document (None: nothing): its meta (one of `games`, a
    configuration with players, the creation time, its version and status), its log of actions and its
    sealed entries."""
    meta = document.get("meta", {}).get("1")
    if not isinstance(meta, dict) or not is_game(meta.get("game"), games) or not isinstance(meta.get("config"), dict) \
            or not _is_players(meta["config"].get("players")) or not is_time(meta.get("created")):
        return Msg(N_("its meta must name one of the games, with a configuration of players and a creation time"))
    if "details" in meta and details_fault(meta["details"]) is not None:
        return details_fault(meta["details"])
    if "version" in meta and not (is_whole(meta["version"]) and meta["version"] >= len(document.get("log", {}))):
        return Msg(N_("its version must be a whole number, at least the number of its actions"))
    if "result" in meta and not _is_result(meta["result"]):
        return Msg(N_("its result must be the summary of a finished game"))
    if "imported" in meta and (imported_fault(meta) is not None or document.get("log")):
        return imported_fault(meta) or Msg(N_("an imported game has no move log"))
    for key, action in document.get("log", {}).items():
        if not is_action(action):
            return Msg(N_("its action {n} must have a type, arguments and a time"), {"n": key})
    for key, sealed in document.get("sealed", {}).items():
        if not isinstance(sealed.get("kind"), str) or not isinstance(sealed.get("entries"), dict):
            return Msg(N_("its sealed entry {n} must have a kind and entries"), {"n": key})
    return None


#: The most an action and a game's configuration take as JSON (a score, a bid, a sheet of twelve
#: categories for twelve players: far less); a game file holding more was not written by the app.
ACTION_BYTES, CONFIG_BYTES = 2_000, 64_000


def log_of(document: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """A game file's log in order: its keys and its actions."""
    keys = sorted(document.get("log", {}), key=int)
    return keys, [document["log"][key] for key in keys]
