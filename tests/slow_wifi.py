"""The network a phone meets at a real table: a proxy on loopback that holds every chunk of data, each
way, for 50-300 ms (a new random delay per chunk, with jitter), never reordering them.

    with SlowWifi(("127.0.0.1", 8550), listen=("::1", 8550)) as wifi:
        ...  # phones connect to wifi.url

It runs its own event loop in a thread, so both the websocket phones of tests/phone.py and Playwright's
browsers (the tests' main thread) can use it. A chunk is what one read returns (up to 64 KiB), so a
frame may arrive in pieces at different times, as over a radio link. It listens on loopback only
(IPv4 or IPv6) and connects only to the address it is given; every loop ends when either side closes
or the proxy stops.
"""
from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import threading
import time

#: The delay of each chunk, each way, in seconds: a busy home Wi-Fi or a phone's hotspot.
SLOW = (0.05, 0.3)
CHUNK = 65536


class SlowWifi:
    """A delaying TCP proxy from `listen` to `upstream` (host, port pairs; listen's port 0: any free one)."""

    def __init__(self, upstream: tuple[str, int], listen: tuple[str, int] = ("127.0.0.1", 0),
                 delay: tuple[float, float] = SLOW, seed: int | None = None):
        if listen[0] not in ("127.0.0.1", "::1", "localhost"):
            raise ValueError("the proxy listens on loopback only")
        self.upstream, self.listen, self.delay = upstream, listen, delay
        self.random = random.Random(seed)
        self.port = 0
        self.chunks = 0                      # chunks carried, both ways
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task] = set()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    @property
    def url(self) -> str:
        host = f"[{self.listen[0]}]" if ":" in self.listen[0] else self.listen[0]
        return f"http://{host}:{self.port}/"

    def __enter__(self) -> SlowWifi:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> SlowWifi:
        self._thread = threading.Thread(target=self._run, name="slow-wifi", daemon=True)
        self._thread.start()
        if not self._ready.wait(10) or not self.port:
            raise RuntimeError(f"the slow Wi-Fi proxy could not listen on {self.listen}")
        return self

    def stop(self) -> None:
        loop = self._loop
        if loop is None or self._thread is None:
            return
        asyncio.run_coroutine_threadsafe(self._close(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        self._thread.join(10)
        self._loop = None

    def _run(self) -> None:
        loop = self._loop = asyncio.new_event_loop()
        try:
            family = socket.AF_INET6 if ":" in self.listen[0] else socket.AF_INET
            self._server = loop.run_until_complete(asyncio.start_server(
                self._carry, self.listen[0], self.listen[1], family=family))
            self.port = self._server.sockets[0].getsockname()[1]
        except OSError:
            self._ready.set()
            return
        self._ready.set()
        loop.run_forever()
        loop.close()

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _carry(self, phone_in: asyncio.StreamReader, phone_out: asyncio.StreamWriter) -> None:
        """One connection: its two directions, each delayed on its own."""
        try:
            server_in, server_out = await asyncio.open_connection(*self.upstream)
        except OSError:
            phone_out.close()
            return
        ways = [asyncio.ensure_future(self._way(phone_in, server_out)),
                asyncio.ensure_future(self._way(server_in, phone_out))]
        self._tasks.update(ways)
        try:
            await asyncio.gather(*ways, return_exceptions=True)
        finally:
            self._tasks.difference_update(ways)
            for writer in (phone_out, server_out):
                writer.close()

    async def _way(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Read chunks as they come and write each one its delay later, in order (a chunk never
        overtakes the one before it)."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, chunk = await queue.get()
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                if not chunk:
                    with contextlib.suppress(OSError):
                        writer.write_eof()
                    return
                writer.write(chunk)
                await writer.drain()
                self.chunks += 1

        sender = asyncio.ensure_future(deliver())
        last = 0.0
        try:
            while True:
                chunk = await reader.read(CHUNK)
                last = max(last, time.monotonic() + self.random.uniform(*self.delay))
                queue.put_nowait((last, chunk))
                if not chunk:
                    break
            await sender
        except (OSError, asyncio.CancelledError):
            sender.cancel()
            raise
