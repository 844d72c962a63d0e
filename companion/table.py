"""Table mode: every player's phone on one server, admitted by the table's secret join link.

`companion serve --lan` binds to the local network and prints `Join: <url>` with a fresh token
(192 random bits, url-safe). Opening the join link sets an HTTP-only cookie and goes to the app;
any other request without that cookie (the page, its files, the app's websocket) gets a refusal
page in both languages and nothing else: no game, no player name. The host's own browser on
127.0.0.1 is let in without the link.
"""
from __future__ import annotations

import hmac
import io
import secrets
import socket
from http.cookies import SimpleCookie

COOKIE = "companion_table"
LOOPBACK = ("127.0.0.1", "::1")

REFUSAL = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>companion</title>
<style>body{background:#000;color:#eee;font:18px/1.5 sans-serif;margin:2em}h1{color:#ffd54f;font-size:24px}</style>
</head><body>
<h1>Tento stůl je zavřený</h1>
<p>Ke hře se připojíte jen odkazem nebo QR kódem, který ukazuje hostitel: zeptejte se ho na něj.</p>
<h1>This table is closed</h1>
<p>You can join only with the link or QR code the host shows: ask the host for it.</p>
</body></html>"""


def new_token() -> str:
    """The table's secret: 24 random bytes (192 bits), url-safe."""
    return secrets.token_urlsafe(24)


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or 127.0.0.1 without one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def join_url(host: str, port: int, token: str) -> str:
    return f"http://{host}:{port}/join/{token}"


def qr_png(url: str) -> bytes:
    """The join link as a QR code image (PNG) for the host's screen."""
    import segno

    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="png", scale=8, border=2, dark="#000", light="#fff")
    return buffer.getvalue()


def qr_terminal(url: str) -> str:
    """The join link as a QR code drawn with block characters, for the terminal."""
    import segno

    buffer = io.StringIO()
    segno.make(url, error="m").terminal(out=buffer, compact=True, border=2)
    return buffer.getvalue()


class TableGate:
    """ASGI middleware in front of the app: the join link admits a phone, nothing else does."""

    def __init__(self, app, token: str, trust_loopback: bool = True):
        self.app, self.token, self.trust_loopback = app, token, trust_loopback

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        path = scope.get("path", "")
        if scope["type"] == "http" and path.startswith("/join/"):
            if hmac.compare_digest(path.removeprefix("/join/").strip("/").encode(), self.token.encode()):
                return await self._admit(send)
            return await self._refuse(send)
        if self._admitted(scope):
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return None
        return await self._refuse(send)

    def _admitted(self, scope) -> bool:
        client = scope.get("client") or ("", 0)
        if self.trust_loopback and client[0] in LOOPBACK:
            return True
        for name, value in scope.get("headers", []):
            if name == b"cookie":
                cookie = SimpleCookie()
                try:
                    cookie.load(value.decode("latin-1"))
                except Exception:  # noqa: BLE001 - a malformed cookie header admits nobody
                    return False
                if COOKIE in cookie and hmac.compare_digest(cookie[COOKIE].value.encode(), self.token.encode()):
                    return True
        return False

    async def _admit(self, send) -> None:
        cookie = f"{COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000"
        await send({"type": "http.response.start", "status": 303,
                    "headers": [(b"location", b"/"), (b"set-cookie", cookie.encode()),
                                (b"cache-control", b"no-store"), (b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})

    async def _refuse(self, send) -> None:
        body = REFUSAL.encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"cache-control", b"no-store"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
