"""A later conversation touching the matter in one line goes with the matter (issue 24 item 2,
fourteenth pass), through a real daemon: the line shares only the person with the telling, so its
meaning alone (the name pulls the person's other matters as close) did not take it; it says the
matter goes on ("... again", 又), and said after the telling, that is what a passing mention does
(forget_topic._goes_on_later). The person's other matter, told before, stays, and so do the other
lines of the later conversation. Both languages.

Real socket, real SQLite, real embedder (USE-multilingual-v3); the scripted provider stands in for
the model (it echoes the newest user message), since this is about what the daemon deletes.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import ask, everything, talk

DAY = 86_400_000
T0 = 1_764_536_400_000  # Sunday 2025-11-30 21:00 UTC

# (the person's other matter, the matter, the later conversation with its passing line, the
# request, a word of the passing line, a word of the other matter, a word of the later
# conversation's other lines)
CASES = {
    "en": (
        ["Ollie and I repainted his kitchen, took all saturday"],
        ["Ollie's landlord is evicting him at the end of the month", "he has nowhere to go"],
        [
            "made a big pot of soup",
            "Ollie slept on a friend's sofa again last night",
            "the cat knocked over a plant",
        ],
        "what I told you about Ollie's housing trouble, please forget it",
        "friend's sofa",
        "repainted",
        "pot of soup",
    ),
    "zh": (
        ["跟小蒋去钓鱼，一条都没钓到"],
        ["小蒋的房东要赶他走，月底就得搬", "他没地方去"],
        ["今天炖了一锅汤", "小蒋昨晚又睡在朋友家沙发上", "猫把花盆打翻了"],
        "小蒋租房那档子事，你忘了吧",
        "朋友家沙发",
        "钓鱼",
        "炖了一锅汤",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_passing_mention_that_says_the_matter_goes_on_goes_with_it(
    client: Client, lang: str
) -> None:
    other, told, later, request, passing, kept, beside = CASES[lang]
    client.agent_create("mia")
    older = talk(client, "mia", other, T0)
    meant = talk(client, "mia", told, T0 + 3 * DAY)
    mention = talk(client, "mia", later, T0 + 6 * DAY)
    sid, forgotten = ask(client, "mia", request, T0 + 9 * DAY)
    assert forgotten["decision"] == "forget", forgotten
    week = T0 + 16 * DAY
    assert passing not in everything(client, "mia", [mention, meant, sid], passing, week)
    assert kept in everything(client, "mia", [older], kept, week)
    assert beside in everything(client, "mia", [mention], beside, week)
