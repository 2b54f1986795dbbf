"""Which characters count as Chinese: one set of code point ranges for every rule, index and
language guess in xaid.

The set is the CJK ideographs of the Basic Multilingual Plane:

* U+4E00–U+9FFF, CJK Unified Ideographs: every common character, simplified and traditional;
* U+3400–U+4DBF, Extension A: rare characters that still turn up in people's and places' names
  and in Cantonese or classical quotations. A message made of them is Chinese, and a name such as
  "㛃" must not break a run in two;
* U+F900–U+FAFF, CJK Compatibility Ideographs: what text converted from legacy encodings (Big5,
  KS X 1001, some Japanese names such as "﨑") carries in place of a unified ideograph. xaid does not
  NFKC-normalise what the user wrote, so these arrive as they are.

Left out: U+4DC0–U+4DFF between Extension A and the unified block (the Yijing hexagram symbols, not
characters anyone writes in a sentence), the punctuation of U+3000–U+303F (it separates words, it
is not one), and the supplementary-plane extensions B and later (U+20000 and up). Those are real
ideographs, but the keyword indexes (``store.db.cjk_bigrams``/``cjk_runs``, called by the FTS
triggers) were built with this set; widening it would make new rows and queries tokenise
differently from stored ones, so it takes a migration that rebuilds the indexes, not an edit here.
"""

from __future__ import annotations

import re
from collections.abc import Collection

IDEOGRAPHS = (
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # the body of a character class: [{IDEOGRAPHS}A-Za-z]
)
HAN = re.compile(f"[{IDEOGRAPHS}]")
RUN = re.compile(f"[{IDEOGRAPHS}]+")
NON_CJK_WORD = re.compile(
    rf"[^\W_{IDEOGRAPHS}]+"
)  # a word of any other script, split where Chinese starts


def has(text: str) -> bool:
    return HAN.search(text) is not None


def count(text: str) -> int:
    """How many Chinese characters a text holds."""
    return len(HAN.findall(text))


def runs(text: str) -> list[str]:
    """The maximal runs of Chinese characters, in order: the words of a text without spaces."""
    return RUN.findall(text)


def pairs(text: str, stop: Collection[str] = ()) -> list[str]:
    """Every pair of adjacent Chinese characters within a run, first occurrence first, leaving out a
    pair with a ``stop`` character in it: most Chinese words are two characters, and a pair with a
    particle or a pronoun in it is not a word."""
    found = (run[i : i + 2] for run in RUN.findall(text) for i in range(len(run) - 1))
    return list(dict.fromkeys(p for p in found if not (p[0] in stop or p[1] in stop)))


# A number written in digits with the Chinese character after it: "3月", "22号", "5公里"'s "5公", "两点"
# aside (no digit). Date days are one token whichever word ends them: "22号" and "22日" say the same day.
_NUMBERED = re.compile(rf"(\d+)([{IDEOGRAPHS}])")
_DAY_MARKS = {"日": "号"}


def numbered(text: str) -> list[str]:
    """Every number in digits with the Chinese character that follows it ("3月22号我弟结婚" → "3月",
    "22号"), first occurrence first; a date's day as "N号" whether it ends in 号 or 日.

    Why: Chinese is indexed by its character pairs and runs, which stop at a digit, and the Latin
    index reads "3月22号我弟结婚" as one word, so a date or an amount written in digits could be
    found by no keyword at all: "3月22号眼看就到了" never reached "3月22号我弟结婚" (issue 28,
    associative_dev13), which a plain BM25 over the same turns finds. The number with its unit is
    the word: "22" alone would match any 22."""
    found = (m.group(1) + _DAY_MARKS.get(m.group(2), m.group(2)) for m in _NUMBERED.finditer(text))
    return list(dict.fromkeys(found))
