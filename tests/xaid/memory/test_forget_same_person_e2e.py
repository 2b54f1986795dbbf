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

from testkit.forgetting import everything, talk, two_matters_then_ask

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
    asked = two_matters_then_ask(
        client, "mia", (told, T0 + 6 * DAY), (other, T0 - 4 * DAY), request, T0 + 9 * DAY
    )
    assert asked.forgotten["decision"] == "forget", asked.forgotten
    later = T0 + 16 * DAY
    assert gone not in everything(client, "mia", [asked.meant, asked.request], gone, later)
    assert kept in everything(client, "mia", [asked.other], kept, later)


@pytest.mark.parametrize(
    ("said", "asking", "word"),
    [
        (
            "ok confession, I took money from my mum's purse last week",
            "ugh. unsay that please",
            "purse",
        ),
        ("我姐怀孕了，还没跟任何人说。", "这个其实你不用留着", "怀孕"),
    ],
)
def test_a_request_that_names_nothing_of_its_own_means_what_was_just_said(
    client: Client, said: str, asking: str, word: str
) -> None:
    """Read as a topic ("unsay that", 这个), but naming nothing of its own: it points at what was
    just said in this conversation, as "that" does (forgetting.plan), instead of matching nothing."""
    client.agent_create("mia")
    older = talk(client, "mia", ["made soup from scratch tonight"], T0 - DAY)
    sid = client.session_open("mia", ts=T0)["session_id"]
    client.session_send(sid, said, ts=T0).finish()
    result = client.session_send(sid, asking, ts=T0 + 60_000, explain=True).finish()
    forgotten = result["context"]["forgotten"]
    assert forgotten["kind"] == "previous" and forgotten["decision"] in ("previous", "ask")
    if forgotten["decision"] == "previous":
        assert word not in everything(client, "mia", [sid], word, T0 + DAY)
    assert "soup" in everything(client, "mia", [older], "soup", T0 + DAY)
