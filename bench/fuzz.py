"""`bench/bench.py fuzz --games N [--budget STEPS] [--screens every|new]`: the long budget of the
property tests (tests/fuzz.py, tests/test_fuzz.py): N random legal games of every registered game,
spread over the configurations of its examples, each of at most STEPS steps (default 1,500: enough for
most games to end), every game from its own seed. The screens are drawn after every step (`every`,
the default) or where a game reaches a new screen (`new`, the normal suite's way: much faster).

One line per game id: games played and finished, actions recorded and refused, undos checked,
replays checked, screens drawn (each in both languages), finished games `companion score` agreed
with and that exported and imported back; then the failures: mismatches between two readers,
exceptions while drawing a screen, other exceptions, each with the seed that plays it again
(`--seed S` plays that one game only; `--game ID` plays one game's games only)."""
from __future__ import annotations

import collections
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games import GAMES  # noqa: E402
from tests import fuzz  # noqa: E402


def play_one(game_id: str, form: dict, seed: int, budget: int, tally: fuzz.Tally, screens: str) -> tuple | None:
    """One game from `seed`; None, or the kind of its failure and what it said."""
    try:
        fuzz.play(game_id, form, fuzz.RandomDraw(seed), budget, tally, screens)
    except fuzz.DrawFailed as error:
        return "exceptions drawing", str(error)
    except fuzz.Mismatch as error:
        return "mismatches", str(error)
    except Exception as error:  # noqa: BLE001 - counted and shown: the benchmark goes on
        return "other exceptions", f"{type(error).__name__}: {error} at {traceback.format_tb(error.__traceback__)[-1]}"
    return None


def run(games: int, budget: int = 1500, screens: str = fuzz.EVERY, only_seed: int | None = None,
        only_game: str | None = None) -> dict:
    """Play the games (of every game, or of `only_game`); print and return the tallies per game id and
    the failures."""
    tallies: dict[str, fuzz.Tally] = {}
    failures: collections.Counter = collections.Counter()
    examples: dict[str, str] = {}
    started = time.monotonic()
    for game_id in [only_game] if only_game else GAMES:
        forms = fuzz.forms(game_id)
        tally = tallies[game_id] = fuzz.Tally()
        for n in range(games):
            seed = n if only_seed is None else only_seed
            if only_seed is not None and n:
                break
            failure = play_one(game_id, forms[seed % len(forms)], seed, budget, tally, screens)
            if failure is not None:
                kind, text = failure
                failures[game_id, kind] += 1
                examples.setdefault(f"{game_id} {kind}", f"seed {seed}: {text}"[:600])
        print(f"fuzz: {game_id}: {tally.games[game_id]} games ({tally.finished[game_id]} finished), "
              f"{tally.actions} actions ({tally.refused} refused), {tally.undos} undo checks, {tally.replays} replay "
              f"checks, {tally.screens} screens drawn in both languages, {tally.scored} scored by companion score "
              f"as by the app, {tally.exported} exported and imported back; "
              f"{failures[game_id, 'mismatches']} mismatches, {failures[game_id, 'exceptions drawing']} exceptions "
              f"drawing, {failures[game_id, 'other exceptions']} other exceptions", flush=True)
    print(f"fuzz: {sum(t.games[g] for g, t in tallies.items())} games, "
          f"{sum(t.actions for t in tallies.values())} actions, {sum(t.undos for t in tallies.values())} undo checks, "
          f"{sum(failures.values())} failures, in {time.monotonic() - started:.0f} s (budget {budget} steps, "
          f"screens drawn {screens})")
    for where, example in examples.items():
        print(f"fuzz: first of {where}: {example}")
    return {"tallies": tallies, "failures": failures}


def main(argv: list[str]) -> None:
    """`fuzz --games N [--budget STEPS] [--screens every|new] [--seed S] [--game ID]`"""
    options = dict(zip(argv[::2], argv[1::2]))
    screens = {"every": fuzz.EVERY, "new": fuzz.NEW}[options.get("--screens", "every")]
    seed = int(options["--seed"]) if "--seed" in options else None
    run(int(options.get("--games", 10)), int(options.get("--budget", 1500)), screens, seed, options.get("--game"))
