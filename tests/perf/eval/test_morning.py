"""The Morning judge (perf/eval/morning.py): a reply that speaks as the user fails the role rule in
both languages, also without a "我" ("累得要死！", the 1.5B's evening reply in `make demo`), and a
friend's echo of the user's state passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from perf.eval.morning import name_breaks
from perf.eval.role_judge import speaks_as_user


@pytest.mark.parametrize(
    ("reply", "opener"),
    [
        ("嗨！我回来了，感觉好多了。你呢？", "嗨，我回来了。"),
        ("累得要死！先喝口水。", "终于到家了。"),
        ("辛苦了。困死了！", "早。"),
        ("Hey! I'm back, feeling much better.", "Hey, I'm back."),
        ("Morning! I'm so exhausted today.", "Morning."),
    ],
)
def test_the_users_voice_fails_the_role_rule(reply: str, opener: str) -> None:
    assert speaks_as_user(reply, opener, [])


@pytest.mark.parametrize(
    "reply",
    [
        "早！累坏了吧？",
        "早。上次说的搬家怎么样了？",
        "早！你吓坏了，搬家的事总算定下来了。",  # the state said of the listener: empathy (session 34)
        "Morning! How did the bar exam go?",
        "Exhausted, huh?",
    ],
)
def test_a_friends_words_pass(reply: str) -> None:
    assert not speaks_as_user(reply, "早。", ["搬家", "exam"])


@pytest.mark.parametrize(
    ("reply", "opener", "said", "broken"),
    [
        # the companion quoting the user's words as its own saying (morning15, issue 25 gap 2)
        ("早。我说资历太浅，怕面试过不了。", "早", ["面试官说我资历太浅"], True),
        (
            "Morning! I said I'd quit the job, remember.",
            "morning",
            ["honestly i'd quit the job"],
            True,
        ),
        ("早。你说资历太浅，面试怎么样了？", "早", ["面试官说我资历太浅"], False),
        ("Morning! Like I said, you've got this.", "morning", ["i'm scared of the exam"], False),
        # the opener's news said back as the companion's own, nothing to the listener
        ("终于到家了！今天好累。", "到家了", [], True),
        ("Made it home! Long day.", "made it home", [], True),
        ("下班啦！辛苦了", "下班了", [], False),
        ("Welcome home! How did the pitch go?", "made it home", [], False),
    ],
)
def test_own_words_and_arrivals_said_back_fail_the_role_rule(
    reply: str, opener: str, said: list[str], broken: bool
) -> None:
    assert speaks_as_user(reply, opener, [], said) is broken


@pytest.mark.parametrize(
    ("reply", "broken"),
    [
        # the user's words quoted back, attributed to them: their first person stays theirs
        ('早。上次你说"我妈住院了"，阿姨好些了吗？', False),
        ("早！你说“我今天好累”，睡得还行吗？", False),
        ('Morning! You said "my interview went badly", how are you holding up?', False),
        ("Morning! You told me “I'm so exhausted”, did you sleep?", False),
        # the same words as the reply's own, outside any quotation
        ("早。我妈住院了，心里好乱。", True),
        ("早！我今天好累。", True),
        ("Morning! My interview went badly.", True),
        ("Morning! I'm so exhausted, did you sleep?", True),
    ],
)
def test_the_first_person_inside_a_quotation_is_the_one_quoted(reply: str, broken: bool) -> None:
    """The judge's first-person and "my + matter word" rules fired inside the lead's quotation of
    the user's own words (session 18's dev18 run: "我妈" in '上次你说"…我妈…"'): a quoted span is
    the user's voice reported, not the companion taking it."""
    assert speaks_as_user(reply, "早。", ["妈", "interview"]) is broken


THEIRS = [
    "跟室友因为水电费吵翻了，她现在见了我就当没看见，回家都不想出房间。",
    "服务器又宕机了，我守着数据迁移熬到十二点多，眼睛都睁不开了。",
    "The landlord keeps ignoring my emails about the boiler, and I had to shower at the gym.",
    "threw up after dinner. I hate this",
]


@pytest.mark.parametrize(
    ("reply", "broken"),
    [
        # their words after "you said", their first person kept: the companion's, as written
        ("早。上次你说服务器又宕机了，我守着数据迁移熬到十二点多，眼睛都睁不开了。", True),
        ("早上好！上次你说跟室友因为水电费吵翻了，她现在见了我就当没看见？感觉怎么样了？", True),
        ("Morning! Last time you said the landlord keeps ignoring my emails. Any news?", True),
        # the same turned to the listener, a first person of the reply's own, or quoted
        ("早。上次你说服务器又宕机了，你守着数据迁移熬到十二点多，今天还好吗？", False),
        ("早上好！上次你说跟室友吵翻了，她现在见了你就当没看见。感觉怎么样了？", False),
        ("早。上次你说服务器又宕机了，我一直惦记着，今天还好吗？", False),
        ("早。上次你说“我守着数据迁移熬到十二点多”，今天还好吗？", False),
        ("Morning! Last time you said the landlord keeps ignoring your emails. Any news?", False),
        ("Morning! You said the boiler broke. I had to look up who fixes those.", False),
        # their words, then the companion's own "I" (session 40): not their "I hate this"
        (
            "Hey! Last time you said you threw up after dinner, I thought it might be serious.",
            False,
        ),
        ("Hey! Last time you said you threw up after dinner, I hate this.", True),
    ],
)
def test_their_words_recited_after_you_said_keep_no_first_person_of_theirs(
    reply: str, broken: bool
) -> None:
    """Reported speech turns the user's "我"/"I" into "你"/"you": left as it was, the reply says the
    roommate ignores the companion (the 1.5B on dev20 and dev18, about one Chinese lead in eight)."""
    assert speaks_as_user(reply, "早。", [], THEIRS) is broken


def test_the_second_dev_set_keeps_a_test_half_in_both_languages() -> None:
    """morning_dev2.json: at least 12 scenes per language that may raise their matter and 2 held
    back, each half ("train" tuned on, "test" not) holding both kinds in both languages."""
    from collections import Counter

    from perf.eval import heldout_files, morning

    scenes = heldout_files.scenes(morning.SCENE_SETS["dev2"])["scenes"]
    kinds = Counter((s["lang"], s["half"], s["may_raise"]) for s in scenes)
    for lang in ("en", "zh"):
        assert kinds[(lang, "train", True)] + kinds[(lang, "test", True)] >= 12
        assert kinds[(lang, "train", False)] + kinds[(lang, "test", False)] >= 2
        for half in ("train", "test"):
            assert kinds[(lang, half, True)] and kinds[(lang, half, False)]


def test_the_twelfth_dev_set_keeps_its_gaps_in_both_halves_and_languages() -> None:
    """morning_dev12.json: 12 scenes per language, each half holding in each language scenes that
    may raise their matter and a control, a pet gone missing (a worry: may be raised) and a first
    message that is an arrival (the gaps of issue 25 the set was written for)."""
    from collections import Counter

    from perf.eval import heldout_files, morning

    scenes = heldout_files.scenes(morning.SCENE_SETS["dev12"])["scenes"]
    kinds = Counter((s["lang"], s["half"], s["may_raise"]) for s in scenes)
    for lang in ("en", "zh"):
        assert sum(n for (lg, _, _), n in kinds.items() if lg == lang) >= 12
        for half in ("train", "test"):
            assert kinds[(lang, half, True)] >= 5 and kinds[(lang, half, False)] >= 1
            mine = [s for s in scenes if s["lang"] == lang and s["half"] == half]
            assert any(s["kind"] == "worry" and s["may_raise"] for s in mine)


def test_the_thirteenth_dev_set_keeps_its_gaps_in_both_halves_and_languages() -> None:
    """morning_dev13.json: 12 scenes per language; each half holds in each language a control, an
    evening after the event's time judged by 'tense', a name from memory and an arrival opener."""
    from collections import Counter

    from perf.eval import heldout_files, morning

    scenes = heldout_files.scenes(morning.SCENE_SETS["dev13"])["scenes"]
    kinds = Counter((s["lang"], s["half"], s["may_raise"]) for s in scenes)
    for lang in ("en", "zh"):
        assert sum(n for (lg, _, _), n in kinds.items() if lg == lang) >= 12
        for half in ("train", "test"):
            assert kinds[(lang, half, True)] >= 5 and kinds[(lang, half, False)] >= 1
            mine = [s for s in scenes if s["lang"] == lang and s["half"] == half]
            assert sum("too_early" in s for s in mine) >= 2
            assert any(s["names"] for s in mine)


def test_the_fourteenth_dev_set_keeps_its_gaps_in_both_halves_and_languages() -> None:
    """morning_dev14.json: 12 scenes per language; each half holds in each language an arrival
    opener after the event's time, a name from memory and a control asked not to be raised."""
    from perf.eval import heldout_files, morning

    scenes = heldout_files.scenes(morning.SCENE_SETS["dev14"])["scenes"]
    for lang in ("en", "zh"):
        for half in ("train", "test"):
            mine = [s for s in scenes if s["lang"] == lang and s["half"] == half]
            assert len(mine) == 6
            assert sum(s["may_raise"] for s in mine) >= 4
            assert any(s["held_back"] for s in mine)
            assert any("too_early" in s for s in mine)
            assert any(s["names"] for s in mine)


def test_the_fifteenth_dev_set_keeps_its_gaps_in_both_halves_and_languages() -> None:
    """morning_dev15.json: English weighted (7 scenes per half, Chinese 6); each half holds in each
    language a matter asked not to be raised in a LATER session than the one that armed it (held
    back), a later do-not-ask about another thing (the matter still raised), and a name from memory."""
    from perf.eval import heldout_files, morning

    scenes = heldout_files.scenes(morning.SCENE_SETS["dev15"])["scenes"]
    for lang, size in (("en", 7), ("zh", 6)):
        for half in ("train", "test"):
            mine = [s for s in scenes if s["lang"] == lang and s["half"] == half]
            assert len(mine) == size
            later = [s for s in mine if len(s["history"]) > 1]
            assert any(not s["may_raise"] and s["held_back"] for s in later)
            assert any(s["may_raise"] for s in later)
            assert any(s["names"] for s in mine)


@pytest.mark.parametrize(
    ("lang", "reply", "ok"),
    [
        ("en", "Hey! How did the interview go?", True),
        ("en", "Hey! Are you ready for the interview?", False),
        ("zh", "嗨，面试怎么样了？", True),
        ("zh", "嗨，面试准备得怎么样了？", False),
    ],
)
def test_a_before_question_after_the_event_fails_the_tense_rule(
    lang: str, reply: str, ok: bool
) -> None:
    from perf.eval import morning

    scene = {
        "lang": lang,
        "may_raise": True,
        "picks_up": ["interview", "面试"],
        "too_early": ["ready", "准备"],
        "probe": {"text": "hey"},
    }
    assert morning.judge(scene, "Mia", reply, "stop", "")["tense"] is ok


def test_earlier_runs_are_judged_again_as_one_section_beside_the_sets_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """XAID_PERF_MORNING_FROM_RAW: two raw files (one written before replies recorded their
    candidates) become one section of both seeds, in an area of its own (XAID_PERF_MORNING_AREA),
    with the candidates' note and the notes asked for first; nothing is played."""
    import json
    from dataclasses import asdict

    from perf.eval import morning

    def reply(
        scene: str, lang: str, seed: int, text: str, picked: bool, n: int
    ) -> dict[str, object]:
        checks = {k: True for k in morning.CHECKS} | {"picks_up": picked}
        row = asdict(
            morning.Judged(
                "qwen2.5-1.5b",
                scene,
                lang,
                True,
                seed,
                0,
                True,
                text,
                checks,
                True,
                900.0,
                250,
                own_token_ms=1200.0,
                half="test",
                candidates=n,
            )
        )
        if not n:
            del row["candidates"]  # as a file of a run before the field
        return row

    old, new = tmp_path / "s1.json", tmp_path / "s2.json"
    old.write_text(json.dumps([reply("en4-driving-test", "en", 1, "Morning!", False, 0)]))
    new.write_text(json.dumps([reply("zh4-yatong", "zh", 2, "早。牙还疼吗？", True, 2)]))
    monkeypatch.setenv("XAID_PERF_MORNING_SCENES", "dev4")
    monkeypatch.setenv("XAID_PERF_MORNING_FROM_RAW", f"{old},{new}")
    monkeypatch.setenv("XAID_PERF_MORNING_AREA", "candidates")
    monkeypatch.setenv("XAID_PERF_MORNING_NOTES", "first || second")
    monkeypatch.setenv("XAID_PERF_MORNING_RAW", str(tmp_path / "raw.json"))
    monkeypatch.setattr(morning, "run_model", lambda *a, **k: pytest.fail("nothing is played"))
    out = morning.run(quick=True)
    assert out.area == "morning_dev4_candidates" and out.title.endswith(": candidates")
    assert out.notes[:2] == ["first", "second"]
    assert any("seeds 1, 2" in n for n in out.notes)
    assert any("candidates sampled for 1 probes (2 candidate(s): 1)" in n for n in out.notes)
    picks = {r.figure: r.note for r in out.rows if r.figure.startswith("picks up the matter")}
    assert picks["picks up the matter, qwen2.5-1.5b, en, memory on"].startswith("0/1")
    assert picks["picks up the matter, qwen2.5-1.5b, zh, memory on"].startswith("1/1")
    # where each language's pick-ups are lost, in counts a held-out set's notes may show
    given = next(n for n in out.notes if "suggestion given in" in n)
    assert "en: suggestion 1/1, picked up with one 0/1, without 0/0" in given
    assert "zh: suggestion 1/1, picked up with one 1/1, without 0/0" in given


def test_the_ninth_dev_set_and_the_opener_set_have_their_shape() -> None:
    """morning_dev9.json loads as the harness checks it (heldout_files.scenes), both languages and
    halves, openers and content probes; openers_dev9.json has 60 and more messages per language,
    both labels in both splits."""
    import json

    from perf.eval import heldout_files
    from perf.eval.morning import SCENE_SETS
    from perf.kit import SCENARIOS

    scenes = heldout_files.scenes(SCENE_SETS["dev9"])["scenes"]
    for lang in ("en", "zh"):
        mine = [s for s in scenes if s["lang"] == lang]
        assert len(mine) >= 12
        assert {s["half"] for s in mine} == {"train", "test"}
        assert {s["probe_kind"] for s in mine} == {"opener", "content"}
        assert any(not s["may_raise"] for s in mine)
    items = json.loads((SCENARIOS / "openers_dev9.json").read_text(encoding="utf-8"))["items"]
    for lang in ("en", "zh"):
        mine = [i for i in items if i["lang"] == lang]
        assert len(mine) >= 60
        assert {(i["label"], i["split"]) for i in mine} == {
            (label, split) for label in ("opener", "content") for split in ("train", "test")
        }


def test_the_tenth_dev_set_has_its_kinds_and_controls() -> None:
    """morning_dev10.json (branch arm10, written before its change to xaid/) loads as the harness
    checks it; per language both halves hold plans, firsts, grave-sounding worries, content probes
    that may raise their matter, and controls (a loss, a routine evening) that may not."""
    from perf.eval import heldout_files
    from perf.eval.morning import SCENE_SETS

    scenes = heldout_files.scenes(SCENE_SETS["dev10"])["scenes"]
    for lang in ("en", "zh"):
        for half in ("train", "test"):
            mine = [s for s in scenes if s["lang"] == lang and s["half"] == half]
            assert len(mine) >= 6
            kinds = {s["kind"] for s in mine}
            assert {"plan", "first", "worry", "loss", "routine"} <= kinds
            assert any(s["probe_kind"] == "content" and s["may_raise"] for s in mine)
            assert all(not s["may_raise"] for s in mine if s["kind"] in ("loss", "routine"))


def test_the_eighteenth_dev_set_keeps_its_controls_in_both_halves_and_languages() -> None:
    """morning_dev18.json: at least 10 scenes per language; each half holds in each language five
    and more scenes that may raise their matter, a do-not-ask control and a routine one (nothing to
    raise), a plain morning opener after a work disaster, and a name from memory."""
    from perf.eval import heldout_files, morning

    scenes = heldout_files.scenes(morning.SCENE_SETS["dev18"])["scenes"]
    assert morning.SET_AREAS["dev18"] == "morning_dev18"
    for lang in ("en", "zh"):
        assert sum(s["lang"] == lang for s in scenes) >= 10
        for half in ("train", "test"):
            mine = [s for s in scenes if s["lang"] == lang and s["half"] == half]
            assert sum(s["may_raise"] for s in mine) >= 5
            assert {"held", "routine"} <= {s["kind"] for s in mine if not s["may_raise"]}
            assert any(s["kind"] == "emotion" and s["probe"]["day"] == 1 for s in mine)
            assert any(s["names"] for s in mine)


@pytest.mark.parametrize(
    ("reply", "opener", "broken"),
    [
        # `make demo`'s English morning: the companion reports on itself as the user would
        ("Good morning! Just wanted to let you know how I'm doing.", "Morning.", True),
        ("Morning! I'm doing great today.", "morning", True),
        ("早！我今天过得不错。", "早", True),
        ("嗨！跟你说一下我的近况。", "嗨", True),
        # asked after it, or about the listener: a friend's words
        ("Morning! I'm good, thanks. How did the pitch go?", "morning! how are you?", False),
        ("Good morning! I hope you're doing well.", "morning", False),
        ("早！我挺好的，你呢？", "早，你呢？", False),
        ("早！睡得还好吗？", "早", False),
    ],
)
def test_a_report_on_its_own_wellbeing_unasked_fails_the_role_rule(
    reply: str, opener: str, broken: bool
) -> None:
    assert speaks_as_user(reply, opener, []) is broken


def test_a_scene_passes_when_nine_of_its_ten_runs_pick_up() -> None:
    """Issue 25 item 1 counts scenes: with ten runs each, a scene picked up in 9 passes and one in 8
    fails, whatever the replies' total; with fewer runs there is no such row (two seeds say little
    of one scene)."""
    from perf.eval import morning

    def replies(scene: str, picked: int, runs: int = 10) -> list[morning.Judged]:
        return [
            morning.Judged(
                "qwen2.5-1.5b",
                scene,
                "en",
                True,
                seed,
                0,
                True,
                "Morning!",
                {k: True for k in morning.CHECKS} | {"picks_up": seed < picked},
                True,
                900.0,
                250,
            )
            for seed in range(runs)
        ]

    row = morning._scene_row(
        replies("a", 9) + replies("b", 8) + replies("c", 10), "qwen2.5-1.5b", "en"
    )
    assert row is not None and row.note.startswith("2/3 scenes")
    assert "weakest scene picked up in 80 %" in row.note
    assert morning._scene_row(replies("a", 10, runs=2), "qwen2.5-1.5b", "en") is None


@pytest.mark.parametrize("chosen", ["dev35", "dev36"])
def test_the_chinese_first_dev_sets_keep_both_halves_and_their_controls(chosen: str) -> None:
    """morning_dev35.json and morning_dev36.json load as the harness checks them, Chinese first,
    with matters in both halves of both languages and do-not-ask controls: a change tuned on a
    train half is still measured on a test half of each language."""
    from perf.eval import heldout_files, morning

    scenes = heldout_files.scenes(morning.SCENE_SETS[chosen])["scenes"]
    for lang in ("en", "zh"):
        for half in ("train", "test"):
            assert any(
                s["lang"] == lang and s["half"] == half and s["may_raise"] for s in scenes
            ), (lang, half)
    assert sum(s["lang"] == "zh" for s in scenes) > sum(s["lang"] == "en" for s in scenes)
    assert any(not s["may_raise"] and s["held_back"] for s in scenes)


@pytest.mark.parametrize(
    ("text", "name", "breaks"),
    [
        ("he's in detox at St. Mary's, how is he?", "St. Mary's", False),
        ("he's in detox at St. Mary, how is he?", "St. Mary's", True),
        ("How did Alvarez's pitch go?", "Alvarez", False),
        ("How did Alvar's pitch go?", "Alvarez", True),
    ],
)
def test_a_name_is_judged_copied_exactly_with_its_own_possessive(
    text: str, name: str, breaks: bool
) -> None:
    """A name that ends in "'s" ("St. Mary's") said back whole was judged cut (morning_dev39)."""
    assert name_breaks(text, name, "") is breaks
