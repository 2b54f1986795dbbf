"""A message cut into its clauses (xaid/text/clauses.py), in both languages."""

from __future__ import annotations

import pytest

from xaid.text.clauses import clauses


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        (
            "Grandpa passed away this morning. The funeral is on Friday.",
            ["Grandpa passed away this morning", "The funeral is on Friday"],
        ),
        (
            "She left me and I'm moving out on Saturday",
            ["She left me", "I'm moving out on Saturday"],
        ),
        ("爷爷今天早上走了，周五出殡", ["爷爷今天早上走了", "周五出殡"]),
        ("我爸走了。周四早上火化！", ["我爸走了", "周四早上火化"]),
        ("just one clause", ["just one clause"]),
    ],
)
def test_a_message_is_cut_at_punctuation_and_joining_words(text: str, parts: list[str]) -> None:
    assert clauses(text) == parts
