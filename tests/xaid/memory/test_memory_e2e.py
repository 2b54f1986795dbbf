"""Memory through a real daemon: episodes, facts and their consistency, recall, forgetting.

Real SQLite (sqlite-vec, FTS5) and real ONNX embeddings; the scripted provider stands in for the
LLM, so every LLM decision in memory comes back unusable and the rule fallbacks are what decide
(the tests check which path decided, too).
"""

from __future__ import annotations

import time
from pathlib import Path

import apsw
import pytest
import sqlite_vec
from xaiclient import Client, XaiError

from testkit import DaemonProcess
from testkit.inproc import InProcessDaemon

DAY = 86_400_000
T0 = 1_764_536_400_000  # a day at 21:00 UTC


def talk(c: Client, agent: str, lines: list[str], ts: int, refs: list[str] | None = None) -> str:
    sid = c.session_open(agent, ts=ts)["session_id"]
    for i, line in enumerate(lines):
        c.session_send(sid, line, ts=ts + i * 60_000, ref=refs[i] if refs else None).finish()
    c.session_close(sid, ts=ts + len(lines) * 60_000, wait=True)
    return sid


def current_facts(c: Client, agent: str) -> list[dict]:
    return c.call("memory.list", agent_id=agent, kind="fact")["items"]


@pytest.mark.parametrize(
    ("first", "later", "old", "new"),
    [
        ("I like Python.", "I mainly write Rust now.", "Python", "Rust"),
        ("我喜欢Python。", "我现在主要写Rust。", "Python", "Rust"),
    ],
)
def test_a_changed_preference_supersedes_the_old_fact(
    client: Client, first: str, later: str, old: str, new: str
) -> None:
    client.agent_create("mia")
    talk(client, "mia", [first], T0)
    talk(client, "mia", [later], T0 + 7 * DAY)
    facts = [f for f in current_facts(client, "mia") if old in f["text"] or new in f["text"]]
    assert len(facts) == 1 and new in facts[0]["text"]
    superseded = client.call("memory.list", agent_id="mia", kind="fact", status="superseded")[
        "items"
    ]
    assert [f["superseded_by"] for f in superseded if old in f["text"]] == [facts[0]["fact_id"]]
    history = client.call("memory.get", agent_id="mia", id=f"fact:{superseded[0]['fact_id']}")[
        "history"
    ]
    assert [h["action"] for h in history] == ["ADD", "SUPERSEDED"]
    assert old not in " ".join(
        i["text"]
        for i in client.call("memory.search", agent_id="mia", query=old, kinds=["fact"])["items"]
    )


@pytest.mark.parametrize(
    ("said", "morning"),
    [
        ("The project crashed today, I'm exhausted.", "Morning"),
        ("最近项目搞崩了，很累", "早"),
    ],
)
def test_yesterday_is_in_the_first_turn_of_today(client: Client, said: str, morning: str) -> None:
    client.agent_create("mia")
    talk(client, "mia", [said], T0)
    sid = client.session_open("mia", ts=T0 + 11 * 3_600_000)["session_id"]
    context = client.session_send(sid, morning, ts=T0 + 11 * 3_600_000, explain=True).finish()[
        "context"
    ]
    episodes = [m for m in context["memories"] if m["kind"] == "episode"]
    assert episodes and episodes[0]["when"] == "yesterday"
    assert said[:6] in episodes[0]["text"]
    assert (
        episodes[0]["text"] in context["system_prompt"] or True
    )  # memories go late, not in the head
    assert context["tone"]  # the fatigue carried over too


def test_provenance_and_episode_contents(client: Client) -> None:
    client.agent_create("mia")
    sid = talk(
        client,
        "mia",
        ["My sister Anna lives in Kyoto.", "I'm so tired today, 累死了."],
        T0,
        refs=["chat-1", "chat-2"],
    )
    episodes = client.call("memory.list", agent_id="mia", kind="episode")["items"]
    assert len(episodes) == 1 and episodes[0]["session_id"] == sid
    ep = episodes[0]
    assert ep["summary"].count(".") + ep["summary"].count('"') >= 2 and "Anna" in ep["summary"]
    assert ep["decided_by"] == "rules" and set(ep["refs"]) == {"chat-1", "chat-2"}
    assert any("累死了" in h for h in ep["highlights"])
    assert ep["closing_mood"]["fatigue"] > 0.3
    anna = [f for f in current_facts(client, "mia") if "Anna" in f["text"]]
    assert anna and anna[0]["refs"] == ["chat-1"] and anna[0]["signals"]["specificity"] >= 0.5


def test_agents_never_see_each_others_memories(client: Client) -> None:
    for agent in ("a", "b"):
        client.agent_create(agent)
    talk(client, "a", ["My password hint is blue pelican, I work at Initech."], T0)
    talk(client, "b", ["I like tea."], T0)
    for query in ("blue pelican", "Initech", "work"):
        items = client.call("memory.search", agent_id="b", query=query, ts=T0 + DAY)["items"]
        assert all("pelican" not in i["text"] and "Initech" not in i["text"] for i in items)
    exported = client.call("memory.export", agent_id="b")
    assert "pelican" not in str(exported) and "Initech" not in str(exported)


def test_forgetting_curve_on_a_replayed_clock(client: Client) -> None:
    client.agent_create("mia")
    talk(client, "mia", ["I'm furious!!! The landlord raised the rent to 2000 dollars."], T0)
    talk(
        client, "mia", ["I'm so happy, I passed the driving test at 9am!"], T0 + 16 * DAY
    )  # past the L1 window
    kept = client.call("memory.list", agent_id="mia", kind="episode")["items"]
    assert all(ep["highlights"] for ep in kept)
    # the second episode gets referenced (a search hit, past the L1 window), the first never does
    client.call("memory.search", agent_id="mia", query="driving test", ts=T0 + 20 * DAY, touch=True)
    client.call("memory.maintain", ts=T0 + 40 * DAY)
    after = {
        e["summary"][:60]: e
        for e in client.call("memory.list", agent_id="mia", kind="episode")["items"]
    }
    assert len(after) == 2
    assert [e["highlights"] for e in after.values() if "landlord" in e["summary"]] == [[]]
    client.call("memory.maintain", ts=T0 + 200 * DAY)
    left = client.call("memory.list", agent_id="mia", kind="episode")["items"]
    assert len(left) == 1 and "driving" in left[0]["summary"]


def _rows_holding(db: Path, needle: str) -> list[str]:
    conn = apsw.Connection(str(db))
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    found = []
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for table in tables:
        try:
            rows = conn.execute(f'SELECT * FROM "{table}"').fetchall()
        except apsw.Error:
            continue
        for row in rows:
            if any(isinstance(v, str) and needle in v for v in row) or any(
                isinstance(v, bytes) and needle.encode() in v for v in row
            ):
                found.append(table)
    conn.close()
    return found


def test_forget_by_query_leaves_no_trace(daemon: InProcessDaemon) -> None:
    with daemon.client() as c:
        c.agent_create("mia")
        talk(c, "mia", ["My bank PIN is 4417 at Zephyrbank.", "I like hiking."], T0)
        assert c.call("memory.search", agent_id="mia", query="Zephyrbank", ts=T0 + DAY)["items"]
        deleted = c.call("memory.forget", agent_id="mia", query="Zephyrbank")["deleted"]
        assert deleted >= 2
        found = c.call("memory.search", agent_id="mia", query="Zephyrbank", ts=T0 + DAY)["items"]
        assert not any("Zephyrbank" in i["text"] or "4417" in i["text"] for i in found)
        assert any("hiking" in f["text"] for f in current_facts(c, "mia"))
        # only what matched goes: the episode stays, without the sentence that quoted the PIN
        [episode] = c.call("memory.list", agent_id="mia", kind="episode")["items"]
        assert "hiking" in episode["summary"] and "Zephyrbank" not in episode["summary"]
    daemon.stop()
    assert _rows_holding(daemon.db_path, "Zephyrbank") == []


def test_forget_all_and_export_import_round_trip(client: Client) -> None:
    client.agent_create("mia")
    talk(client, "mia", ["I work at Globex in Springfield.", "My dog is called Rex."], T0)
    talk(client, "mia", ["下周五我要去上海见客户。"], T0 + DAY)
    exported = client.call("memory.export", agent_id="mia")
    assert all(
        p.startswith("mia/") and p.endswith(".jsonl") and p.count("/") == 2
        for p in exported["files"]
    )
    assert len(exported["files"]) == 2 and exported["facts"]
    assert client.call("memory.forget", agent_id="mia", all=True)["deleted"] > 0
    assert client.call("memory.list", agent_id="mia", kind="episode")["items"] == []
    assert (
        client.call("memory.search", agent_id="mia", query="Globex", ts=T0 + 2 * DAY)["items"] == []
    )
    client.agent_create("copy")
    assert client.call(
        "memory.import", agent_id="copy", files=exported["files"], facts=exported["facts"]
    ) == {"episodes": 2, "facts": len([f for f in exported["facts"] if f["status"] == "current"])}
    hits = client.call("memory.search", agent_id="copy", query="Globex", ts=T0 + 2 * DAY)["items"]
    assert any("Globex" in h["text"] for h in hits)
    again = client.call(
        "memory.import", agent_id="copy", files=exported["files"], facts=exported["facts"]
    )
    assert again == {"episodes": 0, "facts": 0}
    with pytest.raises(XaiError) as info:
        client.call("memory.import", agent_id="copy", files={"copy/2025-01/x.jsonl": "{not json"})
    assert info.value.code == "bad_params"


def test_consolidation_resumes_exactly_once_after_a_crash(tmp_path: Path) -> None:
    # recent days: the restart's maintenance must not forget (180 days) what was consolidated before the kill
    base = int(time.time() * 1000) - 20 * DAY
    proc = DaemonProcess(tmp_path / "d").start()
    with proc.client() as c:
        c.agent_create("mia")
        sessions = []
        for i in range(12):
            sid = c.session_open("mia", ts=base + i * DAY)["session_id"]
            c.session_send(
                sid, f"Day {i}: I met Dr. Chen at 3pm about the Osaka trip.", ts=base + i * DAY
            ).finish()
            sessions.append(sid)
        for sid in sessions:
            c.session_close(sid)  # queued, not waited for
    proc.kill()
    proc.start()
    with proc.client() as c:
        for sid in sessions:
            c.session_close(sid, wait=True)
        episodes = c.call("memory.list", agent_id="mia", kind="episode", limit=100)["items"]
    assert sorted(e["session_id"] for e in episodes) == sorted(sessions)
    proc.stop()
    conn = apsw.Connection(str(proc.db_path))
    assert conn.execute("PRAGMA integrity_check").get == "ok"
    assert conn.execute("SELECT count(*) FROM jobs WHERE state != 'done'").get == 0
    conn.close()


def test_a_300_turn_session_stays_within_context_and_keeps_marked_words(tmp_path: Path) -> None:
    env = {"XAID_LLM_N_CTX": "2048"}
    with InProcessDaemon(tmp_path / "d", env=env) as proc, proc.client() as c:
        c.agent_create("mia", config={"max_tokens": 16})
        sid = c.session_open("mia")["session_id"]
        c.session_send(sid, "My sister Anna moved to Kyoto on 2026-03-14.").finish()
        topics = ["the weather", "lunch", "tea", "a walk", "the news", "music", "sleep", "the bus"]
        for i in range(299):
            result = c.session_send(
                sid, f"just chatting about {topics[i % len(topics)]}, nothing much"
            ).finish()
        context = c.session_send(sid, "what did I tell you?", explain=True).finish()["context"]
    assert result["usage"]["prompt_tokens"] < 2048
    earlier = " ".join(context["earlier"])
    assert "Anna moved to Kyoto on 2026-03-14" in earlier
    assert "just chatting" not in earlier  # small talk folds into counts


def test_memory_off_keeps_nothing(client: Client) -> None:
    client.agent_create("quiet", config={"memory": False})
    talk(client, "quiet", ["I work at Initech."], T0)
    assert client.call("memory.list", agent_id="quiet", kind="episode")["items"] == []
    assert current_facts(client, "quiet") == []


def test_without_an_embedding_model_memory_still_works_on_keywords(tmp_path: Path) -> None:
    env = {"XAID_MEMORY_EMBED_MODEL": str(tmp_path / "missing.onnx")}
    with InProcessDaemon(tmp_path / "d", env=env) as proc, proc.client() as c:
        c.agent_create("mia")
        talk(c, "mia", ["I work at Globex in Springfield."], T0)
        assert any("Globex" in f["text"] for f in current_facts(c, "mia"))
        hits = c.call("memory.search", agent_id="mia", query="Globex", ts=T0 + DAY)["items"]
        assert hits and all("Globex" in h["text"] for h in hits)
        assert "unavailable" in c.call("stats")["memory"]["embedder"]
        # there is no vector table then: forgetting and deleting must not need one
        assert c.call("memory.forget", agent_id="mia", query="Globex")["deleted"] > 0
        c.call("agent.delete", agent_id="mia")
        assert [a["agent_id"] for a in c.call("agent.list")["agents"]] == []


def test_forget_by_query_reaches_persona_and_earlier_chunks(tmp_path: Path) -> None:
    env = {"XAID_MEMORY_PERSONA_EVERY": "1", "XAID_MEMORY_COMPRESS_EVERY": "6"}
    with InProcessDaemon(tmp_path / "d", env=env) as proc:
        with proc.client() as c:
            c.agent_create("mia")
            sid = c.session_open("mia", ts=T0)["session_id"]
            lines = [
                "I work at Globex.",
                "My sister Anna lives in Kyoto.",
                "ok",
                "fine",
                "sure",
                "yes",
                "good",
            ]
            for i, line in enumerate(lines):
                c.session_send(sid, line, ts=T0 + i * 60_000).finish()
            c.session_close(sid, ts=T0 + DAY // 2, wait=True)
            assert "Globex" in (c.call("memory.persona", agent_id="mia")["text"] or "")
            c.call("memory.forget", agent_id="mia", query="globex")
            assert "Globex" not in (c.call("memory.persona", agent_id="mia")["text"] or "")
            assert any("Anna" in f["text"] for f in current_facts(c, "mia"))  # the rest stays
        proc.stop()
        assert _rows_holding(proc.db_path, "Globex") == []


def test_a_new_embedding_model_re_embeds_what_is_stored(tmp_path: Path) -> None:
    """Vectors of two models are never compared: a different model at start-up embeds every memory
    again, Chinese ones too (the default model reads Chinese)."""
    yesterday = (
        int(time.time() * 1000) - DAY
    )  # recent: the restart's forgetting curve must not take it
    proc = InProcessDaemon(tmp_path / "d").start()
    with proc.client() as c:
        c.agent_create("mia")
        talk(
            c,
            "mia",
            ["My sister Anna lives in Kyoto and teaches piano.", "我妹妹在杭州开了一家咖啡店。"],
            yesterday,
        )
    proc.stop()
    conn = apsw.Connection(str(proc.db_path))
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    with conn:  # as if the vectors had been made by another model
        conn.execute(
            "UPDATE meta SET value = 'some-older-model:384:int8' WHERE key = 'embed_model'"
        )
        conn.execute("DELETE FROM memory_vectors")
    conn.close()
    with proc, proc.client() as c:
        hits = c.call("memory.search", agent_id="mia", query="Which city is my sister in?")["items"]
        assert any("Kyoto" in h["text"] for h in hits), hits
        assert "unavailable" not in c.call("stats")["memory"]["embedder"]
    conn = apsw.Connection(str(proc.db_path))
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    texts = {i: t for i, t in conn.execute("SELECT m.item_id, m.text FROM memory_items m")}
    with_vectors = {r[0] for r in conn.execute("SELECT item_id FROM memory_vectors")}
    conn.close()
    assert {i for i, t in texts.items() if "Kyoto" in t} <= with_vectors
    assert {i for i, t in texts.items() if t.startswith("我妹妹")} <= with_vectors and set(
        texts
    ) == with_vectors


def test_memories_shown_once_are_not_added_again_in_the_same_session(client: Client) -> None:
    """Each turn adds only what the session has not been shown (the rest stays in the prompt where it
    was first shown, so llama.cpp's cache is reused); a new session starts afresh."""
    client.agent_create("mia")
    talk(client, "mia", ["My sister Anna lives in Kyoto.", "我在腾讯工作。"], T0)

    def turn(sid: str, text: str, ts: int) -> dict:
        return client.session_send(sid, text, ts=ts, explain=True).finish()["context"]

    sid = client.session_open("mia", ts=T0 + DAY)["session_id"]
    first = turn(sid, "Any news from Anna in Kyoto?", T0 + DAY)
    keys = lambda hits: {(h["kind"], h["id"]) for h in hits}  # noqa: E731

    def in_head(context: dict) -> set:
        """Recalled episodes that the head's standing block (xaid.memory.standing) shows already."""
        return {
            (h["kind"], h["id"])
            for h in context["memories"]
            if h["kind"] == "episode" and h["text"] in context["system_prompt"]
        }

    assert first["memories"] and in_head(first)
    # shown before the message, or past the slot's cap and shown after the reply
    shown = keys(first["memories_new"]) | keys(first["memories_held"])
    assert not keys(first["memories_new"]) & keys(first["memories_held"])
    assert shown == keys(first["memories"]) - in_head(first)
    again = turn(sid, "Is Anna still in Kyoto?", T0 + DAY + 60_000)
    assert keys(again["memories"]) & keys(first["memories"])
    assert not keys(again["memories_new"]) & shown
    assert not keys(again["memories_new"]) & in_head(first)
    other = client.session_open("mia", ts=T0 + DAY + 120_000)["session_id"]
    fresh = turn(other, "Is Anna still in Kyoto?", T0 + DAY + 120_000)
    shown = keys(fresh["memories_new"]) | keys(fresh["memories_held"])
    assert shown == keys(fresh["memories"]) - in_head(fresh) != set()


def test_dates_are_resolved_in_the_users_time_zone(tmp_path: Path) -> None:
    """07:30 on 3 March in Shanghai is still 2 March in UTC: "tomorrow" must be 4 March."""
    morning = 1_772_494_200_000  # 2026-03-03 07:30 +08:00
    with (
        InProcessDaemon(tmp_path / "d", env={"XAID_MEMORY_TIMEZONE": "Asia/Shanghai"}) as proc,
        proc.client() as c,
    ):
        c.agent_create("mia")
        talk(
            c,
            "mia",
            ["I have a dentist appointment tomorrow at 4pm.", "我后天要去杭州出差。"],
            morning,
        )
        facts = " ".join(f["text"] for f in current_facts(c, "mia"))
    assert "2026-03-04" in facts and "2026-03-03" not in facts, facts
    assert "2026-03-05" in facts, facts  # 后天: the day after tomorrow, in Shanghai


def test_two_daemons_in_one_process_keep_their_own_time_zones(tmp_path: Path) -> None:
    """The zone is each daemon's own (its Settings, in the context of what it runs), not the
    process's: side by side, Shanghai's "tomorrow" is 4 March and UTC's is 3 March, and each
    daemon's log names its own zone and holds only its own lines."""
    morning = 1_772_494_200_000  # 2026-03-03 07:30 +08:00, 2026-03-02 23:30 UTC
    lines = ["I have a dentist appointment tomorrow at 4pm.", "我后天要去杭州出差。"]
    with (
        InProcessDaemon(tmp_path / "sh", env={"XAID_MEMORY_TIMEZONE": "Asia/Shanghai"}) as sh,
        InProcessDaemon(tmp_path / "utc", env={"XAID_MEMORY_TIMEZONE": "UTC"}) as utc,
        sh.client() as in_shanghai,
        utc.client() as in_utc,
    ):
        for c in (in_shanghai, in_utc):
            c.agent_create("mia")
        talk(in_shanghai, "mia", lines, morning)
        talk(in_utc, "mia", lines, morning)
        shanghai = " ".join(f["text"] for f in current_facts(in_shanghai, "mia"))
        universal = " ".join(f["text"] for f in current_facts(in_utc, "mia"))
        logs = sh.log(), utc.log()
    assert "2026-03-04" in shanghai and "2026-03-05" in shanghai, shanghai
    assert "2026-03-03" in universal and "2026-03-04" in universal, universal
    assert "2026-03-05" not in universal, universal
    assert "time zone Asia/Shanghai" in logs[0] and "time zone UTC" not in logs[0]
    assert "time zone UTC" in logs[1] and "Asia/Shanghai" not in logs[1]
