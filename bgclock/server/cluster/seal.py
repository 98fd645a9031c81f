"""Every message on the cluster's bus is sealed with the cluster's secret.

Theory of operation
-------------------
Redis pub/sub carries whatever anyone who can ``PUBLISH`` sends, and the
channel names are listed by ``PUBSUB CHANNELS``.  So a process believes a
bus message only when it proves that a process holding the cluster's secret
(``BGCLOCK_CLUSTER_SECRET``) sent it, to that channel, lately, once:

    bg1 <node> <sent_ms> <nonce> <mac>\\n<payload>

``mac`` is HMAC-SHA256 under the secret over the channel, the sender's
name, the instant, the nonce and the payload.  A message is dropped (and
logged, without its payload) when:

- its MAC does not verify (forged, altered, or sealed with another secret,
  or published on another channel than the one it was sealed for);
- it was sealed more than ``WINDOW_MS`` before or after this process's wall
  clock (a replay of an old message; the processes' clocks are kept by NTP);
- its nonce was seen within the window already (a replay of a fresh one),
  on the same subscription: a process subscribed to a table's channel and
  to every table's (a pattern) hears each message once on each.

The nonces seen are kept for the window only: memory is bounded by the
traffic of ``2 × WINDOW_MS``.  Pure: the caller passes the instant and the
nonce; ``bus`` reads the clock and draws them.

What the seal does not do: hide the payload (Redis and its network see it:
``docs/cluster.md`` says what Redis's own ACL and TLS add), or stop a
process that holds the secret.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import deque
from typing import Final

#: How far a message's instant may be from the receiver's (ms).
WINDOW_MS: Final = 30_000
#: The version tag every sealed message starts with.
TAG: Final = b"bg1"
#: The longest header taken (bytes): a node name is at most 64 characters.
MAX_HEADER: Final = 256


class Forged(ValueError):
    """A bus message that does not prove it came from this cluster (the reason)."""


class Sealer:
    """Seals this process's messages and opens the others' (and its own)."""

    def __init__(self, secret: bytes, node: str) -> None:
        if not secret:
            raise ValueError("a cluster's bus needs its secret")
        self._secret = secret
        self.node = node
        self._seen: set[bytes] = set()
        self._order: deque[tuple[int, bytes]] = deque()

    def proof(self) -> bytes:
        """What shows another process that this one holds the same secret
        without telling it (kept in Redis by ``bus.check``)."""
        return hmac.new(self._secret, b"bgclock cluster secret check",
                        hashlib.sha256).hexdigest().encode()

    def _mac(self, channel: str, node: bytes, sent: bytes, nonce: bytes, payload: bytes) -> bytes:
        mac = hmac.new(self._secret, digestmod=hashlib.sha256)
        for part in (channel.encode(), node, sent, nonce):
            mac.update(len(part).to_bytes(4, "big"))
            mac.update(part)
        mac.update(payload)
        return mac.hexdigest().encode()

    def seal(self, channel: str, payload: bytes, now_ms: int, nonce: str) -> bytes:
        """``payload`` sealed for ``channel`` at ``now_ms`` with a fresh ``nonce``."""
        node, sent, n = self.node.encode(), str(now_ms).encode(), nonce.encode()
        mac = self._mac(channel, node, sent, n, payload)
        return b" ".join((TAG, node, sent, n, mac)) + b"\n" + payload

    def open(self, channel: str, data: bytes, now_ms: int,
             via: str = "") -> tuple[str, bytes]:
        """The sender's name and the payload of ``data`` heard on ``channel``
        at ``now_ms`` through the subscription ``via`` (the pattern it
        matched, or "" for the channel itself); ``Forged`` saying why not."""
        head, sep, payload = data.partition(b"\n")
        if not sep or len(head) > MAX_HEADER:
            raise Forged("not a sealed message")
        parts = head.split(b" ")
        if len(parts) != 5 or parts[0] != TAG:
            raise Forged("not a sealed message")
        _, node, sent, nonce, mac = parts
        if not hmac.compare_digest(mac, self._mac(channel, node, sent, nonce, payload)):
            raise Forged("its seal does not verify (another secret, or altered)")
        if not sent.isdigit() or abs(int(sent) - now_ms) > WINDOW_MS:
            raise Forged("sealed too long ago or ahead (a replay, or a clock far off)")
        self._forget(now_ms)
        key = b" ".join((via.encode(), node, nonce))
        if key in self._seen:
            raise Forged("heard already (a replay)")
        self._seen.add(key)
        self._order.append((int(sent), key))
        return node.decode("utf-8", "replace"), payload

    def _forget(self, now_ms: int) -> None:
        # a nonce older than the window cannot come back: its instant is refused first
        while self._order and self._order[0][0] < now_ms - 2 * WINDOW_MS:
            self._seen.discard(self._order.popleft()[1])
