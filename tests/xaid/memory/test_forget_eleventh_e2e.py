"""A request to forget said without the word forget is acted on, and the same words that ask
nothing are not (issue 24 item 2, the eleventh pass), through a real daemon, in both languages
(perf/scenarios/forgets_dev11.json, area ``forget_dev11``, measures the same on more histories):

1. "scrap what I told you about …", "…那事你别记着了，清掉吧": no forget-word, a named matter; the
   session it means goes, an older session about the same person in another matter stays;
2. "删了一半照片", "翻篇了" said of a quarrel that is over, "my boss told me to bin the draft": the
   removal verbs of a request, asking nothing; nothing is forgotten and nothing is asked.

A real daemon on a real socket with real SQLite and USE-multilingual-v3 (the weights of
xaid/memory/forget_intent.json learned from perf/scenarios/forget_intent_corpus11.json among
others); the scripted provider (which echoes each turn) stands in for the model, since what is
checked is which words the daemon keeps.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import MONDAY, ask, everything, talk
from xaid.clock import DAY_MS, HOUR_MS

# The older session about the same person, the session meant, the request, the words to go and
# the words to stay.
WITHOUT_FORGET = {
    "en": (
        ["My uncle Bruno finally retired, we threw him a party.", "He cried during the speeches."],
        [
            "Uncle Bruno has been gambling again, he lost the money for the roof.",
            "Auntie doesn't know yet and I promised not to say anything.",
        ],
        "the thing about my uncle losing the roof money at the bookies - please scrap it, it's not mine to share",
        ("gambling", "money for the roof"),
        ("retired", "speeches"),
    ),
    "zh": (
        ["舅舅布鲁诺退休了，我们给他办了个聚会。", "致辞的时候他哭了。"],
        ["舅舅又去赌了，把修屋顶的钱都输光了。", "舅妈还不知道，我答应了不说出去。"],
        "我舅舅赌钱把修屋顶的钱输了那事，你别记着了，清掉吧",
        ("又去赌了", "修屋顶的钱"),
        ("退休", "致辞"),
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_request_without_the_word_forget_forgets_the_matter_and_nothing_else(
    client: Client, lang: str
) -> None:
    older, told, request, gone, kept = WITHOUT_FORGET[lang]
    client.agent_create("nia")
    sessions = [
        talk(client, "nia", older, MONDAY + 2 * DAY_MS + 19 * HOUR_MS),
        talk(client, "nia", told, MONDAY + 8 * DAY_MS + 21 * HOUR_MS),
    ]
    sid, forgotten = ask(client, "nia", request, MONDAY + 15 * DAY_MS + 20 * HOUR_MS)
    assert forgotten.get("decision") == "forget", forgotten
    assert forgotten["sure"] is True, forgotten
    left = everything(client, "nia", [*sessions, sid], " ".join(gone + kept), MONDAY + 22 * DAY_MS)
    assert not any(word in left for word in gone), left
    assert all(word in left for word in kept), left


# A history, then a sentence that uses a request's verbs and asks nothing.
ASKS_NOTHING = {
    "en": (
        ["Me and Priya had a huge row about the wedding seating.", "She hung up on me."],
        "Priya and I made up today, the row is behind us and we're not bringing it up again",
        ("wedding seating", "hung up"),
    ),
    "zh": (
        ["跟小雨为了婚礼座位大吵了一架。", "她直接挂了我电话。"],
        "今天跟小雨和好了，那次吵架早翻篇了，我们都不提了",
        ("婚礼座位", "挂了我电话"),
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_same_words_that_ask_nothing_forget_nothing(client: Client, lang: str) -> None:
    history, said, kept = ASKS_NOTHING[lang]
    client.agent_create("ola")
    sessions = [talk(client, "ola", history, MONDAY + 3 * DAY_MS + 19 * HOUR_MS)]
    sid, forgotten = ask(client, "ola", said, MONDAY + 6 * DAY_MS + 18 * HOUR_MS)
    assert forgotten == {}, forgotten  # neither carried out nor asked back
    left = everything(client, "ola", [*sessions, sid], " ".join(kept), MONDAY + 13 * DAY_MS)
    assert all(word in left for word in kept), left
