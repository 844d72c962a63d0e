"""Any other game on a score sheet: a game made of data, like the five boxed games.

The sheet is the game's configuration (`config["sheet"]`), so the history, the statistics, the
exports, the backup and table mode treat a sheet's games like any other:
- `name`: what the group calls the game (at most 40 characters);
- `categories`: the scoring categories, in order (1–12 names of at most 24 characters, each once;
  a sheet scored per round may have none: then each round has one score, "points");
- `per_round`: a score per round (each round's row of every category), or one score per category;
- `lowest`: the lowest total wins (golf, Hearts) rather than the highest;
- `tie_break`: a category that orders players tied on their total (None: tied players share the
  place). It decides the same way as the totals: more of it when the highest total wins, less of it
  when the lowest does. Players still tied after it share the place (1, 2, 2, 4);
- `id`: the sheet's id in the device's "Our sheets" (12 hex digits; "" for a sheet never saved,
  such as one scored by `companion score score-sheet`).

A session: 1–12 players (names and colours as in every game), no setup checklist (the game starts
on its sheet), every cell entered as a whole number between −9,999 and 9,999 (a cell can be cleared
again), a new round only once the current one is complete, and the final scoring only once every
cell is in. `companion score score-sheet` scores the same sheet from JSON with the same `scores`.
"""
from __future__ import annotations

import re
from typing import Any
from collections.abc import Mapping

from ...engine import inputs
from ...engine.model import ALLOWED, GameDef, Guide, InvalidAction, Msg, N_, P_, Ref, Rule, Step, refused, listed
from ...engine.ranking import shared_places, tied_groups
from ...engine.seats import check_seats

ID = "score_sheet"
CLI_NAME = "score-sheet"
#: Twelve colours that tell twelve players apart (no black or white on the app's black page).
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "pink", "teal", "brown", "cyan", "lime", "grey")
MAX_PLAYERS = 12
MAX_CATEGORIES = 12
MAX_ROUNDS = 99
NAME_LENGTH = 40
CATEGORY_LENGTH = 24
#: The largest score a cell takes either way (no score pad needs more, and the totals stay readable).
CELL = 9_999
#: The one category of a sheet scored per round without named categories.
POINTS = "points"
SHEET_ID = re.compile(r"[0-9a-f]{12}")
STEPS = (Step("play", "sheet"),)


def text(key: str) -> Ref:
    return Ref(f"{ID}.{key}")


# ----------------------------------------------------------------------------------------------
# The sheet


def check_sheet(raw: Any) -> dict:
    """A sheet as the "Another game" form (or a file) gives it, checked; InvalidAction names the field
    (`sheet.name`, `sheet.categories.2`, `sheet.tie_break`)."""
    if not isinstance(raw, Mapping):
        raise InvalidAction(Msg(N_("Describe the game's score sheet.")), field="sheet")
    name = raw.get("name")
    name = " ".join(name.split()) if isinstance(name, str) else ""
    if not name:
        raise InvalidAction(Msg(N_("Enter the game's name.")), field="sheet.name")
    if len(name) > NAME_LENGTH:
        raise InvalidAction(Msg(N_("A game's name can have at most {n} characters."), {"n": NAME_LENGTH}),
                            field="sheet.name")
    per_round, lowest = raw.get("per_round", False), raw.get("lowest", False)
    if not isinstance(per_round, bool):
        raise InvalidAction(Msg(N_("Choose whether there is a score per round.")), field="sheet.per_round")
    if not isinstance(lowest, bool):
        raise InvalidAction(Msg(N_("Choose whether the highest or the lowest total wins.")), field="sheet.lowest")
    categories = raw.get("categories", [])
    if not isinstance(categories, list) or len(categories) > MAX_CATEGORIES:
        raise InvalidAction(Msg(N_("A sheet has at most {n} categories."), {"n": MAX_CATEGORIES}),
                            field="sheet.categories")
    clean: list[str] = []
    for i, category in enumerate(categories):
        category = " ".join(category.split()) if isinstance(category, str) else ""
        if not category:
            raise InvalidAction(Msg(N_("Enter the category's name.")), field=f"sheet.categories.{i}")
        if len(category) > CATEGORY_LENGTH:
            raise InvalidAction(Msg(N_("A category's name can have at most {n} characters."),
                                    {"n": CATEGORY_LENGTH}), field=f"sheet.categories.{i}")
        if category.casefold() in {c.casefold() for c in clean}:
            raise InvalidAction(Msg(N_("Each category needs a different name.")), field=f"sheet.categories.{i}")
        clean.append(category)
    if not clean and not per_round:
        raise InvalidAction(Msg(N_("Name at least one scoring category (or score per round).")),
                            field="sheet.categories")
    tie_break = raw.get("tie_break")
    if tie_break is not None and tie_break not in clean:
        raise InvalidAction(Msg(N_("The tie-breaker must be one of the categories.")), field="sheet.tie_break")
    sheet_id = raw.get("id", "")
    if not isinstance(sheet_id, str) or sheet_id and not SHEET_ID.fullmatch(sheet_id):
        raise InvalidAction(Msg(N_("This sheet is not one of this device's sheets.")), field="sheet")
    return {"id": sheet_id, "name": name, "categories": clean, "per_round": per_round, "lowest": lowest,
            "tie_break": tie_break}


def categories(sheet: Mapping) -> list[str]:
    """The columns of one round (or of the whole sheet)."""
    return list(sheet["categories"]) or [POINTS]


# ----------------------------------------------------------------------------------------------
# Scoring (one function for the screens and `companion score`)


def final_scores(sheet: Mapping, players: list[dict]) -> dict:
    """`players`: `{"id", "name"?, "rounds": [{category: points}, ...]}` (every cell given). The result
    in the contract's shape: each player's breakdown by category (summed over the rounds), total and
    place, the winners, and the lines explaining the order."""
    keys = categories(sheet)
    sign = -1 if sheet["lowest"] else 1
    rows = []
    for player in players:
        breakdown = {k: sum(r[k] for r in player["rounds"]) for k in keys}
        rows.append({"id": player["id"], "total": sum(breakdown.values()), "breakdown": breakdown,
                     "rounds": [sum(r[k] for k in keys) for r in player["rounds"]]})
    names = {p["id"]: p.get("name", p["id"]) for p in players}
    tie = sheet["tie_break"]
    explain: list[Msg] = [Msg(N_("The lowest total wins.") if sheet["lowest"] else N_("The highest total wins."))]
    by_total = tied_groups(rows, key=lambda r: sign * r["total"])
    ordered: list[list[dict]] = []
    for group in by_total:
        if len(group) == 1:
            ordered.append(group)
            continue
        joined = listed([names[r["id"]] for r in group])
        if tie is None:
            ordered.append(group)
            explain.append(P_("{names}: a tie at {n} point, and the sheet names no tie-breaker: they share the place.",
                              "{names}: a tie at {n} points, and the sheet names no tie-breaker: they share the "
                              "place.", group[0]["total"], names=joined))
            continue
        broken = tied_groups(group, key=lambda r: sign * r["breakdown"][tie])
        ordered += broken
        order = ", ".join(f"{names[r['id']]} {r['breakdown'][tie]}" for r in group)
        explain.append(P_("{names}: a tie at {n} point; the tie-breaker {category} orders them ({order}).",
                          "{names}: a tie at {n} points; the tie-breaker {category} orders them ({order}).",
                          group[0]["total"], names=joined, category=tie, order=order))
        for still in broken:
            if len(still) > 1:
                explain.append(Msg(N_("{names} are still tied and share the place."),
                                   {"names": listed([names[r["id"]] for r in still])}))
    for group, place in zip(ordered, shared_places(ordered)):
        for row in group:
            row["place"] = place
    out = [{"id": r["id"], "total": r["total"], "place": r["place"], "breakdown": r["breakdown"]} for r in rows]
    if sheet["per_round"]:
        for row, base in zip(out, rows):
            row["rounds"] = base["rounds"]
    return {"game": CLI_NAME, "players": out, "winners": [r["id"] for r in out if r["place"] == 1],
            "lowest": sheet["lowest"], "explain": explain}


def score_cli(data: Any) -> dict:
    """`companion score score-sheet`: `{"sheet": {...}, "players": [{"id", "scores": {category: n}}]}`
    or, for a sheet scored per round, `{"id", "rounds": [{category: n}, ...]}` (every player the same
    number of rounds)."""
    data, _options, players = inputs.common(data, CLI_NAME, (), 1, MAX_PLAYERS, top=["sheet"])
    try:
        sheet = check_sheet(data["sheet"])
    except InvalidAction as error:
        path = "sheet"
        for part in (error.field or "sheet").split(".")[1:]:
            path = inputs.join(path, int(part) if part.isdigit() else part)
        raise inputs.InputError(path, error.msg) from None
    keys = categories(sheet)
    checked, count = [], None
    for i, player in enumerate(players):
        where = inputs.join("players", i)
        field = "rounds" if sheet["per_round"] else "scores"
        inputs.obj(player, where, required=["id", field])
        rounds = (inputs.array(player["rounds"], inputs.join(where, "rounds"), 1, MAX_ROUNDS) if sheet["per_round"]
                  else [player["scores"]])
        if count is not None and len(rounds) != count:
            raise inputs.InputError(inputs.join(where, "rounds"),
                                    Msg(N_("must have as many rounds as the first player's ({n})"), {"n": count}))
        count = len(rounds)
        clean = []
        for r, cells in enumerate(rounds):
            at = inputs.join(inputs.join(where, "rounds"), r) if sheet["per_round"] else inputs.join(where, "scores")
            inputs.obj(cells, at, required=keys)
            clean.append({k: _cli_cell(cells[k], inputs.join(at, k)) for k in keys})
        checked.append({"id": player["id"], "rounds": clean})
    return final_scores(sheet, checked)


def _cli_cell(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > CELL:
        raise inputs.InputError(path, Msg(N_("must be a whole number from -{n} to {n}"), {"n": CELL}))
    return value


# ----------------------------------------------------------------------------------------------
# The table side


def new_config(raw: Mapping) -> dict:
    """The sheet and 1–12 players (names and colours as in every game)."""
    sheet = check_sheet(raw.get("sheet") if isinstance(raw, Mapping) else None)
    players, start = check_seats(raw, COLOURS, 1, MAX_PLAYERS)
    return {"game": ID, "variant": "standard", "players": players, "start": start, "sheet": sheet,
            "title": sheet["name"]}


def setup_items(config: Mapping) -> list[dict]:
    return []


def steps(config: Mapping) -> tuple:
    return STEPS


def initial_state(config: Mapping) -> dict:
    state: dict[str, Any] = {"phase": "play", "cells": {p["colour"]: [{}] for p in config["players"]}}
    if config["sheet"]["per_round"]:
        state["round"] = 1
    return state


def missing(state: Mapping, config: Mapping, rounds: range | None = None) -> tuple[str, int, str] | None:
    """The first cell not entered yet (player, round from 1, category), or None when all are in."""
    rows = range(len(next(iter(state["cells"].values())))) if rounds is None else rounds
    for r in rows:
        for key in categories(config["sheet"]):
            for p in config["players"]:
                if key not in state["cells"][p["colour"]][r]:
                    return p["colour"], r + 1, key
    return None


def _missing(config: Mapping, gap: tuple[str, int, str], what: str) -> Rule:
    """Refused with `what`, naming the first cell not entered (its field is `cell.<colour>.<round>.<category>`)."""
    colour, round_, key = gap
    name = next(p["name"] for p in config["players"] if p["colour"] == colour)
    return Rule(Msg(what, {"name": name, "category": _label(config, key), "round": round_}),
                field=f"cell.{colour}.{round_}.{key}")


def _label(config: Mapping, key: str) -> Any:
    return text("category.points") if key == POINTS and not config["sheet"]["categories"] else key


def _score(state: dict, args: Mapping, config: Mapping) -> None:
    colour, key, value = args.get("player"), args.get("category"), args.get("value")
    if colour not in state["cells"]:
        raise InvalidAction(Msg(N_("Choose a player.")), field="player")
    if key not in categories(config["sheet"]):
        raise InvalidAction(Msg(N_("There is no such category on this sheet.")), field="category")
    rows = state["cells"][colour]
    round_ = args.get("round", len(rows))
    if isinstance(round_, bool) or not isinstance(round_, int) or not 1 <= round_ <= len(rows):
        raise InvalidAction(Msg(N_("There is no such round yet.")), field="round")
    if value is None:
        rows[round_ - 1].pop(key, None)
        return
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > CELL:
        raise InvalidAction(Msg(N_("Enter a whole number from −{n} to {n}."), {"n": CELL}), field="value")
    rows[round_ - 1][key] = value


def _next_round(state: dict, args: Mapping, config: Mapping) -> None:
    state["round"] += 1
    for rows in state["cells"].values():
        rows.append({})


def _finish(state: dict, args: Mapping, config: Mapping) -> None:
    state["phase"] = "over"


def moves(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """The table of allowed actions: cells are entered while the game is on; the next round once this
    round's cells are all in (a sheet with rounds); the final scoring once every cell is in."""
    if state["phase"] != "play":
        over = refused(N_("The game is over: its scores can no longer be changed."))
        return {"score": over, "next_round": over, "finish": over}
    if not config["sheet"]["per_round"]:
        next_round = refused(N_("This sheet has no rounds."))
    elif gap := missing(state, config, range(state["round"] - 1, state["round"])):
        next_round = _missing(config, gap, N_("Round {round} is not complete: enter {name}'s {category} first."))
    elif state["round"] >= MAX_ROUNDS:
        next_round = refused(N_("A sheet has at most {n} rounds."), n=MAX_ROUNDS)
    else:
        next_round = ALLOWED
    gap = missing(state, config)
    finish = _missing(config, gap, N_("Round {round} is not complete: enter {name}'s {category} first.")
                      if config["sheet"]["per_round"] else N_("Enter {name}'s {category} first.")) if gap else ALLOWED
    return {"score": ALLOWED, "next_round": next_round, "finish": finish}


REDUCERS = {"score": _score, "next_round": _next_round, "finish": _finish}


def _players(state: Mapping, config: Mapping) -> list[dict]:
    keys = categories(config["sheet"])
    return [{"id": p["colour"], "name": p["name"],
             "rounds": [{k: cells.get(k, 0) for k in keys} for cells in state["cells"][p["colour"]]]}
            for p in config["players"]]


def result(state: Mapping, config: Mapping) -> dict:
    """The final result (blank cells, only possible before the end, count 0)."""
    return final_scores(config["sheet"], _players(state, config))


def progress(state: Mapping, config: Mapping) -> dict:
    """Each player's running total (a sheet scored per round: up to the round in play)."""
    return {row["id"]: row["total"] for row in result(state, config)["players"]}


def describe(action: Mapping, config: Mapping) -> Msg:
    """What an action did, for the game log and the undo button: the player, the cell and its value."""
    kind, args = action.get("type"), action.get("args", {})
    if kind == "score":
        names = {p["colour"]: p["name"] for p in config["players"]}
        params = {"name": names.get(args.get("player"), ""), "category": _label(config, str(args.get("category"))),
                  "value": args.get("value"), "round": args.get("round", "")}
        if args.get("value") is None:
            return Msg(N_("Round {round}: {name}'s {category} cleared") if config["sheet"]["per_round"]
                       else N_("{name}'s {category} cleared"), params)
        return Msg(N_("Round {round}: {name}, {category} {value}") if config["sheet"]["per_round"]
                   else N_("{name}: {category} {value}"), params)
    return Msg({"next_round": N_("Next round"), "finish": N_("Final scoring done")}.get(str(kind), N_("Unknown action")))


def guide(state: Mapping, config: Mapping) -> Guide:
    """The pinned header: the round (on a sheet scored per round) and every player's total and place."""
    rows = result(state, config)["players"]
    figures = {r["id"]: Msg("{total} · {place}.", {"total": r["total"], "place": r["place"]}) for r in rows}
    if state["phase"] == "over":
        return Guide(Msg(N_("The game is over")), figures=figures, screen="over")
    if config["sheet"]["per_round"]:
        return Guide(Msg(N_("Round {n}"), {"n": state["round"]}), figures=figures, screen=f"round:{state['round']}")
    return Guide(Msg(N_("Score sheet")), figures=figures, screen="sheet")


def kind(config: Mapping) -> tuple[str, str]:
    """A sheet's games are a game of their own in the history and the statistics."""
    sheet = config["sheet"]
    return f"{ID}:{sheet['id'] or sheet['name'].casefold()}", sheet["name"]


GAME = GameDef(
    id=ID, cli_name=CLI_NAME, min_players=1, max_players=MAX_PLAYERS,
    new_config=new_config, setup_items=setup_items, initial_state=initial_state,
    reducers=REDUCERS, describe=describe, score_cli=score_cli, steps=steps, result=result,
    independent=frozenset({"score"}), progress=progress, guide=guide, kind=kind, moves=moves,
    order=1000,
)
