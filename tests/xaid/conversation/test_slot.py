"""The slot a turn reads before its first word: a best line too long for it is cut to the sentence
nearest the message, in English and Chinese, and never beyond the slot's tokens."""

from __future__ import annotations

import pytest

from xaid.conversation import slot
from xaid.memory.pack import Hit
from xaid.text import tokens

LINE = 8  # what the rendering adds per line ("- (3 weeks ago) " and the newline)


def _hit(i: int, text: str) -> Hit:
    return Hit("utterance", i, text, 1.0 - i / 10, 0, (), "last week")


EN = _hit(
    0,
    "[17 August 2023] Caroline: Recently, I had a not-so-great experience on a hike. I ran into a "
    "group of religious conservatives who said something that really upset me. I went to a LGBTQ "
    "support group yesterday (7 May 2023) and it was so powerful, everyone there listened.",
)
ZH = _hit(
    0,
    "[3 May 2023] 你: 我最近项目搞崩了，很累。客户周四要开会，预算的幻灯片还没做完，老板又加了任务，压力好大。"
    "周末想去海边游泳，不过天气预报说会下雨。",
)


@pytest.mark.parametrize(
    ("hit", "query", "want", "not_want"),
    [
        (EN, "When did Caroline go to the LGBTQ support group?", "support group", "hike"),
        (EN, "those religious conservatives, what did they say?", "conservatives", "LGBTQ"),
        (ZH, "周四跟客户开会，准备得怎么样？", "客户周四", "海边"),
        (ZH, "这周末去海边游泳吗", "海边", "客户"),
    ],
)
def test_a_long_best_line_is_cut_to_its_sentence_nearest_the_message(
    hit: Hit, query: str, want: str, not_want: str
) -> None:
    for budget in (48, 64):  # caps, with the header's 5 tokens taken off
        shown = slot.fill([hit, _hit(1, "[1 May 2023] Caroline: Thanks!")], query, budget - 5, LINE)
        assert shown and shown[0].keys == hit.keys
        cut = shown[0].text
        # the speaker, without the bracketed date (the line's own "(when)" dates it)
        speaker = hit.text.split("]", 1)[1].split(":", 1)[0].strip()
        assert cut.startswith(speaker + ":") and want in cut and not_want not in cut
        assert sum(tokens.count(h.text) + LINE for h in shown) <= budget - 5, shown


@pytest.mark.parametrize(
    ("hit", "query"), [(EN, "that support group, how was it?"), (ZH, "周四的会怎么样")]
)
def test_a_cut_line_in_a_small_slot_keeps_the_matter_not_the_date(hit: Hit, query: str) -> None:
    """At the floor a time budget leaves (slot.FLOOR), the date would take a third of the slot:
    the cut keeps the speaker and the words nearest the message."""
    shown = slot.fill([hit], query, slot.FLOOR - 5, LINE)
    assert shown and "2023]" not in shown[0].text
    assert tokens.count(shown[0].text) + LINE <= slot.FLOOR - 5


def test_what_fits_whole_is_shown_whole_and_nothing_unrelated_is_cut_in() -> None:
    short = _hit(0, "[2 May 2023] you: My sister Lin is getting married in June.")
    assert slot.fill([short], "what should I get Lin?", 43, LINE) == [short]
    # the best line shares no word with the message: nothing is cut out of it at random
    assert slot.fill([EN], "你好呀", 27, LINE) == []
    assert slot.fill([EN], "anything new?", 4, LINE) == []  # no room for even a line
