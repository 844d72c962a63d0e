"""Checking `companion score` input: every error names the offending field (`players[1].coins`).

Shared by all games, so that every game reports bad input the same way (scoring-contract.md).
"""
from __future__ import annotations

import json
import re
from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from .model import Msg, N_

#: The largest whole number a field takes when its game gives no bound of its own: no box counts
#: that high, and a bigger number would only make the output and the messages huge.
LIMIT = 10_000
#: The most entries a list takes when its game gives no bound of its own.
ENTRIES = 1_000
#: The longest player id.
ID_LENGTH = 100
#: A key shown as `.key` in a field's path; any other key is shown quoted: `["a b"]`.
_PLAIN_KEY = re.compile(r"\w[\w.\-]{0,39}")


class InputError(Exception):
    """Bad `companion score` input; `path` is the field, `msg` says what is wrong with it."""

    def __init__(self, path: str, msg: Msg):
        super().__init__(f"{path}: {msg.english()}" if path else msg.english())
        self.path = path
        self.msg = msg


def printable(text: str) -> str:
    """`text` with every character that could break the line or upset a terminal (a newline, a
    control character, a line separator, a lone surrogate) written as its escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _shown(value: Any) -> str:
    text = printable(json.dumps(value, ensure_ascii=False))
    return text if len(text) <= 40 else text[:37] + "..."


def join(path: str, key: str | int) -> str:
    """`players` + 1 → `players[1]`; `players[1]` + `coins` → `players[1].coins`; a key that is not
    a plain word is quoted (`meeples["Anna B."]`), so a path is always one short line."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if not _PLAIN_KEY.fullmatch(key):
        return f"{path}[{_shown(key)}]"
    return f"{path}.{key}" if path else key


def obj(value: Any, path: str, required: Iterable[str] = (), optional: Iterable[str] = ()) -> Mapping[str, Any]:
    """A JSON object with exactly the allowed keys (unknown keys are an error: a typo never scores 0)."""
    if not isinstance(value, dict):
        raise InputError(path, Msg(N_("must be an object, got {got}"), {"got": _shown(value)}))
    required, allowed = list(required), set(required) | set(optional)
    for key in value:
        if key not in allowed:
            raise InputError(join(path, key), Msg(N_("unknown field")))
    for key in required:
        if key not in value:
            raise InputError(join(path, key), Msg(N_("is missing")))
    return value


def whole(value: Any, path: str, low: int = 0, high: int | None = None, what: str = "") -> int:
    """A whole number in [low, high]; `what` (marked with N_) says where the upper bound comes from.
    Without `high` the bound is LIMIT."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InputError(path, Msg(N_("must be a whole number >= {low}, got {got}"),
                                   {"low": low, "got": _shown(value)}))
    if high is None and value > LIMIT:
        raise InputError(path, Msg(N_("must be at most {high} (more than any box holds), got {got}"),
                                   {"high": LIMIT, "got": _shown(value)}))
    if high is not None and value > high:
        if what:
            raise InputError(path, Msg(N_("must be at most {high} ({what}), got {got}"),
                                       {"high": high, "what": Msg(what), "got": _shown(value)}))
        raise InputError(path, Msg(N_("must be at most {high}, got {got}"), {"high": high, "got": _shown(value)}))
    return value


def boolean(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(path, Msg(N_("must be true or false, got {got}"), {"got": _shown(value)}))
    return value


def choice(value: Any, path: str, allowed: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise InputError(path, Msg(N_("must be one of {allowed}, got {got}"),
                                   {"allowed": ", ".join(allowed), "got": _shown(value)}))
    return value


def array(value: Any, path: str, low: int = 0, high: int | None = None) -> list[Any]:
    """A list of `low` to `high` entries (without `high`, at most ENTRIES)."""
    if not isinstance(value, list):
        raise InputError(path, Msg(N_("must be a list, got {got}"), {"got": _shown(value)}))
    high = ENTRIES if high is None else high
    if not low <= len(value) <= high:
        span = f"{low}–{high}"
        raise InputError(path, Msg(N_("must have {span} entries, got {got}"), {"span": span, "got": len(value)}))
    return value


def common(data: Any, game: str, options: Sequence[str], low: int, high: int,
           top: Iterable[str] = ()) -> tuple[Mapping[str, Any], list[str], list[Any]]:
    """The shape every game shares: `game`, `options`, `players` with unique ids; returns them checked."""
    obj(data, "", required=["players", *top], optional=["game", "options"])
    if "game" in data and data["game"] != game:
        raise InputError("game", Msg(N_("must be {game} (the game named on the command line), got {got}"),
                                     {"game": game, "got": _shown(data["game"])}))
    chosen = array(data.get("options", []), "options")
    if chosen and not options:
        raise InputError(join("options", 0), Msg(N_("this game has no options, got {got}"),
                                                 {"got": _shown(chosen[0])}))
    for i, option in enumerate(chosen):
        choice(option, join("options", i), options)
    if len(set(chosen)) != len(chosen):
        raise InputError("options", Msg(N_("names an option twice")))
    players = array(data["players"], "players", low, high)
    seen = set()
    for i, player in enumerate(players):
        obj(player, join("players", i), required=["id"], optional=player.keys() if isinstance(player, dict) else ())
        pid = player["id"]
        if not isinstance(pid, str) or not pid:
            raise InputError(join(join("players", i), "id"), Msg(N_("must be a non-empty string, got {got}"),
                                                                   {"got": _shown(pid)}))
        if len(pid) > ID_LENGTH or not _text(pid):
            raise InputError(join(join("players", i), "id"),
                             Msg(N_("must be text of at most {n} characters, got {got}"),
                                 {"n": ID_LENGTH, "got": _shown(pid)}))
        if pid in seen:
            raise InputError(join(join("players", i), "id"), Msg(N_("duplicate player id {got}"), {"got": _shown(pid)}))
        seen.add(pid)
    return data, chosen, players


def _text(value: str) -> bool:
    """Whether `value` is text that can be written out (no lone surrogate from a `\\ud800` escape)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
