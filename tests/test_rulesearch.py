"""The rules browser's search (companion/rulesearch.py): per word on stems, accents optional, the
rulebooks' own terms as aliases, and the spans the screen highlights. Checked on the real rule texts."""
from __future__ import annotations

import pytest

from companion import rulesearch, texts
from companion.games import GAMES

TEXTS, SECTIONS = texts.load_all()


def sections(game: str, lang: str) -> list[tuple[str, str, str]]:
    return [(s, TEXTS[f"{game}.rule.{s}.title"][lang], TEXTS[f"{game}.rule.{s}.body"][lang]) for s in SECTIONS[game]]


def found(game: str, lang: str, query: str) -> dict[str, rulesearch.Hit]:
    return {hit.key: hit for hit in rulesearch.search(query, sections(game, lang), texts.aliases(game))}


def marked(hit: rulesearch.Hit) -> list[str]:
    return [hit.body[a:b] for a, b in hit.body_spans] + [hit.title[a:b] for a, b in hit.title_spans]


@pytest.mark.parametrize("game, lang, query, key, words", [
    # Czech declension: the nominative finds the instrumental and the plural
    ("flanders_1302", "cs", "katedrála", "gold_cards", {"katedrálu", "katedrálou", "katedrálu"}),
    ("flanders_1302", "cs", "katedrala", "city_scoring", {"katedrálou"}),
    # the e Czech drops: "dílek" finds "dílky", "dílků"
    ("flanders_1302", "cs", "krycí dílek", "covering", {"krycími dílky"}),
    # the rulebook's words and spellings
    ("flanders_1302", "cs", "remíza", "ties", {"shodu", "shodné"}),
    ("flanders_1302", "cs", "Lutych", "ties", {"Liége"}),   # the Czech exonym finds the rulebook's name
    ("flanders_1302", "en", "Liége", "ties", {"Liège"}),
    ("flanders_1302", "en", "lutych", "setup", {"Liège"}),
    ("princes_of_the_renaissance", "cs", "Svatá válka", "pope", {"Svatá liga"}),
    ("princes_of_the_renaissance", "cs", "kartičky pokladů", "treachery", {"karet zrady", "kartu zrady"}),
    ("princes_of_the_renaissance", "cs", "Corrupt Troops", "cards", {"Podplacení vojska"}),
    ("village", "cs", "mše", "church", {"bohoslužbě"}),
    ("village", "cs", "tržní den", "market", {"den trhu"}),
    ("carcassonne", "cs", "družiník", "meeples", {"figurku"}),
    ("carcassonne", "cs", "dílek", "tiles", {"kartičku"}),
    ("elfenland", "cs", "figurky měst", "moving", {"městskou trofej"}),
    ("elfenland", "en", "Zlato elfů", "elfengold", {"Elfengold"}),
])
def test_a_search_finds_the_section_and_marks_the_words(game, lang, query, key, words):
    hits = found(game, lang, query)
    assert key in hits, sorted(hits)
    assert words & set(marked(hits[key])), marked(hits[key])


def test_every_word_of_the_query_must_occur():
    both = found("flanders_1302", "cs", "katedrála Liége")
    assert set(both) < set(found("flanders_1302", "cs", "katedrála"))
    assert "ties" in both and not found("flanders_1302", "cs", "katedrála xylofon")


def test_an_empty_query_lists_every_section_unmarked():
    hits = rulesearch.search("  ", sections("village", "cs"), texts.aliases("village"))
    assert [h.key for h in hits] == SECTIONS["village"]
    assert not any(h.title_spans or h.body_spans for h in hits)


def test_stems_cut_endings_but_keep_short_words_whole():
    assert rulesearch.stems("katedrala") == {"katedral"}
    assert rulesearch.stems("dilek") == {"dilek", "dilk"}
    assert rulesearch.stems("mor") == {"mor"}
    assert rulesearch.fold("Liège ČTVRŤ") == "liege ctvrt"


def test_short_query_words_and_numbers_match_whole_words_only():
    rows = [("a", "Tah", "Za 6 bodů a 16 kartiček."), ("b", "Tah", "Za 60 bodů.")]
    assert [h.key for h in rulesearch.search("6", rows)] == ["a"]
    assert [h.key for h in rulesearch.search("za", rows)] == ["a", "b"]


def test_pieces_cut_the_text_at_the_marks():
    text = "Položte katedrálu na čtvrť."
    (hit,) = rulesearch.search("katedrála", [("k", "", text)])
    assert rulesearch.pieces(text, hit.body_spans) == [("Položte ", False), ("katedrálu", True),
                                                        (" na čtvrť.", False)]
    assert rulesearch.pieces(text, ()) == [(text, False)]
    assert "".join(p for p, _ in rulesearch.pieces(text, [(0, 7), (3, 10), (20, 27)])) == text


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_alias_group_names_something_the_game_says(game):
    """Each group has at least two spellings, and the game's texts (either language) use one of them."""
    groups = texts.aliases(game)
    assert groups
    for group in groups:
        assert len(group) >= 2 and all(isinstance(word, str) and word.strip() for word in group), group
        said = [rulesearch.search(word, sections(game, lang)) for word in group for lang in ("cs", "en")]
        assert any(said), group
