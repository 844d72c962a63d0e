"""The rules code stays pure, and `companion score` stays light."""
from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

from companion.games import GAME_IDS, cli_name
from tests.conftest import ROOT, examples

PURE = ["companion/engine", "companion/games"]
#: In a game's folder only its screens may draw (tests/test_purity.py holds the rest to the rules):
#: `screens.py` and the `screens_*.py` modules a long one is split into.
SCREENS = "screens"


@pytest.mark.parametrize("folder", PURE)
def test_rules_code_imports_neither_flet_nor_tinydb(folder):
    for path in (p for p in (ROOT / folder).rglob("*.py")
                 if p.stem != SCREENS and not p.stem.startswith(f"{SCREENS}_")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert name.split(".")[0] not in {"flet", "tinydb", "babel"}, f"{path}: imports {name}"


#: Top-level packages `companion score` must never import: the UI, the server, the database, Babel.
NOT_FOR_SCORING = {"flet", "flet_web", "fastapi", "starlette", "uvicorn", "anyio", "msgpack", "tinydb", "babel"}
#: Writes the loaded modules at the exit of `companion ARGS...`, run as `python -m companion` runs it.
MODULES_AT_EXIT = ("import atexit, runpy, sys\n"
                   "out, sys.argv = sys.argv[1], ['companion', *sys.argv[2:]]\n"
                   "atexit.register(lambda: open(out, 'w').write('\\n'.join(sorted(sys.modules))))\n"
                   "runpy.run_module('companion', run_name='__main__', alter_sys=True)\n")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_score_imports_the_game_it_scores_and_nothing_of_the_ui(game_id, tmp_path):
    """`companion score GAME`: the game's own module (or folder), never another game's, Flet, the server
    or the database (scoring-contract.md); so it starts in at most 1.5 times a bare interpreter."""
    name = cli_name(game_id)
    found = examples(name)
    data = tmp_path / "input.json"
    data.write_text(json.dumps(found[0][1] if found else {}))  # without ../shared: the refusal path
    out = tmp_path / "modules.txt"
    done = subprocess.run([sys.executable, "-c", MODULES_AT_EXIT, str(out), "score", name, str(data)],
                          capture_output=True, text=True, cwd=ROOT, timeout=30)
    assert done.returncode == (0 if found else 2), done.stderr
    loaded = out.read_text().split("\n")
    assert f"companion.games.{game_id}" in loaded
    assert [m for m in loaded if m.startswith("companion.games.") and m.split(".")[2] != game_id] == []
    assert f"companion.games.{game_id}.screens" not in loaded
    assert [m for m in loaded if m.split(".")[0] in NOT_FOR_SCORING] == []
    assert [m for m in loaded if m.startswith(("companion.ui", "companion.store", "companion.server",
                                               "companion.web", "companion.i18n"))] == []


#: What storage may not import: it keeps bytes and shapes, and knows no game (companion/storage/__init__.py).
ABOVE_STORAGE = {"companion.games", "companion.engine", "companion.history", "companion.referee", "companion.ui",
                 "companion.teach", "companion.store"}


def test_storage_imports_no_game_no_engine_and_nothing_above_it():
    for path in (ROOT / "companion" / "storage").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = "companion" if node.level == 2 else "companion.storage" if node.level == 1 else ""
                module = ".".join(part for part in (base, node.module or "") if part)
                names = [module] + ([f"{module}.{a.name}" for a in node.names] if node.level == 2 else [])
            else:
                continue
            for name in names:
                assert not any(name == banned or name.startswith(banned + ".") for banned in ABOVE_STORAGE), \
                    f"{path.relative_to(ROOT)} imports {name}"
