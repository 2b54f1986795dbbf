"""``python -m perf.eval.feelings_turns [SETS] [SPLIT] [--ask]``: the turn's own feeling, and the morning.

Issue 24 item 5, feel14. The live reply's tone is set from the mood right after the user's message
(the turn's own mood; the held-out judge reads it from the last turn's ``explain``). Each session of
the named feelings sets (default ``dev14,dev13,dev12,dev11``; SPLIT ``test`` by default, ``train``,
or ``both``) is played the daemon's way in pure functions, lines a minute apart from 21:00, two ways:

- rules: each message read by the rules alone (main's live turn);
- turn_feel: the rules, by meaning where they are weak, tears read in context (mood/turn_feel.py).

Per language it prints, for each way: the turns read right where the set labels each line
(``turns``, feelings_dev14.json), the sessions whose mood right after the last message has the
session's label (the held-out judge's "read right after the message"; every set), the calm sessions
read as a feeling at any turn, and the next morning as ``python -m perf feelings`` judges it, with
the learned reader at consolidation, and with ``--ask`` also with the chat model asked for the sign
once per session (mood/asked.py, ``mood.ask_model``; answers cached as perf/eval/feelings_model.py
caches them). Then the CPU per message of each way's reading, embedding included (one message at a
time, as a turn embeds). Not an area: a dev harness, like feelings_model.py.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from xaid.embed.use import UseEmbedder
from xaid.mood import asked, learned, meaning, turn_feel
from xaid.mood.classifier import RuleClassifier
from xaid.mood.state import HOUR_MS, MoodState, decay, merge, neutral
from xaid.mood.tone import bands

from . import feelings_play
from .feelings_play import EPS, EVENING, NIGHT_HOURS, PARAMS, Embed

WAYS = ("rules", "turn_feel")
_RULES = RuleClassifier()


def right(want: str, mood: MoodState) -> bool:
    """The judge's valence sign beyond EPS; "neutral": no valence band; "any": always."""
    v = mood.valence
    return (
        (want == "low" and v < -EPS)
        or (want == "good" and v > EPS)
        or (want == "neutral" and bands(mood).valence == "neutral")
        or want == "any"
    )


def turns(
    way: str, lines: Sequence[str], vectors: dict[str, np.ndarray], model: learned.Model
) -> tuple[list[MoodState], int]:
    """The mood right after each line, read the way named, and the last line's time."""
    state, at, out = neutral(EVENING, PARAMS), EVENING, []
    for line in lines:
        at += 60_000
        rules = _RULES.classify(line)
        if way == "rules":
            reading = rules
        else:
            heard = turn_feel.read(model, line, rules, [vectors[t] for t in turn_feel.texts(line)])
            reading = turn_feel.settle(heard, decay(state, at).valence)
        state = merge(state, reading, at, PARAMS)
        out.append(state)
    return out, at


def play(
    items: Sequence[dict[str, Any]],
    embed: Embed,
    answers: Any | None,
    name: str,
) -> Counter[str]:
    bank = meaning.Prototypes.build(embed)
    model = learned.default()
    every = sorted({t for i in items for line in i["lines"] for t in turn_feel.texts(line)})
    vectors = dict(zip(every, embed(every), strict=True))
    tally: Counter[str] = Counter()
    sessions = feelings_play.session_vectors(items, embed)
    told_in = feelings_play.told_in_clauses(items, embed, bank)
    for item, sv, told in zip(items, sessions, told_in, strict=True):
        lang, lines = item["lang"], item["lines"]
        tally[f"{lang}:n"] += 1
        tally[f"{lang}:calm"] += item["expect"] == "neutral"
        whole, last = sv[0], sv[1]
        lost = learned.lost(lines, [bank.loss(v) for v in sv[2:]])
        felt = learned.read_told(model, lines, whole, last, bank.feel(whole), lost, told)
        tired = learned.still_tired(model, felt.own, whole, last)
        said: meaning.Label | None = None
        if answers is not None and learned.asked_sign(felt):
            said = asked.label(answers.get(f"{name}:{item['id']}", lines)) or "neutral"
        tally[f"{lang}:lines"] += len(item.get("turns", ()))
        for way in WAYS:
            moods, at = turns(way, lines, vectors, model)
            if "turns" in item:
                tally[f"{lang}:{way}:lines"] += sum(
                    right(w, m) for w, m in zip(item["turns"], moods, strict=True)
                )
            ok_now = feelings_play.judged(item, moods[-1])
            tally[f"{lang}:{way}:now"] += ok_now
            if item["expect"] == "neutral":
                tally[f"{lang}:{way}:false"] += any(not right("neutral", m) for m in moods)
            closing = moods[-1]
            reading = learned.carry(closing, felt.own, felt.label, felt.lost, tired, felt.strength)
            state = merge(closing, reading, at, PARAMS) if reading else closing
            morning = decay(state, at + NIGHT_HOURS * HOUR_MS)
            kept = feelings_play.judged_toned(item, morning)
            tally[f"{lang}:{way}:morning"] += kept
            if VERBOSE and not kept:
                print(
                    f"  {way} morning miss {item['id']} want {item['expect']}: v{morning.valence:+.2f}"
                )
            if answers is not None:
                signed = learned.signed(felt, said) if said else felt
                reading = learned.carry(
                    closing, signed.own, signed.label, signed.lost, tired, signed.strength
                )
                state = merge(closing, reading, at, PARAMS) if reading else closing
                morning = decay(state, at + NIGHT_HOURS * HOUR_MS)
                tally[f"{lang}:{way}:asked"] += feelings_play.judged_toned(item, morning)
                tally[f"{lang}:calls"] += way == "rules" and said is not None
            if VERBOSE and way == "turn_feel" and not ok_now:
                print(
                    f"  now miss {item['id']} want {item['expect']}: v{moods[-1].valence:+.2f} {lines}"
                )
    return tally


def report(label: str, tally: Counter[str], asked_too: bool) -> None:
    for lang in ("en", "zh"):
        n, calm, lines = tally[f"{lang}:n"], tally[f"{lang}:calm"], tally[f"{lang}:lines"]
        for way in WAYS:
            parts = []
            if lines:
                parts.append(f"turns {tally[f'{lang}:{way}:lines']}/{lines}")
            parts.append(f"right after the last message {tally[f'{lang}:{way}:now']}/{n}")
            parts.append(f"calm read as a feeling {tally[f'{lang}:{way}:false']}/{calm}")
            parts.append(f"next morning {tally[f'{lang}:{way}:morning']}/{n}")
            if asked_too:
                parts.append(f"with the model's sign {tally[f'{lang}:{way}:asked']}/{n}")
            print(f"{label} {lang} {way}: " + "; ".join(parts))
        if asked_too:
            print(
                f"{label} {lang}: model calls per session {tally[f'{lang}:calls'] / max(1, n):.2f}"
            )


def cpu(texts: Sequence[str], embedder: UseEmbedder) -> None:
    """CPU per message: the rules alone, and turn_feel with its embeddings made one message at a
    time (as a turn makes them). The message's own embedding is one recall makes anyway."""
    model = learned.default()
    start = time.process_time()
    for t in texts:
        _RULES.classify(t)
    rules_ms = (time.process_time() - start) * 1000 / len(texts)
    start = time.process_time()
    extra = 0
    for t in texts:
        rules = _RULES.classify(t)
        wanted = turn_feel.texts(t)
        extra += len(wanted) - 1
        vectors = [np.asarray(embedder.embed([w]), dtype=np.float32)[0] for w in wanted]
        turn_feel.read(model, t, rules, vectors)
    full_ms = (time.process_time() - start) * 1000 / len(texts)
    print(
        f"CPU per message ({len(texts)} messages): rules {rules_ms:.2f} ms; turn_feel with its "
        f"embeddings {full_ms:.1f} ms ({extra} second embeddings for messages that cry and say more)"
    )


VERBOSE = False


def main(argv: list[str]) -> None:
    global VERBOSE
    asked_too = "--ask" in argv
    VERBOSE = "-v" in argv
    rest = [a for a in argv if not a.startswith("-")]
    names = (rest[0] if rest else "dev14,dev13,dev12,dev11").split(",")
    split = rest[1] if len(rest) > 1 else "test"
    embedder = UseEmbedder()

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(embedder.embed(texts), dtype=np.float32)

    answers = None
    if asked_too:
        from ..kit import MODELS
        from .feelings_model import Answers

        answers = Answers(MODELS["qwen2.5-1.5b"])
    messages: list[str] = []
    for name in names:
        items = [
            i
            for i in feelings_play.load(f"feelings_{name}.json")
            if split == "both" or i.get("split", split) == split
        ]
        messages += [line for i in items for line in i["lines"]]
        report(f"{name} {split}", play(items, embed, answers, name), asked_too)
    cpu(messages[:: max(1, len(messages) // 60)], embedder)


if __name__ == "__main__":
    main(sys.argv[1:])
