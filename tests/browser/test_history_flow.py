"""History, statistics and charts in a real browser at phone size, in Czech (its decimal commas; English is
drawn in process, tests/test_czech.py): a finished game imported from a file the phone picks, listed,
opened read-only with both charts, exported, backed up and restored."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from companion import exchange
from tests.browser.conftest import PHONE, assert_fits_a_phone, layout
from tests.test_screens import CARCASSONNE, CARCASSONNE_GAME, walk


@pytest.mark.parametrize("lang", ["cs"])
def test_history_statistics_and_charts(app, server, lang, tmp_path):
    vm, _ = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")
    played = tmp_path / "played.json"
    played.write_text(exchange.export_json(vm.store), encoding="utf-8")

    app.open(server.url)
    app.language(lang)
    app.tap("nav-history")
    app.tap("files")                         # export, import and backup: behind one line
    pick(app, "import-json", played)
    app.says("file-notice", app.n("{n} game imported", "{n} games imported", 1))
    sid = app.page.locator('[flt-semantics-identifier^="past-"]').first.get_attribute(
        "flt-semantics-identifier").removeprefix("past-")
    app.says(f"past-{sid}", "Bořek 12")
    screens = {"history": layout(app.page)}
    app.shot(f"history-list-{lang}")

    app.tap(f"open-{sid}")
    app.says("winner", "Bořek")
    expect(app.id("nav-scores")).to_have_count(0)    # read-only: nothing can be changed here
    screens["archive"] = layout(app.page)
    app.id("chart-categories").scroll_into_view_if_needed()
    app.says("chart-categories", app.t("Points by category"))
    app.id("chart-progress").scroll_into_view_if_needed()
    app.says("progress-caption", "Anna 5, Bořek 12, Cyril 2")
    expect(app.id("undo")).to_have_count(0)
    app.shot(f"history-game-{lang}")
    app.tap("back-history")
    app.page.set_viewport_size({"width": 360, "height": 740})
    app.in_sight(f"past-{sid}")                  # the games first: export and the rest behind one line
    app.page.set_viewport_size(PHONE)
    app.tap("files")                         # export, import and backup: behind one line

    with app.page.expect_download() as download:
        app.tap("export-json")
    exported = json.loads(download.value.path().read_text(encoding="utf-8"))
    assert [g["id"] for g in exported["games"]] == [sid]
    with app.page.expect_download() as download:
        app.tap("backup")
    saved = tmp_path / "backup.zip"
    download.value.save_as(saved)
    broken = tmp_path / "broken.json"
    broken.write_text(played.read_text(encoding="utf-8")[:-20], encoding="utf-8")
    pick(app, "import-json", broken)
    app.says("problem", app.t("The file was refused and nothing was changed: {reason}", reason="")[:20])
    pick(app, "restore", saved)
    app.says("file-notice", app.n("{n} game restored", "{n} games restored", 1))
    app.says(f"past-{sid}", "Bořek 12")

    app.tap("nav-home")
    app.tap("nav-stats")
    app.says("player-0", "Bořek")
    app.says("player-0", app.t("average {average}, best {best}", average="12", best=12))
    app.says("stats-carcassonne", app.t("average {average}, best {best}", average="6,3" if lang == "cs" else "6.3", best=12))
    screens["stats"] = layout(app.page)
    app.shot(f"history-stats-{lang}")
    assert_fits_a_phone(screens)


def pick(app, identifier: str, path) -> None:
    """Tap a button that opens the phone's file picker, and pick `path`."""
    with app.page.expect_file_chooser() as chooser:
        app.tap(identifier)
    chooser.value.set_files(str(path))
