"""What ``bgclock serve --cluster`` is told: the Redis URL, the channel
prefix, this process's name and the cluster's shared secret.

Imports nothing of the cluster's own (no redis): ``bgclock serve`` builds it
from its options before it knows whether redis is installed, and a process
that is not one of a cluster never imports the rest of this package.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass, field
from typing import Final

#: The environment variable that holds the cluster's secret (never an
#: option: an option is visible to anyone on the machine in ``ps``).
SECRET_ENV: Final = "BGCLOCK_CLUSTER_SECRET"
#: The shortest secret taken (characters): 128 bits of a random hex or
#: base64 string, as ``python3 -c 'import secrets; print(secrets.token_hex(32))'`` gives.
SECRET_MIN: Final = 32
SECRET_MAX: Final = 1024
#: A table with no device and its clock stopped this long (s) has its
#: lease handed back (``handback``; ``--release-idle-s``).
IDLE_S: Final = 60.0


class SecretError(ValueError):
    """The cluster's secret is missing or unusable (one line, for ``bgclock serve``)."""


def cluster_secret(environ: dict[str, str] | None = None) -> bytes:
    """The cluster's secret from ``BGCLOCK_CLUSTER_SECRET``, or ``SecretError``."""
    env = os.environ if environ is None else environ
    text = env.get(SECRET_ENV)
    if not text:
        raise SecretError(f"--cluster needs the cluster's secret in the environment variable "
                          f"{SECRET_ENV} (the same on every process; "
                          f"python3 -c 'import secrets; print(secrets.token_hex(32))' makes one)")
    if not SECRET_MIN <= len(text) <= SECRET_MAX or not text.isprintable():
        raise SecretError(f"{SECRET_ENV}: {SECRET_MIN}-{SECRET_MAX} printable characters "
                          f"(this one has {len(text)})")
    return text.encode("utf-8")


@dataclass(frozen=True, slots=True)
class ClusterConfig:
    """``bgclock serve --cluster URL [--cluster-prefix P] [--node-name N]``,
    with the secret from ``BGCLOCK_CLUSTER_SECRET``."""

    redis_url: str
    prefix: str = "bgclock"
    node: str = ""
    release_idle_s: float = IDLE_S
    #: The cluster's shared secret: every bus message is sealed with it (``seal``).
    secret: bytes = field(default=b"", repr=False)

    def node_name(self) -> str:
        """The name given, else ``HOST-PID``."""
        return self.node or f"{socket.gethostname()[:30]}-{os.getpid()}"
