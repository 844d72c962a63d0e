"""The pinned frame every game's screens are drawn in: the header (where the game is, who acts, every
player's figure), the message slot over the body's foot, the bottom bar (Undo and the next action),
and the small parts every in-game screen shares (the footer, folds, a step's rules, the form problems).
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Sequence

import flet as ft

from ..i18n import LANGUAGES, vocative
from ..engine.model import P_, Guide, Msg
from .screen_contract import GameScreenHooks, game_ui
from .viewmodel import ViewModel
from .teach import Folds
from .widgets import (ACCENT, EDGE, HALF_BAR, HEADER, SMALL, TARGET, TEXT, banner, bar_button, card, choice_chips, dot, error,
                      reminder, text, tid, who)

#: The top bar's buttons: as tall as a tap needs (48 px) and no taller, for the header's height.
BAND = 48


class Frame:
    """The parts of a tab's Shell that every screen shares: its frame and its small common pieces."""

    vm: ViewModel
    page: ft.Page
    join: str | None
    qr: bytes | None
    query: str
    prefs: ft.SharedPreferences | None
    confirming: str | None
    draft: dict[str, Any]
    rules_open: bool
    folds: set[str]
    teach_folds: Folds | None  # this phone's teaching folds in the game on screen (companion/ui/teach.py)

    if TYPE_CHECKING:  # the Shell's own (companion/ui/shell.py), and its other parts' (home.py, game_screens.py)
        def kept(self, key: str, inputs: tuple[object, ...], build: Callable[[], ft.Control], acts: bool = False
                 ) -> ft.Control: ...
        def seat_fields(self, form: dict[str, Any], players: list[dict[str, Any]], colours: Sequence[str],
                        colour_name: Callable[[str], str], start_label: str | None = None) -> list[ft.Control]: ...
        def correction_fields(self, draft: dict[str, Any], label: str, most: int) -> list[ft.Control]: ...
        def result_cards(self, result: dict[str, Any]) -> list[ft.Control]: ...
        def deleted_card(self, entry: dict[str, Any]) -> ft.Control: ...
        def delete_controls(self, sid: str, abandon: bool = False) -> list[ft.Control]: ...
        def render(self) -> None: ...
        def go(self, route: str) -> None: ...
        def home_clicked(self) -> None: ...
        def back_to_game(self) -> None: ...

    @property
    def me(self) -> str | None:
        """Table mode: the player this phone belongs to (it acts only for that player, see
        ViewModel.dispatch), or None: the host's screen and a phone of nobody act for anyone."""
        return self.vm.me

    @me.setter
    def me(self, colour: str | None) -> None:
        self.vm.me = colour
        if self.vm.session:  # remembered for the game: a deletion on this phone names its player
            if colour:
                self.vm.owned[self.vm.game_session["id"]] = colour
            else:
                self.vm.owned.pop(self.vm.game_session["id"], None)

    @property
    def ui(self) -> GameScreenHooks:
        """The open game's own screens (asked only inside a game)."""
        if not self.vm.session:
            raise LookupError("no game is open")
        return game_ui(self.vm.game_session["game"])

    #: The screens of a game in progress: the bar offers Undo on them.
    IN_GAME = ("setup", "round", "final", "result")

    def guide(self) -> Guide | None:
        """The header's facts for an in-game screen (None elsewhere)."""
        vm = self.vm
        if not vm.session or vm.route == "archive":
            return None
        if vm.game_state.get("phase") == "setup":
            items = vm.game.setup_items(vm.game_session["config"])
            done = sum(1 for i in items if i["id"] in set(vm.game_state["ticks"]))
            return Guide(P_("Setup: {done} of {n} item ticked", "Setup: {done} of {n} items ticked", len(items),
                            done=done), screen="setup")
        game_guide = vm.game.guide
        if game_guide is None:  # every game has its round guide (GameDef's default is for a rules-only toy)
            return None
        guide = game_guide(vm.game_state, vm.game_session["config"])
        if vm.game_state.get("phase") == "over":  # one total per player: the result's final one, as below it
            rows = vm.game.result(vm.game_state, vm.game_session["config"])["players"]
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
                label = self.ui.player_label
                name = label(self, guide.actor) if label else self.player_name(guide.actor)
                role = None if self.me == guide.actor else self.vm.msg(guide.role) if guide.role else _("On turn:")
            # where the game is and who acts, in one flowing text (the actor's chip below is outlined)
            # this phone's player is addressed in the same line ("… · Anno, jste na tahu!"): the header
            # keeps its height whoever acts
            addressed = self.addressed(name) if guide.actor and role is None and name is not None else None
            rows.append(self.kept("where", (where, name, role, addressed),
                                  lambda: tid("where", self.where_line(where, name, role, addressed))))
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
        chips: list[ft.Control] = []
        for p in self.vm.game_session["config"]["players"]:
            figure = figures.get(p["colour"])
            if figure is None:
                continue
            acts = p["colour"] == guide.actor
            chips.append(self.kept(f"fig-{p['colour']}", (p["name"], figure, stacked, acts),
                                   functools.partial(self.chip, p, figure, stacked, acts)))
        return tid("strip", ft.Row(chips, wrap=True, spacing=6, run_spacing=6))

    @staticmethod
    def where_line(where: str, name: str | None, role: str | None, addressed: str | None = None) -> ft.Control:
        """Where the game is, then who acts: "Round 2 · On turn: Anna" on another player's phone, "Round 2 ·
        Your turn, Anna!" (`addressed`) on that player's own."""
        spans = [ft.TextSpan(text=where)]
        if addressed is not None:
            spans += [ft.TextSpan(text=" · "), ft.TextSpan(text=addressed, style=ft.TextStyle(
                color=ACCENT, weight=ft.FontWeight.BOLD))]
            text_ = ft.Text(size=SMALL, color=ft.Colors.GREY_300, spans=spans,
                            semantics_label=f"{where} · {addressed}")
            return ft.Semantics(identifier="actor", key="actor", container=True, content=ft.Semantics(
                identifier="your-turn", container=True, content=text_))
        if role is not None:
            spans += [ft.TextSpan(text=f" · {role} "),
                      ft.TextSpan(text=name, style=ft.TextStyle(color=ft.Colors.WHITE, weight=ft.FontWeight.BOLD))]
        text_ = ft.Text(size=SMALL, color=ft.Colors.GREY_300, spans=spans,
                        semantics_label="".join(span.text or "" for span in spans))  # read out whole (spans are not)
        if name is None or role is None:
            return text_
        return ft.Semantics(identifier="actor", key="actor", container=True, content=text_)

    def addressed(self, name: str) -> str:
        """"Your turn, <name>!" to this phone's player (in Czech with the name in the vocative)."""
        _ = self.vm.t
        return _("Your turn, {name}!").format(name=vocative(name) if self.vm.lang == "cs" else name)

    @staticmethod
    def chip(player: dict[str, Any], figure: str, stacked: bool, acts: bool) -> ft.Control:
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
        elif label and label == vm.undo_label() and (owner := vm.undo_owner()) is not None:
            _ = vm.t
            shown = banner(_("Take back {name}'s entry? {action}").format(
                name=self.player_name(owner), action=label), "undo-question", problem=False)
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
                                                   primary=False, icon=ft.Icons.UNDO,
                                                   most=HALF_BAR if primary else None), expand=True))
        if primary and not (label and self.confirming == label):
            actions.append(ft.Container(primary, expand=True))
        if not actions:
            return ft.Container(height=0, key="bar")
        return tid("bar", ft.Container(ft.Row(actions, spacing=8, vertical_alignment=ft.CrossAxisAlignment.STRETCH,
                                              intrinsic_height=True),
                                       padding=ft.Padding.only(left=12, right=12, top=6, bottom=8),
                                       bgcolor=HEADER, border=ft.Border.only(top=ft.BorderSide(1, EDGE))))

    def ask_undo(self, label: str | None) -> None:
        """Ask before taking back another player's entry (None: the question is answered "keep it").
        The question is the newest message: an older refusal or notice is put away, not drawn over it."""
        self.confirming = label
        if label:
            self.vm.problem, self.vm.notice = None, None
        self.render()

    def undo_confirmed(self) -> None:
        self.confirming = None
        self.vm.undo()  # judged against the screen the question was on: out of date if the game moved

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
            return self.vm.title(self.vm.game_session["game"], self.vm.game_session["config"].get("title"))
        _ = self.vm.t
        return _("Table companion")

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
                self.page.run_task(self.prefs.set, f"companion.me.{self.vm.game_session['id']}", self.me or "")
            self.render()

        players = self.vm.game_session["config"]["players"]
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

    def fold(self, ident: str, title: str, controls: Sequence[ft.Control], subtitle: str | None = None) -> ft.Control:
        """A fold that stays open while the players enter things in it (a redraw would close a plain
        ExpansionTile); a new screen opens with it closed."""
        def changed(e: ft.Event[ft.ExpansionTile]) -> None:
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
            game: str = self.vm.session["game"]
            return game
        return self.vm.route.removeprefix("new:") if self.vm.route.startswith("new:") else None

    def game_text(self, key: str) -> str:
        """The game's rule text (data/<game>.toml) in the reader's language."""
        return self.vm.t.text(f"{self.game_id}.{key}")

    def player_name(self, colour: str) -> str:
        name: str = next(p["name"] for p in self.vm.game_session["config"]["players"] if p["colour"] == colour)
        return name

    def track_label(self, track: str) -> ft.Control:
        """A score track: by the player's name and colour, unless the game labels its tracks itself."""
        custom = self.ui.track_label
        return custom(self, track) if custom else who(self.player_name(track), track)

    def send(self, kind: str, draft_key: str, **args: Any) -> None:
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
