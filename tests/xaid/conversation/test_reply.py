"""The map session.send answers with (docs/protocol.md): optional parts only when present, timings rounded."""

from __future__ import annotations

from xaid.conversation.reply import Timings, TurnReply


def test_the_reply_map_has_warnings_and_context_only_when_there_are_some() -> None:
    plain = TurnReply(
        "好的。", 7, 6, "stop", 120, 3, Timings(1.23456, 0.0, None, 40.0004)
    ).to_wire()
    assert "warnings" not in plain and "context" not in plain
    assert plain["timings"] == {
        "memory_ms": 1.235,
        "queued_ms": 0.0,
        "first_token_ms": None,
        "total_ms": 40.0,
    }
    assert plain["usage"] == {"prompt_tokens": 120, "completion_tokens": 3}
    full = TurnReply(
        "ok", 2, 1, "stop", 1, 1, Timings(0, 0, 5.0, 9.0), ("tools_unsupported",), {"lang": "en"}
    ).to_wire()
    assert full["warnings"] == ["tools_unsupported"] and full["context"] == {"lang": "en"}
    read = TurnReply("嗯", 4, 3, "stop", 500, 2, Timings(0, 0, 5.0, 9.0), prompt_read_tokens=31)
    assert read.to_wire()["usage"] == {
        "prompt_tokens": 500,
        "completion_tokens": 2,
        "prompt_read_tokens": 31,
    }
