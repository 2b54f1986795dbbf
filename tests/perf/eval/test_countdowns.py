"""perf/eval/countdowns.py: its set holds countdowns and lookalikes in both halves of both
languages, and a reading is judged right on the day counted to (a day's slack for a month)."""

from __future__ import annotations

from perf.eval import countdowns


def test_countdowns_and_lookalikes_in_both_halves_of_both_languages() -> None:
    judged = countdowns.judge()
    for lang in ("en", "zh"):
        for half in ("train", "test"):
            cell = [j for j in judged if j.lang == lang and j.half == half]
            assert any(j.want is None for j in cell) and any(j.want is not None for j in cell)
    assert len({j.id for j in judged}) == len(judged)


def test_a_countdown_is_right_on_its_day_and_a_lookalike_when_no_day_is_read() -> None:
    def j(want: int | None, got: int | None) -> countdowns.Judged:
        return countdowns.Judged("x", "en", "train", "", want, got)

    assert j(10, 10).right and not j(10, 9).right and not j(10, None).right
    assert j(30, 31).right and not j(30, 33).right  # a month counted on the calendar
    assert j(None, None).right and not j(None, 3).right


def test_the_day_is_counted_from_the_day_it_was_said() -> None:
    assert countdowns.ahead_days("only four days left till the move") == 4
    assert countdowns.ahead_days("还有十天就考试了") == 10
    assert countdowns.ahead_days("已经三天没睡好了") is None
