"""The new-game form every game shares: players in seat order with names and colours, and who starts."""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping, Sequence

from .model import InvalidAction, Msg, N_

NAME_LENGTH = 24


def check_seats(raw: Mapping[str, Any], colours: Sequence[str], low: int, high: int) -> tuple[list[dict[str, Any]], int]:
    """The players (clockwise, each `{"colour", "name"}`, colours distinct) and the start seat.

    Raises InvalidAction naming the field (`players`, `players.1.name`, `start`, ...).
    """
    players = raw.get("players") or []
    if not isinstance(players, list) or not low <= len(players) <= high:
        raise InvalidAction(Msg(N_("This game needs {low} to {high} players."), {"low": low, "high": high})
                            if low != high else Msg(N_("This game is for exactly {n} players."), {"n": low}),
                            field="players")
    seen: set[object] = set()
    clean = []
    for i, player in enumerate(players):
        if not isinstance(player, Mapping):
            raise InvalidAction(Msg(N_("Enter a name.")), field=f"players.{i}.name")
        colour, name = player.get("colour"), player.get("name") or ""
        name = name.strip() if isinstance(name, str) else ""
        if colour not in colours:
            raise InvalidAction(Msg(N_("Choose a colour.")), field=f"players.{i}.colour")
        if colour in seen:
            raise InvalidAction(Msg(N_("Each player needs a different colour.")), field=f"players.{i}.colour")
        if not name:
            raise InvalidAction(Msg(N_("Enter a name.")), field=f"players.{i}.name")
        if len(name) > NAME_LENGTH:
            raise InvalidAction(Msg(N_("A name can have at most 24 characters.")), field=f"players.{i}.name")
        seen.add(colour)
        clean.append({"colour": colour, "name": name})
    start = raw.get("start", 0)
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < len(clean):
        raise InvalidAction(Msg(N_("Choose who starts.")), field="start")
    return clean, start
