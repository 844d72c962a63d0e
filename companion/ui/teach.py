"""Teach mode on screen: the cards before setup, a line per setup item, and on the round screen the
step's "how to do it" and "why it matters" with the explanation on the spot (companion/teach.py and
each game's own companion/games/<id>/teach.py build them; the view-model gives them in the reader's
language); at the end of the game, the card of what scores at the end and why.

The step's card folds: it is open the first time its step is shown in a game and folded when that
step comes again (one tap opens it), so it pushes the step's own controls down only once. Open, it
also lists every step of the round, so a step the group went past without stopping (Carcassonne's
"Next player" at once) is still one tap away. After round 1 the card stays folded ("Teach us this
step"), and the end card opens at the end of a game that taught round 1."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import flet as ft

from .. import teach
from .widgets import ACCENT, SMALL, TARGET, TEXT, card, choice_chips, heading, text, tid

if TYPE_CHECKING:
    from .frame import Frame


def form_choice(shell: Frame, game_id: str) -> list[ft.Control]:
    """The new-game form's choice: "We know the game" or "Teach us"."""
    _, vm = shell.vm.t, shell.vm
    if not vm.teaches(game_id):
        return []
    return [choice_chips("teach", [("no", _("We know the game")), ("yes", _("Teach us"))],
                         "yes" if vm.teach_next else "no", lambda v: vm.set_teach_next(v == "yes"))]


def panel(shell: Frame) -> list[ft.Control]:
    """What teaching adds at the top of the setup, round and final screens (nothing when it does not
    teach)."""
    vm = shell.vm
    mode = vm.teach_mode()
    if mode is None:
        return []
    if vm.route == "setup":
        return _cards(shell) if mode == "open" else []
    if vm.route == "final":
        return [_end(shell)]
    if vm.route != "round":
        return []
    if mode == "open":
        return _step(shell)
    return _folded(shell)


def setup_line(shell: Frame, item_id: str) -> ft.Control | None:
    """A setup item's "what is this for" line while teaching."""
    vm = shell.vm
    if vm.teach_mode() != "open":
        return None
    key = teach.setup_why(vm.game_session["game"], item_id, vm.game_session["config"]).key
    line = vm.t.text(key)
    return None if line == key else tid(f"why-{item_id}", ft.Text(line, size=SMALL, color=ACCENT, italic=True))


# ----------------------------------------------------------------------------------------------
# The folds: which teaching card is open on this phone


@dataclass
class Folds:
    """This phone's teaching folds in one game: the cards shown once already, the showing of a card on
    screen and whether it is open, and whether it lists the round's steps."""

    game: str
    seen: set[str] = field(default_factory=set)
    shown: str | None = None
    open: bool = False
    steps: bool = False


def folds(shell: Frame) -> Folds:
    """The folds of the game on screen (a new game starts with none seen)."""
    sid = shell.vm.game_session["id"]
    found = shell.teach_folds
    if found is None or found.game != sid:
        found = shell.teach_folds = Folds(sid)
    return found


def _drawn(shell: Frame, key: str, first_open: bool, turn: int = 0) -> Folds:
    """The folds as the card `key` is drawn on `turn`: a card that has just come on screen (or comes
    again on the next turn) is open if it opens on its first showing and has not been shown in this
    game yet; a card still on screen keeps its fold."""
    f = folds(shell)
    if f.shown != f"{key} #{turn}":
        f.shown, f.steps = f"{key} #{turn}", False
        f.open = first_open and key not in f.seen
        f.seen.add(key)
    return f


def _toggle(shell: Frame, attribute: Literal["open", "steps"]) -> Callable[[object], None]:
    def flip(e: object) -> None:
        f = folds(shell)
        setattr(f, attribute, not getattr(f, attribute))
        shell.render()
    return flip


def _head(ident: str, label: ft.Control, opened: bool, on_click: Callable[[object], None]) -> ft.Control:
    return tid(ident, ft.Container(
        ft.Row([ft.Icon(ft.Icons.SCHOOL, size=22, color=ACCENT), ft.Container(label, expand=True),
                ft.Icon(ft.Icons.EXPAND_LESS if opened else ft.Icons.EXPAND_MORE)],
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
        height=TARGET, on_click=on_click))


# ----------------------------------------------------------------------------------------------
# The cards


def _cards(shell: Frame) -> list[ft.Control]:
    vm = shell.vm
    game, config = vm.game_session["game"], vm.game_session["config"]
    cards: list[ft.Control] = []
    for which in teach.CARDS:
        title, body = teach.card(game, which, config)
        cards.append(card([heading(vm.t.text(title.key)), text(vm.t.text(body.key))], f"teach-card-{which}"))
    return cards


def _end(shell: Frame) -> ft.Control:
    """What scores at the end and why: open on its first showing in a game that taught round 1."""
    vm = shell.vm
    game, config = vm.game_session["game"], vm.game_session["config"]
    f = _drawn(shell, teach.END, config.get("teach") == "open")
    title, body = teach.card(game, teach.END, config)
    lines: list[ft.Control] = [_head("teach-end-toggle", heading(vm.t.text(title.key)), f.open,
                                     _toggle(shell, "open"))]
    if f.open:
        lines.append(tid("teach-end", text(vm.t.text(body.key))))
    return card(lines, f"teach-card-{teach.END}", folded=not f.open)


def _step(shell: Frame) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    controls: list[ft.Control] = []
    shown = vm.teach_step()
    if shown:
        controls.append(_step_card(shell, shown, True,
                                   lambda opened: ft.Text(_("How to do it"), size=TEXT, weight=ft.FontWeight.BOLD)))
    lines = vm.teach_explain()
    if lines:
        controls.append(card([ft.Text(_("What just happened, with your numbers"), size=TEXT,
                                      weight=ft.FontWeight.BOLD),
                              *[text(line) for line in lines]], "teach-explain", highlight=True))
    return controls


def _folded(shell: Frame) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    controls: list[ft.Control] = []
    if vm.teach_recap():
        recap = teach.recap(vm.game_session["game"], vm.game_session["config"])
        controls.append(card([ft.Text(_("Round 1 in three lines"), size=TEXT, weight=ft.FontWeight.BOLD),
                              *[text(vm.t.text(r.key)) for r in recap]], "teach-recap"))
    shown = vm.teach_step()
    if shown:
        controls.append(_step_card(shell, shown, False, lambda opened: ft.Text(
            _("Hide the teaching") if opened else _("Teach us this step"), size=TEXT)))
    return controls


def _current(shell: Frame) -> str | None:
    vm = shell.vm
    return teach.step(vm.game_session["game"], vm.game_session["config"], vm.game_state)


def _step_card(shell: Frame, shown: tuple[str, str], first_open: bool,
               label: Callable[[bool], ft.Control]) -> ft.Control:
    """The step's card: its head (`label`, drawn open or folded) folds it; open, the step's "how" and
    "why", then the round's steps."""
    _, vm = shell.vm.t, shell.vm
    # a card of round 1 and the same step's card after it are two cards: the first folds on its own
    f = _drawn(shell, f"{'round 1' if first_open else 'later'}:{_current(shell)}", first_open,
               teach.turns_ended(vm.game_session["game"], vm.game_session["log"]))
    how, why = shown
    lines: list[ft.Control] = [_head("teach-toggle", label(f.open), f.open, _toggle(shell, "open"))]
    if f.open:
        lines += [tid("teach-how", text(how)), tid("teach-why", text(_("Why it matters: {why}").format(why=why), SMALL)),
                  *_round_steps(shell, f)]
    return card(lines, "teach-step", folded=not f.open)


def _round_steps(shell: Frame, f: Folds) -> list[ft.Control]:
    """Every step of the round, numbered, the one on screen marked: behind one more tap."""
    _, vm = shell.vm.t, shell.vm
    game, config = vm.game_session["game"], vm.game_session["config"]
    head = tid("teach-steps-toggle", ft.Container(
        ft.Row([ft.Container(ft.Text(_("Every step, in order"), size=SMALL, color=ACCENT), expand=True),
                ft.Icon(ft.Icons.EXPAND_LESS if f.steps else ft.Icons.EXPAND_MORE, size=20)],
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
        height=TARGET, on_click=_toggle(shell, "steps")))
    if not f.steps:
        return [head]
    current = _current(shell)
    listed: list[ft.Control] = []
    for i, step in enumerate(teach.round_steps(game, config), start=1):
        how = vm.t.text(teach.how(game, step)[0].key)
        listed.append(ft.Text(f"{i}. {how}", size=SMALL, color=ACCENT if step == current else None,
                              weight=ft.FontWeight.BOLD if step == current else None))
    return [head, tid("teach-steps", ft.Column(listed, spacing=6))]
