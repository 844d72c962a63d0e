"""Princes of the Renaissance screens: the turn's action helpers (troops, treachery cards, the
auctions' openings, declaring a war) and the cards, tiles and deals usable at any moment."""
from __future__ import annotations

from collections.abc import Callable

import flet as ft

from . import rules
from ...ui.screen_contract import ShellView
from ...ui.widgets import (Keypad, SMALL, Stepper, TARGET, act, card, choice_chips, count, heading, pick, setter, text,
                           tid)
from .screens_auction_war import _war_story
from .screens_pieces import GAME, _auction_result, _families, _player_chips


def _summaries(shell: ShellView) -> list[ft.Control]:
    out = []
    last = shell.vm.game_state["last_auction"]
    if last and last["lot"]["kind"] != "condottiere":
        out.append(card([text(_auction_result(shell, last), SMALL)], "last-auction"))
    if shell.vm.game_state["last_war"]:  # the dice and the strengths that decided it, in full
        out.append(card([text(line, SMALL) for line in _war_story(shell, shell.vm.game_state["last_war"])], "last-war"))
    return out


def _actions(shell: ShellView) -> tuple[list[ft.Control], ft.Control]:
    """The seven actions of a turn: pick one (the others fold away), read its rule, use its helper;
    the helper's last step, or ending the turn, is the bottom bar's button."""
    _, vm = shell.vm.t, shell.vm
    state = vm.game_state
    controls: list[ft.Control] = []
    end = act(vm, "end_turn", _("End the turn") if state["acted"] else _("Pass (end the turn)"),
              lambda e: (shell.draft.pop("action", None), vm.dispatch("end_turn")), "end-turn",
              icon=ft.Icons.ARROW_FORWARD, bar=True)
    if state["acted"]:
        controls.append(text(_("The action of this turn is done. Cards and tile abilities may still be used."),
                             SMALL))
        if vm.game_state["players"][rules.active_family(state, vm.game_session["config"])]["treachery"] \
                and rules.start_war_left(state):
            controls.append(_start_war_card(shell))
        return controls, end
    turn = [state["decade"], state["turn"],
            sum(a["type"] in ("end_turn", "book_income") for a in vm.game_session["log"])]
    draft = shell.draft.get("action")
    if not draft or draft["turn"] != turn:  # a choice left from an earlier turn (the decade ended on it)
        draft = shell.draft["action"] = {"step": None, "turn": turn}
    current = draft["step"]
    if current is None:
        short = {"treachery": _("Treachery card"), "city": _("City tile"), "pope": _("Pope"),
                 "event": _("Event tile"), "war": _("War")}
        controls += [heading(_("Choose the action of this turn")),
                     choice_chips("action", [(s.id, short[s.id]) for s in rules.STEPS if s.id in short], None,
                                  lambda v: (draft.update(step=v), shell.render())),
                     text(_("Or buy a troop:"), SMALL), _troop_chips(shell, draft)]
        return controls, end
    helper, primary = {"troop": _troop_helper, "treachery": _card_helper, "city": _city_helper,
                       "pope": _pope_helper, "event": _event_helper, "war": _war_helper}[current](shell)
    chosen = shell.draft.get("troop", {}).get("troop") if current == "troop" else None
    title_ = shell.game_text(f"troop.{chosen}") if chosen else shell.game_text(f"step.standard.{current}.title")
    rows = [ft.Row([ft.Container(heading(title_), expand=True),
                    tid("action-other", ft.TextButton(content=ft.Text(_("Another action"), size=SMALL),
                                                      height=TARGET, on_click=lambda e: (
                                                          shell.draft.pop("action", None), shell.draft.pop("troop", None),
                                                          shell.render())))]),
            *helper, shell.rule_fold(f"{GAME}.step.standard.{current}", "action-rules")]
    controls.append(card(rows, "action-card"))
    return controls, primary or end


def _stats_draft(troop: str) -> dict:
    """A new troop form: the income starts at 0 (most troops have none), the price and the fighting
    values are read off the tile (the few known values are proposed)."""
    base = {"cost": None, "attack": None, "defence": None, "gold": 0, "influence": 0}
    return dict(base, **rules.KNOWN_TROOPS.get(troop, {}))


def _troop_chips(shell: ShellView, action: dict | None = None) -> ft.Control:
    """The troops the player on turn may still buy; a tap opens the troop form with that troop (from the
    action chooser: the troop action too)."""
    vm = shell.vm
    owned = vm.game_state["players"][rules.active_family(vm.game_state, vm.game_session["config"])]["troops"]
    draft = shell.draft.setdefault("troop", {"troop": None})

    def choose(troop: str) -> None:
        draft.clear()
        draft.update(troop=troop, **_stats_draft(troop))
        if action is not None:
            action.update(step="troop")
        shell.render()

    return choice_chips("troop", [(t, shell.game_text(f"troop.{t}")) for t in rules.TROOPS if t not in owned],
                        draft["troop"], choose)


def _turn_left(shell: ShellView, family: str) -> bool:
    """Whether the player on turn could still do something of his turn after its action: a treachery
    card to play (or Start War), or a tile ability of his own turn not used yet."""
    state = shell.vm.game_state
    return bool(state["players"][family]["treachery"]) or any(
        rules.owns(state, family, ability) and f"{family}:{ability}" not in state["used"]
        for ability in ("banking", "lucrezia_borgia", "alfonso_of_aragon"))


def _buy_troop(shell: ShellView, draft: dict, end: bool) -> None:
    """Buy the troop; with `end`, the turn ends in the same tap (nothing of the turn is left)."""
    vm = shell.vm
    if vm.dispatch("buy_troop", **draft):
        shell.draft.pop("troop", None)
        if end:
            shell.draft.pop("action", None)
            vm.dispatch("end_turn")
        shell.render()


def _troop_helper(shell: ShellView) -> tuple[list[ft.Control], ft.Control | None]:
    _, vm = shell.vm.t, shell.vm
    family = rules.active_family(vm.game_state, vm.game_session["config"])
    owned = vm.game_state["players"][family]["troops"]
    draft = shell.draft.setdefault("troop", {"troop": None})
    # the troop chosen (its name is the card's heading; "Another action" changes it), its list gives
    # way to what is read off the tile, so that all of it is in sight
    rows = [] if draft["troop"] else [_troop_chips(shell)]
    rows.append(shell.problem("troop"))
    primary = None
    if draft["troop"]:
        rows += [count("troop-cost", _("Price printed on the tile (gold)"), draft["cost"], 1, 99,
                       lambda v: draft.update(cost=v)),
                 shell.problem("cost")]
        for key, label in (("attack", _("Attack")), ("defence", _("Defence"))):   # one row each: all in sight
            rows += [count(f"troop-{key}", label, draft[key], 0, 9,
                           setter(draft, key, shell.render), chips=3),
                     shell.problem(key)]
        income = [pick(f"troop-{key}", label, draft[key], 0, 6, setter(draft, key, shell.render))
                  for key, label in (("gold", _("Income: gold")), ("influence", _("Income: influence")))]
        rows += [shell.fold("troop-income", _("Income printed on it: {gold} gold, {influence} influence").format(
                     gold=draft["gold"], influence=draft["influence"]), income, _("Most troops have none: tap to change")),
                 shell.problem("gold"), shell.problem("influence")]
        end = not _turn_left(shell, family)
        primary = act(vm, "buy_troop", _("Buy the troop and end the turn") if end else _("Buy the troop"),
                      lambda e: _buy_troop(shell, draft, end), "buy-troop", icon=ft.Icons.CHECK, bar=True)
        if end:
            rows.append(act(vm, "buy_troop", _("Buy the troop, the turn goes on"),
                            lambda e: _buy_troop(shell, draft, False), "buy-troop-only", primary=False))
    for troop in [t for t in rules.TROOPS if t in owned]:
        rows.append(act(vm, "discard_troop", _("Discard: {troop}").format(troop=shell.game_text(f"troop.{troop}")),
                        lambda e, t=troop: vm.dispatch("discard_troop", troop=t), f"discard-{troop}",
                        primary=False))
    return rows, primary


def _card_helper(shell: ShellView) -> tuple[list[ft.Control], ft.Control]:
    _, vm = shell.vm.t, shell.vm
    return [], act(vm, "buy_card", _("Buy a treachery card (1 gold + 1 influence)"), lambda e: vm.dispatch("buy_card"),
                   "buy-card", icon=ft.Icons.CHECK, bar=True)


def _opening_bid(shell: ShellView, kind: str, draft: dict, low: int, high: int) -> ft.Control:
    """The opener's first bid: the minimum is proposed; the keypad for any other amount. The opener
    may also open the auction and pass (the Czech rules)."""
    _, vm = shell.vm.t, shell.vm
    draft.setdefault("amount", low)
    args = {k: v for k, v in draft.items() if not k.endswith(":typing") and k != "amount"}
    rows = [Keypad("open-amount", _("Opening bid"), draft, "amount", low, high,
                   quick=[(str(n), n) for n in (low, low + 1, low + 2, low + 5)]).control,
            shell.problem("amount")]
    if not rules.option(vm.game_session["config"], "opener_may_pass"):  # the English rules: the opener bids
        return shell.fold("open-bid", _("Opening bid: {n}").format(n=draft["amount"]), rows,
                          _("At least {n}: tap to bid more").format(n=low))
    rows.append(act(vm, "open_auction", _("Open the auction and pass"),
                    lambda e: shell.send("open_auction", kind, lot=kind, **args), "open-pass", primary=False))
    return shell.fold("open-bid", _("Opening bid: {n}").format(n=draft["amount"]), rows,
                      _("At least {n}: tap to bid more, or to pass").format(n=low))


def _open_button(shell: ShellView, kind: str, draft: dict) -> ft.Control:
    _ = shell.vm.t
    args = {k: v for k, v in draft.items() if not k.endswith(":typing")}
    return act(shell.vm, "open_auction", _("Open the auction: bid {n}").format(n=draft.get("amount", 0)),
               lambda e: shell.send("open_auction", kind, lot=kind, **args), "open-auction",
               icon=ft.Icons.GAVEL, bar=True)


def _city_helper(shell: ShellView) -> tuple[list[ft.Control], ft.Control | None]:
    _, vm = shell.vm.t, shell.vm
    draft = shell.draft.setdefault("city", {"city": None, "tile": "plain", "gold": 0, "influence": 0})

    def choose(city: str) -> None:
        draft.update(city=city, amount=rules.CITY_MINIMUM * vm.game_state["cities"][city]["status"])
        shell.render()

    rows = [choice_chips("city", [(c, shell.game_text(f"city.{c}")) for c in rules.CITIES], draft["city"], choose),
            shell.problem("city")]
    if not draft["city"]:
        return rows, None
    low = rules.CITY_MINIMUM * vm.game_state["cities"][draft["city"]]["status"]
    rows += [shell.fold("tile-kind", _("Tile: {tile}").format(tile=shell.game_text(f"tile.{draft['tile']}")),
                        [choice_chips("tile", [(k, shell.game_text(f"tile.{k}")) for k in rules.TILE_KINDS],
                                      draft["tile"], lambda v: (draft.update(tile=v), shell.render()))],
                        _("Its name or ability: tap to choose")),
             shell.problem("tile"),
             pick("tile-gold", _("Income printed on it: gold"), draft["gold"], 0, 5, lambda v: draft.update(gold=v)),
             pick("tile-influence", _("Income printed on it: influence"), draft["influence"], 0, 5,
                  lambda v: draft.update(influence=v)),
             _opening_bid(shell, "city", draft, low, rules.LEDGER_MAX)]
    return rows, _open_button(shell, "city", draft)


def _pope_helper(shell: ShellView) -> tuple[list[ft.Control], ft.Control | None]:
    _, vm = shell.vm.t, shell.vm
    if vm.game_state["pope"]:
        return [text(_("{name} holds the Pope this decade.").format(name=shell.player_name(vm.game_state["pope"])))], None
    draft = shell.draft.setdefault("pope", {})
    return [_opening_bid(shell, "pope", draft, 0, rules.LEDGER_MAX)], _open_button(shell, "pope", draft)


def _event_helper(shell: ShellView) -> tuple[list[ft.Control], ft.Control | None]:
    _, vm = shell.vm.t, shell.vm
    draft = shell.draft.setdefault("event", {"event": None, "currency": None, "vp": 0})

    def choose(event: str) -> None:
        draft.update(event=event, currency=rules.KNOWN_EVENT_CURRENCY.get(event, draft["currency"]))
        shell.render()

    chips = choice_chips("event", [(e, shell.game_text(f"event.{e}")) for e in rules.EVENTS
                                   if e not in vm.game_state["events_done"]], draft["event"], choose)
    if not draft["event"]:
        return [text(_("Which event tile of this decade?"), SMALL), chips, shell.problem("event")], None
    # the tile chosen, its list folds away so that what is read off the tile comes into sight
    rows = [shell.fold("event-kind", _("Event tile: {event}").format(event=shell.game_text(f"event.{draft['event']}")),
                       [chips], _("Tap to choose another")),
            shell.problem("event"),
            text(_("Paid in (circle: gold, square: influence):"), SMALL),
            choice_chips("currency", [("gold", shell.game_text("currency.gold")),
                                      ("influence", shell.game_text("currency.influence"))], draft["currency"],
                         lambda v: (draft.update(currency=v), shell.render())),
            shell.problem("currency"),
            pick("event-vp", _("VP printed on the tile"), draft["vp"], 0, rules.EVENT_VP_MAX,
                 lambda v: draft.update(vp=v)),
            _opening_bid(shell, "event", draft, 0, rules.LEDGER_MAX)]
    return rows, _open_button(shell, "event", draft)


def _war_cities(shell: ShellView, draft: dict, card: bool = False) -> list[ft.Control]:
    """The attacking and defending cities, under a warning when no family has a troop to hire out."""
    _ = shell.vm.t
    cities = [(c, shell.game_text(f"city.{c}")) for c in rules.CITIES]
    warning: list[ft.Control] = [] if rules.condottieri_for_hire(shell.vm.game_state) else [tid(
        "war-nobody", text(_("No family has a troop, so nobody can be hired as a condottiere: this war would end at "
                             "once, without a result.") if card else
                           _("No family has a troop, so nobody can be hired as a condottiere: this war would end at "
                             "once, without a result, and still count on the war track."),
                           SMALL, color=ft.Colors.ORANGE_200))]
    return [*warning, text(_("Attacking city:"), SMALL),
            choice_chips("attacker", cities, draft["attacker"], lambda v: (draft.update(attacker=v), shell.render())),
            shell.problem("attacker"),
            text(_("Defending city:"), SMALL),
            choice_chips("defender", [c for c in cities if c[0] != draft["attacker"]], draft["defender"],
                         lambda v: (draft.update(defender=v), shell.render())),
            shell.problem("defender")]


def _war_helper(shell: ShellView) -> tuple[list[ft.Control], ft.Control | None]:
    _ = shell.vm.t
    draft = shell.draft.setdefault("war", {"attacker": None, "defender": None})
    primary = None
    if draft["attacker"] and draft["defender"]:
        primary = act(shell.vm, "declare_war", _("Declare the war"), lambda e: _declare(shell, draft),
                      "declare-war", icon=ft.Icons.FLAG, bar=True)
    return _war_cities(shell, draft), primary


def _declare(shell: ShellView, draft: dict, card: bool = False) -> None:
    """Declare the war; when nobody could veto it (no treachery card in any hand, no unused Lorenzo
    Medici), the same entry goes on to the condottiere auctions, as "No veto" would."""
    vm = shell.vm
    if vm.dispatch("declare_war", **draft, **({"card": True} if card else {}), skip_veto=True):
        shell.draft.pop("war", None)
        shell.render()


def _start_war_card(shell: ShellView) -> ft.Control:
    """Start War: an extra war at the end of the turn, not counted on the war track."""
    _ = shell.vm.t
    draft = shell.draft.setdefault("war", {"attacker": None, "defender": None})
    return shell.fold("start-war", shell.game_text("card.start_war"),
                      [*_war_cities(shell, draft, card=True),
                       act(shell.vm, "declare_war", _("Play the card and start the war"),
                           lambda e: _declare(shell, draft, card=True), "declare-war-card")])


def _extras(shell: ShellView) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    rows: list[ft.Control] = []
    family = rules.active_family(state, config)
    others = [f for f in _families(shell) if f != family]

    def play(card_id: str) -> Callable[[str], object]:
        return lambda target: vm.dispatch("play_card", player=family, card=card_id, target=target)

    def lucrezia(owner: str) -> Callable[[str], object]:
        return lambda target: vm.dispatch("ability", player=owner, ability="lucrezia_borgia", target=target)

    if state["players"][family]["treachery"] and not state["auction"] and vm.rule("play_card", family).refusal is None:
        for card_id, ident in (("steal_influence", "steal"), ("raid_gold", "raid")):
            rows += [text(_("{name} plays {card} on:").format(name=shell.player_name(family),
                                                               card=shell.game_text(f"card.{card_id}")), SMALL),
                     _player_chips(shell, ident, others, play(card_id))]
    for owner in _families(shell):
        unused = lambda ability: (rules.owns(state, owner, ability)  # noqa: E731, B023 - used in this iteration
                                  and f"{owner}:{ability}" not in state["used"])  # noqa: B023
        if (unused("banking") and state["events_left"]
                and (owner == family or not rules.option(config, "banking_own_turn"))):
            swap = shell.draft.setdefault(f"bank-{owner}", {"amount": 3})
            rows += [text(_("{name}: Banking (+ gold to influence, − influence to gold)").format(
                name=shell.player_name(owner)), SMALL),
                Stepper(f"bank-{owner}", _("Swap"), swap["amount"], -rules.BANKING, rules.BANKING,
                        setter(swap, "amount"), big=0).control,
                act(vm, "ability", _("Swap"), lambda e, o=owner, s=swap: shell.send(
                    "ability", f"bank-{o}", player=o, ability="banking", amount=s["amount"]), f"bank-{owner}-go",
                    player=owner, primary=False)]
        if (owner == family and unused("lucrezia_borgia") and not state["auction"]
                and vm.rule("ability", owner).refusal is None):
            rows += [text(_("{name}: Lucrezia Borgia takes 2 influence from:").format(name=shell.player_name(owner)),
                          SMALL),
                     _player_chips(shell, f"lucrezia-{owner}", [f for f in _families(shell) if f != owner],
                                   lucrezia(owner))]
        if owner == family and unused("alfonso_of_aragon"):
            rows.append(act(vm, "ability", _("{name}: Alfonso of Aragon draws a treachery card").format(
                name=shell.player_name(owner)), lambda e, o=owner: vm.dispatch(
                    "ability", player=o, ability="alfonso_of_aragon"), f"alfonso-{owner}", player=owner,
                primary=False))
    rows += _deal(shell)
    rows.append(shell.problem("target"))
    return [shell.fold("extras", _("Cards, tile abilities and deals"), rows)]


def _deal(shell: ShellView) -> list[ft.Control]:
    """Gold or influence changing hands (VP counters too with the option)."""
    _, vm = shell.vm.t, shell.vm
    families = _families(shell)
    draft = shell.draft.setdefault("deal", {"giver": families[0], "taker": families[1], "currency": "gold",
                                            "amount": 1})
    currencies = ["gold", "influence"] + (["vp"] if rules.option(vm.game_session["config"], "trade_vp") else [])
    return [heading(_("A deal")),
            text(_("Who gives:"), SMALL),
            _player_chips(shell, "giver", families, lambda f: (draft.update(giver=f), shell.render()), draft["giver"]),
            text(_("To whom:"), SMALL),
            _player_chips(shell, "taker", families, lambda f: (draft.update(taker=f), shell.render()), draft["taker"]),
            choice_chips("deal-currency", [(c, shell.game_text(f"currency.{c}")) for c in currencies],
                         draft["currency"], lambda c: (draft.update(currency=c), shell.render())),
            Keypad("deal-amount", _("Amount"), draft, "amount", 1, rules.LEDGER_MAX,
                   quick=[(str(n), n) for n in (1, 2, 3, 5, 10)]).control,
            shell.problem("taker"), shell.problem("currency"), shell.problem("deal_amount"),
            act(vm, "transfer", _("Hand it over"), lambda e: shell.send("transfer", "deal", **{
                k: v for k, v in draft.items() if not k.endswith(":typing")}), "deal", primary=False)]
