"""A game whose file no screen wrote (its log cannot be replayed), opened in a real browser: the home
screen says it is damaged and offers its file and its deletion, and the next tap works."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.test_screens import damaged_game


def test_a_damaged_game_says_so_and_the_next_tap_works(app, server):
    _store, sid = damaged_game(server.data_dir)
    app.open(server.url)
    app.language("cs")
    app.tap(f"resume-{sid}")
    app.says("problem", "Tato hra je poškozená")
    app.in_sight("problem")
    expect(app.id("damaged-file")).to_be_attached()
    app.shot("damaged-game-cs")
    app.tap("nav-history")                       # the next tap works: the tab is not frozen
    app.says("files", app.t("Export, import and backup"))
    app.tap("nav-home")
    app.tap(f"resume-{sid}")
    with app.page.expect_download() as download:
        app.tap("damaged-file")
    assert sid in download.value.suggested_filename
    app.tap("damaged-delete")
    app.says("problem", "Tato hra je poškozená", present=False)
    expect(app.id(f"resume-{sid}")).to_have_count(0)
