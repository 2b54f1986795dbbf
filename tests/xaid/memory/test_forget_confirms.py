"""The answer to the question back ("Do you mean …?", "你是说……吗？"): a short yes carries the forget
out, in the ways people say it ("yes, that", "对，就是那个": the answers the perf harness gives, which
the reading missed before, so no question back was ever carried out there); anything else, a "no"
above all, cancels it."""

from __future__ import annotations

import pytest

from xaid.memory.forget_request import confirms


@pytest.mark.parametrize(
    "text",
    [
        "yes",
        "yes, that",
        "yep, that one",
        "yes that's it, thanks",
        "对",
        "对，就是那个",
        "嗯嗯，删吧",
        "是的，谢谢",
    ],
)
def test_a_short_yes_confirms(text: str) -> None:
    assert confirms(text)


@pytest.mark.parametrize(
    "text",
    [
        "no",
        "no, not that",
        "yes and no",
        "what do you mean?",
        "不是",
        "不对，是另一件事",
        "对吗？",
        "嗯……不是那个",
    ],
)
def test_anything_else_cancels(text: str) -> None:
    assert not confirms(text)
