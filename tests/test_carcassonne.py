"""Carcassonne with The Gifts: FACTS §4 worked examples (TV-C1…C10 where final scoring computes them),
the majority rule, unfinished features and fields, unopened gifts, shared places, the box limits, and
`companion score carcassonne`."""
from __future__ import annotations

import json

import pytest

from companion.engine import flow
from companion.engine.inputs import InputError
from companion.engine.model import InvalidAction
from companion.games.carcassonne import rules as cc
from tests.conftest import assert_refused
from tests.conftest import run_score as score

GAME_NAME = "carcassonne"


def feature(kind, meeples=None, **fields):
    return {"type": kind, **fields, "meeples": meeples or {}}


# -- the value of one feature -------------------------------------------------------------------------

@pytest.mark.parametrize("given, value", [
    pytest.param(feature("road", tiles=3, complete=True), 3, id="TV-C1-complete-road-3-tiles"),
    pytest.param(feature("city", tiles=3, pennants=1, complete=True), 8,
                 id="TV-C2-complete-city-tiles-plus-pennants-4"),
    pytest.param(feature("city", tiles=4, complete=True), 8, id="TV-C2-complete-city-4-tiles-no-pennant"),
    pytest.param(feature("monastery", tiles=9, complete=True), 9, id="TV-C3-complete-monastery"),
    pytest.param(feature("city", tiles=5, pennants=1, complete=True), 12, id="TV-C4-complete-city-5-tiles-1-pennant"),
    pytest.param(feature("road", tiles=3), 3, id="TV-C5-unfinished-road-3-tiles"),
    pytest.param(feature("field", cities=1), 3, id="TV-C5-field-1-completed-city"),
    pytest.param(feature("field", cities=4), 12, id="field-4-completed-cities"),
    pytest.param(feature("field", cities=0), 0, id="field-no-completed-city"),
    pytest.param(feature("city", tiles=1, pennants=1), 2, id="unfinished-city-1-tile-1-pennant"),
    pytest.param(feature("city", tiles=3, pennants=1, complete=False), 4, id="unfinished-city-half-value"),
    pytest.param(feature("monastery", tiles=1), 1, id="unfinished-monastery-alone"),
    pytest.param(feature("monastery", tiles=7), 7, id="unfinished-monastery-tiles-present"),
])
def test_feature_value(given, value):
    assert cc.feature_value(given) == value


# -- the majority rule --------------------------------------------------------------------------------

@pytest.mark.parametrize("given, points", [
    pytest.param(feature("monastery", {"blue": 1, "green": 1, "red": 2}, tiles=9, complete=True),
                 {"red": 9, "blue": 0, "green": 0}, id="TV-C6-synod-red-2-scores-9-others-0"),
    pytest.param(feature("city", {"red": 1, "blue": 1, "green": 1}, tiles=2, complete=True),
                 {"red": 4, "blue": 4, "green": 4}, id="TV-C8-three-meeples-tied-all-score-full"),
    pytest.param(feature("city", {"red": 2, "blue": 1}, tiles=3), {"red": 3, "blue": 0},
                 id="TV-C8-minority-scores-nothing"),
    pytest.param(feature("road", {"red": 1, "blue": 1}, tiles=4), {"red": 4, "blue": 4},
                 id="tie-each-scores-full-not-split"),
    pytest.param(feature("field", {"red": 2, "blue": 2, "green": 1}, cities=3), {"red": 9, "blue": 9, "green": 0},
                 id="field-tied-majority-minority-nothing"),
    pytest.param(feature("road", tiles=5), {}, id="no-meeple-nobody-scores"),
])
def test_feature_points(given, points):
    assert cc.feature_points(given) == points


def player(pid, track=0, **fields):
    return {"id": pid, "track": track, **fields}


def test_final_scores_adds_track_and_every_category():
    players = [player("red", 10), player("blue", 5)]
    features = [feature("road", {"red": 1}, tiles=3, complete=True),
                feature("city", {"blue": 1}, tiles=3, pennants=1, complete=True),
                feature("monastery", {"red": 1}, tiles=6),
                feature("field", {"red": 1, "blue": 1}, cities=2)]
    result = cc.final_scores([], players, features)
    red, blue = result["players"]
    assert red["breakdown"] == {"track": 10, "roads": 3, "cities": 0, "monasteries": 6, "fields": 6}
    assert blue["breakdown"] == {"track": 5, "roads": 0, "cities": 8, "monasteries": 0, "fields": 6}
    assert red["total"] == 25 and blue["total"] == 19
    assert result["winners"] == ["red"] and [p["place"] for p in result["players"]] == [1, 2]
    assert len(result["explain"]) == 4


def test_tv_c10_unopened_gifts_score_2_each():
    result = cc.final_scores(["gifts"], [player("red", 0, gifts=3), player("blue", 0, gifts=0)], [])
    assert [p["breakdown"]["gifts"] for p in result["players"]] == [6, 0]
    assert "3 unopened gift cards × 2 = 6" in result["explain"][0].english()


def test_gifts_key_only_with_the_option():
    result = cc.final_scores([], [player("red"), player("blue")], [])
    assert "gifts" not in result["players"][0]["breakdown"]


def test_tied_players_share_the_place_and_the_explain_says_why():
    result = cc.final_scores([], [player("a", 10), player("b", 10), player("c", 4)], [])
    assert [p["place"] for p in result["players"]] == [1, 1, 3] and result["winners"] == ["a", "b"]
    assert any("no tie-break" in line.english() and "a and b" in line.english() for line in result["explain"])


def test_explain_names_the_majority_the_tie_and_the_minority():
    result = cc.final_scores([], [player("red"), player("blue"), player("green")], [
        feature("monastery", {"blue": 1, "green": 1, "red": 2}, tiles=9, complete=True),
        feature("road", {"red": 1, "blue": 1}, tiles=2),
        feature("field", cities=2)])
    synod, tie, empty = (line.english() for line in result["explain"])
    assert "= 9 points" in synod and "red has the most meeples (2)" in synod and "blue and green: fewer meeples" in synod
    assert "red and blue tie with 1 meeple each" in tie
    assert "nobody scores" in empty


def test_the_meeple_limit_ignores_complete_features():
    """Meeples on features completed during play went back to the supply: only the end counts."""
    data = {"players": [player("red"), player("blue")],
            "features": [feature("city", {"red": 7}, tiles=9, complete=True),
                         feature("road", {"red": 4}, tiles=9), feature("field", {"red": 3}, cities=1)]}
    assert cc.score_cli(data)["players"][0]["breakdown"]["cities"] == 18
    data["features"].append(feature("monastery", {"red": 1}, tiles=3))
    with pytest.raises(InputError) as error:
        cc.score_cli(data)
    assert error.value.path == "features[3].meeples.red"


# -- companion score carcassonne ---------------------------------------------------------------------

def run_score(payload, *args):
    return score(GAME_NAME, payload, *args)


def test_score_command_tv_c6_and_tie():
    done = run_score({"players": [player("red", 3), player("blue", 12), player("green", 12)], "features": [
        feature("monastery", {"blue": 1, "green": 1, "red": 2}, tiles=9, complete=True)]})
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert [p["total"] for p in got["players"]] == [12, 12, 12]
    assert [p["place"] for p in got["players"]] == [1, 1, 1] and got["winners"] == ["red", "blue", "green"]


@pytest.mark.parametrize("given, says", [
    (feature("road", tiles=1, complete=True), "a completed road covers at least 2 tiles"),
    (feature("city", tiles=1, pennants=1, complete=True), "a completed city covers at least 2 tiles"),
    (feature("monastery", tiles=9), "an unfinished monastery has at most 8 tiles in its 3×3: with all 9 it is complete"),
])
def test_features_no_box_can_make_are_refused_naming_the_feature(given, says):
    done = run_score(game(feature("road", tiles=2), given))
    assert_refused(done, "features[1].tiles")
    assert says in done.stderr
    if given.get("complete"):                                                # in the app too
        config, state, kind = *table([("begin", {})]), "score_feature"
    else:
        config, state, kind = *table([("begin", {}), ("end_game", {}), ("tally_next", {}), ("tally_next", {})]), \
            "tally_feature"
    args = {k: v for k, v in given.items() if k != "complete"}
    assert says in refused(config, state, kind, **args).msg.english()


def test_a_count_of_zero_meeples_is_accepted():
    """The contract allows non-negative counts: 0 meeples is no meeple, not an error."""
    done = run_score(game(feature("road", {"red": 0, "blue": 1}, tiles=3)))
    assert done.returncode == 0, done.stderr
    assert [p["breakdown"]["roads"] for p in json.loads(done.stdout)["players"]] == [0, 3]


def game(*features, players=None, options=None):
    data = {"players": players or [player("red"), player("blue")], "features": list(features)}
    if options is not None:
        data["options"] = options
    return data


def gifted(red, blue=0):
    return game(players=[player("red", gifts=red), player("blue", gifts=blue)], options=["gifts"])


@pytest.mark.parametrize("payload, field", [
    pytest.param(game(feature("road", {"red": 4}, tiles=3), feature("city", {"red": 4}, tiles=2)),
                 "features[1].meeples.red", id="8-meeples-of-one-player-on-unfinished-features"),
    pytest.param(game(feature("road", {"red": 8}, tiles=3, complete=True)), "features[0].meeples.red",
                 id="8-meeples-on-one-feature"),
    pytest.param(gifted(26), "players[0].gifts", id="26-gifts"),
    pytest.param(gifted(13, 13), "players", id="26-gifts-in-all"),
    pytest.param(game(players=[player("red", gifts=1), player("blue")]), "players[0].gifts",
                 id="gifts-without-the-option"),
    pytest.param(game(players=[player("red", gifts=1), player("blue")], options=["gifts"]), "players[1].gifts",
                 id="gifts-missing-with-the-option"),
    pytest.param(game(options=["abbots"]), "options[0]", id="unknown-option"),
    pytest.param(game(feature("road", {"yellow": 1}, tiles=3)), "features[0].meeples.yellow",
                 id="meeples-of-a-colour-not-in-the-game"),
    pytest.param(game(feature("road", {"red": -1}, tiles=3)), "features[0].meeples.red", id="negative-meeples"),
    pytest.param(game(feature("monastery", tiles=10)), "features[0].tiles", id="monastery-with-10-tiles"),
    pytest.param(game(feature("monastery", tiles=8, complete=True)), "features[0].tiles",
                 id="complete-monastery-with-8-tiles"),
    pytest.param(game(feature("road", tiles=73)), "features[0].tiles", id="more-tiles-than-the-box"),
    pytest.param(game(feature("road", tiles=3), feature("road", tiles=1, complete=True)), "features[1].tiles",
                 id="completed-road-of-1-tile"),
    pytest.param(game(feature("city", tiles=1, complete=True)), "features[0].tiles", id="completed-city-of-1-tile"),
    pytest.param(game(feature("monastery", tiles=9)), "features[0].tiles", id="unfinished-monastery-with-9-tiles"),
    pytest.param(game(feature("road", tiles=0)), "features[0].tiles", id="road-without-tiles"),
    pytest.param(game(feature("field", cities=1, tiles=4)), "features[0].tiles", id="field-with-tiles"),
    pytest.param(game(feature("field", cities=1, complete=True)), "features[0].complete", id="complete-field"),
    pytest.param(game(feature("field")), "features[0].cities", id="field-without-cities"),
    pytest.param(game(feature("city", tiles=2, pennants=3)), "features[0].pennants",
                 id="city-with-more-pennants-than-tiles"),
    pytest.param(game(feature("road", tiles=2, pennants=1)), "features[0].pennants", id="pennants-on-a-road"),
    pytest.param(game(feature("road", tiles=2, complete="yes")), "features[0].complete", id="complete-not-boolean"),
    pytest.param(game(feature("castle", tiles=2)), "features[0].type", id="unknown-feature-type"),
    pytest.param(game({"tiles": 2}), "features[0].type", id="feature-without-type"),
    pytest.param(game(dict(feature("road", tiles=2), farmers=1)), "features[0].farmers", id="unknown-feature-key"),
    pytest.param({"players": [player("red"), player("blue")]}, "features", id="features-missing"),
    pytest.param(game(players=[player("red")]), "players", id="1-player"),
    pytest.param(game(players=[player(c) for c in ("red", "blue", "green", "yellow", "black", "grey")]),
                 "players", id="6-players"),
    pytest.param(game(players=[player("red", -1), player("blue")]), "players[0].track", id="negative-track"),
    pytest.param(game(players=[player("red"), player("red")]), "players[1].id", id="duplicate-id"),
    pytest.param(dict(game(), game="village"), "game", id="wrong-game"),
    pytest.param("{not json", "JSON", id="malformed-json"),
])
def test_bad_input_exits_2_naming_the_field(payload, field):
    done = run_score(payload)
    assert_refused(done, field)


# -- a session at the table ------------------------------------------------------------------------


SESSION = {"start": 0, "gifts": True, "players": [{"colour": "red", "name": "Rut"}, {"colour": "blue", "name": "Bob"},
                                                  {"colour": "green", "name": "Gita"}]}


def table(actions, form=SESSION):
    config = cc.GAME.new_config(form)
    state = flow.initial(cc.GAME, config)
    for kind, args in actions:
        state = flow.apply(cc.GAME, config, state, {"type": kind, "args": args})
    return config, state


def refused(config, state, kind, **args):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(InvalidAction) as error:
        flow.apply(cc.GAME, config, state, {"type": kind, "args": args})
    assert json.dumps(state, sort_keys=True) == before
    return error.value


def test_a_completed_city_with_tied_meeples_scores_both_and_sends_the_meeples_home():
    config, state = table([("begin", {}), ("meeple", {"player": "red", "delta": 1}),
                           ("meeple", {"player": "blue", "delta": 1}), ("meeple", {"player": "green", "delta": 1}),
                           ("score_feature", {"type": "city", "tiles": 5, "pennants": 1,
                                              "meeples": {"red": 1, "blue": 1}})])
    assert state["scores"] == {"red": 12, "blue": 12, "green": 0}                 # TV-C4 value, tied: both full
    assert state["meeples"] == {"red": 0, "blue": 0, "green": 1}
    refused(config, state, "score_feature", type="road", tiles=3, meeples={"red": 1})  # red has none out
    refused(config, state, "score_feature", type="field", cities=2, meeples={"green": 1})


#: Rut (red) receives a gift on her first turn; the others pass; her next turn begins.
GIFTED = [("begin", {}), ("gift_draw", {}), ("next_turn", {}), ("next_turn", {}), ("next_turn", {})]


def test_tv_c7_road_sweeper_scores_an_unfinished_road_and_all_its_meeples_go_home():
    config, state = table([("begin", {}), ("meeple", {"player": "red", "delta": 1}), *GIFTED[1:],
                           ("meeple", {"player": "blue", "delta": 1}), ("gift_open", {"card": "road_sweeper"}),
                           ("road_sweeper", {"tiles": 4, "meeples": {"red": 1, "blue": 1}})])
    assert state["scores"]["red"] == 4 and state["scores"]["blue"] == 4
    assert state["meeples"] == {"red": 0, "blue": 0, "green": 0}
    refused(config, state, "gift_open", card="synod")                           # one gift opened per turn


def test_tv_c8_cash_out_scores_two_per_meeple_including_the_one_taken_back():
    config, state = table([("begin", {}), ("meeple", {"player": "red", "delta": 1}), *GIFTED[1:],
                           ("gift_open", {"card": "cash_out"}), ("cash_out", {"meeples": 3})])
    assert state["scores"]["red"] == 6 and state["meeples"]["red"] == 0


def test_tv_c9_change_position_changes_no_score():
    config, state = table([*GIFTED, ("gift_open", {"card": "change_position"})])
    assert state["scores"] == {"red": 0, "blue": 0, "green": 0} and state["gifts"]["discard"] == 1


def test_gift_deck_one_per_turn_reshuffle_and_no_gift_when_all_are_held():
    config, state = table([("begin", {}), ("gift_draw", {})])
    refused(config, state, "gift_draw")                                        # one gift per turn
    for _ in range(24):
        state = flow.apply(cc.GAME, config, state, {"type": "next_turn", "args": {}})
        state = flow.apply(cc.GAME, config, state, {"type": "gift_draw", "args": {}})
    assert state["gifts"]["deck"] == 0 and sum(state["gifts"]["held"].values()) == 25
    state = flow.apply(cc.GAME, config, state, {"type": "next_turn", "args": {}})
    refused(config, state, "gift_draw")                                        # all 25 in hands
    state = flow.apply(cc.GAME, config, state, {"type": "gift_open", "args": {"card": "take_2"}})
    state = flow.apply(cc.GAME, config, state, {"type": "gift_draw", "args": {}})   # reshuffled
    assert state["gifts"]["deck"] == 0 and state["gifts"]["discard"] == 0


def test_at_most_seven_meeples_on_the_board():
    config, state = table([("begin", {}), *[("meeple", {"player": "red", "delta": 1})] * 7])
    refused(config, state, "meeple", player="red", delta=1)
    refused(config, state, "meeple", player="blue", delta=-1)


def test_final_tally_counts_only_meeples_that_are_on_the_board():
    """Each meeple on the board stands in one unfinished feature or field: the tally cannot give a
    player more than the board count says are out (the walk found it accepted any up to 7)."""
    config, state = table([("begin", {}), ("meeple", {"player": "red", "delta": 1}), ("end_game", {})])
    refused(config, state, "tally_feature", type="road", tiles=3, meeples={"blue": 1})   # blue has none out
    state = flow.apply(cc.GAME, config, state, {"type": "tally_feature",
                                                "args": {"type": "road", "tiles": 3, "meeples": {"red": 1}}})
    refused(config, state, "tally_feature", type="road", tiles=2, meeples={"red": 1})    # that one is counted


def test_final_tally_one_category_at_a_time_then_the_winner():
    config, state = table([("begin", {}), ("gift_draw", {}), ("meeple", {"player": "red", "delta": 1}),
                           ("meeple", {"player": "blue", "delta": 1}), ("end_game", {}),
                           ("tally_feature", {"type": "road", "tiles": 3, "meeples": {"red": 1}})])
    refused(config, state, "tally_feature", type="city", tiles=2, meeples={})   # not the current category
    refused(config, state, "finish")                                           # review first
    for kind, args in [("tally_next", {}), ("tally_next", {}), ("tally_next", {}),
                       ("tally_feature", {"type": "field", "cities": 1, "meeples": {"blue": 1}}), ("tally_next", {}),
                       ("finish", {})]:
        state = flow.apply(cc.GAME, config, state, {"type": kind, "args": args})
    result = cc.GAME.result(state, config)
    assert {p["id"]: p["total"] for p in result["players"]} == {"red": 3 + 2, "blue": 3, "green": 0}
    assert result["winners"] == ["red"]


# -- the table of allowed actions (issue 22) and the gifts' timing (issue 26) --------------------------


def where(config, state):
    return cc.guide(state, config).where.english(lambda key: key.rsplit(".", 2)[-2])


def test_the_header_follows_the_step_the_turn_is_at():
    """Players met "Step 1 of 5" all turn long: the step now follows what was entered."""
    config, state = table([("begin", {})])
    assert where(config, state) == "Step 1 of 5: draw"
    steps = []
    for kind, args in [("meeple", {"player": "blue", "delta": 1}),            # another's correction: no step
                       ("gift_draw", {}),                                     # received after placing
                       ("meeple", {"player": "red", "delta": 1}),
                       ("score_feature", {"type": "road", "tiles": 2, "meeples": {"red": 1}}),
                       ("meeple", {"player": "red", "delta": 1})]:            # never back
        state = flow.apply(cc.GAME, config, state, {"type": kind, "args": args})
        steps.append(where(config, state))
    assert steps == ["Step 1 of 5: draw", "Step 3 of 5: place", "Step 4 of 5: meeple", "Step 5 of 5: score",
                     "Step 5 of 5: score"]
    state = flow.apply(cc.GAME, config, state, {"type": "next_turn", "args": {}})
    assert where(config, state) == "Step 1 of 5: draw" and cc.guide(state, config).actor == "blue"
    config, state = table([*GIFTED, ("gift_open", {"card": "take_2"})])
    assert where(config, state) == "Step 2 of 5: gift"


def test_a_gift_is_opened_before_placing_and_from_the_turn_after_it_was_received():
    config, state = table([("begin", {}), ("gift_draw", {})])
    error = refused(config, state, "gift_open", card="take_2")
    assert "received this turn" in error.msg.english()
    state = flow.apply(cc.GAME, config, state, {"type": "goto_step", "args": {"step": "gift"}})
    assert "received this turn" in refused(config, state, "gift_open", card="take_2").msg.english()
    config, state = table(GIFTED)                                             # Rut's next turn
    assert cc.moves(state, config)["gift_open"].by == {"red"}
    placed = flow.apply(cc.GAME, config, state, {"type": "meeple", "args": {"player": "red", "delta": 1}})
    assert "already placed" in refused(config, placed, "gift_open", card="take_2").msg.english()
    at_place = flow.apply(cc.GAME, config, state, {"type": "goto_step", "args": {"step": "place"}})
    assert "already placed" in refused(config, at_place, "gift_open", card="take_2").msg.english()
    other = flow.apply(cc.GAME, config, state, {"type": "next_turn", "args": {}})
    assert refused(config, other, "gift_open", card="take_2").msg.english() == "Bob holds no gift card."
    state = flow.apply(cc.GAME, config, state, {"type": "gift_open", "args": {"card": "take_2"}})
    assert state["gifts"]["held"]["red"] == 0 and state["gifts"]["discard"] == 1


def test_the_turn_and_its_gifts_are_the_player_on_turn_s():
    config, state = table([*GIFTED, ("gift_open", {"card": "synod"})])
    table_ = cc.moves(state, config)
    assert {k for k, rule in table_.items() if rule.by == {"red"}} == {"goto_step", "next_turn", "gift_draw",
                                                                       "synod"}
    assert table_["meeple"].by is None and table_["score_feature"].by is None
    assert refused(config, state, "next_turn", player="blue").field == "player"
    state = flow.apply(cc.GAME, config, state, {"type": "synod", "args": {}})
    assert state["meeples"]["red"] == 1 and state["gifts"]["opened"] == "done"
    assert refused(config, state, "synod").msg.english() == "Open that gift first."


def test_meeple_counts_are_corrected_in_the_final_tally():
    """Players could not fix a meeple the count had missed once the tally had begun."""
    config, state = table([("begin", {}), ("meeple", {"player": "red", "delta": 1}), ("end_game", {})])
    state = flow.apply(cc.GAME, config, state, {"type": "meeple", "args": {"player": "blue", "delta": 1}})
    state = flow.apply(cc.GAME, config, state, {"type": "tally_feature",
                                                "args": {"type": "road", "tiles": 2, "meeples": {"blue": 1}}})
    error = refused(config, state, "meeple", player="blue", delta=-1)          # that one is counted
    assert "already counted" in error.msg.english()
    state = flow.apply(cc.GAME, config, state, {"type": "meeple", "args": {"player": "red", "delta": -1}})
    assert state["meeples"] == {"red": 0, "blue": 1, "green": 0}


def shell_at(actions, me=None):
    from tests.test_screens import shell_on
    return shell_on("carcassonne", SESSION, actions, me)


def test_the_eighth_meeple_is_greyed_and_a_tap_says_why_next_to_it():
    from tests.test_screens import by_id, words
    vm, shell = shell_at([("begin", {}), *[("meeple", {"player": "red", "delta": 1})] * 7])
    vm.set_language("en")
    log = list(vm.session["log"])
    by_id(shell.page, "meeple-red-plus").on_click(None)
    assert vm.session["log"] == log and vm.problem.text == "A player has 7 meeples to place."
    shell.render()
    assert words(by_id(shell.page, "error-meeple-red")) == "A player has 7 meeples to place."
    assert vm.problem.text in words(by_id(shell.page, "banner"))
    by_id(shell.page, "meeple-blue-minus").on_click(None)                    # none out: says so too
    shell.render()
    assert words(by_id(shell.page, "error-meeple-blue")) == "None of this player's meeples is on the board."


def test_an_owned_phone_greys_the_turn_and_the_meeples_of_another_player():
    import flet as ft
    from tests.test_screens import by_id, controls_of
    vm, shell = shell_at([("begin", {})], me="blue")
    vm.set_language("en")
    next_turn = next(c for c in controls_of(shell.page.controls)
                     if isinstance(c, ft.Semantics) and c.identifier == "next-turn")
    assert next_turn.data.refusal and "Bob" in next_turn.data.refusal
    next_turn.content.on_click(None)
    assert vm.session["log"][-1]["type"] == "begin" and "Bob" in vm.problem.text
    assert by_id(shell.page, "step-place").data.refusal == next_turn.data.refusal
    assert by_id(shell.page, "meeple-blue-plus").data.refusal is None       # Bob's own meeples
    red = by_id(shell.page, "meeple-red-plus")                               # Rut's: on her phone (or a free one)
    assert red.data.refusal and "Bob" in red.data.refusal and "Rut" in red.data.refusal
    red.on_click(None)
    assert vm.session["log"][-1]["type"] == "begin" and vm.problem.text == red.data.refusal


# -- Czech (issue 26) ------------------------------------------------------------------------------


@pytest.mark.parametrize("meeples, said", [(1, "Výplata: 1 figurka, 2 body"), (2, "Výplata: 2 figurky, 4 body"),
                                           (3, "Výplata: 3 figurky, 6 bodů"), (5, "Výplata: 5 figurek, 10 bodů")])
def test_cash_out_is_described_with_czech_plurals_of_meeples_and_points(meeples, said):
    """It said "1 figurka, 2 bodů": the points took the meeples' plural form."""
    from companion.i18n import Translator
    config = cc.GAME.new_config(SESSION)
    msg = cc.describe({"type": "cash_out", "args": {"meeples": meeples}}, config)
    assert Translator("cs", lambda key, lang: key).msg(msg) == said


def test_the_czech_final_tally_is_the_box_s_zaverecne_vyhodnoceni():
    """The seed names it "Závěrečné vyhodnocení"; the app said "sčítání" and "bodování" as well."""
    from tests.test_czech import game_messages
    czech = game_messages("carcassonne")
    assert not [m for m, cs in czech.items() if "sčítání" in cs or "bodování" in cs.lower()]
    assert czech["Final tally"] == "Závěrečné vyhodnocení"


def test_the_feature_form_proposes_one_meeple_of_the_player_on_turn_only_when_one_is_out():
    """The player on turn completed the feature: with a meeple of theirs out, the form starts with one
    of them in it (a filled chip a tap empties); without one, nobody's is proposed. A player with one
    meeple out has one chip; with more, a chip per count."""
    from types import SimpleNamespace

    import flet as ft

    from tests.test_screens import by_id
    vm, shell = shell_at([("begin", {}), ("meeple", {"player": "red", "delta": 1}),
                          ("meeple", {"player": "blue", "delta": 1})])
    shell.render()
    by_id(shell.page, "f-type-city").on_click(None)
    assert shell.draft["feature"]["meeples"] == {"red": 1}
    assert isinstance(by_id(shell.page, "f-m-red"), ft.FilledButton)
    assert isinstance(by_id(shell.page, "f-m-blue"), ft.OutlinedButton)
    by_id(shell.page, "f-m-red").on_click(None)                           # one tap takes it out
    by_id(shell.page, "f-m-blue").on_click(None)                          # and puts Bob's in
    assert shell.draft["feature"]["meeples"] == {"red": 0, "blue": 1}
    assert isinstance(by_id(shell.page, "f-m-blue"), ft.FilledButton)
    vm, shell = shell_at([("begin", {}), *[("meeple", {"player": "red", "delta": 1})] * 2])
    shell.render()
    by_id(shell.page, "f-type-city").on_click(None)                      # two out: how many of them
    assert isinstance(by_id(shell.page, "f-m-red-1"), ft.FilledButton)
    by_id(shell.page, "f-m-red-2").on_click(SimpleNamespace(page=SimpleNamespace(data=shell)))
    assert shell.draft["feature"]["meeples"] == {"red": 2}
    vm, shell = shell_at([("begin", {}), ("meeple", {"player": "blue", "delta": 1})])   # Rut has none out
    shell.render()
    by_id(shell.page, "f-type-road").on_click(None)
    assert shell.draft["feature"]["meeples"] == {}
