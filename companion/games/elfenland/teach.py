"""Elfenland teaching (companion/teach.py finds it here): Elfengold's own cards and step texts, and on
the spot each move (the town pieces, the gold, the Elf wizard's costs) and each auction (also one whose
winner could not pay, and one nobody bid in), with this table's names and numbers. Pure: no Flet, no
TinyDB."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import Msg, N_, P_
from . import rules
from .elfengold import WIZARD_CARPET, WIZARD_OBSTACLE


def _gold(config: Mapping) -> bool:
    return config.get("variant") == "elfengold"


def variant(config: Mapping) -> str | None:
    """Elfengold has its own cards (`teach.elfengold.*`)."""
    return "elfengold" if _gold(config) else None


def step(config: Mapping, state: Mapping) -> str | None:
    """The step whose "how" and "why" are shown (Elfengold's steps have their own texts)."""
    return f"{config['variant']}_{state['step']}" if _gold(config) else state["step"]


def explain(config: Mapping, state: Mapping, names: Mapping[str, str], log: list) -> list[Msg]:
    """The last move, else the last tile auctioned (empty before either)."""
    move = state.get("last_move")
    if move and move["visits"]:
        return _move(state, move, names)
    if state.get("sold"):
        return _auction(state, state["sold"], names)
    return []


def _move(state: Mapping, move: Mapping, names: Mapping[str, str]) -> list[Msg]:
    player, name = state["players"][move["player"]], names[move["player"]]
    towns = Msg(", ".join(f"{{t{i}}}" for i in range(len(move["new"]))),
                {f"t{i}": rules.text(f"town.{t}") for i, t in enumerate(move["new"])}) if move["new"] else None
    lines = [P_("{name} collects {n} new town piece on this move, {total} in all: the town pieces are what "
                "wins the game.",
                "{name} collects {n} new town pieces on this move, {total} in all: the town pieces are what "
                "wins the game.", len(move["new"]), name=name, total=len(player["towns"]))]
    if towns:
        lines.append(Msg(N_("New towns: {towns}."), {"towns": towns}))
    if move.get("cost"):
        carpets = sum(1 for v in move["visits"] if v.get("carpet"))
        lines.append(P_("Elf wizard: {obstacles} × 1 for obstacle cards it replaced + {carpets} × 3 for flying "
                        "carpets = {n} gold, paid to the bank first.",
                        "Elf wizard: {obstacles} × 1 for obstacle cards it replaced + {carpets} × 3 for flying "
                        "carpets = {n} gold, paid to the bank first.", move["cost"],
                        obstacles=(move["cost"] - WIZARD_CARPET * carpets) // WIZARD_OBSTACLE, carpets=carpets))
    if move.get("take") == "gold":
        if any(v.get("carpet") for v in move["visits"]):
            lines.append(Msg(N_("A town reached on a flying carpet pays no gold.")))
        if any(v.get("gold_road") for v in move["visits"]):
            lines.append(Msg(N_("A road with a gold tile doubles the gold of the town it leads to.")))
        lines.append(P_("Gold for the towns reached: {earned}; {name} has {n} gold now.",
                        "Gold for the towns reached: {earned}; {name} has {n} gold now.", player["gold"],
                        earned=move["earned"], name=name))
    elif move.get("take") == "cards":
        lines.append(P_("{name} took 2 cards instead of the towns' gold and has {n} gold now.",
                        "{name} took 2 cards instead of the towns' gold and has {n} gold now.", player["gold"],
                        name=name))
    return lines


def _auction(state: Mapping, sold: list, names: Mapping[str, str]) -> list[Msg]:
    """The last tile auctioned, with the winners before it who could not pay for that same tile."""
    sale = sold[-1]
    tile = rules.text(f"tile.{sale['tile']}") if sale.get("tile") else Msg(N_("a tile"))
    lines = [P_("Auction: {name} bid {n} gold for {tile} but could pay only {lost}: all of it goes to the bank and "
                "the tile is auctioned again.",
                "Auction: {name} bid {n} gold for {tile} but could pay only {lost}: all of it goes to the bank and "
                "the tile is auctioned again.", s["price"], name=names[s["winner"]], tile=tile, lost=s["lost"])
             for s in sold if s["index"] == sale["index"] and s.get("broke")]
    if sale.get("broke"):
        return lines
    if not sale["winner"]:
        return [*lines, Msg(N_("Auction: nobody bid for {tile}, so it goes back face down into the pool."),
                            {"tile": tile})]
    winner = sale["winner"]
    return [*lines,
            P_("Auction: {tile} goes to {name} for {n} gold, the last bid standing after the others passed.",
               "Auction: {tile} goes to {name} for {n} gold, the last bid standing after the others passed.",
               sale["price"], tile=tile, name=names[winner]),
            P_("{name} has {n} gold left.", "{name} has {n} gold left.", state["players"][winner]["gold"],
               name=names[winner])]
