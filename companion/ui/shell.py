"""The Shell: one per browser tab. It draws the view-model's current screen in the frame, follows the
address bar, schedules draws (no sooner than REDRAW_GAP after the last) and stamps every draw's
controls with the screen and the game's version they show, so a late tap is judged against what its
screen showed: a control of one version never acts on another (see `Shell.stamp`)."""
from __future__ import annotations

import asyncio
import collections
import inspect
import logging
import time
import types
from typing import Any, NamedTuple
from collections.abc import Callable, Collection, Iterator, Sequence

import flet as ft

from ..engine import flow
from ..engine.model import Msg, N_
from ..flet_internals import connection_closing, control_id, intercept_lost_events, set_fields
from ..games import GAMES
from . import drafts, history
from . import teach as teach_ui
from .game_screens import GameScreens
from .home import Home
from .viewmodel import ViewModel
from .widgets import MESSAGE_ROOM, Act, Screen, drawn

#: Seconds a tab waits for the phone to answer a question (its own storage) before giving up.
PHONE_ANSWER = 10

#: The shortest time between two draws of one tab (seconds): on a busy table (several phones
#: tapping several times a second) each phone draws the game as it stands a few times a second,
#: not once per tap and once more per other phone's news.
REDRAW_GAP = 0.15

#: What each tab sent its phone, at INFO level: when, and the game's version it showed.
DRAWS = logging.getLogger("companion.draws")
log = logging.getLogger(__name__)

#: How many earlier draws of a tab answer a tap sent from them (a phone a few draws behind): the tap
#: is judged against the game as that draw showed it (see Shell.stamp).
EARLIER_DRAWS = 8


class Drawn(NamedTuple):
    """What a draw showed: its screen (the route and the game on it) and the game's version."""

    route: str
    sid: str | None
    version: int | None


#: What a phone is told when a tap reaches a control its screen already answered, or a control of a
#: screen it has left.
ANSWERED = N_("Your screen was out of date: your first tap on this was recorded already, so this second tap "
              "was not recorded; this is the game now.")
#: News from other phones that changes the home screen's list of games.
LISTED = {"catalogue", "deleted", "abandoned", "back"}
LEFT = N_("That tap came from a screen this phone had already left, so it did nothing; this is the screen now.")


def _shown_handler(shell: Shell, handler: Callable[..., Any], drawn: Drawn, repeatable: bool = False
                   ) -> Callable[..., Any]:
    """`handler` run as a tap on the screen `drawn` (ViewModel.as_shown): not at all when the phone has
    left that screen's game since (it went home, opened another, or its game was deleted: it is told
    so), and not again once a tap on it recorded an entry (a control acts once: the second tap of a
    phone that had not caught up records nothing), unless it is `repeatable`: an action the rules take
    on any version (a counter's +1, tapped twice, counts twice). Within one game, the version judges
    the tap."""
    takes_event = bool(inspect.signature(handler).parameters)
    answered: list[bool] = []  # a tap on this control recorded an entry

    def ready() -> bool:
        if answered:
            shell.refused(Msg(ANSWERED))
            return False
        if shell.screen_now()[1] != drawn.sid:  # another game, or none: the phone left the screen's game
            shell.refused(Msg(LEFT))
            return False
        return True

    def done(before: int) -> None:
        if shell.vm.recorded != before and not repeatable:
            answered.append(True)
            shell.forget_kept()  # a part kept with this control is drawn anew, with a control that can act

    if inspect.iscoroutinefunction(handler):
        async def run_async(e: object = None) -> Any:
            if not ready():
                return None
            before = shell.vm.recorded
            with shell.vm.as_shown(drawn.version):
                result = await (handler(e) if takes_event else handler())
            done(before)
            return result
        run_async.shown = True  # type: ignore[attr-defined]
        return run_async

    def run(e: object = None) -> Any:
        if not ready():
            return None
        before = shell.vm.recorded
        with shell.vm.as_shown(drawn.version):
            result = handler(e) if takes_event else handler()
        done(before)
        return result
    run.shown = True  # type: ignore[attr-defined]
    return run


class Shell(Home, GameScreens):
    """Draws one tab: a top bar and the screen for `vm.route`; redraws when the view-model changes."""

    def __init__(self, page: ft.Page, vm: ViewModel, join: str | None = None, qr: bytes | None = None):
        self.page, self.vm = page, vm
        self.join, self.qr = join, qr  # table mode: the join link and its QR code
        self.prefs = None              # the phone's own storage (whose phone in each game, rules unfolded)
        self._recalled_for: str | None = None  # the game this tab asked the phone about (recall_game) ...
        self._draft_kept: str | None = None     # ... and the draft it last told the phone to keep (None: not yet)
        self._recalled = False              # the draft came from the phone (a reload), not from taps
        self.confirming: str | None = None  # the Undo this phone asks about (another player's entry)
        self.gone = False                   # the phone's connection is gone: nothing is drawn
        self.wakelock: ft.Wakelock | None = None  # the service that keeps the phone awake (make_main)
        self.draft: dict[str, Any] = {}          # form entries not yet sent (steppers, text fields)
        self.query = ""                # rules search
        self.rules_open = False        # a step's rule text unfolded (remembered on the phone)
        self.folds: set[str] = set()   # the folds open on this screen (a redraw keeps them open)
        self.teach_folds: teach_ui.Folds | None = None  # the teaching folds in the game on screen
        self._screen = ""
        self._inbox: set[tuple[Any, ...]] = set()       # table mode: news from other phones not handled yet
        self._due: asyncio.TimerHandle | None = None  # a draw waiting on the event loop
        self._stale = False            # the view-model changed since the last draw
        self._drawn_at = float("-inf") # when the last draw was (time.monotonic)
        # the parts of the last draw: key -> (inputs, control)
        self._kept: dict[str, tuple[tuple[object, ...], ft.Control]] = {}
        self._keeping: dict[str, tuple[tuple[object, ...], ft.Control]] = {}  # ... and of the draw being made
        self._drawn: Drawn | None = None      # the screen and the game's version the last draw showed
        self._generation = 0                  # how many times they changed
        self._screens = 0                     # how many times the screen changed (not the version)
        # earlier draws' frames
        self._earlier: collections.deque[ft.BaseControl] = collections.deque(maxlen=EARLIER_DRAWS)
        self._frames = 0                      # frames sent whole (the phone's tree drawn anew: `resync`)
        self._resync = False                  # the next draw sends the whole frame
        vm.subscribe(self.redraw)
        self._judge_late_taps()

    def _judge_late_taps(self) -> None:
        """A tap sent from a screen the phone had not yet replaced when the server drew the next one
        names a control that is no longer there: it is judged as what that screen showed (its control,
        with the screen and the version it was drawn from), so it is refused as out of date instead of
        being lost in silence or applied to the new state. A tap on a control no draw kept is answered
        too. Either way the phone was behind: the next draw sends it the whole frame (`resync`)."""
        intercept_lost_events(self.page, self._late_event)

    async def _late_event(self, lost_id: int, event_name: str, event_data: Any) -> None:
        """An event for a control the session no longer holds (see `_judge_late_taps`)."""
        self.resync()
        control = self.earlier_control(lost_id)
        handler = getattr(control, f"on_{event_name}", None) if control else None
        if handler is None:
            if event_name == "click":  # a tap on a control of a screen long gone
                self.refused(Msg(LEFT))
            return
        event = types.SimpleNamespace(control=control, page=self.page, data=event_data, name=event_name)
        try:
            result = handler(event)
            if inspect.isawaitable(result):
                await result
        except Exception:  # noqa: BLE001 - a fault of a screen's handler: logged, the phone redrawn
            log.exception("a late %s on an earlier screen failed", event_name)

    def earlier_control(self, wanted: int) -> ft.BaseControl | None:
        """The control of an earlier draw with Flet's id `wanted` (None when there is none)."""
        for frame in reversed(self._earlier):
            for control in _walk(frame):
                if control_id(control) == wanted:
                    found: ft.BaseControl = control
                    return found
        return None

    def resync(self) -> None:
        """The phone is behind what this tab drew (its tap named a control of an earlier draw): the next
        draw replaces its whole frame, whatever its tree holds, and is due at once."""
        self._resync = True
        self.vm._changed()

    def refused(self, msg: Msg) -> None:
        """A tap this tab does not carry out: the phone says why (and is drawn as the screen now is)."""
        self.vm.refuse(msg)

    def screen_now(self) -> tuple[str, str | None]:
        """The screen this tab shows now: its route and the game on it."""
        return self.vm.route, self.vm.session["id"] if self.vm.session else None

    def stamp(self, controls: list[ft.BaseControl]) -> None:
        """Tie every control of this draw that a player can tap to the screen and the game's version it
        shows: its handler runs as a tap on that version (ViewModel.as_shown), not at all once the phone
        has left that screen, and once only if it records an entry; and it gets a new identity (key)
        whenever the screen or the version changes, so a tap the phone sends from an older screen
        reaches that screen's control (see _judge_late_taps), never a newer control in its place. Parts
        kept from the last draw keep theirs (Shell.kept: only parts drawn from the same version act).
        A control of an action the rules take on any version (flow.independent: a counter's +1) keeps
        its key while the screen stays and may act again: a late tap on it means the same on the newer
        version, and new keys for every counter at every tap cost a third of the server's CPU per tap
        and 10 ms at the 95th percentile of a redraw (bench/bench.py table-ws).
        Every list of controls is made to hold no key twice: the web client applies a patch of a list
        with a key twice at other places than the server meant, and its screen parts from the server's."""
        route, sid = self.screen_now()
        drawn = Drawn(route, sid, self.vm.session["version"] if self.vm.session else None)
        game = GAMES[self.vm.session["game"]] if self.vm.session else None
        if drawn != self._drawn:
            if self._drawn is None or drawn[:2] != self._drawn[:2]:
                self._screens += 1
            self._drawn, self._generation = drawn, self._generation + 1
        # the parts kept from the last draw were stamped then; a part built for this draw is stamped now
        kept = {id(entry[1]) for key, entry in self._keeping.items() if self._kept.get(key) is entry}
        lists: list[list[ft.BaseControl]] = []
        for control in _walk(controls, skip=kept, lists=lists.append):
            wrapped = False
            any_version = isinstance(control.data, Act) and game is not None and flow.independent(
                game, {"type": control.data.kind})
            for name, handler in set_fields(control):
                if name.startswith("on_") and handler is not None and not getattr(handler, "shown", False):
                    setattr(control, name, _shown_handler(self, handler, drawn, repeatable=any_version))
                    wrapped = True
            # a field keeps its place (and focus); a fold's one event is its own folding (the controls
            # in it are keyed each by itself), so a fold of rules is not sent again at every version
            if wrapped and not isinstance(control, (ft.TextField, ft.ExpansionTile)):
                control.key = f"{control.key or ''}@{f's{self._screens}' if any_version else self._generation}"
        for items in lists:
            _one_key_each(items)

    def kept(self, key: str, inputs: tuple[object, ...], build: Callable[[], ft.Control],
             acts: bool = False) -> ft.Control:
        """The control the last draw drew at `key`, if it was drawn from the same `inputs` (in the same
        language): the very object, which Flet's diff then skips, and nothing is built again; else
        `build()`. News from another phone changes one count, and this draws only that. `inputs`
        must hold everything the control shows; only for controls a tap never changes in place. A part
        whose taps enter something in the game (`acts`) is kept only while the game's version is the
        same: a tap means what its screen showed. A part without a key of its own is keyed by `key`."""
        keyed = (self.vm.lang, inputs, self.vm.session["version"] if acts and self.vm.session else None)
        entry = self._kept.get(key)
        if entry is None or entry[0] != keyed:
            control = build()
            if control.key is None:
                control.key = f"kept:{key}"
            entry = (keyed, control)
        self._keeping[key] = entry
        return entry[1]

    def forget_kept(self) -> None:
        """Draw every part anew next time (a control kept from an earlier draw has just acted)."""
        self._kept, self._keeping = {}, {}

    def forget(self) -> None:
        """The phone has gone: let go of the parts kept from its last draw and of the earlier draws (the
        next one draws all), and of a draw still waiting (it would draw into a closed connection)."""
        self.gone = True
        self._kept, self._keeping = {}, {}
        self._earlier.clear()
        self._inbox = set()
        if self._due is not None:
            self._due.cancel()
            self._due = None

    def redraw(self) -> None:
        """The view-model changed: draw it. Outside an event loop at once. On the server's loop (the
        tap's handler, news from another phone) after the handler is done and no sooner than
        REDRAW_GAP after the last draw: one draw shows every change made meanwhile. A draw never
        runs while this tab's tap is handled (in a thread, a tap could reach a button the draw had
        just replaced, and the phone showed an error)."""
        self._stale = True
        if self.gone:  # drawn again when the phone comes back (make_main's `back`)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.render()
            return
        ft.context.mark_update_called()  # Flet's own update after the handler would find nothing new
        self._schedule(loop)

    def _schedule(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._due is None:
            self._due = loop.call_later(max(0.0, self._drawn_at + REDRAW_GAP - time.monotonic()), self._draw_due)

    def _draw_due(self) -> None:
        self._due = None
        if self.gone or connection_closing(self.page):
            return
        news, self._inbox = self._inbox, set()
        with self.vm.lock:
            if news:
                self._show_news(news)
            if self._stale:
                self.render()

    async def on_broadcast(self, message: Sequence[Any]) -> None:
        """Another phone saved something: show the game's new state (or the new list of games) with
        the next draw. The game's new state is in memory, so catching up costs a draw; news that
        arrives before it is merged into it. (`(kind, game id, who)`; who saved it may be left out.)"""
        self._inbox.add((*tuple(message), None, None)[:3])
        self._schedule(asyncio.get_running_loop())

    def _show_news(self, news: set[tuple[Any, ...]]) -> None:
        """What other phones saved since the last draw (`(kind, game id, who)` each): the game on this
        screen caught up with, or let go when another phone deleted or abandoned it (it comes back when
        that deletion is undone); the home screen's list of games drawn anew."""
        sid = self.vm.session["id"] if self.vm.session else None
        kinds = {kind for kind, *_rest in news}
        gone = next(((kind, by) for kind, game, by in news if game == sid and kind in ("deleted", "abandoned")), None)
        if sid and gone is not None:
            self.draft = {}
            self.vm.let_go_elsewhere(gone[0], sid, gone[1])
            return
        back = next((game for kind, game, _by in news if kind == "back" and game == self.vm.lost_game), None)
        if back is not None:
            self.vm.came_back(back)
        if ("game", sid, None) in news:
            self.vm.refresh()
        elif ("sealed", sid, None) in news or (not sid and self.vm.route == "home" and kinds & LISTED):
            self.render()

    def render(self) -> None:
        self._stale = False
        self._drawn_at = time.monotonic()
        if self._due is not None and not self._inbox:
            self._due.cancel()  # this draw is the one that was waiting
            self._due = None
        _ = self.vm.t
        self.recall_game()
        self.page.title = _("Table companion")
        try:
            frame = self._frame()
        except Exception as error:  # noqa: BLE001 - any fault while drawing a game: the game is damaged
            if not self.vm.session:
                raise
            if self._recalled:  # unless it is the draft the phone kept: that is dropped, not the game
                log.warning("a draft kept on a phone cannot be drawn (%s: %s): dropped", type(error).__name__, error)
                self.draft, self._recalled, self._keeping = {}, False, {}
                self.render()
                return
            log.warning("game %s cannot be drawn (%s: %s): shown as damaged", self.vm.session["id"],
                        type(error).__name__, error)
            self._keeping = {}
            self.vm.found_damaged(self.vm.session["id"])
            frame = self._frame()
        self.stamp([frame])
        if self.page.controls:
            self._earlier.append(self.page.controls[0])
        self.page.controls[:] = [frame]
        self._kept, self._keeping = self._keeping, {}  # what this draw did not draw is let go
        self.page.update()
        self.keep_draft()
        if DRAWS.isEnabledFor(logging.INFO) and self.vm.session:  # bench/bench.py table-ws reads these
            DRAWS.info("drew %s at %.6f: game %s, version %d", getattr(self.page.session, "id", "-"), time.time(),
                       self.vm.session["id"], self.vm.session["version"])
        self.sync_url()

    def _frame(self) -> ft.Control:
        """The whole screen: the pinned header, the body with the message's slot over its foot, the bar."""
        guide = self.guide()
        if f"body:{self.vm.route}:{guide.screen if guide else ''}" != self._screen:
            self.folds = set()  # a new screen opens with its folds closed
            self._kept = {}     # and is drawn anew: a part is kept only where it stays in its place
        shown = self.screen()
        screen = shown if isinstance(shown, Screen) else Screen(shown)
        screen.body = drawn([*teach_ui.panel(self), *screen.body])
        _anchored_keys(screen.body, self.vm.route)
        # A new screen is a new scrolling body, so it opens at its top; within a screen the body keeps
        # its place while the players enter things.
        key = f"body:{self.vm.route}:{guide.screen if guide else ''}"
        room = ft.Container(height=MESSAGE_ROOM, key="message-room")  # scroll room above the message's slot
        body = ft.Column([*screen.body, room], scroll=ft.ScrollMode.AUTO, expand=True, spacing=12,
                         horizontal_alignment=ft.CrossAxisAlignment.STRETCH, key=key)
        self._screen = key
        # The message (a refusal, a notice, the Undo question) floats in its slot over the body's foot,
        # just above the bar: neither the bar nor the body changes size, so the primary button stays
        # under the thumb and the body keeps its scroll place.
        frame = ft.Column([
            self.header(guide),
            ft.Stack([ft.Container(body, padding=ft.Padding.only(left=12, right=12, top=10), left=0, top=0, right=0,
                                   bottom=0, key="body"),
                      ft.Container(self.message(), left=8, right=8, bottom=6, key="message-slot")],
                     expand=True, key="body-stack"),
            self.bottom_bar(screen.primary),
        ], expand=True, spacing=0, key=f"frame{self._frames + self._resync}")
        if self._resync:  # a phone that was behind gets the whole frame, whatever its tree holds
            self._frames, self._resync = self._frames + 1, False
        return frame

    # -- the address bar: /game/<id> while a game is open, so a reload or reconnect reopens it --------

    def url(self) -> str:
        if self.vm.session:
            return f"/{'history' if self.vm.route == 'archive' else 'game'}/{self.vm.session['id']}"
        return f"/{self.vm.route}" if self.vm.route in ("history", "stats") else "/"

    def sync_url(self) -> None:
        if self.page.route != self.url():
            try:
                self.page.navigate(self.url())
            except RuntimeError:  # no event loop (tests drive the shell directly)
                pass

    def follow_url(self, route: str) -> None:
        """Open the game named in the address (start-up, reconnect, the browser's back button)."""
        if route.startswith("/game/"):
            sid = route.removeprefix("/game/").strip("/")
            if not self.vm.session or self.vm.session["id"] != sid or self.vm.route == "archive":
                self.vm.open(sid)
                return
        elif route.startswith("/history/"):
            sid = route.removeprefix("/history/").strip("/")
            if not self.vm.session or self.vm.session["id"] != sid or self.vm.route != "archive":
                self.vm.view(sid)
                return
        elif route.strip("/") in ("history", "stats"):
            if self.vm.session or self.vm.route != route.strip("/"):
                self.vm.home()
                self.vm.go(route.strip("/"))
                return
        elif self.vm.session:
            self.vm.home()
            return
        self.render()

    def final(self) -> Screen:
        """The final scoring's entry: the game's own screen (a game without one has only the result)."""
        final_screen = self.ui.final_screen
        return final_screen(self) if final_screen else self.result()

    def screen(self) -> Screen | list[ft.Control]:
        route = self.vm.route
        if route.startswith("new:"):
            return self.new_game(route[4:])
        screens: dict[str, Callable[[], Screen | list[ft.Control]]] = {
            "home": self.home, "setup": self.setup, "round": lambda: self.ui.round_screen(self),
            "final": self.final, "result": self.result, "rules": self.rules,
            "log": self.log, "scores": self.score_screen, "history": lambda: history.history_screen(self),
            "stats": lambda: history.stats_screen(self), "archive": lambda: history.archive_screen(self),
        }
        return screens.get(route, self.home)()

    # -- navigation ------------------------------------------------------------------------------

    def go(self, route: str) -> None:
        self.draft = {}
        self.vm.go(route)

    def back_to_game(self) -> None:
        self.vm.open(self.vm.session["id"]) if self.vm.session else self.vm.home()

    def home_clicked(self) -> None:
        self.draft = {}
        self.vm.home()

    def recall_game(self) -> None:
        """On opening a game, ask the phone what it kept for that game: whom it belonged to last time
        (table mode), and the form entries not yet sent when the page was left (a reload)."""
        sid = self.vm.session["id"] if self.vm.session else None
        if not self.prefs or sid == self._recalled_for:
            return
        self._recalled_for, self.me, self._draft_kept, self._recalled = sid, None, None, False
        if sid:
            self.page.run_task(self._recall_game, sid)

    async def _recall_game(self, sid: str) -> None:
        me, draft = await asyncio.gather(self._phone_setting(f"companion.me.{sid}"),
                                         self._phone_setting(drafts.key(sid)))
        if not self.vm.session or self.vm.session["id"] != sid:
            return
        players = {p["colour"] for p in self.vm.session["config"]["players"]}
        if me in players:
            self.me = me
        self._draft_kept = draft or ""
        kept = drafts.recalled(draft, self._screen)
        if kept:  # over the one the first draw made itself (the phone answers before a player taps)
            self.draft, self._recalled = kept, True
        if me in players or kept:
            self.render()

    def keep_draft(self) -> None:
        """Tell the phone the form entries of this screen (once it has answered what it kept before)."""
        if not self.prefs or not self.vm.session or self._draft_kept is None:
            return
        value = drafts.stored(self._screen, self.draft)
        if value != self._draft_kept:
            self._draft_kept = value
            self.page.run_task(self.prefs.set, drafts.key(self.vm.session["id"]), value)

    async def _phone_setting(self, key: str) -> str | None:
        """A setting kept on this phone, or None when the phone has gone (a tab closed before it
        answered must not keep its session alive through this task)."""
        if self.prefs is None:
            return None
        try:
            value = await asyncio.wait_for(self.prefs.get(key), PHONE_ANSWER)
            return None if value is None else str(value)
        except Exception:  # noqa: BLE001 - Flet fails a call to a gone phone in several ways (a closed
            return None    # session, a connection already let go, no answer): the setting is just unknown

    async def recall_rules(self) -> None:
        """Open the step rules at start-up if this phone had them open last time."""
        if await self._phone_setting("companion.rules_open") == "1" and not self.rules_open:
            self.rules_open = True
            self.render()


#: The prefix of the keys `_anchored_keys` gives.
AUTO = "~"


def _anchored_keys(controls: list[ft.Control], top: str) -> None:
    """Key every control of a screen's body that has no key of its own by the nearest keyed control above
    it (or `top`) and its place after that one: the same part keeps its key from draw to draw, so Flet
    sends only what changed (a new count, a new line), and a part put in or taken out above (a
    refusal's message) renames nothing below the next keyed part."""
    anchor: object = top  # a key: a text, or one of Flet's key types
    n = 0
    for control in controls:
        key = control.key
        if key is None or isinstance(key, str) and key.startswith(AUTO):
            n += 1
            control.key = f"{AUTO}{anchor}+{n}"
        else:
            anchor, n = key, 0


def _one_key_each(items: list[ft.BaseControl]) -> None:
    """A list of controls holds no key twice (a later one takes a mark): the web client applies Flet's
    keyed patch of a list with a key twice at other places than the server meant (a move past the
    list's end, a RangeError), drops the rest of the patch, and its screen parts from the server's."""
    seen: set[str] = set()
    for control in items:
        key = getattr(control, "key", None)
        if key is None:
            continue
        while key in seen:
            key = f"{key}'"
        if key != control.key:
            log.warning("two controls with the key %r in one list: the second is keyed %r", control.key, key)
            control.key = key
        seen.add(key)


def _walk(controls: ft.BaseControl | list[ft.BaseControl], skip: Collection[int] = frozenset(),
          lists: Callable[[list[ft.BaseControl]], None] | None = None) -> Iterator[ft.BaseControl]:
    """Every control under `controls` (a control or a list of them), depth first, leaving out the
    subtrees of the controls whose id is in `skip`; `lists` is shown every list of controls on the way."""
    stack = list(reversed(controls)) if isinstance(controls, list) else [controls]
    if lists is not None and isinstance(controls, list):
        lists(controls)
    while stack:
        control = stack.pop()
        if id(control) in skip:
            continue
        yield control
        for _name, value in set_fields(control):
            if isinstance(value, ft.BaseControl):
                stack.append(value)
            elif isinstance(value, list) and value and isinstance(value[0], ft.BaseControl):
                if lists is not None:
                    lists(value)
                stack.extend(reversed([v for v in value if isinstance(v, ft.BaseControl)]))
