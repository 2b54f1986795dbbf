"""What the user's words tell against how they feel (scheduler/telling.py): a matter told after its
feelings is quoted from what happened, and a later session of feelings alone is about the matter
still waiting, not a new one.

The readings are the real ones: the default embedder (USE-multilingual-v3) and the prototypes of
xaid/scheduler/telling.py. The daemon tests go through a real daemon on a real socket with real
SQLite; the scripted provider stands in for the chat model, which arming never calls. The wordings
are written for these tests, not taken from the perf/ dev sets.
"""

from __future__ import annotations

import numpy as np
import pytest
from xaiclient import Client

from xaid.clock import DAY_MS, HOUR_MS
from xaid.embed.use import UseEmbedder
from xaid.mood.meaning import Contrast, session_text
from xaid.scheduler import telling

DAY0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC

# strong feelings (telling.FELT); a weaker one ("浑身发冷" +0.09) is not skipped before the matter
FEELINGS = ["我快哭死了", "我真是个笨蛋", "can't stop shaking", "I'm so scared I can't think"]
TELLINGS = [
    "房东说下个月要收回房子",
    "公司要调我去外地",
    "my landlord is selling the flat",
    "the school called about my son",
]


@pytest.fixture(scope="module")
def bank(use_embedder: UseEmbedder) -> Contrast:
    return telling.BANK.from_vectors(list(np.asarray(use_embedder.embed(telling.BANK.texts()))))


def test_a_feeling_reads_felt_and_what_happened_does_not(
    use_embedder: UseEmbedder, bank: Contrast
) -> None:
    vectors = np.asarray(use_embedder.embed(FEELINGS + TELLINGS))
    told = telling.read(bank, FEELINGS + TELLINGS, list(vectors), vectors[0])
    assert [t in told.felt for t in FEELINGS + TELLINGS] == [True] * 4 + [False] * 4


@pytest.mark.parametrize(
    ("lines", "alone"),
    [
        (["又失眠了", "心里堵得难受"], True),
        (["can't sleep again", "my chest feels so heavy"], True),
        (["又失眠了", "房东说下个月要收回房子"], False),
        (["can't sleep again", "the school called, my son got into a fight"], False),
    ],
)
def test_a_session_of_feelings_alone_says_nothing_else(
    use_embedder: UseEmbedder, bank: Contrast, lines: list[str], alone: bool
) -> None:
    parts = telling.spoken(lines)
    vectors = list(np.asarray(use_embedder.embed([*parts, session_text(lines)])))
    assert telling.read(bank, parts, vectors[:-1], vectors[-1]).alone is alone


def _session(client: Client, agent: str, at: int, lines: list[str]) -> None:
    sid = client.session_open(agent, ts=at)["session_id"]
    client.session_ingest(sid, [{"role": "user", "text": t, "ts": at} for t in lines])
    client.session_close(sid, ts=at + HOUR_MS, wait=True)


def _pending(client: Client, agent: str) -> list[dict[str, object]]:
    return list(client.call("scheduler.list", agent_id=agent, states=["pending"])["items"])


FEELING_FIRST = {
    "zh": ["我快哭死了 房东突然说要把房子收回去 押金也不退"],
    "en": ["can't stop shaking. the school called, my son got suspended for fighting"],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_matter_told_after_its_feelings_is_quoted_from_what_happened(
    client: Client, lang: str
) -> None:
    """Quoted from the first clause, the lead said back the feeling ("上次你说快哭死了，";
    morning_dev37: "上次你说气到睡不着，")."""
    client.agent_create("mia", name="Mia")
    _session(client, "mia", DAY0 + 21 * HOUR_MS, FEELING_FIRST[lang])
    topics = [str(i["topic"]) for i in _pending(client, "mia")]
    assert topics and all(("房东" in t or "school" in t) for t in topics), topics
    assert not any(("哭死" in t or "shaking" in t) for t in topics), topics


WAITING = {
    "zh": (
        ["公司突然说要调我去外地 不去就算主动离职", "我还没想好怎么回他们"],
        ["又失眠了", "心里堵得难受"],
    ),
    "en": (
        ["my boss says they're moving me to the night shift or I can quit", "haven't decided yet"],
        ["can't sleep again", "my chest feels so heavy"],
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_later_session_of_feelings_alone_leaves_the_matter_waiting_first(
    client: Client, lang: str
) -> None:
    """The second session says only how they feel: it arms nothing of its own beside the matter
    told two days before, and the next morning's suggestion is that matter."""
    told, felt = WAITING[lang]
    client.agent_create("mia", name="Mia")
    _session(client, "mia", DAY0 + 20 * HOUR_MS, told)
    before = _pending(client, "mia")
    assert before, "the matter is armed"
    _session(client, "mia", DAY0 + 2 * DAY_MS + 23 * HOUR_MS, felt)
    assert [i["item_id"] for i in _pending(client, "mia")] == [i["item_id"] for i in before]
    at = DAY0 + 4 * DAY_MS + 9 * HOUR_MS
    sid = client.session_open("mia", ts=at)["session_id"]
    result = client.session_send(sid, "早" if lang == "zh" else "morning", ts=at, explain=True)
    suggestion = result.finish()["context"]["suggestion"]
    assert suggestion and ("外地" in suggestion or "night shift" in suggestion), suggestion


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_feelings_alone_are_armed_when_nothing_waits_to_be_asked_soon(
    client: Client, lang: str
) -> None:
    """A plan weeks away asks nothing in the meantime: the night of feelings after it is kept."""
    plan = "12月28号去银行面试" if lang == "zh" else "job interview at the bank on december 28"
    client.agent_create("mia", name="Mia")
    _session(client, "mia", DAY0 + 20 * HOUR_MS, [plan])
    before = {i["item_id"] for i in _pending(client, "mia")}
    _session(client, "mia", DAY0 + 2 * DAY_MS + 23 * HOUR_MS, WAITING[lang][1])
    after = {i["item_id"] for i in _pending(client, "mia")}
    assert before and after > before


@pytest.mark.parametrize(
    ("line", "asides"),
    [
        ("心态崩了 物业说楼上漏水把我家天花板泡坏了 要等保险来定损", ["心态崩了"]),
        ("懵了 今天开会 领导说我们组下个月要解散", ["懵了", "今天开会"]),
        ("ugh, whatever, my landlord says he's keeping the whole deposit", ["ugh", "whatever"]),
        ("我妈昨天摔了一跤 现在在医院 医生说要住院观察", []),  # the headline first
        ("my landlord says he's keeping the whole deposit, ugh", []),
    ],
)
def test_the_clauses_that_only_lead_into_a_line_are_asides(
    use_embedder: UseEmbedder, line: str, asides: list[str]
) -> None:
    """Far from the line's meaning as a whole (telling.ASIDE), where a later clause holds it."""
    parts = telling.spoken([line])
    vectors = list(np.asarray(use_embedder.embed([*parts, line])))
    assert telling.asides(parts, vectors[:-1], vectors[-1]) == asides


ASIDE_FIRST = {
    "zh": ["心态崩了 物业说楼上漏水把我家天花板泡坏了 要等保险来定损"],
    "zh-lines": ["心态崩了", "物业说楼上漏水把我家天花板泡坏了 要等保险来定损"],
    "en": [
        "ok so, long story, my landlord is keeping the whole deposit and I might take him to small claims"
    ],
}


@pytest.mark.parametrize("told", ["zh", "zh-lines", "en"])
def test_a_matter_is_quoted_from_after_the_words_that_lead_into_it(
    client: Client, told: str
) -> None:
    """Quoted from its first clause or line, the lead said back "上次你说破防了，" of a quarter's grade
    C (morning_dev36): the matter is quoted from where the meaning of what they said is."""
    client.agent_create("mia", name="Mia")
    _session(client, "mia", DAY0 + 21 * HOUR_MS, ASIDE_FIRST[told])
    topics = [str(i["topic"]) for i in _pending(client, "mia")]
    assert topics and all(("物业" in t or "landlord" in t) for t in topics), topics
    assert not any(("心态崩了" in t or "long story" in t) for t in topics), topics
