"""Princes of the Renaissance in a real browser at phone size, 3 players, in Czech (one language: every
screen is drawn in both in process, tests/test_screens.py): a city auction with a refused over-bid, a war
won by the defender's counter-attack, the decade ends with their income, and the final scoring; the
pinned header and bottom bar at both phone sizes; the flows the taps benchmark plays."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import assert_fits_a_phone, layout


def start(app, names=("Anna", "Bořek", "Cyril"), edition=None):
    """A new game; `edition`: the rulebook chosen ("czech", "english"), else the one the phone's
    language proposes (a Czech phone: the Czech rulebook)."""
    app.tap("new-princes_of_the_renaissance")
    app.names(*names)
    app.tap("colour-1-d_este")                 # Anna Baglioni, Bořek d'Este, Cyril Malatesta
    if edition:
        app.tap(f"edition-{edition}")
    app.tap("create")
    app.tap("tick-board")
    app.tap("begin")


def event(app, key, currency="gold", place=None, end=True):
    """The player on turn auctions an event tile of the decade; the others pass; he keeps it for 0."""
    app.tap("action-event")
    app.tap(f"event-{key}")
    if key != "gozzoli":
        app.tap(f"currency-{currency}")
    app.tap("open-auction")
    app.tap("pass-bid")
    app.tap("pass-bid")
    if place:
        app.tap(f"place-{place}")
    if end:
        app.tap("end-turn")


def troop(app, kind, cost):
    """The player on turn (no card, no tile ability left) buys a troop: the same tap ends his turn."""
    app.tap(f"troop-{kind}")                    # the troops are among the turn's choices
    app.tap(f"troop-cost-{cost}")
    app.tap("buy-troop")


def prepare_auction(app) -> None:
    """The taps benchmark's start: a new 3-player game, Anna on turn."""
    start(app)


def play_auction(app, city: str = "venice", raise_to: int = 15) -> None:
    """A city auction with one raise and two passes: Anna opens Venice at 14 (2 × status 7), Bořek
    raises to 15, Cyril and Anna pass, Bořek takes the tile."""
    app.tap("action-city")
    app.tap(f"city-{city}")
    app.tap("open-auction")
    app.tap(f"bid-{raise_to}")
    app.tap("pass-bid")
    app.tap("pass-bid")


def prepare_war(app) -> None:
    """The taps benchmark's start: Anna (Pike) and Bořek (Artillery) have troops; Cyril on turn; the
    Czech rulebook on every phone (no counter-attack: the dice are rolled once)."""
    start(app, edition="czech")
    troop(app, "pike", 3)
    troop(app, "artillery", 4)


def prepare_income(app) -> None:
    """The taps benchmark's start: three of decade I's four event tiles are gone; Anna on turn."""
    start(app)
    event(app, "bellini")
    event(app, "gozzoli")
    event(app, "da_vinci")


def play_income(app) -> None:
    """The decade's last turn: Anna reads the last event tile (Verrocchio, paid in gold, 3 VP printed),
    opens its auction, nobody else bids, and the decade's income is booked."""
    app.tap("action-event")
    app.tap("event-verrocchio")
    app.tap("currency-gold")
    app.tap("event-vp-3")
    app.tap("open-auction")
    app.tap("pass-bid")
    app.tap("pass-bid")
    app.tap("book-income")


def prepare_troop(app) -> None:
    """The taps benchmark's start: a new 3-player game, Anna on turn."""
    start(app)


def play_troop(app) -> None:
    """Anna buys a Crossbow, its price and fighting values read off the tile (none of them known)."""
    app.tap("troop-crossbow")                   # among the turn's choices
    app.tap("troop-cost-4")
    app.tap("troop-attack-2")
    app.tap("troop-defence-1")
    app.tap("buy-troop")                        # nothing of her turn is left: it ends too


def venice_attacks_rome(app) -> None:
    """Venice attacks Rome, no veto, Anna (Pike) and Bořek (Artillery) the condottieri."""
    app.tap("action-war")
    app.tap("attacker-venice")
    app.tap("defender-rome")
    app.tap("declare-war")                      # nobody holds a card: no veto, on to the condottieri
    app.tap("bid-1")                            # Anna, 1 influence for Venice
    app.tap("pass-bid")                         # Bořek
    app.tap("bid-1")                            # Bořek, 1 influence for Rome


def play_war(app) -> None:
    """Cyril's war, the dice rolled once (the Czech rules, the default: no counter-attack)."""
    venice_attacks_rome(app)
    app.tap("roll")


@pytest.mark.parametrize("lang", ["cs"])
def test_a_three_player_game(app, server, lang):
    app.open(server.url)
    app.language(lang)
    start(app, edition="english")          # the whole game below plays by the English rules
    app.says("actor", "Anna")
    app.says("actor", "Baglioni")               # each family by its name and its own colour
    troop(app, "pike", 3)                       # Anna: Pike 0/2, 37 gold left
    troop(app, "artillery", 4)                  # Bořek: Artillery 3/1 (+1/+1 d'Este)

    # Cyril auctions a Venice tile (status 7: at least 14); Anna cannot bid 50 with 37 gold
    app.tap("action-city")
    app.tap("city-venice")
    app.tap("tile-gold-2")
    app.frame_holds("open-auction")
    app.tap("open-auction")
    app.says("bidder", "Anna")
    app.says("actor", "Anna")                   # the header names the bidder, not the player on turn
    app.tap("bid-other")
    app.tap("bid-amount-key-5")
    app.tap("bid-amount-key-0")
    app.tap("bid")
    app.in_sight("banner")
    app.says("banner", app.t("That bid is more than this player can pay: at most {n}.", n=37))
    app.frame_holds("pass-bid")
    app.tap("bid-15")
    app.tap("pass-bid")                         # Bořek
    app.tap("pass-bid")                         # Cyril
    app.says("last-auction", "15")
    app.says("fig-baglioni", "22")              # 37 − 15
    app.tap("end-turn")

    # Anna: Venice attacks Rome; Anna and Bořek are the condottieri
    venice_attacks_rome(app)
    app.says("strength-attacker", "= 0")        # Pike attack 0
    app.says("actor", "Anna")                   # the attacker's condottiere attacks
    app.says("strength-defender", "= 2")        # Artillery 1 + d'Este 1
    app.frame_holds("roll")
    screens = {"war": layout(app.page)}
    app.shot(f"princes-war-{lang}")
    app.tap("die-attacker-1")
    app.tap("die-defender-1")
    app.tap("battle")                           # 1 against 3, no attacker win
    app.says("strength-defender", "= 4")        # the counter-attack: Artillery 3 + d'Este 1
    app.says("actor", "Bořek")                  # the header names the defender's condottiere, who counter-attacks
    app.tap("die-defender-6")
    app.tap("die-attacker-1")
    app.tap("battle")                           # Rome 4 + 6 = 10 against Venice 2 + 1 = 3
    app.says("last-war", app.t("{name} takes a VP counter.", name="Bořek"))
    app.says("status-rome", "7")
    app.says("status-venice", "5")
    app.tap("end-turn")

    # the rest of decade I: four event tiles; the last one ends the decade
    event(app, "bellini")                       # Bořek
    event(app, "gozzoli")                       # Cyril (paid in influence)
    event(app, "da_vinci")                      # Anna
    event(app, "verrocchio", end=False)         # Bořek: decade I is over
    app.says("income-baglioni-gold-value", "21")  # Anna: family 12 + tile 2 + war pay 7 (Venice)
    app.frame_holds("book-income")
    screens["decade end"] = layout(app.page)
    app.shot(f"princes-decade-end-{lang}")
    app.tap("book-income")

    # decade II starts with the player after the last auctioneer: Cyril
    app.says("actor", "Cyril")
    event(app, "michelangelo")
    event(app, "merchant")
    event(app, "other")
    event(app, "french_invasion", end=False)
    app.tap("place-none")
    app.tap("book-income")

    app.says("actor", "Anna")
    event(app, "botticelli", place="florence")
    event(app, "carpaccio", place="florence")
    event(app, "pinturicchio", place="milan")
    event(app, "ghirlandaio", place="milan", end=False)
    app.tap("book-income")
    expect(app.id("review")).to_be_visible()
    app.says("review", app.t("{name}: 1 VP counter = 1", name="Bořek"))
    app.tap("finish")
    # Bořek: 1 VP counter + most gold 6 = 7; Cyril: second-most gold 3 + most influence 4 = 7;
    # Anna: a Venice tile (rank 4–5: 2) + most influence 4 = 6
    expect(app.id("winner")).to_contain_text(app.t("Shared victory: {names}", names="Bořek, Cyril"))
    expect(app.id("result-baglioni")).to_contain_text(app.n("{n} point", "{n} points", 6))
    app.shot(f"princes-result-{lang}")
    assert_fits_a_phone(screens)


def test_an_auction_and_a_war_cost_few_taps_and_no_scrolling(app, server):
    app.open(server.url)
    app.language("en")
    prepare_war(app)
    app.taps, app.scrolled = 0, 0.0
    play_war(app)
    assert (app.taps, app.scrolled) == (8, 0.0)  # issue 25: no veto step when nobody could veto
    expect(app.id("last-war")).to_be_visible()
    app.tap("end-turn")
    app.taps = 0
    play_auction(app, "naples", 11)             # Anna opens Naples at 10, Bořek raises, Cyril and Anna pass
    assert (app.taps, app.scrolled) == (6, 0.0)
    app.says("last-auction", "11")


def test_princes_screens_fit_a_phone(app, server):
    app.open(server.url)
    app.language("cs")
    start(app)
    screens = {"turn": layout(app.page)}
    app.tap("action-city")
    app.tap("city-venice")
    screens["city"] = layout(app.page)
    app.shot("princes-city-cs")
    app.tap("open-auction")
    screens["auction"] = layout(app.page)
    app.shot("princes-auction-cs")
    app.tap("nav-scores")
    screens["ledgers"] = layout(app.page)
    assert_fits_a_phone(screens)


def test_a_refused_control_says_why_in_sight(app, server):
    """Issue 22: a greyed control is never silent: during an auction the ledger correction is refused,
    and a tap on it shows the reason next to it and in the pinned bottom bar, wholly inside the
    360×740 viewport and clear of the pinned header."""
    app.page.set_viewport_size({"width": 360, "height": 740})
    app.open(server.url)
    app.language("en")
    start(app)
    app.tap("action-city")
    app.tap("city-venice")
    app.tap("open-auction")                     # Anna opens at 14: the auction is under way
    app.tap("nav-scores")
    app.tap("adjust-save")
    reason = app.t("An auction is under way: correct the ledgers after it.")
    app.says("error-adjust-save", reason)       # next to the control
    app.says("banner", reason)                  # and in the pinned bottom bar, where the eye is
    app.in_sight("banner")
    box = app.id("banner").first.bounding_box()
    assert app._edge("header", "bottom", 0) - 1 <= box["y"], box
    assert box["y"] + box["height"] <= 740 + 1 and box["x"] >= -1 and box["x"] + box["width"] <= 360 + 1, box
    app.says("fig-baglioni", "40")              # nothing changed


def test_a_troop_and_the_decade_income_cost_few_taps_and_no_scrolling_on_a_small_czech_phone(app, server):
    """Issue 25: at 360×740 in Czech, a troop whose values are read off its tile is 5 taps (its turn
    ends with it), and the decade's last event tile read off, auctioned and its income booked is 8,
    every control in sight between the pinned bars."""
    app.page.set_viewport_size({"width": 360, "height": 740})
    app.open(server.url)
    app.language("cs")
    prepare_troop(app)
    app.taps, app.scrolled = 0, 0.0
    play_troop(app)
    assert (app.taps, app.scrolled) == (5, 0.0)
    app.says("actor", "Bořek")                  # Anna's turn ended with the troop
    app.says("fig-baglioni", "36")              # 40 − 4
    app.tap("nav-scores")
    app.says("ledger-card-baglioni", app.t("{troop}: attack {attack}, defence {defence}",
                                           troop="Kušiníci (Crossbow)", attack=2, defence=1))
    app.tap("nav-home")
    prepare_income(app)
    app.taps, app.scrolled = 0, 0.0
    play_income(app)
    assert (app.taps, app.scrolled) == (8, 0.0)
    app.says("fig-baglioni", "52")              # decade II: 40 gold + the family tile's 12 booked
