"""Teach mode in a real browser at phone size, one short game per game: "Teach us" on the new-game
form, the cards and the setup lines, the step's "how to do it", and the explanation on the spot of
round 1's scoring, market day or auction with this table's names and numbers, in both languages:
each test plays in one language and then switches the phone to the other, where the same explanation
must stand in that language (Flanders, Princes and Elfenland start in English, Village and Carcassonne
in Czech). And the step's card folded on a small Czech phone: one line, the step's controls right
under it."""
from __future__ import annotations

from playwright.sync_api import expect

from companion.i18n import translations
from tests.browser.conftest import PHONES
from tests.browser.test_flanders_flow import PLAYERS, score_city


def at_top(app) -> None:
    """Scroll the screen back to its top, where the teaching stands."""
    app.page.mouse.move(195, 400)
    app.page.mouse.wheel(0, -20_000)
    app.page.wait_for_timeout(500)


def explains(app, *parts: str) -> None:
    at_top(app)
    expect(app.id("teach-explain")).to_be_attached()
    for part in parts:
        app.says("teach-explain", part)


def switched(app, lang: str, msgid: str, plural: str | None = None) -> str:
    """Switch the phone to `lang`; the opening words (up to the first blank) of `msgid` in it."""
    app.language(lang)
    said = translations(lang).ngettext(msgid, plural, 2) if plural else translations(lang).gettext(msgid)
    return said.split("{")[0].strip()


def teaching(app, server, lang: str, game: str, names, before: tuple = (), after: tuple = ()) -> None:
    """A new game of `game` in teach mode, in `lang`, with the players `names`: the form's other taps
    (test ids) made `before` and `after` the names, then created."""
    app.open(server.url)
    app.language(lang)
    app.tap(f"new-{game}")
    app.tap("teach-yes")
    for ident in before:
        app.tap(ident)
    app.names(*names)
    for ident in after:
        app.tap(ident)
    app.tap("create")


def test_flanders_teaches_the_first_city_scoring_in_both_languages(app, server):
    teaching(app, server, "en", "flanders_1302", PLAYERS, after=("empty-utrecht",))
    expect(app.id("teach-card-win")).to_be_attached()
    app.says("why-board", "score track")
    app.tap("begin")
    at_top(app)
    app.says("teach-how", "gold card")
    app.tap("step-scoring")
    # Ghent: Anna (blue) and Bořek (yellow) 3 quarters each, Cyril 1; Bořek has 2 guild masters, Anna 1
    score_city(app, "ghent", {"blue": 3, "yellow": 3, "green": 1}, {"blue": 1, "yellow": 2})
    explains(app, "Ghent is worth 7 points", "Bořek: quarters 3, guild masters 2, place 1: 7 points",
             "Anna: quarters 3, guild masters 1, place 2: 4 points",
             "Bořek ties on quarters with Anna and wins the tie with more guild masters.")
    app.tap("lang-cs")
    app.language("cs")
    explains(app, "Gent dá cechu na prvním místě 7 bodů", "Bořek")
    app.says("teach-explain", "Anna")


def test_village_teaches_the_market_day_in_both_languages(app, server):
    teaching(app, server, "cs", "village", ("Anna", "Bořek"))
    expect(app.id("teach-card-score")).to_be_attached()
    app.tap("begin")
    app.tap("market-start")
    app.tap("sale-good-horse")
    app.tap("sale-6")
    app.tap("sale-good-horse")
    app.tap("sale-3")
    # the time track has 12 spaces to the bridge (the form's default): Bořek's 1 time leaves 11
    explains(app, "Den trhu: kostku trhu má Anna", "1 zelenou kostku vlivu a 1 jednotku času",
             "Anna: zákazník za 6 bodů prestiže", "zdarma: bez zelené kostky a bez času",
             "Bořek: zákazník za 3 body prestiže", "navíc 1 zelená kostka vlivu a 1 jednotka času",
             "Bořek: ukazateli času teď zbývá do mostu 11 políček.")
    explains(app, switched(app, "en", "Market day: {name} took the market cube and so serves the first customer, "
                                       "free. Every other customer served, {name}'s further ones too, costs 1 green "
                                       "influence cube and 1 time; whoever passes sells nothing more this market "
                                       "day."), "Anna", "Bořek", "the life marker is now 11 spaces before the bridge")


def test_princes_teaches_the_first_auction_in_both_languages(app, server):
    teaching(app, server, "en", "princes_of_the_renaissance", ("Anna", "Bořek", "Cyril"), after=("colour-1-d_este",))
    app.tap("tick-board")
    app.tap("begin")
    at_top(app)
    app.says("teach-how", "choose one action")
    # Anna opens Venice at 14, Bořek raises to 15, Cyril and Anna pass
    app.tap("action-city")
    app.tap("city-venice")
    app.tap("open-auction")
    app.tap("bid-15")
    app.tap("pass-bid")
    app.tap("pass-bid")
    explains(app, "Venice", "Bořek bid 15 last and takes it.", "Bořek pays 15 (Gold) and has 25 left.")
    explains(app, switched(app, "cs", "Auction: {lot}. Each player in turn raised or passed, and a pass is final; "
                                       "{name} bid {bid} last and takes it."), "Bořek", "15", "25")


def test_carcassonne_teaches_the_first_completed_feature_in_both_languages(app, server):
    teaching(app, server, "cs", "carcassonne", ("Anna", "Bořek", "Cyril"))  # red, green, blue
    app.says("why-tiles", "Kartičky jsou celá hra")
    app.tap("begin")
    # Anna and Bořek each have a knight in a city Anna completes: 4 tiles + 1 pennant = 10 each
    app.tap("meeple-red-plus")
    app.tap("meeple-others")
    app.tap("meeple-green-plus")
    app.tap("f-type-city")
    app.tap("f-tiles-4")
    app.tap("f-pennants-1")
    app.tap("f-m-green")                          # Anna's own knight is proposed: she completed the city
    app.tap("score-feature")
    explains(app, "Anna a Bořek", "10", "Body teď: Anna 10, Bořek 10, Cyril 0.")
    switched(app, "en", "Scores now: {totals}.")
    explains(app, "Anna and Bořek", "Scores now: Anna 10, Bořek 10, Cyril 0.")


def test_elfenland_teaches_the_first_auction_in_both_languages(app, server):
    teaching(app, server, "en", "elfenland", ("Anna", "Bořek", "Cyril"), before=("wizards",))  # Anna starts
    app.tap("tick-board")
    app.tap("begin")
    app.tap("next-phase")                         # the auction: tile 1 opens
    app.tap("bid-min")                            # Anna 1
    app.tap("bid-min")                            # Bořek 2
    app.tap("pass-bid")                           # Cyril
    app.tap("pass-bid")                           # Anna: Bořek pays 2 of his 12 gold
    explains(app, "Auction:", "goes to Bořek for 2 gold", "Bořek has 10 gold left.")
    explains(app, switched(app, "cs", "Auction: {tile} goes to {name} for {n} gold, the last bid standing after the "
                                       "others passed.",
                           "Auction: {tile} goes to {name} for {n} gold, the last bid standing after the others "
                           "passed."), "Bořek", "10")


def test_the_step_card_folds_to_one_line_on_a_small_czech_phone(app, server):
    """Issue 34: the "How to do it" card pushed the step's controls 70–180 px down and could not be
    folded. Open on its first showing, it folds with a tap; the same step on the next turn comes
    folded: one line, the step's own controls right under it (360×740, Czech: the picture
    test-artifacts/teach-folded-cs-360.png)."""
    app.page.set_viewport_size(PHONES[1])
    teaching(app, server, "cs", "carcassonne", ("Dita", "Emil", "Filip"))
    app.tap("begin")
    at_top(app)
    expect(app.id("teach-how")).to_be_attached()
    app.tap("teach-toggle")
    expect(app.id("teach-how")).not_to_be_attached()
    app.tap("teach-toggle")
    expect(app.id("teach-how")).to_be_attached()
    app.tap("next-turn")                          # Emil's turn: the draw step again, folded
    at_top(app)
    expect(app.id("teach-how")).not_to_be_attached()
    app.says("teach-toggle", translations("cs").gettext("How to do it"))
    folded = app.id("teach-step").first.bounding_box()
    below = app.id("step-draw").first.bounding_box()   # the turn's steps, the first control of the screen
    assert folded is not None and below is not None
    assert folded["height"] <= 56, folded            # the head alone: its 52 px touch target
    assert below["y"] - (folded["y"] + folded["height"]) <= 16, (folded, below)
    app.shot("teach-folded-cs-360")
    app.tap("teach-toggle")
    app.tap("teach-steps-toggle")
    app.says("teach-steps", "Před přiložením smíte otevřít")   # the gift step, never reached: one tap away
    app.shot("teach-steps-cs-360")
