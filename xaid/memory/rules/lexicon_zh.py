"""Chinese words the fact rules read: adverbs a rule steps over, occupations by their endings,
relatives and pets, events, and the words that look like an object but are not one.

Apart from the grammar in zh, as mood/lexicon_zh is apart from the mood classifier. Lists
that are matched with str.startswith / endswith are tuples (those take a tuple, not a set).
"""

from __future__ import annotations


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Between 我 and the verb: 我真的很喜欢, 我现在主要用. In this order: the pattern tries them left to right.
ADVERBS = _words(
    "很 真的 真 超级 超 特别 非常 挺 也 还 一直 都 蛮 比较 其实 真心 最近 现在 目前 确实 太 更 最 好"
    " 本来就 从小就 从小 向来 一向 平时 主要 基本上 基本 一般 通常 已经 还是 其实也 当然 向来都 就 又 才 也是 依然 仍然"
)
# 我是X: X ends like an occupation.
JOB_SUFFIXES = _words(
    "师 员 生 工程师 医生 老师 学生 护士 会计 记者 司机 警察 作家 经理 老板 工人 农民 主播 博主 博士 律师 厨师 "
    "设计师 程序员 画家 演员 歌手 总监 主管 创始人 自由职业者 公务员 店主 学者 专家 顾问 编辑 翻译 研究员 销售 "
    "运营 产品经理 UP主 up主"
)
# 我是X人 says where the user is from unless X is one of these ("我是好人", "我是一个人").
NOT_A_HOMETOWN = _words(
    "好 坏 男 女 一个 个 大 老 年轻 病 客 外 主 本 家 工 穷 有钱 普通 什么 这种 那种 这样的 那样的 中国 外国 文化 "
    "现代 成年 正常 明白 夜猫子 内向的 外向的 社恐 独生 陌生"
)
# Relatives and pets, as the subject's English key (user.sister).
RELATIONS = {
    "妹妹": "sister", "姐姐": "sister", "哥哥": "brother", "弟弟": "brother", "妈妈": "mother", "老妈": "mother",
    "母亲": "mother", "妈": "mother", "爸爸": "father", "老爸": "father", "父亲": "father", "爸": "father",
    "老婆": "partner", "妻子": "partner", "太太": "partner", "老公": "partner", "丈夫": "partner", "先生": "partner",
    "男朋友": "partner", "男友": "partner", "女朋友": "partner", "女友": "partner", "对象": "partner",
    "未婚夫": "partner", "未婚妻": "partner", "伴侣": "partner", "好朋友": "friend", "朋友": "friend", "闺蜜": "friend",
    "老板": "boss", "领导": "boss", "上司": "boss", "儿子": "child", "女儿": "child", "孩子": "child", "猫咪": "cat",
    "猫": "cat", "狗狗": "dog", "狗": "dog", "室友": "roommate", "同事": "colleague", "奶奶": "grandparent",
    "爷爷": "grandparent", "外婆": "grandparent", "外公": "grandparent", "姥姥": "grandparent", "姥爷": "grandparent",
}  # fmt: skip
# 叫 is also "order" and "call out": 我叫了外卖, 我叫车, 我叫他 name nobody.
NOT_NAME_START = _words("了 他 她 你 它 车 外卖 醒 人 过 声 好 不 什么 啥 来 去 起 出 住 停 错")
# Events worth a plan (我明天有个面试): a regex alternation.
EVENTS = (
    r"面试|考试|会议|会|约会|预约|体检|手术|航班|比赛|演出|答辩|演讲|汇报|约|课|婚礼|聚会|派对|飞机|火车|"
    r"高铁|复查|门诊"
)
# 我最喜欢的X是…: X as the subject's English key (user.favourite.color).
CATEGORIES = {
    "颜色": "color",
    "食物": "food",
    "水果": "fruit",
    "电影": "movie",
    "歌手": "singer",
    "歌": "song",
    "书": "book",
    "运动": "sport",
    "动物": "animal",
    "饮料": "drink",
    "游戏": "game",
    "编程语言": "language",
    "语言": "language",
    "菜": "food",
    "季节": "season",
    "明星": "celebrity",
    "作家": "author",
    "城市": "city",
}
# Verbs of liking that say the opposite; what 我不吃 … names as meat; what 我在X工作 is not a place; what
# 我住X is not a home.
NEGATIVE_VERBS = frozenset({"讨厌", "厌恶", "受不了", "恨", "恨死了"})
MEAT = ("肉", "荤", "猪肉", "牛肉", "羊肉", "鸡肉", "海鲜", "鱼")
NOT_A_PLACE = frozenset(
    {"努力", "认真", "拼命", "好好", "专心", "继续", "加班", "疯狂", "正常", "远程"}
)
NOT_A_HOME = ("院", "校", "宿舍", "酒店", "的", "了")  # 我住院了, 我住的地方…
