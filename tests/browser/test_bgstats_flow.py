"""BG Stats in a real browser at phone size, in Czech (its plurals; the English texts and every rule of
the format: tests/test_bgstats.py): a BG Stats export picked on the
Finished games screen becomes finished games, an imported game opens as its result (not as
damaged), and the screen's BG Stats button downloads a file with every finished game."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.store import Store
from tests.browser.conftest import assert_fits_a_phone, layout
from tests.browser.test_history_flow import pick
from tests.test_bgstats import sample


@pytest.mark.parametrize("lang", ["cs"])
def test_a_bg_stats_file_in_and_out_from_the_history_screen(app, server, lang, tmp_path):
    file = tmp_path / "bgstats-export.json"
    file.write_text(json.dumps(sample(), ensure_ascii=False), encoding="utf-8")
    app.open(server.url)
    app.language(lang)
    app.tap("nav-history")
    app.tap("files")                         # export, import and backup: behind one line
    pick(app, "import-json", file)
    app.says("file-notice", app.n("{n} game imported", "{n} games imported", 5))
    carcassonne = Store(str(server.data_dir)).sessions("finished")[-1]  # the oldest play: Carcassonne, Anna 88
    assert carcassonne["game"] == "carcassonne"
    sid = carcassonne["id"]
    app.id(f"past-{sid}").scroll_into_view_if_needed()
    app.says(f"past-{sid}", "Anna 88, Bořek 71")
    screens = {"history": layout(app.page)}
    app.tap(f"open-{sid}")
    app.says("imported-note", "BG Stats")
    app.says("winner", "Anna")
    app.says(f"result-{carcassonne['result']['players'][1]['colour']}", "Bořek")
    expect(app.id("damaged-file")).to_have_count(0)
    screens["imported"] = layout(app.page)
    app.tap("back-history")
    app.tap("files")                         # export, import and backup: behind one line
    with app.page.expect_download() as download:
        app.tap("export-bgstats")
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert [p["uuid"] for p in exported["plays"]] == ["a1", "b2", "c3", "d4", "e5"]
    assert {g["name"]: g["bggId"] for g in exported["games"]}["Carcassonne"] == 822
    assert_fits_a_phone(screens)
