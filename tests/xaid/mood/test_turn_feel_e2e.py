"""The turn's own feeling through a real daemon (issue 24 item 5, feel14): the mood right after the
message, which the live reply's tone is set from (``explain``'s ``mood``), reads tears on good news
as good and a setback said without a feeling word as low, in both languages. Real socket, SQLite
and the default embedder (USE-multilingual-v3); the scripted provider writes the replies."""

from __future__ import annotations

from typing import Any

import pytest
from xaiclient import Client

NIGHT = 1_764_536_400_000  # day 0, 21:00 UTC


def turn_mood(c: Client, lines: list[str]) -> dict[str, Any]:
    c.agent_create("mia")
    sid = c.session_open("mia", ts=NIGHT)["session_id"]
    context: dict[str, Any] = {}
    for i, line in enumerate(lines):
        context = c.session_send(sid, line, ts=NIGHT + i * 60_000, explain=True).finish()["context"]
    mood: dict[str, Any] = context["mood"]
    return mood


@pytest.mark.parametrize(
    "lines",
    [
        ["I GOT IN 😭😭😭"],
        ["mum flew in as a surprise for my birthday", "ugly crying in arrivals rn"],
        ["领养申请通过了！！团子是我们家的了", "谁懂啊我直接哭了😭"],
    ],
)
def test_tears_on_good_news_read_good_at_the_turn(client: Client, lines: list[str]) -> None:
    """The rules alone read each of these as a low (the crying)."""
    assert turn_mood(client, lines)["valence"] > 0.1


@pytest.mark.parametrize("line", ["got ghosted after 3 dates", "车年检又没过，真的会谢"])
def test_a_setback_without_a_feeling_word_reads_low_at_the_turn(client: Client, line: str) -> None:
    """The rules alone read nothing in these."""
    assert turn_mood(client, [line])["valence"] < -0.1


@pytest.mark.parametrize("line", ["flight got cancelled 😭😭", "去取个干洗的衣服，然后去健身房"])
def test_bad_news_with_tears_stays_low_and_errands_stay_calm(client: Client, line: str) -> None:
    mood = turn_mood(client, [line])
    if "😭" in line:
        assert mood["valence"] < -0.1
    else:
        assert mood["valence"] == 0.0
