"""Princes of the Renaissance: FACTS §3.7 final scoring and its worked examples (TV-P6, TV-P7, TV-P8),
the city-rank tie-breaks, the bonuses and their ties, the box limits, and
`companion score princes-of-the-renaissance`."""
from __future__ import annotations

import json

import pytest

from companion import texts
from companion.games.princes_of_the_renaissance import rules as pr
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
    pytest.param(bad(vp_counters=14), "players[0].vp_counters", id="more-vp-counters-than-wars"),
    pytest.param({"cities": PLAIN, "players": [entry("a", vp_counters=7), entry("b", vp_counters=7), entry("c")]},
                 "players[1].vp_counters", id="more-vp-counters-in-all-than-wars"),
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


@pytest.mark.parametrize("players, most", [(3, 13), (4, 13), (5, 16), (6, 16)])
def test_vp_counters_are_bounded_by_the_wars_a_game_can_have(players, most):
    """One VP counter per war won: at most 4 wars a decade (5 with 5–6 players) for 3 decades, plus the
    war of the one Start War card (FACTS §3.1, §3.4.6, §3.5.9)."""
    assert pr.vp_counter_limit(players) == most
    ok = {"cities": PLAIN, "players": [entry("a", vp_counters=most)] + [entry(p) for p in "bcdef"[:players - 1]]}
    assert run_score(ok).returncode == 0


# ----------------------------------------------------------------------------------------------
# The session: setup, auctions, wars, decades (FACTS §3.2–3.6; TV-P1…P5)

from companion.engine.model import InvalidAction  # noqa: E402
from tests.conftest import Table as SharedTable  # noqa: E402

#: The English rules' example table (FACTS §3.9 comes from them): every English reading chosen.
ENGLISH = list(pr.ENGLISH_READINGS)
TABLE = {"start": 0, "options": ENGLISH,
         "players": [{"colour": "baglioni", "name": "Geoff"}, {"colour": "d_este", "name": "Hammy"},
                     {"colour": "malatesta", "name": "Stella"}, {"colour": "gonzaga", "name": "Timo"}]}
PIKE = {"cost": 4, "attack": 0, "defence": 2}
CAVALRY = {"cost": 5, "attack": 2, "defence": 1, "influence": 2}
ARTILLERY = {"cost": 6, "attack": 3, "defence": 1}
FORT = {"cost": 5, "attack": 0, "defence": 3}


class Table(SharedTable):
    """A Princes session (FACTS §3.2: 4 players, Geoff first)."""

    game = pr.GAME
    form = TABLE

    def turn_to(self, family):
        while pr.active_family(self.state, self.config) != family:
            self.do("end_turn")

    def p(self, family):
        return self.state["players"][family]

    def give(self, family, **tiles):
        """Ledger contents the example takes for granted (set directly, as a test fixture)."""
        for kind, tile in tiles.items():
            self.p(family)["tiles"].append({"kind": kind, **tile})


def test_setup_values_and_the_milan_option():
    t = Table(begin=False)
    assert {c: v["status"] for c, v in t.state["cities"].items()} == {
        "venice": 7, "milan": 6, "florence": 6, "rome": 5, "naples": 5}
    assert all((p["gold"], p["influence"]) == (40, 12) for p in t.state["players"].values())
    items = pr.setup_items(t.config)
    assert items[0]["params"]["milan"] == 6 and items[2]["params"] == {"gold": 40, "influence": 12}
    seed = Table(dict(TABLE, options=["milan_seven"]), begin=False)
    assert seed.state["cities"]["milan"]["status"] == 7


@pytest.mark.parametrize("form, field", [
    ({"start": 0, "players": TABLE["players"][:2]}, "players"),
    ({"start": 0, "players": [*TABLE["players"][:3], {"colour": "d_este", "name": "X"}]}, "players.3.colour"),
    (dict(TABLE, options=["house_rule"]), "options"),
])
def test_new_game_refusals(form, field):
    with pytest.raises(InvalidAction) as caught:
        pr.GAME.new_config(form)
    assert caught.value.field == field


def test_tv_p1_city_auction():
    """Venice at 6: minimum 12; Hammy (3 other cities) may not bid; Geoff wins the Doge for 15."""
    t = Table()
    t.state["cities"]["venice"]["status"] = 6
    t.give("d_este", plain={"city": "milan", "gold": 1, "influence": 0},
           merchant={"city": "rome", "gold": 3, "influence": 0})
    t.give("d_este", colonna={"city": "naples", "gold": 0, "influence": 0})
    t.refused("open_auction", "amount", lot="city", city="venice", tile="plain", gold=2, influence=2, amount=11)
    t.do("open_auction", lot="city", city="venice", tile="plain", gold=2, influence=2, amount=13)
    a = t.state["auction"]
    assert a["minimum"] == 12 and a["skipped"] == [{"player": "d_este", "reason": "city_limit"}]
    assert a["next"] == "malatesta"
    t.refused("bid", "amount", player="malatesta", amount=13)
    t.refused("bid", "player", player="gonzaga", amount=14)
    t.do("bid", player="malatesta", amount=14)
    t.do("pass_bid", player="gonzaga")
    t.do("bid", player="baglioni", amount=15)
    t.do("pass_bid", player="malatesta")
    assert t.state["auction"] is None
    assert t.p("baglioni")["gold"] == 25 and t.p("baglioni")["tiles"][-1]["city"] == "venice"
    assert [e.get("bid", "pass") for e in t.state["last_auction"]["log"]] == [13, 14, "pass", 15, "pass"]


def test_a_bid_above_the_money_is_refused_and_changes_nothing():
    t = Table()
    t.do("open_auction", lot="city", city="rome", tile="plain", gold=1, influence=0, amount=10)
    t.p("d_este")["gold"] = 12
    error = t.refused("bid", "amount", player="d_este", amount=13)
    assert "at most 12" in str(error)


def test_tv_p2_event_with_the_gonzaga_discount():
    t = Table()
    t.turn_to("d_este")
    t.p("gonzaga")["influence"] = 3
    t.refused("open_auction", "currency", lot="event", event="gozzoli", currency="gold", vp=3, amount=0)
    t.do("open_auction", lot="event", event="gozzoli", currency="influence", vp=3, amount=0)
    t.do("pass_bid", player="malatesta")
    t.refused("bid", "amount", player="gonzaga", amount=5)
    t.do("bid", player="gonzaga", amount=4)
    t.do("pass_bid", player="baglioni")
    t.do("pass_bid", player="d_este")
    assert t.p("gonzaga")["influence"] == 0 and t.p("gonzaga")["events"] == [{"event": "gozzoli", "vp": 3}]
    assert t.state["events_left"] == 3 and t.state["last_auction"]["paid"] == 3


def test_event_nobody_else_wants_goes_to_the_opener_for_free():
    t = Table()
    t.do("open_auction", lot="event", event="bellini", currency="gold", vp=2, amount=0)
    for family in ("d_este", "malatesta", "gonzaga"):
        t.do("pass_bid", player=family)
    assert t.p("baglioni")["events"] == [{"event": "bellini", "vp": 2}] and t.p("baglioni")["gold"] == 40
    t.refused("open_auction", lot="pope", amount=0)  # one action per turn
    t.do("end_turn")
    t.refused("open_auction", "event", lot="event", event="bellini", currency="gold", vp=2, amount=0)


def test_status_artist_is_placed_and_french_invasion_removed():
    t = Table()
    t.do("open_auction", lot="event", event="botticelli", currency="gold", vp=0, amount=1)
    for family in ("d_este", "malatesta", "gonzaga"):
        t.do("pass_bid", player=family)
    t.refused("end_turn")
    t.do("place", city="naples")
    assert t.state["cities"]["naples"] == {"status": 6, "artists": 1}
    t.do("end_turn")
    t.do("open_auction", lot="event", event="french_invasion", currency="gold", vp=0, amount=0)
    for family in ("malatesta", "gonzaga", "baglioni"):
        t.do("pass_bid", player=family)
    t.do("place", city="rome")
    assert t.state["cities"]["rome"]["status"] == 3 and t.p("d_este")["events"] == []


def test_pope_discounts_and_bribe_cardinal():
    t = Table()
    t.give("malatesta", roderigo_borgia={"city": "rome", "gold": 0, "influence": 0})
    t.p("malatesta")["influence"] = 2
    t.p("malatesta")["treachery"] = 1
    t.do("open_auction", lot="pope", amount=0)
    t.do("bid", player="d_este", amount=1)
    t.refused("bid", "amount", player="malatesta", amount=4)           # 2 held + 1 discount
    t.refused("bid", "cardinal", player="malatesta", amount=6, cardinal=2)
    t.do("bid", player="malatesta", amount=6, cardinal=1)
    for family in ("gonzaga", "baglioni", "d_este"):
        t.do("pass_bid", player=family)
    assert t.state["pope"] == "malatesta"
    assert t.p("malatesta")["influence"] == 0 and t.p("malatesta")["treachery"] == 0   # 6 − 1 − 3 = 2 paid


def armies(t):
    t.p("baglioni")["troops"] = {"cavalry": dict(CAVALRY, gold=0), "pike": dict(PIKE, gold=0, influence=0)}
    t.p("d_este")["troops"] = {"artillery": dict(ARTILLERY, gold=0, influence=0),
                               "fortification": dict(FORT, gold=0, influence=0)}
    t.give("baglioni", swiss_mercenaries={"city": "milan", "gold": 0, "influence": 0})


def test_tv_p3_and_p4_condottieri_pay_and_the_counter_attack():
    t = Table()
    armies(t)
    t.p("d_este")["treachery"] = 1
    t.do("declare_war", attacker="venice", defender="rome")
    assert t.state["wars"] == 1
    t.do("no_veto")
    a = t.state["auction"]
    assert a["bidders"] == ["baglioni", "d_este"] and a["minimum"] == 1
    assert {s["player"] for s in a["skipped"]} == {"malatesta", "gonzaga"}
    t.do("bid", player="baglioni", amount=6)
    t.do("pass_bid", player="d_este")
    assert t.p("baglioni")["influence"] == 12 - 4 and t.p("baglioni")["pay"] == 7
    assert t.state["auction"]["bidders"] == ["d_este"]
    t.do("bid", player="d_este", amount=4)
    assert t.p("d_este")["influence"] == 8 and t.p("d_este")["pay"] == 5
    t.do("bribe", player="d_este", side="attacker", troop="cavalry")
    t.do("battle", dice={"attacker": 5, "defender": 1})
    first = t.state["war"]["rounds"][0]["sides"]
    assert (first["attacker"]["total"], first["defender"]["total"]) == (6, 6)
    t.do("battle", dice={"attacker": 2, "defender": 6})
    war = t.state["last_war"]
    second = war["rounds"][1]["sides"]
    assert (second["defender"]["total"], second["attacker"]["total"]) == (10, 5)
    assert war["winner"] == "defender" and war["change"] == 2 and t.state["war"] is None
    assert t.state["cities"]["rome"]["status"] == 7 and t.state["cities"]["venice"]["status"] == 5
    assert t.p("d_este")["vp"] == 1 and t.p("d_este")["treachery"] == 0


def test_seed_reading_without_counter_attack():
    t = Table(dict(TABLE, options=["no_counter_attack"]))
    armies(t)
    t.do("declare_war", attacker="venice", defender="rome")
    t.do("no_veto")
    t.do("bid", player="baglioni", amount=1)
    t.do("pass_bid", player="d_este")
    t.do("bid", player="d_este", amount=1)
    t.do("battle", dice={"attacker": 3, "defender": 1})   # pike 0+1, cavalry 2, die 3 = 6 vs 1+1+3, die 1 = 6
    assert t.state["last_war"]["winner"] is None and len(t.state["last_war"]["rounds"]) == 1  # a tie is a draw


def test_swiss_attack_only_option_changes_the_pike_defence():
    for options, defence in ((["swiss_attack_and_defence"], 2 + 1 + 1), ([], 2 + 1)):
        t = Table(dict(TABLE, options=options))
        armies(t)
        war = {"condottieri": {"attacker": "baglioni", "defender": None}, "bribed": {"attacker": [], "defender": []},
               "pope": None, "extra": {"attacker": 0, "defender": 0}}
        assert pr.strength(t.state, t.config, war, "attacker", "defence")[0] == defence
        assert pr.strength(t.state, t.config, war, "defender", "attack")[0] == pr.NEUTRAL


def test_one_condottiere_fights_a_neutral_city_and_status_is_clamped():
    t = Table()
    armies(t)
    t.state["cities"]["venice"]["status"] = 10
    t.do("declare_war", attacker="venice", defender="naples")
    t.do("no_veto")
    t.do("bid", player="baglioni", amount=1)
    t.do("pass_bid", player="d_este")
    t.do("pass_bid", player="d_este")
    assert t.state["war"]["stage"] == "battle" and t.state["war"]["condottieri"]["defender"] is None
    t.do("battle", dice={"attacker": 6, "defender": 1})   # 0+1+2+1 + 6 = 10 vs 3 + 1 = 4
    assert t.state["cities"]["venice"]["status"] == 10 and t.state["cities"]["naples"]["status"] == 3
    assert t.p("baglioni")["vp"] == 1


def test_no_condottiere_no_war_and_veto_still_counts():
    t = Table()
    t.do("declare_war", attacker="milan", defender="rome")
    t.do("no_veto")
    assert t.state["war"] is None and t.state["last_war"]["winner"] is None and t.state["wars"] == 1
    t.do("end_turn")
    t.p("d_este")["treachery"] = 1
    t.do("declare_war", attacker="milan", defender="rome")
    t.do("veto", player="d_este", how="card")
    assert t.state["wars"] == 2 and t.state["war"] is None and t.p("d_este")["treachery"] == 0


@pytest.mark.parametrize("players, limit", [(4, 4), (5, 5)])
def test_war_limit_per_decade(players, limit):
    form = {"start": 0, "players": [{"colour": f, "name": f} for f in pr.FAMILIES[:players]]}
    t = Table(form)
    for _ in range(limit):
        t.do("declare_war", attacker="milan", defender="rome")
        t.do("no_veto")
        t.do("end_turn")
    t.refused("declare_war", "attacker", attacker="milan", defender="rome")
    t.p(pr.active_family(t.state, t.config))["treachery"] = 1
    t.do("declare_war", attacker="milan", defender="rome", card=True)   # Start War: not counted
    assert t.state["wars"] == limit


def test_tv_p5_income():
    t = Table()
    t.give("malatesta", roderigo_borgia={"city": "rome", "gold": 0, "influence": 0},
           plain={"city": "venice", "gold": 2, "influence": 2}, merchant={"city": "venice", "gold": 3, "influence": 0})
    t.p("malatesta")["troops"] = {"cavalry": dict(CAVALRY, gold=0)}
    t.state["merchant_event"] = "malatesta"
    assert pr.income(t.state, t.config, "malatesta")[("gold")] == 18
    t.p("malatesta")["pay"] = 7
    got = pr.income(t.state, t.config, "malatesta")
    assert (got["gold"], got["influence"]) == (25, 12)


def play_decade(t):
    """Four event auctions, each opener keeping his tile for 0."""
    for event in [e for e in ("bellini", "da_vinci", "verrocchio", "michelangelo", "other", "merchant",
                              "gozzoli", "carpaccio", "pinturicchio", "ghirlandaio", "botticelli",
                              "french_invasion") if e not in t.state["events_done"]][:4]:
        opener = pr.active_family(t.state, t.config)
        currency = pr.KNOWN_EVENT_CURRENCY.get(event, "gold")
        t.do("open_auction", lot="event", event=event, currency=currency, vp=2, amount=0)
        for family in pr.seat_order(t.config, opener)[1:]:
            t.do("pass_bid", player=family)
        if t.state["pending"]:
            t.do("place", city="milan")
        if t.state["phase"] == "play":
            t.do("end_turn")


def computed(t):
    return {f: {c: pr.income(t.state, t.config, f)[c] for c in ("gold", "influence")} for f in t.state["players"]}


def test_decades_income_and_the_first_player():
    t = Table()
    t.do("open_auction", lot="pope", amount=0)
    for family in ("d_este", "malatesta", "gonzaga"):
        t.do("pass_bid", player=family)
    t.do("end_turn")
    play_decade(t)
    assert t.state["phase"] == "decade_end" and t.state["last_opener"] == "baglioni"
    t.refused("end_turn")
    t.refused("book_income", "incomes", incomes={"baglioni": {"gold": 1, "influence": 1}})
    incomes = computed(t)
    assert incomes["baglioni"] == {"gold": 15, "influence": 8}   # family 12 + Pope 3
    t.do("book_income", incomes=incomes)
    assert (t.state["decade"], t.state["pope"], t.state["wars"], t.state["events_left"]) == (2, None, 0, 4)
    assert t.p("baglioni")["gold"] == 40 + 15 and pr.active_family(t.state, t.config) == "d_este"
    left = Table(dict(TABLE, start=2, options=["first_left"]))
    play_decade(left)
    left.do("book_income", incomes=computed(left))
    assert pr.active_family(left.state, left.config) == "gonzaga"


def test_a_whole_game_ends_in_the_same_final_scoring_as_the_command():
    t = Table()
    for _ in range(3):
        play_decade(t)
        t.do("book_income", incomes=computed(t))
    assert t.state["phase"] == "final"
    board, players = pr.scoring_input(t.state, t.config)
    payload = {"cities": board, "players": [{k: v for k, v in p.items() if k != "name"} for p in players]}
    assert [p["total"] for p in pr.score_cli(payload)["players"]] == \
        [p["total"] for p in pr.GAME.result(t.state, t.config)["players"]]
    t.do("finish")
    assert t.state["phase"] == "over"


def test_treachery_hand_limit_cards_and_abilities():
    t = Table()
    t.turn_to("malatesta")
    for _ in range(4):
        t.do("buy_card")
        t.do("end_turn")
        t.turn_to("malatesta")
    assert t.p("malatesta")["treachery"] == 3 and t.p("malatesta")["gold"] == 36   # limit 2 + Malatesta
    t.do("play_card", player="malatesta", card="raid_gold", target="baglioni")
    assert t.p("malatesta")["gold"] == 39 and t.p("baglioni")["gold"] == 37
    t.refused("play_card", "player", player="baglioni", card="raid_gold", target="malatesta")
    t.give("malatesta", banking={"city": "florence", "gold": 0, "influence": 0})
    t.do("ability", player="malatesta", ability="banking", amount=3)
    assert (t.p("malatesta")["gold"], t.p("malatesta")["influence"]) == (36, 11)
    t.refused("ability", "player", player="malatesta", ability="banking", amount=-1)


def test_a_vp_correction_stays_within_the_wars_a_game_can_have():
    """A VP counter is one war won: a correction leaves room for the wars still to come (issue 33: three
    +3 corrections early in a game, then the wars, and `companion score` refused the final numbers)."""
    t = Table()
    t.refused("adjust", "delta", player="gonzaga", what="vp", delta=1, reason="x")   # no war fought yet
    t.state.update(decade=3, wars=3, start_wars=1)   # one war left on decade III's track
    t.refused("adjust", "delta", player="gonzaga", what="vp", delta=13, reason="x")
    t.do("adjust", player="gonzaga", what="vp", delta=12, reason="x")
    t.refused("adjust", "delta", player="baglioni", what="vp", delta=1, reason="x")
    t.state["wars"] = 4
    t.do("adjust", player="baglioni", what="vp", delta=1, reason="x")
    assert sum(p["vp"] for p in t.state["players"].values()) == pr.vp_counter_limit(4)


def test_troops_one_of_each_type_and_trading():
    t = Table()
    t.do("buy_troop", troop="pike", **PIKE)
    assert t.p("baglioni")["gold"] == 36
    t.do("end_turn")
    t.refused("buy_troop", "cost", troop="cavalry", **dict(CAVALRY, cost=99))
    t.turn_to("baglioni")
    t.refused("buy_troop", "troop", troop="pike", **PIKE)
    t.do("transfer", giver="baglioni", taker="gonzaga", currency="gold", amount=5)
    t.refused("transfer", "currency", giver="baglioni", taker="gonzaga", currency="vp", amount=1)
    assert t.p("gonzaga")["gold"] == 45


def test_every_named_thing_has_its_text():
    table, _ = texts.load_all()
    keys = [f"city.{c}" for c in pr.CITIES] + [f"family.{f}" for f in pr.FAMILIES]
    keys += [f"troop.{t}" for t in pr.TROOPS] + [f"tile.{k}" for k in pr.TILE_KINDS]
    keys += [f"event.{e}" for e in pr.EVENTS] + [f"card.{c}" for c in pr.CARDS]
    keys += [f"option.{o}" for o in (*pr.FORM_OPTIONS, *pr.CZECH_READINGS)] + [f"currency.{c}" for c in ("gold", "influence", "vp", "treachery")]
    keys += [f"skip.{r}" for r in ("city_limit", "no_troops", "attacker")]
    keys += ["pope", "income.family", "income.war_pay", "battle.neutral", "battle.modifier"]
    keys += [f"decade_end.{k}" for k in ("income", "pope", "tiles", "wars", "events", "final")]
    assert [k for k in keys if f"{pr.ID}.{k}" not in table] == []


# -- the auction leader stays able to pay (FACTS §3.4: never bid more than you can pay) --------------

def city_auction(t, amount=30):
    """Geoff opens a Rome city tile at `amount` gold; the others may still bid."""
    t.do("open_auction", lot="city", city="rome", tile="plain", gold=1, influence=0, amount=amount)


def test_a_trade_may_not_leave_the_auction_leader_unable_to_pay():
    t = Table()
    city_auction(t, 30)
    t.refused("transfer", "deal_amount", giver="baglioni", taker="gonzaga", currency="gold", amount=30)
    t.do("transfer", giver="baglioni", taker="gonzaga", currency="gold", amount=10)    # 30 left: still pays
    t.do("transfer", giver="d_este", taker="gonzaga", currency="gold", amount=35)      # not the leader
    t.do("transfer", giver="baglioni", taker="gonzaga", currency="influence", amount=12)
    for family in ("d_este", "malatesta", "gonzaga"):
        t.do("pass_bid", player=family)
    assert t.p("baglioni")["gold"] == 0


def test_banking_may_not_leave_the_auction_leader_unable_to_pay():
    t = Table()
    t.give("baglioni", banking={"city": "florence", "gold": 0, "influence": 0})
    city_auction(t, 40)
    t.refused("ability", "amount", player="baglioni", ability="banking", amount=3)      # 37 gold for a bid of 40
    t.do("ability", player="baglioni", ability="banking", amount=-3)                   # influence to gold is fine
    assert (t.p("baglioni")["gold"], t.p("baglioni")["influence"]) == (43, 9)


def test_no_ledger_correction_in_the_middle_of_an_auction():
    t = Table()
    city_auction(t, 30)
    t.refused("adjust", player="baglioni", what="gold", delta=-10, reason="miscount")
    t.refused("adjust", player="d_este", what="gold", delta=5, reason="miscount")
    for family in ("d_este", "malatesta", "gonzaga"):
        t.do("pass_bid", player=family)
    t.do("adjust", player="baglioni", what="gold", delta=-1, reason="miscount")
    assert t.p("baglioni")["gold"] == 40 - 30 - 1


def test_the_price_is_checked_again_at_payment():
    t = Table()
    city_auction(t, 30)
    t.p("baglioni")["gold"] = 20                     # however the ledger got there
    for family in ("d_este", "malatesta"):
        t.do("pass_bid", player=family)
    error = t.refused("pass_bid", player="gonzaga")
    assert "cannot pay" in str(error)
    assert t.p("baglioni")["gold"] == 20 and t.state["auction"]


def test_bid_limit_counts_the_swap_an_unused_banking_tile_allows():
    t = Table()
    t.give("baglioni", banking={"city": "florence", "gold": 0, "influence": 0})
    lot = {"kind": "city", "city": "rome"}
    assert pr.bid_limit(t.state, t.config, "baglioni", lot, "gold") == 43
    assert pr.bid_limit(t.state, t.config, "d_este", lot, "gold") == 40
    city_auction(t, 43)
    for family in ("d_este", "malatesta", "gonzaga"):
        t.do("pass_bid", player=family)
    assert (t.p("baglioni")["gold"], t.p("baglioni")["influence"]) == (0, 9)   # 3 influence swapped to pay
    assert "baglioni:banking" in t.state["used"] and t.state["last_auction"]["banking"] == 3
    t.do("end_turn")
    t.turn_to("baglioni")
    assert pr.bid_limit(t.state, t.config, "baglioni", lot, "gold") == 0       # used this decade


def test_banking_is_not_used_after_the_decades_last_event():
    t = Table()
    t.give("malatesta", banking={"city": "florence", "gold": 0, "influence": 0})
    play_decade(t)
    assert t.state["phase"] == "decade_end"
    t.refused("ability", player="malatesta", ability="banking", amount=3)


@pytest.mark.parametrize("options, allowed", [
    pytest.param(["banking_any_time"], True, id="english-rules-at-any-time"),
    pytest.param([], False, id="czech-summary-on-your-turn-only"),
])
def test_banking_timing_is_a_rule_option(options, allowed):
    """FACTS §3.8 (CONFLICT): the English rules allow Banking at any time, the Czech summary on your turn
    or when paying for a tile you won. The Czech reading is the default."""
    t = Table(dict(TABLE, options=options))
    t.give("malatesta", banking={"city": "florence", "gold": 0, "influence": 0})
    if allowed:
        t.do("ability", player="malatesta", ability="banking", amount=2)
    else:
        t.refused("ability", "player", player="malatesta", ability="banking", amount=2)
        t.turn_to("malatesta")
        t.do("ability", player="malatesta", ability="banking", amount=2)
    assert t.p("malatesta")["gold"] == 38


# -- Lucrezia Borgia and Alfonso of Aragon: the active player only; Lucrezia never mid-auction -------

def test_lucrezia_borgia_only_for_the_player_on_turn_and_never_mid_auction():
    t = Table()
    t.give("d_este", lucrezia_borgia={"city": "rome", "gold": 0, "influence": 0})
    t.refused("ability", "player", player="d_este", ability="lucrezia_borgia", target="baglioni")
    t.turn_to("d_este")
    t.do("open_auction", lot="pope", amount=12)
    t.refused("ability", player="d_este", ability="lucrezia_borgia", target="malatesta")
    for family in ("malatesta", "gonzaga", "baglioni"):
        t.do("pass_bid", player=family)
    t.do("ability", player="d_este", ability="lucrezia_borgia", target="malatesta")
    assert t.p("d_este")["influence"] == 2 and t.p("malatesta")["influence"] == 10


def test_alfonso_of_aragon_only_for_the_player_on_turn():
    t = Table()
    t.give("d_este", alfonso_of_aragon={"city": "naples", "gold": 0, "influence": 0})
    t.refused("ability", "player", player="d_este", ability="alfonso_of_aragon")
    t.turn_to("d_este")
    t.do("ability", player="d_este", ability="alfonso_of_aragon")
    assert t.p("d_este")["treachery"] == 1


# -- Bribe Troops: any troop in the war, own and the Pope's included --------------------------------

def test_bribe_troops_on_any_troop_in_the_war():
    t = Table()
    armies(t)
    t.p("d_este")["treachery"] = 3
    t.p("malatesta")["troops"] = {"crossbow": {"cost": 3, "attack": 1, "defence": 2, "gold": 0, "influence": 0}}
    t.state["pope"] = "malatesta"
    t.do("declare_war", attacker="venice", defender="rome")
    t.do("no_veto")
    t.do("bid", player="baglioni", amount=1)
    t.do("pass_bid", player="d_este")
    t.do("pass_bid", player="malatesta")
    t.do("bid", player="d_este", amount=1)
    t.do("pass_bid", player="malatesta")
    t.do("pope_joins", side="attacker")
    t.do("bribe", player="d_este", side="defender", troop="fortification")     # his own troop
    t.do("bribe", player="d_este", side="pope", troop="crossbow")              # the Pope's troop
    t.refused("bribe", "troop", player="d_este", side="attacker", troop="artillery")   # not in that army
    t.refused("bribe", "troop", player="d_este", side="pope", troop="crossbow")        # bribed already
    war = t.state["war"]
    assert pr.strength(t.state, t.config, war, "defender", "defence")[0] == 1 + 1      # artillery + d'Este
    assert pr.strength(t.state, t.config, war, "attacker", "attack")[0] == 2 + 0 + 1   # no crossbow
    assert t.p("d_este")["treachery"] == 1


# -- Freeze Bid: the player whose turn it is to bid plays it on another bidder still in --------------

def test_freeze_bid_is_played_by_the_bidder_on_turn_on_a_chosen_bidder():
    t = Table()
    t.p("d_este")["treachery"] = 1
    city_auction(t, 10)                                   # Geoff 10; Hammy, Stella and Timo to bid
    t.refused("play_card", "player", player="gonzaga", card="freeze_bid", target="malatesta")  # not his turn
    t.refused("play_card", "target", player="d_este", card="freeze_bid", target="d_este")
    t.do("play_card", player="d_este", card="freeze_bid", target="gonzaga")
    assert t.state["auction"]["next"] == "d_este" and t.p("d_este")["treachery"] == 0
    t.do("bid", player="d_este", amount=11)
    t.do("bid", player="malatesta", amount=12)
    assert t.state["auction"]["next"] == "baglioni"      # Timo was frozen: his turn became a pass
    assert {"player": "gonzaga", "pass": True, "frozen": True} in t.state["auction"]["log"]
    t.do("pass_bid", player="baglioni")
    t.do("pass_bid", player="d_este")
    assert t.p("malatesta")["tiles"][-1]["city"] == "rome"


def test_freeze_bid_needs_a_bidder_still_in():
    t = Table()
    t.p("malatesta")["treachery"] = 1
    city_auction(t, 10)
    t.do("pass_bid", player="d_este")
    t.refused("play_card", "target", player="malatesta", card="freeze_bid", target="d_este")


# -- second-most gold when most gold is tied: a rule option (FACTS §3.10) ----------------------------

@pytest.mark.parametrize("options, points", [
    pytest.param([], [6, 6, 3], id="default-next-lower-amount-is-second"),
    pytest.param(["tied-gold-no-second"], [6, 6, 0], id="option-a-tie-for-most-takes-second-place"),
])
def test_second_most_gold_after_a_tie_for_most_is_a_rule_option(options, points):
    """30/30/20: the third player gets 3 VP in one reading and 0 in the other."""
    payload = {"cities": PLAIN, "options": options,
               "players": [entry("a", gold=30), entry("b", gold=30), entry("c", gold=20)]}
    assert [p["breakdown"]["gold"] for p in pr.score_cli(payload)["players"]] == points


def test_the_gold_option_of_a_session_reaches_its_final_scoring():
    for options, points in (([], [6, 6, 0, 3]), (["tied_gold_no_second"], [6, 6, 0, 0])):
        t = Table(dict(TABLE, options=options))
        for family, gold in (("baglioni", 30), ("d_este", 30), ("malatesta", 10), ("gonzaga", 20)):
            t.p(family)["gold"] = gold
        assert [p["breakdown"]["gold"] for p in pr.GAME.result(t.state, t.config)["players"]] == points


@pytest.mark.parametrize("counters, line", [(1, "a: 1 VP counter = 1"), (3, "a: 3 VP counters, 1 + 2 + 3 = 6"),
                                            (6, "a: 6 VP counters, 1 + 2 + … + 6 = 21")])
def test_vp_counters_explain_their_sum(counters, line):
    """One counter is worth 1, not "1 + … + 1 = 1"; more show the sum they are."""
    lines = [m.english() for m in scored([entry("a", vp_counters=counters), entry("b")])["explain"]]
    assert line in lines


# -- issue 22: one table of what is allowed, and the faults players met -----------------------------

def test_the_start_war_card_is_played_once_a_game():
    """The box has one Start War card (FACTS §3.1): once played it is gone, so a game has at most one war
    off the war track, the one `companion score` counts in its bound of VP counters (issue 33: the
    engine let a card war start every turn, and the command refused the game's own numbers)."""
    t = Table()
    t.p("baglioni")["treachery"] = 2
    t.do("declare_war", attacker="milan", defender="rome")
    t.do("no_veto")
    t.do("declare_war", attacker="milan", defender="rome", card=True)
    t.do("no_veto")
    assert t.state["war"] is None and t.p("baglioni")["treachery"] == 1
    t.refused("declare_war", attacker="milan", defender="rome", card=True)
    rule = pr.moves(t.state, t.config)["declare_war"]
    assert rule.refusal is not None and "Start War" in rule.refusal.text
    t.do("end_turn")
    t.p("d_este")["treachery"] = 1
    t.turn_to("d_este")
    t.do("buy_troop", troop="pike", **PIKE)
    rule = pr.moves(t.state, t.config)["declare_war"]
    assert rule.refusal is not None and "Start War" in rule.refusal.text
    t.refused("declare_war", attacker="venice", defender="rome", card=True)
    t.turn_to("baglioni")
    t.refused("declare_war", attacker="milan", defender="rome", card=True)   # a new turn: still gone
    assert pr.vp_counter_limit(4) == pr.DECADES * 4 + 1 == 13   # 3 decades × 4 wars on the track, and the card


def test_the_veto_card_is_played_once_a_turn():
    t = Table()
    t.p("baglioni")["treachery"] = 1
    t.p("d_este")["treachery"] = 2
    t.do("declare_war", attacker="milan", defender="rome")
    t.do("veto", player="d_este", how="card")
    t.do("declare_war", attacker="venice", defender="rome", card=True)
    t.refused("veto", player="d_este", how="card")
    assert pr.moves(t.state, t.config)["veto"].refusal is not None       # and nobody holds Lorenzo Medici
    assert t.p("d_este")["treachery"] == 1


def test_the_opener_of_an_auction_may_pass():
    t = Table(dict(TABLE, options=[]))                # the Czech rules (the default)
    t.do("open_auction", lot="city", city="rome", tile="plain", gold=1, influence=0)
    a = t.state["auction"]
    assert a["out"] == ["baglioni"] and a["next"] == "d_este" and a["log"] == [{"player": "baglioni", "pass": True}]
    t.do("bid", player="d_este", amount=10)
    for family in ("malatesta", "gonzaga"):
        t.do("pass_bid", player=family)
    assert t.p("d_este")["tiles"][0]["city"] == "rome" and t.p("d_este")["gold"] == 30


def test_an_auction_nobody_bids_in_gives_the_lot_to_nobody():
    t = Table(dict(TABLE, options=[]))
    t.do("open_auction", lot="event", event="merchant", currency="gold", vp=0)
    for family in ("d_este", "malatesta", "gonzaga"):
        t.do("pass_bid", player=family)
    assert t.state["auction"] is None and t.state["merchant_event"] is None
    assert t.state["last_auction"]["winner"] is None
    t.do("end_turn")
    t.do("open_auction", lot="city", city="rome", tile="plain", gold=1, influence=0)
    for family in ("malatesta", "gonzaga", "baglioni"):
        t.do("pass_bid", player=family)
    assert all(not t.p(f)["tiles"] for f in t.state["players"])


def test_a_troop_costs_gold():
    t = Table()
    t.refused("buy_troop", "cost", troop="crossbow", cost=0, attack=1, defence=1)
    t.do("buy_troop", troop="crossbow", cost=3, attack=1, defence=1)
    assert t.p("baglioni")["gold"] == 37


def test_the_table_names_who_acts_in_each_step_of_a_war():
    t = Table()
    armies(t)
    t.do("declare_war", attacker="venice", defender="rome")
    assert pr.guide(t.state, t.config).actor == "baglioni"
    assert pr.moves(t.state, t.config)["no_veto"].by == {"baglioni"}
    t.do("no_veto")
    assert pr.guide(t.state, t.config).actor == "baglioni"          # the first bidder
    t.do("bid", player="baglioni", amount=1)
    t.do("pass_bid", player="d_este")
    t.do("bid", player="d_este", amount=1)
    guide, table = pr.guide(t.state, t.config), pr.moves(t.state, t.config)
    assert guide.actor == "baglioni" and guide.role.text == "Attacks:" and table["battle"].by == {"baglioni"}
    assert table["bribe"].by == {"baglioni", "d_este"} and table["end_turn"].refusal is not None
    t.do("battle", dice={"attacker": 1, "defender": 6})               # no attacker win: the counter-attack
    guide, table = pr.guide(t.state, t.config), pr.moves(t.state, t.config)
    assert guide.actor == "d_este" and guide.role.text == "Counter-attacks:" and table["battle"].by == {"d_este"}
    assert table["bribe"].refusal is not None and table["modifier"].refusal is not None
    t.refused("battle", player="baglioni", dice={"attacker": 1, "defender": 1})


def test_end_of_turn_is_the_player_on_turn_s():
    t = Table()
    assert pr.moves(t.state, t.config)["end_turn"].by == {"baglioni"}
    t.refused("end_turn", "player", player="d_este")
    t.do("end_turn", player="baglioni")
    assert pr.active_family(t.state, t.config) == "d_este"


def screen_after(actions, me=None):
    """The screen drawn after the script's `actions` (English), on a phone that belongs to `me`."""
    from companion.store import Store
    from companion.ui.app import Shell
    from companion.ui.viewmodel import ViewModel
    from tests.test_engine import SCRIPTS
    from tests.test_screens import Page
    form, script = SCRIPTS[pr.ID]
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm.set_language("en")
    assert vm.new_game(pr.ID, form)
    for kind, args in script[:actions]:
        assert vm.dispatch(kind, **args), (kind, vm.problem)
    vm.me = me
    shell.render()
    return vm, shell


def screen_words(shell):
    from tests.test_screens import controls_of
    import flet as ft
    return [c.value for c in controls_of(shell.page.controls) if isinstance(c, ft.Text) and c.value]


def test_the_war_result_shows_the_dice_and_the_strengths_compared():
    vm, shell = screen_after(13)              # B's Rome (pike 0/2) attacks neutral Milan: 0 + 4 against 3 + 2
    assert vm.state["war"] is None and vm.state["last_war"]["winner"] == "defender"   # no counter-attack (Czech)
    lines = screen_words(shell)
    assert "Round 1: Rome attack 0 + die 4 = 4 against Milan defence 3 + die 2 = 5" in lines


def test_the_counter_attack_shows_its_dice_and_strengths_too():
    from companion.store import Store
    from companion.ui.app import Shell
    from companion.ui.viewmodel import ViewModel
    from tests.test_engine import SCRIPTS
    from tests.test_screens import Page
    form, script = SCRIPTS[pr.ID]
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm.set_language("en")
    assert vm.new_game(pr.ID, dict(form, options=["counter_attack"]))
    for kind, args in script[:13]:
        assert vm.dispatch(kind, **args), (kind, vm.problem)
    assert vm.dispatch("battle", dice={"attacker": 1, "defender": 6})     # the counter-attack: 3 + 6 against 2 + 1
    shell.render()
    assert vm.state["war"] is None and vm.state["last_war"]["winner"] == "defender"
    lines = screen_words(shell)
    assert "Round 1: Rome attack 0 + die 4 = 4 against Milan defence 3 + die 2 = 5" in lines
    assert "Round 2: Rome defence 2 + die 1 = 3 against Milan attack 3 + die 6 = 9" in lines


def test_an_owned_phone_shows_the_other_bidders_controls_greyed():
    from companion.ui.widgets import Act
    from companion.ui.app import _walk
    vm, shell = screen_after(5, me="gonzaga")       # baglioni (A) bids next; this phone is C's
    acts = [c.data for c in _walk(shell.page.controls) if isinstance(c.data, Act)]
    assert {a.kind for a in acts} >= {"bid", "pass_bid"}
    assert all(a.refusal and "C" in a.refusal for a in acts if a.kind in ("bid", "pass_bid"))
    assert not [c for c in _walk(shell.page.controls)
                if getattr(c, "identifier", None) and c.identifier.startswith("bid-1")]   # no one-tap bids
    vm.me = "baglioni"
    shell.render()
    assert all(a.refusal is None for a in (c.data for c in _walk(shell.page.controls) if isinstance(c.data, Act))
               if a.kind in ("bid", "pass_bid"))


def test_the_header_names_the_condottiere_who_counter_attacks():
    t = Table()
    armies(t)
    t.do("declare_war", attacker="venice", defender="rome")
    t.do("no_veto")
    t.do("bid", player="baglioni", amount=1)
    t.do("pass_bid", player="d_este")
    t.do("bid", player="d_este", amount=1)
    t.do("battle", dice={"attacker": 1, "defender": 6})
    assert pr.guide(t.state, t.config).actor == "d_este"


# -- issue 26: rules and Czech, round 3 -------------------------------------------------------------

def test_a_score_error_names_the_city_as_the_box_does():
    """The field is the contract's (`venice`); the message names the city as the box prints it (issue 34)."""
    done = run_score({"cities": PLAIN, "players": [entry("a", city_tiles={"venice": 4}),
                                                   entry("b", city_tiles={"venice": 3}), entry("c")]})
    assert_refused(done, "players[1].city_tiles.venice")
    assert "more Venice tiles in all than the 6 in the game, got 7" in done.stderr
    assert "princes_of_the_renaissance." not in done.stderr


def test_caterina_sforza_keeps_her_defence_when_troops_are_bribed():
    t = Table()
    armies(t)
    t.give("d_este", caterina_sforza={"city": "milan", "gold": 0, "influence": 0})
    war = {"condottieri": {"attacker": "baglioni", "defender": "d_este"},
           "bribed": {"attacker": [], "defender": ["artillery", "fortification"]},
           "pope": None, "extra": {"attacker": 0, "defender": 0}}
    total, parts = pr.strength(t.state, t.config, war, "defender", "defence")
    assert total == 2 and parts == [("tile.caterina_sforza", 2)]


def test_ludovico_sforza_has_the_dice_thrown_again_once_a_decade():
    t = Table()
    armies(t)
    t.give("gonzaga", ludovico_sforza={"city": "milan", "gold": 0, "influence": 0})
    t.do("declare_war", attacker="venice", defender="rome")
    t.do("no_veto")
    t.do("bid", player="baglioni", amount=1)
    t.do("pass_bid", player="d_este")
    t.do("bid", player="d_este", amount=1)
    t.refused("battle", "reroll", dice={"attacker": 1, "defender": 6}, reroll="malatesta")   # not his tile
    t.do("battle", dice={"attacker": 1, "defender": 6}, reroll="gonzaga")
    assert "gonzaga:ludovico_sforza" in t.state["used"] and t.state["war"]["rounds"][0]["reroll"] == "gonzaga"
    t.refused("battle", "reroll", dice={"attacker": 6, "defender": 1}, reroll="gonzaga")      # once a decade


def test_the_income_form_never_keeps_the_numbers_of_an_undone_decade_end():
    vm, shell = screen_after(2)                     # decade I begins
    for event in ("bellini", "gozzoli", "da_vinci", "verrocchio"):
        assert vm.dispatch("open_auction", lot="event", event=event, currency="influence", vp=2, amount=0)
        while vm.state["auction"]:
            assert vm.dispatch("pass_bid", player=vm.state["auction"]["next"])
        if vm.state["phase"] == "play":
            assert vm.dispatch("end_turn")
    shell.render()
    computed = pr.income(vm.state, vm.session["config"], "baglioni")["gold"]
    shell.draft["income"]["incomes"]["baglioni"]["gold"] = 99   # an entry at the table, then an undo
    assert vm.undo() and vm.state["phase"] == "play"
    shell.render()
    assert vm.dispatch("pass_bid", player=vm.state["auction"]["next"]) and vm.state["phase"] == "decade_end"
    shell.render()
    assert shell.draft["income"]["incomes"]["baglioni"]["gold"] == computed
    assert vm.dispatch("book_income", incomes=shell.draft["income"]["incomes"])
    assert vm.state["players"]["baglioni"]["gold"] == 40 + computed


def czech(msg):
    from companion.i18n import Translator
    from companion.texts import load_all
    texts = load_all()[0]
    return Translator("cs", lambda key, lang: texts[key][lang]).msg(msg)


def test_one_event_tile_is_said_as_one_tile_worth_its_points_in_czech():
    result = scored([entry("a", events_vp=[4]), entry("b", events_vp=[2, 3]), entry("c")])
    lines = [czech(line) for line in result["explain"]]
    assert "a: kartička události v hodnotě 4 bodů" in lines
    assert "b: kartičky událostí 2 + 3 = 5" in lines
    assert not [line for line in lines if "4 = 4" in line]


def test_the_czech_texts_say_decade_second_place_and_no_english_abbreviations():
    from tests.test_czech import game_messages, game_texts, hits
    found = {}
    for pattern in (r"\bVB\b", r"\bVP\b", r"desetiletí", r"druhý nejvyšší"):
        found[pattern] = hits(pattern, game_texts(pr.ID), 0) + hits(pattern, game_messages(pr.ID), 0)
    assert found == {pattern: [] for pattern in found}


def test_the_czech_readings_are_the_default_and_a_config_stores_the_readings_in_force():
    czech = pr.GAME.new_config({"start": 0, "players": TABLE["players"]})
    assert czech["options"] == list(pr.CZECH_READINGS)
    english = pr.GAME.new_config(TABLE)
    assert english["options"] == []
    mixed = pr.GAME.new_config(dict(TABLE, options=["counter_attack", "tied_gold_no_second"]))
    assert "no_counter_attack" not in mixed["options"] and "milan_seven" in mixed["options"]
    assert "tied_gold_no_second" in mixed["options"]
    t = Table(dict(TABLE, options=[]), begin=False)
    assert t.state["cities"]["milan"]["status"] == 7 and pr.setup_items(t.config)[0]["params"]["milan"] == 7


def test_a_game_saved_before_the_czech_default_keeps_its_english_rules():
    """A stored config names the Czech readings it chose; the rest stays English, as it was."""
    from companion.engine import flow
    old = dict(pr.GAME.new_config(TABLE), options=["milan_seven"])      # saved with one Czech reading
    state = flow.replay(pr.GAME, old, [{"type": "begin", "args": {}}])
    assert state["cities"]["milan"]["status"] == 7
    assert not pr.option(old, "no_counter_attack") and not pr.option(old, "opener_may_pass")
    with pytest.raises(InvalidAction) as refused:   # the English rules it was saved with: the opener bids
        flow.apply(pr.GAME, old, state, {"type": "open_auction", "args": {
            "lot": "city", "city": "rome", "tile": "plain", "gold": 1, "influence": 0}})
    assert refused.value.field == "amount"


# -- issue 34 ---------------------------------------------------------------------------------------

def test_an_event_tile_nobody_bids_on_stays_on_display_and_the_decade_ends_when_the_last_is_sold():
    """The Czech summary: the decade ends "when the last event tile of the decade is sold" (vydraží). An
    event tile nobody bids on (the opener may pass by the Czech rules) is not sold: it stays on display,
    may be auctioned again, and does not count toward the decade's end."""
    t = Table(dict(TABLE, options=[]))
    for event in ("bellini", "gozzoli", "da_vinci"):
        t.turn_to(pr.active_family(t.state, t.config))
        t.do("open_auction", lot="event", event=event, currency="influence", vp=2, amount=0)
        for _ in range(3):
            t.do("pass_bid", player=t.state["auction"]["next"])
        t.do("end_turn")
    assert t.state["events_left"] == 1
    t.do("open_auction", lot="event", event="michelangelo", currency="gold", vp=4)      # the opener passes
    for _ in range(3):
        t.do("pass_bid", player=t.state["auction"]["next"])
    assert t.state["last_auction"]["winner"] is None
    assert t.state["events_left"] == 1 and "michelangelo" not in t.state["events_done"]
    assert t.state["phase"] == "play" and t.state["decade"] == 1
    t.do("end_turn")
    t.do("open_auction", lot="event", event="michelangelo", currency="gold", vp=4, amount=0)   # again: sold
    for _ in range(3):
        t.do("pass_bid", player=t.state["auction"]["next"])
    assert t.state["events_left"] == 0 and t.state["phase"] == "decade_end"


def test_a_war_nobody_can_veto_goes_to_the_auctions_in_one_entry_that_one_undo_takes_back():
    """A war declared while nobody holds a treachery card or an unused Lorenzo Medici: the screen's
    declaration goes on to the condottiere auctions in the same entry, so Undo takes the declaration
    back, not to a veto step nobody can use."""
    t = Table()
    armies(t)
    before = t.state
    t.do("declare_war", attacker="venice", defender="rome", skip_veto=True)
    assert t.state["war"]["stage"] == "attacker" and t.state["auction"]["lot"]["side"] == "attacker"
    assert t.state["wars"] == 1
    t.state = before                                   # one Undo: the war was never declared
    t.p("d_este")["treachery"] = 1                     # a card in a hand may be the Veto: the veto step stays
    t.do("declare_war", attacker="venice", defender="rome", skip_veto=True)
    assert t.state["war"]["stage"] == "veto"
    t.refused("declare_war", attacker="venice", defender="rome", skip_veto="yes")


def test_declaring_a_war_nobody_can_veto_on_the_screen_is_one_entry_and_one_undo():
    from companion.games.princes_of_the_renaissance import screens_turn
    vm, shell = screen_after(9)                     # nobody holds a treachery card or Lorenzo Medici
    screens_turn._declare(shell, {"attacker": "rome", "defender": "milan"})
    assert [a["type"] for a in vm.session["log"][9:]] == ["declare_war"]
    assert vm.state["war"]["stage"] == "attacker"
    assert vm.undo_label() == "Undo: War: Rome attacks Milan"
    assert vm.undo() and vm.state["war"] is None and len(vm.session["log"]) == 9


TEXTS = texts.load_all()[0]


@pytest.mark.parametrize("step", ["city", "pope", "event"])
def test_the_auction_steps_say_the_opener_may_pass_as_the_czech_rules_do(step):
    """The Czech rules (the default) let the opener of an auction pass: the step texts say so, and
    that the English rulebook has him bid."""
    body = {lang: TEXTS[f"{pr.ID}.step.standard.{step}.body"][lang] for lang in ("en", "cs")}
    assert "or pass" in body["en"] and "English rulebook the opener must bid" in body["en"]
    assert "nebo pasujte" in body["cs"] and "anglických pravidel musí zahajující nabídnout" in body["cs"]


def test_the_event_step_says_a_tile_nobody_bids_on_stays_and_the_decade_ends_when_the_last_is_sold():
    for lang, stays, sold in (("en", "stays on display", "has been sold"), ("cs", "zůstává vyložená", "vydraží")):
        step = {part: TEXTS[f"{pr.ID}.step.standard.event.{part}"][lang] for part in ("body", "remind", "note")}
        assert stays in step["body"] and stays in step["remind"] and stays in step["note"]
        assert sold in step["body"]
    assert "the opener keeps the tile" not in TEXTS[f"{pr.ID}.step.standard.event.remind"]["en"]


def test_the_rulebook_is_one_choice_and_each_point_may_be_read_the_other_way():
    """An English group plays by its own rulebook with one choice, not eight ticks; each point may
    still be read the other way, and the stored config names the readings in force (issue 34)."""
    players = {"start": 0, "players": TABLE["players"]}
    english = pr.GAME.new_config(dict(players, edition="english"))
    assert english["edition"] == "english" and english["options"] == []
    assert pr.GAME.new_config(players)["options"] == list(pr.CZECH_READINGS)      # a form naming none: Czech
    mixed = pr.GAME.new_config(dict(players, edition="english", options=["opener_may_pass", "tied_gold_no_second"]))
    assert mixed["options"] == ["opener_may_pass", "tied_gold_no_second"]
    czech = pr.GAME.new_config(dict(players, edition="czech", options=["counter_attack"]))
    assert "no_counter_attack" not in czech["options"] and "milan_seven" in czech["options"]
    for stored in (english, mixed, czech):            # a stored config is a form the check accepts again
        assert pr.GAME.new_config(stored)["options"] == stored["options"]
    with pytest.raises(InvalidAction) as refused:
        pr.GAME.new_config(dict(players, edition="german"))
    assert refused.value.field == "edition"


def new_game_form(lang):
    from companion.store import Store
    from companion.ui.app import Shell
    from companion.ui.viewmodel import ViewModel
    from tests.test_screens import Page
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm.set_language(lang)
    vm.go(f"new:{pr.ID}")
    shell.render()
    for i, name in enumerate(("Anna", "Bořek", "Cyril")):
        shell.draft["new"]["players"][i]["name"] = name
    return vm, shell


@pytest.mark.parametrize("lang, edition, in_force", [("en", "english", []), ("cs", "czech", list(pr.CZECH_READINGS))])
def test_the_form_proposes_the_rulebook_of_the_phones_language(lang, edition, in_force):
    from tests.test_village import tap
    vm, shell = new_game_form(lang)
    assert shell.draft["new"]["edition"] == edition
    tap(shell, "create")
    assert vm.session["config"]["edition"] == edition and vm.session["config"]["options"] == in_force


def test_the_form_folds_the_points_under_the_rulebook_and_a_new_rulebook_clears_them():
    from tests.test_village import tap
    vm, shell = new_game_form("en")
    words = tap(shell, "option-opener_may_pass")          # English rulebook, but the opener may pass
    assert "1 point read otherwise" in words
    tap(shell, "edition-czech")
    assert shell.draft["new"]["options"] == []           # the points of the rulebook left go with it
    tap(shell, "edition-english")
    tap(shell, "option-opener_may_pass")
    tap(shell, "create")
    assert vm.session["config"]["options"] == ["opener_may_pass"]


@pytest.mark.parametrize("options", [[], ["milan_seven"], list(pr.CZECH_READINGS), ["tied_gold_no_second"]])
def test_a_config_saved_before_the_rulebook_choice_keeps_its_rules_when_checked_or_imported(options):
    """A saved config names the Czech readings in force, the other points English: checking the saved
    file or importing it (both pass the config through new_config again) keeps exactly those."""
    old = {"game": pr.ID, "variant": "standard", "start": 0, "players": TABLE["players"], "options": options}
    again = pr.GAME.new_config(old)
    assert again["options"] == options
    assert again["edition"] == ("czech" if options == list(pr.CZECH_READINGS) else "english")
    assert pr.GAME.new_config(again) == again


def test_a_war_nobody_can_fight_is_said_before_it_is_declared():
    """Issue 35: with no troop in any family (FACTS §3.5.3: only families with a troop bid for a
    condottiere), a war would end at once without a result, yet count on the war track (§3.5.1, .4):
    the war form says so before the war is declared, and says nothing once a family has a troop."""
    from tests.test_screens import by_id, words
    vm, shell = screen_after(2)                      # decade I begins: nobody has bought a troop yet
    assert not pr.condottieri_for_hire(vm.state)
    shell.draft["action"]["step"] = "war"
    shell.render()
    assert "still count on the war track" in words(by_id(shell.page, "war-nobody"))
    vm, shell = screen_after(3)                      # Anna has bought a pike
    assert pr.condottieri_for_hire(vm.state)
    shell.draft["action"]["step"] = "war"
    shell.render()
    assert not [w for w in screen_words(shell) if "No family has a troop" in w]
