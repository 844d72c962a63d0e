"""The README is a front door (at most 150 lines; the rest is in docs/), and no relative link in it or
in docs/ leads nowhere."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
#: A Markdown link's or image's target, `[text](target)`, and an HTML `src=`/`href=`.
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|(?:src|href)=\"([^\"]+)\"")


def links(page: Path) -> list[str]:
    """The relative targets in `page` (without their #anchor), leaving out code blocks and spans."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    targets = [a or b for a, b in LINK.findall(text)]
    return [target.split("#")[0] for target in targets
            if not re.match(r"[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")]


def test_the_readme_is_a_front_door():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 150
    assert len(PAGES) > 5, "the rest of the documentation is in docs/"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_points_at_a_file(page):
    found = links(page)
    missing = [target for target in found if not (page.parent / target).exists()]
    assert not missing, f"{page.relative_to(ROOT)} links to files that do not exist: {missing}"


def test_links_are_found_and_a_broken_one_is_caught(tmp_path):
    """The checker itself: it sees Markdown links, images and HTML, and only relative ones."""
    (tmp_path / "there.md").write_text("x")
    page = tmp_path / "page.md"
    page.write_text('[a](there.md#part) ![b](gone.png) <img src="also-gone.png"> [c](https://x.org) [d](#top)'
                    " `[e](in-code.md)`\n```\n[f](in-block.md)\n```\n")
    assert links(page) == ["there.md", "gone.png", "also-gone.png"]
