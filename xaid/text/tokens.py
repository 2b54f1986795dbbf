"""How many tokens the model reads for a text: what the prompt budget, the memory block and the
kept turns are measured in.

The budgets are the model's, so the count has to be the model's too. The old estimate (characters
/ 3 + 4) counted English at 1.59x the default model's real tokens and Chinese at 0.73x, so an
English memory block filled three quarters of its budget and a Chinese one overflowed it. Running
the model's tokenizer on every candidate memory of every turn would need the model's vocabulary
in the daemon's process (the model is moving to a runner process of its own), so the count is an
estimate calibrated per script against the real tokenizer instead: Qwen2.5's (the default models,
0.5B and 1.5B, share it). A byte-level BPE spends about one token per English word, one per digit
(Qwen splits numbers into digits), one per punctuation mark and two thirds of a token per Chinese
character (common words of two characters are one token), so the estimate is a weighted count.

The weights were fitted by least squares on the even samples of LoCoMo and of perf's companion set
(the two weighted alike) and checked on the odd ones (``python -m perf.eval.token_counter``, table in
docs/memory.md): before the Latin margin, the held-out totals were within 0.3 % of Qwen2.5's count
on LoCoMo's English, 3.5 % on the companion set's English (it has Italian in it) and 3.2 % in
Chinese, and a single English turn within 2.5 % at the median (Chinese turns vary more, 9 %: which
character pairs are one token is the vocabulary's own; a block of turns averages it out). Kana and
Hangul count like Chinese characters, unmeasured. The same weights count SmolLM2's English within
3 %; SmolLM2 spends ~2.6x as many tokens on Chinese, which that English-only model is not offered
for. An OpenAI-compatible server's model is counted with the same table, a documented estimate:
the daemon does not know that model's tokenizer.

``count`` is a text's tokens; ``estimate_tokens`` is a chat message's, with the few tokens the chat
template puts around each message (``<|im_start|>role\\n`` … ``<|im_end|>\\n``).
"""

from __future__ import annotations

import re

from .cjk import IDEOGRAPHS

MESSAGE_OVERHEAD = 5  # <|im_start|>, the role, a newline, then <|im_end|> and a newline: ChatML

# Tokens per unit, fitted against Qwen2.5's tokenizer (see the module docstring).
PER_CJK = 0.668  # a Chinese character
PER_WORD = 0.991  # a run of Latin letters
PER_LONG_LETTER = 0.034  # each letter of a word past its sixth: long words split more often
# A run of letters longer than any word (a hash, a key held down, a pasted blob) splits like
# random text: a token per few letters, not one per word.
LONGEST_WORD = 24
PER_RUN_LETTER = 0.3
PER_CAPITAL = 0.269  # more for a capitalised word: names and places are rarer in the vocabulary
PER_DIGIT = 1.172  # a digit: Qwen splits numbers into single digits
PER_SPACED_DIGIT = 1.37  # more for a number after a space: the space is a token of its own
PER_PUNCT = 0.667  # ASCII punctuation and symbols (". " and "?!" sometimes merge)
PER_CJK_PUNCT = 1.081  # full-width punctuation and typographic quotes: "，" "。" "“" "…" "—"
PER_OTHER = 1.136  # any other non-ASCII character (accents, emoji, other scripts): several bytes
# Next to Chinese, ASCII punctuation and spaces never merge with a neighbour, and a Chinese character
# after a space is split into bytes ("建国: 小暖" is 建|国|:| �|�|暖): measured on memories as
# memory.search shows them ("[2026年2月25日] 建国: … — 小暖: …"), which these three bring from 0.85 to
# 0.96 of the real count without changing a plain Chinese turn's.
PER_PUNCT_BY_CJK = (
    1.0  # ASCII punctuation just before or after a Chinese character (or a digit before)
)
PER_SPACE_BEFORE_CJK = 1.0  # a space, not at a run of spaces' start, before a Chinese character
PER_SPACED_DASH = 1.0  # a dash or an ellipsis between two spaces: " — " is " —" and a lone space

# The budget is a ceiling: Latin words are counted 4 % high, so a packed block stays under 105 % of
# it where the vocabulary splits words more than the weights expect (names, Italian in an English
# chat): that error is one-sided, an unusual word is never cheaper than a common one.
LATIN_MARGIN = 1.04

_CJK = re.compile(f"[{IDEOGRAPHS}\u3040-\u30ff\uac00-\ud7af]")  # Hanzi, kana and Hangul
_WORD = re.compile(r"[A-Za-z]+")
_DIGIT = re.compile(r"[0-9]")
_SPACED_DIGIT = re.compile(r"(?<= )[0-9]")
_PUNCT = re.compile(r"[!-/:-@\[-`{-~]")
_CJK_PUNCT = re.compile(r"[\u3000-\u303f\uff00-\uffef\u2010-\u201f\u2026]")
_PUNCT_BY_CJK = re.compile(
    rf"(?<=[{IDEOGRAPHS}0-9])[!-/:-@\[-`{{-~]|[!-/:-@\[-`{{-~](?=[{IDEOGRAPHS}])"
)
_SPACE_BEFORE_CJK = re.compile(rf"(?<=[^ ]) (?=[{IDEOGRAPHS}])")
_SPACED_DASH = re.compile(r"(?<= )[\u2010-\u201f\u2026](?= )")


def count(text: str) -> int:
    """The model's tokens for ``text``, estimated (0 for an empty text)."""
    if not text:
        return 0
    words = _WORD.findall(text)
    # One pass over the words for their three corrections, and no per-character Python loop: memory
    # search counts every candidate it packs (~150 per search at 1,000 tokens), and the generators
    # this replaces were half of a search's time (docs/memory.md, "Search latency").
    long_letters = run_letters = capitals = 0
    for w in words:
        n = len(w)
        if n > 6:
            if n <= LONGEST_WORD:
                long_letters += n - 6
            else:
                run_letters += n
        if w[0] < "a":
            capitals += 1
    if text.isascii():
        cjk = cjk_punct = other = 0
    else:
        cjk = len(_CJK.findall(text))
        cjk_punct = len(_CJK_PUNCT.findall(text))
        ascii_chars = len(text.encode("ascii", "ignore"))
        other = len(text) - ascii_chars - cjk - cjk_punct
    latin = (
        PER_WORD * len(words)
        + PER_LONG_LETTER * long_letters
        + PER_CAPITAL * capitals
        + PER_RUN_LETTER * run_letters
    )
    total = (
        latin * LATIN_MARGIN
        + PER_CJK * cjk
        + PER_DIGIT * len(_DIGIT.findall(text))
        + PER_SPACED_DIGIT * len(_SPACED_DIGIT.findall(text))
        + PER_PUNCT * len(_PUNCT.findall(text))
        + PER_CJK_PUNCT * cjk_punct
        + PER_OTHER * max(0, other)
    )
    if cjk:
        total += (
            (PER_PUNCT_BY_CJK - PER_PUNCT) * len(_PUNCT_BY_CJK.findall(text))
            + PER_SPACE_BEFORE_CJK * len(_SPACE_BEFORE_CJK.findall(text))
            + PER_SPACED_DASH * len(_SPACED_DASH.findall(text))
        )
    return max(1, round(total))


def estimate_tokens(text: str) -> int:
    """One chat message's tokens: its text and the chat template around it."""
    return count(text) + MESSAGE_OVERHEAD
