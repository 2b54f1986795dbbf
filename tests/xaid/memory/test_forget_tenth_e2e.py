"""A forget does what was asked and no more (issue 24 item 2, the tenth pass), through a real daemon,
in both languages (perf/scenarios/forgets_dev10.json, area ``forget_dev10``, measures the same on
more histories):

1. a paraphrase ("my cousin being chased for money he owes", 当我没说过) forgets the session it
   means, and an older session about the same person in another matter stays;
2. a request that names a time ("the other night", 那天晚上) and a person takes what was said then:
   an older session about the same person, said outside that time, is not the matter told again
   (the English case failed before the change: the older session shares the name and is close in
   meaning, and went with the request);
3. a sentence that only uses the word ("I forgot my keys", 忘了带伞) forgets nothing.

A real daemon on a real socket with real SQLite and USE-multilingual-v3; the scripted provider
(which echoes each turn) is the only stand-in, for the model, since what is checked is which words
the daemon keeps.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import MONDAY, ask, everything, talk
from xaid.clock import DAY_MS, HOUR_MS

# Each case: the older session (its day and hour after MONDAY) about the same person in another
# matter, the session the request means, the request said on day 15 at 20:00, the words it must
# take and the words it must leave.
KEEPS_THE_OLDER_SESSION = {
    ("paraphrase", "en"): (
        (
            3,
            19,
            [
                "My cousin Ravi got into a master's programme!",
                "The whole family went out for dumplings.",
            ],
        ),
        (
            8,
            22,
            [
                "Ravi owes 50k on some loan app, the debt collectors started calling me.",
                "He begged me not to tell his parents.",
            ],
        ),
        "please erase what I told you about my cousin being chased for money he owes",
        ("loan app", "debt collectors"),
        ("master's programme", "dumplings"),
    ),
    ("paraphrase", "zh"): (
        (3, 19, ["表弟考上研究生了，全家请吃饭。", "他还是那么能吃。"]),
        (8, 22, ["我表弟网贷欠了五万，催收电话都打到我这来了。", "他让我千万别告诉他爸妈。"]),
        "我那个亲戚借钱还不上被人追债的事，你就当我没说过吧",
        ("网贷", "催收"),
        ("研究生", "能吃"),
    ),
    # A person and a time named: the older session (a Saturday morning) was said outside that time.
    ("person then", "en"): (
        (
            5,
            10,
            [
                "Dad's teaching me to fix the brakes on the car on sunday.",
                "He's weirdly patient about it.",
            ],
        ),
        (
            12,
            22,
            [
                "My dad's drinking again, I found bottles hidden in the garage.",
                "Mum pretends not to see it.",
            ],
        ),
        "the thing about my dad the other night. please don't remember it",
        ("bottles hidden", "pretends not to see"),
        ("brakes", "weirdly patient"),
    ),
    ("person then", "zh"): (
        (5, 10, ["我爸周日教我修车刹车。", "他难得这么有耐心。"]),
        (12, 22, ["我爸又开始酗酒了，我在车库里发现他藏的酒瓶。", "我妈假装没看见。"]),
        "那天晚上说我爸的那些，别记着了",
        ("藏的酒瓶", "假装没看见"),
        ("修车刹车", "有耐心"),
    ),
}


@pytest.mark.parametrize("case", sorted(KEEPS_THE_OLDER_SESSION))
def test_a_request_forgets_the_session_it_means_and_keeps_the_same_person_in_another_matter(
    client: Client, case: tuple[str, str]
) -> None:
    (older_day, older_hour, older), (day, hour, told), request, gone, kept = (
        KEEPS_THE_OLDER_SESSION[case]
    )
    client.agent_create("mia")
    sessions = [
        talk(client, "mia", older, MONDAY + older_day * DAY_MS + older_hour * HOUR_MS),
        talk(client, "mia", told, MONDAY + day * DAY_MS + hour * HOUR_MS),
    ]
    sid, forgotten = ask(client, "mia", request, MONDAY + 15 * DAY_MS + 20 * HOUR_MS)
    assert forgotten["decision"] == "forget", forgotten
    assert {m["session_id"] for m in forgotten["match"]["matched"]} == {sessions[1]}
    left = everything(client, "mia", [*sessions, sid], " ".join(gone + kept), MONDAY + 22 * DAY_MS)
    assert not any(word in left for word in gone), left
    assert all(word in left for word in kept), left


ONLY_THE_WORD = {
    "en": (
        ["Hosting my parents for dinner on sunday, making lasagna.", "Need to buy ricotta."],
        "I forgot my keys at the office, had to wait an hour for my flatmate",
        ("lasagna", "ricotta", "forgot my keys"),
    ),
    "zh": (
        ["周日爸妈来吃饭，我做红烧肉。", "还要买点青菜。"],
        "我今天出门忘了带伞，淋成落汤鸡了",
        ("红烧肉", "青菜", "忘了带伞"),
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_sentence_that_only_uses_the_word_forgets_nothing(client: Client, lang: str) -> None:
    history, said, kept = ONLY_THE_WORD[lang]
    client.agent_create("mia")
    first = talk(client, "mia", history, MONDAY + 8 * DAY_MS + 19 * HOUR_MS)
    sid, forgotten = ask(client, "mia", said, MONDAY + 12 * DAY_MS + 18 * HOUR_MS)
    assert forgotten == {}, forgotten
    left = everything(client, "mia", [first, sid], " ".join(kept), MONDAY + 22 * DAY_MS)
    assert all(word in left for word in kept), left
