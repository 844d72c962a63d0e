"""Backup and restore of the whole data folder (`companion backup`, `companion restore`).

A backup is a zip file holding the data folder's own files:
- `companion.json`       the catalogue of games and the settings, unchanged;
- `sessions/<id>.json`   one file per game (its configuration and action log), with the actions of
                         its journal (`sessions/<id>.log`, see store.py) folded in;
- `backup.json`          the manifest: `{"format": {"name": "companion-backup", "version": 1},
                         "created": <unix time>, "files": [the names above]}`.
The rule texts (`texts.json`) are not in it: the app seeds them again from `data/`. Files the
app moved aside as damaged (`*.corrupt-*`) and half-written temporary files are left out.

A restore checks the whole archive before it changes anything: its size, every file name, what
each file may hold unpacked (a game file at most what a game of `exchange.MAX_ACTIONS` actions can
be, the catalogue at most what its games' entries can be: a zip bomb is refused before it is
unpacked), the manifest, and every file's content: a TinyDB document whose every field has the
type and range the app writes (`store.entry_fault`, `setting_fault`, `session_fault`), every
game as an import checks it (`store.replay_fault`: the game's new-game check, the sizes of its
configuration and actions, the replay of its whole log), and every entry of the list of games
has its game's file. A refusal names the file and the entry or action. The files are unpacked one at a time into a
staging folder inside the data folder (so memory holds one file, and a full disk stops the restore
before anything changed). Only when every file is there are the current `companion.json` and
`sessions/` moved into `before-restore-<YYYYmmdd-HHMMSS>/` (nothing is lost; that folder is itself
a data folder the app can open with `--data-dir`) and the staged ones moved in: renames, which
need no space. A restore is all or nothing; a refused one changes nothing. The whole restore holds
the data folder's lock. `companion restore` refuses to run while a server serves the folder; the
app's own "Restore a backup" goes through `Store.replace_files`, which reads every file afresh.
"""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import time
import zipfile
import zlib
from pathlib import Path
from typing import Any

from .engine.model import Msg, N_
from .store import INDEX, MAX_SHEETS, SESSION_ID, SESSIONS, SETTINGS_COPY, STAGING, AtomicJSONStorage, entry_fault, \
    folder_lock, is_document, os_reason, session_fault, replay_fault, setting_fault, settings_of, sheet_fault, \
    stored_game, write_json

FORMAT = {"name": "companion-backup", "version": 1}
MANIFEST = "backup.json"
MAX_BYTES = 200_000_000           # a larger file is not a backup of ours
MAX_UNPACKED = 1_000_000_000      # all files together, uncompressed
MAX_GAMES = 100_000               # game files in one backup (as many as an import takes)
GAME_FILE = 20_000_000            # a game file: 20,000 actions (exchange.MAX_ACTIONS) of at most 1 KB each
ENTRY = 8_000                     # one game's entry: 12 players' summary of 12 categories, place and note
CATALOGUE = 64_000 + 1_000 * MAX_SHEETS  # the settings, the score sheets (1 KB each at most), the frame
DATA_FILE = re.compile(rf"{re.escape(INDEX)}|{SESSIONS}/[0-9a-f]{{12}}\.json")
UNREADABLE_ZIP = (zipfile.BadZipFile, RuntimeError, zlib.error, EOFError, ValueError, OSError)


class BackupRefused(Exception):
    """The archive cannot be restored (nothing was changed), or the data cannot be backed up; `msg`
    says why, in any language (str() is English)."""

    def __init__(self, msg: Msg):
        super().__init__(msg.english())
        self.msg = msg


def _readable(path: Path) -> bytes | None:
    """The file's bytes if it holds a TinyDB document; None if it is missing or unreadable."""
    try:
        raw = path.read_bytes()
        return raw if is_document(json.loads(raw)) else None
    except (OSError, ValueError, RecursionError):
        return None


def backup(data_dir: str | Path) -> bytes:
    """The data folder as a zip archive (see the module docstring)."""
    folder = Path(data_dir)
    games = sorted((folder / SESSIONS).iterdir())
    index = folder / INDEX
    catalogue = _readable(index) if index.exists() else b"{}"  # no catalogue yet: no game was ever stored
    if catalogue is None:
        raise BackupRefused(Msg(N_("{file} cannot be read; start the app once (it repairs it), then back up again"),
                                {"file": str(index)}))
    contents = {INDEX: _with_settings(catalogue, folder / SETTINGS_COPY)}
    for path in games:
        name = f"{SESSIONS}/{path.name}"
        if not DATA_FILE.fullmatch(name):
            continue
        try:
            document = stored_game(folder, path.stem)
        except (OSError, ValueError, RecursionError):
            continue
        contents[name] = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
    manifest = {"format": FORMAT, "created": int(time.time()), "files": list(contents)}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest, indent=1))
        for name, raw in contents.items():
            archive.writestr(name, raw)
    return buffer.getvalue()


def _with_settings(catalogue: bytes, path: Path) -> bytes:
    """The catalogue as a backup holds it: its games and score sheets, and the settings (kept in their own
    file, `settings.json`; a backup keeps them in the catalogue's `settings` table, as it always did)."""
    try:
        copy = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return catalogue  # none of their own yet: those the catalogue holds
    document = json.loads(catalogue)
    document["settings"] = {str(i): doc for i, doc in enumerate(settings_of(copy if isinstance(copy, list) else []),
                                                                start=1)}
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


def game_file(data_dir: str | Path, sid: str) -> bytes:
    """One game's file as a backup holds it (its journal folded in): what the home screen offers for a
    damaged game. OSError or ValueError when there is none."""
    if not SESSION_ID.fullmatch(sid):
        raise ValueError(sid)
    return json.dumps(stored_game(data_dir, sid), ensure_ascii=False, indent=1).encode()


def _size(limit: int) -> str:
    return f"{limit // 1_000_000} MB" if limit >= 1_000_000 else f"{limit // 1000} KB"


def _infos(archive: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """The archive's files by name, after the checks of names and of what each may hold unpacked."""
    infos = archive.infolist()
    names = [info.filename for info in infos]
    if MANIFEST not in names:
        raise BackupRefused(Msg(N_("not a companion backup: {manifest} is missing"), {"manifest": MANIFEST}))
    for name in names:
        if name != MANIFEST and not DATA_FILE.fullmatch(name):
            raise BackupRefused(Msg(N_("unexpected file {name} in the archive (only {manifest}, {index} and "
                                       "{sessions}/<id>.json belong there)"),
                                    {"name": repr(name[:100]), "manifest": MANIFEST, "index": INDEX,
                                     "sessions": SESSIONS}))
    if len(set(names)) != len(names):
        raise BackupRefused(Msg(N_("a file appears twice in the archive")))
    games = len(names) - 2
    if games > MAX_GAMES:
        raise BackupRefused(Msg(N_("the archive holds more games than a backup can ({n})"), {"n": MAX_GAMES}))
    limits = {MANIFEST: 1000 + 40 * len(names), INDEX: CATALOGUE + ENTRY * max(games, 1)}
    for info in infos:
        limit = limits.get(info.filename, GAME_FILE)
        if info.file_size > limit:
            raise BackupRefused(Msg(N_("{name} is larger unpacked than such a file can be ({size})"),
                                    {"name": info.filename, "size": _size(limit)}))
    if sum(info.file_size for info in infos) > MAX_UNPACKED:
        raise BackupRefused(Msg(N_("the files are larger than {mb} MB when unpacked"),
                                {"mb": MAX_UNPACKED // 1_000_000}))
    return {info.filename: info for info in infos}


def _parsed(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Any:
    """One file of the archive, unpacked (never past its declared size) and parsed."""
    with archive.open(info) as handle:
        raw = handle.read(info.file_size + 1)
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise BackupRefused(Msg(N_("{name} is nested too deeply"), {"name": info.filename})) from None
    except json.JSONDecodeError as error:
        raise BackupRefused(Msg(N_("{name} is not valid JSON (line {line}, column {column})"),
                                {"name": info.filename, "line": error.lineno, "column": error.colno})) from None
    except ValueError:  # NaN or Infinity (see _no_constant), a number of over 4,300 digits, not UTF-8
        raise BackupRefused(Msg(N_("{name} holds something JSON does not allow (NaN, Infinity, a number too "
                                   "long to read, or bytes that are not UTF-8)"), {"name": info.filename})) from None


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _check(name: str, document: Any, games: dict[str, str]) -> None:
    """Every field of one data file has the type and range the app writes; a game file's game can be
    opened (`store.replay_fault`: the new-game check, the sizes, the replay of its log) and is noted
    in `games` (id → game); every entry of the catalogue (checked last) has its game's file."""
    if not is_document(document):
        raise BackupRefused(Msg(N_("{name} is not a TinyDB document (an object of tables of objects by number)"),
                                {"name": name}))
    if name != INDEX:
        fault = session_fault(document) or replay_fault(document)
        if fault is not None:
            raise BackupRefused(Msg(N_("{name}: {reason}"), {"name": name, "reason": fault}))
        games[Path(name).stem] = document["meta"]["1"]["game"]
        return
    ids = set()
    for key, entry in document.get("sessions", {}).items():
        fault = entry_fault(entry)
        if fault is None and entry["id"] in ids:
            fault = Msg(N_("id appears twice in the list of games"))
        if fault is None and entry["status"] != "damaged" and entry["id"] not in games:
            fault = Msg(N_("its game's file {file} is not in the archive"), {"file": f"{SESSIONS}/{entry['id']}.json"})
        if fault is None and entry["id"] in games and games[entry["id"]] != entry["game"]:
            fault = Msg(N_("its game is not the game of its file"))
        if fault is not None:
            raise BackupRefused(Msg(N_("{name}, game {n} of the list of games: {reason}"),
                                    {"name": name, "n": key, "reason": fault}))
        ids.add(entry["id"])
    sheets = set()
    for key, sheet in document.get("sheets", {}).items():
        fault = sheet_fault(sheet)
        if fault is None and sheet["id"] in sheets:
            fault = Msg(N_("id appears twice in the list of score sheets"))
        if fault is not None:
            raise BackupRefused(Msg(N_("{name}, score sheet {n}: {reason}"), {"name": name, "n": key, "reason": fault}))
        sheets.add(sheet["id"])
    for key, setting in document.get("settings", {}).items():
        fault = setting_fault(setting)
        if fault is not None:
            raise BackupRefused(Msg(N_("{name}, setting {n}: {reason}"), {"name": name, "n": key, "reason": fault}))


def _unpack(archive: zipfile.ZipFile, staging: Path) -> int:
    """Check the archive and write its data files into `staging`, one at a time; the number of games."""
    infos = _infos(archive)
    manifest = _parsed(archive, infos.pop(MANIFEST))
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupRefused(Msg(N_("not a companion backup: {manifest} must have \"format\" {format}"),
                                {"manifest": MANIFEST, "format": json.dumps(FORMAT)}))
    if INDEX not in infos:
        raise BackupRefused(Msg(N_("{index} (the list of games and the settings) is missing"), {"index": INDEX}))
    files = manifest.get("files")
    if not isinstance(files, list) or sorted(map(str, files)) != sorted(infos):
        raise BackupRefused(Msg(N_("{manifest} does not list exactly the files in the archive"),
                                {"manifest": MANIFEST}))
    (staging / SESSIONS).mkdir(parents=True)
    games: dict[str, str] = {}
    for name in sorted(infos, key=lambda name: name == INDEX):  # the catalogue last
        document = _parsed(archive, infos[name])
        _check(name, document, games)
        try:
            AtomicJSONStorage(staging / name).write(document)
        except UnicodeEncodeError:  # a lone surrogate ("\ud800") cannot be written as UTF-8
            raise BackupRefused(Msg(N_("{name} holds text that is not valid Unicode (a lone surrogate)"),
                                    {"name": name})) from None
        if name == INDEX:  # the copy of its settings beside it (see store.py)
            write_json(staging / SETTINGS_COPY, settings_of(document.get("settings", {}).values()))
    return len(infos) - 1


def _move(moves: list[tuple[Path, Path]], source: Path, target: Path) -> None:
    os.replace(source, target)
    moves.append((source, target))


def _swap(folder: Path, staging: Path) -> Path | None:
    """Move the current catalogue and games into a new `before-restore-*` folder (None if there are
    none) and the staged ones in; on a failure, every move made is undone."""
    sessions = folder / SESSIONS
    present = [path for path in (folder / INDEX, folder / SETTINGS_COPY, sessions)
               if path.is_file() or path.is_dir() and any(path.iterdir())]
    aside = None
    if present:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside, n = folder / f"before-restore-{stamp}", 1
        while True:
            try:
                aside.mkdir()
                break
            except FileExistsError:
                n += 1
                aside = folder / f"before-restore-{stamp}-{n}"
    moves: list[tuple[Path, Path]] = []
    try:
        for path in present:
            assert aside is not None  # made above, since there is something present
            _move(moves, path, aside / path.name)
        _move(moves, staging / SESSIONS, sessions)  # over an empty one, if one is left
        _move(moves, staging / SETTINGS_COPY, folder / SETTINGS_COPY)
        _move(moves, staging / INDEX, folder / INDEX)
    except OSError as error:
        for source, target in reversed(moves):  # if this fails too, the OSError says so (and the
            os.replace(target, source)          # data moved aside is in its before-restore-* folder)
        if aside is not None:
            aside.rmdir()
        raise BackupRefused(Msg(N_("the backup could not be put in place, so nothing was changed: {reason}"),
                                {"reason": os_reason(error)})) from None
    AtomicJSONStorage.sync_folder(folder)
    return aside


def restore(data_dir: str | Path, blob: bytes) -> tuple[int, Path | None]:
    """Replace the data folder's games and settings with a backup's; BackupRefused (and nothing
    changed) if the archive fails any check or cannot be unpacked. Returns the number of games
    restored and the folder the previous data was moved into (None when there was none)."""
    if len(blob) > MAX_BYTES:
        raise BackupRefused(Msg(N_("the file is larger than {mb} MB"), {"mb": MAX_BYTES // 1_000_000}))
    folder = Path(data_dir)
    try:
        archive = zipfile.ZipFile(io.BytesIO(blob))
    except UNREADABLE_ZIP:
        raise BackupRefused(Msg(N_("not a readable zip archive (truncated or damaged)"))) from None
    created = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # the data folder is a file, or may not be written
        raise BackupRefused(Msg(N_("the backup could not be unpacked, so nothing was changed: {reason}"),
                                {"reason": os_reason(error)})) from None
    try:
        with archive, folder_lock(folder):
            staging = folder / f"{STAGING}{os.getpid()}"
            shutil.rmtree(staging, ignore_errors=True)
            try:
                try:
                    games = _unpack(archive, staging)
                except BackupRefused:
                    raise
                except OSError as error:  # the disk, not the archive
                    raise BackupRefused(Msg(N_("the backup could not be unpacked, so nothing was changed: "
                                               "{reason}"), {"reason": os_reason(error)})) from None
                except UNREADABLE_ZIP:
                    raise BackupRefused(Msg(N_("not a readable zip archive (truncated or damaged)"))) from None
                return games, _swap(folder, staging)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
    except BackupRefused:
        _forget(folder, created)
        raise


def _forget(folder: Path, created: bool) -> None:
    """A refused restore into a folder it created leaves no folder behind."""
    if created:
        shutil.rmtree(folder, ignore_errors=True)
