"""Czech as the Czech editions say it: every Czech text (the rule texts in data/*.toml and the UI
catalogue) uses the Czech boxes' terms (../shared/czech-terms.md), picks "z"/"ze" by the number,
shows decimals as Czech writes them, fits any player, and repeats no sentence of the Czech
rulebooks (../shared/seeds/): the app's texts are written by the project."""
from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

import flet as ft
import pytest
from babel.messages.extract import extract_from_file

from companion import texts
from companion.engine import inputs
from companion.engine.model import Msg
from companion.games import GAMES
from companion.i18n import Translator, czech_z, translations
from companion.store import Store
from companion.ui.app import Shell
from companion.ui.viewmodel import ViewModel
from tests.conftest import SHARED, game_folder, needs_shared
from tests.test_history import CARCASSONNE, CARCASSONNE_GAME
from tests.test_i18n import KEYWORDS, catalogue
from tests.test_screens import Page, walk

SEEDS = SHARED / "seeds"
TEXTS, SECTIONS = texts.load_all()


def game_texts(game: str) -> dict[str, str]:
    """The Czech rule texts of one game, by key."""
    return {key: value["cs"] for key, value in TEXTS.items() if key.startswith(f"{game}.")}


def ids(entry) -> tuple:
    return entry.id if isinstance(entry.id, tuple) else (entry.id,)


def strings(entry) -> tuple:
    return entry.string if isinstance(entry.string, tuple) else (entry.string,)


@cache
def messages_of(game: str) -> frozenset[str]:
    """The msgids a game's own modules (every module of its folder companion/games/<id>/) use."""
    found = set()
    for path in sorted(game_folder(game).glob("*.py")):
        for _line, message, _comments, _context in extract_from_file("python", str(path), keywords=KEYWORDS):
            found.add(message if isinstance(message, str) else message[0])
    return frozenset(found)


def game_messages(game: str) -> dict[str, str]:
    """The Czech UI strings of one game, by msgid (every plural form joined)."""
    own = messages_of(game)
    return {ids(e)[0]: " | ".join(strings(e)) for e in catalogue() if e.id and ids(e)[0] in own}


def every_czech_text() -> dict[str, str]:
    out = {f"data {key}": value["cs"] for key, value in TEXTS.items()}
    out.update({f"po {ids(e)[0]!r} [{i}]": s for e in catalogue() if e.id for i, s in enumerate(strings(e))})
    return out


def hits(pattern: str, items: dict[str, str], flags=re.IGNORECASE) -> list[str]:
    return [f"{where}: {text[:90]}" for where, text in items.items() if re.search(pattern, text, flags)]


# -- "z" or "ze" by the number ------------------------------------------------------------------------

@pytest.mark.parametrize("n, form", [(1, "z"), (2, "ze"), (3, "ze"), (4, "ze"), (5, "z"), (6, "ze"), (7, "ze"),
                                     (8, "z"), (9, "z"), (10, "z"), (11, "z"), (12, "ze"), (15, "z"),
                                     (17, "ze"), (20, "ze"), (24, "ze"), (30, "ze"), (50, "z"), (65, "ze"),
                                     (72, "ze"), (80, "z"), (100, "ze"), (500, "z"), (1000, "z"), (2000, "ze")])
def test_z_or_ze_by_how_the_number_is_read(n, form):
    assert czech_z(n) == form


@pytest.mark.parametrize("message, plural, params, expected", [
    ("Round {round} of {rounds} · phase {n} of {all}: {phase}", None, {"round": 1, "rounds": 6, "n": 4, "all": 7,
                                                                       "phase": "Aukce"}, "Kolo 1 ze 6 · fáze 4 ze 7: Aukce"),
    ("Round {round} of {rounds} · phase {n} of {all}: {phase}", None, {"round": 2, "rounds": 4, "n": 5, "all": 6,
                                                                       "phase": "Tažení"}, "Kolo 2 ze 4 · fáze 5 ze 6: Tažení"),
    ("Tile {k} of {n}: {tile}", None, {"k": 3, "n": 8, "tile": "Drak"}, "Dílek 3 z 8: Drak"),
    ("Tile {k} of {n}: {tile}", None, {"k": 3, "n": 12, "tile": "Drak"}, "Dílek 3 ze 12: Drak"),
    ("{done} of {n} item ticked", "{done} of {n} items ticked", {"done": 2, "n": 7}, "Hotovo 2 ze 7 položek"),
    ("{done} of {n} item ticked", "{done} of {n} items ticked", {"done": 2, "n": 9}, "Hotovo 2 z 9 položek"),
])
def test_a_czech_message_takes_ze_before_2_3_4_6_7(message, plural, params, expected):
    cs = translations("cs")
    template = cs.gettext(message) if plural is None else cs.ngettext(message, plural, params["n"])
    assert template.format(**params) == expected


def test_engine_messages_and_rule_texts_take_ze_too():
    table = {"elfenland.setup.base_obstacles": {"cs": TEXTS["elfenland.setup.base_obstacles"]["cs"]}}
    t = Translator("cs", lambda key, lang: table[key][lang])
    assert t.text("elfenland.setup.base_obstacles").format(n=4).startswith("Každý ze 4 hráčů")
    assert t.text("elfenland.setup.base_obstacles").format(n=5).startswith("Každý z 5 hráčů")
    sealed = Msg("{n} of {all} player has sealed: {names}", {"n": 2, "all": 3, "names": "Anna, Bořek"},
                 plural="{n} of {all} players have sealed: {names}", n=2)
    assert "2 ze 3 hráčů" in t.msg(sealed)


def test_no_czech_text_writes_z_or_ze_wrongly_before_a_number():
    """Literal numbers: "ze 4", "ze 16", "ze 30", but "z 5", "z 8", "z 10" (placeholders: above)."""
    wrong = []
    for where, text in every_czech_text().items():
        for match in re.finditer(r"(?<![\w{])([zZ]e?) (\d+)(?![\d,.])", text):
            if match[1].lower() != czech_z(int(match[2])):
                wrong.append(f"{where}: …{text[max(0, match.start() - 30):match.end() + 10]}…")
    assert wrong == [], "\n".join(wrong)


# -- numbers for the language ------------------------------------------------------------------------

def test_decimals_are_written_as_the_language_writes_them():
    assert Translator("cs", lambda key, lang: key).number(1.7) == "1,7"
    assert Translator("en", lambda key, lang: key).number(1.7) == "1.7"
    assert Translator("cs", lambda key, lang: key).number(35.0) == "35"


def test_the_statistics_show_czech_decimals():
    vm, _ = walk(CARCASSONNE, CARCASSONNE_GAME, game="carcassonne")  # totals 5, 12, 2: average 6.3
    shell = Shell(Page(), vm)
    shown = {}
    for lang in ("cs", "en"):
        vm.set_language(lang)
        vm.home()
        vm.go("stats")
        shown[lang] = " ".join(shown_texts(shell.page.controls))
    assert "6,3" in shown["cs"] and "6.3" not in shown["cs"]
    assert "6.3" in shown["en"]


def shown_texts(controls):
    from tests.test_screens import controls_of
    return (c.value for c in controls_of(controls) if isinstance(c, ft.Text) and c.value)


# -- the Czech boxes' terms (../shared/czech-terms.md) ----------------------------------------------

def test_village_is_shown_under_its_czech_title():
    assert TEXTS["village.game.title"]["cs"] == "Kronika panství (Village)"
    assert "Kronika panství" in TEXTS["village.rule.overview.body"]["cs"]


@pytest.mark.parametrize("game, wrong, box_term", [
    ("village", r"\bmš[eií]\b", "bohoslužba"),
    ("village", r"\btržní\w* (den|dne)\b|\btržního dne\b", "den trhu"),
    ("village", r"\bvýsad", "privilegium"),
    ("village", r"přesvědčivost", "charisma"),
    ("village", r"\bpočítadl\w* času\b|\bstop\w* času\b", "počítadlo života"),
    ("village", r"žeton\w* (dalšího |příštího )?začínajícího", "ukazatel (příštího) začínajícího hráče"),
    ("village", r"\bmorov\w* kost", "kostka moru"),
    ("carcassonne", r"\bdíl(ek|k)", "kartička"),
    ("carcassonne", r"\bprv(ek|k)", "území"),
    ("carcassonne", r"\bdar(u|ů|y|em|ech|ům)?\b|\bkart\w* dar", "dárek, karta s dárkem"),
    ("elfenland", r"figurk\w* měst", "městské trofeje"),
    ("flanders_1302", r"\bkostel", "církevní čtvrť"),
    ("flanders_1302", r"\bmist\w* cechu\b", "cechovní mistr"),
    ("princes_of_the_renaissance", r"\bpočítadl", "stupnice"),
    ("princes_of_the_renaissance", r"\bbodován", "vyhodnocení"),
    ("princes_of_the_renaissance", r"\d+ vlivu\b", "12 vlivů"),
    ("princes_of_the_renaissance",
     r"vyšší obránce|druhé nejvíce|trojúhelník|česk\w* čtení|hru hrají", "words of the Czech summary"),
])
def test_the_czech_texts_use_the_czech_editions_terms(game, wrong, box_term):
    found = hits(wrong, game_texts(game)) + hits(wrong, game_messages(game))
    assert found == [], f"say {box_term}"


def test_the_village_texts_use_the_rulebooks_names_for_its_pieces():
    said = " ".join(game_texts("village").values())
    for term in ("přehledová karta bohoslužby", "počítadl", "ukazatel příštího začínajícího hráče",
                 "ukazatel začínajícího hráče", "den trhu", "privilegi", "charisma", "bohoslužb"):
        assert term in said, term


def test_carcassonne_says_once_that_the_gift_cards_call_a_meeple_druzinik():
    said = " ".join(game_texts("carcassonne").values())
    assert said.count("družiník") == 1
    assert "karta s dárkem" in said and "karty s dárky" in said


def test_princes_says_vliv_in_the_three_czech_forms():
    cs = translations("cs")
    assert [cs.ngettext("{n} influence", "{n} influence", n).format(n=n) for n in (1, 3, 12)] == \
        ["1 vliv", "3 vlivy", "12 vlivů"]
    assert "Hra je pro 3–6 hráčů" in TEXTS["princes_of_the_renaissance.rule.components.body"]["cs"]


def test_nobody_writes_pocitadlo_without_its_long_i():
    assert hits(r"počitadl", every_czech_text()) == []


def test_czech_messages_name_no_field_in_english():
    """A Czech message names a field in Czech; the input field names of `companion score` stay as
    they are written in the file, quoted, and only in the command's own messages."""
    english = r"„(cards|gold|towns|meeples)“|součet „"
    assert hits(english, every_czech_text()) == []


#: The informal "ty" the app does not use: its pronouns and verbs, and the imperatives of step titles.
TY = r"\b(jsi|máš|tvůj|tvoje|tvá|tvé|tvých|tebe|tobě|sis|kup|draž|vyvolej|pasuj|táhni|otevři|přilož|umísti|vyhodnoť|vezmi|proveď)\b"


def test_the_players_are_addressed_in_one_form():
    assert hits(TY, every_czech_text()) == []


# -- every player, whoever it is --------------------------------------------------------------------

#: Czech words that fit only a man (he, his, him; past tense -l): never right after a player's name.
MASCULINE = re.compile(r"\b(jeho|jemu|jej|něj|něho|něm|on|zaplatil|získal|vzal|\w+oval|\w+il|\w+al|\w+ěl|byl)\b")
PLAYER = re.compile(r"\{(name|names|first|second|player|giver|taker)\}")


def test_no_masculine_verb_or_pronoun_follows_a_players_name():
    wrong = []
    for where, text in every_czech_text().items():
        for match in PLAYER.finditer(text):
            clause = re.split(r"[.;:]", text[match.end():], maxsplit=1)[0]
            if MASCULINE.search(clause):
                wrong.append(f"{where}: {text}")
    assert wrong == [], "\n".join(wrong)


# -- the app's own words, not the rulebooks' --------------------------------------------------------

def words(text: str) -> list[str]:
    """Lower-case words without digits (the Village seed lost most digits in its extraction)."""
    text = unicodedata.normalize("NFC", text.casefold())
    return [w for w in re.findall(r"\w+", text) if not w.isdigit()]


@cache
def seed_ngrams(size: int = 8) -> dict[tuple, str]:
    found = {}
    for path in sorted(SEEDS.glob("*.txt")):
        seed = words(path.read_text())
        for i in range(len(seed) - size + 1):
            found.setdefault(tuple(seed[i:i + size]), path.name)
    return found


@cache
def seed_sentences(least: int = 5) -> dict[tuple, str]:
    """Every sentence or clause (up to a colon or semicolon) of the seeds with at least `least` words:
    a short rulebook sentence copied whole ("Prvním začínajícím hráčem je nejstarší hráč") is a copy too."""
    found = {}
    for path in sorted(SEEDS.glob("*.txt")):
        for sentence in re.split(r"[.!?:;\n]", path.read_text()):
            said = tuple(words(sentence))
            if len(said) >= least:
                found.setdefault(said, path.name)
    return found


@needs_shared
def test_no_czech_text_repeats_eight_words_of_a_rulebook():
    copied = []
    grams = seed_ngrams()
    assert grams, f"{SEEDS} yields no rulebook text"
    for where, text in every_czech_text().items():
        said = words(text)
        for i in range(len(said) - 7):
            if tuple(said[i:i + 8]) in grams:
                copied.append(f"{where}: {' '.join(said[i:i + 8])}")
    assert copied == [], "\n".join(copied)


@needs_shared
def test_no_czech_text_repeats_a_whole_sentence_of_a_rulebook():
    copied = []
    sentences = seed_sentences()
    assert sentences, f"{SEEDS} yields no rulebook text"
    for where, text in every_czech_text().items():
        for sentence in re.split(r"[.!?:;\n]", text):
            said = tuple(words(sentence))
            if said in sentences:
                copied.append(f"{where}: {sentence.strip()}")
    assert copied == [], "\n".join(copied)


def test_the_data_files_name_the_facts_sheet_by_a_relative_path():
    for path in texts.data_files():
        head = Path(path).read_text()
        assert "/work/" not in head and "../shared/rules/FACTS.md" in head, path.name


# -- technical reasons in Czech too -------------------------------------------------------------------

ENGLISH_WORDS = re.compile(r"\b(the|is|not|must|file|valid|missing|line|column|archive|truncated|cards|gold)\b")


def test_a_refused_file_is_explained_in_czech(tmp_path):
    store = Store(tmp_path)
    store.set_setting("language", "cs")
    vm = ViewModel(store)
    for bad in (b'{"format": {"name": "companion", "version": 1}, "games": [', b'{"format": {"name": "other"}}',
                b'{"format": {"name": "companion", "version": 1}, "games": [{"game": "flanders_1302"}]}'):
        assert not vm.import_games(bad)
        reason = vm.problem.text.split(": ", 1)[1]
        assert not ENGLISH_WORDS.search(reason.replace('"format"', "")), reason
    assert not vm.restore_backup(b"not a zip")
    reason = vm.problem.text.split(": ", 1)[1]
    assert "archiv zip" in reason and not ENGLISH_WORDS.search(reason), reason


def test_the_elfenland_box_limits_name_their_pieces_in_czech():
    t = Translator("cs", lambda key, lang: TEXTS[key][lang])
    for options, second, each in ((["elfengold"], "gold", 200), ([], "cards", 5)):  # 300 gold; hands of 4
        data = {"game": "elfenland", "options": options,
                "players": [{"id": "a", "towns": 3, second: each}, {"id": "b", "towns": 3, second: each}]}
        with pytest.raises(inputs.InputError) as refused:
            GAMES["elfenland"].score_cli(data)
        said = t.msg(refused.value.msg)
        assert ("zlata" if second == "gold" else "karty") in said and not ENGLISH_WORDS.search(said), said


@pytest.mark.parametrize("wrong, right", [
    (r"\bVB\b", "vítězné body, written out"), (r"\bkostelní\w* čtvr", "církevní čtvrť"),
    (r"\b[Mm]ist\w* cechu\b", "cechovní mistr"), (r"\bDruhý míst", "Druhé místo"),
])
def test_no_czech_text_anywhere_uses_the_replaced_terms(wrong, right):
    assert hits(wrong, every_czech_text()) == [], f"say {right}"


# -- issue 34: the Czech a reader stumbles on ---------------------------------------------------------

@pytest.mark.parametrize("wrong, right", [
    (r"\b[Oo]bodov|\b[Oo]bodují|\b[Oo]bodujte", "vyhodnotit (an území or a city is vyhodnoceno)"),
    (r"\bvlivov\w* kart", "karty vlivu"),
    (r"\bstavební\w* pol[eíi]", "stavební místo"),
    (r"\bznačk\w* života|\bznačk\w* na počítadle života", "ukazatel času"),
    (r"\bElfengold", "Zlato elfů, as the Czech box says"),
    (r"natrvalo", "a pass is final for this auction (or tile) only"),
    (r"\b[Vv]yhrává nejvíc", "Vyhrává ten, kdo má nejvíc …"),
    (r"\bhráč\w* \{(name|names|first|second|player|giver|taker)\}", "a wording that fits any player ('Na tahu: Anna')"),
    (r"(\{\w+\}|\b\d+) čas\b", "jednotky času, or 'čas: {n}'"),
    (r"\(\{currency\}\)", "the currency said as a word, not '15 (Zlato)'"),
    (r"teď jich má", "a count said with its noun"),
    (r"\bve (dvou|třech|čtyřech) hráčích", "při třech hráčích, or ve třech"),
    (r"\{feature\} vyhodnocen", "a wording that fits any feature's gender ('Cesta – vyhodnocení')"),
    (r"\bse hodnotí|\bhodnocení\b", "vyhodnotit, vyhodnocení"),
])
def test_no_czech_text_says_what_issue_34_found(wrong, right):
    assert hits(wrong, every_czech_text(), 0) == [], f"say {right}"


def test_elfengold_says_aukce_and_zlate_disky():
    """The Czech Elfengold box calls the tile auction "Aukce" and the towns' values golden discs: one
    word each (Princes, whose Czech summary says "dražba", keeps that)."""
    elfenland = {**game_texts("elfenland"), **game_messages("elfenland")}
    assert hits(r"\bdražb|\bkotouč", elfenland) == []


def test_a_czech_message_with_an_amount_of_gold_says_its_unit():
    """"za {price}" lost the English "gold": every Czech message whose English names gold after an amount
    says it too (zlato, zlaťák)."""
    lost = [f"{ids(e)[0]!r}: {s}" for e in catalogue() if e.id and re.search(r"\{\w+\} gold\b", " ".join(ids(e)))
            for s in strings(e) if not re.search("zlat|zlať", s.lower())]
    assert lost == []


@pytest.mark.parametrize("price, said", [(1, "za 1 zlaťák"), (2, "za 2 zlaťáky"), (5, "za 5 zlaťáků")])
def test_the_elfengold_auction_says_the_price_with_its_plural(price, said):
    from companion.games.elfenland import rules as el
    t = Translator("cs", lambda key, lang: TEXTS[key][lang])
    config = {"players": [{"colour": "red", "name": "Anna"}, {"colour": "blue", "name": "Bořek"}]}
    line = t.msg(el.describe({"type": "no_bid", "args": {"tile": 0, "winner": "red", "price": price}}, config))
    assert said in line, line


def test_tied_players_are_listed_with_a():
    from companion.engine.ranking import places_without_tie_break
    from companion.engine.model import listed
    t = Translator("cs", lambda key, lang: TEXTS[key][lang])
    rows = [{"id": i, "breakdown": {"points": 7}} for i in ("Anna", "Bořek", "Cyril")]
    (line,) = places_without_tie_break(rows, lambda group: listed([r["id"] for r in group]))
    assert t.msg(line).startswith("Anna, Bořek a Cyril mají shodně 7 bodů"), t.msg(line)
    assert Translator("en", lambda key, lang: TEXTS[key][lang]).msg(line).startswith("Anna, Bořek and Cyril tie")
