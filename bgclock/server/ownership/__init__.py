"""Who owns each table and tournament: the interface the single process's
code is written against (``interface.Ownership``) and its one-process
implementation (``local.LocalOwnership``: this process owns everything).
A cluster implements the same interface in ``server/cluster/``; only
``create_app`` chooses between them."""
