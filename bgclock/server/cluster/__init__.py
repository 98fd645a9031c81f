"""Several ``bgclock serve`` processes on one PostgreSQL database.

Each table is owned by one process at a time (``lease``: a PostgreSQL
advisory lock that dies with its connection, and a fencing epoch every write
checks); the others forward its devices' commands to it and relay its
updates over Redis pub/sub (``bus``, every message sealed with the cluster's
secret: ``seal``); a director's HTTP request goes to the process that owns
its tournament or table (``forward``); ``node`` ties them to the server.
See ``docs/cluster.md`` and ``docs/architecture.md``.

Importing this package imports nothing of it: redis (the ``cluster``
extra) is loaded only when ``bgclock serve --cluster`` builds a ``Cluster``
(``node``), so a single process runs on the base install.  The names below
are loaded on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "HEARTBEAT_S": "lease", "LEASE_TTL_S": "lease", "Leases": "lease", "lease_key": "lease",
    "WATCH_S": "node", "Cluster": "node", "RemoteDevice": "node",
    "ClusterConfig": "config",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
