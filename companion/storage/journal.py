"""A game's journal (`sessions/<id>.log`) and its version: the actions recorded since its file was last
written whole, one fsynced line each; reading it, appending to it, and folding it into the game's file
(every `FOLD_AT` lines, and on every undo).

Each game has one version, a whole number that every recorded action and every undo raises by one:
the only notion of "current" a writer needs. The game's file holds the version its log was written at
(`meta.version`) and each journal line the version after its action (`v`), so an undo followed by
another action has a new version, where the log's length would be the same. A line says too whether
the game is finished after it (`r`: the finished game's summary), and the file's meta `result` says it
for the file's own log: the finishing action, the status and the summary are one write.

Files written before versions existed have none: their version is their log's length, and whether
such a game is finished is not written down (the catalogue's projection replays them).
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, NamedTuple

from tinydb import TinyDB

from ..messages import Msg, N_
from .checks import is_action, is_document, is_whole
from .files import SESSIONS, AtomicJSONStorage, Stale, Stamp, aside_of, stamp_of
from .parts import StorageParts

#: A session's journal (`sessions/<id>.log`), and the lines after which it is folded into the session's file.
JOURNAL, FOLD_AT = ".log", 256


class Line(NamedTuple):
    """One line of a journal: the action's place in the log (`n`), the offset where the line ends, the
    action, the game's version after it, the finished game's summary after it (None: not finished),
    and whether the line says the status at all (`said`: lines written before versions do not)."""

    n: int
    end: int
    action: dict[str, Any]
    version: int
    result: dict[str, Any] | None
    said: bool


class Journal:
    """A session's journal as read from its file: `entries` (its Lines), `end` (where the last whole line
    ends: a cut-off line after it was never acknowledged), `damaged` (a whole line that is not an
    action in its place follows), `stamp` (the file's, when read; None: no file)."""

    __slots__ = ("entries", "end", "damaged", "stamp")

    def __init__(self, entries: list[Line], end: int, damaged: bool, stamp: Stamp | None):
        self.entries, self.end, self.damaged, self.stamp = entries, end, damaged, stamp

    @classmethod
    def read(cls, path: Path) -> Journal:
        stamp = stamp_of(path)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return cls([], 0, False, None)
        entries: list[Line] = []
        end, damaged = 0, False
        for text in raw.splitlines(keepends=True):
            if not text.endswith(b"\n"):
                break  # cut off by a kill: its tap was never answered
            line = _line(text, end + len(text), entries[-1] if entries else None)
            if line is None:
                damaged = True
                break
            end = line.end
            entries.append(line)
        return cls(entries, end, damaged, stamp if stamp_of(path) == stamp else None)

    def past(self, version: int, length: int) -> tuple[list[Line], bool]:
        """The entries that follow on from a session's file at `version` with `length` actions (up to a
        damaged line), and whether that is the whole journal (no gap before them, no damaged line
        after). Lines the file holds already (a kill between a fold and the journal's removal) or that
        an undo took back (a kill between its write and the journal's removal) are not among them."""
        tail = [line for line in self.entries if line.version > version]
        if tail and (tail[0].version != version + 1 or tail[0].n != length + 1):
            return [], False
        return tail, not self.damaged


def _line(text: bytes, end: int, before: Line | None) -> Line | None:
    """A journal line read back (None: not an action in its place after `before`)."""
    try:
        doc = json.loads(text)
        n, action = doc["n"], doc["action"]
        version = doc.get("v", n)
        result = doc.get("r")
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None
    if not (is_whole(n) and n >= 1 and is_action(action) and is_whole(version) and version >= n
            and (result is None or isinstance(result, dict))):
        return None
    if before is not None and (n != before.n + 1 or version != before.version + 1):
        return None
    return Line(n, end, action, version, result, "v" in doc)


def version_of(meta: dict[str, Any], length: int) -> int:
    """The version a game's file was written at (a file from before versions: its log's length)."""
    version = meta.get("version")
    return version if is_whole(version) and version >= length else length


def stored_game(folder: str | Path, sid: str) -> dict[str, Any]:
    """A session's TinyDB document as its files hold it now, the journal folded in (its actions in the
    log, its version and status in the meta), read without a Store (which tidies the folder). The
    journal is read first: a fold that lands between the two reads then only repeats lines the file
    holds. Of a damaged journal, the actions that follow on from the file are taken (as the Store
    does). Raises OSError or ValueError when the file cannot be read."""
    path = Path(folder) / SESSIONS / f"{sid}.json"
    journal = Journal.read(path.with_suffix(JOURNAL))
    document = json.loads(path.read_bytes())
    if not is_document(document):
        raise ValueError("not a TinyDB document")
    log = document.setdefault("log", {})
    meta = document.get("meta", {}).get("1")
    if not isinstance(meta, dict):
        return document
    tail, _whole_journal = journal.past(version_of(meta, len(log)), len(log))
    after = max(map(int, log), default=0)
    for i, line in enumerate(tail, start=1):
        log[str(after + i)] = line.action
    if tail:
        _settle_meta(meta, tail[-1])
    return document


def _settle_meta(meta: dict[str, Any], last: Line) -> None:
    """The meta of a game's file once the journal up to `last` is in its log: that line's version, and
    the game's status as the line says it (a line from before versions says nothing)."""
    if not last.said:
        return
    meta["version"] = last.version
    if last.result is not None:
        meta["result"] = last.result
    else:
        meta.pop("result", None)


class Journals(StorageParts):
    """The part of `Store` that keeps the games' journals and versions: recording an action, undoing,
    and the journal's files (a mixin: it uses the locks, folders and caches `Storage.__init__` sets: StorageParts)."""

    def _journal_path(self, sid: str) -> Path:
        assert self.dir is not None
        return self.dir / SESSIONS / f"{sid}{JOURNAL}"

    def _actions(self, sid: str, db: TinyDB, writing: bool = False) -> tuple[dict[str, Any], dict[str, Any],
                                                                             list[Line]]:
        """A session's meta, its log as its file holds it (TinyDB documents by id) and the journal's
        lines after it. The journal is read first (again only when another process changed it), then
        the file: a fold by another process in between then only repeats lines the file holds. Before
        a write (`writing`, under the folder's lock) lines the file holds or an undo took back, or
        those a kill left between a fold and the journal's removal, are cleared: a line appended after
        them would not follow on."""
        meta = dict(db.table("meta").get(doc_id=1) or {})
        if self.dir is None:
            return meta, _logged(db), []
        path = self._journal_path(sid)
        journal = self._journals.get(sid)
        if journal is None or journal.stamp != stamp_of(path):
            journal = self._journals[sid] = Journal.read(path)
        logged = _logged(db)
        tail, whole = journal.past(version_of(meta, len(logged)), len(logged))
        if not whole:
            return self._repair_journal(sid, db)
        if writing and len(journal.entries) != len(tail):
            self._fold(sid, db, meta, logged, tail)
            return dict(db.table("meta").get(doc_id=1) or {}), _logged(db), []
        return meta, logged, tail

    def _repair_journal(self, sid: str, db: TinyDB) -> tuple[dict[str, Any], dict[str, Any], list[Line]]:
        """A journal that does not follow on from its session's file: read both again under the folder's
        lock (another process may have been folding it); if it still does not, keep the actions that
        do follow on (up to a damaged line), put the journal aside and say so."""
        with self._writing:
            path = self._journal_path(sid)
            journal = self._journals[sid] = Journal.read(path)
            meta = dict(db.table("meta").get(doc_id=1) or {})
            logged = _logged(db)
            tail, whole = journal.past(version_of(meta, len(logged)), len(logged))
            if whole:
                return meta, logged, tail
            if tail:
                self._write_game(db, meta, [*logged.values(), *(line.action for line in tail)], tail[-1])
            aside = aside_of(path)
            os.replace(path, aside)
            self._journals[sid] = Journal([], 0, False, None)
            self.notices.append(Msg(N_("Part of a saved game could not be read. It was moved aside as {file}; "
                                       "the game goes on from the last action that could be read."),
                                    {"file": str(aside)}))
            return dict(db.table("meta").get(doc_id=1) or {}), _logged(db), []

    @staticmethod
    def _write_game(db: TinyDB, meta: dict[str, Any], log: list[dict[str, Any]], last: Line | None = None,
                    **changes: Any) -> None:
        """Write a game's file whole, in one write: its meta (with `changes`, or as the journal's `last`
        line leaves it) and its log `log`; the other tables as they are."""
        data = {name: dict(docs) for name, docs in (db.storage.read() or {}).items()}
        meta = dict(meta)
        if last is not None:
            _settle_meta(meta, last)
        meta.update(changes)
        if meta.get("result", ...) is None:
            meta.pop("result")
        data["meta"] = {"1": meta}
        data["log"] = {str(i): dict(action) for i, action in enumerate(log, start=1)}
        db.storage.write(data)
        for name in ("meta", "log"):
            db.table(name).clear_cache()
            db.table(name)._next_id = None  # the next id from what was written

    def _append(self, sid: str, line: dict[str, Any]) -> Line:
        """Append one line to the session's journal, fsynced (a cut-off line a kill left after the last
        whole one is overwritten); the Line as a reading of the file gives it."""
        path, journal = self._journal_path(sid), self._journals[sid]
        data = (json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
            try:
                if journal.stamp is None or journal.stamp[1] != journal.end:
                    os.ftruncate(fd, journal.end)
                os.lseek(fd, journal.end, os.SEEK_SET)
                view = memoryview(data)
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
        kept = _line(data, journal.end + len(data), journal.entries[-1] if journal.entries else None)
        assert kept is not None
        journal.end = kept.end
        journal.entries.append(kept)
        journal.stamp = stamp_of(path)
        return kept

    def _clear_journal(self, sid: str) -> None:
        """Remove a session's journal (its lines are in the file now, or taken back): a removal, unlike a
        truncation, is what the browser's IndexedDB folder persists (IDBFS's autoPersist), and it is
        durable with the folder's fsync."""
        path = self._journal_path(sid)
        try:
            path.unlink(missing_ok=True)
            AtomicJSONStorage.sync_folder(path.parent)
        except BaseException:
            self._journals.pop(sid, None)
            raise
        self._journals[sid] = Journal([], 0, False, None)

    def _fold(self, sid: str, db: TinyDB, meta: dict[str, Any], logged: dict[str, Any], tail: list[Line]) -> None:
        """Write the journal's lines `tail` into the session's file (one whole write), then remove the
        journal: a kill in between leaves lines the file holds, which are skipped."""
        if tail:
            self._write_game(db, meta, [*logged.values(), *(line.action for line in tail)], tail[-1])
        journal = self._journals.get(sid)
        if journal is not None and journal.stamp is not None:
            self._clear_journal(sid)

    def version(self, sid: str) -> int:
        """The game's version now (raises SessionLost when its file cannot be read)."""
        with self._lock:
            db = self._session_db(sid)
            meta, logged, tail = self._actions(sid, db)
            return tail[-1].version if tail else version_of(meta, len(logged))

    def record(self, sid: str, action: dict[str, Any], expect: int | None = None,
               result: dict[str, Any] | None = None) -> int:
        """Persist one action (one line appended to this session's journal) and return the game's new
        version. `result` is the finished game's summary when the action finishes it (or changes the
        result of a finished game): the status is written in the same line.

        `expect` is the version the action was judged on; if the game has another version now (another
        process recorded or undid something since), nothing is written and Stale is raised.
        """
        if "at" not in action:  # the time it was recorded (the referee's actions carry theirs)
            action = {**action, "at": time.time()}
        with self._lock, self._writing:
            db = self._session_db(sid)
            meta, logged, tail = self._actions(sid, db, writing=True)
            version = tail[-1].version if tail else version_of(meta, len(logged))
            if expect is not None and version != expect:
                raise Stale(sid)
            length = len(logged) + len(tail)
            if self.dir is None:
                self._write_game(db, meta, [*logged.values(), action], version=version + 1, result=result)
                return version + 1
            line = {"n": length + 1, "v": version + 1, "action": action, **({"r": result} if result else {})}
            self._append(sid, line)
            if len(tail) + 1 >= FOLD_AT:
                self._fold(sid, db, meta, logged, self._journals[sid].past(version_of(meta, len(logged)),
                                                                          len(logged))[0])
            return version + 1

    def undo(self, sid: str, expect: int | None = None, count: int = 1, result: dict[str, Any] | None = None) -> int:
        """Remove the last `count` actions of the log and return the game's new version. `result`: the
        summary when the game is still finished after it. The game's file is written whole with the
        kept actions, the new version and the status (one write); then the journal goes (killed in
        between, its lines are of older versions and are skipped).

        `expect` is the version the undo was judged on: Stale if the game has another version now.
        """
        with self._lock, self._writing:
            db = self._session_db(sid)
            meta, logged, tail = self._actions(sid, db, writing=True)
            version = tail[-1].version if tail else version_of(meta, len(logged))
            if expect is not None and version != expect:
                raise Stale(sid)
            log = [*logged.values(), *(line.action for line in tail)]
            if not log:
                return version
            self._write_game(db, meta, log[:-max(1, count)], version=version + 1, result=result)
            if self.dir is not None and self._journals.get(sid, Journal([], 0, False, None)).stamp is not None:
                self._clear_journal(sid)
            return version + 1


def _logged(db: TinyDB) -> dict[str, Any]:
    """A session file's log as TinyDB holds it: documents by id."""
    return (db.storage.read() or {}).get("log", {})
