"""Shared widgets: big touch targets (at least 48 px), readable text, stable test ids, and the ways
people enter numbers at a table (chips for small ranges, steppers, a keypad)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, MutableMapping, MutableSequence, Sequence

import flet as ft

from ..engine.model import Msg, N_

if TYPE_CHECKING:
    from .screen_contract import ShellView
    from .viewmodel import ViewModel

TEXT = 17
SMALL = 15
TITLE = 24
TARGET = 52  # px: every tappable thing is at least this tall
ERROR = ft.Colors.RED_200
ACCENT = ft.Colors.AMBER_300
HEADER = "#121212"   # the pinned bands, a shade above the true-black page
EDGE = ft.Colors.with_opacity(0.25, ft.Colors.WHITE)

#: Each player's colour on screen, by the colour id a game gives its players (Princes: its families,
#: each told apart from the others).
GUILD_COLOURS = {"blue": ft.Colors.BLUE_400, "yellow": ft.Colors.YELLOW_600, "green": ft.Colors.GREEN_500,
                 "red": ft.Colors.RED_400, "grey": ft.Colors.GREY_500, "purple": ft.Colors.PURPLE_300,
                 "black": ft.Colors.BLUE_GREY_700, "ivory": ft.Colors.AMBER_50,
                 "baglioni": ft.Colors.RED_400, "bentivogli": ft.Colors.BLUE_400, "malatesta": ft.Colors.GREEN_500,
                 "montefeltro": ft.Colors.YELLOW_600, "gonzaga": ft.Colors.PURPLE_300, "d_este": ft.Colors.ORANGE_400,
                 "orange": ft.Colors.ORANGE_400, "pink": ft.Colors.PINK_200, "teal": ft.Colors.TEAL_400,
                 "brown": ft.Colors.BROWN_400, "cyan": ft.Colors.CYAN_300, "lime": ft.Colors.LIME_400}


#: A Flet event handler: called with the event (or with nothing); what it returns is not used.
Handler = Callable[..., object]


@dataclass
class Screen:
    """What a screen function returns: the part that scrolls, and the next action for the pinned
    bottom bar (beside Undo)."""

    body: list[ft.Control]
    primary: ft.Control | None = None


def tid(identifier: str, control: ft.Control) -> ft.Control:
    """A stable id for tests: appears in the page as [flt-semantics-identifier=...].

    It is also the control's key (ids are unique on a screen; tests/test_screens.py checks): a redraw
    that puts another id in the same place makes a new node, as browsers do not rename one."""
    return ft.Semantics(identifier=identifier, content=control, key=identifier)


def text(value: str, size: int = TEXT, **kwargs: Any) -> ft.Text:
    return ft.Text(value, size=size, **kwargs)


def title(value: str) -> ft.Text:
    return ft.Text(value, size=TITLE, weight=ft.FontWeight.BOLD)


def heading(value: str) -> ft.Text:
    return ft.Text(value, size=19, weight=ft.FontWeight.BOLD, color=ACCENT)


#: What an absent message or an empty slot draws: nothing (cards and bodies leave it out, so it
#: adds no gap either).
NOTHING = "nothing"


def error(message: str | None, ident: str = "error") -> ft.Control:
    """An invalid entry explained next to the field it concerns (nothing when there is none)."""
    if not message:
        return ft.Container(height=0, data=NOTHING)
    return tid(ident, ft.Text(message, size=SMALL, color=ERROR, weight=ft.FontWeight.W_500))


#: A control the rules do not allow now: drawn greyed (but a tap reaches it and says why).
MUTED = ft.Colors.with_opacity(0.38, ft.Colors.WHITE)
MUTED_FILL = ft.Colors.with_opacity(0.12, ft.Colors.WHITE)


def _muted_style(style: ft.ButtonStyle | None = None) -> ft.ButtonStyle:
    style = style or ft.ButtonStyle()
    style.color, style.bgcolor, style.icon_color = MUTED, MUTED_FILL, MUTED
    return style


def button(label: str, on_click: Handler, ident: str | None = None, primary: bool = True,
           icon: ft.IconData | None = None, disabled: bool = False, muted: bool = False) -> ft.Control:
    """A full-width button, 52 px tall (`muted`: greyed, for an action the rules refuse now)."""
    control_type = ft.FilledButton if primary else ft.OutlinedButton
    control = control_type(content=ft.Text(label, size=TEXT, text_align=ft.TextAlign.CENTER), icon=icon,
                           on_click=on_click, height=TARGET, expand=True, disabled=disabled,
                           style=_muted_style() if muted else None)
    row = ft.Row([control])
    return tid(ident, row) if ident else row


#: The height of a button of the pinned bottom bar: the same on every screen, whatever its label says.
BAR_BUTTON = 52


#: About what two lines of a half-width bar button hold at 360 px (14 px type, an icon beside it).
HALF_BAR = 28


def shortened(label: str, most: int) -> str:
    """`label` cut after its last whole word that fits in `most` characters, with "…" (never mid-word)."""
    if len(label) <= most:
        return label
    cut = label[:most].rsplit(" ", 1)[0].rstrip(",;:·–- ")
    return f"{cut}…"


def bar_button(label: str, on_click: Handler, ident: str, primary: bool = True, icon: ft.IconData | None = None,
               disabled: bool = False, muted: bool = False, most: int | None = None) -> ft.Control:
    """A button of the pinned bottom bar: always BAR_BUTTON tall, its label on at most two lines: a
    label longer than `most` characters is cut after a whole word (Flutter's own "…" cuts mid-word);
    a screen reader reads it whole, and Undo's is in the game's history."""
    control_type = ft.FilledButton if primary else ft.OutlinedButton
    style = ft.ButtonStyle(padding=ft.Padding.symmetric(vertical=4, horizontal=10))
    shown = shortened(label, most) if most else label
    return tid(ident, control_type(
        content=ft.Text(shown, size=14, text_align=ft.TextAlign.CENTER, weight=ft.FontWeight.W_500, max_lines=2,
                        overflow=ft.TextOverflow.ELLIPSIS, semantics_label=label if shown != label else None),
        icon=icon, height=BAR_BUTTON, on_click=on_click, disabled=disabled,
        style=_muted_style(style) if muted else style))


@dataclass(frozen=True)
class Act:
    """What a control drawn from the game's table of allowed actions stands for (its `data`): the
    action type, the player it is made for, and the reason it is refused now (None: allowed).
    tests/test_moves.py reads it to check that every screen agrees with the table."""

    kind: str
    player: str | None
    refusal: str | None


def act(vm: ViewModel, kind: str, label: str, on_click: Handler, ident: str, player: str | None = None,
        primary: bool = True, icon: ft.IconData | None = None, bar: bool = False) -> ft.Control:
    """A button for one kind of action (made for `player`), drawn from the game's table of allowed
    actions (ViewModel.rule): where the rules, or this phone's owner, do not allow it now, it is greyed
    and a tap says why, next to it and in the pinned bar; it is never a silent dead button. `bar`: a
    button of the pinned bottom bar."""
    why = vm.rule(kind, player).refusal
    refusal = vm.msg(why) if why is not None else None
    handler = on_click if why is None else (lambda e: vm.refuse(why, ident))
    make = bar_button if bar else button
    control = make(label, handler, ident, primary=primary, icon=icon, muted=refusal is not None)
    control.data = Act(kind, player, refusal)
    if bar:
        return control
    reason = vm.error_for(ident)
    return ft.Column([control, error(reason, f"error-{ident}")], spacing=4, data=control.data) if reason else control


def create_button(shell: ShellView, on_click: Handler) -> ft.Control:
    """Every new-game form's last step, in the bottom bar."""
    _ = shell.vm.t
    return bar_button(_("Start the setup"), on_click, "create", icon=ft.Icons.CHECK)


def card(controls: Sequence[ft.Control], ident: str | None = None, highlight: bool = False,
         folded: bool = False) -> ft.Control:
    """A card; `folded`: a fold's card showing only its head (a 52 px row), without the space above and
    below it, so it takes no more height than the tap needs."""
    box = ft.Container(
        content=ft.Column(drawn(controls), spacing=10),
        padding=ft.Padding.symmetric(horizontal=14, vertical=0) if folded else 14, border_radius=12,
        bgcolor=ft.Colors.with_opacity(0.10, ACCENT) if highlight else ft.Colors.with_opacity(0.06, ft.Colors.WHITE),
        border=ft.Border.all(1, ft.Colors.with_opacity(0.4, ACCENT)) if highlight else None,
    )
    return tid(ident, box) if ident else box


def drawn(controls: Sequence[ft.Control]) -> list[ft.Control]:
    """The controls that draw something (empty messages left out)."""
    return [c for c in controls if c.data != NOTHING]


def dot(colour: str) -> ft.Control:
    """A player's colour (a dark one ringed, so it shows on the black page)."""
    return ft.Container(width=18, height=18, border_radius=9, bgcolor=GUILD_COLOURS.get(colour, ft.Colors.GREY),
                        border=ft.Border.all(1, ft.Colors.GREY_400) if colour == "black" else None)


def who(name: str, colour: str, size: int = TEXT) -> ft.Control:
    """A player is always shown by name and colour."""
    return ft.Row([dot(colour), ft.Text(name, size=size, weight=ft.FontWeight.W_500)], spacing=8, tight=True)


class Stepper:
    """A number entered with big − and + buttons (and −5, +5 for a wide range). `on_change` keeps the
    value in the screen's draft: a tap redraws the screen from the draft (Flet sends only the new
    number). A button at the limit is greyed, so the limit shows before anyone taps, and a tap on it
    says why (in the pinned bar): never a silent dead button."""

    def __init__(self, ident: str, label: str | ft.Control, value: int, low: int, high: int,
                 on_change: Callable[[int], object], big: int | None = None):
        self.value, self.low, self.high, self._on_change = value, low, high, on_change
        big = big if big is not None else (5 if high - low > 10 else 0)
        self.number = ft.Text(str(value), size=22, weight=ft.FontWeight.BOLD, width=44,
                              text_align=ft.TextAlign.CENTER)

        def step(delta: int, name: str) -> ft.Control:
            at_limit = self.value <= low if delta < 0 else self.value >= high
            face = (ft.Icon(ft.Icons.REMOVE if delta < 0 else ft.Icons.ADD, size=26) if abs(delta) == 1
                    else ft.Text(f"{delta:+d}".replace("-", "−"), size=SMALL, weight=ft.FontWeight.BOLD))
            return tid(f"{ident}-{name}", ft.IconButton(
                icon=face, width=TARGET, height=TARGET, icon_color=MUTED if at_limit else None,
                tooltip=f"{delta:+d}".replace("-", "−"),
                on_click=(lambda e: self.limit(delta, ident, e.page)) if at_limit else lambda e: self.add(delta, e.page)))

        label_control = ft.Text(label, size=TEXT) if isinstance(label, str) else label
        buttons = [step(-1, "minus"), tid(f"{ident}-value", self.number), step(1, "plus")]
        self.control: ft.Row | ft.Column
        if big:
            buttons = [step(-big, "minus5"), *buttons, step(big, "plus5")]
            self.control = ft.Column([label_control, ft.Row(buttons, spacing=2, alignment=ft.MainAxisAlignment.END)],
                                     spacing=0)
        else:
            self.control = ft.Row([ft.Container(label_control, expand=True), *buttons],
                                  vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=2)

    def limit(self, delta: int, ident: str, page: ft.Page) -> None:
        """A tap on a button at its limit: say what the limit is."""
        limit = Msg(N_("{n} is the least this can be."), {"n": self.low}) if delta < 0 else \
            Msg(N_("{n} is the most this can be."), {"n": self.high})
        page.data.vm.refuse(limit, ident)  # page.data is the tab's Shell

    def add(self, delta: int, page: ft.Page) -> None:
        new = min(self.high, max(self.low, self.value + delta))
        if new != self.value:
            self.value = new
            self._on_change(new)
            page.data.render()  # page.data is the tab's Shell


def setter(target: MutableMapping[Any, Any] | MutableSequence[Any], key: Any, then: Callable[[], object] | None = None,
          convert: Callable[[Any], object] | None = None) -> Callable[[Any], None]:
    """A control's handler that stores the value it is given at `target[key]` (through `convert`, if
    given), then calls `then` (the shell's draw, where the screen shows the value elsewhere too)."""
    def handler(value: Any) -> None:
        target[key] = convert(value) if convert else value
        if then:
            then()
    return handler


def pick(ident: str, label: str | ft.Control | None, value: int | None, low: int, high: int,
         on_pick: Callable[[int], object], extra: Sequence[ft.Control] = ()) -> ft.Row | ft.Column:
    """A small range (a die, a count, a city's quarters) as one chip per number: one tap each."""
    chips = [tid(f"{ident}-{n}", (ft.FilledButton if n == value else ft.OutlinedButton)(
        content=ft.Text(str(n), size=TEXT, weight=ft.FontWeight.BOLD), width=48, height=TARGET,
        style=ft.ButtonStyle(padding=0), on_click=lambda e, n=n: _picked(e, on_pick, n)))
        for n in range(low, high + 1)]
    row = ft.Row([*chips, *extra], wrap=True, spacing=4, run_spacing=6)
    if label is None:
        return row
    return ft.Column([ft.Text(label, size=TEXT) if isinstance(label, str) else label, row], spacing=4)


def count(ident: str, label: str | ft.Control | None, value: int | None, low: int, high: int,
          on_pick: Callable[[int], object], chips: int = 10) -> ft.Control:
    """A count that is usually small: chips up to `chips` (one tap each); a larger value goes on
    with a stepper ("more" reveals it), up to what the box allows."""
    if high <= chips or value is None or value <= chips:
        if high <= chips:
            return pick(ident, label, value, low, high, on_pick)
        more = tid(f"{ident}-more", ft.OutlinedButton(content=ft.Text(f"{chips + 1}+", size=TEXT), height=TARGET,
                                                      on_click=lambda e: _picked(e, on_pick, chips + 1)))
        return pick(ident, label, value, low, chips, on_pick, [more])
    return Stepper(ident, label or "", value, chips + 1, high, on_pick).control


def _picked(e: ft.Event[Any], on_pick: Callable[[int], object], n: int) -> None:
    on_pick(n)
    e.page.data.render()


class Keypad:
    """A large numeric keypad for prices, bids and corrections: the number so far in big digits,
    then 1–9, 0 and ⌫ (and ± where a correction may go down). The first digit replaces the proposed
    value; `quick` chips (the minimum bid, +1, +5 ...) set a value in one tap. `draft[key]` holds
    the value, so the form's own button sends it."""

    def __init__(self, ident: str, label: str, draft: dict[str, Any], key: str, low: int, high: int,
                 quick: Sequence[tuple[str, int]] = (), sign: bool = False):
        self.ident, self.draft, self.key, self.low, self.high = ident, draft, key, low, high
        value = draft.get(key, low)
        typing = draft.get(f"{key}:typing", False)
        shown = ft.Text(str(value).replace("-", "−"), size=30, weight=ft.FontWeight.BOLD,
                        text_align=ft.TextAlign.RIGHT)
        rows: list[ft.Control] = [ft.Row([ft.Container(ft.Text(label, size=TEXT), expand=True),
                                          tid(f"{ident}-value", shown)],
                                         vertical_alignment=ft.CrossAxisAlignment.CENTER)]
        if quick:
            rows.append(ft.Row([tid(f"{ident}-quick-{i}", ft.OutlinedButton(
                content=ft.Text(text_, size=TEXT), height=TARGET, disabled=not low <= n <= high,
                on_click=lambda e, n=n: self._set(e, n, False))) for i, (text_, n) in enumerate(quick)],
                wrap=True, spacing=6, run_spacing=6))

        def key_button(face: str | ft.Control, name: str, handler: Handler, disabled: bool = False) -> ft.Control:
            return ft.Container(tid(f"{ident}-{name}", ft.OutlinedButton(
                content=face if isinstance(face, ft.Control) else ft.Text(face, size=22, weight=ft.FontWeight.BOLD),
                height=TARGET, expand=True, disabled=disabled, on_click=handler)), expand=True)

        def digit(d: int) -> ft.Control:
            new = self._typed(value, typing, d)
            return key_button(str(d), f"key-{d}", lambda e: self._set(e, new, True), not self._fits(new))

        grid = [[digit(d) for d in (1, 2, 3)], [digit(d) for d in (4, 5, 6)], [digit(d) for d in (7, 8, 9)]]
        last = [key_button("±" if sign else "", "sign", lambda e: self._set(e, -value, True),
                           disabled=not sign or not self._fits(-value)) if sign else ft.Container(expand=True),
                digit(0),
                key_button(ft.Icon(ft.Icons.BACKSPACE_OUTLINED, size=24), "back",  # the fonts have no ⌫
                           lambda e: self._set(e, self._erased(value), True), disabled=value == 0)]
        grid.append(last)
        rows += [ft.Row(r, spacing=6) for r in grid]
        self.control = tid(ident, ft.Column(rows, spacing=6))

    def _typed(self, value: int, typing: bool, d: int) -> int:
        if not typing:
            return d if value >= 0 else -d
        return value * 10 + (d if value >= 0 else -d)

    @staticmethod
    def _erased(value: int) -> int:
        return int(value / 10)

    def _fits(self, n: int) -> bool:
        """A digit may make a number below the minimum (on the way to 14 comes 1), never above the
        maximum; the form's own check says what is too low."""
        return min(self.low, 0) <= n <= self.high

    def _set(self, e: ft.Event[Any], n: int, typing: bool) -> None:
        self.draft[self.key] = n
        self.draft[f"{self.key}:typing"] = typing
        e.page.data.render()


def choice_chips(ident: str, options: Sequence[tuple[str, str | ft.Control]], selected: str | None,
                 on_select: Callable[[str], object]) -> ft.Row:
    """A set of big toggle buttons; exactly one is selected."""
    chips: list[ft.Control] = []
    for value, label in options:
        content = ft.Text(label, size=TEXT) if isinstance(label, str) else label
        style = ft.FilledButton if value == selected else ft.OutlinedButton
        chips.append(tid(f"{ident}-{value}", style(content=content, height=TARGET,
                                                   style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=16)),
                                                   on_click=lambda e, v=value: on_select(v))))
    return ft.Row(chips, wrap=True, spacing=8, run_spacing=8)


#: The most lines a message shows in its slot above the bar (the whole text is its tooltip and label).
MESSAGE_LINES = 3
#: The room the body leaves at its foot, so the message's slot never hides the body's last control.
MESSAGE_ROOM = 110


def banner(message: str, ident: str = "banner", problem: bool = True, on_close: Handler | None = None) -> ft.Control:
    """A refusal's reason (or a notice) where the eye is: in its slot just above the pinned bottom bar,
    at most MESSAGE_LINES lines (a longer one ends in "…"; a long press shows it whole, and a screen
    reader reads it whole); `on_close`: a × puts it away."""
    colour = ft.Colors.RED_300 if problem else ACCENT
    row: list[ft.Control] = [
        ft.Icon(ft.Icons.ERROR_OUTLINE if problem else ft.Icons.INFO_OUTLINE, color=colour),
        ft.Container(ft.Text(message, size=SMALL, weight=ft.FontWeight.W_500, max_lines=MESSAGE_LINES,
                             overflow=ft.TextOverflow.ELLIPSIS), expand=True, tooltip=message)]
    if on_close:
        row.append(tid(f"{ident}-close", ft.IconButton(ft.Icons.CLOSE, icon_size=20, width=TARGET, height=TARGET,
                                                       on_click=lambda e: on_close())))
    return tid(ident, ft.Container(
        ft.Row(row, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        padding=ft.Padding.only(left=10, right=2, top=2, bottom=2), border_radius=10,
        bgcolor=ft.Colors.with_opacity(0.18, colour), border=ft.Border.all(1, colour)))


def reminder(message: str) -> ft.Control:
    """The rule groups forget, with a light bulb, under a step's title."""
    return tid("reminder", ft.Container(
        ft.Row([ft.Icon(ft.Icons.LIGHTBULB, color=ft.Colors.AMBER_300), ft.Container(text(message), expand=True)],
               vertical_alignment=ft.CrossAxisAlignment.START),
        padding=10, border_radius=10, bgcolor=ft.Colors.with_opacity(0.12, ft.Colors.AMBER)))
