"""``open_store``: the store a URL names (SQLite or PostgreSQL).

Apart from the package's ``__init__`` because it imports both stores, and
they import the package (``tests/test_imports.py``: no import cycles).
"""

from __future__ import annotations

from bgclock.store import DEFAULT_DEADLINE_S, Store, check_deadline, sqlite_path


def open_store(url: str, *, schema: str | None = None,
               deadline_s: float = DEFAULT_DEADLINE_S) -> Store:
    """A store for ``url``: ``postgresql://...``, ``sqlite:///PATH`` or a SQLite
    file path; ``ValueError`` for any other scheme.  ``deadline_s``: how long
    each database call may take (``check_deadline``)."""
    check_deadline(deadline_s)
    if url.startswith(("postgresql://", "postgres://")):
        from ._postgres import PostgresStore

        return PostgresStore(url, schema=schema or "public", deadline_s=deadline_s)
    path = sqlite_path(url)
    from ._sqlite import SqliteStore

    return SqliteStore(path, deadline_s=deadline_s)
