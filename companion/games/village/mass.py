"""Village: the mass and its majority bonus (FACTS §2.6; TV-V7): `_mass_*`, `mass_majority`,
`mass_mover`, `mass_idle`."""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import InvalidAction, Msg, N_, P_
from .box import FARMYARD_GRAIN, MASS_BONUS, MASS_PIECES, MONKS, _name, _player, _whole


def open_mass(final: bool) -> dict:
    """A mass about to be held: after the round, or the final mass after the final actions."""
    return {"bought": {}, "drawn": None, "moved": [], "started": [], "final": final}


def _round_end(state: dict, args: Mapping, config: Mapping) -> None:
    """The last cube was taken and its action done: the round ends with a mass."""
    state["phase"] = "mass"
    state["mass"] = open_mass(False)


def _mass_buy(state: dict, args: Mapping, config: Mapping) -> None:
    """Buy one of your own members out of the bag for 1 coin (until 4 pieces are out)."""
    mass = state["mass"]
    colour, player = _player(state, config, args)
    if player["bag"] <= 0:
        raise InvalidAction(Msg(N_("{name} has no family member in the bag."), {"name": _name(config, colour)}))
    if player["coins"] <= 0:
        raise InvalidAction(Msg(N_("{name} has no coin."), {"name": _name(config, colour)}))
    player["coins"] -= 1
    player["bag"] -= 1
    player["windows"][0] += 1
    mass["bought"][colour] = mass["bought"].get(colour, 0) + 1


def _mass_draw(state: dict, args: Mapping, config: Mapping) -> None:
    """The rest is drawn blind until 4 pieces are out: family members to the rightmost window,
    monks back into the bag."""
    mass = state["mass"]
    drawn = args.get("members")
    if not isinstance(drawn, Mapping):
        raise InvalidAction(Msg(N_("Enter what was drawn.")), field="members")
    counts = {}
    for colour, player in state["players"].items():
        n = drawn.get(colour, 0)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= player["bag"]:
            raise InvalidAction(P_("{name} has only {n} member in the bag.", "{name} has only {n} members in the bag.",
                                   player["bag"], name=_name(config, colour)), field=f"members.{colour}")
        counts[colour] = n
    monks = _whole(args, "monks", 0, MONKS)
    if sum(mass["bought"].values()) + sum(counts.values()) + monks != MASS_PIECES:
        raise InvalidAction(Msg(N_("Exactly 4 pieces come out of the bag: bought, drawn members and monks "
                                   "together.")), field="monks")
    for colour, n in counts.items():
        state["players"][colour]["bag"] -= n
        state["players"][colour]["windows"][0] += n
    mass["drawn"] = {"members": counts, "monks": monks}


def _mass_move(state: dict, args: Mapping, config: Mapping) -> None:
    """Move one of your members leftwards, paying the grain shown between the windows (see the board).
    A player may move several members, and one member several windows, in his one go."""
    colour, player = _player(state, config, args)
    source, target = args.get("source"), args.get("target")
    if not (isinstance(source, int) and isinstance(target, int) and 0 <= source < target <= 3):
        raise InvalidAction(Msg(N_("A member moves from a window to one further left.")), field="target")
    if player["windows"][source] <= 0:
        raise InvalidAction(Msg(N_("None of his family sits on that church window.")), field="source")
    grain = _whole(args, "grain", 0, FARMYARD_GRAIN)
    if grain < target - source:
        raise InvalidAction(P_("Every window further costs grain (see the board): at least {n} bag for this move.",
                               "Every window further costs grain (see the board): at least {n} bags for this move.",
                               target - source), field="grain")
    if grain > player["grain"]:
        raise InvalidAction(Msg(N_("Not enough grain.")), field="grain")
    player["grain"] -= grain
    player["windows"][source] -= 1
    player["windows"][target] += 1
    if colour not in state["mass"]["started"]:
        state["mass"]["started"].append(colour)


def _mass_done(state: dict, args: Mapping, config: Mapping) -> None:
    """A player has finished moving this mass (each player moves once, in turn order)."""
    colour, _ = _player(state, config, args)
    state["mass"]["moved"].append(colour)


def mass_majority(windows: Mapping[str, list[int]]) -> list[str]:
    """Who gets the 2 prestige: most members in the church; a tie goes to the member further left;
    still tied, each of them."""
    counts = {c: sum(w) for c, w in windows.items()}
    best = max(counts.values(), default=0)
    if best == 0:
        return []
    tied = [c for c, n in counts.items() if n == best]
    leftmost = {c: max(i for i, n in enumerate(windows[c]) if n) for c in tied}
    far = max(leftmost.values())
    return [c for c in tied if leftmost[c] == far]


def can_move(player: Mapping) -> bool:
    """A family can move up in the mass: a member on a window that is not the leftmost, and grain to pay
    (every step between the windows costs grain)."""
    return sum(player["windows"][:3]) > 0 and player["grain"] > 0


def mass_mover(state: Mapping, config: Mapping) -> str | None:
    """Who moves up now in the mass's second part: the first family, from the start player clockwise,
    that has not finished and can move or has begun moving (None before the draw and once nobody is
    left to move)."""
    mass = state["mass"]
    if mass is None or mass["drawn"] is None:
        return None
    players = config["players"]
    for k in range(len(players)):
        colour = players[(state["start"] + k) % len(players)]["colour"]
        if colour not in mass["moved"] and (colour in mass["started"] or can_move(state["players"][colour])):
            return colour
    return None


def mass_idle(state: Mapping) -> bool:
    """Nobody can act in this mass: no family member is in the black bag (nothing to buy, and the 4
    pieces drawn are the monks) and no family has both a member that could still move left and grain
    to pay with (every step between the windows costs the grain the board shows: the app's reading of
    FACTS §2.6, whose example has every step cost at least one bag)."""
    return all(p["bag"] == 0 and not can_move(p) for p in state["players"].values())


def _mass_quiet(state: dict, args: Mapping, config: Mapping) -> None:
    """A mass in which nobody can act, in one entry: the monks are drawn and go back, the majority
    scores, and the next round begins (or the final scoring)."""
    mass = state["mass"]
    mass["drawn"] = {"members": {c: 0 for c in state["players"]}, "monks": MASS_PIECES}
    _mass_end(state, args, config)


def _mass_end(state: dict, args: Mapping, config: Mapping) -> None:
    """The majority bonus, then a new round (or, after the final mass, the final scoring)."""
    mass = state["mass"]
    winners = mass_majority({c: p["windows"] for c, p in state["players"].items()})
    for colour in winners:
        state["scores"][colour] += MASS_BONUS
    state["last_mass"] = {"round": state["round"], "winners": winners}
    state["mass"] = None
    if mass["final"]:
        state["phase"] = "scoring"
        return
    state["round"] += 1
    if state["next_start"] is not None:
        state["start"] = state["next_start"]
        state["next_start"] = None
    state["turn"] = state["start"]
    state["step"] = "seed"
    state["phase"] = "play"
