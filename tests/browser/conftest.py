"""Browser tests: the real web app served by `companion serve`, driven by Playwright in Debian's
headless Chromium at phone size (390×844). Flutter draws on a canvas, so the tests switch on its
accessibility tree and find controls by role, label or `flt-semantics-identifier`.

The fixtures a test file uses (no import needed, except for the helpers and `Server`):

- `server`: the module's `companion serve` (one process and one data dir per test module, started
  at the module's first use), running when the test starts: a test that stopped or killed it finds
  it started again by the next test, on the same port and data dir. Tests of one module share its
  data, in any order: each starts its own game (find it by the id in `app.page.url` or by names
  only it uses) and never counts on an empty list; a test that needs an empty data folder starts a
  `Server(tmp_path / "data")` of its own.
- `table`: the same in table mode (`serve --lan`, `table.join` is the join link), skipped on a
  machine without a network address besides loopback.
- `app`: an `App` on pytest-playwright's `page` (a new browser context per test, 390×844, a Czech
  phone), nothing opened yet: call `app.open(server.url)`.
- `browser`, `page`, `browser_type`: pytest-playwright's, on Debian's Chromium."""
from __future__ import annotations

import io
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import Page, expect

from companion.i18n import translations
from tests.conftest import ROOT

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
PHONES = (PHONE, {"width": 360, "height": 740})
#: The browser's language of the phones (the app's first visit follows it): a Czech phone.
CZECH = "cs-CZ"


#: The longest browser modules, longest first (157 to 65 s each on an idle 2-core machine): `./test`
#: runs the suite on every core (pytest-xdist, a whole module to one worker), and starting the long
#: flows first lets the workers finish together. A module not named here starts after these.
LONGEST_FIRST = ["test_princes_flow", "test_flanders_flow", "test_elfenland_flow", "test_offline",
                 "test_table_flow", "test_carcassonne_flow", "test_steady_bar", "test_village_flow",
                 "test_teach_flow"]


def in_browser(item) -> bool:
    return "tests/browser/" in str(item.fspath).replace("\\", "/")


def pytest_itemcollected(item):
    """Every test in this folder is a browser test, marked as it is collected: before `-m` selects
    (`./test -m "not browser"` then runs none of them)."""
    if in_browser(item):
        item.add_marker(pytest.mark.browser)


@pytest.hookimpl(trylast=True)  # after pytest has grouped the tests by their module-scoped fixtures
def pytest_collection_modifyitems(items):
    """The browser tests run last, the longest modules first: Playwright's sync API keeps its event
    loop marked as running in the main thread for the rest of the session (of each worker), so any
    test after them that calls `asyncio.run` would fail."""
    def order(item) -> tuple[bool, int]:
        if not in_browser(item):
            return (False, 0)
        name = Path(str(item.fspath)).stem
        return (True, LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST))
    items.sort(key=order)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`companion serve` in a subprocess of its own, on a free loopback port and a temp data dir."""

    def __init__(self, data_dir: Path, port: int | None = None, lan: bool = False):
        self.data_dir, self.port, self.lan = data_dir, port or free_port(), lan
        self.url = f"http://127.0.0.1:{self.port}/"
        self.join: str | None = None     # table mode: the printed join link
        self.proc: subprocess.Popen | None = None
        self.log = data_dir.parent / f"server-{self.port}.log"

    def running(self) -> Server:
        """Started, unless it is running (a test before may have stopped or killed it)."""
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        return self

    def start(self, timeout: float = 60) -> Server:
        command = [sys.executable, "-m", "companion", "serve", "--port", str(self.port), "--data-dir",
                   str(self.data_dir), *(["--lan"] if self.lan else [])]
        with open(self.log, "ab") as out:  # the server writes its own copy of the handle
            self.proc = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(self.log.read_text())
            try:
                with urllib.request.urlopen(self.url, timeout=1) as response:
                    if response.status == 200:
                        if self.lan:
                            self.join = [line.removeprefix("Join: ") for line in self.log.read_text().splitlines()
                                         if line.startswith("Join: ")][-1]
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


@pytest.fixture(scope="module")
def module_server(tmp_path_factory):
    """One `companion serve` for the whole module (started by `server` when first used)."""
    srv = Server(tmp_path_factory.mktemp("serve") / "data")
    yield srv
    srv.stop()


@pytest.fixture
def server(module_server) -> Server:
    return module_server.running()


@pytest.fixture(scope="module")
def module_table(tmp_path_factory):
    """One `companion serve --lan` for the whole module (started by `table` when first used)."""
    srv = Server(tmp_path_factory.mktemp("table") / "data", lan=True)
    yield srv
    srv.stop()


@pytest.fixture
def table(module_table) -> Server:
    srv = module_table.running()
    if "://127." in srv.join:
        pytest.skip("this machine has no network address besides loopback")
    return srv


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": PHONE, "locale": CZECH}


class App:
    """The app in one browser tab, in one language: finders and the few gestures tests need."""

    def __init__(self, page: Page, lang: str, touch: bool = False):
        self.page, self.lang = page, lang
        self.touch = touch   # taps as a phone's finger sends them (touch events; the context has_touch)
        self._t = translations(lang)
        self.taps = 0        # taps made, and how far the player had to scroll to reach them (px)
        self.scrolled = 0.0
        self.delays: list[float] = []  # tap → screen changed, ms

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

    def tap(self, identifier: str, retried: bool = False) -> None:
        """Scroll to a control, tap it, and wait for the app's answer to be drawn.

        A redraw replaces the semantics nodes: a tap on a node that is being replaced is lost, so
        each tap waits until the accessibility tree has changed and then stayed quiet.
        """
        target = self.id(identifier)
        self.taps += 1
        self.scrolled += self.reach(target)
        for attempt in range(5):
            try:
                self.wheel_into_view(target)
                self._clear_of_message(target)
                self._steady(target)
                self._watch()
                if self.touch:
                    box = target.first.bounding_box()
                    assert box is not None, identifier
                    self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                else:
                    target.click(timeout=10_000)
                break
            except PlaywrightError:
                if attempt == 4:
                    out = ROOT / "test-artifacts"
                    out.mkdir(exist_ok=True)
                    self.page.screenshot(path=str(out / f"missed-{identifier}.png"))  # what the player saw
                    raise
                self.page.wait_for_timeout(300)
        changed = self.settle()
        if changed is not None:
            self.delays.append(changed)
        if self._out_of_date() and not retried:
            # The tap reached a screen the server had already replaced (this harness tapped before the
            # redraw arrived, as a player would not): the app refused it as out of date, rightly; look
            # at the screen as it now is and tap again, as the player would.
            self.taps -= 1
            self.page.wait_for_timeout(500)
            self.tap(identifier, retried=True)

    def _out_of_date(self) -> bool:
        banner = self.id("banner")
        if not banner.count():
            return False
        said = " ".join(banner.evaluate_all("els => els.map(e => (e.getAttribute('aria-label') || '') + ' ' + "
                                            "e.textContent)"))
        return "out of date" in said or "nebyla aktuální" in said

    def reach(self, target) -> float:
        """How far the player must scroll to see the whole control between the pinned header and
        the pinned bar (0 when it is in sight or is part of them)."""
        try:
            target.first.wait_for(state="attached", timeout=10_000)
        except PlaywrightError:
            return 0.0
        box = target.first.bounding_box()
        if box is None:
            return 0.0
        height = self.page.viewport_size["height"]
        top = self._edge("header", "bottom", 0.0)
        bottom = min(self._edge("bar", "top", height), self._edge("message", "top", height))
        if box["y"] < top - 1 and not self._part_of("header", target):
            return top - box["y"]
        if box["y"] + box["height"] > bottom + 1 and not (self._part_of("bar", target) or self._part_of("message", target)):
            return box["y"] + box["height"] - bottom
        clipped_top = abs(box["y"] - top) <= 1 and top > 0
        if clipped_top or abs(box["y"] + box["height"] - bottom) <= 1:
            # Flutter clips the box of a control partly behind the header or the bar (or the viewport's
            # edge) to the part in sight: the rest is what the player scrolls to see it whole. The
            # accessibility tree's own scroll leaves the canvas where it was, so the wheel moves the
            # control toward the middle, where its box is whole again.
            self.page.mouse.move(self.page.viewport_size["width"] / 2, (top + bottom) / 2)
            self.page.mouse.wheel(0, -(bottom - top) / 2 if clipped_top else (bottom - top) / 2)
            self._steady(target.first)
            whole = target.first.bounding_box()
            if whole is not None and whole["height"] > box["height"] + 1:
                return whole["height"] - box["height"]
        return 0.0

    def _clear_of_message(self, target) -> None:
        """A control the message's slot (just above the bar) covers is scrolled up out from under it,
        as the player would (the body leaves room for that at its foot)."""
        box = target.first.bounding_box()
        if box is None or not self.id("message").count() or self._part_of("message", target) or self._part_of("bar", target):
            return
        top = self._edge("message", "top", self.page.viewport_size["height"])
        if box["y"] + box["height"] > top:
            self.page.mouse.move(self.page.viewport_size["width"] / 2, self.page.viewport_size["height"] / 3)
            self.page.mouse.wheel(0, box["y"] + box["height"] - top + 8)
            self.page.wait_for_timeout(300)

    def _edge(self, identifier: str, side: str, default: float) -> float:
        box = self.id(identifier).first.bounding_box() if self.id(identifier).count() else None
        if box is None:
            return default
        return box["y"] + box["height"] if side == "bottom" else box["y"]

    @staticmethod
    def _part_of(identifier: str, target) -> bool:
        """Whether the control belongs to the pinned header or bar (not merely drawn behind it)."""
        return target.first.evaluate(f"e => !!e.closest('[flt-semantics-identifier=\"{identifier}\"]')")

    def in_sight(self, identifier: str) -> None:
        """The control is drawn inside the viewport, wholly (a message above or below the screen is a
        message nobody reads)."""
        target = self.id(identifier).first
        expect(target).to_be_attached()
        box = target.bounding_box()
        size = self.page.viewport_size
        assert box is not None, identifier
        assert box["y"] >= -1 and box["y"] + box["height"] <= size["height"] + 1, (identifier, box, size)
        assert box["x"] >= -1 and box["x"] + box["width"] <= size["width"] + 1, (identifier, box, size)

    def frame_holds(self, primary: str | None = None) -> None:
        """At each phone size: after scrolling to the bottom of the screen, the pinned header and
        bottom bar are still wholly inside the viewport, and the next action is in sight without
        any scrolling back."""
        for size in PHONES:
            self.resize(size)
            self.page.mouse.move(size["width"] / 2, size["height"] / 2)
            self.page.mouse.wheel(0, 20_000)
            self._steady(self.id(primary or "bar").first)
            self.in_sight("header")
            self.in_sight("bar")
            if primary:
                self.in_sight(primary)
            self.page.mouse.wheel(0, -20_000)
        self.resize(PHONE)

    def resize(self, size: dict) -> None:
        """Set the viewport and wait until the app has laid itself out again at that size (the pinned
        bar stands still, inside the new viewport)."""
        self.page.set_viewport_size(size)
        self.page.wait_for_function(f"() => window.innerWidth === {size['width']} && "
                                    f"window.innerHeight === {size['height']}")
        bar = self.id("bar").first
        if not self.id("bar").count():
            return
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            box = bar.bounding_box()
            if box and box["y"] + box["height"] <= size["height"] + 1:
                break
            self.page.wait_for_timeout(50)
        self._steady(bar)

    def _steady(self, target) -> None:
        """Wait until the control stops moving: Flutter follows a scroll a frame or two late, and a
        click during that lands on whatever was there before. Still over three frames is steady."""
        last = None
        for _ in range(40):
            box = target.bounding_box()
            if box is not None and box == last:
                return
            last = box
            self.page.wait_for_timeout(50)

    def still(self, clip: dict | None = None) -> bytes:
        return still(self.page, clip)

    def wheel_into_view(self, target) -> None:
        """Bring a control between the pinned header and bar as the player does, with the wheel (its
        top, if it is taller than the space between them). The accessibility tree's own scroll
        (scroll_into_view) may move the tree and leave the canvas where it was, and while a text field
        has the focus Flutter does not follow it at all: a tap would reach a control the screen does
        not show."""
        box = target.first.bounding_box()
        if box is None:
            target.scroll_into_view_if_needed(timeout=10_000)
            box = target.first.bounding_box()
        if box is None or self._part_of("header", target) or self._part_of("bar", target):
            return
        top = self._edge("header", "bottom", 0.0)
        bottom = self._edge("bar", "top", self.page.viewport_size["height"])
        if box["y"] >= top - 1 and box["y"] + box["height"] <= bottom + 1:
            return
        self.page.mouse.move(self.page.viewport_size["width"] / 2, (top + bottom) / 2)
        for _ in range(15):
            box = target.first.bounding_box()
            if box is None:
                return
            if box["y"] >= top - 1 and (box["y"] + box["height"] <= bottom + 1 or  # whole, or its top
                                        box["height"] > bottom - top and box["y"] <= top + 48):  # if too tall
                break
            self.page.mouse.wheel(0, box["y"] - (top + bottom) / 2 + box["height"] / 2)
            self._steady(target.first)
        self._steady(target.first)

    def _watch(self) -> None:
        self.page.evaluate("""() => {
            if (!window.__companionObserver) {
                window.__companionObserver = new MutationObserver(() => {
                    if (!window.__companionChanges) window.__companionFirst = performance.now();
                    window.__companionChanges++; window.__companionLast = performance.now(); });
                window.__companionObserver.observe(document.querySelector('flt-semantics-host') || document.body,
                    {subtree: true, childList: true, attributes: true, characterData: true});
            }
            window.__companionChanges = 0; window.__companionLast = performance.now();
            window.__companionStart = performance.now();
        }""")

    def settle(self, quiet_ms: int = 150, timeout_ms: int = 8000) -> float | None:
        """Wait until the tree changed after the tap and then stayed unchanged for `quiet_ms`; the time
        from the tap to the first change (ms), or None when nothing changed."""
        try:
            self.page.wait_for_function(
                f"() => window.__companionChanges > 0 && performance.now() - window.__companionLast > {quiet_ms}",
                timeout=timeout_ms, polling=50)
        except PlaywrightTimeoutError:
            return None  # a tap that changes nothing on screen: the test's next expectation decides
        return self.page.evaluate("() => window.__companionFirst - window.__companionStart")

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
            self.wheel_into_view(box)
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

    def names(self, *names: str) -> None:
        """Type the players' names into the new-game form, first to last."""
        for i, name in enumerate(names):
            self.fill(self.t("Player {n}: name", n=i + 1), name)

    def step(self, identifier: str, times: int) -> None:
        for _ in range(times):
            self.tap(identifier)

    def language(self, lang: str) -> None:
        if self.id(f"lang-{lang}").count():
            self.tap(f"lang-{lang}")
        self.lang, self._t = lang, translations(lang)

    def shot(self, name: str) -> None:
        """Save a screenshot in test-artifacts/ and make sure Flutter drew no error box in it."""
        out = ROOT / "test-artifacts"
        out.mkdir(exist_ok=True)
        png = self.still()
        (out / f"{name}.png").write_bytes(png)
        assert not error_box(png), f"{name}: Flutter drew an error box (a control that failed to lay out)"


@pytest.fixture
def app(page: Page, server) -> App:
    page.set_default_timeout(20_000)
    return App(page, "cs")


def still(page, clip: dict | None = None, timeout: float = 10) -> bytes:
    """A screenshot (of `clip`) once the screen has stopped changing (a scroll, a redraw, a font):
    two in a row alike."""
    last = page.screenshot(clip=clip)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page.wait_for_timeout(150)
        shot = page.screenshot(clip=clip)
        if shot == last:
            return shot
        last = shot
    return last


def layout(page) -> dict:
    """What would make a phone scroll sideways or miss a tap.

    Flutter sizes its canvas to the viewport and clips semantics boxes to it, so the document's
    width says nothing: look for horizontal scrollers, leaf texts wider than their (clipped) box,
    and tappable nodes smaller than 48 px. A leaf text is clipped when its box is too low for the
    lines the text needs at the box's width (about 18 px a line at our sizes).
    """
    broken = _error_box_anywhere(page)
    page.mouse.wheel(0, -10000)  # Flutter clips boxes at the scroll edges: measure from the top
    still(page)
    return {"error_box": broken, **page.evaluate("""() => {
        const vw = window.innerWidth, out = [], small = [];
        const edge = (id, side, d) => { const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
                                        return e ? e.getBoundingClientRect()[side] : d; };
        const top = edge('header', 'bottom', 0), bottom = edge('bar', 'top', window.innerHeight);
        for (const el of document.querySelectorAll('flt-semantics')) {
            const r = el.getBoundingClientRect();
            if (r.width === 0) continue;
            if (r.right > vw + 0.5) out.push(['outside', el.textContent.slice(0, 40)]);
            if (el.style.overflowX === 'scroll' && el.scrollWidth > el.clientWidth + 1)
                out.push(['scroller', el.textContent.slice(0, 40)]);
            const lines = Math.ceil((el.scrollWidth - 20) / Math.max(el.clientWidth, 1));
            // cut by the scrolling body's edges (the pinned header and bar) or the viewport, not the layout
            const inBands = el.closest('[flt-semantics-identifier="header"], [flt-semantics-identifier="bar"]');
            const cut = r.top < 2 || r.bottom > window.innerHeight - 30
                        || (!inBands && (r.top < top + 2 || r.bottom > bottom - 2));
            if (!el.querySelector('flt-semantics') && el.scrollWidth - el.clientWidth > 20 && r.height < 18 * lines
                && !cut)
                out.push(['clipped', el.textContent.slice(0, 40), el.clientWidth, el.scrollWidth]);
            const role = el.getAttribute('role');
            if ((role === 'button' || role === 'checkbox' || role === 'switch') && r.height < 47.5 && !cut)
                small.push([el.getAttribute('aria-label') || el.textContent.slice(0, 30),
                            Math.round(r.width), Math.round(r.height)]);
        }
        return {out, small};
    }""")}


def _error_box_anywhere(page) -> bool:
    """Scroll through the whole screen a viewport at a time looking for an error box."""
    page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
    page.mouse.wheel(0, -10000)
    previous = None
    for _ in range(12):
        png = still(page)
        if error_box(png):
            return True
        if png == previous:
            return False
        previous = png
        page.mouse.wheel(0, PHONE["height"] * 0.8)
    return False


def error_box(png: bytes) -> bool:
    """Whether the screen shows Flutter's release-mode error widget: a flat light-grey block where a
    control failed to lay out (the accessibility tree can still look fine). The app's own greys are
    text only, far from 4 % of the screen."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    data = image.tobytes()
    flat = sum(1 for i in range(0, len(data), 3)
               if 165 <= data[i] <= 205 and abs(data[i] - data[i + 1]) < 6 and abs(data[i + 1] - data[i + 2]) < 6)
    return flat > 0.04 * image.width * image.height


def edge_to_edge(png: bytes) -> bool:
    """Whether the pinned header's band reaches the screen's top corners: the app drawn edge to edge
    (its page is black, its header is not; an inset page leaves a black frame around it)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return all(image.getpixel(xy) != (0, 0, 0) for xy in ((1, 1), (image.width - 2, 1)))


def assert_fits_a_phone(screens: dict) -> None:
    """No sideways scrolling and no small targets on any of the measured screens."""
    for name, found in screens.items():
        assert found["out"] == [] and found["small"] == [] and not found["error_box"], (name, found)
