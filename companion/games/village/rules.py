"""Village (Inka & Markus Brand, eggertspiele 2011): the table of allowed actions, the game log, the
pinned header and `GAME`, the game's definition for the engine.

Encodes the rulebook as summarised in ../shared/rules/FACTS.md §2 (Czech seed 001, whose lost
digits §2.1 restores), by concern:
- `box.py`: what the box contains and the scoring tables (FACTS §2.2, §2.8);
- `preparation.py`: components and setup per player count (rulebook "Příprava hry"; FACTS §2.2, §2.3);
- `turns.py`: the round (FACTS §2.4, §2.6), plague, time and death (FACTS §2.4, §2.7; TV-V2, TV-V10),
  birth (FACTS §2.5.2; TV-V3) and the family's books;
- `market.py`: the market day (FACTS §2.5.4; TV-V6);
- `mass.py`: the mass and its majority bonus (FACTS §2.6; TV-V7);
- `ending.py`: the end of the game, the final actions also when the end comes during a market day
  (rulebook "Konec hry", "Zvláštní případ"; FACTS §2.8);
- `scoring.py`: the final scoring (FACTS §2.8; TV-V1);
- here: who may make each entry when (FACTS §2.4–§2.8): `moves`.

Board data no source settles (FACTS §2.10) is never invented: the time track's length is entered
when the game starts; the grain paid to move up a church window, the printed prestige of a customer
and whether a chronicle space is still free are entered when they happen; travel and council
counts are entered at the final scoring.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from ...engine.flow import score_track
from ...engine.model import ALLOWED, GameDef, Guide, Msg, N_, P_, Rule, refused
from .box import (ACTION_TIME, COINS, COLOURS, CUSTOMER_PRESTIGE_MAX, CUSTOMERS, FARMYARD_GRAIN, GOODS, GRAIN, ID, MARKET_TIME, MASS_PIECES,
                  MEMBERS, PLAGUE_TIME, PROFESSIONS, TRAVEL_MARKERS, _name, in_church, living, lowest_living, lowest_visible,
                  text)
from .ending import _end_trigger, _finish, final_action_order
from .market import _market_end, _market_pass, _market_sell, _market_start, payment
from .mass import (_mass_buy, _mass_done, _mass_draw, _mass_end, _mass_move, _mass_quiet, _round_end, can_move,
                   mass_idle, mass_majority, mass_mover)
from .scoring import chronicle_points, final_scores, result, score_cli, travel_points
from .preparation import initial_state, new_config, setup_items
from .turns import (STEPS, _begin, _birth, _church, _coins, _death, _dying, _goto_step, _grain, _next_marker,
                    _next_turn, _time, deaths_due)

#: What the screens, the teach mode and the tests read from the rules, wherever it is defined.
__all__ = [
    "ACTION_TIME", "COINS", "COLOURS", "CUSTOMER_PRESTIGE_MAX", "FARMYARD_GRAIN", "GAME", "GOODS", "GRAIN", "ID", "MARKET_TIME", "MASS_PIECES",
    "MEMBERS", "PROFESSIONS", "STEPS", "TRAVEL_MARKERS", "_dying", "can_move", "chronicle_points", "deaths_due",
    "final_action_order", "final_scores", "in_church", "living", "lowest_living", "lowest_visible", "mass_idle",
    "mass_majority",
    "mass_mover", "moves", "payment", "text", "travel_points",
]


def _in_turns(reducer: Callable[[dict, Mapping, Mapping], None]) -> Callable[[dict, Mapping, Mapping], None]:
    """An entry made during the players' turns: once the first is made, the round is past filling the
    action spaces, and the header says so (not the step the round began with)."""
    def reduce(state: dict, args: Mapping, config: Mapping) -> None:
        reducer(state, args, config)
        if state["phase"] == "play" and state["step"] == "seed":
            state["step"] = "turns"
    reduce.__doc__ = reducer.__doc__
    return reduce


REDUCERS = {
    "begin": _begin, "goto_step": _goto_step, "next_turn": _in_turns(_next_turn), "time": _in_turns(_time),
    "birth": _in_turns(_birth), "death": _in_turns(_death), "coins": _in_turns(_coins), "grain": _in_turns(_grain),
    "church": _in_turns(_church), "next_marker": _in_turns(_next_marker), "market_start": _in_turns(_market_start),
    "market_sell": _market_sell, "market_pass": _market_pass, "market_end": _market_end, "round_end": _round_end,
    "mass_buy": _mass_buy, "mass_draw": _mass_draw, "mass_move": _mass_move, "mass_done": _mass_done,
    "mass_end": _mass_end, "mass_quiet": _mass_quiet, "end_trigger": _in_turns(_end_trigger),
    "finish": _finish,
}


# ----------------------------------------------------------------------------------------------
# The table of allowed actions


def _off(state: Mapping) -> Rule:
    """Why an entry of the rounds (a family's books, the turns) is refused outside them."""
    phase = state["phase"]
    if phase == "setup":
        return refused(N_("The game has not begun: finish the setup first."))
    if phase == "mass":
        return refused(N_("The mass is being held: this comes after it."))
    if phase == "scoring":
        return refused(N_("The rounds are over: only the final scoring is left."))
    return refused(N_("The game is over."))


def moves(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The table of allowed actions (FACTS §2.4–§2.8): who may make each entry now, or why it is refused.

    - the rounds (play, and the final actions once the end has come): the family's books any time,
      turns in order; a turn ends, and a round ends, only after the market day and after every death
      the time track caused; the round ends only in play (the final actions skip the mass of the round);
    - a market day: the seller on turn sells or passes; a member who dies during it dies at once, so
      the day goes on only after his death is recorded;
    - the mass: buy members out until 4 pieces are out, draw the rest, move up in turn order (the
      families that can), the majority; a mass in which nobody can act is one entry;
    - the final scoring once the final mass is over.
    """
    phase = state["phase"]
    table = {kind: _off(state) for kind in REDUCERS}
    table["begin"] = ALLOWED if phase == "setup" else refused(N_("The game has already begun."))
    table["finish"] = (ALLOWED if phase == "scoring" else refused(N_("The game is over: the final scoring is done."))
                       if phase == "over" else refused(N_("The final scoring comes after the final mass.")))
    if phase in ("play", "final_actions"):
        dying = _dying(state, config)
        table.update(_round_rules(state, config, dying))
        table.update(_market_rules(state, config, dying))
        nothing = refused(N_("The mass comes at the end of the round."))
        for kind in ("mass_buy", "mass_draw", "mass_move", "mass_done", "mass_end", "mass_quiet"):
            table[kind] = nothing
    elif phase == "mass":
        table.update(_mass_rules(state, config))
    return table


def _round_rules(state: Mapping, config: Mapping, dying: list[str]) -> dict[str, Rule]:
    """The rounds and the final actions: the family's books any time, turns in order once the market
    day and every death due are done."""
    phase, market = state["phase"], state["market"]
    turn = config["players"][state["turn"]]["colour"]
    table = {kind: ALLOWED for kind in ("time", "birth", "church", "coins", "grain")}
    table["death"] = (Rule(by=frozenset(dying)) if dying
                      else refused(N_("Nobody has to die now: no time marker has passed the bridge.")))
    if market:
        held = refused(N_("Finish the market day first."))
    elif dying:
        held = refused(N_("{name} passed the bridge: record the family member's death first."),
                       name=_name(config, dying[0]))
    else:
        held = Rule(by=frozenset({turn}))
    table["next_turn"] = held
    table["round_end"] = held if phase == "play" else refused(
        N_("The game is ending: after the final actions comes the final mass, not the mass of the round."))
    table["goto_step"] = (ALLOWED if phase == "play" and not market else refused(N_("Finish the market day first."))
                          if market else refused(N_("The game is ending: only the final actions are left.")))
    table["market_start"] = (refused(N_("A market day is already running.")) if market
                             else Rule(by=frozenset({turn})))
    table["next_marker"] = (
        refused(N_("The game is ending: there is no next round.")) if phase == "final_actions"
        else refused(N_("The next-starting-player marker is already taken this round."))
        if state["next_start"] is not None else ALLOWED)
    table["end_trigger"] = ALLOWED if phase == "play" else refused(N_("The game is already ending."))
    return table


def _market_rules(state: Mapping, config: Mapping, dying: list[str]) -> dict[str, Rule]:
    """A market day: the seller on turn sells or passes, once the death of a member who dies during it
    is recorded."""
    market = state["market"]
    if not market:
        idle = refused(N_("No market day is running."))
        return {"market_sell": idle, "market_pass": idle, "market_end": idle}
    if dying:
        first = refused(N_("{name} passed the bridge: on a market day the family member dies at once: record "
                           "the death first."), name=_name(config, dying[0]))
        return {"market_sell": first, "market_pass": first, "market_end": first}
    seller = Rule(by=frozenset({market["turn"]}))
    served = sum(len(p["customers"]) for p in state["players"].values()) >= CUSTOMERS
    return {"market_sell": refused(N_("All 24 customers have been served.")) if served else seller,
            "market_pass": seller, "market_end": ALLOWED}


def _mass_rules(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The mass: buy members out until 4 pieces are out, draw the rest, move up in turn order, the
    majority; a mass in which nobody can act is one entry."""
    mass = state["mass"]
    table = {kind: ALLOWED for kind in ("coins", "grain")}
    drawn = mass["drawn"] is not None
    after = refused(N_("The pieces have already been drawn."))
    table["mass_buy"] = (after if drawn else refused(N_("Four members are already out of the bag."))
                         if sum(mass["bought"].values()) >= MASS_PIECES else ALLOWED)
    table["mass_draw"] = after if drawn else ALLOWED
    mover = mass_mover(state, config)
    first = refused(N_("Draw the pieces first."))
    moving = (first if not drawn else Rule(by=frozenset({mover})) if mover
              else refused(N_("Nobody can move up any more: no member to move or no grain to pay.")))
    table["mass_move"] = table["mass_done"] = moving
    table["mass_end"] = (first if not drawn else refused(N_("{name} moves up first."), name=_name(config, mover))
                         if mover else ALLOWED)
    table["mass_quiet"] = (ALLOWED if not drawn and not mass["bought"] and mass_idle(state)
                           else refused(N_("Someone can still act in this mass: go through its parts.")))
    return table


# ----------------------------------------------------------------------------------------------
# The game log and the pinned header


def describe(action: Mapping, config: Mapping) -> Msg:
    """What an action did, for the game log and the undo button."""
    kind, args = action.get("type"), action.get("args", {})
    colour = args.get("player")
    who = _name(config, colour) if colour in {p["colour"] for p in config["players"]} else ""
    simple = {
        "begin": N_("Setup finished, round 1 begins"), "next_turn": N_("Next player"),
        "round_end": N_("The round ended: mass"), "market_end": N_("Market day over"),
        "mass_draw": N_("Mass: pieces drawn"), "mass_end": N_("Mass over"),
        "mass_quiet": N_("Mass: nobody could act; the majority scored"),
        "finish": N_("Final scoring done"), "goto_step": N_("Moved to another step"),
    }
    if kind in simple:
        return Msg(simple[kind])
    if kind == "tick":
        return Msg(N_("Setup: ticked an item") if args.get("done") else N_("Setup: unticked an item"))
    if kind == "time":
        n = PLAGUE_TIME if args.get("plague") else args.get("amount", 0)
        return (P_("{name}: plague cube, {n} time", "{name}: plague cube, {n} time", n, name=who)
                if args.get("plague") else P_("{name}: {n} time", "{name}: {n} time", n, name=who))
    per_player = {
        "birth": N_("{name}: a family member is born"), "death": N_("{name}: a family member died"),
        "church": N_("{name}: a member into the black bag"), "next_marker": N_("{name} took the next-starting-player marker"),
        "market_start": N_("{name} started a market day"), "market_pass": N_("{name} passed at the market"),
        "mass_buy": N_("{name} bought a member out of the bag"), "mass_done": N_("{name} finished moving"),
        "end_trigger": N_("{name} ended the game"),
    }
    if kind in per_player:
        return Msg(per_player[kind], {"name": who})
    if kind == "coins":
        return Msg(N_("{name}: coins {delta:+d}"), {"name": who, "delta": args.get("delta", 0)})
    if kind == "grain":
        return Msg(N_("{name}: grain {delta:+d}"), {"name": who, "delta": args.get("delta", 0)})
    if kind == "market_sell":
        sale = P_("{name} served a customer ({n} prestige point)", "{name} served a customer ({n} prestige points)",
                  args.get("prestige", 0), name=who)
        paid = payment(args.get("grain", 0), args.get("goods", []))
        return Msg(N_("{sale}, paid: {paid}"), {"sale": sale, "paid": paid}) if paid else sale
    if kind == "mass_move":
        return Msg(N_("{name} moved a member up in the church"), {"name": who})
    if kind == "correct":
        track = args.get("track")
        return Msg(N_("Prestige for {name}: {points:+d} ({reason})"),
                   {"name": _name(config, track) if track in {p["colour"] for p in config["players"]} else track,
                    "points": args.get("points", 0), "reason": args.get("reason", "")})
    return Msg(N_("Unknown action"))



def guide(state: Mapping, config: Mapping) -> Guide:
    """The pinned header: round and step (the market day, a death, the mass's part, the end), who acts
    (the player on turn, at the market the seller, a family whose member dies, in the church's second
    part the family moving up) and every family's prestige. It follows the table of allowed actions:
    the actor named is the one its `by` names for the entry that is due."""
    players = config["players"]
    figures = {p["colour"]: Msg("{n}", {"n": state["scores"][p["colour"]]}) for p in players}
    phase = state["phase"]
    if phase == "setup":
        return Guide(Msg(N_("Setup")), figures=figures, screen=phase)
    if phase == "mass":
        mass = state["mass"]
        part = (Msg(N_("four pieces out of the bag")) if mass["drawn"] is None
                else Msg(N_("moving up")) if mass_mover(state, config) else Msg(N_("the majority")))
        where = (Msg(N_("Final mass · {part}"), {"part": part}) if mass["final"]
                 else Msg(N_("Mass after round {n} · {part}"), {"n": state["round"], "part": part}))
        return Guide(where, mass_mover(state, config), Msg(N_("Moves up:")), figures,
                     f"mass:{mass['drawn'] is not None}")
    if phase in ("scoring", "over"):
        return Guide(Msg(N_("Final scoring")), figures=figures, screen=phase)
    turn = players[state["turn"]]["colour"]
    dying = _dying(state, config)
    if state["market"]:
        now = Msg(N_("market day"))
    elif dying:
        now = Msg(N_("a family member dies"))
    elif phase == "final_actions":
        now = Msg(N_("the game is ending: final actions"))
    else:
        now = Msg("{step}", {"step": text(f"step.standard.{state['step']}.title")})
    where = Msg(N_("Round {n} · {step}"), {"n": state["round"], "step": now})
    if state["market"]:
        if dying:
            return Guide(where, dying[0], Msg(N_("Dies at once:")), figures, f"market:{phase}")
        return Guide(where, state["market"]["turn"], Msg(N_("At the market:")), figures, f"market:{phase}")
    if dying:
        return Guide(where, dying[0], Msg(N_("A member dies:")), figures, f"{phase}:{state['round']}")
    # one screen for the round's turns: the step moving on with the first entry does not scroll it away
    return Guide(where, turn, Msg(N_("On turn:")), figures, f"{phase}:{state['round']}")


GAME = GameDef(
    id=ID, cli_name="village", min_players=2, max_players=4,
    new_config=new_config, setup_items=setup_items, initial_state=initial_state,
    reducers=REDUCERS, describe=describe, score_cli=score_cli,
    steps=lambda config: STEPS, result=result,
    progress=score_track, guide=guide, moves=moves,
    personal=frozenset({"market_sell", "market_pass", "mass_buy", "mass_move", "mass_done"}),
    order=20,
    bgg_id=104006,  # checked: its boardgamegeek.com address
    other_names=("Kronika panství",),
)
