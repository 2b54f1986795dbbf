"""xaid: an on-device daemon that gives a companion AI memory, mood and tact."""

__version__ = "0.1.0"
