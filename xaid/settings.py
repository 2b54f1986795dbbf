"""The running configuration, held in one place that SIGHUP swaps.

Every service is given this holder rather than a ``Config``: a reload (``lifespan._reload``)
replaces ``settings.config`` once, and each service reads it at the moment it needs a value, so a
changed ``memory.idle_minutes`` or ``mood.half_life_hours`` is seen everywhere at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .clock import UserZone
from .config import Config


@dataclass(eq=False)
class Settings:
    config: Config
    # The user's zone (memory.timezone), set when the daemon opens and on SIGHUP; lifespan puts it
    # into the context of everything the daemon runs (clock.use_zone).
    zone: UserZone = field(default_factory=UserZone)
