"""A form half filled in survives a reload: the tab's draft (the entries not yet sent, `Shell.draft`)
is kept on the phone (its SharedPreferences, one key per game) with the screen it belongs to, and a
tab that opens the game again on that same screen gets it back.

What the phone hands back is read as hostile: anything but a JSON object for this screen, of a sane
size, is no draft. A draft the screen still cannot draw is dropped by the shell (`Shell.render`),
never the game."""
from __future__ import annotations

import json
from typing import Any

#: The phone's key for a game's draft.
KEY = "companion.draft.{sid}"
#: The longest draft kept (characters of JSON): a form's entries are a few hundred.
MOST = 20_000


def key(sid: str) -> str:
    return KEY.format(sid=sid)


def stored(screen: str, draft: dict[str, Any]) -> str:
    """What the phone keeps for `draft` on `screen`: "" for no draft, and for one that cannot be kept
    (not JSON, or too long: a reload then shows the form empty, never an older draft)."""
    if not draft:
        return ""
    try:
        value = json.dumps({"screen": screen, "draft": draft}, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return ""
    return value if len(value) <= MOST else ""


def recalled(value: object, screen: str) -> dict[str, Any] | None:
    """The draft the phone kept, if it was kept on `screen` and is well formed; else None."""
    if not isinstance(value, str) or not value or len(value) > MOST:
        return None
    try:
        kept = json.loads(value)
    except (ValueError, RecursionError):
        return None
    if not isinstance(kept, dict) or kept.get("screen") != screen:
        return None
    draft = kept.get("draft")
    return draft if isinstance(draft, dict) and draft else None
