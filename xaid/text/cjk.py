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
