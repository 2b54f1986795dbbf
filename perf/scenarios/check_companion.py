"""Checker of perf/scenarios/companion_recall.json, a bilingual, two-sided companion recall set.

What the set is: hand-written conversations (our own text) between one user and their companion AI, in
the public LoCoMo JSON format that ``python -m perf.eval.locomo FILE`` reads (perf/eval/locomo.py ``load``).
Ten samples, five entirely in English and five entirely in simplified Chinese; each is one person
(own job, city, family, hobbies, worries) talking with their companion over about ten days, in 10
sessions on different days and at different times of day (2025-2026). ``speaker_a`` is the user's
first name (role ``user``), ``speaker_b`` the companion's name (role ``assistant``). The chat mixes
small talk (greetings, weather, "lol", 嗯嗯, 哈哈好的) with facts, and the companion's turns carry
information of their own: it recommends books, films, recipes, exercises, apps and places, answers
questions and promises reminders. Users change lasting facts across sessions (move house, change job,
switch programming language, stop being vegetarian, quit smoking) and refer back with relative times
("yesterday", "last Thursday", 下周二, 前天).

Questions (``qa``) are asked as the user would ask the companion after the last session, paraphrased
rather than copied from the evidence turn. Each is ``{question, answer, evidence: [dia_id], category,
lang, answer_speaker}`` plus ``updated_fact: true`` when the answer is the current value of a fact that
changed. Categories: 1 multi-hop (two or more turns), 2 temporal (an absolute date such as
"12 February 2026" / "2026年3月12日", resolved from the session date and the relative time said),
3 open-domain / inference, 4 single-hop. ``answer_speaker`` says whose turn holds the answer: about
four in ten answers were said only by the companion, which xaid's consolidation (it reads user turns)
cannot return from ``memory.search`` today; perf.eval.locomo reports recall on the user's evidence apart.
Counts, as this script prints them: 10 samples, 100 sessions, 1,344 turns, 430 questions (202 en,
228 zh; by category 1: 28, 2: 70, 3: 22, 4: 310; by answer_speaker user 253, companion 177, of which
174 have their answer words in no user turn at all; 16 updated facts).

Run the set::

    .venv/bin/python -m perf.eval.locomo perf/scenarios/companion_recall.json --budget 400

Check it (format, evidence ids, answer words in the evidence turns, counts)::

    python perf/scenarios/check_companion.py [FILE]

With the project's venv the file is also read through perf.eval.locomo.load; without it (plain python3)
the same checks run on the JSON with the scorer's tokeniser (perf/eval/locomo_score.py). Exit status 1 on
any error; warnings (a question sharing most of its words with its evidence turn, an answer said
only by the companion that a user turn also holds) are printed but do not fail.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
import types
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
DEFAULT = Path(__file__).resolve().parent / "companion_recall.json"

locomo: types.ModuleType | None
try:  # the real loader needs the venv (numpy, xaiclient, xaid)
    from perf.eval import locomo as _locomo
    from perf.eval import locomo_score as score

    locomo = _locomo
except ImportError:
    locomo = None
    for name in [n for n in sys.modules if n == "perf" or n.startswith(("perf.", "xaid"))]:
        del sys.modules[name]
    from perf.eval import (
        locomo_score as score,
    )  # its one xaid import, xaid.text.tokens, is the standard library only

MONTHS = {
    m: i
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        1,
    )
}
CJK = re.compile(r"[\u3400-\u9fff]")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def parse_answer_date(text: str) -> tuple[dt.date, bool] | None:
    """An answer date: (date, whole month?) from "12 February 2026", "February 2026", "2026年2月12日"."""
    if (m := re.fullmatch(r"(\d{1,2}) ([A-Za-z]+),? (\d{4})", text.strip())) and m[
        2
    ].lower() in MONTHS:
        return dt.date(int(m[3]), MONTHS[m[2].lower()], int(m[1])), False
    if (m := re.fullmatch(r"([A-Za-z]+),? (\d{4})", text.strip())) and m[1].lower() in MONTHS:
        return dt.date(int(m[2]), MONTHS[m[1].lower()], 1), True
    if m := re.fullmatch(r"(\d{4})年(\d{1,2})月(?:(\d{1,2})日)?", text.strip()):
        return dt.date(int(m[1]), int(m[2]), int(m[3] or 1)), m[3] is None
    return None


def main(path: Path) -> int:
    errors: list[str] = []
    warnings: list[str] = []
    data = json.loads(path.read_text(encoding="utf-8"))
    if locomo is not None:
        loaded = locomo.load(path)
        n_loaded = sum(len(t) for s in loaded for _, t in s.sessions)
        print(f"perf.eval.locomo.load: {len(loaded)} samples, {n_loaded} turns")
    else:
        print("perf.eval.locomo.load: not available here (no venv); checked the JSON directly")

    counts: Counter[str] = Counter()
    by_lang: Counter[str] = Counter()
    by_cat: Counter[int] = Counter()
    by_speaker: Counter[str] = Counter()
    by_lang_cat: Counter[tuple[str, int]] = Counter()
    by_lang_speaker: Counter[tuple[str, str]] = Counter()
    overlaps: list[float] = []
    companion_only = updated = 0
    ids = set()
    for s in data:
        sid = s.get("sample_id", "?")
        if sid in ids:
            errors.append(f"{sid}: duplicate sample_id")
        ids.add(sid)
        conv = s["conversation"]
        a, b = conv["speaker_a"], conv["speaker_b"]
        nums = sorted(int(m[1]) for k in conv if (m := re.fullmatch(r"session_(\d+)", k)))
        if nums != list(range(1, len(nums) + 1)):
            errors.append(f"{sid}: sessions not numbered 1..N: {nums}")
        if not 8 <= len(nums) <= 12:
            errors.append(f"{sid}: {len(nums)} sessions (want 8-12)")
        turns: dict[str, dict] = {}
        day_of: dict[str, dt.date] = {}
        days: list[dt.datetime] = []
        langs: Counter[str] = Counter()
        for n in nums:
            when = dt.datetime.fromtimestamp(
                score.parse_session_time(conv[f"session_{n}_date_time"]) / 1000, dt.UTC
            )
            if days and when.date() <= days[-1].date():
                errors.append(f"{sid}: session {n} not on a later day than session {n - 1}")
            days.append(when)
            session = conv[f"session_{n}"]
            if not 8 <= len(session) <= 20:
                errors.append(f"{sid}: session {n} has {len(session)} turns (want 8-20)")
            for i, t in enumerate(session, 1):
                want = a if i % 2 else b
                if t["speaker"] != want:
                    errors.append(
                        f"{sid}: {t['dia_id']} speaker {t['speaker']!r}, expected {want!r} (alternating)"
                    )
                if t["dia_id"] != f"D{n}:{i}":
                    errors.append(f"{sid}: turn {i} of session {n} has dia_id {t['dia_id']}")
                if not t["text"].strip():
                    errors.append(f"{sid}: {t['dia_id']} empty")
                turns[t["dia_id"]] = t
                day_of[t["dia_id"]] = when.date()
                langs["zh" if CJK.search(t["text"]) else "en"] += 1
            counts["sessions"] += 1
        counts["turns"] += len(turns)
        span = (days[-1].date() - days[0].date()).days
        if not 7 <= span <= 14:
            warnings.append(f"{sid}: sessions span {span} days")
        if len({d.hour // 4 for d in days}) < 3:
            warnings.append(f"{sid}: sessions at few times of day")
        lang = s["qa"][0]["lang"] if s["qa"] else "?"
        if langs[lang] != len(turns):
            odd = [k for k, t in turns.items() if ("zh" if CJK.search(t["text"]) else "en") != lang]
            errors.append(f"{sid}: turns not in the sample's language {lang}: {odd[:8]}")
        user_words = [set(score.words(t["text"])) for t in turns.values() if t["speaker"] == a]

        for qi, q in enumerate(s["qa"]):
            tag = f"{sid}#{qi} {q.get('question', '')[:50]!r}"
            missing = {
                "question",
                "answer",
                "evidence",
                "category",
                "lang",
                "answer_speaker",
            } - q.keys()
            if missing:
                errors.append(f"{tag}: missing {sorted(missing)}")
                continue
            cat, who = q["category"], q["answer_speaker"]
            if cat not in CATEGORIES:
                errors.append(f"{tag}: category {cat}")
            if q["lang"] != lang:
                errors.append(f"{tag}: lang {q['lang']} in a {lang} sample")
            if ("zh" if CJK.search(q["question"]) else "en") != lang:
                errors.append(f"{tag}: question not in {lang}")
            if who not in ("user", "companion"):
                errors.append(f"{tag}: answer_speaker {who!r}")
            ev = score.evidence_ids(q["evidence"])
            bad = [e for e in ev if e not in turns]
            if not ev or bad:
                errors.append(f"{tag}: evidence missing or unknown: {bad or ev}")
                continue
            if cat == 1 and len(ev) < 2:
                errors.append(f"{tag}: multi-hop with one evidence turn")
            ev_turns = [turns[e] for e in ev]
            said = {a: "user", b: "companion"}
            if who not in {said[t["speaker"]] for t in ev_turns}:
                errors.append(f"{tag}: answer_speaker {who} but no evidence turn of theirs")
            ev_words = set().union(*(score.words(t["text"]) for t in ev_turns))
            wanted = score.answer_words(q["answer"])
            if cat == 2:
                parsed = parse_answer_date(str(q["answer"]))
                if parsed is None:
                    errors.append(f"{tag}: temporal answer {q['answer']!r} is not a date")
                else:
                    gap = (parsed[0] - day_of[ev[0]]).days
                    if not -240 <= gap <= 120 and not parsed[1]:
                        errors.append(
                            f"{tag}: answer date {q['answer']} is {gap} days from its evidence session"
                        )
            else:
                if not wanted:
                    errors.append(f"{tag}: answer {q['answer']!r} has no content word")
                lost = [w for w in wanted if w not in ev_words]
                if lost:
                    errors.append(f"{tag}: answer words {lost} not in evidence {ev}")
                mine = set().union(
                    *(score.words(t["text"]) for t in ev_turns if said[t["speaker"]] == who)
                )
                if [w for w in wanted if w not in mine] and cat != 1:
                    errors.append(f"{tag}: answer not in the {who}'s evidence turns")
            if who == "companion" and wanted:
                if any(all(w in uw for w in wanted) for uw in user_words):
                    warnings.append(f"{tag}: companion answer {q['answer']!r} also in a user turn")
                else:
                    companion_only += 1
            qw = set(score.content_words(q["question"]))
            if len(qw) >= 3:
                share = len(qw & ev_words) / len(qw)
                overlaps.append(share)
                if share > 0.75:
                    warnings.append(
                        f"{tag}: {share:.0%} of the question's words are in its evidence"
                    )
            updated += bool(q.get("updated_fact"))
            by_lang[lang] += 1
            by_cat[cat] += 1
            by_speaker[who] += 1
            by_lang_cat[lang, cat] += 1
            by_lang_speaker[lang, who] += 1

    total = sum(by_lang.values())
    sample_langs = ", ".join(
        f"{k} {v}" for k, v in sorted(Counter(s["qa"][0]["lang"] for s in data).items())
    )
    print(
        f"samples {len(data)} ({sample_langs}), "
        f"sessions {counts['sessions']}, turns {counts['turns']}, questions {total}"
    )
    print("questions by lang:", dict(sorted(by_lang.items())))
    print("by category:", {f"{c} {CATEGORIES.get(c, '?')}": n for c, n in sorted(by_cat.items())})
    print(
        "by answer_speaker:",
        dict(sorted(by_speaker.items())),
        f"(companion answers in no user turn: {companion_only})",
    )
    for lg in sorted(by_lang):
        print(
            f"  {lg}: category",
            {c: by_lang_cat[lg, c] for c in sorted(by_cat)},
            "speaker",
            {w: by_lang_speaker[lg, w] for w in sorted(by_speaker)},
        )
    print("updated facts:", updated)
    if overlaps:
        print(
            f"question words found in their evidence turns: mean {sum(overlaps) / len(overlaps):.0%}"
        )
    for w in warnings:
        print("warning:", w)
    for e in errors:
        print("ERROR:", e)
    print("OK" if not errors else f"{len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT))
