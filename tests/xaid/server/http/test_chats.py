"""How a request is read against the session xaid holds: a regenerate, or a new turn (English and
Chinese), and which requests are the client's own tasks. Pure functions over records."""

from __future__ import annotations

import pytest

from xaid.server.http.chats import is_client_task, regenerated, session_key
from xaid.server.http.openai import ChatRequest, ClientMessage
from xaid.store.sessions import Message


def stored(*pairs: tuple[str, str]) -> list[Message]:
    return [
        Message("s", "a", role, text, i, message_id=i + 1) for i, (role, text) in enumerate(pairs)
    ]


def chat(*pairs: tuple[str, str]) -> ChatRequest:
    return ChatRequest("a", tuple(ClientMessage(r, t) for r, t in pairs))


@pytest.mark.parametrize(
    ("u1", "a1", "u2"), [("hi", "echo: hi", "ok"), ("你好", "回声：你好", "好")]
)
def test_regenerate_or_new_turn(u1: str, a1: str, u2: str) -> None:
    held = stored(("user", u1), ("assistant", a1), ("user", u2), ("assistant", "r2"))
    # the client resends its history up to u2, without r2: regenerate u2's reply
    again = chat(("system", "card"), ("user", u1), ("assistant", a1), ("user", u2))
    assert regenerated(again, 3, held) == 3
    # the client read r2 and says u2 again: a new turn
    more = chat(("user", u1), ("assistant", a1), ("user", u2), ("assistant", "r2"), ("user", u2))
    assert regenerated(more, 4, held) is None
    # other words: a new turn
    assert regenerated(chat(("user", u1), ("assistant", a1), ("user", "else")), 2, held) is None
    # the same words after a different history: a new turn
    assert regenerated(chat(("user", "x"), ("assistant", "y"), ("user", u2)), 2, held) is None
    # a new chat that opens with u2 while xaid's session holds more: a new turn
    assert regenerated(chat(("user", u2)), 0, held) is None


def test_a_session_that_begins_with_the_words_is_a_regenerate() -> None:
    """After xaid opened a new session, the client may still show older history before the words."""
    held = stored(("user", "早上好"), ("assistant", "早！"))
    old = chat(("user", "yesterday"), ("assistant", "old reply"), ("user", "早上好"))
    assert regenerated(old, 2, held) == 1
    assert regenerated(chat(("user", "早上好")), 0, held) == 1
    assert regenerated(chat(("user", "morning")), 0, stored()) is None


def test_an_interrupted_reply_does_not_count_as_read() -> None:
    held = [
        *stored(("user", "hi")),
        Message("s", "a", "assistant", "par", 1, status="interrupted", message_id=2),
    ]
    assert regenerated(chat(("user", "hi")), 0, held) == 1


def test_client_tasks_and_session_headers() -> None:
    title = chat(("user", "### Task:\nGenerate a concise, 3-5 word title"))
    assert is_client_task({}, title, 0)
    assert is_client_task({"x-xaid-memory": "off"}, chat(("user", "总结一下")), 0)
    assert not is_client_task({}, chat(("user", "Task: walk the dog")), 0)
    assert session_key({"x-openwebui-chat-id": "c-1"}) == "c-1"
    assert session_key({"x-xaid-session": "k", "x-openwebui-chat-id": "c-1"}) == "k"
    assert session_key({"x-xaid-session": "  "}) is None
