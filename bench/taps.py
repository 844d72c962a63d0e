"""`bench/bench.py taps`: what a real round costs a player at the table, measured in Chromium against
the real server, every flow twice: in Czech on the common small phone (360×740) and in English at
390×844. For each run, the taps and how far the player had to scroll to bring each control wholly
into sight between the pinned header and bottom bar (a control behind the bar or below the fold
counts the pixels to scroll); over all runs, the time from a tap to the screen changing (median and
95th percentile).

Most flows live beside their game's browser test (tests/browser/test_<game>_flow.py) as a pair of
functions: `prepare(app)` brings a new game to the starting point (not counted), `play(app)` is the
flow; the tests run the same flows, so a flow that breaks fails the suite, not only the benchmark.
"""
from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.browser import test_carcassonne_flow as carcassonne
from tests.browser import test_elfenland_flow as elfenland
from tests.browser import test_flanders_flow as flanders
from tests.browser import test_princes_flow as princes
from tests.browser import test_village_flow as village
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, App, Server

#: (language, viewport, the browser's language): every flow runs in each.
RUNS = (("cs", {"width": 360, "height": 740}, "cs-CZ"), ("en", {"width": 390, "height": 844}, "en-US"))


#: name → (prepare, play)
FLOWS = {
    "flanders-city": (flanders.prepare_city, flanders.play_city),
    "flanders-round-no-city": (flanders.prepare_round, flanders.play_round_no_city),
    "flanders-city-4p": (flanders.prepare_city_4p, flanders.play_city_4p),
    "flanders-round-no-city-4p": (flanders.prepare_round_4p, flanders.play_round_no_city_4p),
    "princes-auction": (princes.prepare_auction, princes.play_auction),
    "princes-war": (princes.prepare_war, princes.play_war),
    "princes-income": (princes.prepare_income, princes.play_income),
    "princes-troop": (princes.prepare_troop, princes.play_troop),
    "elfengold-auction": (elfenland.prepare_auction, elfenland.play_auction_with_a_bystander),
    "elfengold-quiet-round": (elfenland.prepare_quiet_round, elfenland.play_quiet_round),
    "elfengold-gold-road": (elfenland.prepare_gold_road, elfenland.play_gold_road),
    "village-turn": (village.prepare_turn, village.play_turn),
    "village-market": (village.prepare_turn, village.play_market),
    "village-market-3p": (village.prepare_market_3p, village.play_market_3p),
    "village-quiet-mass": (village.prepare_quiet_mass, village.play_quiet_mass),
    "carcassonne-road": (carcassonne.prepare_road, carcassonne.play_road),
    "carcassonne-tied-city": (carcassonne.prepare_tied_city, carcassonne.play_tied_city),
}


def run(names: list[str] | None = None) -> None:
    unknown = sorted(set(names or ()) - set(FLOWS))
    if unknown:
        raise SystemExit(f"taps: no such flow: {', '.join(unknown)} (flows: {', '.join(FLOWS)})")
    folder = Path(tempfile.mkdtemp(prefix="companion-taps-"))
    server = Server(folder / "data").start()
    delays: list[float] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            for name, (prepare, play) in FLOWS.items():
                if names and name not in names:
                    continue
                for lang, viewport, locale in RUNS:
                    context = browser.new_context(viewport=viewport, locale=locale)
                    page = context.new_page()
                    page.set_default_timeout(20_000)
                    app = App(page, lang)
                    app.open(server.url)
                    app.language(lang)
                    prepare(app)
                    app.taps, app.scrolled, app.delays = 0, 0.0, []
                    play(app)
                    delays += app.delays
                    size = f"{viewport['width']}x{viewport['height']}"
                    print(f"taps: {name} {lang} {size}: {app.taps} taps, {app.scrolled:.0f} px scrolled", flush=True)
                    context.close()
            browser.close()
    finally:
        server.stop()
    delays.sort()
    p95 = delays[int(0.95 * (len(delays) - 1))] if delays else float("nan")
    print(f"tap to screen changed: median {statistics.median(delays):.0f} ms, p95 {p95:.0f} ms")
