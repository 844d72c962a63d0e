"""What the parts of `Storage` share: the folders, the locks, the open files and the caches
`Storage.__init__` sets, and the few methods one part calls on another. Each part (catalogue.py,
journal.py, imports.py, trash.py, damaged.py) is a class of `Storage`'s methods on this state."""
from __future__ import annotations

import threading
from collections.abc import Collection
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tinydb import TinyDB

from ..messages import Msg

if TYPE_CHECKING:
    from .journal import Journal


class StorageParts:
    """The state every part of `Storage` works on (set by `Storage.__init__`)."""

    #: The ids of the games there are (None: any id); an entry or a file of another game is not shown.
    games: Collection[str] | None = None
    #: The data folder (None: everything in memory, for tests).
    dir: Path | None
    #: What the app tells the players about the files (a damaged one moved aside, an entry not shown).
    notices: list[Msg]
    _lock: threading.RLock                         # one store's access, one thread at a time
    _writing: AbstractContextManager[Any]          # the data folder's lock (no other process writes)
    _memory: dict[str, TinyDB] | None              # in memory: the files by name
    _index: TinyDB                                 # the catalogue (companion.json)
    _texts_db: TinyDB                              # the rule texts (texts.json)
    _sessions: dict[str, TinyDB]                   # the games' files open, by session
    _journals: dict[str, Journal]                  # the games' journals as last read or written
    _checked: dict[str, dict[str, Any]]            # catalogue entries found right, by key, as last read
    _skipped: set[str]                             # catalogue entries not shown (told once)
    _deleted: dict[str, dict[str, Any]]            # deleted games that can be had back: their entries
    _trash: dict[str, TinyDB]                      # (in memory) their sessions

    @property
    def folder(self) -> Path:
        """The data folder, asked only where the store has one (the code that reads and writes files)."""
        if self.dir is None:
            raise RuntimeError("this store keeps everything in memory")
        return self.dir

    if TYPE_CHECKING:  # each defined by one part, called by others
        def _open(self, name: str) -> tuple[TinyDB, bool]: ...                # damaged.py
        def _session_db(self, sid: str) -> TinyDB: ...                        # damaged.py
        def _journal_path(self, sid: str) -> Path: ...                        # journal.py
        def _read_settings(self) -> None: ...                                 # catalogue.py
        def _insert(self, tables: dict[str, list[dict[str, Any]]]) -> None: ...  # catalogue.py
        def sheet_fault(self, sheet: Any) -> Msg | None: ...                  # __init__.py
