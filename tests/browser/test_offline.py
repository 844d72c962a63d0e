"""The phone alone: the static build (`companion build-web`) in Chromium at phone size, served by a
plain static server on loopback with every other host blocked, in Czech and English. A game is
started and ticked; a reload keeps the tick; a second tab is told the app is open elsewhere and
takes over when the first is closed; a game is exported; the browser is closed and started again
with the same profile and the game resumes, undo works; the static server is stopped and the app
still starts from its service worker and records a tap; the export is imported, a backup saved and
restored, all in the browser."""
from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.i18n import translations
from companion.web.browser import ELSEWHERE
from companion.web.build import build
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, App, free_port
from tests.browser.test_flanders_flow import new_three_player_game
from tests.browser.test_history_flow import pick

START = 90_000  # ms: a first visit on a busy 2-core machine takes 10-30 s


class StaticServer:
    """The build served as any static host serves it: `python -m http.server` on loopback."""

    def __init__(self, folder: Path):
        self.folder, self.port = folder, free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> "StaticServer":
        self.proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory",
                                      str(self.folder), str(self.port)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url, timeout=1) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise TimeoutError(self.url)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None


def block_other_hosts(context, server: StaticServer) -> None:
    """Every request that is not for the static server fails, as with no network."""
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(server.url)
                  else route.abort())


def offline_context(browser, server: StaticServer):
    """A fresh profile (empty cache, no service worker) at phone size that reaches only `server`."""
    context = browser.new_context(viewport=PHONE, accept_downloads=True)
    block_other_hosts(context, server)
    return context


def semantics(page) -> None:
    """Switch on Flutter's accessibility tree once the web client has drawn."""
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=START)
    placeholder.dispatch_event("click")


def show_home(page) -> None:
    """Wait for the home screen (its first new-game button)."""
    semantics(page)
    page.locator('[flt-semantics-identifier="new-flanders_1302"]').wait_for(timeout=START)


def cached_files(page) -> int:
    """Wait until the service worker has every file of the build in its cache; how many there are."""
    return page.evaluate("""async () => {
        await navigator.serviceWorker.ready;
        const wanted = (await (await fetch('sw.js')).text()).match(/const FILES = (\\[[^\\]]*\\])/)[1];
        const files = JSON.parse(wanted);
        for (let i = 0; i < 600; i++) {
            for (const name of await caches.keys()) {
                const held = (await (await caches.open(name)).keys()).length;
                if (held >= files.length) return held;
            }
            await new Promise((resolve) => setTimeout(resolve, 200));
        }
        throw new Error('the service worker did not cache the build');
    }""")


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """One build for the whole session."""
    return build(tmp_path_factory.mktemp("web") / "site").folder


@pytest.fixture
def static(site):
    server = StaticServer(site).start()
    yield server
    server.stop()


def launch(browser_type, profile: Path, server: StaticServer):
    """Chromium on a profile of its own (kept on disk: closing and launching it again is a browser
    restart), reaching only the static server."""
    context = browser_type.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                     headless=True, viewport=PHONE, accept_downloads=True)
    context.set_default_timeout(20_000)
    block_other_hosts(context, server)
    return context


def reopen(app: App, start) -> None:
    """Reload or open the page and wait for the app (its top bar)."""
    start()
    semantics(app.page)
    expect(app.id("nav-home")).to_be_visible(timeout=START)


def progress(app: App, items: int, done: int) -> None:
    expect(app.id("setup-progress")).to_have_text(app.n("{done} of {n} item ticked", "{done} of {n} items ticked",
                                                        items, done=done))


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_phone_alone(browser_type, static, tmp_path, lang):
    profile = tmp_path / "profile"
    context = launch(browser_type, profile, static)
    app = App(context.pages[0], "cs")
    reopen(app, lambda: app.page.goto(static.url))
    app.language(lang)
    new_three_player_game(app)
    items = app.page.locator('[flt-semantics-identifier^="tick-"]').count()
    app.tap("tick-board")
    progress(app, items, 1)
    sid = app.page.url.rsplit("#/game/", 1)[1]

    # a reload (of #/game/<id>, on a static host) keeps the tap
    reopen(app, app.page.reload)
    progress(app, items, 1)

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

    # export JSON: the file the browser saves holds the game and its tick
    app.tap("nav-history")
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
    assert cached_files(app.page) > 30
    static.stop()
    reopen(app, app.page.reload)
    progress(app, items, 0)
    app.tap("tick-empty_city")
    progress(app, items, 1)

    # import the export (its log is not the stored game's any more: a new game), then again (skipped)
    app.tap("nav-home")
    app.tap("nav-history")
    pick(app, "import-json", exported)
    app.says("file-notice", app.n("{n} game imported", "{n} games imported", 1))
    pick(app, "import-json", exported)
    app.says("file-notice", app.n("{n} was there already", "{n} were there already", 1))

    # a backup saved from the browser and restored: both games are there
    with app.page.expect_download() as download:
        app.tap("backup")
    saved = tmp_path / "backup.zip"
    download.value.save_as(saved)
    pick(app, "restore", saved)
    app.says("file-notice", app.n("{n} game restored", "{n} games restored", 2))
    app.tap("nav-home")
    expect(app.page.locator('[flt-semantics-identifier^="resume-"]')).to_have_count(2)
    app.shot(f"offline-home-{lang}")
    context.close()
