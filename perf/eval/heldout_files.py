"""Loading the held-out sets (perf/scenarios/README.md formats) and refusing a malformed file.

The held-out sets are written by hand by people who never run the rules on them first, so a slip
(a missing field, a probe before the change, a change whose new value was already said before it,
a forget word that was never said, a scene with nothing to pick up) would not show as an error: the
case would just pass or fail for the wrong reason, and nobody reads the cases to notice. Every
loader here checks what its judge relies on and raises ``ScenarioError`` naming the file and the
item, so a bad file is refused before a daemon starts.

The checks are the judges' preconditions, which every held-out set meets: the shape the harness
reads (fields, kinds, languages, times in order, a week before the probe) and that each key is said
where the judge looks for it. Authoring rules a set adds on top (no key in the probe, a control that
does not repeat its value) are its own tests' (tests/perf/eval/test_heldout3.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from ..kit import SCENARIOS, contains
from . import locomo_score

LANGS = ("en", "zh")
WEEK_DAYS = 7  # a probe a week later: seven calendar days on
UPDATE_KINDS = ("change", "control")
REFERS_BY = ("paraphrase", "person", "time", "that")
# "0" (the fourth set on): a calm or mild session, nothing strong should carry to the next morning.
VALENCES = ("+", "-", "0", None)
ROLES = ("user", "assistant")


class ScenarioError(ValueError):
    """A held-out file the harness must not play: which file, which item, what is wrong."""


def _where(path: Path, item: Mapping[str, Any] | None = None) -> str:
    return f"{path.name}: {item.get('id', '?')}" if item is not None else path.name


def _need(ok: bool, path: Path, item: Mapping[str, Any] | None, what: str) -> None:
    if not ok:
        raise ScenarioError(f"{_where(path, item)}: {what}")


def _hours(spec: Mapping[str, Any]) -> float:
    return float(spec["day"]) * 24 + float(spec["hour"]) + float(spec.get("minute", 0)) / 60


def _is_time(spec: Any) -> bool:
    return (
        isinstance(spec, Mapping)
        and isinstance(spec.get("day"), int | float)
        and isinstance(spec.get("hour"), int | float)
        and 0 <= spec["hour"] < 24
    )


def _is_words(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(w, str) and w.strip() for w in value)
    )


def _session(value: Any) -> bool:
    return _is_time(value) and _is_words(value.get("lines"))


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise ScenarioError(f"{path.name}: not a readable JSON file ({e})") from e
    _need(isinstance(data, dict), path, None, "the top level must be an object")
    _need(data.get("format") == 1, path, None, "'format' must be 1")
    return data


def _items(path: Path, data: Mapping[str, Any], key: str) -> list[dict[str, Any]]:
    items: Any = data.get(key)
    _need(
        isinstance(items, list) and bool(items) and all(isinstance(i, dict) for i in items),
        path,
        None,
        f"'{key}' must be a non-empty list of objects",
    )
    for item in items:
        _need(isinstance(item.get("id"), str) and bool(item["id"]), path, item, "needs an 'id'")
        _need(item.get("lang") in LANGS, path, item, "'lang' must be 'en' or 'zh'")
    return list(items)


def _unique(path: Path, items: Iterable[Mapping[str, Any]]) -> None:
    seen: set[str] = set()
    for item in items:
        _need(item["id"] not in seen, path, item, "duplicate id")
        seen.add(item["id"])


def _resolve(name: str | Path) -> Path:
    return name if isinstance(name, Path) else SCENARIOS / name


# --- updates ----------------------------------------------------------------------------------------


def _check_update(path: Path, c: dict[str, Any]) -> None:
    _need(c.get("kind") in UPDATE_KINDS, path, c, "'kind' must be 'change' or 'control'")
    _need(isinstance(c.get("unusual_subject"), bool), path, c, "'unusual_subject' must be a bool")
    before: Any = c.get("before")
    _need(
        isinstance(before, list) and bool(before) and all(_session(s) for s in before),
        path,
        c,
        "'before' must be a list of sessions {day, hour, lines}",
    )
    _need(_session(c.get("after")), path, c, "'after' must be a session {day, hour, lines}")
    probe: Any = c.get("probe")
    _need(
        _is_time(probe) and isinstance(probe.get("text"), str) and bool(probe["text"].strip()),
        path,
        c,
        "'probe' must be {day, hour, text}",
    )
    times = [*(_hours(s) for s in before), _hours(c["after"]), _hours(probe)]
    _need(
        times == sorted(times) and len(set(times)) == len(times),
        path,
        c,
        "sessions and probe out of order",
    )
    _need(probe["day"] - c["after"]["day"] >= WEEK_DAYS, path, c, "probe within a week")
    _need(_is_words(c.get("current")), path, c, "'current' must be a non-empty list of words")
    said_before = [line for s in before for line in s["lines"]]
    said_after = c["after"]["lines"]
    if c["kind"] == "change":
        _need(_is_words(c.get("old")), path, c, "a change needs 'old' words")
        _need(contains(said_after, c["current"]), path, c, "'current' not said in 'after'")
        _need(not contains(said_before, c["current"]), path, c, "'current' already said before")
        _need(contains(said_before, c["old"]), path, c, "'old' not said before the change")
    else:
        _need(
            isinstance(c.get("control"), str) and bool(c["control"]),
            path,
            c,
            "a control needs 'control' (which kind of non-change)",
        )
        _need(_is_words(c.get("distractor")), path, c, "a control needs 'distractor' words")
        _need(contains(said_before, c["current"]), path, c, "original value not said before")
        _need(contains(said_after, c["distractor"]), path, c, "'distractor' not said in 'after'")


def _cases(name: str | Path, check: Callable[[Path, dict[str, Any]], None]) -> dict[str, Any]:
    """A held-out file whose ``cases`` each pass ``check``, ids unique."""
    path = _resolve(name)
    data = _read(path)
    cases = _items(path, data, "cases")
    _unique(path, cases)
    for c in cases:
        check(path, c)
    return data


def updates(name: str | Path) -> dict[str, Any]:
    """A held-out updates file (``cases``), checked."""
    return _cases(name, _check_update)


# --- forgets ----------------------------------------------------------------------------------------


def _check_own_keep(path: Path, item: dict[str, Any], then: Mapping[str, Any]) -> None:
    """An item's own older session (the fourth set on): one that shares a person, a place or words
    with the matter and that a forget must not take; lived before ``then``, its words said in it."""
    own: Any = item["keep"]
    _need(
        _session(own) and _is_words(own.get("words")) and contains(own["lines"], own["words"]),
        path,
        item,
        "'keep' must be a session {day, hour, lines, words} whose 'words' it says",
    )
    _need(_hours(then) > _hours(own), path, item, "its 'keep' session is not older")


def _check_request(path: Path, r: dict[str, Any], keep: Mapping[str, Any]) -> None:
    _need(r.get("refers_by") in REFERS_BY, path, r, f"'refers_by' must be one of {REFERS_BY}")
    h: Any = r.get("history")
    req: Any = r.get("request")
    _need(_session(h), path, r, "'history' must be a session {day, hour, lines}")
    same = isinstance(req, Mapping) and req.get("same_session") is True
    _need(
        isinstance(req, Mapping) and _is_words(req.get("lines")) and (same or _is_time(req)),
        path,
        r,
        "'request' must be {day, hour, lines} or {same_session: true, lines}",
    )
    _need(_is_time(r.get("probe")), path, r, "'probe' must be {day, hour}")
    _need(_is_words(r.get("gone")), path, r, "'gone' must be a non-empty list of words")
    _need(
        all(contains(h["lines"], [w]) for w in r["gone"]), path, r, "a 'gone' word not in history"
    )
    _need(not contains(keep["lines"], r["gone"]), path, r, "a 'gone' word in the keep session")
    _need(_hours(h) > _hours(keep), path, r, "history before the keep session")
    if "keep" in r:
        _check_own_keep(path, r, h)
        _need(not contains(r["keep"]["lines"], r["gone"]), path, r, "a 'gone' word in its keep")
    if not same:
        _need(_hours(req) > _hours(h), path, r, "request before its history")
        _need(_hours(r["probe"]) > _hours(req), path, r, "probe before the request")
    _need(r["probe"]["day"] - h["day"] >= WEEK_DAYS, path, r, "probe within a week")


def _check_negative(path: Path, n: dict[str, Any], keep: Mapping[str, Any]) -> None:
    _need(isinstance(n.get("text"), str) and bool(n["text"].strip()), path, n, "needs 'text'")
    _need(_is_time(n.get("said")) and _is_time(n.get("probe")), path, n, "needs 'said', 'probe'")
    _need(_hours(n["said"]) > _hours(keep), path, n, "said before the keep session")
    if "keep" in n:
        _check_own_keep(path, n, n["said"])
    _need(n["probe"]["day"] - n["said"]["day"] >= WEEK_DAYS, path, n, "probe within a week")


def forgets(name: str | Path) -> dict[str, Any]:
    """A held-out forgets file (``keep``, ``requests``, ``negatives``), checked."""
    path = _resolve(name)
    data = _read(path)
    keep: Any = data.get("keep")
    _need(isinstance(keep, dict), path, None, "'keep' must be an object per language")
    for lang in LANGS:
        k: Any = keep.get(lang)
        _need(
            _session(k) and _is_words(k.get("words")) and contains(k["lines"], k["words"]),
            path,
            None,
            f"keep.{lang} must be a session whose 'words' it says",
        )
    requests = _items(path, data, "requests")
    negatives = _items(path, data, "negatives")
    _unique(path, [*requests, *negatives])
    for r in requests:
        _check_request(path, r, keep[r["lang"]])
    for n in negatives:
        _check_negative(path, n, keep[n["lang"]])
    return data


# --- feelings ---------------------------------------------------------------------------------------


def _check_feeling(path: Path, c: dict[str, Any]) -> None:
    for key in ("opener", "text", "kind"):
        _need(isinstance(c.get(key), str) and bool(c[key].strip()), path, c, f"needs '{key}'")
    _need(_is_time(c.get("said")) and _is_time(c.get("read")), path, c, "needs 'said', 'read'")
    _need(_hours(c["read"]) > _hours(c["said"]), path, c, "read before it was said")
    _need(c.get("valence") in VALENCES, path, c, "'valence' must be '+', '-' or null")
    _need(c.get("fatigue") in (True, None), path, c, "'fatigue' must be true or null")
    _need(isinstance(c.get("loss"), bool), path, c, "'loss' must be a bool")
    _need(c["valence"] is not None or c["fatigue"], path, c, "nothing to judge")
    _need(not c["loss"] or c["valence"] == "-", path, c, "a loss is read as '-'")
    _need(c["valence"] != "0" or not c["fatigue"], path, c, "a calm session carries no tiredness")


def feelings(name: str | Path) -> dict[str, Any]:
    """A held-out feelings file (``cases``), checked."""
    return _cases(name, _check_feeling)


# --- Morning scenes -----------------------------------------------------------------------------------


def _check_scene(path: Path, s: dict[str, Any]) -> None:
    history: Any = s.get("history")
    _need(
        isinstance(history, list)
        and bool(history)
        and all(
            _is_time(p)
            and isinstance(p.get("lines"), list)
            and bool(p["lines"])
            and all(
                isinstance(line, list)
                and len(line) == 2
                and line[0] in ROLES
                and isinstance(line[1], str)
                and bool(line[1].strip())
                for line in p["lines"]
            )
            for p in history
        ),
        path,
        s,
        "'history' must be sessions {day, hour, lines: [[role, text], ...]}",
    )
    probe: Any = s.get("probe")
    _need(
        _is_time(probe) and isinstance(probe.get("text"), str) and bool(probe["text"].strip()),
        path,
        s,
        "'probe' must be {day, hour, text}",
    )
    _need(all(_hours(probe) > _hours(p) for p in history), path, s, "probe before its history")
    _need(isinstance(s.get("may_raise"), bool), path, s, "'may_raise' must be a bool")
    picks, held = s.get("picks_up"), s.get("held_back", [])
    _need(
        isinstance(picks, list) and isinstance(held, list),
        path,
        s,
        "word lists expected ('picks_up' always, empty for a held-back scene: the judge reads it)",
    )
    said = [text for p in history for _, text in p["lines"]]
    if s["may_raise"]:
        _need(_is_words(picks), path, s, "a scene that may raise its matter needs 'picks_up'")
    else:
        _need(_is_words(held), path, s, "a held-back scene needs 'held_back'")
        _need(contains(said, held), path, s, "'held_back' words not in the history")
    _need(
        "too_early" not in s or _is_words(s["too_early"]),
        path,
        s,
        "'too_early' must be a list of words (a before-question's, the 'tense' check)",
    )
    names = s.get("names", [])
    _need(
        isinstance(names, list) and all(isinstance(n, str) and n in "\n".join(said) for n in names),
        path,
        s,
        "every 'names' entry must be copied from the history",
    )


def scenes(name: str | Path) -> dict[str, Any]:
    """A Morning scene file (``names``, ``scenes``), checked."""
    path = _resolve(name)
    data = _read(path)
    names: Any = data.get("names")
    _need(
        isinstance(names, dict) and all(isinstance(names.get(lang), str) for lang in LANGS),
        path,
        None,
        "'names' must name the agent in both languages",
    )
    items = _items(path, data, "scenes")
    _unique(path, items)
    for s in items:
        _check_scene(path, s)
    return data


# --- associative recall -----------------------------------------------------------------------------

SPLITS = ("train", "test")


def _check_sample(path: Path, s: dict[str, Any]) -> None:
    """One LoCoMo-format sample of an associative set: what locomo.load and the scorer read, and
    each case's B said by the user, in the turn its evidence names, with its answer words in it."""
    _need(s.get("split") in SPLITS, path, s, "'split' must be 'train' or 'test'")
    conv: Any = s.get("conversation")
    _need(isinstance(conv, dict), path, s, "needs a 'conversation' object")
    user, friend = conv.get("speaker_a"), conv.get("speaker_b")
    _need(
        isinstance(user, str) and isinstance(friend, str) and bool(user) and user != friend,
        path,
        s,
        "'speaker_a' and 'speaker_b' must be two names",
    )
    numbers = sorted(
        int(k.removeprefix("session_"))
        for k in conv
        if k.startswith("session_") and k.removeprefix("session_").isdigit()
    )
    _need(bool(numbers), path, s, "no sessions")
    turns: dict[str, dict[str, Any]] = {}
    last = None
    for n in numbers:
        try:
            opened = locomo_score.parse_session_time(str(conv.get(f"session_{n}_date_time", "")))
        except ValueError as e:
            raise ScenarioError(f"{_where(path, s)}: session_{n}: {e}") from e
        _need(last is None or opened > last, path, s, f"session_{n} not after the one before")
        last = opened
        session: Any = conv[f"session_{n}"]
        _need(isinstance(session, list) and bool(session), path, s, f"session_{n} is empty")
        for t in session:
            ok = isinstance(t, dict) and t.get("speaker") in (user, friend)
            ok = ok and isinstance(t.get("text"), str) and bool(t["text"].strip())
            _need(ok and t.get("dia_id") not in turns, path, s, f"session_{n}: a bad turn")
            turns[t["dia_id"]] = t
    qa: Any = s.get("qa")
    _need(isinstance(qa, list) and bool(qa), path, s, "needs 'qa' cases")
    for q in qa:
        label = f"{q.get('question')!r}" if isinstance(q, dict) else "?"
        _need(isinstance(q, dict), path, s, "a 'qa' case must be an object")
        _need(q.get("lang") == s.get("lang"), path, s, f"{label}: 'lang' is not the sample's")
        _need(isinstance(q.get("question"), str) and bool(q["question"].strip()), path, s, label)
        evidence: Any = q.get("evidence")
        _need(
            isinstance(evidence, list) and bool(evidence) and all(e in turns for e in evidence),
            path,
            s,
            f"{label}: evidence names no turn of the sample",
        )
        said = " ".join(turns[e]["text"] for e in evidence)
        _need(
            all(turns[e]["speaker"] == user for e in evidence),
            path,
            s,
            f"{label}: B not the user's",
        )
        wanted = locomo_score.answer_words(q.get("answer", ""))
        _need(
            bool(wanted) and set(wanted) <= set(locomo_score.words(said)),
            path,
            s,
            f"{label}: an answer word is not in the evidence turn",
        )
        _need(
            not set(wanted) & set(locomo_score.words(q["question"])),
            path,
            s,
            f"{label}: the mention already holds an answer word",
        )


def associative(name: str | Path) -> dict[str, Any]:
    """An associative recall file (``samples`` in the LoCoMo format with ``split``/``lang``), checked."""
    path = _resolve(name)
    data = _read(path)
    samples: Any = data.get("samples")
    _need(
        isinstance(samples, list) and bool(samples) and all(isinstance(s, dict) for s in samples),
        path,
        None,
        "'samples' must be a non-empty list of objects",
    )
    for s in samples:
        s.setdefault("id", s.get("sample_id"))
        _need(isinstance(s.get("sample_id"), str), path, s, "needs a 'sample_id'")
        _need(s.get("lang") in LANGS, path, s, "'lang' must be 'en' or 'zh'")
    _unique(path, samples)
    for s in samples:
        _check_sample(path, s)
    return data
