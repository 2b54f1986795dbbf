"""The read path: what this turn should remember, found in milliseconds, cut to a token budget.

Candidates come from three places: the nearest items by vector and the best by keywords (FTS5 bm25:
unicode61 words, Chinese trigrams and character pairs), each offering more the larger the budget;
the episodes of the last ``recent_days`` (L1 by time, so "Morning" brings back yesterday although the
words share nothing); and, when the query names past days ("last weekend", "上周三"), the turns said
on them. Items are every turn of both sides (utterances), facts and episode summaries.

A vector match counts by its cosine less its hubness above a typical line's (hubs.py): small talk near
every line ("周一好烦", "mm, tell me more?") no longer crowds out the line a mention is about. A person
the query names is also looked up by keyword in the other forms of the name (name_forms.py: 阿珍 for
珍姐, Matthew for Matt) and, for a relation of one person, the other words of it (relatives.py: 对象
for 男朋友, manager for boss), where the agent's turns say them.

Relevance is a linear mix of cosine and bm25 (``memory.fusion = "mix"``) or the two rankings fused by
reciprocal rank (``"rrf"``: 1/(60 + rank) from each list); measured on LoCoMo and the companion set,
the mix was a point better at 400 tokens and the same at 1,000 (docs/memory.md). Then
score = 0.8·relevance·kind weight + 0.1·value, times 1.15 for a turn of the speaker the
query asks about ("what did *you* recommend", "what did Caroline say"), plus 0.2 for a turn said on a
day the query names. The turns next to a strong hit join as candidates (the answer after a matched
question, the question before an answer). A superseded memory is left out unless the query asks about
the past ("where did I live before", "我以前"); a superseded turn also comes back for a question in
the past tense ("When did Caroline go to the support group?"), it is a record of what was said then,
and for a mention, a message no part of which asks ("salsa tonight, legs still sore"): only a present
question about the thing ("When are my salsa classes now?") wants the current statement alone; when
such a question matches a replaced turn, the turn that replaced it takes part of its relevance
(successor.py: "where do I get a trim?" is near the old barber, far from the flatmate who cuts it now).

Age is no part of the score: it only breaks ties (the newer first). It was a tenth of every score
(0.1·2^(−age/30)), as much as the whole difference in relevance between the turn that answers and
the tenth-best match, so the last weeks' small talk outranked what was said months ago and answers
(measured on the tuning halves: LoCoMo's even samples, the associative train half; docs/memory.md).
What is recent still comes first where the question makes it matter: a present question prefers the
latest of two statements on one subject (recency.py), a question naming days favours those days,
and an opener brings back the last episodes.

Taking the best first, a memory whose source turns are all already shown is skipped (a fact and the
turn it came from say one thing), a long turn is cut to the sentences around the query's words, and
each turn is shown dated and attributed ("[7 May 2023] you: …"), with relative times resolved. The
cosine cuts that make a vector match come from the embedding model's profile (xaid.embed.profiles).
Hits are dated in words ("yesterday", "3 weeks ago") and count as references, which protects them
from the forgetting curve.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import apsw
import numpy as np

from ..clock import DAY_MS
from ..embed.profiles import MINILM, EmbedProfile
from ..store import memory as sql
from ..store import utterances as utterance_sql
from ..text import tokens
from . import associate, cues, hide, hubs, index, pack, recency, rows, shown, successor, utterances
from .pack import About, Hit, ago
from .rules import extract
from .vectors import AgentVectors

__all__ = ["Hit", "ago", "mark_referenced", "render", "search", "warm"]

CANDIDATES = 40  # per index, at least; more for a larger budget (candidates_for)
MAX_CANDIDATES = 200
# Tokens of budget per candidate each index offers: a turn shown dated and attributed costs ~30-40
# of the model's tokens, and about a third of the candidates are duplicates, superseded or below
# the cut, so a budget of 1,000 takes 200 candidates to fill (at 8 it was 125 and, once counted in
# the model's tokens, LoCoMo's blocks at 1,000 ran out of candidates before the budget).
TOKENS_PER_CANDIDATE = 5
WEAK_SHARE = 0.5  # a vector match below the model's cut: from half the cut, at half the relevance
# "mix": the weights of the cosine and of bm25 over the query's best bm25. Tried on LoCoMo's train
# samples (branch recall12, single-hop): bm25 at 0.45 +0.8 points at 400 tokens with the neighbour
# rules below, -1.1 at 1,000 (samples 0, 2); 0.35 -0.7 at 400 (samples 0, 2). Kept as it was.
MIX_COSINE = 0.45
MIX_KEYWORD = 0.25
RRF_K = 60  # reciprocal rank fusion's constant (Cormack et al.): rank 1 scores 1/61, rank 40 1/100
ROLE_BOOST = 1.15  # "what did you recommend": the companion's turns first
WINDOW_BOOST = 0.2  # said on a day the query names
NEIGHBOURS = 12  # top utterance hits whose neighbour turns become candidates
# A line said again and again (the companion's stock "你现在感觉怎么样？", "how are you feeling?") brings
# no neighbour turns: what followed each copy is whatever the user said next that day, not its answer.
# A mention matching it by one word (感觉) pulled in the line after every copy at 0.9 of its score,
# ahead of B (issue 28, branch assoc11: associative dev's train half in process, with the window rule
# above, B's turn 80.0 -> 82.5 %; dev7, dev8, dev10, dev11 unchanged). True: as before.
NEIGHBOURS_OF_REPEATS = False
NEXT_SHARE = 0.9  # the answer after a matched question scores this share of the question
PREV_SHARE = 0.6  # the question before a matched answer
# A turn asks, for the links above, when any part of it asks (extract.asks: "Wow, that's great! What
# did you paint?", "恭喜！多大的店面？", "ugh. any podcast I should try?"), not only when every part does
# (extract.is_question). People react before they ask, and the companion's turns nearly always do, so
# with the strict reading almost no answer joined its question (issue 28, branch recall12: LoCoMo's
# train samples 0, 2, 4, 6, 8 in process, single-hop answer-token recall at 400 tokens 66.9 -> 72.1 %,
# BM25 70.1; perf/scenarios/singlehop_dev12.json's train half 81.2 -> 84.4 %). False: as before.
ASKS_ANY = True
# A question right after a top hit that asks nothing ("planted the beans, plus garlic the guy on plot
# 16 gave me" -> "Generous neighbour! What's he like?") and the answer after that question join at this
# share of the hit: the other speaker's follow-up about what was said, and what it drew out ("Ray,
# retired bus driver…"), are the rest of that memory. Same runs, with ASKS_ANY: LoCoMo single-hop at
# 400 72.1 -> 72.4 %, at 1,000 (samples 0, 2) 84.8 %; the dev set's train half 84.4 -> 87.5 % (0.5 and
# 0.7 alike). 0: off.
FOLLOW_SHARE = 0.5
# An episode summary costs as much as several turns and quotes turns that are searchable themselves:
# it has to be clearly more relevant to be worth its room. (It still comes first on an opener.)
KIND_WEIGHT = {"episode": 0.6}
RELEVANCE_WEIGHT = 0.8
# Age in the score: 0 since issue 28 (ties go to the newer turn; see the module's docstring). Kept as
# a constant so the tuning script (perf/eval/locomo_diagnose.py) can put the old 0.1 beside it.
RECENCY_WEIGHT = 0.0
VALUE_WEIGHT = 0.1
# Superseded turns are candidates for a question in the past tense (issue 28: on LoCoMo's even
# samples most evidence turns hybrid RRF showed and xaid did not had been marked superseded by a
# later turn, and were never candidates). False: only when the question asks about "before".
HISTORY_IN_PAST_TENSE = True
# Superseded turns are candidates for a mention too ("salsa tonight, legs still sore"): only a present
# question (any part asks: "what car do I drive?", "我现在住在哪里？") restricts the search to the
# current statements (issue 28: the turn a friend recalls had been made history by a look-alike; on
# the associative train halves it was every miss of dev8's). False: as before, any query in the
# present sees current turns only.
HISTORY_FOR_MENTIONS = True
# A replaced user turn the query matches, when history is no candidate, hands its relevance to the
# current turn that replaced it (xaid.memory.successor). False: the replaced turn is simply dropped.
FOLLOW_REPLACED = True
# Only a replaced turn that stands out is followed: matched at least this many times as well as the
# best current candidate (0: every matched replaced turn; see _follow_replaced for the measurements).
STANDS_OUT = 1.5
# A mention ("Priya called me today", "4月2号越来越近了") asks nothing: the present-over-past prior
# (recency.prefer_present) is for a question about now. Applied to a mention, it lifted the newer
# look-alike ("Priya sent me a meme") over what a friend recalls ("Priya got into vet school")
# and multiplied the latter by 0.6 (associative_dev10's train half). False: as before.
MENTIONS_KEEP_ORDER = True
# For a mention, a fact and the turn it was drawn from, both candidates: the turn is shown in the
# fact's place (with the better of the two scores). The fact names the thing ("Owen's little sister
# is called Mia."); the turn also says what was said of it, which is what a friend recalls. Shown
# first, the fact made the turn a repeat of it (pack.fill), and those words were lost (dev10 train:
# B's words 95.0 -> 97.5 % with the rule above). A question keeps the fact, a compact answer: for
# questions too, LoCoMo @1,000 in process went conv-26 73.3 -> 73.1 %, conv-41 evidence 72.3 -> 72.1.
TURN_FOR_FACT = True
# Words a mention must have for TURN_FOR_FACT: a statement ("今晚羽毛球" has 2), not a lookup of one
# name or thing ("Anna", "安娜"), which the memory page asks to see the fact and its provenance.
STATEMENT_WORDS = 2
TURN_MIN_K = 8
TURN_TOKENS_PER_ITEM = 20  # the shortest useful memory line ("- (yesterday) [1 May] the user: …")
OWN_THREAD_FROM = (
    4096  # vectors of the agent above which the vector ranking gets a thread of its own
)
_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="xaid-vectors")


def _read(
    conn: apsw.Connection,
    agent_id: str,
    item_ids: Sequence[int],
    now_ms: int,
    kinds: frozenset[str] | None,
    past: bool,
    said_past: bool = False,
) -> tuple[dict[int, index.Item], dict[int, About], set[int]]:
    """The candidates' items (the agent's, said by ``now_ms``, of ``kinds``) and the memory behind
    each: the items and their turns in one query, the other kinds' values after. Third, the user's
    replaced turns among them when history is no candidate (their successors may answer)."""
    found: dict[int, index.Item] = {}
    said: dict[int, index.Said] = {}
    for item_id, (item, turn) in index.items_said(conn, agent_id, item_ids, now_ms).items():
        if kinds and item.kind not in kinds:
            continue
        found[item_id] = item
        if turn is not None:
            said[item_id] = turn
    replaced = (
        set()
        if past or said_past
        else {i for i, u in said.items() if u.status == "superseded" and u.role == "user"}
    )
    return found, _about(conn, agent_id, found, said, past, said_past), replaced


def _about(
    conn: apsw.Connection,
    agent_id: str,
    found: dict[int, index.Item],
    said: dict[int, index.Said],
    past: bool,
    said_past: bool = False,
) -> dict[int, About]:
    """The memory behind each item: a turn's from its row (read with the item), the other kinds'
    values and sources as remembered (xaid.memory.rows); items whose memory is gone or retired (a
    deleted fact; a superseded one unless the past is asked about) are left out. ``said_past``: a
    question in the past tense, for which a superseded turn is a candidate too (see ``search``)."""
    by_kind: dict[str, dict[int, int]] = {}
    out: dict[int, About] = {}
    held = rows.of(conn, agent_id)
    made = held.made  # rows.made, inlined for the ~200 candidate turns of a search: same records
    history = past or said_past
    for item_id, item in found.items():
        if item.kind != "utterance":
            by_kind.setdefault(item.kind, {})[item.source_id] = item_id
        elif (u := said.get(item_id)) is not None and (history or u.status == "current"):
            known = made.get(item_id)
            out[item_id] = (
                known[1]
                if known is not None and known[0] is u
                else rows.made(held, item_id, u, _about_turn)
            )
    kept = [
        (sources[source_id], v)
        for kind, sources in by_kind.items()
        for source_id, v in rows.values(conn, agent_id, kind, list(sources))
        if v.current or (v.superseded and past)
    ]
    refs = rows.refs(conn, agent_id, [(found[i].kind, found[i].source_id) for i, _ in kept])
    for i, v in kept:
        out[i] = About(v.value, v.current, refs=refs.get((found[i].kind, found[i].source_id), ()))
    return out


def _about_turn(u: index.Said) -> About:
    """What ranking and packing need of a turn, from its row."""
    return About(u.value, u.status == "current", u.role, u.speaker, (u.ref,), u.prev_id)


def _rrf(order: Sequence[int]) -> dict[int, float]:
    return {item_id: 1.0 / (RRF_K + rank) for rank, item_id in enumerate(order, 1)}


def _relevance(
    sims: dict[int, float], keywords: dict[int, float], min_cos: float, fusion: str, weak: bool
) -> dict[int, float]:
    """0..1 per item from its vector and keyword evidence: "mix", the linear mix of cosine and bm25 (the
    default), or "rrf", which fuses the two rankings by rank so that neither score's scale matters."""
    vec = {i: c for i, c in sims.items() if c >= min_cos * (WEAK_SHARE if weak else 1.0)}
    if fusion == "mix":
        best_kw = max(keywords.values(), default=0.0) or 1.0
        # One pass, the weak share below applied as it goes: the same arithmetic, in the same order,
        # as mixing every item and then halving the weak ones in a second dict (~300 a search).
        total = MIX_COSINE + MIX_KEYWORD
        out: dict[int, float] = {}
        for i in {*vec, *keywords}:
            c = vec.get(i)
            kw = keywords.get(i)
            r = (
                MIX_COSINE * (0.0 if c is None else c)
                + MIX_KEYWORD * (0.0 if kw is None else kw) / best_kw
            ) / total
            out[i] = r * WEAK_SHARE if kw is None and c is not None and c < min_cos else r
        return out
    by_vec = _rrf(sorted(vec, key=lambda i: -vec[i]))
    by_kw = _rrf(sorted(keywords, key=lambda i: -keywords[i]))
    top = 2.0 / (RRF_K + 1)
    out = {i: (by_vec.get(i, 0.0) + by_kw.get(i, 0.0)) / top for i in {*by_vec, *by_kw}}
    # A weak vector match (below the model's cut, above half of it) with no keyword behind it ranks
    # after the real matches: it fills a budget that has room, it never displaces a match.
    return {
        i: r * WEAK_SHARE if i not in keywords and vec.get(i, 1.0) < min_cos else r
        for i, r in out.items()
    }


# The days a mention names ("阿雯今天突然打电话给我", "这个月工资又快花光了", "Priya called me today")
# say when its own news happened, not what to recall: a friend hearing it thinks of what was said of
# Priya, not of everything said today. Read as a recall window, every turn said that day or month
# took +0.2 (WINDOW_BOOST, as much as a whole match) and joined as a candidate, so the last session's
# small talk filled a turn's block ahead of B (issue 28, branch assoc11: associative train halves in
# process, B's turn, dev11 54.2 -> 58.3 %, dev 75.0 -> 80.0; dev7, dev8, dev10 unchanged). A question
# ("what did I say today?", "上周三我们聊了什么") keeps its window. True: as before.
WINDOW_FOR_MENTIONS = False


def recall_window(asked: cues.Cues, mention: bool) -> tuple[int, int] | None:
    """The days whose turns a query recalls: those it names, unless it asks nothing (a mention:
    ``WINDOW_FOR_MENTIONS``)."""
    return asked.window if WINDOW_FOR_MENTIONS or not mention else None


def _said_in(
    conn: apsw.Connection, agent_id: str, window: tuple[int, int], now_ms: int, limit: int
) -> set[int]:
    """Turns said on the days a query names ("last weekend", "上周三"): candidates whatever their words."""
    return {
        r[0]
        for r in conn.execute(
            "SELECT item_id FROM memory_items WHERE agent_id = ? AND kind = 'utterance' AND ts_ms >= ? AND ts_ms < ? "
            "AND ts_ms <= ? ORDER BY ts_ms DESC LIMIT ?",
            (agent_id, *window, now_ms, limit),
        )
    }


def read_cues(conn: apsw.Connection, agent_id: str, query: str, now_ms: int) -> cues.Cues:
    """What ``query`` asks beyond its words, read once for both the embedding and ``search``. Its
    ``topic`` is what to embed: the query without the names of the people in the conversation,
    which stand for "I" and "you" and would pull every turn that greets them by name ("Hey
    Caroline!") towards it."""
    return cues.read(query, now_ms, utterance_sql.participants(conn, agent_id))


def candidates_for(budget_tokens: int) -> int:
    """How many candidates each index offers: enough to fill the budget with distinct turns."""
    return max(CANDIDATES, min(MAX_CANDIDATES, budget_tokens // TOKENS_PER_CANDIDATE))


def turn_k(budget_tokens: int) -> int:
    """How many memories one turn's prompt may show: as many as the budget holds of short ones.
    The cap of 8 cut a 400-token block of one-line turns (~30 tokens each) at two thirds of its
    budget; the real limit is the budget and ``fill=False`` (only real matches are shown)."""
    return max(TURN_MIN_K, budget_tokens // TURN_TOKENS_PER_ITEM)


def search(
    conn: apsw.Connection,
    agent_id: str,
    query: str,
    vector: np.ndarray | None,
    now_ms: int,
    *,
    k: int,
    budget_tokens: int,
    recent_days: int,
    kinds: frozenset[str] | None = None,
    touch: bool = True,
    profile: EmbedProfile = MINILM,
    fusion: str = "mix",
    fill: bool = True,
    asked: cues.Cues | None = None,
    lang: str | None = None,
) -> tuple[list[Hit], int]:
    """The ``k`` best memories within ``budget_tokens`` for ``query`` at ``now_ms``; the profile is the
    embedding model's, whose cosine cuts decide what counts as a vector match. ``fill`` lets weak vector
    matches take budget the real ones leave (memory.search); a turn's prompt takes real matches only,
    since every memory shown is read again by the model and a stray one is worse than none.

    ``asked``: the query's cues when the caller has read them already (``read_cues``).
    ``lang``: the hits become a prompt block (``render`` in that language), and the budget counts the
    block as the model reads it, its header and each line's date included; None (``memory.search``):
    the budget counts the items' texts, which is what the caller is given."""
    chinese = index.mostly_cjk(query)
    if chinese and not profile.multilingual:
        vector = None  # an English-only model maps all Chinese text close together: its similarity is noise
    pool = candidates_for(budget_tokens)
    # The vector ranking (numpy) runs on its own thread while this one reads the keyword indexes.
    # Below a few thousand vectors the ranking takes under a millisecond: not worth a thread hop.
    near = index.vectors_of(conn, agent_id, len(vector)) if vector is not None else None
    offered = pool * hubs.WIDER if hubs.SHARE else pool
    ranking = (
        _POOL.submit(near.nearest, vector, offered)
        if near is not None and vector is not None and len(near) > OWN_THREAD_FROM
        else None
    )
    opener = index.is_opener(
        query
    )  # "Morning", "早": nothing to match on; keyword hits would be noise
    if opener:
        asked = cues.NONE
    elif asked is None:
        asked = read_cues(conn, agent_id, query, now_ms)
    recent_ids = index.recent_episodes(conn, agent_id, now_ms - recent_days * DAY_MS, now_ms)
    mention = not extract.asks(query)  # asks nothing: "salsa tonight, legs still sore"
    # A mention's own day is no keyword (cues.without_now); a question keeps it ("what did I eat today?").
    said = (
        cues.without_now(asked.topic, now_ms)
        if cues.KEYWORDS_WITHOUT_NOW and mention and not opener
        else asked.topic
    )
    keywords = dict(index.keyword(conn, agent_id, said, pool, forms=True)) if said.strip() else {}
    window = recall_window(asked, mention)
    in_window = _said_in(conn, agent_id, window, now_ms, pool) if window else set()
    nearest = (
        ranking.result()
        if ranking is not None
        else near.nearest(vector, offered)
        if near is not None and vector is not None
        else []
    )
    # Ranked by cosine less hubness (hubs.py); recency's pairing reads the plain cosines.
    sims = hubs.discounted(near, nearest, pool) if near is not None else {}
    cosines = dict(nearest)
    min_cos = profile.min_cosine_cjk if chinese else profile.min_cosine
    if opener:  # nothing to match on: only a strong vector match counts
        min_cos = max(min_cos, profile.opener_cosine)
    # A turn is a record of what was said on its day, true as a record after a later turn
    # superseded it; a question in the past tense ("When did Caroline go to the support group?")
    # may be answered by it, and a mention ("salsa tonight") may bring it back. A present question
    # keeps only the current ones (the latest statement).
    now_question = recency.about_now(asked.tensed or query, asked.past) and (
        not HISTORY_FOR_MENTIONS or not mention
    )
    said_past = HISTORY_IN_PAST_TENSE and not now_question
    found, about, replaced = _read(
        conn,
        agent_id,
        list({*sims, *keywords, *recent_ids, *in_window}),
        now_ms,
        kinds,
        asked.past,
        said_past,
    )
    # What a question back about a forget holds back meanwhile (memory.hide) is no candidate.
    hidden = hide.items(conn, agent_id)
    for item_id in hidden:
        found.pop(item_id, None)
        about.pop(item_id, None)
    if not FOLLOW_REPLACED or opener:
        replaced = set()
    relevance = _relevance(
        {i: c for i, c in sims.items() if i in about or i in replaced},
        {i: v for i, v in keywords.items() if i in about or i in replaced},
        min_cos,
        fusion,
        fill and not opener,
    )
    if replaced:
        _follow_replaced(conn, agent_id, replaced, relevance, found, about, near, now_ms)
    scored = _score(found, about, relevance, recent_ids, in_window, asked.role, opener, now_ms)
    memo = shown.memo(conn, agent_id)
    _add_neighbours(
        conn, agent_id, now_ms, found, about, scored, kinds, asked.past or said_past, memo
    )
    if mention and index.content_words(query) >= STATEMENT_WORDS:
        _turn_for_fact(scored, found, about)
    recency.prefer_present(
        asked.tensed or query,
        asked.past or (MENTIONS_KEEP_ORDER and mention and not opener),
        scored,
        found,
        about,
        near.cosine if near is not None else _no_cosine,
        cosines,
        memo,
    )
    for item_id in hidden:  # ... nor a neighbour of a hit, nor a replaced turn's successor
        scored.pop(item_id, None)
    # A line said week after week is one memory: its copies would fill a turn's budget.
    ranked = associate.collapse_repeats(
        sorted(scored, key=lambda i: (-scored[i], -found[i].ts_ms)),
        found,
        about,
        near,
        memo,
    )
    chosen, used = pack.fill(
        [(found[i], about[i], scored[i]) for i in ranked],
        utterances.terms(asked.topic),
        k,
        budget_tokens - (header_tokens(lang) if lang is not None else 0),
        now_ms,
        LINE_TOKENS if lang is not None else 0,
        memo,
    )
    if lang is not None and chosen:
        used += header_tokens(lang)
    if touch:
        mark_referenced(conn, chosen, now_ms)
    return chosen, used


def _age_days(item: index.Item, now_ms: int) -> float:
    """Days since the item was said (0 for one said after ``now_ms``): worked out only for the
    few candidates whose score uses it (the last days' episodes), not for each of ~270."""
    return max(0, now_ms - item.ts_ms) / DAY_MS


def _score(
    found: dict[int, index.Item],
    about: dict[int, About],
    relevance: dict[int, float],
    recent_ids: set[int],
    in_window: set[int],
    role: str | None,
    opener: bool,
    now_ms: int,
) -> dict[int, float]:
    """Each candidate's score (module docstring): 0.8·relevance·kind weight + 0.1·value, the
    speaker's boost, the named days' boost, a recent episode's floor. One loop over the ~270
    candidates of a search at 1,000 tokens, with what every candidate reads looked up once; the
    same arithmetic in the same order as before, so every score is the same float."""
    scored: dict[int, float] = {}
    relevant = relevance.get
    kind_weight = KIND_WEIGHT.get
    for item_id, item in found.items():
        a = about.get(item_id)
        if a is None:
            continue
        r = relevant(item_id)
        recent = item_id in recent_ids
        windowed = item_id in in_window
        if r is None and not recent and not windowed:
            continue
        score = RELEVANCE_WEIGHT * (0.0 if r is None else r) * kind_weight(item.kind, 1.0)
        if RECENCY_WEIGHT:  # 0: the age term is 0.0, and adding it changes no score
            score += RECENCY_WEIGHT * 2 ** (-_age_days(item, now_ms) / 30)
        score += VALUE_WEIGHT * a.value
        if role is not None and item.kind == "utterance":
            score *= ROLE_BOOST if a.role == role else 1.0
        if windowed:
            score += WINDOW_BOOST
        if recent:
            age_days = _age_days(item, now_ms)
            score = max(
                score,
                (0.35 + 0.25 * 2 ** (-age_days)) if opener else (0.05 + 0.05 * 2 ** (-age_days)),
            )
        scored[item_id] = score
    return scored


def _turn_for_fact(
    scored: dict[int, float], found: dict[int, index.Item], about: dict[int, About]
) -> None:
    """A fact drawn from one turn that is itself a candidate leaves the ranking; the turn keeps the
    better of the two scores (``TURN_FOR_FACT``)."""
    if not TURN_FOR_FACT:
        return
    turn_of = {
        about[i].refs[0]: i
        for i in scored
        if found[i].kind == "utterance" and len(about[i].refs) == 1
    }
    for item_id in [i for i in scored if found[i].kind == "fact"]:
        refs = about[item_id].refs
        turn = turn_of.get(refs[0]) if len(refs) == 1 else None
        if turn is not None:
            scored[turn] = max(scored[turn], scored.pop(item_id))


def _no_cosine(a: int, b: int) -> float | None:
    return None


def _follow_replaced(
    conn: apsw.Connection,
    agent_id: str,
    replaced: set[int],
    relevance: dict[int, float],
    found: dict[int, index.Item],
    about: dict[int, About],
    near: AgentVectors | None,
    now_ms: int,
) -> None:
    """The replaced turns the query matched leave the ranking; those that stand out, matched half
    as well again as anything current (``STANDS_OUT``: the question is about what they said), hand
    their share of the relevance to the turns that replaced them (xaid.memory.successor), which
    keep their own if it is higher. Why only those: on long conversations (the companion set,
    LoCoMo) a question matches many replaced turns in passing, and their successors took room from
    the real matches. On the tuning halves, in process: every matched turn followed, companion
    evidence 84.9 -> 84.4 %, LoCoMo conv-26 72.7 -> 72.0; at least as well as the best current
    (1.0), companion unchanged, conv-26 answer-token recall 72.4 -> 72.1; at 1.5 and 2.0, both
    unchanged. Where the current line is far from the question (the case this is for) nothing
    current matches, and any replaced turn the question matches stands out."""
    matched = {i: r for i in replaced if (r := relevance.pop(i, 0.0)) > 0.0}
    best = max((r for i, r in relevance.items() if i in about), default=0.0)
    matched = {i: r for i, r in matched.items() if r >= STANDS_OUT * best}
    for item_id, s in successor.of(conn, agent_id, matched, found, near, now_ms).items():
        if item_id not in about:
            found[item_id] = s.item
            about.update(_about(conn, agent_id, {item_id: s.item}, {item_id: s.turn}, False))
        if item_id in about:
            relevance[item_id] = max(relevance.get(item_id, 0.0), s.relevance)


def _add_neighbours(
    conn: apsw.Connection,
    agent_id: str,
    now_ms: int,
    found: dict[int, index.Item],
    about: dict[int, About],
    scored: dict[int, float],
    kinds: frozenset[str] | None,
    past: bool,
    memo: shown.Memo,
) -> None:
    """The turn around a strong utterance hit: the answer after a question ("what should I read?" →
    the companion's recommendation) and the question before an answer. A question-and-answer pair is
    one memory split over two turns; a match on either half should bring the other. And a question
    right after a hit that asks nothing, with its answer ("planted the beans, the
    guy on plot 16 gave me garlic" → "What's he like?" → "Ray, retired bus driver"): what was said
    of the thing when asked about it (``FOLLOW_SHARE``)."""
    if kinds and "utterance" not in kinds:
        return
    # heapq.nsmallest is sorted(...)[:n], ties in the same order, without sorting every candidate
    top = heapq.nsmallest(
        NEIGHBOURS, (i for i in scored if found[i].kind == "utterance"), key=lambda i: -scored[i]
    )
    if not NEIGHBOURS_OF_REPEATS:
        top = associate.said_once(top, found, scored, memo)
    if not top:
        return
    by_utt = {found[i].source_id: i for i in top}
    links: dict[
        int, tuple[int, float]
    ] = {}  # neighbour utterance id → (the hit's item id, share of its score)
    for item_id in top:
        if (prev := about[item_id].prev_id) is not None:
            links.setdefault(prev, (item_id, PREV_SHARE))
    # The turns before the hits and the turns after them, with their items, in one read.
    around = index.turns_around(conn, agent_id, list(links), list(by_utt), now_ms)
    # a question right after a hit that asks nothing → that hit (FOLLOW_SHARE)
    follow: dict[int, int] = {}
    for item, turn in around:
        prev = turn.prev_id
        if prev in by_utt and _asks(memo, found[by_utt[prev]]):
            links[turn.utterance_id] = (by_utt[prev], NEXT_SHARE)
        elif FOLLOW_SHARE and prev in by_utt and _asks(memo, item):
            follow[turn.utterance_id] = by_utt[prev]
    if follow:
        answers = index.turns_around(conn, agent_id, [], list(follow), now_ms)
        for question, hit in follow.items():
            links.setdefault(question, (hit, FOLLOW_SHARE))
        for _item, turn in answers:
            if turn.prev_id in follow:
                links.setdefault(turn.utterance_id, (follow[turn.prev_id], FOLLOW_SHARE))
        around = [*around, *answers]
    linked = {
        item.item_id: (item, turn)
        for item, turn in sorted(around, key=lambda r: r[1].utterance_id)
        if turn.utterance_id in links
        and (links[turn.utterance_id][1] in (NEXT_SHARE, FOLLOW_SHARE) or _asks(memo, item))
    }
    fresh = {i: item for i, (item, _) in linked.items() if i not in found}
    found.update(fresh)
    # a superseded neighbour, like any memory, only for the past
    about.update(_about(conn, agent_id, fresh, {i: linked[i][1] for i in fresh}, past))
    for item_id, (item, _) in linked.items():
        if (
            item_id in about
        ):  # a neighbour found on its own as well keeps the better of the two scores
            hit, share = links[item.source_id]
            scored[item_id] = max(scored.get(item_id, 0.0), scored[hit] * share)


def _asks(memo: shown.Memo, item: index.Item) -> bool:
    if ASKS_ANY:
        return memo.judged("asks any", item.item_id, item.text, extract.asks)
    return memo.asks(item.item_id, item.text, extract.is_question)


WARM_TURNS = 1000  # turns read per call of ``warm`` (~10 ms of the database thread)


def warm(conn: apsw.Connection, agent_id: str, start: int = 0) -> int | None:
    """What the rules read of the words of the agent's remembered turns (xaid.memory.rows, read at
    start-up), into its memo, ``WARM_TURNS`` of them from ``start`` on, newest first: whether each
    asks (a hit's neighbours, ``_asks``) and its words without case or punctuation (a line's
    repeats, xaid.memory.associate). Each search reads them of its ~270 candidates, and the first
    ~30 searches after a start worked them out for most (~40 turns each, perf/RESULTS.md,
    search_stages). They depend on a turn's words alone, so these are what any search would read;
    the next ``start``, or None when all are done. One chunk per database call, so requests
    interleave."""
    held = rows.of(conn, agent_id)
    ids = sorted(held.items, reverse=True)
    memo = shown.memo(conn, agent_id)
    words = associate.words_of(memo)
    for item_id in ids[start : start + WARM_TURNS]:
        item, said = held.items[item_id]
        if said is not None:
            _asks(memo, item)
            words(item_id, item.text)
    end = start + WARM_TURNS
    return end if end < len(ids) else None


def mark_referenced(conn: apsw.Connection, hits: Sequence[Hit], now_ms: int) -> None:
    """Hits count as references, which keep them from the forgetting curve."""
    for hit in hits:
        if hit.kind == "utterance":
            for uid in hit.ids or (hit.id,):
                utterance_sql.touch(conn, uid, now_ms)
        else:
            sql.touch(conn, hit.kind, hit.id, now_ms)


HEADERS = {
    "en": "Things you remember from earlier conversations (use them only if they fit; don't recite them):",
    "zh": "你记得之前聊过的这些事（合适时才用，别照着念）：",
}


# When the prompt's head explains them (xaid.memory.standing.NOTE): every token after the head is
# read before a turn's first word, and the long header above is ~20 of them.
SHORT_HEADERS = {"en": "You remember:", "zh": "你记得："}


# What ``render`` adds to each memory: "- (3 weeks ago) " and the newline (the longest "when" but one).
LINE_TOKENS = tokens.count("- (3 weeks ago) ") + 1


def header_tokens(lang: str, short: bool = False) -> int:
    headers = SHORT_HEADERS if short else HEADERS
    return tokens.count(headers.get(lang, headers["en"])) + 1


def render(hits: list[Hit], lang: str = "en", short: bool = False) -> str:
    """The memories block placed just before the newest user message, headed in the user's language: a
    small model answers in the language of the instruction it read last as often as in the user's."""
    lines = [f"- ({h.when}) {h.text}" for h in hits]
    headers = SHORT_HEADERS if short else HEADERS
    return headers.get(lang, headers["en"]) + "\n" + "\n".join(lines)
