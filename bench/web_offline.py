"""Start-up of the phone-alone build (`companion build-web`), README "The phone alone".

    python bench/web_offline.py [RUNS]     (default 3)

Builds the static folder, serves it on loopback (python -m http.server) and opens it in headless
Chromium at 390×844 with every other host blocked:
- cold: a fresh browser profile (empty cache, no service worker), page opened → home screen shown;
- warm: the same profile once the service worker has cached the build, the static server stopped
  (network off), the page reloaded → home screen shown.
Each run also says where the time went, from the page's console: Flutter running ("Flutter app
loaded"), Pyodide running (Flet's worker prints the module name), the app archive unpacked; the
rest is our Python starting (imports, IndexedDB, the store) and the first screen drawn.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.web.build import build  # noqa: E402
from tests.browser.test_offline import OFFLINE_ARGS, StaticServer, cached_files, offline_context, show_home  # noqa: E402

MILESTONES = (("flutter", "Flutter app loaded"), ("pyodide", "python_module_name:"),
              ("unpacked", "Adding __pypackages__ to sys.path"))


def timed_start(page, start) -> dict[str, float]:
    """Open (or reload) the page, wait for the home screen; seconds to each milestone."""
    seen: dict[str, float] = {}

    def note(message) -> None:
        for key, text in MILESTONES:
            if key not in seen and message.text.startswith(text):
                seen[key] = time.perf_counter() - began
    page.on("console", note)
    began = time.perf_counter()
    start()
    show_home(page)
    seen["home"] = time.perf_counter() - began
    page.remove_listener("console", note)
    return seen


def line(name: str, runs: list[dict[str, float]]) -> str:
    parts = [f"{key} {statistics.median(r[key] for r in runs):.2f} s" for key, _ in (*MILESTONES, ("home", ""))
             if all(key in r for r in runs)]
    homes = ", ".join(f"{r['home']:.2f}" for r in runs)
    return (f"{name}: home screen median {statistics.median(r['home'] for r in runs):.2f} s (runs: {homes}); "
            f"milestones (median): {', '.join(parts)}")


def main(runs: int) -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM

    with tempfile.TemporaryDirectory(prefix="companion-bench-") as folder:
        built = build(Path(folder) / "site")
        print(f"folder: {built.files} files, {built.size / 1e6:.1f} MB; app.tar.zst {built.archive / 1e6:.2f} MB; "
              f"bytecode: {'yes' if built.bytecode else 'no (node.js not found)'}; built in {built.seconds:.1f} s")
        cold, warm = [], []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=OFFLINE_ARGS)
            for _ in range(runs):
                server = StaticServer(built.folder).start()
                try:
                    context = offline_context(browser, server)
                    page = context.new_page()
                    cold.append(timed_start(page, lambda: page.goto(server.url)))  # noqa: B023 - called at once
                    cached_files(page)
                finally:
                    server.stop()
                for _ in range(2):
                    warm.append(timed_start(page, page.reload))
                context.close()
            browser.close()
    print(line("cold (first visit, empty cache)", cold))
    print(line("warm (reload, served by the service worker, static server stopped)", warm))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
