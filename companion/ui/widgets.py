"""Shared widgets: big touch targets (at least 48 px), readable text, stable test ids."""
from __future__ import annotations

from typing import Callable, Sequence

import flet as ft

TEXT = 17
SMALL = 15
TITLE = 24
TARGET = 52  # px: every tappable thing is at least this tall
ERROR = ft.Colors.RED_200
ACCENT = ft.Colors.AMBER_300
GUILD_COLOURS = {"blue": ft.Colors.BLUE_400, "yellow": ft.Colors.YELLOW_600, "green": ft.Colors.GREEN_500,
                 "red": ft.Colors.RED_400, "grey": ft.Colors.GREY_500, "purple": ft.Colors.PURPLE_300}


def tid(identifier: str, control: ft.Control) -> ft.Control:
    """A stable id for tests: appears in the page as [flt-semantics-identifier=...].

    It is also the control's key (ids are unique on a screen; tests/test_screens.py checks): a redraw
    that puts another id in the same place makes a new node, as browsers do not rename one."""
    return ft.Semantics(identifier=identifier, content=control, key=identifier)


def text(value: str, size: int = TEXT, **kwargs) -> ft.Text:
    return ft.Text(value, size=size, **kwargs)


def title(value: str) -> ft.Text:
    return ft.Text(value, size=TITLE, weight=ft.FontWeight.BOLD)


def heading(value: str) -> ft.Text:
    return ft.Text(value, size=19, weight=ft.FontWeight.BOLD, color=ACCENT)


def error(message: str | None, ident: str = "error") -> ft.Control:
    """An invalid entry explained next to the field it concerns (nothing when there is none)."""
    if not message:
        return ft.Container(height=0)
    return tid(ident, ft.Text(message, size=SMALL, color=ERROR, weight=ft.FontWeight.W_500))


def button(label: str, on_click: Callable, ident: str | None = None, primary: bool = True,
           icon=None, disabled: bool = False) -> ft.Control:
    """A full-width button, 52 px tall."""
    control_type = ft.FilledButton if primary else ft.OutlinedButton
    control = control_type(content=ft.Text(label, size=TEXT, text_align=ft.TextAlign.CENTER), icon=icon,
                           on_click=on_click, height=TARGET, expand=True, disabled=disabled)
    row = ft.Row([control])
    return tid(ident, row) if ident else row


def card(controls: Sequence[ft.Control], ident: str | None = None, highlight: bool = False) -> ft.Control:
    box = ft.Container(
        content=ft.Column(list(controls), spacing=10),
        padding=14, border_radius=12,
        bgcolor=ft.Colors.with_opacity(0.10, ACCENT) if highlight else ft.Colors.with_opacity(0.06, ft.Colors.WHITE),
        border=ft.Border.all(1, ft.Colors.with_opacity(0.4, ACCENT)) if highlight else None,
    )
    return tid(ident, box) if ident else box


def dot(colour: str) -> ft.Control:
    return ft.Container(width=18, height=18, border_radius=9, bgcolor=GUILD_COLOURS.get(colour, ft.Colors.GREY))


def who(name: str, colour: str, size: int = TEXT) -> ft.Control:
    """A player is always shown by name and colour."""
    return ft.Row([dot(colour), ft.Text(name, size=size, weight=ft.FontWeight.W_500)], spacing=8, tight=True)


class Stepper:
    """A number entered with big − and + buttons. `on_change` keeps the value in the screen's draft:
    a tap redraws the screen from the draft (Flet sends only the new number)."""

    def __init__(self, ident: str, label: str | ft.Control, value: int, low: int, high: int,
                 on_change: Callable[[int], None]):
        self.value, self.low, self.high, self._on_change = value, low, high, on_change
        self.number = ft.Text(str(value), size=22, weight=ft.FontWeight.BOLD, width=44,
                              text_align=ft.TextAlign.CENTER)
        minus = tid(f"{ident}-minus", ft.IconButton(ft.Icons.REMOVE, on_click=lambda e: self.add(-1, e.page),
                                                    icon_size=26, width=TARGET, height=TARGET,
                                                    tooltip="−"))
        plus = tid(f"{ident}-plus", ft.IconButton(ft.Icons.ADD, on_click=lambda e: self.add(1, e.page),
                                                  icon_size=26, width=TARGET, height=TARGET, tooltip="+"))
        label_control = ft.Text(label, size=TEXT) if isinstance(label, str) else label
        self.control = ft.Row(
            [ft.Container(label_control, expand=True), minus, tid(f"{ident}-value", self.number), plus],
            vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=2)

    def add(self, delta: int, page: ft.Page) -> None:
        new = min(self.high, max(self.low, self.value + delta))
        if new != self.value:
            self.value = new
            self._on_change(new)
            page.data.render()  # page.data is the tab's Shell


def choice_chips(ident: str, options: Sequence[tuple[str, str | ft.Control]], selected: str | None,
                 on_select: Callable[[str], None]) -> ft.Control:
    """A set of big toggle buttons; exactly one is selected."""
    chips = []
    for value, label in options:
        content = ft.Text(label, size=TEXT) if isinstance(label, str) else label
        style = ft.FilledButton if value == selected else ft.OutlinedButton
        chips.append(tid(f"{ident}-{value}", style(content=content, height=TARGET,
                                                   on_click=lambda e, v=value: on_select(v))))
    return ft.Row(chips, wrap=True, spacing=8, run_spacing=8)


def reminder(message: str) -> ft.Control:
    """The rule groups forget, with a light bulb, under a step's text."""
    return tid("reminder", ft.Container(
        ft.Row([ft.Icon(ft.Icons.LIGHTBULB, color=ft.Colors.AMBER_300), ft.Container(text(message), expand=True)],
               vertical_alignment=ft.CrossAxisAlignment.START),
        padding=10, border_radius=10, bgcolor=ft.Colors.with_opacity(0.12, ft.Colors.AMBER)))
