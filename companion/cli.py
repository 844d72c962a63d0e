"""The `companion` command: `serve` (the default), `score`, `export`, `import`, `backup`, `restore` and
`build-web`.

`score` is a pure function of its input: it imports neither Flet nor TinyDB and never opens
the app's database (scoring-contract.md). Heavy imports happen only inside `serve`.
"""
from __future__ import annotations

import errno
import json
import os
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import shared_dir
from .engine.inputs import InputError, printable

if TYPE_CHECKING:  # imported where they are used: `score` loads neither
    import argparse

    from .store import Store


def _parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(prog="companion", description="Rulebook companion and scoring assistant.")
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="serve the web app (the default)")
    _serve_options(serve)
    score = sub.add_parser("score", help="final scoring from JSON (scoring-contract.md)")
    score.add_argument("game", metavar="GAME")
    score.add_argument("file", metavar="FILE", nargs="?", default="-")
    export = sub.add_parser("export", help="every stored game as CSV or JSON on standard output")
    export.add_argument("--format", choices=("csv", "csv-excel-cs", "json", "bgstats"), default="json",
                        help="csv-excel-cs: for Excel in Czech (`;` between cells, decimal commas); bgstats: the "
                             "finished games as a file BG Stats imports")
    export.add_argument("--data-dir", default=None)
    load = sub.add_parser("import", help="take back games from a JSON export or a BG Stats export (nothing "
                                         "changes if it is refused)")
    load.add_argument("file", metavar="FILE")
    load.add_argument("--data-dir", default=None)
    keep = sub.add_parser("backup", help="the whole data folder as one zip file (FILE - is standard output)")
    keep.add_argument("file", metavar="FILE")
    keep.add_argument("--data-dir", default=None)
    back = sub.add_parser("restore", help="replace the games and settings with a backup's (the previous data is "
                                          "moved aside; nothing changes if the backup is refused)")
    back.add_argument("file", metavar="FILE")
    back.add_argument("--data-dir", default=None)
    web = sub.add_parser("build-web", help="the app as a static folder that runs in the phone's browser with no "
                                           "server (see the README, \"The phone alone\")")
    web.add_argument("out_dir", metavar="OUT_DIR")
    return parser


def _serve_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=None,
                        help="the address to serve on (default 127.0.0.1); with --lan, the address the join link "
                             "holds (default: this machine's LAN address)")
    parser.add_argument("--port", type=int, default=8550)
    parser.add_argument("--data-dir", default=None,
                        help="where the database lives (default: $COMPANION_DATA_DIR or the user data directory)")
    parser.add_argument("--lan", action="store_true",
                        help="table mode: serve the local network; phones join with the printed link or QR code")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["serve", *argv]
    if argv[0] == "score" and 2 <= len(argv) <= 3 and not any(a.startswith("-") and a != "-" for a in argv[1:]):
        return score(*argv[1:])  # the plain form skips building the parser: `score` starts as fast as it can
    args = _parser().parse_args(argv)
    if args.command == "score":
        return score(args.game, args.file)
    if args.command == "export":
        return export(args.format, args.data_dir)
    if args.command == "import":
        return import_(args.file, args.data_dir)
    if args.command == "backup":
        return backup(args.file, args.data_dir)
    if args.command == "restore":
        return restore(args.file, args.data_dir)
    if args.command == "build-web":
        return build_web(args.out_dir)
    return serve(args.host, args.port, args.data_dir, args.lan)


#: The longest `error:` line any command prints (a message naming a huge field is cut).
ERROR_LENGTH = 300
#: The largest input `companion score` reads: a finished game's description is a few kilobytes.
SCORE_INPUT = 256_000


def _fail(message: str, status: int = 2) -> int:
    """One `error:` line on standard error, however long or strange the message (see ERROR_LENGTH)."""
    line = printable(" ".join(f"error: {message}".split("\n")))
    if len(line) > ERROR_LENGTH:
        line = line[:ERROR_LENGTH - 3] + "..."
    if sys.stderr is not None:
        sys.stderr.write(line + "\n")
    return status


def _read_score_input(path: str) -> bytes:
    """At most SCORE_INPUT + 1 bytes of the input (the file, or standard input for "-")."""
    if path != "-":
        with open(path, "rb") as handle:
            return handle.read(SCORE_INPUT + 1)
    if sys.stdin is None:
        raise OSError(errno.EBADF, "standard input is closed")
    stream = getattr(sys.stdin, "buffer", None)
    return stream.read(SCORE_INPUT + 1) if stream is not None else sys.stdin.read(SCORE_INPUT + 1).encode()


def score(game_name: str, path: str = "-") -> int:
    """Score a finished game from JSON; exit 0 with the result, or 2 with one clear message."""
    from .games import SCORERS  # the registry imports only the game it scores: no Flet, no TinyDB

    scorer = SCORERS.get(game_name)
    if scorer is None:
        return _fail(f"GAME: unknown game {game_name!r} (one of: {', '.join(SCORERS)})")
    try:
        raw = _read_score_input(path)
    except OSError as error:
        return _fail(f"FILE: cannot read {'standard input' if path == '-' else path}: {error.strerror or error}")
    if len(raw) > SCORE_INPUT:
        return _fail(f"input is larger than {SCORE_INPUT // 1000} KB (a game's scoring input is a few KB)")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        return _fail(f"input is not UTF-8 text (byte {error.start})")
    except json.JSONDecodeError as error:
        return _fail(f"input is not valid JSON: {error}")
    except ValueError:  # a number of more than 4300 digits
        return _fail("input is not valid JSON: a number is too long")
    except RecursionError:
        return _fail("input is nested too deeply")
    texts = _english_texts(scorer.game_id)          # the names of cities and guilds, as the box prints them
    try:
        result = scorer.score(data)
        result["explain"] = [line.english(texts) for line in result.get("explain", [])]
        # a lone surrogate can only sit inside a JSON string, where its \udXXX escape is valid JSON
        out = (json.dumps(result, ensure_ascii=False) + "\n").encode("utf-8", "backslashreplace")
    except InputError as error:
        said = error.msg.english(texts)
        return _fail(f"{error.path}: {said}" if error.path else said)
    except RecursionError:
        return _fail("input is nested too deeply")
    except Exception as error:  # noqa: BLE001 - a fault of ours: still one line, never a traceback
        return _fail(f"internal error, please report it: {type(error).__name__}: {error}", 1)
    if sys.stdout is None:
        return _fail("standard output is closed", 1)
    try:
        stream = getattr(sys.stdout, "buffer", None)
        if stream is not None:
            stream.write(out)
        else:
            sys.stdout.write(out.decode("utf-8"))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (`| head`): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as error:
        return _fail(f"cannot write the result: {error.strerror or error}", 1)
    return 0


#: `{ en = "Ghent", ...`: the English text first in a one-line table, as a TOML basic string.
ONE_LINE_ENGLISH = re.compile(r'\{\s*en\s*=\s*("(?:[^"\\]|\\.)*")\s*[,}]')


def _english_of(line: str, key: str, table: int) -> str | None:
    """The English of the line `"KEY" = { en = "...", cs = "..." }` whose table starts at `table`.

    Most lines are read without tomllib (importing it costs `companion score` a tenth of its start):
    a basic TOML string without `\\U` escapes is also a JSON string. Any other line goes to tomllib."""
    found = ONE_LINE_ENGLISH.match(line, table)
    if found:
        try:
            return str(json.loads(found.group(1)))
        except ValueError:  # an escape JSON does not know (`\U0001F600`): tomllib reads it
            pass
    import tomllib

    try:
        english = tomllib.loads(line)[key]["en"]
    except (tomllib.TOMLDecodeError, KeyError, TypeError):
        return None
    return english if isinstance(english, str) else None


def _english_texts(game_id: str) -> Callable[[str], str]:
    """Resolve rule-text references (city and guild names) in English from the game's data file.

    The command names a few cities or guilds of a large file, so each name is read from the line of
    the file's `[text]` table that defines it (`"city.ghent" = { en = "Ghent", cs = "Gent" }`); the
    whole file is parsed (companion/texts.py) only for a text written otherwise."""
    path = os.path.join(shared_dir("data"), f"{game_id}.toml")
    lines: list[str] | None = None
    table: dict[str, Any] | None = None

    def one_line(key: str) -> str | None:
        nonlocal lines
        if lines is None:
            try:
                with open(path, encoding="utf-8") as handle:
                    lines = handle.read().splitlines()
            except OSError:
                lines = []
        head, start = "", f'"{key}" = {{'
        for line in lines:
            if line.startswith("["):
                head = line.strip()
            elif head == "[text]" and line.startswith(start):
                return _english_of(line, key, len(start) - 1)
        return None

    def resolve(key: str) -> str:
        nonlocal table
        found = one_line(key.removeprefix(f"{game_id}."))
        if found is not None:
            return found
        if table is None:
            from . import texts

            table = texts.load(texts.DATA_DIR / f"{game_id}.toml")[0] if os.path.exists(path) else {}
        return table.get(key, {}).get("en", key.rsplit(".", 1)[-1])
    return resolve


def default_data_dir() -> str:
    env = os.environ.get("COMPANION_DATA_DIR")
    if env:
        return env
    import platformdirs

    return platformdirs.user_data_dir("companion", appauthor=False)


def _store(folder: str) -> Store:
    """The store of the data folder; OSError (a folder that is a file, not writable, ...) for the caller."""
    from .store import Store

    return Store(folder)


def _folder_failure(folder: str, error: OSError) -> int:
    from .store import os_reason

    return _fail(f"cannot use the data folder {folder}: {os_reason(error).english()}")


def export(kind: str, data_dir: str | None) -> int:
    """Every stored game to standard output (see companion/exchange.py for the formats)."""
    from . import exchange

    folder = data_dir or default_data_dir()
    try:
        store = _store(folder)
    except OSError as error:
        return _folder_failure(folder, error)
    if kind == "json":
        sys.stdout.write(exchange.export_json(store) + "\n")
    elif kind == "bgstats":
        sys.stdout.write(exchange.export_bgstats(store) + "\n")
    else:
        sys.stdout.write(exchange.export_csv(store, excel_cs=kind == "csv-excel-cs"))
    return 0


def import_(path: str, data_dir: str | None) -> int:
    """Games from a JSON export or a BG Stats export; exit 2 with one message (and nothing changed: the
    data folder is not even opened) if it is refused. Safe while the server runs: the store writes under the folder's lock."""
    from . import exchange

    try:
        with open(path, "rb") as handle:
            raw = handle.read(exchange.MAX_BYTES + 1)
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return _fail(f"FILE: cannot read {path}: {getattr(error, 'strerror', None) or error}")
    try:
        checked = exchange.check_json(text)
    except exchange.ImportRefused as error:
        return _fail(f"refused, nothing was changed: {error}")
    folder = data_dir or default_data_dir()
    try:
        imported, skipped = exchange.store_new(_store(folder), checked)
    except OSError as error:
        return _folder_failure(folder, error)
    print(f"imported {imported} game(s), {skipped} already stored")
    return 0


def backup(path: str, data_dir: str | None) -> int:
    """The data folder as a zip file (see companion/backup.py); exit 2 with one message if it cannot be read."""
    from . import backup as archive

    folder = data_dir or default_data_dir()
    try:
        blob = archive.backup(folder)
    except archive.BackupRefused as error:
        return _fail(str(error))
    except OSError as error:
        return _fail(f"cannot read the data folder {folder}: {error.strerror or error}")
    try:
        if path == "-":
            sys.stdout.buffer.write(blob)
            sys.stdout.flush()
        else:
            with open(path, "wb") as handle:
                handle.write(blob)
    except OSError as error:
        return _fail(f"FILE: cannot write {path}: {error.strerror or error}")
    return 0


def restore(path: str, data_dir: str | None) -> int:
    """A backup back into the data folder; exit 2 with one message (and nothing changed) if it is
    refused, cannot be unpacked, or a server serves the folder (its phones would keep a state that is gone)."""
    from . import backup as archive
    from .store import server_of

    try:
        with open(path, "rb") as handle:
            blob = handle.read(archive.MAX_BYTES + 1)
    except OSError as error:
        return _fail(f"FILE: cannot read {path}: {error.strerror or error}")
    folder = data_dir or default_data_dir()
    server = server_of(folder)
    if server is not None:
        return _fail(f"refused, nothing was changed: a companion server serves {folder} "
                     f"({_server_words(server)}); stop it first, or restore from the app's Finished games screen")
    try:
        games, aside = archive.restore(folder, blob)
    except archive.BackupRefused as error:
        return _fail(f"refused, nothing was changed: {error}")
    except OSError as error:
        return _fail(f"restoring into {folder} failed: {error.strerror or error} "
                     "(any data already moved aside is in its before-restore-* folder)")
    print(f"restored {games} game(s)" + (f"; the previous data is in {aside}" if aside else ""))
    return 0


def _server_words(holder: dict[str, Any]) -> str:
    return ", ".join(f"{k} {holder[k]}" for k in ("pid", "url") if k in holder) or "pid unknown"


def build_web(out_dir: str) -> int:
    """The static app (companion/web/build.py); exit 2 with one message if it cannot be built."""
    from .web.build import BuildError, build

    try:
        built = build(out_dir)
    except (BuildError, OSError) as error:
        return _fail(str(error))
    print(f"built {built.folder}: {built.files} files, {built.size / 1e6:.1f} MB (app.tar.zst "
          f"{built.archive / 1e6:.2f} MB), version {built.version}, in {built.seconds:.1f} s")
    if not built.bytecode:
        print("note: node.js (18 or newer) was not found, so the modules are not compiled: the app starts "
              "more slowly", file=sys.stderr)
    return 0


def serve(host: str | None, port: int, data_dir: str | None, lan: bool = False) -> int:
    """The web app; refused (exit 2) when another server already serves the data folder."""
    from .store import FolderInUse, claim_server

    folder = data_dir or default_data_dir()
    shown = "127.0.0.1" if host in (None, "0.0.0.0", "") or lan else host
    try:
        os.makedirs(folder, exist_ok=True)
        claim_server(folder, {"pid": os.getpid(), "url": f"http://{shown}:{port}"})
    except FolderInUse as error:
        return _fail(f"the data folder {folder} is in use by a companion server ({_server_words(error.holder)}); "
                     "stop it first, or use another --data-dir")
    except OSError as error:
        return _folder_failure(folder, error)
    from .server import run

    return run(host=host, port=port, data_dir=folder, lan=lan)
