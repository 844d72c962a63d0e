"""An open auction for one lot, shared by every game that auctions (Princes of the Renaissance,
Elfengold): bidding goes clockwise from the opener, each bidder in turn raises or passes, a pass is
final, and the last bidder left wins at his bid. A bidder may be frozen (Princes' Freeze Bid): his
next turn to bid is a pass.

The auction is a plain dict inside the game's state, so it replays and undoes like everything else.
What a bidder can pay, who may bid at all and what the winner pays are the game's business: the game
passes the bidders (eligible players, clockwise from the opener) and each bid's `limit`, and reads
`winner`/`price` when `finished`.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping, Sequence

from .model import InvalidAction, Msg, N_


def start(lot: Mapping[str, Any], currency: str, minimum: int, bidders: Sequence[str],
          opener_must_bid: bool = False, skipped: Sequence[Mapping[str, str]] = ()) -> dict[str, Any]:
    """A new auction; `bidders` are the eligible players clockwise from the opener (who acts first).

    `skipped` records players who may not bid, each `{"player", "reason"}`, for the auction's log.
    With `opener_must_bid` the opener cannot pass before a bid (he chose to auction the lot).
    """
    return {"lot": dict(lot), "currency": currency, "minimum": minimum, "bidders": list(bidders), "out": [],
            "high": None, "leader": None, "next": bidders[0] if bidders else None,
            "opener_must_bid": opener_must_bid, "skipped": [dict(s) for s in skipped], "log": [], "frozen": []}


def running(auction: dict[str, Any] | None) -> dict[str, Any]:
    """The auction under way, or refuse a bid when there is none."""
    if not auction:
        raise InvalidAction(Msg(N_("No auction is running.")))
    return auction


def active(auction: Mapping[str, Any]) -> list[str]:
    """Bidders who have not passed, in bidding order."""
    return [p for p in auction["bidders"] if p not in auction["out"]]


def finished(auction: Mapping[str, Any]) -> bool:
    """Over when everyone else has passed on the leader, or everyone passed without a bid."""
    left = active(auction)
    return not left or (auction["leader"] is not None and left == [auction["leader"]])


def winner(auction: Mapping[str, Any]) -> str | None:
    """The winner of a finished auction, or None when nobody bid."""
    return auction["leader"] if finished(auction) else None


def lowest_bid(auction: Mapping[str, Any]) -> int:
    """The least the next bid may be: the minimum, or one more than the highest bid."""
    minimum: int = auction["minimum"]
    high: int | None = auction["high"]
    return minimum if high is None else high + 1


def _turn(auction: Mapping[str, Any], player: Any) -> None:
    if finished(auction):
        raise InvalidAction(Msg(N_("This auction is over.")))
    if player != auction["next"]:
        raise InvalidAction(Msg(N_("It is another player's turn to bid.")), field="player")


def _advance(auction: dict[str, Any]) -> None:
    """The turn passes to the next bidder still in; a frozen bidder's turn is a pass."""
    while not finished(auction):
        order = auction["bidders"]
        i = order.index(auction["next"])
        following = [order[(i + step) % len(order)] for step in range(1, len(order) + 1)]
        auction["next"] = next(candidate for candidate in following if candidate not in auction["out"])
        if auction["next"] not in auction["frozen"]:
            return
        frozen = auction["next"]
        auction["frozen"].remove(frozen)
        auction["out"].append(frozen)
        auction["log"].append({"player": frozen, "pass": True, "frozen": True})
    auction["next"] = None


def bid(auction: dict[str, Any], player: str, amount: Any, limit: int | None = None) -> None:
    """`player` raises to `amount`; refused if it is not his turn, too low, or above `limit` (what he
    can pay, discounts included; None: no limit)."""
    _turn(auction, player)
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAction(Msg(N_("Enter the bid as a whole number.")), field="amount")
    least = lowest_bid(auction)
    if amount < least:
        raise InvalidAction(Msg(N_("The bid must be at least {n}.") if auction["high"] is None else
                                N_("The bid must be higher than {high}: at least {n}."),
                                {"n": least, "high": auction["high"]}), field="amount")
    if limit is not None and amount > limit:
        raise InvalidAction(Msg(N_("That bid is more than this player can pay: at most {n}."), {"n": limit}),
                            field="amount")
    auction["high"], auction["leader"] = amount, player
    auction["log"].append({"player": player, "bid": amount})
    _advance(auction)


def freeze(auction: dict[str, Any], player: str, target: Any) -> None:
    """`player`, whose turn it is to bid, freezes `target`, another bidder still in: when the bidding
    next comes to the target, he passes (Princes' Freeze Bid). `player` then bids or passes as usual."""
    _turn(auction, player)
    if target == player or target not in active(auction):
        raise InvalidAction(Msg(N_("Choose another bidder who is still in the auction.")), field="target")
    if target in auction["frozen"]:
        raise InvalidAction(Msg(N_("That bidder's next bid is frozen already.")), field="target")
    auction["frozen"].append(target)


def pass_(auction: dict[str, Any], player: str) -> None:
    """`player` passes: final for this auction."""
    _turn(auction, player)
    if auction["opener_must_bid"] and not auction["log"]:
        raise InvalidAction(Msg(N_("Whoever opens the auction makes the first bid.")), field="player")
    auction["out"].append(player)
    auction["log"].append({"player": player, "pass": True})
    _advance(auction)
