"""Looking back: the history of finished games (each opens read-only, with its charts and whole log),
players and statistics, and export / backup downloads. Charts are drawn with Flet's own controls
(bars and a canvas): flet-charts needs its Flutter part built into the web client, which the
prebuilt offline client does not have."""
from __future__ import annotations

import time

import flet as ft

from .widgets import ACCENT, GUILD_COLOURS, SMALL, button, card, dot, heading, text, tid, title

PAGE = 30  # finished games listed per "show more"
#: Category colours of the per-category chart (a legend names them).
PALETTE = (ft.Colors.AMBER_400, ft.Colors.LIGHT_BLUE_300, ft.Colors.LIGHT_GREEN_400, ft.Colors.PINK_200,
           ft.Colors.DEEP_PURPLE_200, ft.Colors.ORANGE_300, ft.Colors.TEAL_200, ft.Colors.BROWN_300)
LINE_COLOURS = {**GUILD_COLOURS, "black": ft.Colors.GREY_200, "white": ft.Colors.WHITE, "orange": ft.Colors.ORANGE_400}
FALLBACK_LINES = (ft.Colors.CYAN_300, ft.Colors.LIME_300, ft.Colors.PINK_300, ft.Colors.INDIGO_200, ft.Colors.BROWN_200,
                  ft.Colors.DEEP_ORANGE_300)
CHART_W, CHART_H = 320, 170


def game_title(shell, game_id: str) -> str:
    return shell.vm.t.text(f"{game_id}.game.title")


def history_screen(shell) -> list[ft.Control]:
    _, vm = shell.vm.t, shell.vm
    entries = vm.finished()
    limit = shell.draft.setdefault("history", {"limit": PAGE})["limit"]
    controls: list[ft.Control] = [title(_("Finished games")), downloads(shell)]
    if not entries:
        controls.append(text(_("No game has been finished yet.")))
    for entry in entries[:limit]:
        result = entry["result"]
        names = {p["colour"]: p["name"] for p in result["players"]}
        when = time.strftime("%d.%m.%Y %H:%M", time.localtime(entry["created"]))
        ranking = ", ".join(f"{p['name']} {p['total']}" for p in sorted(result["players"], key=lambda p: p["place"]))
        controls.append(card([
            ft.Row([ft.Container(text(game_title(shell, entry["game"]), weight=ft.FontWeight.BOLD), expand=True),
                    text(when, SMALL, color=ft.Colors.GREY_400)]),
            text(_("Won by {names}").format(names=", ".join(names[w] for w in result["winners"])), SMALL,
                 color=ACCENT),
            text(ranking, SMALL),
            button(_("Open"), lambda e, sid=entry["id"]: vm.view(sid), f"open-{entry['id']}", primary=False,
                   icon=ft.Icons.HISTORY),
        ], f"past-{entry['id']}"))
    if len(entries) > limit:
        controls.append(button(_("Show more ({n} left)").format(n=len(entries) - limit),
                               lambda e: (shell.draft["history"].update(limit=limit + PAGE), shell.render()),
                               "history-more", primary=False))
    return controls


def downloads(shell) -> ft.Control:
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
    return card([
        heading(_("Export and backup")),
        text(_("Keep your games in other tools (CSV, JSON), or save everything to restore later."), SMALL),
        *([text(_("The games are kept in this browser on this phone: clearing the browser's data for this site "
                  "deletes them. Save a backup now and then; these files also move games to another device."),
                SMALL, color=ft.Colors.ORANGE_200)] if vm.browser else []),
        ft.Row([tid("export-csv", ft.OutlinedButton("CSV", on_click=lambda e: fetch("games.csv"), height=52)),
                tid("export-json", ft.OutlinedButton("JSON", on_click=lambda e: fetch("games.json"), height=52)),
                tid("backup", ft.OutlinedButton(_("Backup"), on_click=lambda e: fetch("backup.zip"), height=52))],
               wrap=True),
        text(_("Import adds the games of a JSON export; restore replaces everything with a backup, so save a "
               "backup of what is here first.") if vm.browser else
             _("Import adds the games of a JSON export; restore replaces everything with a backup (what was here "
               "is kept aside in the data folder)."), SMALL, color=ft.Colors.GREY_400),
        ft.Row([tid("import-json", ft.OutlinedButton(_("Import games"), icon=ft.Icons.UPLOAD_FILE, height=52,
                                                     on_click=lambda e: shell.page.run_task(upload, "json"))),
                tid("restore", ft.OutlinedButton(_("Restore a backup"), icon=ft.Icons.RESTORE, height=52,
                                                 on_click=lambda e: shell.page.run_task(upload, "zip")))], wrap=True),
        *([tid("file-notice", text(vm.notice, SMALL, color=ACCENT))] if vm.notice else []),
        shell.problem(),
    ], "downloads")


def archive_screen(shell) -> list[ft.Control]:
    """A finished game, read-only: who won, the breakdown and its chart, the progression, the log."""
    _, vm = shell.vm.t, shell.vm
    result = vm.game.result(vm.state, vm.session["config"])
    ended = vm.session["log"][-1].get("at") if vm.session["log"] else None  # an imported log has no times
    when = time.strftime("%d.%m.%Y %H:%M", time.localtime(ended)) if ended else ""
    controls: list[ft.Control] = [
        title(game_title(shell, vm.session["game"])), text(when, SMALL, color=ft.Colors.GREY_400),
        button(_("Back to the history"), lambda e: (vm.home(), vm.go("history")), "back-history", primary=False,
               icon=ft.Icons.ARROW_BACK),
        *shell.result_cards(result),
        category_chart(shell, result),
        progress_chart(shell),
        heading(_("What happened")),
    ]
    lines = vm.history()
    controls += [text(f"{len(lines) - i}. {line}", SMALL) for i, line in enumerate(lines)]
    return controls


def category_chart(shell, result: dict) -> ft.Control:
    """One bar per player, split into the scoring categories (the legend names the colours)."""
    _ = shell.vm.t
    categories = [c for c in result["players"][0]["breakdown"]
                  if any(row["breakdown"][c] > 0 for row in result["players"])]
    colour = {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(categories)}
    best = max((row["total"] for row in result["players"]), default=0) or 1
    rows: list[ft.Control] = [heading(_("Points by category"))]
    for row in sorted(result["players"], key=lambda r: r["place"]):
        parts = [ft.Container(bgcolor=colour[c], height=22, expand=row["breakdown"][c])
                 for c in categories if row["breakdown"][c] > 0]
        if best > row["total"]:
            parts.append(ft.Container(height=22, expand=best - row["total"]))
        rows += [ft.Row([ft.Container(shell.track_label(row["id"]), expand=True), text(str(row["total"]), SMALL)]),
                 ft.Row(parts, spacing=1)]
    rows.append(ft.Row([ft.Row([ft.Container(width=14, height=14, bgcolor=colour[c], border_radius=3),
                                text(shell.ui.category(shell, c), SMALL)], spacing=6, tight=True)
                        for c in categories], wrap=True, spacing=12, run_spacing=6))
    return card(rows, "chart-categories")


def progress_chart(shell) -> ft.Control:
    """Each player's running score through the game, one line each."""
    import flet.canvas as cv  # here: at the top it was half of the app's import time in the browser

    _, vm = shell.vm.t, shell.vm
    series = vm.progression()
    if not series:
        return card([heading(_("Score through the game")),
                     text(_("This game scores only at the end, so there is no running score to draw."), SMALL)],
                    "chart-progress")
    players = vm.session["config"]["players"]
    steps = max(len(s) for s in series.values())
    top = max(max(s) for s in series.values()) or 1
    shapes: list[cv.Shape] = [
        cv.Line(0, CHART_H, CHART_W, CHART_H, paint=ft.Paint(color=ft.Colors.GREY_600, stroke_width=1)),
        cv.Line(0, 0, 0, CHART_H, paint=ft.Paint(color=ft.Colors.GREY_600, stroke_width=1)),
        cv.Text(4, 0, str(top), style=ft.TextStyle(size=12, color=ft.Colors.GREY_400)),
    ]
    legend = []
    for i, p in enumerate(players):
        colour = LINE_COLOURS.get(p["colour"], FALLBACK_LINES[i % len(FALLBACK_LINES)])
        points = [ft.Offset(CHART_W * k / max(steps - 1, 1), CHART_H - CHART_H * v / top)
                  for k, v in enumerate(series[p["colour"]])]
        shapes.append(cv.Points(points, point_mode=cv.PointMode.POLYGON,
                                paint=ft.Paint(color=colour, stroke_width=3, style=ft.PaintingStyle.STROKE)))
        legend.append(ft.Row([ft.Container(width=18, height=4, bgcolor=colour), text(p["name"], SMALL)],
                             spacing=6, tight=True))
    finals = ", ".join(f"{p['name']} {series[p['colour']][-1]}" for p in players)
    return card([heading(_("Score through the game")),
                 ft.Container(cv.Canvas(shapes, width=CHART_W, height=CHART_H), height=CHART_H + 4,
                              alignment=ft.Alignment.CENTER_LEFT),
                 ft.Row(legend, wrap=True, spacing=12),
                 tid("progress-caption", text(_("{n} changes of score; at the end: {finals}").format(
                     n=steps - 1, finals=finals), SMALL, color=ft.Colors.GREY_400))], "chart-progress")


def stats_screen(shell) -> list[ft.Control]:
    """Players across games and statistics per game and per player count."""
    _, vm = shell.vm.t, shell.vm
    ngettext = vm.t.n
    stats = vm.statistics()
    controls: list[ft.Control] = [title(_("Players and statistics"))]
    if not stats["games"]:
        return controls + [text(_("No game has been finished yet."))]

    def figures(row: dict) -> str:
        return _("average {average}, best {best}").format(average=vm.t.number(row["average"]), best=row["best"])

    controls.append(heading(_("Players")))
    for i, p in enumerate(stats["players"]):
        lines = [ft.Row([dot(p["colour"]), ft.Container(text(p["name"], weight=ft.FontWeight.BOLD), expand=True),
                         text(ngettext("{n} win", "{n} wins", p["wins"]).format(n=p["wins"]), SMALL)]),
                 text(ngettext("{n} game", "{n} games", p["plays"]).format(n=p["plays"]) + "; " + figures(p), SMALL)]
        lines += [text(f"{game_title(shell, g)}: " + ngettext("{n} game", "{n} games", row["plays"]).format(
            n=row["plays"]) + ", " + ngettext("{n} win", "{n} wins", row["wins"]).format(n=row["wins"]) + "; "
            + figures(row), SMALL, color=ft.Colors.GREY_400) for g, row in p["games"].items()]
        controls.append(card(lines, f"player-{i}"))
    controls.append(heading(_("Games")))
    for g in stats["games"]:
        lines = [text(game_title(shell, g["game"]), weight=ft.FontWeight.BOLD),
                 text(ngettext("{n} game played", "{n} games played", g["plays"]).format(n=g["plays"]) + "; "
                      + figures(g), SMALL)]
        for row in g["counts"]:
            lines.append(text(ngettext("{n} player", "{n} players", row["players"]).format(n=row["players"]) + ": "
                              + ngettext("{n} game", "{n} games", row["plays"]).format(n=row["plays"]) + "; "
                              + figures(row), SMALL, color=ft.Colors.GREY_400))
        controls.append(card(lines, f"stats-{g['game']}"))
    return controls

