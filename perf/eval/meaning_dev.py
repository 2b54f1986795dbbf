"""Forget, feelings and losses by meaning, on the dev sets written before the work (issue 24 items 2, 5, 6).

``python -m perf meaning``. The sets are perf/scenarios/forgets_dev.json, forgets_dev2.json
(recognition of requests worded the way people talk), feelings_dev.json and losses_dev.json; they
tuned the cuts in xaid/memory/forget_topic.py, forget_request.py and xaid/mood/meaning.py, so these
figures say how well the mechanism fits what it was tuned on, not how it generalises (the
held-out sets of issue 24 item 7 say that). Each figure is measured twice in the same run: "before"
is what the daemon did without meaning (the phrase rules and word matching of the previous commit,
kept here as a baseline), "after" is what it does now. The pieces are the daemon's own functions
with the daemon's default embedder (USE-multilingual-v3); the wire flow itself is tested in
tests/xaid/memory/test_forget_meaning_e2e.py.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from xaid.embed.use import UseEmbedder
from xaid.memory import forget_prototypes, forget_request, forget_topic
from xaid.memory.forget import term_matcher
from xaid.mood import loss, meaning
from xaid.mood.classifier import RuleClassifier

from ..kit import Row, Section, progress

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
START = datetime(2025, 12, 1, tzinfo=UTC)


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))
    return data


def at(day: int, hour: int, minute: int = 0) -> int:
    return int((START + timedelta(days=day, hours=hour, minutes=minute)).timestamp() * 1000)


# -- forget --------------------------------------------------------------------------------------


def recogniser(
    embed: Callable[[list[str]], np.ndarray],
) -> Callable[[str], forget_request.ForgetRequest | None]:
    """What the daemon recognises (xaid/conversation/forgetting.py): the frames, then by meaning."""
    prototypes = forget_prototypes.Prototypes.of(embed(forget_prototypes.texts()))

    def recognise(text: str) -> forget_request.ForgetRequest | None:
        if (found := forget_request.parse(text)) is not None:
            return found
        candidate = forget_request.unframed(text)
        if candidate is None:
            return None
        return forget_request.by_meaning(candidate, *prototypes.scores(embed([text])[0]))

    return recognise


def forgets_said(embed: Callable[[list[str]], np.ndarray]) -> tuple[list[Row], list[str]]:
    """Recognition alone on forgets_dev2.json (requests worded the way people talk, and look-alikes),
    and the look-alikes of forgets_dev.json: before = the frames, after = the frames then meaning."""
    recognise = recogniser(embed)
    tally: Counter[str] = Counter()
    misses: list[str] = []
    data = load("forgets_dev2.json")
    for r in data["requests"]:
        lang = r["lang"]
        tally[f"{lang}:requests"] += 1
        tally[f"{lang}:before"] += forget_request.parse(r["text"]) is not None
        got = recognise(r["text"]) is not None
        tally[f"{lang}:after"] += got
        if not got:
            misses.append(f"{r['id']}: not recognised")
    for name in ("forgets_dev2.json", "forgets_dev.json"):
        for n in load(name)["negatives"]:
            lang = n["lang"]
            tally[f"{lang}:negatives"] += 1
            tally[f"{lang}:before_fired"] += forget_request.parse(n["text"]) is not None
            fired = recognise(n["text"]) is not None
            tally[f"{lang}:after_fired"] += fired
            if fired:
                misses.append(f"{n['id']} ({name}): fired")
    rows: list[Row] = []
    for lang in ("en", "zh"):
        req, neg = tally[f"{lang}:requests"], tally[f"{lang}:negatives"]
        for when in ("before", "after"):
            how = "the frames" if when == "before" else "the frames, then by meaning"
            rows += [
                Row(
                    f"forget said {lang}: requests recognised ({when})",
                    100 * tally[f"{lang}:{when}"] / req,
                    "%",
                    note=f"{tally[f'{lang}:{when}']}/{req} of forgets_dev2.json, {how}",
                ),
                Row(
                    f"forget said {lang}: must-not-fire that fired ({when})",
                    tally[f"{lang}:{when}_fired"],
                    "count",
                    note=f"of {neg} (forgets_dev2.json and forgets_dev.json), {how}",
                ),
            ]
    return rows, misses


def forgets(embed: Callable[[list[str]], np.ndarray]) -> tuple[list[Row], list[str]]:
    data = load("forgets_dev.json")
    when = data["request"]
    now = at(when["day"], when["hour"])
    history = {
        lang: [
            (
                forget_topic.Candidate(
                    i,
                    f"{lang}-day{h['day']}",
                    at(h["day"], h["hour"], h.get("minute", 0)),
                    h["text"],
                ),
                h["id"],
            )
            for i, h in enumerate(lines)
        ]
        for lang, lines in data["history"].items()
    }
    vectors = {lang: embed([c.text for c, _ in h]) for lang, h in history.items()}
    tally: Counter[str] = Counter()
    misses: list[str] = []
    recognise = recogniser(embed)
    for r in data["requests"]:
        lang, targets = r["lang"], set(r["targets"])
        tally[f"{lang}:requests"] += 1
        request = recognise(r["text"])
        recognised = request is not None
        tally[f"{lang}:recognised"] += recognised
        if r["expect"] == "previous":
            ok = request is not None and request.kind == "previous"
            tally[f"{lang}:resolved"] += ok
            tally[f"{lang}:before_resolved"] += ok
            continue
        cands = [c for c, _ in history[lang]]
        ids = {c.message_id: hid for c, hid in history[lang]}
        # before: every turn holding all the topic's words went, with no question asked
        before = (
            {ids[c.message_id] for c in cands if term_matcher(request.terms)(c.text)}
            if request is not None and request.kind == "topic"
            else set()
        )
        tally[f"{lang}:before_resolved"] += (
            before == targets if r["expect"] == "forget" else not before
        )
        tally[f"{lang}:before_wrong"] += bool(before - targets)
        if request is None or request.kind != "topic":
            misses.append(f"{r['id']}: not recognised as a topic")
            continue
        phrase_vec = embed([request.phrase or request.what or ""])[0]
        res = forget_topic.resolve(request.phrase, phrase_vec, cands, vectors[lang], r["text"], now)
        got = {ids[i] for i in res.message_ids}
        if r["expect"] == "forget":
            ok = res.decision == "forget" and got == targets
            tally[f"{lang}:asked"] += res.decision == "ask"
        else:
            ok = res.decision != "forget"
        tally[f"{lang}:resolved"] += ok
        tally[f"{lang}:confirmed"] += ok or (res.decision == "ask" and got == targets)
        wrong = res.decision == "forget" and bool(got - targets)
        tally[f"{lang}:wrong"] += wrong
        if not ok:
            seed = res.matches[0] if res.matches else None
            misses.append(
                f"{r['id']}: {res.decision} {sorted(got)} (seed {seed.score if seed else 0:.2f}, "
                f"runner-up {res.runner_up:.2f}), wanted {r['expect']} {sorted(targets)}"
            )
    for n in data["negatives"]:
        tally[f"{n['lang']}:negatives"] += 1
        tally[f"{n['lang']}:misfires"] += recognise(n["text"]) is not None
    rows: list[Row] = []
    for lang in ("en", "zh"):
        req, neg = tally[f"{lang}:requests"], tally[f"{lang}:negatives"]
        rows += [
            Row(
                f"forget {lang}: requests recognised",
                100 * tally[f"{lang}:recognised"] / req,
                "%",
                note=f"{tally[f'{lang}:recognised']}/{req}",
            ),
            Row(
                f"forget {lang}: must-not-fire that fired",
                tally[f"{lang}:misfires"],
                "count",
                note=f"of {neg}",
            ),
            Row(
                f"forget {lang}: resolved right (after)",
                100 * tally[f"{lang}:resolved"] / req,
                "%",
                note=f"{tally[f'{lang}:resolved']}/{req}: the targets forgotten and nothing else, an unclear "
                f"one asked back, 'that' as the previous turn; {tally[f'{lang}:asked']} clear ones asked back "
                f"instead (safe, one more turn); {tally[f'{lang}:wrong']} forgot a turn it should not",
            ),
            Row(
                f"forget {lang}: resolved right, counting a confirmed question back (after)",
                100 * tally[f"{lang}:confirmed"] / req,
                "%",
                note=f"{tally[f'{lang}:confirmed']}/{req}: as above, or the question back names exactly the "
                "targets and the user's 'yes' forgets them",
            ),
            Row(
                f"forget {lang}: resolved right (before: words matched)",
                100 * tally[f"{lang}:before_resolved"] / req,
                "%",
                note=f"{tally[f'{lang}:before_resolved']}/{req}; {tally[f'{lang}:before_wrong']} forgot a turn "
                "it should not",
            ),
        ]
    return rows, misses


# -- feelings ------------------------------------------------------------------------------------
def feelings(embed: Callable[[list[str]], np.ndarray]) -> tuple[list[Row], list[str]]:
    data = load("feelings_dev.json")
    rules = RuleClassifier()
    bank = meaning.Prototypes.build(embed)
    tally: Counter[str] = Counter()
    misses: list[str] = []
    for item in data["items"]:
        lang = item["lang"]
        text = meaning.session_text(item["lines"])
        reading = rules.classify(text)
        valence = reading.valence if reading.confidence > 0 else 0.0
        before = meaning.band(valence)
        felt = bank.feel(embed([text])[0])
        after = meaning.band(meaning.closing_valence(valence, reading.confidence, felt))
        tally[f"{lang}:n"] += 1
        tally[f"{lang}:before"] += before == item["expect"]
        tally[f"{lang}:after"] += after == item["expect"]
        if after != item["expect"]:
            misses.append(
                f"{item['id']}: {after} (rules {before}, meaning {felt.label} {felt.margin:.2f})"
            )
    rows = []
    for lang in ("en", "zh"):
        n = tally[f"{lang}:n"]
        rows += [
            Row(
                f"feelings {lang}: carried as meant (after: rules + meaning)",
                100 * tally[f"{lang}:after"] / n,
                "%",
                note=f"{tally[f'{lang}:after']}/{n}",
            ),
            Row(
                f"feelings {lang}: carried as meant (before: rules)",
                100 * tally[f"{lang}:before"] / n,
                "%",
                note=f"{tally[f'{lang}:before']}/{n}",
            ),
        ]
    return rows, misses


MODEL_ENV = "XAID_MEANING_MODEL"  # a GGUF chat model: also measure "the model once per session"
MODEL_PROMPT = (
    "Here is what someone told a friend today:\n{said}\n\n"
    "Tomorrow, will this still weigh on them, cheer them, or not matter? "
    "Answer with exactly one word: low, good or neutral."
)


def model_feelings(path: str) -> tuple[list[Row], list[str]]:
    """The alternative of item 5: one short model call per session, temperature 0, on the same set."""
    import dataclasses
    import threading

    from xaid.config import LLMConfig
    from xaid.providers.base import ChatMessage, GenerateRequest
    from xaid.providers.llama_cpp import LlamaCppProvider

    provider = LlamaCppProvider(
        dataclasses.replace(LLMConfig(), model_path=path, n_ctx=1024, n_threads=0, seed=5)
    )
    provider.load()
    data = load("feelings_dev.json")
    tally: Counter[str] = Counter()
    misses: list[str] = []
    seconds = 0.0

    for item in data["items"]:
        said = meaning.session_text(item["lines"])
        request = GenerateRequest(
            (ChatMessage("user", MODEL_PROMPT.format(said=said)),), max_tokens=4, temperature=0.0
        )
        start = time.perf_counter()
        out = provider.generate(request, lambda _piece: None, threading.Event())
        seconds += time.perf_counter() - start
        word = re.findall(r"[a-z]+", out.text.lower())
        label = word[0] if word and word[0] in ("low", "good", "neutral") else "neutral"
        tally[f"{item['lang']}:n"] += 1
        tally[f"{item['lang']}:ok"] += label == item["expect"]
        if label != item["expect"]:
            misses.append(f"{item['id']}: {label}")
    rows = [
        Row(
            f"feelings {lang}: carried as meant (the model once per session)",
            100 * tally[f"{lang}:ok"] / tally[f"{lang}:n"],
            "%",
            note=f"{tally[f'{lang}:ok']}/{tally[f'{lang}:n']}; {Path(path).name}, temperature 0",
        )
        for lang in ("en", "zh")
    ]
    rows.append(
        Row(
            "feelings: model call per session",
            1000 * seconds / max(1, len(data["items"])),
            "ms",
            note="mean wall time of one call on this machine (shared)",
        )
    )
    return rows, misses


def losses(embed: Callable[[list[str]], np.ndarray]) -> tuple[list[Row], list[str]]:
    data = load("losses_dev.json")
    bank = meaning.Prototypes.build(embed)
    tally: Counter[str] = Counter()
    misses: list[str] = []
    for item in data["items"]:
        lang, text = item["lang"], item["text"]
        before = bool(loss.losses(text))
        after = loss.is_loss(text, bank.loss(embed([text])[0]))
        key = "pos" if item["loss"] else "neg"
        tally[f"{lang}:{key}"] += 1
        tally[f"{lang}:{key}:before"] += before == item["loss"]
        tally[f"{lang}:{key}:after"] += after == item["loss"]
        if after != item["loss"]:
            misses.append(f"{item['id']}: {after}")
    rows = []
    for lang in ("en", "zh"):
        pos, neg = tally[f"{lang}:pos"], tally[f"{lang}:neg"]
        rows += [
            Row(
                f"losses {lang}: recognised (after: rules + meaning)",
                100 * tally[f"{lang}:pos:after"] / pos,
                "%",
                note=f"{tally[f'{lang}:pos:after']}/{pos}; before (loss.py's patterns): "
                f"{tally[f'{lang}:pos:before']}/{pos}",
            ),
            Row(
                f"losses {lang}: ordinary lines taken for a loss",
                neg - tally[f"{lang}:neg:after"],
                "count",
                note=f"of {neg}; before: {neg - tally[f'{lang}:neg:before']}",
            ),
        ]
    return rows, misses


def run(quick: bool) -> Section:
    progress("meaning: loading USE-multilingual-v3")
    embedder = UseEmbedder()

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(embedder.embed(texts), dtype=np.float32)

    rows: list[Row] = []
    notes = [
        "Dev sets (perf/scenarios/forgets_dev.json, forgets_dev2.json, feelings_dev.json, "
        "losses_dev.json), written before the work and used to tune it: these figures are fit, not "
        "generalisation. Embedder: "
        "USE-multilingual-v3, the daemon's default. 'before' runs the previous commit's mechanism in the "
        "same run: for forget, the frames it recognised and every turn holding all the topic's words; "
        "for feelings, the rule classifier's reading of the session; for losses, xaid/mood/loss.py's patterns.",
    ]
    for part in (forgets, forgets_said, feelings, losses):
        progress(f"meaning: {part.__name__}")
        got, misses = part(embed)
        rows += got
        if misses:
            notes.append(f"{part.__name__} misses: " + "; ".join(misses))
    model = os.environ.get(MODEL_ENV)
    if model:
        progress(f"meaning: the model once per session ({model})")
        got, misses = model_feelings(model)
        rows += got
        if misses:
            notes.append("model feelings misses: " + "; ".join(misses))
    else:
        notes.append(f"The model once per session was not measured in this run (set {MODEL_ENV}).")
    return Section("Meaning: forget, feelings and losses on the dev sets", rows, notes)
