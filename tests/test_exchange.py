"""`companion export` and `companion import`: the round trip, idempotent imports, and hostile files
refused with the database unchanged."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

from companion import exchange
from companion.store import Store
from companion.ui.viewmodel import ViewModel
from tests.conftest import ROOT

GIFTS = {"start": 0, "gifts": False, "players": [{"colour": "red", "name": "Anna"}, {"colour": "blue", "name": "Bořek"}]}


def played(store: Store) -> Store:
    """A finished Carcassonne game and one in progress."""
    vm = ViewModel(store)
    assert vm.new_game("carcassonne", GIFTS)
    for kind, args in [("begin", {}), ("meeple", {"player": "red", "delta": 1}),
                       ("score_feature", {"type": "road", "tiles": 3, "meeples": {"red": 1}}),
                       ("end_game", {}), *[("tally_next", {})] * 4, ("finish", {})]:
        assert vm.dispatch(kind, **args), (kind, vm.problem)
    assert vm.new_game("carcassonne", dict(GIFTS, start=1))
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
    assert companion("export", "--format", "csv", "--data-dir", str(tmp_path / "b")).stdout.count("\n") == 5
