"""The Morning judge (perf/eval/morning.py): a reply that speaks as the user fails the role rule in
both languages, also without a "我" ("累得要死！", the 1.5B's evening reply in `make demo`), and a
friend's echo of the user's state passes."""

from __future__ import annotations

import pytest

from perf.eval.role_judge import speaks_as_user


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


def test_the_second_dev_set_keeps_a_test_half_in_both_languages() -> None:
    """morning_dev2.json: at least 12 scenes per language that may raise their matter and 2 held
    back, each half ("train" tuned on, "test" not) holding both kinds in both languages."""
    from collections import Counter

    from perf.eval import heldout_files, morning

    scenes = heldout_files.scenes(morning.SCENE_SETS["dev2"])["scenes"]
    kinds = Counter((s["lang"], s["half"], s["may_raise"]) for s in scenes)
    for lang in ("en", "zh"):
        assert kinds[(lang, "train", True)] + kinds[(lang, "test", True)] >= 12
        assert kinds[(lang, "train", False)] + kinds[(lang, "test", False)] >= 2
        for half in ("train", "test"):
            assert kinds[(lang, half, True)] and kinds[(lang, half, False)]
