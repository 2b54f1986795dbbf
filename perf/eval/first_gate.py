"""``python -m perf.eval.first_gate [SPLIT] [-v]``: which first messages hold the check-in back, and why.

Issue 25 (session 31). A session's first message decides whether the day's check-in comes at all
(scheduler/fire.py ``_choose``): not while the user is very low right now, not when it tells of a
loss, not when it tells grave news. On morning_dev32 the daemon held the check-in back after "ugh my
coffee machine died this morning" and "回来路上堵死了" (read as very low) and after "my neighbour's
cat keeps sleeping on my car lol" (read as grave news), so yesterday's surgery and offer call went
unasked. Each message of perf/scenarios/first_messages_dev31.json (SPLIT ``train``, ``test`` or
``both``, the default) is read the daemon's way in pure functions:

- the turn's own feeling: the rules, then by meaning where they are weak (mood/turn_feel.py,
  settled against a neutral mood before); its valence is fire's ``said``;
- the first message by meaning (conversation/first_words.py): a loss told in it, grave news;
- the rules' loss (mood/loss.py ``ruled``).

It prints, per language, label (``ordinary``: a friend answers and still asks; ``grave``: a friend
stays with it) and split, how many were held back and by which gate, in fire's order. A dev
harness, not an area: no model, only the embedder.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from xaid.conversation import first_words
from xaid.embed.use import UseEmbedder
from xaid.mood import learned, loss, meaning, turn_feel
from xaid.mood.classifier import Reading, RuleClassifier
from xaid.mood.tone import VERY_LOW_VALENCE
from xaid.scheduler import matter

from ..kit import SCENARIOS

SET = SCENARIOS / "first_messages_dev31.json"
GATES = ("very low", "loss told", "grave news")


@dataclass(frozen=True, slots=True)
class Read:
    """What the first turn reads of one message, and the gate that holds the check-in back."""

    heard: Reading  # the turn's own feeling; its valence is fire's ``said``
    rules: float  # the rules' valence alone
    lost: bool
    ruled_loss: bool
    grave: float  # meaning.Prototypes.grave: nearer grave news than an ordinary line by this much

    @property
    def said(self) -> float:
        return self.heard.valence if self.heard.confidence > 0 else 0.0

    def gate(self, weighed: bool) -> str | None:
        """The gate of fire.py ``_choose`` that holds the check-in back, in its order; ``weighed``:
        with the turn's feeling weighed (first_words.weigh), else as before session 31."""
        weight = (
            first_words.weigh(self.grave, self.heard)
            if weighed
            else first_words.Weight(self.grave >= meaning.GRAVE_MARGIN, False, False)
        )
        if self.said <= VERY_LOW_VALENCE and not weight.light:
            return "very low"
        if self.lost or self.ruled_loss:
            return "loss told"
        if weight.grave:
            return "grave news"
        return None


def read_all(texts: list[str], embed: Any) -> list[Read]:
    """The readings of ``texts``, each read as a session's first message after a quiet night."""
    rules_reader = RuleClassifier()
    model = learned.default()
    bank = meaning.Prototypes.build(embed)
    reader = matter.default()
    assert reader is not None, "the packaged check-in reader is missing"
    out: list[Read] = []
    for text in texts:
        rules = rules_reader.classify(text)
        own = turn_feel.texts(text)
        vectors = [np.asarray(v, dtype=np.float32) for v in embed(own)]
        heard = turn_feel.settle(turn_feel.read(model, text, rules, vectors), 0.0)
        # the turn embeds the message with its faces as words; first_words, the message itself
        vector = vectors[0] if own[0] == text else np.asarray(embed([text])[0], dtype=np.float32)
        lost = matter.told_in_clause(bank.loss(vector), reader.read(vector, text, 0))
        out.append(Read(heard, rules.valence, lost, loss.ruled(text), bank.grave(vector)))
    return out


def main(argv: list[str]) -> None:
    verbose = "-v" in argv
    rest = [a for a in argv if not a.startswith("-")]
    split = rest[0] if rest else "both"
    items = [
        i
        for i in json.loads(SET.read_text(encoding="utf-8"))["items"]
        if split == "both" or i["split"] == split
    ]
    embedder = UseEmbedder()

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(embedder.embed(texts), dtype=np.float32)

    reads = read_all([i["text"] for i in items], embed)
    for weighed in (False, True):
        print("weighed (first_words.weigh)" if weighed else "before (session 30)")
        tally: Counter[tuple[str, str, str, str]] = Counter()
        for item, r in zip(items, reads, strict=True):
            key = (item["lang"], item["label"], item["split"])
            gate = r.gate(weighed)
            tally[(*key, "all")] += 1
            tally[(*key, gate or "asked")] += 1
            if verbose:
                print(
                    f"  {item['lang']} {item['label']:8} {item['split']:5} {gate or '-':10} "
                    f"said {r.said:+.2f} rules {r.rules:+.2f} grave {r.grave:+.3f} "
                    f"lost {int(r.lost)}{int(r.ruled_loss)}  {item['text']}"
                )
        for lang in ("en", "zh"):
            for label in ("ordinary", "grave"):
                for half in ("train", "test"):
                    n = tally[(lang, label, half, "all")]
                    if not n:
                        continue
                    held = n - tally[(lang, label, half, "asked")]
                    by = ", ".join(f"{g} {tally[(lang, label, half, g)]}" for g in GATES)
                    print(f"  {lang} {label:8} {half:5}: held back {held}/{n} ({by})")


if __name__ == "__main__":
    main(sys.argv[1:])
