"""The registry of playable games: id → GameDef. A new game is one module plus one line here."""
from __future__ import annotations

from ..engine.model import GameDef
from . import flanders_1302, village

GAMES: dict[str, GameDef] = {g.id: g for g in (flanders_1302.GAME, village.GAME)}


def by_cli_name(name: str) -> GameDef | None:
    """The game that `companion score NAME` refers to, if it is playable."""
    return next((g for g in GAMES.values() if g.cli_name == name), None)
