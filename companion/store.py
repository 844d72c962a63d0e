"""Storage: the only module that talks to TinyDB.

Layout of the data directory:
- `companion.json`  the catalogue of sessions (id, game, players, status) and the settings;
- `texts.json`      the rule texts, seeded from `data/*.toml` whenever those files change;
- `sessions/<id>.json` one small file per session: its config and its action log.

A tap writes only its own session's file, so recording an action does not get slower as
finished games pile up. Every file is written atomically (temp file in the same folder, fsync,
`os.replace`): a process killed mid-write leaves the old or the new file, never half of one.
A file that cannot be read is moved aside (`*.corrupt-<time>`), a notice says so in plain words,
and the app goes on; a lost catalogue is rebuilt from the session files.
One lock serialises all access (TinyDB is not thread-safe).
"""
from __future__ import annotations

import json
import os
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Iterable

from tinydb import Query, TinyDB
from tinydb.storages import MemoryStorage, Storage
from tinydb.table import Table

from . import texts as text_data
from .engine.model import Msg, N_

INDEX, TEXTS, SESSIONS = "companion.json", "texts.json", "sessions"


class AtomicJSONStorage(Storage):
    """TinyDB storage that replaces the whole file atomically on every write.

    It remembers what it last wrote (parsed back from the written text, so exactly what the file
    holds) while the file is the one it wrote (same inode, size and time: another process, such as
    `companion import`, replaces it with a new one). The phones of a table read the game they
    follow after every tap; parsing it from disk each time would only cost time."""

    def __init__(self, path: str | Path, **_kwargs: Any):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._written: dict | None = None
        self._stamp: tuple | None = None

    def _file_stamp(self) -> tuple | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_ino, st.st_size, st.st_mtime_ns

    def read(self) -> dict | None:
        if self._written is not None and self._file_stamp() == self._stamp:
            return self._written
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        if not raw.strip():
            return None
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise ValueError("not a TinyDB document")
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
        try:
            fd = os.open(self.path.parent, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def close(self) -> None:
        pass


class FileTable(Table):
    """A TinyDB table that takes the next document id from the file, not from its own count: another
    process (`companion import` while the server runs) may have added documents since."""

    def insert(self, document):
        self._next_id = None
        return super().insert(document)

    def insert_multiple(self, documents):
        self._next_id = None
        return super().insert_multiple(documents)


class FileDB(TinyDB):
    table_class = FileTable


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
        if self.dir is not None:
            (self.dir / SESSIONS).mkdir(parents=True, exist_ok=True)
            for stale in self.dir.rglob(".*.tmp"):
                stale.unlink(missing_ok=True)
        index_lost = False
        self._index, index_lost = self._open(INDEX)
        if index_lost:
            self._rebuild_index()
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
        except (ValueError, UnicodeDecodeError):
            db.close()
        aside = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        os.replace(path, aside)
        self.notices.append(Msg(N_("A damaged data file could not be read. It was moved aside as {file} and "
                                   "a fresh one was started; nothing else was touched."), {"file": str(aside)}))
        return FileDB(path, storage=AtomicJSONStorage), True

    def _rebuild_index(self) -> None:
        """Recreate the catalogue from the session files, so no game in progress is lost."""
        table = self._index.table("sessions")
        for path in sorted((self.dir / SESSIONS).glob("*.json")):
            try:
                meta = json.loads(path.read_bytes())["meta"]["1"]
            except (ValueError, KeyError, TypeError, OSError):
                continue
            table.insert(_entry(path.stem, meta))
        self.notices.append(Msg(N_("The list of games was rebuilt from the saved games.")))

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
                    (self.dir / SESSIONS / f"{sid}.json").unlink(missing_ok=True)
                    self._index.table("sessions").update({"status": "damaged"}, Query().id == sid)
                    raise SessionLost(sid)
                self._sessions[sid] = db
        return self._sessions[sid]

    # -- rule texts ----------------------------------------------------------------------------

    def _seed_texts(self) -> None:
        """Seed the rule-text table from data/ when the files changed; then serve it from memory."""
        with self._lock:
            meta = self._texts_db.table("meta")
            stamp = text_data.fingerprint()
            current = meta.get(doc_id=1)
            if not current or current.get("fingerprint") != stamp:
                values, sections = text_data.load_all()
                self._texts_db.drop_tables()
                self._texts_db.table("texts").insert_multiple({"key": k, **v} for k, v in values.items())
                self._texts_db.table("sections").insert_multiple({"game": g, "ids": ids} for g, ids in sections.items())
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
        with self._lock:
            doc = self._index.table("settings").get(Query().name == name)
            return default if doc is None else doc["value"]

    def set_setting(self, name: str, value: Any) -> None:
        with self._lock:
            self._index.table("settings").upsert({"name": name, "value": value}, Query().name == name)

    # -- sessions ------------------------------------------------------------------------------

    def create_session(self, game: str, config: dict) -> str:
        sid = uuid.uuid4().hex[:12]
        meta = {"game": game, "config": config, "created": time.time()}
        with self._lock:
            db = self._open(f"{SESSIONS}/{sid}" + ("" if self._memory is not None else ".json"))[0]
            db.table("meta").insert(meta)
            self._sessions[sid] = db
            self._index.table("sessions").insert(_entry(sid, meta))
        return sid

    def import_sessions(self, sessions: list[dict]) -> list[str]:
        """Store many sessions at once (`{"game", "config", "log", "status"}` each): one file per
        session and a single write of the catalogue. Returns the new ids."""
        entries = []
        with self._lock:
            for session in sessions:
                sid = uuid.uuid4().hex[:12]
                meta = {"game": session["game"], "config": session["config"],
                        "created": session.get("created", time.time())}
                name = f"{SESSIONS}/{sid}" + ("" if self._memory is not None else ".json")
                db = self._open(name)[0]
                db.storage.write({"meta": {"1": meta},
                                  "log": {str(i + 1): action for i, action in enumerate(session["log"])}})
                if self._memory is None:
                    db.close()
                entries.append(dict(_entry(sid, meta), status=session.get("status", "active"),
                                    **({"result": session["result"]} if session.get("result") else {})))
            self._index.table("sessions").insert_multiple(entries)
        return [e["id"] for e in entries]

    def replace_files(self, change: Callable[[], Any]) -> Any:
        """Run `change`, which replaces the data folder's files (a restore), with the store locked;
        then read every file afresh. Returns what `change` returned."""
        with self._lock:
            try:
                return change()
            finally:
                for db in self._sessions.values():
                    db.close()
                self._sessions.clear()
                self._index = self._open(INDEX)[0]

    def sessions(self, status: str | None = None) -> list[dict]:
        """Catalogue entries, newest first (optionally only those with `status`)."""
        with self._lock:
            table = self._index.table("sessions")
            docs = table.all() if status is None else table.search(Query().status == status)
            return sorted((dict(d) for d in docs), key=lambda d: d["created"], reverse=True)

    def load(self, sid: str) -> dict:
        """A session: `{"id", "game", "config", "log"}`; raises SessionLost if unreadable."""
        with self._lock:
            db = self._session_db(sid)
            meta = db.table("meta").get(doc_id=1)
            if meta is None:
                raise SessionLost(sid)
            return {"id": sid, "game": meta["game"], "config": meta["config"],
                    "log": [dict(doc) for doc in db.table("log").all()]}

    def record(self, sid: str, action: dict, expect: int | None = None) -> None:
        """Persist one action (only this session's small file is written).

        `expect` is the log length the action was based on; if another screen has recorded
        since, nothing is written and Stale is raised.
        """
        with self._lock:
            log = self._session_db(sid).table("log")
            if expect is not None and len(log) != expect:
                raise Stale(sid)
            log.insert({**action, "at": time.time()})

    def undo(self, sid: str, expect: int | None = None, count: int = 1) -> dict | None:
        """Remove the last `count` actions of the log (in one write) and return the earliest of them
        (None when the log is empty).

        `expect` is the log length the undo was based on: Stale if another screen recorded since.
        """
        with self._lock:
            log = self._session_db(sid).table("log")
            docs = log.all()
            if expect is not None and len(docs) != expect:
                raise Stale(sid)
            if not docs:
                return None
            gone = docs[-max(1, count):]
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
        with self._lock:
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
        with self._lock:
            table = self._index.table("sessions")
            doc = table.get(Query().id == sid)
            if doc is not None and doc["status"] != status:
                table.update({"status": status, "result": result}, doc_ids=[doc.doc_id])

    def set_results(self, results: dict[str, dict]) -> None:
        """Summaries of finished games archived before the history existed, in one write."""
        with self._lock:
            self._index.table("sessions").update(lambda doc: doc.update(result=results[doc["id"]]),
                                                 Query().id.one_of(list(results)))

    def delete(self, sid: str) -> None:
        with self._lock:
            db = self._sessions.pop(sid, None)
            if db is not None:
                db.close()
            if self.dir is not None:
                (self.dir / SESSIONS / f"{sid}.json").unlink(missing_ok=True)
            elif self._memory is not None:
                self._memory.pop(f"{SESSIONS}/{sid}", None)
            self._index.table("sessions").remove(Query().id == sid)


def _entry(sid: str, meta: dict) -> dict:
    config = meta["config"]
    return {"id": sid, "game": meta["game"], "created": meta["created"], "status": "active",
            "players": [{"name": p.get("name", ""), "colour": p.get("colour", "")} for p in config.get("players", [])]}
