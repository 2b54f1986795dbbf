"""A message cut into its clauses (xaid/text/clauses.py), in both languages, and cut short before
the clause that stops it."""

from __future__ import annotations

import pytest

from xaid.text.clauses import clauses, since, spans, until


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


def test_until_stops_before_the_first_later_clause_that_stops_it() -> None:
    def ahead(c: str) -> bool:
        return "saturday" in c.lower() or "明天" in c

    assert until("my grandad passed away. funeral's on saturday and mum", ahead) == (
        "my grandad passed away"
    )
    assert until("豆豆今早走了，陪了我十年，明天把它埋了", ahead) == "豆豆今早走了，陪了我十年"
    # the first clause is never cut away, nor a text no clause stops
    assert until("明天把它埋了，唉", ahead) == "明天把它埋了，唉"
    assert until("nothing ahead here, just sad", ahead) == "nothing ahead here, just sad"


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        # Chinese typed as chat: a space is the comma
        ("还是睡不着 心口堵得慌，算了", ["还是睡不着", "心口堵得慌", "算了"]),
        # English keeps its words together
        ("im furious, my hands are shaking", ["im furious", "my hands are shaking"]),
    ],
)
def test_spans_cut_chinese_at_spaces_too(text: str, parts: list[str]) -> None:
    found = spans(text)
    assert [c for _, c in found] == parts
    assert all(text[at:].startswith(c) for at, c in found)


def test_since_starts_at_the_first_clause_not_skipped() -> None:
    said = "我是傻逼 手一直冰凉 有人冒充客服 转了三万八"
    assert since(said, lambda c: c in {"我是傻逼", "手一直冰凉"}) == "有人冒充客服 转了三万八"
    assert since("so mad. my landlord kept the deposit", lambda c: c == "so mad") == (
        "my landlord kept the deposit"
    )
    # every clause skipped: the whole text, nothing lost
    assert since(said, lambda c: True) == said
