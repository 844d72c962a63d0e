"""Shared fixtures: the repository's paths, the public examples, and a store on either storage."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.store import Store

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def examples(game: str) -> list[tuple[str, dict, dict]]:
    """(name, input, expected) for each public example of `game` in ../shared/examples."""
    found = []
    for path in sorted((SHARED / "examples").glob(f"{game}.*.input.json")):
        expected = path.with_name(path.name.replace(".input.json", ".expected.json"))
        found.append((path.name.split(".")[1], json.loads(path.read_text()), json.loads(expected.read_text())))
    return found


@pytest.fixture(params=["memory", "file"])
def store(request, tmp_path) -> Store:
    """A store on TinyDB's memory storage and on our atomic JSON file storage."""
    return Store(None if request.param == "memory" else tmp_path / "data")
