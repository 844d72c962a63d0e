"""Elfenland with Elfengold in a real browser at phone size, 3 players, in English (one language: every
screen is drawn in both in process, tests/test_screens.py): the pinned header and bottom bar at the
round, auction and move screens at both phone sizes; an auction bid on the keypad whose winner cannot pay
(and then, without gold, does not bid); the quiet paths in one tap; a move along a gold road; a flying
carpet refused for want of gold, said in sight; six rounds and the end of the game; and the flows the
taps benchmark plays."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONES, assert_fits_a_phone, layout


def new_game(app) -> None:
    app.tap("new-elfenland")
    app.tap("wizards")
    app.names("Anna", "Bořek", "Cyril")      # red, blue, green; Anna starts
    app.tap("create")


def prepare_auction(app) -> None:
    """The taps benchmark's start: round 1 of a new Elfengold game, the tiles just drawn."""
    new_game(app)
    app.tap("begin")


def play_auction(app) -> None:
    """An auction of the 6 tiles of a 3-player round, 2 of them contested."""
    app.tap("next-phase")          # on to the auction: the row is turned up, tile 1 opens
    app.tap("bid-min")             # Anna 1
    app.tap("bid-min")             # Bořek 2
    app.tap("pass-bid")            # Cyril
    app.tap("pass-bid")            # Anna: Bořek pays 2 for tile 1
    app.tap("no-bid")              # tile 2: nobody bids, back to the pool
    app.tap("bid-min")             # tile 3: Anna 1
    app.tap("bid-plus2")           # Bořek 4
    app.tap("no-bid")              # nobody else bids: Bořek pays 4 for tile 3
    app.tap("bid-min")             # tile 4: Anna 1
    app.tap("no-more-bids")        # Anna pays 1; tiles 5 and 6 go back to the pool; route planning


def play_auction_with_a_bystander(app) -> None:
    """An auction of the 6 tiles of a 3-player round in which Bořek bids on none: Anna and Cyril
    contest tiles 1 to 3, Anna takes tile 4 alone, tiles 5 and 6 go back to the pool."""
    app.tap("next-phase")          # on to the auction: the row is turned up, tile 1 opens
    app.tap("bid-min")             # Anna 1
    app.tap("sit-out")             # Bořek passes on this tile and is not asked again this round
    app.tap("bid-min")             # Cyril 2
    app.tap("pass-bid")            # Anna: Cyril wins tile 1
    for _ in range(2):             # tiles 2 and 3: Anna and Cyril only
        app.tap("bid-min")
        app.tap("bid-min")
        app.tap("pass-bid")
    app.tap("bid-min")             # tile 4: Anna
    app.tap("no-bid")              # Cyril does not bid: Anna wins it
    app.tap("no-more-bids")        # tiles 5 and 6 go back to the pool; route planning


def prepare_quiet_round(app) -> None:
    """The taps benchmark's start: round 2 of a new Elfengold game, after a round 1 where nothing happened."""
    prepare_auction(app)
    app.tap("next-phase")          # auction
    app.tap("no-more-bids")        # plan routes
    app.tap("next-phase")          # move
    app.tap("nobody-moves")        # end of the round
    app.tap("next-phase")          # round 2: drawing travel cards


def play_quiet_round(app) -> None:
    """A round where nobody takes the gold pile, bids or moves."""
    app.tap("next-phase")          # income booked, drawing tiles
    app.tap("next-phase")          # auction: the row is turned up
    app.tap("no-more-bids")        # plan routes
    app.tap("next-phase")          # move
    app.tap("nobody-moves")        # everyone draws 2 cards: end of the round
    app.tap("next-phase")          # the next round (after round 6: the final scoring)


def prepare_gold_road(app) -> None:
    """The taps benchmark's start: the move phase of round 1 of a new Elfengold game, Anna to move."""
    prepare_auction(app)
    app.tap("next-phase")          # auction
    app.tap("no-more-bids")        # plan routes
    app.tap("next-phase")          # move


def play_gold_road(app) -> None:
    """Anna moves to Usselen (4), then along a road with a gold tile to Grangor (5, doubled), and takes
    the 14 gold."""
    app.tap("town-usselen")
    app.tap("town-grangor")
    app.tap("gold-road")
    app.tap("take-gold")
    app.says("fig-red", figure(app, 2, 12 + 14))


def figure(app, towns: int, gold: int) -> str:
    return app.t("{towns} · {gold} gold", towns=towns, gold=gold)


@pytest.mark.parametrize("lang", ["en"])
def test_a_three_player_elfengold_game(app, server, lang):
    app.open(server.url)
    app.language(lang)
    new_game(app)
    app.tap("tick-board")
    app.tap("begin")
    app.says("actor", "Anna")
    app.says("fig-red", figure(app, 0, 12))
    app.frame_holds("next-phase")
    app.tap("next-phase")                       # round 1 starts with the tiles: on to the auction

    # Anna bids 20 on the keypad with 12 gold: she gives all 12 to the bank, the tile goes up again,
    # and without gold she does not bid for the rest of this auction
    app.says("actor", "Anna")
    app.frame_holds("pass-bid")
    app.tap("bid-other")
    app.tap("bid-keypad-key-2")
    app.tap("bid-keypad-key-0")
    app.says("bid", "20")
    screens = {"auction": layout(app.page)}
    app.tap("bid")
    app.tap("pass-bid")                         # Bořek
    app.tap("pass-bid")                         # Cyril
    app.says("fig-red", figure(app, 0, 0))
    app.says("actor", "Bořek")
    app.says("auction", "Anna")                 # "without gold, no bid: Anna"
    app.tap("bid-plus2")                        # Bořek 3
    app.tap("no-bid")                           # nobody else bids: he pays 3
    app.says("fig-blue", figure(app, 0, 9))
    app.tap("no-more-bids")                     # the other 5 tiles go back to the pool
    expect(app.id("road-costs")).to_be_visible()            # planning routes
    app.tap("next-phase")                       # move

    # Anna: Usselen (4), then along a road with a gold tile to Grangor (5 doubled): 14 gold
    app.says("actor", "Anna")
    app.frame_holds("nobody-moves")
    app.tap("town-usselen")
    app.tap("town-grangor")
    app.tap("gold-road")
    app.says("take-gold", "14")
    app.frame_holds("take-gold")
    # a flying carpet costs 3 gold, and Anna has none: refused, and the reason is in sight
    app.tap("town-al_baran")
    app.tap("carpet")
    app.tap("take-gold")
    app.in_sight("banner")
    app.says("banner", app.t("The wizard costs {n} gold; this player has {have}.", n=3, have=0))
    app.says("fig-red", figure(app, 0, 0))
    app.tap("visit-back")
    screens["move"] = layout(app.page)
    app.shot(f"elfenland-move-{lang}")
    app.tap("take-gold")
    app.says("fig-red", figure(app, 2, 14))
    app.tap("pass-move")                        # Bořek does not move: he draws 2 cards
    app.says("actor", "Cyril")
    app.says("nobody-moves", app.t("Nobody else moves"))
    app.tap("nobody-moves")                     # nor does Cyril: the end of the round
    app.tap("next-phase")
    app.says("actor", "Bořek")                  # round 2: the start player passed left
    for _ in range(5):                          # rounds 2–6: nothing happens (income 2 a round)
        play_quiet_round(app)

    # after round 6: Anna has 2 towns, the others none
    expect(app.id("review")).to_be_visible()
    app.says("fig-blue", figure(app, 0, 19))
    app.frame_holds("finish")
    screens["final"] = layout(app.page)
    app.tap("finish")
    expect(app.id("winner")).to_contain_text(app.t("{name} wins!", name="Anna"))
    app.shot(f"elfenland-result-{lang}")
    assert_fits_a_phone(screens)


def test_an_auction_and_a_quiet_round_cost_few_taps_and_no_scrolling(app, server):
    app.open(server.url)
    app.language("en")
    prepare_auction(app)
    app.taps, app.scrolled = 0, 0.0
    play_auction(app)
    assert (app.taps, app.scrolled) == (11, 0.0)
    expect(app.id("road-costs")).to_be_visible()
    app.says("fig-red", figure(app, 0, 11))
    app.says("fig-blue", figure(app, 0, 6))
    app.says("fig-green", figure(app, 0, 12))
    app.tap("next-phase")
    app.tap("nobody-moves")
    app.tap("next-phase")
    app.taps = 0
    play_quiet_round(app)
    assert (app.taps, app.scrolled) == (6, 0.0)
    app.says("where", app.t("Round {round} of {rounds} · phase {n} of {all}: {phase}", round=3, rounds=6, n=1,
                            all=7, phase=""))
    app.says("fig-red", figure(app, 0, 11 + 2))


def test_elfenland_ledgers_fit_a_phone_and_correct_gold_on_the_keypad(app, server):
    app.open(server.url)
    app.language("cs")
    prepare_auction(app)
    app.tap("nav-scores")
    app.tap("ledger-player-blue")
    app.tap("correct-points-key-2")
    app.tap("correct-points-key-0")
    app.tap("correct-points-sign")                # −20: Bořek holds 12
    app.tap("correct-why-1")
    app.tap("adjust-save")
    app.in_sight("banner")
    app.says("banner", app.t("{name} holds {gold} gold: a correction cannot take more.", name="Bořek", gold=12))
    screens = {"ledgers": layout(app.page)}
    app.tap("correct-points-back")               # −2
    app.tap("adjust-save")
    app.says("race-blue", app.t("{gold} gold", gold=10))
    assert_fits_a_phone(screens)


def reason_in_sight(app, identifier: str) -> None:
    """A refusal's reason is wholly inside the viewport, between the pinned header and the pinned bar;
    where the message's slot above the bar covers any of it, the message (in sight) says the same."""
    app.in_sight(identifier)
    box = app.id(identifier).first.bounding_box()
    header, bar = app.id("header").first.bounding_box(), app.id("bar").first.bounding_box()
    assert header["y"] + header["height"] - 1 <= box["y"], (identifier, box, header)
    assert box["y"] + box["height"] <= bar["y"] + 1, (identifier, box, bar)
    if app.id("message").count():
        message = app.id("message").first.bounding_box()
        if box["y"] + box["height"] > message["y"] + 1:
            app.in_sight("message")
            reason = app.id(identifier).first.get_attribute("aria-label") or app.id(identifier).first.inner_text()
            app.says("message", reason.strip())


def test_a_greyed_control_says_why_in_sight_at_360_by_740(app, server):
    """Issue 22: the gold pile at all 7 gold cards greys "+1 card"; a tap says why next to it, in sight
    on the smallest phone."""
    app.page.set_viewport_size({"width": 360, "height": 740})
    app.open(server.url)
    app.language("cs")
    prepare_auction(app)
    app.tap("next-phase")          # auction
    app.tap("no-more-bids")        # plan routes
    app.tap("next-phase")          # move
    for _ in range(7):
        app.tap("gold-card")
    app.says("gold-pile", app.n("Gold pile: {n} card, worth {gold} gold", "Gold pile: {n} cards, worth {gold} gold",
                                7, gold=21))
    app.tap("gold-card")           # greyed: an 8th gold card
    # the screen keeps its place (the bar keeps its height): the line next to the gold pile is in sight
    app.says("error-gold-pile", app.t("There are only {n} gold cards.", n=7))
    reason_in_sight(app, "error-gold-pile")
    app.in_sight("banner")
    app.says("banner", app.t("There are only {n} gold cards.", n=7))


def test_a_bystander_costs_one_tap_a_round_and_not_moving_is_in_sight_on_a_small_czech_phone(app, server):
    """Issue 25: at 360×740 in Czech, an auction of the 6 tiles in which Bořek bids on none costs 14
    taps (his "no bids this round" once, not a pass per tile), with no scrolling; in the move phase
    "does not move" is in sight above the 22 towns."""
    app.page.set_viewport_size({"width": 360, "height": 740})
    app.open(server.url)
    app.language("cs")
    prepare_auction(app)
    app.taps, app.scrolled = 0, 0.0
    play_auction_with_a_bystander(app)
    assert (app.taps, app.scrolled) == (14, 0.0)
    app.says("fig-red", figure(app, 0, 11))                 # Anna paid 1 for tile 4
    app.says("fig-blue", figure(app, 0, 12))                # Bořek bid on nothing
    app.says("fig-green", figure(app, 0, 6))                # Cyril paid 2 for each of tiles 1 to 3
    app.tap("next-phase")                                   # move
    assert app.reach(app.id("pass-move")) == 0.0
    app.in_sight("pass-move")


@pytest.mark.parametrize("lang, size", [("cs", PHONES[1]), ("en", PHONES[0])])
def test_a_move_along_a_gold_road_costs_four_taps_and_no_scrolling(app, server, lang, size):
    """Issue 35: at 360×740 in Czech and 390×844 in English, a move to Usselen and along a gold road to
    Grangor is 4 taps with every town, the marks and the bar in sight (the 20 towns were a list 556 px
    long)."""
    app.page.set_viewport_size(size)
    app.open(server.url)
    app.language(lang)
    prepare_gold_road(app)
    app.taps, app.scrolled = 0, 0.0
    play_gold_road(app)
    assert (app.taps, app.scrolled) == (4, 0.0), (app.taps, app.scrolled)


def test_the_town_the_mover_is_in_is_not_offered_and_a_refused_move_says_why_in_sight(app, server):
    """Issue 35: a move to the town the player is in was offered and refused, its reason drawn above the
    screen; at 360×740 in Czech neither the start town nor the last town reached is offered, and a move
    the rules refuse (a flying carpet without the 3 gold) says why in sight."""
    app.page.set_viewport_size(PHONES[1])
    app.open(server.url)
    app.language("cs")
    new_game(app)
    app.tap("begin")
    app.tap("next-phase")                       # auction: Anna bids all her 12 gold, and pays them
    app.tap("bid-other")
    app.tap("bid-keypad-key-2")
    app.tap("bid-keypad-key-0")
    app.tap("bid")
    app.tap("pass-bid")
    app.tap("pass-bid")
    app.tap("no-more-bids")
    app.tap("next-phase")                       # move: Anna, 0 gold, in Elvenhold
    app.says("fig-red", figure(app, 0, 0))
    expect(app.id("town-elvenhold")).to_have_count(0)
    app.tap("town-usselen")
    expect(app.id("town-usselen")).to_have_count(0)
    expect(app.id("town-elvenhold")).to_have_count(1)
    app.tap("town-al_baran")
    app.tap("carpet")
    app.tap("take-gold")                        # refused: the carpet costs 3 gold
    app.says("banner", app.t("The wizard costs {n} gold; this player has {have}.", n=3, have=0))
    app.in_sight("banner")
    if app.id("error-visits").count():
        app.in_sight("error-visits")
