"""A mention that names its days ("this month the wisdom tooth finally comes out", "这个月要去拔智齿")
after a chatty week, through a real daemon (in-process, real socket, real database, the real embedder; the scripted
provider is never asked). English and Chinese.

Issue 28 (branch assoc11, perf/scenarios/associative_dev11.json): B, said weeks before, names the
thing another way (the dentist and the sideways molar; 牙医和横着长的牙) and shares no word or
character with the mention; the month's small talk, some of it with "today"/今天, shares nothing of
weight either. A mention asks nothing, so its days are no recall window
(retrieve.WINDOW_FOR_MENTIONS): read as one, every turn said this month took +0.2 and joined the
candidates, and the week's chatter filled the 400-token block ahead of B. A question naming the day
keeps its window.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from .test_supersede import DAY, T0, session

HOUR = 3_600_000

CASES = [
    (
        "dentist says that back molar is growing sideways and has to be surgically removed",
        "this month the wisdom tooth finally comes out, dreading it",
        "molar",
        [
            "the bus was late again",
            "quiet day, read a bit, napped a bit",
            "made soup, mostly carrots",
            "rainy and cold, stayed in",
        ],
        [
            ("today " if n % 5 == 0 else "") + thing
            for n, thing in enumerate(
                (
                    "the printer jammed four times",
                    "a two hour meeting about meetings",
                    "someone microwaved fish",
                    "the wifi dropped all morning",
                    "my boss sent emails at 6am",
                    "free doughnuts in the kitchen",
                    "the lift broke, six floors of stairs",
                    "a fire drill in the rain",
                    "spilled coffee on my keyboard",
                    "the new intern cried in the toilets",
                    "got a parking ticket outside the office",
                    "lunch was a sad sandwich",
                    "the heating was stuck on max",
                    "my chair squeaks every time i move",
                    "forgot my badge, got buzzed in",
                    "left at 7, exhausted",
                    "the vending machine ate my coins",
                    "a client yelled at me on the phone",
                )
            )
        ],
    ),
    (
        "牙医说我那颗横着长的牙得开刀取出来",
        "这个月要去拔智齿，想想就怕",
        "横着",
        [
            "公交又晚了",
            "很平静的一天，看了会儿书，睡了个午觉",
            "煮了锅汤，基本全是胡萝卜",
            "又冷又下雨，在家窝着",
        ],
        [
            "今天打印机卡纸卡了四次",
            "开了两个小时的会，讨论怎么开会",
            "同事在微波炉里热鱼",
            "公司的网断了一上午",
            "老板早上六点就发邮件",
            "今天茶水间有免费的甜甜圈",
            "电梯坏了，爬了六楼",
            "冒雨搞消防演习",
            "咖啡洒在键盘上了",
            "新来的实习生在厕所哭了",
            "今天在公司楼下被贴了罚单",
            "午饭是个很惨的三明治",
            "暖气一直开到最大",
            "我的椅子一动就吱吱响",
            "忘带工牌了，找人刷的门",
            "今天七点才下班，累死",
            "自动售货机吞了我的硬币",
            "有个客户在电话里吼我",
        ],
    ),
]


@pytest.mark.parametrize(("said", "mention", "word", "talk", "today"), CASES)
def test_what_was_said_weeks_ago_is_shown_for_a_mention_that_names_today(
    client: Client, said: str, mention: str, word: str, talk: list[str], today: list[str]
) -> None:
    client.agent_create("mia", name="Kai")
    session(client, "mia", [talk[0], said, talk[2]], T0)
    for day in (4, 9, 13):
        session(client, "mia", talk, T0 + day * DAY)
    # January: a chatty week, three lines an evening
    for n in range(0, len(today), 3):
        session(client, "mia", [*today[n : n + 3], talk[n % 4]], T0 + (32 + n // 3) * DAY)
    items = client.memory_search("mia", mention, ts=T0 + 40 * DAY, k=20, budget_tokens=400)["items"]
    texts = [i["text"] for i in items]
    # B is shown although it shares nothing with the mention and the evening's chatter shares "today".
    assert any(word in t for t in texts), texts


def test_a_question_naming_today_still_recalls_today(client: Client) -> None:
    """The window stays for a question: "what did I moan about today?" is asked of today's turns."""
    client.agent_create("mia", name="Kai")
    session(client, "mia", ["dentist says that back molar has to be surgically removed"], T0)
    session(
        client, "mia", ["the printer jammed four times", "lunch was a sad sandwich"], T0 + 24 * DAY
    )
    items = client.memory_search(
        "mia", "what did I moan about today?", ts=T0 + 24 * DAY + 2 * HOUR, k=20, budget_tokens=400
    )["items"]
    texts = [i["text"] for i in items]
    assert any("printer" in t for t in texts), texts
    assert any("sandwich" in t for t in texts), texts


STOCK = [
    (
        "how are you feeling now?",
        "so sleepy, feel like crying honestly",
        "the neighbours' dog barks from eleven till one every night, weeks of bad sleep",
        "barks",
    ),
    (
        "你现在感觉怎么样？",
        "困死了，感觉要哭了",
        "邻居家的狗每天晚上十一点叫到一点，几个星期没睡好了",
        "邻居",
    ),
]
EVENINGS = {
    "en": [
        ["the bus was late again", "made soup, mostly carrots"],
        ["quiet day, read a bit", "the printer jammed four times"],
        ["rainy and cold, stayed in", "lunch was a sad sandwich"],
        ["the wifi dropped all morning", "bought new socks"],
        ["spilled coffee on my keyboard", "the lift broke again"],
        ["forgot my badge at home", "the heating was stuck on max"],
        ["free doughnuts at work", "my chair squeaks"],
        ["a fire drill in the rain", "got a parking ticket"],
    ],
    "zh": [
        ["公交又晚了", "煮了锅汤，基本全是胡萝卜"],
        ["看了会儿书", "打印机卡纸卡了四次"],
        ["又冷又下雨，在家窝着", "午饭是个很惨的三明治"],
        ["网断了一上午", "买了新袜子"],
        ["咖啡洒在键盘上了", "电梯又坏了"],
        ["忘带工牌了", "暖气一直开到最大"],
        ["公司有免费甜甜圈", "椅子一动就吱吱响"],
        ["冒雨搞消防演习", "被贴了罚单"],
    ],
}


@pytest.mark.parametrize(("stock", "mention", "said", "word"), STOCK)
def test_a_stock_question_matched_by_a_word_brings_no_turns_after_its_copies(
    client: Client, stock: str, mention: str, said: str, word: str
) -> None:
    """The companion asks the same thing every evening; a mention sharing one of its words must not
    bring the user's next line after each copy as "its answer" (retrieve.NEIGHBOURS_OF_REPEATS)."""
    evenings = EVENINGS["en" if stock.isascii() else "zh"]
    client.agent_create("mia", name="Kai")
    session(client, "mia", [evenings[0][0], said], T0)
    for n, (first, second) in enumerate(evenings):
        ts = T0 + (8 + 2 * n) * DAY
        sid = client.session_open("mia", ts=ts)["session_id"]
        lines = [("user", first), ("assistant", stock), ("user", second)]
        client.session_ingest(
            sid, [{"role": r, "text": t, "ts": ts + i * 60_000} for i, (r, t) in enumerate(lines)]
        )
        client.session_close(sid, ts=ts + 10 * 60_000, wait=True)
    items = client.memory_search("mia", mention, ts=T0 + 30 * DAY, k=20, budget_tokens=400)["items"]
    texts = [i["text"] for i in items]
    assert any(word in t for t in texts), texts


DAY_NAMED = [
    (
        "my grandmother is moving into a care home next month, she's furious about leaving her roses",
        "my gran rang yesterday, she sounded tired",
        "roses",
        49,  # the day before the mention
        EVENINGS["en"],
    ),
    (
        "一月二号是我们结婚纪念日，老婆暗示了好几次想要一台拍立得",
        "2号快到了，我还啥都没准备",
        "拍立得",
        32,  # 2 January: "2号", read as the day past
        EVENINGS["zh"],
    ),
]


@pytest.mark.parametrize(("said", "mention", "word", "day", "evenings"), DAY_NAMED)
def test_the_day_a_mention_names_is_no_window_over_that_days_chatter(
    client: Client, said: str, mention: str, word: str, day: int, evenings: list[list[str]]
) -> None:
    """ "2号快到了" / "my gran rang yesterday": the day is the mention's own; the turns said on it
    are no better a memory for it (before, each took +0.2 and the day's chatter filled the block)."""
    client.agent_create("mia", name="Kai")
    session(client, "mia", [evenings[0][0], said], T0 + 9 * DAY)
    session(client, "mia", [line for pair in evenings for line in pair], T0 + day * DAY)
    items = client.memory_search("mia", mention, ts=T0 + 50 * DAY, k=20, budget_tokens=400)["items"]
    texts = [i["text"] for i in items]
    assert any(word in t for t in texts), texts
