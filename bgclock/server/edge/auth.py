"""Who may do what: the director's secret, table tokens, origins, rate limits."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from bgclock.store import Store

#: Bytes of randomness in a fresh director secret (128 bits).
SECRET_BYTES: Final = 16
#: Where the store keeps the director's key (its ``meta`` table, beside the
#: table tokens' key), so that open dashboards and printed URLs outlive a restart.
DIRECTOR_KEY_META: Final = "director_key"
#: A director's password: this many characters at least, and at most (a hello's key).
PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 200
#: What the director's session value is the HMAC of (under the key).
SESSION_LABEL: Final = b"bgclock director session v1"


def new_secret() -> str:
    """A fresh 128-bit secret, URL-safe."""
    return secrets.token_urlsafe(SECRET_BYTES)


def check_password(password: str) -> str:
    """A director's chosen password, or ``ValueError`` saying what is wrong.

    It travels in an HTTP header (``Authorization: Bearer``), so printable
    ASCII only, with no space at either end."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ValueError(f"--director-password: {PASSWORD_MIN}-{PASSWORD_MAX} characters "
                         f"(this one has {len(password)})")
    if not all(" " <= ch <= "~" for ch in password):
        raise ValueError("--director-password: letters, digits, punctuation and spaces "
                         "only (printable ASCII)")
    if password != password.strip():
        raise ValueError("--director-password: no space at the start or the end")
    return password


async def director_key(store: Store, *, password: str | None = None,
                       rotate: bool = False) -> str:
    """The director's key kept in ``store`` (an open store): ``password`` when
    given (kept for later starts too), a fresh one when ``rotate``, else the
    one kept (made the first time)."""
    if password is not None:
        await store.set_meta(DIRECTOR_KEY_META, check_password(password))
        return password
    if rotate:
        fresh = new_secret()
        await store.set_meta(DIRECTOR_KEY_META, fresh)
        return fresh
    return await store.set_meta_if_absent(DIRECTOR_KEY_META, new_secret())


class DirectorAuth:
    """Checks the director's secret, and the session a browser holds for it,
    in constant time.

    The session (the ``bgclock_director`` cookie, ``edge.session``) is an
    HMAC of a fixed label under the key, not the key: a cookie read off a
    machine does not print the key, and a new key (``--rotate-director-key``,
    ``--director-password``) ends every session made with the old one."""

    def __init__(self, secret: str) -> None:
        if not secret:
            raise ValueError("the director's secret must not be empty")
        self._secret = secret.encode()
        mac = hmac.new(self._secret, SESSION_LABEL, hashlib.sha256).digest()
        self._session = base64.urlsafe_b64encode(mac).rstrip(b"=")

    def session(self) -> str:
        """The value of the director's session cookie for this key."""
        return self._session.decode()

    def check_session(self, candidate: str | None) -> bool:
        if not candidate:
            return False
        return hmac.compare_digest(self._session, candidate.encode("utf-8", "surrogatepass"))

    def check(self, candidate: str | None) -> bool:
        if not candidate:
            return False
        # bytes, not str: compare_digest refuses a str with non-ASCII characters
        return hmac.compare_digest(self._secret, candidate.encode("utf-8", "surrogatepass"))


class TableTokens:
    """Signed table tokens ``ID.MAC``: each opens exactly one table."""

    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("the token key must have at least 128 bits")
        self._key = key

    def _mac(self, table_id: int) -> str:
        digest = hmac.new(self._key, f"table:{table_id}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode()

    def room_token(self, tournament_id: int) -> str:
        """The read-only token of a tournament's room display (never a table's)."""
        digest = hmac.new(self._key, f"room:{tournament_id}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode()

    def sheet_pin(self, tournament_id: int, player_id: int) -> str:
        """A player's own sheet PIN (8 digits): handed to the player by the
        director, typed at the table it confirms that player's score sheet."""
        digest = hmac.new(self._key, f"sheet-pin:{tournament_id}:{player_id}".encode(),
                          hashlib.sha256).digest()
        return f"{int.from_bytes(digest[:8], 'big') % 10**8:08d}"

    def token(self, table_id: int) -> str:
        return f"{table_id}.{self._mac(table_id)}"

    def table_of(self, token: str | None) -> int | None:
        """The table a token opens, or None if it is not genuine."""
        if not token or token.count(".") != 1:
            return None
        head, mac = token.split(".")
        if not head.isdigit() or len(head) > 18:
            return None
        table_id = int(head)
        if hmac.compare_digest(self._mac(table_id).encode(),
                               mac.encode("utf-8", "surrogatepass")):
            return table_id
        return None


def origin_allowed(origin: str | None, host: str | None, scheme: str,
                   allowed: Iterable[str]) -> bool:
    """A browser may open the WebSocket only from the server's own pages
    (or an origin the operator allowed); clients that send no Origin are not
    browsers and still need a token."""
    if origin is None:
        return True
    if origin in allowed or "*" in allowed:
        return True
    if host is None:
        return False
    web = "https" if scheme in ("https", "wss") else "http"
    return origin == f"{web}://{host}"


class RateLimiter:
    """A token bucket: ``capacity`` messages at once, ``rate`` more per second."""

    __slots__ = ("capacity", "rate", "_tokens", "_last", "refused_in_a_row")

    def __init__(self, capacity: float, rate: float) -> None:
        self.capacity = capacity
        self.rate = rate
        self._tokens = capacity
        self._last = time.monotonic()
        self.refused_in_a_row = 0

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self._tokens = min(self.capacity, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        return False
