"""A session is an action log; its state is the replay of that log.

`apply` never changes the state it is given: it works on a copy and either returns the new
state or raises InvalidAction with the old state untouched. `replay` makes one state and lets
each action change it in place, so replaying a log costs time in proportion to its length (a copy
per action would cost the square: the state grows with the log, e.g. the list of corrections).
Undo is replay without the last action. Actions common to every game (ticking the setup
checklist, a manual score correction) are handled here; the rest go to the game's reducers.
"""
from __future__ import annotations

import marshal
from collections.abc import Container
from typing import Any
from collections.abc import Mapping

from .model import ALLOWED, GameDef, InvalidAction, Msg, N_, Rule


def initial(game: GameDef, config: Mapping[str, Any]) -> dict[str, Any]:
    """The state of a new session: the game's own state plus the shared bookkeeping."""
    state = game.initial_state(config)
    state.setdefault("ticks", [])
    state.setdefault("corrections", [])
    return state


def apply(game: GameDef, config: Mapping[str, Any], state: Mapping[str, Any], action: Mapping[str, Any]) -> dict[str, Any]:
    """The state after `action`; raises InvalidAction and leaves `state` as it was."""
    new: dict[str, Any] = thaw(state)
    _reduce(game, config, new, action)
    return new


def _reduce(game: GameDef, config: Mapping[str, Any], state: dict[str, Any], action: Mapping[str, Any]) -> None:
    """Change `state` in place by `action` (on a refusal it may be half changed: callers own a copy)."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise InvalidAction(Msg(N_("This action is not understood.")))
    kind, args = action["type"], action.get("args", {})
    if not isinstance(args, Mapping):
        raise InvalidAction(Msg(N_("This action is not understood.")))
    if game.moves is not None:
        _allowed(game, config, state, kind, args)
    if kind == "tick":
        _tick(game, config, state, args)
    elif kind == "correct":
        _correct(state, args, config)
    elif kind == "phone":
        _phone(config, args)
    elif kind in game.reducers:
        game.reducers[kind](state, args, config)
    else:
        raise InvalidAction(Msg(N_("This action is not understood.")))


def moves(game: GameDef, config: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, Rule]:
    """The table of allowed actions in `state` (GameDef.moves), with the entries every game has: the
    setup checklist and a score correction, allowed at any time unless the game says otherwise."""
    table = {"tick": ALLOWED, "correct": ALLOWED, "phone": ALLOWED}
    if game.moves is not None:
        table.update(game.moves(state, config))
    return table


def by_name(config: Mapping[str, Any], players: Container[str]) -> str:
    """The names of `players` (colours) in seating order, joined by commas."""
    return ", ".join(p["name"] for p in config["players"] if p["colour"] in players)


def _allowed(game: GameDef, config: Mapping[str, Any], state: Mapping[str, Any], kind: str, args: Mapping[str, Any]) -> None:
    """Refuse `kind` where the game's table of allowed actions refuses it, or when the player it
    names is not one who may make it now."""
    rule = moves(game, config, state).get(kind)
    if rule is None:
        raise InvalidAction(Msg(N_("This action is not understood.")))
    if rule.refusal is not None:
        raise InvalidAction(rule.refusal, rule.field)
    player = args.get("player")
    if rule.by is not None and isinstance(player, str) and player not in rule.by:
        raise InvalidAction(Msg(N_("It is not {name}'s turn for this: {who} acts now."),
                                {"name": by_name(config, {player}) or player, "who": by_name(config, rule.by)}),
                            field="player")


def thaw(value: Any) -> Any:
    """A copy of plain data that shares no dict, list or set with `value`: what `copy.deepcopy` makes
    of it (shared parts stay shared within the copy), about ten times faster."""
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:  # not plain data (a mapping of another type, an object)
        import copy  # only here: `companion score` never needs it (it starts faster without)

        return copy.deepcopy(dict(value) if isinstance(value, Mapping) else value)


#: Entries every game has that do not depend on what others did meanwhile (see GameDef.independent).
INDEPENDENT = frozenset({"tick", "correct", "phone"})


def independent(game: GameDef, action: Mapping[str, Any]) -> bool:
    """Whether `action` may be applied on a newer state than the one it was entered on."""
    return action.get("type") in INDEPENDENT | game.independent


def score_track(state: Mapping[str, Any], config: Mapping[str, Any]) -> dict[str, int]:
    """The running score of a game that keeps one on its score track (`state["scores"]`)."""
    return {p["colour"]: state["scores"][p["colour"]] for p in config["players"]}


def stage(game: GameDef, state: Mapping[str, Any]) -> int | None:
    """The round `state` is in (GameDef.stage; by default the state's whole-number `"round"`), or None
    for a game without rounds."""
    if game.stage is not None:
        return game.stage(state)
    value = state.get("round")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def undo_count(game: GameDef, log: list[Any]) -> int:
    """How many actions at the end of `log` one undo takes back: the steps moved through since the
    last real action, and that action (only the steps when nothing else is left)."""
    n = len(log)
    while n and log[n - 1].get("type") in game.navigation | {"phone"}:
        n -= 1
    return len(log) - n + (1 if n else 0)


def replay(game: GameDef, config: Mapping[str, Any], log: list[Any]) -> dict[str, Any]:
    """The state after every action of `log`, in order: one state changed in place, action by action,
    so the cost grows with the log's length, not with its square. Each action gets its own copy of
    the action and of the configuration, as `apply` would see them: whatever a reducer keeps of
    them in the state, a later action changes only the state, never the log, the configuration or
    what the next action reads."""
    state: dict[str, Any] = thaw(initial(game, config))
    for action in log:
        _reduce(game, thaw(config), state, thaw(action))
    return state


def need(state: Mapping[str, Any], *phases: str) -> None:
    """Refuse an action outside the phases of the game it belongs to."""
    if state.get("phase") not in phases:
        raise InvalidAction(Msg(N_("That is not possible at this point of the game.")))


def describe(game: GameDef, action: Mapping[str, Any], config: Mapping[str, Any]) -> Msg:
    """What an action did, for the game's history and "Undo: ...": the game's own words
    (GameDef.describe), and those of the line every game has for a phone changing hands."""
    if action.get("type") != "phone":
        return game.describe(action, config)
    args = action.get("args", {})
    now, was = by_name(config, {args.get("player")}), by_name(config, {args.get("was")})
    if was and now:
        return Msg(N_("Table: the phone of {was} now belongs to {now}"), {"was": was, "now": now})
    if was:
        return Msg(N_("Table: the phone of {was} now belongs to nobody"), {"was": was})
    return Msg(N_("Table: a phone now belongs to {now}"), {"now": now})


def _phone(config: Mapping[str, Any], args: Mapping[str, Any]) -> None:
    """A line in the log when a phone at the table changes hands (table mode: whose phone acts for
    whom); it changes nothing in the game."""
    colours = {p["colour"] for p in config["players"]}
    if args.get("player") not in colours | {None} or args.get("was") not in colours | {None} \
            or args.get("player") == args.get("was"):
        raise InvalidAction(Msg(N_("There is no such player at this table.")), field="player")


def _tick(game: GameDef, config: Mapping[str, Any], state: dict[str, Any], args: Mapping[str, Any]) -> None:
    item, done = args.get("item"), args.get("done")
    if item not in [i["id"] for i in game.setup_items(config)] or not isinstance(done, bool):
        raise InvalidAction(Msg(N_("There is no such item on the setup checklist.")))
    ticks = state["ticks"]
    if done and item not in ticks:
        ticks.append(item)
    elif not done and item in ticks:
        ticks.remove(item)


def _correct(state: dict[str, Any], args: Mapping[str, Any], config: Mapping[str, Any]) -> None:
    """A manual score correction: a whole number of points (not 0) for a track, with a reason."""
    track, points, reason = args.get("track"), args.get("points"), args.get("reason")
    if track not in state.get("scores", {}):
        raise InvalidAction(Msg(N_("There is no such score track.")), field="track")
    if not isinstance(points, int) or isinstance(points, bool) or points == 0 or abs(points) > 999:
        raise InvalidAction(Msg(N_("Enter a whole number of points other than 0 (at most 999 either way).")),
                            field="points")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidAction(Msg(N_("Say why the score is corrected.")), field="reason")
    if state["scores"][track] + points < 0:
        raise InvalidAction(Msg(N_("A score cannot go below 0.")), field="points")
    state["scores"][track] += points
    state["corrections"].append({"track": track, "points": points, "reason": reason.strip()[:200]})
