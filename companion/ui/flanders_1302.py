"""Flanders 1302 screens: the new-game form, the round guide with its helpers, the final scoring."""
from __future__ import annotations

import flet as ft

from ..games import flanders_1302 as rules
from .widgets import (SMALL, TARGET, TEXT, Stepper, button, card, choice_chips, dot, error, heading, reminder,
                      text, tid, title, who)

GAME = rules.ID


def _guild(shell, guild: str) -> str:
    return shell.vm.t.text(f"{GAME}.guild.{guild}")


def _city(shell, city: str) -> str:
    return shell.vm.t.text(f"{GAME}.city.{city}")


def track_label(shell, track: str) -> ft.Control:
    """A score track by player name and colour; grey and influenced guilds by their guild name."""
    _ = shell.vm.t
    config = shell.vm.session["config"]
    for p in config["players"]:
        if p["colour"] == track:
            return who(p["name"], track)
    for colour, influenced in config.get("influenced", {}).items():
        if influenced == track:
            owner = next(p["name"] for p in config["players"] if p["colour"] == colour)
            return who(_("{guild} (influenced by {name})").format(guild=_guild(shell, track), name=owner), track)
    return who(_guild(shell, track), track)


def category(shell, key: str) -> str:
    _ = shell.vm.t
    return {"cities": _("Cities"), "influence": _("Most influence cards (+3)"), "corrections": _("Corrections"),
            "own": _("Own guild"), "influenced": _("Influenced guild")}.get(key, key)


# ----------------------------------------------------------------------------------------------
# New game


def new_game_form(shell, game_id: str) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    form = shell.draft.setdefault("new", {
        "variant": rules.STANDARD, "count": 3, "start": 0, "empty_city": None, "influenced": {},
        "players": [{"name": "", "colour": c} for c in rules.COLOURS]})
    count = 2 if form["variant"] == rules.TWO_PLAYER else form["count"]
    players = form["players"][:count]

    def update(**changes):
        form.update(changes)
        shell.render()

    controls: list[ft.Control] = [
        heading(_("Variant")),
        choice_chips("variant", [(rules.STANDARD, _("Standard game")), (rules.TWO_PLAYER, _("Two-player variant"))],
                     form["variant"], lambda v: update(variant=v, start=0)),
    ]
    if form["variant"] == rules.STANDARD:
        controls += [heading(_("Number of players")),
                     choice_chips("count", [(str(n), str(n)) for n in (3, 4)], str(form["count"]),
                                  lambda v: update(count=int(v), start=min(form["start"], int(v) - 1)))]
    controls += shell.seat_fields(form, players, rules.COLOURS, lambda c: _guild(shell, c))
    if form["variant"] == rules.STANDARD and count == 3:
        controls += [
            heading(_("Which city stays empty?")),
            choice_chips("empty", [(c, _city(shell, c)) for c in rules.CITIES], form["empty_city"],
                         lambda c: update(empty_city=c)),
            error(vm.error_for("empty_city"), "error-empty_city"),
        ]
    if form["variant"] == rules.TWO_PLAYER:
        free = [c for c in rules.COLOURS if c not in {p["colour"] for p in players}]
        for i, player in enumerate(players):
            controls += [
                heading(_("Influenced guild of player {n}").format(n=i + 1)),
                choice_chips(f"influenced-{i}", [(c, ft.Row([dot(c), ft.Text(_guild(shell, c), size=TEXT)], tight=True))
                                                 for c in free], form["influenced"].get(player["colour"]),
                             lambda c, p=player: (form["influenced"].update({p["colour"]: c}), shell.render())),
                error(vm.error_for(f"influenced.{i}"), f"error-influenced-{i}"),
            ]
    controls += [shell.problem(), button(_("Start the setup"), lambda e: _create(shell, game_id, form, players),
                                         "create", icon=ft.Icons.CHECK)]
    return controls


def _create(shell, game_id: str, form: dict, players: list) -> None:
    config = {"variant": form["variant"], "start": form["start"], "players": [dict(p) for p in players],
              "empty_city": form["empty_city"], "influenced": dict(form["influenced"])}
    if shell.vm.new_game(game_id, config):
        shell.draft = {}


# ----------------------------------------------------------------------------------------------
# Round guide


def round_screen(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.state, vm.session["config"]
    variant = config["variant"]
    steps = rules.STEPS[variant]
    start = config["players"][state["start"]]
    current = next(s for s in steps if s.id == state["step"])
    index = steps.index(current)
    key = f"{GAME}.step.{variant}.{current.id}"
    head = (_("Round {n}").format(n=state["round"]) if variant == rules.STANDARD
            else _("Turn {n}").format(n=state["round"]))
    role = _("Start player:") if variant == rules.STANDARD else _("On turn:")
    controls: list[ft.Control] = [
        tid("round-head", ft.Row([ft.Text(head, size=24, weight=ft.FontWeight.BOLD),
                                  ft.Text(role, size=TEXT), who(start["name"], start["colour"])], wrap=True)),
        ft.Row([tid(f"step-{s.id}", (ft.FilledButton if s.id == current.id else ft.OutlinedButton)(
            content=ft.Text(str(i + 1), size=TEXT), width=TARGET, height=TARGET,
            on_click=lambda e, s=s: vm.dispatch("goto_step", step=s.id))) for i, s in enumerate(steps)],
            spacing=6, wrap=True),
        card([ft.Text(_("Step {n}: {title}").format(n=index + 1, title=vm.t.text(f"{key}.title")), size=20,
                      weight=ft.FontWeight.BOLD),
              text(vm.t.text(f"{key}.body")),
              reminder(vm.t.text(f"{key}.remind"))],
             "step-card"),
        shell.problem(),
    ]
    if current.helper == "turn_order" or (current.id == "actions" and state.get("order")):
        controls += turn_order_helper(shell)
    elif current.helper == "gold_influence":
        controls += gold_influence_helper(shell)
    elif current.helper == "city_scoring":
        controls += city_scoring_helper(shell) + end_of_round(shell)
    if index + 1 < len(steps):
        controls.append(button(_("Next step: {title}").format(
            title=vm.t.text(f"{GAME}.step.{variant}.{steps[index + 1].id}.title")),
            lambda e: vm.dispatch("goto_step", step=steps[index + 1].id), "next-step", icon=ft.Icons.ARROW_FORWARD))
    return controls + shell.game_bar()


def _influence_line(shell) -> ft.Control:
    _, vm = shell.vm.t, shell.vm
    held = ", ".join(f"{p['name']} {vm.state['influence'][p['colour']]}" for p in vm.session["config"]["players"])
    return text(_("Influence cards in hand: {list}").format(list=held), SMALL)


def turn_order_helper(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    config, state = vm.session["config"], vm.state
    names = {p["colour"]: p for p in config["players"]}
    if state["order"]:
        lines = [heading(_("Turn order"))]
        for i, colour in enumerate(state["order"]["order"]):
            lines.append(ft.Row([ft.Text(f"{i + 1}.", size=22, weight=ft.FontWeight.BOLD),
                                 who(names[colour]["name"], colour, 20)]))
        for line in rules.explain_order(config, state["start"], state["order"]["cards"]):
            lines.append(text(vm.msg(line), SMALL))
        return [card(lines, "turn-order"), _influence_line(shell)]
    draft = shell.draft.setdefault("cards", {p["colour"]: 1 for p in config["players"]})
    sealed = _sealed_cards(shell) if shell.join else []
    rows = [heading(_("Turn order helper")), text(_("How many cards did each player reveal?"), SMALL)]
    for p in config["players"]:
        held = state["influence"][p["colour"]]
        rows += [Stepper(f"cards-{p['colour']}", who(p["name"], p["colour"]), draft[p["colour"]], 1, held + 1,
                         lambda v, c=p["colour"]: draft.update({c: v})).control,
                 shell.problem(f"cards.{p['colour']}")]
    rows += [_influence_line(shell), button(_("Work out the order"), lambda e: shell.send("turn_order", "cards",
                                                                                     cards=dict(draft)), "order")]
    return sealed + [card(rows, "turn-order-helper")]


def _sealed_cards(shell) -> list[ft.Control]:
    """Table mode: each player enters the cards he plays on his own phone, sealed; when everyone's
    are in, they are revealed together and the order is worked out."""
    _, vm = shell.vm.t, shell.vm
    ngettext = vm.t.n
    players = vm.session["config"]["players"]
    kind = f"turn_order:{vm.state['round']}"
    done = vm.sealed(kind)
    names = ", ".join(p["name"] for p in players if p["colour"] in done) or "–"
    rows = [heading(_("Sealed on each phone")),
            tid("sealed", text(ngettext("{n} of {all} player has sealed: {names}",
                                        "{n} of {all} players have sealed: {names}", len(done)).format(
                n=len(done), all=len(players), names=names), SMALL))]
    me = shell.me
    if me in vm.state["influence"] and me not in done:
        mine = shell.draft.setdefault("sealed", {"cards": 1})
        rows += [Stepper("seal-cards", _("My cards this round"), mine["cards"], 1, vm.state["influence"][me] + 1,
                         lambda v: mine.update(cards=v)).control,
                 button(_("Seal my cards"), lambda e: _seal(shell, kind, me, mine["cards"]), "seal",
                        icon=ft.Icons.LOCK)]
    elif not me:
        rows.append(text(_("Choose whose phone this is (at the bottom) to seal your cards here."), SMALL))
    return [card(rows, "sealed-cards")]


def _seal(shell, kind: str, me: str, cards: int) -> None:
    shell.draft.pop("sealed", None)
    shell.vm.seal(kind, me, cards, lambda entries: shell.vm.dispatch("turn_order", cards=entries))


def gold_influence_helper(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    start = vm.session["config"]["players"][vm.state["start"]]
    if vm.state["gold_influence"] == vm.state["round"]:
        body = [text(_("{name} kept this round's gold influence card.").format(name=start["name"]))]
    else:
        body = [text(_("If the gold card is an influence card, {name} keeps it for later rounds.")
                     .format(name=start["name"])),
                button(_("{name} keeps a gold influence card").format(name=start["name"]),
                       lambda e: vm.dispatch("gold_influence"), "gold-influence", primary=False)]
    return [card(body + [_influence_line(shell)], "gold-helper")]


def city_scoring_helper(shell) -> list[ft.Control]:
    """Enter a completed city: quarters and guild masters per guild, church quarters → points."""
    _, vm = shell.vm.t, shell.vm
    ngettext = vm.t.n
    config, state = vm.session["config"], vm.state
    open_cities = [c for c in rules.cities_in_play(config) if c not in state["cities"]]
    controls: list[ft.Control] = []
    for name, city in reversed(list(state["cities"].items())):
        result = rules.score_city(city)
        lines = [text(vm.msg(m), SMALL) for m in result["explain"]]
        summary = ", ".join(f"{_guild(shell, g)} {p}" for g, p in result["points"].items() if p)
        controls.append(tid(f"scored-{name}", ft.ExpansionTile(
            title=ft.Text(_("{city}: value {value}").format(city=_city(shell, name), value=result["value"]),
                          size=TEXT, weight=ft.FontWeight.W_500),
            subtitle=ft.Text(summary or _("no points"), size=SMALL),
            expanded=name == list(state["cities"])[-1], controls=lines, min_tile_height=56)))
    if not open_cities:
        return controls
    draft = shell.draft.setdefault("city", {"city": None, "quarters": {}, "masters": {}, "church": 0,
                                            "church_with_cathedral": 0})

    def pick(city):
        draft["city"] = city
        shell.render()

    rows: list[ft.Control] = [heading(_("Score a completed city")),
                              choice_chips("city", [(c, _city(shell, c)) for c in open_cities], draft["city"], pick),
                              shell.problem("city")]
    if draft["city"]:
        rows.append(text(_("Count only completed quarters (not under a construction site); city centres count."),
                         SMALL))
        for guild in rules.guilds_in_play(config):
            rows += [
                ft.Row([track_label(shell, guild)]),
                Stepper(f"q-{guild}", _("Quarters"), draft["quarters"].get(guild, 0), 0,
                        rules.GREY_QUARTERS if guild == rules.GREY else rules.GUILD_QUARTERS,
                        lambda v, g=guild: draft["quarters"].update({g: v})).control,
                shell.problem(f"quarters.{guild}"),
                Stepper(f"m-{guild}", _("Guild masters on them"), draft["masters"].get(guild, 0), 0, 40,
                        lambda v, g=guild: draft["masters"].update({g: v})).control,
                shell.problem(f"masters.{guild}"),
            ]
        rows += [Stepper("church", _("Church quarters without a cathedral"), draft["church"], 0,
                         rules.CHURCH_QUARTERS, lambda v: draft.update(church=v)).control,
                 shell.problem("church")]
        if config["variant"] == rules.STANDARD:
            rows += [Stepper("cathedral", _("Church quarters with a cathedral"), draft["church_with_cathedral"], 0,
                             rules.CATHEDRALS, lambda v: draft.update(church_with_cathedral=v)).control,
                     shell.problem("church_with_cathedral")]
        rows.append(button(_("Score {city}").format(city=_city(shell, draft["city"])),
                           lambda e: shell.send("score_city", "city", **draft), "score-city"))
    remaining = len(open_cities)
    rows.append(text(ngettext("{n} city still to score", "{n} cities still to score", remaining).format(n=remaining),
                     SMALL))
    controls.insert(0, card(rows, "city-helper"))
    return controls


def end_of_round(shell) -> list[ft.Control]:
    """After step 6: ask the end triggers; either the game ends or the next round begins."""
    _, vm = shell.vm.t, shell.vm
    two = vm.session["config"]["variant"] == rules.TWO_PLAYER
    answers = shell.draft.setdefault("end", {"board": False, "deck": False})
    questions = [("board", f"{GAME}.{rules.end_question(vm.session['config'])}")]
    if not two:
        questions.append(("deck", f"{GAME}.end.deck"))
    rows: list[ft.Control] = [heading(_("End of the turn") if two else _("End of the round"))]
    for key, text_key in questions:
        rows.append(tid(f"end-{key}", ft.Switch(label=vm.t.text(text_key), value=answers[key],
                                                label_text_style=ft.TextStyle(size=TEXT),
                                                on_change=lambda e, k=key: answers.update({k: bool(e.control.value)}))))
    label = _("Next turn") if two else _("Next round")
    rows.append(button(label, lambda e: _end_round(shell, answers, two), "end-round", icon=ft.Icons.SKIP_NEXT))
    rows.append(text(_("If you answer yes, the game ends and the final scoring begins."), SMALL))
    return [card(rows, "end-check")]


def _end_round(shell, answers: dict, two: bool) -> None:
    args = {"board": answers["board"]} if two else dict(answers)
    if shell.vm.dispatch("end_round", **args):
        shell.draft = {}
        shell.render()


# ----------------------------------------------------------------------------------------------
# Final scoring


def final_screen(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    config, state = vm.session["config"], vm.state
    controls: list[ft.Control] = [title(_("End of the game")), text(vm.t.text(f"{GAME}.end.final_body")),
                                  shell.problem()]
    controls += city_scoring_helper(shell)
    rows: list[ft.Control] = [heading(_("Final scoring"))]
    cards = None
    if config["variant"] == rules.STANDARD:
        cards = shell.draft.setdefault("influence", dict(state["influence"]))
        rows.append(text(_("Influence cards each player holds now (the app's count is filled in):"), SMALL))
        for p in config["players"]:
            rows += [Stepper(f"influence-{p['colour']}", who(p["name"], p["colour"]), cards[p["colour"]], 0,
                             rules.SILVER_INFLUENCE + rules.GOLD_CARDS,
                             lambda v, c=p["colour"]: cards.update({c: v})).control,
                     shell.problem(f"cards.{p['colour']}")]
    args = {"cards": cards} if cards is not None else {}
    rows.append(button(_("Show the winner"), lambda e: shell.send("finish", "influence", **args), "finish",
                       icon=ft.Icons.EMOJI_EVENTS))
    controls.append(card(rows, "final-helper"))
    return controls + shell.game_bar()
