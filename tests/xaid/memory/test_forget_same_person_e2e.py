"""A forget named by a person takes that matter, not the person's other matters (issue 24 item 2,
twelfth pass): the words the user named ("Priya", 阿飞) used to take, besides the matched telling,
every memory holding them, so an older conversation about the same person in another matter ("Priya
and I did a pub quiz") went with it. The resolution weighs those conversations by meaning and leaves
them (forget_topic._retellings); the name alone no longer takes them (forgetting._matched).

Real socket, real SQLite, real embedder; the scripted provider stands in for the model (it echoes
the newest user message), since this is about what the daemon deletes.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import everything, talk

DAY = 86_400_000
T0 = 1_764_536_400_000  # Sunday 2025-11-30 21:00 UTC

CASES = {
    "en": (
        ["Priya and I did a pub quiz, came second!", "she knew every geography question"],
        ["Priya's pregnant!! she told me first, before her husband even", "she's only 7 weeks"],
        "what I mentioned about Priya the other day - please forget it, she'd kill me",
        "pregnant",
        "pub quiz",
    ),
    "zh": (
        ["阿飞和我周末去爬山了，山顶风景特别好"],
        ["阿飞欠了网贷两万多，一直不敢跟家里说", "他让我千万别说出去"],
        "前几天说的关于阿飞的事，你就忘了吧",
        "网贷",
        "爬山",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_same_person_in_another_matter_stays(client: Client, lang: str) -> None:
    other, told, request, gone, kept = CASES[lang]
    client.agent_create("mia")
    # The other matter two weeks back, outside "the other day": the resolution leaves it by time
    # and meaning, and the name the request says must not take it back.
    older = talk(client, "mia", other, T0 - 4 * DAY)
    target = talk(client, "mia", told, T0 + 6 * DAY)
    sid = client.session_open("mia", ts=T0 + 9 * DAY)["session_id"]
    result = client.session_send(sid, request, ts=T0 + 9 * DAY, explain=True).finish()
    forgotten = result["context"]["forgotten"]
    assert forgotten["decision"] == "forget", forgotten
    later = T0 + 16 * DAY
    assert gone not in everything(client, "mia", [target, sid], gone, later)
    assert kept in everything(client, "mia", [older], kept, later)
