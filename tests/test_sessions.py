"""A phone that left costs the server nothing: its tab is not redrawn on news from the others, and its
session is closed soon after (server.SESSION_TIMEOUT). A phone back before that catches up.

The server runs in this process (uvicorn in a thread), so the test sees each tab's Shell; the phones
speak the app's websocket protocol (tests/phone.py). (Flet starts its sweep of expired sessions once
per process, and not again once that event loop has ended: each server here gets its own sweep.)"""
from __future__ import annotations

import asyncio
import gc
import socket
import threading
import time
import weakref

import pytest

from companion import server
from companion.store import Store
from companion.ui import app as ui_app
from tests.phone import Phone
from tests.test_screens import CARCASSONNE


async def until(predicate, timeout: float = 10, what: str = "the condition") -> None:
    """Wait on the event loop until `predicate()` holds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


def shell_of(shells, session_id):
    """The Shell of the tab whose Flet session is `session_id` (None while it has none)."""
    return next((ref() for ref in shells if ref() is not None and ref().page.session.id == session_id), None)


@pytest.fixture
def served(tmp_path, monkeypatch, request):
    """The web app on a free port, with one Carcassonne game and sessions kept `request.param`
    seconds after their connection is gone; yields (url, game id, shells, draws)."""
    import uvicorn
    from flet_web.fastapi import app_manager

    store = Store(tmp_path)
    store.set_setting("language", "en")
    from companion.ui.viewmodel import ViewModel

    vm = ViewModel(store)
    assert vm.new_game("carcassonne", CARCASSONNE) and vm.dispatch("begin")
    shells, draws = [], {}
    render, init = ui_app.Shell.render, ui_app.Shell.__init__

    def counted_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        shells.append(weakref.ref(self))

    def counted_render(self):
        draws[id(self)] = draws.get(id(self), 0) + 1
        return render(self)

    monkeypatch.setattr(ui_app.Shell, "__init__", counted_init)
    monkeypatch.setattr(ui_app.Shell, "render", counted_render)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setattr(app_manager, "_FletAppManager__evict_sessions_task", None)  # see the docstring
    config = uvicorn.Config(server.web_app(store, str(tmp_path), session_timeout=request.param), host="127.0.0.1",
                            port=port, log_level="warning", ws="websockets-sansio")
    runner = uvicorn.Server(config)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not runner.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", vm.session["id"], shells, draws
    runner.should_exit = True
    thread.join(30)


def test_the_default_session_of_a_phone_that_left_closes_within_a_minute():
    assert server.SESSION_TIMEOUT <= 60


@pytest.mark.parametrize("served", [1], indirect=True)
def test_a_phone_that_left_is_not_redrawn_and_its_session_is_closed_soon(served):
    url, sid, shells, draws = served

    async def table():
        gone = await Phone(url, f"/game/{sid}", name="gone").connect()
        stays = await Phone(url, f"/game/{sid}", name="stays").connect()
        await gone.close()
        await until(lambda: shell_of(shells, gone.session_id).gone, what="the server to see the connection end")
        left = shell_of(shells, gone.session_id)
        before = draws[id(left)]
        assert not left.page.controls             # its screen is let go at once
        for n in range(1, 6):                      # the other phone goes on tapping
            assert await stays.tap(f"meeple-red-{'plus' if n % 2 else 'minus'}")
            shown = f"{n % 2} / 7"
            await until(lambda shown=shown: stays.text("meeples-red") == shown, what=shown)  # drawn before the next tap
        assert stays.text("meeples-red") == "1 / 7"
        assert draws[id(left)] == before          # ... and the phone that left is never redrawn
        await stays.close()
        return weakref.ref(left)

    left = asyncio.run(table())
    deadline = time.monotonic() + 30               # session timeout 1 s, Flet's sweep every 10 s
    while left() is not None and time.monotonic() < deadline:
        gc.collect()
        time.sleep(0.5)
    assert left() is None, "the session of the phone that left was not closed"


@pytest.mark.parametrize("served", [1], indirect=True)
def test_phones_that_leave_while_their_first_screen_is_on_its_way_are_closed_too(served):
    url, sid, shells, draws = served

    async def visits():
        for n in range(10):  # gone before the server has sent what it was sending: the sends fail
            phone = await Phone(url, f"/game/{sid}").connect(wait=False)
            await asyncio.sleep(0.005 * (1 + n % 3))
            await phone.close()

    asyncio.run(visits())
    deadline = time.monotonic() + 30
    while sum(ref() is not None for ref in shells) > 1 and time.monotonic() < deadline:
        gc.collect()
        time.sleep(0.5)
    # (Flet's sweep keeps the last session it looked at in a local variable until it next finds one:
    # one closed session may outlive its closing.)
    alive = [ref() for ref in shells if ref() is not None]
    assert len(shells) == 10 and len(alive) <= 1, f"{len(alive)} sessions of phones that left stayed"


def test_a_frame_for_a_phone_that_left_goes_nowhere_and_the_handler_goes_on():
    """flet's handler marks the session disconnected only after its last send: that must not raise."""
    from uvicorn.protocols.utils import ClientDisconnected

    done = []

    async def handler(scope, receive, send):
        await send({"type": "websocket.send", "bytes": b"\x00one"})  # the phone is gone: the send fails
        await send({"type": "websocket.send", "bytes": b"\x00two"})
        done.append("disconnected")

    async def leaving(message):
        raise ClientDisconnected()

    asyncio.run(server.Departures(handler)({"type": "websocket"}, None, leaving))
    assert done == ["disconnected"]


@pytest.mark.parametrize("served", [60], indirect=True)
def test_a_phone_back_before_its_session_closed_shows_what_was_saved_meanwhile(served):
    url, sid, shells, draws = served

    async def table():
        away = await Phone(url, f"/game/{sid}", name="away").connect()
        stays = await Phone(url, f"/game/{sid}", name="stays").connect()
        await away.close()
        await until(lambda: shell_of(shells, away.session_id).gone, what="the server to see the phone leave")
        assert await stays.tap("meeple-green-plus")
        await until(lambda: stays.text("meeples-green") == "1 / 7", what="the save")
        back = await Phone(url, f"/game/{sid}", name="back", session_id=away.session_id).connect()
        await until(lambda: back.text("meeples-green") == "1 / 7", what="the catch-up")
        assert back.session_id == away.session_id and back.text("meeples-green") == "1 / 7"
        assert await stays.tap("meeple-green-plus")  # and it hears of the next save again
        await until(lambda: back.text("meeples-green") == "2 / 7", what="the next save")
        assert back.text("meeples-green") == "2 / 7"
        await back.close()
        await stays.close()

    asyncio.run(table())
