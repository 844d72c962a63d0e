"""One version per game, owned by the referee (issue 32): every recorded action and every undo raises it
by one, the store writes an action only onto the version it was judged on, and the action that finishes
a game is written together with the game's status and summary (one write: a kill can never leave a
finished game listed as running, or the other way round, for good)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from companion.referee import Referee
from companion.store import Store, stored_game
from companion.ui.viewmodel import ViewModel
from tests.conftest import ROOT

SHEET = {"start": 0, "sheet": {"name": "Kvarto", "categories": ["points"], "per_round": False, "lowest": False,
                               "tie_break": None},
         "players": [{"colour": "red", "name": "Anna"}, {"colour": "blue", "name": "Bořek"}]}


def test_a_tap_is_judged_on_the_version_its_screen_was_drawn_from(tmp_path):
    """An undo and another entry leave the log as long as before: a tap of the screen before them is
    still out of date (a length would have taken it)."""
    store = Store(tmp_path)
    vm = ViewModel(store)
    assert vm.new_game("carcassonne", {"start": 0, "players": [{"colour": "red", "name": "Anna"},
                                                               {"colour": "blue", "name": "Bořek"}]})
    assert vm.dispatch("begin") and vm.dispatch("next_turn")
    drawn = vm.session["version"]
    referee = Referee(store)
    sid, config = vm.session["id"], vm.session["config"]
    assert referee.undo(sid, "carcassonne", config, drawn).accepted
    assert referee.submit(sid, "carcassonne", config, drawn + 1, {"type": "next_turn", "args": {}}).accepted
    verdict = referee.submit(sid, "carcassonne", config, drawn, {"type": "next_turn", "args": {}})
    assert verdict.stale and verdict.version == drawn + 2 and len(verdict.log) == 2
    assert "out of date" in verdict.refusal.english()


def test_the_finishing_action_carries_the_games_status_in_its_own_line(tmp_path):
    store = Store(tmp_path)
    vm = ViewModel(store)
    assert vm.new_game("score_sheet", SHEET)
    assert vm.dispatch("score", player="red", category="points", value=3)
    assert vm.dispatch("score", player="blue", category="points", value=5)
    assert vm.dispatch("finish")
    sid = vm.session["id"]
    line = json.loads((tmp_path / "sessions" / f"{sid}.log").read_text().splitlines()[-1])
    assert line["action"]["type"] == "finish" and line["r"]["winners"] == ["blue"]
    assert stored_game(tmp_path, sid)["meta"]["1"]["result"] == line["r"]
    assert [e["status"] for e in store.sessions() if e["id"] == sid] == ["finished"]
    assert vm.undo()                                  # the finish undone: one write of the file, then the list
    assert "result" not in stored_game(tmp_path, sid)["meta"]["1"]
    assert [e["status"] for e in Store(tmp_path).sessions() if e["id"] == sid] == ["active"]


#: Runs in a process of its own: opens the game and finishes it (or takes the finish back), and dies at
#: the K-th write of the disk (a write, an fsync or a rename), as a kill or a power cut would stop it.
KILLED_AT = """
import os, sys
from companion.store import Store
from companion.ui.viewmodel import ViewModel
folder, sid, k, what = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
vm = ViewModel(Store(folder))
assert vm.open(sid)
count = 0
def dies(fn):
    def wrapped(*args, **kwargs):
        global count
        count += 1
        if count == k:
            os._exit(9)
        return fn(*args, **kwargs)
    return wrapped
os.write, os.fsync, os.replace = dies(os.write), dies(os.fsync), dies(os.replace)
assert vm.dispatch("finish") if what == "finish" else vm.undo()
print("done", count)
"""


@pytest.mark.parametrize("what", ["finish", "undo"])
def test_a_kill_at_any_write_of_a_finish_leaves_the_game_and_its_listing_agreeing(tmp_path, what):
    template = tmp_path / "template"
    vm = ViewModel(Store(template))
    assert vm.new_game("score_sheet", SHEET)
    assert vm.dispatch("score", player="red", category="points", value=3)
    assert vm.dispatch("score", player="blue", category="points", value=5)
    if what == "undo":
        assert vm.dispatch("finish")
    sid = vm.session["id"]
    behind = 0  # kills that left the game's file ahead of the list of games (mended at the next start)
    for k in range(1, 40):
        folder = tmp_path / f"k{k}"
        shutil.copytree(template, folder)
        done = subprocess.run([sys.executable, "-c", KILLED_AT, str(folder), sid, str(k), what], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
        listed = json.loads((folder / "companion.json").read_text())["sessions"]
        before_start = next(e for e in listed.values() if e["id"] == sid)["status"]
        store = Store(folder)                       # the next start
        finished = stored_game(folder, sid)["log"] and "finish" in [
            a["type"] for a in stored_game(folder, sid)["log"].values()]
        entry = next(e for e in store.sessions() if e["id"] == sid)
        assert entry["status"] == ("finished" if finished else "active"), (k, done.stdout, done.stderr)
        if finished:
            assert entry["result"]["winners"] == ["blue"]
        behind += before_start != entry["status"]
        if done.returncode == 0:
            break
    else:
        pytest.fail("the finish never got to its end")
    assert done.stdout.startswith("done") and k > 3
    assert behind >= 1, "no kill fell between the game's write and the list's (the test would not see it)"


def test_a_stale_tap_says_what_happened_meanwhile_and_who_acts_now(tmp_path):
    """Issue 35: "Meanwhile: Turn ended." said nothing of whose turn it is now: the message names who
    acts now, as the header does."""
    from tests.test_screens import PRINCES
    store = Store(tmp_path)
    vm = ViewModel(store)
    assert vm.new_game("princes_of_the_renaissance", PRINCES)
    assert vm.dispatch("begin")
    drawn = vm.session["version"]
    assert vm.dispatch("end_turn")                                  # Anna's turn ends on another phone
    verdict = Referee(store).submit(vm.session["id"], "princes_of_the_renaissance", vm.session["config"], drawn,
                                    {"type": "end_turn", "args": {}})
    assert verdict.stale
    said = verdict.refusal.english()
    assert said.startswith("Meanwhile: Turn ended. On turn: Bořek.") and "not recorded" in said, said


def test_a_refusal_of_the_rules_keeps_the_field_it_is_about(tmp_path):
    """The referee passed on an engine refusal's message but not its field, so every game's refused
    entry was shown at the top of the screen instead of next to what was wrong (a Carcassonne feature's
    tiles, a Village sale's goods)."""
    store = Store(tmp_path)
    vm = ViewModel(store)
    assert vm.new_game("carcassonne", {"start": 0, "players": [{"colour": "red", "name": "Anna"},
                                                               {"colour": "blue", "name": "Bořek"}]})
    assert vm.dispatch("begin")
    action = {"type": "score_feature", "args": {"type": "road", "tiles": 0, "meeples": {"red": 1}}}
    verdict = Referee(store).submit(vm.session["id"], "carcassonne", vm.session["config"], vm.session["version"],
                                    action)
    assert verdict.refusal is not None and verdict.field == "tiles", verdict
    assert not vm.dispatch("score_feature", type="road", tiles=0, meeples={"red": 1})
    assert vm.problem.field == "tiles"
