"""Ranking helpers shared by every game: tied groups, shared places, points by rank."""
from __future__ import annotations

from typing import Any, TypeVar
from collections.abc import Callable, Iterable, Sequence

from .model import Msg, P_

T = TypeVar("T")


def tied_groups(items: Iterable[T], key: Callable[[T], Any]) -> list[list[T]]:
    """Items sorted by `key` (highest first) and grouped where keys are equal.

    The sort is stable, so items of one group keep their input order.
    """
    ordered = sorted(items, key=key, reverse=True)
    groups: list[list[T]] = []
    for item in ordered:
        if groups and key(groups[-1][0]) == key(item):
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


def positions(groups: Sequence[Sequence[T]]) -> list[tuple[int, int]]:
    """The 1-based first and last position each group occupies ("3rd–5th" is (3, 5))."""
    spans, start = [], 1
    for group in groups:
        spans.append((start, start + len(group) - 1))
        start += len(group)
    return spans


def shared_places(groups: Sequence[Sequence[T]]) -> list[int]:
    """Competition places: a tied group shares its best place and the next place skips (1, 2, 2, 4)."""
    return [first for first, _last in positions(groups)]


def points_lowest_of_tied(groups: Sequence[Sequence[T]], table: Sequence[int]) -> list[int]:
    """Points per group when tied items all take the points of the lowest rank they occupy.

    Ranks beyond the end of `table` score 0.
    """
    return [table[last - 1] if last <= len(table) else 0 for _first, last in positions(groups)]


def places_without_tie_break(rows: list[dict[str, Any]], joined: Callable[[list[dict[str, Any]]], Any]) -> list[Msg]:
    """For games whose rulebook names no tie-break: each row's total is the sum of its breakdown,
    rows are placed by total, tied rows share the place. Returns the lines explaining each tie;
    `joined(group)` names the tied players."""
    for row in rows:
        row["total"] = sum(row["breakdown"].values())
    groups = tied_groups(rows, key=lambda r: r["total"])
    lines = []
    for group, place in zip(groups, shared_places(groups)):
        for row in group:
            row["place"] = place
        if len(group) > 1:
            lines.append(P_("{names} tie with {n} point: the rulebook has no tie-break, so they share place {place}.",
                            "{names} tie with {n} points: the rulebook has no tie-break, so they share place "
                            "{place}.", group[0]["total"], names=joined(group), place=place))
    return lines
