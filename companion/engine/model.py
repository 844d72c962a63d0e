"""Core value types of the rules engine: invalid actions, game definitions (and the messages of
companion/messages.py, which every layer speaks in).

Pure Python: nothing here may import Flet or TinyDB (tests/test_purity.py checks it).
The annotations are evaluated (no `from __future__ import annotations`): NamedTuple would otherwise
compile each string annotation, a sixth of `companion score`'s start (tests/test_purity.py).
"""

from types import MappingProxyType
from typing import Any, NamedTuple
from collections.abc import Callable, Mapping

from ..messages import InvalidAction, Msg, N_, P_, Ref, listed, render

__all__ = ["ALLOWED", "GameDef", "Guide", "InvalidAction", "Msg", "N_", "P_", "Ref", "Rule", "Step", "listed",
           "refused", "render"]


class Step(NamedTuple):
    """One step of a round: its id (also the rule-text key suffix) and which helper it offers."""

    id: str
    helper: str | None = None


class Guide(NamedTuple):
    """What the pinned header of every in-game screen says: where the game is, who must act now
    (in an auction the bidder, in a war the defender, not always the turn player), and every
    player's figure at a glance (score, gold, towns). `screen` names the screen the state is on:
    a new one opens scrolled to its top."""

    where: Msg
    actor: str | None = None
    role: Msg | None = None
    figures: Mapping[str, Msg] = MappingProxyType({})
    screen: str = ""


class Rule(NamedTuple):
    """Whether one kind of action is allowed now, in the game's table of allowed actions
    (`GameDef.moves`): `refusal` is None when it is, else the reason it is refused, in the players'
    words; `by` names the players who may make it now (None: it is not one player's to make, anyone
    at the table enters it); `field` the entry the refusal is about, where it is one (shown next to
    it). The engine refuses by it and the screens draw from it, so a rule check lives in one place."""

    refusal: Msg | None = None
    by: frozenset[str] | None = None
    field: str | None = None


#: The rule of an action that is allowed now, to anyone.
ALLOWED = Rule()


def refused(text: str, **params: Any) -> Rule:
    """The rule of an action refused now, with its reason (`text` marked with N_)."""
    return Rule(Msg(text, params))


class GameDef(NamedTuple):
    """Everything the app needs to know about one game: data plus pure functions.

    - `new_config(raw)` checks a new-game form and returns the config stored with the session;
    - `setup_items(config)` lists the checklist ids for that configuration;
    - `initial_state(config)` is the state before the first action;
    - `reducers[type](state, args, config)` mutate a private copy of the state or raise InvalidAction;
    - `describe(action, config)` says what an action did (for the log and for "Undo: ...");
    - `score_cli(data)` checks a `companion score` input and returns the contract's output;
    - `steps(config)` is the round's step table (it drives the round guide);
    - `result(state, config)` is the final scoring of a finished session (same code as `score_cli`);
    - `independent` names the action types that are one player's ledger entry, not a step of the
      game (a meeple out, a gold correction): on a shared table such an entry still counts when
      another phone recorded something first, if it is allowed on the game as it now is;
    - `progress(state, config)` is each player's running score (None: the game scores at the end);
    - `guide(state, config)` fills the pinned header of the game's screens (a `Guide`);
    - `navigation` names the action types that only move between steps: undo takes them back together
      with the real action before them, so stepping through a round never buries the last entry;
    - `stage(state)` is the round the game is in, for charts that read by rounds (None: the game has
      no rounds); without it, a state's whole-number `"round"` is its round (`flow.stage`);
    - `kind(config)` is what the history and the statistics call a game of this configuration when it
      is not the game itself: its own key and name (a score sheet: the sheet); None: the game;
    - `personal` names the action types a player makes for himself (a bid, a pass): in table mode a
      phone that belongs to a player makes them only for that player;
    - `moves(state, config)` is the table of allowed actions: for every action type of the game (each
      of `reducers`) its `Rule` in this state: allowed or the reason it is refused, and who may make
      it. The engine refuses an action by it before the reducer runs (the reducer still checks the
      action's own numbers: a bid above the money), the screens draw their buttons from it, and the
      pinned header's "who acts now" agrees with it (tests/test_moves.py checks every game);
    - `order` is where the home screen lists the game (lowest first; the score sheet, for any other
      game, comes last);
    - `bgg_id` is the game's BoardGameGeek id, by which a BG Stats export names it (companion/bgstats.py);
      0 where it is not known for sure: its plays are then matched by name only and exported without one;
    - `other_names` are the titles BG Stats may give it besides its titles in data/<id>.toml (other
      editions' boxes), matched like them: case and spacing aside.
    """

    id: str
    cli_name: str
    min_players: int
    max_players: int
    new_config: Callable[[Mapping[str, Any]], dict[str, Any]]
    setup_items: Callable[[Mapping[str, Any]], list[Any]]
    initial_state: Callable[[Mapping[str, Any]], dict[str, Any]]
    reducers: Mapping[str, Callable[..., Any]]
    describe: Callable[[Mapping[str, Any], Mapping[str, Any]], Msg]
    score_cli: Callable[[Any], dict[str, Any]]
    steps: Callable[[Mapping[str, Any]], tuple[Any, ...]]
    result: Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any]]
    independent: frozenset[str] = frozenset()
    progress: Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any]] | None = None
    guide: Callable[[Mapping[str, Any], Mapping[str, Any]], Guide] | None = None
    navigation: frozenset[str] = frozenset()
    personal: frozenset[str] = frozenset()
    stage: Callable[[Mapping[str, Any]], int | None] | None = None
    kind: Callable[[Mapping[str, Any]], tuple[str, str]] | None = None
    moves: Callable[[Mapping[str, Any], Mapping[str, Any]], Mapping[str, Rule]] | None = None
    order: int = 100
    bgg_id: int = 0
    other_names: tuple[str, ...] = ()
