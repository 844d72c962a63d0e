"""The referee: the one place below the screens where a tap becomes part of a game, and the owner of each
game's version.

A game's version is a whole number that every recorded action and every undo raises by one (the store
keeps it in the game's file: companion/storage/journal.py). It is the only notion of "current": a screen
is drawn from one version, a tap carries the version of the screen it was made on, and the store writes
an action only onto the version it was judged on. (boardgame.io's multiplayer Master does the same with
its `stateID`.)

A screen hands the referee an action together with the version its screen was drawn from (what the
player saw when he tapped). The referee checks, applies, records and answers, in one trip down:

1. the game must still be at that version: if another phone (or a double tap of the same one) has
   recorded or undone something since, an action that depends on whose turn it is, is refused as out of
   date and never applied to the new state; a player's own ledger entry that does not
   (`flow.independent`) counts on the game as it now is, if the rules allow it there;
2. the game's table of allowed actions and its reducers (`flow.apply`) must allow it;
3. the store must take it (`Store.record`, which refuses it as stale when another process wrote first),
   in one write with the game's status: an action that finishes the game carries its summary;
4. only then it is the game's new state, kept in memory for every screen of this process (`Saved`);
   the catalogue's entry follows the game's file (its status and result), and the caller tells the
   other phones.

The table's phones (one server, many tabs) and the phone-alone build (one tab) both come here.
"""
from __future__ import annotations

import logging
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Mapping
from typing import Any, NamedTuple

from . import history
from .engine import flow
from .engine.model import GameDef, InvalidAction, Msg, N_
from .games import GAMES
from .store import SessionLost, Stale, Store

logger = logging.getLogger(__name__)


class Kept(NamedTuple):
    """A game as this process knows it: its version, its log (a list nobody changes afterwards) and the
    state after that log (shared, so nobody may change it: flow.apply never does; screens only read)."""

    version: int
    log: list[dict[str, Any]]
    state: dict[str, Any]


class Saved:
    """The last saved version, log and state of the games open in this process, shared by every screen on
    one store: a phone that opens a game, or catches up with what another phone saved, takes the state
    from here instead of replaying the log. For a few versions before it, the log too: a phone whose tap
    came from one of them is told what happened meanwhile.

    Only what the store has accepted comes here, and each write of a game's file happens under `lock`
    together with the update here: whoever holds the lock finds here what the file holds."""

    LIMIT = 64   # games kept; a game not among them is read and replayed when next opened
    EARLIER = 8  # earlier versions of a game whose logs are kept

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self._games: OrderedDict[str, Kept] = OrderedDict()
        self._earlier: dict[str, deque[tuple[int, list[dict[str, Any]]]]] = {}

    def get(self, sid: str) -> Kept | None:
        with self.lock:
            kept = self._games.get(sid)
            if kept is not None:
                self._games.move_to_end(sid)
            return kept

    def put(self, sid: str, kept: Kept) -> None:
        with self.lock:
            before = self._games.get(sid)
            if before is not None and before.version < kept.version:
                self._earlier.setdefault(sid, deque(maxlen=self.EARLIER)).append((before.version, before.log))
            self._games[sid] = kept
            self._games.move_to_end(sid)
            while len(self._games) > self.LIMIT:
                gone, _kept = self._games.popitem(last=False)
                self._earlier.pop(gone, None)

    def log_at(self, sid: str, version: int) -> list[dict[str, Any]] | None:
        """The game's log at `version`, while it is the current one or one of the last few."""
        with self.lock:
            kept = self._games.get(sid)
            if kept is not None and kept.version == version:
                return kept.log
            return next((log for v, log in self._earlier.get(sid, ()) if v == version), None)

    def clear(self) -> None:
        with self.lock:
            self._games.clear()
            self._earlier.clear()


_SAVED: weakref.WeakKeyDictionary[Store, Saved] = weakref.WeakKeyDictionary()
_SAVED_LOCK = threading.Lock()


def saved(store: Store) -> Saved:
    """The Saved of `store` (one per store, shared by its screens)."""
    with _SAVED_LOCK:
        if store not in _SAVED:
            _SAVED[store] = Saved()
        return _SAVED[store]


class Verdict(NamedTuple):
    """The referee's answer. Accepted: `log`, `state` and `version` are the game's new ones. Refused:
    `refusal` says why (and `field` which entry it is about); `stale` when the game had moved on since
    the screen the action came from (then `log`, `state` and `version` are the game as it now is, to be
    shown), `lost` when the game is gone."""

    log: list[dict[str, Any]] | None = None
    state: dict[str, Any] | None = None
    version: int | None = None
    refusal: Msg | None = None
    stale: bool = False
    lost: bool = False
    field: str | None = None  # the entry the refusal is about, where it is one (shown next to it)

    @property
    def accepted(self) -> bool:
        return self.refusal is None and not self.stale and not self.lost


def _names(config: Mapping[str, Any]) -> dict[str, str]:
    return {p["colour"]: p["name"] for p in config["players"]}


def _starts(log: list[dict[str, Any]], head: list[dict[str, Any]]) -> bool:
    """Whether `log` begins with the actions of `head` (their types and arguments)."""
    return len(log) >= len(head) and all(
        x.get("type") == y.get("type") and x.get("args", {}) == y.get("args", {}) for x, y in zip(log, head))


def out_of_date(game: GameDef, config: Mapping[str, Any], shown: list[dict[str, Any]] | None,
                log: list[dict[str, Any]], state: Mapping[str, Any]) -> Msg:
    """What a phone says when its tap came from a screen the game has left (drawn from the log `shown`,
    None when that version is no longer known): what happened meanwhile (the newest entry since that
    screen) and who acts now (as the header says it, from `state`), and that the tap was not recorded."""
    if shown is not None and len(log) > len(shown) and _starts(log, shown):
        guide = game.guide(state, config) if game.guide else None
        if guide is not None and guide.actor:
            return Msg(N_("Meanwhile: {what}. {role} {name}. Your screen was out of date, so your tap was not "
                          "recorded; this is the game now."),
                       {"what": flow.describe(game, log[-1], config), "role": guide.role or Msg(N_("On turn:")),
                        "name": _names(config).get(guide.actor, "")})
        return Msg(N_("Meanwhile: {what}. Your screen was out of date, so your tap was not recorded; this is "
                      "the game now."), {"what": flow.describe(game, log[-1], config)})
    if shown is not None and len(shown) > len(log) and _starts(shown, log):
        return Msg(N_("Meanwhile undone: {what}. Your screen was out of date, so your tap was not recorded; this "
                      "is the game now."), {"what": flow.describe(game, shown[len(log)], config)})
    return Msg(N_("Your screen was out of date (the game was changed on another phone meanwhile), so your tap was "
                  "not recorded; this is the game now."))


def owner_refusal(game: GameDef, config: Mapping[str, Any], state: Mapping[str, Any], action: Mapping[str, Any],
                  me: str | None) -> Msg | None:
    """Table mode: why a phone that belongs to `me` may not make `action` (None: it may). A player's
    personal action (a bid, a pass) is made only for that player, and an action that is one player's
    to make now (ending his turn) only by that player's phone."""
    if not me:
        return None
    names = _names(config)
    acting = action.get("args", {}).get("player")
    if action["type"] in game.personal and acting and acting != me:
        return Msg(N_("This phone belongs to {me}: {name} enters this on their own phone (or on one that belongs "
                      "to nobody)."), {"me": names.get(me, ""), "name": names.get(acting, "")})
    rule = flow.moves(game, config, state).get(action["type"])
    if rule is not None and rule.refusal is None and rule.by is not None and not acting and me not in rule.by:
        who = flow.by_name(config, rule.by)
        return Msg(N_("This phone belongs to {me}: only {who} can do this now (on their own phone or on one "
                      "that belongs to nobody)."), {"me": names.get(me, ""), "who": who})
    return None


def finished_result(game: GameDef, config: Mapping[str, Any], state: Mapping[str, Any],
                    log: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The summary the history keeps of a game whose state is over (None: it is not), from its log with
    every action's time (the play time)."""
    return history.summary(game, config, state, log) if state.get("phase") == "over" else None


class Referee:
    """Checks, applies and records the actions of the games of one store (see the module's text)."""

    def __init__(self, store: Store):
        self.store = store
        self.saved = saved(store)

    def opened(self, session: Mapping[str, Any]) -> Kept:
        """A game as just read from its file (`store.load`): the one kept in memory when it is this very
        version (every phone on a game shares one copy of a long log), else its log replayed (kept from
        now on). May raise what a replay of a damaged file raises (store.CANNOT_REPLAY)."""
        with self.saved.lock:
            kept = self.saved.get(session["id"])
            if kept is None or kept.version != session["version"]:
                kept = Kept(session["version"], session["log"],
                            flow.replay(GAMES[session["game"]], session["config"], session["log"]))
                self.saved.put(session["id"], kept)
            return kept

    def current(self, sid: str, game_id: str, config: Mapping[str, Any]) -> Kept:
        """The game as this process knows it; read from its file when it is not kept here (raises
        SessionLost when it is gone)."""
        with self.saved.lock:
            kept = self.saved.get(sid)
            if kept is None:
                kept = self._reread(sid, game_id, config)
                self.saved.put(sid, kept)
            return kept

    def submit(self, sid: str, game_id: str, config: Mapping[str, Any], shown: int, action: dict[str, Any],
               me: str | None = None) -> Verdict:
        """Record `action`, tapped on a screen drawn from version `shown` of the game, by a phone that
        belongs to `me` (None: to nobody, it acts for anyone)."""
        game = GAMES[game_id]
        with self.saved.lock:  # the write and the state kept in memory change together
            for _attempt in range(5):
                try:
                    kept = self.current(sid, game_id, config)
                except SessionLost:
                    return Verdict(lost=True)
                if kept.version != shown and not flow.independent(game, action):
                    return self._stale(sid, game, config, shown, kept)
                refusal = owner_refusal(game, config, kept.state, action, me)
                if refusal is not None:
                    return Verdict(kept.log, kept.state, kept.version, refusal)
                try:
                    new = flow.apply(game, config, kept.state, action)
                except InvalidAction as error:
                    return Verdict(kept.log, kept.state, kept.version, error.msg, field=error.field)
                recorded = {**action, "at": time.time(), **({"by": me} if me else {})}  # who entered it: Undo
                log = kept.log + [recorded]                                              # on another phone asks
                result = finished_result(game, config, new, log)
                try:
                    version = self.store.record(sid, recorded, expect=kept.version, result=result)
                except SessionLost:
                    return Verdict(lost=True)
                except Stale:  # another process wrote first: judge again on what it wrote
                    self.saved.put(sid, self._reread(sid, game_id, config))
                    continue
                self.saved.put(sid, Kept(version, log, new))
                self._follow(sid, kept.state, new, result)
                return Verdict(log, new, version)
            return self._stale(sid, game, config, shown, self.current(sid, game_id, config))

    def undo(self, sid: str, game_id: str, config: Mapping[str, Any], shown: int) -> Verdict:
        """Take back the last entry (with the steps moved through since it), if the game is still at the
        version of the screen `shown`: two Undo taps on one screen undo one entry."""
        game = GAMES[game_id]
        with self.saved.lock:
            try:
                kept = self.current(sid, game_id, config)
            except SessionLost:
                return Verdict(lost=True)
            if kept.version != shown:
                return self._stale(sid, game, config, shown, kept)
            if not kept.log:
                return Verdict(kept.log, kept.state, kept.version, Msg(N_("There is nothing to undo.")))
            log = kept.log[:-flow.undo_count(game, kept.log)]
            state = flow.replay(game, config, log)
            result = finished_result(game, config, state, log)
            try:
                version = self.store.undo(sid, expect=kept.version, count=len(kept.log) - len(log), result=result)
            except SessionLost:
                return Verdict(lost=True)
            except Stale:
                kept = self._reread(sid, game_id, config)
                self.saved.put(sid, kept)
                return self._stale(sid, game, config, shown, kept)
            self.saved.put(sid, Kept(version, log, state))
            self._follow(sid, kept.state, state, result)
            return Verdict(log, state, version)

    def _stale(self, sid: str, game: GameDef, config: Mapping[str, Any], shown: int, kept: Kept) -> Verdict:
        return Verdict(kept.log, kept.state, kept.version, out_of_date(game, config, self.saved.log_at(sid, shown),
                                                                       kept.log, kept.state), stale=True)

    def _follow(self, sid: str, before: Mapping[str, Any], after: Mapping[str, Any],
                result: dict[str, Any] | None) -> None:
        """The catalogue's entry follows the game's file, which the store has just written: finished with
        its result, a finished game's result corrected, or active again after an undo (written only
        when it changes). The game's file holds the truth: a catalogue that could not be written (a kill,
        a full disk) is mended from it at the next start, and the action stands."""
        if before.get("phase") == "over" or after.get("phase") == "over":
            try:
                self.store.set_status(sid, "finished" if result else "active", result)
            except OSError as error:
                logger.warning("the list of games could not follow game %s: %s", sid, error)

    def _reread(self, sid: str, game_id: str, config: Mapping[str, Any]) -> Kept:
        session = self.store.load(sid)
        return Kept(session["version"], session["log"], flow.replay(GAMES[game_id], config, session["log"]))
