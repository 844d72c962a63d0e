"""Rule text and checklist prose from `data/<game>.toml`: Czech and English side by side.

The files are the seed of the rule-text table in TinyDB (see store.py); this module only reads
them, so the `score` command can name cities in English without opening any database.
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from . import shared_dir
from .game_folders import EXTRA_FOLDERS

DATA_DIR = Path(shared_dir("data"))
LANGUAGES = ("en", "cs")
#: Every data file's texts as `load_all` reads them, and the files' fingerprint, in JSON: the web build
#: writes it into the app's archive (`compiled`), and the phone's first start reads it instead of
#: parsing every file's TOML (about 0.2 s of Python in a browser). Not in the repository's data/.
COMPILED = DATA_DIR / "texts.json"


def data_files() -> list[Path]:
    """Every game's data file: data/*.toml, and those of the games of extra folders (`COMPANION_GAMES`)."""
    extra = [path for folder in EXTRA_FOLDERS for path in folder.glob("*/*.toml") if path.stem == path.parent.name]
    return sorted([*DATA_DIR.glob("*.toml"), *extra], key=lambda path: path.name)


def data_file(game: str) -> Path:
    """One game's data file: data/<game>.toml, or a game of an extra folder's own <game>/<game>.toml."""
    for folder in EXTRA_FOLDERS:
        if (folder / game / f"{game}.toml").exists():
            return folder / game / f"{game}.toml"
    return DATA_DIR / f"{game}.toml"


def load(path: Path) -> tuple[dict[str, dict[str, str]], list[str]]:
    """The texts of one data file keyed `<game>.<key>`, and its rules-browser section order."""
    game = path.stem
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    texts = {f"{game}.{key}": dict(value) for key, value in data.get("text", {}).items()}
    return texts, list(data.get("rules", {}).get("sections", []))


def load_all() -> tuple[dict[str, dict[str, str]], dict[str, list[str]]]:
    """All texts of all games, and each game's rules sections."""
    texts: dict[str, dict[str, str]] = {}
    sections: dict[str, list[str]] = {}
    for path in data_files():
        game_texts, game_sections = load(path)
        texts.update(game_texts)
        sections[path.stem] = game_sections
    return texts, sections


def compiled() -> bytes:
    """The contents of COMPILED for the data files as they are now (the same files, the same bytes)."""
    texts, sections = load_all()
    return json.dumps({"fingerprint": fingerprint(), "texts": texts, "sections": sections}, ensure_ascii=False,
                      sort_keys=True, separators=(",", ":")).encode()


def seed(stamp: str) -> tuple[dict[str, dict[str, str]], dict[str, list[str]]]:
    """What the rule-text table is seeded with when the data files' fingerprint is `stamp`: COMPILED
    when it is there, of these very files and well formed; else the files themselves (`load_all`)."""
    try:
        kept = json.loads(COMPILED.read_bytes())
    except (OSError, ValueError, RecursionError):
        kept = None
    if isinstance(kept, dict) and kept.get("fingerprint") == stamp and _well_formed(kept.get("texts"),
                                                                                    kept.get("sections")):
        return kept["texts"], kept["sections"]
    return load_all()


def _well_formed(texts: object, sections: object) -> bool:
    """Whether `texts` and `sections` have the types `load_all` gives them."""
    def strings(values: Iterable[object]) -> bool:
        return all(isinstance(value, str) for value in values)
    return (isinstance(texts, dict) and isinstance(sections, dict)
            and all(isinstance(key, str) and isinstance(text, dict) and strings(text) and strings(text.values())
                    for key, text in texts.items())
            and all(isinstance(key, str) and isinstance(ids, list) and strings(ids) for key, ids in sections.items()))


def fingerprint() -> str:
    """A hash of every data file: the seeded table is refreshed when it changes."""
    digest = hashlib.sha256()
    for path in data_files():
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


@cache
def aliases(game: str) -> tuple[tuple[str, ...], ...]:
    """The rules search's aliases of a game (`[search] aliases` in its data file): groups of words that
    mean the same at the table, such as the rulebook's own terms and spellings next to the app's."""
    path = data_file(game)
    if not path.exists():
        return ()
    with path.open("rb") as handle:
        groups = tomllib.load(handle).get("search", {}).get("aliases", [])
    return tuple(tuple(group) for group in groups)


@cache
def english_title(game: str) -> str:
    """A game's title in English (the exports' `title` column), read from its data file."""
    return load(data_file(game))[0].get(f"{game}.game.title", {}).get("en", game)
