"""The rule-made episode summary speaks the session's language around the user's own words.

Pure functions over messages (no model, no database): what a Chinese session leaves in memory is
read back into a Chinese prompt, so an English frame there would put English right before the reply.
"""

from __future__ import annotations

import re

import pytest

from xaid.memory import draft, rewrite
from xaid.store.mood import MoodState
from xaid.store.sessions import Message
from xaid.text.lang import Lang, cjk_share

DAY0 = 1_764_547_200_000  # 2025-12-01 00:00 UTC
SESSIONS = {
    "en": [
        "Finally home, the bus broke down twice on the way back from the coast.",
        "I'm wiped out, my legs ache from all that walking.",
    ],
    "zh": ["终于到家了，从海边回来的大巴路上坏了两次。", "累坏了，走了一天腿都酸了。"],
}
WORN_OUT = MoodState(
    valence=-0.4, arousal=0.3, fatigue=0.7
)  # the closing band of the "worn out" sentence


def session(lang: str, speaker: str | None = None) -> list[Message]:
    return [
        Message(
            "s",
            "a",
            "user",
            text,
            DAY0 + 20 * 3_600_000 + i * 60_000,
            speaker=speaker,
            message_id=i + 1,
        )
        for i, text in enumerate(SESSIONS[lang])
    ]


def frame_of(summary: str) -> str:
    """The summary without what is quoted: the words xaid wrote itself."""
    return re.sub(r'"[^"]*"', "", summary)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_frame_is_in_the_language_of_the_session(lang: Lang) -> None:
    d = draft.draft(session(lang), {}, WORN_OUT, "Mia" if lang == "en" else "小雅")
    frame = frame_of(d.summary)
    if lang == "zh":
        assert cjk_share(frame) == 1.0, (
            frame
        )  # no English sentence left: 'talked with', 'They said', 'sounded'
        assert frame.startswith("2025-12-01，用户和小雅聊了天。") and "最后听起来很疲惫。" in frame
    else:
        assert cjk_share(frame) == 0.0, frame
        assert (
            frame.startswith("On 2025-12-01 the user talked with Mia.")
            and "sounded worn out" in frame
        )
    for text in SESSIONS[
        lang
    ]:  # the user's words are quoted as they were, in the form unquote looks for
        assert draft.said(None, text, lang) in d.summary


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_named_user_is_named_in_either_language(lang: Lang) -> None:
    d = draft.draft(session(lang, speaker="Lena"), {}, None, "Mia")
    assert d.summary.count(draft.said("Lena", SESSIONS[lang][0], lang)) == 1
    assert "Lena" in frame_of(d.summary).split("Mia")[0]  # who talked with the agent


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_forgetting_every_quote_leaves_only_a_frame_which_is_no_episode(lang: Lang) -> None:
    d = draft.draft(session(lang), {}, None, "Mia")
    assert (
        rewrite.without(d.summary, lambda s: "腿" in s or "legs" in s, rewrite.EPISODE_FRAMES)
        is not None
    )
    gone = rewrite.without(
        d.summary,
        lambda s: any(w in s for w in ("大巴", "腿", "bus", "legs")),
        rewrite.EPISODE_FRAMES,
    )
    assert gone is None  # the frame alone (either language's) is not kept as a memory


def test_the_summary_prompt_follows_the_language_and_a_parroted_one_is_refused() -> None:
    us = draft.read_utterances(session("zh"), {})
    asked = draft.summary_prompt(us, "zh")
    assert asked.startswith(draft.FRAMES["zh"].ask) and "Summarise" not in asked
    assert draft.accept_summary(asked) is None
    assert draft.accept_summary(draft.summary_prompt(us, "en")) is None
    assert draft.accept_summary("用户从海边回来，路上大巴坏了两次，到家后很累。") is not None
