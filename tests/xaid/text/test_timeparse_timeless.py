"""Pinned times put as the dates they meant (timeparse.timeless), so a stored line reads true on any
later day: "Tomorrow [2026-12-04]" read on the 4th was the demo's profile."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from xaid.text.timeparse import annotate, timeless

THURSDAY_EVENING = int(datetime(2026, 12, 3, 21, 0, tzinfo=UTC).timestamp() * 1000)


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("Tomorrow, the user has to walk their manager through the fix.",
         "On Friday 4 December 2026, the user has to walk their manager through the fix."),
        ("I have an interview next Friday", "I have an interview on Friday 11 December 2026"),
        ("by Friday I need it", "by Friday 4 December 2026 I need it"),
        ("since Sunday I am sick", "since Sunday 29 November 2026 I am sick"),
        ("tonight I see Anna", "on the evening of Thursday 3 December 2026 I see Anna"),
        ("this weekend we go hiking", "on 5-6 December 2026 we go hiking"),
        ("next month I move", "in January 2027 I move"),
        ("明天还得跟经理讲清楚修复方案", "2026年12月4日（周五）还得跟经理讲清楚修复方案"),
        ("今晚跟林晓吃饭", "2026年12月3日（周四）晚上跟林晓吃饭"),
        ("周末去杭州", "2026年12月5日至6日去杭州"),
        ("下个月搬家", "2027年1月搬家"),
    ],
)  # fmt: skip
def test_a_pinned_time_reads_as_its_date(said: str, read: str) -> None:
    assert timeless(annotate(said, THURSDAY_EVENING)) == read


def test_text_without_a_pinned_time_or_whose_words_are_gone_is_kept() -> None:
    assert timeless("The user works as a nurse in Leeds.") == "The user works as a nurse in Leeds."
    # a label whose time words are not before it any more (an edited text) stays as it was
    assert timeless("The user [2026-12-04] has a plan.") == "The user [2026-12-04] has a plan."
