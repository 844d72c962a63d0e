"""Elfenland teaching (companion/teach.py finds it here): the Elfengold variant's own step texts, and on
the spot the first move (the town pieces, the gold) and the first auction, with this table's names and
numbers. Pure: no Flet, no TinyDB."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import Msg, N_, P_
from . import rules


def step(config: Mapping, state: Mapping) -> str | None:
    """The step whose "how" and "why" are shown (Elfengold's steps have their own texts)."""
    return f"{config['variant']}_{state['step']}" if config.get("variant") == "elfengold" else state["step"]


def explain(config: Mapping, state: Mapping, names: Mapping[str, str]) -> list[Msg]:
    """The last move, else the first auction won (empty before either)."""
    move = state.get("last_move")
    if move and move["visits"]:
        return _move(state, move, names)
    sold = [s for s in state.get("sold", []) if s.get("winner")]
    if sold:
        return _auction(state, sold[0], names)
    return []


def _move(state: Mapping, move: Mapping, names: Mapping[str, str]) -> list[Msg]:
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


def _auction(state: Mapping, sale: Mapping, names: Mapping[str, str]) -> list[Msg]:
    tile = rules.text(f"tile.{sale['tile']}") if sale.get("tile") else Msg(N_("a tile"))
    if sale.get("broke"):
        return [Msg(N_("First auction: {name} bid {price} gold for {tile} but had only {lost}: all of it goes "
                       "to the bank and the tile is auctioned again."),
                     {"name": names[sale["winner"]], "price": sale["price"], "tile": tile, "lost": sale["lost"]})]
    return [Msg(N_("First auction: {tile} goes to {name} for {price} gold, the last bid standing after the "
                   "others passed; {name} has {gold} gold left."),
                 {"tile": tile, "name": names[sale["winner"]], "price": sale["price"],
                  "gold": state["players"][sale["winner"]]["gold"]})]
