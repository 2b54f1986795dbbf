"""Where the rules read nothing settled, the chat model weighs whether a later session told how an
earlier matter ended (scheduler/ended.py, retire.to_weigh): asked only of a session near the matter
in meaning, never of one that says it goes on or moves it. Pure parts first, then a real daemon
(SQLite, the default embedder, the reader); the scripted provider stands in for the chat model and
weighs as certain the answer ``[[say:…]]`` in the session's words tells it to
(providers/scripted.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon
from testkit.weighing import logprobs
from xaid.scheduler import ended, retire
from xaid.store.recall import RecallItem


@pytest.mark.parametrize(
    ("lang", "p", "told"),
    [("en", 0.8, True), ("en", 0.7, False), ("zh", 0.85, True), ("zh", 0.75, False)],
)
def test_told_above_its_languages_threshold(lang: str, p: float, told: bool) -> None:
    assert ended.is_ended(logprobs(p), lang) is told  # type: ignore[arg-type]


def test_the_question_quotes_the_matter_and_the_sessions_lines() -> None:
    q = ended.prompt("our dog slipped out of the gate", ["FOUND HIM omg", "in the shed"], "en")
    assert "our dog slipped out of the gate" in q and "- FOUND HIM omg\n- in the shed" in q
    zh = ended.prompt("橘子从窗户缝钻出去了", ["回来了！！！"], "zh")
    assert (
        "橘子从窗户缝钻出去了" in zh
        and "- 回来了！！！" in zh
        and zh.endswith("只回答“是”或“否”。")
    )


DAY = 86_400_000
NOW = 1_764_630_000_000  # Monday 2025-12-01 23:00 UTC


def _matter(item_id: int, vector: np.ndarray) -> tuple[RecallItem, np.ndarray]:
    item = RecallItem(
        item_id, "mia", 7, 'how it is now: "the dog got out"', ("dog",), "matter",
        NOW + DAY, NOW + 8 * DAY, 0.8, "pending", NOW - 3_600_000,
        None, None, None, None, None,
    )  # fmt: skip
    return item, vector


def test_only_matters_near_the_session_are_weighed_the_closest_first() -> None:
    near, far, nearest = np.array([1.0, 0.3]), np.array([0.0, 1.0]), np.array([1.0, 0.0])
    items = [_matter(1, near), _matter(2, far), _matter(3, nearest)]
    vectors = {item.item_id: v for item, v in items}
    session = retire.Line("found him", NOW, np.array([1.0, 0.0]))
    lines = [session]
    asked = retire.to_weigh([i for i, _ in items], lines, vectors, session, 0.2, 2)
    assert [i.item_id for i in asked] == [3, 1]
    assert [
        i.item_id for i in retire.to_weigh([i for i, _ in items], lines, vectors, session, 0.2, 1)
    ] == [3]


@pytest.mark.parametrize(
    "text",
    [
        "still no sign of him, put up posters",  # still going on
        "还没找到",
        "the vet visit got moved to the 15th",  # moved
    ],
)
def test_a_session_that_says_it_goes_on_or_moves_it_is_not_weighed(text: str) -> None:
    item, vector = _matter(1, np.array([1.0, 0.0]))
    session = retire.Line(text, NOW, np.array([1.0, 0.0]))
    assert retire.to_weigh([item], [session], {1: vector}, session, 0.2, 2) == []


NIGHT = 1_764_536_400_000  # day 0, 21:00 UTC
LOST = {  # an undated trouble
    "en": "the pipe under our sink burst tonight, water everywhere, still waiting on a plumber",
    "zh": "我家猫团子从阳台跑出去了 找了一晚上都没找到 急死了",
}
BACK = {  # its end, told without a word the rules read as settling
    "en": ["the floor is dry!!", "the guy was here by 11, kitchen smells of bleach lol"],
    "zh": ["回家了！！！", "早上一开门就坐在门口 浑身脏兮兮的 冲我喵喵叫"],
}


def _two_nights(c: Client, lang: str, answer: str, agent: str = "mia") -> tuple[dict, int]:
    """The evening's lost pet, then that night's later session ingested (no check-in of its own to
    take the matter first); the session-1 item as it ends, and the end questions weighed."""
    c.agent_create(agent)
    sid = c.session_open(agent, ts=NIGHT)["session_id"]
    c.session_send(sid, LOST[lang], ts=NIGHT).finish()
    c.session_close(sid, ts=NIGHT + 600_000, wait=True)
    armed = [i for i in c.scheduler_list(agent)["items"] if i["scene"] == "matter"]
    assert armed, c.scheduler_list(agent)["items"]
    before = int(c.stats()["memory"].get("ended_model_calls", 0))
    later = NIGHT + 2 * 3_600_000
    sid = c.session_open(agent, ts=later)["session_id"]
    said = [*BACK[lang], f"[[say:{answer}]]"]
    c.session_ingest(
        sid, [{"role": "user", "text": t, "ts": later + i * 60_000} for i, t in enumerate(said)]
    )
    c.session_close(sid, ts=later + 600_000, wait=True)
    calls = int(c.stats()["memory"].get("ended_model_calls", 0)) - before
    states = ["pending", "pushed", "resolved", "expired", "cancelled"]
    now = {i["item_id"]: i for i in c.scheduler_list(agent, states=states)["items"]}
    return now[armed[0]["item_id"]], calls


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_yes_retires_the_matter_as_told(client: Client, lang: str) -> None:
    item, calls = _two_nights(client, lang, "yes")
    assert calls == 1
    assert item["state"] == "resolved" and "told" in item["closed_reason"], item


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_no_keeps_it(client: Client, lang: str) -> None:
    item, calls = _two_nights(client, lang, "no")
    assert calls == 1 and item["state"] == "pending", item


def test_without_the_question_nothing_is_weighed(tmp_path: Any) -> None:
    with (
        InProcessDaemon(tmp_path, env={"XAID_SCHEDULER_ASK_MODEL": "0"}) as d,
        d.client() as c,
    ):
        item, calls = _two_nights(c, "en", "yes")
    assert calls == 0 and item["state"] == "pending"
