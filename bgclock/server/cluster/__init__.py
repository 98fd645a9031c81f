"""Several ``bgclock serve`` processes on one PostgreSQL database.

Each table is owned by one process at a time (``lease``: a PostgreSQL
advisory lock that dies with its connection, and a fencing epoch every write
checks); the others forward its devices' commands to it and relay its
updates over Redis pub/sub (``bus``); a director's HTTP request goes to the
process that keeps its tournament or table (``forward``); ``node`` ties them
to the server.
See ``docs/cluster.md`` and ``docs/architecture.md``.
"""

from .lease import HEARTBEAT_S, LEASE_TTL_S, Leases, lease_key
from .node import WATCH_S, Cluster, ClusterConfig, RemoteDevice

__all__ = ["HEARTBEAT_S", "LEASE_TTL_S", "WATCH_S", "Cluster", "ClusterConfig", "Leases",
           "RemoteDevice", "lease_key"]
