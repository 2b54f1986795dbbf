"""``python -m perf voice_dev34``: the user's part said by the companion after the daemon's lead, on
perf/scenarios/voice_dev34.json.

The Morning scene's held-out runs still showed a role break or two per set (issue 25 item 2: "0
role breaks"): after a lead such as "Morning! Last time you said the interview was on Thursday,"
the 1.5B went on in the user's voice, their feeling or their matter as its own. The set (written
and committed before any change to the check, by a writer who never read it) holds such openings
per language: the user's opener, the words of theirs the check-in quotes, the daemon's lead and
the model's continuation, labelled ``role`` (the user's state, matter, plan or arrival said as the
companion's own) or ``ok`` (the companion's own voice, near misses among them: "I'm worried about
you", 我一直惦记着这事, the user's words quoted as theirs).

The same judge as voice_dev8 (``labelled``: each lead and reply streams through ``VoiceGate`` in
small pieces, three cuts; per language and half, recall, precision, false alarms). No model, no
daemon.
"""

from __future__ import annotations

from ..kit import Section
from .voice_dev8 import labelled

SET = "voice_dev34.json"
BREAKS = ("role",)


def run(quick: bool) -> Section:
    return labelled(
        SET, "The user's part said after the lead: voice_dev34 (issue 25 item 2)", BREAKS
    )
