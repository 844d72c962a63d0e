"""Every screen builds for every phase of a game, in both languages and both variants, without a
browser: a fast net under the browser tests (a screen that raises would freeze the tab)."""
from __future__ import annotations

import collections
import dataclasses
import json

import flet as ft
import pytest

from companion.games import GAMES
from companion.i18n import translations
from companion.store import Store
from companion.ui.app import Shell
from companion.flet_internals import set_fields
from companion.ui.viewmodel import ViewModel
from companion.ui.widgets import shortened


class Page:
    """Just enough of ft.Page for Shell.render."""

    def __init__(self):
        self.controls, self.title, self.route = [], "", "/"

    def navigate(self, route):
        self.route = route

    def add(self, *controls):
        self.controls.extend(controls)

    def update(self):
        """Test ids are keys too (widgets.tid): two on one screen would confuse the redraw."""
        seen = collections.Counter(identifiers(self.controls))
        assert not [i for i, n in seen.items() if n > 1], seen


def controls_of(controls):
    """Every control under `controls`, depth first (its children as `set_fields` finds them: every one,
    tests/test_flet_internals.py checks)."""
    for control in controls:
        yield control
        for _name, value in set_fields(control):
            if isinstance(value, ft.BaseControl):
                yield from controls_of([value])
            elif isinstance(value, list):
                yield from controls_of([v for v in value if isinstance(v, ft.BaseControl)])


def identifiers(controls):
    return (c.identifier for c in controls_of(controls) if isinstance(c, ft.Semantics) and c.identifier)



def shell_on(game: str, form: dict, actions, me: str | None = None, lang: str | None = None):
    """A view-model and a drawn screen of `game` after `actions`, on a phone that belongs to `me`."""
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    if lang:
        vm.set_language(lang)
    assert vm.new_game(game, form), vm.problem
    for kind, args in actions:
        assert vm.dispatch(kind, **args), (kind, vm.problem)
    vm.me = me
    shell.render()
    return vm, shell

STANDARD = {"variant": "standard", "start": 0, "empty_city": "ypres", "players": [
    {"colour": "blue", "name": "Anna"}, {"colour": "yellow", "name": "Bořek"}, {"colour": "green", "name": "Cyril"}]}
TWO = {"variant": "two-player", "start": 1, "players": [{"colour": "blue", "name": "Anna"},
                                                       {"colour": "red", "name": "Bořek"}],
       "influenced": {"blue": "green", "red": "yellow"}}


def walk(form, actions, game="flanders_1302"):
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    routes = []
    for lang in ("cs", "en"):
        vm.set_language(lang)
        shell.render()
    assert vm.new_game(game, form), vm.problem
    for kind, args in actions:
        for route in (vm.route, "scores", "rules", "log"):
            vm.go(route) if route != vm.route else None
            for lang in ("cs", "en"):
                vm.set_language(lang)
            routes.append(vm.route)
        vm.open(vm.session["id"])
        assert vm.dispatch(kind, **args), (kind, vm.problem)
    vm.set_language("cs")
    routes.append(vm.route)
    return vm, routes


@pytest.mark.parametrize("form, actions", [
    pytest.param(STANDARD, [
        ("tick", {"item": "board", "done": True}), ("begin", {}), ("goto_step", {"step": "reveal"}),
        ("turn_order", {"cards": {"blue": 1, "yellow": 2, "green": 1}}), ("goto_step", {"step": "start_gold"}),
        ("gold_influence", {}), ("goto_step", {"step": "scoring"}),
        ("score_city", {"city": "ghent", "quarters": {"blue": 2, "grey": 1}, "masters": {"blue": 1}}),
        ("correct", {"track": "grey", "points": -1, "reason": "oops"}),
        ("end_round", {"board": True, "deck": False}),
        *[("score_city", {"city": c, "quarters": {"grey": 1}}) for c in ("bruges", "leuven", "utrecht", "liege")],
        ("finish", {"cards": {"blue": 2, "yellow": 2, "green": 3}}),
    ], id="standard-3"),
    pytest.param(TWO, [
        ("begin", {}), ("goto_step", {"step": "scoring"}),
        ("score_city", {"city": "ghent", "quarters": {"blue": 2, "green": 2, "red": 1}}),
        ("end_round", {"board": False}), ("goto_step", {"step": "scoring"}), ("end_round", {"board": True}),
        *[("score_city", {"city": c, "quarters": {"grey": 1}}) for c in ("bruges", "ypres", "leuven", "utrecht", "liege")],
        ("finish", {}),
    ], id="two-player"),
])
def test_every_screen_builds_through_a_whole_game(form, actions):
    vm, routes = walk(form, actions)
    assert vm.route == "result" and {"setup", "round", "final", "scores", "rules", "log"} <= set(routes)
    assert vm.game.result(vm.state, vm.session["config"])["winners"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_new_game_form_builds_in_both_languages(game):
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm.go(f"new:{game}")
    for lang in ("cs", "en"):
        vm.set_language(lang)
        shell.render()
    assert "create" in set(identifiers(shell.page.controls))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_screen_of_every_phase_the_games_script_reaches_builds_in_both_languages(game):
    """The registry's screen conformance: the game's examples SCRIPT played through the view-model, the
    game's screen of every phase it reaches, the scores, the log and the rules, in Czech and English (a
    finished game's read-only view, history and statistics too): tests/fuzz.py `script`."""
    from tests import fuzz  # it draws on this module's Page

    tally = fuzz.Tally()
    vm, _ = fuzz.script(game, tally)
    assert tally.actions == len(fuzz.examples(game).SCRIPT[1]) and tally.screens > len(fuzz.SHARED_SCREENS) + 1
    assert vm.session["game"] == game


def test_new_game_form_refusal_names_the_field():
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm.go("new:flanders_1302")
    shell.render()
    assert not vm.new_game("flanders_1302", dict(STANDARD, players=[{"colour": "blue", "name": ""}] * 2))
    assert vm.error_for("players.0.name") and vm.store.sessions() == []
    shell.render()


def test_undo_after_finish_reopens_the_final_scoring():
    vm, _ = walk(TWO, [("begin", {}), ("goto_step", {"step": "scoring"}), ("end_round", {"board": True}),
                       *[("score_city", {"city": c, "quarters": {"grey": 1}}) for c in
                         ("bruges", "ghent", "ypres", "leuven", "utrecht", "liege")], ("finish", {})])
    assert vm.store.sessions("finished") and not vm.store.sessions("active")
    assert vm.lang == "cs" and vm.undo_label() == "Vrátit: Závěrečné vyhodnocení dokončeno"
    vm.set_language("en")
    assert vm.undo_label() == "Undo: Final scoring done"
    assert vm.undo()
    assert vm.route == "final" and vm.store.sessions("active") and not vm.store.sessions("finished")
    assert vm.state["phase"] != "over" and vm.undo_label() != "Undo: Final scoring done"


def test_the_address_names_the_open_game_and_reopens_it():
    store = Store(None)
    vm = ViewModel(store)
    shell = Shell(Page(), vm)
    vm.new_game("flanders_1302", STANDARD)
    sid = vm.session["id"]
    assert shell.page.route == f"/game/{sid}"
    again = Shell(Page(), ViewModel(store))  # a reconnecting tab: a new session at the same address
    again.follow_url(f"/game/{sid}")
    assert again.vm.session["id"] == sid and again.vm.route == "setup"
    again.follow_url("/")
    assert again.vm.session is None and again.page.route == "/"
    again.follow_url("/game/no-such-game")
    assert again.vm.route == "home" and again.vm.problem


VILLAGE = {"start": 0, "lap": 4, "players": [{"colour": "red", "name": "Anna"}, {"colour": "ivory", "name": "Bořek"}]}


def test_every_village_screen_builds_through_a_whole_game():
    vm, routes = walk(VILLAGE, [
        ("tick", {"item": "board", "done": True}), ("begin", {}), ("goto_step", {"step": "turns"}),
        ("time", {"player": "red", "amount": 3}), ("market_start", {"player": "red"}),
        ("market_sell", {"player": "red", "prestige": 5, "goods": ["horse"]}), ("time", {"player": "ivory", "plague": True}),
        ("market_pass", {"player": "ivory"}), ("market_end", {}), ("time", {"player": "red", "amount": 1}),
        ("death", {"player": "red", "number": "1", "profession": "farmyard", "place": "chronicle"}),
        ("church", {"player": "ivory"}), ("coins", {"player": "red", "delta": 1}),
        ("grain", {"player": "ivory", "delta": 2}), ("next_turn", {}), ("round_end", {}),
        ("mass_buy", {"player": "ivory"}), ("mass_draw", {"members": {}, "monks": 3}),
        ("mass_move", {"player": "ivory", "source": 0, "target": 2, "grain": 2}), ("mass_done", {"player": "ivory"}),
        ("mass_end", {}), ("end_trigger", {"player": "ivory"}), ("next_turn", {}),
        ("mass_draw", {"members": {}, "monks": 4}), ("mass_end", {}),
        ("finish", {"players": {"red": {"cities_visited": 2, "council": [1, 0, 0, 0]},
                                "ivory": {"cities_visited": 0, "council": [0, 0, 0, 0]}}}),
    ], game="village")
    assert vm.route == "result" and {"setup", "round", "final", "scores", "rules", "log"} <= set(routes)
    result = vm.game.result(vm.state, vm.session["config"])
    # Anna: customer 5 + travel (2 cities) 3 + coins 2 = 10; Bořek: two mass majorities 4 + 3rd window 4 = 8
    assert {p["id"]: p["total"] for p in result["players"]} == {"red": 10, "ivory": 8}
    assert result["winners"] == ["red"]


CARCASSONNE = {"start": 0, "gifts": True, "players": [{"colour": "red", "name": "Anna"},
                                                      {"colour": "blue", "name": "Bořek"},
                                                      {"colour": "green", "name": "Cyril"}]}


CARCASSONNE_GAME = [  # a gift received on one turn is opened on a later one, before the tile is placed
    ("tick", {"item": "tiles", "done": True}), ("begin", {}),
    ("meeple", {"player": "red", "delta": 1}), ("meeple", {"player": "blue", "delta": 1}), ("gift_draw", {}),
    ("score_feature", {"type": "road", "tiles": 2, "meeples": {"red": 1}}), ("next_turn", {}),
    ("goto_step", {"step": "place"}), ("gift_draw", {}), ("meeple", {"player": "blue", "delta": 1}),
    ("score_feature", {"type": "city", "tiles": 3, "pennants": 1, "meeples": {"blue": 1}}), ("next_turn", {}),
    ("gift_draw", {}), ("next_turn", {}),
    ("goto_step", {"step": "gift"}), ("gift_open", {"card": "road_sweeper"}),
    ("road_sweeper", {"tiles": 2, "meeples": {}}), ("next_turn", {}),
    ("gift_open", {"card": "cash_out"}), ("cash_out", {"meeples": 2}), ("next_turn", {}),
    ("gift_open", {"card": "synod"}), ("synod", {}), ("meeple", {"player": "red", "delta": 1}), ("end_game", {}),
    ("tally_feature", {"type": "road", "tiles": 2, "meeples": {"green": 1}}), ("tally_next", {}),
    ("tally_next", {}), ("tally_next", {}), ("tally_feature", {"type": "field", "cities": 1, "meeples": {"red": 1}}),
    ("tally_next", {}), ("finish", {}),
]


def test_every_carcassonne_screen_builds_through_a_whole_game():
    vm, routes = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")
    assert vm.route == "result" and {"setup", "round", "final", "scores", "rules", "log"} <= set(routes)
    # Anna 2 (sweeper) + 3 (field) = 5; Bořek 8 (city) + 4 (cash out) = 12; Cyril 2 (road; his gift is opened)
    result = vm.game.result(vm.state, vm.session["config"])
    assert {p["id"]: p["total"] for p in result["players"]} == {"red": 5, "blue": 12, "green": 2}


PRINCES = {"start": 0, "options": ["counter_attack", "first_after_last_auction"],  # the English readings
           "players": [{"colour": "baglioni", "name": "Anna"}, {"colour": "d_este", "name": "Bořek"},
                       {"colour": "gonzaga", "name": "Cyril"}]}
INCOME = {"incomes": {f: {"gold": 12, "influence": 8} for f in ("baglioni", "d_este", "gonzaga")}}


def event(name, opener, others, place=None, currency="gold", vp=2, end=True):
    """One event auction the opener keeps for 0, its placement, and the end of the turn."""
    steps = [("open_auction", {"lot": "event", "event": name, "currency": currency, "vp": vp, "amount": 0}),
             *[("pass_bid", {"player": f}) for f in others]]
    if place is not None or name == "french_invasion":
        steps.append(("place", {"city": place}))
    return steps + ([("end_turn", {})] if end else [])


def test_every_princes_screen_builds_through_a_whole_game():
    a, b, c = "baglioni", "d_este", "gonzaga"
    vm, routes = walk(PRINCES, [
        ("tick", {"item": "board", "done": True}), ("begin", {}),
        ("buy_troop", {"troop": "pike", "cost": 4, "attack": 0, "defence": 2}), ("end_turn", {}),
        ("buy_troop", {"troop": "artillery", "cost": 6, "attack": 3, "defence": 1}), ("end_turn", {}),
        ("open_auction", {"lot": "city", "city": "venice", "tile": "plain", "gold": 2, "influence": 2, "amount": 14}),
        ("bid", {"player": a, "amount": 15}), ("pass_bid", {"player": b}), ("pass_bid", {"player": c}),
        ("end_turn", {}),
        ("declare_war", {"attacker": "venice", "defender": "rome"}), ("no_veto", {}),
        ("bid", {"player": a, "amount": 1}), ("pass_bid", {"player": b}), ("bid", {"player": b, "amount": 1}),
        ("modifier", {"attacker": 0, "defender": 0}),
        ("battle", {"dice": {"attacker": 1, "defender": 6}}), ("battle", {"dice": {"attacker": 1, "defender": 6}}),
        ("end_turn", {}),
        *event("bellini", b, (c, a)), *event("botticelli", c, (a, b), place="florence"),
        ("open_auction", {"lot": "pope", "amount": 0}), ("pass_bid", {"player": b}), ("pass_bid", {"player": c}),
        ("end_turn", {}),
        *event("gozzoli", b, (c, a), currency="influence"), *event("french_invasion", c, (a, b), place="naples",
                                                                   end=False),
        ("book_income", INCOME),
        *event("merchant", a, (b, c)), *event("da_vinci", b, (c, a)), *event("verrocchio", c, (a, b)),
        *event("michelangelo", a, (b, c), end=False), ("book_income", INCOME),
        *event("carpaccio", b, (c, a), place="milan"), *event("pinturicchio", c, (a, b), place="milan"),
        *event("ghirlandaio", a, (b, c), place="rome"), *event("other", b, (c, a), vp=4, end=False),
        ("book_income", INCOME), ("finish", {}),
    ], game="princes_of_the_renaissance")
    assert vm.route == "result" and {"setup", "round", "final", "scores", "rules", "log"} <= set(routes)
    result = vm.game.result(vm.state, vm.session["config"])
    assert result["winners"] and sum(p["breakdown"]["war"] for p in result["players"]) == 1


ELFENGOLD = {"start": 0, "variant": "elfengold", "wizards": True,
             "players": [{"colour": "red", "name": "Anna"}, {"colour": "blue", "name": "Bořek"},
                         {"colour": "green", "name": "Cyril"}]}


def elfengold_round(first_round, mover_order, tiles=("dragon", "gold", "tree", "unicorn", "exchange", "giant_pig")):
    """One Elfengold round: the phases, an auction of every tile (first one sold), everyone moves."""
    steps = [] if first_round else [("gold_card", {}), ("take_pile", {"player": mover_order[0]}), ("next_phase", {}),
                                    ("next_phase", {})]
    steps += [("next_phase", {}), ("reveal", {"tiles": list(tiles)}), ("bid", {"player": mover_order[0], "amount": 1}),
              *[("pass_bid", {"player": p}) for p in mover_order[1:]]]
    for _ in tiles[1:]:
        steps += [("pass_bid", {"player": p}) for p in mover_order]
    steps += [("next_phase", {}), ("next_phase", {})]
    steps += [("move", {"player": mover_order[0], "visits": [{"town": "beata"}, {"town": "virst", "gold_road": True}],
                        "take": "gold"}),
              ("move", {"player": mover_order[1], "visits": [{"town": "beata"}, {"town": "al_baran", "carpet": True}],
                        "take": "cards", "wizard_obstacles": 1}),
              ("pass_move", {"player": mover_order[2]}), ("next_phase", {}), ("next_phase", {})]
    return steps


def test_every_elfenland_screen_builds_through_a_whole_game():
    order = ["red", "blue", "green"]
    actions = [("tick", {"item": "board", "done": True}), ("begin", {})]
    for r in range(6):
        actions += elfengold_round(r == 0, order[r % 3:] + order[:r % 3])
    actions.append(("finish", {}))
    vm, routes = walk(ELFENGOLD, actions, game="elfenland")
    assert vm.route == "result" and {"setup", "round", "final", "scores", "rules", "log"} <= set(routes)
    result = vm.game.result(vm.state, vm.session["config"])
    assert result["winners"]


def test_elfenland_base_game_screens_and_the_card_count():
    base = dict(ELFENGOLD, variant="base", wizards=False, players=ELFENGOLD["players"][:2])
    actions = [("begin", {})]
    for r in range(4):
        movers = ["red", "blue"] if r % 2 == 0 else ["blue", "red"]
        actions += [("next_phase", {})] * 4 + [
            ("move", {"player": movers[0], "visits": [{"town": "beata" if r < 2 else "virst"}]}),
            ("pass_move", {"player": movers[1]}),
            ("next_phase", {}), ("next_phase", {})]
    actions += [("cards", {"cards": {"red": 1, "blue": 3}}), ("finish", {})]
    vm, routes = walk(base, actions, game="elfenland")
    assert vm.route == "result" and vm.game.result(vm.state, vm.session["config"])["winners"] == ["blue"]  # 2 towns each: cards


def elfengold_round_in_taps(first_round, order, last_round):
    """One Elfengold round as the screens enter it since issue 13: the app's next phase (income booked on
    the way, the row turned up on entering the auction), the quiet paths of the auction and the moves."""
    steps = [] if first_round else [("gold_card", {}), ("take_pile", {"player": order[0], "cards": 1}),
                                    ("advance", {"to": "tiles"})]
    steps += [("advance", {"to": "auction"}), ("bid", {"player": order[0], "amount": 1}),
              ("no_bid", {"tile": 0, "winner": order[0], "price": 1}), ("no_bid", {"tile": 1, "winner": None, "price": None}),
              ("bid", {"player": order[0], "amount": 2}), ("no_more_bids", {"tile": 2, "winner": order[0], "price": 2}),
              ("advance", {"to": "move"}),
              ("move", {"player": order[0], "visits": [{"town": "beata"}, {"town": "virst", "gold_road": True}],
                        "take": "gold"}),
              ("nobody_moves", {"players": order[1:]}), ("gold_card", {}), ("take_pile", {"player": order[1]}),
              ("advance", {"to": "final" if last_round else "draw"})]
    return steps


def test_every_elfenland_screen_builds_through_a_game_entered_with_the_quiet_paths():
    order = ["red", "blue", "green"]
    actions = [("tick", {"item": "board", "done": True}), ("begin", {})]
    for r in range(6):
        actions += elfengold_round_in_taps(r == 0, order[r % 3:] + order[:r % 3], r == 5)
    actions.append(("finish", {}))
    vm, routes = walk(ELFENGOLD, actions, game="elfenland")
    assert vm.route == "result" and {"setup", "round", "final", "scores", "rules", "log"} <= set(routes)


def test_a_move_half_entered_for_a_player_who_has_moved_meanwhile_is_dropped():
    """Towns tapped on this phone for Anna, while her move is recorded on another phone: the next
    mover's screen does not start with Anna's towns."""
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm.set_language("en")
    assert vm.new_game("elfenland", ELFENGOLD)
    for kind, args in [("begin", {}), ("advance", {"to": "auction"}),
                       ("no_more_bids", {"tile": 0, "winner": None, "price": None}), ("advance", {"to": "move"})]:
        assert vm.dispatch(kind, **args), vm.problem
    shell.render()
    shell.draft["move"]["visits"].append({"town": "beata", "gold_road": False, "carpet": False})
    assert vm.dispatch("move", player="red", visits=[{"town": "virst"}], take="gold")    # the other phone
    assert shell.draft["move"]["visits"] == []


def by_id(page, identifier):
    return next(c.content for c in controls_of(page.controls) if isinstance(c, ft.Semantics)
                and c.identifier == identifier)


def words(control) -> str:
    return " ".join(c.value for c in controls_of([control]) if isinstance(c, ft.Text) and c.value)


class Typed:
    def __init__(self, control, value):
        control.value = value
        self.control = control


def test_the_start_player_chips_show_the_names_once_typed():
    """The walk found "Player 1/2/3" on the start chips after the names were typed: leaving a name
    field redraws the chips with it."""
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm.set_language("en")
    vm.go("new:carcassonne")
    field = next(c for c in controls_of([by_id(shell.page, "name-0")]) if isinstance(c, ft.TextField))
    field.on_change(Typed(field, "Anička"))
    field.on_blur(None)
    assert "Anička" in words(by_id(shell.page, "start-0"))


def test_a_colour_refusal_goes_once_the_colour_is_fixed():
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm.set_language("en")
    vm.go("new:carcassonne")
    form = shell.draft["new"]
    form["players"][1]["colour"] = form["players"][0]["colour"]
    for i, name in enumerate(("Anna", "Bořek", "Cyril")):
        form["players"][i]["name"] = name
    shell.render()
    shell.draft["new"] = form
    assert not vm.new_game("carcassonne", {"start": 0, "gifts": True, "players": form["players"][:3]})
    assert vm.error_for("players.1.colour")
    shell.choose_colour(form["players"][1], "blue")
    assert vm.problem is None and not vm.error_for("players.1.colour")


def test_no_name_field_has_a_character_counter():
    """Flutter reads a counter out in English in Czech mode ("characters remaining"): none is drawn."""
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    for game in GAMES:
        shell.go(f"new:{game}")
        assert not [c for c in controls_of(shell.page.controls) if isinstance(c, ft.TextField) and c.max_length]


def test_a_time_marker_on_the_bridge_says_so():
    """The walk found "12 to the bridge" shown on the bridge itself."""
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm.set_language("en")
    form = {"start": 0, "lap": 5, "players": [{"colour": "red", "name": "Anna"}, {"colour": "yellow", "name": "Bořek"}]}
    assert vm.new_game("village", form) and vm.dispatch("begin")
    assert vm.dispatch("time", player="red", amount=5)
    shell.render()
    assert "on the bridge" in words(by_id(shell.page, "facts-red")) and "bridge in" not in words(by_id(shell.page, "facts-red"))


def test_the_princes_setup_starts_decade_one_and_its_title_is_not_cut():
    """The walk found "Start round 1" (Princes plays decades) and "Princes of the Re…" in the top bar."""
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    vm.set_language("en")
    assert vm.new_game("princes_of_the_renaissance", PRINCES)
    shell.render()
    assert "Start decade I" in words(by_id(shell.page, "begin"))
    heading = by_id(shell.page, "bar-title")
    assert heading.value == "Princes of the Renaissance" and heading.max_lines == 2
    assert heading.overflow != ft.TextOverflow.ELLIPSIS


def test_a_redraw_keeps_the_parts_that_did_not_change_and_draws_the_changed_ones_anew():
    """News from another phone changes one count: the other rows, the header and the rules are the very
    controls drawn before (Flet's diff skips them); the changed row is new, with the new count; a
    switch of language draws everything anew."""
    page, vm = Page(), ViewModel(Store(None))
    shell = Shell(page, vm)
    assert vm.new_game("carcassonne", CARCASSONNE) and vm.dispatch("begin")
    before = {i: by_id(page, i) for i in ("meeples-red", "meeples-blue", "meeples-green", "strip", "fig-red",
                                          "rules-toggle", "bar-title")}
    assert vm.dispatch("meeple", player="blue", delta=1)
    after = {i: by_id(page, i) for i in before}
    assert after["meeples-blue"] is not before["meeples-blue"] and after["meeples-blue"].value == "1 / 7"
    assert all(after[i] is before[i] for i in ("meeples-red", "meeples-green", "fig-red", "rules-toggle",
                                               "bar-title"))
    assert vm.lang == "cs" and words(by_id(page, "rules-toggle")) == "Pravidla tohoto kroku"
    vm.set_language("en")
    assert by_id(page, "meeples-red") is not before["meeples-red"] and by_id(page, "bar-title") is not \
        before["bar-title"]
    assert words(by_id(page, "rules-toggle")) == "Rules of this step"
    shell.forget()  # the phone has gone: nothing is kept for it
    assert not shell._kept


def test_a_counter_tapped_twice_before_the_redraw_counts_twice_and_next_player_once():
    """Two quick taps on one control, the second before the phone has the redraw the first made: a
    meeple counter's + (an action the rules take on any version) counts twice and keeps its key while
    the screen stays; "Next player" acts once and the second tap is told why it did nothing."""
    page, vm = Page(), ViewModel(Store(None))
    Shell(page, vm)
    assert vm.new_game("carcassonne", CARCASSONNE) and vm.dispatch("begin")
    plus = by_id(page, "meeple-blue-plus")
    assert getattr(plus.on_click, "shown", False)  # a part that later draws keep is stamped when built
    plus.on_click(None)
    plus.on_click(None)
    assert vm.state["meeples"]["blue"] == 2
    assert by_id(page, "meeple-blue-plus").key == plus.key
    turns = len(vm.session["log"])
    bar = by_id(page, "next-turn")
    bar.on_click(None)
    bar.on_click(None)
    assert len(vm.session["log"]) == turns + 1
    assert vm.problem is not None and "to druhé nezapsalo" in vm.problem.text


def damaged_game(folder) -> tuple[Store, str]:
    """A stored game whose file is well typed but no screen wrote it: its second action names a list
    where a player belongs, so replaying it raises a TypeError."""
    store = Store(folder)
    sid = store.create_session("carcassonne", GAMES["carcassonne"].new_config(
        {"start": 0, "gifts": False, "players": [{"colour": "red", "name": "Anna"}, {"colour": "blue", "name": "Bořek"}]}))
    store.record(sid, {"type": "begin", "args": {}})
    store.record(sid, {"type": "meeple", "args": {"player": ["red"], "delta": 1}})
    return Store(folder), sid


def test_a_damaged_game_says_so_offers_its_file_and_deletion_and_the_next_tap_works(tmp_path):
    store, sid = damaged_game(tmp_path)
    vm = ViewModel(store)
    shell = Shell(Page(), vm)
    vm.subscribe(shell.render)
    vm.set_language("en")
    assert [e["id"] for e in vm.in_progress()] == [sid]
    assert not vm.open(sid)
    assert vm.route == "home" and vm.damaged == sid and vm.problem.text.startswith("This game is damaged")
    assert {"problem", "damaged-file", "damaged-delete"} <= set(identifiers(shell.page.controls))
    name, raw = vm.damaged_file()
    assert name == f"companion-game-{sid}.json" and len(json.loads(raw)["log"]) == 2
    vm.set_language("cs")
    assert not vm.open(sid) and vm.problem.text.startswith("Tato hra je poškozená")
    vm.set_language("en")
    assert vm.new_game("carcassonne", {"start": 0, "gifts": False, "players": [
        {"colour": "red", "name": "Anna"}, {"colour": "blue", "name": "Bořek"}]})  # the next tap works
    assert vm.route == "setup" and vm.damaged is None
    vm.home()
    assert not vm.open(sid) and vm.delete_damaged()
    assert sid not in {e["id"] for e in vm.in_progress()} and vm.notice == "The damaged game was deleted."
    assert not (tmp_path / "sessions" / f"{sid}.json").exists()
    assert "damaged-delete" not in set(identifiers(shell.page.controls))


def test_a_game_whose_screen_fails_to_draw_is_shown_damaged_never_a_frozen_tab(tmp_path, monkeypatch, caplog):
    """Any fault while drawing a game (a state no screen foresaw) shows the damaged game's screen, with its
    file and its deletion, and one line in the log; the tab goes on drawing."""
    from companion.games.carcassonne import screens as carcassonne_screens

    vm = ViewModel(Store(tmp_path))
    shell = Shell(Page(), vm)
    vm.subscribe(shell.render)
    vm.set_language("en")
    assert vm.new_game("carcassonne", CARCASSONNE) and vm.dispatch("begin")
    sid = vm.session["id"]

    def fails(shell):
        raise KeyError("corrections")
    monkeypatch.setattr(carcassonne_screens, "SCREENS", dataclasses.replace(carcassonne_screens.SCREENS,
                                                                            round_screen=fails))
    assert vm.dispatch("meeple", player="red", delta=1)   # recorded; its screen cannot be drawn
    assert vm.route == "home" and vm.damaged == sid and vm.problem.text.startswith("This game is damaged")
    assert {"problem", "damaged-file", "damaged-delete"} <= set(identifiers(shell.page.controls))
    assert [r.getMessage() for r in caplog.records if "cannot be drawn" in r.getMessage()] == [
        f"game {sid} cannot be drawn (KeyError: 'corrections'): shown as damaged"]
    monkeypatch.undo()
    assert vm.open(sid) and vm.state["meeples"]["red"] == 1  # nothing was lost


def test_a_damaged_games_file_is_downloaded_from_the_server(tmp_path):
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from companion import server

    store, sid = damaged_game(tmp_path)
    app = FastAPI()
    server.add_downloads(app, store, str(tmp_path))
    http = TestClient(app)
    answer = http.get(f"/download/game-{sid}.json")
    assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
    assert answer.json()["meta"]["1"]["game"] == "carcassonne"
    assert http.get("/download/game-0123456789ab.json").status_code == 404
    assert http.get("/download/game-..%2Fcompanion.json").status_code == 404


@pytest.mark.parametrize("lang", ["cs", "en"])
def test_the_result_screen_names_the_winner_and_each_players_points_in_both_languages(lang):
    """What the browser flows read on the result screen, in the language each of them does not play."""
    vm, shell = shell_on("carcassonne", CARCASSONNE, CARCASSONNE_GAME, lang=lang)
    assert vm.route == "result"
    said = translations(lang)
    assert said.gettext("{name} wins!").format(name="Bořek") in words(by_id(shell.page, "winner"))
    for colour, points in (("red", 5), ("blue", 12), ("green", 2)):
        assert said.ngettext("{n} point", "{n} points", points).format(n=points) in words(by_id(shell.page,
                                                                                             f"result-{colour}"))


def test_the_undo_label_is_cut_after_a_whole_word_and_read_out_whole():
    """Undo said "Vrátit: Příprava dokončena, začí…" (Flutter's "…" cuts mid-word): beside the next
    action, a long label is cut after its last whole word that fits two lines, and a screen reader
    hears it whole."""
    assert shortened("Vrátit: Příprava dokončena, začíná 1. kolo", 28) == "Vrátit: Příprava dokončena…"
    assert shortened("Undo: Turn ended", 28) == "Undo: Turn ended"
    page, vm = Page(), ViewModel(Store(None))
    Shell(page, vm)
    vm.set_language("cs")
    assert vm.new_game("village", VILLAGE)
    assert vm.dispatch("begin")
    label = next(c for c in controls_of([by_id(page, "undo")]) if isinstance(c, ft.Text))
    assert label.semantics_label == vm.undo_label() and len(vm.undo_label()) > 28
    whole = vm.undo_label()
    assert label.value.endswith("…") and whole.startswith(label.value[:-1])
    assert not whole[len(label.value) - 1].isalpha()  # the cut falls between words
