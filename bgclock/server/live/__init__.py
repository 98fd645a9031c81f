"""The live tables.

From the bottom: ``commands`` (what a table decides, declared once),
``table_state`` (the table's ``decide``, pure), ``fold`` (a stored log
folded), ``messages`` (what a table says), ``table`` (one table's state,
what it shows, how it sends); a table's roles: ``flags`` (the expiry timer,
provisional flags), ``recovery`` (loading, restarts, failed commits),
``alerts`` (summonses, alerts handled), ``devices`` (the timekeeper); and
``hub``, which runs each table's commands (``TableRunner``: it reads a table's
state, asks, and carries out the answer) and holds every table (``Hub``)."""
