"""Imported session ids are re-keyed (xaid.memory.portable.session_key): an import never takes a
live session of any agent, and never carries path parts into an export. Real daemon and database."""

from __future__ import annotations

import json
import time

from xaiclient import Client

T0 = int(time.time() * 1000) - 86_400_000  # recent: the forgetting curve leaves it alone


def _file(session_id: str, summary: str) -> dict[str, str]:
    line = {"session_id": session_id, "started_ms": T0, "ended_ms": T0 + 60_000, "summary": summary}
    return {"x/2026-02/a.jsonl": json.dumps(line) + "\n"}


def test_an_import_carrying_another_agents_open_session_id_leaves_that_session_alone(
    client: Client,
) -> None:
    client.agent_create("mia")
    client.agent_create("kai")
    live = client.session_open("kai", ts=T0)["session_id"]
    assert (
        client.memory_import("mia", files=_file(live, "Mia's imported day at the lighthouse."))[
            "episodes"
        ]
        == 1
    )
    client.session_ingest(
        live, [{"role": "user", "text": "My brother Tomas repairs violins in Lyon.", "ts": T0}]
    )
    episode_id = client.session_close(live, wait=True)["episode_id"]
    assert episode_id is not None
    own = client.memory_get("kai", f"episode:{episode_id}")
    assert own["session_id"] == live and "Tomas" in own["summary"]
    imported = client.memory_list("mia", kind="episode")["items"]
    assert [e["session_id"] for e in imported] != [live]
    assert all(e["session_id"].startswith("x_") for e in imported)


def test_reimporting_the_same_file_adds_nothing_and_the_own_export_round_trips(
    client: Client,
) -> None:
    client.agent_create("mia")
    files = _file("s_0123456789abcdef", "他们聊了杭州的茶园。")
    assert client.memory_import("mia", files=files)["episodes"] == 1
    assert client.memory_import("mia", files=files)["episodes"] == 0
    exported = client.memory_export("mia")
    assert client.memory_import("mia", files=exported["files"])["episodes"] == 0
