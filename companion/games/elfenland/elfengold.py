"""Elfengold's gold: the ledger (income, the gold pile, a move's gold, corrections, the bank) and the
transport-tile auction.

Encodes ../shared/rules/FACTS.md §5.4 (Elfengold from the Czech seed 004 and S-GT, S-LZ, S-SM):
- Elfengold's gold: 12 to start, income 2 from round 2, the gold pile at 3 per gold card (TV-E7),
  the move's town gold with gold roads doubling the next town and Elvenhold paying nothing, or 2
  cards instead, and the Elf-wizard costs (FACTS §5.4.1–2, §5.4.6, §5.6.3; TV-E8): `move_gold`,
  `_take_pile`;
- gold cards drawn among the 2 cards taken instead of the move's gold go onto the gold pile
  (FACTS §5.4.1, §5.4.6): `_gold_cards_drawn`;
- the transport-tile auction: 2 × players tiles a round (the phase does not end before they are
  turned up and auctioned), opened by the start player, a pass final for that tile, the winner pays
  the bank, a winner who cannot pay loses all his gold and the tile is auctioned again, no bid sends
  it back to the pool (FACTS §5.4.4): `_reveal`, `_open`, `_settle`; the quiet path for one tile in
  one entry: nobody (else) bids on this tile: `_no_bid` (nobody else bids this round ends the phase:
  `phases._no_more_bids`); a player may pass on every tile left this round in one entry, and take it
  back for the tiles after the one on offer: `_sit_out`, `_bid_again`.

Decisions where the sources are silent (FACTS §5.8 lists them as open):
- the town a move starts from pays nothing and a town reached twice pays twice (S-PK); a flying
  carpet's town gives its town piece but no gold;
- a tile auction's lowest bid is 1 gold (nobody bidding sends the tile back, so a bid of 0 would be
  no bid); a bid is not limited by the bidder's gold: that is what "a winner who cannot pay" is for;
  but a player without gold does not bid: he would risk nothing, and could win, fail to pay and bid
  again for ever;
- the bank holds the box's 300 gold less what the players hold, and pays what it has: income, a
  move's gold and the gold pile never take the players past the box's 300 (so `companion score`
  accepts the game's own numbers); a gold correction that gives gold back is always allowed (`bank`,
  `_pay`, `_adjust`);
- the auction's row need not name its tiles: which tiles they are changes nothing the app books (the
  players see them on the table), so the app asks only who wins each and at what price.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...engine import auction
from ...engine.model import InvalidAction, Msg, N_, P_
from .preparation import GOLD_DISCS, GOLD_IN_BOX, POOL, _name, _player, colour_at


INCOME = 2
GOLD_CARDS = 7
GOLD_PER_CARD = 3
WIZARD_OBSTACLE = 1                       # gold per obstacle card replaced by a wizard
WIZARD_CARPET = 3                         # gold for a flying carpet
MIN_BID = 1


def coins(n: int) -> Msg:
    """An amount of gold as the reader says it with its unit: "4 gold coins", Czech "4 zlaťáky"
    (1 zlaťák, 2 zlaťáky, 5 zlaťáků)."""
    return P_("{n} gold coin", "{n} gold coins", n)


def move_gold(visits: Sequence[Mapping]) -> tuple[int, list[tuple[str, int]]]:
    """Gold for a move (FACTS §5.4.6; TV-E8): each town reached pays its disc, each visit again; a road
    with a gold tile doubles the town it leads to; Elvenhold and a flying carpet's town pay nothing."""
    lines = []
    for visit in visits:
        value = 0 if visit.get("carpet") else GOLD_DISCS.get(visit["town"], 0)
        lines.append((visit["town"], value * (2 if visit.get("gold_road") else 1)))
    return sum(v for _, v in lines), lines


def bank(state: Mapping) -> int:
    """The gold in the bank: the box's 300 less what the players hold (FACTS §5.2). (A game recorded
    before the bank was counted may hold more: then the bank is empty, never below.)"""
    return max(0, GOLD_IN_BOX - sum(p["gold"] for p in state["players"].values()))


def _pay(state: dict, family: str, amount: int) -> int:
    """The bank pays `family` `amount` gold, or what it has left when that is less; the gold paid."""
    paid = min(amount, bank(state))
    state["players"][family]["gold"] += paid
    return paid


def _gold_card(state: dict, args: Mapping, config: Mapping) -> None:
    """A gold card revealed (refilling the display, or drawn blind) goes onto the gold pile."""
    state["gold_pile"] += 1


def _take_pile(state: dict, args: Mapping, config: Mapping) -> None:
    """Taking the gold pile: 3 gold per gold card in it; the cards go to the discard pile (TV-E7)."""
    family = _player(state, args.get("player"))
    if "cards" in args and args["cards"] != state["gold_pile"]:     # the pile the screen showed (its undo names it)
        raise InvalidAction(Msg(N_("The gold pile has changed: look at the screen again.")))
    _pay(state, family, GOLD_PER_CARD * state["gold_pile"])
    state["gold_pile"] = 0


def _gold_cards_drawn(state: Mapping, config: Mapping, args: Mapping, drawing: bool) -> int:
    """Gold cards that turned up among the 2 cards drawn instead of the move's gold (or for not moving):
    they go onto the gold pile, as in the drawing phase (FACTS §5.4.1, §5.4.6)."""
    n = args.get("gold_cards", 0)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0 or (n and not drawing):
        raise InvalidAction(Msg(N_("Gold cards go onto the gold pile only when cards are drawn.")), field="gold_cards")
    if state["gold_pile"] + n > GOLD_CARDS:
        raise InvalidAction(Msg(N_("There are only {n} gold cards."), {"n": GOLD_CARDS}), field="gold_cards")
    return n


def _adjust(state: dict, args: Mapping, config: Mapping) -> None:
    """A gold correction with a reason (a miscount at the table)."""
    family = _player(state, args.get("player"))
    delta = args.get("delta")
    if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0:
        raise InvalidAction(Msg(N_("Enter a whole number other than 0.")), field="delta")
    reason = args.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidAction(Msg(N_("Say why the ledger is corrected.")), field="reason")
    held = state["players"][family]["gold"]
    if held + delta < 0:
        raise InvalidAction(Msg(N_("{name} holds {gold} gold: a correction cannot take more."),
                                {"name": _name(config, family), "gold": held}), field="delta")
    if delta > 0 and delta > bank(state):       # a correction that gives gold back is always possible
        raise InvalidAction(Msg(N_("The players would hold more than the {n} gold in the box."), {"n": GOLD_IN_BOX}),
                            field="delta")
    state["players"][family]["gold"] += delta
    state["corrections"].append({"track": family, "points": delta, "reason": reason.strip()[:200]})


def _reveal(state: dict, args: Mapping, config: Mapping) -> None:
    """The start player turns up 2 × players tiles from the pool; the first auction opens. Which tiles
    they are may be named (each within the pool), or not: nothing the app books depends on it."""
    tiles = args.get("tiles")
    n = 2 * len(config["players"])
    if tiles is None:
        tiles = [None] * n
    if not isinstance(tiles, list) or len(tiles) != n or any(
            t is not None and (not isinstance(t, str) or t not in POOL) for t in tiles):
        raise InvalidAction(Msg(N_("Enter the {n} tiles turned up."), {"n": n}), field="tiles")
    for kind in POOL:
        if tiles.count(kind) > POOL[kind]:
            raise InvalidAction(Msg(N_("The pool holds only {n} of that tile."), {"n": POOL[kind]}), field="tiles")
    _turn_up(state, config, tiles)


def _turn_up(state: dict, config: Mapping, tiles: list) -> None:
    state["row"] = list(tiles)
    _open(state, config)


def _open(state: dict, config: Mapping) -> None:
    """Auction the next tile of the row, opened by the start player. A player without gold does not
    bid (with nothing to lose he could win and fail to pay again and again), nor does one who said he
    bids on no more tiles this round; when nobody is left to bid, the tile goes back to the pool at once."""
    order = [colour_at(config, state["start"] + i) for i in range(len(config["players"]))]
    out = state["sitting_out"]
    bidders = [c for c in order if state["players"][c]["gold"] > 0 and c not in out]
    skipped = [{"player": c, "reason": "sits_out" if c in out else "no_gold"} for c in order if c not in bidders]
    state["auction"] = auction.start({"tile": state["row"][state["next_tile"]], "index": state["next_tile"]}, "gold",
                                     MIN_BID, bidders, skipped=skipped)
    if auction.finished(state["auction"]):
        _settle(state, config, state["auction"])


def _bid(state: dict, args: Mapping, config: Mapping) -> None:
    auction.bid(state["auction"], _player(state, args.get("player")), args.get("amount"))
    _after_bid(state, config)


def _pass_bid(state: dict, args: Mapping, config: Mapping) -> None:
    auction.pass_(state["auction"], _player(state, args.get("player")))
    _after_bid(state, config)


def _sit_out(state: dict, args: Mapping, config: Mapping) -> None:
    """The bidder on turn passes on this tile and bids on no more tiles this round: each later tile is
    auctioned without him, so he costs no tap per tile (a pass he would make anyway, FACTS §5.4.4)."""
    player = _player(state, args.get("player"))
    auction.pass_(state["auction"], player)
    state["sitting_out"].append(player)
    _after_bid(state, config)


def _bid_again(state: dict, args: Mapping, config: Mapping) -> None:
    """A player who said he bids on no more tiles this round changes his mind: he bids again from the
    next tile of the row (the tile on offer is auctioned without him, as it began)."""
    player = _player(state, args.get("player"))
    state["sitting_out"].remove(player)


def _after_bid(state: dict, config: Mapping) -> None:
    current = state["auction"]
    if auction.finished(current):
        _settle(state, config, current)


def _settle(state: dict, config: Mapping, done: dict) -> None:
    """The winner pays the bank; one who cannot pay gives all his gold and the tile goes up again;
    a tile nobody bid for goes back to the pool."""
    tile, winner = done["lot"]["tile"], auction.winner(done)
    if winner and state["players"][winner]["gold"] < done["high"]:
        state["sold"].append({"tile": tile, "index": state["next_tile"], "winner": winner, "price": done["high"],
                              "broke": True, "lost": state["players"][winner]["gold"]})
        state["players"][winner]["gold"] = 0
        _open(state, config)
        return
    if winner:
        state["players"][winner]["gold"] -= done["high"]
    state["sold"].append({"tile": tile, "index": state["next_tile"], "winner": winner,
                          "price": done["high"] if winner else 0})
    state["next_tile"] += 1
    state["auction"] = None
    if state["next_tile"] < len(state["row"]):
        _open(state, config)


def _claimed(state: Mapping, args: Mapping) -> dict:
    """The auction a quiet path is meant for: the tile (its place in the row) and the highest bid so far
    (bidder and amount, None before a bid), as the screen showed them; the undo button names them."""
    current = state["auction"]
    if (args.get("tile") != current["lot"]["index"] or args.get("winner") != current["leader"]
            or args.get("price") != current["high"]):
        raise InvalidAction(Msg(N_("The bidding has moved on: look at the screen again.")))
    return current


def _everyone_passes(state: dict, config: Mapping) -> None:
    """Every bidder still asked about the tile passes: it goes to the highest bidder, or back to the pool."""
    current = state["auction"]
    while not auction.finished(current):
        auction.pass_(current, current["next"])
    _settle(state, config, current)


def _no_bid(state: dict, args: Mapping, config: Mapping) -> None:
    """Nobody (else) bids on this tile, in one entry: everyone still in passes (FACTS §5.4.4)."""
    _claimed(state, args)
    _everyone_passes(state, config)
