"""The home screen (new games, games in progress, our sheets, the way to the history), letting go of
games (abandon, delete and its undo) and the new-game form's shared part (the players' seats)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from ..i18n import LANGUAGES
from ..games.score_sheet import rules as sheet_rules, screens as score_sheet
from . import history
from . import teach as teach_ui
from .frame import Frame
from .screen_contract import game_ui
from .widgets import (SMALL, TEXT, Screen, bar_button, button, card, choice_chips, dot, error, heading, text, tid,
                      title, who)


class Home(Frame):
    """The Shell's screens outside a game: home and the new-game form."""

    # -- home ------------------------------------------------------------------------------------

    def home(self) -> list[ft.Control]:
        _, vm = self.vm.t, self.vm
        # "New game" first, one compact button per game: in sight however many games are in progress
        controls: list[ft.Control] = [
            text(_("Set up, play and score board games together: the rules at hand, every score explained."), SMALL),
            heading(_("New game")), *self.new_game_buttons()]
        for notice in vm.notices():
            controls.append(card([text(notice, color=ft.Colors.ORANGE_200)], "notice"))
        controls.append(self.problem())
        if vm.damaged:
            controls.append(history.damaged(self))
        if vm.deletion:
            controls.append(self.deleted_card(vm.deletion))
        if vm.let_go:
            controls.append(self.abandoned_card(vm.let_go))
        active = vm.in_progress()
        if active:
            controls.append(heading(_("Games in progress")))
            controls += [self.session_card(entry) for entry in active]
        sheets = vm.sheets()
        if sheets:
            controls.append(heading(_("Our sheets")))
        for sheet in sheets:
            kind = sheet_rules.kind({"sheet": sheet})[0]
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
        # table mode (it has both): after the games, so a joined phone resumes without scrolling past the code
        if self.join and self.qr:
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

    def session_card(self, entry: dict[str, Any]) -> ft.Control:
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
        """Ask before deleting a game (None: the answer was "keep it"). The question is the newest
        message: an older notice (a game abandoned) is put away, not left over the question."""
        self.draft["delete"] = sid
        if sid:
            self.vm.problem, self.vm.notice = None, None
        self.render()

    def delete_game(self, sid: str) -> None:
        self.draft.pop("delete", None)
        self.vm.delete_game(sid)

    def deleted_card(self, entry: dict[str, Any]) -> ft.Control:
        """The game just deleted, with the way to have it back (until the next screen)."""
        _, vm = self.vm.t, self.vm
        names = ", ".join(p["name"] for p in entry["players"])
        return card([text(_("Deleted: {game} ({players})").format(game=vm.title(entry["game"], entry.get("title")),
                                                                   players=names), SMALL),
                     button(_("Undo the deletion"), lambda e: vm.undo_delete(), "undo-delete", primary=False,
                            icon=ft.Icons.UNDO)], "deleted", highlight=True)

    def abandoned_card(self, entry: dict[str, Any]) -> ft.Control:
        """The game just abandoned, with the way to take it up again (also later, from the history)."""
        _, vm = self.vm.t, self.vm
        names = ", ".join(p["name"] for p in entry["players"])
        return card([text(_("Abandoned: {game} ({players})").format(game=vm.title(entry["game"], entry.get("title")),
                                                                     players=names), SMALL),
                     button(_("Take it up again"), lambda e: vm.take_up(entry["id"]), "undo-abandon",
                            primary=False, icon=ft.Icons.UNDO)], "let-go", highlight=True)

    def sheet_form(self, sheet: dict[str, Any] | None) -> None:
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
        heading_ = ui.form_title(self, game_id) if ui.form_title else _("New game: {game}").format(
            game=self.vm.t.text(f"{game_id}.game.title"))
        return Screen([title(heading_), *teach_ui.form_choice(self, game_id), *form.body], form.primary)

    def seat_fields(self, form: dict[str, Any], players: list[dict[str, Any]], colours: Sequence[str],
                    colour_name: Callable[[str], str], start_label: str | None = None) -> list[ft.Control]:
        """The part of every new-game form: each player's name and colour, clockwise, then who starts
        (`start_label` says whom the rulebook names; the oldest by default)."""
        _, vm = self.vm.t, self.vm
        controls: list[ft.Control] = [heading(_("Players, clockwise from the first"))]
        def choose(player: dict[str, Any]) -> Callable[[str], None]:
            return lambda colour: self.choose_colour(player, colour)

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
                             choose(player)),
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

    def choose_colour(self, player: dict[str, Any], colour: str) -> None:
        """A colour chosen on the new-game form; a refusal about colours is gone once it is fixed."""
        player["colour"] = colour
        problem = self.vm.problem
        if problem and problem.field and problem.field.endswith(".colour"):
            self.vm.problem = None
        self.render()
