"""Table mode (`companion serve --lan`): several phones (browser contexts) on one live game, the
join link's token, simultaneous taps, a phone that drops off and comes back. The tests share the
module's table server (conftest's `table`): each plays a game of its own, found by its id."""
from __future__ import annotations

import re
import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from companion.store import stored_game
from tests.browser.conftest import CZECH, PHONE, App


@pytest.fixture
def phones(browser, table):
    """Phones that joined the table with its link (each its own browser context, like a device)."""
    contexts = []

    def join(lang="en"):
        context = browser.new_context(viewport=PHONE, locale=CZECH)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        phone = App(page, "cs")                 # a Czech phone's first visit is in Czech
        phone.open(table.join)
        phone.language(lang)
        return phone

    yield join
    for context in contexts:
        context.close()


def game_id(phone) -> str:
    """The id of the game the phone shows (its address is /game/<id>)."""
    expect(phone.page).to_have_url(re.compile(r"/game/[^/]+$"))
    return phone.page.url.rsplit("/game/", 1)[1]


def carcassonne(host) -> str:
    """The first phone starts a 2-player Carcassonne game and begins it; the game's id."""
    host.tap("new-carcassonne")
    host.tap("count-2")
    host.names("Anna", "Bořek")
    host.tap("create")
    host.tap("begin")
    expect(host.id("actor")).to_contain_text("Anna")
    return game_id(host)


def resume(phone, sid, head="actor"):
    """Another phone opens the game in progress from its home screen."""
    phone.tap(f"resume-{sid}")
    expect(phone.id(head)).to_be_visible()


def log_length(table, sid) -> int:
    return len(stored_game(table.data_dir, sid)["log"])


def test_a_tap_on_one_phone_shows_on_the_other_without_a_reload(phones, table):
    anna, borek = phones(), phones("cs")
    expect(anna.id("table")).to_be_visible()             # the join link and its QR code on every screen
    resume(borek, carcassonne(anna))
    for expected in ("1 / 7", "2 / 7"):                # how fast: `bench/bench.py table` measures it
        anna.tap("meeple-red-plus")
        expect(borek.id("meeples-red")).to_have_text(expected, timeout=5000)
    borek.tap("next-turn")                                 # and back the other way
    expect(anna.id("actor")).to_contain_text("Bořek", timeout=5000)


def test_four_phones_follow_the_same_game(phones, table):
    host = phones()
    sid = carcassonne(host)
    others = [phones() for _ in range(3)]
    for phone in others:
        resume(phone, sid)
    others[1].tap("meeple-red-plus")
    for phone in (host, others[0], others[2]):
        expect(phone.id("meeples-red")).to_have_text("1 / 7", timeout=5000)


def test_simultaneous_taps_lose_and_duplicate_nothing(phones, table):
    anna, borek = phones(), phones()
    sid = carcassonne(anna)
    resume(borek, sid)
    before = log_length(table, sid)
    for phone in (anna, borek):
        phone.id("meeple-red-plus").scroll_into_view_if_needed()
    anna.id("meeple-red-plus").click(no_wait_after=True)
    borek.id("meeple-red-plus").click(no_wait_after=True)
    deadline = time.monotonic() + 10
    while True:  # both taps answered: both recorded, or one recorded and the other phone says why not
        recorded = log_length(table, sid) - before
        if recorded == 2 or (recorded == 1 and any(p.id("problem").count() for p in (anna, borek))):
            break
        assert time.monotonic() < deadline, f"{recorded} taps recorded and no refusal shown"
        anna.page.wait_for_timeout(100)
    expect(anna.id("meeples-red")).to_have_text(f"{recorded} / 7", timeout=5000)
    expect(borek.id("meeples-red")).to_have_text(f"{recorded} / 7", timeout=5000)
    if recorded == 1:                                      # the later tap was based on the old state: it says so
        assert [p for p in (anna, borek) if p.id("problem").count()], "the refused tap is explained"


def test_without_the_join_link_a_phone_sees_nothing(browser, phones, table):
    host = phones()
    carcassonne(host)
    address = table.join.rsplit("/join/", 1)[0]
    stranger = browser.new_context(viewport=PHONE).new_page()
    response = stranger.goto(address + "/")
    assert response.status == 403
    page = stranger.content()
    assert "This table is closed" in page and "Tento stůl je zavřený" in page
    assert "Anna" not in page and "Carcassonne" not in page
    assert stranger.goto(address + "/join/" + "x" * 32).status == 403
    for path in ("/main.dart.js", "/ws"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(address + path, timeout=5)
        assert refused.value.code == 403
    stranger.context.close()


def test_a_phone_that_drops_off_catches_up(phones, table):
    anna, borek = phones(), phones()
    resume(borek, carcassonne(anna))
    borek.page.context.set_offline(True)
    anna.tap("meeple-red-plus")
    anna.tap("next-turn")
    borek.page.context.set_offline(False)
    expect(borek.id("actor")).to_contain_text("Bořek", timeout=15_000)
    borek.says("meeple-others", "Anna 1")                  # Anna's meeple, among the others' now


def test_each_player_seals_his_cards_on_his_own_phone_and_they_are_revealed_together(phones, table):
    anna = phones()
    anna.tap("new-flanders_1302")
    anna.names("Anna", "Bořek", "Cyril")      # blue, yellow, green
    anna.tap("empty-utrecht")
    anna.tap("create")
    anna.tap("begin")
    sid = game_id(anna)
    borek, cyril = phones(), phones()
    for phone in (borek, cyril):
        resume(phone, sid, "where")
    for phone, colour in ((anna, "blue"), (borek, "yellow"), (cyril, "green")):
        phone.tap(f"me-{colour}")
        phone.tap("step-reveal")
    anna.tap("seal-cards-2")                                     # Anna plays 2 cards, sealed
    anna.tap("seal")
    borek.says("sealed", "Anna")                                 # Bořek sees that Anna has sealed, not what
    expect(borek.id("turn-order")).to_have_count(0)
    borek.tap("seal")                                            # Bořek and Cyril play 1 each
    cyril.tap("seal")                                            # ... and all are revealed at once
    for phone in (anna, borek, cyril):
        expect(phone.id("turn-order")).to_be_visible(timeout=5000)
        content = phone.id("turn-order").text_content()
        assert content.index("Anna") < content.index("Bořek")   # 2 cards before 1
    # step 4: Anna acts first; only her phone ends her action, Bořek's says whose it is
    expect(anna.id("your-turn")).to_be_visible(timeout=5000)
    borek.says("actor", "Anna")
    borek.tap("action-done")
    borek.says("banner", "Anna")
    borek.in_sight("banner")
    anna.tap("action-done")
    expect(borek.id("your-turn")).to_be_visible(timeout=5000)


def test_the_phone_of_the_player_on_turn_says_so(phones, table):
    anna = phones()
    sid = carcassonne(anna)
    borek = phones()
    resume(borek, sid)
    anna.tap("me-red")
    borek.tap("me-green")
    expect(anna.id("your-turn")).to_be_visible()
    expect(borek.id("your-turn")).to_have_count(0)
    # the greeting stands in the header's line of who acts: the header keeps its height (issue 25)
    for size in ({"width": 360, "height": 740}, {"width": 390, "height": 844}):
        for phone in (anna, borek):
            phone.page.set_viewport_size(size)
            phone.settle()
        assert abs(anna.id("header").first.bounding_box()["height"]
                   - borek.id("header").first.bounding_box()["height"]) <= 1, size
    anna.tap("next-turn")
    expect(borek.id("your-turn")).to_be_visible(timeout=5000)
    borek.page.reload()                                    # the phone remembers whose it is
    borek.open(borek.page.url)
    expect(borek.id("your-turn")).to_be_visible(timeout=10_000)


def test_an_owned_phone_asks_before_undoing_anothers_entry_over_an_older_refusal(phones, table):
    """Issue 35, in Czech at 360×740: Bořek's phone is refused a tap (it is Anna's turn), then asks
    before taking back Anna's entry: the question, the newest message, is in sight, not under the
    older refusal."""
    anna = phones("cs")
    sid = carcassonne(anna)
    borek = phones("cs")
    borek.page.set_viewport_size({"width": 360, "height": 740})
    borek.page.reload()                                    # the home screen drawn at that size
    borek.open(borek.page.url)
    assert borek.reach(borek.id(f"resume-{sid}")) == 0     # a joined phone resumes without scrolling past the code
    resume(borek, sid)
    anna.tap("me-red")
    borek.tap("me-green")
    anna.tap("meeple-red-plus")                            # Anna's entry
    borek.says("meeple-others", "Anna 1")                  # ... seen on Bořek's phone
    borek.tap("next-turn")                                 # refused: Anna's turn
    expect(borek.id("banner")).to_be_visible()
    borek.tap("undo")
    borek.in_sight("undo-question")
    borek.says("undo-question", "Anna")
    expect(borek.id("banner")).to_have_count(0)            # the refusal put away, not over the question
    borek.in_sight("undo-keep")
    borek.in_sight("undo-yes")
    borek.shot("undo-question-360-cs")
    borek.tap("undo-yes")
    expect(anna.id("meeples-red")).to_contain_text("0", timeout=5000)
