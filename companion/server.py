"""Serving the web app: `companion serve` (plain, or table mode with --lan), the download routes
the history screen's buttons use, and the web client's files served fast to phones."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import contextlib
import gzip
import hashlib
import json
import logging
import mimetypes
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from . import table
from .flet_internals import frame_fault
from .engine.model import N_
from .i18n import LANGUAGES, translations
from .store import Store
from .ui.app import make_main

if TYPE_CHECKING:  # the server's libraries, imported where they are used
    from fastapi import FastAPI
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

#: Seconds a tab's session stays after its connection is gone: a phone back within that time finds
#: its screen as it left it; later, its address (/game/<id>) opens the game again in a new session.
#: Until then it is not redrawn (ui.app.make_main).
SESSION_TIMEOUT = 60

#: Headers flet-web adds to everything it serves (the web client needs the first two for its
#: multi-threaded renderer); the client files served here carry them too.
CLIENT_HEADERS = [(b"cross-origin-opener-policy", b"same-origin"), (b"cross-origin-embedder-policy", b"require-corp"),
                  (b"access-control-allow-origin", b"*")]

#: Versioned client files: a page names them under /_v/<version>/, so the browser may keep them.
IMMUTABLE = b"public, max-age=31536000, immutable"
#: The page and unversioned files: kept, but asked again each time (an ETag; 304 when unchanged).
REVALIDATE = b"no-cache"

#: Files worth compressing (the rest, images and woff2 fonts, are compressed already).
COMPRESSIBLE = {".js", ".mjs", ".wasm", ".json", ".html", ".otf", ".ttf", ".frag", ".bin", ".txt", ".css", ""}
#: Never loaded by the served app (debug symbols, source maps, the in-browser Python runtime).
SKIPPED = (".symbols", ".map")
BUILD = "3"  # the cache folder's layout and the page's rewriting; a new value builds a new folder
#: The fonts the app draws with (Material icons, Roboto). Flutter fetches every font its manifest lists
#: before the first frame; the client's manifest also lists its packages' fonts (KaTeX for formulas,
#: Cupertino icons), which no screen of this app uses: the manifest served lists only these.
FONTS = ("fonts/MaterialIcons-Regular.otf", "fonts/roboto.woff2")


#: What a phone shows when its connection to the server is gone (for more than LOST_AFTER ms; the
#: Flet client itself shows a white page saying "Working..."), in the phone's language.
LOST = (N_("The connection to the table is lost"),
        N_("Keep this page open: it connects again by itself as soon as it can. If it does not, check that "
           "this phone is on the same Wi-Fi or hotspot as the computer the game runs on, and that the game "
           "still runs there; then reload the page."),
        N_("Reload the page"))
LOST_AFTER = 1500


def lost_connection_script() -> str:
    """The page's script that covers it with a dark notice (LOST) while its websocket is closed: in the
    language chosen on the phone (kept by Flet's SharedPreferences in localStorage), else the first of
    the browser's languages the app speaks, else Czech. It watches every websocket the page opens,
    and takes the notice away when one opens again."""
    words = {lang: [translations(lang).gettext(message) for message in LOST] for lang in LANGUAGES}
    return ("""<script>
(function () {
  var WORDS = %s, AFTER = %d, Native = window.WebSocket, notice = null, timer = null;
  function language() {
    try {
      var chosen = JSON.parse(localStorage.getItem("flutter.companion.language") || "null");
      if (WORDS[chosen]) return chosen;
    } catch (e) {}
    var tags = navigator.languages || [navigator.language || ""];
    for (var i = 0; i < tags.length; i++) {
      var code = String(tags[i]).split("-")[0].toLowerCase();
      if (WORDS[code]) return code;
    }
    return "cs";
  }
  function show() {
    timer = null;
    var words = WORDS[language()];
    notice = document.createElement("div");
    notice.id = "companion-lost";
    notice.setAttribute("role", "alert");
    notice.style.cssText = "position:fixed;inset:0;z-index:2147483647;background:#000;color:#eee;"
      + "font:18px/1.5 sans-serif;padding:2em;overflow:auto";
    var title = document.createElement("h1"), text = document.createElement("p"), again = document.createElement("button");
    title.style.cssText = "color:#ffd54f;font-size:24px";
    again.style.cssText = "min-height:52px;padding:0 24px;font-size:18px;border-radius:26px;border:0;background:#ffd54f;color:#000";
    title.textContent = words[0]; text.textContent = words[1]; again.textContent = words[2];
    again.onclick = function () { location.reload(); };
    notice.append(title, text, again);
    document.body.appendChild(notice);
  }
  function connected() {
    if (timer) { clearTimeout(timer); timer = null; }
    if (notice) { notice.remove(); notice = null; }
  }
  function lost() { if (!timer && !notice) timer = setTimeout(show, AFTER); }
  function Watched(url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    socket.addEventListener("open", connected);
    socket.addEventListener("close", lost);
    return socket;
  }
  Watched.prototype = Native.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (k) { Watched[k] = Native[k]; });
  window.WebSocket = Watched;
})();
</script>""" % (json.dumps(words, ensure_ascii=False).replace("</", "<\\/"), LOST_AFTER))


def add_downloads(app: FastAPI, store: Store, data_dir: str) -> None:
    """/download/games.csv, games-excel-cs.csv (`;` and decimal commas), games.json and backup.zip: what `companion export` and `companion backup`
    write, for the history screen's buttons (in table mode behind the same gate as the app); and
    /download/game-<id>.json, one game's file, for a damaged game."""
    from fastapi import Response

    from . import backup, exchange

    def attachment(body: str | bytes, media: str, name: str) -> Response:
        stamp = time.strftime("%Y%m%d-%H%M")
        return Response(body, media_type=media,
                        headers={"Content-Disposition": f'attachment; filename="companion-{stamp}-{name}"'})

    app.add_api_route("/download/games.csv", lambda: attachment(exchange.export_csv(store), "text/csv; charset=utf-8",
                                                                "games.csv"))
    app.add_api_route("/download/games-excel-cs.csv", lambda: attachment(
        exchange.export_csv(store, excel_cs=True), "text/csv; charset=utf-8", "games-excel-cs.csv"))
    app.add_api_route("/download/games.json", lambda: attachment(exchange.export_json(store), "application/json",
                                                                 "games.json"))
    app.add_api_route("/download/bgstats.json", lambda: attachment(exchange.export_bgstats(store), "application/json",
                                                                   "bgstats.json"))
    app.add_api_route("/download/backup.zip", lambda: attachment(backup.backup(data_dir), "application/zip",
                                                                 "backup.zip"))

    def game_file(sid: str) -> Response:  # a damaged game's file, which the home screen offers
        try:
            return attachment(backup.game_file(data_dir, sid), "application/json", f"game-{sid}.json")
        except (OSError, ValueError, RecursionError):
            return Response(status_code=404)

    app.add_api_route("/download/game-{sid}.json", game_file)


@dataclass(frozen=True)
class ClientFile:
    path: Path               # the file as it is
    gzipped: Path | None     # its gzip-compressed copy in the cache folder (None: not worth it)
    media: bytes
    etag: str


class ClientFiles:
    """The web client (flet-web's folder) served to phones fast: in front of flet's own app, it
    answers every request for a client file and for the page.

    - Each compressible file is gzipped once into a cache folder (the first start with this client;
      never per request) and sent compressed to a browser that accepts gzip. (Brotli would save a
      little more, but browsers send it only to secure origins such as https or 127.0.0.1, not to a
      phone on http://<laptop-ip>.)
    - The page names the client's files under /_v/<version>/ (a hash of the client's files): those
      may be kept by the browser for a year; a new client has a new version, so a new address.
    - The page (any route: /, /game/<id>, ...) and unversioned files are revalidated every time:
      ETag and 304 Not Modified, a few hundred bytes instead of the file.
    Anything else (the websocket, uploads) goes on to flet's app."""

    def __init__(self, app: ASGIApp, web_dir: str | Path, cache_root: str | Path, websocket_path: str = "/ws"):
        self.app = app
        self.web = Path(web_dir)
        self.version, self.folder = _build(self.web, Path(cache_root), websocket_path)
        self.prefix = f"/_v/{self.version}/"
        self.files: dict[str, ClientFile] = {}
        for path in sorted(self.web.rglob("*")):
            rel = path.relative_to(self.web).as_posix()
            if path.is_file() and not rel.startswith("pyodide/"):
                self._add(rel, self.folder / rel if (self.folder / rel).is_file() else path)
        self.page = self.files["index.html"]

    def _add(self, rel: str, path: Path) -> None:
        gzipped = self.folder / (rel + ".gz")
        media = mimetypes.guess_type(rel)[0] or "application/octet-stream"
        if media.startswith("text/") or media in ("application/javascript", "application/json"):
            media += "; charset=utf-8"
        if rel.endswith((".mjs", ".js")):
            media = "text/javascript; charset=utf-8"
        if rel.endswith(".wasm"):
            media = "application/wasm"
        digest = hashlib.sha1(f"{self.version}/{rel}".encode()).hexdigest()[:20]
        self.files[rel] = ClientFile(path, gzipped if gzipped.is_file() else None, media.encode(), digest)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            return await self.app(scope, receive, send)
        path = scope["path"]
        cache = REVALIDATE
        if path.startswith("/_v/"):
            version, _, rel = path[4:].partition("/")
            if version == self.version:
                cache = IMMUTABLE
            found = self.files.get(rel)
        else:
            rel = path.lstrip("/")
            found = self.files.get(rel)
            if found is None and os.path.splitext(rel)[1].lower() in ("", ".html") and rel != "oauth_callback":
                found = self.page  # a route of the app (/game/<id>): the page, where the client reads it
        if found is None and path.startswith("/_v/"):
            await send({"type": "http.response.start", "status": 404, "headers": [(b"content-length", b"0")]})
            await send({"type": "http.response.body", "body": b""})
            return None
        if found is None:
            return await self.app(scope, receive, send)
        return await self._send(scope, send, found, cache)

    async def _send(self, scope: Scope, send: Send, found: ClientFile, cache: bytes) -> None:
        import anyio

        headers = dict(scope.get("headers", []))
        gzipped = found.gzipped is not None and _accepts_gzip(headers.get(b"accept-encoding", b""))
        etag = f'"{found.etag}{"-gz" if gzipped else ""}"'
        common = [(b"etag", etag.encode()), (b"cache-control", cache), *CLIENT_HEADERS]
        if found.gzipped is not None:
            common.append((b"vary", b"accept-encoding"))
        if _matches(headers.get(b"if-none-match", b""), etag):
            await send({"type": "http.response.start", "status": 304, "headers": common})
            await send({"type": "http.response.body", "body": b""})
            return
        body = await anyio.to_thread.run_sync((found.gzipped if gzipped and found.gzipped else found.path).read_bytes)
        response = [(b"content-type", found.media), (b"content-length", str(len(body)).encode()), *common]
        if gzipped:
            response.append((b"content-encoding", b"gzip"))
        await send({"type": "http.response.start", "status": 200, "headers": response})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})


class Departures:
    """In front of flet's websocket: a frame sent to a phone that is just leaving goes nowhere,
    quietly. flet-web marks a tab's session disconnected (so that it is closed after
    SESSION_TIMEOUT, and not drawn meanwhile) only when its sending ends without an error; a phone
    that left while frames were still on their way made the send raise, the session was never
    marked (it stayed, and was drawn on every save, for good) and a traceback was logged."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        gone = False

        async def send_unless_gone(message: Message) -> None:
            nonlocal gone
            if gone and message["type"] == "websocket.send":
                return
            try:
                await send(message)
            except OSError:  # the connection is closing or closed (uvicorn's ClientDisconnected is one)
                gone = True

        return await self.app(scope, receive, send_unless_gone)


#: Seconds a websocket may stay open without registering (the web client registers at once): then it
#: is closed. One that closes before registering (a phone that lost the signal while connecting, a
#: scanner) is let go at once: flet-web's handler would wait for it for good, and a stopping server
#: would wait for that handler.
REGISTER_WITHIN = 5
#: Malformed frames a phone may send before it is disconnected (each is one line in the log).
BAD_FRAMES = 3
class Arrivals:
    """In front of flet's websocket, the frames that arrive from a phone: a malformed one (`frame_fault`)
    is dropped with one line in the log, and a phone that sends `BAD_FRAMES` of them is disconnected;
    a websocket that does not register within `REGISTER_WITHIN` seconds is closed, and one that
    closes before it registers is let go (its handler cancelled) at once."""

    def __init__(self, app: ASGIApp, register_within: float = REGISTER_WITHIN, bad_frames: int = BAD_FRAMES):
        self.app, self.register_within, self.bad_frames = app, register_within, bad_frames

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        import asyncio

        client = "{}:{}".format(*(scope.get("client") or ("?", "?")))
        registered, bad, closed = asyncio.Event(), 0, False
        left = asyncio.Event()  # gone before it registered

        async def close(reason: str) -> dict[str, Any]:
            nonlocal closed
            log.warning("websocket from %s closed: %s", client, reason)
            closed = True
            with contextlib.suppress(OSError):  # gone already
                await send({"type": "websocket.close", "code": 1008})
            return {"type": "websocket.disconnect", "code": 1008}

        async def send_unless_closed(message: Message) -> None:
            if not (closed and message["type"] in ("websocket.send", "websocket.close")):
                await send(message)

        async def checked_receive() -> Message:
            nonlocal bad
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect" and not registered.is_set():
                    left.set()
                if message["type"] != "websocket.receive":
                    return message
                fault, registering = frame_fault(message, registered.is_set())
                if fault is None:
                    if registering:
                        registered.set()
                    return message
                bad += 1
                if bad >= self.bad_frames:
                    if not registered.is_set():
                        left.set()
                    return await close(f"{bad} malformed frames ({fault})")
                log.warning("a malformed frame from %s was dropped: %s", client, fault)

        handler = asyncio.ensure_future(self.app(scope, checked_receive, send_unless_closed))
        waits = {handler, asyncio.ensure_future(left.wait())}
        try:
            done, _ = await asyncio.wait(waits, timeout=self.register_within, return_when=asyncio.FIRST_COMPLETED)
            if not done and not registered.is_set():
                await close(f"it did not register within {self.register_within} s")
            elif handler in done or registered.is_set() and not left.is_set():
                return await handler
            handler.cancel()  # flet-web's handler of a websocket that never registered waits for good
            with contextlib.suppress(asyncio.CancelledError):
                await handler
        finally:
            for wait in waits:
                wait.cancel()


def _accepts_gzip(header: bytes) -> bool:
    for part in header.decode("latin-1").lower().split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            quality = params.strip().removeprefix("q=")
            try:
                return not params.strip() or float(quality) > 0
            except ValueError:
                return False
    return False


def _matches(header: bytes, etag: str) -> bool:
    tags = [t.strip().removeprefix("W/") for t in header.decode("latin-1").split(",")]
    return etag in tags or "*" in tags


def _build(web: Path, root: Path, websocket_path: str) -> tuple[str, Path]:
    """The cache folder for this client: the page (flet's page, naming the client's files under
    /_v/<version>/), flet's patched manifests and a gzip copy of each compressible file. Built once
    (in a temp folder, then renamed: a start that finds it ready reads nothing but its name)."""
    from flet_web.version import version as flet_web_version

    sources = [p for p in sorted(web.rglob("*")) if p.is_file() and not p.relative_to(web).as_posix().startswith(
        "pyodide/")]
    script = lost_connection_script()
    fingerprint = hashlib.sha1(f"{BUILD} {flet_web_version} {websocket_path}\n{script}".encode())
    for path in sources:
        st = path.stat()
        fingerprint.update(f"{path.relative_to(web).as_posix()} {st.st_size} {st.st_mtime_ns}\n".encode())
    version = fingerprint.hexdigest()[:12]
    folder = root / f"web-{version}"
    if (folder / "index.html").is_file():
        return version, folder
    root.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".web-{version}-", dir=root))
    try:
        started = time.monotonic()
        _write_manifests(web, building)
        _write_page(web, building, f"/_v/{version}/", script, websocket_path)
        _compress(web, building, sources)
        try:
            os.replace(building, folder)
        except OSError:  # another server built it meanwhile
            shutil.rmtree(building, ignore_errors=True)
        log.info("web client compressed into %s in %.1f s", folder, time.monotonic() - started)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return version, folder


def _write_manifests(web: Path, building: Path) -> None:
    """Flet's manifests, patched; the font manifest names only the fonts the client ships."""
    import flet_web

    for name in ("manifest.json", "assets/FontManifest.json"):
        (building / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(web / name, building / name)
    flet_web.patch_manifest_json(str(building / "manifest.json"))
    flet_web.patch_font_manifest_json(str(building / "assets/FontManifest.json"))
    manifest = json.loads((building / "assets/FontManifest.json").read_text(encoding="utf-8"))
    manifest = [family for family in manifest if all(font["asset"] in FONTS for font in family["fonts"])]
    (building / "assets/FontManifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def _write_page(web: Path, building: Path, prefix: str, script: str, websocket_path: str) -> None:
    """Flet's page naming the client's files under `prefix` (/_v/<version>/), with the fonts preloaded
    and the lost-connection script."""
    import flet_web
    from flet.controls.types import RouteUrlStrategy, WebRenderer

    page = (web / "index.html").read_text(encoding="utf-8")
    for name in ("python.js", "flutter_bootstrap.js", "icons/loading-animation.png"):
        page = page.replace(f'src="{name}"', f'src="{prefix}{name}"')
    preload = "".join(f'<link rel="preload" href="{prefix}assets/{font}" as="fetch" crossorigin>\n'
                      for font in FONTS)  # fetched with the renderer, not after it
    page = page.replace("<!-- fletAppConfig -->", preload + script + "\n<!-- fletAppConfig -->\n<script>\n" + "\n".join([
        f'flet.entrypointBaseUrl="{prefix}";', f'flet.assetBase="{prefix}";',
        f'flet.canvasKitBaseUrl="{prefix}canvaskit/";', f'flet.fontFallbackBaseUrl="{prefix}assets/fonts/";',
    ]) + "\n</script>")
    (building / "index.html").write_text(page, encoding="utf-8")
    flet_web.patch_index_html(str(building / "index.html"), base_href="/", websocket_endpoint_path=websocket_path,
                              web_renderer=WebRenderer.AUTO, route_url_strategy=RouteUrlStrategy.PATH,
                              no_cdn=True)


def _compress(web: Path, building: Path, sources: list[Path]) -> None:
    """A gzip copy beside each compressible file (of the patched copy where there is one) that gzip
    makes at least 10 % smaller."""
    for path in sources:
        rel = path.relative_to(web).as_posix()
        source = building / rel if (building / rel).is_file() else path
        if path.suffix.lower() not in COMPRESSIBLE or rel.endswith(SKIPPED) or source.stat().st_size < 1024:
            continue
        data = source.read_bytes()
        packed = gzip.compress(data, 9, mtime=0)
        if len(packed) < 0.9 * len(data):
            (building / (rel + ".gz")).parent.mkdir(parents=True, exist_ok=True)
            (building / (rel + ".gz")).write_bytes(packed)


def cache_root() -> Path:
    """Where the compressed web client is kept: $COMPANION_CACHE_DIR, else the user cache folder."""
    import platformdirs

    return Path(os.environ.get("COMPANION_CACHE_DIR") or platformdirs.user_cache_dir("companion", appauthor=False))


def web_app(store: Store, data_dir: str, join: str | None = None, session_timeout: int = SESSION_TIMEOUT) -> FastAPI:
    """The whole web app: the download routes, then the client's files and the page, then flet's app
    (the websocket every tab talks over)."""
    import flet_web
    import flet_web.fastapi as flet_fastapi

    app: FastAPI = flet_fastapi.FastAPI()
    add_downloads(app, store, data_dir)
    flet = flet_fastapi.app(make_main(store, join), no_cdn=True, session_timeout_seconds=session_timeout)
    app.mount("/", ClientFiles(Arrivals(Departures(flet)), flet_web.get_package_web_dir(), cache_root()))
    return app


def run(host: str | None, port: int, data_dir: str, lan: bool = False) -> int:
    """Serve the web app offline (no CDN) and print its address; with `lan`, as a table on the local
    network that phones join with the printed link (or its QR code): on `host` when one was given,
    else on this machine's LAN address (`table.lan_addresses`: a default route is not needed)."""
    import uvicorn

    logging.basicConfig(level=os.environ.get("COMPANION_LOG_LEVEL", "WARNING").upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    store = Store(data_dir)
    join = link = None
    if lan:
        token = store.setting("table_token") or table.new_token()
        store.set_setting("table_token", token)  # the same join link after a restart: phones stay joined
        addresses = table.lan_addresses()
        link = host if host not in (None, "", "0.0.0.0", "::") else table.lan_address()
        join = table.join_url(link, port, token)
        host = "0.0.0.0"
        print(f"companion: table mode on {table.address_url(link, port)} (data: {data_dir})", flush=True)
        print(f"Join: {join}", flush=True)
        print(table.qr_terminal(join), flush=True)
        others = [address for address in addresses if address != link]
        if not addresses and link == "127.0.0.1":
            print("This machine has no network address but loopback: connect it to the phones' Wi-Fi or hotspot "
                  "and start again (or give the address with --host).", flush=True)
        elif others:
            print(f"The QR code holds {link}. This machine is also on {', '.join(others)}: for phones on one "
                  "of those networks, start with --host ADDRESS.", flush=True)
    else:
        host = host or "127.0.0.1"
        shown_host = "127.0.0.1" if host in ("0.0.0.0", "") else host
        print(f"companion: serving on http://{shown_host}:{port} (data: {data_dir})", flush=True)
    app = web_app(store, data_dir, join)
    gate = table.TableGate(app, token if lan else None, table.own_hosts(host, lan, link), port)
    uvicorn.run(gate, host=host, port=port, timeout_graceful_shutdown=1,  # SIGTERM: gone within 2 s, come what may
                log_level=os.environ.get("COMPANION_LOG_LEVEL", "warning").lower(), ws="websockets-sansio")
    return 0
