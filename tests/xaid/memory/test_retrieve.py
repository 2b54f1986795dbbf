"""Dating memories in words, and the hybrid search over a real database with real vectors."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from testkit.inproc import InProcessDaemon
from xaid.embed.onnx import OnnxEmbedder
from xaid.memory import index, retrieve
from xaid.memory.pack import About
from xaid.memory.rules import extract
from xaid.store import agents
from xaid.store import memory as sql
from xaid.store import utterances as utterance_sql
from xaid.store.agents import Agent
from xaid.store.db import Database

from . import warmed

DAY = retrieve.DAY_MS
NOW = 1_764_536_400_000 + 12 * 3_600_000


@pytest.mark.parametrize(
    ("days", "words"),
    [
        (0, "earlier today"),
        (1, "yesterday"),
        (3, "3 days ago"),
        (8, "a week ago"),
        (21, "3 weeks ago"),
        (45, "2 months ago"),
        (400, "a year ago"),
    ],
)
def test_ago(days: int, words: str) -> None:
    assert retrieve.ago(NOW - days * DAY, NOW) == words


@pytest.fixture(scope="module")
def embedder() -> OnnxEmbedder:
    return OnnxEmbedder()


def test_hybrid_search_ranks_meaning_keywords_and_recency(
    tmp_path: Path, embedder: OnnxEmbedder
) -> None:
    db = Database(tmp_path / "x.db")
    db.call(agents.insert, Agent("a", "a", "", {}, 0, 0))
    db.call(agents.insert, Agent("b", "b", "", {}, 0, 0))
    db.call(index.ensure_vector_table, embedder.dim, embedder.name)
    texts = {
        "The user's sister Anna lives in Kyoto.": NOW - 40 * DAY,
        "The user enjoys writing Python programs.": NOW - 10 * DAY,
        "用户下周去上海见客户。": NOW - 2 * DAY,
        "The user thinks the weather was nice.": NOW - 5 * DAY,
    }
    vectors = embedder.embed(list(texts))

    def fill(conn, owner: str) -> None:  # type: ignore[no-untyped-def]
        for (text, ts), vec in zip(texts.items(), vectors, strict=True):
            fid = sql.insert_fact(
                conn, owner, sql.NewFact("user.other", "other", text, 0.5), None, "fast", ts
            )
            index.add(conn, owner, "fact", fid, text, ts, vec)

    db.call(fill, "a")
    db.call(fill, "b")

    def search(query: str) -> list[retrieve.Hit]:
        vec = embedder.embed([query])[0]
        hits, tokens = db.call(
            lambda c: retrieve.search(
                c, "a", query, vec, NOW, k=3, budget_tokens=200, recent_days=7
            )
        )
        assert tokens <= 200
        return hits

    assert "Python" in search("Which programming language do I like?")[0].text
    assert "Anna" in search("Tell me about my sister")[0].text
    assert "上海" in search("上海")[0].text  # trigram keyword index, no Chinese in MiniLM
    assert all(h.when for h in search("Kyoto"))
    # only agent a's items ever come back, and references were counted
    assert db.conn.execute("SELECT sum(ref_count) FROM facts WHERE agent_id = 'b'").get == 0
    assert db.conn.execute("SELECT sum(ref_count) FROM facts WHERE agent_id = 'a'").get > 0
    hits = db.call(
        lambda c: retrieve.search(
            c,
            "a",
            "Python",
            np.zeros(embedder.dim, dtype=np.float32),
            NOW,
            k=10,
            budget_tokens=10,
            recent_days=7,
        )
    )[0]
    assert len(hits) <= 1  # the token budget cuts
    db.close()


def test_the_memories_block_is_headed_in_the_users_language() -> None:
    hit = retrieve.Hit("fact", 1, "用户下周去上海见客户。", 0.9, 0, (), "yesterday")
    zh, en = retrieve.render([hit], "zh"), retrieve.render([hit], "en")
    assert zh.startswith(retrieve.HEADERS["zh"]) and "Things you remember" not in zh
    assert en.startswith("Things you remember") and zh.endswith(en.splitlines()[-1])


@pytest.mark.parametrize(
    ("query", "texts", "answer"),
    [
        (
            "Is my sister's wedding in Kyoto?",
            {
                "My sister's wedding will be in Kyoto this June.": 90,
                "My sister's wedding is coming up soon.": 1,
                "Kyoto was lovely when I went there as a kid.": 2,
            },
            "Kyoto this June",
        ),
        (
            "我姐姐的婚礼在京都办吗？",
            {"我姐姐的婚礼六月在京都办。": 90, "我姐姐的婚礼快到了。": 1},
            "京都办",
        ),
    ],
)
def test_what_answers_outranks_what_is_recent(
    tmp_path: Path, embedder: OnnxEmbedder, query: str, texts: dict[str, int], answer: str
) -> None:
    """Issue 28: age was a tenth of every score, so a memory said yesterday that only shares the
    question's words outranked the one from three months ago that answers it (the Chinese pair
    failed so; on the associative dev set most of a turn's block went on the last days' small
    talk). Age now only breaks ties: the better match comes first whenever it was said."""
    db = Database(tmp_path / "x.db")
    db.call(agents.insert, Agent("a", "a", "", {}, 0, 0))
    db.call(index.ensure_vector_table, embedder.dim, embedder.name)
    vectors = embedder.embed(list(texts))

    def fill(conn) -> None:  # type: ignore[no-untyped-def]
        for (text, days), vec in zip(texts.items(), vectors, strict=True):
            ts = NOW - days * DAY
            fid = sql.insert_fact(
                conn, "a", sql.NewFact("user.other", "other", text, 0.5), None, "fast", ts
            )
            index.add(conn, "a", "fact", fid, text, ts, vec)

    db.call(fill)
    hits, _tokens = db.call(
        lambda c: retrieve.search(
            c,
            "a",
            query,
            embedder.embed([query])[0],
            NOW,
            k=3,
            budget_tokens=200,
            recent_days=7,
            touch=False,
        )
    )
    assert answer in hits[0].text
    db.close()


@pytest.mark.parametrize(
    ("old", "new", "past_question", "present_question"),
    [
        (
            "I joined the pottery class at the community centre.",
            "I quit pottery, the class got too expensive.",
            "When did I join the pottery class?",
            "Am I in a pottery class?",
        ),
        (
            "我报了社区中心的陶艺课。",
            "陶艺课太贵了，我不上了。",
            "我上次说报了什么陶艺课？",
            "我现在还在上陶艺课吗？",
        ),
    ],
)
def test_a_superseded_turn_answers_a_question_in_the_past_tense(
    tmp_path: Path,
    embedder: OnnxEmbedder,
    old: str,
    new: str,
    past_question: str,
    present_question: str,
) -> None:
    """Issue 28: a turn a later one superseded was left out of every search but one saying "before",
    so "When did I join…?" could not find the turn that says so (on LoCoMo's tuning sample most of
    the evidence xaid missed was such turns). It is a record of what was said that day: a question
    in the past tense gets it; a present one still gets only the current turn."""
    db = Database(tmp_path / "x.db")
    db.call(agents.insert, Agent("a", "a", "", {}, 0, 0))
    db.call(index.ensure_vector_table, embedder.dim, embedder.name)

    def fill(conn) -> int:  # type: ignore[no-untyped-def]
        ids = []
        for n, (text, days) in enumerate(((old, 60), (new, 5))):
            ts = NOW - days * DAY
            u = utterance_sql.NewUtterance(None, f"r{n}", "user", None, text, ts, 0.5)
            uid = utterance_sql.insert(conn, "a", None, None, u, None)
            index.add(conn, "a", "utterance", uid, text, ts, embedder.embed([text])[0])
            ids.append(uid)
        utterance_sql.supersede(conn, "a", ids[0])
        return ids[0]

    old_id = db.call(fill)

    def found(query: str) -> set[int]:
        hits, _tokens = db.call(
            lambda c: retrieve.search(
                c,
                "a",
                query,
                embedder.embed([query])[0],
                NOW,
                k=5,
                budget_tokens=300,
                recent_days=7,
                touch=False,
            )
        )
        return {i for h in hits if h.kind == "utterance" for i in (h.ids or (h.id,))}

    assert old_id in found(past_question)
    assert old_id not in found(present_question)
    db.close()


@pytest.mark.parametrize(
    ("mention", "said", "others"),
    [
        (
            "阿凯今天被老板骂了",
            "组里新来的实习生阿凯，清华毕业的，结果连复印机都不会用",
            ["今天被夸了一句，开心到现在", "今天地铁上有人外放，忍了一路", "冬天被窝太难离开了"],
        ),
        (
            "Priya rang me today, she sounded stressed",
            "my cousin Priya just got into vet school in Glasgow, so proud of her",
            ["today was so long", "did laundry today", "rainy today, stayed in"],
        ),
    ],
)
def test_the_day_a_mention_names_is_no_keyword(
    tmp_path: Path, mention: str, said: str, others: list[str]
) -> None:
    """Issue 28 (associative_dev13): "阿凯今天被老板骂了" matched every line that said 今天 by that pair
    (and 天被, across two words), as strongly as the turn that told who 阿凯 is matched by his name,
    and the lines of the last days filled the block. The day a mention names (今天, today, tonight,
    明天) says when its own news happened: it is left out of the keyword search, so the keywords
    that name something rank (here by keywords alone: no vectors)."""
    db = Database(tmp_path / "x.db")
    db.call(agents.insert, Agent("a", "a", "", {}, 0, 0))

    def fill(conn) -> None:  # type: ignore[no-untyped-def]
        for days, text in ((30, said), *((n, t) for n, t in enumerate(others, 1))):
            ts = NOW - days * DAY
            fid = sql.insert_fact(
                conn, "a", sql.NewFact("user.other", "other", text, 0.5), None, "fast", ts
            )
            index.add(conn, "a", "fact", fid, text, ts, None)

    db.call(fill)
    hits, _tokens = db.call(
        lambda c: retrieve.search(
            c, "a", mention, None, NOW, k=3, budget_tokens=400, recent_days=7, touch=False
        )
    )
    assert hits and said in hits[0].text, [h.text for h in hits]
    db.close()


def _relevance_two_passes(
    sims: dict[int, float], keywords: dict[int, float], min_cos: float, weak: bool
) -> dict[int, float]:
    """The "mix" relevance as it was computed before it became one pass: the reference."""
    vec = {i: c for i, c in sims.items() if c >= min_cos * (retrieve.WEAK_SHARE if weak else 1.0)}
    best_kw = max(keywords.values(), default=0.0) or 1.0
    out = {
        i: (
            retrieve.MIX_COSINE * vec.get(i, 0.0)
            + retrieve.MIX_KEYWORD * keywords.get(i, 0.0) / best_kw
        )
        / (retrieve.MIX_COSINE + retrieve.MIX_KEYWORD)
        for i in {*vec, *keywords}
    }
    return {
        i: r * retrieve.WEAK_SHARE if i not in keywords and vec.get(i, 1.0) < min_cos else r
        for i, r in out.items()
    }


@pytest.mark.parametrize("weak", [True, False])
def test_relevance_in_one_pass_is_the_same_float(weak: bool) -> None:
    # Vector matches above, between and below the cuts, keyword matches with and without a vector
    # match, a bm25 of 0: every relevance the same float as the two passes gave, in the same order.
    rng = np.random.default_rng(14)
    for _ in range(200):
        ids = rng.choice(400, size=120, replace=False).tolist()
        sims = {i: float(c) for i, c in zip(ids[:90], rng.uniform(-0.1, 0.8, 90), strict=True)}
        keywords = {i: float(v) for i, v in zip(ids[60:], rng.uniform(0.0, 9.0, 60), strict=True)}
        if rng.random() < 0.2:
            keywords = {}
        expected = _relevance_two_passes(sims, keywords, 0.24, weak)
        got = retrieve._relevance(sims, keywords, 0.24, "mix", weak)
        assert list(got.items()) == list(expected.items())


def _scores_as_before(
    found: dict[int, index.Item],
    about: dict[int, About],
    relevance: dict[int, float],
    recent_ids: set[int],
    in_window: set[int],
    role: str | None,
    opener: bool,
    now_ms: int,
) -> dict[int, float]:
    """The scoring loop as it was written inside ``search`` before ``_score``: the reference."""
    scored: dict[int, float] = {}
    for item_id, item in found.items():
        a = about.get(item_id)
        if a is None or (
            item_id not in relevance and item_id not in recent_ids and item_id not in in_window
        ):
            continue
        age_days = max(0, now_ms - item.ts_ms) / DAY
        score = (
            retrieve.RELEVANCE_WEIGHT
            * relevance.get(item_id, 0.0)
            * retrieve.KIND_WEIGHT.get(item.kind, 1.0)
        )
        score += retrieve.VALUE_WEIGHT * a.value
        if role is not None and item.kind == "utterance":
            score *= retrieve.ROLE_BOOST if a.role == role else 1.0
        if item_id in in_window:
            score += retrieve.WINDOW_BOOST
        if item_id in recent_ids:
            score = max(
                score,
                (0.35 + 0.25 * 2 ** (-age_days)) if opener else (0.05 + 0.05 * 2 ** (-age_days)),
            )
        scored[item_id] = score
    return scored


@pytest.mark.parametrize("role", [None, "user", "assistant"])
@pytest.mark.parametrize("opener", [True, False])
def test_scores_are_the_same_floats_as_the_loop_in_search(role: str | None, opener: bool) -> None:
    # Turns, facts and episodes (English and Chinese words: the score reads none of them), with
    # and without relevance, recent episodes, turns on a named day, candidates with no memory.
    rng = np.random.default_rng(28)
    now = 1_780_000_000_000
    kinds = ("utterance", "fact", "episode")
    words = ("I start the new job on Monday", "我下周一开始上新班")
    for _ in range(50):
        found = {
            i: index.Item(
                i, "mia", kinds[i % 3], i, words[i % 2], now - int(rng.integers(0, 90)) * DAY
            )
            for i in range(1, 121)
        }
        about = {
            i: About(float(rng.random()), True, ("user", "assistant")[i % 2])
            for i in found
            if rng.random() < 0.9
        }
        relevance = {i: float(rng.random()) for i in found if rng.random() < 0.6}
        recent = {i for i in found if found[i].kind == "episode" and rng.random() < 0.3}
        window = {i for i in found if rng.random() < 0.1}
        args = (found, about, relevance, recent, window, role, opener, now)
        assert list(retrieve._score(*args).items()) == list(_scores_as_before(*args).items())


WARM_TURNS = [
    ("user", "Yesterday I went climbing with Dario and hurt my wrist."),
    ("assistant", "Oh no! Did you get the wrist checked at the clinic?"),
    ("user", "Not yet. Should I?"),
    ("user", "昨天和建国去爬山了，手腕扭伤了。"),
    ("assistant", "啊，要不要去医院看看手腕？"),
    ("user", "嗯嗯。"),
]


def _asked(c: Any, agent: str, queries: list[str]) -> list[list[dict[str, Any]]]:
    return [warmed.search(c, agent, q) for q in queries]


def test_what_the_rules_read_of_turns_at_start_up_is_what_a_search_reads(tmp_path: Path) -> None:
    """After a restart the daemon reads whether each turn asks and its words for repeats
    (``retrieve.warm``) before any search: the same readings a search makes, searches in both
    languages return what they returned before, and a forget leaves none of the forgotten words."""
    agent = f"mia-{uuid.uuid4().hex[:8]}"
    daemon = InProcessDaemon(tmp_path / "d")
    daemon.start()
    try:
        with daemon.client() as c:
            c.agent_create(agent)
            warmed.give_days(c, agent, WARM_TURNS, 4)
            queries = ["What happened to my wrist?", "我的手腕怎么了？", "Dario"]
            before = _asked(c, agent, queries)
        daemon.stop()
        daemon.start()
        turns = {i: t for i, k, t in warmed.items(daemon.db_path, agent) if k == "utterance"}
        assert len(turns) == 4 * len(WARM_TURNS)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            memo = next(iter(warmed.open_memos(agent)), None)
            if memo is not None and len(memo.readings("asks any")) == len(turns):
                break
            time.sleep(0.05)
        assert memo is not None
        for what in ("asks any", "same words"):
            assert memo.readings(what) == turns, what  # every turn, read from its own words

        def unread(text: str) -> bool:
            raise AssertionError(f"read again: {text}")

        assert {i: memo.judged("asks any", i, t, unread) for i, t in turns.items()} == {
            i: extract.asks(t) for i, t in turns.items()
        }
        with daemon.client() as c:
            assert _asked(c, agent, queries) == before
            c.memory_forget(agent, query="Dario")
            memo = next(iter(warmed.open_memos(agent)), None)
            assert memo is None or not any(
                "Dario" in t
                for what in ("asks any", "same words")
                for t in memo.readings(what).values()
            )
            assert all(
                "Dario" not in i["text"] for items in _asked(c, agent, queries) for i in items
            )
    finally:
        daemon.stop()
