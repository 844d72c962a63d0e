"""A Carcassonne session at the table: the configuration, the setup checklist, the turn's steps and
the meeples and features entered during play.

Encodes ../shared/rules/FACTS.md §4.1–4.3: the setup checklist (FACTS §4.1): `setup_items`; the turn
guide (§4.2, §4.5: draw → open at most one gift → place → meeple → score), the header's step following
what the turn has entered: `STEPS`, `_reached`; meeples on the board (at most 7 per player): `_meeple`;
completed features scored during play, their meeples going home (§4.3): `_score_feature`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine import inputs
from ...engine.model import InvalidAction, Msg, N_, Ref, Step
from ...engine.seats import check_seats
from .features import GIFT_CARDS, ID, MEEPLES, check_feature, feature_points


COLOURS = ("red", "green", "blue", "yellow", "black")


STEPS = (Step("draw"), Step("gift", helper="gifts"), Step("place"), Step("meeple"), Step("score", helper="score"))


ORDER = tuple(s.id for s in STEPS)


TALLY = ("road", "city", "monastery", "field")


def text(key: str) -> Ref:
    return Ref(f"{ID}.{key}")


def new_config(raw: Mapping) -> dict:
    """Players in seat order (clockwise), the start player (the youngest) and The Gifts on or off."""
    players, start = check_seats(raw, COLOURS, 2, 5)
    gifts = raw.get("gifts", False)
    if not isinstance(gifts, bool):
        raise InvalidAction(Msg(N_("Choose whether The Gifts are in play.")), field="gifts")
    return {"game": ID, "variant": "standard", "players": players, "start": start, "gifts": gifts}


def setup_items(config: Mapping) -> list[dict]:
    items: list[dict[str, Any]] = [{"id": "tiles"}, {"id": "scoreboard"}]
    if config["gifts"]:
        items.append({"id": "gifts"})
    items.append({"id": "start_player", "params": {"name": config["players"][config["start"]]["name"]}})
    for item in items:
        item.setdefault("params", {})
    return items


def steps(config: Mapping) -> tuple:
    return STEPS if config["gifts"] else tuple(s for s in STEPS if s.id != "gift")


def initial_state(config: Mapping) -> dict:
    colours = [p["colour"] for p in config["players"]]
    return {"phase": "setup", "turn": config["start"], "step": "draw", "placed": False,
            "scores": {c: 0 for c in colours},
            "meeples": {c: 0 for c in colours}, "scored": [], "tally": [], "category": "road",
            "gifts": ({"deck": GIFT_CARDS, "discard": 0, "held": {c: 0 for c in colours}, "opened": None,
                       "drawn": False} if config["gifts"] else None)}


def _colour(state: Mapping, args: Mapping) -> str:
    colour = args.get("player")
    if not isinstance(colour, str) or colour not in state["scores"]:
        raise InvalidAction(Msg(N_("Choose a player.")), field="player")
    return colour


def _active(state: Mapping, config: Mapping) -> str:
    return config["players"][state["turn"]]["colour"]


def _checked(raw: Mapping, complete: bool, config: Mapping) -> dict:
    """A feature entered at the table, checked like the `score` command's (field names as paths)."""
    feature = {k: raw[k] for k in ("type", "tiles", "pennants", "cities", "meeples") if k in raw}
    feature["meeples"] = {c: n for c, n in (feature.get("meeples") or {}).items() if n}
    if complete and feature.get("type") != "field":
        feature["complete"] = True
    try:
        return check_feature(feature, "", [p["colour"] for p in config["players"]])
    except inputs.InputError as error:
        raise InvalidAction(Msg(N_("That is more than the box holds or the rules allow ({detail})."),
                                {"detail": error.msg}), field=error.path.lstrip(".")) from None


def _reached(state: dict, step: str) -> None:
    """The turn has got to `step` (an action of that step or a later one was entered): the header
    follows it, never back. From the placing of the tile on, the tile is down for this turn."""
    if ORDER.index(state["step"]) < ORDER.index(step):
        state["step"] = step
    if ORDER.index(step) >= ORDER.index("place"):
        state["placed"] = True


def _begin(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "play"


def _goto_step(state: dict, args: Mapping, config: Mapping) -> None:
    if args.get("step") not in [s.id for s in steps(config)]:
        raise InvalidAction(Msg(N_("There is no such step.")))
    state["step"] = args["step"]


def _next_turn(state: dict, args: Mapping, config: Mapping) -> None:
    state["turn"] = (state["turn"] + 1) % len(config["players"])
    state["step"], state["placed"] = "draw", False
    if state["gifts"]:
        state["gifts"]["opened"], state["gifts"]["drawn"] = None, False


def _meeple(state: dict, args: Mapping, config: Mapping) -> None:
    """A meeple placed on the board (+1) or taken back (−1): at most 7 of a player's are out. The
    player on turn placing one has placed the tile (the meeple step); in the final tally a count is
    corrected, never below the meeples the tally has already counted on the board."""
    colour = _colour(state, args)
    delta = args.get("delta")
    if delta not in (1, -1):
        raise InvalidAction(Msg(N_("This action is not understood.")))
    if state["meeples"][colour] + delta > MEEPLES:
        raise InvalidAction(Msg(N_("A player has 7 meeples to place.")), field="player")
    if state["meeples"][colour] + delta < (tallied(state)[colour] if state["phase"] == "tally" else 0):
        raise InvalidAction(Msg(N_("None of this player's meeples is on the board.") if state["phase"] != "tally"
                                else N_("The tally has already counted each of this player's meeples on the board.")),
                            field="player")
    state["meeples"][colour] += delta
    if state["phase"] == "play" and delta > 0 and colour == _active(state, config):
        _reached(state, "meeple")


def tallied(state: Mapping) -> dict[str, int]:
    """Each player's meeples the final tally has counted so far."""
    counted = {c: 0 for c in state["meeples"]}
    for feature in state["tally"]:
        for colour, n in feature["meeples"].items():
            counted[colour] += n
    return counted


def _return_meeples(state: dict, meeples: Mapping[str, int]) -> None:
    for colour, n in meeples.items():
        if state["meeples"][colour] < n:
            raise InvalidAction(Msg(N_("Fewer meeples of that colour are on the board."), {}),
                                field=f"meeples.{colour}")
    for colour, n in meeples.items():
        state["meeples"][colour] -= n


def _score_feature(state: dict, args: Mapping, config: Mapping) -> None:
    """A feature completed this turn: the majority scores, the meeples go home (FACTS §4.3)."""
    if args.get("type") == "field":
        raise InvalidAction(Msg(N_("Fields are scored only at the end of the game.")), field="type")
    feature = _checked(args, True, config)
    _return_meeples(state, feature["meeples"])
    for colour, pts in feature_points(feature).items():
        state["scores"][colour] += pts
    state["scored"].append(feature)
    _reached(state, "score")
