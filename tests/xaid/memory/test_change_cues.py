"""How a statement reads as a change (xaid.memory.change_cues): cues of tense and change in both
languages, with no subject list, and the blockers that make a statement replace nothing."""

from __future__ import annotations

import pytest

from xaid.memory import change_cues

CHANGES = [
    "My bike got stolen, so I take the tram to work these days.",
    "Honestly I switched allegiance, I follow Brighton now.",
    "Put the cello away for good, I'm on the ukulele now.",
    "We no longer pay for that, it's the library card for us.",
    "I'm not into crosswords anymore.",
    "咖啡我戒了，现在早上只喝豆浆。",
    "钢琴不学了，最近改学吉他。",
    "爱奇艺会员不续了。",
    "我已经吃素半年了。",
    "我们离开成都了，如今住在杭州。",
]


@pytest.mark.parametrize("text", CHANGES)
def test_a_change_or_a_present_replacement_reads_as_one(text: str) -> None:
    reading = change_cues.read(text)
    assert reading.change, reading


NOT_CHANGES = [
    ("I also started learning the piano this month.", None),
    ("We got a puppy too, her name is Noodle.", None),
    ("If I ever quit, I'd love to be a chef.", "unreal"),
    ("Thinking about switching to Google next year.", "unreal"),
    ("My brother switched to black coffee these days.", None),
    ("My best friend moved to Austin last month.", None),
    ("When I was a kid we moved to Cardiff.", "past"),
    ("我这个月又开始学钢琴了。", "addition"),
    ("如果哪天辞职了，我想去当厨师。", "unreal"),
    ("我在考虑明年要不要跳槽去阿里。", "unreal"),
    ("我哥现在改喝黑咖啡了。", None),
    ("我闺蜜上个月搬到深圳了。", None),
    ("小时候我们搬过三次家。", "past"),
]


@pytest.mark.parametrize(("text", "blocked"), NOT_CHANGES)
def test_an_addition_a_hypothetical_the_past_or_someone_else_is_not_the_users_change(
    text: str, blocked: str | None
) -> None:
    reading = change_cues.read(text)
    assert not reading.change, reading
    assert reading.blocked == blocked or reading.cue is None, reading


def test_someone_elses_news_blocks_a_pair_the_model_would_be_asked_about() -> None:
    assert change_cues.reads_other("My sister has a new job at the bank.") == "someone_else"
    assert change_cues.reads_other("我妈现在天天去跳广场舞。") == "someone_else"
    assert change_cues.reads_other("I drink matcha every morning.") is None
    assert change_cues.reads_other("我每天早上喝拿铁。") is None
