"""Village screens: the new-game form, the round (turns, each family's books, time and death, the
market day), the mass, the end of the game and the final scoring."""
from __future__ import annotations

import flet as ft

from ..games import village as rules
from .widgets import (SMALL, TARGET, TEXT, Stepper, button, card, choice_chips, dot, error, heading, reminder,
                      text, tid, title, who)

GAME = rules.ID
WINDOW_POINTS = rules.CHURCH


def category(shell, key: str) -> str:
    _ = shell.vm.t
    return {"track": _("Prestige track"), "travel": _("Travel"), "council": _("Council chamber"),
            "church": _("Church"), "chronicle": _("Village chronicle"), "customers": _("Customers"),
            "coins": _("Coins")}.get(key, key)


def _window(shell, index: int) -> str:
    _ = shell.vm.t
    return [_("Rightmost window"), _("2nd window"), _("3rd window"), _("Leftmost window")][index]


# ----------------------------------------------------------------------------------------------
# New game


def new_game_form(shell, game_id: str) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    form = shell.draft.setdefault("new", {"count": 2, "start": 0, "lap": 12,
                                          "players": [{"name": "", "colour": c} for c in rules.COLOURS]})
    players = form["players"][:form["count"]]

    def update(**changes):
        form.update(changes)
        shell.render()

    controls: list[ft.Control] = [
        heading(_("Number of players")),
        choice_chips("count", [(str(n), str(n)) for n in (2, 3, 4)], str(form["count"]),
                     lambda v: update(count=int(v), start=min(form["start"], int(v) - 1))),
        *shell.seat_fields(form, players, rules.COLOURS, lambda c: shell.game_text(f"colour.{c}")),
    ]
    lap = Stepper("lap", _("Time track: spaces from the start to the bridge"), form["lap"], 4, 60,
                  lambda v: form.update(lap=v))
    controls += [
        heading(_("The time track")),
        text(_("Count the hourglass spaces on a farmyard from the cloud to the bridge: the rulebook does not "
               "print the number."), SMALL),
        lap.control, error(vm.error_for("lap"), "error-lap"),
        shell.problem(),
        button(_("Start the setup"), lambda e: _create(shell, game_id, form, players), "create", icon=ft.Icons.CHECK),
    ]
    return controls


def _create(shell, game_id: str, form: dict, players: list) -> None:
    config = {"start": form["start"], "lap": form["lap"], "players": [dict(p) for p in players]}
    if shell.vm.new_game(game_id, config):
        shell.draft = {}


# ----------------------------------------------------------------------------------------------
# The round


def round_screen(shell) -> list[ft.Control]:
    state = shell.vm.state
    if state["phase"] == "mass":
        return mass_screen(shell)
    _, vm = shell.vm.t, shell.vm
    config = vm.session["config"]
    players = config["players"]
    turn = players[state["turn"]]
    start = players[state["start"]]
    controls: list[ft.Control] = [
        tid("round-head", ft.Row([ft.Text(_("Round {n}").format(n=state["round"]), size=24, weight=ft.FontWeight.BOLD),
                                  ft.Text(_("Start player:"), size=TEXT), who(start["name"], start["colour"])],
                                 wrap=True)),
    ]
    if state["last_mass"] and state["last_mass"]["round"] == state["round"] - 1:
        winners = ", ".join(shell.player_name(c) for c in state["last_mass"]["winners"]) or "—"
        controls.append(text(_("Last mass: +2 prestige for {names}").format(names=winners), SMALL))
    if state["phase"] == "final_actions":
        order = rules.final_action_order(state, config)
        left = [shell.player_name(c) for c in order if c not in state["end"]["acted"]]
        controls.append(card([heading(_("The game is ending")), text(shell.game_text("end.body"), SMALL),
                              text(_("Still to take a final action: {names}").format(names=", ".join(left)))],
                             "final-actions", highlight=True))
    controls += death_cards(shell)
    if state["market"]:
        controls += market_helper(shell)
    else:
        controls.append(tid("turn-head", ft.Row([ft.Text(_("On turn:"), size=20), who(turn["name"], turn["colour"], 20)])))
        if state["phase"] == "play":
            controls += step_card(shell)
    controls += books(shell)
    controls.append(shell.problem())
    if not state["market"]:
        controls += [
            button(_("Market day (the market cube was taken)"), lambda e: vm.dispatch(
                "market_start", player=turn["colour"]), "market-start", primary=False, icon=ft.Icons.STOREFRONT),
            button(_("Next player"), lambda e: vm.dispatch("next_turn"), "next-turn", icon=ft.Icons.ARROW_FORWARD),
        ]
        if state["phase"] == "play":
            controls += [
                button(_("The last cube was taken: end of the round"), lambda e: vm.dispatch("round_end"),
                       "round-end", primary=False, icon=ft.Icons.CHURCH),
                end_check(shell),
            ]
    controls += action_rules(shell)
    return controls + shell.game_bar()


def step_card(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    steps = [s for s in rules.STEPS if s.id != "mass"]
    current = vm.state["step"]
    key = f"step.standard.{current}"
    return [
        ft.Row([tid(f"step-{s.id}", (ft.FilledButton if s.id == current else ft.OutlinedButton)(
            content=ft.Text(shell.game_text(f"step.standard.{s.id}.title"), size=SMALL), height=TARGET,
            on_click=lambda e, s=s: vm.dispatch("goto_step", step=s.id))) for s in steps], wrap=True, spacing=6),
        card([text(shell.game_text(f"{key}.body")),
              reminder(shell.game_text(f"{key}.remind"))], "step-card"),
    ]


def death_cards(shell) -> list[ft.Control]:
    """When a time marker passed the bridge: who dies and where he goes."""
    _, vm = shell.vm.t, shell.vm
    state, config = vm.state, vm.session["config"]
    controls = []
    for colour, player in state["players"].items():
        if rules.deaths_due(player, config["lap"]) <= 0:
            continue
        draft = shell.draft.setdefault(f"death-{colour}", {"number": rules.lowest_living(player),
                                                           "profession": None, "place": None, "window": None})
        numbers = sorted((k for k, v in player["living"].items() if v > 0), key=int)
        places = [("chronicle", _("Chronicle (a space is free)")), ("grave", _("Anonymous grave"))]
        if state["phase"] == "final_actions":
            places.append(("removed", _("Out of the game (no space left)")))
        rows = [heading(_("{name} passed the bridge: a family member dies").format(name=shell.player_name(colour))),
                text(shell.game_text("death.body"), SMALL),
                text(_("Number (the lowest visible one dies):"), SMALL),
                choice_chips(f"death-number-{colour}", [(n, n) for n in numbers], draft["number"],
                             lambda v, d=draft: (d.update(number=v), shell.render())),
                text(_("Where did he work?"), SMALL),
                choice_chips(f"death-profession-{colour}", [(p, shell.game_text(f"profession.{p}"))
                                                            for p in rules.PROFESSIONS], draft["profession"],
                             lambda v, d=draft: (d.update(profession=v), shell.render()))]
        if draft["profession"] == "church":
            rows.append(choice_chips(f"death-window-{colour}", [(str(i), _window(shell, i)) for i in range(4)
                                                               if player["windows"][i]],
                                     None if draft["window"] is None else str(draft["window"]),
                                     lambda v, d=draft: (d.update(window=int(v)), shell.render())))
        rows += [text(_("Where does he go?"), SMALL),
                 choice_chips(f"death-place-{colour}", places, draft["place"],
                              lambda v, d=draft: (d.update(place=v), shell.render())),
                 shell.problem("number"), shell.problem("profession"), shell.problem("place"),
                 button(_("Record the death"), lambda e, c=colour, d=draft: shell.send(
                     "death", f"death-{c}", player=c, **{k: v for k, v in d.items() if v is not None}),
                     f"death-{colour}")]
        controls.append(card(rows, f"death-card-{colour}", highlight=True))
    return controls


def books(shell) -> list[ft.Control]:
    """One family's books (the player on turn unless another is chosen) with quick entries."""
    _, vm = shell.vm.t, shell.vm
    state, config = vm.state, vm.session["config"]
    colour = shell.draft.get("ledger") or config["players"][state["turn"]]["colour"]
    player = state["players"][colour]
    lap = config["lap"]
    to_bridge = lap - player["time"] % lap
    facts = [
        _("Prestige: {n}").format(n=state["scores"][colour]),
        _("Time: {n} (bridge in {left})").format(n=player["time"], left=to_bridge),
        _("Coins: {n}").format(n=player["coins"]), _("Grain: {n}").format(n=player["grain"]),
        _("Living: {n}").format(n=rules.living(player)), _("In the black bag: {n}").format(n=player["bag"]),
        _("Church windows: {counts}").format(counts="/".join(map(str, player["windows"]))),
        _("Chronicle: {n}").format(n=player["chronicle"]),
        _("Customers: {n}").format(n=len(player["customers"])),
    ]

    def act(kind, **args):
        return lambda e: vm.dispatch(kind, player=colour, **args)

    def small(label, handler, ident):
        return tid(ident, ft.OutlinedButton(content=ft.Text(label, size=TEXT), height=TARGET, on_click=handler))

    reason = _("quick entry")
    rows = [
        heading(_("Books")),
        choice_chips("ledger", [(p["colour"], ft.Row([dot(p["colour"]), ft.Text(p["name"], size=TEXT)], tight=True))
                                for p in config["players"]], colour,
                     lambda c: (shell.draft.update(ledger=c), shell.render())),
        tid(f"facts-{colour}", ft.Column([text(line, SMALL) for line in facts], spacing=2)),
        text(_("Time: what the action costs (board-printed costs with +1, +2, +3)"), SMALL),
        ft.Row([small(_("Plague +2"), act("time", plague=True), "plague"),
                *[small(label, act("time", amount=rules.ACTION_TIME[key]), f"time-{key}") for key, label in (
                    ("travel", _("Travel +2")), ("mill", _("Mill +2")), ("church", _("Church +3")),
                    ("council", _("Council, new member +1")), ("wainwright", _("Wainwright +2")),
                    ("stables", _("Stables +3")))],
                small("+1", act("time", amount=1), "time-1"), small("+2", act("time", amount=2), "time-2"),
                small("+3", act("time", amount=3), "time-3")], wrap=True),
        text(_("Coins and grain"), SMALL),
        ft.Row([small(_("Coin −1"), act("coins", delta=-1), "coin-minus"),
                small(_("Coin +1"), act("coins", delta=1), "coin-plus"),
                small(_("Grain −1"), act("grain", delta=-1), "grain-minus"),
                small(_("Grain +1"), act("grain", delta=1), "grain-plus")], wrap=True),
        text(_("Prestige"), SMALL),
        ft.Row([small("−1", lambda e: vm.dispatch("correct", track=colour, points=-1, reason=reason), "pp-minus"),
                small("+1", lambda e: vm.dispatch("correct", track=colour, points=1, reason=reason), "pp-plus"),
                small("+3", lambda e: vm.dispatch("correct", track=colour, points=3, reason=reason), "pp-plus3")],
               wrap=True),
        text(_("Family"), SMALL),
        ft.Row([small(_("Birth"), act("birth"), "birth"), small(_("Into the black bag"), act("church"), "to-church"),
                small(_("Next-start marker"), act("next_marker"), "next-marker")], wrap=True),
    ]
    return [card(rows, "books")]


def market_helper(shell) -> list[ft.Control]:
    """The market day: whose turn, what a sale costs, passing is final; then the refill."""
    _, vm = shell.vm.t, shell.vm
    market = vm.state["market"]
    turn = market["turn"]
    free = turn == market["trigger"] and not market["free_used"]
    draft = shell.draft.setdefault("sale", {"prestige": 3})
    rows = [heading(_("Market day")), text(shell.game_text("market.body"), SMALL),
            tid("market-turn", ft.Row([ft.Text(_("At the market:"), size=20), who(shell.player_name(turn), turn, 20)])),
            text(_("This sale is free.") if free else _("This sale costs 1 green cube and 1 time (added for you)."),
                 SMALL, color=ft.Colors.AMBER_200),
            Stepper("sale", _("Prestige printed on the customer"), draft["prestige"], 0, 30,
                    lambda v: draft.update(prestige=v)).control,
            shell.problem("prestige"),
            button(_("Serve the customer"), lambda e: shell.send("market_sell", "sale", player=turn,
                                                            prestige=draft["prestige"]), "market-sell"),
            button(_("Pass for the rest of the day"), lambda e: vm.dispatch("market_pass", player=turn),
                   "market-pass", primary=False),
            button(_("No customer left at the stalls"), lambda e: vm.dispatch("market_end"), "market-end",
                   primary=False)]
    for sale in market["sales"]:
        rows.append(text(_("{name}: customer worth {n}").format(name=shell.player_name(sale["player"]), n=sale["prestige"]),
                         SMALL))
    if market["passed"]:
        rows.append(text(_("Passed: {names}").format(names=", ".join(shell.player_name(c) for c in market["passed"])),
                         SMALL))
    rows.append(text(shell.game_text("market.refill"), SMALL, color=ft.Colors.GREY_400))
    controls = [card(rows, "market", highlight=True)]
    if vm.state["phase"] == "play":         # a member who dies during the market day may end the game
        controls.append(end_check(shell))
    return controls


def end_check(shell) -> ft.Control:
    """Who took the last chronicle space or the last grave (also during a market day)."""
    _, vm = shell.vm.t, shell.vm
    return card([heading(_("End of the game")),
                 text(_("Did a family member just take the last chronicle space or the last grave? "
                        "Whose was he?"), SMALL),
                 choice_chips("end-trigger", [(p["colour"], p["name"]) for p in vm.session["config"]["players"]], None,
                              lambda c: vm.dispatch("end_trigger", player=c))], "end-check")


def action_rules(shell) -> list[ft.Control]:
    _ = shell.vm.t
    tiles = [tid(f"action-{key}", ft.ExpansionTile(
        title=ft.Text(shell.game_text(f"action.{key}.title"), size=TEXT), min_tile_height=56,
        controls=[ft.Container(text(shell.game_text(f"action.{key}.body")), padding=12)]))
        for key in ("plague", "harvest", "family", "crafts", "market", "travel", "council", "church", "well",
                    "coins", "time")]
    return [heading(_("The actions")), *tiles]


# ----------------------------------------------------------------------------------------------
# The mass


def mass_screen(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.state, vm.session["config"]
    mass = state["mass"]
    players = config["players"]
    order = [players[(state["start"] + k) % len(players)] for k in range(len(players))]
    controls: list[ft.Control] = [
        title(_("Final mass") if mass["final"] else _("Mass after round {n}").format(n=state["round"])),
        *death_cards(shell), shell.problem()]
    bought = sum(mass["bought"].values())
    if mass["drawn"] is None:
        rows = [heading(_("1. Buy your members out of the bag")), text(shell.game_text("mass.buy"), SMALL),
                text(_("Out of the bag so far: {n} of 4").format(n=bought))]
        for p in order:
            book = state["players"][p["colour"]]
            rows.append(button(_("{name} buys one (1 coin; in the bag: {bag}, coins: {coins})").format(
                name=p["name"], bag=book["bag"], coins=book["coins"]),
                lambda e, c=p["colour"]: vm.dispatch("mass_buy", player=c), f"buy-{p['colour']}", primary=False))
        controls.append(card(rows, "mass-buy"))
        draft = shell.draft.setdefault("draw", {"members": {}, "monks": 0})
        rows = [heading(_("2. Draw the rest blind")), text(shell.game_text("mass.draw"), SMALL)]
        for p in order:
            rows.append(Stepper(f"draw-{p['colour']}", who(p["name"], p["colour"]),
                                draft["members"].get(p["colour"], 0), 0, state["players"][p["colour"]]["bag"],
                                lambda v, c=p["colour"]: draft["members"].update({c: v})).control)
        rows += [Stepper("monks", _("Monks (back into the bag)"), draft["monks"], 0, rules.MONKS,
                         lambda v: draft.update(monks=v)).control,
                 shell.problem("monks"),
                 button(_("Record the draw"), lambda e: shell.send("mass_draw", "draw", members=dict(draft["members"]),
                                                              monks=draft["monks"]), "mass-draw")]
        controls.append(card(rows, "mass-draw-card"))
    else:
        pending = [p for p in order if p["colour"] not in mass["moved"]]
        if pending:
            p = pending[0]
            book = state["players"][p["colour"]]
            draft = shell.draft.setdefault(f"move-{p['colour']}", {"source": None, "target": None, "grain": 0})
            rows = [heading(_("3. Move up: {name}").format(name=p["name"])), text(shell.game_text("mass.move"), SMALL),
                    text(_("Church windows: {counts} · grain: {grain}").format(
                        counts="/".join(map(str, book["windows"])), grain=book["grain"]), SMALL),
                    text(_("From"), SMALL),
                    choice_chips("move-from", [(str(i), _window(shell, i)) for i in range(3) if book["windows"][i]],
                                 None if draft["source"] is None else str(draft["source"]),
                                 lambda v, d=draft: (d.update(source=int(v)), shell.render())),
                    text(_("To"), SMALL),
                    choice_chips("move-to", [(str(i), _window(shell, i)) for i in range(1, 4)
                                             if draft["source"] is None or i > draft["source"]],
                                 None if draft["target"] is None else str(draft["target"]),
                                 lambda v, d=draft: (d.update(target=int(v)), shell.render())),
                    Stepper("move-grain", _("Grain paid (see the board)"), draft["grain"], 0, rules.FARMYARD_GRAIN,
                            lambda v, d=draft: d.update(grain=v)).control,
                    shell.problem("grain"), shell.problem("target"), shell.problem("source"),
                    button(_("Move"), lambda e, c=p["colour"], d=draft: shell.send(
                        "mass_move", f"move-{c}", player=c, source=d["source"], target=d["target"],
                        grain=d["grain"]), "mass-move", primary=False),
                    button(_("{name} is done").format(name=p["name"]),
                           lambda e, c=p["colour"]: vm.dispatch("mass_done", player=c), "mass-done")]
            controls.append(card(rows, "mass-move-card"))
        else:
            winners = rules.mass_majority({c: b["windows"] for c, b in state["players"].items()})
            names = ", ".join(shell.player_name(c) for c in winners) or "—"
            rows = [heading(_("4. The majority")), text(shell.game_text("mass.majority"), SMALL),
                    text(_("+2 prestige for: {names}").format(names=names)),
                    button(_("End the mass"), lambda e: vm.dispatch("mass_end"), "mass-end")]
            controls.append(card(rows, "mass-end-card"))
    for p in order:
        book = state["players"][p["colour"]]
        controls.append(ft.Row([who(p["name"], p["colour"], SMALL),
                                text(_("windows {counts}, bag {bag}").format(counts="/".join(map(str, book["windows"])),
                                                                            bag=book["bag"]), SMALL)], wrap=True))
    return controls + shell.game_bar()


# ----------------------------------------------------------------------------------------------
# Final scoring


def final_screen(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    config = vm.session["config"]
    draft = shell.draft.setdefault("final", {p["colour"]: {"cities_visited": 0, "council": [0, 0, 0, 0]}
                                             for p in config["players"]})
    controls: list[ft.Control] = [title(_("Final scoring")),
                                  text(_("Count on the board what the app cannot know: each family's travel markers "
                                         "and its members on the council stages. Everything else comes from the "
                                         "books."), SMALL), shell.problem()]
    for p in config["players"]:
        entry = draft[p["colour"]]
        rows = [ft.Row([who(p["name"], p["colour"], 20)]),
                Stepper(f"cities-{p['colour']}", _("Cities visited (travel markers)"), entry["cities_visited"], 0,
                        rules.TRAVEL_MARKERS, lambda v, e=entry: e.update(cities_visited=v)).control,
                shell.problem(f"{p['colour']}.cities_visited")]
        for stage in range(4):
            rows.append(Stepper(f"council-{p['colour']}-{stage + 1}", _("Council stage {n}").format(n=stage + 1),
                                entry["council"][stage], 0, rules.MEMBERS,
                                lambda v, e=entry, s=stage: e["council"].__setitem__(s, v)).control)
        rows.append(shell.problem(f"{p['colour']}.council"))
        controls.append(card(rows, f"final-{p['colour']}"))
    controls.append(button(_("Show the winner"), lambda e: shell.send(
        "finish", "final", players={c: {"cities_visited": v["cities_visited"], "council": list(v["council"])}
                                    for c, v in draft.items()}), "finish", icon=ft.Icons.EMOJI_EVENTS))
    return controls + shell.game_bar()


def on_turn(shell) -> str | None:
    """The player whose turn it is (table mode highlights it on his phone)."""
    state = shell.vm.state
    return (shell.vm.session["config"]["players"][state["turn"]]["colour"]
            if state["phase"] in ("play", "final_actions") else None)
