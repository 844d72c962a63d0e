"""Benchmarks for the figures the foundation promises (README, "Benchmarks").

    python bench/bench.py [record] [score] [web] [history] [table[:SECONDS[:TAPS_PER_SECOND]]]

- record: median time of one tap (ViewModel.dispatch: engine, atomic write: tap → persisted) in a game in
  progress, with 10 and with 10,000 finished games stored; their ratio must stay <= 1.5; and what the
  data folder's lock (the flock every write holds) costs of it.
- score:  whole-process time of `companion score flanders-1302` on the public example (target <= 0.3 s),
  and its ratio to a bare `python -c pass` (target <= 2).
- web:    server start to the first interactive screen in headless Chromium (Playwright).
- table:  table mode under load: 6 phones (Chromium pages that joined with the link) on one game,
  each tapping 10 times a second for 60 s; taps sent, recorded and refused as stale, whether every
  phone ends on the server's state, and the time from an action being saved to each other phone
  showing it (median, 95th percentile).
- taps:   what a real round costs at the table (bench/taps.py): taps and scrolling per scripted flow,
  and tap → screen changed (median, 95th percentile); `taps:FLOW,FLOW` runs some.
- history: with 10,000 finished games stored (each with its archived summary, one an hour back over
  fourteen months): the server's work to open the history list and the statistics screen (all time
  and filtered to this year), the same screens tapped open in Chromium (tap → first entry shown; the
  filter: tap on "This year" → the filtered statistics drawn), and one tap in a game in progress.
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games import GAMES  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.ui.viewmodel import ViewModel  # noqa: E402

GAME = GAMES["flanders_1302"]
FORM = {"variant": "standard", "start": 0, "players": [{"colour": c, "name": c.title()}
                                                       for c in ("blue", "yellow", "green", "red")]}
FINISHED_LOG = ([{"type": "begin", "args": {}}]
                + [{"type": "goto_step", "args": {"step": s}} for s in ("choose", "reveal", "actions")] * 20)


def record(finished: int, taps: int = 300) -> float:
    """Median seconds per tap (ViewModel.dispatch: engine, atomic write, catalogue status) with
    `finished` finished games in the data directory."""
    folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    try:
        store = Store(folder)
        config = GAME.new_config(FORM)
        store.import_sessions([{"game": GAME.id, "config": config, "log": FINISHED_LOG, "status": "finished"}]
                              * finished)
        vm = ViewModel(store)
        assert vm.new_game(GAME.id, FORM) and vm.dispatch("begin")
        steps = [s.id for s in GAME.steps(config)]
        times = []
        for i in range(taps):
            start = time.perf_counter()
            assert vm.dispatch("goto_step", step=steps[i % len(steps)])
            times.append(time.perf_counter() - start)
        return statistics.median(times)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def finished_games(n: int) -> list[dict]:
    """`n` finished Carcassonne games (a real log and its summary), with names from a pool of eight."""
    from companion import history
    from companion.engine import flow
    from tests.test_screens import CARCASSONNE, CARCASSONNE_GAME

    game, pool = GAMES["carcassonne"], ["Anna", "Bořek", "Cyril", "Dana", "Emil", "Filip", "Gita", "Hana"]
    log = [{"type": kind, "args": args} for kind, args in CARCASSONNE_GAME]
    out = []
    for i in range(8):
        names = [pool[(i + k) % 8] for k in range(3)]
        config = game.new_config(dict(CARCASSONNE, players=[dict(p, name=name) for p, name in
                                                            zip(CARCASSONNE["players"], names)]))
        state = flow.replay(game, config, log)
        out.append({"game": game.id, "config": config, "log": log, "status": "finished",
                    "result": history.summary(game, config, state)})
    return [dict(out[i % 8], created=time.time() - i * 3600) for i in range(n)]


#: True once the control (its text or its accessible labels) contains the text: a tap's answer drawn.
SAYS = """([id, text]) => { const c = document.querySelector(`[flt-semantics-identifier="${id}"]`);
    if (!c) return false;
    const labels = Array.from(c.querySelectorAll('[aria-label]')).map(x => x.getAttribute('aria-label'));
    return [c.textContent, c.getAttribute('aria-label') || '', ...labels].join(' ').includes(text); }"""


class _Page:
    """Just enough of ft.Page to build screens in-process."""
    controls, title, route = [], "", "/"

    def navigate(self, route):
        self.route = route

    def update(self):
        pass


def bench_history(n: int = 10_000, runs: int = 5) -> None:
    from playwright.sync_api import sync_playwright

    from companion.ui.app import Shell
    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, App, Server

    folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    try:
        Store(folder / "data").import_sessions(finished_games(n))
        vm = ViewModel(Store(folder / "data"))
        Shell(_Page(), vm)
        server_side = {}
        for route in ("history", "stats"):
            times = []
            for _ in range(runs):
                vm.home()
                start = time.perf_counter()
                vm.go(route)
                times.append(time.perf_counter() - start)
            server_side[route] = statistics.median(times)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            vm.statistics("year")
            times.append(time.perf_counter() - start)
        server_side["filtered"] = statistics.median(times)
        assert vm.new_game("carcassonne", finished_games(1)[0]["config"] | {"start": 0}) and vm.dispatch("begin")
        taps = []
        for i in range(200):
            start = time.perf_counter()
            assert vm.dispatch("meeple", player="red", delta=1 if i % 2 == 0 else -1)
            taps.append(time.perf_counter() - start)
        server = Server(folder / "data").start()
        browser_side = {"history": [], "stats": [], "filtered": []}
        year_plays = vm.statistics("year")["players"][0]["plays"]  # what the filtered screen shows first
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_context(viewport=PHONE).new_page()
                page.set_default_timeout(60_000)
                app = App(page, "en")
                app.open(server.url)
                for _ in range(runs):
                    for route, shown in (("history", '[flt-semantics-identifier^="past-"]'),
                                         ("stats", '[flt-semantics-identifier="player-0"]')):
                        app.tap("nav-home")
                        start = time.perf_counter()
                        app.id(f"nav-{route}").locator('[role="button"]').first.click()
                        page.locator(shown).first.wait_for()
                        browser_side[route].append(time.perf_counter() - start)
                    start = time.perf_counter()
                    app.id("period-year").locator('[role="button"]').first.click()
                    page.wait_for_function(SAYS, arg=["player-0", f"{year_plays} games,"], polling=20)
                    browser_side["filtered"].append(time.perf_counter() - start)
                browser.close()
        finally:
            server.stop()
        print(f"history with {n:,} finished games: server work to open the list {server_side['history'] * 1000:.0f} ms, "
              f"the statistics {server_side['stats'] * 1000:.0f} ms (median of {runs}); tapped open in Chromium "
              f"(tap -> first entry shown): list {statistics.median(browser_side['history']):.2f} s, statistics "
              f"{statistics.median(browser_side['stats']):.2f} s; filtered to this year: server "
              f"{server_side['filtered'] * 1000:.0f} ms, tap -> drawn {statistics.median(browser_side['filtered']):.2f} s "
              f"(target <= 0.5 s); one tap in a game in progress: median "
              f"{statistics.median(taps) * 1000:.2f} ms")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def folder_lock_cost(rounds: int = 20_000) -> float:
    """Seconds to take and let go of a data folder's lock (the flock every write holds)."""
    from companion.store import folder_lock

    folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    try:
        lock = folder_lock(folder)
        start = time.perf_counter()
        for _ in range(rounds):
            with lock:
                pass
        return (time.perf_counter() - start) / rounds
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def bench_record() -> None:
    small, large = record(10), record(10_000)
    print(f"record one action, median: {small * 1000:.2f} ms with 10 finished games, "
          f"{large * 1000:.2f} ms with 10,000; ratio {large / small:.2f} (must be <= 1.5); "
          f"of which the data folder's lock: {folder_lock_cost() * 1e6:.1f} µs")


def bench_score(runs: int = 20) -> None:
    """`companion score` against a bare interpreter (`python -c pass`), run in turn so that both see the
    same machine; with the bytecode cache on, as an installed or once-run program has it."""
    example = next((ROOT.parent / "shared" / "examples").glob("flanders-1302.*.input.json"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    score = [sys.executable, "-m", "companion", "score", "flanders-1302", str(example)]
    bare = [sys.executable, "-c", "pass"]
    times: dict[str, list[float]] = {"score": [], "bare": []}
    for i in range(runs + 1):
        for name, command in (("score", score), ("bare", bare)):
            start = time.perf_counter()
            subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, env=env)
            if i:  # the first round writes the bytecode cache
                times[name].append(time.perf_counter() - start)
    ratios = sorted(s / b for s, b in zip(times["score"], times["bare"]))
    print(f"companion score flanders-1302, whole process: median {statistics.median(times['score']):.3f} s, "
          f"max {max(times['score']):.3f} s over {runs} runs (target <= 0.3 s); a bare interpreter "
          f"(python -c pass): median {statistics.median(times['bare']):.3f} s; ratio, run by run: median "
          f"{statistics.median(ratios):.2f} (target <= 2)")


def bench_web(runs: int = 3) -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, Server

    times = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(runs):
            folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
            start = time.perf_counter()
            server = Server(folder / "data").start()
            try:
                page = browser.new_page(viewport=PHONE)
                page.goto(server.url)
                placeholder = page.locator("flt-semantics-placeholder")
                placeholder.wait_for(state="attached", timeout=60_000)
                placeholder.dispatch_event("click")
                page.locator('[flt-semantics-identifier="new-flanders_1302"]').wait_for(timeout=60_000)
                times.append(time.perf_counter() - start)
                page.close()
            finally:
                server.stop()
                shutil.rmtree(folder, ignore_errors=True)
        browser.close()
    print(f"web app: server start to first interactive screen: median {statistics.median(times):.2f} s "
          f"(runs: {', '.join(f'{t:.2f}' for t in times)})")


PHONE_JS = """([colour, rate, seconds]) => {
    window.__seen = []; window.__sent = 0;
    const last = {};
    const scan = () => {
        for (const el of document.querySelectorAll('[flt-semantics-identifier^="meeples-"]')) {
            const id = el.getAttribute('flt-semantics-identifier'), text = el.textContent.trim();
            if (last[id] !== text) { last[id] = text; window.__seen.push([Date.now(), id, text]); }
        }
    };
    new MutationObserver(scan).observe(document.querySelector('flt-semantics-host') || document.body,
        {subtree: true, childList: true, characterData: true, attributes: true});
    scan();
    let plus = true;
    const end = Date.now() + seconds * 1000;
    const timer = setInterval(() => {
        if (Date.now() > end) { clearInterval(timer); return; }
        const id = `meeple-${colour}-${plus ? 'plus' : 'minus'}`;
        const node = document.querySelector(`[flt-semantics-identifier="${id}"]`);
        if (node) { (node.querySelector('[role="button"]') || node).click(); window.__sent++; plus = !plus; }
    }, 1000 / rate);
}"""


def bench_table(phones: int = 6, rate: int = 10, seconds: int = 60) -> None:
    from playwright.sync_api import sync_playwright

    from companion.engine import flow
    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, App, Server

    colours = ("red", "green", "blue", "yellow", "black")
    folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    server = Server(folder / "data", lan=True).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=[
                *CHROMIUM_ARGS, "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                "--disable-backgrounding-occluded-windows"])  # six phones, not one phone and five hidden tabs
            apps = []
            for _ in range(phones):
                page = browser.new_context(viewport=PHONE).new_page()
                page.set_default_timeout(60_000)
                app = App(page, "cs")
                app.open(server.join)
                app.language("en")
                apps.append(app)
            host = apps[0]
            host.tap("new-carcassonne")
            host.tap("count-5")
            host.names(*(f"P{i + 1}" for i in range(5)))
            host.tap("create")
            host.tap("begin")
            for app in apps[1:]:
                app.tap(app.page.locator('[flt-semantics-identifier^="resume-"]').first.get_attribute(
                    "flt-semantics-identifier"))
            for app in apps:
                app.id("meeples").scroll_into_view_if_needed()
                app.page.wait_for_timeout(500)
            for i, app in enumerate(apps):
                app.page.evaluate(PHONE_JS, [colours[i % len(colours)], rate, seconds])
            time.sleep(seconds + 1)
            (path,) = (folder / "data" / "sessions").glob("*.json")
            game = GAMES["carcassonne"]
            ended, agree = time.monotonic(), 0
            while time.monotonic() - ended < 120:  # until every phone shows the server's state
                session = Store(str(folder / "data")).load(path.stem)  # taps still queued may land meanwhile
                final = flow.replay(game, session["config"], session["log"])["meeples"]
                final = {c: f"{final[c]} / 7" for c in colours}
                seen = [app.page.evaluate("window.__seen") for app in apps]
                agree = sum(all(next((text for t, ident, text in reversed(events) if ident == f"meeples-{c}"),
                                     None) == final[c] for c in colours) for events in seen)
                if agree == phones:
                    break
                time.sleep(1)
            settled = time.monotonic() - ended
            sent = sum(app.page.evaluate("window.__sent") for app in apps)
            browser.close()
        log = session["log"]
        state = flow.initial(game, session["config"])
        delays, missed, recorded = [], 0, 0
        for action in log:
            state = flow.apply(game, session["config"], state, action)
            if action["type"] != "meeple":
                continue
            recorded += 1
            colour, at = action["args"]["player"], action["at"] * 1000
            shown = f"{state['meeples'][colour]} / 7"
            actors = {i for i in range(phones) if colours[i % len(colours)] == colour}
            for i, events in enumerate(seen):
                if i in actors:
                    continue
                times = [t for t, ident, text in events if ident == f"meeples-{colour}" and text == shown and t >= at]
                if times:
                    delays.append(min(times) - at)
                else:
                    missed += 1
        delays.sort()
        p95 = delays[int(0.95 * (len(delays) - 1))] if delays else float("nan")
        print(f"table mode: {phones} phones x {rate} taps/s x {seconds} s on one game: {sent} taps sent, "
              f"{recorded} recorded, {sent - recorded} refused (stale or not allowed, each with a message); "
              f"{agree} of {phones} phones show the server's state {settled:.0f} s after the last tap; "
              f"action saved -> shown on another phone: "
              f"median {statistics.median(delays):.0f} ms, 95th percentile {p95:.0f} ms over {len(delays)} "
              f"updates ({missed} intermediate states never drawn: a later one came first)")
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    os.chdir(ROOT)
    chosen = sys.argv[1:] or ["record", "score", "web"]
    for name in chosen:
        if name.startswith("taps"):  # taps, or taps:FLOW,FLOW
            import taps  # bench/taps.py, beside this file
            taps.run([f for f in name.partition(":")[2].split(",") if f])
        elif name.startswith("table"):  # table, table:SECONDS, or table:SECONDS:TAPS_PER_SECOND
            seconds, _, rate = name.partition(":")[2].partition(":")
            bench_table(seconds=int(seconds or 60), rate=int(rate or 10))
        else:
            {"record": bench_record, "score": bench_score, "web": bench_web, "history": bench_history}[name]()
