"""Browser tests: the real web app served by `companion serve`, driven by Playwright in Debian's
headless Chromium at phone size (390×844). Flutter draws on a canvas, so the tests switch on its
accessibility tree and find controls by role, label or `flt-semantics-identifier`."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import Page, expect

from companion.i18n import translations
from tests.conftest import ROOT

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}



def pytest_collection_modifyitems(items):
    """Every test in this folder is a browser test (`./test -m "not browser"` skips them)."""
    for item in items:
        if "tests/browser/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.browser)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`companion serve` in a subprocess of its own, on a free loopback port and a temp data dir."""

    def __init__(self, data_dir: Path, port: int | None = None):
        self.data_dir, self.port = data_dir, port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.proc: subprocess.Popen | None = None
        self.log = data_dir.parent / f"server-{self.port}.log"

    def start(self, timeout: float = 60) -> "Server":
        env = {**os.environ, "FLET_FORCE_WEB_SERVER": "true"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--port", str(self.port), "--data-dir", str(self.data_dir)],
            cwd=ROOT, env=env, stdout=open(self.log, "ab"), stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(self.log.read_text())
            try:
                with urllib.request.urlopen(self.url, timeout=1) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise TimeoutError(self.url)

    def kill(self) -> None:
        """SIGKILL: the hardest way a server can stop; nothing may be lost."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "data").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": PHONE}


class App:
    """The app in one browser tab, in one language: finders and the few gestures tests need."""

    def __init__(self, page: Page, lang: str):
        self.page, self.lang = page, lang
        self._t = translations(lang)

    def t(self, message: str, **params) -> str:
        return self._t.gettext(message).format(**params) if params else self._t.gettext(message)

    def n(self, singular: str, plural: str, n: int, **params) -> str:
        return self._t.ngettext(singular, plural, n).format(n=n, **params)

    def open(self, url: str) -> None:
        self.page.goto(url)
        placeholder = self.page.locator("flt-semantics-placeholder")
        placeholder.wait_for(state="attached", timeout=60_000)
        placeholder.dispatch_event("click")
        expect(self.id("nav-home")).to_be_visible(timeout=60_000)

    def id(self, identifier: str):
        return self.page.locator(f'[flt-semantics-identifier="{identifier}"]')

    def tap(self, identifier: str) -> None:
        """Scroll to a control, tap it, and wait for the app's answer to be drawn.

        A redraw replaces the semantics nodes: a tap on a node that is being replaced is lost, so
        each tap waits until the accessibility tree has changed and then stayed quiet.
        """
        target = self.id(identifier)
        for attempt in range(5):
            try:
                target.scroll_into_view_if_needed(timeout=10_000)
                self._watch()
                target.click(timeout=10_000)
                break
            except PlaywrightError:
                if attempt == 4:
                    raise
                self.page.wait_for_timeout(300)
        self.settle()

    def _watch(self) -> None:
        self.page.evaluate("""() => {
            if (!window.__companionObserver) {
                window.__companionObserver = new MutationObserver(() => {
                    window.__companionChanges++; window.__companionLast = performance.now(); });
                window.__companionObserver.observe(document.querySelector('flt-semantics-host') || document.body,
                    {subtree: true, childList: true, attributes: true, characterData: true});
            }
            window.__companionChanges = 0; window.__companionLast = performance.now();
        }""")

    def settle(self, quiet_ms: int = 300, timeout_ms: int = 8000) -> None:
        """Wait until the tree changed after the tap and then stayed unchanged for `quiet_ms`."""
        try:
            self.page.wait_for_function(
                f"() => window.__companionChanges > 0 && performance.now() - window.__companionLast > {quiet_ms}",
                timeout=timeout_ms, polling=50)
        except PlaywrightTimeoutError:
            pass  # a tap that changes nothing on screen: the test's next expectation decides

    def says(self, identifier: str, value: str, present: bool = True, timeout: float = 10) -> None:
        """Wait until the control (its text or its accessible labels) does or does not contain `value`."""
        content = ""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            content = self.id(identifier).evaluate_all(
                "els => els.map(e => [e.getAttribute('aria-label') || '', e.textContent,"
                " ...Array.from(e.querySelectorAll('[aria-label]')).map(x => x.getAttribute('aria-label'))]"
                ".join(' ')).join(' ')")
            if (value in content) == present:
                return
            self.page.wait_for_timeout(200)
        raise AssertionError(f"{identifier}: {value!r} {'not ' if present else ''}found in {content[:300]!r}")

    def text(self, value: str, exact: bool = False):
        return self.page.locator("flt-semantics-host").get_by_text(value, exact=exact)

    def fill(self, label: str, value: str) -> None:
        """Click until focused, wait for Flutter to attach its text editing, then fill (fill alone
        loses text); a click that lands mid-scroll is tried again."""
        box = self.page.get_by_label(label)
        for attempt in range(4):
            box.scroll_into_view_if_needed()
            self.page.wait_for_timeout(200)
            box.click()
            try:
                expect(box).to_be_focused(timeout=2000)
                self.page.wait_for_timeout(300)
                box.fill(value)
                expect(box).to_have_value(value, timeout=3000)
                return
            except AssertionError:
                if attempt == 3:
                    raise

    def step(self, identifier: str, times: int) -> None:
        for _ in range(times):
            self.tap(identifier)

    def language(self, lang: str) -> None:
        if self.id(f"lang-{lang}").count():
            self.tap(f"lang-{lang}")
        self.lang, self._t = lang, translations(lang)

    def shot(self, name: str) -> None:
        out = ROOT / "test-artifacts"
        out.mkdir(exist_ok=True)
        self.page.wait_for_timeout(1000)
        self.page.screenshot(path=str(out / f"{name}.png"))


@pytest.fixture
def app(page: Page, server) -> App:
    page.set_default_timeout(20_000)
    return App(page, "cs")


def layout(page) -> dict:
    """What would make a phone scroll sideways or miss a tap.

    Flutter sizes its canvas to the viewport and clips semantics boxes to it, so the document's
    width says nothing: look for horizontal scrollers, leaf texts wider than their (clipped) box,
    and tappable nodes smaller than 48 px. A leaf text is clipped when its box is too low for the
    lines the text needs at the box's width (about 18 px a line at our sizes).
    """
    page.mouse.wheel(0, -10000)  # Flutter clips boxes at the scroll edges: measure from the top
    page.wait_for_timeout(1000)
    return page.evaluate("""() => {
        const vw = window.innerWidth, out = [], small = [];
        for (const el of document.querySelectorAll('flt-semantics')) {
            const r = el.getBoundingClientRect();
            if (r.width === 0) continue;
            if (r.right > vw + 0.5) out.push(['outside', el.textContent.slice(0, 40)]);
            if (el.style.overflowX === 'scroll' && el.scrollWidth > el.clientWidth + 1)
                out.push(['scroller', el.textContent.slice(0, 40)]);
            const lines = Math.ceil((el.scrollWidth - 20) / Math.max(el.clientWidth, 1));
            const cut = r.top < 2 || r.bottom > window.innerHeight - 30;  // cut by the viewport, not the layout
            if (!el.querySelector('flt-semantics') && el.scrollWidth - el.clientWidth > 20 && r.height < 18 * lines
                && !cut)
                out.push(['clipped', el.textContent.slice(0, 40), el.clientWidth, el.scrollWidth]);
            const role = el.getAttribute('role');
            if ((role === 'button' || role === 'checkbox' || role === 'switch') && r.height < 47.5
                && r.top > 2 && r.bottom < window.innerHeight - 30)
                small.push([el.getAttribute('aria-label') || el.textContent.slice(0, 30),
                            Math.round(r.width), Math.round(r.height)]);
        }
        return {out, small};
    }""")


def assert_fits_a_phone(screens: dict) -> None:
    """No sideways scrolling and no small targets on any of the measured screens."""
    for name, found in screens.items():
        assert found["out"] == [] and found["small"] == [], (name, found)
