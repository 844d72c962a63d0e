"""Any other game on a score sheet in a real browser at phone size, in English (one language: every screen
is drawn in both in process, tests/test_screens.py): make a sheet, play 3 rounds with 3 players on the
keypad, undo, finish, find the game in the history and the statistics, export it and import it into an
empty data folder (its sheet comes along)."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Server, assert_fits_a_phone, layout
from tests.browser.test_history_flow import pick

NAMES = ("Anna", "Bořek", "Cyril")
COLOURS = ("red", "blue", "green")


def enter_round(app, round_: int) -> None:
    for i, colour in enumerate(COLOURS):
        app.tap(f"cell-pad-key-{i + round_}")
        app.tap("cell-save")
        app.says(f"cell-{colour}", f"{round_}: {i + round_}")


@pytest.mark.parametrize("lang", ["en"])
def test_a_score_sheet_from_the_form_to_the_statistics_and_another_device(app, server, lang, tmp_path):
    app.open(server.url)
    app.language(lang)
    app.tap("new-sheet")
    app.fill(app.t("Name of the game"), "Hearts")
    app.tap("sheet-rounds-yes")
    app.tap("sheet-wins-low")
    app.names(*NAMES)
    screens = {"form": layout(app.page)}
    app.shot(f"sheet-form-{lang}")
    app.tap("create")
    app.says("bar-title", "Hearts")
    app.says("where", app.t("Round {n}", n=1))
    app.frame_holds("cell-save")

    enter_round(app, 1)
    app.says("fig-red", "1 · 1.")                # lowest wins: Anna's 1 leads
    app.tap("next-round")
    enter_round(app, 2)
    app.tap("next-round")
    app.says("where", app.t("Round {n}", n=3))
    app.tap("cell-pad-key-9")
    app.tap("cell-save")
    app.says("cell-red", "3: 9")
    app.says("undo", "Anna")                     # the undo names the player and the points
    app.says("undo", "9")
    app.tap("undo")
    app.says("cell-red", "3: …")
    screens["sheet"] = layout(app.page)
    app.shot(f"sheet-play-{lang}")
    enter_round(app, 3)
    app.says("fig-red", "6 · 1.")
    app.tap("finish")
    app.says("winner", "Anna")
    app.id("chart-progress").scroll_into_view_if_needed()
    app.says("progress-caption", app.n("By round: {n} round; at the end: {finals}",
                                       "By round: {n} rounds; at the end: {finals}", 3,
                                       finals="Anna 6, Bořek 9, Cyril 12"))

    app.tap("nav-home")
    sheet_card = app.page.locator('[flt-semantics-identifier^="sheet-history-"]').first
    expect(sheet_card).to_be_attached()
    app.tap(sheet_card.get_attribute("flt-semantics-identifier"))
    past = app.page.locator('[flt-semantics-identifier^="past-"]').first
    expect(past).to_be_attached()
    sid = past.get_attribute("flt-semantics-identifier").removeprefix("past-")
    app.says(f"past-{sid}", "Hearts")
    app.says(f"past-{sid}", "Anna 6, Bořek 9, Cyril 12")
    screens["history"] = layout(app.page)
    app.tap("files")                             # export, import and backup: behind one line
    with app.page.expect_download() as download:
        app.tap("export-json")
    exported = tmp_path / "hearts.json"
    download.value.save_as(exported)
    assert [s["name"] for s in json.loads(exported.read_text(encoding="utf-8"))["sheets"]] == ["Hearts"]

    app.tap("nav-home")
    app.tap("nav-stats")
    app.tap("period-month")
    stats = app.page.locator('[flt-semantics-identifier^="stats-score_sheet:"]').first
    expect(stats).to_be_attached()
    app.says(stats.get_attribute("flt-semantics-identifier"), "Hearts")
    app.says("player-0", "Anna")
    app.says("player-0", app.t("{games}, win rate {rate} %; {figures}", games=app.n("{n} game", "{n} games", 1),
                               rate=100, figures=app.t("average {average}, best {best}", average="6", best=6)))
    app.says("versus", "1 : 0")
    screens["stats"] = layout(app.page)
    app.shot(f"sheet-stats-{lang}")
    assert_fits_a_phone(screens)

    other = Server(tmp_path / "empty").start()
    try:
        app.open(other.url)
        app.language(lang)
        app.tap("nav-history")
        app.tap("files")                         # export, import and backup: behind one line
        pick(app, "import-json", exported)
        app.says("file-notice", app.n("{n} game imported", "{n} games imported", 1))
        expect(app.page.locator('[flt-semantics-identifier^="past-"]')).to_have_count(1)
        app.tap("nav-home")
        expect(app.page.locator('[flt-semantics-identifier^="sheet-new-"]')).to_have_count(1)
        app.says(app.page.locator('[flt-semantics-identifier^="sheet-"]').first.get_attribute(
            "flt-semantics-identifier"), "Hearts")
    finally:
        other.stop()
