"""The default chat model as a reader of "forget that", against the daemon's classifier: area
``forget_judge`` (issue 24 item 2).

Why: the weighed question reads what the embedder's readers miss for matters (matter_judge.py) and
feelings (feelings_model.py); the held-out forget requests the daemon missed were missed by the
classifier (xaid/memory/forget_intent.py). Before any call is built into the turn, this measures
whether the 1.5B can tell a request to forget from a look-alike: asked per message whether the user
asks the companion to forget, delete or not keep something they said, its P(yes) against P(no),
read as scheduler/weighed.py reads its own question (the same choices). Beside it, what the daemon
does with the message (the frames and the classifier, forget_intent_dev.after: fire, ask or none)
and the classifier's probability where it reads the message as a request (``recognise`` asked
again without the frames' or the prototypes' agreement; 0 where it reads none: no verb of removing,
or below its ask-back cut), so the classifier's AUC is that of its reading, not of its raw score.

Messages: every request (``expect`` forget) and look-alike of forgets_dev3.json to forgets_dev20.json,
both halves (the classifier was fitted on some train halves; the test halves it never saw). Figures
per language and half: AUC of requests against look-alikes for the model and the classifier, and
what a model threshold would add where the daemon reads nothing (requests rescued, look-alikes taken).

``python -m perf forget_judge`` (about ten minutes on 2 cores); XAID_PERF_JUDGE_MODEL names a model of
perf.kit.MODELS.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from xaid.text.lang import Lang

from ..kit import DEFAULT_MODEL, Row, Section
from .matter_judge import auc, yes_probabilities
from .meaning_dev import load

SETS = (
    "forgets_dev4",
    "forgets_dev5",
    "forgets_dev6",
    "forgets_dev10",
    "forgets_dev11",
    "forgets_dev12",
    "forgets_dev13",
    "forgets_dev14",
    "forgets_dev15",
    "forgets_dev17",
    "forgets_dev18",
    "forgets_dev19",
    "forgets_dev20",
)
QUESTION: dict[Lang, str] = {
    "en": (
        'Someone wrote this to the companion app they chat with:\n"{text}"\n\nAre they asking it '
        "to forget, delete or not keep something they told it? Answer yes or no."
    ),
    "zh": (
        "有人给他常聊天的陪伴助手发了这句话：\n“{text}”\n\n他是在让助手忘掉、删掉或者不要记住他说过的某件事吗？"
        "只回答“是”或“否”。"
    ),
}
RESCUE_AT = (0.7, 0.8, 0.9)


@dataclass(frozen=True, slots=True)
class Message:
    lang: str
    half: str
    request: bool  # a request to forget; False: a look-alike
    text: str


@dataclass(frozen=True, slots=True)
class Read:
    message: Message
    daemon: str  # fire | ask | none
    classifier: float  # its probability where it reads a request; 0 where it reads none
    model: float  # P(yes) / (P(yes) + P(no))


def messages() -> list[Message]:
    out = [
        Message(c["lang"], c["split"], bool(c["fire"]), c["request"]["text"])
        for c in load("forgets_dev3.json")["cases"]
    ]
    for name in SETS:
        data = load(f"{name}.json")
        out += [
            Message(c["lang"], c["split"], True, c["request"]["lines"][-1])
            for c in data["requests"]
            if c.get("expect", "forget") == "forget"
        ]
        out += [Message(n["lang"], n["split"], False, n["text"]) for n in data.get("negatives", [])]
    return out


def _daemon(all_messages: list[Message]) -> list[tuple[str, float]]:
    """What the daemon does with each message, and the classifier's probability."""
    from xaid.embed.use import UseEmbedder
    from xaid.memory import forget_intent, forget_request

    from .forget_intent_dev import after

    embedder = UseEmbedder()
    seen: dict[str, np.ndarray] = {}

    def embed(texts: list[str]) -> np.ndarray:
        """The embedder, each text once: ``after`` and the probability below read the same two
        texts of a message (it and its request clause)."""
        if missing := [t for t in dict.fromkeys(texts) if t not in seen]:
            seen.update(zip(missing, np.asarray(embedder.embed(missing)), strict=True))
        return np.asarray([seen[t] for t in texts])

    read = after(embed)
    intent = forget_intent.default()
    out: list[tuple[str, float]] = []
    for m in all_messages:
        request, asked = read(m.text)
        done = "none" if request is None else "ask" if asked else "fire"
        framed = forget_request.parse(m.text)
        p = 0.0
        if forget_intent.worth_reading(m.text, framed):
            v = embed([m.text, forget_intent.request_clause(m.text)])
            found = forget_intent.recognise(m.text, framed, (v[0], v[1]), intent)
            p = (found.probability or 0.0) if found is not None else 0.0
        out.append((done, p))
    return out


def _model(all_messages: list[Message], model: str) -> list[float]:
    prompts = [QUESTION["zh" if m.lang == "zh" else "en"].format(text=m.text) for m in all_messages]
    return yes_probabilities(prompts, model, "forget judge")


def run(quick: bool) -> Section:
    model = os.environ.get("XAID_PERF_JUDGE_MODEL", DEFAULT_MODEL)
    all_messages = messages()[:: 8 if quick else 1]
    daemon = _daemon(all_messages)
    reads = [
        Read(m, d, p, q)
        for m, (d, p), q in zip(all_messages, daemon, _model(all_messages, model), strict=True)
    ]
    rows: list[Row] = []
    for lang in ("en", "zh"):
        for half in ("train", "test"):
            mine = [r for r in reads if r.message.lang == lang and r.message.half == half]
            yes = [r for r in mine if r.message.request]
            no = [r for r in mine if not r.message.request]
            m_auc = auc([r.model for r in yes], [r.model for r in no])
            c_auc = auc([r.classifier for r in yes], [r.classifier for r in no])
            if m_auc is None or c_auc is None:
                continue
            missed = [r for r in yes if r.daemon == "none"]
            quiet = [r for r in no if r.daemon == "none"]
            rescue = "; ".join(
                f"at {t}: {sum(r.model >= t for r in missed)} of the {len(missed)} requests the "
                f"daemon misses, {sum(r.model >= t for r in quiet)} look-alikes"
                for t in RESCUE_AT
            )
            rows.append(
                Row(
                    f"{model} as reader of a request to forget, {lang}, {half}: AUC of requests "
                    "against look-alikes",
                    m_auc,
                    "",
                    None,
                    m_auc / c_auc if c_auc else None,
                    "the daemon's classifier",
                    note=f"classifier {c_auc:.3f}; {len(yes)} requests, {len(no)} look-alikes; "
                    f"the daemon fires {sum(r.daemon == 'fire' for r in yes)}, asks back "
                    f"{sum(r.daemon == 'ask' for r in yes)}, fires on look-alikes "
                    f"{sum(r.daemon == 'fire' for r in no)}; the model where the daemon reads "
                    f"nothing: {rescue}",
                )
            )
    notes = [
        f"{len(reads)} messages: forgets_dev3.json's cases and the requests (expect forget) and "
        "look-alikes of forgets_dev4-dev20, both halves. The model: P(yes) over P(yes)+P(no) after "
        "the question (forget_judge.QUESTION), weighed as scheduler/weighed.py weighs its own; the "
        "daemon: forget_request.parse, then forget_intent.recognise (fire, ask back, none).",
    ]
    return Section(
        f"Forget recognised: the default model as reader against the classifier ({model})",
        rows,
        notes,
    )
