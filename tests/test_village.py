"""Village: FACTS §2 worked examples (TV-V1…V10 where the app computes or enforces them), the
final-scoring tables and tie-breaks, the box limits, and `companion score village`."""
from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from companion.engine import flow
from companion.engine.model import InvalidAction
from companion import texts
from companion.games.village import rules as vg
from companion.i18n import Translator
from tests.conftest import assert_refused
from tests.conftest import run_score as score

GAME_NAME = "village"

G = vg.GAME
TEXTS, _SECTIONS = texts.load_all()
THREE = {"start": 0, "lap": 5, "players": [{"colour": "blue", "name": "Petr"}, {"colour": "yellow", "name": "Martina"},
                                           {"colour": "red", "name": "Filip"}]}


def play(actions, form=THREE):
    config = G.new_config(form)
    state = flow.initial(G, config)
    for kind, args in actions:
        state = flow.apply(G, config, state, {"type": kind, "args": args})
    return config, state


def refused(config, state, kind, **args):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(InvalidAction) as error:
        flow.apply(G, config, state, {"type": kind, "args": args})
    assert json.dumps(state, sort_keys=True) == before
    return error.value


# -- final scoring tables ---------------------------------------------------------------------------

@pytest.mark.parametrize("cities, points", [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 14), (6, 18)])
def test_travel_table(cities, points):
    assert vg.travel_points(cities) == points


@pytest.mark.parametrize("members, points", [(0, 0), (1, 0), (2, 0), (3, 4), (4, 7), (5, 12), (9, 12)])
def test_chronicle_table(members, points):
    assert vg.chronicle_points(members) == points


def entry(pid="a", **fields):
    base = {"id": pid, "track": 0, "cities_visited": 0, "council": [0, 0, 0, 0], "church": [0, 0, 0, 0],
            "chronicle": 0, "customers": [], "coins": 0, "living": 4}
    return dict(base, **fields)


@pytest.mark.parametrize("fields, key, points", [
    pytest.param({"council": [1, 1, 1, 1]}, "council", 0 + 2 + 4 + 6, id="TV-V9-council-stages"),
    pytest.param({"church": [1, 1, 1, 1]}, "church", 2 + 3 + 4 + 6, id="church-windows-right-to-left"),
    pytest.param({"church": [2, 0, 0, 1], "living": 4}, "church", 2 * 2 + 6, id="church-several"),
    pytest.param({"customers": [3, 5, 6]}, "customers", 14, id="customers-printed"),
    pytest.param({"coins": 4}, "coins", 4, id="coins-one-each"),
])
def test_final_scoring_categories(fields, key, points):
    assert vg.final_scores([entry(**fields)])["players"][0]["breakdown"][key] == points


def test_tv_v1_rulebook_final_scoring():
    """Seed p.12: 3 cities 6, council 2, church 6, chronicle 4 members 7, customers 6, coins 2 → 29."""
    result = vg.final_scores([entry(cities_visited=3, council=[0, 1, 0, 0], church=[0, 0, 0, 1], chronicle=4,
                                    customers=[6], coins=2, living=3)])
    assert result["players"][0]["total"] == 29


@pytest.mark.parametrize("b_fields, winners, places", [
    pytest.param({"customers": [2, 2], "coins": 1}, ["b"], [2, 1], id="tie-more-customers-wins"),
    pytest.param({"customers": [5], "living": 5}, ["b"], [2, 1], id="tie-customers-tied-more-living-wins"),
    pytest.param({"customers": [5]}, ["a", "b"], [1, 1], id="still-tied-share"),
])
def test_tie_breaks(b_fields, winners, places):
    a = entry("a", customers=[5])
    b = entry("b", **b_fields)
    result = vg.final_scores([a, b])
    assert result["players"][0]["total"] == result["players"][1]["total"]
    assert result["winners"] == winners and [p["place"] for p in result["players"]] == places


# -- during the game ----------------------------------------------------------------------------------

def test_tv_v2_plague_costs_two_time():
    config, state = play([("begin", {}), ("time", {"player": "blue", "plague": True})])
    assert state["players"]["blue"]["time"] == 2


def test_tv_v3_birth_takes_the_lowest_number():
    config, state = play([("begin", {}), ("birth", {"player": "blue"}), ("birth", {"player": "blue"})])
    assert state["players"]["blue"]["supply"] == {"2": 1, "3": 2, "4": 2}
    state = flow.apply(G, config, state, {"type": "birth", "args": {"player": "blue"}})
    assert state["players"]["blue"]["living"]["2"] == 3 and state["players"]["blue"]["supply"]["2"] == 0
    for _ in range(4):
        state = flow.apply(G, config, state, {"type": "birth", "args": {"player": "blue"}})
    assert vg.living(state["players"]["blue"]) == 11
    refused(config, state, "birth", player="blue")


def test_tv_v10_passing_the_bridge_means_a_death_at_the_end_of_the_turn():
    config, state = play([("begin", {}), ("time", {"player": "blue", "amount": 4}),
                          ("time", {"player": "blue", "plague": True})])
    assert vg.deaths_due(state["players"]["blue"], config["lap"]) == 1
    assert "bridge" in refused(config, state, "next_turn").msg.english()
    refused(config, state, "death", player="blue", number="2", profession="crafts", place="chronicle")
    state = flow.apply(G, config, state, {"type": "death", "args": {"player": "blue", "number": "1",
                                                                     "profession": "crafts", "place": "chronicle"}})
    blue = state["players"]["blue"]
    assert blue["chronicle"] == 1 and vg.living(blue) == 3 and vg.deaths_due(blue, config["lap"]) == 0
    state = flow.apply(G, config, state, {"type": "next_turn", "args": {}})
    assert state["turn"] == 1
    refused(config, state, "death", player="blue", number="1", profession="crafts", place="grave")


@pytest.mark.parametrize("actions, time, coins, prestige", [
    pytest.param([("time", {"player": "red", "amount": vg.ACTION_TIME["wainwright"]}),
                  ("time", {"player": "red", "amount": vg.ACTION_TIME["wainwright"]})], 4, 1, 0,
                 id="TV-V4-wagon-by-time-train-2-produce-2"),
    pytest.param([], 0, 1, 0, id="TV-V4-wagon-by-orange-and-pink-cubes-costs-no-time"),
    pytest.param([("time", {"player": "red", "amount": vg.ACTION_TIME["travel"]}),
                  ("correct", {"track": "red", "points": 3, "reason": "travel"})], 2, 1, 3,
                 id="TV-V5-first-trip-2-time-and-3-prestige"),
    pytest.param([("coins", {"player": "red", "delta": 1}), ("coins", {"player": "red", "delta": -1})], 0, 1, 0,
                 id="TV-V8-joker-1-coin-and-1-green"),
    pytest.param([("coins", {"player": "red", "delta": 1}), ("coins", {"player": "red", "delta": -2})], 0, 0, 0,
                 id="TV-V8-joker-2-coins-for-2-green"),
])
def test_worked_examples_of_time_coins_and_prestige(actions, time, coins, prestige):
    """FACTS §2.9: what the books record for Filip (red): time on his farmyard, coins, prestige."""
    config, state = play([("begin", {}), *actions])
    red = state["players"]["red"]
    assert (red["time"], red["coins"], state["scores"]["red"]) == (time, coins, prestige)


def test_tv_v8_the_joker_needs_the_coins():
    config, state = play([("begin", {})])
    refused(config, state, "coins", player="red", delta=-2)


def test_tv_v6_market_day():
    config, state = play([
        ("begin", {}), ("grain", {"player": "blue", "delta": 1}), ("grain", {"player": "yellow", "delta": 1}),
        ("market_start", {"player": "blue"}),
        ("market_sell", {"player": "blue", "prestige": 6, "goods": ["horse", "plow"]}),   # Petr: free
        ("market_sell", {"player": "yellow", "prestige": 3, "grain": 1}),    # Martina: 1 green + 1 time
        ("market_pass", {"player": "red"}),                                  # Filip: passes for the day
        ("market_sell", {"player": "blue", "prestige": 4, "grain": 1, "goods": ["scroll"]}),  # Petr: now it costs
        ("market_pass", {"player": "yellow"}),
    ])
    assert state["market"]["turn"] == "blue"
    refused(config, state, "market_sell", player="red", prestige=2, goods=["scroll"])
    state = flow.apply(G, config, state, {"type": "market_pass", "args": {"player": "blue"}})
    assert state["market"] is None
    players = state["players"]
    assert players["blue"]["customers"] == [6, 4] and players["blue"]["time"] == 1
    assert players["yellow"]["customers"] == [3] and players["yellow"]["time"] == 1
    assert players["red"]["customers"] == [] and players["red"]["time"] == 0


def test_tv_v7_mass_majority_goes_to_the_member_further_left():
    config, state = play([
        ("begin", {}), ("church", {"player": "blue"}), ("church", {"player": "red"}),
        ("church", {"player": "yellow"}), ("grain", {"player": "blue", "delta": 3}),
        ("grain", {"player": "red", "delta": 4}), ("round_end", {}),
        ("mass_buy", {"player": "blue"}), ("mass_buy", {"player": "red"}),
        ("mass_draw", {"members": {"yellow": 1}, "monks": 1}),
        ("mass_move", {"player": "blue", "source": 0, "target": 1, "grain": 2}), ("mass_done", {"player": "blue"}),
        ("mass_move", {"player": "red", "source": 0, "target": 3, "grain": 4}), ("mass_done", {"player": "red"}),
    ])
    assert state["players"]["blue"]["coins"] == 0 and state["players"]["red"]["grain"] == 0
    state = flow.apply(G, config, state, {"type": "mass_end", "args": {}})
    assert state["scores"] == {"blue": 0, "yellow": 0, "red": 2}
    assert state["phase"] == "play" and state["round"] == 2


@pytest.mark.parametrize("windows, winners", [
    pytest.param({"a": [2, 0, 0, 0], "b": [0, 1, 0, 0]}, ["a"], id="most-members"),
    pytest.param({"a": [1, 0, 0, 0], "b": [0, 0, 1, 0]}, ["b"], id="tie-further-left"),
    pytest.param({"a": [0, 1, 0, 0], "b": [0, 1, 0, 0]}, ["a", "b"], id="still-tied-each-gets-2"),
    pytest.param({"a": [0, 0, 0, 0], "b": [0, 0, 0, 0]}, [], id="nobody-in-church"),
])
def test_mass_majority(windows, winners):
    assert vg.mass_majority(windows) == winners


def test_mass_needs_exactly_four_pieces_and_coins():
    config, state = play([("begin", {}), ("church", {"player": "blue"}), ("round_end", {})])
    refused(config, state, "mass_buy", player="red")                      # nobody of red in the bag
    refused(config, state, "mass_draw", members={"blue": 1}, monks=2)     # 3 pieces, not 4
    refused(config, state, "mass_draw", members={"blue": 2}, monks=2)     # only 1 blue in the bag
    state = flow.apply(G, config, state, {"type": "mass_buy", "args": {"player": "blue"}})
    refused(config, state, "mass_buy", player="blue")                     # no coin, nobody left in the bag
    refused(config, state, "mass_move", player="blue", source=0, target=1, grain=1)  # draw first


def test_next_starting_player_marker_changes_the_start_player():
    config, state = play([("begin", {}), ("next_marker", {"player": "red"}), ("round_end", {}),
                          ("mass_draw", {"members": {}, "monks": 4}), ("mass_end", {})])
    assert state["start"] == 2 and state["turn"] == 2 and state["next_start"] is None


def test_end_of_game_final_actions_final_mass_and_scoring():
    config, state = play([("begin", {}), ("next_turn", {}), ("end_trigger", {"player": "yellow"})])
    assert vg.final_action_order(state, config) == ["red", "blue"] and state["turn"] == 2
    state = flow.apply(G, config, state, {"type": "next_turn", "args": {}})
    assert state["phase"] == "final_actions" and state["turn"] == 0
    state = flow.apply(G, config, state, {"type": "next_turn", "args": {}})
    assert state["phase"] == "mass" and state["mass"]["final"]
    for kind, args in [("mass_draw", {"members": {}, "monks": 4}), ("mass_end", {})]:
        state = flow.apply(G, config, state, {"type": kind, "args": args})
    assert state["phase"] == "scoring"
    refused(config, state, "finish", players={c: {"cities_visited": 7, "council": [0, 0, 0, 0]}
                                              for c in ("blue", "yellow", "red")})
    state = flow.apply(G, config, state, {"type": "finish", "args": {"players": {
        "blue": {"cities_visited": 3, "council": [0, 1, 0, 0]}, "yellow": {"cities_visited": 0, "council": [0] * 4},
        "red": {"cities_visited": 1, "council": [0] * 4}}}})
    result = G.result(state, config)
    assert result["winners"] == ["blue"] and result["players"][0]["breakdown"]["travel"] == 6


@pytest.mark.parametrize("ender, order", [
    pytest.param("yellow", ["yellow", "red", "blue"], id="another-player-all-act-market-starter-last"),
    pytest.param("blue", ["yellow", "red"], id="the-market-starter-himself-the-others-act"),
])
def test_an_end_during_a_market_day_gives_the_rulebook_final_turns(ender, order):
    """Seed 001, end of the game, special case: the market day is finished first. If the player who ends
    the game did not start the market day, every player takes one more action, clockwise after the
    market day's starter, who acts last; if he did, the others act (the app's `end.market` text)."""
    config, state = play([("begin", {}), ("market_start", {"player": "blue"}),
                          ("market_sell", {"player": "blue", "prestige": 6, "goods": ["horse"]}),
                          ("end_trigger", {"player": ender})])
    assert state["market"]
    for colour in ("yellow", "red", "blue"):
        state = flow.apply(G, config, state, {"type": "market_pass", "args": {"player": colour}})
    assert state["market"] is None and vg.final_action_order(state, config) == order
    for colour in order:
        assert config["players"][state["turn"]]["colour"] == colour
        state = flow.apply(G, config, state, {"type": "next_turn", "args": {}})
    assert state["phase"] == "mass" and state["mass"]["final"] and state["end"]["market"] == "blue"


def test_the_end_trigger_outside_a_market_day_records_no_market():
    config, state = play([("begin", {}), ("end_trigger", {"player": "blue"})])
    assert state["end"]["market"] is None and vg.final_action_order(state, config) == ["yellow", "red"]


def test_box_limits_for_coins_and_grain():
    config, state = play([("begin", {})])
    refused(config, state, "coins", player="blue", delta=-2)
    refused(config, state, "coins", player="blue", delta=13)              # 3 coins out already: 15 in the box
    state = flow.apply(G, config, state, {"type": "coins", "args": {"player": "blue", "delta": 12}})
    refused(config, state, "grain", player="red", delta=6)                # a farmyard holds 5
    state = flow.apply(G, config, state, {"type": "grain", "args": {"player": "red", "delta": 5}})
    refused(config, state, "grain", player="red", delta=1)


def test_the_time_track_length_is_asked_at_the_start():
    with pytest.raises(InvalidAction) as error:
        G.new_config(dict(THREE, lap=None))
    assert error.value.field == "lap"


# -- companion score village -------------------------------------------------------------------------

def run_score(payload, *args):
    return score(GAME_NAME, payload, *args)


def bad(**fields):
    return {"players": [entry("a", **fields)]}


@pytest.mark.parametrize("payload, field", [
    pytest.param(bad(coins=-3), "players[0].coins", id="negative"),
    pytest.param(bad(coins=16), "players[0].coins", id="more-coins-than-the-box"),
    pytest.param({"players": [entry("a", coins=8), entry("b", coins=8)]}, "players", id="coins-in-all"),
    pytest.param(bad(cities_visited=7), "players[0].cities_visited", id="more-cities-than-markers"),
    pytest.param(bad(council=[0, 0, 0]), "players[0].council", id="council-needs-4-stages"),
    pytest.param(bad(church=[0, 0, "1", 0]), "players[0].church[2]", id="mistyped"),
    pytest.param(bad(living=12), "players[0].living", id="more-members-than-a-colour"),
    pytest.param(bad(living=8, chronicle=4), "players[0].chronicle", id="living-plus-dead-above-11"),
    pytest.param(bad(living=2, council=[1, 1, 1, 0]), "players[0].council", id="more-placed-than-living"),
    pytest.param(bad(customers=[3] * 25), "players[0].customers", id="more-customers-than-the-box"),
    pytest.param({"players": [entry("a"), entry("a")]}, "players[1].id", id="duplicate-id"),
    pytest.param({"players": [dict(entry("a"), gold=1)]}, "players[0].gold", id="unknown-key"),
    pytest.param({"players": [{k: v for k, v in entry("a").items() if k != "living"}]}, "players[0].living",
                 id="missing"),
    pytest.param({"players": [entry(p) for p in "abcde"]}, "players", id="five-players"),
    pytest.param("not json", "JSON", id="malformed"),
])
def test_bad_input_exits_2_naming_the_field(payload, field):
    done = run_score(payload)
    assert_refused(done, field)


def test_a_mass_where_nobody_can_act_is_one_entry():
    """Nobody has a member in the black bag and nobody can pay to move up: the monks come out, the
    majority scores and the next round begins, in one entry; with something to do it is refused."""
    config, state = play([("begin", {}), ("round_end", {})])
    assert vg.mass_idle(state)
    state = flow.apply(G, config, state, {"type": "mass_quiet", "args": {}})
    assert state["phase"] == "play" and state["round"] == 2 and state["mass"] is None
    for kind, args in [("church", {"player": "red"}), ("round_end", {})]:  # a member in the black bag
        state = flow.apply(G, config, state, {"type": kind, "args": args})
    assert not vg.mass_idle(state)
    refused(config, state, "mass_quiet")


def test_an_option_for_a_game_without_options_says_so():
    done = run_score({"options": ["gifts"], "players": [entry("a")]})
    assert_refused(done, "options[0]")
    assert "one of ," not in done.stderr and "has no options" in done.stderr


# -- issue 22: one table of what is allowed, no silent refusal --------------------------------------

def test_moving_up_in_the_church_costs_grain_for_every_window():
    """Players met a move up the church windows for 0 grain accepted: every step costs grain."""
    config, state = play([("begin", {}), ("church", {"player": "blue"}), ("grain", {"player": "blue", "delta": 3}),
                          ("round_end", {}), ("mass_draw", {"members": {"blue": 1}, "monks": 3})])
    error = refused(config, state, "mass_move", player="blue", source=0, target=1, grain=0)
    assert error.field == "grain" and "at least 1" in error.msg.english()
    error = refused(config, state, "mass_move", player="blue", source=0, target=2, grain=1)
    assert "at least 2" in error.msg.english()
    state = flow.apply(G, config, state, {"type": "mass_move", "args": {"player": "blue", "source": 0, "target": 2,
                                                                         "grain": 2}})
    assert state["players"]["blue"]["windows"] == [0, 0, 1, 0] and state["players"]["blue"]["grain"] == 1


def test_the_table_names_who_acts_and_why_an_entry_is_refused():
    config, state = play([("begin", {})])
    table = G.moves(state, config)
    assert table["next_turn"].by == {"blue"} and table["round_end"].by == {"blue"}
    assert table["market_sell"].refusal.text == "No market day is running."
    assert table["mass_buy"].refusal is not None and table["finish"].refusal is not None
    assert refused(config, state, "begin").msg.text == "The game has already begun."
    config, state = play([("begin", {}), ("market_start", {"player": "blue"})])
    table = G.moves(state, config)
    assert table["market_sell"].by == table["market_pass"].by == {"blue"}
    assert table["next_turn"].refusal.text == table["round_end"].refusal.text == "Finish the market day first."
    assert refused(config, state, "market_pass", player="yellow").field == "player"
    config, state = play([("begin", {}), ("next_marker", {"player": "red"})])
    assert refused(config, state, "next_marker", player="blue").msg.text == (
        "The next-starting-player marker is already taken this round.")


def test_a_death_on_a_market_day_is_recorded_at_once():
    """On a market day a member whose family passed the bridge dies at once (FACTS §2.7): the day goes
    on only after his death is recorded."""
    config, state = play([("begin", {}), ("time", {"player": "yellow", "amount": 4}),
                          ("market_start", {"player": "blue"}), ("market_sell", {"player": "blue", "prestige": 3, "goods": ["horse"]})])
    state = flow.apply(G, config, state, {"type": "market_sell", "args": {"player": "yellow", "prestige": 2, "goods": ["ox"]}})
    assert vg.deaths_due(state["players"]["yellow"], config["lap"]) == 1          # the sale's time: the bridge
    for kind, args in (("market_sell", {"player": "red", "prestige": 1, "goods": ["horse"]}), ("market_pass", {"player": "red"}),
                       ("market_end", {})):
        assert "dies at once" in refused(config, state, kind, **args).msg.text
    assert G.guide(state, config).actor == "yellow"
    assert G.moves(state, config)["death"].by == {"yellow"}
    state = flow.apply(G, config, state, {"type": "death", "args": {"player": "yellow", "number": "1",
                                                                     "profession": "farmyard", "place": "grave"}})
    state = flow.apply(G, config, state, {"type": "market_pass", "args": {"player": "red"}})
    assert state["market"]["turn"] == "blue"


def where(state, config, lang="en"):
    return Translator(lang, lambda key, lang: TEXTS[key][lang]).msg(G.guide(state, config).where)


def test_the_header_follows_the_round_not_the_step_it_began_with():
    """Players saw 'Osazení akčních políček' for the whole round: the header says where the round is."""
    config, state = play([("begin", {})])
    assert where(state, config) == "Round 1 · Fill the action spaces"
    config, state = play([("begin", {}), ("time", {"player": "blue", "amount": 1})])
    assert where(state, config) == "Round 1 · Take a cube, do the action"
    assert where(state, config, "cs") != "1. kolo · Osazení akčních políček"
    config, state = play([("begin", {}), ("market_start", {"player": "blue"}),
                          ("market_sell", {"player": "blue", "prestige": 3, "goods": ["horse"]})])
    assert where(state, config) == "Round 1 · market day" and G.guide(state, config).actor == "yellow"
    config, state = play([("begin", {}), ("time", {"player": "yellow", "amount": 5})])
    assert where(state, config) == "Round 1 · a family member dies" and G.guide(state, config).actor == "yellow"
    config, state = play([("begin", {}), ("church", {"player": "yellow"}), ("church", {"player": "red"}),
                          ("grain", {"player": "red", "delta": 2}), ("round_end", {})])
    assert where(state, config) == "Mass after round 1 · four pieces out of the bag"
    state = flow.apply(G, config, state, {"type": "mass_draw", "args": {"members": {"yellow": 1, "red": 1},
                                                                         "monks": 2}})
    guide = G.guide(state, config)
    assert guide.actor == "red" and G.moves(state, config)["mass_move"].by == {"red"}   # yellow has no grain
    assert where(state, config) == "Mass after round 1 · moving up"
    state = flow.apply(G, config, state, {"type": "mass_done", "args": {"player": "red"}})
    assert where(state, config) == "Mass after round 1 · the majority" and G.guide(state, config).actor is None


def village_shell(actions, form=THREE, me=None):
    from tests.test_screens import shell_on
    return shell_on("village", form, actions, me, lang="en")


def tap(shell, ident):
    """Tap the control with test id `ident`; the texts of the screen drawn after it."""
    from tests.test_screens import by_id, controls_of
    clickable = next(c for c in controls_of([by_id(shell.page, ident)]) if getattr(c, "on_click", None))
    shell.page.data = shell                        # a pick redraws through the event's page
    clickable.on_click(SimpleNamespace(page=shell.page))
    shell.render()
    return [c.value for c in controls_of(shell.page.controls) if getattr(c, "value", None)]


@pytest.mark.parametrize("actions, ident, reason", [
    pytest.param([("coins", {"player": "blue", "delta": -1})], "coin-minus", "Not enough coins.", id="coins-below-0"),
    pytest.param([], "grain-minus", "Not enough grain.", id="grain-below-0"),
    pytest.param([("grain", {"player": "blue", "delta": 5})], "grain-plus", "A farmyard holds at most 5 grain bags.",
                 id="a-6th-grain-bag"),
    pytest.param([("coins", {"player": "blue", "delta": 12})], "coin-plus", "The box has only 15 coins.",
                 id="coins-beyond-the-box"),
    pytest.param([], "pp-minus", "A score cannot go below 0.", id="prestige-below-0"),
])
def test_a_quick_entry_at_its_limit_says_why_next_to_it(actions, ident, reason):
    """Refused in silence before: the entry was a disabled button. Now greyed, and a tap says why."""
    vm, shell = village_shell([("begin", {}), *actions])
    before = list(vm.session["log"])
    shown = tap(shell, ident)
    assert vm.problem.text == reason and reason in shown
    from tests.test_screens import by_id
    assert vm.error_for(ident) == reason and by_id(shell.page, f"error-{ident}") is not None
    assert vm.session["log"] == before


def test_a_mass_buy_out_without_a_coin_says_why():
    vm, shell = village_shell([("begin", {}), ("church", {"player": "yellow"}), ("coins", {"player": "yellow",
                                                                                            "delta": -1}),
                               ("round_end", {})])
    shown = tap(shell, "buy-yellow")
    assert "Martina has no coin." in shown and vm.state["players"]["yellow"]["bag"] == 1


def test_an_owned_phone_greys_the_other_sellers_at_the_market():
    vm, shell = village_shell([("begin", {}), ("market_start", {"player": "blue"})], me="yellow")
    shown = tap(shell, "market-pass")                  # Petr's pass, on Martina's phone
    assert vm.state["market"]["passed"] == [] and any("This phone belongs to Martina" in s for s in shown)
    vm.me = "blue"
    vm.problem = None
    shell.render()
    tap(shell, "market-pass")
    assert vm.state["market"]["passed"] == ["blue"]


# -- issue 26 ---------------------------------------------------------------------------------------

def test_a_market_sale_records_the_grain_and_goods_handed_in():
    """A market day recorded no grain or goods paid: the grain leaves the farmyard, the goods are kept
    with the sale and said in the log."""
    config, state = play([("begin", {}), ("grain", {"player": "blue", "delta": 2}),
                          ("market_start", {"player": "blue"})])
    error = refused(config, state, "market_sell", player="blue", prestige=6, grain=3)
    assert error.field == "grain"
    assert refused(config, state, "market_sell", player="blue", prestige=6, goods=["dragon"]).field == "goods"
    action = {"type": "market_sell", "args": {"player": "blue", "prestige": 6, "grain": 1, "goods": ["horse", "plow"]}}
    state = flow.apply(G, config, state, action)
    assert state["players"]["blue"]["grain"] == 1
    assert state["market"]["sales"] == [{"player": "blue", "prestige": 6, "free": True, "grain": 1,
                                         "goods": ["horse", "plow"], "time": 0}]   # time: the seller's after it
    said = Translator("cs", lambda key, lang: TEXTS[key][lang]).msg(G.describe(action, config))
    assert said == "Petr: obsloužen zákazník (6 bodů prestiže), odevzdáno: 1 pytel obilí, kůň, pluh"


def test_the_market_screen_sends_the_grain_and_goods_handed_in():
    vm, shell = village_shell([("begin", {}), ("grain", {"player": "blue", "delta": 2}),
                               ("market_start", {"player": "blue"})])
    for ident in ("sale-grain-2", "sale-good-scroll", "sale-good-horse", "sale-6"):   # the prestige serves
        tap(shell, ident)
    assert vm.state["players"]["blue"]["grain"] == 0
    assert vm.state["market"]["sales"][0]["goods"] == ["scroll", "horse"]
    assert vm.state["market"]["sales"][0]["prestige"] == 6
    assert any("paid: 2 grain bags, scroll, horse" in s for s in tap(shell, "market-pass"))


def test_a_customer_above_the_chips_is_served_from_the_bar_and_nothing_handed_in_is_refused():
    """Issue 35: a tap on the prestige serves the customer; one showing more than the chips goes on the
    stepper and the bar's "Serve"; a prestige tapped before anything is handed in is refused, with the
    reason, and records nothing."""
    vm, shell = village_shell([("begin", {}), ("market_start", {"player": "blue"})])
    tap(shell, "sale-4")
    assert vm.state["market"]["sales"] == [] and "enter what is handed in" in vm.problem.text
    for ident in ("sale-good-ox", "sale-more", "sale-plus", "market-sell"):
        tap(shell, ident)
    assert vm.state["market"]["sales"][0]["prestige"] == 12 and vm.state["market"]["sales"][0]["goods"] == ["ox"]


def test_a_game_takes_two_to_four_players_but_one_estate_is_scored():
    with pytest.raises(InvalidAction) as error:
        G.new_config({"start": 0, "lap": 12, "players": [{"colour": "red", "name": "Anna"}]})
    assert error.value.field == "players"
    assert "2 to 4" in error.value.msg.english() and "companion score village" in error.value.msg.english()
    assert G.score_cli({"game": "village", "players": [entry(track=5, coins=2)]})["players"][0]["total"] == 7


def test_the_czech_mass_majority_is_the_box_s_prevaha():
    """Issue 26: the Czech box calls the mass's majority "převaha" (shared/czech-terms.md), never
    "většina", in the catalogue and in the rule texts."""
    from companion.i18n import translations
    cs = translations("cs")
    for msgid in ("Majority, then the final scoring", "Majority, then the next round",
                  "Mass: nobody could act; the majority scored", "3. The majority", "the majority"):
        assert "řevah" in cs.gettext(msgid) and "většin" not in cs.gettext(msgid).lower(), msgid
    village = {k: v for k, v in TEXTS.items() if k.startswith("village.")}
    assert not [k for k, v in village.items() if "většin" in v["cs"].lower()]


def test_the_header_names_whom_the_table_names_in_every_state_of_the_script():
    from tests.test_moves import states
    seen = set()
    for config, state in states("village"):
        actor, table = G.guide(state, config).actor, G.moves(state, config)
        if state["phase"] in ("play", "final_actions"):
            due = ("death" if vg._dying(state, config) else "market_pass" if state["market"] else "next_turn")
            assert table[due].by == {actor}, (due, state["phase"])
            seen.add(due)
        elif state["phase"] == "mass" and actor is not None:
            assert table["mass_move"].by == table["mass_done"].by == {actor}
        else:
            assert actor is None
        seen.add(state["phase"])
    assert {"death", "market_pass", "next_turn", "play", "final_actions", "mass", "scoring", "over"} <= seen


def test_an_owned_phone_ends_and_opens_only_its_own_player_s_turn():
    vm, shell = village_shell([("begin", {})], me="yellow")          # Petr is on turn
    for ident in ("next-turn", "market-start", "round-end"):
        shown = tap(shell, ident)
        assert any("This phone belongs to Martina" in s for s in shown), ident
    assert vm.state["turn"] == 0 and vm.state["market"] is None and vm.state["phase"] == "play"


def test_the_first_entry_of_a_round_keeps_the_screen_where_it_is():
    """The step moves on from seeding with the round's first entry: the header says so, but the screen
    stays the same one (not reopened at its top with its folds closed under the player's finger)."""
    config, before = play([("begin", {})])
    config, after = play([("begin", {}), ("grain", {"player": "blue", "delta": 1})])
    assert before["step"] == "seed" and after["step"] == "turns"
    assert G.guide(before, config).screen == G.guide(after, config).screen


# -- issue 34 ---------------------------------------------------------------------------------------

def test_a_market_sale_that_hands_in_nothing_is_refused():
    """Every customer tile wants goods, grain or both (FACTS §2.5.4): a sale handing in nothing is a
    mistake at the table, not a free customer."""
    config, state = play([("begin", {}), ("market_start", {"player": "blue"})])
    assert refused(config, state, "market_sell", player="blue", prestige=6).field == "goods"
    assert refused(config, state, "market_sell", player="blue", prestige=6, grain=0, goods=[]).field == "goods"
    state = flow.apply(G, config, state, {"type": "market_sell", "args": {"player": "blue", "prestige": 6,
                                                                          "goods": ["scroll"]}})
    assert state["players"]["blue"]["customers"] == [6]


def test_only_a_lowest_numbered_visible_member_dies():
    """FACTS §2.7: one of the lowest-numbered members dies, and he must be visible (not in the black
    bag). The books count the bag, not its numbers: a higher number dies only while every member of a
    lower number could be in the bag."""
    config, state = play([("begin", {}), ("birth", {"player": "blue"}), ("time", {"player": "blue", "amount": 6})])
    blue = state["players"]["blue"]
    assert blue["living"] == {"1": 4, "2": 1} and blue["bag"] == 0
    assert refused(config, state, "death", player="blue", number="2", profession="farmyard",
                   place="chronicle").field == "number"
    for _ in range(3):                       # three of the four 1s into the black bag: one is still in sight
        state = flow.apply(G, config, state, {"type": "church", "args": {"player": "blue"}})
    assert vg.lowest_visible(state["players"]["blue"]) == "1"
    refused(config, state, "death", player="blue", number="2", profession="farmyard", place="chronicle")
    state = flow.apply(G, config, state, {"type": "church", "args": {"player": "blue"}})
    assert vg.lowest_visible(state["players"]["blue"]) == "2"    # every 1 may be in the bag now
    state = flow.apply(G, config, state, {"type": "death", "args": {"player": "blue", "number": "2",
                                                                     "profession": "farmyard", "place": "chronicle"}})
    assert state["players"]["blue"]["living"]["2"] == 0
