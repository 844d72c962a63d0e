"""UI translations: gettext catalogues compiled from `locales/<lang>/LC_MESSAGES/companion.po`.

English is the source language. The Czech catalogue is compiled in memory at start-up (a few
milliseconds), so no `.mo` file is committed. The browser build (`companion build-web`) ships
the compiled `companion.mo` instead of the `.po` and no Babel: where there is no `.po`, the `.mo`
beside it is loaded. Czech has three plural forms (1 bod, 2–4 body, 0 and 5+ bodů).

Czech "z {n}" takes the form the number needs ("ze 4 hráčů", "z 5 hráčů"): a Czech message or rule
text with the preposition right before a placeholder is returned as a template whose `format()`
picks "z" or "ze" by the value (`czech_z`), so every caller's `.format(...)` gets it right. Numbers
with decimals are shown with `Translator.number` (Czech "1,7", English "1.7").
"""
from __future__ import annotations

import gettext
import io
import re
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

from . import shared_dir
from .engine.model import Msg, render

LOCALES_DIR = Path(shared_dir("locales"))
DOMAIN = "companion"
LANGUAGES = {"cs": "Čeština", "en": "English"}
DEFAULT_LANGUAGE = "cs"


#: Numbers whose Czech reading (in the genitive) starts with a consonant group that takes "ze":
#: dvou, tří, čtyř, šesti, sedmi, dvanácti, třinácti, čtrnácti, šestnácti, sedmnácti; and the tens
#: dvaceti, třiceti, čtyřiceti, šedesáti, sedmdesáti; the hundreds sta, dvou set, ... sedmi set.
_ZE_BELOW_20 = frozenset({2, 3, 4, 6, 7, 12, 13, 14, 16, 17})
_ZE_LEADING = frozenset({2, 3, 4, 6, 7})


def czech_z(n: int) -> str:
    """The Czech preposition "z" in the form the number `n` needs after it, as the number is read:
    "ze" before 2, 3, 4, 6, 7 (ze dvou, ze tří, ze čtyř, ze šesti, ze sedmi), 12–14, 16, 17, 20, 30,
    40, 60, 70 and 100 (ze sta); "z" before 1, 5, 8, 9, 10, 11, 15, 18, 19, 50 and 1000 (z tisíce)."""
    n = abs(n)
    for size in (1_000_000, 1000):  # milionů, tisíc: the count in front of them is read first
        if n >= size:
            return "z" if n // size == 1 else czech_z(n // size)
    if n >= 100:
        return "ze" if n // 100 in _ZE_LEADING | {1} else "z"
    if n >= 20:
        return "ze" if n // 10 in _ZE_LEADING else "z"
    return "ze" if n in _ZE_BELOW_20 else "z"


_Z_BEFORE_FIELD = re.compile(r"\b([zZ])e? (?=\{(\w+)\})")


class _CzechTemplate(str):
    """A Czech text with "z {field}" in it: `format()` gives the preposition the form the value needs."""

    def format(self, *args: object, **kwargs: object) -> str:
        def form(match: re.Match[str]) -> str:
            value = kwargs.get(match[2])
            if isinstance(value, bool) or not isinstance(value, int):
                return match[0]
            return f"{match[1]}{czech_z(value)[1:]} "
        return str.format(_Z_BEFORE_FIELD.sub(form, self), *args, **kwargs)


def czech_template(text: str) -> str:
    """`text` itself, or as a template that picks "z"/"ze" by the number when it has "z {field}"."""
    return _CzechTemplate(text) if _Z_BEFORE_FIELD.search(text) else text


class _CzechTranslations(gettext.GNUTranslations):
    """The Czech catalogue: messages with "z {field}" come back as templates that pick "z"/"ze"."""

    def gettext(self, message: str) -> str:
        return czech_template(super().gettext(message))

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return czech_template(super().ngettext(msgid1, msgid2, n))


def compile_po(po: Path, lang: str) -> bytes:
    """The `.mo` catalogue compiled from `po` (fuzzy entries left out)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue for `lang` (English: the identity)."""
    folder = LOCALES_DIR / lang / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if lang == "en":
        return gettext.NullTranslations()
    kind = _CzechTranslations if lang == "cs" else gettext.GNUTranslations
    if po.exists():
        return kind(io.BytesIO(compile_po(po, lang)))
    if mo.exists():
        with mo.open("rb") as handle:
            return kind(handle)
    return gettext.NullTranslations()


def format_number(value: float, lang: str) -> str:
    """`value` as `lang` writes it (Babel's format_decimal: Czech 1,7 and 1 234, English 1.7 and
    1,234); where Babel is not shipped (the browser build) the same by hand, up to 3 decimals."""
    try:
        from babel.numbers import format_decimal
    except ImportError:
        text = f"{value:,.3f}".rstrip("0").rstrip(".") if isinstance(value, float) else f"{value:,}"
        return text.replace(",", "\xa0").replace(".", ",") if lang == "cs" else text
    return format_decimal(value, locale=lang)


#: Czech vocative endings of first names, tried in order: (the name's ending, what replaces it).
_VOCATIVE = (("něk", "ňku"), ("děk", "ďku"), ("těk", "ťku"), ("ek", "ku"), ("avel", "avle"), ("arel", "arle"), ("tr", "tře"), ("dr", "dře"), ("a", "o"), ("ch", "chu"), ("k", "ku"),
             ("h", "hu"), ("g", "gu"), *((c, c + "i") for c in "šžčřcjďťň"))
_HARD = set("bdfglmnprstvz")
#: Women's first names that end in a consonant: Czech leaves them as they are ("Karin, jste na tahu"),
#: never in a man's vocative ("Karine", "Nikole", "Miriame").
_WOMEN = frozenset({"karin", "katrin", "kristin", "jasmin", "erin", "karen", "carmen", "helen", "kristen", "nikol",
                    "nicol", "miriam", "mariam", "dagmar", "ester", "ingrid", "astrid", "judit", "judith", "edit",
                    "edith", "margit", "ruth", "rút", "rut", "doris", "iris", "agnes", "ines", "mercedes", "dolores",
                    "beatrix", "gertrud", "ivet", "nikolet", "rachel", "izabel", "isabel", "anabel", "annabel",
                    "mabel", "abigail", "lilian", "vivien", "noemi", "nel", "elizabet", "elisabet", "sigrid",
                    "gudrun", "ingeborg", "maud"})


def vocative(name: str) -> str:
    """How Czech addresses a player by name ("Anno, jste na tahu", "Bořku", "Petře", "Libore",
    "Tomáši", "Cyrile"): the first word of the name in the vocative, by the common endings of Czech
    first names; a name that ends otherwise (Marie, Hugo, Ami, a nickname with digits) and a woman's
    name that ends in a consonant (Karin, Nikol, Miriam) are left as they are."""
    first, _, rest = name.partition(" ")
    lower = first.lower()
    if len(first) < 2 or not first.isalpha() or lower in _WOMEN:
        return name
    for ending, replaced in _VOCATIVE:
        if lower.endswith(ending) and len(lower) > len(ending):
            cut = first[:-len(ending)]
            word = cut + (replaced.upper() if first.isupper() else replaced)
            return f"{word} {rest}".rstrip() if rest else word
    if lower[-1] in _HARD:
        return f"{first}{'E' if first.isupper() else 'e'} {rest}".rstrip() if rest else first + "e"
    return name


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
#: Regions whose English writes the month first ("Dec 3, 2026 9:35 AM"); every other English region writes
#: the day first ("3 Dec 2026 09:35"), as Babel's en_GB does (the browser build, without Babel).
_MONTH_FIRST = frozenset({"US", "CA", "PH", "AS", "GU", "MP", "PR", "UM", "VI"})


def browser_region(tags: Iterable[str], lang: str) -> str | None:
    """The region of the first of the browser's language tags (`navigator.languages`) in `lang`:
    "en-GB" → "GB"; None when no tag of that language names one."""
    for tag in tags:
        parts = str(tag).replace("_", "-").split("-")
        if parts[0].lower() == lang and len(parts) > 1 and len(parts[-1]) == 2 and parts[-1].isalpha():
            return parts[-1].upper()
    return None


def format_when(when: float, lang: str, year: bool = True, clock: bool = False, region: str | None = None) -> str:
    """A moment (seconds since the epoch, local time) as `lang` writes it in `region` (the browser's):
    Czech "2. 12. 2026 17:05", US English "Dec 2, 2026 5:05 PM", British English "2 Dec 2026 17:05"
    (Babel's medium date and short time of the locale; without `year`, "2. 12.", "Dec 2", "2 Dec");
    where Babel is not shipped (the browser build) the same by hand."""
    import datetime

    moment = datetime.datetime.fromtimestamp(when)
    try:
        from babel import Locale, UnknownLocaleError
        from babel.dates import format_date, format_skeleton, format_time
    except ImportError:
        day_first = lang == "cs" or (region is not None and region not in _MONTH_FIRST)
        if lang == "cs":
            day = f"{moment.day}. {moment.month}." + (f" {moment.year}" if year else "")
        elif day_first:
            day = f"{moment.day} {_MONTHS[moment.month - 1]}" + (f" {moment.year}" if year else "")
        else:
            day = f"{_MONTHS[moment.month - 1]} {moment.day}" + (f", {moment.year}" if year else "")
        if lang == "cs":
            hour = f"{moment.hour}:{moment.minute:02d}"
        elif day_first:
            hour = f"{moment.hour:02d}:{moment.minute:02d}"
        else:
            hour = f"{(moment.hour - 1) % 12 + 1}:{moment.minute:02d}\u202f{'AM' if moment.hour < 12 else 'PM'}"
    else:
        locale = lang
        if region:
            try:
                locale = str(Locale.parse(f"{lang}_{region}"))
            except (UnknownLocaleError, ValueError):
                locale = lang
        day = format_date(moment, "medium", locale=locale) if year else format_skeleton("MMMd", moment, locale=locale)
        hour = format_time(moment, "short", locale=locale)
    return f"{day} {hour}" if clock else day


class Translator:
    """Everything one screen needs to speak one language: UI strings, plurals, rule text."""

    def __init__(self, lang: str, text_lookup: Callable[[str, str], str], region: str | None = None):
        self.lang = lang
        self.region = region          # the browser's region, for dates ("en-GB": day first)
        self._t = translations(lang)
        self._text = text_lookup

    def __call__(self, message: str) -> str:
        return self._t.gettext(message)

    def n(self, singular: str, plural: str, n: int) -> str:
        return self._t.ngettext(singular, plural, n)

    def text(self, key: str) -> str:
        """A rule text in this language (data/, seeded into TinyDB)."""
        value = self._text(key, self.lang)
        return czech_template(value) if self.lang == "cs" else value

    def number(self, value: float) -> str:
        """A number as this language writes it: Czech 1,7 and 1 234; English 1.7 and 1,234."""
        return format_number(value, self.lang)

    def when(self, when: float, year: bool = True, clock: bool = False) -> str:
        """A date (and with `clock` its time) as this language writes it in the browser's region
        (`format_when`)."""
        return format_when(when, self.lang, year, clock, self.region)

    def msg(self, msg: Msg) -> str:
        return render(msg, self._t.gettext, self._t.ngettext, self.text)
