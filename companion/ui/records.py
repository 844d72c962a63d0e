"""The view-model's history and files: the finished games and their statistics and details, the
exports, imports and backups the history screen offers, and the damaged game's file."""
from __future__ import annotations

import contextlib
import threading
import time
from typing import Any
from collections.abc import Callable

from .. import backup, exchange, history
from ..engine import flow
from ..engine.model import InvalidAction, N_
from ..games import GAMES
from ..i18n import Translator
from ..referee import saved
from ..store import CANNOT_REPLAY, SessionLost, Store, details_fault, os_reason
from .vmbase import NO_DETAILS, Problem, _locked, _writes


class Records:
    """The ViewModel's methods for the history screens and the files they download and read."""

    browser: bool
    store: Store
    t: Translator
    session: dict[str, Any] | None
    state: dict[str, Any] | None
    problem: Problem | None
    notice: str | None
    damaged: str | None
    on_saved: Callable[..., None]
    _changed: Callable[[], None]
    lock: threading.RLock
    _refuse: Callable[[InvalidAction], bool]

    def finished(self) -> list[dict[str, Any]]:
        """Finished games, newest first, each with its summary (games finished before the history
        existed get theirs now, all in one write)."""
        entries = self.store.sessions(status="finished")
        missing = {}
        for entry in entries:
            if not entry.get("result"):
                try:
                    session = self.store.load(entry["id"])
                    game = GAMES[session["game"]]
                    state = flow.replay(game, session["config"], session["log"])
                    missing[entry["id"]] = history.summary(game, session["config"], state, session["log"])
                except (SessionLost, *CANNOT_REPLAY):
                    continue
                entry["result"] = missing[entry["id"]]
        if missing:
            with contextlib.suppress(OSError):  # kept for next time where the disk allows it
                self.store.set_results(missing)
        return [e for e in entries if e.get("result")]

    #: What the history's export buttons download: the name (also the server's /download/ route) and
    #: how it is made.
    EXPORTS = ("games.csv", "games-excel-cs.csv", "games.json", "bgstats.json", "backup.zip")

    def export_file(self, name: str) -> tuple[str, bytes] | None:
        """The file name and the bytes of `games.csv`, `games-excel-cs.csv` (for Excel in Czech: `;`
        and decimal commas), `games.json` or `backup.zip`, as the server's /download/ routes send them
        (`companion export`, `companion backup`); None, and the reason shown, when the data cannot be
        read."""
        stamped = f"companion-{time.strftime('%Y%m%d-%H%M')}-{name}"
        if name in ("games.csv", "games-excel-cs.csv"):
            return stamped, exchange.export_csv(self.store, excel_cs=name == "games-excel-cs.csv").encode("utf-8")
        if name == "games.json":
            return stamped, exchange.export_json(self.store).encode("utf-8")
        if name == "bgstats.json":
            return stamped, exchange.export_bgstats(self.store).encode("utf-8")
        try:
            return stamped, backup.backup(self.store.folder)
        except (backup.BackupRefused, OSError) as error:
            self.notice, self.problem = None, Problem(str(error))
            self._changed()
            return None

    def import_games(self, blob: bytes) -> bool:
        """Take back games from a JSON export (`companion import`); a refused file changes nothing."""
        try:
            imported, skipped = exchange.import_json(self.store, blob.decode("utf-8"))
        except (UnicodeDecodeError, exchange.ImportRefused, OSError) as error:
            return self._refuse_file(error)
        ngettext = self.t.n
        self.notice = "; ".join([ngettext("{n} game imported", "{n} games imported", imported).format(n=imported),
                                 ngettext("{n} was there already", "{n} were there already", skipped).format(n=skipped)])
        self.on_saved("catalogue", "")
        self._changed()
        return True

    def restore_backup(self, blob: bytes) -> bool:
        """Replace every game and setting with a backup's (`companion restore`); the data before is
        moved aside in the data folder, and a refused archive changes nothing."""
        if self.store.dir is None:
            return False
        try:
            with saved(self.store).lock:
                games, aside = self.store.replace_files(lambda: backup.restore(self.store.folder, blob))
                saved(self.store).clear()  # every game may be another now
        except (backup.BackupRefused, OSError) as error:
            return self._refuse_file(error)
        self.session, self.state = None, None
        ngettext = self.t.n
        self.notice = ngettext("{n} game restored", "{n} games restored", games).format(n=games) + (
            "; " + self.t(N_("the data before is kept in {folder}")).format(folder=aside)
            if aside and not self.browser else "")  # in the browser that folder is out of reach
        self.on_saved("catalogue", "")
        self._changed()
        return True

    def damaged_file(self) -> tuple[str, bytes] | None:
        """The damaged game's file (`damaged`), its journal folded in, as `/download/game-<id>.json`
        sends it; None when it is gone."""
        if self.store.dir is None or self.damaged is None:
            return None
        try:
            return f"companion-game-{self.damaged}.json", backup.game_file(self.store.dir, self.damaged)
        except (OSError, ValueError, RecursionError):
            return None

    @_locked
    @_writes
    def delete_damaged(self) -> bool:
        """Delete the damaged game (`damaged`): its file and its entry in the list of games."""
        if self.damaged is None:
            return False
        sid, self.damaged = self.damaged, None
        self.store.delete(sid)
        self.problem, self.notice = None, self.t(N_("The damaged game was deleted."))
        self.on_saved("catalogue", sid)
        self._changed()
        return True

    def abandoned(self) -> list[dict[str, Any]]:
        """Games let go unfinished, newest first."""
        return self.store.sessions(status="abandoned")

    def _refuse_file(self, error: UnicodeDecodeError | OSError | exchange.ImportRefused | backup.BackupRefused) -> bool:
        if isinstance(error, UnicodeDecodeError):
            reason = self.t(N_("it is not a text file"))
        elif isinstance(error, OSError):
            reason = self.t.msg(os_reason(error))
        else:  # ImportRefused, BackupRefused: the reason in the reader's language
            reason = self.t.msg(error.msg)
        self.notice = None
        self.problem = Problem(self.t(N_("The file was refused and nothing was changed: {reason}")).format(
            reason=reason))
        self._changed()
        return False

    def statistics(self, period: str = "all", game: str | None = None) -> dict[str, Any]:
        """The statistics of the finished games of `period` (history.PERIODS) and of one game (its key:
        history.kind; None: all), and every game played (for the filter)."""
        entries = self.finished()
        return {**history.statistics(history.chosen(entries, period, game)), "kinds": history.kinds(entries)}

    def title(self, game_id: str, title: str | None = None) -> str:
        """A game's name as the screens show it: a sheet's own name, else the game's title."""
        return title or self.t.text(f"{game_id}.game.title")

    @_locked
    @_writes
    def set_details(self, sid: str, minutes: Any, place: str, note: str) -> bool:
        """A finished game's play time (whole minutes; "" for first to last action), place and note."""
        if isinstance(minutes, str):
            minutes = minutes.strip()
            if minutes == "":
                minutes = None
            elif minutes.isdigit():
                minutes = int(minutes)
        details = {"minutes": minutes, "place": " ".join(place.split()), "note": note.strip()}
        for field in details:  # each field on its own, so the message stands next to it
            fault = details_fault({**NO_DETAILS, field: details[field]})
            if fault is not None:
                self.problem = Problem(self.t.msg(fault), field)
                self._changed()
                return False
        self.store.set_details(sid, details)
        self.problem, self.notice = None, self.t(N_("Saved."))
        self.on_saved("catalogue", sid)
        self._changed()
        return True

    def details(self, sid: str) -> dict[str, Any]:
        entry = next((e for e in self.store.sessions("finished") if e["id"] == sid), {})
        return entry.get("details") or dict(NO_DETAILS)
