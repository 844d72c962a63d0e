"""Serving the web app: `companion serve` (plain, or table mode with --lan) and the download routes
the history screen's buttons use."""
from __future__ import annotations

import logging
import os
import time

from . import table
from .store import Store
from .ui.app import make_main


def add_downloads(app, store: Store, data_dir: str) -> None:
    """/download/games.csv, games-excel-cs.csv (`;` and decimal commas), games.json and backup.zip: what `companion export` and `companion backup`
    write, for the history screen's buttons (in table mode behind the same gate as the app)."""
    from fastapi import Response

    from . import backup, exchange

    def attachment(body, media: str, name: str) -> Response:
        stamp = time.strftime("%Y%m%d-%H%M")
        return Response(body, media_type=media,
                        headers={"Content-Disposition": f'attachment; filename="companion-{stamp}-{name}"'})

    app.add_api_route("/download/games.csv", lambda: attachment(exchange.export_csv(store), "text/csv; charset=utf-8",
                                                                "games.csv"))
    app.add_api_route("/download/games-excel-cs.csv", lambda: attachment(
        exchange.export_csv(store, excel_cs=True), "text/csv; charset=utf-8", "games-excel-cs.csv"))
    app.add_api_route("/download/games.json", lambda: attachment(exchange.export_json(store), "application/json",
                                                                 "games.json"))
    app.add_api_route("/download/backup.zip", lambda: attachment(backup.backup(data_dir), "application/zip",
                                                                 "backup.zip"))


def run(host: str, port: int, data_dir: str, lan: bool = False) -> int:
    """Serve the web app offline (no CDN) and print its address; with `lan`, as a table on the local
    network that phones join with the printed link (or its QR code)."""
    import uvicorn
    import flet_web.fastapi as flet_fastapi

    logging.basicConfig(level=os.environ.get("COMPANION_LOG_LEVEL", "WARNING").upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    store = Store(data_dir)
    join = None
    if lan:
        token = store.setting("table_token") or table.new_token()
        store.set_setting("table_token", token)  # the same join link after a restart: phones stay joined
        address = table.lan_address()
        join = table.join_url(address, port, token)
        host = "0.0.0.0"
        print(f"companion: table mode on http://{address}:{port} (data: {data_dir})", flush=True)
        print(f"Join: {join}", flush=True)
        print(table.qr_terminal(join), flush=True)
    else:
        shown_host = "127.0.0.1" if host in ("0.0.0.0", "") else host
        print(f"companion: serving on http://{shown_host}:{port} (data: {data_dir})", flush=True)
    app = flet_fastapi.FastAPI()
    add_downloads(app, store, data_dir)
    app.mount("/", flet_fastapi.app(make_main(store, join), no_cdn=True))
    gate = table.TableGate(app, token if lan else None, table.own_hosts(host, lan), port)
    uvicorn.run(gate, host=host, port=port,
                log_level=os.environ.get("COMPANION_LOG_LEVEL", "warning").lower(), ws="websockets-sansio")
    return 0
