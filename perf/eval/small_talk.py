"""``python -m perf.eval.small_talk [READER.npz ...]``: the check-in reader on single chat messages.

Issue 25 (session 36). The check-in reader (xaid/scheduler/matter.py) read light anecdotes of the
day as matters to follow up: "今晚看了两集繁花 停不下来" 0.88, "今天地铁上看到一个人穿恐龙服" 0.87 (its
threshold is 0.5), and such an item, armed from the small talk of a later evening, was the one
suggested the next morning instead of the trip or the operation told before it
(morning_dev35/dev36's train halves). perf/scenarios/small_talk_dev36.json holds single messages
labelled ``none`` (small talk, nothing left open) or ``matter``, written by a writer who never read
the rules; its ``train`` half is fitted on (checkin_fit.py), its ``test`` half only measured here.

Per reader file (default: the packaged one), per language, split and label: how many messages it
reads as a matter (``matter`` at its threshold or more, and above ``loss``, as arming takes one).
The reader alone: arming also has its rules (a dated plan is armed whatever the reader reads), and
a session's lines are read together too; ``python -m perf checkin_dev`` and
``python -m perf.eval.morning_arm all`` judge the whole. A dev harness, not an area: the embedder
only (~20 s).

Measured in session 36 (the packaged reader): small talk read as a matter, test half en 3/55, zh
6/55; matters read, test en 15/25, zh 19/25. Refitted with the train half's small talk added
(checkin_fit.py, each label weighed alike), the test half read 0/55 and 0/55 small talk as matters
and 16/25 and 18/25 matters, but in ``morning_arm all`` three English losses and break-ups of the
train halves ("Sam and I ended things tonight") were then armed as matters to ask about (the
sentence and session reads moved, not the message's), so that reader was not kept.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from xaid.embed.use import UseEmbedder
from xaid.scheduler import matter

from ..kit import SCENARIOS
from .checkin_dev import START_MS

SET = SCENARIOS / "small_talk_dev36.json"


def items(split: str | None = None) -> list[dict[str, str]]:
    """The set's messages, of one ``split`` or both."""
    data = json.loads(SET.read_text(encoding="utf-8"))["items"]
    return [i for i in data if split is None or i["split"] == split]


def armed(reader: matter.Reader, vectors: np.ndarray, texts: list[str]) -> list[bool]:
    """Whether the reader takes each message for a matter, as arming does (``Readings.sure``)."""
    out = []
    for vector, text in zip(vectors, texts, strict=True):
        read = reader.read(vector, text, START_MS)
        out.append(read.matter >= reader.threshold and read.matter > read.loss)
    return out


def main(argv: list[str]) -> None:
    paths = [Path(a) for a in argv] or [matter.MODEL_PATH]
    data = items()
    texts = [i["text"] for i in data]
    vectors = np.asarray(UseEmbedder().embed(texts), dtype=np.float64)
    for path in paths:
        reader = matter.Reader.load(path)
        tally: Counter[tuple[str, str, str, bool]] = Counter()
        for item, took in zip(data, armed(reader, vectors, texts), strict=True):
            tally[(item["lang"], item["split"], item["label"], took)] += 1
        print(f"{path} (threshold {reader.threshold:.3f})")
        for lang in ("en", "zh"):
            for split in ("train", "test"):
                none = (tally[(lang, split, "none", True)], tally[(lang, split, "none", False)])
                asks = (tally[(lang, split, "matter", True)], tally[(lang, split, "matter", False)])
                print(
                    f"  {lang} {split:5}: small talk read as a matter {none[0]}/{sum(none)}, "
                    f"matters read {asks[0]}/{sum(asks)}"
                )


if __name__ == "__main__":
    main(sys.argv[1:])
