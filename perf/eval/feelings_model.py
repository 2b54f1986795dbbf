"""``python -m perf.eval.feelings_model [GGUF] [SET|devs] [SPLIT]``: the default model reading a
session's feeling once.

Issue 24 item 5 names two ways of reading what a session carries to the next day by meaning: the
embedder (prototypes, the learned reader of mood/learned.py) or the default model, one short call per
consolidated session that answers a label. This measures the model's way on perf/scenarios/
feelings_dev6.json (default the train half) beside the learned reader, in feelings_play.py's pure path (the
rules a minute apart from 21:00, consolidation's reading merged at the last word, the mood read 12 h
later, the same judge):

- rules: nothing stored at consolidation (the live turns' own mood);
- learned: what consolidation stores now (feelings_play.after);
- model: the model's label carried at meaning's usual strength (READ_VALENCE), tiredness and losses
  as the learned reader reads them;
- learned, model where unsure: the model's label only where the learned reader's own label is below
  ``learned.SECOND_OPINION`` and no strong rule reading or loss decided;
- learned, the model's sign: its word where the reader reads a feeling (the daemon's way before feel29,
  and still with a provider that cannot weigh);
- learned, the model's sign weighed: the offered words weighed wherever no loss decided
  (``asked.weighed``, the daemon's way since feel29: the sign where the reader read a feeling, a
  feeling raised where it read none), with the AUC of the weights' lean to "happy" over "sad" for
  good against low where the reader read a feeling.

``devs`` pools every dev set with halves (``DEVS``), one SPLIT of each.

The call is what consolidation's ``ask`` sends (one user message, temperature 0, a few tokens), made
here on the provider directly; printed per language: carried as a friend would, the false feelings
(a calm session carried with a valence band the next morning) and the model calls per session of
each way, with the mean seconds per call. Not an area: it needs the GGUF and minutes of the model.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from xaid.config import LLMConfig
from xaid.embed.use import UseEmbedder
from xaid.mood import asked, learned, meaning
from xaid.mood.state import HOUR_MS, MoodParams, decay, merge
from xaid.providers.base import ChatMessage, Completion, GenerateRequest, logsumexp
from xaid.providers.llama_cpp import LlamaCppProvider

from ..kit import MODELS
from . import feelings_play, matter_judge

CACHE = Path(os.environ.get("XAID_PERF_FEELINGS_ANSWERS", "/tmp/xaid-feelings-answers.json"))
SIGN_ONLY = os.environ.get("XAID_PERF_FEELINGS_SIGN_ONLY") == "1"
WAYS = (
    "rules",
    "learned",
    "model",
    "learned, model where unsure",
    "learned, the model's sign",
    "learned, the model's sign weighed",
)
# ``python -m perf.eval.feelings_model devs SPLIT``: every dev set with halves, pooled
DEVS = ("dev3", "dev4", "dev5", "dev6", "dev7", "dev9", "dev10", "dev11", "dev12", "dev13", "dev14")


class Answers:
    """The model's answers by session id, kept in ``CACHE`` so a rerun of the ways costs no call;
    the model is loaded on the first answer not there."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.known: dict[str, Any] = json.loads(CACHE.read_text()) if CACHE.exists() else {}
        self.provider: LlamaCppProvider | None = None
        self.seconds, self.calls = 0.0, 0

    def get(self, key: str, lines: list[str]) -> str:
        """The model's word, as consolidation asked it before feel29 (and still asks a provider that
        cannot weigh)."""
        if key not in self.known:
            self.known[key] = self._call(lines, ()).text
            CACHE.write_text(json.dumps(self.known, ensure_ascii=False, indent=0))
        return str(self.known[key])

    def kept(self, key: str) -> bool:
        """Whether both the word and the weights for ``key`` are kept (no model call needed)."""
        return key in self.known and self._weighed(key) in self.known

    @staticmethod
    def _weighed(key: str) -> str:
        return f"{key}#weighed{len(asked.CHOICES)}"  # the question offering tired: 8 choices

    def weights(self, key: str, lines: list[str]) -> list[float]:
        """The log-probabilities of ``asked.CHOICES``, as consolidation weighs them (feel29)."""
        cached = self._weighed(key)
        if cached not in self.known:
            self.known[cached] = list(self._call(lines, asked.CHOICES).choice_logprobs)
            CACHE.write_text(json.dumps(self.known, ensure_ascii=False, indent=0))
        return list(self.known[cached])

    def _call(self, lines: list[str], choices: tuple[str, ...]) -> Completion:
        if self.provider is None:
            self.provider = LlamaCppProvider(
                dataclasses.replace(
                    LLMConfig(), model_path=self.path, n_ctx=1024, n_threads=0, seed=5
                )
            )
            self.provider.load()
        tokens = 1 if choices else asked.ANSWER_TOKENS
        request = GenerateRequest(
            (ChatMessage("user", asked.prompt(lines)),), (), tokens, 0.0, choices=choices
        )
        start = time.perf_counter()
        out = self.provider.generate(request, lambda _piece: None, threading.Event())
        self.seconds += time.perf_counter() - start
        self.calls += 1
        return out


def main(path: str, name: str, split: str) -> None:
    embedder = UseEmbedder()

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(embedder.embed(texts), dtype=np.float32)

    answers = Answers(path)
    tally: Counter[str] = Counter()
    leans: dict[str, list[float]] = {}
    for one in DEVS if name == "devs" else (name,):
        items = [
            i for i in feelings_play.load(f"feelings_{one}.json") if i.get("split", split) == split
        ]
        tally += ways_tally(items, one, embed, answers, verbose=name != "devs", leans=leans)
    report(tally, f"{name} {split}", answers, leans)


def ways_tally(
    items: list[dict[str, Any]],
    name: str,
    embed: feelings_play.Embed,
    answers: Answers,
    verbose: bool = False,
    leans: dict[str, list[float]] | None = None,
) -> Counter[str]:
    """Per language, how many sessions each of ``WAYS`` carries as labelled (``{lang}:{way}``);
    ``leans`` gathers, per ``{lang}:{expect}`` of the good and low sessions the reader read a
    feeling in, how far the weights lean to "happy" (``lean``)."""
    bank = meaning.Prototypes.build(embed)
    model = learned.default()
    tally: Counter[str] = Counter()
    told_in = feelings_play.told_in_clauses(items, embed, bank)
    for item, vectors, told in zip(
        items, feelings_play.session_vectors(items, embed), told_in, strict=True
    ):
        lines = item["lines"]
        closing, at = feelings_play.evening(lines)
        whole, last = vectors[0], vectors[1]
        lost = learned.lost(lines, [bank.loss(v) for v in vectors[2:]])
        felt = learned.read_told(model, lines, whole, last, bank.feel(whole), lost, told)
        lost = felt.lost
        # SIGN_ONLY: the model is asked only where the kept way asks it (the other ways then read
        # an unasked session as "neutral": only the last way's figure counts)
        needed = not SIGN_ONLY or learned.asked_sign(felt)
        answer = answers.get(f"{name}:{item['id']}", lines) if needed else ""
        said = asked.label(answer) or "neutral"
        tired = learned.still_tired(model, felt.own, whole, last)
        p = model.probabilities(whole, last, felt.own)
        ruled = felt.own.confidence > 0 and abs(felt.own.valence) >= learned.RULES_FIRST
        unsure = not lost and not ruled and max(p.values()) < learned.SECOND_OPINION
        signed = learned.signed(felt, said) if learned.asked_sign(felt) else felt
        weighed, worn = felt, False
        if not lost:  # consolidation's _signed: weighed wherever no loss decided
            weights = answers.weights(f"{name}:{item['id']}", lines)
            read = asked.weighed(weights, felt.label)
            if read is not None:
                weighed, worn = learned.signed(felt, read.label), read.tired
            if leans is not None and learned.asked_sign(felt) and item["expect"] in ("good", "low"):
                leans.setdefault(f"{item['lang']}:{item['expect']}", []).append(lean(weights))
        ways: dict[str, tuple[meaning.Label, float | None] | None] = {
            "rules": None,  # nothing stored at consolidation: the live turns' own mood
            "learned": (felt.label, felt.strength),
            "model": ("low" if lost else said, None),
            "learned, model where unsure": (said, None) if unsure else (felt.label, felt.strength),
            "learned, the model's sign": (signed.label, signed.strength),
            "learned, the model's sign weighed": (weighed.label, weighed.strength),
        }
        lang = item["lang"]
        tally[f"{lang}:n"] += 1
        tally[f"{lang}:unsure"] += unsure
        tally[f"{lang}:neutral"] += item["expect"] == "neutral"
        tally[f"{lang}:unworn"] += not item.get("fatigue")
        calls = {"model": 1, "learned, model where unsure": int(unsure)}
        calls["learned, the model's sign"] = int(learned.asked_sign(felt))
        calls["learned, the model's sign weighed"] = int(not lost)
        for way, carried in ways.items():
            tired_here = tired or (worn and way == WAYS[-1])
            reading = (
                None
                if carried is None
                else learned.carry(closing, felt.own, carried[0], lost, tired_here, carried[1])
            )
            state = merge(closing, reading, at, MoodParams()) if reading else closing
            morning = decay(state, at + feelings_play.NIGHT_HOURS * HOUR_MS)
            ok = feelings_play.judged_toned(item, morning)
            tally[f"{lang}:{way}"] += ok
            tally[f"{lang}:{way}:calls"] += calls.get(way, 0)
            # a feeling carried where there was none: a valence band the next morning on a calm day
            tally[f"{lang}:{way}:false"] += item["expect"] == "neutral" and not ok
            # tiredness carried where none was labelled: a tired band the next morning
            worn_band = feelings_play.bands(morning).fatigue in ("tired", "exhausted")
            tally[f"{lang}:{way}:worn_false"] += worn_band and not item.get("fatigue")
            if verbose and way == WAYS[-1] and not ok:
                print(f"  miss {item['id']} want {item['expect']}: v{morning.valence:+.2f}")
        if verbose:
            print(f"{item['id']} want {item['expect']}: model {said} ({answer.strip()!r}), "
                  f"learned {felt.label}{' (unsure)' if unsure else ''}", flush=True)  # fmt: skip
    return tally


def lean(weights: list[float]) -> float:
    """How far the weights lean to "happy" over "sad" (log-odds, before asked.HAPPY_OFFSET)."""
    sad, happy = (logsumexp(weights[i : i + 2]) for i in (0, 2))
    return happy - sad


def report(
    tally: Counter[str], label: str, answers: Answers, leans: dict[str, list[float]] | None = None
) -> None:
    for lang in ("en", "zh"):
        n, calm = tally[f"{lang}:n"], tally[f"{lang}:neutral"]
        print(f"{label} {lang}: learned unsure on {tally[f'{lang}:unsure']} of {n}")
        good, low = ((leans or {}).get(f"{lang}:{e}", []) for e in ("good", "low"))
        if (order := matter_judge.auc(good, low)) is not None:
            print(f"  the weights order good above low where asked: AUC {order:.3f}")
        for w in WAYS:
            print(
                f"  {w}: {tally[f'{lang}:{w}']}/{n} carried as a friend would; false feelings on "
                f"calm days {tally[f'{lang}:{w}:false']}/{calm}; tired where none was said "
                f"{tally[f'{lang}:{w}:worn_false']}/{tally[f'{lang}:unworn']}; model calls per session "
                f"{tally[f'{lang}:{w}:calls'] / max(1, n):.2f}"
            )
    if answers.calls:
        print(f"{answers.calls} calls, mean {answers.seconds / answers.calls:.2f} s per call")


def _args(argv: list[str]) -> tuple[str, str, str]:
    rest: list[Any] = [*argv]
    path = rest.pop(0) if rest and rest[0].endswith(".gguf") else MODELS["qwen2.5-1.5b"]
    name = rest.pop(0) if rest else "dev6"
    return path, name, rest[0] if rest else "train"


if __name__ == "__main__":
    main(*_args(sys.argv[1:]))
