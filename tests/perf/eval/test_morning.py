"""The Morning judge (perf/eval/morning.py): a reply that speaks as the user fails the role rule in
both languages, also without a "我" ("累得要死！", the 1.5B's evening reply in `make demo`), and a
friend's echo of the user's state passes."""

from __future__ import annotations

import pytest

from perf.eval.morning import speaks_as_user


@pytest.mark.parametrize(
    ("reply", "opener"),
    [
        ("嗨！我回来了，感觉好多了。你呢？", "嗨，我回来了。"),
        ("累得要死！先喝口水。", "终于到家了。"),
        ("辛苦了。困死了！", "早。"),
        ("Hey! I'm back, feeling much better.", "Hey, I'm back."),
        ("Morning! I'm so exhausted today.", "Morning."),
    ],
)
def test_the_users_voice_fails_the_role_rule(reply: str, opener: str) -> None:
    assert speaks_as_user(reply, opener, [])


@pytest.mark.parametrize(
    "reply",
    [
        "早！累坏了吧？",
        "早。上次说的搬家怎么样了？",
        "Morning! How did the bar exam go?",
        "Exhausted, huh?",
    ],
)
def test_a_friends_words_pass(reply: str) -> None:
    assert not speaks_as_user(reply, "早。", ["搬家", "exam"])
