"""Elfenland screens: the small pieces the round guide's parts share (a town's name, a button sized to
its label, the bank running short)."""
from __future__ import annotations

from collections.abc import Callable

import flet as ft

from . import rules
from ...ui.screen_contract import ShellView
from ...ui.widgets import ACCENT, MUTED, MUTED_FILL, SMALL, TARGET, TEXT, text, tid


def gold_game(shell: ShellView) -> bool:
    return shell.vm.game_session["config"]["variant"] == rules.ELFENGOLD


def town_name(shell: ShellView, town: str) -> str:
    """A town by name, with its gold disc in Elfengold."""
    name = shell.game_text(f"town.{town}")
    return f"{name} {rules.GOLD_DISCS[town]}" if gold_game(shell) and town in rules.GOLD_DISCS else name


def small_button(label: str, on_click: Callable[..., object], ident: str, filled: bool = False, muted: bool = False,
                  width: int | None = None, size: int = TEXT, padding: int = 12) -> ft.Control:
    """A button sized to its label (chips in a row), 52 px tall; `muted`: greyed, its tap says why."""
    kind = ft.FilledButton if filled else ft.OutlinedButton
    style = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=padding))
    if muted:
        style.color, style.bgcolor = MUTED, MUTED_FILL
    return tid(ident, kind(content=ft.Text(label, size=size, weight=ft.FontWeight.BOLD if width else None),
                           height=TARGET, width=width, on_click=on_click, style=style))


def bank_short(shell: ShellView, paid: int) -> ft.Control:
    """The bank holds less than a payment: it pays what it has (the box holds 300 gold)."""
    _ = shell.vm.t
    return tid("bank-short", text(_("The bank has only {gold} gold left of the box's {n}: it pays what it has.").format(
        gold=paid, n=rules.GOLD_IN_BOX), SMALL, color=ACCENT))
