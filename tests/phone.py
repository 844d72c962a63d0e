"""A phone without a browser: it speaks Flet's websocket protocol the way the web client does.

Learnt from flet/messaging/protocol.py, flet_web/fastapi/flet_app.py and the frames a real Chromium
client exchanged with the server (Playwright's websocket events): each binary frame is `0x00` and a
msgpack `[action, body]`. The client registers (action 1) with its page (route, size) and gets the
whole page back; the server then sends patches of the control tree (action 2: a table of paths and
replace/add/remove/move operations) and asks for client methods (action 5, answered with a result);
the client sends control events (action 3: a tap is `click` on the button's id) and property
changes (action 4).

The phone keeps its own copy of the control tree, so it can find a control by its test id (the
`ft.Semantics` identifier around it, as the browser tests do) and read what the screen shows.
"""
from __future__ import annotations

import asyncio
import time
import urllib.request
from typing import Any
from collections.abc import Callable

import msgpack
from websockets.asyncio.client import connect

REGISTER, PATCH, EVENT, PROPS, METHOD, CRASHED = 1, 2, 3, 4, 5, 6
REPLACE, ADD, REMOVE, MOVE = 0, 1, 2, 3
USER_AGENT = "Mozilla/5.0 (Linux; Android 14) companion-bench-phone"


def pack(action: int, body: Any) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


def unpack(frame: bytes) -> tuple[int, Any] | None:
    if not frame or frame[0] != 0:
        return None
    action, body = msgpack.unpackb(frame[1:], strict_map_key=False)
    return action, body


def join_cookie(join_url: str) -> str:
    """The table's cookie, as a phone gets it by opening the join link."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(join_url, timeout=10)
    except urllib.error.HTTPError as answer:  # the 303 to the app, with the cookie
        return answer.headers["set-cookie"].split(";")[0]
    raise RuntimeError(f"{join_url} did not admit the phone")


class Phone:
    """One browser tab on the app: connect, tap controls by test id, read what they show."""

    def __init__(self, base: str, route: str = "/", cookie: str | None = None, name: str = "phone",
                 session_id: str | None = None):
        self.base, self.route, self.cookie, self.name = base.rstrip("/"), route, cookie, name
        self.session_id = session_id  # the server's session to come back to (a reconnect), or a new one
        self.tree: dict | None = None
        self.frames = 0
        self.received = 0          # bytes
        self.crashed: str | None = None
        self.faults: list[str] = []     # patches the web client could not apply (PatchError)
        self.dropped: str | None = None  # why the connection ended, when the server ended it
        self.on_patch: Callable[[Phone], None] | None = None
        self._ws = None
        self._reader: asyncio.Task | None = None
        self._index: dict[int, dict] = {}
        self._ready = asyncio.Event()
        self._closing = False
        self._held: list | None = None  # patches not yet applied: a phone that lags behind (hold)

    async def connect(self, timeout: float = 30, wait: bool = True) -> Phone:
        """Open the app; with `wait`, until the first screen (one with test ids) has arrived."""
        host = self.base.split("://", 1)[1]
        headers = {"Origin": self.base}
        if self.cookie:
            headers["Cookie"] = self.cookie
        self._ws = await connect(f"ws://{host}/ws", additional_headers=headers, user_agent_header=USER_AGENT,
                                 max_size=None, compression=None, open_timeout=timeout,
                                 ping_interval=None)  # as a browser: the server pings, the phone answers
        page = {"route": self.route, "width": 390.0, "height": 844.0, "web": True, "wasm": True, "pwa": False,
                "pyodide": False, "debug": False, "test": False, "multi_view": False, "platform": "android",
                "platform_brightness": "dark", "window": {},
                "media": {"always_use_24_hour_format": True, "device_pixel_ratio": 3.0, "orientation": "portrait",
                          "padding": {"bottom": 0.0, "left": 0.0, "right": 0.0, "top": 0.0},
                          "view_insets": {"bottom": 0.0, "left": 0.0, "right": 0.0, "top": 0.0},
                          "view_padding": {"bottom": 0.0, "left": 0.0, "right": 0.0, "top": 0.0}}}
        await self._ws.send(pack(REGISTER, {"session_id": self.session_id, "page_name": self.route.strip("/"),
                                            "page": page}))
        self._reader = asyncio.create_task(self._read())
        if wait:
            await asyncio.wait_for(self._ready.wait(), timeout)
        return self

    async def close(self) -> None:
        self._closing = True
        if self._ws is not None:
            try:
                await self._ws.close()
            except Exception:  # noqa: BLE001 - already gone
                pass
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 10)
            except (TimeoutError, Exception):  # noqa: BLE001 - closing: whatever the reader ended with
                self._reader.cancel()
        self._ws = None

    async def _read(self) -> None:
        try:
            async for frame in self._ws:
                self.frames += 1
                self.received += len(frame)
                message = unpack(frame)
                if message is None:
                    continue
                action, body = message
                if action == REGISTER:
                    self.session_id = body["session_id"]
                    self.tree = body["page_patch"]
                    self._index = {}
                elif action == PATCH and self._held is not None:
                    self._held.append(body)
                elif action == PATCH:
                    self._patch(body["id"], body["patch"])
                    if self.on_patch:
                        self.on_patch(self)
                elif action == METHOD:   # e.g. the wake lock, the phone's storage: answered as a browser would
                    await self._ws.send(pack(METHOD, {"call_id": body["call_id"], "control_id": body["control_id"],
                                                      "error": None, "result": None}))
                elif action == CRASHED:
                    self.crashed = str(body)
                if self.tree is not None and self.find_all():
                    self._ready.set()
        except Exception as error:  # noqa: BLE001 - the server ended the connection (or it broke)
            if not self._closing:
                self.dropped = str(error) or type(error).__name__

    def hold(self) -> None:
        """Lag behind: what the server sends from now on arrives but is not shown (a slow network, a
        busy phone), so a tap goes from the screen the phone shows now."""
        if self._held is None:
            self._held = []

    def release(self) -> None:
        """Catch up: show everything held back, in order."""
        held, self._held = self._held or [], None
        for body in held:
            self._patch(body["id"], body["patch"])

    # -- the control tree ------------------------------------------------------------------------------

    def _control(self, ident: int) -> dict:
        control = self._index.get(ident)
        if control is None or control.get("_i") != ident:
            self._index = {}
            _walk(self.tree, self._index)
            control = self._index[ident]
        return control

    def _patch(self, target: int, patch: list) -> None:
        paths: dict[int, list] = {}

        def table(node, path):
            paths[node[0]] = path
            for key, child in (node[1] if len(node) > 1 else {}).items():
                table(child, path + [key])

        table(patch[0], [])
        root = self._control(target)

        def at(node: int):
            obj = root
            for key in paths[node]:
                obj = obj[key]
            return obj

        try:
            for op in patch[1:]:
                _apply(at, op)
        except PatchError as error:  # the web client logs it and goes on with the next patch
            self.faults.append(str(error))
        self._index = {}

    def find_all(self) -> dict[str, dict]:
        """Every control with a test id on the screen: id → the control inside it."""
        found: dict[str, dict] = {}
        _semantics(self.tree, found)
        return found

    def find(self, test_id: str) -> dict | None:
        return self.find_all().get(test_id)

    def texts(self, prefix: str) -> dict[str, str | None]:
        """What every control whose test id starts with `prefix` reads, by test id."""
        return {ident: _first_text(control) for ident, control in self.find_all().items() if ident.startswith(prefix)}

    def text(self, test_id: str) -> str | None:
        """What the control with `test_id` reads (its text, or the first text inside it)."""
        control = self.find(test_id)
        return _first_text(control) if control is not None else None

    async def tap(self, test_id: str) -> bool:
        """Tap the button with `test_id` (False when it is not on the screen)."""
        control = self.find(test_id)
        button = _first_clickable(control) if control is not None else None
        if button is None or self.dropped:
            return False
        try:
            await self._ws.send(pack(EVENT, {"target": button["_i"], "name": "click", "data": None}))
        except Exception as error:  # noqa: BLE001 - the connection is gone: the tap was not sent
            self.dropped = self.dropped or str(error) or type(error).__name__
            return False
        return True

    async def wait_for(self, test_id: str, timeout: float = 30) -> dict:
        deadline = time.monotonic() + timeout
        while (control := self.find(test_id)) is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: {test_id} not shown")
            await asyncio.sleep(0.05)
        return control


class PatchError(Exception):
    """A patch the web client cannot apply: it stops at that operation (a RangeError or a missing
    node in Flutter's client), and the rest of the patch never reaches the screen."""


def _apply(at, op: list) -> None:
    """One operation of a patch, as the web client applies it (Flet's Dart `Control.applyPatch`): a list
    index out of range, or a node that is not there, fails it instead of being forgiven."""
    kind = op[0]
    try:
        if kind == REPLACE:
            obj = at(op[1])
            if isinstance(obj, list) and not 0 <= op[2] < len(obj):
                raise PatchError(f"replace at {op[2]} of {len(obj)}")
            obj[op[2]] = op[3]
        elif kind == ADD:
            obj = at(op[1])
            if isinstance(obj, list):
                if not 0 <= op[2] <= len(obj):
                    raise PatchError(f"add at {op[2]} of {len(obj)}")
                obj.insert(op[2], op[3])
            else:
                obj[op[2]] = op[3]
        elif kind == REMOVE:
            obj = at(op[1])
            if isinstance(obj, list):
                if not 0 <= op[2] < len(obj):
                    raise PatchError(f"remove at {op[2]} of {len(obj)}")
                del obj[op[2]]
            else:
                obj.pop(op[2])
        elif kind == MOVE:
            source, target = at(op[1]), at(op[3])
            if isinstance(source, list):
                if not 0 <= op[2] < len(source):
                    raise PatchError(f"move from {op[2]} of {len(source)}")
                value = source.pop(op[2])
                if not 0 <= op[4] <= len(target):
                    raise PatchError(f"move to {op[4]} of {len(target)}")
                target.insert(op[4], value)
            else:
                target[op[4]] = source.pop(op[2])
        else:
            raise PatchError(f"unknown operation {kind}")
    except (KeyError, IndexError, TypeError, AttributeError) as error:  # a node the client does not have
        raise PatchError(f"{type(error).__name__} at {op[:3]}") from error


def _walk(node, index: dict) -> None:
    if isinstance(node, dict):
        if "_i" in node:
            index[node["_i"]] = node
        for value in node.values():
            _walk(value, index)
    elif isinstance(node, list):
        for value in node:
            _walk(value, index)


def _semantics(node, found: dict) -> None:
    if isinstance(node, dict):
        if node.get("_c") == "Semantics" and node.get("identifier"):
            found[node["identifier"]] = node.get("content") or node
        for value in node.values():
            _semantics(value, found)
    elif isinstance(node, list):
        for value in node:
            _semantics(value, found)


def _first_text(node) -> str | None:
    if isinstance(node, dict):
        if node.get("_c") == "Text" and "value" in node:
            return node["value"]
        for value in node.values():
            if (found := _first_text(value)) is not None:
                return found
    elif isinstance(node, list):
        for value in node:
            if (found := _first_text(value)) is not None:
                return found
    return None


def _first_clickable(node) -> dict | None:
    if isinstance(node, dict):
        if node.get("on_click") and "_i" in node:
            return node
        for value in node.values():
            if (found := _first_clickable(value)) is not None:
                return found
    elif isinstance(node, list):
        for value in node:
            if (found := _first_clickable(value)) is not None:
                return found
    return None
