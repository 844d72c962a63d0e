"""Village in a real browser at phone size: a 2-player game in English (one language: every screen is drawn
in both in process, tests/test_screens.py) with a market day, a mass, the end trigger, the final mass,
the final scoring and the winner; the pinned header and bottom bar at both phone sizes; a refusal drawn
where it is read; the flows the taps benchmark plays."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONES, assert_fits_a_phone, layout


def new_game(app, names=("Anna", "Bořek")) -> None:
    app.tap("new-village")
    if len(names) > 2:
        app.tap(f"count-{len(names)}")
    app.names(*names)                                   # red, yellow, (green)
    app.tap("create")


def prepare_turn(app) -> None:
    """The taps benchmark's start: a 2-player game, Anna on turn."""
    new_game(app)
    app.tap("begin")


def play_turn(app) -> None:
    """Anna harvests (2 grain, 1 time) and the turn passes."""
    app.tap("grain-plus")
    app.tap("grain-plus")
    app.tap("time-1")
    app.tap("next-turn")


def play_market(app) -> None:
    """A market day Anna starts: she hands in a horse to a customer showing 6 prestige, Bořek one to a
    customer showing 3 (the prestige's tap serves him), and nobody sells any more: the day ends."""
    app.tap("market-start")
    app.tap("sale-good-horse")
    app.tap("sale-6")
    app.tap("sale-good-horse")
    app.tap("sale-3")
    app.tap("market-end")
    expect(app.id("market")).to_have_count(0)


def prepare_market_3p(app) -> None:
    """The taps benchmark's start: a 3-player game, Anna on turn."""
    new_game(app, ("Anna", "Bořek", "Cyril"))
    app.tap("begin")


def play_market_3p(app) -> None:
    """A 3-player market day Anna starts: three sales (Anna a horse to a customer showing 6, free;
    Bořek a plow to one showing 3; Cyril a horse to one showing 2), then all three pass: nobody sells
    any more, the day ends."""
    app.tap("market-start")
    for good, prestige in (("horse", 6), ("plow", 3), ("horse", 2)):
        app.tap(f"sale-good-{good}")
        app.tap(f"sale-{prestige}")
    app.tap("market-end")
    expect(app.id("market")).to_have_count(0)


def prepare_quiet_mass(app) -> None:
    """The taps benchmark's start: Anna on turn in the first round, nobody in the black bag or the
    church."""
    prepare_turn(app)


def play_quiet_mass(app) -> None:
    """The last cube is taken: the round ends, and the mass nobody can act in ends at once."""
    app.tap("round-end")
    app.tap("mass-quiet-end")


@pytest.mark.parametrize("lang", ["en"])
def test_a_two_player_village_game(app, server, lang):
    app.open(server.url)
    app.language(lang)
    new_game(app)
    expect(app.id("setup-progress")).to_be_visible()
    app.tap("tick-board")
    app.tap("begin")
    app.says("actor", "Anna")
    app.frame_holds("next-turn")

    # a market day triggered by Anna: her first sale is free, Bořek's costs 1 time
    app.tap("market-start")
    app.says("actor", "Anna")
    app.tap("sale-good-horse")
    app.frame_holds("market-end")
    app.tap("sale-6")                              # the customer shows 6 prestige: served
    app.says("actor", "Bořek")
    app.tap("sale-good-horse")
    app.tap("sale-3")
    app.tap("market-pass")                         # Anna passes for the day
    app.tap("market-pass")                         # Bořek too: the day ends
    expect(app.id("market")).to_have_count(0)
    app.tap("ledger-yellow")
    app.says("facts-yellow", app.t("Time {n} · bridge in {left}", n=1, left=11))
    app.says("facts-yellow", app.t("Customers {n}", n=1))

    # Bořek sends a member into the church; the last cube ends the round: mass
    app.tap("next-turn")
    app.says("actor", "Bořek")
    app.tap("to-church")
    app.tap("round-end")
    app.tap("buy-yellow")                          # 1 coin buys his member out of the bag
    app.says("monks", "3")                         # the other 3 pieces drawn are monks
    app.tap("mass-draw")
    app.says("mass-end-card", "Bořek")             # nobody can move up (no grain); he alone is in the church
    app.tap("mass-end")
    app.says("where", "2")
    app.says("fig-yellow", "2")                    # every family's prestige in the header: his +2

    # a member of Bořek's passes the bridge: the death is entered before the turn ends
    for _ in range(4):
        app.tap("time-3")                          # 1 + 12 = 13: past the bridge at 12
    app.tap("death-yellow")                        # refused: where did he work? said in sight
    app.in_sight("banner")
    app.tap("death-profession-yellow-farmyard")
    app.tap("death-place-yellow-grave")
    app.tap("death-yellow")
    expect(app.id("death-card-yellow")).to_have_count(0)

    # Anna's member takes the last grave: Bořek gets one final action, then the final mass
    app.tap("end-trigger-red")
    expect(app.id("final-actions")).to_contain_text("Bořek")
    app.tap("next-turn")
    app.tap("mass-quiet-end")                      # nobody can act in the final mass: one tap

    # final scoring: Anna visited 2 cities (3 points)
    app.tap("cities-red-2")
    app.frame_holds("finish")
    app.tap("finish")
    # Anna: customer 6 + travel 3 + coin 1 = 10; Bořek: customer 3 + two masses 4 + rightmost window 2 = 9
    expect(app.id("winner")).to_contain_text(app.t("{name} wins!", name="Anna"))
    expect(app.id("result-red")).to_contain_text(app.n("{n} point", "{n} points", 10))
    expect(app.id("result-yellow")).to_contain_text(app.n("{n} point", "{n} points", 9))
    app.shot(f"village-result-{lang}")


@pytest.mark.parametrize("lang, size", [("cs", PHONES[1]), ("en", PHONES[0])])
def test_a_turn_a_market_and_a_quiet_mass_cost_few_taps_and_no_scrolling(app, server, lang, size):
    """Issue 25: in Czech at 360×740 and in English at 390×844, the round's end (the last cube) and a
    mass nobody can act in are 2 taps, a turn 4 and a market day with two sales 6 (since issue 34 a
    sale records what is handed in, a tap each; since issue 35 the prestige's tap serves), every
    control in sight between the pinned bars."""
    app.page.set_viewport_size(size)
    app.open(server.url)
    app.language(lang)
    prepare_quiet_mass(app)
    app.taps, app.scrolled = 0, 0.0
    play_quiet_mass(app)
    assert (app.taps, app.scrolled) == (2, 0.0)
    app.says("where", "2")
    app.taps = 0
    play_turn(app)
    assert (app.taps, app.scrolled) == (4, 0.0)
    app.says("actor", "Bořek")
    app.taps = 0
    play_market(app)
    assert (app.taps, app.scrolled) == (6, 0.0)


@pytest.mark.parametrize("lang, size", [("cs", PHONES[1]), ("en", PHONES[0])])
def test_a_three_player_market_day_with_three_sales_costs_eight_taps(app, server, lang, size):
    """Issue 35: with 3 players, a market day of three sales after which everyone passes is 8 taps
    (what is handed in, then the customer's prestige serves him; the passes in one), no scrolling."""
    app.page.set_viewport_size(size)
    app.open(server.url)
    app.language(lang)
    prepare_market_3p(app)
    app.taps, app.scrolled = 0, 0.0
    play_market_3p(app)
    assert (app.taps, app.scrolled) == (8, 0.0), (app.taps, app.scrolled)
    app.tap("ledger-blue")                         # Cyril
    app.says("facts-blue", app.t("Customers {n}", n=1))


def test_village_screens_fit_a_phone(app, server):
    app.open(server.url)
    app.language("cs")
    new_game(app)
    app.tap("begin")
    screens = {"round": layout(app.page)}
    app.tap("market-start")
    screens["market"] = layout(app.page)
    app.tap("market-end")
    app.tap("to-church")
    app.tap("round-end")
    screens["mass"] = layout(app.page)
    assert_fits_a_phone(screens)


def test_a_refusal_is_read_next_to_its_control_on_a_small_phone(app, server):
    """Issue 22: a tap on a greyed entry (no grain to pay back) says why, next to it and in the pinned
    bar, whose banner lies wholly inside the 360×740 viewport (the bar is never scrolled away)."""
    app.page.set_viewport_size({"width": 360, "height": 740})
    app.open(server.url)
    app.language("cs")
    prepare_turn(app)
    app.tap("grain-minus")                         # Anna has no grain
    app.says("error-grain-minus", app.t("Not enough grain."))
    app.says("banner", app.t("Not enough grain."))
    app.in_sight("banner")
    app.in_sight("bar")
    app.shot("village-refusal-360")
