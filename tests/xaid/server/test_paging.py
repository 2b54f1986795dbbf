"""Lists page (xaid.server.paging): session.list, agent.list and scheduler.list take ``limit`` and
``cursor`` and never answer frame_too_large, however many rows or however large each. A real
daemon with a small frame limit; xaictl follows the pages."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from xaiclient import Client, XaiError

from testkit import xaictl_json
from testkit.inproc import InProcessDaemon

FRAME = 65_536  # small, so a few hundred rows already need several pages


@pytest.fixture
def small(tmp_path: Path) -> Iterator[InProcessDaemon]:
    with InProcessDaemon(
        tmp_path / "d",
        env={"XAID_SERVER_MAX_FRAME_BYTES": str(FRAME), "XAID_SERVER_MAX_OPEN_SESSIONS": "10000"},
    ) as d:
        yield d


def _pages(
    c: Client, method: str, key: str, limit: int, **params: object
) -> list[list[dict[str, object]]]:
    pages, cursor = [], None
    while True:
        page = c.call(method, **params, limit=limit, cursor=cursor)
        pages.append(page[key])
        cursor = page["next_cursor"]
        if cursor is None:
            return pages


def test_many_sessions_page_by_limit_and_by_frame(small: InProcessDaemon) -> None:
    with small.client() as c:
        c.agent_create("mia")
        opened = {c.session_open("mia", ts=1_770_000_000_000 + i)["session_id"] for i in range(700)}
        pages = _pages(c, "session.list", "sessions", 1000, agent_id="mia")
        assert len(pages) > 1  # 700 records do not fit half of 64 KiB
        ids = [s["session_id"] for p in pages for s in p]
        assert len(ids) == len(set(ids)) == 700 and set(ids) == opened
        assert [len(p) for p in _pages(c, "session.list", "sessions", 300, agent_id="mia")][:1] == [
            300
        ]
        assert len(c.every("session.list", "sessions", agent_id="mia", open_only=True)) == 700
    shown = xaictl_json("--json", "session", "list", "mia", socket=small.socket)
    assert len(shown) == 700


def test_large_agents_page_and_system_prompt_is_bounded(small: InProcessDaemon) -> None:
    prompt = "你是一个温柔的陪伴者。Speak gently and briefly. " * 400  # ~16,000 characters
    with small.client() as c:
        for i in range(12):
            c.agent_create(f"a{i:02d}", config={"system_prompt": prompt})
        pages = _pages(c, "agent.list", "agents", 100)
        assert len(pages) > 1
        assert [a["agent_id"] for p in pages for a in p] == [f"a{i:02d}" for i in range(12)]
        with pytest.raises(XaiError) as info:
            c.agent_create("huge", config={"system_prompt": "x" * 20_001})
        assert info.value.code == "bad_params"
        with pytest.raises(XaiError) as info:
            c.agent_create("tools", config={"tools": [{"name": f"t{i}"} for i in range(33)]})
        assert info.value.code == "bad_params"
    shown = xaictl_json("--json", "agent", "list", socket=small.socket)
    assert len(shown) == 12


def test_scheduler_items_page_and_a_forged_cursor_is_bad_params(small: InProcessDaemon) -> None:
    with small.client() as c:
        c.agent_create("mia")
        for i in range(23):
            c.scheduler_arm(
                "mia", f"ask how the piano exam went ({i})", not_before=1_770_000_000_000 + i * 1000
            )
        pages = _pages(c, "scheduler.list", "items", 5, agent_id="mia")
        assert [len(p) for p in pages] == [5, 5, 5, 5, 3]
        assert len({i["item_id"] for p in pages for i in p}) == 23
        for forged in ("not-a-cursor!", json.dumps({"x": 1}), "MTIz"):
            with pytest.raises(XaiError) as info:
                c.call("scheduler.list", agent_id="mia", cursor=forged)
            assert info.value.code == "bad_params"
        with pytest.raises(XaiError) as info:
            c.call("session.list", agent_id="mia", limit=1001)
        assert info.value.code == "bad_params"


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def test_hand_made_and_other_agents_cursors_are_bad_params(small: InProcessDaemon) -> None:
    """Issue 22 item 10: a cursor is opaque (protocol §7.3), so a key written by hand, a negative
    number, a cursor of another agent's list and one of another list are all refused, in both
    languages' data, where the old cursor (base64 of "opened_ms\\nid") read whatever it was given."""
    with small.client() as c:
        c.agent_create("mia")
        c.agent_create("小雨")
        for i in range(3):
            c.session_open("mia", ts=1_770_000_000_000 + i)
            c.session_open("小雨", ts=1_770_000_000_000 + i)
            c.scheduler_arm(
                "小雨", f"问问钢琴考试怎么样了（{i}）", not_before=1_770_000_000_000 + i
            )
        mia = c.call("session.list", agent_id="mia", limit=1)["next_cursor"]
        yu = c.call("session.list", agent_id="小雨", limit=1)["next_cursor"]
        items = c.call("scheduler.list", agent_id="小雨", limit=1)["next_cursor"]
        assert mia and yu and items
        # the daemon's own cursors still page
        assert len(c.call("session.list", agent_id="mia", cursor=mia)["sessions"]) == 2
        assert len(c.call("session.list", agent_id="小雨", cursor=yu)["sessions"]) == 2
        assert len(c.call("scheduler.list", agent_id="小雨", cursor=items)["items"]) == 2
        forged = [
            _b64("5\nzzzz"),
            _b64("-5\ns_0"),
            _b64(f"-{2**53}\n"),
            _b64("1770000000000\n小雨"),
            mia[:-2],  # a cursor cut short
            mia[:-1] + ("A" if mia[-1] != "A" else "B"),  # the last character changed
            mia[:20] + ("A" if mia[20] != "A" else "B") + mia[21:],  # one inside
        ]
        cases = [("session.list", "mia", cursor) for cursor in forged]
        cases += [
            ("session.list", "小雨", mia),  # another agent's cursor
            ("session.list", "mia", yu),
            ("scheduler.list", "小雨", yu),  # another list's cursor
            ("scheduler.list", "mia", items),
        ]
        for listing, agent, cursor in cases:
            with pytest.raises(XaiError) as info:
                c.call(listing, agent_id=agent, cursor=cursor)
            assert info.value.code == "bad_params", (listing, agent, cursor)
            assert "cursor" in info.value.message
        with pytest.raises(XaiError) as info:
            c.call("agent.list", cursor=mia)
        assert info.value.code == "bad_params"
