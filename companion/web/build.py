"""`companion build-web OUT_DIR`: the whole app as a static folder that runs in the phone's browser.

No server process: any static host serves the folder over HTTPS; the browser runs our Python code
with Pyodide (shipped in the `flet-web` wheel, Python 3.14) and keeps the games in IndexedDB (see
companion/web/browser.py). Everything comes from the installed packages: the build never uses
the network, and two builds of the same sources are byte for byte the same.

The folder:
- Flet's web client in its two builds: Dart compiled to WebAssembly with the skwasm renderer, which
  Chromium loads (it starts sooner on a phone: docs/phone-alone.md), and Dart compiled to JavaScript
  with the full canvaskit renderer for Firefox and Safari; pruned to those (no other renderer, no
  source maps, no fonts or scripts of controls the app does not use), its text font replaced by
  Roboto with the symbols it lacks and a box for every other character (fonts.py: no request for a
  fallback font), and Rive's runtime, which it would load from a CDN, pointed at a stub;
- `index.html` patched with `flet_web.patch_index_html` (Pyodide, no CDN, hash routes, so a reload
  of `#/game/<id>` works on any static host) and then made relative (`./`), so the folder works at
  any path of a host; Flet's loading screen replaced by ours (the app's icon, name and a progress
  line in the phone's language); Flutter's own service worker is switched off in
  `flutter_bootstrap.js` (it caches nothing, unregisters itself and reloads every tab);
- `sw.js`, our service worker, with every file's digest and a version that is a hash of all of
  them: it keeps each file the app fetches as it passes, once, so the app starts offline after the
  first visit; `page.js` registers it, then starts Python and Flutter side by side;
- `manifest.json` (name, icons, black theme) and the icons, drawn at build time (icons.py);
- `app.tar`: `main.py` (the browser entry), `companion/`, `data/`, the Czech catalogue compiled to
  `.mo`, and under `__pypackages__/` pure-Python copies of flet (without `testing`), msgpack (its
  pure-Python fallback), repath, six and tinydb. It holds no `requirements.txt` or
  `pyproject.toml`: Flet's worker would then ask micropip, which goes to the network. Every module
  is there as bytecode, compiled by Pyodide's own Python run under node.js (compile.mjs), since
  Python loads only bytecode of its own version; Pyodide's standard library is shipped compiled
  too, which halves Pyodide's own start. (Tracebacks in the browser then name files and lines but
  show no source.) Without node.js both are sources, which the browser compiles at every start.
- the big files packed with Zstandard (PACKED: the WebAssembly programs, the standard library, the
  app), as `<name>.zst` in place of `<name>`: a first visit downloads 8.5 MB instead of the 10.6 MB a
  host's gzip makes of them. The service worker (sw.js) unpacks each as it streams in, hands it on and
  keeps it unpacked; without one (a page that is not secure) the page and its Python worker unpack
  what they fetch themselves (page.js, worker.js). The decoder is ours, in plain JavaScript (zstd.js).
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import shutil
import subprocess
import tarfile
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import zstandard

from .. import i18n, texts
from ..flet_internals import FLET_VERSION
from ..engine.model import N_
from .fonts import icon_font, text_font
from .icons import icons

PACKAGE = Path(__file__).resolve().parent
COMPANION = PACKAGE.parent
ARCHIVE = "app.tar"
ENTRY = "main.py"
SERVICE_WORKER = "sw.js"
DECODER = "zstd.js"  # Zstandard's decoder (PACKED below), written into sw.js; the page and its worker import it without one
WORKER = "worker.js"
#: What the Python worker's snapshot depends on besides the worker itself (worker.js): Pyodide, its
#: standard library and the app.
PYTHON = ("pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip",
          ARCHIVE)
MARKER = "// companion's service worker"  # the first line of sw.js: OUT_DIR holds an earlier build
MTIME = 1577836800  # every file in the archive is dated 2020-01-01: the same sources, the same bytes
BACKGROUND = "#000000"
#: What the browser fetches only when the app asks for it, not at every start, so the service worker
#: does not keep it beforehand (sw.js's ON_DEMAND): the web client's two builds (each browser loads
#: one, below), the licence text, the manifest's icons (the browser fetches the one it installs
#: itself, not always through the service worker: kept beforehand too, it was downloaded twice),
#: and the decoder, which the service worker imports itself and a page asks for only without one.
ON_DEMAND = ("main.dart.", "canvaskit/", "assets/NOTICES", "icons/", DECODER)
#: The web client's build Chromium loads (Flutter's loader picks it where WebAssembly GC and WebGL
#: are there): Dart compiled to WebAssembly, drawn by the skwasm renderer. Firefox and Safari get
#: Dart compiled to JavaScript, drawn by the full canvaskit renderer.
WASM_BUILD = ("main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm.js", "canvaskit/skwasm.wasm")
#: The files the folder holds packed with Zstandard, as `<name>.zst`: everything big that the browser
#: fetches (not main.dart.js, which Flutter's loader loads with a <script>, where nothing could unpack it).
PACKED = ("main.dart.wasm", "canvaskit/skwasm.wasm", "canvaskit/canvaskit.wasm", "pyodide/pyodide.asm.wasm",
          "pyodide/python_stdlib.zip", ARCHIVE)
PACKED_LEVEL = 19  # 22 packs the WebAssembly no smaller and takes longer
LOADING = N_("Loading the app… {percent} %")
PREPARING = N_("Preparing the rules… {percent} %")
#: The start screen, shown from the page's first moment until the app's home screen is drawn:
#: the app's icon, its name and a progress line (page.js fills in the texts in the phone's language).
START_SCREEN = f"""<div id="companion-start" role="status">
    <style>
      #companion-start {{
        position: fixed; inset: 0; z-index: 10; display: flex; flex-direction: column; gap: 20px;
        align-items: center; justify-content: center; padding: 24px; background: {BACKGROUND};
        color: #ffffff; font-family: Roboto, system-ui, sans-serif; text-align: center;
      }}
      #companion-start img {{ width: 112px; height: 112px; }}
      #companion-start h1 {{ margin: 0; font-size: 26px; font-weight: 600; }}
      #companion-start p {{ margin: 0; font-size: 17px; color: #cccccc; font-variant-numeric: tabular-nums; }}
    </style>
    <img src="%ICON%" alt="">
    <h1 id="companion-name"></h1>
    <p id="companion-progress" aria-live="polite"></p>
  </div>
  <script src="page.js"></script>
"""

#: What the browser loads from Flet's web client: its two builds (WASM_BUILD for Chromium; for
#: other browsers Dart compiled to JavaScript and the full canvaskit renderer), the fonts the app
#: draws with, the wake-lock script and Pyodide without its node.js and micropip parts.
CLIENT_FILES = (
    "index.html", "flutter_bootstrap.js", *WASM_BUILD, "main.dart.js", "python.js",
    "manifest.json",
    "canvaskit/canvaskit.js", "canvaskit/canvaskit.wasm",
    "assets/AssetManifest.bin", "assets/AssetManifest.bin.json", "assets/FontManifest.json", "assets/NOTICES",
    "assets/fonts/MaterialIcons-Regular.otf", "assets/fonts/roboto.woff2",
    "assets/shaders/ink_sparkle.frag", "assets/shaders/stretch_effect.frag",
    "assets/packages/wakelock_plus/assets/no_sleep.js",
    "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip",
)
TEXT_FONT = "assets/fonts/roboto.woff2"
ICON_FONT = "assets/fonts/MaterialIcons-Regular.otf"
KATEX = "assets/packages/flutter_math_fork/lib/katex_fonts/fonts/KaTeX_Main-Regular.ttf"
#: Fonts Flutter loads at start-up; the others in Flet's FontManifest (KaTeX, Cupertino icons)
#: belong to controls the app does not use.
FONTS = ("MaterialIcons",)

#: Pure-Python dependencies copied into the archive from the installed packages, and what of them
#: the browser never imports.
VENDORED = ("flet", "msgpack", "repath", "six", "tinydb")
LEFT_OUT = ("flet/testing/", "flet/fastapi/", "flet/cli.py", "flet/pytest_plugin.py")
#: Our modules the browser does not run: the command line, the server, this builder, its icons and font.
OURS_LEFT_OUT = ("companion/cli.py", "companion/__main__.py", "companion/server.py", "companion/web/build.py",
                 "companion/web/icons.py", "companion/web/fonts.py")

MAIN = '''"""The browser entry of companion's static build (companion/web/browser.py)."""
from companion.web.browser import run

run()
'''


class BuildError(Exception):
    """The folder cannot be built (nothing is half-done silently: the message says what to do)."""


@dataclass
class Built:
    folder: Path
    files: int
    size: int           # bytes, the whole folder
    archive: int        # bytes, app.tar.zst
    version: str        # the service worker's cache version
    bytecode: bool      # the archive carries compiled modules (node.js was found)
    seconds: float


def build(out_dir: str | Path) -> Built:
    """Write the static app into `out_dir` (empty, missing, or an earlier build, which is replaced)."""
    started = time.monotonic()
    import flet_web

    web = Path(flet_web.get_package_web_dir())
    final = Path(out_dir)
    _check_target(final)
    out = final.with_name(f".{final.name}.building")  # a failed build leaves OUT_DIR as it was
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in CLIENT_FILES:
        source = web / name
        if not source.is_file():
            raise BuildError(f"{source} is missing: is flet-web {FLET_VERSION} installed?")
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    # Roboto with the symbols it lacks and a box for every other character, the icons the app draws (fonts.py)
    (out / TEXT_FONT).write_bytes(text_font((web / TEXT_FONT).read_bytes(), (web / KATEX).read_bytes())[0])
    try:
        (out / ICON_FONT).write_bytes(icon_font((web / ICON_FONT).read_bytes(), app_icons()))
    except ValueError as error:
        raise BuildError(f"{ICON_FONT}: {error}") from None
    for name, data in icons().items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    pyodide = json.loads((web / "pyodide" / "package.json").read_text(encoding="utf-8"))["version"]
    _patch_index(out / "index.html", pyodide)
    _patch_bootstrap(out / "flutter_bootstrap.js")
    _patch_main(out)
    _patch_fonts(out / "assets" / "FontManifest.json")
    _patch_manifest(out / "manifest.json")
    files = app_files()
    compiled = bytecode(files, web / "pyodide", out / "pyodide" / "python_stdlib.zip")
    if compiled:  # the bytecode instead of the sources: a smaller archive, unpacked and imported sooner
        files = {name: data for name, data in files.items() if not name.endswith(".py")} | compiled
    (out / ARCHIVE).write_bytes(archive(files))
    _write_worker(out, web / "pyodide" / "pyodide-lock.json")
    shutil.copyfile(PACKAGE / DECODER, out / DECODER)
    packed = _pack(out)
    _write_page(out)
    version = _write_service_worker(out, packed)
    if final.exists():
        shutil.rmtree(final)
    out.rename(final)
    written = [p for p in final.rglob("*") if p.is_file()]
    return Built(final, len(written), sum(p.stat().st_size for p in written), (final / f"{ARCHIVE}.zst").stat().st_size,
                 version, bool(compiled), time.monotonic() - started)


def _check_target(out: Path) -> None:
    """`out` may be missing, empty or an earlier build (replaced); anything else is refused."""
    if out.exists() and not out.is_dir():
        raise BuildError(f"{out} is a file, not a folder")
    if out.is_dir() and any(out.iterdir()):
        worker = out / SERVICE_WORKER
        if not (worker.is_file() and worker.read_text(encoding="utf-8", errors="replace").startswith(MARKER)):
            raise BuildError(f"{out} is not empty and holds no earlier build of companion: choose an empty folder")


def _replace_once(text: str, old: str, new: str, where: str) -> str:
    if text.count(old) != 1:
        raise BuildError(f"{where}: expected {old!r} once (is this flet-web {FLET_VERSION}?)")
    return text.replace(old, new)


def _names() -> tuple[str, str]:
    """The app's name in Czech and English (the UI's own string), and its description."""
    czech = i18n.translations("cs")
    name = czech.gettext("Table companion")
    return f"{name} · Table companion", czech.gettext(
        "Set up, play and score board games together: the rules at hand, every score explained.")


def _patch_index(path: Path, pyodide_version: str) -> None:
    from flet.controls.types import RouteUrlStrategy, WebRenderer
    from flet_web import patch_index_html

    name, description = _names()
    patch_index_html(str(path), base_href="", app_name=name, app_description=description, pyodide=True,
                     pyodide_script_path=ENTRY, pyodide_version=pyodide_version, app_package_url=ARCHIVE,
                     web_renderer=WebRenderer.AUTO, route_url_strategy=RouteUrlStrategy.HASH, no_cdn=True)
    html = path.read_text(encoding="utf-8")
    # Relative to the page, so the folder works wherever it is served. Flet 1.0.5 writes the Pyodide
    # URL as a bare "pyodide/..." that the module worker cannot resolve: it must start with "./".
    for old, new in (('<base href="/">', '<base href="./">'),
                     ('flet.pyodideUrl="pyodide/pyodide.mjs";', 'flet.pyodideUrl="./pyodide/pyodide.mjs";'),
                     ('flet.canvasKitBaseUrl="/canvaskit/";', 'flet.canvasKitBaseUrl="canvaskit/";'),
                     ('flet.entrypointBaseUrl="/";', 'flet.entrypointBaseUrl="./";'),
                     ('flet.assetBase="/";', 'flet.assetBase="./";'),
                     ("<html>", '<html lang="en">'),  # page.js sets the phone's language at once
                     ("</head>", f'  <meta name="theme-color" content="{BACKGROUND}">\n</head>')):
        html = _replace_once(html, old, new, path.name)
    # Flet's loading screen (its logo on black) and Flutter's start give way to ours; page.js
    # starts Flutter once the service worker is ready.
    # The icon is in the page itself: drawn with the first paint, without a request.
    icon = "data:image/png;base64," + base64.b64encode(icons()["icons/icon-192.png"]).decode()
    html, found = re.subn(r'<div id="loading".*?</div>\s*<script src="flutter_bootstrap.js" async></script>\n',
                          lambda _: START_SCREEN.replace("%ICON%", icon), html, flags=re.S)
    if found != 1:
        raise BuildError(f"{path.name}: Flet's loading screen not found (is this flet-web {FLET_VERSION}?)")
    path.write_text(html, encoding="utf-8")


def _write_page(out: Path) -> None:
    """page.js with the start screen's texts in both languages, the bytes a start downloads (the
    files the app fetches at every start: all but the on-demand ones, Chromium's renderer among them)
    and the names of the packed files."""
    texts = {lang: {"name": translations.gettext("Table companion"), "loading": translations.gettext(LOADING),
                    "preparing": translations.gettext(PREPARING)}
             for lang in ("cs", "en") for translations in (i18n.translations(lang),)}
    start = sum(p.stat().st_size for p in out.rglob("*") if p.is_file() and _at_start(p.relative_to(out).as_posix()))
    script = (PACKAGE / "page.js").read_text(encoding="utf-8")
    script = script.replace('"%TEXTS%"', json.dumps(texts, ensure_ascii=False)).replace('"%START_BYTES%"', str(start))
    script = script.replace('"%PACKED%"', json.dumps(PACKED))
    (out / "page.js").write_text(script, encoding="utf-8")


def _write_worker(out: Path, lock_file: Path) -> None:
    """worker.js with Pyodide's lock file without its packages (the app loads none: nothing is asked
    for) and the key of Python's snapshot: a hash of the worker and of what Python runs."""
    script = (PACKAGE / WORKER).read_text(encoding="utf-8")
    key = hashlib.sha256(script.encode())
    for name in PYTHON:
        key.update(hashlib.sha256((out / name).read_bytes()).digest())
    lock = {"info": json.loads(lock_file.read_text(encoding="utf-8"))["info"], "packages": {}}
    script = script.replace('"%LOCK_FILE%"', json.dumps(lock)).replace("%SNAPSHOT_KEY%", key.hexdigest()[:16])
    (out / WORKER).write_text(script, encoding="utf-8")


def _at_start(name: str) -> bool:
    name = name.removesuffix(".zst")
    return name in WASM_BUILD or not name.startswith(ON_DEMAND)


def _patch_bootstrap(path: Path) -> None:
    """Switch off Flutter's service worker: ours (sw.js) is the only one. Flutter's loader takes the
    WebAssembly build only where it would load skwasm (shipped), not skwasm_heavy (not shipped:
    Chromium on a page that is not secure, which has no ImageDecoder); a browser that cannot run
    it draws with the full canvaskit (Chromium's own variant is not shipped either)."""
    script = path.read_text(encoding="utf-8")
    patched, found = re.subn(r"\n\s*serviceWorkerSettings:\s*\{[^{}]*\},", "", script)
    if found != 1:
        raise BuildError(f"{path.name}: Flutter's serviceWorkerSettings not found (is this flet-web {FLET_VERSION}?)")
    patched = _replace_once(patched, "assetBase: flet.assetBase\n", 'assetBase: flet.assetBase,\n    canvasKitVariant: "full",\n'
                            '    wasmAllowList: { blink: typeof ImageDecoder !== "undefined" }\n',
                            path.name)
    # The build chosen, told to the page at once (page.js compiles its WebAssembly in a worker).
    patched = _replace_once(patched, "u=a.builds.find(l);", "u=a.builds.find(l);globalThis.companionClient?.(u);",
                            path.name)
    path.write_text(patched, encoding="utf-8")


#: Flet's client loads Rive's runtime (for Rive animations, which the app does not use) from a CDN
#: at every start, as `<script src=CDN + "wasm/rive_native.js">`, and waits for it; the app may ask
#: no other host. The build points it at a script in a data: URL whose runtime never finishes
#: loading: Rive then waits, as it did when the CDN could not be reached, without a request. In the
#: WebAssembly build the address is a string of the module's own, replaced by one of the same length.
RIVE_CDN = "https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/"
RIVE_STUB = "data:text/javascript,self.RiveNative=()=>new Promise(()=>0);//".ljust(len(RIVE_CDN), "/")


#: The Dart program (dart2wasm) imports each of its 39,000 strings as a global of the module "" named
#: by the string itself, which its loader (main.dart.mjs) answers at instantiation with a Proxy, one
#: import at a time. Compiled with them as imported string constants (JS String Builtins), the engine
#: makes them when it compiles the module: in a traced reload the page's main thread, which the
#: phone's slow CPU holds back, was busy 1.0-1.5 s less (tried in turn with and without it).
DART_BUILTINS = "const builtins = {builtins: ['js-string']};"
DART_CONSTANTS = "const builtins = {builtins: ['js-string'], importedStringConstants: ''};"


def _patch_main(folder: Path) -> None:
    loader = folder / "main.dart.mjs"
    text = loader.read_text(encoding="utf-8")
    if text.count(DART_BUILTINS) != 2:
        raise BuildError(f"{loader.name}: expected the compile options twice (is this flet-web {FLET_VERSION}?)")
    loader.write_text(text.replace(DART_BUILTINS, DART_CONSTANTS), encoding="utf-8")
    script = folder / "main.dart.js"
    script.write_text(_replace_once(script.read_text(encoding="utf-8"), f'"{RIVE_CDN}"', f'"{RIVE_STUB}"', script.name),
                      encoding="utf-8")
    module = folder / "main.dart.wasm"
    data = module.read_bytes()
    if data.count(RIVE_CDN.encode()) != 1:
        raise BuildError(f"{module.name}: expected Rive's address once (is this flet-web {FLET_VERSION}?)")
    module.write_bytes(data.replace(RIVE_CDN.encode(), RIVE_STUB.encode()))


def _patch_fonts(path: Path) -> None:
    from flet_web import patch_font_manifest_json

    fonts = [font for font in json.loads(path.read_text(encoding="utf-8")) if font["family"] in FONTS]
    path.write_text(json.dumps(fonts, indent=2), encoding="utf-8")
    patch_font_manifest_json(str(path))  # adds the Roboto the web client ships


def _patch_manifest(path: Path) -> None:
    from flet_web import patch_manifest_json

    name, description = _names()
    patch_manifest_json(str(path), app_name=name, app_short_name=i18n.translations("cs").gettext("Table companion"),
                        app_description=description, background_color=BACKGROUND, theme_color=BACKGROUND)


def _python_files(folder: Path, prefix: str, left_out: tuple[str, ...]) -> dict[str, bytes]:
    """A package's modules and its JSON data (Flet's icon tables), by their names in the archive."""
    found = {}
    for path in sorted(folder.rglob("*")):
        name = f"{prefix}{path.relative_to(folder).as_posix()}"
        if path.suffix in (".py", ".json") and "__pycache__" not in name and not name.startswith(left_out):
            found[name] = path.read_bytes()
    return found


def _named(pattern: str, sources: dict[str, bytes]) -> set[str]:
    return {name for data in sources.values() for name in re.findall(pattern, data.decode("utf-8"))}


def app_icons() -> set[str]:
    """The Flet icons the app names (`ft.Icons.CHECK`), in any of its modules."""
    return _named(r"\bft\.Icons\.([A-Z0-9_]+)", {p.name: p.read_bytes() for p in COMPANION.rglob("*.py")})


#: Flet's tables of icon names (8,600 Material icons, 1,300 Cupertino ones): Flet reads a name's
#: number from them when the name is first used.
ICON_TABLES = {"__pypackages__/flet/controls/material/icons.json": r"\bIcons\.([A-Z0-9_]+)",
               "__pypackages__/flet/controls/cupertino/cupertino_icons.json": r"\bCupertinoIcons\.([A-Z0-9_]+)"}


def _icon_tables(files: dict[str, bytes]) -> None:
    """Flet's icon tables cut down to the names the app's and Flet's own modules use."""
    sources = {name: data for name, data in files.items() if name.endswith(".py")}
    for table, pattern in ICON_TABLES.items():
        used = _named(pattern, sources)
        files[table] = json.dumps({k: v for k, v in json.loads(files[table]).items() if k in used},
                                  separators=(",", ":")).encode()


def app_files() -> dict[str, bytes]:
    """Every file of the app archive by its name in it."""
    import importlib.util

    files = {ENTRY: MAIN.encode()}
    files.update(_python_files(COMPANION, "companion/", OURS_LEFT_OUT))
    for path in texts.data_files():
        files[f"data/{path.name}"] = path.read_bytes()
    files[f"data/{texts.COMPILED.name}"] = texts.compiled()
    for po in sorted(i18n.LOCALES_DIR.glob(f"*/LC_MESSAGES/{i18n.DOMAIN}.po")):
        lang = po.parent.parent.name
        files[f"locales/{lang}/LC_MESSAGES/{i18n.DOMAIN}.mo"] = i18n.compile_po(po, lang)
    for module in VENDORED:
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            raise BuildError(f"the package {module} is not installed (run tools/venv.sh)")
        origin = Path(spec.origin)
        if spec.submodule_search_locations:  # a package: its folder
            files.update(_python_files(origin.parent, f"__pypackages__/{module}/",
                                       tuple(f"__pypackages__/{name}" for name in LEFT_OUT)))
        else:
            files[f"__pypackages__/{origin.name}"] = origin.read_bytes()
    _icon_tables(files)
    return files


def _node() -> str | None:
    """node.js (18 or newer, as Pyodide needs), if it is installed."""
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        return None
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout
        return node if int(version.strip().lstrip("v").split(".")[0]) >= 18 else None
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


def bytecode(files: dict[str, bytes], pyodide: Path, stdlib: Path) -> dict[str, bytes]:
    """`<name>.pyc` for every `<name>.py` in `files`, and Pyodide's standard library written to
    `stdlib` as bytecode, compiled by Pyodide's Python under node.js; nothing (and `stdlib` left
    as it is) when node.js is not installed."""
    node = _node()
    if node is None:
        return {}
    with tempfile.TemporaryDirectory(prefix="companion-build-") as folder:
        root = Path(folder)
        for name, data in files.items():
            if name.endswith(".py"):
                (root / name).parent.mkdir(parents=True, exist_ok=True)
                (root / name).write_bytes(data)
        done = subprocess.run([node, str(PACKAGE / "compile.mjs"), str(pyodide), folder, str(stdlib)],
                              capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            raise BuildError(f"compiling the modules with Pyodide under node.js failed: {done.stderr[-2000:]}")
        return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*.pyc"))}


def archive(files: dict[str, bytes]) -> bytes:
    """A tar of `files` with nothing that depends on when or where it was made (packed by `_pack`)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name in sorted(files):
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(files[name]), MTIME, 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(files[name]))
    return buffer.getvalue()


def _integrity(data: bytes) -> str:
    """A digest as Subresource Integrity writes it."""
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


def _pack(out: Path) -> dict[str, str]:
    """Each of PACKED replaced by `<name>.zst` (Zstandard, with the unpacked size in its header);
    each one's unpacked digest, which the service worker checks a copy kept by an older build against."""
    def pack(name: str) -> str:
        data = (out / name).read_bytes()
        packer = zstandard.ZstdCompressor(level=PACKED_LEVEL, write_checksum=False, write_content_size=True)
        (out / f"{name}.zst").write_bytes(packer.compress(data))
        (out / name).unlink()
        return _integrity(data)

    with ThreadPoolExecutor() as pool:  # one file per thread: the same bytes as one after the other
        return dict(zip(PACKED, pool.map(pack, PACKED)))


def _write_service_worker(out: Path, packed: dict[str, str]) -> str:
    """sw.js with every file's digest (as Subresource Integrity writes it) and size, and a version
    that changes whenever any file does, this worker too (a new worker keeping its files under the
    old one's name would download them all again). A packed file is listed as the folder holds it
    (`<name>.zst`: the digest and size of what the host sends); `packed` maps its own name to the
    digest of the file unpacked."""
    names = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    script = (PACKAGE / SERVICE_WORKER).read_text(encoding="utf-8")
    digest = hashlib.sha256(script.encode())
    files: dict[str, tuple[str, int]] = {}
    for name in names:
        data = (out / name).read_bytes()
        files[name] = (_integrity(data), len(data))
        digest.update(name.encode() + b"\0" + files[name][0].encode())
    version = digest.hexdigest()[:16]
    script = script.replace('"%VERSION%"', json.dumps(version)).replace("%FILES%", json.dumps(files, indent=0))
    script = script.replace("%ON_DEMAND%", json.dumps(ON_DEMAND)).replace("%WASM_BUILD%", json.dumps(WASM_BUILD))
    script = script.replace("%PACKED%", json.dumps(packed, indent=0)).replace("%AHEAD%", json.dumps(PYTHON))
    script = script.replace("%DECODER%", (PACKAGE / DECODER).read_text(encoding="utf-8"))
    (out / SERVICE_WORKER).write_text(script, encoding="utf-8")
    return version
