"""What the view-model shares with its helpers: one change at a time, a refused write, a problem."""
from __future__ import annotations

import functools
import logging
from dataclasses import dataclass

from ..engine.model import InvalidAction, Msg, N_
from ..store import os_reason

log = logging.getLogger("companion.ui.viewmodel")


def _locked(method):
    """One change at a time per screen: a tap and news from another phone never interleave."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with self.lock:
            return method(self, *args, **kwargs)
    return wrapper


def _writes(method):
    """A change that writes to the data folder: when the disk refuses it (full, read-only, no
    permission), the screen says that nothing was recorded and why, and shows what it showed."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
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
NO_DETAILS = {"minutes": None, "place": "", "note": ""}
