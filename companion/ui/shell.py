"""The Shell: one per browser tab. It draws the view-model's current screen in the frame, follows the
address bar, schedules draws (no sooner than REDRAW_GAP after the last) and stamps every draw's
controls with the game's log they show, so a late tap is judged against what its screen showed."""
from __future__ import annotations

import asyncio
import collections
import dataclasses
import functools
import inspect
import logging
import time
import types
from typing import Any
from collections.abc import Callable

import flet as ft

from . import history
from . import teach as teach_ui
from .game_screens import GameScreens
from .home import Home
from .viewmodel import ViewModel
from .widgets import MESSAGE_ROOM, Screen, drawn

#: Seconds a tab waits for the phone to answer a question (its own storage) before giving up.
PHONE_ANSWER = 10

#: The shortest time between two draws of one tab (seconds): on a busy table (several phones
#: tapping several times a second) each phone draws the game as it stands a few times a second,
#: not once per tap and once more per other phone's news.
REDRAW_GAP = 0.15

#: What each tab sent its phone, at INFO level: when, and the game's log length it showed.
DRAWS = logging.getLogger("companion.draws")

#: How many earlier draws of a tab answer a tap sent from them (a phone a few draws behind): the tap
#: is judged against the game as that draw showed it (see Shell.stamp).
EARLIER_DRAWS = 8


@functools.cache
def _fields(cls: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A control class's event handler fields (on_click ...) and its other fields."""
    names = [f.name for f in dataclasses.fields(cls)]
    return tuple(n for n in names if n.startswith("on_")), tuple(n for n in names if not n.startswith("on_"))


def _shown_handler(vm: ViewModel, handler: Callable, log: list | None) -> Callable:
    """`handler` run as a tap on a screen drawn from `log` (ViewModel.as_shown)."""
    takes_event = bool(inspect.signature(handler).parameters)
    if inspect.iscoroutinefunction(handler):
        async def run_async(e=None):
            with vm.as_shown(log):
                return await (handler(e) if takes_event else handler())
        run_async.shown = True  # type: ignore[attr-defined]
        return run_async

    def run(e=None):
        with vm.as_shown(log):
            return handler(e) if takes_event else handler()
    run.shown = True  # type: ignore[attr-defined]
    return run


class Shell(Home, GameScreens):
    """Draws one tab: a top bar and the screen for `vm.route`; redraws when the view-model changes."""

    def __init__(self, page: ft.Page, vm: ViewModel, join: str | None = None, qr: bytes | None = None):
        self.page, self.vm = page, vm
        self.join, self.qr = join, qr  # table mode: the join link and its QR code
        self.prefs = None              # the phone's own storage (whose phone in each game, rules unfolded)
        self._me_for: str | None = None
        self.confirming: str | None = None  # the Undo this phone asks about (another player's entry)
        self.gone = False                   # the phone's connection is gone: nothing is drawn
        self.draft: dict = {}          # form entries not yet sent (steppers, text fields)
        self.query = ""                # rules search
        self.rules_open = False        # a step's rule text unfolded (remembered on the phone)
        self.folds: set[str] = set()   # the folds open on this screen (a redraw keeps them open)
        self._screen = ""
        self._inbox: set = set()       # table mode: news from other phones not handled yet
        self._due: asyncio.TimerHandle | None = None  # a draw waiting on the event loop
        self._stale = False            # the view-model changed since the last draw
        self._drawn_at = float("-inf") # when the last draw was (time.monotonic)
        self._kept: dict[str, tuple] = {}     # the parts of the last draw: key -> (inputs, control)
        self._keeping: dict[str, tuple] = {}  # ... and of the draw being made
        self._drawn_log: list | None = None   # the game's log the last draw showed
        self._generation = 0                  # how many times the drawn log changed
        self._earlier: collections.deque = collections.deque(maxlen=EARLIER_DRAWS)  # earlier draws' frames
        vm.subscribe(self.redraw)
        self._judge_late_taps()

    def _judge_late_taps(self) -> None:
        """A tap sent from a screen the phone had not yet replaced when the server drew the next one
        names a control that is no longer there: it is judged as what that screen showed (its control,
        with the log it was drawn from), so it is refused as out of date instead of being lost in
        silence or applied to the new state."""
        session = getattr(self.page, "session", None)
        dispatch = getattr(session, "dispatch_event", None)
        if dispatch is None:
            return

        async def dispatch_event(control_id: int, event_name: str, event_data: Any) -> None:
            if control_id not in session.index:
                control = self.earlier_control(control_id)
                handler = getattr(control, f"on_{event_name}", None) if control else None
                if handler is not None:
                    event = types.SimpleNamespace(control=control, page=self.page, data=event_data, name=event_name)
                    result = handler(event)
                    if inspect.isawaitable(result):
                        await result
                    return
            await dispatch(control_id, event_name, event_data)

        session.dispatch_event = dispatch_event

    def earlier_control(self, control_id: int) -> ft.BaseControl | None:
        """The control of an earlier draw with Flet's id `control_id` (None when there is none)."""
        for frame in reversed(self._earlier):
            for control in _walk(frame):
                if getattr(control, "_i", None) == control_id:
                    return control
        return None

    def stamp(self, controls: list) -> None:
        """Tie every control of this draw that a player can tap to the game's log it shows: its handler
        runs as a tap on that log (ViewModel.as_shown), and it gets a new identity whenever the log
        changes, so a tap the phone sends from an older screen reaches that screen's control (see
        _judge_late_taps), never a newer control in its place. Parts kept from the last draw keep
        theirs (Shell.kept: only parts drawn from the same log)."""
        log = self.vm.session["log"] if self.vm.session else None
        if log is not self._drawn_log:
            self._drawn_log, self._generation = log, self._generation + 1
        kept = {id(entry[1]) for entry in self._keeping.values()}
        for control in _walk(controls, skip=kept):
            events, _other = _fields(type(control))
            wrapped = False
            for name in events:
                handler = getattr(control, name, None)
                if handler is not None and not getattr(handler, "shown", False):
                    setattr(control, name, _shown_handler(self.vm, handler, log))
                    wrapped = True
            if wrapped and not isinstance(control, ft.TextField):  # a field keeps its place (and focus)
                control.key = f"{control.key or ''}@{self._generation}"

    def kept(self, key: str, inputs: tuple, build: Callable[[], ft.Control], acts: bool = False) -> ft.Control:
        """The control the last draw drew at `key`, if it was drawn from the same `inputs` (in the same
        language): the very object, which Flet's diff then skips, and nothing is built again; else
        `build()`. News from another phone changes one count, and this draws only that. `inputs`
        must hold everything the control shows; only for controls a tap never changes in place. A part
        whose taps enter something in the game (`acts`) is kept only while the game's log is the same:
        a tap means what its screen showed."""
        inputs = (self.vm.lang, inputs, id(self.vm.session["log"]) if acts and self.vm.session else None)
        entry = self._kept.get(key)
        if entry is None or entry[0] != inputs:
            entry = (inputs, build())
        self._keeping[key] = entry
        return entry[1]

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
        if self.gone or self._closing():
            return
        news, self._inbox = self._inbox, set()
        with self.vm.lock:
            if news:
                self._show_news(news)
            if self._stale:
                self.render()

    def _closing(self) -> bool:
        """Whether the phone's connection is closing: Flet 1.0.5's web connection lets go of its send
        queue before the session hears of it, and a draw in between would fail (the phone gets the
        whole screen when it comes back). A connection already gone, or a session let go, is closing too:
        a timer set before the phone left must not outlive it."""
        try:
            session = getattr(self.page, "session", None)
            if session is None:
                return False  # a page drawn in this process (the tests' screens): there is no connection
            connection = session.connection
        except RuntimeError:  # the session itself was let go
            return True
        return connection is None or getattr(connection, "_FletApp__send_queue", True) is None

    async def on_broadcast(self, message) -> None:
        """Another phone saved something: show the game's new state (or the new list of games) with
        the next draw. The game's new state is in memory, so catching up costs a draw; news that
        arrives before it is merged into it."""
        self._inbox.add(tuple(message))
        self._schedule(asyncio.get_running_loop())

    def _show_news(self, news: set) -> None:
        sid = self.vm.session["id"] if self.vm.session else None
        if ("game", sid) in news:
            self.vm.refresh()
        elif ("sealed", sid) in news or (not sid and self.vm.route == "home"
                                          and any(kind == "catalogue" for kind, _ in news)):
            self.render()

    def render(self) -> None:
        self._stale = False
        self._drawn_at = time.monotonic()
        if self._due is not None and not self._inbox:
            self._due.cancel()  # this draw is the one that was waiting
            self._due = None
        _ = self.vm.t
        self.recall_me()
        self.page.title = _("Table companion")
        guide = self.guide()
        if f"body:{self.vm.route}:{guide.screen if guide else ''}" != self._screen:
            self.folds = set()  # a new screen opens with its folds closed
            self._kept = {}     # and is drawn anew: a part is kept only where it stays in its place
        shown = self.screen()
        screen = shown if isinstance(shown, Screen) else Screen(shown)
        screen.body = drawn([*teach_ui.panel(self), *screen.body])
        for i, control in enumerate(screen.body):
            # The same key for the same place on the same screen: Flet then sends only what changed
            # (a new count, a new line), not the whole screen, and each phone redraws only that.
            control.key = control.key or f"{self.vm.route}/{i}"
        # A new screen is a new scrolling body, so it opens at its top; within a screen the body keeps
        # its place while the players enter things.
        key = f"body:{self.vm.route}:{guide.screen if guide else ''}"
        room = ft.Container(height=MESSAGE_ROOM, key="message-room")  # scroll room above the message's slot
        body = ft.Column([*screen.body, room], scroll=ft.ScrollMode.AUTO, expand=True, spacing=12,
                         horizontal_alignment=ft.CrossAxisAlignment.STRETCH, key=key)
        if key != self._screen:
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
        ], expand=True, spacing=0, key="frame")
        self.stamp([frame])
        if self.page.controls:
            self._earlier.append(self.page.controls[0])
        self.page.controls[:] = [frame]
        self._kept, self._keeping = self._keeping, {}  # what this draw did not draw is let go
        self.page.update()
        if DRAWS.isEnabledFor(logging.INFO) and self.vm.session:  # bench/bench.py table-ws reads these
            DRAWS.info("drew %s at %.6f: game %s, %d actions", getattr(self.page.session, "id", "-"), time.time(),
                       self.vm.session["id"], len(self.vm.session["log"]))
        self.sync_url()

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

    def screen(self) -> list[ft.Control]:
        route = self.vm.route
        if route.startswith("new:"):
            return self.new_game(route[4:])
        return {
            "home": self.home, "setup": self.setup, "round": lambda: self.ui.round_screen(self),
            "final": lambda: self.ui.final_screen(self), "result": self.result, "rules": self.rules,
            "log": self.log, "scores": self.score_screen, "history": lambda: history.history_screen(self),
            "stats": lambda: history.stats_screen(self), "archive": lambda: history.archive_screen(self),
        }.get(route, self.home)()

    # -- navigation ------------------------------------------------------------------------------

    def go(self, route: str) -> None:
        self.draft = {}
        self.vm.go(route)

    def back_to_game(self) -> None:
        self.vm.open(self.vm.session["id"]) if self.vm.session else self.vm.home()

    def home_clicked(self) -> None:
        self.draft = {}
        self.vm.home()

    def recall_me(self) -> None:
        """Table mode: on opening a game, ask the phone whom it belonged to in that game last time."""
        sid = self.vm.session["id"] if self.vm.session else None
        if not self.prefs or sid == self._me_for:
            return
        self._me_for, self.me = sid, None
        if sid:
            self.page.run_task(self._recall_me, sid)

    async def _phone_setting(self, key: str) -> str | None:
        """A setting kept on this phone, or None when the phone has gone (a tab closed before it
        answered must not keep its session alive through this task)."""
        try:
            return await asyncio.wait_for(self.prefs.get(key), PHONE_ANSWER)
        except Exception:  # noqa: BLE001 - Flet fails a call to a gone phone in several ways (a closed
            return None    # session, a connection already let go, no answer): the setting is just unknown

    async def _recall_me(self, sid: str) -> None:
        value = await self._phone_setting(f"companion.me.{sid}")
        players = {p["colour"] for p in self.vm.session["config"]["players"]} if self.vm.session else set()
        if value in players and self.vm.session and self.vm.session["id"] == sid:
            self.me = value
            self.render()

    async def recall_rules(self) -> None:
        """Open the step rules at start-up if this phone had them open last time."""
        if await self._phone_setting("companion.rules_open") == "1" and not self.rules_open:
            self.rules_open = True
            self.render()


def _walk(controls, skip: frozenset | set = frozenset()):
    """Every control under `controls` (a control or a list of them), depth first, leaving out the
    subtrees of the controls whose id is in `skip`."""
    stack = list(reversed(controls)) if isinstance(controls, list) else [controls]
    while stack:
        control = stack.pop()
        if id(control) in skip:
            continue
        yield control
        _events, others = _fields(type(control))
        for name in others:
            value = getattr(control, name, None)
            if isinstance(value, ft.BaseControl):
                stack.append(value)
            elif isinstance(value, list) and value and isinstance(value[0], ft.BaseControl):
                stack.extend(reversed([v for v in value if isinstance(v, ft.BaseControl)]))
