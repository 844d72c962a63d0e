"""Damaged files: a TinyDB file that cannot be read is moved aside and a fresh one started, with a
notice; a game's file that cannot be read marks the game damaged in the catalogue."""
from __future__ import annotations

import contextlib
import os

from tinydb import Query, TinyDB
from tinydb.storages import MemoryStorage

from ..messages import Msg, N_
from .parts import StorageParts
from .files import SESSIONS, AtomicJSONStorage, FileDB, SessionLost, aside_of


class DamagedFiles(StorageParts):
    """The part of `Store` that opens its files and moves a damaged one aside (a mixin: it uses the
    locks, folders and caches `Storage.__init__` sets: StorageParts)."""

    def _open(self, name: str) -> tuple[TinyDB, bool]:
        """Open one TinyDB file; an unreadable one is moved aside and replaced by an empty one."""
        if self._memory is not None:
            if name not in self._memory:
                self._memory[name] = TinyDB(storage=MemoryStorage)
            return self._memory[name], False
        path = self.folder / name
        db = FileDB(path, storage=AtomicJSONStorage)
        try:
            db.tables()
            return db, False
        except (ValueError, UnicodeDecodeError, RecursionError):
            db.close()
        with self._writing:
            aside = aside_of(path)
            os.replace(path, aside)
        self.notices.append(Msg(N_("A damaged data file could not be read. It was moved aside as {file} and "
                                   "a fresh one was started; nothing else was touched."), {"file": str(aside)}))
        return FileDB(path, storage=AtomicJSONStorage), True

    def _session_db(self, sid: str) -> TinyDB:
        if sid not in self._sessions:
            if self._memory is not None:
                self._sessions[sid] = self._open(f"{SESSIONS}/{sid}")[0]
            else:
                path = self.folder / SESSIONS / f"{sid}.json"
                if not path.exists():
                    raise SessionLost(sid)
                db, lost = self._open(f"{SESSIONS}/{sid}.json")
                if lost:
                    db.close()
                    with self._writing:
                        (self.folder / SESSIONS / f"{sid}.json").unlink(missing_ok=True)
                        with contextlib.suppress(FileNotFoundError):  # its journal goes aside with it
                            os.replace(self._journal_path(sid), aside_of(self._journal_path(sid)))
                        self._index.table("sessions").update({"status": "damaged"}, Query().id == sid)
                    raise SessionLost(sid)
                self._sessions[sid] = db
        return self._sessions[sid]

