"""Flanders 1302 (Wolfgang Panning, Queen Games 2004): the table of allowed actions, the game log, the
pinned header and `GAME`, the game's definition for the engine.

Encodes the rulebook as summarised in ../shared/rules/FACTS.md §1 (Czech seed 000), by concern:
- `preparation.py`: the player counts, the two-player variant, components and setup per player count, the
  round of six steps (rulebook "Komponenty a příprava hry", "1.–6.", "Pravidla pro 2 hráče"; FACTS §1.1–§1.4,
  §1.9);
- `rounds.py`: turn order in step 3 and the steps entered during a round, the end of a round
  (rulebook "3. Odkrytí karet", "Konec hry"; FACTS §1.4, §1.8, TV-F1);
- `cities.py`: city scoring in step 6 (rulebook "6. Přidělení bodů", "Remíza"; FACTS §1.7, TV-F2, TV-F3), and
  what a neutral city centre counts for: 1 toward its city's value, no guild's rank (rulebook "Komponenty a
  příprava hry" and "the city centre is also a quarter!"; FACTS §1.2, §1.3);
- `scoring.py`: end of game and the influence-card bonus (rulebook "Konec hry"; FACTS §1.8, TV-F4);
- here: who may enter what when (rulebook "1.–6.", "Konec hry", "Pravidla pro 2 hráče"): `moves`.

Decisions where the sources are silent (FACTS marks them UNKNOWN or inferred) are listed in the module
that makes them; the ones made here:
- with 3 players the empty city's building spaces do not count for the end condition "at most one
  empty building space": nothing can be built there (`end_question` asks with that text);
- steps 2, 3 and 6 are everyone's, steps 1 and 5 the start player's, step 4 the player on turn's
  (`moves`, `guide`); that everyone has acted in step 4 anyone at the table may enter (`all_acted`).
"""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.flow import score_track
from ...engine.model import ALLOWED, GameDef, Guide, Msg, N_, Rule, refused
from .cities import _score_city, check_city, city_value, most_masters, rank_table, score_city
from .rounds import (_action_done, _all_acted, _begin, _end_round, _gold_influence, _goto_step, _turn_order,
                     explain_order, on_turn, turn_order)
from .scoring import _finish, final_scores, result, score_cli
from .preparation import (BEFORE_ACTIONS, CATHEDRALS, CITIES, COLOURS, GOLD_CARDS, GUILDS, ID, NEUTRAL_CENTRES,
                    SILVER_INFLUENCE, STANDARD,
                    STEPS, TWO_PLAYER, cities_in_play, city_name, end_question, guild_name, guilds_in_play,
                    initial_state, new_config, setup_items, text)

#: What the screens, the teach mode and the tests read from the rules, wherever it is defined.
__all__ = [
    "BEFORE_ACTIONS", "CATHEDRALS", "CITIES", "COLOURS", "GAME", "GOLD_CARDS", "GUILDS", "ID", "NEUTRAL_CENTRES",
    "SILVER_INFLUENCE",
    "STANDARD", "STEPS", "TWO_PLAYER", "check_city", "cities_in_play", "city_name", "city_value", "end_question",
    "explain_order", "final_scores", "guild_name", "guilds_in_play", "moves", "most_masters", "on_turn", "rank_table",
    "score_city", "text", "turn_order",
]


def moves(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The table of allowed actions: for each phase and step of the round, what may be entered and by
    whom, and why the rest is refused (rulebook "1.–6.", "Konec hry", "Pravidla pro 2 hráče")."""
    phase, step = state["phase"], state.get("step")
    standard = config["variant"] == STANDARD
    if phase == "over":
        return {kind: refused(N_("The game is over.")) for kind in REDUCERS}
    if phase == "setup":
        later = refused(N_("The rounds begin once the setup is done."))
        return {**{kind: later for kind in REDUCERS}, "begin": ALLOWED}
    if phase == "final":
        ended = refused(N_("The game has ended: score the cities left, then show the winner."))
        table = {kind: ended for kind in REDUCERS}
        table["begin"] = refused(N_("The game has already begun."))
        table["score_city"] = _city_rule(state, config)
        missing = [c for c in cities_in_play(config) if c not in state["cities"]]
        table["finish"] = Rule(Msg(N_("Score every city first; still to score: {cities}."), {"cities": Msg(
            ", ".join("{c%d}" % i for i in range(len(missing))), {f"c{i}": city_name(c) for i, c in enumerate(missing)})})
        ) if missing else ALLOWED
        return table
    start = config["players"][state["start"]]["colour"]
    if not standard:
        turn_order = action_done = all_acted = refused(N_("The two-player variant has no turn order to work out."))
        gold = refused(N_("The two-player variant plays without gold cards."))
    else:
        if step not in BEFORE_ACTIONS:
            turn_order = refused(N_("The cards are revealed in step 3: go to step 3 to enter them."))
        elif state["order"] is not None:
            turn_order = refused(N_("The turn order of this round is already set: undo it to enter it again."))
        else:
            turn_order = ALLOWED
        if step != "actions":
            action_done = refused(N_("The players carry out their actions in step 4."))
        elif state["order"] is None:
            action_done = refused(N_("Work out the turn order in step 3 first: it says who acts when."))
        elif (turn := on_turn(state, config)) is None:
            action_done = refused(N_("Every player has carried out an action this round."))
        else:
            action_done = Rule(by=frozenset({turn}))
        # everyone's, once someone is on turn: the table says at once that step 4 is over
        all_acted = ALLOWED if action_done.refusal is None else action_done
        if step != "start_gold":
            gold = refused(N_("The start player reveals the gold card in step 5."))
        elif state["gold_influence"] == state["round"]:
            gold = refused(N_("The start player takes one gold card per round."))
        else:
            gold = Rule(by=frozenset({start}))
    if step != "scoring":
        end_round = refused(N_("The round ends after step 6: go to step 6 first.") if standard
                            else N_("The turn ends after its scoring (step 3): go to step 3 first."))
    else:
        end_round = ALLOWED if standard else Rule(by=frozenset({start}))
    return {
        "begin": refused(N_("The game has already begun.")), "goto_step": ALLOWED, "turn_order": turn_order,
        "action_done": action_done, "all_acted": all_acted, "gold_influence": gold,
        "score_city": _city_rule(state, config),
        "end_round": end_round,
        "finish": refused(N_("The final scoring begins once the end of the game is checked after step 6.")
                          if standard else
                          N_("The final scoring begins once the end of the game is checked at the end of a turn.")),
    }


def _city_rule(state: Mapping, config: Mapping) -> Rule:
    """Cities are scored in the round's scoring step and in the final scoring, each once."""
    if state["phase"] == "round" and state["step"] != "scoring":
        return refused(N_("Completed cities are scored in step 6.") if config["variant"] == STANDARD
                       else N_("Completed cities are scored at the end of the turn (step 3)."))
    if all(c in state["cities"] for c in cities_in_play(config)):
        return refused(N_("Every city in play has been scored."))
    return ALLOWED


REDUCERS = {
    "begin": _begin, "goto_step": _goto_step, "turn_order": _turn_order, "action_done": _action_done,
    "all_acted": _all_acted, "gold_influence": _gold_influence,
    "score_city": _score_city, "end_round": _end_round, "finish": _finish,
}


def describe(action: Mapping, config: Mapping) -> Msg:
    """What an action did, for the game log and the undo button."""
    kind, args = action.get("type"), action.get("args", {})
    names = {p["colour"]: p["name"] for p in config["players"]}
    if kind == "tick":
        return Msg(N_("Setup: ticked an item") if args.get("done") else N_("Setup: unticked an item"))
    if kind == "begin":
        return Msg(N_("Setup finished, round 1 begins"))
    if kind == "goto_step":
        return Msg(N_("Moved to step: {step}"), {"step": text(f"step.{config['variant']}.{args.get('step')}.title")})
    if kind == "turn_order":
        cards = args.get("cards", {})
        return Msg(N_("Cards revealed: {cards}"), {"cards": ", ".join(f"{names[c]} {cards.get(c)}" for c in names)})
    if kind == "action_done":
        return Msg(N_("{name} carried out the action"), {"name": names.get(args.get("player"), "")})
    if kind == "all_acted":
        return Msg(N_("Every player carried out the action"))
    if kind == "gold_influence":
        return Msg(N_("The start player kept a gold influence card"))
    if kind == "score_city":
        city = check_city({k: args[k] for k in ("quarters", "church", "church_with_cathedral", "masters",
                                                "neutral_centre") if k in args}, "", config["variant"], list(GUILDS))
        return Msg(N_("Scored {city} (value {value})"), {"city": city_name(args["city"]), "value": city_value(city)})
    if kind == "end_round":
        return Msg(N_("End of round checked: the game ends") if args.get("board") or args.get("deck")
                   else N_("End of round checked: next round"))
    if kind == "finish":
        return Msg(N_("Final scoring done"))
    if kind == "correct":
        track = args.get("track")
        who = guild_name(track)
        return Msg(N_("Score correction for {guild}: {points:+d} ({reason})"),
                   {"guild": who, "points": args.get("points", 0), "reason": args.get("reason", "")})
    return Msg(N_("Unknown action"))


def guide(state: Mapping, config: Mapping) -> Guide:
    """The pinned header: round (or turn) and step, and who acts in that step: the start player in
    steps 1 and 5, the player on turn in step 4 (by the turn order of step 3), nobody in particular
    where everyone acts at once (steps 2, 3) or the table scores (step 6); in the two-player variant
    the player on turn. Every player's points (own guild plus influenced guild in the variant)."""
    variant = config["variant"]
    totals = {p["colour"]: state["scores"][p["colour"]] + state["scores"].get(config.get("influenced", {}).get(
        p["colour"]), 0) for p in config["players"]}
    figures = {colour: Msg("{n}", {"n": n}) for colour, n in totals.items()}
    if state["phase"] == "final":
        return Guide(Msg(N_("End of the game: score every city left, then the winner")), figures=figures,
                     screen="final")
    if state["phase"] == "over":
        return Guide(Msg(N_("The game is over")), figures=figures, screen="over")
    steps = STEPS[variant]
    index = [s.id for s in steps].index(state["step"])
    where = Msg(N_("Round {round} · step {n} of {all}: {step}") if variant == STANDARD
                else N_("Turn {round} · step {n} of {all}: {step}"),
                {"round": state["round"], "n": index + 1, "all": len(steps),
                 "step": text(f"step.{variant}.{state['step']}.title")})
    start = config["players"][state["start"]]["colour"]
    screen = f"round:{state['step']}"
    if variant == TWO_PLAYER:
        return Guide(where, start, Msg(N_("On turn:")), figures, screen)
    if state["step"] in ("gold_card", "start_gold"):
        return Guide(where, start, Msg(N_("Start player:")), figures, screen)
    if state["step"] == "actions" and on_turn(state, config):
        return Guide(where, on_turn(state, config), Msg(N_("On turn:")), figures, screen)
    return Guide(where, None, None, figures, screen)


GAME = GameDef(
    id=ID, cli_name="flanders-1302", min_players=2, max_players=4,
    new_config=new_config, setup_items=setup_items, initial_state=initial_state,
    reducers=REDUCERS, describe=describe, score_cli=score_cli,
    steps=lambda config: STEPS[config["variant"]], result=result,
    progress=score_track, guide=guide, navigation=frozenset({"goto_step"}),
    personal=frozenset({"turn_order", "action_done"}), moves=moves,
    order=10,
    # bgg_id: not checked against any stored page, so none (matched by name only)
    other_names=("Flandern 1302", "Vlaanderen 1302", "Flandry 1302"),
)
