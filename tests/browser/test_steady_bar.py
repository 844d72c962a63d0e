"""Issue 25, item 4: the pinned bars keep their height. A refusal shows in its slot above the bar and
never moves the bar's buttons; the pinned header and bar together take at most 30 % of a 360×740
screen on every game's main screen, in Czech and in English."""
from __future__ import annotations

import pytest

from tests.browser import test_carcassonne_flow as carcassonne
from tests.browser import test_elfenland_flow as elfenland
from tests.browser import test_flanders_flow as flanders
from tests.browser import test_village_flow as village
from tests.browser.test_princes_flow import start as princes

SMALL_PHONE = {"width": 360, "height": 740}
BIG_PHONE = {"width": 390, "height": 844}


def bar_buttons(app) -> list[dict]:
    """The boxes of the bottom bar's buttons, left to right."""
    app.page.wait_for_timeout(600)
    return app.page.evaluate("""() => Array.from(document.querySelectorAll(
        '[flt-semantics-identifier="bar"] [role="button"]')).map(e => {
            const r = e.getBoundingClientRect();
            return {x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height)}; })""")


def bands(app) -> float:
    """How tall the pinned header and bottom bar are together (px)."""
    app.page.wait_for_timeout(600)
    heights = [app.id(ident).first.bounding_box()["height"] for ident in ("header", "bar") if app.id(ident).count()]
    return sum(heights)


@pytest.mark.parametrize("lang,size", [("cs", SMALL_PHONE), ("en", BIG_PHONE)])
def test_a_refusal_does_not_move_the_primary_button(app, server, lang, size):
    app.page.set_viewport_size(size)
    app.open(server.url)
    app.language(lang)
    village.prepare_turn(app)
    before = bar_buttons(app)
    assert before, "the bar has its buttons"
    app.tap("grain-minus")                         # Anna has no grain: refused
    app.says("banner", app.t("Not enough grain."))
    app.in_sight("banner")
    banner = app.id("banner").first.bounding_box()
    bar = app.id("bar").first.bounding_box()
    assert banner["y"] + banner["height"] <= bar["y"] + 1, (banner, bar)   # above the bar, not in it
    assert bar_buttons(app) == before
    app.tap("banner-close")                        # put away: the bar is still as it was
    assert not app.id("banner").count()
    assert bar_buttons(app) == before


def test_the_move_screen_keeps_its_place_when_a_reason_shows(app, server):
    """The Elfenland move screen scrolled down to the gold pile: a refusal there leaves the body where it
    was, so the reason next to the gold pile is in sight (it used to jump back to the top)."""
    app.page.set_viewport_size(SMALL_PHONE)
    app.open(server.url)
    app.language("cs")
    elfenland.prepare_auction(app)
    app.tap("next-phase")          # auction
    app.tap("no-more-bids")        # plan routes
    app.tap("next-phase")          # move
    app.wheel_into_view(app.id("gold-card").first)   # the player scrolls down to the gold pile
    for _ in range(7):
        app.tap("gold-card")
    before = app.id("gold-card").first.bounding_box()
    buttons = bar_buttons(app)
    app.tap("gold-card")           # greyed: an 8th gold card
    app.says("error-gold-pile", app.t("There are only {n} gold cards.", n=7))
    assert app.id("gold-card").first.bounding_box()["y"] == pytest.approx(before["y"], abs=2)
    elfenland.reason_in_sight(app, "error-gold-pile")
    message = app.id("message").first.bounding_box()
    reason = app.id("error-gold-pile").first.bounding_box()
    assert reason["y"] + reason["height"] <= message["y"] + 1, "the reason is not under the message"
    assert bar_buttons(app) == buttons


MAIN_SCREENS = {
    "carcassonne": carcassonne.prepare_road,
    "flanders": flanders.prepare_city,
    "village": village.prepare_turn,
    "princes": princes,
    "elfenland": elfenland.prepare_auction,
}


@pytest.mark.parametrize("lang", ["cs", "en"])
def test_header_and_bar_take_at_most_30_percent_of_a_small_phone(app, server, lang):
    app.page.set_viewport_size(SMALL_PHONE)
    app.open(server.url)
    app.language(lang)
    heights = {}
    for name, prepare in MAIN_SCREENS.items():
        prepare(app)
        heights[name] = bands(app)
        app.tap("nav-home")
    print("header + bar:", lang, heights)
    assert all(h <= 0.30 * SMALL_PHONE["height"] for h in heights.values()), heights
