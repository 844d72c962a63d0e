"""History, players and statistics: the summary archived when a game ends, what is computed from it."""
from __future__ import annotations

from companion import backup, exchange, history
from companion.games import GAMES
from companion.store import Store
from companion.ui.app import Shell
from companion.ui.viewmodel import ViewModel
from tests.test_screens import CARCASSONNE, CARCASSONNE_GAME, Page, identifiers, walk


def entry(game, *rows, winners=None):
    players = [{"colour": c, "name": n, "total": t, "place": 0, "breakdown": {"track": t}} for c, n, t in rows]
    best = max(t for _, _, t in rows)
    return {"game": game, "status": "finished",
            "result": {"players": players, "winners": winners or [c for c, _, t in rows if t == best]}}


def test_statistics_per_game_per_player_count_and_per_player():
    stats = history.statistics([
        entry("village", ("red", "Anna", 40), ("blue", "Bořek", 30)),
        entry("village", ("blue", " anna ", 50), ("red", "Bořek", 20), ("green", "Cyril", 35)),
        entry("carcassonne", ("red", "ANNA", 80), ("green", "Cyril", 80)),  # a shared win
        {"game": "village", "status": "active"},                             # not finished: not counted
    ])
    village = next(g for g in stats["games"] if g["game"] == "village")
    assert (village["plays"], village["average"], village["best"]) == (2, 35.0, 50)
    assert village["counts"] == [{"players": 2, "plays": 1, "average": 35.0, "best": 40},
                                 {"players": 3, "plays": 1, "average": 35.0, "best": 50}]
    anna = stats["players"][0]
    assert (anna["name"], anna["plays"], anna["wins"], anna["average"], anna["best"]) == ("Anna", 3, 3, 56.7, 80)
    assert anna["colour"] == "red"  # two of her three games
    assert anna["games"]["village"] == {"plays": 2, "wins": 2, "average": 45.0, "best": 50}
    cyril = next(p for p in stats["players"] if p["name"] == "Cyril")
    assert (cyril["plays"], cyril["wins"]) == (2, 1)


def test_finishing_a_game_archives_its_summary_and_undo_takes_it_back():
    vm, _ = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")
    (done,) = vm.store.sessions("finished")
    assert {p["name"]: p["total"] for p in done["result"]["players"]} == {"Anna": 5, "Bořek": 12, "Cyril": 2}
    assert done["result"]["winners"] == ["blue"]
    vm.undo()
    (active,) = vm.store.sessions("active")
    assert not active["result"]


def test_games_finished_before_the_history_get_their_summary_once(tmp_path):
    vm, _ = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")
    sid = vm.session["id"]
    vm.store.set_results({sid: None})  # as stored by an older version
    assert not vm.store.sessions("finished")[0]["result"]
    assert [e["id"] for e in vm.finished()] == [sid]
    assert vm.store.sessions("finished")[0]["result"]["winners"] == ["blue"]


def test_the_progression_follows_the_score_track_and_ends_on_the_final_totals():
    vm, _ = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")
    assert vm.progression() == {"red": [0, 2, 2, 2, 5], "blue": [0, 0, 8, 12, 12], "green": [0, 0, 0, 0, 2]}
    assert history.progression(GAMES["princes_of_the_renaissance"], {}, []) is None


def test_an_imported_finished_game_comes_with_its_summary(tmp_path):
    vm, _ = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")
    other = Store(tmp_path)
    assert exchange.import_json(other, exchange.export_json(vm.store)) == (1, 0)
    assert other.sessions("finished")[0]["result"] == vm.store.sessions("finished")[0]["result"]


def test_history_statistics_and_a_read_only_past_game_build_in_both_languages():
    vm, _ = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")
    shell = Shell(Page(), vm)
    sid = vm.session["id"]
    for lang in ("cs", "en"):
        vm.set_language(lang)
        vm.home()
        vm.go("history")
        assert f"open-{sid}" in set(identifiers(shell.page.controls))
        vm.go("stats")
        assert {"player-0", "stats-carcassonne"} <= set(identifiers(shell.page.controls))
        assert vm.view(sid) and vm.route == "archive" and shell.url() == f"/history/{sid}"
        shown = set(identifiers(shell.page.controls))
        assert {"chart-categories", "chart-progress", "winner"} <= shown
        assert not shown & {"undo", "nav-scores", "nav-rules", "correct-save"}  # read-only
    vm.go("history")
    assert vm.route == "history"


def test_import_and_restore_from_the_screen_and_refused_files_change_nothing(tmp_path):
    source, _ = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")
    export = exchange.export_json(source.store).encode()
    store = Store(tmp_path / "data")
    store.set_setting("language", "en")
    vm = ViewModel(store)
    assert vm.import_games(export) and vm.notice == "1 game imported; 0 were there already"
    assert vm.import_games(export) and vm.notice == "0 games imported; 1 was there already"
    saved = backup.backup(tmp_path / "data")
    for bad in (b"\xff\xfe", b'{"format": {"name": "other"}}', export[:-10]):
        assert not vm.import_games(bad)
        assert vm.problem.text.startswith("The file was refused and nothing was changed:")
    assert len(store.sessions()) == 1
    assert not vm.restore_backup(b"not a zip") and len(store.sessions()) == 1
    target = Store(tmp_path / "other")
    target.set_setting("language", "en")
    other = ViewModel(target)
    assert other.restore_backup(saved) and other.notice.startswith("1 game restored")
    assert [e["result"]["winners"] for e in other.finished()] == [["blue"]]
