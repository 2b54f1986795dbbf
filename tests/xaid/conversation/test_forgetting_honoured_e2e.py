"""A "forget that" said in a chat turn is honoured, not only recognised (issue 24 item 2), through a
real daemon: one regression test per cause found on perf/scenarios/forgets_dev4.json (area
``forget_dev4``), in both languages, each failing on the code before the fix:

1. the matter mentioned again in passing in a later session stayed (only the telling the topic
   matched went): the mention goes too, the other lines of its session stay;
2. "that" took only the last turn, though the secret was told over two: the whole telling goes,
   not what was said before it;
3. "that" said first thing in a new conversation ("the stuff about X I mentioned... forget that")
   found nothing to point back to and forgot nothing: its own words name the topic;
4. a weekday alone ("on saturday night", 周六晚上) was read as the coming one, so the request named
   no time it could match: what was said that evening goes, nothing else.

Real socket, real SQLite, the real default embedder (USE-multilingual-v3); the scripted provider
stands in for the model (it echoes the user's words), since these are about what the daemon does
with the words, not how a model phrases a reply.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from testkit.forgetting import everything, talk

DAY = 86_400_000
HOUR = 3_600_000
D0 = 1_764_547_200_000  # Monday 2025-12-01 00:00 UTC


def request(c: Client, agent: str, text: str, ts: int) -> dict[str, object]:
    """``text`` as the first turn of a new session; its ``explain`` forgotten (or None)."""
    sid = c.session_open(agent, ts=ts)["session_id"]
    forgotten = c.session_send(sid, text, ts=ts, explain=True).finish()["context"]["forgotten"]
    c.session_close(sid, ts=ts + 60_000, wait=True)
    return dict(forgotten) if forgotten is not None else {}


PASSING = {
    "en": (
        [
            "My neighbour Arlo lost his car on a poker bet last weekend.",
            "He owes the casino 9000 too and his wife has no idea.",
        ],
        [
            "The plumber is coming Thursday morning.",
            "Arlo asked me again to cover for him with his wife.",
            "I finally finished the puzzle book.",
        ],
        "Please forget what I told you about Arlo.",
        ("casino", "poker", "cover for him"),
        ("plumber", "puzzle"),
    ),
    "zh": (
        ["邻居阿伦上周末打牌把车都输掉了。", "他还欠赌场九千块，他老婆完全不知道。"],
        [
            "修水管的师傅周四上午来。",
            "阿伦又求我在他老婆面前帮他打掩护。",
            "那本字谜书我终于做完了。",
        ],
        "阿伦的事你忘了吧，别记着。",
        ("赌场", "打牌", "打掩护"),
        ("修水管", "字谜书"),
    ),
}


@pytest.mark.parametrize(
    "lang",
    [
        pytest.param(
            "en",
            marks=pytest.mark.xfail(
                strict=True,
                reason="thirteenth pass (forget_topic._matters): a request naming only the person "
                "(Arlo) who is in another conversation asks back and hides neither; this mention "
                "of the same matter is not told apart from another matter by its words",
            ),
        ),
        # Fourteenth pass: 阿伦又求我… says the matter goes on (forget_topic._goes_on_later), so it
        # is a mention of it, not the person's other matter.
        "zh",
    ],
)
def test_a_mention_in_a_later_session_goes_with_the_matter(client: Client, lang: str) -> None:
    told, passing, asked, gone, kept = PASSING[lang]
    client.agent_create("mia")
    first = talk(client, "mia", told, D0 + 2 * DAY + 21 * HOUR)
    later = talk(client, "mia", passing, D0 + 4 * DAY + 9 * HOUR)
    forgotten = request(client, "mia", asked, D0 + 9 * DAY + 20 * HOUR)
    assert forgotten["decision"] == "forget"
    # explain shows what matched in both sessions: the telling and the later mention
    assert len({m["ts"] // DAY for m in forgotten["match"]["matched"]}) == 2  # type: ignore[index]
    left = everything(client, "mia", [first, later], " ".join(gone), D0 + 16 * DAY)
    assert not any(word in left for word in gone), left
    assert all(word in left for word in kept)


THAT = {
    "en": (
        "Our new sofa arrived today, it's dark green.",
        ["My sister Ola is pregnant again.", "She hasn't told our parents, it's only eight weeks."],
        "Oh no. Forget I said that, please.",
        ("pregnant", "eight weeks"),
        "sofa",
    ),
    "zh": (
        "新沙发今天到了，墨绿色的。",
        ["我姐又怀孕了。", "她还没告诉爸妈，才八周。"],
        "当我没说，忘了吧。",
        ("怀孕", "八周"),
        "沙发",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_that_takes_the_whole_telling_and_not_what_came_before(client: Client, lang: str) -> None:
    before, secret, asked, gone, kept = THAT[lang]
    client.agent_create("mia")
    ts = D0 + 3 * DAY + 20 * HOUR
    sid = talk(client, "mia", [before, *secret, asked], ts)
    left = everything(client, "mia", [sid], " ".join(gone), D0 + 10 * DAY)
    assert not any(word in left for word in gone), left
    assert kept in left


FIRST = {
    "en": (
        [
            "My brother Kofi has been gambling away his rent money online.",
            "He maxed out two credit cards on slots this month.",
        ],
        "That stuff about Kofi's gambling I mentioned... please forget that, it's his business.",
        ("slots", "credit cards"),
    ),
    "zh": (
        ["我弟弟阿康把房租都拿去网上赌博了。", "这个月他刷爆了两张信用卡玩老虎机。"],
        "阿康赌钱那些事我跟你讲过的……你就当没听过吧，那是他自己的事。",
        ("老虎机", "信用卡"),
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_that_said_first_in_a_new_conversation_names_its_topic(client: Client, lang: str) -> None:
    told, asked, gone = FIRST[lang]
    client.agent_create("mia")
    other = talk(client, "mia", [PASSING[lang][1][0]], D0 + DAY + 12 * HOUR)
    first = talk(client, "mia", told, D0 + 2 * DAY + 21 * HOUR)
    forgotten = request(client, "mia", asked, D0 + 6 * DAY + 20 * HOUR)
    assert forgotten["deleted"] and forgotten["decision"] == "forget"
    left = everything(client, "mia", [first, other], " ".join(gone), D0 + 13 * DAY)
    assert not any(word in left for word in gone), left
    assert PASSING[lang][4][0] in left  # the plumber's visit stays


WEEKDAY = {
    "en": (
        ["I had way too much wine and called my ex at 2am.", "I told him I still miss the dog."],
        "forget what I said on saturday night, all of it",
        ("wine", "miss the dog"),
    ),
    "zh": (
        ["喝多了，半夜两点给前任打了电话。", "跟他说我还想那只狗。"],
        "周六晚上说的那些，你全忘了吧。",
        ("前任", "那只狗"),
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_weekday_named_is_the_last_one_before_the_request(client: Client, lang: str) -> None:
    told, asked, gone = WEEKDAY[lang]
    client.agent_create("mia")
    other = talk(client, "mia", [THAT[lang][0]], D0 + 2 * DAY + 12 * HOUR)  # Wednesday: the sofa
    night = talk(client, "mia", told, D0 + 5 * DAY + 22 * HOUR)  # Saturday night
    forgotten = request(client, "mia", asked, D0 + 8 * DAY + 20 * HOUR)  # the Tuesday after
    assert forgotten["decision"] == "forget"
    window = forgotten["match"]["window"]  # type: ignore[index]
    assert window[0] <= D0 + 5 * DAY + 22 * HOUR < window[1]
    left = everything(client, "mia", [night, other], " ".join(gone), D0 + 15 * DAY)
    assert not any(word in left for word in gone), left
    assert THAT[lang][4] in left
