"""Teach mode: the explanations on the spot carry this table's names and numbers (built from the
rules' own results), every teaching text exists in both languages, and the view-model opens teaching
for round 1, folds it after, and starts a later game of the same group without it."""
from __future__ import annotations

import pytest

from companion import teach, texts
from companion.games import GAMES
from companion.store import Store
from companion.ui.app import Shell
from companion.ui.viewmodel import ViewModel
from tests.test_screens import (CARCASSONNE, ELFENGOLD, PRINCES, STANDARD, VILLAGE, Page, identifiers)

TEXTS, _ = texts.load_all()


def teaching(game: str, form: dict, actions, lang: str = "en") -> tuple[ViewModel, Shell]:
    """A game started with "Teach us", after `actions`, drawn."""
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm.set_language(lang)
    vm.go(f"new:{game}")
    vm.set_teach_next(True)
    assert vm.new_game(game, form), vm.problem
    for kind, args in actions:
        assert vm.dispatch(kind, **args), (kind, vm.problem)
    shell.render()
    return vm, shell


def shown(shell) -> set[str]:
    return set(identifiers(shell.page.controls))


# ----------------------------------------------------------------------------------------------
# Explanations with real numbers, from the game state


FLANDERS_CITY = [("begin", {}), ("goto_step", {"step": "scoring"}),
                 ("score_city", {"city": "ghent", "quarters": {"blue": 3, "yellow": 3, "green": 1},
                                 "masters": {"blue": 1, "yellow": 2}})]


def test_flanders_explains_the_first_city_scoring_with_the_tables_names_and_numbers():
    vm, _ = teaching("flanders_1302", STANDARD, FLANDERS_CITY)
    lines = vm.teach_explain()
    # Ghent: 3 + 3 + 1 completed quarters = 7; first place 7, second half of it rounded up = 4
    assert lines[0] == ("First city scoring: Ghent is worth 7 points to the guild in first place and 4 to the "
                        "second; the third takes 4, the fourth 2.")
    assert "Bořek: quarters 3, guild masters 2, place 1: 7 points" in lines
    assert "Anna: quarters 3, guild masters 1, place 2: 4 points" in lines
    assert "Bořek ties on quarters with Anna and wins the tie with more guild masters." in lines
    vm.set_language("cs")
    czech = vm.teach_explain()
    assert czech[0].startswith("První vyhodnocení města: Gent dá cechu na prvním místě 7 bodů") and \
        "a druhému 4" in czech[0]
    assert any("Bořek" in line and "2" in line for line in czech[1:])


def test_flanders_explains_the_turn_order_from_the_cards_played():
    vm, _ = teaching("flanders_1302", STANDARD, [("begin", {}), ("goto_step", {"step": "reveal"}),
                                                 ("turn_order", {"cards": {"blue": 1, "yellow": 3, "green": 2}})])
    assert vm.teach_explain()[1:4] == ["1. Bořek: 3 cards", "2. Cyril: 2 cards", "3. Anna: 1 card"]


def test_village_explains_the_market_day_sale_by_sale():
    vm, _ = teaching("village", VILLAGE, [
        ("begin", {}), ("goto_step", {"step": "turns"}), ("market_start", {"player": "red"}),
        ("market_sell", {"player": "red", "prestige": 5, "goods": ["horse"]}),
        ("market_sell", {"player": "ivory", "prestige": 3, "goods": ["horse"]})])
    lines = vm.teach_explain()
    assert lines[0].startswith("Market day: Anna took the market cube, so Anna serves a customer first")
    assert lines[1] == ("Anna: a customer worth 5 prestige points at the end of the game, paid with horse; free of "
                        "time (the first customer of the market day).")
    assert lines[2] == ("Bořek: a customer worth 3 prestige points at the end of the game, paid with horse; 1 time, "
                        "the life marker now stands on 1.")
    vm.set_language("cs")
    assert "Bořek: zákazník za 3 body prestiže" in vm.teach_explain()[2]


def test_princes_explains_an_auction_and_a_war():
    a, b, c = "baglioni", "d_este", "gonzaga"
    vm, _ = teaching("princes_of_the_renaissance", PRINCES, [
        ("begin", {}),
        ("open_auction", {"lot": "city", "city": "venice", "tile": "plain", "gold": 2, "influence": 2, "amount": 14}),
        ("bid", {"player": b, "amount": 15}), ("pass_bid", {"player": c}), ("pass_bid", {"player": a})])
    lines = vm.teach_explain()
    assert "Bořek bid 15 last and takes it." in lines[0] and "Venice" in lines[0]
    assert lines[1] == "Bořek pays 15 (Gold) and has 25 left."  # 40 gold at the start
    vm, _ = teaching("princes_of_the_renaissance", PRINCES, [
        ("begin", {}), ("buy_troop", {"troop": "pike", "cost": 4, "attack": 0, "defence": 2}), ("end_turn", {}),
        ("buy_troop", {"troop": "artillery", "cost": 6, "attack": 3, "defence": 1}), ("end_turn", {}),
        ("declare_war", {"attacker": "venice", "defender": "rome"}), ("no_veto", {}),
        ("bid", {"player": a, "amount": 1}), ("pass_bid", {"player": b}), ("bid", {"player": b, "amount": 1}),
        ("modifier", {"attacker": 0, "defender": 0}),
        ("battle", {"dice": {"attacker": 1, "defender": 6}}), ("battle", {"dice": {"attacker": 1, "defender": 6}})])
    war = vm.state["last_war"]
    last = war["rounds"][-1]["sides"]
    lines = vm.teach_explain()
    assert lines[0] == (f"War: Venice attacked Rome. Each side adds its troops to its die: Venice "
                        f"{last['attacker']['total']}, Rome {last['defender']['total']}.")
    winner_city = {"attacker": "Venice", "defender": "Rome"}[war["winner"]]
    assert lines[1].startswith(f"{winner_city} wins and its status rises by {war['change']}")


def test_carcassonne_explains_the_first_completed_feature():
    vm, _ = teaching("carcassonne", CARCASSONNE, [
        ("begin", {}), ("meeple", {"player": "red", "delta": 1}), ("meeple", {"player": "blue", "delta": 1}),
        ("score_feature", {"type": "city", "tiles": 3, "pennants": 1, "meeples": {"red": 1, "blue": 1}})])
    lines = vm.teach_explain()
    # a complete city: 3 tiles × 2 + 1 pennant × 2 = 8, Anna and Bořek tie and both score it in full
    assert lines[1] == ("Feature 1, complete city: tiles 3 × 2 + pennants 1 × 2 = 8 points: Anna and Bořek tie with "
                        "1 meeple each and each scores the full value.")
    assert lines[2] == "Scores now: Anna 8, Bořek 8, Cyril 0."


def test_elfenland_explains_the_first_auction_and_a_move():
    vm, _ = teaching("elfenland", ELFENGOLD, [
        ("begin", {}), ("next_phase", {}), ("reveal", {"tiles": ["dragon", "gold", "tree", "unicorn", "exchange",
                                                                 "giant_pig"]}),
        ("bid", {"player": "red", "amount": 3}), ("pass_bid", {"player": "blue"}), ("pass_bid", {"player": "green"})])
    assert vm.teach_explain() == ["First auction: Dragon goes to Anna for 3 gold, the last bid standing after the "
                                  "others passed; Anna has 9 gold left."]
    for _ in range(5):
        for p in ("red", "blue", "green"):
            assert vm.dispatch("pass_bid", player=p), vm.problem
    for kind, args in [("next_phase", {}), ("next_phase", {}),
                       ("move", {"player": "red", "visits": [{"town": "beata"}, {"town": "virst"}], "take": "gold"})]:
        assert vm.dispatch(kind, **args), vm.problem
    lines = vm.teach_explain()
    # Beata pays 2 and Virst 3: 5 gold, 9 + 5 = 14
    assert lines == ["Anna collects 2 new town pieces on this move, 2 in all: the town pieces are what wins the game.",
                     "New towns: Beata, Virst.", "Gold for the towns reached: 5; Anna has 14 gold now."]


# ----------------------------------------------------------------------------------------------
# The texts


@pytest.mark.parametrize("game", teach.GAMES)
def test_every_teaching_text_exists_in_both_languages(game):
    keys = [*(k.key for which in teach.CARDS for k in teach.card(game, which)), *(r.key for r in teach.recap(game))]
    for key in keys:
        assert set(TEXTS[key]) == {"en", "cs"} and all(TEXTS[key].values()), key
    for config in _configs(game):
        for item in GAMES[game].setup_items(config):
            assert teach.setup_why(game, item["id"]).key in TEXTS, item["id"]
        for step in GAMES[game].steps(config):
            state = {"phase": "round", "step": step.id, "decade": 1, "war": None, "auction": None}
            key = teach.how(game, teach.step(game, config, state))[0].key
            assert key in TEXTS, key


def test_a_game_without_its_own_teach_module_falls_back_to_its_state_and_explains_nothing():
    """The shared defaults a game's companion/games/<id>/teach.py may override (the score sheet has
    none, and no teaching texts either, so it does not teach)."""
    state = {"phase": "round", "round": 3, "step": "count"}
    assert teach.round_of("score_sheet", state, []) == 3
    assert teach.step("score_sheet", {}, state) == "count"
    assert teach.explain("score_sheet", {"players": [{"colour": "red", "name": "Anna"}]}, state) == []
    assert not teach.teaches("score_sheet") and "score_sheet" not in teach.GAMES
    assert set(teach.GAMES) == {"flanders_1302", "village", "princes_of_the_renaissance", "carcassonne",
                                "elfenland"}


def _configs(game: str) -> list[dict]:
    base = {"flanders_1302": [STANDARD, dict(STANDARD, empty_city=None, players=[*STANDARD["players"],
                                                                           {"colour": "red", "name": "Dana"}])],
            "village": [VILLAGE], "princes_of_the_renaissance": [PRINCES], "carcassonne": [CARCASSONNE],
            "elfenland": [ELFENGOLD, dict(ELFENGOLD, variant="base", wizards=False)]}[game]
    return [GAMES[game].new_config(form) for form in base]


# ----------------------------------------------------------------------------------------------
# The view-model and the screens


def test_a_game_teaches_only_when_asked():
    vm = ViewModel(Store(None))
    vm.go("new:carcassonne")
    assert vm.new_game("carcassonne", CARCASSONNE) and vm.teach_mode() is None


def test_teaching_opens_for_setup_and_round_1_then_folds_with_a_recap():
    vm, shell = teaching("carcassonne", CARCASSONNE, [])
    assert vm.teach_mode() == "open"
    assert {"teach-card-win", "teach-card-round", "teach-card-score", "why-tiles"} <= shown(shell)
    vm.dispatch("begin")
    shell.render()
    assert {"teach-step", "teach-how", "teach-why"} <= shown(shell) and "teach-card-win" not in shown(shell)
    assert vm.teach_step()[0].startswith("Draw the top tile")
    for _ in range(3):  # Anna, Bořek and Cyril have had a turn: round 1 is over
        assert vm.dispatch("next_turn")
    shell.render()
    assert vm.teach_mode() == "folded" and vm.teach_recap()
    assert {"teach-recap", "teach-toggle"} <= shown(shell) and "teach-how" not in shown(shell)
    assert teach.group("carcassonne", vm.session["config"]) in vm.store.setting(teach.TAUGHT)
    shell.teach_open = teach.step("carcassonne", vm.session["config"], vm.state)  # the tap on "Teach us this step"
    shell.render()
    assert "teach-how" in shown(shell)
    for _ in range(3):
        assert vm.dispatch("next_turn")
    assert not vm.teach_recap()


def test_a_later_game_of_the_same_group_starts_without_teaching():
    vm, _ = teaching("carcassonne", CARCASSONNE, [("begin", {}), *[("next_turn", {})] * 3])
    players = [dict(p, name=p["name"].upper()) for p in reversed(CARCASSONNE["players"])]  # any order, any case
    vm.go("new:carcassonne")
    vm.set_teach_next(True)
    assert vm.new_game("carcassonne", dict(CARCASSONNE, players=players))
    assert vm.teach_mode() == "folded" and not vm.teach_recap()
    vm.go("new:carcassonne")
    vm.set_teach_next(True)
    assert vm.new_game("carcassonne", dict(CARCASSONNE, players=[*CARCASSONNE["players"][:2],
                                                                 {"colour": "green", "name": "Dana"}]))
    assert vm.teach_mode() == "open"  # another group: teaching is on


def test_the_form_offers_teaching_for_the_five_games_and_opens_with_it_off():
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    for game in GAMES:
        shell.go(f"new:{game}")
        assert ({"teach-no", "teach-yes"} <= shown(shell)) == (game in teach.GAMES)
        assert not vm.teach_next


def test_the_czech_screen_teaches_in_czech():
    vm, shell = teaching("flanders_1302", STANDARD, FLANDERS_CITY, lang="cs")
    assert vm.teach_step() == (TEXTS["flanders_1302.teach.step.scoring.how"]["cs"],
                               TEXTS["flanders_1302.teach.step.scoring.why"]["cs"])
    assert "teach-explain" in shown(shell)
