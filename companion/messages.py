"""Translatable messages, and the refusal that carries one (`InvalidAction`): what every layer says to
the players, in English msgids that each reader's language renders (companion/i18n.py). Pure Python,
below everything: the rules engine, the storage and the screens all speak in these.

The annotations are evaluated (no `from __future__ import annotations`): NamedTuple would otherwise
compile each string annotation, which `companion score` pays for at its start (tests/test_purity.py).
"""

from typing import Any, NamedTuple
from collections.abc import Callable, Mapping, Sequence


def N_(text: str) -> str:
    """Mark a UI string for extraction into the gettext catalogue; translated when shown."""
    return text


def P_(singular: str, plural: str, n: int, **params: Any) -> "Msg":
    """A message whose wording depends on the count `n` (Czech: 1 bod, 2 body, 5 bodů).

    Extracted as a plural entry (keyword `P_:1,2`); `n` is also available as `{n}`.
    """
    return Msg(singular, {"n": n, **params}, plural=plural, n=n)


def listed(names: Sequence[Any]) -> Any:
    """Names (or Refs, or Msgs) listed as the reader says them: "Anna", "Anna and Bořek", "Anna, Bořek
    and Cyril" (Czech "Anna a Bořek"): one name as it is, more as a message."""
    if len(names) < 2:
        return names[0] if names else ""
    some = Msg(", ".join("{n%d}" % i for i in range(len(names) - 1)), {f"n{i}": n for i, n in enumerate(names[:-1])})
    return Msg(N_("{some} and {last}"), {"some": some, "last": names[-1]})


class Ref(NamedTuple):
    """A parameter that names a rule-text key (a city, a guild): resolved in the reader's language."""

    key: str


class Msg(NamedTuple):
    """A translatable message: an English msgid, optional plural form and count, named parameters."""

    text: str
    params: Mapping[str, Any] = {}  # never changed: a Msg is immutable
    plural: str | None = None
    n: int | None = None

    def english(self, resolve: Callable[[str], str] | None = None) -> str:
        """The message in English without the catalogue (the `score` command, logs, tests)."""
        return render(self, lambda s: s, lambda s, p, n: s if n == 1 else p, resolve or (lambda key: key))


def _params(params: Mapping[str, Any], resolve: Callable[[str], str]) -> dict[str, Any]:
    return {k: resolve(v.key) if isinstance(v, Ref) else v for k, v in params.items()}


def render(msg: Msg, gettext: Callable[..., Any], ngettext: Callable[..., Any], resolve: Callable[[str], str]) -> str:
    """A message in the reader's language (gettext functions of that language, text resolver)."""
    text: str = gettext(msg.text) if msg.plural is None else ngettext(msg.text, msg.plural, msg.n)
    params = {k: render(v, gettext, ngettext, resolve) if isinstance(v, Msg) else v
              for k, v in msg.params.items()}
    return text.format(**_params(params, resolve))


class InvalidAction(Exception):
    """An action the rules do not allow: raised before anything changes.

    `field` names the input the message is about, so the UI can show it next to that field.
    """

    def __init__(self, msg: Msg, field: str | None = None):
        super().__init__(msg.english())
        self.msg = msg
        self.field = field
