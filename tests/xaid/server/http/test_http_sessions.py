"""What the HTTP surface does with a conversation: which session a request continues, a regenerate
that must not store the user's words twice, a retried ``Idempotency-Key``, the client's character
card, the client's own tasks kept out of memory, and a fact told through it found by
``memory.search`` once the session is consolidated. Scripted provider (it echoes): the tests are
about what the daemon stores, not about a model's words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from xaiclient import Client

from testkit.http import openai_over_unix
from testkit.inproc import InProcessDaemon


@pytest.fixture
def d(tmp_path: Path) -> Iterator[InProcessDaemon]:
    with InProcessDaemon(tmp_path / "d") as daemon:
        with daemon.client() as c:
            c.agent_create("mia", name="Mia")
        yield daemon


def ask(d: InProcessDaemon, messages: list[dict[str, str]], **headers: str) -> tuple[str, str]:
    """(reply text, the xaid session it went to)."""
    raw = openai_over_unix(d, **headers).chat.completions.with_raw_response.create(
        model="mia",
        messages=messages,  # type: ignore[arg-type]  # plain maps, as an app sends them
    )
    reply = raw.parse()
    return reply.choices[0].message.content or "", raw.headers["x-xaid-session"]


def history(c: Client, sid: str) -> list[tuple[str, str]]:
    found: dict[str, Any] = c.call("session.history", session_id=sid)
    return [(m["role"], m["text"]) for m in found["messages"]]


@pytest.mark.parametrize(
    ("first", "second"),
    [("My sister Anna lives in Kyoto.", "She is a nurse."), ("我妹妹安娜住在京都。", "她是护士。")],
)
def test_a_regenerate_stores_the_user_message_once(
    d: InProcessDaemon, first: str, second: str
) -> None:
    text, sid = ask(d, [{"role": "user", "content": first}], **{"X-Xaid-Session": "chat-1"})
    again, sid2 = ask(d, [{"role": "user", "content": first}], **{"X-Xaid-Session": "chat-1"})
    assert sid2 == sid and again == text
    with d.client() as c:
        assert history(c, sid) == [("user", first), ("assistant", f"echo: {first}")]
    convo = [
        {"role": "user", "content": first},
        {"role": "assistant", "content": text},
        {"role": "user", "content": second},
    ]
    ask(d, convo, **{"X-Xaid-Session": "chat-1"})
    ask(d, convo, **{"X-Xaid-Session": "chat-1"})  # regenerate the second reply
    with d.client() as c:
        assert [r for r, _ in history(c, sid)] == ["user", "assistant", "user", "assistant"]
        assert history(c, sid)[2] == ("user", second)


@pytest.mark.parametrize("word", ["ok", "好"])
def test_the_same_words_again_are_a_new_turn(d: InProcessDaemon, word: str) -> None:
    """ "ok", then "ok" again after the reply: what precedes them differs, so both are stored."""
    text, sid = ask(d, [{"role": "user", "content": word}], **{"X-Xaid-Session": "c"})
    ask(
        d,
        [
            {"role": "user", "content": word},
            {"role": "assistant", "content": text},
            {"role": "user", "content": word},
        ],
        **{"X-Xaid-Session": "c"},
    )
    with d.client() as c:
        assert [m for m in history(c, sid) if m[0] == "user"] == [("user", word), ("user", word)]


def test_headers_pin_sessions_and_without_one_the_peer_has_a_current_one(
    d: InProcessDaemon,
) -> None:
    _, a = ask(d, [{"role": "user", "content": "hello"}], **{"X-Xaid-Session": "chat-a"})
    _, b = ask(d, [{"role": "user", "content": "你好"}], **{"X-OpenWebUI-Chat-Id": "owui-7"})
    _, c1 = ask(d, [{"role": "user", "content": "first"}])
    _, c2 = ask(d, [{"role": "user", "content": "second"}])
    _, a2 = ask(d, [{"role": "user", "content": "back again"}], **{"X-Xaid-Session": "chat-a"})
    _, own = ask(d, [{"role": "user", "content": "by id"}], **{"X-Xaid-Session": a})
    assert len({a, b, c1}) == 3 and c1 == c2 and a2 == a and own == a
    with d.client() as c:
        c.session_close(c1, wait=True)  # closed (as the idle sweep would): the next one is new
    _, c3 = ask(d, [{"role": "user", "content": "after the close"}])
    assert c3 != c1


def test_the_user_field_is_not_identity(d: InProcessDaemon) -> None:
    """Two requests naming different users from one peer share the peer's current session."""
    s1 = openai_over_unix(d).chat.completions.with_raw_response.create(
        model="mia", messages=[{"role": "user", "content": "hi"}], user="alice"
    )
    s2 = openai_over_unix(d).chat.completions.with_raw_response.create(
        model="mia", messages=[{"role": "user", "content": "hi again"}], user="bob"
    )
    assert s1.headers["x-xaid-session"] == s2.headers["x-xaid-session"]


def test_an_idempotency_key_makes_a_retry_safe(d: InProcessDaemon) -> None:
    first = openai_over_unix(
        d, **{"Idempotency-Key": "k-1"}
    ).chat.completions.with_raw_response.create(
        model="mia", messages=[{"role": "user", "content": "I moved to Berlin."}]
    )
    retry = openai_over_unix(
        d, **{"Idempotency-Key": "k-1"}
    ).chat.completions.with_raw_response.create(
        model="mia", messages=[{"role": "user", "content": "I moved to Berlin."}], stream=True
    )
    chunks = list(retry.parse())
    assert retry.headers["idempotent-replayed"] == "true"
    assert {c.id for c in chunks} == {first.parse().id}
    assert (
        "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
        == "echo: I moved to Berlin."
    )
    with d.client() as c:
        sid = first.headers["x-xaid-session"]
        assert [m for m in history(c, sid) if m[0] == "user"] == [("user", "I moved to Berlin.")]


def test_the_character_card_is_used_for_the_session(d: InProcessDaemon) -> None:
    card = "You are Mia, a cheerful baker from Lyon. 你喜欢做可颂。"
    _, sid = ask(
        d,
        [{"role": "system", "content": card}, {"role": "user", "content": "Hi!"}],
        **{"X-Xaid-Session": "st-1"},
    )
    with d.client() as c:
        explained = c.call("session.send", session_id=sid, text="and now?", explain=True)
        assert card in explained["context"]["system_prompt"]
        assert [r for r, _ in history(c, sid)].count("system") == 0  # the card is no message


def test_a_long_card_is_cut_with_a_warning(tmp_path: Path) -> None:
    with InProcessDaemon(tmp_path / "d", env={"XAID_HTTP_CARD_CHARS": "50"}) as d:
        with d.client() as c:
            c.agent_create("mia", name="Mia")
        raw = openai_over_unix(d).chat.completions.with_raw_response.create(
            model="mia",
            messages=[{"role": "system", "content": "x" * 500}, {"role": "user", "content": "hi"}],
        )
        assert "http.card_chars" in raw.headers["x-xaid-warning"]


@pytest.mark.parametrize(
    "task",
    [
        "### Task:\nGenerate a concise, 3-5 word title summarizing the chat history.\n"
        "<chat_history>USER: my cat Miso</chat_history>",
        "### Task:\n为这段对话生成一个简短的标题。\n<chat_history>USER: 我的猫叫味噌</chat_history>",
    ],
)
def test_the_clients_own_tasks_do_not_become_memories(d: InProcessDaemon, task: str) -> None:
    raw = openai_over_unix(
        d, **{"X-OpenWebUI-Chat-Id": "owui-1"}
    ).chat.completions.with_raw_response.create(
        model="mia", messages=[{"role": "user", "content": task}]
    )
    assert raw.headers["x-xaid-memory"] == "off"
    assert raw.parse().choices[0].message.content  # answered by the model
    off = openai_over_unix(d, **{"X-Xaid-Memory": "off"}).chat.completions.create(
        model="mia", messages=[{"role": "user", "content": "summarise: Miso is my cat"}]
    )
    assert off.choices[0].message.content
    with d.client() as c:
        assert c.call("session.list", agent_id="mia")["sessions"] == []


@pytest.mark.parametrize(
    ("said", "query"),
    [
        ("My sister Anna works as a nurse in Kyoto.", "Where does Anna work?"),
        ("我妹妹安娜在京都当护士。", "安娜在哪里工作"),
    ],
)
def test_a_fact_told_over_http_is_found_after_the_session_closes(
    d: InProcessDaemon, said: str, query: str
) -> None:
    _, sid = ask(d, [{"role": "user", "content": said}], **{"X-Xaid-Session": "life"})
    with d.client() as c:
        c.session_close(sid, wait=True)
        found = c.memory_search("mia", query)
    assert any(("Anna" in item["text"] or "安娜" in item["text"]) for item in found["items"]), found
