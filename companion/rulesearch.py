"""Searching the rules browser: per word, on stems, accents optional, with the rulebooks' own terms.

Czech declines its nouns, so a word is matched on its stem: "katedrála" finds "katedrálou" and
"katedrály", "dílek" finds "dílky" (the e that Czech drops in other cases), "liege" finds "Liège".
Every word of the query must occur in a section, in its title or its body. A game's data file
lists aliases, groups of words that mean the same thing at the table (the rulebook's "remíza" for
the app's "shoda", "Lutych" for the rulebook's "Liége"): a query word or phrase from a group also finds the others.
The matches come back as character spans of the shown text, for highlighting. Pure Python.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Sequence

_WORD = re.compile(r"\w+")
#: Endings cut off a query word to reach its stem (accents already removed), longest first: Czech
#: case endings, and the English plural.
_ENDINGS = ("ovi", "ami", "emi", "ach", "ech", "ich", "ych", "imi", "ymi", "eho", "emu", "ies",
            "ou", "um", "em", "am", "ho", "mu", "es", "a", "e", "i", "o", "u", "y", "s")
_MIN_STEM = 3
#: A last syllable whose e Czech drops when the word is declined: dílek → dílku, konec → konce.
_MOBILE_E = re.compile(r"([^aeiouy])e([klcnrz])$")


def fold(text: str) -> str:
    """Lower case without diacritics: "Liège" and "liege", "čtvrť" and "ctvrt" are the same."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


def stems(word: str) -> frozenset[str]:
    """The prefixes a text word may start with to match the (folded) query word `word`: the word
    without its ending, and without the e that declension drops."""
    if len(word) <= _MIN_STEM or word.isdigit():
        return frozenset({word})
    stem = next((word[:-len(e)] for e in _ENDINGS if word.endswith(e) and len(word) - len(e) >= _MIN_STEM), word)
    mobile = _MOBILE_E.search(word)
    return frozenset({stem, word[:mobile.start()] + mobile[1] + mobile[2]} if mobile else {stem})


@dataclass(frozen=True)
class _Word:
    start: int
    end: int
    folded: str


def _words(text: str) -> list[_Word]:
    return [_Word(m.start(), m.end(), fold(m[0])) for m in _WORD.finditer(text)]


def _matches(word: str, query_word: str, prefixes: frozenset[str]) -> bool:
    if len(query_word) <= 2 or query_word.isdigit():
        return word == query_word
    return any(word.startswith(p) for p in prefixes)


class _Phrase:
    """Consecutive query words; a text matches where its words start with their stems in that order."""

    def __init__(self, text: str):
        self.words = [fold(w) for w in _WORD.findall(text)]
        self.prefixes = [stems(w) for w in self.words]

    def said(self, words: list[str]) -> bool:
        """Whether the (folded) query words are this phrase, in any declined form."""
        return len(words) == len(self.words) and all(
            w == own or stems(w) & prefixes for w, own, prefixes in zip(words, self.words, self.prefixes))

    def spans(self, words: list[_Word]) -> list[tuple[int, int]]:
        found = []
        size = len(self.words)
        for i in range(len(words) - size + 1):
            if all(_matches(words[i + k].folded, self.words[k], self.prefixes[k]) for k in range(size)):
                found.append((words[i].start, words[i + size - 1].end))
        return found


@dataclass(frozen=True)
class Hit:
    """A section that matches: its key, title and body, and the spans of the matches in each."""

    key: str
    title: str
    body: str
    title_spans: tuple[tuple[int, int], ...]
    body_spans: tuple[tuple[int, int], ...]


def _terms(query: str, aliases: Iterable[Sequence[str]]) -> list[list[_Phrase]]:
    """The query as terms that must all match, each a list of phrases of which one is enough: a run
    of query words that is an alias becomes its whole group, every other word a term of its own."""
    words = [fold(w) for w in _WORD.findall(query)]
    groups = [[_Phrase(a) for a in group] for group in aliases]
    terms: list[list[_Phrase]] = []
    i = 0
    while i < len(words):
        best = None
        for group in groups:
            for phrase in group:
                size = len(phrase.words)
                if size and size > (best[0] if best else 0) and phrase.said(words[i:i + size]):
                    best = (size, group)
        if best:
            terms.append(best[1])
            i += best[0]
        else:
            terms.append([_Phrase(words[i])])
            i += 1
    return terms


def search(query: str, sections: Sequence[tuple[str, str, str]],
           aliases: Iterable[Sequence[str]] = ()) -> list[Hit]:
    """The sections (key, title, body) that match every word of `query`, in their order, with the
    spans to highlight; an empty query matches every section and highlights nothing."""
    terms = _terms(query, aliases)
    hits = []
    for key, title, body in sections:
        title_words, body_words = _words(title), _words(body)
        title_spans: list[tuple[int, int]] = []
        body_spans: list[tuple[int, int]] = []
        for term in terms:
            in_title = [s for phrase in term for s in phrase.spans(title_words)]
            in_body = [s for phrase in term for s in phrase.spans(body_words)]
            if not in_title and not in_body:
                break
            title_spans += in_title
            body_spans += in_body
        else:
            hits.append(Hit(key, title, body, tuple(sorted(set(title_spans))), tuple(sorted(set(body_spans)))))
    return hits


def pieces(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[str, bool]]:
    """`text` cut into (piece, highlighted) at the spans (overlapping spans are merged)."""
    out: list[tuple[str, bool]] = []
    at = 0
    for start, end in sorted(spans):
        start = max(start, at)
        if end <= start:
            continue
        if start > at:
            out.append((text[at:start], False))
        out.append((text[start:end], True))
        at = end
    if at < len(text) or not out:
        out.append((text[at:], False))
    return out
