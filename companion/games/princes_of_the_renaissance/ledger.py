"""Princes of the Renaissance: the checks and ledger helpers the actions share.

Encodes (FACTS §3 of ../shared/rules/FACTS.md):
- one action per turn (FACTS §3.4): `ACTED`; the once-a-decade tile abilities (FACTS §3.8): `_once`;
- a decade ends as soon as the auction of its last event tile is over and the tile placed (FACTS
  §3.3, §3.4): `_decade_over`;
- a city's status stays on the track, 3–10 (FACTS §3.1): `_clamped`.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping
from ...engine.model import InvalidAction, Msg, N_

from .preparation import CITIES, STATUS_HIGH, STATUS_LOW, owns


def _clamped(status: int) -> int:
    return max(STATUS_LOW, min(STATUS_HIGH, status))


#: The one action of a turn is used (FACTS §3.4).
ACTED = N_("One action per turn: this player has had his. End the turn.")


def _family(state: Mapping, value: Any, field: str = "player") -> str:
    if value not in state["players"]:
        raise InvalidAction(Msg(N_("Choose a player.")), field=field)
    return value


def _count(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidAction(Msg(N_("Enter a whole number from {low} to {high}."), {"low": low, "high": high}),
                            field=field)
    return value


def _city(value: Any, field: str = "city") -> str:
    if value not in CITIES:
        raise InvalidAction(Msg(N_("Choose a city.")), field=field)
    return value


def _spend(state: dict, family: str, currency: str, amount: int, field: str = "player") -> None:
    if state["players"][family][currency] < amount:
        raise InvalidAction(Msg(N_("Not enough gold: {n} needed, {have} held.") if currency == "gold" else
                                N_("Not enough influence: {n} needed, {have} held."),
                                {"n": amount, "have": state["players"][family][currency]}), field=field)
    state["players"][family][currency] -= amount


def _card(state: dict, family: str, field: str = "player") -> None:
    """Play one treachery card from the hand (the app counts cards, it never sees them)."""
    if state["players"][family]["treachery"] < 1:
        raise InvalidAction(Msg(N_("This player holds no treachery card.")), field=field)
    state["players"][family]["treachery"] -= 1


def _once(state: dict, family: str, ability: str) -> None:
    """City-tile abilities usable once per decade (the tile is turned until the decade ends)."""
    if not owns(state, family, ability):
        raise InvalidAction(Msg(N_("This player does not hold that city tile.")), field="player")
    used = f"{family}:{ability}"
    if used in state["used"]:
        raise InvalidAction(Msg(N_("That tile has been used this decade already.")), field="player")
    state["used"].append(used)


def _decade_over(state: dict) -> None:
    """The decade ends as soon as its last event tile is auctioned (and placed)."""
    if state["events_left"] == 0 and not state["pending"]:
        state["phase"] = "decade_end"
