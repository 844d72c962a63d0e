"""Any other game on a score sheet: a GameDef made of data. Highest and lowest wins, per category and
per round, the tie-breaker and shared places, refusals that change nothing, `companion score
score-sheet`, every screen, and the sheets kept by the store (backup, export, import)."""
from __future__ import annotations

import copy
import io
import json
import zipfile

import pytest

from companion import backup, exchange, history
from companion.engine import flow
from companion.engine.model import InvalidAction
from companion.games import GAMES
from companion.games.score_sheet import rules as rules
from companion.store import Store
from companion.ui.app import Shell
from companion.ui.viewmodel import ViewModel
from tests.conftest import run_score
from tests.test_screens import Page, identifiers

GAME = GAMES["score_sheet"]
PLAYERS = [{"colour": "red", "name": "Anna"}, {"colour": "blue", "name": "Bořek"}, {"colour": "green", "name": "Cyril"}]


def sheet(**changes) -> dict:
    return {"name": "Azul", "categories": ["cards", "coins", "bonus"], "per_round": False, "lowest": False,
            "tie_break": None, **changes}


def play(the_sheet: dict, cells: dict[str, list[dict]], finish: bool = True) -> tuple[dict, dict]:
    """A game on `the_sheet` with every player's cells (a list of rounds); returns config and state."""
    config = GAME.new_config({"start": 0, "sheet": the_sheet, "players": PLAYERS[:len(cells)]})
    log = []
    rounds = len(next(iter(cells.values())))
    for r in range(rounds):
        if r:
            log.append({"type": "next_round", "args": {}})
        for colour, rows in cells.items():
            for key, value in rows[r].items():
                log.append({"type": "score", "args": {"player": colour, "category": key, "value": value,
                                                       **({"round": r + 1} if the_sheet["per_round"] else {})}})
    if finish:
        log.append({"type": "finish", "args": {}})
    return config, flow.replay(GAME, config, log)


def places(config, state) -> dict:
    return {r["id"]: (r["total"], r["place"]) for r in GAME.result(state, config)["players"]}


def test_highest_total_wins_per_category():
    config, state = play(sheet(), {"red": [{"cards": 10, "coins": 3, "bonus": 0}],
                                   "blue": [{"cards": 7, "coins": 8, "bonus": 2}],
                                   "green": [{"cards": 1, "coins": 1, "bonus": -1}]})
    assert state["phase"] == "over"
    assert places(config, state) == {"red": (13, 2), "blue": (17, 1), "green": (1, 3)}
    result = GAME.result(state, config)
    assert result["winners"] == ["blue"]
    assert result["players"][1]["breakdown"] == {"cards": 7, "coins": 8, "bonus": 2}


def test_lowest_total_wins_per_round():
    golf = sheet(name="Golf", categories=[], per_round=True, lowest=True)
    config, state = play(golf, {"red": [{"points": 4}, {"points": 5}, {"points": 3}],
                                "blue": [{"points": 3}, {"points": 3}, {"points": 3}],
                                "green": [{"points": 6}, {"points": 2}, {"points": 2}]})
    assert places(config, state) == {"red": (12, 3), "blue": (9, 1), "green": (10, 2)}
    assert GAME.result(state, config)["winners"] == ["blue"]


def test_a_tie_without_a_tie_breaker_shares_the_place_and_the_next_is_skipped():
    config, state = play(sheet(categories=["points"]), {"red": [{"points": 9}], "blue": [{"points": 9}],
                                                        "green": [{"points": 4}]})
    assert places(config, state) == {"red": (9, 1), "blue": (9, 1), "green": (4, 3)}
    result = GAME.result(state, config)
    assert result["winners"] == ["red", "blue"]
    assert any("share the place" in line.english() for line in result["explain"])


@pytest.mark.parametrize("lowest, expected", [
    (False, {"red": 1, "blue": 2, "green": 3}),   # more coins breaks the tie when the highest total wins
    (True, {"red": 3, "blue": 2, "green": 1}),    # fewer coins when the lowest total wins
])
def test_the_tie_breaker_decides_the_same_way_as_the_totals(lowest, expected):
    config, state = play(sheet(tie_break="coins", lowest=lowest),
                         {"red": [{"cards": 5, "coins": 5, "bonus": 0}], "blue": [{"cards": 7, "coins": 3, "bonus": 0}],
                          "green": [{"cards": 0, "coins": 1, "bonus": 0 if lowest else -9}]})
    assert {c: p for c, (_, p) in places(config, state).items()} == expected


def test_players_still_tied_after_the_tie_breaker_share_the_place():
    config, state = play(sheet(tie_break="coins"), {"red": [{"cards": 5, "coins": 5, "bonus": 0}],
                                                    "blue": [{"cards": 5, "coins": 5, "bonus": 0}],
                                                    "green": [{"cards": 9, "coins": 1, "bonus": 0}]})
    assert places(config, state) == {"red": (10, 1), "blue": (10, 1), "green": (10, 3)}
    assert any("still tied" in line.english() for line in GAME.result(state, config)["explain"])


@pytest.mark.parametrize("change, field", [
    ({"name": " "}, "sheet.name"), ({"name": "x" * 41}, "sheet.name"), ({"categories": []}, "sheet.categories"),
    ({"categories": ["a", "A "]}, "sheet.categories.1"), ({"categories": [""]}, "sheet.categories.0"),
    ({"categories": ["c"] * 13}, "sheet.categories"), ({"tie_break": "nope"}, "sheet.tie_break"),
    ({"lowest": "yes"}, "sheet.lowest"), ({"per_round": 1}, "sheet.per_round"), ({"id": "../x"}, "sheet"),
])
def test_a_bad_sheet_is_refused_naming_the_field(change, field):
    with pytest.raises(InvalidAction) as error:
        GAME.new_config({"start": 0, "sheet": sheet(**change), "players": PLAYERS})
    assert error.value.field == field


def test_twelve_players_at_most_in_distinct_colours():
    twelve = [{"colour": c, "name": f"P{i}"} for i, c in enumerate(rules.COLOURS)]
    assert len(GAME.new_config({"start": 0, "sheet": sheet(), "players": twelve})["players"]) == 12
    with pytest.raises(InvalidAction) as error:
        GAME.new_config({"start": 0, "sheet": sheet(), "players": twelve + [{"colour": "red", "name": "X"}]})
    assert error.value.field == "players"


@pytest.mark.parametrize("action, field", [
    ({"type": "score", "args": {"player": "red", "category": "cards", "value": 10_000}}, "value"),
    ({"type": "score", "args": {"player": "red", "category": "cards", "value": 1.5}}, "value"),
    ({"type": "score", "args": {"player": "red", "category": "gems", "value": 1}}, "category"),
    ({"type": "score", "args": {"player": "black", "category": "cards", "value": 1}}, "player"),
    ({"type": "score", "args": {"player": "red", "category": "cards", "value": 1, "round": 2}}, "round"),
    ({"type": "finish", "args": {}}, "cell.blue.1.cards"),
    ({"type": "next_round", "args": {}}, None),
])
def test_refusals_name_the_field_and_change_nothing(action, field):
    config, state = play(sheet(), {"red": [{"cards": 1}], "blue": [{}]}, finish=False)
    before = copy.deepcopy(state)
    with pytest.raises(InvalidAction) as error:
        flow.apply(GAME, config, state, action)
    assert error.value.field == field and state == before


def test_a_round_opens_only_when_the_current_one_is_complete():
    config, state = play(sheet(categories=[], per_round=True), {"red": [{"points": 1}], "blue": [{}]}, finish=False)
    with pytest.raises(InvalidAction) as error:
        flow.apply(GAME, config, state, {"type": "next_round", "args": {}})
    assert error.value.field == "cell.blue.1.points" and "Bořek" in error.value.msg.english()
    state = flow.apply(GAME, config, state, {"type": "score", "args": {"player": "blue", "category": "points",
                                                                        "value": 0, "round": 1}})
    assert flow.apply(GAME, config, state, {"type": "next_round", "args": {}})["round"] == 2


def test_the_undo_label_names_the_player_and_the_points():
    config = GAME.new_config({"start": 0, "sheet": sheet(per_round=True), "players": PLAYERS})
    said = GAME.describe({"type": "score", "args": {"player": "blue", "category": "coins", "value": 7, "round": 2}},
                         config)
    assert said.english() == "Round 2: Bořek, coins 7"


def test_the_header_shows_every_total_and_place():
    config, state = play(sheet(), {"red": [{"cards": 3}], "blue": [{"cards": 5}], "green": [{}]}, finish=False)
    guide = GAME.guide(state, config)
    assert {c: m.text.format(**m.params) for c, m in guide.figures.items()} == {
        "red": "3 · 2.", "blue": "5 · 1.", "green": "0 · 3."}


def test_the_progression_reads_by_rounds():
    config, state = play(sheet(categories=[], per_round=True), {"red": [{"points": 2}, {"points": 3}],
                                                                "blue": [{"points": 1}, {"points": 5}]})
    log = [{"type": "score", "args": {"player": "red", "category": "points", "value": 2, "round": 1}},
           {"type": "score", "args": {"player": "blue", "category": "points", "value": 1, "round": 1}},
           {"type": "next_round", "args": {}},
           {"type": "score", "args": {"player": "red", "category": "points", "value": 3, "round": 2}},
           {"type": "score", "args": {"player": "blue", "category": "points", "value": 5, "round": 2}},
           {"type": "finish", "args": {}}]
    assert history.progression(GAME, config, log) == {"by": "round", "labels": [0, 1, 2],
                                                      "series": {"red": [0, 2, 5], "blue": [0, 1, 6]}}


def test_companion_score_scores_a_sheet(tmp_path):
    done = run_score("score-sheet", {"sheet": sheet(tie_break="coins"), "players": [
        {"id": "anna", "scores": {"cards": 5, "coins": 5, "bonus": 0}},
        {"id": "bob", "scores": {"cards": 7, "coins": 3, "bonus": 0}}]})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["game"] == "score-sheet" and out["winners"] == ["anna"]
    assert [(p["id"], p["total"], p["place"]) for p in out["players"]] == [("anna", 10, 1), ("bob", 10, 2)]
    rounds = run_score("score-sheet", {"sheet": sheet(categories=[], per_round=True, lowest=True), "players": [
        {"id": "a", "rounds": [{"points": 3}, {"points": 4}]}, {"id": "b", "rounds": [{"points": 2}, {"points": 2}]}]})
    assert json.loads(rounds.stdout)["winners"] == ["b"]


@pytest.mark.parametrize("payload, field", [
    ({"sheet": sheet(), "players": [{"id": "a", "scores": {"cards": 1, "coins": 1}}]}, "players[0].scores.bonus"),
    ({"sheet": sheet(), "players": [{"id": "a", "scores": {"cards": 1, "coins": 1, "bonus": 10_000}}]},
     "players[0].scores.bonus"),
    ({"sheet": sheet(categories=["a", "a"]), "players": [{"id": "a", "scores": {}}]}, "sheet.categories[1]"),
    ({"sheet": sheet(per_round=True), "players": [
        {"id": "a", "rounds": [{"cards": 1, "coins": 1, "bonus": 1}]}, {"id": "b", "rounds": []}]}, "players[1].rounds"),
])
def test_companion_score_refuses_bad_input_naming_the_field(payload, field):
    done = run_score("score-sheet", payload)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.startswith(f"error: {field}")


def sheet_game(vm: ViewModel, per_round: bool = True) -> str:
    form = {"start": 0, "sheet": sheet(name="Azul", categories=[], per_round=per_round),
            "players": PLAYERS}
    assert vm.new_sheet_game(form), vm.problem
    for r in range(3):
        if r:
            assert vm.dispatch("next_round"), vm.problem
        for i, p in enumerate(PLAYERS):
            assert vm.dispatch("score", player=p["colour"], category="points", value=i + r, round=r + 1), vm.problem
    assert vm.dispatch("finish"), vm.problem
    return vm.session["id"]


def test_every_sheet_screen_builds_in_both_languages_through_a_whole_game():
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    shell.sheet_form(None)
    assert {"sheet-name", "category-0", "create", "colour-0", "count-12"} <= set(identifiers(shell.page.controls))
    form = {"start": 0, "sheet": sheet(per_round=True, tie_break="coins"), "players": PLAYERS}
    assert vm.new_sheet_game(form)
    for lang in ("cs", "en"):
        vm.set_language(lang)
        for route in ("round", "scores", "rules", "log"):
            vm.go(route)
            assert "header" in set(identifiers(shell.page.controls))
    vm.go("round")
    shown = set(identifiers(shell.page.controls))
    assert {"cell-red", "cell-blue", "cell-green", "cell-pad", "cat-1", "fig-red"} <= shown
    for key in ("cards", "coins", "bonus"):
        for p in PLAYERS:
            assert vm.dispatch("score", player=p["colour"], category=key, value=1, round=1)
    shell.render()
    assert "next-round" in set(identifiers(shell.page.controls))
    assert vm.dispatch("next_round") and vm.route == "round"
    shell.render()
    assert "round-2" in set(identifiers(shell.page.controls))


def test_a_sheet_is_kept_and_its_games_counted_as_its_own_game():
    vm = ViewModel(Store(None))
    sid = sheet_game(vm)
    (kept,) = vm.sheets()
    assert kept["name"] == "Azul" and kept["id"] and vm.session["config"]["sheet"]["id"] == kept["id"]
    again = dict(kept, lowest=True)
    assert vm.new_sheet_game({"start": 0, "sheet": again, "players": PLAYERS[:2]})
    assert [s["lowest"] for s in vm.sheets()] == [True]   # the same sheet, changed: not a second one
    stats = vm.statistics()
    assert [g["game"] for g in stats["games"]] == [f"score_sheet:{kept['id']}"]
    assert stats["games"][0]["title"] == "Azul"
    assert vm.store.sessions("finished")[0]["title"] == "Azul" and sid


def test_sheets_and_their_games_travel_in_the_json_export_and_the_backup(tmp_path):
    vm = ViewModel(Store(tmp_path / "a"))
    sheet_game(vm)
    exported = exchange.export_json(vm.store)
    data = json.loads(exported)
    assert [s["name"] for s in data["sheets"]] == ["Azul"] and data["games"][0]["game"] == "score-sheet"
    target = Store(tmp_path / "b")
    assert exchange.import_json(target, exported) == (1, 0)
    assert target.sheets() == vm.sheets()
    assert target.sessions("finished")[0]["result"]["kind"] == vm.store.sessions("finished")[0]["result"]["kind"]
    restored = tmp_path / "c"
    backup.restore(restored, backup.backup(tmp_path / "a"))
    assert Store(restored).sheets() == vm.sheets()


@pytest.mark.parametrize("bad", [{"id": "zz", "name": "X"}, {"id": "0123456789ab", "name": "", "categories": ["a"],
                                                             "per_round": False, "lowest": False, "tie_break": None}])
def test_a_damaged_sheet_refuses_the_import_and_the_restore(tmp_path, bad):
    vm = ViewModel(Store(tmp_path / "a"))
    sheet_game(vm)
    data = json.loads(exchange.export_json(vm.store))
    data["sheets"] = [bad]
    with pytest.raises(exchange.ImportRefused) as error:
        exchange.check_json(json.dumps(data))
    assert "sheets[0]" in str(error.value)
    blob = io.BytesIO(backup.backup(tmp_path / "a"))
    with zipfile.ZipFile(blob) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    catalogue = json.loads(files["companion.json"])
    catalogue["sheets"] = {"1": bad}
    files["companion.json"] = json.dumps(catalogue).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, body in files.items():
            archive.writestr(name, body)
    with pytest.raises(backup.BackupRefused) as refused:
        backup.restore(tmp_path / "d", out.getvalue())
    assert "score sheet" in str(refused.value)


def test_a_catalogue_cut_short_gives_back_the_sheet_and_the_finished_game(tmp_path):
    """The list of games rebuilt from the game files: a sheet's finished game is finished with its result,
    and the sheet is in Our sheets again."""
    vm = ViewModel(Store(tmp_path))
    sid = sheet_game(vm)
    finished, sheets = vm.finished(), vm.sheets()
    catalogue = tmp_path / "companion.json"
    catalogue.write_bytes(catalogue.read_bytes()[:-30])
    again = ViewModel(Store(tmp_path))
    assert [e["id"] for e in again.finished()] == [sid] and again.finished() == finished
    assert again.sheets() == sheets and len(sheets) == 1
