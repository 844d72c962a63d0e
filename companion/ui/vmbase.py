"""What the view-model shares with its helpers: one change at a time, a refused write, a problem."""
from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from ..engine.model import InvalidAction, Msg, N_
from ..store import os_reason

log = logging.getLogger("companion.ui.viewmodel")


class _Screen(Protocol):
    """What the two decorators below use of the view-model."""

    @property
    def lock(self) -> AbstractContextManager[Any]: ...

    def _refuse(self, error: InvalidAction) -> bool: ...


S = TypeVar("S", bound=_Screen)
P = ParamSpec("P")
R = TypeVar("R")


def _locked(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """One change at a time per screen: a tap and news from another phone never interleave."""
    @functools.wraps(method)
    def wrapper(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self.lock:
            return method(self, *args, **kwargs)
    return wrapper


def _writes(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R | bool]:
    """A change that writes to the data folder: when the disk refuses it (full, read-only, no
    permission), the screen says that nothing was recorded and why (False), and shows what it showed."""
    @functools.wraps(method)
    def wrapper(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R | bool:
        try:
            return method(self, *args, **kwargs)
        except OSError as error:
            log.warning("a write to the data folder failed: %s", error)
            return self._refuse(InvalidAction(Msg(N_("Nothing was recorded: {reason}."),
                                                  {"reason": os_reason(error)})))
    return wrapper


@dataclass
class Problem:
    """An invalid entry: the message in the reader's language and the field it is about."""

    text: str
    field: str | None = None


#: A finished game's details before anyone entered them (the play time: first to last action).
NO_DETAILS: dict[str, Any] = {"minutes": None, "place": "", "note": ""}
