"""Elfenland (Alan R. Moon, 1998) and its expansion Elfengold: the table of allowed actions and the
game's definition for the engine (`GAME`).

The rules are encoded by concern (../shared/rules/FACTS.md §5; each module lists its sections):
- `preparation.py`: the components, the setup of both games and the session's configuration (FACTS §5.1–5.3);
- `phases.py`: the round phase by phase, the app's "next phase" and the round's end (FACTS §5.1, §5.4);
- `elfengold.py`: Elfengold's gold ledger and the transport-tile auction (FACTS §5.4);
- `moves.py`: travel-card costs, the moves and the race for towns (FACTS §5.1, §5.4.5, §5.5);
- `scoring.py`: the final scoring, also for `companion score` (FACTS §5.1, §5.5);
- `describe.py`: the game log's lines and the pinned header.

This module: in each phase of the round who acts and what may be entered (`moves`), with the
reason for what may not; gold cards turn up only where travel cards are drawn (FACTS §5.4.1,
§5.4.6): `DRAWING`. The names the screens and the tests use are re-exported here.
"""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import ALLOWED, GameDef, Msg, N_, Rule, refused
from .describe import describe, guide
from .elfengold import (GOLD_CARDS, GOLD_PER_CARD, INCOME, WIZARD_CARPET, WIZARD_OBSTACLE, _adjust, _bid, _gold_card,
                        _bid_again, _no_bid, _pass_bid, _reveal, _sit_out, _take_pile, bank, coins, move_gold)
from .moves import TERRAINS, TRANSPORTS, WATERS, _move, _pass_move, _town, destinations, road_cost, waiting_movers
from .phases import _advance, _begin, _next_phase, _no_more_bids, _nobody_moves, next_stop
from .scoring import _cards, _finish, final_scores, result, score_cli
from .preparation import (COLOURS, ELFENGOLD, GOLD_DISCS, GOLD_IN_BOX, HAND_AFTER_MOVE, ID, TOWN_LIST, _variant, colour_at,
                    initial_state, new_config, setup_items, steps, text)

__all__ = ["COLOURS", "ELFENGOLD", "GAME", "GOLD_CARDS", "GOLD_DISCS", "GOLD_IN_BOX", "GOLD_PER_CARD",
           "HAND_AFTER_MOVE", "ID", "INCOME", "REDUCERS", "TERRAINS", "TOWN_LIST", "TRANSPORTS", "WATERS",
           "WIZARD_CARPET", "WIZARD_OBSTACLE", "bank", "coins", "colour_at", "describe", "destinations", "final_scores",
           "guide", "move_gold", "moves", "next_stop", "road_cost", "score_cli", "setup_items", "text", "waiting_movers"]


#: Where gold cards turn up and the gold pile is taken: when travel cards are drawn, in the draw phase or
#: as 2 cards in the move phase (FACTS §5.4.1, §5.4.6); at the round's end for a card drawn by "nobody
#: else moves" (one entry for every pass, so its gold cards come after it).
DRAWING = ("draw", "move", "end")


def moves(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The table of allowed actions (GameDef.moves): in each phase of the round who acts and what may
    be entered, with the reason for what may not. The reducers check only the numbers an action brings."""
    phase, gold_game = state["phase"], _variant(config) == ELFENGOLD
    over = refused(N_("The game is over."))
    outside = {"setup": refused(N_("Finish the setup first: the rounds have not begun.")),
               "final": refused(N_("The rounds are over: this is the final scoring.")), "over": over}.get(phase)
    table = dict.fromkeys(ROUND_ACTIONS, outside) if outside else _round(state, config)
    if not gold_game:
        table.update(dict.fromkeys(GOLD_ACTIONS, refused(N_("That is an Elfengold rule."))))
    ledger = {"setup": refused(N_("Finish the setup first: the ledgers start with round 1.")), "over": over}
    table["town"] = ledger.get(phase, ALLOWED)
    table["adjust"] = ledger.get(phase, ALLOWED) if gold_game else refused(N_("That is an Elfengold rule."))
    if gold_game:
        table["cards"] = refused(N_("In Elfengold a tie on towns is broken by gold: travel cards are not counted."))
    else:
        table["cards"] = ALLOWED if phase == "final" else over if phase == "over" else refused(
            N_("Travel cards in hand are counted at the final scoring."))
    table["finish"] = ALLOWED if phase == "final" else over if phase == "over" else refused(
        N_("The final scoring comes after the last round."))
    table["begin"] = ALLOWED if phase == "setup" else refused(N_("The game has begun already."))
    table["correct"] = Rule(Msg(N_("Elfenland keeps no score track: correct the town pieces or the gold in the "
                                   "ledgers.")), field="track")
    return table


#: The entries of a round's phases, and those of them that only Elfengold has.
ROUND_ACTIONS = ("next_phase", "advance", "gold_card", "take_pile", "reveal", "bid", "pass_bid", "sit_out",
                 "bid_again", "no_bid", "no_more_bids", "move", "pass_move", "nobody_moves")


GOLD_ACTIONS = ("gold_card", "take_pile", "reveal", "bid", "pass_bid", "sit_out", "bid_again", "no_bid",
                "no_more_bids")


def _round(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The round's entries while the rounds are played."""
    step, row, offer = state["step"], state["row"], state["auction"]
    if step == "auction" and not row:
        onward = refused(N_("Turn up the tiles for the auction first."))
    elif offer or (step == "auction" and state["next_tile"] < len(row)):
        onward = refused(N_("Auction every tile of the row first."))
    elif step == "move" and waiting_movers(state, config):
        onward = refused(N_("Every player moves or passes first."))
    else:
        onward = ALLOWED
    if step not in DRAWING:
        pile = card = refused(N_("Gold cards turn up only when travel cards are drawn: in the draw phase, or as "
                                 "2 cards in the move phase."))
    else:
        card = refused(N_("There are only {n} gold cards."), n=GOLD_CARDS) if state["gold_pile"] >= GOLD_CARDS \
            else ALLOWED
        pile = ALLOWED if state["gold_pile"] else refused(N_("The gold pile is empty."))
    reveal = (refused(N_("The tiles are turned up in the auction phase.")) if step != "auction" else
              refused(N_("The row is already out.")) if row else ALLOWED)
    if offer:
        bidding, quiet = Rule(by=frozenset({offer["next"]})), ALLOWED
    else:
        bidding = quiet = refused(N_("No tile is up for auction now."))
    if not (offer and offer["lot"]["index"] < len(row) - 1):
        again = refused(N_("No tile is left to bid on this round."))
    elif not state["sitting_out"]:
        again = refused(N_("Everyone still bids this round."))
    else:
        again = Rule(by=frozenset(state["sitting_out"]))
    waiting = waiting_movers(state, config)
    if step != "move":
        moving = quiet_move = refused(N_("Moves are made in the move phase."))
    elif not waiting:
        moving = quiet_move = refused(N_("Everyone has moved this round."))
    else:
        # "nobody else moves" ends the turns of those still to move: theirs to say, not a phone's whose
        # player has moved already
        moving, quiet_move = Rule(by=frozenset({colour_at(config, state["turn"])})), Rule(by=frozenset(waiting))
    return {"next_phase": onward, "advance": onward, "gold_card": card, "take_pile": pile, "reveal": reveal,
            "bid": bidding, "pass_bid": bidding, "sit_out": bidding, "bid_again": again, "no_bid": quiet,
            "no_more_bids": quiet,
            "move": moving, "pass_move": moving, "nobody_moves": quiet_move}


REDUCERS = {"begin": _begin, "next_phase": _next_phase, "advance": _advance, "gold_card": _gold_card,
            "take_pile": _take_pile, "reveal": _reveal, "bid": _bid, "pass_bid": _pass_bid, "sit_out": _sit_out,
            "bid_again": _bid_again, "no_bid": _no_bid,
            "no_more_bids": _no_more_bids, "move": _move, "pass_move": _pass_move, "nobody_moves": _nobody_moves,
            "town": _town, "adjust": _adjust, "cards": _cards, "finish": _finish}


GAME = GameDef(
    id=ID, cli_name="elfenland", min_players=2, max_players=6,
    new_config=new_config, setup_items=setup_items, initial_state=initial_state,
    reducers=REDUCERS, describe=describe, score_cli=score_cli, steps=steps, result=result,
    independent=frozenset({"adjust"}), progress=lambda state, config: {
        p["colour"]: len(state["players"][p["colour"]]["towns"]) for p in config["players"]}, guide=guide,
    personal=frozenset({"bid", "pass_bid", "sit_out", "bid_again", "take_pile", "move", "pass_move"}), moves=moves,
    order=50,
    bgg_id=10,  # checked: its boardgamegeek.com address
)
