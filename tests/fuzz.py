"""Random legal games through every reader of a game: the property tests of tests/test_fuzz.py and the
benchmark `bench/bench.py fuzz` play them with this.

One game (`play`): a registered game, one configuration of its examples' `CONFIGS`, with or without
teach mode, played through the view-model (the referee, the store) as the screens play it. Each step
makes an action the game's table of allowed actions allows (`flow.moves`: its type, and for whom),
with arguments in range from the game's own `examples.arguments`, or now and then an undo. At every
step:
- the state shown is the replay of the stored log (replay equals step by step);
- an undo gives back exactly the state before the actions it takes back, and a refused action
  changes nothing;
- every screen of the current phase (the game's own screen for the phase: round, final or result;
  the scores, the log, with teach mode its explanations) draws in Czech and in English.
When the game ends: the history's read-only view draws; `companion score` takes the game's own
final numbers (`examples.score_input`) and answers the app's result; the finished game exports as
JSON, CSV and BG Stats, imports into an empty folder giving the same history, and adds nothing when
imported into its own folder.

Hypothesis draws every choice in the tests (`HypothesisDraw`), so a failing game shrinks to a short
one; the benchmark draws from seeds (`RandomDraw`), so that it counts the failures of many games. Hypothesis'
rule-based state machines would give each rule a fixed signature; here the rules are the game's own
table, which changes with every state, so one `@given(data())` test draws the next action from the
table itself, and the end-of-game checks run where a game ends.
"""
from __future__ import annotations

import collections
import importlib
import io
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from companion import exchange, teach
from companion.engine import flow
from companion.engine.model import Rule
from companion.games import GAMES
from companion.store import Store
from companion.ui.app import Shell
from companion.ui.viewmodel import ViewModel
from tests.test_screens import Page

T = TypeVar("T")

#: The share of steps that undo (one in UNDO_EVERY).
UNDO_EVERY = 8
#: How many times a step draws an action before it gives up (a game may decline an action it allows
#: now: `arguments` returns None, so that it goes on a while before its end).
TRIES = 4
#: How often a game's screens are drawn (`play`).
EVERY, NEW, NONE = "every step", "new screens", "none"
#: The screens every phase of a game draws besides its own (route names of the view-model).
SHARED_SCREENS = ("scores", "log")


class Mismatch(AssertionError):
    """Two readers of the same game disagree (replay and step by step, undo, `companion score` and
    the app, the history before and after an export)."""


class DrawFailed(AssertionError):
    """A screen raised while it was drawn."""


def examples(game_id: str):
    """The game's examples module (SCRIPT, CONFIGS, arguments, score_input)."""
    return importlib.import_module(f"companion.games.{game_id}.examples")


class HypothesisDraw:
    """The choices of one Hypothesis example (`data` of `st.data()`)."""

    def __init__(self, data: Any):
        from hypothesis import strategies as st

        self.data, self.st = data, st

    def integer(self, low: int, high: int) -> int:
        return self.data.draw(self.st.integers(low, high))

    def choice(self, options: Sequence[T]) -> T:
        return self.data.draw(self.st.sampled_from(list(options)))

    def boolean(self) -> bool:
        return self.data.draw(self.st.booleans())


class RandomDraw:
    """Choices from a seeded `random.Random` (the benchmark: every game its own seed, so a failing game
    is played again by its seed)."""

    def __init__(self, seed: int):
        import random

        self.random = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self.random.randint(low, high)

    def choice(self, options: Sequence[T]) -> T:
        return self.random.choice(list(options))

    def boolean(self) -> bool:
        return self.random.random() < 0.5


class Simplest:
    """The simplest choice every time (what a failing example shrinks towards)."""

    def integer(self, low: int, high: int) -> int:
        return low

    def choice(self, options: Sequence[T]) -> T:
        return options[0]

    def boolean(self) -> bool:
        return False


@dataclass
class Tally:
    """What the games played so far did (the benchmark's figures)."""

    games: collections.Counter = field(default_factory=collections.Counter)     # per game id
    finished: collections.Counter = field(default_factory=collections.Counter)  # per game id
    actions: int = 0          # actions recorded
    refused: int = 0          # actions drawn in range that the rules refused (nothing changed)
    undos: int = 0            # undos, each checked against the state before
    replays: int = 0          # replays checked against the state step by step
    screens: int = 0          # screens drawn (each in both languages)
    scored: int = 0           # finished games `companion score` agreed with
    exported: int = 0         # finished games exported and imported back (JSON and BG Stats)
    refusals: collections.Counter = field(default_factory=collections.Counter)  # (action, reason)




def forms(game_id: str) -> list[dict]:
    """The configurations the game's examples reach every part of the game with."""
    return list(examples(game_id).CONFIGS)


def play(game_id: str, form: Mapping, draw: Any, budget: int, tally: Tally, screens: str = EVERY) -> dict:
    """One random legal game of `game_id` from the new-game `form`: at most `budget` steps, checked at
    every step and at its end (see the module). The screens are drawn after every step (`EVERY`), or
    only where the game reaches a screen it has not drawn yet (`NEW`: the normal suite's short budget),
    or never (`NONE`). Returns the view-model's last state."""
    game, own = GAMES[game_id], examples(game_id)
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm) if screens != NONE else None
    if shell is not None:
        vm._listeners.remove(shell.redraw)  # drawn where the checks say, not after every change as on a phone
    drawn: set = set()
    if teach.teaches(game_id) and draw.boolean():
        vm.set_teach_next(True)
    assert vm.new_game(game_id, dict(form)), vm.problem
    tally.games[game_id] += 1
    config, sid = vm.session["config"], vm.session["id"]
    states = [flow.thaw(vm.state)]  # the state after each prefix of the log
    if shell is not None:
        draw_screens(vm, shell, tally, rules=True)
    for _step in range(budget):
        if vm.state.get("phase") == "over":
            break
        if vm.session["log"] and draw.integer(0, UNDO_EVERY - 1) == UNDO_EVERY // 2:  # not a bound: those come often
            undo(vm, states, tally)
        else:
            act(game_id, own, vm, states, draw, tally)
        replayed = flow.replay(game, config, vm.session["log"])
        tally.replays += 1
        if replayed != vm.state:
            raise Mismatch(f"{game_id}: the replay of the log differs from the state step by step after "
                           f"{[a['type'] for a in vm.session['log']][-5:]}")
        if shell is not None and (screens == EVERY or screen_of(vm) not in drawn):
            drawn.add(screen_of(vm))
            draw_screens(vm, shell, tally)
    state = vm.state
    if state.get("phase") == "over":
        tally.finished[game_id] += 1
        if shell is not None:
            draw_archive(vm, shell, sid, tally)
        check_score(game_id, own, state, config, tally)
        check_exchange(vm.store, tally)
    return state


def script(game_id: str, tally: Tally) -> tuple[ViewModel, Shell]:
    """The game's own `SCRIPT` (examples.py) played through the view-model as `play` plays a random game:
    every screen of every phase it reaches drawn in both languages where it reaches it, the rules
    browser at the start; a game the script ends, its read-only view, the history and the statistics."""
    form, actions = examples(game_id).SCRIPT
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm._listeners.remove(shell.redraw)
    assert vm.new_game(game_id, dict(form)), vm.problem
    sid = vm.session["id"]
    drawn = {screen_of(vm)}
    draw_screens(vm, shell, tally, rules=True)
    for kind, args in actions:
        assert vm.dispatch(kind, **args), (game_id, kind, vm.problem)
        tally.actions += 1
        if screen_of(vm) not in drawn:
            drawn.add(screen_of(vm))
            draw_screens(vm, shell, tally)
    if vm.state.get("phase") == "over":
        tally.finished[game_id] += 1
        draw_archive(vm, shell, sid, tally)
        assert vm.open(sid), vm.problem
    return vm, shell


def screen_of(vm: ViewModel) -> tuple:
    """Which screen the game shows: its route, the header's screen and the phase, with teach mode's."""
    guide = vm.game.guide(vm.state, vm.session["config"]) if vm.game.guide else None
    return vm.route, guide.screen if guide else "", vm.state.get("phase"), vm.teach_mode()


def act(game_id: str, own: Any, vm: ViewModel, states: list, draw: Any, tally: Tally) -> None:
    """One action the table allows now, with arguments in range; a refused one changes nothing."""
    config = vm.session["config"]
    table = {kind: rule for kind, rule in flow.moves(vm.game, config, vm.state).items()
             if rule.refusal is None and kind != "phone" and (kind != "correct" or vm.state.get("scores"))
             and (kind != "tick" or vm.game.setup_items(config))}
    for _attempt in range(TRIES):
        kind = draw.choice(sorted(table))
        args = shared_arguments(kind, table[kind], vm.game, vm.state, config, draw)
        if args is None:
            args = own.arguments(kind, table[kind], vm.state, config, draw)
        if args is not None:
            break
    else:  # the game made none of the actions drawn here (steps it only moves through now and then)
        return
    before = list(vm.session["log"])
    if vm.dispatch(kind, **args):
        tally.actions += 1
        states.append(flow.thaw(vm.state))
        return
    tally.refused += 1
    tally.refusals[kind, vm.problem.text if vm.problem else ""] += 1
    if vm.session["log"] != before or vm.state != states[-1]:
        raise Mismatch(f"{game_id}: a refused {kind} changed the game")


def shared_arguments(kind: str, rule: Rule, game: Any, state: Mapping, config: Mapping, draw: Any) -> dict | None:
    """The arguments of the entries every game has: the setup checklist and a score correction
    (on a game with score tracks); None for the game's own."""
    if kind == "tick":
        items = [item["id"] for item in game.setup_items(config)]
        return {"item": draw.choice(items), "done": draw.boolean()}
    if kind == "correct":
        tracks = sorted(state["scores"])
        points = draw.integer(-5, 5) or 1
        return {"track": draw.choice(tracks), "points": points, "reason": draw.choice(["x", "miscounted"])}
    return None


def undo(vm: ViewModel, states: list, tally: Tally) -> None:
    """Undo: the state is exactly the one after the shorter log."""
    assert vm.undo(), vm.problem
    tally.undos += 1
    n = len(vm.session["log"])
    del states[n + 1:]
    if vm.state != states[n]:
        raise Mismatch(f"{vm.session['game']}: undo back to {n} actions gives another state than before them")


def draw_screens(vm: ViewModel, shell: Shell, tally: Tally, rules: bool = False) -> None:
    """The screen of the current phase and every screen shared by the phases, in both languages; with
    teach mode on, its panel and explanations are part of the game's screen."""
    sid = vm.session["id"]
    routes = [vm.route, *SHARED_SCREENS, *(("rules",) if rules else ())]
    try:
        for route in routes:
            if route != vm.route:
                vm.go(route)
            for lang in ("cs", "en"):
                vm.set_language(lang)
                shell.render()
            if vm.teach_mode() is not None:
                vm.teach_explain()
            tally.screens += 1
    except Exception as error:
        raise DrawFailed(f"{vm.session['game']}: the {vm.route} screen in phase {vm.state.get('phase')!r} "
                         f"raised {type(error).__name__}: {error}") from error
    assert vm.open(sid), vm.problem


def draw_archive(vm: ViewModel, shell: Shell, sid: str, tally: Tally) -> None:
    """The finished game read-only from the history, and the history and statistics with it."""
    try:
        for route in ("archive", "history", "stats"):
            if route == "archive":
                assert vm.view(sid), vm.problem
            else:
                vm.home()
                vm.go(route)
            for lang in ("cs", "en"):
                vm.set_language(lang)
                shell.render()
            tally.screens += 1
    except AssertionError:
        raise
    except Exception as error:
        raise DrawFailed(f"{vm.session['game'] if vm.session else ''}: the {vm.route} screen of a finished game "
                         f"raised {type(error).__name__}: {error}") from error


def score_command(cli_name: str, data: Any) -> tuple[int, str, str]:
    """`companion score CLI_NAME -` with `data` as its input, in this process."""
    from companion import cli

    streams = sys.stdin, sys.stdout, sys.stderr
    out, err = io.BytesIO(), io.BytesIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps(data).encode()), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    try:
        status = cli.main(["score", cli_name, "-"])
        return status, out.getvalue().decode(), err.getvalue().decode()
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams


def _scores(result: Mapping) -> dict:
    return {"players": [{k: row[k] for k in ("id", "total", "place", "breakdown")} for row in result["players"]],
            "winners": list(result["winners"])}


def check_score(game_id: str, own: Any, state: Mapping, config: Mapping, tally: Tally) -> None:
    """`companion score` takes the finished game's own numbers and gives the app's result. Manual score
    corrections are left out of both: the command's input has no field for them (a game whose track
    takes them, Carcassonne or Village, hands the command its track with them)."""
    game = GAMES[game_id]
    status, out, err = score_command(game.cli_name, own.score_input(state, config))
    if status != 0:
        raise Mismatch(f"{game_id}: companion score refuses the game's own final numbers: {err.strip()}")
    result = game.result(state, config)
    if len({tuple(row["breakdown"]) for row in result["players"]}) != 1:
        raise Mismatch(f"{game_id}: the players' breakdowns have different categories: "
                       f"{[row['breakdown'] for row in result['players']]}")
    expected = _scores(game.result(dict(state, corrections=[]), config))
    if _scores(json.loads(out)) != expected:
        raise Mismatch(f"{game_id}: companion score gives {_scores(json.loads(out))}, the app {expected}")
    tally.scored += 1


def history_of(store: Store, bgstats: bool = False) -> list:
    """What the history shows of every finished game (and how many games are stored). Through BG Stats
    a play time of 0 minutes is none (its files write 0 for a play without one)."""
    from tests.test_bgstats import shown

    games = shown(store)
    if bgstats:
        games = [(*game[:5], game[5] or None, *game[6:]) for game in games]
    return [len(store.sessions()), *games]


def check_exchange(store: Store, tally: Tally) -> None:
    """The finished game exports as JSON, CSV and BG Stats; each import into an empty folder gives the
    same history, and into the same folder adds nothing; a BG Stats export of the copy is the same file."""
    exchange.export_csv(store)
    exchange.export_csv(store, excel_cs=True)
    for name, export in (("JSON", exchange.export_json), ("BG Stats", exchange.export_bgstats)):
        shown = history_of(store, name == "BG Stats")
        text = export(store)
        copy = Store(None)
        try:
            imported = exchange.import_json(copy, text)
        except exchange.ImportRefused as error:
            raise Mismatch(f"the {name} export is refused by the import: {error}") from error
        if imported != (1, 0):
            raise Mismatch(f"the {name} export does not import as one game: {imported}")
        if history_of(copy, name == "BG Stats") != shown:
            raise Mismatch(f"the {name} export imported elsewhere shows another history: "
                           f"{history_of(copy, name == 'BG Stats')} against {shown}")
        if exchange.import_json(store, text) != (0, 1):
            raise Mismatch(f"the {name} export imported into its own folder adds a game")
        if name == "BG Stats" and exchange.export_bgstats(copy) != text:
            raise Mismatch("a game imported from BG Stats exports as another play")
    tally.exported += 1
