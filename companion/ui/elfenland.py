"""Elfenland and Elfengold screens: the new-game form, the round guide phase by phase with the gold
pile, the tile auction, the move helper (towns, gold roads, Elf wizards) and the road-cost table, the
ledgers with the town race, and the final scoring."""
from __future__ import annotations

import flet as ft

from ..engine import auction as bidding
from ..games import elfenland as rules
from .widgets import (Screen, create_button, ACCENT, SMALL, TARGET, TEXT, Stepper, button, card, choice_chips, heading, reminder, text, tid, title,
                      who)

GAME = rules.ID


def category(shell, key: str) -> str:
    _ = shell.vm.t
    return {"towns": _("Town pieces")}.get(key, key)


def new_game_form(shell, game_id: str) -> Screen:
    _ = shell.vm.t
    form = shell.draft.setdefault("new", {"count": 3, "start": 0, "variant": "elfengold", "wizards": False,
                                          "players": [{"name": "", "colour": c} for c in rules.COLOURS]})
    players = form["players"][:form["count"]]

    def update(**changes):
        form.update(changes)
        if form["variant"] != "elfengold":
            form["wizards"] = False
        shell.render()

    controls = [
        heading(_("Game")),
        choice_chips("variant", [(v, shell.game_text(f"variant.{v}")) for v in ("elfengold", "base")],
                     form["variant"], lambda v: update(variant=v)),
    ]
    if form["variant"] == "elfengold":
        on = form["wizards"]
        controls.append(button(shell.game_text("variant.wizards"), lambda e: update(wizards=not on), "wizards",
                               primary=on, icon=ft.Icons.CHECK_BOX if on else ft.Icons.CHECK_BOX_OUTLINE_BLANK))
    controls += [
        heading(_("Number of players")),
        choice_chips("count", [(str(n), str(n)) for n in range(2, 7)], str(form["count"]),
                     lambda v: update(count=int(v), start=min(form["start"], int(v) - 1))),
        *shell.seat_fields(form, players, rules.COLOURS, lambda c: shell.game_text(f"colour.{c}")),
        shell.problem(),
    ]
    return Screen(controls, create_button(shell, lambda e: _create(shell, game_id, form, players)))


def _create(shell, game_id: str, form: dict, players: list) -> None:
    config = {"start": form["start"], "variant": form["variant"], "wizards": form["wizards"],
              "players": [dict(p) for p in players]}
    if shell.vm.new_game(game_id, config):
        shell.draft = {}


# ----------------------------------------------------------------------------------------------
# Small pieces


def _gold_game(shell) -> bool:
    return shell.vm.session["config"]["variant"] == "elfengold"


def _town(shell, town: str) -> str:
    """A town by name, with its gold disc in Elfengold."""
    name = shell.game_text(f"town.{town}")
    return f"{name} {rules.GOLD_DISCS[town]}" if _gold_game(shell) and town in rules.GOLD_DISCS else name


def _race(shell) -> ft.Control:
    """Every player's town pieces (of 20) and gold: the race at a glance."""
    _, vm = shell.vm.t, shell.vm
    rows = []
    for p in vm.session["config"]["players"]:
        ledger = vm.state["players"][p["colour"]]
        line = _("{towns}/20 towns").format(towns=len(ledger["towns"]))
        if _gold_game(shell):
            line += " · " + _("{gold} gold").format(gold=ledger["gold"])
        rows.append(tid(f"race-{p['colour']}", ft.Row([ft.Container(who(p["name"], p["colour"]), expand=True),
                                                       ft.Text(line, size=SMALL)])))
    return card(rows, "race")


# ----------------------------------------------------------------------------------------------
# The round


def round_screen(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.state, vm.session["config"]
    variant = config["variant"]
    phases = rules.PHASES[variant]
    current = state["step"]
    key = f"step.{variant}.{current}"
    start = config["players"][state["start"]]
    controls: list[ft.Control] = [
        tid("round-head", text(_("Round {round} of {rounds}").format(round=state["round"], rounds=rules.rounds(config)),
                               20, weight=ft.FontWeight.BOLD)),
        ft.Row([text(_("Start player:")), who(start["name"], start["colour"])], wrap=True),
        ft.Row([tid(f"phase-{p}", ft.Container(
            ft.Text(str(i + 1), size=TEXT, weight=ft.FontWeight.BOLD, color=ft.Colors.BLACK if p == current else None),
            width=42, height=42, border_radius=21, alignment=ft.Alignment.CENTER,
            bgcolor=ACCENT if p == current else None, border=ft.Border.all(1, ACCENT)))
            for i, p in enumerate(phases)], spacing=6, wrap=True),
        card([heading(shell.game_text(f"{key}.title")), text(shell.game_text(f"{key}.body"), SMALL),
              reminder(shell.game_text(f"{key}.remind"))], "phase-card"),
        shell.problem(),
    ]
    if current == "auction":
        controls += _auction(shell)
    if current == "move":
        controls += _move(shell)
    if variant == "elfengold" and current in ("draw", "move"):
        controls.append(_gold_pile(shell))
    if current in ("plan", "move"):
        controls.append(_road_costs(shell))
    controls.append(_race(shell))
    if current == "end":
        label = _("End the round")
    else:
        label = _("Next phase: {phase}").format(phase=shell.game_text(
            f"step.{variant}.{phases[phases.index(current) + 1]}.title"))
    controls += [button(label, lambda e: vm.dispatch("next_phase"), "next-phase", icon=ft.Icons.ARROW_FORWARD),
                 *shell.footer()]
    return controls


def _gold_pile(shell) -> ft.Control:
    """Gold cards revealed go onto the gold pile; taking it pays 3 gold per card."""
    _, vm = shell.vm.t, shell.vm
    pile = vm.state["gold_pile"]
    rows = [heading(_("Gold pile")),
            tid("gold-pile", text(_("{n} gold cards: worth {gold} gold").format(
                n=pile, gold=pile * rules.GOLD_PER_CARD))),
            button(_("A gold card goes onto the pile"), lambda e: vm.dispatch("gold_card"), "gold-card",
                   primary=False, icon=ft.Icons.ADD)]
    if pile:
        rows += [text(_("Takes the gold pile:"), SMALL),
                 choice_chips("take-pile", [(p["colour"], p["name"]) for p in vm.session["config"]["players"]], None,
                              lambda c: vm.dispatch("take_pile", player=c))]
    return card(rows, "gold")


def _auction(shell) -> list[ft.Control]:
    """The row of 2 × players tiles, then one auction per tile."""
    _, vm = shell.vm.t, shell.vm
    state, config = vm.state, vm.session["config"]
    n = 2 * len(config["players"])
    controls: list[ft.Control] = []
    for sale in state["sold"]:
        controls.append(text(_sale(shell, sale), SMALL))
    if not state["row"]:
        row = shell.draft.setdefault("row", [])
        rows = [heading(_("Turn up {n} tiles").format(n=n)),
                text(_("Tap each tile as it is turned up, in order:"), SMALL),
                choice_chips("row", [(k, shell.game_text(f"tile.{k}")) for k in rules.POOL], None,
                             lambda k: (row.append(k) if len(row) < n else None, shell.render())),
                tid("row-list", text(", ".join(shell.game_text(f"tile.{k}") for k in row) or "–", SMALL)),
                shell.problem("tiles")]
        if row:
            rows.append(button(_("Take back the last one"), lambda e: (row.pop(), shell.render()), "row-back",
                               primary=False))
        if len(row) == n:
            rows.append(button(_("Auction these tiles"), lambda e: shell.send("reveal", "row", tiles=list(row)),
                               "reveal"))
        controls.append(card(rows, "row"))
        return controls
    a = state["auction"]
    if not a:
        controls.append(text(_("Every tile of the row has been auctioned."), SMALL))
        return controls
    bidder = a["next"]
    draft = shell.draft.get("bid")
    if not draft or draft["at"] != (state["next_tile"], len(a["log"]), len(state["sold"])):
        draft = shell.draft["bid"] = {"at": (state["next_tile"], len(a["log"]), len(state["sold"])),
                                      "amount": bidding.lowest_bid(a)}

    def change(e) -> None:
        value = (e.control.value or "").strip()
        draft["amount"] = int(value) if value.isdigit() else value

    rows = [heading(_("Tile {k} of {n}: {tile}").format(k=state["next_tile"] + 1, n=n,
                                                        tile=shell.game_text(f"tile.{a['lot']['tile']}"))),
            text(_("The start player opens; a pass is final for this tile."), SMALL)]
    if a["skipped"]:
        rows.append(text(_("Without gold, no bid: {names}").format(
            names=", ".join(shell.player_name(s["player"]) for s in a["skipped"])), SMALL))
    for entry in a["log"]:
        rows.append(text(_("{name} bids {n}").format(name=shell.player_name(entry["player"]), n=entry["bid"])
                         if "bid" in entry else _("{name} passes").format(name=shell.player_name(entry["player"])),
                         SMALL))
    rows += [tid("bidder", ft.Row([text(_("To bid:")), who(shell.player_name(bidder), bidder)], wrap=True)),
             text(_("Holds {gold} gold.").format(gold=state["players"][bidder]["gold"]), SMALL),
             tid("bid-amount", ft.Row([ft.TextField(label=_("Amount of the bid"), value=str(draft["amount"]),
                                                    text_size=TEXT, expand=True, keyboard_type=ft.KeyboardType.NUMBER,
                                                    error=vm.error_for("amount"), on_change=change)])),
             ft.Row([tid("bid", ft.FilledButton(content=ft.Text(_("Bid"), size=TEXT), height=TARGET, expand=True,
                                                on_click=lambda e: shell.send("bid", "bid", player=bidder,
                                                                              amount=draft["amount"]))),
                     tid("pass-bid", ft.OutlinedButton(content=ft.Text(_("Pass"), size=TEXT), height=TARGET,
                                                       expand=True,
                                                       on_click=lambda e: vm.dispatch("pass_bid", player=bidder)))])]
    controls.append(card(rows, "auction", highlight=True))
    return controls


def _sale(shell, sale: dict) -> str:
    _ = shell.vm.t
    tile = shell.game_text(f"tile.{sale['tile']}")
    if not sale["winner"]:
        return _("{tile}: nobody bid, back to the pool.").format(tile=tile)
    name = shell.player_name(sale["winner"])
    if sale.get("broke"):
        return _("{tile}: {name} bid {price} but cannot pay: he gives all his gold ({lost}) to the bank and the "
                 "tile is auctioned again.").format(tile=tile, name=name, price=sale["price"], lost=sale["lost"])
    return _("{tile}: {name} pays {price} gold.").format(tile=tile, name=name, price=sale["price"])


# ----------------------------------------------------------------------------------------------
# Moving


def _move(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.state, vm.session["config"]
    controls: list[ft.Control] = []
    last = state["last_move"]
    if last:
        controls.append(card([text(_move_story(shell, last), SMALL)], "last-move"))
    if all(p["moved"] for p in state["players"].values()):
        controls.append(text(_("Everyone has moved."), SMALL))
        return controls
    mover = rules.colour_at(config, state["turn"])
    here = state["players"][mover]["at"]
    draft = shell.draft.setdefault("move", {"visits": [], "obstacles": 0, "gold_cards": 0})
    visits = draft["visits"]
    gold_game = _gold_game(shell)
    rows = [tid("mover", ft.Row([text(_("Moving:")), who(shell.player_name(mover), mover)], wrap=True)),
            text(_("From {town}. Tap the towns reached, in order:").format(town=shell.game_text(f"town.{here}")),
                 SMALL),
            choice_chips("town", [(t, _town(shell, t)) for t in rules.TOWN_LIST], None,
                         lambda t: (visits.append({"town": t, "gold_road": False, "carpet": False}), shell.render()))]
    for i, visit in enumerate(visits):
        line = [text(f"{i + 1}. {_town(shell, visit['town'])}")]
        if gold_game:
            line.append(_toggle(shell, f"gold-road-{i}", _("gold road"), visit, "gold_road"))
        if config["wizards"]:
            line.append(_toggle(shell, f"carpet-{i}", _("carpet"), visit, "carpet"))
        rows.append(ft.Row(line, wrap=True, spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    rows.append(shell.problem("visits"))
    if visits:
        rows.append(button(_("Take back the last town"), lambda e: (visits.pop(), shell.render()), "visit-back",
                           primary=False))
    if config["wizards"]:
        rows += [Stepper("wizard-obstacles", _("Obstacles passed with a wizard card (1 gold each)"),
                         draft["obstacles"], 0, 20, lambda v: draft.update(obstacles=v)).control,
                 shell.problem("wizard_obstacles")]
    if gold_game:
        earned = rules.move_gold(visits)[0]
        cost = rules.WIZARD_CARPET * sum(v["carpet"] for v in visits)
        rows.append(tid("move-gold", text(_("This move earns {gold} gold.").format(gold=earned), weight=ft.FontWeight.BOLD)))
        if cost:
            rows.append(text(_("Flying carpets cost {n} gold.").format(n=cost), SMALL))
        rows += [button(_("Take {gold} gold").format(gold=earned), lambda e: _send_move(shell, mover, "gold"),
                        "take-gold", disabled=not visits),
                 Stepper("gold-cards", _("Gold cards among the cards drawn (they go onto the gold pile)"),
                         draft["gold_cards"], 0, rules.GOLD_CARDS, lambda v: draft.update(gold_cards=v)).control,
                 shell.problem("gold_cards"),
                 button(_("Draw 2 cards instead"), lambda e: _send_move(shell, mover, "cards"), "take-cards",
                        primary=False, disabled=not visits)]
    else:
        rows.append(button(_("Move done"), lambda e: _send_move(shell, mover, None), "move-done", disabled=not visits))
    rows.append(button(_("Does not move (draws 2 cards)") if gold_game else _("Does not move"),
                       lambda e: _send_pass(shell, mover, gold_game), "pass-move", primary=False))
    controls.append(card(rows, "move", highlight=True))
    return controls


def _toggle(shell, ident: str, label: str, visit: dict, key: str) -> ft.Control:
    on = visit[key]

    def flip(e) -> None:
        visit[key] = not on
        if visit[key]:
            visit["carpet" if key == "gold_road" else "gold_road"] = False
        shell.render()

    return tid(ident, (ft.FilledButton if on else ft.OutlinedButton)(
        content=ft.Text(label, size=SMALL), height=TARGET, on_click=flip))


def _send_move(shell, mover: str, take: str | None) -> None:
    draft = shell.draft["move"]
    args = {"player": mover, "visits": [dict(v) for v in draft["visits"]]}
    if take:
        args.update(take=take, wizard_obstacles=draft["obstacles"])
    if take == "cards":
        args["gold_cards"] = draft["gold_cards"]
    shell.send("move", "move", **args)


def _send_pass(shell, mover: str, gold_game: bool) -> None:
    """Not moving: in Elfengold the player draws 2 cards, and gold cards among them go onto the pile."""
    args = {"player": mover, "gold_cards": shell.draft["move"]["gold_cards"]} if gold_game else {"player": mover}
    shell.send("pass_move", "move", **args)


def _move_story(shell, last: dict) -> str:
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


def _road_costs(shell) -> ft.Control:
    """How many travel cards a road takes: terrain, transport and obstacle."""
    _ = shell.vm.t
    draft = shell.draft.setdefault("road", {"road": "plains", "transport": "giant_pig", "obstacle": False})
    water = draft["road"] in rules.WATERS
    cards = rules.road_cost(draft["road"], None if water or draft["transport"] == "caravan" else draft["transport"],
                            draft["obstacle"])
    result = (_("Not possible with this transport.") if cards is None else
              _("{n} travel cards").format(n=cards))
    rows = [choice_chips("road", [(r, shell.game_text(f"terrain.{r}")) for r in (*rules.TERRAINS, *rules.WATERS)],
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


# ----------------------------------------------------------------------------------------------
# Ledgers and the end


def scores_screen(shell) -> list[ft.Control]:
    """Every player's town pieces (which towns) and gold, with corrections."""
    _, vm = shell.vm.t, shell.vm
    controls: list[ft.Control] = [
        title(_("Ledgers")),
        _race(shell),
    ]
    families = [p["colour"] for p in vm.session["config"]["players"]]
    draft = shell.draft.setdefault("ledger", {"player": families[0], "delta": 0, "reason": ""})
    player = draft["player"]
    collected = vm.state["players"][player]["towns"]
    rows = [heading(_("Correct a ledger")),
            choice_chips("ledger-player", [(c, shell.player_name(c)) for c in families], player,
                         lambda c: (draft.update(player=c), shell.render())),
            text(_("Town pieces collected (tap to change):"), SMALL),
            ft.Row([tid(f"town-{t}", (ft.FilledButton if t in collected else ft.OutlinedButton)(
                content=ft.Text(shell.game_text(f"town.{t}"), size=SMALL), height=TARGET,
                on_click=lambda e, t=t: vm.dispatch("town", player=player, town=t, collected=t not in collected)))
                for t in sorted(rules.GOLD_DISCS)], wrap=True, spacing=6, run_spacing=6)]
    if _gold_game(shell):
        def save(e) -> None:
            if vm.dispatch("adjust", player=player, delta=draft["delta"], reason=draft["reason"]):
                shell.draft.pop("ledger", None)
                vm.go("scores")

        reason = ft.TextField(label=_("Reason"), value=draft["reason"], text_size=TEXT, expand=True,
                              on_change=lambda e: draft.update(reason=e.control.value), error=vm.error_for("reason"))
        rows += [Stepper("adjust-delta", _("Gold (+ or −)"), draft["delta"], -99, 99,
                         lambda v: draft.update(delta=v)).control,
                 shell.problem("delta"), tid("adjust-reason", ft.Row([reason])),
                 button(_("Save the correction"), save, "adjust-save")]
    for c in vm.state["corrections"]:
        rows.append(text(_("Correction {points:+d}: {reason}").format(points=c["points"], reason=c["reason"]), SMALL,
                         color=ft.Colors.GREY_400))
    controls.append(card(rows, "ledger"))
    return controls


def final_screen(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.state, vm.session["config"]
    controls: list[ft.Control] = [title(_("Final scoring")), _race(shell)]
    if config["variant"] == "base":
        counts = shell.draft.setdefault("cards", {c: state["players"][c]["cards"] for c in state["players"]})
        rows = [text(shell.game_text("final.cards"), SMALL)]
        for p in config["players"]:
            rows.append(Stepper(f"cards-{p['colour']}", who(p["name"], p["colour"]), counts[p["colour"]], 0,
                                rules.HAND_AFTER_MOVE, lambda v, c=p["colour"]: counts.update({c: v})).control)
        rows.append(button(_("Save the counts"), lambda e: shell.send("cards", "cards", cards=dict(counts)),
                           "save-cards", primary=False))
        controls.append(card(rows, "cards"))
    result = vm.game.result(state, config)
    rows = [heading(_("Review")), text(shell.game_text("final.review"), SMALL)]
    rows += [text(vm.msg(line), SMALL) for line in result["explain"]]
    controls += [card(rows, "review"), shell.problem(),
                 button(_("Show the winner"), lambda e: vm.dispatch("finish"), "finish", icon=ft.Icons.EMOJI_EVENTS),
                 *shell.footer()]
    return controls


def on_turn(shell) -> str | None:
    """The player moving now (table mode highlights it on his phone)."""
    state = shell.vm.state
    if state["phase"] != "play" or state["step"] != "move" or all(p["moved"] for p in state["players"].values()):
        return None
    return rules.colour_at(shell.vm.session["config"], state["turn"])
