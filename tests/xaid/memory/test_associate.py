"""A routine line said many times is one memory: a search shows it once (as a turn; an episode
quoting it is another memory) and spends the rest of its budget on other things
(xaid/memory/associate.py), through a real daemon and its database."""

from __future__ import annotations

import datetime as dt
import unicodedata

from xaiclient import Client

from xaid.memory import associate, shown
from xaid.memory.index import Item
from xaid.memory.pack import About

DAY = 86_400_000
START = int(dt.datetime(2026, 3, 2, 20, 0, tzinfo=dt.UTC).timestamp() * 1000)  # a Monday


def _history(c: Client, agent: str, routine: list[str], said: str, other: str) -> int:
    """Six weeks: the thing said once in the first session, then the routine line (written a little
    differently each time) in every session; the time of the last turn."""
    ts = START
    for week in range(6):
        ts = START + week * 7 * DAY
        sid = c.session_open(agent, ts=ts)["session_id"]
        lines = [routine[week % len(routine)], other] + ([said] if week == 0 else [])
        c.session_ingest(
            sid,
            [
                {"role": "user", "text": text, "ts": ts + i * 60_000, "ref": f"w{week}-{i}"}
                for i, text in enumerate(lines)
            ],
        )
        c.session_close(sid, ts=ts + 10 * 60_000, wait=True)
    return ts + 10 * 60_000


def _texts(c: Client, agent: str, query: str, ts: int) -> list[str]:
    found = c.call("memory.search", agent_id=agent, query=query, ts=ts, k=20, budget_tokens=400)
    return [item["text"] for item in found["items"] if item["kind"] == "utterance"]


def test_a_line_repeated_every_week_is_shown_once(client: Client) -> None:
    client.agent_create("kai-en", name="Kai")
    end = _history(
        client,
        "kai-en",
        ["the bus was late again this morning", "The bus was late again this morning!!"],
        "my sister's wedding is in June and I'm the maid of honor",
        "made pasta for dinner",
    )
    texts = _texts(client, "kai-en", "ugh the bus was late again", end + DAY)
    assert sum("bus was late" in t.lower() for t in texts) == 1, texts
    assert any("bus was late" in t.lower() for t in texts)


def test_a_chinese_line_repeated_every_week_is_shown_once(client: Client) -> None:
    client.agent_create("kai-zh", name="阿澈")
    end = _history(
        client,
        "kai-zh",
        ["今早公交又晚点了", "今早公交又晚点了！！"],
        "我姐六月份要结婚了，我当伴娘",
        "晚饭煮了意面",
    )
    texts = _texts(client, "kai-zh", "公交又晚点了，烦", end + DAY)
    assert sum("公交又晚点" in t for t in texts) == 1, texts


def _words_by_generator(text: str) -> str:
    """What associate._words computed before it went through str.translate: the reference."""
    return "".join(
        ch
        for ch in unicodedata.normalize("NFKC", text).casefold()
        if not unicodedata.category(ch).startswith(("P", "Z", "S", "C"))
    )


def test_the_words_of_a_line_are_the_same_through_the_translate_table() -> None:
    # Every code point alone (the table's verdict on each), then lines in both languages whose
    # normalisation joins or splits characters (ligatures, full-width forms, ß, combining marks).
    for code in range(0x110000):
        ch = chr(code)
        assert associate._words(ch) == _words_by_generator(ch), hex(code)
    for line in (
        "The bus was late AGAIN, lol!!",
        "耳机又没电了。。。",
        "ﬁne — Straße, Ｆｕｌｌ　ｗｉｄｔｈ！ café (cafe\u0301) 😀 tabs\tand\nlines",
        "我今天在Ｇｏｏｇｌｅ加班，累死了～",
    ):
        assert associate._words(line) == _words_by_generator(line)
    assert associate._words("Hey, it's me!") == associate._words("hey its me")
    assert associate._words("又没电了！") != associate._words("又没钱了！")


def _item(item_id: int, text: str) -> Item:
    return Item(item_id, "mia", "utterance", item_id, text, START + item_id * 60_000)


# A stock line the companion says again and again, in both languages, between lines said once.
_LINES = (
    "How are you feeling today?",
    "how are you feeling today??",
    "I finally booked the flights to Lisbon",
    "你现在感觉怎么样？",
    "你现在感觉怎么样",
    "我哥又换工作了，去了一家做游戏的公司",
    "How are you feeling today",
    "周末去爬山了，腿现在还酸",
)


def test_the_repeated_lines_are_the_same_with_the_memo_as_without() -> None:
    # said_once and collapse_repeats read each candidate's words through the memo (one look-up of
    # its store per search): the same answers as reading them afresh, in English and in Chinese.
    found = {i: _item(i, text) for i, text in enumerate(_LINES, 1)}
    about = {i: About(0.5, True, "assistant" if i % 2 else "user") for i in found}
    scored = {i: 1.0 - i / 100 for i in found}
    ids = list(found)
    memo = shown.Memo(0)
    alone = associate.said_once(ids, found, scored)
    assert alone == associate.said_once(ids, found, scored, memo)
    assert alone == associate.said_once(ids, found, scored, memo)  # remembered the second time
    assert alone == [3, 6, 8]  # the two stock lines' copies go, in both languages
    assert associate.collapse_repeats(ids, found, about, None) == associate.collapse_repeats(
        ids, found, about, None, memo
    )


def test_a_changed_line_is_read_again_not_remembered() -> None:
    memo = shown.Memo(0)
    words = memo.judging("same words", associate._words)
    assert words(1, "How are you feeling today?") == "howareyoufeelingtoday"
    assert words(1, "我哥又换工作了") == "我哥又换工作了"  # the same item id, new words
    assert memo.judged("same words", 1, "我哥又换工作了", associate._words) == "我哥又换工作了"


def test_past_the_window_every_candidate_stays_in_its_order() -> None:
    # Beyond the compared window nothing is collapsed, copies included (English and Chinese).
    lines = [f"line number {i}" if i % 2 else f"第{i}句话" for i in range(associate.WINDOW)]
    lines += ["How are you feeling today?", "你现在感觉怎么样？"] * 3
    found = {i: _item(i, text) for i, text in enumerate(lines, 1)}
    about = {i: About(0.5, True, "assistant") for i in found}
    ranked = list(found)
    assert associate.collapse_repeats(ranked, found, about, None, shown.Memo(0)) == ranked
