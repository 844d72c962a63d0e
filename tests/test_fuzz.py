"""Random legal games of every registered game, in every configuration of its examples (tests/fuzz.py
says what each game is checked for at every step and at its end). A short budget here; the long one
is `bench/bench.py fuzz --games N` (docs/benchmarks.md).

Each game is one Hypothesis example drawn with `st.data()` (tests/fuzz.py says why not a rule-based
state machine): a failing game shrinks to a short one, shown as the choices that made it. The examples
are derandomised, so the suite plays the same games on every run; the benchmark draws new ones."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import flow
from companion.games import GAME_IDS, GAMES
from tests import fuzz

#: Games per configuration, and steps per game, in the normal suite (about 20 s on one core).
EXAMPLES, BUDGET = 3, 60

CASES = [pytest.param(game_id, i, id=f"{game_id}-{i}") for game_id in GAMES for i in range(len(fuzz.forms(game_id)))]


def settings_for(examples: int, derandomize: bool = True) -> settings:
    """Hypothesis' settings for `examples` games: no deadline (a game takes a while), no example
    database (the suite writes nothing into the work tree)."""
    return settings(max_examples=examples, deadline=None, database=None, derandomize=derandomize,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def games(game_id: str, config: int, examples: int, budget: int, tally: fuzz.Tally, derandomize: bool = True,
          screens: str = fuzz.NEW):
    """The property test of one game in one configuration: `examples` random legal games."""
    form = fuzz.forms(game_id)[config]

    @settings_for(examples, derandomize)
    @given(st.data())
    def random_games(data):
        fuzz.play(game_id, form, fuzz.HypothesisDraw(data), budget, tally, screens)

    return random_games


@pytest.mark.parametrize("game_id, config", CASES)
def test_random_legal_games_agree_in_every_reader(game_id, config):
    tally = fuzz.Tally()
    games(game_id, config, EXAMPLES, BUDGET, tally)()
    assert tally.games[game_id] and tally.actions, "no action was made: the game's arguments make none"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_makes_its_random_games_arguments(game_id):
    """A game gets the property tests by existing: its examples.py gives the arguments of each action
    in range (`arguments`) and its own final numbers as `companion score` input (`score_input`)."""
    own = fuzz.examples(game_id)
    missing = [name for name in ("CONFIGS", "arguments", "score_input") if not hasattr(own, name)]
    assert not missing, (f"companion/games/{game_id}/examples.py has no {', '.join(missing)}: the property "
                         f"tests (tests/fuzz.py) play random legal games with them (see docs/adding-a-game.md)")
    game = GAMES[game_id]
    config = game.new_config(own.CONFIGS[0])
    state = flow.initial(game, config)
    for kind, rule in flow.moves(game, config, state).items():
        if rule.refusal is None and kind in game.reducers:
            made = own.arguments(kind, rule, state, config, fuzz.Simplest())
            assert made is None or isinstance(made, dict), (kind, made)
