"""Carcassonne with The Gifts in a real browser at phone size, 3 players, in Czech (one language: every
screen is drawn in both in process, tests/test_screens.py): a city with tied meeples, a gift drawn and
opened (Cash Out), the final tally with a field, the winner; the pinned header and bottom bar at both
phone sizes, and a refusal drawn where it is read."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import CZECH, PHONES, App, assert_fits_a_phone, layout


def new_game(app, *names: str) -> None:
    app.tap("new-carcassonne")
    app.names(*names)                      # red, green, blue, ...
    if len(names) != 3:
        app.tap(f"count-{len(names)}")
    app.tap("create")


def prepare_road(app) -> None:
    """The taps benchmark's start: a 3-player game, Anna on turn."""
    new_game(app, "Anna", "Bořek", "Cyril")
    app.tap("begin")


def play_road(app) -> None:
    """Anna's turn: she puts a meeple on a road her tile completes (3 tiles; her meeple in it is
    proposed), scores it, next player."""
    app.tap("meeple-red-plus")
    app.tap("f-type-road")
    app.tap("f-tiles-3")
    app.tap("score-feature")
    app.tap("next-turn")


def prepare_tied_city(app) -> None:
    """The taps benchmark's start: Anna on turn in a 3-player game; she and Bořek each have a
    knight out."""
    prepare_road(app)
    app.tap("meeple-red-plus")
    app.tap("meeple-others")
    app.tap("meeple-green-plus")


def play_tied_city(app) -> None:
    """Anna completes a city of 4 tiles with 1 pennant where she and Bořek have a knight each: both
    score 10, then the next player (her own knight is proposed: she completed the city)."""
    app.tap("f-type-city")
    app.tap("f-tiles-4")
    app.tap("f-pennants-1")
    app.tap("f-m-green")
    app.tap("score-feature")
    app.says("fig-green", "10")
    app.tap("next-turn")
    app.says("actor", "Bořek")


@pytest.mark.parametrize("lang", ["cs"])
def test_a_three_player_game_with_the_gifts(app, server, lang):
    app.open(server.url)
    app.language(lang)
    new_game(app, "Anna", "Bořek", "Cyril")
    app.tap("tick-tiles")
    app.tap("begin")
    app.says("actor", "Anna")

    # Anna and Bořek each have a knight in a city that Anna completes: 4 tiles + 1 pennant = 10 each
    app.tap("meeple-red-plus")
    app.tap("meeple-others")
    app.tap("meeple-green-plus")
    app.tap("f-type-city")
    app.tap("f-tiles-4")
    app.tap("f-pennants-1")
    app.tap("f-m-green")
    app.frame_holds("score-feature")
    app.tap("score-feature")
    app.says("last-scored", "10")
    app.says("fig-red", "10")
    app.says("fig-green", "10")
    app.says("undo", "+10")                  # "Undo: City scored: Anna +10, Bořek +10"
    expect(app.id("meeples-red")).to_have_text("0 / 7")

    # a gift: Anna receives one, which she can open from her next turn on (before placing her tile);
    # Cash Out with none of her meeples out is greyed, and a tap says why, in sight
    app.tap("gift-draw")
    app.says("gift-counts", "24")
    app.tap("gift-open")
    app.says("banner", app.t("A gift received this turn can be opened from the next turn on: a gift is opened "
                             "after drawing a tile and before placing it."))
    for _ in range(3):
        app.tap("next-turn")
    app.says("actor", "Anna")
    app.tap("gift-open-cash_out")
    app.tap("cash-meeples-2")
    app.tap("cash-out")
    app.in_sight("banner")
    app.says("banner", app.t("None of this player's meeples is on the board."))
    app.tap("meeple-red-plus")               # ... so she has one out first: 2 meeples there, +4
    app.tap("cash-meeples-2")
    app.tap("cash-out")
    app.tap("nav-scores")
    expect(app.id("score-red")).to_contain_text(app.n("{n} point", "{n} points", 14))
    app.tap("back")

    # Bořek's farmer is on a field; the last tile: the tally, one category at a time
    app.tap("meeple-others")
    app.tap("meeple-green-plus")
    app.frame_holds("next-turn")
    app.tap("end-game")
    for _ in range(3):                       # no unfinished road, city or monastery
        app.tap("tally-next")
    app.tap("t-cities-1")
    app.tap("t-m-green")
    app.frame_holds("tally-add")
    app.tap("tally-add")
    app.tap("tally-next")
    expect(app.id("review")).to_be_visible()
    app.tap("finish")
    # Anna 10 + 4 = 14, Bořek 10 + 3 = 13, Cyril 0
    expect(app.id("winner")).to_contain_text(app.t("{name} wins!", name="Anna"))
    expect(app.id("result-green")).to_contain_text(app.n("{n} point", "{n} points", 13))
    app.shot(f"carcassonne-result-{lang}")


@pytest.mark.parametrize("lang, size", [("cs", PHONES[1]), ("en", PHONES[0])])
def test_a_road_costs_five_taps_and_a_tied_city_six_without_scrolling(app, server, lang, size):
    """Issue 25: at 360×740 in Czech and 390×844 in English, a turn with a completed road is 5 taps and
    a completed city with tied knights 6, every control in sight between the pinned bars."""
    app.page.set_viewport_size(size)
    app.open(server.url)
    app.language(lang)
    prepare_road(app)
    app.taps, app.scrolled = 0, 0.0
    play_road(app)
    assert (app.taps, app.scrolled) == (5, 0.0)
    app.says("fig-red", "3")
    app.says("actor", "Bořek")
    app.tap("nav-home")                      # a new game, started as the benchmark starts it
    prepare_tied_city(app)
    app.taps, app.scrolled = 0, 0.0
    play_tied_city(app)
    assert (app.taps, app.scrolled) == (6, 0.0)
    app.says("fig-red", "10")


def test_carcassonne_screens_fit_a_phone(app, server):
    app.open(server.url)
    app.language("cs")
    new_game(app, "Anna", "Bořek")
    app.tap("begin")
    app.tap("f-type-city")
    screens = {"turn": layout(app.page)}
    app.tap("gift-draw")
    app.tap("next-turn")
    app.tap("next-turn")
    app.tap("gift-open-road_sweeper")
    screens["gift"] = layout(app.page)
    app.tap("end-game")
    screens["tally"] = layout(app.page)
    app.shot("carcassonne-tally-cs")
    assert_fits_a_phone(screens)


def test_the_eighth_meeple_says_why_in_sight_on_a_small_phone(app, server):
    """A tap on + with all 7 meeples out: the reason is drawn next to the row, inside the 360×740
    viewport and not under the pinned header or bar, and in the bar itself."""
    app.page.set_viewport_size(PHONES[1])
    app.open(server.url)
    app.language("cs")
    new_game(app, "Anna", "Bořek")
    app.tap("begin")
    for _ in range(7):
        app.tap("meeple-red-plus")
    expect(app.id("meeples-red")).to_have_text("7 / 7")
    app.tap("meeple-red-plus")
    expect(app.id("meeples-red")).to_have_text("7 / 7")
    reason = app.t("A player has 7 meeples to place.")
    app.says("error-meeple-red", reason)
    app.in_sight("error-meeple-red")
    assert app.reach(app.id("error-meeple-red")) == 0.0      # between the pinned header and the bar
    app.says("banner", reason)
    app.in_sight("banner")


def test_every_chip_takes_a_fingers_first_tap(browser, server):
    """Issue 35, in Czech at 360×740, tapped with touch events as a phone sends them: the tied city's
    "Meeples in it" chip takes the first tap (Bořek then scores 10 with Anna), and so does every
    other chip of the feature form."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale=CZECH, has_touch=True,
                                  is_mobile=True)
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        app = App(page, "cs", touch=True)
        app.open(server.url)
        prepare_tied_city(app)
        play_tied_city(app)                  # one tap on f-m-green, and Bořek's figure says 10
        app.says("fig-red", "10")
    finally:
        context.close()
