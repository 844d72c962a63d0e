"""`companion score` reproduces every public example in ../shared/examples, whatever the game."""
from __future__ import annotations

import json

import pytest

from tests.conftest import NO_SHARED, SHARED, examples, run_score

if not SHARED.is_dir():
    pytest.skip(NO_SHARED, allow_module_level=True)

CASES = [(path.name.split(".")[0], *case) for path in sorted((SHARED / "examples").glob("*.input.json"))
         for case in examples(path.name.split(".")[0]) if path.name.split(".")[1] == case[0]]
if not CASES:  # ../shared is here: an empty table of cases is a failure, not a pass
    pytest.fail(f"{SHARED / 'examples'} yields no public example", pytrace=False)


@pytest.mark.parametrize("game, name, given, expected", CASES, ids=[f"{c[0]}.{c[1]}" for c in CASES])
def test_public_example(game, name, given, expected):
    done = run_score(game, given)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    for key, value in expected.items():     # game, players, winners, and game-specific extras (guilds)
        assert got[key] == value, key
    assert all(isinstance(line, str) and line for line in got["explain"])


def test_every_game_has_a_public_example():
    assert {c[0] for c in CASES} == {"flanders-1302", "village", "princes-of-the-renaissance", "carcassonne",
                                     "elfenland"}, f"{SHARED / 'examples'} yields no example of some game"
