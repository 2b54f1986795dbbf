"""Imported history feels what the live turn feels (issue 24 item 5, feel15): ``session.ingest``
reads each user message as a live turn reads it (conversation/feeling.py: the rules, and meaning
where they are weak, tears read by the words beside them and the mood before), so the mood an
import leaves is the mood the same words said live leave, in both languages. Real socket, SQLite and
the default embedder (USE-multilingual-v3); the scripted provider writes the live replies."""

from __future__ import annotations

from typing import Any

import pytest
from xaiclient import Client

NIGHT = 1_764_536_400_000  # day 0, 21:00 UTC
MINUTE = 60_000


def imported(c: Client, agent: str, lines: list[str], roles: list[str] | None = None) -> None:
    c.agent_create(agent)
    sid = c.session_open(agent, ts=NIGHT)["session_id"]
    c.session_ingest(
        sid,
        [
            {"role": (roles or ["user"] * len(lines))[i], "text": line, "ts": NIGHT + i * MINUTE}
            for i, line in enumerate(lines)
        ],
    )


def lived(c: Client, agent: str, lines: list[str]) -> dict[str, Any]:
    c.agent_create(agent)
    sid = c.session_open(agent, ts=NIGHT)["session_id"]
    context: dict[str, Any] = {}
    for i, line in enumerate(lines):
        context = c.session_send(sid, line, ts=NIGHT + i * MINUTE, explain=True).finish()["context"]
    mood: dict[str, Any] = context["mood"]
    return mood


def after(c: Client, agent: str, lines: list[str]) -> dict[str, Any]:
    return c.mood_get(agent, ts=NIGHT + (len(lines) - 1) * MINUTE)


@pytest.mark.parametrize(
    "lines",
    [
        ["got ghosted after 3 dates"],
        ["车年检又没过，真的会谢"],
        ["the wheels came off today. the whole launch, gone"],
        ["破大防了，面试又挂了"],
    ],
)
def test_a_setback_without_a_feeling_word_imported_reads_low(
    client: Client, lines: list[str]
) -> None:
    """The rules alone (what an import read before) find no feeling word in these: the mood stayed
    neutral after the import."""
    imported(client, "mia", lines)
    assert after(client, "mia", lines)["valence"] < -0.1


@pytest.mark.parametrize(
    "lines",
    [
        ["I GOT IN 😭😭😭"],
        ["mum flew in as a surprise for my birthday", "ugly crying in arrivals rn"],
        ["领养申请通过了！！团子是我们家的了", "谁懂啊我直接哭了😭"],
    ],
)
def test_tears_on_good_news_imported_read_as_the_live_turn_reads_them(
    client: Client, lines: list[str]
) -> None:
    """Imported and lived, the same words leave the same mood (tears of joy read good; the second
    and third need the mood right before the tears, read in the import's own transaction)."""
    imported(client, "imported", lines)
    live = lived(client, "live", lines)
    ingested = after(client, "imported", lines)
    assert ingested["valence"] > 0.1
    assert ingested["valence"] == pytest.approx(live["valence"], abs=0.02)


@pytest.mark.parametrize(
    "line", ["去取个干洗的衣服，然后去健身房", "dentist at 3 tomorrow, then picking up Ella"]
)
def test_an_imported_errand_moves_no_mood(client: Client, line: str) -> None:
    imported(client, "mia", [line])
    assert after(client, "mia", [line])["valence"] == 0.0
    assert client.mood_history("mia")["items"] == []


def test_only_the_users_words_are_read(client: Client) -> None:
    """The companion's lines are history too, not the user's feeling: a sad reply moves nothing."""
    lines = ["we move the sofa tomorrow", "I'm so sorry, that sounds heartbreaking. 太难过了"]
    imported(client, "mia", lines, ["user", "assistant"])
    assert client.mood_history("mia")["items"] == []


@pytest.mark.parametrize("opener", ["有人没", "anyone there?"])
def test_an_opener_imported_first_is_left_to_the_rules(client: Client, opener: str) -> None:
    """As at a live session's first turn: "有人没" (anyone there?) is 人没了 (gone) to the embedder,
    and read by meaning it set a grieving low on a greeting."""
    imported(client, "mia", [opener])
    assert after(client, "mia", [opener])["valence"] > -0.05
