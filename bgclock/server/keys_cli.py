"""``bgclock clubs add NAME`` and ``bgclock publish-keys add NAME``: a named
key on a hosted server's store (``edge.named_keys``; docs/hosting.md).

``clubs add NAME`` prints the director key of the club NAME: whoever holds it
directs NAME's tournaments on this server and sees nothing of another
club's.  ``publish-keys add NAME`` prints the key a venue publishes NAME's
tournaments with (``bgclock serve --publish-to URL`` with it in
``BGCLOCK_PUBLISH_KEY``; its pages are ``/p/NAME/{id}``).

Each key is printed once (the store keeps only its SHA-256).  A running
server accepts a key added meanwhile at its first use.  ``list`` names the
keys kept (never a key); ``--replace`` makes a new key for a name, and the
old one stops working (a club's old sessions end with it).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bgclock.server.cli import StartError, default_db, open_checked
from bgclock.server.edge.named_keys import CLUB_DIRECTOR, PUBLISHING, Kind

#: What each command says of its key.
_SAID = {
    CLUB_DIRECTOR.command: ("the club whose director the key is: 1-32 lower-case letters, "
                            "digits and '-', starting with a letter; its public pages are "
                            "/p/NAME",
                            "Director key of the club {name} (shown once; its director opens "
                            "/director?key=KEY, or sends Authorization: Bearer KEY):"),
    PUBLISHING.command: ("the club (or venue) the key publishes as: 1-32 lower-case letters, "
                         "digits and '-', starting with a letter; its pages are /p/NAME/ID",
                         "Publishing key for {name} (shown once; the venue sets "
                         "BGCLOCK_PUBLISH_KEY):"),
}


def configure(parser: argparse.ArgumentParser) -> None:
    kind = CLUB_DIRECTOR if parser.prog.split()[-1] == CLUB_DIRECTOR.command else PUBLISHING
    parser.set_defaults(kind=kind)
    parser.add_argument("action", choices=["add", "list"],
                        help="add: make a key for NAME and print it once; list: the names")
    parser.add_argument("name", nargs="?", default=None, metavar="NAME",
                        help=_SAID[kind.command][0])
    parser.add_argument("--replace", action="store_true",
                        help="NAME has a key already: make a new one (the old one stops "
                             "working)")
    parser.add_argument("--db", default=None, metavar="PATH|URL",
                        help=f"the hosted server's store (default {default_db()})")
    parser.add_argument("--db-schema", default=None, metavar="SCHEMA",
                        help="PostgreSQL schema of the tables (default public)")


def run(args: argparse.Namespace) -> int:
    kind: Kind = args.kind
    try:
        return asyncio.run(_run(args, kind))
    except StartError as exc:
        print(f"bgclock {kind.command}: {exc}", file=sys.stderr, flush=True)
        return 2


async def _run(args: argparse.Namespace, kind: Kind) -> int:
    from bgclock.server.edge.named_keys import add_key, check_name, stored_keys
    from bgclock.store.connect import open_store

    if args.action == "add":
        if args.name is None:
            raise StartError(f"add: NAME is missing ({_SAID[kind.command][0].split(':')[0]})")
        try:
            check_name(args.name)
        except ValueError as exc:
            raise StartError(str(exc)) from None
    db = args.db or str(default_db())
    try:
        store = open_store(db, schema=args.db_schema)
    except ValueError as exc:
        raise StartError(f"--db: {exc}") from None
    await open_checked(store, db)
    try:
        if args.action == "list":
            for name in sorted(await stored_keys(store, kind)):
                print(name)
            return 0
        try:
            key = await add_key(store, kind, args.name, replace=args.replace)
        except ValueError as exc:
            raise StartError(str(exc)) from None
    finally:
        await store.close()
    print(_SAID[kind.command][1].format(name=args.name))
    print(key, flush=True)
    return 0
