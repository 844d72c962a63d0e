"""The gate in front of the app (companion/table.py): only the server's own addresses are answered
(Host, Origin) in plain mode and in table mode, and the join cookie is found among any other
cookies. First on the ASGI level, then against a real `companion serve` in both modes."""
from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time

import pytest

from companion import table
from tests.conftest import ROOT

PORT, LAN = 8550, "192.168.1.20"
TOKEN = table.new_token()


async def _app(scope, receive, send):
    if scope["type"] == "websocket":
        await send({"type": "websocket.accept"})
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"the app"})


def gate(lan: bool = False) -> table.TableGate:
    return table.TableGate(_app, TOKEN if lan else None, {*table.LOOPBACK_NAMES, LAN}, PORT)


def answer(gate: table.TableGate, kind: str = "http", host: str | None = f"127.0.0.1:{PORT}", origin: str | None = None,
           client: str = "127.0.0.1", path: str = "/", headers: tuple = ()) -> str:
    """What the gate answers: "app" (passed through), "closed" (a websocket refused), or the status."""
    sent = []
    scope = {"type": kind, "path": path, "client": (client, 40000),
             "headers": [*([(b"host", host.encode())] if host is not None else []),
                         *([(b"origin", origin.encode())] if origin is not None else []), *headers]}

    async def send(message):
        sent.append(message)

    asyncio.run(gate(scope, None, send))
    first = sent[0]
    if first["type"] == "websocket.accept" or first.get("status") == 200:
        return "app"
    if first["type"] == "websocket.close":
        return "closed"
    return str(first["status"])


@pytest.mark.parametrize("lan", [False, True], ids=["plain", "table"])
@pytest.mark.parametrize("host", [f"127.0.0.1:{PORT}", f"localhost:{PORT}", f"LOCALHOST:{PORT}", f"[::1]:{PORT}",
                                  f"{LAN}:{PORT}"])
def test_the_servers_own_addresses_are_answered(lan, host):
    assert answer(gate(lan), host=host) == "app"
    assert answer(gate(lan), "websocket", host=host, origin=f"http://{host}") == "app"


@pytest.mark.parametrize("lan", [False, True], ids=["plain", "table"])
@pytest.mark.parametrize("host", ["evil.example", f"evil.example:{PORT}", f"127.0.0.1:{PORT + 1}", "127.0.0.1",
                                  f"127.0.0.1.evil.example:{PORT}", f"127.0.0.1:{PORT}@evil", f"[::1:{PORT}", "", None])
def test_another_host_name_gets_nothing(lan, host):
    """DNS rebinding: a name of another site pointed at this machine; the request comes from loopback."""
    for path in ("/", "/download/backup.zip", f"/join/{TOKEN}", "/ws"):
        assert answer(gate(lan), host=host, path=path) == "403"
    assert answer(gate(lan), "websocket", host=host, origin=f"http://{host}") == "closed"


def test_the_refusal_says_what_to_open_and_shows_nothing_of_the_app():
    sent = []

    async def send(message):
        sent.append(message)

    asyncio.run(gate()({"type": "http", "path": "/", "headers": [(b"host", b"evil.example")]}, None, send))
    page = sent[1]["body"].decode()
    assert "This address is not companion's" in page and "Tato adresa nepatří aplikaci companion" in page
    assert "the app" not in page


@pytest.mark.parametrize("lan", [False, True], ids=["plain", "table"])
@pytest.mark.parametrize("origin", ["http://evil.example", f"http://evil.example:{PORT}", f"http://127.0.0.1:{PORT + 1}",
                                    f"https://127.0.0.1:{PORT}", "null", f"http://127.0.0.1:{PORT}/x", "file://"])
def test_a_page_of_another_site_in_the_laptops_browser_cannot_reach_the_app(lan, origin):
    """The right Host (the page talks to 127.0.0.1) but a foreign Origin: its websocket and its
    cross-site fetches are refused, even from loopback, which table mode otherwise trusts."""
    assert answer(gate(lan), "websocket", origin=origin) == "closed"
    assert answer(gate(lan), origin=origin) == "403"
    assert answer(gate(lan), origin=origin, path="/download/backup.zip") == "403"


def test_two_origins_or_two_hosts_are_refused():
    assert answer(gate(), "websocket", origin=f"http://127.0.0.1:{PORT}",
                  headers=((b"origin", b"http://evil.example"),)) == "closed"
    assert answer(gate(), headers=((b"host", b"evil.example"),)) == "403"


def test_a_client_that_is_not_a_browser_sends_no_origin_and_is_answered():
    assert answer(gate(), "websocket") == "app"


def test_table_mode_still_wants_the_join_link_from_the_network():
    phone = {"client": "192.168.1.33", "host": f"{LAN}:{PORT}"}
    assert answer(gate(True), **phone) == "403"
    assert answer(gate(True), "websocket", origin=f"http://{LAN}:{PORT}", **phone) == "closed"
    cookie = ((b"cookie", f"{table.COOKIE}={TOKEN}".encode()),)
    assert answer(gate(True), headers=cookie, **phone) == "app"
    assert answer(gate(True), "websocket", origin=f"http://{LAN}:{PORT}", headers=cookie, **phone) == "app"
    assert answer(gate(True), path=f"/join/{TOKEN}", **phone) == "303"
    assert answer(gate(True), path="/join/" + "x" * 32, **phone) == "403"


OTHER_COOKIES = [
    'prefs={"theme": "dark", "size": 2}',  # JSON
    "greeting=hello world",                # a space
    "name=Bořek".encode().decode("latin-1"),  # bytes outside ASCII (UTF-8)
    r"path=C:\games\x",                    # backslashes
    "flag",                                # no "="
    'quoted="a;b"',                        # a quoted value holding a ";"
    "=orphan",
    "a=1;;b=2",
    "__Host-id=1; Secure",
    f"{table.COOKIE}=wrong-token",         # an older join cookie of the same name (another path)
    "x=" + "y" * 3000,
]


@pytest.mark.parametrize("other", OTHER_COOKIES)
@pytest.mark.parametrize("where", ["before", "after", "header"])
def test_the_join_cookie_is_found_among_any_other_cookies(other, where):
    mine = f"{table.COOKIE}={TOKEN}"
    headers = {"before": [f"{other}; {mine}"], "after": [f"{mine}; {other}"], "header": [other, mine]}[where]
    cookies = tuple((b"cookie", h.encode("latin-1")) for h in headers)
    assert answer(gate(True), client="192.168.1.33", host=f"{LAN}:{PORT}", headers=cookies) == "app"


@pytest.mark.parametrize("header", [f"{table.COOKIE}=wrong", f"x{table.COOKIE}={TOKEN}", f"{TOKEN}",
                                    f"{table.COOKIE}={TOKEN}x", f"other={TOKEN}", "flag; " + 'prefs={"a": 1}'],
                         ids=lambda header: header.replace(TOKEN, "TOKEN"))  # the same ids in every worker
def test_only_the_right_cookie_admits(header):
    assert answer(gate(True), client="192.168.1.33", host=f"{LAN}:{PORT}",
                  headers=((b"cookie", header.encode()),)) == "403"


def test_own_hosts(monkeypatch):
    assert table.own_hosts("127.0.0.1", False) == {"127.0.0.1", "localhost", "::1"}
    assert "10.0.0.5" in table.own_hosts("10.0.0.5", False)
    # this machine, however many interfaces it has: serving the network answers on every LAN address
    assert table.own_hosts("0.0.0.0", False) == {"127.0.0.1", "localhost", "::1", *(table.lan_addresses() or ["127.0.0.1"])}
    # a laptop on a Wi-Fi and a cable: both addresses, not only the join link's
    monkeypatch.setattr(table, "_interface_addresses", lambda: ["192.168.1.5", "10.0.0.7"])
    monkeypatch.setattr(table, "_route_address", lambda: "10.0.0.7")
    assert table.own_hosts("0.0.0.0", False) == {"127.0.0.1", "localhost", "::1", "192.168.1.5", "10.0.0.7"}
    assert table.own_hosts("0.0.0.0", True) == table.own_hosts("::", False) == table.own_hosts("0.0.0.0", False)
    assert table.own_hosts("0.0.0.0", True, "[FD00::5]") == {*table.own_hosts("0.0.0.0", True), "fd00::5"}


# -- a real server ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module", params=[False, True], ids=["plain", "table"])
def served(request, tmp_path_factory):
    """`companion serve` (plain, or --lan) on a free port; yields its port, data folder and pid."""
    port, data = free_port(), tmp_path_factory.mktemp("gate") / "data"
    command = [sys.executable, "-m", "companion", "serve", "--port", str(port), "--data-dir", str(data),
               *(["--lan"] if request.param else [])]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while raw(port, "GET / HTTP/1.1", f"127.0.0.1:{port}") == "":
            assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        yield port, data, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(3)
        except subprocess.TimeoutExpired:  # a prompt stop after a websocket was open: issue 15's "Smaller"
            proc.kill()
            proc.wait(10)


def raw(port: int, line: str, host: str, *headers: str) -> str:
    """One request sent as written (the Host header as given); the answer (for a websocket upgrade,
    its head), or "" if nothing listens."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            close = [] if any(h.startswith("Connection:") for h in headers) else ["Connection: close"]
            sock.sendall("\r\n".join([line, f"Host: {host}", *headers, *close, "", ""]).encode())
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
                if answer.startswith(b"HTTP/1.1 101") and b"\r\n\r\n" in answer:
                    break  # the websocket is open: its head is all there is to read
            return answer.decode("latin-1")
    except ConnectionRefusedError:
        return ""


WEBSOCKET = ("Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
             "Sec-WebSocket-Version: 13")


def test_a_real_server_answers_only_its_own_addresses(served):
    served, _, _ = served
    own = f"127.0.0.1:{served}"
    page = raw(served, "GET / HTTP/1.1", own)
    assert page.startswith("HTTP/1.1 200") and "flutter" in page.lower()
    backup = raw(served, "GET /download/backup.zip HTTP/1.1", own)
    assert backup.startswith("HTTP/1.1 200") and "application/zip" in backup
    for path in ("/", "/download/backup.zip", "/download/games.json"):
        refused = raw(served, f"GET {path} HTTP/1.1", "evil.example")
        assert refused.startswith("HTTP/1.1 403") and "This address is not companion's" in refused
        assert "PK" not in refused and "flutter" not in refused.lower()
    upgrade = "GET /ws HTTP/1.1"
    assert raw(served, upgrade, own, f"Origin: http://{own}", *WEBSOCKET).startswith("HTTP/1.1 101")
    assert raw(served, upgrade, own, "Origin: http://evil.example", *WEBSOCKET).startswith("HTTP/1.1 403")
    assert raw(served, upgrade, f"evil.example:{served}", f"Origin: http://evil.example:{served}",
               *WEBSOCKET).startswith("HTTP/1.1 403")


def test_a_second_server_on_the_same_folder_refuses_to_start(served):
    port, data, pid = served
    done = subprocess.run([sys.executable, "-m", "companion", "serve", "--port", str(free_port()), "--data-dir",
                           str(data)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert f"in use by a companion server (pid {pid}, url http://127.0.0.1:{port})" in done.stderr
