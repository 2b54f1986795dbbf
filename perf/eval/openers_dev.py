"""The opener recognizer on its own dev set (issue 25 item 1): area ``openers_dev``.

perf/scenarios/openers_dev9.json: per language 51 first messages that are openers (greetings in any
typing, presence checks, waking up, a sleepy or grumpy word, an interjection, an emoji, a greeting
with the companion's name or after noon) and 38 with content of their own (questions, requests,
news, complaints with their subject, an opener followed by news), train and test halves. Each is
read three ways: by the lead's greeting patterns alone (``checkin.greeting_echo``, what main used),
by retrieval's opener reading (``index.is_opener``) and by ``conversation/opener.py`` (structure,
then meaning on the daemon's default embedder, USE-multilingual-v3, in-process). Rows: openers
recognized (recall) and messages with content taken for openers, per half and language. The test
half is measured, never tuned on; its misses are not named.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from xaid.conversation import opener
from xaid.conversation.checkin import greeting_echo
from xaid.embed.use import UseEmbedder
from xaid.memory import index

from ..kit import SCENARIOS, Row, Section

SET = SCENARIOS / "openers_dev9.json"


def readers(embed: Callable[[list[str]], np.ndarray]) -> dict[str, Callable[[str, str], bool]]:
    bank = opener.BANK.from_vectors(list(embed(opener.BANK.texts())))
    return {
        "greeting patterns (main)": lambda text, lang: greeting_echo(text, lang) is not None,
        "index.is_opener": lambda text, lang: index.is_opener(text),
        "opener.bare": lambda text, lang: opener.bare(text, embed([text])[0], bank),
    }


def run(quick: bool) -> Section:
    started = time.monotonic()
    data = json.loads(SET.read_text(encoding="utf-8"))
    items: list[dict[str, Any]] = data["items"][::3] if quick else data["items"]
    embedder = UseEmbedder()
    section = Section("Openers recognized by what they are, dev set (issue 25 item 1)")
    misses: list[str] = []
    for name, read in readers(embedder.embed).items():
        for split in ("train", "test"):
            for lang in ("en", "zh"):
                mine = [i for i in items if i["split"] == split and i["lang"] == lang]
                said = {i["text"]: read(i["text"], lang) for i in mine}
                openers = [i for i in mine if i["label"] == "opener"]
                content = [i for i in mine if i["label"] == "content"]
                hits = sum(said[i["text"]] for i in openers)
                wrong = sum(said[i["text"]] for i in content)
                section.rows.append(
                    Row(
                        f"{name}, {split} {lang}: openers recognized",
                        100 * hits / len(openers) if openers else 0.0,
                        "%",
                        note=f"{hits}/{len(openers)}; content taken for an opener {wrong}/{len(content)}",
                    )
                )
                if name == "opener.bare" and split == "train":
                    misses += [
                        f"{i['text']!r} ({i['label']})"
                        for i in mine
                        if said[i["text"]] != (i["label"] == "opener")
                    ]
    section.notes += [
        f"{SET.name}: {len(items)} messages; opener.MARGIN {opener.MARGIN}, set on the train half",
        "opener.bare train misses: " + (", ".join(misses) or "none"),
        f"{time.monotonic() - started:.0f} s",
    ]
    return section
