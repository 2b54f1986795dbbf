"""The learned reading of a session's closing feeling (xaid.mood.learned) with the packaged weights
and the real default embedder (USE-multilingual-v3), both languages: idiom, slang, euphemism and a
feeling after a turn read as a friend reads them; strong rule readings are not lost (the two
sessions that made the sentence-by-sentence pass of feel2 fail); what consolidation stores."""

from __future__ import annotations

import numpy as np
import pytest

from xaid.embed.use import UseEmbedder
from xaid.mood import learned, meaning
from xaid.mood.classifier import RuleClassifier
from xaid.mood.state import HOUR_MS, MoodParams, MoodState, decay, merge, neutral
from xaid.mood.tone import bands

DEMO_EN = [
    "Home at last. I'm exhausted: the release slipped again and I was on calls until nine.",
    "I just want to sleep. Tomorrow I have to walk my manager through the fix.",
]
DEMO_ZH = [
    "终于到家了。我筋疲力尽：版本又延期了，电话会一直开到九点。",
    "只想睡觉。明天还得跟经理讲清楚修复方案。",
]


@pytest.fixture(scope="module")
def embedder() -> UseEmbedder:
    return UseEmbedder()


@pytest.fixture(scope="module")
def bank(embedder: UseEmbedder) -> meaning.Prototypes:
    return meaning.Prototypes.build(lambda t: np.asarray(embedder.embed(t), dtype=np.float32))


def felt(
    embedder: UseEmbedder, bank: meaning.Prototypes, lines: list[str]
) -> tuple[learned.Own, meaning.Label]:
    """What consolidation reads (xaid/consolidation.py's ``_felt``)."""
    whole, last = embedder.embed([learned.whole(lines), learned.tail(lines)])
    session = learned.read(learned.default(), lines, whole, last, bank.feel(whole))
    return session.own, session.label


@pytest.mark.parametrize(
    "lines",
    [
        [
            "I'm devastated. Everything is awful, I just want to cry 😭😭"
        ],  # tests/xaid/scheduler/test_scene.py
        ["I just want to cry 😭😭"],
        DEMO_EN,  # tests/client/test_cli_demo.py: the exhausted evening
        DEMO_ZH,  # "终于到家了" is relief, but the evening is exhausted
    ],
)
def test_strong_rule_readings_are_not_lost(
    embedder: UseEmbedder, bank: meaning.Prototypes, lines: list[str]
) -> None:
    own, label = felt(embedder, bank, lines)
    assert label == "low", (lines, own)


@pytest.mark.parametrize(
    ("lines", "expect"),
    [
        (["人没了，陪了我十五年的猫"], "low"),
        (["今天被优化了，HR找我谈的话"], "low"),
        (["破防了，他连我生日都忘了"], "low"),
        (["emo了，一整天没人理我"], "low"),
        (["裂开，电脑里的论文没保存"], "low"),
        (["过了！！法考过了"], "good"),
        (["虽然累，但是搬进新家太开心了"], "good"),
        (["周末去超市买了菜"], "neutral"),
        (["Not my best week, to be honest."], "low"),
        (["The vet said it's time. We said goodbye to Max today."], "low"),
        (["She's moving away. Glad for her, but I'll miss her terribly."], "low"),
        (["Killed it at the pitch today, they loved it"], "good"),
        (["Tired but so happy, my sister's wedding was perfect"], "good"),
        (["I had pasta for lunch."], "neutral"),
    ],
)
def test_a_session_reads_as_a_friend_reads_it(
    embedder: UseEmbedder, bank: meaning.Prototypes, lines: list[str], expect: str
) -> None:
    assert felt(embedder, bank, lines)[1] == expect


def test_a_turn_is_found_where_a_clause_starts() -> None:
    assert learned.turned(["Exhausted but we shipped it 🚀"]) == "we shipped it 🚀"
    assert (
        learned.turned(["被裁了。", "还好赔偿给得不错，但心里还是空落落的"]) == "心里还是空落落的"
    )
    # 不过 inside 喘不过气, 但 inside 不但: no turn
    assert learned.turned(["不太好，最近事情太多，喘不过气"]) is None
    assert learned.turned(["他不但迟到了还忘了带钥匙"]) is None
    assert learned.turned(["It was fun though"]) is None  # nothing follows
    # without a turn, the tail is the last sentence
    assert learned.tail(["Scan was clear. I can breathe again."]) == "I can breathe again."
    assert learned.tail(["过了！！科目三一把过"]) == "科目三一把过"


def p(low: float, neutral: float, good: float) -> dict[meaning.Label, float]:
    return {"low": low, "neutral": neutral, "good": good}


def test_the_order_of_the_readers() -> None:
    strong_low = learned.Own(-0.7, 0.0, 0.6)
    weak = learned.Own(-0.1, 0.0, 0.3)
    nothing = learned.Own(0.0, 0.0, 0.0)
    # a strong rule reading stands unless the model all but rules it out
    assert learned.decide(p(0.1, 0.1, 0.8), strong_low) == "low"
    assert learned.decide(p(0.02, 0.03, 0.95), strong_low) == "good"
    # a clear feeling after a turn decides over the whole
    assert learned.decide(p(0.7, 0.0, 0.3), weak, after_turn=p(0.1, 0.1, 0.8)) == "good"
    assert learned.decide(p(0.7, 0.0, 0.3), weak, after_turn=p(0.3, 0.5, 0.2)) == "low"
    # an unsure model: the prototypes decide when they read a feeling clearly
    clear, faint = meaning.Felt("low", 0.15), meaning.Felt("low", 0.02)
    assert learned.decide(p(0.45, 0.05, 0.5), nothing, nearest=clear) == "low"
    assert learned.decide(p(0.45, 0.05, 0.5), nothing, nearest=faint) == "good"
    assert learned.decide(p(0.3, 0.35, 0.35), weak, nearest=None) == "neutral"  # rules' band


def closing(valence: float = 0.0, fatigue: float = 0.0) -> MoodState:
    return MoodState(valence=valence, fatigue=fatigue, confidence=0.5, updated_ms=0)


def test_what_consolidation_stores() -> None:
    quiet = learned.Own(0.0, 0.0, 0.0)
    # "neutral" never stores: it must not wipe an earlier day's grief
    assert learned.carry(closing(-0.6), quiet, "neutral", loss=False) is None
    # a feeling the mood already carries as strongly stores nothing; one it does not, stores the reading
    assert learned.carry(closing(-0.4), quiet, "low", loss=False, strength=0.4) is None
    assert learned.carry(closing(-0.4), quiet, "low", loss=False, strength=0.3) is None
    good = learned.carry(closing(-0.1), quiet, "good", loss=False)
    assert (
        good is not None and good.valence == meaning.READ_VALENCE and good.cues == ("meaning:good",)
    )
    grief = learned.carry(closing(0.0), quiet, "low", loss=True)
    assert grief is not None and grief.lasting == meaning.LOSS_LASTING
    # tiredness said in the evening is carried to the morning, the valence left as it was
    tired = learned.carry(
        closing(-0.3, 0.35), learned.Own(-0.3, 0.4, 0.5), "low", loss=False, strength=0.3
    )
    assert tired is not None and tired.fatigue == learned.FATIGUE_READ and tired.valence == -0.3
    assert tired.cues == ("meaning:tired",)


def test_the_demo_evening_is_still_tired_in_the_morning(
    embedder: UseEmbedder, bank: meaning.Prototypes
) -> None:
    """The daemon's arithmetic: the evening's lines, then consolidation's reading, 11 h of night."""
    from xaid.mood.classifier import RuleClassifier
    from xaid.mood.state import HOUR_MS, MoodParams, decay, merge, neutral

    for lines in (DEMO_EN, DEMO_ZH):
        params, state = MoodParams(), neutral(0, MoodParams())
        for i, line in enumerate(lines):
            state = merge(state, RuleClassifier().classify(line), (i + 1) * 60_000, params)
        own, label = felt(embedder, bank, lines)
        reading = learned.carry(state, own, label, loss=False)
        if reading is not None:
            state = merge(state, reading, len(lines) * 60_000, params)
        morning = bands(decay(state, len(lines) * 60_000 + 11 * HOUR_MS))
        assert morning.fatigue in ("tired", "exhausted") and morning.valence in ("low", "neutral")


@pytest.mark.parametrize(
    ("lines", "tired"),
    [
        (
            [
                "Drove six hours, then unpacked boxes till midnight.",
                "My back has filed a complaint.",
            ],
            True,
        ),
        (["Up at 4 for the airport, three connections, landed at 11pm."], True),
        (["陪孩子熬夜写作业到两点，早上六点又起来做早饭"], True),
        (["连着三天开会到半夜，脑子已经是一锅浆糊"], True),
        (["Went to the dentist, then picked up groceries."], False),
        (["今天去银行办了张卡，顺便买了菜"], False),
    ],
)
def test_tiredness_said_without_a_tired_word_reaches_the_morning(
    embedder: UseEmbedder, bank: meaning.Prototypes, lines: list[str], tired: bool
) -> None:
    """The rules read no fatigue in these words; the tiredness head reads it by meaning, and what
    consolidation stores is still "tired" 12 h later (plain errands carry nothing). On feel3's
    code the morning's fatigue band was "none" for all six."""
    from xaid.mood.classifier import RuleClassifier
    from xaid.mood.state import HOUR_MS, MoodParams, decay, merge, neutral

    params, state = MoodParams(), neutral(0, MoodParams())
    for i, line in enumerate(lines):
        state = merge(state, RuleClassifier().classify(line), (i + 1) * 60_000, params)
    whole, last = embedder.embed([learned.whole(lines), learned.tail(lines)])
    model = learned.default()
    session = learned.read(model, lines, whole, last, bank.feel(whole))
    own = session.own
    assert own.fatigue < learned.FATIGUE_CARRY  # the rules alone would not carry it
    assert learned.still_tired(model, own, whole, last) is tired
    reading = learned.carry(
        state,
        own,
        session.label,
        False,
        learned.still_tired(model, own, whole, last),
        session.strength,
    )
    if reading is not None:
        state = merge(state, reading, len(lines) * 60_000, params)
    morning = bands(decay(state, len(lines) * 60_000 + 12 * HOUR_MS))
    assert (morning.fatigue in ("tired", "exhausted")) is tired, (lines, morning)


def test_tiredness_read_by_meaning_from_a_rested_evening_is_tired_at_nine_and_gone_a_day_later() -> (
    None
):
    """The stored strength: from a rested mood, FATIGUE_READ merged at 21:00 is "tired" at 09:00 and
    not at 21:00 the next day (0.55 before feel4 was below "tired" by the morning)."""
    from xaid.mood.state import HOUR_MS, MoodParams, decay, merge

    rested = closing(0.0, 0.0)
    reading = learned.carry(rested, learned.Own(0.0, 0.0, 0.0), "neutral", False, tired=True)
    assert reading is not None and reading.valence == 0.0 and reading.cues == ("meaning:tired",)
    state = merge(rested, reading, 0, MoodParams())
    assert bands(decay(state, 12 * HOUR_MS)).fatigue == "tired"
    assert bands(decay(state, 24 * HOUR_MS)).fatigue == "none"
    assert learned.carry(rested, learned.Own(0.0, 0.0, 0.0), "neutral", False, tired=False) is None


def test_the_packaged_weights_fit_the_features() -> None:
    model = learned.default()
    dims = model.mean.shape[0]
    assert dims == 2 * 512 and model.weights.shape == (len(learned.LABELS), dims + 2)
    x = learned.features(
        np.ones(512), np.ones(512), learned.Own(0, 0, 0), model.mean, model.scale, 1.0
    )
    assert x.shape == (dims + 2,)
    assert model.tired_weights is not None and model.tired_weights.shape == (dims + 2,)
    assert 0.0 <= model.tired(np.ones(512), np.ones(512), learned.Own(0, 0, 0)) <= 1.0


def test_the_strength_a_session_carries() -> None:
    """feel5: the carried valence follows how strongly the session said it (learned.strength)."""
    sure, doubtful = p(0.96, 0.02, 0.02), p(0.5, 0.3, 0.2)
    hedged = learned.Own(-0.06, 0.0, 0.2)  # "meh", 有点烦: the rules heard a mild low
    nothing = learned.Own(0.0, 0.0, 0.0)  # "被优化了", "not my best week": meaning alone
    # the rules heard it mild: a trace, however sure the model is of the label
    assert learned.strength(sure, hedged, "low") == learned.LIGHT
    # the rules heard it strongly: their strength
    assert learned.strength(sure, learned.Own(-0.6, 0.0, 0.6), "low") == 0.6
    # meaning alone: the model's margin sets it
    assert learned.strength(sure, nothing, "low") == pytest.approx(0.2 + 0.65 * 0.94)
    assert learned.strength(doubtful, nothing, "low") == pytest.approx(0.2 + 0.65 * 0.2)
    # the rules heard the other sign (sarcasm, "not worried"): meaning alone too
    assert learned.strength(sure, learned.Own(0.3, 0.0, 0.4), "low") > 0.8
    # a loss both readers read is strong; "neutral" carries nothing
    assert learned.strength(doubtful, hedged, "low", lost=True) == learned.STRONG
    assert learned.strength(sure, nothing, "neutral") == 0.0
    # a light reading after a neutral evening stores its trace; after a stronger closing, nothing
    trace = learned.carry(closing(-0.05), hedged, "low", loss=False, strength=learned.LIGHT)
    assert trace is not None and trace.valence == -learned.LIGHT
    assert learned.carry(closing(-0.3), hedged, "low", loss=False, strength=learned.LIGHT) is None


@pytest.mark.parametrize(
    ("lines", "margin", "lost"),
    [
        (["My grandfather passed away last night."], 0.2, True),
        (["外公昨晚走了"], 0.2, True),
        (["He passed away"], None, True),  # no vector: the rules alone
        (["My phone died again."], -0.2, False),  # a rule word, meaning vetoes
        (["We got a second dog last spring."], 0.1, False),  # meaning alone is not enough
        (["我们家又养了一只狗"], 0.1, False),
    ],
)
def test_a_loss_needs_both_readers(lines: list[str], margin: float | None, lost: bool) -> None:
    assert learned.lost(lines, [margin]) is lost


def test_a_loss_is_low_whatever_follows_it() -> None:
    """ "The biopsy came back" reads as good news to the model; a loss both readers read is low."""
    weak = learned.Own(-0.49, 0.0, 0.46)
    assert learned.decide(p(0.28, 0.02, 0.7), weak) == "good"
    assert learned.decide(p(0.28, 0.02, 0.7), weak, lost=True) == "low"


def test_grieving_is_a_strong_low() -> None:
    nothing = learned.Own(0.0, 0.0, 0.0)
    assert learned.grieving(learned.Session(nothing, "low", 0.47))  # "it's MS."
    assert not learned.grieving(learned.Session(nothing, "low", 0.2))  # the dog won't eat
    assert not learned.grieving(learned.Session(nothing, "good", 0.8))


@pytest.mark.parametrize(
    ("lines", "label"),
    [
        (["收养的手续终于批了，哭成狗，开心的眼泪"], "good"),  # a clause "哭成狗" reads as a loss
        (["Adoption papers came through today and I cried like a baby, happy tears"], "good"),
        (["Lost my grandad yesterday, the service is next Friday."], "low"),
        (["姥爷前天夜里没了，周六开追悼会"], "low"),
    ],
)
def test_a_loss_a_clause_told_is_taken_unless_the_session_reads_good(
    embedder: UseEmbedder, bank: meaning.Prototypes, lines: list[str], label: str
) -> None:
    """feel6: consolidation's clause reading (told) makes a session a loss, carried strongly, but a
    clause is short and tears of joy read as one: a session the reader carries as good stays good."""
    whole, last = embedder.embed([learned.whole(lines), learned.tail(lines)])
    felt = learned.read_told(learned.default(), lines, whole, last, bank.feel(whole), False, True)
    assert felt.label == label and felt.lost is (label == "low"), felt


@pytest.mark.parametrize(
    ("lines", "label"),
    [
        (
            ["My uncle passed away on Tuesday.", "At least he got to see all of us at Christmas."],
            "low",
        ),
        (["外公上周走了。", "好在走的时候没受什么罪。"], "low"),
        (["Didn't get the flat, someone outbid us.", "oh well, at least we tried lol"], "low"),
        (["面试又没过。", "算了，反正也不太想去哈哈"], "low"),
        (["Got the promotion today lol, still can't believe it"], "good"),
        (["升职了哈哈，还是不敢相信"], "good"),
        (["Dentist is on Thursday at 3, need to bring the forms."], "neutral"),
        (["周四下午三点看牙，记得带资料。"], "neutral"),
    ],
)
def test_the_news_not_its_consolation_is_carried(
    embedder: UseEmbedder, bank: meaning.Prototypes, lines: list[str], label: str
) -> None:
    """feel9: a consoling tail ("at least", 好在, 算了…哈哈) is left out of what the session ended on
    (learned.point), so a loss or a setback said with one is carried low; a laugh in good news stays
    good and a plain errand carries nothing."""
    whole, last = embedder.embed([learned.whole(lines), learned.tail(lines)])
    felt = learned.read(learned.default(), lines, whole, last, bank.feel(whole))
    assert felt.label == label, felt


@pytest.mark.parametrize(
    ("lines", "point"),
    [
        (["Failed again. At least the examiner was nice lol"], ["Failed again"]),
        (["房子没抢到。", "算了算了，反正也就那样吧哈哈"], ["房子没抢到"]),
        (["隔壁公司裁了一半人，还好不是我们", "中午的饭挺好吃"], None),  # lunch is the end
        (["被裁了。", "还好赔偿给得不错，但心里还是空落落的"], None),  # it turns again
        (["At least it's Friday"], None),  # nothing before it to console
        (["还好，不累"], None),
    ],
)
def test_point_cuts_only_a_closing_consolation(lines: list[str], point: list[str] | None) -> None:
    assert learned.point(lines) == (point or lines)


def morning_valence(embedder: UseEmbedder, bank: meaning.Prototypes, lines: list[str]) -> float:
    """The valence the next morning: the lines read by the rules a minute apart from 21:00, what
    consolidation stores merged at the last word (learned.read and carry), 12 hours of fading."""
    params = MoodParams()
    at = 21 * HOUR_MS
    closing = neutral(at, params)
    for line in lines:
        at += 60_000
        closing = merge(closing, RuleClassifier().classify(line), at, params)
    whole, last = embedder.embed([learned.whole(lines), learned.tail(lines)])
    session = learned.read(learned.default(), lines, whole, last, bank.feel(whole))
    reading = learned.carry(closing, session.own, session.label, False, None, session.strength)
    state = merge(closing, reading, at, params) if reading is not None else closing
    return decay(state, at + 12 * HOUR_MS).valence


@pytest.mark.parametrize(
    ("lines", "sign"),
    [
        # a hard day said with an upbeat word in it (feel10): not read as a good one. Written after
        # feelings_dev10.json; "Cool, so I didn't make the team. Again. Awesome.", "好家伙，房东把押金
        # 全扣了，真是谢谢他了", "笑死，答辩没过，又要延毕一年" are still carried as good (docs/mood.md)
        (["Great news everyone: my flat got burgled while I was at work."], -1),
        (
            [
                "Well that's just perfect, the car failed its MOT and the repair costs more than "
                "it's worth."
            ],
            -1,
        ),
        (["太棒了，周末又要加班，工资还是一分不多"], -1),
        # a happy message stays happy, a plain line carries nothing
        (["My little brother got into medical school today, we're all so proud of him!"], 1),
        (["女儿今天拿到了钢琴比赛的一等奖，全家都乐坏了"], 1),
        (["Took the bins out and answered a few emails."], 0),
        (["下午把车送去保养了，顺便加了油。"], 0),
    ],
)
def test_a_hard_day_is_not_read_as_a_good_one(
    embedder: UseEmbedder, bank: meaning.Prototypes, lines: list[str], sign: int
) -> None:
    valence = morning_valence(embedder, bank, lines)
    if sign == 0:
        assert abs(valence) < 0.1, (lines, valence)  # no tone: within tone.py's neutral band
    else:
        assert valence * sign > 0.02, (lines, valence)


@pytest.mark.parametrize(
    ("a", "b"), [(["passed 🎉"], ["passed 😭"]), (["又被拒了🙃"], ["又被拒了🥰"])]
)
def test_the_embedder_sees_which_face(embedder: UseEmbedder, a: list[str], b: list[str]) -> None:
    """Every emoji is the embedder's one unknown token: said as words (faces.gloss), two faces make
    two readings, where before the two sessions were one vector."""
    raw = np.asarray(embedder.embed([meaning.session_text(a), meaning.session_text(b)]))
    assert float(raw[0] @ raw[1]) > 0.999
    read = np.asarray(embedder.embed([learned.whole(a), learned.whole(b)]))
    assert float(read[0] @ read[1]) < 0.95


def test_a_sentence_of_faces_is_read_with_the_one_before() -> None:
    assert learned.tail(["got the flat!! 😭😭"]).startswith("got the flat")
    assert learned.tail(["没考上。😭"]).replace(" ", "") == "没考上。大哭"
    assert learned.tail(["so tired", "but the cake came out perfect 🎂"]).endswith("birthday cake")
