"""`bench/bench.py --help` prints its commands (it was a traceback), and an unknown name is refused
with the list of commands before anything is measured."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=60)


def test_help_prints_every_command():
    done = run("--help")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    for command in ("record", "score", "web", "history", "replay", "load", "table-ws", "taps", "fuzz"):
        assert f"- {command}" in done.stdout


def test_an_unknown_benchmark_is_named_and_nothing_runs():
    done = run("record", "nonsense")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "unknown benchmark: nonsense" in done.stderr and "table-ws" in done.stderr
