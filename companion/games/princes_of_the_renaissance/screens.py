"""Princes of the Renaissance screens: the new-game form with the rule options, the turn guide with
the action helpers, the auction and war helpers, the ledgers, the decade end with its income, and the
final scoring."""
from __future__ import annotations

import random

import flet as ft

from ...engine import auction as bidding
from . import rules
from ...ui.widgets import (SMALL, TARGET, TEXT, Keypad, Screen, Stepper, act, button, card, choice_chips,
                      count, create_button, dot, heading, pick, text, tid, title, who)

GAME = rules.ID
ROMAN = {1: "I", 2: "II", 3: "III"}


def category(shell, key: str) -> str:
    _ = shell.vm.t
    return {"cities": _("City tiles"), "merchants": _("Merchant event"), "events": _("Event tiles"),
            "pope": _("Pope"), "war": _("VP counters"), "gold": _("Gold"),
            "influence": _("Influence")}.get(key, key)


def new_game_form(shell, game_id: str) -> Screen:
    _ = shell.vm.t
    form = shell.draft.setdefault("new", {"count": 3, "start": 0, "options": [],
                                          "players": [{"name": "", "colour": f} for f in rules.FAMILIES]})
    players = form["players"][:form["count"]]

    def update(**changes):
        form.update(changes)
        shell.render()

    def toggle(name: str) -> None:
        form["options"] = [o for o in form["options"] if o != name] if name in form["options"] else \
            [*form["options"], name]
        shell.render()

    controls = [
        heading(_("Number of players")),
        choice_chips("count", [(str(n), str(n)) for n in range(3, 7)], str(form["count"]),
                     lambda v: update(count=int(v), start=min(form["start"], int(v) - 1))),
        text(_("Each player's family is his colour: choose families clockwise, after a die roll."), SMALL),
        *shell.seat_fields(form, players, rules.FAMILIES, lambda f: shell.game_text(f"family.{f}"),
                           _("Who is first in decade I? (The rules: drawn at random after the families.)")),
        heading(_("Rule options")),
        text(_("Without a tick the Czech edition's rules apply; a tick takes the English rules' reading of that "
               "point."), SMALL),
    ]
    for name in rules.FORM_OPTIONS:
        on = name in form["options"]
        controls.append(button(shell.game_text(f"option.{name}"), lambda e, n=name: toggle(n), f"option-{name}",
                               primary=on, icon=ft.Icons.CHECK_BOX if on else ft.Icons.CHECK_BOX_OUTLINE_BLANK))
    controls += [
        shell.problem(),
    ]
    return Screen(controls, create_button(shell, lambda e: _create(shell, game_id, form, players)))


def _create(shell, game_id: str, form: dict, players: list) -> None:
    config = {"start": form["start"], "options": list(form["options"]), "players": [dict(p) for p in players]}
    if shell.vm.new_game(game_id, config):
        shell.draft = {}


# ----------------------------------------------------------------------------------------------
# Small pieces


def player_label(shell, family: str) -> str:
    """A player with his family, so families are told apart everywhere: "Anna (Gonzaga)"."""
    return "{name} ({family})".format(name=shell.player_name(family), family=shell.game_text(f"family.{family}"))


def track_label(shell, family: str) -> ft.Control:
    return who(player_label(shell, family), family)


def start_label(shell) -> str:
    _ = shell.vm.t
    return _("Start decade {decade}").format(decade=ROMAN[1])


def _name(shell, family: str | None) -> str:
    _ = shell.vm.t
    return shell.player_name(family) if family else _("neutral")


def _who(shell, family: str, size: int = TEXT) -> ft.Control:
    return who(player_label(shell, family), family, size)


def _families(shell) -> list[str]:
    return [p["colour"] for p in shell.vm.session["config"]["players"]]


def _player_chips(shell, ident: str, families, on_select, selected: str | None = None) -> ft.Control:
    return choice_chips(ident, [(f, ft.Row([dot(f), ft.Text(shell.player_name(f), size=TEXT)], tight=True))
                                for f in families], selected, on_select)


def _holdings(shell, family: str) -> str:
    _ = shell.vm.t
    p = shell.vm.state["players"][family]
    return _("Gold {gold} · influence {influence} · treachery cards {cards}/{limit}").format(
        gold=p["gold"], influence=p["influence"], cards=p["treachery"], limit=rules.hand_limit(shell.vm.state, family))


def _parts(shell, parts) -> str:
    """`Pike 0 + Swiss Mercenaries +1` from a strength's parts."""
    return " + ".join(f"{shell.game_text(key)} {value}" for key, value in parts) or "0"


def _cities(shell) -> ft.Control:
    _ = shell.vm.t
    ngettext = shell.vm.t.n
    boxes = []
    for city in rules.CITIES:
        c = shell.vm.state["cities"][city]
        lines = [ft.Text(shell.game_text(f"city.{city}"), size=13, no_wrap=True),
                 tid(f"status-{city}", ft.Text(str(c["status"]), size=22, weight=ft.FontWeight.BOLD))]
        if c["artists"]:
            lines.append(ft.Text(ngettext("{n} artist", "{n} artists", c["artists"]).format(n=c["artists"]),
                                 size=12))
        boxes.append(ft.Container(ft.Column(lines, spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                                  width=62, padding=4, border_radius=8,
                                  bgcolor=ft.Colors.with_opacity(0.06, ft.Colors.WHITE)))
    return tid("cities", ft.Row(boxes, wrap=True, spacing=4, run_spacing=4))


# ----------------------------------------------------------------------------------------------
# The turn


def round_screen(shell) -> Screen:
    _, vm = shell.vm.t, shell.vm
    state = vm.state
    if state["phase"] == "decade_end":
        return decade_end_screen(shell)
    shell.draft.pop("income", None)  # the decade goes on (an undo): its income is entered anew at its end
    # a troop or a treachery card bought: the cities' statuses play no part, the form takes their room
    buying = (not (state["pending"] or state["auction"] or state["war"] or state["acted"])
              and shell.draft.get("action", {}).get("step") in ("troop", "treachery"))
    controls: list[ft.Control] = [] if buying else [_cities(shell)]
    controls.append(shell.problem())
    primary = None
    if state["pending"]:
        controls.append(_pending(shell))
    elif state["auction"]:
        if state["war"]:
            controls.append(_war_head(shell, state["war"]))
        auction_card, primary = _auction(shell)
        controls.append(auction_card)
    elif state["war"]:
        war_card, primary = _war(shell)
        controls.append(war_card)
    else:
        turn, primary = _actions(shell)
        controls += _summaries(shell) + turn
    controls += _extras(shell) + shell.footer()
    return Screen(controls, primary)


def _summaries(shell) -> list[ft.Control]:
    out = []
    last = shell.vm.state["last_auction"]
    if last and last["lot"]["kind"] != "condottiere":
        out.append(card([text(_auction_result(shell, last), SMALL)], "last-auction"))
    if shell.vm.state["last_war"]:  # the dice and the strengths that decided it, in full
        out.append(card([text(line, SMALL) for line in _war_story(shell, shell.vm.state["last_war"])], "last-war"))
    return out


def _lot_name(shell, lot: dict) -> str:
    _ = shell.vm.t
    if lot["kind"] == "city":
        return "{city}: {tile}".format(city=shell.game_text(f"city.{lot['city']}"),
                                       tile=shell.game_text(f"tile.{lot['tile']}"))
    if lot["kind"] == "pope":
        return shell.game_text("pope")
    if lot["kind"] == "event":
        ngettext = shell.vm.t.n
        return ngettext("{event} ({n} VP)", "{event} ({n} VP)", lot["vp"]).format(
            event=shell.game_text(f"event.{lot['event']}"), n=lot["vp"])
    return _("Condottiere of {city}").format(city=shell.game_text(f"city.{lot['city']}"))


def _money(shell, amount: int, currency: str) -> str:
    ngettext = shell.vm.t.n
    if currency == "gold":
        return ngettext("{n} gold", "{n} gold", amount).format(n=amount)
    return ngettext("{n} influence", "{n} influence", amount).format(n=amount)


def _auction_result(shell, last: dict) -> str:
    _ = shell.vm.t
    if not last["winner"]:
        return _("{lot}: nobody bid.").format(lot=_lot_name(shell, last["lot"]))
    line = _("{name} wins {lot} with a bid of {bid} and pays {paid}.").format(
        name=shell.player_name(last["winner"]), lot=_lot_name(shell, last["lot"]), bid=last["bid"],
        paid=_money(shell, last["paid"], last["currency"]))
    return line


def _actions(shell) -> tuple[list[ft.Control], ft.Control]:
    """The seven actions of a turn: pick one (the others fold away), read its rule, use its helper;
    the helper's last step, or ending the turn, is the bottom bar's button."""
    _, vm = shell.vm.t, shell.vm
    state = vm.state
    controls: list[ft.Control] = []
    end = act(vm, "end_turn", _("End the turn") if state["acted"] else _("Pass (end the turn)"),
              lambda e: (shell.draft.pop("action", None), vm.dispatch("end_turn")), "end-turn",
              icon=ft.Icons.ARROW_FORWARD, bar=True)
    if state["acted"]:
        controls.append(text(_("The action of this turn is done. Cards and tile abilities may still be used."),
                             SMALL))
        if vm.state["players"][rules.active_family(state, vm.session["config"])]["treachery"]:
            controls.append(_start_war_card(shell))
        return controls, end
    turn = [state["decade"], state["turn"], sum(a["type"] in ("end_turn", "book_income") for a in vm.session["log"])]
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


def _troop_chips(shell, action: dict | None = None) -> ft.Control:
    """The troops the player on turn may still buy; a tap opens the troop form with that troop (from the
    action chooser: the troop action too)."""
    vm = shell.vm
    owned = vm.state["players"][rules.active_family(vm.state, vm.session["config"])]["troops"]
    draft = shell.draft.setdefault("troop", {"troop": None})

    def choose(troop: str) -> None:
        draft.clear()
        draft.update(troop=troop, **_stats_draft(troop))
        if action is not None:
            action.update(step="troop")
        shell.render()

    return choice_chips("troop", [(t, shell.game_text(f"troop.{t}")) for t in rules.TROOPS if t not in owned],
                        draft["troop"], choose)


def _turn_left(shell, family: str) -> bool:
    """Whether the player on turn could still do something of his turn after its action: a treachery
    card to play (or Start War), or a tile ability of his own turn not used yet."""
    state = shell.vm.state
    return bool(state["players"][family]["treachery"]) or any(
        rules.owns(state, family, ability) and f"{family}:{ability}" not in state["used"]
        for ability in ("banking", "lucrezia_borgia", "alfonso_of_aragon"))


def _buy_troop(shell, draft: dict, end: bool) -> None:
    """Buy the troop; with `end`, the turn ends in the same tap (nothing of the turn is left)."""
    vm = shell.vm
    if vm.dispatch("buy_troop", **draft):
        shell.draft.pop("troop", None)
        if end:
            shell.draft.pop("action", None)
            vm.dispatch("end_turn")
        shell.render()


def _troop_helper(shell) -> tuple[list[ft.Control], ft.Control | None]:
    _, vm = shell.vm.t, shell.vm
    family = rules.active_family(vm.state, vm.session["config"])
    owned = vm.state["players"][family]["troops"]
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
                           lambda v, k=key: (draft.update({k: v}), shell.render()), chips=3),
                     shell.problem(key)]
        income = [pick(f"troop-{key}", label, draft[key], 0, 6, lambda v, k=key: (draft.update({k: v}), shell.render()))
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


def _card_helper(shell) -> tuple[list[ft.Control], ft.Control]:
    _, vm = shell.vm.t, shell.vm
    return [], act(vm, "buy_card", _("Buy a treachery card (1 gold + 1 influence)"), lambda e: vm.dispatch("buy_card"),
                   "buy-card", icon=ft.Icons.CHECK, bar=True)


def _opening_bid(shell, kind: str, draft: dict, low: int, high: int) -> ft.Control:
    """The opener's first bid: the minimum is proposed; the keypad for any other amount. The opener
    may also open the auction and pass (the Czech rules)."""
    _, vm = shell.vm.t, shell.vm
    draft.setdefault("amount", low)
    args = {k: v for k, v in draft.items() if not k.endswith(":typing") and k != "amount"}
    rows = [Keypad("open-amount", _("Opening bid"), draft, "amount", low, high,
                   quick=[(str(n), n) for n in (low, low + 1, low + 2, low + 5)]).control,
            shell.problem("amount")]
    if not rules.option(vm.session["config"], "opener_may_pass"):  # the English rules: the opener bids
        return shell.fold("open-bid", _("Opening bid: {n}").format(n=draft["amount"]), rows,
                          _("At least {n}: tap to bid more").format(n=low))
    rows.append(act(vm, "open_auction", _("Open the auction and pass"),
                    lambda e: shell.send("open_auction", kind, lot=kind, **args), "open-pass", primary=False))
    return shell.fold("open-bid", _("Opening bid: {n}").format(n=draft["amount"]), rows,
                      _("At least {n}: tap to bid more, or to pass").format(n=low))


def _open_button(shell, kind: str, draft: dict) -> ft.Control:
    _ = shell.vm.t
    args = {k: v for k, v in draft.items() if not k.endswith(":typing")}
    return act(shell.vm, "open_auction", _("Open the auction: bid {n}").format(n=draft.get("amount", 0)),
               lambda e: shell.send("open_auction", kind, lot=kind, **args), "open-auction",
               icon=ft.Icons.GAVEL, bar=True)


def _city_helper(shell) -> tuple[list[ft.Control], ft.Control | None]:
    _, vm = shell.vm.t, shell.vm
    draft = shell.draft.setdefault("city", {"city": None, "tile": "plain", "gold": 0, "influence": 0})

    def choose(city: str) -> None:
        draft.update(city=city, amount=rules.CITY_MINIMUM * vm.state["cities"][city]["status"])
        shell.render()

    rows = [choice_chips("city", [(c, shell.game_text(f"city.{c}")) for c in rules.CITIES], draft["city"], choose),
            shell.problem("city")]
    if not draft["city"]:
        return rows, None
    low = rules.CITY_MINIMUM * vm.state["cities"][draft["city"]]["status"]
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


def _pope_helper(shell) -> tuple[list[ft.Control], ft.Control | None]:
    _, vm = shell.vm.t, shell.vm
    if vm.state["pope"]:
        return [text(_("{name} holds the Pope this decade.").format(name=shell.player_name(vm.state["pope"])))], None
    draft = shell.draft.setdefault("pope", {})
    return [_opening_bid(shell, "pope", draft, 0, rules.LEDGER_MAX)], _open_button(shell, "pope", draft)


def _event_helper(shell) -> tuple[list[ft.Control], ft.Control | None]:
    _, vm = shell.vm.t, shell.vm
    draft = shell.draft.setdefault("event", {"event": None, "currency": None, "vp": 0})

    def choose(event: str) -> None:
        draft.update(event=event, currency=rules.KNOWN_EVENT_CURRENCY.get(event, draft["currency"]))
        shell.render()

    chips = choice_chips("event", [(e, shell.game_text(f"event.{e}")) for e in rules.EVENTS
                                   if e not in vm.state["events_done"]], draft["event"], choose)
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


def _war_cities(shell, draft: dict) -> list[ft.Control]:
    _ = shell.vm.t
    cities = [(c, shell.game_text(f"city.{c}")) for c in rules.CITIES]
    return [text(_("Attacking city:"), SMALL),
            choice_chips("attacker", cities, draft["attacker"], lambda v: (draft.update(attacker=v), shell.render())),
            shell.problem("attacker"),
            text(_("Defending city:"), SMALL),
            choice_chips("defender", [c for c in cities if c[0] != draft["attacker"]], draft["defender"],
                         lambda v: (draft.update(defender=v), shell.render())),
            shell.problem("defender")]


def _war_helper(shell) -> tuple[list[ft.Control], ft.Control | None]:
    _ = shell.vm.t
    draft = shell.draft.setdefault("war", {"attacker": None, "defender": None})
    primary = None
    if draft["attacker"] and draft["defender"]:
        primary = act(shell.vm, "declare_war", _("Declare the war"), lambda e: _declare(shell, draft),
                      "declare-war", icon=ft.Icons.FLAG, bar=True)
    return _war_cities(shell, draft), primary


def _declare(shell, draft: dict, card: bool = False) -> None:
    """Declare the war; when nobody could veto it (no treachery card in any hand, no unused Lorenzo
    Medici), the same tap goes on to the condottiere auctions, as "No veto" would."""
    vm = shell.vm
    if vm.dispatch("declare_war", **draft, **({"card": True} if card else {})):
        shell.draft.pop("war", None)
        if vm.state["war"] and vm.state["war"]["stage"] == "veto" and not rules.veto_possible(vm.state):
            vm.dispatch("no_veto")
        shell.render()


def _start_war_card(shell) -> ft.Control:
    """Start War: an extra war at the end of the turn, not counted on the war track."""
    _ = shell.vm.t
    draft = shell.draft.setdefault("war", {"attacker": None, "defender": None})
    return shell.fold("start-war", shell.game_text("card.start_war"),
                      [*_war_cities(shell, draft),
                       act(shell.vm, "declare_war", _("Play the card and start the war"),
                           lambda e: _declare(shell, draft, card=True), "declare-war-card")])


# ----------------------------------------------------------------------------------------------
# Auctions


def _auction(shell) -> tuple[ft.Control, ft.Control]:
    """The bidder on turn raises with one tap (the lowest bid, +1, +2, +5) or any amount on the
    keypad; "Pass" is the bottom bar's button."""
    _, vm = shell.vm.t, shell.vm
    a = vm.state["auction"]
    lot = a["lot"]
    low = bidding.lowest_bid(a)
    bidder = a["next"]
    limit = rules.bid_limit(vm.state, vm.session["config"], bidder, lot, a["currency"])
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
                held=_money(shell, vm.state["players"][bidder][a["currency"]], a["currency"]), limit=limit), SMALL)]
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
    if lot["kind"] == "pope" and vm.state["players"][bidder]["treachery"]:
        rows.append(pick("bid-cardinal", shell.game_text("card.bribe_cardinal"), draft["cardinal"], 0,
                         min(2, vm.state["players"][bidder]["treachery"]), lambda v: draft.update(cardinal=v)))
    rows += [shell.problem("cardinal"), shell.problem("amount"),
             shell.fold("bid-other", _("Another amount"),
                        [Keypad("bid-amount", _("Amount of the bid"), draft, "amount", low, rules.LEDGER_MAX).control,
                         act(vm, "bid", _("Bid"), lambda e: _bid(shell, bidder, draft, lot), "bid",
                             player=bidder)])]
    if not allowed:
        rows.append(act(vm, "bid", _("Bid"), lambda e: None, "bid-greyed", player=bidder))
    targets = [f for f in bidding.active(a) if f != bidder and f not in a["frozen"]]
    if (vm.state["players"][bidder]["treachery"] and targets
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


def _bid(shell, bidder: str, draft: dict, lot: dict) -> None:
    args = {"player": bidder, "amount": draft["amount"]}
    if lot["kind"] == "pope":
        args["cardinal"] = draft["cardinal"]
    shell.send("bid", "bid", **args)


def _pending(shell) -> ft.Control:
    _, vm = shell.vm.t, shell.vm
    pending = vm.state["pending"]
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


# ----------------------------------------------------------------------------------------------
# War


def _war_head(shell, war: dict) -> ft.Control:
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


def _war(shell) -> tuple[ft.Control, ft.Control | None]:
    """Veto or not; after the condottiere auctions, each side's strength line by line and the dice
    (one tap each, or rolled): the bottom bar enters them or rolls them."""
    _, vm = shell.vm.t, shell.vm
    state, war = vm.state, vm.state["war"]
    rows: list[ft.Control] = [_war_head(shell, war)]
    if war["stage"] == "veto":
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
    rows += _battle_before_dice(shell, war) if not war["rounds"] else []
    number = len(war["rounds"]) + 1
    for past in war["rounds"]:
        rows.append(text(_round_line(shell, war, past), SMALL))
    if number == 2:
        rows.append(text(_("No attacker win: the defender counter-attacks (his attack against the attacker's "
                           "defence)."), SMALL, weight=ft.FontWeight.BOLD))
    preview = rules.battle_round(state, vm.session["config"], war, number, {"attacker": 0, "defender": 0})
    for side in ("attacker", "defender"):
        s = preview["sides"][side]
        label = _("attack") if s["stat"] == "attack" else _("defence")
        rows.append(tid(f"strength-{side}", text("{city} ({name}) {stat}: {parts} = {n}".format(
            city=shell.game_text(f"city.{war[side]}"), name=_name(shell, war["condottieri"][side]), stat=label,
            parts=_parts(shell, s["parts"]), n=s["base"]), SMALL)))
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


def _battle_before_dice(shell, war: dict) -> list[ft.Control]:
    """The Pope's Holy League, Bribe Troops and other modifiers: only before the first dice."""
    _, vm = shell.vm.t, shell.vm
    state = vm.state
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


def _round_line(shell, war: dict, past: dict) -> str:
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


def _war_story(shell, war: dict) -> list[str]:
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


# ----------------------------------------------------------------------------------------------
# Cards, tiles and deals at any moment


def _extras(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.state, vm.session["config"]
    rows: list[ft.Control] = []
    family = rules.active_family(state, config)
    others = [f for f in _families(shell) if f != family]
    if state["players"][family]["treachery"] and not state["auction"] and vm.rule("play_card", family).refusal is None:
        for card_id, ident in (("steal_influence", "steal"), ("raid_gold", "raid")):
            rows += [text(_("{name} plays {card} on:").format(name=shell.player_name(family),
                                                               card=shell.game_text(f"card.{card_id}")), SMALL),
                     _player_chips(shell, ident, others,
                                   lambda f, c=card_id: vm.dispatch("play_card", player=family, card=c, target=f))]
    for owner in _families(shell):
        unused = lambda ability: (rules.owns(state, owner, ability)  # noqa: E731, B023 - used in this iteration
                                  and f"{owner}:{ability}" not in state["used"])  # noqa: B023
        if (unused("banking") and state["events_left"]
                and (owner == family or not rules.option(config, "banking_own_turn"))):
            swap = shell.draft.setdefault(f"bank-{owner}", {"amount": 3})
            rows += [text(_("{name}: Banking (+ gold to influence, − influence to gold)").format(
                name=shell.player_name(owner)), SMALL),
                Stepper(f"bank-{owner}", _("Swap"), swap["amount"], -rules.BANKING, rules.BANKING,
                        lambda v, s=swap: s.update(amount=v), big=0).control,
                act(vm, "ability", _("Swap"), lambda e, o=owner, s=swap: shell.send(
                    "ability", f"bank-{o}", player=o, ability="banking", amount=s["amount"]), f"bank-{owner}-go",
                    player=owner, primary=False)]
        if (owner == family and unused("lucrezia_borgia") and not state["auction"]
                and vm.rule("ability", owner).refusal is None):
            rows += [text(_("{name}: Lucrezia Borgia takes 2 influence from:").format(name=shell.player_name(owner)),
                          SMALL),
                     _player_chips(shell, f"lucrezia-{owner}", [f for f in _families(shell) if f != owner],
                                   lambda f, o=owner: vm.dispatch("ability", player=o, ability="lucrezia_borgia",
                                                                  target=f))]
        if owner == family and unused("alfonso_of_aragon"):
            rows.append(act(vm, "ability", _("{name}: Alfonso of Aragon draws a treachery card").format(
                name=shell.player_name(owner)), lambda e, o=owner: vm.dispatch(
                    "ability", player=o, ability="alfonso_of_aragon"), f"alfonso-{owner}", player=owner,
                primary=False))
    rows += _deal(shell)
    rows.append(shell.problem("target"))
    return [shell.fold("extras", _("Cards, tile abilities and deals"), rows)]


def _deal(shell) -> list[ft.Control]:
    """Gold or influence changing hands (VP counters too with the option)."""
    _, vm = shell.vm.t, shell.vm
    families = _families(shell)
    draft = shell.draft.setdefault("deal", {"giver": families[0], "taker": families[1], "currency": "gold",
                                            "amount": 1})
    currencies = ["gold", "influence"] + (["vp"] if rules.option(vm.session["config"], "trade_vp") else [])
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


# ----------------------------------------------------------------------------------------------
# The ledgers (the top bar's scores button)


def scores_screen(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    ngettext = vm.t.n
    state = vm.state
    controls: list[ft.Control] = [title(_("Ledgers")), _cities(shell)]
    for family in _families(shell):
        p = state["players"][family]
        rows = [_who(shell, family), tid(f"ledger-{family}", text(_holdings(shell, family), SMALL)),
                text(ngettext("{n} VP counter (worth {points})", "{n} VP counters (worth {points})", p["vp"]).format(
                    n=p["vp"], points=rules.triangular(p["vp"])), SMALL)]
        if p["pay"]:
            rows.append(text(_("War pay waiting in the home city: {n} gold").format(n=p["pay"]), SMALL))
        if state["pope"] == family:
            rows.append(text(shell.game_text("pope"), SMALL))
        for tile in p["tiles"]:
            rows.append(text(_("{city}: {tile} (income {gold} gold, {influence} influence)").format(
                city=shell.game_text(f"city.{tile['city']}"), tile=shell.game_text(f"tile.{tile['kind']}"),
                gold=tile["gold"], influence=tile["influence"]), SMALL))
        for troop, s in p["troops"].items():
            rows.append(text(_("{troop}: attack {attack}, defence {defence}").format(
                troop=shell.game_text(f"troop.{troop}"), attack=s["attack"], defence=s["defence"]), SMALL))
        for event in p["events"]:
            rows.append(text(ngettext("{event}: {n} VP", "{event}: {n} VP", event["vp"]).format(
                event=shell.game_text(f"event.{event['event']}"), n=event["vp"]), SMALL))
        controls.append(card(rows, f"ledger-card-{family}"))
    for c in state["corrections"]:
        controls.append(text(_("Correction for {name}: {what} {delta:+d} ({reason})").format(
            name=shell.player_name(c["track"]), what=shell.game_text(f"currency.{c['what']}"), delta=c["points"],
            reason=c["reason"]), SMALL, color=ft.Colors.GREY_400))
    controls.append(_correction(shell))
    return controls


def _correction(shell) -> ft.Control:
    _, vm = shell.vm.t, shell.vm
    families = _families(shell)
    draft = shell.draft.setdefault("adjust", {"player": families[0], "what": "gold", "points": 0, "reason": ""})

    def save(e) -> None:
        if vm.dispatch("adjust", player=draft["player"], what=draft["what"], delta=draft["points"],
                       reason=draft["reason"]):
            shell.draft.pop("adjust", None)
            vm.go("scores")

    return card([
        heading(_("Correct a ledger")),
        _player_chips(shell, "adjust-player", families, lambda f: (draft.update(player=f), shell.render()),
                      draft["player"]),
        choice_chips("adjust-what", [(w, shell.game_text(f"currency.{w}")) for w in ("gold", "influence", "vp",
                                                                                     "treachery")],
                     draft["what"], lambda w: (draft.update(what=w), shell.render())),
        *shell.correction_fields(draft, _("Change (+ or −)"), rules.LEDGER_MAX),
        shell.problem("delta"),
        act(vm, "adjust", _("Save the correction"), save, "adjust-save"),
    ], "adjust")


# ----------------------------------------------------------------------------------------------
# Decade end and final scoring


def decade_end_screen(shell) -> Screen:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.state, vm.session["config"]
    decade = state["decade"]
    last = decade == rules.DECADES
    controls: list[ft.Control] = [_cities(shell)]
    controls += _summaries(shell)
    checklist = [shell.game_text("decade_end.income")]
    if last:
        checklist.append(shell.game_text("decade_end.final"))
    else:
        checklist += [shell.game_text("decade_end.pope"), shell.game_text("decade_end.tiles"),
                      shell.game_text("decade_end.wars"),
                      shell.game_text("decade_end.events").format(decade=ROMAN[decade + 1])]
    controls.append(tid("decade-checklist", ft.ExpansionTile(
        title=ft.Text(_("The decade's end, step by step"), size=TEXT), min_tile_height=52,
        controls=[ft.Row([ft.Icon(ft.Icons.CHECK, size=20), ft.Container(text(line, SMALL), expand=True)])
                  for line in checklist])))
    # The numbers proposed for this decade's end as the log stands: an undone income, or one of a
    # decade's end entered before an undo, never comes back.
    at = len(vm.session["log"])
    if shell.draft.get("income", {}).get("at") != at:
        shell.draft["income"] = {"at": at, "incomes": {}}
    draft = shell.draft["income"]["incomes"]
    for family in _families(shell):
        got = rules.income(state, config, family)
        entry = draft.setdefault(family, {"gold": got["gold"], "influence": got["influence"]})
        lines = [_who(shell, family),
                 text("; ".join(_("{what}: {gold} gold, {influence} influence").format(
                     what=shell.game_text(key), gold=gold, influence=influence) for key, gold, influence in got["parts"]),
                     SMALL),
                 Stepper(f"income-{family}-gold", _("Gold"), entry["gold"], 0, rules.LEDGER_MAX,
                         lambda v, e=entry: e.update(gold=v)).control,
                 Stepper(f"income-{family}-influence", _("Influence"), entry["influence"], 0, rules.LEDGER_MAX,
                         lambda v, e=entry: e.update(influence=v)).control]
        controls.append(card(lines, f"income-{family}"))
    label = _("Book the income: final scoring") if last else _("Book the income and start decade {decade}").format(
        decade=ROMAN[decade + 1])
    controls += [shell.problem(), *shell.footer()]
    return Screen(controls, act(vm, "book_income", label, lambda e: shell.send("book_income", "income", incomes=draft),
                                "book-income", icon=ft.Icons.CHECK, bar=True))


def final_screen(shell) -> Screen:
    """After decade III's income is booked: the review of every number, then the winner."""
    _, vm = shell.vm.t, shell.vm
    result = vm.game.result(vm.state, vm.session["config"])
    rows = [heading(_("Review")), text(shell.game_text("final.review"), SMALL)]
    rows += [text(vm.msg(line), SMALL) for line in result["explain"]]
    return Screen([_cities(shell), card(rows, "review"), shell.problem(), *shell.footer()],
                  act(vm, "finish", _("Show the winner"), lambda e: vm.dispatch("finish"), "finish",
                      icon=ft.Icons.EMOJI_EVENTS, bar=True))
