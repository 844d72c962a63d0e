"""Princes of the Renaissance: the auctions of city tiles, the Pope, event tiles and condottieri.

Encodes (FACTS §3 of ../shared/rules/FACTS.md):
- a decade is ended by the auction of its last event tile (FACTS §3.3, §3.4), when it is sold (the
  Czech summary: "Dekáda končí v momentě, kdy se vydraží poslední kartička událostí"): `_settle_auction`;
- the auctions of city tiles, the Pope and event tiles with their minimums, eligibility and
  discounts (FACTS §3.4, §3.8; TV-P1, TV-P2): `_open_auction`, `bid_limit`, `price`;
- never bid more than you can pay (FACTS §3.4): the limit counts discounts, Bribe Cardinal and the
  swap an unused Banking tile allows; while an auction runs, a change of the ledgers that would
  leave its leader unable to pay is refused, and the payment is checked again: `bid_limit`,
  `banking_room`, `_leader_can_pay`, `_settle_auction`;
- the condottiere auctions of a war (FACTS §3.5; TV-P3), at once when nobody could veto the war:
  `_declare`, `_condottiere_auction`, `_hired`;
- a "+1 status" artist or the French Invasion placed by its winner (FACTS §3.8): `_place`.

Where the Czech summary and the English rules disagree (the readings, see `setup`):
- FACTS §3.4 auction procedure (the seed's "Průběh dražby"): the opener bids or passes
  (`opener_may_pass`; English `opener_bids`): `_open_auction`.

Decisions where the sources are silent (FACTS §3.10 marks them UNKNOWN):
- a winner short of the auction's currency when paying uses his unused Banking tile: the app swaps
  just what is missing (at most 3);
- whoever opens an auction bids or passes (the Czech summary lets him pass; whoever starts a war
  opens both condottiere auctions and may own no troop at all); an auction nobody bids in gives the
  lot to nobody, and it stays in the supply to be auctioned again (an event tile too: it is not sold,
  so it does not count toward the decade's end).
"""
from __future__ import annotations

from collections.abc import Mapping
from ...engine import auction
from ...engine.model import InvalidAction, Msg, N_, P_

from .ledger import _city, _clamped, _count, _decade_over, _family
from .preparation import (
    ABILITY_TILES, ARTIST_FAMILIES, BANKING, BRIBE_CARDINAL, CITY_MINIMUM, CONDOTTIERE_DISCOUNT, CONDOTTIERE_MINIMUM,
    EVENTS, EVENT_VP_MAX, FRENCH_INVASION, KNOWN_EVENT_CURRENCY, KNOWN_TILE_CITY, MERCHANT_TILES, POPE_DISCOUNT,
    STATUS_ARTISTS, TILES_PER_CITY, TILE_KINDS, VP_ARTISTS, active_family, city_name, may_take_city_tile, option,
    owns, seat_order)
from .war import _declare_war, _end_war, veto_possible


def pope_discount(state: Mapping, family: str) -> int:
    return sum(owns(state, family, kind) for kind in POPE_DISCOUNT)


def condottiere_discount(state: Mapping, family: str) -> int:
    """Baglioni −1; Swiss Mercenaries −1; Armourer −1 (FACTS §3.8; TV-P3)."""
    return (family == "baglioni") + sum(owns(state, family, kind) for kind in CONDOTTIERE_DISCOUNT)


def is_artist(event: str) -> bool:
    return event in VP_ARTISTS or event in STATUS_ARTISTS


def discount(state: Mapping, family: str, lot: Mapping) -> int:
    """What the winner of `lot` pays less than his bid (the documented discounts)."""
    if lot["kind"] == "pope":
        return pope_discount(state, family)
    if lot["kind"] == "condottiere":
        return condottiere_discount(state, family)
    if lot["kind"] == "event" and is_artist(lot["event"]):
        return 1 if family in ARTIST_FAMILIES else 0
    return 0


def banking_room(state: Mapping, config: Mapping, family: str, lot: Mapping, currency: str) -> int:
    """What an unused Banking tile can add to `currency` when its owner pays for `lot`: up to 3 of the
    other currency. By the Czech summary's reading (`banking_own_turn`) it is used on your turn
    or to pay for a tile you won, so a condottiere is paid with it only by the player on turn."""
    if not owns(state, family, "banking") or f"{family}:banking" in state["used"]:
        return 0
    if (option(config, "banking_own_turn") and lot["kind"] == "condottiere"
            and family != active_family(state, config)):
        return 0
    other = "influence" if currency == "gold" else "gold"
    return min(BANKING, state["players"][family][other])


def bid_limit(state: Mapping, config: Mapping, family: str, lot: Mapping, currency: str, cardinal: int = 0) -> int:
    """The highest bid a player can honour: what he holds plus his discounts (a bid may exceed his
    holdings when discounts cover it, FACTS §3.4.5; TV-P2), 3 per Bribe Cardinal toward the Pope, and
    the swap an unused Banking tile allows."""
    held = state["players"][family][currency]
    return (held + discount(state, family, lot) + BRIBE_CARDINAL * cardinal
            + banking_room(state, config, family, lot, currency))


def price(state: Mapping, family: str, lot: Mapping, amount: int, cardinal: int = 0) -> int:
    """What the winner pays for a bid of `amount` (never below 0)."""
    return max(0, amount - discount(state, family, lot) - BRIBE_CARDINAL * cardinal)


def _city_lot(state: Mapping, args: Mapping) -> dict:
    city = _city(args.get("city"))
    kind = args.get("tile")
    if kind not in TILE_KINDS:
        raise InvalidAction(Msg(N_("Which city tile is it?")), field="tile")
    if KNOWN_TILE_CITY.get(kind, city) != city:
        raise InvalidAction(Msg(N_("That tile belongs to {city}."), {"city": city_name(KNOWN_TILE_CITY[kind])}),
                            field="tile")
    owned = [t for p in state["players"].values() for t in p["tiles"]]
    if sum(t["city"] == city for t in owned) >= TILES_PER_CITY:
        raise InvalidAction(Msg(N_("All {n} tiles of this city are taken."), {"n": TILES_PER_CITY}), field="city")
    if kind in ABILITY_TILES and any(t["kind"] == kind for t in owned):
        raise InvalidAction(Msg(N_("That tile exists once and is taken.")), field="tile")
    if kind == "merchant" and sum(t["kind"] == "merchant" for t in owned) >= MERCHANT_TILES:
        raise InvalidAction(Msg(N_("Both Merchant city tiles are taken.")), field="tile")
    return {"kind": "city", "city": city, "tile": kind, "gold": _count(args.get("gold", 0), "gold", 0, 9),
            "influence": _count(args.get("influence", 0), "influence", 0, 9)}


def _event_lot(state: Mapping, args: Mapping) -> tuple[dict, str]:
    event = args.get("event")
    if event not in EVENTS:
        raise InvalidAction(Msg(N_("Which event tile is it?")), field="event")
    if event in state["events_done"]:
        raise InvalidAction(Msg(N_("That event tile has been auctioned already.")), field="event")
    currency = args.get("currency")
    if currency not in ("gold", "influence"):
        raise InvalidAction(Msg(N_("Is it paid in gold (circle) or influence (square)?")), field="currency")
    if KNOWN_EVENT_CURRENCY.get(event, currency) != currency:
        raise InvalidAction(Msg(N_("This tile is paid in influence.")), field="currency")
    vp = _count(args.get("vp", 0), "vp", 0, EVENT_VP_MAX)
    return {"kind": "event", "event": event, "vp": vp}, currency


def _open_auction(state: dict, args: Mapping, config: Mapping) -> None:
    """The player on turn auctions a city tile, the Pope or an event of this decade and makes the
    first bid or passes (no `amount`: the Czech rules let the opener pass); the others bid clockwise.
    Players who may not take the lot are skipped."""
    opener = active_family(state, config)
    what = args.get("lot")
    skipped = []
    order = seat_order(config, opener)
    if what == "city":
        lot = _city_lot(state, args)
        currency, minimum = "gold", CITY_MINIMUM * state["cities"][lot["city"]]["status"]
        if not may_take_city_tile(state, opener, lot["city"]):
            raise InvalidAction(Msg(N_("At most 6 city tiles from at most 3 cities: this player may not take "
                                       "this one.")), field="city")
        skipped = [{"player": f, "reason": "city_limit"} for f in order if not may_take_city_tile(state, f, lot["city"])]
    elif what == "pope":
        if state["pope"]:
            raise InvalidAction(Msg(N_("The Pope is taken for this decade.")), field="lot")
        lot, currency, minimum = {"kind": "pope"}, "influence", 0
    elif what == "event":
        if state["events_left"] == 0:
            raise InvalidAction(Msg(N_("Every event tile of this decade is gone.")), field="lot")
        lot, currency = _event_lot(state, args)
        minimum = 0
    else:
        raise InvalidAction(Msg(N_("Choose what to auction.")), field="lot")
    lot["cardinal"] = {}
    bidders = [f for f in order if f not in {s["player"] for s in skipped}]
    state["auction"] = auction.start(lot, currency, minimum, bidders, skipped=skipped)
    state["acted"] = True
    if args.get("amount") is None:
        if not option(config, "opener_may_pass"):
            raise InvalidAction(Msg(N_("By the English rules chosen for this game, whoever opens the auction makes "
                                       "the first bid.")), field="amount")
        _pass_bid(state, {"player": opener}, config)
    else:
        _bid(state, dict(args, player=opener), config)


def _bid(state: dict, args: Mapping, config: Mapping) -> None:
    """The bidder on turn raises; refused above what he can pay (discounts and declared Bribe
    Cardinal cards counted)."""
    current = auction.running(state["auction"])
    family = _family(state, args.get("player"))
    cardinal = 0
    if current["lot"]["kind"] == "pope":
        cardinal = _count(args.get("cardinal", 0), "cardinal", 0, 2)
        held = state["players"][family]["treachery"]
        if cardinal > held:
            raise InvalidAction(P_("Each Bribe Cardinal is one of the treachery cards in hand, and this player "
                                   "holds only {n}.",
                                   "Each Bribe Cardinal is one of the treachery cards in hand, and this player "
                                   "holds only {n}.", held), field="cardinal")
    limit = bid_limit(state, config, family, current["lot"], current["currency"], cardinal)
    auction.bid(current, family, args.get("amount"), limit)
    current["lot"]["cardinal"][family] = cardinal
    _after_bid(state, config)


def _pass_bid(state: dict, args: Mapping, config: Mapping) -> None:
    current = auction.running(state["auction"])
    auction.pass_(current, _family(state, args.get("player")))
    _after_bid(state, config)


def _after_bid(state: dict, config: Mapping) -> None:
    current = state["auction"]
    if auction.finished(current):
        state["auction"] = None
        _settle_auction(state, config, current)


def _settle_auction(state: dict, config: Mapping, done: dict) -> None:
    """The last bidder pays (less his discounts) and takes the lot; an event tile may need a city."""
    lot, winner, currency = done["lot"], auction.winner(done), done["currency"]
    paid = swapped = 0
    if winner:
        cardinal = lot["cardinal"].get(winner, 0)
        paid = price(state, winner, lot, done["high"], cardinal)
        ledger = state["players"][winner]
        swapped = max(0, paid - ledger[currency])
        if ledger["treachery"] < cardinal or swapped > banking_room(state, config, winner, lot, currency):
            raise InvalidAction(_cannot_pay(config, winner, currency, paid))
        if swapped:
            ledger["influence" if currency == "gold" else "gold"] -= swapped
            ledger[currency] += swapped
            state["used"].append(f"{winner}:banking")
        ledger[currency] -= paid
        ledger["treachery"] -= cardinal
    state["last_auction"] = {"lot": lot, "winner": winner, "bid": done["high"], "paid": paid, "banking": swapped,
                             "currency": currency, "log": done["log"], "skipped": done["skipped"]}
    kind = lot["kind"]
    if kind == "condottiere":
        _hired(state, config, lot["side"], winner)
        return
    if kind == "city" and winner:
        state["players"][winner]["tiles"].append({k: lot[k] for k in ("city", "gold", "influence")} |
                                                 {"kind": lot["tile"]})
    elif kind == "pope":
        state["pope"] = winner
    elif kind == "event" and winner:            # without a winner the tile stays on display, unsold
        event = lot["event"]
        state["events_done"].append(event)
        state["events_left"] -= 1
        state["last_opener"] = done["bidders"][0]
        if event in STATUS_ARTISTS or event == "french_invasion":
            state["pending"] = {"event": event, "player": winner, "vp": lot["vp"]}
        else:
            state["players"][winner]["events"].append({"event": event, "vp": lot["vp"]})
            if event == "merchant":
                state["merchant_event"] = winner
        _decade_over(state)


def _cannot_pay(config: Mapping, family: str, currency: str, amount: int) -> Msg:
    name = next(p["name"] for p in config["players"] if p["colour"] == family)
    if currency == "gold":
        return P_("{name} cannot pay {n} gold any more: undo or correct the ledger first.",
                  "{name} cannot pay {n} gold any more: undo or correct the ledger first.", amount, name=name)
    return P_("{name} cannot pay {n} influence any more: undo or correct the ledger first.",
              "{name} cannot pay {n} influence any more: undo or correct the ledger first.", amount, name=name)


def _leader_can_pay(state: Mapping, config: Mapping, field: str) -> None:
    """Refuse a change of the ledgers (a deal, Banking, a correction) that would leave the leader of the
    auction under way unable to pay his bid."""
    current = state["auction"]
    if not current or current["leader"] is None:
        return
    leader, lot = current["leader"], current["lot"]
    cardinal = lot["cardinal"].get(leader, 0)
    if (state["players"][leader]["treachery"] < cardinal
            or bid_limit(state, config, leader, lot, current["currency"], cardinal) < current["high"]):
        name = next(p["name"] for p in config["players"] if p["colour"] == leader)
        raise InvalidAction(Msg(N_("{name} leads the auction with a bid of {n} and could not pay it after this: "
                                   "finish the auction first."), {"name": name, "n": current["high"]}), field=field)


def _place(state: dict, args: Mapping, config: Mapping) -> None:
    """A "+1 status" artist goes to a major city at once (status +1); the French Invasion takes 2
    status from a city, or is discarded (city None); it is removed either way."""
    pending = state["pending"]
    city = args.get("city")
    if pending["event"] == "french_invasion":
        if city is not None:
            _city(city)
            state["cities"][city]["status"] = _clamped(state["cities"][city]["status"] - FRENCH_INVASION)
    else:
        _city(city)
        state["cities"][city]["status"] = _clamped(state["cities"][city]["status"] + 1)
        state["cities"][city]["artists"] += 1
        state["players"][pending["player"]]["events"].append({"event": pending["event"], "vp": pending["vp"],
                                                             "city": city})
    state["pending"] = None
    _decade_over(state)


def _condottiere_auction(state: dict, config: Mapping, side: str) -> None:
    """Influence, minimum 1, clockwise from the player who started the war; only players with a
    troop, and never the attacking city's condottiere for the defending city."""
    war = state["war"]
    war["stage"] = side
    skipped = []
    for family in seat_order(config, war["starter"]):
        if not state["players"][family]["troops"]:
            skipped.append({"player": family, "reason": "no_troops"})
        elif family == war["condottieri"]["attacker"]:
            skipped.append({"player": family, "reason": "attacker"})
    bidders = [f for f in seat_order(config, war["starter"]) if f not in {s["player"] for s in skipped}]
    lot = {"kind": "condottiere", "side": side, "city": war[side], "cardinal": {}}
    started = auction.start(lot, "influence", CONDOTTIERE_MINIMUM, bidders, skipped=skipped)
    if auction.finished(started):
        _settle_auction(state, config, started)
    else:
        state["auction"] = started


def _no_veto(state: dict, args: Mapping, config: Mapping) -> None:
    _condottiere_auction(state, config, "attacker")


def _declare(state: dict, args: Mapping, config: Mapping) -> None:
    """A war is declared. With `skip_veto` (the screen sends it; a log recorded before has none and a
    "No veto" entry of its own) and nobody able to veto the war (no treachery card in any hand, no
    unused Lorenzo Medici), the condottieri are auctioned in the same entry: one Undo takes the
    declaration back, never to a veto step nobody can use."""
    skip = args.get("skip_veto", False)
    if not isinstance(skip, bool):
        raise InvalidAction(Msg(N_("This action is not understood.")))
    _declare_war(state, args, config)
    if skip and not veto_possible(state):
        _no_veto(state, args, config)


def _hired(state: dict, config: Mapping, side: str, family: str | None) -> None:
    """A condottiere is hired: his pay (the city's status in gold) waits in his home city."""
    war = state["war"]
    if family:
        war["condottieri"][side] = family
        war["pay"][side] = state["cities"][war[side]]["status"]
        state["players"][family]["pay"] += war["pay"][side]
    if side == "attacker":
        _condottiere_auction(state, config, "defender")
    elif not any(war["condottieri"].values()):
        _end_war(state, war)
    else:
        war["stage"] = "battle"
