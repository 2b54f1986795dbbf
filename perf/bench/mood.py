"""Mood: the rule classifier's time per message, and what mood tracking adds to a turn.

1. ``RuleClassifier.classify`` in-process on ~2,000 generated bilingual messages (feelings with
   intensifiers, negations, contrasts, emoji, stretched words, Chinese idioms; small talk; long
   messages), each timed on its own.
2. A turn with mood on vs off: one daemon, scripted provider, agents that differ only in
   ``{"mood": false}``, turns interleaved; once with memory off (mood alone) and once with the
   default memory on.
"""

from __future__ import annotations

import os
import time

from xaid.mood.classifier import RuleClassifier

from ..kit import DAY, HOUR, MINUTE, Aim, Row, Section, percentile, progress, ratio, scratch_daemon
from .memory import BLAND_EN, BLAND_ZH, QUERY_TEMPLATES, SALIENT, Speaker, is_zh

CLASSIFY_P95_AIM = Aim("<", 1000.0)  # µs

FEELINGS = (
    "I'm so tired today, work was brutal.",
    "I'm not tired at all, just bored.",
    "I'm really really happy right now!!",
    "sooo tiiired, can't keep my eyes open",
    "Honestly I feel kind of down and lonely tonight.",
    "I'm exhausted but so excited about tomorrow!",
    "not bad at all, actually a pretty good day",
    "I'm furious. The landlord raised the rent AGAIN.",
    "ugh I'm so stressed about the exam 😩",
    "that was amazing, thank you so much ❤️",
    "I don't really feel happy about the move...",
    "I'm a bit anxious about the interview on Friday",
    "feeling burnt out, totally wiped out",
    "I can't stop smiling, we got the apartment!",
    "meh, it was fine I guess",
    "I'm heartbroken, she left.",
    "I'm so proud of my sister, she passed the bar exam!",
    "Why does everything go wrong for me?",
    "lol that's hilarious 😂",
    "I'm calm now, thanks for listening.",
    "累死了",
    "我一点也不累",
    "今天好开心！！",
    "有点累，但是很充实",
    "气死我了，房东又涨房租了。",
    "心累，不想说话",
    "熬夜到三点，困死了",
    "太棒了，面试过了！",
    "还行吧，没什么特别的",
    "我好难过，他不理我了",
    "压力好大，明天要考试",
    "不错不错，心情挺好",
    "郁闷，又加班",
    "哈哈哈笑死我了",
    "我不觉得累，就是有点无聊",
    "精疲力尽，只想睡觉",
    "谢谢你，我感觉好多了❤️",
    "烦死了！！！",
    "有点紧张，周五要面试",
    "今天一般般吧",
)


def messages(count: int, seed: int = 71) -> list[str]:
    """``count`` bilingual messages: feelings, the memory benchmark's chat and queries, and some long ones."""
    speaker = Speaker(seed)
    rng = speaker.rng
    out: list[str] = []
    while len(out) < count:
        roll = rng.random()
        if roll < 0.45:
            out.append(rng.choice(FEELINGS))
        elif roll < 0.6:
            out.append(speaker.pick(SALIENT))
        elif roll < 0.75:
            out.append(rng.choice(BLAND_EN + BLAND_ZH))
        elif roll < 0.9:
            out.append(speaker.pick(QUERY_TEMPLATES))
        else:  # a long message: several sentences of one language
            zh = rng.random() < 0.5
            parts = [s for s in FEELINGS + SALIENT if is_zh(s) == zh]
            out.append(
                ("" if zh else " ").join(
                    speaker.fill(rng.choice(parts)) for _ in range(rng.randint(4, 10))
                )
            )
    return out


def classifier_times(texts: list[str], passes: int) -> tuple[list[float], float]:
    """µs per message (the median of ``passes`` timings of that message), and messages per second."""
    rules = RuleClassifier()
    clock = time.perf_counter_ns
    for text in texts:  # warm-up: regex caches, lexicon tables
        rules.classify(text)
    per: list[list[float]] = [[] for _ in texts]
    t0 = clock()
    for _ in range(passes):
        for i, text in enumerate(texts):
            s = clock()
            rules.classify(text)
            per[i].append((clock() - s) / 1000)
    rate = passes * len(texts) / ((clock() - t0) / 1e9)
    return [sorted(v)[len(v) // 2] for v in per], rate


def turn_cost(turns: int, memory: bool) -> dict[str, list[float]]:
    """Client latency (ms) of ``turns`` session.send per agent, mood on vs off, interleaved."""
    now = (int(time.time() * 1000) // DAY) * DAY + 9 * HOUR
    base = {} if memory else {"memory": False}
    agents = {"on": base, "off": {**base, "mood": False}}
    texts = messages(turns + 5, seed=73 if memory else 79)
    texts = [t[:300] for t in texts]
    samples: dict[str, list[float]] = {k: [] for k in agents}
    with scratch_daemon() as daemon, daemon.client(timeout=120.0) as client:
        sids = {}
        for key, config in agents.items():
            client.agent_create(f"mood_{key}", name="Mia", config=config)
            sids[key] = client.session_open(f"mood_{key}", ts=now)["session_id"]
        for i, text in enumerate(texts):
            for key in list(agents) if i % 2 == 0 else list(reversed(agents)):
                t0 = time.perf_counter_ns()
                client.session_send(sids[key], text, ts=now + i * MINUTE).finish()
                if i >= 5:
                    samples[key].append((time.perf_counter_ns() - t0) / 1e6)
    return samples


def run(quick: bool) -> Section:
    count, passes, turns = (500, 3, 50) if quick else (2000, 5, 200)
    load_before = os.getloadavg()[0]
    texts = messages(count)
    progress(f"mood: classifier on {len(texts):,} messages, {passes} passes")
    per, rate = classifier_times(texts, passes)
    zh = [t for t, text in zip(per, texts, strict=True) if is_zh(text)]
    en = [t for t, text in zip(per, texts, strict=True) if not is_zh(text)]
    long_ = [t for t, text in zip(per, texts, strict=True) if len(text) > 120]
    rows = [
        Row(
            "classifier per message p50",
            percentile(per, 0.5),
            "µs",
            note=f"RuleClassifier.classify in-process, {len(texts):,} messages; {rate:,.0f} messages/s overall",
        ),
        Row(
            "classifier per message p95",
            percentile(per, 0.95),
            "µs",
            CLASSIFY_P95_AIM,
            note=f"English p95 {percentile(en, 0.95):.0f} µs, Chinese p95 {percentile(zh, 0.95):.0f} µs, "
            f"long messages (> 120 chars, {len(long_)}) p95 {percentile(long_, 0.95):.0f} µs; max {max(per):.0f} µs",
        ),
    ]
    for memory in (False, True):
        label = "memory on" if memory else "memory off"
        progress(f"mood: {turns} turns per agent, mood on vs off, {label}")
        samples = turn_cost(turns, memory)
        for q, name in ((0.5, "p50"), (0.95, "p95")):
            on, off = percentile(samples["on"], q), percentile(samples["off"], q)
            rows.append(
                Row(
                    f"turn client latency {name}, mood on ({label})",
                    on,
                    "ms",
                    ratio=ratio(on, off),
                    baseline="mood off",
                    note=f"mood off: {off:.2f} ms; added {on - off:+.2f} ms",
                )
            )
    notes = [
        f"Load average (1 min) just before the run: {load_before:.2f}.",
        f"Classifier: {len(texts):,} generated messages, {len([t for t in texts if is_zh(t)]):,} of them Chinese: "
        "feelings (intensifiers, negation, contrast, emoji, stretched words, Chinese degree words), the memory "
        "benchmark's chat lines and queries, small talk, and 10% long messages of 4–10 sentences. Each message is "
        f"timed on its own (perf_counter_ns around one classify call), {passes} passes after a warm-up pass; a "
        "message's figure is the median of its passes, and the percentiles are over messages.",
        f"Turn cost: one fresh daemon per pair, scripted provider without delay, two agents differing only in "
        f'{{"mood": false}}, {turns} session.send turns each in one session (plus 5 warm-up), the same '
        "bilingual texts, alternating which agent goes first. With mood on a turn classifies the message, "
        "stores the reading and the new state in the same transaction as the message, and adds tone guidance to "
        "the system prompt. The first pair has memory off in both agents, so mood is the only difference; the "
        "second uses the default memory on in both (what the issue calls default).",
    ]
    if quick:
        notes.append(f"Quick run: {count} messages, {passes} passes, {turns} turns per agent.")
    return Section("Mood: classifier time, cost on a turn", rows, notes)
