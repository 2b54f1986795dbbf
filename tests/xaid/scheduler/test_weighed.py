"""Where the rules and the check-in reader arm nothing, the chat model weighs once whether the
session leaves a matter (scheduler/weighed.py): its probability of yes against no, above a
threshold per language, arms the reader's best line. Pure parts first, then a real daemon (SQLite,
the default embedder, the reader); the scripted provider stands in for the chat model and weighs as
certain the answer ``[[say:…]]`` in the session's words tells it to (providers/scripted.py)."""

from __future__ import annotations

from typing import Any

import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon
from testkit.weighing import logprobs
from xaid.scheduler import matter, weighed


@pytest.mark.parametrize(
    ("lang", "p", "open_"),
    [("en", 0.85, True), ("en", 0.75, False), ("zh", 0.93, True), ("zh", 0.85, False)],
)
def test_a_session_is_open_above_its_languages_threshold(lang: str, p: float, open_: bool) -> None:
    assert weighed.p_yes(logprobs(p)) == pytest.approx(p, abs=1e-6)
    assert weighed.is_open(logprobs(p), lang) is open_  # type: ignore[arg-type]


def test_no_logprobs_is_no_answer() -> None:
    assert weighed.p_yes(()) is None and not weighed.is_open((), "en")


def test_the_question_quotes_the_users_last_lines_in_their_language() -> None:
    lines = [f"line {i}" for i in range(20)]
    q = weighed.prompt(lines, "en")
    assert "- line 19" in q and "- line 7" not in q and q.endswith("Answer yes or no.")
    zh = weighed.prompt(["明天一早带猫去看兽医"], "zh")
    assert "- 明天一早带猫去看兽医" in zh and zh.endswith("只回答“是”或“否”。")


def test_the_readers_best_reading_counts_sentences_and_the_session() -> None:
    low = matter.Read(0.05, 0.0, 0.95)
    read = matter.Readings(
        {1: low, 2: low},
        0.5,
        0.15,
        parts=(matter.Part(1, "a sentence", matter.Read(0.2, 0.0, 0.8)),),
        session=matter.Read(0.3, 0.0, 0.7),
    )
    assert read.best() == pytest.approx(0.3)
    assert matter.NO_READINGS.best() == 0.0


NIGHT = 1_764_536_400_000  # day 0, 21:00 UTC
# The Morning dev sets' train halves (morning_dev20, morning_dev4): left open, yet neither the rules
# nor the reader arm them; the model's answer is scripted in a line of its own. (morning_dev20 said
# "… dreading it" too, which the rules arm as a worry since session 33.)
LINES = {
    "en": (
        "getting my wisdom teeth out tomorrow morning",
        "i'll be a hamster for a week",
    ),
    "zh": ("我家猫豆包从周二就不怎么吃东西，明天一早带它去看兽医", "嗯，睡了"),
}
WORD = {"en": "wisdom", "zh": "兽医"}


def evening(
    c: Client, lines: tuple[str, ...], answer: str, agent: str = "mia"
) -> tuple[list[dict[str, Any]], int]:
    """The items pending after ``agent``'s evening, and the questions weighed for it."""
    c.agent_create(agent)
    before = int(c.stats()["memory"].get("matter_model_calls", 0))
    sid = c.session_open(agent, ts=NIGHT)["session_id"]
    said = [*lines, f"[[say:{answer}]]"] if answer else list(lines)
    c.session_ingest(
        sid, [{"role": "user", "text": t, "ts": NIGHT + i * 60_000} for i, t in enumerate(said)]
    )
    c.session_close(sid, ts=NIGHT + 600_000, wait=True)
    calls = int(c.stats()["memory"].get("matter_model_calls", 0)) - before
    return c.scheduler_list(agent, states=["pending"])["items"], calls


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_session_the_model_weighs_as_open_arms_the_readers_best_line(
    client: Client, lang: str
) -> None:
    items, calls = evening(client, LINES[lang], "yes")
    assert calls == 1
    assert any(WORD[lang] in i["topic"] and i["scene"] != "loss" for i in items), items


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_no_arms_nothing(client: Client, lang: str) -> None:
    items, calls = evening(client, LINES[lang], "no")
    assert calls == 1 and items == []


def test_an_ordinary_evening_or_a_do_not_ask_is_not_weighed(client: Client) -> None:
    items, calls = evening(client, ("had pasta for dinner", "watching some tv now"), "yes")
    assert calls == 0 and items == []
    asked_not = ("dentist tomorrow, dreading it", "please don't bring it up tomorrow")
    items, calls = evening(client, asked_not, "yes", agent="ana")
    assert calls == 0 and items == []


def test_without_the_question_nothing_is_armed(tmp_path: Any) -> None:
    with (
        InProcessDaemon(tmp_path, env={"XAID_SCHEDULER_ASK_MODEL": "0"}) as d,
        d.client() as c,
    ):
        items, calls = evening(c, LINES["en"], "yes")
    assert calls == 0 and items == []
