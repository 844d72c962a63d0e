"""What Elfenland's screens say about the session: the game log's line for each action (`describe`)
and the pinned header (`guide`)."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine import auction
from ...engine.model import Guide, Msg, N_, P_, listed
from .elfengold import GOLD_PER_CARD, INCOME, WIZARD_CARPET, WIZARD_OBSTACLE, coins, move_gold
from .preparation import ELFENGOLD, PHASES, _variant, colour_at, rounds, text


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
    if kind == "bid_again":
        return Msg(N_("{name} bids again from the next tile"), {"name": who})
    if kind in ("no_bid", "no_more_bids"):
        return _describe_quiet_auction(kind, args, config, names)
    if kind == "move":
        return _describe_move(args, config, who)
    if kind == "pass_move":
        return Msg(N_("{name} does not move and draws 2 cards") if _variant(config) == ELFENGOLD else
                   N_("{name} does not move"), {"name": who})
    if kind == "nobody_moves":
        movers = args.get("players", [])
        together = listed([names.get(c, "") for c in movers])
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
    tile, winner, price = args.get("tile", 0) + 1, args.get("winner"), args.get("price") or 0
    after = 2 * len(config["players"]) - tile          # tiles of the row after this one
    if kind == "no_bid":
        if winner is None:
            return Msg(N_("Nobody bids on tile {tile}: back to the pool"), {"tile": tile})
        return Msg(N_("Nobody else bids: {name} wins tile {tile} at {price}"),
                   {"name": names.get(winner, ""), "tile": tile, "price": coins(price)})
    if winner is None:
        return P_("No more bids: the last tile back to the pool", "No more bids: {n} tiles back to the pool", after + 1)
    if not after:
        return Msg(N_("No more bids: {name} wins tile {tile} at {price}"),
                   {"name": names.get(winner, ""), "tile": tile, "price": coins(price)})
    return P_("No more bids: {name} wins tile {tile} at {price}, the last one back to the pool",
              "No more bids: {name} wins tile {tile} at {price}, {n} back to the pool", after,
              name=names.get(winner, ""), tile=tile, price=coins(price))


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
