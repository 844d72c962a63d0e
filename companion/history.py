"""Finished games looked back on: the summary archived when a game ends, statistics over all of
them, and a game's score progression. Pure functions (no Flet, no TinyDB).

The summary is written once, into the catalogue entry, when a game finishes: the history list and
the statistics read the catalogue only, and never replay thousands of logs. A tap in a game in
progress writes only that game's own file, as before.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Iterable, Mapping

from .engine import flow
from .engine.model import GameDef, InvalidAction


def summary(game: GameDef, config: Mapping, state: Mapping) -> dict:
    """What the history keeps of a finished game: each player's total, place and breakdown."""
    result = game.result(state, config)
    names = {p["colour"]: p["name"] for p in config["players"]}
    return {"winners": list(result["winners"]),
            "players": [{"colour": row["id"], "name": names.get(row["id"], row["id"]), "total": row["total"],
                         "place": row["place"], "breakdown": dict(row["breakdown"])} for row in result["players"]]}


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _figures(scores: list[int]) -> dict:
    return {"average": round(sum(scores) / len(scores), 1) if scores else None,
            "best": max(scores) if scores else None}


def statistics(entries: Iterable[Mapping]) -> dict:
    """Plays, wins, average and best score, per game, per player count and per player.

    `entries` are catalogue entries; those without a summary (not finished) are left out. Players
    are matched by name (case and spacing ignored); a player's colour is the one he plays most."""
    games: dict[str, dict] = {}
    players: dict[str, dict] = {}
    for entry in entries:
        result = entry.get("result")
        if not result:
            continue
        rows, count = result["players"], len(result["players"])
        game = games.setdefault(entry["game"], {"game": entry["game"], "plays": 0, "scores": [],
                                                "counts": defaultdict(list)})
        game["plays"] += 1
        for row in rows:
            game["scores"].append(row["total"])
            game["counts"][count].append(row["total"])
            person = players.setdefault(_key(row["name"]), {
                "name": " ".join(row["name"].split()), "colours": Counter(), "scores": [], "wins": 0,
                "games": defaultdict(lambda: {"scores": [], "wins": 0})})
            won = row["colour"] in result["winners"]
            person["colours"][row["colour"]] += 1
            person["scores"].append(row["total"])
            person["wins"] += won
            person["games"][entry["game"]]["scores"].append(row["total"])
            person["games"][entry["game"]]["wins"] += won
    return {
        "games": [{"game": g["game"], "plays": g["plays"], **_figures(g["scores"]),
                   "counts": [{"players": n, "plays": len(s) // n, **_figures(s)} for n, s in sorted(g["counts"].items())]}
                  for g in sorted(games.values(), key=lambda g: -g["plays"])],
        "players": [{"name": p["name"], "colour": p["colours"].most_common(1)[0][0], "plays": len(p["scores"]),
                     "wins": p["wins"], **_figures(p["scores"]),
                     "games": {g: {"plays": len(v["scores"]), "wins": v["wins"], **_figures(v["scores"])}
                               for g, v in sorted(p["games"].items())}}
                    for p in sorted(players.values(), key=lambda p: (-p["wins"], -len(p["scores"]), p["name"]))],
    }


def progression(game: GameDef, config: Mapping, log: list) -> dict[str, list[int]] | None:
    """Each player's running score after every action that changed one (the first point is the
    start, the last the final total once the game is over); None for a game without a running score
    (Princes of the Renaissance scores only at the end)."""
    if game.progress is None:
        return None
    state = flow.initial(game, config)
    points = [game.progress(state, config)]
    for action in log:
        try:
            state = flow.apply(game, config, state, action)
        except InvalidAction:
            return None
        now = game.progress(state, config)
        if now != points[-1]:
            points.append(now)
    if state.get("phase") == "over":
        final = {row["id"]: row["total"] for row in game.result(state, config)["players"]}
        if final != points[-1]:
            points.append(final)
    return {p["colour"]: [point[p["colour"]] for point in points] for p in config["players"]}

