"""Storage: the only module that talks to TinyDB.

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
import errno
import json
import os
import re
import shutil
import threading
import time
import uuid
from pathlib import Path
from collections.abc import Callable, Iterable, Mapping
from typing import Any

try:
    import fcntl
except ImportError:  # Pyodide (and Windows): no other process to lock out
    fcntl = None

from tinydb import Query, TinyDB
from tinydb.storages import MemoryStorage, Storage
from tinydb.table import Table

from . import history
from . import table as table_mode
from . import texts as text_data
from .engine import flow
from .engine.model import InvalidAction, Msg, N_, P_
from .games import GAME_IDS, GAMES
from .games.score_sheet.rules import check_sheet

INDEX, TEXTS, SESSIONS = "companion.json", "texts.json", "sessions"
#: A copy of the settings (the language, the join token), kept beside the catalogue: a catalogue that
#: is lost or cut short takes them back from here.
SETTINGS_COPY = "settings.json"
#: An import in progress (`{"ids": [...]}`): written before its games' files, removed once the
#: catalogue lists them. One found at a start is an import a kill cut short: its games go again.
IMPORTING = "import.json"
#: What replaying a log that no screen could have written raises (a game file edited by hand, a
#: foreign backup): the game is damaged, and is never replayed on a screen's way.
CANNOT_REPLAY = (InvalidAction, KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError)
#: A session's journal (`sessions/<id>.log`), and the lines after which it is folded into the session's file.
JOURNAL, FOLD_AT = ".log", 256
#: The folder's write lock, and the mark of the server that serves it (its pid and address).
LOCK, SERVER = "companion.lock", "server.lock"
#: A restore unpacks into `<data>/.restore-<pid>` first (see backup.py); one left by a killed restore goes.
STAGING = ".restore-"
#: A session id (also its file's name): 12 hex digits.
SESSION_ID = re.compile(r"[0-9a-f]{12}")
STATUSES = ("active", "finished", "damaged", "abandoned")
#: Where a deleted game's files wait while its deletion can still be undone (emptied at every start).
TRASH = "deleted"
#: Times the screens show: from 1970 to 2100 (a time outside is not a time of a game played).
LATEST = 4_102_444_800


class FolderLock:
    """A data folder's lock for writing: this process's threads one at a time (a re-entrant lock) and
    other processes shut out (an exclusive `flock` on `companion.lock`, taken by the outermost hold
    only). One per folder per process: see `folder_lock`."""

    def __init__(self, folder: Path):
        self.path = folder / LOCK
        self._thread = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    def __enter__(self) -> FolderLock:
        self._thread.acquire()
        try:
            if self._depth == 0 and fcntl is not None:
                if self._fd is None:
                    self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
                fcntl.flock(self._fd, fcntl.LOCK_EX)
        except BaseException:
            self._thread.release()
            raise
        self._depth += 1
        return self

    def __exit__(self, *_exc) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        self._thread.release()


_folder_locks: dict[str, FolderLock] = {}
_folder_locks_guard = threading.Lock()


def folder_lock(folder: str | Path) -> FolderLock:
    """The lock of the data folder `folder` (the same object for every store and restore of this process)."""
    key = os.path.realpath(folder)
    with _folder_locks_guard:
        if key not in _folder_locks:
            _folder_locks[key] = FolderLock(Path(folder))
        return _folder_locks[key]


class FolderInUse(Exception):
    """Another server serves this data folder; `holder` says which (`pid`, `url`), as far as known."""

    def __init__(self, folder: str | Path, holder: dict):
        self.folder, self.holder = Path(folder), holder
        where = ", ".join(f"{k} {holder[k]}" for k in ("pid", "url") if k in holder) or "another process"
        super().__init__(f"the data folder {folder} is in use by a companion server ({where})")


def _holder(fd: int) -> dict:
    try:
        data = json.loads(os.pread(fd, 4096, 0) or b"{}")
    except (OSError, ValueError):
        return {}
    return {k: data[k] for k in ("pid", "url") if isinstance(data, dict) and isinstance(data.get(k), (int, str))}


def claim_server(folder: str | Path, about: dict) -> int | None:
    """Mark the data folder as served by this process (`about`: its `pid` and `url`) for as long as
    it runs: the mark is an exclusive `flock` on `server.lock`, which ends with the process however
    it ends. Raises FolderInUse, naming the server that has it. Returns the descriptor to keep."""
    if fcntl is None:
        return None
    fd = os.open(Path(folder) / SERVER, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _holder(fd)
        os.close(fd)
        raise FolderInUse(folder, holder) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, json.dumps(about).encode(), 0)
    return fd


def server_of(folder: str | Path) -> dict | None:
    """The server that serves `folder` (`{"pid", "url"}`, as far as known), or None if none does."""
    if fcntl is None:
        return None
    try:
        fd = os.open(Path(folder) / SERVER, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return _holder(fd)
    finally:
        os.close(fd)  # closing also lets go of a shared lock taken
    return None


class AtomicJSONStorage(Storage):
    """TinyDB storage that replaces the whole file atomically on every write.

    It remembers what it last wrote (parsed back from the written text, so exactly what the file
    holds) or read, while the file is the one it wrote or read (same inode, size and time: another
    process, such as `companion import`, replaces it with a new one). The phones of a table read the
    game they follow after every tap, and the history reads a catalogue of thousands of games on
    every screen; parsing them from disk each time would only cost time."""

    def __init__(self, path: str | Path, **_kwargs: Any):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._written: dict | None = None
        self._stamp: tuple | None = None

    def _file_stamp(self) -> tuple | None:
        return _stamp(self.path)

    def read(self) -> dict | None:
        if self._written is not None and self._file_stamp() == self._stamp:
            return self._written
        stamp = self._file_stamp()
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        if not raw.strip():
            return None
        data = json.loads(raw)
        if not is_document(data):
            raise ValueError("not a TinyDB document")
        if stamp is not None and self._file_stamp() == stamp:  # not replaced while it was read
            self._written, self._stamp = data, stamp
        return data

    def write(self, data: dict) -> None:
        self._written = None  # TinyDB changed it in place: until the file holds it, read the file
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)
        self._written, self._stamp = json.loads(text), self._file_stamp()
        self.sync_folder(self.path.parent)

    @staticmethod
    def sync_folder(folder: Path) -> None:
        """Make the folder's new names durable (fsync of the folder), where the platform allows it."""
        try:
            fd = os.open(folder, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def close(self) -> None:
        pass


class FileTable(Table):
    """A TinyDB table that takes the next document id from the file, not from its own count, and keeps
    no query cache: another process (`companion import` while the server runs) may have changed the
    file since."""

    default_query_cache_capacity = 0

    def insert(self, document):
        self._next_id = None
        return super().insert(document)

    def insert_multiple(self, documents):
        self._next_id = None
        return super().insert_multiple(documents)


class FileDB(TinyDB):
    table_class = FileTable


def _aside(path: Path) -> Path:
    """Where a damaged file is moved aside: beside it, named with the time."""
    return path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")


def _logged(db: TinyDB) -> dict:
    """A session file's log as TinyDB holds it: documents by id."""
    return (db.storage.read() or {}).get("log", {})


def _stamp(path: Path) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


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
        stamp = _stamp(path)
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
                good = _whole(n) and n >= 1 and is_action(action) and (not entries or n == entries[-1][0] + 1)
            except (ValueError, KeyError, TypeError, RecursionError):
                good = False
            if not good:
                damaged = True
                break
            end += len(line)
            entries.append((n, end, action))
        return cls(entries, end, damaged, stamp if _stamp(path) == stamp else None)

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


class Stale(Exception):
    """An action was based on an older log than the stored one (another screen acted first)."""


class SessionLost(Exception):
    """A session file could not be read (it was moved aside); the notice says where."""


class Store:
    """Sessions, settings and rule texts. `data_dir=None` keeps everything in memory (tests)."""

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

    # -- files ---------------------------------------------------------------------------------

    def _open(self, name: str) -> tuple[TinyDB, bool]:
        """Open one TinyDB file; an unreadable one is moved aside and replaced by an empty one."""
        if self._memory is not None:
            if name not in self._memory:
                self._memory[name] = TinyDB(storage=MemoryStorage)
            return self._memory[name], False
        path = self.dir / name
        db = FileDB(path, storage=AtomicJSONStorage)
        try:
            db.tables()
            return db, False
        except (ValueError, UnicodeDecodeError, RecursionError):
            db.close()
        with self._writing:
            aside = _aside(path)
            os.replace(path, aside)
        self.notices.append(Msg(N_("A damaged data file could not be read. It was moved aside as {file} and "
                                   "a fresh one was started; nothing else was touched."), {"file": str(aside)}))
        return FileDB(path, storage=AtomicJSONStorage), True

    def _list_unlisted(self, lost: bool, missing: bool) -> None:
        """List every readable session file the catalogue does not list: all of them when the catalogue
        was unreadable (`lost`) or is `missing`, else those of a process killed between writing a
        game's file and listing it. Each entry is what the game's own file implies (`rebuilt_entry`):
        a game whose log ends finished is listed finished, with its result. A catalogue rebuilt
        whole also takes back the score sheets its games were played on."""
        table = self._index.table("sessions")
        listed = {doc.get("id") for doc in table.all()}
        found, sheets = [], {}
        for path in sorted((self.dir / SESSIONS).glob("*.json")):
            if path.stem in listed or not SESSION_ID.fullmatch(path.stem):
                continue
            try:
                document = stored_game(self.dir, path.stem)
                entry = rebuilt_entry(path.stem, document)
            except (ValueError, KeyError, TypeError, AttributeError, OSError, RecursionError):
                continue
            if entry_fault(entry) is None:
                found.append(entry)
                sheet = document["meta"]["1"]["config"].get("sheet")
                if (lost or missing) and sheet_fault(sheet) is None:
                    sheets.setdefault(sheet["id"], sheet)
        known = {doc.get("id") for doc in self._index.table("sheets").all()}
        self._insert({"sessions": found, "sheets": [s for i, s in sheets.items() if i not in known]})
        if lost or missing and found:
            self.notices.append(Msg(N_("The list of games was rebuilt from the saved games.")))
        elif found:
            self.notices.append(P_("A saved game was missing from the list of games; it is listed again.",
                                   "{n} saved games were missing from the list of games; they are listed again.",
                                   len(found)))

    def _settle_import(self, keep: bool) -> None:
        """An import a kill cut short (its mark `IMPORTING` is still there) is undone: the game files it
        wrote before its catalogue write go, so the folder is as before it. When the catalogue lists
        its games (the kill came after that write), or the catalogue was lost (`keep`: they are listed
        again from their files), only the mark goes."""
        mark = self.dir / IMPORTING
        try:
            ids = json.loads(mark.read_bytes())["ids"]
        except FileNotFoundError:
            return
        except (ValueError, KeyError, TypeError, OSError, RecursionError):
            ids = []
        ids = [sid for sid in ids if isinstance(sid, str) and SESSION_ID.fullmatch(sid)] \
            if isinstance(ids, list) else []
        listed = {doc.get("id") for doc in self._index.table("sessions").all()}
        if not keep and not listed.intersection(ids):
            for sid in ids:
                (self.dir / SESSIONS / f"{sid}.json").unlink(missing_ok=True)
                self._journal_path(sid).unlink(missing_ok=True)
            if ids:
                self.notices.append(Msg(N_("An import was interrupted before it finished; it was undone, "
                                           "and no game was changed. Import the file again.")))
        mark.unlink(missing_ok=True)
        AtomicJSONStorage.sync_folder(self.dir)

    def _keep_settings(self, lost: bool = False) -> None:
        """Keep the copy of the settings (`SETTINGS_COPY`) the same as the catalogue's; a catalogue that
        was `lost` takes them back from the copy."""
        table = self._index.table("settings")
        path = self.dir / SETTINGS_COPY
        if lost and len(table) == 0:
            try:
                copy = json.loads(path.read_bytes())
            except (OSError, ValueError, RecursionError):
                copy = None
            if isinstance(copy, list):
                kept = settings_of(copy)
                if kept:
                    self._insert({"settings": kept})
        current = settings_of(table.all())
        try:
            if json.loads(path.read_bytes()) == current:
                return
        except (OSError, ValueError, RecursionError):
            pass
        write_json(path, current)

    def _insert(self, tables: dict[str, list[dict]]) -> None:
        """Add documents to several tables of the catalogue in one write (all of them, or none)."""
        tables = {name: docs for name, docs in tables.items() if docs}
        if not tables:
            return
        data = {name: dict(docs) for name, docs in (self._index.storage.read() or {}).items()}
        for name, docs in tables.items():
            table = data.setdefault(name, {})
            after = max(map(int, table), default=0)
            for i, doc in enumerate(docs, start=1):
                table[str(after + i)] = dict(doc)
        self._index.storage.write(data)
        for name in tables:
            self._index.table(name).clear_cache()
            self._index.table(name)._next_id = None  # the next id from what was written

    def _session_db(self, sid: str) -> TinyDB:
        if sid not in self._sessions:
            if self._memory is not None:
                self._sessions[sid] = self._open(f"{SESSIONS}/{sid}")[0]
            else:
                path = self.dir / SESSIONS / f"{sid}.json"
                if not path.exists():
                    raise SessionLost(sid)
                db, lost = self._open(f"{SESSIONS}/{sid}.json")
                if lost:
                    db.close()
                    with self._writing:
                        (self.dir / SESSIONS / f"{sid}.json").unlink(missing_ok=True)
                        with contextlib.suppress(FileNotFoundError):  # its journal goes aside with it
                            os.replace(self._journal_path(sid), _aside(self._journal_path(sid)))
                        self._index.table("sessions").update({"status": "damaged"}, Query().id == sid)
                    raise SessionLost(sid)
                self._sessions[sid] = db
        return self._sessions[sid]

    # -- journals ------------------------------------------------------------------------------

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
        if journal is None or journal.stamp != _stamp(path):
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
            aside = _aside(path)
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
        journal.stamp = _stamp(path)

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
        journal.entries, journal.end, journal.stamp = journal.entries[:keep], end, _stamp(path)

    def _fold(self, sid: str, db: TinyDB, tail: list) -> None:
        """Write the journal's actions `tail` into the session's file (one whole write), then empty the
        journal: a kill in between leaves lines whose places the file holds, which are skipped."""
        if tail:
            db.table("log").insert_multiple([action for _n, _end, action in tail])
        journal = self._journals.get(sid)
        if journal is not None and journal.stamp is not None:
            self._cut(sid, 0)

    # -- rule texts ----------------------------------------------------------------------------

    def _seed_texts(self) -> None:
        """Seed the rule-text table from data/ when the files changed; then serve it from memory."""
        with self._lock:
            meta = self._texts_db.table("meta")
            stamp = text_data.fingerprint()
            current = meta.get(doc_id=1)
            if not current or current.get("fingerprint") != stamp:
                values, sections = text_data.load_all()
                with self._writing:
                    self._texts_db.drop_tables()
                    self._texts_db.table("texts").insert_multiple({"key": k, **v} for k, v in values.items())
                    self._texts_db.table("sections").insert_multiple({"game": g, "ids": ids}
                                                                     for g, ids in sections.items())
                    self._texts_db.table("meta").insert({"fingerprint": stamp})
            self._texts = {doc["key"]: {k: v for k, v in doc.items() if k != "key"}
                           for doc in self._texts_db.table("texts").all()}
            self.sections = {doc["game"]: doc["ids"] for doc in self._texts_db.table("sections").all()}

    def text(self, key: str, lang: str) -> str:
        """A rule text in `lang` (falling back to English, then to the key itself)."""
        entry = self._texts.get(key)
        if entry is None:
            return key
        return entry.get(lang) or entry.get("en") or key

    def text_keys(self) -> Iterable[str]:
        return self._texts.keys()

    # -- settings ------------------------------------------------------------------------------

    def setting(self, name: str, default: Any = None) -> Any:
        """A setting's value; `default` when it is not set, or set to a value it cannot have."""
        with self._lock:
            doc = self._index.table("settings").get(Query().name == name)
            return default if doc is None or setting_fault(doc) is not None else doc["value"]

    def set_setting(self, name: str, value: Any) -> None:
        with self._lock, self._writing:
            self._index.table("settings").upsert({"name": name, "value": value}, Query().name == name)
            if self.dir is not None:
                self._keep_settings()

    # -- sessions ------------------------------------------------------------------------------

    def create_session(self, game: str, config: dict) -> str:
        sid = uuid.uuid4().hex[:12]
        meta = {"game": game, "config": config, "created": time.time()}
        with self._lock, self._writing:
            db = self._open(f"{SESSIONS}/{sid}" + ("" if self._memory is not None else ".json"))[0]
            db.table("meta").insert(meta)
            self._sessions[sid] = db
            self._index.table("sessions").insert(_entry(sid, meta))
        return sid

    def import_sessions(self, sessions: list[dict], sheets: Iterable[dict] = ()) -> list[str]:
        """Store many sessions at once (`{"game", "config", "log", "status"}` each) and the score
        `sheets` they come with: one file per session, then a single write of the catalogue (entries
        and sheets together). An import a kill cuts short is undone at the next start (`IMPORTING`).
        Returns the new ids."""
        entries, ids = [], [uuid.uuid4().hex[:12] for _session in sessions]
        with self._lock, self._writing:
            if self._memory is None:
                self._settle_import(keep=False)  # one killed while this store ran goes first: its mark is replaced
                write_json(self.dir / IMPORTING, {"ids": ids})
            for sid, session in zip(ids, sessions):
                meta = {"game": session["game"], "config": session["config"],
                        "created": session.get("created", time.time()),
                        **({"details": session["details"]} if session.get("details") else {}),
                        **({"abandoned": True} if session.get("status") == "abandoned" else {}),
                        **({"imported": dict(session["imported"], result=session["result"])}
                           if session.get("imported") else {})}
                name = f"{SESSIONS}/{sid}" + ("" if self._memory is not None else ".json")
                db = self._open(name)[0]
                db.storage.write({"meta": {"1": meta},
                                  "log": {str(i + 1): action for i, action in enumerate(session["log"])}})
                if self._memory is None:
                    db.close()
                entries.append(dict(_entry(sid, meta), status=session.get("status", "active"),
                                    **({"result": session["result"]} if session.get("result") else {}),
                                    **({"details": session["details"]} if session.get("details") else {})))
            self._insert({"sessions": entries, "sheets": list(sheets)})
            if self._memory is None:
                (self.dir / IMPORTING).unlink()
                AtomicJSONStorage.sync_folder(self.dir)
        return ids

    def replace_files(self, change: Callable[[], Any]) -> Any:
        """Run `change`, which replaces the data folder's files (a restore), with the store and the
        folder locked; then read every file afresh. Returns what `change` returned."""
        with self._lock, self._writing:
            try:
                return change()
            finally:
                for db in self._sessions.values():
                    db.close()
                self._sessions.clear()
                self._journals.clear()
                self._checked.clear()
                self._skipped.clear()
                self._index = self._open(INDEX)[0]
                self._keep_settings()

    def sessions(self, status: str | None = None) -> list[dict]:
        """Catalogue entries, newest first (optionally only those with `status`). An entry of the
        wrong shape (a hand-edited or foreign catalogue) is left out, with a notice the first time."""
        with self._lock:
            raw = (self._index.storage.read() or {}).get("sessions", {})
            docs = []
            for key, doc in raw.items():
                if self._checked.get(key) is not doc:  # each entry is checked once as read from the file
                    if entry_fault(doc) is not None:
                        if key not in self._skipped:
                            self._skipped.add(key)
                            self.notices.append(Msg(N_("An entry of the list of games is damaged and is not "
                                                       "shown (entry {n}); the other games are not affected."),
                                                    {"n": key}))
                        continue
                    self._checked[key] = doc
                if status is None or doc["status"] == status:
                    docs.append(dict(doc))
            return sorted(docs, key=lambda d: d["created"], reverse=True)

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

    def set_status(self, sid: str, status: str, result: dict | None = None) -> None:
        """active → finished (with the summary the history keeps) and back on undo; written to the
        catalogue only when it changes, never on an ordinary tap."""
        with self._lock, self._writing:
            table = self._index.table("sessions")
            doc = table.get(Query().id == sid)
            if doc is not None and doc["status"] != status:
                table.update({"status": status, "result": result}, doc_ids=[doc.doc_id])

    def set_results(self, results: dict[str, dict]) -> None:
        """Summaries of finished games archived before the history existed, in one write."""
        with self._lock, self._writing:
            self._index.table("sessions").update(lambda doc: doc.update(result=results[doc["id"]]),
                                                 Query().id.one_of(list(results)))

    def set_details(self, sid: str, details: dict) -> None:
        """A finished game's play time in minutes (None: first to last action), place and note: in the
        catalogue (the history reads it) and in the game's own file (a rebuilt catalogue keeps it)."""
        with self._lock, self._writing:
            self._session_db(sid).table("meta").update({"details": details}, doc_ids=[1])
            self._index.table("sessions").update({"details": details}, Query().id == sid)

    # -- our sheets: the score sheets of this device (games/score_sheet.py), kept with the games ---

    def sheets(self) -> list[dict]:
        """The saved score sheets, by name; a damaged one is left out."""
        with self._lock:
            docs = [dict(doc) for doc in self._index.table("sheets").all() if sheet_fault(doc) is None]
        return sorted(docs, key=lambda d: d["name"].casefold())

    def save_sheet(self, sheet: dict) -> dict:
        """Keep a sheet (a new one gets its id); the same id replaces the stored sheet. Returns it.
        InvalidAction when the device keeps MAX_SHEETS already."""
        with self._lock, self._writing:
            table = self._index.table("sheets")
            if not sheet.get("id") and len(table) >= MAX_SHEETS:
                raise InvalidAction(Msg(N_("This device keeps at most {n} score sheets."), {"n": MAX_SHEETS}))
            sheet = dict(sheet, id=sheet.get("id") or uuid.uuid4().hex[:12])
            self._index.table("sheets").upsert(sheet, Query().id == sheet["id"])
        return sheet

    def abandon(self, sid: str) -> None:
        """An unfinished game let go: kept in the history as abandoned (never counted in the statistics).
        Its own file says so first, so a catalogue rebuilt from the files keeps it abandoned."""
        with self._lock, self._writing:
            self._session_db(sid).table("meta").update({"abandoned": True}, doc_ids=[1])
            self._index.table("sessions").update({"status": "abandoned"}, Query().id == sid)

    def delete(self, sid: str, undoable: bool = False) -> None:
        """Delete a game: its entry in the catalogue, then its files (killed in between, the file is
        listed again at the next start: nothing is lost, and the catalogue never lists a missing file).
        `undoable`: the files wait in the trash until `undelete` or `empty_trash` (or the next start)."""
        with self._lock, self._writing:
            table = self._index.table("sessions")
            entry = table.get(Query().id == sid)
            db = self._sessions.pop(sid, None)
            if db is not None:
                db.close()
            table.remove(Query().id == sid)
            if undoable and entry is not None:
                self._deleted[sid] = dict(entry)
            if self.dir is not None:
                trash = self.dir / TRASH
                if undoable:
                    trash.mkdir(exist_ok=True)
                for path in (self.dir / SESSIONS / f"{sid}.json", self._journal_path(sid)):
                    with contextlib.suppress(FileNotFoundError):
                        if undoable:
                            os.replace(path, trash / path.name)
                        else:
                            path.unlink()
                AtomicJSONStorage.sync_folder(self.dir / SESSIONS)
                self._journals.pop(sid, None)
            elif self._memory is not None:
                kept = self._memory.pop(f"{SESSIONS}/{sid}", None)
                if undoable and kept is not None:
                    self._trash[sid] = kept

    def deleted(self) -> list[str]:
        """The games deleted whose deletion can still be undone."""
        return list(self._deleted)

    def undelete(self, sid: str) -> bool:
        """Have a deleted game back as it was: its files first, then its entry (killed in between, the
        file is listed again at the next start). False when it is no longer in the trash."""
        with self._lock, self._writing:
            entry = self._deleted.pop(sid, None)
            if entry is None:
                return False
            if self.dir is not None:
                trash = self.dir / TRASH
                if not (trash / f"{sid}.json").exists():
                    return False
                for name in (f"{sid}{JOURNAL}", f"{sid}.json"):  # the journal before the file it belongs to
                    with contextlib.suppress(FileNotFoundError):
                        os.replace(trash / name, self.dir / SESSIONS / name)
                AtomicJSONStorage.sync_folder(self.dir / SESSIONS)
            elif sid in self._trash:
                self._memory[f"{SESSIONS}/{sid}"] = self._trash.pop(sid)
            else:
                return False
            self._insert({"sessions": [entry]})
            return True

    def empty_trash(self, sid: str) -> None:
        """The deletion of `sid` can no longer be undone: its files go for good."""
        with self._lock, self._writing:
            if self._deleted.pop(sid, None) is None:
                return
            self._trash.pop(sid, None)
            if self.dir is not None:
                for name in (f"{sid}.json", f"{sid}{JOURNAL}"):
                    (self.dir / TRASH / name).unlink(missing_ok=True)


def rebuilt_entry(sid: str, document: dict) -> dict:
    """A game's catalogue entry as its own file implies it (`document`: the file's TinyDB document with
    its journal folded in): finished, with its result recomputed, when its log ends the game; active
    otherwise, also when the log cannot be replayed (opening it then says the game is damaged)."""
    meta = document["meta"]["1"]
    entry = _entry(sid, meta)
    if "imported" in meta and imported_fault(meta) is None:
        return dict(entry, status="finished", result=meta["imported"]["result"])
    _keys, log = _log_of(document)
    try:
        game, config = GAMES[meta["game"]], meta["config"]
        state = flow.replay(game, config, log)
        if state.get("phase") == "over":
            return dict(entry, status="finished", result=history.summary(game, config, state, log))
    except CANNOT_REPLAY:
        pass
    return dict(entry, status="abandoned") if meta.get("abandoned") is True else entry


def write_json(path: Path, data: Any) -> None:
    """Write a small JSON file atomically (temp file, fsync, `os.replace`, the folder's fsync)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(data, handle, ensure_ascii=False)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    AtomicJSONStorage.sync_folder(path.parent)


def _entry(sid: str, meta: dict) -> dict:
    """A game's catalogue entry; with the configuration's own title (a score sheet's name) and the
    finished game's details, where it has them."""
    config = meta["config"]
    title, details, imported = config.get("title"), meta.get("details"), meta.get("imported")
    return {"id": sid, "game": meta["game"], "created": meta["created"], "status": "active",
            "players": [{"name": p.get("name", ""), "colour": p.get("colour", "")} for p in config.get("players", [])],
            **({"title": title} if isinstance(title, str) else {}),
            **({"imported": {"source": imported["source"], "uuid": imported["uuid"]}}
               if imported_fault(meta) is None and imported else {}),
            **({"details": details} if details_fault(details) is None else {})}


# -- what the files may hold ---------------------------------------------------------------------
# The same checks refuse a backup (backup.py) and leave out what is found on disk (Store.sessions,
# Store.setting): whatever a file holds, every screen can be drawn.


def is_document(data: Any) -> bool:
    """A TinyDB document: tables by name, each of documents (objects) by numeric id."""
    return isinstance(data, dict) and all(
        isinstance(table, dict) and all(key.isdecimal() and isinstance(doc, dict) for key, doc in table.items())
        for table in data.values())


def is_time(value: Any) -> bool:
    """A time in seconds since 1970 that the screens can show (1970–2100; not NaN, not infinite)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < LATEST


def _whole(value: Any) -> bool:
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
            or "minutes" in result and not (_whole(result["minutes"]) and result["minutes"] >= 0):
        return False
    for row in rows:
        breakdown = row.get("breakdown")
        if not _whole(row.get("total")) or not _whole(row.get("place")) or row["place"] < 1 \
                or not isinstance(breakdown, dict) or not all(_whole(v) for v in breakdown.values()) \
                or list(breakdown) != list(rows[0]["breakdown"]):
            return False
    return True


def entry_fault(entry: Any) -> Msg | None:
    """What is wrong with a catalogue entry (None: nothing)."""
    if not isinstance(entry, dict):
        return Msg(N_("an entry must be an object"))
    checks = [("id", lambda v: isinstance(v, str) and SESSION_ID.fullmatch(v), N_("id must be 12 hexadecimal digits")),
              ("game", lambda v: v in GAME_IDS, N_("game must name one of the games")),
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


def imported_fault(meta: Mapping) -> Msg | None:
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
    if minutes is not None and not (_whole(minutes) and 0 <= minutes <= MINUTES):
        return Msg(N_("the play time must be a whole number of minutes from 0 to {n}"), {"n": MINUTES})
    if not isinstance(details["place"], str) or len(details["place"]) > PLACE_LENGTH:
        return Msg(N_("the place must be text of at most {n} characters"), {"n": PLACE_LENGTH})
    if not isinstance(details["note"], str) or len(details["note"]) > NOTE_LENGTH:
        return Msg(N_("the note must be text of at most {n} characters"), {"n": NOTE_LENGTH})
    return None


#: The most score sheets a device keeps (backup.py bounds the catalogue by it).
MAX_SHEETS = 200
SHEET_KEYS = ("id", "name", "categories", "per_round", "lowest", "tie_break")


def sheet_fault(doc: Any) -> Msg | None:
    """What is wrong with a saved score sheet (None: nothing): it must be what the "Another game" form
    saves (games/score_sheet.py `check_sheet`), with its id."""
    if not isinstance(doc, dict) or set(doc) != set(SHEET_KEYS) or not doc["id"]:
        return Msg(N_("a score sheet must have an id, a name, categories, per round, lowest and a tie-breaker"))
    try:
        checked = check_sheet(doc)
    except InvalidAction as error:
        return Msg(N_("a score sheet is not right: {reason}"), {"reason": error.msg})
    return None if checked == doc else Msg(N_("a score sheet is not right: {reason}"),
                                           {"reason": Msg(N_("its names have extra spaces"))})


#: The settings the app reads, and what each may be; a setting of another name may hold anything.
SETTINGS = {"language": (lambda v: v in text_data.LANGUAGES, N_("language must be cs or en")),
            "table_token": (table_mode.is_token, N_("table_token must be a join token (32 letters, digits, - or _)"))}


def settings_of(docs: Iterable) -> list[dict]:
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


def session_fault(document: Any) -> Msg | None:
    """What is wrong with a game file's TinyDB document (None: nothing): its meta (the game, a
    configuration with players, the creation time), its log of actions and its sealed entries."""
    meta = document.get("meta", {}).get("1")
    if not isinstance(meta, dict) or meta.get("game") not in GAME_IDS or not isinstance(meta.get("config"), dict) \
            or not _is_players(meta["config"].get("players")) or not is_time(meta.get("created")):
        return Msg(N_("its meta must name one of the games, with a configuration of players and a creation time"))
    if "details" in meta and details_fault(meta["details"]) is not None:
        return details_fault(meta["details"])
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


def _log_of(document: dict) -> tuple[list[str], list[dict]]:
    """A game file's log in order: its keys and its actions."""
    keys = sorted(document.get("log", {}), key=int)
    return keys, [document["log"][key] for key in keys]


def replay_fault(document: dict) -> Msg | None:
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
        game.new_config(config)
        flow.initial(game, config)
    except InvalidAction as error:
        return Msg(N_("its configuration is not one a new game can have ({reason})"), {"reason": error.msg})
    except CANNOT_REPLAY:
        return Msg(N_("its configuration is not one a new game can have"))
    keys, log = _log_of(document)
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


#: What a failed write says, by errno (the operating system's own text is English only).
_OS_REASONS = {errno.ENOSPC: N_("the disk is full"), errno.EDQUOT: N_("the disk quota is used up"),
               errno.EFBIG: N_("a file would be larger than the system allows"),
               errno.EACCES: N_("the data folder may not be written (permissions)"),
               errno.EPERM: N_("the data folder may not be written (permissions)"),
               errno.EROFS: N_("the data folder is on a read-only disk"),
               errno.ENOTDIR: N_("the data folder is not a folder"), errno.EEXIST: N_("the data folder is not a folder"),
               errno.ENOENT: N_("the data folder is gone"), errno.EIO: N_("the disk reports an error")}


def os_reason(error: OSError) -> Msg:
    """Why an operation on the data folder failed, in words of the reader's language."""
    reason = _OS_REASONS.get(error.errno)
    return Msg(reason) if reason else Msg(N_("system error {code}"), {"code": error.errno})
