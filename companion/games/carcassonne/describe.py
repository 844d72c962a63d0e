"""What Carcassonne's screens say about the session: the game log's line for each action (`describe`)
and the pinned header (`guide`)."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import Guide, Msg, N_, P_
from .features import feature_points
from .session import _active, _checked, steps, text


def describe(action: Mapping, config: Mapping) -> Msg:
    """What an action did, for the game log and the undo button."""
    kind, args = action.get("type"), action.get("args", {})
    names = {p["colour"]: p["name"] for p in config["players"]}
    who = names.get(args.get("player"), "")
    simple = {"begin": N_("Setup finished, the game begins"), "goto_step": N_("Moved to another step"),
              "next_turn": N_("Next player"), "end_game": N_("The last tile is placed: final tally"),
              "tally_next": N_("Next category"), "finish": N_("Final scoring done"),
              "gift_draw": N_("A gift card was drawn"), "synod": N_("Synod: a meeple on a monastery"),
              "tick": N_("Setup: ticked an item")}
    if kind == "meeple":
        return Msg(N_("{name}: a meeple placed") if args.get("delta") == 1 else N_("{name}: a meeple taken back"),
                   {"name": who})
    if kind in ("score_feature", "tally_feature", "road_sweeper"):
        feature = _checked(dict(args, type="road") if kind == "road_sweeper" else args, kind == "score_feature",
                           config)
        points = {c: n for c, n in feature_points(feature).items() if n}
        scored = ", ".join(f"{names[c]} +{n}" for c, n in points.items())
        if kind == "road_sweeper":
            return Msg(N_("Road Sweeper: {points}"), {"points": scored or "0"})
        if not points:
            return Msg(N_("{feature}: no meeple in it, no points"), {"feature": text(f"feature.{feature['type']}")})
        return Msg(N_("{feature} scored: {points}"), {"feature": text(f"feature.{feature['type']}"), "points": scored})
    if kind == "cash_out":
        n = args.get("meeples", 0)
        return Msg(N_("Cash Out: {meeples}, {points}"), {"meeples": P_("{n} meeple", "{n} meeples", n),
                                                         "points": P_("{n} point", "{n} points", 2 * n)})
    if kind == "gift_open":
        return Msg(N_("Gift opened: {card}"), {"card": text(f"gift.{args.get('card')}.title")})
    if kind == "correct":
        return Msg(N_("Score correction for {name}: {points:+d} ({reason})"),
                   {"name": names.get(args.get("track"), ""), "points": args.get("points", 0),
                    "reason": args.get("reason", "")})
    return Msg(simple.get(str(kind), N_("Unknown action")))


def guide(state: Mapping, config: Mapping) -> Guide:
    """The pinned header: the step of the turn (or the final tally's category), the player on turn
    and every player's score."""
    figures = {p["colour"]: Msg("{n}", {"n": state["scores"][p["colour"]]}) for p in config["players"]}
    if state["phase"] == "tally":
        return Guide(Msg({"road": N_("Final tally: unfinished roads"), "city": N_("Final tally: unfinished cities"),
                          "monastery": N_("Final tally: unfinished monasteries"),
                          "field": N_("Final tally: fields")}.get(state["category"], N_("Final tally"))),
                     figures=figures, screen=f"tally:{state['category']}")
    if state["phase"] == "over":
        return Guide(Msg(N_("The game is over")), figures=figures, screen="over")
    ids = [s.id for s in steps(config)]
    where = Msg(N_("Step {n} of {all}: {step}"), {"n": ids.index(state["step"]) + 1, "all": len(ids),
                                                   "step": text(f"step.standard.{state['step']}.title")})
    return Guide(where, _active(state, config), Msg(N_("On turn:")), figures, "play")
