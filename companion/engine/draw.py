"""Where a game's random legal actions get their choices (`Draw`), and the player for an action.

The property tests (tests/fuzz.py) play random legal games: the engine's table of allowed actions
says which actions may be made now and by whom, and each game's `examples.arguments` makes the
arguments of one of them from a `Draw`. The tests draw with Hypothesis (so a failing game shrinks to
a short one) and the benchmark the same way with a larger budget. Pure: nothing here draws by itself.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from .model import Rule

T = TypeVar("T")


class Draw(Protocol):
    """A source of choices: each call is one choice, which a failing example shrinks towards the
    simplest (the lowest number, the first option, False)."""

    def integer(self, low: int, high: int) -> int:
        """A whole number from `low` to `high`, both included."""
        ...

    def choice(self, options: Sequence[T]) -> T:
        """One of `options` (not empty)."""
        ...

    def boolean(self) -> bool:
        ...


def player(draw: Draw, rule: Rule, config: Mapping[str, Any]) -> str:
    """A player who may make the action `rule` allows: one it names, else anyone at the table."""
    colours: list[str] = [p["colour"] for p in config["players"]]
    return draw.choice(sorted(rule.by) if rule.by is not None else colours)

