"""The registry: every folder of this package is a game (`companion/games/<id>/`, see its
`__init__.py`), found by looking, not by a list: adding a game is adding its folder.

Games may also live outside this package, in the folders `COMPANION_GAMES` names
(companion/game_folders.py): their games join this package's, as its modules.

Only what is used is imported: `GAME_IDS` reads the folder names; `GAMES` (every GameDef, for the
app, in the home screen's order) imports every game's rules the first time it is read; a scorer of
`SCORERS` imports only its own game's rules when it scores, so `companion score flanders-1302`
starts without loading the other games.
"""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..game_folders import EXTRA_FOLDERS

if TYPE_CHECKING:
    from ..engine.model import GameDef


def discover(folder: Path) -> tuple[str, ...]:
    """The games in `folder`: every subfolder with an `__init__.py`, or only its `__init__.pyc` (the
    phone-alone build ships compiled modules), by name."""
    return tuple(sorted({path.parent.name for path in folder.glob("*/__init__.py*")}))


__path__.extend(str(folder) for folder in EXTRA_FOLDERS)

#: The game ids (each a folder of this package or of an extra folder), known without importing any game.
GAME_IDS = tuple(sorted({*discover(Path(__file__).parent), *(g for folder in EXTRA_FOLDERS for g in discover(folder))}))

#: Games the app can play (id → GameDef, in `GameDef.order`); built on first use by __getattr__ below.
GAMES: dict[str, GameDef]


def cli_name(game_id: str) -> str:
    """A game's name on the command line: its id with dashes (`flanders_1302` → `flanders-1302`)."""
    return game_id.replace("_", "-")


def game(game_id: str) -> GameDef:
    """One game's definition, importing its rules only."""
    definition: GameDef = importlib.import_module(f"{__name__}.{game_id}").GAME
    return definition


def __getattr__(name: str) -> Any:
    if name == "GAMES":
        games = dict(sorted(((game_id, game(game_id)) for game_id in GAME_IDS), key=lambda item: item[1].order))
        globals()["GAMES"] = games
        return games
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Scorer:
    """`companion score NAME`: the game's id (its data file names cities and guilds) and its scoring.
    A plain class: a NamedTuple would cost `companion score` a few per cent of its start."""

    __slots__ = ("game_id",)

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id

    def score(self, data: Any) -> dict[str, Any]:
        return game(self.game_id).score_cli(data)


SCORERS: dict[str, Scorer] = {cli_name(game_id): Scorer(game_id) for game_id in GAME_IDS}
