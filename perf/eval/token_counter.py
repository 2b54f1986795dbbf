"""The daemon's token count against the model's own tokenizer:
``python -m perf.eval.token_counter [--gguf PATH] [--record PATH]``.

The truth is the tokenizer of a GGUF, loaded vocabulary-only through llama.cpp (no weights, well
under a second): by default ``$XAID_TOKENIZER_GGUF``, meant to be the Qwen2.5 model the daemon runs
by default (``xaid --install-model qwen2.5-coder-0.5b`` brings the smaller one; both sizes share
the tokenizer). Without it, the counts recorded from that tokenizer in
tests/xaid/text/qwen25_counts.json stand in (companion-set turns only), and the section says so.

The texts are the turns of both speakers of perf's companion set (English and Chinese) and, when
``$XAID_PERF_LOCOMO`` names it, of the public LoCoMo file (English), split by sample: the even
samples are where ``xaid.text.tokens``'s weights were fitted, the odd ones are held out, and only
the held-out turns are reported. Per language: the estimate's total against the real total (the
bias), the error of one turn at the median and the 95th percentile, for the old estimate
(characters / 3 + 4) and the calibrated one; then blocks: consecutive held-out turns packed to a
budget of 400 and 1,000 by the estimate, each counted with the real tokenizer, as a share of the
budget (what a memory block holds of what it was given).

``--record PATH`` writes held-out companion turns with their real counts: the tests check the
counter against them where the model is not installed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from xaid.text import tokens
from xaid.text.lang import cjk_share

from ..kit import Aim, Row, Section, gguf_counter, percentile, progress
from . import locomo

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "tests" / "xaid" / "text" / "qwen25_counts.json"
BUDGETS = (400, 1000)
RECORD_PER_LANGUAGE = 150
TRIES = 20  # texts in a row that did not fit before a block is closed


def old_estimate(text: str) -> int:
    """The daemon's count before the calibration: characters / 3, plus 4 for the chat template."""
    return len(text) // 3 + 4


@dataclass(frozen=True)
class Text:
    lang: str  # "en" or "zh"
    text: str
    held_out: bool  # an odd sample: not used to fit the weights
    companion: bool  # from perf's companion set (ours), not LoCoMo


def corpus() -> list[Text]:
    """The turns of the companion set and (with ``$XAID_PERF_LOCOMO``) LoCoMo, by sample parity."""
    files = [locomo.COMPANION]
    if os.environ.get("XAID_PERF_LOCOMO"):
        files.append(Path(os.environ["XAID_PERF_LOCOMO"]))
    out = []
    for path in files:
        for n, sample in enumerate(locomo.load(path)):
            for turn in sample.turns:
                if turn.text.strip():
                    lang = "zh" if cjk_share(turn.text) > 0.5 else "en"
                    out.append(Text(lang, turn.text, n % 2 == 1, path == locomo.COMPANION))
    return out


def recorded() -> dict[str, int]:
    data = json.loads(RECORDED.read_text(encoding="utf-8"))
    return {row["text"]: int(row["tokens"]) for row in data["texts"]}


def record(path: Path, texts: Sequence[Text], real: Callable[[str], int], source: str) -> None:
    """Held-out companion turns, every n-th so both speakers and all samples are in, with real counts."""
    rows = []
    for lang in ("en", "zh"):
        mine = [t for t in texts if t.lang == lang and t.held_out and t.companion]
        step = max(1, len(mine) // RECORD_PER_LANGUAGE)
        rows += [
            {"lang": lang, "text": t.text, "tokens": real(t.text)}
            for t in mine[::step][:RECORD_PER_LANGUAGE]
        ]
    doc = {
        "tokenizer": source,
        "from": "perf/scenarios/companion_recall.json, odd samples",
        "texts": rows,
    }
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def blocks(texts: Sequence[str], budget: int, count: Callable[[str], int]) -> list[list[str]]:
    """Blocks packed as the daemon packs a memory block: in order, a text that does not fit is
    skipped (it starts the next block) and later ones are still tried, until the count reaches
    the budget or ``TRIES`` texts in a row did not fit."""
    out: list[list[str]] = []
    queue = list(texts)
    while queue:
        block: list[str] = []
        rest: list[str] = []
        used = misses = 0
        for i, text in enumerate(queue):
            cost = count(text)
            if used + cost <= budget:
                block.append(text)
                used += cost
                misses = 0
            else:
                rest.append(text)
                misses += 1
                if misses >= TRIES:
                    rest += queue[i + 1 :]
                    break
        if not rest:
            break  # the last block ran out of texts, not of budget: left out
        out.append(block)
        queue = rest
    return out


def measure(texts: Sequence[Text], real: Callable[[str], int], source: str) -> Section:
    section = Section("Token counter: the daemon's estimate against the model's tokenizer")
    for lang in ("en", "zh"):
        held = [t.text for t in texts if t.lang == lang and t.held_out]
        if not held:
            continue
        truth = [real(t) for t in held]
        for name, count in (
            ("old (chars/3 + 4)", old_estimate),
            ("calibrated", tokens.count),
        ):
            est = [count(t) for t in held]
            errors = [abs(e / r - 1) for e, r in zip(est, truth, strict=True) if r]
            total = sum(est) / sum(truth)
            section.rows.append(
                Row(
                    f"{lang}: estimate / real tokens, all held-out turns, {name}",
                    total,
                    "×",
                    None,
                    note=f"{len(held)} turns, {sum(truth):,} real tokens; one turn's error p50 "
                    f"{100 * percentile(errors, 0.5):.0f} %, p95 {100 * percentile(errors, 0.95):.0f} %",
                )
            )
        for budget in BUDGETS:
            for name, count in (("old", old_estimate), ("calibrated", tokens.count)):
                filled = [sum(real(t) for t in b) / budget for b in blocks(held, budget, count)]
                if not filled:
                    continue
                calibrated = name == "calibrated"
                section.rows += [
                    Row(
                        f"{lang}: a block packed to {budget} by the {name} count, real tokens / budget, p5",
                        percentile(filled, 0.05),
                        "×",
                        Aim(">=", 0.90) if calibrated else None,
                        note=f"{len(filled)} blocks; median {percentile(filled, 0.5):.3f}, "
                        f"min {min(filled):.3f}, max {max(filled):.3f}",
                    ),
                    Row(
                        f"{lang}: a block packed to {budget} by the {name} count, real tokens / budget, p95",
                        percentile(filled, 0.95),
                        "×",
                        Aim("<=", 1.05) if calibrated else None,
                    ),
                ]
    section.notes.append(
        f"Truth: {source}. Texts: held-out turns (odd samples) of the companion set"
        + (" and LoCoMo" if os.environ.get("XAID_PERF_LOCOMO") else "")
        + "; the weights (xaid/text/tokens.py) were fitted on the even samples. A block is packed from "
        "the turns in order as a memory block is (one that does not fit is skipped and later ones are "
        f"tried, until {TRIES} in a row did not fit); the aim is 0.90-1.05 of the budget."
    )
    return section


def truth(gguf: Path | None) -> tuple[Callable[[str], int], str, bool]:
    """The real counter, its name, and whether it is live (False: the recorded counts)."""
    path = gguf or (Path(p) if (p := os.environ.get("XAID_TOKENIZER_GGUF")) else None)
    if path is not None and path.exists():
        return gguf_counter(path), f"the tokenizer of {path.name} (llama.cpp, vocab only)", True
    counts = recorded()
    return counts.__getitem__, f"Qwen2.5's counts recorded in {RECORDED.relative_to(ROOT)}", False


def run(quick: bool) -> Section:
    real, source, live = truth(None)
    texts = corpus()
    if not live:
        known = recorded()
        texts = [t for t in texts if t.text in known]
    progress(f"token counter: {len(texts)} texts against {source}")
    return measure(texts, real, source)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m perf.eval.token_counter", description=__doc__)
    parser.add_argument("--gguf", type=Path, help="the model whose tokenizer is the truth")
    parser.add_argument(
        "--record", type=Path, help="write held-out companion turns with real counts"
    )
    args = parser.parse_args(argv)
    real, source, live = truth(args.gguf)
    texts = corpus()
    if args.record:
        if not live:
            parser.error("--record needs a GGUF (--gguf or $XAID_TOKENIZER_GGUF)")
        record(args.record, texts, real, source)
    if not live:
        known = recorded()
        texts = [t for t in texts if t.text in known]
    section = measure(texts, real, source)
    for row in section.rows:
        print(f"{row.figure}: {row.value:.3f} ({row.note})")
    for note in section.notes:
        print(note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
