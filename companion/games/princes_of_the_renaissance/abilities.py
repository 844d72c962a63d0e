"""Princes of the Renaissance: treachery cards and the city tiles' abilities.

Encodes (FACTS §3 of ../shared/rules/FACTS.md):
- treachery cards and the hand limit (FACTS §3.4, §3.8): `_buy_card`;
- the cards and tile abilities the ledgers feel (FACTS §3.8): Freeze Bid (the bidder on turn on
  another bidder still in), Steal Influence and Raid Gold Shipment, Banking, Lucrezia Borgia and
  Alfonso of Aragon (the player on turn; Lucrezia never during an auction): `_play_card`, `_ability`;
  Banking that would leave the leader of an auction unable to pay is refused.

Where the Czech summary and the English rules disagree (the readings, see `setup`):
- FACTS §3.8 Banking [CONFLICT]: on your turn or when paying for a tile you won
  (`banking_own_turn`; English `banking_any_time`), never after the decade's last event tile except
  to pay for it: `_ability` (and `auction.banking_room` when paying).

Decisions where the sources are silent (FACTS §3.10 marks them UNKNOWN):
- treachery cards are secret, so the app counts them and never names them; a card bought over the
  hand limit is discarded at once (the count stays at the limit); the Treachery cards the app acts
  on are named when played (Freeze Bid, Steal Influence, Raid Gold Shipment, Bribe Troops, Veto,
  Start War, and Bribe Cardinal declared with a Pope bid).
"""
from __future__ import annotations

from collections.abc import Mapping
from ...engine import auction
from ...engine.model import InvalidAction, Msg, N_

from .auction import _leader_can_pay
from .ledger import _card, _family, _once
from .preparation import (
    BANKING, CARD_PRICE, LUCREZIA, RAID_GOLD, STEAL_INFLUENCE, TREACHERY_CARDS, active_family, hand_limit, option)


def _draw_card(state: dict, family: str) -> None:
    """A card drawn over the hand limit is discarded at once (FACTS §3.4.2)."""
    held = sum(p["treachery"] for p in state["players"].values())
    if held >= TREACHERY_CARDS:
        raise InvalidAction(Msg(N_("All {n} treachery cards are in the players' hands."), {"n": TREACHERY_CARDS}))
    p = state["players"][family]
    p["treachery"] = min(p["treachery"] + 1, hand_limit(state, family))


def _buy_card(state: dict, args: Mapping, config: Mapping) -> None:
    """A treachery card for 1 gold + 1 influence, drawn at random."""
    family = active_family(state, config)
    p = state["players"][family]
    if p["gold"] < CARD_PRICE[0] or p["influence"] < CARD_PRICE[1]:
        raise InvalidAction(Msg(N_("A treachery card costs 1 gold and 1 influence.")))
    _draw_card(state, family)
    p["gold"] -= CARD_PRICE[0]
    p["influence"] -= CARD_PRICE[1]
    state["acted"] = True


def _play_card(state: dict, args: Mapping, config: Mapping) -> None:
    """Treachery cards the ledger feels: Freeze Bid (played by the bidder on turn on another bidder
    still in, who passes when his turn next comes), Steal Influence (2) and Raid Gold Shipment (3),
    these two by the player on turn and not during an auction (the table names who plays now)."""
    family = _family(state, args.get("player"))
    card = args.get("card")
    if card == "freeze_bid":
        current = state["auction"]
        if not current or auction.finished(current):
            raise InvalidAction(Msg(N_("Freeze Bid is played during an auction.")), field="card")
        auction.freeze(current, family, args.get("target"))
        _card(state, family)
        return
    if card not in ("steal_influence", "raid_gold"):
        raise InvalidAction(Msg(N_("Choose a card.")), field="card")
    if state["auction"]:
        raise InvalidAction(Msg(N_("Not during an auction.")), field="card")
    target = _family(state, args.get("target"), "target")
    if target == family:
        raise InvalidAction(Msg(N_("Choose another player.")), field="target")
    _card(state, family)
    currency, amount = ("influence", STEAL_INFLUENCE) if card == "steal_influence" else ("gold", RAID_GOLD)
    taken = min(amount, state["players"][target][currency])
    state["players"][target][currency] -= taken
    state["players"][family][currency] += taken


def _ability(state: dict, args: Mapping, config: Mapping) -> None:
    """Once-a-decade city tiles: Banking (swap up to 3 gold and influence: at any time, or with the
    option `banking_own_turn` on the owner's turn; never after the decade's last event tile, except
    to pay for it, which the payment does by itself), Lucrezia Borgia (take 2 influence: the player
    on turn, never during an auction), Alfonso of Aragon (a treachery card without using the action:
    the player on turn)."""
    family = _family(state, args.get("player"))
    ability = args.get("ability")
    on_turn = family == active_family(state, config)
    if ability in ("lucrezia_borgia", "alfonso_of_aragon") and not on_turn:
        raise InvalidAction(Msg(N_("Only the player on turn may use this tile.")), field="player")
    if ability == "banking":
        if state["events_left"] == 0:
            raise InvalidAction(Msg(N_("Banking is not used after the decade's last event tile (paying for that "
                                       "tile uses it by itself).")), field="player")
        if option(config, "banking_own_turn") and not on_turn:
            raise InvalidAction(Msg(N_("By the rule option chosen for this game, Banking is used on your own turn "
                                       "or when paying for a tile you won.")), field="player")
        amount = args.get("amount")
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < abs(amount) <= BANKING:
            raise InvalidAction(Msg(N_("Banking swaps 1 to 3 at a time: enter 1 to 3 (gold to influence) or −1 to −3 "
                                       "(influence to gold).")), field="amount")
        give, get = ("gold", "influence") if amount > 0 else ("influence", "gold")
        if state["players"][family][give] < abs(amount):
            raise InvalidAction(Msg(N_("Not enough to swap.")), field="amount")
        _once(state, family, ability)
        state["players"][family][give] -= abs(amount)
        state["players"][family][get] += abs(amount)
        _leader_can_pay(state, config, "amount")
    elif ability == "lucrezia_borgia":
        if state["auction"]:
            raise InvalidAction(Msg(N_("Not during an auction.")), field="player")
        target = _family(state, args.get("target"), "target")
        if target == family:
            raise InvalidAction(Msg(N_("Choose another player.")), field="target")
        _once(state, family, ability)
        taken = min(LUCREZIA, state["players"][target]["influence"])
        state["players"][target]["influence"] -= taken
        state["players"][family]["influence"] += taken
    elif ability == "alfonso_of_aragon":
        _once(state, family, ability)
        _draw_card(state, family)
    else:
        raise InvalidAction(Msg(N_("Choose a city tile.")), field="ability")
