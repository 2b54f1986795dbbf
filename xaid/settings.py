"""The running configuration, held in one place that SIGHUP swaps.

Every service is given this holder rather than a ``Config``: a reload (``lifespan._reload``)
replaces ``settings.config`` once, and each service reads it at the moment it needs a value, so a
changed ``memory.idle_minutes`` or ``mood.half_life_hours`` is seen everywhere at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import Config


@dataclass(eq=False)
class Settings:
    config: Config
