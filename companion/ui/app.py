"""The Flet web app: each browser tab's entry point (`make_main`), its language and its services.

The tab's Shell (companion/ui/shell.py) draws the view-model's current screen in the pinned frame
(frame.py); the screens outside a game are in home.py and history.py, those every game shares in
game_screens.py, and each game's own in its folder (`companion/games/<game id>/screens.py`), declared
by its `SCREENS` (companion/ui/screen_contract.py) and found by `game_ui`.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable

import flet as ft

from .. import table
from ..i18n import LANGUAGES, browser_region
from ..store import Store
from .screen_contract import game_ui
from .shell import PHONE_ANSWER, REDRAW_GAP, Shell, _walk
from .viewmodel import ViewModel

__all__ = ["LANGUAGE_KEY", "REDRAW_GAP", "Shell", "_walk", "browser_language", "browser_tags", "game_ui",
           "make_main", "phone_language"]


async def keep_awake(wakelock: ft.Wakelock) -> None:
    """Ask the device not to sleep during a game (where the browser allows it: localhost or https)."""
    try:
        await wakelock.enable()
    except Exception as error:  # noqa: BLE001 - a browser without the Wake Lock API: the game goes on
        logging.getLogger(__name__).info("no wake lock: %s", error)


#: Where a phone keeps the language chosen on it (each phone its own).
LANGUAGE_KEY = "companion.language"
#: Seconds a new tab waits for its phone to say its language before it draws in the store's (a phone
#: that answers at all answers within this, even on a busy server that has just restarted).
LANGUAGE_ANSWER = PHONE_ANSWER


def locales(lang: str) -> ft.LocaleConfiguration:
    """The language Flutter's own texts take (what a screen reader says of a fold: "Sbaleno")."""
    return ft.LocaleConfiguration(supported_locales=[ft.Locale("cs", "CZ"), ft.Locale("en", "US")],
                                  current_locale=ft.Locale(lang, "CZ" if lang == "cs" else "US"))


def browser_language(tags: Iterable[object]) -> str | None:
    """The first of the app's languages among the browser's (`navigator.languages`: "en-GB", "cs")."""
    for tag in tags:
        code = str(tag).replace("_", "-").split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return None


async def phone_language(page: ft.Page, prefs: ft.SharedPreferences) -> str | None:
    """The language this phone chose last, else the first of its browser's languages the app speaks;
    None when neither is known (the phone did not answer in time)."""
    try:
        chosen = await asyncio.wait_for(prefs.get(LANGUAGE_KEY), LANGUAGE_ANSWER)
        if chosen in LANGUAGES:
            return chosen
        info = await asyncio.wait_for(page.get_device_info(), LANGUAGE_ANSWER)
        return browser_language([*(getattr(info, "languages", None) or []), getattr(info, "language", None) or "",
                                 *(f"{locale.language_code}" for locale in getattr(info, "locales", None) or [])])
    except Exception as error:  # noqa: BLE001 - a phone that left or a browser that does not say: the
        logging.getLogger(__name__).info("the phone's language is not known: %s", error)  # store's setting
        return None


async def browser_tags(page: ft.Page) -> list[str]:
    """The browser's language tags ("en-GB", "cs"), whose region the dates follow; [] when it does
    not say in time."""
    try:
        info = await asyncio.wait_for(page.get_device_info(), LANGUAGE_ANSWER)
    except Exception as error:  # noqa: BLE001 - a phone that left or a browser that does not say
        logging.getLogger(__name__).info("the browser's languages are not known: %s", error)
        return []
    tags = [*(getattr(info, "languages", None) or []), getattr(info, "language", None) or "",
            *(f"{locale.language_code}-{getattr(locale, 'country_code', None) or ''}".rstrip("-")
              for locale in getattr(info, "locales", None) or [])]
    return [str(tag) for tag in tags if tag]


def gone(page: ft.Page) -> bool:
    """Whether the tab's connection is gone (and not back yet)."""
    try:
        return page.session.connection is None
    except RuntimeError:  # the session itself was let go
        return True


def _dress(page: ft.Page) -> None:
    """The page every screen is drawn on: dark, edge to edge."""
    page.theme_mode = ft.ThemeMode.DARK
    page.bgcolor = ft.Colors.BLACK
    page.horizontal_alignment = ft.CrossAxisAlignment.STRETCH
    page.padding = 0  # the frame pins its header and bottom bar; only its body scrolls
    page.dark_theme = ft.Theme(color_scheme_seed=ft.Colors.AMBER)


def _watch_connection(page: ft.Page, shell: Shell, vm: ViewModel) -> None:
    """A phone that leaves is no longer drawn; one that comes back gets its screen as it now is."""
    def left(e: object) -> None:
        # A phone whose connection is gone is not redrawn on news from the others, and its screen
        # is let go (nothing is sent: Flet only forgets it); its session is closed soon after
        # (server.SESSION_TIMEOUT) unless it comes back.
        page.pubsub.unsubscribe_all()
        page.controls.clear()
        shell.forget()
        page.update()

    def back(e: object) -> None:  # back before its session closed: the screen as it now is
        shell.gone = False
        page.pubsub.subscribe(shell.on_broadcast)
        if vm.session:
            vm.refresh()
        if not page.controls:
            shell.render()

    page.on_disconnect = left
    page.on_connect = back
    page.on_close = lambda e: (page.pubsub.unsubscribe_all(), shell.forget())  # no draw outlives it


def make_main(store: Store, join: str | None = None, languages: Iterable[str] | None = None
              ) -> Callable[[ft.Page], None]:
    """The entry point of each browser tab; `join` is the table's join link in table mode. `languages`:
    the browser's language tags when they are known before the tab connects (the phone alone reads
    `navigator.languages` itself): the first screen then has its dates in their region, and is not
    asked for them and drawn again; with the language known too, it is drawn at once."""
    qr = table.qr_svg(join) if join else None

    def main(page: ft.Page) -> None:
        _dress(page)
        vm = ViewModel(store)
        shell = Shell(page, vm, join, qr)
        prefs = shell.prefs = ft.SharedPreferences()

        tags: list[str] = list(languages or ())  # the browser's languages: the dates follow their region

        def chose(lang: str) -> None:  # remembered on this phone: every phone its own language
            vm.t.region = browser_region(tags, lang)
            page.locale_configuration = locales(lang)
            page.run_task(prefs.set, LANGUAGE_KEY, lang)
            if vm.browser:  # the phone alone: its own store too (its backups carry the choice)
                store.set_setting("language", lang)

        vm.on_language = chose
        wakelock = ft.Wakelock()
        shell.wakelock = wakelock  # keep the service alive
        page.data = shell          # ... and the listener; widgets redraw the tab through it
        page.pubsub.subscribe(shell.on_broadcast)
        vm.on_saved = lambda kind, sid, by=None: page.pubsub.send_others((kind, sid, by))

        # The phone alone keeps the language in its own store (as before it was kept on the phone).
        language_known = vm.browser and store.setting("language") in LANGUAGES

        def first_screen() -> None:
            page.locale_configuration = locales(vm.lang)
            if languages is not None:
                vm.t.region = browser_region(tags, vm.lang)
            shell.follow_url(page.route or "/")

        async def start() -> None:
            """The first screen, in the phone's language: its own choice, else its browser's."""
            if not language_known:
                vm.speak(await phone_language(page, prefs))
            if gone(page):
                return  # it left meanwhile: nothing to draw (its session closes after server.SESSION_TIMEOUT)
            first_screen()
            if languages is None:
                tags[:] = await browser_tags(page)     # after the first screen: it need not wait for them
                region = browser_region(tags, vm.lang)
                if region != vm.t.region and not gone(page):
                    vm.t.region = region             # dates as the browser's region writes them ("en-GB")
                    shell.render()

        _watch_connection(page, shell, vm)
        page.on_route_change = lambda e: shell.follow_url(e.route) if isinstance(getattr(e, "route", None), str) \
            and e.route != shell.url() else None  # (a forged event may carry no route)
        if language_known and languages is not None:
            # Nothing to ask the phone (the phone alone): the dark page, its services and the first
            # screen in one patch, where a patch of the dark page alone would be one more frame for
            # the web client to draw while it starts.
            first_screen()
        else:
            page.update()  # the dark page (and the phone's services) while the phone says its language
            page.run_task(start)
        page.run_task(shell.recall_rules)
        page.run_task(keep_awake, wakelock)

    return main
