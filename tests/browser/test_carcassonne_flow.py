"""Carcassonne with The Gifts in a real browser at phone size, 3 players, in each language: a city
with tied meeples, a gift drawn and opened (Cash Out), the final tally with a field, the winner."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import assert_fits_a_phone, layout


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_a_three_player_game_with_the_gifts(app, server, lang):
    app.open(server.url)
    app.language(lang)
    app.tap("new-carcassonne")
    app.names("Anna", "Bořek", "Cyril")    # red, green, blue
    app.tap("create")
    app.tap("tick-tiles")
    app.tap("begin")
    expect(app.id("turn-head")).to_contain_text("Anna")

    # Anna and Bořek each have a knight in a city that Anna completes: 4 tiles + 1 pennant = 10 each
    app.tap("meeple-red-plus")
    app.tap("meeple-green-plus")
    app.tap("f-type-city")
    app.step("f-tiles-plus", 3)
    app.tap("f-pennants-plus")
    app.tap("f-m-red-plus")
    app.tap("f-m-green-plus")
    app.tap("score-feature")
    app.says("last-scored", "10")
    expect(app.id("meeples-red")).to_have_text("0 / 7")

    # a gift: Anna draws one, then opens Cash Out on a feature with 2 meeples (hers included): +4
    app.tap("gift-draw")
    app.says("gift-counts", "24")
    app.tap("meeple-red-plus")
    app.tap("gift-open-cash_out")
    app.tap("cash-meeples-plus")
    app.tap("cash-out")
    app.tap("nav-scores")
    expect(app.id("score-red")).to_contain_text(app.n("{n} point", "{n} points", 14))
    app.tap("back")

    # the last tile: the tally, one category at a time; Bořek's farmer touches 1 completed city
    app.tap("end-game")
    for _ in range(3):                         # no unfinished road, city or monastery
        app.tap("tally-next")
    app.tap("t-cities-plus")
    app.tap("t-m-green-plus")
    app.tap("tally-add")
    app.tap("tally-next")
    expect(app.id("review")).to_be_visible()
    app.tap("finish")
    # Anna 10 + 4 = 14, Bořek 10 + 3 = 13, Cyril 0
    expect(app.id("winner")).to_contain_text(app.t("{name} wins!", name="Anna"))
    expect(app.id("result-green")).to_contain_text(app.n("{n} point", "{n} points", 13))
    app.shot(f"carcassonne-result-{lang}")


def test_carcassonne_screens_fit_a_phone(app, server):
    app.open(server.url)
    app.language("cs")
    app.tap("new-carcassonne")
    app.names("Anna", "Bořek")
    app.tap("count-2")
    app.tap("create")
    app.tap("begin")
    app.tap("f-type-city")
    screens = {"turn": layout(app.page)}
    app.tap("gift-draw")
    app.tap("gift-open-road_sweeper")
    screens["gift"] = layout(app.page)
    app.tap("end-game")
    screens["tally"] = layout(app.page)
    app.shot("carcassonne-tally-cs")
    assert_fits_a_phone(screens)
