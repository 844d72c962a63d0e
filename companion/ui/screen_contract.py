"""The contract between the shell and a game's screens, in one place.

`ShellView` is what a game's screens (`companion/games/<game id>/screens.py` and the modules it is
split into) may use of the tab's Shell: its view-model, its drafts, its common pieces (the footer,
folds, a step's rules, the form problems, the players' seats) and its draw. `GameScreenHooks` is what
the shell asks of a game's screens: three functions every game has, and the optional ones, None
where the shell's own default serves. Each screens module declares its hooks as `SCREENS`; mypy
checks both sides against these types.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import flet as ft

from .widgets import Screen

if TYPE_CHECKING:
    from .viewmodel import ViewModel


class ShellView(Protocol):
    """What a game's screens use of the tab's Shell (companion/ui/shell.py): nothing else."""

    @property
    def vm(self) -> ViewModel:
        """The tab's view-model: the game on screen, its state, the language, dispatch."""

    #: Form entries not yet sent, by form (steppers, text fields): a screen keeps its own here.
    draft: dict[str, Any]

    @property
    def me(self) -> str | None:
        """Table mode: the player this phone belongs to (None: the host's screen, or nobody's phone)."""

    @property
    def join(self) -> str | None:
        """Table mode: the join link (None: one device for the whole table)."""

    def render(self) -> None:
        """Draw the screen anew (after a draft changed)."""

    def game_text(self, key: str) -> str:
        """The game's rule text (data/<game>.toml) in the reader's language."""

    def player_name(self, colour: str) -> str:
        """The name of the player of `colour`."""

    def track_label(self, track: str) -> ft.Control:
        """A score track's label: the game's `track_label`, else the player's name and colour."""

    def problem(self, field: str | None = None) -> ft.Control:
        """The refused entry's message, where the field is (or at the top for a general one)."""

    def send(self, kind: str, draft_key: str, **args: Any) -> None:
        """Dispatch a helper's form; on success its draft is cleared."""

    def footer(self) -> list[ft.Control]:
        """The end of every in-game screen."""

    def fold(self, ident: str, title: str, controls: Sequence[ft.Control], subtitle: str | None = None
             ) -> ft.Control:
        """A fold that stays open while the players enter things in it."""

    def rule_fold(self, key: str, ident: str = "step-card") -> ft.Control:
        """A step's rule text folded to one line, and its reminder."""

    def kept(self, key: str, inputs: tuple[object, ...], build: Callable[[], ft.Control], acts: bool = False
             ) -> ft.Control:
        """The control the last draw drew at `key` from the same `inputs`, else `build()`."""

    def seat_fields(self, form: dict[str, Any], players: list[dict[str, Any]], colours: Sequence[str],
                    colour_name: Callable[[str], str], start_label: str | None = None) -> list[ft.Control]:
        """Every new-game form's players: names and colours, clockwise, then who starts."""

    def correction_fields(self, draft: dict[str, Any], label: str, most: int) -> list[ft.Control]:
        """A correction's amount (with its sign) and its reason."""


@dataclass(frozen=True)
class GameScreenHooks:
    """What the shell asks of a game's screens. The first three every game has; each optional hook
    left None means the shell's default."""

    #: The new-game form (`game_id`: the game it is for): its body and its bottom-bar action.
    new_game_form: Callable[[ShellView, str], Screen]
    #: The screen of a game being played (the shell's "round" route).
    round_screen: Callable[[ShellView], Screen]
    #: A scoring category's name, for the result's breakdown and the history's charts.
    category: Callable[[ShellView, str], str]
    #: The final scoring's entry screen (default: none; a game that has a "final" phase needs it).
    final_screen: Callable[[ShellView], Screen] | None = None
    #: The new-game form's title (default: "New game: <the game's title>").
    form_title: Callable[[ShellView, str], str] | None = None
    #: The setup's begin button (default: "Start round 1").
    start_label: Callable[[ShellView], str] | None = None
    #: The top bar's scores screen's body (default: the score tracks with their corrections).
    scores_screen: Callable[[ShellView], list[ft.Control]] | None = None
    #: The name of the player who acts, in the header (default: the player's name).
    player_label: Callable[[ShellView, str], str] | None = None
    #: A score track's label (default: the player's name and colour).
    track_label: Callable[[ShellView, str], ft.Control] | None = None


def game_ui(game_id: str) -> GameScreenHooks:
    """A game's own screens: the `SCREENS` its folder's `screens.py` declares (the module is imported
    once, on the first screen of a game of that id)."""
    hooks = importlib.import_module(f"companion.games.{game_id}.screens").SCREENS
    if not isinstance(hooks, GameScreenHooks):
        raise TypeError(f"companion.games.{game_id}.screens.SCREENS is not a GameScreenHooks")
    return hooks
