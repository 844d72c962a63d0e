"""The phone alone on a mid-range phone (README "Putting it on a phone"): first visit, reload,
offline reload, a cold start from the home-screen icon, and the bytes a first visit costs.

    python bench/phone.py [RUNS] [--folder SITE [--folder SITE2 ...]]

Without --folder it builds the app once and measures that (default 3 runs). With several folders
(an old build and a new one) the runs take them in turn, A B A B ..., so that the load of a shared
machine falls on both alike; it prints each run, the load average before it, and the medians per
folder.

The phone: headless Chromium at 360×740, device pixel ratio 3, touch, the page's CPU slowed ×4
(DevTools' Emulation.setCPUThrottlingRate) and its network set to 20 Mbit/s down, 5 Mbit/s up and
40 ms (DevTools' Network.emulateNetworkConditions). DevTools sets both on the page only, not on the
page's Python worker nor on its service worker, which make almost all the requests; so the static
host (tests/static_host.py --phone, on 127.0.0.1, gzip as common hosts do) also sends as that link
does: 40 ms late and 20 Mbit/s for all of its responses together. (The few requests the page makes
before its service worker runs, about 100 kB, pass both.) Every other host is blocked.
- first visit: a fresh profile, the page opened → the home screen; then how long until the app is
  ready offline (the service worker has what it needs); the bytes are everything the host sent
  until then;
- reload: the page reloaded with the host up → the home screen;
- offline reload: the host stopped, the page reloaded → the home screen;
- cold start: the browser closed and started again with the host stopped, the app opened (the
  start of a game night, from the icon) → the home screen.

Each run also prints where each start's time went (the page's and the Python worker's moments,
page.js `companion.marks`: the service worker ready, the worker started, Python restored from its
snapshot or started and its imports done, Flutter connected, Python ready, the home screen) and
the CPU seconds the browser used for it (all its processes: on a shared machine the CPU a start
needs varies less than its time).
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.test_offline import OFFLINE_ARGS, StaticServer, show_home  # noqa: E402

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 3, "is_mobile": True,
         "has_touch": True}
CPU_SLOWDOWN = 4
#: The mobile link (Network.emulateNetworkConditions: bytes a second, milliseconds).
NETWORK = {"offline": False, "downloadThroughput": 20e6 / 8, "uploadThroughput": 5e6 / 8, "latency": 40}
QUIET = 2.0


def as_phone(page) -> None:
    """The page's CPU slowed and its network made a mobile link, by DevTools."""
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", NETWORK)


def cpu_seconds(profile: Path) -> float:
    """CPU seconds used so far by the Chromium of `profile` and every process it started."""
    tick = os.sysconf("SC_CLK_TCK")
    parent, used, roots = {}, {}, set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue  # gone meanwhile
        pid = int(entry.name)
        parent[pid], used[pid] = int(fields[1]), (int(fields[11]) + int(fields[12])) / tick
        if str(profile).encode() in command:
            roots.add(pid)
    members = set(roots)
    for _ in range(10):  # the browser's children, theirs, ...
        members |= {pid for pid, ppid in parent.items() if ppid in members}
    return sum(used[pid] for pid in members)


def timed(page, start, profile: Path, timeline: list[str]) -> float:
    """Seconds from `start()` to the home screen; its moments and CPU go to `timeline`."""
    cpu = cpu_seconds(profile)
    began = time.perf_counter()
    start()
    show_home(page)
    took = time.perf_counter() - began
    marks = page.evaluate("typeof companion === 'undefined' ? [] : companion.marks || []")
    timeline.append(" · ".join(f"{name} {at / 1000:.2f}" for name, at in marks)
                    + f" · home {took:.2f} (CPU {cpu_seconds(profile) - cpu:.1f} s)")
    return took


def offline_ready(page) -> None:
    """Wait until the service worker has what the app needs offline (it says so; an earlier build,
    which precached every file it lists, when they are all in its cache)."""
    page.evaluate("""async () => {
        if (typeof companion !== "undefined") return await companion.offline;
        await navigator.serviceWorker.ready;
        const listed = (await (await fetch('sw.js')).text()).match(/const FILES = (\\[[^\\]]*\\])/)[1];
        for (let i = 0; i < 3000; i++) {
            for (const name of await caches.keys()) {
                if ((await (await caches.open(name)).keys()).length >= JSON.parse(listed).length) return;
            }
            await new Promise((resolve) => setTimeout(resolve, 100));
        }
    }""")


def quiet(server: StaticServer) -> int:
    """Wait until the host has sent nothing for QUIET seconds; the bytes it sent."""
    last, since = None, time.monotonic()
    while time.monotonic() - since < QUIET:
        now = server.requests()
        if now != last:
            last, since = now, time.monotonic()
        time.sleep(0.5)
    return sum(sent for _path, _status, sent in last)


def run(playwright, folder: Path, profile: Path, timeline: list[str]) -> dict[str, float]:
    from tests.browser.conftest import CHROMIUM

    def launch(server):
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=OFFLINE_ARGS, headless=True, **PHONE)
        page = context.pages[0]
        as_phone(page)
        return context, page

    server = StaticServer(folder, phone=True).start()
    figures = {}
    try:
        context, page = launch(server)
        figures["first visit"] = timed(page, lambda: page.goto(server.url), profile, timeline)
        home_bytes = sum(sent for _path, _status, sent in server.requests())
        began = time.perf_counter()
        offline_ready(page)
        figures["offline-ready after"] = time.perf_counter() - began
        figures["MB"] = quiet(server) / 1e6
        figures["MB at home"] = home_bytes / 1e6
        figures["reload"] = timed(page, page.reload, profile, timeline)
    finally:
        server.stop()
    figures["offline reload"] = timed(page, page.reload, profile, timeline)
    context.close()
    context, page = launch(server)
    figures["cold start"] = timed(page, lambda: page.goto(server.url), profile, timeline)
    context.close()
    return figures


def load() -> float:
    """The machine's load average over the last minute."""
    return float(Path("/proc/loadavg").read_text().split()[0])


def main(argv: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    runs = int(argv[0]) if argv and argv[0].isdigit() else 3
    with tempfile.TemporaryDirectory(prefix="companion-phone-") as temp:
        folders = [Path(argv[i + 1]) for i, arg in enumerate(argv) if arg == "--folder"]
        if not folders:
            from companion.web.build import build

            built = build(Path(temp) / "site")
            folders = [built.folder]
            print(f"folder: {built.files} files, {built.size / 1e6:.1f} MB, built in {built.seconds:.1f} s")
        results: dict[Path, list[dict[str, float]]] = {folder: [] for folder in folders}
        with sync_playwright() as playwright:
            for number in range(runs):
                for folder in folders:
                    before = load()
                    timeline: list[str] = []
                    results[folder].append(run(playwright, folder, Path(temp) / f"profile-{number}-{folders.index(folder)}",
                                               timeline))
                    print(f"{folder} run {number + 1} (load {before:.1f}): "
                          + ", ".join(f"{key} {value:.2f}" for key, value in results[folder][-1].items()), flush=True)
                    for start, line in zip(("first visit", "reload", "offline reload", "cold start"), timeline):
                        print(f"    {start}: {line}")
    for folder, figures in results.items():
        print(f"{folder} median of {len(figures)}: " + ", ".join(
            f"{key} {statistics.median(r[key] for r in figures):.2f}" + ("" if key.startswith("MB") else " s")
            for key in figures[0]))


if __name__ == "__main__":
    main(sys.argv[1:])
