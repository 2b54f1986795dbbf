"""Hard features and specificity on bilingual examples: what makes a message worth keeping word for word."""

from __future__ import annotations

import pytest

from xaid.text.features import Features, features, specificity


def test_the_roadmap_example_in_english() -> None:
    f = features("I met Dr. Chen at Stanford Hospital on May 5 at 3pm")
    assert f.proper_nouns == ("Dr. Chen", "Stanford Hospital")
    assert f.dates == ("May 5", "3pm")
    assert f.numbers == () and f.urls == ()
    assert f.count == 4


def test_the_same_in_chinese() -> None:
    f = features("我下午三点在北京大学见张老师，花了300元")
    assert f.proper_nouns == ("北京大学", "张老师")
    assert f.dates == ("下午三点",)
    assert f.numbers == ("300元",)


@pytest.mark.parametrize(
    ("text", "nouns"),
    [
        ("I work at Google", ("Google",)),
        ("Yesterday Tom called from New York", ("Tom", "New York")),
        ("I went to the Bank of America on Monday", ("Bank of America",)),
        (
            "Stanford Hospital is great",
            ("Stanford Hospital",),
        ),  # two words: a name even at the start
        ("Google is hiring", ()),  # one capitalised word at the start could be any word
        ("I think I'm OK", ()),
        ("Thanks! See you on Friday", ()),  # a weekday is a date, not a noun
        ("OK I GOT THE JOB", ()),  # shouting names nothing
        ("我在Google工作", ("Google",)),
        ("我喜欢python", ("python",)),
        ("我们周五去上海市南京路，看《三体》", ("三体", "上海市", "南京路")),
        ("他说“明天见”", ("明天见",)),
        ("我在人民医院上班，王先生是我同事", ("人民医院", "王先生")),
        ("我们公司很大，这家医院也不错", ()),  # 我们/这家 are not names
        ("我先生去超市了", ()),  # 我先生 is "my husband"
    ],
)
def test_proper_nouns(text: str, nouns: tuple[str, ...]) -> None:
    assert features(text).proper_nouns == nouns


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("I paid $5 and got 3.5% back", ("$5", "3.5%")),
        ("it cost ¥300, or 300元, or 5块", ("¥300", "300元", "5块")),
        ("我们三个人去了两次", ("三个", "两次")),
        ("一个人待了一下，等了半天", ()),  # articles and shrugs
        ("学了一年，跑了5公里", ("一年", "5公里")),
        ("ok", ()),
    ],
)
def test_numbers(text: str, numbers: tuple[str, ...]) -> None:
    assert features(text).numbers == numbers


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("the deadline is 2026-12-04 at 15:30", ("2026-12-04", "15:30")),
        ("see you 12/4", ("12/4",)),
        ("born on 5 May, moved on May 5th, 2020", ("5 May", "May 5th, 2020")),
        ("I may go in May", ("May",)),  # the modal is not a month
        ("meet at 3pm on Friday", ("3pm", "Friday")),
        ("我12月4日下午三点到", ("12月4日", "下午三点")),
        ("周五或者星期六都行", ("周五", "星期六")),
        ("下周五见", ("下周五",)),
        ("我今天很累", ()),  # relative words are timeparse's business, not a hard feature
        ("好一点了，差一点就迟到", ()),  # 一点 as "a little"
    ],
)
def test_dates(text: str, dates: tuple[str, ...]) -> None:
    assert features(text).dates == dates


def test_a_date_is_not_also_counted_as_numbers() -> None:
    f = features("2026-12-04 15:30 12月4日")
    assert f.numbers == ()
    assert len(f.dates) == 3


def test_urls_and_emails() -> None:
    f = features(
        "see https://example.com/a?b=1. or www.xaid.dev, mail bob@example.org，或者访问github.com"
    )
    assert f.urls == ("https://example.com/a?b=1", "www.xaid.dev", "bob@example.org", "github.com")
    assert f.numbers == ()


def test_count_sums_all_kinds() -> None:
    assert Features(("a",), ("1", "2"), (), ("u",)).count == 4
    assert features("Morning").count == 0


# -- specificity ------------------------------------------------------------------------------------


def test_chatter_is_near_zero_and_the_example_is_high() -> None:
    assert specificity("ok") < 0.01
    assert specificity("早") < 0.01
    assert specificity("I met Dr. Chen at Stanford Hospital on May 5 at 3pm") >= 0.7
    assert specificity("我下午三点在北京大学见张老师，花了300元") >= 0.7


@pytest.mark.parametrize(
    ("more", "less"),
    [
        ("I met Dr. Chen at Stanford Hospital on May 5 at 3pm", "I met a doctor at a hospital"),
        ("I met a doctor at a hospital", "ok"),
        ("I work at Google", "I work a lot"),
        ("my flight is on 2026-12-04 at 15:30", "my flight is soon"),
        ("我在Google工作", "我在工作"),
        ("我12月4日下午三点去北京大学", "我过几天去学校"),
        ("我们去了两次上海市", "我们去了很多次"),
        ("the slides are at https://example.com/deck", "the slides are online"),
        ("I had a long day and I'm really tired of everything now", "tired"),
    ],
)
def test_more_specific_scores_higher(more: str, less: str) -> None:
    assert specificity(more) > specificity(less)


def test_specificity_saturates_within_bounds() -> None:
    crowded = (
        "Tom, Anna, Bob and Eve met at Google, Apple and Stanford on 2026-01-01 at 3pm for $5 " * 5
    )
    assert 0.9 <= specificity(crowded) <= 1.0
    assert specificity("") == 0.0
    one, two = specificity("I saw Tom"), specificity("I saw Tom and Anna")
    assert two - one < one  # the second name adds less than the first did
