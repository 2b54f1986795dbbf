"""A message that is only a greeting or a return, and the greeting that answers it.

The lead (checkin.py) echoes it ("早。", "Morning!", "欢迎回来！"), opener.py reads such a message as
having nothing of its own to say, and the voice check (voice.py) lets a greeting said back pass.
Here alone, so that none of them imports another for it.
"""

from __future__ import annotations

import re

from ..text.lang import Lang

# The user's opener, lower-cased and without punctuation, to the greeting echoed back.
_ECHO_ZH = (
    (re.compile(r"^(?:早|早安)+(?:呀|啊|哇|鸭)?$"), "早。"),
    (re.compile(r"^早上好(?:呀|啊|哇)?$"), "早上好！"),
    (
        re.compile(
            r"^(?:嗨|嘿|哈喽|你好|hi|hello|hey)?[，,\s]*我回来(?:了|啦|喽|咯)+(?:啦|呀|啊)?$"
        ),
        "{g}欢迎回来！",
    ),
    (re.compile(r"^(?:嗨|嘿|哈喽|哈啰|hi|hello|hey)+(?:呀|啊)?$"), "嗨，"),
    (re.compile(r"^(?:你好|您好)(?:呀|啊)?$"), "你好呀，"),
    (re.compile(r"^(?:在吗|在不在|在么)$"), "在呢。"),
)
# A greeting said as people type it: letters drawn out ("heyy", "morninggg", "hiii"), a dropped g
# ("mornin'"), a greeting twice ("hi hi"); nothing else in the message.
_HI_EN = r"(?:h+i+|he+y+|hel+o+|hiya|howdy|yo+)"
_MORNING_EN = r"(?:(?:good\s*)?mo+r+n+i+n+(?:g+|')?|gm)"
_ECHO_EN = (
    (re.compile(rf"^{_MORNING_EN}(?:[\s,]+{_MORNING_EN}|[\s,]+all)?$"), "Morning!"),
    (
        re.compile(rf"^(?:({_HI_EN})[\s,]*)?(?:i'm|i am|im) (?:back|home)(?: again)?$"),
        "{G}elcome back!",
    ),
    (re.compile(rf"^{_HI_EN}(?:[\s,]+{_HI_EN})*(?: there)?$"), "Hey!"),
)
_SMILEY = re.compile(r"\s*[:;=]-?[()dp3]+\s*$")  # a typed smiley at the end: "morning :)", "hi ;p"


def greeting_echo(said: str, lang: Lang) -> str | None:
    """The greeting that answers ``said`` when it is only a greeting or a return, else None."""
    bare = _SMILEY.sub("", said.strip().lower().replace("’", "'"))
    # trailing punctuation, emoji, "~": "morning :)", "早安～😊"
    bare = re.sub(r"[^\w']+$", "", bare)
    bare = re.sub(r"^[\s]+", "", bare)
    if lang == "zh":
        for pattern, echo in _ECHO_ZH:
            if pattern.match(bare):
                greeted = re.match(r"^(嗨|嘿|哈喽|你好)", bare)
                return echo.format(g=f"{greeted.group(1)}，" if greeted else "")
        return None
    for pattern, echo in _ECHO_EN:
        if m := pattern.match(bare):
            word = m.group(1) if m.groups() else None
            return echo.format(G=f"{_plain(word).capitalize()}, w" if word else "W")
    return None


def _plain(word: str) -> str:
    """A drawn-out greeting as it is written plainly: "heyy" → "hey", "hiii" → "hi"."""
    return re.sub(r"(.)\1+", r"\1", word) if word not in ("hello",) else word
