"""``python -m perf voice_dev17``: the companion's own voice on perf/scenarios/voice_dev17.json.

After the later-turn directive was shortened (session 16), perf later_turns showed the 1.5B
answering two English lines as a generic assistant: "As an AI language model, …" and "I don't have
access to real-time streaming information" (issue 25 item 2, "always the companion's voice"). The set
holds such sentences as a model writes them, in English and Chinese (label ``assistant``: it
disclaims itself as an AI, a model, a program or an assistant, says what it cannot access or feel,
offers service), and companion sentences that must pass (``ok``), near misses among them ("I can't
wait to hear how it went", "我也没法替你决定", honest answers when the user asked what it is).

The same judge as voice_dev8 (``labelled``: each reply streams through ``VoiceGate`` in small
pieces, three cuts; per language and half, recall, precision, false alarms, replies shown
mid-clause), and per language and half the breaks the ``assistant`` rule itself caught, apart from
those another rule happened to drop, and the fine replies it dropped from (the other rules' false
alarms are counted in ``labelled``'s rows). No model, no daemon.
"""

from __future__ import annotations

from ..kit import Aim, Row, Section
from .voice_dev import verdicts
from .voice_dev8 import labelled

SET = "voice_dev17.json"
BREAKS = ("assistant",)


def run(quick: bool) -> Section:
    found = verdicts(SET, ended=True)
    section = labelled(
        SET, "The companion's own voice on voice_dev17 (issue 25 item 2)", BREAKS, found
    )
    for lang in ("en", "zh"):
        for half in ("train", "test"):
            mine = [v for v in found if v.lang == lang and v.half == half]
            breaks = [v for v in mine if v.label in BREAKS]
            by_rule = sum(v.broken == "assistant" for v in breaks)
            fine = [v for v in mine if v.label not in BREAKS]
            wrong = [v.case for v in fine if v.broken == "assistant"]
            section.rows.append(
                Row(
                    f"{lang} {half}: breaks caught by the assistant rule",
                    round(100.0 * by_rule / len(breaks), 1) if breaks else 0.0,
                    "%",
                    note=f"{by_rule}/{len(breaks)}",
                )
            )
            section.rows.append(
                Row(
                    f"{lang} {half}: fine replies the assistant rule dropped from",
                    len(wrong),
                    "replies",
                    aim=Aim("<=", 0),
                    note=f"of {len(fine)}"
                    + (f": {', '.join(wrong)}" if half == "train" and wrong else ""),
                )
            )
    return section
