"""Replay costs time in proportion to the log, `apply` still never changes what it is given, and a
phone that opens a game (or catches up with another phone) takes the state kept in memory instead of
replaying the log. Speed itself is measured by `bench/bench.py replay`, not here."""
from __future__ import annotations

import copy
import marshal

import pytest

from companion.engine import flow
from companion.engine.model import InvalidAction
from companion.games import GAMES
from companion.store import Store
from companion.ui.viewmodel import ViewModel
from tests.test_engine import SCRIPTS
from tests.test_screens import CARCASSONNE

FLANDERS = GAMES["flanders_1302"]
FORM = {"variant": "standard", "start": 0, "empty_city": "ypres", "players": [
    {"colour": "blue", "name": "Anna"}, {"colour": "yellow", "name": "Bořek"}, {"colour": "green", "name": "Cyril"}]}


def corrections(n: int) -> list[dict]:
    return [{"type": "begin", "args": {}}] + [
        {"type": "correct", "args": {"track": "blue", "points": 1, "reason": f"missed {i}"}} for i in range(n)]


def containers(value, found=None) -> dict[int, object]:
    """Every dict and list inside `value`, by id."""
    found = {} if found is None else found
    if isinstance(value, (dict, list)):
        found[id(value)] = value
        for item in value.values() if isinstance(value, dict) else value:
            containers(item, found)
    return found


@pytest.fixture(params=sorted(GAMES))
def scripted(request):
    game = GAMES[request.param]
    form, actions = SCRIPTS[request.param]
    return game, game.new_config(form), [{"type": k, "args": a} for k, a in actions]


# -- linear replay -----------------------------------------------------------------------------------

def copied(monkeypatch, run) -> int:
    """How much data `run` copies (bytes of marshal's image of everything deep-copied or thawed)."""
    total = [0]
    dumps, deepcopy = marshal.dumps, copy.deepcopy

    def counting_dumps(value, *args):
        image = dumps(value, *args)
        total[0] += len(image)
        return image

    def counting_deepcopy(value, memo=None):
        if memo is None:  # only the outermost call: deepcopy recurses through itself
            total[0] += len(dumps(value))
        return deepcopy(value, memo)

    monkeypatch.setattr(marshal, "dumps", counting_dumps)
    monkeypatch.setattr(copy, "deepcopy", counting_deepcopy)
    try:
        run()
    finally:
        monkeypatch.undo()
    return total[0]


def test_replaying_twice_the_log_copies_twice_the_data_not_four_times(monkeypatch):
    config = FLANDERS.new_config(FORM)
    short = copied(monkeypatch, lambda: flow.replay(FLANDERS, config, corrections(400)))
    long = copied(monkeypatch, lambda: flow.replay(FLANDERS, config, corrections(800)))
    assert long < 2.5 * short  # a copy of the growing state per action would be about 4 times


def test_replay_changes_neither_the_log_nor_the_configuration(scripted):
    game, config, log = scripted
    log_before, config_before = copy.deepcopy(log), copy.deepcopy(config)
    state = flow.replay(game, config, log)
    assert log == log_before and config == config_before
    inside = containers(state)
    assert not set(inside) & (set(containers(log)) | set(containers(config)))


def test_every_prefix_replays_to_the_state_step_by_step_apply_reaches(scripted):
    game, config, log = scripted
    state = flow.initial(game, config)
    for n, action in enumerate(log, 1):
        state = flow.apply(game, config, state, action)
        assert flow.replay(game, config, log[:n]) == state


def test_apply_shares_nothing_changeable_with_the_state_it_was_given(scripted):
    game, config, log = scripted
    state = flow.initial(game, config)
    for action in log:
        new = flow.apply(game, config, state, action)
        assert not set(containers(new)) & set(containers(state))
        before = copy.deepcopy(state)
        for part in containers(new).values():  # scribbling over the new state leaves the old one alone
            part.clear()
        assert state == before
        state = flow.apply(game, config, state, action)


def test_a_reducer_that_keeps_its_arguments_cannot_change_the_log_through_a_later_action():
    def keep(state, args, config):
        state["kept"] = args["items"]           # keeps the action's own list ...
        state["seats"] = config["seats"]        # ... and the configuration's

    def grow(state, args, config):
        if not state.get("kept"):
            raise InvalidAction(flow.Msg("nothing kept"))
        state["kept"].append(args["item"])      # ... and a later action changes what it kept
        state["seats"].append(args["item"])
        state["seen"] = list(config["seats"])

    game = FLANDERS._replace(initial_state=lambda config: {}, reducers={"keep": keep, "grow": grow}, moves=None)
    config = {"seats": ["a"]}
    log = [{"type": "keep", "args": {"items": [1]}}, {"type": "grow", "args": {"item": 2}},
           {"type": "grow", "args": {"item": 3}}]
    stepwise = flow.initial(game, config)
    for action in log:
        stepwise = flow.apply(game, config, stepwise, action)
    state = flow.replay(game, config, log)
    assert state == stepwise and state["kept"] == [1, 2, 3] and state["seen"] == ["a"]
    assert log[0]["args"]["items"] == [1] and config == {"seats": ["a"]}


def test_thaw_keeps_what_deepcopy_keeps():
    shared = [1, 2]
    value = {"a": shared, "b": shared, "c": (1, "x", [3]), "d": {4.5, "y"}, "e": None, "f": True}
    thawed = flow.thaw(value)
    assert thawed == value and thawed["a"] is thawed["b"] and thawed["a"] is not shared
    assert thawed["c"][2] is not value["c"][2]

    class Odd(dict):
        pass

    odd = Odd(x=[1])
    assert flow.thaw(odd) == {"x": [1]} and flow.thaw(odd)["x"] is not odd["x"]


# -- opening a game and catching up --------------------------------------------------------------------

def counting(monkeypatch, obj, name) -> list:
    calls, original = [], getattr(obj, name)

    def wrapper(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(obj, name, wrapper)
    return calls


def test_a_phone_that_opens_a_game_another_phone_shows_does_not_replay_it(tmp_path, monkeypatch):
    store = Store(tmp_path)
    (sid,) = store.import_sessions([{"game": FLANDERS.id, "config": FLANDERS.new_config(FORM),
                                     "log": corrections(300), "status": "active"}])
    first = ViewModel(store)
    assert first.open(sid)
    replays = counting(monkeypatch, flow, "replay")
    second = ViewModel(store)
    assert second.open(sid)
    assert replays == [] and second.state == first.state and second.state["scores"]["blue"] == 300
    assert second.session["log"] == store.load(sid)["log"]


def test_news_from_another_phone_is_taken_from_memory_without_reading_or_replaying(tmp_path, monkeypatch):
    store = Store(tmp_path)
    first, second = ViewModel(store), ViewModel(store)
    assert first.new_game("carcassonne", CARCASSONNE) and first.dispatch("begin")
    assert second.open(first.session["id"])
    loads, replays = counting(monkeypatch, store, "load"), counting(monkeypatch, flow, "replay")
    for delta in (1, 1, -1):
        assert first.dispatch("meeple", player="red", delta=delta)
        second.refresh()
        assert second.state == first.state
    assert second.state["meeples"]["red"] == 1 and loads == [] and replays == []
    assert second.dispatch("meeple", player="blue", delta=1)  # and the second phone acts on it
    assert len(store.load(first.session["id"])["log"]) == 5


def test_a_game_changed_on_disk_by_someone_else_is_read_and_replayed(tmp_path):
    store = Store(tmp_path)
    phone = ViewModel(store)
    assert phone.new_game("carcassonne", CARCASSONNE) and phone.dispatch("begin")
    sid = phone.session["id"]
    other = Store(tmp_path)  # another process on the folder: this server's memory does not know
    other.record(sid, {"type": "meeple", "args": {"player": "red", "delta": 1}})
    again = ViewModel(store)
    assert again.open(sid)
    assert again.state["meeples"]["red"] == 1
    assert phone.dispatch("meeple", player="blue", delta=1)  # refused as stale by the file, then counted
    assert phone.state["meeples"] == {"red": 1, "blue": 1, "green": 0}


def test_a_tap_on_a_game_another_process_changed_counts_on_the_game_as_the_file_holds_it(tmp_path):
    store = Store(tmp_path)
    phone = ViewModel(store)
    assert phone.new_game("carcassonne", CARCASSONNE) and phone.dispatch("begin")
    Store(tmp_path).record(phone.session["id"], {"type": "meeple", "args": {"player": "red", "delta": 1}})
    assert phone.dispatch("meeple", player="blue", delta=1), phone.problem
    assert phone.state["meeples"] == {"red": 1, "blue": 1, "green": 0}
    assert len(store.load(phone.session["id"])["log"]) == 3


def test_undo_on_one_phone_reaches_the_other(tmp_path):
    store = Store(tmp_path)
    first, second = ViewModel(store), ViewModel(store)
    assert first.new_game("carcassonne", CARCASSONNE) and first.dispatch("begin")
    assert first.dispatch("meeple", player="red", delta=1)
    assert second.open(first.session["id"]) and second.state["meeples"]["red"] == 1
    assert first.undo()
    second.refresh()
    assert second.state["meeples"]["red"] == 0 and len(second.session["log"]) == 1


def test_drawing_every_screen_leaves_the_shared_state_as_the_log_says(scripted):
    """The state a screen draws is shared by every phone on the game: drawing must not change it."""
    from companion.ui.app import Shell
    from tests.test_screens import Page

    game, _config, log = scripted
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    assert vm.new_game(game.id, SCRIPTS[game.id][0])
    for action in log:
        route = vm.route
        for other in ("scores", "rules", "log", route):
            vm.go(other)
        assert vm.state == flow.replay(game, vm.session["config"], vm.session["log"]), route
        assert vm.dispatch(action["type"], **action["args"]), (action, vm.problem)
    shell.render()
    assert vm.state == flow.replay(game, vm.session["config"], vm.session["log"])


def test_phones_on_one_game_share_one_copy_of_its_log_with_the_times_the_file_holds(tmp_path):
    store = Store(tmp_path)
    (sid,) = store.import_sessions([{"game": FLANDERS.id, "config": FLANDERS.new_config(FORM),
                                     "log": corrections(50), "status": "active"}])
    phones = [ViewModel(store) for _ in range(3)]
    for phone in phones:
        assert phone.open(sid)
    assert phones[0].session["log"] is phones[1].session["log"] is phones[2].session["log"]
    assert phones[0].dispatch("correct", track="blue", points=1, reason="one more")
    late = ViewModel(store)
    assert late.open(sid)
    assert late.state == phones[0].state and "at" in late.session["log"][-1]  # (an imported log has none)
    assert late.session["log"] == store.load(sid)["log"]
