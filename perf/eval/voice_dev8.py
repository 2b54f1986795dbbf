"""``python -m perf voice_dev8``: the voice check and its repair on perf/scenarios/voice_dev8.json.

`make demo`'s 1.5B evening (issue 25 item 2) showed two faults the first voice set did not hold: a
reply the user read as "你终于回家了，" (the check dropped the rest of the sentence after its start
had gone out, or ``max_tokens`` stopped it mid-clause) and a Chinese reply that handed the user's
message back in another order. The set holds hand-written replies and real 0.5B/1.5B replies
(ids with "-model-"), each labelled by what a reader would say: ok, parrot, role (speaks as the
user), self (addresses itself by the companion's own name), name (a name from memory cut, fused
or misspelt) or cut (stopped mid-clause by ``max_tokens``: ``finish`` is "length").

Each reply streams through ``VoiceGate`` in 1-4 character pieces, three cuts (testkit.streaming),
then the gate ends the reply as the daemon does. Per language and half (train tuned on, test
never): per label, the breaks the gate dropped a sentence for (recall); of all replies it dropped a
sentence of, the share that were breaks (precision: a false alarm costs a retry and a good
sentence); and what the user read: replies shown ending on a clause mark or a conjunction (this
judge's own short list, not the check's), all replies and the cut ones apart. No model, no daemon.
"""

from __future__ import annotations

import re
from collections import Counter

from ..kit import Aim, Row, Section
from .voice_dev import Verdict, verdicts

SET = "voice_dev8.json"
BREAKS = ("parrot", "role", "self", "name")
_OPEN_END = re.compile(
    r"[，,、；;：:—\-]\s*$"
    r"|(?:然后|但是|可是|不过|而且|所以|因为|如果|或者|还有|另外|并且|虽然|比如|以及|和|跟|与)[。.]?\s*$"
    r"|\b(?:and|but|or|because|also)\.?\s*$"  # a conjunction, closed or not ("另外。", "and.")
    r"|\b(?:so|then|if|with|to|the|a|an|of|for|when|while)\s*$"  # unclosed ("help with." is whole)
    r"|\n\s*\d+[.)]\s*$",  # a list's next number
    re.I,
)


def open_end(v: Verdict) -> bool:
    """The user read a reply that stops on a clause mark or a conjunction."""
    return _OPEN_END.search(v.sent.strip()) is not None


def run(quick: bool) -> Section:
    return labelled(SET, "Voice check and repair on voice_dev8 (issue 25 item 2)", BREAKS)


def labelled(
    name: str, title: str, breaks: tuple[str, ...], found: list[Verdict] | None = None
) -> Section:
    """Recall per label of ``breaks``, precision, false alarms and replies shown mid-clause, per
    language and half, of the voice check on the labelled replies of perf/scenarios/``name``
    (``found``: their verdicts, when the caller has them already)."""
    section = Section(title)
    found = verdicts(name, ended=True) if found is None else found
    for lang in ("en", "zh"):
        for half in ("train", "test"):
            mine = [v for v in found if v.lang == lang and v.half == half]
            of: Counter[str] = Counter(v.label for v in mine)
            caught: Counter[str] = Counter(v.label for v in mine if v.broken is not None)
            flagged = [v for v in mine if v.broken is not None]
            true = sum(v.label in breaks for v in flagged)
            broken = sum(of[k] for k in breaks)
            section.rows.append(
                Row(
                    f"{lang} {half}: breaks caught (recall)",
                    round(100.0 * sum(caught[k] for k in breaks) / broken, 1) if broken else 0.0,
                    "%",
                    note=", ".join(f"{k} {caught[k]}/{of[k]}" for k in breaks if of[k]),
                )
            )
            section.rows.append(
                Row(
                    f"{lang} {half}: replies dropped from that were breaks (precision)",
                    round(100.0 * true / len(flagged), 1) if flagged else 100.0,
                    "%",
                    note=f"{true}/{len(flagged)}",
                )
            )
            section.rows.append(
                Row(
                    f"{lang} {half}: fine replies dropped from (false alarms)",
                    caught["ok"] + caught["cut"],
                    "replies",
                    aim=Aim("<=", 0),
                    note=f"of {of['ok'] + of['cut']}",
                )
            )
            cut = [v for v in mine if v.label == "cut"]
            section.rows.append(
                Row(
                    f"{lang} {half}: replies shown ending mid-clause",
                    sum(open_end(v) for v in mine),
                    "replies",
                    aim=Aim("<=", 0),
                    note=f"of {len(mine)}; of the {len(cut)} cut by max_tokens "
                    f"{sum(open_end(v) for v in cut)}",
                )
            )
            if half == "train":  # the test half is never listed: it is not tuned on
                missed = [
                    f"{v.case} ({v.label}: {v.broken}, shown {v.sent!r})"
                    for v in mine
                    if (v.label in breaks) != (v.broken is not None) or open_end(v)
                ]
                section.notes.append(f"{lang} train, wrong or open: " + "; ".join(missed))
    section.notes.append(
        f"perf/scenarios/{name}; three random stream cuts per reply; caught = a sentence "
        "dropped on any cut; 'mid-clause' = what the user read (first cut) ends on a clause mark "
        "or a conjunction."
    )
    return section
