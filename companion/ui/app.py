"""The Flet web app: one Shell per browser tab, drawing the view-model's current screen.

Screens common to every game live here (home, setup checklist, rules, history, scores, result);
each game's own screens live in its folder (`companion/games/<game id>/screens.py`), found by
`game_ui`.
"""
from __future__ import annotations

import asyncio
import collections
import dataclasses
import functools
import importlib
import inspect
import logging
import time
import types
from typing import Any
from collections.abc import Callable

import flet as ft

from .. import rulesearch, table, texts
from ..i18n import LANGUAGES, vocative
from ..store import Store
from . import history
from ..games.score_sheet import screens as score_sheet
from . import teach as teach_ui
from .viewmodel import ViewModel
from ..engine.model import P_, Guide, Msg
from .widgets import (ACCENT, EDGE, HEADER, MESSAGE_ROOM, SMALL, TARGET, TEXT, Screen, banner, bar_button, button, card,
                      choice_chips, dot, drawn, error, heading, Keypad, reminder, text, tid, title, who)

#: The top bar's buttons: as tall as a tap needs (48 px) and no taller, for the header's height.
BAND = 48
#: Seconds a tab waits for the phone to answer a question (its own storage) before giving up.
PHONE_ANSWER = 10

#: The shortest time between two draws of one tab (seconds): on a busy table (several phones
#: tapping several times a second) each phone draws the game as it stands a few times a second,
#: not once per tap and once more per other phone's news.
REDRAW_GAP = 0.15

@functools.cache
def game_ui(game_id: str) -> types.ModuleType:
    """A game's own screens (new-game form, round guide, final scoring): its folder's `screens.py`."""
    return importlib.import_module(f"companion.games.{game_id}.screens")


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


class Shell:
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

    @property
    def me(self) -> str | None:
        """Table mode: the player this phone belongs to (it acts only for that player, see
        ViewModel.dispatch), or None: the host's screen and a phone of nobody act for anyone."""
        return self.vm.me

    @me.setter
    def me(self, colour: str | None) -> None:
        self.vm.me = colour

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

    @property
    def ui(self):
        return game_ui(self.vm.session["game"]) if self.vm.session else None

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

    # -- the frame: a pinned header (where we are, who acts, every player's figure) and bottom bar ------

    IN_GAME = ("setup", "round", "final", "result")

    def guide(self) -> Guide | None:
        """The header's facts for an in-game screen (None elsewhere)."""
        vm = self.vm
        if not vm.session or vm.route == "archive":
            return None
        if vm.state.get("phase") == "setup":
            items = vm.game.setup_items(vm.session["config"])
            done = sum(1 for i in items if i["id"] in set(vm.state["ticks"]))
            return Guide(P_("Setup: {done} of {n} item ticked", "Setup: {done} of {n} items ticked", len(items),
                            done=done), screen="setup")
        guide = vm.game.guide(vm.state, vm.session["config"])
        if vm.state.get("phase") == "over":  # one total per player: the result's final one, as below it
            rows = vm.game.result(vm.state, vm.session["config"])["players"]
            guide = guide._replace(figures={r["id"]: Msg("{n}", {"n": r["total"]}) for r in rows})
        return guide

    def header(self, guide: Guide | None) -> ft.Control:
        in_game = bool(self.vm.session) and self.vm.route != "archive"
        rows: list[ft.Control] = [self.kept("top-bar", (self.bar_title(), in_game), self.top_bar)]
        if guide:
            _ = self.vm.t
            where = self.vm.msg(guide.where)
            name = role = None
            if guide.actor:
                label = getattr(self.ui, "player_label", None)
                name = label(self, guide.actor) if label else self.player_name(guide.actor)
                role = None if self.me == guide.actor else self.vm.msg(guide.role) if guide.role else _("On turn:")
            # where the game is and who acts, in one flowing text (the actor's chip below is outlined)
            rows.append(self.kept("where", (where, name, role),
                                  lambda: tid("where", self.where_line(where, name, role))))
            if guide.actor and role is None:  # this phone's player: addressed on a line of its own
                rows.append(self.kept("actor", (guide.actor, name),
                                      lambda: tid("actor", self.actor_line(guide.actor, name, None))))
            if guide.figures:
                rows.append(self.strip(guide))
        return tid("header", ft.Container(ft.Column(rows, spacing=2, tight=True),
                                          padding=ft.Padding.only(left=8, right=8, top=0, bottom=6),
                                          bgcolor=HEADER, border=ft.Border.only(bottom=ft.BorderSide(1, EDGE))))

    def strip(self, guide: Guide) -> ft.Control:
        """Every player's current total or key resource, the one who acts outlined. A figure longer
        than a number goes under the name, so three players share a row even at 360 px."""
        figures = {c: self.vm.msg(f) for c, f in guide.figures.items()}
        stacked = any(len(f) > 5 for f in figures.values())
        chips = []
        for p in self.vm.session["config"]["players"]:
            figure = figures.get(p["colour"])
            if figure is None:
                continue
            acts = p["colour"] == guide.actor
            chips.append(self.kept(f"fig-{p['colour']}", (p["name"], figure, stacked, acts),
                                   lambda p=p, figure=figure, acts=acts: self.chip(p, figure, stacked, acts)))
        return tid("strip", ft.Row(chips, wrap=True, spacing=6, run_spacing=6))

    @staticmethod
    def where_line(where: str, name: str | None, role: str | None) -> ft.Control:
        """Where the game is, then (on another player's phone) who acts: "Round 2 · On turn: Anna"."""
        text_ = ft.Text(size=SMALL, color=ft.Colors.GREY_300, spans=[ft.TextSpan(text=where)])
        if role is not None:
            text_.spans += [ft.TextSpan(text=f" · {role} "),
                            ft.TextSpan(text=name, style=ft.TextStyle(color=ft.Colors.WHITE,
                                                                      weight=ft.FontWeight.BOLD))]
        if name is None or role is None:
            return text_
        return ft.Semantics(identifier="actor", key="actor", container=True, content=text_)

    def actor_line(self, actor: str, name: str, role: str | None) -> ft.Control:
        """Who acts now: "Your turn, <name>!" on that player's phone (`role` None), else the role and who."""
        _ = self.vm.t
        if role is None:
            addressed = vocative(name) if self.vm.lang == "cs" else name  # "Anno, jste na tahu!"
            return tid("your-turn", ft.Row([dot(actor), ft.Text(_("Your turn, {name}!").format(name=addressed),
                                                                size=20, weight=ft.FontWeight.BOLD, color=ACCENT)],
                                           spacing=8))
        return ft.Row([ft.Text(role, size=TEXT), who(name, actor, 20)], wrap=True, spacing=8)

    @staticmethod
    def chip(player: dict, figure: str, stacked: bool, acts: bool) -> ft.Control:
        """A player's chip in the strip: name and colour, and the figure (beside them, or under)."""
        name = ft.Row([dot(player["colour"]), ft.Text(player["name"], size=SMALL)], spacing=6, tight=True)
        value = ft.Text(figure, size=SMALL, weight=ft.FontWeight.BOLD)
        return tid(f"fig-{player['colour']}", ft.Container(
            ft.Column([name, value], spacing=0, tight=True) if stacked else ft.Row([name, value], spacing=6, tight=True),
            padding=ft.Padding.symmetric(vertical=2, horizontal=8), border_radius=14,
            border=ft.Border.all(2 if acts else 1, ACCENT if acts else EDGE)))

    def message(self) -> ft.Control:
        """The refusal or notice where the eye is, or the question before taking back another player's
        entry: drawn over the foot of the body, never in the bar (whose height it would change)."""
        vm = self.vm
        label = self.confirming if vm.route in self.IN_GAME and vm.session else None
        if vm.problem:
            shown = banner(vm.problem.text, on_close=self.dismiss)
        elif vm.notice:
            shown = banner(vm.notice, "notice-banner", problem=False, on_close=self.dismiss)
        elif label and label == vm.undo_label():
            _ = vm.t
            shown = banner(_("Take back {name}'s entry? {action}").format(
                name=self.player_name(vm.undo_owner()), action=label), "undo-question", problem=False)
        else:
            return ft.Container(height=0)
        return tid("message", ft.Container(shown, bgcolor=HEADER, border_radius=10))  # opaque over the body

    def dismiss(self) -> None:
        """A tap on the message puts it away (it may cover the foot of the body)."""
        self.vm.problem, self.vm.notice = None, None
        self.render()

    def bottom_bar(self, primary: ft.Control | None) -> ft.Control:
        """Undo saying what it undoes, and the next action: one row, whose height no message changes."""
        vm = self.vm
        actions: list[ft.Control] = []
        label = vm.undo_label() if vm.route in self.IN_GAME and vm.session else None
        owner = vm.undo_owner() if label else None
        if label and self.confirming == label:  # another player's entry: this phone asks first
            _ = vm.t
            actions += [ft.Container(bar_button(_("Keep it"), lambda e: self.ask_undo(None), "undo-keep",
                                                primary=False), expand=True),
                        ft.Container(bar_button(_("Yes, undo it"), lambda e: self.undo_confirmed(), "undo-yes",
                                                icon=ft.Icons.UNDO), expand=True)]
        elif label:
            actions.append(ft.Container(bar_button(label, lambda e: self.ask_undo(label) if owner else vm.undo(), "undo",
                                                   primary=False, icon=ft.Icons.UNDO), expand=True))
        if primary and not (label and self.confirming == label):
            actions.append(ft.Container(primary, expand=True))
        if not actions:
            return ft.Container(height=0, key="bar")
        return tid("bar", ft.Container(ft.Row(actions, spacing=8, vertical_alignment=ft.CrossAxisAlignment.STRETCH,
                                              intrinsic_height=True),
                                       padding=ft.Padding.only(left=12, right=12, top=6, bottom=8),
                                       bgcolor=HEADER, border=ft.Border.only(top=ft.BorderSide(1, EDGE))))

    def ask_undo(self, label: str | None) -> None:
        """Ask before taking back another player's entry (None: the question is answered "keep it")."""
        self.confirming = label
        self.render()

    def undo_confirmed(self) -> None:
        self.confirming = None
        self.vm.undo()  # judged against the screen the question was on: out of date if the game moved

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

    def top_bar(self) -> ft.Control:
        _ = self.vm.t
        other = "en" if self.vm.lang == "cs" else "cs"
        items: list[ft.Control] = [
            tid("nav-home", ft.IconButton(ft.Icons.HOME, tooltip=_("Home"), on_click=lambda e: self.home_clicked(),
                                          width=BAND, height=BAND)),
            ft.Container(tid("bar-title", ft.Text(self.bar_title(), size=17, weight=ft.FontWeight.BOLD, max_lines=2)),
                         expand=True),
        ]
        if self.vm.session and self.vm.route != "archive":  # a finished game from the history is read-only
            items += [
                tid("nav-scores", ft.IconButton(ft.Icons.LEADERBOARD, tooltip=_("Scores"), width=BAND,
                                                height=BAND, on_click=lambda e: self.go("scores"))),
                tid("nav-rules", ft.IconButton(ft.Icons.MENU_BOOK, tooltip=_("Rules"), width=BAND, height=BAND,
                                               on_click=lambda e: self.go("rules"))),
            ]
        items.append(tid(f"lang-{other}", ft.TextButton(content=ft.Text(other.upper(), size=TEXT), height=BAND,
                                                        tooltip=LANGUAGES[other],
                                                        on_click=lambda e: self.vm.set_language(other))))
        return ft.Row(items, spacing=0)

    def bar_title(self) -> str:
        if self.vm.session:
            return self.vm.title(self.vm.session["game"], self.vm.session["config"].get("title"))
        _ = self.vm.t
        return _("Table companion")

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

    def whose_phone(self) -> list[ft.Control]:
        """Table mode: which player this phone belongs to (for his turns and his sealed entries)."""
        _ = self.vm.t

        def pick(colour: str) -> None:
            was, now = self.me, None if colour == "-" else colour
            if now == was:
                return
            # every phone sees it: a line in the game's log (entered before the phone changes hands)
            if not self.vm.dispatch("phone", player=now, was=was):
                return
            self.me = now
            if self.prefs:
                self.page.run_task(self.prefs.set, f"companion.me.{self.vm.session['id']}", self.me or "")
            self.render()

        players = self.vm.session["config"]["players"]
        return [text(_("This phone belongs to:"), SMALL),
                choice_chips("me", [*[(p["colour"], p["name"]) for p in players], ("-", _("nobody"))],
                             self.me or "-", pick)]

    def footer(self) -> list[ft.Control]:
        """The end of every in-game screen: whose phone this is (table mode) and the game's history."""
        _ = self.vm.t
        controls = self.whose_phone() if self.join else []
        controls.append(self.kept("nav-log", (), lambda: ft.Row([
            tid("nav-log", ft.TextButton(content=ft.Text(_("History"), size=TEXT), icon=ft.Icons.HISTORY,
                                         height=TARGET, on_click=lambda e: self.go("log"))),
        ])))
        return controls

    def back(self) -> ft.Control:
        """The bottom bar's way back from the scores, the rules and the history to the game."""
        _ = self.vm.t
        return bar_button(_("Back to the game"), lambda e: self.back_to_game(), "back", icon=ft.Icons.ARROW_BACK)

    def rule_fold(self, key: str, ident: str = "step-card") -> ft.Control:
        """A step's rule text folded to one line (\u201cRules\u201d opens it) and its reminder as a short line.
        Whether the rules are open is remembered on this phone."""
        return self.kept(f"rule-fold-{ident}", (key, self.rules_open), lambda: self._rule_fold(key, ident))

    def _rule_fold(self, key: str, ident: str) -> ft.Control:
        _ = self.vm.t
        opened = self.rules_open
        head = tid("rules-toggle", ft.Container(
            ft.Row([ft.Icon(ft.Icons.MENU_BOOK, size=22, color=ACCENT),
                    ft.Container(ft.Text(_("Hide the rules of this step") if opened else _("Rules of this step"),
                                         size=TEXT), expand=True),
                    ft.Icon(ft.Icons.EXPAND_LESS if opened else ft.Icons.EXPAND_MORE)],
                   vertical_alignment=ft.CrossAxisAlignment.CENTER),
            height=TARGET, on_click=lambda e: self.toggle_rules()))
        lines: list[ft.Control] = [head]
        if opened:
            lines.append(text(self.vm.t.text(f"{key}.body")))
            note = self.vm.t.text(f"{key}.note")  # the reminder's longer advice, where a step has one
            if note != f"{key}.note":
                lines.append(text(note, SMALL))
        lines.append(reminder(self.vm.t.text(f"{key}.remind")))
        return card(lines, ident)

    async def recall_rules(self) -> None:
        """Open the step rules at start-up if this phone had them open last time."""
        if await self._phone_setting("companion.rules_open") == "1" and not self.rules_open:
            self.rules_open = True
            self.render()

    def fold(self, ident: str, title: str, controls: list, subtitle: str | None = None) -> ft.Control:
        """A fold that stays open while the players enter things in it (a redraw would close a plain
        ExpansionTile); a new screen opens with it closed."""
        def changed(e) -> None:
            (self.folds.add if e.data in (True, "true") else self.folds.discard)(ident)

        return tid(ident, ft.ExpansionTile(
            title=ft.Text(title, size=TEXT), subtitle=ft.Text(subtitle, size=SMALL) if subtitle else None,
            min_tile_height=52, expanded=ident in self.folds, on_change=changed, controls=list(controls)))

    def toggle_rules(self) -> None:
        self.rules_open = not self.rules_open
        if self.prefs:
            self.page.run_task(self.prefs.set, "companion.rules_open", "1" if self.rules_open else "0")
        self.render()

    @property
    def game_id(self) -> str | None:
        """The game on screen: the open session's, or the one whose new-game form is shown."""
        if self.vm.session:
            return self.vm.session["game"]
        return self.vm.route.removeprefix("new:") if self.vm.route.startswith("new:") else None

    def game_text(self, key: str) -> str:
        """The game's rule text (data/<game>.toml) in the reader's language."""
        return self.vm.t.text(f"{self.game_id}.{key}")

    def player_name(self, colour: str) -> str:
        return next(p["name"] for p in self.vm.session["config"]["players"] if p["colour"] == colour)

    def track_label(self, track: str) -> ft.Control:
        """A score track: by the player's name and colour, unless the game labels its tracks itself."""
        custom = getattr(self.ui, "track_label", None)
        return custom(self, track) if custom else who(self.player_name(track), track)

    def seat_fields(self, form: dict, players: list, colours, colour_name, start_label: str | None = None
                    ) -> list[ft.Control]:
        """The part of every new-game form: each player's name and colour, clockwise, then who starts
        (`start_label` says whom the rulebook names; the oldest by default)."""
        _, vm = self.vm.t, self.vm
        controls: list[ft.Control] = [heading(_("Players, clockwise from the first"))]
        for i, player in enumerate(players):
            # No character counter: Flutter reads it out in English whatever the language; the
            # new-game check says when a name is too long.
            field = ft.TextField(label=_("Player {n}: name").format(n=i + 1), value=player["name"], text_size=TEXT,
                                 error=vm.error_for(f"players.{i}.name"), expand=True,
                                 on_change=lambda e, p=player: p.update(name=e.control.value),
                                 on_blur=lambda e: self.render())  # the start chips show the new name
            controls += [
                tid(f"name-{i}", ft.Row([field])),
                choice_chips(f"colour-{i}", [(c, ft.Row([dot(c), ft.Text(colour_name(c), size=TEXT)], tight=True))
                                             for c in colours], player["colour"],
                             lambda c, p=player: self.choose_colour(p, c)),
                error(vm.error_for(f"players.{i}.colour"), f"error-colour-{i}"),
            ]

        def pick_start(value: str) -> None:
            form["start"] = int(value)
            self.render()

        controls += [
            heading(start_label or _("Who starts? (The rulebook: the oldest player.)")),
            choice_chips("start", [(str(i), p["name"] or _("Player {n}").format(n=i + 1))
                                   for i, p in enumerate(players)], str(form["start"]), pick_start),
            error(vm.error_for("start"), "error-start"),
        ]
        return controls

    def choose_colour(self, player: dict, colour: str) -> None:
        """A colour chosen on the new-game form; a refusal about colours is gone once it is fixed."""
        player["colour"] = colour
        problem = self.vm.problem
        if problem and problem.field and problem.field.endswith(".colour"):
            self.vm.problem = None
        self.render()

    def send(self, kind: str, draft_key: str, **args) -> None:
        """Dispatch a helper's form; on success its draft is cleared for the next entry."""
        if self.vm.dispatch(kind, **args):
            self.draft.pop(draft_key, None)
            self.render()

    def problem(self, field: str | None = None) -> ft.Control:
        """The refused entry's message, shown where the field is (or at the top for a general one)."""
        p = self.vm.problem
        if p is None:
            return error(None)
        if field is None:
            return error(p.text if not p.field else None, "problem")
        return error(self.vm.error_for(field), f"error-{field}")

    # -- home ------------------------------------------------------------------------------------

    def home(self) -> list[ft.Control]:
        _, vm = self.vm.t, self.vm
        # "New game" first, one compact button per game: in sight however many games are in progress
        controls: list[ft.Control] = [
            text(_("Set up, play and score board games together: the rules at hand, every score explained."), SMALL),
            heading(_("New game")), *self.new_game_buttons()]
        for notice in vm.notices():
            controls.append(card([text(notice, color=ft.Colors.ORANGE_200)], "notice"))
        if self.join:
            controls.append(card([
                heading(_("Table mode")),
                text(_("Every phone at the table joins with this QR code or link and sees the same games live."),
                     SMALL),
                ft.Row([tid("join-qr", ft.Image(src=self.qr, width=220, height=220))],
                       alignment=ft.MainAxisAlignment.CENTER),
                # selectable (to copy it), which Flutter's accessibility tree reads as an empty text box
                ft.Semantics(identifier="join-link", key="join-link", label=self.join,
                             content=ft.Text(self.join, size=SMALL, selectable=True)),
            ], "table"))
        controls.append(self.problem())
        if vm.damaged:
            controls.append(history.damaged(self))
        if vm.deletion:
            controls.append(self.deleted_card(vm.deletion))
        active = vm.in_progress()
        if active:
            controls.append(heading(_("Games in progress")))
            controls += [self.session_card(entry) for entry in active]
        sheets = vm.sheets()
        if sheets:
            controls.append(heading(_("Our sheets")))
        for sheet in sheets:
            kind = score_sheet.rules.kind({"sheet": sheet})[0]
            what = ", ".join(sheet["categories"]) or vm.t.text(f"{score_sheet.GAME}.category.points")
            controls.append(card([
                text(sheet["name"], 20, weight=ft.FontWeight.BOLD),
                text((_("Per round: {categories}") if sheet["per_round"] else "{categories}").format(categories=what)
                     + " · " + (_("lowest total wins") if sheet["lowest"] else _("highest total wins")), SMALL),
                ft.Row([ft.Container(button(_("New game"), lambda e, s=sheet: self.sheet_form(s),
                                            f"sheet-new-{sheet['id']}", icon=ft.Icons.ADD), expand=True),
                        ft.Container(button(_("History"), lambda e, k=kind: self.history_of(k),
                                            f"sheet-history-{sheet['id']}", primary=False, icon=ft.Icons.HISTORY),
                                     expand=True)], spacing=8),
            ], f"sheet-{sheet['id']}"))
        controls += [heading(_("Looking back")),
                     button(_("Finished games"), lambda e: self.go("history"), "nav-history", primary=False,
                            icon=ft.Icons.HISTORY),
                     button(_("Players and statistics"), lambda e: self.go("stats"), "nav-stats", primary=False,
                            icon=ft.Icons.INSIGHTS),
                     ft.Row([choice_chips("language", [(code, name) for code, name in LANGUAGES.items()], vm.lang,
                                          vm.set_language)])]
        return controls

    def new_game_buttons(self) -> list[ft.Control]:
        """A button per game (its title) and one for a score sheet of another game, two to a row."""
        _, vm = self.vm.t, self.vm
        buttons = [bar_button(vm.t.text(f"{game.id}.game.title"), lambda e, g=game.id: self.go(f"new:{g}"),
                              f"new-{game.id}", primary=False, icon=ft.Icons.ADD)
                   for game in vm.games() if game.id != score_sheet.GAME]  # the sheet: "Another game" below
        buttons.append(bar_button(_("Another game"), lambda e: self.sheet_form(None), "new-sheet", primary=False,
                                  icon=ft.Icons.ADD))
        return [ft.Row([ft.Container(b, expand=True) for b in buttons[i:i + 2]], spacing=8, intrinsic_height=True,
                       vertical_alignment=ft.CrossAxisAlignment.STRETCH) for i in range(0, len(buttons), 2)]

    def session_card(self, entry: dict) -> ft.Control:
        """A game in progress: resume it, let it go (kept in the history as abandoned) or delete it
        (asked first; the home screen can have it back until the next screen)."""
        _, vm = self.vm.t, self.vm
        sid = entry["id"]
        players = ft.Row([who(p["name"], p["colour"], SMALL) for p in entry["players"]], wrap=True)
        when = vm.t.when(entry["created"], year=False, clock=True)
        rows: list[ft.Control] = [
            text(vm.title(entry["game"], entry.get("title")), weight=ft.FontWeight.BOLD),
            players, text(_("Started {when}").format(when=when), SMALL)]
        if self.draft.get("delete") != sid:
            rows.append(button(_("Resume"), lambda e: vm.open(sid), f"resume-{sid}", icon=ft.Icons.PLAY_ARROW))
        return card(rows + self.delete_controls(sid, abandon=True), f"session-{sid}")

    def delete_controls(self, sid: str, abandon: bool = False) -> list[ft.Control]:
        """Delete a game (and `abandon` it): the deletion asks first."""
        _, vm = self.vm.t, self.vm
        if self.draft.get("delete") == sid:
            return [tid(f"delete-question-{sid}", text(_("Delete this game with all it recorded?"), SMALL,
                                                       weight=ft.FontWeight.W_500)),
                    ft.Row([ft.Container(button(_("Keep it"), lambda e: self.ask_delete(None), f"delete-keep-{sid}",
                                                primary=False), expand=True),
                            ft.Container(button(_("Delete it"), lambda e: self.delete_game(sid), f"delete-yes-{sid}",
                                                icon=ft.Icons.DELETE), expand=True)], spacing=8)]
        delete = ft.Container(button(_("Delete"), lambda e: self.ask_delete(sid), f"delete-{sid}", primary=False,
                                     icon=ft.Icons.DELETE_OUTLINE), expand=True)
        if not abandon:
            return [ft.Row([delete])]
        return [ft.Row([ft.Container(button(_("Abandon"), lambda e: vm.abandon(sid), f"abandon-{sid}", primary=False,
                                            icon=ft.Icons.FLAG), expand=True), delete], spacing=8)]

    def ask_delete(self, sid: str | None) -> None:
        """Ask before deleting a game (None: the answer was "keep it")."""
        self.draft["delete"] = sid
        self.render()

    def delete_game(self, sid: str) -> None:
        self.draft.pop("delete", None)
        self.vm.delete_game(sid)

    def deleted_card(self, entry: dict) -> ft.Control:
        """The game just deleted, with the way to have it back (until the next screen)."""
        _, vm = self.vm.t, self.vm
        names = ", ".join(p["name"] for p in entry["players"])
        return card([text(_("Deleted: {game} ({players})").format(game=vm.title(entry["game"], entry.get("title")),
                                                                   players=names), SMALL),
                     button(_("Undo the deletion"), lambda e: vm.undo_delete(), "undo-delete", primary=False,
                            icon=ft.Icons.UNDO)], "deleted", highlight=True)

    def sheet_form(self, sheet: dict | None) -> None:
        """"Another game": a new score sheet, or a saved one to play again (its form filled in)."""
        self.go(f"new:{score_sheet.GAME}")
        self.draft["new"] = score_sheet.blank_form(sheet)
        self.render()

    def history_of(self, kind: str) -> None:
        """The finished games of one game (a sheet's own history)."""
        self.go("history")
        self.draft["filter"] = {"period": "all", "game": kind}
        self.render()

    def new_game(self, game_id: str) -> Screen:
        _ = self.vm.t
        ui = game_ui(game_id)
        form = ui.new_game_form(self, game_id)
        heading_ = ui.form_title(self, game_id) if hasattr(ui, "form_title") else _("New game: {game}").format(
            game=self.vm.t.text(f"{game_id}.game.title"))
        return Screen([title(heading_), *teach_ui.form_choice(self, game_id), *form.body], form.primary)

    # -- setup checklist ------------------------------------------------------------------------------

    def setup(self) -> Screen:
        _, vm = self.vm.t, self.vm
        ngettext = vm.t.n
        items = vm.game.setup_items(vm.session["config"])
        ticks = set(vm.state["ticks"])
        done = sum(1 for i in items if i["id"] in ticks)
        controls: list[ft.Control] = [
            tid("setup-progress", text(ngettext("{done} of {n} item ticked", "{done} of {n} items ticked", len(items))
                                       .format(done=done, n=len(items)))),
            ft.ProgressBar(value=done / len(items) if items else 1, bar_height=8, color=ACCENT),
        ]
        for item in items:
            key = f"{vm.session['game']}.setup.{item['id']}"
            params = {k: vm.t.text(v.key) if hasattr(v, "key") else v for k, v in item["params"].items()}
            label = vm.t.text(key).format(**params)
            checked = item["id"] in ticks
            controls.append(tid(f"tick-{item['id']}", ft.Container(
                ft.Row([ft.Icon(ft.Icons.CHECK_BOX if checked else ft.Icons.CHECK_BOX_OUTLINE_BLANK,
                                color=ACCENT if checked else None, size=30),
                        ft.Container(ft.Column([ft.Text(label, size=TEXT, color=ft.Colors.GREY_500 if checked else None),
                                                *([why] if (why := teach_ui.setup_line(self, item["id"])) else [])],
                                               spacing=2, tight=True),
                                     expand=True)], vertical_alignment=ft.CrossAxisAlignment.CENTER),
                padding=ft.Padding.symmetric(vertical=10, horizontal=4), border_radius=8,
                on_click=lambda e, i=item["id"], c=checked: vm.dispatch("tick", item=i, done=not c))))
        controls += [self.problem(), *self.footer()]
        start = getattr(self.ui, "start_label", None)
        label = start(self) if start else _("Start round 1")
        if done < len(items):
            label = _("{start} (setup not complete)").format(start=label)
        return Screen(controls, bar_button(label, lambda e: vm.dispatch("begin"), "begin", icon=ft.Icons.PLAY_ARROW))

    # -- rules browser ------------------------------------------------------------------------------

    def rules(self) -> Screen:
        _, vm = self.vm.t, self.vm
        game = vm.session["game"]

        def search(e):
            self.query = e.control.value or ""
            self.render()

        controls: list[ft.Control] = [
            title(_("Rules")),
            tid("rules-search", ft.Row([ft.TextField(label=_("Search the rules"), value=self.query, on_submit=search,
                                                     prefix_icon=ft.Icons.SEARCH, text_size=TEXT, expand=True)])),
        ]
        sections = [(s, vm.t.text(f"{game}.rule.{s}.title"), vm.t.text(f"{game}.rule.{s}.body"))
                    for s in vm.store.sections.get(game, [])]
        found = rulesearch.search(self.query, sections, texts.aliases(game))
        for i, hit in enumerate(found):  # the best first, opened; the others folded below it
            controls.append(tid(f"rule-{hit.key}", ft.ExpansionTile(
                title=_marked(hit.title, hit.title_spans, size=TEXT, weight=ft.FontWeight.W_500),
                expanded=bool(self.query.strip()) and i == 0, min_tile_height=56,
                controls=[ft.Container(_marked(hit.body, hit.body_spans, size=TEXT, selectable=True), padding=12)])))
        if not found:
            controls.append(text(_("No rule mentions “{query}”.").format(query=self.query)))
        return Screen(controls, self.back())

    # -- history ------------------------------------------------------------------------------------

    def log(self) -> Screen:
        _ = self.vm.t
        lines = self.vm.history()
        controls: list[ft.Control] = [title(_("History"))]
        if not lines:
            controls.append(text(_("Nothing has happened yet.")))
        for i, line in enumerate(lines):
            controls.append(text(f"{len(lines) - i}. {line}", SMALL))
        return Screen(controls, self.back())

    # -- score tracks and corrections ------------------------------------------------------------------

    def score_screen(self) -> Screen:
        """The top bar's scores button: the score tracks, or the game's own ledgers."""
        custom = getattr(self.ui, "scores_screen", None)
        return Screen(custom(self) if custom else self.scores(), self.back())

    def scores(self) -> list[ft.Control]:
        _, vm = self.vm.t, self.vm
        ngettext = vm.t.n
        scores = vm.state["scores"]
        tracks = sorted(scores, key=lambda t: -scores[t])
        draft = self.draft.setdefault("correct", {"track": tracks[0], "points": 0, "reason": ""})
        controls: list[ft.Control] = [title(_("Score tracks"))]
        for track in tracks:
            controls.append(tid(f"score-{track}", ft.Row([
                ft.Container(self.track_label(track), expand=True),
                ft.Text(ngettext("{n} point", "{n} points", scores[track]).format(n=scores[track]), size=20,
                        weight=ft.FontWeight.BOLD)])))
        for c in vm.state.get("corrections", []):
            controls.append(text(_("Correction {points:+d}: {reason}").format(points=c["points"], reason=c["reason"]),
                                 SMALL, color=ft.Colors.GREY_400))
        controls.append(card([
            heading(_("Correct a score")),
            choice_chips("correct-track", [(t, self.track_label(t)) for t in tracks], draft["track"],
                         lambda t: (draft.update(track=t), self.render())),
            *self.correction_fields(draft, _("Points (+ or −)"), 99),
            button(_("Save the correction"), lambda e: self.correct(draft), "correct-save"),
        ]))
        return controls

    def correction_fields(self, draft: dict, label: str, most: int) -> list[ft.Control]:
        """A correction's amount on the keypad (with its sign) and its reason: a chip for the usual
        ones, or typed."""
        _ = self.vm.t
        reason = ft.TextField(label=_("Reason"), value=draft["reason"], text_size=TEXT, expand=True,
                              on_change=lambda e: draft.update(reason=e.control.value),
                              error=self.vm.error_for("reason"))
        usual = [_("Forgotten"), _("Counted wrong"), _("Entered wrong")]
        return [Keypad("correct-points", label, draft, "points", -most, most, sign=True,
                       quick=[("−5", -5), ("−1", -1), ("+1", 1), ("+5", 5), ("+10", 10)]).control,
                self.problem("points"),
                choice_chips("correct-why", [(str(i), r) for i, r in enumerate(usual)],
                             next((str(i) for i, r in enumerate(usual) if r == draft["reason"]), None),
                             lambda i: (draft.update(reason=usual[int(i)]), self.render())),
                tid("correct-reason", ft.Row([reason]))]

    def correct(self, draft: dict) -> None:
        if self.vm.dispatch("correct", track=draft["track"], points=draft["points"], reason=draft["reason"]):
            self.draft.pop("correct", None)
            self.vm.go("scores")

    # -- result ---------------------------------------------------------------------------------------

    def result(self) -> Screen:
        _, vm = self.vm.t, self.vm
        result = vm.game.result(vm.state, vm.session["config"])
        controls: list[ft.Control] = [title(_("Final scoring")), *self.result_cards(result),
                                      history.category_chart(self, result), history.progress_chart(self)]
        controls.append(heading(_("Why these scores?")))
        for line in result["explain"]:
            controls.append(text(vm.msg(line), SMALL))
        controls += self.footer()
        return Screen(controls, bar_button(_("Back to the home screen"), lambda e: self.home_clicked(), "done",
                                           icon=ft.Icons.HOME))
        return controls

    def result_cards(self, result: dict) -> list[ft.Control]:
        """Who won, then each player's total and its breakdown, best first."""
        _, vm = self.vm.t, self.vm
        ngettext = vm.t.n
        names = {p["colour"]: p["name"] for p in vm.session["config"]["players"]}
        winners = [names.get(w, w) for w in result["winners"]]
        headline = (_("{name} wins!").format(name=winners[0]) if len(winners) == 1
                    else _("Shared victory: {names}").format(names=", ".join(winners)))
        controls: list[ft.Control] = [card([ft.Text(headline, size=26, weight=ft.FontWeight.BOLD, color=ACCENT)],
                                           "winner", highlight=True)]
        for row in sorted(result["players"], key=lambda r: r["place"]):
            lines = [ft.Row([ft.Text(f"{row['place']}.", size=22, weight=ft.FontWeight.BOLD),
                             ft.Container(self.track_label(row["id"]), expand=True),
                             ft.Text(ngettext("{n} point", "{n} points", row["total"]).format(n=row["total"]),
                                     size=22, weight=ft.FontWeight.BOLD)])]
            for category, points in row["breakdown"].items():
                lines.append(ft.Row([ft.Container(text(self.ui.category(self, category), SMALL), expand=True),
                                     text(str(points), SMALL)]))
            controls.append(card(lines, f"result-{row['id']}"))
        return controls


def _marked(value: str, spans, **style) -> ft.Text:
    """A rule text with the search matches highlighted."""
    if not spans:
        return ft.Text(value, **style)
    mark = ft.TextStyle(bgcolor=ACCENT, color=ft.Colors.BLACK)
    return ft.Text(spans=[ft.TextSpan(piece, mark if hit else None) for piece, hit in rulesearch.pieces(value, spans)],
                   **style)


async def keep_awake(wakelock: ft.Wakelock) -> None:
    """Ask the device not to sleep during a game (where the browser allows it: localhost or https)."""
    try:
        await wakelock.enable()
    except Exception as error:  # noqa: BLE001 - a browser without the Wake Lock API: the game goes on
        logging.getLogger(__name__).info("no wake lock: %s", error)


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


#: Where a phone keeps the language chosen on it (each phone its own).
LANGUAGE_KEY = "companion.language"
#: Seconds a new tab waits for its phone to say its language before it draws in the store's (a phone
#: that answers at all answers within this, even on a busy server that has just restarted).
LANGUAGE_ANSWER = PHONE_ANSWER


def locales(lang: str) -> ft.LocaleConfiguration:
    """The language Flutter's own texts take (what a screen reader says of a fold: "Sbaleno")."""
    return ft.LocaleConfiguration(supported_locales=[ft.Locale("cs", "CZ"), ft.Locale("en", "US")],
                                  current_locale=ft.Locale(lang, "CZ" if lang == "cs" else "US"))


def browser_language(tags) -> str | None:
    """The first of the app's languages among the browser's (`navigator.languages`: "en-GB", "cs")."""
    for tag in tags:
        code = str(tag).replace("_", "-").split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return None


async def phone_language(page: ft.Page, prefs: ft.SharedPreferences) -> str | None:
    """The language this phone chose last, else the first of its browser's languages the app speaks;
    None when neither is known (the phone did not answer in time)."""
    try:
        chosen = await asyncio.wait_for(prefs.get(LANGUAGE_KEY), LANGUAGE_ANSWER)
        if chosen in LANGUAGES:
            return chosen
        info = await asyncio.wait_for(page.get_device_info(), LANGUAGE_ANSWER)
        return browser_language([*(getattr(info, "languages", None) or []), getattr(info, "language", None) or "",
                                 *(f"{locale.language_code}" for locale in getattr(info, "locales", None) or [])])
    except Exception as error:  # noqa: BLE001 - a phone that left or a browser that does not say: the
        logging.getLogger(__name__).info("the phone's language is not known: %s", error)  # store's setting
        return None


def gone(page: ft.Page) -> bool:
    """Whether the tab's connection is gone (and not back yet)."""
    try:
        return page.session.connection is None
    except RuntimeError:  # the session itself was let go
        return True


def make_main(store: Store, join: str | None = None):
    """The entry point of each browser tab; `join` is the table's join link in table mode."""
    qr = table.qr_svg(join) if join else None

    def main(page: ft.Page) -> None:
        page.theme_mode = ft.ThemeMode.DARK
        page.bgcolor = ft.Colors.BLACK
        page.horizontal_alignment = ft.CrossAxisAlignment.STRETCH
        page.padding = 0  # the frame pins its header and bottom bar; only its body scrolls
        page.dark_theme = ft.Theme(color_scheme_seed=ft.Colors.AMBER)
        vm = ViewModel(store)
        shell = Shell(page, vm, join, qr)
        prefs = shell.prefs = ft.SharedPreferences()

        def chose(lang: str) -> None:  # remembered on this phone: every phone its own language
            page.locale_configuration = locales(lang)
            page.run_task(prefs.set, LANGUAGE_KEY, lang)
            if vm.browser:  # the phone alone: its own store too (its backups carry the choice)
                store.set_setting("language", lang)

        vm.on_language = chose
        wakelock = ft.Wakelock()
        shell.wakelock = wakelock  # keep the service alive
        page.data = shell          # ... and the listener; widgets redraw the tab through it
        page.pubsub.subscribe(shell.on_broadcast)
        vm.on_saved = lambda kind, sid: page.pubsub.send_others((kind, sid))

        def left(e) -> None:
            # A phone whose connection is gone is not redrawn on news from the others, and its screen
            # is let go (nothing is sent: Flet only forgets it); its session is closed soon after
            # (server.SESSION_TIMEOUT) unless it comes back.
            page.pubsub.unsubscribe_all()
            page.controls.clear()
            shell.forget()
            page.update()

        def back(e) -> None:  # back before its session closed: the screen as it now is
            shell.gone = False
            page.pubsub.subscribe(shell.on_broadcast)
            if vm.session:
                vm.refresh()
            if not page.controls:
                shell.render()

        async def start() -> None:
            """The first screen, in the phone's language: its own choice, else its browser's (the phone
            alone keeps its choice in its own store, as before it was kept on the phone)."""
            if not (vm.browser and store.setting("language") in LANGUAGES):
                vm.speak(await phone_language(page, prefs))
            if gone(page):
                return  # it left meanwhile: nothing to draw (its session closes after server.SESSION_TIMEOUT)
            page.locale_configuration = locales(vm.lang)
            shell.follow_url(page.route or "/")

        page.on_disconnect = left
        page.on_connect = back
        page.on_close = lambda e: (page.pubsub.unsubscribe_all(), shell.forget())  # no draw outlives it
        page.on_route_change = lambda e: shell.follow_url(e.route) if isinstance(getattr(e, "route", None), str) \
            and e.route != shell.url() else None  # (a forged event may carry no route)
        page.update()  # the dark page (and the phone's services) while the phone says its language
        page.run_task(start)
        page.run_task(shell.recall_rules)
        page.run_task(keep_awake, wakelock)

    return main
