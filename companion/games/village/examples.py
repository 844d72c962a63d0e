"""What the shared conformance tests (replay, undo, refusals, the allowed-actions table, both
languages: tests/test_engine.py and the tests built on it) play on this game: `SCRIPT`, a short
session through its main actions (new-game form, then actions), and `CONFIGS`, new-game forms that
between them reach every setup item, step and text of the game; for the random legal games of the
property tests (tests/fuzz.py), `arguments`, the arguments in range of an action the game's table
allows, and `score_input`, a finished game's own numbers as `companion score` input."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine.draw import Draw, player
from ...engine.model import Rule
from .box import FARMYARD_GRAIN, GOODS, MASS_PIECES, PROFESSIONS, in_church, living

SCRIPT: tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]] = ({"start": 0, "lap": 6, "players": [{"colour": "red", "name": "A"}, {"colour": "ivory", "name": "B"}]}, [
        ("tick", {"item": "board", "done": True}), ("begin", {}), ("time", {"player": "red", "amount": 3}),
        ("market_start", {"player": "red"}), ("market_sell", {"player": "red", "prestige": 4, "goods": ["horse"]}),
        ("market_pass", {"player": "ivory"}), ("market_pass", {"player": "red"}), ("church", {"player": "ivory"}),
        ("coins", {"player": "ivory", "delta": 2}), ("correct", {"track": "red", "points": 3, "reason": "travel"}),
        ("next_turn", {}), ("round_end", {}), ("mass_buy", {"player": "ivory"}),
        ("mass_draw", {"members": {}, "monks": 3}), ("mass_end", {}),
        ("time", {"player": "ivory", "amount": 6}),
        ("death", {"player": "ivory", "number": "1", "profession": "farmyard", "place": "grave"}),
        ("market_start", {"player": "red"}), ("end_trigger", {"player": "ivory"}), ("market_pass", {"player": "red"}),
        ("market_pass", {"player": "ivory"}), ("next_turn", {}), ("next_turn", {}), ("mass_quiet", {}),
        ("finish", {"players": {"red": {"cities_visited": 1, "council": [0, 0, 0, 0]},
                                "ivory": {"cities_visited": 0, "council": [0, 0, 0, 0]}}}),
    ])

CONFIGS: list[dict[str, Any]] = [
    {"start": 0, "lap": 8, "players": [{"colour": c, "name": c} for c in colours]}
    for colours in (("red", "blue"), ("red", "blue", "ivory"), ("red", "blue", "ivory", "yellow"))
]


def _death(draw: Draw, rule: Rule, state: Mapping, config: Mapping) -> dict[str, Any]:
    """A death of one of the dying player's members: his lowest number (a church member from his window)."""
    colour = player(draw, rule, config)
    book = state["players"][colour]
    numbers = sorted((k for k, v in book["living"].items() if v > 0), key=int) or ["1"]
    profession = draw.choice(PROFESSIONS)
    args: dict[str, Any] = {"player": colour, "number": numbers[0], "profession": profession,
                            "place": draw.choice(["chronicle", "grave", "removed"] if state["phase"] == "final_actions"
                                                 else ["chronicle", "grave"])}
    if profession == "church":
        args["window"] = draw.choice([i for i, n in enumerate(book["windows"]) if n] or [0])
    return args


def _mass(kind: str, draw: Draw, rule: Rule, state: Mapping, config: Mapping) -> dict[str, Any]:
    """The mass: a member bought out, the pieces drawn (4 in all), a member moved up a window."""
    mass = state["mass"]
    if kind == "mass_buy":
        return {"player": draw.choice([c for c, p in state["players"].items() if p["bag"]] or [player(draw, rule, config)])}
    if kind == "mass_draw":
        left = MASS_PIECES - sum(mass["bought"].values())
        members = {}
        for colour, book in state["players"].items():
            members[colour] = draw.integer(0, min(book["bag"], left))
            left -= members[colour]
        return {"members": members, "monks": left}
    colour = player(draw, rule, config)
    if kind == "mass_done":
        return {"player": colour}
    windows = state["players"][colour]["windows"]
    source = draw.choice([i for i in range(3) if windows[i]] or [0])
    target = draw.integer(source + 1, 3)
    return {"player": colour, "source": source, "target": target,
            "grain": draw.integer(target - source, max(target - source, state["players"][colour]["grain"]))}


def arguments(kind: str, rule: Rule, state: Mapping, config: Mapping, draw: Draw) -> dict[str, Any] | None:
    """Arguments in range for an action the table allows (tests/fuzz.py plays random legal games with them)."""
    if kind in ("begin", "market_end", "mass_end", "mass_quiet"):
        return {}
    if kind in ("next_turn", "round_end") and draw.integer(0, 2):
        return None  # the turns go round a while before the round ends
    if kind == "next_turn":
        return {}
    if kind == "round_end":
        return {} if draw.boolean() else None
    if kind == "goto_step":
        return {"step": draw.choice(["seed", "turns", "round_end"])}
    if kind == "death":
        return _death(draw, rule, state, config)
    if kind.startswith("mass_"):
        return _mass(kind, draw, rule, state, config)
    if kind == "finish":
        return {"players": {p["colour"]: {"cities_visited": draw.integer(0, 6), "council": _council(draw, state, p["colour"])}
                            for p in config["players"]}}
    colour = player(draw, rule, config)
    if kind == "time":
        return {"player": colour, "plague": True} if draw.integer(0, 5) == 0 else {"player": colour,
                                                                                     "amount": draw.integer(1, 4)}
    if kind in ("coins", "grain"):
        return {"player": colour, "delta": draw.choice([-1, 1, 2] if kind == "coins" else [-1, 1, 2, 3])}
    if kind == "market_sell":
        book = state["players"][colour]
        return {"player": colour, "prestige": draw.integer(0, 8), "grain": draw.integer(0, min(book["grain"], FARMYARD_GRAIN)),
                "goods": [draw.choice(GOODS) for _ in range(draw.integer(0, 2))]}
    if kind == "end_trigger" and draw.integer(0, 3):
        return None  # the chronicle and the graves fill up slowly
    return {"player": colour}


def _council(draw: Draw, state: Mapping, colour: str) -> list[int]:
    """Members on the four council stages, at most the living ones outside the church."""
    book = state["players"][colour]
    free = living(book) - in_church(book)
    council = []
    for _stage in range(4):
        council.append(draw.integer(0, max(0, min(2, free))))
        free -= council[-1]
    return council


def score_input(state: Mapping, config: Mapping) -> dict[str, Any]:
    """`companion score village` input from a finished game: the family's books and the final counts."""
    players = []
    for p in config["players"]:
        book, entry = state["players"][p["colour"]], state["final"][p["colour"]]
        players.append({"id": p["colour"], "track": state["scores"][p["colour"]],
                        "cities_visited": entry["cities_visited"], "council": entry["council"],
                        "church": book["windows"], "chronicle": book["chronicle"], "customers": book["customers"],
                        "coins": book["coins"], "living": living(book)})
    return {"players": players}
