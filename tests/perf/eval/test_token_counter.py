"""perf.eval.token_counter's blocks: packed as a memory block is, skipping what does not fit."""

from __future__ import annotations

from perf.eval import token_counter


def test_blocks_skip_what_does_not_fit_and_leave_out_the_last() -> None:
    cost = {"a": 5, "b": 8, "c": 4, "d": 6, "e": 9}.__getitem__
    # budget 10: a (5) + c (4) = 9, while b, d and e wait for the next block; then b (8), then d
    # (6); e (9) alone is what is left: that block ran out of texts, not of budget, so it is not one
    assert token_counter.blocks(list("abcde"), 10, cost) == [["a", "c"], ["b"], ["d"]]


def test_the_old_estimate_is_chars_over_three_plus_four() -> None:
    assert token_counter.old_estimate("x" * 30) == 14
    assert token_counter.old_estimate("今天好累") == 5
