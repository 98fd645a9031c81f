"""bgclock: backgammon tournament clocks that follow the published clock rules."""

__version__ = "0.1.0"
