"""A later turn's lead (xaid/conversation/recollect.py): through a real daemon (real SQLite, the real
embedder, the real scheduler), a session's later turn whose message calls up what the user said
days before begins with the daemon's lead and the model's words after it, in English and Chinese;
a message that calls nothing up, a memory the session already spoke of, one the user asked not to
have brought up, and a session's first turn get none; with ``memory.later_lead_tries`` at 2 the
words after the lead are sampled again until they name the memory.

The scripted provider stands in for the model: ``[[say:A||B]]`` in the agent's system prompt says A,
then B at its next generation (a sampling model whose seed moves on), and it continues a lead."""

from __future__ import annotations

from pathlib import Path

import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon
from xaid.conversation import recollect
from xaid.conversation.recollect import Recollection, matter
from xaid.embed.profiles import USE
from xaid.memory.pack import Hit
from xaid.scheduler.arm import keywords
from xaid.store.mood import MoodState
from xaid.text.lang import Lang

DAY = 86_400_000
MINUTE = 60_000
ON = {"XAID_MEMORY_LATER_LEAD_SHARE": "0.9"}  # off by default (docs/memory.md)
START = 1_764_547_200_000  # 2025-12-01 00:00 UTC
EVENING = START + 5 * DAY + 19 * 3_600_000

# lang: (name, what was said days before, the lead-in, the message that calls it up, the control)
SCENES = {
    "en": (
        "Mia",
        "My sister Emma just moved to Denver for her new job. I miss her already.",
        "Just watched a movie, it was okay.",
        "I'm flying out to see my sister next month!",
        "lol my roommate set off the smoke alarm making toast",
    ),
    "zh": (
        "小雅",
        "我弟在成都读研，学建筑的，一年才回来一次。",
        "刚看完一部电影，还行吧。",
        "我打算下个月去成都看我弟。",
        "哈哈哈室友烤面包把烟雾报警器弄响了",
    ),
}


def _agent(client: Client, name: str, said: str, replies: str) -> None:
    """An agent whose scripted replies are ``replies`` (in its system prompt: the user never says
    them) and a session five days before, with ``said`` in it."""
    client.agent_create("mia", name=name, config={"system_prompt": f"[[say:{replies}]]"})
    sid = client.session_open("mia", ts=START)["session_id"]
    client.session_ingest(sid, [{"role": "user", "text": said, "ts": START}])
    client.session_close(sid, ts=START + MINUTE, wait=True)


def _later(client: Client, lead_in: str, message: str) -> tuple[str, str, dict[str, object]]:
    """The reply to ``message`` at a new session's second turn: (text, what streamed, explain)."""
    sid = client.session_open("mia", ts=EVENING)["session_id"]
    client.session_send(sid, lead_in, ts=EVENING).finish()
    stream = client.session_send(sid, message, ts=EVENING + 2 * MINUTE, explain=True)
    deltas = "".join(ev.data["delta"] for ev in stream if ev.event == "text")
    return stream.result["text"], deltas, stream.result["context"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_later_turn_that_calls_up_a_memory_begins_with_the_lead(
    tmp_path: Path, lang: Lang
) -> None:
    name, said, lead_in, message, control = SCENES[lang]
    with InProcessDaemon(tmp_path / "d", env=ON) as d, d.client() as c:
        _agent(c, name, said, " ok||fine")
        text, deltas, context = _later(c, lead_in, message)
        assert context["lead"] == recollect.LEADS[lang]
        assert text.startswith(recollect.LEADS[lang]) and deltas == text
        # the control: nothing of the memory in what they say, no lead (a second agent, same memory)
    with InProcessDaemon(tmp_path / "c", env=ON) as d, d.client() as c:
        _agent(c, name, said, " ok||fine")
        text, _, context = _later(c, lead_in, control)
        assert not context["lead"] and not text.startswith(recollect.LEADS[lang])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_lead_at_a_first_turn_when_spoken_of_or_asked_not_to(tmp_path: Path, lang: Lang) -> None:
    name, said, lead_in, message, _ = SCENES[lang]
    with InProcessDaemon(tmp_path / "first", env=ON) as d, d.client() as c:
        _agent(c, name, said, "ok")
        sid = c.session_open("mia", ts=EVENING)["session_id"]
        first = c.session_send(sid, message, ts=EVENING, explain=True).finish()
        assert not first["context"]["lead"]  # the check-in's turn (checkin.py), not this one
    spoken = "Emma" if lang == "en" else "读研"
    with InProcessDaemon(tmp_path / "spoken", env=ON) as d, d.client() as c:
        _agent(c, name, said, f"how is {spoken}?||ok")  # the lead-in's reply names it
        _, _, context = _later(c, "hey", message)
        assert not context["lead"]
    with InProcessDaemon(tmp_path / "avoid", env=ON) as d, d.client() as c:
        _agent(c, name, said, "ok")
        c.scheduler_config("mia", avoid=["Emma" if lang == "en" else "读研"])
        _, _, context = _later(c, lead_in, message)
        assert not context["lead"]
    with InProcessDaemon(tmp_path / "quiet", env=ON) as d, d.client() as c:
        _agent(c, name, said, "ok")
        c.scheduler_config("mia", quiet=True)  # the scheduler holds every matter back
        _, _, context = _later(c, lead_in, message)
        assert not context["lead"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_words_after_the_lead_are_sampled_again_until_they_name_the_memory(
    tmp_path: Path, lang: Lang
) -> None:
    name, said, lead_in, message, _ = SCENES[lang]
    named = " Emma moved to Denver?" if lang == "en" else "你弟在读研，学建筑吗？"
    # the lead-in's reply, then the probe's two candidates: the first names nothing of the memory
    replies = ("ok|| that?||" + named) if lang == "en" else "好的||那个吗？||" + named
    env = {**ON, "XAID_MEMORY_LATER_LEAD_TRIES": "2"}
    with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c:
        _agent(c, name, said, replies)
        text, deltas, context = _later(c, lead_in, message)
        stats = c.stats()["memory"]
    assert context["lead"] == recollect.LEADS[lang]
    assert text == recollect.LEADS[lang] + replies.split("||")[2] and deltas == text
    assert stats.get("checkin_candidates") == 2 and stats.get("checkin_candidates_taken") == 1


def test_the_memory_words_leave_out_what_the_message_says() -> None:
    said = "My dad just got diagnosed with type 2 diabetes."
    hit = Hit("utterance", 1, said, 0.5, 0, (), "5 days ago", content=said)
    rec = Recollection(hit, 0.5, keywords(said))
    words = matter(rec, "Dad's birthday is Saturday, thinking of baking him a cake")
    assert "diabetes" in words and "dad" not in words
    message = "Dad's birthday is Saturday"
    assert recollect.lead(rec, "en", None, ["hey", "Hey! How are you?"], message)
    assert not recollect.lead(rec, "en", None, ["how is the diabetes?"], message)  # spoken of
    assert not recollect.lead(None, "en", None, [], message)
    low = MoodState(valence=-0.8, arousal=0.0, confidence=1.0, updated_ms=0)
    assert not recollect.lead(rec, "en", low, [], message)  # kept company, not questioned


def test_near_enough_is_a_share_of_the_embedders_own_cut() -> None:
    assert recollect.near_enough(USE, "Dad's birthday is Saturday", 0.9) == pytest.approx(
        0.9 * USE.min_cosine
    )
    assert recollect.near_enough(USE, "周六我爸生日", 0.9) == pytest.approx(
        0.9 * USE.min_cosine_cjk
    )
    assert recollect.near_enough(USE, "anything", 0.0) == float("inf")
