"""Elfenland and Elfengold screens: the new-game form, the round guide phase by phase with the gold
pile, the tile auction, the move helper (towns, gold roads, Elf wizards) and the road-cost table (both
in screens_move.py), the ledgers with the town race, and the final scoring. Each screen's next entry sits in the bottom bar, and
the quiet paths (nobody bids, nobody else bids this round, nobody moves) are one tap each."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from ...engine import auction as bidding
from . import rules
from ...ui.screen_contract import GameScreenHooks, ShellView
from .screens_move import move_helper, road_costs
from .screens_pieces import bank_short, gold_game, small_button
from ...ui.widgets import (ACCENT, SMALL, TARGET, Act, Keypad, Screen, act, button,
                      card, choice_chips, create_button, heading, pick, text, tid, title, who)

GAME = rules.ID


def category(shell: ShellView, key: str) -> str:
    _ = shell.vm.t
    return {"towns": _("Town pieces")}.get(key, key)


def new_game_form(shell: ShellView, game_id: str) -> Screen:
    _ = shell.vm.t
    form = shell.draft.setdefault("new", {"count": 3, "start": 0, "variant": "elfengold", "wizards": False,
                                          "players": [{"name": "", "colour": c} for c in rules.COLOURS]})
    players = form["players"][:form["count"]]

    def update(**changes: object) -> None:
        form.update(changes)
        if form["variant"] != "elfengold":
            form["wizards"] = False
        shell.render()

    controls: list[ft.Control] = [
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


def _create(shell: ShellView, game_id: str, form: dict, players: list) -> None:
    config = {"start": form["start"], "variant": form["variant"], "wizards": form["wizards"],
              "players": [dict(p) for p in players]}
    if shell.vm.new_game(game_id, config):
        shell.draft = {}


# ----------------------------------------------------------------------------------------------
# Small pieces


def _phase(shell: ShellView, step: str) -> str:
    return shell.game_text(f"step.{shell.vm.game_session['config']['variant']}.{step}.title")


def _chip(shell: ShellView, kind: str, label: str, on_click: Callable[..., object], ident: str, field: str,
          player: str | None = None, filled: bool = False, **look: Any) -> ft.Control:
    """A chip for one kind of action (made for `player`), drawn from the game's table of allowed actions,
    as widgets.act draws a button: where the rules or this phone's owner do not allow it, it is greyed
    and a tap says why, under its row (`field`) and in the pinned bar."""
    vm = shell.vm
    rule = vm.rule(kind, player)
    why = rule.refusal
    refusal = vm.msg(why) if why is not None else None
    handler = on_click if why is None else (lambda e: vm.refuse(why, field))
    control = small_button(label, handler, ident, filled=filled, muted=refusal is not None, **look)
    control.data = Act(kind, player, refusal)
    return control


def _race(shell: ShellView) -> ft.Control:
    """Every player's town pieces (of 20) and gold: the race at a glance."""
    _, vm = shell.vm.t, shell.vm
    rows = []
    for p in vm.game_session["config"]["players"]:
        ledger = vm.game_state["players"][p["colour"]]
        line = _("{towns}/20 towns").format(towns=len(ledger["towns"]))
        if gold_game(shell):
            line += " · " + _("{gold} gold").format(gold=ledger["gold"])
        rows.append(tid(f"race-{p['colour']}", ft.Row([ft.Container(who(p["name"], p["colour"]), expand=True),
                                                       ft.Text(line, size=SMALL)])))
    return card(rows, "race")


# ----------------------------------------------------------------------------------------------
# The round


def round_screen(shell: ShellView) -> Screen:
    """The phase on now: what to enter in it (the auction, the moves, the gold pile), its rule folded
    to one line, and in the bottom bar the phase's own entry or "Next phase"."""
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    variant, step = config["variant"], state["step"]
    controls: list[ft.Control] = [shell.problem()]
    primary = None
    if step == "auction":
        helper, primary = _auction(shell)
        controls += helper
    if step == "move":
        helper, primary = move_helper(shell)
        controls += helper
    if step == "tiles" and variant == rules.ELFENGOLD and state["round"] > 1:
        ngettext = vm.t.n
        controls.append(tid("income", text(ngettext(
            "Income booked: the banker pays every player {gold} gold.",
            "Income booked: the banker pays every player {gold} gold.", rules.INCOME).format(gold=rules.INCOME),
            SMALL, color=ACCENT)))
    if variant == rules.ELFENGOLD and step in ("draw", "move", "end"):
        controls.append(_gold_pile(shell))
    if step == "plan":
        controls += [text(_sale(shell, sale), SMALL) for sale in state["sold"] if sale["winner"]]
    controls.append(shell.rule_fold(f"{GAME}.step.{variant}.{step}"))
    if step in ("plan", "move"):
        controls.append(road_costs(shell))
    return Screen(controls + shell.footer(), primary or _next_button(shell))


def _next_button(shell: ShellView) -> ft.Control:
    """On to the next phase (income, which has nothing to enter, is booked on the way)."""
    _, vm = shell.vm.t, shell.vm
    to = rules.next_stop(vm.game_state, vm.game_session["config"])
    if to == "final":
        label = _("End the round: final scoring")
    elif vm.game_state["step"] == "end":
        label = _("End the round")
    elif to == "tiles" and vm.game_state["step"] == "draw":
        label = _("Book the income (+{gold} each)").format(gold=rules.INCOME)
    else:
        label = _("Next phase: {phase}").format(phase=_phase(shell, to))
    return act(vm, "advance", label, lambda e: vm.dispatch("advance", to=to), "next-phase", icon=ft.Icons.ARROW_FORWARD,
               bar=True)


def _gold_pile(shell: ShellView) -> ft.Control:
    """Gold cards revealed go onto the gold pile; taking it pays 3 gold per card."""
    _, vm = shell.vm.t, shell.vm
    pile = vm.game_state["gold_pile"]
    ngettext = vm.t.n
    worth = (ngettext("Gold pile: {n} card, worth {gold} gold", "Gold pile: {n} cards, worth {gold} gold", pile)
             .format(n=pile, gold=pile * rules.GOLD_PER_CARD) if pile else _("Gold pile: empty"))
    rows: list[ft.Control] = [ft.Row([ft.Container(tid("gold-pile", text(worth, weight=ft.FontWeight.W_500)),
                                                   expand=True),
                    _chip(shell, "gold_card", _("+1 card"), lambda e: vm.dispatch("gold_card"), "gold-card",
                          "gold-pile")],
                   vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    if pile:
        if rules.bank(vm.game_state) < pile * rules.GOLD_PER_CARD:
            rows.append(bank_short(shell, rules.bank(vm.game_state)))
        rows += [text(_("Takes the gold pile:"), SMALL),
                 ft.Row([_chip(shell, "take_pile", p["name"], lambda e, c=p["colour"]: vm.dispatch(
                     "take_pile", player=c, cards=pile), f"take-pile-{p['colour']}", "gold-pile", player=p["colour"],
                     padding=16) for p in vm.game_session["config"]["players"]], wrap=True, spacing=8, run_spacing=8)]
    if vm.game_state["step"] == "end":
        rows.append(text(_("A gold card among the cards drawn instead of moving goes onto the pile too."), SMALL))
    rows.append(shell.problem("gold-pile"))
    return card(rows, "gold")


# ----------------------------------------------------------------------------------------------
# The auction


def _auction(shell: ShellView) -> tuple[list[ft.Control], ft.Control | None]:
    """One tile at a time: the bidder (in the header) bids in one tap (the lowest bid, +1, +2, +5) or
    on the keypad, or passes in the bottom bar (or passes on every tile left this round, so that he is
    not asked again); "nobody (else) bids" settles the tile, or the rest of the row, in one tap."""
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    n = 2 * len(config["players"])
    controls: list[ft.Control] = []
    if not state["row"]:      # a game that entered the auction before the row was turned up on the way in
        controls.append(card([heading(_("Turn up {n} tiles").format(n=n)),
                              text(_("The start player turns up 2 tiles per player in a row."), SMALL)], "row"))
        return controls, act(vm, "reveal", _("Tiles turned up: auction"), lambda e: vm.dispatch("reveal"), "reveal",
                             icon=ft.Icons.CHECK, bar=True)
    a = state["auction"]
    if not a:
        controls.append(tid("auction-done", text(_("Every tile of the row has been auctioned."))))
        controls += _sales(shell)
        return controls, None
    rows, primary = _bidding(shell, a, n)
    rows += _auction_story(shell, a, n)
    controls.append(card(rows, "auction", highlight=True))
    controls += _sales(shell)
    return controls, primary


def _bidding(shell: ShellView, a: dict, n: int) -> tuple[list[ft.Control], ft.Control]:
    """The tile on offer and the bidder's entries: the quick bids, the keypad, passing; the bottom bar's
    entry is the pass, or the keypad's bid while it is open."""
    _, vm = shell.vm.t, shell.vm
    index, bidder = a["lot"]["index"], a["next"]
    gold = vm.game_state["players"][bidder]["gold"]
    least = bidding.lowest_bid(a)
    at = (index, len(a["log"]), len(vm.game_state["sold"]))
    draft = shell.draft.get("bid")
    if not draft or draft["at"] != at:
        draft = shell.draft["bid"] = {"at": at, "amount": least, "keypad": False}
    title_ = (_("Tile {k} of {n}: {tile}").format(k=index + 1, n=n, tile=shell.game_text(f"tile.{a['lot']['tile']}"))
              if a["lot"]["tile"] else _("Tile {k} of {n}").format(k=index + 1, n=n))
    high = (_("No bid yet") if a["high"] is None else
            _("Highest bid: {high} ({name})").format(high=a["high"], name=shell.player_name(a["leader"])))

    def bid(amount: int) -> Callable[[object], None]:
        return lambda e: shell.send("bid", "bid", player=bidder, amount=amount)

    quick = [(least, "min"), (least + 1, "plus1"), (least + 2, "plus2"), (least + 5, "plus5")]
    chips = [_chip(shell, "bid", str(amount), bid(amount), f"bid-{name}", "bid-chips", player=bidder,
                   filled=name == "min", width=52, padding=0) for amount, name in quick]
    chips.append(tid("bid-other", ft.IconButton(
        ft.Icons.DIALPAD, tooltip=_("Other amount"), width=TARGET, height=TARGET, selected=draft["keypad"],
        on_click=lambda e: (draft.update(keypad=not draft["keypad"]), shell.render()))))
    rows: list[ft.Control] = [
        heading(title_),
        tid("auction-status", text(f"{high} · " + _("{name} holds {gold} gold.").format(
            name=shell.player_name(bidder), gold=gold), SMALL)),
        text(_("Bid:"), SMALL),
        ft.Row(chips, spacing=6),
        shell.problem("bid-chips"),
        act(vm, "sit_out", _("{name} passes on every tile this round").format(name=shell.player_name(bidder)),
            lambda e: vm.dispatch("sit_out", player=bidder), "sit-out", player=bidder, primary=False),
    ]
    primary = act(vm, "pass_bid", _("{name} passes").format(name=shell.player_name(bidder)),
                  lambda e: vm.dispatch("pass_bid", player=bidder), "pass-bid", player=bidder, bar=True)
    if draft["keypad"]:
        rows.append(Keypad("bid-keypad", _("Amount of the bid"), draft, "amount", least, rules.GOLD_IN_BOX).control)
        if isinstance(draft["amount"], int) and draft["amount"] > gold:
            rows.append(text(_("More than {name} holds: a winner who cannot pay gives all their gold to the bank, "
                               "and the tile is auctioned again.").format(name=shell.player_name(bidder)), SMALL,
                             color=ACCENT))
        primary = act(vm, "bid", _("Bid {n}").format(n=draft["amount"]), bid(draft["amount"]), "bid", player=bidder,
                      icon=ft.Icons.CHECK, bar=True)
    rows.append(shell.problem("amount"))
    return rows, primary


def _auction_story(shell: ShellView, a: dict, n: int) -> list[ft.Control]:
    """The quiet paths (nobody else bids on this tile, no more bids this round), the bids so far and who
    does not bid."""
    _, vm = shell.vm.t, shell.vm
    index = a["lot"]["index"]
    rows: list[ft.Control] = []
    claim = {"tile": index, "winner": a["leader"], "price": a["high"]}
    left = n - index - 1                     # tiles of the row after this one
    if left:
        label = (_("Nobody bids on this tile") if a["leader"] is None else
                 _("Nobody else bids: {name} wins it at {price}").format(name=shell.player_name(a["leader"]),
                                                                         price=vm.msg(rules.coins(a["high"]))))
        rows.append(act(vm, "no_bid", label, lambda e: vm.dispatch("no_bid", **claim), "no-bid", primary=False))
    rows += [act(vm, "no_more_bids", _("No more bids this round"), lambda e: vm.dispatch("no_more_bids", **claim),
                 "no-more-bids", primary=False),
             text(_no_more_bids_hint(shell, a, left), SMALL)]
    story = [_("{name} bids {n}").format(name=shell.player_name(entry["player"]), n=entry["bid"]) if "bid" in entry
             else _("{name} passes").format(name=shell.player_name(entry["player"])) for entry in a["log"]]
    if story:
        rows.append(tid("auction-log", text(" · ".join(story), SMALL)))
    for reason, line in (("no_gold", _("Without gold, no bid: {names}")),
                         ("sits_out", _("No more bids this round: {names}"))):
        names = [shell.player_name(s["player"]) for s in a["skipped"] if s["reason"] == reason]
        if names:
            rows.append(text(line.format(names=", ".join(names)), SMALL))
    for colour in vm.game_state["sitting_out"] if left else ():     # a mind changed: from the next tile on
        rows.append(act(vm, "bid_again", _("{name} bids again from the next tile").format(name=shell.player_name(colour)),
                        lambda e, c=colour: vm.dispatch("bid_again", player=c), f"bid-again-{colour}", player=colour,
                        primary=False))
    return rows


def _no_more_bids_hint(shell: ShellView, a: dict, left: int) -> str:
    """What "No more bids this round" does with the tile on offer and the rest of the row."""
    _, ngettext = shell.vm.t, shell.vm.t.n
    if a["leader"] is None:
        if not left:
            return _("This tile goes back to the pool.")
        return ngettext("This tile and the last one go back to the pool.",
                        "This tile and the {n} after it go back to the pool.", left).format(n=left)
    name, price = shell.player_name(a["leader"]), shell.vm.msg(rules.coins(a["high"]))
    if not left:
        return _("{name} wins this tile at {price}.").format(name=name, price=price)
    return ngettext("{name} wins this tile at {price}; the last one goes back to the pool.",
                    "{name} wins this tile at {price}; the {n} after it go back to the pool.",
                    left).format(name=name, price=price, n=left)


def _sales(shell: ShellView) -> list[ft.Control]:
    """This round's tiles so far: who paid what, or back to the pool."""
    return [text(_sale(shell, sale), SMALL) for sale in shell.vm.game_state["sold"]]


def _sale(shell: ShellView, sale: dict) -> str:
    _ = shell.vm.t
    tile = _("Tile {k}").format(k=sale.get("index", 0) + 1)
    if sale["tile"]:
        tile += " · " + shell.game_text(f"tile.{sale['tile']}")
    if not sale["winner"]:
        return _("{tile}: nobody bid, back to the pool.").format(tile=tile)
    name = shell.player_name(sale["winner"])
    price = shell.vm.msg(rules.coins(sale["price"]))
    if sale.get("broke"):
        return _("{tile}: {name} bid {price} but cannot pay: all the gold held, {lost}, goes to the bank and the "
                 "tile is auctioned again.").format(tile=tile, name=name, price=price,
                                                    lost=shell.vm.msg(rules.coins(sale["lost"])))
    return _("{tile}: {name} pays {price}.").format(tile=tile, name=name, price=price)


# ----------------------------------------------------------------------------------------------
# Ledgers and the end


def scores_screen(shell: ShellView) -> list[ft.Control]:
    """Every player's town pieces (which towns) and gold, with corrections (gold on the keypad)."""
    _, vm = shell.vm.t, shell.vm
    controls: list[ft.Control] = [title(_("Ledgers")), _race(shell)]
    families = [p["colour"] for p in vm.game_session["config"]["players"]]
    draft = shell.draft.setdefault("ledger", {"player": families[0], "points": 0, "reason": ""})
    player = draft["player"]
    collected = vm.game_state["players"][player]["towns"]
    rows: list[ft.Control] = [heading(_("Correct a ledger")),
            choice_chips("ledger-player", [(c, shell.player_name(c)) for c in families], player,
                         lambda c: (draft.update(player=c), shell.render())),
            text(_("Town pieces collected (tap to change):"), SMALL),
            ft.Row([_chip(shell, "town", shell.game_text(f"town.{t}"), lambda e, t=t: vm.dispatch(
                "town", player=player, town=t, collected=t not in collected), f"town-{t}", "towns",
                filled=t in collected, size=SMALL, padding=12) for t in sorted(rules.GOLD_DISCS)],
                   wrap=True, spacing=6, run_spacing=6),
            shell.problem("towns")]
    if gold_game(shell):
        def save(e: object) -> None:
            if vm.dispatch("adjust", player=player, delta=draft["points"], reason=draft["reason"]):
                shell.draft.pop("ledger", None)
                vm.go("scores")

        fields = shell.correction_fields(draft, _("Gold (+ or −)"), rules.GOLD_IN_BOX)
        rows += [fields[0], shell.problem("delta"), *fields[1:],
                 act(vm, "adjust", _("Save the correction"), save, "adjust-save")]
    for c in vm.game_state["corrections"]:
        rows.append(text(_("Correction {points:+d}: {reason}").format(points=c["points"], reason=c["reason"]), SMALL,
                         color=ft.Colors.GREY_400))
    controls.append(card(rows, "ledger"))
    return controls


def final_screen(shell: ShellView) -> Screen:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    controls: list[ft.Control] = [shell.problem()]
    if config["variant"] == "base":
        counts = {c: state["players"][c]["cards"] for c in state["players"]}
        rows: list[ft.Control] = [text(shell.game_text("final.cards"), SMALL)]

        def tell(colour: str) -> Callable[[int], object]:
            return lambda v: vm.dispatch("cards", cards={**counts, colour: v})

        for p in config["players"]:
            rows.append(pick(f"cards-{p['colour']}", who(p["name"], p["colour"]), counts[p["colour"]], 0,
                             rules.HAND_AFTER_MOVE, tell(p["colour"])))
        rows.append(shell.problem("cards"))
        controls.append(card(rows, "cards"))
    result = vm.game.result(state, config)
    rows = [heading(_("Review")), text(shell.game_text("final.review"), SMALL)]
    rows += [text(vm.msg(line), SMALL) for line in result["explain"]]
    controls += [card(rows, "review"), _race(shell), *shell.footer()]
    return Screen(controls, act(vm, "finish", _("Show the winner"), lambda e: vm.dispatch("finish"), "finish",
                                icon=ft.Icons.EMOJI_EVENTS, bar=True))


#: What the shell asks of this game's screens (companion/ui/screen_contract.py).
SCREENS = GameScreenHooks(
    new_game_form=new_game_form,
    round_screen=round_screen,
    category=category,
    final_screen=final_screen,
    scores_screen=scores_screen,
)
