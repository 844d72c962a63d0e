"""Storage: the only code that talks to TinyDB, and the data folder's files. It stores and checks bytes
and shapes; it knows no game (nothing here imports the games, the rules engine or the history:
tests/test_purity.py checks). What a game's file means, which games exist and whether a log replays
is the app's store's to say (companion/store.py), through the hooks `Storage.games`, `Storage.project`
and `Storage.sheet_fault`.

Layout of the data directory:
- `companion.json`  the catalogue of games (id, game, players, status, result) and the score sheets;
- `settings.json`   the settings (the language, the table's join token);
- `texts.json`      the rule texts, seeded from `data/*.toml` whenever those files change;
- `sessions/<id>.json` one small file per game: its configuration, its action log, its version and status;
- `sessions/<id>.log`  the game's journal: the actions recorded since its file was last written whole,
                       one JSON line each (`{"n": <place in the log>, "v": <version>, "action": {...}}`).

A tap appends one line to its own game's journal (and fsyncs it), so recording an action costs the same
in a game of 10 actions or 10,000, and does not get slower as finished games pile up. Every `FOLD_AT`
lines, and on every undo, the journal is folded into the game's file. Every file is written atomically
(temp file in the same folder, fsync, `os.replace`): a process killed mid-write leaves the old or the
new file, never half of one; a journal line cut off by a kill was never acknowledged and is dropped, and
a line of a version the file holds already (a kill between a fold and the journal's removal) is skipped.
A file that cannot be read is moved aside (`*.corrupt-<time>`), a notice says so in plain words, and the
app goes on; a lost or missing catalogue is rebuilt from the game files, and a game file the catalogue
does not list (written by a process killed before it listed it) is listed again: each entry as its own
file implies it, the score sheets from their games. An import marks itself (`import.json`) before it
writes its games' files; a mark found at a start is an import a kill cut short, and it is undone. A
catalogue entry or a setting of the wrong type or range (a hand-edited or foreign file) is not shown,
with a notice; the rest of the app works.

One lock per store serialises its access (TinyDB is not thread-safe). Every write also holds the data
folder's lock (an exclusive `flock` on `companion.lock` in the folder), so that two processes on one
folder (`companion import` while the server runs) never lose each other's writes; reads need no lock,
since every file is replaced whole. A server marks the folder as its own for as long as it runs
(`claim_server`), and a second one refuses to start. Where there is no `fcntl` (Pyodide in the browser:
one process, no other to exclude) the folder lock is the thread lock alone.
"""
from __future__ import annotations

import contextlib
import shutil
import threading
from pathlib import Path
from typing import Any

from tinydb import Query, TinyDB

from ..messages import Msg
from .catalogue import Catalogue
from .checks import imported_fault, is_game, sheet_shape_fault
from .damaged import DamagedFiles
from .files import INDEX, SESSIONS, STAGING, TEXTS, SessionLost, Stamp, folder_lock
from .imports import Imports
from .journal import Journal, Journals, version_of
from .trash import TRASH, Trash


class Storage(Catalogue, Journals, Imports, Trash, DamagedFiles):
    """Games, settings and rule texts, as files. `data_dir=None` keeps everything in memory (tests).

    Its parts, by what they keep: the catalogue, the settings and the rule texts (catalogue.py), the
    games' journals and versions (journal.py), imports and restores (imports.py), games let go
    (trash.py), damaged files (damaged.py); the files themselves and their locks are files.py, what
    they may hold checks.py."""

    def __init__(self, data_dir: str | Path | None):
        self._lock = threading.RLock()
        self._memory: dict[str, TinyDB] | None = {} if data_dir is None else None
        self.dir = Path(data_dir) if data_dir is not None else None
        self.notices: list[Msg] = []
        self._sessions: dict[str, TinyDB] = {}
        self._journals: dict[str, Journal] = {}  # as last read or written, by session
        self._checked: dict[str, dict[str, Any]] = {}  # catalogue entries found right, by key, as last read
        self._skipped: set[str] = set()
        self._deleted: dict[str, dict[str, Any]] = {}  # deleted games that can be had back: their catalogue entries
        self._trash: dict[str, TinyDB] = {}  # (in memory) their sessions
        self._settings: dict[str, Any] = {}
        self._settings_stamp: Stamp | None = None  # settings.json as last read or written
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
            self._read_settings()
            if self.dir is not None:
                self._settle_import(keep=index_lost or missing)
                self._list_unlisted(lost=index_lost, missing=missing)
                self._reproject()
            self._texts_db, _ = self._open(TEXTS)
            self._texts: dict[str, dict[str, str]] = {}
            self.sections: dict[str, list[str]] = {}
            self._seed_texts()

    def sheet_fault(self, sheet: Any) -> Msg | None:
        """What is wrong with a saved score sheet (None: nothing); here its shape only."""
        return sheet_shape_fault(sheet)

    def load(self, sid: str) -> dict[str, Any]:
        """A game: `{"id", "game", "config", "log", "version"}` (and `imported`, a game from BG Stats);
        raises SessionLost if unreadable or not the shape the app writes."""
        with self._lock:
            db = self._session_db(sid)
            meta, logged, tail = self._actions(sid, db)
            log = [dict(doc) for doc in logged.values()] + [dict(line.action) for line in tail]
            if not meta or not is_game(meta.get("game"), self.games) or not isinstance(meta.get("config"), dict) \
                    or not all(isinstance(a.get("type"), str) and isinstance(a.get("args", {}), dict) for a in log):
                raise SessionLost(sid)
            version = tail[-1].version if tail else version_of(meta, len(logged))
            return {"id": sid, "game": meta["game"], "config": meta["config"], "log": log, "version": version,
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
