"""Czech as the Czech editions say it: "z"/"ze" picked by the number, decimals written as Czech
writes them, technical reasons in Czech too."""
from __future__ import annotations

import dataclasses
import re

import flet as ft
import pytest

from companion import texts
from companion.engine.model import Msg
from companion.i18n import Translator, czech_z, translations
from companion.store import Store
from companion.ui.app import Shell
from companion.ui.viewmodel import ViewModel
from tests.test_history import CARCASSONNE, CARCASSONNE_GAME
from tests.test_screens import Page, walk

TEXTS, SECTIONS = texts.load_all()


# -- "z" or "ze" by the number ------------------------------------------------------------------------

@pytest.mark.parametrize("n, form", [(1, "z"), (2, "ze"), (3, "ze"), (4, "ze"), (5, "z"), (6, "ze"), (7, "ze"),
                                     (8, "z"), (9, "z"), (10, "z"), (11, "z"), (12, "ze"), (15, "z"),
                                     (17, "ze"), (20, "ze"), (24, "ze"), (30, "ze"), (50, "z"), (65, "ze"),
                                     (72, "ze"), (80, "z"), (100, "ze"), (500, "z"), (1000, "z"), (2000, "ze")])
def test_z_or_ze_by_how_the_number_is_read(n, form):
    assert czech_z(n) == form


@pytest.mark.parametrize("message, plural, params, expected", [
    ("Round {round} of {rounds}", None, {"round": 1, "rounds": 6}, "Kolo 1 ze 6"),
    ("Round {round} of {rounds}", None, {"round": 2, "rounds": 4}, "Kolo 2 ze 4"),
    ("Tile {k} of {n}: {tile}", None, {"k": 3, "n": 8, "tile": "Drak"}, "Dílek 3 z 8: Drak"),
    ("Tile {k} of {n}: {tile}", None, {"k": 3, "n": 12, "tile": "Drak"}, "Dílek 3 ze 12: Drak"),
    ("{done} of {n} item ticked", "{done} of {n} items ticked", {"done": 2, "n": 7}, "Hotovo 2 ze 7 položek"),
    ("{done} of {n} item ticked", "{done} of {n} items ticked", {"done": 2, "n": 9}, "Hotovo 2 z 9 položek"),
])
def test_a_czech_message_takes_ze_before_2_3_4_6_7(message, plural, params, expected):
    cs = translations("cs")
    template = cs.gettext(message) if plural is None else cs.ngettext(message, plural, params["n"])
    assert template.format(**params) == expected


def test_engine_messages_and_rule_texts_take_ze_too():
    table = {"elfenland.setup.base_obstacles": {"cs": TEXTS["elfenland.setup.base_obstacles"]["cs"]}}
    t = Translator("cs", lambda key, lang: table[key][lang])
    assert t.text("elfenland.setup.base_obstacles").format(n=4).startswith("Každý ze 4 hráčů")
    assert t.text("elfenland.setup.base_obstacles").format(n=5).startswith("Každý z 5 hráčů")
    sealed = Msg("{n} of {all} player has sealed: {names}", {"n": 2, "all": 3, "names": "Anna, Bořek"},
                 plural="{n} of {all} players have sealed: {names}", n=2)
    assert "2 ze 3 hráčů" in t.msg(sealed)


# -- numbers for the language ------------------------------------------------------------------------

def test_decimals_are_written_as_the_language_writes_them():
    assert Translator("cs", lambda key, lang: key).number(1.7) == "1,7"
    assert Translator("en", lambda key, lang: key).number(1.7) == "1.7"
    assert Translator("cs", lambda key, lang: key).number(35.0) == "35"


def test_the_statistics_show_czech_decimals():
    vm, _ = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")  # totals 5, 12, 2: average 6.3
    shell = Shell(Page(), vm)
    shown = {}
    for lang in ("cs", "en"):
        vm.set_language(lang)
        vm.home()
        vm.go("stats")
        shown[lang] = " ".join(shown_texts(shell.page.controls))
    assert "6,3" in shown["cs"] and "6.3" not in shown["cs"]
    assert "6.3" in shown["en"]


def shown_texts(controls):
    for control in controls:
        if isinstance(control, ft.Text) and control.value:
            yield control.value
        for field in dataclasses.fields(control):
            value = getattr(control, field.name, None)
            if isinstance(value, ft.BaseControl):
                yield from shown_texts([value])
            elif isinstance(value, list):
                yield from shown_texts([v for v in value if isinstance(v, ft.BaseControl)])


# -- technical reasons in Czech too -------------------------------------------------------------------

ENGLISH_WORDS = re.compile(r"\b(the|is|not|must|file|valid|missing|line|column|archive|truncated|cards|gold)\b")


def test_a_refused_file_is_explained_in_czech(tmp_path):
    store = Store(tmp_path)
    store.set_setting("language", "cs")
    vm = ViewModel(store)
    for bad in (b'{"format": {"name": "companion", "version": 1}, "games": [', b'{"format": {"name": "other"}}',
                b'{"format": {"name": "companion", "version": 1}, "games": [{"game": "flanders_1302"}]}'):
        assert not vm.import_games(bad)
        reason = vm.problem.text.split(": ", 1)[1]
        assert not ENGLISH_WORDS.search(reason.replace('"format"', "")), reason
    assert not vm.restore_backup(b"not a zip")
    assert vm.problem.text.endswith("archiv zip nelze přečíst (není neúplný?)")

