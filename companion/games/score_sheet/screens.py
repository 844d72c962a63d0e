"""Any other game on a score sheet: the "Another game" form (the sheet and its players) and the sheet
itself.

The sheet on a phone, for up to 12 players and 12 categories: one column at a time (a category; on
a sheet per round, a category of one round), every player a row as tall as a finger with his number
in it, and each player's whole sheet in a short line under his name. Every total and place is in the
pinned header. Tap a player's cell, type the number on the keypad (or a quick chip), save it in the
bottom bar: the next empty cell is chosen, so a round of three players is "digits, Save" three
times."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from . import rules
from ...engine.model import Msg, N_
from ...ui.screen_contract import GameScreenHooks, ShellView
from ...ui.widgets import (ACCENT, EDGE, GUILD_COLOURS, SMALL, TARGET, TEXT, Keypad, Screen, act, bar_button, button, card,
                      choice_chips, dot, error, heading, text, tid)
from ...ui.widgets import title as title_

GAME = rules.ID


def category(shell: ShellView, key: str) -> str:
    """A category's name: the players' own, or "Points" on a sheet per round without categories."""
    sheet = shell.vm.game_session["config"]["sheet"]
    return shell.game_text("category.points") if key == rules.POINTS and not sheet["categories"] else key


def form_title(shell: ShellView, game_id: str) -> str:
    _ = shell.vm.t
    sheet = shell.draft.get("new", {}).get("sheet", {})
    return _("New game: {game}").format(game=sheet["name"]) if sheet.get("id") else _("Another game")


# ----------------------------------------------------------------------------------------------
# The "Another game" form: the sheet, then the players


def blank_form(sheet: dict | None = None) -> dict:
    """A new form: a blank sheet, or a saved one (from "Our sheets") to play again or change."""
    sheet = dict(sheet) if sheet else {"id": "", "name": "", "categories": [""], "per_round": False,
                                       "lowest": False, "tie_break": None}
    sheet["categories"] = list(sheet["categories"])
    return {"sheet": sheet, "count": 3, "players": [{"name": "", "colour": c} for c in rules.COLOURS]}


def new_game_form(shell: ShellView, game_id: str) -> Screen:
    """The "Another game" form: the sheet (its name, how it scores, its categories, who wins), then the
    players; the bottom bar starts the game."""
    _, vm = shell.vm.t, shell.vm
    form = shell.draft.setdefault("new", blank_form())
    sheet = form["sheet"]
    players = form["players"][:form["count"]]

    def update(**changes: object) -> None:
        sheet.update(changes)
        shell.render()

    controls: list[ft.Control] = [*_scoring_fields(shell, sheet, update), *_category_fields(shell, sheet),
                                  *_winner_fields(shell, sheet, update), *_player_fields(shell, form, players),
                                  error(vm.error_for("players"), "error-players"), shell.problem()]
    label = _("Start the game")
    return Screen(controls, bar_button(label, lambda e: _create(shell, form, players), "create", icon=ft.Icons.CHECK))


def _scoring_fields(shell: ShellView, sheet: dict[str, Any], update: Callable[..., None]) -> list[ft.Control]:
    """The game's name and whether it scores per category or per round."""
    _, vm = shell.vm.t, shell.vm
    return [
        tid("sheet-name", ft.Row([ft.TextField(
            label=_("Name of the game"), value=sheet["name"], text_size=TEXT, expand=True,
            error=vm.error_for("sheet.name"), on_change=lambda e: sheet.update(name=e.control.value))])),
        heading(_("Scoring")),
        choice_chips("sheet-rounds", [("no", _("A score per category")), ("yes", _("A score per round"))],
                     "yes" if sheet["per_round"] else "no", lambda v: update(per_round=v == "yes")),
        text(_("Each round, every category is scored again; without categories a round has one score.")
             if sheet["per_round"] else _("Each category is scored once, at the end of the game."), SMALL,
             color=ft.Colors.GREY_400),
        heading(_("Categories")),
    ]


def _category_fields(shell: ShellView, sheet: dict) -> list[ft.Control]:
    """A field per category, each with its remove button, and "Add a category" up to the limit."""
    _, vm = shell.vm.t, shell.vm

    def remove(i: int) -> None:
        if sheet["tie_break"] == sheet["categories"][i]:
            sheet["tie_break"] = None
        del sheet["categories"][i]
        shell.render()

    controls: list[ft.Control] = []
    for i, name in enumerate(sheet["categories"]):
        field = ft.TextField(label=_("Category {n}").format(n=i + 1), value=name, text_size=TEXT, expand=True,
                             error=vm.error_for(f"sheet.categories.{i}"),
                             on_change=lambda e, i=i: sheet["categories"].__setitem__(i, e.control.value))
        controls.append(tid(f"category-{i}", ft.Row([field, tid(f"category-remove-{i}", ft.IconButton(
            ft.Icons.DELETE_OUTLINE, tooltip=_("Remove"), width=TARGET, height=TARGET,
            on_click=lambda e, i=i: remove(i)))], vertical_alignment=ft.CrossAxisAlignment.START)))
    controls.append(error(vm.error_for("sheet.categories") if vm.problem and vm.problem.field == "sheet.categories"
                          else None, "error-categories"))
    if len(sheet["categories"]) < rules.MAX_CATEGORIES:
        controls.append(button(_("Add a category"), lambda e: (sheet["categories"].append(""), shell.render()),
                               "category-add", primary=False, icon=ft.Icons.ADD))
    return controls


def _winner_fields(shell: ShellView, sheet: dict[str, Any], update: Callable[..., None]) -> list[ft.Control]:
    """Highest or lowest total wins, and the tie-breaker among the named categories (a tie-breaker no
    longer named is dropped)."""
    _, vm = shell.vm.t, shell.vm
    named = [c.strip() for c in sheet["categories"] if c.strip()]
    if sheet["tie_break"] not in named:
        sheet["tie_break"] = None
    controls: list[ft.Control] = [
        heading(_("Who wins")),
        choice_chips("sheet-wins", [("high", _("Highest total")), ("low", _("Lowest total"))],
                     "low" if sheet["lowest"] else "high", lambda v: update(lowest=v == "low")),
    ]
    if named:
        controls += [
            text(_("Tie-breaker: among tied players, the category decides the same way as the totals."), SMALL),
            choice_chips("sheet-tie", [("-", _("none: they share the place")), *[(str(i), c) for i, c in
                                                                                   enumerate(named)]],
                         "-" if sheet["tie_break"] is None else str(named.index(sheet["tie_break"])),
                         lambda v: update(tie_break=None if v == "-" else named[int(v)])),
            error(vm.error_for("sheet.tie_break"), "error-tie"),
        ]
    return controls


def _player_fields(shell: ShellView, form: dict, players: list) -> list[ft.Control]:
    """The number of players, then each player's colour swatch and name."""
    _, vm = shell.vm.t, shell.vm
    controls: list[ft.Control] = [
        heading(_("Number of players")),
        choice_chips("count", [(str(n), str(n)) for n in range(1, rules.MAX_PLAYERS + 1)], str(form["count"]),
                     lambda v: (form.update(count=int(v)), shell.render())),
        heading(_("Players")),
        text(_("Tap a colour to change it."), SMALL, color=ft.Colors.GREY_400),
    ]
    for i, player in enumerate(players):
        controls += [tid(f"name-{i}", ft.Row([
            tid(f"colour-{i}", ft.IconButton(icon=_swatch(player["colour"]), width=TARGET, height=TARGET,
                                             tooltip=shell.game_text(f"colour.{player['colour']}"),
                                             on_click=lambda e, i=i: _next_colour(shell, form, i))),
            ft.TextField(label=_("Player {n}: name").format(n=i + 1), value=player["name"], text_size=TEXT,
                         expand=True, error=vm.error_for(f"players.{i}.name"),
                         on_change=lambda e, p=player: p.update(name=e.control.value))])),
            error(vm.error_for(f"players.{i}.colour"), f"error-colour-{i}")]
    return controls


def _swatch(colour: str) -> ft.Control:
    """A player's colour as a large round swatch (the button that changes it)."""
    return ft.Container(width=30, height=30, border_radius=15, bgcolor=GUILD_COLOURS.get(colour, ft.Colors.GREY),
                        border=ft.Border.all(2, ft.Colors.WHITE))


def _next_colour(shell: ShellView, form: dict, i: int) -> None:
    """The player's next colour that no other player of the form has."""
    taken = {p["colour"] for p in form["players"][:form["count"]]}
    current = rules.COLOURS.index(form["players"][i]["colour"])
    for step in range(1, len(rules.COLOURS)):
        colour = rules.COLOURS[(current + step) % len(rules.COLOURS)]
        if colour not in taken:
            form["players"][i]["colour"] = colour
            break
    shell.render()


def _create(shell: ShellView, form: dict, players: list) -> None:
    sheet = dict(form["sheet"], categories=[c for c in form["sheet"]["categories"] if c.strip()]
                 if form["sheet"]["per_round"] else list(form["sheet"]["categories"]))
    if shell.vm.new_sheet_game({"sheet": sheet, "start": 0, "players": [dict(p) for p in players]}):
        shell.draft.pop("new", None)  # the sheet already drawn keeps its cell in the same draft


# ----------------------------------------------------------------------------------------------
# The sheet


def round_screen(shell: ShellView) -> Screen:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    sheet = config["sheet"]
    keys = rules.categories(sheet)
    rounds = len(state["cells"][config["players"][0]["colour"]])
    cursor = _cursor(shell, keys, rounds)
    controls: list[ft.Control] = []
    if sheet["per_round"] and rounds > 1:
        controls.append(choice_chips("round", [(str(r), _("Round {n}").format(n=r)) for r in range(1, rounds + 1)],
                                     str(cursor["round"]), lambda v: _move(shell, round_=int(v))))
    if len(keys) > 1:
        controls.append(choice_chips("cat", [(str(i), category(shell, k)) for i, k in enumerate(keys)],
                                     str(keys.index(cursor["category"])), lambda v: _move(shell, key=keys[int(v)])))
    for p in config["players"]:
        colour = p["colour"]
        value = state["cells"][colour][cursor["round"] - 1].get(cursor["category"])
        chosen = colour == cursor["player"]
        shown = str(cursor["value"]).replace("-", "−") if chosen and _typing(cursor) else (
            "–" if value is None else str(value).replace("-", "−"))
        controls.append(tid(f"cell-{colour}", ft.Container(
            ft.Row([dot(colour),
                    ft.Container(ft.Column([ft.Text(p["name"], size=TEXT, weight=ft.FontWeight.W_500),
                                            ft.Text(_line(shell, state["cells"][colour], keys), size=SMALL,
                                                    color=ft.Colors.GREY_400)], spacing=0, tight=True), expand=True),
                    ft.Container(ft.Text(shown, size=22, weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.RIGHT,
                                         color=ACCENT if chosen else None), width=72,
                                 alignment=ft.Alignment.CENTER_RIGHT)],
                   vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=10),
            padding=ft.Padding.symmetric(vertical=6, horizontal=10), border_radius=10,
            border=ft.Border.all(2 if chosen else 1, ACCENT if chosen else EDGE),
            on_click=lambda e, c=colour: _move(shell, player=c))))
    name = shell.player_name(cursor["player"])
    value = state["cells"][cursor["player"]][cursor["round"] - 1].get(cursor["category"])
    controls.append(card([
        Keypad("cell-pad", _("{name}: {category}").format(name=name, category=category(shell, cursor["category"])),
               cursor, "value", -rules.CELL, rules.CELL, sign=True,
               quick=[("0", 0), ("+5", 5), ("+10", 10)]).control,
        shell.problem("value"),
        *([button(_("Clear this cell"), lambda e: _send(shell, cursor, None), "cell-clear", primary=False,
                  icon=ft.Icons.BACKSPACE_OUTLINED)] if value is not None else []),
    ], "cell-card"))
    complete = rules.missing(state, config) is None
    if sheet["per_round"] and complete:
        controls.append(act(vm, "finish", _("Final scoring"), lambda e: vm.dispatch("finish"), "finish", primary=False,
                            icon=ft.Icons.FLAG))
    controls += [shell.problem(), shell.rule_fold(f"{GAME}.step.{config['variant']}.{rules.STEPS[0].id}"), *shell.footer()]
    return Screen(controls, _primary(shell, cursor, complete))


def _line(shell: ShellView, rows: list[dict], keys: list[str]) -> str:
    """A player's whole sheet in one short line: each round's sum, or each category's number."""
    _ = shell.vm.t
    if shell.vm.game_session["config"]["sheet"]["per_round"]:
        return " · ".join(f"{r + 1}: {sum(cells.values()) if len(cells) == len(keys) else '…'}"
                          for r, cells in enumerate(rows) if cells or r == len(rows) - 1)
    return " · ".join(f"{category(shell, k)} {rows[0].get(k, '–')}" for k in keys)


def _cursor(shell: ShellView, keys: list[str], rounds: int) -> dict:
    """The cell being entered (kept in the draft): the one tapped, else the first empty one."""
    state, config = shell.vm.game_state, shell.vm.game_session["config"]
    cursor = shell.draft.get("cell")
    entries = shell.vm.game_session["version"]  # an undo (or another phone) changed the sheet: start afresh
    if cursor is None or cursor.get("sid") != shell.vm.game_session["id"] or cursor["round"] > rounds \
            or cursor["category"] not in keys or cursor["log"] != entries and not _typing(cursor):
        gap = rules.missing(state, config, range(rounds - 1, rounds)) or (config["players"][0]["colour"], rounds,
                                                                            keys[0])
        cursor = shell.draft["cell"] = {"sid": shell.vm.game_session["id"], "player": gap[0], "round": gap[1],
                                        "category": gap[2], "value": 0, "log": entries}
    return cursor


def _move(shell: ShellView, player: str | None = None, round_: int | None = None, key: str | None = None) -> None:
    cursor = shell.draft["cell"]
    cursor.update(player=player or cursor["player"], round=round_ or cursor["round"], category=key or
                  cursor["category"], value=0, log=shell.vm.game_session["version"])
    cursor.pop("value:typing", None)
    shell.vm.problem = None
    shell.render()


def _typing(cursor: dict) -> bool:
    """Whether a number was entered on the keypad for the cell (a digit or a quick chip)."""
    return "value:typing" in cursor


def _primary(shell: ShellView, cursor: dict, complete: bool) -> ft.Control:
    """Save the cell being typed; or, once the sheet (or its round) is complete, the next round or the
    final scoring."""
    _, vm = shell.vm.t, shell.vm
    sheet = vm.game_session["config"]["sheet"]
    if _typing(cursor):
        label = _("Save: {name}, {category} {value}").format(
            name=shell.player_name(cursor["player"]), category=category(shell, cursor["category"]),
            value=str(cursor["value"]).replace("-", "−"))
        return bar_button(label, lambda e: _send(shell, cursor, cursor["value"]), "cell-save", icon=ft.Icons.CHECK)
    rounds = len(vm.game_state["cells"][cursor["player"]])
    if sheet["per_round"] and rules.missing(vm.game_state, vm.game_session["config"],
                                            range(rounds - 1, rounds)) is None:
        return act(vm, "next_round", _("Round {n} is complete: next round").format(n=rounds), lambda e: _next(shell),
                   "next-round", icon=ft.Icons.ARROW_FORWARD, bar=True)
    if complete:
        return act(vm, "finish", _("Final scoring"), lambda e: vm.dispatch("finish"), "finish", icon=ft.Icons.FLAG,
                   bar=True)
    return bar_button(_("Type the number, then save it"), lambda e: vm.refuse(Msg(N_(
        "Type the number on the keypad first (or tap a quick value), then save it.")), "value"), "cell-save",
        muted=True)


def _send(shell: ShellView, cursor: dict, value: int | None) -> None:
    vm = shell.vm
    args = {"player": cursor["player"], "category": cursor["category"], "value": value}
    if vm.game_session["config"]["sheet"]["per_round"]:
        args["round"] = cursor["round"]
    if vm.dispatch("score", **args):
        shell.draft.pop("cell", None)  # the next empty cell is chosen when the screen is drawn
        shell.render()


def _next(shell: ShellView) -> None:
    if shell.vm.dispatch("next_round"):
        shell.draft.pop("cell", None)
        shell.render()


def scores_screen(shell: ShellView) -> list[ft.Control]:
    """The top bar's scores button: the whole sheet, every player's every cell, with the totals."""
    _, vm = shell.vm.t, shell.vm
    config = vm.game_session["config"]
    keys = rules.categories(config["sheet"])
    controls: list[ft.Control] = [title_(_("The whole sheet"))]
    for row in sorted(vm.game.result(vm.game_state, config)["players"], key=lambda r: r["place"]):
        cells = vm.game_state["cells"][row["id"]]
        lines: list[ft.Control] = [ft.Row([ft.Text(f"{row['place']}.", size=20, weight=ft.FontWeight.BOLD),
                         ft.Container(shell.track_label(row["id"]), expand=True),
                         ft.Text(str(row["total"]), size=20, weight=ft.FontWeight.BOLD)])]
        for r, round_cells in enumerate(cells):
            parts = " · ".join(f"{category(shell, k)} {round_cells.get(k, '–')}" for k in keys)
            lines.append(text(_("Round {n}: {cells}").format(n=r + 1, cells=parts) if config["sheet"]["per_round"]
                              else parts, SMALL))
        controls.append(card(lines, f"sheet-{row['id']}"))
    return controls


#: What the shell asks of this game's screens (companion/ui/screen_contract.py).
SCREENS = GameScreenHooks(
    new_game_form=new_game_form,
    round_screen=round_screen,
    category=category,
    form_title=form_title,
    scores_screen=scores_screen,
)
