"""Fair shares of a capped resource between agents (the model's queue, the open sessions).

A first-come cap lets one agent deny every other: twenty long turns in flight, or a pile of open
sessions, and the next agent gets ``overloaded`` at once (issue 22 item 7). So a cap is divided
among the agents that hold a part of it, the asker included: each may hold up to
``max(1, limit // holders)``. An agent alone has the whole cap, as before; when a second one
arrives at a full cap it still gets its share, and the first cannot take more until it falls back
under its own. Those late shares may take the total past the cap, so a hard ceiling of twice the
cap keeps the memory and the wait bounded whatever happens.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

CEILING = 2  # the total never passes this many times the cap


@dataclass(frozen=True, slots=True)
class Share:
    """Where one agent stands against a cap: what it holds, what it may hold, and the total."""

    limit: int
    mine: int
    share: int
    total: int
    holders: int

    @property
    def admitted(self) -> bool:
        return self.mine < self.share and self.total < CEILING * self.limit

    def why_not(self, what: str, setting: str, then: str = "try again shortly") -> str:
        """The refusal's words: which bound was reached, in the setting's name."""
        if self.mine >= self.share:
            return (
                f"this agent holds {self.mine} {what}, its share of {setting} ({self.limit}) "
                f"divided among {self.holders} agent(s); {then}"
            )
        return f"{self.total} {what} across all agents, twice {setting}; {then}"


def of(limit: int, held: Mapping[str, int], key: str) -> Share:
    """``held``: what each agent holds now (agents holding nothing may be absent)."""
    holders = {k for k, n in held.items() if n > 0} | {key}
    return Share(
        limit=limit,
        mine=held.get(key, 0),
        share=max(1, limit // len(holders)),
        total=sum(held.values()),
        holders=len(holders),
    )
