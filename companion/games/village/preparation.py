"""Village: a new game and its setup: components and setup per player count (rulebook "Příprava hry";
FACTS §2.2, §2.3): `new_config`, `setup_items`, `initial_state`."""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from ...engine.model import InvalidAction, Msg, N_
from ...engine.seats import check_seats
from .box import COLOURS, GENERATIONS, ID

def new_config(raw: Mapping) -> dict:
    """Players in seat order (clockwise), the start player, and the time track's length. A game takes 2
    to 4 players; one player's estate is only scored (`score_cli`, as the rulebook's worked example)."""
    players = raw.get("players")
    if isinstance(players, list) and len(players) < 2:
        raise InvalidAction(Msg(N_("A game of Village takes 2 to 4 players. One player's estate, like the "
                                   "rulebook's scoring example, can only be scored: companion score village.")),
                            field="players")
    clean, start = check_seats(raw, COLOURS, 2, 4)
    lap = raw.get("lap")
    if isinstance(lap, bool) or not isinstance(lap, int) or not 4 <= lap <= 60:
        raise InvalidAction(Msg(N_("Count the spaces of the time track from the start to the bridge "
                                   "(4 to 60).")), field="lap")
    return {"game": ID, "variant": "standard", "players": clean, "start": start, "lap": lap}


def setup_items(config: Mapping) -> list[dict]:
    n = len(config["players"])
    items: list[dict[str, Any]] = [{"id": "board"}, {"id": "farmyards"}, {"id": "markers"}, {"id": "coins"},
             {"id": f"customers_{n}"}]
    if n < 4:
        items.append({"id": f"blocked_{n}"})
    items += [{"id": "next_marker"}, {"id": "supply"}, {"id": "setup_card", "params": {"players": n}},
              {"id": "start_player", "params": {"name": config["players"][config["start"]]["name"]}}]
    for item in items:
        item.setdefault("params", {})
    return items


def initial_state(config: Mapping) -> dict:
    return {
        "phase": "setup", "round": 1, "start": config["start"], "turn": config["start"], "next_start": None,
        "step": "seed", "scores": {p["colour"]: 0 for p in config["players"]},
        "players": {p["colour"]: {"time": 0, "coins": 1, "grain": 0, "living": {"1": GENERATIONS["1"]},
                                  "supply": {k: v for k, v in GENERATIONS.items() if k != "1"},
                                  "bag": 0, "windows": [0, 0, 0, 0], "chronicle": 0, "graves": 0,
                                  "removed": 0, "customers": [], "deaths": 0}
                    for p in config["players"]},
        "market": None, "mass": None, "end": None, "last_mass": None, "final": None,
    }
