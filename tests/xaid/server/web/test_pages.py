"""The pages rendered from records, without a daemon or a browser: what a memory holds reaches the
HTML as words (stored markup inert), in English and Chinese, and the mood plot has its parts."""

from __future__ import annotations

import re

from xaid.server.web import pages
from xaid.server.web.plot import mood_svg
from xaid.server.web.views import Overview, Why
from xaid.store.agents import Agent
from xaid.store.memory import Episode, Fact, Persona, Signals
from xaid.store.mood import MoodChange, MoodState
from xaid.store.provenance import SourceTurn
from xaid.store.recall import RecallItem, Settings
from xaid.store.sessions import Session

NOW = 1_796_000_000_000
DAY = 86_400_000
EVIL = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'"
AGENT = Agent('a"<b>', EVIL, "")


def _fact(fact_id: int, text: str, status: str = "current", by: int | None = None) -> Fact:
    return Fact(
        fact_id,
        AGENT.agent_id,
        "user.x",
        "misc",
        text,
        status,
        by,
        None,
        0.5,
        Signals(),
        None,
        None,
        "rules",
        NOW,
        NOW,
        0,
    )


def _overview(readings: list[MoodChange]) -> Overview:
    item = RecallItem(
        7,
        AGENT.agent_id,
        1,
        EVIL,
        ("x",),
        "worry",
        NOW,
        NOW + DAY,
        0.5,
        "pending",
        NOW - DAY,
        None,
        None,
        None,
        None,
        None,
    )
    return Overview(
        AGENT,
        Persona(EVIL, 1, 1),
        [_fact(1, EVIL, "superseded", 2), _fact(2, "我弟弟住在成都。")],
        [
            Episode(
                1,
                AGENT.agent_id,
                "s",
                NOW - DAY,
                NOW - DAY,
                EVIL,
                None,
                None,
                None,
                0.5,
                "rules",
                0,
                None,
                None,
                (EVIL, "高光时刻"),
            )
        ],
        MoodState(-0.6, 0.7, 0.6, 0.9, updated_ms=NOW),
        readings,
        [Session("s1", AGENT.agent_id, NOW - 3 * DAY, NOW - 3 * DAY, None)],
        [item],
        [],
        Settings(True, False, 3_600_000, (), (EVIL,)),
        NOW,
    )


def _markup_only_ours(html: str) -> None:
    assert "<script>alert" not in html and "<img" not in html
    assert re.findall(r"<script[^>]*>", html) == ['<script src="/web/app.js" defer>']


def test_stored_markup_is_inert_on_every_page() -> None:
    ov = _overview([])
    for lang in ("en", "zh"):
        html = pages.overview(lang, ov, "c" * 40, "forgot", "3", None).decode()
        _markup_only_ours(html)
        assert (
            html.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 6
        )  # persona, fact, episode, ...
        assert "/a/a%22%3Cb%3E/forget" in html  # the agent id quoted in every link
    why = Why(
        "fact",
        1,
        EVIL,
        NOW,
        [SourceTurn("m1", "user", EVIL, NOW), SourceTurn("m2", None, None, None)],
        [(NOW, "ADD", EVIL, "rules")],
    )
    html = pages.why("en", AGENT, why, "c" * 40, None).decode()
    _markup_only_ours(html)
    assert "(this message is no longer kept)" in html
    _markup_only_ours(pages.error("zh", 404, EVIL).decode())


def test_the_overview_in_chinese_with_status_and_tone() -> None:
    html = pages.overview("zh", _overview([]), "c" * 40, None, None, None).decode()
    assert '<html lang="zh-CN">' in html
    assert "已被取代" in html and "被取代为" in html and "我弟弟住在成都。" in html
    assert "非常低落" in html or "低落" in html  # the tone in words
    assert "精疲力竭" in html and "紧张" in html
    en = pages.overview("en", _overview([]), "c" * 40, None, None, None).decode()
    assert "superseded" in en and "replaced by" in en and "exhausted" in en


def test_the_mood_plot_has_its_lines_sessions_and_axes() -> None:
    readings = [
        MoodChange(
            i,
            NOW - (10 - i) * DAY,
            "message",
            MoodState(-0.5 + i / 10, 0.4, 0.2, 0.6),
            None,
            [],
            None,
        )
        for i in range(10)
    ]
    svg = mood_svg(readings, _overview(readings).sessions, NOW, "en")
    assert svg.count("<polyline") == 4 and svg.count('class="session-mark"') == 1
    assert "day (last 30 days)" in svg and ">level<" in svg
    zh = mood_svg([], [], NOW, "zh")
    assert "日期（最近 30 天）" in zh and "最近 30 天没有情绪记录。" in zh and "<polyline" not in zh
