"""The phone alone: the static build (`companion build-web`) in Chromium at phone size, served by a plain
static server on loopback with every other host blocked, in Czech chosen on an English browser (the Czech
first visit: test_a_czech_arrow...). A game is started and ticked; a reload keeps the tick; a second tab
is told the app is open elsewhere and takes over when the first is closed; a game is exported; the
browser is closed and started again with the same profile and the game resumes, undo works; the static
server is stopped and the app still starts from its service worker and records a tap; the export is
imported, a backup saved and restored, all in the browser."""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from companion.i18n import translations
from companion.web.browser import ELSEWHERE
from companion.web.build import PACKED, PYTHON, build
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, App, edge_to_edge, free_port
from tests.browser.test_flanders_flow import new_three_player_game
from tests.browser.test_history_flow import pick
from tests.browser.test_princes_flow import start as start_princes

HOST = Path(__file__).resolve().parent.parent / "static_host.py"
START = 90_000  # ms: a first visit on a busy 2-core machine takes 10-30 s


class StaticServer:
    """The build served as a static host serves it (tests/static_host.py, gzip as common hosts do, or
    `plain` as `python -m http.server`) on loopback, each request written to a log."""

    def __init__(self, folder: Path, plain: bool = False, phone: bool = False):
        self.folder, self.port = folder, free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = Path(tempfile.mkdtemp(prefix="companion-host-")) / "requests.log"
        self.options = ["--plain"] * plain + ["--phone"] * phone
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> StaticServer:
        self.proc = subprocess.Popen([sys.executable, str(HOST), str(self.folder), str(self.port), str(self.log),
                                      *self.options], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url, timeout=1) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise TimeoutError(self.url)

    def requests(self) -> list[tuple[str, int, int]]:
        """What the browser asked for so far: (path without the leading /, status, bytes sent)."""
        lines = self.log.read_text(encoding="utf-8").split("\n")[1:]  # the first: start() asking if it is up
        return [(path.lstrip("/"), int(status), int(sent)) for _get, path, status, sent in
                (line.split(" ") for line in lines if line)]

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None


#: Chromium finds no host but 127.0.0.1, as with no network. (Playwright's request routing would do
#: it too, but it switches the browser's HTTP cache off, which the service worker relies on.)
OFFLINE_ARGS = [*CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def other_hosts(context, server: StaticServer) -> list[str]:
    """Every request the context makes to another host than `server` is listed here (it fails)."""
    foreign: list[str] = []
    context.on("request", lambda request: None if request.url.startswith((server.url, "data:", "blob:"))
               else foreign.append(request.url))
    return foreign


def offline_context(browser, server: StaticServer):
    """A fresh profile (empty cache, no service worker) at phone size in a browser launched with
    OFFLINE_ARGS."""
    return browser.new_context(viewport=PHONE, accept_downloads=True)


def semantics(page) -> None:
    """Switch on Flutter's accessibility tree once the web client has drawn."""
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=START)
    placeholder.dispatch_event("click")


def show_home(page) -> None:
    """Wait for the home screen (its first new-game button)."""
    semantics(page)
    page.locator('[flt-semantics-identifier="new-flanders_1302"]').wait_for(timeout=START)


def start_screen(page) -> list[str]:
    """The start screen's name and progress line (without its percentage), with its icon drawn. (A
    first visit's page loads itself again, once, when its service worker is ready: page.js. The
    name is empty in the new page until its page.js has run.)"""
    for _ in range(100):
        try:
            width, name, line = page.evaluate("""[document.querySelector('#companion-start img')?.naturalWidth,
                document.getElementById('companion-name')?.textContent,
                document.getElementById('companion-progress')?.textContent]""")
        except PlaywrightError as error:
            if "context was destroyed" not in str(error):
                raise
            page.wait_for_load_state()
            continue
        if width == 192 and name:
            return [name, line.rsplit(" ", 2)[0]]
        page.wait_for_timeout(50)
    raise AssertionError("the start screen was not drawn")


def cached_files(page) -> list[str]:
    """Wait until the service worker says the app is ready offline; the files in its cache."""
    return page.evaluate("""async () => {
        if (!await companion.offline) throw new Error('the service worker did not cache the app');
        const names = [];
        for (const key of await caches.keys()) {
            for (const request of await (await caches.open(key)).keys()) {
                names.push(new URL(request.url).pathname.slice(new URL(document.baseURI).pathname.length));
            }
        }
        return names.sort();
    }""")


@pytest.fixture(scope="session")
def site(web_build) -> Path:
    """One build for the whole session (shared with tests/test_build_web.py)."""
    return web_build


@pytest.fixture
def static(site):
    server = StaticServer(site).start()
    yield server
    server.stop()


def launch(browser_type, profile: Path, server: StaticServer, **options):
    """Chromium on a profile of its own (kept on disk: closing and launching it again is a browser
    restart), reaching only the static server."""
    context = browser_type.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=OFFLINE_ARGS,
                                                     headless=True, viewport=PHONE, accept_downloads=True, **options)
    context.set_default_timeout(20_000)
    context.foreign = other_hosts(context, server)
    return context


def reopen(app: App, start) -> None:
    """Reload or open the page and wait for the app (its top bar)."""
    start()
    semantics(app.page)
    expect(app.id("nav-home")).to_be_visible(timeout=START)


def python_start(page) -> str:
    """How Python started on this page: "python restored" from the snapshot an earlier start took, or
    "python started" afresh (worker.js)."""
    names = page.evaluate("companion.marks.map((mark) => mark[0])")
    return next(name for name in names if name in ("python restored", "python started"))


def progress(app: App, items: int, done: int) -> None:
    expect(app.id("setup-progress")).to_have_text(app.n("{done} of {n} item ticked", "{done} of {n} items ticked",
                                                        items, done=done))


@pytest.mark.parametrize("lang", ["cs"])
def test_the_phone_alone(browser_type, static, tmp_path, lang):
    profile = tmp_path / "profile"
    context = launch(browser_type, profile, static)
    app = App(context.pages[0], "cs")
    reopen(app, lambda: app.page.goto(static.url))
    app.language(lang)
    assert edge_to_edge(app.still()), "the phone alone draws the app inset, with a black frame"
    new_three_player_game(app)
    items = app.page.locator('[flt-semantics-identifier^="tick-"]').count()
    app.tap("tick-board")
    progress(app, items, 1)
    sid = app.page.url.rsplit("#/game/", 1)[1]

    # a reload (of #/game/<id>, on a static host) keeps the tap; Python is the snapshot of the first visit's
    assert python_start(app.page) == "python started"
    reopen(app, app.page.reload)
    progress(app, items, 1)
    assert python_start(app.page) == "python restored"
    # the web client's two WebAssembly programs were compiled in a worker, not on the page
    assert app.page.evaluate("companion.compiled && [...companion.compiled.keys()]") == []
    # and downloaded there only: the page's own fetch of them got a stand-in
    assert app.page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)"
                             ".filter((name) => name.endsWith('.wasm'))") == []

    # a second tab is told the app is open in the first; once that is closed, it takes over
    second = context.new_page()
    second.goto(static.url)
    semantics(second)
    other = App(second, lang)
    other.id("elsewhere").wait_for(timeout=START)
    other.says("elsewhere", translations("cs").gettext(ELSEWHERE))
    other.says("elsewhere", ELSEWHERE)
    app.page.close()
    app = other
    app.tap("try-again")
    expect(app.id(f"resume-{sid}")).to_be_visible(timeout=START)
    assert edge_to_edge(app.still()), "after 'open in another tab' the app is drawn inset, with a black frame"

    # export JSON: the file the browser saves holds the game and its tick
    app.tap("nav-history")
    app.tap("files")                         # export, import and backup: behind one line
    with app.page.expect_download() as download:
        app.tap("export-json")
    exported = tmp_path / "games.json"
    download.value.save_as(exported)
    games = json.loads(exported.read_text(encoding="utf-8"))["games"]
    assert [(g["id"], [a["type"] for a in g["log"]]) for g in games] == [(sid, ["tick"])]
    context.close()

    # the browser started again on the same profile: the game resumes, undo works
    context = launch(browser_type, profile, static)
    app = App(context.pages[0], lang)
    reopen(app, lambda: app.page.goto(static.url))
    expect(app.id(f"lang-{'cs' if lang == 'en' else 'en'}")).to_be_visible()  # the language is remembered
    app.tap(f"resume-{sid}")
    progress(app, items, 1)
    app.tap("undo")
    progress(app, items, 0)

    # the static server stopped: the app starts from its service worker and records a tap
    assert {"index.html", "worker.js", "app.tar", "main.dart.wasm", "pyodide/pyodide.asm.wasm",
            "pyodide/python_stdlib.zip"} <= set(cached_files(app.page))
    static.stop()
    reopen(app, app.page.reload)
    progress(app, items, 0)
    app.tap("tick-empty_city")
    progress(app, items, 1)

    # import the export: the game is still here (the same play, though its log has moved on), so it is
    # skipped; once deleted on home, the same file brings it back
    app.tap("nav-home")
    app.tap("nav-history")
    app.tap("files")                         # export, import and backup: behind one line
    pick(app, "import-json", exported)
    app.says("file-notice", app.n("{n} was there already", "{n} were there already", 1))
    app.says("file-notice", app.n("{n} game imported", "{n} games imported", 0))
    app.tap("nav-home")
    app.tap(f"delete-{sid}")
    app.tap(f"delete-yes-{sid}")
    expect(app.page.locator('[flt-semantics-identifier^="resume-"]')).to_have_count(0)
    app.tap("nav-history")
    app.tap("files")                         # export, import and backup: behind one line
    pick(app, "import-json", exported)
    app.says("file-notice", app.n("{n} game imported", "{n} games imported", 1))

    # a backup saved from the browser and restored: the game is there
    with app.page.expect_download() as download:
        app.tap("backup")
    saved = tmp_path / "backup.zip"
    download.value.save_as(saved)
    pick(app, "restore", saved)
    app.says("file-notice", app.n("{n} game restored", "{n} games restored", 1))
    app.tap("nav-home")
    expect(app.page.locator('[flt-semantics-identifier^="resume-"]')).to_have_count(1)
    app.shot(f"offline-home-{lang}")
    context.close()


def test_a_first_visit_downloads_each_file_once_and_keeps_only_what_the_app_uses(browser_type, site, tmp_path):
    server = StaticServer(site).start()  # gzip, as common static hosts do
    try:
        context = launch(browser_type, tmp_path / "profile", server)
        issued: list[tuple[str, bool]] = []  # each request as the browser makes it: path, by the service worker
        context.on("request", lambda request: issued.append((request.url.removeprefix(server.url),
                                                             request.service_worker is not None)))
        page = context.pages[0]
        page.goto(server.url)
        assert start_screen(page) == ["Table companion", "Loading the app…"]  # an English browser
        show_home(page)
        cached = cached_files(page)
        requests = server.requests()
        context.close()
    finally:
        server.stop()
    # (a packed file is fetched as <name>.zst, and kept unpacked under its own name)
    fetched = Counter("index.html" if path == "" else path.removesuffix(".zst") for path, _status, _sent in requests)
    # Every file once: the service worker kept what passed through it, and took what the page had
    # fetched before it ran from the HTTP cache. (sw.js: the browser checks it for a new build. The
    # tab's icon and the manifest's: the browser fetches them itself for each page, outside the
    # service worker; one in flight when the first page loads itself again is fetched again, 3 kB.)
    browsers_own = {"favicon.png": 2, "icons/icon-192.png": 2}
    assert {path: n for path, n in fetched.items() if n > browsers_own.get(path, 1) and path != "sw.js"} == {}
    assert [r for r in requests if r[1] != 200] == []
    # Python's files were asked for by the service worker itself once installed, before the page loaded
    # itself again and asked for its Python worker (worker.js). (In the order the browser made the
    # requests: the host may see them later, behind its six connections to one host.)
    first_worker = issued.index(("worker.js", False))
    assert all(issued.index((name + ".zst" * (name in PACKED), True)) < first_worker for name in PYTHON), issued
    assert context.foreign == []  # no other host (Rive's runtime from a CDN, fallback fonts)
    # Kept: what the app asked for and what it may ask for later; not the build other browsers
    # load (Dart compiled to JavaScript, the canvaskit renderer), nor the licence text.
    assert set(cached) <= set(fetched)
    assert {"main.dart.wasm", "canvaskit/skwasm.wasm"} <= set(cached)
    assert not {"main.dart.js", "canvaskit/canvaskit.wasm", "canvaskit/canvaskit.js", "assets/NOTICES"} & set(fetched)
    assert "index.html" in cached and "pyodide/pyodide.asm.wasm" in cached
    assert sum(sent for _path, _status, sent in requests) < 10_000_000  # issue 37: 8.5 MB


def test_without_a_service_worker_the_page_and_its_python_unpack_the_big_files(browser_type, static, tmp_path):
    """A page that is not secure (plain http on the local network) gets no service worker, which
    would unpack the files the folder holds packed: the page and its Python worker do it themselves."""
    context = launch(browser_type, tmp_path / "profile", static, service_workers="block")
    app = App(context.pages[0], "en")
    reopen(app, lambda: app.page.goto(static.url))
    assert app.page.evaluate("[navigator.serviceWorker.controller, companion.unpack]") == [None, list(PACKED)]
    new_three_player_game(app)
    items = app.page.locator('[flt-semantics-identifier^="tick-"]').count()
    app.tap("tick-board")
    progress(app, items, 1)
    fetched = {path for path, _status, _sent in static.requests()}
    assert {"zstd.js", "main.dart.wasm.zst", "canvaskit/skwasm.wasm.zst", "pyodide/pyodide.asm.wasm.zst",
            "pyodide/python_stdlib.zip.zst", "app.tar.zst"} <= fetched
    context.close()


def test_a_czech_arrow_and_an_emoji_in_a_name_draw_without_a_failed_request(browser_type, site, tmp_path):
    server = StaticServer(site).start()
    try:
        context = launch(browser_type, tmp_path / "profile", server, locale="cs-CZ")
        app = App(context.pages[0], "cs")
        app.page.goto(server.url)  # a Czech browser: the first visit is in Czech, the start screen too
        assert start_screen(app.page) == ["Pomocník u stolu", "Načítám aplikaci…"]
        reopen(app, lambda: None)
        assert app.page.evaluate("document.documentElement.lang").split("-")[0] == "cs"
        assert app.page.locator("#companion-start").count() == 0  # gone once the app is drawn
        start_princes(app, names=("Anna 🎲", "Bořek", "Cyril 中"))
        app.tap("extras")
        app.tap("deal")  # Anna gives Bořek 1 gold: "Převod Anna 🎲 → Bořek: …" on the undo button
        shown = "Převod Anna 🎲 → Bořek"
        expect(app.page.locator(f'[aria-label*="{shown}"], :text("{shown}")').first).to_be_attached()
        app.page.wait_for_timeout(3000)  # a missing glyph made Flutter ask for a font ~8 times a second
        app.shot("offline-emoji-arrow")
        app.language("en")
        assert app.page.evaluate("document.documentElement.lang").split("-")[0] == "en"
        requests = server.requests()
        context.close()
    finally:
        server.stop()
    assert [r for r in requests if r[1] != 200] == []
    assert sorted(path for path, _status, _sent in requests if path.startswith("assets/fonts/")) == [
        "assets/fonts/MaterialIcons-Regular.otf", "assets/fonts/roboto.woff2"]  # no fallback font asked for
    assert context.foreign == []



def test_a_phone_with_build_a_switches_to_build_b_and_keeps_its_game(browser_type, tmp_path, monkeypatch):
    from companion.web import build as builder

    folder = tmp_path / "site"
    first = build(folder)
    server = StaticServer(folder).start()
    try:
        context = launch(browser_type, tmp_path / "profile", server)
        app = App(context.pages[0], "en")
        reopen(app, lambda: app.page.goto(server.url))
        app.language("en")
        new_three_player_game(app)
        items = app.page.locator('[flt-semantics-identifier^="tick-"]').count()
        app.tap("tick-board")
        progress(app, items, 1)
        sid = app.page.url.rsplit("#/game/", 1)[1]
        cached_files(app.page)

        # A as a build from before the WebAssembly client left it: the JavaScript client kept instead
        app.page.evaluate("""async ([wasm, js]) => {
            const cache = await caches.open((await caches.keys())[0]);
            for (const name of wasm) await cache.delete(name);
            await cache.addAll(js);
        }""", [list(builder.WASM_BUILD), ["main.dart.js", "canvaskit/canvaskit.js", "canvaskit/canvaskit.wasm"]])

        # build B on the host: the same client and Python, a different app
        monkeypatch.setattr(builder, "MAIN", builder.MAIN + "# build B\n")
        second = build(folder)
        assert second.version != first.version
        before = len(server.requests())
        app.page.evaluate("""async () => {   // still build A; the browser finds B (as at any start) and installs it
            const registration = await navigator.serviceWorker.getRegistration();
            await registration.update();
            for (let i = 0; i < 600 && !registration.waiting; i++) await new Promise((r) => setTimeout(r, 100));
            if (!registration.waiting) throw new Error('build B was not installed');
        }""")
        fetched = [path for path, _status, _sent in server.requests()[before:]]
        # B took what did not change from A's cache: Pyodide's files and the JavaScript client are not
        # downloaded again; the WebAssembly client, which A had not kept, is downloaded now, online
        assert "app.tar.zst" in fetched and "main.dart.wasm.zst" in fetched
        assert not {"main.dart.js", "pyodide/pyodide.asm.wasm.zst", "pyodide/python_stdlib.zip.zst"} & set(fetched)

        # every tab of A closed, the network gone, the app opened from its icon: it is build B, with the game
        page = context.new_page()  # (a blank page keeps the browser open)
        app.page.close()
        page.wait_for_timeout(1500)  # the browser lets B take over once A's last page is gone
        server.stop()
        app = App(page, "en")
        reopen(app, lambda: page.goto(server.url))
        assert page.evaluate("caches.keys()") == [f"companion-{second.version}"]
        assert python_start(page) == "python started"  # not A's snapshot: B's app is another
        app.tap(f"resume-{sid}")
        progress(app, items, 1)
        context.close()
    finally:
        server.stop()


def test_the_phone_alone_keeps_a_half_entered_city_over_a_reload(browser_type, static, tmp_path):
    """Issue 35: the draft is kept on the phone in the phone-alone app too (its Python runs in the
    page, which a reload starts again)."""
    context = launch(browser_type, tmp_path / "profile", static)
    try:
        app = App(context.pages[0], "cs")
        reopen(app, lambda: app.page.goto(static.url))
        app.language("cs")
        new_three_player_game(app)
        app.tap("begin")
        app.tap("step-scoring")
        app.tap("city-ghent")
        app.tap("q-blue-3")
        reopen(app, app.page.reload)
        expect(app.id("q-yellow-2")).to_be_visible(timeout=START)   # Ghent chosen, blue's quarters entered
    finally:
        context.close()
