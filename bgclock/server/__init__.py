"""bgclock.server: the tournament server (``bgclock serve``).

``create_app(store, ...)`` builds the ASGI application; docs/protocol.md is the
contract with the devices.
"""

from .app import create_app

__all__ = ["create_app"]
