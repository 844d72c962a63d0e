"""Searching the rules browser: per word, on stems, accents optional, with the rulebooks' own terms.

Czech declines its nouns, so a word is matched on its stem: "katedrála" finds "katedrálou" and
"katedrály", "dílek" finds "dílky" (the e that Czech drops in other cases), "liege" finds "Liège".
Players ask questions ("kolik stojí vojsko", "who scores a farm"): the question words are left out,
and the sections come back best first, ranked by how rare the words they have are and whether they
are in the title (`search`); the one that answers comes first (tests/test_rulesearch.py asks 45
questions). Verbs of the -ovat kind find their nouns ("cestuje" finds "cestování"). A game's data file
lists aliases, groups of words that mean the same thing at the table (the rulebook's "remíza" for
the app's "shoda", "Lutych" for the rulebook's "Liége"): a query word or phrase from a group also finds the others.
The matches come back as character spans of the shown text, for highlighting. Pure Python.
"""
from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from collections.abc import Iterable, Sequence

_WORD = re.compile(r"\w+")
#: Endings cut off a query word to reach its stem (accents already removed), longest first: Czech
#: case endings, and the English plural.
_ENDINGS = ("ovi", "ami", "emi", "ach", "ech", "ich", "ych", "imi", "ymi", "eho", "emu", "ies",
            "ou", "um", "em", "am", "ho", "mu", "es", "a", "e", "i", "o", "u", "y", "s")
_MIN_STEM = 3
#: A last syllable whose e Czech drops when the word is declined: dílek → dílku, konec → konce.
_MOBILE_E = re.compile(r"([^aeiouy])e([klcnrz])$")
#: A Czech verb of the -ovat kind in the present tense (cestuje, bodujeme): its stem is that of the
#: infinitive and the noun (cestovat, cestování).
_VERB = re.compile(r"uj(?:e|i|es|eme|ete|ou)$")


def fold(text: str) -> str:
    """Lower case without diacritics: "Liège" and "liege", "čtvrť" and "ctvrt" are the same."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


def stems(word: str) -> frozenset[str]:
    """The prefixes a text word may start with to match the (folded) query word `word`: the word
    without its ending, and without the e that declension drops."""
    if len(word) <= _MIN_STEM or word.isdigit():
        return frozenset({word})
    verb = _VERB.search(word)  # cestuje, cestují: cestovat, cestování
    if verb and verb.start() >= _MIN_STEM - 1:
        return frozenset({word[:verb.start()] + "ov", word[:verb.start()] + "uj"})
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


#: Words a player's question is made of that say nothing of what it is about ("kolik stojí vojsko",
#: "who scores a farm"): left out of the search unless the question has nothing else. Folded.
QUESTION_WORDS = frozenset(["kolik", "kdy", "kdo", "koho", "komu", "co", "cim", "jak", "jaky", "jaka", "jake", "jakou", "proc", "kde", "kam", "odkud", "ktery", "ktera", "ktere", "kterou", "muzu", "mohu", "muze", "muzeme", "muzou", "lze", "smim", "smi", "musim", "musi", "mam", "ma", "maji", "se", "si", "je", "jsou", "byt", "bude", "budu", "to", "ten", "ta", "tu", "tom", "na", "v", "ve", "do", "z", "ze", "za", "o", "u", "s", "k", "a", "i", "nebo", "ale", "kdyz", "pri", "po", "pred", "jeho", "jeji", "jejich", "moje", "muj", "ja", "my", "mi", "me", "tak", "uz", "jeste", "jen", "funguje", "funguji", "dela", "delaji", "stane", "stava", "hraje", "hrat", "dostane", "dostanu", "dostavam", "how", "what", "who", "whom", "whose", "when", "where", "which", "why", "does", "do", "did", "is", "are", "was", "were", "be", "been", "the", "a", "an", "of", "to", "in", "on", "at", "for", "with", "i", "my", "me", "we", "our", "you", "your", "it", "its", "can", "could", "may", "must", "should", "get", "gets", "got", "much", "many", "if", "there", "happens", "happen", "work", "works", "and", "or", "by", "from", "someone", "anyone", "any", "this", "that", "than", "have", "has", "had", "each", "every"])

#: What players ask with, next to the words the rulebooks use (every game's search knows them).
QUESTION_ALIASES = (
    ("stojí", "cena", "ceny", "platí", "zaplatí", "costs", "cost", "price", "pay", "pays"),
    ("končí", "konec", "skončí", "end", "ends"),
    ("vyhrává", "vyhraje", "vítěz", "vítězí", "win", "wins", "winner"),
    ("boduje", "body", "bodů", "bod", "score", "scores", "points", "point", "worth"),
    ("položit", "položím", "umístit", "umístím", "put", "place", "placing"),
)

#: How much more a word in a section's title counts than one in its body.
TITLE_WEIGHT = 2.0
#: A section shown for a question counts at least this share of the best section's score.
SHOWN_SHARE = 0.3


def search(query: str, sections: Sequence[tuple[str, str, str]],
           aliases: Iterable[Sequence[str]] = ()) -> list[Hit]:
    """The sections (key, title, body) that answer `query`, the best first, with the spans to
    highlight; an empty query matches every section, in their order, and highlights nothing.

    A question is read as players ask it: its question words ("kolik", "kdy", "how", "who") are
    left out, and a word no section has (a typo) too. Each remaining word (or alias group) counts
    by how rare it is among the game's sections (a word every section has says little), more in a
    title than in a body, and more for a few mentions than for one (BM25, lengths evened out). A
    section that has only a small part of what the best one has (below SHOWN_SHARE of its score)
    is left out."""
    words = [fold(w) for w in _WORD.findall(query)]
    if not words:
        return [Hit(key, title, body, (), ()) for key, title, body in sections]
    terms = _terms(query, [*aliases, *QUESTION_ALIASES])
    asked = [t for t in terms if not (len(t) == 1 and len(t[0].words) == 1 and t[0].words[0] in QUESTION_WORDS)]
    terms = asked or terms
    parsed = [(key, title, body, _words(title), _words(body)) for key, title, body in sections]
    found = [[([s for phrase in term for s in phrase.spans(tw)], [s for phrase in term for s in phrase.spans(bw)])
              for term in terms] for _, _, _, tw, bw in parsed]
    count = len(parsed)
    known = [i for i in range(len(terms)) if any(row[i][0] or row[i][1] for row in found)]
    rarity = {i: math.log(1 + (count - df + 0.5) / (df + 0.5))
              for i in known for df in [sum(bool(row[i][0] or row[i][1]) for row in found)]}
    average = sum(len(bw) for *_, bw in parsed) / max(count, 1) or 1.0
    scored = []
    for (key, title, body, _, body_words), row in zip(parsed, found):
        score = 0.0
        for i in known:
            in_title, in_body = row[i]
            often = len(in_body)
            body_part = often * 2.2 / (often + 1.2 * (0.25 + 0.75 * len(body_words) / average))
            score += rarity[i] * (body_part + (TITLE_WEIGHT if in_title else 0.0))
        if score > 0:
            spans = [s for i in known for s in row[i][0]], [s for i in known for s in row[i][1]]
            scored.append((score, Hit(key, title, body, tuple(sorted(set(spans[0]))), tuple(sorted(set(spans[1]))))))
    if not scored:
        return []
    best = max(score for score, _ in scored)
    return [hit for score, hit in sorted(scored, key=lambda pair: -pair[0]) if score >= SHOWN_SHARE * best]


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
