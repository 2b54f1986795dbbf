"""Who or what a statement's change words are about (xaid.memory.thing_news, branch supersede13):
news of a thing the user goes to or uses is not the user's change, read from the clause's subject in
both languages; a thing's news told as the reason for the user's own change still is."""

from __future__ import annotations

import pytest

from xaid.memory import supersede, thing_news

THINGS_NEWS = [
    ("PureGym changed their opening hours, it shuts at 10 now", "puregym"),
    ("the Park Lane bakery has new owners, they do pizza on fridays", "park lane bakery"),
    ("The Mercer Street wall switched to a new booking app and it's awful.", "mercer street wall"),
    ("公园路那家面包房换老板了，周五开始卖披萨了。", "公园路那家面包房"),
    ("小区门口那家健身房改营业时间了，现在晚上十点就关门。", "小区门口那家健身房"),
    ("街口那家理发店又换了个新招牌，看着洋气多了。", "街口那家理发店"),
]


@pytest.mark.parametrize(("text", "thing"), THINGS_NEWS)
def test_a_change_word_in_a_clause_whose_subject_is_a_thing_is_that_things_news(
    text: str, thing: str
) -> None:
    found = thing_news.things(text)
    assert any(thing in t for t in found), found


USERS_OWN = [
    # the thing's news as the reason, then the user's own clause (I, we, 我, or a verb first)
    "Barclays kept closing branches so I moved everything to Nationwide",
    "The 73 got rerouted so I've been walking to work",
    "Golf's gone, sold it in March. cycling in every day now",
    "73路改线了，我干脆走路上班，四十分钟。",
    "永辉那家关了，现在都在叮咚买菜上下单。",
    # a verb with nothing after it: the topic is what the user acted on
    "卡罗拉卖了，每天骑电驴上班，省心多了。",
    "周末把笔记全挪到了Obsidian。",
    # a time of the user's week as the subject is their routine
    "Saturdays are for my allotment these days.",
    "cancelled netflix after the price hike, reading before bed instead",
]


@pytest.mark.parametrize("text", USERS_OWN)
def test_the_users_own_clause_makes_it_the_users_change(text: str) -> None:
    assert thing_news.things(text) == ()


def test_news_counts_against_a_statement_naming_the_thing_not_one_whose_subject_it_is() -> None:
    # the earlier statement names the thing as what the user goes to or uses: its news holds it
    assert supersede.news_of_named(("puregym",), "My gym is the PureGym on Station Road.")
    assert supersede.news_of_named(
        ("the park lane bakery",), "I get bread at the Park Lane bakery."
    )
    assert supersede.news_of_named(("公园路那家面包房",), "我常去公园路那家面包房买面包。")
    # the earlier statement is about the thing itself: its news is a new value of it
    assert not supersede.news_of_named(("book club",), "My book club meets at the Lantern Café.")
    assert not supersede.news_of_named(("读书会",), "我们读书会在光合咖啡馆聚。")
    # a thing the earlier statement does not name says nothing of it
    assert not supersede.news_of_named(("号码携",), "我手机号是移动的。")
    assert not supersede.news_of_named((), "I go to PureGym.")


def test_a_chinese_topic_before_a_word_of_now_or_after_a_preposition_is_no_things_news() -> None:
    """The kind as the topic of a habit said anew, and where a move came from, are the user's."""
    assert thing_news.things("视频现在基本都在抖音刷了。") == ()
    assert thing_news.things("三月份从苏州搬到南京了，现在租在新街口附近。") == ()
