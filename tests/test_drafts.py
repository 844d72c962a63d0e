"""Issue 35: a form half filled in survives a reload. The tab's draft is kept on the phone (its
SharedPreferences) with its screen; a new tab on the same game and screen draws it again. What the
phone hands back is hostile until read: a bad draft is dropped, never the game."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace

import flet as ft
import pytest

from companion.store import Store
from companion.ui import drafts
from companion.ui.app import Shell
from companion.ui.viewmodel import ViewModel
from tests.test_screens import STANDARD, Page, by_id, controls_of


class Phone:
    """A phone's SharedPreferences: what the tabs of one browser keep."""

    def __init__(self):
        self.kept: dict[str, str] = {}

    async def get(self, key):
        return self.kept.get(key)

    async def set(self, key, value):
        self.kept[key] = value
        return True


class Tab(Page):
    """A tab: its tasks (the phone's answers) run when the test says, as the event loop would."""

    def __init__(self):
        super().__init__()
        self.tasks: list = []

    def run_task(self, function, *args):
        self.tasks.append((function, args))

    def run(self) -> None:
        for _ in range(20):
            if not self.tasks:
                return
            function, args = self.tasks.pop(0)
            asyncio.run(function(*args))
        raise AssertionError("the tab's tasks never end")


def open_tab(store: Store, phone: Phone, sid: str) -> tuple[ViewModel, Shell]:
    vm = ViewModel(store)
    shell = Shell(Tab(), vm)
    shell.prefs = phone
    vm.set_language("en")
    assert vm.open(sid)
    shell.page.run()
    return vm, shell


def flanders_on_city_scoring(tmp_path) -> tuple[Store, str]:
    store = Store(tmp_path)
    vm = ViewModel(store)
    assert vm.new_game("flanders_1302", STANDARD), vm.problem
    for kind, args in [("begin", {}), ("goto_step", {"step": "scoring"})]:
        assert vm.dispatch(kind, **args), vm.problem
    return store, vm.session["id"]


def tap(shell: Shell, identifier: str) -> None:
    target = next(c for c in controls_of([by_id(shell.page, identifier)]) if getattr(c, "on_click", None))
    target.on_click(SimpleNamespace(page=SimpleNamespace(data=shell)))   # the event: its page's shell
    shell.page.run()


def chosen(shell: Shell, identifier: str) -> bool:
    """A chip is chosen when it is drawn filled."""
    return isinstance(by_id(shell.page, identifier), ft.FilledButton)


def test_a_flanders_city_half_entered_is_there_after_a_reload(tmp_path):
    store, sid = flanders_on_city_scoring(tmp_path)
    phone = Phone()
    _vm, first = open_tab(store, phone, sid)
    for identifier in ("city-ghent", "q-blue-3", "q-yellow-2"):
        tap(first, identifier)
    assert chosen(first, "q-green-0") is False            # the next question: green's quarters
    _vm, again = open_tab(store, phone, sid)               # the page reloaded: a new tab, the same phone
    assert again.draft == first.draft and again.draft["city"]["city"] == "ghent"
    tap(again, "q-green-2")                                # ... and goes on where it was
    assert again.draft["city"]["quarters"] == {"blue": 3, "yellow": 2, "green": 2}


def test_a_draft_sent_is_not_given_back(tmp_path):
    store, sid = flanders_on_city_scoring(tmp_path)
    phone = Phone()
    vm, first = open_tab(store, phone, sid)
    tap(first, "city-ghent")
    first.send("score_city", "city", city="ghent", quarters={"grey": 1}, masters={}, church=0,
               church_with_cathedral=0, neutral_centre=0)
    assert vm.problem is None and first.draft["city"]["city"] is None   # the helper drawn empty again
    first.page.run()
    _vm, again = open_tab(store, phone, sid)
    assert again.draft["city"]["city"] is None


def test_a_draft_of_another_screen_is_not_given_back(tmp_path):
    store, sid = flanders_on_city_scoring(tmp_path)
    phone = Phone()
    vm, first = open_tab(store, phone, sid)
    tap(first, "city-ghent")
    kept = phone.kept[drafts.key(sid)]
    assert vm.dispatch("goto_step", step="reveal")          # another phone moved the game on
    assert drafts.recalled(kept, "body:round:elsewhere") is None
    phone.kept[drafts.key(sid)] = kept
    _vm, again = open_tab(store, phone, sid)
    assert again.draft.get("city", {}).get("city") is None


@pytest.mark.parametrize("kept", [
    "{", "[]", "null", '"text"', '{"screen": 5}', "x" * (drafts.MOST + 1), "[" * 100_000,
    '{"screen": "%s", "draft": []}', '{"screen": "%s", "draft": {"city": 5}}',
    '{"screen": "%s", "draft": {"city": {"city": "atlantis", "quarters": "many", "answered": 7}}}',
])
def test_a_bad_draft_on_the_phone_is_dropped_and_the_game_drawn(tmp_path, kept):
    store, sid = flanders_on_city_scoring(tmp_path)
    phone = Phone()
    _vm, first = open_tab(store, phone, sid)
    phone.kept[drafts.key(sid)] = kept.replace("%s", first._screen) if kept.startswith("{") else kept
    vm, again = open_tab(store, phone, sid)
    assert vm.damaged is None and vm.route == "round"
    assert by_id(again.page, "city-ghent") is not None     # the city helper, drawn from no draft
    tap(again, "city-ghent")
    assert again.draft["city"]["city"] == "ghent"


def test_what_the_phone_keeps_is_json_for_one_screen():
    assert drafts.stored("s", {}) == ""
    assert drafts.stored("s", {"a": {1, 2}}) == ""                         # not JSON: not kept
    assert drafts.stored("s", {"a": "x" * drafts.MOST}) == ""                # too long: not kept
    value = drafts.stored("s", {"city": {"quarters": {"blue": 3}}, "note": "Gent – 3×"})
    assert drafts.recalled(value, "s") == {"city": {"quarters": {"blue": 3}}, "note": "Gent – 3×"}
    assert drafts.recalled(value, "t") is None
