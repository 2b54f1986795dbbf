"""The import boundary (xaid.memory.imported): every imported time, number and string is checked
like a wire param, so a file can be refused (``bad_params``, nothing written) but never leave an
agent whose searches fail. Real daemon, real database, real embeddings."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from xaiclient import Client, XaiError

NOW = int(time.time() * 1000)
FACT = {"text": "The user keeps bees in Umbria.", "status": "current"}
FACT_ZH = {"text": "用户在云南养蜜蜂。", "status": "current"}

BAD_FACTS: list[tuple[str, Any]] = [
    ("created_ms", -70_000_000_000_000),  # before year 1
    ("created_ms", -1),
    ("created_ms", 2**63),
    ("created_ms", 1e300),
    ("created_ms", 10**5000),
    ("value", float("nan")),
    ("value", float("inf")),
    ("value", "0.5"),  # text in a REAL field
    ("value", 3),
    ("valid_from", b"2026-05-03"),  # bytes for a date
    ("valid_to", "not a date"),
    ("signals", {"intensity": float("nan")}),
    ("signals", {"user_refs": 10**400}),
    ("subject", 7),
    ("refs", ["ok", 5]),
    ("text", "x" * 2_001),
]


@pytest.mark.parametrize(
    ("key", "value"), BAD_FACTS, ids=[f"{k}-{i}" for i, (k, _) in enumerate(BAD_FACTS)]
)
def test_a_bad_fact_value_is_bad_params_and_the_agent_still_searches(
    client: Client, key: str, value: Any
) -> None:
    client.agent_create("mia")
    for base in (FACT, FACT_ZH):
        with pytest.raises(XaiError) as info:
            client.memory_import("mia", facts=[{**base, key: value}])
        assert info.value.code == "bad_params" and "facts[0]" in info.value.message
    assert client.memory_list("mia", kind="fact")["items"] == []
    assert client.memory_import("mia", facts=[FACT, FACT_ZH])["facts"] == 2
    assert [h["text"] for h in client.memory_search("mia", "bees Umbria")["items"]][:1] == [
        FACT["text"]
    ]


def _line(**fields: Any) -> dict[str, str]:
    record = {
        "session_id": "s_1",
        "started_ms": NOW - 60_000,
        "ended_ms": NOW,
        "summary": "They talked of bees.",
    }
    return {"mia/2026-12/s_1.jsonl": json.dumps({**record, **fields}, allow_nan=True) + "\n"}


BAD_EPISODES: list[dict[str, Any]] = [
    {"tension": float("nan")},
    {"tension": "high"},
    {"closing_mood": {"valence": float("nan"), "arousal": 0.2, "fatigue": 0.1}},
    {"closing_mood": {"valence": 5, "arousal": 0.2, "fatigue": 0.1}},
    {"started_ms": 2**63},
    {"summary": "x" * 20_001},
    {"refs": [{"a": 1}]},
    {"utterances": [{"role": "user", "text": "hi", "ts": NOW, "speaker": "y" * 201}]},
]


@pytest.mark.parametrize(
    "fields", BAD_EPISODES, ids=[next(iter(f)) + str(i) for i, f in enumerate(BAD_EPISODES)]
)
def test_a_bad_episode_value_is_bad_params(client: Client, fields: dict[str, Any]) -> None:
    client.agent_create("mia")
    with pytest.raises(XaiError) as info:
        client.memory_import("mia", files=_line(**fields))
    assert info.value.code == "bad_params" and "s_1.jsonl:1" in info.value.message
    assert client.memory_import("mia", files=_line())["episodes"] == 1


def test_json_nested_5000_deep_is_bad_params(client: Client) -> None:
    client.agent_create("mia")
    deep = "[" * 5000 + "]" * 5000
    files = {"a.jsonl": '{"summary": "x", "started_ms": 1, "ended_ms": 2, "refs": ' + deep + "}\n"}
    with pytest.raises(XaiError) as info:
        client.memory_import("mia", files=files)
    assert info.value.code == "bad_params" and "nested" in info.value.message


@pytest.mark.parametrize("unit", ["The user keeps bees in Umbria. ", "用户在云南养蜜蜂。"])
def test_a_huge_fact_is_refused_and_a_long_turn_is_found_by_its_head(
    client: Client, unit: str
) -> None:
    """Imported texts are bounded (a fact 2,000 characters); a long turn (≤ 100,000) is embedded by its
    head and found by its words."""
    client.agent_create("mia")
    with pytest.raises(XaiError) as info:
        client.memory_import("mia", facts=[{"text": unit * (250_000 // len(unit))}])
    assert info.value.code == "bad_params" and "2000" in info.value.message
    long_turn = "Zanzibar spices were the start. " + unit * (90_000 // len(unit))
    line = {"session_id": "s_long", "utterances": [{"role": "user", "text": long_turn, "ts": NOW}]}
    assert client.memory_import(
        "mia", files={"a.jsonl": json.dumps(line, ensure_ascii=False) + "\n"}
    )
    assert client.memory_search("mia", "Zanzibar spices")["items"]
