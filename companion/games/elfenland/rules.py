"""Elfenland (Alan R. Moon, 1998) and its expansion Elfengold: setup, rounds, the gold ledger, the
tile auction, moves and the race for towns, and the final scoring.

Encodes ../shared/rules/FACTS.md §5 (the English Elfenland rules S-RP-E; Elfengold from the Czech
seed 004 and S-GT, S-LZ, S-SM):
- components and setup of both games (FACTS §5.1–5.3): `setup_items`;
- the round: 6 phases in Elfenland (4 rounds), 7 in Elfengold (6 rounds; round 1 skips drawing
  and income), the start player passing left (FACTS §5.1, §5.4): `PHASES`, `_next_phase`;
- travel-card costs per road: terrain, transport, obstacles, sea monsters, rafts, caravans
  (FACTS §5.1 cost table, §5.4.5; TV-E1…E4, TV-E6): `road_cost`;
- Elfengold's gold: 12 to start, income 2 from round 2, the gold pile at 3 per gold card (TV-E7),
  the move's town gold with gold roads doubling the next town and Elvenhold paying nothing, or 2
  cards instead, and the Elf-wizard costs (FACTS §5.4.1–2, §5.4.6, §5.6.3; TV-E8): `move_gold`;
- the transport-tile auction: 2 × players tiles a round (the phase does not end before they are
  turned up and auctioned), opened by the start player, a pass final for that tile, the winner pays
  the bank, a winner who cannot pay loses all his gold and the tile is auctioned again, no bid sends
  it back to the pool (FACTS §5.4.4): `_reveal`, `_open`, `_settle`, `_next_phase`; the quiet paths
  in one entry each: nobody (else) bids on this tile, nobody else bids this round (every later turn to
  bid a pass): `_no_bid`, `_no_more_bids`;
- the app's "next phase": income has nothing to enter, so it is booked on the way to the tiles phase;
  entering the auction turns up its row: `_advance`; nobody else moves (each passes, in Elfengold
  drawing 2 cards), in one entry: `_nobody_moves`;
- obstacles: one per road, so a wizard card stands in for at most one obstacle card per road
  travelled (FACTS §5.1, §5.6.3): `_move`; in Elfengold all board tiles, trees included, go back to
  the pool at the round's end (FACTS §5.4.7); the tiles Elfengold leaves in the box (FACTS §5.1 vs
  §5.3): `setup_items`;
- gold cards drawn among the 2 cards taken instead of the move's gold go onto the gold pile
  (FACTS §5.4.1, §5.4.6): `_gold_cards_drawn`;
- the town race: 20 town pieces, the game ends after the round in which someone has all 20
  (FACTS §5.5): `_move`, `_end_round`;
- the final scoring: most towns; tie → most gold (Elfengold) or most travel cards in hand
  (base game); players still tied share the place, and a line says who (FACTS §5.1, §5.5; TV-E9):
  `final_scores`.

Decisions where the sources are silent (FACTS §5.8 lists them as open):
- the town a move starts from pays nothing and a town reached twice pays twice (S-PK); a flying
  carpet's town gives its town piece but no gold;
- a tile auction's lowest bid is 1 gold (nobody bidding sends the tile back, so a bid of 0 would be
  no bid); a bid is not limited by the bidder's gold: that is what "a winner who cannot pay" is for;
  but a player without gold does not bid: he would risk nothing, and could win, fail to pay and bid
  again for ever;
- the base game ends early the same way as Elfengold: after the round in which a player has all 20
  town pieces;
- the Elfengold variants with town cards or randomly placed gold discs are not computed: the move
  helper uses the printed disc values (FACTS §5.3); correct the ledger if you play them;
- the bank holds the box's 300 gold less what the players hold, and pays what it has: income, a
  move's gold and the gold pile never take the players past the box's 300 (so `companion score`
  accepts the game's own numbers); a gold correction that gives gold back is always allowed (`bank`,
  `_pay`, `_adjust`);
- the auction's row need not name its tiles: which tiles they are changes nothing the app books (the
  players see them on the table), so the app asks only who wins each and at what price.
"""
from __future__ import annotations

from typing import Any

from collections.abc import Mapping, Sequence

from ...engine import auction, inputs
from ...engine.model import ALLOWED, GameDef, Guide, InvalidAction, Msg, N_, P_, Ref, Rule, Step, refused
from ...engine.ranking import shared_places, tied_groups
from ...engine.seats import check_seats

ELFENGOLD = "elfengold"
TOWNS = 20            # town pieces per player (FACTS §5.1)
GOLD_IN_BOX = 300     # 25 × 1 + 25 × 5 + 15 × 10 (FACTS §5.2)
HAND_AFTER_MOVE = 4   # base game: a hand is reduced to 4 cards at the end of each move (FACTS §5.1)


def final_scores(elfengold: bool, players: list[dict]) -> dict:
    """Most towns wins; the tie-break is gold (Elfengold) or travel cards in hand (base game)."""
    second = "gold" if elfengold else "cards"
    explain = [P_("{name}: {n} town", "{name}: {n} towns", p["towns"], name=p.get("name", p["id"])) for p in players]
    groups = tied_groups(players, key=lambda p: (p["towns"], p[second]))
    place = {p["id"]: n for group, n in zip(groups, shared_places(groups)) for p in group}
    for group in tied_groups(players, key=lambda p: p["towns"]):
        if len(group) < 2:
            continue
        details = ", ".join(f"{p.get('name', p['id'])} {p[second]}" for p in group)
        explain.append(Msg(N_("Tie on {n} towns: the most gold wins ({details}).") if elfengold else
                           N_("Tie on {n} towns: the most travel cards in hand wins ({details})."),
                           {"n": group[0]["towns"], "details": details}))
        for still in tied_groups(group, key=lambda p: p[second]):
            if len(still) > 1:
                explain.append(Msg(N_("{names} still tie on gold as well and share place {place}.") if elfengold
                                   else N_("{names} still tie on travel cards as well and share place {place}."),
                                   {"names": ", ".join(p.get("name", p["id"]) for p in still),
                                    "place": place[still[0]["id"]]}))
    return {"game": "elfenland",
            "players": [{"id": p["id"], "total": p["towns"], "place": place[p["id"]],
                         "breakdown": {"towns": p["towns"]}} for p in players],
            "winners": [p["id"] for p in players if place[p["id"]] == 1], "explain": explain}


def score_cli(data: Any) -> dict:
    """`companion score elfenland`: check the input (scoring-contract.md) and score it."""
    _data, options, players = inputs.common(data, "elfenland", [ELFENGOLD], 2, 6)
    elfengold = ELFENGOLD in options
    second = "gold" if elfengold else "cards"
    each = GOLD_IN_BOX if elfengold else HAND_AFTER_MOVE
    checked = []
    for i, raw in enumerate(players):
        path = inputs.join("players", i)
        inputs.obj(raw, path, required=["id", "towns", second])
        checked.append({"id": raw["id"],
                        "towns": inputs.whole(raw["towns"], inputs.join(path, "towns"), 0, TOWNS,
                                              N_("town pieces per player")),
                        second: inputs.whole(raw[second], inputs.join(path, second), 0, each,
                                             N_("gold in the box") if elfengold else
                                             N_("cards a hand keeps at the end of a move"))})
    if elfengold and sum(p["gold"] for p in checked) > GOLD_IN_BOX:      # hands of 4 never reach the 72 cards
        raise inputs.InputError("players", Msg(N_("more gold in all than the box's {n}"), {"n": GOLD_IN_BOX}))
    return final_scores(elfengold, checked)


# ----------------------------------------------------------------------------------------------
# The session (FACTS §5.1–5.6)

ID = "elfenland"
COLOURS = ("red", "blue", "green", "yellow", "purple", "black")

#: Elfengold's gold discs, printed value per town (FACTS §5.3); Elvenhold, the capital, has none.
GOLD_DISCS = {"al_baran": 7, "kihromah": 6, "grangor": 5, "mah_davikia": 5, "jaccaranda": 5, "erg_eren": 5,
              "strykhaven": 4, "dag_amura": 4, "yttar": 4, "parundia": 4, "usselen": 4, "feodor": 4,
              "virst": 3, "ixara": 3, "wylhien": 3, "throtmanni": 3, "tichih": 3, "rivinia": 3,
              "beata": 2, "lapphalia": 2}
CAPITAL = "elvenhold"
TOWN_LIST = (CAPITAL, *sorted(GOLD_DISCS))

ROUNDS = {"base": 4, "elfengold": 6}
PHASES = {"base": ("deal", "draw_one", "draw_three", "plan", "move", "end"),
          "elfengold": ("draw", "income", "tiles", "auction", "plan", "move", "end")}
FIRST_ROUND_SKIPS = ("draw", "income")    # Elfengold round 1 (FACTS §5.4)
START_GOLD = 12
INCOME = 2
GOLD_CARDS = 7
GOLD_PER_CARD = 3
CARDS_INSTEAD = 2                         # cards drawn instead of the move's gold
WIZARD_OBSTACLE = 1                       # gold per obstacle card replaced by a wizard
WIZARD_CARPET = 3                         # gold for a flying carpet
MIN_BID = 1

#: Elfengold's face-down pool (FACTS §5.3): 48 tiles.
POOL = {"dragon": 4, "magic_cloud": 4, "unicorn": 5, "elfcycle": 8, "troll_wagon": 8, "giant_pig": 9, "gold": 2,
        "double_transport": 2, "exchange": 2, "tree": 2, "sea_monster": 2}
TRANSPORTS = ("giant_pig", "elfcycle", "magic_cloud", "unicorn", "troll_wagon", "dragon")
TERRAINS = ("plains", "woods", "desert", "mountains")
WATERS = ("downstream", "upstream", "lake")

#: Travel cards per road (FACTS §5.1): transport → cards per terrain, None where it cannot go.
COST = {"giant_pig": (1, 1, None, None), "elfcycle": (1, 1, None, 2), "magic_cloud": (2, 2, None, 1),
        "unicorn": (None, 1, 2, 1), "troll_wagon": (1, 2, 2, 2), "dragon": (1, 2, 1, 1)}
RAFTS = {"downstream": 1, "upstream": 2, "lake": 2}
CARAVAN = 3


def road_cost(road: str, transport: str | None, obstacle: bool = False) -> int | None:
    """Travel cards for one road (FACTS §5.1; TV-E1…E4, E6): the transport's cost on that terrain, or
    rafts on water (no counter needed); a caravan (transport None) pays any 3 cards, never on water;
    an obstacle (a tree on land, a sea monster on water) adds one card. None: not possible."""
    if road in WATERS:
        return RAFTS[road] + obstacle
    if transport is None:
        return CARAVAN + obstacle
    cost = COST[transport][TERRAINS.index(road)]
    return None if cost is None else cost + obstacle


def move_gold(visits: Sequence[Mapping]) -> tuple[int, list[tuple[str, int]]]:
    """Gold for a move (FACTS §5.4.6; TV-E8): each town reached pays its disc, each visit again; a road
    with a gold tile doubles the town it leads to; Elvenhold and a flying carpet's town pay nothing."""
    lines = []
    for visit in visits:
        value = 0 if visit.get("carpet") else GOLD_DISCS.get(visit["town"], 0)
        lines.append((visit["town"], value * (2 if visit.get("gold_road") else 1)))
    return sum(v for _, v in lines), lines


def text(key: str) -> Ref:
    return Ref(f"{ID}.{key}")


def _variant(config: Mapping) -> str:
    return config["variant"]


def new_config(raw: Mapping) -> dict:
    """Players clockwise with boot colours, the start player (the oldest), Elfengold or the base game,
    and Elfengold's Elf-wizard variant."""
    players, start = check_seats(raw, COLOURS, 2, 6)
    variant = raw.get("variant", "elfengold")
    if variant not in ROUNDS:
        raise InvalidAction(Msg(N_("Choose Elfengold or the base game.")), field="variant")
    wizards = raw.get("wizards", False)
    if not isinstance(wizards, bool) or (wizards and variant != "elfengold"):
        raise InvalidAction(Msg(N_("The Elf wizards are an Elfengold variant.")), field="wizards")
    return {"game": ID, "variant": variant, "players": players, "start": start, "wizards": wizards}


def setup_items(config: Mapping) -> list[dict]:
    n = len(config["players"])
    start = {"name": config["players"][config["start"]]["name"]}
    items: list[dict[str, Any]]
    if _variant(config) == "base":
        items = [{"id": "board"}, {"id": "base_towns", "params": {"pieces": TOWNS}}, {"id": "base_counters"},
                 {"id": "base_cards"}, {"id": "base_obstacles", "params": {"n": n}}, {"id": "base_rounds"},
                 {"id": "start_player", "params": start}]
    else:
        items = [{"id": "board"}, {"id": "base_towns", "params": {"pieces": TOWNS}}, {"id": "gold_discs"},
                 {"id": "pool", "params": {"n": sum(POOL.values())}}, {"id": "rounds"},
                 {"id": "cards", "params": {"n": n * 5}}]
        if config["wizards"]:
            items.append({"id": "wizards"})
        items += [{"id": "gold", "params": {"gold": START_GOLD}}, {"id": "start_player", "params": start}]
    for item in items:
        item.setdefault("params", {})
    return items


def steps(config: Mapping) -> tuple:
    return tuple(Step(p) for p in PHASES[_variant(config)])


def initial_state(config: Mapping) -> dict:
    gold = START_GOLD if _variant(config) == "elfengold" else 0
    return {"phase": "setup", "round": 1, "start": config["start"], "turn": config["start"],
            "step": _first_phase(config, 1),
            "players": {p["colour"]: {"gold": gold, "towns": [], "at": CAPITAL, "moved": False, "cards": 0}
                        for p in config["players"]},
            "gold_pile": 0, "row": [], "next_tile": 0, "auction": None, "sold": [], "sitting_out": [],
            "last_move": None}


def _first_phase(config: Mapping, round_: int) -> str:
    phases = PHASES[_variant(config)]
    return next(p for p in phases if not (round_ == 1 and p in FIRST_ROUND_SKIPS))


def rounds(config: Mapping) -> int:
    return ROUNDS[_variant(config)]


def colour_at(config: Mapping, seat: int) -> str:
    return config["players"][seat % len(config["players"])]["colour"]



def _player(state: Mapping, value: Any) -> str:
    if value not in state["players"]:
        raise InvalidAction(Msg(N_("Choose a player.")), field="player")
    return value


def _name(config: Mapping, colour: str) -> str:
    return next(p["name"] for p in config["players"] if p["colour"] == colour)


def _begin(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "play"


def _next_phase(state: dict, args: Mapping, config: Mapping) -> None:
    """On to the next phase of the round (when the table allows it: `moves`); income is booked on
    entering it (from round 2)."""
    current = state["step"]
    phases = PHASES[_variant(config)]
    if current == "end":
        _end_round(state, config)
        return
    state["step"] = phases[phases.index(current) + 1]
    if state["step"] == "income":
        for seat in range(len(config["players"])):      # from the start player, while the bank has gold
            _pay(state, colour_at(config, state["start"] + seat), INCOME)
    if state["step"] == "move":
        state["turn"] = state["start"]
        for p in state["players"].values():
            p["moved"] = False


def next_stop(state: Mapping, config: Mapping) -> str:
    """Where the app's "next phase" leads from here: the next phase (income is passed through: it has
    nothing to enter), after the round's end the next round's first phase, or "final"."""
    phases = PHASES[_variant(config)]
    if state["step"] == "end":
        return "final" if _last_round(state, config) else _first_phase(config, state["round"] + 1)
    following = phases[phases.index(state["step"]) + 1]
    return phases[phases.index(following) + 1] if following == "income" else following


def _advance(state: dict, args: Mapping, config: Mapping) -> None:
    """The app's "next phase" (`next_phase` stays for the games logged before it): on to `next_stop`,
    which `to` names as the screen showed it. Income is booked on the way to the tiles phase; entering
    the auction turns up its row (the tiles' kinds change nothing the app books) and opens tile 1."""
    if args.get("to") != next_stop(state, config):
        raise InvalidAction(Msg(N_("That belongs to another phase of the round.")))
    _next_phase(state, args, config)
    if state["phase"] == "play" and state["step"] == "income":
        _next_phase(state, args, config)
    if state["phase"] == "play" and state["step"] == "auction" and not state["row"]:
        _turn_up(state, config, [None] * 2 * len(config["players"]))


def _last_round(state: Mapping, config: Mapping) -> bool:
    """After the last round, or the round in which someone has all 20 town pieces, the game ends."""
    return state["round"] == rounds(config) or any(len(p["towns"]) == TOWNS for p in state["players"].values())


def _end_round(state: dict, config: Mapping) -> None:
    """The start player passes left; after the last round, or when someone has all 20 towns, the
    final scoring follows."""
    if _last_round(state, config):
        state["phase"] = "final"
        return
    state["round"] += 1
    state["start"] = (state["start"] + 1) % len(config["players"])
    state.update(step=_first_phase(config, state["round"]), turn=state["start"], row=[], next_tile=0, sold=[],
                 sitting_out=[], last_move=None)


def _gold_card(state: dict, args: Mapping, config: Mapping) -> None:
    """A gold card revealed (refilling the display, or drawn blind) goes onto the gold pile."""
    state["gold_pile"] += 1


def bank(state: Mapping) -> int:
    """The gold in the bank: the box's 300 less what the players hold (FACTS §5.2). (A game recorded
    before the bank was counted may hold more: then the bank is empty, never below.)"""
    return max(0, GOLD_IN_BOX - sum(p["gold"] for p in state["players"].values()))


def _pay(state: dict, family: str, amount: int) -> int:
    """The bank pays `family` `amount` gold, or what it has left when that is less; the gold paid."""
    paid = min(amount, bank(state))
    state["players"][family]["gold"] += paid
    return paid


def _take_pile(state: dict, args: Mapping, config: Mapping) -> None:
    """Taking the gold pile: 3 gold per gold card in it; the cards go to the discard pile (TV-E7)."""
    family = _player(state, args.get("player"))
    if "cards" in args and args["cards"] != state["gold_pile"]:     # the pile the screen showed (its undo names it)
        raise InvalidAction(Msg(N_("The gold pile has changed: look at the screen again.")))
    _pay(state, family, GOLD_PER_CARD * state["gold_pile"])
    state["gold_pile"] = 0


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


def _no_more_bids(state: dict, args: Mapping, config: Mapping) -> None:
    """Nobody else bids this round, in one entry: every later turn to bid is a pass, so the tile on
    offer goes to its highest bidder (or back to the pool) and every tile after it goes back to the
    pool; the auction phase is then over and route planning begins."""
    _claimed(state, args)
    while state["auction"]:
        _everyone_passes(state, config)
    _next_phase(state, args, config)


def waiting_movers(state: Mapping, config: Mapping) -> list[str]:
    """The players who have not moved this round, in moving order from the one on turn."""
    n = len(config["players"])
    seats = [colour_at(config, state["turn"] + i) for i in range(n)]
    return [c for c in seats if not state["players"][c]["moved"]]


def _nobody_moves(state: dict, args: Mapping, config: Mapping) -> None:
    """Nobody else moves, in one entry: each player who has not moved passes (in Elfengold he draws 2
    cards; a gold card among them goes onto the gold pile with its own tap), and the move phase ends."""
    waiting = waiting_movers(state, config)
    if args.get("players") != waiting:
        raise InvalidAction(Msg(N_("The moves have changed: look at the screen again.")), field="player")
    for family in waiting:
        state["players"][family]["moved"] = True
    _next_phase(state, args, config)


def _check_visits(state: Mapping, config: Mapping, family: str, raw: Any) -> list[dict]:
    if not isinstance(raw, list) or not raw:
        raise InvalidAction(Msg(N_("Tap the towns reached, in order.")), field="visits")
    visits, here = [], state["players"][family]["at"]
    for visit in raw:
        if not isinstance(visit, Mapping) or visit.get("town") not in TOWN_LIST:
            raise InvalidAction(Msg(N_("Tap the towns reached, in order.")), field="visits")
        if visit["town"] == here:
            raise InvalidAction(Msg(N_("A road leads to another town.")), field="visits")
        carpet, gold_road = bool(visit.get("carpet")), bool(visit.get("gold_road"))
        if carpet and not config["wizards"]:
            raise InvalidAction(Msg(N_("The flying carpet is an Elf-wizard card.")), field="visits")
        if carpet and gold_road:
            raise InvalidAction(Msg(N_("A flying carpet uses no road.")), field="visits")
        if gold_road and _variant(config) != "elfengold":
            raise InvalidAction(Msg(N_("That is an Elfengold rule.")), field="visits")
        visits.append({"town": visit["town"], "carpet": carpet, "gold_road": gold_road})
        here = visit["town"]
    return visits


def _move(state: dict, args: Mapping, config: Mapping) -> None:
    """The player on turn moves: the towns reached in order (new town pieces collected), then the
    gold of the move or 2 cards instead (Elfengold), paying any Elf-wizard costs first."""
    family = _player(state, args.get("player"))
    visits = _check_visits(state, config, family, args.get("visits"))
    p = state["players"][family]
    earned, cost = 0, 0
    if _variant(config) == "elfengold":
        take = args.get("take")
        if take not in ("gold", "cards"):
            raise InvalidAction(Msg(N_("Gold or 2 cards?")), field="take")
        obstacles = args.get("wizard_obstacles", 0)
        roads = sum(not v["carpet"] for v in visits)      # a road holds at most one obstacle
        if (isinstance(obstacles, bool) or not isinstance(obstacles, int) or obstacles < 0
                or (obstacles and not config["wizards"]) or obstacles > roads):
            raise InvalidAction(P_("Enter how many obstacles a wizard card paid for: a road holds at most one "
                                   "obstacle, and this move used {n} road.",
                                   "Enter how many obstacles a wizard card paid for: a road holds at most one "
                                   "obstacle, and this move used {n} roads.", roads), field="wizard_obstacles")
        cost = WIZARD_OBSTACLE * obstacles + WIZARD_CARPET * sum(v["carpet"] for v in visits)
        if cost > p["gold"]:
            raise InvalidAction(Msg(N_("The wizard costs {n} gold; this player has {have}."),
                                    {"n": cost, "have": p["gold"]}), field="wizard_obstacles")
        p["gold"] -= cost                                  # to the bank, before the bank pays the move
        earned = _pay(state, family, move_gold(visits)[0]) if take == "gold" else 0
        state["gold_pile"] += _gold_cards_drawn(state, config, args, take == "cards")
    new = [v["town"] for v in visits if v["town"] != CAPITAL and v["town"] not in p["towns"]]
    p["towns"] += list(dict.fromkeys(new))
    p["at"], p["moved"] = visits[-1]["town"], True
    state["last_move"] = {"player": family, "visits": visits, "earned": earned, "cost": cost,
                          "take": args.get("take"), "new": list(dict.fromkeys(new))}
    _next_mover(state, config)


def _pass_move(state: dict, args: Mapping, config: Mapping) -> None:
    """The player on turn does not move (in Elfengold he draws 2 cards)."""
    family = _player(state, args.get("player"))
    state["gold_pile"] += _gold_cards_drawn(state, config, args, _variant(config) == "elfengold")
    state["players"][family]["moved"] = True
    state["last_move"] = {"player": family, "visits": [], "earned": 0, "cost": 0, "take": "cards", "new": []}
    _next_mover(state, config)


def _gold_cards_drawn(state: Mapping, config: Mapping, args: Mapping, drawing: bool) -> int:
    """Gold cards that turned up among the 2 cards drawn instead of the move's gold (or for not moving):
    they go onto the gold pile, as in the drawing phase (FACTS §5.4.1, §5.4.6)."""
    n = args.get("gold_cards", 0)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0 or (n and not drawing):
        raise InvalidAction(Msg(N_("Gold cards go onto the gold pile only when cards are drawn.")), field="gold_cards")
    if state["gold_pile"] + n > GOLD_CARDS:
        raise InvalidAction(Msg(N_("There are only {n} gold cards."), {"n": GOLD_CARDS}), field="gold_cards")
    return n


def _next_mover(state: dict, config: Mapping) -> None:
    for i in range(1, len(config["players"]) + 1):
        seat = (state["turn"] + i) % len(config["players"])
        if not state["players"][colour_at(config, seat)]["moved"]:
            state["turn"] = seat
            return


def _town(state: dict, args: Mapping, config: Mapping) -> None:
    """A correction: a town piece collected or given back."""
    family = _player(state, args.get("player"))
    town, collected = args.get("town"), args.get("collected")
    if town not in GOLD_DISCS or not isinstance(collected, bool):
        raise InvalidAction(Msg(N_("Choose a town.")), field="town")
    towns = state["players"][family]["towns"]
    if collected and town not in towns:
        towns.append(town)
    elif not collected and town in towns:
        towns.remove(town)


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


def _cards(state: dict, args: Mapping, config: Mapping) -> None:
    """The base game's tie-break: travel cards in each hand at the end, at most the 4 a hand keeps at
    the end of a move (FACTS §5.1)."""
    cards = args.get("cards")
    if not isinstance(cards, Mapping) or set(cards) != set(state["players"]):
        raise InvalidAction(Msg(N_("Count every player's travel cards.")), field="cards")
    for family, n in cards.items():
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= HAND_AFTER_MOVE:
            raise InvalidAction(Msg(N_("Enter a whole number from {low} to {high}: a hand keeps at most 4 cards at "
                                       "the end of a move."), {"low": 0, "high": HAND_AFTER_MOVE}),
                                field=f"cards.{family}")
    for family, n in cards.items():
        state["players"][family]["cards"] = n


def _finish(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "over"


#: Where gold cards turn up and the gold pile is taken: when travel cards are drawn, in the draw phase or
#: as 2 cards in the move phase (FACTS §5.4.1, §5.4.6); at the round's end for a card drawn by "nobody
#: else moves" (one entry for every pass, so its gold cards come after it).
DRAWING = ("draw", "move", "end")


def moves(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The table of allowed actions (GameDef.moves): in each phase of the round who acts and what may
    be entered, with the reason for what may not. The reducers check only the numbers an action brings."""
    phase, gold_game = state["phase"], _variant(config) == ELFENGOLD
    over = refused(N_("The game is over."))
    outside = {"setup": refused(N_("Finish the setup first: the rounds have not begun.")),
               "final": refused(N_("The rounds are over: this is the final scoring.")), "over": over}.get(phase)
    table = dict.fromkeys(ROUND_ACTIONS, outside) if outside else _round(state, config)
    if not gold_game:
        table.update(dict.fromkeys(GOLD_ACTIONS, refused(N_("That is an Elfengold rule."))))
    ledger = {"setup": refused(N_("Finish the setup first: the ledgers start with round 1.")), "over": over}
    table["town"] = ledger.get(phase, ALLOWED)
    table["adjust"] = ledger.get(phase, ALLOWED) if gold_game else refused(N_("That is an Elfengold rule."))
    if gold_game:
        table["cards"] = refused(N_("In Elfengold a tie on towns is broken by gold: travel cards are not counted."))
    else:
        table["cards"] = ALLOWED if phase == "final" else over if phase == "over" else refused(
            N_("Travel cards in hand are counted at the final scoring."))
    table["finish"] = ALLOWED if phase == "final" else over if phase == "over" else refused(
        N_("The final scoring comes after the last round."))
    table["begin"] = ALLOWED if phase == "setup" else refused(N_("The game has begun already."))
    table["correct"] = Rule(Msg(N_("Elfenland keeps no score track: correct the town pieces or the gold in the "
                                   "ledgers.")), field="track")
    return table


#: The entries of a round's phases, and those of them that only Elfengold has.
ROUND_ACTIONS = ("next_phase", "advance", "gold_card", "take_pile", "reveal", "bid", "pass_bid", "sit_out",
                 "no_bid", "no_more_bids", "move", "pass_move", "nobody_moves")
GOLD_ACTIONS = ("gold_card", "take_pile", "reveal", "bid", "pass_bid", "sit_out", "no_bid", "no_more_bids")


def _round(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The round's entries while the rounds are played."""
    step, row, offer = state["step"], state["row"], state["auction"]
    if step == "auction" and not row:
        onward = refused(N_("Turn up the tiles for the auction first."))
    elif offer or (step == "auction" and state["next_tile"] < len(row)):
        onward = refused(N_("Auction every tile of the row first."))
    elif step == "move" and waiting_movers(state, config):
        onward = refused(N_("Every player moves or passes first."))
    else:
        onward = ALLOWED
    if step not in DRAWING:
        pile = card = refused(N_("Gold cards turn up only when travel cards are drawn: in the draw phase, or as "
                                 "2 cards in the move phase."))
    else:
        card = refused(N_("There are only {n} gold cards."), n=GOLD_CARDS) if state["gold_pile"] >= GOLD_CARDS \
            else ALLOWED
        pile = ALLOWED if state["gold_pile"] else refused(N_("The gold pile is empty."))
    reveal = (refused(N_("The tiles are turned up in the auction phase.")) if step != "auction" else
              refused(N_("The row is already out.")) if row else ALLOWED)
    if offer:
        bidding, quiet = Rule(by=frozenset({offer["next"]})), ALLOWED
    else:
        bidding = quiet = refused(N_("No tile is up for auction now."))
    waiting = waiting_movers(state, config)
    if step != "move":
        moving = quiet_move = refused(N_("Moves are made in the move phase."))
    elif not waiting:
        moving = quiet_move = refused(N_("Everyone has moved this round."))
    else:
        # "nobody else moves" ends the turns of those still to move: theirs to say, not a phone's whose
        # player has moved already
        moving, quiet_move = Rule(by=frozenset({colour_at(config, state["turn"])})), Rule(by=frozenset(waiting))
    return {"next_phase": onward, "advance": onward, "gold_card": card, "take_pile": pile, "reveal": reveal,
            "bid": bidding, "pass_bid": bidding, "sit_out": bidding, "no_bid": quiet, "no_more_bids": quiet,
            "move": moving, "pass_move": moving, "nobody_moves": quiet_move}


REDUCERS = {"begin": _begin, "next_phase": _next_phase, "advance": _advance, "gold_card": _gold_card,
            "take_pile": _take_pile, "reveal": _reveal, "bid": _bid, "pass_bid": _pass_bid, "sit_out": _sit_out,
            "no_bid": _no_bid,
            "no_more_bids": _no_more_bids, "move": _move, "pass_move": _pass_move, "nobody_moves": _nobody_moves,
            "town": _town, "adjust": _adjust, "cards": _cards, "finish": _finish}


def result(state: Mapping, config: Mapping) -> dict:
    """The final scoring of the session: the same `final_scores` as `companion score`."""
    return final_scores(_variant(config) == "elfengold",
                        [{"id": p["colour"], "name": p["name"], "towns": len(state["players"][p["colour"]]["towns"]),
                          "gold": state["players"][p["colour"]]["gold"],
                          "cards": state["players"][p["colour"]]["cards"]} for p in config["players"]])


def describe(action: Mapping, config: Mapping) -> Msg:
    """What an action did, for the game log and the undo button: who, and the gold or the towns."""
    kind, args = action.get("type"), action.get("args", {})
    names = {p["colour"]: p["name"] for p in config["players"]}
    who = names.get(args.get("player"), "")
    simple = {"begin": N_("Setup finished, round 1 begins"), "next_phase": N_("Next phase"),
              "gold_card": N_("A gold card onto the gold pile"), "reveal": N_("Tiles turned up for the auction"),
              "cards": N_("Travel cards counted"), "finish": N_("Final scoring done"),
              "tick": N_("Setup: ticked an item")}
    if kind == "advance":
        return _describe_advance(args, config)
    if kind == "take_pile":
        if "cards" in args:
            return Msg(N_("{name} takes the gold pile: +{gold} gold"), {"name": who, "gold": GOLD_PER_CARD * args["cards"]})
        return Msg(N_("{name} takes the gold pile"), {"name": who})
    if kind == "bid":
        return Msg(N_("{name} bids {amount}"), {"name": who, "amount": args.get("amount")})
    if kind == "pass_bid":
        return Msg(N_("{name} passes"), {"name": who})
    if kind == "sit_out":
        return Msg(N_("{name} passes and bids on no more tiles this round"), {"name": who})
    if kind in ("no_bid", "no_more_bids"):
        return _describe_quiet_auction(kind, args, config, names)
    if kind == "move":
        return _describe_move(args, config, who)
    if kind == "pass_move":
        return Msg(N_("{name} does not move and draws 2 cards") if _variant(config) == ELFENGOLD else
                   N_("{name} does not move"), {"name": who})
    if kind == "nobody_moves":
        movers = args.get("players", [])
        together = ", ".join(names.get(c, "") for c in movers)
        if _variant(config) == ELFENGOLD:
            return P_("{names} does not move and draws 2 cards", "{names} do not move and draw 2 cards each",
                      len(movers), names=together)
        return P_("{names} does not move", "{names} do not move", len(movers), names=together)
    if kind == "town":
        return Msg(N_("Town piece for {name}: {town} collected") if args.get("collected") else
                   N_("Town piece for {name}: {town} given back"), {"name": who, "town": text(f"town.{args.get('town')}")})
    if kind == "adjust":
        return Msg(N_("Gold correction for {name}: {delta:+d} ({reason})"),
                   {"name": who, "delta": args.get("delta", 0), "reason": args.get("reason", "")})
    if kind == "cards" and isinstance(args.get("cards"), Mapping):
        return Msg(N_("Travel cards in hand: {counts}"), {"counts": ", ".join(
            f"{p['name']} {args['cards'].get(p['colour'], 0)}" for p in config["players"])})
    return Msg(simple.get(str(kind), N_("Unknown action")))


def _describe_advance(args: Mapping, config: Mapping) -> Msg:
    to = args.get("to")
    if to == "final":
        return Msg(N_("End of the last round: final scoring"))
    if to == PHASES[_variant(config)][0]:               # a round begins only after the one before ends
        return Msg(N_("End of the round"))
    if to == "tiles" and _variant(config) == ELFENGOLD:
        return Msg(N_("Income booked: +{gold} gold each"), {"gold": INCOME})
    if to == "auction":
        n = 2 * len(config["players"])
        return P_("Auction: {n} tile turned up", "Auction: {n} tiles turned up", n)
    return Msg(N_("Next phase: {phase}"), {"phase": text(f"step.{_variant(config)}.{to}.title")})


def _describe_quiet_auction(kind: str, args: Mapping, config: Mapping, names: Mapping) -> Msg:
    tile, winner, price = args.get("tile", 0) + 1, args.get("winner"), args.get("price")
    after = 2 * len(config["players"]) - tile          # tiles of the row after this one
    if kind == "no_bid":
        if winner is None:
            return Msg(N_("Nobody bids on tile {tile}: back to the pool"), {"tile": tile})
        return Msg(N_("Nobody else bids: {name} wins tile {tile} at {price} gold"),
                   {"name": names.get(winner, ""), "tile": tile, "price": price})
    if winner is None:
        return P_("No more bids: the last tile back to the pool", "No more bids: {n} tiles back to the pool", after + 1)
    if not after:
        return Msg(N_("No more bids: {name} wins tile {tile} at {price} gold"),
                   {"name": names.get(winner, ""), "tile": tile, "price": price})
    return P_("No more bids: {name} wins tile {tile} at {price} gold, the last one back to the pool",
              "No more bids: {name} wins tile {tile} at {price} gold, {n} back to the pool", after,
              name=names.get(winner, ""), tile=tile, price=price)


def _describe_move(args: Mapping, config: Mapping, who: str) -> Msg:
    visits = args.get("visits") or [{}]
    town = text(f"town.{visits[-1].get('town')}")
    if _variant(config) != ELFENGOLD:
        return Msg(N_("{name} moves to {town}"), {"name": who, "town": town})
    cost = WIZARD_OBSTACLE * args.get("wizard_obstacles", 0) + WIZARD_CARPET * sum(bool(v.get("carpet")) for v in visits)
    if args.get("take") == "gold":
        return Msg(N_("{name} moves to {town}: {gold:+d} gold"),
                   {"name": who, "town": town, "gold": move_gold(visits)[0] - cost})
    if cost:
        return Msg(N_("{name} moves to {town} and draws 2 cards: {gold:+d} gold"),
                   {"name": who, "town": town, "gold": -cost})
    return Msg(N_("{name} moves to {town} and draws 2 cards"), {"name": who, "town": town})


def guide(state: Mapping, config: Mapping) -> Guide:
    """The pinned header: round and phase, who acts (the bidder in an auction, the player moving,
    else the start player, who opens the phase: `FIRST`) and every player's town pieces (and gold in
    Elfengold). It agrees with the table (`moves`): the bidder and the mover are the `by` of their entries."""
    gold = _variant(config) == ELFENGOLD
    figures = {}
    for p in config["players"]:
        book = state["players"][p["colour"]]
        # the town pieces are the score: a bare number, as every game's strip shows its score
        figures[p["colour"]] = (Msg(N_("{towns} · {gold} gold"), {"towns": len(book["towns"]), "gold": book["gold"]})
                                if gold else Msg("{towns}", {"towns": len(book["towns"])}))
    if state["phase"] in ("final", "over"):
        return Guide(Msg(N_("Final scoring")), figures=figures, screen=state["phase"])
    phases = PHASES[_variant(config)]
    where = Msg(N_("Round {round} of {rounds} · phase {n} of {all}: {phase}"), {
        "round": state["round"], "rounds": rounds(config), "n": phases.index(state["step"]) + 1, "all": len(phases),
        "phase": text(f"step.{_variant(config)}.{state['step']}.title")})
    # each tile on offer and each player's move is a screen of its own: it opens at its top
    if state["auction"] and not auction.finished(state["auction"]):
        return Guide(where, state["auction"]["next"], Msg(N_("Bids:")), figures,
                     f"auction:{state['round']}:{state['auction']['lot']['index']}")
    if state["step"] == "move" and not all(p["moved"] for p in state["players"].values()):
        return Guide(where, colour_at(config, state["turn"]), Msg(N_("Moves:")), figures,
                     f"move:{state['round']}:{state['turn']}")
    role = N_("Turns up the tiles:") if state["step"] == "auction" and not state["row"] else \
        FIRST.get(state["step"], N_("Start player:"))
    return Guide(where, colour_at(config, state["start"]), Msg(role), figures, f"{state['step']}:{state['round']}")


#: What the start player does first in a phase that goes round the table from him: the header's role.
FIRST = {"draw_three": N_("Draws first:"), "draw": N_("Draws first:"), "tiles": N_("Draws first:"),
         "plan": N_("Plans first:")}


GAME = GameDef(
    id=ID, cli_name="elfenland", min_players=2, max_players=6,
    new_config=new_config, setup_items=setup_items, initial_state=initial_state,
    reducers=REDUCERS, describe=describe, score_cli=score_cli, steps=steps, result=result,
    independent=frozenset({"adjust"}), progress=lambda state, config: {
        p["colour"]: len(state["players"][p["colour"]]["towns"]) for p in config["players"]}, guide=guide,
    personal=frozenset({"bid", "pass_bid", "sit_out", "take_pile", "move", "pass_move"}), moves=moves,
    order=50
)
