"""A relation word that names one person is searched in the other words of its relation (relatives.py,
index.keyword with ``forms``): 男朋友 finds 对象, "the boss" finds "my line manager"; a relation of
several people (姐姐 and 妹妹 are two sisters, a friend is one of many) finds only its own word. Real
keyword indexes in a scratch database."""

from __future__ import annotations

import pytest

from xaid.store.db import Database

from . import lines


@pytest.mark.parametrize(
    ("said", "mention"),
    [
        ("我对象下个月过生日，想送他块表", "男朋友加班到现在还没回来"),
        ("我们领导下个月调去总部，组里人心惶惶", "老板今天找我谈话了"),
        ("my line manager's going on maternity leave", "the boss has been in a foul mood all week"),
        ("my husband got offered a job in Dublin", "my partner's acting a bit off tonight"),
    ],
)
def test_another_word_for_the_one_person_is_found_only_with_forms(
    db: Database, said: str, mention: str
) -> None:
    ids = lines.add(db, "a", [said, "地铁好挤", "the bus was late again"])
    assert ids[0] not in lines.found(db, mention, forms=False)
    assert lines.found(db, mention, forms=True) == [ids[0]]


@pytest.mark.parametrize(
    ("other", "mention"),
    [
        ("妹妹考上研究生了", "姐姐今天来我家吃饭"),  # two sisters
        ("我外婆上周摔了一跤", "奶奶今天打电话来了"),  # two grandmothers
        ("my daughter lost a tooth", "my son was sick all night"),  # two children
    ],
)
def test_a_relation_of_several_people_finds_only_its_own_word(
    db: Database, other: str, mention: str
) -> None:
    lines.add(db, "a", [other, "今天地铁好挤", "the bus was late again"])
    assert lines.found(db, mention, forms=True) == lines.found(db, mention, forms=False)
