"""Village: what the box contains and the scoring tables (rulebook "Příprava hry", "Konec hry";
FACTS §2.2, §2.8), and the small reads of a family's books the other modules share."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import InvalidAction, Msg, N_, Ref

ID = "village"
COLOURS = ("red", "yellow", "blue", "ivory")
PROFESSIONS = ("council", "crafts", "travel", "church", "farmyard")

#: What the box contains (FACTS §2.2).
MEMBERS = 11                              # per colour
GENERATIONS = {"1": 4, "2": 3, "3": 2, "4": 2}
MARKERS = 8                               # per colour: 1 on the time track, 1 on the prestige track
COINS = 15
GRAIN = 20
GOODS = ("scroll", "horse", "plow", "ox", "wagon")   # 8 tiles of each
GOODS_EACH = 8
FARMYARD_GRAIN = 5
CUSTOMERS = 24
CUSTOMER_PRESTIGE_MAX = 30                # not a box count: the customer tiles are not known (FACTS §2.5.4)
MONKS = 4
PLAGUE_TIME = 2
MARKET_TIME = 1
#: Time the actions cost that FACTS §2.1 restores (the books' buttons): travel 2 (+ a wagon and 2 cubes),
#: the mill 2 (+ 2 grain), the church 3 (or 1 brown cube), a new council member 1 (+ 2 green or a scroll),
#: the wainwright 2 to train and 2 to produce (TV-V4), the stables 3 (one source). Board-printed costs
#: the sources do not give (office, smithy, council steps) are entered as +1, +2, +3.
ACTION_TIME = {"travel": 2, "mill": 2, "church": 3, "council": 1, "wainwright": 2, "stables": 3}
MASS_PIECES = 4
MASS_BONUS = 2
TRAVEL_MARKERS = MARKERS - 2              # markers left for the travel map

#: Final scoring tables (FACTS §2.8).
TRAVEL = (0, 1, 3, 6, 10, 14, 18)         # by cities visited
COUNCIL = (0, 2, 4, 6)                    # per member on stage 1, 2, 3, 4
CHURCH = (2, 3, 4, 6)                     # per member on the windows, rightmost (entry) window first
CHRONICLE = {3: 4, 4: 7}                  # 0–2 → 0, 5 or more → 12
CHRONICLE_MANY = 12


def text(key: str) -> Ref:
    return Ref(f"{ID}.{key}")


def _seat(config: Mapping, colour: str) -> int:
    return next(i for i, p in enumerate(config["players"]) if p["colour"] == colour)


def _name(config: Mapping, colour: str) -> str:
    return config["players"][_seat(config, colour)]["name"]


def _player(state: dict, config: Mapping, args: Mapping) -> tuple[str, dict]:
    colour = args.get("player")
    if not isinstance(colour, str) or colour not in state["players"]:
        raise InvalidAction(Msg(N_("Choose a player.")), field="player")
    return colour, state["players"][colour]


def living(player: Mapping) -> int:
    return sum(player["living"].values())


def lowest_living(player: Mapping) -> str | None:
    numbers = [k for k, v in player["living"].items() if v > 0]
    return min(numbers, key=int) if numbers else None


def lowest_visible(player: Mapping) -> str | None:
    """The lowest number a visible member may have: the members in the black bag may be the
    lowest-numbered ones (the books do not say which numbers are in the bag), so the first number at
    which the living outnumber the bag (None: every living member may be in the bag)."""
    seen = 0
    for number in sorted((k for k, v in player["living"].items() if v > 0), key=int):
        seen += player["living"][number]
        if seen > player["bag"]:
            return number
    return None


def _whole(args: Mapping, key: str, low: int, high: int) -> int:
    value = args.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidAction(Msg(N_("Enter a whole number from {low} to {high}."), {"low": low, "high": high}),
                            field=key)
    return value


def in_church(player: Mapping) -> int:
    return player["bag"] + sum(player["windows"])
