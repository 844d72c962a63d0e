"""Carcassonne (Klaus-Jürgen Wrede, Hans im Glück 2000) with The Gifts: the table of allowed actions
and the game's definition for the engine (`GAME`).

The rules are encoded by concern (../shared/rules/FACTS.md §4; each module lists its sections):
- `features.py`: features and their scoring, checked against the box (FACTS §4.1, §4.3, §4.4);
- `session.py`: the configuration, the setup checklist, the turn's steps, meeples and features
  scored during play (FACTS §4.1–4.3);
- `gifts.py`: The Gifts during play (FACTS §4.5);
- `scoring.py`: the final tally and `final_scores`, also for `companion score` (FACTS §4.4, §4.5);
- `describe.py`: the game log's lines and the pinned header.

This module: `moves`, the table of allowed actions: who acts in each phase and step and why anything
else is refused (a gift is opened after drawing the tile and before placing it, so never in the turn
it was received). The names the screens and the tests use are re-exported here.
"""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.flow import by_name, score_track
from ...engine.model import ALLOWED, GameDef, N_, Rule, refused
from .describe import describe, guide
from .features import (ID, LAND_TILES, MEEPLES, MIN_COMPLETE, MONASTERY_AREA, explain_feature, feature_points,
                       feature_value)
from .gifts import GIFT_KINDS, _cash_out, _gift_draw, _gift_open, _road_sweeper, _synod
from .scoring import _end_game, _finish, _tally_feature, _tally_next, final_scores, result, score_cli
from .session import (COLOURS, ORDER, TALLY, _active, _begin, _goto_step, _meeple, _next_turn, _score_feature,
                      initial_state, new_config, setup_items, steps, tallied)

__all__ = ["COLOURS", "GAME", "GIFT_KINDS", "ID", "LAND_TILES", "MEEPLES", "MIN_COMPLETE", "MONASTERY_AREA",
           "REDUCERS", "TALLY", "describe", "explain_feature", "feature_points", "feature_value", "final_scores",
           "guide", "moves", "score_cli", "steps", "tallied"]


def moves(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The table of allowed actions: the setup, then turns (the player on turn moves between its
    steps, receives and opens gifts and ends it; anyone enters meeples and completed features), then
    the final tally one category at a time (meeple counts still corrected), then nothing but the
    result."""
    phase = state["phase"]
    table = dict.fromkeys(REDUCERS, refused({
        "setup": N_("The game has not begun yet: finish the setup first."),
        "play": N_("The final tally begins once the last tile is placed."),
        "tally": N_("The last tile is placed: the final tally is under way."),
    }.get(phase, N_("The game is over."))))
    if phase == "setup":
        table["begin"] = ALLOWED
    elif phase == "play":
        table.update(_turn_moves(state, config))
    elif phase == "tally":
        review = state["category"] == "review"
        table["meeple"] = ALLOWED
        table["tally_feature"] = refused(N_("Every category is entered: check the review.")) if review else ALLOWED
        table["tally_next"] = refused(N_("This is the review, the tally's last step.")) if review else ALLOWED
        table["finish"] = ALLOWED if review else refused(N_("Go through every category first."))
    if phase != "setup":
        table["begin"] = refused(N_("The game has already begun."))
    if not config["gifts"]:
        table.update(dict.fromkeys(("gift_draw", "gift_open", "synod", "road_sweeper", "cash_out"),
                                   refused(N_("The Gifts are not in this game."))))
    return table


def _turn_moves(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The table during play: the turn's own actions are the player on turn's."""
    active = _active(state, config)
    on_turn = frozenset({active})
    table = {"goto_step": Rule(by=on_turn), "next_turn": Rule(by=on_turn), "meeple": ALLOWED,
             "score_feature": ALLOWED, "end_game": ALLOWED}
    gifts = state["gifts"]
    if gifts is None:
        return table
    name = by_name(config, {active})
    if gifts["drawn"]:
        table["gift_draw"] = refused(N_("Only one gift is received per turn, even for several features."))
    elif gifts["deck"] == 0 and gifts["discard"] == 0:
        table["gift_draw"] = refused(N_("Every gift card is in the players' hands: no gift."))
    else:
        table["gift_draw"] = Rule(by=on_turn)
    held = gifts["held"][active]
    placed = state["placed"] or ORDER.index(state["step"]) >= ORDER.index("place")
    if gifts["opened"] is not None:
        table["gift_open"] = refused(N_("Only one gift may be opened per turn."))
    elif placed and gifts["drawn"] and held == 1:
        table["gift_open"] = refused(N_("A gift received this turn can be opened from the next turn on: a gift is "
                                        "opened after drawing a tile and before placing it."))
    elif placed:
        table["gift_open"] = refused(N_("This turn's tile is already placed: a gift is opened after drawing a tile "
                                        "and before placing it."))
    elif held == 0:
        table["gift_open"] = refused(N_("{name} holds no gift card."), name=name)
    else:
        table["gift_open"] = Rule(by=on_turn)
    for card in ("synod", "road_sweeper", "cash_out"):
        table[card] = Rule(by=on_turn) if gifts["opened"] == card else refused(N_("Open that gift first."))
    if gifts["opened"] == "cash_out" and state["meeples"][active] == 0:
        table["cash_out"] = refused(N_("None of this player's meeples is on the board."))
    return table


REDUCERS = {
    "begin": _begin, "goto_step": _goto_step, "next_turn": _next_turn, "meeple": _meeple,
    "score_feature": _score_feature, "gift_draw": _gift_draw, "gift_open": _gift_open, "synod": _synod,
    "road_sweeper": _road_sweeper, "cash_out": _cash_out, "end_game": _end_game,
    "tally_feature": _tally_feature, "tally_next": _tally_next, "finish": _finish,
}


GAME = GameDef(
    id=ID, cli_name="carcassonne", min_players=2, max_players=5,
    new_config=new_config, setup_items=setup_items, initial_state=initial_state,
    reducers=REDUCERS, describe=describe, score_cli=score_cli, steps=steps, result=result,
    independent=frozenset({"meeple"}), progress=score_track, guide=guide, navigation=frozenset({"goto_step"}),
    personal=frozenset({"meeple"}), moves=moves,
    order=40,
    bgg_id=822,  # checked: its boardgamegeek.com address
)
