"""Packing ranked memories into a token budget: what the prompt (and ``memory.search``) shows.

The budget is the scarce thing on a small model, so packing spends it on distinct evidence:

- a memory whose source turns are all shown already is skipped (a fact and the turn it came from say
  one thing);
- turns next to each other in one conversation are shown as one snippet, dated once
  ("[7 May 2023] the user: what should I read? — you: try The Midnight Library"): a question and
  its answer are one memory, and a date and an item overhead per turn would spend a quarter of a
  400-token budget on labels;
- a long turn is cut to the sentences around the query's words;
- an item that does not fit is skipped and later, smaller ones are still tried.

Costs are the model's tokens (``text.tokens.count``, calibrated against its tokenizer), so a block
fills the budget it is given in English and in Chinese alike. ``line_tokens`` is what the prompt
adds around each item (``retrieve.render``'s "- (3 weeks ago) " and the newline); ``memory.search``
returns the items' texts alone and counts none.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import tzinfo
from typing import Any

import apsw

from .. import clock
from ..text import tokens
from . import index, shown, utterances
from . import rows as search_rows

# A turn longer than this (~280 characters of English, ~90 Chinese characters) is cut to the
# sentences around the query's words: the length the cut applied at before tokens were counted.
CUT_TOKENS = 64
JOIN = " — "


@dataclass(frozen=True, slots=True)
class Hit:
    kind: str
    id: int
    text: str  # as the prompt shows it: turns dated and attributed ("[7 May 2023] you: …")
    score: float
    ts_ms: int
    refs: tuple[str, ...]
    when: str
    role: str = "user"  # whose words: the user's, or the companion's own ("assistant")
    speaker: str | None = None
    content: str = ""  # the memory's own words, undecorated
    current: bool = (
        True  # False: history (superseded), returned because the query asks about the past
    )
    ids: tuple[int, ...] = ()  # a snippet of several turns: all their utterance ids, in order

    @property
    def keys(self) -> frozenset[tuple[str, int]]:
        """(kind, id) of every memory in the hit: a snippet holds several turns."""
        return frozenset((self.kind, i) for i in (self.ids or (self.id,)))

    def to_wire(self) -> dict[str, Any]:
        out = {
            "kind": self.kind,
            "id": self.id,
            "text": self.text,
            "score": round(self.score, 4),
            "ts": self.ts_ms,
            "when": self.when,
            "refs": list(self.refs),
            "role": self.role,
            "speaker": self.speaker,
            "content": self.content or self.text,
            "current": self.current,
        }
        if len(self.ids) > 1:
            out["ids"] = list(self.ids)
        return out


@dataclass(frozen=True, slots=True)
class About:
    """What ranking and packing need to know of the memory behind a candidate item."""

    value: float
    current: bool  # False: superseded (history); only a question about the past gets it back
    role: str = "user"
    speaker: str | None = None
    refs: tuple[str, ...] = ()
    prev_id: int | None = None


@dataclass
class _Turn:
    uid: int
    prev_id: int | None
    about: About
    text: str  # cut, times resolved
    raw: str
    ts_ms: int
    score: float
    # The turn as a snippet of its own ("[7 May 2023] the user: …"), when worked out already: its
    # cost was counted on it, and a hit of this turn alone shows exactly it (remembered in the memo).
    alone: str | None = None


@dataclass
class _Snippet:
    """Consecutive turns of one conversation, shown under one date."""

    turns: list[_Turn] = field(default_factory=list)
    known: int | None = None  # the cost of ``render()`` while the turns stay as they are
    # The last text rendered and the turns it was rendered from: a snippet's cost renders it, and
    # the hit made of it at the end renders the same turns again.
    rendered: tuple[tuple[int, ...], str] | None = None

    def render(self) -> str:
        if len(self.turns) == 1 and self.turns[0].alone is not None:
            return self.turns[0].alone
        uids = tuple(t.uid for t in self.turns)
        if self.rendered is not None and self.rendered[0] == uids:
            return self.rendered[1]
        first = self.turns[0]
        chinese = index.mostly_cjk(" ".join(t.raw for t in self.turns))
        body = JOIN.join(
            f"{utterances.who(t.about.role, t.about.speaker)}: {t.text}" for t in self.turns
        )
        text = f"[{utterances.day_words(first.ts_ms, chinese)}] {body}"
        self.rendered = (uids, text)
        return text

    def cost(self) -> int:
        if self.known is None:
            self.known = tokens.count(self.render())
        return self.known

    def hit(self, now_ms: int) -> Hit:
        best = max(self.turns, key=lambda t: t.score)
        return Hit(
            "utterance",
            self.turns[0].uid,
            self.render(),
            best.score,
            self.turns[0].ts_ms,
            tuple(r for t in self.turns for r in t.about.refs),
            ago(self.turns[0].ts_ms, now_ms),
            best.about.role,
            best.about.speaker,
            JOIN.join(t.raw for t in self.turns),
            all(t.about.current for t in self.turns),
            tuple(t.uid for t in self.turns),
        )


def fill(
    ranked: Sequence[tuple[index.Item, About, float]],
    query_terms: frozenset[str],
    k: int,
    budget: int,
    now_ms: int,
    line_tokens: int = 0,
    memo: shown.Memo | None = None,
) -> tuple[list[Hit], int]:
    """The best of ``ranked`` (best first) that fit ``k`` entries and ``budget`` tokens, each entry
    costing ``line_tokens`` besides its text; (hits, tokens). ``memo``: the agent's remembered lines
    (shown.py), used and filled for what does not depend on the query; the result is the same."""
    chosen: list[Hit | _Snippet] = []
    # The snippets by the turn a joining turn would follow (their last) or precede (their first's
    # previous turn), and each entry's place in ``chosen``: a turn joins the earliest such snippet.
    ending: dict[int, _Snippet] = {}
    preceded: dict[int, _Snippet] = {}
    place: dict[int, int] = {}
    covered: set[str] = set()
    used = 0
    zone = clock.zone()
    floors: dict[tuple[str, str | None], int] = {}
    for item, a, score in ranked:
        if item.kind != "episode" and a.refs and covered.issuperset(a.refs):
            continue  # a fact and the turn it came from say one thing: spend the budget once
        if item.kind != "utterance":
            if len(chosen) >= k:
                continue
            line = _item_line(item, memo)
            cost = line.cost + line_tokens
            if used + cost > budget or len(chosen) >= k:
                continue
            chosen.append(
                Hit(
                    item.kind,
                    item.source_id,
                    item.text,
                    score,
                    item.ts_ms,
                    a.refs,
                    ago(item.ts_ms, now_ms),
                    a.role,
                    a.speaker,
                    item.text,
                    a.current,
                )
            )
        else:
            if (
                len(chosen) >= k
                and (a.prev_id is None or a.prev_id not in ending)
                and item.source_id not in preceded
            ):
                continue  # k entries chosen: only a turn that joins one of them may still come in
            after = ending.get(a.prev_id) if a.prev_id is not None else None
            before = preceded.get(item.source_id)
            if (
                after is None
                and before is None
                and budget - used < _least_line(a.role, a.speaker, floors) + line_tokens
            ):
                continue  # a snippet of its own, and even its date and speaker would not fit
            turn, alone = _turn(item, a, score, query_terms, memo, zone)
            if after is not None and (before is None or place[id(after)] < place[id(before)]):
                snippet, side = after, "after"
            elif before is not None:
                snippet, side = before, "before"
            else:
                snippet, side = None, None
            if snippet is None:
                fresh = _Snippet([turn])
                cost = alone + line_tokens
                if used + cost > budget or len(chosen) >= k:
                    continue
                fresh.known = cost - line_tokens
                place[id(fresh)] = len(chosen)
                chosen.append(fresh)
                ending[turn.uid] = fresh
                if turn.prev_id is not None:
                    preceded.setdefault(turn.prev_id, fresh)
            else:
                before_cost = snippet.cost()
                snippet.turns.insert(len(snippet.turns) if side == "after" else 0, turn)
                snippet.known = None
                cost = snippet.cost() - before_cost
                if used + cost > budget:
                    snippet.turns.remove(turn)
                    snippet.known = before_cost
                    continue
                if side == "after":
                    del ending[snippet.turns[-2].uid]
                    ending[turn.uid] = snippet
                else:
                    if preceded.get(turn.uid) is snippet:
                        del preceded[turn.uid]
                    if turn.prev_id is not None:
                        preceded.setdefault(turn.prev_id, snippet)
        used += cost
        if item.kind != "episode":
            covered.update(a.refs)
    return [c.hit(now_ms) if isinstance(c, _Snippet) else c for c in chosen], used


# The shortest dates a line can carry (a one-digit day, the shortest month, a four-digit year), in
# both of ``utterances.day_words``' forms.
_SHORTEST_DAYS = ("1 May 1970", "1970年1月1日")


def _least_line(role: str, speaker: str | None, floors: dict[tuple[str, str | None], int]) -> int:
    """A lower bound of what a turn of this speaker costs as a snippet of its own, without working
    out its line: ``[date] who: words`` costs at least ``[shortest date] who: `` (the count only
    grows as text is appended after a space, and every date has at least the shortest date's digits,
    brackets and month word). Once the budget left is below it, a fresh turn is skipped unread:
    after a 1,000-token budget fills, most of a search's ~150 candidates used to be worked out (cut,
    times resolved, counted) only to be turned away. ``floors`` remembers it per speaker."""
    key = (role, speaker)
    found = floors.get(key)
    if found is None:
        who = utterances.who(role, speaker)
        found = floors[key] = min(tokens.count(f"[{day}] {who}: ") for day in _SHORTEST_DAYS)
    return found


WARM_CHUNK = 500  # turns whose lines one call of ``warm`` works out: ~10-25 ms of the db thread


def warm(conn: apsw.Connection, agent_id: str, start: int = 0) -> int | None:
    """Work out the lines of the agent's remembered items (xaid.memory.rows: its newest, read at
    start-up; a turn's line, or a fact's or episode's text and its tokens) into its memo,
    ``WARM_CHUNK`` of them from ``start`` on, newest first; the next
    ``start``, or None when all are done. Run at start-up, one chunk per database call so requests
    interleave: the first search after a start used to make the line of every candidate turn it
    tried (~150 at 1,000 tokens, 60-90 µs each for a Chinese turn under load), which was the
    slowest searches of a run. A line depends on the turn alone (its words, time, speaker and the
    user's zone), so these are the lines any search would make; the memo's own rules (its key
    check, the forget epoch, ``MAX_ENTRIES``) apply to them as to any."""
    held = search_rows.of(conn, agent_id)
    ids = sorted(held.items, reverse=True)
    memo = shown.memo(conn, agent_id)
    zone = clock.zone()
    for item_id in ids[start : start + WARM_CHUNK]:
        item, said = held.items[item_id]
        if said is not None:
            a = About(said.value, said.status == "current", said.role, said.speaker)
            _turn(item, a, 0.0, frozenset(), memo, zone)
        else:  # a fact's or an episode's line: its text's tokens, counted at the first searches
            _item_line(item, memo)
    end = start + WARM_CHUNK
    return end if end < len(ids) else None


def _item_line(item: index.Item, memo: shown.Memo | None) -> shown.Line:
    """A fact or an episode: shown as stored, costing its text's tokens."""
    key = item.text
    line = memo.get(item.item_id, key) if memo is not None else None
    if not isinstance(line, shown.Line):
        line = shown.Line(key, item.text, tokens.count(item.text))
        if memo is not None:
            memo.put(item.item_id, line)
    return line


def _turn(
    item: index.Item,
    a: About,
    score: float,
    query_terms: frozenset[str],
    memo: shown.Memo | None,
    zone: object,
) -> tuple[_Turn, int]:
    """The turn as shown (cut to the query's sentences when long, times resolved) and its cost as a
    snippet of its own; what does not depend on the query is remembered in ``memo``."""
    key = (item.text, item.ts_ms, a.role, a.speaker, zone)
    entry = memo.get(item.item_id, key) if memo is not None else None
    if isinstance(entry, shown.Line):
        return _Turn(
            item.source_id, a.prev_id, a, entry.text, item.text, item.ts_ms, score, entry.alone
        ), entry.cost
    if entry is None:
        if tokens.count(item.text) <= CUT_TOKENS:  # never cut: the line is the item's alone
            line = _line(item, a, score, item.text)
            if memo is not None:
                memo.put(item.item_id, shown.Line(key, line[0].text, line[1], line[0].alone))
            return line
        parts = tuple(utterances.sentences(item.text))
        entry = shown.Long(key, parts, tuple(utterances.terms(p) for p in parts), {})
        if memo is not None:
            memo.put(item.item_id, entry)
    # utterances.cut, with the sentences and their words read once per turn
    matched = (
        utterances.matching(entry.terms, query_terms)
        if query_terms and len(entry.parts) >= 2
        else ()
    )
    found = entry.cuts.get(matched)
    if found is not None:
        text, cost, alone = found
        return _Turn(item.source_id, a.prev_id, a, text, item.text, item.ts_ms, score, alone), cost
    line = _line(item, a, score, utterances.kept(entry.parts, matched) if matched else item.text)
    entry.remember(matched, line[0].text, line[1], line[0].alone)
    return line


def _line(item: index.Item, a: About, score: float, words: str) -> tuple[_Turn, int]:
    """The turn showing ``words`` (its text or a cut of it) with times resolved, and its cost alone
    (counted on the turn rendered alone, which it keeps)."""
    text = utterances.resolve_times(words, item.ts_ms)
    turn = _Turn(item.source_id, a.prev_id, a, text, item.text, item.ts_ms, score)
    turn.alone = _Snippet([turn]).render()
    return turn, tokens.count(turn.alone)


def within(hits: Sequence[Hit], budget: int, line_tokens: int = 0) -> list[Hit]:
    """The best of ``hits`` (best first) that fit ``budget`` tokens together."""
    out, used = [], 0
    for h in hits:
        cost = tokens.count(h.text) + line_tokens
        if used + cost <= budget:
            out.append(h)
            used += cost
    return out


@functools.lru_cache(maxsize=8192)
def _day(ts_ms: int, zone: tzinfo) -> dt.date:
    """The calendar day of ``ts_ms`` in ``zone``: a search dates each hit it returns against now."""
    return clock.local(ts_ms, zone).date()


def ago(ts_ms: int, now_ms: int) -> str:
    zone = clock.zone()  # days of the user's calendar: 23:00 yesterday is "yesterday" at 08:00
    days = (_day(now_ms, zone) - _day(ts_ms, zone)).days
    if days <= 0:
        return "earlier today"
    if days == 1:
        return "yesterday"
    if days < 7:
        return f"{days} days ago"
    if days < 30:
        weeks = round(days / 7)
        return "a week ago" if weeks == 1 else f"{weeks} weeks ago"
    if days < 365:
        months = round(days / 30)
        return "a month ago" if months == 1 else f"{months} months ago"
    years = round(days / 365)
    return "a year ago" if years == 1 else f"{years} years ago"
