"""The phone alone without a browser: `companion build-web` (no network, the same bytes twice, no
dependency file in the archive, an app that imports without Babel or site-packages), the browser
entry's lock and IndexedDB mount against stand-ins, and the store on a folder that is synced the
way IDBFS syncs it."""
from __future__ import annotations

import asyncio
import base64
import dataclasses
import gettext
import hashlib
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path
from types import SimpleNamespace

import flet as ft
import pytest
import zstandard

from companion import exchange, i18n, texts
from companion.storage import journal
from companion.store import Store
from companion.ui.viewmodel import ViewModel
from companion.web import browser
from companion.web.build import ARCHIVE, DART_CONSTANTS, PACKED, SERVICE_WORKER, BuildError, app_files, build
from tests.conftest import ROOT

NO_NETWORK = """
import socket, sys
def refuse(*args, **kwargs):
    raise OSError("the network is blocked in this test")
socket.socket.connect = socket.socket.connect_ex = refuse
socket.create_connection = socket.getaddrinfo = refuse
from companion.cli import main
sys.exit(main(["build-web", sys.argv[1]]))
"""
FORM = {"variant": "standard", "start": 0, "empty_city": "ypres", "players": [
    {"colour": "blue", "name": "Anna"}, {"colour": "yellow", "name": "Bořek"}, {"colour": "green", "name": "Cyril"}]}


def _without_network() -> list[str]:
    """A network namespace of its own (nothing at all can connect) where the system allows one."""
    try:
        if subprocess.run(["unshare", "-rn", "true"], capture_output=True, timeout=30).returncode == 0:
            return ["unshare", "-rn"]
    except (OSError, subprocess.SubprocessError):
        pass
    return []


@pytest.fixture(scope="module")
def builds(tmp_path_factory, web_build) -> tuple[Path, Path]:
    """Two builds: the first by the command with the network blocked, the second in-process (the run's
    shared one, conftest's `web_build`)."""
    root = tmp_path_factory.mktemp("builds")
    done = subprocess.run([*_without_network(), sys.executable, "-c", NO_NETWORK, str(root / "first")], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"built {root / 'first'}: ")
    return root / "first", web_build


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _unpacked(site: Path, name: str) -> bytes:
    """A file the folder holds packed (`<name>.zst`), unpacked."""
    return zstandard.ZstdDecompressor().decompress((site / f"{name}.zst").read_bytes())


def _members(site: Path) -> dict[str, bytes]:
    with tarfile.open(fileobj=io.BytesIO(_unpacked(site, ARCHIVE))) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers()}


def test_two_builds_without_network_are_byte_for_byte_the_same(builds):
    first, second = builds
    assert _tree(first) == _tree(second)
    # 44 MB: the web client in two builds (WebAssembly and skwasm for Chromium, JavaScript and canvaskit
    # for Firefox and Safari); a phone downloads one (issue 37: about 10.6 MB on a first visit)
    assert sum(len(data) for data in _tree(first).values()) <= 45_000_000


def test_the_archive_holds_no_dependency_file_and_no_babel(builds):
    names = {n.removesuffix("c") for n in _members(builds[0])}  # a module is its .py or its .pyc
    assert not {n for n in names if n.rsplit("/", 1)[-1] in ("requirements.txt", "pyproject.toml", "setup.py")}
    assert {"main.py", "companion/web/browser.py", "locales/cs/LC_MESSAGES/companion.mo",
            "data/flanders_1302.toml", "data/texts.json", "__pypackages__/tinydb/__init__.py", "__pypackages__/msgpack/fallback.py",
            "__pypackages__/repath.py", "__pypackages__/six.py", "__pypackages__/flet/controls/material/icons.json"
            } <= names
    assert _members(builds[0])["data/texts.json"] == texts.compiled()  # read by the first start (store.py)
    assert not [n for n in names if n.startswith(("__pypackages__/babel", "__pypackages__/flet/testing/"))
                or n.endswith((".so", ".po")) or n == "companion/server.py"]


def test_every_module_is_bytecode_of_pyodide_s_python(builds):
    """Compiled by Pyodide's own Python (3.14: it loads no other bytecode), the standard library too."""
    if not shutil.which("node"):
        pytest.skip("node.js is not installed: the build carries sources")
    members = _members(builds[0])
    assert [n for n in members if n.endswith(".py")] == []
    magic = members["companion/store.pyc"][:8]
    assert magic[:2] == (3627).to_bytes(2, "little") and struct.unpack("<I", magic[4:8])[0] == 0b01  # 3.14
    with zipfile.ZipFile(io.BytesIO(_unpacked(builds[0], "pyodide/python_stdlib.zip"))) as stdlib:
        names = stdlib.namelist()
        assert "asyncio/__init__.pyc" in names and not [n for n in names if n.endswith(".py")]
        assert stdlib.read("json/__init__.pyc")[:8] == magic


def test_the_entry_imports_every_flet_name_the_app_uses_and_no_other():
    used = {name for path in (ROOT / "companion").rglob("*.py")
            for name in re.findall(r"\bft\.([A-Z][A-Za-z]+)", path.read_text(encoding="utf-8"))}
    assert set(browser.FLET_NAMES) == used
    assert all(hasattr(ft, name) for name in browser.FLET_NAMES)


def test_the_app_imports_from_what_the_archive_holds(tmp_path):
    """No site-packages, no Babel: the vendored packages and the compiled catalogue are enough (the
    archive's modules are these, compiled for Pyodide's Python)."""
    for name, data in app_files().items():
        (tmp_path / "app" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "app" / name).write_bytes(data)
    script = f"""
import sys
import time
sys.path[:0] = [{str(tmp_path / 'app')!r}, {str(tmp_path / 'app' / '__pypackages__')!r}]
import companion.web.browser, companion.ui.app
from companion.store import Store
from companion.ui.viewmodel import ViewModel
from companion.i18n import translations
vm = ViewModel(Store({str(tmp_path / 'data')!r}))
assert vm.new_game("flanders_1302", {FORM!r}) and vm.dispatch("tick", item="board", done=True)
print(translations("cs").gettext("New game"), sorted(m for m in sys.modules if m.split(".")[0] in ("babel", "site")))
"""
    done = subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Nová hra []"


def test_the_page_runs_python_from_the_folder_with_hash_routes_and_our_service_worker(builds):
    site = builds[0]
    index = (site / "index.html").read_text(encoding="utf-8")
    for setting in ('flet.pyodide = true;', 'flet.routeUrlStrategy="hash";', 'flet.pyodideUrl="./pyodide/pyodide.mjs";',
                    'flet.noCdn=true;', 'flet.webRenderer="auto";', '<base href="./">', 'flet.assetBase="./";',
                    '<script src="page.js"></script>', 'flet.appPackageUrl = "app.tar";'):
        assert setting in index
    config, loading = (site / "flutter_bootstrap.js").read_text(encoding="utf-8").split("_flutter.loader.load(", 1)
    assert "serviceWorker" not in loading  # Flutter's own service worker is not registered
    # The WebAssembly build where skwasm (shipped) runs; elsewhere the full canvaskit (shipped)
    assert 'canvasKitVariant: "full"' in config and 'wasmAllowList: { blink: typeof ImageDecoder' in config
    worker = (site / SERVICE_WORKER).read_text(encoding="utf-8")
    listed = json.loads(worker.split("const FILES = ", 1)[1].split(";", 1)[0])
    tree = _tree(site)
    assert sorted(listed) == sorted(n for n in tree if n != SERVICE_WORKER)
    for name, (integrity, size) in listed.items():  # each file's digest, as Subresource Integrity writes it
        assert integrity == "sha256-" + base64.b64encode(hashlib.sha256(tree[name]).digest()).decode()
        assert size == len(tree[name])
    # the Dart program's strings compiled as imported string constants
    assert tree["main.dart.mjs"].count(b"importedStringConstants: ''") == 2
    # Flutter's loader tells the page its build, which compiles the Dart program in a worker with the
    # options main.dart.mjs compiles it with (else the page compiles it itself)
    assert "u=a.builds.find(l);globalThis.companionClient?.(u);" in config
    page = tree["page.js"].decode()
    options = page.split('"main.dart.wasm": ', 1)[1].split("},", 1)[0] + "}"
    assert options.replace('"', "'").replace("{ ", "{").replace(" }", "}") in DART_CONSTANTS
    # Rive's runtime: no other host, in either build
    assert b"cdn.jsdelivr.net" not in tree["main.dart.js"] and b"cdn.jsdelivr.net" not in _unpacked(site, "main.dart.wasm")
    assert {"main.dart.js", "main.dart.wasm.zst", "canvaskit/canvaskit.wasm.zst", "canvaskit/skwasm.wasm.zst"} <= set(listed)
    # the big files packed, each only so; the service worker knows each one's digest unpacked
    packed = json.loads(worker.split("const PACKED = ", 1)[1].split(";", 1)[0])
    assert sorted(packed) == sorted(PACKED) and not set(PACKED) & set(tree)
    for name, integrity in packed.items():
        assert integrity == "sha256-" + base64.b64encode(hashlib.sha256(_unpacked(site, name)).digest()).decode()
    assert json.loads(page.split("const COMPANION_PACKED = ", 1)[1].split(";", 1)[0]) == list(PACKED)
    assert not [n for n in listed if n.endswith((".symbols", ".map", ".whl")) or n.startswith("canvaskit/chromium/")
                or "skwasm_heavy" in n or "wimp" in n]
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["short_name"] == "Pomocník u stolu" and manifest["theme_color"] == "#000000"
    for icon in manifest["icons"]:
        png = (site / icon["src"]).read_bytes()
        width, height = struct.unpack(">II", png[16:24])
        assert png.startswith(b"\x89PNG") and f"{width}x{height}" == icon["sizes"]


def test_the_icon_font_holds_the_icons_the_app_and_flutter_draw_and_no_others(builds):
    from fontTools.ttLib import TTFont
    import flet_web

    from companion.web.build import ICON_FONT, app_icons
    from companion.web.fonts import FRAMEWORK_ICONS

    full = TTFont(Path(flet_web.get_package_web_dir()) / ICON_FONT).getBestCmap()
    code = {glyph: point for point, glyph in full.items()}
    names = {name.lower() for name in app_icons()} | set(FRAMEWORK_ICONS)
    wanted = {code[name if name.endswith("_outlined") else f"{name}_baseline"] for name in names}
    assert {"check", "backspace_outlined", "expand_more"} <= names
    assert set(TTFont(builds[0] / ICON_FONT).getBestCmap()) == wanted
    assert (builds[0] / ICON_FONT).stat().st_size < 20_000  # flet-web's: 1.3 MB
    table = json.loads(_members(builds[0])["__pypackages__/flet/controls/material/icons.json"])
    assert app_icons() <= set(table) and len(table) < 200  # Flet's: 8,600 names


def test_a_folder_that_is_no_build_is_never_overwritten(tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "companion", "build-web", str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("error: ") and "Traceback" not in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    with pytest.raises(BuildError):
        build(tmp_path / "notes.txt")


# -- the browser entry against stand-ins ----------------------------------------------------------------


class IndexedDB:
    """A stand-in for Pyodide's FS with IDBFS mounted: the mounted folder is the page's memory (gone
    after a reload); `syncfs` copies it from (populate) or to IndexedDB (`self.kept`), whole, and
    answers later, as the browser does."""

    filesystems = SimpleNamespace(IDBFS="IDBFS")

    def __init__(self, kept: Path):
        self.kept, self.mounted = kept, None
        self.kept.mkdir(parents=True, exist_ok=True)

    def mkdirTree(self, path: str) -> None:  # noqa: N802 - Emscripten's name
        Path(path).mkdir(parents=True, exist_ok=True)

    def mount(self, kind, options, path: str) -> None:
        assert kind == "IDBFS" and options == {"autoPersist": True}
        self.mounted = Path(path)

    def syncfs(self, populate: bool, callback) -> None:
        source, target = (self.kept, self.mounted) if populate else (self.mounted, self.kept)
        shutil.rmtree(target)
        shutil.copytree(source, target)
        asyncio.get_running_loop().call_later(0.01, callback, None)

    def reload(self) -> None:
        """The page is reloaded: its memory is gone, IndexedDB stays."""
        shutil.rmtree(self.mounted)
        self.mounted = None


def once(function):
    return function


def test_the_store_resumes_from_indexeddb_after_a_reload(tmp_path):
    folder = str(tmp_path / "page")

    async def visit(idb: IndexedDB) -> ViewModel:
        opening = browser.open_store(_granted(), browser.mount(idb, folder, {"autoPersist": True}, once), folder)
        return ViewModel(await opening)

    async def scenario():
        idb = IndexedDB(tmp_path / "indexeddb")
        vm = await visit(idb)
        assert vm.new_game("flanders_1302", FORM) and vm.dispatch("tick", item="board", done=True)
        await browser.sync(idb, False, once)  # what autoPersist does after each write
        idb.reload()

        vm = await visit(idb)  # the Store is opened only once IndexedDB's files are in the folder
        [entry] = vm.in_progress()
        assert vm.open(entry["id"]) and vm.state["ticks"] == ["board"]
        assert vm.undo() and vm.state["ticks"] == []
        await browser.sync(idb, False, once)
        idb.reload()
        vm = await visit(idb)
        assert vm.open(entry["id"]) and vm.session["log"] == []

    asyncio.run(scenario())


def test_a_sync_in_the_middle_of_a_write_keeps_the_last_whole_state(tmp_path, monkeypatch):
    """IDBFS copies whatever the folder holds when it syncs: with the store's atomic writes that is the
    previous file or the next one, never half of one (the temp file is cleared on the next start).
    Here the sync falls in a fold of the journal into the game's file: the tap is in the journal."""
    folder = str(tmp_path / "page")
    idb = IndexedDB(tmp_path / "indexeddb")
    real_replace = os.replace
    monkeypatch.setattr(journal, "FOLD_AT", 1)  # every tap folds the journal into the file

    async def scenario():
        vm = ViewModel(await browser.open_store(_granted(), browser.mount(idb, folder, {"autoPersist": True}, once),
                                                folder))
        assert vm.new_game("flanders_1302", FORM)
        await browser.sync(idb, False, once)
        sid = vm.session["id"]

        def replace_after_a_sync(source, target):
            shutil.rmtree(idb.kept)
            shutil.copytree(idb.mounted, idb.kept)  # the temp file is written, not yet in place
            real_replace(source, target)
        monkeypatch.setattr(os, "replace", replace_after_a_sync)
        assert vm.dispatch("tick", item="board", done=True)
        monkeypatch.setattr(os, "replace", real_replace)
        assert list(idb.kept.rglob(".*.tmp"))
        idb.reload()

        vm = ViewModel(await browser.open_store(_granted(), browser.mount(idb, folder, {"autoPersist": True}, once),
                                                folder))
        assert vm.open(sid) and vm.state["ticks"] == ["board"] and not list(Path(folder).rglob(".*.tmp"))

    asyncio.run(scenario())


def test_a_sync_in_the_middle_of_a_journal_line_drops_only_that_tap(tmp_path, monkeypatch):
    """A sync that copies half of a tap's journal line: after the reload that tap is not there (it was
    never acknowledged), the ones before are, and the next tap is recorded after them."""
    folder = str(tmp_path / "page")
    idb = IndexedDB(tmp_path / "indexeddb")
    real_write = os.write

    async def scenario():
        vm = ViewModel(await browser.open_store(_granted(), browser.mount(idb, folder, {"autoPersist": True}, once),
                                                folder))
        assert vm.new_game("flanders_1302", FORM) and vm.dispatch("tick", item="board", done=True)
        sid = vm.session["id"]

        def write_half_then_sync(fd, data):
            monkeypatch.setattr(os, "write", real_write)  # only this once
            half = real_write(fd, bytes(data[:len(data) // 2]))
            shutil.rmtree(idb.kept)
            shutil.copytree(idb.mounted, idb.kept)
            return half
        monkeypatch.setattr(os, "write", write_half_then_sync)
        assert vm.dispatch("tick", item="supply", done=True)
        idb.reload()

        vm = ViewModel(await browser.open_store(_granted(), browser.mount(idb, folder, {"autoPersist": True}, once),
                                                folder))
        assert vm.open(sid) and vm.state["ticks"] == ["board"] and vm.store.notices == []
        assert vm.dispatch("tick", item="supply", done=True)
        assert ViewModel(Store(folder)).open(sid)
        assert [a["args"]["item"] for a in Store(folder).load(sid)["log"]] == ["board", "supply"]

    asyncio.run(scenario())


def test_a_browser_without_indexeddb_is_told_so(tmp_path):
    class Refusing(IndexedDB):
        def syncfs(self, populate, callback):
            asyncio.get_running_loop().call_soon(callback, "QuotaExceededError")

    async def scenario():
        with pytest.raises(OSError, match="QuotaExceededError"):
            await browser.open_store(_granted(), browser.mount(Refusing(tmp_path / "idb"), str(tmp_path / "page"),
                                                               {"autoPersist": True}, once), str(tmp_path / "page"))
    asyncio.run(scenario())


def _granted() -> asyncio.Future:
    done = asyncio.get_running_loop().create_future()
    done.set_result(True)
    return done


class Promise:
    def __init__(self):
        self.rejected = None

    def catch(self, callback):
        self.rejected = callback
        return self


class Locks:
    """A stand-in for navigator.locks: one holder; `ifAvailable` answers at once (null when taken), a
    request with a signal is refused when the wait is over (`timeout`) unless the holder let go."""

    def __init__(self):
        self.holder, self.waiting = None, []

    def request(self, name, options, callback):
        promise = Promise()
        loop = asyncio.get_running_loop()
        if self.holder is None:
            self.holder = callback
            loop.call_soon(callback, SimpleNamespace(name=name))
        elif options.get("ifAvailable"):
            loop.call_soon(callback, None)
        else:
            self.waiting.append(callback)
            loop.call_later(0.05, lambda: callback in self.waiting and (self.waiting.remove(callback),
                                                                       promise.rejected("AbortError")))
        return promise

    def close(self) -> None:
        """The holder's page is closed: the first one waiting gets the lock."""
        self.holder = self.waiting.pop(0) if self.waiting else None
        if self.holder:
            self.holder(SimpleNamespace(name=browser.LOCK))


def _tab(locks: Locks) -> SimpleNamespace:
    return SimpleNamespace(locks=locks, callback=once, at_once=lambda: {"ifAvailable": True},
                           waiting=lambda: {"signal": "3 s"})


def test_one_tab_holds_the_lock_a_second_is_refused_and_a_reload_waits_for_it():
    async def scenario():
        locks = Locks()
        assert await browser.lock(_tab(locks))
        assert not await browser.lock(_tab(locks))            # another tab: refused after the wait
        reloaded = asyncio.ensure_future(browser.lock(_tab(locks)))
        await asyncio.sleep(0.01)
        locks.close()                                          # the old page lets go a moment later
        assert await reloaded

    asyncio.run(scenario())


def test_a_browser_without_web_locks_still_runs_the_app():
    async def scenario():
        assert await browser.lock(_tab(None))
    asyncio.run(scenario())


# -- the compiled catalogue and the view-model's browser side -----------------------------------------------


def test_the_compiled_catalogue_is_loaded_where_there_is_no_po(tmp_path, monkeypatch):
    po = i18n.LOCALES_DIR / "cs" / "LC_MESSAGES" / "companion.po"
    folder = tmp_path / "cs" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "companion.mo").write_bytes(i18n.compile_po(po, "cs"))
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        assert i18n.translations("cs").gettext("New game") == "Nová hra"
        assert i18n.translations("cs").ngettext("{n} point", "{n} points", 3) == "{n} body"
        shutil.copyfile(po, folder / "companion.po")  # beside the .po (the server), a stale .mo is ignored
        stale = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(po, "cs")))
        (folder / "companion.mo").write_bytes(b"not a catalogue")
        i18n.translations.cache_clear()
        assert i18n.translations("cs").gettext("New game") == stale.gettext("New game")
    finally:
        i18n.translations.cache_clear()


def test_the_browser_saves_the_same_files_the_server_sends(tmp_path):
    vm = ViewModel(Store(tmp_path / "data"))
    assert vm.new_game("flanders_1302", FORM)
    name, blob = vm.export_file("games.json")
    assert name.startswith("companion-") and name.endswith("-games.json")
    assert blob.decode("utf-8") == exchange.export_json(vm.store)
    assert vm.export_file("games.csv")[1].decode("utf-8") == exchange.export_csv(vm.store)
    name, blob = vm.export_file("backup.zip")
    assert name.endswith("-backup.zip") and blob.startswith(b"PK")
    (tmp_path / "data" / "companion.json").write_text("{broken", encoding="utf-8")
    assert vm.export_file("backup.zip") is None and "cannot be read" in vm.problem.text


def test_a_restore_in_the_browser_names_no_folder_the_phone_cannot_reach(tmp_path):
    vm = ViewModel(Store(tmp_path / "data"))
    assert vm.new_game("flanders_1302", FORM)
    saved = vm.export_file("backup.zip")[1]
    vm.browser = True
    assert vm.restore_backup(saved)
    assert vm.notice == vm.t.n("{n} game restored", "{n} games restored", 1).format(n=1)


def _find(controls, identifier):
    """The control with the test id `identifier` (widgets.tid) anywhere in `controls`."""
    for control in controls:
        if isinstance(control, ft.Semantics) and control.identifier == identifier:
            return control.content
        for field in dataclasses.fields(control):
            value = getattr(control, field.name, None)
            found = _find([v for v in (value if isinstance(value, list) else [value])
                           if isinstance(v, ft.BaseControl)], identifier)
            if found is not None:
                return found
    return None


@pytest.mark.parametrize("name", ["games.csv", "games.json", "backup.zip"])
def test_in_the_browser_the_history_screen_saves_the_files_itself(tmp_path, monkeypatch, name):
    from companion.ui.app import Shell
    from tests.test_screens import Page

    vm = ViewModel(Store(tmp_path / "data"))
    vm.browser = True
    assert vm.new_game("flanders_1302", FORM)
    page, tasks, saved = Page(), [], {}
    page.run_task = lambda function, *args: tasks.append((function, args))
    Shell(page, vm)  # draws on every change of the view-model
    vm.home()
    vm.go("history")
    assert _find(page.controls, "downloads") is not None
    button = {"games.csv": "export-csv", "games.json": "export-json", "backup.zip": "backup"}[name]
    _find(page.controls, button).on_click(None)

    async def save_file(picker, **kwargs):
        saved.update(kwargs)
    monkeypatch.setattr(ft.FilePicker, "save_file", save_file)
    function, args = tasks[-1]
    asyncio.run(function(*args))
    assert saved["file_name"].endswith(f"-{name}")
    if name != "backup.zip":  # a backup holds its own creation time
        assert saved["src_bytes"] == vm.export_file(name)[1]
    else:
        assert saved["src_bytes"].startswith(b"PK")


class StartPage:
    """Just enough of ft.Page for the browser entry and the app's start."""

    def __init__(self):
        self.controls, self.title, self.route, self.tasks = [], "", "/", []
        self.pubsub = SimpleNamespace(subscribe=lambda handler: None, send_others=lambda message: None,
                                      unsubscribe_all=lambda: None)
        self.session = SimpleNamespace(connection=object())  # connected

    def navigate(self, route):
        self.route = route

    def update(self):
        pass

    def run_task(self, function, *args):
        self.tasks.append((function, args))


def test_the_entry_says_when_another_tab_has_the_app_and_opens_it_on_try_again(tmp_path, monkeypatch):
    folder = str(tmp_path / "page")
    monkeypatch.setattr(browser, "DATA", folder)
    idb = IndexedDB(tmp_path / "indexeddb")
    locks = Locks()
    told = []
    tab = SimpleNamespace(fs=idb, languages=["cs-CZ"], tell=told.append, persisted=None, **vars(_tab(locks)))

    async def scenario():
        assert await browser.lock(_tab(locks))              # the first tab
        opening = browser.open_store(browser.take_lock(locks, browser.LOCK, {"ifAvailable": True}, once),
                                     browser.mount(idb, folder, {"autoPersist": True}, once), folder)
        page = StartPage()
        started = asyncio.ensure_future(browser.app(tab, asyncio.ensure_future(opening))(page))
        await asyncio.sleep(0.05)
        notice = _find(page.controls, "elsewhere")
        assert notice is not None and not started.done()
        texts = [c.value for c in notice.content.controls if isinstance(c, ft.Text)]
        assert texts == [i18n.translations("cs").gettext(browser.ELSEWHERE), browser.ELSEWHERE]
        locks.close()                                         # the first tab is closed
        _find(page.controls, "try-again").on_click(None)
        await started
        (start,) = [function for function, _ in page.tasks if function.__name__ == "start"]
        await start()                                         # the first screen, once the phone said its language
        assert _find(page.controls, "new-flanders_1302") is not None
        assert told == [{"companionLang": "cs"}]              # <html lang> follows the app's language

    asyncio.run(scenario())


def test_the_entry_says_when_the_browser_keeps_no_games(tmp_path):
    async def scenario():
        failed = asyncio.get_running_loop().create_future()
        failed.set_exception(OSError("QuotaExceededError"))
        page = StartPage()
        await browser.app(SimpleNamespace(), failed)(page)
        texts = [c.value for c in _find(page.controls, "no-storage").content.controls]
        assert texts == [i18n.translations(lang).gettext(browser.NO_STORAGE).format(reason="QuotaExceededError")
                         for lang in ("cs", "en")]
    asyncio.run(scenario())


class Page:
    """A stand-in for the page around the Python worker: what it was told, and whether the browser
    keeps the site's storage (it may grant that when the page asks)."""

    def __init__(self, languages: list[str], grants: bool):
        self.told: list[dict] = []
        self.kept, self.grants = False, grants
        self.browser = SimpleNamespace(languages=languages, tell=self.hear, persisted=self.persisted)

    def hear(self, message: dict) -> None:
        self.told.append(message)
        if message.get("companionPersist") and self.grants:
            asyncio.get_running_loop().call_later(0.3, setattr, self, "kept", True)

    async def persisted(self) -> bool:
        return self.kept


async def until(predicate, timeout: float = 10) -> None:
    """Wait on the event loop until `predicate()` holds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("grants", [True, False])
def test_the_page_follows_the_language_and_is_asked_to_keep_the_games_once_there_is_one(tmp_path, monkeypatch,
                                                                                        grants):
    monkeypatch.setattr(browser, "PERSIST_WAIT", 1.0)

    async def scenario():
        page = Page(["de-DE", "cs-CZ", "en"], grants)
        vm = ViewModel(browser.PageStore(tmp_path / "data").start(page.browser))
        assert vm.lang == "cs" and page.told == [{"companionLang": "cs"}]  # the first start: the browser's language
        vm.set_language("en")
        assert page.told[-1] == {"companionLang": "en"}
        await asyncio.sleep(0.5)
        assert len(page.told) == 2 and vm.notices() == []  # no game yet: nothing asked
        assert vm.new_game("flanders_1302", FORM)
        assert vm.new_game("flanders_1302", FORM)
        await asyncio.sleep(1.5)  # the app looks at the browser's answer a while after asking
        assert page.told[2:] == [{"companionPersist": True}]  # asked once, when the first game was saved
        assert (vm.notices() == [browser.NOT_KEPT]) is not grants  # said on the home screen when refused

        page = Page(["fr-FR"], False)  # the next start: the language chosen, the games there: asked again
        vm = ViewModel(browser.PageStore(tmp_path / "data").start(page.browser))
        await until(lambda: len(page.told) >= 2)
        assert vm.lang == "en" and page.told == [{"companionLang": "en"}, {"companionPersist": True}]
        await asyncio.sleep(1.5)

    asyncio.run(scenario())


def test_a_first_start_in_a_browser_of_another_language_is_in_english(tmp_path):
    page = Page(["fr-FR", "de"], True)
    assert ViewModel(browser.PageStore(tmp_path / "data").start(page.browser)).lang == "en"


def test_the_standard_library_holds_what_the_app_can_import_and_not_the_rest(builds):
    """Trimmed for a first visit: mail, HTTP, XML, tests, debuggers and the REPL are left out."""
    if not shutil.which("node"):
        pytest.skip("node.js is not installed: Pyodide's standard library is shipped whole")
    with zipfile.ZipFile(io.BytesIO(_unpacked(builds[0], "pyodide/python_stdlib.zip"))) as stdlib:
        tops = {name.split("/")[0].removesuffix(".pyc") for name in stdlib.namelist()}
    assert {"asyncio", "json", "csv", "zipfile", "tarfile", "gzip", "gettext", "tomllib", "uuid", "_strptime",
            "encodings", "pyodide", "_pyodide", "runpy", "traceback", "urllib"} <= tops
    assert not tops & {"email", "http", "xml", "unittest", "multiprocessing", "_pyrepl", "pydoc_data", "pdb"}
    # packed: 0.9 MB (Pyodide's: 4.5 MB compiled, 2.3 MB with gzip)
    assert (builds[0] / "pyodide" / "python_stdlib.zip.zst").stat().st_size < 1_000_000


#: Under node.js, Pyodide with the built folder's own (trimmed) standard library runs the app's code:
#: every module of companion imported, a game played, exported as CSV and JSON, backed up and restored.
TRIMMED_RUN = """
import { pathToFileURL } from "node:url";
const [site, app, lock] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${site}/pyodide/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${site}/pyodide/`, lockFileContents: lock });
pyodide.FS.mkdirTree("/app");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: app }, "/app");
pyodide.runPython(`
import importlib, pkgutil, sys
sys.path[:0] = ["/app", "/app/__pypackages__"]
import companion
for module in pkgutil.walk_packages(companion.__path__, "companion."):
    if module.name != "companion.web.browser":  # it imports js, which needs a page
        importlib.import_module(module.name)
import flet, runpy, traceback, pyodide.http, urllib.parse, shutil, tarfile, gzip
from companion.store import Store
from companion.ui.viewmodel import ViewModel
from companion import backup, exchange
vm = ViewModel(Store("/tmp/data"))
assert vm.new_game("flanders_1302", FORM) and vm.dispatch("tick", item="board", done=True)
blob = backup.backup("/tmp/data")
print(len(exchange.export_csv(vm.store)) > 0, len(exchange.export_json(vm.store)) > 0,
      backup.restore("/tmp/other", blob)[0], sorted(m for m in sys.modules if m.split(".")[0] in ("email", "http")))
init = Store.__init__.__code__
print(Store.__doc__ == ".", Store.__init__.__doc__ is None, {p[0] for p in init.co_positions()} == {init.co_firstlineno})
`);
"""


def test_the_app_runs_on_the_trimmed_standard_library(builds, tmp_path):
    if not shutil.which("node"):
        pytest.skip("node.js is not installed: Pyodide's standard library is shipped whole")
    with tarfile.open(fileobj=io.BytesIO(_unpacked(builds[0], ARCHIVE))) as tar:
        tar.extractall(tmp_path / "app", filter="data")
    site = tmp_path / "site"  # Pyodide as the service worker hands it over: unpacked
    (site / "pyodide").mkdir(parents=True)
    for name in ("pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs"):
        shutil.copyfile(builds[0] / name, site / name)
    for name in ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"):
        (site / name).write_bytes(_unpacked(builds[0], name))
    script = tmp_path / "run.mjs"
    script.write_text(TRIMMED_RUN.replace("FORM)", f"{FORM!r})"), encoding="utf-8")
    # the folder ships no lock file: the worker gives Pyodide one without packages (worker.js)
    lock = re.search(r"^const LOCK_FILE = (.*);$", (builds[0] / "worker.js").read_text(encoding="utf-8"), re.M)[1]
    done = subprocess.run(["node", str(script), str(site), str(tmp_path / "app"), lock], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    # the app's bytecode: no docstrings (a class keeps ".": a dataclass would make its own),
    # every instruction of a function at the function's first line
    assert done.stdout.strip().splitlines()[-2:] == ["True True 1 []", "True True True"]


def test_a_module_that_imports_what_the_build_leaves_out_fails_the_build(tmp_path):
    if not shutil.which("node"):
        pytest.skip("node.js is not installed: Pyodide's standard library is shipped whole")
    import flet_web

    from companion.web.build import BuildError, bytecode

    pyodide = Path(flet_web.get_package_web_dir()) / "pyodide"
    with pytest.raises(BuildError, match="companion/mail.py imports email"):
        bytecode({"companion/mail.py": b"def send():\n    import email.message\n"}, pyodide, tmp_path / "stdlib.zip")
