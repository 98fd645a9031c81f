"""The WebSocket: the protocol's messages and one session per socket."""
