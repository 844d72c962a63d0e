"""Elfenland and Elfengold: final scoring (FACTS §5.1, §5.5; TV-E9) and `companion score elfenland`; the
session: road costs (TV-E1…E4, E6), gold (TV-E7, E8), the tile auction, moves, rounds and the town race."""
from __future__ import annotations


import pytest

from companion import texts
from companion.games.elfenland import rules as el
from tests.conftest import assert_refused
from tests.conftest import run_score as score

GAME_NAME = "elfenland"
TEXTS = texts.load_all()[0]


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


def test_the_tie_line_says_who_still_shares_a_place():
    players = [{"id": "a", "towns": 20, "gold": 5}, {"id": "b", "towns": 20, "gold": 5},
               {"id": "c", "towns": 20, "gold": 9}]
    lines = [m.english() for m in el.final_scores(True, players)["explain"]]
    assert "a and b still tie on gold as well and share place 2." in lines


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
    pytest.param({"players": [{"id": "a", "towns": 2, "cards": 5}, {"id": "b", "towns": 2, "cards": 1}]},
                 "players[0].cards", id="base-hand-above-the-4-kept-after-a-move"),
    pytest.param({**GOLD, "options": ["elfengold", "wizards"]}, "options[1]", id="unknown-option"),
    pytest.param({**GOLD, "players": [{"id": "a", "towns": -1, "gold": 1}, GOLD["players"][1]]}, "players[0].towns",
                 id="negative"),
    pytest.param("{", "JSON", id="malformed"),
])
def test_bad_input_exits_2_naming_the_field(payload, field):
    done = run_score(payload)
    assert_refused(done, field)


# ----------------------------------------------------------------------------------------------
# The session: rounds, gold, the tile auction, moves and the town race (FACTS §5.1–5.6)

from companion.engine.model import InvalidAction  # noqa: E402
from tests.conftest import Table as SharedTable  # noqa: E402

TABLE = {"start": 0, "variant": "elfengold", "wizards": True,
         "players": [{"colour": "red", "name": "Ann"}, {"colour": "blue", "name": "Ben"},
                     {"colour": "green", "name": "Cid"}]}


class Table(SharedTable):
    """An Elfengold session with the Elf wizards, 3 players."""

    game = el.GAME
    form = TABLE

    def gold(self, colour):
        return self.state["players"][colour]["gold"]

    def to(self, step):
        while self.state["step"] != step:
            self.do("next_phase")


@pytest.mark.parametrize("road, transport, obstacle, cards", [
    ("desert", "troll_wagon", True, 3),         # TV-E1
    ("woods", "dragon", True, 3),               # TV-E2
    ("plains", "elfcycle", False, 1),           # TV-E2
    ("downstream", None, False, 1),             # TV-E3
    ("upstream", None, False, 2),               # TV-E3
    ("woods", "magic_cloud", False, 2),         # TV-E4: there and back is 2 + 2
    ("lake", None, True, 3),                    # TV-E6: a sea monster on the lake
    ("desert", "giant_pig", False, None),
    ("mountains", None, True, 4),               # a caravan with an obstacle
])
def test_road_costs(road, transport, obstacle, cards):
    assert el.road_cost(road, transport, obstacle) == cards


def test_tv_e8_a_gold_road_doubles_the_next_town():
    assert el.move_gold([{"town": "usselen"}, {"town": "grangor", "gold_road": True}])[0] == 4 + 2 * 5
    assert el.move_gold([{"town": "elvenhold"}, {"town": "beata"}, {"town": "elvenhold"}, {"town": "beata"}])[0] == 4


def test_setup_and_round_one_skips_drawing_and_income():
    t = Table(begin=False)
    assert all(p["gold"] == 12 for p in t.state["players"].values())
    ids = [i["id"] for i in el.setup_items(t.config)]
    assert "wizards" in ids and "gold_discs" in ids and "base_obstacles" not in ids
    assert next(i for i in el.setup_items(t.config) if i["id"] == "pool")["params"] == {"n": 48}
    t.do("begin")
    assert t.state["step"] == "tiles"


def to_moves(t):
    """Round 1 up to its moves, the auction settled in one entry."""
    t.do("advance", to="auction")
    t.do("no_more_bids", tile=0, winner=None, price=None)
    t.do("advance", to="move")


def test_tv_e7_the_gold_pile_and_income_from_round_two():
    t = Table()
    to_moves(t)
    t.do("gold_card")
    t.do("gold_card")
    t.do("take_pile", player="blue")
    assert t.gold("blue") == 12 + 6 and t.state["gold_pile"] == 0
    t.refused("take_pile", player="blue")


def auction_phase(t):
    t.to("auction")
    t.do("reveal", tiles=["dragon", "gold", "unicorn", "tree", "exchange", "giant_pig"])


def test_the_tile_auction():
    t = Table()
    t.to("auction")
    t.refused("reveal", "tiles", tiles=["dragon"] * 6)            # only 4 dragons in the pool
    t.refused("reveal", "tiles", tiles=["dragon"] * 5)            # 2 × 3 players = 6
    auction_phase(t)
    a = t.state["auction"]
    assert a["lot"] == {"tile": "dragon", "index": 0} and a["bidders"] == ["red", "blue", "green"]
    t.do("bid", player="red", amount=3)
    t.do("bid", player="blue", amount=4)
    t.do("pass_bid", player="green")
    t.do("pass_bid", player="red")
    assert t.gold("blue") == 8 and t.state["sold"][-1] == {"tile": "dragon", "index": 0, "winner": "blue", "price": 4}
    assert t.state["auction"]["lot"] == {"tile": "gold", "index": 1}
    for colour in ("red", "blue", "green"):                       # nobody bids: back to the pool
        t.do("pass_bid", player=colour)
    assert t.state["sold"][-1]["winner"] is None
    t.refused("next_phase")


def test_a_winner_who_cannot_pay_loses_all_his_gold_and_the_tile_goes_up_again():
    t = Table()
    auction_phase(t)
    t.do("bid", player="red", amount=20)
    t.do("pass_bid", player="blue")
    t.do("pass_bid", player="green")
    assert t.gold("red") == 0 and t.state["sold"][-1]["broke"]
    assert t.state["auction"]["lot"] == {"tile": "dragon", "index": 0} and t.state["auction"]["log"] == []
    assert t.state["auction"]["bidders"] == ["blue", "green"]   # broke: he cannot bid again and again
    t.refused("bid", "player", player="red", amount=1)
    t.do("bid", player="blue", amount=2)
    t.do("pass_bid", player="green")
    assert t.gold("blue") == 10


def test_nobody_with_gold_left_sends_the_tile_back_to_the_pool():
    t = Table()
    for colour in ("red", "blue", "green"):
        t.state["players"][colour]["gold"] = 0
    auction_phase(t)
    assert t.state["auction"] is None and [s["winner"] for s in t.state["sold"]] == [None] * 6


def test_the_auction_cannot_be_skipped_before_the_tiles_are_turned_up():
    t = Table()
    t.to("auction")
    t.refused("next_phase")
    assert t.state["step"] == "auction"


def finish_auction(t):
    while t.state["auction"]:
        t.do("pass_bid", player=t.state["auction"]["next"])


def test_moves_pay_gold_or_two_cards_and_collect_towns():
    t = Table()
    auction_phase(t)
    finish_auction(t)
    t.to("move")
    t.refused("move", "player", player="blue", visits=[{"town": "beata"}], take="gold")
    t.refused("move", "visits", player="red", visits=[{"town": "elvenhold"}], take="gold")
    t.do("move", player="red", visits=[{"town": "usselen"}, {"town": "grangor", "gold_road": True},
                                       {"town": "usselen"}], take="gold")
    assert t.gold("red") == 12 + 4 + 10 + 4 and t.state["players"]["red"]["towns"] == ["usselen", "grangor"]
    assert t.state["players"]["red"]["at"] == "usselen"
    t.do("move", player="blue", visits=[{"town": "virst"}], take="cards")
    assert t.gold("blue") == 12
    t.refused("move", "wizard_obstacles", player="green", visits=[{"town": "al_baran", "carpet": True}],
              take="gold", wizard_obstacles=10)
    t.do("move", player="green", visits=[{"town": "beata"}, {"town": "al_baran", "carpet": True}], take="gold",
         wizard_obstacles=1)
    assert t.gold("green") == 12 - 1 - 3 + 2                 # a carpet's town pays nothing
    t.do("next_phase")
    t.do("next_phase")                                       # end of round 1: the start player passes left
    assert (t.state["round"], t.state["step"]) == (2, "draw")
    assert el.colour_at(t.config, t.state["start"]) == "blue"
    t.do("next_phase")
    assert t.gold("red") == 30 + 2                           # income from round 2


def test_one_obstacle_per_road_bounds_the_wizard_cards_for_obstacles():
    """Each road holds at most one obstacle, so a wizard stands in for at most one extra card per road
    travelled; a flying carpet uses no road."""
    t = Table()
    auction_phase(t)
    finish_auction(t)
    t.to("move")
    t.refused("move", "wizard_obstacles", player="red", visits=[{"town": "beata"}, {"town": "al_baran",
                                                                                    "carpet": True}],
              take="gold", wizard_obstacles=2)
    t.do("move", player="red", visits=[{"town": "beata"}, {"town": "virst"}], take="gold", wizard_obstacles=2)
    assert t.gold("red") == 12 + 2 + 3 - 2


def test_gold_cards_among_the_two_cards_drawn_instead_of_gold_go_onto_the_gold_pile():
    t = Table()
    auction_phase(t)
    finish_auction(t)
    t.to("move")
    t.refused("move", "gold_cards", player="red", visits=[{"town": "beata"}], take="gold", gold_cards=1)
    t.do("move", player="red", visits=[{"town": "beata"}], take="cards", gold_cards=1)
    assert t.state["gold_pile"] == 1 and t.gold("red") == 12
    t.refused("pass_move", "gold_cards", player="blue", gold_cards=7)      # only 7 gold cards exist
    t.do("pass_move", player="blue", gold_cards=2)
    assert t.state["gold_pile"] == 3


def test_wizard_moves_need_the_variant():
    t = Table(dict(TABLE, wizards=False))
    auction_phase(t)
    finish_auction(t)
    t.to("move")
    t.refused("move", "visits", player="red", visits=[{"town": "beata", "carpet": True}], take="gold")


def test_the_game_ends_after_the_round_in_which_someone_has_all_twenty_towns():
    t = Table()
    t.state["players"]["blue"]["towns"] = sorted(el.GOLD_DISCS)
    auction_phase(t)
    finish_auction(t)
    t.to("move")
    for _ in range(3):
        t.do("pass_move", player=el.colour_at(t.config, t.state["turn"]))
    t.to("end")
    t.do("next_phase")
    assert t.state["phase"] == "final"
    result = el.GAME.result(t.state, t.config)
    assert result["winners"] == ["blue"] and result["players"][1]["total"] == 20
    t.do("finish")


def test_base_game_four_rounds_and_the_travel_card_tie_break():
    t = Table({"start": 1, "variant": "base", "players": TABLE["players"][:2]})
    assert t.state["step"] == "deal" and t.gold("red") == 0
    t.refused("gold_card")
    for _ in range(4):
        t.to("move")
        t.do("pass_move", player=el.colour_at(t.config, t.state["turn"]))
        t.do("pass_move", player=el.colour_at(t.config, t.state["turn"]))
        t.to("end")
        t.do("next_phase")
    assert t.state["phase"] == "final"
    t.refused("cards", "cards.red", cards={"red": -1, "blue": 3})
    t.refused("cards", "cards.blue", cards={"red": 2, "blue": 5})    # a hand keeps 4 cards after a move
    t.do("cards", cards={"red": 2, "blue": 4})
    assert el.GAME.result(t.state, t.config)["winners"] == ["blue"]


def test_a_gold_correction_stays_within_the_gold_in_the_box():
    t = Table()
    t.refused("adjust", "delta", player="red", delta=300 - 36 + 1, reason="miscount")   # 3 × 12 gold are out
    t.do("adjust", player="red", delta=300 - 36, reason="miscount")


def test_elf_wizards_only_with_elfengold():
    with pytest.raises(InvalidAction) as caught:
        el.GAME.new_config(dict(TABLE, variant="base"))
    assert caught.value.field == "wizards"


# ----------------------------------------------------------------------------------------------
# Issue 13: the app's "next phase" and the quiet paths, one entry each (FACTS §5.4)

def english(t, kind, **args):
    return el.describe({"type": kind, "args": args}, t.config).english(lambda key: key.rsplit(".", 1)[-1])


def test_advance_turns_up_the_row_on_entering_the_auction():
    t = Table()
    assert t.state["step"] == "tiles"
    t.refused("advance", to="plan")                              # the tap was meant for another phase
    t.do("advance", to="auction")
    a = t.state["auction"]
    assert t.state["row"] == [None] * 6 and a["lot"] == {"tile": None, "index": 0} and a["next"] == "red"
    t.refused("advance", to="plan")                              # issue 14: the row is auctioned first
    t.refused("next_phase")
    assert english(t, "advance", to="auction") == "Auction: 6 tiles turned up"


def test_advance_books_the_income_on_the_way_to_the_tiles():
    """Income (phase 2) has nothing to enter: from the drawing phase the app books 2 gold each and
    goes on to drawing tiles, in one entry."""
    t = Table()
    quiet_round(t)
    assert (t.state["round"], t.state["step"]) == (2, "draw") and t.gold("blue") == 12
    t.refused("advance", to="income")
    t.do("advance", to="tiles")
    assert t.state["step"] == "tiles" and all(t.gold(c) == 12 + 2 for c in ("red", "blue", "green"))
    assert english(t, "advance", to="tiles") == "Income booked: +2 gold each"


def quiet_round(t):
    """A round where nothing happens, as the app enters it: 6 entries from its first phase."""
    first = t.state["step"]
    if first == "draw":
        t.do("advance", to="tiles")
    t.do("advance", to="auction")
    t.do("no_more_bids", tile=0, winner=None, price=None)
    t.do("advance", to="move")
    t.do("nobody_moves", players=el.waiting_movers(t.state, t.config))
    t.do("advance", to="final" if t.state["round"] == 6 else "draw")


def test_a_quiet_round_is_six_entries_and_books_what_the_rules_say():
    t = Table()
    quiet_round(t)                                                # round 1: no drawing, no income
    quiet_round(t)
    assert (t.state["round"], t.state["step"]) == (3, "draw")
    assert el.colour_at(t.config, t.state["start"]) == "green"   # the start player passed left twice
    assert [s["winner"] for s in t.state["sold"]] == []           # a new round: a new row
    assert all(t.gold(c) == 12 + 2 for c in ("red", "blue", "green"))
    for _ in range(4):
        quiet_round(t)
    assert t.state["phase"] == "final" and t.gold("red") == 12 + 5 * 2


def test_nobody_bids_on_this_tile_sends_it_back_to_the_pool():
    t = Table()
    t.do("advance", to="auction")
    t.refused("no_bid", tile=1, winner=None, price=None)          # the screen showed another tile
    t.do("no_bid", tile=0, winner=None, price=None)
    assert t.state["sold"] == [{"tile": None, "index": 0, "winner": None, "price": 0}]
    assert t.state["auction"]["lot"]["index"] == 1 and t.state["auction"]["next"] == "red"
    assert english(t, "no_bid", tile=0, winner=None, price=None) == "Nobody bids on tile 1: back to the pool"


def test_nobody_else_bids_gives_the_tile_to_the_highest_bidder():
    t = Table()
    t.do("advance", to="auction")
    t.do("bid", player="red", amount=2)
    t.do("bid", player="blue", amount=3)
    t.refused("no_bid", tile=0, winner="red", price=2)            # outbid meanwhile
    t.do("no_bid", tile=0, winner="blue", price=3)
    assert t.gold("blue") == 12 - 3 and t.state["sold"][-1]["winner"] == "blue"
    assert t.state["auction"]["lot"]["index"] == 1 and t.state["step"] == "auction"
    assert english(t, "no_bid", tile=0, winner="blue", price=3) == "Nobody else bids: Ben wins tile 1 at 3 gold coins"


def test_nobody_else_bids_this_round_sells_the_tile_on_offer_and_returns_the_rest():
    t = Table()
    t.do("advance", to="auction")
    t.do("no_bid", tile=0, winner=None, price=None)
    t.do("pass_bid", player="red")
    t.do("bid", player="blue", amount=4)
    t.do("no_more_bids", tile=1, winner="blue", price=4)
    assert [(s["index"], s["winner"]) for s in t.state["sold"]] == [(0, None), (1, "blue"), (2, None), (3, None),
                                                                     (4, None), (5, None)]
    assert t.gold("blue") == 12 - 4 and t.gold("red") == t.gold("green") == 12
    assert t.state["step"] == "plan" and t.state["auction"] is None
    assert english(t, "no_more_bids", tile=1, winner="blue", price=4) == (
        "No more bids: Ben wins tile 2 at 4 gold coins, 4 back to the pool")
    assert english(t, "no_more_bids", tile=5, winner=None, price=None) == (
        "No more bids: the last tile back to the pool")


def test_a_player_who_bids_no_more_this_round_is_not_asked_again_until_the_next_round():
    t = Table()
    t.do("advance", to="auction")
    t.refused("sit_out", player="blue")                            # red bids first: not blue's turn
    t.do("bid", player="red", amount=1)
    t.do("sit_out", player="blue")                                 # passes on tile 1, and on the rest
    assert english(t, "sit_out", player="blue") == "Ben passes and bids on no more tiles this round"
    t.do("bid", player="green", amount=2)
    t.do("pass_bid", player="red")                                 # green wins tile 1 at 2
    assert t.state["sold"][-1]["winner"] == "green" and t.gold("green") == 12 - 2
    offer = t.state["auction"]                                     # tile 2: blue is not asked
    assert offer["lot"]["index"] == 1 and offer["bidders"] == ["red", "green"]
    assert offer["skipped"] == [{"player": "blue", "reason": "sits_out"}]
    t.do("bid", player="red", amount=1)
    t.refused("bid", player="blue", amount=2)                      # his turn does not come back this round
    t.do("pass_bid", player="green")
    assert t.state["sold"][-1]["winner"] == "red" and t.state["auction"]["next"] == "red"
    t.do("no_more_bids", tile=2, winner=None, price=None)
    t.do("advance", to="move")
    t.do("nobody_moves", players=["red", "blue", "green"])
    while t.state["round"] == 1 or t.state["step"] != "auction":
        t.do("advance", to=el.next_stop(t.state, t.config))
    assert "blue" in t.state["auction"]["bidders"] and not t.state["auction"]["skipped"]   # a new round


def test_no_more_bids_when_the_winner_cannot_pay():
    """He gives all his gold to the bank and the tile goes up again; nobody else bids: it goes back."""
    t = Table()
    t.do("advance", to="auction")
    t.do("bid", player="red", amount=20)
    t.do("no_more_bids", tile=0, winner="red", price=20)
    assert t.gold("red") == 0 and t.state["sold"][0]["broke"]
    assert [s["winner"] for s in t.state["sold"][1:]] == [None] * 6 and t.state["step"] == "plan"


def test_the_quiet_auction_paths_need_a_running_auction():
    t = Table()
    t.refused("no_bid", tile=0, winner=None, price=None)
    t.refused("no_more_bids", tile=0, winner=None, price=None)


def test_nobody_else_moves():
    """Each player who has not moved passes (in Elfengold drawing 2 cards), and the move phase ends."""
    t = Table()
    t.do("advance", to="auction")
    t.do("no_more_bids", tile=0, winner=None, price=None)
    t.do("advance", to="move")
    t.refused("nobody_moves", "player", players=["blue", "green"])   # Ann has not moved yet
    t.do("move", player="red", visits=[{"town": "beata"}], take="gold")
    assert el.waiting_movers(t.state, t.config) == ["blue", "green"]
    assert english(t, "nobody_moves", players=["blue", "green"]) == "Ben and Cid do not move and draw 2 cards each"
    t.refused("nobody_moves", "player", players=["green", "blue"])
    t.do("nobody_moves", players=["blue", "green"])
    assert t.state["step"] == "end" and all(p["moved"] for p in t.state["players"].values())
    assert t.gold("red") == 12 + 2 and t.gold("blue") == 12 and t.state["gold_pile"] == 0
    t.refused("nobody_moves", players=[])


def test_nobody_moves_in_the_base_game():
    t = Table({"start": 1, "variant": "base", "players": TABLE["players"][:2]})
    t.to("move")
    assert el.waiting_movers(t.state, t.config) == ["blue", "red"]
    assert english(t, "nobody_moves", players=["blue"]) == "Ben does not move"
    t.do("nobody_moves", players=["blue", "red"])
    assert t.state["step"] == "end"


def test_a_row_turned_up_without_naming_its_tiles_and_a_malformed_row():
    """A game that entered the auction before issue 13 turns up its row with one entry; a row that is
    not a list of tile names is refused with a message (it raised TypeError before)."""
    t = Table()
    t.to("auction")
    t.refused("reveal", "tiles", tiles=[["dragon"]] * 6)
    t.refused("reveal", "tiles", tiles=[{}] * 6)
    t.do("reveal")
    assert t.state["row"] == [None] * 6 and t.state["auction"]["lot"]["index"] == 0


def test_the_undo_labels_name_the_player_and_the_gold():
    t = Table()
    assert english(t, "take_pile", player="blue", cards=2) == "Ben takes the gold pile: +6 gold"
    assert english(t, "move", player="red", visits=[{"town": "usselen"}, {"town": "grangor", "gold_road": True}],
                   take="gold") == "Ann moves to grangor: +14 gold"
    assert english(t, "move", player="red", visits=[{"town": "beata"}, {"town": "virst", "carpet": True}],
                   take="cards", wizard_obstacles=1) == "Ann moves to virst and draws 2 cards: -4 gold"
    assert english(t, "pass_move", player="red") == "Ann does not move and draws 2 cards"
    assert english(t, "cards", cards={"red": 2, "blue": 4, "green": 0}) == "Travel cards in hand: Ann 2, Ben 4, Cid 0"


def test_taking_the_gold_pile_names_the_pile_the_screen_showed():
    t = Table()
    to_moves(t)
    t.do("gold_card")
    t.do("gold_card")
    t.refused("take_pile", player="blue", cards=1)
    t.do("take_pile", player="blue", cards=2)
    assert t.gold("blue") == 12 + 6


def test_a_gold_correction_cannot_take_more_than_the_player_holds():
    t = Table()
    caught = t.refused("adjust", "delta", player="red", delta=-13, reason="miscount")
    assert caught.msg.english() == "Ann holds 12 gold: a correction cannot take more."
    t.do("adjust", player="red", delta=-12, reason="miscount")
    assert t.gold("red") == 0


# ----------------------------------------------------------------------------------------------
# Issue 22: one table of what is allowed (GameDef.moves), the header from it, owned phones

from companion.engine import flow  # noqa: E402


def table(t):
    return flow.moves(el.GAME, t.config, t.state)


def header(t):
    g = el.guide(t.state, t.config)
    return g.actor, g.role.english() if g.role else None


def test_the_header_names_who_acts_in_every_phase_and_agrees_with_the_table():
    """The bidder during an auction, the mover in the move phase, the start player where he opens the
    phase: the header's actor is the `by` of the entry that is due."""
    t = Table()
    assert header(t) == ("red", "Draws first:")                      # round 1 opens with the tiles phase
    auction_phase(t)
    t.do("bid", player="red", amount=1)
    assert header(t) == ("blue", "Bids:") and table(t)["bid"].by == {"blue"} == table(t)["pass_bid"].by
    t.do("pass_bid", player="blue")
    t.do("pass_bid", player="green")                                  # tile 2 opens with the start player
    assert header(t) == ("red", "Bids:") and table(t)["bid"].by == {"red"}
    finish_auction(t)
    assert header(t) == ("red", "Start player:")
    t.do("advance", to="plan")
    assert header(t) == ("red", "Plans first:")
    t.do("advance", to="move")
    t.do("move", player="red", visits=[{"town": "beata"}], take="gold")
    assert header(t) == ("blue", "Moves:") and table(t)["move"].by == {"blue"} == table(t)["pass_move"].by
    t.do("nobody_moves", players=["blue", "green"])
    t.do("advance", to="draw")                                        # round 2: blue starts
    assert header(t) == ("blue", "Draws first:")


def test_the_base_game_header_and_its_phases():
    t = Table({"start": 1, "variant": "base", "players": TABLE["players"][:2]})
    assert header(t) == ("blue", "Start player:")                     # dealing: the cards go round at once
    t.to("draw_three")
    assert header(t) == ("blue", "Draws first:")
    t.to("move")
    assert header(t) == ("blue", "Moves:") and table(t)["move"].by == {"blue"}
    for kind in ("bid", "reveal", "gold_card", "take_pile", "adjust"):
        assert table(t)[kind].refusal.english() == "That is an Elfengold rule."


def test_gold_cards_turn_up_only_where_cards_are_drawn():
    """Round 1 deals the cards before the gold cards are shuffled in: nothing is drawn before the move
    phase, so a gold card is refused there (it was booked in any phase before)."""
    t = Table()
    caught = t.refused("gold_card")
    assert caught.msg == table(t)["gold_card"].refusal and "draw" in caught.msg.english()
    to_moves(t)
    t.do("gold_card")
    t.do("take_pile", player="red")
    for _ in range(el.GOLD_CARDS):
        t.do("gold_card")
    assert t.refused("gold_card").msg.english() == "There are only 7 gold cards."


def test_elfengold_counts_no_travel_cards_at_the_end():
    """In Elfengold a tie is broken by gold: the base game's card count was accepted there before."""
    t = Table()
    t.state = dict(t.state, phase="final")
    assert "gold" in t.refused("cards", cards={"red": 1, "blue": 1, "green": 1}).msg.english()
    t.do("finish")
    assert t.refused("town", player="red", town="beata", collected=True).msg.english() == "The game is over."


def test_every_phase_refuses_what_belongs_to_another_with_a_reason():
    t = Table(begin=False)
    assert t.refused("advance", to="auction").msg.english() == "Finish the setup first: the rounds have not begun."
    t.do("begin")
    t.refused("begin")
    assert t.refused("bid", player="red", amount=1).msg.english() == "No tile is up for auction now."
    assert t.refused("move", player="red", visits=[{"town": "beata"}], take="gold").msg.english() == \
        "Moves are made in the move phase."
    assert t.refused("finish").msg.english() == "The final scoring comes after the last round."
    assert t.refused("correct", "track", track="red", points=1, reason="x").msg.english().startswith(
        "Elfenland keeps no score track")
    t.do("advance", to="auction")
    caught = t.refused("bid", "player", player="blue", amount=1)     # the start player opens
    assert caught.msg.english() == "It is not Ben's turn for this: Ann acts now."
    assert t.refused("advance", to="plan").msg.english() == "Auction every tile of the row first."


def shell_on(form, actions, me=None):
    from companion.store import Store
    from companion.ui.app import Shell
    from companion.ui.viewmodel import ViewModel
    from tests.test_screens import Page
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm.set_language("en")
    assert vm.new_game("elfenland", form)
    for kind, args in actions:
        assert vm.dispatch(kind, **args), (kind, vm.problem)
    vm.me = me
    shell.render()
    return vm, shell


def acts(shell):
    from companion.ui.app import _walk
    from companion.ui.widgets import Act
    shell.render()
    return {c.key: c.data for c in _walk(shell.page.controls) if isinstance(c.data, Act)}


def test_an_owned_phone_greys_the_others_bids_passes_and_moves():
    """Blue's phone while Ann bids: her bid chips and her pass are greyed and say why; a tap records
    nothing. Then the gold pile: blue takes it only for himself."""
    vm, shell = shell_on(TABLE, [("begin", {}), ("advance", {"to": "auction"})], me="blue")
    drawn = acts(shell)
    for ident in ("bid-min", "bid-plus1", "pass-bid"):
        assert drawn[ident].player == "red" and "This phone belongs to Ben" in drawn[ident].refusal
    assert drawn["no-bid"].refusal is None                             # the table's quiet path: anyone
    assert not vm.dispatch("pass_bid", player="red") and "Ben" in vm.problem.text
    vm.me = None
    assert acts(shell)["pass-bid"].refusal is None
    for kind, args in [("no_more_bids", {"tile": 0, "winner": None, "price": None}), ("advance", {"to": "move"}),
                       ("move", {"player": "red", "visits": [{"town": "beata"}], "take": "cards", "gold_cards": 1})]:
        assert vm.dispatch(kind, **args), vm.problem
    vm.me = "blue"
    drawn = acts(shell)
    assert drawn["pass-move"].player == "blue" and drawn["pass-move"].refusal is None
    assert drawn["take-pile-blue"].refusal is None and "Ben" in drawn["take-pile-red"].refusal
    vm.me = "green"
    assert "Ben" in acts(shell)["pass-move"].refusal                  # only blue ends blue's turn
    assert acts(shell)["nobody-moves"].refusal is None                # green and blue are still to move
    vm.me = "red"                                                     # Ann has moved: not hers to say
    assert "Ben, Cid" in acts(shell)["nobody-moves"].refusal
    assert not vm.dispatch("nobody_moves", players=["blue", "green"]) and len(vm.session["log"]) == 5


def test_a_greyed_chip_says_why_next_to_its_row():
    vm, shell = shell_on(TABLE, [("begin", {}), ("advance", {"to": "auction"})], me="blue")
    from companion.ui.app import _walk
    chip = next(c for c in _walk(shell.page.controls) if c.key == "bid-plus2")
    next(c for c in _walk([chip]) if getattr(c, "on_click", None)).on_click(None)
    shell.render()
    reason = next(c for c in _walk(shell.page.controls) if c.key == "error-bid-chips")
    assert "This phone belongs to Ben" in reason.content.value and len(vm.session["log"]) == 2


def test_the_move_offers_no_road_to_the_town_the_mover_is_in_and_no_marks_before_a_town():
    """Issue 35: a move to the town the player is in was offered, then refused with its reason out of
    sight; the towns offered are where a road may lead from the last one (`destinations`), and the
    marks of the last town reached (gold road, flying carpet, take back) come once there is one, not
    moving stands in their place before."""
    vm, shell = shell_on(TABLE, [("begin", {}), ("advance", {"to": "auction"}),
                                 ("no_more_bids", {"tile": 0, "winner": None, "price": None}),
                                 ("advance", {"to": "move"})])
    from companion.ui.app import _walk
    keys = lambda: {c.key for c in _walk(shell.page.controls) if c.key}  # noqa: E731
    assert el.destinations("elvenhold") == [t for t in el.TOWN_LIST if t != "elvenhold"]
    assert "town-elvenhold" not in keys() and "town-usselen" in keys() and "pass-move" in keys()
    assert not keys() & {"gold-road", "carpet", "visit-back"}
    chip = next(c for c in _walk(shell.page.controls) if c.key == "town-usselen")
    next(c for c in _walk([chip]) if getattr(c, "on_click", None)).on_click(None)
    shell.render()
    assert "town-usselen" not in keys() and "town-elvenhold" in keys()
    assert {"gold-road", "carpet", "visit-back"} <= keys() and "pass-move" not in keys()


# ----------------------------------------------------------------------------------------------
# Issue 26: the gold in play and the box's 300, in the app and in `companion score`

def test_a_correction_toward_the_box_is_allowed_when_the_gold_in_play_exceeds_it():
    """A game recorded before the bank was counted may hold more than 300 gold: a correction that
    lowers it was refused there too (every correction was)."""
    t = Table()
    t.state["players"]["red"]["gold"] = 290                           # 290 + 12 + 12 = 314
    t.do("adjust", player="red", delta=-5, reason="miscount")
    assert t.gold("red") == 285
    t.refused("adjust", "delta", player="blue", delta=1, reason="miscount")
    t.do("adjust", player="red", delta=-9, reason="miscount")          # back to the box's 300
    assert el.bank(t.state) == 0


def test_the_bank_pays_what_it_has_so_score_accepts_the_games_numbers():
    """Income, a move's gold and the gold pile come from the bank: the players never hold more than the
    box's 300, and `companion score` takes the game's own numbers (it refused them before)."""
    t = Table()
    t.state["players"]["red"]["gold"] = 300 - 24 - 5                  # the bank holds 5
    to_moves(t)
    t.do("move", player="red", visits=[{"town": "usselen"}, {"town": "grangor", "gold_road": True}], take="gold")
    assert t.gold("red") == 300 - 24 and el.bank(t.state) == 0 and t.state["last_move"]["earned"] == 5
    t.do("pass_move", player="blue", gold_cards=1)
    t.do("take_pile", player="blue")                                  # 3 gold the bank does not have
    assert t.gold("blue") == 12 and t.state["gold_pile"] == 0
    t.do("adjust", player="red", delta=-4, reason="miscount")
    t.do("nobody_moves", players=["green"])
    t.do("advance", to="draw")
    t.do("advance", to="tiles")                                       # income from blue, who starts now
    assert [t.gold(c) for c in ("red", "blue", "green")] == [272, 14, 14]
    players = [{"id": c, "towns": len(p["towns"]), "gold": p["gold"]} for c, p in t.state["players"].items()]
    assert el.score_cli({"game": GAME_NAME, "options": ["elfengold"], "players": players})["winners"]


def test_the_rule_texts_say_the_rule_instead_of_as_in_elfengold():
    """The base game's setup and early end sent the reader to Elfengold; they say the rule now."""
    import re
    import tomllib
    from pathlib import Path
    data = tomllib.loads((Path(__file__).parent.parent / "data" / "elfenland.toml").read_text(encoding="utf-8"))
    texts = [v for entry in data["text"].values() for v in entry.values()]
    pointer = re.compile(r"as in Elfengold|same way as Elfengold|jako u Zlata elfů|jako Zlato elfů", re.I)
    assert [t[:80] for t in texts if pointer.search(t)] == []
    early = data["text"]["rule.open_questions.body"]
    assert "that round is played to its end" in early["en"] and "to kolo se dohraje" in early["cs"]


def test_czech_says_this_tile_and_the_others_go_back_in_the_plural():
    """"Tento dílek a 5 dalších se vracejí": two subjects take the plural verb (it said "se vrací")."""
    from companion.i18n import Translator
    t = Translator("cs", lambda key: key)
    for n in (2, 5):
        assert "se vracejí" in t.n("This tile and the last one go back to the pool.",
                                   "This tile and the {n} after it go back to the pool.", n)


# -- issue 34 ---------------------------------------------------------------------------------------

def test_a_player_who_bids_no_more_this_round_may_take_it_back_for_the_next_tiles():
    """"No more bids this round" is not final: the table of allowed actions lets that player bid again
    from the next tile of the row (the tile on offer began without him)."""
    t = Table()
    t.do("advance", to="auction")
    assert el.moves(t.state, t.config)["bid_again"].refusal is not None       # nobody sits out
    t.do("bid", player="red", amount=1)
    t.do("sit_out", player="blue")
    assert el.moves(t.state, t.config)["bid_again"].by == {"blue"}
    t.refused("bid_again", player="green")                                  # green still bids
    t.do("bid_again", player="blue")
    assert english(t, "bid_again", player="blue") == "Ben bids again from the next tile"
    t.do("bid", player="green", amount=2)
    t.do("pass_bid", player="red")                                          # green wins tile 1
    assert t.state["auction"]["bidders"] == ["red", "blue", "green"] and not t.state["auction"]["skipped"]
    t.do("bid", player="red", amount=1)
    t.do("bid", player="blue", amount=2)                                    # he bids on tile 2


def test_bidding_again_needs_a_tile_after_the_one_on_offer():
    t = Table()
    t.do("advance", to="auction")
    for tile in range(5):                                                   # tiles 1 to 5 go back to the pool
        t.do("no_bid", tile=tile, winner=None, price=None)
    t.do("sit_out", player="red")
    assert t.state["auction"]["lot"]["index"] == 5                           # the last tile
    assert "No tile is left" in el.moves(t.state, t.config)["bid_again"].refusal.text


def test_the_auction_texts_say_that_a_player_without_gold_does_not_bid():
    """A player with 0 gold is skipped in every auction: the rule texts and the auction step say so."""
    for lang, said in (("en", "without gold"), ("cs", "bez zlata nepřihazuje")):
        for key in ("rule.auction.body", "step.elfengold.auction.body", "step.elfengold.auction.remind"):
            assert said in TEXTS[f"elfenland.{key}"][lang].lower(), (key, lang)
