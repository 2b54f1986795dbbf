"""A name said another way is still found by keyword (name_forms.py, index.keyword with ``forms``):
阿珍 for 珍姐, 周哥 for 老周, Matt for Matthew; and what only looks like a name form is not (老婆 is no
婆婆, "Sam" is no "same"). Real keyword indexes in a scratch database."""

from __future__ import annotations

import pytest

from xaid.memory import name_forms
from xaid.store.db import Database

from . import lines


@pytest.mark.parametrize(
    ("pair", "core"),
    [
        ("阿珍", "珍"),
        ("珍姐", "珍"),
        ("珍珍", "珍"),
        ("老周", "周"),
        ("强子", "强"),
        ("大伟", "伟"),
    ],
)
def test_a_chinese_name_form_has_its_core(pair: str, core: str) -> None:
    assert name_forms.zh_core(pair) == core
    assert pair in name_forms.zh_forms(core)


@pytest.mark.parametrize("pair", ["老婆", "老公", "小姨", "阿姨", "婆婆", "今天", "公司", "小的"])
def test_kinship_words_and_plain_words_are_no_name_forms(pair: str) -> None:
    assert name_forms.zh_core(pair) is None


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("Matt", "Matthew"),
        ("Sammy", "Samantha"),
        ("Sam", "Sammy"),
        ("Danny", "Daniel"),
        ("Robbie", "Robert"),
        ("Kate", "Katherine"),
        ("Jon", "Jonathan"),
    ],
)
def test_an_english_short_form_begins_the_long_one(short: str, long: str) -> None:
    assert name_forms.same_name(short, long)
    assert name_forms.same_name(long, short)


@pytest.mark.parametrize(("a", "b"), [("Jo", "Joanna"), ("Matt", "Matt"), ("Sam", "Tom")])
def test_too_short_the_same_word_or_another_name_is_no_form(a: str, b: str) -> None:
    assert not name_forms.same_name(a, b)


@pytest.mark.parametrize(
    ("said", "lookalike", "mention"),
    [
        ("我们部门的珍姐要休产假了，活儿全甩给我", "今天食堂的菜好咸", "阿珍刚才在茶水间哭了"),
        ("老周要辞职回老家开民宿了", "楼下新开了家面馆", "周哥今天请我喝了杯咖啡"),
        ("婷婷考上研究生了，总算熬出头了", "今天地铁好挤", "小婷约我周六去逛街"),
        (
            "Matthew's band got a slot at a festival this summer",
            "the bus was late again",
            "Matt's coming round for dinner",
        ),
        (
            "Katherine at work is moving to Canada",
            "made pasta again",
            "had coffee with Kate this morning",
        ),
    ],
)
def test_a_name_said_another_way_is_found_only_with_forms(
    db: Database, said: str, lookalike: str, mention: str
) -> None:
    ids = lines.add(db, "a", [said, lookalike])
    lines.add(db, "b", [said])  # another agent's turns are never found
    assert ids[0] not in lines.found(db, mention, forms=False)
    assert lines.found(db, mention, forms=True) == [ids[0]]


@pytest.mark.parametrize(
    ("other", "query"),
    [
        ("婆婆今天又来我们家了", "老婆今天跟我吵了一架"),  # a relative, not a form of a name
        ("the same thing happened at work", "Sam came over for a cuppa"),  # a word, not a name
        (
            "Sammy's starting her paramedic course",
            "sam came over for a cuppa",
        ),  # no capital: no name
        ("went to an LGBT support group", "how is the LGBTQ community doing?"),  # an acronym
        ("Maybe we should just stay in. Maybe order pizza", "May was so busy"),  # a month
        (
            "Maybe we stay in. Maybe not. we could maybe cook",
            "Mayo is coming round tonight",
        ),  # opens sentences
    ],
)
def test_what_only_looks_like_another_form_is_not_found(
    db: Database, other: str, query: str
) -> None:
    lines.add(db, "a", [other, "今天地铁好挤", "the bus was late again"])
    assert lines.found(db, query, forms=True) == lines.found(db, query, forms=False)


def test_a_form_the_agent_mostly_writes_in_lower_case_is_a_word(db: Database) -> None:
    """ "Chris" reaches "Christopher", not "christening" said in passing (with a capital only where it
    opens a sentence)."""
    ids = lines.add(
        db,
        "a",
        [
            "Christopher's sleeping in his van for now",
            "Christening was lovely, the baby screamed",
            "went to a christening on sunday",
            "another christening next week, so many babies",
        ],
    )
    assert lines.found(db, "bumped into Chris at the shops", forms=True) == [ids[0]]
