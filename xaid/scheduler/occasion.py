"""Whether a plan said in passing is an occasion a friend asks about afterwards, by meaning.

The check-in reader (matter.py) was fitted on a few hundred lines; a plan for tomorrow said in
passing in words it never saw reads low to it: "going back to the gym tomorrow, first time in like
2 months" 0.22, "first piano lesson tomorrow" 0.06, "下周一去新公司上班" 0.08, while routine days ahead
read as high ("gonna sleep in tomorrow" 0.30). What sets them apart is what kind of thing is ahead:
an occasion (an exam, a first day, a first date, a lesson, a session with a trainer, a visit, a
trip) or the stuff of every day (sleeping in, lunch, chilling at home). So a line with a date ahead
(arm.py reads the date) is compared, on the daemon's multilingual embedder, with two small banks
of prototypes written as kinds in both languages: occasions and routine. Nearer the occasions by
``MARGIN`` (the mean of the two nearest of each, ``meaning.nearest``) is a plan to ask about.

The margin was set on the dated user lines of the train halves of perf/scenarios/checkin_dev.json
and arm_dev9.json and on lines of the arm10 branch's own: routine and errands read from -0.22 to
+0.11 ("work tomorrow ugh"), the occasions the reader missed from +0.15 ("starting at the new firm
on monday") to +0.36; the test halves were only measured. Under another embedder than the one it
was set on, nothing is read. Pure: the caller embeds.
"""

from __future__ import annotations

import numpy as np

from ..mood.meaning import Contrast, Written

FITTED_ON = "use"  # the embedder the margin was measured under (embed/profiles.py)
MARGIN = 0.15  # nearer the occasions than the routine by this much (train lines, module doc)

# Kinds of occasion a friend asks about afterwards, each said plainly in both languages.
OCCASIONS: tuple[str, ...] = (
    "I have an exam",
    "a job interview",
    "my first day at a new job",
    "a first date",
    "a doctor's appointment",
    "my first lesson",
    "a training session at the gym",
    "a match or a race",
    "a big meeting at work",
    "visiting family I haven't seen in years",
    "a trip abroad",
    "a performance on stage",
    "我要考试",
    "去面试",
    "新工作第一天",
    "第一次约会",
    "去医院看医生",
    "第一次上课",
    "去健身房练",
    "比赛",
    "工作上的重要会议",
    "去看好几年没见的家人",
    "出国旅行",
    "上台演出",
)
# Kinds of routine: what every day holds, said ahead of time without being anything to ask about.
ROUTINE: tuple[str, ...] = (
    "going to sleep",
    "sleeping in",
    "having lunch",
    "going to work as usual",
    "staying home and relaxing",
    "watching a movie",
    "doing the shopping",
    "cooking dinner",
    "taking a shower",
    "I'll talk to you later",
    "去睡觉",
    "睡懒觉",
    "吃午饭",
    "照常上班",
    "在家休息",
    "看电影",
    "去买东西",
    "做晚饭",
    "洗澡",
    "回头再聊",
)


# The occasions (near) and the routine (far).
BANK = Written(OCCASIONS, ROUTINE)


def is_occasion(bank: Contrast, vector: np.ndarray) -> bool:
    """Nearer the occasions than the routine by ``MARGIN`` (``bank``: ``BANK`` embedded)."""
    return bank.lead(vector) >= MARGIN
