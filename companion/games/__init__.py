"""The registries: playable games (id → GameDef), and final scoring for `companion score`.

A new game is one module plus one line in REGISTRY. Only what is used is imported: `GAMES` (every
GameDef, for the app) imports every game module the first time it is read, and a scorer of
`SCORERS` imports only its own game's module when it scores, so `companion score flanders-1302`
starts without loading the four other games.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine.model import GameDef

#: Every game in the order the home screen lists them: its id (its module in this package, and
#: `GameDef.id`) and its name on the command line (`GameDef.cli_name`).
REGISTRY = (("flanders_1302", "flanders-1302"), ("village", "village"),
            ("princes_of_the_renaissance", "princes-of-the-renaissance"), ("carcassonne", "carcassonne"),
            ("elfenland", "elfenland"), ("score_sheet", "score-sheet"))

#: The game ids, known without importing any game.
GAME_IDS = tuple(game_id for game_id, _ in REGISTRY)

#: Games the app can play (id → GameDef); built on first use by the module's __getattr__ below.
GAMES: dict[str, GameDef]


def game(game_id: str) -> GameDef:
    """One game's definition, importing its module only (`companion.games.<game_id>`: a module or a
    folder with an `__init__.py`, whichever the game is)."""
    definition: GameDef = importlib.import_module(f"{__name__}.{game_id}").GAME
    return definition


def __getattr__(name: str) -> Any:
    if name == "GAMES":
        games = {game_id: game(game_id) for game_id in GAME_IDS}
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


SCORERS: dict[str, Scorer] = {cli_name: Scorer(game_id) for game_id, cli_name in REGISTRY}
