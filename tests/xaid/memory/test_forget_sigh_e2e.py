""" "That" said after a sigh takes the telling just said, not an older matter about the same person
(issue 24 item 2, session 34), through a real daemon.

"算了算了当我没说，吐槽完舒服多了，这段别存哈" right after a rant about the boss was read by a frame as a
topic named "算了算了", which meaning matched to an older, everyday conversation about the same
boss: that one was deleted and the rant stayed. A frame's topic that is only a sigh or "that" now
means what was just said. In English "ugh, scratch that, venting over, don't keep this bit" was a
topic named "ugh" (asked back about, nothing forgotten); a sigh before the verb now names nothing.
Both fail before the change.

Real socket, real SQLite, real embedder (USE-multilingual-v3); the scripted provider stands in for
the model (it echoes the newest user message), since this is about what the daemon deletes.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import everything, talk

DAY = 86_400_000
MINUTE = 60_000
T0 = 1_764_536_400_000  # Sunday 2025-11-30 21:00 UTC

# (an older everyday matter about the same person, the rant, the request, a word of the rant, a
# word of the everyday matter)
CASES = {
    "zh": (
        ["我们主任今天请全科室吃了烧烤", "难得大方一回"],
        ["真受够我们主任了", "周报改了八遍又说还是原来那版好，我看他就是故意折腾人"],
        "算了算了当我没说，吐槽完舒服多了，这段别存哈",
        "改了八遍",
        "吃了烧烤",
    ),
    "en": (
        ["my supervisor bought the whole floor bagels today", "rare generosity"],
        [
            "I'm so done with my supervisor",
            "he made me redo the slides nine times, then picked version one",
        ],
        "ugh, scratch that, venting over, don't keep this bit",
        "nine times",
        "bagels",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_that_after_a_sigh_takes_the_rant_not_the_older_matter(client: Client, lang: str) -> None:
    older, rant, request, gone, kept = CASES[lang]
    client.agent_create("mia")
    first = talk(client, "mia", older, T0)
    sid = client.session_open("mia", ts=T0 + 3 * DAY)["session_id"]
    for i, line in enumerate(rant):
        client.session_send(sid, line, ts=T0 + 3 * DAY + i * MINUTE).finish()
    result = client.session_send(
        sid, request, ts=T0 + 3 * DAY + len(rant) * MINUTE, explain=True
    ).finish()
    forgotten = result["context"]["forgotten"]
    assert forgotten is not None and forgotten["decision"] in ("previous", "forget"), forgotten
    client.session_close(sid, ts=T0 + 3 * DAY + 10 * MINUTE, wait=True)
    later = T0 + 10 * DAY
    assert gone not in everything(client, "mia", [sid], gone, later), forgotten
    assert kept in everything(client, "mia", [first], kept, later), forgotten
