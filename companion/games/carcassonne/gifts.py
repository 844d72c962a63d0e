"""Carcassonne's The Gifts during play (FACTS §4.5, seed 003).

The gift deck as counts: cards in the deck, the discard pile and each player's hand, never more than
25; reshuffled when the deck is empty; no gift when every card is held (`_gift_draw`); a gift opened
after drawing the tile and before placing it (`_gift_open`; when that is allowed: `rules.moves`);
the Synod, Road Sweeper and Cash Out calculators (`_synod`, `_road_sweeper`, `_cash_out`). The
unopened gifts at the final scoring: `scoring.final_scores`.
"""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import InvalidAction, Msg, N_
from .features import MEEPLES, feature_points
from .session import _active, _checked, _reached, _return_meeples


GIFT_KINDS = ("synod", "road_sweeper", "change_position", "cash_out", "take_2")


def _gift_draw(state: dict, args: Mapping, config: Mapping) -> None:
    """The tile placed extended someone else's road or city: one gift card (the table allows one per
    turn, and none when every card is held). The tile is down: the turn is past opening gifts."""
    gifts = state["gifts"]
    if gifts["deck"] == 0:
        gifts["deck"], gifts["discard"] = gifts["discard"], 0
    gifts["deck"] -= 1
    gifts["held"][_active(state, config)] += 1
    gifts["drawn"] = True
    _reached(state, "place")


def _gift_open(state: dict, args: Mapping, config: Mapping) -> None:
    """After drawing and before placing: open one gift, resolve it, discard it."""
    if args.get("card") not in GIFT_KINDS:
        raise InvalidAction(Msg(N_("Which gift was opened?")), field="card")
    gifts = state["gifts"]
    gifts["held"][_active(state, config)] -= 1
    gifts["discard"] += 1
    gifts["opened"] = args["card"]
    _reached(state, "gift")


def _synod(state: dict, args: Mapping, config: Mapping) -> None:
    """Synod: a meeple from the supply of the player on turn onto any unfinished monastery."""
    colour = _active(state, config)
    if state["meeples"][colour] == MEEPLES:
        raise InvalidAction(Msg(N_("A player has 7 meeples to place.")))
    state["meeples"][colour] += 1
    state["gifts"]["opened"] = "done"


def _road_sweeper(state: dict, args: Mapping, config: Mapping) -> None:
    """Road Sweeper: an unfinished road scores as at the end of the game; all its meeples go home."""
    feature = _checked(dict(args, type="road"), False, config)
    _return_meeples(state, feature["meeples"])
    for colour, pts in feature_points(feature).items():
        state["scores"][colour] += pts
    state["scored"].append(feature)
    state["gifts"]["opened"] = "done"


def _cash_out(state: dict, args: Mapping, config: Mapping) -> None:
    """Cash Out: take one of your meeples back and score 2 per meeple in that feature, yours included."""
    n = args.get("meeples")
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MEEPLES * len(config["players"]):
        raise InvalidAction(Msg(N_("Count the meeples in that feature, yours included (at least 1).")),
                            field="meeples")
    colour = _active(state, config)
    state["meeples"][colour] -= 1
    state["scores"][colour] += 2 * n
    state["gifts"]["opened"] = "done"
