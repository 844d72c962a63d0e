"""Flanders 1302: the round's steps as entered during play.

- turn order in step 3 (rulebook "3. Odkrytí karet"; FACTS §1.4, TV-F1): `turn_order`, `explain_order`;
- step 4 follows the turn order of step 3: each player's action is marked done in that order (by the
  player on turn), or the table says at once that everyone has acted (the actions are carried out
  in that order all the same; the app only records that step 4 is over): `on_turn`, `_action_done`,
  `_all_acted`;
- step 5, the start player's gold influence card: `_gold_influence`;
- the end of the round and the end triggers (rulebook "Konec hry"; FACTS §1.8): `_end_round`.
"""
from __future__ import annotations

from collections.abc import Mapping

from ...engine.model import InvalidAction, Msg, N_, P_, listed
from ...engine.ranking import tied_groups
from .preparation import STEPS, TWO_PLAYER

def turn_order(seats: list[str], start: int, cards: Mapping[str, int]) -> list[str]:
    """Most cards first; ties go to the player sitting closest clockwise to the start player
    (the start player himself counts as closest). `seats` are in clockwise order."""
    n = len(seats)
    distance = {seats[(start + k) % n]: k for k in range(n)}
    return sorted(seats, key=lambda colour: (-cards[colour], distance[colour]))


def explain_order(config: Mapping, start: int, cards: Mapping[str, int]) -> list[Msg]:
    """Why the order is what it is: one line per player, and the seat rule where it decided."""
    seats = [p["colour"] for p in config["players"]]
    names = {p["colour"]: p["name"] for p in config["players"]}
    order = turn_order(seats, start, cards)
    lines = []
    for i, colour in enumerate(order):
        lines.append(P_("{place}. {name}: {n} card", "{place}. {name}: {n} cards", cards[colour],
                        place=i + 1, name=names[colour]))
    for group in tied_groups(order, key=lambda c: cards[c]):
        if len(group) > 1:
            lines.append(Msg(N_("{names} played the same number of cards: whoever sits closer clockwise to the "
                                "start player ({start}) goes first."),
                             {"names": listed([names[c] for c in group]), "start": names[seats[start]]}))
    if all(cards[c] == 1 for c in seats):
        lines.append(Msg(N_("Everyone played one card: the start player begins.")))
    return lines


def _begin(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "round"


def _goto_step(state: dict, args: Mapping, config: Mapping) -> None:
    if args.get("step") not in [s.id for s in STEPS[config["variant"]]]:
        raise InvalidAction(Msg(N_("There is no such step.")))
    state["step"] = args["step"]


def _player_counts(args: Mapping, config: Mapping, key: str, low: int) -> dict[str, int]:
    raw = args.get(key)
    if not isinstance(raw, Mapping):
        raise InvalidAction(Msg(N_("Enter a number for every player.")), field=key)
    counts = {}
    for p in config["players"]:
        n = raw.get(p["colour"])
        if isinstance(n, bool) or not isinstance(n, int) or n < low:
            raise InvalidAction(Msg(N_("Enter a whole number of at least {low}."), {"low": low}),
                                field=f"{key}.{p['colour']}")
        counts[p["colour"]] = n
    return counts


def _turn_order(state: dict, args: Mapping, config: Mapping) -> None:
    """Step 3: cards revealed per player → the order; played influence cards leave the game."""
    cards = _player_counts(args, config, "cards", 1)
    for p in config["players"]:
        held = state["influence"][p["colour"]]
        if cards[p["colour"]] - 1 > held:
            raise InvalidAction(P_("{name} can play at most {n} card: one action card plus the influence "
                                   "cards still in hand.",
                                   "{name} can play at most {n} cards: one action card plus the influence "
                                   "cards still in hand.", held + 1, name=p["name"]),
                                field=f"cards.{p['colour']}")
    for colour, n in cards.items():
        state["influence"][colour] -= n - 1
    seats = [p["colour"] for p in config["players"]]
    state["order"] = {"cards": cards, "order": turn_order(seats, state["start"], cards), "acted": 0}
    state["step"] = "actions"


def _action_done(state: dict, args: Mapping, config: Mapping) -> None:
    """Step 4: the player on turn has carried out the action; after the last one, step 5 follows."""
    if not isinstance(args.get("player"), str):
        raise InvalidAction(Msg(N_("Say which player carried out the action.")), field="player")
    state["order"]["acted"] += 1
    if state["order"]["acted"] == len(state["order"]["order"]):
        state["step"] = "start_gold"


def _all_acted(state: dict, args: Mapping, config: Mapping) -> None:
    """Step 4: every player still to act has carried out the action, in the turn order; step 5 follows."""
    state["order"]["acted"] = len(state["order"]["order"])
    state["step"] = "start_gold"


def _gold_influence(state: dict, args: Mapping, config: Mapping) -> None:
    """Step 5: the start player's gold card is an influence card; he keeps it."""
    colour = config["players"][state["start"]]["colour"]
    state["influence"][colour] += 1
    state["gold_influence"] = state["round"]


def _end_round(state: dict, args: Mapping, config: Mapping) -> None:
    """After step 6: check the end triggers with the players; either the game ends or a new round starts."""
    board = args.get("board")
    deck = args.get("deck", False)
    if not isinstance(board, bool) or not isinstance(deck, bool):
        raise InvalidAction(Msg(N_("Answer both questions about the end of the game.")))
    if config["variant"] == TWO_PLAYER and deck:
        raise InvalidAction(Msg(N_("The two-player variant plays without gold cards.")))
    if board or deck:
        state["phase"] = "final"
        state["end"] = {"board": board, "deck": deck}
        return
    state["round"] += 1
    state["start"] = (state["start"] + 1) % len(config["players"])
    state["step"] = STEPS[config["variant"]][0].id
    state["order"] = None


def on_turn(state: Mapping, config: Mapping) -> str | None:
    """Who carries out an action now in step 4 (the turn order of step 3), None when the order is
    not worked out or everyone has acted."""
    order = state.get("order")
    if not order or order["acted"] >= len(order["order"]):
        return None
    return order["order"][order["acted"]]
