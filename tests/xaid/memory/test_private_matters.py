"""Which of a person's matters a vague request means (xaid/memory/private_matters.py): pure."""

from __future__ import annotations

from xaid.memory import private_matters as pm


def test_an_everyday_seed_gives_way_to_the_one_private_matter() -> None:
    assert pm.private_one([-0.1, 0.2]) == 1
    assert pm.private_one([0.0, -0.2, 0.15]) == 2


def test_the_seed_stays_when_it_is_private_itself() -> None:
    assert pm.private_one([pm.CUT, 0.4]) == 0


def test_two_private_matters_leave_the_choice_to_the_words() -> None:
    assert pm.private_one([-0.1, 0.2, 0.3]) == 0


def test_a_matter_barely_more_private_is_not_chosen() -> None:
    assert pm.private_one([0.0, pm.CUT + 0.01]) == 0  # leads by less than PRIVATE_MARGIN
    assert pm.private_one([-0.2, pm.CUT - 0.01]) == 0  # reads everyday too


def test_the_bank_holds_both_languages_on_both_sides() -> None:
    for bank in (pm.PRIVATE, pm.EVERYDAY):
        assert any(ch.isascii() for ch in bank[0]) and any(not t.isascii() for t in bank)
