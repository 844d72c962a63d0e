"""BG Stats interchange (companion/bgstats.py): its export imported as finished games (the five games
and score sheets), a second import adding nothing, the round trip, broken files refused with nothing
changed, and the commands."""
from __future__ import annotations

import copy
import json
import time

import pytest

from companion import backup, bgstats, exchange, history, texts
from companion.games import GAMES
from companion.store import Store
from companion.ui.viewmodel import ViewModel
from tests.test_exchange import companion, played, snapshot


def sample() -> dict:
    """A BG Stats export written for these tests: Carcassonne by its BoardGameGeek id, Flanders 1302
    by its Czech name, Village by its id under another name, and two other games (one lowest wins)."""
    def scores(*rows):
        return [{"playerRefId": ref, "score": score, "winner": win, "startPlayer": seat == 1, "newPlayer": False,
                 "seatOrder": seat} for seat, (ref, score, win) in enumerate(rows, 1)]
    return {
        "games": [{"id": 1, "name": "Carcassonne", "bggId": 822, "highestWins": True},
                  {"id": 2, "name": "Flandry 1302", "bggId": 0},
                  {"id": 3, "name": "Village (Big Box)", "bggId": 104006},
                  {"id": 4, "name": "Azul", "bggId": 230802, "highestWins": True},
                  {"id": 5, "name": "Golf", "bggId": 0, "highestWins": False}],
        "players": [{"id": 10, "name": "Anna"}, {"id": 11, "name": "Bořek"}, {"id": 12, "name": "Cyril"}],
        "locations": [{"id": 5, "name": "U Anny"}],
        "plays": [
            {"uuid": "a1", "playDate": "2025-03-14 20:05:00", "durationMin": 45, "gameRefId": 1, "locationRefId": 5,
             "playerScores": scores((10, "88", True), (11, "71", False))},
            {"uuid": "b2", "playDate": "2025-04-01 19:00:00", "durationMin": 60, "gameRefId": 2, "locationRefId": 0,
             "playerScores": scores((11, "40", True), (12, "35", False), (10, "35", False))},
            {"uuid": "c3", "playDate": "2025-04-02 19:00:00", "durationMin": 80, "gameRefId": 3,
             "playerScores": scores((12, "52", False), (10, "52", True))},
            {"uuid": "d4", "playDate": "2025-05-02 18:30:00", "durationMin": 30, "gameRefId": 4,
             "playerScores": scores((12, "61", True), (10, "", False))},
            {"uuid": "e5", "playDate": "2025-05-03 18:30:00", "durationMin": 0, "gameRefId": 5,
             "playerScores": scores((10, "-3", True), (11, "4", False))}]}


def text(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False)


def by_date(store: Store) -> list[dict]:
    return sorted(store.sessions("finished"), key=lambda e: e["created"])


def test_plays_become_finished_games_of_the_five_and_score_sheets(tmp_path):
    store = Store(str(tmp_path))
    assert exchange.import_json(store, text(sample())) == (5, 0)
    entries = by_date(store)
    assert [e["game"] for e in entries] == ["carcassonne", "flanders_1302", "village", "score_sheet", "score_sheet"]
    assert all(e["imported"]["source"] == "bgstats" for e in entries)
    assert [e["imported"]["uuid"] for e in entries] == ["a1", "b2", "c3", "d4", "e5"]
    carcassonne, flanders, village, azul, golf = entries
    assert time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(carcassonne["created"])) == "2025-03-14 20:05:00"
    assert [(r["name"], r["total"], r["place"]) for r in carcassonne["result"]["players"]] == [("Anna", 88, 1),
                                                                                               ("Bořek", 71, 2)]
    names = {r["colour"]: r["name"] for r in carcassonne["result"]["players"]}
    assert [names[w] for w in carcassonne["result"]["winners"]] == ["Anna"]
    assert carcassonne["details"] == {"minutes": 45, "place": "U Anny", "note": ""}
    assert flanders["details"] == {"minutes": 60, "place": "", "note": ""}
    assert [(r["name"], r["place"]) for r in flanders["result"]["players"]] == [("Bořek", 1), ("Cyril", 2),
                                                                                ("Anna", 2)]
    # the file's winner decides a tie of totals
    assert [(r["name"], r["place"]) for r in village["result"]["players"]] == [("Cyril", 2), ("Anna", 1)]
    assert azul["result"]["title"] == "Azul" and [r["total"] for r in azul["result"]["players"]] == [61, 0]
    assert golf["result"].get("lowest") is True and golf["details"]["minutes"] is None
    stats = history.statistics(store.sessions())
    assert {g["game"]: g["plays"] for g in stats["games"]} == {
        "carcassonne": 1, "flanders_1302": 1, "village": 1, "score_sheet:azul": 1, "score_sheet:golf": 1}
    anna = next(p for p in stats["players"] if p["name"] == "Anna")
    assert (anna["plays"], anna["wins"]) == (5, 3)
    assert next(g for g in stats["games"] if g["game"] == "carcassonne")["minutes"] == 45


def test_an_imported_game_opens_as_its_result_not_as_damaged(tmp_path):
    store = Store(str(tmp_path))
    exchange.import_json(store, text(sample()))
    vm = ViewModel(store)
    assert {e["id"] for e in vm.finished()} == {e["id"] for e in store.sessions()}
    for entry in store.sessions():
        assert vm.view(entry["id"]), vm.problem
        assert vm.route == "archive" and vm.damaged is None and vm.problem is None
        assert vm.session["imported"]["result"] == entry["result"] and vm.progression() is None


def test_a_second_import_adds_nothing(tmp_path):
    store = Store(str(tmp_path))
    assert exchange.import_json(store, text(sample())) == (5, 0)
    before = snapshot(tmp_path)
    assert exchange.import_json(store, text(sample())) == (0, 5)
    assert snapshot(tmp_path) == before
    more = sample()
    more["plays"].append(dict(more["plays"][0], uuid="f6", playDate="2025-06-01 20:00:00"))
    assert exchange.import_json(store, text(more)) == (1, 5)


def shown(store: Store) -> list:
    """What the history shows of every finished game."""
    out = []
    for e in by_date(store):
        winners = {r["colour"]: r["name"] for r in e["result"]["players"]}
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(e["created"]))
        out.append((e["game"], e["result"].get("title"), when,
                    [(r["name"], r["total"], r["place"]) for r in e["result"]["players"]],
                    sorted(winners[w] for w in e["result"]["winners"]), history.minutes(e),
                    (e.get("details") or {}).get("place", "")))
    return out


def test_round_trip_through_a_bg_stats_file_gives_the_same_history(tmp_path):
    source = played(Store(str(tmp_path / "a")))  # a Carcassonne game played here (and one in progress)
    vm = ViewModel(source)
    sid = source.sessions("finished")[0]["id"]
    assert vm.set_details(sid, "95", "Na chatě", "")
    exchange.import_json(source, text(sample()))
    exported = exchange.export_bgstats(source)
    data = json.loads(exported)
    assert len(data["plays"]) == 6
    assert {g["name"]: g["bggId"] for g in data["games"]} == {
        "Carcassonne": 822, "Flanders 1302": 0, "Village": 104006, "Azul": 0, "Golf": 0}
    assert next(g for g in data["games"] if g["name"] == "Golf")["highestWins"] is False
    here = next(p for p in data["plays"] if p["uuid"] not in {"a1", "b2", "c3", "d4", "e5"})
    assert here["durationMin"] == 95 and isinstance(here["playerScores"][0]["score"], str)
    assert {loc["name"] for loc in data["locations"]} == {"Na chatě", "U Anny"}
    target = Store(str(tmp_path / "b"))
    assert exchange.import_json(target, exported) == (6, 0)
    assert shown(target) == shown(source)
    assert exchange.export_bgstats(target) == exported
    assert exchange.import_json(target, exported) == (0, 6)


def test_imported_games_survive_the_json_export_a_backup_and_a_lost_catalogue(tmp_path):
    source = Store(str(tmp_path / "a"))
    exchange.import_json(source, text(sample()))
    copy_ = Store(str(tmp_path / "b"))
    assert exchange.import_json(copy_, exchange.export_json(source)) == (5, 0)
    assert shown(copy_) == shown(source)
    assert exchange.import_json(copy_, exchange.export_json(source)) == (0, 5)
    assert exchange.import_json(copy_, text(sample())) == (0, 5)  # the same plays, by their uuid
    assert backup.restore(tmp_path / "c", backup.backup(tmp_path / "a"))[0] == 5
    assert shown(Store(str(tmp_path / "c"))) == shown(source)
    (tmp_path / "a" / "companion.json").unlink()
    assert shown(Store(str(tmp_path / "a"))) == shown(copy_)


def broken(change) -> str:
    data = sample()
    change(data)
    return text(data)


def put(path: str, value):
    """A change setting `path` (keys and indexes split by /) to `value`."""
    def change(data):
        *head, last = [int(k) if k.isdigit() else k for k in path.split("/")]
        for key in head:
            data = data[key]
        data[last] = value
    return change


@pytest.mark.parametrize("change, message", [
    (put("plays/1/playerScores/2/playerRefId", 99), "plays[1].playerScores[2]: there is no player 99 in players"),
    (put("plays/3/gameRefId", 7), "plays[3]: there is no game 7 in games"),
    (put("plays/0/playDate", "2025-02-30 20:00:00"), "plays[0]: playDate must be a date"),
    (put("plays/0/playDate", "yesterday"), "plays[0]: playDate must be a date"),
    (put("plays/0/playDate", 1741982700), "plays[0]: playDate must be a date"),
    (put("plays/0/playDate", "1969-12-31 23:00:00"), "plays[0]: playDate must be a date"),
    (put("plays/2/durationMin", "80"), "plays[2]: durationMin must be a whole number from 0 to 10000"),
    (put("plays/2/durationMin", -5), "plays[2]: durationMin must be a whole number"),
    (put("plays/2/durationMin", 1e9), "plays[2]: durationMin must be a whole number"),
    (put("plays/0/locationRefId", 6), "plays[0]: there is no location 6 in locations"),
    (put("plays/0/playerScores/0/score", "12.5"), "plays[0].playerScores[0]: score must be a whole number"),
    (put("plays/0/playerScores/0/score", "9" * 40), "plays[0].playerScores[0]: score must be a whole number"),
    (put("plays/0/playerScores/0/score", True), "plays[0].playerScores[0]: score must be a whole number"),
    (put("plays/0/playerScores/0/winner", "yes"), "plays[0].playerScores[0]: winner must be true or false"),
    (put("plays/0/playerScores/1/playerRefId", 10), "plays[0].playerScores[1]: the player 10 is listed twice"),
    (put("plays/0/playerScores", []), "plays[0]: playerScores must list 1 to 12 players"),
    (put("plays/0/playerScores/0", "Anna"), "plays[0].playerScores[0] must be an object"),
    (put("plays/4/uuid", "a1"), "plays[4]: the play a1 is in the file twice"),
    (put("plays/4/uuid", ""), "plays[4]: uuid must be text"),
    (put("plays/4/uuid", "x" * 65), "plays[4]: uuid must be text"),
    (put("players/1/name", 11), "players[1]: name must be text"),
    (put("players/1/id", 10), "players[1]: the id 10 is used twice"),
    (put("players/1/id", True), "players[1]: id must be a whole number"),
    (put("games/0/bggId", "822"), "games[0]: bggId must be a whole number"),
    (put("games/4/highestWins", "no"), "games[4]: highestWins must be true or false"),
    (put("locations/0/name", ["U Anny"]), "locations[0]: name must be text"),
    (put("plays", {}), "plays must be a list"),
    (put("games", None), "games must be a list"),
])
def test_a_broken_file_is_refused_whole_and_changes_nothing(tmp_path, change, message):
    store = Store(str(tmp_path))
    exchange.import_json(store, text(dict(sample(), plays=sample()["plays"][:1])))
    before = snapshot(tmp_path)
    with pytest.raises(exchange.ImportRefused) as refused:
        exchange.import_json(store, broken(change))
    assert message in str(refused.value)
    assert snapshot(tmp_path) == before


def test_the_refusal_is_in_the_readers_language(tmp_path):
    store = Store(str(tmp_path))
    store.set_setting("language", "cs")
    vm = ViewModel(store)
    before = snapshot(tmp_path)
    assert not vm.import_games(broken(put("plays/3/gameRefId", 7)).encode())
    assert vm.problem.text == "Soubor nebyl přijat, nic se nezměnilo: plays[3]: v games není hra 7"
    assert snapshot(tmp_path) == before


def test_the_phone_alone_export_and_import_from_the_history_screen(tmp_path):
    store = Store(str(tmp_path / "a"))
    vm = ViewModel(store)
    assert vm.import_games(text(sample()).encode()) and "5" in vm.notice
    name, blob = vm.export_file("bgstats.json")
    assert name.endswith("-bgstats.json") and json.loads(blob)["plays"][0]["uuid"] == "a1"
    other = ViewModel(Store(str(tmp_path / "b")))
    assert other.import_games(blob) and shown(other.store) == shown(store)


def test_the_commands(tmp_path):
    (tmp_path / "bg.json").write_text(text(sample()), encoding="utf-8")
    first = companion("import", str(tmp_path / "bg.json"), "--data-dir", str(tmp_path / "a"))
    assert first.returncode == 0 and first.stdout == "imported 5 game(s), 0 already stored\n"
    again = companion("import", str(tmp_path / "bg.json"), "--data-dir", str(tmp_path / "a"))
    assert again.returncode == 0 and again.stdout == "imported 0 game(s), 5 already stored\n"
    out = companion("export", "--format", "bgstats", "--data-dir", str(tmp_path / "a"))
    assert out.returncode == 0
    assert [p["uuid"] for p in json.loads(out.stdout)["plays"]] == ["a1", "b2", "c3", "d4", "e5"]
    (tmp_path / "bad.json").write_text(broken(put("plays/1/playerScores/0/playerRefId", 42)), encoding="utf-8")
    before = snapshot(tmp_path / "a")
    bad = companion("import", str(tmp_path / "bad.json"), "--data-dir", str(tmp_path / "a"))
    assert bad.returncode == 2 and bad.stderr == ("error: refused, nothing was changed: plays[1].playerScores[0]: "
                                                  "there is no player 42 in players\n")
    assert snapshot(tmp_path / "a") == before


def test_the_games_keep_their_boardgamegeek_ids_and_other_names():
    """The ids and names live on each game's definition (`GameDef.bgg_id`, `other_names`); an export of
    an earlier version names the games with these, so they do not change."""
    assert {game.id: (game.bgg_id, game.other_names) for game in bgstats.own_games()} == {
        "flanders_1302": (0, ("Flandern 1302", "Vlaanderen 1302", "Flandry 1302")),
        "village": (104006, ("Kronika panství",)), "princes_of_the_renaissance": (8045, ()),
        "carcassonne": (822, ()), "elfenland": (10, ())}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_of_the_registry_is_matched_by_its_id_and_each_of_its_names(game_id):
    """A game gets its BG Stats matching by its definition: by its BoardGameGeek id (where it has one)
    and by each title of its data file and `other_names`; the score sheet is matched by none (a play of
    another game becomes a sheet named after it)."""
    game, names = GAMES[game_id], bgstats._names()
    titles = texts.load(texts.data_file(game_id))[0][f"{game_id}.game.title"]
    if game_id == "score_sheet":
        assert game not in bgstats.own_games() and game_id not in names.values()
        return
    for name in (*titles.values(), *game.other_names):
        assert bgstats.game_of({"name": f" {name.upper()} ", "bggId": 0}, names) == game_id, name
    if game.bgg_id:
        assert bgstats.game_of({"name": "Something else", "bggId": game.bgg_id}, names) == game_id


def test_the_five_games_are_matched_by_id_or_by_name_in_either_language():
    names = bgstats._names()
    assert bgstats.game_of({"name": "Whatever", "bggId": 10}, names) == "elfenland"
    assert bgstats.game_of({"name": "Kronika panství (Village)", "bggId": 0}, names) == "village"
    assert bgstats.game_of({"name": "  flanders   1302 ", "bggId": 0}, names) == "flanders_1302"
    assert bgstats.game_of({"name": "Princes of the Renaissance", "bggId": 0}, names) == "princes_of_the_renaissance"
    assert bgstats.game_of({"name": "Carcassonne: Hunters and Gatherers", "bggId": 4390}, names) is None
    data = copy.deepcopy(sample())
    assert bgstats.check(data)[0]["game"] == "carcassonne" and data == sample()  # the file is not changed


def test_a_catalogue_entry_with_a_wrong_import_mark_is_left_out(tmp_path):
    store = Store(str(tmp_path))
    exchange.import_json(store, text(dict(sample(), plays=sample()["plays"][:2])))
    catalogue = json.loads((tmp_path / "companion.json").read_text())
    key = next(iter(catalogue["sessions"]))
    catalogue["sessions"][key]["imported"] = {"source": "bgstats", "uuid": ["a1"]}
    (tmp_path / "companion.json").write_text(json.dumps(catalogue))
    again = Store(str(tmp_path))
    assert len(again.sessions()) == 1 and json.loads(exchange.export_bgstats(again))["plays"][0]["uuid"] == "b2"


def test_a_bg_stats_export_imported_into_its_own_folder_adds_nothing(tmp_path):
    """Issue 33: the games played here came back a second time (their plays' uuids were not known as
    theirs), and the export after that was refused by the app's own import (a play in it twice)."""
    store = played(Store(str(tmp_path / "a")))
    exchange.import_json(store, text(sample()))
    exported = exchange.export_bgstats(store)
    before = shown(store)
    assert exchange.import_json(store, exported) == (0, 6)
    assert shown(store) == before
    assert exchange.export_bgstats(store) == exported
    assert exchange.import_json(Store(str(tmp_path / "b")), exchange.export_bgstats(store)) == (6, 0)


def test_a_game_played_here_keeps_its_play_uuid_through_a_json_export_and_a_backup(tmp_path):
    """A game played here is one BG Stats play wherever its history goes: exported as JSON and imported
    elsewhere, or restored from a backup, it is exported with the same uuid (so BG Stats, and this app,
    never count it twice)."""
    source = played(Store(str(tmp_path / "a")))
    uuids = [p["uuid"] for p in json.loads(exchange.export_bgstats(source))["plays"]]
    moved = Store(str(tmp_path / "b"))
    assert exchange.import_json(moved, exchange.export_json(source)) == (2, 0)
    assert [p["uuid"] for p in json.loads(exchange.export_bgstats(moved))["plays"]] == uuids
    assert exchange.import_json(moved, exchange.export_bgstats(source)) == (0, 1)
    backup.restore(tmp_path / "c", backup.backup(tmp_path / "a"))
    assert [p["uuid"] for p in json.loads(exchange.export_bgstats(Store(str(tmp_path / "c"))))["plays"]] == uuids
