"""The web client served fast to phones (server.ClientFiles): gzip prepared once, a year's caching
for the versioned client files, ETag / 304 for the page and the rest. The figures (load time, bytes)
come from `bench/bench.py load`."""
from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path

import flet_web
import pytest
from starlette.testclient import TestClient

from companion import server

WEB = Path(flet_web.get_package_web_dir())


def passed_on(scope, receive, send):
    """What flet's app would do with a request ClientFiles leaves to it (here: a marked answer)."""
    async def answer():
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 299, "headers": [(b"content-length", b"0")]})
            await send({"type": "http.response.body", "body": b""})
    return answer()


@pytest.fixture
def web(tmp_path) -> Path:
    """A small web client folder shaped like flet-web's (its real page and manifests)."""
    folder = tmp_path / "web"
    for name in ("index.html", "manifest.json", "assets/FontManifest.json", "flutter_bootstrap.js", "python.js"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(WEB / name, folder / name)
    (folder / "main.dart.wasm").write_bytes(b"\0asm" + bytes(range(256)) * 400)
    (folder / "canvaskit").mkdir()
    (folder / "canvaskit/skwasm.wasm").write_bytes(b"\0asm" + b"renderer" * 20_000)
    (folder / "icons").mkdir()
    (folder / "icons/loading-animation.png").write_bytes(b"\x89PNG" + bytes(range(256)) * 8)
    (folder / "main.dart.js.map").write_text("{}" * 2000)
    (folder / "assets/fonts").mkdir()
    (folder / "assets/fonts/MaterialIcons-Regular.otf").write_bytes(b"OTTO" + b"glyph" * 4000)
    (folder / "assets/fonts/roboto.woff2").write_bytes(b"wOF2" + bytes(range(256)) * 20)
    return folder


@pytest.fixture
def client(web, tmp_path):
    files = server.ClientFiles(passed_on, web, tmp_path / "cache")
    return files, TestClient(files)


def test_a_compressible_file_goes_gzipped_to_a_browser_that_accepts_gzip(client, web):
    files, http = client
    original = (web / "main.dart.wasm").read_bytes()
    zipped = http.get("/main.dart.wasm", headers={"Accept-Encoding": "gzip, deflate"})
    assert zipped.status_code == 200 and zipped.headers["content-encoding"] == "gzip"
    assert zipped.headers["content-type"] == "application/wasm" and zipped.headers["vary"] == "accept-encoding"
    assert int(zipped.headers["content-length"]) < len(original) / 4
    assert zipped.content == original                    # (the client decompresses it)
    plain = http.get("/main.dart.wasm", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == original
    assert plain.headers["etag"] != zipped.headers["etag"]
    refused = http.get("/main.dart.wasm", headers={"Accept-Encoding": "gzip;q=0"})
    assert "content-encoding" not in refused.headers


def test_images_go_as_they_are(client):
    _files, http = client
    answer = http.get("/icons/loading-animation.png", headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and "content-encoding" not in answer.headers


def test_the_page_names_the_client_files_under_their_version_and_is_revalidated(client):
    files, http = client
    for route in ("/", "/game/abc123", "/history"):
        page = http.get(route)
        assert page.status_code == 200 and page.headers["cache-control"] == "no-cache" and page.headers["etag"]
        assert page.headers["content-type"].startswith("text/html")
    text = http.get("/").text
    prefix = f"/_v/{files.version}/"
    assert f'src="{prefix}flutter_bootstrap.js"' in text and f'src="{prefix}python.js"' in text
    assert f'flet.entrypointBaseUrl="{prefix}";' in text and f'flet.canvasKitBaseUrl="{prefix}canvaskit/";' in text
    assert 'flet.webSocketEndpoint="/ws";' in text and "flet.noCdn=true;" in text
    assert text.index('flet.entrypointBaseUrl="/";') < text.index(f'flet.entrypointBaseUrl="{prefix}";')
    for name in re.findall(r'(?:src|href)="/_v/[0-9a-f]+/([^"]+)"', text):  # every versioned name exists
        assert http.get(prefix + name).status_code == 200, name


def test_versioned_files_are_kept_a_year_and_the_rest_revalidated(client):
    files, http = client
    kept = http.get(f"/_v/{files.version}/canvaskit/skwasm.wasm")
    assert kept.status_code == 200 and kept.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert http.get("/canvaskit/skwasm.wasm").headers["cache-control"] == "no-cache"
    old = http.get("/_v/0123456789ab/canvaskit/skwasm.wasm")  # a page from an older client
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"
    assert http.get(f"/_v/{files.version}/no-such-file.js").status_code == 404


def test_an_unchanged_file_or_page_is_answered_304_without_a_body(client):
    _files, http = client
    for path in ("/", "/main.dart.wasm", "/game/abc123"):
        first = http.get(path, headers={"Accept-Encoding": "gzip"})
        again = http.get(path, headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == first.headers["etag"]
        other = http.get(path, headers={"Accept-Encoding": "gzip", "If-None-Match": '"something-else"'})
        assert other.status_code == 200


def test_the_client_files_carry_the_headers_the_client_needs(client):
    _files, http = client
    for path in ("/", "/main.dart.wasm"):
        headers = http.get(path).headers
        assert headers["cross-origin-opener-policy"] == "same-origin"
        assert headers["cross-origin-embedder-policy"] == "require-corp"


def test_the_served_font_manifest_lists_only_the_fonts_the_app_draws_with(client, web):
    files, http = client
    listed = {font["asset"] for family in http.get(f"/_v/{files.version}/assets/FontManifest.json").json()
              for font in family["fonts"]}
    assert listed == set(server.FONTS)
    assert any("packages/" in f["asset"] for family in json.loads((web / "assets/FontManifest.json").read_text())
               for f in family["fonts"])  # (the client's own manifest lists more)


def test_other_requests_go_on_to_flets_app(client):
    _files, http = client
    assert http.get("/download/games.csv").status_code == 299     # not a client file
    assert http.get("/oauth_callback").status_code == 299
    assert http.put("/upload").status_code == 299
    assert http.head("/main.dart.wasm").content == b""


def test_the_files_are_compressed_once_not_per_request(web, tmp_path, monkeypatch):
    server.ClientFiles(passed_on, web, tmp_path / "cache")
    assert not list((tmp_path / "cache").glob(".web-*"))     # no half-built folder left
    (built,) = (tmp_path / "cache").glob("web-*")
    assert (built / "main.dart.wasm.gz").is_file() and not (built / "main.dart.js.map.gz").exists()

    def no_compressing(*args, **kwargs):
        raise AssertionError("compressed again")

    monkeypatch.setattr(gzip, "compress", no_compressing)
    files = server.ClientFiles(passed_on, web, tmp_path / "cache")   # the next start finds it ready
    http = TestClient(files)
    for _ in range(3):
        assert http.get("/main.dart.wasm", headers={"Accept-Encoding": "gzip"}).headers["content-encoding"] == "gzip"
    (web / "main.dart.wasm").write_bytes(b"\0asm another client" * 1000)  # a new client: a new version
    monkeypatch.undo()
    newer = server.ClientFiles(passed_on, web, tmp_path / "cache")
    assert newer.version != files.version
    assert TestClient(newer).get("/main.dart.wasm").content == b"\0asm another client" * 1000
