"""One module per protocol namespace; importing this package registers every method."""

from . import agents, memory, mood, scheduler, sessions, system

__all__ = ["agents", "memory", "mood", "scheduler", "sessions", "system"]
