"""text.fold: the one fold the English pattern readers share (forget requests and their cues, the
scheduler's matter and moot readers)."""

from __future__ import annotations

import pytest

from xaid.text.fold import fold


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Don\u2019t  bring it UP again", "don't bring it up again"),
        ("  never\nmind\t", "never mind"),
        ("不是，是他修门那次", "不是，是他修门那次"),  # Chinese passes through
        ("it\u2018s", "it\u2018s"),  # only the closing curly apostrophe, as every reader had it
        ("", ""),
    ],
)
def test_fold(text: str, folded: str) -> None:
    assert fold(text) == folded
