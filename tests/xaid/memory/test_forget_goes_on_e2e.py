""" "Forget that" takes the telling it follows, back to the line it began at, though its last line
neither points back nor is near the one before in meaning (issue 24 item 2, session 35), through a
real daemon.

"My sister told me she's been skipping her chemo" / "she says she's just tired of hospitals" /
"nobody else in the family knows" / "please don't keep that": the last line is 0.13 from the one
before under USE and names no one, so "that" took it alone and left the chemo. Said as one text,
the pair stays with the earlier line (forget_topic.began_at): the telling began there, and goes
whole. The line of small talk said before it is the other way round (the matter pulls the pair to
itself) and stays. Fails before the change in both languages.

Real socket, real SQLite, real embedder (USE-multilingual-v3); the scripted provider stands in for
the model (it echoes the newest user message), since this is about what the daemon deletes.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import everything, talk

DAY = 86_400_000
T0 = 1_764_536_400_000  # Sunday 2025-11-30 21:00 UTC

# (small talk, the telling, "that" said right after it, a word of each line of the telling, a word
# of the small talk)
CASES = {
    "en": (
        "finally repotted the monstera this afternoon",
        [
            "my sister told me she's been skipping her chemo appointments",
            "she says she's just tired of hospitals",
            "nobody else in the family knows",
        ],
        "please don't keep that",
        ["chemo", "tired of hospitals", "family knows"],
        "monstera",
    ),
    "zh": (
        "下午把阳台的绿萝换了个盆",
        ["我表姐说她偷偷停了化疗", "她说实在受不了医院了", "家里其他人都不知道"],
        "刚才这些你别记了",
        ["化疗", "受不了医院", "其他人都不知道"],
        "绿萝",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_that_takes_the_telling_back_to_the_line_it_began_at(client: Client, lang: str) -> None:
    small, telling, that, words, kept = CASES[lang]
    client.agent_create("mia")
    sid = talk(client, "mia", [small, *telling, that], T0)
    later = T0 + 7 * DAY
    for word in words:
        assert word not in everything(client, "mia", [sid], word, later), word
    assert kept in everything(client, "mia", [sid], kept, later)
