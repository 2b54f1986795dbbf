"""perf/eval/small_talk.py: its set holds both labels in both halves of both languages, so a reader
fitted on the train half is still measured on a test half of each."""

from __future__ import annotations

from perf.eval import small_talk


def test_both_labels_in_both_halves_of_both_languages() -> None:
    items = small_talk.items()
    for lang in ("en", "zh"):
        for split in ("train", "test"):
            for label in ("none", "matter"):
                assert any(
                    i["lang"] == lang and i["split"] == split and i["label"] == label for i in items
                ), (lang, split, label)
    assert {i["split"] for i in small_talk.items("test")} == {"test"}
    assert len({i["text"] for i in items}) == len(items)  # no message twice
