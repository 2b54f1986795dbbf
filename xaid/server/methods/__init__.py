"""One module per protocol namespace; importing this package registers every method."""

from . import admin, agents, memory, models, mood, scheduler, sessions, system

__all__ = ["admin", "agents", "memory", "models", "mood", "scheduler", "sessions", "system"]
