"""The view-model: one per browser session, plain Python (no Flet), driven by pytest directly.

Data flow for one tap: `dispatch` → engine.apply (pure; InvalidAction → message, nothing
changes) → store.record (atomic write) → only then the new state → listeners re-render.
The screen never shows a state that is not on disk.
"""
from __future__ import annotations

import contextlib
import functools
import logging
import threading
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from .. import backup, exchange, history
from ..engine import flow
from ..engine.model import InvalidAction, Msg, N_
from ..games import GAMES
from ..i18n import DEFAULT_LANGUAGE, LANGUAGES, Translator
from ..store import SessionLost, Stale, Store, details_fault, os_reason

log = logging.getLogger(__name__)


def _locked(method):
    """One change at a time per screen: a tap and news from another phone never interleave."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with self.lock:
            return method(self, *args, **kwargs)
    return wrapper


def _writes(method):
    """A change that writes to the data folder: when the disk refuses it (full, read-only, no
    permission), the screen says that nothing was recorded and why, and shows what it showed."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except OSError as error:
            log.warning("a write to the data folder failed: %s", error)
            return self._refuse(InvalidAction(Msg(N_("Nothing was recorded: {reason}."),
                                                  {"reason": os_reason(error)})))
    return wrapper


class Saved:
    """The last saved log and state of the games open in this process, shared by every screen on
    one store: a phone that opens a game, or catches up with what another phone saved, takes the
    state from here instead of replaying the log.

    Only what the store has accepted comes here, and each write of a game's log happens under
    `lock` together with the update here: whoever holds the lock finds here what the file holds.
    The states are shared, so nobody may change one (flow.apply never does; screens only read)."""

    LIMIT = 64  # games kept; a game not among them is read and replayed when next opened

    def __init__(self):
        self.lock = threading.RLock()
        self._games: OrderedDict[str, tuple[list, dict]] = OrderedDict()

    def get(self, sid: str) -> tuple[list, dict] | None:
        with self.lock:
            entry = self._games.get(sid)
            if entry is not None:
                self._games.move_to_end(sid)
            return entry

    def put(self, sid: str, log: list, state: dict) -> None:
        """Keep `state` as the state after `log` (a list nobody changes afterwards)."""
        with self.lock:
            self._games[sid] = (log, state)
            self._games.move_to_end(sid)
            while len(self._games) > self.LIMIT:
                self._games.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self._games.clear()


_SAVED: "weakref.WeakKeyDictionary[Store, Saved]" = weakref.WeakKeyDictionary()
_SAVED_LOCK = threading.Lock()


def saved(store: Store) -> Saved:
    """The Saved of `store` (one per store, shared by its screens)."""
    with _SAVED_LOCK:
        if store not in _SAVED:
            _SAVED[store] = Saved()
        return _SAVED[store]


@dataclass
class Problem:
    """An invalid entry: the message in the reader's language and the field it is about."""

    text: str
    field: str | None = None


class ViewModel:
    """What one screen shows and every intention a player can express on it."""

    #: True in the phone-alone build (companion/web/browser.py sets it): there is no server, so the
    #: browser saves exports and backups (`export_file`), and table mode is not offered.
    browser = False

    def __init__(self, store: Store):
        self.store = store
        lang = store.setting("language", DEFAULT_LANGUAGE)
        self.t = Translator(lang if lang in LANGUAGES else DEFAULT_LANGUAGE, store.text)
        #: Told the language chosen on this screen (the server's tabs: remembered on the phone, so each
        #: phone has its own); None: remembered as the store's setting.
        self.on_language: Callable[[str], None] | None = None
        self.route = "home"
        self.session: dict | None = None
        self.state: dict | None = None
        self.problem: Problem | None = None
        self.notice: str | None = None
        #: Table mode: the player this phone belongs to; it bids and passes only for that player.
        self.me: str | None = None
        self._listeners: list[Callable[[], None]] = []
        self.lock = threading.RLock()
        #: Told after every save ("game" or "catalogue", session id): table mode tells the other phones.
        self.on_saved: Callable[[str, str], None] = lambda kind, sid: None

    # -- observing -------------------------------------------------------------------------------

    def subscribe(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    # -- language and navigation -----------------------------------------------------------------

    @property
    def lang(self) -> str:
        return self.t.lang

    def speak(self, lang: str | None) -> None:
        """Start in the phone's language (its own choice, else its browser's), remembering nothing;
        None or a language the app does not speak: the store's setting stays."""
        if lang in LANGUAGES:
            self.t = Translator(lang, self.store.text)

    @_locked
    @_writes
    def set_language(self, lang: str) -> None:
        """Switch every text at once (UI strings and rule text) and remember the choice."""
        if lang in LANGUAGES:
            self.t = Translator(lang, self.store.text)
            if self.on_language:
                self.on_language(lang)
            else:
                self.store.set_setting("language", lang)
            self._changed()

    @_locked
    def go(self, route: str) -> None:
        self.route = route
        self.problem, self.notice = None, None
        self._changed()

    @_locked
    def home(self) -> None:
        self.session, self.state = None, None
        self.go("home")

    @property
    def game(self):
        return GAMES[self.session["game"]] if self.session else None

    def games(self) -> list:
        return list(GAMES.values())

    def in_progress(self) -> list[dict]:
        return self.store.sessions(status="active")

    def notices(self) -> list[str]:
        return [self.t.msg(m) for m in self.store.notices]

    # -- sessions --------------------------------------------------------------------------------

    @_locked
    @_writes
    def new_game(self, game_id: str, form: dict[str, Any]) -> bool:
        """Start a session from the new-game form; on a bad entry say which field and change nothing."""
        game = GAMES[game_id]
        try:
            config = game.new_config(form)
        except InvalidAction as error:
            return self._refuse(error)
        sid = self.store.create_session(game_id, config)
        self.on_saved("catalogue", sid)
        return self.open(sid)

    @_locked
    def open(self, sid: str, route: str | None = None) -> bool:
        """Resume a session exactly where its log left it (or show it on `route`). The log is read
        from the file; its state is the one kept in memory when that is the state after this very
        log, so a phone that opens a long game does not replay it."""
        try:
            with saved(self.store).lock:
                session = self.store.load(sid)
                session["log"], state = self._state_after(session)
        except (SessionLost, KeyError, InvalidAction):
            self.problem = Problem(self.t(N_("This game could not be opened.")))
            self.session, self.state, self.route = None, None, "home"
            self._changed()
            return False
        self.session, self.state = session, state
        self.problem = None
        self.route = route or _route_for(state)
        self._changed()
        return True

    @_locked
    @_writes
    def dispatch(self, kind: str, **args: Any) -> bool:
        """Apply one action: persisted first, then shown. False (and a Problem) when refused."""
        action = {"type": kind, "args": args}
        acting = args.get("player")
        if self.me and kind in self.game.personal and acting and acting != self.me:
            names = {p["colour"]: p["name"] for p in self.session["config"]["players"]}
            return self._refuse(InvalidAction(Msg(N_(
                "This phone belongs to {me}: {name} enters this on their own phone (or on one that belongs to "
                "nobody)."), {"me": names.get(self.me, ""), "name": names.get(acting, "")})))
        try:
            new_state = flow.apply(self.game, self.session["config"], self.state, action)
        except InvalidAction as error:
            return self._refuse(error)
        refused, sid = None, self.session["id"]
        with saved(self.store).lock:  # the write and the state kept in memory change together
            for _attempt in range(5):
                try:
                    self.store.record(sid, action, expect=len(self.session["log"]))
                    break
                except SessionLost:  # gone meanwhile (a restore on another phone): say so, go home
                    refused = "stale"
                    break
                except Stale:
                    # Another phone recorded first. A player's own ledger entry still counts on the game
                    # as it now is; anything else (a turn, a bid) was meant for a state that is gone.
                    if not flow.independent(self.game, action) or not self._load_current(stale=True):
                        refused = "stale"
                        break
                    try:
                        new_state = flow.apply(self.game, self.session["config"], self.state, action)
                    except InvalidAction as error:
                        refused = error
                        break
            else:
                refused = "stale"
            if refused is None:
                self.session = {**self.session, "log": self.session["log"] + [action]}
                saved(self.store).put(sid, self.session["log"], new_state)
        if refused is not None:
            return self._stale() if refused == "stale" else self._refuse(refused)
        self._settle(new_state)
        self.on_saved("game", self.session["id"])
        return True

    @_locked
    @_writes
    def undo(self) -> bool:
        """Take back the last action (again and again, also after a restart)."""
        if not self.session or not self.session["log"]:
            return False
        count = flow.undo_count(self.game, self.session["log"])
        with saved(self.store).lock:
            try:
                self.store.undo(self.session["id"], expect=len(self.session["log"]), count=count)
            except (Stale, SessionLost):
                stale = True
            else:
                stale = False
                self.session = {**self.session, "log": self.session["log"][:-count]}
                state = flow.replay(self.game, self.session["config"], self.session["log"])
                saved(self.store).put(self.session["id"], self.session["log"], state)
        if stale:
            return self._stale()
        self._settle(state)
        self.on_saved("game", self.session["id"])
        return True

    # -- history and statistics ------------------------------------------------------------------

    def finished(self) -> list[dict]:
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
                except (SessionLost, KeyError, InvalidAction):
                    continue
                entry["result"] = missing[entry["id"]]
        if missing:
            with contextlib.suppress(OSError):  # kept for next time where the disk allows it
                self.store.set_results(missing)
        return [e for e in entries if e.get("result")]

    #: What the history's export buttons download: the name (also the server's /download/ route) and
    #: how it is made.
    EXPORTS = ("games.csv", "games-excel-cs.csv", "games.json", "backup.zip")

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
        try:
            return stamped, backup.backup(self.store.dir)
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
                games, aside = self.store.replace_files(lambda: backup.restore(self.store.dir, blob))
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

    def _refuse_file(self, error: Exception) -> bool:
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

    def statistics(self, period: str = "all", game: str | None = None) -> dict:
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

    def details(self, sid: str) -> dict:
        entry = next((e for e in self.store.sessions("finished") if e["id"] == sid), {})
        return entry.get("details") or dict(NO_DETAILS)

    # -- our sheets ----------------------------------------------------------------------------

    def sheets(self) -> list[dict]:
        return self.store.sheets()

    @_locked
    @_writes
    def new_sheet_game(self, form: dict[str, Any]) -> bool:
        """Start a game on a score sheet: the sheet is checked, kept in "Our sheets" (a new one gets its
        id; a changed one replaces its old self), then the game starts; nothing changes on a bad entry."""
        game = GAMES["score_sheet"]
        try:
            game.new_config(form)  # every field checked before the sheet is kept
            sheet = self.store.save_sheet(game.new_config(form)["sheet"])
        except InvalidAction as error:
            return self._refuse(error)
        return self.new_game("score_sheet", dict(form, sheet=sheet))

    @_locked
    def view(self, sid: str) -> bool:
        """Open a game from the history, read-only: its final breakdown, charts and whole log."""
        return self.open(sid, "archive")

    def progression(self) -> dict[str, list[int]] | None:
        return history.progression(self.game, self.session["config"], self.session["log"])

    def sealed(self, kind: str) -> list[str]:
        """Who has sealed an entry of `kind` in this game (never the values)."""
        return sorted(self.store.sealed(self.session["id"], kind))

    @_locked
    @_writes
    def seal(self, kind: str, player: str, value: Any, reveal: Callable[[dict], bool]) -> bool:
        """Seal `player`'s entry; when every player's is in, `reveal(entries)` records them together
        (one action). False when the reveal was refused: the entries are cleared to be entered again."""
        players = {p["colour"] for p in self.session["config"]["players"]}
        entries = self.store.seal(self.session["id"], kind, player, value, players)
        if entries is None:
            self.on_saved("sealed", self.session["id"])
            self._changed()
            return True
        return reveal(entries)

    def _stale(self) -> bool:
        """Another phone recorded first: show the game as it now is, and say so."""
        if not self.open(self.session["id"]):
            return False  # it is gone: the home screen says it could not be opened
        self.problem = Problem(self.t(N_("The game was changed on another screen: this is its current state. "
                                         "Please enter that again.")))
        log.info("refused (stale): %s", self.problem.text)
        self._changed()
        return False

    @_locked
    def refresh(self) -> None:
        """Catch up with what another phone saved (the screen stays where it is)."""
        if not self.session or not self._load_current():
            return
        if self.route not in ("rules", "log", "scores") or self.state.get("phase") == "over":
            self.route = _route_for(self.state)
        self._changed()

    def _load_current(self, stale: bool = False) -> bool:
        """Take the stored session as it now is (without redrawing); False when nothing is newer
        or it cannot be read. What another screen of this server saved is in memory already;
        the file is read for a game not kept there, or when the store found this screen `stale`
        and memory knows nothing newer (another process changed the file)."""
        sid = self.session["id"]
        try:
            with saved(self.store).lock:
                entry = saved(self.store).get(sid)
                if entry is None or stale and _same_log(entry[0], self.session["log"]):
                    entry = self._state_after(self.store.load(sid))
        except (SessionLost, KeyError, InvalidAction):
            return False
        log, state = entry
        newer = not _same_log(log, self.session["log"])
        self.session = {**self.session, "log": log}
        if newer:
            self.state = state
        return newer

    def _state_after(self, session: dict) -> tuple[list, dict]:
        """The log and the state after `session`'s log (as just read from its file): those kept in
        memory when they are this very log (so that every phone on a game shares one copy of a long
        log), else the replay (kept from now on). Under Saved's lock."""
        entry = saved(self.store).get(session["id"])
        if entry is not None and _same_log(entry[0], session["log"]):
            log, state = entry
            if log and "at" not in log[-1] and "at" in session["log"][-1]:  # added here: no saving time
                log = session["log"]
        else:
            log, state = session["log"], flow.replay(GAMES[session["game"]], session["config"], session["log"])
        saved(self.store).put(session["id"], log, state)
        return log, state

    def undo_label(self) -> str | None:
        """"Undo: <what the last action did>", or None when there is nothing to undo."""
        if not self.session or not self.session["log"]:
            return None
        log = self.session["log"]
        return self.t(N_("Undo: {action}")).format(action=self.describe(log[-flow.undo_count(self.game, log)]))

    def describe(self, action: dict) -> str:
        return self.t.msg(self.game.describe(action, self.session["config"]))

    def history(self) -> list[str]:
        """What happened this game, newest first."""
        return [self.describe(a) for a in reversed(self.session["log"])] if self.session else []

    def _settle(self, state: dict) -> None:
        finished = state.get("phase") == "over"
        if finished != (self.state.get("phase") == "over"):  # the catalogue is written only then
            summary = None
            if finished:  # the stored log has every action's time (the play time)
                summary = history.summary(self.game, self.session["config"], state,
                                          self.store.load(self.session["id"])["log"])
            self.store.set_status(self.session["id"], "finished" if finished else "active", summary)
        self.state = state
        self.problem = None
        if self.route not in ("rules", "log"):
            self.route = _route_for(state)
        self._changed()

    def _refuse(self, error: InvalidAction) -> bool:
        self.problem = Problem(self.t.msg(error.msg), error.field)
        log.info("refused: %s", self.problem.text)
        self._changed()
        return False

    # -- helpers for screens -----------------------------------------------------------------------

    def msg(self, msg: Msg) -> str:
        return self.t.msg(msg)

    def error_for(self, field: str) -> str | None:
        """The message for `field` if the last refused entry was about it."""
        if self.problem and self.problem.field and (self.problem.field == field
                                                    or self.problem.field.startswith(field + ".")):
            return self.problem.text
        return None


def _same_log(a: list, b: list) -> bool:
    """Whether two logs hold the same actions (the time each was saved aside), compared newest first."""
    return a is b or len(a) == len(b) and all(
        x.get("type") == y.get("type") and x.get("args", {}) == y.get("args", {})
        for x, y in zip(reversed(a), reversed(b)))


#: A finished game's details before anyone entered them (the play time: first to last action).
NO_DETAILS = {"minutes": None, "place": "", "note": ""}


def _route_for(state: dict) -> str:
    return {"setup": "setup", "final": "final", "scoring": "final", "tally": "final", "over": "result"}.get(
        state.get("phase"), "round")
