"""Chinese cues for the rule classifier, matched by longest match over the text (no segmenter).

Longest match is what makes a segmenter unnecessary: "累死了" beats "累", "不错" beats the negator "不",
"没事" beats "没". The same trick guards against false friends: listing "积累", "困难" or "超市" means
their characters are consumed as a whole and never read as 累, 困 or the intensifier 超. Profiles and
strengths follow lexicon_en so the two languages land on the same scale.
"""

from __future__ import annotations

from .lexicon_en import (
    AMUSED,
    ANGRY,
    ANNOYED,
    ANXIOUS,
    BORED,
    CALM,
    CONFIDENT,
    CRYING,
    DRAINED,
    EXCITED,
    FAILURE,
    FINE,
    GOOD,
    GRAVE,
    GRIEF,
    HURT,
    JOY,
    LONELY,
    LOVE,
    MEH,
    MILDLY_BAD,
    NEUTRAL,
    NOT_TIRED,
    OVERLOADED,
    REASSURING,
    SAD,
    SCARED,
    SIGH,
    SLEEPLESS,
    SLEEPY,
    STRESSED,
    TIRED,
    Cue,
    Entry,
)

CUES: dict[str, Entry] = {
    # tiredness
    "累": (TIRED, 0.6),
    "累死了": (TIRED, 0.9),
    "累死": (TIRED, 0.88),
    "劳累": (TIRED, 0.6),
    "疲惫": (TIRED, 0.75),
    "疲倦": (TIRED, 0.7),
    "疲劳": (TIRED, 0.65),
    "精疲力尽": (TIRED, 0.9),
    "筋疲力尽": (TIRED, 0.9),
    "心累": (DRAINED, 0.75),
    "身心俱疲": (DRAINED, 0.9),
    "心力交瘁": (DRAINED, 0.9),
    "被掏空": (DRAINED, 0.8),
    "累瘫": (TIRED, 0.85),
    "累趴": (TIRED, 0.8),
    "累成狗": (TIRED, 0.85),
    "没力气": (TIRED, 0.6),
    "没精神": (TIRED, 0.55),
    "熬夜": (TIRED, 0.55),
    "通宵": (TIRED, 0.65),
    "加班": (Cue(-0.25, 0.1, 0.6), 0.45),
    "困": (SLEEPY, 0.55),
    "困死": (SLEEPY, 0.85),
    "犯困": (SLEEPY, 0.55),
    "想睡": (SLEEPY, 0.5),
    "睡不着": (SLEEPLESS, 0.6),
    "失眠": (SLEEPLESS, 0.65),
    "忙": (Cue(-0.2, 0.4, 0.45), 0.4),
    "忙了一整天": (TIRED, 0.6),
    "忙了一天": (TIRED, 0.55),
    "忙坏了": (TIRED, 0.75),
    "头都炸了": (OVERLOADED, 0.75),
    "脑袋嗡嗡": (OVERLOADED, 0.6),
    "头昏脑涨": (OVERLOADED, 0.6),
    "头要炸了": (OVERLOADED, 0.75),
    "头炸了": (OVERLOADED, 0.7),
    "脑子炸了": (OVERLOADED, 0.75),
    "头都大了": (OVERLOADED, 0.65),
    "脑袋都大了": (OVERLOADED, 0.65),
    # loss and grave news
    "去世": (GRIEF, 0.9),
    "过世": (GRIEF, 0.9),
    "离世": (GRIEF, 0.9),
    "病逝": (GRIEF, 0.9),
    "逝世": (GRIEF, 0.85),
    "葬礼": (GRIEF, 0.75),
    "丧事": (GRIEF, 0.75),
    "噩耗": (GRIEF, 0.85),
    "流产": (GRIEF, 0.85),
    "确诊": (GRAVE, 0.75),
    "癌": (GRAVE, 0.85),
    "癌症": (GRAVE, 0.85),
    "肿瘤": (GRAVE, 0.8),
    "绝症": (GRAVE, 0.9),
    "病危": (GRAVE, 0.9),
    # sadness
    "难过": (SAD, 0.7),
    "伤心": (SAD, 0.75),
    "难受": (HURT, 0.65),
    "心痛": (HURT, 0.8),
    "孤独": (LONELY, 0.65),
    "寂寞": (LONELY, 0.6),
    "想哭": (CRYING, 0.7),
    "哭": (CRYING, 0.6),
    "呜呜": (CRYING, 0.55),
    "失落": (SAD, 0.6),
    "郁闷": (SAD, 0.6),
    "沮丧": (SAD, 0.65),
    "抑郁": (SAD, 0.85),
    "委屈": (HURT, 0.6),
    "失望": (SAD, 0.6),
    "绝望": (SAD, 0.9),
    "想你": (LONELY, 0.45),
    "分手": (HURT, 0.75),
    "唉": (SIGH, 0.4),
    # anger, annoyance
    "生气": (ANGRY, 0.7),
    "气死了": (ANGRY, 0.9),
    "气死": (ANGRY, 0.88),
    "气炸": (ANGRY, 0.9),
    "火大": (ANGRY, 0.7),
    "愤怒": (ANGRY, 0.85),
    "恼火": (ANGRY, 0.7),
    "烦": (ANNOYED, 0.55),
    "烦死": (ANNOYED, 0.78),
    "烦人": (ANNOYED, 0.5),
    "烦躁": (ANNOYED, 0.65),
    "烦恼": (ANNOYED, 0.5),
    "不耐烦": (ANNOYED, 0.55),
    "不爽": (ANNOYED, 0.55),
    "讨厌": (ANNOYED, 0.6),
    "受不了": (ANNOYED, 0.7),
    "无语": (Cue(-0.45, 0.3, 0.0), 0.45),
    "麻烦": (Cue(-0.3, 0.3, 0.0), 0.4),
    "头疼": (Cue(-0.45, 0.2, 0.2), 0.5),
    "崩溃": (Cue(-0.8, 0.8, 0.3), 0.85),
    # anxiety, stress
    "担心": (ANXIOUS, 0.55),
    "焦虑": (ANXIOUS, 0.7),
    "紧张": (ANXIOUS, 0.55),
    "不安": (ANXIOUS, 0.5),
    "害怕": (SCARED, 0.65),
    "怕": (SCARED, 0.45),
    "可怕": (SCARED, 0.55),
    "吓死": (SCARED, 0.85),
    "恐惧": (SCARED, 0.8),
    "压力大": (STRESSED, 0.65),
    "压力": (STRESSED, 0.45),
    "慌": (SCARED, 0.55),
    "心慌": (ANXIOUS, 0.6),
    "慌张": (SCARED, 0.55),
    "困扰": (ANXIOUS, 0.45),
    "困难": (MILDLY_BAD, 0.35),
    "困惑": (MILDLY_BAD, 0.35),
    "难": (MILDLY_BAD, 0.35),
    # joy, excitement
    "开心": (JOY, 0.65),
    "高兴": (JOY, 0.65),
    "快乐": (JOY, 0.65),
    "幸福": (LOVE, 0.75),
    "喜欢": (LOVE, 0.55),
    "可爱": (GOOD, 0.45),
    "兴奋": (EXCITED, 0.75),
    "激动": (EXCITED, 0.75),
    "期待": (EXCITED, 0.6),
    "太好了": (EXCITED, 0.75),
    "太棒了": (EXCITED, 0.8),
    "棒": (GOOD, 0.6),
    "爽": (Cue(0.7, 0.6, 0.0), 0.6),
    "满意": (GOOD, 0.55),
    "好玩": (GOOD, 0.5),
    "哈哈": (AMUSED, 0.45),
    "嘻嘻": (AMUSED, 0.4),
    "笑死": (AMUSED, 0.6),
    "笑哭": (AMUSED, 0.6),
    "耶": (EXCITED, 0.5),
    "爱你": (LOVE, 0.65),
    # calm, contentment
    "放松": (CALM, 0.55),
    "轻松": (CALM, 0.5),
    "平静": (CALM, 0.55),
    "安心": (CALM, 0.5),
    "淡定": (CALM, 0.45),
    "悠闲": (CALM, 0.5),
    "惬意": (CALM, 0.6),
    "舒服": (CALM, 0.55),
    "还行": (FINE, 0.4),
    "还好": (FINE, 0.35),
    "还可以": (FINE, 0.4),
    # confidence
    "有信心": (CONFIDENT, 0.6),
    "信心满满": (CONFIDENT, 0.75),
    "自信": (CONFIDENT, 0.6),
    "有把握": (CONFIDENT, 0.6),
    "胸有成竹": (CONFIDENT, 0.75),
    "踏实": (CONFIDENT, 0.55),
    "心里有底": (CONFIDENT, 0.6),
    "放心": (CALM, 0.5),
    "稳了": (CONFIDENT, 0.55),
    # things going wrong
    "搞砸": (FAILURE, 0.65),
    "搞崩": (FAILURE, 0.65),
    "崩了": (FAILURE, 0.65),
    "失败": (FAILURE, 0.6),
    "挂了": (FAILURE, 0.6),
    "挂科": (FAILURE, 0.65),
    "完蛋": (FAILURE, 0.7),
    "宕机": (FAILURE, 0.55),
    "出错": (FAILURE, 0.45),
    "报错": (FAILURE, 0.45),
    # neutral
    "好的": (NEUTRAL, 0.3),
    "挺好的": (GOOD, 0.55),
    "嗯": (NEUTRAL, 0.2),
    "一般": (MEH, 0.35),
    "无聊": (BORED, 0.5),
    "没劲": (BORED, 0.5),
}

# Fixed meanings, never flipped by a negator.
IDIOMS: dict[str, Entry] = {
    "不错": (GOOD, 0.55),
    "还不错": (GOOD, 0.5),
    "不累": (NOT_TIRED, 0.3),
    "不困": (NOT_TIRED, 0.3),
    "不太好": (MILDLY_BAD, 0.45),
    "不怎么好": (MILDLY_BAD, 0.45),
    "不好受": (HURT, 0.55),
    "不开心": (SAD, 0.6),
    "不高兴": (SAD, 0.55),
    "不舒服": (Cue(-0.45, 0.1, 0.25), 0.5),
    "不行了": (Cue(-0.5, 0.2, 0.5), 0.6),
    "不行": (MILDLY_BAD, 0.35),
    "没事": (REASSURING, 0.35),
    "没关系": (REASSURING, 0.35),
    "没问题": (REASSURING, 0.4),
    "不用担心": (REASSURING, 0.4),
    "别担心": (REASSURING, 0.4),
    "没什么好担心": (CONFIDENT, 0.5),
    "没什么可担心": (CONFIDENT, 0.5),
    "没什么好怕": (CONFIDENT, 0.5),
    "没什么可怕": (CONFIDENT, 0.5),
    "压力不大": (FINE, 0.35),
    "哭笑不得": (Cue(-0.2, 0.4, 0.0), 0.4),
}

# Compounds that contain a cue, negator or intensifier character but none of their meaning.
IGNORED: frozenset[str] = frozenset(
    {
        "你好", "好像", "好多", "好几", "好久", "只好", "正好", "刚好", "最好", "好处", "爱好", "好友",
        "好好", "好在", "好吧", "积累", "累计", "累积", "连累", "贫困", "恐怕", "哪怕", "不好意思", "超市",
        "超过", "太太", "太阳", "太空", "认真", "真相", "不得不", "没想到", "不知道", "不管", "不但",
        "不仅", "不如", "不久", "差不多", "不一定", "没多久", "别人", "特别是", "挂号", "挂念", "想到",
        "爽约", "难道", "难怪", "难得", "难免", "难以", "帮忙", "连忙", "急忙", "赶忙", "忙吗",
    }
)

# Negators with how fully they negate: 不太 / 没那么 deny only part of the feeling.
NEGATORS: dict[str, float] = {
    "不": 1.0, "没": 1.0, "没有": 1.0, "别": 1.0, "并不": 1.0, "并没有": 1.0, "不是": 1.0, "从不": 1.0,
    "从来不": 1.0, "一点也不": 1.4, "一点都不": 1.4, "一点儿也不": 1.4, "一点儿都不": 1.4, "完全不": 1.4,
    "根本不": 1.4, "丝毫不": 1.4, "毫不": 1.4, "一点也没": 1.4, "不用": 1.0, "不必": 1.0, "无需": 1.0,
    "不太": 0.6, "不怎么": 0.6, "没那么": 0.6, "不算": 0.6, "不算太": 0.6,
}

# Intensifiers before a cue; below 1 are down-toners.
INTENSIFIERS: dict[str, float] = {
    "很": 1.3, "非常": 1.45, "太": 1.4, "特别": 1.4, "超": 1.45, "超级": 1.5, "好": 1.3, "真": 1.25,
    "真的": 1.25, "挺": 1.1, "蛮": 1.1, "十分": 1.4, "极其": 1.6, "相当": 1.3, "巨": 1.45, "贼": 1.4,
    "这么": 1.2, "那么": 1.2, "更": 1.15, "越来越": 1.2, "如此": 1.3, "实在": 1.3, "快": 1.15,
    "有点": 0.6, "有点儿": 0.6, "有一点": 0.6, "有一点点": 0.5, "有些": 0.65, "稍微": 0.55,
    "略": 0.6, "比较": 0.8, "一点点": 0.55,
}

# Intensifiers that are a cue themselves when nothing follows them: "很好", "不好".
INTENSIFIER_FALLBACK: dict[str, Entry] = {"好": (GOOD, 0.5)}

# Boosters after the cue: 累死了, 开心极了, 累得要命.
SUFFIX_BOOSTERS: dict[str, float] = {
    "死了": 1.4, "死": 1.35, "极了": 1.4, "得要命": 1.4, "得要死": 1.4, "得不行": 1.3, "得很": 1.2,
    "坏了": 1.3, "透了": 1.35, "爆了": 1.35, "炸了": 1.35, "疯了": 1.3, "得不得了": 1.4,
}

# Words between a negator and its cue that leave the negation standing: "不觉得累".
FILLERS: frozenset[str] = frozenset({"觉得", "感觉", "感到", "会", "怎么", "是"})

CONTRASTS: frozenset[str] = frozenset({"但是", "但", "可是", "不过", "然而", "只是"})

# Family and close people: "外婆今天走了" says a death with only 走了 ("left").
KIN: frozenset[str] = frozenset(
    {
        "爸爸", "妈妈", "父亲", "母亲", "爸", "妈", "爷爷", "奶奶", "外公", "外婆", "姥姥", "姥爷", "哥哥",
        "姐姐", "弟弟", "妹妹", "儿子", "女儿", "老公", "老婆", "丈夫", "妻子", "叔叔", "阿姨", "舅舅",
        "姑姑", "表哥", "表姐", "堂哥", "好朋友", "孩子", "宝宝", "狗", "猫", "狗狗", "猫咪",
    }
)

# Words that open a conceded clause (虽然…，但是…): the feeling up to the clause's end is granted.
CONCESSIVES: frozenset[str] = frozenset({"虽然", "尽管", "虽说", "哪怕"})
