"""What `companion serve` does with websockets that misbehave (tests/phone.py speaks the protocol):
one that opens and closes before it registers, or never registers, is let go within seconds and
does not hold up a SIGTERM; a malformed frame from a phone is one line in the log, and a phone
that keeps sending them is disconnected."""
from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time

import msgpack
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from companion import server
from tests.conftest import ROOT
from tests.phone import Phone, pack
from tests.test_gate import free_port, raw


class Serving:
    """`companion serve` on a free port, its log in a file."""

    def __init__(self, folder):
        self.port, self.log = free_port(), folder / "server.log"
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", str(self.port),
                                          "--data-dir", str(folder / "data")], cwd=ROOT,
                                         stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 60
        while raw(self.port, "GET / HTTP/1.1", f"127.0.0.1:{self.port}") == "":
            assert self.proc.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        self.url = f"http://127.0.0.1:{self.port}"

    def websocket(self):
        return connect(f"ws://127.0.0.1:{self.port}/ws", additional_headers={"Origin": self.url})

    def memory(self) -> int:
        """The server's resident memory in MB."""
        with open(f"/proc/{self.proc.pid}/status") as status:
            return next(int(line.split()[1]) // 1024 for line in status if line.startswith("VmRSS"))

    def stop(self) -> float:
        """SIGTERM; the seconds until the server has exited (killed after 10 s: a failure)."""
        started = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        return time.monotonic() - started

    def logged(self) -> str:
        return self.log.read_text()


@pytest.fixture
def serving(tmp_path):
    running = Serving(tmp_path)
    yield running
    if running.proc.poll() is None:
        running.stop()


async def half_open(serving: Serving, count: int) -> None:
    """`count` websockets that open and close before they register (a phone losing the signal)."""
    for _ in range(count):
        websocket = await serving.websocket()
        await websocket.close()


@pytest.mark.parametrize("count", [1, 100])
def test_sigterm_stops_serve_within_2_s_after_half_open_websockets(serving, count):
    asyncio.run(half_open(serving, count))
    time.sleep(0.5)
    assert serving.stop() < 2
    assert "Traceback" not in serving.logged()


def test_a_thousand_half_open_websockets_leave_the_memory_flat(serving):
    asyncio.run(half_open(serving, 20))  # the first connections warm the server up
    time.sleep(1)
    before = serving.memory()
    asyncio.run(half_open(serving, 1000))
    time.sleep(2)
    after = serving.memory()
    assert after - before < 15, (before, after)  # before the fix: 58 -> 134 MB
    assert serving.stop() < 2


def test_a_websocket_that_never_registers_is_closed_within_seconds(serving):
    async def idle() -> float:
        started = time.monotonic()
        async with serving.websocket() as websocket:
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(websocket.recv(), server.REGISTER_WITHIN + 5)
        return time.monotonic() - started

    assert asyncio.run(idle()) < server.REGISTER_WITHIN + 2
    assert serving.stop() < 2


BAD_FRAMES = {"not msgpack": b"\x00\xc1", "an unknown action": b"\x00" + msgpack.packb([99, {}]),
              "a server's action": b"\x00" + msgpack.packb([2, {"id": 1, "patch": []}]),
              "fields missing": b"\x00" + msgpack.packb([3, {"target": 1}]),
              "a name as a number": b"\x00" + msgpack.packb([3, {"target": 1, "name": 5, "data": None}]),
              "not a list": b"\x00" + msgpack.packb("hello"), "text": "hello"}


def test_a_bad_frame_is_one_line_in_the_log_and_a_phone_that_keeps_sending_them_is_disconnected(serving):
    async def table() -> tuple[list, str | None]:
        kept = []
        phone = await Phone(serving.url).connect()  # well formed, but no route where the app reads one
        await phone._ws.send(pack(3, {"target": phone.tree["_i"], "name": "route_change", "data": 5}))
        await asyncio.sleep(0.5)  # (an event whose answer finds the phone gone is flet's own traceback)
        await phone.close()
        for frame in BAD_FRAMES.values():
            phone = await Phone(serving.url).connect()
            await phone._ws.send(frame)
            await phone.tap("nav-history")  # the phone goes on working
            await phone.wait_for("export-json", 10)
            kept.append(phone.dropped)
            await phone.close()
        phone = await Phone(serving.url).connect()
        for frame in list(BAD_FRAMES.values())[:server.BAD_FRAMES]:
            await phone._ws.send(frame)
        deadline = time.monotonic() + 10
        while phone.dropped is None and time.monotonic() < deadline:  # the server closes the connection
            await asyncio.sleep(0.05)
        dropped = phone.dropped
        await phone.close()
        return kept, dropped

    kept, dropped = asyncio.run(table())
    assert kept == [None] * len(BAD_FRAMES) and "1008" in dropped
    log = serving.logged()
    assert "Traceback" not in log
    assert log.count("a malformed frame from 127.0.0.1") == len(BAD_FRAMES) + server.BAD_FRAMES - 1
    assert log.count("closed: 3 malformed frames") == 1
    assert serving.stop() < 2
