"""News of a thing the user goes to or uses is no change of theirs (branch supersede13), through a
real daemon, the real embedder and a real database, in English and Chinese: "the bakery has new
owners" leaves "I get my bread at that bakery" current; the same news told as the reason for the
user's own change ("… closed, so I shop at Morrisons now") still makes it history. No model is
consulted (the scripted provider's echo is never read as a verdict)."""

from __future__ import annotations

import pytest
from xaiclient import Client

from .test_supersede import two_sessions

NEWS = [
    (
        "I go climbing at the wall on Mercer Street.",
        "The Mercer Street wall switched owners, they've repainted everything and it looks great now.",
    ),
    ("我一直在街口那家理发店剪头发。", "街口那家理发店换了个新招牌，现在看着洋气多了。"),
]


@pytest.mark.parametrize(("before", "after"), NEWS)
def test_news_of_the_thing_keeps_the_users_statement_current(
    client: Client, before: str, after: str
) -> None:
    assert two_sessions(client, before, after) == {before: "current", after: "current"}


REASON_THEN_CHANGE = [
    (
        "I do my food shop at the Co-op on King Street.",
        "The Co-op on King Street closed down, so I shop at Morrisons now.",
    ),
    ("我在街口那家理发店剪头发。", "街口那家理发店关了，我现在去商场里的快剪。"),
]


@pytest.mark.parametrize(("before", "after"), REASON_THEN_CHANGE)
def test_the_things_news_as_the_reason_for_the_users_change_still_replaces(
    client: Client, before: str, after: str
) -> None:
    assert two_sessions(client, before, after) == {before: "superseded", after: "current"}


EPISODES = [
    (
        "I went to a pottery workshop yesterday and made a very wonky bowl.",
        "I'm doing pottery at the studio on Fridays now, it's my new thing.",
    ),
    ("昨天去了个陶艺工作坊，捏了个歪歪扭扭的碗。", "现在每周五都去工作室做陶艺了，新爱好。"),
]


@pytest.mark.parametrize(("before", "after"), EPISODES)
def test_one_dated_happening_is_never_replaced_by_what_is_said_later(
    client: Client, before: str, after: str
) -> None:
    """A happening told with its day is a record of that day: a later habit on the same subject
    does not make it untrue (LoCoMo's chats: most turns consolidation had made history were such)."""
    assert two_sessions(client, before, after) == {before: "current", after: "current"}
