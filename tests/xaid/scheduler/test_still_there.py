"""A low session's loss that the readers disagree on is put to the chat model (issue 25, issue 24
item 6): the loss prototypes put a child's fever or a rent rise near a death, the session is carried
as a strong low (which backs a loss meaning read), and the check-in reader is sure of a matter and all
but rules a loss out (``matter.Readings.contested``). Consolidation then asks the model once whether
what was told of is still alive and with them (``mood.asked.alive``): a yes arms the matter to ask
after; a no, an answer that is neither, or no question at all (``mood.ask_model`` off) leaves the
gentle check-in of a loss. Pure parts first, then a real daemon (SQLite, the default embedder, the
reader); the scripted provider stands in for the chat model and answers what ``[[say:…]]`` in the
session's words tells it to."""

from __future__ import annotations

from typing import Any

import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon
from xaid.mood import asked
from xaid.scheduler import matter

READ = matter.Read(matter=0.97, loss=0.03, none=0.0)


def readings(read: matter.Read, grieving: bool, **kw: Any) -> matter.Readings:
    return matter.Readings({1: read}, 0.5, 0.15, grieving=grieving, **kw)


def test_only_a_grieving_sessions_sure_matter_with_a_loss_ruled_out_is_contested() -> None:
    assert readings(READ, grieving=True).contested(1)
    assert not readings(READ, grieving=False).contested(1)  # the reader doubts the loss itself
    assert not readings(matter.Read(0.59, 0.40, 0.01), grieving=True).contested(1)  # "Nana's gone"
    assert not readings(matter.Read(0.06, 0.11, 0.83), grieving=True).contested(1)  # "it's MS"
    assert not readings(READ, grieving=True, told=frozenset({1})).contested(1)


def test_a_line_the_model_says_is_still_there_is_no_loss() -> None:
    assert not readings(READ, grieving=True).loss_doubted(1)
    assert readings(READ, grieving=True, alive=frozenset({1})).loss_doubted(1)


@pytest.mark.parametrize(
    ("answer", "read"),
    [
        ("Yes.", True),
        ("no", False),
        (" NO.", False),
        ("echo: A friend told you", None),
        (None, None),
    ],
)
def test_only_a_yes_or_a_no_is_read(answer: str | None, read: bool | None) -> None:
    assert asked.alive(answer) is read


def test_the_question_holds_the_session_and_ends_with_the_instruction() -> None:
    q = asked.alive_prompt(["儿子又发烧了", "今晚估计又睡不成了"])
    assert "儿子又发烧了，今晚估计又睡不成了" in q and q.rstrip().endswith("Answer yes or no.")


NIGHT = 1_764_536_400_000  # day 0, 21:00 UTC
# morning_dev25's Chinese evening and a baby's fever (the rent rise of morning_dev25 that stood here
# is read as a worry still open by meaning since session 41, and no longer contested); the model's
# answer is scripted where it leaves the readings as they are without it (in a line of the telling,
# or in one of its own, it moved what was read)
LINES = {
    "zh": (
        ("user", "儿子又发烧了，三十九度多，刚吃了退烧药"),
        ("user", "今晚估计又睡不成了 [[say:{answer}]]"),
    ),
    "en": (
        ("user", "the baby has had a fever for three days and the doctor says wait"),
        ("user", "I'm so scared, I can't sleep"),
        ("user", "[[say:{answer}]]"),
    ),
}
WORD = {"zh": "发烧", "en": "fever"}


def evening(
    c: Client, lines: tuple[tuple[str, str], ...], answer: str
) -> tuple[list[dict[str, Any]], int]:
    """The items pending after the evening's lines (the model's ``answer`` scripted into them) and
    the loss questions it cost."""
    c.agent_create("mia")
    before = int(c.stats()["memory"].get("loss_model_calls", 0))
    sid = c.session_open("mia", ts=NIGHT)["session_id"]
    c.session_ingest(
        sid,
        [
            {"role": role, "text": text.format(answer=answer), "ts": NIGHT + i * 60_000}
            for i, (role, text) in enumerate(lines)
        ],
    )
    c.session_close(sid, ts=NIGHT + 600_000, wait=True)
    calls = int(c.stats()["memory"].get("loss_model_calls", 0)) - before
    return c.scheduler_list("mia", states=["pending"])["items"], calls


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_worry_the_model_says_is_still_there_is_asked_after(client: Client, lang: str) -> None:
    items, calls = evening(client, LINES[lang], "yes")
    assert calls == 1
    assert [i["scene"] for i in items if i["scene"] == "loss"] == []
    assert any(WORD[lang] in i["topic"] for i in items)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_no_keeps_the_gentle_check_in_of_a_loss(client: Client, lang: str) -> None:
    items, calls = evening(client, LINES[lang], "no")
    assert calls == 1
    assert [i["scene"] for i in items] == ["loss"]


def test_without_the_question_the_loss_stands(tmp_path: Any) -> None:
    with (
        InProcessDaemon(tmp_path, env={"XAID_MOOD_ASK_MODEL": "0"}) as d,
        d.client() as c,
    ):
        items, calls = evening(c, LINES["zh"], "yes")
    assert calls == 0 and [i["scene"] for i in items] == ["loss"]
