"""A "forget that" about a person in two matters takes the one its other words point to, and a
telling's short lines go with it (issue 24 item 2, thirteenth pass), through a real daemon:

- the person named in two matters of two conversations, and the request saying which beyond the
  name ("Lukas's health stuff", 老郑身体那块的事): that matter goes, the other stays findable;
- the request naming the person and nothing else: the companion asks back and hides neither
  matter meanwhile (hiding one would be a coin toss; the wrong one is a matter never asked about);
- a telling that goes on in a short line with no pointing word ("yeah, about 3k", "对，三万多"):
  "that" said right after takes the short line with it.

Real socket, real SQLite, real embedder (USE-multilingual-v3); the scripted provider stands in for
the model (it echoes the newest user message), since this is about what the daemon deletes and shows.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import everything, found, two_matters_then_ask

DAY = 86_400_000
MINUTE = 60_000
T0 = 1_764_536_400_000  # Sunday 2025-11-30 21:00 UTC

# (the other matter, the matter meant, the request naming it beyond the person, a word of the
# matter meant, a word of the other matter)
TWO_MATTERS = {
    "en": (
        ["Lukas and I built a treehouse for his kids", "took the whole weekend"],
        ["Lukas found out he has early Parkinson's", "he hasn't even told his kids yet"],
        "what I told you about Lukas's health, please don't keep it",
        "Parkinson",
        "treehouse",
    ),
    "zh": (
        ["老郑带我去水库钓鱼，钓了一条大草鱼"],
        ["老郑查出来肝上长了个瘤", "他还没跟家里人说"],
        "老郑身体那块的事，你别记了",
        "长了个瘤",
        "大草鱼",
    ),
}

# (two matters of one person, the request naming only the person, a word of each)
PERSON_ONLY = {
    "en": (
        ["Mira is behind on her rent again, like two months"],
        ["Mira is cheating on her boyfriend with her boss"],
        "forget what I told you about Mira",
        ("behind on her rent", "cheating on her boyfriend"),
    ),
    "zh": (
        ["小雯房租又拖了两个月"],
        ["小雯背着男朋友跟她老板好上了"],
        "小雯的事你忘了吧",
        ("房租又拖了", "背着男朋友"),
    ),
}

# (an unrelated line, the telling, its short line, "that", a word of the short line, the unrelated)
SHORT_LINE = {
    "en": (
        "made lasagne tonight",
        "I've been secretly paying off my brother's car loan",
        "yeah, about 3k so far",
        "oh no, forget I said that",
        "3k so far",
        "lasagne",
    ),
    "zh": (
        "今晚做了千层面",
        "我一直偷偷帮我哥还车贷",
        "对，三万多了",
        "天哪，当我没说",
        "三万多",
        "千层面",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_request_s_other_words_choose_the_person_s_matter(client: Client, lang: str) -> None:
    other, told, request, gone, kept = TWO_MATTERS[lang]
    client.agent_create("mia")
    # The other matter is the later one: by time it would be the likelier.
    asked = two_matters_then_ask(
        client, "mia", (told, T0), (other, T0 + 3 * DAY), request, T0 + 6 * DAY
    )
    forgotten = asked.forgotten
    assert forgotten["decision"] == "forget", forgotten
    later = T0 + 13 * DAY
    assert gone not in everything(client, "mia", [asked.meant, asked.request], gone, later)
    assert kept in found(client, "mia", kept, later), forgotten
    assert kept in everything(client, "mia", [asked.other], kept, later)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_naming_only_a_person_in_two_matters_asks_and_hides_neither(
    client: Client, lang: str
) -> None:
    first, second, request, words = PERSON_ONLY[lang]
    client.agent_create("mia")
    asked = two_matters_then_ask(
        client, "mia", (first, T0), (second, T0 + 2 * DAY), request, T0 + 5 * DAY
    )
    forgotten = asked.forgotten
    assert forgotten["decision"] == "ask" and forgotten["deleted"] == 0, forgotten
    assert forgotten["hidden"] == [], forgotten
    for word in words:
        assert word in found(client, "mia", word, T0 + 5 * DAY + MINUTE)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_that_takes_the_telling_s_short_line(client: Client, lang: str) -> None:
    unrelated, telling, short, that, gone, kept = SHORT_LINE[lang]
    client.agent_create("mia")
    sid = client.session_open("mia", ts=T0)["session_id"]
    for i, line in enumerate([unrelated, telling, short]):
        client.session_send(sid, line, ts=T0 + i * MINUTE).finish()
    result = client.session_send(sid, that, ts=T0 + 3 * MINUTE, explain=True).finish()
    forgotten = result["context"]["forgotten"]
    assert forgotten["decision"] in ("previous", "forget"), forgotten
    client.session_close(sid, ts=T0 + 4 * MINUTE, wait=True)
    later = T0 + 7 * DAY
    assert gone not in everything(client, "mia", [sid], gone, later)
    assert kept in everything(client, "mia", [sid], kept, later)
