"""Which earlier statement a change replaces (xaid.memory.supersede.judge) and when a present
question puts the newer answer first (xaid.memory.recency), read on given cosines so each rule is
tested alone, in English and Chinese. The daemon end to end is in test_supersede_e2e.py."""

from __future__ import annotations

import pytest

from xaid.memory import recency, shown, supersede
from xaid.memory.index import Item
from xaid.memory.pack import About
from xaid.store.utterances import Utterance


def earlier(text: str, cosine: float, uid: int) -> supersede.Earlier:
    u = Utterance(uid, "mia", "s", 1, str(uid), "user", None, text, 0, None, 0.5, "current", 0)
    return supersede.Earlier(u, cosine, ())


def replaced(new: str, near: list[tuple[str, float]]) -> list[str]:
    candidates = [earlier(text, cos, n) for n, (text, cos) in enumerate(near)]
    sure, _ = supersede.judge(new, sorted(candidates, key=lambda e: -e.cosine))
    return [e.utterance.text for e in sure]


# A far paraphrase: the change names neither the old value nor its words, and the embedder puts it
# only 0.27-0.29 from what it replaces, but nothing else the user said is as near.
FAR = [
    (
        "Sold the Vespa-looking thing, the e-bike does the hill without me dying.",
        "My ride to work is a little Honda scooter.",
    ),
    ("康复师让我换成了HOKA，膝盖舒服多了。", "我跑步穿的是亚瑟士。"),
]


@pytest.mark.parametrize(("new", "old"), FAR)
def test_a_far_paraphrase_replaces_the_statement_it_is_clearly_nearest_to(
    new: str, old: str
) -> None:
    other = "I'm a vegetarian." if new.isascii() else "我是素食者。"
    assert replaced(new, [(old, 0.28), (other, 0.12)]) == [old]


@pytest.mark.parametrize(("new", "old"), FAR)
def test_a_far_paraphrase_with_a_rival_as_near_replaces_nothing(new: str, old: str) -> None:
    """0.28 against 0.25: which one it replaces is not clear, and a wrong update hides a truth."""
    other = "I'm a vegetarian." if new.isascii() else "我是素食者。"
    assert replaced(new, [(old, 0.28), (other, 0.25)]) == []


@pytest.mark.parametrize(
    ("new", "old", "farther"),
    [
        (
            "I quit smoking, forty days without a cigarette now.",
            "I smoke about ten cigarettes a day.",
            "I eat pretty much anything, meat most days.",
        ),
        (
            "银行的工作辞了，现在自己开了一家奶茶店。",
            "我在一家银行做柜员。",
            "我的工资卡是工商银行的。",
        ),
    ],
)
def test_one_change_replaces_the_nearest_statement_not_every_near_one(
    new: str, old: str, farther: str
) -> None:
    """The farther one shares a word (银行, days) and is past the old cut (0.46 ≥ NEAR), but it is
    well behind the nearest: one change replaces one thing."""
    assert replaced(new, [(old, 0.66), (farther, 0.46)]) == [old]


@pytest.mark.parametrize(
    ("new", "old"),
    [
        (
            "That card's fee doubled so it's the Chase debit card for everything now.",
            "I pay with my Amex.",
        ),
        ("那张卡年费太贵，现在都用中信的了。", "我平时刷交行的信用卡。"),
    ],
)
def test_a_present_replacement_replaces_when_near_and_clearly_the_one(new: str, old: str) -> None:
    assert replaced(new, [(old, 0.40), ("unrelated", 0.2)]) == [old]
    assert replaced(new, [(old, 0.33), ("unrelated", 0.2)]) == [], "'now' alone needs more meaning"


@pytest.mark.parametrize(
    ("new", "old"),
    [
        (
            "The ring road is the way to go, they opened the new link and I'm in town in 20 now.",
            "I drive the A40 into town every morning, it's about 35 minutes.",
        ),
        ("那家健身房倒闭了，现在在小区的健身角练。", "我在家附近的健身房办了年卡。"),
    ],
)
def test_a_present_replacement_with_the_subjects_words_replaces_a_little_below_near(
    new: str, old: str
) -> None:
    """0.29: below NEAR, but clearly the nearest and about the same thing by its words (town, 健身);
    without a word in common, or with a rival as near, it stays unsure."""
    assert replaced(new, [(old, 0.29), ("unrelated", 0.15)]) == [old]
    assert replaced(new, [(old, 0.29), ("unrelated", 0.26)]) == []
    other = "I'm a vegetarian." if new.isascii() else "我是素食者。"
    assert replaced(new, [(other, 0.29), ("unrelated", 0.15)]) == []


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("With friends it's all Discord these days.", "For work I'm on Teams all day."),
        ("现在晚上都在看美剧。", "我每天晚上去夜跑。"),
    ],
)
def test_a_word_of_when_is_not_the_subject_a_little_below_near(new: str, old: str) -> None:
    """Sharing "day" or 晚上 says when, not what: below NEAR it ties nothing."""
    assert replaced(new, [(old, 0.29), ("unrelated", 0.15)]) == []


CONTROLS = [
    ("My sister quit running altogether and does spin classes now.", "I run at Bushy Park."),
    ("我姐现在完全不跑了，改去上动感单车课。", "我每周二在奥森跑步。"),
    (
        "Tomorrow I'm going to start going to bed at ten, new year new me.",
        "I go to bed at midnight.",
    ),
    ("从明天开始我要十点就睡，说到做到！", "我一般十二点睡。"),
    ("Opened a savings pot with Chase too.", "I'm with Monzo for everyday spending."),
    ("十二岁那年学钢琴学了一学期就放弃了。", "我在学小提琴。"),
]


@pytest.mark.parametrize(("new", "old"), CONTROLS)
def test_someone_elses_change_a_plan_an_addition_or_the_past_replaces_nothing(
    new: str, old: str
) -> None:
    assert replaced(new, [(old, 0.5), ("unrelated", 0.1)]) == []


def item(item_id: int, text: str, day: int) -> Item:
    return Item(item_id, "mia", "utterance", item_id, text, day * 86_400_000)


@pytest.mark.parametrize(
    ("question", "old", "new"),
    [
        (
            "Which card do I pay with?",
            "I pay for everything with my Amex.",
            "It's the Chase card for everything now.",
        ),
        ("我平时刷哪张信用卡？", "我平时刷交行的信用卡。", "那张卡年费太贵，现在都用中信的了。"),
    ],
)
def test_a_present_question_puts_the_newer_of_two_answers_first(
    question: str, old: str, new: str
) -> None:
    """Both answer the question (0.9 and 0.4 from it), they are 0.4 apart with no word in common:
    the newer says it is new, so it comes first and the older one is demoted."""
    found = {1: item(1, old, 0), 2: item(2, new, 6)}
    about = {1: About(0.5, True), 2: About(0.5, True)}
    scored = {1: 0.9, 2: 0.4}
    pair = {(1, 2): 0.4, (2, 1): 0.4}
    demoted = recency.prefer_present(
        question, False, scored, found, about, lambda a, b: pair.get((a, b)), {1: 0.9, 2: 0.4}
    )
    assert demoted == 1 and scored[2] > scored[1]


@pytest.mark.parametrize(
    ("question", "old", "new"),
    [
        (
            "Which instruments do I play?",
            "I play bass in a funk band.",
            "Picked up the drums as well now.",
        ),
        ("我会什么乐器？", "我在乐队里弹贝斯。", "最近在家也开始学打鼓。"),
        ("Which card do I pay with?", "I pay with my Amex.", "My brother uses Chase these days."),
    ],
)
def test_an_addition_or_someone_elses_news_keeps_the_older_answer_first(
    question: str, old: str, new: str
) -> None:
    found = {1: item(1, old, 0), 2: item(2, new, 6)}
    about = {1: About(0.5, True), 2: About(0.5, True)}
    scored = {1: 0.9, 2: 0.4}
    demoted = recency.prefer_present(
        question, False, scored, found, about, lambda a, b: 0.35, {1: 0.9, 2: 0.4}
    )
    assert demoted == 0 and scored == {1: 0.9, 2: 0.4}


def test_the_answer_is_read_in_the_small_models_own_numbering_too() -> None:
    """The 1.5B answered "1. 1, no" (its numbering, then the pair's): one verdict per pair."""
    assert supersede.parse("1. 1, no\n2. 2, yes\n3. ", 3) == [False, True, None]


@pytest.mark.parametrize(
    ("question", "old", "new"),
    [
        ("What do I do for work?", "I work as a nurse at St Mary's.", "I'm a teacher these days."),
        ("我是做什么工作的？", "我在医院当护士。", "我现在当老师了。"),
    ],
)
def test_what_the_rules_read_of_a_turn_is_remembered_while_its_words_stay(
    question: str, old: str, new: str
) -> None:
    """The pair shares no word, only a fact slot (a job: one at a time), so the rules' reading of
    both turns decides. Remembered in the agent's memo, it decides the same; once the older turn's
    words change (same item), it is read again from the new words, which share nothing."""
    memo = shown.Memo(0)
    for words, demotes in ((old, 1), (old, 1), ("I had pasta for lunch. 午饭吃了面。", 0)):
        found = {1: item(1, words, 0), 2: item(2, new, 6)}
        about = {1: About(0.5, True), 2: About(0.5, True)}
        scored = {1: 0.9, 2: 0.4}
        fresh = dict(scored)
        demoted = recency.prefer_present(
            question, False, scored, found, about, lambda a, b: 0.35, None, memo
        )
        alone = recency.prefer_present(
            question, False, fresh, found, about, lambda a, b: 0.35, None
        )
        assert demoted == alone == demotes and scored == fresh
        assert len(memo) > 0
    memo.discard([1, 2])  # what an erase or the forgetting curve does to the items' entries
    assert len(memo) == 0


@pytest.mark.parametrize(
    ("new", "old"),
    [
        (
            "Biscuit passed away in the spring, the kids picked out two guinea pigs last weekend.",
            "We've got a hamster called Biscuit.",
        ),
        ("Dr Patel retired, so that's a new dentist to find.", "My dentist is Dr Patel in town."),
        ("饼干春天走了，上周末孩子们挑了两只豚鼠回来。", "我们家养了一只仓鼠，叫饼干。"),
        ("豆豆上个月丢了，找了好久都没找到。", "我养了一只柯基叫豆豆。"),
    ],
)
def test_the_end_of_the_one_an_earlier_statement_named_replaces_it(new: str, old: str) -> None:
    """No change word (branch update14): the one named is gone, so "we've got Biscuit" is history;
    a rival as near leaves it to the cosine, and a farther one is not it."""
    assert replaced(new, [(old, 0.40), ("unrelated", 0.15)]) == [old]
    assert replaced(new, [(old, 0.20), ("unrelated", 0.15)]) == []


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("The Vale Road pool is shut for two weeks for repairs.", "I swim at the Vale Road pool."),
        ("Biscuit's vet died last year, lovely man.", "We've got a hamster called Biscuit."),
        ("淮海路游泳馆暂时关门了，说要检修。", "我常去淮海路游泳馆，名叫海豚馆。"),
        ("饼干的兽医去世了，挺好的一个人。", "我们家养了一只仓鼠，叫饼干。"),
    ],
)
def test_a_bounded_closure_or_the_end_of_something_else_replaces_nothing(
    new: str, old: str
) -> None:
    assert replaced(new, [(old, 0.40), ("unrelated", 0.15)]) == []


# Session 28: in a chat a change word often sits in a question to the other ("any more paintings
# coming up?", 你换新工作了吗？), and a statement about a theme the user talks of often is near
# many earlier lines at once. Neither is one thing that changed.
ASKED = [
    (
        "Wow, Mel! Any more paintings coming up?",
        "I paint watercolours on weekends, mostly landscapes.",
    ),
    ("哇！你还要换新风格吗？", "我画画主要用水彩。"),
]


@pytest.mark.parametrize(("new", "old"), ASKED)
def test_a_change_word_inside_a_question_replaces_nothing(new: str, old: str) -> None:
    assert replaced(new, [(old, 0.6)]) == []


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("I've switched to green tea, no more coffee. How are you?", "I drink four coffees a day."),
        ("我已经戒咖啡了，现在改喝豆浆。你最近怎么样？", "我每天早上喝两杯美式咖啡。"),
    ],
)
def test_a_change_told_beside_a_question_still_replaces(new: str, old: str) -> None:
    assert replaced(new, [(old, 0.5)]) == [old]


THEME = [
    (
        "Thanks, Mel! I'm working on some new paintings lately, so fun.",
        [
            "Thanks, Mel! I painted a lake at sunrise.",
            "Thanks Mel, painting keeps me calm.",
            "Thanks so much, Mel! My painting class was great.",
        ],
    ),
    (
        "谢谢你！最近在画新的画，好开心。",
        ["谢谢你！我画了一幅日出的湖。", "谢谢，画画让我平静。", "谢谢你！画画课真的很棒。"],
    ),
]


@pytest.mark.parametrize(("new", "olds"), THEME)
def test_a_statement_near_many_earlier_ones_is_a_theme_and_replaces_none(
    new: str, olds: list[str]
) -> None:
    assert supersede.MOST_REPLACED == 2
    assert replaced(new, [(o, 0.6 - 0.02 * n) for n, o in enumerate(olds)]) == []


@pytest.mark.parametrize(("new", "olds"), THEME)
def test_the_same_change_near_two_earlier_statements_replaces_both(
    new: str, olds: list[str]
) -> None:
    """A standing thing said twice (the job, then a day at that job) is still one thing."""
    assert len(replaced(new, [(o, 0.6 - 0.02 * n) for n, o in enumerate(olds[:2])])) == 2


@pytest.mark.parametrize(
    ("new", "restated", "named"),
    [
        (
            "还是在望京上班，楼下新开了家面馆，终于不用点外卖了",
            "我在望京上班。",
            "我中午一般点外卖。",
        ),
        (
            "Still working in Shoreditch, but I quit the gym by the office.",
            "I work in Shoreditch.",
            "I go to the gym by the office.",
        ),
    ],
)
def test_what_a_still_beside_the_change_says_again_is_held(
    new: str, restated: str, named: str
) -> None:
    """The change replaces what its own clause names; the place said again stays current."""
    assert replaced(new, [(restated, 0.55)]) == []
    assert replaced(new, [(named, 0.55)]) == [named]


@pytest.mark.parametrize(
    ("new", "old"),
    [
        (
            "我从星海辞职了，这周一开始去云帆网络上班，还是做前端。",
            "我在星海科技做前端开发，天天加班。",
        ),
        (
            "I quit Northlight last month, still doing design though.",
            "I'm a designer at Northlight.",
        ),
    ],
)
def test_a_change_that_names_the_old_statement_replaces_it_beside_a_still(
    new: str, old: str
) -> None:
    assert replaced(new, [(old, 0.55)]) == [old]
