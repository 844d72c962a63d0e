"""Looking back: the history of finished games (each opens read-only, with its charts, its details and
its whole log), players and statistics filtered by period and game, and export / backup downloads.
Charts are drawn with Flet's own controls (bars and a canvas): flet-charts needs its Flutter part
built into the web client, which the prebuilt offline client does not have."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .frame import Frame


import flet as ft

from .. import history as looking_back
from .widgets import (ACCENT, GUILD_COLOURS, SMALL, TEXT, Keypad, button, card, choice_chips, dot,
                      heading, text, tid, title, who)

PAGE = 30  # finished games listed per "show more"
#: Category colours of the per-category chart: greys of clearly different lightness, none near the
#: players' colours (all saturated) or the grey player (GREY_500, #9E9E9E); each segment also carries
#: its category's number, which the legend names.
PALETTE = ("#F2F2F2", "#C8C8C8", "#6E6E6E", "#4A4A4A", "#E0E0E0", "#5C5C5C")
LINE_COLOURS = {**GUILD_COLOURS, "black": ft.Colors.GREY_200, "white": ft.Colors.WHITE}
FALLBACK_LINES = (ft.Colors.CYAN_300, ft.Colors.LIME_300, ft.Colors.PINK_300, ft.Colors.INDIGO_200, ft.Colors.BROWN_200,
                  ft.Colors.DEEP_ORANGE_300)
CHART_W, CHART_H = 300, 170
#: Head-to-head pairs listed (the most games together first).
PAIRS = 30


def game_title(shell: Frame, game_id: str, title_: str | None = None) -> str:
    return shell.vm.title(game_id, title_)


def day(shell: Frame, when: float) -> str:
    return shell.vm.t.when(when)


def filters(shell: Frame, kinds: list[dict[str, Any]]) -> tuple[ft.Control, str, str | None]:
    """The period and game filter (kept on this screen's draft), and the choice made."""
    _ = shell.vm.t
    chosen = shell.draft.setdefault("filter", {"period": "all", "game": None})
    if chosen["game"] not in {k["key"] for k in kinds}:
        chosen["game"] = None

    def pick(**change: Any) -> None:
        chosen.update(change)
        shell.draft.get("history", {}).update(limit=PAGE)
        shell.render()

    labels = {"month": _("This month"), "year": _("This year"), "all": _("All time")}
    control = tid("filters", ft.Column([
        choice_chips("period", [(p, labels[p]) for p in looking_back.PERIODS], chosen["period"],
                     lambda v: pick(period=v)),
        *([choice_chips("game", [("-", _("All games")), *[(str(i), game_title(shell, k["game"], k["title"]))
                                                         for i, k in enumerate(kinds)]],
                        "-" if chosen["game"] is None else str([k["key"] for k in kinds].index(chosen["game"])),
                        lambda v: pick(game=None if v == "-" else kinds[int(v)]["key"]))] if len(kinds) > 1 else []),
    ], spacing=8))
    return control, chosen["period"], chosen["game"]


def more(shell: Frame, entry: Mapping[str, Any]) -> str:
    """A finished game's play time, place and note in one line ("" when there is nothing to say)."""
    ngettext = shell.vm.t.n
    details = entry.get("details") or {}
    minutes = looking_back.minutes(entry)
    parts = [ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes)] if minutes is not None else []
    parts += [details[k] for k in ("place", "note") if details.get(k)]
    return " · ".join(parts)


def history_screen(shell: Frame) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    every = vm.finished()
    bar, period, game = filters(shell, looking_back.kinds(every))
    entries = looking_back.chosen(every, period, game)
    limit = shell.draft.setdefault("history", {"limit": PAGE})["limit"]
    # the games first; export, import and backup fold away behind one line (a phone's whole screen)
    controls: list[ft.Control] = [title(_("Finished games")), bar,
                                  shell.fold("files", _("Export, import and backup"), [downloads(shell)])]
    if not entries:
        controls.append(text(_("No game has been finished yet.") if not every else
                             _("No game was finished in this period.")))
    for entry in entries[:limit]:
        result = entry["result"]
        names = {p["colour"]: p["name"] for p in result["players"]}
        when = vm.t.when(entry["created"], clock=True)
        ranking = ", ".join(f"{p['name']} {p['total']}" for p in sorted(result["players"], key=lambda p: p["place"]))
        line = more(shell, entry)
        controls.append(card([
            ft.Row([ft.Container(text(game_title(shell, entry["game"], result.get("title")),
                                      weight=ft.FontWeight.BOLD), expand=True),
                    text(when, SMALL, color=ft.Colors.GREY_400)]),
            text(_("Won by {names}").format(names=", ".join(names[w] for w in result["winners"])), SMALL,
                 color=ACCENT),
            text(ranking, SMALL),
            *([tid(f"more-{entry['id']}", text(line, SMALL, color=ft.Colors.GREY_400))] if line else []),
            button(_("Open"), lambda e, sid=entry["id"]: vm.view(sid), f"open-{entry['id']}", primary=False,
                   icon=ft.Icons.HISTORY),
        ], f"past-{entry['id']}"))
    if len(entries) > limit:
        controls.append(button(_("Show more ({n} left)").format(n=len(entries) - limit),
                               lambda e: (shell.draft["history"].update(limit=limit + PAGE), shell.render()),
                               "history-more", primary=False))
    return controls + abandoned(shell)


def abandoned(shell: Frame) -> list[ft.Control]:
    """The games let go unfinished: listed, marked abandoned (the statistics never count them); each
    can be deleted, asked first, with an undo until the next screen."""
    _, vm = shell.vm.t, shell.vm
    entries = vm.abandoned()
    controls: list[ft.Control] = [shell.deleted_card(vm.deletion)] if vm.deletion else []
    if entries:
        controls.append(heading(_("Abandoned games")))
    for entry in entries:
        sid = entry["id"]
        rows: list[ft.Control] = [
            ft.Row([ft.Container(text(game_title(shell, entry["game"], entry.get("title")), weight=ft.FontWeight.BOLD),
                                 expand=True),
                    text(vm.t.when(entry["created"], clock=True), SMALL, color=ft.Colors.GREY_400)]),
            text(", ".join(p["name"] for p in entry["players"]), SMALL),
            tid(f"abandoned-{sid}", text(_("Abandoned, not finished"), SMALL, color=ft.Colors.ORANGE_200))]
        if shell.draft.get("delete") != sid:
            rows.append(button(_("Take it up again"), lambda e, sid=sid: vm.take_up(sid), f"take-up-{sid}",
                               primary=False, icon=ft.Icons.PLAY_ARROW))
        rows += shell.delete_controls(sid)
        controls.append(card(rows, f"past-{sid}"))
    return controls


def damaged(shell: Frame) -> ft.Control:
    """What can be done with the game found damaged (`vm.damaged`; the message above says what is wrong):
    save its file (the server's /download/game-<id>.json; with no server, the browser saves it) and
    delete it."""
    _, vm = shell.vm.t, shell.vm
    sid = vm.damaged

    async def download() -> None:
        await ft.UrlLauncher().launch_url(f"/download/game-{sid}.json", web_only_window_name="_self")

    async def save() -> None:
        made = vm.damaged_file()
        if made:
            await ft.FilePicker().save_file(file_name=made[0], src_bytes=made[1])
    return card([ft.Row([
        tid("damaged-file", ft.OutlinedButton(_("Save its file"), icon=ft.Icons.DOWNLOAD, height=52,
                                              on_click=lambda e: shell.page.run_task(save if vm.browser else download))),
        tid("damaged-delete", ft.OutlinedButton(_("Delete the game"), icon=ft.Icons.DELETE_OUTLINE, height=52,
                                                on_click=lambda e: vm.delete_damaged())),
    ], wrap=True)], f"damaged-{sid}")


def downloads(shell: Frame) -> ft.Control:
    """Export and backup (files the browser downloads), import and restore (files the phone picks):
    the same as `companion export`, `backup`, `import` and `restore`. With no server (the phone
    alone, `vm.browser`), the files are made here and the browser saves them."""
    _, vm = shell.vm.t, shell.vm

    async def download(name: str) -> None:  # the answer is an attachment: the page stays where it is
        await ft.UrlLauncher().launch_url(f"/download/{name}", web_only_window_name="_self")

    async def save(name: str) -> None:
        made = vm.export_file(name)
        if made:
            await ft.FilePicker().save_file(file_name=made[0], src_bytes=made[1])

    def fetch(name: str) -> None:
        shell.page.run_task(save if vm.browser else download, name)

    async def upload(kind: str) -> None:
        files = await ft.FilePicker().pick_files(with_data=True, file_type=ft.FilePickerFileType.CUSTOM,
                                                 allowed_extensions=[kind])
        if files and files[0].bytes is not None:
            (vm.import_games if kind == "json" else vm.restore_backup)(files[0].bytes)
    return card([  # its title is the fold's
        text(_("Keep your games in other tools (CSV, JSON), or save everything to restore later."), SMALL),
        *([text(_("The games are kept in this browser on this phone: clearing the browser's data for this site "
                  "deletes them. Save a backup now and then; these files also move games to another device."),
                SMALL, color=ft.Colors.ORANGE_200)] if vm.browser else []),
        ft.Row([tid("export-csv", ft.OutlinedButton("CSV", on_click=lambda e: fetch("games.csv"), height=52)),
                tid("export-csv-cs", ft.OutlinedButton(_("CSV for Excel (Czech)"),
                                                       on_click=lambda e: fetch("games-excel-cs.csv"), height=52)),
                tid("export-json", ft.OutlinedButton("JSON", on_click=lambda e: fetch("games.json"), height=52)),
                tid("export-bgstats", ft.OutlinedButton("BG Stats", on_click=lambda e: fetch("bgstats.json"),
                                                        height=52)),
                tid("backup", ft.OutlinedButton(_("Backup"), on_click=lambda e: fetch("backup.zip"), height=52))],
               wrap=True),
        text(_("Import adds the games of a JSON export or of a BG Stats export; restore replaces everything with "
               "a backup, so save a backup of what is here first.") if vm.browser else
             _("Import adds the games of a JSON export or of a BG Stats export; restore replaces everything with a "
               "backup (what was here is kept aside in the data folder)."), SMALL, color=ft.Colors.GREY_400),
        ft.Row([tid("import-json", ft.OutlinedButton(_("Import games"), icon=ft.Icons.UPLOAD_FILE, height=52,
                                                     on_click=lambda e: shell.page.run_task(upload, "json"))),
                tid("restore", ft.OutlinedButton(_("Restore a backup"), icon=ft.Icons.RESTORE, height=52,
                                                 on_click=lambda e: shell.page.run_task(upload, "zip")))], wrap=True),
        *([tid("file-notice", text(vm.notice, SMALL, color=ACCENT))] if vm.notice else []),
        shell.problem(),
    ], "downloads")


def archive_screen(shell: Frame) -> list[ft.Control]:
    """A finished game, read-only: who won, the breakdown and its chart, the progression, its play
    time, place and note (which can be changed), the log."""
    _, vm = shell.vm.t, shell.vm
    config = vm.game_session["config"]
    if vm.game_session.get("imported"):
        return imported_screen(shell)
    result = vm.game.result(vm.game_state, config)
    ended = vm.game_session["log"][-1].get("at") if vm.game_session["log"] else None  # an imported log has no times
    when = vm.t.when(ended, clock=True) if ended else ""
    controls: list[ft.Control] = [
        title(game_title(shell, vm.game_session["game"], config.get("title"))),
        text(when, SMALL, color=ft.Colors.GREY_400),
        button(_("Back to the history"), lambda e: (vm.home(), vm.go("history")), "back-history", primary=False,
               icon=ft.Icons.ARROW_BACK),
        *shell.result_cards(result),
        details_card(shell),
        category_chart(shell, result),
        progress_chart(shell),
        heading(_("What happened")),
    ]
    lines = vm.history()
    controls += [text(f"{len(lines) - i}. {line}", SMALL) for i, line in enumerate(lines)]
    return controls


def imported_screen(shell: Frame) -> list[ft.Control]:
    """A finished game imported from BG Stats: its result as the file gave it and its details (no log)."""
    _, vm = shell.vm.t, shell.vm
    ngettext = vm.t.n
    result = vm.game_session["imported"]["result"]
    names = {r["colour"]: r["name"] for r in result["players"]}
    rows = [card([ft.Row([text(f"{r['place']}.", weight=ft.FontWeight.BOLD),
                          ft.Container(who(r["name"], r["colour"]), expand=True),
                          text(ngettext("{n} point", "{n} points", r["total"]).format(n=r["total"]),
                               weight=ft.FontWeight.BOLD)])], f"result-{r['colour']}")
            for r in sorted(result["players"], key=lambda r: r["place"])]
    return [title(game_title(shell, vm.game_session["game"], vm.game_session["config"].get("title"))),
            button(_("Back to the history"), lambda e: (vm.home(), vm.go("history")), "back-history", primary=False,
                   icon=ft.Icons.ARROW_BACK),
            tid("imported-note", text(_("Imported from BG Stats: only the scores were recorded, so there is no "
                                        "move log."), SMALL, color=ft.Colors.GREY_400)),
            *([card([text(_("Won by {names}").format(names=", ".join(names[w] for w in result["winners"])),
                          weight=ft.FontWeight.BOLD, color=ACCENT)], "winner", highlight=True)]
              if result["winners"] else []),
            *rows, details_card(shell)]


def details_card(shell: Frame) -> ft.Control:
    """The play time (first to last action unless corrected), where the game was played and a note."""
    _, vm = shell.vm.t, shell.vm
    sid = vm.game_session["id"]
    draft = shell.draft.get("details")
    if draft is None or draft["sid"] != sid:
        saved = vm.details(sid)
        played = saved["minutes"]
        if played is None:
            played = looking_back.play_minutes(vm.game_session["log"])
        draft = shell.draft["details"] = {"sid": sid, "minutes": played or 0, "place": saved["place"],
                                          "note": saved["note"]}
    return card([
        heading(_("Play time, place and note")),
        Keypad("details-minutes", _("Play time (minutes)"), draft, "minutes", 0, 9_999,
               quick=[("30", 30), ("60", 60), ("90", 90), ("120", 120)]).control,
        shell.problem("minutes"),
        tid("details-place", ft.Row([ft.TextField(label=_("Where it was played"), value=draft["place"], expand=True,
                                                  text_size=TEXT, error=vm.error_for("place"),
                                                  on_change=lambda e: draft.update(place=e.control.value))])),
        tid("details-note", ft.Row([ft.TextField(label=_("Note"), value=draft["note"], expand=True, text_size=TEXT,
                                                 multiline=True, error=vm.error_for("note"),
                                                 on_change=lambda e: draft.update(note=e.control.value))])),
        button(_("Save the details"), lambda e: vm.set_details(sid, draft["minutes"], draft["place"], draft["note"]),
               "details-save", icon=ft.Icons.SAVE),
    ], "details")


def category_chart(shell: Frame, result: dict[str, Any]) -> ft.Control:
    """One bar per player, split into the scoring categories: each segment in its category's grey
    with the points it stands for in it (a screen reader hears "Cities: 14"), and a legend that names
    the greys, so no category looks like a player's colour."""
    _ = shell.vm.t
    categories = [c for c in result["players"][0]["breakdown"]
                  if any(row["breakdown"][c] > 0 for row in result["players"])]
    colour = {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(categories)}
    name = {c: shell.ui.category(shell, c) for c in categories}
    best = max((row["total"] for row in result["players"]), default=0) or 1
    rows: list[ft.Control] = [heading(_("Points by category"))]
    for row in sorted(result["players"], key=lambda r: r["place"]):
        parts: list[ft.Control] = [ft.Container(ft.Text(str(points), size=12, weight=ft.FontWeight.BOLD,
                                      color=ft.Colors.BLACK if _light(colour[c]) else ft.Colors.WHITE,
                                      semantics_label=f"{name[c]}: {points}"),
                              bgcolor=colour[c], height=22, expand=points, alignment=ft.Alignment.CENTER,
                              clip_behavior=ft.ClipBehavior.HARD_EDGE)
                 for c in categories if (points := row["breakdown"][c]) > 0]
        if best > row["total"] > 0:
            parts.append(ft.Container(height=22, expand=best - row["total"]))
        rows += [ft.Row([ft.Container(shell.track_label(row["id"]), expand=True), text(str(row["total"]), SMALL)]),
                 ft.Row(parts or [ft.Container(height=22)], spacing=1)]
    rows.append(ft.Row([ft.Row([ft.Container(width=18, height=18, bgcolor=colour[c], border_radius=3),
                                text(name[c], SMALL)], spacing=6, tight=True)
                        for c in categories], wrap=True, spacing=12, run_spacing=6))
    return card(rows, "chart-categories")


def _light(hex_colour: str) -> bool:
    return int(hex_colour[1:3], 16) > 0x90


def progress_chart(shell: Frame) -> ft.Control:
    """Each player's running score through the game, one line each: by rounds where the game has
    rounds (the x-axis names them), else after each change of score."""
    import flet.canvas as cv  # here: at the top it was half of the app's import time in the browser

    _, vm = shell.vm.t, shell.vm
    ngettext = vm.t.n
    progress = vm.progression()
    if not progress:
        return card([heading(_("Score through the game")),
                     text(_("This game scores only at the end, so there is no running score to draw."), SMALL)],
                    "chart-progress")
    series, labels = progress["series"], progress["labels"]
    players = vm.game_session["config"]["players"]
    steps = len(labels)
    top = max(max(s) for s in series.values())
    low = min(0, min(min(s) for s in series.values()))
    span = (top - low) or 1
    axis = ft.Paint(color=ft.Colors.GREY_600, stroke_width=1)
    zero = CHART_H - CHART_H * (0 - low) / span

    def x(k: int) -> float:
        return CHART_W * k / max(steps - 1, 1)

    shapes: list[cv.Shape] = [cv.Line(0, zero, CHART_W, zero, paint=axis), cv.Line(0, 0, 0, CHART_H, paint=axis),
                              cv.Text(4, 0, str(top), style=ft.TextStyle(size=12, color=ft.Colors.GREY_400))]
    if low < 0:
        shapes.append(cv.Text(4, CHART_H - 14, str(low), style=ft.TextStyle(size=12, color=ft.Colors.GREY_400)))
    by_round = progress["by"] == "round"
    if by_round:  # the rounds under the x-axis; the start and the final scoring too
        every = max(1, steps // 10)
        for k, label in enumerate(labels):
            if k % every == 0 or k == steps - 1:
                shown = "0" if label == 0 else _("end") if label == "end" else str(label)
                shapes.append(cv.Text(min(x(k), CHART_W - 24), CHART_H + 4, shown,
                                      style=ft.TextStyle(size=11, color=ft.Colors.GREY_400)))
    legend: list[ft.Control] = []
    for i, p in enumerate(players):
        colour = LINE_COLOURS.get(p["colour"], FALLBACK_LINES[i % len(FALLBACK_LINES)])
        points: list[ft.Offset | tuple[float, float]] = [ft.Offset(x(k), CHART_H - CHART_H * (v - low) / span)
                                                         for k, v in enumerate(series[p["colour"]])]
        shapes.append(cv.Points(points, point_mode=cv.PointMode.POLYGON,
                                paint=ft.Paint(color=colour, stroke_width=3, style=ft.PaintingStyle.STROKE)))
        legend.append(ft.Row([ft.Container(width=18, height=4, bgcolor=colour), text(p["name"], SMALL)],
                             spacing=6, tight=True))
    finals = ", ".join(f"{p['name']} {series[p['colour']][-1]}" for p in players)
    rounds = sum(1 for label in labels if isinstance(label, int) and label > 0)
    caption = (ngettext("By round: {n} round; at the end: {finals}", "By round: {n} rounds; at the end: {finals}", rounds)
               .format(n=rounds, finals=finals) if by_round else
               _("{n} changes of score; at the end: {finals}").format(n=steps - 1, finals=finals))
    return card([heading(_("Score through the game")),
                 ft.Container(cv.Canvas(shapes, width=CHART_W, height=CHART_H + 18), height=CHART_H + 22,
                              alignment=ft.Alignment.CENTER_LEFT),
                 ft.Row(legend, wrap=True, spacing=12),
                 tid("progress-caption", text(caption, SMALL, color=ft.Colors.GREY_400))], "chart-progress")


def stats_screen(shell: Frame) -> list[ft.Control]:
    """Players (win rate, games, last played, per game with its average and best; the average and best
    over all his games only where they are of one game: different units are never averaged), head to
    head, and per game
    (plays, top 10, average winning score and play time, per player count), for a period and a game."""
    _, vm = shell.vm.t, shell.vm
    chosen = shell.draft.get("filter", {"period": "all", "game": None})
    stats = vm.statistics(chosen["period"], chosen["game"])
    bar, period, game = filters(shell, stats["kinds"])
    if (period, game) != (chosen["period"], chosen["game"]):  # the game filtered no longer exists
        stats = vm.statistics(period, game)
    controls: list[ft.Control] = [title(_("Players and statistics")), bar]
    if not stats["games"]:
        return controls + [text(_("No game has been finished yet.") if not stats["kinds"] else
                                _("No game was finished in this period."))]
    titles = {g["game"]: game_title(shell, g["id"], g["title"]) for g in stats["games"]}
    controls.append(heading(_("Players")))
    controls += _player_cards(shell, stats["players"], titles, game)
    if stats["versus"]:
        controls.append(_versus_card(shell, stats["versus"]))
    controls.append(heading(_("Games")))
    controls += [_game_card(shell, g, titles) for g in stats["games"]]
    return controls


def _figures(shell: Frame, row: dict[str, Any]) -> str:
    _ = shell.vm.t
    return _("average {average}, best {best}").format(average=shell.vm.t.number(row["average"]), best=row["best"])


def _games(shell: Frame, n: int) -> str:
    ngettext = shell.vm.t.n
    return ngettext("{n} game", "{n} games", n).format(n=n)


def _player_cards(shell: Frame, players: list[dict[str, Any]], titles: dict[str, Any],
                  game: str | None) -> list[ft.Control]:
    """A card per player: wins, win rate, figures, last played (and, over all games, each game's)."""
    _ = shell.vm.t
    ngettext = shell.vm.t.n
    cards: list[ft.Control] = []
    for i, p in enumerate(players):
        lines = [ft.Row([dot(p["colour"]), ft.Container(text(p["name"], weight=ft.FontWeight.BOLD), expand=True),
                         text(ngettext("{n} win", "{n} wins", p["wins"]).format(n=p["wins"]), SMALL)]),
                 text(_("{games}, win rate {rate} %; {figures}").format(games=_games(shell, p["plays"]),
                                                                        rate=p["rate"], figures=_figures(shell, p))
                      if p["average"] is not None
                      else _("{games}, win rate {rate} %").format(games=_games(shell, p["plays"]), rate=p["rate"]),
                      SMALL),
                 text(_("Last played {date}").format(date=day(shell, p["last"])), SMALL, color=ft.Colors.GREY_400)]
        if game is None:
            lines += [text(_("{game}: {games}, {wins}; {figures}").format(
                game=titles.get(g, g), games=_games(shell, row["plays"]),
                wins=ngettext("{n} win", "{n} wins", row["wins"]).format(n=row["wins"]),
                figures=_figures(shell, row)), SMALL, color=ft.Colors.GREY_400) for g, row in p["games"].items()]
        cards.append(card(lines, f"player-{i}"))
    return cards


def _versus_card(shell: Frame, versus: list[dict[str, Any]]) -> ft.Control:
    """Head to head: how often each of a pair finished ahead of the other."""
    _ = shell.vm.t
    ngettext = shell.vm.t.n
    rows: list[ft.Control] = [heading(_("Head to head")),
            text(_("How often each finished ahead of the other in the games they played together."), SMALL,
                 color=ft.Colors.GREY_400)]
    for k, pair in enumerate(versus[:PAIRS]):
        ties = ngettext("{n} tie", "{n} ties", pair["ties"]).format(n=pair["ties"]) if pair["ties"] else ""
        rows.append(tid(f"versus-{k}", ft.Row([
            ft.Container(text(pair["a"], SMALL, text_align=ft.TextAlign.RIGHT), expand=True),
            text(f"{pair['a_ahead']} : {pair['b_ahead']}", TEXT, weight=ft.FontWeight.BOLD),
            ft.Container(text(pair["b"], SMALL), expand=True),
            text(ties, SMALL, color=ft.Colors.GREY_400)], spacing=8)))
    return card(rows, "versus")


def _game_card(shell: Frame, g: dict[str, Any], titles: dict[str, Any]) -> ft.Control:
    """A game's card: plays, figures, average winning score and play time, per player count, top scores."""
    _ = shell.vm.t
    ngettext, number = shell.vm.t.n, shell.vm.t.number
    lines: list[ft.Control] = [text(titles[g["game"]], weight=ft.FontWeight.BOLD),
             text(ngettext("{n} game played", "{n} games played", g["plays"]).format(n=g["plays"]) + "; "
                  + _figures(shell, g), SMALL)]
    if g["winning"] is not None:
        lines.append(text(_("Average winning score: {n}").format(n=number(g["winning"])), SMALL))
    if g["minutes"] is not None:
        lines.append(text(_("Average play time: {n} min").format(n=number(g["minutes"])), SMALL))
    for row in g["counts"]:
        lines.append(text(ngettext("{n} player", "{n} players", row["players"]).format(n=row["players"]) + ": "
                          + _games(shell, row["plays"]) + "; " + _figures(shell, row), SMALL,
                          color=ft.Colors.GREY_400))
    lines.append(text(_("Lowest scores") if g["lowest"] else _("High scores"), SMALL, weight=ft.FontWeight.BOLD,
                      color=ACCENT))
    lines += [tid(f"top-{g['game']}-{k}", ft.Row([
        text(f"{k + 1}.", SMALL), dot(row["colour"]), ft.Container(text(row["name"], SMALL), expand=True),
        text(str(row["total"]), SMALL, weight=ft.FontWeight.BOLD),
        text(day(shell, row["created"]), SMALL, color=ft.Colors.GREY_400)], spacing=6))
        for k, row in enumerate(g["top"])]
    return card(lines, f"stats-{g['game']}")
