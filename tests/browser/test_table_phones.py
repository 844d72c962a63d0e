"""Table mode, each phone its own: the language chosen on a phone stays on that phone (the first visit
follows the browser's language), every joined phone draws the join link's QR code, and a phone whose
connection is gone says so in its own language on a dark screen."""
from __future__ import annotations

import io

import pytest
import segno
from PIL import Image
from playwright.sync_api import expect

from tests.browser.conftest import CZECH, PHONE, App


@pytest.fixture
def phone(browser, table):
    """Opens a phone (its own browser context, like a device) with a browser language, via the join link."""
    contexts = []

    def open_(locale: str, expected: str) -> App:
        context = browser.new_context(viewport=PHONE, locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        app = App(page, expected)
        app.open(table.join)
        return app

    yield open_
    for context in contexts:
        context.close()


def speaks(app: App, lang: str) -> None:
    """The phone shows the app in `lang`: the top bar offers the other language."""
    expect(app.id(f"lang-{'en' if lang == 'cs' else 'cs'}")).to_be_visible(timeout=20_000)
    expect(app.text(app.t("Set up, play and score board games together: the rules at hand, every score "
                          "explained."))).to_be_visible()


def drawn_code(app: App, identifier: str = "join-qr") -> list[list[bool]]:
    """The QR code as the phone draws it, read back module by module from a screenshot: each module's
    centre dark or light (the code's size is read from its finder pattern's width)."""
    target = app.id(identifier)
    target.scroll_into_view_if_needed()
    app._steady(target)
    box = target.bounding_box()
    shot = Image.open(io.BytesIO(app.still(box))).convert("L")
    width, height = shot.size
    dark = [[shot.getpixel((x, y)) < 128 for x in range(width)] for y in range(height)]
    assert sum(not pixel for row in dark for pixel in row) > width * height / 3, "no code drawn (the card is dark)"
    rows = [y for y in range(height) if any(dark[y])]
    columns = [x for x in range(width) if any(dark[y][x] for y in range(height))]
    assert rows and columns, "the code is blank"
    top, left, right = rows[0], columns[0], columns[-1]
    finder = next(x for x in range(left, right + 1) if not dark[top + 1][x]) - left  # 7 modules wide
    module = finder / 7
    size = round((right - left + 1) / module)
    module = (right - left + 1) / size
    return [[dark[int(top + (r + 0.5) * module)][int(left + (c + 0.5) * module)] for c in range(size)]
            for r in range(size)]


def test_each_phone_keeps_its_own_language_and_shows_the_join_code(phone, table):
    anna, borek = phone(CZECH, "cs"), phone(CZECH, "cs")
    speaks(anna, "cs")
    speaks(borek, "cs")
    anna.language("en")                          # Anna switches her phone to English ...
    speaks(anna, "en")
    # ... Bořek's stays Czech, after a reload too
    borek.open(table.join)
    speaks(borek, "cs")
    cyril = phone(CZECH, "cs")                   # a phone that joins after her: its own browser's language
    speaks(cyril, "cs")
    dana = phone("en-GB", "en")                  # a browser that asks for English gets English first
    speaks(dana, "en")
    # Anna's choice is remembered on her phone
    anna.open(table.join)
    speaks(anna, "en")

    # Every joined phone shows the join link and draws its QR code: the code read back from Bořek's
    # screen is the join link's, module for module.
    borek.says("join-link", table.join)
    code = segno.make(table.join, error="m")
    expected = [[bool(bit) for bit in row] for row in code.matrix]
    assert drawn_code(borek) == expected
    assert drawn_code(dana) == expected

    # The server goes away: each phone says so on a dark screen, in its own language, and what to do.
    table.stop()
    for app in (anna, borek):  # anna reads English, borek Czech
        notice = app.page.locator("#companion-lost")
        expect(notice).to_be_visible(timeout=15_000)
        expect(notice).to_contain_text(app.t("The connection to the table is lost"))
        expect(notice).to_contain_text(app.t("Reload the page"))
        assert app.page.evaluate("getComputedStyle(document.getElementById('companion-lost')).backgroundColor") \
            == "rgb(0, 0, 0)"
