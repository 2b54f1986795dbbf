"""The other words for the one person a relation word names: 男朋友 for 对象, 领导 for 老板, "manager"
for "boss".

A mention names a person by a kinship or role word ("男朋友加班到现在还没回来", "the boss has been in a
foul mood all week") where the line a friend recalls used another word for the same person ("我对象下
个月过生日", "my line manager's going on maternity leave"). The embedder puts the two lines far apart
(cosine ~0.17: the word is a small part of each sentence) and no keyword is shared.

The words are the fact rules' own closed class (xaid.memory.rules' ``RELATIONS``: each word with the
relation it names), not a list of this module's. Only relations that name one person for nearly
everyone are followed: a mother, a father, a partner, a boss. A sister (姐姐 or 妹妹), a grandparent
(外婆, 奶奶), a child or a friend are several people, and another of their words is often another
person.
"""

from __future__ import annotations

from collections.abc import Callable

import apsw

from .rules.lexicon_en import RELATIONS as EN_RELATIONS
from .rules.lexicon_zh import RELATIONS as ZH_RELATIONS

ONE_PERSON = frozenset({"mother", "father", "partner", "boss"})


def _by_relation(words: dict[str, str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for word, relation in words.items():
        if relation in ONE_PERSON:
            out.setdefault(relation, []).append(word)
    return out


_ZH = _by_relation(ZH_RELATIONS)
_EN = _by_relation(EN_RELATIONS)


def chinese(conn: apsw.Connection, text: str) -> tuple[list[str], list[str]]:
    """(pairs, trigrams): the other two- and three-character words of the relations ``text`` names,
    those the bigram and trigram indexes hold. A one-character word (妈, 爸) is no keyword."""
    named = {rel for rel, words in _ZH.items() for w in words if len(w) > 1 and w in text}
    others = [w for rel in sorted(named) for w in _ZH[rel] if w not in text and len(w) > 1]
    return (
        _held(conn, "memory_fts_bigram_terms", [w for w in others if len(w) == 2]),
        _held(conn, "memory_fts_cjk_terms", [w for w in others if len(w) == 3]),
    )


def english(
    conn: apsw.Connection, words: list[str], stem: Callable[[list[str]], dict[str, str]]
) -> list[str]:
    """The other words, as the Latin index stores them (``stem``: its tokenizer), of the relations
    among the query's ``words`` (lower case) that the index holds."""
    named = {EN_RELATIONS[w] for w in words if EN_RELATIONS.get(w) in ONE_PERSON}
    others = [w for rel in sorted(named) for w in _EN[rel] if w not in words]
    if not others:
        return []
    stems = stem(others)
    return _held(conn, "memory_fts_terms", list(dict.fromkeys(stems[w] for w in others)))


def _held(conn: apsw.Connection, table: str, terms: list[str]) -> list[str]:
    if not terms:
        return []
    marks = ",".join("?" * len(terms))
    held = {r[0] for r in conn.execute(f"SELECT term FROM {table} WHERE term IN ({marks})", terms)}
    return [t for t in terms if t in held]
