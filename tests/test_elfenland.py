"""Elfenland and Elfengold final scoring (FACTS §5.1, §5.5; TV-E9) and `companion score elfenland`."""
from __future__ import annotations


import pytest

from companion.games import elfenland as el
from tests.conftest import assert_refused
from tests.conftest import run_score as score

GAME_NAME = "elfenland"


@pytest.mark.parametrize("elfengold, players, places, winners", [
    pytest.param(True, [{"id": "a", "towns": 18, "gold": 23}, {"id": "b", "towns": 18, "gold": 30}],
                 [2, 1], ["b"], id="TV-E9-tie-most-gold-wins"),
    pytest.param(False, [{"id": "a", "towns": 15, "cards": 2}, {"id": "b", "towns": 15, "cards": 4},
                         {"id": "c", "towns": 17, "cards": 0}], [3, 2, 1], ["c"], id="most-towns-wins"),
    pytest.param(False, [{"id": "a", "towns": 15, "cards": 4}, {"id": "b", "towns": 15, "cards": 2}],
                 [1, 2], ["a"], id="base-tie-most-cards-wins"),
    pytest.param(True, [{"id": "a", "towns": 20, "gold": 5}, {"id": "b", "towns": 20, "gold": 5},
                        {"id": "c", "towns": 3, "gold": 90}], [1, 1, 3], ["a", "b"], id="still-tied-share"),
])
def test_final_scoring(elfengold, players, places, winners):
    result = el.final_scores(elfengold, players)
    assert [p["place"] for p in result["players"]] == places and result["winners"] == winners
    assert [p["breakdown"] for p in result["players"]] == [{"towns": p["towns"]} for p in players]


def run_score(payload, *args):
    return score(GAME_NAME, payload, *args)


GOLD = {"options": ["elfengold"], "players": [{"id": "a", "towns": 3, "gold": 1}, {"id": "b", "towns": 4, "gold": 2}]}


@pytest.mark.parametrize("payload, field", [
    pytest.param({**GOLD, "players": [{"id": "a", "towns": 21, "gold": 1}, GOLD["players"][1]]}, "players[0].towns",
                 id="more-towns-than-pieces"),
    pytest.param({**GOLD, "players": [{"id": "a", "towns": 2, "cards": 1}, GOLD["players"][1]]}, "players[0].cards",
                 id="cards-in-elfengold"),
    pytest.param({"players": [{"id": "a", "towns": 2, "gold": 1}, {"id": "b", "towns": 2, "cards": 1}]},
                 "players[0].gold", id="gold-in-the-base-game"),
    pytest.param({**GOLD, "players": [{"id": "a", "towns": 2, "gold": 200}, {"id": "b", "towns": 2, "gold": 200}]},
                 "players", id="more-gold-than-the-box"),
    pytest.param({**GOLD, "players": GOLD["players"][:1]}, "players", id="one-player"),
    pytest.param({**GOLD, "options": ["elfengold", "wizards"]}, "options[1]", id="unknown-option"),
    pytest.param({**GOLD, "players": [{"id": "a", "towns": -1, "gold": 1}, GOLD["players"][1]]}, "players[0].towns",
                 id="negative"),
    pytest.param("{", "JSON", id="malformed"),
])
def test_bad_input_exits_2_naming_the_field(payload, field):
    done = run_score(payload)
    assert_refused(done, field)
