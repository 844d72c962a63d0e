"""Village: the end of the game: the final actions, also when the end comes during a market day
(rulebook "Konec hry", "Zvláštní případ"; FACTS §2.8): `_end_trigger`, `final_action_order`, and the
counts the final scoring takes from the board: `_finish`."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import InvalidAction, Msg, N_
from .box import TRAVEL_MARKERS, _player, _seat, in_church, living
from .mass import open_mass

def _end_trigger(state: dict, args: Mapping, config: Mapping) -> None:
    """A member took the last chronicle space or the last grave: the final actions follow (after the
    market day, if one is running: who started it is recorded, since it decides the order)."""
    colour, _ = _player(state, config, args)
    state["phase"] = "final_actions"
    state["end"] = {"trigger": colour, "market": state["market"]["trigger"] if state["market"] else None,
                    "acted": []}
    state["turn"] = _seat(config, final_action_order(state, config)[0])


def final_action_order(state: Mapping, config: Mapping) -> list[str]:
    """Who still gets a final action, in order: everyone but the trigger player, clockwise after him.
    Ended during a market day by someone other than its starter: every player, clockwise after the
    starter, who acts last (seed 001, end of the game)."""
    n = len(config["players"])
    end = state["end"]
    if end["market"] is not None and end["market"] != end["trigger"]:
        seat = _seat(config, end["market"])
        return [config["players"][(seat + k) % n]["colour"] for k in range(1, n + 1)]
    seat = _seat(config, end["trigger"])
    return [config["players"][(seat + k) % n]["colour"] for k in range(1, n)]


def _final_action_done(state: dict, config: Mapping, colour: str) -> None:
    order = final_action_order(state, config)
    state["end"]["acted"].append(colour)
    remaining = [c for c in order if c not in state["end"]["acted"]]
    if remaining:
        state["turn"] = _seat(config, remaining[0])
    else:
        state["phase"] = "mass"
        state["mass"] = open_mass(True)


def _finish(state: dict, args: Mapping, config: Mapping) -> None:
    """The final scoring: travel and council counts from the board; everything else from the books."""
    entries = args.get("players")
    if not isinstance(entries, Mapping):
        raise InvalidAction(Msg(N_("Enter the travel and council counts for every player.")))
    final = {}
    for colour, player in state["players"].items():
        entry = entries.get(colour)
        if not isinstance(entry, Mapping):
            raise InvalidAction(Msg(N_("Enter the travel and council counts for every player.")))
        cities = entry.get("cities_visited")
        if isinstance(cities, bool) or not isinstance(cities, int) or not 0 <= cities <= TRAVEL_MARKERS:
            raise InvalidAction(Msg(N_("Cities visited: 0 to 6 (a family has 6 markers for the map).")),
                                field=f"{colour}.cities_visited")
        council = entry.get("council")
        if (not isinstance(council, list) or len(council) != 4
                or any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in council)):
            raise InvalidAction(Msg(N_("Enter the members on each council stage.")), field=f"{colour}.council")
        if sum(council) + in_church(player) > living(player):
            raise InvalidAction(Msg(N_("More members in the council and the church than living ones.")),
                                field=f"{colour}.council")
        final[colour] = {"cities_visited": cities, "council": list(council)}
    state["final"] = final
    state["phase"] = "over"
