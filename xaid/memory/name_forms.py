"""One person, several names: the other forms of a name the query says, as the agent's turns say them.

People call one friend by several forms of the name, and a mention rarely uses the form the earlier
line did: "阿珍刚才在茶水间偷偷哭了" after "我们部门的珍姐要休产假了"; "周哥今天请我喝了杯咖啡" after
"老周要辞职回老家开民宿了"; "Matt's coming round for dinner" after "Matthew's band got a slot at a
festival". The embedder puts the two lines far apart (the name is a small part of each sentence:
cosine ~0.17 on held-out set 5's misses), and the keyword indexes share no term: a Chinese name form
is one character pair (阿珍, 珍姐), and an English short form is another word (matt, matthew).

How names are formed is a small, closed grammar, so the other forms are derived, not listed:

- Chinese: a one-character core with 阿, 小, 老 or 大 before it, 姐, 哥, 子, 妹 or 仔 after it, or
  doubled (阿珍, 小珍, 珍姐, 珍珍; 老周, 周哥; 强子, 阿强). A core that is a kinship morpheme is left
  out: 老婆 is not 婆婆, 老公 not 公公 (those words are a closed class of their own).
- English: a short form is the long one's first three or more letters, perhaps with a pet ending
  (-y, -ie, -ey, -o, -e) and a doubled consonant before it (Matt, Sammy, Danny, Robbie, Kate →
  Matthew, Samantha, Daniel, Robert, Katherine). Only words written with a capital in the query count
  as names (not an acronym in capitals throughout), and a form found in the agent's turns counts
  only where it is mostly written with a capital there ("Chris" is no "christening" said in passing).

Only forms the agent's keyword indexes hold are returned (the vocabulary tables: a lookup by term,
no scan), so a query gains keywords only where some turn says the name another way. Forms it does
not reach: a name from another root (Bill/William, Tony/Anthony, Liz/Elizabeth), a kinship or role
word said another way (对象 → 男朋友).
"""

from __future__ import annotations

import re

import apsw

from ..text import cjk
from ..text.stopwords import CJK_PAIR, ENGLISH

ZH_BEFORE = "阿小老大"
ZH_AFTER = "姐哥子妹仔"
# Kinship morphemes: with 老/小/阿 before them they are kinship words (老婆, 老公, 小姨, 阿婆), not a
# name's forms, and their other "forms" are other relatives (婆婆, 公公).
ZH_KIN = frozenset("婆公爷奶姐哥妹弟爸妈姨舅叔伯姑嫂孩儿爹娘娃")
EN_ENDINGS = ("ie", "ey", "y", "o", "e")
EN_CORE = 3  # the fewest letters a short form keeps of the long one
CAPITALISED_SHARE = 0.5  # of a form's uses in the agent's turns, at least this many with a capital
LOOKED_AT = 12  # turns read to judge how a form is written
_WORD = re.compile(r"[A-Za-z]+")
_OPENERS = ".!?…:;\"'“‘(-—"  # what may stand before the first word of a sentence
# Months and weekdays are written with a capital and are nobody's name ("in May 2023" is no "Maybe").
CALENDAR = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec "
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat "
    "sun".split()
)


def zh_core(pair: str) -> str | None:
    """The name's core character if ``pair`` is a name form by the grammar above, else None."""
    if len(pair) != 2:
        return None
    first, second = pair[0], pair[1]
    if first == second:
        core = first
    elif first in ZH_BEFORE:
        core = second
    elif second in ZH_AFTER:
        core = first
    else:
        return None
    if core in ZH_KIN or core in ZH_BEFORE or core in ZH_AFTER or core in CJK_PAIR:
        return None
    return core if cjk.has(core) else None


def zh_forms(core: str) -> list[str]:
    """Every form of a name with this core, the grammar's order."""
    return [p + core for p in ZH_BEFORE] + [core + core] + [core + s for s in ZH_AFTER]


def chinese(conn: apsw.Connection, pairs: list[str]) -> list[str]:
    """The other forms of the names among the query's character ``pairs`` that the bigram index holds."""
    wanted: list[str] = []
    for pair in pairs:
        core = zh_core(pair)
        if core is not None:
            wanted += [f for f in zh_forms(core) if f not in pairs and f not in wanted]
    if not wanted:
        return []
    marks = ",".join("?" * len(wanted))
    held = {
        r[0]
        for r in conn.execute(
            f"SELECT term FROM memory_fts_bigram_terms WHERE term IN ({marks})", wanted
        )
    }
    return [f for f in wanted if f in held]


def en_core(word: str) -> str:
    """A name without its pet ending and the doubled consonant before it: sammy → sam, robbie → rob,
    kate → kat, matt → matt."""
    w = word.lower()
    for ending in EN_ENDINGS:
        if w.endswith(ending) and len(w) - len(ending) >= EN_CORE:
            w = w[: -len(ending)]
            break
    if len(w) > EN_CORE and w[-1] == w[-2] and w[-1] not in "aeiou":
        w = w[:-1]
    return w


def same_name(a: str, b: str) -> bool:
    """Whether two different words are forms of one name: the core of one begins the other."""
    a, b = a.lower(), b.lower()
    if a == b:
        return False
    for one, other in ((a, b), (b, a)):
        core = en_core(one)
        if len(core) >= EN_CORE and other.startswith(core):
            return True
    return False


def capitalised_names(text: str) -> list[str]:
    """The words of ``text`` written with a capital that may be names: not "I", not a stopword, not
    an acronym in capitals throughout (LGBTQ is no short form of anyone), not a month or a day."""
    return list(
        dict.fromkeys(
            w
            for w in _WORD.findall(text)
            if _capitalised(w)
            and len(w) >= EN_CORE
            and w.lower() not in ENGLISH
            and w.lower() not in CALENDAR
        )
    )


def _capitalised(word: str) -> bool:
    """A capital first and not only capitals: how a name is written (not an acronym)."""
    return word[0].isupper() and not word.isupper()


def english(
    conn: apsw.Connection, agent_id: str, names: list[str], stems: dict[str, str]
) -> list[str]:
    """The other forms, as the Latin index stores them, of ``names`` (``capitalised_names`` of the
    query) that the agent's turns hold, mostly with a capital. ``stems``: each name's stored form."""
    out: list[str] = []
    for name in names:
        own = stems.get(name.lower(), name.lower())
        start = name.lower()[:EN_CORE]
        held = conn.execute(
            "SELECT term FROM memory_fts_terms WHERE term >= ? AND term < ?",
            (start, start + "\uffff"),
        ).fetchall()
        for term in (str(r[0]) for r in held):
            if term == own or term in out or not same_name(name, term):
                continue
            if _mostly_capitalised(conn, agent_id, term):
                out.append(term)
    return out


def _mostly_capitalised(conn: apsw.Connection, agent_id: str, term: str) -> bool:
    """Whether the agent's turns holding ``term`` mostly write it with a capital (a name, not a word).
    Where it is also said inside a sentence, only those uses count: a word that opens sentences
    ("Maybe", "Same here") has its capital from where it stands, a name has it everywhere."""
    rows = conn.execute(
        "SELECT m.text FROM memory_fts f JOIN memory_items m ON m.item_id = f.rowid "
        "WHERE memory_fts MATCH ? AND m.agent_id = ? ORDER BY f.rowid DESC LIMIT ?",
        ('"' + term.replace('"', '""') + '"', agent_id, LOOKED_AT),
    ).fetchall()
    uses: list[tuple[str, bool]] = []  # (the word, whether it opens a sentence)
    for r in rows:
        text = str(r[0])
        for m in _WORD.finditer(text):
            if m.group().lower().startswith(term):
                before = text[: m.start()].rstrip()
                uses.append((m.group(), not before or before[-1] in _OPENERS))
    inside = [w for w, opens in uses if not opens]
    counted = inside or [w for w, _ in uses]
    return bool(counted) and sum(map(_capitalised, counted)) >= CAPITALISED_SHARE * len(counted)
