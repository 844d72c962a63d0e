"""The view-model: one per browser session, plain Python (no Flet), driven by pytest directly.

Data flow for one tap: the screen's handler runs inside `as_shown(version)` (the game's version that
screen was drawn from) → `dispatch` → the referee (companion/referee.py: out of date? allowed? apply,
record) → only then the new state → listeners re-render. The screen never shows a state that is not on
disk, and a tap is never applied to a state its screen did not show.
"""
from __future__ import annotations

import contextlib
import logging
import threading
from typing import Any
from collections.abc import Callable, Iterator

from .. import history, teach
from ..engine import flow
from ..engine.model import GameDef, InvalidAction, Msg, N_, Rule
from ..games import GAMES
from ..i18n import DEFAULT_LANGUAGE, LANGUAGES, Translator
from ..referee import Referee, Verdict, owner_refusal
from ..store import CANNOT_REPLAY, SessionLost, Store
from .records import Records
from .vmbase import Problem, _locked, _writes

log = logging.getLogger(__name__)


class ViewModel(Records):
    """What one screen shows and every intention a player can express on it (the history's and the
    files' in Records, companion/ui/records.py)."""

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
        self.session: dict[str, Any] | None = None
        self.state: dict[str, Any] | None = None
        self.problem: Problem | None = None
        self.notice: str | None = None
        #: The game last found damaged (its log cannot be replayed): the home screen offers its file
        #: and its deletion.
        self.damaged: str | None = None
        #: The catalogue entry of the game this screen deleted: it can be had back until the next screen.
        self.deletion: dict[str, Any] | None = None
        #: The game just abandoned on this screen (home offers to take it up again until the next one).
        self.let_go: dict[str, Any] | None = None
        #: Table mode: the player this phone belongs to; it bids and passes only for that player.
        self.me: str | None = None
        #: Table mode: whom this phone belonged to in each game it showed (game id → colour).
        self.owned: dict[str, str] = {}
        self._listeners: list[Callable[[], None]] = []
        self.lock = threading.RLock()
        #: Told after every save ("game", "catalogue", "sealed"; the session id; who saved it, when it was
        #: a player's phone): table mode tells the other phones.
        self.on_saved: Callable[..., None] = lambda kind, sid, by=None: None
        self.referee = Referee(store)
        #: The version of the game on the screen whose control is being handled (`as_shown`): None outside
        #: a tap.
        self._shown: int | None = None
        #: How many entries this screen has recorded (actions and undos the referee accepted): a control
        #: whose tap raised it has been answered, and does not record again (companion/ui/shell.py).
        self.recorded = 0
        #: The game another phone deleted while this one showed it: it opens again here if it comes back.
        self.lost_game: str | None = None
        self._moves: tuple[int, dict[str, Rule]] | None = None  # the table of allowed actions, by state
        #: The new-game form's "Teach us" switch: the next game started from the form teaches.
        self.teach_next = False

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
        self._let_go_deletion()
        self.route = route
        self.teach_next = False  # a new-game form opens with "Teach us" off
        self.problem, self.notice, self.damaged = None, None, None
        self._changed()

    @_locked
    def home(self) -> None:
        self.session, self.state = None, None
        self.go("home")

    @property
    def game(self) -> GameDef:
        """The open game's rules (asked only inside a game)."""
        return GAMES[self.game_session["game"]]

    @property
    def game_session(self) -> dict[str, Any]:
        """The open game's session (its configuration and log): asked only inside a game, where a
        screen is drawn from it."""
        if self.session is None:
            raise LookupError("no game is open")
        return self.session

    @property
    def game_state(self) -> dict[str, Any]:
        """The open game's state, as the log replays to (asked only inside a game)."""
        if self.state is None:
            raise LookupError("no game is open")
        return self.state

    def games(self) -> list[GameDef]:
        return list(GAMES.values())

    def in_progress(self) -> list[dict[str, Any]]:
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
        if self.teach_next and self.teaches(game_id):
            # a group that has learnt this game before starts with teaching folded away (one tap opens it)
            config["teach"] = "folded" if teach.group(game_id, config) in self._taught_groups() else "open"
        self.teach_next = False
        sid = self.store.create_session(game_id, config)
        self.on_saved("catalogue", sid)
        return self.open(sid)

    # -- teach mode ------------------------------------------------------------------------------

    def teaches(self, game_id: str) -> bool:
        """The game has teaching texts, as the rule-text table the app already holds says (no data file
        read on the tap that opens the new-game form)."""
        return teach.teaches(game_id, self.store.text_keys())

    def set_teach_next(self, on: bool) -> None:
        """The new-game form's "Teach us" switch."""
        self.teach_next = bool(on)
        self._changed()

    def teach_mode(self) -> str | None:
        """This game's teaching: "open" (setup and round 1 explained), "folded" (after round 1, or a group
        that has learnt the game before: one tap opens a step's help), None (a game that does not teach)."""
        if not self.session or self.session["config"].get("teach") not in ("open", "folded"):
            return None
        if self.game_session["config"]["teach"] == "open" and teach.first_round(self.game_session["game"],
                                                                                self.game_state,
                                                                          self.session["log"]):
            return "open"
        return "folded"

    def teach_recap(self) -> bool:
        """True in round 2 of a game that taught round 1: the three-line recap is shown."""
        return (self.session is not None and self.session["config"].get("teach") == "open"
                and self.game_state.get("phase") not in ("setup", "over")
                and teach.round_of(self.game_session["game"], self.game_state, self.game_session["log"]) == 2)

    def teach_step(self) -> tuple[str, str] | None:
        """"How to do it" and "why it matters" of the step on screen, in the reader's language (None:
        no step, or a step without them)."""
        step = teach.step(self.game_session["game"], self.game_session["config"], self.game_state)
        if step is None:
            return None
        how, why = teach.how(self.game_session["game"], step)
        shown = self.t.text(how.key), self.t.text(why.key)
        return None if shown[0] == how.key else shown

    def teach_explain(self) -> list[str]:
        """The explanation on the spot of what just happened, with this table's names and numbers."""
        return [self.t.msg(m) for m in teach.explain(self.game_session["game"], self.game_session["config"],
                                                     self.game_state,
                                                     self.game_session["log"])]

    def _taught_groups(self) -> list[str]:
        """The groups that have learnt a game here (`teach.group` keys)."""
        taught = self.store.setting(teach.TAUGHT, [])
        return [g for g in taught if isinstance(g, str)] if isinstance(taught, list) else []

    def _taught(self) -> None:
        """Round 1 of a teaching game is over: its group has learnt the game."""
        config = self.game_session["config"]
        if config.get("teach") != "open" or teach.first_round(self.game_session["game"], self.game_state,
                                                              self.game_session["log"]):
            return
        key = teach.group(self.game_session["game"], config)
        taught = self._taught_groups()
        if key not in taught:
            self.store.set_setting(teach.TAUGHT, [*taught, key])

    @_locked
    def open(self, sid: str, route: str | None = None) -> bool:
        """Resume a session exactly where its log left it (or show it on `route`). The log is read
        from the file; its state is the one kept in memory when that is the state after this very
        log, so a phone that opens a long game does not replay it."""
        try:
            session = self.store.load(sid)
            if session.get("imported"):  # from BG Stats: no log to replay, only the result its file gave
                state = {"phase": "over"}
                route = "archive"
            else:
                kept = self.referee.opened(session)
                session["log"], state = kept.log, kept.state
        except SessionLost:
            self.problem = Problem(self.t(N_("This game could not be opened.")))
            self.session, self.state, self.route, self.damaged = None, None, "home", None
            self._changed()
            return False
        except CANNOT_REPLAY as error:  # a file no screen wrote (edited by hand, a foreign backup)
            log.warning("game %s cannot be replayed: %s", sid, type(error).__name__)
            self.found_damaged(sid)
            self._changed()
            return False
        self._let_go_deletion()
        self.session, self.state = session, state
        self.problem, self.damaged, self.lost_game = None, None, None
        self.route = route or _route_for(state)
        self._changed()
        return True

    def found_damaged(self, sid: str) -> None:
        """The game `sid` cannot be shown (its actions cannot be replayed, or a screen cannot be drawn
        from them): the home screen says so and offers its file and its deletion (without redrawing)."""
        self.problem = Problem(self.t(N_("This game is damaged: its saved actions cannot be replayed, so it "
                                         "cannot be shown. You can save its file (to look into it or to send "
                                         "it for help) and delete the game.")))
        self.session, self.state, self.route, self.damaged = None, None, "home", sid

    @contextlib.contextmanager
    def as_shown(self, version: int | None) -> Iterator[None]:
        """Handle a tap on a screen drawn from the game's `version`: what it enters is judged against that
        version, so a tap that comes after the game moved on (another phone, or a second tap before the
        redraw) is refused as out of date instead of being applied to a state its screen never showed."""
        outer, self._shown = self._shown, version
        try:
            yield
        finally:
            self._shown = outer

    @property
    def shown(self) -> int:
        """The version the player acted on: the tapped screen's, else the one this view-model shows."""
        return self._shown if self._shown is not None else self.game_session["version"]

    def moves(self) -> dict[str, Rule]:
        """The game's table of allowed actions in the state shown (computed once per state)."""
        if self._moves is None or self._moves[0] != id(self.state):
            self._moves = (id(self.game_state), flow.moves(self.game, self.game_session["config"], self.game_state))
        return self._moves[1]

    def rule(self, kind: str, player: str | None = None) -> Rule:
        """Whether `kind` (made for `player`) is allowed in the state shown, and on this phone: the
        rule with its reason when it is not."""
        rule = self.moves().get(kind, Rule(Msg(N_("That is not possible at this point of the game."))))
        if rule.refusal is None and player is not None and rule.by is not None and player not in rule.by:
            names = {p["colour"]: p["name"] for p in self.game_session["config"]["players"]}
            return Rule(Msg(N_("It is not {name}'s turn for this: {who} acts now."),
                            {"name": names.get(player, player),
                             "who": flow.by_name(self.game_session["config"], rule.by)}),
                        field="player")
        if rule.refusal is None:
            refusal = owner_refusal(self.game, self.game_session["config"], self.game_state,
                                    {"type": kind, "args": {"player": player} if player else {}}, self.me)
            if refusal is not None:
                return Rule(refusal)
        return rule

    def refuse(self, msg: Msg, field: str | None = None) -> bool:
        """Say why a control cannot be used now (a tap on a control the rules do not allow)."""
        return self._refuse(InvalidAction(msg, field))

    @_locked
    @_writes
    def dispatch(self, /, kind: str, **args: Any) -> bool:
        """Apply one action: persisted first, then shown. False (and a Problem) when refused."""
        verdict = self.referee.submit(self.game_session["id"], self.game_session["game"], self.game_session["config"],
                                      self.shown,
                                      {"type": kind, "args": args}, self.me)
        return self._judged(verdict)

    @_locked
    @_writes
    def undo(self) -> bool:
        """Take back the last action (again and again, also after a restart), if the game is still as
        the screen showed it."""
        if not self.session or not self.session["log"]:
            return False
        verdict = self.referee.undo(self.session["id"], self.session["game"], self.session["config"], self.shown)
        return self._judged(verdict)

    def _took(self, verdict: Verdict) -> None:
        """The game as the referee now has it (its log, state and version)."""
        self.session = {**self.game_session, "log": verdict.log, "version": verdict.version}
        self.state = verdict.state

    def _judged(self, verdict: Verdict) -> bool:
        """Show the referee's answer: the new state, or the refusal (with the game as it now is when the
        screen was out of date)."""
        if verdict.lost:
            self.open(self.game_session["id"])  # gone meanwhile (a restore on another phone): says so, goes home
            return False
        if verdict.stale:
            self._took(verdict)
            if self.route not in ("rules", "log", "scores") or self.game_state.get("phase") == "over":
                self.route = _route_for(self.game_state)
            assert verdict.refusal is not None  # a stale verdict says what happened meanwhile
            self.problem = Problem(self.t.msg(verdict.refusal))
            log.info("refused (out of date): %s", self.problem.text)
            self._changed()
            return False
        if verdict.refusal is not None:
            return self._refuse(InvalidAction(verdict.refusal, verdict.field))
        self._took(verdict)
        self.recorded += 1
        if self._shown is not None:
            self._shown = verdict.version  # the rest of this tap goes on from what it has just made
        sid = self.game_session["id"]
        self._settle()
        self.on_saved("game", sid)
        return True

    def _unfinished(self, sid: str) -> dict[str, Any] | None:
        return next((e for e in self.store.sessions() if e["id"] == sid and e["status"] in ("active", "abandoned")),
                    None)

    @_locked
    @_writes
    def abandon(self, sid: str) -> bool:
        """Let an unfinished game go: it stays in the history, marked abandoned, and never counts in
        the statistics."""
        entry = self._unfinished(sid)
        if entry is None:
            return False
        self._let_go_deletion()
        self.store.abandon(sid)
        self.problem, self.notice = None, self.t(N_("The game is kept in the history as abandoned."))
        self.let_go = entry
        self.on_saved("abandoned", sid, self.owner_name(entry))
        self._changed()
        return True

    @_locked
    @_writes
    def take_up(self, sid: str) -> bool:
        """An abandoned game in progress again, as it was (the undo of `abandon`, or later from the
        history)."""
        entry = next((e for e in self.store.sessions("abandoned") if e["id"] == sid), None)
        if entry is None:
            return False
        self.store.take_up(sid)
        self.let_go = None
        self.problem, self.notice = None, self.t(N_("The game is back among the games in progress."))
        self.on_saved("back", sid)
        self._changed()
        return True

    @_locked
    @_writes
    def delete_game(self, sid: str) -> bool:
        """Delete an unfinished (or abandoned) game, after the screen asked; `undo_delete` has it back
        until the next screen."""
        entry = self._unfinished(sid)
        if entry is None:
            return False
        self._let_go_deletion()
        self.store.delete(sid, undoable=True)
        self.deletion = entry
        self.problem, self.notice = None, None
        self.on_saved("deleted", sid, self.owner_name(entry))
        self._changed()
        return True

    @_locked
    @_writes
    def undo_delete(self) -> bool:
        """Have the game just deleted back, as it was."""
        entry, self.deletion = self.deletion, None
        if entry is None or not self.store.undelete(entry["id"]):
            self.problem = Problem(self.t(N_("The deleted game can no longer be had back.")))
            self._changed()
            return False
        self.problem, self.notice = None, self.t(N_("The game is back."))
        self.on_saved("back", entry["id"])
        self._changed()
        return True

    def _let_go_deletion(self) -> None:
        """On to another screen: the deletion made on this one stands (and its abandoning)."""
        self.let_go = None
        if self.deletion is not None:
            self.store.empty_trash(self.deletion["id"])
            self.deletion = None

    # -- our sheets ----------------------------------------------------------------------------

    def sheets(self) -> list[dict[str, Any]]:
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

    def progression(self) -> dict[str, Any] | None:
        """The open game's running scores (history.progression); None for a game imported without a log."""
        if self.game_session.get("imported"):
            return None
        return history.progression(self.game, self.game_session["config"], self.game_session["log"])

    def sealed(self, kind: str) -> list[str]:
        """Who has sealed an entry of `kind` in this game (never the values)."""
        return sorted(self.store.sealed(self.game_session["id"], kind))

    @_locked
    @_writes
    def seal(self, kind: str, player: str, value: Any, reveal: Callable[[dict[str, Any]], bool]) -> bool:
        """Seal `player`'s entry; when every player's is in, `reveal(entries)` records them together
        (one action). False when the reveal was refused: the entries are cleared to be entered again."""
        players = {p["colour"] for p in self.game_session["config"]["players"]}
        entries = self.store.seal(self.game_session["id"], kind, player, value, players)
        if entries is None:
            self.on_saved("sealed", self.game_session["id"])
            self._changed()
            return True
        return reveal(entries)

    @_locked
    def refresh(self) -> None:
        """Catch up with what another phone saved (the screen stays where it is)."""
        if not self.session or self.session.get("imported") or not self._load_current():
            return
        if self.route not in ("rules", "log", "scores") or self.game_state.get("phase") == "over":
            self.route = _route_for(self.game_state)
        self._changed()

    def _load_current(self) -> bool:
        """Take the game as the referee now has it (without redrawing); False when nothing is newer or it
        cannot be read. What another screen of this server saved is in memory already; the file is read
        for a game not kept there."""
        try:
            kept = self.referee.current(self.game_session["id"], self.game_session["game"], self.game_session["config"])
        except (SessionLost, *CANNOT_REPLAY):
            return False
        if kept.version == self.game_session["version"]:
            return False
        self.session = {**self.game_session, "log": kept.log, "version": kept.version}
        self.state = kept.state
        return True

    # -- a game let go on another phone ------------------------------------------------------------

    def owner_name(self, entry: dict[str, Any]) -> str | None:
        """The name of the player this phone belonged to in the game of catalogue `entry` (table mode), if
        it belonged to one."""
        colour = self.owned.get(entry["id"])
        return next((p["name"] for p in entry["players"] if p["colour"] == colour), None) if colour else None

    @_locked
    def let_go_elsewhere(self, kind: str, sid: str, by: str | None) -> None:
        """Another phone deleted or abandoned the game this one shows: say so, in this phone's language,
        and go home (a deleted game that comes back opens here again: `came_back`)."""
        if not self.session or self.session["id"] != sid:
            return
        _ = self.t
        if kind == "deleted":
            text = _("{name} deleted this game on their phone.").format(name=by) if by else \
                _("This game was deleted on another phone.")
            self.lost_game = sid
        else:
            text = _("{name} abandoned this game on their phone; it is kept in the history as abandoned.").format(
                name=by) if by else _("This game was abandoned on another phone; it is kept in the history as "
                                      "abandoned.")
        self.session, self.state = None, None
        self.route, self.problem, self.notice = "home", None, text
        self._changed()

    @_locked
    def came_back(self, sid: str) -> None:
        """The game deleted on another phone while this one showed it is back (its deletion undone): it
        opens here again, if this phone is still on the home screen it was sent to."""
        if self.lost_game == sid and self.session is None and self.route == "home":
            self.open(sid)
            self.notice = self.t(N_("The game is back: its deletion was undone on another phone."))
            self._changed()

    def undo_label(self) -> str | None:
        """"Undo: <what the last action did>", or None when there is nothing to undo."""
        if not self.session or not self.session["log"]:
            return None
        log = self.session["log"]
        return self.t(N_("Undo: {action}")).format(action=self.describe(log[-flow.undo_count(self.game, log)]))

    def describe(self, action: dict[str, Any]) -> str:
        return self.t.msg(flow.describe(self.game, action, self.game_session["config"]))

    def undo_owner(self) -> str | None:
        """Table mode: the other player whose entry Undo would take back on this phone (the phone asks
        first), or None: the entry is this phone's player's own, or nobody's in particular."""
        if not self.me or not self.session or not self.session["log"]:
            return None
        log = self.session["log"]
        action = log[-flow.undo_count(self.game, log)]
        owner = action.get("by") or action.get("args", {}).get("player")
        return owner if isinstance(owner, str) and owner != self.me else None

    def history(self) -> list[str]:
        """What happened this game, newest first."""
        return [self.describe(a) for a in reversed(self.session["log"])] if self.session else []

    def _settle(self) -> None:
        """The screen after an entry of its own: the step's route, the teaching folded after round 1."""
        self._taught()
        self.problem = None
        if self.route not in ("rules", "log"):
            self.route = _route_for(self.game_state)
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



def _route_for(state: dict[str, Any]) -> str:
    phase: str = state.get("phase", "")
    return {"setup": "setup", "final": "final", "scoring": "final", "tally": "final", "over": "result"}.get(
        phase, "round")
