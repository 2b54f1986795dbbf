"""The default chat model as a judge of "does this evening leave a matter a friend would ask about
next time?", against the check-in reader (xaid/scheduler/matter.py) on the same sessions.

Why: the reader is a softmax over the embedder's vector and a few cues, fitted on a few hundred
labelled lines, and on the Morning dev sets' train halves it reads "getting my wisdom teeth out
tomorrow morning. dreading it" at 0.02 and a fight with a friend at 0.03 (threshold 0.5): nothing is
armed and the morning reply knows nothing to ask about. The design's fallback where rules and
meaning cannot tell is the model, once per consolidated session. Before any such call is built,
this measures whether the 1.5B can tell: its probability of "yes" against "no" after the question,
read from the logits after the prompt (``yes_probability``), and what its greedy answer would be
(``yes`` above 0.5), beside the reader's best reading of the same session (the highest ``matter``
probability over its user lines and the lines together; arm.py also reads sentences).

Sessions: perf/scenarios/checkin_dev.json (labelled ``ask``, ``none``, ``gentle`` (a loss), with
its train and test halves) and every scene of the Morning dev sets (``may_raise``: ask; a control
of kind ``loss``: gentle; any other control: none; their own halves). The user's lines only, as
consolidation reads them. Figures per language and half: ROC AUC of ask against none for the model
and for the reader, and the share of each label the greedy answer calls yes.

``python -m perf matter_judge``; XAID_PERF_JUDGE_MODEL names a model of perf.kit.MODELS (default:
the daemon's default). About four minutes for ~500 sessions on 2 cores.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..kit import DEFAULT_MODEL, MODELS, SCENARIOS, Row, Section, progress
from .morning import SCENE_SETS

LABELS = ("ask", "none", "gentle")


@dataclass(frozen=True, slots=True)
class Case:
    source: str
    lang: str
    half: str
    label: str  # ask | none | gentle
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Scored:
    case: Case
    model: float  # P(yes) / (P(yes) + P(no)) after the question
    reader: float  # the reader's best matter probability over the lines and the lines together


def cases() -> list[Case]:
    out: list[Case] = []
    items = json.loads((SCENARIOS / "checkin_dev.json").read_text(encoding="utf-8"))["items"]
    for it in items:
        lines = tuple(t for role, t in it["lines"] if role == "user")
        out.append(Case("checkin_dev", it["lang"], it["split"], it["expect"], lines))
    for name, path in SCENE_SETS.items():
        if not name.startswith("dev"):
            continue
        for scene in json.loads(path.read_text(encoding="utf-8"))["scenes"]:
            lines = tuple(t for day in scene["history"] for who, t in day["lines"] if who == "user")
            label = "ask" if scene["may_raise"] else "gentle" if scene["kind"] == "loss" else "none"
            out.append(Case(f"morning_{name}", scene["lang"], scene.get("half", ""), label, lines))
    return out


def auc(pos: Sequence[float], neg: Sequence[float]) -> float | None:
    """The chance that a random ``pos`` scores above a random ``neg`` (ties count half)."""
    if not pos or not neg:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def yes_probabilities(prompts: Sequence[str], model: str, label: str) -> list[float]:
    """P(yes) / (P(yes) + P(no)) after each prompt (one user turn), read as consolidation reads its
    weighed questions (scheduler/weighed.py's choices, providers/llama_weigh.py's reading of the
    logits), the model loaded once; ``label`` names the progress lines."""
    from xaid.config import LLMConfig
    from xaid.providers import llama_weigh
    from xaid.providers.llama_cpp import LlamaCppProvider, passive_openmp
    from xaid.scheduler import weighed

    passive_openmp()
    provider = LlamaCppProvider(LLMConfig(model_path=MODELS[model], n_ctx=2048, head_cache_mb=0))
    provider.load()  # applies this CPU's quirks (cpu_quirks.py)
    out: list[float] = []
    try:
        for n, prompt in enumerate(prompts):
            chat = [{"role": "user", "content": prompt}]
            _, logprobs = llama_weigh.weigh(provider._llm, chat, weighed.CHOICES)
            p = weighed.p_yes(logprobs)
            assert p is not None
            out.append(p)
            if n % 50 == 0:
                progress(f"{label}: {n}/{len(prompts)}")
    finally:
        provider.close()
    return out


def _model_scores(all_cases: Sequence[Case], model: str) -> list[float]:
    """P(yes) for each session, asked as consolidation asks (scheduler/weighed.py's question)."""
    from xaid.scheduler import weighed

    prompts = [weighed.prompt(c.lines, "zh" if c.lang == "zh" else "en") for c in all_cases]
    return yes_probabilities(prompts, model, "matter judge")


def _reader_scores(all_cases: Sequence[Case]) -> list[float]:
    from xaid.embed.use import UseEmbedder
    from xaid.scheduler import matter

    reader = matter.default()
    if reader is None:
        return [0.0] * len(all_cases)
    embedder = UseEmbedder()
    at = 1_700_000_000_000  # a fixed evening: the cues read dates against it
    out: list[float] = []
    for case in all_cases:
        texts = [*case.lines, " ".join(case.lines)] if len(case.lines) > 1 else list(case.lines)
        vectors = embedder.embed(texts)
        out.append(
            max(
                reader.read(np.asarray(v), t, at).matter
                for t, v in zip(texts, vectors, strict=True)
            )
        )
    return out


def run(quick: bool) -> Section:
    model = os.environ.get("XAID_PERF_JUDGE_MODEL", DEFAULT_MODEL)
    all_cases = cases()
    if quick:
        all_cases = all_cases[::6]
    scored = [
        Scored(c, m, r)
        for c, m, r in zip(
            all_cases, _model_scores(all_cases, model), _reader_scores(all_cases), strict=True
        )
    ]
    if raw := os.environ.get("XAID_PERF_JUDGE_RAW", ""):  # per session, for choosing a threshold
        rows_raw = [
            {
                "source": s.case.source,
                "lang": s.case.lang,
                "half": s.case.half,
                "label": s.case.label,
                "model": s.model,
                "reader": s.reader,
            }
            for s in scored
        ]
        Path(raw).write_text(json.dumps(rows_raw), encoding="utf-8")
    rows: list[Row] = []
    for lang in ("en", "zh"):
        for half in ("train", "test"):
            mine = [s for s in scored if s.case.lang == lang and s.case.half == half]
            pos = [s for s in mine if s.case.label == "ask"]
            neg = [s for s in mine if s.case.label == "none"]
            m_auc = auc([s.model for s in pos], [s.model for s in neg])
            r_auc = auc([s.reader for s in pos], [s.reader for s in neg])
            if m_auc is None or r_auc is None:
                continue
            greedy = {
                label: (
                    sum(s.model > 0.5 for s in mine if s.case.label == label),
                    sum(s.case.label == label for s in mine),
                )
                for label in LABELS
            }
            rows.append(
                Row(
                    f"{model} as judge, {lang}, {half}: AUC of ask against none",
                    m_auc,
                    "",
                    None,
                    m_auc / r_auc if r_auc else None,
                    "the check-in reader",
                    note=f"reader {r_auc:.3f}; {len(pos)} ask, {len(neg)} none; greedy yes: "
                    + ", ".join(f"{k} {a}/{b}" for k, (a, b) in greedy.items())
                    + f"; reader at its threshold: ask {sum(s.reader >= 0.5 for s in pos)}/"
                    f"{len(pos)}, none {sum(s.reader >= 0.5 for s in neg)}/{len(neg)}",
                )
            )
    notes = [
        f"{len(scored)} sessions: checkin_dev.json (both halves) and the Morning dev sets "
        "(may_raise: ask; a loss control: gentle; other controls: none). The model: P(yes) over "
        "P(yes)+P(no) from the logits after the question (yes/Yes/是 against no/No/否), in the "
        "session's language, through LlamaCppProvider's load; greedy yes = above 0.5. The reader: "
        "its best matter probability over the user lines and the lines together (arm.py reads "
        "sentences too, and its rules arm plans before it is asked).",
    ]
    return Section(
        f"A matter to ask about: the default model as judge against the reader ({model})",
        rows,
        notes,
    )
