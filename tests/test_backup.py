"""`companion backup` and `companion restore`: the round trip, the previous data kept aside, and
hostile archives refused with the data folder unchanged."""
from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import pytest

from companion import backup as archive
from companion.store import Store
from companion.ui.viewmodel import ViewModel
from tests.conftest import ROOT

CONFIG = {"game": "carcassonne", "variant": "standard", "start": 0, "gifts": False,
          "players": [{"colour": "red", "name": "Anna"}, {"colour": "blue", "name": "Bořek"}]}
SID = "0123456789ab"


def filled(folder, names=("Anna", "Bořek")) -> Store:
    """Two games (one with a few actions) and a setting."""
    store = Store(folder)
    config = dict(CONFIG, players=[dict(p, name=n) for p, n in zip(CONFIG["players"], names)])
    first = store.create_session("carcassonne", config)
    store.record(first, {"type": "begin", "args": {}})
    store.record(first, {"type": "meeple", "args": {"player": "red", "delta": 1}})
    store.create_session("carcassonne", dict(config, start=1))
    store.set_setting("language", "en")
    return store


def games(store: Store) -> list:
    return [(entry, store.load(entry["id"])) for entry in store.sessions()]


def snapshot(folder) -> dict:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def members(blob: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(blob)) as zipped:
        return {name: zipped.read(name) for name in zipped.namelist()}


def zipped(*files: tuple[str, bytes], compression=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as out, warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Duplicate name", UserWarning)  # a hostile archive repeats one
        for name, raw in files:
            out.writestr(name, raw)
    return buffer.getvalue()


def test_round_trip_into_an_empty_folder(tmp_path):
    source = filled(tmp_path / "a")
    blob = archive.backup(tmp_path / "a")
    inside = members(blob)
    manifest = json.loads(inside.pop("backup.json"))
    assert manifest["format"] == {"name": "companion-backup", "version": 1} and manifest["created"] > 0
    assert sorted(manifest["files"]) == sorted(inside) and len(inside) == 3 and "texts.json" not in inside
    assert archive.restore(tmp_path / "b", blob) == (2, None)
    target = Store(tmp_path / "b")
    assert games(target) == games(source) and len(games(target)[-1][1]["log"]) == 2
    assert target.setting("language") == "en"


def test_only_readable_game_files_are_backed_up(tmp_path):
    filled(tmp_path)
    sessions = tmp_path / "sessions"
    (sessions / f"{SID}.json").write_text("[1]")
    (sessions / f"{SID}.json.corrupt-20240101-000000").write_text("{}")
    (sessions / f".{SID}.json.1.2.tmp").write_text("{}")
    names = set(members(archive.backup(tmp_path)))
    assert len(names) == 4 and not any(SID in name for name in names)


def test_an_empty_folder_backs_up_and_restores(tmp_path):
    Store(tmp_path / "a")
    assert archive.restore(tmp_path / "b", archive.backup(tmp_path / "a")) == (0, None)
    assert Store(tmp_path / "b").sessions() == []


def test_restore_over_existing_data_moves_it_aside(tmp_path):
    source = filled(tmp_path / "a")
    target = filled(tmp_path / "b", names=("Cyril", "Dana"))
    before_games, before = games(target), snapshot(tmp_path / "b")
    restored, aside = archive.restore(tmp_path / "b", archive.backup(tmp_path / "a"))
    assert restored == 2 and aside.parent == tmp_path / "b" and aside.name.startswith("before-restore-")
    assert games(Store(tmp_path / "b")) == games(source)
    kept = snapshot(aside)
    assert kept == {path: raw for path, raw in before.items() if path.name not in ("texts.json", "companion.lock")}
    assert games(Store(aside)) == before_games
    _, again = archive.restore(tmp_path / "b", archive.backup(tmp_path / "a"))
    assert again != aside and again.name.startswith("before-restore-")  # even two in the same second


def rebuilt(blob: bytes, change) -> bytes:
    """The backup with `change` applied to its files (a dict of name → bytes)."""
    files = members(blob)
    change(files)
    return zipped(*files.items())


def with_manifest(files: dict, manifest) -> None:
    files["backup.json"] = json.dumps(manifest).encode()


def listed(files: dict, name: str, raw: bytes) -> None:
    """Add a file and list it in the manifest, so only the file itself is wrong."""
    files[name] = raw
    manifest = json.loads(files["backup.json"])
    with_manifest(files, dict(manifest, files=[*manifest["files"], name]))


HOSTILE = {
    "not a zip": (lambda blob: b"PK not really a zip", "not a readable zip"),
    "truncated": (lambda blob: blob[: len(blob) // 2], "not a readable zip"),
    "corrupted": (lambda blob: zipped(*members(blob).items(), compression=zipfile.ZIP_STORED).replace(b"Anna", b"Anny"),
                  "not a readable zip"),
    "parent path": (lambda blob: rebuilt(blob, lambda f: listed(f, "../evil.json", b"{}")), "'../evil.json'"),
    "absolute path": (lambda blob: rebuilt(blob, lambda f: listed(f, "/etc/evil.json", b"{}")), "'/etc/evil.json'"),
    "unknown file": (lambda blob: rebuilt(blob, lambda f: listed(f, "notes.txt", b"hi")), "'notes.txt'"),
    "game id": (lambda blob: rebuilt(blob, lambda f: listed(f, "sessions/XYZ.json", b"{}")), "'sessions/XYZ.json'"),
    "twice": (lambda blob: zipped(*members(blob).items(), ("companion.json", b"{}")), "twice"),
    "not JSON": (lambda blob: rebuilt(blob, lambda f: listed(f, f"sessions/{SID}.json", b'{"meta": ')),
                 f"sessions/{SID}.json is not valid JSON"),
    "not an object": (lambda blob: rebuilt(blob, lambda f: listed(f, f"sessions/{SID}.json", b"[1]")),
                      "not a TinyDB document"),
    "not tables": (lambda blob: rebuilt(blob, lambda f: f.update({"companion.json": b'{"sessions": [1]}'})),
                   "companion.json is not a TinyDB document"),
    "nested": (lambda blob: rebuilt(blob, lambda f: listed(f, f"sessions/{SID}.json", b"[" * 100_000)),
               "nested too deeply"),
    "no manifest": (lambda blob: rebuilt(blob, lambda f: f.pop("backup.json")), "backup.json is missing"),
    "foreign manifest": (lambda blob: rebuilt(blob, lambda f: with_manifest(f, {"format": {"name": "other"}})),
                         "not a companion backup"),
    "manifest not an object": (lambda blob: rebuilt(blob, lambda f: with_manifest(f, [])), "not a companion backup"),
    "unlisted file": (lambda blob: rebuilt(blob, lambda f: f.update({f"sessions/{SID}.json": b"{}"})),
                      "does not list exactly"),
    "no catalogue": (lambda blob: rebuilt(blob, lambda f: f.pop("companion.json")), "companion.json"),
}


@pytest.mark.parametrize("mangle, message", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_archives_are_refused_and_change_nothing(tmp_path, mangle, message):
    filled(tmp_path / "a")
    filled(tmp_path / "b", names=("Cyril", "Dana"))
    before = snapshot(tmp_path / "b")
    with pytest.raises(archive.BackupRefused) as refused:
        archive.restore(tmp_path / "b", mangle(archive.backup(tmp_path / "a")))
    assert message in str(refused.value)
    assert snapshot(tmp_path / "b") == before


@pytest.mark.parametrize("limit, message", [("MAX_BYTES", "larger than"), ("MAX_UNPACKED", "when unpacked")])
def test_an_oversized_archive_is_refused(tmp_path, monkeypatch, limit, message):
    filled(tmp_path)
    blob, before = archive.backup(tmp_path), snapshot(tmp_path)
    monkeypatch.setattr(archive, limit, 500)
    with pytest.raises(archive.BackupRefused, match=message):
        archive.restore(tmp_path, blob)
    assert snapshot(tmp_path) == before


def test_a_damaged_catalogue_is_not_backed_up(tmp_path):
    filled(tmp_path)
    (tmp_path / "companion.json").write_text('{"sessions": ')
    with pytest.raises(archive.BackupRefused, match="start the app once"):
        archive.backup(tmp_path)


def companion(*args):
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, capture_output=True, timeout=60)


def refused(done: subprocess.CompletedProcess, start: str) -> bool:
    err = done.stderr.decode()
    return done.returncode == 2 and err.startswith(start) and "Traceback" not in err and err.count("\n") == 1


def test_the_commands(tmp_path):
    source = filled(tmp_path / "a")
    saved = tmp_path / "games.zip"
    assert companion("backup", str(saved), "--data-dir", str(tmp_path / "a")).returncode == 0
    piped = companion("backup", "-", "--data-dir", str(tmp_path / "a"))
    assert piped.returncode == 0 and set(members(piped.stdout)) == set(members(saved.read_bytes()))
    done = companion("restore", str(saved), "--data-dir", str(tmp_path / "b"))
    assert done.returncode == 0 and done.stdout.decode() == "restored 2 game(s)\n"
    done = companion("restore", str(saved), "--data-dir", str(tmp_path / "b"))
    aside = str(tmp_path / "b" / "before-restore-")
    assert done.returncode == 0 and f"the previous data is in {aside}" in done.stdout.decode()
    assert games(Store(tmp_path / "b")) == games(source)
    before = snapshot(tmp_path / "b")
    (tmp_path / "bad.zip").write_bytes(saved.read_bytes()[:100])
    assert refused(companion("restore", str(tmp_path / "bad.zip"), "--data-dir", str(tmp_path / "b")),
                   "error: refused, nothing was changed: not a readable zip")
    assert refused(companion("restore", str(tmp_path / "missing.zip"), "--data-dir", str(tmp_path / "b")),
                   "error: FILE: cannot read")
    assert snapshot(tmp_path / "b") == before
    assert refused(companion("backup", "-", "--data-dir", str(tmp_path / "nowhere")),
                   "error: cannot read the data folder")
    assert refused(companion("backup", str(tmp_path / "no" / "x.zip"), "--data-dir", str(tmp_path / "a")),
                   "error: FILE: cannot write")


def catalogue(change):
    """The backup's companion.json with `change` applied to its parsed document."""
    def mangle(blob: bytes) -> bytes:
        def edit(files):
            document = json.loads(files["companion.json"])
            change(document)
            files["companion.json"] = json.dumps(document).encode()
        return rebuilt(blob, edit)
    return mangle


def game_file(change):
    """The backup's game with actions, with `change` applied to its file's parsed document."""
    def mangle(blob: bytes) -> bytes:
        def edit(files):
            (name,) = [n for n in files if n.startswith("sessions/") and json.loads(files[n]).get("log")]
            document = json.loads(files[name])
            change(document)
            files[name] = json.dumps(document).encode()
        return rebuilt(blob, edit)
    return mangle


def first(document) -> dict:
    return document["sessions"]["1"]


def setting(name, value):
    def change(document):
        document["settings"] = {"1": {"name": name, "value": value}}
    return change


HOSTILE_FIELDS = {
    "no created": (catalogue(lambda d: first(d).pop("created")), "created must be a time"),
    "created far away": (catalogue(lambda d: first(d).update(created=1e300)), "created must be a time"),
    "created NaN": (lambda blob: rebuilt(blob, lambda f: f.update({"companion.json": f["companion.json"].replace(
        b'"created":', b'"created":NaN,"x":', 1)})), "NaN"),
    "players as text": (catalogue(lambda d: first(d).update(players="Anna")), "players must be a list"),
    "unknown game": (catalogue(lambda d: first(d).update(game="chess")), "game must name one of the games"),
    "twice the same id": (catalogue(lambda d: d["sessions"].update({"9": dict(first(d))})), "id appears twice"),
    "status": (catalogue(lambda d: first(d).update(status=["active"])), "status must be"),
    "result": (catalogue(lambda d: first(d).update(result={"winners": "red"})), "result must be"),
    "language as a list": (catalogue(setting("language", ["cs"])), "language must be cs or en"),
    "token as a number": (catalogue(setting("table_token", 12345)), "table_token must be a join token"),
    "token of the wrong shape": (catalogue(setting("table_token", "abc")), "table_token must be a join token"),
    "setting without a name": (catalogue(lambda d: d.update(settings={"1": {"value": 1}})), "a setting must be"),
    "game of a game file": (game_file(lambda d: d["meta"]["1"].update(game="chess")), "its meta must"),
    "config as text": (game_file(lambda d: d["meta"]["1"].update(config="x")), "its meta must"),
    "an action without a type": (game_file(lambda d: d["log"]["1"].pop("type")), "its action 1 must"),
    "an action's time": (game_file(lambda d: d["log"]["1"].update(at=-1)), "its action 1 must"),
    "a lone surrogate": (game_file(lambda d: d["meta"]["1"]["config"]["players"][0].update(name="\ud800")),
                         "not valid Unicode"),
    # Well typed, and nonsense: every game is checked as an import checks it.
    "a configuration without its keys": (game_file(lambda d: d["meta"]["1"].update(config={"players": []})),
                                         "its configuration is not one a new game can have"),
    "no players": (game_file(lambda d: d["meta"]["1"]["config"].update(players=[])),
                   "its configuration is not one a new game can have"),
    "start 99": (game_file(lambda d: d["meta"]["1"]["config"].update(start=99)),
                 "its configuration is not one a new game can have"),
    "start as text": (game_file(lambda d: d["meta"]["1"]["config"].update(start="0")),
                      "its configuration is not one a new game can have"),
    "an unknown action": (game_file(lambda d: d["log"]["2"].update(type="explode")), "its action 2 cannot be replayed"),
    "a list where a name belongs": (game_file(lambda d: d["log"]["2"]["args"].update(player=["red"])),
                                    "its action 2 cannot be replayed"),
    "a 10 MB argument": (game_file(lambda d: d["log"]["2"]["args"].update(note="x" * 10_000_000)),
                         "its action 2 is larger than an action can be"),
    "an entry without its file": (catalogue(lambda d: first(d).update(id="abcdefabcdef")),
                                  "game 1 of the list of games: its game's file sessions/abcdefabcdef.json is not"),
    "an entry of another game": (catalogue(lambda d: first(d).update(game="village")),
                                 "its game is not the game of its file"),
}


@pytest.mark.parametrize("mangle, message", HOSTILE_FIELDS.values(), ids=HOSTILE_FIELDS.keys())
def test_fields_of_the_wrong_type_or_range_are_refused_and_change_nothing(tmp_path, mangle, message):
    filled(tmp_path / "a")
    filled(tmp_path / "b", names=("Cyril", "Dana"))
    before = snapshot(tmp_path / "b")
    with pytest.raises(archive.BackupRefused) as refused:
        archive.restore(tmp_path / "b", mangle(archive.backup(tmp_path / "a")))
    assert message in str(refused.value)
    assert snapshot(tmp_path / "b") == before


def padded(blob: bytes, name: str, size: int) -> bytes:
    """The backup with `name` made `size` bytes of valid JSON (a TinyDB document) that packs very small."""
    def pad(files):
        if name == "companion.json":
            files[name] = json.dumps({**json.loads(files[name]), "pad": {"1": {"x": " " * size}}}).encode()
        else:
            listed(files, name, json.dumps({"meta": {"1": {"game": "carcassonne", "created": 1700000000,
                                                           "config": {"players": []}}},
                                            "pad": {"1": {"x": " " * size}}}).encode())
    return rebuilt(blob, pad)


@pytest.mark.parametrize("name, size", [("companion.json", 30_000_000), (f"sessions/{SID}.json", 30_000_000)])
def test_a_file_larger_unpacked_than_such_a_file_can_be_is_refused_before_it_is_unpacked(tmp_path, name, size):
    """A zip bomb: a few tens of kilobytes that unpack into a catalogue or a game file no game can make."""
    filled(tmp_path / "a")
    filled(tmp_path / "b")
    bomb, before = padded(archive.backup(tmp_path / "a"), name, size), snapshot(tmp_path / "b")
    assert len(bomb) < 100_000
    with pytest.raises(archive.BackupRefused, match=f"{name} is larger unpacked than such a file can be"):
        archive.restore(tmp_path / "b", bomb)
    assert snapshot(tmp_path / "b") == before


def test_the_catalogue_may_be_as_large_as_its_games_entries(tmp_path):
    source = filled(tmp_path / "a")
    blob = archive.backup(tmp_path / "a")
    allowed = archive.CATALOGUE + archive.ENTRY * 2 - len(members(blob)["companion.json"]) - 200
    assert archive.restore(tmp_path / "b", padded(blob, "companion.json", allowed))[0] == 2
    assert games(Store(tmp_path / "b")) == games(source)


class Full(Exception):
    pass


@pytest.mark.parametrize("after", [0, 1, 2])
def test_a_restore_that_runs_out_of_disk_changes_nothing(tmp_path, monkeypatch, after):
    """All or nothing: the disk fills up after `after` of the backup's three files were unpacked."""
    filled(tmp_path / "a")
    filled(tmp_path / "b", names=("Cyril", "Dana"))
    blob, before = archive.backup(tmp_path / "a"), snapshot(tmp_path / "b")
    write, written = archive.AtomicJSONStorage.write, []

    def filling(storage, data):
        if len(written) == after:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(storage.path)
        write(storage, data)
    monkeypatch.setattr(archive.AtomicJSONStorage, "write", filling)
    with pytest.raises(archive.BackupRefused, match="nothing was changed: the disk is full"):
        archive.restore(tmp_path / "b", blob)
    assert snapshot(tmp_path / "b") == before
    assert not list((tmp_path / "b").glob(".restore-*"))


def test_a_failed_move_into_place_is_undone(tmp_path, monkeypatch):
    filled(tmp_path / "a")
    filled(tmp_path / "b", names=("Cyril", "Dana"))
    blob, before = archive.backup(tmp_path / "a"), snapshot(tmp_path / "b")
    replace = os.replace

    def failing(source, target):
        if Path(target) == tmp_path / "b" / "companion.json" and ".restore-" in str(source):
            raise OSError(errno.EIO, "Input/output error")
        replace(source, target)
    monkeypatch.setattr(archive.os, "replace", failing)
    with pytest.raises(archive.BackupRefused, match="nothing was changed: the disk reports an error"):
        archive.restore(tmp_path / "b", blob)
    assert snapshot(tmp_path / "b") == before
    assert not [p for p in (tmp_path / "b").iterdir() if p.name.startswith(("before-restore-", ".restore-"))]


def test_a_refused_restore_into_a_missing_folder_leaves_no_folder(tmp_path):
    filled(tmp_path / "a")
    with pytest.raises(archive.BackupRefused):
        archive.restore(tmp_path / "new", archive.backup(tmp_path / "a")[:100])
    with pytest.raises(archive.BackupRefused):
        archive.restore(tmp_path / "new", catalogue(lambda d: first(d).pop("created"))(archive.backup(tmp_path / "a")))
    assert not (tmp_path / "new").exists()


def test_the_reason_is_in_the_readers_language(tmp_path):
    filled(tmp_path / "a")
    store = filled(tmp_path / "b", names=("Cyril", "Dana"))
    store.set_setting("language", "cs")
    vm = ViewModel(store)
    bad = catalogue(lambda d: first(d).update(created=1e300))(archive.backup(tmp_path / "a"))
    assert not vm.restore_backup(bad)
    assert vm.problem.text == ("Soubor nebyl přijat, nic se nezměnilo: companion.json, hra 1 v seznamu her: "
                               "created musí být čas v sekundách mezi lety 1970 a 2100")
    vm.set_language("en")
    assert not vm.restore_backup(bad)
    assert vm.problem.text.endswith("companion.json, game 1 of the list of games: created must be a time in "
                                    "seconds between 1970 and 2100")


def test_restore_refuses_while_a_server_serves_the_folder(tmp_path):
    filled(tmp_path / "a")
    filled(tmp_path / "b")
    (tmp_path / "x.zip").write_bytes(archive.backup(tmp_path / "a"))
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from companion.store import claim_server; "
                               "claim_server(sys.argv[1], {'pid': 77, 'url': 'http://127.0.0.1:8550'}); "
                               "print('held', flush=True); time.sleep(60)", str(tmp_path / "b")],
                              cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        before = snapshot(tmp_path / "b")
        done = companion("restore", str(tmp_path / "x.zip"), "--data-dir", str(tmp_path / "b"))
        assert refused(done, "error: refused, nothing was changed: a companion server serves")
        assert "pid 77" in done.stderr.decode() and snapshot(tmp_path / "b") == before
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()


@pytest.mark.parametrize("change", [
    lambda config: config.pop("variant"),
    lambda config: config["sheet"].pop("lowest"),
    lambda config: config["sheet"].pop("tie_break"),
], ids=["no variant", "a sheet without lowest", "a sheet without its tie-break"])
def test_a_game_whose_configuration_lacks_what_a_new_game_has_restores_and_opens(tmp_path, change):
    """Issue 33: a score sheet's game whose configuration lacked a key the new-game check fills in
    (it accepts a form without them) restored, and then opening it raised KeyError instead of saying
    that the game is damaged. A backup that restores opens: what the file lacks is filled in as a new
    game has it (a backup of an older version lacks the settings added since), what it holds is kept."""
    from tests.test_screens import Page
    from companion.ui.app import Shell

    store = Store(tmp_path / "a")
    vm = ViewModel(store)
    assert vm.new_game("score_sheet", {"start": 0, "sheet": {"name": "Golf", "categories": [], "per_round": True,
                                                             "lowest": True, "tie_break": None},
                                       "players": [{"colour": "red", "name": "Anna"}]})
    assert vm.dispatch("score", player="red", category="points", value=3, round=1)
    archive.restore(tmp_path / "b", game_file(lambda d: change(d["meta"]["1"]["config"]))(archive.backup(tmp_path / "a")))
    restored = ViewModel(Store(tmp_path / "b"))
    shell = Shell(Page(), restored)
    assert restored.open(restored.store.sessions()[0]["id"]) and restored.route == "round"
    shell.render()
    config = restored.session["config"]
    assert {"variant", "sheet"} <= set(config) and {"lowest", "tie_break"} <= set(config["sheet"])
    assert restored.damaged is None
