"""Carcassonne screens: the new-game form, the turn guide with feature scoring, meeples and the gift
deck (Road Sweeper and Cash Out calculators), and the final tally one category at a time."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from ...engine.model import Msg, N_, Rule
from . import rules
from ...ui.screen_contract import GameScreenHooks, ShellView
from ...ui.widgets import (MUTED, MUTED_FILL, SMALL, TARGET, TEXT, Act, Screen, act, card, choice_chips, count,
                      create_button, error, heading, pick, text, tid, who, setter)

GAME = rules.ID

if TYPE_CHECKING:
    from ...ui.viewmodel import ViewModel


def category(shell: ShellView, key: str) -> str:
    _ = shell.vm.t
    return {"track": _("Score track"), "roads": _("Unfinished roads"), "cities": _("Unfinished cities"),
            "monasteries": _("Unfinished monasteries"), "fields": _("Fields"),
            "gifts": _("Unopened gifts")}.get(key, key)


def new_game_form(shell: ShellView, game_id: str) -> Screen:
    _ = shell.vm.t
    form = shell.draft.setdefault("new", {"count": 3, "start": 0, "gifts": True,
                                          "players": [{"name": "", "colour": c} for c in rules.COLOURS]})
    players = form["players"][:form["count"]]

    def update(**changes: object) -> None:
        form.update(changes)
        shell.render()

    return Screen([
        heading(_("Number of players")),
        choice_chips("count", [(str(n), str(n)) for n in range(2, 6)], str(form["count"]),
                     lambda v: update(count=int(v), start=min(form["start"], int(v) - 1))),
        heading(_("The Gifts")),
        choice_chips("gifts", [("yes", _("With The Gifts")), ("no", _("Base game only"))],
                     "yes" if form["gifts"] else "no", lambda v: update(gifts=v == "yes")),
        *shell.seat_fields(form, players, rules.COLOURS, lambda c: shell.game_text(f"colour.{c}"),
                           _("Who starts? (The rulebook: the youngest player.)")),
        shell.problem(),
    ], create_button(shell, lambda e: _create(shell, game_id, form, players)))


def _create(shell: ShellView, game_id: str, form: dict, players: list) -> None:
    config = {"start": form["start"], "gifts": form["gifts"], "players": [dict(p) for p in players]}
    if shell.vm.new_game(game_id, config):
        shell.draft = {}


# ----------------------------------------------------------------------------------------------
# The turn


def round_screen(shell: ShellView) -> Screen:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    steps = rules.steps(config)
    current = state["step"]
    rule = vm.rule("goto_step")
    refusal = vm.msg(rule.refusal) if rule.refusal is not None else None
    controls: list[ft.Control] = [
        shell.kept("steps", (tuple(s.id for s in steps), current, refusal), lambda: ft.Row([
            _step_chip(vm, i, s.id, s.id == current, rule) for i, s in enumerate(steps)], spacing=4), acts=True),
        shell.problem("steps"),
        shell.problem(),
    ]
    helper, primary = score_helper(shell)
    controls += helper + meeple_helper(shell)
    if config["gifts"]:
        controls += gift_helper(shell)
    end = vm.rule("end_game")
    controls += [shell.rule_fold(f"{GAME}.step.standard.{current}"),
                 shell.kept("end-game", (vm.msg(end.refusal) if end.refusal else None, vm.error_for("end-game")),
                            lambda: act(vm, "end_game", _("The last tile is placed: final tally"),
                                        lambda e: vm.dispatch("end_game"), "end-game", primary=False,
                                        icon=ft.Icons.FLAG), acts=True),
                 *shell.footer()]
    return Screen(controls, primary or act(vm, "next_turn", _("Next player"), lambda e: vm.dispatch("next_turn"),
                                           "next-turn", icon=ft.Icons.ARROW_FORWARD, bar=True))


def _step_chip(vm: ViewModel, i: int, step: str, current: bool, rule: Rule) -> ft.Control:
    """One step of the turn as a numbered chip (the current one filled), drawn from the table: where
    the rules or this phone's owner do not let it move the turn, it is greyed and a tap says why."""
    why = rule.refusal
    refusal = vm.msg(why) if why is not None else None
    style = ft.ButtonStyle(padding=0)
    if refusal is not None:
        style.color, style.bgcolor = MUTED, MUTED_FILL
    button = (ft.FilledButton if current else ft.OutlinedButton)(
        content=ft.Text(str(i + 1), size=TEXT), width=48, height=TARGET, style=style,
        on_click=(lambda e: vm.dispatch("goto_step", step=step)) if why is None else
        (lambda e: vm.refuse(why, "steps")))
    button.data = Act("goto_step", None, refusal)
    return tid(f"step-{step}", button)


def _on_board(shell: ShellView) -> dict[str, int]:
    return shell.vm.game_state["meeples"]


def _meeple_picks(shell: ShellView, draft: dict, ident: str, available: dict[str, int]) -> list[ft.Control]:
    """Meeples of each player in the feature, as chips: only players with meeples out can have any
    there, and no more than they have out."""
    _ = shell.vm.t
    players = [p for p in shell.vm.game_session["config"]["players"] if available.get(p["colour"], 0) > 0]
    if not players:
        return [text(_("Nobody has a meeple on the board."), SMALL)]
    rows: list[ft.Control] = [text(_("Meeples in it"), SMALL)]

    def toggle(colour: str) -> None:
        draft["meeples"][colour] = 0 if draft["meeples"].get(colour, 0) else 1
        shell.render()

    # a player with one meeple out has it in the feature or not: one chip each, side by side, that a
    # tap fills or empties
    single = [p for p in players if available[p["colour"]] == 1]
    if single:
        rows.append(ft.Row([tid(f"{ident}-{p['colour']}", (
            ft.FilledButton if draft["meeples"].get(p["colour"], 0) else ft.OutlinedButton)(
            content=who(p["name"], p["colour"]), height=TARGET,
            style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=14)),
            on_click=lambda e, c=p["colour"]: toggle(c))) for p in single], wrap=True, spacing=8, run_spacing=8))
    for p in players:
        if available[p["colour"]] > 1:       # how many of them: the name and its chips on one line
            chips = pick(f"{ident}-{p['colour']}", None, draft["meeples"].get(p["colour"], 0), 0,
                         available[p["colour"]], setter(draft["meeples"], p["colour"]))
            rows.append(ft.Row([ft.Container(who(p["name"], p["colour"]), width=96), *chips.controls], wrap=True,
                               spacing=4, run_spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    rows += [shell.problem(f"meeples.{p['colour']}") for p in players]
    return rows


def _feature_form(shell: ShellView, draft: dict[str, Any], ident: str, kinds: Sequence[str], available: dict[str, int],
                  likely: str | None = None) -> list[ft.Control]:
    """Type, tiles, pennants (cities) or completed cities (fields), meeples per player. `likely`: the
    player whose meeple most likely stands in the feature (the one on turn, who completed it); when
    that player has a meeple out, the form starts with one of theirs in it (a chip tap changes it)."""
    _ = shell.vm.t

    def choose(kind: str) -> None:
        draft.update(_new_feature(kind))  # nothing of another type's entry carries over
        if likely and available.get(likely, 0) > 0:
            draft["meeples"][likely] = 1
        shell.render()

    rows: list[ft.Control] = []
    if len(kinds) > 1:
        rows.append(choice_chips(f"{ident}-type", [(k, shell.game_text(f"feature.{k}")) for k in kinds],
                                 draft["type"], choose))
    kind = draft["type"]
    if kind == "field":
        rows.append(count(f"{ident}-cities", _("Completed cities next to this field"), draft["cities"], 0,
                          rules.LAND_TILES, lambda v: draft.update(cities=v)))
    elif kind == "monastery" and ident == "f":
        rows.append(text(_("A completed monastery: itself and the 8 tiles around it, 9 points."), SMALL))
    elif kind:
        high = rules.MONASTERY_AREA - 1 if kind == "monastery" else rules.LAND_TILES  # 9: complete
        low = rules.MIN_COMPLETE if ident == "f" else 1                               # completed ones
        label = _("Tiles in its 3×3 (itself included)") if kind == "monastery" else _("Tiles")
        rows.append(count(f"{ident}-tiles", label, draft["tiles"], low, high, lambda v: draft.update(tiles=v)))
        if kind == "city":
            rows.append(_pennants(shell, draft, ident))
    rows += [shell.problem("tiles"), shell.problem("pennants"), shell.problem("cities")]
    return rows + (_meeple_picks(shell, draft, f"{ident}-m", available) if kind else [])


#: Pennants offered as chips, 0 to 3 beside the label on one line; "4+" goes on with a stepper.
PENNANT_CHIPS = 3


def _pennants(shell: ShellView, draft: dict, ident: str) -> ft.Control:
    _ = shell.vm.t
    entry = count(f"{ident}-pennants", None if (draft["pennants"] or 0) <= PENNANT_CHIPS else _("Pennants"),
                  draft["pennants"], 0, rules.LAND_TILES, lambda v: draft.update(pennants=v), chips=PENNANT_CHIPS)
    if not isinstance(entry, ft.Row):      # more than the chips: the stepper, with its label
        return entry
    more = entry.controls[-1]               # "4+", as narrow as a chip
    if isinstance(more, ft.Semantics) and isinstance(more.content, ft.OutlinedButton):
        more.content.width, more.content.style = 48, ft.ButtonStyle(padding=0)
    return ft.Row([text(_("Pennants"), SMALL), *entry.controls], wrap=True, spacing=4, run_spacing=6,
                  vertical_alignment=ft.CrossAxisAlignment.CENTER)


def _feature_args(draft: dict) -> dict:
    args = {"type": draft["type"], "meeples": {c: n for c, n in draft["meeples"].items() if n}}
    if draft["type"] == "field":
        args["cities"] = draft["cities"] or 0
    elif draft["type"] == "monastery" and draft["tiles"] is None:
        args["tiles"] = rules.MONASTERY_AREA
    else:
        args["tiles"] = draft["tiles"]
        if draft["type"] == "city":
            args["pennants"] = draft["pennants"] or 0
    return args


def _new_feature(kind: str | None) -> dict:
    return {"type": kind, "tiles": None, "pennants": None, "cities": None, "meeples": {}}


def _ready(draft: dict, complete: bool) -> bool:
    """Whether the form says enough to send: a completed monastery needs nothing more than its type."""
    kind = draft["type"]
    return bool(kind) and ((complete and kind == "monastery")
                           or (draft["cities"] is not None if kind == "field" else draft["tiles"] is not None))


def score_helper(shell: ShellView) -> tuple[list[ft.Control], ft.Control | None]:
    """A feature completed this turn: its value, who scores it, the meeples go home. Once it is
    entered, "Score it" takes the bottom bar's place."""
    _, vm = shell.vm.t, shell.vm
    draft = shell.draft.setdefault("feature", _new_feature(None))
    rows: list[ft.Control] = [heading(_("Score a completed feature"))]
    on_turn = vm.game_session["config"]["players"][vm.game_state["turn"]]["colour"]
    rows += _feature_form(shell, draft, "f", ("road", "city", "monastery"), _on_board(shell), on_turn)
    if vm.game_state["scored"]:
        last = vm.game_state["scored"][-1]
        names = {p["colour"]: p["name"] for p in vm.game_session["config"]["players"]}
        rows.append(tid("last-scored", text(vm.msg(rules.explain_feature(last, names)), SMALL)))
    primary = None
    if _ready(draft, True):
        rows.append(tid("f-clear", ft.TextButton(content=ft.Text(_("Clear"), size=TEXT), height=TARGET,
                                                 on_click=lambda e: (shell.draft.pop("feature", None),
                                                                     shell.render()))))
        primary = act(vm, "score_feature", _("Score it"),
                      lambda e: shell.send("score_feature", "feature", **_feature_args(draft)), "score-feature",
                      icon=ft.Icons.CHECK, bar=True)
    return [card(rows, "score-helper")], primary


def meeple_row(shell: ShellView, p: dict, place: str) -> ft.Control:
    """One player's meeples on the board with − and +, drawn from the table; a button at its limit
    (none out, all 7 out) is greyed and a tap says why, next to the row."""
    _, vm = shell.vm.t, shell.vm
    colour, out = p["colour"], vm.game_state["meeples"][p["colour"]]
    rule = vm.rule("meeple", colour)
    refusal = vm.msg(rule.refusal) if rule.refusal is not None else None
    ident = f"meeple-{colour}"

    def step(delta: int, at_limit: bool, limit: str) -> ft.Control:
        why = rule.refusal if refusal is not None else Msg(limit) if at_limit else None
        button = ft.IconButton(ft.Icons.ADD if delta > 0 else ft.Icons.REMOVE, width=TARGET, height=TARGET,
                               icon_color=MUTED if why else None,
                               on_click=(lambda e: vm.refuse(why, ident)) if why else
                               (lambda e: vm.dispatch("meeple", player=colour, delta=delta)))
        button.data = Act("meeple", colour, refusal)
        return tid(f"{ident}-{'plus' if delta > 0 else 'minus'}", button)

    def build() -> ft.Control:
        row = ft.Row([ft.Container(who(p["name"], colour), expand=True),
                      step(-1, out == 0, N_("None of this player's meeples is on the board.")),
                      tid(f"meeples-{colour}", ft.Text(f"{out} / {rules.MEEPLES}", size=TEXT)),
                      step(1, out == rules.MEEPLES, N_("A player has 7 meeples to place."))])
        reason = vm.error_for(ident)
        return ft.Column([row, error(reason, f"error-{ident}")], spacing=4) if reason else row

    return shell.kept(f"meeple-row-{place}-{colour}", (p["name"], out, refusal, vm.error_for(ident)), build)


def meeple_helper(shell: ShellView) -> list[ft.Control]:
    """Meeples on the board: the player on turn places or takes back one (on a phone that belongs to a
    player, that player's own row comes first: the only one it may change); the others' counts are
    read below and corrected in the fold."""
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    first = next((p for p in config["players"] if p["colour"] == vm.me), config["players"][state["turn"]])
    others = [p for p in config["players"] if p is not first]
    rows: list[ft.Control] = [heading(_("Meeples on the board")), meeple_row(shell, first, "turn")]
    rows.append(shell.fold("meeple-others", ", ".join(f"{p['name']} {state['meeples'][p['colour']]}" for p in others),
                           [meeple_row(shell, p, "fold") for p in others], _("The others' meeples: tap to correct")))
    return [card(rows, "meeples")]


def gift_helper(shell: ShellView) -> list[ft.Control]:
    """The gift deck in counts; drawing one gift per turn; opening one before placing; its effect."""
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    gifts = state["gifts"]
    active = config["players"][state["turn"]]
    held = ", ".join(f"{p['name']} {gifts['held'][p['colour']]}" for p in config["players"])
    rows = [heading(_("The Gifts")),
            tid("gift-counts", text(_("Deck {deck} · discard pile {discard} · unopened in hands: {held}").format(
                deck=gifts["deck"], discard=gifts["discard"], held=held), SMALL)),
            tid("gift-rule", ft.ExpansionTile(title=ft.Text(_("When do you get a gift?"), size=TEXT),
                                              min_tile_height=56,
                                              controls=[text(shell.game_text("gift.receive"), SMALL)]))]
    rows.append(act(vm, "gift_draw", _("{name} gets a gift card").format(name=active["name"]),
                    lambda e: vm.dispatch("gift_draw"), "gift-draw", primary=False, icon=ft.Icons.CARD_GIFTCARD))
    opened = gifts["opened"]
    if opened is None:
        rows += _gift_open(shell, active)
    elif opened != "done":
        rows += [ft.Text(shell.game_text(f"gift.{opened}.title"), size=18, weight=ft.FontWeight.BOLD),
                 text(shell.game_text(f"gift.{opened}.body"), SMALL)]
        if opened == "road_sweeper":
            draft = shell.draft.setdefault("sweeper", _new_feature("road"))
            rows += [count("sweep-tiles", _("Tiles of the unfinished road"), draft["tiles"], 1, rules.LAND_TILES,
                           lambda v: draft.update(tiles=v)),
                     *_meeple_picks(shell, draft, "sweep-m", _on_board(shell)),
                     act(vm, "road_sweeper", _("Score the road; all its meeples go home"), lambda e: shell.send(
                         "road_sweeper", "sweeper", tiles=draft["tiles"] or 0,
                         meeples={c: n for c, n in draft["meeples"].items() if n}), "sweep")]
        elif opened == "cash_out":
            draft = shell.draft.setdefault("cash", {"meeples": None})
            rows += [count("cash-meeples", _("Meeples in that feature, yours included"), draft["meeples"], 1,
                           rules.MEEPLES * len(config["players"]), lambda v: draft.update(meeples=v)),
                     shell.problem("meeples"),
                     act(vm, "cash_out", _("Take the meeple back and score 2 per meeple"), lambda e: shell.send(
                         "cash_out", "cash", meeples=draft["meeples"] or 0), "cash-out")]
        elif opened == "synod":
            rows.append(act(vm, "synod", _("{name} places a meeple on a monastery").format(name=active["name"]),
                            lambda e: vm.dispatch("synod"), "synod", primary=False))
    return [card(rows, "gifts")]


def _gift_open(shell: ShellView, active: dict) -> list[ft.Control]:
    """Opening a gift: one chip per kind of card where the table allows it now, else one greyed
    button whose tap says why (none held, the tile already placed, one opened already)."""
    _, vm = shell.vm.t, shell.vm
    label = _("{name} opens a gift (before placing the tile):").format(name=active["name"])
    rule = vm.rule("gift_open")
    if rule.refusal is not None:
        return [act(vm, "gift_open", _("{name} opens a gift (before placing the tile)").format(name=active["name"]),
                    lambda e: None, "gift-open", primary=False)]
    chips = choice_chips("gift-open", [(k, shell.game_text(f"gift.{k}.title")) for k in rules.GIFT_KINDS], None,
                         lambda k: vm.dispatch("gift_open", card=k))
    for chip in chips.controls:
        if isinstance(chip, ft.Semantics) and chip.content:
            chip.content.data = Act("gift_open", None, None)
    return [text(label, SMALL), chips]


# ----------------------------------------------------------------------------------------------
# The final tally


def final_screen(shell: ShellView) -> Screen:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    current = state["category"]
    controls: list[ft.Control] = [shell.problem()]
    names = {p["colour"]: p["name"] for p in config["players"]}
    if current != "review":
        label = {"road": "roads", "city": "cities", "monastery": "monasteries", "field": "fields"}[current]
        draft = shell.draft.setdefault(f"tally-{current}", _new_feature(current))
        counted = rules.tallied(state)
        left = {colour: n - counted[colour] for colour, n in state["meeples"].items()}
        rows: list[ft.Control] = [heading(category(shell, label))]
        rows += _feature_form(shell, draft, "t", (current,), left)
        controls.append(card(rows, "tally-form"))
        for feature in [f for f in state["tally"] if f["type"] == current]:
            controls.append(text(vm.msg(rules.explain_feature(feature, names)), SMALL))
        controls.append(card([text(shell.game_text(f"tally.{label}"), SMALL)], "tally-rule"))
        order = [*rules.TALLY, "review"]
        following = order[order.index(current) + 1]
        primary = (act(vm, "tally_feature", _("Add this one"), lambda e: shell.send("tally_feature", f"tally-{current}",
                                                                                **_feature_args(draft)),
                       "tally-add", icon=ft.Icons.ADD, bar=True)
                   if _ready(draft, False) else
                   act(vm, "tally_next", _("Review") if following == "review" else _("Next: {category}").format(
                       category=category(shell, {"road": "roads", "city": "cities", "monastery": "monasteries",
                                                 "field": "fields"}[following])),
                       lambda e: vm.dispatch("tally_next"), "tally-next", icon=ft.Icons.ARROW_FORWARD, bar=True))
        controls.append(tally_meeples(shell))
    else:
        rows = [heading(_("Review")), *([text(shell.game_text("tally.gifts"), SMALL)] if config["gifts"] else [])]
        result = vm.game.result(state, config)
        for line in result["explain"]:
            rows.append(text(vm.msg(line), SMALL))
        controls.append(card(rows, "review"))
        primary = act(vm, "finish", _("Show the winner"), lambda e: vm.dispatch("finish"), "finish",
                      icon=ft.Icons.EMOJI_EVENTS, bar=True)
    return Screen(controls + shell.footer(), primary)


def tally_meeples(shell: ShellView) -> ft.Control:
    """The meeples on the board, still corrected during the tally (a meeple the count missed, or one
    that was never there): the tally offers only the meeples the count says are out."""
    _, vm = shell.vm.t, shell.vm
    config = vm.game_session["config"]
    return card([shell.fold("tally-meeples", _("Meeples on the board: tap to correct"),
                            [meeple_row(shell, p, "tally") for p in config["players"]],
                            ", ".join(f"{p['name']} {vm.game_state['meeples'][p['colour']]}" for p in config["players"]))],
                "tally-meeples-card")


#: What the shell asks of this game's screens (companion/ui/screen_contract.py).
SCREENS = GameScreenHooks(
    new_game_form=new_game_form,
    round_screen=round_screen,
    category=category,
    final_screen=final_screen,
)
