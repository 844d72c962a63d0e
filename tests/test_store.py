"""Storage: sessions, undo, settings and rule texts on both storages; crashes and corrupt files."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from companion.store import SessionLost, Stale, Store
from tests.conftest import ROOT

CONFIG = {"variant": "standard", "players": [{"colour": "blue", "name": "A"}, {"colour": "red", "name": "B"}],
          "start": 0}


def test_a_session_round_trips(store):
    sid = store.create_session("flanders_1302", CONFIG)
    store.record(sid, {"type": "begin", "args": {}})
    store.record(sid, {"type": "goto_step", "args": {"step": "reveal"}})
    session = store.load(sid)
    assert session["config"] == CONFIG and session["game"] == "flanders_1302"
    assert [a["type"] for a in session["log"]] == ["begin", "goto_step"]
    assert [s["id"] for s in store.sessions("active")] == [sid]


def test_undo_removes_the_last_action_again_and_again(store):
    sid = store.create_session("flanders_1302", CONFIG)
    for step in ("a", "b", "c"):
        store.record(sid, {"type": "goto_step", "args": {"step": step}})
    assert store.undo(sid)["args"]["step"] == "c"
    assert store.undo(sid)["args"]["step"] == "b"
    assert [a["args"]["step"] for a in store.load(sid)["log"]] == ["a"]
    store.undo(sid)
    assert store.undo(sid) is None


def test_a_stale_action_is_refused_and_nothing_is_written(store):
    sid = store.create_session("flanders_1302", CONFIG)
    store.record(sid, {"type": "begin", "args": {}}, expect=0)
    with pytest.raises(Stale):
        store.record(sid, {"type": "begin", "args": {}}, expect=0)
    assert len(store.load(sid)["log"]) == 1


def test_settings_and_status(store):
    assert store.setting("language", "cs") == "cs"
    store.set_setting("language", "en")
    assert store.setting("language") == "en"
    sid = store.create_session("flanders_1302", CONFIG)
    store.set_status(sid, "finished")
    assert store.sessions("active") == [] and store.sessions("finished")[0]["id"] == sid


def test_rule_texts_are_seeded_from_data(store):
    assert store.text("flanders_1302.game.title", "en") == "Flanders 1302"
    assert store.text("flanders_1302.city.liege", "cs") == "Lutych"
    assert store.sections["flanders_1302"]


def test_everything_survives_a_restart(tmp_path):
    store = Store(tmp_path)
    sid = store.create_session("flanders_1302", CONFIG)
    store.record(sid, {"type": "begin", "args": {}})
    store.set_setting("language", "en")
    again = Store(tmp_path)
    assert again.load(sid)["log"][0]["type"] == "begin" and again.setting("language") == "en"


WRITER = """
import sys
from companion.store import Store
store = Store(sys.argv[1])
sid = store.create_session("flanders_1302", {"players": []})
print(sid, flush=True)
i = 0
while True:
    store.record(sid, {"type": "goto_step", "args": {"step": "x" * 2000, "i": i}})
    i += 1
"""


def test_a_writer_killed_mid_write_leaves_a_readable_database(tmp_path):
    for attempt in range(3):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)], stdout=subprocess.PIPE, text=True,
                                cwd=ROOT)
        sid = proc.stdout.readline().strip()
        time.sleep(0.4 + 0.13 * attempt)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        store = Store(tmp_path)
        assert store.notices == []
        log = store.load(sid)["log"]
        assert log and [a["args"]["i"] for a in log] == list(range(len(log)))


def test_a_corrupt_catalogue_is_moved_aside_and_rebuilt(tmp_path):
    store = Store(tmp_path)
    sid = store.create_session("flanders_1302", CONFIG)
    store.record(sid, {"type": "begin", "args": {}})
    (tmp_path / "companion.json").write_text('{"sessions": {"1": {"id": ')
    again = Store(tmp_path)
    assert len(again.notices) == 2 and "moved aside" in again.notices[0].english()
    assert list(tmp_path.glob("companion.json.corrupt-*"))
    assert [s["id"] for s in again.sessions("active")] == [sid]
    assert again.load(sid)["log"][0]["type"] == "begin"


def test_a_corrupt_session_file_is_moved_aside_and_reported(tmp_path):
    store = Store(tmp_path)
    sid = store.create_session("flanders_1302", CONFIG)
    (tmp_path / "sessions" / f"{sid}.json").write_bytes(b"\x00\xff garbage")
    again = Store(tmp_path)
    with pytest.raises(SessionLost):
        again.load(sid)
    assert again.notices and again.sessions("active") == []
    assert list((tmp_path / "sessions").glob(f"{sid}.json.corrupt-*"))


def test_a_corrupt_texts_file_is_reseeded(tmp_path):
    Store(tmp_path)
    (tmp_path / "texts.json").write_text("[1, 2")
    again = Store(tmp_path)
    assert again.text("flanders_1302.game.title", "en") == "Flanders 1302"


def test_files_on_disk_are_plain_json(tmp_path):
    store = Store(tmp_path)
    sid = store.create_session("flanders_1302", CONFIG)
    store.record(sid, {"type": "begin", "args": {}})
    data = json.loads((tmp_path / "sessions" / f"{sid}.json").read_text())
    assert data["log"]["1"]["type"] == "begin"
    assert not list(tmp_path.rglob("*.tmp"))


def test_import_many_sessions_in_one_go(store):
    log = [{"type": "begin", "args": {}}, {"type": "goto_step", "args": {"step": "reveal"}}]
    ids = store.import_sessions([{"game": "flanders_1302", "config": CONFIG, "log": log, "status": "finished"}] * 3)
    assert len(set(ids)) == 3 and len(store.sessions("finished")) == 3
    assert [a["type"] for a in store.load(ids[1])["log"]] == ["begin", "goto_step"]
    store.record(ids[1], {"type": "finish", "args": {}}, expect=2)
    assert len(store.load(ids[1])["log"]) == 3


def test_a_file_replaced_by_another_process_is_read_again(tmp_path):
    server = Store(tmp_path)
    first = server.create_session("carcassonne", {"players": [{"colour": "red", "name": "Anna"}]})
    other = Store(tmp_path)  # e.g. `companion import` while the server runs
    second = other.create_session("village", {"players": [{"colour": "blue", "name": "Bořek"}]})
    assert {s["id"] for s in server.sessions()} == {first, second}
    third = server.create_session("elfenland", {"players": [{"colour": "red", "name": "Cyril"}]})
    assert {s["id"] for s in Store(tmp_path).sessions()} == {first, second, third}
