"""The registries: playable games (id → GameDef), and final scoring for `companion score`.

A new game is one module plus one line in GAMES. A game's final scoring may land before its
screens: it is then in SCORERS only, and the home screen does not offer it yet.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple

from ..engine.model import GameDef
from . import carcassonne, elfenland, flanders_1302, princes_of_the_renaissance, village

#: Games the app can play (the home screen lists these).
GAMES: dict[str, GameDef] = {g.id: g for g in (flanders_1302.GAME, village.GAME, princes_of_the_renaissance.GAME,
                                                carcassonne.GAME, elfenland.GAME)}


class Scorer(NamedTuple):
    """`companion score NAME`: the game's id (its data file names cities and guilds) and its scoring."""

    game_id: str
    score: Callable[[Any], dict]


SCORERS: dict[str, Scorer] = {
    g.cli_name: Scorer(g.id, g.score_cli) for g in GAMES.values()
}
