"""Mood through the daemon on a replayed clock: the morning scene, mood off, history, reset.

The scripted provider stands in for the LLM; what is checked is the context the model would read
(``explain``) and the mood the daemon keeps.
"""

from __future__ import annotations

import time

import pytest
from xaiclient import Client, XaiError

from xaid.mood.state import HOUR_MS

DAY0_NIGHT = 1_764_536_400_000  # some day, 21:00 UTC
MORNING = DAY0_NIGHT + 11 * HOUR_MS


def yesterday(c: Client, agent: str, text: str, **agent_kw: object) -> None:
    c.agent_create(agent, **agent_kw)  # type: ignore[arg-type]
    sid = c.session_open(agent, ts=DAY0_NIGHT)["session_id"]
    c.session_send(sid, text, ts=DAY0_NIGHT).finish()
    c.session_close(sid, ts=DAY0_NIGHT + 60_000)


@pytest.mark.parametrize("text", ["the project crashed, I'm exhausted", "最近项目搞崩了，很累"])
def test_next_mornings_first_turn_carries_the_tone(client: Client, text: str) -> None:
    yesterday(client, "mia", text)
    sid = client.session_open("mia", ts=MORNING)["session_id"]
    result = client.session_send(
        sid, "Morning" if text.isascii() else "早", ts=MORNING, explain=True
    ).finish()
    context = result["context"]
    assert context["mood"]["fatigue"] > 0.25
    # late in the prompt, in the user's language; the head does not move with the mood
    assert context["tone"] and context["tone"] in context["directive"]
    assert context["tone"] not in context["system_prompt"]
    if text.isascii():
        assert (
            context["tone"].startswith("Tone:")
            and "never say what you think they feel" in context["tone"]
        )
    else:
        assert (
            context["tone"].startswith("语气：")
            and "不要说出你觉得对方是什么情绪" in context["tone"]
        )


def test_mood_off_removes_the_guidance(client: Client) -> None:
    yesterday(client, "plain", "the project crashed, I'm exhausted", config={"mood": False})
    sid = client.session_open("plain", ts=MORNING)["session_id"]
    context = client.session_send(sid, "Morning", ts=MORNING, explain=True).finish()["context"]
    assert context["mood"] is None and context["tone"] is None
    assert "Tone:" not in context["system_prompt"] and "Tone:" not in context["directive"]
    assert client.mood_get("plain", ts=MORNING)["enabled"] is False
    assert client.mood_history("plain")["items"] == []


def test_mood_get_at_times_and_history_and_reset(client: Client) -> None:
    yesterday(client, "mia", "I'm so exhausted, 累死了")
    ten_hours = client.mood_get("mia", ts=DAY0_NIGHT + 10 * HOUR_MS)
    three_days = client.mood_get("mia", ts=DAY0_NIGHT + 72 * HOUR_MS)
    assert ten_hours["fatigue"] > 0.4 and ten_hours["guidance"]
    assert three_days["fatigue"] < 0.1 and three_days["guidance"] is None
    items = client.mood_history("mia")["items"]
    assert len(items) == 1 and items[0]["kind"] == "observe" and items[0]["message_id"] is not None
    assert items[0]["intensity"] >= 0.7 and items[0]["cues"]
    reset = client.mood_reset("mia", ts=DAY0_NIGHT + HOUR_MS)
    assert reset["fatigue"] == 0 and reset["confidence"] == 0
    assert [i["kind"] for i in client.mood_history("mia")["items"]] == ["observe", "reset"]
    with pytest.raises(XaiError) as info:
        client.mood_get("ghost")
    assert info.value.code == "not_found"


def test_ingested_history_moves_the_mood(client: Client) -> None:
    client.agent_create("mia")
    sid = client.session_open("mia", ts=DAY0_NIGHT)["session_id"]
    client.session_ingest(
        sid,
        [
            {"role": "user", "text": "I'm furious, they cancelled my flight!!", "ts": DAY0_NIGHT},
            {"role": "assistant", "text": "Oh no.", "ts": DAY0_NIGHT + 1000},
        ],
    )
    mood = client.mood_get("mia", ts=DAY0_NIGHT + 1000)
    assert mood["valence"] < -0.2 and mood["arousal"] > 0.4


@pytest.mark.parametrize(
    "text", ["the project crashed, I'm exhausted and so sad", "最近项目搞崩了，很累，好难过"]
)
@pytest.mark.parametrize("method", ["send", "ingest"])
def test_a_message_dated_years_ahead_does_not_freeze_the_mood(
    client: Client, text: str, method: str
) -> None:
    """Mood state takes no time past the daemon's clock plus two days (clock.FUTURE_MARGIN_MS)."""
    now = int(time.time() * 1000)
    ahead = now + 3650 * 24 * HOUR_MS
    client.agent_create("mia")
    sid = client.session_open("mia")["session_id"]
    if method == "send":
        client.session_send(sid, text, ts=ahead).finish()
    else:
        client.session_ingest(sid, [{"role": "user", "text": text, "ts": ahead}])
    fresh = client.mood_get("mia")
    later = client.mood_get("mia", ts=now + 7 * 24 * HOUR_MS)
    assert fresh["updated_ms"] <= now + 48 * HOUR_MS + 10 * 60_000
    assert fresh["valence"] < -0.05
    assert abs(later["valence"]) < abs(fresh["valence"]) / 4  # it faded as a week passed
