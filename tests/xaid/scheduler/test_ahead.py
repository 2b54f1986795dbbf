"""What a friend asks the next morning (issue 25): a dated matter still ahead is asked about before
its day as well as after it, and a session whose only trace is a feeling leaves a feeling to ask
after; a matter the user asked not to have brought up stays held back. Pure arming over a
consolidation draft, then through a real daemon and database with the scripted provider (the
scheduler, the lead and the directive are the daemon's; the model's words are not judged here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from testkit.inproc import InProcessDaemon
from xaid.memory import draft
from xaid.scheduler import arm
from xaid.store.mood import MoodState
from xaid.store.sessions import Message
from xaid.text import timeparse

HOUR = 3_600_000
DAY = 24 * HOUR
MONDAY = 1_764_547_200_000  # 2025-12-01 00:00 UTC, a Monday
TIRED = MoodState(valence=-0.4, arousal=0.3, fatigue=0.8)
AHEAD = {
    "en": "ugh the interview at Brightwell is thursday and i havent even looked at their product",
    "zh": "周四要去腾讯面试，算法题还一点没刷，有点慌",
}


def drafted(lines: list[str], intensity: float, at: int = MONDAY + 21 * HOUR) -> draft.Draft:
    messages = [
        Message("s", "a", "user", t, at + i * 60_000, message_id=i + 1) for i, t in enumerate(lines)
    ]
    return draft.draft(messages, {m.message_id: intensity for m in messages}, TIRED, "Mia")  # type: ignore[misc]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_matter_still_ahead_is_asked_about_before_its_day_and_after_it(lang: str) -> None:
    found = {a.scene: a for a in arm.matters(drafted([AHEAD[lang]], 0.6), None)}
    after = found.get("plan") or found["worry"]
    before = found["ahead"]
    assert before.not_before == MONDAY + DAY + 3 * HOUR  # the next morning (six hours after 21:00)
    assert before.not_after == MONDAY + 3 * DAY + 17 * HOUR  # to Thursday's end of work (no hour)
    assert after.not_before == MONDAY + 3 * DAY + 17 * HOUR  # then "how did it go?"
    assert before.keywords == after.keywords and before.priority == after.priority
    assert before.topic.endswith(f'"{AHEAD[lang]}"')


def test_a_matter_the_next_morning_is_asked_about_that_morning_not_later_ones() -> None:
    tomorrow = arm.matters(drafted(["Big interview tomorrow afternoon, wish me luck"], 0.6), None)
    ahead = [a for a in tomorrow if a.scene == "ahead"]
    assert (
        len(ahead) == 1 and ahead[0].not_after == MONDAY + DAY + 18 * HOUR
    )  # till the afternoon ends
    late = drafted(["Big interview tomorrow at nine, wish me luck"], 0.6, MONDAY + 23 * HOUR)
    assert next(a for a in arm.matters(late, None) if a.scene == "ahead").not_before == (
        MONDAY + DAY + 5 * HOUR
    )


@pytest.mark.parametrize(
    "lines",
    [
        ["The interview is on Thursday. Please don't bring it up, I'll jinx it."],
        ["周四面试，你别提这事，我怕越想越紧张。"],
    ],
)
def test_a_matter_held_back_is_not_asked_before_its_day_either(lines: list[str]) -> None:
    assert arm.matters(drafted(lines, 0.6), None) == []


@pytest.mark.parametrize(
    "lines",
    [
        [
            "I'm so done today. Back-to-back calls from 8 to 7, my brain is mush.",
            "Going to bed, totally wiped.",
        ],
        ["今天加班到十点半，脑子已经转不动了。", "不说了 睡了"],
    ],
)
def test_a_feeling_only_session_leaves_the_feeling_to_ask_after(lines: list[str]) -> None:
    """No line the rules read as strong (intensity 0.2), but the closing mood, read by meaning,
    is tired: the feeling is armed with the session's words."""
    found = arm.matters(drafted(lines, 0.2), TIRED)
    assert [a.scene for a in found] == ["emotion"]
    assert lines[0][:12] in found[0].topic
    mild = MoodState(valence=-0.35, arousal=0.3, fatigue=0.3)
    assert arm.matters(drafted(lines, 0.2), mild) == []  # a mild close with nothing strong said
    assert arm.matters(drafted([*lines, "haha whatever"], 0.2), TIRED) == []  # a joke


def _said(c: object, agent: str, lines: list[str], at: int) -> None:
    sid = c.session_open(agent, ts=at)["session_id"]  # type: ignore[attr-defined]
    c.session_ingest(  # type: ignore[attr-defined]
        sid, [{"role": "user", "text": t, "ts": at + i * 60_000} for i, t in enumerate(lines)]
    )
    c.session_close(sid, ts=at + HOUR, wait=True)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("lang", "opener", "before", "after"),
    [
        (
            "en",
            "Morning.",
            "Morning! How are you feeling about the interview",
            "Morning! How did the interview",
        ),
        ("zh", "早。", "早。面试的事，你", "早。上次说的面试"),
    ],
)
def test_through_a_daemon_asked_before_the_day_and_again_after_it(
    tmp_path: Path, lang: str, opener: str, before: str, after: str
) -> None:
    """Monday night the interview on Thursday; Tuesday morning it is asked about ("how are you
    feeling about it"), and the user talks about the prep; talking about it before the day does not
    settle it: Friday morning it is asked how it went."""
    prep = {"en": "Prep is going ok, the interview is still scary", "zh": "面试准备得还行，就是慌"}
    with InProcessDaemon(tmp_path / "d") as d, d.client() as c:
        c.agent_create("mia", name="Mia" if lang == "en" else "小雅")
        _said(c, "mia", [AHEAD[lang]], MONDAY + 21 * HOUR)
        tuesday = MONDAY + DAY + 9 * HOUR
        sid = c.session_open("mia", ts=tuesday)["session_id"]
        first = c.session_send(sid, opener, ts=tuesday, explain=True).finish()
        c.session_send(sid, prep[lang], ts=tuesday + 60_000).finish()
        c.session_close(sid, ts=tuesday + HOUR, wait=True)
        friday = MONDAY + 4 * DAY + 9 * HOUR
        sid = c.session_open("mia", ts=friday)["session_id"]
        last = c.session_send(sid, opener, ts=friday, explain=True).finish()
    assert first["context"]["lead"] == before and first["text"].startswith(before)
    assert ("not happened yet" if lang == "en" else "还没到") in first["context"]["directive"]
    assert last["context"]["lead"] == after and last["text"].startswith(after)


@pytest.mark.parametrize(
    ("line", "over"),
    [
        ("ugh the interview is tomorrow at 9:30, second time i've applied there", 11.5),
        ("明天上午十点去银行面试，已经是第三轮了", 12.0),
        ("dentist tomorrow morning, they're finally pulling the wisdom tooth", 12.0),
        ("明天一早去医院做胃镜，好怕", 10.0),
        ("my exam is tomorrow at 2pm, wish me luck", 16.0),
        ("明天下午考试，好紧张", 18.0),
    ],
)
def test_an_event_of_one_day_turns_from_before_to_after_when_it_is_over(
    line: str, over: float
) -> None:
    """Session 12's gap: a check-in "before the event" stayed due through the event's whole day, so
    an evening after a morning interview was asked "are you ready?". The twin before it ends, and
    "how did it go" begins, when the event is over (the hour said and two more, the end of the part
    of the day said)."""
    found = {a.scene: a for a in arm.matters(drafted([line], 0.6), None)}
    after = found.get("plan") or found["worry"]
    turn = MONDAY + DAY + int(over * HOUR)
    assert found["ahead"].not_after == turn and after.not_before == turn
    assert after.not_after - MONDAY - 2 * DAY in (7 * DAY, 14 * DAY)  # its window ends as before
    assert arm.window_day(after.not_before) == arm.window_day(found["ahead"].not_after)


@pytest.mark.parametrize(
    "line",
    [
        "the concert is tomorrow night, so nervous",
        "明天晚上有演出，好紧张",
        "dinner with his parents tomorrow, first time meeting them",  # an evening's kind, no hour
        "明天约会，第一次见面好紧张",
    ],
)
def test_an_event_of_the_evening_stays_ahead_to_the_end_of_its_day(line: str) -> None:
    found = {a.scene: a for a in arm.matters(drafted([line], 0.6), None)}
    after = found.get("plan") or found["worry"]
    assert found["ahead"].not_after == MONDAY + 2 * DAY == after.not_before


@pytest.mark.parametrize(
    "line",
    [
        "my exam is tomorrow, wish me luck",
        "明天考试，好紧张",
        "the interview is on wednesday, so nervous",
        "周三去医院复查，希望别再疼了",
    ],
)
def test_an_event_of_no_hour_is_over_at_the_end_of_a_working_day(line: str) -> None:
    """arm_dev22: a landlord's inspection "tomorrow", a crown swapped "on wednesday", asked at 19:00
    of the day how the preparation goes. With no hour and nothing of the evening's kind, the day's
    event is over at 17:00: before it "how are you feeling", after it "how did it go"."""
    found = {a.scene: a for a in arm.matters(drafted([line], 0.6), None)}
    after = found.get("plan") or found["worry"]
    turn = found["ahead"].not_after
    assert turn == after.not_before
    assert (turn - MONDAY) % DAY == 17 * HOUR and turn > MONDAY + DAY


@pytest.mark.parametrize(
    ("lang", "morning", "before", "evening", "after"),
    [
        (
            "en",
            "Morning.",
            "Morning! How are you feeling about the interview",
            "hey",
            "Hey! How did the interview",
        ),
        ("zh", "早。", "早。面试的事，你", "嗨", "嗨，上次说的面试"),
    ],
)
def test_through_a_daemon_the_evening_after_a_morning_interview_asks_how_it_went(
    tmp_path: Path, lang: str, morning: str, before: str, evening: str, after: str
) -> None:
    """Monday night: the interview tomorrow at 9:30 (上午十点). Tuesday 07:30 it is asked about
    before; Tuesday 19:00, after it, the lead asks how it went (the scripted provider stands in for
    the model: only the daemon's lead and suggestion are checked)."""
    said = {
        "en": "got the interview tomorrow at 9:30, so nervous",
        "zh": "明天上午十点去银行面试，好紧张",
    }
    with InProcessDaemon(tmp_path / "d") as d, d.client() as c:
        c.agent_create("mia", name="Mia" if lang == "en" else "小雅")
        _said(c, "mia", [said[lang]], MONDAY + 21 * HOUR)
        tuesday = MONDAY + DAY + 7 * HOUR + HOUR // 2
        sid = c.session_open("mia", ts=tuesday)["session_id"]
        first = c.session_send(sid, morning, ts=tuesday, explain=True).finish()
        c.session_close(sid, ts=tuesday + HOUR // 2, wait=True)
        tonight = MONDAY + DAY + 19 * HOUR
        sid = c.session_open("mia", ts=tonight)["session_id"]
        last = c.session_send(sid, evening, ts=tonight, explain=True).finish()
    assert first["context"]["lead"] == before
    assert last["context"]["lead"] == after


# --- an event told as over, its outcome still to come ---------------------------------------------
# The date ahead is when the outcome comes ("they'll let me know next week", 说下周给结果), not the
# event's: nothing "ahead" (no "how are you preparing"), and "how it went" from the next morning.
TOLD_OVER = [
    "had a phone interview with a gallery this afternoon, they said they'd let me know next week",
    "did the second interview at the bank today. they'll call by friday",
    "今天上午面了一家出版社，说下周给结果",
    "下午视频面试了一家设计公司，说周五前通知",
    "handed in the visa application today, they decide next week",  # a regular past verb first
]
STILL_AHEAD = [
    "had a long day today, interview tomorrow at 10",
    "today was rough. the presentation is on friday",
    "went to the doctor today, surgery next month",
    "今天累死了，周五还要答辩",
    "interview on friday, results the week after",
    "面试在周五，下周出结果",
    "booked the dentist for friday",  # the verb is in the clause of the date: nothing before it
    "excited and nervous, the visa interview is next week",
]


@pytest.mark.parametrize("line", TOLD_OVER)
def test_an_event_told_as_over_is_asked_about_from_the_next_morning_with_nothing_ahead(
    line: str,
) -> None:
    found = arm.matters(drafted([line], 0.6), None)
    assert [a.scene for a in found if a.scene == "ahead"] == []
    after = next(a for a in found if a.scene in ("plan", "worry"))
    assert after.not_before == MONDAY + DAY + 3 * HOUR  # the next morning (six hours after 21:00)
    assert after.before is None


@pytest.mark.parametrize("line", STILL_AHEAD)
def test_an_event_of_its_own_in_the_clause_of_the_date_keeps_it_ahead(line: str) -> None:
    at = MONDAY + 21 * HOUR
    times = timeparse.find_times(line, at)
    ahead = timeparse.earliest_future(times)
    assert ahead is not None and not arm.told_over(line, ahead, times)
    assert "ahead" in [a.scene for a in arm.matters(drafted([line], 0.6), None)]
