"""Searching the rules browser: per word, on stems, accents optional, with the rulebooks' own terms.

Czech declines its nouns, so a word is matched on its stem: "katedrála" finds "katedrálou" and
"katedrály", "dílek" finds "dílky" (the e that Czech drops in other cases), "mágové" finds "mágů",
"dává" finds "nedává", "liege" finds "Liège". Verbs of the -ovat kind find their nouns ("cestuje"
finds "cestování"). Players ask questions ("kolik stojí vojsko", "who scores a farm"): the question
words are left out, and the sections come back best first (`search`): ranked by how rare the words
they have are, whether a word stands in the title or a heading of the body (a gift card's name above
its text, "Caravan:" before its rule), and whether the words stand close together; the notes on the
other sections (the open questions) count less. A game's data file lists aliases, groups of words
that mean the same thing at the table (the rulebook's "remíza" for the app's "shoda", "Lutych" for the
rulebook's "Liége"), and every game's search knows the words questions are asked with (`QUESTION_ALIASES`:
"stojí" for "cena", "remíza" for "shoda"): a query word or phrase from a group also finds the others.

tests/test_rulesearch.py asks the questions of tests/data/rulesearch_questions.toml (92, written from the
rulebooks before the search was tuned on them): the answering section comes first for at least 95 %.
A game's sections are read once and kept (`_read`), so a search as you type costs about 2 ms a query.
The matches come back as character spans of the shown text, for highlighting. Pure Python.
"""
from __future__ import annotations

import bisect
import itertools
import math
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from collections.abc import Iterable, Mapping, Sequence

_WORD = re.compile(r"\w+")
#: Endings cut off a query word to reach its stem (accents already removed), longest first: Czech
#: case endings, and the English plural.
_ENDINGS = ("ove", "ovi", "ami", "emi", "ach", "ech", "ich", "ych", "imi", "ymi", "eho", "emu", "ies",
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


#: What may stand before a line's heading: a bullet or a number ("• ", "3. ").
_LEAD = re.compile(r"(?:[•\-*]|\d+\.)\s+")


def _heading(line: str) -> tuple[int, int, bool] | None:
    """The heading a line of a section's body starts with, as a span within the line: a line of its
    own (a gift card's name above its text, "Setup" in a variant's rules), or the term a line
    defines before its colon ("• Freeze Bid (8): when it is your turn…", "Caravan: instead of…").
    A few words, no punctuation at its end; None when the line has no heading. With the span, whether
    it is a line of its own (which heads all that follows it; a term heads only its line)."""
    lead = _LEAD.match(line)
    start = lead.end() if lead else 0
    colon = line.find(":", start)
    end = colon if colon > 0 else len(line.rstrip())
    head = line[start:end].strip()
    if not head or len(head.split()) > HEADING_WORDS or not head[-1].isalnum() and head[-1] != ")":
        return None
    if colon < 0 and lead:          # a bullet or a numbered line without a colon is a list item
        return None
    return start, end, colon < 0


@dataclass(frozen=True)
class _Section:
    """A section read once: its words and where each stands, the headings among its body's lines."""

    key: str
    title: str
    body: str
    title_words: list[_Word]
    body_words: list[_Word]
    headings: list[tuple[int, int, bool]]  # character spans of the body's headings; True: a line of its own
    place: dict[int, int]                  # where each word of the body starts: its place among them
    title_places: dict[str, list[int]]     # each (folded) word of the title: its places
    body_places: dict[str, list[int]]      # each (folded) word of the body: its places

    def heading(self, spans: list[tuple[int, int]]) -> float:
        """The weight of the strongest heading that one of `spans` stands in (0: none)."""
        return max((HEADING_WEIGHT if own else TERM_WEIGHT for a, b, own in self.headings for s, e in spans
                    if a <= s and e <= b), default=0.0)


def _places(words: list[_Word]) -> dict[str, list[int]]:
    places: dict[str, list[int]] = {}
    for n, word in enumerate(words):
        places.setdefault(word.folded, []).append(n)
    return places


@lru_cache(maxsize=64)
def _read(sections: tuple[tuple[str, str, str], ...]) -> tuple[list[_Section], list[str]]:
    """The sections, each read once (a search as you type asks the same sections again and again),
    and every word they have, sorted (the stems of a query are looked up in it)."""
    out = []
    for key, title, body in sections:
        headings, at = [], 0
        for line in body.split("\n"):
            head = _heading(line)
            if head:
                headings.append((at + head[0], at + head[1], head[2]))
            at += len(line) + 1
        title_words, body_words = _words(title), _words(body)
        out.append(_Section(key, title, body, title_words, body_words, headings,
                            {w.start: n for n, w in enumerate(body_words)}, _places(title_words),
                            _places(body_words)))
    return out, sorted({w for sec in out for w in (*sec.title_places, *sec.body_places)})


def _matching(vocabulary: Sequence[str], query_word: str, prefixes: frozenset[str]) -> frozenset[str]:
    """The words of the sorted `vocabulary` that match a query word: a short word or a number only
    itself, any other word every word that starts with one of its stems (or with "ne" and the stem:
    dává, nedává)."""
    if len(query_word) <= 2 or query_word.isdigit():
        return frozenset({query_word})
    found: set[str] = set()
    for prefix in prefixes:
        for start in (prefix, "ne" + prefix):
            found.update(vocabulary[bisect.bisect_left(vocabulary, start):bisect.bisect_left(vocabulary, start + "\uffff")])
    return frozenset(found)


class _Phrase:
    """Consecutive query words; a text matches where its words start with their stems in that order."""

    def __init__(self, text: str):
        self.words = [fold(w) for w in _WORD.findall(text)]
        self.prefixes = [stems(w) for w in self.words]

    def said(self, words: list[str]) -> bool:
        """Whether the (folded) query words are this phrase, in any declined form."""
        return len(words) == len(self.words) and all(
            w == own or stems(w) & prefixes for w, own, prefixes in zip(words, self.words, self.prefixes))

    def matching(self, vocabulary: Sequence[str]) -> list[frozenset[str]]:
        """For each word of the phrase, the words of `vocabulary` it matches."""
        return [_matching(vocabulary, w, p) for w, p in zip(self.words, self.prefixes)]


def _spans(matched: list[frozenset[str]], words: list[_Word], places: Mapping[str, list[int]]) -> list[tuple[int, int]]:
    """Where a phrase stands in `words` (`places`: where each word stands), given the words each of its
    words matches."""
    if not matched:
        return []
    size = len(matched)
    starts = sorted(i for w in matched[0] & places.keys() for i in places[w])
    return [(words[i].start, words[i + size - 1].end) for i in starts
            if i + size <= len(words) and all(words[i + k].folded in matched[k] for k in range(1, size))]


#: Where one term of a query stands in a section: its spans in the title and in the body.
_Found = tuple[list[tuple[int, int]], list[tuple[int, int]]]


@dataclass(frozen=True)
class Hit:
    """A section that matches: its key, title and body, and the spans of the matches in each."""

    key: str
    title: str
    body: str
    title_spans: tuple[tuple[int, int], ...]
    body_spans: tuple[tuple[int, int], ...]


def _terms(words: list[str], groups: list[list[_Phrase]]) -> list[list[_Phrase]]:
    """The query as terms that must all match, each a list of phrases of which one is enough: a run
    of query words that is an alias becomes its whole group, every other word a term of its own."""
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
    ("položit", "položím", "umístit", "umístím", "přiložit", "přiložím", "přikládat", "put", "place", "placing"),
    ("remíza", "shoda", "shodě", "shodně", "stejně", "stejný počet", "nerozhodně", "tie", "tied", "ties"),
    ("začínající hráč", "první hráč", "začíná", "first player", "start player", "starts", "goes first"),
    ("první začínající hráč", "kdo začíná hru", "nejstarší hráč", "nejmladší hráč", "first start player",
     "starts the game", "oldest player", "youngest player"),
    ("na začátku", "začátek hry", "příprava hry", "příprava", "start with", "at the start", "setup"),
    ("dojde", "dojdou", "došly", "vyčerpá", "vyčerpán", "runs out", "run out", "used up", "exhausted"),
    ("vedle sebe", "sousedit", "sousedí", "sousední", "next to each other", "next to", "adjacent"),
    ("druhé místo", "druhý", "druhá", "2. místo", "second place", "second", "2nd place"),
    ("třetí místo", "třetí", "3. místo", "third place", "third", "3rd place"),
)

#: How much more a word in a section's title counts than one in its body, and one in a heading of the
#: body: a line of its own (a gift card's name above its text) or the term a line defines ("Caravan:").
TITLE_WEIGHT = 2.0
HEADING_WEIGHT = 1.0
TERM_WEIGHT = 0.5
#: Sections of notes on the other sections' rules (the open questions and the app's decisions): each
#: point there is about a rule another section explains, so they count this much of what they match.
NOTES = frozenset({"open_questions"})
NOTES_WEIGHT = 0.6
#: A heading has at most this many words, without punctuation at its end.
HEADING_WORDS = 4
#: How much two words of the question at most NEAR_WORDS words apart in the text add (by their rarity).
NEAR_WEIGHT = 0.25
NEAR_WORDS = 8
#: A section shown for a question counts at least this share of the best section's score.
SHOWN_SHARE = 0.3


@lru_cache(maxsize=16)
def _groups(aliases: tuple[tuple[str, ...], ...]) -> list[list[_Phrase]]:
    return [[_Phrase(a) for a in group] for group in aliases]


def search(query: str, sections: Sequence[tuple[str, str, str]],
           aliases: Iterable[Sequence[str]] = ()) -> list[Hit]:
    """The sections (key, title, body) that answer `query`, the best first, with the spans to
    highlight; an empty query matches every section, in their order, and highlights nothing.

    A question is read as players ask it: its question words ("kolik", "kdy", "how", "who") are
    left out, and a word no section has (a typo) too. Each remaining word (or alias group) counts
    by how rare it is among the game's sections (a word every section has says little), more in a
    title or a heading than in a body, more for a few mentions than for one (BM25, lengths evened
    out), and more where two of them stand close together; a notes section counts less. A section
    that has only a small part of what the best one has (below SHOWN_SHARE of its score) is left out."""
    words = [fold(w) for w in _WORD.findall(query)]
    if not words:
        return [Hit(key, title, body, (), ()) for key, title, body in sections]
    terms = _terms(words, _groups(tuple(tuple(g) for g in aliases)) + _groups(QUESTION_ALIASES))
    asked = [t for t in terms if not (len(t) == 1 and len(t[0].words) == 1 and t[0].words[0] in QUESTION_WORDS)]
    terms = asked or terms
    parsed, vocabulary = _read(tuple((key, title, body) for key, title, body in sections))
    matched = [[phrase.matching(vocabulary) for phrase in term] for term in terms]
    found = [[([s for m in term for s in _spans(m, sec.title_words, sec.title_places)],
               [s for m in term for s in _spans(m, sec.body_words, sec.body_places)]) for term in matched]
             for sec in parsed]
    count = len(parsed)
    known = [i for i in range(len(terms)) if any(row[i][0] or row[i][1] for row in found)]
    rarity = {i: math.log(1 + (count - df + 0.5) / (df + 0.5))
              for i in known for df in [sum(bool(row[i][0] or row[i][1]) for row in found)]}
    average = sum(len(sec.body_words) for sec in parsed) / max(count, 1) or 1.0
    scored = []
    for sec, row in zip(parsed, found):
        score = _score(sec, row, known, rarity, average)
        if score > 0:
            spans = [s for i in known for s in row[i][0]], [s for i in known for s in row[i][1]]
            scored.append((score, Hit(sec.key, sec.title, sec.body, tuple(sorted(set(spans[0]))),
                                      tuple(sorted(set(spans[1]))))))
    if not scored:
        return []
    best = max(score for score, _ in scored)
    return [hit for score, hit in sorted(scored, key=lambda pair: -pair[0]) if score >= SHOWN_SHARE * best]


def _score(sec: _Section, row: list[_Found], known: list[int], rarity: dict[int, float], average: float) -> float:
    """How well one section answers: each term by its rarity, in the title, a heading and the body
    (BM25), and each two terms that stand close together."""
    score = 0.0
    for i in known:
        in_title, in_body = row[i]
        often = len(in_body)
        body_part = often * 2.2 / (often + 1.2 * (0.25 + 0.75 * len(sec.body_words) / average))
        score += rarity[i] * (body_part + (TITLE_WEIGHT if in_title else 0.0) + sec.heading(in_body))
    places = {i: sorted(sec.place[s[0]] for s in row[i][1]) for i in known if row[i][1]}
    for i, j in itertools.combinations(places, 2):  # two words of the question close together in the text
        if any(abs(a - b) <= NEAR_WORDS for a in places[i] for b in places[j]):
            score += NEAR_WEIGHT * (rarity[i] + rarity[j])
    return score * (NOTES_WEIGHT if sec.key in NOTES else 1.0)


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
