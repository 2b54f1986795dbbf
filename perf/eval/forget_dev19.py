""" "Forget that" for the kinds the eighteenth pass left: area ``forget_dev19``.

Issue 24 item 2, nineteenth pass. Plays perf/scenarios/forgets_dev19.json (written and committed
alone before the pass: 20 Chinese and 12 English requests aimed at what the eighteenth pass left:
Chinese requests that name a matter by a demonstrative and a measure word (这条, 那段, 那茬, 那个事)
or put it with a verb no frame took (撤回, 别存着, 不算, 统统忘了); a look-alike session that shares
one word with the target and must survive; words holding a character the topic splitter treats as
a function word (新同事, 婚事, 对象); 8 look-alikes per language, reminders first (别弄忘了, 别忘了
提醒我, "don't let me forget")) through the shared runner of forget_honoured.py, both halves, and
reports per language and half: recognised, asked back, honoured (the words gone a week later),
collateral and look-alikes read as a request. The same section plays the test halves of
forgets_dev18, dev17 and dev15 (never tuned on), so that a gain here is read next to any loss there.
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_dev

EARLIER = (
    ("forgets_dev18.json", "dev18"),
    ("forgets_dev17.json", "dev17"),
    ("forgets_dev15.json", "dev15"),
)


def run(quick: bool) -> Section:
    return run_dev(
        quick,
        "forgets_dev19.json",
        "dev19",
        "Forget for the kinds the eighteenth pass left (Chinese frames, a shared word, function "
        "characters, reminders): dev set 19 and the earlier test halves (issue 24 item 2)",
        "forget_dev19",
        splits=("train", "test"),
        earlier=EARLIER,
    )
