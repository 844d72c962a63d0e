"""Two screens on one stored game (table mode without the browser): what counts when both act at once."""
from __future__ import annotations

import asyncio
import types
from concurrent.futures import ThreadPoolExecutor

import flet as ft

from companion import backup
from companion.store import Store
from companion.ui.app import REDRAW_GAP, Shell
from companion.ui.viewmodel import ViewModel
from tests.test_screens import CARCASSONNE, Page, controls_of


def two_phones(tmp_path):
    store = Store(tmp_path)
    store.set_setting("language", "en")
    first, second = ViewModel(store), ViewModel(store)
    assert first.new_game("carcassonne", CARCASSONNE)
    assert first.dispatch("begin") and first.dispatch("goto_step", step="meeple")
    assert second.open(first.session["id"])
    return store, first, second


def test_a_ledger_entry_on_a_stale_screen_still_counts_on_the_current_game(tmp_path):
    store, first, second = two_phones(tmp_path)
    assert first.dispatch("meeple", player="red", delta=1)
    assert second.dispatch("meeple", player="blue", delta=1), second.problem  # second had not seen red's
    assert second.state["meeples"] == {"red": 1, "blue": 1, "green": 0}     # ... and now shows both
    log = store.load(first.session["id"])["log"]
    assert [a["args"].get("player") for a in log[-2:]] == ["red", "blue"]


def test_a_step_of_the_game_on_a_stale_screen_is_refused_and_the_current_state_shown(tmp_path):
    store, first, second = two_phones(tmp_path)
    assert first.dispatch("next_turn")
    assert not second.dispatch("next_turn")  # two "next player" taps must not both count
    assert "out of date" in second.problem.text
    assert second.state["turn"] == first.state["turn"]
    assert len(store.load(first.session["id"])["log"]) == len(first.session["log"])


def test_a_ledger_entry_not_allowed_on_the_current_game_is_refused_with_its_reason(tmp_path):
    store, first, second = two_phones(tmp_path)
    assert first.dispatch("meeple", player="red", delta=1)
    second.refresh()                                          # news of red's meeple
    assert second.dispatch("meeple", player="red", delta=-1)  # ... and it came back
    assert first.dispatch("meeple", player="green", delta=1)
    before = len(store.load(first.session["id"])["log"])
    assert not first.dispatch("meeple", player="red", delta=-1)  # first still shows red's meeple out
    assert "None of this player's meeples" in first.problem.text
    assert first.state["meeples"] == {"red": 0, "blue": 0, "green": 1}
    assert len(store.load(first.session["id"])["log"]) == before


def test_news_from_other_phones_arriving_together_is_merged_into_one_catch_up(tmp_path):
    store, first, second = two_phones(tmp_path)
    shell = Shell(Page(), second)
    draws = []
    second.subscribe(lambda: draws.append(len(second.session["log"])))
    sid = first.session["id"]

    async def busy_table():
        first_news = asyncio.create_task(shell.on_broadcast(("game", sid)))
        await asyncio.sleep(0)        # the first catch-up is under way ...
        for _ in range(3):            # ... when three more saves arrive
            assert first.dispatch("meeple", player="green", delta=1)
            await shell.on_broadcast(("game", sid))
        await first_news
        await asyncio.sleep(3 * REDRAW_GAP)  # the draws that were waiting

    with ThreadPoolExecutor(1) as pool:  # a loop of its own: the browser tests' may be running here
        pool.submit(asyncio.run, busy_table()).result(30)
    assert second.state["meeples"]["green"] == 3
    assert len(draws) <= 2 and draws[-1] == len(first.session["log"])


def test_sealed_entries_wait_on_disk_through_a_restart_and_are_revealed_once(tmp_path):
    store, first, second = two_phones(tmp_path)
    revealed = []
    assert first.seal("bid", "red", 3, revealed.append)
    assert second.seal("bid", "blue", 5, revealed.append)
    assert second.sealed("bid") == ["blue", "red"] and not revealed
    after_restart = ViewModel(Store(tmp_path))  # the server was restarted: nothing sealed is lost
    assert after_restart.open(first.session["id"])
    assert after_restart.sealed("bid") == ["blue", "red"]
    after_restart.seal("bid", "green", 1, revealed.append)
    assert revealed == [{"red": 3, "blue": 5, "green": 1}]
    assert first.sealed("bid") == [] and after_restart.sealed("bid") == []


def test_a_game_restored_away_on_another_phone_sends_this_one_home_with_a_message(tmp_path):
    store, first, second = two_phones(tmp_path)
    empty = tmp_path / "empty"
    Store(empty)
    blob = backup.backup(empty)
    assert first.restore_backup(blob)
    assert not second.dispatch("next_turn")
    assert second.route == "home" and second.session is None
    assert second.problem.text == "This game could not be opened."


def test_a_phone_that_belongs_to_a_player_bids_and_passes_only_for_that_player(tmp_path):
    """Table mode: Bořek's phone cannot pass (or bid) for Anna; the host's screen (nobody's) can,
    and Anna's own phone can; nothing is recorded by the refusal."""
    from tests.test_screens import PRINCES
    store = Store(tmp_path)
    store.set_setting("language", "en")
    host, anna, borek = ViewModel(store), ViewModel(store), ViewModel(store)
    assert host.new_game("princes_of_the_renaissance", PRINCES) and host.dispatch("begin")
    first = host.game.guide(host.state, host.session["config"]).actor
    assert host.dispatch("open_auction", lot="pope", amount=0)
    bidder = host.state["auction"]["next"]
    for vm, me in ((anna, bidder), (borek, first)):
        assert vm.open(host.session["id"])
        vm.me = me
    before = len(store.load(host.session["id"])["log"])
    assert not borek.dispatch("pass_bid", player=bidder)
    assert "This phone belongs to" in borek.problem.text and len(store.load(host.session["id"])["log"]) == before
    assert anna.dispatch("pass_bid", player=bidder), anna.problem
    host.refresh()
    assert len(host.session["log"]) == before + 1 and host.state["auction"]["out"] == [bidder]


def test_a_phone_changing_hands_is_a_line_in_the_log_every_phone_sees(tmp_path):
    store, first, second = two_phones(tmp_path)
    shell = Shell(Page(), first)
    shell.join = "http://table"                           # table mode: the footer says whose phone it is
    shell.render()
    whose = [c for c in _controls(shell) if getattr(c, "identifier", None) == "me-blue"][0]
    _click(whose)
    assert first.me == "blue"
    second.refresh()
    assert second.history()[0] == "Table: a phone now belongs to Bořek"
    _click([c for c in _controls(shell) if getattr(c, "identifier", None) == "me--"][0])
    assert first.me is None
    second.refresh()
    assert second.history()[0] == "Table: the phone of Bořek now belongs to nobody"
    assert second.undo_label() == "Undo: Setup finished, the game begins"  # the lines never bury the last entry


def test_undo_of_another_players_entry_on_an_owned_phone_asks_first(tmp_path):
    store, first, second = two_phones(tmp_path)
    first.me = "red"
    assert first.dispatch("meeple", player="red", delta=1)
    assert store.load(first.session["id"])["log"][-1]["by"] == "red"   # who entered it
    second.me = "blue"
    second.refresh()
    shell = Shell(Page(), second)
    shell.render()
    shown = [getattr(c, "identifier", None) for c in _controls(shell)]
    assert shown.index("meeple-blue-plus") < shown.index("meeple-others") < shown.index("meeple-red-plus")  # its own first
    _click(_by_id(shell, "undo"))
    assert second.session["log"][-1]["type"] == "meeple"               # nothing undone yet: it asks
    assert "Anna" in " ".join(c.value for c in controls_of([_by_id(shell, "undo-question")]) if isinstance(c, ft.Text))
    _click(_by_id(shell, "undo-keep"))
    assert not _by_id(shell, "undo-question", missing=True)
    assert not second.dispatch("meeple", player="red", delta=1)          # a refusal first (Anna's meeples)...
    shell.render()
    assert _by_id(shell, "message", missing=True)
    _click(_by_id(shell, "undo"))                                        # ...then the newer question: in the slot
    assert _by_id(shell, "undo-question", missing=True) and second.problem is None
    _click(_by_id(shell, "undo-keep"))
    _click(_by_id(shell, "undo"))
    _click(_by_id(shell, "undo-yes"))
    assert second.state["meeples"]["red"] == 0
    assert first.dispatch("meeple", player="red", delta=1)               # one's own entry: no question
    first.refresh()
    own = Shell(Page(), first)
    own.render()
    _click(_by_id(own, "undo"))
    assert first.state["meeples"]["red"] == 0


def _controls(shell):
    from companion.ui.app import _walk
    return list(_walk(shell.page.controls))


def _by_id(shell, ident, missing=False):
    """The control inside the test id `ident` (the Semantics' content), or None when `missing` is allowed."""
    found = [c for c in _controls(shell) if getattr(c, "identifier", None) == ident]
    if missing:
        return found[0].content if found else None
    return found[0].content


def _click(control):
    from companion.ui.app import _walk
    target = next(c for c in _walk([control]) if getattr(c, "on_click", None))
    target.on_click(None)


def test_a_draw_waiting_when_the_phone_left_draws_nothing(tmp_path):
    """A draw set on a timer before the phone's connection went (Flet let go of it, the app has not yet
    heard) or before its session was closed never draws: its connection is gone."""
    store, first, second = two_phones(tmp_path)
    page = Page()
    page.session = types.SimpleNamespace(connection=object())
    shell = Shell(page, second)
    drawn = []
    page.update = lambda: drawn.append(len(second.session["log"]))
    sid = first.session["id"]

    async def leaves(how):
        assert first.dispatch("meeple", player="green", delta=1)
        await shell.on_broadcast(("game", sid))  # a draw is waiting ...
        how()                                    # ... when the phone leaves
        await asyncio.sleep(3 * REDRAW_GAP)

    def connection_gone():
        page.session.connection = None

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, leaves(connection_gone)).result(30)
        assert drawn == []
        page.session.connection = object()
        pool.submit(asyncio.run, leaves(shell.forget)).result(30)  # the session closed (page.on_close)
        assert drawn == []
