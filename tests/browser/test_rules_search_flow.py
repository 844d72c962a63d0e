"""The rules browser's search in a real browser: Czech words in any declined form and the other
names players know ("mše" for the Czech box's "bohoslužba") find their sections, which open with
the matches highlighted (test-artifacts/rules-search-village-cs.png shows them), as the question is
typed."""
from __future__ import annotations

from playwright.sync_api import expect


def search(app, query: str) -> None:
    """Type the question: the sections follow as it is typed (no Enter)."""
    app.fill(app.t("Search the rules"), query)


def test_a_czech_search_finds_declined_words_and_the_other_names(app, server):
    app.open(server.url)
    app.language("cs")
    app.tap("new-village")
    app.names("Anna", "Bořek")
    app.tap("create")
    expect(app.id("setup-progress")).to_be_visible()
    app.tap("nav-rules")
    expect(app.id("rule-mass")).to_be_visible()

    search(app, "mše")                                    # the box says bohoslužba
    expect(app.id("rule-mass")).to_have_count(1)
    expect(app.id("rule-church")).to_have_count(1)
    expect(app.id("rule-family")).to_have_count(0)
    # the best section opens, the next stays folded; a screen reader says so in Czech, not "Collapsed"
    expect(app.id("rule-church").locator("[aria-description]")).to_have_attribute("aria-description", "Sbaleno")

    search(app, "mše protřepejte")                        # every word must occur: one section left
    expect(app.id("rule-church")).to_have_count(0)
    app.says("rule-mass", "Bohoslužba")                  # the title; the body (selectable text) has no label
    app.shot("rules-search-village-cs")                   # the matches are highlighted in the opened section

    search(app, "tržní den")                              # the box says den trhu
    app.says("rule-market", "Den trhu")
    expect(app.id("rule-mass")).to_have_count(0)

    search(app, "xylofon")
    expect(app.text(app.t("No rule mentions “{query}”.", query="xylofon"))).to_be_visible()

    # typed key by key as on a phone, each key redrawing the list: no key is lost, the sections follow
    box = app.page.get_by_label(app.t("Search the rules"))
    box.fill("")
    box.press_sequentially("mše", delay=80)
    expect(box).to_have_value("mše")
    expect(app.id("rule-mass")).to_have_count(1)
    expect(app.id("rule-family")).to_have_count(0)
