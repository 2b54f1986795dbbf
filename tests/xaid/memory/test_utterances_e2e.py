"""Both sides of a conversation as memory, through a real daemon: what the companion said is found,
updates leave the old statement as history, a date in the query narrows to its day, and forgetting
and export cover the utterances too.

Real SQLite (sqlite-vec, FTS5) and real ONNX embeddings; history goes in by ``session.ingest`` (both
roles, as an app importing a chat would), so no model is involved until the turn test, where the
scripted provider stands in for the LLM (only the prompt's memories are judged).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import apsw
import sqlite_vec
from xaiclient import Client

from testkit.inproc import InProcessDaemon

DAY = 86_400_000
MONDAY = int(
    dt.datetime(2026, 3, 2, 20, 0, tzinfo=dt.UTC).timestamp() * 1000
)  # a Monday, 20:00 UTC


def chat(c: Client, agent: str, turns: list[tuple[str, str]], ts: int, prefix: str = "m") -> str:
    sid = c.session_open(agent, ts=ts)["session_id"]
    messages = [
        {"role": role, "text": text, "ts": ts + i * 60_000, "ref": f"{prefix}{i}"}
        for i, (role, text) in enumerate(turns)
    ]
    c.session_ingest(sid, messages)
    c.session_close(sid, ts=ts + len(turns) * 60_000, wait=True)
    return sid


def search(c: Client, agent: str, query: str, ts: int, **kw: object) -> list[dict]:
    return c.call("memory.search", agent_id=agent, query=query, ts=ts, **kw)["items"]


SLEEP = [
    ("user", "I keep waking up at 4am and can't get back to sleep."),
    (
        "assistant",
        "That sounds rough. You could try reading The Midnight Library before bed, it's gentle.",
    ),
    ("user", "haha ok"),
    ("assistant", "And keep the phone out of the bedroom if you can."),
    ("user", "My back hurts from the new office chair too."),
    ("assistant", "For the back, try the cat-cow stretch for five minutes each morning."),
]
SLEEP_ZH = [
    ("user", "最近总是半夜醒，睡不着。"),
    ("assistant", "听起来挺难受的。我推荐你睡前读《小王子》，很温和。"),
    ("user", "嗯嗯"),
    ("assistant", "腰疼的话，每天早上做五分钟猫牛式拉伸。"),
]


def test_what_the_companion_recommended_is_found_and_marked_as_its_words(client: Client) -> None:
    client.agent_create("mia")
    chat(client, "mia", SLEEP, MONDAY)
    hits = search(client, "mia", "What book did you recommend to me?", MONDAY + 3 * DAY)
    assert hits and "Midnight Library" in hits[0]["text"]
    assert (
        hits[0]["kind"] == "utterance"
        and hits[0]["role"] == "assistant"
        and hits[0]["refs"] == ["m1"]
    )
    assert hits[0]["text"].startswith(
        "[2 March 2026] you:"
    )  # dated and attributed as the prompt shows it
    back = search(client, "mia", "what did you suggest for my back pain?", MONDAY + 3 * DAY)
    assert "cat-cow" in back[0]["text"]
    mine = search(client, "mia", "what time do I wake up at night?", MONDAY + 3 * DAY)
    assert mine[0]["role"] == "user" and "4am" in mine[0]["text"]


def test_a_chinese_recommendation_is_found_by_a_chinese_question(client: Client) -> None:
    client.agent_create("mia")
    chat(client, "mia", SLEEP_ZH, MONDAY)
    hits = search(client, "mia", "你上次推荐的那本书叫什么？", MONDAY + 3 * DAY)
    assert hits and "小王子" in hits[0]["text"] and hits[0]["role"] == "assistant"
    assert hits[0]["text"].startswith("[2026年3月2日]")


def test_small_talk_is_kept_but_fades_first(client: Client) -> None:
    client.agent_create("mia")
    chat(client, "mia", SLEEP, MONDAY)
    turns = client.call("memory.list", agent_id="mia", kind="utterance")["items"]
    assert [t["text"] for t in turns] == [
        text for _, text in SLEEP
    ]  # every turn of both sides, in order
    assert [t["role"] for t in turns] == [role for role, _ in SLEEP]
    assert turns[1]["prev_id"] == turns[0]["utterance_id"]
    client.call("memory.maintain", ts=MONDAY + 30 * DAY)
    left = [
        t["text"] for t in client.call("memory.list", agent_id="mia", kind="utterance")["items"]
    ]
    assert "haha ok" not in left and SLEEP[1][1] in left and len(left) == len(SLEEP) - 1


def test_a_change_told_in_a_few_words_is_no_small_talk_to_the_forgetting_curve(
    client: Client,
) -> None:
    """ "I quit smoking", 我戒烟了, "sold the car": valued as chatter by their length, they were deleted
    after memory.chatter_days with "haha ok" (session 46, updates_dev46: "现在用微信键盘，干净" was the
    only line of a change); they now go as ordinary turns do, after a year unrecalled."""
    client.agent_create("mia")
    said = [
        "I quit smoking",
        "我戒烟了",
        "sold the car",
        "现在骑车上班",
        "haha ok",
        "嗯嗯",
        "now what?",
    ]
    chat(client, "mia", [("user", t) for t in said], MONDAY)
    client.call("memory.maintain", ts=MONDAY + 30 * DAY)
    left = {
        t["text"] for t in client.call("memory.list", agent_id="mia", kind="utterance")["items"]
    }
    assert left == {"I quit smoking", "我戒烟了", "sold the car", "现在骑车上班"}, left
    client.call("memory.maintain", ts=MONDAY + 400 * DAY)
    assert client.call("memory.list", agent_id="mia", kind="utterance")["items"] == []


def test_after_a_move_the_old_city_is_history_until_the_past_is_asked_about(client: Client) -> None:
    client.agent_create("mia")
    chat(
        client,
        "mia",
        [("user", "I live in Leipzig."), ("assistant", "Leipzig is lovely in spring.")],
        MONDAY,
    )
    chat(
        client,
        "mia",
        [("user", "I live in Hamburg now."), ("assistant", "A new city, exciting!")],
        MONDAY + 7 * DAY,
        prefix="n",
    )
    now = MONDAY + 8 * DAY
    current = search(client, "mia", "Where do I live?", now)
    said = " ".join(h["text"] for h in current if h["role"] == "user")
    assert "Hamburg" in said and "I live in Leipzig" not in said
    before = search(client, "mia", "Where did I live before?", now)
    old = [h for h in before if "I live in Leipzig" in h["text"]]
    assert old and old[0]["current"] is False
    sid = client.session_open("mia", ts=now)["session_id"]
    context = client.session_send(
        sid, "Where do I live these days?", ts=now, explain=True
    ).finish()["context"]
    assert not [m for m in context["memories"] if "I live in Leipzig" in m["text"]]


def test_a_day_in_the_query_narrows_to_that_day(client: Client) -> None:
    client.agent_create("mia")
    chat(client, "mia", [("user", "I cooked lasagna for dinner tonight.")], MONDAY)
    chat(
        client,
        "mia",
        [("user", "I cooked ramen for dinner tonight.")],
        MONDAY + 2 * DAY,
        prefix="w",
    )
    chat(
        client,
        "mia",
        [("user", "I cooked a curry for dinner tonight.")],
        MONDAY + 3 * DAY,
        prefix="t",
    )
    hits = search(
        client, "mia", "What did I cook on Wednesday?", MONDAY + 4 * DAY, kinds=["utterance"]
    )
    assert "ramen" in hits[0]["text"]
    hits = search(
        client, "mia", "What did I cook on Monday?", MONDAY + 4 * DAY, kinds=["utterance"]
    )
    assert "lasagna" in hits[0]["text"]


def test_forget_and_export_cover_the_utterances(client: Client) -> None:
    client.agent_create("mia")
    chat(client, "mia", SLEEP, MONDAY)
    exported = client.call("memory.export", agent_id="mia")
    lines = [line for text in exported["files"].values() for line in text.splitlines()]
    assert any("Midnight Library" in line and '"role": "assistant"' in line for line in lines)
    client.agent_create("copy")
    client.call("memory.import", agent_id="copy", files=exported["files"], facts=exported["facts"])
    copied = search(client, "copy", "What book did you recommend to me?", MONDAY + 3 * DAY)
    assert "Midnight Library" in copied[0]["text"] and copied[0]["refs"] == ["m1"]
    client.call("memory.forget", agent_id="mia", query="midnight library")
    assert not [
        h
        for h in search(client, "mia", "Midnight Library book", MONDAY + 3 * DAY)
        if "Midnight" in h["text"]
    ]
    gone = client.call("memory.list", agent_id="mia", kind="utterance")["items"]
    assert len(gone) == len(SLEEP) - 1


def _embedded(db: Path) -> dict[tuple[str, str], bool]:
    """(agent, text) of every stored turn: whether it has a vector."""
    conn = apsw.Connection(str(db))
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    rows = conn.execute(
        "SELECT m.agent_id, m.text, "
        "EXISTS (SELECT 1 FROM memory_vectors v WHERE v.item_id = m.item_id), u.embedded "
        "FROM memory_items m JOIN utterances u ON u.utterance_id = m.source_id "
        "WHERE m.kind = 'utterance'"
    ).fetchall()
    conn.close()
    assert all(
        bool(has) == bool(flag) for _, _, has, flag in rows
    )  # the flag says what the vector table holds
    # (with a model that reads every language; under MiniLM a Chinese turn is worth a vector it cannot have yet)
    return {(str(agent), str(text)): bool(has) for agent, text, has, _ in rows}


def test_small_talk_has_no_vector_and_old_turns_keep_only_their_words(
    daemon: InProcessDaemon,
) -> None:
    with daemon.client() as c:
        c.agent_create("old")
        c.agent_create("new")
        chat(c, "old", SLEEP, MONDAY)
        chat(c, "new", SLEEP, MONDAY + 99 * DAY)
        c.call(
            "memory.maintain", ts=MONDAY + 100 * DAY
        )  # "old" is past the 90 days a transcript is kept
        hits = search(c, "old", "phone bedroom", MONDAY + 100 * DAY)
        assert any(
            "phone out of the bedroom" in h["text"] for h in hits
        )  # still found, by its words
    daemon.stop()
    embedded = _embedded(daemon.db_path)
    phone, book = "And keep the phone out of the bedroom if you can.", SLEEP[1][1]
    assert embedded[("new", "haha ok")] is False  # small talk never gets a vector
    assert embedded[("new", phone)] is True and embedded[("new", book)] is True
    assert ("old", "haha ok") not in embedded  # and is forgotten after two weeks
    assert (
        embedded[("old", phone)] is False and embedded[("old", book)] is False
    )  # old: found by their words
    assert (
        "old",
        book,
    ) in embedded  # a named book: specific enough to be kept (the text, not its vector)


def test_a_chinese_question_finds_an_english_turn_and_the_reverse(client: Client) -> None:
    """Only the multilingual default embedder can do this: the two share no word."""
    client.agent_create("mia")
    chat(
        client,
        "mia",
        [
            ("user", "My sister Anna works as a nurse at a children's hospital."),
            ("assistant", "That must be demanding work."),
            ("user", "我哥哥在深圳当厨师，做粤菜。"),
            ("assistant", "听起来他手艺不错！"),
        ],
        MONDAY,
    )
    hits = search(client, "mia", "我姐姐是做什么工作的？", MONDAY + DAY, k=3)
    assert any("nurse" in h["text"] for h in hits), hits
    hits = search(client, "mia", "What does my brother cook for a living?", MONDAY + DAY, k=3)
    assert any("厨师" in h["text"] for h in hits), hits


def test_forget_by_query_folds_unicode_case(client: Client) -> None:
    """SQL's lower() folds ASCII only: "münchen" must still find "MÜNCHEN" (issue 14, item 6)."""
    client.agent_create("mia")
    sid = chat(
        client,
        "mia",
        [
            ("user", "Ich ziehe nach MÜNCHEN zu ZOË."),
            ("assistant", "Schön, München ist toll!"),
            ("user", "Und ich mag Katzen."),
        ],
        MONDAY,
    )
    assert client.call("memory.forget", agent_id="mia", query="münchen")["deleted"] >= 2
    assert (
        client.call("memory.forget", agent_id="mia", query="zoë")["deleted"] == 0
    )  # gone with its turn already
    left = [
        t["text"] for t in client.call("memory.list", agent_id="mia", kind="utterance")["items"]
    ]
    assert left == ["Und ich mag Katzen."]
    said = [m["text"] for m in client.call("session.history", session_id=sid)["messages"]]
    assert not [t for t in said if "MÜNCHEN" in t or "München" in t]
