"""The data folder's files: their names, the folder's lock and the server's mark on it, the atomic
writes (TinyDB's storage, small JSON files), and what a failed write says."""
from __future__ import annotations

import errno
import importlib
import json
import os
import threading
import time
import types
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

try:
    fcntl: types.ModuleType | None = importlib.import_module("fcntl")
except ImportError:  # Pyodide (and Windows): no other process to lock out
    fcntl = None

from tinydb import TinyDB
from tinydb.storages import Storage
from tinydb.table import Table

from ..messages import Msg, N_
from .checks import is_document


INDEX, TEXTS, SESSIONS = "companion.json", "texts.json", "sessions"
#: A copy of the settings (the language, the join token), kept beside the catalogue: a catalogue that
#: is lost or cut short takes them back from here.
SETTINGS_COPY = "settings.json"
#: The folder's write lock, and the mark of the server that serves it (its pid and address).
LOCK, SERVER = "companion.lock", "server.lock"
#: A restore unpacks into `<data>/.restore-<pid>` first (see backup.py); one left by a killed restore goes.
STAGING = ".restore-"


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

    def __exit__(self, *_exc: object) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None and fcntl is not None:  # an _fd is opened only with fcntl
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

    def __init__(self, folder: str | Path, holder: dict[str, Any]):
        self.folder, self.holder = Path(folder), holder
        where = ", ".join(f"{k} {holder[k]}" for k in ("pid", "url") if k in holder) or "another process"
        super().__init__(f"the data folder {folder} is in use by a companion server ({where})")


def _holder(fd: int) -> dict[str, Any]:
    try:
        data = json.loads(os.pread(fd, 4096, 0) or b"{}")
    except (OSError, ValueError):
        return {}
    return {k: data[k] for k in ("pid", "url") if isinstance(data, dict) and isinstance(data.get(k), (int, str))}


def claim_server(folder: str | Path, about: dict[str, Any]) -> int | None:
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


def server_of(folder: str | Path) -> dict[str, Any] | None:
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
        self._written: dict[str, Any] | None = None
        self._stamp: Stamp | None = None

    def _file_stamp(self) -> Stamp | None:
        return stamp_of(self.path)

    def read(self) -> dict[str, Any] | None:
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

    def write(self, data: dict[str, Any]) -> None:
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

    def insert(self, document: Mapping[str, Any]) -> int:
        self._next_id = None
        return super().insert(document)

    def insert_multiple(self, documents: Iterable[Mapping[str, Any]]) -> list[int]:
        self._next_id = None
        return super().insert_multiple(documents)


class FileDB(TinyDB):
    table_class = FileTable


def aside_of(path: Path) -> Path:
    """Where a damaged file is moved aside: beside it, named with the time."""
    return path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")


#: A file's inode, size and time (see `stamp_of`).
Stamp = tuple[int, int, int]


def stamp_of(path: Path) -> Stamp | None:
    """A file's inode, size and time (None: no file): changed when the file is replaced or written."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def write_json(path: Path, data: Any) -> None:
    """Write a small JSON file atomically (temp file, fsync, `os.replace`, the folder's fsync)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(data, handle, ensure_ascii=False)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    AtomicJSONStorage.sync_folder(path.parent)


class Stale(Exception):
    """An action was based on an older log than the stored one (another screen acted first)."""


class SessionLost(Exception):
    """A session file could not be read (it was moved aside); the notice says where."""


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
    reason = _OS_REASONS.get(error.errno) if error.errno is not None else None
    return Msg(reason) if reason else Msg(N_("system error {code}"), {"code": error.errno})
