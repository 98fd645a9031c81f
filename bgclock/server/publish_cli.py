"""``bgclock publish-keys add NAME``: a publishing key for a venue, on the
hosted server's store (docs/hosting.md).

The key is printed once (the store keeps only its SHA-256); the venue runs
``bgclock serve --publish-to URL`` with it in ``BGCLOCK_PUBLISH_KEY``.  Its
tournaments are then published under NAME (``/p/NAME/{id}``).  A running
hosted server accepts a key added meanwhile at its first use.
``bgclock publish-keys list`` names the keys kept (never a key).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bgclock.server.cli import StartError, default_db, open_checked


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["add", "list"],
                        help="add: make a key for NAME and print it once; list: the names")
    parser.add_argument("name", nargs="?", default=None, metavar="NAME",
                        help="the club (or venue) the key publishes as: 1-32 lower-case "
                             "letters, digits and '-', starting with a letter; its pages are "
                             "/p/NAME/ID")
    parser.add_argument("--replace", action="store_true",
                        help="NAME has a key already: make a new one (the old one stops "
                             "publishing)")
    parser.add_argument("--db", default=None, metavar="PATH|URL",
                        help=f"the hosted server's store (default {default_db()})")
    parser.add_argument("--db-schema", default=None, metavar="SCHEMA",
                        help="PostgreSQL schema of the tables (default public)")


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_run(args))
    except StartError as exc:
        print(f"bgclock publish-keys: {exc}", file=sys.stderr, flush=True)
        return 2


async def _run(args: argparse.Namespace) -> int:
    from bgclock.server.edge.publishers import add_key, check_name, stored_keys
    from bgclock.store.connect import open_store

    if args.action == "add":
        if args.name is None:
            raise StartError("add: NAME is missing (the club the key publishes as)")
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
            for name in sorted(await stored_keys(store)):
                print(name)
            return 0
        try:
            key = await add_key(store, args.name, replace=args.replace)
        except ValueError as exc:
            raise StartError(str(exc)) from None
    finally:
        await store.close()
    print(f"Publishing key for {args.name} (shown once; the venue sets BGCLOCK_PUBLISH_KEY):")
    print(key, flush=True)
    return 0
