"""A forget takes no more than was asked (issue 24 item 2, the fifth pass), through a real daemon,
in both languages; each test failed on the code before the change (perf/scenarios/forgets_dev5.json,
area ``forget_dev5``, measures the same on more histories):

1. an older session about the same person in another matter was taken as a "retelling" (close in
   meaning, sharing the name): it stays; the later mention that names the matter goes;
2. a request named by a time ("saturday night", 周六晚上) chooses the session said that evening, not
   the morning of the same day;
3. two evenings fit "the other night" (那天晚上) equally: it asks back, nothing goes;
4. a request the classifier is unsure of (the middle band of forget_intent.json) whose telling the
   memory finds clearly is carried out (fifteenth pass); a person in two matters is asked about,
   and a "yes" carries the one asked about out.

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


SAME_PERSON = {
    "en": (
        [
            "Uncle Teo taught me to tie fishing knots at the lake.",
            "He has the patience of a saint.",
        ],
        [
            "Uncle Teo got into a fight at the pub and the police were called.",
            "He's been charged with assault, the hearing is in March.",
        ],
        [
            "The bins got collected late.",
            "Uncle Teo's assault hearing moved to April.",
            "Made banana bread.",
        ],
        "What I told you about my uncle's trouble with the police, please forget it.",
        ("assault", "pub"),
        ("fishing knots", "patience", "bins", "banana bread"),
    ),
    "zh": (
        ["舅舅阿德教我在湖边绑鱼钩。", "他真有耐心。"],
        ["舅舅阿德在酒吧跟人打架，警察都来了。", "他被控故意伤害，三月开庭。"],
        ["垃圾今天收得很晚。", "阿德舅舅故意伤害的案子开庭改到四月了。", "做了香蕉面包。"],
        "我舅舅跟警察那些麻烦事，你忘了吧。",
        ("故意伤害", "酒吧"),
        ("鱼钩", "耐心", "垃圾", "香蕉面包"),
    ),
}


@pytest.mark.xfail(
    strict=True,
    reason="thirteenth pass (forget_topic._matters): the later mention in passing (Teo's hearing "
    "moved) is farther than the telling from the request's words beyond the person, so it is "
    "apart and stays (the older matter is still kept)",
)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_older_session_about_the_same_person_in_another_matter_is_kept(
    client: Client, lang: str
) -> None:
    older, told, later, request, gone, kept = SAME_PERSON[lang]
    client.agent_create("mia")
    sessions = [
        talk(client, "mia", older, D0 + DAY + 19 * HOUR),
        talk(client, "mia", told, D0 + 3 * DAY + 21 * HOUR),
        talk(client, "mia", later, D0 + 5 * DAY + 9 * HOUR),
    ]
    sid, forgotten = ask(client, "mia", request, D0 + 9 * DAY + 20 * HOUR)
    assert forgotten["decision"] == "forget", forgotten
    # explain names the matched turns and their sessions: the telling and the later mention
    matched = forgotten["match"]["matched"]
    assert {m["session_id"] for m in matched} == {sessions[1], sessions[2]}
    left = everything(client, "mia", [*sessions, sid], " ".join(gone + kept), D0 + 16 * DAY)
    assert not any(word in left for word in gone), left
    assert all(word in left for word in kept), left


EVENING = {
    "en": (
        ["Coffee with Dana this morning, she's moving to Leeds.", "Going to miss her."],
        [
            "I read my partner's messages while he slept.",
            "He texts a woman called Mira every night.",
        ],
        "please forget everything I said on saturday night",
        ("Mira", "while he slept"),
        ("Leeds",),
    ),
    "zh": (
        ["早上跟丹丹喝咖啡，她要搬去成都了。", "好舍不得。"],
        ["我趁他睡着偷看了他的手机。", "他每天晚上都跟一个叫米拉的女人发消息。"],
        "周六晚上说的那些，你都忘了吧",
        ("米拉", "偷看"),
        ("成都",),
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_night_named_takes_that_evening_not_the_morning_of_the_same_day(
    client: Client, lang: str
) -> None:
    morning, night, request, gone, kept = EVENING[lang]
    client.agent_create("mia")
    sessions = [
        talk(client, "mia", morning, D0 + 5 * DAY + 10 * HOUR),  # Saturday morning
        talk(client, "mia", night, D0 + 5 * DAY + 22 * HOUR),  # Saturday night
    ]
    sid, forgotten = ask(client, "mia", request, D0 + 8 * DAY + 20 * HOUR)  # the Tuesday after
    assert forgotten["decision"] == "forget", forgotten
    assert {m["session_id"] for m in forgotten["match"]["matched"]} == {sessions[1]}
    left = everything(client, "mia", [*sessions, sid], " ".join(gone + kept), D0 + 15 * DAY)
    assert not any(word in left for word in gone), left
    assert all(word in left for word in kept), left


TWO_EVENINGS = {
    "en": (
        ["Had a massive fight with Sam about the wedding budget tonight."],
        ["Can't sleep, I keep thinking I should quit the band."],
        "what I said the other night, can you forget it",
        ("wedding budget", "quit the band"),
    ),
    "zh": (
        ["今晚跟小周为婚礼预算大吵了一架。"],
        ["睡不着，一直在想要不要退出乐队。"],
        "那天晚上我说的，你就忘了吧",
        ("婚礼预算", "退出乐队"),
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_two_evenings_that_fit_a_time_equally_are_asked_about_not_guessed(
    client: Client, lang: str
) -> None:
    first, second, request, kept = TWO_EVENINGS[lang]
    client.agent_create("mia")
    sessions = [
        talk(client, "mia", first, D0 + 3 * DAY + 21 * HOUR),  # Thursday night
        talk(client, "mia", second, D0 + 5 * DAY + 21 * HOUR),  # Saturday night
    ]
    sid, forgotten = ask(client, "mia", request, D0 + 8 * DAY + 20 * HOUR)
    assert forgotten["decision"] == "ask" and forgotten["deleted"] == 0, forgotten
    left = everything(client, "mia", [*sessions, sid], " ".join(kept), D0 + 15 * DAY)
    assert all(word in left for word in kept), left


UNSURE = {
    "en": (
        [
            "My landlord keeps letting himself into the flat when I'm out.",
            "I found him in my kitchen on Monday.",
        ],
        "I'd like the landlord story gone I think",
        ("kitchen",),
    ),
    "zh": (
        ["房东老是趁我不在自己开门进来。", "周一我发现他站在我厨房里。"],
        "房东那些事我不太想留着",  # p 0.69 under the eleventh pass's weights (ask 0.57, fire 0.88)
        ("厨房",),
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_request_the_classifier_is_unsure_of_is_carried_out_when_memory_finds_one_telling(
    client: Client, lang: str
) -> None:
    """Fifteenth pass: not sure from its words alone, but the message points at something said and
    the memory finds one telling clearly; asking "do you want me to forget…?" would only ask back
    what was just said (conversation/forgetting.py ``_clear_either_way``)."""
    told, request, gone = UNSURE[lang]
    client.agent_create("mia")
    first = talk(client, "mia", told, D0 + 2 * DAY + 20 * HOUR)
    sid, forgotten = ask(client, "mia", request, D0 + 4 * DAY + 20 * HOUR)
    assert forgotten["decision"] == "forget" and forgotten["deleted"] > 0, forgotten
    left = everything(client, "mia", [first, sid], " ".join(gone), D0 + 11 * DAY)
    assert not any(word in left for word in gone), left


# The same person in two matters and a request naming only the person: asked back, never guessed,
# however sure the reading; a yes carries it out.
TWO_MATTERS = {
    "en": (
        ["Nadia is thinking of quitting uni."],
        ["Nadia's dad is in rehab again."],
        "could you forget the Nadia stuff",
        "yes",
        ("quitting uni", "in rehab"),
    ),
    "zh": (
        ["阿敏在考虑退学。"],
        ["阿敏她爸又进戒毒所了。"],
        "阿敏的事你都别记了吧",
        "对",
        ("退学", "戒毒所"),
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_person_in_two_matters_is_asked_about_and_a_yes_carries_it_out(
    client: Client, lang: str
) -> None:
    one, other, request, yes, words = TWO_MATTERS[lang]
    client.agent_create("mia")
    sessions = [
        talk(client, "mia", one, D0 + 2 * DAY + 20 * HOUR),
        talk(client, "mia", other, D0 + 3 * DAY + 20 * HOUR),
    ]
    sid, forgotten = ask(client, "mia", request, D0 + 4 * DAY + 20 * HOUR)
    assert forgotten["decision"] == "ask" and forgotten["deleted"] == 0, forgotten
    left = everything(client, "mia", [*sessions, sid], " ".join(words), D0 + 4 * DAY + 21 * HOUR)
    assert all(word in left for word in words), left
    confirmed = client.session_send(
        sid, yes, ts=D0 + 4 * DAY + 20 * HOUR + 60_000, explain=True
    ).finish()
    assert confirmed["context"]["forgotten"]["decision"] == "confirmed"
    left = everything(client, "mia", [*sessions, sid], " ".join(words), D0 + 11 * DAY)
    assert sum(word in left for word in words) == 1, left  # the one asked about went
