"""A table on a network with no way out (a phone's hotspot with no internet behind it, a Wi-Fi with no
route out): `companion serve --lan` in a network namespace with no default route prints a join link
on the namespace's own address, and a phone in the namespace at the other end of its cable joins with
it. The namespaces are made here (as root; skipped otherwise) and removed after; no packet leaves them.
"""
from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import time

import pytest

from companion import table
from tests.conftest import ROOT

SERVER_ADDRESS, PHONE_ADDRESS, OTHER_ADDRESS = "10.77.0.1", "10.77.0.2", "10.88.0.1"

#: Run in the phone's namespace: open the join link (the cookie it sets), then the page with it.
PHONE = """
import http.client, sys, urllib.parse
link = urllib.parse.urlsplit(sys.argv[1])
connection = http.client.HTTPConnection(link.hostname, link.port, timeout=10)
connection.request("GET", link.path)
joined = connection.getresponse(); joined.read()
cookie = joined.getheader("set-cookie", "").split(";")[0]
connection.request("GET", "/", headers={"Cookie": cookie})
page = connection.getresponse()
print(joined.status, joined.getheader("location"), page.status, "flutter" in page.read().decode().lower())
"""


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


@pytest.fixture
def hotspot():
    """Two namespaces joined by a cable (a veth pair): the laptop's (`server`) and a phone's, each with
    an address on 10.77.0.0/24 and no default route."""
    if os.geteuid() != 0:
        pytest.skip("making network namespaces needs root")
    if shutil.which("ip") is None:
        pytest.skip("making network namespaces needs iproute2 (the ip command)")
    tag = secrets.token_hex(3)
    server, phone = f"companion-hs-{tag}", f"companion-ph-{tag}"
    try:
        ip("netns", "add", server)
    except subprocess.CalledProcessError as error:  # a container without the right to make one
        pytest.skip(f"cannot make a network namespace here: {error.stderr.decode(errors='replace').strip()}")
    try:
        ip("netns", "add", phone)
        ip("link", "add", "hs0", "netns", server, "type", "veth", "peer", "name", "ph0", "netns", phone)
        for space, name, address in ((server, "hs0", SERVER_ADDRESS), (phone, "ph0", PHONE_ADDRESS)):
            ip("-n", space, "link", "set", "lo", "up")
            ip("-n", space, "addr", "add", f"{address}/24", "dev", name)
            ip("-n", space, "link", "set", name, "up")
        yield server, phone
    finally:
        for space in (server, phone):
            subprocess.run(["ip", "netns", "del", space], capture_output=True, timeout=10)


def serve(space: str, data, *options: str) -> tuple[subprocess.Popen, list[str]]:
    """`companion serve --lan` in the namespace; the process and what it printed up to its QR code."""
    log = data.parent / "server.log"
    with open(log, "w") as out:  # the server writes its own copy of the handle
        proc = subprocess.Popen(["ip", "netns", "exec", space, sys.executable, "-m", "companion", "serve", "--lan",
                                 "--port", "8551", "--data-dir", str(data), *options],
                                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        printed = log.read_text().splitlines()
        if any(line.startswith("Join: ") for line in printed) and "" in printed[-2:]:
            time.sleep(0.5)  # the lines after the QR code
            return proc, log.read_text().splitlines()
        time.sleep(0.2)
    return proc, log.read_text().splitlines()


def join(phone: str, link: str) -> str:
    """What the phone saw: the join link's answer, then the page's (bounded tries while the server starts)."""
    for _ in range(60):
        done = subprocess.run(["ip", "netns", "exec", phone, sys.executable, "-c", PHONE, link],
                              capture_output=True, text=True, timeout=30)
        if done.returncode == 0:
            return done.stdout.strip()
        time.sleep(0.5)
    raise AssertionError(done.stderr)


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def test_a_table_on_a_network_with_no_default_route(hotspot, tmp_path):
    server, phone = hotspot
    proc, printed = serve(server, tmp_path / "data")
    try:
        links = [line.removeprefix("Join: ") for line in printed if line.startswith("Join: ")]
        assert links, printed
        assert links[0].startswith(f"http://{SERVER_ADDRESS}:8551/join/"), printed
        assert join(phone, links[0]) == "303 / 200 True"
    finally:
        stop(proc)


def test_with_two_networks_both_are_listed_and_host_picks_the_one_in_the_link(hotspot, tmp_path):
    server, phone = hotspot
    ip("-n", server, "link", "add", "other0", "type", "veth", "peer", "name", "other1")  # a second network
    ip("-n", server, "addr", "add", f"{OTHER_ADDRESS}/24", "dev", "other0")
    for name in ("other0", "other1"):
        ip("-n", server, "link", "set", name, "up")
    proc, printed = serve(server, tmp_path / "data", "--host", SERVER_ADDRESS)
    try:
        links = [line.removeprefix("Join: ") for line in printed if line.startswith("Join: ")]
        assert links and links[0].startswith(f"http://{SERVER_ADDRESS}:8551/join/"), printed
        assert any(f"The QR code holds {SERVER_ADDRESS}" in line and OTHER_ADDRESS in line for line in printed), printed
        assert join(phone, links[0]) == "303 / 200 True"
    finally:
        stop(proc)


def test_the_link_address_is_the_default_routes_else_an_up_interfaces(monkeypatch):
    monkeypatch.setattr(table, "_interface_addresses", lambda: ["169.254.3.4", "172.20.10.2", "192.168.1.5"])
    monkeypatch.setattr(table, "_route_address", lambda: "192.168.1.5")
    assert table.lan_addresses() == ["192.168.1.5", "172.20.10.2", "169.254.3.4"]
    monkeypatch.setattr(table, "_route_address", lambda: None)  # a hotspot with no internet behind it
    assert table.lan_addresses() == ["172.20.10.2", "192.168.1.5", "169.254.3.4"]
    assert table.lan_address() == "172.20.10.2"
    monkeypatch.setattr(table, "_interface_addresses", lambda: [])
    assert table.lan_address() == "127.0.0.1"
    assert table.own_hosts("0.0.0.0", True, "laptop.local") == {*table.LOOPBACK_NAMES, "127.0.0.1", "laptop.local"}


def test_the_interfaces_offered_are_the_up_ones_with_an_ipv4_address(monkeypatch, tmp_path):
    """What ifaddr lists, read the way `ip addr` shows it: loopback, IPv6 and an interface that is up
    with nothing connected (a docker bridge with no container: operstate "down") are not offered; an
    alias (eth0:1) is its interface's; a VPN that reports no carrier state ("unknown") is."""
    import ifaddr

    def adapter(name: str, *addresses: str | tuple[str, int, int]) -> ifaddr.Adapter:
        return ifaddr.Adapter(name, name, [ifaddr.IP(address, 24, name) for address in addresses])

    adapters = [adapter("lo", "127.0.0.1", ("::1", 0, 0)), adapter("eth0", "192.168.1.5", ("fe80::1", 0, 2)),
                adapter("eth0:1", "192.168.7.5"), adapter("docker0", "172.17.0.1"), adapter("wlan0", "169.254.3.4"),
                adapter("tun0", "10.8.0.6")]
    for name, state in {"lo": "unknown", "eth0": "up", "docker0": "down", "wlan0": "up", "tun0": "unknown"}.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "operstate").write_text(state + "\n")
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: adapters)
    monkeypatch.setattr(table, "SYS_NET", str(tmp_path))
    assert table._interface_addresses() == ["192.168.1.5", "192.168.7.5", "169.254.3.4", "10.8.0.6"]
    monkeypatch.setattr(table, "_route_address", lambda: None)
    assert table.lan_addresses() == ["192.168.1.5", "192.168.7.5", "10.8.0.6", "169.254.3.4"]
    monkeypatch.setattr(table, "SYS_NET", str(tmp_path / "absent"))  # macOS, Windows: no /sys
    assert "172.17.0.1" in table._interface_addresses()


def test_the_interfaces_of_this_machine():
    """The real machine: every address offered is IPv4, not loopback, and the route's is first."""
    addresses = table.lan_addresses()
    assert all(address.count(".") == 3 and not address.startswith("127.") for address in addresses), addresses
    route = table._route_address()
    assert route is None or addresses[0] == route
