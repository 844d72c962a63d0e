"""The screens every game shares: the setup checklist, the rules browser, the game's history, the
score tracks with their corrections, and the result."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flet as ft

from .. import rulesearch, texts
from . import history
from . import teach as teach_ui
from .frame import Frame
from .widgets import (ACCENT, SMALL, TEXT, Screen, Keypad, bar_button, button, card, choice_chips, heading, text,
                      tid, title)


class GameScreens(Frame):
    """The Shell's screens common to every game."""

    # -- setup checklist ------------------------------------------------------------------------------

    def setup(self) -> Screen:
        _, vm = self.vm.t, self.vm
        ngettext = vm.t.n
        items = vm.game.setup_items(vm.game_session["config"])
        ticks = set(vm.game_state["ticks"])
        done = sum(1 for i in items if i["id"] in ticks)
        controls: list[ft.Control] = [
            tid("setup-progress", text(ngettext("{done} of {n} item ticked", "{done} of {n} items ticked", len(items))
                                       .format(done=done, n=len(items)))),
            ft.ProgressBar(value=done / len(items) if items else 1, bar_height=8, color=ACCENT),
        ]
        for item in items:
            key = f"{vm.game_session['game']}.setup.{item['id']}"
            params = {k: vm.t.text(v.key) if hasattr(v, "key") else v for k, v in item["params"].items()}
            label = vm.t.text(key).format(**params)
            checked = item["id"] in ticks
            controls.append(tid(f"tick-{item['id']}", ft.Container(
                ft.Row([ft.Icon(ft.Icons.CHECK_BOX if checked else ft.Icons.CHECK_BOX_OUTLINE_BLANK,
                                color=ACCENT if checked else None, size=30),
                        ft.Container(ft.Column([ft.Text(label, size=TEXT, color=ft.Colors.GREY_500 if checked else None),
                                                *([why] if (why := teach_ui.setup_line(self, item["id"])) else [])],
                                               spacing=2, tight=True),
                                     expand=True)], vertical_alignment=ft.CrossAxisAlignment.CENTER),
                padding=ft.Padding.symmetric(vertical=10, horizontal=4), border_radius=8,
                on_click=lambda e, i=item["id"], c=checked: vm.dispatch("tick", item=i, done=not c))))
        controls += [self.problem(), *self.footer()]
        start = self.ui.start_label
        label = start(self) if start else _("Start round 1")
        if done < len(items):  # how far the setup is, short enough for half the bar at 360 px in Czech too
            label = _("{start} ({done}/{total} set up)").format(start=label, done=done, total=len(items))
        return Screen(controls, bar_button(label, lambda e: vm.dispatch("begin"), "begin", icon=ft.Icons.PLAY_ARROW))

    # -- rules browser ------------------------------------------------------------------------------

    def rules(self) -> Screen:
        _, vm = self.vm.t, self.vm
        game = vm.game_session["game"]

        # as the players type: a search takes a few ms (tests/test_rulesearch.py)
        def search(e: ft.Event[ft.TextField]) -> None:
            if (e.control.value or "") != self.query:
                self.query = e.control.value or ""
                self.render()

        controls: list[ft.Control] = [
            title(_("Rules")),
            tid("rules-search", ft.Row([ft.TextField(label=_("Search the rules"), value=self.query, on_change=search,
                                                     on_submit=search,
                                                     prefix_icon=ft.Icons.SEARCH, text_size=TEXT, expand=True)])),
        ]
        sections = [(s, vm.t.text(f"{game}.rule.{s}.title"), vm.t.text(f"{game}.rule.{s}.body"))
                    for s in vm.store.sections.get(game, [])]
        found = rulesearch.search(self.query, sections, texts.aliases(game))
        for i, hit in enumerate(found):  # the best first, opened; the others folded below it
            controls.append(tid(f"rule-{hit.key}", ft.ExpansionTile(
                title=_marked(hit.title, hit.title_spans, size=TEXT, weight=ft.FontWeight.W_500),
                expanded=bool(self.query.strip()) and i == 0, min_tile_height=56,
                controls=[ft.Container(_marked(hit.body, hit.body_spans, size=TEXT, selectable=True), padding=12)])))
        if not found:
            controls.append(text(_("No rule mentions “{query}”.").format(query=self.query)))
        return Screen(controls, self.back())

    # -- history ------------------------------------------------------------------------------------

    def log(self) -> Screen:
        _ = self.vm.t
        lines = self.vm.history()
        controls: list[ft.Control] = [title(_("History"))]
        if not lines:
            controls.append(text(_("Nothing has happened yet.")))
        for i, line in enumerate(lines):
            controls.append(text(f"{len(lines) - i}. {line}", SMALL))
        return Screen(controls, self.back())

    # -- score tracks and corrections ------------------------------------------------------------------

    def score_screen(self) -> Screen:
        """The top bar's scores button: the score tracks, or the game's own ledgers."""
        custom = self.ui.scores_screen
        return Screen(custom(self) if custom else self.scores(), self.back())

    def scores(self) -> list[ft.Control]:
        _, vm = self.vm.t, self.vm
        ngettext = vm.t.n
        scores = vm.game_state["scores"]
        tracks = sorted(scores, key=lambda t: -scores[t])
        draft = self.draft.setdefault("correct", {"track": tracks[0], "points": 0, "reason": ""})
        controls: list[ft.Control] = [title(_("Score tracks"))]
        for track in tracks:
            controls.append(tid(f"score-{track}", ft.Row([
                ft.Container(self.track_label(track), expand=True),
                ft.Text(ngettext("{n} point", "{n} points", scores[track]).format(n=scores[track]), size=20,
                        weight=ft.FontWeight.BOLD)])))
        for c in vm.game_state.get("corrections", []):
            controls.append(text(_("Correction {points:+d}: {reason}").format(points=c["points"], reason=c["reason"]),
                                 SMALL, color=ft.Colors.GREY_400))
        controls.append(card([
            heading(_("Correct a score")),
            choice_chips("correct-track", [(t, self.track_label(t)) for t in tracks], draft["track"],
                         lambda t: (draft.update(track=t), self.render())),
            *self.correction_fields(draft, _("Points (+ or −)"), 99),
            button(_("Save the correction"), lambda e: self.correct(draft), "correct-save"),
        ]))
        return controls

    def correction_fields(self, draft: dict[str, Any], label: str, most: int) -> list[ft.Control]:
        """A correction's amount on the keypad (with its sign) and its reason: a chip for the usual
        ones, or typed."""
        _ = self.vm.t
        reason = ft.TextField(label=_("Reason"), value=draft["reason"], text_size=TEXT, expand=True,
                              on_change=lambda e: draft.update(reason=e.control.value),
                              error=self.vm.error_for("reason"))
        usual = [_("Forgotten"), _("Counted wrong"), _("Entered wrong")]
        return [Keypad("correct-points", label, draft, "points", -most, most, sign=True,
                       quick=[("−5", -5), ("−1", -1), ("+1", 1), ("+5", 5), ("+10", 10)]).control,
                self.problem("points"),
                choice_chips("correct-why", [(str(i), r) for i, r in enumerate(usual)],
                             next((str(i) for i, r in enumerate(usual) if r == draft["reason"]), None),
                             lambda i: (draft.update(reason=usual[int(i)]), self.render())),
                tid("correct-reason", ft.Row([reason]))]

    def correct(self, draft: dict[str, Any]) -> None:
        if self.vm.dispatch("correct", track=draft["track"], points=draft["points"], reason=draft["reason"]):
            self.draft.pop("correct", None)
            self.vm.go("scores")

    # -- result ---------------------------------------------------------------------------------------

    def result(self) -> Screen:
        _, vm = self.vm.t, self.vm
        result = vm.game.result(vm.game_state, vm.game_session["config"])
        controls: list[ft.Control] = [title(_("Final scoring")), *self.result_cards(result),
                                      history.category_chart(self, result), history.progress_chart(self)]
        controls.append(heading(_("Why these scores?")))
        for line in result["explain"]:
            controls.append(text(vm.msg(line), SMALL))
        controls += self.footer()
        return Screen(controls, bar_button(_("Back to the home screen"), lambda e: self.home_clicked(), "done",
                                           icon=ft.Icons.HOME))

    def result_cards(self, result: dict[str, Any]) -> list[ft.Control]:
        """Who won, then each player's total and its breakdown, best first."""
        _, vm = self.vm.t, self.vm
        ngettext = vm.t.n
        names = {p["colour"]: p["name"] for p in vm.game_session["config"]["players"]}
        winners = [names.get(w, w) for w in result["winners"]]
        headline = (_("{name} wins!").format(name=winners[0]) if len(winners) == 1
                    else _("Shared victory: {names}").format(names=", ".join(winners)))
        controls: list[ft.Control] = [card([ft.Text(headline, size=26, weight=ft.FontWeight.BOLD, color=ACCENT)],
                                           "winner", highlight=True)]
        for row in sorted(result["players"], key=lambda r: r["place"]):
            lines = [ft.Row([ft.Text(f"{row['place']}.", size=22, weight=ft.FontWeight.BOLD),
                             ft.Container(self.track_label(row["id"]), expand=True),
                             ft.Text(ngettext("{n} point", "{n} points", row["total"]).format(n=row["total"]),
                                     size=22, weight=ft.FontWeight.BOLD)])]
            for category, points in row["breakdown"].items():
                lines.append(ft.Row([ft.Container(text(self.ui.category(self, category), SMALL), expand=True),
                                     text(str(points), SMALL)]))
            controls.append(card(lines, f"result-{row['id']}"))
        return controls


def _marked(value: str, spans: Sequence[tuple[int, int]], **style: Any) -> ft.Text:
    """A rule text with the search matches highlighted."""
    if not spans:
        return ft.Text(value, **style)
    mark = ft.TextStyle(bgcolor=ACCENT, color=ft.Colors.BLACK)
    return ft.Text(spans=[ft.TextSpan(piece, mark if hit else None) for piece, hit in rulesearch.pieces(value, spans)],
                   **style)
