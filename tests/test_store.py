"""Storage: sessions, undo, settings and rule texts on both storages; crashes and corrupt files."""
from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from companion.store import FOLD_AT, FolderInUse, SessionLost, Stale, Store, claim_server, server_of, \
    stored_game
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
    assert store.undo(sid) == 4
    assert store.undo(sid) == 5
    assert [a["args"]["step"] for a in store.load(sid)["log"]] == ["a"]
    store.undo(sid)
    assert store.undo(sid) == 6 and store.load(sid)["log"] == []  # nothing left: nothing changes


def test_every_action_and_every_undo_raises_the_version_by_one(store):
    """An undo and another action leave the log as long as before, and the game at a new version: a tap
    judged on the old one is refused (a length would let it through)."""
    sid = store.create_session("flanders_1302", CONFIG)
    assert store.version(sid) == 0 and store.load(sid)["version"] == 0
    assert store.record(sid, {"type": "goto_step", "args": {"step": "a"}}, expect=0) == 1
    assert store.record(sid, {"type": "goto_step", "args": {"step": "b"}}, expect=1) == 2
    assert store.undo(sid, expect=2) == 3
    assert store.record(sid, {"type": "goto_step", "args": {"step": "c"}}, expect=3) == 4
    assert len(store.load(sid)["log"]) == 2 and store.load(sid)["version"] == 4
    with pytest.raises(Stale):
        store.record(sid, {"type": "goto_step", "args": {"step": "d"}}, expect=2)
    if store.dir is not None:
        assert Store(store.dir).load(sid)["version"] == 4


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
    assert store.text("flanders_1302.city.liege", "cs") == "Liége"   # as the rulebook prints it
    assert store.sections["flanders_1302"]


def test_the_web_builds_compiled_texts_seed_the_same_table_and_a_bad_copy_is_not_used(tmp_path, monkeypatch):
    """The web build's texts.json (read instead of every data file's TOML) gives the texts the files
    give; one of other files, damaged or wrongly typed is passed over for the files themselves."""
    from companion import texts
    compiled = tmp_path / "texts.json"
    monkeypatch.setattr(texts, "COMPILED", compiled)
    stamp, parsed = texts.fingerprint(), texts.load_all()
    compiled.write_bytes(texts.compiled())
    assert texts.seed(stamp) == parsed
    assert Store(tmp_path / "store").text("flanders_1302.game.title", "en") == "Flanders 1302"
    good = json.loads(compiled.read_bytes())
    forged = {**good, "texts": {**good["texts"], "flanders_1302.game.title": {"en": "Forged"}}}
    bad = [b"[1, 2", json.dumps({**forged, "fingerprint": "of other files"}).encode(),
           json.dumps({**good, "texts": {"x": {"en": 1}}}).encode(), json.dumps({**good, "sections": {"g": "abc"}}).encode(),
           json.dumps([good]).encode()]
    for data in bad:
        compiled.write_bytes(data)
        assert texts.seed(stamp) == parsed
    compiled.write_bytes(json.dumps(forged).encode())  # (of these files: it is what the build wrote)
    assert texts.seed(stamp)[0]["flanders_1302.game.title"] == {"en": "Forged"}


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
    [line] = (tmp_path / "sessions" / f"{sid}.log").read_text().splitlines()
    assert json.loads(line)["n"] == 1 and json.loads(line)["action"]["type"] == "begin"
    for i in range(FOLD_AT - 1):  # the journal is folded into the game's file
        store.record(sid, {"type": "goto_step", "args": {"i": i}})
    data = json.loads((tmp_path / "sessions" / f"{sid}.json").read_text())
    assert data["log"]["1"]["type"] == "begin" and len(data["log"]) == FOLD_AT
    assert not (tmp_path / "sessions" / f"{sid}.log").exists()
    assert not list(tmp_path.rglob("*.tmp"))


def test_a_tap_appends_one_line_and_rewrites_no_file(tmp_path, monkeypatch):
    """A long game costs a tap no more than a short one: the game's file is written whole once per
    FOLD_AT taps, not on each."""
    import companion.store as store_module
    store = Store(tmp_path)
    sid = store.import_sessions([{"game": "carcassonne", "config": {"players": [{"colour": "red", "name": "A"}]},
                                  "log": [{"type": "begin", "args": {}}] * 3000}])[0]
    writes = []
    real_write = store_module.AtomicJSONStorage.write
    monkeypatch.setattr(store_module.AtomicJSONStorage, "write",
                        lambda self, data: writes.append(self.path.name) or real_write(self, data))
    for i in range(FOLD_AT - 1):
        store.record(sid, {"type": "meeple", "args": {"i": i}}, expect=3000 + i)
    assert writes == []
    store.record(sid, {"type": "meeple", "args": {"i": FOLD_AT - 1}}, expect=3000 + FOLD_AT - 1)
    assert writes == [f"{sid}.json"]
    log = Store(tmp_path).load(sid)["log"]
    assert len(log) == 3000 + FOLD_AT and [a["args"]["i"] for a in log[3000:]] == list(range(FOLD_AT))


def test_undo_in_the_journal_and_past_it(tmp_path):
    store = Store(tmp_path)
    sid = store.create_session("carcassonne", {"players": [{"colour": "red", "name": "A"}]})
    for i in range(FOLD_AT + 3):  # a fold after FOLD_AT, then 3 in the journal
        store.record(sid, {"type": "meeple", "args": {"i": i}})
    assert store.undo(sid, count=2) == FOLD_AT + 4  # from the journal
    assert [a["args"]["i"] for a in Store(tmp_path).load(sid)["log"]][-2:] == [FOLD_AT - 1, FOLD_AT]
    assert store.undo(sid, count=3) == FOLD_AT + 5  # into the game's file
    again = Store(tmp_path)
    assert [a["args"]["i"] for a in again.load(sid)["log"]] == list(range(FOLD_AT - 2))
    again.record(sid, {"type": "meeple", "args": {"i": "next"}}, expect=FOLD_AT + 5)
    assert [a["args"]["i"] for a in Store(tmp_path).load(sid)["log"]][-2:] == [FOLD_AT - 3, "next"]


def test_an_undo_writes_the_game_file_whole_and_never_truncates_the_journal(tmp_path, monkeypatch):
    """The browser's IndexedDB folder persists a file written and closed, renamed or removed, not one
    truncated in place (IDBFS autoPersist): an undo cut in place would come back after a reload. An
    undo writes the game's file whole (the kept actions, the new version) and removes the journal."""
    store = Store(tmp_path)
    sid = store.create_session("carcassonne", {"players": [{"colour": "red", "name": "A"}]})
    for i in range(3):
        store.record(sid, {"type": "meeple", "args": {"i": i}})
    journal = tmp_path / "sessions" / f"{sid}.log"
    monkeypatch.setattr(os, "ftruncate", lambda *_: pytest.fail("truncated in place"))
    monkeypatch.setattr(os, "truncate", lambda *_: pytest.fail("truncated in place"))
    store.undo(sid)
    assert not journal.exists() and [a["args"]["i"] for a in Store(tmp_path).load(sid)["log"]] == [0, 1]
    store.undo(sid, count=2)
    assert not journal.exists() and Store(tmp_path).load(sid)["log"] == []


def test_a_kill_between_an_undo_and_the_journal_removal_brings_nothing_back(tmp_path):
    """The undone lines left in the journal are of versions the game's file holds already: skipped."""
    store = Store(tmp_path)
    sid = store.create_session("carcassonne", {"players": [{"colour": "red", "name": "A"}]})
    for i in range(3):
        store.record(sid, {"type": "meeple", "args": {"i": i}})
    journal = (tmp_path / "sessions" / f"{sid}.log").read_bytes()
    assert store.undo(sid) == 4
    (tmp_path / "sessions" / f"{sid}.log").write_bytes(journal)  # the kill came before the removal
    again = Store(tmp_path)
    assert [a["args"]["i"] for a in again.load(sid)["log"]] == [0, 1] and again.load(sid)["version"] == 4
    assert again.record(sid, {"type": "meeple", "args": {"i": "next"}}, expect=4) == 5
    assert [a["args"]["i"] for a in Store(tmp_path).load(sid)["log"]] == [0, 1, "next"] and again.notices == []


def test_a_kill_between_a_fold_and_the_journal_removal_repeats_nothing(tmp_path):
    store = Store(tmp_path)
    sid = store.create_session("carcassonne", {"players": [{"colour": "red", "name": "A"}]})
    for i in range(3):
        store.record(sid, {"type": "meeple", "args": {"i": i}})
    journal = (tmp_path / "sessions" / f"{sid}.log").read_bytes()
    for i in range(3, FOLD_AT):  # the fold writes 0 .. FOLD_AT - 1 into the file ...
        store.record(sid, {"type": "meeple", "args": {"i": i}})
    (tmp_path / "sessions" / f"{sid}.log").write_bytes(journal)  # ... and the kill came before its removal
    again = Store(tmp_path)
    assert [a["args"]["i"] for a in again.load(sid)["log"]] == list(range(FOLD_AT)) and again.notices == []
    again.undo(sid, count=FOLD_AT - 1)  # an undo into the file: the old lines must not come back
    again.record(sid, {"type": "meeple", "args": {"i": "next"}}, expect=FOLD_AT + 1)
    assert [a["args"]["i"] for a in Store(tmp_path).load(sid)["log"]] == [0, "next"]


def test_a_journal_line_cut_off_by_a_kill_is_dropped_and_written_over(tmp_path):
    store = Store(tmp_path)
    sid = store.create_session("carcassonne", {"players": [{"colour": "red", "name": "A"}]})
    store.record(sid, {"type": "meeple", "args": {"i": 0}})
    with open(tmp_path / "sessions" / f"{sid}.log", "ab") as journal:
        journal.write(b'{"n":2,"action":{"type":"mee')  # the tap was never answered
    again = Store(tmp_path)
    assert [a["args"]["i"] for a in again.load(sid)["log"]] == [0] and again.notices == []
    again.record(sid, {"type": "meeple", "args": {"i": 1}}, expect=1)
    assert [a["args"]["i"] for a in Store(tmp_path).load(sid)["log"]] == [0, 1]


@pytest.mark.parametrize("bad", [b"not json\n", b'{"n":5,"action":{"type":"meeple","args":{}}}\n',
                                 b'{"n":3,"action":{"type":7}}\n', b'{"n":3,"action":{"type":"x","at":1e300}}\n'])
def test_a_damaged_journal_keeps_what_comes_before_the_damage(tmp_path, bad):
    store = Store(tmp_path)
    sid = store.create_session("carcassonne", {"players": [{"colour": "red", "name": "A"}]})
    for i in range(2):
        store.record(sid, {"type": "meeple", "args": {"i": i}})
    with open(tmp_path / "sessions" / f"{sid}.log", "ab") as journal:
        journal.write(bad + b'{"n":4,"action":{"type":"meeple","args":{"i":3}}}\n')
    again = Store(tmp_path)
    assert [a["args"]["i"] for a in again.load(sid)["log"]] == [0, 1]
    assert len(again.notices) == 1 and "moved aside" in again.notices[0].english()
    assert list((tmp_path / "sessions").glob(f"{sid}.log.corrupt-*"))
    again.record(sid, {"type": "meeple", "args": {"i": 2}}, expect=2)
    assert [a["args"]["i"] for a in Store(tmp_path).load(sid)["log"]] == [0, 1, 2]


def test_stored_game_and_the_backup_hold_the_journal_too(tmp_path):
    import zipfile
    from io import BytesIO

    from companion.backup import backup
    store = Store(tmp_path)
    sid = store.create_session("carcassonne", {"players": [{"colour": "red", "name": "A"}]})
    store.record(sid, {"type": "meeple", "args": {"i": 0}})
    assert [a["args"]["i"] for a in stored_game(tmp_path, sid)["log"].values()] == [0]
    with zipfile.ZipFile(BytesIO(backup(tmp_path))) as archive:
        document = json.loads(archive.read(f"sessions/{sid}.json"))
    assert [a["args"]["i"] for a in document["log"].values()] == [0]


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



def test_a_file_read_once_is_not_parsed_again_until_it_is_replaced(tmp_path, monkeypatch):
    Store(tmp_path).import_sessions([{"game": "flanders_1302", "config": CONFIG, "log": [], "status": "finished"}] * 3)
    reader = Store(tmp_path)  # a server started on a folder of finished games
    parsed = []
    real_loads = json.loads
    monkeypatch.setattr(json, "loads", lambda text, **kw: parsed.append(1) or real_loads(text, **kw))
    assert len(reader.sessions("finished")) == 3 and len(reader.sessions("finished")) == 3
    assert parsed == []  # read when the store opened the folder: the history opened twice, no parse
    Store(tmp_path).import_sessions([{"game": "village", "config": {"players": [{"colour": "red", "name": "A"}]},
                                      "log": [], "status": "finished"}])  # another process
    assert len(reader.sessions("finished")) == 4

RECORDER = """
import sys
from companion.store import Store
store = Store(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()  # both processes start writing together
for i in range(int(sys.argv[3])):
    store.record(sys.argv[2], {"type": "meeple", "args": {"by": sys.argv[4], "i": i}})
"""


def test_two_processes_writing_one_game_lose_nothing(tmp_path):
    """A player's own entries (recorded without `expect`) from two processes at once: every one is kept."""
    sid = Store(tmp_path).create_session("carcassonne", {"players": [{"colour": "red", "name": "Anna"}]})
    writers = [subprocess.Popen([sys.executable, "-c", RECORDER, str(tmp_path), sid, "150", name], cwd=ROOT,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for name in ("a", "b")]
    for proc in writers:
        assert proc.stdout.readline() == "ready\n"  # both have imported and opened the store
    for proc in writers:
        proc.stdin.write("go\n")
        proc.stdin.flush()
    for proc in writers:
        proc.stdin.close()
        assert proc.wait(120) == 0
    log = Store(tmp_path).load(sid)["log"]
    assert sorted((a["args"]["by"], a["args"]["i"]) for a in log) == [(n, i) for n in "ab" for i in range(150)]


def test_a_search_sees_what_another_process_wrote(tmp_path):
    server = Store(tmp_path)
    first = server.create_session("carcassonne", {"players": [{"colour": "red", "name": "Anna"}]})
    assert [s["id"] for s in server.sessions("active")] == [first]
    second = Store(tmp_path).create_session("village", {"players": [{"colour": "blue", "name": "Bořek"}]})
    assert {s["id"] for s in server.sessions("active")} == {first, second}
    Store(tmp_path).set_setting("language", "en")
    assert server.setting("language") == "en"


def test_a_missing_catalogue_is_rebuilt_from_the_game_files(tmp_path):
    store = Store(tmp_path)
    sid = store.create_session("flanders_1302", CONFIG)
    store.record(sid, {"type": "begin", "args": {}})
    (tmp_path / "companion.json").unlink()
    again = Store(tmp_path)
    assert [s["id"] for s in again.sessions()] == [sid] and again.load(sid)["log"][0]["type"] == "begin"
    assert [n.english() for n in again.notices] == ["The list of games was rebuilt from the saved games."]
    assert Store(tmp_path).notices == []  # rebuilt once


def test_a_game_file_the_catalogue_does_not_list_is_listed_again(tmp_path):
    """A process killed between writing a new game's file and listing it in the catalogue."""
    store = Store(tmp_path)
    kept = store.create_session("flanders_1302", CONFIG)
    catalogue = (tmp_path / "companion.json").read_bytes()
    orphan = store.create_session("village", {"players": [{"colour": "red", "name": "Dana"}]})
    (tmp_path / "companion.json").write_bytes(catalogue)
    again = Store(tmp_path)
    assert {s["id"] for s in again.sessions()} == {kept, orphan}
    assert [n.english() for n in again.notices] == [
        "A saved game was missing from the list of games; it is listed again."]
    assert len(Store(tmp_path).sessions()) == 2 and Store(tmp_path).notices == []


def write_catalogue(folder, sessions: dict, settings: dict | None = None) -> None:
    (folder / "companion.json").write_text(json.dumps({"sessions": sessions, "settings": settings or {}}))


GOOD = {"id": "0123456789ab", "game": "carcassonne", "created": 1700000000.5, "status": "active",
        "players": [{"name": "Anna", "colour": "red"}]}
BAD_ENTRIES = {
    "no created": {k: v for k, v in GOOD.items() if k != "created"},
    "created far away": dict(GOOD, created=1e300),
    "created before 1970": dict(GOOD, created=-5),
    "created as text": dict(GOOD, created="yesterday"),
    "players as text": dict(GOOD, players="Anna"),
    "a player as text": dict(GOOD, players=["Anna"]),
    "unknown game": dict(GOOD, game="chess"),
    "game as a list": dict(GOOD, game=["carcassonne"]),
    "unknown status": dict(GOOD, status="paused"),
    "id as a number": dict(GOOD, id=7),
    "result as text": dict(GOOD, status="finished", result="won"),
    "result without players": dict(GOOD, status="finished", result={"winners": [], "players": []}),
    "result with uneven breakdowns": dict(GOOD, status="finished", result={"winners": ["red"], "players": [
        {"colour": "red", "name": "A", "total": 3, "place": 1, "breakdown": {"roads": 3}},
        {"colour": "blue", "name": "B", "total": 0, "place": 2, "breakdown": {}}]}),
}


@pytest.mark.parametrize("entry", BAD_ENTRIES.values(), ids=BAD_ENTRIES.keys())
def test_a_damaged_catalogue_entry_is_left_out_with_a_notice(tmp_path, entry):
    Store(tmp_path)
    write_catalogue(tmp_path, {"1": dict(GOOD, id="aaaaaaaaaaaa", created=1700000100), "2": entry})
    store = Store(tmp_path)
    assert [s["id"] for s in store.sessions()] == ["aaaaaaaaaaaa"]
    assert [s["id"] for s in store.sessions("active")] == ["aaaaaaaaaaaa"]
    assert [n.english() for n in store.notices] == [
        "An entry of the list of games is damaged and is not shown (entry 2); the other games are not affected."]


def test_a_catalogue_tinydb_cannot_read_is_moved_aside_and_rebuilt(tmp_path):
    store = Store(tmp_path)
    sid = store.create_session("flanders_1302", CONFIG)
    write_catalogue(tmp_path, {"1": ["not", "an", "object"]})
    again = Store(tmp_path)
    assert [s["id"] for s in again.sessions()] == [sid] and list(tmp_path.glob("companion.json.corrupt-*"))


@pytest.mark.parametrize("name, value", [("language", ["cs"]), ("language", "de"), ("table_token", 7),
                                         ("table_token", "short"), ("table_token", "x" * 31 + "!")])
def test_a_setting_of_the_wrong_shape_reads_as_not_set(tmp_path, name, value):
    Store(tmp_path)
    write_catalogue(tmp_path, {}, {"1": {"name": name, "value": value}})
    assert Store(tmp_path).setting(name, "default") == "default"


def test_a_game_file_of_the_wrong_shape_cannot_be_opened_but_breaks_nothing(tmp_path):
    store = Store(tmp_path)
    sid = store.create_session("carcassonne", {"players": [{"colour": "red", "name": "Anna"}]})
    path = tmp_path / "sessions" / f"{sid}.json"
    data = json.loads(path.read_text())
    data["meta"]["1"]["config"] = "nonsense"
    path.write_text(json.dumps(data))
    with pytest.raises(SessionLost):
        Store(tmp_path).load(sid)


HOLDER = """
import sys, time
from companion.store import claim_server
claim_server(sys.argv[1], {"pid": 4242, "url": "http://127.0.0.1:9999"})
print("held", flush=True)
time.sleep(60)
"""


def test_a_second_server_on_a_folder_in_use_refuses_to_start_and_names_the_first(tmp_path):
    Store(tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        assert server_of(tmp_path) == {"pid": 4242, "url": "http://127.0.0.1:9999"}
        with pytest.raises(FolderInUse) as in_use:
            claim_server(tmp_path, {"pid": 1, "url": "x"})
        assert in_use.value.holder["pid"] == 4242
        done = subprocess.run([sys.executable, "-m", "companion", "serve", "--data-dir", str(tmp_path),
                               "--port", "1"], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert "in use by a companion server (pid 4242, url http://127.0.0.1:9999)" in done.stderr
    finally:
        holder.kill()
        holder.wait()
    assert server_of(tmp_path) is None  # the mark ends with its process
    claim_server(tmp_path, {"pid": 1, "url": "x"})


def test_a_data_folder_that_is_a_file_is_one_message(tmp_path):
    (tmp_path / "file").write_text("x")
    for command in (["export"], ["serve", "--port", "1"]):
        done = subprocess.run([sys.executable, "-m", "companion", *command, "--data-dir", str(tmp_path / "file")],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
        assert "the data folder is not a folder" in done.stderr


def test_an_entry_damaged_by_another_process_is_left_out_too(tmp_path):
    server = Store(tmp_path)
    sid = server.create_session("flanders_1302", CONFIG)
    assert [s["id"] for s in server.sessions()] == [sid]
    data = json.loads((tmp_path / "companion.json").read_text())
    data["sessions"]["1"]["created"] = "soon"
    (tmp_path / "companion.json").write_text(json.dumps(data))
    assert server.sessions() == [] and len(server.notices) == 1


def test_a_new_data_folder_has_no_notice(tmp_path):
    assert Store(tmp_path / "new").notices == [] and Store(tmp_path / "new").notices == []


@pytest.mark.parametrize("code, lang, said", [
    (errno.ENOSPC, "en", "Nothing was recorded: the disk is full."),
    (errno.EFBIG, "en", "Nothing was recorded: a file would be larger than the system allows."),
    (errno.EACCES, "cs", "Nic se nezapsalo: do složky s daty se nesmí zapisovat (oprávnění)."),
])
def test_a_tap_the_disk_refuses_is_not_recorded_and_the_phone_says_why(tmp_path, monkeypatch, code, lang, said):
    from companion.ui.viewmodel import ViewModel
    vm = ViewModel(Store(tmp_path))
    vm.set_language(lang)
    assert vm.new_game("carcassonne", {"start": 0, "players": [{"colour": "red", "name": "Anna"},
                                                               {"colour": "blue", "name": "Bořek"}]})
    assert vm.dispatch("begin")
    state, log = vm.state, list(vm.session["log"])

    def refused(*_args, **_kwargs):
        raise OSError(code, os.strerror(code))
    monkeypatch.setattr(Store, "_append", refused)
    assert not vm.dispatch("meeple", player="red", delta=1)
    assert vm.problem.text == said and vm.state is state and vm.session["log"] == log
    monkeypatch.setattr(Store, "_write_game", refused)
    assert not vm.undo() and vm.problem.text == said and vm.state is state
    monkeypatch.undo()
    assert len(Store(tmp_path).load(vm.session["id"])["log"]) == len(log)
    assert vm.dispatch("meeple", player="red", delta=1) and vm.problem is None  # the disk has room again
    assert len(Store(tmp_path).load(vm.session["id"])["log"]) == len(log) + 1


def test_an_import_a_kill_cut_short_is_undone_at_the_next_start(tmp_path):
    """The mark of an import whose catalogue write never came: its games' files go, and a notice says so."""
    store = Store(tmp_path)
    kept = store.create_session("flanders_1302", CONFIG)
    catalogue = (tmp_path / "companion.json").read_bytes()
    ids = store.import_sessions([{"game": "flanders_1302", "config": CONFIG, "log": [], "status": "active"}] * 2)
    (tmp_path / "companion.json").write_bytes(catalogue)  # killed before its catalogue write
    (tmp_path / "import.json").write_text(json.dumps({"ids": ids}))
    again = Store(tmp_path)
    assert [s["id"] for s in again.sessions()] == [kept] and not (tmp_path / "import.json").exists()
    assert not any((tmp_path / "sessions" / f"{sid}.json").exists() for sid in ids)
    assert [n.english() for n in again.notices] == [
        "An import was interrupted before it finished; it was undone, and no game was changed. Import the file again."]


def test_an_import_a_kill_cut_short_while_the_server_ran_is_undone_by_the_next_import(tmp_path):
    """The server's store started before the kill: the next import (its mark replaces the old one)
    undoes the killed one first, so its games are not listed twice at the next start."""
    store = Store(tmp_path)
    store.create_session("flanders_1302", CONFIG)
    catalogue = (tmp_path / "companion.json").read_bytes()
    game = {"game": "flanders_1302", "config": CONFIG, "log": [], "status": "active"}
    ids = store.import_sessions([game])
    (tmp_path / "companion.json").write_bytes(catalogue)  # killed before its catalogue write
    (tmp_path / "import.json").write_text(json.dumps({"ids": ids}))
    again = store.import_sessions([game])
    assert not (tmp_path / "sessions" / f"{ids[0]}.json").exists()
    assert [s["id"] for s in Store(tmp_path).sessions() if s["id"] in again + ids] == again


# -- letting an unfinished game go (issue 25): abandoned, or deleted with an undo -----------------------

def test_an_abandoned_game_stays_listed_as_abandoned_even_in_a_rebuilt_catalogue(tmp_path):
    store = Store(tmp_path)
    sid = store.create_session("flanders_1302", CONFIG)
    store.record(sid, {"type": "begin", "args": {}})
    store.abandon(sid)
    assert store.sessions("active") == [] and [s["id"] for s in store.sessions("abandoned")] == [sid]
    assert [a["type"] for a in store.load(sid)["log"]] == ["begin"]       # kept whole
    (tmp_path / "companion.json").unlink()                                 # the catalogue lost
    assert [(s["id"], s["status"]) for s in Store(tmp_path).sessions()] == [(sid, "abandoned")]


def test_a_deleted_game_comes_back_whole_until_its_deletion_stands(store):
    sid = store.create_session("flanders_1302", CONFIG)
    other = store.create_session("village", {"players": [{"colour": "red", "name": "Dana"}]})
    store.record(sid, {"type": "begin", "args": {}})
    before = [s for s in store.sessions() if s["id"] == sid]
    store.delete(sid, undoable=True)
    assert [s["id"] for s in store.sessions()] == [other]
    assert store.undelete(sid)
    assert [s for s in store.sessions() if s["id"] == sid] == before
    assert [a["type"] for a in store.load(sid)["log"]] == ["begin"]
    store.delete(sid, undoable=True)
    store.empty_trash(sid)                                                 # on to the next screen
    assert not store.undelete(sid)
    assert [s["id"] for s in store.sessions()] == [other]
    with pytest.raises(SessionLost):
        store.load(sid)
    if store.dir is not None:
        assert sorted(p.name for p in store.dir.rglob(f"{sid}*")) == []


def test_a_deletion_left_undecided_stands_at_the_next_start(tmp_path):
    store = Store(tmp_path)
    sid = store.create_session("flanders_1302", CONFIG)
    store.delete(sid, undoable=True)
    assert (tmp_path / "deleted" / f"{sid}.json").exists()
    again = Store(tmp_path)
    assert again.sessions() == [] and not (tmp_path / "deleted").exists()
    assert not again.undelete(sid)


@pytest.mark.parametrize("killed", ["delete", "undelete"])
def test_a_deletion_or_its_undo_killed_half_way_loses_nothing(tmp_path, monkeypatch, killed):
    """Killed between the catalogue and the files (either way round), the next start lists the game
    again from its file, whole; the catalogue never lists a game whose file is missing."""
    store = Store(tmp_path)
    sid = store.create_session("flanders_1302", CONFIG)
    store.record(sid, {"type": "begin", "args": {}})

    class Killed(BaseException):
        pass

    def kill(*_args, **_kwargs):
        raise Killed

    replace = os.replace

    def kill_at_the_files(source, target):
        if os.path.dirname(source).endswith("sessions") and not os.path.basename(source).startswith("."):
            raise Killed
        return replace(source, target)

    if killed == "delete":
        monkeypatch.setattr(os, "replace", kill_at_the_files)  # after the catalogue, not the files
        with pytest.raises(Killed):
            store.delete(sid, undoable=True)
    else:
        store.delete(sid, undoable=True)
        monkeypatch.setattr(Store, "_insert", kill)                   # after the files, before the catalogue
        with pytest.raises(Killed):
            store.undelete(sid)
    monkeypatch.undo()
    assert sid not in {s["id"] for s in store.sessions()}          # the catalogue, as the kill left it
    again = Store(tmp_path)
    assert [s["id"] for s in again.sessions("active")] == [sid]
    assert [a["type"] for a in again.load(sid)["log"]] == ["begin"]


@pytest.mark.parametrize("damage", [b"", b"{not json", None])
def test_no_damage_to_the_list_of_games_loses_the_language_or_the_tables_join_token(tmp_path, damage):
    """The settings have a file of their own: a 0-byte, unreadable or missing catalogue keeps them (a
    0-byte one lost them, and every phone had to join the table again)."""
    from companion import table
    store = Store(tmp_path)
    sid = store.create_session("flanders_1302", CONFIG)
    token = table.new_token()
    store.set_setting("language", "en")
    store.set_setting("table_token", token)
    if damage is None:
        (tmp_path / "companion.json").unlink()
    else:
        (tmp_path / "companion.json").write_bytes(damage)
    again = Store(tmp_path)
    assert again.setting("language") == "en" and again.setting("table_token") == token
    assert [s["id"] for s in again.sessions()] == [sid]


def test_settings_kept_in_the_list_of_games_by_an_older_version_move_to_their_own_file(tmp_path):
    (tmp_path / "companion.json").write_text(json.dumps({"settings": {"1": {"name": "language", "value": "en"}}}))
    assert Store(tmp_path).setting("language") == "en"
    assert json.loads((tmp_path / "settings.json").read_text()) == [{"name": "language", "value": "en"}]
