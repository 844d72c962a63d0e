"""The app's store: storage (companion/storage/, which knows no game) told what the games' files mean.
Every other module imports from here, the one facade.

Above storage and below the screens, this is where the games meet their files: which games there are
(`Store.games`), the catalogue entry a game's file implies (`Store.project`: a file written before
versions existed is replayed to know whether its game ended), whether a saved score sheet is one the
"Another game" form can make, and what stops a game's file from being opened (`replay_fault`: a game
file edited by hand, a foreign backup).
"""
from __future__ import annotations

import json
from typing import Any

from . import history
from .engine import flow
from .engine.model import GameDef, InvalidAction, Msg, N_
from .games import GAME_IDS, GAMES
from .games.score_sheet.rules import check_sheet
from .storage import Storage
from .storage import checks
from .storage.catalogue import entry_of
from .storage.checks import ACTION_BYTES, CONFIG_BYTES, LATEST, MAX_SHEETS, MINUTES, NOTE_LENGTH, PLACE_LENGTH, \
    SESSION_ID, SETTINGS, SHEET_KEYS, STATUSES, details_fault, imported_fault, is_action, is_document, is_time, \
    log_of, setting_fault, settings_of
from .storage.files import INDEX, LOCK, SERVER, SESSIONS, SETTINGS_COPY, STAGING, TEXTS, AtomicJSONStorage, \
    FileDB, FileTable, FolderInUse, FolderLock, SessionLost, Stale, claim_server, folder_lock, os_reason, \
    server_of, write_json
from .storage.imports import IMPORTING
from .storage.journal import FOLD_AT, JOURNAL, Journal, stored_game
from .storage.trash import TRASH

__all__ = ["ACTION_BYTES", "CANNOT_REPLAY", "CONFIG_BYTES", "FOLD_AT", "IMPORTING", "INDEX", "JOURNAL", "LATEST", "LOCK",
           "MAX_SHEETS", "MINUTES", "NOTE_LENGTH", "PLACE_LENGTH", "SERVER", "SESSIONS", "SESSION_ID", "SETTINGS",
           "SETTINGS_COPY", "SHEET_KEYS", "STAGING", "STATUSES", "TEXTS", "TRASH", "AtomicJSONStorage", "FileDB",
           "FileTable", "FolderInUse", "FolderLock", "Journal", "SessionLost", "Stale", "Store", "claim_server",
           "details_fault", "entry_fault", "folder_lock", "imported_fault", "is_action", "is_document", "is_time",
           "os_reason", "replay_fault", "server_of", "session_fault", "setting_fault", "settings_of",
           "sheet_fault", "stored_game", "write_json"]

#: What replaying a log that no screen could have written raises (a game file edited by hand, a
#: foreign backup): the game is damaged, and is never replayed on a screen's way.
CANNOT_REPLAY = (InvalidAction, KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError)


class Store(Storage):
    """The data folder of the app's games (`data_dir=None`: in memory, for tests): storage that knows
    the registered games."""

    games = frozenset(GAME_IDS)

    def project(self, sid: str, document: dict[str, Any]) -> dict[str, Any]:
        """The catalogue entry a game's file implies; a file from before versions (its status not
        written down) is replayed: finished, with its result recomputed, when its log ends the game;
        active otherwise, also when the log cannot be replayed (opening it then says it is damaged)."""
        meta = document["meta"]["1"]
        if "version" in meta or "imported" in meta:
            return super().project(sid, document)
        _keys, log = log_of(document)
        try:
            game, config = GAMES[meta["game"]], meta["config"]
            state = flow.replay(game, config, log)
            if state.get("phase") == "over":
                return dict(entry_of(sid, meta), status="finished", result=history.summary(game, config, state, log))
        except CANNOT_REPLAY:
            pass
        return super().project(sid, document)

    def sheet_fault(self, sheet: Any) -> Msg | None:
        return sheet_fault(sheet)

    def load(self, sid: str) -> dict[str, Any]:
        """A game as `Storage.load` reads it, its configuration completed (`completed`): a game played
        here (one imported from BG Stats has only its players, and no screen but its result)."""
        session = super().load(sid)
        if "imported" not in session:
            session["config"] = completed(GAMES[session["game"]], session["config"])
        return session


def completed(game: GameDef, config: dict[str, Any]) -> dict[str, Any]:
    """A stored configuration with what the game's new-game check fills in and the file lacks (a setting
    added to the game after the file was written, a hand-edited file), so every screen finds its keys;
    what the file holds stays as it is. A configuration the check refuses is left as it is (opening it
    says the game is damaged)."""
    try:
        checked = game.new_config(config)
    except CANNOT_REPLAY:
        return config
    filled: dict[str, Any] = _filled(config, checked)
    return filled


def _filled(stored: Any, checked: Any) -> Any:
    if not isinstance(stored, dict) or not isinstance(checked, dict):
        return stored
    return {**{key: _filled(value, checked.get(key)) for key, value in stored.items()},
            **{key: value for key, value in checked.items() if key not in stored}}


def entry_fault(entry: Any) -> Msg | None:
    """What is wrong with a catalogue entry of one of the games (None: nothing)."""
    return checks.entry_fault(entry, GAME_IDS)


def session_fault(document: Any) -> Msg | None:
    """What is wrong with a game file's document, for one of the games (None: nothing)."""
    return checks.session_fault(document, GAME_IDS)


def sheet_fault(doc: Any) -> Msg | None:
    """What is wrong with a saved score sheet (None: nothing): it must be what the "Another game" form
    saves (the score sheet game's `check_sheet`), with its id."""
    fault = checks.sheet_shape_fault(doc)
    if fault is not None:
        return fault
    try:
        checked = check_sheet(doc)
    except InvalidAction as error:
        return Msg(N_("a score sheet is not right: {reason}"), {"reason": error.msg})
    return None if checked == doc else Msg(N_("a score sheet is not right: {reason}"),
                                           {"reason": Msg(N_("its names have extra spaces"))})


def replay_fault(document: dict[str, Any]) -> Msg | None:
    """What stops a game file (a document `session_fault` finds right) from being opened, as an import
    checks a game (None: nothing): a configuration the game's new-game check refuses, an action or a
    configuration larger than the app makes, or a log the engine cannot replay, naming the action."""
    meta = document["meta"]["1"]
    game, config = GAMES[meta["game"]], meta["config"]
    if len(json.dumps(config, ensure_ascii=False)) > CONFIG_BYTES:
        return Msg(N_("its configuration is larger than a new game's can be"))
    if "imported" in meta:  # no log to replay: its result is the file's (session_fault checked it)
        return imported_fault(meta)
    try:
        config = completed(game, config)
        game.new_config(config)
        flow.initial(game, config)
    except InvalidAction as error:
        return Msg(N_("its configuration is not one a new game can have ({reason})"), {"reason": error.msg})
    except CANNOT_REPLAY:
        return Msg(N_("its configuration is not one a new game can have"))
    keys, log = log_of(document)
    for key, action in zip(keys, log):
        if len(json.dumps(action, ensure_ascii=False)) > ACTION_BYTES:
            return Msg(N_("its action {n} is larger than an action can be"), {"n": key})
    try:
        flow.replay(game, config, log)
        return None
    except CANNOT_REPLAY:
        pass
    good, bad = 0, len(log)  # the log's first `good` actions replay, its first `bad` do not
    while bad - good > 1:
        middle = (good + bad) // 2
        try:
            flow.replay(game, config, log[:middle])
            good = middle
        except CANNOT_REPLAY:
            bad = middle
    reason = Msg(N_("it holds data no screen can enter"))
    try:
        flow.replay(game, config, log[:bad])
    except InvalidAction as error:
        reason = error.msg
    except CANNOT_REPLAY:
        pass
    return Msg(N_("its action {n} cannot be replayed ({reason})"), {"n": keys[bad - 1], "reason": reason})
