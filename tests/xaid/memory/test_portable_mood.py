"""An imported episode keeps the closing mood it came with (store.memory.ClosingMood): all three
readings when given, only the valence when that is all the file holds, none without a valence.
Real daemon and database."""

from __future__ import annotations

import json
import time

from xaiclient import Client

T0 = int(time.time() * 1000) - 86_400_000  # recent: the forgetting curve leaves it alone


def _line(n: int, summary: str, mood: dict[str, float] | None) -> str:
    line = {
        "session_id": f"s_mood{n}",
        "started_ms": T0 + n,
        "ended_ms": T0 + 60_000 + n,
        "summary": summary,
    }
    if mood is not None:
        line["closing_mood"] = mood
    return json.dumps(line, ensure_ascii=False)


def test_an_imported_closing_mood_is_kept_as_given(client: Client) -> None:
    client.agent_create("mia")
    lines = [
        _line(
            1,
            "They talked about a long night shift at the bakery.",
            {"valence": -0.5, "arousal": 0.3, "fatigue": 0.8},
        ),
        _line(2, "他们聊了周末去爬山的计划。", {"valence": 0.4}),
        _line(3, "They compared two bus routes to the harbour.", None),
    ]
    assert (
        client.memory_import("mia", files={"x/2026-02/a.jsonl": "\n".join(lines) + "\n"})[
            "episodes"
        ]
        == 3
    )
    moods = {
        e["summary"]: e["closing_mood"] for e in client.memory_list("mia", kind="episode")["items"]
    }
    assert moods["They talked about a long night shift at the bakery."] == {
        "valence": -0.5,
        "arousal": 0.3,
        "fatigue": 0.8,
    }
    assert moods["他们聊了周末去爬山的计划。"] == {"valence": 0.4, "arousal": None, "fatigue": None}
    assert moods["They compared two bus routes to the harbour."] == {
        "valence": None,
        "arousal": None,
        "fatigue": None,
    }
