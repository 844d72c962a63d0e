"""Benchmarks for the figures the foundation promises (README, "Benchmarks").

    python bench/bench.py [record] [score] [web]

- record: median time of one tap (ViewModel.dispatch: engine, atomic write: tap → persisted) in a game in
  progress, with 10 and with 10,000 finished games stored; their ratio must stay <= 1.5.
- score:  whole-process time of `companion score flanders-1302` on the public example (target <= 0.3 s).
- web:    server start to the first interactive screen in headless Chromium (Playwright).
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


def bench_record() -> None:
    small, large = record(10), record(10_000)
    print(f"record one action, median: {small * 1000:.2f} ms with 10 finished games, "
          f"{large * 1000:.2f} ms with 10,000; ratio {large / small:.2f} (must be <= 1.5)")


def bench_score(runs: int = 20) -> None:
    example = next((ROOT.parent / "shared" / "examples").glob("flanders-1302.*.input.json"))
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "companion", "score", "flanders-1302", str(example)], cwd=ROOT,
                       check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    print(f"companion score flanders-1302, whole process: median {statistics.median(times):.3f} s, "
          f"max {max(times):.3f} s over {runs} runs (target <= 0.3 s)")


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


if __name__ == "__main__":
    os.chdir(ROOT)
    chosen = sys.argv[1:] or ["record", "score", "web"]
    for name in chosen:
        {"record": bench_record, "score": bench_score, "web": bench_web}[name]()
