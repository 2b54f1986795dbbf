"""One module per protocol namespace; importing this package registers every method."""

from . import agents, sessions, system

__all__ = ["agents", "sessions", "system"]
