"""A clause that says the speaker must or will do something, with "I" / 我 or no subject at all
(xaid/text/owed.py): its structure, not a list of plans, in both languages; someone else's plan, the
weather and a clause without a modal are not the speaker's."""

from __future__ import annotations

import pytest

from xaid.text import owed


@pytest.mark.parametrize(
    "clause",
    [
        "gotta sort out the insurance claim on thursday",
        "need to ring the school tomorrow about the trip",
        "tomorrow I have to hand in the keys",
        "picking up my new glasses on saturday",
        "后天还得去医院给我妈拿报告",
        "周五得带猫去打疫苗",
        "明天要跟物业吵一架",
        "我下周一必须把合同签了",
    ],
)
def test_the_speakers_own_plan_is_read_by_its_structure(clause: str) -> None:
    assert owed.speakers(clause), clause


@pytest.mark.parametrize(
    "clause",
    [
        "my brother has to move out by friday",
        "the kids have to be at school at 8 tomorrow",
        "had to redo the whole report yesterday",
        "经理明天要跟我谈",
        "明天要下雨",
        "他下周得出差",
    ],
)
def test_someone_elses_plan_or_none_is_not_the_speakers(clause: str) -> None:
    assert not owed.speakers(clause), clause


def test_a_dropped_subject_is_put_back_for_the_fact_rules() -> None:
    assert owed.dropped("后天还得去医院拿报告")
    assert not owed.dropped("我后天还得去医院拿报告")  # said: nothing to put back
    assert owed.with_speaker("后天还得去医院拿报告") == "我后天还得去医院拿报告"
    assert owed.dropped("gotta call the bank tomorrow")
    assert owed.with_speaker("gotta call the bank tomorrow") == "I have to call the bank tomorrow"
    assert not owed.dropped("tomorrow I have to call the bank")
