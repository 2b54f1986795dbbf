"""A do-not-ask said after the matter was armed: which pending items it takes back (issue 25).

Monday: "跟男朋友冷战第三天了" arms a matter. Tuesday, in another session: "他今天发朋友圈了…" then "算了，
以后别再提他了". A session with a do-not-ask arms nothing (arm.py), but the matter armed the day
before stayed pending and Wednesday began "早。上次你说跟男朋友冷战". A friend would not. What the user
asks not to have raised is read from the structure of the sentence, not from a list of subjects:

- **its object** (``object_words``): the words of the do-not-ask's clause besides the refusal
  itself, before its verb (a topic said first, "相亲那事我不想聊了") and after it ("don't ask me about
  work lol", 别问我工作的事). Pronouns, whom it is said to, "the thing", and the words that soften or
  time it ("again", "for a while", 以后, 再, 了) are closed classes and name nothing; what is left,
  if anything, is the object;
- **with an object of its own**, the items whose keywords it holds (``arm.came_up``): "don't ask
  me about work" takes back nothing of Wednesday's scan;
- **with none** ("don't bring him up again", "can we just not talk about him for a while", 别再提了),
  it is about what was being talked about: the items a line of the session up to it names (a
  keyword, or the line's meaning close to the item's words, ``retire.SAME_MATTER``). When no line
  of the session names one, its antecedent is in memory: for "him"/"her"/他/她, the matter armed
  last whose words hold a person (a relation word or a name), unless the session named a person of
  its own; for "it" or nothing, said as the session's first words, the matter armed last.

An item taken back is closed as the user's wish, whatever its scene (a feeling or a loss too: the
user asked not to hear of it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from .. import clock
from ..store.recall import RecallItem
from ..text import cjk, timeparse
from ..text.clauses import clauses
from . import arm, matter, someone

HOW = "asked not to be asked about"
# The words of a do-not-ask that name nothing: the refusal's own (negation, modals, the verb of
# raising), pronouns, whom it is said to, "the thing", and words that soften or time it.
_CLOSED_EN = frozenset(
    (
        "don't dont do not never rather stop no more can could shall we let's lets just please pls "
        "bring bringing up ask asking mention mentioning talk talking speak speaking about hear "
        "hearing name am is are be we're were "
        "want wanna to you dare even ever i i'd i'm me my us it that this him her his them their "
        "he she they the thing things stuff whole with of again anymore any for a while now today "
        "tomorrow tonight okay ok lol lmao seriously really mean so and but actually though k thx "
        "thanks"
    ).split()
)
# Chinese: the same closed classes, as characters and short words removed from the clause.
_CLOSED_ZH = re.compile(
    r"别|不要|不想|不用|不许|甭|提|问|聊|说|听到|主动|再|以后|今后|[他她它我你咱俺]们?|[跟和对向给]"
    r"|这件事|那件事|这事|那事|这个|那个|这些|那些|的事|事情|件|名字|了|啦|吧|啊|呀|哦|嘛|呢|好吗|行吗|好不好"
    r"|真的|拜托|求你|求求你|算了|都|也|还|就|千万|请|一下|的"
)
_WORD_EN = re.compile(r"[a-z0-9][a-z0-9'-]*")


def object_words(text: str) -> str | None:
    """What the do-not-ask in ``text`` names ("" for a pronoun or nothing: "don't bring him up
    again", 以后别再提她了), or None when the text asks nothing of the kind."""
    if not arm.do_not_ask(text):
        return None
    low = text.lower().replace("\u2019", "'")
    for clause in clauses(low):
        m = arm.DO_NOT_ASK_SHAPE.search(clause)
        if m is None:
            continue
        rest = _CLOSED_ZH.sub(" ", clause)
        words = [w for w in _WORD_EN.findall(rest) if w not in _CLOSED_EN]
        han = "".join(cjk.HAN.findall(rest))
        return " ".join([*words, han] if len(han) >= 2 else words)
    return ""  # one of arm.DO_NOT_ASK's wordings, with nothing of its own


def _close(vector: np.ndarray | None, item_vector: np.ndarray | None, bar: float) -> bool:
    if vector is None or item_vector is None:
        return False
    return float(np.dot(matter.unit(vector), matter.unit(item_vector))) >= bar


def taken_back(
    items: Sequence[RecallItem],
    texts: Sequence[str],
    vectors: Sequence[np.ndarray | None],
    item_vectors: dict[int, np.ndarray],
    quoted: dict[int, str],
    same_matter: float,
    times: Sequence[int] = (),
) -> dict[int, str]:
    """The pending items a do-not-ask among the session's user lines ``texts`` (in order, with their
    ``vectors`` and, when known, their ``times``) takes back, each with the line that did.
    ``quoted``: the user's words each item quotes; ``same_matter``: the cosine from which a line is
    about an item's matter."""
    out: dict[int, str] = {}
    for i, text in enumerate(texts):
        said = object_words(text)
        if said is None:
            continue
        if said:
            hit = [it for it in items if arm.came_up(said, it.keywords, happened=False)]
            if not hit and i < len(times):
                hit = _of_the_day(items, said, times[i])
        else:
            hit = [
                it
                for it in items
                for j in range(i + 1)
                if arm.came_up(texts[j], it.keywords, happened=False)
                or _close(vectors[j], item_vectors.get(it.item_id), same_matter)
            ]
            if not hit:
                hit = _antecedent(items, texts[: i + 1], quoted)
        for it in hit:
            out.setdefault(it.item_id, text)
    return out


def _of_the_day(items: Sequence[RecallItem], said: str, now_ms: int) -> list[RecallItem]:
    """The items armed on a past day the do-not-ask's object names and nothing else of it matched
    ("昨天的事你别再提了", "what i told you last night, drop it"): what was said that day is meant."""
    today = clock.local(now_ms).date()
    days = [(t.date_from, t.date_to) for t in timeparse.find_times(said, now_ms)]
    days = [(a, b) for a, b in days if b < today]
    return [it for it in items if any(a <= clock.local(it.created_ms).date() <= b for a, b in days)]


def _antecedent(
    items: Sequence[RecallItem], session: Sequence[str], quoted: dict[int, str]
) -> list[RecallItem]:
    """The items a bare do-not-ask refers to when nothing said in the session names one: for
    "him"/她, the matter armed last whose words hold a person (none when the session named a person
    of its own, the likelier antecedent); for "it" or nothing, said as the session's first words,
    the matter armed last (with its twin: the items of one episode)."""
    last = session[-1].lower()
    if someone.PERSON_PRONOUN.search(last):
        if any(someone.holds_person(someone.PERSON_PRONOUN.sub(" ", t)) for t in session):
            return []
        items = [it for it in items if someone.holds_person(quoted.get(it.item_id, it.topic))]
    elif len(session) > 1:
        return []
    if not items:
        return []
    newest = max(items, key=lambda it: it.created_ms)
    if newest.source_episode is None:
        return [newest]
    return [it for it in items if it.source_episode == newest.source_episode]
