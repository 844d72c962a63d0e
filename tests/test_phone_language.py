"""Each phone its own language (table mode): the choice is told to the phone, not written as the
server's one setting; the first visit follows the browser's languages; dates as the language writes
them; and the join link's QR code drawn as a vector every phone can draw."""
from __future__ import annotations

import asyncio
import re
import sys
import time
from types import SimpleNamespace

import flet as ft
import segno

from companion import table
from companion.i18n import format_when
from companion.store import Store
from companion.ui.app import LANGUAGE_KEY, browser_language, phone_language
from companion.ui.viewmodel import ViewModel

#: 2 December 2026, 17:05 local time.
WHEN = time.mktime((2026, 12, 2, 17, 5, 0, 0, 0, -1))


def test_a_language_chosen_on_a_phone_is_told_to_it_and_not_made_everybodys():
    store = Store(None)
    store.set_setting("language", "cs")
    told = []
    anna = ViewModel(store)
    anna.on_language = told.append
    anna.set_language("en")
    assert told == ["en"] and anna.lang == "en"
    assert store.setting("language") == "cs"         # the next phone is not switched with her
    assert ViewModel(store).lang == "cs"
    phone = ViewModel(store)
    phone.speak("en")                                 # its own choice (or its browser's) first
    assert phone.lang == "en" and store.setting("language") == "cs"
    phone.speak("de")                                 # one the app does not speak: nothing changes
    phone.speak(None)
    assert phone.lang == "en"
    alone = ViewModel(store)                          # no phone to tell (the CLI, older callers): the setting
    alone.set_language("en")
    assert store.setting("language") == "en"


def test_the_first_of_the_browsers_languages_the_app_speaks():
    assert browser_language(["de-DE", "en-GB", "cs"]) == "en"
    assert browser_language(["cs-CZ", "en-US"]) == "cs"
    assert browser_language(["sk", "de"]) is None
    assert browser_language([]) is None


def test_dates_as_the_language_writes_them(monkeypatch):
    assert format_when(WHEN, "cs") == "2. 12. 2026"
    assert format_when(WHEN, "en") == "Dec 2, 2026"
    assert format_when(WHEN, "cs", year=False, clock=True) == "2. 12. 17:05"
    assert format_when(WHEN, "en", year=False, clock=True).replace("\u202f", " ") == "Dec 2 5:05 PM"
    with_babel = [format_when(WHEN, lang, year, clock).replace("\xa0", " ").replace("\u202f", " ")
                  for lang in ("cs", "en") for year in (True, False) for clock in (True, False)]
    monkeypatch.setitem(sys.modules, "babel.dates", None)  # the browser build ships no Babel
    by_hand = [format_when(WHEN, lang, year, clock).replace("\xa0", " ").replace("\u202f", " ")
               for lang in ("cs", "en") for year in (True, False) for clock in (True, False)]
    assert by_hand == with_babel


def test_the_qr_code_is_a_vector_of_exactly_the_links_modules():
    link = "http://192.168.43.5:8550/join/" + "A" * 32
    svg = table.qr_svg(link).decode()
    size = int(re.search(r'viewBox="0 0 (\d+) \1"', svg)[1])
    drawn = [[False] * size for _ in range(size)]
    for x, y, width in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\3z", svg):
        for column in range(int(x), int(x) + int(width)):
            drawn[int(y)][column] = True
    expected = [[bool(bit) for bit in row] for row in segno.make(link, error="m").matrix]
    assert [row[2:-2] for row in drawn[2:-2]] == expected    # and a light border of 2 modules around it
    assert not any(drawn[0] + drawn[1] + drawn[-1] + drawn[-2])


class Phone:
    """What a new tab asks its phone: the language kept on it, and the browser's (or no answer)."""

    def __init__(self, kept=None, languages=(), fails=False):
        self.kept, self.languages, self.fails = kept, list(languages), fails

    async def get(self, key):
        assert key == LANGUAGE_KEY
        return self.kept

    async def get_device_info(self):
        if self.fails:
            raise TimeoutError("no answer")
        return SimpleNamespace(languages=self.languages, language=self.languages[0] if self.languages else None,
                               locales=[])


def test_a_new_tab_takes_the_phones_choice_else_its_browsers():
    def ask(phone):
        return asyncio.run(phone_language(phone, phone))
    assert ask(Phone("en", ["cs-CZ"])) == "en"            # chosen on this phone before
    assert ask(Phone(None, ["en-GB", "cs"])) == "en"      # a first visit: the browser's language
    assert ask(Phone("de", ["de-AT", "cs-CZ"])) == "cs"
    assert ask(Phone(None, ["de-AT"])) is None            # neither: the store's setting
    assert ask(Phone(None, fails=True)) is None           # a phone that does not answer draws anyway


# -- issue 34 ---------------------------------------------------------------------------------------

def test_dates_follow_the_browsers_region(monkeypatch):
    """An en-GB browser got US dates ("Dec 3 9:35 AM"): a date follows the region of the browser's tag
    in the language shown, by hand (the browser build) as with Babel."""
    from companion.i18n import Translator, browser_region
    assert browser_region(["en-GB", "cs"], "en") == "GB" and browser_region(["cs-CZ", "en-US"], "en") == "US"
    assert browser_region(["cs"], "cs") is None and browser_region(["de-AT"], "en") is None
    assert format_when(WHEN, "en", region="GB") == "2 Dec 2026"
    assert format_when(WHEN, "en", year=False, clock=True, region="GB") == "2 Dec 17:05"
    assert format_when(WHEN, "en", region="US") == "Dec 2, 2026"
    assert Translator("en", lambda key, lang: key, region="GB").when(WHEN) == "2 Dec 2026"
    cases = [(lang, region, year, clock) for lang, region in (("en", "GB"), ("en", "US"), ("en", "IE"), ("cs", "CZ"))
             for year in (True, False) for clock in (True, False)]
    with_babel = [format_when(WHEN, lang, year, clock, region).replace("\u202f", " ") for lang, region, year, clock in cases]
    monkeypatch.setitem(sys.modules, "babel.dates", None)
    by_hand = [format_when(WHEN, lang, year, clock, region).replace("\u202f", " ") for lang, region, year, clock in cases]
    assert by_hand == with_babel


def test_the_browsers_tags_are_read_for_the_region():
    from companion.ui.app import browser_tags
    assert asyncio.run(browser_tags(Phone(None, ["en-GB", "cs"]))) == ["en-GB", "cs", "en-GB"]
    assert asyncio.run(browser_tags(Phone(None, fails=True))) == []


class Tab:
    """Just enough of ft.Page for make_main's first screen; the tasks it starts are kept, not run."""

    def __init__(self):
        self.controls, self.title, self.route, self.tasks, self.updates = [], "", "/", [], 0
        self.pubsub = SimpleNamespace(subscribe=lambda handler: None)
        self.session = SimpleNamespace(connection=object())

    def navigate(self, route):
        self.route = route

    def update(self):
        self.updates += 1

    def run_task(self, handler, *args):
        self.tasks.append(handler)

    async def get_device_info(self):
        raise AssertionError("the phone alone knows its browser's languages: it does not ask the phone")


def texts_of(controls):
    from companion.flet_internals import set_fields
    for control in controls:
        if isinstance(getattr(control, "value", None), str):
            yield control.value
        for _name, value in set_fields(control):
            yield from texts_of([v for v in (value if isinstance(value, list) else [value]) if isinstance(v, ft.BaseControl)])


def test_the_phone_alone_draws_its_first_screen_once_with_dates_in_the_browsers_region(monkeypatch):
    """The browser entry passes navigator.languages: the home screen's dates are in their region at once,
    with no question to the phone and no second draw, and it goes with the dark page in one patch (each
    patch more is a frame more for the web client while it starts)."""
    from companion.games import GAMES
    from companion.ui.app import make_main

    monkeypatch.setattr(ViewModel, "browser", True)
    store = Store(None)
    store.set_setting("language", "en")
    sid = store.create_session("carcassonne", GAMES["carcassonne"].new_config(
        {"start": 0, "gifts": False, "players": [{"colour": "red", "name": "Anna"}, {"colour": "blue", "name": "Bořek"}]}))
    tab = Tab()
    make_main(store, languages=["en-GB", "en"])(tab)
    created = store.sessions()[0]["created"]
    assert store.sessions()[0]["id"] == sid
    assert f"Started {format_when(created, 'en', year=False, clock=True, region='GB')}" in texts_of(tab.controls)
    assert tab.updates == 1  # the dark page and the home screen at once, and drawn once
    assert [task.__name__ for task in tab.tasks] == ["recall_rules", "keep_awake"]  # no question to the phone
