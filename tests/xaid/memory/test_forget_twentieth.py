"""The twentieth pass's telling over several lines (issue 24 item 2), with the real default
embedder in both languages: a line of a telling that holds nothing tying it to the lines around it
(no pronoun, no aspect word, little meaning in common: "didn't even send photos", 人直接联系不上了) is
passed over and taken when a line further on joins the telling (forget_topic.BRIDGE_TURNS), both
for a request naming the matter (forget_topic._span) and for "that" said right after it
(forget_topic.previous_telling); a line of another matter beside the telling, with nothing after it
that joins, stays, and so does a line before a turn that opened a new matter (对了, "anyway").
The telling cases fail on the code before; the neighbour cases are guards."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from xaiclient import Client

from testkit.forgetting import MONDAY, ask, talk
from xaid.embed.use import UseEmbedder
from xaid.memory import forget_topic
from xaid.memory.forget_topic import Candidate

DAY = 86_400_000
HOUR = 3_600_000
MINUTE = 60_000
D0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC
NOW = D0 + 15 * DAY + 20 * HOUR

OLDER = {"en": "my niece started at a new nursery", "zh": "我侄女上幼儿园了"}
# A telling whose middle lines hold nothing of their own that ties them to it, and whose last line
# comes back to it in meaning.
STORY = {
    "en": [
        "my landlord kept my whole deposit",
        "didn't even send photos",
        "two years of paying on time for nothing",
        "so I'm taking the landlord to the small claims court over the deposit",
    ],
    "zh": [
        "装修的时候被包工头骗走了五万块",
        "人直接联系不上了",
        "合同上的公司也查不到",
        "我只能去派出所报案说装修款被骗了",
    ],
}
REQUEST = {"en": "the deposit dispute with my landlord", "zh": "装修被骗"}
# Another matter beside the telling, with no marker of its own.
BESIDE = {"en": "the kids want pancakes on saturday", "zh": "我家阳台上的茉莉开花了"}
BEFORE = {"en": "anyway, the plumber came round", "zh": "对了，水管师傅来过了"}


@pytest.fixture(scope="module")
def embed(use_embedder: UseEmbedder) -> Callable[[list[str]], np.ndarray]:
    return lambda texts: np.asarray(use_embedder.embed(texts), dtype=np.float32)


def told(lines: list[str]) -> list[Candidate]:
    start = D0 + 8 * DAY + 21 * HOUR
    return [Candidate(i + 1, "told", start + i * MINUTE, text) for i, text in enumerate(lines)]


def resolve(
    embed: Callable[[list[str]], np.ndarray], lang: str, session: list[str]
) -> tuple[forget_topic.Resolution, list[str]]:
    cands = [Candidate(0, "older", D0 + 3 * DAY + 19 * HOUR, OLDER[lang]), *told(session)]
    phrase = REQUEST[lang]
    res = forget_topic.resolve(
        phrase, embed([phrase])[0], cands, embed([c.text for c in cands]), phrase, NOW
    )
    return res, [cands[i].text for i in res.message_ids]


def previous(embed: Callable[[list[str]], np.ndarray], session: list[str]) -> list[str]:
    turns = told(session)
    units = forget_topic.unit_rows(embed([c.text for c in turns]))
    res = forget_topic.previous_telling(turns, units, turns[-1].ts_ms + MINUTE)
    return sorted(turns[m.message_id - 1].text for m in res.matches)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_named_telling_goes_whole_through_lines_that_hold_nothing_of_it(
    embed: Callable[[list[str]], np.ndarray], lang: str
) -> None:
    res, texts = resolve(embed, lang, STORY[lang])
    assert res.decision == "forget", res
    assert sorted(texts) == sorted(STORY[lang])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_that_said_after_a_telling_takes_it_whole(
    embed: Callable[[list[str]], np.ndarray], lang: str
) -> None:
    assert previous(embed, STORY[lang]) == sorted(STORY[lang])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_line_of_another_matter_after_the_telling_stays(
    embed: Callable[[list[str]], np.ndarray], lang: str
) -> None:
    """Passed over, it joins nothing: no line of the telling follows it."""
    res, texts = resolve(embed, lang, [*STORY[lang], BESIDE[lang]])
    assert res.decision == "forget", res
    assert BESIDE[lang] not in texts and OLDER[lang] not in texts


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_what_was_said_before_a_turn_that_opened_a_new_matter_stays(
    embed: Callable[[list[str]], np.ndarray], lang: str
) -> None:
    """ "That" after "对了，…" / "anyway, …" and a line on from it: what came before is another
    matter, whatever its meaning."""
    session = [STORY[lang][0], BEFORE[lang], BESIDE[lang]]
    assert STORY[lang][0] not in previous(embed, session)


# A conversation that was the telling and nothing else, then a request naming it: its episode was
# made of those turns alone, so it goes whole, the mood it closed on with it (forget.derived).
# Fails on the code before: the summary's quotes went, its frame and closing mood stayed.
WHOLE = {
    "en": (
        [
            "my dog Biscuit swallowed a sock and the vet had to operate",
            "Biscuit's surgery cost two thousand and I'm heartbroken and broke",
        ],
        "please forget what I told you about Biscuit's surgery",
    ),
    "zh": (
        [
            "我家狗狗豆豆误吞了袜子，兽医给豆豆做了手术",
            "豆豆的手术花了两千块，我难过得哭了一整晚，心都碎了",
        ],
        "豆豆做手术那件事，你忘了吧",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_episode_of_a_conversation_wholly_forgotten_goes(client: Client, lang: str) -> None:
    lines, request = WHOLE[lang]
    client.agent_create("mia")
    other = talk(client, "mia", [OLDER[lang]], MONDAY)
    told_in = talk(client, "mia", lines, MONDAY + 3 * DAY)
    episodes = client.memory_list("mia", kind="episode")["items"]
    assert len(episodes) == 2
    _sid, forgotten = ask(client, "mia", request, MONDAY + 5 * DAY)
    assert forgotten["decision"] == "forget", forgotten
    left = client.memory_list("mia", kind="episode")["items"]
    assert [e["session_id"] for e in left] == [other], left
    assert told_in in {e["session_id"] for e in episodes}
