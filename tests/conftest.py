"""Shared fixtures: the repository's paths, the public examples, a store on either storage, and a
game session driven action by action."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine import flow
from companion.engine.model import InvalidAction
from companion.store import Store

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
#: Why the tests of the shared material are skipped in a bare clone (present, it must yield cases).
NO_SHARED = (f"../shared is not beside the repository ({SHARED} is missing, a bare clone): the public "
             "scoring examples and the rulebook seeds are not checked")
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason=NO_SHARED)


def examples(game: str) -> list[tuple[str, dict, dict]]:
    """(name, input, expected) for each public example of `game` in ../shared/examples (none in a bare
    clone: the tests that read them are marked `needs_shared`)."""
    found = []
    for path in sorted((SHARED / "examples").glob(f"{game}.*.input.json")):
        expected = path.with_name(path.name.replace(".input.json", ".expected.json"))
        found.append((path.name.split(".")[1], json.loads(path.read_text()), json.loads(expected.read_text())))
    return found


def game_folder(game_id: str) -> Path:
    """A game's folder: companion/games/<id>/, or its folder in an extra games folder (`COMPANION_GAMES`)."""
    return Path(importlib.import_module(f"companion.games.{game_id}").__file__ or "").parent


def game_examples(game_id: str):
    """A game's `examples.py` (its folder's `SCRIPT` and `CONFIGS`): what the conformance tests play."""
    return importlib.import_module(f"companion.games.{game_id}.examples")


@pytest.fixture(params=["memory", "file"])
def store(request, tmp_path) -> Store:
    """A store on TinyDB's memory storage and on our atomic JSON file storage."""
    return Store(None if request.param == "memory" else tmp_path / "data")


@pytest.fixture(scope="session")
def web_build(tmp_path_factory) -> Path:
    """One static build of the app (`companion build-web`, in process) for the whole run: the build's
    own tests (tests/test_build_web.py) and the phone alone's (tests/browser/test_offline.py) share it;
    nothing may change it."""
    from companion.web.build import build
    return build(tmp_path_factory.mktemp("web") / "site").folder


def run_score(game: str, payload, *args: str) -> subprocess.CompletedProcess:
    """`python -m companion score GAME [ARGS]` with `payload` (an object, or raw text) on stdin."""
    data = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run([sys.executable, "-m", "companion", "score", game, *args], input=data,
                          capture_output=True, text=True, cwd=ROOT, timeout=30)


def assert_refused(done: subprocess.CompletedProcess, field: str) -> None:
    """Bad input: exit 2, nothing on stdout, one `error:` line naming the field, no traceback."""
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: ") and field in done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


class Table:
    """A game session driven action by action, as the app drives it; `state` is after the last action.

    A game's tests subclass it with `game` (its GameDef) and `form` (the default new-game form).
    """

    game = None
    form: dict = {}

    def __init__(self, form=None, begin=True):
        self.config = self.game.new_config(self.form if form is None else form)
        self.state = flow.initial(self.game, self.config)
        if begin:
            self.do("begin")

    def do(self, kind, **args):
        self.state = flow.apply(self.game, self.config, self.state, {"type": kind, "args": args})
        return self.state

    def refused(self, kind, field=None, **args):
        """The action is refused (naming `field`, if given) and the state is the same object as before."""
        before = self.state
        with pytest.raises(InvalidAction) as caught:
            self.do(kind, **args)
        assert self.state is before
        if field:
            assert caught.value.field == field
        return caught.value


def pytest_terminal_summary(terminalreporter) -> None:
    """Say which tests were skipped and why, grouped by reason (a bare clone skips those of ../shared)."""
    why: dict[str, list[str]] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        why.setdefault(reason.removeprefix("Skipped: "), []).append(report.nodeid)
    if why:
        terminalreporter.section("skipped, and why")
        for reason, nodes in why.items():
            terminalreporter.write_line(f"{len(nodes)} skipped: {reason}")
            for node in nodes:
                terminalreporter.write_line(f"    {node}")
