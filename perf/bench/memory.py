"""Memory: retrieval latency, what memory adds to a turn, consolidation, database growth, first token.

1. ``retrieve.search`` in-process on a real Database (int8 vectors in vec0 searched through xaid's
   in-memory copy + the FTS5 indexes) at 1k, 10k and 100k facts for one agent, beside a second agent
   with 10% as many; ``index.knn`` alone against vec0's exact KNN on float32 and on the stored int8,
   recall@10 against numpy float32 brute force, the keyword search alone, and the cost of loading an
   agent's in-memory copy (time of the first query, bytes).
2. A turn with memory on vs off, same daemon, same history, scripted provider with a fixed delay.
3. Consolidation (session.close wait=True) on the rules path and the LLM path; the share of episodes
   and fact decisions that needed no LLM, from the daemon's ``stats`` memory counters.
4. Database growth over a synthetic bilingual history (file + WAL after the daemon's own checkpoint).
5. Time to first token with the embedded model at turn 1 and a later turn, memory on vs off.

The text is synthetic, generated from bilingual templates (``Speaker``), seeded so every run sees
the same words.
"""

from __future__ import annotations

import functools
import os
import random
import string
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import apsw
import numpy as np
import sqlite_vec
from xaiclient import Client

from xaid.embed import to_blob
from xaid.memory import index, retrieve, vectors
from xaid.store import agents as agent_sql
from xaid.store import memory as sql
from xaid.store.agents import Agent
from xaid.store.db import Database, connect

from ..kit import (
    DAY,
    HOUR,
    MINUTE,
    Aim,
    Row,
    Section,
    median,
    percentile,
    progress,
    ratio,
    scratch_daemon,
    wait_model,
)

SEARCH_P95_AIM = Aim("<=", 10.0)  # ms at 100k facts
RECALL_AIM = Aim(">=", 0.95)  # recall@10 of index.knn against exact float32 cosine
ADDED_P95_AIM = Aim("<=", 10.0)  # ms
RULES_P50_AIM = Aim("<=", 50.0)  # ms
NO_LLM_SHARE_AIM = Aim(">=", 60.0)  # %
FAST_SHARE_AIM = Aim(">=", 90.0)  # %
BYTES_PER_TURN_AIM = Aim("<=", 500.0)
SCRIPTED_DELAY_MS = 5
NOISE_SIGMA = 0.02  # per dimension; a noisy copy keeps a cosine of about 0.93 with its real vector
# One llama.cpp thread: with llm.n_threads = 0 (every core) a 2-core machine shared with anything else
# (the embedder, other processes) stalls llama.cpp's spinning threads; a first run here saw turns of 10 s.
LLAMA_ENV = {
    "XAID_LLM_PROVIDER": "llama_cpp",
    "XAID_LLM_MODEL": "smollm2-135m",
    "XAID_LLM_N_THREADS": "1",
}
T = TypeVar("T")


@dataclass(frozen=True)
class Plan:
    real_sentences: int  # embedded with the real model; the rest of the facts are noisy copies
    levels: tuple[int, ...]  # facts of agent a; agent b gets 10% as many
    queries: int
    warmup: int
    prior_sessions: int  # history of each agent before the memory on/off turns
    turns: int  # session.send per agent, memory on vs off
    rules_sessions: int
    llm_sessions: int  # scripted provider
    llama_sessions: int  # the embedded model writes the summary
    growth_sessions: int
    ttft_history: int  # sessions each agent has before the first-token turns
    ttft_turns: int  # first token at turn 1 and at this turn
    ttft_rounds: int  # fresh daemons per condition


FULL = Plan(2000, (1_000, 10_000, 100_000), 200, 10, 50, 200, 40, 10, 4, 1000, 8, 20, 1)
QUICK = Plan(200, (1_000, 10_000), 30, 5, 8, 20, 8, 3, 1, 80, 1, 4, 1)


# --- synthetic bilingual text -------------------------------------------------------------------

SLOTS: dict[str, tuple[str, ...]] = {
    "name": (
        "Anna",
        "Ben",
        "Chloe",
        "David",
        "Emma",
        "Felix",
        "Grace",
        "Henry",
        "Iris",
        "Jack",
        "Kate",
        "Leo",
        "Maya",
        "Noah",
        "Olivia",
        "Paul",
        "Rosa",
        "Sam",
        "Tara",
        "Victor",
        "Wendy",
        "Yara",
        "Zoe",
        "Omar",
    ),
    "zname": (
        "小美",
        "小明",
        "小红",
        "丽丽",
        "阿强",
        "建国",
        "晓燕",
        "丽娜",
        "志强",
        "海燕",
        "文静",
        "子涵",
        "浩然",
        "欣怡",
        "俊杰",
        "雨桐",
    ),
    "rel": (
        "sister",
        "brother",
        "mom",
        "dad",
        "friend",
        "boss",
        "colleague",
        "roommate",
        "dog",
        "cat",
        "girlfriend",
        "son",
    ),
    "zrel": (
        "妹妹",
        "姐姐",
        "哥哥",
        "弟弟",
        "妈妈",
        "爸爸",
        "朋友",
        "老板",
        "同事",
        "室友",
        "女儿",
        "儿子",
    ),
    "city": (
        "Kyoto",
        "Lisbon",
        "Osaka",
        "Berlin",
        "Toronto",
        "Seattle",
        "Madrid",
        "Oslo",
        "Dublin",
        "Prague",
        "Vienna",
        "Sydney",
        "Austin",
        "Boston",
        "Denver",
        "Porto",
    ),
    "zcity": (
        "上海",
        "北京",
        "成都",
        "杭州",
        "广州",
        "深圳",
        "南京",
        "西安",
        "重庆",
        "武汉",
        "苏州",
        "厦门",
    ),
    "company": (
        "Globex",
        "Initech",
        "Acme",
        "Umbrella",
        "Hooli",
        "Soylent",
        "Cyberdyne",
        "Tyrell",
        "Vandelay",
        "Wonka",
        "Stark",
        "Pied Piper",
    ),
    "zcompany": ("腾讯", "阿里巴巴", "华为", "百度", "字节跳动", "小米", "京东", "美团", "网易"),
    "job": (
        "nurse",
        "teacher",
        "engineer",
        "designer",
        "chef",
        "accountant",
        "lawyer",
        "pharmacist",
        "barista",
        "librarian",
        "architect",
        "translator",
    ),
    "zjob": ("护士", "老师", "程序员", "设计师", "厨师", "会计", "律师", "医生", "销售", "编辑"),
    "like": (
        "hiking",
        "jazz",
        "sushi",
        "chess",
        "pottery",
        "running",
        "gardening",
        "board games",
        "climbing",
        "knitting",
        "photography",
        "baking",
        "cycling",
        "yoga",
        "sci-fi novels",
        "horror movies",
        "tennis",
        "karaoke",
        "camping",
        "birdwatching",
        "swimming",
        "painting",
        "podcasts",
        "video games",
    ),
    "zlike": (
        "爬山",
        "猫",
        "火锅",
        "跑步",
        "摄影",
        "下棋",
        "看电影",
        "喝茶",
        "游泳",
        "弹吉他",
        "画画",
        "做饭",
        "钓鱼",
        "打羽毛球",
        "看小说",
        "旅游",
    ),
    "event": (
        "dentist appointment",
        "job interview",
        "flight",
        "exam",
        "presentation",
        "concert",
        "wedding",
        "doctor's appointment",
        "driving test",
        "team review",
    ),
    "zevent": ("面试", "考试", "体检", "婚礼", "演唱会", "出差", "答辩", "年会"),
    "day": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "zday": ("周一", "周二", "周三", "周四", "周五", "周六", "周日"),
    "time": ("9am", "10am", "11am", "1pm", "2pm", "3pm", "4pm", "6pm"),
    "ztime": ("上午九点", "上午十点", "下午两点", "下午三点", "下午四点", "晚上七点"),
    "food": ("ramen", "lasagna", "tacos", "curry", "dumplings", "paella", "pho", "risotto"),
    "allergen": ("peanuts", "shellfish", "cats", "pollen", "gluten", "penicillin"),
    "zallergen": ("花生", "海鲜", "芒果", "花粉", "牛奶"),
}

# What extraction writes as facts (third person), for the retrieval index.
FACT_TEMPLATES = (
    "The user's {rel} is called {name}.",
    "The user's {rel} {name} lives in {city}.",
    "The user works at {company}.",
    "The user works as a {job} in {city}.",
    "The user likes {like}.",
    "The user doesn't like {like}.",
    "The user has a {event} on {day} at {time}.",
    "The user lives in {city}.",
    "The user is from {city}.",
    "The user is allergic to {allergen}.",
    "The user's {rel} {name} works at {company} as a {job}.",
    "The user's favourite food is {food}.",
    "用户的{zrel}叫{zname}。",
    "用户的{zrel}{zname}住在{zcity}。",
    "用户在{zcompany}工作。",
    "用户是{zjob}，在{zcity}上班。",
    "用户喜欢{zlike}。",
    "用户不喜欢{zlike}。",
    "用户{zday}{ztime}有{zevent}。",
    "用户住在{zcity}。",
    "用户对{zallergen}过敏。",
    "用户的{zrel}{zname}在{zcompany}当{zjob}。",
)

# What a user says at the start of a turn: the retrieval queries and the memory on/off turns.
QUERY_TEMPLATES = (
    "How is my {rel} doing these days?",
    "Do you remember where {name} lives?",
    "I'm flying to {city} next week, any tips?",
    "What should I cook tonight? Maybe {food}.",
    "Work at {company} was exhausting today.",
    "I have the {event} tomorrow and I'm a bit nervous.",
    "Morning! I slept badly again.",
    "Remind me what I told you about {like}?",
    "My {rel} {name} called me today.",
    "我{zrel}最近怎么样？",
    "你还记得{zname}住在哪里吗？",
    "下周我要去{zcity}，有什么推荐？",
    "今天在{zcompany}加班，好累。",
    "明天有{zevent}，有点紧张。",
    "早，昨晚又没睡好。",
    "{zcity}，好想再去一次",
    "{zrel}，又生病了",
)

# Chat: things that stand out (a person, a plan, a feeling) and small talk that does not.
SALIENT = (
    "My {rel} {name} lives in {city}.",
    "I work at {company} as a {job}.",
    "I have a {event} next {day} at {time}.",
    "I really like {like}.",
    "I'm allergic to {allergen}.",
    "I'm so tired today, work at {company} was brutal.",
    "I'm really excited about the trip to {city}!",
    "I'm furious, the landlord raised the rent again.",
    "I feel so lonely tonight.",
    "我{zrel}叫{zname}，住在{zcity}。",
    "我在{zcompany}当{zjob}。",
    "{zday}{ztime}我有{zevent}。",
    "我特别喜欢{zlike}。",
    "我对{zallergen}过敏。",
    "累死了，今天在{zcompany}加班到十点。",
    "好开心！下个月去{zcity}玩。",
    "气死我了，房东又涨房租了。",
    "今晚有点孤单。",
)
BLAND_EN = (
    "ok",
    "haha yeah",
    "The weather is nice today.",
    "I had noodles for lunch.",
    "not much, just chilling",
    "yeah maybe",
    "what about you?",
    "lol",
    "sounds good",
    "I watched some TV.",
    "it was fine I guess",
    "nothing special today",
    "just got home",
    "same as usual",
    "hmm",
    "right",
)
BLAND_ZH = (
    "嗯嗯",
    "哈哈",
    "今天天气不错",
    "中午吃了面条",
    "没什么，随便聊聊",
    "好吧",
    "你呢？",
    "还行吧",
    "刚看了会儿电视",
    "刚到家",
    "老样子",
    "嗯",
    "是吗",
)
REPLIES_EN = (
    "That sounds nice.",
    "Tell me more about it.",
    "I hear you.",
    "How did that go?",
    "Oh, really?",
)
REPLIES_ZH = ("嗯，我明白。", "听起来不错。", "然后呢？", "辛苦了。", "真的吗？")
SMALLTALK_SHARE = 0.3  # sessions of pure small talk in the realistic mix
SALIENT_SHARE = 0.4  # chance that a user message of a mixed session stands out


def is_zh(template: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in template)


class Speaker:
    """One user: bilingual, with a stable circle (each relation has one name, one employer that
    rarely changes), so a long history repeats itself the way a real one does."""

    def __init__(self, seed: int, persona: bool = True):
        self.rng = random.Random(seed)
        self.persona: dict[str, str] = {}
        if persona:
            self.persona = {rel: self.rng.choice(SLOTS["name"]) for rel in SLOTS["rel"]}
            self.persona |= {rel: self.rng.choice(SLOTS["zname"]) for rel in SLOTS["zrel"]}
            self.new_job()

    def new_job(self) -> None:
        for key in ("company", "zcompany", "job", "zjob"):
            self.persona[key] = self.rng.choice(SLOTS[key])

    def fill(self, template: str) -> str:
        values: dict[str, str] = {}
        for _, name, _, _ in string.Formatter().parse(template):
            if name and name not in values:
                values[name] = self.rng.choice(SLOTS[name])
        if self.persona:
            for rel, who in (("rel", "name"), ("zrel", "zname")):
                if rel in values and who in values:
                    values[who] = self.persona[values[rel]]
            for key in ("company", "zcompany", "job", "zjob"):
                if key in values:
                    values[key] = self.persona[key]
        return template.format(**values)

    def pick(self, templates: Sequence[str], zh: bool | None = None) -> str:
        pool = [t for t in templates if zh is None or is_zh(t) == zh]
        return self.fill(self.rng.choice(pool))

    def session(
        self, start_ms: int, kind: str | None = None, turns: int | None = None
    ) -> list[dict[str, Any]]:
        """One session for session.ingest: user and assistant alternating, one language per session.

        kind: "smalltalk" (nothing stands out), "mixed" (some messages stand out, at least one), or
        None for the realistic mix (SMALLTALK_SHARE of the sessions are small talk)."""
        rng = self.rng
        if kind is None:
            kind = "smalltalk" if rng.random() < SMALLTALK_SHARE else "mixed"
        n = turns if turns is not None else rng.randint(3, 9)
        zh = rng.random() < 0.5
        if rng.random() < 0.02:
            self.new_job()
        salient = [kind == "mixed" and rng.random() < SALIENT_SHARE for _ in range(n)]
        if kind == "mixed" and not any(salient):
            salient[rng.randrange(n)] = True
        messages: list[dict[str, Any]] = []
        ts = start_ms
        for stands_out in salient:
            text = (
                self.pick(SALIENT, zh) if stands_out else rng.choice(BLAND_ZH if zh else BLAND_EN)
            )
            messages.append({"role": "user", "text": text, "ts": ts})
            ts += rng.randint(20, 90) * 1000
            messages.append(
                {
                    "role": "assistant",
                    "text": rng.choice(REPLIES_ZH if zh else REPLIES_EN),
                    "ts": ts,
                }
            )
            ts += rng.randint(30, 150) * 1000
        return messages


# --- 1. retrieval, in-process -------------------------------------------------------------------

F32_TABLE = "bench_vec_f32"  # benchmark-only: the same vectors as float32 in vec0, the baseline
COLD_LOADS = 3  # fresh connections per level, each timing its first index.knn


@functools.cache
def _embedder() -> Any:
    from xaid.embed.onnx import OnnxEmbedder

    return OnnxEmbedder(threads=2)  # as the daemon's memory.embed_threads default


def _embed(embedder: Any, texts: list[str]) -> np.ndarray:
    return np.concatenate([embedder.embed(texts[i : i + 64]) for i in range(0, len(texts), 64)])


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)


@dataclass
class Corpus:
    """Facts of both agents: real vectors for the first ``real`` sentences, noisy copies for the rest."""

    embedder: Any
    real: int
    rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(7))
    speaker: Speaker = field(default_factory=lambda: Speaker(11, persona=False))
    by_template: dict[int, list[np.ndarray]] = field(default_factory=dict)
    embed_s: float = 0.0

    def __post_init__(self) -> None:
        templates = [i % len(FACT_TEMPLATES) for i in range(self.real)]
        texts = [self.speaker.fill(FACT_TEMPLATES[t]) for t in templates]
        t0 = time.perf_counter()
        embedded = _embed(self.embedder, texts)
        self.embed_s = time.perf_counter() - t0
        for t, vec in zip(templates, embedded, strict=True):
            self.by_template.setdefault(t, []).append(vec)

    def facts(self, n: int) -> list[tuple[str, np.ndarray]]:
        """``n`` new facts: a text from a random template and a real vector of that template plus noise."""
        out = []
        for _ in range(n):
            t = int(self.rng.integers(len(FACT_TEMPLATES)))
            pool = self.by_template[t]
            base = pool[int(self.rng.integers(len(pool)))]
            vec = _unit(base + self.rng.normal(0.0, NOISE_SIGMA, base.shape).astype(np.float32))
            out.append((self.speaker.fill(FACT_TEMPLATES[t]), vec))
        return out


def _fill(
    conn: apsw.Connection,
    agent_id: str,
    facts: list[tuple[str, np.ndarray]],
    now_ms: int,
    rng: random.Random,
) -> list[int]:
    """Facts the way consolidation writes them (facts + fact_history + memory_items + FTS + the int8 vector),
    plus the benchmark's float32 copy in vec0. Item ids, in order."""
    ids = []
    for text, vec in facts:
        ts = now_ms - rng.randint(1, 700) * DAY
        fact = sql.NewFact("user.other", "other", text, round(rng.uniform(0.3, 0.9), 3))
        fact_id = sql.insert_fact(conn, agent_id, fact, None, "fast", ts)
        item_id = index.add(conn, agent_id, "fact", fact_id, text, ts, vec)
        conn.execute(
            f"INSERT INTO {F32_TABLE} (item_id, agent_id, embedding) VALUES (?, ?, ?)",
            (item_id, agent_id, to_blob(vec)),
        )
        ids.append(item_id)
    return ids


def _vec0_float(
    conn: apsw.Connection, agent_id: str, vector: np.ndarray, k: int
) -> list[tuple[int, float]]:
    """vec0's exact KNN on the benchmark's float32 table, nearest first: how xaid searched before int8."""
    rows = conn.execute(
        f"SELECT item_id, distance FROM {F32_TABLE} WHERE embedding MATCH ? AND k = ? "
        "AND agent_id = ?",
        (to_blob(vector), k, agent_id),
    )
    return [(int(i), 1.0 - float(d)) for i, d in rows]


def _vec0_int8(
    conn: apsw.Connection, agent_id: str, vector: np.ndarray, k: int
) -> list[tuple[int, float]]:
    """vec0's exact KNN on the int8 table xaid stores, nearest first: what that table alone would cost."""
    rows = conn.execute(
        f"SELECT item_id, distance FROM {index.VEC_TABLE} WHERE embedding MATCH vec_int8(?) "
        "AND k = ? AND agent_id = ?",
        (vectors.quantize(vector).tobytes(), k, agent_id),
    )
    return [(int(i), 1.0 - float(d)) for i, d in rows]


def _rss() -> int:
    """Resident bytes of this process (from /proc on Linux; 0 elsewhere)."""
    try:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def _arrays_bytes(copy: vectors.AgentVectors) -> int:
    """The numpy arrays of an agent's in-memory copy: ids, int8 rows, norms, sign bits, alive flags."""
    return sum(a.nbytes for a in (copy.ids, copy.q, copy.norms, copy.codes, copy.alive))


def _map_bytes(copy: vectors.AgentVectors) -> int:
    """Its item_id → row dict: the dict and the int objects in it."""
    return sys.getsizeof(copy.row) + sum(
        sys.getsizeof(i) + sys.getsizeof(r) for i, r in copy.row.items()
    )


def _ms(fn: Callable[[], Any]) -> float:
    return _timed(fn)[0]


def _timed(fn: Callable[[], T]) -> tuple[float, T]:
    """(milliseconds, result) of one call."""
    t0 = time.perf_counter_ns()
    result = fn()
    return (time.perf_counter_ns() - t0) / 1e6, result


@dataclass
class LevelResult:
    facts_a: int
    facts_b: int
    search_a: list[float] = field(default_factory=list)
    search_b: list[float] = field(default_factory=list)
    search_zh: list[float] = field(default_factory=list)
    knn_a: list[float] = field(default_factory=list)  # index.knn: xaid's in-memory int8 search
    knn_b: list[float] = field(default_factory=list)
    vec0_float: list[float] = field(default_factory=list)  # the baseline: vec0 exact KNN on float32
    vec0_int8: list[float] = field(
        default_factory=list
    )  # vec0 exact KNN on the int8 table xaid stores
    keyword_a: list[float] = field(default_factory=list)
    keyword_zh: list[float] = field(default_factory=list)
    keyword_b: list[float] = field(default_factory=list)
    # recall@10 per query against numpy's exact float32 cosine
    recall_knn: list[float] = field(default_factory=list)
    recall_float: list[float] = field(default_factory=list)
    recall_int8: list[float] = field(default_factory=list)
    hits: list[int] = field(default_factory=list)
    cold_ms: list[float] = field(
        default_factory=list
    )  # first index.knn on a fresh connection: loads the copy
    cold_rss: int = 0  # process RSS growth over the first of those
    copy_arrays: int = 0  # bytes of agent a's copy as a fresh load sizes it
    copy_map: int = 0  # its item_id → row dict
    grown_arrays: int = (
        0  # arrays of the main connection's copy, grown by inserts (capacity doubles)
    )
    build_s: float = 0.0


def retrieval(plan: Plan) -> tuple[list[LevelResult], dict[str, Any]]:
    progress(
        f"retrieval: embedding {plan.real_sentences:,} fact sentences and {plan.queries} queries"
    )
    embedder = _embedder()
    corpus = Corpus(embedder, plan.real_sentences)
    asker = Speaker(23, persona=False)
    query_texts = [
        asker.fill(QUERY_TEMPLATES[i % len(QUERY_TEMPLATES)]) for i in range(plan.queries)
    ]
    query_vecs = _embed(embedder, query_texts)
    queries = list(zip(query_texts, query_vecs, strict=True))
    info: dict[str, Any] = {
        "embed_ms": corpus.embed_s * 1000 / plan.real_sentences,
        "dim": embedder.dim,
        "zh": [is_zh(t) for t in query_texts],
        "openblas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "unset"),
    }
    now = int(time.time() * 1000)
    rng = random.Random(5)
    results: list[LevelResult] = []
    with tempfile.TemporaryDirectory(prefix="xaid-perf-retrieval-") as tmp:
        db = Database(Path(tmp) / "xaid.db")
        try:
            info["vec_build"] = (
                db.conn.execute("SELECT vec_debug()").get.split("Build flags:")[-1].strip()
            )
            info["vec_version"] = db.conn.execute("SELECT vec_version()").get
            for agent in ("a", "b"):
                db.call(agent_sql.insert, Agent(agent, agent.upper(), "", {}, now, now))
            db.call(index.ensure_vector_table, embedder.dim, embedder.name)
            db.call(
                lambda c: c.execute(
                    f"CREATE VIRTUAL TABLE {F32_TABLE} USING vec0(item_id INTEGER PRIMARY KEY, agent_id TEXT PARTITION "
                    f"KEY, embedding float[{embedder.dim}] distance_metric=cosine, chunk_size={index.VEC_CHUNK})"
                )
            )
            ids_a: list[int] = []
            vecs_a: list[np.ndarray] = []
            have_a = have_b = 0
            for level in plan.levels:
                t0 = time.perf_counter()
                progress(
                    f"retrieval: filling to {level:,} facts for agent a and {level // 10:,} for agent b"
                )
                for agent, want, have in (("a", level, have_a), ("b", level // 10, have_b)):
                    todo = want - have
                    while todo > 0:
                        chunk = corpus.facts(min(todo, 5000))
                        ids = db.call(_fill, agent, chunk, now, rng)
                        if agent == "a":
                            ids_a += ids
                            vecs_a += [v for _, v in chunk]
                        todo -= len(chunk)
                have_a, have_b = level, level // 10
                build_s = time.perf_counter() - t0
                progress(f"retrieval: {plan.queries} queries at {level:,} facts")
                results.append(
                    _measure_level(db, queries, ids_a, np.stack(vecs_a), level, plan, now)
                )
                results[-1].build_s = build_s
            info["db_mib"] = sum(p.stat().st_size for p in Path(tmp).iterdir()) / 2**20
            info["f32_mib"] = (
                db.conn.execute(
                    "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name GLOB ? OR name GLOB ?",
                    (f"{F32_TABLE}*", f"sqlite_autoindex_{F32_TABLE}*"),
                ).get
                / 2**20
            )
        finally:
            db.close()
    return results, info


def _measure_level(
    db: Database,
    queries: list[tuple[str, np.ndarray]],
    ids_a: list[int],
    matrix: np.ndarray,
    level: int,
    plan: Plan,
    now: int,
) -> LevelResult:
    out = LevelResult(level, level // 10)
    ids = np.asarray(ids_a)
    k = retrieve.CANDIDATES

    def search(agent: str, text: str, vec: np.ndarray) -> Any:
        return db.call(
            lambda c: retrieve.search(
                c, agent, text, vec, now, k=8, budget_tokens=400, recent_days=7
            )
        )

    for text, vec in queries[: plan.warmup]:
        search("a", text, vec)
        search("b", text, vec)
        db.call(_vec0_float, "a", vec, k)
        db.call(_vec0_int8, "a", vec, k)
    for text, vec in queries:
        elapsed, (hits_a, _tokens) = _timed(partial(search, "a", text, vec))
        out.hits.append(len(hits_a))
        out.search_a.append(elapsed)
        if is_zh(text):
            out.search_zh.append(elapsed)
        out.search_b.append(_ms(partial(search, "b", text, vec)))
        elapsed, found = _timed(partial(db.call, index.knn, "a", vec, k))
        out.knn_a.append(elapsed)
        out.knn_b.append(_ms(partial(db.call, index.knn, "b", vec, k)))
        elapsed, exact_float = _timed(partial(db.call, _vec0_float, "a", vec, k))
        out.vec0_float.append(elapsed)
        elapsed, exact_int8 = _timed(partial(db.call, _vec0_int8, "a", vec, k))
        out.vec0_int8.append(elapsed)
        elapsed = _ms(partial(db.call, index.keyword, "a", text, k))
        out.keyword_a.append(elapsed)
        if is_zh(text):
            out.keyword_zh.append(elapsed)
        out.keyword_b.append(_ms(partial(db.call, index.keyword, "b", text, k)))
        # All three come back nearest first, so their first 10 are their top-10.
        truth = set(ids[np.argsort(-(matrix @ vec), kind="stable")[:10]].tolist())
        for got, recalls in (
            (found, out.recall_knn),
            (exact_float, out.recall_float),
            (exact_int8, out.recall_int8),
        ):
            recalls.append(len(truth & {i for i, _ in got[:10]}) / 10)
    out.grown_arrays = _arrays_bytes(db.call(vectors.load, index.VEC_TABLE, "a", matrix.shape[1]))
    _cold_loads(db.path, queries[0][1], out)
    return out


def _cold_loads(path: Path, vec: np.ndarray, out: LevelResult) -> None:
    """The first index.knn on fresh connections: each loads agent a's vectors from vec0, then searches."""
    for attempt in range(COLD_LOADS):
        conn = connect(path)
        try:
            rss = _rss()
            with conn:
                out.cold_ms.append(_ms(partial(index.knn, conn, "a", vec, retrieve.CANDIDATES)))
            if attempt == 0:
                out.cold_rss = _rss() - rss
                loaded = vectors.load(
                    conn, index.VEC_TABLE, "a", len(vec)
                )  # the copy just built: no reload
                out.copy_arrays, out.copy_map = _arrays_bytes(loaded), _map_bytes(loaded)
        finally:
            conn.close()


def _n(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _size(n: int) -> str:
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else f"{n:,}"


def retrieval_rows(
    levels: list[LevelResult], info: dict[str, Any], plan: Plan
) -> tuple[list[Row], list[str]]:
    rows: list[Row] = []
    first = levels[0]
    base95 = percentile(first.search_a, 0.95)
    dim = info["dim"]
    chinese = info["zh"]
    vs_float = "vec0 exact KNN, float32"

    def p(values: list[float], q: float) -> float:
        return percentile(values, q)

    def mean(values: list[float], zh: bool | None = None) -> float:
        """Mean recall over the queries, or over the Chinese (zh=True) or the other (zh=False) ones."""
        picked = [v for v, z in zip(values, chinese, strict=True) if zh is None or z == zh]
        return float(np.mean(picked)) if picked else float("nan")

    for lv in levels:
        size = _size(lv.facts_a)
        p95 = p(lv.search_a, 0.95)
        rows.append(
            Row(
                f"retrieve.search p50, {size} facts",
                p(lv.search_a, 0.5),
                "ms",
                note=f"agent a; {len(lv.search_a)} bilingual queries, k=8, 400-token budget, touch on "
                f"(as on a turn); mean {np.mean(lv.hits):.1f} hits; filled in {lv.build_s:.0f} s",
            )
        )
        rows.append(
            Row(
                f"retrieve.search p95, {size} facts",
                p95,
                "ms",
                SEARCH_P95_AIM if lv is levels[-1] else None,
                ratio(p95, base95) if lv is not first else None,
                f"{_size(first.facts_a)} facts",
                f"Chinese queries alone (keywords only: search drops the vector of a mostly Chinese query "
                f"for the English-only model): p95 {p(lv.search_zh, 0.95):.1f} ms",
            )
        )
        knn50, knn95 = p(lv.knn_a, 0.5), p(lv.knn_a, 0.95)
        flt50, flt95 = p(lv.vec0_float, 0.5), p(lv.vec0_float, 0.95)
        rescored = vectors.rescore_count(lv.facts_a)
        how = (
            "every row re-scored (int8 cosine)"
            if rescored >= lv.facts_a
            else f"Hamming on sign bits, then the best {rescored:,} of {lv.facts_a:,} re-scored (int8 cosine)"
        )
        rows.append(
            Row(
                f"index.knn alone p50, {size} facts",
                knn50,
                "ms",
                ratio=ratio(knn50, flt50),
                baseline=vs_float,
                note=f"xaid's in-memory search of agent a's copy, k={retrieve.CANDIDATES} (retrieve's "
                f"candidate count): {how}; p95 {knn95:.2f} ms (×{ratio(knn95, flt95) or 0:.3f} of the "
                f"baseline's p95)",
            )
        )
        rows.append(
            Row(
                f"baseline: vec0 exact KNN on float32 p50, {size} facts",
                flt50,
                "ms",
                note=f"the same vectors in a benchmark-only vec0 table (float[{dim}] cosine, agent_id "
                f"partition key, chunk_size {index.VEC_CHUNK}), how xaid searched before int8; p95 "
                f"{flt95:.1f} ms; recall@10 {mean(lv.recall_float):.3f}",
            )
        )
        i8 = p(lv.vec0_int8, 0.5)
        rows.append(
            Row(
                f"vec0 exact KNN on the stored int8 table p50, {size} facts",
                i8,
                "ms",
                ratio=ratio(i8, flt50),
                baseline=vs_float,
                note=f"`{index.VEC_TABLE}` as xaid writes it (int8[{dim}] cosine) queried with vec_int8 of "
                f"the quantized query: what the stored table alone would cost, without the in-memory copy; "
                f"p95 {p(lv.vec0_int8, 0.95):.1f} ms; recall@10 {mean(lv.recall_int8):.3f}",
            )
        )
        rows.append(
            Row(
                f"keyword search alone p50, {size} facts",
                p(lv.keyword_a, 0.5),
                "ms",
                note=f"index.keyword over its FTS5 indexes, k={retrieve.CANDIDATES}; p95 "
                f"{p(lv.keyword_a, 0.95):.1f} ms; Chinese queries p95 {p(lv.keyword_zh, 0.95):.1f} ms",
            )
        )
        rows.append(
            Row(
                f"index.knn recall@10 vs exact float32 cosine, {size} facts",
                mean(lv.recall_knn),
                "",
                RECALL_AIM,
                note=f"top-10 of numpy brute-force cosine over agent a's float32 vectors; mean "
                f"over {len(lv.recall_knn)} queries (English {mean(lv.recall_knn, False):.3f}, Chinese "
                f"{mean(lv.recall_knn, True):.3f}; lowest query {min(lv.recall_knn):.1f}); vec0 exact KNN "
                f"on the stored int8: {mean(lv.recall_int8):.3f}",
            )
        )
        rows.append(
            Row(
                f"cold first query (loads the agent's vectors), {size} facts",
                median(lv.cold_ms),
                "ms",
                note=f"index.knn on a fresh connection: reads agent a's {lv.facts_a:,} int8 rows from vec0, "
                f"builds the in-memory copy, then searches it; median of {_n(len(lv.cold_ms), 'connection')}"
                f": {', '.join(f'{v:.0f}' for v in lv.cold_ms)} ms",
            )
        )
    by_size = {lv.facts_a: lv for lv in levels}
    for lv in levels:
        twin = by_size.get(lv.facts_b)
        if twin is None:
            continue
        b50, a50 = p(lv.search_b, 0.5), p(twin.search_a, 0.5)
        rows.append(
            Row(
                f"partition: agent b ({_size(lv.facts_b)}) beside a ({_size(lv.facts_a)}), search p50",
                b50,
                "ms",
                ratio=ratio(b50, a50),
                baseline=f"agent a alone at {_size(twin.facts_a)}",
                note=f"p95 {p(lv.search_b, 0.95):.1f} vs {p(twin.search_a, 0.95):.1f} ms; p50 of the parts, "
                f"b vs a at {_size(twin.facts_a)}: index.knn {p(lv.knn_b, 0.5):.2f} vs "
                f"{p(twin.knn_a, 0.5):.2f} ms, keyword {p(lv.keyword_b, 0.5):.2f} vs "
                f"{p(twin.keyword_a, 0.5):.2f} ms (keyword p95 {p(lv.keyword_b, 0.95):.1f} vs "
                f"{p(twin.keyword_a, 0.95):.1f} ms); measured at different times of the run, so machine load "
                f"moves the ratio",
            )
        )
    last = levels[-1]
    size = _size(last.facts_a)
    per_fact = (last.copy_arrays + last.copy_map) / last.facts_a
    rows.append(
        Row(
            f"in-memory copy of one agent's vectors, {size} facts",
            last.copy_arrays / 2**20,
            "MiB",
            note=f"the AgentVectors arrays as a fresh load sizes them (int8 rows, int64 ids, float32 norms, "
            f"uint64 sign bits, alive flags): {last.copy_arrays / last.facts_a:.0f} B per fact; its item_id "
            f"→ row dict adds {last.copy_map / 2**20:.1f} MiB, {per_fact:.0f} B per fact in all; the "
            f"process RSS grew {last.cold_rss / 2**20:.1f} MiB over the first cold query (the new "
            f"connection's page cache included); the main connection's copy, grown by inserts (the arrays "
            f"double when full), holds {last.grown_arrays / 2**20:.1f} MiB of arrays",
        )
    )
    build = info.get("vec_build") or "none"
    threads = info["openblas_threads"]
    notes = [
        f"Retrieval: in-process `retrieve.search` through `Database.call` (one transaction, as `db.run` does, minus "
        f"the thread hop) on a real database in a temp dir: int8 vectors in the vec0 table `{index.VEC_TABLE}` "
        f"(cosine, agent_id partition key) searched through xaid's in-memory copy, and the FTS5 keyword indexes, all "
        f"written by `index.add` and the schema's triggers. Agent b holds 10% as many facts as agent a. "
        f"{plan.real_sentences:,} synthetic bilingual fact sentences ({len(FACT_TEMPLATES)} templates) were "
        f"embedded with the real MiniLM model ({info['embed_ms']:.1f} ms each in batches of 64); every other fact "
        f"has a template-generated text and the vector of a real sentence of the same template plus Gaussian noise "
        f"(σ = {NOISE_SIGMA} per dimension, cosine ≈ 0.93 to it), re-normalised. Queries are real embeddings of "
        f"{len(last.search_a)} generated user messages, about half Chinese; each level is timed after "
        f"{plan.warmup} warm-up queries. The database at the largest size: {info.get('db_mib', 0):.0f} MiB, "
        f"{info.get('f32_mib', 0):.0f} MiB of it the benchmark-only float32 table.",
        f"The in-memory index (`xaid.memory.vectors`): on an agent's first query on a connection, its int8 rows are "
        f"read from vec0 into numpy arrays (again only when the agent's generation changed on another connection; "
        f"`index.add` and removals update the copy in place). A query ranks every row by Hamming distance between "
        f"sign bits ({(dim + 63) // 64} uint64 per vector), then re-scores the best "
        f"max({vectors.MIN_RESCORE}, n × {vectors.RESCORE_SHARE:g}) rows by cosine between the float query and the "
        f"int8 rows; up to {vectors.MIN_RESCORE:,} rows every row is re-scored (exact up to int8 rounding). The "
        f"`index.knn` rows time the warm copy, the daemon's steady state; 'cold first query' is the one-off load. "
        f"The copy costs about {per_fact:.0f} bytes per fact ({last.copy_arrays / 2**20:.0f} MiB of arrays and "
        f"{last.copy_map / 2**20:.0f} MiB of id map at {size}), held per agent that has been queried.",
        f"Baselines in the same run: vec0's exact KNN over the same vectors as float32 (a benchmark-only vec0 table "
        f"filled beside `index.add`) and over the int8 table xaid stores. sqlite-vec {info.get('vec_version', '?')} "
        f"reports build flags '{build}': its scan runs without SIMD and reads every chunk of the partition through "
        f"SQLite's blob I/O, so its exact KNN grows linearly with the agent's items, int8 or float.",
        f"Recall@10 is against numpy's exact float32 cosine on the same vectors, mean over the queries. It is "
        f"measured on clustered synthetic vectors: noisy copies of {plan.real_sentences:,} real ones, so each fact "
        f"has many near-duplicates (cosine ≈ 0.87 to one another) and the top 10 are separated by small margins, "
        f"which sign bits resolve poorly: a hard case for the Hamming step (real facts, more spread out, are likely "
        f"an easier one; not measured here). The same margins make int8 rounding alone cost some recall: vec0's "
        f"exact KNN on the stored int8 shows that ceiling. "
        f"Chinese queries are embedded by the English-only model too; `retrieve.search` drops their vector, but "
        f"`index.knn` and the recall are measured on every query.",
        f"OPENBLAS_NUM_THREADS = {threads} in this run: perf/__main__ sets it to 1 before numpy loads, as the "
        f"daemon's xaid/__main__ does. It matters: in one run with it unset (same 200 queries, this 2-core machine "
        f"shared with other work, load average ≈ 4), index.knn at 100k took p50 23 ms and p95 47 ms against 4.4–6.0 "
        f"and 10–12 ms with 1, and retrieve.search p50 18 ms against 6–7 ms: OpenBLAS spreads each re-score's "
        f"matrix-vector product over every core, which costs far more than it saves here."
        + (
            ""
            if threads == "1"
            else " This run did not have it at 1, so its index.knn figures are not the daemon's."
        ),
    ]
    return rows, notes


# --- daemon helpers -------------------------------------------------------------------------------


def history(
    client: Client,
    agent_id: str,
    speaker: Speaker,
    sessions: int,
    end_ms: int,
    span_ms: int,
    kind: str | None = None,
    turns: int | None = None,
) -> list[float]:
    """``sessions`` sessions spread over ``span_ms`` before ``end_ms``: ingest, close wait=True.
    Milliseconds of each close (client side)."""
    closes = []
    for i in range(sessions):
        start = end_ms - span_ms + (span_ms * i) // max(1, sessions)
        messages = speaker.session(start, kind, turns)
        sid = client.session_open(agent_id, ts=start)["session_id"]
        client.session_ingest(sid, messages)
        closes.append(
            _ms(partial(client.session_close, sid, ts=messages[-1]["ts"] + MINUTE, wait=True))
        )
    return closes


def _counters(client: Client) -> Counter[str]:
    mem = client.call("stats")["memory"]
    return Counter(
        {k: v for k, v in mem.items() if isinstance(v, int | float) and not isinstance(v, bool)}
    )


def _turn(client: Client, sid: str, text: str, ts: int) -> tuple[float, dict[str, Any]]:
    t0 = time.perf_counter_ns()
    result = client.session_send(sid, text, ts=ts).finish()
    return (time.perf_counter_ns() - t0) / 1e6, result


# --- 2. a turn with memory on vs off --------------------------------------------------------------


def turn_cost(plan: Plan) -> tuple[list[Row], list[str]]:
    env = {"XAID_LLM_SCRIPTED_DELAY_MS": str(SCRIPTED_DELAY_MS)}
    now = (int(time.time() * 1000) // DAY) * DAY + 9 * HOUR
    agents = {"on": ("mem_on", {}), "off": ("mem_off", {"memory": False})}
    client_ms: dict[str, list[float]] = {k: [] for k in agents}
    total_ms: dict[str, list[float]] = {k: [] for k in agents}
    memory_ms: list[float] = []
    with scratch_daemon(env) as daemon, daemon.client(timeout=300.0) as client:
        for key, (agent_id, config) in agents.items():
            client.agent_create(agent_id, name="Mia", config=config)
            progress(f"turn cost: {plan.prior_sessions} prior sessions for memory {key}")
            history(client, agent_id, Speaker(31), plan.prior_sessions, now - DAY, 10 * 7 * DAY)
        sids = {k: client.session_open(a, ts=now)["session_id"] for k, (a, _) in agents.items()}
        asker = Speaker(37)
        texts = [asker.pick(QUERY_TEMPLATES) for _ in range(plan.turns + 5)]
        progress(f"turn cost: {plan.turns} turns per agent, interleaved")
        for i, text in enumerate(texts):
            order = list(agents) if i % 2 == 0 else list(reversed(agents))
            for key in order:
                elapsed, result = _turn(client, sids[key], text, now + i * MINUTE)
                if i >= 5:  # the first five are warm-up
                    client_ms[key].append(elapsed)
                    total_ms[key].append(float(result["timings"]["total_ms"]))
                    if key == "on":
                        memory_ms.append(float(result["timings"]["memory_ms"]))
        explained = client.session_send(
            sids["on"], texts[0], ts=now + len(texts) * MINUTE, explain=True
        ).finish()
        memories = len(explained["context"]["memories"])
        episodes = len(
            client.call("memory.list", agent_id="mem_on", kind="episode", limit=1000)["items"]
        )
        facts = len(
            client.call("memory.list", agent_id="mem_on", kind="fact", limit=10_000)["items"]
        )
    embedder = _embedder()
    embed_ms = [_ms(partial(embedder.embed, [text])) for text in texts for _ in range(2)][2:]
    rows: list[Row] = []
    for label, samples in (("client latency", client_ms), ("timings.total_ms", total_ms)):
        for q, name in ((0.5, "p50"), (0.95, "p95")):
            on, off = percentile(samples["on"], q), percentile(samples["off"], q)
            rows.append(
                Row(
                    f"turn {label} {name}, memory on",
                    on,
                    "ms",
                    ratio=ratio(on, off),
                    baseline="memory off",
                )
            )
            rows.append(Row(f"turn {label} {name}, memory off", off, "ms"))
        on95, off95 = percentile(samples["on"], 0.95), percentile(samples["off"], 0.95)
        rows.append(
            Row(
                f"added by memory, {label} p95 (on − off)",
                on95 - off95,
                "ms",
                ADDED_P95_AIM,
                note=f"p50: {percentile(samples['on'], 0.5) - percentile(samples['off'], 0.5):+.1f} ms",
            )
        )
    rows.append(
        Row(
            "memory's own time in a turn p95 (timings.memory_ms)",
            percentile(memory_ms, 0.95),
            "ms",
            ADDED_P95_AIM,
            note=f"embedding the message and recalling memories and profile, timed by the "
            f"daemon around that step (what memory adds to the path to the first token, without the "
            f"noise of comparing two distributions); p50 {percentile(memory_ms, 0.5):.1f} ms",
        )
    )
    rows.append(
        Row(
            "one-message embedding in-process p50 (the floor of what memory adds)",
            percentile(embed_ms, 0.5),
            "ms",
            note=f"OnnxEmbedder.embed([text]) on the turn texts, 2 threads; p95 "
            f"{percentile(embed_ms, 0.95):.1f} ms; in the daemon it also crosses to a thread",
        )
    )
    notes = [
        f"Memory on vs off: one daemon, scripted provider with XAID_LLM_SCRIPTED_DELAY_MS={SCRIPTED_DELAY_MS}, two "
        f'agents (default config vs {{"memory": false}}), each first given the same {plan.prior_sessions} '
        f"bilingual sessions (session.ingest + session.close wait=True, ts spread over 10 weeks, the last a day "
        f"before the turns); the memory-on agent then held {episodes} episodes and {facts} current facts. Then "
        f"{plan.turns} session.send turns each (plus 5 warm-up), the same texts, alternating which agent goes "
        f"first. A memory-on turn injected {memories} memories (one explain turn at the end). Memory on adds one "
        f"embedding of the user's message (MiniLM on the embed worker) and `retrieve.search`; both agents do the "
        f"rest (mood, Layer A compression, prompt, generation).",
    ]
    return rows, notes


# --- 3. consolidation -----------------------------------------------------------------------------


def consolidation(plan: Plan) -> tuple[list[Row], list[str]]:
    env = {"XAID_LLM_SCRIPTED_DELAY_MS": str(SCRIPTED_DELAY_MS)}
    end = int(time.time() * 1000) - DAY
    rules: list[float] = []
    rules_no_llm: list[float] = []
    llm: list[float] = []
    misrouted = 0
    with scratch_daemon(env) as daemon, daemon.client(timeout=300.0) as client:
        client.agent_create("cons", name="Mia")
        speaker = Speaker(41)
        history(client, "cons", speaker, 3, end - 30 * DAY, 3 * DAY)  # warm-up
        kinds = ["mixed"] * plan.rules_sessions + ["smalltalk"] * plan.llm_sessions
        random.Random(3).shuffle(kinds)
        progress(
            f"consolidation: {plan.rules_sessions} rules-path and {plan.llm_sessions} LLM-path sessions"
        )
        for i, kind in enumerate(kinds):
            before = _counters(client)
            turns = speaker.rng.randint(3, 6) if kind == "mixed" else speaker.rng.randint(6, 8)
            elapsed = history(
                client, "cons", speaker, 1, end - (len(kinds) - i) * DAY // 2, 1, kind, turns
            )[0]
            delta = _counters(client) - before
            if delta["episodes_rules"]:
                rules.append(elapsed)
                if not delta["llm_calls"]:
                    rules_no_llm.append(elapsed)
            elif delta["episodes_llm"] or delta["episodes_llm_rejected"]:
                llm.append(elapsed)
            if (kind == "mixed") != bool(delta["episodes_rules"]):
                misrouted += 1
    progress(f"consolidation: {plan.llama_sessions} LLM-path sessions with the embedded model")
    llama: list[float] = []
    llama_counts: Counter[str] = Counter()
    with scratch_daemon(LLAMA_ENV) as daemon, daemon.client(timeout=600.0) as client:
        wait_model(client, 300, 0.02, daemon)
        client.agent_create("cons", name="Mia")
        speaker = Speaker(43)
        before = _counters(client)
        for i in range(plan.llama_sessions):
            llama += history(
                client, "cons", speaker, 1, end - (plan.llama_sessions - i) * DAY, 1, "smalltalk", 7
            )
        llama_counts = _counters(client) - before
    drafts = _draft_ms(Speaker(47), 3 * plan.rules_sessions)
    rows = [
        Row(
            "consolidation, rules path p50",
            percentile(rules, 0.5),
            "ms",
            RULES_P50_AIM,
            note=f"{len(rules)} sessions of 3–6 user messages where something stands out; session.close wait=True, "
            f"client side, embedding included; p95 {percentile(rules, 0.95):.0f} ms",
        ),
        Row(
            "consolidation, rules path with no LLM call at all, p50",
            percentile(rules_no_llm, 0.5),
            "ms",
            RULES_P50_AIM,
            note=f"{len(rules_no_llm)} of the {len(rules)}: every fact on the fast path; the others "
            f"asked the (scripted) LLM about a fact",
        ),
        Row(
            f"consolidation, LLM path p50, scripted ({SCRIPTED_DELAY_MS} ms/token)",
            percentile(llm, 0.5),
            "ms",
            ratio=ratio(percentile(llm, 0.5), percentile(rules, 0.5)),
            baseline="rules path",
            note=f"{len(llm)} sessions of 6–8 small-talk messages; the scripted summary is an echo cut at 120 tokens",
        ),
        Row(
            "consolidation, LLM path p50, embedded model (llama_cpp)",
            percentile(llama, 0.5),
            "ms",
            note=f"{_n(len(llama), 'session')} of 7 small-talk messages, SmolLM2-135M writes the summary "
            f"(≤ 120 tokens); "
            f"accepted {llama_counts['episodes_llm']}, rejected {llama_counts['episodes_llm_rejected']}",
        ),
        Row(
            "draft.draft alone in-process p50 (the rules themselves)",
            percentile(drafts, 0.5),
            "ms",
            note=f"{len(drafts)} sessions like the rules-path ones: extraction, time parsing, features, salience, "
            f"summary; p95 {percentile(drafts, 0.95):.2f} ms. The rest of a close is embedding, the fact "
            f"neighbour queries and the database round trips",
        ),
    ]
    notes = [
        f"Consolidation latency is session.close with wait=True measured by the client: closing, the job, the "
        f"draft, fact decisions, embedding the summary, highlights and fact candidates, and the write. "
        f"{misrouted} session(s) took a path other than the one their kind was built for."
    ]
    return rows, notes


def _draft_ms(speaker: Speaker, sessions: int) -> list[float]:
    from xaid.memory import draft
    from xaid.store.sessions import Message

    out = []
    for _ in range(sessions):
        raw = speaker.session(int(time.time() * 1000), "mixed", speaker.rng.randint(3, 6))
        msgs = [
            Message("s", "a", m["role"], m["text"], m["ts"], message_id=i + 1)
            for i, m in enumerate(raw)
        ]
        out.append(_ms(partial(draft.draft, msgs, {}, None, "Mia")))
    return out


# --- 4. database growth (and the decision shares over the same realistic mix) -----------------------

CATEGORIES = (
    ("vectors (vec0)", ("memory_vec",)),
    ("keyword indexes (FTS5)", ("memory_fts",)),
    ("messages", ("messages", "sqlite_autoindex_messages")),
    ("mood history", ("mood",)),
    (
        "memory rows (items, episodes, highlights, facts, sources)",
        (
            "memory_items",
            "episodes",
            "highlights",
            "facts",
            "fact_history",
            "sources",
            "sqlite_autoindex_sources",
            "sqlite_autoindex_memory_items",
            "sqlite_autoindex_episodes",
        ),
    ),
    (
        "sessions, jobs, compressions",
        (
            "sessions",
            "jobs",
            "compressions",
            "sqlite_autoindex_jobs",
            "sqlite_autoindex_sessions",
            "sqlite_autoindex_compressions",
        ),
    ),
)


def _by_table(db_path: Path) -> tuple[dict[str, int], Counter[tuple[str, str, str]], Counter[str]]:
    """Bytes by part of the database; fact decisions by (language, action, decided_by); fact rows by decided_by."""
    conn = apsw.Connection(str(db_path), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        conn.enable_load_extension(True)
        conn.load_extension(sqlite_vec.loadable_path())
        rows = conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall()
        owner: dict[str, str] = {
            str(name): str(table)
            for name, table in conn.execute("SELECT name, tbl_name FROM sqlite_master")
        }
        decisions: Counter[tuple[str, str, str]] = Counter()
        seen: set[str] = set()
        for text, action, by in conn.execute(
            "SELECT text, action, decided_by FROM fact_history WHERE action IN "
            "('ADD', 'NOOP', 'DELETE') ORDER BY history_id"
        ):
            decisions["zh" if is_zh(text) else "en", action, by] += 1
            if text not in seen:  # the first time this exact fact text was decided on
                decisions["new-" + ("zh" if is_zh(text) else "en"), action, by] += 1
                seen.add(text)
        writes: Counter[str] = Counter(
            {
                str(by): int(n)
                for by, n in conn.execute(
                    "SELECT decided_by, count(*) FROM facts GROUP BY decided_by"
                )
            }
        )
    finally:
        conn.close()
    out: dict[str, int] = {}
    for name, size in rows:
        name, table = str(name), owner.get(str(name), str(name))
        label = next(
            (
                cat
                for cat, prefixes in CATEGORIES
                if table.startswith(prefixes) or name.startswith(prefixes)
            ),
            "other (free pages, schema, meta)",
        )
        out[label] = out.get(label, 0) + int(size or 0)
    return out, decisions, writes


def _fast_by_language(decisions: Counter[tuple[str, str, str]]) -> str:
    parts = []
    for lang, name in (
        ("en", "English"),
        ("zh", "Chinese"),
        ("new-en", "first mentions, English"),
        ("new-zh", "first mentions, Chinese"),
    ):
        mine = {k: v for k, v in decisions.items() if k[0] == lang}
        total = sum(mine.values())
        fast = sum(v for k, v in mine.items() if k[2] == "fast")
        noop = sum(v for k, v in mine.items() if k[1] == "NOOP")
        parts.append(f"{name}: {fast}/{total} fast, {noop} NOOP")
    return (
        "decisions from fact_history (a first mention is a fact text never decided on before): "
        + "; ".join(parts)
    )


@dataclass
class GrowthRun:
    size: int
    user_turns: int
    tables: dict[str, int]
    decisions: Counter[tuple[str, str, str]]
    writes: Counter[str]
    counters: Counter[str]
    episodes: int
    facts: int
    closes: list[float]
    seconds: float

    def split(self) -> str:
        parts = sorted(self.tables.items(), key=lambda kv: -kv[1])
        return "; ".join(f"{k} {v / max(1, self.user_turns):,.0f} B" for k, v in parts)


def _grow(plan: Plan, maintain: bool) -> GrowthRun:
    """The synthetic history into a fresh daemon; with ``maintain``, the daily maintenance runs on each
    session's day, as a deployed daemon does (transcript retention and the forgetting curve)."""
    end = int(time.time() * 1000) - DAY
    sessions = plan.growth_sessions
    user_turns = 0
    closes: list[float] = []
    with scratch_daemon() as daemon:
        with daemon.client(timeout=300.0) as client:
            client.agent_create("life", name="Mia")
            speaker = Speaker(53)
            t0 = time.perf_counter()
            for i in range(sessions):
                start = end - (sessions - i) * DAY
                messages = speaker.session(start)
                user_turns += sum(m["role"] == "user" for m in messages)
                sid = client.session_open("life", ts=start)["session_id"]
                client.session_ingest(sid, messages)
                closes.append(
                    _ms(
                        partial(
                            client.session_close, sid, ts=messages[-1]["ts"] + MINUTE, wait=True
                        )
                    )
                )
                if maintain:
                    client.call("memory.maintain", ts=messages[-1]["ts"] + 2 * MINUTE)
                if (i + 1) % max(1, sessions // 5) == 0:
                    progress(
                        f"growth{' (daily maintenance)' if maintain else ''}: {i + 1}/{sessions} sessions "
                        f"({time.perf_counter() - t0:.0f} s)"
                    )
            seconds = time.perf_counter() - t0
            counters = _counters(client)
            episodes = len(
                client.call("memory.list", agent_id="life", kind="episode", limit=100_000)["items"]
            )
            facts = len(
                client.call(
                    "memory.list", agent_id="life", kind="fact", status="all", limit=100_000
                )["items"]
            )
        daemon.stop()  # Database.close: wal_checkpoint(TRUNCATE)
        db = daemon.db_path
        wal = db.with_name(db.name + "-wal")
        size = db.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
        tables, decisions, writes = _by_table(db)
    return GrowthRun(
        size, user_turns, tables, decisions, writes, counters, episodes, facts, closes, seconds
    )


def growth(plan: Plan) -> tuple[list[Row], list[str], list[Row]]:
    sessions = plan.growth_sessions
    kept = _grow(plan, maintain=False)
    daily = _grow(plan, maintain=True)
    counters, decisions, writes, closes = kept.counters, kept.decisions, kept.writes, kept.closes
    rows = [
        Row(
            "database bytes per turn, daily maintenance (as deployed)",
            daily.size / max(1, daily.user_turns),
            "B",
            BYTES_PER_TURN_AIM,
            note=f"{daily.size / 2**20:.1f} MiB / {daily.user_turns:,} turns; `memory.maintain` on each session's "
            f"day with the default settings: transcripts kept 90 days after consolidation, unreferenced episodes "
            f"lose highlights after 30 days and go after 180 (no search ran, so none was referenced); "
            f"{daily.episodes:,} episodes and {daily.facts:,} facts left; per turn by part: {daily.split()}",
        ),
        Row(
            "database bytes per turn, everything kept (no maintenance)",
            kept.size / max(1, kept.user_turns),
            "B",
            BYTES_PER_TURN_AIM,
            ratio=ratio(kept.size, daily.size),
            baseline="daily maintenance",
            note=f"{kept.size / 2**20:.1f} MiB (file + WAL after the daemon's checkpoint at stop) / "
            f"{kept.user_turns:,} turns (a turn = a user message and its reply); every transcript and episode "
            f"kept: the cost of the memory layers themselves; per turn by part: {kept.split()}",
        ),
        Row(
            "database bytes per session, everything kept",
            kept.size / max(1, sessions),
            "B",
            note=f"{sessions:,} sessions → {kept.episodes:,} episodes, {kept.facts:,} facts (all statuses)",
        ),
        Row(
            "consolidation during the growth run (close wait=True) p50",
            percentile(closes, 0.5),
            "ms",
            note=f"the realistic mix, no LLM delay; {sessions:,} sessions in {kept.seconds:.0f} s including ingest; "
            f"p95 {percentile(closes, 0.95):.0f} ms, last 10% p50 {median(closes[-max(1, sessions // 10) :]):.0f} ms",
        ),
    ]
    decided = (
        counters["episodes_rules"] + counters["episodes_llm"] + counters["episodes_llm_rejected"]
    )
    no_llm = 100 * counters["episodes_rules"] / max(1, decided)
    fact_total = counters["fact_fast"] + counters["fact_llm"] + counters["fact_rules"]
    fast = 100 * counters["fact_fast"] / max(1, fact_total)
    shares = [
        Row(
            "episodes decided without an LLM (realistic mix)",
            no_llm,
            "%",
            NO_LLM_SHARE_AIM,
            note=f"stats: episodes_rules {counters['episodes_rules']}, episodes_llm {counters['episodes_llm']}, "
            f"episodes_llm_rejected {counters['episodes_llm_rejected']}",
        ),
        Row(
            "fact decisions on the fast path (realistic mix)",
            fast,
            "%",
            FAST_SHARE_AIM,
            note=f"stats: fact_fast {counters['fact_fast']}, fact_llm {counters['fact_llm']}, fact_rules "
            f"{counters['fact_rules']} (the scripted LLM's answers never parse, so every LLM-consulted fact falls "
            f"back to rules); fact_candidates {counters['fact_candidates']}, llm_calls {counters['llm_calls']}; "
            f"{_fast_by_language(decisions)}",
        ),
        Row(
            "fact rows written on the fast path (realistic mix)",
            100 * writes["fast"] / max(1, writes.total()),
            "%",
            FAST_SHARE_AIM,
            note="facts.decided_by over every fact row written (ADD and the new row of an UPDATE; "
            "a NOOP writes none): " + ", ".join(f"{k} {v}" for k, v in sorted(writes.items())),
        ),
    ]
    notes = [
        f"Growth and shares: one agent, {sessions:,} sessions one day apart (scripted provider, no delay), "
        f"generated by `Speaker.session`: {int(SMALLTALK_SHARE * 100)}% pure small talk, the rest with each user "
        f"message standing out (a person, plan, preference, allergy or feeling) with p = {SALIENT_SHARE}; 3–9 user "
        f"messages each (mean 6), half the sessions in Chinese; a stable circle of people; an employer and a job "
        f"named in English sessions and another pair in Chinese ones (drawn independently), each changing in 2% "
        f"of sessions, so a change of language that mentions work is a change of an exclusive subject, which "
        f"the rules leave to the LLM. Every session is ingested, then closed with wait=True; the database is "
        f"measured after `daemon.stop()` (the daemon checkpoints with TRUNCATE), split by table with dbstat. "
        f"The shares come from the run without maintenance.",
    ]
    if sessions < 1000:
        notes.append(f"Growth ran {sessions} sessions instead of 1,000 (quick run).")
    return rows, notes, shares


# --- 5. time to first token with the embedded model ---------------------------------------------------


def _ttft_run(plan: Plan, config: dict[str, Any], now: int) -> dict[str, Any]:
    """One fresh llama_cpp daemon: history, a warm-up turn of another agent, then the measured turns."""
    with scratch_daemon(LLAMA_ENV) as daemon, daemon.client(timeout=600.0) as client:
        wait_model(client, 300, 0.02, daemon)
        client.agent_create("ttft", name="Mia", config=config)
        history(client, "ttft", Speaker(61), plan.ttft_history, now - DAY, 14 * DAY, "mixed", 4)
        # The same last generation in every daemon before turn 1: a warm model, and a KV cache that
        # shares nothing useful with the turn (another agent, another name).
        client.agent_create(
            "warmup", name="Zed", config={"max_tokens": 4, "memory": False, "mood": False}
        )
        warm = client.session_open("warmup", ts=now)["session_id"]
        client.session_send(warm, "Hello there, how are you?", ts=now).finish()
        sid = client.session_open("ttft", ts=now)["session_id"]
        asker = Speaker(67)
        out: dict[str, Any] = {
            "ttft": [],
            "prompt": [],
            "heads": [],
            "earlier": [],
            "memories": 0,
            "load": [],
        }
        for i in range(plan.ttft_turns):
            result = client.session_send(
                sid, asker.pick(QUERY_TEMPLATES), ts=now + i * MINUTE, explain=True
            ).finish()
            out["ttft"].append(float(result["timings"]["first_token_ms"] or 0.0))
            out["prompt"].append(int(result["usage"]["prompt_tokens"]))
            out["heads"].append(result["context"]["system_prompt"])
            out["earlier"].append(len(result["context"]["earlier"]))
            out["memories"] += len(result["context"]["memories"])
            out["load"].append(os.getloadavg()[0])
        return out


def first_token(plan: Plan) -> tuple[list[Row], list[str]]:
    now = (int(time.time() * 1000) // DAY) * DAY + 9 * HOUR
    configs = {"on": {"max_tokens": 4}, "off": {"max_tokens": 4, "memory": False}}
    runs: dict[str, list[dict[str, Any]]] = {k: [] for k in configs}
    for rnd in range(plan.ttft_rounds):
        for key in list(configs) if rnd % 2 == 0 else list(reversed(configs)):
            progress(
                f"first token: round {rnd + 1}/{plan.ttft_rounds}, memory {key}, llama_cpp, "
                f"{plan.ttft_turns} turns"
            )
            runs[key].append(_ttft_run(plan, configs[key], now))
    last = plan.ttft_turns
    # Per turn, the median over rounds (the same texts every round, so the same prompts).
    ttft = {k: [median([r["ttft"][i] for r in rs]) for i in range(last)] for k, rs in runs.items()}
    prompt_tokens = {k: rs[0]["prompt"] for k, rs in runs.items()}
    heads = {k: rs[0]["heads"] for k, rs in runs.items()}
    changed = {k: [i + 1 for i in range(1, last) if h[i] != h[i - 1]] for k, h in heads.items()}
    earlier = runs["on"][0]["earlier"]
    folds = [i + 1 for i in range(1, last) if earlier[i] != earlier[i - 1]]
    injected = {k: rs[0]["memories"] / last for k, rs in runs.items()}
    load = median([x for rs in runs.values() for r in rs for x in r["load"]])
    rows = []
    for turn in (1, last):
        on, off = ttft["on"][turn - 1], ttft["off"][turn - 1]
        rows.append(
            Row(
                f"first token at turn {turn}, memory on",
                on,
                "ms",
                ratio=ratio(on, off),
                baseline="memory off",
                note=f"prompt {prompt_tokens['on'][turn - 1]} tokens",
            )
        )
        rows.append(
            Row(
                f"first token at turn {turn}, memory off",
                off,
                "ms",
                note=f"prompt {prompt_tokens['off'][turn - 1]} tokens",
            )
        )
    mid_on, mid_off = median(ttft["on"][1:]), median(ttft["off"][1:])
    rows.append(
        Row(
            f"first token p50 over turns 2–{last}, memory on",
            mid_on,
            "ms",
            ratio=ratio(mid_on, mid_off),
            baseline="memory off",
            note=f"memory off: {mid_off:.0f} ms; per turn, on: "
            + ", ".join(f"{v:.0f}" for v in ttft["on"])
            + "; off: "
            + ", ".join(f"{v:.0f}" for v in ttft["off"]),
        )
    )
    notes = [
        f"First token: the embedded SmolLM2-135M (XAID_LLM_PROVIDER=llama_cpp), a fresh daemon per condition and "
        f"round ({_n(plan.ttft_rounds, 'round')}, order alternating; each turn's figure is its median over the "
        f"rounds) so "
        f"no run inherits another's KV cache; load average during the turns ≈ {load:.1f}. llm.n_threads = 1 "
        f"(XAID_LLM_N_THREADS): with the default 0 (every core) an earlier run on this shared 2-core machine, "
        f"with other work running, took about 10 s per 4-token turn, as llama.cpp's threads spin-wait for each "
        f"other when one is descheduled; agent config "
        f'{{"max_tokens": 4}} (memory on) or '
        f'{{"max_tokens": 4, "memory": false}}; each first given {_n(plan.ttft_history, "session")} with something '
        f"that stands out (closed with wait=True, so consolidation's LLM calls are over) and one warm-up turn of "
        f"another agent, then {last} turns in one session. `timings.first_token_ms` of the reply. llama.cpp "
        f"re-reads only what follows the longest unchanged prefix of the previous prompt: the head (persona, "
        f"profile, tone) and the history stay put, and the memories block sits just before the newest user "
        f"message, so each turn re-reads that block, the previous reply and the new message. 'prompt' is the "
        f"context size the provider reports. The system prompt (head) changed at turns {changed['on'] or 'none'} "
        f"with memory on and {changed['off'] or 'none'} with memory off (tone guidance crossing a mood band, or "
        f"the profile): such a turn re-reads the whole prompt. Layer A folded the oldest messages into 'Earlier' "
        f"at turns {folds or 'none'}: the fold changes everything after the head, so that turn re-reads nearly "
        f"the whole prompt too. Memory on injected {injected['on']:.1f} memories "
        f"per turn on average (explain=True on every turn, which only adds the context to the reply).",
    ]
    return rows, notes


# --- the section ----------------------------------------------------------------------------------


def run(quick: bool) -> Section:
    plan = QUICK if quick else FULL
    load_before = os.getloadavg()[0]
    rows: list[Row] = []
    notes: list[str] = []
    levels, info = retrieval(plan)
    r, n = retrieval_rows(levels, info, plan)
    rows += r
    notes += n
    r, n = turn_cost(plan)
    rows += r
    notes += n
    c_rows, c_notes = consolidation(plan)
    g_rows, g_notes, shares = growth(plan)
    rows += c_rows + shares + g_rows
    notes += c_notes + g_notes
    r, n = first_token(plan)
    rows += r
    notes += n
    notes.insert(
        0,
        f"Load average (1 min) just before the run: {load_before:.2f}; all figures are from one run, "
        "ratios compare figures measured side by side in it.",
    )
    if quick:
        notes.append(
            f"Quick run: {plan.real_sentences} real sentences, sizes {', '.join(map(_size, plan.levels))}, "
            f"{plan.queries} queries, {plan.turns} turns per agent, first token at turn {plan.ttft_turns}."
        )
    return Section("Memory: retrieval, turn cost, consolidation, growth, first token", rows, notes)
