"""Issue 25, item 6 in a real browser, in Czech at 360×740: with 17 games in progress "New game" is in
sight without scrolling; a game is abandoned (it moves to the history, marked), another is deleted
after a question, had back with the undo, deleted again, and the deletion stands after the next screen."""
from __future__ import annotations

from playwright.sync_api import expect

from companion.store import Store
from companion.ui.viewmodel import ViewModel
from tests.browser.conftest import Server
from tests.test_screens import CARCASSONNE

SMALL_PHONE = {"width": 360, "height": 740}


def test_abandon_delete_and_undo_with_seventeen_games_in_progress(app, tmp_path):
    data = tmp_path / "seventeen"
    vm = ViewModel(Store(data))
    vm.set_language("cs")
    sids = []
    for _ in range(17):
        assert vm.new_game("carcassonne", CARCASSONNE), vm.problem
        sids.append(vm.session["id"])
    server = Server(data).start()
    try:
        app.page.set_viewport_size(SMALL_PHONE)
        app.open(server.url)
        app.language("cs")
        expect(app.page.locator('[flt-semantics-identifier^="resume-"]').first).to_be_attached()
        for game in ("carcassonne", "village", "flanders_1302"):
            app.in_sight(f"new-{game}")               # no scrolling: at the top of the home screen
            assert app.reach(app.id(f"new-{game}")) == 0

        abandoned, deleted = sids[-1], sids[-2]       # the newest first on the home screen
        app.tap(f"abandon-{abandoned}")
        expect(app.id(f"session-{abandoned}")).to_have_count(0)
        app.says("notice-banner", app.t("The game is kept in the history as abandoned."))
        app.tap(f"delete-{deleted}")                  # a question after the notice: the notice is put away
        app.in_sight(f"delete-question-{deleted}")
        app.in_sight(f"delete-yes-{deleted}")
        expect(app.id("notice-banner")).to_have_count(0)
        app.tap(f"delete-keep-{deleted}")
        app.in_sight("undo-abandon")                  # abandoned by mistake: taken up again at once
        app.tap("undo-abandon")
        expect(app.id(f"resume-{abandoned}")).to_have_count(1)
        app.tap(f"abandon-{abandoned}")
        app.tap("nav-history")
        app.says(f"abandoned-{abandoned}", app.t("Abandoned, not finished"))
        expect(app.id(f"take-up-{abandoned}")).to_have_count(1)
        app.tap("nav-home")

        app.tap(f"delete-{deleted}")
        expect(app.id(f"delete-question-{deleted}")).to_be_attached()
        expect(app.id(f"session-{deleted}")).to_have_count(1)      # asked, nothing deleted yet
        app.tap(f"delete-yes-{deleted}")
        expect(app.id(f"session-{deleted}")).to_have_count(0)
        app.in_sight("undo-delete")
        app.tap("undo-delete")
        expect(app.id(f"resume-{deleted}")).to_have_count(1)      # back, whole
        app.tap(f"delete-{deleted}")
        app.tap(f"delete-yes-{deleted}")
        app.tap("nav-history")                                     # the next screen: the deletion stands
        app.tap("nav-home")
        expect(app.id("undo-delete")).to_have_count(0)
        expect(app.id(f"session-{deleted}")).to_have_count(0)
        expect(app.page.locator('[flt-semantics-identifier^="session-"]')).to_have_count(15)
        app.shot("letting-go-360-cs")
    finally:
        server.stop()
    assert {s["id"] for s in Store(data).sessions("active")} == set(sids) - {abandoned, deleted}
