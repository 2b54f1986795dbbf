"""The generation queue's jobs are never left with a stream open: a consumer that leaves early
closes both ends, and a queue whose worker has ended takes no new job (it would wait forever and
be collected open, a warning that failed a later test in CI). The scripted provider stands in for
the model: what is tested is the queue, not the words."""

from __future__ import annotations

import anyio
import pytest
from xaiclient.wire import ModelUnavailable

from xaid.conversation.generation import GenerationQueue
from xaid.providers.base import ChatMessage, GenerateRequest
from xaid.providers.scripted import ScriptedProvider


def _request(text: str) -> GenerateRequest:
    return GenerateRequest((ChatMessage("user", text),), (), 64, 0.0)


def test_a_consumer_that_leaves_early_closes_both_ends_and_the_job_still_ends() -> None:
    anyio.run(_leave_early)


async def _leave_early() -> None:
    queue = GenerationQueue(ScriptedProvider(delay_ms=5), 4)
    await queue.load()
    async with anyio.create_task_group() as tg:
        tg.start_soon(queue.worker)
        job = queue.submit("a1", _request("one two three four five six seven eight"))
        got: list[str] = []
        async with job:
            async for piece in job.pieces:
                got.append(piece)
                break
        assert got  # one piece was read, then the consumer left
        with pytest.raises(anyio.ClosedResourceError):
            job.send.send_nowait("late")
        with anyio.fail_after(10):
            await job.finished.wait()
        assert job.cancelled.is_set()  # the worker found nobody listening and stopped
        tg.cancel_scope.cancel()


def test_a_queue_whose_worker_ended_refuses_new_jobs() -> None:
    anyio.run(_stop_then_submit)


async def _stop_then_submit() -> None:
    queue = GenerationQueue(ScriptedProvider(), 4)
    await queue.load()
    async with anyio.create_task_group() as tg:
        tg.start_soon(queue.worker)
        await anyio.sleep(0)
        tg.cancel_scope.cancel()
    with pytest.raises(ModelUnavailable, match="stopping"):
        queue.submit("a1", _request("hello"))
