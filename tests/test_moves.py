"""The table of allowed actions (GameDef.moves), checked on every registered game along its script
(tests/test_engine.py SCRIPTS), in every state the script passes through:

- the table names a rule for every action type of the game;
- the engine refuses every action the table refuses, with the table's own reason, and every action
  made for a player the table does not name;
- every control a screen draws for an action (widgets.act) is greyed exactly where the table (or the
  phone's owner) refuses it, and a tap on it says why, next to it and in the bar.
"""
from __future__ import annotations

import pytest

from companion.engine import flow
from companion.engine.model import InvalidAction, Rule
from companion.games import GAMES
from companion.store import Store
from companion.ui.app import Shell, _walk
from companion.ui.viewmodel import ViewModel
from companion.ui.widgets import Act
from tests.test_engine import SCRIPTS
from tests.test_screens import Page


def states(game_id: str):
    """Each state the game's script passes through, with its config."""
    game = GAMES[game_id]
    form, actions = SCRIPTS[game_id]
    config = game.new_config(form)
    state = flow.initial(game, config)
    yield config, state
    for kind, args in actions:
        state = flow.apply(game, config, state, {"type": kind, "args": args})
        yield config, state


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_table_names_every_action_of_the_game(game_id):
    game = GAMES[game_id]
    assert game.moves is not None, f"{game_id} has no table of allowed actions (GameDef.moves)"
    for config, state in states(game_id):
        table = flow.moves(game, config, state)
        assert set(table) == set(game.reducers) | {"tick", "correct", "phone"}, state.get("phase")
        for kind, rule in table.items():
            assert isinstance(rule, Rule), kind
            assert rule.by is None or rule.by <= {p["colour"] for p in config["players"]}, kind


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_engine_refuses_what_the_table_refuses_with_its_reason(game_id):
    game = GAMES[game_id]
    refusals = 0
    for config, state in states(game_id):
        for kind, rule in flow.moves(game, config, state).items():
            if rule.refusal is not None:
                with pytest.raises(InvalidAction) as refused:
                    flow.apply(game, config, state, {"type": kind, "args": {}})
                assert refused.value.msg == rule.refusal, (kind, state.get("phase"))
                refusals += 1
            elif rule.by is not None:
                outsider = next((p["colour"] for p in config["players"] if p["colour"] not in rule.by), None)
                if outsider is not None:
                    with pytest.raises(InvalidAction) as refused:
                        flow.apply(game, config, state, {"type": kind, "args": {"player": outsider}})
                    assert refused.value.field == "player", kind
                    refusals += 1
    assert refusals, f"{game_id}: the script meets no refused action, so this test would prove nothing"


def screen_acts(shell):
    """The controls of the screen drawn last that stand for an action (their widgets.Act)."""
    shell.render()
    return [c for c in _walk(shell.page.controls) if isinstance(c.data, Act) and not isinstance(c.data, str)]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_screen_draws_its_actions_as_the_table_says(game_id):
    form, actions = SCRIPTS[game_id]
    vm = ViewModel(Store(None))
    shell = Shell(Page(), vm)
    assert vm.new_game(game_id, form), vm.problem
    drawn = tapped = 0
    for kind, args in [*actions, (None, None)]:
        for control in screen_acts(shell):
            act = control.data
            rule = vm.rule(act.kind, act.player)
            expected = vm.msg(rule.refusal) if rule.refusal is not None else None
            assert act.refusal == expected, (act, vm.state.get("phase"))
            drawn += 1
            if act.refusal is not None:  # a greyed control is never silent: a tap says why
                before = list(vm.session["log"])
                button = next(c for c in _walk([control]) if getattr(c, "on_click", None))
                button.on_click(None)
                assert vm.problem and vm.problem.text == act.refusal
                assert vm.session["log"] == before
                shell.render()
                assert any(getattr(c, "value", None) == act.refusal for c in _walk(shell.page.controls)), act
                vm.problem = None
                tapped += 1
        if kind is not None:
            vm.open(vm.session["id"])
            assert vm.dispatch(kind, **args), (kind, vm.problem)
    assert drawn, f"{game_id}: no screen draws a control from the table (widgets.act)"


def test_a_phone_that_belongs_to_a_player_shows_the_others_personal_actions_greyed():
    vm = ViewModel(Store(None))
    Shell(Page(), vm)
    form, actions = SCRIPTS["princes_of_the_renaissance"]
    assert vm.new_game("princes_of_the_renaissance", form)
    for kind, args in actions[:5]:  # up to the auction: baglioni bids next
        assert vm.dispatch(kind, **args), (kind, vm.problem)
    vm.me = "gonzaga"
    rule = vm.rule("bid", "baglioni")
    assert rule.refusal is not None and "gonzaga" not in vm.msg(rule.refusal)
    assert "C" in vm.msg(rule.refusal)  # names the phone's owner
    assert not vm.dispatch("bid", player="baglioni", amount=11)
    assert "C" in vm.problem.text
