"""One module per protocol namespace; importing this package registers every method."""

from . import agents, mood, sessions, system

__all__ = ["agents", "mood", "sessions", "system"]
