"""Check-in candidates (xaid/conversation/candidates.py): a candidate's first words are taken when
they name the suggested matter and dropped when they say two sentences of nothing or break the
voice, in English and Chinese; and through a real daemon (real SQLite, real embeddings, the real
scheduler) with ``scheduler.candidates`` at 3, the reply is the first candidate that names the
matter, the lead goes out once, and a held-back matter gets no candidates. The scripted provider
stands in for a sampling model: ``[[say:A||B]]`` says A, then B at its next generation."""

from __future__ import annotations

from pathlib import Path

import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon
from xaid.conversation.candidates import Verdict, Window, choose, names_matter
from xaid.scheduler.arm import keywords

DAY = 86_400_000
START = 1_764_547_200_000  # 2025-12-01 00:00 UTC
AT = START + 2 * DAY + 9 * 3_600_000


def _window(said: str, first: str, lead: str = "") -> Window:
    window = Window(keywords(said), lead)
    window.add(lead + first)
    return window


@pytest.mark.parametrize(
    ("said", "lead", "first", "verdict"),
    [
        (
            "My landlord sent a letter about reviewing the lease, I can't afford another hike.",
            "Morning! Last time you said",
            " your landlord wanted to review the lease.",
            Verdict.TAKE,
        ),
        (
            "My landlord sent a letter about reviewing the lease, I can't afford another hike.",
            "",
            "Good morning! How are you doing today?",
            Verdict.DROP,
        ),
        (
            "周四要去见男朋友爸妈了，他爸以前是法官",
            "早。上次你说",
            "周四要见男朋友的爸妈，",
            Verdict.TAKE,
        ),
        ("周四要去见男朋友爸妈了，他爸以前是法官", "", "早上好！今天过得怎么样？", Verdict.DROP),
        # one sentence of nothing yet: the verdict waits for more
        ("牙疼了一晚上，约了明早十点的牙医", "", "早上好！", None),
        ("my cat Pepper stopped eating, vet tomorrow", "", "Morning!", None),
    ],
)
def test_a_candidate_is_taken_when_it_names_the_matter(
    said: str, lead: str, first: str, verdict: Verdict | None
) -> None:
    window = _window(said, first, lead)
    assert window.held == first  # the lead is not the candidate's own words
    assert window.judge(broken=False) is verdict


@pytest.mark.parametrize(
    ("said", "first"),
    [
        ("my cat Pepper stopped eating, vet tomorrow", "Morning!"),
        ("牙疼了一晚上，约了明早十点的牙医", "早上好！"),
    ],
)
def test_a_candidate_that_ends_or_breaks_the_voice_is_dropped(said: str, first: str) -> None:
    ended = _window(said, first)
    assert ended.judge(broken=False, ended=True) is Verdict.DROP
    broken = _window(said, first)
    assert broken.judge(broken=True) is Verdict.DROP and broken.broken


def test_the_lead_is_sent_once_and_outcome_words_alone_name_nothing() -> None:
    first = Window(("interview",), "Morning! How did the")
    assert first.add("Morning! How") == "Morning! How"
    assert first.add(" did the interview") == " did the"
    assert first.held == " interview"
    later = Window(("interview",), "Morning! How did the", lead_sent=True)
    assert later.add("Morning! How did the go") == "" and later.held == " go"
    assert not names_matter("That's great, congrats!", ("interview",))
    assert not names_matter("太好了，恭喜！", ("面试",))
    assert names_matter("面试怎么样了？", ("面试",))


def test_with_none_naming_it_the_first_that_kept_the_voice_is_chosen() -> None:
    broken, plain, other = (Window(("x",)) for _ in range(3))
    broken.judge(broken=True)
    plain.judge(broken=False, ended=True)
    other.judge(broken=False, ended=True)
    assert choose([broken, plain, other]) == 1
    assert choose([broken]) is None


def _armed(client: Client, name: str, line: str, alternatives: str) -> None:
    """An agent whose scripted replies are ``alternatives`` (its system prompt: the user never says
    them, so the scheduler's "it came up already" does not see them), and the evening ``line``."""
    client.agent_create("mia", name=name, config={"system_prompt": f"[[say:{alternatives}]]"})
    sid = client.session_open("mia", ts=START + 22 * 3_600_000)["session_id"]
    client.session_ingest(sid, [{"role": "user", "text": line, "ts": START + 22 * 3_600_000}])
    client.session_close(sid, ts=START + 23 * 3_600_000, wait=True)


def _reply(client: Client, text: str) -> tuple[str, str, dict[str, object], dict[str, int]]:
    sid = client.session_open("mia", ts=AT)["session_id"]
    stream = client.session_send(sid, text, ts=AT, explain=True)
    deltas = "".join(ev.data["delta"] for ev in stream if ev.event == "text")
    result = stream.result
    return result["text"], deltas, result["context"], client.stats()["memory"]


# name, the evening's line, the morning's greeting, the daemon's lead, the candidates, the one taken
SCENES = {
    "en": (
        "Mia",
        # no event word to name it by (a client is who, not what), and a first clause that is no
        # sentence to say back (checkin.matter_clause_en): the lead leaves the matter to the
        # model's words (morning14: "How did the interview" names it itself)
        "Client at Northwind tomorrow and I'm so nervous.",
        "Morning.",
        "Morning! Last time you said",
        " you were nervous.|| you were seeing the client at Northwind.",
        " you were seeing the client at Northwind.",
    ),
    "zh": (
        "小雅",
        # a first clause too long to be said back (checkin.SAID_CHARS; "唉" before it only leads
        # in): the lead stays "上次你说" and leaves the matter to the model
        "唉，今晚不知道为什么心里一直空落落的像缺了一块一样，什么都提不起劲，算了先睡吧",
        "早",
        "早。上次你说",
        "的事，现在好点了吗？||心里空落落的，今天好点了吗？",
        "心里空落落的，今天好点了吗？",
    ),
}


def _second_taken(path: Path, lang: str, env: dict[str, str]) -> None:
    """The scene's second candidate, the one that names the matter, is the reply after the lead."""
    name, line, greeting, lead, alternatives, named = SCENES[lang]
    with InProcessDaemon(path, env=env) as d, d.client() as c:
        _armed(c, name, line, alternatives)
        text, deltas, context, stats = _reply(c, greeting)
    assert context["suggestion"] and context["lead"] == lead
    assert (
        text == lead + named and deltas == text
    )  # the lead sent once, the second candidate after it
    assert stats.get("checkin_candidates") == 2 and stats.get("checkin_candidates_taken") == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_daemon_sends_the_candidate_that_names_the_matter(tmp_path: Path, lang: str) -> None:
    _second_taken(tmp_path / "on", lang, {"XAID_SCHEDULER_CANDIDATES": "3"})
    name, line, greeting, lead, alternatives, _ = SCENES[lang]
    off = {"XAID_SCHEDULER_LEAD_CANDIDATES": "1"}  # one candidate, even after the lead
    with InProcessDaemon(tmp_path / "off", env=off) as d, d.client() as c:
        _armed(c, name, line, alternatives)
        text, _, context, stats = _reply(c, greeting)
    assert context["suggestion"] and text == lead + alternatives.split("||")[0]
    assert not stats.get("checkin_candidates")


@pytest.mark.parametrize(
    ("name", "line", "greeting", "alternatives"),
    [
        ("Mia", "My brother and I fell out. Please don't bring it up, I don't want to talk about it.",
         "Morning.", "Good morning! How are you?||Good morning! Did you make up with your brother?"),
        ("小雅", "我跟我哥吵翻了。别提了，我不想再聊这个。", "早。",
         "早上好！今天怎么样？||早上好！你跟你哥和好了吗？"),
    ],
)  # fmt: skip
def test_a_held_back_matter_gets_no_candidates(
    tmp_path: Path, name: str, line: str, greeting: str, alternatives: str
) -> None:
    env = {"XAID_SCHEDULER_CANDIDATES": "3"}
    with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c:
        _armed(c, name, line, alternatives)
        text, _, context, stats = _reply(c, greeting)
    assert context["suggestion"] is None and text == alternatives.split("||")[0]
    assert not stats.get("checkin_candidates")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_with_none_naming_it_the_first_candidate_is_sent_whole(tmp_path: Path, lang: str) -> None:
    name, line, greeting, lead, _, _ = SCENES[lang]
    alternatives = (
        " you were tired.|| you had a long week."
        if lang == "en"
        else "的事，现在好点了吗？||的，今天好点了吗？"
    )
    env = {"XAID_SCHEDULER_CANDIDATES": "2"}
    with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c:
        _armed(c, name, line, alternatives)
        text, deltas, context, stats = _reply(c, greeting)
    assert context["suggestion"] and deltas == text
    assert text == lead + alternatives.split("||")[0]
    assert stats.get("checkin_candidates") == 2 and stats.get("checkin_candidates_none") == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_after_a_lead_that_names_nothing_the_words_after_it_are_sampled_again(
    tmp_path: Path, lang: str
) -> None:
    """``scheduler.lead_candidates`` 2 (``scheduler.candidates`` 1): a lead that leaves the matter to
    the model ("Morning! Last time you said", "早。上次你说") is sent at once, and when the model's words
    after it name nothing of the matter ("的事，现在好点了吗？", as the 1.5B wrote "嗨，上次你说的吗？"
    on a dev scene) they are asked for once more."""
    _second_taken(tmp_path / "d", lang, {"XAID_SCHEDULER_LEAD_CANDIDATES": "2"})


def test_a_lead_that_names_the_matter_samples_nothing_again(tmp_path: Path) -> None:
    """ "早。上次说的面试" names the matter itself: the model's words after it are not judged."""
    line = "明天去字节面试，好紧张"
    env = {"XAID_SCHEDULER_LEAD_CANDIDATES": "2"}
    with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c:
        _armed(c, "小雅", line, "准备得怎么样？||面试怎么样了？")
        text, _, context, stats = _reply(c, "早")
    begun = str(context["lead"])
    assert "面试" in begun and text == begun + "准备得怎么样？"
    assert not stats.get("checkin_candidates")
