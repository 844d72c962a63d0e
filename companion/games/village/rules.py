"""Village (Inka & Markus Brand, eggertspiele 2011): setup, round guide, time and death, market day,
mass, end of game and final scoring.

Encodes the rulebook as summarised in ../shared/rules/FACTS.md §2 (Czech seed 001, whose lost
digits §2.1 restores):
- components and setup per player count (rulebook "Příprava hry"; FACTS §2.2, §2.3): `setup_items`;
- the round: seeding, turns, the last cube, the mass (FACTS §2.4, §2.6): `STEPS`;
- plague, time and death (FACTS §2.4, §2.7; TV-V2, TV-V10): `_time`, `_death`;
- birth (FACTS §2.5.2; TV-V3): `_birth`;
- the market day (FACTS §2.5.4; TV-V6): `_market_*`;
- the mass and its majority bonus (FACTS §2.6; TV-V7): `_mass_*`, `mass_majority`;
- the end of the game: the final actions, also when the end comes during a market day (rulebook "Konec
  hry", "Zvláštní případ"; FACTS §2.8): `_end_trigger`, `final_action_order`;
- the final scoring (FACTS §2.8; TV-V1): `final_scores`, `score_cli`.

Board data no source settles (FACTS §2.10) is never invented: the time track's length is entered
when the game starts; the grain paid to move up a church window, the printed prestige of a customer
and whether a chronicle space is still free are entered when they happen; travel and council
counts are entered at the final scoring.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable, Mapping

from ...engine import inputs
from ...engine.flow import score_track
from ...engine.model import ALLOWED, GameDef, Guide, InvalidAction, Msg, N_, P_, Ref, Rule, Step, refused
from ...engine.seats import check_seats
from ...engine.ranking import shared_places, tied_groups

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

STEPS = (Step("seed"), Step("turns", helper="turns"), Step("round_end"), Step("mass", helper="mass"))


def text(key: str) -> Ref:
    return Ref(f"{ID}.{key}")


# ----------------------------------------------------------------------------------------------
# New game and setup


def new_config(raw: Mapping) -> dict:
    """Players in seat order (clockwise), the start player, and the time track's length. A game takes 2
    to 4 players; one player's estate is only scored (`score_cli`, as the rulebook's worked example)."""
    players = raw.get("players")
    if isinstance(players, list) and len(players) < 2:
        raise InvalidAction(Msg(N_("A game of Village takes 2 to 4 players. One player's estate, like the "
                                   "rulebook's scoring example, can only be scored: companion score village.")),
                            field="players")
    clean, start = check_seats(raw, COLOURS, 2, 4)
    lap = raw.get("lap")
    if isinstance(lap, bool) or not isinstance(lap, int) or not 4 <= lap <= 60:
        raise InvalidAction(Msg(N_("Count the spaces of the time track from the start to the bridge "
                                   "(4 to 60).")), field="lap")
    return {"game": ID, "variant": "standard", "players": clean, "start": start, "lap": lap}


def setup_items(config: Mapping) -> list[dict]:
    n = len(config["players"])
    items: list[dict[str, Any]] = [{"id": "board"}, {"id": "farmyards"}, {"id": "markers"}, {"id": "coins"},
             {"id": f"customers_{n}"}]
    if n < 4:
        items.append({"id": f"blocked_{n}"})
    items += [{"id": "next_marker"}, {"id": "supply"}, {"id": "setup_card", "params": {"players": n}},
              {"id": "start_player", "params": {"name": config["players"][config["start"]]["name"]}}]
    for item in items:
        item.setdefault("params", {})
    return items


def initial_state(config: Mapping) -> dict:
    return {
        "phase": "setup", "round": 1, "start": config["start"], "turn": config["start"], "next_start": None,
        "step": "seed", "scores": {p["colour"]: 0 for p in config["players"]},
        "players": {p["colour"]: {"time": 0, "coins": 1, "grain": 0, "living": {"1": GENERATIONS["1"]},
                                  "supply": {k: v for k, v in GENERATIONS.items() if k != "1"},
                                  "bag": 0, "windows": [0, 0, 0, 0], "chronicle": 0, "graves": 0,
                                  "removed": 0, "customers": [], "deaths": 0}
                    for p in config["players"]},
        "market": None, "mass": None, "end": None, "last_mass": None, "final": None,
    }


# ----------------------------------------------------------------------------------------------
# Small helpers


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


def deaths_due(player: Mapping, lap: int) -> int:
    """Deaths the time track has caused so far and not yet carried out (one per bridge passed)."""
    return player["time"] // lap - player["deaths"]


def lowest_living(player: Mapping) -> str | None:
    numbers = [k for k, v in player["living"].items() if v > 0]
    return min(numbers, key=int) if numbers else None


def _whole(args: Mapping, key: str, low: int, high: int) -> int:
    value = args.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidAction(Msg(N_("Enter a whole number from {low} to {high}."), {"low": low, "high": high}),
                            field=key)
    return value


# ----------------------------------------------------------------------------------------------
# Turns, time, family


def _begin(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "play"


def _goto_step(state: dict, args: Mapping, config: Mapping) -> None:
    if args.get("step") not in ("seed", "turns", "round_end"):
        raise InvalidAction(Msg(N_("There is no such step.")))
    state["step"] = args["step"]


def _next_turn(state: dict, args: Mapping, config: Mapping) -> None:
    """The next player clockwise (the table of allowed actions holds it back while a market day runs or
    a death the time track caused is due)."""
    colour = config["players"][state["turn"]]["colour"]
    if state["phase"] == "final_actions":
        _final_action_done(state, config, colour)
        return
    state["turn"] = (state["turn"] + 1) % len(config["players"])


def _time(state: dict, args: Mapping, config: Mapping) -> None:
    """Time spent (an action's hourglasses, or 2 for a plague cube): the marker moves on."""
    _colour, player = _player(state, config, args)
    amount = PLAGUE_TIME if args.get("plague") else _whole(args, "amount", 1, 12)
    player["time"] += amount


def _birth(state: dict, args: Mapping, config: Mapping) -> None:
    """Family action: the lowest-numbered member still in the supply is born onto the farmyard."""
    _colour, player = _player(state, config, args)
    numbers = [k for k, v in player["supply"].items() if v > 0]
    if not numbers:
        raise InvalidAction(Msg(N_("All 11 family members have been born.")))
    number = min(numbers, key=int)
    player["supply"][number] -= 1
    player["living"][number] = player["living"].get(number, 0) + 1


def _death(state: dict, args: Mapping, config: Mapping) -> None:
    """A member dies (the lowest-numbered visible one): to the chronicle of his profession if a space
    is free, else to an anonymous grave; in the final actions with neither free, out of the game."""
    colour, player = _player(state, config, args)
    number = args.get("number")
    if player["living"].get(number, 0) <= 0:
        raise InvalidAction(Msg(N_("No living family member has that number.")), field="number")
    if args.get("profession") not in PROFESSIONS:
        raise InvalidAction(Msg(N_("Where did he work?")), field="profession")
    where = args.get("place")
    if where not in ("chronicle", "grave", "removed"):
        raise InvalidAction(Msg(N_("Choose where he goes.")), field="place")
    if where == "removed" and state["phase"] != "final_actions":
        raise InvalidAction(Msg(N_("Only in the final actions does a member leave the game when no space is "
                                   "free.")), field="place")
    if args["profession"] == "church":
        window = args.get("window")
        if not isinstance(window, int) or not 0 <= window < 4 or player["windows"][window] <= 0:
            raise InvalidAction(Msg(N_("None of his family sits on that church window.")), field="window")
        player["windows"][window] -= 1
    if in_church(player) > living(player) - 1:
        raise InvalidAction(Msg(N_("That member is in the black bag: choose a visible one.")), field="number")
    player["living"][number] -= 1
    player[{"chronicle": "chronicle", "grave": "graves", "removed": "removed"}[where]] += 1
    player["deaths"] += 1


def in_church(player: Mapping) -> int:
    return player["bag"] + sum(player["windows"])


def _coins(state: dict, args: Mapping, config: Mapping) -> None:
    """Coins gained (mill, travel) or spent (joker, council stage 4, mass), within the box's 15."""
    _colour, player = _player(state, config, args)
    delta = _whole(args, "delta", -COINS, COINS)
    if player["coins"] + delta < 0:
        raise InvalidAction(Msg(N_("Not enough coins.")), field="delta")
    if sum(p["coins"] for p in state["players"].values()) + delta > COINS:
        raise InvalidAction(Msg(N_("The box has only 15 coins.")), field="delta")
    player["coins"] += delta


def _grain(state: dict, args: Mapping, config: Mapping) -> None:
    """Grain harvested or paid, within 5 per farmyard and the box's 20 bags."""
    _colour, player = _player(state, config, args)
    delta = _whole(args, "delta", -GRAIN, GRAIN)
    if player["grain"] + delta < 0:
        raise InvalidAction(Msg(N_("Not enough grain.")), field="delta")
    if player["grain"] + delta > FARMYARD_GRAIN:
        raise InvalidAction(Msg(N_("A farmyard holds at most 5 grain bags.")), field="delta")
    if sum(p["grain"] for p in state["players"].values()) + delta > GRAIN:
        raise InvalidAction(Msg(N_("The box has only 20 grain bags.")), field="delta")
    player["grain"] += delta


def _church(state: dict, args: Mapping, config: Mapping) -> None:
    """Church action: a farmyard member goes into the black bag (1 brown cube or 3 time)."""
    _colour, player = _player(state, config, args)
    if in_church(player) >= living(player):
        raise InvalidAction(Msg(N_("Every living family member is already in the church.")))
    player["bag"] += 1


def _next_marker(state: dict, args: Mapping, config: Mapping) -> None:
    """Council stage 1: the next-starting-player marker (nothing if it is already taken)."""
    colour, _player_state = _player(state, config, args)
    state["next_start"] = _seat(config, colour)


# ----------------------------------------------------------------------------------------------
# Market day


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
    the goods, which the books do not keep, are recorded with the sale); the trigger player's first
    sale is free, every other one costs 1 green cube and 1 time; the tile's printed prestige counts at
    the end."""
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
    player["grain"] -= grain
    free = colour == market["trigger"] and not market["free_used"]
    if colour == market["trigger"]:
        market["free_used"] = True
    if not free:
        player["time"] += MARKET_TIME
    player["customers"].append(prestige)
    market["sales"].append({"player": colour, "prestige": prestige, "free": free, "grain": grain,
                            "goods": list(goods)})
    market["turn"] = _market_order(state, config, colour)


def payment(grain: int, goods: list) -> Msg | None:
    """What a sale handed in, in the reader's words ("1 grain bag, horse, plow"); None: nothing."""
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


# ----------------------------------------------------------------------------------------------
# Mass


def _round_end(state: dict, args: Mapping, config: Mapping) -> None:
    """The last cube was taken and its action done: the round ends with a mass."""
    state["phase"] = "mass"
    state["mass"] = {"bought": {}, "drawn": None, "moved": [], "started": [], "final": False}


def _mass_buy(state: dict, args: Mapping, config: Mapping) -> None:
    """Buy one of your own members out of the bag for 1 coin (until 4 pieces are out)."""
    mass = state["mass"]
    colour, player = _player(state, config, args)
    if player["bag"] <= 0:
        raise InvalidAction(Msg(N_("{name} has no family member in the bag."), {"name": _name(config, colour)}))
    if player["coins"] <= 0:
        raise InvalidAction(Msg(N_("{name} has no coin."), {"name": _name(config, colour)}))
    player["coins"] -= 1
    player["bag"] -= 1
    player["windows"][0] += 1
    mass["bought"][colour] = mass["bought"].get(colour, 0) + 1


def _mass_draw(state: dict, args: Mapping, config: Mapping) -> None:
    """The rest is drawn blind until 4 pieces are out: family members to the rightmost window,
    monks back into the bag."""
    mass = state["mass"]
    drawn = args.get("members")
    if not isinstance(drawn, Mapping):
        raise InvalidAction(Msg(N_("Enter what was drawn.")), field="members")
    counts = {}
    for colour, player in state["players"].items():
        n = drawn.get(colour, 0)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= player["bag"]:
            raise InvalidAction(P_("{name} has only {n} member in the bag.", "{name} has only {n} members in the bag.",
                                   player["bag"], name=_name(config, colour)), field=f"members.{colour}")
        counts[colour] = n
    monks = _whole(args, "monks", 0, MONKS)
    if sum(mass["bought"].values()) + sum(counts.values()) + monks != MASS_PIECES:
        raise InvalidAction(Msg(N_("Exactly 4 pieces come out of the bag: bought, drawn members and monks "
                                   "together.")), field="monks")
    for colour, n in counts.items():
        state["players"][colour]["bag"] -= n
        state["players"][colour]["windows"][0] += n
    mass["drawn"] = {"members": counts, "monks": monks}


def _mass_move(state: dict, args: Mapping, config: Mapping) -> None:
    """Move one of your members leftwards, paying the grain shown between the windows (see the board).
    A player may move several members, and one member several windows, in his one go."""
    colour, player = _player(state, config, args)
    source, target = args.get("source"), args.get("target")
    if not (isinstance(source, int) and isinstance(target, int) and 0 <= source < target <= 3):
        raise InvalidAction(Msg(N_("A member moves from a window to one further left.")), field="target")
    if player["windows"][source] <= 0:
        raise InvalidAction(Msg(N_("None of his family sits on that church window.")), field="source")
    grain = _whole(args, "grain", 0, FARMYARD_GRAIN)
    if grain < target - source:
        raise InvalidAction(P_("Every window further costs grain (see the board): at least {n} bag for this move.",
                               "Every window further costs grain (see the board): at least {n} bags for this move.",
                               target - source), field="grain")
    if grain > player["grain"]:
        raise InvalidAction(Msg(N_("Not enough grain.")), field="grain")
    player["grain"] -= grain
    player["windows"][source] -= 1
    player["windows"][target] += 1
    if colour not in state["mass"]["started"]:
        state["mass"]["started"].append(colour)


def _mass_done(state: dict, args: Mapping, config: Mapping) -> None:
    """A player has finished moving this mass (each player moves once, in turn order)."""
    colour, _ = _player(state, config, args)
    state["mass"]["moved"].append(colour)


def mass_majority(windows: Mapping[str, list[int]]) -> list[str]:
    """Who gets the 2 prestige: most members in the church; a tie goes to the member further left;
    still tied, each of them."""
    counts = {c: sum(w) for c, w in windows.items()}
    best = max(counts.values(), default=0)
    if best == 0:
        return []
    tied = [c for c, n in counts.items() if n == best]
    leftmost = {c: max(i for i, n in enumerate(windows[c]) if n) for c in tied}
    far = max(leftmost.values())
    return [c for c in tied if leftmost[c] == far]


def can_move(player: Mapping) -> bool:
    """A family can move up in the mass: a member on a window that is not the leftmost, and grain to pay
    (every step between the windows costs grain)."""
    return sum(player["windows"][:3]) > 0 and player["grain"] > 0


def mass_mover(state: Mapping, config: Mapping) -> str | None:
    """Who moves up now in the mass's second part: the first family, from the start player clockwise,
    that has not finished and can move or has begun moving (None before the draw and once nobody is
    left to move)."""
    mass = state["mass"]
    if mass is None or mass["drawn"] is None:
        return None
    players = config["players"]
    for k in range(len(players)):
        colour = players[(state["start"] + k) % len(players)]["colour"]
        if colour not in mass["moved"] and (colour in mass["started"] or can_move(state["players"][colour])):
            return colour
    return None


def mass_idle(state: Mapping) -> bool:
    """Nobody can act in this mass: no family member is in the black bag (nothing to buy, and the 4
    pieces drawn are the monks) and no family has both a member that could still move left and grain
    to pay with (every step between the windows costs the grain the board shows: the app's reading of
    FACTS §2.6, whose example has every step cost at least one bag)."""
    return all(p["bag"] == 0 and not can_move(p) for p in state["players"].values())


def _mass_quiet(state: dict, args: Mapping, config: Mapping) -> None:
    """A mass in which nobody can act, in one entry: the monks are drawn and go back, the majority
    scores, and the next round begins (or the final scoring)."""
    mass = state["mass"]
    mass["drawn"] = {"members": {c: 0 for c in state["players"]}, "monks": MASS_PIECES}
    _mass_end(state, args, config)


def _mass_end(state: dict, args: Mapping, config: Mapping) -> None:
    """The majority bonus, then a new round (or, after the final mass, the final scoring)."""
    mass = state["mass"]
    winners = mass_majority({c: p["windows"] for c, p in state["players"].items()})
    for colour in winners:
        state["scores"][colour] += MASS_BONUS
    state["last_mass"] = {"round": state["round"], "winners": winners}
    state["mass"] = None
    if mass["final"]:
        state["phase"] = "scoring"
        return
    state["round"] += 1
    if state["next_start"] is not None:
        state["start"] = state["next_start"]
        state["next_start"] = None
    state["turn"] = state["start"]
    state["step"] = "seed"
    state["phase"] = "play"


# ----------------------------------------------------------------------------------------------
# End of game


def _end_trigger(state: dict, args: Mapping, config: Mapping) -> None:
    """A member took the last chronicle space or the last grave: the final actions follow (after the
    market day, if one is running: who started it is recorded, since it decides the order)."""
    colour, _ = _player(state, config, args)
    state["phase"] = "final_actions"
    state["end"] = {"trigger": colour, "market": state["market"]["trigger"] if state["market"] else None,
                    "acted": []}
    state["turn"] = _seat(config, final_action_order(state, config)[0])


def final_action_order(state: Mapping, config: Mapping) -> list[str]:
    """Who still gets a final action, in order: everyone but the trigger player, clockwise after him.
    Ended during a market day by someone other than its starter: every player, clockwise after the
    starter, who acts last (seed 001, end of the game)."""
    n = len(config["players"])
    end = state["end"]
    if end["market"] is not None and end["market"] != end["trigger"]:
        seat = _seat(config, end["market"])
        return [config["players"][(seat + k) % n]["colour"] for k in range(1, n + 1)]
    seat = _seat(config, end["trigger"])
    return [config["players"][(seat + k) % n]["colour"] for k in range(1, n)]


def _final_action_done(state: dict, config: Mapping, colour: str) -> None:
    order = final_action_order(state, config)
    state["end"]["acted"].append(colour)
    remaining = [c for c in order if c not in state["end"]["acted"]]
    if remaining:
        state["turn"] = _seat(config, remaining[0])
    else:
        state["phase"] = "mass"
        state["mass"] = {"bought": {}, "drawn": None, "moved": [], "started": [], "final": True}


def _finish(state: dict, args: Mapping, config: Mapping) -> None:
    """The final scoring: travel and council counts from the board; everything else from the books."""
    entries = args.get("players")
    if not isinstance(entries, Mapping):
        raise InvalidAction(Msg(N_("Enter the travel and council counts for every player.")))
    final = {}
    for colour, player in state["players"].items():
        entry = entries.get(colour)
        if not isinstance(entry, Mapping):
            raise InvalidAction(Msg(N_("Enter the travel and council counts for every player.")))
        cities = entry.get("cities_visited")
        if isinstance(cities, bool) or not isinstance(cities, int) or not 0 <= cities <= TRAVEL_MARKERS:
            raise InvalidAction(Msg(N_("Cities visited: 0 to 6 (a family has 6 markers for the map).")),
                                field=f"{colour}.cities_visited")
        council = entry.get("council")
        if (not isinstance(council, list) or len(council) != 4
                or any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in council)):
            raise InvalidAction(Msg(N_("Enter the members on each council stage.")), field=f"{colour}.council")
        if sum(council) + in_church(player) > living(player):
            raise InvalidAction(Msg(N_("More members in the council and the church than living ones.")),
                                field=f"{colour}.council")
        final[colour] = {"cities_visited": cities, "council": list(council)}
    state["final"] = final
    state["phase"] = "over"


def _in_turns(reducer: Callable[[dict, Mapping, Mapping], None]) -> Callable[[dict, Mapping, Mapping], None]:
    """An entry made during the players' turns: once the first is made, the round is past filling the
    action spaces, and the header says so (not the step the round began with)."""
    def reduce(state: dict, args: Mapping, config: Mapping) -> None:
        reducer(state, args, config)
        if state["phase"] == "play" and state["step"] == "seed":
            state["step"] = "turns"
    reduce.__doc__ = reducer.__doc__
    return reduce


REDUCERS = {
    "begin": _begin, "goto_step": _goto_step, "next_turn": _in_turns(_next_turn), "time": _in_turns(_time),
    "birth": _in_turns(_birth), "death": _in_turns(_death), "coins": _in_turns(_coins), "grain": _in_turns(_grain),
    "church": _in_turns(_church), "next_marker": _in_turns(_next_marker), "market_start": _in_turns(_market_start),
    "market_sell": _market_sell, "market_pass": _market_pass, "market_end": _market_end, "round_end": _round_end,
    "mass_buy": _mass_buy, "mass_draw": _mass_draw, "mass_move": _mass_move, "mass_done": _mass_done,
    "mass_end": _mass_end, "mass_quiet": _mass_quiet, "end_trigger": _in_turns(_end_trigger),
    "finish": _finish,
}


# ----------------------------------------------------------------------------------------------
# The table of allowed actions


def _dying(state: Mapping, config: Mapping) -> list[str]:
    """The families whose time marker passed the bridge and whose death is not yet recorded."""
    return [p["colour"] for p in config["players"] if deaths_due(state["players"][p["colour"]], config["lap"]) > 0]


def _off(state: Mapping) -> Rule:
    """Why an entry of the rounds (a family's books, the turns) is refused outside them."""
    phase = state["phase"]
    if phase == "setup":
        return refused(N_("The game has not begun: finish the setup first."))
    if phase == "mass":
        return refused(N_("The mass is being held: this comes after it."))
    if phase == "scoring":
        return refused(N_("The rounds are over: only the final scoring is left."))
    return refused(N_("The game is over."))


def moves(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The table of allowed actions (FACTS §2.4–§2.8): who may make each entry now, or why it is refused.

    - the rounds (play, and the final actions once the end has come): the family's books any time,
      turns in order; a turn ends, and a round ends, only after the market day and after every death
      the time track caused; the round ends only in play (the final actions skip the mass of the round);
    - a market day: the seller on turn sells or passes; a member who dies during it dies at once, so
      the day goes on only after his death is recorded;
    - the mass: buy members out until 4 pieces are out, draw the rest, move up in turn order (the
      families that can), the majority; a mass in which nobody can act is one entry;
    - the final scoring once the final mass is over.
    """
    phase, market, mass = state["phase"], state["market"], state["mass"]
    players = config["players"]
    table = {kind: _off(state) for kind in REDUCERS}
    table["begin"] = ALLOWED if phase == "setup" else refused(N_("The game has already begun."))
    table["finish"] = (ALLOWED if phase == "scoring" else refused(N_("The game is over: the final scoring is done."))
                       if phase == "over" else refused(N_("The final scoring comes after the final mass.")))
    if phase in ("play", "final_actions"):
        turn = players[state["turn"]]["colour"]
        dying = _dying(state, config)
        for kind in ("time", "birth", "church", "coins", "grain"):
            table[kind] = ALLOWED
        table["death"] = (Rule(by=frozenset(dying)) if dying
                          else refused(N_("Nobody has to die now: no time marker has passed the bridge.")))
        if market:
            held = refused(N_("Finish the market day first."))
        elif dying:
            held = refused(N_("{name} passed the bridge: record the family member's death first."),
                           name=_name(config, dying[0]))
        else:
            held = Rule(by=frozenset({turn}))
        table["next_turn"] = held
        table["round_end"] = held if phase == "play" else refused(
            N_("The game is ending: after the final actions comes the final mass, not the mass of the round."))
        table["goto_step"] = (ALLOWED if phase == "play" and not market else refused(N_("Finish the market day first."))
                              if market else refused(N_("The game is ending: only the final actions are left.")))
        table["market_start"] = (refused(N_("A market day is already running.")) if market
                                 else Rule(by=frozenset({turn})))
        table["next_marker"] = (
            refused(N_("The game is ending: there is no next round.")) if phase == "final_actions"
            else refused(N_("The next-starting-player marker is already taken this round."))
            if state["next_start"] is not None else ALLOWED)
        table["end_trigger"] = ALLOWED if phase == "play" else refused(N_("The game is already ending."))
        if not market:
            idle = refused(N_("No market day is running."))
            table.update(market_sell=idle, market_pass=idle, market_end=idle)
        elif dying:
            first = refused(N_("{name} passed the bridge: on a market day the family member dies at once: record "
                               "the death first."), name=_name(config, dying[0]))
            table.update(market_sell=first, market_pass=first, market_end=first)
        else:
            seller = Rule(by=frozenset({market["turn"]}))
            served = sum(len(p["customers"]) for p in state["players"].values()) >= CUSTOMERS
            table.update(market_sell=refused(N_("All 24 customers have been served.")) if served else seller,
                         market_pass=seller, market_end=ALLOWED)
        nothing = refused(N_("The mass comes at the end of the round."))
        for kind in ("mass_buy", "mass_draw", "mass_move", "mass_done", "mass_end", "mass_quiet"):
            table[kind] = nothing
    elif phase == "mass":
        for kind in ("coins", "grain"):
            table[kind] = ALLOWED
        drawn = mass["drawn"] is not None
        after = refused(N_("The pieces have already been drawn."))
        table["mass_buy"] = (after if drawn else refused(N_("Four members are already out of the bag."))
                             if sum(mass["bought"].values()) >= MASS_PIECES else ALLOWED)
        table["mass_draw"] = after if drawn else ALLOWED
        mover = mass_mover(state, config)
        first = refused(N_("Draw the pieces first."))
        moving = (first if not drawn else Rule(by=frozenset({mover})) if mover
                  else refused(N_("Nobody can move up any more: no member to move or no grain to pay.")))
        table["mass_move"] = table["mass_done"] = moving
        table["mass_end"] = (first if not drawn else refused(N_("{name} moves up first."), name=_name(config, mover))
                             if mover else ALLOWED)
        table["mass_quiet"] = (ALLOWED if not drawn and not mass["bought"] and mass_idle(state)
                               else refused(N_("Someone can still act in this mass: go through its parts.")))
    return table


# ----------------------------------------------------------------------------------------------
# Final scoring


def travel_points(cities: int) -> int:
    return TRAVEL[min(cities, len(TRAVEL) - 1)]


def chronicle_points(members: int) -> int:
    return CHRONICLE_MANY if members >= 5 else CHRONICLE.get(members, 0)


def final_scores(players: list[dict]) -> dict:
    """Final scoring (FACTS §2.8): prestige track + travel + council + church + chronicle +
    customers + coins; ties: more customers served, then more living family members."""
    rows, explain = [], []
    for p in players:
        council = sum(n * v for n, v in zip(p["council"], COUNCIL))
        church = sum(n * v for n, v in zip(p["church"], CHURCH))
        breakdown = {"track": p["track"], "travel": travel_points(p["cities_visited"]), "council": council,
                     "church": church, "chronicle": chronicle_points(p["chronicle"]),
                     "customers": sum(p["customers"]), "coins": p["coins"]}
        rows.append({"id": p["id"], "total": sum(breakdown.values()), "breakdown": breakdown,
                     "tie": (len(p["customers"]), p["living"])})
        who = p.get("name", p["id"])
        explain += [
            Msg(N_("{name}: prestige track {n}"), {"name": who, "n": p["track"]}),
            Msg(N_("{name}: travel, cities {cities} = {points}"), {"name": who, "cities": p["cities_visited"],
                                                                 "points": breakdown["travel"]}),
            Msg(N_("{name}: council, stages 1–4 {counts} × 0/2/4/6 = {points}"),
                {"name": who, "counts": "/".join(map(str, p["council"])), "points": council}),
            Msg(N_("{name}: church windows from the right {counts} × 2/3/4/6 = {points}"),
                {"name": who, "counts": "/".join(map(str, p["church"])), "points": church}),
            Msg(N_("{name}: chronicle, members {members} = {points}"),
                {"name": who, "members": p["chronicle"], "points": breakdown["chronicle"]}),
            Msg(N_("{name}: customers {list} = {points}"),
                {"name": who, "list": " + ".join(map(str, p["customers"])) or "0", "points": breakdown["customers"]}),
            Msg(N_("{name}: coins {n}"), {"name": who, "n": p["coins"]}),
        ]
    groups = tied_groups(rows, key=lambda r: (r["total"], *r["tie"]))
    for group, place in zip(groups, shared_places(groups)):
        for row in group:
            row["place"] = place
    by_total = tied_groups(rows, key=lambda r: r["total"])
    names = {p["id"]: p.get("name", p["id"]) for p in players}
    for group in by_total:
        if len(group) > 1:
            explain.append(Msg(N_("Tie on {n} points between {names}: more customers served wins, then more living "
                                  "family members ({details})."),
                               {"n": group[0]["total"], "names": ", ".join(names[r["id"]] for r in group),
                                "details": "; ".join(f"{names[r['id']]} {r['tie'][0]}/{r['tie'][1]}"
                                                     for r in group)}))
    return {"game": "village",
            "players": [{"id": r["id"], "total": r["total"], "place": r["place"], "breakdown": r["breakdown"]}
                        for r in rows],
            "winners": [r["id"] for r in rows if r["place"] == 1], "explain": explain}


def check_player(raw: Any, path: str) -> dict:
    """One player's final-scoring entry, checked against the box (FACTS §2.2)."""
    fields = ["id", "track", "cities_visited", "council", "church", "chronicle", "customers", "coins", "living"]
    inputs.obj(raw, path, required=fields)
    j = lambda key: inputs.join(path, key)  # noqa: E731
    p = {"id": raw["id"], "track": inputs.whole(raw["track"], j("track"), 0, 999),
         "cities_visited": inputs.whole(raw["cities_visited"], j("cities_visited"), 0, TRAVEL_MARKERS,
                                        N_("markers a family has for the travel map")),
         "chronicle": inputs.whole(raw["chronicle"], j("chronicle"), 0, MEMBERS, N_("family members per colour")),
         "coins": inputs.whole(raw["coins"], j("coins"), 0, COINS, N_("coins in the box")),
         "living": inputs.whole(raw["living"], j("living"), 0, MEMBERS, N_("family members per colour"))}
    for key in ("council", "church"):
        values = inputs.array(raw[key], j(key), 4, 4)
        p[key] = [inputs.whole(v, inputs.join(j(key), i), 0, MEMBERS, N_("family members per colour"))
                  for i, v in enumerate(values)]
    customers = inputs.array(raw["customers"], j("customers"), 0, CUSTOMERS)
    p["customers"] = [inputs.whole(v, inputs.join(j("customers"), i), 0, CUSTOMER_PRESTIGE_MAX,
                                   N_("the app's bound against typing errors: the sources do not list the "
                                      "customer tiles"))
                      for i, v in enumerate(customers)]
    if p["living"] + p["chronicle"] > MEMBERS:
        raise inputs.InputError(j("chronicle"), Msg(N_("living and chronicle members add up to more than the {n} "
                                                       "family members of a colour"), {"n": MEMBERS}))
    if sum(p["council"]) + sum(p["church"]) > p["living"]:
        raise inputs.InputError(j("council"), Msg(N_("more members on the council and the church windows than "
                                                     "living ones")))
    return p


def score_cli(data: Any) -> dict:
    """`companion score village`: check the input (scoring-contract.md) and score it."""
    _data, _options, players = inputs.common(data, "village", [], 1, 4)
    checked = [check_player(p, inputs.join("players", i)) for i, p in enumerate(players)]
    if sum(p["coins"] for p in checked) > COINS:
        raise inputs.InputError("players", Msg(N_("more coins in all than the box's {n}"), {"n": COINS}))
    if sum(len(p["customers"]) for p in checked) > CUSTOMERS:
        raise inputs.InputError("players", Msg(N_("more customers in all than the box's {n}"), {"n": CUSTOMERS}))
    return final_scores(checked)


def result(state: Mapping, config: Mapping) -> dict:
    """The final result of a session (the same scoring as `companion score village`)."""
    players = []
    for p in config["players"]:
        book, entry = state["players"][p["colour"]], state["final"][p["colour"]]
        players.append({"id": p["colour"], "name": p["name"], "track": state["scores"][p["colour"]],
                        "cities_visited": entry["cities_visited"], "council": entry["council"],
                        "church": book["windows"], "chronicle": book["chronicle"], "customers": book["customers"],
                        "coins": book["coins"], "living": living(book)})
    return final_scores(players)


def describe(action: Mapping, config: Mapping) -> Msg:
    """What an action did, for the game log and the undo button."""
    kind, args = action.get("type"), action.get("args", {})
    colour = args.get("player")
    who = _name(config, colour) if colour in {p["colour"] for p in config["players"]} else ""
    simple = {
        "begin": N_("Setup finished, round 1 begins"), "next_turn": N_("Next player"),
        "round_end": N_("The round ended: mass"), "market_end": N_("Market day over"),
        "mass_draw": N_("Mass: pieces drawn"), "mass_end": N_("Mass over"),
        "mass_quiet": N_("Mass: nobody could act; the majority scored"),
        "finish": N_("Final scoring done"), "goto_step": N_("Moved to another step"),
    }
    if kind in simple:
        return Msg(simple[kind])
    if kind == "tick":
        return Msg(N_("Setup: ticked an item") if args.get("done") else N_("Setup: unticked an item"))
    if kind == "time":
        n = PLAGUE_TIME if args.get("plague") else args.get("amount", 0)
        return (P_("{name}: plague cube, {n} time", "{name}: plague cube, {n} time", n, name=who)
                if args.get("plague") else P_("{name}: {n} time", "{name}: {n} time", n, name=who))
    per_player = {
        "birth": N_("{name}: a family member is born"), "death": N_("{name}: a family member died"),
        "church": N_("{name}: a member into the black bag"), "next_marker": N_("{name} took the next-starting-player marker"),
        "market_start": N_("{name} started a market day"), "market_pass": N_("{name} passed at the market"),
        "mass_buy": N_("{name} bought a member out of the bag"), "mass_done": N_("{name} finished moving"),
        "end_trigger": N_("{name} ended the game"),
    }
    if kind in per_player:
        return Msg(per_player[kind], {"name": who})
    if kind == "coins":
        return Msg(N_("{name}: coins {delta:+d}"), {"name": who, "delta": args.get("delta", 0)})
    if kind == "grain":
        return Msg(N_("{name}: grain {delta:+d}"), {"name": who, "delta": args.get("delta", 0)})
    if kind == "market_sell":
        sale = P_("{name} served a customer ({n} prestige point)", "{name} served a customer ({n} prestige points)",
                  args.get("prestige", 0), name=who)
        paid = payment(args.get("grain", 0), args.get("goods", []))
        return Msg(N_("{sale}, paid: {paid}"), {"sale": sale, "paid": paid}) if paid else sale
    if kind == "mass_move":
        return Msg(N_("{name} moved a member up in the church"), {"name": who})
    if kind == "correct":
        track = args.get("track")
        return Msg(N_("Prestige for {name}: {points:+d} ({reason})"),
                   {"name": _name(config, track) if track in {p["colour"] for p in config["players"]} else track,
                    "points": args.get("points", 0), "reason": args.get("reason", "")})
    return Msg(N_("Unknown action"))



def guide(state: Mapping, config: Mapping) -> Guide:
    """The pinned header: round and step (the market day, a death, the mass's part, the end), who acts
    (the player on turn, at the market the seller, a family whose member dies, in the church's second
    part the family moving up) and every family's prestige. It follows the table of allowed actions:
    the actor named is the one its `by` names for the entry that is due."""
    players = config["players"]
    figures = {p["colour"]: Msg("{n}", {"n": state["scores"][p["colour"]]}) for p in players}
    phase = state["phase"]
    if phase == "setup":
        return Guide(Msg(N_("Setup")), figures=figures, screen=phase)
    if phase == "mass":
        mass = state["mass"]
        part = (Msg(N_("four pieces out of the bag")) if mass["drawn"] is None
                else Msg(N_("moving up")) if mass_mover(state, config) else Msg(N_("the majority")))
        where = (Msg(N_("Final mass · {part}"), {"part": part}) if mass["final"]
                 else Msg(N_("Mass after round {n} · {part}"), {"n": state["round"], "part": part}))
        return Guide(where, mass_mover(state, config), Msg(N_("Moves up:")), figures,
                     f"mass:{mass['drawn'] is not None}")
    if phase in ("scoring", "over"):
        return Guide(Msg(N_("Final scoring")), figures=figures, screen=phase)
    turn = players[state["turn"]]["colour"]
    dying = _dying(state, config)
    if state["market"]:
        now = Msg(N_("market day"))
    elif dying:
        now = Msg(N_("a family member dies"))
    elif phase == "final_actions":
        now = Msg(N_("the game is ending: final actions"))
    else:
        now = Msg("{step}", {"step": text(f"step.standard.{state['step']}.title")})
    where = Msg(N_("Round {n} · {step}"), {"n": state["round"], "step": now})
    if state["market"]:
        if dying:
            return Guide(where, dying[0], Msg(N_("Dies at once:")), figures, f"market:{phase}")
        return Guide(where, state["market"]["turn"], Msg(N_("At the market:")), figures, f"market:{phase}")
    if dying:
        return Guide(where, dying[0], Msg(N_("A member dies:")), figures, f"{phase}:{state['round']}")
    # one screen for the round's turns: the step moving on with the first entry does not scroll it away
    return Guide(where, turn, Msg(N_("On turn:")), figures, f"{phase}:{state['round']}")


GAME = GameDef(
    id=ID, cli_name="village", min_players=2, max_players=4,
    new_config=new_config, setup_items=setup_items, initial_state=initial_state,
    reducers=REDUCERS, describe=describe, score_cli=score_cli,
    steps=lambda config: STEPS, result=result,
    progress=score_track, guide=guide, moves=moves,
    personal=frozenset({"market_sell", "market_pass", "mass_buy", "mass_move", "mass_done"}),
    order=20
)
