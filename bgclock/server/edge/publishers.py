"""Publishing keys: who may publish to this (hosted) server, and as whom.

A key is ``NAME.SECRET``: the name of the club (or venue) it publishes as,
and 192 random bits.  ``bgclock publish-keys add NAME`` makes one on the
hosted server's store and prints it once; the store keeps only its SHA-256
(the meta row ``publish_keys``: a JSON object, name -> hex digest), so a copy
of the store publishes nothing.  The venue runs ``bgclock serve --publish-to
URL`` with the key in ``BGCLOCK_PUBLISH_KEY``: the name in the key is the
club its tournaments are published under (``/p/{NAME}/{id}``), known at the
venue without the Internet.

The check is the principal's (``edge.principal``): a request's ``Authorization:
Bearer`` key that is one of these makes it the ``publisher`` NAME.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from bgclock.store import Store

#: The meta row that keeps every key's name and digest.
PUBLISH_KEYS_META: Final = "publish_keys"
#: The environment variable the venue's key is read from.
PUBLISH_KEY_ENV: Final = "BGCLOCK_PUBLISH_KEY"
#: A club's name: it is a path segment of its public pages (``/p/{name}/{id}``).
NAME_PATTERN: Final = re.compile(r"[a-z][a-z0-9-]{0,31}")
#: Random bytes in a key's secret (192 bits).
SECRET_BYTES: Final = 24


def check_name(name: str) -> str:
    """A club's name, or ``ValueError`` saying what is wrong."""
    if not NAME_PATTERN.fullmatch(name):
        raise ValueError(f"NAME: {name!r} is not a club's name (1-32 lower-case letters, "
                         "digits and '-', starting with a letter: it is a part of the "
                         "public pages' addresses)")
    return name


def key_name(key: str) -> str:
    """The club's name a publishing key carries, or ``ValueError``."""
    name, dot, secret = key.partition(".")
    if not dot or not secret or not NAME_PATTERN.fullmatch(name):
        raise ValueError(f"{PUBLISH_KEY_ENV}: not a publishing key (NAME.SECRET, as "
                         "'bgclock publish-keys add NAME' printed it on the hosted server)")
    return name


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def new_key(name: str) -> str:
    """A fresh key for ``name``."""
    return f"{check_name(name)}.{secrets.token_urlsafe(SECRET_BYTES)}"


async def stored_keys(store: Store) -> dict[str, str]:
    """Every key's name and digest kept in ``store`` (an open store)."""
    kept = await store.get_meta(PUBLISH_KEYS_META)
    found = json.loads(kept) if kept else {}
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


async def add_key(store: Store, name: str, *, replace: bool = False) -> str:
    """A fresh key for ``name`` kept in ``store`` (its digest), returned once;
    ``ValueError`` when ``name`` has one already (unless ``replace``: the old
    key stops publishing)."""
    key = new_key(name)
    keys = await stored_keys(store)
    if name in keys and not replace:
        raise ValueError(f"NAME: {name!r} has a publishing key already (--replace makes a "
                         "new one, and the old one stops publishing)")
    keys[name] = digest(key)
    await store.set_meta(PUBLISH_KEYS_META, json.dumps(keys, sort_keys=True))
    return key


class PublishKeys:
    """The publishing keys this server accepts (their digests), read from
    its store at start and again when a key they refuse is tried (one added
    by ``publish-keys add`` while the server runs; the read is one small row,
    what any anonymous page costs)."""

    def __init__(self, keys: dict[str, str] | None = None) -> None:
        self._keys = dict(keys or {})

    def check(self, candidate: str | None) -> str | None:
        """The club's name ``candidate`` publishes as, or None."""
        if not candidate:
            return None
        name = candidate.partition(".")[0]
        kept = self._keys.get(name)
        if kept is None:
            return None
        return name if hmac.compare_digest(kept, digest(candidate)) else None

    def stale(self, candidate: str | None) -> bool:
        """``candidate`` is refused: the keys are worth reading again."""
        return bool(candidate) and self.check(candidate) is None

    async def load(self, store: Store) -> None:
        """The keys as ``store`` keeps them now."""
        self._keys = await stored_keys(store)
