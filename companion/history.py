"""Finished games looked back on: the summary archived when a game ends, statistics over all of
them, and a game's score progression. Pure functions (no Flet, no TinyDB).

The summary is written once, into the catalogue entry, when a game finishes: the history list and
the statistics read the catalogue only, and never replay thousands of logs. A tap in a game in
progress writes only that game's own file, as before.

A game whose configuration is a game of its own (a score sheet: `GameDef.kind`) is counted under
its own key and name (`kind` and `title` in its summary), so each sheet has its own statistics.
"""
from __future__ import annotations

import heapq
import time
from collections import Counter, defaultdict
from itertools import combinations
from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from .engine import flow
from .engine.model import GameDef, InvalidAction

#: The periods the statistics can be filtered by.
PERIODS = ("month", "year", "all")
#: High scores listed per game.
TOP = 10


def play_minutes(log: Sequence[Mapping[str, Any]], ended: float | None = None) -> int | None:
    """Minutes from the first action to the last (or to `ended`), as far as the log has its times."""
    times: list[float] = [a["at"] for a in log
                          if isinstance(a.get("at"), (int, float)) and not isinstance(a.get("at"), bool)]
    if not times:
        return None
    end = ended if ended is not None else times[-1]
    return max(0, round((end - times[0]) / 60))


def summary(game: GameDef, config: Mapping[str, Any], state: Mapping[str, Any], log: Sequence[Mapping[str, Any]] = (),
            ended: float | None = None) -> dict[str, Any]:
    """What the history keeps of a finished game: each player's total, place and breakdown; the play
    time (first to last action, in minutes) where the log has the times; a sheet's own key and name;
    and whether the lowest total won."""
    result = game.result(state, config)
    names = {p["colour"]: p["name"] for p in config["players"]}
    out: dict[str, Any] = {"winners": list(result["winners"]),
           "players": [{"colour": row["id"], "name": names.get(row["id"], row["id"]), "total": row["total"],
                        "place": row["place"], "breakdown": dict(row["breakdown"])} for row in result["players"]]}
    if game.kind is not None:
        out["kind"], out["title"] = game.kind(config)
    if result.get("lowest"):
        out["lowest"] = True
    minutes = play_minutes(log, ended)
    if minutes is not None:
        out["minutes"] = minutes
    return out


def kind(entry: Mapping[str, Any]) -> str:
    """The key the statistics count a finished game under: its sheet's, or its game's."""
    key: str = entry["result"].get("kind") or entry["game"]
    return key


def minutes(entry: Mapping[str, Any]) -> int | None:
    """A finished game's play time: as the players corrected it, else first to last action."""
    details = entry.get("details") or {}
    corrected: int | None = details.get("minutes")
    if corrected is not None:
        return corrected
    measured: int | None = entry["result"].get("minutes")
    return measured


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _figures(scores: list[int], lowest: bool = False) -> dict[str, Any]:
    return {"average": round(sum(scores) / len(scores), 1) if scores else None,
            "best": (min(scores) if lowest else max(scores)) if scores else None}


def in_period(created: float, period: str, now: float) -> bool:
    """Whether a game started at `created` falls in this month or this year (local time) of `now`."""
    if period == "all":
        return True
    then, today = time.localtime(created), time.localtime(now)
    return then.tm_year == today.tm_year and (period == "year" or then.tm_mon == today.tm_mon)


def chosen(entries: Iterable[Mapping[str, Any]], period: str = "all", game: str | None = None,
           now: float | None = None) -> list[Mapping[str, Any]]:
    """The finished games of the period (this `month`, this `year`, `all`) and of one game (its key,
    see `kind`; None: every game)."""
    now = time.time() if now is None else now
    return [e for e in entries if e.get("result") and (game is None or kind(e) == game)
            and in_period(e["created"], period, now)]


def kinds(entries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every game the finished games were of (`key`, `game` id, a sheet's `title`), most played first."""
    seen: dict[str, dict[str, Any]] = {}
    for entry in entries:
        if entry.get("result"):
            key = kind(entry)
            found = seen.setdefault(key, {"key": key, "game": entry["game"], "title": entry["result"].get("title"),
                                          "plays": 0})
            found["plays"] += 1
    return sorted(seen.values(), key=lambda k: (-k["plays"], k["key"]))


def statistics(entries: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Per game (each sheet its own): plays, average and best score, the top 10 scores with player and
    date, the average winning score and play time, and the same per player count. Per player: games,
    wins, win rate, when last played, and per game its plays, wins, average and best score; an
    average and best over all his games only when they are all of one game (None otherwise: points
    and Elfenland's town counts are never averaged together). Head to head: for every two
    players who met, how often each finished ahead of the other.

    `entries` are catalogue entries; those without a summary (not finished) are left out. Players
    are matched by name (case and spacing ignored); a player's colour is the one he plays most. Where
    the lowest total wins, the best score is the lowest and the top 10 the lowest ten."""
    games: dict[str, dict[str, Any]] = {}
    players: dict[str, dict[str, Any]] = {}
    versus: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for entry in entries:
        if entry.get("result"):
            _count_play(entry, games, players, versus)
    lowest_of = {key: g["lowest"] for key, g in games.items()}
    return {
        "games": [_game_figures(g) for g in sorted(games.values(), key=lambda g: (-g["plays"], g["game"]))],
        "players": [_player_figures(p, lowest_of)
                    for p in sorted(players.values(), key=lambda p: (-p["wins"], -len(p["scores"]), p["name"]))],
        "versus": [{"a": players[a]["name"], "b": players[b]["name"], "games": n, "a_ahead": x, "b_ahead": y,
                    "ties": z}
                   for (a, b), (n, x, y, z) in sorted(versus.items(), key=lambda item: (-item[1][0], item[0]))],
    }


def _count_play(entry: Mapping[str, Any], games: dict[str, dict[str, Any]], players: dict[str, dict[str, Any]],
                versus: dict[tuple[str, str], list[int]]) -> None:
    """One finished game counted into the statistics' tallies (per game, per player, head to head)."""
    result = entry["result"]
    rows, count, key = result["players"], len(result["players"]), kind(entry)
    game = games.get(key)
    if game is None:
        game = games[key] = {"game": key, "id": entry["game"], "title": result.get("title"),
                             "lowest": bool(result.get("lowest")), "plays": 0, "scores": [], "rows": [],
                             "winning": [], "minutes": [], "counts": defaultdict(list)}
    game["plays"] += 1
    winners = set(result["winners"])
    won = [row["total"] for row in rows if row["colour"] in winners]
    if won:
        game["winning"].append(won[0])
    played = minutes(entry)
    if played is not None:
        game["minutes"].append(played)
    people = []
    for row in rows:
        game["scores"].append(row["total"])
        game["rows"].append((row["total"], entry["created"], row["name"], row["colour"]))
        game["counts"][count].append(row["total"])
        people.append((_count_player(players, row, key, row["colour"] in winners, entry["created"]), row["place"]))
    for (a, place_a), (b, place_b) in combinations(sorted(set(people)), 2):
        if a == b:
            continue
        tally = versus[(a, b)]
        tally[0] += 1
        tally[1 if place_a < place_b else 2 if place_b < place_a else 3] += 1


def _count_player(players: dict[str, dict[str, Any]], row: Mapping[str, Any], key: str, win: bool,
                  created: float) -> str:
    """One player's row of a finished game counted into his tally; his key (the name, matched loosely)."""
    who = _key(row["name"])
    person = players.get(who)
    if person is None:
        person = players[who] = {"name": " ".join(row["name"].split()), "colours": Counter(), "scores": [],
                                 "wins": 0, "last": created, "games": defaultdict(lambda: {"scores": [], "wins": 0})}
    person["colours"][row["colour"]] += 1
    person["scores"].append(row["total"])
    person["wins"] += win
    person["last"] = max(person["last"], created)
    person["games"][key]["scores"].append(row["total"])
    person["games"][key]["wins"] += win
    return who


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None


def _game_figures(game: dict[str, Any]) -> dict[str, Any]:
    """A game's line of the statistics, from its tally; its top 10 (a tie: the earlier first)."""
    pick = heapq.nsmallest if game["lowest"] else heapq.nlargest
    order = (lambda r: (r[0], r[1])) if game["lowest"] else (lambda r: (r[0], -r[1]))
    top = [{"total": t, "created": c, "name": n, "colour": colour} for t, c, n, colour in pick(TOP, game["rows"], key=order)]
    return {"game": game["game"], "id": game["id"], "title": game["title"], "lowest": game["lowest"],
            "plays": game["plays"], **_figures(game["scores"], game["lowest"]), "winning": _mean(game["winning"]),
            "minutes": _mean(game["minutes"]), "top": top,
            "counts": [{"players": n, "plays": len(s) // n, **_figures(s, game["lowest"])}
                       for n, s in sorted(game["counts"].items())]}


def _player_figures(person: dict[str, Any], lowest_of: Mapping[str, bool]) -> dict[str, Any]:
    """A player's line of the statistics: an average and best over all only when all are of one game."""
    return {"name": person["name"], "colour": person["colours"].most_common(1)[0][0], "plays": len(person["scores"]),
            "wins": person["wins"], "rate": round(100 * person["wins"] / len(person["scores"])), "last": person["last"],
            **(_figures(person["scores"], lowest_of[next(iter(person["games"]))]) if len(person["games"]) == 1
               else {"average": None, "best": None}),
            "games": {g: {"plays": len(v["scores"]), "wins": v["wins"], **_figures(v["scores"], lowest_of[g])}
                      for g, v in sorted(person["games"].items())}}


def progression(game: GameDef, config: Mapping[str, Any], log: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Each player's running score through the game; None for a game without a running score (Princes
    of the Renaissance scores only at the end).

    A game with rounds (`flow.stage`: Flanders, Village, Elfenland, a score sheet per round) is read by
    rounds: `by` is "round", the first point is the start (label 0), then the score at the end of each
    round (label: its number), and the final totals (label "end") when the final scoring added to them.
    Any other game is read by its changes of score (`by` "change": a point after every action that
    changed one, labels 0, 1, 2, ...). `series` maps each player's colour to his points."""
    if game.progress is None:
        return None
    state = flow.initial(game, config)
    rounds = flow.stage(game, state) is not None
    points = [game.progress(state, config)]
    labels: list[int | str | None] = [0]
    for action in log:
        before = state
        try:
            state = flow.apply(game, config, state, action)
        except InvalidAction:
            return None
        now = game.progress(state, config)
        if rounds:
            finished = flow.stage(game, before)
            if flow.stage(game, state) != finished and game.progress(before, config) is not None:
                points.append(game.progress(before, config))
                labels.append(finished)
        elif now != points[-1]:
            points.append(now)
            labels.append(len(labels))
    if rounds:
        points.append(game.progress(state, config))
        labels.append(flow.stage(game, state))
    if state.get("phase") == "over":
        final = {row["id"]: row["total"] for row in game.result(state, config)["players"]}
        if final != points[-1]:
            points.append(final)
            labels.append("end" if rounds else len(labels))
    return {"by": "round" if rounds else "change", "labels": labels,
            "series": {p["colour"]: [point[p["colour"]] for point in points] for p in config["players"]}}
