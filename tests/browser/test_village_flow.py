"""Village in a real browser at phone size: a 2-player game in each language with a market day,
a mass, the end trigger, the final mass, the final scoring and the winner."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import assert_fits_a_phone, layout


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_a_two_player_village_game(app, server, lang):
    app.open(server.url)
    app.language(lang)
    app.tap("new-village")
    app.names("Anna", "Bořek")                          # red, yellow
    app.tap("create")
    expect(app.id("setup-progress")).to_be_visible()
    app.tap("tick-board")
    app.tap("begin")
    expect(app.id("turn-head")).to_contain_text("Anna")

    # a market day triggered by Anna: her first sale is free, Bořek's costs 1 time
    app.tap("market-start")
    app.says("market-turn", "Anna")
    app.step("sale-plus", 3)                       # the customer shows 6 prestige
    app.tap("market-sell")
    app.says("market-turn", "Bořek")
    app.tap("market-sell")                         # 3 prestige
    app.tap("market-pass")                         # Anna passes for the day
    app.tap("market-pass")                         # Bořek too: the day ends
    expect(app.id("market")).to_have_count(0)
    app.tap("ledger-yellow")
    app.says("facts-yellow", app.t("Time: {n} (bridge in {left})", n=1, left=11))
    app.says("facts-yellow", app.t("Customers: {n}", n=1))

    # Bořek sends a member into the church; the last cube ends the round: mass
    app.tap("next-turn")
    expect(app.id("turn-head")).to_contain_text("Bořek")
    app.tap("to-church")
    app.tap("round-end")
    app.tap("buy-yellow")                          # 1 coin buys his member out of the bag
    app.step("monks-plus", 3)                      # the other 3 pieces drawn are monks
    app.tap("mass-draw")
    app.tap("mass-done")                           # Anna does not move
    app.tap("mass-done")                           # nor does Bořek
    app.says("mass-end-card", "Bořek")             # he alone is in the church: +2
    app.tap("mass-end")
    expect(app.id("round-head")).to_contain_text(app.t("Round {n}", n=2))

    # Anna's member takes the last grave: Bořek gets one final action, then the final mass
    app.tap("end-trigger-red")
    expect(app.id("final-actions")).to_contain_text("Bořek")
    app.tap("next-turn")
    app.step("monks-plus", 4)
    app.tap("mass-draw")
    app.tap("mass-done")
    app.tap("mass-done")
    app.tap("mass-end")

    # final scoring: Anna visited 2 cities (3 points)
    app.step("cities-red-plus", 2)
    app.tap("finish")
    # Anna: customer 6 + travel 3 + coin 1 = 10; Bořek: customer 3 + two masses 4 + rightmost window 2 = 9
    expect(app.id("winner")).to_contain_text(app.t("{name} wins!", name="Anna"))
    expect(app.id("result-red")).to_contain_text(app.n("{n} point", "{n} points", 10))
    expect(app.id("result-yellow")).to_contain_text(app.n("{n} point", "{n} points", 9))
    app.shot(f"village-result-{lang}")


def test_village_screens_fit_a_phone(app, server):
    app.open(server.url)
    app.language("cs")
    app.tap("new-village")
    app.names("Anna", "Bořek")
    app.tap("create")
    app.tap("begin")
    screens = {"round": layout(app.page)}
    app.tap("market-start")
    screens["market"] = layout(app.page)
    app.tap("market-end")
    app.tap("round-end")
    screens["mass"] = layout(app.page)
    assert_fits_a_phone(screens)
