"""Elfenland with Elfengold in a real browser at phone size, 3 players, in each language: a tile
auction whose winner cannot pay (and then, without gold, does not bid), a move along a gold road, six
rounds and the end of the game."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import assert_fits_a_phone, layout

ROW = ("dragon", "gold", "unicorn", "tree", "exchange", "giant_pig")


def start(app, server, lang):
    app.open(server.url)
    app.language(lang)
    app.tap("new-elfenland")
    app.tap("wizards")
    app.names("Anna", "Bořek", "Cyril")      # red, blue, green
    app.tap("create")
    app.tap("tick-board")
    app.tap("begin")


def turn_up(app):
    for tile in ROW:
        app.tap(f"row-{tile}")
    app.tap("reveal")


def everyone_passes(app, tiles):
    for _ in range(3 * tiles):
        app.tap("pass-bid")


def quiet_round(app):
    """Rounds 2–6: drawing, income, tiles, an auction nobody bids in, nobody moves."""
    for _ in range(3):
        app.tap("next-phase")
    turn_up(app)
    everyone_passes(app, len(ROW))
    app.tap("next-phase")                       # plan routes
    app.tap("next-phase")                       # move
    for _ in range(3):
        app.tap("pass-move")
    app.tap("next-phase")                       # end of the round
    app.tap("next-phase")


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_a_three_player_elfengold_game(app, server, lang):
    start(app, server, lang)
    expect(app.id("round-head")).to_contain_text(app.t("Round {round} of {rounds}", round=1, rounds=6))
    app.tap("next-phase")                       # round 1 starts with the tiles: on to the auction
    turn_up(app)

    # Anna bids 20 for the dragon with 12 gold: she gives all 12 to the bank, the dragon goes up again,
    # and without gold she does not bid for the rest of this auction
    app.fill(app.t("Amount of the bid"), "20")
    app.tap("bid")
    app.tap("pass-bid")
    app.tap("pass-bid")
    app.says("race-red", app.t("{gold} gold", gold=0))
    app.fill(app.t("Amount of the bid"), "3")
    app.tap("bid")                              # Bořek
    app.tap("pass-bid")                         # Cyril
    app.says("race-blue", app.t("{gold} gold", gold=9))
    for _ in range(2 * (len(ROW) - 1)):         # Bořek and Cyril pass on every other tile
        app.tap("pass-bid")
    app.tap("next-phase")                       # plan routes
    app.tap("next-phase")                       # move

    # Anna: Usselen (4), then along a road with a gold tile to Grangor (5 doubled): 14 gold
    app.tap("town-usselen")
    app.tap("town-grangor")
    app.tap("gold-road-1")
    app.says("move-gold", "14")
    screens = {"move": layout(app.page)}
    app.shot(f"elfenland-move-{lang}")
    app.tap("take-gold")
    app.says("race-red", app.t("{gold} gold", gold=14))
    app.says("race-red", app.t("{towns}/20 towns", towns=2))
    app.tap("pass-move")                        # Bořek
    app.tap("pass-move")                        # Cyril
    app.tap("next-phase")
    app.tap("next-phase")
    expect(app.id("round-head")).to_contain_text(app.t("Round {round} of {rounds}", round=2, rounds=6))
    for _ in range(5):
        quiet_round(app)

    # after round 6: Anna has 2 towns, the others none; income 2 a round from round 2
    expect(app.id("review")).to_be_visible()
    screens["final"] = layout(app.page)
    app.tap("finish")
    expect(app.id("winner")).to_contain_text(app.t("{name} wins!", name="Anna"))
    app.shot(f"elfenland-result-{lang}")
    assert_fits_a_phone(screens)


def test_elfenland_auction_and_ledgers_fit_a_phone(app, server):
    start(app, server, "cs")
    app.tap("next-phase")
    screens = {"row": layout(app.page)}
    turn_up(app)
    screens["auction"] = layout(app.page)
    app.shot("elfenland-auction-cs")
    app.tap("nav-scores")
    screens["ledgers"] = layout(app.page)
    assert_fits_a_phone(screens)
