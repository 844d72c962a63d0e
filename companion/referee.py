"""The referee: the one place below the screens where a tap becomes part of a game.

A screen hands it an action together with the log the screen was drawn from (what the player saw
when he tapped). The referee checks, applies, records and answers, in one trip down:

1. the game must still be where that screen showed it: if another phone (or a double tap of the
   same one) has recorded something since, an action that depends on whose turn it is, is refused
   as out of date and never applied to the new state; a player's own ledger entry that does not
   (`flow.independent`) counts on the game as it now is, if the rules allow it there;
2. the game's table of allowed actions and its reducers (`flow.apply`) must allow it;
3. the store must take it (`Store.record`, which refuses it as stale when another process wrote
   first);
4. only then it is the game's new state, kept in memory for every screen of this process
   (`Saved`), and the caller tells the other phones.

The table's phones (one server, many tabs) and the phone-alone build (one tab) both come here.
"""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import NamedTuple
from collections.abc import Mapping

from .engine import flow
from .engine.model import InvalidAction, Msg, N_
from .games import GAMES
from .store import SessionLost, Stale, Store


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


_SAVED: weakref.WeakKeyDictionary[Store, Saved] = weakref.WeakKeyDictionary()
_SAVED_LOCK = threading.Lock()


def saved(store: Store) -> Saved:
    """The Saved of `store` (one per store, shared by its screens)."""
    with _SAVED_LOCK:
        if store not in _SAVED:
            _SAVED[store] = Saved()
        return _SAVED[store]


def same_log(a: list, b: list) -> bool:
    """Whether two logs hold the same actions (the time each was saved aside), compared newest first."""
    return a is b or len(a) == len(b) and all(
        x.get("type") == y.get("type") and x.get("args", {}) == y.get("args", {})
        for x, y in zip(reversed(a), reversed(b)))


class Verdict(NamedTuple):
    """The referee's answer. Accepted: `log` and `state` are the game's new ones. Refused: `refusal`
    says why; `stale` when the game had moved on since the screen the action came from (then `log`
    and `state` are the game as it now is, to be shown), `lost` when the game is gone."""

    log: list | None = None
    state: dict | None = None
    refusal: Msg | None = None
    stale: bool = False
    lost: bool = False

    @property
    def accepted(self) -> bool:
        return self.refusal is None and not self.stale and not self.lost


def _names(config: Mapping) -> dict[str, str]:
    return {p["colour"]: p["name"] for p in config["players"]}


def out_of_date(game, config: Mapping, shown: list, log: list) -> Msg:
    """What a phone says when its tap came from a screen the game has left: what happened meanwhile
    (the newest entry since that screen), and that the tap was not recorded."""
    if len(log) > len(shown) and same_log(log[:len(shown)], shown):
        return Msg(N_("Meanwhile: {what}. Your screen was out of date, so your tap was not recorded; this is "
                      "the game now."), {"what": flow.describe(game, log[-1], config)})
    if len(shown) > len(log) and same_log(shown[:len(log)], log):
        return Msg(N_("Meanwhile undone: {what}. Your screen was out of date, so your tap was not recorded; this "
                      "is the game now."), {"what": flow.describe(game, shown[len(log)], config)})
    return Msg(N_("Your screen was out of date (the game was changed on another phone meanwhile), so your tap was "
                  "not recorded; this is the game now."))


def owner_refusal(game, config: Mapping, state: Mapping, action: Mapping, me: str | None) -> Msg | None:
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


class Referee:
    """Checks, applies and records the actions of the games of one store (see the module's text)."""

    def __init__(self, store: Store):
        self.store = store
        self.saved = saved(store)

    def submit(self, sid: str, game_id: str, config: Mapping, shown: list, action: dict,
               me: str | None = None) -> Verdict:
        """Record `action`, tapped on a screen drawn from the log `shown`, by a phone that belongs to
        `me` (None: to nobody, it acts for anyone)."""
        game = GAMES[game_id]
        with self.saved.lock:  # the write and the state kept in memory change together
            for _attempt in range(5):
                try:
                    log, state = self._latest(sid, game_id, config)
                except SessionLost:
                    return Verdict(lost=True)
                if not same_log(log, shown) and not flow.independent(game, action):
                    return Verdict(log, state, out_of_date(game, config, shown, log), stale=True)
                refusal = owner_refusal(game, config, state, action, me)
                if refusal is not None:
                    return Verdict(log, state, refusal)
                try:
                    new = flow.apply(game, config, state, action)
                except InvalidAction as error:
                    return Verdict(log, state, error.msg)
                if me:  # who entered it: Undo on another player's phone asks first
                    action = {**action, "by": me}
                try:
                    self.store.record(sid, action, expect=len(log))
                except SessionLost:
                    return Verdict(lost=True)
                except Stale:  # another process wrote first: judge again on what it wrote
                    self.saved.put(sid, *self._reread(sid, game_id, config))
                    continue
                log = log + [action]
                self.saved.put(sid, log, new)
                return Verdict(log, new)
            log, state = self._latest(sid, game_id, config)
            return Verdict(log, state, out_of_date(game, config, shown, log), stale=True)

    def undo(self, sid: str, game_id: str, config: Mapping, shown: list) -> Verdict:
        """Take back the last entry (with the steps moved through since it), if the game is still
        where the screen `shown` showed it: two Undo taps on one state undo one entry."""
        game = GAMES[game_id]
        with self.saved.lock:
            try:
                log, state = self._latest(sid, game_id, config)
            except SessionLost:
                return Verdict(lost=True)
            if not same_log(log, shown):
                return Verdict(log, state, out_of_date(game, config, shown, log), stale=True)
            if not log:
                return Verdict(log, state, Msg(N_("There is nothing to undo.")))
            count = flow.undo_count(game, log)
            try:
                self.store.undo(sid, expect=len(log), count=count)
            except SessionLost:
                return Verdict(lost=True)
            except Stale:
                log, state = self._reread(sid, game_id, config)
                self.saved.put(sid, log, state)
                return Verdict(log, state, out_of_date(game, config, shown, log), stale=True)
            log = log[:-count]
            state = flow.replay(game, config, log)
            self.saved.put(sid, log, state)
            return Verdict(log, state)

    def _latest(self, sid: str, game_id: str, config: Mapping) -> tuple[list, dict]:
        """The game as this process knows it (under Saved's lock); read from the file when this process
        does not keep it."""
        entry = self.saved.get(sid)
        if entry is None:
            entry = self._reread(sid, game_id, config)
            self.saved.put(sid, *entry)
        return entry

    def _reread(self, sid: str, game_id: str, config: Mapping) -> tuple[list, dict]:
        session = self.store.load(sid)
        return session["log"], flow.replay(GAMES[game_id], config, session["log"])

