"""`companion export` and `companion import`: the round trip, idempotent imports, and hostile files
refused with the database unchanged."""
from __future__ import annotations

import csv
import io
import json
import shutil
import re
import subprocess
import sys

import pytest

from companion import exchange
from companion.store import Store
from companion.ui.viewmodel import ViewModel
from tests.conftest import ROOT

GIFTS = {"start": 0, "gifts": False, "players": [{"colour": "red", "name": "Anna"}, {"colour": "blue", "name": "Bořek"}]}


def played(store: Store, form: dict = GIFTS) -> Store:
    """A finished Carcassonne game and one in progress."""
    vm = ViewModel(store)
    assert vm.new_game("carcassonne", form)
    for kind, args in [("begin", {}), ("meeple", {"player": "red", "delta": 1}),
                       ("score_feature", {"type": "road", "tiles": 3, "meeples": {"red": 1}}),
                       ("end_game", {}), *[("tally_next", {})] * 4, ("finish", {})]:
        assert vm.dispatch(kind, **args), (kind, vm.problem)
    assert vm.new_game("carcassonne", dict(form, start=1))
    assert vm.dispatch("begin")
    return store


def comparable(text: str) -> list:
    return [{k: v for k, v in g.items() if k != "id"} | {"log": [{"type": a["type"], "args": a["args"]}
                                                                  for a in g["log"]]}
            for g in json.loads(text)["games"]]


def test_round_trip_and_a_second_import_adds_nothing(tmp_path):
    source = played(Store(str(tmp_path / "a")))
    exported = exchange.export_json(source)
    data = json.loads(exported)
    assert data["format"] == {"name": "companion", "version": 1} and len(data["games"]) == 2
    finished = next(g for g in data["games"] if g["status"] == "finished")
    assert finished["result"]["winners"] == ["red"]
    target = Store(str(tmp_path / "b"))
    assert exchange.import_json(target, exported) == (2, 0)
    assert comparable(exchange.export_json(target)) == comparable(exported)
    assert exchange.import_json(target, exported) == (0, 2)
    assert len(target.sessions()) == 2 and len(target.sessions("finished")) == 1


def test_csv_has_one_row_per_player_per_game(tmp_path):
    rows = list(csv.DictReader(io.StringIO(exchange.export_csv(played(Store(str(tmp_path)))))))
    assert len(rows) == 4
    anna = next(r for r in rows if r["status"] == "finished" and r["name"] == "Anna")
    assert (anna["game"], anna["total"], anna["place"], anna["winner"]) == ("carcassonne", "3", "1", "yes")
    assert {r["total"] for r in rows if r["status"] == "active"} == {""}


def snapshot(folder) -> dict:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("mangle, message", [
    (lambda text: text[: len(text) // 2], "not valid JSON"),
    (lambda text: "[" * 100_000 + "]" * 100_000, "nested too deeply"),
    (lambda text: '{"format": {"name": "companion", "version": 1}, "games": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "nested too deeply"),
    (lambda text: json.dumps({"format": {"name": "companion", "version": 1}, "games": [[[[1]]]]}), "games[0]"),
    (lambda text: json.dumps({"format": {"name": "other", "version": 1}, "games": []}), "not a companion export"),
    (lambda text: text.replace('"games": [', '"games": "x", "no": ['), "games"),
    (lambda text: text.replace('"game": "carcassonne"', '"game": "chess"', 1), "unknown game"),
    (lambda text: text.replace('"type": "begin"', '"type": "explode"', 1), "cannot be replayed"),
    (lambda text: text.replace('"name": "Anna"', '"name": 7', 1), "cannot be replayed"),
    (lambda text: text.replace('"players": [', '"players": "ab", "x": [', 1), "cannot be replayed"),
    (lambda text: text.replace('"status": "finished"', '"status": 3', 1), "status"),
    (lambda text: text.replace('"args": {}', '"args": {"note": "%s"}' % ("x" * 3000), 1),
     "games[0]: log entry 0 is larger than an action can be"),
])
def test_hostile_files_are_refused_and_change_nothing(tmp_path, mangle, message):
    exported = exchange.export_json(played(Store(str(tmp_path / "a"))))
    target = played(Store(str(tmp_path / "b")))
    before = snapshot(tmp_path / "b")
    with pytest.raises(exchange.ImportRefused) as refused:
        exchange.import_json(target, mangle(exported))
    assert message in str(refused.value)
    assert snapshot(tmp_path / "b") == before


def test_a_huge_file_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(exchange, "MAX_BYTES", 1000)
    with pytest.raises(exchange.ImportRefused, match="larger"):
        exchange.import_json(Store(str(tmp_path)), " " * 2000)


def companion(*args):
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


def test_the_commands(tmp_path):
    played(Store(str(tmp_path / "a")))
    out = companion("export", "--format", "json", "--data-dir", str(tmp_path / "a"))
    assert out.returncode == 0 and json.loads(out.stdout)["format"]["name"] == "companion"
    (tmp_path / "x.json").write_text(out.stdout)
    done = companion("import", str(tmp_path / "x.json"), "--data-dir", str(tmp_path / "b"))
    assert done.returncode == 0 and "imported 2" in done.stdout
    (tmp_path / "bad.json").write_text(out.stdout[:100])
    bad = companion("import", str(tmp_path / "bad.json"), "--data-dir", str(tmp_path / "b"))
    assert bad.returncode == 2 and bad.stderr.startswith("error: refused, nothing was changed")
    plain = companion("export", "--format", "csv", "--data-dir", str(tmp_path / "b")).stdout
    assert plain.count("\n") == 5
    czech = companion("export", "--format", "csv-excel-cs", "--data-dir", str(tmp_path / "b")).stdout
    assert czech.startswith("\ufeff") and czech.count("\n") == 5
    assert czech.splitlines()[0] == plain.splitlines()[0].replace(",", ";")


def export_with(source: Store, change) -> str:
    """The export of `source` with `change` applied to its first game (a dict)."""
    data = json.loads(exchange.export_json(source))
    change(data["games"][0])
    return json.dumps(data, ensure_ascii=False)


@pytest.mark.parametrize("text, message", [
    (lambda t: t.replace('"created": ', '"created": NaN, "x": ', 1), "holds NaN"),
    (lambda t: t.replace('"created": ', '"created": Infinity, "x": ', 1), "holds Infinity"),
    (lambda t: t.replace('"created": ', '"created": -Infinity, "x": ', 1), "holds -Infinity"),
    (lambda t: t.replace('"created": ', '"created": 1e300, "x": ', 1), "created must be a time"),
    (lambda t: t.replace('"created": ', '"created": -1, "x": ', 1), "created must be a time"),
    (lambda t: t.replace('"created": ', '"created": true, "x": ', 1), "created must be a time"),
    (lambda t: t.replace('"created": ', '"created": "2024-01-01", "x": ', 1), "created must be a time"),
    (lambda t: t.replace('"name": "Anna"', '"name": "An\\ud800na"', 1), "not valid Unicode"),
    (lambda t: t.replace('"game": "carcassonne"', '"game": ["carcassonne"]', 1), "unknown game"),
    (lambda t: t.replace('"status": "finished"', '"status": {}', 1), "status must be"),
    (lambda t: t.replace('"created": ', '"created": ' + "9" * 5000 + ', "x": ', 1), "too long"),
])
def test_fields_of_the_wrong_type_or_range_are_refused(tmp_path, text, message):
    exported = exchange.export_json(played(Store(str(tmp_path / "a"))))
    target = played(Store(str(tmp_path / "b")))
    before = snapshot(tmp_path / "b")
    with pytest.raises(exchange.ImportRefused) as refused:
        exchange.import_json(target, text(exported))
    assert message in str(refused.value)
    assert snapshot(tmp_path / "b") == before


def test_a_refused_import_leaves_the_folder_untouched(tmp_path):
    """Not created when missing; a stray temp file and a damaged catalogue stay as they are."""
    (tmp_path / "bad.json").write_text('{"format": {"name": "companion", "version": 1}, "games": [7]}')
    bad = companion("import", str(tmp_path / "bad.json"), "--data-dir", str(tmp_path / "new"))
    assert bad.returncode == 2 and bad.stderr == "error: refused, nothing was changed: games[0] must be an object\n"
    assert not (tmp_path / "new").exists()
    Store(tmp_path / "d")
    (tmp_path / "d" / "sessions" / ".x.json.1.2.tmp").write_text("{}")
    (tmp_path / "d" / "companion.json").write_text("{damaged")
    before = snapshot(tmp_path / "d")
    assert companion("import", str(tmp_path / "bad.json"), "--data-dir", str(tmp_path / "d")).returncode == 2
    assert snapshot(tmp_path / "d") == before


def test_csv_cells_a_spreadsheet_would_run_stay_text(tmp_path):
    store = Store(str(tmp_path))
    names = ["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "Anna"]
    vm = ViewModel(store)
    assert vm.new_game("carcassonne", {"start": 0, "gifts": False,
                                       "players": [{"colour": c, "name": n} for c, n in
                                                   zip(("red", "blue", "green", "yellow", "black"), names)]})
    rows = list(csv.DictReader(io.StringIO(exchange.export_csv(store))))
    assert [r["name"] for r in rows] == ["'=HYPERLINK(\"http://x\")", "'+1", "'-2", "'@SUM(A1)", "Anna"]


def test_the_reason_is_in_the_readers_language(tmp_path):
    store = Store(str(tmp_path))
    store.set_setting("language", "cs")
    vm = ViewModel(store)
    assert not vm.import_games(b'{"format": {"name": "companion", "version": 1}, "games": [{"game": "chess", '
                               b'"config": {}, "log": [], "status": "active", "created": 1}]}')
    assert vm.problem.text == "Soubor nebyl přijat, nic se nezměnilo: games[0]: neznámá hra 'chess'"
    assert not vm.import_games(b'{"format": ')
    assert vm.problem.text == "Soubor nebyl přijat, nic se nezměnilo: neplatný JSON (neúplný?): řádek 1, sloupec 12"


def test_an_import_while_another_process_serves_the_folder_loses_nothing_and_is_seen(tmp_path):
    exported = tmp_path / "x.json"
    exported.write_text(exchange.export_json(played(Store(str(tmp_path / "a")))))
    server = Store(str(tmp_path / "b"))
    vm = ViewModel(server)
    assert vm.new_game("carcassonne", GIFTS) and vm.dispatch("begin")
    assert [s["id"] for s in server.sessions("active")] == [vm.session["id"]]
    done = companion("import", str(exported), "--data-dir", str(tmp_path / "b"))
    assert done.returncode == 0 and "imported 2" in done.stdout
    assert vm.dispatch("meeple", player="red", delta=1)
    assert len(server.sessions("active")) == 2 and len(server.sessions("finished")) == 1
    assert [a["type"] for a in server.load(vm.session["id"])["log"]] == ["begin", "meeple"]


@pytest.mark.parametrize("excel_cs, delimiter", [(False, ","), (True, ";")])
def test_csv_opens_cleanly_in_both_flavours(tmp_path, excel_cs, delimiter):
    """UTF-8 with a BOM, ISO dates, the command line's game names, a column per scoring category."""
    store = played(Store(str(tmp_path)))
    blob = exchange.export_csv(store, excel_cs=excel_cs).encode("utf-8")
    assert blob.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(blob.decode("utf-8-sig"), newline=""), delimiter=delimiter))
    assert len(rows) == 4 and {r["game"] for r in rows} == {"carcassonne"}
    finished = [r for r in rows if r["status"] == "finished"]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", r["date"]) for r in rows)
    anna = next(r for r in finished if r["name"] == "Anna")
    assert (anna["track"], anna["roads"], anna["total"], anna["title"]) == ("3", "0", "3", "Carcassonne")
    assert {r["track"] for r in rows if r["status"] == "active"} == {""}


def test_decimal_commas_in_the_czech_flavour():
    assert exchange.csv_number(1.5, excel_cs=True) == "1,5" and exchange.csv_number(1.5, excel_cs=False) == "1.5"
    assert exchange.csv_number(-12, excel_cs=True) == "-12"


def test_one_game_name_in_every_export_and_both_spellings_imported(tmp_path):
    exported = exchange.export_json(played(Store(str(tmp_path / "a"))))
    assert {g["game"] for g in json.loads(exported)["games"]} == {"carcassonne"}
    flanders = {"format": exchange.FORMAT, "games": [{"game": spelling, "status": "active", "created": 1_700_000_000,
                                                      "log": [], "config": {"variant": "two-player", "start": 0,
                                                      "influenced": {"blue": "green", "red": "yellow"},
                                                      "players": [{"colour": "blue", "name": "A"},
                                                                  {"colour": "red", "name": "B"}]}}
                                                     for spelling in ("flanders-1302", "flanders_1302")]}
    checked = exchange.check_json(json.dumps(flanders))
    assert [g["game"] for g in checked] == ["flanders_1302", "flanders_1302"]
    target = Store(str(tmp_path / "b"))
    exchange.store_new(target, checked)
    again = json.loads(exchange.export_json(target))
    assert {g["game"] for g in again["games"]} == {"flanders-1302"}


KILLED_IMPORT = """
import os, sys
from companion import cli
stop, calls = int(sys.argv[1]), [0]
def killed(change):
    def step(*args, **kwargs):
        calls[0] += 1
        if calls[0] == stop:  # killed just before its stop-th file is put in place or removed
            os._exit(9)
        return change(*args, **kwargs)
    return step
os.replace, os.unlink = killed(os.replace), killed(os.unlink)
sys.exit(cli.main(["import", sys.argv[2], "--data-dir", sys.argv[3]]))
"""


def kept(store: Store) -> list:
    """What the history and the home screen show of every game (all but its id), and the language."""
    return sorted(json.dumps({k: v for k, v in entry.items() if k != "id"}, sort_keys=True)
                  for entry in store.sessions()), store.setting("language")


def test_an_import_killed_at_any_point_and_a_lost_catalogue_lose_no_finished_game(tmp_path):
    """`companion import` killed before each of its writes leaves the folder as before or with every game
    imported; and then, the catalogue removed or cut short, every finished game is still finished with
    its result, every active game active, and the language kept."""
    source = played(Store(str(tmp_path / "source")))
    vm = ViewModel(source)  # a second finished game, with a place and a note
    assert vm.new_game("carcassonne", dict(GIFTS, players=GIFTS["players"][::-1]))
    for kind in ("begin", "end_game", *["tally_next"] * 4, "finish"):
        assert vm.dispatch(kind), (kind, vm.problem)
    assert vm.set_details(vm.session["id"], "95", "U Anny", "")
    export = tmp_path / "games.json"
    export.write_text(exchange.export_json(source), encoding="utf-8")
    base = tmp_path / "base"
    others = [{"colour": "green", "name": "Cyril"}, {"colour": "red", "name": "Dana"}]
    ViewModel(played(Store(str(base)), dict(GIFTS, players=others))).set_language("cs")
    before = kept(Store(str(base)))
    after = (sorted(before[0] + kept(source)[0]), "cs")
    assert len(after[0]) == 5 and sum('"status": "finished"' in e for e in after[0]) == 3
    outcomes = set()
    for stop in range(1, 30):
        folder = tmp_path / f"run{stop}"
        shutil.copytree(base, folder)
        done = subprocess.run([sys.executable, "-c", KILLED_IMPORT, str(stop), str(export), str(folder)],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode in (0, 9), done.stderr
        now = kept(Store(str(folder)))
        assert now in (before, after), stop
        outcomes.add((done.returncode, now == after))
        for damage in (lambda path: path.unlink(), lambda path: path.write_bytes(path.read_bytes()[:40])):
            damage(folder / "companion.json")
            assert kept(Store(str(folder))) == now, stop
        if done.returncode == 0:
            break
    assert outcomes == {(9, False), (9, True), (0, True)}


def test_a_teaching_game_comes_back_teaching_and_once(tmp_path):
    """Issue 33: the import dropped a game's teach mode (the new-game check does not know it), so the
    game imported into its own folder no longer matched itself and came back a second time."""
    store = Store(str(tmp_path / "a"))
    vm = ViewModel(store)
    vm.set_teach_next(True)
    assert vm.new_game("carcassonne", GIFTS) and vm.dispatch("begin")
    assert store.load(vm.session["id"])["config"]["teach"] == "open"
    exported = exchange.export_json(store)
    assert exchange.import_json(store, exported) == (0, 1)
    copy = Store(str(tmp_path / "b"))
    assert exchange.import_json(copy, exported) == (1, 0)
    assert copy.load(copy.sessions()[0]["id"])["config"]["teach"] == "open"
