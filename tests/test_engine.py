"""The engine's contract, checked on every registered game: replay, undo, refusal changes nothing."""
from __future__ import annotations

import copy

import pytest

from companion.engine import flow, ranking
from companion.engine.model import InvalidAction
from companion import games as registry
from companion.games import GAME_IDS, GAMES
from tests.conftest import game_examples

#: Each game's short scripted session (new-game form, actions): its folder's examples.py `SCRIPT`.
SCRIPTS = {game_id: game_examples(game_id).SCRIPT for game_id in GAME_IDS}


def test_every_game_folder_is_a_game_with_a_script():
    """The registry is the folders: each one's definition carries its own id, and its examples a session."""
    assert set(SCRIPTS) == set(GAMES) == set(GAME_IDS) and len(GAME_IDS) >= 6
    assert all(GAMES[game_id].id == game_id and len(actions) >= 5 for game_id, (_, actions) in SCRIPTS.items())


def test_a_folder_dropped_into_the_games_is_found(tmp_path):
    """Adding a game is adding its folder: the registry lists every folder with an `__init__.py`."""
    for name, init in (("game_six", "__init__.py"), ("village", "__init__.py"), ("village", "__init__.pyc"),
                       ("compiled", "__init__.pyc")):       # the phone-alone build ships .pyc only
        (tmp_path / name).mkdir(exist_ok=True)
        (tmp_path / name / init).write_text("")
    (tmp_path / "notes").mkdir()      # not a package: not a game
    assert registry.discover(tmp_path) == ("compiled", "game_six", "village")


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
    """After every action of the session, one undo takes back the last real action with the steps moved
    through since it (flow.undo_count, as the referee cuts the log), and the game is again as it was,
    step by step, before that action."""
    game, config, log = scripted
    states = [flow.initial(game, config)]
    for action in log:
        states.append(flow.apply(game, config, states[-1], action))
    moves = game.navigation | {"phone"}
    for n in range(1, len(log) + 1):
        kept = n - flow.undo_count(game, log[:n])
        assert all(action["type"] in moves for action in log[kept + 1:n]), (n, kept)
        assert kept == 0 or log[kept]["type"] not in moves, (n, kept)
        assert flow.replay(game, config, log[:kept]) == states[kept], (n, kept)
        assert states[kept] != states[n], (n, kept)  # an undo that changes nothing took back nothing


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
    if "scores" not in state:  # no score track (Princes keeps ledgers): a correction names no track
        with pytest.raises(InvalidAction) as error:
            flow.apply(game, config, state, {"type": "correct", "args": {"track": "x", "points": 1, "reason": "x"}})
        assert error.value.field == "track" and error.value.msg.text
        return
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


# -- the shared auction (engine/auction.py) ------------------------------------------------------------

from companion.engine import auction  # noqa: E402


def test_auction_goes_clockwise_and_a_pass_is_final():
    a = auction.start({"kind": "tile"}, "gold", 0, ["A", "B", "C"])
    auction.bid(a, "A", 2)
    auction.pass_(a, "B")
    auction.bid(a, "C", 3)
    assert a["next"] == "A"                      # B passed: skipped from now on
    auction.bid(a, "A", 5)
    assert not auction.finished(a) and a["next"] == "C"
    auction.pass_(a, "C")
    assert auction.finished(a) and auction.winner(a) == "A" and a["high"] == 5


def test_auction_refusals_name_the_field():
    a = auction.start({}, "gold", 4, ["A", "B"], opener_must_bid=True)
    for call, field in ((lambda: auction.pass_(a, "A"), "player"), (lambda: auction.bid(a, "B", 4), "player"),
                        (lambda: auction.bid(a, "A", 3), "amount"), (lambda: auction.bid(a, "A", "4"), "amount"),
                        (lambda: auction.bid(a, "A", 9, limit=8), "amount")):
        before = copy.deepcopy(a)
        with pytest.raises(InvalidAction) as error:
            call()
        assert error.value.field == field and a == before
    auction.bid(a, "A", 4)
    assert auction.lowest_bid(a) == 5
    with pytest.raises(InvalidAction):
        auction.bid(a, "B", 4)


def test_auction_nobody_bids_and_nobody_wins():
    a = auction.start({}, "gold", 1, ["A", "B"])
    auction.pass_(a, "A")
    assert not auction.finished(a)                # B may still bid
    auction.pass_(a, "B")
    assert auction.finished(a) and auction.winner(a) is None
    with pytest.raises(InvalidAction):
        auction.bid(a, "B", 1)
    assert auction.finished(auction.start({}, "gold", 1, []))
