"""Carcassonne screens: the new-game form, the turn guide with feature scoring, meeples and the gift
deck (Road Sweeper and Cash Out calculators), and the final tally one category at a time."""
from __future__ import annotations

import flet as ft

from ..games import carcassonne as rules
from .widgets import (Screen, create_button, SMALL, TARGET, TEXT, Stepper, button, card, choice_chips, heading, reminder, text, tid, title,
                      who)

GAME = rules.ID


def category(shell, key: str) -> str:
    _ = shell.vm.t
    return {"track": _("Score track"), "roads": _("Unfinished roads"), "cities": _("Unfinished cities"),
            "monasteries": _("Unfinished monasteries"), "fields": _("Fields"),
            "gifts": _("Unopened gifts")}.get(key, key)


def new_game_form(shell, game_id: str) -> Screen:
    _ = shell.vm.t
    form = shell.draft.setdefault("new", {"count": 3, "start": 0, "gifts": True,
                                          "players": [{"name": "", "colour": c} for c in rules.COLOURS]})
    players = form["players"][:form["count"]]

    def update(**changes):
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


def _create(shell, game_id: str, form: dict, players: list) -> None:
    config = {"start": form["start"], "gifts": form["gifts"], "players": [dict(p) for p in players]}
    if shell.vm.new_game(game_id, config):
        shell.draft = {}


# ----------------------------------------------------------------------------------------------
# The turn


def round_screen(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.state, vm.session["config"]
    turn = config["players"][state["turn"]]
    steps = rules.steps(config)
    current = state["step"]
    key = f"step.standard.{current}"
    controls: list[ft.Control] = [
        tid("turn-head", ft.Row([ft.Text(_("On turn:"), size=20), who(turn["name"], turn["colour"], 20)])),
        ft.Row([tid(f"step-{s.id}", (ft.FilledButton if s.id == current else ft.OutlinedButton)(
            content=ft.Text(shell.game_text(f"step.standard.{s.id}.title"), size=SMALL), height=TARGET,
            on_click=lambda e, s=s: vm.dispatch("goto_step", step=s.id))) for s in steps], wrap=True, spacing=6),
        card([text(shell.game_text(f"{key}.body")), reminder(shell.game_text(f"{key}.remind"))], "step-card"),
        shell.problem(),
    ]
    if config["gifts"]:
        controls += gift_helper(shell)
    controls += score_helper(shell) + meeple_helper(shell)
    controls += [
        button(_("Next player"), lambda e: vm.dispatch("next_turn"), "next-turn", icon=ft.Icons.ARROW_FORWARD),
        button(_("The last tile is placed: final tally"), lambda e: vm.dispatch("end_game"), "end-game",
               primary=False, icon=ft.Icons.FLAG),
    ]
    return controls + shell.footer()


def _meeple_steppers(shell, draft: dict, ident: str) -> list[ft.Control]:
    _ = shell.vm.t
    rows = [text(_("Meeples in the feature"), SMALL)]
    for p in shell.vm.session["config"]["players"]:
        rows.append(Stepper(f"{ident}-{p['colour']}", who(p["name"], p["colour"]), draft["meeples"].get(p["colour"], 0),
                            0, rules.MEEPLES, lambda v, c=p["colour"]: draft["meeples"].update({c: v})).control)
        rows.append(shell.problem(f"meeples.{p['colour']}"))
    return rows


def _feature_form(shell, draft: dict, ident: str, kinds) -> list[ft.Control]:
    """Type, tiles, pennants (cities) or completed cities (fields), meeples per player."""
    _ = shell.vm.t
    rows = [choice_chips(f"{ident}-type", [(k, shell.game_text(f"feature.{k}")) for k in kinds], draft["type"],
                         lambda v: (draft.update(type=v), shell.render()))]
    if draft["type"] == "field":
        rows.append(Stepper(f"{ident}-cities", _("Completed cities next to this field"), draft["cities"], 0,
                            rules.LAND_TILES, lambda v: draft.update(cities=v)).control)
    elif draft["type"]:
        high = rules.MONASTERY_AREA if draft["type"] == "monastery" else rules.LAND_TILES
        label = _("Tiles in its 3×3 (itself included)") if draft["type"] == "monastery" else _("Tiles")
        rows.append(Stepper(f"{ident}-tiles", label, draft["tiles"], 1, high, lambda v: draft.update(tiles=v)).control)
        if draft["type"] == "city":
            rows.append(Stepper(f"{ident}-pennants", _("Pennants"), draft["pennants"], 0, rules.LAND_TILES,
                                lambda v: draft.update(pennants=v)).control)
    rows += [shell.problem("tiles"), shell.problem("pennants"), shell.problem("cities")]
    return rows + _meeple_steppers(shell, draft, f"{ident}-m")


def _feature_args(draft: dict) -> dict:
    args = {"type": draft["type"], "meeples": {c: n for c, n in draft["meeples"].items() if n}}
    if draft["type"] == "field":
        args["cities"] = draft["cities"]
    else:
        args["tiles"] = draft["tiles"]
        if draft["type"] == "city":
            args["pennants"] = draft["pennants"]
    return args


def _new_feature(kind: str | None, tiles: int = 1) -> dict:
    return {"type": kind, "tiles": tiles, "pennants": 0, "cities": 0, "meeples": {}}


def score_helper(shell) -> list[ft.Control]:
    """A feature completed this turn: its value, who scores it, the meeples go home."""
    _, vm = shell.vm.t, shell.vm
    draft = shell.draft.setdefault("feature", _new_feature(None))
    rows = [heading(_("Score a completed feature"))]
    rows += _feature_form(shell, draft, "f", ("road", "city", "monastery"))
    if draft["type"] == "monastery":
        draft["tiles"] = rules.MONASTERY_AREA
    if draft["type"]:
        rows.append(button(_("Score it"), lambda e: shell.send("score_feature", "feature", **_feature_args(draft)),
                           "score-feature"))
    if vm.state["scored"]:
        last = vm.state["scored"][-1]
        names = {p["colour"]: p["name"] for p in vm.session["config"]["players"]}
        rows.append(tid("last-scored", text(vm.msg(rules.explain_feature(last, names)), SMALL)))
    return [card(rows, "score-helper")]


def meeple_helper(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    rows = [heading(_("Meeples on the board"))]
    for p in vm.session["config"]["players"]:
        colour = p["colour"]
        rows.append(ft.Row([ft.Container(who(p["name"], colour), expand=True),
                            tid(f"meeple-{colour}-minus", ft.IconButton(ft.Icons.REMOVE, width=TARGET, height=TARGET,
                                on_click=lambda e, c=colour: vm.dispatch("meeple", player=c, delta=-1))),
                            tid(f"meeples-{colour}", ft.Text(f"{vm.state['meeples'][colour]} / {rules.MEEPLES}",
                                                             size=TEXT)),
                            tid(f"meeple-{colour}-plus", ft.IconButton(ft.Icons.ADD, width=TARGET, height=TARGET,
                                on_click=lambda e, c=colour: vm.dispatch("meeple", player=c, delta=1)))]))
    return [card(rows, "meeples")]


def gift_helper(shell) -> list[ft.Control]:
    """The gift deck in counts; drawing one gift per turn; opening one before placing; its effect."""
    _, vm = shell.vm.t, shell.vm
    state, config = vm.state, vm.session["config"]
    gifts = state["gifts"]
    active = config["players"][state["turn"]]
    held = ", ".join(f"{p['name']} {gifts['held'][p['colour']]}" for p in config["players"])
    rows = [heading(_("The Gifts")),
            tid("gift-counts", text(_("Deck {deck} · discard pile {discard} · unopened in hands: {held}").format(
                deck=gifts["deck"], discard=gifts["discard"], held=held), SMALL)),
            tid("gift-rule", ft.ExpansionTile(title=ft.Text(_("When do you get a gift?"), size=TEXT),
                                              min_tile_height=56,
                                              controls=[text(shell.game_text("gift.receive"), SMALL)]))]
    if not gifts["drawn"]:
        rows.append(button(_("{name} gets a gift card").format(name=active["name"]), lambda e: vm.dispatch("gift_draw"),
                           "gift-draw", primary=False, icon=ft.Icons.CARD_GIFTCARD))
    opened = gifts["opened"]
    if opened is None and gifts["held"][active["colour"]]:
        rows += [text(_("{name} opens a gift (before placing the tile):").format(name=active["name"]), SMALL),
                 choice_chips("gift-open", [(k, shell.game_text(f"gift.{k}.title")) for k in rules.GIFT_KINDS], None,
                              lambda k: vm.dispatch("gift_open", card=k))]
    if opened and opened != "done":
        rows += [ft.Text(shell.game_text(f"gift.{opened}.title"), size=18, weight=ft.FontWeight.BOLD),
                 text(shell.game_text(f"gift.{opened}.body"), SMALL)]
        if opened == "road_sweeper":
            draft = shell.draft.setdefault("sweeper", _new_feature("road", 1))
            rows += [Stepper("sweep-tiles", _("Tiles of the unfinished road"), draft["tiles"], 1, rules.LAND_TILES,
                             lambda v: draft.update(tiles=v)).control,
                     *_meeple_steppers(shell, draft, "sweep-m"),
                     button(_("Score the road; all its meeples go home"), lambda e: shell.send(
                         "road_sweeper", "sweeper", tiles=draft["tiles"],
                         meeples={c: n for c, n in draft["meeples"].items() if n}), "sweep")]
        elif opened == "cash_out":
            draft = shell.draft.setdefault("cash", {"meeples": 1})
            rows += [Stepper("cash-meeples", _("Meeples in that feature, yours included"), draft["meeples"], 1,
                             rules.MEEPLES * len(config["players"]), lambda v: draft.update(meeples=v)).control,
                     shell.problem("meeples"),
                     button(_("Take the meeple back and score 2 per meeple"), lambda e: shell.send(
                         "cash_out", "cash", meeples=draft["meeples"]), "cash-out")]
        elif opened == "synod":
            rows.append(button(_("{name} places a meeple on a monastery").format(name=active["name"]),
                               lambda e: vm.dispatch("meeple", player=active["colour"], delta=1), "synod",
                               primary=False))
    return [card(rows, "gifts")]


# ----------------------------------------------------------------------------------------------
# The final tally


def final_screen(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.state, vm.session["config"]
    current = state["category"]
    order = [*rules.TALLY, "review"]
    controls: list[ft.Control] = [
        title(_("Final tally")),
        ft.Row([tid(f"cat-{c}", (ft.FilledButton if c == current else ft.OutlinedButton)(
            content=ft.Text(str(i + 1), size=TEXT), width=TARGET, height=TARGET, disabled=True))
            for i, c in enumerate(order)], spacing=6, wrap=True),
        shell.problem(),
    ]
    names = {p["colour"]: p["name"] for p in config["players"]}
    if current != "review":
        label = {"road": "roads", "city": "cities", "monastery": "monasteries", "field": "fields"}[current]
        draft = shell.draft.setdefault(f"tally-{current}", _new_feature(current))
        rows = [heading(category(shell, label)), text(shell.game_text(f"tally.{label}"), SMALL)]
        rows += _feature_form(shell, draft, "t", (current,))
        rows.append(button(_("Add this one"), lambda e: shell.send("tally_feature", f"tally-{current}",
                                                                    **_feature_args(draft)), "tally-add"))
        controls.append(card(rows, "tally-form"))
        for feature in [f for f in state["tally"] if f["type"] == current]:
            controls.append(text(vm.msg(rules.explain_feature(feature, names)), SMALL))
        controls.append(button(_("Next category"), lambda e: vm.dispatch("tally_next"), "tally-next",
                               icon=ft.Icons.ARROW_FORWARD))
    else:
        rows = [heading(_("Review")), text(shell.game_text("tally.gifts"), SMALL) if config["gifts"] else text("")]
        result = vm.game.result(state, config)
        for line in result["explain"]:
            rows.append(text(vm.msg(line), SMALL))
        controls += [card(rows, "review"),
                     button(_("Show the winner"), lambda e: vm.dispatch("finish"), "finish",
                            icon=ft.Icons.EMOJI_EVENTS)]
    return controls + shell.footer()


def on_turn(shell) -> str | None:
    """The player whose turn it is (table mode highlights it on his phone)."""
    state = shell.vm.state
    return shell.vm.session["config"]["players"][state["turn"]]["colour"] if state["phase"] == "play" else None
