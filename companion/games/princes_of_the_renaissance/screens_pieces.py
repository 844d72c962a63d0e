"""Princes of the Renaissance screens: the small pieces the screens share (player and family labels,
the cities' status, lots and amounts, the last auction's result)."""
from __future__ import annotations

from collections.abc import Callable, Sequence

import flet as ft

from . import rules
from ...ui.screen_contract import ShellView
from ...ui.widgets import TEXT, choice_chips, dot, tid, who


GAME = rules.ID


ROMAN = {1: "I", 2: "II", 3: "III"}


def player_label(shell: ShellView, family: str) -> str:
    """A player with his family, so families are told apart everywhere: "Anna (Gonzaga)"."""
    return "{name} ({family})".format(name=shell.player_name(family), family=shell.game_text(f"family.{family}"))


def track_label(shell: ShellView, family: str) -> ft.Control:
    return who(player_label(shell, family), family)


def start_label(shell: ShellView) -> str:
    _ = shell.vm.t
    return _("Start decade {decade}").format(decade=ROMAN[1])


def _name(shell: ShellView, family: str | None) -> str:
    _ = shell.vm.t
    return shell.player_name(family) if family else _("neutral")


def _who(shell: ShellView, family: str, size: int = TEXT) -> ft.Control:
    return who(player_label(shell, family), family, size)


def _families(shell: ShellView) -> list[str]:
    return [p["colour"] for p in shell.vm.game_session["config"]["players"]]


def _player_chips(shell: ShellView, ident: str, families: Sequence[str], on_select: Callable[[str], object],
                  selected: str | None = None) -> ft.Control:
    return choice_chips(ident, [(f, ft.Row([dot(f), ft.Text(shell.player_name(f), size=TEXT)], tight=True))
                                for f in families], selected, on_select)


def _holdings(shell: ShellView, family: str) -> str:
    _ = shell.vm.t
    p = shell.vm.game_state["players"][family]
    return _("Gold {gold} · influence {influence} · treachery cards {cards}/{limit}").format(
        gold=p["gold"], influence=p["influence"], cards=p["treachery"],
        limit=rules.hand_limit(shell.vm.game_state, family))


def _parts(shell: ShellView, parts: Sequence[tuple[str, object]]) -> str:
    """`Pike 0 + Swiss Mercenaries +1` from a strength's parts."""
    return " + ".join(f"{shell.game_text(key)} {value}" for key, value in parts) or "0"


def _cities(shell: ShellView) -> ft.Control:
    _ = shell.vm.t
    ngettext = shell.vm.t.n
    boxes: list[ft.Control] = []
    for city in rules.CITIES:
        c = shell.vm.game_state["cities"][city]
        lines = [ft.Text(shell.game_text(f"city.{city}"), size=13, no_wrap=True),
                 tid(f"status-{city}", ft.Text(str(c["status"]), size=22, weight=ft.FontWeight.BOLD))]
        if c["artists"]:
            lines.append(ft.Text(ngettext("{n} artist", "{n} artists", c["artists"]).format(n=c["artists"]),
                                 size=12))
        boxes.append(ft.Container(ft.Column(lines, spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                                  width=62, padding=4, border_radius=8,
                                  bgcolor=ft.Colors.with_opacity(0.06, ft.Colors.WHITE)))
    return tid("cities", ft.Row(boxes, wrap=True, spacing=4, run_spacing=4))


def _lot_name(shell: ShellView, lot: dict) -> str:
    _ = shell.vm.t
    if lot["kind"] == "city":
        return "{city}: {tile}".format(city=shell.game_text(f"city.{lot['city']}"),
                                       tile=shell.game_text(f"tile.{lot['tile']}"))
    if lot["kind"] == "pope":
        return shell.game_text("pope")
    if lot["kind"] == "event":
        ngettext = shell.vm.t.n
        return ngettext("{event} ({n} VP)", "{event} ({n} VP)", lot["vp"]).format(
            event=shell.game_text(f"event.{lot['event']}"), n=lot["vp"])
    return _("Condottiere of {city}").format(city=shell.game_text(f"city.{lot['city']}"))


def _money(shell: ShellView, amount: int, currency: str) -> str:
    ngettext = shell.vm.t.n
    if currency == "gold":
        return ngettext("{n} gold", "{n} gold", amount).format(n=amount)
    return ngettext("{n} influence", "{n} influence", amount).format(n=amount)


def _auction_result(shell: ShellView, last: dict) -> str:
    _ = shell.vm.t
    if not last["winner"]:
        return _("{lot}: nobody bid; it stays in play and may be auctioned again.").format(
            lot=_lot_name(shell, last["lot"]))
    line = _("{name} wins {lot} with a bid of {bid} and pays {paid}.").format(
        name=shell.player_name(last["winner"]), lot=_lot_name(shell, last["lot"]), bid=last["bid"],
        paid=_money(shell, last["paid"], last["currency"]))
    return line
