"""UI translations: gettext catalogues compiled from `locales/<lang>/LC_MESSAGES/companion.po`.

English is the source language. The Czech catalogue is compiled in memory at start-up (a few
milliseconds), so no `.mo` file is committed. The browser build (`companion build-web`) ships
the compiled `companion.mo` instead of the `.po` and no Babel: where there is no `.po`, the `.mo`
beside it is loaded. Czech has three plural forms (1 bod, 2–4 body, 0 and 5+ bodů).
"""
from __future__ import annotations

import gettext
import io
from functools import lru_cache
from pathlib import Path

from .engine.model import Msg, render

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "companion"
LANGUAGES = {"cs": "Čeština", "en": "English"}
DEFAULT_LANGUAGE = "cs"


def compile_po(po: Path, lang: str) -> bytes:
    """The `.mo` catalogue compiled from `po` (fuzzy entries left out)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue for `lang` (English: the identity)."""
    folder = LOCALES_DIR / lang / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if lang == "en":
        return gettext.NullTranslations()
    if po.exists():
        return gettext.GNUTranslations(io.BytesIO(compile_po(po, lang)))
    if mo.exists():
        with mo.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    return gettext.NullTranslations()


class Translator:
    """Everything one screen needs to speak one language: UI strings, plurals, rule text."""

    def __init__(self, lang: str, text_lookup):
        self.lang = lang
        self._t = translations(lang)
        self._text = text_lookup

    def __call__(self, message: str) -> str:
        return self._t.gettext(message)

    def n(self, singular: str, plural: str, n: int) -> str:
        return self._t.ngettext(singular, plural, n)

    def text(self, key: str) -> str:
        """A rule text in this language (data/, seeded into TinyDB)."""
        return self._text(key, self.lang)

    def msg(self, msg: Msg) -> str:
        return render(msg, self._t.gettext, self._t.ngettext, self.text)
