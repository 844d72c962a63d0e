"""Teach mode ("Teach us" / "Naučte nás hrát"): what the app says to a group that has never played.

Pure Python (no Flet, no TinyDB). This module keeps what every game shares: which games teach, the
group at the table, the cards (before setup, and at the end of the game), setup lines, step texts and
recap (fixed prose in `data/<game>.toml` under `teach.*` keys in Czech and English), the round's
steps in order, and when teaching is open. A game teaches when its data file has the teaching cards.

A variant that plays differently has texts of its own: `teach.<variant>.<key>` stands in for
`teach.<key>` where it exists (Flanders' two-player game: `teach.two.card.win.body`), so a variant
says only what differs.

What is a game's own lives in its folder, `companion/games/<id>/teach.py`, found by the registry's
folder and optional; it may define
- `variant(config)`: the variant whose own texts come first (without it: none);
- `round_of(state, log)`: the round the game is in (without it: `state["round"]`);
- `step(config, state)`: the step whose texts are shown (without it: `state["step"]`);
- `round_steps(config)`: the steps of a round, in order, as `step` names them (without it: the
  game's own steps, each named by `step`);
- `TURN_ENDS`: the actions that end a player's turn in a game whose turns go through the same steps
  again (Carcassonne's "Next player"): the next turn shows its step anew (without it: a step is shown
  once until another step comes);
- `explain(config, state, names, log)`: the explanation on the spot, built from the game's own state
  and its rules' own results so it carries this table's names and numbers, shown each time the event
  happens in round 1 (without it: none; the game teaches with its cards and step texts only).
"""
from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Container, Mapping
from functools import cache
from types import ModuleType
from typing import Any

from . import games, texts
from .engine.model import Msg, Ref

#: The three cards before setup, in order: how you win, what a round looks like, what scores.
CARDS = ("win", "round", "score")

#: The card at the end of the game: what scores at the end and why.
END = "end"

#: Settings key of the groups that have been taught a game (`group`): a later game of the same group
#: starts with teaching folded away.
TAUGHT = "teach.taught"


@cache
def _texts(game_id: str) -> frozenset[str]:
    """The keys of a game's texts (empty for a game without a data file)."""
    path = texts.data_file(game_id)
    return frozenset(texts.load(path)[0]) if path.exists() else frozenset()


def teaches(game_id: str, keys: Container[str] | None = None) -> bool:
    """The game has teaching texts (the score sheet, the players' own game, has none). `keys`: the text
    keys already at hand (the app's rule-text table), else the game's data file is read."""
    return f"{game_id}.teach.card.win.title" in (_texts(game_id) if keys is None else keys)


@cache
def _part(game_id: str) -> ModuleType | None:
    """The game's own teaching, `companion/games/<id>/teach.py` (None: it has none)."""
    name = f"{games.__name__}.{game_id}.teach"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None


def _own(game_id: str, name: str) -> Callable[..., Any] | None:
    """A function of the game's own teaching (None: the game leaves it to the shared default)."""
    found: Callable[..., Any] | None = getattr(_part(game_id), name, None)
    return found


def group(game_id: str, config: Mapping[str, Any]) -> str:
    """The group at the table for a game: the game and the players' names (any order, any case)."""
    names = sorted(" ".join(p["name"].split()).casefold() for p in config["players"])
    return "|".join([game_id, *names])


def variant(game_id: str, config: Mapping[str, Any]) -> str | None:
    """The variant whose own teaching texts come first (None: the game's texts serve every variant)."""
    own = _own(game_id, "variant")
    return own(config) if own else None


def _ref(game_id: str, config: Mapping[str, Any], tail: str) -> Ref:
    """`teach.<tail>`, or the variant's own `teach.<variant>.<tail>` where it has one."""
    played = variant(game_id, config)
    key = f"{game_id}.teach.{played}.{tail}"
    return Ref(key if played and key in _texts(game_id) else f"{game_id}.teach.{tail}")


def card(game_id: str, which: str, config: Mapping[str, Any]) -> tuple[Ref, Ref]:
    """A card's title and body (one of `CARDS`, or `END`)."""
    return _ref(game_id, config, f"card.{which}.title"), _ref(game_id, config, f"card.{which}.body")


def setup_why(game_id: str, item_id: str, config: Mapping[str, Any]) -> Ref:
    """"What is this for" of a setup item (items that differ only by player count share one line)."""
    family = re.sub(r"_\d+$", "", item_id)
    return _ref(game_id, config, f"setup.{family}")


def recap(game_id: str, config: Mapping[str, Any]) -> list[Ref]:
    """The three lines after round 1."""
    return [_ref(game_id, config, f"recap.{i}") for i in (1, 2, 3)]


def round_of(game_id: str, state: Mapping[str, Any], log: list[dict[str, Any]]) -> int:
    """The round the game is in (a game's teach.py may count otherwise: Princes by the decade,
    Carcassonne by the lap of turns)."""
    own = _own(game_id, "round_of")
    found: int = own(state, log) if own else state["round"]
    return found


def first_round(game_id: str, state: Mapping[str, Any], log: list[dict[str, Any]]) -> bool:
    """Setup or round 1: the time teaching is open."""
    return state.get("phase") == "setup" or (state.get("phase") not in ("over", "final", "scoring", "tally")
                                             and round_of(game_id, state, log) == 1)


def step(game_id: str, config: Mapping[str, Any], state: Mapping[str, Any]) -> str | None:
    """The step whose "how to do it" and "why it matters" are shown (None: none)."""
    if state.get("phase") == "setup":
        return None
    own = _own(game_id, "step")
    return own(config, state) if own else state.get("step")


def round_steps(game_id: str, config: Mapping[str, Any]) -> list[str]:
    """The steps of a round in order, as `step` names them: the list that keeps every step's "how to
    do it" one tap away, also a step the group went past without stopping."""
    own = _own(game_id, "round_steps")
    if own:
        listed: list[str] = own(config)
        return listed
    named = (step(game_id, config, {"phase": "round", "step": s.id}) for s in games.GAMES[game_id].steps(config))
    return list(dict.fromkeys(s for s in named if s))


def turns_ended(game_id: str, log: list[dict[str, Any]]) -> int:
    """The turns ended so far in a game whose turns go through the same steps again (its `TURN_ENDS`;
    0 in the others): a step's card open on its first showing comes folded on the next turn."""
    ends = getattr(_part(game_id), "TURN_ENDS", ())
    return sum(1 for a in log if a.get("type") in ends)


def how(game_id: str, step_id: str) -> tuple[Ref, Ref]:
    """A step's "how to do it" and "why it matters"."""
    return Ref(f"{game_id}.teach.step.{step_id}.how"), Ref(f"{game_id}.teach.step.{step_id}.why")


def _names(config: Mapping[str, Any]) -> dict[str, str]:
    return {p["colour"]: p["name"] for p in config["players"]}


# ----------------------------------------------------------------------------------------------
# On the spot: each time an event happens, with this table's names and numbers


def explain(game_id: str, config: Mapping[str, Any], state: Mapping[str, Any], log: list[dict[str, Any]]) -> list[Msg]:
    """The explanation of the event the state shows (empty when there is none to explain)."""
    own = _own(game_id, "explain")
    return own(config, state, _names(config), log) if own else []
