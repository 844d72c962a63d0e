"""Export and import of the stored games (`companion export`, `companion import`).

JSON export: `{"format": {"name": "companion", "version": 1}, "sheets": [...], "games": [...]}`: the
device's score sheets ("Our sheets"), and each game with its id, game (its name on the command line,
`flanders-1302`, as `companion score` and the CSV spell it; an import also takes the module's
spelling, `flanders_1302`), creation time, status, configuration, whole action log and, when
finished, its final result (places, totals, breakdown, winners) and details (play time, place, note).

CSV export: one row per player per game, UTF-8 with a byte order mark (so that Excel reads the
accents), dates as ISO 8601 (`2025-03-14 20:05`, local time), and a column per scoring category of
every game exported. "CSV for Excel (Czech)" is the same with `;` between the cells and decimal
commas, as a Czech Excel or LibreOffice opens it with a double click.

An import is checked completely before anything is written (`check_json` needs no store): the
format, every field's type and range (a creation time between 1970 and 2100; no NaN or Infinity,
which JSON does not allow; no lone surrogate, which no file can hold), every game's configuration
(the game's own new-game check) and every log (replayed by the engine). A file that fails any check
changes nothing. Games already stored (the same game, configuration and log) are skipped, so
importing the same export twice does not duplicate them.

A BG Stats export (companion/bgstats.py) is recognised by its lists of plays and players: its plays
become finished games marked as imported (no log; the result its file gave), a play already stored
(the same uuid) is skipped, and a file that fails any check changes nothing. `export_bgstats` writes
the finished games as BG Stats reads them. The JSON export keeps an imported game with its mark and
result, and takes it back as such.

A CSV cell that a spreadsheet would take for a formula (a name starting with `=`, `+`, `-` or
`@`) is written with a `'` in front, so it stays text.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import time
from typing import Any
from collections.abc import Mapping

from . import bgstats, history, texts
from . import store as store_limits
from .engine import flow
from .engine.model import InvalidAction, Msg, N_
from .games import GAME_IDS, GAMES, cli_name
from .store import CANNOT_REPLAY, SessionLost, Store, details_fault, is_time, sheet_fault

FORMAT = {"name": "companion", "version": 1}
#: Each game's name in every export (its name on the command line); an import takes either spelling.
EXPORT_NAME = {game_id: cli_name(game_id) for game_id in GAME_IDS}
IMPORT_NAME = {**{game_id: game_id for game_id in GAME_IDS}, **{cli_name(game_id): game_id for game_id in GAME_IDS}}

MAX_BYTES = 50_000_000            # a file larger than this is not an export of ours
MAX_GAMES = 100_000
MAX_ACTIONS = 20_000              # per game
CSV_FIELDS = ("game_id", "game", "title", "date", "status", "minutes", "location", "note", "colour", "name", "total",
              "place", "winner")
BOM = "\ufeff"
#: A game's teach mode as its configuration keeps it (companion/ui/viewmodel.py, `teach_mode`).
TEACH_MODES = ("open", "folded")


class ImportRefused(Exception):
    """The file is not an export this program can take back; nothing was changed. `msg` says why, in
    any language (str() is English)."""

    def __init__(self, msg: Msg):
        super().__init__(msg.english())
        self.msg = msg


def _games(store: Store) -> list[dict[str, Any]]:
    out = []
    for entry in sorted(store.sessions(), key=lambda e: (e["created"], e["id"])):
        if entry.get("imported"):  # from BG Stats: no log, the result its file gave
            if entry.get("result"):
                out.append({"id": entry["id"], "game": EXPORT_NAME[entry["game"]], "created": entry["created"],
                            "status": "finished", "config": _imported_config(store, entry), "log": [],
                            "imported": entry["imported"],
                            "result": {"players": [{"id": r["colour"], "total": r["total"], "place": r["place"],
                                                    "breakdown": r["breakdown"]} for r in entry["result"]["players"]],
                                       "winners": entry["result"]["winners"]},
                            **({"details": entry["details"]} if entry.get("details") else {})})
            continue
        try:
            session = store.load(entry["id"])
            game = GAMES[session["game"]]
            state = flow.replay(game, session["config"], session["log"])
        except (SessionLost, *CANNOT_REPLAY):
            continue
        item = {"id": entry["id"], "game": EXPORT_NAME[session["game"]], "created": entry["created"],
                "status": entry["status"], "config": session["config"],
                "log": [{"type": a["type"], "args": a.get("args", {}), **({"at": a["at"]} if "at" in a else {})}
                        for a in session["log"]]}
        if state.get("phase") == "over":
            result = game.result(state, session["config"])
            item["result"] = {"players": result["players"], "winners": result["winners"]}
            if entry.get("details"):
                item["details"] = entry["details"]
        out.append(item)
    return out


def export_json(store: Store) -> str:
    return json.dumps({"format": FORMAT, "sheets": store.sheets(), "games": _games(store)}, ensure_ascii=False,
                      indent=1)


def export_csv(store: Store, excel_cs: bool = False) -> str:
    """One row per player per game (total, place and winner only for finished games), a column per
    scoring category; with `excel_cs`, `;` between cells and decimal commas. Starts with a BOM."""
    games = _games(store)
    details = {e["id"]: e.get("details") or {} for e in store.sessions("finished")}
    columns: dict[str, None] = {}
    for item in games:
        for row in item.get("result", {}).get("players", []):
            columns.update(dict.fromkeys(k for k in row["breakdown"] if k not in CSV_FIELDS))
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.DictWriter(buffer, fieldnames=[*CSV_FIELDS, *columns], delimiter=";" if excel_cs else ",",
                            lineterminator="\r\n")
    writer.writeheader()
    def number(value: float) -> str:
        return csv_number(value, excel_cs)

    for item in games:
        rows = {r["id"]: r for r in item.get("result", {}).get("players", [])}
        winners = item.get("result", {}).get("winners", [])
        more = details.get(item["id"], {})
        title = item["config"].get("title") or texts.english_title(IMPORT_NAME[item["game"]])
        for player in item["config"]["players"]:
            row = rows.get(player["colour"], {})
            minutes = more.get("minutes")
            if minutes is None and row:
                minutes = history.play_minutes(item["log"])
            writer.writerow({
                "game_id": item["id"], "game": item["game"], "title": _cell(title),
                "date": time.strftime("%Y-%m-%d %H:%M", time.localtime(item["created"])), "status": item["status"],
                "minutes": "" if minutes is None else number(minutes), "location": _cell(more.get("place", "")),
                "note": _cell(more.get("note", "")), "colour": player["colour"], "name": _cell(player["name"]),
                "total": number(row["total"]) if row else "", "place": row.get("place", ""),
                "winner": ("yes" if player["colour"] in winners else "no") if row else "",
                **{k: number(v) for k, v in row.get("breakdown", {}).items() if k in columns}})
    return buffer.getvalue()


def csv_number(value: float, excel_cs: bool) -> str:
    """A number as a spreadsheet of that flavour reads it (Czech: a decimal comma)."""
    return str(value).replace(".", ",") if excel_cs else str(value)


def _cell(text: str) -> str:
    """A text cell a spreadsheet shows as text, never runs as a formula (OWASP's CSV injection advice)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _fingerprint(game: str, config: Any, log: list[dict[str, Any]]) -> str:
    body = json.dumps([game, config, [{"type": a["type"], "args": a.get("args", {})} for a in log]],
                      sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(body.encode()).hexdigest()


def _marks(game: Mapping[str, Any]) -> set[str]:
    """What tells a stored game from another: its BG Stats play's uuid (the one it came with, or the one
    its export gives it), and for a game with a log its game, configuration and log. Two games that
    share a mark are the same game."""
    play = f"{bgstats.SOURCE}:{bgstats.play_uuid(game)}"
    if game.get("imported"):
        return {play}
    return {play, _fingerprint(IMPORT_NAME[game["game"]], game["config"], game["log"])}


def export_bgstats(store: Store) -> str:
    """Every finished game as a BG Stats export (companion/bgstats.py)."""
    entries = store.sessions("finished")
    for entry in entries:
        if not entry.get("result"):  # finished before the history kept summaries
            try:
                session = store.load(entry["id"])
                game = GAMES[session["game"]]
                state = flow.replay(game, session["config"], session["log"])
                entry["result"] = history.summary(game, session["config"], state, session["log"])
            except (SessionLost, *CANNOT_REPLAY):
                continue
    return json.dumps(bgstats.export(entries), ensure_ascii=False, indent=1)


def _imported_config(store: Store, entry: dict[str, Any]) -> dict[str, Any]:
    try:
        config: dict[str, Any] = store.load(entry["id"])["config"]
        return config
    except SessionLost:
        return {"players": entry["players"]}


def _checked_imported(raw: dict[str, Any], where: str) -> dict[str, Any]:
    """A game an export holds as imported from BG Stats: its mark, players, result and details."""
    game_id = IMPORT_NAME[raw["game"]]
    config, mark = raw["config"], raw["imported"]
    result: Any = raw.get("result")  # checked below
    players = config.get("players")
    bad = Msg(N_("{where}: an imported game must have its players, its result and no log"), {"where": where})
    try:
        colours = [p["colour"] for p in players]
        names = {p["colour"]: p["name"] for p in players}
        summary: dict[str, Any] = {"winners": list(result["winners"]),
                   "players": [{"colour": r["id"], "name": names[r["id"]], "total": r["total"], "place": r["place"],
                                "breakdown": r["breakdown"]} for r in result["players"]]}
    except (TypeError, KeyError, AttributeError):
        raise ImportRefused(bad) from None
    if game_id == "score_sheet":
        try:
            if GAMES[game_id].new_config(config)["sheet"] != config.get("sheet"):
                raise ImportRefused(bad)
        except InvalidAction:
            raise ImportRefused(bad) from None
        sheet_kind = GAMES[game_id].kind
        if sheet_kind is None:  # the score sheet names its kind
            raise ImportRefused(bad)
        summary["kind"], summary["title"] = sheet_kind(config)
        if config["sheet"]["lowest"]:
            summary["lowest"] = True
    elif set(config) != {"players"}:
        raise ImportRefused(bad)
    if raw["log"] != [] or raw["status"] != "finished" or not isinstance(mark, dict) \
            or not 1 <= len(players) <= bgstats.MAX_PLAYERS or colours != list(bgstats.COLOURS[:len(players)]) \
            or store_limits.imported_fault({"config": config, "imported": dict(mark, result=summary)}) is not None \
            or not all(isinstance(n, str) and 0 < len(n) <= bgstats.NAME for n in names.values()) \
            or len(json.dumps(config, ensure_ascii=False)) > store_limits.CONFIG_BYTES:
        raise ImportRefused(bad)
    return {"game": game_id, "config": config, "log": [], "status": "finished", "created": raw["created"],
            "result": summary, "imported": {"source": mark["source"], "uuid": mark["uuid"]},
            **({"details": raw["details"]} if raw.get("details") else {})}


def _checked_game(raw: Any, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ImportRefused(Msg(N_("{where} must be an object"), {"where": where}))
    for key in ("game", "config", "log", "status", "created"):
        if key not in raw:
            raise ImportRefused(Msg(N_("{where}: {key} is missing"), {"where": where, "key": key}))
    if not isinstance(raw["game"], str) or raw["game"] not in IMPORT_NAME:
        raise ImportRefused(Msg(N_("{where}: unknown game {game}"),
                                {"where": where, "game": repr(str(raw["game"])[:40])}))
    if "details" in raw and details_fault(raw["details"]) is not None:
        raise ImportRefused(Msg(N_("{where}: {reason}"), {"where": where, "reason": details_fault(raw["details"])}))
    if raw["status"] not in ("active", "finished", "abandoned"):
        raise ImportRefused(Msg(N_("{where}: status must be active, finished or abandoned"), {"where": where}))
    if not is_time(raw["created"]):
        raise ImportRefused(Msg(N_("{where}: created must be a time in seconds between 1970 and 2100"),
                                {"where": where}))
    if not isinstance(raw["config"], dict):
        raise ImportRefused(Msg(N_("{where}: config must be an object"), {"where": where}))
    if "imported" in raw:
        return _checked_imported(raw, where)
    log = raw["log"]
    if not isinstance(log, list) or len(log) > MAX_ACTIONS:
        raise ImportRefused(Msg(N_("{where}: log must be a list of at most {n} actions"),
                                {"where": where, "n": MAX_ACTIONS}))
    game_id = IMPORT_NAME[raw["game"]]
    game = GAMES[game_id]
    try:
        config = game.new_config(raw["config"])
        if raw["config"].get("teach") in TEACH_MODES:  # the new-game form's "Teach us", not its check's
            config["teach"] = raw["config"]["teach"]
        actions = []
        for i, action in enumerate(log):
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise ImportRefused(Msg(N_("{where}: log entry {i} must be an action object"),
                                        {"where": where, "i": i}))
            actions.append({"type": action["type"], "args": action.get("args", {}),
                            **({"at": action["at"]} if is_time(action.get("at")) else {})})
            if len(json.dumps(actions[-1], ensure_ascii=False)) > store_limits.ACTION_BYTES:
                raise ImportRefused(Msg(N_("{where}: log entry {i} is larger than an action can be"),
                                        {"where": where, "i": i}))
        if len(json.dumps(config, ensure_ascii=False)) > store_limits.CONFIG_BYTES:
            raise ImportRefused(Msg(N_("{where}: config is larger than a new game's can be"), {"where": where}))
        state = flow.replay(game, config, actions)
    except InvalidAction as error:
        raise ImportRefused(Msg(N_("{where}: the game cannot be replayed ({reason})"),
                                {"where": where, "reason": error.msg})) from None
    except (TypeError, AttributeError, KeyError, ValueError, IndexError):  # data no screen could send
        raise ImportRefused(Msg(N_("{where}: the game cannot be replayed (it holds data no screen can enter)"),
                                {"where": where})) from None
    finished = state.get("phase") == "over"
    status = "finished" if finished else "abandoned" if raw["status"] == "abandoned" else "active"
    return {"game": game_id, "config": config, "log": actions, "status": status,
            "created": raw["created"], **({"result": history.summary(game, config, state, actions)} if finished else {}),
            **({"details": raw["details"]} if finished and raw.get("details") else {})}


def _no_constant(name: str) -> Any:
    raise ImportRefused(Msg(N_("the file holds {name}, which is not a number JSON allows"), {"name": name}))


def check_json(text: str) -> Checked:
    """The games of an export, each checked and replayed, and its score sheets (nothing is stored);
    ImportRefused naming the first fault."""
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise ImportRefused(Msg(N_("the file is larger than {mb} MB"), {"mb": MAX_BYTES // 1_000_000}))
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ImportRefused(Msg(N_("the file is nested too deeply"))) from None
    except json.JSONDecodeError as error:
        raise ImportRefused(Msg(N_("not valid JSON (truncated?): line {line}, column {column}"),
                                {"line": error.lineno, "column": error.colno})) from None
    except ValueError:  # a number of more than 4,300 digits
        raise ImportRefused(Msg(N_("the file holds a number too long to read"))) from None
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ImportRefused(Msg(N_("the file holds text that is not valid Unicode (a lone surrogate)"))) from None
    except RecursionError:
        raise ImportRefused(Msg(N_("the file is nested too deeply"))) from None
    if bgstats.looks_like(data):
        try:
            return Checked(bgstats.check(data), [])
        except bgstats.Refused as error:
            raise ImportRefused(error.msg) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused(Msg(N_('not a companion export: "format" must be {format}'),
                                {"format": json.dumps(FORMAT)}))
    games, sheets = _checked_games(data)
    return Checked(games, sheets)


class Checked(list[dict[str, Any]]):
    """The checked games of an export (a list, as `store_new` takes it) and its score sheets."""

    def __init__(self, games: list[dict[str, Any]], sheets: list[dict[str, Any]]):
        super().__init__(games)
        self.sheets = sheets


def _checked_sheets(data: dict[str, Any]) -> list[dict[str, Any]]:
    sheets = data.get("sheets", [])
    if not isinstance(sheets, list) or len(sheets) > store_limits.MAX_SHEETS:
        raise ImportRefused(Msg(N_("sheets must be a list of at most {n} score sheets"),
                                {"n": store_limits.MAX_SHEETS}))
    for i, sheet in enumerate(sheets):
        fault = sheet_fault(sheet)
        if fault is not None:
            raise ImportRefused(Msg(N_("{where}: {reason}"), {"where": f"sheets[{i}]", "reason": fault}))
    return sheets


def _checked_games(data: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    games = data.get("games")
    if not isinstance(games, list) or len(games) > MAX_GAMES:
        raise ImportRefused(Msg(N_("games must be a list of at most {n} games"), {"n": MAX_GAMES}))
    try:
        return [_checked_game(raw, f"games[{i}]") for i, raw in enumerate(games)], _checked_sheets(data)
    except RecursionError:
        raise ImportRefused(Msg(N_("the file is nested too deeply"))) from None


def store_new(store: Store, checked: list[dict[str, Any]]) -> tuple[int, int]:
    """Store the checked games that are not stored yet, and the score sheets of the file and of its
    games that this device does not keep yet (more than it can keep: ImportRefused, nothing stored).
    Returns (imported, skipped)."""
    known: set[str] = set()
    for entry in store.sessions():
        try:
            session = store.load(entry["id"])
        except SessionLost:
            continue
        known |= _marks(dict(session, created=entry["created"]))
    new = []
    for item in checked:
        marks = _marks(item)
        if not marks & known:
            known |= marks
            new.append(item)
    kept = {sheet["id"] for sheet in store.sheets()}
    sheets: dict[str, dict[str, Any]] = {}
    for sheet in [*getattr(checked, "sheets", []), *(i["config"]["sheet"] for i in checked if "sheet" in i["config"])]:
        if sheet["id"] and sheet["id"] not in kept:
            sheets.setdefault(sheet["id"], sheet)
    if len(kept) + len(sheets) > store_limits.MAX_SHEETS:
        raise ImportRefused(Msg(N_("this device would keep more than {n} score sheets"),
                                {"n": store_limits.MAX_SHEETS}))
    if new or sheets:
        store.import_sessions(new, sheets.values())
    return len(new), len(checked) - len(new)


def import_json(store: Store, text: str) -> tuple[int, int]:
    """Check the whole file, then store the games not stored yet. Returns (imported, skipped)."""
    return store_new(store, check_json(text))
