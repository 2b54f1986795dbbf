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

Real socket, real SQLite, the real default embedder (USE-multilingual-v3); the scripted provider
stands in for the model (it echoes the user's words): these are about what the daemon does with
the words, not about how a model phrases a reply.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import ask, everything, talk

DAY = 86_400_000
HOUR = 3_600_000
D0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC


PARAPHRASE = {
    "en": (
        ["My cousin Ravi got into a master's programme!", "The whole family went out for dumplings."],
        [
            "Ravi owes 50k on some loan app, the debt collectors started calling me.",
            "He begged me not to tell his parents.",
        ],
        "please erase what I told you about my cousin being chased for money he owes",
        ("loan app", "debt collectors"),
        ("master's programme", "dumplings"),
    ),
    "zh": (
        ["表弟考上研究生了，全家请吃饭。", "他还是那么能吃。"],
        ["我表弟网贷欠了五万，催收电话都打到我这来了。", "他让我千万别告诉他爸妈。"],
        "我那个亲戚借钱还不上被人追债的事，你就当我没说过吧",
        ("网贷", "催收"),
        ("研究生", "能吃"),
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_paraphrase_forgets_the_session_it_means_and_keeps_the_same_person_in_another_matter(
    client: Client, lang: str
) -> None:
    older, told, request, gone, kept = PARAPHRASE[lang]
    client.agent_create("mia")
    sessions = [
        talk(client, "mia", older, D0 + 3 * DAY + 19 * HOUR),
        talk(client, "mia", told, D0 + 8 * DAY + 22 * HOUR),
    ]
    sid, forgotten = ask(client, "mia", request, D0 + 15 * DAY + 20 * HOUR)
    assert forgotten["decision"] == "forget", forgotten
    assert {m["session_id"] for m in forgotten["match"]["matched"]} == {sessions[1]}
    left = everything(client, "mia", [*sessions, sid], " ".join(gone + kept), D0 + 22 * DAY)
    assert not any(word in left for word in gone), left
    assert all(word in left for word in kept), left


PERSON_THEN = {
    "en": (
        ["Dad's teaching me to fix the brakes on the car on sunday.", "He's weirdly patient about it."],
        [
            "My dad's drinking again, I found bottles hidden in the garage.",
            "Mum pretends not to see it.",
        ],
        "the thing about my dad the other night. please don't remember it",
        ("bottles hidden", "pretends not to see"),
        ("brakes", "weirdly patient"),
    ),
    "zh": (
        ["我爸周日教我修车刹车。", "他难得这么有耐心。"],
        ["我爸又开始酗酒了，我在车库里发现他藏的酒瓶。", "我妈假装没看见。"],
        "那天晚上说我爸的那些，别记着了",
        ("藏的酒瓶", "假装没看见"),
        ("修车刹车", "有耐心"),
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_person_and_a_time_named_keep_an_older_session_about_that_person_said_at_another_time(
    client: Client, lang: str
) -> None:
    older, told, request, gone, kept = PERSON_THEN[lang]
    client.agent_create("mia")
    sessions = [
        talk(client, "mia", older, D0 + 5 * DAY + 10 * HOUR),  # Saturday morning
        talk(client, "mia", told, D0 + 12 * DAY + 22 * HOUR),  # the next Saturday night
    ]
    sid, forgotten = ask(client, "mia", request, D0 + 15 * DAY + 20 * HOUR)
    assert forgotten["decision"] == "forget", forgotten
    assert {m["session_id"] for m in forgotten["match"]["matched"]} == {sessions[1]}
    left = everything(client, "mia", [*sessions, sid], " ".join(gone + kept), D0 + 22 * DAY)
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
    first = talk(client, "mia", history, D0 + 8 * DAY + 19 * HOUR)
    sid, forgotten = ask(client, "mia", said, D0 + 12 * DAY + 18 * HOUR)
    assert forgotten == {}, forgotten
    left = everything(client, "mia", [first, sid], " ".join(kept), D0 + 22 * DAY)
    assert all(word in left for word in kept), left
