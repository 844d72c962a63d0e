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
        ("turn_order", {"cards": {"blue": 2, "red": 1, "green": 3}}), ("action_done", {"player": "green"}),
        ("action_done", {"player": "blue"}), ("action_done", {"player": "red"}), ("gold_influence", {}),
        ("goto_step", {"step": "scoring"}),
        ("score_city", {"city": "ghent", "quarters": {"blue": 2, "red": 1}, "church": 1}),
        ("correct", {"track": "grey", "points": 1, "reason": "forgot"}),
        ("end_round", {"board": False, "deck": False}), ("goto_step", {"step": "scoring"}),
        ("end_round", {"board": True, "deck": False}),
        *[("score_city", {"city": c, "quarters": {"grey": 1}}) for c in ("bruges", "leuven", "utrecht", "liege")],
        ("finish", {"cards": {"blue": 2, "red": 4, "green": 1}}),
    ]),
    "village": ({"start": 0, "lap": 6, "players": [{"colour": "red", "name": "A"}, {"colour": "ivory", "name": "B"}]}, [
        ("tick", {"item": "board", "done": True}), ("begin", {}), ("time", {"player": "red", "amount": 3}),
        ("market_start", {"player": "red"}), ("market_sell", {"player": "red", "prestige": 4}),
        ("market_pass", {"player": "ivory"}), ("market_pass", {"player": "red"}), ("church", {"player": "ivory"}),
        ("coins", {"player": "ivory", "delta": 2}), ("correct", {"track": "red", "points": 3, "reason": "travel"}),
        ("next_turn", {}), ("round_end", {}), ("mass_buy", {"player": "ivory"}),
        ("mass_draw", {"members": {}, "monks": 3}), ("mass_end", {}),
        ("time", {"player": "ivory", "amount": 6}),
        ("death", {"player": "ivory", "number": "1", "profession": "farmyard", "place": "grave"}),
        ("market_start", {"player": "red"}), ("end_trigger", {"player": "ivory"}), ("market_pass", {"player": "red"}),
        ("market_pass", {"player": "ivory"}), ("next_turn", {}), ("next_turn", {}), ("mass_quiet", {}),
        ("finish", {"players": {"red": {"cities_visited": 1, "council": [0, 0, 0, 0]},
                                "ivory": {"cities_visited": 0, "council": [0, 0, 0, 0]}}}),
    ]),
    "princes_of_the_renaissance": ({"start": 1, "players": [
        {"colour": "baglioni", "name": "A"}, {"colour": "d_este", "name": "B"}, {"colour": "gonzaga", "name": "C"}]}, [
        ("tick", {"item": "board", "done": True}), ("begin", {}),
        ("buy_troop", {"troop": "pike", "cost": 4, "attack": 0, "defence": 2}), ("end_turn", {}),
        ("open_auction", {"lot": "city", "city": "rome", "tile": "plain", "gold": 1, "influence": 0, "amount": 10}),
        ("bid", {"player": "baglioni", "amount": 11}), ("pass_bid", {"player": "d_este"}), ("pass_bid", {"player": "gonzaga"}),
        ("end_turn", {}), ("declare_war", {"attacker": "rome", "defender": "milan"}), ("no_veto", {}),
        ("bid", {"player": "d_este", "amount": 2}), ("battle", {"dice": {"attacker": 4, "defender": 2}}),
        ("transfer", {"giver": "gonzaga", "taker": "d_este", "currency": "gold", "amount": 3}),
        ("adjust", {"player": "gonzaga", "what": "vp", "delta": 1, "reason": "x"}),
    ]),
    "elfenland": ({"start": 0, "variant": "elfengold", "wizards": True, "players": [
        {"colour": "red", "name": "A"}, {"colour": "blue", "name": "B"}]}, [
        ("tick", {"item": "board", "done": True}), ("begin", {}),
        ("next_phase", {}), ("reveal", {"tiles": ["dragon", "gold", "tree", "unicorn"]}),
        ("bid", {"player": "red", "amount": 30}), ("pass_bid", {"player": "blue"}),   # red cannot pay: broke
        ("bid", {"player": "blue", "amount": 2}), ("pass_bid", {"player": "blue"}),
        ("pass_bid", {"player": "blue"}), ("pass_bid", {"player": "blue"}),
        ("next_phase", {}), ("next_phase", {}),
        ("move", {"player": "red", "visits": [{"town": "beata"}, {"town": "virst", "gold_road": True}],
                  "take": "gold"}), ("pass_move", {"player": "blue", "gold_cards": 1}),
        ("gold_card", {}), ("take_pile", {"player": "blue"}),
        ("town", {"player": "blue", "town": "yttar", "collected": True}),
        ("adjust", {"player": "blue", "delta": -1, "reason": "x"}),
        ("advance", {"to": "end"}), ("advance", {"to": "draw"}), ("gold_card", {}),
        ("take_pile", {"player": "red", "cards": 1}), ("advance", {"to": "tiles"}), ("advance", {"to": "auction"}),
        ("bid", {"player": "blue", "amount": 1}), ("sit_out", {"player": "red"}),   # red bids no more
        ("no_bid", {"tile": 1, "winner": None, "price": None}),
        ("no_more_bids", {"tile": 2, "winner": None, "price": None}), ("advance", {"to": "move"}),
        ("nobody_moves", {"players": ["blue", "red"]}),
    ]),
    "carcassonne": ({"start": 1, "gifts": True, "players": [{"colour": "red", "name": "A"},
                                                           {"colour": "black", "name": "B"}]}, [
        ("tick", {"item": "tiles", "done": True}), ("begin", {}), ("goto_step", {"step": "place"}),
        ("meeple", {"player": "red", "delta": 1}), ("gift_draw", {}),
        ("score_feature", {"type": "road", "tiles": 3, "meeples": {"red": 1}}), ("next_turn", {}),
        ("correct", {"track": "black", "points": 2, "reason": "x"}),
        ("end_game", {}), ("tally_next", {}),
        ("meeple", {"player": "black", "delta": 1}), ("tally_feature", {"type": "city", "tiles": 2, "meeples": {"black": 1}}),
        ("tally_next", {}), ("tally_next", {}), ("tally_next", {}), ("finish", {}),
    ]),
    "score_sheet": ({"start": 0, "sheet": {"name": "Azul", "categories": ["cards", "bonus"], "per_round": True,
                                           "lowest": False, "tie_break": "bonus"},
                     "players": [{"colour": "red", "name": "A"}, {"colour": "teal", "name": "B"}]}, [
        ("score", {"player": "red", "category": "cards", "value": 5, "round": 1}),
        ("score", {"player": "teal", "category": "cards", "value": -2, "round": 1}),
        ("score", {"player": "red", "category": "bonus", "value": 0, "round": 1}),
        ("score", {"player": "teal", "category": "bonus", "value": 3, "round": 1}),
        ("next_round", {}), ("score", {"player": "red", "category": "cards", "value": 1, "round": 2}),
        ("score", {"player": "red", "category": "cards", "value": None, "round": 2}),
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
