"""``python -m perf voice_dev``: the voice check (xaid/conversation/voice.py) on labelled replies.

The set is perf/scenarios/voice_dev.json (issue 25 item 2): the user's newest message, the words a
check-in quotes and the daemon's lead where a scene has them, the names in memory, and one reply
labelled ok, parrot, role or name. Each reply streams through a ``VoiceGate`` in small random pieces,
as the provider sends it (the gate holds and checks sentence by sentence; a cut in a different place
must not change the verdict): a labelled break is **caught** when the gate drops any of it, and an
ok reply is a **false alarm** when the gate drops any of it. Per language, kind (written by hand
before the change, or a real model's reply) and half: the train half is what the check was tuned
on, the test half never was. No model, no daemon: the check sees only
text, so this is the check itself, not how often a model breaks the voice (``python -m perf
replies`` counts that on real replies).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Any

from testkit.streaming import streamed
from xaid.config import MemoryConfig
from xaid.conversation.cheer import told_hardship
from xaid.conversation.voice import Voice, VoiceGate
from xaid.embed.factory import load
from xaid.mood import meaning

from ..kit import Aim, CaseTally, Row, Section, load_scenario, misses

SET = "voice_dev.json"
LABELS = ("parrot", "role", "name")
SEEDS = 3  # ways of cutting each reply into stream pieces


@dataclass(frozen=True)
class Verdict:
    """What the gate did with one labelled reply."""

    case: str
    lang: str
    half: str
    label: str
    broken: str | None  # the rule it dropped a sentence for on any cut, or None
    sent: str  # what the user would read (first cut)


def gated(
    case: dict[str, Any], cut: bool = False, close: bool = False, hardship: bool = False
) -> tuple[str | None, str]:
    """The rule the gate dropped a sentence of ``case``'s reply for on any of ``SEEDS`` stream cuts,
    and what the user read on the first; ``cut``: the model was stopped at ``max_tokens``; ``close``:
    the reply ended as the daemon ends a turn (``VoiceGate.end``); ``hardship``: what the daemon
    read of the message before the reply (cheer.told_hardship)."""
    voice = Voice(
        case["said"],
        tuple(case.get("names", ())),
        quoted=tuple(case.get("quoted", ())),
        own=case.get("own", ""),
        hardship=hardship,
    )
    lead = case.get("lead", "")
    broken: str | None = None
    sent = ""
    for seed in range(SEEDS):
        gate = VoiceGate(voice, lead)
        out = streamed(gate, lead + case["reply"], seed, cut) + (gate.end() if close else "")
        if seed == 0:
            sent = out
        broken = broken or gate.broken
    return broken, sent


def judge(case: dict[str, Any], ended: bool = False, hardship: bool = False) -> Verdict:
    """``ended``: the reply ends as the daemon ends a turn, cut where ``finish`` is "length"."""
    broken, sent = gated(case, ended and case.get("finish") == "length", ended, hardship)
    return Verdict(case["id"], case["lang"], case["half"], case["label"], broken, sent)


def hardships(said: list[str]) -> dict[str, bool]:
    """What the daemon reads of each message before its reply (cheer.told_hardship), with the
    default embedder the learned feelings model was fitted on, as a turn reads it."""
    embedder, _profile = load(MemoryConfig())
    bank = meaning.Prototypes.from_vectors(list(embedder.embed(meaning.Prototypes.texts())))
    vectors = embedder.embed(said)
    return {t: told_hardship(t, v, bank) for t, v in zip(said, vectors, strict=True)}


def verdicts(name: str = SET, ended: bool = False) -> list[Verdict]:
    cases = load_scenario(name)["cases"]
    hard = hardships(sorted({c["said"] for c in cases}))
    return [judge(c, ended, hard[c["said"]]) for c in cases]


def run(quick: bool) -> Section:
    section = Section("Voice check on the voice dev set (issue 25 item 2)")
    found = verdicts()
    for lang in ("en", "zh"):
        for kind, half in itertools.product(("written", "model"), ("train", "test")):
            mine = [
                v
                for v in found
                if v.lang == lang and v.half == half and (kind == "model") == ("-model-" in v.case)
            ]
            caught, alarms = CaseTally(), CaseTally()
            by_label: Counter[str] = Counter()
            of_label: Counter[str] = Counter()
            for v in mine:
                if v.label == "ok":
                    alarms.add(v.broken is None, v.case, f"dropped as {v.broken}: {v.sent!r}")
                else:
                    of_label[v.label] += 1
                    by_label[v.label] += v.broken is not None
                    caught.add(v.broken is not None, v.case)
            split = ", ".join(f"{k} {by_label[k]}/{of_label[k]}" for k in LABELS)
            section.rows.append(
                Row(
                    f"{lang} {kind} {half}: breaks caught",
                    caught.percent,
                    "%",
                    note=f"{caught.hits}/{caught.total} ({split})",
                )
            )
            section.rows.append(
                Row(
                    f"{lang} {kind} {half}: good replies dropped (false alarms)",
                    alarms.total - alarms.hits,
                    "replies",
                    aim=Aim("<=", 0),
                    note=f"of {alarms.total}",
                )
            )
            if half == "train":  # the test half's cases are not listed: it is never tuned on
                section.notes.append(misses(f"{lang} {kind} train, not caught", caught))
                section.notes.append(misses(f"{lang} {kind} train, false alarms", alarms))
    section.notes.append(
        "Each reply streams through VoiceGate in 1-4 character pieces, three cuts; caught = a "
        "sentence dropped on any cut. perf/scenarios/voice_dev.json: 'written' cases were written "
        "before the change; 'model' cases are qwen2.5-coder 1.5B/0.5B replies (voice check off), "
        "labelled by hand after the first change."
    )
    return section
