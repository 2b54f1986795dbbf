"""Writes associative_dev11.json: six users' six weeks of daily small talk with eight cases each.

``python perf/scenarios/associative_dev11_make.py`` rewrites the file (seeded). Why a set of its own:
held-out set 5 showed xaid below a plain dense ranking in Chinese; here the mention names the thing the
way people name it on the day (姥姥, 中秋, 上海, guitar, Nana) while B named it weeks before another way
(外婆, 八月十五, 魔都, 吉他, grandmother), so the two share few or no characters, and the look-alike
repeats the mention's own words. The B lines, mentions and look-alikes were written by hand for this set
(branch assoc11, before any xaid/ change of it); the calendar layout, the small talk and the answer-word
check are associative_dev10_make's.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from perf.scenarios.associative_dev10_make import write
from perf.scenarios.associative_make import Case as C
from perf.scenarios.associative_make import User

OUT = Path(__file__).with_name("associative_dev11.json")

USERS = [
    User(
        "assoc11-zh-1",
        "train",
        "zh",
        "小雨",
        "阿木",
        (
            C(
                "person",
                "我外婆上周在菜市场摔了一跤，髋骨骨折了，医生说得做置换手术",
                "髋骨 置换",
                "姥姥又寄来一箱她自己腌的咸鸭蛋",
                "姥姥刚打电话来，声音听着有点虚",
            ),
            C(
                "activity",
                "最近开始撸铁了，教练说我硬拉的时候腰塌了，差点闪到",
                "硬拉 腰塌",
                "健身房换了新的储物柜，还得扫码开",
                "晚上去健身房练背",
            ),
            C(
                "place",
                "我表哥在魔都开了家小面馆，说房租贵得离谱，天天熬到后半夜",
                "表哥 面馆 后半夜",
                "上海今天上热搜了，说是下了大雪",
                "下周要去上海出差三天",
            ),
            C(
                "date",
                "八月十五是我爸六十大寿，全家要回老家摆酒",
                "六十 大寿 摆酒",
                "公司发的中秋月饼礼盒全是五仁的，救命",
                "中秋快到了，在想要不要请假",
            ),
            C(
                "person",
                "周哥跟我说他老婆怀二胎了，他愁得不行，说房子不够住",
                "二胎 不够住",
                "老周今天又请全组喝奶茶",
                "老周今天看起来心事重重的",
            ),
            C(
                "activity",
                "报了个钢琴成人班，老师说我手型像鸡爪，弹了一周哈农手指都酸了",
                "哈农 鸡爪",
                "楼上小孩练琴练到九点多",
                "今晚又要练琴了，好不想",
            ),
            C(
                "place",
                "大学是在鹭岛读的，宿舍窗外就是海，毕业那天我们在沙滩上喝到天亮",
                "宿舍 沙滩",
                "厦门的机票涨价涨疯了",
                "五一想去厦门玩几天",
            ),
            C(
                "date",
                "二月十四号是我跟男朋友在一起五周年，他神神秘秘说要给我个惊喜",
                "五周年 惊喜 神秘",
                "情人节的花价格翻了三倍，抢钱啊",
                "情人节那天你说我该送啥",
            ),
        ),
    ),
    User(
        "assoc11-zh-2",
        "train",
        "zh",
        "阿杰",
        "小树",
        (
            C(
                "person",
                "我老爸血压一直偏高，上次体检医生让他长期吃药，他还嘴硬说没事",
                "血压 体检 嘴硬",
                "我爹学会发表情包了，天天给我发",
                "我爹今天又念叨我找对象的事",
            ),
            C(
                "activity",
                "周末去雪场了，摔了二十多次，屁股到现在还是紫的",
                "屁股 紫的",
                "滑雪服打折，看中一件橙色的",
                "这周末又要去滑雪",
            ),
            C(
                "place",
                "蓉城的火锅是真的顶，我在那边读书四年胖了三十斤",
                "读书 胖了",
                "成都今天地震了？朋友圈都在说",
                "下个月回成都参加婚礼",
            ),
            C(
                "date",
                "大年三十那天我得值班，今年又回不了家，我妈在电话里都哭了",
                "值班 哭了",
                "除夕的高铁票居然还有",
                "除夕怎么过还没想好",
            ),
            C(
                "person",
                "发小浩子去年查出糖尿病，现在每天扎针，人瘦了一大圈",
                "糖尿病 扎针",
                "浩浩换了个新发型，丑哭",
                "浩浩约我周六撸串",
            ),
            C(
                "activity",
                "开始学吉他了，按F和弦按到手指起泡，邻居估计想打我",
                "和弦 起泡",
                "guitar弦又断了一根，得去买新的",
                "今晚练会儿guitar",
            ),
            C(
                "place",
                "帝都的冬天干到流鼻血，我在那边实习那年天天抱着加湿器",
                "流鼻血 加湿器 实习",
                "北京的烤鸭店排队排了一小时，刷视频看到的",
                "下周去北京见客户",
            ),
            C(
                "date",
                "下个月二号是我们结婚纪念日，老婆暗示了好几次想要一台拍立得",
                "拍立得 暗示",
                "2号要交房租了",
                "2号快到了，我还啥都没准备",
            ),
        ),
    ),
    User(
        "assoc11-zh-3",
        "test",
        "zh",
        "林林",
        "阿澈",
        (
            C(
                "person",
                "我二姨去年查出乳腺癌，今年复查结果挺好，她自己说是捡回一条命",
                "乳腺癌 复查 捡回",
                "姨妈又在家族群里发养生文章",
                "姨妈今天来我家吃饭了",
            ),
            C(
                "activity",
                "开始夜跑了，第一次跑了三公里差点吐，膝盖外侧有点疼",
                "三公里 膝盖 外侧",
                "慢跑鞋到货了，粉色的超可爱",
                "晚上出去慢跑一圈",
            ),
            C(
                "place",
                "羊城的早茶我能吃一辈子，虾饺一笼接一笼，上次吃到扶墙出",
                "早茶 虾饺 扶墙",
                "广州塔晚上的灯挺好看的，看别人拍的",
                "月底要去广州看展",
            ),
            C(
                "date",
                "正月十五是我奶奶的忌日，每年那天我们都去山上给她扫墓",
                "忌日 扫墓",
                "元宵节公司说要猜灯谜，好土",
                "元宵节要到了",
            ),
            C(
                "person",
                "小秦学姐要去德国读博了，她导师研究蜜蜂的，说以后天天跟蜜蜂打交道",
                "德国 读博 蜜蜂",
                "秦姐推荐的那家店真的好吃",
                "秦姐今天在朋友圈发了一大段话",
            ),
            C(
                "activity",
                "周末去野外徒步，迷路了两个小时，最后是跟着一群羊走出来的",
                "迷路 一群羊",
                "爬山的登山杖落在车上了",
                "这周六又要去爬山",
            ),
            C(
                "place",
                "以前住的那个筒子楼要拆了，楼道里永远飘着隔壁炒辣椒的味道",
                "筒子楼 辣椒",
                "老小区门口的早餐店居然还在",
                "今天路过以前住的老小区了",
            ),
            C(
                "date",
                "十二月二十五号是我家猫来我家一周年，我要给它买个罐头蛋糕",
                "一周年 罐头",
                "圣诞节商场到处都是红红绿绿，看腻了",
                "圣诞节打算干嘛呢",
            ),
        ),
    ),
    User(
        "assoc11-zh-4",
        "test",
        "zh",
        "老王",
        "小满",
        (
            C(
                "person",
                "我儿子幼儿园老师说他在学校咬了小朋友，我跟他妈被叫去谈话了",
                "幼儿园 咬了 谈话",
                "小宝今天画了一只紫色的大象",
                "小宝今天又不肯睡午觉",
            ),
            C(
                "activity",
                "钓鱼三年了，上周终于钓上来一条八斤的草鱼，手都在抖",
                "八斤 草鱼",
                "水库边新修了个停车场",
                "周末去水库甩两杆",
            ),
            C(
                "place",
                "年轻时候在鹏城的电子厂打过两年工，流水线上一站一整天",
                "电子厂 流水线",
                "深圳的房价又上新闻了",
                "闺女说毕业想去深圳",
            ),
            C(
                "date",
                "五月初五是我老伴生日，她嘴上说不过，其实就想吃顿涮肉",
                "老伴 涮肉",
                "端午节的粽子今年想吃肉的",
                "端午节快到了",
            ),
            C(
                "person",
                "老李头上礼拜住院了，心脏搭了两个支架，说是差点就过去了",
                "心脏 支架",
                "李叔又在群里发早上好的图片",
                "李叔今天在楼下下棋",
            ),
            C(
                "activity",
                "跟老伙计们学太极，练了半年，我这老寒腿居然好了不少",
                "老寒腿 半年",
                "公园打拳的地方被跳广场舞的占了",
                "明早去公园打拳",
            ),
            C(
                "place",
                "年轻时候在大兴安岭当过林场工人，冬天零下四十度，尿尿都冻成冰棍",
                "林场 零下 冰棍",
                "东北的大米今年涨价了",
                "电视上在放东北的雪景",
            ),
            C(
                "date",
                "清明那天要回老家给我爸妈上坟，坟头那棵松树是我亲手栽的",
                "上坟 松树 亲手",
                "4月5号小区要停水",
                "4月5号要回趟老家",
            ),
        ),
    ),
    User(
        "assoc11-en-1",
        "train",
        "en",
        "Maya",
        "Theo",
        (
            C(
                "person",
                "my grandmother is moving into a care home next month, she's furious about leaving her roses behind",
                "care furious roses",
                "Nana sent me a birthday card three weeks early lol",
                "Nana rang me tonight, she sounded tired",
            ),
            C(
                "activity",
                "started lifting at the gym by work, my trainer says my deadlift form is a crime scene",
                "deadlift trainer",
                "weights room was packed after work, gave up",
                "hitting the weights after work",
            ),
            C(
                "place",
                "my brother just moved to the Big Apple for a finance job, his flat is the size of a wardrobe",
                "finance wardrobe",
                "New York pizza debate on my feed again, so dumb",
                "might fly to New York in may",
            ),
            C(
                "date",
                "feb 14th is also my mum's birthday, she always gets shortchanged with combo presents",
                "shortchanged combo presents",
                "valentines cards in the shops since boxing day honestly",
                "valentines plans are stressing me out",
            ),
            C(
                "person",
                "Jonathan from accounts told me he's quitting to open a surf school in Cornwall",
                "surf school cornwall",
                "Jono brought doughnuts for the whole floor",
                "Jono was weirdly quiet in the meeting",
            ),
            C(
                "activity",
                "been cycling to work since the tube strike, nearly got doored on tuesday",
                "tube strike doored",
                "my bike chain keeps slipping, need to fix it",
                "bike ride tomorrow if it's dry",
            ),
            C(
                "place",
                "grew up in the Windy City, my dad still sends me deep dish photos to make me jealous",
                "deep dish jealous",
                "Chicago's getting a huge snowstorm, saw it on the news",
                "might visit Chicago for my cousin's thing",
            ),
            C(
                "date",
                "the last day of the month is my final therapy session, kinda scared to do it without her",
                "therapy final scared",
                "end of february is when my lease renews, ugh",
                "end of february feels weird this year",
            ),
        ),
    ),
    User(
        "assoc11-en-2",
        "test",
        "en",
        "Sam",
        "Ivy",
        (
            C(
                "person",
                "my dad's having a hip replacement in march, he's pretending he isn't scared",
                "hip replacement pretending",
                "Pops finally learned how to use emojis lmao",
                "Pops called, he's being weird on the phone",
            ),
            C(
                "activity",
                "joined a swim club, i can do four lengths before i have to cling to the side like a wet towel",
                "lengths cling",
                "pool was closed for cleaning, annoying",
                "pool session in the morning",
            ),
            C(
                "place",
                "spent a year teaching english in Kyoto, my host family's grandma taught me to fold paper cranes",
                "host cranes kyoto",
                "Japan has the best convenience stores, saw a video",
                "thinking of a trip to Japan next spring",
            ),
            C(
                "date",
                "the 1st of march is ten years since my brother's accident, mum gets really low around then",
                "accident ten",
                "march 1st is when the new bus timetable starts",
                "march 1st is coming up",
            ),
            C(
                "person",
                "my flatmate Elizabeth got a tattoo of her childhood dog on her ankle, it's actually beautiful",
                "tattoo ankle childhood",
                "Lizzie ate my leftover curry again",
                "Lizzie's in a mood today",
            ),
            C(
                "activity",
                "doing a ceramics evening class, the wheel keeps flinging my clay across the room",
                "wheel flinging clay",
                "pottery studio's raising its prices",
                "pottery tonight!",
            ),
            C(
                "place",
                "my sister's living on the Emerald Isle now, she works on a sheep farm and sends me lamb videos",
                "sheep farm lamb",
                "Ireland beat someone at rugby, my whole office was screaming",
                "booking flights to Ireland for easter",
            ),
            C(
                "date",
                "third saturday of next month i'm running my first half marathon, never been this nervous",
                "half marathon nervous",
                "race day road closures announced for the city centre",
                "race day is getting close",
            ),
        ),
    ),
]


def main() -> int:
    return write(
        OUT,
        (
            "Associative dev set 11 (branch assoc11, issue 28): six users (four Chinese, two English), "
            "six weeks of daily small talk, eight cases each: a person, an activity, a place or a date "
            "mentioned the way one says it on the day (姥姥, 中秋, 上海, Nana), named weeks before in B "
            "another way (外婆, 八月十五, 魔都, grandmother) so mention and B share few or no characters; "
            "a look-alike repeating the mention's words said 1-5 weeks after B. Written by hand for this "
            "set (layout: perf/scenarios/associative_dev11_make.py). Train zh-1, zh-2, en-1; test zh-3, "
            "zh-4, en-2."
        ),
        USERS,
        11,
    )


if __name__ == "__main__":
    sys.exit(main())
