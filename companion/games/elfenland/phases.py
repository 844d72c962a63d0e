"""Elfenland's round, phase by phase: the app's "next phase", income on the way, the auction's row
turned up on entering it, the quiet paths that end a phase, and the round's end.

Encodes ../shared/rules/FACTS.md §5.1, §5.4, §5.5:
- the start player passing left, the phases of the round in order (FACTS §5.1, §5.4): `_next_phase`,
  `_end_round`;
- the app's "next phase": income has nothing to enter, so it is booked on the way to the tiles phase;
  entering the auction turns up its row: `_advance`; nobody else bids this round (every later turn to
  bid a pass): `_no_more_bids`; nobody else moves (each passes, in Elfengold drawing 2 cards), in one
  entry: `_nobody_moves`;
- in Elfengold all board tiles, trees included, go back to the pool at the round's end
  (FACTS §5.4.7): `_end_round`;
- the game ends after the round in which someone has all 20 town pieces (FACTS §5.5): `_end_round`.

Decision where the sources are silent (FACTS §5.8 lists it as open): the base game ends early the
same way as Elfengold: after the round in which a player has all 20 town pieces.
"""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import InvalidAction, Msg, N_
from .elfengold import INCOME, _everyone_passes, _claimed, _pay, _turn_up
from .moves import waiting_movers
from .preparation import PHASES, TOWNS, _first_phase, _variant, colour_at, rounds


def _begin(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "play"


def _next_phase(state: dict, args: Mapping, config: Mapping) -> None:
    """On to the next phase of the round (when the table allows it: `moves`); income is booked on
    entering it (from round 2)."""
    current = state["step"]
    phases = PHASES[_variant(config)]
    if current == "end":
        _end_round(state, config)
        return
    state["step"] = phases[phases.index(current) + 1]
    if state["step"] == "income":
        for seat in range(len(config["players"])):      # from the start player, while the bank has gold
            _pay(state, colour_at(config, state["start"] + seat), INCOME)
    if state["step"] == "move":
        state["turn"] = state["start"]
        for p in state["players"].values():
            p["moved"] = False


def next_stop(state: Mapping, config: Mapping) -> str:
    """Where the app's "next phase" leads from here: the next phase (income is passed through: it has
    nothing to enter), after the round's end the next round's first phase, or "final"."""
    phases = PHASES[_variant(config)]
    if state["step"] == "end":
        return "final" if _last_round(state, config) else _first_phase(config, state["round"] + 1)
    following = phases[phases.index(state["step"]) + 1]
    return phases[phases.index(following) + 1] if following == "income" else following


def _advance(state: dict, args: Mapping, config: Mapping) -> None:
    """The app's "next phase" (`next_phase` stays for the games logged before it): on to `next_stop`,
    which `to` names as the screen showed it. Income is booked on the way to the tiles phase; entering
    the auction turns up its row (the tiles' kinds change nothing the app books) and opens tile 1."""
    if args.get("to") != next_stop(state, config):
        raise InvalidAction(Msg(N_("That belongs to another phase of the round.")))
    _next_phase(state, args, config)
    if state["phase"] == "play" and state["step"] == "income":
        _next_phase(state, args, config)
    if state["phase"] == "play" and state["step"] == "auction" and not state["row"]:
        _turn_up(state, config, [None] * 2 * len(config["players"]))


def _last_round(state: Mapping, config: Mapping) -> bool:
    """After the last round, or the round in which someone has all 20 town pieces, the game ends."""
    return state["round"] == rounds(config) or any(len(p["towns"]) == TOWNS for p in state["players"].values())


def _end_round(state: dict, config: Mapping) -> None:
    """The start player passes left; after the last round, or when someone has all 20 towns, the
    final scoring follows."""
    if _last_round(state, config):
        state["phase"] = "final"
        return
    state["round"] += 1
    state["start"] = (state["start"] + 1) % len(config["players"])
    state.update(step=_first_phase(config, state["round"]), turn=state["start"], row=[], next_tile=0, sold=[],
                 sitting_out=[], last_move=None)


def _no_more_bids(state: dict, args: Mapping, config: Mapping) -> None:
    """Nobody else bids this round, in one entry: every later turn to bid is a pass, so the tile on
    offer goes to its highest bidder (or back to the pool) and every tile after it goes back to the
    pool; the auction phase is then over and route planning begins."""
    _claimed(state, args)
    while state["auction"]:
        _everyone_passes(state, config)
    _next_phase(state, args, config)


def _nobody_moves(state: dict, args: Mapping, config: Mapping) -> None:
    """Nobody else moves, in one entry: each player who has not moved passes (in Elfengold he draws 2
    cards; a gold card among them goes onto the gold pile with its own tap), and the move phase ends."""
    waiting = waiting_movers(state, config)
    if args.get("players") != waiting:
        raise InvalidAction(Msg(N_("The moves have changed: look at the screen again.")), field="player")
    for family in waiting:
        state["players"][family]["moved"] = True
    _next_phase(state, args, config)
