"""The catalogue (`companion.json`): the games' entries and the score sheets; the settings
(`settings.json`, a file of their own, so that no damage to the catalogue loses the language or the
table's join token); and the rule texts (`texts.json`).

The catalogue is a projection of the games' files: each entry is what its game's file implies
(`Storage.project`), written after the game's file. So a lost or damaged catalogue is rebuilt from the
files, a file the catalogue does not list is listed again, and an entry whose file was written after
the catalogue (a kill between the two writes) is projected again at the next start."""
from __future__ import annotations

import json
import time
import uuid
from collections.abc import Collection
from typing import Any

from tinydb import Query

from .. import texts as text_data
from ..messages import InvalidAction, Msg, N_, P_
from .checks import MAX_SHEETS, SESSION_ID, details_fault, entry_fault, imported_fault, setting_fault, \
    settings_of
from .parts import StorageParts
from .files import INDEX, SESSIONS, SETTINGS_COPY, stamp_of, write_json
from .journal import JOURNAL, stored_game


class Catalogue(StorageParts):
    """The part of `Store` that keeps the catalogue and the rule texts (a mixin: it uses the locks,
    folders and caches `Storage.__init__` sets: StorageParts)."""

    def project(self, sid: str, document: dict[str, Any]) -> dict[str, Any]:
        """The catalogue entry a game's file implies (`document`: its TinyDB document with its journal
        folded in): finished with its result when its file says so, abandoned when it was let go, else
        active. A file from before versions does not say whether its game is finished: the app's Store
        (companion/store.py, which knows the games) replays it to know."""
        meta = document["meta"]["1"]
        entry = entry_of(sid, meta)
        if "imported" in meta and imported_fault(meta) is None:
            return dict(entry, status="finished", result=meta["imported"]["result"])
        if isinstance(meta.get("result"), dict):
            return dict(entry, status="finished", result=meta["result"])
        return dict(entry, status="abandoned") if meta.get("abandoned") is True else entry

    def _projected(self, sid: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """A game's file and the entry it implies, if its file can be read and the entry is right."""
        try:
            document = stored_game(self.folder, sid)
            entry = self.project(sid, document)
        except (ValueError, KeyError, TypeError, AttributeError, OSError, RecursionError):
            return None
        return (document, entry) if entry_fault(entry, self.games) is None else None

    def _list_unlisted(self, lost: bool, missing: bool) -> None:
        """List every readable session file the catalogue does not list: all of them when the catalogue
        was unreadable (`lost`) or is `missing`, else those of a process killed between writing a
        game's file and listing it. Each entry is what the game's own file implies (`project`). A
        catalogue rebuilt whole also takes back the score sheets its games were played on."""
        table = self._index.table("sessions")
        listed = {doc.get("id") for doc in table.all()}
        found: list[dict[str, Any]] = []
        sheets: dict[str, dict[str, Any]] = {}
        for path in sorted((self.folder / SESSIONS).glob("*.json")):
            if path.stem in listed or not SESSION_ID.fullmatch(path.stem):
                continue
            projected = self._projected(path.stem)
            if projected is None:
                continue
            document, entry = projected
            found.append(entry)
            sheet = document["meta"]["1"]["config"].get("sheet")
            if (lost or missing) and self.sheet_fault(sheet) is None:
                sheets.setdefault(sheet["id"], sheet)
        known = {doc.get("id") for doc in self._index.table("sheets").all()}
        self._insert({"sessions": found, "sheets": [s for i, s in sheets.items() if i not in known]})
        if lost or missing and found:
            self.notices.append(Msg(N_("The list of games was rebuilt from the saved games.")))
        elif found:
            self.notices.append(P_("A saved game was missing from the list of games; it is listed again.",
                                   "{n} saved games were missing from the list of games; they are listed again.",
                                   len(found)))

    def _reproject(self) -> None:
        """Project again every listed game whose file was written after the catalogue: a kill between a
        game's write and the catalogue's (a game finished, or its finish undone, a moment before) leaves
        its entry behind its file. Only those files are read: the games played since the catalogue's
        last change."""
        since = stamp_of(self.folder / INDEX)
        if since is None:
            return
        table = self._index.table("sessions")
        changed = {}
        for doc in table.all():
            sid = doc.get("id")
            if not isinstance(sid, str) or not SESSION_ID.fullmatch(sid) or doc.get("status") == "damaged":
                continue
            stamps = [stamp_of(self.folder / SESSIONS / f"{sid}{suffix}") for suffix in (".json", JOURNAL)]
            if all(stamp is None or stamp[2] < since[2] for stamp in stamps):
                continue
            projected = self._projected(sid)
            if projected is not None and _differs(doc, projected[1]):
                changed[doc.doc_id] = projected[1]
        if changed:
            data = {name: dict(docs) for name, docs in (self._index.storage.read() or {}).items()}
            for doc_id, entry in changed.items():
                data["sessions"][str(doc_id)] = {**data["sessions"][str(doc_id)], **entry}
            self._index.storage.write(data)
            table.clear_cache()

    # -- settings: a file of their own -----------------------------------------------------------

    def _read_settings(self) -> None:
        """The settings as `settings.json` holds them; where it cannot be read (a folder from before it
        held them, a damaged file), as the catalogue held them, written back to their own file."""
        kept: list[dict[str, Any]] | None = None
        if self.dir is None:
            kept = settings_of(self._index.table("settings").all())
        else:
            path = self.dir / SETTINGS_COPY
            stamp = stamp_of(path)
            try:
                copy = json.loads(path.read_bytes())
                kept = settings_of(copy) if isinstance(copy, list) else None
            except (OSError, ValueError, RecursionError):
                kept = None
            if kept is None:
                kept = settings_of(self._index.table("settings").all())
                write_json(path, kept)
                stamp = stamp_of(path)
            self._settings_stamp = stamp
        self._settings = {doc["name"]: doc["value"] for doc in kept}

    def _current_settings(self) -> dict[str, Any]:
        """The settings, read again when another process (`companion restore`) changed their file."""
        if self.dir is not None and stamp_of(self.dir / SETTINGS_COPY) != self._settings_stamp:
            self._read_settings()
        return self._settings

    def _insert(self, tables: dict[str, list[dict[str, Any]]]) -> None:
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

    # -- rule texts ----------------------------------------------------------------------------

    def _seed_texts(self) -> None:
        """Seed the rule-text table from data/ when the files changed; then serve it from memory."""
        with self._lock:
            meta = self._texts_db.table("meta")
            stamp = text_data.fingerprint()
            current = meta.get(doc_id=1)
            if not current or current.get("fingerprint") != stamp:
                values, sections = text_data.seed(stamp)
                tables: dict[str, list[dict[str, Any]]] = {"texts": [{"key": k, **v} for k, v in values.items()],
                                                           "sections": [{"game": g, "ids": ids}
                                                                        for g, ids in sections.items()],
                                                           "meta": [{"fingerprint": stamp}]}
                with self._writing:  # the whole file in one write, in place of what it held
                    self._texts_db.storage.write({name: {str(i): doc for i, doc in enumerate(docs, start=1)}
                                                  for name, docs in tables.items()})
                for name in tables:
                    self._texts_db.table(name).clear_cache()
            self._texts = {doc["key"]: {k: v for k, v in doc.items() if k != "key"}
                           for doc in self._texts_db.table("texts").all()}
            self.sections = {doc["game"]: doc["ids"] for doc in self._texts_db.table("sections").all()}

    def text(self, key: str, lang: str) -> str:
        """A rule text in `lang` (falling back to English, then to the key itself)."""
        entry = self._texts.get(key)
        if entry is None:
            return key
        return entry.get(lang) or entry.get("en") or key

    def text_keys(self) -> Collection[str]:
        return self._texts.keys()

    # -- settings ------------------------------------------------------------------------------

    def setting(self, name: str, default: Any = None) -> Any:
        """A setting's value; `default` when it is not set, or set to a value it cannot have."""
        with self._lock:
            settings = self._current_settings()
            if name not in settings:
                return default
            value = settings[name]
            return default if setting_fault({"name": name, "value": value}) is not None else value

    def set_setting(self, name: str, value: Any) -> None:
        with self._lock, self._writing:
            settings = {**self._current_settings(), name: value}
            if self.dir is not None:
                write_json(self.dir / SETTINGS_COPY, [{"name": k, "value": v} for k, v in settings.items()])
                self._settings_stamp = stamp_of(self.dir / SETTINGS_COPY)
            self._settings = settings

    def settings(self) -> list[dict[str, Any]]:
        """Every setting that is right, as `settings.json` and a backup keep them."""
        with self._lock:
            return settings_of({"name": k, "value": v} for k, v in self._current_settings().items())

    # -- sessions ------------------------------------------------------------------------------

    def create_session(self, game: str, config: dict[str, Any]) -> str:
        sid = uuid.uuid4().hex[:12]
        meta = {"game": game, "config": config, "created": time.time()}
        with self._lock, self._writing:
            db = self._open(f"{SESSIONS}/{sid}" + ("" if self._memory is not None else ".json"))[0]
            db.table("meta").insert(meta)
            self._sessions[sid] = db
            self._index.table("sessions").insert(entry_of(sid, meta))
        return sid

    def sessions(self, status: str | None = None) -> list[dict[str, Any]]:
        """Catalogue entries, newest first (optionally only those with `status`). An entry of the
        wrong shape (a hand-edited or foreign catalogue) is left out, with a notice the first time."""
        with self._lock:
            raw = (self._index.storage.read() or {}).get("sessions", {})
            docs = []
            for key, doc in raw.items():
                if self._checked.get(key) is not doc:  # each entry is checked once as read from the file
                    if entry_fault(doc, self.games) is not None:
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

    def set_status(self, sid: str, status: str, result: dict[str, Any] | None = None) -> None:
        """A game's entry follows its file: active → finished (with the summary the history keeps), a
        finished game's result corrected, and back on undo; written to the catalogue only when it
        changes, never on an ordinary tap."""
        with self._lock, self._writing:
            table = self._index.table("sessions")
            doc = table.get(Query().id == sid)
            if doc is not None and (doc["status"] != status or doc.get("result") != result):
                table.update({"status": status, "result": result}, doc_ids=[doc.doc_id])

    def set_results(self, results: dict[str, dict[str, Any]]) -> None:
        """Summaries of finished games archived before the history existed, in one write."""
        with self._lock, self._writing:
            self._index.table("sessions").update(lambda doc: doc.update(result=results[doc["id"]]),
                                                 Query().id.one_of(list(results)))

    def set_details(self, sid: str, details: dict[str, Any]) -> None:
        """A finished game's play time in minutes (None: first to last action), place and note: in the
        catalogue (the history reads it) and in the game's own file (a rebuilt catalogue keeps it)."""
        with self._lock, self._writing:
            self._session_db(sid).table("meta").update({"details": details}, doc_ids=[1])
            self._index.table("sessions").update({"details": details}, Query().id == sid)

    # -- our sheets: the score sheets of this device (games/score_sheet.py), kept with the games ---

    def sheets(self) -> list[dict[str, Any]]:
        """The saved score sheets, by name; a damaged one is left out."""
        with self._lock:
            docs = [dict(doc) for doc in self._index.table("sheets").all() if self.sheet_fault(doc) is None]
        return sorted(docs, key=lambda d: d["name"].casefold())

    def save_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """Keep a sheet (a new one gets its id); the same id replaces the stored sheet. Returns it.
        InvalidAction when the device keeps MAX_SHEETS already."""
        with self._lock, self._writing:
            table = self._index.table("sheets")
            if not sheet.get("id") and len(table) >= MAX_SHEETS:
                raise InvalidAction(Msg(N_("This device keeps at most {n} score sheets."), {"n": MAX_SHEETS}))
            sheet = dict(sheet, id=sheet.get("id") or uuid.uuid4().hex[:12])
            self._index.table("sheets").upsert(sheet, Query().id == sheet["id"])
        return sheet


def entry_of(sid: str, meta: dict[str, Any]) -> dict[str, Any]:
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




def _differs(listed: dict[str, Any], projected: dict[str, Any]) -> bool:
    """Whether a catalogue entry is behind what its game's file implies (its status, result, details)."""
    return any(listed.get(key) != projected.get(key) for key in ("status", "result", "details"))
