"""Table mode: every player's phone on one server, admitted by the table's secret join link.

`companion serve --lan` binds to the local network and prints `Join: <url>` with a fresh token
(192 random bits, url-safe). Opening the join link sets an HTTP-only cookie and goes to the app;
any other request without that cookie (the page, its files, the app's websocket) gets a refusal
page in both languages and nothing else: no game, no player name. The host's own browser on
127.0.0.1 is let in without the link.

In every mode (plain and table) the gate also answers only requests made to the server's own
addresses: the `Host` must be 127.0.0.1, localhost, [::1] or the LAN address (or the address given
with `--host`), with the server's port, so a page of another site whose name is made to point at
this machine (DNS rebinding) gets nothing; and a request that carries an `Origin` (every browser's
websocket does, and every cross-site fetch) must come from one of those addresses, so a page of
another site open in the laptop's own browser cannot reach the app.
"""
from __future__ import annotations

import hmac
import io
import re
import secrets
import socket
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable

if TYPE_CHECKING:  # starlette is the server's (the phone-alone archive has no server)
    from starlette.types import ASGIApp, Receive, Scope, Send

COOKIE = "companion_table"
LOOPBACK = ("127.0.0.1", "::1")
#: The names every server answers to (the laptop's own browser); `own_hosts` adds the LAN address.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
#: What `new_token` makes: 24 random bytes, url-safe base64 (a stored token of another shape is not used).
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{32}")

REFUSAL = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>companion</title>
<style>body{background:#000;color:#eee;font:18px/1.5 sans-serif;margin:2em}h1{color:#ffd54f;font-size:24px}</style>
</head><body>
<h1>Tento stůl je zavřený</h1>
<p>Ke hře se připojíte jen odkazem nebo QR kódem, který ukazuje hostitel: zeptejte se ho na něj.</p>
<h1>This table is closed</h1>
<p>You can join only with the link or QR code the host shows: ask the host for it.</p>
</body></html>"""

FOREIGN = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>companion</title>
<style>body{background:#000;color:#eee;font:18px/1.5 sans-serif;margin:2em}h1{color:#ffd54f;font-size:24px}</style>
</head><body>
<h1>Tato adresa nepatří aplikaci companion</h1>
<p>Otevřete adresu, kterou companion vypsal při spuštění (na tomto počítači http://127.0.0.1 s jeho portem).</p>
<h1>This address is not companion's</h1>
<p>Open the address companion printed when it started (on this computer, http://127.0.0.1 with its port).</p>
</body></html>"""


def new_token() -> str:
    """The table's secret: 24 random bytes (192 bits), url-safe."""
    return secrets.token_urlsafe(24)


def is_token(value: Any) -> bool:
    """Whether `value` has the shape of a token `new_token` made."""
    return isinstance(value, str) and TOKEN_SHAPE.fullmatch(value) is not None


def _route_address() -> str | None:
    """The address the default route leaves from (no packet is sent), or None without a default route."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


#: Where Linux describes each network interface (`_is_up` reads it).
SYS_NET = "/sys/class/net"


def _is_up(name: str) -> bool:
    """Whether the interface `name` is up and running (a cable in, a Wi-Fi joined, a hotspot shared).
    Linux says so in /sys/class/net/<name>/operstate ("unknown" for one that reports no carrier
    state: loopback, many VPNs); an interface that is up but has nothing connected (a docker or
    virtual-machine bridge with no guest, an Ethernet port with no cable) keeps its address but is
    not offered. Elsewhere (macOS, Windows) an interface with an IPv4 address counts as up."""
    try:
        with open(f"{SYS_NET}/{name.partition(':')[0]}/operstate", encoding="ascii") as state:
            return state.read().strip() in ("up", "unknown")
    except OSError:
        return True


def _interface_addresses() -> list[str]:
    """The IPv4 address of each interface that is up and running and not loopback, in the system's
    order (ifaddr: getifaddrs on Linux and macOS, GetAdaptersAddresses on Windows)."""
    import ifaddr  # here, not above: the phone-alone build ships this module (storage reads the token) without it

    try:
        adapters = list(ifaddr.get_adapters())
    except OSError:
        return []
    found = [ip.ip for adapter in adapters if _is_up(adapter.name)
             for ip in adapter.ips if isinstance(ip.ip, str)]  # an IPv6 address is a tuple
    return [address for address in dict.fromkeys(found) if not address.startswith("127.")]


def lan_addresses() -> list[str]:
    """This machine's addresses on the local networks, the best for the join link first: the one the
    default route leaves from, when there is a default route; else (a hotspot or a Wi-Fi with no way
    out) each up interface's, link-local ones (169.254.x.x, no DHCP answered) last."""
    found = _interface_addresses()
    route = _route_address()
    if route:
        found = [route, *(address for address in found if address != route)]
    return sorted(found, key=lambda address: address.startswith("169.254."))


def lan_address() -> str:
    """The address the join link holds (the first of `lan_addresses`), or 127.0.0.1 without a network."""
    return next(iter(lan_addresses()), "127.0.0.1")


def own_hosts(bind: str, lan: bool, link: str | None = None) -> set[str]:
    """The host names the server answers to: the loopback names, every LAN address when it serves
    the network (`--lan`, or `--host 0.0.0.0`), else the address it was told to bind to; and the
    join link's host (`link`: what `--host` named in table mode)."""
    hosts = set(LOOPBACK_NAMES)
    if lan or bind in ("", "0.0.0.0", "::"):
        hosts.update(lan_addresses() or ["127.0.0.1"])
    else:
        hosts.add(bind.strip("[]").lower())
    if link:
        hosts.add(link.strip("[]").lower())
    return hosts


def _host_and_port(value: str, default_port: int) -> tuple[str, int] | None:
    """`name:port`, `name` or `[v6]:port` split into the lower-case name and the port; None if malformed."""
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket or rest and not rest.startswith(":"):
            return None
        port = rest[1:]
    else:
        name, _, port = value.partition(":")
    if not port:
        return name.lower(), default_port
    if not port.isdecimal() or len(port) > 5:
        return None
    return name.lower(), int(port)


def _cookies(headers: list[tuple[bytes, bytes]], name: bytes) -> list[bytes]:
    """The values of every cookie called `name`, read the way browsers send them: `a=1; b=2` in any
    number of Cookie headers; a pair without `=`, or holding JSON, spaces, quotes, backslashes or
    bytes outside ASCII, is only another cookie, never a reason to ignore the rest."""
    values = []
    for header, value in headers:
        if header != b"cookie":
            continue
        for pair in value.split(b";"):
            key, equals, cookie = pair.partition(b"=")
            if equals and key.strip(b" \t") == name:
                cookie = cookie.strip(b" \t")
                if len(cookie) >= 2 and cookie[:1] == cookie[-1:] == b'"':
                    cookie = cookie[1:-1]
                values.append(cookie)
    return values


def address_url(host: str, port: int) -> str:
    """http://host:port (an IPv6 address in brackets)."""
    host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{host}:{port}"


def join_url(host: str, port: int, token: str) -> str:
    return f"{address_url(host, port)}/join/{token}"


def qr_svg(url: str, border: int = 2) -> bytes:
    """The join link as a QR code (SVG: every dark module a filled square of one path, on white) for
    the phones' home screen. Not a PNG: a browser decodes a picture only on a secure origin (https,
    127.0.0.1), and a phone on http://<laptop-ip> drew an empty square; a vector is drawn by Flutter
    itself. (segno's own SVG draws the modules as stroked lines, which Flutter draws as hairlines.)"""
    import segno

    matrix = segno.make(url, error="m").matrix
    size = len(matrix) + 2 * border
    runs = []
    for y, row in enumerate(matrix):
        x = 0
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                runs.append(f"M{start + border} {y + border}h{x - start}v1h-{x - start}z")
            else:
                x += 1
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size * 8}" '
            f'height="{size * 8}"><rect width="{size}" height="{size}" fill="#fff"/>'
            f'<path fill="#000" d="{"".join(runs)}"/></svg>').encode()


def qr_terminal(url: str) -> str:
    """The join link as a QR code drawn with block characters, for the terminal."""
    import segno

    buffer = io.StringIO()
    segno.make(url, error="m").terminal(out=buffer, compact=True, border=2)
    return buffer.getvalue()


class TableGate:
    """ASGI middleware in front of the app: only the server's own addresses are answered (Host, Origin);
    with a `token` (table mode) the join link admits a phone, nothing else does."""

    def __init__(self, app: ASGIApp, token: str | None, hosts: Iterable[str], port: int, trust_loopback: bool = True):
        self.app, self.token, self.port, self.trust_loopback = app, token, port, trust_loopback
        self.hosts = {host.lower() for host in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if not self._own_address(scope):
            return await self._refuse(scope, send, FOREIGN)
        if self.token is None:
            return await self.app(scope, receive, send)
        path = scope.get("path", "")
        if scope["type"] == "http" and path.startswith("/join/"):
            if hmac.compare_digest(path.removeprefix("/join/").strip("/").encode(), self.token.encode()):
                return await self._admit(send)
            return await self._refuse(scope, send, REFUSAL)
        if self._admitted(scope):
            return await self.app(scope, receive, send)
        return await self._refuse(scope, send, REFUSAL)

    def _own_address(self, scope: Scope) -> bool:
        """The request names this server (Host) and, if it says where it comes from (Origin), comes
        from a page of this server."""
        headers = scope.get("headers", [])
        hosts = [value for name, value in headers if name == b"host"]
        origins = [value for name, value in headers if name == b"origin"]
        if len(hosts) != 1 or len(origins) > 1:
            return False
        if not self._ours(hosts[0].decode("latin-1"), 80):
            return False
        if origins:
            scheme, sep, rest = origins[0].decode("latin-1").partition("://")
            return sep == "://" and scheme.lower() == "http" and "/" not in rest and self._ours(rest, 80)
        return True

    def _ours(self, value: str, default_port: int) -> bool:
        split = _host_and_port(value, default_port)
        return split is not None and split[0] in self.hosts and split[1] == self.port

    def _admitted(self, scope: Scope) -> bool:
        client = scope.get("client") or ("", 0)
        if self.trust_loopback and client[0] in LOOPBACK or self.token is None:
            return True
        token = self.token.encode()
        return any(hmac.compare_digest(value, token) for value in _cookies(scope.get("headers", []), COOKIE.encode()))

    async def _admit(self, send: Send) -> None:
        cookie = f"{COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000"
        await send({"type": "http.response.start", "status": 303,
                    "headers": [(b"location", b"/"), (b"set-cookie", cookie.encode()),
                                (b"cache-control", b"no-store"), (b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})

    async def _refuse(self, scope: Scope, send: Send, page: str) -> None:
        if scope["type"] == "websocket":  # closed before it is accepted: the handshake gets a 403
            await send({"type": "websocket.close", "code": 1008})
            return
        body = page.encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"cache-control", b"no-store"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
