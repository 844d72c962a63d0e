"""One version of the game, on every phone of a table (issue 32): phones that speak the web client's
protocol (tests/phone.py, which applies a patch as the web client does: an index out of range stops it),
behind a slow Wi-Fi (tests/slow_wifi.py: every chunk held 50-300 ms each way), racing on the same
button of the same screen. Each race records exactly one entry, the phone that lost it is told, every
phone's tree stays the server's (no patch it cannot apply), and each phone's next lone tap counts: no
bar is left on an old screen.

The server runs in this process (uvicorn in a thread) in table mode (every screen ends with "This phone
belongs to"); each test starts its own game on it, set up with the game's own actions."""
from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest

from companion import server
from companion.store import Store, stored_game
from companion.ui.viewmodel import ViewModel
from tests.phone import Phone
from tests.slow_wifi import SlowWifi

#: Where each race starts: a game, its new-game form and the actions that bring it to the button.
FLANDERS = {"variant": "standard", "start": 0, "empty_city": "utrecht",
            "players": [{"colour": c, "name": n} for c, n in (("blue", "Anna"), ("yellow", "Bořek"), ("green", "Cyril"))]}
CARCASSONNE = {"start": 0, "gifts": True,
               "players": [{"colour": c, "name": n} for c, n in (("red", "Anna"), ("blue", "Bořek"), ("green", "Cyril"))]}
ELFENGOLD = {"start": 0, "variant": "elfengold", "wizards": True,
             "players": [{"colour": c, "name": n} for c, n in (("red", "Anna"), ("blue", "Bořek"))]}
PRINCES = {"start": 1, "players": [{"colour": c, "name": n} for c, n in
                                   (("baglioni", "Anna"), ("d_este", "Bořek"), ("gonzaga", "Cyril"))]}
SHEET = {"start": 0, "sheet": {"name": "Kvarto", "categories": [], "per_round": True, "lowest": False,
                               "tie_break": None},
         "players": [{"colour": c, "name": n} for c, n in (("red", "Anna"), ("blue", "Bořek"), ("green", "Cyril"))]}

RACES = {
    "flanders-next-step": ("flanders_1302", FLANDERS, [("begin", {})], "next-step"),
    "carcassonne-next-player": ("carcassonne", CARCASSONNE, [("begin", {})], "next-turn"),
    "elfengold-pass": ("elfenland", ELFENGOLD, [("tick", {"item": "board", "done": True}), ("begin", {}),
                                                ("next_phase", {}),
                                                ("reveal", {"tiles": ["dragon", "gold", "tree", "unicorn"]})],
                       "pass-bid"),
    "princes-pass": ("princes_of_the_renaissance", PRINCES, [
        ("tick", {"item": "board", "done": True}), ("begin", {}),
        ("buy_troop", {"troop": "pike", "cost": 4, "attack": 0, "defence": 2}), ("end_turn", {}),
        ("open_auction", {"lot": "city", "city": "rome", "tile": "plain", "gold": 1, "influence": 0, "amount": 10}),
        ("bid", {"player": "baglioni", "amount": 11})], "pass-bid"),
    "carcassonne-undo": ("carcassonne", CARCASSONNE, [("begin", {}), ("meeple", {"player": "red", "delta": 1}),
                                                      ("meeple", {"player": "blue", "delta": 1})], "undo"),
    "carcassonne-tally-next": ("carcassonne", CARCASSONNE, [("begin", {}), ("end_game", {})], "tally-next"),
    "elfengold-bid": ("elfenland", ELFENGOLD, [("tick", {"item": "board", "done": True}), ("begin", {}),
                                               ("next_phase", {}),
                                               ("reveal", {"tiles": ["dragon", "gold", "tree", "unicorn"]})],
                      "bid-min"),
    "carcassonne-tally-add": ("carcassonne", CARCASSONNE, [("begin", {}), ("meeple", {"player": "red", "delta": 1}),
                                                           ("end_game", {})], ("t-tiles-2", "t-m-red", "tally-add")),
}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """The web app in table mode in this process, behind a slow Wi-Fi; yields (its url, its store)."""
    import uvicorn
    from flet_web.fastapi import app_manager

    folder = tmp_path_factory.mktemp("races")
    store = Store(folder)
    store.set_setting("language", "en")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(app_manager, "_FletAppManager__evict_sessions_task", None)  # tests/test_sessions.py says why
        app = server.web_app(store, str(folder), join=f"http://127.0.0.1:{port}/join/x", session_timeout=60)
        runner = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                               ws="websockets-sansio"))
        thread = threading.Thread(target=runner.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 60
        while not runner.started and time.monotonic() < deadline:
            time.sleep(0.05)
        with SlowWifi(("127.0.0.1", port), seed=32) as wifi:
            yield wifi.url, store
        runner.should_exit = True
        thread.join(30)


def new_game(store: Store, game: str, form: dict, actions: list) -> str:
    vm = ViewModel(store)
    assert vm.new_game(game, form), vm.problem
    for kind, args in actions:
        assert vm.dispatch(kind, **args), (kind, vm.problem)
    return vm.session["id"]


def entries(store: Store, sid: str) -> int:
    """How many entries the game's files hold now."""
    return len(stored_game(store.dir, sid)["log"])


async def until(predicate, timeout: float = 30, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def quiet(phones: list[Phone], for_s: float = 0.6) -> None:
    """Until no phone has received anything for `for_s` seconds (the slow Wi-Fi holds a frame up to 0.3 s)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        seen = [p.frames for p in phones]
        await asyncio.sleep(for_s)
        if [p.frames for p in phones] == seen:
            return


def bar_ids(phone: Phone) -> list[str]:
    """The test ids of the buttons in the pinned bottom bar, as the phone shows it."""
    found: dict = {}
    from tests.phone import _semantics
    bar = phone.find("bar")
    if bar is not None:
        _semantics(bar, found)
    return [ident for ident in found if ident != "bar"]


def primary(phone: Phone) -> str:
    """The bar's next action (not Undo)."""
    ids = [ident for ident in bar_ids(phone) if not ident.startswith("undo")]
    assert ids, f"{phone.name}: no next action in the bar"
    return ids[-1]


async def lone_tap(phone: Phone, store: Store, sid: str) -> None:
    """The phone's next tap on its bar counts: the next action, or Undo where the rules refuse that one
    now (a refusal by the rules is an answer of the current screen; "out of date" would be a bar left on
    an old one)."""
    target, count, before = primary(phone), entries(store, sid), phone.text("banner")
    assert await phone.tap(target)
    await until(lambda: entries(store, sid) != count or phone.text("banner") not in (None, before),
                what=f"{phone.name}'s tap on {target}")
    if entries(store, sid) == count and "out of date" in (phone.text("banner") or ""):
        # the phone had not caught up with the lone tap of the phone before (a loaded machine, a slow
        # Wi-Fi): it is told, and its next tap, on the screen it now shows, counts; a bar left on an
        # old screen would be refused again
        await quiet([phone], 1.0)
        target, before = primary(phone), phone.text("banner")
        assert await phone.tap(target)
        await until(lambda: entries(store, sid) != count or phone.text("banner") != before,
                    what=f"{phone.name}'s second tap on {target}")
    if entries(store, sid) == count:
        said = phone.text("banner") or ""
        assert "out of date" not in said, f"{phone.name}'s bar was left on an old screen: {said}"
        assert await phone.tap("undo")
        await until(lambda: entries(store, sid) == count - 1, what=f"{phone.name}'s Undo to count")
    else:
        assert entries(store, sid) == count + 1


def told(phone: Phone) -> bool:
    return "out of date" in (phone.text("banner") or "")


async def race_then_lone_taps(url: str, store: Store, sid: str, taps: str | tuple, phones: int) -> None:
    """Every phone makes `taps` (a form's entries, each on its own phone), then all tap the last at once."""
    *form, button = (taps,) if isinstance(taps, str) else taps
    table = [await Phone(url, f"/game/{sid}", name=f"phone{i}").connect() for i in range(phones)]
    try:
        for phone in table:
            for ident in form:
                await phone.wait_for(ident)
                assert await phone.tap(ident)
                await quiet([phone], 0.4)
            await phone.wait_for(button)
        await quiet(table)
        before = entries(store, sid)
        await asyncio.gather(*(phone.tap(button) for phone in table))       # everyone at once
        await until(lambda: sum(told(p) for p in table) >= phones - 1, what="the late phones to be told")
        await quiet(table)
        change = -1 if button == "undo" else 1  # one entry recorded, or one undone
        assert entries(store, sid) == before + change, "a race recorded more or less than one entry"
        for phone in table:                                                  # then each alone, in turn
            await lone_tap(phone, store, sid)
            await quiet(table)
        for phone in table:
            assert not phone.faults, f"{phone.name} could not apply a patch: {phone.faults}"
            assert not phone.crashed and not phone.dropped
    finally:
        for phone in table:
            await phone.close()


@pytest.mark.parametrize("race, phones", [(race, 2) for race in sorted(RACES)]
                         + [("carcassonne-next-player", 4), ("princes-pass", 4), ("carcassonne-undo", 4)])
def test_a_race_records_one_entry_tells_the_late_phones_and_every_next_tap_counts(table, race, phones):
    url, store = table
    game, form, actions, button = RACES[race]
    sid = new_game(store, game, form, actions)
    asyncio.run(race_then_lone_taps(url, store, sid, button, phones))


def lone_owner(store: Store) -> str:
    """A Carcassonne game on turn one."""
    return new_game(store, "carcassonne", CARCASSONNE, [("begin", {})])


async def home_shows(phone: Phone, sid: str) -> None:
    await until(lambda: phone.find(f"resume-{sid}") is not None or phone.find("new-carcassonne") is not None,
                what=f"{phone.name}'s home screen")


@pytest.mark.parametrize("kind", ["delete", "abandon"])
def test_a_game_let_go_on_one_phone_is_left_on_the_others_with_a_word_and_a_deletion_undone_comes_back(
        table, caplog, kind):
    url, store = table
    sid = lone_owner(store)

    async def play() -> None:
        anna = await Phone(url, f"/game/{sid}", name="anna").connect()
        borek = await Phone(url, f"/game/{sid}", name="borek").connect()
        try:
            await anna.wait_for("me-red")
            assert await anna.tap("me-red")                 # Anna's phone: the game's log says so
            await until(lambda: anna.find("your-turn") is not None, what="Anna's phone to be hers")
            assert await anna.tap("nav-home")
            await anna.wait_for(f"{kind}-{sid}")
            await borek.wait_for("next-turn")
            await quiet([anna, borek])
            borek.hold()                                    # Bořek's next tap goes from the game's screen ...
            assert await anna.tap(f"{kind}-{sid}")
            if kind == "delete":
                await anna.wait_for(f"delete-yes-{sid}")
                assert await anna.tap(f"delete-yes-{sid}")
            await asyncio.sleep(1.0)
            assert await borek.tap("next-turn")             # ... after the game was let go on Anna's phone
            borek.release()
            word = "deleted this game" if kind == "delete" else "abandoned this game"
            await until(lambda: word in (borek.text("notice-banner") or ""), what="Bořek to be told")
            assert "Anna" in borek.text("notice-banner")
            await home_shows(borek, sid)
            await quiet([anna, borek])
            assert borek.find("next-turn") is None and not borek.crashed
            if kind == "delete":
                assert await anna.tap("undo-delete")        # the deletion undone: it opens again on Bořek's
                await until(lambda: borek.find("next-turn") is not None, what="the game back on Bořek's phone")
                assert "back" in (borek.text("notice-banner") or "")
                count = entries(store, sid)
                assert await borek.tap("next-turn")
                await until(lambda: entries(store, sid) == count + 1, what="Bořek's tap to count")
            for phone in (anna, borek):
                assert not phone.faults and not phone.crashed
        finally:
            await anna.close()
            await borek.close()

    asyncio.run(play())
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL") or r.exc_info], \
        [r.getMessage() for r in caplog.records]


def test_a_tap_from_a_game_screen_after_the_phone_went_home_is_answered_not_dropped(table, caplog):
    url, store = table
    sid = lone_owner(store)

    async def play() -> None:
        phone = await Phone(url, f"/game/{sid}", name="phone").connect()
        try:
            await phone.wait_for("next-turn")
            await quiet([phone])
            count = entries(store, sid)
            phone.hold()
            assert await phone.tap("nav-home")
            await asyncio.sleep(0.5)
            assert await phone.tap("next-turn")             # from the game's screen, the phone already home
            phone.release()
            await until(lambda: "already left" in (phone.text("banner") or ""), what="the phone to be told")
            await home_shows(phone, sid)
            assert entries(store, sid) == count and not phone.faults and not phone.crashed
        finally:
            await phone.close()

    asyncio.run(play())
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL") or r.exc_info], \
        [r.getMessage() for r in caplog.records]


async def tap_and_count(phone: Phone, store: Store, sid: str, button: str, change: int = 1) -> None:
    count = entries(store, sid)
    await phone.wait_for(button)
    assert await phone.tap(button)
    await until(lambda: entries(store, sid) == count + change, what=f"{phone.name}'s tap on {button} to count")


@pytest.mark.parametrize("case", ["tally-add", "score-it-teaching"])
def test_after_a_phones_own_entry_its_next_tap_counts(table, case):
    """The walks' freezes with no race at all: the final tally's "Add this one", and "Score it" in a game
    that teaches; the phone's bar follows its own entry, and its next tap counts."""
    url, store = table
    if case == "tally-add":
        sid = new_game(store, "carcassonne", CARCASSONNE, [("begin", {}), ("meeple", {"player": "red", "delta": 1}),
                                                           ("end_game", {})])
        taps = ["t-tiles-2", "t-m-red"]
        entry = "tally-add"
    else:
        vm = ViewModel(store)
        vm.set_teach_next(True)
        assert vm.new_game("carcassonne", CARCASSONNE) and vm.dispatch("begin")
        sid = vm.session["id"]
        taps = ["f-type-road", "f-tiles-3"]
        entry = "score-feature"

    async def play() -> None:
        phones = [await Phone(url, f"/game/{sid}", name=f"phone{i}").connect() for i in range(2)]
        try:
            for ident in taps:
                await phones[0].wait_for(ident)
                assert await phones[0].tap(ident)
                await quiet(phones, 0.5)
            await tap_and_count(phones[0], store, sid, entry)
            await quiet(phones)
            assert not phones[0].text("banner"), phones[0].text("banner")  # never told of its own entry
            await tap_and_count(phones[0], store, sid, primary(phones[0]))
            await quiet(phones)
            await tap_and_count(phones[1], store, sid, primary(phones[1]))
            assert not any(p.faults for p in phones)
        finally:
            for phone in phones:
                await phone.close()

    asyncio.run(play())


def test_a_score_sheet_played_to_the_end_on_three_phones_has_one_entry_per_save(table):
    """Each phone saves its player's cell in every round, tapping Save twice as an impatient thumb does:
    the second tap finds the first answered."""
    url, store = table
    sid = new_game(store, "score_sheet", SHEET, [])
    colours = [p["colour"] for p in SHEET["players"]]

    async def save(phone: Phone, colour: str, digit: int) -> None:
        await phone.wait_for(f"cell-{colour}")
        assert await phone.tap(f"cell-{colour}")
        await until(lambda: phone.find("cell-pad-key-1") is not None, what="the keypad")
        await quiet([phone], 0.5)
        assert await phone.tap(f"cell-pad-key-{digit}")
        await until(lambda: phone.find("cell-save") is not None and "Save" in (phone.text("cell-save") or ""),
                    what=f"{phone.name}'s Save")
        await quiet([phone], 0.5)
        assert await phone.tap("cell-save")
        assert await phone.tap("cell-save")                  # a second tap before the screen caught up

    async def play() -> None:
        phones = [await Phone(url, f"/game/{sid}", name=c).connect() for c in colours]
        try:
            for round_ in range(2):
                for phone, colour in zip(phones, colours):
                    await save(phone, colour, 1 + (round_ + colours.index(colour)) % 9)
                    await quiet(phones)
                scores = [a for a in stored_game(store.dir, sid)["log"].values() if a["type"] == "score"]
                assert len(scores) == 3 * (round_ + 1), "a save was recorded twice (or not at all)"
                await tap_and_count(phones[round_], store, sid, "next-round" if round_ < 1 else "finish")
                await quiet(phones)
            assert not any(p.faults for p in phones)
        finally:
            for phone in phones:
                await phone.close()

    asyncio.run(play())
    log = list(stored_game(store.dir, sid)["log"].values())
    assert [a["type"] for a in log].count("score") == 6 and log[-1]["type"] == "finish"
