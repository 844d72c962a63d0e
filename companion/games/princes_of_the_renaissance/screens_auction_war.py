"""Princes of the Renaissance screens: an auction under way, an event tile waiting for its city, and
a war (the veto, the condottiere auctions, the battle and the story of its rounds)."""
from __future__ import annotations

import random

import flet as ft

from ...engine import auction as bidding
from . import rules
from ...ui.screen_contract import ShellView
from ...ui.widgets import Keypad, SMALL, Stepper, TARGET, TEXT, act, card, choice_chips, heading, pick, text, tid
from .screens_pieces import _families, _lot_name, _money, _name, _parts, _player_chips, _who


def _auction(shell: ShellView) -> tuple[ft.Control, ft.Control]:
    """The bidder on turn raises with one tap (the lowest bid, +1, +2, +5) or any amount on the
    keypad; "Pass" is the bottom bar's button."""
    _, vm = shell.vm.t, shell.vm
    a = vm.game_state["auction"]
    lot = a["lot"]
    low = bidding.lowest_bid(a)
    bidder = a["next"]
    limit = rules.bid_limit(vm.game_state, vm.game_session["config"], bidder, lot, a["currency"])
    draft = shell.draft.get("bid")
    if not draft or draft["at"] != len(a["log"]):
        draft = shell.draft["bid"] = {"at": len(a["log"]), "amount": low, "cardinal": 0}
    high = (_("{name} leads with {n}").format(name=shell.player_name(a["leader"]), n=a["high"]) if a["leader"]
            else _("No bid yet"))
    rows = [heading(_("Auction: {lot}").format(lot=_lot_name(shell, lot))),
            tid("auction-state", text(_("{high} · paid in {currency} · minimum {n}").format(
                high=high, currency=shell.game_text(f"currency.{a['currency']}"), n=a["minimum"]), SMALL)),
            tid("bidder", ft.Row([ft.Text(_("To bid:"), size=TEXT), _who(shell, bidder)], wrap=True)),
            text(_("Holds {held}; can bid up to {limit} (discounts counted). A bid is one tap:").format(
                held=_money(shell, vm.game_state["players"][bidder][a["currency"]],
                            a["currency"]), limit=limit), SMALL)]
    quick = sorted({n for n in (low, low + 1, low + 2, low + 5) if n <= limit})
    allowed = vm.rule("bid", bidder).refusal is None
    if quick and allowed:
        rows.append(ft.Row([*[tid(f"bid-{n}", ft.FilledButton(
            content=ft.Text(str(n), size=TEXT, weight=ft.FontWeight.BOLD), height=TARGET, width=60,
            style=ft.ButtonStyle(padding=0), on_click=lambda e, n=n: _bid(shell, bidder, dict(draft, amount=n), lot)))
            for n in quick]], wrap=True, spacing=6, run_spacing=6))
    elif allowed:
        rows.append(text(_("{name} cannot pay the lowest bid ({n}).").format(name=shell.player_name(bidder), n=low),
                         SMALL, color=ft.Colors.AMBER_200))
    if lot["kind"] == "pope" and vm.game_state["players"][bidder]["treachery"]:
        rows.append(pick("bid-cardinal", shell.game_text("card.bribe_cardinal"), draft["cardinal"], 0,
                         min(2, vm.game_state["players"][bidder]["treachery"]), lambda v: draft.update(cardinal=v)))
    rows += [shell.problem("cardinal"), shell.problem("amount"),
             shell.fold("bid-other", _("Another amount"),
                        [Keypad("bid-amount", _("Amount of the bid"), draft, "amount", low, rules.LEDGER_MAX).control,
                         act(vm, "bid", _("Bid"), lambda e: _bid(shell, bidder, draft, lot), "bid",
                             player=bidder)])]
    if not allowed:
        rows.append(act(vm, "bid", _("Bid"), lambda e: None, "bid-greyed", player=bidder))
    targets = [f for f in bidding.active(a) if f != bidder and f not in a["frozen"]]
    if (vm.game_state["players"][bidder]["treachery"] and targets
            and vm.rule("play_card", bidder).refusal is None):
        rows += [text(_("{name} plays Freeze Bid on:").format(name=shell.player_name(bidder)), SMALL),
                 _player_chips(shell, "freeze", targets,
                               lambda f: vm.dispatch("play_card", player=bidder, card="freeze_bid", target=f))]
    log = [_("{name} bids {n}").format(name=shell.player_name(entry["player"]), n=entry["bid"]) if "bid" in entry
           else _("{name} passes").format(name=shell.player_name(entry["player"])) for entry in a["log"]]
    log += ["{name}: {reason}".format(name=shell.player_name(skip["player"]),
                                      reason=shell.game_text(f"skip.{skip['reason']}")) for skip in a["skipped"]]
    if log:
        rows.append(tid("auction-log", text(" · ".join(log), SMALL, color=ft.Colors.GREY_400)))
    return (card(rows, "auction", highlight=True),
            act(vm, "pass_bid", _("{name} passes").format(name=shell.player_name(bidder)),
                lambda e: vm.dispatch("pass_bid", player=bidder), "pass-bid", player=bidder, icon=ft.Icons.BLOCK,
                bar=True))


def _bid(shell: ShellView, bidder: str, draft: dict, lot: dict) -> None:
    args = {"player": bidder, "amount": draft["amount"]}
    if lot["kind"] == "pope":
        args["cardinal"] = draft["cardinal"]
    shell.send("bid", "bid", **args)


def _pending(shell: ShellView) -> ft.Control:
    _, vm = shell.vm.t, shell.vm
    pending = vm.game_state["pending"]
    event = shell.game_text(f"event.{pending['event']}")
    cities = [(c, shell.game_text(f"city.{c}")) for c in rules.CITIES]
    if vm.rule("place").refusal is not None:  # a phone of another player: the winner places it
        return card([heading(_("{name}: {event}").format(name=shell.player_name(pending["player"]), event=event)),
                     act(vm, "place", _("Place the tile"), lambda e: None, "place-greyed")], "pending", highlight=True)
    if pending["event"] == "french_invasion":
        rows = [heading(_("{name}: {event}").format(name=shell.player_name(pending["player"]), event=event)),
                text(_("Choose a city that loses 2 status, or discard the tile."), SMALL),
                choice_chips("place", cities, None, lambda c: vm.dispatch("place", city=c)),
                act(vm, "place", _("Discard it"), lambda e: vm.dispatch("place", city=None), "place-none",
                    primary=False)]
    else:
        rows = [heading(_("{name}: {event}").format(name=shell.player_name(pending["player"]), event=event)),
                text(_("Place the artist at a major city now: its status goes up by 1."), SMALL),
                choice_chips("place", cities, None, lambda c: vm.dispatch("place", city=c))]
    return card(rows, "pending", highlight=True)


def _war_head(shell: ShellView, war: dict) -> ft.Control:
    _ = shell.vm.t
    line = _("War: {attacker} attacks {defender}").format(attacker=shell.game_text(f"city.{war['attacker']}"),
                                                          defender=shell.game_text(f"city.{war['defender']}"))
    rows = [heading(line)]
    for side in ("attacker", "defender"):
        family = war["condottieri"][side]
        if family:
            rows.append(text(_("{city}: condottiere {name}, war pay {pay} gold (in his home city)").format(
                city=shell.game_text(f"city.{war[side]}"), name=shell.player_name(family), pay=war["pay"][side]),
                SMALL))
    return card(rows, "war-head")


def _war(shell: ShellView) -> tuple[ft.Control, ft.Control | None]:
    """Veto or not; after the condottiere auctions, each side's strength line by line and the dice
    (one tap each, or rolled): the bottom bar enters them or rolls them."""
    _, vm = shell.vm.t, shell.vm
    state, war = vm.game_state, vm.game_state["war"]
    rows: list[ft.Control] = [_war_head(shell, war)]
    if war["stage"] == "veto":
        return _veto_stage(shell, rows)
    rows += _battle_before_dice(shell, war) if not war["rounds"] else []
    number = len(war["rounds"]) + 1
    for past in war["rounds"]:
        rows.append(text(_round_line(shell, war, past), SMALL))
    if number == 2:
        rows.append(text(_("No attacker win: the defender counter-attacks (his attack against the attacker's "
                           "defence)."), SMALL, weight=ft.FontWeight.BOLD))
    rows += _strength_lines(shell, war, number)
    dice = shell.draft.setdefault(f"dice-{number}", {"attacker": None, "defender": None, "reroll": None})
    ludovico = [f for f in _families(shell) if rules.owns(state, f, "ludovico_sforza")
                and f"{f}:ludovico_sforza" not in state["used"]]
    if ludovico:  # the tile's holder had the dice thrown again: the new roll stands
        rows += [text(_("Dice thrown again for {tile}:").format(tile=shell.game_text("tile.ludovico_sforza")), SMALL),
                 _player_chips(shell, "reroll", ludovico, lambda f: (
                     dice.update(reroll=None if dice["reroll"] == f else f), shell.render()), dice["reroll"]),
                 shell.problem("reroll")]
    reroll = {"reroll": dice["reroll"]} if dice["reroll"] else {}
    rows += [pick("die-attacker", _("Black die ({city})").format(city=shell.game_text(f"city.{war['attacker']}")),
                  dice["attacker"], 1, rules.DIE, lambda v: dice.update(attacker=v)),
             pick("die-defender", _("White die ({city})").format(city=shell.game_text(f"city.{war['defender']}")),
                  dice["defender"], 1, rules.DIE, lambda v: dice.update(defender=v)),
             shell.problem("dice")]
    if dice["attacker"] and dice["defender"]:
        primary = act(vm, "battle", _("Enter the dice"),
                      lambda e: shell.send("battle", f"dice-{number}", dice={
                          "attacker": dice["attacker"], "defender": dice["defender"]}, **reroll), "battle",
                      icon=ft.Icons.CHECK,
                      bar=True)
    else:
        rows.append(text(_("Tap the dice thrown at the table, or let the app roll them."), SMALL))
        primary = act(vm, "battle", _("Roll the dice for us"), lambda e: shell.send("battle", f"dice-{number}", dice={
            "attacker": random.randint(1, rules.DIE), "defender": random.randint(1, rules.DIE)}, **reroll), "roll",
            icon=ft.Icons.CASINO, bar=True)
    return card(rows, "war", highlight=True), primary


def _veto_stage(shell: ShellView, rows: list[ft.Control]) -> tuple[ft.Control, ft.Control]:
    """The war's first stage: a Veto card or Lorenzo Medici stops it, or the war goes on."""
    _, vm = shell.vm.t, shell.vm
    state = vm.game_state
    rows.append(text(_("Veto now, or go on to the condottiere auctions."), SMALL))
    if "veto" not in state["turn_cards"]:
        for f in [f for f in _families(shell) if state["players"][f]["treachery"]]:
            rows.append(act(vm, "veto", _("{name} plays the Veto card").format(name=shell.player_name(f)),
                            lambda e, f=f: vm.dispatch("veto", player=f, how="card"), f"veto-card-{f}",
                            player=f, primary=False))
    for f in [f for f in _families(shell) if rules.owns(state, f, "lorenzo_medici")
              and f"{f}:lorenzo_medici" not in state["used"]]:
        rows.append(act(vm, "veto", _("{name} vetoes with {tile}").format(
            name=shell.player_name(f), tile=shell.game_text("tile.lorenzo_medici")),
            lambda e, f=f: vm.dispatch("veto", player=f, how="lorenzo_medici"), f"veto-lorenzo-{f}",
            player=f, primary=False))
    return (card(rows, "war", highlight=True),
            act(vm, "no_veto", _("No veto: auction the condottieri"), lambda e: vm.dispatch("no_veto"), "no-veto",
                icon=ft.Icons.ARROW_FORWARD, bar=True))


def _strength_lines(shell: ShellView, war: dict, number: int) -> list[ft.Control]:
    """Each side's strength in this round, part by part (before the dice)."""
    _, vm = shell.vm.t, shell.vm
    rows: list[ft.Control] = []
    preview = rules.battle_round(vm.game_state, vm.game_session["config"], war, number, {"attacker": 0, "defender": 0})
    for side in ("attacker", "defender"):
        s = preview["sides"][side]
        label = _("attack") if s["stat"] == "attack" else _("defence")
        rows.append(tid(f"strength-{side}", text("{city} ({name}) {stat}: {parts} = {n}".format(
            city=shell.game_text(f"city.{war[side]}"), name=_name(shell, war["condottieri"][side]), stat=label,
            parts=_parts(shell, s["parts"]), n=s["base"]), SMALL)))
    return rows


def _battle_before_dice(shell: ShellView, war: dict) -> list[ft.Control]:
    """The Pope's Holy League, Bribe Troops and other modifiers: only before the first dice."""
    _, vm = shell.vm.t, shell.vm
    state = vm.game_state
    rows: list[ft.Control] = []
    pope = state["pope"]
    if vm.rule("pope_joins").refusal is None:
        rows += [text(_("{name} (Pope) may join one side:").format(name=shell.player_name(pope)), SMALL),
                 choice_chips("pope", [(s, shell.game_text(f"city.{war[s]}")) for s in ("attacker", "defender")],
                              war["pope"], lambda s: vm.dispatch("pope_joins", side=s))]
    armies = rules.war_armies(state, war)
    options = []
    for family in dict.fromkeys(armies.values()):
        if not state["players"][family]["treachery"]:
            continue
        for side, owner in armies.items():
            options += [(family, side, owner, troop) for troop in state["players"][owner]["troops"]
                        if troop not in war["bribed"][side]]
    if options:
        rows += [text(shell.game_text("card.bribe_troops"), SMALL),
                 *[act(vm, "bribe", _("{name} bribes {owner}: {troop}").format(
                     name=shell.player_name(f), owner=shell.player_name(o), troop=shell.game_text(f"troop.{t}")),
                     lambda e, f=f, s=s, t=t: vm.dispatch("bribe", player=f, side=s, troop=t), f"bribe-{f}-{s}-{t}",
                     player=f, primary=False) for f, s, o, t in options]]
    extra = shell.draft.setdefault("extra", dict(war["extra"]))
    rows.append(shell.fold("modifiers", _("Other modifiers"), [
        Stepper("mod-attacker", shell.game_text(f"city.{war['attacker']}"), extra["attacker"], -9, 9,
                lambda v: extra.update(attacker=v), big=0).control,
        Stepper("mod-defender", shell.game_text(f"city.{war['defender']}"), extra["defender"], -9, 9,
                lambda v: extra.update(defender=v), big=0).control,
        act(vm, "modifier", _("Set the modifiers"), lambda e: shell.send("modifier", "extra", **extra),
            "set-modifiers", primary=False)]))
    return rows


def _round_line(shell: ShellView, war: dict, past: dict) -> str:
    """A round's dice and the strengths compared: "Round 1: Rome attack 2 + die 4 = 6 against Milan
    defence 3 + die 2 = 5"."""
    _ = shell.vm.t
    sides = past["sides"]
    stat = {"attack": _("attack"), "defence": _("defence")}
    line = _("Round {n}: {attacker} {astat} {abase} + die {da} = {a} against {defender} {dstat} {dbase} + die {dd} "
             "= {d}").format(
        n=past["number"], attacker=shell.game_text(f"city.{war['attacker']}"), astat=stat[sides["attacker"]["stat"]],
        abase=sides["attacker"]["base"], da=past["dice"]["attacker"], a=sides["attacker"]["total"],
        defender=shell.game_text(f"city.{war['defender']}"), dstat=stat[sides["defender"]["stat"]],
        dbase=sides["defender"]["base"], dd=past["dice"]["defender"], d=sides["defender"]["total"])
    if past.get("reroll"):
        line += " " + _("(thrown again for {name}'s {tile})").format(
            name=shell.player_name(past["reroll"]), tile=shell.game_text("tile.ludovico_sforza"))
    return line


def _war_story(shell: ShellView, war: dict) -> list[str]:
    """How the last war ended, line by line."""
    _ = shell.vm.t
    lines = [_("War: {attacker} attacks {defender}").format(attacker=shell.game_text(f"city.{war['attacker']}"),
                                                            defender=shell.game_text(f"city.{war['defender']}"))]
    if war.get("vetoed"):
        return lines + [_("{name} vetoed it; it still counts on the war track.").format(
            name=shell.player_name(war["vetoed"]))]
    if not war["rounds"]:
        return lines + [_("Nobody became condottiere: the war ends without a result.")]
    lines += [_round_line(shell, war, r) for r in war["rounds"]]
    if war["winner"] is None:
        return lines + [_("No winner: the statuses stay.")]
    winner, loser = war["winner"], "defender" if war["winner"] == "attacker" else "attacker"
    last = war["rounds"][-1]["sides"]
    lines.append(_("{city} wins {w} against {l}: {city} +{n}, {other} −{n} (status stays within 3–10).").format(
        city=shell.game_text(f"city.{war[winner]}"), other=shell.game_text(f"city.{war[loser]}"),
        w=last[winner]["total"], l=last[loser]["total"], n=war["change"]))
    if war["condottieri"][winner]:
        lines.append(_("{name} takes a VP counter.").format(name=shell.player_name(war["condottieri"][winner])))
    return lines
