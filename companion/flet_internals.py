"""Every use companion makes of Flet's internals (names Flet does not document and may change in any
release), in one module, so that an upgrade of Flet is this file: `FLET_VERSION` is the version
they were written for (pyproject.toml pins `flet[web]` to it), and tests/test_flet_internals.py
fails loudly on another, naming each internal to check again.

- `set_fields`: a control's properties, read from Flet's `_values` (the shell's walk over a draw);
- `control_id`: the id Flet gives a control (`_i`: the one a phone's event names);
- `intercept_lost_events`: the session's `dispatch_event` replaced, to answer a tap on a control
  the session no longer holds (Flet drops it in silence);
- `connection_closing`: the web connection's private send queue (`_FletApp__send_queue`);
- `frame_fault`: the web client's frames (`flet.messaging.protocol`: a 0 byte, then msgpack of
  `[action, body]`) checked before flet-web reads them.

The phone-alone build also edits flet-web's files as text (companion/web/build.py: `_patch_index`,
`_patch_bootstrap`, `_patch_main`); each edit fails the build if its text is not found, and the test
checks them against the installed flet-web.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import flet as ft

#: The Flet (and flet-web) release whose internals this module reads.
FLET_VERSION = "1.0.5"

#: What the web client sends (`flet.messaging.protocol.MessageAction` and each body's dataclass):
#: each action's fields and their types.
CLIENT_ACTIONS: dict[int, dict[str, tuple[type, ...]]] = {1: {"session_id": (str, type(None)), "page_name": (str,), "page": (dict,)},
                  3: {"target": (int,), "name": (str,), "data": (object,)},
                  4: {"id": (int,), "props": (dict,)},
                  5: {"control_id": (int,), "call_id": (str,), "result": (object,), "error": (str, type(None))}}
REGISTER = 1


def set_fields(control: ft.BaseControl) -> list[tuple[str, Any]]:
    """The fields of `control` that hold something else than their default, as (name, value): a handler,
    a child control, a list of them. Flet 1.0 keeps its properties in `_values` (only the ones not at
    their default) and its other fields as attributes, so this reads a handful of entries instead of
    every one of a control's 60-140 fields (walking those was half of a redraw's cost).
    tests/test_screens.py checks it against `dataclasses.fields` on every screen."""
    values = getattr(control, "_values", None)
    found = list(values.items()) if values else []
    found.extend((name, value) for name, value in vars(control).items() if not name.startswith("_"))
    return found


def control_id(control: ft.BaseControl) -> int | None:
    """The id Flet gave `control` (the one a phone's event names), or None before it has one."""
    return getattr(control, "_i", None)


LostEvent = Callable[[int, str, Any], Awaitable[None]]


def intercept_lost_events(page: Any, lost: LostEvent) -> bool:
    """Send each event of the page's phone for a control its session no longer holds (a tap on a screen
    the server has replaced meanwhile) to `lost(control_id, event_name, event_data)` instead of Flet,
    which drops it in silence; the others go to Flet as before. False (nothing done) for a page with no
    session: one drawn in this process (the tests' screens)."""
    session: Any = getattr(page, "session", None)
    dispatch = getattr(session, "dispatch_event", None)
    if dispatch is None:
        return False

    async def dispatch_event(control_id: int, event_name: str, event_data: Any) -> None:
        if control_id in session.index:
            await dispatch(control_id, event_name, event_data)
        else:
            await lost(control_id, event_name, event_data)

    session.dispatch_event = dispatch_event
    return True


def connection_closing(page: Any) -> bool:
    """Whether the phone's connection is closing: Flet 1.0.5's web connection lets go of its send
    queue before the session hears of it, and a draw in between would fail (the phone gets the
    whole screen when it comes back). A connection already gone, or a session let go, is closing too:
    a timer set before the phone left must not outlive it."""
    try:
        session = getattr(page, "session", None)
        if session is None:
            return False  # a page drawn in this process (the tests' screens): there is no connection
        connection = session.connection
    except RuntimeError:  # the session itself was let go
        return True
    return connection is None or getattr(connection, "_FletApp__send_queue", True) is None


def frame_fault(message: Mapping[str, Any], registered: bool) -> tuple[str | None, bool]:
    """What is wrong with one websocket message from a phone (None: nothing), and whether it is the
    phone's registration. flet-web's own handler lets a frame it cannot read end the connection with a
    traceback; here such a frame is found first: a text frame, bytes that are not msgpack, an action
    the client never sends, fields of the wrong names or types, or anything but a registration first.
    (Empty frames, data-channel frames and frames of other types flet-web drops quietly itself.)"""
    import msgpack  # type: ignore[import-untyped]  # msgpack ships no type hints
    from flet.messaging.protocol import decode_ext_from_msgpack

    data = message.get("bytes")
    if data is None:
        return "a text frame", False
    if not data or data[0] != 0:
        return None, False
    try:
        action, body = msgpack.unpackb(data[1:], ext_hook=decode_ext_from_msgpack)
    except Exception as error:  # noqa: BLE001 - whatever msgpack makes of bytes that are not a frame
        return f"not a frame ({type(error).__name__})", False
    fields = CLIENT_ACTIONS.get(action) if isinstance(action, int) and not isinstance(action, bool) else None
    if fields is None:
        return f"an action the client never sends ({str(action)[:20]!r})", False
    if not isinstance(body, dict) or set(body) != set(fields) or not all(
            isinstance(body[name], kinds) and not isinstance(body[name], bool) or kinds == (object,)
            for name, kinds in fields.items()):
        return f"action {action} with fields of the wrong names or types", False
    if action != REGISTER and not registered:
        return f"action {action} before the registration", False
    return None, action == REGISTER
