"""A request to forget said as people say it, days later, finds what it refers to (issue 24 item 2,
seventeenth pass), through a real daemon, in both languages; each test fails on the code before:

1. "don't bring it up again" / 别再提 asks the companion to let the matter go: the gate let no such
   message reach the classifier, so it was never read as a request; "forgot to tell you, …" /
   忘了告诉你 is the user's own forgetting and is not even asked about;
2. a request named by a time and by no word any turn holds ("what I said on friday night when I
   was angry", 周日下午跟你讲的那些) took as its seed a turn said at another time that only sounded
   like it, and asked back about it: the seed is among the turns said in the time named (the
   English case passed before too, with these words; it keeps the English wording honoured);
3. a short last line of a telling ("he lied", 我把她删了) left with its message, but the episode of
   that evening kept quoting it word for word.

Real socket, real SQLite, the real default embedder (USE-multilingual-v3); the scripted provider
stands in for the model (it echoes the user's words).
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import MONDAY, everything, talk

DAY = 86_400_000
HOUR = 3_600_000


def said(c: Client, agent: str, text: str, ts: int) -> tuple[str, dict[str, object]]:
    """``text`` as the first turn of a new session, closed after; the session and explain's forgotten."""
    sid = c.session_open(agent, ts=ts)["session_id"]
    forgotten = c.session_send(sid, text, ts=ts, explain=True).finish()["context"]["forgotten"]
    c.session_close(sid, ts=ts + 60_000, wait=True)
    return sid, dict(forgotten or {})


NOT_AGAIN = {
    "en": (
        ["I was diagnosed with a thyroid nodule, they want a biopsy next month."],
        "the thyroid thing, can you not bring it up again",
        ("thyroid nodule", "biopsy"),
        "forgot to tell you, I switched to the night shift at the bakery",
    ),
    "zh": (
        ["我查出来甲状腺结节了，医生让我下个月去做穿刺。"],
        "甲状腺那事，你以后别再提了",
        ("甲状腺结节", "穿刺"),
        "忘了告诉你，我换到面包店上夜班了",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_not_bringing_it_up_again_forgets_it_and_forgot_to_tell_you_asks_nothing(
    client: Client, lang: str
) -> None:
    told, asked, gone, lookalike = NOT_AGAIN[lang]
    client.agent_create("mia")
    kept = talk(client, "mia", ["Learning to knit, my first scarf is lumpy."], MONDAY)
    first = talk(client, "mia", told, MONDAY + 3 * DAY + 21 * HOUR)
    # The look-alike first: it asks nothing, not even a question back.
    other, forgotten = said(client, "mia", lookalike, MONDAY + 6 * DAY + 18 * HOUR)
    assert forgotten == {}, forgotten
    sid, forgotten = said(client, "mia", asked, MONDAY + 8 * DAY + 20 * HOUR)
    assert forgotten.get("decision") == "forget", forgotten
    left = everything(client, "mia", [kept, first, other, sid], " ".join(gone), MONDAY + 15 * DAY)
    assert not any(word in left for word in gone), left
    assert "scarf" in left and ("night shift" in left or "夜班" in left)


BY_TIME = {
    # Day 4 is a Friday, day 6 a Sunday; the request is said on day 8 (Tuesday).
    "en": (
        (4, 9, ["friday morning: standup ran long, the projector died"]),
        (4, 21, ["told my brother his new girlfriend is fake", "he hasn't spoken to me since"]),
        "the stuff I said on friday night in a temper - treat it as unsaid please",
        ("girlfriend is fake", "spoken to me since"),
        ("standup", "projector"),
    ),
    "zh": (
        (0, 19, ["报了个周六上午的书法课"]),
        (6, 15, ["在超市撞见我前男友和他未婚妻", "我推着购物车掉头就跑"]),
        "周日下午跟你讲的那些，都别留着了",
        ("前男友和他未婚妻", "掉头就跑"),
        ("书法课",),
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_time_named_chooses_the_conversation_said_then(client: Client, lang: str) -> None:
    (od, oh, other), (td, th, told), asked, gone, kept = BY_TIME[lang]
    client.agent_create("mia")
    before = talk(client, "mia", other, MONDAY + od * DAY + oh * HOUR)
    first = talk(client, "mia", told, MONDAY + td * DAY + th * HOUR)
    sid, forgotten = said(client, "mia", asked, MONDAY + 8 * DAY + 20 * HOUR)
    assert forgotten.get("decision") == "forget", forgotten
    left = everything(client, "mia", [before, first, sid], " ".join(gone), MONDAY + 15 * DAY)
    assert not any(word in left for word in gone), left
    assert all(word in left for word in kept), left


SHORT_LAST = {
    "en": (
        ["my brother borrowed my car and crashed it into the Hendricks' fence", "he lied"],
        "what I told you about my brother crashing my car, please forget it",
        ("Hendricks", "he lied"),
    ),
    "zh": (
        ["和室友为了水电费吵翻了，她说我小气", "我把她删了"],
        "跟室友为水电费吵架那事，你就当没听过吧",
        ("水电费", "我把她删了"),
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_short_line_of_the_telling_leaves_the_episode_that_quoted_it(
    client: Client, lang: str
) -> None:
    told, asked, gone = SHORT_LAST[lang]
    client.agent_create("mia")
    first = talk(client, "mia", told, MONDAY + 2 * DAY + 21 * HOUR)
    episode = repr(client.call("memory.list", agent_id="mia", kind="episode")["items"])
    assert gone[1] in episode  # the evening's episode quotes the short line
    sid, forgotten = said(client, "mia", asked, MONDAY + 7 * DAY + 20 * HOUR)
    assert forgotten.get("decision") == "forget", forgotten
    left = everything(client, "mia", [first, sid], " ".join(gone), MONDAY + 14 * DAY)
    assert not any(word in left for word in gone), left
