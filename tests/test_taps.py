"""A tap means what its screen showed (issue 22), over the app's websocket protocol: phones that speak
it as the web client does (tests/phone.py), one of them lagging behind (its screen is not redrawn
while it taps), against the real server in this process.

Two phones tapping the same turn-dependent button on the same screen, or one phone tapping twice before
its screen was redrawn, record it once, whatever the delay; the later tap is refused as out of date and
that phone says so. A player's own ledger entry (a meeple) still counts on the game as it now is."""
from __future__ import annotations

import asyncio
import time

import pytest

from companion.store import stored_game
from tests.phone import Phone
from tests.test_sessions import served  # noqa: F401 - the fixture: the web app and a Carcassonne game

pytestmark = pytest.mark.parametrize("served", [60], indirect=True)


def log_of(folder, sid) -> list:
    """The game's actions as its files hold them now."""
    log = stored_game(folder, sid)["log"]
    return [log[k] for k in sorted(log, key=int)]


async def until(predicate, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError
        await asyncio.sleep(0.05)


async def two_phones(url, sid):
    first = await Phone(url, f"/game/{sid}", name="first").connect()
    second = await Phone(url, f"/game/{sid}", name="second").connect()
    await first.wait_for("next-turn")
    await second.wait_for("next-turn")
    return first, second


@pytest.mark.parametrize("gap", [0, 0.05, 0.1, 0.3, 1.0])
def test_two_phones_next_player_on_the_same_screen_counts_once(served, tmp_path, gap):
    url, sid, shells, draws = served

    async def table():
        first, second = await two_phones(url, sid)
        second.hold()                                  # its screen still shows the old turn
        assert await first.tap("next-turn")
        await asyncio.sleep(gap)
        assert await second.tap("next-turn")
        second.release()
        # the later tap is refused (at gap 0 the server may take the second phone's first)
        await until(lambda: any("out of date" in (p.text("banner") or "") for p in (first, second)))
        await first.close()
        await second.close()

    before = len(log_of(tmp_path, sid))
    asyncio.run(table())
    log = log_of(tmp_path, sid)
    assert [a["type"] for a in log[before:]] == ["next_turn"]


@pytest.mark.parametrize("gap", [0, 0.05, 0.1, 0.3])
def test_one_phone_tapping_twice_before_it_redrew_counts_once(served, tmp_path, gap):
    url, sid, shells, draws = served

    async def table():
        phone = await Phone(url, f"/game/{sid}").connect()
        await phone.wait_for("next-turn")
        phone.hold()                                   # the second tap comes from the same screen
        assert await phone.tap("next-turn")
        await asyncio.sleep(gap)
        assert await phone.tap("next-turn")
        phone.release()
        await until(lambda: "out of date" in (phone.text("banner") or ""))
        await phone.close()

    before = len(log_of(tmp_path, sid))
    asyncio.run(table())
    assert [a["type"] for a in log_of(tmp_path, sid)[before:]] == ["next_turn"]


def test_two_undo_taps_on_the_same_screen_undo_one_entry(served, tmp_path):
    url, sid, shells, draws = served

    async def table():
        first, second = await two_phones(url, sid)
        assert await first.tap("meeple-red-plus")
        assert await first.tap("meeple-red-plus")
        await until(lambda: second.text("meeples-red") == "2 / 7" and first.text("meeples-red") == "2 / 7")
        second.hold()
        assert await first.tap("undo")
        await asyncio.sleep(1.0)                       # a phone a second behind
        assert await second.tap("undo")
        second.release()
        await until(lambda: "out of date" in (second.text("banner") or ""))
        await until(lambda: second.text("meeples-red") == "1 / 7")
        await first.close()
        await second.close()

    before = len(log_of(tmp_path, sid))
    asyncio.run(table())
    assert len(log_of(tmp_path, sid)) == before + 1    # two meeples in, one undone


def test_a_players_own_ledger_entry_from_an_older_screen_still_counts(served, tmp_path):
    url, sid, shells, draws = served

    async def table():
        first, second = await two_phones(url, sid)
        second.hold()
        assert await first.tap("meeple-red-plus")
        await asyncio.sleep(0.5)
        assert await second.tap("meeple-blue-plus")    # its own meeple: does not depend on the other's
        second.release()
        await until(lambda: second.text("meeples-blue") == "1 / 7" and second.text("meeples-red") == "1 / 7")
        assert not second.text("banner")
        await first.close()
        await second.close()

    before = len(log_of(tmp_path, sid))
    asyncio.run(table())
    assert [a["args"]["player"] for a in log_of(tmp_path, sid)[before:]] == ["red", "blue"]
