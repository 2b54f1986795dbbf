"""The session's feeling asked of the chat model (xaid/mood/asked.py, learned.asked_sign/signed, and
consolidation's call): which answers are read, when the model is asked, what its sign changes, and,
through a real daemon, that the call is made once per consolidated session and counted. The scripted
provider stands in for the model: it answers (and weighs as certain) what a ``[[say:…]]`` in the
session's words tells it to, and otherwise echoes (weights and an answer that name no feeling)."""

from __future__ import annotations

import math
import threading
from pathlib import Path

import pytest
from xaiclient import Client

from xaid.mood import asked, learned, meaning

NOTHING = learned.Own(0.0, 0.0, 0.0)
P: dict[meaning.Label, float] = {"low": 0.2, "neutral": 0.1, "good": 0.7}


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("sad", "low"),
        ("Happy.", "good"),
        (" fine", "neutral"),
        ("echo: A friend told you this today: … sad, happy, or fine", None),
        ("I think they will be sad", None),
        (None, None),
    ],
)
def test_only_an_answer_that_begins_with_a_word_offered_is_read(
    answer: str | None, label: str | None
) -> None:
    assert asked.label(answer) == label


def _weights(sad: float, happy: float, fine: float, tired: float = 1e-6) -> tuple[float, ...]:
    """Log-probabilities of ``asked.CHOICES`` from each word's chance, its two spellings sharing it."""
    chances = {"sad": sad, "happy": happy, "tired": tired, "fine": fine}
    return tuple(math.log(chances[c.lower()] / 2) for c in asked.CHOICES)


@pytest.mark.parametrize(
    ("sad", "happy", "fine", "label"),
    [
        (0.55, 0.40, 0.05, "good"),  # "sad" ahead by less than the offset: the model's lean to it
        (0.75, 0.20, 0.05, "low"),  # ahead by more: a low
        (0.05, 0.90, 0.05, "good"),
        (0.20, 0.20, 0.60, "neutral"),  # "fine" leads: the reader's feeling stands
    ],
)
def test_the_weighed_words_name_the_sign_past_the_models_lean_to_sad(
    sad: float, happy: float, fine: float, label: str
) -> None:
    read = asked.weighed(_weights(sad, happy, fine), "low")
    assert read is not None and read.label == label and not read.tired


def test_words_the_model_would_not_say_read_nothing() -> None:
    assert asked.weighed(_weights(0.01, 0.01, 0.01, 0.01), "low") is None


@pytest.mark.parametrize(
    ("sad", "happy", "fine", "label"),
    [
        (0.80, 0.10, 0.10, "low"),  # the reader missed a feeling the model is sure of
        (0.10, 0.50, 0.40, "good"),  # "happy" with its offset takes more than RAISE_AT
        (0.50, 0.30, 0.20, "neutral"),  # no word sure enough: the calm reading stands
        (0.10, 0.10, 0.80, "neutral"),
    ],
)
def test_a_feeling_the_reader_missed_is_raised_only_where_the_model_is_sure(
    sad: float, happy: float, fine: float, label: str
) -> None:
    read = asked.weighed(_weights(sad, happy, fine), "neutral")
    assert read is not None and read.label == label


@pytest.mark.parametrize(("tired", "worn"), [(0.85, True), (0.55, False)])
def test_tiredness_is_read_where_the_model_is_sure_of_it(tired: float, worn: bool) -> None:
    rest = (1 - tired) / 3
    readings: tuple[meaning.Label, ...] = ("low", "neutral")
    for reading in readings:
        read = asked.weighed(_weights(rest, rest, rest, tired), reading)
        assert read is not None and read.tired is worn


def test_weights_that_are_not_the_choices_are_not_read() -> None:
    assert asked.weighed((), "low") is None
    assert asked.weighed((0.0, -1.0), "low") is None


def test_the_question_holds_the_session_and_ends_with_the_instruction() -> None:
    q = asked.prompt(["罚单加爆胎", "运气可真好啊"])
    assert "罚单加爆胎，运气可真好啊" in q and q.rstrip().endswith("Answer with one word.")


def test_a_word_is_asked_only_which_feeling_not_whether() -> None:
    """A provider that cannot weigh gives its word, asked only where the reader read a feeling:
    a model's word alone carries calm days as feelings."""
    assert learned.asked_sign(learned.Session(NOTHING, "good", 0.5, P))
    assert not learned.asked_sign(learned.Session(NOTHING, "neutral", 0.0, P))
    assert not learned.asked_sign(learned.Session(NOTHING, "low", 0.85, P, lost=True))


def test_a_sign_the_reader_did_not_choose_carries_a_trace() -> None:
    """The model flips "good" to "low": carried LIGHT (this reader's margin for low is negative);
    "neutral" or the same sign changes nothing."""
    read = learned.Session(NOTHING, "good", 0.6, P)
    flipped = learned.signed(read, "low")
    assert flipped.label == "low" and flipped.strength == learned.LIGHT
    assert learned.signed(read, "neutral") == read and learned.signed(read, "good") == read


HOUR = 3_600_000
NIGHT = 1_764_536_400_000  # day 0, 21:00 UTC
MORNING = NIGHT + 12 * HOUR


def evening(c: Client, line: str, agent: str = "mia") -> dict[str, int]:
    c.agent_create(agent)
    before = c.stats()["memory"]
    sid = c.session_open(agent, ts=NIGHT)["session_id"]
    c.session_send(sid, line, ts=NIGHT).finish()
    c.session_close(sid, ts=NIGHT + 600_000, wait=True)
    after = c.stats()["memory"]
    keys = ("mood_model_calls", "mood_model_unreadable", "llm_calls")
    return {k: int(after.get(k, 0)) - int(before.get(k, 0)) for k in keys}


@pytest.mark.parametrize(
    "line",
    [
        "Won the raffle, got promoted, best week of my life!! [[say:sad]]",
        "中了大奖又升职了，这周太棒了！！[[say:sad]]",
    ],
)
def test_the_models_sign_is_carried_to_the_morning(client: Client, line: str) -> None:
    """The embedder reads a good week; the stand-in model answers "sad": one mood call, not a
    memory call, and the morning carries a low (a trace: the sign this reader did not choose)."""
    calls = evening(client, line)
    assert calls == {"mood_model_calls": 1, "mood_model_unreadable": 0, "llm_calls": 0}
    assert client.mood_get("mia", ts=MORNING)["valence"] < 0


@pytest.mark.parametrize(
    "line",
    ["Won the raffle, got promoted, best week of my life!!", "中了大奖又升职了，这周太棒了！！"],
)
def test_an_answer_naming_no_feeling_leaves_the_reading(client: Client, line: str) -> None:
    calls = evening(client, line)
    assert calls == {"mood_model_calls": 1, "mood_model_unreadable": 1, "llm_calls": 0}
    assert client.mood_get("mia", ts=MORNING)["valence"] > 0


@pytest.mark.parametrize("line", ["Dentist moved to Thursday.", "周四去银行办卡"])
def test_a_plain_session_is_weighed_and_stays_calm(client: Client, line: str) -> None:
    """Weighing costs one reading of the question; the stand-in's echo begins with no word offered,
    so nothing is read and the morning stays calm."""
    calls = evening(client, line)
    assert calls == {"mood_model_calls": 1, "mood_model_unreadable": 1, "llm_calls": 0}
    assert client.mood_get("mia", ts=MORNING)["bands"]["valence"] == "neutral"


@pytest.mark.parametrize(
    "line", ["Dentist moved to Thursday. [[say:sadq]]", "周四去银行办卡 [[say:sadq]]"]
)
def test_a_feeling_the_reader_missed_is_raised_as_a_trace(client: Client, line: str) -> None:
    """The reader reads an errand (the marker "sadq" is no word the rules know: with the question
    off the morning is exactly calm); the stand-in model weighs "sad" as certain: the morning keeps
    a low trace, which sets no tone (the reader did not choose it)."""
    calls = evening(client, line)
    mood = client.mood_get("mia", ts=MORNING)
    assert calls == {"mood_model_calls": 1, "mood_model_unreadable": 0, "llm_calls": 0}
    assert mood["valence"] < 0 and mood["bands"]["valence"] == "neutral"


@pytest.mark.parametrize(
    "line",
    [
        "Up at 5, school run, then a double shift. [[say:tiredq]]",
        "五点起床送孩子，又上了两个班 [[say:tiredq]]",
    ],
)
def test_tiredness_the_model_is_sure_of_is_carried_to_the_morning(
    client: Client, line: str
) -> None:
    """The stand-in model weighs "tired" as certain ("tiredq" is no word the rules know): the
    morning is tired; a plain session's is not."""
    evening(client, line)
    evening(client, "Dentist moved to Thursday.", agent="plain")
    assert client.mood_get("mia", ts=MORNING)["bands"]["fatigue"] in ("tired", "exhausted")
    assert client.mood_get("plain", ts=MORNING)["bands"]["fatigue"] not in ("tired", "exhausted")


def test_an_endpoint_that_cannot_weigh_is_asked_for_its_word(tmp_path: Path) -> None:
    """An OpenAI-compatible endpoint (a local HTTP server answering one word to every request stands
    in for one) has no weights to give: consolidation asks it for the word instead, once a session,
    and its "sad" leaves the morning lower than its "happy" after the same good week."""
    from testkit.inproc import InProcessDaemon

    from ..providers.test_openai_compat import FakeEndpoint, content

    server = FakeEndpoint()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    env = {"XAID_LLM_PROVIDER": "openai", "XAID_LLM_BASE_URL": server.base_url}
    line = "Won the raffle, got promoted, best week of my life!!"
    calls, morning = {}, {}
    try:
        with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c:
            for word in ("sad", "happy"):
                server.reply.events = [content(word, "stop")]
                calls[word] = evening(c, line, agent=word)
                morning[word] = c.mood_get(word, ts=MORNING)["valence"]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
    asked_for = [r for r in server.requests if "How will they feel" in str(r["body"]["messages"])]
    assert len(asked_for) == 2
    for word in ("sad", "happy"):
        assert calls[word]["mood_model_calls"] == 1 and calls[word]["mood_model_unreadable"] == 0
    assert morning["sad"] < morning["happy"]
