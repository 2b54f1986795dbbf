"""While the companion asks back which matter a "forget that" meant, its likeliest candidate is held
back from recall (issue 24 item 2, twelfth pass; xaid/memory/hide.py), through a real daemon: the
question back hides it from ``memory.search``; a "yes" forgets it; a "no" shows it again; anything
else keeps it hidden, while ``memory.list`` (what an export reads) still has it. Both languages.

Real socket, real SQLite, real embedder (USE-multilingual-v3); the scripted provider stands in for
the model (it echoes the newest user message), since this is about what the daemon keeps and shows.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import everything, found, talk
from xaid.memory.forget_request import declines

DAY = 86_400_000
MINUTE = 60_000
T0 = 1_764_536_400_000  # Sunday 2025-11-30 21:00 UTC

# (history of the matter, an unrelated evening, the request that is unclear, the matter's word,
# the unrelated evening's word, the query that finds the matter, yes, no)
CASES = {
    "en": (
        ["Ran into Priya from high school at the station, she's going through a messy divorce."],
        ["Mum and I had a huge fight about Christmas plans."],
        "I'd rather you didn't remember what I told you about my old school friend.",
        "divorce",
        "Christmas",
        "Priya divorce",
        "yes, that",
        "no, not that one",
    ),
    "zh": (
        ["我一个月到手才六千五，房租就要三千。"],
        ["老板暗示我明年可能升主管。"],
        "工资那件事就当我没说过",
        "六千五",
        "升主管",
        "工资 六千五",
        "对",
        "不是这个",
    ),
}


def _asked(client: Client, lang: str) -> tuple[str, dict[str, object]]:
    told, other, request, word, kept, query, _yes, _no = CASES[lang]
    client.agent_create("mia")
    talk(client, "mia", told, T0)
    talk(client, "mia", other, T0 + DAY)
    assert word in found(client, "mia", query, T0 + 2 * DAY)
    sid = client.session_open("mia", ts=T0 + 3 * DAY)["session_id"]
    asked = client.session_send(sid, request, ts=T0 + 3 * DAY, explain=True).finish()
    forgotten = asked["context"]["forgotten"]
    assert forgotten["decision"] == "ask" and forgotten["deleted"] == 0
    assert forgotten["hidden"]  # explain names what it held back (ids, never the words)
    assert word not in repr(forgotten["hidden"])
    assert word not in found(client, "mia", query, T0 + 3 * DAY + MINUTE)
    assert kept in found(client, "mia", kept, T0 + 3 * DAY + MINUTE)  # the other evening stays
    return sid, forgotten


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_asking_back_hides_the_candidate_and_yes_forgets_it(client: Client, lang: str) -> None:
    _told, _other, _request, word, _kept, query, yes, _no = CASES[lang]
    sid, _ = _asked(client, lang)
    confirmed = client.session_send(sid, yes, ts=T0 + 3 * DAY + MINUTE, explain=True).finish()
    assert confirmed["context"]["forgotten"]["decision"] == "confirmed"
    assert word not in everything(client, "mia", [sid], query, T0 + 10 * DAY)
    assert word not in repr(client.call("memory.list", agent_id="mia", kind="utterance"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_no_shows_the_candidate_again(client: Client, lang: str) -> None:
    _told, _other, _request, word, _kept, query, _yes, no = CASES[lang]
    sid, _ = _asked(client, lang)
    answered = client.session_send(sid, no, ts=T0 + 3 * DAY + MINUTE, explain=True).finish()
    assert answered["context"]["forgotten"] is None
    assert word in found(client, "mia", query, T0 + 4 * DAY)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_silence_keeps_it_hidden_and_the_list_complete(client: Client, lang: str) -> None:
    _told, _other, _request, word, _kept, query, _yes, _no = CASES[lang]
    sid, _ = _asked(client, lang)
    moved_on = "anyway, what should I cook tonight?" if lang == "en" else "对了，今晚吃什么好？"
    client.session_send(sid, moved_on, ts=T0 + 3 * DAY + MINUTE).finish()
    client.session_close(sid, ts=T0 + 3 * DAY + 2 * MINUTE, wait=True)
    assert word not in found(client, "mia", query, T0 + 10 * DAY)
    # Nor does the next conversation's head bring it up (the standing block of the latest talks).
    later = client.session_open("mia", ts=T0 + 10 * DAY)["session_id"]
    hello = "hi, how are you?" if lang == "en" else "在吗？"
    head = client.session_send(later, hello, ts=T0 + 10 * DAY, explain=True).finish()
    assert word not in head["context"]["system_prompt"]
    # Not erased: the memory's own listing (what an export reads) still has it.
    assert word in repr(client.call("memory.list", agent_id="mia", kind="utterance"))


@pytest.mark.parametrize(
    "text",
    [
        "no",
        "nope, the other one",
        "no, not that one",
        "nah",
        "不是",
        "不对，是另一件",
        "不是这个",
        "嗯……不是那个",
    ],
)
def test_a_short_no_declines(text: str) -> None:
    assert declines(text)


@pytest.mark.parametrize(
    "text",
    ["yes", "no one saw, I think", "no problem", "对", "没问题", "know what, yes"],
)
def test_anything_else_does_not_decline(text: str) -> None:
    assert not declines(text)


@pytest.mark.parametrize(
    ("said", "asking", "word"),
    [
        (
            "My sister is pregnant, she hasn't told anyone yet.",
            "I probably shouldn't have said that, not sure you need to remember it",
            "pregnant",
        ),
        ("我姐怀孕了，还没跟任何人说。", "忘了这个吧", "怀孕"),
    ],
)
def test_that_asked_about_in_an_open_conversation_stays_hidden_after_it_closes(
    client: Client, said: str, asking: str, word: str
) -> None:
    """A "that" the daemon is not sure was a request points at a turn of the conversation still
    open: no memory holds it yet, so the question records the turn and the consolidation of that
    conversation hides what it makes of it (hide.renew). A sure request deletes it instead."""
    client.agent_create("mia")
    sid = client.session_open("mia", ts=T0)["session_id"]
    client.session_send(sid, said, ts=T0).finish()
    forgotten = client.session_send(sid, asking, ts=T0 + MINUTE, explain=True).finish()["context"][
        "forgotten"
    ]
    client.session_close(sid, ts=T0 + 2 * MINUTE, wait=True)
    assert word not in found(client, "mia", said, T0 + DAY)
    listed = repr(client.call("memory.list", agent_id="mia", kind="utterance"))
    if forgotten["sure"]:
        assert word not in listed  # carried out at once
    else:
        assert forgotten["decision"] == "ask"
        assert word in listed  # held back, not erased
