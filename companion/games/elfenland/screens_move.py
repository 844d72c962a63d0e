"""Elfenland screens: the move helper (FACTS §5, moving; Elfengold's gold roads, Elf wizards and the
gold taken) and the road-cost table. The mover taps the towns reached in order; the town he is in is
never offered (`rules.destinations`)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from . import rules
from ...ui.screen_contract import ShellView
from ...ui.widgets import SMALL, TARGET, TEXT, act, card, choice_chips, count, text, tid
from .screens_pieces import bank_short, gold_game, small_button, town_name


def move_helper(shell: ShellView) -> tuple[list[ft.Control], ft.Control | None]:
    """The mover (in the header) taps the towns reached in order and marks the last road's gold tile or a
    flying carpet; the bottom bar takes the gold (or, in the base game, ends the move). Before any town
    is tapped, the bar's entry is "Nobody (else) moves"."""
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    controls: list[ft.Control] = []
    last = state["last_move"]
    if last:
        controls.append(tid("last-move", text(_move_story(shell, last), SMALL)))
    if all(p["moved"] for p in state["players"].values()):
        controls.append(text(_("Everyone has moved.")))
        return controls, None
    mover = rules.colour_at(config, state["turn"])
    draft = shell.draft.get("move")
    if not draft or draft["for"] != (state["round"], mover):      # a move entered on another phone meanwhile
        draft = shell.draft["move"] = {"for": (state["round"], mover), "visits": [], "obstacles": 0, "gold_cards": 0}
    visits = draft["visits"]
    # the route first (not moving in its place before any town is tapped), then what the move takes
    controls.append(card(_route(shell, draft, state["players"][mover]["at"], mover), "move", highlight=True))
    roads = sum(not v["carpet"] for v in visits)
    draft["obstacles"] = min(draft["obstacles"], roads)           # a road holds at most one obstacle
    cost = rules.WIZARD_OBSTACLE * draft["obstacles"] + rules.WIZARD_CARPET * sum(v["carpet"] for v in visits)
    earned = rules.move_gold(visits)[0]
    paid = min(earned, rules.bank(state) + cost)           # the wizards are paid to the bank first
    if gold_game(shell):
        controls.append(card(_take(shell, mover, roads, cost, paid, earned), "take"))
    return controls, _move_done(shell, mover, cost, paid)


def _route(shell: ShellView, draft: dict, here: str, mover: str) -> list[ft.Control]:
    """The route so far, the marks for the last town reached (taken back, gold road, flying carpet), or
    before any town is tapped not moving, and the towns a road leads to from the last one (compact: all
    of them in sight with the route on a small phone: by name, the route says what each pays)."""
    _, vm = shell.vm.t, shell.vm
    visits = draft["visits"]
    route = ", ".join(_visit(shell, v) for v in visits) or _("tap the towns reached, in order")
    towns = [small_button(shell.game_text(f"town.{t}"), lambda e, t=t: (visits.append({"town": t, "gold_road": False,
                                                                           "carpet": False}), shell.render()),
                           f"town-{t}", size=SMALL, padding=6)
             for t in rules.destinations(visits[-1]["town"] if visits else here)]
    if visits:
        marks = _marks(shell, visits)
    else:
        pass_label = (_("{name} does not move (draws 2 cards)") if gold_game(shell)
                      else _("{name} does not move")).format(name=shell.player_name(mover))
        marks = [act(vm, "pass_move", pass_label, lambda e: _send_pass(shell, mover), "pass-move", player=mover,
                     primary=False)]
    return [
        tid("route", text(_("From {town}: {route}").format(town=shell.game_text(f"town.{here}"), route=route),
                          SMALL)),
        ft.Row(marks, wrap=True, spacing=4, run_spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        shell.problem("visits"),
        ft.Row(towns, wrap=True, spacing=4, run_spacing=4),
    ]


def _marks(shell: ShellView, visits: list[dict[str, Any]]) -> list[ft.Control]:
    """The marks of the last town reached: taken back, its road had a gold tile, a carpet flew there."""
    _ = shell.vm.t
    lastone = visits[-1]

    def flip(key: str) -> Callable[[object], None]:
        def handler(e: object) -> None:
            assert lastone is not None  # offered only once a town is reached
            lastone[key] = not lastone[key]
            if lastone[key]:
                lastone["carpet" if key == "gold_road" else "gold_road"] = False
            shell.render()
        return handler

    marks = [tid("visit-back", ft.IconButton(ft.Icons.BACKSPACE_OUTLINED, tooltip=_("Take back the last town"),
                                             width=TARGET, height=TARGET,
                                             on_click=lambda e: (visits.pop(), shell.render())))]
    if gold_game(shell):
        marks.append(small_button(_("Gold road"), flip("gold_road"), "gold-road", filled=lastone["gold_road"],
                                   size=SMALL, padding=8))
    if shell.vm.game_session["config"]["wizards"]:
        marks.append(small_button(_("Flying carpet"), flip("carpet"), "carpet", filled=lastone["carpet"],
                                   size=SMALL, padding=8))
    return marks


def _take(shell: ShellView, mover: str, roads: int, cost: int, paid: int, earned: int) -> list[ft.Control]:
    """Elfengold's side of the move: obstacles passed with a wizard card, what the wizards cost, a bank
    that cannot pay the move's gold in full, gold cards drawn, and 2 cards instead of the gold (once a
    town is tapped; not moving stands in the route's card)."""
    _, vm = shell.vm.t, shell.vm
    state, draft = vm.game_state, shell.draft["move"]
    name = shell.player_name(mover)
    rows: list[ft.Control] = []
    if vm.game_session["config"]["wizards"] and roads:
        rows.append(count("wizard-obstacles", _("Obstacles passed with a wizard card (1 gold each)"),
                          draft["obstacles"], 0, roads, lambda v: draft.update(obstacles=v)))
    if cost:
        rows.append(text(_("Wizard cards cost {n} gold; {name} holds {gold}.").format(
            n=cost, name=name, gold=state["players"][mover]["gold"]), SMALL))
    if paid < earned:
        rows.append(bank_short(shell, paid))
    return rows + [shell.problem("wizard_obstacles"),
                   count("gold-cards", _("Gold cards among the cards drawn (they go onto the gold pile)"),
                         draft["gold_cards"], 0, rules.GOLD_CARDS - state["gold_pile"],
                         lambda v: draft.update(gold_cards=v), chips=2),
                   shell.problem("gold_cards"),
                   *([act(vm, "move", _("Draw 2 cards instead"), lambda e: _send_move(shell, mover, "cards"),
                          "take-cards", player=mover, primary=False)] if draft["visits"] else [])]


def _move_done(shell: ShellView, mover: str, cost: int, paid: int) -> ft.Control:
    """The bottom bar's entry: take the gold (Elfengold) or end the move, or before any town is tapped,
    "Nobody (else) moves"."""
    _, vm = shell.vm.t, shell.vm
    if shell.draft["move"]["visits"]:
        if gold_game(shell):
            label = (_("Take {gold} gold").format(gold=paid) if not cost else
                     _("Take {gold} gold, pay {cost} for the wizards").format(gold=paid, cost=cost))
            return act(vm, "move", label, lambda e: _send_move(shell, mover, "gold"), "take-gold", player=mover,
                       icon=ft.Icons.CHECK, bar=True)
        return act(vm, "move", _("Move done"), lambda e: _send_move(shell, mover, None), "move-done",
                   player=mover, icon=ft.Icons.CHECK, bar=True)
    waiting = rules.waiting_movers(vm.game_state, vm.game_session["config"])
    label = _("Nobody moves") if len(waiting) == len(vm.game_session["config"]["players"]) else _("Nobody else moves")
    return act(vm, "nobody_moves", label, lambda e: vm.dispatch("nobody_moves", players=waiting),
               "nobody-moves", icon=ft.Icons.SKIP_NEXT, bar=True)


def _visit(shell: ShellView, visit: dict) -> str:
    _ = shell.vm.t
    name = town_name(shell, visit["town"])
    if visit["carpet"]:
        return _("{town} (flying carpet)").format(town=shell.game_text(f"town.{visit['town']}"))
    return _("{town} (gold road: ×2)").format(town=name) if visit["gold_road"] else name


def _send_move(shell: ShellView, mover: str, take: str | None) -> None:
    draft = shell.draft["move"]
    args = {"player": mover, "visits": [dict(v) for v in draft["visits"]]}
    if take:
        args.update(take=take, wizard_obstacles=draft["obstacles"])
    if take == "cards":
        args["gold_cards"] = draft["gold_cards"]
    shell.send("move", "move", **args)


def _send_pass(shell: ShellView, mover: str) -> None:
    """Not moving: in Elfengold the player draws 2 cards, and gold cards among them go onto the pile."""
    args = {"player": mover, "gold_cards": shell.draft["move"]["gold_cards"]} if gold_game(shell) else {"player": mover}
    shell.send("pass_move", "move", **args)


def _move_story(shell: ShellView, last: dict) -> str:
    _ = shell.vm.t
    name = shell.player_name(last["player"])
    if not last["visits"]:
        return _("{name} does not move.").format(name=name)
    towns = ", ".join(shell.game_text(f"town.{v['town']}") for v in last["visits"])
    line = _("{name} travels to {towns}; new town pieces: {n}.").format(name=name, towns=towns, n=len(last["new"]))
    if last["take"] == "gold":
        line += " " + _("Gold: +{gold}.").format(gold=last["earned"])
    elif last["take"] == "cards":
        line += " " + _("Draws 2 cards instead of gold.")
    if last["cost"]:
        line += " " + _("Wizard costs: {n} gold.").format(n=last["cost"])
    return line


def road_costs(shell: ShellView) -> ft.Control:
    """How many travel cards a road takes: terrain, transport and obstacle."""
    _ = shell.vm.t
    draft = shell.draft.setdefault("road", {"road": "plains", "transport": "giant_pig", "obstacle": False})
    water = draft["road"] in rules.WATERS
    cards = rules.road_cost(draft["road"], None if water or draft["transport"] == "caravan" else draft["transport"],
                            draft["obstacle"])
    result = (_("Not possible with this transport.") if cards is None else
              _("{n} travel cards").format(n=cards))
    rows: list[ft.Control] = [choice_chips("road",
                                           [(r, shell.game_text(f"terrain.{r}"))
                                            for r in (*rules.TERRAINS, *rules.WATERS)],
                         draft["road"], lambda v: (draft.update(road=v), shell.render()))]
    if not water:
        rows.append(choice_chips("transport", [*[(t, shell.game_text(f"tile.{t}")) for t in rules.TRANSPORTS],
                                               ("caravan", _("Caravan (any cards)"))],
                                 draft["transport"], lambda v: (draft.update(transport=v), shell.render())))
    rows += [choice_chips("obstacle", [("no", _("No obstacle")), ("yes", _("Obstacle"))],
                          "yes" if draft["obstacle"] else "no",
                          lambda v: (draft.update(obstacle=v == "yes"), shell.render())),
             tid("road-cost", text(result, weight=ft.FontWeight.BOLD))]
    return tid("road-costs", ft.ExpansionTile(title=ft.Text(_("Travel cards for a road"), size=TEXT),
                                              min_tile_height=56, controls=rows))
