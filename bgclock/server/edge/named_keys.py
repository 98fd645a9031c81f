"""Named keys: a hosted server's clubs' directors and its publishing venues.

A key is ``NAME.SECRET``: the club's name and 192 random bits.  The store
keeps only each key's SHA-256 in a meta row (a JSON object, name -> hex
digest), so a copy of the store opens nothing.  Two kinds, each its own row
and its own command, both printing the key once:

- **A club's director key** (``bgclock clubs add NAME``, the row
  ``club_keys``; issue 37 §4): the request that holds it is the director of
  the club NAME, who sees and changes only NAME's tournaments and their
  tables (``edge.clubs``).  A browser opening an address with it gets the
  club's session cookie (``edge.session``): ``NAME.`` and an HMAC keyed by
  the key's digest, so a new key for NAME (``--replace``) ends its sessions.
- **A publishing key** (``bgclock publish-keys add NAME``, the row
  ``publish_keys``): a venue running ``bgclock serve --publish-to URL`` with
  it in ``BGCLOCK_PUBLISH_KEY`` publishes its tournaments under NAME
  (``/p/{NAME}/{id}``), a name known at the venue without the Internet.

The checks are the principal's (``edge.principal``): a request's key that is
one of these makes it the club's director, or the ``publisher`` NAME.  A
running server reads its keys again when one it refuses is tried (a key
added by the command while it runs; the read is one small row, what any
anonymous page costs).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from bgclock.store import Store

#: The environment variable the venue's publishing key is read from.
PUBLISH_KEY_ENV: Final = "BGCLOCK_PUBLISH_KEY"
#: A club's name: it is a path segment of its public pages (``/p/{name}/{id}``).
NAME_PATTERN: Final = re.compile(r"[a-z][a-z0-9-]{0,31}")
#: Random bytes in a key's secret (192 bits).
SECRET_BYTES: Final = 24
#: What a club's session cookie is the HMAC of (under its key's digest).
CLUB_SESSION_LABEL: Final = b"bgclock club director session v1"


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of named key: its meta row, its command and what it does."""

    meta: str
    command: str
    does: str


PUBLISHING: Final = Kind("publish_keys", "publish-keys", "publishing")
CLUB_DIRECTOR: Final = Kind("club_keys", "clubs", "club director's")


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


async def stored_keys(store: Store, kind: Kind) -> dict[str, str]:
    """Every key's name and digest of ``kind`` kept in ``store`` (an open store)."""
    kept = await store.get_meta(kind.meta)
    found = json.loads(kept) if kept else {}
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


async def add_key(store: Store, kind: Kind, name: str, *, replace: bool = False) -> str:
    """A fresh key of ``kind`` for ``name`` kept in ``store`` (its digest),
    returned once; ``ValueError`` when ``name`` has one already (unless
    ``replace``: the old key stops working)."""
    key = new_key(name)
    keys = await stored_keys(store, kind)
    if name in keys and not replace:
        raise ValueError(f"NAME: {name!r} has a {kind.does} key already (--replace makes a "
                         "new one, and the old one stops working)")
    keys[name] = digest(key)
    await store.set_meta(kind.meta, json.dumps(keys, sort_keys=True))
    return key


class NamedKeys:
    """The keys of one kind this server accepts (their digests), read from
    its store at start and again when a key they refuse is tried."""

    def __init__(self, kind: Kind, keys: dict[str, str] | None = None) -> None:
        self.kind = kind
        self._keys = dict(keys or {})

    def check(self, candidate: str | None) -> str | None:
        """The club's name ``candidate`` is the key of, or None."""
        if not candidate:
            return None
        name = candidate.partition(".")[0]
        kept = self._keys.get(name)
        if kept is None:
            return None
        return name if hmac.compare_digest(kept, digest(candidate)) else None

    def stale(self, candidate: str | None) -> bool:
        """``candidate`` looks like a key of this kind and is refused: the
        keys are worth reading again."""
        if not candidate:
            return False
        return (NAME_PATTERN.fullmatch(candidate.partition(".")[0]) is not None
                and self.check(candidate) is None)

    def _session_mac(self, name: str) -> str | None:
        kept = self._keys.get(name)
        if kept is None:
            return None
        mac = hmac.new(kept.encode(), CLUB_SESSION_LABEL + name.encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()

    def session(self, name: str) -> str:
        """The session cookie's value of the club ``name`` (its key is known)."""
        mac = self._session_mac(name)
        assert mac is not None, name
        return f"{name}.{mac}"

    def check_session(self, candidate: str | None) -> str | None:
        """The club whose session ``candidate`` is, or None."""
        if not candidate:
            return None
        name, _, mac = candidate.partition(".")
        want = self._session_mac(name)
        if want is None or not mac:
            return None
        return name if hmac.compare_digest(want.encode(), mac.encode("utf-8", "surrogatepass")) \
            else None

    async def load(self, store: Store) -> None:
        """The keys as ``store`` keeps them now."""
        self._keys = await stored_keys(store, self.kind)
