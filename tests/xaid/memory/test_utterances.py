"""A long turn cut to the query's sentences keeps the sentence that states what is new (issue 24
item 4): the turn's own change with a name, a place or a number, whatever the query matched."""

from __future__ import annotations

from xaid.memory import utterances

EN = (
    "My old job was at Acme Logistics in the warehouse office, doing schedules and invoices for the "
    "drivers every single day. I left Acme last month because the hours were terrible and the pay "
    "was worse than anywhere. Honestly the commute alone was killing me and my back hurt all the "
    "time from the chairs. I am a nurse at St Mary's Hospital now, on the children's ward, and I "
    "love it."
)
ZH = (
    "我以前在一家物流公司做调度，每天对着排班表和发票，从早忙到晚，周末也经常加班。"
    "上个月我把那份工作辞了，因为工资太低，领导也很难相处，通勤还要一个半小时。"
    "说实话那段时间我整个人都很焦虑，睡也睡不好，胃口也不好，天天想着怎么熬过去。"
    "现在我在市第一医院当护士，在儿科，同事都很好，我很喜欢。"
)


def test_the_cut_keeps_the_new_value_in_english() -> None:
    shown = utterances.cut(EN, utterances.terms("What was my job at the warehouse?"), 64)
    assert "…" in shown, "the turn was cut"
    assert "nurse at St Mary's" in shown, shown


def test_the_cut_keeps_the_new_value_in_chinese() -> None:
    shown = utterances.cut(ZH, utterances.terms("调度和排班表忙不忙？"), 64)
    assert "…" in shown, "the turn was cut"
    assert "市第一医院当护士" in shown, shown


def test_a_sentence_without_a_change_is_still_cut() -> None:
    shown = utterances.cut(EN, utterances.terms("What was my job at the warehouse?"), 64)
    assert "back hurt" not in shown, shown


# The change given as a reason, in the middle of other news: no "now", no "switched", no 现在
# (the cues before updates3 read neither).
EN_REASON = (
    "We used to rent a tiny flat in Lyon near the river, and the landlord never fixed the heating "
    "all winter. The neighbours were lovely though, we still text them every week or so. Anyway the "
    "kids have settled in well and the school is great. Since we started at the Porto office in May "
    "the commute is nothing, ten minutes on the tram."
)
ZH_REASON = (
    "我们以前在成都高新区租房，房东一直不修热水器，冬天洗澡特别冷，搬走的时候还扣了押金。"
    "邻居倒是挺好的，我们现在还经常在微信上聊天，过年还互相寄东西。"
    "孩子也适应得很好，新学校的老师特别负责，每天都会在群里发照片。"
    "自从五月份孩子转到实验小学，送完他十分钟就到公司。"
)


def test_the_cut_keeps_a_change_said_as_a_reason_in_both_languages() -> None:
    shown = utterances.cut(EN_REASON, utterances.terms("Did the landlord fix the heating?"), 48)
    assert "…" in shown, "the turn was cut"
    assert "Porto office" in shown, shown
    zh = utterances.cut(ZH_REASON, utterances.terms("房东修热水器了吗？"), 48)
    assert "…" in zh, "the turn was cut"
    assert "实验小学" in zh, zh


def test_the_cut_keeps_a_new_value_said_with_a_comparison_in_both_languages() -> None:
    """ "开心多了" compares, it adds nothing: the sentence with the new job was read as an addition
    (多了) and cut before updates5; "much happier" in English was never the trouble."""
    zh = (
        "这周好累。上个月终于从腾讯离职了，干了六年。通勤实在太折磨人了。"
        "现在在一所中学教数学，开心多了。对了猫挺好的。"
    )
    shown = utterances.cut(zh, utterances.terms("我在哪里上班？腾讯"), 20)
    assert "…" in shown and "中学教数学" in shown, shown
    en = (
        "Long week. I finally left Acme last month after six years there. The commute was killing "
        "me honestly. These days I teach maths at a sixth form college, much happier. Anyway the "
        "cat is fine."
    )
    shown = utterances.cut(en, utterances.terms("Where do I work? Acme"), 20)
    assert "…" in shown and "sixth form college" in shown, shown
