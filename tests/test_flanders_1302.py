"""Flanders 1302: every worked example and tie rule of FACTS §1, the scoring contract, a session."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from companion import texts
from companion.engine import flow
from companion.engine.model import ALLOWED, InvalidAction
from companion.games.flanders_1302 import rules as fl
from tests.conftest import ROOT, SHARED, assert_refused, needs_shared
from tests.conftest import run_score as score

GAME_NAME = "flanders-1302"

G = fl.GAME


def city(quarters, church=0, cathedral=0, masters=None):
    return {"quarters": quarters, "church": church, "church_with_cathedral": cathedral, "masters": masters or {}}


# -- turn order (step 3) ------------------------------------------------------------------------

@pytest.mark.parametrize("seats, start, cards, expected", [
    pytest.param(["yellow", "green", "blue", "red"], 0, {"yellow": 1, "green": 2, "blue": 2, "red": 3},
                 ["red", "green", "blue", "yellow"], id="TV-F1-rulebook"),
    pytest.param(["yellow", "green", "blue", "red"], 0, {"yellow": 1, "green": 1, "blue": 1, "red": 1},
                 ["yellow", "green", "blue", "red"], id="all-one-card-start-player-begins"),
    pytest.param(["yellow", "green", "blue", "red"], 2, {"yellow": 2, "green": 2, "blue": 2, "red": 2},
                 ["blue", "red", "yellow", "green"], id="all-tied-clockwise-from-start"),
    pytest.param(["blue", "red", "green"], 1, {"blue": 3, "red": 1, "green": 3},
                 ["green", "blue", "red"], id="tie-seat-after-start-wins"),
])
def test_turn_order_most_cards_first_ties_by_seat(seats, start, cards, expected):
    """Most cards first; a tie goes to the player closest clockwise to the start player."""
    assert fl.turn_order(seats, start, cards) == expected


# -- city scoring (step 6) ------------------------------------------------------------------------

LIEGE = city({"blue": 3, "yellow": 2, "red": 2, "green": 2, "grey": 2}, 1, 1,
             {"blue": 2, "yellow": 3, "red": 1, "green": 1, "grey": 1})


@pytest.mark.parametrize("entry, value, points", [
    pytest.param(LIEGE, 16, {"blue": 16, "yellow": 8, "red": 0, "green": 0, "grey": 0}, id="TV-F2-liege"),
    pytest.param(city({"blue": 3, "red": 3, "green": 1}, 1), 9, {"blue": 5, "red": 5, "green": 4},
                 id="TV-F3-shared-first-both-take-second-half-rounded-up"),
    pytest.param(city({"blue": 3, "red": 2, "green": 2, "yellow": 1}, cathedral=1), 11,
                 {"blue": 11, "red": 4, "green": 4, "yellow": 2}, id="shared-second-takes-third"),
    pytest.param(city({"blue": 2, "red": 2, "green": 2, "grey": 1}, 1, 0,
                      {"blue": 1, "red": 1, "green": 1}), 9,
                 {"blue": 4, "red": 4, "green": 4, "grey": 2}, id="three-way-tie-for-first"),
    pytest.param(city({"blue": 2, "red": 2}, 0, 0, {"red": 1}), 4, {"red": 4, "blue": 2},
                 id="masters-break-tie"),
    pytest.param(city({"blue": 2, "grey": 1, "red": 0}, 1), 5, {"blue": 5, "grey": 3, "red": 0, "green": 0},
                 id="absent-guilds-do-not-rank"),
    pytest.param(city({"blue": 4, "yellow": 3, "grey": 2, "red": 1, "green": 1}, 2), 15,
                 {"blue": 15, "yellow": 8, "grey": 4, "red": 0, "green": 0}, id="odd-value-fifth-place-zero"),
    pytest.param(city({"blue": 1, "yellow": 1, "green": 1, "red": 1, "grey": 1}), 5,
                 {g: 0 for g in fl.GUILDS}, id="five-way-tie-all-take-fifth"),
])
def test_city_scoring(entry, value, points):
    result = fl.score_city(entry)
    assert result["value"] == value
    assert {g: result["points"][g] for g in points} == points


def test_city_value_ignores_construction_sites_and_counts_cathedrals():
    """Only completed quarters count (the form asks for completed ones): 1 / 2 / 3 per quarter."""
    assert fl.city_value(city({"blue": 1}, church=2, cathedral=1)) == 1 + 4 + 3


def test_city_scoring_explains_the_tie_rules():
    lines = [m.english() for m in fl.score_city(LIEGE)["explain"]]
    assert lines[0].endswith("= 16")
    assert any("wins the tie with more guild masters" in line for line in lines)
    assert any("share places 3–5" in line and "place 5" in line for line in lines)


# -- final scoring -----------------------------------------------------------------------------------

@pytest.mark.parametrize("cards, bonus", [
    pytest.param({"blue": 2, "red": 2, "green": 0}, {"blue": 3, "red": 3, "green": 0}, id="TV-F4-tied-most-both-3"),
    pytest.param({"blue": 1, "red": 3, "green": 0}, {"blue": 0, "red": 3, "green": 0}, id="single-most"),
    pytest.param({"blue": 0, "red": 0, "green": 0}, {"blue": 0, "red": 0, "green": 0}, id="none-held-no-bonus"),
])
def test_influence_bonus(cards, bonus):
    players = [{"id": c, "influence_cards": n} for c, n in cards.items()]
    result = fl.final_scores(fl.STANDARD, players, [])
    assert {p["id"]: p["breakdown"]["influence"] for p in result["players"]} == bonus


def test_two_player_total_is_own_plus_influenced_guild():
    cities = [city({"blue": 3, "red": 2, "green": 1}, 1)]  # value 8: blue 8, red 4, green 4
    players = [{"id": "blue", "influenced_guild": "green"}, {"id": "yellow", "influenced_guild": "red"}]
    result = fl.final_scores(fl.TWO_PLAYER, players, cities)
    assert [p["breakdown"] for p in result["players"]] == [{"own": 8, "influenced": 4}, {"own": 0, "influenced": 4}]
    assert result["winners"] == ["blue"]


def test_tied_winners_share_first_place():
    players = [{"id": "blue", "influence_cards": 1}, {"id": "red", "influence_cards": 1},
               {"id": "green", "influence_cards": 0}]
    result = fl.final_scores(fl.STANDARD, players, [city({"blue": 2, "red": 2})])
    assert [p["place"] for p in result["players"]] == [1, 1, 3]
    assert result["winners"] == ["blue", "red"]


# -- companion score ------------------------------------------------------------------------------------

def run_score(payload, *args):
    return score(GAME_NAME, payload, *args)


@needs_shared
def test_explanations_name_cities_in_english():
    path = SHARED / "examples" / "flanders-1302.liege.input.json"
    done = run_score(path.read_text())
    assert any("Liège" in line for line in json.loads(done.stdout)["explain"])


@needs_shared
def test_score_reads_a_file_argument():
    found = sorted((SHARED / "examples").glob("flanders-1302.*.input.json"))
    assert found, f"{SHARED / 'examples'} has no Flanders example"
    path = found[0]
    done = run_score("", str(path))
    assert done.returncode == 0 and json.loads(done.stdout)["winners"] == ["blue"]


BASE = {"players": [{"id": "blue", "influence_cards": 1}, {"id": "red", "influence_cards": 0},
                    {"id": "green", "influence_cards": 0}],
        "cities": [{"name": "ghent", "quarters": {"blue": 2, "red": 1}}]}


def changed(path, value):
    data = json.loads(json.dumps(BASE))
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize("payload, field", [
    pytest.param("{not json", "JSON", id="malformed"),
    pytest.param(changed(["players", 1, "influence_cards"], -3), "players[1].influence_cards", id="negative"),
    pytest.param(dict(BASE, players=[{"id": c, "influence_cards": 20} for c in ("blue", "red", "green")]),
                 "players[1].influence_cards", id="more-gold-influence-cards-in-all-than-the-28-gold-cards"),
    pytest.param(changed(["players", 1, "influence_cards"], "2"), "players[1].influence_cards", id="mistyped"),
    pytest.param(changed(["players", 1, "influence_cards"], KeyError), "players[1].influence_cards", id="missing"),
    pytest.param(changed(["players", 1, "id"], "blue"), "players[1].id", id="duplicate-id"),
    pytest.param(changed(["players", 1, "id"], "purple"), "players[1].id", id="unknown-colour"),
    pytest.param(changed(["players"], [{"id": "blue", "influence_cards": 0}]), "players", id="one-player"),
    pytest.param(changed(["players"], BASE["players"][:2]), "players", id="standard-game-with-two-players"),
    pytest.param(dict(BASE, cities=[{"quarters": {}}] * 6), "cities", id="three-players-score-the-empty-city"),
    pytest.param(dict(BASE, players=[*BASE["players"], {"id": "yellow", "influence_cards": 0}],
                      cities=[{"quarters": {}}] * 7), "cities", id="more-cities-than-the-board"),
    pytest.param(changed(["cities", 0, "quarters", "blue"], 17), "cities[0].quarters.blue", id="above-box"),
    pytest.param(changed(["cities", 0, "quarters", "yellow"], 1), "cities[0].quarters.yellow", id="guild-not-in-game"),
    pytest.param(changed(["cities", 0, "church_with_cathedral"], 5), "cities[0].church_with_cathedral",
                 id="five-cathedrals"),
    pytest.param(changed(["cities", 0, "masters"], {"green": 1}), "cities[0].masters.green",
                 id="masters-without-quarters"),
    pytest.param(changed(["cities", 0, "name"], "paris"), "cities[0].name", id="unknown-city"),
    pytest.param(changed(["cities", 0, "quaters"], {}), "cities[0].quaters", id="typo-key"),
    pytest.param(changed(["options"], ["three-player"]), "options[0]", id="unknown-option"),
    pytest.param(changed(["game"], "village"), "game", id="other-game"),
    pytest.param(dict(BASE, cities=BASE["cities"] * 2), "cities[1].name", id="city-twice"),
    pytest.param(dict(BASE, cities=[{"quarters": {"blue": 9}}, {"quarters": {"blue": 8}}]), "cities.quarters.blue",
                 id="total-above-box"),
    pytest.param({"options": ["two-player"], "players": [{"id": "blue", "influenced_guild": "red"},
                                                          {"id": "red", "influenced_guild": "green"}],
                  "cities": []}, "players[0].influenced_guild", id="influence-a-played-guild"),
    pytest.param({"options": ["two-player"], "players": [{"id": "blue", "influence_cards": 1},
                                                          {"id": "red", "influenced_guild": "green"}],
                  "cities": []}, "players[0]", id="two-player-with-influence-cards"),
])
def test_bad_input_exits_2_naming_the_field(payload, field):
    done = run_score(payload)
    assert_refused(done, field)


def test_two_players_are_sent_to_the_variant():
    done = run_score(changed(["players"], BASE["players"][:2]))
    assert "two-player" in done.stderr


def test_three_players_score_at_most_the_five_cities_in_play():
    """The city that stays empty is never scored: five cities, and six with 4 players."""
    assert json.loads(run_score(dict(BASE, cities=[{"quarters": {"grey": 1}}] * 5)).stdout)["winners"]
    four = dict(BASE, players=[*BASE["players"], {"id": "yellow", "influence_cards": 0}],
                cities=[{"quarters": {"grey": 1}}] * 6)
    assert run_score(four).returncode == 0


def test_an_unknown_game_exits_2():
    done = subprocess.run([sys.executable, "-m", "companion", "score", "chess"], input="{}",
                          capture_output=True, text=True, cwd=ROOT, timeout=30)
    assert done.returncode == 2 and "unknown game" in done.stderr and done.stdout == ""


def test_deeply_nested_input_is_refused_cleanly():
    done = run_score("[" * 100000 + "]" * 100000)
    assert done.returncode == 2 and "Traceback" not in done.stderr


# -- a session through the engine ---------------------------------------------------------------------

FOUR = {"variant": "standard", "start": 0, "players": [
    {"colour": "yellow", "name": "Yvona"}, {"colour": "green", "name": "Gustav"},
    {"colour": "blue", "name": "Bára"}, {"colour": "red", "name": "Radek"}]}


REVEAL, SCORING = ("goto_step", {"step": "reveal"}), ("goto_step", {"step": "scoring"})


def play(config_form, actions):
    config = G.new_config(config_form)
    state = flow.initial(G, config)
    for kind, args in actions:
        state = flow.apply(G, config, state, {"type": kind, "args": args})
    return config, state


def test_setup_checklist_for_three_players_names_the_empty_city():
    form = dict(FOUR, players=FOUR["players"][:3], empty_city="utrecht")
    items = G.setup_items(G.new_config(form))
    ids = [i["id"] for i in items]
    assert "unused_guild" in ids and "empty_city" in ids and "all_cities" not in ids
    assert next(i for i in items if i["id"] == "empty_city")["params"]["city"].key == "flanders_1302.city.utrecht"


def test_the_three_player_checklist_never_puts_a_centre_in_the_empty_city():
    """The empty city is named before any city centre is placed, and both centre items exclude it
    (the walk found a checklist that said to place the two extra centres in 'the remaining cities')."""
    form = dict(FOUR, players=FOUR["players"][:3], empty_city="utrecht")
    items = G.setup_items(G.new_config(form))
    ids = [i["id"] for i in items]
    assert "centres" not in ids and "neutral_centres" not in ids
    assert ids.index("empty_city") < ids.index("centres_three") < ids.index("neutral_centres_three")
    all_texts, _sections = texts.load_all()
    for item in ("centres_three", "neutral_centres_three"):
        for lang in ("en", "cs"):
            assert "{city}" in all_texts[f"flanders_1302.setup.{item}"][lang]


def test_the_standard_game_is_for_three_or_four_players():
    """Two players play the two-player variant (rulebook "Pravidla pro 2 hráče"; FACTS §1.1, §1.9)."""
    with pytest.raises(InvalidAction) as error:
        G.new_config(dict(FOUR, players=FOUR["players"][:2]))
    assert error.value.field == "players" and "two-player variant" in error.value.msg.english()


def test_three_players_never_score_the_empty_city():
    config, state = play(dict(FOUR, players=FOUR["players"][:3], empty_city="utrecht"), [("begin", {}), SCORING])
    with pytest.raises(InvalidAction) as error:
        flow.apply(G, config, state, {"type": "score_city", "args": {"city": "utrecht", "quarters": {"grey": 1}}})
    assert error.value.field == "city"


def test_three_players_are_told_the_empty_city_does_not_count_for_the_end():
    form = dict(FOUR, players=FOUR["players"][:3], empty_city="utrecht")
    assert fl.end_question(G.new_config(form)) == "end.board_three"
    assert fl.end_question(G.new_config(FOUR)) == "end.board"


def test_three_players_need_an_empty_city():
    with pytest.raises(InvalidAction) as error:
        G.new_config(dict(FOUR, players=FOUR["players"][:3]))
    assert error.value.field == "empty_city"


def test_two_player_variant_setup_and_steps():
    form = {"variant": "two-player", "start": 1, "players": FOUR["players"][:2],
            "influenced": {"yellow": "red", "green": "blue"}}
    config = G.new_config(form)
    ids = [i["id"] for i in G.setup_items(config)]
    assert {"two_general", "two_deck", "two_influenced"} <= set(ids) and "gold_decks" not in ids
    assert [s.id for s in G.steps(config)] == ["own", "influenced", "scoring"]
    assert set(flow.initial(G, config)["scores"]) == set(fl.GUILDS)


def test_played_influence_cards_leave_the_game_and_are_limited():
    config, state = play(FOUR, [("begin", {}), REVEAL,
                                ("turn_order", {"cards": {"yellow": 1, "green": 4, "blue": 2, "red": 3}})])
    assert state["influence"] == {"yellow": 3, "green": 0, "blue": 2, "red": 1}
    for action in (SCORING, ("end_round", {"board": False, "deck": False}), REVEAL):
        state = flow.apply(G, config, state, {"type": action[0], "args": action[1]})
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(InvalidAction) as error:
        flow.apply(G, config, state, {"type": "turn_order", "args": {"cards": {"yellow": 1, "green": 2, "blue": 1, "red": 1}}})
    assert error.value.field == "cards.green"
    assert json.dumps(state, sort_keys=True) == before
    state = flow.apply(G, config, state, {"type": "goto_step", "args": {"step": "start_gold"}})
    state = flow.apply(G, config, state, {"type": "gold_influence", "args": {}})
    assert state["influence"]["green"] == 1  # green is the start player of round 2


def test_full_game_to_the_winner():
    config, state = play(FOUR, [
        ("begin", {}), SCORING,
        ("score_city", dict(city="liege", **LIEGE)),
        ("end_round", {"board": False, "deck": True}),
        *[("score_city", {"city": c, "quarters": {"grey": 1}}) for c in ("bruges", "ghent", "ypres", "leuven", "utrecht")],
        ("finish", {"cards": {"yellow": 1, "green": 0, "blue": 1, "red": 0}}),
    ])
    assert state["phase"] == "over"
    result = G.result(state, config)
    assert result["winners"] == ["blue"]
    assert {p["id"]: p["total"] for p in result["players"]} == {"yellow": 11, "green": 0, "blue": 19, "red": 0}


def test_influence_cards_in_hand_at_the_end_stay_within_the_box():
    """3 silver per player and at most the 28 gold cards among all hands."""
    config, state = play(FOUR, [("begin", {}), SCORING, ("end_round", {"board": False, "deck": True}),
                                *[("score_city", {"city": c, "quarters": {"grey": 1}}) for c in fl.CITIES]])
    with pytest.raises(InvalidAction) as error:
        flow.apply(G, config, state, {"type": "finish", "args": {"cards": {"yellow": 20, "green": 20, "blue": 0,
                                                                            "red": 0}}})
    assert error.value.field == "cards.green"


def test_cannot_finish_before_every_city_is_scored():
    config, state = play(FOUR, [("begin", {}), SCORING, ("end_round", {"board": True, "deck": False})])
    with pytest.raises(InvalidAction):
        flow.apply(G, config, state, {"type": "finish", "args": {"cards": {"yellow": 0, "green": 0, "blue": 0,
                                                                            "red": 0}}})


def test_a_city_is_scored_once_and_counts_stay_within_the_box():
    config, state = play(FOUR, [("begin", {}), SCORING, ("score_city", {"city": "ghent", "quarters": {"blue": 10}})])
    for args in ({"city": "ghent", "quarters": {"blue": 1}}, {"city": "ypres", "quarters": {"blue": 7}},
                 {"city": "ypres", "quarters": {"blue": -1}}):
        with pytest.raises(InvalidAction):
            flow.apply(G, config, state, {"type": "score_city", "args": args})


def test_manual_correction_needs_a_reason_and_counts_at_the_end():
    config, state = play(FOUR, [("begin", {})])
    with pytest.raises(InvalidAction) as error:
        flow.apply(G, config, state, {"type": "correct", "args": {"track": "red", "points": 2, "reason": " "}})
    assert error.value.field == "reason"
    state = flow.apply(G, config, state, {"type": "correct", "args": {"track": "red", "points": 2, "reason": "missed"}})
    assert state["scores"]["red"] == 2
    assert next(p for p in G.result(state, config)["players"] if p["id"] == "red")["breakdown"]["corrections"] == 2


def test_a_correction_for_one_player_is_a_category_for_every_player_and_the_result_draws():
    """Issue 33: a correction for one player gave only his breakdown a "corrections" category; the
    result screen's chart reads every category of every row and raised KeyError, and the history
    refused the summary. Every player's breakdown has the same categories."""
    from companion.store import Store
    from companion.ui.app import Shell
    from companion.ui.viewmodel import ViewModel
    from tests.test_screens import Page

    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    assert vm.new_game("flanders_1302", FOUR)
    for kind, args in [("begin", {}), ("correct", {"track": "red", "points": 2, "reason": "missed"}), SCORING,
                       ("end_round", {"board": True, "deck": False}),
                       *[("score_city", {"city": c, "quarters": {"grey": 1}}) for c in fl.CITIES],
                       ("finish", {"cards": {"yellow": 0, "green": 0, "blue": 0, "red": 0}})]:
        assert vm.dispatch(kind, **args), (kind, vm.problem)
    result = G.result(vm.state, vm.session["config"])
    assert [sorted(p["breakdown"]) for p in result["players"]] == [["cities", "corrections", "influence"]] * 4
    assert {p["id"]: p["breakdown"]["corrections"] for p in result["players"]} == {
        "yellow": 0, "green": 0, "blue": 0, "red": 2}
    assert vm.route == "result"
    for lang in ("cs", "en"):
        vm.set_language(lang)
    assert vm.store.sessions("finished")[0]["result"]["players"][3]["breakdown"]["corrections"] == 2
    assert vm.view(vm.session["id"])
    shell.render()


def test_a_city_holding_only_its_neutral_centre_is_scored_and_the_game_ends():
    """Issue 33: with 3 or 4 players two cities get a neutral city centre (the rulebook's Utrecht and
    Liège centres). A city whose only completed quarter is its neutral centre could not be scored
    ("nothing entered"), and Finish needs every city scored. The centre is a quarter (rulebook: "the
    city centre is also a quarter"): it counts 1 toward the city's value and ranks no guild."""
    config, state = play(FOUR, [("begin", {}), SCORING, ("end_round", {"board": True, "deck": False}),
                                *[("score_city", {"city": c, "quarters": {"grey": 1}}) for c in fl.CITIES[:-1]],
                                ("score_city", {"city": "liege", "quarters": {}, "neutral_centre": 1}),
                                ("finish", {"cards": {"yellow": 0, "green": 0, "blue": 0, "red": 0}})])
    assert state["phase"] == "over" and state["cities"]["liege"]["neutral_centre"] == 1
    assert fl.city_value(state["cities"]["liege"]) == 1
    assert fl.score_city(state["cities"]["liege"])["points"] == {g: 0 for g in fl.GUILDS}
    with_centre = fl.score_city(fl.check_city({"quarters": {"blue": 2, "red": 1}, "neutral_centre": 1}, "",
                                              "standard", list(fl.GUILDS)))
    assert with_centre["value"] == 4 and with_centre["points"]["blue"] == 4 and with_centre["points"]["red"] == 2
    done = run_score({"players": [{"id": c, "influence_cards": 0} for c in ("yellow", "green", "blue", "red")],
                      "cities": [{"name": "liege", "quarters": {}, "neutral_centre": 1},
                                 {"name": "ghent", "quarters": {"blue": 2}, "neutral_centre": 1}]})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["guilds"]["blue"] == 3
    too_many = run_score({"players": [{"id": c, "influence_cards": 0} for c in ("yellow", "green", "blue")],
                          "cities": [{"name": c, "quarters": {}, "neutral_centre": 1} for c in ("liege", "ghent", "ypres")]})
    assert too_many.returncode == 2 and "neutral_centre" in too_many.stderr


def test_city_lines_name_the_players_and_leave_out_what_is_not_there():
    """The walk found lines naming guild colours, not players, and a two-player city saying "with a
    cathedral 0 × 3" (the variant has no cathedrals)."""
    lines = [m.english() for m in fl.score_city(city({"blue": 3, "red": 2}, church=1),
                                                  {"blue": "Anna", "red": "Bořek"})["explain"]]
    assert lines[0] == "City value: guild quarters 5 × 1 + church quarters 1 × 2 = 7"
    assert any(line.startswith("Anna: quarters 3") for line in lines)
    assert any(line.startswith("Bořek: quarters 2") for line in lines)
    assert "cathedral" not in fl.score_city(city({"blue": 1}))["explain"][0].english()


# -- the table of allowed actions and who acts now (issue 22) ------------------------------------------

def test_the_header_names_the_player_on_turn_in_step_4_not_the_start_player():
    """Step 4 named the start player (Yvona) while the turn order put Gustav first."""
    config, state = play(FOUR, [("begin", {}), REVEAL,
                                ("turn_order", {"cards": {"yellow": 1, "green": 3, "blue": 2, "red": 1}})])
    assert state["step"] == "actions"
    order = []
    while state["step"] == "actions":
        header = G.guide(state, config)
        order.append(header.actor)
        assert G.moves(state, config)["action_done"].by == {header.actor}
        state = flow.apply(G, config, state, {"type": "action_done", "args": {"player": header.actor}})
    assert order == ["green", "blue", "yellow", "red"] and state["step"] == "start_gold"


def test_everyone_having_acted_is_one_entry_after_the_first_actions_or_none():
    """Issue 35: step 4 is over in one entry (the actions are carried out in the turn order all the
    same: the app only records that they are): from the start of step 4 or after some players' own
    entries; anyone at the table may enter it; refused before the order is worked out and after."""
    config, state = play(FOUR, [("begin", {}), REVEAL])
    assert G.moves(state, config)["all_acted"].refusal.english().startswith("The players carry out their actions")
    state = flow.apply(G, config, state, {"type": "turn_order",
                                          "args": {"cards": {"yellow": 1, "green": 3, "blue": 2, "red": 1}}})
    assert G.moves(state, config)["all_acted"] == ALLOWED
    state = flow.apply(G, config, state, {"type": "action_done", "args": {"player": "green"}})
    state = flow.apply(G, config, state, {"type": "all_acted", "args": {}})
    assert state["step"] == "start_gold" and state["order"]["acted"] == 4 and fl.on_turn(state, config) is None
    state = flow.apply(G, config, state, {"type": "goto_step", "args": {"step": "actions"}})
    assert "Every player has carried out" in G.moves(state, config)["all_acted"].refusal.english()
    assert G.describe({"type": "all_acted", "args": {}}, config).english() == "Every player carried out the action"


@pytest.mark.parametrize("step, actor", [
    ("gold_card", "green"), ("choose", None), ("reveal", None), ("actions", None), ("start_gold", "green"),
    ("scoring", None)])
def test_the_header_names_the_start_player_only_where_the_start_player_acts(step, actor):
    """Round 2 (start player green): the start player takes and reveals the gold card; everyone
    chooses and reveals at once; the table scores (step 4 without a turn order: nobody in particular)."""
    config, state = play(FOUR, [("begin", {}), SCORING, ("end_round", {"board": False, "deck": False}),
                                ("goto_step", {"step": step})])
    assert G.guide(state, config).actor == actor
    gold = G.moves(state, config)["gold_influence"]
    assert (gold.refusal is None) == (step == "start_gold") and (gold.by == {"green"} if step == "start_gold" else True)


def test_the_two_player_header_and_the_end_of_the_turn_name_the_player_on_turn():
    form = {"variant": "two-player", "start": 1, "players": FOUR["players"][:2],
            "influenced": {"yellow": "red", "green": "blue"}}
    config, state = play(form, [("begin", {}), SCORING])
    assert G.guide(state, config).actor == "green"
    assert G.moves(state, config)["end_round"].by == {"green"}
    with pytest.raises(InvalidAction) as error:
        flow.apply(G, config, state, {"type": "end_round", "args": {"board": False, "player": "yellow"}})
    assert error.value.field == "player"
    state = flow.apply(G, config, state, {"type": "end_round", "args": {"board": False}})
    assert G.guide(state, config).actor == "yellow"


@pytest.mark.parametrize("actions, kind, reason", [
    pytest.param([], "score_city", "Completed cities are scored in step 6.", id="city-outside-step-6"),
    pytest.param([("goto_step", {"step": "start_gold"})], "turn_order", "The cards are revealed in step 3",
                 id="order-after-step-3"),
    pytest.param([REVEAL, ("turn_order", {"cards": {"yellow": 1, "green": 1, "blue": 1, "red": 1}}), REVEAL],
                 "turn_order", "already set", id="order-twice"),
    pytest.param([("goto_step", {"step": "actions"})], "action_done", "Work out the turn order",
                 id="turn-without-an-order"),
    pytest.param([], "gold_influence", "in step 5", id="gold-outside-step-5"),
    pytest.param([("goto_step", {"step": "start_gold"}), ("gold_influence", {})], "gold_influence",
                 "one gold card per round", id="gold-twice"),
    pytest.param([], "end_round", "after step 6", id="round-end-outside-step-6"),
    pytest.param([], "finish", "final scoring begins", id="finish-during-a-round"),
    pytest.param([], "begin", "already begun", id="begin-twice"),
])
def test_the_table_refuses_out_of_step_actions_with_its_reason(actions, kind, reason):
    config, state = play(FOUR, [("begin", {}), *actions])
    rule = G.moves(state, config)[kind]
    assert rule.refusal is not None and reason in rule.refusal.english()
    with pytest.raises(InvalidAction) as error:
        flow.apply(G, config, state, {"type": kind, "args": {}})
    assert error.value.msg == rule.refusal


@pytest.mark.parametrize("step", ["gold_card", "choose", "reveal"])
def test_the_revealed_cards_can_be_entered_on_steps_1_to_3_and_step_4_follows(step):
    """Nothing is entered in steps 1 and 2, so the table may enter the cards revealed in step 3 on any
    of the three: the order is worked out and the actions begin; once set, it is not entered twice."""
    cards = {"yellow": 1, "green": 3, "blue": 2, "red": 1}
    config, state = play(FOUR, [("begin", {}), ("goto_step", {"step": step})])
    assert G.moves(state, config)["turn_order"].refusal is None
    state = flow.apply(G, config, state, {"type": "turn_order", "args": {"cards": cards}})
    assert state["step"] == "actions" and state["order"]["order"][0] == "green"
    state = flow.apply(G, config, state, {"type": "goto_step", "args": {"step": "gold_card"}})
    assert "already set" in G.moves(state, config)["turn_order"].refusal.english()


def test_finish_names_the_cities_still_to_score_before_the_reducer_runs():
    config, state = play(FOUR, [("begin", {}), SCORING, ("end_round", {"board": True, "deck": False})])
    rule = G.moves(state, config)["finish"]
    all_texts, _sections = texts.load_all()
    assert "Bruges" in rule.refusal.english(lambda key: all_texts[key]["en"])


def owned_phone(owner, actions):
    from companion.store import Store
    from companion.ui.app import Shell
    from companion.ui.viewmodel import ViewModel
    from tests.test_screens import Page
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm, join="http://table")
    assert vm.new_game(G.id, FOUR)
    for kind, args in actions:
        assert vm.dispatch(kind, **args), (kind, vm.problem)
    vm.me = owner
    return vm, shell


def drawn(shell, ident):
    from companion.ui.app import _walk
    from companion.ui.widgets import Act
    shell.render()
    return next(c for c in _walk(shell.page.controls) if isinstance(c.data, Act)
                and getattr(c, "identifier", None) == ident)


def test_an_owned_phone_greys_the_action_of_the_player_on_turn_and_a_tap_says_why():
    """Gustav's phone: Gustav acts first in step 4, so his button works there; on Yvona's phone the
    same button is greyed, and a tap says whose it is."""
    actions = [("begin", {}), REVEAL, ("turn_order", {"cards": {"yellow": 1, "green": 3, "blue": 2, "red": 1}})]
    vm, shell = owned_phone("green", actions)
    assert drawn(shell, "action-done").data.refusal is None
    vm, shell = owned_phone("yellow", actions)
    button = drawn(shell, "action-done")
    assert button.data.refusal and "Gustav" in button.data.refusal
    button.content.on_click(None)
    assert vm.problem.text == button.data.refusal and len(vm.session["log"]) == 3


def test_the_seal_button_of_table_mode_is_drawn_from_the_table():
    vm, shell = owned_phone("blue", [("begin", {}), REVEAL])
    seal = drawn(shell, "seal")
    assert seal.data.kind == "turn_order" and seal.data.player == "blue" and seal.data.refusal is None


# -- rules and Czech, round 3 (issue 26) ------------------------------------------------------------

def test_only_the_guild_that_wins_a_tie_on_quarters_is_said_to_win_it():
    """Blue and red tie on 2 quarters; red has the guild master. Both lines said "wins the tie"."""
    lines = [m.english() for m in fl.score_city(city({"blue": 2, "red": 2, "green": 1}, masters={"red": 1}),
                                                  {"blue": "Anna", "red": "Bořek", "green": "Cyril"})["explain"]]
    wins = [line for line in lines if "wins the tie" in line]
    loses = [line for line in lines if "loses the tie" in line]
    assert wins == ["Bořek ties on quarters with Anna and wins the tie with more guild masters."]
    assert loses == ["Anna ties on quarters with Bořek but loses the tie: fewer guild masters (0 against 1)."]


def test_a_guild_beaten_on_masters_by_a_tied_pair_says_it_lost():
    lines = [m.english() for m in fl.score_city(city({"blue": 2, "red": 2, "green": 2},
                                                     masters={"blue": 2, "red": 2, "green": 1}))["explain"]]
    assert not any("wins the tie" in line for line in lines)
    assert any("loses the tie" in line and "(1 against 2)" in line for line in lines)
    assert any("still tied after counting guild masters" in line for line in lines)


def test_a_city_with_nothing_entered_is_refused_in_the_app_and_by_score():
    config, state = play(FOUR, [("begin", {}), SCORING])
    with pytest.raises(InvalidAction) as error:
        flow.apply(G, config, state, {"type": "score_city", "args": {"city": "ghent", "quarters": {}}})
    assert error.value.field == "quarters" and "Nothing is entered" in error.value.msg.english()
    done = run_score(changed(["cities", 0, "quarters"], {"blue": 0}))
    assert_refused(done, "cities[0].quarters")
    assert "city centre" in done.stderr
    assert run_score(changed(["cities", 0], {"quarters": {}, "church": 1})).returncode == 0


def test_two_player_guild_masters_are_only_the_printed_ones():
    """The variant has no guild-master tiles: 2 printed per completed quarter, and the refusal says so."""
    assert fl.most_masters(2, fl.TWO_PLAYER) == 4 and fl.most_masters(2, fl.STANDARD) == 8
    assert fl.most_masters(0, fl.STANDARD) == 0
    two = {"options": ["two-player"], "players": [{"id": "blue", "influenced_guild": "red"},
                                                   {"id": "yellow", "influenced_guild": "green"}],
           "cities": [{"quarters": {"blue": 2, "red": 2}, "masters": {"blue": 5}}]}
    done = run_score(two)
    assert_refused(done, "cities[0].masters.blue")
    assert "no guild-master tiles" in done.stderr and "plus the tiles" not in done.stderr


def test_the_two_player_master_picker_offers_only_the_printed_masters():
    from companion.store import Store
    from companion.ui.app import Shell
    from companion.ui.viewmodel import ViewModel
    from tests.test_screens import TWO, Page, identifiers
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    assert vm.new_game(G.id, TWO)
    for kind, args in [("begin", {}), SCORING]:
        assert vm.dispatch(kind, **args)
    shell.draft["city"] = {"city": "ghent", "quarters": {"blue": 2, "red": 2}, "masters": {}, "church_all": 0,
                           "church_with_cathedral": 0, "at": ["m", "blue"],
                           "answered": [["q", g] for g in fl.GUILDS] + [["church", None]]}
    shell.render()
    ids = set(identifiers(shell.page.controls))
    assert "m-blue-4" in ids and "m-blue-5" not in ids


def flanders_texts(lang):
    all_texts, _sections = texts.load_all()
    return {k: v[lang] for k, v in all_texts.items() if k.startswith("flanders_1302.")}


def test_the_neutral_centres_are_never_confused_with_the_cities_of_the_same_name():
    """The checklist said "Place the two extra city centres, Utrecht and Liège ... never in {city}":
    with Utrecht as the empty city that read as a contradiction. Every text about the Utrecht and
    Liège centres calls them neutral centres, and the 3-player items say which city stays empty."""
    for lang, centres, neutral in (("en", r"Utrecht and Liège (city )?centres|centres?, Utrecht and Liège", "neutral"),
                                   ("cs", r"centr\w* Utrechtu a Liége|centra, Utrecht a Liége", "neutrální")):
        found = flanders_texts(lang)
        about = [k for k, v in found.items() if re.search(centres, v)]
        assert about and all(neutral in found[k] for k in about), [k for k in about if neutral not in found[k]]
        for item in ("setup.empty_city", "setup.centres_three", "setup.neutral_centres_three"):
            assert "{city}" in found[f"flanders_1302.{item}"]
        assert neutral in found["flanders_1302.setup.neutral_centres"]
    assert "whatever those cities are called" in flanders_texts("en")["flanders_1302.setup.neutral_centres_three"]


def test_only_played_influence_cards_are_said_to_leave_the_game():
    """"Influence cards do not come back" (the return card) read as if every influence card left the game."""
    wrong = r"(?<!played )(?<!Played )\binfluence cards? (do not come back|leaves?|left|are removed|is removed|are out)"
    for key, value in flanders_texts("en").items():
        assert not re.search(wrong, value, re.IGNORECASE), key
    assert "kept in hand stay" in flanders_texts("en")["flanders_1302.rule.return_card.body"]
    assert "v ruce, vám zůstávají" in flanders_texts("cs")["flanders_1302.rule.return_card.body"]


def test_step_4_without_a_turn_order_says_why_nobody_is_on_turn():
    from companion.ui.app import _walk
    vm, shell = owned_phone(None, [("begin", {}), ("goto_step", {"step": "actions"})])
    vm.set_language("en")
    shell.render()
    shown = [getattr(c, "value", None) for c in _walk(shell.page.controls)]
    assert "Work out the turn order in step 3 first: it says who acts when." in shown
    assert G.guide(vm.state, vm.session["config"]).actor is None


# -- issue 34 ---------------------------------------------------------------------------------------

def test_score_errors_name_the_cities_and_guilds_as_the_box_does():
    """`companion score` errors name a city or a guild as the box prints it, never by the key of the
    rule texts ("flanders_1302.guild.grey") or the contract's spelling ("liege")."""
    city = {"name": "liege", "quarters": {"blue": 3, "grey": 8}, "church": 0, "church_with_cathedral": 0}
    players = [{"id": c, "influence_cards": 0} for c in ("blue", "yellow", "red", "green")]
    twice = run_score({"game": "flanders-1302", "options": [], "players": players, "cities": [city, dict(city)]})
    assert_refused(twice, "cities[1].name")
    assert "Liège is scored twice" in twice.stderr
    grey = run_score({"game": "flanders-1302", "options": [], "players": players,
                      "cities": [city, dict(city, name="bruges")]})
    assert_refused(grey, "quarters.grey")
    assert "more Grey quarters in all cities" in grey.stderr and "flanders_1302." not in grey.stderr


@pytest.mark.parametrize("empty", ["utrecht", "liege", "ypres"])
def test_the_neutral_centres_setup_line_reads_true_whichever_city_stays_empty(empty):
    """With Liège the empty city, "None goes into Liège, not even when it is Utrecht or Liège" said the
    same thing twice and seemed to contradict itself: the line names the empty city once, as empty."""
    table = texts.load_all()[0]
    city = {lang: table[f"flanders_1302.city.{empty}"][lang] for lang in ("en", "cs")}
    for lang, stays in (("en", f"{city['en']} stays empty"), ("cs", f"Město {city['cs']} zůstává prázdné")):
        line = table["flanders_1302.setup.neutral_centres_three"][lang].format(city=city[lang])
        assert stays in line and line.count(city[lang]) == 1 + (empty in ("utrecht", "liege")), line
