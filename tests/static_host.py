"""A static host for the phone-alone build, as common hosts serve a folder: files as they are, text
compressed with gzip when the browser accepts it (as GitHub Pages, Netlify or nginx with
`gzip on` do), and one line per request in a log (`GET <path> <status> <bytes sent>`), so a test
can count what the browser fetched.

    python tests/static_host.py FOLDER PORT [LOG] [--plain] [--phone]

`--plain` serves without compression, as `python -m http.server` does. `--phone` sends as a phone
on a mid-range mobile network receives: every response 40 ms late, and all of them together at no
more than 20 Mbit/s (bench/phone.py). It is done here, on the host, so that it holds for every
request of the page, its workers and its service worker alike.
"""
from __future__ import annotations

import gzip
import sys
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

#: What hosts compress: text, JavaScript, JSON, WebAssembly (not images, fonts or archives).
COMPRESSED = (".html", ".js", ".mjs", ".json", ".wasm", ".css", ".txt", ".bin", ".frag", ".otf", "NOTICES")


class Link:
    """The phone's network: a delay before each response, one shared rate for all of them."""
    LATENCY = 0.040
    RATE = 20e6 / 8  # bytes a second
    CHUNK = 16384

    def __init__(self):
        self.lock = threading.Lock()
        self.free_at = time.monotonic()

    def send(self, out, data: bytes) -> None:
        for start in range(0, len(data), self.CHUNK):
            piece = data[start:start + self.CHUNK]
            with self.lock:
                now = time.monotonic()
                self.free_at = max(self.free_at, now) + len(piece) / self.RATE
                wait = self.free_at - now
            time.sleep(wait)
            out.write(piece)


class Handler(SimpleHTTPRequestHandler):
    link: Link | None = None
    log_file = None
    plain = False
    packed: dict[tuple[str, float], bytes] = {}
    lock = threading.Lock()

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # as a host with no caching rules: revalidate
        super().end_headers()

    def send_head(self):
        path = Path(self.translate_path(self.path))
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if self.plain or not accepts or not path.is_file() or not path.name.endswith(COMPRESSED):
            return super().send_head()
        stamp = path.stat().st_mtime
        with self.lock:
            body = self.packed.get((str(path), stamp))
            if body is None:
                body = self.packed[(str(path), stamp)] = gzip.compress(path.read_bytes(), 6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        self.sent = len(body)
        return _Body(body)

    def copyfile(self, source, outputfile):
        if self.link is None:
            return super().copyfile(source, outputfile)
        self.link.send(outputfile, source.read())

    def do_GET(self):
        self.sent, self.code = 0, 0
        if self.link is not None:
            time.sleep(Link.LATENCY)
        super().do_GET()
        if self.log_file is not None:
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                path = path / "index.html"
            if self.code == 200 and not self.sent and path.is_file():
                self.sent = path.stat().st_size
            with self.lock, open(self.log_file, "a", encoding="utf-8") as log:
                log.write(f"GET {self.path.split('?')[0]} {self.code} {self.sent}\n")

    def log_request(self, code="-", size="-"):
        self.code = int(code)

    def log_message(self, *args):
        pass


class _Body:
    def __init__(self, data: bytes):
        self.data = data

    def read(self, *_args):
        data, self.data = self.data, b""
        return data

    def close(self):
        pass


def main(argv: list[str]) -> None:
    folder, port = argv[0], int(argv[1])
    Handler.log_file = argv[2] if len(argv) > 2 and not argv[2].startswith("--") else None
    Handler.plain = "--plain" in argv
    Handler.link = Link() if "--phone" in argv else None
    ThreadingHTTPServer(("127.0.0.1", port), partial(Handler, directory=folder)).serve_forever()


if __name__ == "__main__":
    main(sys.argv[1:])
