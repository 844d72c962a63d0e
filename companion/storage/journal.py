"""A game's journal (`sessions/<id>.log`): the actions recorded since its file was last written whole,
one fsynced line each; reading it, appending to it, cutting it short on an undo, and folding it into
the game's file every `FOLD_AT` lines."""
from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

from tinydb import TinyDB

from ..engine.model import Msg, N_
from .checks import is_action, is_document, is_whole
from .files import SESSIONS, AtomicJSONStorage, Stale, aside_of, stamp_of

#: A session's journal (`sessions/<id>.log`), and the lines after which it is folded into the session's file.
JOURNAL, FOLD_AT = ".log", 256


def _logged(db: TinyDB) -> dict:
    """A session file's log as TinyDB holds it: documents by id."""
    return (db.storage.read() or {}).get("log", {})


class Journal:
    """A session's journal as read from its file: `entries` `(n, end, action)` (the action's place in
    the log, the offset where its line ends), `end` (where the last whole line ends: a cut-off line
    after it was never acknowledged), `damaged` (a whole line that is not an action in its place
    follows), `stamp` (the file's, when read; None: no file)."""

    __slots__ = ("entries", "end", "damaged", "stamp")

    def __init__(self, entries: list, end: int, damaged: bool, stamp: tuple | None):
        self.entries, self.end, self.damaged, self.stamp = entries, end, damaged, stamp

    @classmethod
    def read(cls, path: Path) -> Journal:
        stamp = stamp_of(path)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return cls([], 0, False, None)
        entries, end, damaged = [], 0, False
        for line in raw.splitlines(keepends=True):
            if not line.endswith(b"\n"):
                break  # cut off by a kill: its tap was never answered
            try:
                doc = json.loads(line)
                n, action = doc["n"], doc["action"]
                good = is_whole(n) and n >= 1 and is_action(action) and (not entries or n == entries[-1][0] + 1)
            except (ValueError, KeyError, TypeError, RecursionError):
                good = False
            if not good:
                damaged = True
                break
            end += len(line)
            entries.append((n, end, action))
        return cls(entries, end, damaged, stamp if stamp_of(path) == stamp else None)

    def past(self, base: int) -> tuple[list, bool]:
        """The entries that follow on from the `base` actions of the session's file (up to a damaged
        line), and whether that is the whole journal (no gap before them, no damaged line after)."""
        tail = [entry for entry in self.entries if entry[0] > base]
        if tail and tail[0][0] != base + 1:
            return [], False
        return tail, not self.damaged


def stored_game(folder: str | Path, sid: str) -> dict:
    """A session's TinyDB document as its files hold it now, the journal folded in, read without a Store
    (which tidies the folder). The journal is read first: a fold that lands between the two reads
    then only repeats lines the file holds. Of a damaged journal, the actions that follow on from the
    file are taken (as the Store does). Raises OSError or ValueError when the file cannot be read."""
    path = Path(folder) / SESSIONS / f"{sid}.json"
    journal = Journal.read(path.with_suffix(JOURNAL))
    document = json.loads(path.read_bytes())
    if not is_document(document):
        raise ValueError("not a TinyDB document")
    log = document.setdefault("log", {})
    tail, _whole_journal = journal.past(len(log))
    after = max(map(int, log), default=0)
    for i, (_n, _end, action) in enumerate(tail, start=1):
        log[str(after + i)] = action
    return document


class Journals:
    """The part of `Store` that keeps the games' journals: recording an action, undoing, and the
    journal's files (a mixin: it uses the locks, folders and caches `Store.__init__` sets)."""

    def _journal_path(self, sid: str) -> Path:
        return self.dir / SESSIONS / f"{sid}{JOURNAL}"

    def _actions(self, sid: str, db: TinyDB, writing: bool = False) -> tuple[dict, list]:
        """A session's log as its file holds it (TinyDB documents by id) and the journal's entries after
        it. The journal is read first (again only when another process changed it), then the file: a
        fold by another process in between then only repeats lines the file holds. Before a write
        (`writing`, under the folder's lock) such lines, or those a kill left between a fold and the
        journal's removal, are cleared: a line appended after them would not follow on."""
        if self.dir is None:
            return _logged(db), []
        path = self._journal_path(sid)
        journal = self._journals.get(sid)
        if journal is None or journal.stamp != stamp_of(path):
            journal = self._journals[sid] = Journal.read(path)
        logged = _logged(db)
        tail, whole = journal.past(len(logged))
        if not whole:
            return self._repair_journal(sid, db)
        if writing and len(journal.entries) != len(tail):
            self._fold(sid, db, tail)
            return _logged(db), []
        return logged, tail

    def _repair_journal(self, sid: str, db: TinyDB) -> tuple[dict, list]:
        """A journal that does not follow on from its session's file: read both again under the folder's
        lock (another process may have been folding it); if it still does not, keep the actions that
        do follow on (up to a damaged line), put the journal aside and say so."""
        with self._writing:
            path = self._journal_path(sid)
            journal = self._journals[sid] = Journal.read(path)
            logged = _logged(db)
            tail, whole = journal.past(len(logged))
            if whole:
                return logged, tail
            if tail:
                db.table("log").insert_multiple([action for _n, _end, action in tail])
            aside = aside_of(path)
            os.replace(path, aside)
            self._journals[sid] = Journal([], 0, False, None)
            self.notices.append(Msg(N_("Part of a saved game could not be read. It was moved aside as {file}; "
                                       "the game goes on from the last action that could be read."),
                                    {"file": str(aside)}))
            return _logged(db), []

    def _append(self, sid: str, n: int, action: dict) -> None:
        """Add the `n`-th action of the log to the session's journal: one line, fsynced (a cut-off line a
        kill left after the last whole one is overwritten)."""
        path, journal = self._journal_path(sid), self._journals[sid]
        line = (json.dumps({"n": n, "action": action}, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        kept = json.loads(line)["action"]  # exactly what a reading of the file gives
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
            try:
                if journal.stamp is None or journal.stamp[1] != journal.end:
                    os.ftruncate(fd, journal.end)
                os.lseek(fd, journal.end, os.SEEK_SET)
                view = memoryview(line)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            finally:
                os.close(fd)
            if journal.stamp is None:  # a new file: its name made durable too
                AtomicJSONStorage.sync_folder(path.parent)
        except BaseException:
            self._journals.pop(sid, None)  # read the file again next time
            raise
        journal.end += len(line)
        journal.entries.append((n, journal.end, kept))
        journal.stamp = stamp_of(path)

    def _cut(self, sid: str, keep: int) -> None:
        """Shorten the session's journal to its first `keep` entries: a file of those lines takes its
        place (temp file, fsync, `os.replace`), or it is removed when none are kept. A rename and a
        removal, unlike a truncation, are what the browser's IndexedDB folder persists (IDBFS's
        autoPersist), and either is durable with the folder's fsync."""
        path, journal = self._journal_path(sid), self._journals[sid]
        end = journal.entries[keep - 1][1] if keep else 0
        try:
            if keep:
                with open(path, "rb") as handle:
                    head = handle.read(end)
                tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
                with open(tmp, "wb") as handle:
                    handle.write(head)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, path)
            else:
                path.unlink(missing_ok=True)
            AtomicJSONStorage.sync_folder(path.parent)
        except BaseException:
            self._journals.pop(sid, None)
            raise
        journal.entries, journal.end, journal.stamp = journal.entries[:keep], end, stamp_of(path)

    def _fold(self, sid: str, db: TinyDB, tail: list) -> None:
        """Write the journal's actions `tail` into the session's file (one whole write), then empty the
        journal: a kill in between leaves lines whose places the file holds, which are skipped."""
        if tail:
            db.table("log").insert_multiple([action for _n, _end, action in tail])
        journal = self._journals.get(sid)
        if journal is not None and journal.stamp is not None:
            self._cut(sid, 0)

    def record(self, sid: str, action: dict, expect: int | None = None) -> None:
        """Persist one action (one line appended to this session's journal).

        `expect` is the log length the action was based on; if another screen has recorded
        since, nothing is written and Stale is raised.
        """
        with self._lock, self._writing:
            db = self._session_db(sid)
            logged, tail = self._actions(sid, db, writing=True)
            length = len(logged) + len(tail)
            if expect is not None and length != expect:
                raise Stale(sid)
            action = {**action, "at": time.time()}
            if self.dir is None:
                db.table("log").insert(action)
                return
            self._append(sid, length + 1, action)
            if len(tail) + 1 >= FOLD_AT:
                self._fold(sid, db, self._journals[sid].past(len(logged))[0])

    def undo(self, sid: str, expect: int | None = None, count: int = 1) -> dict | None:
        """Remove the last `count` actions of the log (in one write) and return the earliest of them
        (None when the log is empty).

        `expect` is the log length the undo was based on: Stale if another screen recorded since.
        """
        with self._lock, self._writing:
            db = self._session_db(sid)
            logged, tail = self._actions(sid, db, writing=True)
            if expect is not None and len(logged) + len(tail) != expect:
                raise Stale(sid)
            if not logged and not tail:
                return None
            count = max(1, count)
            if count <= len(tail):  # all of them in the journal: it is cut short
                entries = self._journals[sid].entries
                first = tail[-count]
                self._cut(sid, entries.index(first))
                return dict(first[2])
            self._fold(sid, db, tail)
            log = db.table("log")
            gone = log.all()[-count:]
            log.remove(doc_ids=[d.doc_id for d in gone])
            return dict(gone[0])

