"""Princes of the Renaissance: FACTS §3.7 final scoring and its worked examples (TV-P6, TV-P7, TV-P8),
the city-rank tie-breaks, the bonuses and their ties, the box limits, and
`companion score princes-of-the-renaissance`."""
from __future__ import annotations

import json

import pytest

from companion.games import princes_of_the_renaissance as pr
from tests.conftest import assert_refused
from tests.conftest import run_score as score

GAME_NAME = "princes-of-the-renaissance"

CITY_ORDER = ("venice", "milan", "florence", "rome", "naples")


def cities(*statuses, artists=(0, 0, 0, 0, 0)):
    """`cities(9, 8, 8, 5, 3)`: venice, milan, florence, rome, naples in that order."""
    return {c: {"status": s, "artists": a} for c, s, a in zip(CITY_ORDER, statuses, artists)}


PLAIN = cities(9, 7, 6, 5, 4)        # no ties: 10, 7, 5, 3, 2


def entry(pid="a", **fields):
    base = {"id": pid, "gold": 0, "influence": 0, "pope": False, "events_vp": [], "vp_counters": 0,
            "city_tiles": {}, "merchant_tiles": 0, "merchant_event": False}
    return dict(base, **fields)


def scored(players, board=PLAIN):
    return pr.final_scores(board, players)


def breakdown(result, i):
    return result["players"][i]["breakdown"]


def english(result):
    """The explain lines in English, city names as the command shows them without a data file."""
    return [line.english(lambda key: key.rsplit(".", 1)[-1]) for line in result["explain"]]


# -- TV-P6: VP counters ------------------------------------------------------------------------------

@pytest.mark.parametrize("counters, points", [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 21)])
def test_tv_p6_vp_counters_are_triangular(counters, points):
    assert pr.triangular(counters) == points
    result = scored([entry("a", vp_counters=counters), entry("b"), entry("c")])
    assert breakdown(result, 0)["war"] == points


# -- city ranks --------------------------------------------------------------------------------------

@pytest.mark.parametrize("board, ranks", [
    pytest.param(cities(9, 8, 8, 5, 3), (10, 5, 5, 3, 2), id="TV-P7-tie-shares-lowest-rank"),
    pytest.param(cities(9, 7, 6, 5, 4), (10, 7, 5, 3, 2), id="no-ties"),
    pytest.param(cities(8, 8, 6, 5, 4, artists=(0, 1, 0, 0, 0)), (7, 10, 5, 3, 2), id="artist-tie-break"),
    pytest.param(cities(8, 8, 8, 5, 4, artists=(0, 1, 0, 0, 0)), (5, 10, 5, 3, 2),
                 id="artist-tie-break-then-shared-lowest"),
    pytest.param(cities(6, 6, 6, 6, 6), (2, 2, 2, 2, 2), id="all-tied-all-take-rank-5"),
    pytest.param(cities(9, 5, 5, 5, 3), (10, 3, 3, 3, 2), id="three-way-tie-next-continues-after"),
    pytest.param(cities(9, 8, 7, 4, 4), (10, 7, 5, 2, 2), id="tie-for-last"),
    pytest.param(cities(5, 5, 5, 5, 5, artists=(1, 0, 2, 0, 1)), (5, 2, 10, 2, 5), id="artists-order-equal-status"),
])
def test_city_ranks(board, ranks):
    assert pr.city_ranks(board) == dict(zip(CITY_ORDER, ranks))


def test_city_ranks_explain_the_tie_reasons():
    lines = english(scored([entry("a"), entry("b"), entry("c")], cities(8, 8, 8, 5, 4, artists=(0, 1, 0, 0, 0))))
    assert "venice, milan, florence tie on status 8: more artist tiles placed there rank higher." in lines
    assert any(line.startswith("venice, florence are still tied") and "rank 3" in line for line in lines)


def test_tile_points_use_the_city_rank():
    result = scored([entry("a", city_tiles={"milan": 2, "rome": 1}), entry("b"), entry("c")],
                    cities(9, 8, 8, 5, 3))
    assert breakdown(result, 0)["cities"] == 2 * 5 + 3


# -- merchants, events, pope -------------------------------------------------------------------------

@pytest.mark.parametrize("fields, points", [
    pytest.param({"merchant_tiles": 2, "merchant_event": True}, 2, id="event-and-two-merchant-tiles"),
    pytest.param({"merchant_tiles": 1, "merchant_event": True}, 1, id="event-and-one-merchant-tile"),
    pytest.param({"merchant_tiles": 0, "merchant_event": True}, 0, id="event-without-merchant-tiles"),
    pytest.param({"merchant_tiles": 2, "merchant_event": False}, 0, id="merchant-tiles-without-event"),
])
def test_merchants(fields, points):
    result = scored([entry("a", city_tiles={"venice": 2}, **fields), entry("b"), entry("c")])
    assert breakdown(result, 0)["merchants"] == points
    assert breakdown(result, 0)["cities"] == 20


def test_events_and_pope():
    result = scored([entry("a", events_vp=[2, 3, 4], pope=True), entry("b"), entry("c")])
    assert breakdown(result, 0)["events"] == 9 and breakdown(result, 0)["pope"] == 3
    assert breakdown(result, 1)["pope"] == 0 and breakdown(result, 1)["events"] == 0


# -- gold and influence ------------------------------------------------------------------------------

@pytest.mark.parametrize("gold, points", [
    pytest.param([30, 20, 10], [6, 3, 0], id="first-and-second"),
    pytest.param([30, 30, 10], [6, 6, 3], id="tie-for-most-next-lower-is-second"),
    pytest.param([30, 20, 20, 5], [6, 3, 3, 0], id="tie-for-second-both-get-3"),
    pytest.param([30, 30, 30], [6, 6, 6], id="all-equal-all-most-nobody-second"),
    pytest.param([12, 0, 0], [6, 3, 3], id="zero-gold-can-be-second"),
])
def test_gold(gold, points):
    result = scored([entry(f"p{i}", gold=g) for i, g in enumerate(gold)])
    assert [p["breakdown"]["gold"] for p in result["players"]] == points


def test_tie_for_most_gold_explains_the_decision():
    lines = english(scored([entry("a", gold=30), entry("b", gold=30), entry("c", gold=10)]))
    assert any("next lower amount (10) counts as second-most" in line for line in lines)
    lines = english(scored([entry("a", gold=30), entry("b", gold=20), entry("c", gold=10)]))
    assert not any("next lower amount" in line for line in lines)


@pytest.mark.parametrize("influence, points", [
    pytest.param([10, 5, 1], [4, 0, 0], id="most"),
    pytest.param([10, 10, 1], [4, 4, 0], id="tie-both-get-4"),
    pytest.param([3, 3, 3], [4, 4, 4], id="all-tied"),
])
def test_influence(influence, points):
    result = scored([entry(f"p{i}", influence=n) for i, n in enumerate(influence)])
    assert [p["breakdown"]["influence"] for p in result["players"]] == points


# -- TV-P8: the six real final scores ---------------------------------------------------------------

#: Statuses without ties, so ranks are venice 10, milan 7, florence 5, rome 3, naples 2.
TV_P8_CITIES = cities(9, 7, 6, 5, 4)
TV_P8 = [
    # Travis: cities 15 (florence 3 × 5) + war 21 (6 counters) + art 3 + most influence 4 (tied with Carl) = 43
    entry("travis", gold=10, influence=15, city_tiles={"florence": 3}, vp_counters=6, events_vp=[3]),
    # Carl: cities 30 (venice 3 × 10) + art 4 + most influence 4 (tied) = 38
    entry("carl", gold=12, influence=15, city_tiles={"venice": 3}, events_vp=[4]),
    # Craig: cities 19 (milan 2 × 7 + florence 1 × 5) + war 15 (5 counters) = 34
    entry("craig", gold=8, influence=6, city_tiles={"milan": 2, "florence": 1}, vp_counters=5),
    # JB: cities 19 (milan 7 + florence 2 × 5 + naples 2) + art 4 + "8 (merchants)" + second-most gold 3 = 34.
    # Two Merchant city tiles exist, so the Merchant event gives at most 2: the reported 8 is
    # reproduced as Merchant event 2 + one more 6-VP event tile.
    entry("jb", gold=25, influence=5, city_tiles={"milan": 1, "florence": 2, "naples": 1}, events_vp=[4, 6],
          merchant_tiles=2, merchant_event=True),
    # Nigel: cities 23 (venice 10 + milan 7 + rome 2 × 3) + Pope 3 + most gold 6 = 32
    entry("nigel", gold=30, influence=4, city_tiles={"venice": 1, "milan": 1, "rome": 2}, pope=True),
    # Ian: cities 26 (venice 2 × 10 + rome 2 × 3) + art 3 = 29
    entry("ian", gold=5, influence=3, city_tiles={"venice": 2, "rome": 2}, events_vp=[3]),
]


def test_tv_p8_real_final_scores():
    result = pr.final_scores(TV_P8_CITIES, TV_P8)
    got = {p["id"]: p for p in result["players"]}
    assert {k: p["total"] for k, p in got.items()} == {"travis": 43, "carl": 38, "craig": 34, "jb": 34,
                                                        "nigel": 32, "ian": 29}
    assert {k: p["breakdown"]["cities"] for k, p in got.items()} == {"travis": 15, "carl": 30, "craig": 19, "jb": 19,
                                                                      "nigel": 23, "ian": 26}
    assert got["travis"]["breakdown"]["war"] == 21 and got["craig"]["breakdown"]["war"] == 15
    assert got["travis"]["breakdown"]["influence"] == got["carl"]["breakdown"]["influence"] == 4
    assert got["nigel"]["breakdown"]["gold"] == 6 and got["nigel"]["breakdown"]["pope"] == 3
    assert got["jb"]["breakdown"]["gold"] == 3
    assert result["winners"] == ["travis"]
    assert [p["place"] for p in result["players"]] == [1, 2, 3, 3, 5, 6]


def test_tv_p8_through_the_command():
    done = run_score({"cities": TV_P8_CITIES, "players": TV_P8})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winners"] == ["travis"]


# -- winner and places -------------------------------------------------------------------------------

def test_shared_win_and_skipped_place():
    result = scored([entry("a", city_tiles={"venice": 1}), entry("b", city_tiles={"venice": 1}),
                     entry("c", city_tiles={"naples": 1})])
    assert result["winners"] == ["a", "b"] and [p["place"] for p in result["players"]] == [1, 1, 3]


def test_total_is_the_sum_of_the_breakdown():
    result = pr.final_scores(TV_P8_CITIES, TV_P8)
    for p in result["players"]:
        assert set(p["breakdown"]) == {"cities", "merchants", "events", "pope", "war", "gold", "influence"}
        assert p["total"] == sum(p["breakdown"].values())


# -- companion score princes-of-the-renaissance -----------------------------------------------------

def run_score(payload, *args):
    return score(GAME_NAME, payload, *args)


def bad(board=PLAIN, **fields):
    return {"cities": board, "players": [entry("a", **fields), entry("b"), entry("c")]}


def without(mapping, key):
    return {k: v for k, v in mapping.items() if k != key}


@pytest.mark.parametrize("payload, field", [
    pytest.param(bad(cities(11, 7, 6, 5, 4)), "cities.venice.status", id="status-11"),
    pytest.param(bad(cities(9, 7, 6, 5, 2)), "cities.naples.status", id="status-2"),
    pytest.param(bad(cities(9, 7, 6, 5, 4, artists=(2, 2, 1, 0, 0))), "cities.florence.artists",
                 id="more-artists-than-the-game"),
    pytest.param(bad(without(PLAIN, "rome")), "cities.rome", id="city-missing"),
    pytest.param({"cities": PLAIN, "players": [entry("a", pope=True), entry("b", pope=True), entry("c")]},
                 "players[1].pope", id="two-popes"),
    pytest.param({"cities": PLAIN, "players": [entry("a", merchant_event=True), entry("b", merchant_event=True),
                                               entry("c")]}, "players[1].merchant_event", id="two-merchant-events"),
    pytest.param({"cities": PLAIN, "players": [entry("a", city_tiles={"milan": 2}, merchant_tiles=2),
                                               entry("b", city_tiles={"rome": 1}, merchant_tiles=1), entry("c")]},
                 "players[1].merchant_tiles", id="three-merchant-tiles"),
    pytest.param(bad(merchant_tiles=1), "players[0].merchant_tiles", id="merchant-tile-without-city-tile"),
    pytest.param(bad(city_tiles={"atlantis": 1}), "players[0].city_tiles.atlantis", id="unknown-city"),
    pytest.param(bad(city_tiles={"milan": 4, "rome": 3}), "players[0].city_tiles", id="seven-city-tiles"),
    pytest.param(bad(city_tiles={"milan": 1, "rome": 1, "venice": 1, "naples": 1}), "players[0].city_tiles",
                 id="tiles-from-four-cities"),
    pytest.param({"cities": PLAIN, "players": [entry("a", city_tiles={"milan": 4}), entry("b", city_tiles={"milan": 3}),
                                               entry("c")]}, "players[1].city_tiles.milan", id="seven-milan-tiles"),
    pytest.param({"cities": PLAIN, "players": [entry("a", events_vp=[2] * 7), entry("b", events_vp=[3] * 6),
                                               entry("c")]}, "players[1].events_vp", id="thirteen-events"),
    pytest.param(bad(events_vp=[3, 11]), "players[0].events_vp[1]", id="event-vp-too-high"),
    pytest.param({"cities": PLAIN, "players": [without(entry("a"), "vp_counters"), entry("b"), entry("c")]},
                 "players[0].vp_counters", id="missing-field"),
    pytest.param(bad(coins=3), "players[0].coins", id="unknown-key"),
    pytest.param(dict(bad(), board={}), "board", id="unknown-top-level-key"),
    pytest.param(bad(gold=-3), "players[0].gold", id="negative-gold"),
    pytest.param(bad(pope="yes"), "players[0].pope", id="mistyped-pope"),
    pytest.param({"cities": PLAIN, "players": [entry("a"), entry("b")]}, "players", id="two-players"),
    pytest.param({"cities": PLAIN, "players": [entry(p) for p in "abcdefg"]}, "players", id="seven-players"),
    pytest.param({"cities": PLAIN, "players": [entry("a"), entry("b"), entry("a")]}, "players[2].id",
                 id="duplicate-ids"),
    pytest.param(dict(bad(), game="village"), "game", id="other-game"),
    pytest.param("{not json", "JSON", id="malformed-json"),
])
def test_bad_input_exits_2_naming_the_field(payload, field):
    done = run_score(payload)
    assert_refused(done, field)
