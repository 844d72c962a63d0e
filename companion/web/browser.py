"""The phone alone: companion running entirely in the phone's browser, its games kept there.

`companion build-web` puts this module into the app archive with a `main.py` that calls `run()`;
Flet's web worker runs it with Pyodide. Before the app opens its store, this tab
1. takes the single-tab lock (Web Locks): a second tab of the app says that the app is open
   elsewhere instead of keeping a copy of its own (two copies would overwrite each other's games
   in IndexedDB). When the lock is taken it waits a few seconds for it, so a reload, whose old
   page lets go of it a moment later, still gets it;
2. mounts IndexedDB at DATA with Emscripten's IDBFS (`autoPersist`: each change to a file there is
   copied to IndexedDB right after) and awaits the first `FS.syncfs(true)`, which copies what
   IndexedDB holds into the folder;
3. runs the same app as `companion serve` (companion/ui/app.py) on a Store in that folder, with the
   same atomic writes (temp file, fsync, os.replace), undo and resume. `ViewModel.browser` is set:
   the history screen saves exports and backups from the browser instead of the server's download
   routes; table mode, which needs the server, is not offered. Its store (PageStore) tells the
   page (page.js; Python runs in a worker, without the document) the UI's language, for
   `<html lang>` and the next start screen, and, once a game is saved, to ask the browser to keep
   the site's storage; when the browser does not, the home screen says so. The first start follows
   the browser's language.
The lock and the mount start at once, while the web client is still starting. What the start imports
(`prepare`) is imported before: the worker (companion/web/worker.js) takes a snapshot of Python's
memory at that point, once per build, and later starts restore it instead of importing again.
"""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any
from collections.abc import Awaitable, Callable

from ..engine.model import N_, Msg
from ..i18n import LANGUAGES, translations
from ..store import Store

if TYPE_CHECKING:  # Flet is imported once the page has started
    import flet as ft

DATA = "/data"
LOCK = "companion"
LOCK_WAIT_MS = 3000
ELSEWHERE = N_("The app is already open in another tab or window of this browser, and only one may keep the "
               "games. Close it there, then tap Try again.")
TRY_AGAIN = N_("Try again")
NO_STORAGE = N_("This browser does not let the app keep its games (a private window, or site data switched off), "
                "so it cannot start: {reason}")

#: On the home screen when the browser does not promise to keep the site's storage.
NOT_KEPT = N_("This browser does not promise to keep the games: when the phone runs short of space it may delete "
              "them. Add the app to the home screen, and save a backup on Finished games now and then.")
PERSIST_WAIT = 3.0  # seconds for the page's request to be answered

_held: list[asyncio.Future[None]] = []  # the futures that keep the lock: never resolved while the page lives

#: The Flet names the app's screens use (`ft.Text`, ...). Flet imports each one's module at its first
#: use (flet/__init__.py), which would be while the first screen is drawn, after Flutter connected;
#: `prepare` imports them before the snapshot (tests/test_build_web.py keeps the list equal to what
#: companion's modules use).
FLET_NAMES = ("Alignment", "BaseControl", "Border", "BorderSide", "ButtonStyle", "ClipBehavior", "Colors", "Column",
              "Container", "Control", "CrossAxisAlignment", "Event", "ExpansionTile", "FilePicker",
              "FilePickerFileType", "FilledButton", "FontWeight", "Icon", "IconButton", "IconData", "Icons", "Image",
              "Locale", "LocaleConfiguration", "MainAxisAlignment", "Offset", "OutlinedButton", "Padding", "Page",
              "Paint", "PaintingStyle", "ProgressBar", "Row", "ScrollMode", "Semantics", "SharedPreferences", "Stack",
              "Text", "TextAlign", "TextButton", "TextField", "TextOverflow", "TextSpan", "TextStyle", "Theme",
              "ThemeMode", "UrlLauncher", "Wakelock")


class Browser:
    """What the entry takes from Pyodide, in one place (the tests stand in for it). JavaScript's
    objects (the file system, the locks, what `object` makes) are typed Any: Pyodide's proxies."""

    fs: Any                                          # Pyodide's FS
    languages: list[str]                             # navigator.languages
    tell: Callable[[dict[str, Any]], None]           # a message to the page (page.js)
    persisted: Callable[[], Awaitable[bool]] | None  # navigator.storage.persisted (None: no such API)
    locks: Any                                       # navigator.locks (None: no Web Locks)
    callback: Callable[[Callable[..., Any]], Any]    # a Python function as a JavaScript callback, once
    object: Callable[[dict[str, Any]], Any]          # a dict as a JavaScript object
    at_once: Callable[[], Any]                       # the lock's options: only if free now
    waiting: Callable[[], Any]                       # the lock's options: wait up to LOCK_WAIT_MS

    def __init__(self) -> None:
        import js
        import pyodide_js
        from pyodide.ffi import create_once_callable, to_js

        self.fs = pyodide_js.FS
        self.languages = [str(lang) for lang in (js.navigator.languages or [js.navigator.language])]
        # To the page itself (page.js), not to Flutter: Python runs in a worker, without the document.
        self.tell = lambda message: js.postMessage(self.object(message))
        storage = getattr(js.navigator, "storage", None)
        self.persisted = (lambda: storage.persisted()) if storage is not None else None
        self.locks = getattr(js.navigator, "locks", None)  # Web Locks: Chrome 69, Firefox 96, Safari 15.4
        self.callback = create_once_callable
        self.object = lambda values: to_js(values, dict_converter=js.Object.fromEntries)
        self.at_once = lambda: self.object({"ifAvailable": True})
        # The wait starts when this is called: while Python is busy, no answer can come in.
        self.waiting = lambda: self.object({"signal": js.AbortSignal.timeout(LOCK_WAIT_MS)})


def take_lock(locks: Any, name: str, options: Any, callback: Callable[[Callable[..., Any]], Any]
              ) -> asyncio.Future[bool]:
    """Ask for the lock `name`: the future says True once this tab holds it (until the page is
    closed), False when another tab holds it (`options`: at once, or until a signal aborts). A
    browser without Web Locks cannot tell: the app runs (what a second tab saves may then be lost)."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[bool] = loop.create_future()
    if locks is None:
        answer.set_result(True)
        return answer

    def granted(lock: Any) -> asyncio.Future[None] | None:
        if not answer.done():
            answer.set_result(bool(lock))
        if not lock:
            return None
        held: asyncio.Future[None] = loop.create_future()
        _held.append(held)
        return held  # the lock is kept until this resolves, that is never

    def refused(_error: Any = None) -> None:
        if not answer.done():
            answer.set_result(False)

    locks.request(name, options, callback(granted)).catch(callback(refused))
    return answer


def sync(fs: Any, populate: bool, callback: Callable[[Callable[..., Any]], Any]) -> asyncio.Future[None]:
    """`FS.syncfs`: IndexedDB → the folder (`populate`) or the folder → IndexedDB, as a future."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def finished(error: Any = None) -> None:
        if done.done():
            return
        if not error:  # JavaScript's null (Pyodide's jsnull) or nothing: it worked
            done.set_result(None)
        else:
            done.set_exception(OSError(str(error)))

    fs.syncfs(populate, callback(finished))
    return done


def mount(fs: Any, path: str, options: Any, callback: Callable[[Callable[..., Any]], Any]) -> asyncio.Future[None]:
    """Mount IndexedDB at `path` and copy what it holds into the folder (done when the future is)."""
    fs.mkdirTree(path)
    fs.mount(fs.filesystems.IDBFS, options, path)
    return sync(fs, True, callback)


async def lock(browser: Browser, at_once: asyncio.Future[bool] | None = None) -> bool:
    """The single-tab lock: True once this tab holds it; False when another tab kept it for
    LOCK_WAIT_MS (`at_once`: the answer to a request made without waiting, if there is one)."""
    if await (at_once or take_lock(browser.locks, LOCK, browser.at_once(), browser.callback)):
        return True
    return await take_lock(browser.locks, LOCK, browser.waiting(), browser.callback)


class PageStore(Store):
    """The store, telling the page what it shows outside the app: the UI's language (`<html lang>`,
    the start screen's language next time), and, once there are games, that it is time to ask the
    browser to keep them (only a page may ask); a notice on the home screen when it does not."""

    browser: Browser | None = None  # set by start()
    asked = False

    def set_setting(self, name: str, value: Any) -> None:
        super().set_setting(name, value)
        if name == "language" and self.browser is not None:
            self.browser.tell({"companionLang": value})

    def create_session(self, game: str, config: dict[str, Any]) -> str:
        sid = super().create_session(game, config)
        self.keep_games()
        return sid

    def keep_games(self) -> None:
        if not self.asked and self.browser is not None and self.browser.persisted is not None:
            self.asked = True
            asyncio.ensure_future(self._keep_games())

    async def _keep_games(self) -> None:
        if self.browser is None or self.browser.persisted is None:  # (keep_games asks only with both)
            return
        if await self.browser.persisted():
            return
        self.browser.tell({"companionPersist": True})
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PERSIST_WAIT
        while loop.time() < deadline:
            await asyncio.sleep(0.25)
            if await self.browser.persisted():
                return
        self.notices.append(Msg(NOT_KEPT))

    def start(self, browser: Browser) -> PageStore:
        """The first start follows the browser's language; the page is told the UI's language; with
        games here, the browser is asked to keep them."""
        self.browser = browser
        lang = self.setting("language")
        if lang not in LANGUAGES:
            asked = [code[:2].lower() for code in browser.languages]
            lang = next((code for code in asked if code in LANGUAGES), "en")
            super().set_setting("language", lang)
        browser.tell({"companionLang": lang})
        if self.sessions():
            self.keep_games()
        return self


async def open_store(locked: asyncio.Future[bool], mounted: asyncio.Future[None], folder: str = DATA
                     ) -> PageStore | None:
    """The store once this tab holds the lock and the folder holds what IndexedDB had; None while
    another tab holds the lock. OSError when the browser keeps no IndexedDB."""
    await mounted
    return PageStore(folder) if await locked else None


def _both(message: str, **params: str) -> list[str]:
    """A message in Czech and in English (before the store is open there is no language setting)."""
    return [translations(lang).gettext(message).format(**params) for lang in ("cs", "en")]


def app(browser: Browser, opening: asyncio.Future[PageStore | None]) -> Callable[[ft.Page], Awaitable[None]]:
    """The Flet entry of the page: the app on the store, once `opening` has it."""
    import flet as ft

    from ..ui.app import make_main
    from ..ui.widgets import ERROR, TEXT, tid

    def say(page: ft.Page, ident: str, lines: list[str], *extra: ft.Control, colour: str | None = None) -> None:
        page.controls[:] = [tid(ident, ft.Container(ft.Column([ft.Text(line, size=TEXT, color=colour)
                                                               for line in lines] + list(extra), spacing=16),
                                                    padding=16))]
        page.update()

    async def elsewhere(page: ft.Page) -> None:
        """Say the app is open in another tab; return when Try again is tapped."""
        tapped: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        say(page, "elsewhere", _both(ELSEWHERE), tid("try-again", ft.FilledButton(
            content=ft.Text(" / ".join(_both(TRY_AGAIN)), size=TEXT), height=52,
            on_click=lambda e: None if tapped.done() else tapped.set_result(None))))
        await tapped

    async def main(page: ft.Page) -> None:
        page.theme_mode = ft.ThemeMode.DARK
        page.bgcolor = ft.Colors.BLACK  # the page's padding is the app's (none: edge to edge, ui/app.py)
        try:
            store = await opening
            while store is None:
                await elsewhere(page)
                if await lock(browser):
                    await sync(browser.fs, True, browser.callback)  # what the other tab saved meanwhile
                    store = PageStore(DATA)
        except OSError as error:
            say(page, "no-storage", _both(NO_STORAGE, reason=str(error)), colour=ERROR)
            return
        make_main(store.start(browser), languages=browser.languages)(page)

    return main


#: What the start imports besides: the app's screens, what Flet's connection to Flutter imports when it
#: starts (flet/messaging/pyodide_connection.py, which needs the page, is imported then), `ft.run`'s
#: module and the one a page imports to draw its first view.
START_MODULES = ("companion.ui.app", "flet.messaging.protocol", "flet.messaging.session", "flet.pubsub.pubsub_hub",
                 "flet.app", "flet.components.component")


def prepare() -> None:
    """Import what the start needs, touching nothing of the page (worker.js takes its snapshot after)."""
    import importlib

    import flet as ft

    for module in START_MODULES:
        importlib.import_module(module)
    for name in FLET_NAMES:
        getattr(ft, name)
    ft.Icons.ADD  # noqa: B018 - Flet reads its table of icon names (the archive's: the app's) at the first one named


def run() -> None:
    """Start the app in the browser: lock and mount first (the browser works on them while Python
    imports what is not imported yet), then the same app as the server's."""
    browser = Browser()
    at_once = take_lock(browser.locks, LOCK, browser.at_once(), browser.callback)
    mounted = mount(browser.fs, DATA, browser.object({"autoPersist": True}), browser.callback)
    opening = asyncio.ensure_future(open_store(asyncio.ensure_future(lock(browser, at_once)), mounted))
    prepare()  # done already after a snapshot

    import flet as ft

    from ..ui.viewmodel import ViewModel

    ViewModel.browser = True
    ft.run(app(browser, opening))
