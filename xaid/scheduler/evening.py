"""Whether a session was an ordinary evening, with nothing a friend would follow up, by meaning.

Arming takes some matters from meaning alone: the check-in reader's undated matter (matter.py)
and a feeling the closing mood carries though no line read strong to the rules (arm._emotion, the
tiredness head of mood/learned.py). Both took routine evenings for something: "平平淡淡的一天，晚饭
后下楼走了两圈 / 晚安啦" and "今天挺平常的，下班去超市买了点菜" were armed as matters to ask about, and
"今天就正常上班下班，吃了碗面，没啥特别的 / 睡啦" or "made some soup, read a few chapters… off to bed"
read 0.52 to 0.66 tired to the head (a session that ends in bed is often a tired one) and were
asked "last time you sounded worn out" (perf/scenarios/arm_dev19.json, issue 25).

What sets them apart is what kind of evening it was, so the session's user lines together are
compared, on the daemon's multilingual embedder, with two small banks of prototypes written as
kinds in both languages: ordinary evenings (dinner, a programme, bed) and everything a friend
follows up (``FOLLOWED``: the occasions of occasion.py, the open worries of mood/meaning.py, and
worn-out evenings, so that tiredness is not read as an evening like any other). ``PLAIN``
embedded, its ``Contrast.lead`` says how much nearer the ordinary ones (the mean of the two
nearest of each, ``meaning.nearest``). From ``ORDINARY`` on, nothing that meaning alone found is
armed (arm.py); dated plans, rule-read feelings and losses are not touched.

``ORDINARY`` was set on the train halves of the Morning dev sets and arm_dev19.json: the routine
evenings read +0.105 to +0.27, the scenes with something to ask about +0.125 at most (an anxious
night that cannot sleep, 心慌慌的); the routine evenings that were armed read +0.162 and more. The
margin is close on both sides: an English routine evening written for the tests, "had a sandwich,
tidied the desk, same old day. bed", reads +0.126 (not plain), a child's fever +0.119.

Under another embedder than the one the margin was set on, nothing is read. Pure: the caller
embeds.
"""

from __future__ import annotations

from ..mood.meaning import OPEN, Written
from .occasion import OCCASIONS

FITTED_ON = "use"  # the embedder the margin was measured under (embed/profiles.py)
ORDINARY = 0.15  # nearer an ordinary evening than anything followed up: nothing meaning alone armed

# Evenings worn out: a friend checks on them the next morning.
WORN_OUT: tuple[str, ...] = (
    "I'm completely exhausted, I have nothing left",
    "what a draining day, I can barely stand",
    "I'm so tired I can't think",
    "my whole body aches, I'm spent",
    "I worked myself into the ground today",
    "worked a double shift and I'm dead on my feet",
    "I've been up since five and I'm running on empty",
    "累得要命，一点力气都没有了",
    "今天把我累坏了，浑身都疼",
    "太累了，脑子都转不动了",
    "忙了一整天，整个人都虚脱了",
    "累得什么都不想做",
    "加了一周的班，困得站着都能睡着",
    "熬到半夜，眼睛都睁不开了",
)
# Ordinary evenings: nothing to ask about the next day.
EVENINGS: tuple[str, ...] = (
    "just an ordinary day, heading to bed now",
    "nothing special happened today, good night",
    "had dinner and watched some TV, going to sleep",
    "a quiet day at home, night",
    "usual day at work, time for bed",
    "cooked, read a bit, early night",
    "今天很平常，准备睡觉了",
    "没什么特别的，晚安",
    "吃了饭看了会电视，睡了",
    "在家待了一天，晚安",
    "正常上班的一天，该睡了",
    "做了饭，看了会书，早点睡",
)
# What a friend follows up: occasions, open worries, worn-out evenings.
FOLLOWED: tuple[str, ...] = (*OCCASIONS, *OPEN, *WORN_OUT)
# The ordinary evenings (near) and what a friend follows up (far).
PLAIN = Written(EVENINGS, FOLLOWED)
