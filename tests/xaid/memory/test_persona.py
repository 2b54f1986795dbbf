"""The profile (L3) on a real database: a plan leaves it once its day is over, in both languages."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from xaid.memory import persona
from xaid.store import agents
from xaid.store import memory as sql
from xaid.store.agents import Agent
from xaid.store.db import Database

SAID = int(datetime(2026, 12, 1, 20, 0, tzinfo=UTC).timestamp() * 1000)
NEXT_DAY = SAID + 86_400_000
WEEK_LATER = SAID + 7 * 86_400_000

FACTS = [
    sql.NewFact("user.job", "work", "The user works as a nurse in Leeds", 0.9),
    sql.NewFact(
        "user.plan",
        "plan",
        "Tomorrow [2026-12-02] the user has a job interview",
        0.8,
        valid_from="2026-12-02",
        valid_to="2026-12-02",
    ),
    sql.NewFact(
        "user.plan",
        "plan",
        "用户下周 [2026-12-07..2026-12-13] 去成都出差。",
        0.7,
        valid_from="2026-12-07",
        valid_to="2026-12-13",
    ),
    sql.NewFact(
        "user.place",
        "place",
        "The user moved to Leeds on 2026-03-01",
        0.6,
        valid_from="2026-03-01",
        valid_to="2026-03-01",
    ),  # a past date, but not a plan: it stays
]


def seeded(tmp_path: Path) -> Database:
    db = Database(tmp_path / "x.db")
    db.call(agents.insert, Agent("a", "Mia", "", {}, SAID, SAID))
    for f in FACTS:
        db.call(sql.insert_fact, "a", f, None, "rules", SAID)
    return db


def test_compose_leaves_out_plans_whose_day_is_over(tmp_path: Path) -> None:
    db = seeded(tmp_path)
    facts = db.call(sql.facts, "a")
    on_the_day = persona.compose(facts, "2026-12-02")
    assert "job interview" in on_the_day and "成都" in on_the_day and "moved to Leeds" in on_the_day
    later = persona.compose(facts, "2026-12-03")
    assert (
        "job interview" not in later
        and "成都" in later
        and "nurse" in later
        and "moved to Leeds" in later
    )
    assert "成都" not in persona.compose(facts, "2026-12-14")
    db.close()


def test_the_stored_profile_is_read_without_the_plans_that_are_over(tmp_path: Path) -> None:
    db = seeded(tmp_path)
    text = persona.compose(db.call(sql.facts, "a"), "2026-12-01")
    db.call(sql.write_persona, "a", text, 1, "rules", SAID)
    assert (
        db.call(persona.current_text, "a", NEXT_DAY) == text
    )  # the interview is today: still there
    week = db.call(persona.current_text, "a", WEEK_LATER)
    assert week is not None and "interview" not in week and "成都" in week and "nurse" in week
    assert "  " not in week and week.startswith(persona.HEADER)
    assert db.call(persona.current_text, "a") == text  # no time given: the profile as written
    db.close()


def test_a_profile_of_nothing_but_past_plans_reads_as_none(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.db")
    db.call(agents.insert, Agent("a", "Mia", "", {}, SAID, SAID))
    db.call(sql.insert_fact, "a", FACTS[1], None, "rules", SAID)
    db.call(
        sql.write_persona,
        "a",
        persona.compose(db.call(sql.facts, "a"), "2026-12-01"),
        1,
        "rules",
        SAID,
    )
    assert db.call(persona.current_text, "a", WEEK_LATER) is None
    db.close()


def test_the_profile_says_the_date_a_plan_meant_not_the_day_word_it_was_said_with(
    tmp_path: Path,
) -> None:
    """`make demo` read "Tomorrow [2026-12-04], the user has to walk their manager through the fix"
    on the 4th: the profile puts a pinned time as its date, in both languages, the same any day."""
    db = seeded(tmp_path)
    text = persona.compose(db.call(sql.facts, "a"), "2026-12-01")
    assert "On Wednesday 2 December 2026 the user has a job interview." in text
    assert "用户2026年12月7日那一周去成都出差。" in text
    assert "Tomorrow" not in text and "[" not in text
    # A profile stored before (with the day word and its label) is read the same way.
    db.call(
        sql.write_persona,
        "a",
        "What you know about the user: Tomorrow [2026-12-02] the user has a job interview.",
        1,
        "rules",
        SAID,
    )
    assert db.call(persona.current_text, "a", NEXT_DAY) == (
        "What you know about the user: On Wednesday 2 December 2026 the user has a job interview."
    )
    db.close()
