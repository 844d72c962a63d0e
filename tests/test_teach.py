"""Teach mode: the explanations on the spot carry this table's names and numbers (built from the
rules' own results) for each event of round 1, every game of the registry teaches each of its
configurations (variants, player counts) with every text in both languages, and the view-model and
the screen open teaching for round 1, fold the step's card after its first showing, keep every step
of the round one tap away, fold after round 1, show the end card, and start a later game of the same
group without teaching."""
from __future__ import annotations

import flet as ft
import pytest

from companion import teach, texts
from companion.engine import flow
from companion.games import GAMES
from companion.i18n import Translator
from companion.store import Store
from companion.ui.app import Shell
from companion.ui.viewmodel import ViewModel
from tests.conftest import game_examples
from tests.test_screens import (CARCASSONNE, ELFENGOLD, PRINCES, STANDARD, TWO, VILLAGE, Page, controls_of,
                                identifiers)

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


def words(shell, ident: str) -> str:
    """Every text drawn under the control `ident`."""
    found = [c for c in controls_of(shell.page.controls) if isinstance(c, ft.Semantics) and c.identifier == ident]
    assert found, ident
    return " ".join(c.value for c in controls_of(found) if isinstance(c, ft.Text) and c.value)


def tap(shell, ident: str) -> None:
    """A tap on a drawn control (a fold's head)."""
    control = next(c for c in controls_of(shell.page.controls) if isinstance(c, ft.Semantics) and c.identifier == ident)
    control.content.on_click(None)


def said(lang: str, messages) -> list[str]:
    """Messages in `lang`, rule texts read from data/ (no store)."""
    t = Translator(lang, lambda key, language: TEXTS[key][language])
    return [t.msg(m) for m in messages]


# ----------------------------------------------------------------------------------------------
# Explanations with real numbers, from the game state


FLANDERS_CITY = [("begin", {}), ("goto_step", {"step": "scoring"}),
                 ("score_city", {"city": "ghent", "quarters": {"blue": 3, "yellow": 3, "green": 1},
                                 "masters": {"blue": 1, "yellow": 2}})]


def test_flanders_explains_a_city_scoring_with_the_tables_names_and_numbers():
    vm, _ = teaching("flanders_1302", STANDARD, FLANDERS_CITY)
    lines = vm.teach_explain()
    # Ghent: 3 + 3 + 1 completed quarters = 7; first place 7, second half of it rounded up = 4
    assert lines[0] == ("City scoring: Ghent is worth 7 points to the guild in first place and 4 to the "
                        "second; the third takes 4, the fourth 2.")
    assert "Bořek: quarters 3, guild masters 2, place 1: 7 points" in lines
    assert "Anna: quarters 3, guild masters 1, place 2: 4 points" in lines
    assert "Bořek ties on quarters with Anna and wins the tie with more guild masters." in lines
    vm.set_language("cs")
    czech = vm.teach_explain()
    assert czech[0].startswith("Vyhodnocení města: Gent dá cechu na prvním místě 7 bodů") and "a druhému 4" in czech[0]
    assert any("Bořek" in line and "2" in line for line in czech[1:])


def test_flanders_explains_every_city_scored_in_round_1_not_only_the_first():
    vm, _ = teaching("flanders_1302", STANDARD, [
        *FLANDERS_CITY, ("score_city", {"city": "bruges", "quarters": {"green": 2, "grey": 1}})])
    assert vm.teach_explain()[0].startswith("City scoring: Bruges is worth 3 points")


def test_flanders_explains_the_turn_order_from_the_cards_played():
    vm, _ = teaching("flanders_1302", STANDARD, [("begin", {}), ("goto_step", {"step": "reveal"}),
                                                 ("turn_order", {"cards": {"blue": 1, "yellow": 3, "green": 2}})])
    assert vm.teach_explain()[1:4] == ["1. Bořek: 3 cards", "2. Cyril: 2 cards", "3. Anna: 1 card"]


def test_flanders_two_player_game_teaches_the_two_player_game():
    """The cards, the start player's line and the recap describe two players taking turns with two
    actions each (no gold deck, no influence cards, no six-step round); the five setup items of the
    variant say what they are for; round 1 lasts until both have had a turn."""
    vm, shell = teaching("flanders_1302", TWO, [])
    cards = {which: words(shell, f"teach-card-{which}") for which in teach.CARDS}
    assert cards["round"].startswith("A turn: two actions")
    assert "six steps" not in cards["round"] and "gold card" not in cards["round"]
    assert "gold deck" not in cards["win"] and "more influence" not in cards["win"]
    assert "Only the guild masters printed" in cards["score"]
    assert words(shell, "why-start_player") == TEXTS["flanders_1302.teach.two.setup.start_player"]["en"]
    for item in ("two_general", "two_guild_material", "two_influenced", "two_influenced_material", "two_deck"):
        assert f"why-{item}" in shown(shell), item
    assert [vm.t.text(r.key) for r in teach.recap("flanders_1302", vm.session["config"])][0].startswith(
        "Each turn brought two actions")
    one_turn = [("begin", {}), ("goto_step", {"step": "scoring"}),
                ("score_city", {"city": "ghent", "quarters": {"blue": 2, "green": 3, "red": 1}}),
                ("end_round", {"board": False})]
    for kind, args in one_turn:
        assert vm.dispatch(kind, **args), vm.problem
    assert vm.teach_mode() == "open" and vm.teach_step()[0] == TEXTS["flanders_1302.teach.step.two_own.how"]["en"]
    assert "Green is the guild Anna influences: its points here count for Anna at the end too." in vm.teach_explain()
    for kind, args in [("goto_step", {"step": "scoring"}), ("end_round", {"board": False})]:
        assert vm.dispatch(kind, **args), vm.problem
    assert vm.teach_mode() == "folded" and vm.teach_recap()


def test_village_explains_the_market_day_sale_by_sale():
    vm, _ = teaching("village", VILLAGE, [
        ("begin", {}), ("goto_step", {"step": "turns"}), ("market_start", {"player": "red"}),
        ("market_sell", {"player": "red", "prestige": 5, "goods": ["horse"]}),
        ("market_sell", {"player": "ivory", "prestige": 3, "grain": 0, "goods": ["horse"]})])
    lines = vm.teach_explain()
    assert lines[0].startswith("Market day: Anna took the market cube and so serves the first customer, free.")
    assert "costs 1 green influence cube and 1 time" in lines[0]
    assert lines[1] == ("Anna: a customer worth 5 prestige points at the end of the game, paid with horse; free: "
                        "no green cube and no time (the first customer of the market day).")
    assert lines[2] == ("Bořek: a customer worth 3 prestige points at the end of the game, paid with horse, and "
                        "with 1 green influence cube and 1 time.")
    # the time track of this table has 4 spaces to the bridge: after 1 time, 3 are left
    assert lines[3] == "Bořek: the life marker is now 3 spaces before the bridge."
    vm.set_language("cs")
    czech = vm.teach_explain()
    assert "Bořek: zákazník za 3 body prestiže" in czech[2] and "1 zelená kostka vlivu a 1 jednotka času" in czech[2]
    assert czech[3] == "Bořek: ukazateli času teď zbývají do mostu 3 políčka."


def test_village_says_where_the_life_marker_stands_not_the_time_spent():
    vm, _ = teaching("village", VILLAGE, [
        ("begin", {}), ("goto_step", {"step": "turns"}), ("time", {"player": "ivory", "amount": 5}),
        ("death", {"player": "ivory", "number": "1", "profession": "farmyard", "place": "chronicle"}),
        ("market_start", {"player": "red"}), ("market_sell", {"player": "red", "prestige": 2, "goods": ["horse"]}),
        ("market_sell", {"player": "ivory", "prestige": 3, "goods": ["horse"]})])
    # time 5 + 1 = 6 on a track of 4 spaces: a lap behind, 2 spaces gone, 2 left
    assert vm.teach_explain()[3] == "Bořek: the life marker is now 2 spaces before the bridge."
    vm, _ = teaching("village", VILLAGE, [
        ("begin", {}), ("goto_step", {"step": "turns"}), ("time", {"player": "ivory", "amount": 3}),
        ("market_start", {"player": "red"}), ("market_sell", {"player": "red", "prestige": 2, "goods": ["horse"]}),
        ("market_sell", {"player": "ivory", "prestige": 3, "goods": ["horse"]})])
    assert vm.teach_explain()[3].startswith("Bořek: the life marker has reached the bridge, so a family member dies")


A, B, C = "baglioni", "d_este", "gonzaga"
TROOPS = [("begin", {}), ("buy_troop", {"troop": "pike", "cost": 4, "attack": 0, "defence": 2}), ("end_turn", {}),
          ("buy_troop", {"troop": "artillery", "cost": 6, "attack": 3, "defence": 1}), ("end_turn", {})]
#: Venice (Anna's pike: attack 0) attacks Rome (Bořek's artillery: defence 1); Rome holds and strikes back
#: with its attack against Venice's defence.
WAR = [("declare_war", {"attacker": "venice", "defender": "rome"}), ("no_veto", {}),
       ("bid", {"player": A, "amount": 1}), ("pass_bid", {"player": B}), ("bid", {"player": B, "amount": 1}),
       ("modifier", {"attacker": 0, "defender": 0}),
       ("battle", {"dice": {"attacker": 1, "defender": 6}}), ("battle", {"dice": {"attacker": 1, "defender": 6}})]


def test_princes_explains_an_auction_of_a_city_tile():
    vm, _ = teaching("princes_of_the_renaissance", PRINCES, [
        ("begin", {}),
        ("open_auction", {"lot": "city", "city": "venice", "tile": "plain", "gold": 2, "influence": 2, "amount": 14}),
        ("bid", {"player": B, "amount": 15}), ("pass_bid", {"player": C}), ("pass_bid", {"player": A})])
    lines = vm.teach_explain()
    assert lines[0].startswith("Auction: a city tile of Venice. ") and "Bořek bid 15 last and takes it." in lines[0]
    assert lines[1] == "Bořek pays 15 (Gold) and has 25 left."  # 40 gold at the start
    vm.set_language("cs")
    assert vm.teach_explain()[0].startswith("Dražba: kartička města Benátky. ")


def test_princes_explains_the_attack_and_the_counter_attack_each_with_its_own_totals():
    vm, _ = teaching("princes_of_the_renaissance", PRINCES, [*TROOPS, *WAR])
    rounds = vm.state["last_war"]["rounds"]
    assert vm.state["last_war"]["winner"] == "defender"
    attack, counter = rounds[0]["sides"], rounds[1]["sides"]
    # Bořek is d'Este: his artillery has +1 attack and +1 defence
    assert (attack["attacker"]["total"], attack["defender"]["total"]) == (1, 8)     # pike 0 + 1, artillery 2 + 6
    assert (counter["defender"]["total"], counter["attacker"]["total"]) == (10, 3)  # artillery 4 + 6, pike 2 + 1
    lines = vm.teach_explain()
    assert lines[0] == ("War: Venice attacked Rome. Venice's troops attack and Rome's defend, each side adding its "
                        "die: Venice 1 against Rome 8.")
    assert lines[1] == ("The attack did not win, so Rome strikes back: now Rome's troops attack and Venice's defend, "
                        "each side with a new die: Rome 10 against Venice 3.")
    # 10 is at least twice 3: Rome 5 + 2 = 7, Venice 7 − 2 = 5
    assert lines[2].startswith("Rome wins: its status rises by 2 and Venice's falls by 2")
    assert lines[2].endswith("Status now: Rome 7, Venice 5.")


def test_princes_tells_the_status_a_city_at_10_keeps():
    game = GAMES["princes_of_the_renaissance"]
    config = game.new_config(PRINCES)
    state = flow.initial(game, config)
    state["cities"]["rome"]["status"] = 10
    log = []
    for kind, args in [*TROOPS, *WAR]:
        state = flow.apply(game, config, state, {"type": kind, "args": args})
        log.append({"type": kind, "args": args})
    lines = said("en", teach.explain("princes_of_the_renaissance", config, state, log))
    assert "never above 10 or below 3" in lines[2] and lines[2].endswith("Status now: Rome 10, Venice 5.")


def test_princes_explains_the_condottiere_auction_of_the_war_under_way():
    vm, _ = teaching("princes_of_the_renaissance", PRINCES, [*TROOPS, *WAR[:4]])
    assert vm.teach_explain()[0].startswith("Auction: the condottiere of Venice.")


def test_carcassonne_explains_a_completed_feature():
    vm, _ = teaching("carcassonne", CARCASSONNE, [
        ("begin", {}), ("meeple", {"player": "red", "delta": 1}), ("meeple", {"player": "blue", "delta": 1}),
        ("score_feature", {"type": "city", "tiles": 3, "pennants": 1, "meeples": {"red": 1, "blue": 1}})])
    lines = vm.teach_explain()
    # a complete city: 3 tiles × 2 + 1 pennant × 2 = 8, Anna and Bořek tie and both score it in full
    assert lines[1] == ("Feature 1, complete city: tiles 3 × 2 + pennants 1 × 2 = 8 points: Anna and Bořek tie with "
                        "1 meeple each and each scores the full value.")
    assert lines[2] == "Scores now: Anna 8, Bořek 8, Cyril 0."


def test_carcassonne_explains_the_features_of_each_turn_of_round_1_not_only_the_first():
    vm, _ = teaching("carcassonne", CARCASSONNE, [
        ("begin", {}), ("meeple", {"player": "red", "delta": 1}),
        ("score_feature", {"type": "road", "tiles": 3, "meeples": {"red": 1}}), ("next_turn", {}),
        ("meeple", {"player": "blue", "delta": 1}),
        ("score_feature", {"type": "monastery", "tiles": 9, "meeples": {"blue": 1}})])
    lines = vm.teach_explain()
    assert lines[1].startswith("Feature 1, complete monastery") and "Bořek has the most meeples (1)" in lines[1]
    assert lines[2] == "Scores now: Anna 3, Bořek 9, Cyril 0."
    assert vm.dispatch("next_turn") and vm.teach_explain() == []  # Cyril's turn has scored nothing yet


def test_carcassonne_explains_a_road_sweeper_as_an_unfinished_road():
    game = GAMES["carcassonne"]
    config = game.new_config(CARCASSONNE)
    log = [{"type": kind, "args": args} for kind, args in [
        ("begin", {}), ("meeple", {"player": "red", "delta": 1}), ("gift_draw", {}), ("next_turn", {}),
        ("next_turn", {}), ("next_turn", {}), ("meeple", {"player": "blue", "delta": 1}),
        ("gift_open", {"card": "road_sweeper"}), ("road_sweeper", {"tiles": 4, "meeples": {"red": 1, "blue": 1}})]]
    state = flow.replay(game, config, log)
    lines = said("en", teach.explain("carcassonne", config, state, log))
    assert lines[0].startswith("Road Sweeper: an unfinished road scores now, as at the end of the game")
    assert lines[1] == ("Feature 1, unfinished road: tiles 4 × 1 = 4 points: Anna and Bořek tie with 1 meeple each "
                        "and each scores the full value.")
    assert not any("completed feature" in line for line in lines)


def test_carcassonne_cards_say_what_scores_at_the_end():
    for gifts in (True, False):
        vm, shell = teaching("carcassonne", dict(CARCASSONNE, gifts=gifts), [])
        score = words(shell, "teach-card-score")
        assert "unfinished roads, cities and monasteries" in score and "farmers score their fields" in score
        assert ("gift card you have not opened is worth 2" in score) == gifts
        assert ("gift" in words(shell, "teach-card-round")) == gifts


def test_elfenland_explains_each_auction_and_a_move():
    vm, _ = teaching("elfenland", ELFENGOLD, [
        ("begin", {}), ("next_phase", {}), ("reveal", {"tiles": ["dragon", "gold", "tree", "unicorn", "exchange",
                                                                 "giant_pig"]}),
        ("bid", {"player": "red", "amount": 3}), ("pass_bid", {"player": "blue"}), ("pass_bid", {"player": "green"})])
    assert vm.teach_explain() == ["Auction: Dragon goes to Anna for 3 gold, the last bid standing after the others "
                                  "passed.", "Anna has 9 gold left."]
    for kind, args in [("pass_bid", {"player": "red"}), ("bid", {"player": "blue", "amount": 2}),
                       ("pass_bid", {"player": "green"})]:
        assert vm.dispatch(kind, **args), vm.problem
    assert vm.teach_explain()[0].startswith("Auction: Gold tile goes to Bořek for 2 gold")
    while vm.state.get("auction"):  # nobody bids on the other four tiles
        assert vm.dispatch("pass_bid", player=vm.state["auction"]["next"]), vm.problem
    for kind, args in [("next_phase", {}), ("next_phase", {}),
                       ("move", {"player": "red", "visits": [{"town": "beata"}, {"town": "virst"}], "take": "gold"})]:
        assert vm.dispatch(kind, **args), vm.problem
    lines = vm.teach_explain()
    # Beata pays 2 and Virst 3: 5 gold, 9 + 5 = 14
    assert lines == ["Anna collects 2 new town pieces on this move, 2 in all: the town pieces are what wins the game.",
                     "New towns: Beata, Virst.", "Gold for the towns reached: 5; Anna has 14 gold now."]


def test_elfenland_says_who_gets_a_tile_whose_first_winner_could_not_pay():
    vm, _ = teaching("elfenland", ELFENGOLD, [
        ("begin", {}), ("next_phase", {}), ("reveal", {"tiles": ["dragon", "gold", "tree", "unicorn", "exchange",
                                                                 "giant_pig"]}),
        ("bid", {"player": "red", "amount": 20}), ("pass_bid", {"player": "blue"}), ("pass_bid", {"player": "green"})])
    assert vm.teach_explain() == ["Auction: Anna bid 20 gold for Dragon but could pay only 12: all of it goes to the "
                                  "bank and the tile is auctioned again."]
    for kind, args in [("bid", {"player": "blue", "amount": 4}), ("pass_bid", {"player": "green"})]:
        assert vm.dispatch(kind, **args), vm.problem
    assert vm.teach_explain()[1:] == ["Auction: Dragon goes to Bořek for 4 gold, the last bid standing after the "
                                      "others passed.", "Bořek has 8 gold left."]


def test_elfengold_move_counts_the_wizards_gold():
    vm, _ = teaching("elfenland", ELFENGOLD, [("begin", {}), ("next_phase", {})])
    while vm.state["step"] != "move":
        if vm.state.get("auction"):
            assert vm.dispatch("pass_bid", player=vm.state["auction"]["next"]), vm.problem
        elif vm.state["step"] == "auction" and not vm.state["row"]:
            assert vm.dispatch("reveal", tiles=["dragon", "gold", "tree", "unicorn", "exchange", "giant_pig"])
        else:
            assert vm.dispatch("next_phase"), vm.problem
    assert vm.dispatch("move", player="red", visits=[{"town": "beata"}, {"town": "al_baran", "carpet": True}],
                       take="gold", wizard_obstacles=1), vm.problem
    lines = vm.teach_explain()
    # the wizard: 1 obstacle card × 1 + 1 flying carpet × 3 = 4 gold; Beata pays 2, the carpet's town nothing
    assert "Elf wizard: 1 × 1 for obstacle cards it replaced + 1 × 3 for flying carpets = 4 gold, paid to the bank " \
           "first." in lines
    assert "A town reached on a flying carpet pays no gold." in lines
    assert lines[-1] == "Gold for the towns reached: 2; Anna has 10 gold now."  # 12 − 4 + 2


def test_elfengold_end_of_round_keeps_at_most_two_tiles():
    assert "keep at most 2 unplayed tiles" in TEXTS["elfenland.teach.step.elfengold_end.how"]["en"]
    assert "nejvýš 2 nepoužité dílky" in TEXTS["elfenland.teach.step.elfengold_end.how"]["cs"]


def test_princes_treachery_setup_line_names_the_cards_played_in_auctions():
    line = TEXTS["princes_of_the_renaissance.teach.setup.treachery"]
    assert "Freeze Bid" in line["en"] and "Bribe Cardinal" in line["en"]
    assert "Zmrazení nabídky" in line["cs"] and "Podplacení kardinála" in line["cs"]


# ----------------------------------------------------------------------------------------------
# Every game of the registry, every configuration of its examples, both languages


def _keys(game: str, config: dict) -> list[str]:
    """Every teaching text a game in `config` looks up, but the setup lines (those are drawn below)."""
    refs = [*(r for which in (*teach.CARDS, teach.END) for r in teach.card(game, which, config)),
            *teach.recap(game, config)]
    for step in teach.round_steps(game, config):
        refs += teach.how(game, step)
    return [r.key for r in refs]


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_teaches_each_of_its_configurations_in_both_languages(game):
    """Each `CONFIGS` entry of the game's examples.py (every variant and player count) is started in teach
    mode: the cards, a line for each setup item, each step of the round, the recap and the end card have
    their text in Czech and English. A game without teaching texts has none at all."""
    if not teach.teaches(game):
        assert not [k for k in TEXTS if k.startswith(f"{game}.teach.")]
        return
    for form in game_examples(game).CONFIGS:
        config = GAMES[game].new_config(form)
        for key in _keys(game, config):
            assert key in TEXTS and set(TEXTS[key]) == {"en", "cs"} and all(TEXTS[key].values()), (form, key)
        for lang in ("en", "cs"):
            vm, shell = teaching(game, form, [], lang)
            items = [i["id"] for i in GAMES[game].setup_items(vm.session["config"])]
            missing = ({f"why-{i}" for i in items} | {f"teach-card-{c}" for c in teach.CARDS}) - shown(shell)
            assert not missing, (form, lang, missing)


def test_a_game_without_its_own_teach_module_falls_back_to_its_state_and_explains_nothing():
    """The shared defaults a game's companion/games/<id>/teach.py may override (the score sheet has
    none, and no teaching texts either, so it does not teach)."""
    state = {"phase": "round", "round": 3, "step": "count"}
    config = {"players": [{"colour": "red", "name": "Anna"}]}
    assert teach.round_of("score_sheet", state, []) == 3
    assert teach.step("score_sheet", config, state) == "count"
    assert teach.explain("score_sheet", config, state, []) == []
    assert teach.variant("score_sheet", config) is None
    assert not teach.teaches("score_sheet")
    assert {g for g in GAMES if teach.teaches(g)} == {g for g in GAMES if f"{g}.teach.card.win.title" in TEXTS}
    store = Store(None)  # the app asks its rule-text table, which says the same as the files
    assert {g for g in GAMES if ViewModel(store).teaches(g)} == {g for g in GAMES if teach.teaches(g)}


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
    tap(shell, "teach-toggle")  # "Teach us this step"
    assert "teach-how" in shown(shell)
    for _ in range(3):
        assert vm.dispatch("next_turn")
    assert not vm.teach_recap()


def test_the_step_card_folds_after_its_first_showing_and_keeps_every_step_one_tap_away():
    """Carcassonne's first turn shows the draw step open; a group that taps "Next player" at once
    comes back to it folded (its controls stay where they were), and the card lists every step of the
    turn, the ones never reached too."""
    vm, shell = teaching("carcassonne", CARCASSONNE, [("begin", {})])
    assert {"teach-how", "teach-steps-toggle"} <= shown(shell) and "teach-steps" not in shown(shell)
    tap(shell, "teach-steps-toggle")
    listed = words(shell, "teach-steps")
    for step in ("draw", "gift", "place", "meeple", "score"):
        assert TEXTS[f"carcassonne.teach.step.{step}.how"]["en"] in listed, step
    assert vm.dispatch("next_turn")                       # "Next player" at once: Bořek's draw step, folded
    shell.render()
    assert "teach-how" not in shown(shell) and "teach-toggle" in shown(shell)
    assert vm.dispatch("meeple", player="blue", delta=1)  # the meeple step, shown for the first time: open
    shell.render()
    assert "teach-how" in shown(shell) and vm.teach_step()[0].startswith("You may take one meeple")
    assert vm.dispatch("next_turn")
    shell.render()
    assert "teach-how" not in shown(shell) and "teach-toggle" in shown(shell)  # the draw step again: folded
    assert words(shell, "teach-toggle") == "How to do it"
    tap(shell, "teach-toggle")
    assert "teach-how" in shown(shell)
    tap(shell, "teach-toggle")
    assert "teach-how" not in shown(shell)


def test_the_end_card_says_what_scores_at_the_end():
    vm, shell = teaching("flanders_1302", STANDARD, [
        ("begin", {}), ("goto_step", {"step": "scoring"}), ("end_round", {"board": True, "deck": False})])
    assert vm.route == "final" and "teach-card-end" in shown(shell)
    assert words(shell, "teach-end") == TEXTS["flanders_1302.teach.card.end.body"]["en"]
    assert "influence cards" in words(shell, "teach-end")
    tap(shell, "teach-end-toggle")
    assert "teach-end" not in shown(shell)
    vm, shell = teaching("flanders_1302", TWO, [
        ("begin", {}), ("goto_step", {"step": "scoring"}), ("end_round", {"board": True})], lang="cs")
    assert words(shell, "teach-end") == TEXTS["flanders_1302.teach.two.card.end.body"]["cs"]


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


def test_the_form_offers_teaching_for_the_games_that_teach_and_opens_with_it_off():
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    for game in GAMES:
        shell.go(f"new:{game}")
        assert ({"teach-no", "teach-yes"} <= shown(shell)) == teach.teaches(game)
        assert not vm.teach_next


def test_the_czech_screen_teaches_in_czech():
    vm, shell = teaching("flanders_1302", STANDARD, FLANDERS_CITY, lang="cs")
    assert vm.teach_step() == (TEXTS["flanders_1302.teach.step.scoring.how"]["cs"],
                               TEXTS["flanders_1302.teach.step.scoring.why"]["cs"])
    assert "teach-explain" in shown(shell)
