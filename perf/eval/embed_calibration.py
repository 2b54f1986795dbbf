"""``python -m perf.eval.embed_calibration``: the cosine of each kind of pair under MiniLM and USE, where
each similarity threshold of the daemon falls among them, and how fast each model embeds.

Every threshold in memory (recall's minimum cosine, the opener's, the facts' fast path, paraphrase,
near-duplicate and negation rules) was set by looking at MiniLM's cosines on pairs like these. A
threshold means "pairs of these kinds above, of those kinds below", so a new model's threshold is
the cut that puts the same kinds on the same sides. For each threshold this prints, per pair
class, the share above MiniLM's value and the USE value that best reproduces those shares
(the least squared difference over the classes, ties to the middle of the range); the chosen values
and the reasoning are in docs/memory.md ("Multilingual default: USE").

The pairs are written for this purpose (none come from a test set): English, Chinese and across
the two. MiniLM cannot read Chinese, so its Chinese rows only show why Chinese needed keywords.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the daemon runs (xaid/__main__.py)

import numpy as np

Pair = tuple[str, str]

# --- the pairs: conversational lines and questions (what recall compares) --------------------------

QA_EN: list[Pair] = [  # a question and the stored line that answers it
    ("What did I do last weekend?", "I went hiking in the mountains on Saturday."),
    ("Where does my sister live?", "My sister Anna lives in Berlin with her two cats."),
    (
        "What book did you recommend to me?",
        "You should read 'The Remains of the Day', it's beautiful.",
    ),
    ("How is my back doing?", "My lower back has been hurting since I moved the sofa."),
    ("What's my dog called?", "We got a puppy yesterday, his name is Biscuit."),
    ("When is my dentist appointment?", "I have a dentist appointment next Monday at 9."),
    ("What do I do for work?", "I work as a nurse at the city hospital."),
    ("Which programming language do I use?", "I mostly write Python these days."),
    (
        "What did you suggest for my insomnia?",
        "Try keeping your phone out of the bedroom at night.",
    ),
    ("How did my exam go?", "I passed the driving test today, finally!"),
    ("What am I allergic to?", "I can't eat peanuts, I'm allergic."),
    ("Who is Tom?", "Tom is my colleague, we share an office."),
    ("What was I worried about?", "I'm anxious about the presentation on Friday."),
    ("What is my favourite food?", "Nothing beats a bowl of ramen on a cold day."),
    ("Where did I go on holiday?", "We spent two weeks in Portugal in July."),
]
QA_ZH: list[Pair] = [
    ("我上周末做了什么？", "我周六去山里徒步了。"),
    ("我姐姐住在哪里？", "我姐姐安娜和她的两只猫住在柏林。"),
    ("你上次推荐的那本书叫什么？", "你应该读《长日将尽》，写得很美。"),
    ("我的腰怎么样了？", "自从搬了沙发，我的腰一直很疼。"),
    ("我的狗叫什么名字？", "我们昨天领养了一只小狗，它叫饼干。"),
    ("我什么时候去看牙医？", "我下周一早上九点要去看牙医。"),
    ("我是做什么工作的？", "我在市医院当护士。"),
    ("我用什么编程语言？", "我最近主要写Python。"),
    ("你建议我怎么改善失眠？", "晚上试着把手机放在卧室外面。"),
    ("我的考试怎么样了？", "我今天终于通过了驾照考试！"),
    ("我对什么过敏？", "我不能吃花生，我过敏。"),
    ("小李是谁？", "小李是我的同事，我们在一个办公室。"),
    ("我之前在担心什么？", "我很担心周五的汇报。"),
    ("我最喜欢吃什么？", "冷天里没有什么比一碗拉面更好了。"),
    ("我去哪里度假了？", "我们七月在葡萄牙待了两个星期。"),
]
QA_CROSS: list[Pair] = (  # a question in one language, the answer stored in the other
    [(q, a) for (q, _), (_, a) in zip(QA_ZH[:8], QA_EN[:8], strict=True)]
    + [(q, a) for (q, _), (_, a) in zip(QA_EN[8:], QA_ZH[8:], strict=True)]
)
TRANSLATION: list[Pair] = [
    ("I'm exhausted.", "我很累。"),
    ("I like cats.", "我喜欢猫。"),
    ("I work at Tencent.", "我在腾讯工作。"),
    ("The weather is nice today.", "今天天气很好。"),
    ("My mother is in hospital.", "我妈妈住院了。"),
    ("I'm learning to play the guitar.", "我在学弹吉他。"),
    ("We broke up last month.", "我们上个月分手了。"),
    ("The project fell apart.", "项目搞崩了。"),
    ("I can't sleep at night.", "我晚上睡不着。"),
    ("I'm moving to Shanghai next year.", "我明年要搬到上海。"),
    ("My son starts school on Monday.", "我儿子周一开学。"),
    ("I love spicy food.", "我爱吃辣。"),
]
PARAPHRASE_EN: list[Pair] = [
    ("I'm exhausted.", "I'm so tired."),
    ("I can't sleep at night.", "I've been lying awake every night."),
    ("My mother is in hospital.", "Mom got admitted to the hospital."),
    ("I'm learning to play the guitar.", "I've started guitar lessons."),
    ("We broke up last month.", "My girlfriend and I split up a few weeks ago."),
    ("The project fell apart.", "The project completely failed."),
    ("I love spicy food.", "I really enjoy hot, spicy dishes."),
    ("I'm moving to Shanghai next year.", "Next year I'll relocate to Shanghai."),
    ("My son starts school on Monday.", "Monday is my boy's first day of school."),
    ("I'm nervous about the interview.", "The job interview is making me anxious."),
    ("I got promoted today.", "They gave me the promotion this afternoon."),
    ("I miss my grandmother.", "I really miss grandma."),
]
PARAPHRASE_ZH: list[Pair] = [
    ("我很累。", "我累坏了。"),
    ("我晚上睡不着。", "我每天晚上都失眠。"),
    ("我妈妈住院了。", "我妈被送进医院了。"),
    ("我在学弹吉他。", "我开始上吉他课了。"),
    ("我们上个月分手了。", "我和女朋友几周前分手了。"),
    ("项目搞崩了。", "项目彻底失败了。"),
    ("我爱吃辣。", "我特别喜欢吃辣的菜。"),
    ("我明年要搬到上海。", "明年我会搬去上海。"),
    ("我儿子周一开学。", "周一是我儿子第一天上学。"),
    ("我对面试很紧张。", "这次面试让我很焦虑。"),
    ("我今天升职了。", "今天下午他们给我升职了。"),
    ("我很想念奶奶。", "我真的很想我奶奶。"),
]
UNRELATED_EN: list[Pair] = [
    ("I'm exhausted.", "The weather is nice today."),
    ("I like cats.", "I work at Tencent."),
    ("What did I do last weekend?", "My sister Anna lives in Berlin with her two cats."),
    ("Where does my sister live?", "I mostly write Python these days."),
    ("What book did you recommend to me?", "I can't eat peanuts, I'm allergic."),
    ("How is my back doing?", "We spent two weeks in Portugal in July."),
    ("What's my dog called?", "I'm anxious about the presentation on Friday."),
    ("When is my dentist appointment?", "Nothing beats a bowl of ramen on a cold day."),
    ("What do I do for work?", "We got a puppy yesterday, his name is Biscuit."),
    ("I'm learning to play the guitar.", "My mother is in hospital."),
    ("We broke up last month.", "I love spicy food."),
    ("The project fell apart.", "My son starts school on Monday."),
    ("I passed the driving test today, finally!", "Tom is my colleague, we share an office."),
    ("Try keeping your phone out of the bedroom at night.", "I'm moving to Shanghai next year."),
    ("I got promoted today.", "The train was cancelled again."),
]
UNRELATED_ZH: list[Pair] = [
    ("我很累。", "今天天气很好。"),
    ("我喜欢猫。", "我在腾讯工作。"),
    ("我上周末做了什么？", "我姐姐安娜和她的两只猫住在柏林。"),
    ("我姐姐住在哪里？", "我最近主要写Python。"),
    ("你上次推荐的那本书叫什么？", "我不能吃花生，我过敏。"),
    ("我的腰怎么样了？", "我们七月在葡萄牙待了两个星期。"),
    ("我的狗叫什么名字？", "我很担心周五的汇报。"),
    ("我什么时候去看牙医？", "冷天里没有什么比一碗拉面更好了。"),
    ("我是做什么工作的？", "我们昨天领养了一只小狗，它叫饼干。"),
    ("我在学弹吉他。", "我妈妈住院了。"),
    ("我们上个月分手了。", "我爱吃辣。"),
    ("项目搞崩了。", "我儿子周一开学。"),
    ("我今天终于通过了驾照考试！", "小李是我的同事，我们在一个办公室。"),
    ("晚上试着把手机放在卧室外面。", "我明年要搬到上海。"),
    ("我今天升职了。", "火车又取消了。"),
]
UNRELATED_CROSS: list[Pair] = [
    (a, b_zh) for (a, _), (_, b_zh) in zip(UNRELATED_EN, UNRELATED_ZH, strict=True)
]
OPENERS_EN = ["Morning!", "Hi", "Hey there", "Good evening", "hello again", "I'm back"]
OPENERS_ZH = ["早", "早上好", "你好", "晚上好", "嗨", "我回来了"]
MEMORIES_EN = [a for _, a in QA_EN[:12]]
MEMORIES_ZH = [a for _, a in QA_ZH[:12]]
OPENER_GREETING: list[Pair] = [  # an opener and a stored line that is itself about that moment
    ("Morning!", "Good morning! Slept well?"),
    ("Good evening", "Good evening, how was your day?"),
    ("hello again", "Hello again, nice to see you back."),
    ("早上好", "早上好！睡得好吗？"),
    ("晚上好", "晚上好，今天过得怎么样？"),
    ("我回来了", "欢迎回来，见到你真好。"),
]

# --- the pairs: fact texts (what the facts rules compare) ------------------------------------------

FACT_PARAPHRASE: list[Pair] = [
    ("The user really likes hiking.", "The user enjoys hiking."),
    ("The user really likes hiking.", "The user loves going on hikes."),
    ("The user works at Stark.", "The user works at Stark Industries."),
    ("The user's sister is called Anna.", "The user has a sister named Anna."),
    ("The user lives in Berlin.", "The user's home is in Berlin."),
    ("The user is allergic to peanuts.", "The user has a peanut allergy."),
    ("The user has a dog named Biscuit.", "The user's dog is called Biscuit."),
    ("The user is a nurse.", "The user works as a nurse."),
    ("用户喜欢徒步。", "用户很爱去徒步。"),
    ("用户在腾讯上班。", "用户在腾讯工作。"),
    ("用户的姐姐叫安娜。", "用户有个姐姐叫安娜。"),
    ("用户对花生过敏。", "用户有花生过敏。"),
    ("用户住在上海。", "用户家在上海。"),
    ("用户是护士。", "用户的工作是护士。"),
]
FACT_NEAR_DUPLICATE: list[Pair] = [  # the same statement up to a word or two
    ("The user likes Python.", "The user loves Python."),
    ("The user lives in Berlin.", "The user lives in Berlin, Germany."),
    ("The user is allergic to gluten.", "The user is allergic to gluten!"),
    ("The user's sister is called Anna.", "The user's sister is named Anna."),
    ("The user works at Globex.", "User works at Globex."),
    ("The user has two cats.", "The user has 2 cats."),
    ("用户喜欢猫。", "用户很喜欢猫。"),
    ("用户住在上海。", "用户住在上海市。"),
    ("用户的姐姐叫安娜。", "用户姐姐叫安娜。"),
    ("用户在腾讯工作。", "用户在腾讯公司工作。"),
]
FACT_OTHER_OBJECT: list[Pair] = [  # one subject, another value
    ("The user really likes hiking.", "The user really likes painting."),
    ("The user really likes hiking.", "The user really likes climbing."),
    ("The user is allergic to gluten.", "The user is allergic to peanuts."),
    ("The user is allergic to gluten.", "The user is allergic to cats."),
    ("The user's friend is called Zoe.", "The user's friend is called Sam."),
    ("The user works at Stark.", "The user works at Globex."),
    ("The user lives in Berlin.", "The user lives in Munich."),
    ("The user has a dog named Biscuit.", "The user has a cat named Biscuit."),
    ("The user plays the guitar.", "The user plays the piano."),
    ("用户喜欢徒步。", "用户喜欢画画。"),
    ("用户喜欢徒步。", "用户喜欢攀岩。"),
    ("用户对麸质过敏。", "用户对花生过敏。"),
    ("用户的朋友叫小王。", "用户的朋友叫小李。"),
    ("用户在腾讯工作。", "用户在阿里巴巴工作。"),
    ("用户住在上海。", "用户住在北京。"),
    ("用户会弹吉他。", "用户会弹钢琴。"),
]
FACT_OTHER_DAY: list[Pair] = [  # one plan, another date: dates decide these, not cosine
    (
        "The user has a dentist appointment next Monday [2026-02-09].",
        "The user has a dentist appointment next Thursday [2026-03-12].",
    ),
    (
        "The user has a dentist appointment next Monday [2026-02-09].",
        "The user has a doctor's appointment next Wednesday [2026-02-18].",
    ),
    ("The user's exam is on Friday [2026-05-08].", "The user's exam is on Tuesday [2026-06-02]."),
    ("用户下周一要看牙医 [2026-02-09]。", "用户下周四要看牙医 [2026-03-12]。"),
    ("用户周五考试 [2026-05-08]。", "用户周二考试 [2026-06-02]。"),
]
FACT_NEGATION: list[Pair] = [  # a denial and the statement it denies
    ("The user doesn't like hiking.", "The user likes hiking."),
    ("The user doesn't like hiking anymore.", "The user really likes hiking."),
    ("The user is not allergic to gluten.", "The user is allergic to gluten."),
    ("The user no longer works at Globex.", "The user works at Globex."),
    ("The user doesn't drink coffee.", "The user drinks coffee every morning."),
    ("The user does not have a dog.", "The user has a dog."),
    ("The user doesn't eat meat.", "The user eats meat."),
    ("用户不喜欢徒步了。", "用户喜欢徒步。"),
    ("用户对麸质不过敏。", "用户对麸质过敏。"),
    ("用户不在腾讯工作了。", "用户在腾讯工作。"),
    ("用户不喝咖啡。", "用户每天早上喝咖啡。"),
    ("用户不吃肉。", "用户吃肉。"),
]
FACT_NEGATION_OTHER: list[Pair] = [  # a denial beside a fact it does not deny
    ("The user doesn't like hiking.", "The user likes painting."),
    ("The user is not allergic to gluten.", "The user is allergic to cats."),
    ("The user no longer works at Globex.", "The user lives in Munich."),
    ("The user doesn't drink coffee.", "The user likes green tea."),
    ("The user does not have a dog.", "The user has a sister named Anna."),
    ("The user doesn't eat meat.", "The user likes spicy food."),
    ("用户不喜欢徒步了。", "用户喜欢画画。"),
    ("用户对麸质不过敏。", "用户对猫过敏。"),
    ("用户不在腾讯工作了。", "用户住在北京。"),
    ("用户不喝咖啡。", "用户喜欢喝绿茶。"),
    ("用户不吃肉。", "用户喜欢吃辣。"),
]
FACT_CHANGE: list[Pair] = [  # a new value announced in words: the fast path must not settle these
    ("The user lives in Berlin.", "The user moved to Munich."),
    ("The user works at Stark.", "The user now works at Globex."),
    ("The user mainly writes Python.", "The user mainly writes Rust now."),
    (
        "The user has a dentist appointment next Monday [2026-02-09].",
        "The user's dentist appointment got moved to Wednesday.",
    ),
    ("用户住在上海。", "用户搬到北京了。"),
    ("用户在腾讯工作。", "用户换工作去了阿里巴巴。"),
    ("用户主要写Python。", "用户现在主要写Rust。"),
]
FACT_OTHER_SUBJECT: list[Pair] = [  # two facts about different things: ADD without a model
    ("The user really likes hiking.", "The user works at Stark."),
    ("The user is allergic to gluten.", "The user's sister is called Anna."),
    ("The user lives in Berlin.", "The user plays the guitar."),
    ("The user has a dog named Biscuit.", "The user is a nurse."),
    ("The user mainly writes Python.", "The user is allergic to peanuts."),
    ("The user's friend is called Zoe.", "The user drinks coffee every morning."),
    ("The user has a dentist appointment next Monday [2026-02-09].", "The user loves spicy food."),
    ("用户喜欢徒步。", "用户在腾讯工作。"),
    ("用户对麸质过敏。", "用户的姐姐叫安娜。"),
    ("用户住在上海。", "用户会弹吉他。"),
    ("用户养了一只叫饼干的狗。", "用户是护士。"),
    ("用户主要写Python。", "用户对花生过敏。"),
    ("用户的朋友叫小王。", "用户每天早上喝咖啡。"),
]

CLASSES: dict[str, list[Pair]] = {
    "qa_en": QA_EN,
    "qa_zh": QA_ZH,
    "qa_cross": QA_CROSS,
    "translation": TRANSLATION,
    "paraphrase_en": PARAPHRASE_EN,
    "paraphrase_zh": PARAPHRASE_ZH,
    "unrelated_en": UNRELATED_EN,
    "unrelated_zh": UNRELATED_ZH,
    "unrelated_cross": UNRELATED_CROSS,
    "opener_vs_memory_en": [(o, m) for o in OPENERS_EN for m in MEMORIES_EN],
    "opener_vs_memory_zh": [(o, m) for o in OPENERS_ZH for m in MEMORIES_ZH],
    "opener_vs_greeting": OPENER_GREETING,
    "fact_near_duplicate": FACT_NEAR_DUPLICATE,
    "fact_paraphrase": FACT_PARAPHRASE,
    "fact_other_object": FACT_OTHER_OBJECT,
    "fact_other_day": FACT_OTHER_DAY,
    "fact_negation": FACT_NEGATION,
    "fact_negation_other": FACT_NEGATION_OTHER,
    "fact_change": FACT_CHANGE,
    "fact_other_subject": FACT_OTHER_SUBJECT,
}


@dataclass(frozen=True)
class Threshold:
    """One of the daemon's cuts: its MiniLM value and the classes whose place relative to it matters."""

    key: str
    minilm: float
    classes: tuple[str, ...]
    meaning: str


# Which classes each threshold separates. MiniLM cannot read Chinese, so its cuts are placed on the
# English halves; the Chinese recall minimum is placed by the English rule applied to USE's Chinese.
THRESHOLDS = (
    Threshold(
        "min_cosine",
        0.3,
        ("qa_en", "paraphrase_en", "unrelated_en"),
        "recall: a vector hit for a Latin query",
    ),
    Threshold(
        "opener_cosine",
        0.6,
        ("opener_vs_memory_en", "opener_vs_greeting", "qa_en"),
        "recall: a vector hit for an opener ('Morning', '早')",
    ),
    Threshold(
        "fast_path_cosine",
        0.6,
        (
            "fact_other_subject",
            "fact_other_object",
            "fact_negation",
            "fact_change",
            "fact_paraphrase",
        ),
        "facts: all 3 neighbours below it -> ADD with no model call",
    ),
    Threshold(
        "paraphrase",
        0.8,
        ("fact_other_object", "fact_other_day", "fact_paraphrase", "fact_near_duplicate"),
        "facts: a near paraphrase, which outranks a different key",
    ),
    Threshold(
        "near_duplicate",
        0.92,
        ("fact_paraphrase", "fact_near_duplicate", "fact_other_object"),
        "facts, rules fallback: the top neighbour is the same fact -> NOOP",
    ),
    Threshold(
        "negation_near",
        0.75,
        ("fact_negation", "fact_negation_other", "fact_other_object"),
        "facts, rules fallback: a denial's top neighbour is what it denies -> UPDATE",
    ),
)


def is_chinese(text: str) -> bool:
    """Any Chinese character: the pairs here are English or Chinese (with names like Python inside)."""
    return any("\u4e00" <= c <= "\u9fff" for c in text)


def split_language(pairs: Sequence[Pair]) -> tuple[list[Pair], list[Pair]]:
    """(pairs whose first text is English, pairs whose first text is Chinese)."""
    return [p for p in pairs if not is_chinese(p[0])], [p for p in pairs if is_chinese(p[0])]


def cosines(embed: Callable[[list[str]], np.ndarray], pairs: Sequence[Pair]) -> np.ndarray:
    texts = sorted({t for p in pairs for t in p})
    vectors = dict(zip(texts, embed(texts), strict=True))
    return np.array([float(np.dot(vectors[a], vectors[b])) for a, b in pairs], dtype=np.float64)


def above(values: np.ndarray, t: float) -> float:
    return float((values >= t).mean()) if len(values) else 0.0


def matching_cut(
    reference: dict[str, float], values: dict[str, np.ndarray]
) -> tuple[float, float, float]:
    """The cut reproducing ``reference`` (class -> share above the MiniLM cut) on another model's cosines:
    (best, low, high) of the range of cuts with the least squared difference, on a 0.01 grid."""
    grid = np.round(np.arange(0.0, 1.001, 0.01), 2)
    loss = np.array(
        [sum((above(values[c], t) - share) ** 2 for c, share in reference.items()) for t in grid]
    )
    best = grid[np.isclose(loss, loss.min())]
    return float(np.median(best)), float(best.min()), float(best.max())


def timing(embed: Callable[[list[str]], np.ndarray], repeats: int) -> tuple[float, float, float]:
    """Median ms for one short sentence, for a batch of 64 short sentences, for one 100k-character text."""
    short = [a for pairs in (PARAPHRASE_EN, PARAPHRASE_ZH) for p in pairs for a in p]
    batch = (short * 4)[:64]
    embed(batch)  # warm
    single = []
    for i in range(repeats * 10):
        start = time.perf_counter()
        embed([short[i % len(short)]])
        single.append(time.perf_counter() - start)
    batched = []
    for _ in range(repeats):
        start = time.perf_counter()
        embed(batch)
        batched.append(time.perf_counter() - start)
    huge = ("I went hiking in the mountains on Saturday. " * 2300)[:100_000]
    long = []
    for _ in range(3):
        start = time.perf_counter()
        embed([huge])
        long.append(time.perf_counter() - start)
    return (
        statistics.median(single) * 1000,
        statistics.median(batched) * 1000,
        statistics.median(long) * 1000,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m perf.eval.embed_calibration", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--repeats", type=int, default=20, help="timing runs of the 64-sentence batch"
    )
    args = parser.parse_args(argv)

    from xaid.embed import OnnxEmbedder, UseEmbedder, profiles

    models: dict[str, Callable[[list[str]], np.ndarray]] = {}
    for label, make in (
        ("minilm", lambda: OnnxEmbedder(threads=min(2, os.cpu_count() or 1))),
        ("use", lambda: UseEmbedder(threads=min(2, os.cpu_count() or 1))),
    ):
        start = time.perf_counter()
        models[label] = make().embed
        print(f"{label}: loaded in {(time.perf_counter() - start) * 1000:.0f} ms")

    values = {
        label: {c: cosines(embed, pairs) for c, pairs in CLASSES.items()}
        for label, embed in models.items()
    }
    # The fact classes mix English and Chinese; MiniLM's cuts are read on their English halves.
    for label in models:
        for c, pairs in CLASSES.items():
            if c.startswith("fact_") or c == "opener_vs_greeting":
                en, zh = split_language(pairs)
                values[label][f"{c}:en"] = cosines(models[label], en)
                values[label][f"{c}:zh"] = cosines(models[label], zh)

    print("\n| pair class | n | MiniLM mean | min | max | USE mean | min | max |")
    print("|---|---|---|---|---|---|---|---|")
    order = [
        name
        for c in CLASSES
        for name in (c, f"{c}:en", f"{c}:zh")
        if len(values["use"].get(name, ()))
    ]
    for c in order:
        m, u = values["minilm"][c], values["use"][c]
        print(
            f"| {c} | {len(u)} | {m.mean():.2f} | {m.min():.2f} | {m.max():.2f} "
            f"| {u.mean():.2f} | {u.min():.2f} | {u.max():.2f} |"
        )

    print("\nshare of each class at or above the cut: MiniLM at its value, USE at the matching cut")
    for th in THRESHOLDS:
        english = {
            c: values["minilm"][f"{c}:en" if f"{c}:en" in values["minilm"] else c]
            for c in th.classes
        }
        reference = {c: above(v, th.minilm) for c, v in english.items()}
        use_en = {
            c: values["use"][f"{c}:en" if f"{c}:en" in values["use"] else c] for c in th.classes
        }
        use_all = {c: values["use"][c] for c in th.classes}
        best_en, low_en, high_en = matching_cut(reference, use_en)
        best_all, low_all, high_all = matching_cut(reference, use_all)
        chosen = getattr(profiles.USE, th.key)
        print(f"\n{th.key} (MiniLM {th.minilm}): {th.meaning}")
        print(
            f"  USE cut matching it on English pairs {best_en:.2f} [{low_en:.2f}-{high_en:.2f}], "
            f"on English+Chinese {best_all:.2f} [{low_all:.2f}-{high_all:.2f}]; the USE profile has {chosen}"
        )
        for c in th.classes:
            print(
                f"  {c:24s} MiniLM {reference[c]:4.0%}   USE@{best_all:.2f} {above(use_all[c], best_all):4.0%}"
                f"   USE@{chosen} {above(use_all[c], chosen):4.0%} (English {above(use_en[c], chosen):4.0%})"
            )
    # The Chinese recall minimum: the Latin rule (qa above, unrelated below) on USE's Chinese and
    # cross-language pairs, where MiniLM has nothing to offer.
    ref = {c: above(values["minilm"][c], 0.3) for c in ("qa_en", "unrelated_en")}
    zh_pairs = {"qa_en": values["use"]["qa_zh"], "unrelated_en": values["use"]["unrelated_zh"]}
    cross = {"qa_en": values["use"]["qa_cross"], "unrelated_en": values["use"]["unrelated_cross"]}
    chosen = profiles.USE.min_cosine_cjk
    print(
        f"\nmin_cosine_cjk (MiniLM {profiles.MINILM.min_cosine_cjk}, never measured): the Latin rule on USE's "
        f"Chinese and cross-language pairs (MiniLM English at 0.3: answers {ref['qa_en']:.0%}, unrelated "
        f"{ref['unrelated_en']:.0%}); the USE profile has {chosen}"
    )
    for label, vals in (("Chinese", zh_pairs), ("cross-language", cross)):
        best, low, high = matching_cut(ref, vals)
        print(
            f"  {label:15s} matching cut {best:.2f} [{low:.2f}-{high:.2f}]   at {chosen}: answers "
            f"{above(vals['qa_en'], chosen):.0%}, unrelated {above(vals['unrelated_en'], chosen):.0%}"
        )

    print(
        f"\nspeed (OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}, {os.cpu_count()} cores): "
        "median of one short sentence, of a batch of 64"
    )
    for label, embed in models.items():
        one, batch, huge = timing(embed, args.repeats)
        print(
            f"  {label:7s} {one:6.2f} ms per sentence   {batch:7.1f} ms per 64 ({batch / 64:.2f} ms each)"
            f"   {huge:6.1f} ms for a 100k-character text (truncated)"
        )


if __name__ == "__main__":
    main()
