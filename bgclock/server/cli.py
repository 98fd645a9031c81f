"""``bgclock serve``: run every table of a tournament on one server."""

from __future__ import annotations

import argparse
import logging
import secrets
import socket
import sys
from pathlib import Path

import platformdirs


def default_db() -> Path:
    return Path(platformdirs.user_data_dir("bgclock")) / "bgclock.db"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (0.0.0.0 for tables on the LAN; "
                             "default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--db", default=None,
                        help=f"SQLite file, or postgresql://... (default {default_db()})")
    parser.add_argument("--db-schema", default=None,
                        help="PostgreSQL schema to keep the tables in (default public)")
    parser.add_argument("--director-password", default=None,
                        help="a fixed director's secret (default: 128 fresh random bits)")
    parser.add_argument("--public-url", default=None,
                        help="the base URL devices reach the server at (default: guessed)")
    parser.add_argument("--allow-origin", action="append", default=[],
                        help="another web origin allowed to open the WebSocket (repeatable)")
    parser.add_argument("--allow-host", action="append", default=[],
                        help="another host name the server is reached at (repeatable; "
                             "WebSockets opened at any other Host are refused)")
    parser.add_argument("--header-timeout", type=float, default=10.0,
                        help="seconds a client has to send a request's headers (default 10)")
    parser.add_argument("--max-per-client", type=int, default=256,
                        help="open connections one client address may hold (default 256)")
    parser.add_argument("--no-qr", action="store_true", help="do not draw the QR code")
    parser.add_argument("--log-level", default="warning",
                        choices=["debug", "info", "warning", "error"])


def _lan_address() -> str:
    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"
    return address


def run(args: argparse.Namespace) -> int:
    import segno
    import uvicorn

    from bgclock.store import open_store

    from ._guard import install_redaction, raise_nofile_limit
    from ._http import guarded_http
    from .app import create_app

    limits = raise_nofile_limit()
    db = args.db or str(default_db())
    store = open_store(db, schema=args.db_schema)
    secret = args.director_password or secrets.token_urlsafe(16)
    host = args.host
    if args.public_url:
        base = args.public_url.rstrip("/")
    else:
        shown = _lan_address() if host in ("0.0.0.0", "::") else host
        if ":" in shown:
            shown = f"[{shown}]"
        base = f"http://{shown}:{args.port}"
    app = create_app(store, director_secret=secret, public_url=base,
                     allow_origins=args.allow_origin, bind_host=host,
                     allow_hosts=args.allow_host)
    director_url = f"{base}/director?key={secret}"
    where = db if "://" not in db else db.split("@")[-1]
    print(f"bgclock serve: store {where}", flush=True)
    print(f"Director: {director_url}", flush=True)
    if not args.no_qr:
        segno.make(director_url, error="l").terminal(out=sys.stdout, compact=True)
    sys.stdout.flush()
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    if limits is not None:
        logging.getLogger("bgclock.server").info("open files: %d (hard limit %d)", *limits)
    # Connections past limit_concurrency get a 503 instead of a descriptor
    # more: keep a margin below the open-files limit for the store and logs.
    concurrency = max(64, limits[0] - 64) if limits is not None and limits[0] > 0 else None
    config = uvicorn.Config(app, host=host, port=args.port, log_level=args.log_level,
                            http=guarded_http(args.header_timeout, args.max_per_client),
                            limit_concurrency=concurrency, timeout_keep_alive=5,
                            ws="websockets-sansio", ws_max_size=64 * 1024,
                            ws_per_message_deflate=False,
                            ws_ping_interval=20, ws_ping_timeout=20,
                            lifespan="on", timeout_graceful_shutdown=5)
    install_redaction()  # after uvicorn set its loggers up
    uvicorn.Server(config).run()
    return 0
