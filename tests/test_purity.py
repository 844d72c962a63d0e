"""The rules code stays pure, and `companion score` stays light."""
from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from tests.conftest import ROOT

PURE = ["companion/engine", "companion/games"]


@pytest.mark.parametrize("folder", PURE)
def test_rules_code_imports_neither_flet_nor_tinydb(folder):
    for path in (ROOT / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert name.split(".")[0] not in {"flet", "tinydb", "babel"}, f"{path}: imports {name}"


def test_score_command_loads_no_ui_no_database():
    code = ("import sys, io; sys.stdin = io.StringIO('{}'); from companion import cli; "
            "cli.main(['score', 'flanders-1302']); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in {'flet', 'tinydb', 'babel', 'companion'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=30)
    loaded = eval(done.stdout.strip().splitlines()[-1])
    assert not [m for m in loaded if m.split(".")[0] in {"flet", "tinydb", "babel"}]
    assert "companion.store" not in loaded and not [m for m in loaded if m.startswith("companion.ui")]
