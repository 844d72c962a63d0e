"""Princes of the Renaissance screens: the new-game form with the rule options, the turn guide, the
ledgers, the decade end with its income, and the final scoring. The UI imports this module
(`companion.games.princes_of_the_renaissance.screens`); the turn's action helpers are in
`screens_turn`, the auction and war helpers in `screens_auction_war`, the small pieces they share
(and the player labels the shell asks for) in `screens_pieces`."""
from __future__ import annotations

import flet as ft

from . import rules
from ...ui.screen_contract import GameScreenHooks, ShellView
from ...ui.widgets import (
    SMALL, Screen, Stepper, TEXT, act, button, card, choice_chips, create_button, heading, setter, text, tid, title)
from .screens_auction_war import _auction, _pending, _war, _war_head
from .screens_pieces import (
    ROMAN, _cities, _families, _holdings, _player_chips, _who, player_label, start_label,
    track_label)
from .screens_turn import _actions, _extras, _summaries


def category(shell: ShellView, key: str) -> str:
    _ = shell.vm.t
    return {"cities": _("City tiles"), "merchants": _("Merchant event"), "events": _("Event tiles"),
            "pope": _("Pope"), "war": _("VP counters"), "gold": _("Gold"),
            "influence": _("Influence")}.get(key, key)


def new_game_form(shell: ShellView, game_id: str) -> Screen:
    _ = shell.vm.t
    form = shell.draft.setdefault("new", {"count": 3, "start": 0, "options": [],
                                          "edition": "czech" if shell.vm.lang == "cs" else "english",
                                          "players": [{"name": "", "colour": f} for f in rules.FAMILIES]})
    players = form["players"][:form["count"]]

    def update(**changes: object) -> None:
        form.update(changes)
        shell.render()

    controls = [
        heading(_("Number of players")),
        choice_chips("count", [(str(n), str(n)) for n in range(3, 7)], str(form["count"]),
                     lambda v: update(count=int(v), start=min(form["start"], int(v) - 1))),
        text(_("Each player's family is his colour: choose families clockwise, after a die roll."), SMALL),
        *shell.seat_fields(form, players, rules.FAMILIES, lambda f: shell.game_text(f"family.{f}"),
                           _("Who is first in decade I? (The rules: drawn at random after the families.)")),
        *_edition(shell, form),
        shell.problem(),
    ]
    return Screen(controls, create_button(shell, lambda e: _create(shell, game_id, form, players)))


def _edition(shell: ShellView, form: dict) -> list[ft.Control]:
    """The rulebook the group plays by, and folded under it the points where the two rulebooks differ,
    each of which may be read the other way (and the one point neither settles)."""
    _, ngettext = shell.vm.t, shell.vm.t.n
    czech = form["edition"] == "czech"
    # the other rulebook's reading of each point (a tick takes it), and the point neither settles
    names = [*(rules.ENGLISH_READINGS if czech else rules.CZECH_READINGS), "tied_gold_no_second"]

    def choose(edition: str) -> None:
        if edition != form["edition"]:        # the points read the other way belong to the rulebook left
            form.update(edition=edition, options=[o for o in form["options"] if o == "tied_gold_no_second"])
        shell.render()

    def toggle(name: str) -> None:
        form["options"] = [o for o in form["options"] if o != name] if name in form["options"] else \
            [*form["options"], name]
        shell.render()

    ticks = [button(shell.game_text(f"option.{name}"), lambda e, n=name: toggle(n), f"option-{name}",
                    primary=name in form["options"],
                    icon=ft.Icons.CHECK_BOX if name in form["options"] else ft.Icons.CHECK_BOX_OUTLINE_BLANK)
             for name in names]
    changed = len(form["options"])
    return [heading(_("Which rulebook do you play by?")),
            choice_chips("edition", [("czech", _("Czech rulebook")), ("english", _("English rulebook"))],
                         form["edition"], choose),
            shell.fold("rule-options", _("Where the rulebooks differ"), [
                text(_("Each tick reads that point as the English rulebook does.") if czech else
                     _("Each tick reads that point as the Czech rulebook does."), SMALL), *ticks],
                       ngettext("{n} point read otherwise", "{n} points read otherwise", changed).format(n=changed)
                       if changed else _("Every point as the rulebook chosen"))]


def _create(shell: ShellView, game_id: str, form: dict, players: list) -> None:
    config = {"start": form["start"], "edition": form["edition"], "options": list(form["options"]),
              "players": [dict(p) for p in players]}
    if shell.vm.new_game(game_id, config):
        shell.draft = {}


def round_screen(shell: ShellView) -> Screen:
    _, vm = shell.vm.t, shell.vm
    state = vm.game_state
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


def scores_screen(shell: ShellView) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    ngettext = vm.t.n
    state = vm.game_state
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


def _correction(shell: ShellView) -> ft.Control:
    _, vm = shell.vm.t, shell.vm
    families = _families(shell)
    draft = shell.draft.setdefault("adjust", {"player": families[0], "what": "gold", "points": 0, "reason": ""})

    def save(e: object) -> None:
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


def decade_end_screen(shell: ShellView) -> Screen:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
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
    at = vm.game_session["version"]
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
                         setter(entry, "gold")).control,
                 Stepper(f"income-{family}-influence", _("Influence"), entry["influence"], 0, rules.LEDGER_MAX,
                         setter(entry, "influence")).control]
        controls.append(card(lines, f"income-{family}"))
    label = _("Book the income: final scoring") if last else _("Book the income and start decade {decade}").format(
        decade=ROMAN[decade + 1])
    controls += [shell.problem(), *shell.footer()]
    return Screen(controls, act(vm, "book_income", label, lambda e: shell.send("book_income", "income", incomes=draft),
                                "book-income", icon=ft.Icons.CHECK, bar=True))


def final_screen(shell: ShellView) -> Screen:
    """After decade III's income is booked: the review of every number, then the winner."""
    _, vm = shell.vm.t, shell.vm
    result = vm.game.result(vm.game_state, vm.game_session["config"])
    rows = [heading(_("Review")), text(shell.game_text("final.review"), SMALL)]
    rows += [text(vm.msg(line), SMALL) for line in result["explain"]]
    return Screen([_cities(shell), card(rows, "review"), shell.problem(), *shell.footer()],
                  act(vm, "finish", _("Show the winner"), lambda e: vm.dispatch("finish"), "finish",
                      icon=ft.Icons.EMOJI_EVENTS, bar=True))


#: What the shell asks of this game's screens (companion/ui/screen_contract.py).
SCREENS = GameScreenHooks(
    new_game_form=new_game_form,
    round_screen=round_screen,
    category=category,
    final_screen=final_screen,
    start_label=start_label,
    scores_screen=scores_screen,
    player_label=player_label,
    track_label=track_label,
)
