"""A matter's topic is framed in the language of the user's words, and the directive quotes them.

Pure functions over a consolidation draft (no model, no database). The topic is what
``scheduler.list`` shows and what the check-in directive quotes: a Chinese user's matter framed in
English put English into a Chinese directive.
"""

from __future__ import annotations

import re

import pytest

from xaid.memory import draft
from xaid.scheduler import arm, fire
from xaid.store.mood import MoodState
from xaid.store.recall import RecallItem
from xaid.store.sessions import Message
from xaid.text.lang import cjk_share

DAY0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC
PLANS = {
    "en": "I have a dentist appointment next Thursday and I'm dreading it.",
    "zh": "我下周四去医院看牙，想想就害怕。",
}
LOWS = {
    "en": "I'm so exhausted, I can't keep my eyes open after this week.",
    "zh": "我真的累垮了，这周每天都熬到半夜。",
}


def drafted(text: str) -> draft.Draft:
    messages = [Message("s", "a", "user", text, DAY0 + 20 * 3_600_000, message_id=1)]
    return draft.draft(messages, {1: 0.8}, MoodState(valence=-0.5, arousal=0.4, fatigue=0.8), "Mia")


def frame_of(topic: str) -> str:
    return re.sub(r'"[^"]*"', "", topic)


def item(a: arm.Arm) -> RecallItem:
    return RecallItem(
        1,
        "a",
        1,
        a.topic,
        a.keywords,
        a.scene,
        a.not_before,
        a.not_after,
        a.priority,
        "armed",
        DAY0,
        None,
        None,
        None,
        None,
        None,
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("said", [PLANS, LOWS], ids=["plan", "emotion"])
def test_the_topic_frame_follows_the_users_words(lang: str, said: dict[str, str]) -> None:
    found = arm.matters(drafted(said[lang]), MoodState(valence=-0.5, arousal=0.4, fatigue=0.8))
    assert found, "a matter is armed"
    topic = found[0].topic
    assert topic.endswith(f'"{said[lang]}"')  # the user's words last, as fire quotes them
    assert cjk_share(frame_of(topic)) == (1.0 if lang == "zh" else 0.0), topic
    line = fire.Verdict(item(found[0]), "due").line
    assert line is not None and said[lang] in line
    if (
        lang == "zh"
    ):  # the words close the instruction to bring them up; in parentheses the 1.5B left them unread
        assert "提起" in line and f"“{said[lang]}”。" in line and "（" not in line
    assert cjk_share(frame_of(line.replace("“", '"').replace("”", '"'))) == (
        1.0 if lang == "zh" else 0.0
    ), line


TIRED_PLANS = {
    "en": "Big exam tomorrow morning and I'm completely exhausted from cramming.",
    "zh": "明天上午考试，复习到现在累死了。",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_feeling_said_with_a_plan_ahead_is_asked_about_through_the_plan(lang: str) -> None:
    """The tiredness and the exam are one line: the next morning the friend asks how they feel
    about the exam (its ahead twin), not only how tired they were. On main the feeling item
    (0.9) outranked the plan (0.86) and the exam was never named the next morning."""
    scenes = [a.scene for a in arm.matters(drafted(TIRED_PLANS[lang]), TIRED)]
    assert "emotion" not in scenes
    assert {"plan", "ahead"} <= set(scenes)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_feeling_on_its_own_line_is_still_armed(lang: str) -> None:
    """Only the feeling said in the plan's own words is covered by it: a tired session without a
    plan still gets its gentle "how are you now"."""
    assert [a.scene for a in arm.matters(drafted(LOWS[lang]), TIRED)] == ["emotion"]


@pytest.mark.parametrize(
    "lines",
    [
        ("cant stop crying tonight", "the custody hearing is on thursday", "i feel so numb"),
        ("哭了一晚上 停不下来", "周四要考试", "整个人都麻了"),
    ],
)
def test_a_feeling_beside_a_dated_matter_is_asked_about_through_it(lines: tuple[str, ...]) -> None:
    """A heavy evening that tells of a hearing or an exam this week: the friend asks how they feel
    about it (its ahead twin asks just that) before how they are. The feeling's own item (0.88)
    outranked it, and the morning named no hearing (morning_dev37's train half)."""
    messages = [
        Message("s", "a", "user", text, DAY0 + 20 * 3_600_000 + i * 60_000, message_id=i + 1)
        for i, text in enumerate(lines)
    ]
    d = draft.draft(messages, {1: 0.8, 2: 0.3, 3: 0.6}, TIRED, "Mia")
    armed = {a.scene: a for a in arm.matters(d, TIRED)}
    assert armed["ahead"].priority > armed["emotion"].priority  # asked first; the feeling waits


def test_a_feeling_beside_a_plan_weeks_away_keeps_its_rank() -> None:
    """A wedding next month says nothing of tonight's exhaustion: the feeling is asked first."""
    lines = ("my sister's wedding is next month", "work is brutal, i'm completely exhausted")
    messages = [
        Message("s", "a", "user", text, DAY0 + 20 * 3_600_000 + i * 60_000, message_id=i + 1)
        for i, text in enumerate(lines)
    ]
    d = draft.draft(messages, {1: 0.3, 2: 0.8}, TIRED, "Mia")
    armed = {a.scene: a for a in arm.matters(d, TIRED)}
    assert armed["emotion"].priority > armed["plan"].priority


TIRED = MoodState(valence=-0.5, arousal=0.4, fatigue=0.8)
