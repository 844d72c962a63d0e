"""Translations: the UI catalogue is complete, Czech plurals are right, every rule text exists in
both languages with the same placeholders, and every text the app looks up is there."""
from __future__ import annotations

import re
import string
import sys

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from companion import texts
from companion.engine.model import P_, Ref
from companion.games import GAME_IDS, GAMES
from companion.i18n import LANGUAGES, LOCALES_DIR, Translator, format_number, translations, vocative
from tests.conftest import ROOT, game_examples, game_folder

KEYWORDS = {"_": None, "N_": None, "P_": (1, 2), "ngettext": (1, 2)}
PO = LOCALES_DIR / "cs" / "LC_MESSAGES" / "companion.po"


def catalogue():
    with PO.open("rb") as handle:
        return read_po(handle, locale="cs")


def extracted() -> set:
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT / "companion"), method_map=[("**.py", "python")], keywords=KEYWORDS):
        found.add(message if isinstance(message, str) else message[0])
    return found


def test_every_ui_string_has_a_czech_translation():
    cat = catalogue()
    missing = []
    for msgid in sorted(extracted()):
        entry = cat.get(msgid)
        strings = () if entry is None else (entry.string if isinstance(entry.string, tuple) else (entry.string,))
        if entry is None or entry.fuzzy or not strings or not all(strings):
            missing.append(msgid)
    assert missing == [], "run `python tools/translations.py update` and translate these"


def fields(text: str) -> list:
    return sorted(f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f is not None)


def test_czech_translations_keep_the_placeholders():
    for entry in catalogue():
        if not entry.id:
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        allowed = set(fields(ids[0])) | set(fields(ids[-1]))
        for text in strings:
            assert set(fields(text)) <= allowed and set(fields(text)) >= set(fields(ids[0])) - {"n"}, (ids[0], text)


def test_ui_code_only_uses_extractable_translation_calls():
    """Translations are called as _(), ngettext(), N_() or P_(), never as t.n() or t(): those
    would never reach the catalogue."""
    for path in [*(ROOT / "companion" / "ui").rglob("*.py"), *(ROOT / "companion" / "games").rglob("screens.py")]:
        source = path.read_text()
        assert not re.search(r"\.t\.n\(|\.t\(\s*[\"']", source), path


@pytest.mark.parametrize("n, expected", [(1, "1 bod"), (2, "2 body"), (4, "4 body"), (5, "5 bodů"),
                                         (0, "0 bodů"), (22, "22 bodů"), (11, "11 bodů")])
def test_czech_plural_forms(n, expected):
    assert translations("cs").ngettext("{n} point", "{n} points", n).format(n=n) == expected


def test_english_plural_forms():
    assert translations("en").ngettext("{n} point", "{n} points", 1).format(n=1) == "1 point"
    assert translations("en").ngettext("{n} point", "{n} points", 5).format(n=5) == "5 points"


def test_messages_render_in_the_readers_language():
    table, _ = texts.load_all()
    lookup = lambda key, lang: table[key][lang]  # noqa: E731
    msg = P_("{guild}: quarters {quarters}, guild masters {masters}, place {place}: {n} point",
             "{guild}: quarters {quarters}, guild masters {masters}, place {place}: {n} points", 5,
             guild=Ref("flanders_1302.guild.blue"), quarters=3, masters=1, place="1")
    assert Translator("en", lookup).msg(msg).startswith("Blue: quarters 3")
    czech = Translator("cs", lookup).msg(msg)
    assert czech.startswith("Modrý") and "5 bodů" in czech


# -- rule text (data/) -------------------------------------------------------------------------------

TEXTS, SECTIONS = texts.load_all()


@pytest.mark.parametrize("key", sorted(TEXTS))
def test_each_rule_text_has_both_languages_and_the_same_placeholders(key):
    value = TEXTS[key]
    assert set(value) == set(LANGUAGES), key
    assert all(value[lang].strip() for lang in LANGUAGES), key
    assert fields(value["en"]) == fields(value["cs"]), key


def looked_up(game) -> set:
    """Every rule-text key the app asks for in a game, over its configurations."""
    keys = {f"{game.id}.game.title", f"{game.id}.game.tagline"}
    for section in SECTIONS.get(game.id, []):
        keys |= {f"{game.id}.rule.{section}.title", f"{game.id}.rule.{section}.body"}
    for form in CONFIGS[game.id]:
        config = game.new_config(form)
        for item in game.setup_items(config):
            keys.add(f"{game.id}.setup.{item['id']}")
            keys |= {v.key for v in item["params"].values() if isinstance(v, Ref)}
        for step in game.steps(config):
            keys |= {f"{game.id}.step.{config['variant']}.{step.id}.{part}" for part in ("title", "body", "remind")}
    return keys


#: Each game's new-game forms that reach all its texts: its folder's examples.py `CONFIGS`.
CONFIGS = {game_id: game_examples(game_id).CONFIGS for game_id in GAME_IDS}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_text_the_app_looks_up_exists(game_id):
    game = GAMES[game_id]
    missing = sorted(k for k in looked_up(game) if k not in TEXTS)
    assert SECTIONS.get(game_id) and missing == []


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_code_refers_only_to_existing_rule_texts(game_id):
    """Literal rule-text keys in a game's modules (f"{GAME}.end.board", game_text("death.body"), text("x"))
    exist in its data file."""
    source = "\n".join(path.read_text() for path in sorted(game_folder(game_id).glob("*.py")))
    keys = set(re.findall(r'\{GAME\}\.([a-z_.]+[a-z_])"', source))
    keys |= set(re.findall(r'game_text\("([a-z_.]+)"\)', source))
    keys |= set(re.findall(r'\btext\("([a-z_.]+)"\)', source))
    assert keys and sorted(k for k in keys if f"{game_id}.{k}" not in TEXTS) == []


@pytest.mark.parametrize("value, cs, en", [(1.7, "1,7", "1.7"), (1234, "1\xa0234", "1,234"), (6.3333, "6,333", "6.333"),
                                           (0, "0", "0")])
def test_numbers_are_written_the_same_without_babel(monkeypatch, value, cs, en):
    """The browser build ships no Babel: the hand-made fallback writes numbers as Babel does."""
    assert (format_number(value, "cs"), format_number(value, "en")) == (cs, en)
    monkeypatch.setitem(sys.modules, "babel.numbers", None)  # `import babel.numbers` now fails
    assert (format_number(value, "cs"), format_number(value, "en")) == (cs, en)


def test_every_step_reminder_is_one_short_line():
    """The step screens show the reminder as one short line under the folded rules (issue 13): the
    longer advice is the step's `.note`, shown with the unfolded rules."""
    all_texts, _sections = texts.load_all()
    long = [(key, lang, len(value)) for key, entry in all_texts.items() if key.endswith(".remind")
            for lang, value in entry.items() if len(value) > 90]
    assert long == []


@pytest.mark.parametrize("name, addressed", [
    ("Anna", "Anno"), ("Bořek", "Bořku"), ("Cyril", "Cyrile"), ("Petr", "Petře"), ("Tomáš", "Tomáši"),
    ("Pavel", "Pavle"), ("Zdeněk", "Zdeňku"), ("Vojtěch", "Vojtěchu"), ("Marie", "Marie"), ("Jiří", "Jiří"),
    ("Michal", "Michale"), ("Anna B.", "Anno B."), ("Hráč 2", "Hráči 2"), ("X1", "X1"),
    # issue 34: -r names (Libor, Igor, Viktor), and women's names that end in a consonant stay as they are
    ("Libor", "Libore"), ("Igor", "Igore"), ("Viktor", "Viktore"), ("Alexandr", "Alexandře"),
    ("Karin", "Karin"), ("Nikol", "Nikol"), ("Miriam", "Miriam"), ("Dagmar", "Dagmar"), ("Ester", "Ester"),
    ("KARIN", "KARIN"), ("Nikol K.", "Nikol K.")])
def test_czech_addresses_a_player_in_the_vocative(name, addressed):
    assert vocative(name) == addressed
