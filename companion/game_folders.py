"""Folders of games besides companion/games: `COMPANION_GAMES` names them (separated by the OS's path
separator), each holding `<id>/` folders laid out like companion/games' own, each game's texts in its
folder as `<id>/<id>.toml` (instead of data/<id>.toml). For a game being written elsewhere, and for the
tests' toy sixth game (tests/test_sixth_game.py).

Read by the registry (companion/games/__init__.py: their games are modules of that package) and by the
texts (companion/texts.py); it imports nothing of the app, so reading texts imports no game registry.
"""
from __future__ import annotations

import os
from pathlib import Path

EXTRA_FOLDERS = tuple(Path(folder) for folder in os.environ.get("COMPANION_GAMES", "").split(os.pathsep) if folder)
