"""One runner for the UI-string catalogue: `python tools/translations.py update|check`.

- `update`: extract every marked string (`_`, `N_`, `P_:1,2`, `ngettext`) from companion/ into
  locales/companion.pot and merge it into locales/cs/LC_MESSAGES/companion.po (new entries empty,
  changed ones fuzzy). Then translate the empty and fuzzy entries and run `check`.
- `check`: exit 1 and list every entry that lacks a Czech translation or is fuzzy.
The catalogue is compiled in memory when the app starts (companion/i18n.py): nothing to compile.
"""
from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "locales" / "companion.pot"
PO = ROOT / "locales" / "cs" / "LC_MESSAGES" / "companion.po"
KEYWORDS = ["-k", "_", "-k", "N_", "-k", "P_:1,2", "-k", "ngettext:1,2"]


def babel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract() -> None:
    babel("extract", "-F", str(ROOT / "pyproject.toml"), *KEYWORDS, "--no-location", "--sort-output",
          "--project", "companion", "--msgid-bugs-address", "-", "-o", str(POT), str(ROOT / "companion"))


def untranslated() -> list[str]:
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="cs")
    return [m.id if isinstance(m.id, str) else m.id[0] for m in catalog
            if m.id and (m.fuzzy or not m.string or (isinstance(m.string, tuple) and not all(m.string)))]


def main(command: str) -> int:
    if command == "update":
        extract()
        if PO.exists():
            babel("update", "-i", str(POT), "-o", str(PO), "-l", "cs", "--no-wrap", "--ignore-obsolete")
        else:
            babel("init", "-i", str(POT), "-o", str(PO), "-l", "cs", "--no-wrap")
    missing = untranslated()
    for msgid in missing:
        print(f"untranslated: {msgid}")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else "check"))
