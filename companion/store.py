"""Storage: the only code that talks to TinyDB (this facade and its parts in companion/storage/).

Layout of the data directory:
- `companion.json`  the catalogue of sessions (id, game, players, status) and the settings;
- `texts.json`      the rule texts, seeded from `data/*.toml` whenever those files change;
- `sessions/<id>.json` one small file per session: its config and its action log;
- `sessions/<id>.log`  the session's journal: the actions recorded since its file was last written
                       whole, one JSON line each (`{"n": <place in the log>, "action": {...}}`).

A tap appends one line to its own session's journal (and fsyncs it), so recording an action costs
the same in a game of 10 actions or 10,000, and does not get slower as finished games pile up.
Every `FOLD_AT` lines, and on an undo that reaches past the journal, the journal is folded into the
session's file. Every file is written atomically (temp file in the same folder, fsync,
`os.replace`): a process killed mid-write leaves the old or the new file, never half of one; a
journal line cut off by a kill was never acknowledged and is dropped, and a line whose place the
file holds already (a kill between a fold and the journal's removal) is skipped.
A file that cannot be read is moved aside (`*.corrupt-<time>`), a notice says so in plain words,
and the app goes on; a lost or missing catalogue is rebuilt from the session files, and a session
file the catalogue does not list (written by a process killed before it listed it) is listed again:
each entry as its own file implies it (a game whose log ends finished is finished, its result
recomputed), the settings from their copy (`settings.json`), the score sheets from their games. An
import marks itself (`import.json`) before it writes its games' files; a mark found at a start is an
import a kill cut short, and it is undone.
A catalogue entry or a setting of the wrong type or range (a hand-edited or foreign file) is not
shown, with a notice; the rest of the app works.

One lock per store serialises its access (TinyDB is not thread-safe). Every write also holds the
data folder's lock (an exclusive `flock` on `companion.lock` in the folder), so that two processes
on one folder (`companion import` while the server runs) never lose each other's writes; reads need
no lock, since every file is replaced whole. A server marks the folder as its own for as long as it
runs (`claim_server`), and a second one refuses to start. Where there is no `fcntl` (Pyodide in
the browser: one process, no other to exclude) the folder lock is the thread lock alone.
"""
from __future__ import annotations

import contextlib
import shutil
import threading
from pathlib import Path
from typing import Any

from tinydb import Query, TinyDB

from .engine.model import Msg
from .games import GAME_IDS
from .storage.catalogue import Catalogue, rebuilt_entry
from .storage.checks import ACTION_BYTES, CANNOT_REPLAY, CONFIG_BYTES, LATEST, MAX_SHEETS, MINUTES, NOTE_LENGTH, \
    PLACE_LENGTH, SESSION_ID, SETTINGS, SHEET_KEYS, STATUSES, details_fault, entry_fault, imported_fault, \
    is_action, is_document, is_time, replay_fault, session_fault, setting_fault, settings_of, sheet_fault
from .storage.damaged import DamagedFiles
from .storage.files import INDEX, LOCK, SERVER, SESSIONS, SETTINGS_COPY, STAGING, TEXTS, AtomicJSONStorage, \
    FileDB, FileTable, FolderInUse, FolderLock, SessionLost, Stale, claim_server, folder_lock, os_reason, \
    server_of, write_json
from .storage.imports import IMPORTING, Imports
from .storage.journal import FOLD_AT, JOURNAL, Journal, Journals, stored_game
from .storage.trash import TRASH, Trash

__all__ = ["ACTION_BYTES", "CANNOT_REPLAY", "CONFIG_BYTES", "FOLD_AT", "IMPORTING", "INDEX", "JOURNAL", "LATEST", "LOCK",
           "MAX_SHEETS", "MINUTES", "NOTE_LENGTH", "PLACE_LENGTH", "SERVER", "SESSIONS", "SESSION_ID", "SETTINGS",
           "SETTINGS_COPY", "SHEET_KEYS", "STAGING", "STATUSES", "TEXTS", "TRASH", "AtomicJSONStorage", "FileDB",
           "FileTable", "FolderInUse", "FolderLock", "Journal", "SessionLost", "Stale", "Store", "claim_server",
           "details_fault", "entry_fault", "folder_lock", "imported_fault", "is_action", "is_document", "is_time",
           "os_reason", "rebuilt_entry", "replay_fault", "server_of", "session_fault", "setting_fault", "settings_of",
           "sheet_fault", "stored_game", "write_json"]


class Store(Catalogue, Journals, Imports, Trash, DamagedFiles):
    """Sessions, settings and rule texts. `data_dir=None` keeps everything in memory (tests).

    Its parts, by what they keep: the catalogue and the rule texts (storage/catalogue.py), the games'
    journals (storage/journal.py), imports and restores (storage/imports.py), games let go
    (storage/trash.py), damaged files (storage/damaged.py); the files themselves and their locks are
    storage/files.py, what they may hold storage/checks.py."""

    def __init__(self, data_dir: str | Path | None):
        self._lock = threading.RLock()
        self._memory: dict[str, TinyDB] | None = {} if data_dir is None else None
        self.dir = Path(data_dir) if data_dir is not None else None
        self.notices: list[Msg] = []
        self._sessions: dict[str, TinyDB] = {}
        self._journals: dict[str, Journal] = {}  # as last read or written, by session
        self._checked: dict[str, dict] = {}  # catalogue entries found right, by key, as last read
        self._skipped: set[str] = set()
        self._deleted: dict[str, dict] = {}  # deleted games that can be had back: their catalogue entries
        self._trash: dict[str, TinyDB] = {}  # (in memory) their sessions
        if self.dir is not None:
            (self.dir / SESSIONS).mkdir(parents=True, exist_ok=True)
        self._writing = folder_lock(self.dir) if self.dir is not None else contextlib.nullcontext()
        with self._lock, self._writing:
            if self.dir is not None:
                for stale in self.dir.rglob(".*.tmp"):
                    stale.unlink(missing_ok=True)
                for staging in self.dir.glob(f"{STAGING}*"):
                    shutil.rmtree(staging, ignore_errors=True)
                shutil.rmtree(self.dir / TRASH, ignore_errors=True)  # deletions no longer undone stand
            missing = self.dir is not None and not (self.dir / INDEX).exists()
            self._index, index_lost = self._open(INDEX)
            if self.dir is not None:
                self._settle_import(keep=index_lost or missing)
                self._list_unlisted(lost=index_lost, missing=missing)
                self._keep_settings(lost=index_lost or missing)
            self._texts_db, _ = self._open(TEXTS)
            self._texts: dict[str, dict[str, str]] = {}
            self.sections: dict[str, list[str]] = {}
            self._seed_texts()

    def load(self, sid: str) -> dict:
        """A session: `{"id", "game", "config", "log"}`; raises SessionLost if unreadable or not the
        shape the app writes."""
        with self._lock:
            db = self._session_db(sid)
            logged, tail = self._actions(sid, db)
            meta = db.table("meta").get(doc_id=1)
            log = [dict(doc) for doc in logged.values()] + [dict(action) for _n, _end, action in tail]
            if meta is None or meta.get("game") not in GAME_IDS or not isinstance(meta.get("config"), dict) \
                    or not all(isinstance(a.get("type"), str) and isinstance(a.get("args", {}), dict) for a in log):
                raise SessionLost(sid)
            return {"id": sid, "game": meta["game"], "config": meta["config"], "log": log,
                    **({"imported": meta["imported"]} if imported_fault(meta) is None and "imported" in meta else {})}

    def sealed(self, sid: str, kind: str) -> dict[str, Any]:
        """The sealed entries of `kind` waiting in a session (player → value)."""
        with self._lock:
            doc = self._session_db(sid).table("sealed").get(Query().kind == kind)
            return dict(doc["entries"]) if doc else {}

    def seal(self, sid: str, kind: str, player: str, value: Any, everyone: set[str]) -> dict[str, Any] | None:
        """Keep `player`'s sealed entry (written like an action: a restart loses nothing). When
        `everyone`'s is in, all are taken out at once and returned (to exactly one caller)."""
        with self._lock, self._writing:
            table = self._session_db(sid).table("sealed")
            doc = table.get(Query().kind == kind)
            entries = {**(doc["entries"] if doc else {}), player: value}
            if set(entries) >= everyone:
                table.remove(Query().kind == kind)
                return entries
            table.upsert({"kind": kind, "entries": entries}, Query().kind == kind)
            return None

