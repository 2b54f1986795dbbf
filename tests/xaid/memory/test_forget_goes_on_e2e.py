"""A telling goes on in lines that neither point back nor are near it in meaning, and "forget that"
takes them with it (issue 24 item 2, session 35), through a real daemon.

"My sister told me she's been skipping her chemo" / "she says she's just tired of hospitals" /
"nobody else in the family knows": the last line is 0.13 from the one before under USE and names
no one, so "forget that" took it alone and left the chemo, and "forget what I said about my sister's
chemo" took the first two and left "nobody else knows". Said as one text, each pair means what its
earlier line means (forget_topic.goes_on_with): the telling goes whole. The line of small talk said
before it is the other way round (the matter pulls the pair to itself) and stays. Both requests fail
before the change in both languages.

Real socket, real SQLite, real embedder (USE-multilingual-v3); the scripted provider stands in for
the model (it echoes the newest user message), since this is about what the daemon deletes.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import ask, everything, talk

DAY = 86_400_000
MINUTE = 60_000
T0 = 1_764_536_400_000  # Sunday 2025-11-30 21:00 UTC

# (small talk, the telling, "that" said right after it, a topic named days later, a word of each
# line of the telling, a word of the small talk)
CASES = {
    "en": (
        "finally repotted the monstera this afternoon",
        [
            "my sister told me she's been skipping her chemo appointments",
            "she says she's just tired of hospitals",
            "nobody else in the family knows",
        ],
        "please don't keep that",
        "forget what I told you about my sister and her chemo",
        ["chemo", "tired of hospitals", "family knows"],
        "monstera",
    ),
    "zh": (
        "下午把阳台的绿萝换了个盆",
        ["我表姐说她偷偷停了化疗", "她说实在受不了医院了", "家里其他人都不知道"],
        "刚才这些你别记了",
        "我表姐停化疗那事你忘了吧",
        ["化疗", "受不了医院", "其他人都不知道"],
        "绿萝",
    ),
}


def _live(client: Client, lang: str, then: str | None) -> tuple[str, int]:
    """The session of small talk and the telling (with ``then`` said right after it, when given),
    closed; its id and the time after it."""
    small, telling, *_ = CASES[lang]
    lines = [small, *telling, *([then] if then else [])]
    return talk(client, "mia", lines, T0), T0 + (len(lines) + 1) * MINUTE


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_that_takes_the_lines_the_telling_went_on_in(client: Client, lang: str) -> None:
    _small, _telling, that, _topic, words, kept = CASES[lang]
    client.agent_create("mia")
    sid, after = _live(client, lang, that)
    later = after + 7 * DAY
    for word in words:
        assert word not in everything(client, "mia", [sid], word, later), word
    assert kept in everything(client, "mia", [sid], kept, later)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_named_matter_takes_the_line_after_it_that_goes_on(client: Client, lang: str) -> None:
    _small, _telling, _that, topic, words, kept = CASES[lang]
    client.agent_create("mia")
    sid, after = _live(client, lang, None)
    asked_in, forgotten = ask(client, "mia", topic, after + 3 * DAY)
    assert forgotten.get("decision") == "forget", forgotten
    client.session_close(asked_in, ts=after + 3 * DAY + MINUTE, wait=True)
    later = after + 7 * DAY
    for word in words:
        assert word not in everything(client, "mia", [sid, asked_in], word, later), word
    assert kept in everything(client, "mia", [sid], kept, later)
