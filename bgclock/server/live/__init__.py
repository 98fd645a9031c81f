"""The live tables' pure rules (``table_state``: the table's ``decide``).

The hub (``bgclock.server.live.hub``) runs them: it reads a table's state,
asks, and carries out the answer."""
