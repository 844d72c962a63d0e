"""Teach mode on screen: the cards before setup, a line per setup item, and on the round screen the
step's "how to do it" and "why it matters" with the explanation on the spot (companion/teach.py and
each game's own companion/games/<id>/teach.py build them; the view-model gives them in the reader's
language). After round 1 it folds to one line that opens the help of the step on screen."""
from __future__ import annotations

import flet as ft

from .. import teach
from .widgets import ACCENT, SMALL, TARGET, TEXT, card, choice_chips, heading, text, tid


def form_choice(shell, game_id: str) -> list[ft.Control]:
    """The new-game form's choice: "We know the game" or "Teach us"."""
    if not teach.teaches(game_id):
        return []
    _, vm = shell.vm.t, shell.vm
    return [choice_chips("teach", [("no", _("We know the game")), ("yes", _("Teach us"))],
                         "yes" if vm.teach_next else "no", lambda v: vm.set_teach_next(v == "yes"))]


def panel(shell) -> list[ft.Control]:
    """What teaching adds at the top of the setup and round screens (nothing when it does not teach)."""
    vm = shell.vm
    mode = vm.teach_mode()
    if mode is None:
        return []
    if vm.route == "setup":
        return _cards(shell) if mode == "open" else []
    if vm.route != "round":
        return []
    if mode == "open":
        return _step(shell)
    return _folded(shell)


def setup_line(shell, item_id: str) -> ft.Control | None:
    """A setup item's "what is this for" line while teaching."""
    vm = shell.vm
    if vm.teach_mode() != "open":
        return None
    key = teach.setup_why(vm.session["game"], item_id).key
    line = vm.t.text(key)
    return None if line == key else tid(f"why-{item_id}", ft.Text(line, size=SMALL, color=ACCENT, italic=True))


def _cards(shell) -> list[ft.Control]:
    vm = shell.vm
    game = vm.session["game"]
    cards = []
    for which in teach.CARDS:
        title, body = teach.card(game, which)
        cards.append(card([heading(vm.t.text(title.key)), text(vm.t.text(body.key))], f"teach-card-{which}"))
    return cards


def _step(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    controls = []
    shown = vm.teach_step()
    if shown:
        how, why = shown
        controls.append(card([
            ft.Row([ft.Icon(ft.Icons.SCHOOL, color=ACCENT), ft.Text(_("How to do it"), size=TEXT,
                                                                     weight=ft.FontWeight.BOLD)], spacing=8),
            tid("teach-how", text(how)),
            tid("teach-why", text(_("Why it matters: {why}").format(why=why), SMALL)),
        ], "teach-step"))
    lines = vm.teach_explain()
    if lines:
        controls.append(card([ft.Text(_("What just happened, with your numbers"), size=TEXT,
                                      weight=ft.FontWeight.BOLD),
                              *[text(line) for line in lines]], "teach-explain", highlight=True))
    return controls


def _folded(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    controls = []
    if vm.teach_recap():
        controls.append(card([ft.Text(_("Round 1 in three lines"), size=TEXT, weight=ft.FontWeight.BOLD),
                              *[text(vm.t.text(r.key)) for r in teach.recap(vm.session["game"])]], "teach-recap"))
    step = teach.step(vm.session["game"], vm.session["config"], vm.state)
    shown = vm.teach_step()
    if not shown:
        return controls
    opened = getattr(shell, "teach_open", None) == step

    def toggle(e) -> None:
        shell.teach_open = None if opened else step
        shell.render()

    head = tid("teach-toggle", ft.Container(
        ft.Row([ft.Icon(ft.Icons.SCHOOL, size=22, color=ACCENT),
                ft.Container(ft.Text(_("Hide the teaching") if opened else _("Teach us this step"), size=TEXT),
                             expand=True),
                ft.Icon(ft.Icons.EXPAND_LESS if opened else ft.Icons.EXPAND_MORE)],
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
        height=TARGET, on_click=toggle))
    lines: list[ft.Control] = [head]
    if opened:
        how, why = shown
        lines += [tid("teach-how", text(how)), tid("teach-why", text(_("Why it matters: {why}").format(why=why), SMALL))]
    controls.append(card(lines, "teach-step"))
    return controls
