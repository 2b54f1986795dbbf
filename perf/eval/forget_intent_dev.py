"""Forget requests said the way people talk, recognised and honoured: area ``forget_dev3``.

``python -m perf forget_dev3``. On perf/scenarios/forgets_dev3.json (issue 24 items 2 and 7): its
``test`` half was never used to fit anything (the classifier of xaid/memory/forget_intent.py learns
from the ``train`` half, perf/eval/forget_intent_train.py), so the test rows say how the mechanism
does on wordings it was not fitted to; the train half's rows are fit. Also the earlier dev sets
(forgets_dev.json, forgets_dev2.json), which the classifier also learned from, for no regression.

Each message goes through the daemon's own functions with the daemon's default embedder
(USE-multilingual-v3), the way xaid/conversation/forgetting.py does, no daemon (the wire flow is
tests/xaid/memory/test_forget_intent_e2e.py):

- "before": the frames, then the prototypes (forget_request.parse, then by_meaning: the previous
  pass, kept in perf/eval/meaning_dev.py's ``recogniser``);
- "after": the frames and the classifier (forget_intent.recognise): a request is carried out when
  sure, asked back about ("Do you want me to forget …?") in the middle band.

Recognised: carried out (a sure request). Asked: the companion asks back whether to forget (no
guess, nothing gone yet; a yes carries it out). Honoured: recognised, and the history it refers to
resolved and forgotten at once: a named topic resolved by forget_topic against the case's history
and an unrelated older session (every history line holding a ``gone`` word matched, no line of the
older session), or "that" as the message just before in the same session. Mis-fired: a look-alike
carried out as a request; a look-alike asked about is counted apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from xaid.embed.use import UseEmbedder
from xaid.memory import forget_intent, forget_request, forget_topic
from xaid.memory.forget_request import ForgetRequest

from ..kit import Aim, Row, Section, progress
from .meaning_dev import at, load, recogniser

Embed = Callable[[list[str]], np.ndarray]
Reading = tuple[ForgetRequest | None, bool]  # the request, and whether it is only asked about
LANGS = ("en", "zh")
MINUTE = 1


def after(embed: Embed) -> Callable[[str], Reading]:
    """What the daemon does now (conversation/forgetting.py): the frames and the classifier."""
    intent = forget_intent.default()
    earlier = recogniser(embed)

    def read(text: str) -> Reading:
        framed = forget_request.parse(text)
        if not forget_intent.worth_reading(text, framed):
            return None, False
        vectors = embed([text, forget_intent.request_clause(text)])
        agreed = earlier(text) is not None
        found = forget_intent.recognise(text, framed, (vectors[0], vectors[1]), intent, agreed)
        if found is None:
            return None, False
        return found.request, not found.sure

    return read


def before(embed: Embed) -> Callable[[str], Reading]:
    recognise = recogniser(embed)

    def read(text: str) -> Reading:
        return recognise(text), False

    return read


def honoured(
    case: dict[str, Any], request: ForgetRequest, bg: dict[str, Any], embed: Embed
) -> bool:
    """Whether carrying out ``request`` forgets the case's history (module doc) at once."""
    h, r = case["history"], case["request"]
    same = bool(r.get("same_session"))
    if request.kind == "previous":
        return same and len(h["lines"]) == 1
    lines = [(i, "bg", at(bg["day"], bg["hour"], i), t) for i, t in enumerate(bg["lines"])]
    base = len(lines)
    lines += [
        (base + i, "h", at(h["day"], h["hour"], i * MINUTE), t) for i, t in enumerate(h["lines"])
    ]
    now = at(h["day"], h["hour"], len(h["lines"]) * MINUTE) if same else at(r["day"], r["hour"])
    cands = [
        forget_topic.Candidate(i, f"{src}-{'s' if same and src == 'h' else 'x'}", ts, t)
        for i, src, ts, t in lines
    ]
    vectors = embed([c.text for c in cands])
    phrase = request.phrase or request.what or ""
    res = forget_topic.resolve(phrase, embed([phrase])[0], cands, vectors, r["text"], now)
    if res.decision != "forget":
        return False
    got = set(res.message_ids)
    wanted = {
        i
        for i, src, _, t in lines
        if src == "h" and any(g.lower() in t.lower() for g in case["gone"])
    }
    return wanted <= got and not any(i < base for i in got)


def dev3(embed: Embed, read: Callable[[str], Reading], split: str) -> Counter[str]:
    data = load("forgets_dev3.json")
    tally: Counter[str] = Counter()
    for case in data["cases"]:
        if case["split"] != split:
            continue
        lang = case["lang"]
        request, unsure = read(case["request"]["text"])
        if case["fire"]:
            tally[f"{lang}:requests"] += 1
            tally[f"{lang}:recognised"] += request is not None and not unsure
            tally[f"{lang}:asked"] += request is not None and unsure
            tally[f"{lang}:honoured"] += (
                request is not None
                and not unsure
                and honoured(case, request, data["background"][lang], embed)
            )
        else:
            tally[f"{lang}:negatives"] += 1
            tally[f"{lang}:misfired"] += request is not None and not unsure
            tally[f"{lang}:neg_asked"] += request is not None and unsure
    return tally


def old_sets(read: Callable[[str], Reading]) -> Counter[str]:
    tally: Counter[str] = Counter()
    for name in ("forgets_dev.json", "forgets_dev2.json"):
        data = load(name)
        for r in data["requests"]:
            request, unsure = read(r["text"])
            tally[f"{r['lang']}:requests"] += 1
            tally[f"{r['lang']}:recognised"] += request is not None and not unsure
            tally[f"{r['lang']}:asked"] += request is not None and unsure
        for n in data["negatives"]:
            request, unsure = read(n["text"])
            tally[f"{n['lang']}:negatives"] += 1
            tally[f"{n['lang']}:misfired"] += request is not None and not unsure
            tally[f"{n['lang']}:neg_asked"] += request is not None and unsure
    return tally


def rows_of(tally: Counter[str], label: str, aims: bool) -> list[Row]:
    rows: list[Row] = []
    for lang in LANGS:
        req, neg = tally[f"{lang}:requests"], tally[f"{lang}:negatives"]
        rec, hon = tally[f"{lang}:recognised"], tally[f"{lang}:honoured"]
        rows += [
            Row(
                f"{label} {lang}: requests recognised",
                100 * rec / req,
                "%",
                aim=Aim(">=", 100.0) if aims else None,
                note=f"{rec}/{req} carried out; {tally[f'{lang}:asked']} more asked back",
            ),
            Row(
                f"{label} {lang}: look-alikes mis-fired",
                tally[f"{lang}:misfired"],
                "count",
                aim=Aim("<=", 0.0) if aims else None,
                note=f"of {neg}; {tally[f'{lang}:neg_asked']} asked back about (nothing forgotten)",
            ),
        ]
        if "honoured" in label or f"{lang}:honoured" in tally:
            rows.append(
                Row(
                    f"{label} {lang}: requests honoured at once",
                    100 * hon / req,
                    "%",
                    note=f"{hon}/{req}: recognised and the history it refers to forgotten without a question",
                )
            )
    return rows


def cached_use() -> Embed:
    """The daemon's default embedder (USE-multilingual-v3), each text embedded once per run."""
    embedder = UseEmbedder()
    cache: dict[str, np.ndarray] = {}

    def embed(texts: list[str]) -> np.ndarray:
        todo = [t for t in dict.fromkeys(texts) if t not in cache]
        if todo:
            for t, v in zip(todo, np.asarray(embedder.embed(todo), dtype=np.float32), strict=True):
                cache[t] = v
        return np.vstack([cache[t] for t in texts])

    return embed


def run(quick: bool) -> Section:
    progress("forget_dev3: loading USE-multilingual-v3")
    embed = cached_use()
    readers = {"before": before(embed), "after": after(embed)}
    rows: list[Row] = []
    for when, read in readers.items():
        progress(f"forget_dev3: test half, {when}")
        rows += rows_of(dev3(embed, read, "test"), f"dev3 test ({when})", when == "after")
    notes = [
        "perf/scenarios/forgets_dev3.json: 40 requests and 40 look-alikes per language in each half. "
        "'before': the frames then the prototypes (the previous pass); 'after': the frames and the "
        "learned classifier (xaid/memory/forget_intent.py, weights from the train half by "
        "python -m perf.eval.forget_intent_train). The test half was not used to fit anything.",
    ]
    if not quick:
        progress("forget_dev3: train half and the earlier dev sets")
        rows += rows_of(dev3(embed, readers["after"], "train"), "dev3 train, fit (after)", False)
        for when, read in readers.items():
            rows += rows_of(old_sets(read), f"forgets_dev + dev2 ({when})", False)
    return Section(
        "Forget requests by meaning: dev set 3 (held apart half) and the earlier dev sets",
        rows,
        notes,
    )
