"""The `companion` command: `serve` (the default), `score`, `export`, `import`, `backup`, `restore` and
`build-web`.

`score` is a pure function of its input: it imports neither Flet nor TinyDB and never opens
the app's database (scoring-contract.md). Heavy imports happen only inside `serve`.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from .engine.inputs import InputError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Rulebook companion and scoring assistant.")
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="serve the web app (the default)")
    _serve_options(serve)
    score = sub.add_parser("score", help="final scoring from JSON (scoring-contract.md)")
    score.add_argument("game", metavar="GAME")
    score.add_argument("file", metavar="FILE", nargs="?", default="-")
    export = sub.add_parser("export", help="every stored game as CSV or JSON on standard output")
    export.add_argument("--format", choices=("csv", "json"), default="json")
    export.add_argument("--data-dir", default=None)
    load = sub.add_parser("import", help="take back games from a JSON export (nothing changes if it is refused)")
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
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8550)
    parser.add_argument("--data-dir", default=None,
                        help="where the database lives (default: $COMPANION_DATA_DIR or the user data directory)")
    parser.add_argument("--lan", action="store_true",
                        help="table mode: serve the local network; phones join with the printed link or QR code")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["serve", *argv]
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


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def score(game_name: str, path: str) -> int:
    """Score a finished game from JSON; exit 0 with the result, or 2 with one clear message."""
    from .games import SCORERS  # the registry is pure: no Flet, no TinyDB

    scorer = SCORERS.get(game_name)
    if scorer is None:
        return _fail(f"GAME: unknown game {game_name!r} (one of: {', '.join(SCORERS)})")
    try:
        if path == "-":
            raw = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                raw = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        return _fail(f"FILE: cannot read {path}: {getattr(error, 'strerror', None) or error}")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as error:
        return _fail(f"input is not valid JSON: {error}")
    try:
        result = scorer.score(data)
    except InputError as error:
        return _fail(str(error))
    except RecursionError:
        return _fail("input is nested too deeply")
    result["explain"] = [line.english(_english_texts(scorer.game_id)) for line in result.get("explain", [])]
    try:
        json.dump(result, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (`| head`): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _english_texts(game_id: str):
    """Resolve rule-text references (city and guild names) in English from the game's data file."""
    from . import texts

    path = texts.DATA_DIR / f"{game_id}.toml"
    table = texts.load(path)[0] if path.exists() else {}
    return lambda key: table.get(key, {}).get("en", key.rsplit(".", 1)[-1])


def default_data_dir() -> str:
    env = os.environ.get("COMPANION_DATA_DIR")
    if env:
        return env
    import platformdirs

    return platformdirs.user_data_dir("companion", appauthor=False)


def export(kind: str, data_dir: str | None) -> int:
    """Every stored game to standard output (see companion/exchange.py for the formats)."""
    from . import exchange
    from .store import Store

    store = Store(data_dir or default_data_dir())
    sys.stdout.write(exchange.export_csv(store) if kind == "csv" else exchange.export_json(store) + "\n")
    return 0


def import_(path: str, data_dir: str | None) -> int:
    """Games from a JSON export; exit 2 with one message (and nothing changed) if it is refused."""
    from . import exchange
    from .store import Store

    try:
        with open(path, "rb") as handle:
            raw = handle.read(exchange.MAX_BYTES + 1)
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return _fail(f"FILE: cannot read {path}: {getattr(error, 'strerror', None) or error}")
    store = Store(data_dir or default_data_dir())
    try:
        imported, skipped = exchange.import_json(store, text)
    except exchange.ImportRefused as error:
        return _fail(f"refused, nothing was changed: {error}")
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
    """A backup back into the data folder; exit 2 with one message (and nothing changed) if it is refused."""
    from . import backup as archive

    try:
        with open(path, "rb") as handle:
            blob = handle.read(archive.MAX_BYTES + 1)
    except OSError as error:
        return _fail(f"FILE: cannot read {path}: {error.strerror or error}")
    folder = data_dir or default_data_dir()
    try:
        games, aside = archive.restore(folder, blob)
    except archive.BackupRefused as error:
        return _fail(f"refused, nothing was changed: {error}")
    except OSError as error:
        return _fail(f"restoring into {folder} failed: {error.strerror or error} "
                     "(any data already moved aside is in its before-restore-* folder)")
    print(f"restored {games} game(s)" + (f"; the previous data is in {aside}" if aside else ""))
    return 0


def build_web(out_dir: str) -> int:
    """The static app (companion/web/build.py); exit 2 with one message if it cannot be built."""
    from .web.build import BuildError, build

    try:
        built = build(out_dir)
    except (BuildError, OSError) as error:
        return _fail(str(error))
    print(f"built {built.folder}: {built.files} files, {built.size / 1e6:.1f} MB (app.tar.gz "
          f"{built.archive / 1e6:.2f} MB), version {built.version}, in {built.seconds:.1f} s")
    if not built.bytecode:
        print("note: node.js (18 or newer) was not found, so the modules are not compiled: the app starts "
              "more slowly", file=sys.stderr)
    return 0


def serve(host: str, port: int, data_dir: str | None, lan: bool = False) -> int:
    from .server import run

    return run(host=host, port=port, data_dir=data_dir or default_data_dir(), lan=lan)
