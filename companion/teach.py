"""Teach mode ("Teach us" / "Naučte nás hrát"): what the app says to a group that has never played.

Pure Python (no Flet, no TinyDB). The fixed prose (the three cards before setup, a line per setup
item, "how to do it" and "why it matters" per step, the recap after round 1) lives in
`data/<game>.toml` under `teach.*` keys in Czech and English. The explanations on the spot are built
here from the game's own state and its rules' own results (the city scoring of Flanders 1302, the
feature scoring of Carcassonne, the auctions and wars of Princes, Village's market day, Elfenland's
moves and auctions), so they carry this table's names and numbers; each is shown the first time the
event happens in round 1.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from .engine.model import Msg, N_, P_, Ref

#: The games that teach (the score sheet is the players' own game).
GAMES = ("flanders_1302", "village", "princes_of_the_renaissance", "carcassonne", "elfenland")

#: The three cards before setup, in order: how you win, what a round looks like, what scores.
CARDS = ("win", "round", "score")

#: Settings key of the groups that have been taught a game (`group`): a later game of the same group
#: starts with teaching folded away.
TAUGHT = "teach.taught"


def teaches(game_id: str) -> bool:
    return game_id in GAMES


def group(game_id: str, config: Mapping) -> str:
    """The group at the table for a game: the game and the players' names (any order, any case)."""
    names = sorted(" ".join(p["name"].split()).casefold() for p in config["players"])
    return "|".join([game_id, *names])


def card(game_id: str, which: str) -> tuple[Ref, Ref]:
    """A card's title and body."""
    return Ref(f"{game_id}.teach.card.{which}.title"), Ref(f"{game_id}.teach.card.{which}.body")


def setup_why(game_id: str, item_id: str) -> Ref:
    """"What is this for" of a setup item (items that differ only by player count share one line)."""
    family = re.sub(r"_\d+$", "", item_id)
    return Ref(f"{game_id}.teach.setup.{family}")


def recap(game_id: str) -> list[Ref]:
    """The three lines after round 1."""
    return [Ref(f"{game_id}.teach.recap.{i}") for i in (1, 2, 3)]


def round_of(game_id: str, state: Mapping, log: list) -> int:
    """The round the game is in (Princes: the decade; Carcassonne: the lap of turns, 1 until every
    player has had one turn)."""
    if game_id == "princes_of_the_renaissance":
        return state["decade"]
    if game_id == "carcassonne":
        laps = sum(1 for a in log if a.get("type") == "next_turn")
        return 1 + laps // len(state["scores"])
    return state["round"]


def first_round(game_id: str, state: Mapping, log: list) -> bool:
    """Setup or round 1: the time teaching is open."""
    return state.get("phase") == "setup" or (state.get("phase") not in ("over", "final", "scoring", "tally")
                                             and round_of(game_id, state, log) == 1)


def step(game_id: str, config: Mapping, state: Mapping) -> str | None:
    """The step whose "how to do it" and "why it matters" are shown (None: none)."""
    if state.get("phase") == "setup":
        return None
    if game_id == "princes_of_the_renaissance":
        if state.get("war"):
            return "war"
        return "auction" if state.get("auction") else "turn"
    if game_id == "village" and state.get("phase") == "mass":
        return "mass"
    if game_id == "flanders_1302" and config.get("variant") == "two-player":
        return f"two_{state['step']}"
    if game_id == "elfenland":
        return f"{config['variant']}_{state['step']}" if config.get("variant") == "elfengold" else state["step"]
    return state.get("step")


def how(game_id: str, step_id: str) -> tuple[Ref, Ref]:
    """A step's "how to do it" and "why it matters"."""
    return Ref(f"{game_id}.teach.step.{step_id}.how"), Ref(f"{game_id}.teach.step.{step_id}.why")


def _names(config: Mapping) -> dict[str, str]:
    return {p["colour"]: p["name"] for p in config["players"]}


# ----------------------------------------------------------------------------------------------
# On the spot: the first time an event happens, with this table's names and numbers


def explain(game_id: str, config: Mapping, state: Mapping) -> list[Msg]:
    """The explanation of the event the state shows (empty when there is none to explain)."""
    return {"flanders_1302": _flanders, "village": _village, "princes_of_the_renaissance": _princes,
            "carcassonne": _carcassonne, "elfenland": _elfenland}[game_id](config, state)


def _flanders(config: Mapping, state: Mapping) -> list[Msg]:
    from .games.flanders_1302 import rules as rules
    names = _names(config)
    if state["cities"]:
        name, city = next(iter(state["cities"].items()))
        result = rules.score_city(city, names)
        value = result["value"]
        lead = P_("First city scoring: {city} is worth {n} point to the guild in first place and {second} to the "
                  "second; the third takes 4, the fourth 2.",
                  "First city scoring: {city} is worth {n} points to the guild in first place and {second} to the "
                  "second; the third takes 4, the fourth 2.", value, city=rules.city_name(name),
                  second=rules.rank_table(value)[1])
        return [lead, *result["explain"]]
    if state.get("order"):
        cards = state["order"]["cards"]
        lead = Msg(N_("Turn order: whoever played more cards acts earlier; the influence cards played are now "
                      "out of the game."))
        return [lead, *rules.explain_order(config, state["start"], cards)]
    return []


def _village(config: Mapping, state: Mapping) -> list[Msg]:
    from .games.village import rules as rules
    market = state.get("market")
    if not market:
        return []
    names = _names(config)
    trigger = names[market["trigger"]]
    lines = [Msg(N_("Market day: {name} took the market cube, so {name} serves a customer first and pays no time "
                    "for that first customer; every other customer served costs {n} time."),
                 {"name": trigger, "n": rules.MARKET_TIME})]
    for sale in market["sales"]:
        paid = rules.payment(sale["grain"], sale["goods"]) or Msg(N_("nothing"))
        params = {"name": names[sale["player"]], "paid": paid, "time": state["players"][sale["player"]]["time"]}
        lines.append(P_("{name}: a customer worth {n} prestige point at the end of the game, paid with {paid}; "
                        "free of time (the first customer of the market day).",
                        "{name}: a customer worth {n} prestige points at the end of the game, paid with {paid}; "
                        "free of time (the first customer of the market day).", sale["prestige"], **params)
                     if sale["free"] else
                     P_("{name}: a customer worth {n} prestige point at the end of the game, paid with {paid}; "
                        "1 time, the life marker now stands on {time}.",
                        "{name}: a customer worth {n} prestige points at the end of the game, paid with {paid}; "
                        "1 time, the life marker now stands on {time}.", sale["prestige"], **params))
    return lines


def _princes(config: Mapping, state: Mapping) -> list[Msg]:
    from .games.princes_of_the_renaissance import rules as rules
    names = _names(config)
    war = state.get("last_war")
    if war and war.get("rounds"):
        last = war["rounds"][-1]["sides"]
        lines = [Msg(N_("War: {attacker} attacked {defender}. Each side adds its troops to its die: "
                        "{attacker} {a}, {defender} {d}."),
                     {"attacker": rules.city_name(war["attacker"]), "defender": rules.city_name(war["defender"]),
                      "a": last["attacker"]["total"], "d": last["defender"]["total"]})]
        if war["winner"]:
            winner = war["winner"]
            lines.append(P_("{city} wins and its status rises by {n}, the loser's falls by {n} (twice the loser's "
                            "total or more: 2, else 1).",
                            "{city} wins and its status rises by {n}, the loser's falls by {n} (twice the loser's "
                            "total or more: 2, else 1).", war["change"], city=rules.city_name(war[winner])))
            hired = war["condottieri"][winner]
            if hired:
                lines.append(Msg(N_("{name} led the winning side and takes a VP counter: {n} now."),
                                 {"name": names[hired], "n": state["players"][hired]["vp"]}))
        else:
            lines.append(Msg(N_("Nobody wins this war: the statuses stay.")))
        return lines
    done = state.get("last_auction")
    if done:
        lot = done["lot"]
        what = {"city": rules.city_name(lot.get("city", "")), "pope": rules.text("pope"),
                "event": rules.text(f"event.{lot.get('event')}")}.get(lot["kind"])
        if what is None:  # a condottiere: the city of its side in the war under way
            war_now = state.get("war") or {}
            side = war_now.get(lot.get("side"))
            what = Msg(N_("the condottiere of {city}"), {"city": rules.city_name(side)}) if side \
                else Msg(N_("a condottiere"))
        currency = rules.text(f"currency.{done['currency']}")
        if not done["winner"]:
            return [Msg(N_("Auction: {lot}. Everyone passed: nobody takes it."), {"lot": what})]
        winner = done["winner"]
        lines = [Msg(N_("Auction: {lot}. Each player in turn raised or passed, and a pass is final; "
                        "{name} bid {bid} last and takes it."), {"lot": what, "name": names[winner], "bid": done["bid"]}),
                 Msg(N_("{name} pays {paid} ({currency}) and has {left} left."),
                     {"name": names[winner], "paid": done["paid"], "currency": currency,
                      "left": state["players"][winner][done["currency"]]})]
        if done["paid"] < done["bid"]:
            lines.append(Msg(N_("The price is {paid}, not {bid}: {name}'s tiles give a discount."),
                             {"name": names[winner], "paid": done["paid"], "bid": done["bid"]}))
        return lines
    return []


def _carcassonne(config: Mapping, state: Mapping) -> list[Msg]:
    from .games.carcassonne import rules as rules
    if not state["scored"]:
        return []
    feature = state["scored"][0]
    names = _names(config)
    lines = [Msg(N_("A completed feature scores at once, and its meeples go back to their owners:")),
             rules.explain_feature(feature, names)]
    totals = ", ".join(f"{names[c]} {state['scores'][c]}" for c in names)
    lines.append(Msg(N_("Scores now: {totals}."), {"totals": totals}))
    return lines


def _elfenland(config: Mapping, state: Mapping) -> list[Msg]:
    from .games.elfenland import rules as rules
    names = _names(config)
    move = state.get("last_move")
    if move and move["visits"]:
        player = state["players"][move["player"]]
        towns = Msg(", ".join(f"{{t{i}}}" for i in range(len(move["new"]))),
                    {f"t{i}": rules.text(f"town.{t}") for i, t in enumerate(move["new"])}) if move["new"] else None
        lines = [P_("{name} collects {n} new town piece on this move, {total} in all: the town pieces are what "
                    "wins the game.",
                    "{name} collects {n} new town pieces on this move, {total} in all: the town pieces are what "
                    "wins the game.", len(move["new"]), name=names[move["player"]], total=len(player["towns"]))]
        if towns:
            lines.append(Msg(N_("New towns: {towns}."), {"towns": towns}))
        if move.get("take") == "gold":
            lines.append(Msg(N_("Gold for the towns reached: {earned}; {name} has {gold} gold now."),
                             {"earned": move["earned"], "name": names[move["player"]], "gold": player["gold"]}))
        return lines
    sold = [s for s in state.get("sold", []) if s.get("winner")]
    if sold:
        sale = sold[0]
        tile = rules.text(f"tile.{sale['tile']}") if sale.get("tile") else Msg(N_("a tile"))
        if sale.get("broke"):
            return [Msg(N_("First auction: {name} bid {price} gold for {tile} but had only {lost}: all of it goes "
                           "to the bank and the tile is auctioned again."),
                         {"name": names[sale["winner"]], "price": sale["price"], "tile": tile, "lost": sale["lost"]})]
        return [Msg(N_("First auction: {tile} goes to {name} for {price} gold, the last bid standing after the "
                       "others passed; {name} has {gold} gold left."),
                     {"tile": tile, "name": names[sale["winner"]], "price": sale["price"],
                      "gold": state["players"][sale["winner"]]["gold"]})]
    return []
