"""Games that arrive whole from outside: an import (many games and their score sheets at once, undone
at the next start when a kill cut it short) and a restore (backup.py replaces the folder's files)."""
from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from ..messages import Msg, N_
from .catalogue import entry_of
from .checks import SESSION_ID
from .parts import StorageParts
from .files import INDEX, SESSIONS, AtomicJSONStorage, write_json

#: An import in progress (`{"ids": [...]}`): written before its games' files, removed once the
#: catalogue lists them. One found at a start is an import a kill cut short: its games go again.
IMPORTING = "import.json"


class Imports(StorageParts):
    """The part of `Store` that takes games in whole (a mixin: it uses the locks, folders and caches
    `Storage.__init__` sets: StorageParts)."""

    def _settle_import(self, keep: bool) -> None:
        """An import a kill cut short (its mark `IMPORTING` is still there) is undone: the game files it
        wrote before its catalogue write go, so the folder is as before it. When the catalogue lists
        its games (the kill came after that write), or the catalogue was lost (`keep`: they are listed
        again from their files), only the mark goes."""
        mark = self.folder / IMPORTING
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
                (self.folder / SESSIONS / f"{sid}.json").unlink(missing_ok=True)
                self._journal_path(sid).unlink(missing_ok=True)
            if ids:
                self.notices.append(Msg(N_("An import was interrupted before it finished; it was undone, "
                                           "and no game was changed. Import the file again.")))
        mark.unlink(missing_ok=True)
        AtomicJSONStorage.sync_folder(self.folder)

    def import_sessions(self, sessions: list[dict[str, Any]], sheets: Iterable[dict[str, Any]] = ()) -> list[str]:
        """Store many sessions at once (`{"game", "config", "log", "status"}` each) and the score
        `sheets` they come with: one file per session, then a single write of the catalogue (entries
        and sheets together). An import a kill cuts short is undone at the next start (`IMPORTING`).
        Returns the new ids."""
        entries, ids = [], [uuid.uuid4().hex[:12] for _session in sessions]
        with self._lock, self._writing:
            if self._memory is None:
                self._settle_import(keep=False)  # one killed while this store ran goes first: its mark is replaced
                write_json(self.folder / IMPORTING, {"ids": ids})
            for sid, session in zip(ids, sessions):
                meta = {"game": session["game"], "config": session["config"],
                        "created": session.get("created", time.time()), "version": len(session["log"]),
                        **({"result": session["result"]} if session.get("status") == "finished"
                           and session.get("result") and not session.get("imported") else {}),
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
                entries.append(dict(entry_of(sid, meta), status=session.get("status", "active"),
                                    **({"result": session["result"]} if session.get("result") else {}),
                                    **({"details": session["details"]} if session.get("details") else {})))
            self._insert({"sessions": entries, "sheets": list(sheets)})
            if self._memory is None:
                (self.folder / IMPORTING).unlink()
                AtomicJSONStorage.sync_folder(self.folder)
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
                self._read_settings()

