"""Village: the market day (FACTS §2.5.4; TV-V6): `_market_*`, `payment`."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import InvalidAction, Msg, N_, P_
from .box import CUSTOMER_PRESTIGE_MAX, FARMYARD_GRAIN, GOODS, GOODS_EACH, MARKET_TIME, _player, _seat, _whole, text

def _market_start(state: dict, args: Mapping, config: Mapping) -> None:
    """The market cube was taken: a market day must be held; its trigger player sells first, free."""
    colour, _ = _player(state, config, args)
    state["market"] = {"trigger": colour, "free_used": False, "passed": [], "turn": colour, "sales": []}


def _market_order(state: Mapping, config: Mapping, after: str) -> str | None:
    """The next player clockwise after `after` who has not passed (None when all have)."""
    market, n = state["market"], len(config["players"])
    seat = _seat(config, after)
    for k in range(1, n + 1):
        colour = config["players"][(seat + k) % n]["colour"]
        if colour not in market["passed"]:
            return colour
    return None


def _market_sell(state: dict, args: Mapping, config: Mapping) -> None:
    """Serve a customer: hand in the grain and the goods the tile shows (the grain leaves the farmyard;
    the goods, which the books do not keep, are recorded with the sale); every customer wants goods,
    grain or both, so a sale that hands in nothing is refused; the trigger player's first sale is
    free, every other one costs 1 green cube and 1 time; the tile's printed prestige counts at the end.
    The sale keeps the seller's time after it (teach mode says where the life marker stands)."""
    market = state["market"]
    colour, player = _player(state, config, args)
    prestige = _whole(args, "prestige", 0, CUSTOMER_PRESTIGE_MAX)
    grain = _whole({"grain": args.get("grain", 0)}, "grain", 0, FARMYARD_GRAIN)
    if grain > player["grain"]:
        raise InvalidAction(Msg(N_("Not enough grain.")), field="grain")
    goods = args.get("goods", [])
    if (not isinstance(goods, list) or any(g not in GOODS for g in goods)
            or any(goods.count(g) > GOODS_EACH for g in GOODS)):
        raise InvalidAction(Msg(N_("Choose the goods handed in from the five kinds (8 tiles of each).")),
                            field="goods")
    if not grain and not goods:
        raise InvalidAction(Msg(N_("A customer wants goods, grain or both: enter what is handed in.")),
                            field="goods")
    player["grain"] -= grain
    free = colour == market["trigger"] and not market["free_used"]
    if colour == market["trigger"]:
        market["free_used"] = True
    if not free:
        player["time"] += MARKET_TIME
    player["customers"].append(prestige)
    market["sales"].append({"player": colour, "prestige": prestige, "free": free, "grain": grain,
                            "goods": list(goods), "time": player["time"]})
    market["turn"] = _market_order(state, config, colour)


def payment(grain: int, goods: list) -> Msg | None:
    """What a sale handed in, in the reader's words ("1 grain bag, horse, plow"); None: nothing (never
    for a sale)."""
    items = ([P_("{n} grain bag", "{n} grain bags", grain)] if grain else []) + [text(f"good.{g}") for g in goods]
    if not items:
        return None
    return Msg(", ".join(f"{{p{i}}}" for i in range(len(items))), {f"p{i}": item for i, item in enumerate(items)})


def _market_pass(state: dict, args: Mapping, config: Mapping) -> None:
    """Passing is final for this market day; when everyone has passed, the day ends."""
    market = state["market"]
    colour, _ = _player(state, config, args)
    market["passed"].append(colour)
    if colour == market["trigger"]:
        market["free_used"] = True
    market["turn"] = _market_order(state, config, colour)
    if market["turn"] is None:
        state["market"] = None


def _market_end(state: dict, args: Mapping, config: Mapping) -> None:
    """Every customer at the stalls has been served: the day ends (then the refill)."""
    state["market"] = None
