"""A person in two matters, one private, named by a vague request (issue 24 item 2, session 32).

"Forget what I told you about Walt, not my news" after Walt's diagnosis and, in another
conversation, Walt fixing the gate: the name fills the short everyday line under the multilingual
embedder, so the request read nearer the gate, and the question back offered it ("Do you mean when
you said: Walt fixed my gate?"); where the diagnosis scored far below, the gate was forgotten
outright. What kind of matter each is now chooses between them (xaid/memory/private_matters.py):
people ask to forget what is private, not a gate fixed. A request that names the everyday or happy
matter by its own words still takes that one.

Real socket, real SQLite, real embedder; the scripted provider stands in for the model (it echoes
the newest user message), since this is about what the daemon deletes and asks.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import MONDAY, Asked, everything, found, two_matters_then_ask

DAY = 86_400_000
YES = {"en": "yes, that", "zh": "对，就是那个"}
# the matter meant, the other matter, the request, a word of the one meant, a word of the other
Case = tuple[list[str], list[str], str, str, str]

VAGUE: dict[str, Case] = {
    "en": (
        ["my neighbour Walt has been diagnosed with early Parkinson's, he hasn't told his kids"],
        ["Walt fixed my gate"],
        "forget what I told you about Walt, ok? not my news",
        "Parkinson",
        "fixed my gate",
    ),
    "zh": (
        ["邻居老王确诊了帕金森，还没告诉他孩子"],
        ["老王帮我修了门"],
        "老王那事你别记了，不是我该说的",
        "帕金森",
        "修了门",
    ),
}

NAMED: dict[str, Case] = {
    "en": (
        ["Mira is getting a surprise tattoo for her wife's birthday"],
        ["Mira's brother is in intensive care after the crash"],
        "please forget what I told you about Mira's tattoo plan, I might blurt it out",
        "surprise tattoo",
        "intensive care",
    ),
    "zh": (
        ["小玲偷偷给她老公准备了一个纹身当生日惊喜"],
        ["小玲她哥出车祸了，还在重症监护室"],
        "关于小玲纹身的事，你忘了吧，我怕说漏嘴",
        "纹身",
        "重症监护",
    ),
}


def _asked(client: Client, case: Case, meant_day: int, other_day: int) -> Asked:
    """The two matters lived on their days, then the request as the first turn of a new session."""
    meant, other, request, _, _ = case
    client.agent_create("mia")
    return two_matters_then_ask(
        client,
        "mia",
        (meant, MONDAY + meant_day * DAY),
        (other, MONDAY + other_day * DAY),
        request,
        MONDAY + 9 * DAY,
    )


def _gone_and_kept(client: Client, asked: Asked, case: Case) -> None:
    """A week later the matter meant is nowhere, the other one still there."""
    _, _, _, gone, kept = case
    later = MONDAY + 16 * DAY
    assert gone not in everything(client, "mia", [asked.meant, asked.request], gone, later)
    assert kept in everything(client, "mia", [asked.other], kept, later)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_vague_request_asks_about_the_private_matter(client: Client, lang: str) -> None:
    # The everyday matter told after the private one, both before the request.
    asked = _asked(client, VAGUE[lang], 2, 6)
    # Both matters score near the name: which one is asked, and the question offers the private one.
    assert asked.forgotten["decision"] == "ask", asked.forgotten
    meant = VAGUE[lang][0][0]
    assert meant.startswith(str(asked.forgotten["asked"]).rstrip("…")), asked.forgotten
    said = MONDAY + 9 * DAY + 60_000
    answer = client.session_send(asked.request, YES[lang], ts=said, explain=True).finish()
    assert answer["context"]["forgotten"]["decision"] == "confirmed"
    _gone_and_kept(client, asked, VAGUE[lang])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_request_naming_the_happy_matter_takes_it(client: Client, lang: str) -> None:
    asked = _asked(client, NAMED[lang], 6, 2)
    assert asked.forgotten["decision"] == "forget", asked.forgotten
    _gone_and_kept(client, asked, NAMED[lang])


INSTEAD = {
    "en": ("no, the one about the gate", "no, the other one", "nope"),
    "zh": ("不是，是他修门那次", "不对，是另一件", "不是"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("which", [0, 1])
def test_a_no_that_names_the_other_matter_forgets_that_one(
    client: Client, lang: str, which: int
) -> None:
    """The question offered the private matter; "no, the one about the gate" (or "no, the other
    one") names the one meant: it goes, and the one offered is shown again, kept."""
    asked = _asked(client, VAGUE[lang], 2, 6)
    assert asked.forgotten["decision"] == "ask", asked.forgotten
    said = MONDAY + 9 * DAY + 60_000
    answer = client.session_send(asked.request, INSTEAD[lang][which], ts=said, explain=True)
    forgotten = answer.finish()["context"]["forgotten"]
    assert forgotten is not None and forgotten["decision"] == "forget", forgotten
    meant, _, _, private, everyday = VAGUE[lang]
    later = MONDAY + 16 * DAY
    assert everyday not in everything(client, "mia", [asked.other, asked.request], everyday, later)
    assert private in everything(client, "mia", [asked.meant], private, later)
    assert private in found(client, "mia", meant[0], later)  # no longer held back from recall


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bare_no_forgets_nothing(client: Client, lang: str) -> None:
    asked = _asked(client, VAGUE[lang], 2, 6)
    said = MONDAY + 9 * DAY + 60_000
    answer = client.session_send(asked.request, INSTEAD[lang][2], ts=said, explain=True)
    assert answer.finish()["context"]["forgotten"] is None
    meant, other, _, private, everyday = VAGUE[lang]
    later = MONDAY + 16 * DAY
    assert private in found(client, "mia", meant[0], later)
    assert everyday in found(client, "mia", other[0], later)


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "I meant the one about the gate"), ("zh", "我说的是他修门那次")]
)
def test_saying_what_was_meant_without_a_no_names_it_too(
    client: Client, lang: str, said: str
) -> None:
    asked = _asked(client, VAGUE[lang], 2, 6)
    at = MONDAY + 9 * DAY + 60_000
    forgotten = client.session_send(asked.request, said, ts=at, explain=True).finish()["context"]
    assert (forgotten["forgotten"] or {}).get("decision") == "forget", forgotten["forgotten"]
    meant, _, _, private, everyday = VAGUE[lang]
    later = MONDAY + 16 * DAY
    assert everyday not in everything(client, "mia", [asked.other, asked.request], everyday, later)
    assert private in found(client, "mia", meant[0], later)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "I meant it"),
        ("zh", "我说的是那个"),
        ("en", "no, I want to tell you about the gate Walt fixed instead"),
        ("zh", "不是，我想跟你聊聊老王修门"),
    ],
)
def test_an_answer_that_names_no_matter_forgets_nothing(
    client: Client, lang: str, said: str
) -> None:
    """ "I meant it" names nothing and points at nothing else; "no, I want to tell you about …"
    says something new, though it holds the other matter's words: nothing is forgotten on either."""
    asked = _asked(client, VAGUE[lang], 2, 6)
    at = MONDAY + 9 * DAY + 60_000
    forgotten = client.session_send(asked.request, said, ts=at, explain=True).finish()["context"]
    assert forgotten["forgotten"] is None
    _, other, _, _, everyday = VAGUE[lang]
    later = MONDAY + 16 * DAY
    assert everyday in found(client, "mia", other[0], later)
