"""Benchmarks for the figures the foundation promises (README, "Benchmarks").

    python bench/bench.py [record] [score] [web] [history] [table[:SECONDS[:TAPS_PER_SECOND]]] [taps[:FLOW,...]]
                          [replay] [load] [table-ws[:SECONDS[:TAPS_PER_SECOND[:CHURN]]]]
    python bench/bench.py fuzz --games N [--budget STEPS] [--screens every|new] [--seed S] [--game ID]

- record: median time of one tap (ViewModel.dispatch: engine, atomic write: tap → persisted) in a game in
  progress, with 10 and with 10,000 finished games stored; their ratio must stay <= 1.5; and what the
  data folder's lock (the flock every write holds) costs of it.
- score:  whole-process time of `companion score flanders-1302` on the public example (target <= 0.3 s),
  and its ratio to a bare `python -c pass` (target <= 1.5).
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
- replay: a game whose log holds 1,000 / 4,000 / 6,000 score corrections: CPU to replay it, to open it
  on a phone (the first, and the next phone while the first shows it), and one tap in it.
- load:   a phone opens the app over emulated phone Wi-Fi (Chromium's network emulation, 20 Mbit/s
  down and up, 40 ms): time to the home screen and bytes transferred, first visit (empty cache) and
  repeat visit (same profile).
- fuzz:   the property tests' long budget (bench/fuzz.py): N random legal games of every game, every step
  checked (replay, undo, the screens in both languages), every finished game scored by `companion score`
  and exported and imported back; games, actions, undo checks, mismatches and exceptions per game.
- table-ws: table mode on the server alone, phones simulated on the app's websocket protocol
  (tests/phone.py, no browser): 6 phones x 10 taps a second for 60 s on one game (recorded, refused,
  lost, save -> update on every other phone), then 500 phones that open the game and leave, then the
  6 phones again on a second game: server CPU per tap and memory in both rounds.
"""
from __future__ import annotations

import bisect
import os
import re
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
from companion.store import Store, stored_game  # noqa: E402
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
        store = Store(folder / "data")
        store.import_sessions(finished_games(n))
        store.set_setting("language", "en")  # the texts the browser side waits for
        del store
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
          f"{statistics.median(ratios):.2f} (target <= 1.5)")


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
                session = _stored(folder / "data", path.stem)  # taps still queued may land meanwhile
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


def bench_replay(sizes: tuple[int, ...] = (1_000, 4_000, 6_000)) -> None:
    """A Flanders game whose log holds `n` score corrections: replaying it (undo, import), opening it on a
    phone (first and again) and one tap in it."""
    from companion.engine import flow

    config = GAME.new_config(FORM)
    for n in sizes:
        log = [{"type": "begin", "args": {}}] + [
            {"type": "correct", "args": {"track": ("blue", "yellow", "green", "red")[i % 4], "points": 1,
                                         "reason": f"correction {i}"}} for i in range(n)]
        start = time.process_time()
        flow.replay(GAME, config, log)
        replayed = time.process_time() - start
        folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
        try:
            store = Store(folder)
            (sid,) = store.import_sessions([{"game": GAME.id, "config": config, "log": log, "status": "active"}])
            opened = []
            for _ in range(2):
                vm = ViewModel(store)
                start = time.process_time()
                assert vm.open(sid)
                opened.append(time.process_time() - start)
            taps = []
            for _ in range(20):
                start = time.perf_counter()
                assert vm.dispatch("correct", track="blue", points=1, reason="one more")
                taps.append(time.perf_counter() - start)
            tap = statistics.median(taps)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        print(f"replay {n:,} corrections: {replayed:.2f} s CPU; open the game on a phone {opened[0]:.2f} s, "
              f"on the next phone {opened[1]:.2f} s; one tap in it {tap * 1000:.0f} ms (median of 20)", flush=True)


def bench_load(runs: int = 3) -> None:
    """A phone opens the app over phone Wi-Fi (Chromium's network emulation: 20 Mbit/s down and up,
    40 ms latency): time from the address to the home screen and bytes transferred, on a first visit
    (empty cache) and on a repeat visit with the same browser profile."""
    import base64

    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, Server

    folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    server = Server(folder / "data").start()
    figures: dict[str, list[tuple[float, int]]] = {"first": [], "repeat": []}
    try:
        with sync_playwright() as p:
            for run in range(runs):
                profile = folder / f"profile-{run}"
                for visit in ("first", "repeat"):
                    context = p.chromium.launch_persistent_context(
                        str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, viewport=PHONE, headless=True)
                    page = context.pages[0] if context.pages else context.new_page()
                    cdp = context.new_cdp_session(page)
                    cdp.send("Network.enable")
                    cdp.send("Network.emulateNetworkConditions", {
                        "offline": False, "latency": 40, "downloadThroughput": 20e6 / 8, "uploadThroughput": 20e6 / 8})
                    received = [0]

                    def http(event, received=received):
                        received[0] += int(event["encodedDataLength"])

                    def frame(event, received=received):
                        data = event["response"]["payloadData"]
                        received[0] += len(base64.b64decode(data)) if event["response"]["opcode"] == 2 else len(data)

                    cdp.on("Network.loadingFinished", http)
                    cdp.on("Network.webSocketFrameReceived", frame)
                    start = time.perf_counter()
                    page.goto(server.url)
                    placeholder = page.locator("flt-semantics-placeholder")
                    placeholder.wait_for(state="attached", timeout=120_000)
                    placeholder.dispatch_event("click")
                    page.locator('[flt-semantics-identifier="new-flanders_1302"]').wait_for(timeout=120_000)
                    figures[visit].append((time.perf_counter() - start, received[0]))
                    context.close()
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    for visit, target in (("first", "<= 3.5 s"), ("repeat", "<= 1.5 s, <= 0.5 MB")):
        times = [t for t, _ in figures[visit]]
        sizes = [b for _, b in figures[visit]]
        print(f"load ({visit} visit, 20 Mbit/s, 40 ms): home screen after median {statistics.median(times):.2f} s "
              f"(runs: {', '.join(f'{t:.2f}' for t in times)}), {statistics.median(sizes) / 1e6:.2f} MB transferred "
              f"(target {target})", flush=True)


def _proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _proc_rss(pid: int) -> float:
    """Resident memory of the process, MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _stored(folder: Path, sid: str) -> dict:
    """A game's configuration and log as its files hold it now, read without a Store (which tidies
    the folder: it would delete the running server's temp file under its feet)."""
    for _ in range(10):
        try:
            data = stored_game(folder, sid)
            docs = data.get("log", {})
            return {"config": data["meta"]["1"]["config"], "log": [docs[k] for k in sorted(docs, key=int)]}
        except (OSError, ValueError):  # replaced just then: read again
            time.sleep(0.05)
    raise RuntimeError(f"cannot read the game {sid}")


def _table_ws_round(base: str, route: str, cookie: str, colours: list[str], rate: int, seconds: int,
                    settled) -> dict:
    """`len(colours)` simulated phones on one game, each tapping its colour's meeple + / − `rate` times a
    second for `seconds`; then, until `settled()` (the stored log stops growing), every phone stays
    connected. Returns the taps sent, when each phone was shown each count and when each update reached
    it, and the phones' sessions on the server."""
    import asyncio

    from tests.phone import Phone

    async def run() -> dict:
        phones = [await Phone(base, route, cookie, name=f"phone-{i}").connect() for i in range(len(colours))]
        seen: list[list[tuple[float, str, str]]] = [[] for _ in phones]
        arrivals: list[list[float]] = [[] for _ in phones]
        last: list[dict] = [{} for _ in phones]
        for i, phone in enumerate(phones):
            for colour in set(colours):
                await phone.wait_for(f"meeples-{colour}")

            def shown(phone, i=i):
                now = time.time()
                arrivals[i].append(now)
                for ident, value in phone.texts("meeples-").items():
                    colour = ident.removeprefix("meeples-")
                    if last[i].get(colour) != value:
                        last[i][colour] = value
                        seen[i].append((now, colour, value))
            shown(phone)
            phone.on_patch = shown
        sent = [0] * len(phones)

        async def tapping(i: int) -> None:
            plus, start = True, time.monotonic()
            for k in range(rate * seconds):
                await asyncio.sleep(max(0.0, start + k / rate - time.monotonic()))
                if await phones[i].tap(f"meeple-{colours[i]}-{'plus' if plus else 'minus'}"):
                    sent[i] += 1
                    plus = not plus

        await asyncio.gather(*(tapping(i) for i in range(len(phones))))
        ended = time.monotonic()
        while not settled() and time.monotonic() - ended < 120:  # taps still queued on the server land
            await asyncio.sleep(0.5)
        drained = time.monotonic() - ended
        await asyncio.sleep(2)  # ... and their news reaches every phone
        dropped = [p.dropped for p in phones if p.dropped]
        for phone in phones:
            await phone.close()
        return {"sent": sum(sent), "seen": seen, "arrivals": arrivals, "tabs": [p.session_id for p in phones],
                "crashed": [p.crashed for p in phones if p.crashed],
                "dropped": dropped, "drained": drained}

    return asyncio.run(run())


def _draws(text: str, sid: str) -> dict[str, tuple[list[int], list[float]]]:
    """What the server's tabs sent their phones of the game `sid` (its `companion.draws` log lines):
    per tab, the versions shown (no undo is made here: each version is one more action) and when, in order."""
    draws: dict[str, tuple[list[int], list[float]]] = {}
    for match in re.finditer(r"drew (\S+) at ([\d.]+): game (\w+), version (\d+)", text):
        if match[3] == sid:
            lengths, times = draws.setdefault(match[1], ([], []))
            lengths.append(int(match[4]))
            times.append(float(match[2]))
    return draws


def _churn(base: str, route: str, cookie: str, count: int, together: int = 10) -> float:
    """`count` phones that open the game and leave (`together` at a time); seconds it took."""
    import asyncio

    from tests.phone import Phone

    failed = []

    async def run() -> None:
        queue = iter(range(count))

        async def worker() -> None:
            for i in queue:
                phone = Phone(base, route, cookie, name=f"visitor-{i}")
                try:
                    await phone.connect(60)
                except Exception as error:  # noqa: BLE001 - counted and reported
                    failed.append(repr(error))
                await phone.close()

        await asyncio.gather(*(worker() for _ in range(together)))

    start = time.monotonic()
    asyncio.run(run())
    if failed:
        print(f"  {len(failed)} of {count} phones could not open the game ({failed[0]})", flush=True)
    return time.monotonic() - start


def bench_table_ws(phones: int = 6, rate: int = 10, seconds: int = 60, churn: int = 500) -> None:
    """Table mode on the server alone: simulated phones on the app's websocket protocol (tests/phone.py).
    Each round plays a game of its own, both made before the server starts (the same log length at
    the start: a tap's cost grows with the log the store rewrites, which is not what is compared)."""
    from companion.engine import flow
    from tests.browser.conftest import Server
    from tests.phone import join_cookie

    game = GAMES["carcassonne"]
    colours = [("red", "green", "blue", "yellow", "black")[i % 5] for i in range(phones)]
    folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    store = Store(folder / "data")
    store.set_setting("language", "en")
    config = game.new_config({"start": 0, "players": [{"colour": c, "name": c.title()}
                                                      for c in ("red", "green", "blue", "yellow", "black")]})
    games = [store.create_session(game.id, config) for _ in range(2)]
    for sid in games:
        store.record(sid, {"type": "begin", "args": {}})
    del store
    server = Server(folder / "data", lan=True)
    os.environ["COMPANION_LOG_LEVEL"] = "info"  # the server logs each refusal (counted, not guessed) and each draw
    try:
        server.start()
        base = f"http://127.0.0.1:{server.port}"
        cookie = join_cookie(base + "/join/" + server.join.rsplit("/", 1)[1])
        pid = server.proc.pid
        rounds = []
        for label, sid in (("first", games[0]), ("after churn", games[1])):
            route = f"/game/{sid}"
            if label == "after churn":
                took = _churn(base, f"/game/{games[0]}", cookie, churn)
                print(f"  {churn} phones opened the game and left in {took:.0f} s; server memory "
                      f"{_proc_rss(pid):.0f} MB", flush=True)
            refused_before = server.log.read_text().count("refused")
            lengths = []

            def settled() -> bool:  # called only in this iteration
                lengths.append(len(_stored(folder / "data", sid)["log"]))  # noqa: B023
                return len(lengths) > 6 and lengths[-1] == lengths[-6]  # noqa: B023

            cpu = _proc_cpu(pid)
            result = _table_ws_round(base, route, cookie, colours, rate, seconds, settled)
            cpu = _proc_cpu(pid) - cpu
            log = _stored(folder / "data", sid)["log"][1:]
            recorded = len(log)
            refused = server.log.read_text().count("refused") - refused_before
            state = flow.replay(game, config, [{"type": "begin", "args": {}}])
            draws = _draws(server.log.read_text(), sid)
            delays, received, missed = [], [], 0
            for place, action in enumerate(log, start=2):  # the game's log: "begin", then the taps
                state = flow.apply(game, config, state, action)
                for i, tab in enumerate(result["tabs"]):
                    if colours[i] == action["args"]["player"]:
                        continue  # the phones that tap this count are not the "other" phones
                    lengths, times = draws.get(tab, ([], []))
                    first = bisect.bisect_left(lengths, place)  # the first draw that shows this action
                    if first == len(lengths):
                        missed += 1
                        continue
                    delays.append(times[first] - action["at"])
                    # ... and reached the phone: the first update to arrive after that draw, before the next
                    # one; none came when the draw changed nothing on that screen (the phone showed it already)
                    arrivals, drawn = result["arrivals"][i], times[first]
                    reached = bisect.bisect_left(arrivals, drawn)
                    following = times[first + 1] if first + 1 < len(times) else float("inf")
                    received.append((arrivals[reached] if reached < len(arrivals) and arrivals[reached] < following
                                     else drawn) - action["at"])
            final = {c: f"{state['meeples'][c]} / 7" for c in set(colours)}
            agree = sum(all(next((text for _t, c, text in reversed(events) if c == colour), None) == final[colour]
                            for colour in final) for events in result["seen"])
            delays.sort()
            received.sort()
            p95 = delays[int(0.95 * (len(delays) - 1))] if delays else float("nan")
            p95_received = received[int(0.95 * (len(received) - 1))] if received else float("nan")
            rss = _proc_rss(pid)
            rounds.append({"cpu": cpu / max(recorded, 1), "rss": rss})
            print(f"table-ws ({label}): {phones} phones x {rate} taps/s x {seconds} s on one game: "
                  f"{result['sent']} taps sent, {recorded} recorded, {refused} refused, "
                  f"{result['sent'] - recorded - refused} lost (the last tap recorded {result['drained']:.0f} s "
                  f"after the last sent); {agree} of {phones} phones end on the server's state; "
                  f"saved -> update sent to every other phone: median {statistics.median(delays) * 1000:.0f} ms, "
                  f"95th percentile {p95 * 1000:.0f} ms over {len(delays)} updates ({missed} never sent); "
                  f"received by the phone: median {statistics.median(received) * 1000:.0f} ms, 95th percentile "
                  f"{p95_received * 1000:.0f} ms; server CPU {cpu / max(recorded, 1) * 1000:.1f} ms per "
                  f"tap, memory {rss:.0f} MB" + (f"; crashed: {result['crashed']}" if result["crashed"] else "")
                  + (f"; {len(result['dropped'])} phones dropped by the server ({result['dropped'][0]})"
                     if result["dropped"] else ""), flush=True)
        first, again = rounds
        print(f"table-ws: after {churn} phones came and went, CPU per tap x{again['cpu'] / first['cpu']:.2f}, "
              f"server memory x{again['rss'] / first['rss']:.2f} (targets: within 1.5x)")
    finally:
        os.environ.pop("COMPANION_LOG_LEVEL", None)
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)

COMMANDS = ("record", "score", "web", "history", "replay", "load", "table", "table-ws", "taps", "fuzz")


def unknown(chosen: list[str]) -> list[str]:
    """The benchmark names in `chosen` that are none of COMMANDS (a name may carry its :options)."""
    return [name for name in chosen if name.partition(":")[0] not in COMMANDS]


if __name__ == "__main__":
    os.chdir(ROOT)
    chosen = sys.argv[1:] or ["record", "score", "web"]
    if chosen[0] in ("-h", "--help", "help") or (chosen[0] != "fuzz" and unknown(chosen)):
        wrong = [] if chosen[0] in ("-h", "--help", "help") else unknown(chosen)
        print(__doc__)
        if wrong:
            print(f"unknown benchmark: {', '.join(wrong)} (the commands: {', '.join(COMMANDS)})", file=sys.stderr)
        raise SystemExit(2 if wrong else 0)
    if chosen[0] == "fuzz":  # fuzz --games N [...]: its options are its own (bench/fuzz.py)
        import fuzz  # bench/fuzz.py, beside this file
        fuzz.main(chosen[1:])
        chosen = []
    for name in chosen:
        if name.startswith("taps"):  # taps, or taps:FLOW,FLOW
            import taps  # bench/taps.py, beside this file
            taps.run([f for f in name.partition(":")[2].split(",") if f])
        elif name.startswith("table-ws"):  # table-ws[:SECONDS[:TAPS_PER_SECOND[:CHURN]]]
            seconds, rate, churn = (name.split(":")[1:] + ["", "", ""])[:3]
            bench_table_ws(seconds=int(seconds or 60), rate=int(rate or 10), churn=int(churn or 500))
        elif name.startswith("table"):  # table, table:SECONDS, or table:SECONDS:TAPS_PER_SECOND
            seconds, _, rate = name.partition(":")[2].partition(":")
            bench_table(seconds=int(seconds or 60), rate=int(rate or 10))
        else:
            {"record": bench_record, "score": bench_score, "web": bench_web, "history": bench_history,
             "replay": bench_replay, "load": bench_load}[name]()
