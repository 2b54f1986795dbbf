"""One set of Chinese characters for every rule: what is in it, what is not, and that no module
keeps a range of its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xaid.text import cjk

XAID = Path(__file__).resolve().parents[3] / "xaid"


@pytest.mark.parametrize(
    "ch",
    [
        "的",  # unified ideographs
        "龘",  # near the top of the unified block
        "㐂",  # Extension A, found in names
        "䶵",  # the last of Extension A
        "﨑",  # a compatibility ideograph, as text from legacy encodings carries it
    ],
)
def test_ideographs_are_chinese(ch: str) -> None:
    assert cjk.has(f"abc{ch}") and cjk.count(ch) == 1 and cjk.runs(f"x{ch}y") == [ch]


@pytest.mark.parametrize("ch", ["䷀", "，", "。", "「", "　", "あ", "한", "A", "é", "😂"])
def test_symbols_punctuation_and_other_scripts_are_not(ch: str) -> None:
    assert not cjk.has(ch) and cjk.count(ch) == 0


def test_a_rare_character_does_not_split_a_run() -> None:
    assert cjk.runs("我叫王㛃，来自北京") == ["我叫王㛃", "来自北京"]


def test_pairs_keep_order_drop_repeats_and_stop_characters() -> None:
    assert cjk.pairs("面试面试的结果", stop="的") == ["面试", "试面", "结果"]
    assert cjk.pairs("考试 ok 考试") == ["考试"]
    assert cjk.pairs("好") == []


def test_non_cjk_words_split_where_chinese_starts() -> None:
    assert cjk.NON_CJK_WORD.findall("Python写后端 café_bar") == ["Python", "café", "bar"]


def test_no_module_keeps_a_range_of_its_own() -> None:
    """The eight copies of three different ranges are gone: every user reads xaid.text.cjk."""
    own = re.compile(r"\\u4e00|\\u3400|\\u9fff|\\uf900|[\u3400-\u9fff]-[\u3400-\u9fff]")
    found = [
        f"{p.relative_to(XAID)}:{n}"
        for p in XAID.rglob("*.py")
        if p.name != "cjk.py"
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if own.search(line)
    ]
    assert found == []


def test_numbers_in_digits_keep_the_character_after_them() -> None:
    """A date or amount in digits is a word of its own ("3月", "22号"); a day ending in 日 is the same
    day as one ending in 号; a number in English text has no Chinese unit and gives nothing."""
    assert cjk.numbered("3月22号我弟结婚，22日再说") == ["3月", "22号"]
    assert cjk.numbered("跑了5公里，花了30分钟") == ["5公", "30分"]
    assert cjk.numbered("march 22nd is my brother's wedding, 3 weeks away") == []
    assert cjk.numbered("三月二十二号") == []  # numerals in characters are pairs already
