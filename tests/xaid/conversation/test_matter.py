"""The matter in the user's own words (xaid/conversation/matter.py), in Chinese and English: the
clause the lead names is the user's own, with the times gone, turned to the listener, names copied
exactly. Lines written for this test, not the dev or held-out scenes."""

from __future__ import annotations

import pytest

from xaid.conversation.matter import clause, said_in


def topic(said: str) -> str:
    return f'how it went: "{said}"'


@pytest.mark.parametrize(
    ("said", "event", "expected"),
    [
        # 考 alone is no event word of the list; the clause that holds the event is the user's own
        ("下个礼拜二考科目三，灯光那关老挂，郁闷", True, "考科目三"),
        ("大后天中午十二点的高铁回老家，票是抢到了", True, "高铁回老家"),
        ("今天又跟我爸吵起来了，为了买房的事，烦", False, "又跟你爸爸吵起来了"),
        ("我们组周五上午汇报，我负责讲数据 😅", True, "你们组汇报"),
        ("拿到了字节的offer！！可是base在上海hhh", False, "拿到了字节的offer"),
        ("我家狗旺财明早去打疫苗", False, "你家狗旺财去打疫苗"),  # 明早 is a time
    ],
)
def test_a_chinese_matter_is_the_users_clause_turned_to_the_listener(
    said: str, event: bool, expected: str
) -> None:
    assert clause(topic(said), "zh", event) == expected


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("my driving test is next friday and I keep stalling lol", "your driving test"),
        ("Flight to Oslo at 7am Saturday, haven't packed", "the flight"),
        ("Big client presentation tomorrow with Acme, wish me luck", "the big client presentation"),
        ("I'm giving the speech at my sister Ana's graduation on Sunday", "the speech"),
        ("Dentist at 3pm, dreading it", "the dentist"),
    ],
)
def test_an_english_event_is_named_by_its_noun_phrase(said: str, expected: str) -> None:
    assert clause(topic(said), "en", True) == expected


def test_no_clause_without_the_users_words_or_when_too_long_to_lead_with() -> None:
    assert said_in("the dentist") == "" and clause("the dentist", "zh", True) is None
    long = "明天要去市中心那家很有名但是排队特别久的医院做一个非常复杂的全身检查"
    assert clause(topic(long), "zh", True) is None
    assert clause(topic("Thanks for listening, really."), "en", True) is None  # no event in it
