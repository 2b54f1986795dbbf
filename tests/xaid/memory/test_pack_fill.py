"""A memory block fills the budget it is given, in the model's tokens, in English and in Chinese.

Through a real daemon (in process; real SQLite, real ONNX embeddings): a few weeks of conversation
go in by ``session.ingest``, and ``memory.search`` and a turn's prompt must come back holding
90-100 % of their budget by the daemon's count, never more, and, with ``$XAID_TOKENIZER_GGUF``
naming a Qwen2.5 GGUF, 90-105 % by the model's own tokenizer. The turns are held-out companion-set
turns (tests/xaid/text/qwen25_counts.json); the count's agreement with the tokenizer on them is
tests/xaid/text/test_tokens.py's. The turn test uses the scripted provider: what is judged is the
prompt's memory block, not a reply.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from xaiclient import Client

from xaid.memory import retrieve
from xaid.text import tokens

DAY = 86_400_000
START = int(dt.datetime(2026, 3, 2, 20, 0, tzinfo=dt.UTC).timestamp() * 1000)
TURNS = Path(__file__).parents[1] / "text" / "qwen25_counts.json"


def _turns(lang: str) -> list[str]:
    rows = json.loads(TURNS.read_text(encoding="utf-8"))["texts"]
    return [r["text"] for r in rows if r["lang"] == lang]


def _real() -> Callable[[str], int] | None:
    path = os.environ.get("XAID_TOKENIZER_GGUF")
    if not path:
        return None
    llama_cpp = pytest.importorskip("llama_cpp")
    model = llama_cpp.Llama(path, vocab_only=True, verbose=False)
    return lambda text: len(model.tokenize(text.encode(), add_bos=False, special=False))


def _history(c: Client, agent: str, texts: list[str]) -> int:
    """The texts as sessions of ten turns, one a day, the user and the companion taking turns."""
    c.agent_create(agent)
    ts = START
    for n in range(0, len(texts), 10):
        ts = START + (n // 10) * DAY
        sid = c.session_open(agent, ts=ts)["session_id"]
        c.session_ingest(
            sid,
            [
                {
                    "role": "user" if i % 2 == 0 else "assistant",
                    "text": t,
                    "ts": ts + i * 60_000,
                    "ref": f"t{n + i}",
                }
                for i, t in enumerate(texts[n : n + 10])
            ],
        )
        c.session_close(sid, ts=ts + 600_000, wait=True)
    return ts + DAY


QUERIES = {
    "en": "How have the kids and work been, and what did you suggest for the weekend?",
    "zh": "最近工作和家里怎么样？你上次推荐了什么？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_memory_search_fills_its_budget_and_never_more(client: Client, lang: str) -> None:
    now = _history(client, "mia", _turns(lang))
    real = _real()
    for budget in (400, 1000):
        found = client.call(
            "memory.search",
            agent_id="mia",
            query=QUERIES[lang],
            ts=now,
            k=200,
            budget_tokens=budget,
        )
        texts = [h["text"] for h in found["items"]]
        counted = sum(tokens.count(t) for t in texts)
        assert found["tokens"] == counted  # what it reports is what its items cost
        assert 0.9 * budget <= counted <= budget, (lang, budget, counted)
        if real is not None:
            held = sum(real(t) for t in texts)
            assert 0.9 * budget <= held <= 1.05 * budget, (lang, budget, held)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_turns_memory_block_is_not_cut_at_eight_short_memories(client: Client, lang: str) -> None:
    """Many short memories that match: the block is limited by its budget (400), not by a count of
    eight, which left a block of one-line memories at half its budget."""
    if lang == "en":
        said = [f"Piano practice on day {d}: scales and the Chopin nocturne." for d in range(1, 31)]
        message = "Piano practice again tonight, the Chopin nocturne is getting better"
    else:
        said = [f"第{d}天练钢琴：音阶和肖邦夜曲。" for d in range(1, 31)]
        message = "今晚又练钢琴了，肖邦夜曲越来越顺了"
    client.agent_create("leo")
    ts = START
    for d, text in enumerate(said):
        ts = START + d * DAY
        sid = client.session_open("leo", ts=ts)["session_id"]
        client.session_ingest(sid, [{"role": "user", "text": text, "ts": ts}])
        client.session_close(sid, ts=ts + 60_000, wait=True)
    now = ts + DAY
    sid = client.session_open("leo", ts=now)["session_id"]
    context = client.session_send(sid, message, ts=now, explain=True).finish()["context"]
    shown = context["memories"]
    assert len(shown) > 8
    block = retrieve.render([_hit(h) for h in shown], lang)
    assert 0.9 * 400 <= tokens.count(block) <= 400, tokens.count(block)


def _hit(wire: dict[str, Any]) -> retrieve.Hit:
    return retrieve.Hit(
        wire["kind"], wire["id"], wire["text"], wire["score"], wire["ts"], (), wire["when"]
    )
