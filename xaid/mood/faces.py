"""Emoji, emoticons and stickers: the feeling the rules read in each, and the words it says.

Why words: the default embedder (USE-multilingual-v3) has no emoji in its vocabulary. Every
pictograph is its unknown token, so to the learned reader (learned.py) "😭" and "🎉" were the same
token, and a session whose feeling a face carries ("didn't get the job 🥲", "上岸了😭😭😭", "passed 🎉")
reached it only through what the rules made of the face, and a face the rules leave unread (🥲,
🙃, 💀) not at all. ``gloss`` writes each face as the words people would say for it, in the text's
language, before the text is embedded ("又挂科了QAQ" → "又挂科了哭"); the reader then reads a face
by its meaning and by what it sits next to, as it reads any word.

Unicode emoji are a closed set, and so are the emoticons and stickers people type ("orz", "QAQ",
"T_T"): a table of what each usually means is a lexicon of a closed class, not a phrase list. One
table serves both readers (``FACES``):

- ``cue``: what the rules read in the face (classifier.py), or None for a face whose use is split
  (🙃 irony or play, 💀 "dead" of laughing or of shame, 🥲 smiling through pain, 🥺 pleading or
  "aww", 🤯 overwhelmed or amazed, ✨, 👏, 😏): a rule that is wrong a third of the time is worse
  than none, and the session's meaning, which now sees the face's words, decides them;
- ``en``, ``zh``: the words the face says, for the embedder.

A pictograph not in the table (🍝, 🔑, 📍) says a thing, not a feeling: ``gloss`` writes its Unicode
name ("spaghetti", "key"), so a ring or a birthday cake still tells the reader what the session is
about, and the unknown token no longer stands for every face alike.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..text import cjk
from .lexicon_en import (
    AMUSED,
    ANGRY,
    ANNOYED,
    ANXIOUS,
    CALM,
    CONFIDENT,
    CRYING,
    EXCITED,
    GOOD,
    HURT,
    JOY,
    LOVE,
    MEH,
    MILDLY_BAD,
    OVERLOADED,
    SAD,
    SCARED,
    SIGH,
    SLEEPY,
    STRESSED,
    Cue,
    Entry,
)

_ILL = Cue(-0.4, 0.1, 0.5)  # 🤒: unwell, and so drained
_DISGUST = Cue(-0.6, 0.5, 0.05)
_MOVED = Cue(0.5, 0.4, 0.0)  # 🥹: holding back tears, of pride or of being touched
_MELTING = Cue(-0.35, 0.1, 0.5)  # 🫠: wilting under it all
_WORN = Cue(-0.5, 0.4, 0.7)  # 😫
_WEARY = Cue(-0.55, 0.35, 0.6)  # 😩
_DEFEATED = Cue(-0.55, 0.2, 0.3)  # orz: a person on their knees, beaten by the day


@dataclass(frozen=True, slots=True)
class Face:
    """One emoji, emoticon or sticker: the rules' reading (None: left to meaning) and its words."""

    cue: Entry | None
    en: str
    zh: str


FACES: dict[str, Face] = {
    # faces and signs of one feeling, read by the rules too (feel7; docs/mood.md)
    "😭": Face((CRYING, 0.7), "crying", "大哭"),
    "😢": Face((SAD, 0.6), "sad tears", "难过流泪"),
    "😞": Face((SAD, 0.5), "disappointed", "失望"),
    "😔": Face((SAD, 0.5), "feeling down", "低落"),
    "💔": Face((HURT, 0.7), "heartbroken", "心碎"),
    "😡": Face((ANGRY, 0.75), "furious", "愤怒"),
    "😠": Face((ANGRY, 0.65), "angry", "生气"),
    "😤": Face((ANNOYED, 0.6), "fuming", "气愤"),
    "😰": Face((ANXIOUS, 0.6), "anxious", "焦虑"),
    "😱": Face((SCARED, 0.7), "terrified", "吓坏了"),
    "😴": Face((SLEEPY, 0.65), "sleepy", "困"),
    "🥱": Face((SLEEPY, 0.55), "yawning", "打哈欠"),
    "😫": Face((_WORN, 0.65), "worn out", "累垮了"),
    "😩": Face((_WEARY, 0.6), "weary", "心累"),
    "😊": Face((JOY, 0.55), "happy", "开心"),
    "🙂": Face((GOOD, 0.35), "smiling", "微笑"),
    "😄": Face((JOY, 0.65), "laughing happily", "开心大笑"),
    "😁": Face((JOY, 0.6), "grinning", "咧嘴笑"),
    "😂": Face((AMUSED, 0.55), "laughing so hard", "笑哭"),
    "🤣": Face((AMUSED, 0.6), "rolling with laughter", "笑死"),
    "🥰": Face((LOVE, 0.65), "feeling loved", "幸福"),
    "😍": Face((LOVE, 0.7), "in love", "爱了"),
    "🎉": Face((EXCITED, 0.65), "celebrating", "庆祝"),
    "❤️": Face((LOVE, 0.6), "love", "爱"),
    "❤": Face((LOVE, 0.55), "love", "爱"),
    "👍": Face((GOOD, 0.35), "thumbs up", "点赞"),
    "🥳": Face((EXCITED, 0.65), "partying", "开派对庆祝"),
    "🤩": Face((EXCITED, 0.6), "starstruck", "激动"),
    "🎊": Face((EXCITED, 0.6), "celebration", "庆祝"),
    "🍾": Face((EXCITED, 0.5), "popping champagne", "开香槟"),
    "🥂": Face((GOOD, 0.45), "cheers", "干杯"),
    "🏆": Face((GOOD, 0.5), "won the trophy", "夺冠"),
    # shipped, launched: its usual sense
    "🚀": Face((EXCITED, 0.5), "launched, full speed", "起飞"),
    "🙌": Face((JOY, 0.5), "hooray", "太好了"),
    "😀": Face((JOY, 0.55), "smiling", "笑"),
    "😃": Face((JOY, 0.6), "smiling", "笑"),
    "😆": Face((JOY, 0.6), "laughing", "哈哈"),
    "☺️": Face((GOOD, 0.45), "content", "欣慰"),
    "☺": Face((GOOD, 0.4), "content", "欣慰"),
    "😌": Face((CALM, 0.45), "relieved", "松了口气"),
    "😎": Face((GOOD, 0.45), "cool", "酷"),
    "🤗": Face((GOOD, 0.4), "a hug", "抱抱"),
    "🥹": Face((_MOVED, 0.5), "holding back tears", "感动"),
    "💪": Face((CONFIDENT, 0.4), "strong", "加油"),
    "😘": Face((LOVE, 0.5), "a kiss", "亲亲"),
    "💕": Face((LOVE, 0.5), "love", "爱"),
    "💖": Face((LOVE, 0.55), "love", "爱"),
    "💗": Face((LOVE, 0.5), "love", "爱"),
    "😻": Face((LOVE, 0.55), "adoring", "喜欢"),
    "<3": Face((LOVE, 0.45), "love", "爱"),
    "☹️": Face((SAD, 0.5), "frowning", "不开心"),
    "☹": Face((SAD, 0.5), "frowning", "不开心"),
    "🙁": Face((SAD, 0.4), "frowning", "不开心"),
    "😥": Face((SAD, 0.45), "sad", "难过"),
    "😓": Face((SAD, 0.45), "dejected", "沮丧"),
    "😿": Face((CRYING, 0.6), "crying", "哭"),
    "😟": Face((ANXIOUS, 0.5), "worried", "担心"),
    "😨": Face((SCARED, 0.65), "scared", "害怕"),
    "😬": Face((ANXIOUS, 0.4), "nervous", "紧张"),
    "😣": Face((STRESSED, 0.5), "struggling", "难受"),
    "😖": Face((STRESSED, 0.55), "upset", "难受"),
    "😕": Face((MILDLY_BAD, 0.35), "let down", "有点失望"),
    "😒": Face((ANNOYED, 0.5), "unamused", "不爽"),
    "🙄": Face((ANNOYED, 0.5), "rolling my eyes", "翻白眼"),
    "🤬": Face((ANGRY, 0.8), "swearing mad", "气炸了"),
    "🤮": Face((_DISGUST, 0.5), "disgusted", "恶心"),
    "😑": Face((MEH, 0.4), "expressionless", "面无表情"),
    "😮‍💨": Face((SIGH, 0.5), "sighing", "叹气"),
    "😪": Face((SLEEPY, 0.6), "sleepy", "困"),
    "😵‍💫": Face((OVERLOADED, 0.5), "dizzy", "头晕"),
    "🫠": Face((_MELTING, 0.45), "melting", "要化了"),
    "🤒": Face((_ILL, 0.5), "sick", "生病"),
    "🤕": Face((_ILL, 0.5), "hurt", "受伤"),
    ":)": Face((GOOD, 0.35), "smiling", "微笑"),
    ":-)": Face((GOOD, 0.35), "smiling", "微笑"),
    ":D": Face((JOY, 0.5), "laughing", "大笑"),
    ":(": Face((SAD, 0.45), "sad", "难过"),
    ":-(": Face((SAD, 0.45), "sad", "难过"),
    ":'(": Face((CRYING, 0.6), "crying", "哭"),
    # stickers typed as letters: a crying face (T_T, QAQ, QwQ, TAT), a person on their knees (orz)
    "T_T": Face((CRYING, 0.55), "crying", "哭"),
    "QAQ": Face((CRYING, 0.5), "crying", "哭"),
    "QwQ": Face((CRYING, 0.45), "crying", "哭"),
    "TAT": Face((CRYING, 0.5), "crying", "哭"),
    "orz": Face((_DEFEATED, 0.5), "defeated", "跪了"),
    "OTZ": Face((_DEFEATED, 0.5), "defeated", "跪了"),
    "Orz": Face((_DEFEATED, 0.5), "defeated", "跪了"),
    # faces of split use: their usual words for the embedder, no rule (module doc)
    "🥲": Face(None, "smiling through tears", "苦笑"),
    "🙃": Face(None, "upside-down smile", "无奈"),
    "💀": Face(None, "dead", "要死了"),
    "🥺": Face(None, "pleading", "委屈"),
    "🤯": Face(None, "mind blown", "脑子炸了"),
    "😅": Face(None, "nervous laugh", "尴尬"),
    "😏": Face(None, "smirking", "得意"),
    "🤡": Face(None, "clown", "小丑"),
    "😐": Face(None, "blank face", "无语"),
    "😶": Face(None, "speechless", "无语"),
    "🙈": Face(None, "can't look", "捂脸"),
    "✨": Face(None, "sparkles", "闪亮"),
    "👏": Face(None, "clapping", "鼓掌"),
    "🔥": Face(None, "fire", "火"),
    "💯": Face(None, "one hundred percent", "满分"),
    "🙏": Face(None, "praying", "拜托"),
    "🤞": Face(None, "fingers crossed", "祈祷"),
    "🤷": Face(None, "shrug", "无所谓"),
}

# Where a face is written with a variation selector or a skin tone, it is the same face.
_MODIFIERS = re.compile("[\ufe0e\ufe0f\U0001f3fb-\U0001f3ff]")
# Pictographs the embedder cannot read: the symbol blocks where emoji live.
_PICTOGRAPH = re.compile("[\u2600-\u27bf\U0001f000-\U0001faff]")
_ZWJ = "\u200d"


def _pattern(keys: list[str]) -> re.Pattern[str]:
    """Longest first; a sticker of letters ("orz", "QAQ") only where it is not part of a word."""
    parts = [
        rf"(?<![A-Za-z]){re.escape(k)}(?![A-Za-z])"
        if k.replace("_", "").isalpha()
        else re.escape(k)
        for k in sorted(keys, key=len, reverse=True)
    ]
    return re.compile("|".join(parts))


RULED: dict[str, Entry] = {k: f.cue for k, f in FACES.items() if f.cue is not None}
RULED_PATTERN = _pattern(list(RULED))  # what the rules read (classifier.py)
_ANY = _pattern(list(FACES))


def _said(face: str, chinese: bool) -> str:
    known = FACES.get(face) or FACES.get(_MODIFIERS.sub("", face))
    if known is not None:
        return known.zh if chinese else known.en
    names = (unicodedata.name(c, "").lower() for c in face if _PICTOGRAPH.match(c))
    return " ".join(n for n in names if n and not n.startswith("regional indicator"))


_SAID = re.compile(rf"{_ANY.pattern}|{_PICTOGRAPH.pattern}(?:{_ZWJ}{_PICTOGRAPH.pattern})*")
_NOTHING_ELSE = re.compile(r"[\W_]*")


def only(text: str) -> bool:
    """Whether ``text`` holds faces and nothing else (no word, no character): a sentence of
    them ("It's done! 🎉") belongs to the sentence before it."""
    clean = _MODIFIERS.sub("", text)
    rest = _SAID.sub("", clean)
    return rest != clean and _NOTHING_ELSE.fullmatch(rest) is not None


def gloss(text: str) -> str:
    """``text`` with each face written as its words, in Chinese where the text has Chinese, else
    in English; a run of the same face is said once ("😭😭😭" is one face, said loudly: the words
    would otherwise outweigh what the face is about). Text without a face is returned as it is."""
    if not (_PICTOGRAPH.search(text) or _ANY.search(text)):
        return text
    chinese = cjk.has(text)
    clean = _MODIFIERS.sub("", text)
    out: list[str] = []
    last = ""
    at = 0
    for m in _SAID.finditer(clean):
        between = clean[at : m.start()]
        face = m.group()
        if between.strip() or face != last:
            words = _said(face, chinese)
            out.append(between)
            if words:
                out.append(words if chinese else f" {words} ")
        else:
            out.append(between)
        last, at = face, m.end()
    out.append(clean[at:])
    return re.sub(r" {2,}", " ", "".join(out)).strip()
