"""Scorers and baselines of the LoCoMo runner (perf/eval/locomo.py), as pure functions.

Nothing here talks to the daemon, so each piece can be checked by hand (tests/perf/test_locomo.py):

- ``parse_session_time``: LoCoMo's "1:56 pm on 8 May, 2023" → milliseconds since the epoch (UTC);
- ``answer_words`` / ``answer_recall``: the share of an answer's content words found in retrieved texts;
- ``evidence_ids`` / ``evidence_recall``: the share of the evidence ``dia_id``s found among retrieved refs;
- ``BM25``: a small Okapi BM25 (k1 = 1.2, b = 0.75) over tokenised turns;
- ``pack``: what fits a token budget, with the daemon's own token estimate and packing rule.

Words: lower-cased, punctuation replaced by spaces, split on whitespace; a run of Chinese characters
becomes its overlapping two-character pieces (one character stays one piece), since Chinese has no
spaces and single characters match almost anything. Stopwords (STOPWORDS) are dropped from answers and
from BM25's terms, never from the texts searched for an answer's words.
"""

from __future__ import annotations

import calendar
import datetime as dt
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence

from xaid.text import tokens

# English function words plus Chinese particles and pronouns. Fixed here (not taken from the daemon's
# keyword index) so that a change in the daemon never moves the yardstick.
STOPWORDS = frozenset(
    """a about after again all am an and any are as at be been before being both but by can could did do does
    doing down during each few for from further had has have having he her here hers herself him himself his how
    i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where which while who whom why will
    with would you your yours yourself yourselves s t d ll m re ve don didn doesn isn wasn aren weren won
    的 了 是 在 我 你 他 她 它 们 我们 你们 他们 吗 呢 吧 啊 呀 和 也 就 都 还 很 这 那 个 一个 有""".split()
)

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS |= {name.lower(): i for i, name in enumerate(calendar.month_abbr) if name}
_SESSION_TIME = re.compile(
    r"^\s*(?P<h>\d{1,2}):(?P<m>\d{2})\s*(?P<ap>[ap])\.?m\.?\s+on\s+(?P<d>\d{1,2})\s+(?P<mon>[A-Za-z]+)\.?,?\s+"
    r"(?P<y>\d{4})\s*$",
    re.I,
)


def parse_session_time(text: str) -> int:
    """LoCoMo's ``session_N_date_time`` ("1:56 pm on 8 May, 2023") as ms since the epoch, read as UTC."""
    m = _SESSION_TIME.match(text)
    if m is None or m["mon"].lower() not in _MONTHS:
        raise ValueError(f"not a LoCoMo session time: {text!r}")
    hour = int(m["h"]) % 12 + (12 if m["ap"].lower() == "p" else 0)
    when = dt.datetime(
        int(m["y"]), _MONTHS[m["mon"].lower()], int(m["d"]), hour, int(m["m"]), tzinfo=dt.UTC
    )
    return int(when.timestamp() * 1000)


def _strip_punctuation(text: str) -> str:
    return "".join(" " if unicodedata.category(ch).startswith(("P", "S")) else ch for ch in text)


def words(text: str) -> list[str]:
    """Every word of ``text`` (stopwords kept): lower-cased, punctuation stripped, CJK runs as bigrams."""
    out: list[str] = []
    for chunk in _strip_punctuation(str(text).lower()).split():
        pos = 0
        for run in _CJK.finditer(chunk):
            if run.start() > pos:
                out.append(chunk[pos : run.start()])
            cjk = run.group()
            out += [cjk] if len(cjk) == 1 else [cjk[i : i + 2] for i in range(len(cjk) - 1)]
            pos = run.end()
        if pos < len(chunk):
            out.append(chunk[pos:])
    return out


def content_words(text: str) -> list[str]:
    """``words`` without stopwords, in order, repeats kept (BM25 counts them)."""
    return [w for w in words(text) if w not in STOPWORDS]


def answer_words(answer: object) -> list[str]:
    """The distinct content words of an answer (ints and other values are str()-ed first)."""
    return list(dict.fromkeys(content_words(str(answer))))


def answer_recall(answer: object, texts: Iterable[str]) -> float | None:
    """Share of the answer's content words present among the words of ``texts``; None when the answer
    has no content word (nothing to look for)."""
    wanted = answer_words(answer)
    if not wanted:
        return None
    found = set()
    for text in texts:
        found.update(words(text))
    return sum(1 for w in wanted if w in found) / len(wanted)


def evidence_ids(evidence: Iterable[object]) -> list[str]:
    """LoCoMo evidence as clean dia_ids: entries like "D1:3; D1:5" are split, blanks dropped."""
    out: list[str] = []
    for entry in evidence:
        out += [p for p in re.split(r"[;,\s]+", str(entry)) if p]
    return list(dict.fromkeys(out))


def evidence_recall(evidence: Iterable[object], refs: Iterable[str]) -> float | None:
    """Share of the evidence dia_ids among ``refs``; None when the question names no evidence."""
    wanted = evidence_ids(evidence)
    if not wanted:
        return None
    got = set(refs)
    return sum(1 for e in wanted if e in got) / len(wanted)


def pack(costs: Sequence[int], budget: int) -> list[int]:
    """Indices (in ranked order) of the items that fit ``budget``: the daemon's rule in
    xaid/memory/retrieve.py, an item that does not fit is skipped and the next ones still tried."""
    chosen: list[int] = []
    used = 0
    for i, cost in enumerate(costs):
        if used + cost > budget:
            continue
        used += cost
        chosen.append(i)
    return chosen


def pack_texts(ranked: Sequence[str], budget: int) -> list[int]:
    """``pack`` with the daemon's own count (``xaid.text.tokens.count``, what ``memory.search`` counts)."""
    return pack([tokens.count(t) for t in ranked], budget)


class BM25:
    """Okapi BM25 over a fixed list of documents (already tokenised).

    score(q, d) = Σ over the distinct query terms t of
        idf(t) · tf(t, d) · (k1 + 1) / (tf(t, d) + k1 · (1 − b + b · |d| / avgdl))
    with idf(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5)), the form that never goes negative
    (Lucene's), N the number of documents and n(t) how many contain t.
    """

    def __init__(self, docs: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75):
        self.k1, self.b = k1, b
        self.tfs = [Counter(d) for d in docs]
        self.lengths = [len(d) for d in docs]
        self.n = len(docs)
        self.avgdl = (sum(self.lengths) / self.n) if self.n else 0.0
        df: Counter[str] = Counter()
        for tf in self.tfs:
            df.update(tf.keys())
        self.idf = {t: math.log(1 + (self.n - n + 0.5) / (n + 0.5)) for t, n in df.items()}

    def score(self, query: Sequence[str], i: int) -> float:
        tf, length = self.tfs[i], self.lengths[i]
        norm = self.k1 * (1 - self.b + self.b * length / self.avgdl) if self.avgdl else self.k1
        total = 0.0
        for t in dict.fromkeys(query):
            f = tf.get(t, 0)
            if f:
                total += self.idf[t] * f * (self.k1 + 1) / (f + norm)
        return total

    def scores(self, query: Sequence[str]) -> list[float]:
        return [self.score(query, i) for i in range(self.n)]

    def rank(self, query: Sequence[str]) -> list[int]:
        """Document indices, best first; documents scoring 0 come last, in corpus order."""
        s = self.scores(query)
        return sorted(range(self.n), key=lambda i: (-s[i], i))


def mean(values: Iterable[float | None]) -> float | None:
    got = [v for v in values if v is not None]
    return sum(got) / len(got) if got else None
