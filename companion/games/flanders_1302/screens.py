"""Flanders 1302 screens: the new-game form, the round guide with its helpers, the final scoring."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from ...engine import inputs
from . import rules
from ...ui.screen_contract import GameScreenHooks, ShellView
from ...ui.widgets import (ACCENT, SMALL, TARGET, TEXT, Screen, act, create_button, Stepper, card, choice_chips, dot,
                      error, heading, pick, text, tid, who, setter)

GAME = rules.ID


def _guild(shell: ShellView, guild: str) -> str:
    return shell.vm.t.text(f"{GAME}.guild.{guild}")


def _city(shell: ShellView, city: str) -> str:
    return shell.vm.t.text(f"{GAME}.city.{city}")


def track_label(shell: ShellView, track: str) -> ft.Control:
    """A score track by player name and colour; grey and influenced guilds by their guild name."""
    _ = shell.vm.t
    config = shell.vm.game_session["config"]
    for p in config["players"]:
        if p["colour"] == track:
            return who(p["name"], track)
    for colour, influenced in config.get("influenced", {}).items():
        if influenced == track:
            owner = next(p["name"] for p in config["players"] if p["colour"] == colour)
            return who(_("{guild} (influenced by {name})").format(guild=_guild(shell, track), name=owner), track)
    return who(_guild(shell, track), track)


def category(shell: ShellView, key: str) -> str:
    _ = shell.vm.t
    return {"cities": _("Cities"), "influence": _("Most influence cards (+3)"), "corrections": _("Corrections"),
            "own": _("Own guild"), "influenced": _("Influenced guild")}.get(key, key)


# ----------------------------------------------------------------------------------------------
# New game


def new_game_form(shell: ShellView, game_id: str) -> Screen:
    _, vm = shell.vm.t, shell.vm
    form = shell.draft.setdefault("new", {
        "variant": rules.STANDARD, "count": 3, "start": 0, "empty_city": None, "influenced": {},
        "players": [{"name": "", "colour": c} for c in rules.COLOURS]})
    count = 2 if form["variant"] == rules.TWO_PLAYER else form["count"]
    players = form["players"][:count]

    def update(**changes: object) -> None:
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
                             setter(form["influenced"], player["colour"], shell.render)),
                error(vm.error_for(f"influenced.{i}"), f"error-influenced-{i}"),
            ]
    controls.append(shell.problem())
    return Screen(controls, create_button(shell, lambda e: _create(shell, game_id, form, players)))


def _create(shell: ShellView, game_id: str, form: dict, players: list) -> None:
    config = {"variant": form["variant"], "start": form["start"], "players": [dict(p) for p in players],
              "empty_city": form["empty_city"], "influenced": dict(form["influenced"])}
    if shell.vm.new_game(game_id, config):
        shell.draft = {}


# ----------------------------------------------------------------------------------------------
# Round guide


def round_screen(shell: ShellView) -> Screen:
    _, vm = shell.vm.t, shell.vm
    state, config = vm.game_state, vm.game_session["config"]
    variant = config["variant"]
    steps = rules.STEPS[variant]
    current = next(s for s in steps if s.id == state["step"])
    index = steps.index(current)
    controls: list[ft.Control] = [
        ft.Row([tid(f"step-{s.id}", (ft.FilledButton if s.id == current.id else ft.OutlinedButton)(
            content=ft.Text(str(i + 1), size=TEXT), width=48, height=TARGET, style=ft.ButtonStyle(padding=0),
            on_click=lambda e, s=s: vm.dispatch("goto_step", step=s.id))) for i, s in enumerate(steps)],
            spacing=4, wrap=True),
        shell.problem(),
    ]
    primary = None
    if (current.helper == "turn_order" or (current.id == "actions" and state.get("order"))
            or (current.id in rules.BEFORE_ACTIONS and not state.get("order"))):
        controls += turn_order_helper(shell)
        if current.id == "actions" and (on_turn := rules.on_turn(state, config)):
            primary = _action_done(shell, on_turn)
    elif current.id == "actions" and (why := vm.rule("action_done").refusal):
        # no turn order this round: the table says why nobody is named
        controls.append(tid("no-order", text(vm.msg(why), SMALL)))
    elif current.helper == "gold_influence":
        controls += gold_influence_helper(shell)
    elif current.helper == "city_scoring":
        helper, primary = city_scoring_helper(shell)
        end, end_button = end_of_round(shell)
        controls += helper + end
        primary = primary or end_button
    controls.append(shell.rule_fold(f"{GAME}.step.{variant}.{current.id}"))
    if primary is None and index + 1 < len(steps):
        primary = act(vm, "goto_step", _("Next step: {title}").format(
            title=vm.t.text(f"{GAME}.step.{variant}.{steps[index + 1].id}.title")),
            lambda e: vm.dispatch("goto_step", step=steps[index + 1].id), "next-step", icon=ft.Icons.ARROW_FORWARD,
            bar=True)
    return Screen(controls + shell.footer(), primary)


def _action_done(shell: ShellView, colour: str) -> ft.Control:
    """Step 4: the player on turn says the action is carried out (on an owned phone, only its owner)."""
    _, vm = shell.vm.t, shell.vm
    name = next(p["name"] for p in vm.game_session["config"]["players"] if p["colour"] == colour)
    return act(vm, "action_done", _("{name}'s action is done").format(name=name),
               lambda e: vm.dispatch("action_done", player=colour), "action-done", player=colour,
               icon=ft.Icons.CHECK, bar=True)


def _influence_line(shell: ShellView) -> ft.Control:
    _, vm = shell.vm.t, shell.vm
    influence = vm.game_state["influence"]
    held = ", ".join(f"{p['name']} {influence[p['colour']]}" for p in vm.game_session["config"]["players"])
    return text(_("Influence cards in hand: {list}").format(list=held), SMALL)


def turn_order_helper(shell: ShellView) -> list[ft.Control]:
    """The cards revealed → the turn order, then the order with who has acted; in step 4 "everyone
    has acted" stands at its top while the table allows it."""
    _, vm = shell.vm.t, shell.vm
    config, state = vm.game_session["config"], vm.game_state
    names = {p["colour"]: p for p in config["players"]}
    if state["order"]:
        lines: list[ft.Control] = [heading(_("Turn order"))]
        if state["step"] == "actions" and vm.rule("all_acted").refusal is None:
            lines.append(act(vm, "all_acted", _("Everyone has acted"), lambda e: vm.dispatch("all_acted"),
                             "all-acted", primary=False, icon=ft.Icons.DONE_ALL))
        acted = state["order"]["acted"] if state["step"] == "actions" else 0
        for i, colour in enumerate(state["order"]["order"]):
            mark = ([ft.Icon(ft.Icons.CHECK, color=ACCENT, size=22)] if i < acted
                    else [ft.Text(_("on turn"), size=SMALL, color=ACCENT)] if i == acted and state["step"] == "actions"
                    else [])
            lines.append(tid(f"order-{colour}", ft.Row([ft.Text(f"{i + 1}.", size=22, weight=ft.FontWeight.BOLD),
                                                        who(names[colour]["name"], colour, 20), *mark])))
        for line in rules.explain_order(config, state["start"], state["order"]["cards"]):
            lines.append(text(vm.msg(line), SMALL))
        return [card(lines, "turn-order"), _influence_line(shell)]
    draft = shell.draft.setdefault("cards", {p["colour"]: 1 for p in config["players"]})
    sealed = _sealed_cards(shell) if shell.join else []
    ask = (_("How many cards did each player reveal?") if state["step"] == "reveal" else
           _("Once the gold card is revealed (step 1) and everybody has chosen cards (step 2): how many cards "
             "did each player reveal?"))
    rows: list[ft.Control] = [heading(_("Turn order helper")), text(ask, SMALL)]
    for p in config["players"]:
        held = state["influence"][p["colour"]]
        chips = pick(f"cards-{p['colour']}", None, draft[p["colour"]], 1, held + 1,
                     setter(draft, p["colour"]))
        # the name and its chips on one line (they wrap under the name when a hand is large)
        rows += [ft.Row([ft.Container(who(p["name"], p["colour"]), width=96), *chips.controls], wrap=True,
                        spacing=4, run_spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                 shell.problem(f"cards.{p['colour']}")]
    # the order's button right under the counts (in sight on a small phone with 4 players), the hands after it
    rows += [act(vm, "turn_order", _("Work out the order"),
                 lambda e: shell.send("turn_order", "cards", cards=dict(draft)), "order"), _influence_line(shell)]
    return sealed + [card(rows, "turn-order-helper")]


def _sealed_cards(shell: ShellView) -> list[ft.Control]:
    """Table mode: each player enters the cards he plays on his own phone, sealed; when everyone's
    are in, they are revealed together and the order is worked out."""
    _, vm = shell.vm.t, shell.vm
    ngettext = vm.t.n
    players = vm.game_session["config"]["players"]
    kind = f"turn_order:{vm.game_state['round']}"
    done = vm.sealed(kind)
    names = ", ".join(p["name"] for p in players if p["colour"] in done) or "–"
    rows = [heading(_("Sealed on each phone")),
            tid("sealed", text(ngettext("{n} of {all} player has sealed: {names}",
                                        "{n} of {all} players have sealed: {names}", len(done)).format(
                n=len(done), all=len(players), names=names), SMALL))]
    me = shell.me
    if me is not None and me in vm.game_state["influence"] and me not in done:
        mine = shell.draft.setdefault("sealed", {"cards": 1})
        rows += [pick("seal-cards", _("My cards this round"), mine["cards"], 1, vm.game_state["influence"][me] + 1,
                      lambda v: mine.update(cards=v)),
                 act(vm, "turn_order", _("Seal my cards"), lambda e: _seal(shell, kind, me, mine["cards"]), "seal",
                     player=me, icon=ft.Icons.LOCK)]
    elif not me:
        rows.append(text(_("Choose whose phone this is (at the bottom) to seal your cards here."), SMALL))
    return [card(rows, "sealed-cards")]


def _seal(shell: ShellView, kind: str, me: str, cards: int) -> None:
    shell.draft.pop("sealed", None)
    shell.vm.seal(kind, me, cards, lambda entries: shell.vm.dispatch("turn_order", cards=entries))


def gold_influence_helper(shell: ShellView) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    start = vm.game_session["config"]["players"][vm.game_state["start"]]
    if vm.game_state["gold_influence"] == vm.game_state["round"]:
        body: list[ft.Control] = [text(_("{name} kept this round's gold influence card.").format(name=start["name"]))]
    else:
        body = [text(_("If the gold card is an influence card, {name} keeps it for later rounds.")
                     .format(name=start["name"])),
                act(vm, "gold_influence", _("{name} keeps a gold influence card").format(name=start["name"]),
                    lambda e: vm.dispatch("gold_influence"), "gold-influence", primary=False)]
    return [card(body + [_influence_line(shell)], "gold-helper")]


#: Quarters of one guild in one city offered as chips (a city has far fewer building spaces).
CITY_QUARTERS = 10


#: A question of the city helper: its kind ("q" quarters, "m" masters, "church", "cathedral", "centre")
#: and the guild it is about (None for the church and the centre).
Question = tuple[str, str | None]


def _questions(config: dict[str, Any], draft: dict[str, Any]) -> list[Question]:
    """What the city helper asks, in order: each guild's completed quarters, the church quarters
    (and how many have a cathedral), whether the city's centre is a neutral one (while one of the two
    is not scored yet), then guild masters only where guilds tie on quarters."""
    asked: list[Question] = [("q", g) for g in rules.guilds_in_play(config)]
    asked.append(("church", None))
    if config["variant"] == rules.STANDARD and draft["church_all"]:
        asked.append(("cathedral", None))
    if draft.get("neutral_left"):
        asked.append(("centre", None))
    quarters = draft["quarters"]
    if all(["q", g] in draft["answered"] for g in rules.guilds_in_play(config)):
        counts = [quarters.get(g, 0) for g in rules.guilds_in_play(config)]
        asked += [("m", g) for g in rules.guilds_in_play(config)
                  if quarters.get(g, 0) and counts.count(quarters[g]) > 1]
    return asked


def _city_draft(shell: ShellView) -> dict:
    left = rules.NEUTRAL_CENTRES - sum(c.get("neutral_centre", 0) for c in shell.vm.game_state["cities"].values())
    # The neutral centre is answered "none" from the start (most cities hold none): it stands among the
    # answers, one tap changes it, and it costs the other cities no tap.
    return shell.draft.setdefault("city", {"city": None, "quarters": {}, "masters": {}, "church_all": 0,
                                           "church_with_cathedral": 0, "neutral_centre": 0, "neutral_left": left > 0,
                                           "answered": [["centre", None]] if left > 0 else [], "at": None})


def _city_args(draft: dict) -> dict:
    return {"city": draft["city"], "quarters": dict(draft["quarters"]), "masters": dict(draft["masters"]),
            "church": draft["church_all"] - draft["church_with_cathedral"],
            "church_with_cathedral": draft["church_with_cathedral"], "neutral_centre": draft["neutral_centre"]}


def city_scoring_helper(shell: ShellView) -> tuple[list[ft.Control], ft.Control | None]:
    """Enter a completed city one question at a time (a tap answers and moves on): each guild's
    completed quarters, the church quarters, guild masters only where guilds tie → the points.
    Returns the helper and, once every question is answered, "Score <city>" for the bottom bar."""
    _, vm = shell.vm.t, shell.vm
    config, state = vm.game_session["config"], vm.game_state
    open_cities = [c for c in rules.cities_in_play(config) if c not in state["cities"]]
    controls = _scored_cities(shell)
    if not open_cities:
        return controls, None
    draft = _city_draft(shell)
    if draft["city"] is None:
        controls.insert(0, card(_choose_city(shell, draft, open_cities), "city-helper"))
        return controls, None
    questions = _questions(config, draft)
    open_questions = [q for q in questions if q not in [tuple(a) for a in draft["answered"]]]
    at: Question | None = tuple(draft["at"]) if draft["at"] else (open_questions[0] if open_questions else None)

    def again(question: Question) -> None:
        draft["at"] = list(question)
        shell.render()

    def restart() -> None:
        shell.draft.pop("city", None)
        shell.render()

    rows: list[ft.Control] = [ft.Row([ft.Container(heading(_("Score {city}").format(city=_city(shell, draft["city"]))),
                                                   expand=True),
                    tid("city-other", ft.TextButton(content=ft.Text(_("Another city"), size=SMALL), height=TARGET,
                                                    on_click=lambda e: restart()))])]
    if at:
        rows.append(_question(shell, draft, at, lambda question, value: _record_answer(draft, question, value)))
    if vm.problem and vm.problem.field:
        rows.append(error(vm.problem.text, "error-city"))
    answered = [q for q in questions if list(q) in draft["answered"]]
    summary = ft.Row([tid(f"ans-{q[0]}-{q[1] or ''}", ft.OutlinedButton(
        content=ft.Text(_answer(shell, draft, q), size=SMALL), height=TARGET,
        on_click=lambda e, q=q: again(q))) for q in answered], wrap=True, spacing=6, run_spacing=6)
    primary = None
    if not at:
        rows += _city_preview(shell, draft)
        primary = act(vm, "score_city", _("Score {city}").format(city=_city(shell, draft["city"])),
                      lambda e: shell.send("score_city", "city", **_city_args(draft)), "score-city",
                      icon=ft.Icons.CHECK, bar=True)
    if answered:
        rows += [text(_("Tap an answer to change it:"), SMALL), summary]
    controls.insert(0, card(rows, "city-helper"))
    return controls, primary


def _scored_cities(shell: ShellView) -> list[ft.Control]:
    """The cities scored so far, newest first, each folded to its value and points."""
    _, vm = shell.vm.t, shell.vm
    controls: list[ft.Control] = []
    for name, city in reversed(list(vm.game_state["cities"].items())):
        result = rules.score_city(city, _names(shell))
        lines: list[ft.Control] = [text(vm.msg(m), SMALL) for m in result["explain"]]
        summary = ", ".join(f"{_owner(shell, g)} {p}" for g, p in result["points"].items() if p)
        controls.append(tid(f"scored-{name}", ft.ExpansionTile(
            title=ft.Text(_("{city}: value {value}").format(city=_city(shell, name), value=result["value"]),
                          size=TEXT, weight=ft.FontWeight.W_500),
            subtitle=ft.Text(summary or _("no points"), size=SMALL),
            expanded=False, controls=lines, min_tile_height=56)))
    return controls


def _choose_city(shell: ShellView, draft: dict, open_cities: list[str]) -> list[ft.Control]:
    """Which completed city is scored now, and how many are left."""
    _, ngettext = shell.vm.t, shell.vm.t.n
    remaining = len(open_cities)

    def choose(city: str) -> None:
        draft["city"] = city
        shell.render()
    return [heading(_("Score a completed city")),
            choice_chips("city", [(c, _city(shell, c)) for c in open_cities], None, choose),
            text(ngettext("{n} city still to score", "{n} cities still to score", remaining).format(n=remaining),
                 SMALL)]


def _record_answer(draft: dict[str, Any], question: Question, value: int) -> None:
    """An answer to one question of the city helper; the next open question follows."""
    kind, guild = question
    if kind == "q":
        draft["quarters"][guild] = value
        if not value:
            draft["masters"].pop(guild, None)
    elif kind == "m":
        draft["masters"][guild] = value
    elif kind == "church":
        draft["church_all"] = value
        draft["church_with_cathedral"] = min(draft["church_with_cathedral"], value)
    elif kind == "centre":
        draft["neutral_centre"] = value
    else:
        draft["church_with_cathedral"] = value
    if list(question) not in draft["answered"]:
        draft["answered"].append(list(question))
    draft["at"] = None


def _city_preview(shell: ShellView, draft: dict) -> list[ft.Control]:
    """The city's value and points once every question is answered (nothing when the entry does not
    fit the box: the engine says what is wrong when the city is sent)."""
    _, vm = shell.vm.t, shell.vm
    config = vm.game_session["config"]
    args = _city_args(draft)
    try:
        preview = rules.score_city(rules.check_city({k: args[k] for k in args if k != "city"}, "",
                                                    config["variant"], rules.guilds_in_play(config)),
                                   _names(shell))
    except inputs.InputError:
        return []
    points = ", ".join(f"{_owner(shell, g)} {p}" for g, p in preview["points"].items() if p)
    return [tid("city-preview", text(_("Value {value}: {points}").format(
        value=preview["value"], points=points or _("no points")), weight=ft.FontWeight.BOLD))]


def _question(shell: ShellView, draft: dict[str, Any], question: Question, answer: Callable[[Question, int], None]
              ) -> ft.Control:
    _ = shell.vm.t
    kind, guild = question
    if kind == "q" and guild:
        label, value, high = (_("Completed quarters of {guild}").format(guild=_owner(shell, guild)),
                              draft["quarters"].get(guild), CITY_QUARTERS)
    elif kind == "m" and guild:
        label, value, high = (_("Guild masters on the quarters of {guild} (it ties)").format(guild=_owner(shell, guild)),
                              draft["masters"].get(guild),
                              rules.most_masters(draft["quarters"][guild], shell.vm.game_session["config"]["variant"]))
    elif kind == "church":
        label, value, high = _("Church quarters (all, with or without a cathedral)"), draft["church_all"], 10
    elif kind == "centre":
        label, value, high = (_("Neutral city centre here (the Utrecht or Liège centre: 1 to the value, no guild's)"), draft["neutral_centre"], 1)
    else:
        label, value, high = (_("Of them with a cathedral"), draft["church_with_cathedral"],
                              min(draft["church_all"], rules.CATHEDRALS))
    extra: list[ft.Control] = []
    left = [g for g in rules.guilds_in_play(shell.vm.game_session["config"]) if ["q", g] not in draft["answered"]]
    if kind == "q" and guild in left and len(left) > 1:  # the guilds still to ask have no quarters here: one tap, not one each
        extra.append(tid("q-rest", ft.OutlinedButton(
            content=ft.Text(_("0 for this and the rest"), size=TEXT), height=TARGET,
            on_click=lambda e: _no_more_quarters(shell, draft, left))))
    return tid("question", pick(f"{kind}-{guild}" if guild else kind, label, value, 0, high,
                                lambda v: answer(question, v), extra))


def _no_more_quarters(shell: ShellView, draft: dict[str, Any], guilds: list[str]) -> None:
    """The guild asked and every guild after it: no completed quarters in this city."""
    for guild in guilds:
        _record_answer(draft, ("q", guild), 0)
    shell.render()


def _answer(shell: ShellView, draft: dict[str, Any], question: Question) -> str:
    _ = shell.vm.t
    kind, guild = question
    if kind == "q" and guild:
        return f"{_owner(shell, guild)} {draft['quarters'].get(guild, 0)}"
    if kind == "m" and guild:
        return _("{guild}: guild masters {n}").format(guild=_owner(shell, guild), n=draft["masters"].get(guild, 0))
    if kind == "church":
        return _("Church {n}").format(n=draft["church_all"])
    if kind == "centre":
        return _("Neutral centre {n}").format(n=draft["neutral_centre"])
    return _("Cathedral {n}").format(n=draft["church_with_cathedral"])


def _names(shell: ShellView) -> dict[str, str]:
    """Guild colour → the name of the player who plays it (grey and influenced guilds keep theirs)."""
    return {p["colour"]: p["name"] for p in shell.vm.game_session["config"]["players"]}


def _owner(shell: ShellView, guild: str) -> str:
    return _names(shell).get(guild) or _guild(shell, guild)


def end_of_round(shell: ShellView) -> tuple[list[ft.Control], ft.Control]:
    """After step 6: ask the end triggers (yes / no, the question wrapped in full); the bottom bar's
    button says whether the next round begins or the game ends."""
    _, vm = shell.vm.t, shell.vm
    two = vm.game_session["config"]["variant"] == rules.TWO_PLAYER
    answers = shell.draft.setdefault("end", {"board": False, "deck": False})
    questions = [("board", f"{GAME}.{rules.end_question(vm.game_session['config'])}")]
    if not two:
        questions.append(("deck", f"{GAME}.end.deck"))
    rows: list[ft.Control] = [heading(_("End of the turn") if two else _("End of the round"))]
    for key, text_key in questions:
        rows += [text(vm.t.text(text_key)),
                 choice_chips(f"end-{key}", [("no", _("No")), ("yes", _("Yes"))], "yes" if answers[key] else "no",
                              setter(answers, key, shell.render, lambda v: v == "yes"))]
    ends = any(answers[k] for k, _key in questions)
    label = (_("End the game: final scoring") if ends else _("Next turn") if two else _("Next round"))
    return ([card(rows, "end-check")],
            act(vm, "end_round", label, lambda e: _end_round(shell, answers, two), "end-round",
                icon=ft.Icons.FLAG if ends else ft.Icons.SKIP_NEXT, bar=True))


def _end_round(shell: ShellView, answers: dict, two: bool) -> None:
    args = {"board": answers["board"]} if two else dict(answers)
    if shell.vm.dispatch("end_round", **args):
        shell.draft = {}
        shell.render()


# ----------------------------------------------------------------------------------------------
# Final scoring


def final_screen(shell: ShellView) -> Screen:
    _, vm = shell.vm.t, shell.vm
    config, state = vm.game_session["config"], vm.game_state
    helper, primary = city_scoring_helper(shell)
    controls: list[ft.Control] = [*helper, text(vm.t.text(f"{GAME}.end.final_body"), SMALL), shell.problem()]
    args = {}
    if config["variant"] == rules.STANDARD:
        cards = shell.draft.setdefault("influence", dict(state["influence"]))
        rows: list[ft.Control] = [heading(_("Influence cards in hand")),
                                  text(_("Influence cards each player holds now (the app's count is filled in):"),
                                       SMALL)]
        for p in config["players"]:
            rows += [Stepper(f"influence-{p['colour']}", who(p["name"], p["colour"]), cards[p["colour"]], 0,
                             rules.SILVER_INFLUENCE + rules.GOLD_CARDS,
                             setter(cards, p["colour"]), big=0).control,
                     shell.problem(f"cards.{p['colour']}")]
        controls.append(card(rows, "final-helper"))
        args = {"cards": cards}
    finish = act(vm, "finish", _("Show the winner"), lambda e: shell.send("finish", "influence", **args), "finish",
                 icon=ft.Icons.EMOJI_EVENTS, bar=True)
    return Screen(controls + shell.footer(), primary or finish)


#: What the shell asks of this game's screens (companion/ui/screen_contract.py).
SCREENS = GameScreenHooks(
    new_game_form=new_game_form,
    round_screen=round_screen,
    category=category,
    final_screen=final_screen,
    track_label=track_label,
)
