"""No false change (issue 24 item 1, branch updates7), through a real daemon, the real embedder and a
real database, in English and Chinese: each later statement below made the earlier one history
before this branch, though nothing of the user's changed. Their shapes, not their subjects, say so:
a condition said after its clause (…的话，估计得…), a weighing (琢磨着转去…), a life stage in the past
(大学的时候…, "back in uni"), one more deed beside the old one (还报了个…), "nearly", one weekend, a
worn part renewed by its like (换了条新的), and a present word about the very one the earlier
statement named or had (团子现在…, 望京这边现在…, "Pepper is now…", "Amazon is now…": it tells how that
one is, it replaces nothing). A change said with "from now on" (以后就它了), or a habit said anew
with the kind as its topic (视频现在基本都在抖音刷了), still replaces. No model is
consulted (the scripted provider's echo is never read as a verdict)."""

from __future__ import annotations

import pytest
from xaiclient import Client

from xaid.memory import change_cues

from .test_supersede import two_sessions

NOT_CHANGES = [
    ("我用的是移动的卡。", "流量再不够用的话，估计得换成电信了。"),
    ("我在健身房练拳击。", "最近琢磨着转去练泰拳。"),
    ("我现在在医院当护士。", "大学的时候在奶茶店打过工，后来不干了。"),
    ("我周末学画画。", "最近周六还报了个书法班。"),
    ("我家的猫叫团子。", "团子现在天天睡我枕头上。"),
    ("我养了一只泰迪叫可乐。", "可乐最近掉毛掉得厉害。"),
    (
        "I teach maths at a secondary school.",
        "Back in uni I switched from maths to physics for a term.",
    ),
    ("Our dog Pepper is a collie.", "Pepper is now terrified of the hoover, lol."),
    ("I bank with Barclays.", "I nearly switched to Monzo last week."),
    # what the user has or uses, as the topic of how it is now (its object, its proper name)
    ("我开的是一辆五菱宏光。", "五菱现在出了电动版，看着挺香。"),
    ("我住在望京。", "望京这边现在房租涨得离谱。"),
    ("我在字节上班。", "字节最近出了新规定，加班要报备。"),
    ("I work at Amazon.", "Amazon is now making everyone come back to the office five days, ugh."),
    ("I live in Brooklyn.", "Brooklyn rents these days are insane."),
    # one weekend; a worn part renewed by its like; "but for" (要不是)
    ("我周末爬山。", "这周末下雨，改成在家看电影了。"),
    ("I take the Q train.", "This weekend the Q was down so I took a cab instead."),
    ("我在用小米手环。", "手环的表带断了，换了条新的。"),
    ("我坐地铁上班。", "要不是地铁挤，我才不想换别的方式呢。"),
    # "can't" (出不了门) is no quit; a change had once (换过一次); a change declined
    ("我住在深圳。", "深圳这两天台风，出不了门。"),
    ("我用的是小米扫地机器人。", "扫地机器人已经用了两年，刷子换过一次。"),
    ("I use an iPad for drawing.", "Apple just released a new iPad, not upgrading though."),
    ("我晚上去夜跑。", "夜跑最近人好多，跑道都挤。"),
]


@pytest.mark.parametrize(("before", "after"), NOT_CHANGES)
def test_a_statement_that_changes_nothing_keeps_the_earlier_one_current(
    client: Client, before: str, after: str
) -> None:
    assert two_sessions(client, before, after) == {before: "current", after: "current"}


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("我用的是百度网盘。", "百度网盘太慢，改用阿里云盘了，以后就它了。"),
        ("I use Evernote for notes.", "I'm on Obsidian now, got rid of Evernote."),
        # the kind as the topic, a habit said anew: a change, not a mention
        ("我用的是B站看视频。", "视频现在基本都在抖音刷了。"),
        ("我早饭吃油条。", "早饭现在吃包子了。"),
        (
            "Our dog Rolo walks with me every morning.",
            "The dog walker takes Rolo at lunchtime now.",
        ),
    ],
)
def test_a_change_from_now_on_still_replaces(client: Client, before: str, after: str) -> None:
    assert two_sessions(client, before, after) == {before: "superseded", after: "current"}


def test_a_name_is_read_where_a_statement_gives_it_in_both_languages() -> None:
    assert change_cues.names("我家的猫叫团子。") == {"团子"}
    assert change_cues.names("Our dog Pepper is a collie.") == {"pepper"}
    assert change_cues.names("We got a beagle named Biscuit.") == {"biscuit"}
    assert change_cues.names("I play in a band called The Lamps.") == set()  # an article is no name
    assert change_cues.describes(
        "Pepper's now scared of the hoover.", "Our dog Pepper is a collie."
    )
    # a present word in a clause about another one does not describe the one named
    assert not change_cues.describes(
        "Pepper went to my parents, we have a pug now.", "Our dog Pepper."
    )
    assert not change_cues.describes("我现在养的是一只柯基。", "我家的猫叫团子。")
    # the earlier statement's own opening topic names the kind: a new value for it is a change
    assert change_cues.describes("字节最近出了新规定。", "我在字节上班。")
    assert not change_cues.describes("早饭现在吃包子了。", "我早饭吃油条。")
    assert not change_cues.describes("电费现在走微信自动扣了。", "我们家电费是用支付宝交的。")
    # a change that leads to what the earlier statement holds changes nothing of it
    assert change_cues.describes("I moved to Toronto from Calgary in 2015.", "I live in Toronto.")
    assert change_cues.describes("去年从北京搬到上海的，挺习惯。", "我住在上海。")
    assert not change_cues.describes("We moved to Porto in May.", "We live in Lyon.")
