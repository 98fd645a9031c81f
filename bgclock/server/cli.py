"""``bgclock serve``: run every table of a tournament on one server.

The order at start matters to a director: the arguments are checked, the port
is bound, the store is opened and the director's key read from it, and only
then is the director's URL printed, so a URL on the screen is a server that
answers.  Anything that stops it before that is one line on stderr and exit
code 2, never a traceback; so is another server on the same store (the
store's claim is taken right after it is opened, before anything is
written).  A server whose PostgreSQL store another server took over while it
was cut off stops with one line and exit code 3.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import ipaddress
import logging
import math
import socket
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import platformdirs

from bgclock.store import DEADLINE_BOUNDS, DEFAULT_DEADLINE_S, check_deadline

#: Exit code of every start-up failure (as for bad arguments).
EXIT_START = 2
#: Exit code when another server took the store over while this one ran.
EXIT_LOST = 3
#: How long opening the store may take (an unreachable PostgreSQL).
OPEN_TIMEOUT_S = 20.0


class StartError(Exception):
    """The server cannot start; the message is the one line the director reads."""


def default_db() -> Path:
    return Path(platformdirs.user_data_dir("bgclock")) / "bgclock.db"


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is outside 1-65535")
    return port


def _deadline(text: str) -> float:
    try:
        return check_deadline(float(text))
    except ValueError as exc:
        said = str(exc).removeprefix("--db-timeout: ")
        raise argparse.ArgumentTypeError(
            said if "outside" in said else f"not a number of seconds: {text!r}") from None


#: Bounds of ``--header-timeout`` (seconds) and ``--max-per-client`` (sockets):
#: outside them the server would answer nothing (0, NaN) or hold nothing back.
HEADER_TIMEOUT_RANGE = (0.1, 3600.0)
PER_CLIENT_RANGE = (1, 65536)


def _seconds_in(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite number of seconds from ``low`` to ``high``."""
    def seconds_in(text: str) -> float:
        try:
            seconds = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
        if not math.isfinite(seconds) or not low <= seconds <= high:
            raise argparse.ArgumentTypeError(f"{text!r} seconds is outside {low:g}-{high:g}")
        return seconds
    return seconds_in


def _per_client(text: str) -> int:
    low, high = PER_CLIENT_RANGE
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not low <= count <= high:
        raise argparse.ArgumentTypeError(f"{count} is outside {low}-{high}")
    return count


def _redis_url(text: str) -> str:
    if not text.startswith(("redis://", "rediss://", "unix://")):
        raise argparse.ArgumentTypeError(f"not a Redis URL: {text!r} (redis://HOST:PORT/DB)")
    return text


#: Bounds of ``--release-idle-s`` (seconds).
RELEASE_IDLE_RANGE = (0.1, 86400.0)
#: Bounds of ``--keeper-silent-s`` (seconds).
KEEPER_SILENT_RANGE = (0.5, 3600.0)


def _cluster_name(text: str) -> str:
    if not text or len(text) > 64 or not all(c.isascii() and (c.isalnum() or c in "-_.")
                                             for c in text):
        raise argparse.ArgumentTypeError(
            f"{text!r}: 1-64 letters, digits, '-', '_' or '.'")
    return text


def _origin(text: str) -> str:
    """A web origin as a browser sends it (``https://club.example:8443``), or ``*``."""
    if text == "*":
        return text
    parts = urlsplit(text)
    try:
        _ = parts.port
    except ValueError:
        parts = urlsplit("")
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path \
            or parts.query or parts.fragment or parts.username or "@" in text:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a web origin like https://club.example:8443 (a scheme and a "
            "host, an optional port, no path or trailing slash)")
    return text


def _host_name(text: str) -> str:
    """A host name or address as ``Host`` headers carry it, without a port."""
    from bgclock.server.edge.guard import host_name

    bare = text.strip("[]")
    if not text or any(c.isspace() or c in "/?#@\\" for c in text) \
            or host_name(text) != bare.lower().rstrip("."):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a host name like club.local or 192.168.1.10 (no scheme, port "
            "or path)")
    return bare


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on: 0.0.0.0 for tables on the LAN (the "
                             "printed links then carry this machine's LAN address); "
                             "default 127.0.0.1, this computer only")
    parser.add_argument("--port", type=_port, default=8000, help="port 1-65535 (default 8000)")
    parser.epilog = ("A director's guide (the network, the firewall, backups, a restart) is "
                     "docs/evening.md in bgclock's source tree (it is not installed with "
                     "the package).")
    parser.add_argument("--db", default=None, metavar="PATH|URL",
                        help="SQLite file (a path, or sqlite:///PATH), or postgresql://... "
                             f"(default {default_db()})")
    parser.add_argument("--db-schema", default=None, metavar="SCHEMA",
                        help="PostgreSQL schema to keep the tables in (default public)")
    parser.add_argument("--db-timeout", type=_deadline, default=DEFAULT_DEADLINE_S,
                        metavar="SECONDS",
                        help="how long one database call may take before the commands "
                             "waiting on it get an error and director pages a 503 "
                             f"({DEADLINE_BOUNDS[0]:g}-{DEADLINE_BOUNDS[1]:g}, default "
                             f"{DEFAULT_DEADLINE_S:g})")
    parser.add_argument("--director-password", default=None, metavar="PASSWORD",
                        help="a fixed director's key (8-200 printable characters), kept in "
                             "the store for later starts too (default: the key kept in the "
                             "store, made once with 128 random bits)")
    parser.add_argument("--rotate-director-key", action="store_true",
                        help="replace the kept director's key with a fresh random one (old "
                             "dashboards and URLs stop working)")
    parser.add_argument("--public-url", default=None, metavar="URL",
                        help="the base URL devices reach the server at, e.g. "
                             "http://192.168.1.10:8000 (default: this machine's LAN address "
                             "with --host 0.0.0.0, else the --host address)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        type=_origin,
                        help="another web origin allowed to open the WebSocket (repeatable)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="HOST",
                        type=_host_name,
                        help="another host name the server is reached at (repeatable; "
                             "WebSockets opened at any other Host are refused)")
    parser.add_argument("--header-timeout", type=_seconds_in(*HEADER_TIMEOUT_RANGE), default=10.0,
                        metavar="SECONDS",
                        help="seconds a client has to send a request's headers, "
                             f"{HEADER_TIMEOUT_RANGE[0]:g}-{HEADER_TIMEOUT_RANGE[1]:g} "
                             "(default 10)")
    parser.add_argument("--max-per-client", type=_per_client, default=256, metavar="N",
                        help="open connections one client address may hold, "
                             f"{PER_CLIENT_RANGE[0]}-{PER_CLIENT_RANGE[1]} (default 256)")
    parser.add_argument("--certfile", default=None, metavar="PEM",
                        help="serve over TLS (https://, wss://) with this certificate chain, "
                             "for a certificate issued to the venue's name; with --keyfile. "
                             "Then phones may install the table page and reload it offline "
                             "(docs/evening.md)")
    parser.add_argument("--keyfile", default=None, metavar="PEM",
                        help="the private key of --certfile")
    parser.add_argument("--cluster", default=None, metavar="redis://HOST:PORT/DB",
                        type=_redis_url,
                        help="run as one of several processes on one PostgreSQL database "
                             "(--db postgresql://...): each table is owned by one process, "
                             "the others forward its commands and relay its updates through "
                             "this Redis (docs/cluster.md)")
    parser.add_argument("--cluster-prefix", default="bgclock", metavar="PREFIX",
                        type=_cluster_name,
                        help="Redis channel prefix of this cluster (default bgclock)")
    parser.add_argument("--node-name", default=None, metavar="NAME", type=_cluster_name,
                        help="this process's name in the cluster (default HOST-PID)")
    parser.add_argument("--release-idle-s", default=60.0, type=_seconds_in(*RELEASE_IDLE_RANGE),
                        metavar="S",
                        help="a cluster's process hands a table's lease back after S "
                             "seconds with no device and its clock stopped (default 60)")
    parser.add_argument("--keeper-silent-s", default=120.0, type=_seconds_in(*KEEPER_SILENT_RANGE),
                        metavar="S",
                        help="another device that asks for a table's time gets it without "
                             "the keeper's yes once the keeper has been silent for S seconds "
                             "(default 120; docs/protocol.md)")
    parser.add_argument("--publish-to", default=None, metavar="URL",
                        help="publish this venue's public tournaments to the hosted bgclock at "
                             "URL (e.g. https://bgclock.example.org) whenever it can be "
                             "reached, with the publishing key in the environment variable "
                             "BGCLOCK_PUBLISH_KEY; their pages are then /p/CLUB/ID, here and "
                             "there (docs/hosting.md)")
    parser.add_argument("--no-qr", action="store_true", help="do not draw the QR code")
    parser.add_argument("--log-level", default="warning",
                        choices=["debug", "info", "warning", "error"])


# ------------------------------------------------------------------ checks

def _public_base(text: str) -> str:
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query \
            or parts.fragment:
        raise StartError(f"--public-url: {text!r} is not a base URL like "
                         "http://192.168.1.10:8000")
    try:
        _ = parts.port
    except ValueError:
        raise StartError(f"--public-url: {text!r} has a bad port") from None
    return text.rstrip("/")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, or ``StartError`` saying why not."""
    where = f"{_url_host(host or '0.0.0.0')}:{port}"
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise StartError(f"--host {host}: not an address of this machine ({exc.strerror})") \
            from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and host in ("::", ""):
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise StartError(f"port {port} is busy on {where} (another server, or bgclock "
                             "already running?): stop it or choose another --port") from None
        if exc.errno == errno.EACCES:
            raise StartError(f"port {port}: permission denied (ports below 1024 need "
                             "root): choose --port 8000 or another above 1023") from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise StartError(f"--host {host}: not an address of this machine") from None
        raise StartError(f"cannot listen on {where}: {exc.strerror or exc}") from None
    return sock


def is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def check_sqlite_place(db: str, *, given: bool, schema: str | None) -> None:
    """Refuse what a SQLite ``--db`` cannot mean: a schema (PostgreSQL only) or,
    for a path the director gave, a folder that is not there (a typo on a
    restart must not start an empty tournament with a new key; only the
    default folder is made)."""
    from bgclock.store import sqlite_path

    if schema is not None:
        raise StartError(f"--db-schema {schema}: schemas are PostgreSQL's; --db {db} is a "
                         "SQLite file (leave --db-schema out, or give --db postgresql://...)")
    if not given:
        return
    path = sqlite_path(db)
    if path == ":memory:":
        return
    folder = Path(path).parent
    if not folder.exists():
        raise StartError(f"cannot open the store {db}: the folder {folder} does not exist "
                         "(--db: check the path, or create the folder first)")


def _store_where(db: str) -> str:
    if "://" in db and not db.startswith("sqlite:"):
        return db.split("@")[-1]  # no password on the screen
    return db


async def open_checked(store: Any, where: str) -> None:
    """Open ``store`` or raise ``StartError`` with the reason, in one line."""
    try:
        async with asyncio.timeout(OPEN_TIMEOUT_S):  # not wait_for: it can swallow a Ctrl-C
            await store.open()
    except TimeoutError:
        raise StartError(f"cannot open the store {where}: no answer within "
                         f"{OPEN_TIMEOUT_S:.0f} s") from None
    except (OSError, sqlite3.Error, ValueError, RuntimeError) as exc:
        raise StartError(f"cannot open the store {where}: {_reason(exc)}") from None
    except Exception as exc:  # asyncpg's errors (not imported for SQLite)
        if type(exc).__module__.startswith("asyncpg"):
            raise StartError(f"cannot open the store {where}: {_reason(exc)}") from None
        raise


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, FileExistsError | NotADirectoryError) and exc.filename:
        text = f"{exc.filename} is a file, not a folder"
    elif isinstance(exc, OSError) and exc.filename and exc.strerror:
        text = f"{exc.strerror}: {exc.filename}"
    elif isinstance(exc, sqlite3.OperationalError) and "unable to open" in text:
        text += " (is the folder there and writable?)"
    return text


# ------------------------------------------------------------------ the URL

def base_url(args: argparse.Namespace, out: Any, err: Any) -> str:
    """The base of the director's URL and of every table link; says which
    addresses were found when the server listens on every interface."""
    if args.public_url:
        return _public_base(args.public_url)
    host = args.host
    if host in ("0.0.0.0", "::", ""):
        from bgclock.server.edge.lan import find_lan_address

        choice = find_lan_address()
        if choice.candidates:
            print("Addresses of this machine: "
                  + ", ".join(c.describe() for c in choice.candidates), file=out)
        if choice.chosen is None:
            print("bgclock serve: WARNING: no network address found other than loopback: "
                  "phones and tablets cannot open these links. Join the Wi-Fi, or give "
                  "the address they reach this computer at with "
                  "--public-url http://ADDRESS:PORT", file=err, flush=True)
            shown = "127.0.0.1"
        else:
            shown = choice.chosen.address
            if len(choice.candidates) > 1:
                print(f"Links use {shown}; if the tables reach this computer at another "
                      "address, start again with --public-url http://ADDRESS:"
                      f"{args.port}", file=out)
    else:
        shown = host
        if _is_loopback(host):
            print("Only this computer can open these links: for tables on the LAN, "
                  "start with --host 0.0.0.0", file=out)
    scheme = "https" if getattr(args, "certfile", None) else "http"
    return f"{scheme}://{_url_host(shown)}:{args.port}"


def check_tls(certfile: str | None, keyfile: str | None) -> bool:
    """Whether to serve over TLS: both files given and usable, or neither;
    a StartError naming the option otherwise (before the port is bound)."""
    if certfile is None and keyfile is None:
        return False
    if certfile is None or keyfile is None:
        raise StartError("--certfile and --keyfile: give both (the certificate and its key)")
    import ssl

    for option, path in (("--certfile", certfile), ("--keyfile", keyfile)):
        if not Path(path).is_file():
            raise StartError(f"{option}: no such file: {path}")
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile)
    except (ssl.SSLError, OSError, ValueError) as exc:
        raise StartError(f"--certfile/--keyfile: cannot load the certificate and key: "
                         f"{exc}") from None
    return True


def director_url(base: str, key: str) -> str:
    return f"{base}/director?key={quote(key, safe='')}"


# ------------------------------------------------------------------ run

def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except StartError as exc:
        print(f"bgclock serve: {exc}", file=sys.stderr, flush=True)
        return EXIT_START


def cluster_config(args: argparse.Namespace) -> Any:
    """``--cluster``'s settings (``cluster.config.ClusterConfig``), or
    ``StartError`` in one line: redis not installed, the secret missing."""
    from bgclock.server.cluster.config import ClusterConfig, SecretError, cluster_secret

    try:
        import redis  # noqa: F401  (the ``cluster`` extra)
    except ImportError:
        raise StartError("--cluster needs the redis package, which the base install does not "
                         "bring: .venv/bin/pip install -e '.[cluster]' (docs/cluster.md)") from None
    try:
        secret = cluster_secret()
    except SecretError as exc:
        raise StartError(str(exc)) from None
    return ClusterConfig(args.cluster, args.cluster_prefix, args.node_name or "",
                         release_idle_s=args.release_idle_s, secret=secret)


def publishing(url: str | None) -> tuple[str | None, str | None]:
    """``--publish-to``'s base URL and the key from ``BGCLOCK_PUBLISH_KEY``,
    or ``StartError`` in one line naming what is wrong."""
    if url is None:
        return None, None
    import os

    from bgclock.server.edge.named_keys import PUBLISH_KEY_ENV, key_name

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query \
            or parts.fragment:
        raise StartError(f"--publish-to: {url!r} is not a base URL like "
                         "https://bgclock.example.org")
    key = os.environ.get(PUBLISH_KEY_ENV, "").strip()
    if not key:
        raise StartError(f"--publish-to needs the publishing key in {PUBLISH_KEY_ENV} (on the "
                         "hosted server: bgclock publish-keys add NAME)")
    try:
        key_name(key)
    except ValueError as exc:
        raise StartError(str(exc)) from None
    return url.rstrip("/"), key


def _run(args: argparse.Namespace) -> int:
    import uvicorn

    from bgclock.server.app import create_app
    from bgclock.server.edge.auth import check_password, director_key
    from bgclock.server.edge.guard import install_redaction, raise_nofile_limit
    from bgclock.server.edge.http import guarded_http
    from bgclock.store import StoreBusy, StoreError
    from bgclock.store.connect import open_store

    if args.director_password is not None and args.rotate_director_key:
        raise StartError("--director-password and --rotate-director-key: choose one")
    if args.director_password is not None:
        try:
            check_password(args.director_password)
        except ValueError as exc:
            raise StartError(str(exc)) from None
    tls = check_tls(args.certfile, args.keyfile)
    db = args.db or str(default_db())
    try:
        store = open_store(db, schema=args.db_schema, deadline_s=args.db_timeout)
    except ValueError as exc:
        said = str(exc)
        raise StartError(said if said.startswith("--") else f"--db-schema: {said}") from None
    if not is_postgres(db):
        if args.cluster is not None:
            raise StartError("--cluster needs PostgreSQL (--db postgresql://...): a SQLite "
                             "file belongs to one process")
        check_sqlite_place(db, given=args.db is not None, schema=args.db_schema)
    cluster = None
    if args.cluster is not None:
        cluster = cluster_config(args)
    public_url = _public_base(args.public_url) if args.public_url else None
    publish_to, publish_key = publishing(args.publish_to)
    if publish_to is not None and args.cluster is not None:
        raise StartError("--publish-to: a venue publishes from one process, not with --cluster")
    sock = bind(args.host, args.port)
    where = _store_where(db)
    limits = raise_nofile_limit()

    app = create_app(store, director_secret=None, public_url=public_url,
                     allow_origins=args.allow_origin, bind_host=args.host,
                     allow_hosts=args.allow_host, cluster=cluster,
                     publish_to=publish_to, publish_key=publish_key)
    # Connections past limit_concurrency get a 503 instead of a descriptor
    # more: keep a margin below the open-files limit for the store and logs.
    concurrency = max(64, limits[0] - 64) if limits is not None and limits[0] > 0 else None
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level,
                            http=guarded_http(args.header_timeout, args.max_per_client),
                            limit_concurrency=concurrency, timeout_keep_alive=5,
                            ws="websockets-sansio", ws_max_size=64 * 1024,
                            ws_per_message_deflate=False,
                            ws_ping_interval=20, ws_ping_timeout=20,
                            lifespan="on", timeout_graceful_shutdown=5,
                            ssl_certfile=args.certfile if tls else None,
                            ssl_keyfile=args.keyfile if tls else None)
    app.state.server.hub.keeper_silent_ms = round(args.keeper_silent_s * 1000)
    feed = app.state.server.room_feed

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            super().handle_exit(sig, frame)
            # uvicorn raises a caught signal again once it has shut down, into
            # the event loop's own handler, which then never returns (a Ctrl-C
            # in the first moments hung the process): the shutdown is the answer
            self._captured_signals.clear()
            feed.close()  # the room displays' streams would hold the shutdown

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            ownership = app.state.server.ownership
            if not ownership.owns_everything:
                # another process takes over: no new connection (a balancer
                # sends it there), everything this one owns handed over
                for listening in self.servers:
                    listening.close()
            await ownership.leave()
            await super().shutdown(sockets)

    server = Server(config)

    lost: list[str] = []

    def on_lost(why: str) -> None:
        lost.append(why)
        server.should_exit = True

    async def main() -> None:
        await open_checked(store, where)
        if args.cluster is not None:  # Redis there, the credentials taken, one secret
            from bgclock.server.cluster.bus import BusError
            from bgclock.server.cluster.node import Cluster

            node = app.state.server.ownership
            assert isinstance(node, Cluster)
            try:
                await node.bus.check()
            except BusError as exc:
                await store.close()
                raise StartError(str(exc)) from None
        try:
            # before anything is written (the director's key): one server per store
            await store.claim()
        except StoreBusy as exc:
            await store.close()
            raise StartError(str(exc)) from None
        except StoreError as exc:
            await store.close()
            raise StartError(f"cannot claim the store {where}: {exc}") from None
        store.on_lost = on_lost
        try:
            key = await director_key(store, password=args.director_password,
                                     rotate=args.rotate_director_key)
        except StoreError as exc:
            await store.close()
            raise StartError(f"cannot read the director's key from {where}: {exc}") from None
        # The links' base is known before the first request; the director's
        # URL is printed once the server answers (the tables are loaded and
        # the socket accepts): a URL opened at once must not hang.
        print(f"bgclock serve: store {where}", flush=True)
        this = asyncio.current_task()
        if this is not None and this.cancelling():
            # a Ctrl-C came while the store opened, and a call on the way
            # let its cancellation go: stop here rather than serve
            await store.close()
            raise asyncio.CancelledError
        base = base_url(args, sys.stdout, sys.stderr)
        app.state.server.public_url = base  # every table link and QR code
        serving = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
        while not server.started and not serving.done():
            await asyncio.sleep(0.01)
        if server.started:
            try:
                announce(base, key)
            except BaseException:  # a closed stdout, Ctrl-C: stop serving
                server.should_exit = True
                await serving
                raise
        await serving

    def announce(base: str, key: str) -> None:
        url = director_url(base, key)
        if args.rotate_director_key:
            print("A new director's key: dashboards opened with the old one must use this URL.")
        print(f"Director: {url}", flush=True)
        if not args.no_qr:
            import segno

            segno.make(url, error="l").terminal(out=sys.stdout, compact=True)
        sys.stdout.flush()

    logging.basicConfig(level=args.log_level.upper(),
                        format="%(levelname)s %(name)s: %(message)s")
    install_redaction()  # after uvicorn set its loggers up
    if limits is not None:
        logging.getLogger("bgclock.server").info("open files: %d (hard limit %d)", *limits)
    try:
        with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
            try:
                runner.run(main())
            except KeyboardInterrupt:
                # Ctrl-C before the server took its signals over (opening the
                # store, claiming it): close the store, whose thread would
                # otherwise keep the process alive, and end quietly (exit 130)
                with contextlib.suppress(BaseException):
                    runner.run(store.close())
                raise
    finally:
        sock.close()
    if lost:
        print(f"bgclock serve: {lost[0]}", file=sys.stderr, flush=True)
        return EXIT_LOST
    return 0
