"""Village screens: the new-game form, the round (turns, each family's books, time and death, the
market day), the mass, the end of the game and the final scoring."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from . import rules
from ...engine.model import Msg, N_
from ...i18n import Translator
from ...ui.screen_contract import GameScreenHooks, ShellView
from ...ui.widgets import (SMALL, TARGET, TEXT, Screen, Stepper, act, button, card, choice_chips, count,
                      create_button, dot, error, heading, pick, text, tid, who, setter)

GAME = rules.ID

if TYPE_CHECKING:
    from ...ui.viewmodel import ViewModel


def category(shell: ShellView, key: str) -> str:
    _ = shell.vm.t
    return {"track": _("Prestige track"), "travel": _("Travel"), "council": _("Council chamber"),
            "church": _("Church"), "chronicle": _("Village chronicle"), "customers": _("Customers"),
            "coins": _("Coins")}.get(key, key)


def _window(shell: ShellView, index: int) -> str:
    _ = shell.vm.t
    return [_("Rightmost window"), _("2nd window from the right"), _("3rd window from the right"),
            _("Leftmost window")][index]


# ----------------------------------------------------------------------------------------------
# New game


def new_game_form(shell: ShellView, game_id: str) -> Screen:
    _, vm = shell.vm.t, shell.vm
    form = shell.draft.setdefault("new", {"count": 2, "start": 0, "lap": 12,
                                          "players": [{"name": "", "colour": c} for c in rules.COLOURS]})
    players = form["players"][:form["count"]]

    def update(**changes: object) -> None:
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
    ]
    return Screen(controls, create_button(shell, lambda e: _create(shell, game_id, form, players)))


def _create(shell: ShellView, game_id: str, form: dict, players: list) -> None:
    config = {"start": form["start"], "lap": form["lap"], "players": [dict(p) for p in players]}
    if shell.vm.new_game(game_id, config):
        shell.draft = {}


# ----------------------------------------------------------------------------------------------
# The round


def round_screen(shell: ShellView) -> Screen:
    state = shell.vm.game_state
    if state["phase"] == "mass":
        return mass_screen(shell)
    _, vm = shell.vm.t, shell.vm
    config = vm.game_session["config"]
    players = config["players"]
    turn = players[state["turn"]]
    controls: list[ft.Control] = []
    if state["phase"] == "play" and not state["market"]:
        controls.append(_steps(shell))
    if state["phase"] == "final_actions":
        order = rules.final_action_order(state, config)
        left = [shell.player_name(c) for c in order if c not in state["end"]["acted"]]
        controls.append(card([heading(_("The game is ending")),
                              text(_("Still to take a final action: {names}").format(names=", ".join(left))),
                              text(shell.game_text("end.body"), SMALL)], "final-actions", highlight=True))
    controls.append(shell.problem())
    deaths, death_button = death_cards(shell)
    controls += deaths
    primary = death_button
    if state["market"]:
        market, sell = market_helper(shell)
        controls += market
        primary = primary or sell
    else:
        # what ends a turn's bookkeeping comes first, in sight on a small phone above the books: the
        # market cube or the round's last cube taken
        events = [act(vm, "market_start", _("Market day (the market cube was taken)"), lambda e: vm.dispatch(
            "market_start", player=turn["colour"]), "market-start", primary=False,
            icon=ft.Icons.STOREFRONT)]      # the player on turn took the cube: that player's phone or a shared one
        if state["phase"] == "play":
            events.append(act(vm, "round_end", _("The last cube was taken: end of the round"),
                              lambda e: vm.dispatch("round_end"), "round-end", primary=False, icon=ft.Icons.CHURCH))
        controls.append(ft.Column(events, spacing=8))
        controls += books(shell)
        if state["last_mass"] and state["last_mass"]["round"] == state["round"] - 1 and state["step"] == "seed":
            # the last mass's news under the books: the turn's entries stay in sight above it
            winners = ", ".join(shell.player_name(c) for c in state["last_mass"]["winners"]) or "—"
            controls.append(text(_("Last mass: +2 prestige for {names}").format(names=winners), SMALL))
        if state["phase"] == "play":
            controls.append(end_check(shell))
        primary = primary or act(vm, "next_turn", _("Next player"), lambda e: vm.dispatch("next_turn"), "next-turn",
                                 icon=ft.Icons.ARROW_FORWARD, bar=True)
    if state["phase"] == "play":
        controls.append(shell.rule_fold(f"{GAME}.step.standard.{state['step']}"))
    controls += action_rules(shell)
    return Screen(controls + shell.footer(), primary)


def _steps(shell: ShellView) -> ft.Control:
    """The round's steps as numbers (the header names the current one)."""
    vm = shell.vm
    steps = [s for s in rules.STEPS if s.id != "mass"]
    return ft.Row([tid(f"step-{s.id}", (ft.FilledButton if s.id == vm.game_state["step"] else ft.OutlinedButton)(
        content=ft.Text(str(i + 1), size=TEXT), width=48, height=TARGET, style=ft.ButtonStyle(padding=0),
        on_click=lambda e, s=s: vm.dispatch("goto_step", step=s.id))) for i, s in enumerate(steps)], spacing=4)


def death_cards(shell: ShellView) -> tuple[list[ft.Control], ft.Control | None]:
    """When a time marker passed the bridge: who dies and where he goes. The turn cannot end first,
    so "Record the death" takes the bottom bar's place."""
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    controls = []
    primary = None
    for colour, player in state["players"].items():
        if rules.deaths_due(player, config["lap"]) <= 0:
            continue
        draft = shell.draft.setdefault(f"death-{colour}", {"number": rules.lowest_visible(player) or rules.lowest_living(player),
                                                           "profession": None, "place": None, "window": None})
        numbers = sorted((k for k, v in player["living"].items() if v > 0), key=int)
        places = [("chronicle", _("Chronicle (a space is free)")), ("grave", _("Anonymous grave"))]
        if state["phase"] == "final_actions":
            places.append(("removed", _("Out of the game (no space left)")))
        dies = _("{name} passed the bridge: a family member dies").format(name=shell.player_name(colour))
        rows: list[ft.Control] = [heading(dies),
                text(shell.game_text("death.body"), SMALL),
                text(_("Number (the lowest visible one dies):"), SMALL),
                choice_chips(f"death-number-{colour}", [(n, n) for n in numbers], draft["number"],
                             setter(draft, "number", shell.render)),
                text(_("Where did he work?"), SMALL),
                choice_chips(f"death-profession-{colour}", [(p, shell.game_text(f"profession.{p}"))
                                                            for p in rules.PROFESSIONS], draft["profession"],
                             setter(draft, "profession", shell.render))]
        if draft["profession"] == "church":
            rows.append(choice_chips(f"death-window-{colour}", [(str(i), _window(shell, i)) for i in range(4)
                                                               if player["windows"][i]],
                                     None if draft["window"] is None else str(draft["window"]),
                                     setter(draft, "window", shell.render, int)))
        rows += [text(_("Where does he go?"), SMALL),
                 choice_chips(f"death-place-{colour}", places, draft["place"],
                              setter(draft, "place", shell.render)),
                 shell.problem("number"), shell.problem("profession"), shell.problem("place")]
        controls.append(card(rows, f"death-card-{colour}", highlight=True))
        primary = primary or act(vm, "death", _("Record the death"), lambda e, c=colour, d=draft: shell.send(
            "death", f"death-{c}", player=c, **{k: v for k, v in d.items() if v is not None}), f"death-{colour}",
            player=colour, icon=ft.Icons.CHECK, bar=True)
    return controls, primary


def entry(shell: ShellView, kind: str, label: str, ident: str, limit: Msg | None = None, bare: bool = False,
          **args: Any) -> ft.Control:
    """A quick entry of a family's books, drawn from the table of allowed actions; at a limit of the box
    or of the family (no coin left, a full farmyard) it is greyed too, and a tap says why, next to it
    (`bare`: the button alone, for a row of narrow entries that shows the reason below itself)."""
    vm = shell.vm
    player = args.get("player")
    if limit is None or vm.rule(kind, player).refusal is not None:
        control = act(vm, kind, label, lambda e: vm.dispatch(kind, **args), ident, player=player, primary=False)
        return control.controls[0] if bare and isinstance(control, ft.Column) else control
    control = button(label, lambda e: vm.refuse(limit, ident), ident, primary=False, muted=True)
    reason = vm.error_for(ident)
    return ft.Column([control, error(reason, f"error-{ident}")], spacing=4) if reason and not bare else control


def books(shell: ShellView) -> list[ft.Control]:
    """One family's books (the player on turn unless another is chosen) with quick entries; an entry
    at its limit (no coin left, a full farmyard) is greyed and says why when tapped."""
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    colour = shell.draft.get("ledger") or config["players"][state["turn"]]["colour"]
    player = state["players"][colour]
    coins_left = rules.COINS - sum(p["coins"] for p in state["players"].values())
    grain_left = rules.GRAIN - sum(p["grain"] for p in state["players"].values())
    reason = _("quick entry")

    def row(label: str, *entries: tuple[str, ft.Control]) -> ft.Control:
        return _book_row(vm, label, *entries)

    def narrow(kind: str, label: str, ident: str, limit: Msg | None = None, **args: Any) -> tuple[str, ft.Control]:
        return ident, entry(shell, kind, label, ident, limit, bare=True, **args)

    def pp(label: str, points: int, ident: str, limit: Msg | None = None) -> tuple[str, ft.Control]:
        return narrow("correct", label, ident, limit, track=colour, points=points, reason=reason)

    rows = [
        choice_chips("ledger", [(p["colour"], ft.Row([dot(p["colour"]), ft.Text(p["name"], size=TEXT)], tight=True))
                                for p in config["players"]], colour,
                     lambda c: (shell.draft.update(ledger=c), shell.render())),
        tid(f"facts-{colour}", text(" · ".join(_book_facts(_, state, config, colour)), SMALL)),
        row(_("Time"), *[narrow("time", f"+{n}", f"time-{n}", player=colour, amount=n) for n in (1, 2, 3)]),
        row(_("Grain"),
            narrow("grain", "−1", "grain-minus", Msg(N_("Not enough grain.")) if player["grain"] == 0 else None,
                   player=colour, delta=-1),
            narrow("grain", "+1", "grain-plus",
                   Msg(N_("A farmyard holds at most 5 grain bags.")) if player["grain"] >= rules.FARMYARD_GRAIN
                   else Msg(N_("The box has only 20 grain bags.")) if grain_left == 0 else None,
                   player=colour, delta=1)),
        row(_("Coins"),
            narrow("coins", "−1", "coin-minus", Msg(N_("Not enough coins.")) if player["coins"] == 0 else None,
                   player=colour, delta=-1),
            narrow("coins", "+1", "coin-plus", Msg(N_("The box has only 15 coins.")) if coins_left == 0 else None,
                   player=colour, delta=1)),
        shell.problem("delta"),
        entry(shell, "time", _("Plague +2"), "plague", player=colour, plague=True),
        row(_("Prestige"),
            pp("−1", -1, "pp-minus", Msg(N_("A score cannot go below 0.")) if state["scores"][colour] == 0 else None),
            pp("+1", 1, "pp-plus"), pp("+3", 3, "pp-plus3")),
        *_family_entries(shell, colour, player),
    ]
    return [card(rows, "books")]


def _book_facts(_: Translator, state: dict[str, Any], config: dict[str, Any], colour: str) -> list[str]:
    """The family's books in one line: prestige, time and the bridge, coins, grain, members."""
    player, lap = state["players"][colour], config["lap"]
    on_bridge = player["time"] > 0 and player["time"] % lap == 0
    return [
        _("Prestige {n}").format(n=state["scores"][colour]),
        _("Time {n} · on the bridge").format(n=player["time"]) if on_bridge else
        _("Time {n} · bridge in {left}").format(n=player["time"], left=lap - player["time"] % lap),
        _("Coins {n}").format(n=player["coins"]), _("Grain {n}").format(n=player["grain"]),
        _("Living {n}").format(n=rules.living(player)), _("Black bag {n}").format(n=player["bag"]),
        _("Church {counts}").format(counts="/".join(map(str, player["windows"]))),
        _("Chronicle {n}").format(n=player["chronicle"]),
        _("Customers {n}").format(n=len(player["customers"])),
    ]


def _book_row(vm: ViewModel, label: str, *entries: tuple[str, ft.Control], width: int = 72) -> ft.Control:
    """A label and narrow entries side by side (each of a fixed width: a button fills what it is
    given), and below them the reason a tapped one is refused."""
    reasons = [error(vm.error_for(ident), f"error-{ident}") for ident, _control in entries if vm.error_for(ident)]
    return ft.Column([ft.Row([ft.Container(text(label, SMALL), width=64),
                              *[ft.Container(control, width=width) for _ident, control in entries]],
                             wrap=True, spacing=4, run_spacing=4), *reasons], spacing=4)


def _family_entries(shell: ShellView, colour: str, player: dict[str, Any]) -> list[ft.Control]:
    """The family's own actions (birth, the black bag, the next-start marker) and the time each
    action costs."""
    _ = shell.vm.t
    born = not any(player["supply"].values())
    return [
        ft.Column([
            entry(shell, "birth", _("Birth"), "birth",
                  Msg(N_("All 11 family members have been born.")) if born else None, player=colour),
            entry(shell, "church", _("Into the black bag"), "to-church",
                  Msg(N_("Every living family member is already in the church."))
                  if rules.in_church(player) >= rules.living(player) else None, player=colour),
            entry(shell, "next_marker", _("Next-start marker"), "next-marker", player=colour)], spacing=4),
        shell.fold("time-costs", _("Time by action"), [ft.Column([
            entry(shell, "time", label, f"time-{key}", player=colour, amount=rules.ACTION_TIME[key]) for key, label in (
                ("travel", _("Travel +2")), ("mill", _("Mill +2")), ("church", _("Church +3")),
                ("council", _("Council, new member +1")), ("wainwright", _("Wainwright +2")),
                ("stables", _("Stables +3")))], spacing=4)]),
    ]


def market_helper(shell: ShellView) -> tuple[list[ft.Control], ft.Control | None]:
    """The market day: whose turn, what a sale costs, passing is final; then the refill. A sale is what
    is handed in for the customer (goods, grain), then a tap on the prestige printed on him, which
    serves him (a value above the chips goes on a stepper and "Serve" in the bottom bar). Until
    something is handed in, the bottom bar ends the day: nobody sells any more (everyone passes)."""
    _, vm = shell.vm.t, shell.vm
    market = vm.game_state["market"]
    turn = market["turn"]
    free = turn == market["trigger"] and not market["free_used"]
    draft = shell.draft.setdefault("sale", {"prestige": None})
    draft.setdefault("grain", 0)
    draft.setdefault("goods", [])
    grain = vm.game_state["players"][turn]["grain"]

    def add(good: str) -> None:
        draft["goods"].append(good)
        shell.render()

    def clear(e: object) -> None:
        draft["goods"].clear()
        shell.render()

    def sell(prestige: int) -> None:
        shell.send("market_sell", "sale", player=turn, prestige=prestige, grain=min(draft["grain"], grain),
                   goods=list(draft["goods"]))

    handed = ", ".join(shell.game_text(f"good.{g}") for g in draft["goods"]) or "—"
    rows = [heading(_("Market day")),
            tid("market-turn", ft.Row([ft.Text(_("At the market:"), size=20), who(shell.player_name(turn), turn, 20)])),
            text(_("This sale is free.") if free else _("This sale costs 1 green cube and 1 time (added for you)."),
                 SMALL, color=ft.Colors.AMBER_200),
            # what is handed in so far, and (once there is some) clearing it on the same line
            ft.Row([ft.Container(text(_("Goods handed in (on the customer tile): {goods}").format(goods=handed),
                                      SMALL), expand=True),
                    *([tid("sale-goods-clear", ft.IconButton(ft.Icons.BACKSPACE_OUTLINED, tooltip=_("Clear the goods"),
                                                             width=TARGET, height=TARGET, on_click=clear))]
                      if draft["goods"] else [])], vertical_alignment=ft.CrossAxisAlignment.CENTER),
            ft.Row([tid(f"sale-good-{g}", ft.OutlinedButton(  # compact: the five in one row on a small phone
                content=ft.Text(f"+ {shell.game_text(f'good.{g}')}", size=SMALL), height=TARGET,
                style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=8)),
                on_click=lambda e, g=g: add(g))) for g in rules.GOODS], wrap=True, spacing=4, run_spacing=4),
            shell.problem("goods")]
    if grain:                       # a farmyard without grain has none to hand in
        rows += [pick("sale-grain", _("Grain handed in (on the customer tile)"), min(draft["grain"], grain), 0,
                      min(grain, rules.FARMYARD_GRAIN), lambda v: draft.update(grain=v)),
                 shell.problem("grain")]
    rows += [_sale_prestige(shell, draft, sell), shell.problem("prestige"),
             act(vm, "market_pass", _("Pass for the rest of the day"),
                 lambda e: vm.dispatch("market_pass", player=turn), "market-pass", player=turn, primary=False)]
    rows += _market_record(shell, market)
    if draft["prestige"] is not None:       # above the chips: the stepper's value is served from the bar
        primary = act(vm, "market_sell", _("Serve the customer ({n})").format(n=draft["prestige"]),
                      lambda e: sell(draft["prestige"]), "market-sell", player=turn, icon=ft.Icons.CHECK, bar=True)
    else:
        primary = act(vm, "market_end", _("Nobody sells any more: the day ends"), lambda e: vm.dispatch("market_end"),
                      "market-end", icon=ft.Icons.STOREFRONT, bar=True)
    controls = [card(rows, "market", highlight=True)]
    if vm.game_state["phase"] == "play":         # a member who dies during the market day may end the game
        controls.append(end_check(shell))
    return controls, primary


#: The customer's prestige chips before its stepper (count's own default).
CHIPS = 10


def _sale_prestige(shell: ShellView, draft: dict[str, Any], sell: Callable[[int], object]) -> ft.Control:
    """The customer's printed prestige: a chip serves him at once; "more" puts a value above the
    chips on a stepper (served from the bottom bar)."""
    _ = shell.vm.t
    chosen = draft["prestige"]

    def picked(n: int) -> None:
        if n > CHIPS or chosen is not None:
            draft["prestige"] = n
        else:
            sell(n)
    return count("sale", _("Serve: the prestige printed on the customer"), chosen, 0, rules.CUSTOMER_PRESTIGE_MAX,
                 picked, chips=CHIPS)


def _market_record(shell: ShellView, market: dict[str, Any]) -> list[ft.Control]:
    """The day so far (the customers served and what was paid, who has passed) and its rules."""
    _, vm = shell.vm.t, shell.vm
    rows: list[ft.Control] = []
    for sale in market["sales"]:
        paid = rules.payment(sale["grain"], sale["goods"])
        line = _("{name}: customer worth {n}").format(name=shell.player_name(sale["player"]), n=sale["prestige"])
        rows.append(text(line + (_(", paid: {paid}").format(paid=vm.msg(paid)) if paid else ""), SMALL))
    if market["passed"]:
        rows.append(text(_("Passed: {names}").format(names=", ".join(shell.player_name(c) for c in market["passed"])),
                         SMALL))
    rows.append(tid("market-rules", ft.ExpansionTile(title=ft.Text(_("Market day rules"), size=TEXT), min_tile_height=52,
                                                     controls=[text(shell.game_text("market.body"), SMALL),
                                                               text(shell.game_text("market.refill"), SMALL)])))
    return rows


def end_check(shell: ShellView) -> ft.Control:
    """Who took the last chronicle space or the last grave (also during a market day)."""
    _, vm = shell.vm.t, shell.vm
    return card([heading(_("End of the game")),
                 text(_("Did a family member just take the last chronicle space or the last grave? "
                        "Whose was it?"), SMALL),
                 choice_chips("end-trigger", [(p["colour"], p["name"]) for p in vm.game_session["config"]["players"]],
                              None, lambda c: vm.dispatch("end_trigger", player=c))], "end-check")


def action_rules(shell: ShellView) -> list[ft.Control]:
    _ = shell.vm.t
    tiles = [tid(f"action-{key}", ft.ExpansionTile(
        title=ft.Text(shell.game_text(f"action.{key}.title"), size=TEXT), min_tile_height=56,
        controls=[ft.Container(text(shell.game_text(f"action.{key}.body")), padding=12)]))
        for key in ("plague", "harvest", "family", "crafts", "market", "travel", "council", "church", "well",
                    "coins", "time")]
    return [heading(_("The actions")), *tiles]


# ----------------------------------------------------------------------------------------------
# The mass


def mass_screen(shell: ShellView) -> Screen:
    """The mass in its three parts: four pieces out of the bag (buy, then draw the rest), moving up,
    and the majority. Families with nothing to do in a part are not asked; a mass in which nobody can
    act is one tap."""
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    mass = state["mass"]
    players = config["players"]
    order = [players[(state["start"] + k) % len(players)] for k in range(len(players))]
    deaths, death_button = death_cards(shell)
    controls: list[ft.Control] = [*deaths, shell.problem()]
    mover = rules.mass_mover(state, config)
    if mass["drawn"] is None and not mass["bought"] and rules.mass_idle(state):
        part, bar = _mass_quiet(shell)
    elif mass["drawn"] is None:
        part, bar = _mass_out_of_bag(shell, order)
    elif mover:
        part, bar = _mass_move(shell, order, mover)
    else:
        part, bar = _mass_majority(shell)
    controls += part
    primary = death_button or bar()
    for p in order:
        book = state["players"][p["colour"]]
        controls.append(ft.Row([who(p["name"], p["colour"], SMALL),
                                text(_("windows {counts}, bag {bag}, grain {grain}").format(
                                    counts="/".join(map(str, book["windows"])), bag=book["bag"], grain=book["grain"]),
                                    SMALL)], wrap=True))
    return Screen(controls + shell.footer(), primary)


#: A part of the mass: its cards, and how to make its bottom-bar button (made only when no death comes first).
MassPart = tuple[list[ft.Control], Callable[[], ft.Control]]


def _mass_quiet(shell: ShellView) -> MassPart:
    """A mass in which nobody can act: one tap scores the majority."""
    _, vm = shell.vm.t, shell.vm
    final = vm.game_state["mass"]["final"]
    cards = [card([heading(_("Nobody can act in this mass")),
                   text(_("No family has a member in the black bag, and nobody can pay grain to move a "
                          "member up: the 4 pieces drawn are the monks."), SMALL),
                   text(_("+2 prestige for: {names}").format(names=_majority_names(shell))),
                   ], "mass-quiet", highlight=True)]
    return cards, lambda: act(vm, "mass_quiet", _("Majority, then the next round") if not final
                              else _("Majority, then the final scoring"),
                              lambda e: vm.dispatch("mass_quiet"), "mass-quiet-end", icon=ft.Icons.CHECK, bar=True)


def _mass_out_of_bag(shell: ShellView, order: list[dict[str, Any]]) -> MassPart:
    """Part 1: four pieces out of the bag: the families buy their members out, then the rest is drawn."""
    _, vm = shell.vm.t, shell.vm
    state = vm.game_state
    bought = sum(state["mass"]["bought"].values())
    in_bag = [p for p in order if state["players"][p["colour"]]["bag"]]
    rows = [heading(_("1. Four pieces out of the bag: buy your members")), _rule(shell, "mass.buy"),
            text(_("Out of the bag so far: {n} of 4").format(n=bought))]
    for p in in_bag:
        book = state["players"][p["colour"]]
        label = _("{name} buys one (1 coin; in the bag: {bag}, coins: {coins})").format(
            name=p["name"], bag=book["bag"], coins=book["coins"])
        rows.append(entry(shell, "mass_buy", label, f"buy-{p['colour']}",
            Msg(N_("{name} has no coin."), {"name": p["name"]}) if not book["coins"] else None, player=p["colour"]))
    if not in_bag:
        rows.append(text(_("Nobody can buy: no family member is in the bag."), SMALL))
    cards = [card(rows, "mass-buy")]
    draft = shell.draft.setdefault("draw", {"members": {}})
    rows = [heading(_("1. Four pieces out of the bag: draw the rest blind")), _rule(shell, "mass.draw")]
    for p in in_bag:
        rows.append(pick(f"draw-{p['colour']}", who(p["name"], p["colour"]), draft["members"].get(p["colour"], 0),
                         0, min(state["players"][p["colour"]]["bag"], rules.MASS_PIECES - bought),
                         setter(draft["members"], p["colour"])))
    monks = rules.MASS_PIECES - bought - sum(draft["members"].values())
    rows.append(tid("monks", text(_("Monks drawn (back into the bag): {n}").format(n=max(monks, 0)), SMALL)))
    cards.append(card(rows, "mass-draw-card"))
    return cards, lambda: act(vm, "mass_draw", _("Record the draw"), lambda e: shell.send(
        "mass_draw", "draw", members=dict(draft["members"]), monks=monks), "mass-draw", icon=ft.Icons.CHECK,
        bar=True)


def _mass_move(shell: ShellView, order: list[dict[str, Any]], mover: str) -> MassPart:
    """Part 2: the family on turn moves its members up, paying grain; the others wait or cannot move."""
    _, vm = shell.vm.t, shell.vm
    state = vm.game_state
    p = next(q for q in order if q["colour"] == mover)
    book = state["players"][p["colour"]]
    draft = shell.draft.setdefault(f"move-{p['colour']}", {"source": None, "target": None, "grain": None})
    rows = [heading(_("2. Move up: {name}").format(name=p["name"])), _rule(shell, "mass.move"),
            text(_("Church windows: {counts} · grain: {grain}").format(
                counts="/".join(map(str, book["windows"])), grain=book["grain"]), SMALL),
            text(_("From"), SMALL),
            choice_chips("move-from", [(str(i), _window(shell, i)) for i in range(3) if book["windows"][i]],
                         None if draft["source"] is None else str(draft["source"]),
                         setter(draft, "source", shell.render, int)),
            text(_("To"), SMALL),
            choice_chips("move-to", [(str(i), _window(shell, i)) for i in range(1, 4)
                                     if draft["source"] is None or i > draft["source"]],
                         None if draft["target"] is None else str(draft["target"]),
                         setter(draft, "target", shell.render, int)),
            pick("move-grain", _("Grain paid (see the board)"), draft["grain"], 0,
                 min(book["grain"], rules.FARMYARD_GRAIN), setter(draft, "grain")),
            shell.problem("grain"), shell.problem("target"), shell.problem("source"),
            act(vm, "mass_move", _("Move"), lambda e, c=p["colour"], d=draft: shell.send(
                "mass_move", f"move-{c}", player=c, source=d["source"], target=d["target"],
                grain=d["grain"] or 0), "mass-move", player=p["colour"], primary=False)]
    waiting = [q["name"] for q in order if q["colour"] not in state["mass"]["moved"] and q is not p
               and not rules.can_move(state["players"][q["colour"]])]
    if waiting:
        rows.append(text(_("Cannot move up (no member to move or no grain): {names}").format(
            names=", ".join(waiting)), SMALL))
    return [card(rows, "mass-move-card")], lambda: act(
        vm, "mass_done", _("{name} is done").format(name=p["name"]),
        lambda e, c=p["colour"]: vm.dispatch("mass_done", player=c), "mass-done",
        player=p["colour"], icon=ft.Icons.CHECK, bar=True)


def _mass_majority(shell: ShellView) -> MassPart:
    """Part 3: the majority bonus, then the mass ends."""
    _, vm = shell.vm.t, shell.vm
    rows = [heading(_("3. The majority")), _rule(shell, "mass.majority"),
            text(_("+2 prestige for: {names}").format(names=_majority_names(shell)))]
    return [card(rows, "mass-end-card")], lambda: act(vm, "mass_end", _("End the mass"),
                                                      lambda e: vm.dispatch("mass_end"), "mass-end",
                                                      icon=ft.Icons.CHECK, bar=True)


def _rule(shell: ShellView, key: str) -> ft.Control:
    """A part of the mass's rule, folded to one line."""
    _ = shell.vm.t
    return tid(f"rule-{key}", ft.ExpansionTile(title=ft.Text(_("Rules of this part"), size=TEXT), min_tile_height=52,
                                               controls=[text(shell.game_text(key), SMALL)]))


def _majority_names(shell: ShellView) -> str:
    winners = rules.mass_majority({c: b["windows"] for c, b in shell.vm.game_state["players"].items()})
    return ", ".join(shell.player_name(c) for c in winners) or "—"


# ----------------------------------------------------------------------------------------------
# Final scoring


def final_screen(shell: ShellView) -> Screen:
    _, vm = shell.vm.t, shell.vm
    config = vm.game_session["config"]
    draft = shell.draft.setdefault("final", {p["colour"]: {"cities_visited": 0, "council": [0, 0, 0, 0]}
                                             for p in config["players"]})
    controls: list[ft.Control] = [text(_("Count on the board what the app cannot know: each family's travel markers "
                                         "and its members on the council stages. Everything else comes from the "
                                         "books."), SMALL), shell.problem()]
    for p in config["players"]:
        entry = draft[p["colour"]]
        rows = [ft.Row([who(p["name"], p["colour"], 20)]),
                pick(f"cities-{p['colour']}", _("Cities visited (travel markers)"), entry["cities_visited"], 0,
                     rules.TRAVEL_MARKERS, setter(entry, "cities_visited")),
                shell.problem(f"{p['colour']}.cities_visited")]
        for stage in range(4):
            rows.append(Stepper(f"council-{p['colour']}-{stage + 1}", _("Council stage {n}").format(n=stage + 1),
                                entry["council"][stage], 0, rules.MEMBERS,
                                setter(entry["council"], stage), big=0).control)
        rows.append(shell.problem(f"{p['colour']}.council"))
        controls.append(card(rows, f"final-{p['colour']}"))
    finish = act(vm, "finish", _("Show the winner"), lambda e: shell.send(
        "finish", "final", players={c: {"cities_visited": v["cities_visited"], "council": list(v["council"])}
                                    for c, v in draft.items()}), "finish", icon=ft.Icons.EMOJI_EVENTS, bar=True)
    return Screen(controls + shell.footer(), finish)


#: What the shell asks of this game's screens (companion/ui/screen_contract.py).
SCREENS = GameScreenHooks(
    new_game_form=new_game_form,
    round_screen=round_screen,
    category=category,
    final_screen=final_screen,
)
