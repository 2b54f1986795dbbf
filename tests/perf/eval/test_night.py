"""perf/eval/night.py: the night a bench's replayed history skips, given back. A real daemon in this
process on a manual clock, the real SmolLM2-135M in its runner process (the head cache and the
read-ahead are llama.cpp's), the real embedder and database.

After ``pass_night`` the morning's greeting reads only what follows the head and the opening the
refresh built at the probe's time: the greeting, the chat template's few tokens and the daemon's
lead."""

from __future__ import annotations

from typing import Any

import pytest

from perf.eval import night
from perf.kit import wait_model
from testkit.smollm import smollm2_env
from xaid.clock import DAY_MS, HOUR_MS

pytestmark = pytest.mark.llm
T0 = 1_770_000_000_000
SCENES = {
    "en": (
        [
            ("user", "Rough day. The project demo crashed in front of the client."),
            ("assistant", "Oh no, that sounds awful. What happened?"),
            ("user", "The database went down. I'm exhausted, going to bed."),
        ],
        "Morning.",
    ),
    "zh": (
        [
            ("user", "今天太惨了，给客户演示的时候项目崩了。"),
            ("assistant", "啊，太糟了。怎么回事？"),
            ("user", "数据库挂了。累死了，先睡了。"),
        ],
        "早。",
    ),
}


def _history(c: Any, agent_id: str, lines: list[tuple[str, str]]) -> int:
    """The evening's session, closed; when it closed."""
    c.agent_create(agent_id, name="Mia")
    sid = c.session_open(agent_id, ts=T0)["session_id"]
    c.session_ingest(
        sid, [{"role": r, "text": t, "ts": T0 + i * 60_000} for i, (r, t) in enumerate(lines)]
    )
    closed = T0 + len(lines) * 60_000
    c.session_close(sid, ts=closed, wait=True)
    return closed


def _greet(c: Any, agent_id: str, text: str, ts: int) -> dict[str, Any]:
    sid = c.session_open(agent_id, ts=ts)["session_id"]
    usage: dict[str, Any] = c.session_send(sid, text, ts=ts).finish()["usage"]
    return usage


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_after_the_night_the_greeting_reads_only_what_follows_the_opening(lang: str) -> None:
    lines, greeting = SCENES[lang]
    probe = T0 + DAY_MS - 14 * HOUR_MS  # the next morning
    with night.night_daemon(smollm2_env()) as (daemon, clock), daemon.client(timeout=600) as c:
        wait_model(c, 300, 0.05)
        clock.set(T0 + HOUR_MS)
        _history(c, "mia", lines)
        assert night.pass_night(daemon, c, clock, "mia", probe)
        usage = _greet(c, "mia", greeting, probe)
    assert usage["prompt_tokens"] > 100, usage
    # the greeting, the template's turn markers and the daemon's lead, if it begins the reply
    assert 0 < usage["prompt_read_tokens"] <= 40, usage
    assert usage["prompt_read_tokens"] * 8 < usage["prompt_tokens"], usage
