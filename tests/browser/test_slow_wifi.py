"""Table mode on a slow Wi-Fi, in Chromium: two phones join the table through a proxy that holds every
chunk 50-300 ms each way (tests/slow_wifi.py), race on the bar's "Next step" of Flanders 1302, and then
each taps alone. The race records one step, the late phone says so, and each phone's next tap counts:
its whole screen (header, body, bar) follows the game, and Flutter's client never fails to apply what
the server sends (a page error would leave a part of the screen behind: the walks' frozen bar)."""
from __future__ import annotations

import re
import socket
import time

import pytest
from playwright.sync_api import expect

from companion.store import stored_game
from tests.browser.conftest import CZECH, PHONE, App
from tests.slow_wifi import SlowWifi


def ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as sock:
            sock.bind(("::1", 0))
        return True
    except OSError:
        return False


def entries(table, sid: str) -> int:
    return len(stored_game(table.data_dir, sid)["log"])


def title(phone: App, step: str) -> str:
    """A Flanders step's title in the phone's language (data/flanders_1302.toml)."""
    from companion.store import Store
    return Store(None).text(f"flanders_1302.step.standard.{step}.title", phone.lang)


def wait_for(predicate, what: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


@pytest.mark.skipif(not ipv6_loopback(), reason="no IPv6 loopback: the proxy listens on [::1] at the table's port "
                                               "(the table's gate answers only its own port)")
def test_two_phones_on_a_slow_wifi_race_and_each_next_tap_counts(browser, table):
    # The server listens on every IPv4 address at its port; the proxy on [::1] at the same port, a name
    # the table's gate knows as loopback.
    with SlowWifi(("127.0.0.1", table.port), listen=("::1", table.port), seed=32) as wifi:
        phones, errors, contexts = [], [], []
        try:
            for _ in range(2):
                context = browser.new_context(viewport=PHONE, locale=CZECH)
                contexts.append(context)
                page = context.new_page()
                page.set_default_timeout(30_000)
                page.on("pageerror", lambda error: errors.append(str(error)))
                phone = App(page, "cs")
                phone.open(wifi.url)
                phones.append(phone)
            anna, borek = phones
            anna.tap("new-flanders_1302")
            anna.names("Anna", "Bořek", "Cyril")
            anna.tap("empty-utrecht")
            anna.tap("create")
            anna.tap("begin")
            expect(anna.page).to_have_url(re.compile(r"/game/[^/]+$"))
            sid = anna.page.url.rsplit("/game/", 1)[1]
            borek.tap(f"resume-{sid}")
            for phone in phones:
                expect(phone.id("next-step")).to_be_visible()
            time.sleep(1)
            before = entries(table, sid)
            anna.id("next-step").click()                 # both thumbs on "Next step" at once
            borek.id("next-step").click()
            wait_for(lambda: any(phone._out_of_date() for phone in phones), "the late phone to be told")
            time.sleep(1.5)
            assert entries(table, sid) == before + 1
            for phone in phones:                          # then each alone: the tap counts
                count = entries(table, sid)
                expect(phone.id("next-step")).to_be_visible()
                phone.id("next-step").click()
                wait_for(lambda count=count: entries(table, sid) == count + 1, "a lone tap to count")
                time.sleep(1.5)
            for phone in phones:                          # every phone's bar offers step 5, its header says 4
                phone.says("next-step", phone.t("Next step: {title}", title=""))
                expect(phone.id("next-step")).to_contain_text(title(phone, "start_gold"))
            assert errors == [], errors
        finally:
            for context in contexts:
                context.close()
