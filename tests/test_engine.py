"""The engine's contract, checked on every registered game: replay, undo, refusal changes nothing."""
from __future__ import annotations

import copy

import pytest

from companion.engine import flow, ranking
from companion.engine.model import InvalidAction
from companion.games import GAMES

#: A short scripted session per game: (new-game form, actions). Every registered game has one.
SCRIPTS = {
    "flanders_1302": ({"variant": "standard", "start": 1, "players": [
        {"colour": "blue", "name": "A"}, {"colour": "red", "name": "B"}, {"colour": "green", "name": "C"}],
        "empty_city": "ypres"}, [
        ("tick", {"item": "board", "done": True}), ("begin", {}), ("goto_step", {"step": "reveal"}),
        ("turn_order", {"cards": {"blue": 2, "red": 1, "green": 3}}), ("gold_influence", {}),
        ("score_city", {"city": "ghent", "quarters": {"blue": 2, "red": 1}, "church": 1}),
        ("correct", {"track": "grey", "points": 1, "reason": "forgot"}),
        ("end_round", {"board": False, "deck": False}),
    ]),
    "village": ({"start": 0, "lap": 6, "players": [{"colour": "red", "name": "A"}, {"colour": "ivory", "name": "B"}]}, [
        ("tick", {"item": "board", "done": True}), ("begin", {}), ("time", {"player": "red", "amount": 3}),
        ("market_start", {"player": "red"}), ("market_sell", {"player": "red", "prestige": 4}),
        ("market_pass", {"player": "ivory"}), ("market_pass", {"player": "red"}), ("church", {"player": "ivory"}),
        ("coins", {"player": "ivory", "delta": 2}), ("correct", {"track": "red", "points": 3, "reason": "travel"}),
        ("next_turn", {}), ("round_end", {}), ("mass_buy", {"player": "ivory"}),
        ("mass_draw", {"members": {}, "monks": 3}), ("mass_end", {}),
    ]),
    "carcassonne": ({"start": 1, "gifts": True, "players": [{"colour": "red", "name": "A"},
                                                           {"colour": "black", "name": "B"}]}, [
        ("tick", {"item": "tiles", "done": True}), ("begin", {}), ("goto_step", {"step": "place"}),
        ("meeple", {"player": "red", "delta": 1}), ("gift_draw", {}),
        ("score_feature", {"type": "road", "tiles": 3, "meeples": {"red": 1}}), ("next_turn", {}),
        ("correct", {"track": "black", "points": 2, "reason": "x"}),
        ("end_game", {}), ("tally_next", {}),
    ]),
}


def test_every_game_has_a_script():
    assert set(SCRIPTS) == set(GAMES)


@pytest.fixture(params=sorted(GAMES))
def scripted(request):
    game = GAMES[request.param]
    form, actions = SCRIPTS[request.param]
    return game, game.new_config(form), [{"type": k, "args": a} for k, a in actions]


def test_replay_equals_step_by_step_apply(scripted):
    game, config, log = scripted
    state = flow.initial(game, config)
    for action in log:
        state = flow.apply(game, config, state, action)
    assert flow.replay(game, config, log) == state


def test_undo_is_replay_without_the_last_action(scripted):
    game, config, log = scripted
    for n in range(len(log)):
        assert flow.replay(game, config, log[:n]) == flow.replay(game, config, log[: n + 1][:-1])
    assert flow.replay(game, config, []) == flow.initial(game, config)


@pytest.mark.parametrize("bad", [
    {"type": "no-such-action"}, {"type": "tick", "args": {"item": "nope", "done": True}},
    {"type": "correct", "args": {"track": "nope", "points": 1, "reason": "x"}}, {"args": {}}, "junk",
    {"type": "tick", "args": []},
])
def test_an_invalid_action_leaves_the_state_unchanged(scripted, bad):
    game, config, log = scripted
    state = flow.replay(game, config, log)
    before = copy.deepcopy(state)
    with pytest.raises(InvalidAction):
        flow.apply(game, config, state, bad)
    assert state == before


def test_apply_never_mutates_its_input(scripted):
    game, config, log = scripted
    state = flow.initial(game, config)
    for action in log:
        before = copy.deepcopy(state)
        state_after = flow.apply(game, config, state, action)
        assert state == before
        state = state_after


def test_every_game_refuses_a_repeated_invalid_action_with_a_message(scripted):
    game, config, log = scripted
    state = flow.replay(game, config, log)
    track = next(iter(state["scores"]))
    with pytest.raises(InvalidAction) as error:
        flow.apply(game, config, state, {"type": "correct", "args": {"track": track, "points": 0, "reason": "x"}})
    assert error.value.field == "points" and error.value.msg.text


@pytest.mark.parametrize("values, places", [
    ([5, 3, 3, 1], [1, 2, 2, 4]), ([2, 2, 2], [1, 1, 1]), ([1, 2, 3], [3, 2, 1]), ([], []),
])
def test_shared_places_skip(values, places):
    groups = ranking.tied_groups(range(len(values)), key=lambda i: values[i])
    got = {i: p for group, p in zip(groups, ranking.shared_places(groups)) for i in group}
    assert [got[i] for i in range(len(values))] == places


def test_tied_items_take_the_lowest_of_their_ranks():
    groups = ranking.tied_groups("abcde", key=lambda c: {"a": 3, "b": 2, "c": 2, "d": 2, "e": 1}[c])
    assert ranking.points_lowest_of_tied(groups, [10, 5, 4, 2]) == [10, 2, 0]
    assert ranking.positions(groups) == [(1, 1), (2, 4), (5, 5)]
