"""Export, import into a fresh agent, export again: every field a person's memory holds comes back
(issue 22 item 11: the highlights did not; nor did superseded facts, fact histories, the mood or
the scheduler's follow-ups). Real daemon and database; the scripted provider stands in for the
model (the memory is written by the rules at consolidation).

What may differ is the device's own: ids (compared through what they point at), session keys,
``decided_by`` (``import`` on the copy), reference counts, and the persona, which is not imported
(the next consolidation rewrites it from the facts)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from xaiclient import Client

T0 = 1_764_619_200_000  # 2025-12-01 20:00 UTC
DAY = 86_400_000

EVENINGS = {
    "en": [
        [
            "I work at Globex as a designer.",
            "My sister Ana is getting married in Porto next month.",
            "I'm so exhausted today, the whole project crashed and I cried at my desk.",
        ],
        [
            "I work at Initech now, I switched jobs last week.",
            "I'm really nervous about my driving test on Friday.",
        ],
    ],
    "zh": [
        [
            "我住在杭州，在一家小公司做设计。",
            "我妹妹下个月在苏州结婚。",
            "今天累死了，项目全崩了，我在工位上哭了。",
        ],
        ["我搬到上海了，上周刚搬的。", "周五要考驾照，好紧张。"],
    ],
}


def live(client: Client, agent: str, lang: str) -> None:
    for n, lines in enumerate(EVENINGS[lang]):
        ts = T0 + n * 3 * DAY
        sid = client.session_open(agent, ts=ts)["session_id"]
        for i, line in enumerate(lines):
            client.session_send(sid, line, ts=ts + i * 60_000, ref=f"m{n}-{i}").finish()
        client.session_close(sid, ts=ts + len(lines) * 60_000, wait=True)
    client.call(
        "scheduler.arm",
        agent_id=agent,
        topic="the dentist" if lang == "en" else "看牙医",
        keywords=["dentist"] if lang == "en" else ["牙医"],
        ts=T0 + 7 * DAY,
        not_before=T0 + 8 * DAY,
    )
    client.call("scheduler.config", agent_id=agent, quiet=True, min_gap_hours=36)


def person(exported: dict[str, Any]) -> dict[str, Any]:
    """The export without what is the device's own: ids become what they point at."""
    lines = [
        json.loads(line)
        for text in exported["files"].values()
        for line in text.splitlines()
        if line.strip()
    ]
    summary = {e["episode_id"]: e["summary"] for e in lines if "episode_id" in e}
    fact_text = {f["fact_id"]: f["text"] for f in exported["facts"]}
    episodes = sorted(
        (
            {
                **{
                    k: v
                    for k, v in e.items()
                    if k not in {"episode_id", "session_id", "agent_id", "decided_by", "fact_refs"}
                },
                "facts": sorted(fact_text[i] for i in e.get("fact_refs", [])),
            }
            for e in lines
        ),
        key=lambda e: (e.get("started_ms", 0), e.get("summary", "")),
    )
    facts = sorted(
        (
            {
                **{
                    k: v
                    for k, v in f.items()
                    if k
                    not in {"fact_id", "decided_by", "ref_count", "superseded_by", "episode_id"}
                },
                "superseded_by": fact_text.get(f["superseded_by"]),
                "episode": summary.get(f["episode_id"]),
                "history": [
                    {**h, "other_fact": fact_text.get(h["other_fact"])} for h in f["history"]
                ],
            }
            for f in exported["facts"]
        ),
        key=lambda f: (f["created_ms"], f["text"], f["status"]),
    )
    items = sorted(
        (
            {
                **{k: v for k, v in i.items() if k not in {"item_id", "pushed_session"}},
                "source_episode": summary.get(i["source_episode"]),
            }
            for i in exported["scheduler"]["items"]
        ),
        key=lambda i: (i["created_ms"], i["topic"]),
    )
    return {
        "episodes": episodes,
        "facts": facts,
        "mood": exported["mood"],
        "follow_ups": items,
        "settings": exported["scheduler"]["settings"],
    }


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_export_import_export_gives_back_every_field_of_the_memory(
    client: Client, lang: str
) -> None:
    client.agent_create("mia", name="Kai")
    live(client, "mia", lang)
    first = client.memory_export("mia")
    before = person(first)
    # the test is only as strong as what the memory holds: every kind of field is there
    assert len(before["episodes"]) == 2 and all(e["highlights"] for e in before["episodes"])
    assert all(e["utterances"] for e in before["episodes"])
    assert {f["status"] for f in before["facts"]} >= {"current", "superseded"}
    assert any(len(f["history"]) > 1 for f in before["facts"])
    assert before["mood"] is not None and len(before["follow_ups"]) >= 2
    assert before["settings"] is not None and before["settings"]["quiet"] is True

    client.agent_create("copy", name="Kai")
    added = client.call(
        "memory.import",
        agent_id="copy",
        files=first["files"],
        facts=first["facts"],
        mood=first["mood"],
        scheduler=first["scheduler"],
    )
    assert added["episodes"] == 2 and added["facts"] == len(first["facts"])
    assert added["follow_ups"] == len(before["follow_ups"])
    after = person(client.memory_export("copy"))
    for key in before:
        assert after[key] == before[key], key

    # a second import of the same export adds nothing
    again = client.call(
        "memory.import",
        agent_id="copy",
        files=first["files"],
        facts=first["facts"],
        mood=first["mood"],
        scheduler=first["scheduler"],
    )
    assert again == {"episodes": 0, "facts": 0, "follow_ups": 0}
    assert person(client.memory_export("copy")) == after


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"started_ms": T0 + 60_000, "ended_ms": T0}, "'started_ms' is after 'ended_ms'"),
        (
            {"started_ms": T0, "ended_ms": T0, "highlights": [{"text": "好累", "intensity": 3}]},
            "intensity",
        ),
    ],
)
def test_an_episode_out_of_order_is_refused_and_nothing_is_written(
    client: Client, bad: dict[str, Any], message: str
) -> None:
    """Also noted in issue 22: memory.import took started_ms > ended_ms."""
    client.agent_create("mia")
    good = {"session_id": "s_a", "started_ms": T0, "ended_ms": T0 + 1, "summary": "They met."}
    files = {"x/a.jsonl": json.dumps(good) + "\n" + json.dumps({**bad, "summary": "那天很累。"})}
    with pytest.raises(Exception) as info:
        client.memory_import("mia", files=files)
    assert getattr(info.value, "code", None) == "bad_params" and message in str(info.value)
    assert client.memory_list("mia", kind="episode")["items"] == []
