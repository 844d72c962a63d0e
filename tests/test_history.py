"""History, players and statistics: the summary archived when a game ends, what is computed from it."""
from __future__ import annotations

import csv
import io
import json

import flet as ft
import pytest

from companion import backup, exchange, history, texts
from companion.games import GAMES
from companion.store import Store
from companion.ui.app import Shell
from companion.ui.viewmodel import ViewModel
from tests.test_engine import SCRIPTS
from tests.test_screens import CARCASSONNE, CARCASSONNE_GAME, Page, by_id, controls_of, identifiers, walk


def entry(game, *rows, winners=None, created=0.0, **more):
    """A finished game's catalogue entry: rows of (colour, name, total); places by total, ties shared."""
    totals = sorted((t for _, _, t in rows), reverse=not more.get("lowest"))
    players = [{"colour": c, "name": n, "total": t, "place": totals.index(t) + 1, "breakdown": {"track": t}}
               for c, n, t in rows]
    best = max(t for _, _, t in rows)
    return {"game": game, "status": "finished", "created": created,
            "result": {"players": players, "winners": winners or [c for c, _, t in rows if t == best], **more}}


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
    # two games, two scales: no average or best over both, each game's own
    assert (anna["name"], anna["plays"], anna["wins"], anna["average"], anna["best"]) == ("Anna", 3, 3, None, None)
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
    assert vm.progression() == {"by": "change", "labels": [0, 1, 2, 3, 4],
                                "series": {"red": [0, 2, 2, 2, 5], "blue": [0, 0, 8, 12, 12], "green": [0, 0, 0, 0, 2]}}
    assert history.progression(GAMES["princes_of_the_renaissance"], {}, []) is None


def test_an_imported_finished_game_comes_with_its_summary(tmp_path):
    vm, _ = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")
    other = Store(tmp_path)
    assert exchange.import_json(other, exchange.export_json(vm.store)) == (1, 0)
    assert other.sessions("finished")[0]["result"] == vm.store.sessions("finished")[0]["result"]


def test_the_points_by_category_bars_show_points_and_the_legend_names_the_greys():
    """Each segment of a player's bar says the points it stands for (it said the legend's index: "1"),
    and a screen reader hears the category with them."""
    vm, _ = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")
    vm.set_language("en")
    shell = Shell(Page(), vm)
    sid = vm.session["id"]
    assert vm.view(sid)
    chart = next(c for c in controls_of(shell.page.controls) if isinstance(c, ft.Semantics)
                 and c.identifier == "chart-categories")
    result = vm.store.sessions("finished")[0]["result"]
    segments = sorted(c.semantics_label for c in controls_of([chart]) if isinstance(c, ft.Text) and c.semantics_label)
    expected = sorted(f"{shell.ui.category(shell, c)}: {n}" for row in result["players"]
                      for c, n in row["breakdown"].items() if n > 0)
    assert segments == expected and expected
    shown = [c.value for c in controls_of([chart]) if isinstance(c, ft.Text)]
    assert all(str(n) in shown for row in result["players"] for n in row["breakdown"].values() if n > 0)


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


# -- statistics worked out by hand for a small history ---------------------------------------------

MARCH, APRIL, LAST_YEAR = 1_741_000_000.0, 1_743_600_000.0, 1_710_000_000.0  # 2025-03-03, 2025-04-02, 2024-03-09
NOW = 1_744_000_000.0                                                            # 2025-04-07


def small_history() -> list[dict]:
    return [
        entry("village", ("red", "Anna", 40), ("blue", "Bořek", 30), created=LAST_YEAR, minutes=50),
        entry("village", ("red", "Anna", 20), ("blue", "Bořek", 45), ("green", "Cyril", 45), created=MARCH,
              minutes=70),
        entry("carcassonne", ("red", "Anna", 80), ("blue", "Bořek", 60), created=APRIL, minutes=40),
        dict(entry("score_sheet", ("red", "Anna", 7), ("blue", "Bořek", 12), winners=["red"], created=APRIL,
                   kind="score_sheet:0123456789ab", title="Golf", lowest=True),
             details={"minutes": 15, "place": "Doma", "note": ""}),
    ]


def test_statistics_by_hand_win_rate_head_to_head_high_scores_and_play_time():
    stats = history.statistics(small_history())
    anna = next(p for p in stats["players"] if p["name"] == "Anna")
    assert (anna["plays"], anna["wins"], anna["rate"], anna["last"]) == (4, 3, 75, APRIL)
    borek = next(p for p in stats["players"] if p["name"] == "Bořek")
    assert (borek["plays"], borek["wins"], borek["rate"]) == (4, 1, 25)  # the shared win of game 2
    pair = next(v for v in stats["versus"] if {v["a"], v["b"]} == {"Anna", "Bořek"})
    ahead = {pair["a"]: pair["a_ahead"], pair["b"]: pair["b_ahead"]}
    # Anna ahead in games 1, 3 and 4 (the lowest total wins there); Bořek in game 2
    assert pair["games"] == 4 and pair["ties"] == 0 and ahead == {"Anna": 3, "Bořek": 1}
    cyril = next(v for v in stats["versus"] if {v["a"], v["b"]} == {"Bořek", "Cyril"})
    assert (cyril["games"], cyril["ties"]) == (1, 1)
    village = next(g for g in stats["games"] if g["game"] == "village")
    assert [(t["name"], t["total"]) for t in village["top"]] == [("Bořek", 45), ("Cyril", 45), ("Anna", 40),
                                                                   ("Bořek", 30), ("Anna", 20)]
    assert (village["winning"], village["minutes"]) == (42.5, 60.0)
    golf = next(g for g in stats["games"] if g["game"] == "score_sheet:0123456789ab")
    assert golf["title"] == "Golf" and golf["best"] == 7 and [t["total"] for t in golf["top"]] == [7, 12]
    assert golf["minutes"] == 15  # the players' own play time, not the measured one


def test_statistics_never_average_points_with_town_counts():
    """Elfenland counts towns (up to 20), Carcassonne points (about 100): a player who played both has
    games, wins and a win rate over all, and an average and best only per game; one who played only
    one game has that game's, its best the lowest where the lowest total wins."""
    stats = history.statistics([
        entry("elfenland", ("red", "Anna", 18), ("blue", "Bořek", 15)),
        entry("carcassonne", ("red", "Anna", 90), ("green", "Cyril", 70)),
        dict(entry("score_sheet", ("green", "Cyril", 9), ("blue", "Dana", 12), winners=["green"],
                   kind="score_sheet:0123456789ab", title="Golf", lowest=True)),
        dict(entry("score_sheet", ("green", "Cyril", 11), ("blue", "Dana", 6), winners=["blue"],
                   kind="score_sheet:0123456789ab", title="Golf", lowest=True)),
    ])
    players = {p["name"]: p for p in stats["players"]}
    anna = players["Anna"]
    assert (anna["plays"], anna["wins"], anna["rate"], anna["average"], anna["best"]) == (2, 2, 100, None, None)
    assert anna["games"] == {"carcassonne": {"plays": 1, "wins": 1, "average": 90.0, "best": 90},
                             "elfenland": {"plays": 1, "wins": 1, "average": 18.0, "best": 18}}
    assert (players["Bořek"]["average"], players["Bořek"]["best"]) == (15.0, 15)
    assert (players["Dana"]["average"], players["Dana"]["best"]) == (9.0, 6)  # golf: the lowest is the best


def test_the_statistics_screen_shows_a_players_average_only_within_one_game():
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm.statistics = lambda period, game: {**history.statistics([
        entry("elfenland", ("red", "Anna", 18), ("blue", "Bořek", 15)),
        entry("carcassonne", ("red", "Anna", 90), ("green", "Cyril", 70))]),
        "kinds": [{"key": "elfenland", "game": "elfenland", "title": None, "plays": 1},
                  {"key": "carcassonne", "game": "carcassonne", "title": None, "plays": 1}]}
    for lang in ("cs", "en"):
        vm.set_language(lang)
        vm.go("stats")
        card = next(c for c in controls_of(shell.page.controls)
                    if isinstance(c, ft.Semantics) and c.identifier == "player-0")
        lines = [c.value for c in controls_of([card]) if isinstance(c, ft.Text) and c.value]
        average = vm.t("average {average}, best {best}").split("{")[0]
        assert lines[0] == "Anna"
        overall = next(line for line in lines if "%" in line)
        assert average not in overall                                  # 2 games, 2 scales: no average
        assert sum(average in line for line in lines) == 2             # each game's own, on its own line


def test_the_period_and_game_filters():
    every = small_history()
    assert len(history.chosen(every, "all", now=NOW)) == 4
    assert len(history.chosen(every, "year", now=NOW)) == 3
    assert [e["game"] for e in history.chosen(every, "month", now=NOW)] == ["carcassonne", "score_sheet"]
    assert [e["game"] for e in history.chosen(every, "all", "village", now=NOW)] == ["village", "village"]
    assert [k["key"] for k in history.kinds(every)] == ["village", "carcassonne", "score_sheet:0123456789ab"]


def test_the_progression_of_a_game_with_rounds_reads_by_round():
    from tests.test_screens import STANDARD
    vm, _ = walk(STANDARD, [
        ("begin", {}), ("goto_step", {"step": "scoring"}),
        ("score_city", {"city": "ghent", "quarters": {"blue": 2, "grey": 1}}),
        ("end_round", {"board": False, "deck": False}), ("goto_step", {"step": "scoring"}),
        ("score_city", {"city": "bruges", "quarters": {"yellow": 3}}), ("end_round", {"board": True}),
        *[("score_city", {"city": c, "quarters": {"grey": 1}}) for c in ("leuven", "utrecht", "liege")],
        ("finish", {"cards": {"blue": 0, "yellow": 0, "green": 0}})])
    progress = vm.progression()
    assert progress["by"] == "round" and progress["labels"][:3] == [0, 1, 2]
    assert progress["series"]["blue"][1] > 0 and progress["series"]["yellow"][1] == 0


def test_category_colours_are_greys_that_no_player_colour_resembles():
    from companion.ui.history import PALETTE
    for colour in PALETTE:
        r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
        assert r == g == b, colour                   # no hue: every player colour has one
        assert abs(r - 0x9E) >= 0x20, colour         # and far from the grey player's GREY_500 (#9E9E9E)
    assert len(set(PALETTE)) == len(PALETTE)


def test_a_finished_game_keeps_its_play_time_place_and_note(tmp_path):
    vm, _ = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")
    sid = vm.session["id"]
    assert "minutes" in vm.store.sessions("finished")[0]["result"]
    assert not vm.set_details(sid, "abc", "", "") and vm.problem.field == "minutes"
    assert not vm.set_details(sid, 30, "x" * 61, "") and vm.problem.field == "place"
    assert vm.details(sid) == {"minutes": None, "place": "", "note": ""}
    assert vm.set_details(sid, 95, " U  Nováků ", "Bořek won on the last tile")
    assert vm.details(sid) == {"minutes": 95, "place": "U Nováků", "note": "Bořek won on the last tile"}
    exported = json.loads(exchange.export_json(vm.store))
    assert exported["games"][0]["details"]["minutes"] == 95
    other = Store(tmp_path)
    exchange.import_json(other, exchange.export_json(vm.store))
    assert other.sessions("finished")[0]["details"]["place"] == "U Nováků"
    rows = list(csv.DictReader(io.StringIO(exchange.export_csv(vm.store).removeprefix("\ufeff"))))
    assert {(r["minutes"], r["location"], r["note"]) for r in rows} == {("95", "U Nováků", "Bořek won on the last tile")}


def test_an_abandoned_game_is_in_the_history_marked_and_never_in_the_statistics():
    vm, _ = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")
    shell = Shell(Page(), vm)
    finished = vm.session["id"]
    assert vm.new_game("carcassonne", CARCASSONNE)
    left = vm.session["id"]
    vm.home()
    assert f"abandon-{left}" in set(identifiers(shell.page.controls))
    assert vm.abandon(left)
    assert [e["id"] for e in vm.in_progress()] == []
    assert vm.store.sessions("abandoned")[0]["id"] == left
    stats = vm.statistics()
    assert [row["plays"] for row in stats["kinds"]] == [1]           # only the finished game counts
    assert [e["id"] for e in vm.finished()] == [finished]
    vm.go("history")
    shown = set(identifiers(shell.page.controls))
    assert {f"abandoned-{left}", f"open-{finished}", f"delete-{left}"} <= shown
    assert f"open-{left}" not in shown
    assert not vm.abandon(finished)                                  # a finished game is not let go


def test_an_abandoned_game_can_be_taken_up_again_at_once_or_from_the_history(tmp_path):
    """Abandon had no undo: home offers to take the game up again until the next screen, the history
    for as long as it is kept; the game comes back in progress as it was, also after a restart."""
    vm = ViewModel(Store(tmp_path))
    shell = Shell(Page(), vm)
    assert vm.new_game("carcassonne", CARCASSONNE) and vm.dispatch("begin")
    sid, log = vm.session["id"], vm.session["log"]
    vm.home()
    assert vm.abandon(sid)
    assert "undo-abandon" in set(identifiers(shell.page.controls))
    next(c for c in controls_of([by_id(shell.page, "undo-abandon")]) if getattr(c, "on_click", None)).on_click(None)
    assert [e["id"] for e in vm.in_progress()] == [sid] and not vm.store.sessions("abandoned")
    assert "undo-abandon" not in set(identifiers(shell.page.controls))
    assert vm.abandon(sid)
    vm.go("history")                                  # another screen: home's offer is gone, the history's stays
    assert vm.let_go is None and f"take-up-{sid}" in set(identifiers(shell.page.controls))
    assert vm.take_up(sid) and not vm.take_up(sid)    # taken up once; a game in progress is not "taken up"
    again = ViewModel(Store(tmp_path))
    assert [e["id"] for e in again.in_progress()] == [sid]
    assert again.open(sid) and again.session["log"] == log


def test_a_deleted_game_can_be_had_back_until_the_next_screen():
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    for lang in ("cs", "en"):
        vm.set_language(lang)
        assert vm.new_game("carcassonne", CARCASSONNE)
        sid = vm.session["id"]
        vm.home()
        shell.ask_delete(sid)                                        # asked first
        assert f"delete-question-{sid}" in set(identifiers(shell.page.controls))
        assert vm.in_progress()                                      # nothing deleted yet
        shell.delete_game(sid)
        assert vm.in_progress() == [] and "undo-delete" in set(identifiers(shell.page.controls))
        assert vm.undo_delete()
        assert [e["id"] for e in vm.in_progress()] == [sid]
        assert "undo-delete" not in set(identifiers(shell.page.controls))
        assert vm.delete_game(sid)
        vm.go("history")                                             # the next screen: the deletion stands
        assert vm.deletion is None and not vm.store.undelete(sid)
        vm.home()
        assert vm.in_progress() == [] and "undo-delete" not in set(identifiers(shell.page.controls))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_result_screen_shows_one_total_per_player_the_final_one(game_id):
    """Issue 25: the header's figure for each player is the total the result below it shows (not the
    score track's points before the final scoring, nor gold and influence)."""
    form, actions = SCRIPTS[game_id]
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    assert vm.new_game(game_id, form), vm.problem
    for kind, args in actions:
        assert vm.dispatch(kind, **args), (kind, vm.problem)
    if vm.state.get("phase") != "over":
        pytest.skip(f"the {game_id} script does not end the game")
    assert vm.route == "result"
    shell.render()
    result = vm.game.result(vm.state, vm.session["config"])
    for row in result["players"]:
        chip = next(c for c in controls_of(shell.page.controls)
                    if isinstance(c, ft.Semantics) and c.identifier == f"fig-{row['id']}")
        figures = [c.value for c in controls_of([chip]) if isinstance(c, ft.Text) and c.value != chip_name(vm, row)]
        assert figures == [str(row["total"])], (row["id"], figures)


def bg_stats_play(game_id: str) -> dict:
    """A BG Stats export with one play of the game, named by its English title and BoardGameGeek id."""
    names = ("Anna", "Bořek", "Cyril")
    return {"games": [{"id": 1, "name": texts.english_title(game_id), "bggId": GAMES[game_id].bgg_id}],
            "players": [{"id": k, "name": name} for k, name in enumerate(names, 1)],
            "plays": [{"uuid": f"play-{game_id}", "playDate": "2025-04-07 20:00:00", "durationMin": 45,
                       "gameRefId": 1, "playerScores": [{"playerRefId": k, "score": str(20 - k), "winner": k == 1}
                                                        for k in range(1, len(names) + 1)]}]}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_goes_into_the_history_and_through_every_export_and_back(game_id):
    """The registry's history conformance: a game its SCRIPT ends is shown read-only with the history and
    the statistics in both languages (tests/fuzz.py `script`) and exports as CSV, JSON and BG Stats, each
    imported back as the same history (`check_exchange`); a BG Stats play of the game (any game's, by its
    definition alone) imports as a finished game of it that the same screens draw and that exports back
    as the same play."""
    from tests import fuzz

    tally = fuzz.Tally()
    vm, _ = fuzz.script(game_id, tally)
    if vm.state.get("phase") == "over":
        fuzz.check_exchange(vm.store, tally)
        assert tally.exported == 1
    store = Store(None)
    assert exchange.import_json(store, json.dumps(bg_stats_play(game_id))) == (1, 0)
    (entry,) = store.sessions("finished")
    assert entry["game"] == game_id and entry["imported"] == {"source": "bgstats", "uuid": f"play-{game_id}"}
    vm = ViewModel(store)
    fuzz.draw_archive(vm, Shell(Page(), vm), entry["id"], tally)
    fuzz.check_exchange(store, tally)


def chip_name(vm, row) -> str:
    return next(p["name"] for p in vm.session["config"]["players"] if p["colour"] == row["id"])


def test_an_abandoned_game_stays_abandoned_through_an_export_and_an_import():
    vm = ViewModel(Store(None))
    assert vm.new_game("carcassonne", CARCASSONNE)
    sid = vm.session["id"]
    assert vm.abandon(sid)
    other = Store(None)
    assert exchange.import_json(other, exchange.export_json(vm.store)) == (1, 0)
    assert [e["status"] for e in other.sessions()] == ["abandoned"]
    assert ViewModel(other).finished() == []
