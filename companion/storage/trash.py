"""Games let go: abandoned (kept in the history as such) and deleted (their files wait in the trash,
`deleted/`, while the deletion can still be undone)."""
from __future__ import annotations

import contextlib
import os

from tinydb import Query

from .parts import StorageParts
from .files import SESSIONS, AtomicJSONStorage
from .journal import JOURNAL

#: Where a deleted game's files wait while its deletion can still be undone (emptied at every start).
TRASH = "deleted"


class Trash(StorageParts):
    """The part of `Store` that lets games go (a mixin: it uses the locks, folders and caches
    `Storage.__init__` sets: StorageParts)."""

    def abandon(self, sid: str) -> None:
        """An unfinished game let go: kept in the history as abandoned (never counted in the statistics).
        Its own file says so first, so a catalogue rebuilt from the files keeps it abandoned."""
        with self._lock, self._writing:
            self._session_db(sid).table("meta").update({"abandoned": True}, doc_ids=[1])
            self._index.table("sessions").update({"status": "abandoned"}, Query().id == sid)

    def take_up(self, sid: str) -> None:
        """An abandoned game taken up again: in progress, as it was when it was let go (its file first)."""
        with self._lock, self._writing:
            self._session_db(sid).table("meta").update({"abandoned": False}, doc_ids=[1])
            self._index.table("sessions").update({"status": "active"}, Query().id == sid)

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
            elif sid in self._trash and self._memory is not None:
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


