"""Backup and restore of the whole data folder (`companion backup`, `companion restore`).

A backup is a zip file holding the data folder's own files, unchanged:
- `companion.json`       the catalogue of games and the settings;
- `sessions/<id>.json`   one file per game (its configuration and action log);
- `backup.json`          the manifest: `{"format": {"name": "companion-backup", "version": 1},
                         "created": <unix time>, "files": [the names above]}`.
The rule texts (`texts.json`) are not in it: the app seeds them again from `data/`. Files the
app moved aside as damaged (`*.corrupt-*`) and half-written temporary files are left out.

A restore checks the whole archive before it touches anything: its size (compressed and
uncompressed), the manifest, every file name and every file's content (a TinyDB document). An
archive that fails any check changes nothing. Then the current `companion.json` and `sessions/`
are moved into `before-restore-<YYYYmmdd-HHMMSS>/` inside the data folder (nothing is lost; that
folder is itself a data folder the app can open with `--data-dir`), and the backup's files are
written atomically, the catalogue last. Run `companion restore` while the server is stopped; the
app's own "Restore a backup" goes through `Store.replace_files`, which holds the store's lock and
reads every file afresh afterwards.
"""
from __future__ import annotations

import io
import json
import os
import re
import time
import zipfile
import zlib
from pathlib import Path
from typing import Any

from .engine.model import Msg, N_
from .store import INDEX, SESSIONS, AtomicJSONStorage

FORMAT = {"name": "companion-backup", "version": 1}
MANIFEST = "backup.json"
MAX_BYTES = 200_000_000           # a larger file is not a backup of ours
MAX_UNPACKED = 1_000_000_000      # all files together, uncompressed (a zip bomb is refused)
DATA_FILE = re.compile(rf"{re.escape(INDEX)}|{SESSIONS}/[0-9a-f]{{12}}\.json")
UNREADABLE_ZIP = (zipfile.BadZipFile, RuntimeError, zlib.error, EOFError, ValueError, OSError)


class BackupRefused(Exception):
    """The archive cannot be restored (nothing was changed), or the data cannot be backed up. `msg`
    says why in the reader's language; the exception's text is the English, with the zip or JSON
    library's own technical detail for the command line."""

    def __init__(self, why: str, detail: str | None = None, **params):
        self.msg = Msg(why, params)
        super().__init__(f"{self.msg.english()}: {detail}" if detail else self.msg.english())


def _is_document(data: Any) -> bool:
    """A TinyDB document: tables by name, each of documents (objects) by numeric id."""
    return isinstance(data, dict) and all(
        isinstance(table, dict) and all(key.isdecimal() and isinstance(doc, dict) for key, doc in table.items())
        for table in data.values())


def _readable(path: Path) -> bytes | None:
    """The file's bytes if it holds a TinyDB document; None if it is missing or unreadable."""
    try:
        raw = path.read_bytes()
        return raw if _is_document(json.loads(raw)) else None
    except (OSError, ValueError, RecursionError):
        return None


def backup(data_dir: str | Path) -> bytes:
    """The data folder as a zip archive (see the module docstring)."""
    folder = Path(data_dir)
    games = sorted((folder / SESSIONS).iterdir())
    index = folder / INDEX
    catalogue = _readable(index) if index.exists() else b"{}"  # no catalogue yet: no game was ever stored
    if catalogue is None:
        raise BackupRefused(N_("{file} cannot be read; start the app once (it repairs it), then back up again"),
                            file=str(index))
    contents = {INDEX: catalogue}
    for path in games:
        name = f"{SESSIONS}/{path.name}"
        raw = _readable(path) if DATA_FILE.fullmatch(name) else None
        if raw is not None:
            contents[name] = raw
    manifest = {"format": FORMAT, "created": int(time.time()), "files": list(contents)}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest, indent=1))
        for name, raw in contents.items():
            archive.writestr(name, raw)
    return buffer.getvalue()


def _members(blob: bytes) -> dict[str, bytes]:
    """Every file of the archive by name, after the checks of size and names."""
    if len(blob) > MAX_BYTES:
        raise BackupRefused(N_("the file is larger than {n} MB"), n=MAX_BYTES // 1_000_000)
    try:
        with zipfile.ZipFile(io.BytesIO(blob)) as archive:
            infos = archive.infolist()
            names = [info.filename for info in infos]
            if MANIFEST not in names:
                raise BackupRefused(N_("not a companion backup: {file} is missing"), file=MANIFEST)
            for name in names:
                if name != MANIFEST and not DATA_FILE.fullmatch(name):
                    raise BackupRefused(N_("unexpected file {name} in the archive (only {manifest}, {index} and "
                                           "{sessions}/<id>.json belong there)"), name=repr(name[:100]),
                                        manifest=MANIFEST, index=INDEX, sessions=SESSIONS)
            if len(set(names)) != len(names):
                raise BackupRefused(N_("a file appears twice in the archive"))
            if sum(info.file_size for info in infos) > MAX_UNPACKED:
                raise BackupRefused(N_("the files are larger than {n} MB when unpacked"), n=MAX_UNPACKED // 1_000_000)
            return {info.filename: archive.read(info) for info in infos}
    except UNREADABLE_ZIP as error:
        raise BackupRefused(N_("not a readable zip archive (truncated?)"), detail=str(error)) from None


def _checked(blob: bytes) -> dict[str, dict]:
    """The data files of a backup, parsed, once every check has passed."""
    documents = {}
    for name, raw in _members(blob).items():
        try:
            documents[name] = json.loads(raw)
        except RecursionError:
            raise BackupRefused(N_("{file} is nested too deeply"), file=name) from None
        except json.JSONDecodeError as error:
            raise BackupRefused(N_("{file} is not valid JSON: line {line}, column {column}"), file=name,
                                line=error.lineno, column=error.colno) from None
        except ValueError:  # bytes that are not UTF-8 text
            raise BackupRefused(N_("{file} is not a text file"), file=name) from None
    manifest = documents.pop(MANIFEST)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupRefused(N_('not a companion backup: {file} must have "format" {format}'), file=MANIFEST,
                            format=json.dumps(FORMAT))
    if INDEX not in documents:
        raise BackupRefused(N_("{file} (the list of games and the settings) is missing"), file=INDEX)
    files = manifest.get("files")
    if not isinstance(files, list) or sorted(map(str, files)) != sorted(documents):
        raise BackupRefused(N_("{file} does not list exactly the files in the archive"), file=MANIFEST)
    for name, document in documents.items():
        if not _is_document(document):
            raise BackupRefused(N_("{file} is not a TinyDB document (an object of tables of objects by number)"),
                                file=name)
    return documents


def _move_aside(folder: Path) -> Path | None:
    """Move the current catalogue and games into a new `before-restore-*` folder (None if there are none)."""
    sessions = folder / SESSIONS
    present = [path for path in (folder / INDEX, sessions)
               if path.is_file() or path.is_dir() and any(path.iterdir())]
    if not present:
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside, n = folder / f"before-restore-{stamp}", 1
    while True:
        try:
            aside.mkdir()
            break
        except FileExistsError:
            n += 1
            aside = folder / f"before-restore-{stamp}-{n}"
    for path in present:
        os.replace(path, aside / path.name)
    return aside


def restore(data_dir: str | Path, blob: bytes) -> tuple[int, Path | None]:
    """Replace the data folder's games and settings with a backup's; BackupRefused (and nothing
    changed) if the archive fails any check. Returns the number of games restored and the folder
    the previous data was moved into (None when there was none)."""
    documents = _checked(blob)
    folder = Path(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    aside = _move_aside(folder)
    (folder / SESSIONS).mkdir(exist_ok=True)
    for name in sorted(documents, key=lambda name: name == INDEX):  # the catalogue last
        AtomicJSONStorage(folder / name).write(documents[name])
    return len(documents) - 1, aside
