# ruff: noqa: E501  (hand-written lines of the set, kept whole)
"""Writes associative_dev14.json: eight users' six weeks of small talk (32 sessions) with eight cases each.

``python perf/scenarios/associative_dev14_make.py`` rewrites the file (seeded). Why a set of its own:
held-out set 5 has xaid at 57.5 % in Chinese where a plain hybrid RRF has 65.0 (English level at 58.1).
The kinds hybrid wins in Chinese are weighted here: the mention names a place or a person by another
word than B did (鹏城 → 深圳, 太后 → 我妈, 对象 → 男朋友, the big apple → new york, the missus → my wife),
or B is linked to the mention through a place or a person inside it (断桥 → 杭州, 兵马俑 → 西安, the
colosseum → Rome); a few share one character or a name (阿珍 → 珍珍, Robbie → Rob). The cases, mentions
and look-alikes were written by hand for this set (branch assoc14, before any xaid/ change of it); the
small talk is associative_dev13's pools, the calendar associative_make.pooled_sample.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from perf.scenarios.associative_dev13_make import save_pooled
from perf.scenarios.associative_make import Case as C
from perf.scenarios.associative_make import User

OUT = Path(__file__).with_name("associative_dev14.json")

USERS = [
    User(
        "assoc14-zh-1",
        "train",
        "zh",
        "小满",
        "阿树",
        (
            C(
                "place",
                "下个月要去鹏城出差一周，公司订的酒店在海边，说是能看日出",
                "酒店 日出",
                "深圳今天又下暴雨了，朋友圈全是水",
                "深圳那边热不热啊，纠结带啥衣服",
            ),
            C(
                "person",
                "我家太后最近迷上广场舞了，天天晚上七点准时下楼，比上班还积极",
                "广场舞 积极",
                "我妈又给我寄了一箱腊肠",
                "刚跟我妈打完电话",
            ),
            C(
                "place",
                "去年在断桥那儿摔了一跤，手机直接掉湖里，现在想起来都肉疼",
                "断桥 肉疼",
                "同事去杭州出差，带了盒龙井回来",
                "五一可能去杭州玩两天",
            ),
            C(
                "person",
                "发小阿珍开了家奶茶店，生意贼好，排队排到马路对面",
                "生意 马路",
                "珍珍朋友圈又在晒她家猫",
                "珍珍今天突然跑来我公司楼下",
            ),
            C(
                "activity",
                "最近迷上撸铁，练了一个月，卧推终于推起来四十公斤",
                "卧推 公斤",
                "健身房年卡又要续费了，好贵",
                "晚上去健身房练一会儿",
            ),
            C(
                "date",
                "大年三十得在医院值班，今年又吃不上年夜饭了",
                "值班 年夜饭",
                "除夕那天超市开不开门啊",
                "除夕快到了，心里有点空",
            ),
            C(
                "person",
                "对象下周去新加坡培训三个月，又要异地了",
                "新加坡 培训 异地",
                "男朋友又把我耳机借走了",
                "男朋友今天有点怪，话特别少",
            ),
            C(
                "place",
                "小时候在蓉城住过三年，最想楼下那家兔头，麻到嘴唇没知觉",
                "兔头 嘴唇",
                "成都今天上热搜了，说是大熊猫",
                "同事说下周要去成都玩",
            ),
        ),
    ),
    User(
        "assoc14-zh-2",
        "train",
        "zh",
        "阿哲",
        "小桃",
        (
            C(
                "place",
                "我姑姑在羊城开早茶店，虾饺都是她亲手包的，每次去都吃撑",
                "姑姑 虾饺 吃撑",
                "广州塔晚上亮灯挺好看，刷到视频了",
                "这周末要去广州办点事",
            ),
            C(
                "person",
                "我家老头子退休以后天天去河边钓鱼，一条没钓着还乐呵呵的",
                "钓鱼 乐呵呵",
                "我爸又在家族群里发养生文章",
                "我爸今天打电话来，聊了好久",
            ),
            C(
                "place",
                "毕业旅行去的鼓浪屿，跟室友在海边喝醉了，现在想想好傻",
                "毕业旅行 喝醉 室友",
                "厦门这几天好像回南天",
                "下个月出差要去厦门",
            ),
            C(
                "person",
                "嫂子怀二胎了，我哥高兴得在群里连发了十个红包",
                "二胎 高兴",
                "我哥换了辆新车，天天显摆",
                "周末去我哥家吃饭",
            ),
            C(
                "activity",
                "最近在练毛笔字，写了一个月还是像狗爬，老师说我手腕太僵",
                "手腕 狗爬",
                "书法展的票好难抢",
                "今晚还要去上书法课",
            ),
            C(
                "date",
                "五月初五是我儿子生日，想给他办个小派对，请班上同学来",
                "儿子 派对 同学",
                "端午节公司发了一箱粽子",
                "端午快到了，得提前准备",
            ),
            C(
                "person",
                "媳妇在备考注册会计师，每天学到一点，我都不敢吵她",
                "会计师 备考",
                "老婆又买了一堆护肤品",
                "老婆今天心情好像不太好",
            ),
            C(
                "place",
                "大学在春城读的，四季都不冷，冬天还能穿短袖，回北方以后冻傻了",
                "短袖 冻傻",
                "网上买的昆明鲜花饼，有点干",
                "同学约我去昆明玩",
            ),
        ),
    ),
    User(
        "assoc14-zh-3",
        "test",
        "zh",
        "阿琳",
        "糖糖",
        (
            C(
                "place",
                "我外公家在泉城，小时候每年夏天都去趵突泉边上玩水",
                "外公 趵突泉 玩水",
                "济南今天上热搜了，说下冰雹",
                "下周要去济南看我舅舅",
            ),
            C(
                "person",
                "老公他妈下个月要来住半年，说是帮忙带孩子，我已经开始焦虑了",
                "半年 带孩子 焦虑",
                "婆婆又在朋友圈转养生谣言",
                "婆婆今天又打电话来了",
            ),
            C(
                "place",
                "上回去故宫排了三个小时队，结果只看了个午门就闭馆了",
                "午门 闭馆",
                "北京今天空气好差，灰蒙蒙的",
                "国庆可能去北京",
            ),
            C(
                "person",
                "死党小凡要去澳洲打工度假一年，走之前非拉我去纹身",
                "澳洲 纹身 打工",
                "闺蜜给我寄了一盒巧克力",
                "闺蜜约我周末逛街",
            ),
            C(
                "activity",
                "最近跟着视频跳操，跳了一周，小腿酸得下楼都要扶着",
                "小腿 扶着",
                "楼下新开了家健身房，在发传单",
                "今天又去健身了，累瘫",
            ),
            C(
                "date",
                "12月24号是我跟他在一起五周年，他说要给我个惊喜，我猜是求婚",
                "五周年 惊喜 求婚",
                "平安夜商场人好多，苹果卖二十一个",
                "平安夜快到了，有点小期待",
            ),
            C(
                "person",
                "我们领导下个月调去总部，新来的听说特别严，组里人心惶惶",
                "总部 人心惶惶",
                "老板今天请全组喝奶茶",
                "老板今天找我谈话了",
            ),
            C(
                "place",
                "在姑苏住过两年，最爱平江路那家生煎，皮薄汁多",
                "平江路 生煎",
                "苏州园林门票又涨了",
                "周末想去苏州转转",
            ),
        ),
    ),
    User(
        "assoc14-zh-4",
        "test",
        "zh",
        "老韩",
        "木木",
        (
            C(
                "place",
                "表弟在星城读研，天天熬夜做实验，瘦了十几斤",
                "表弟 读研 实验",
                "长沙的臭豆腐点外卖到这边都凉了",
                "下个月去长沙出差",
            ),
            C(
                "person",
                "姥爷前阵子中风了，说话有点不利索，还惦记着他那几只鸽子",
                "中风 鸽子",
                "外公又让我帮他充话费",
                "今天去医院看外公了",
            ),
            C(
                "place",
                "之前带爸妈去看兵马俑，我爸在坑边站了半小时不肯走，说太震撼了",
                "兵马俑 震撼",
                "同事带了几个西安的肉夹馍回来，绝了",
                "国庆想带娃去西安",
            ),
            C(
                "person",
                "我家闺女这学期当上班长了，回家天天管我，比老师还凶",
                "班长 管我",
                "女儿又把彩笔画到墙上了",
                "女儿今天放学回来哭了",
            ),
            C(
                "activity",
                "入坑公路车了，周末骑了六十公里去水库，屁股疼了三天",
                "水库 六十公里 屁股",
                "自行车链条又掉了，修了半天",
                "明天早上出去骑车",
            ),
            C(
                "date",
                "腊月二十三是我们结婚十周年，想带老婆去泡温泉",
                "结婚 温泉",
                "小年公司放半天假",
                "小年快到了",
            ),
            C(
                "person",
                "胖子要去新疆支教两年，走之前我们几个喝到半夜",
                "支教 半夜",
                "大胖又在群里发他家狗的视频",
                "大胖今天突然打电话给我",
            ),
            C(
                "place",
                "以前在江城念的书，热干面吃了四年，毕业后最想的就是那一口",
                "热干面 毕业",
                "武汉最近好像在修地铁",
                "同事下周调去武汉了",
            ),
        ),
    ),
    User(
        "assoc14-en-1",
        "train",
        "en",
        "Maddie",
        "Jess",
        (
            C(
                "place",
                "booked flights to the big apple for my birthday!! gonna see a broadway show and eat a bagel the size of my head",
                "broadway bagel birthday",
                "there's a new york pizza place opening near work",
                "looking at hotels in new york, so pricey",
            ),
            C(
                "person",
                "my old man's finally selling his boat, says his back can't take the sailing anymore",
                "boat sailing",
                "dad sent me a blurry photo of a sunset again",
                "phoned my dad tonight",
            ),
            C(
                "place",
                "got lost at the colosseum on a school trip, i was 14 and separated from everyone for two hours, terrified",
                "colosseum separated terrified",
                "Rome was on a cooking show last night",
                "my boss is off to Rome next month",
            ),
            C(
                "person",
                "my gran is moving into a care home next month, she keeps giving her teapots away to anyone who visits",
                "care teapots",
                "grandma rang to ask how to open a pdf lol",
                "grandma's on my mind today",
            ),
            C(
                "activity",
                "started spin classes, the instructor yells like a drill sergeant and my thighs are jelly",
                "instructor drill jelly",
                "the cycling lane by my house is finally open",
                "going cycling after work",
            ),
            C(
                "date",
                "the 14th of february is my sister's due date, she's convinced the baby will be late",
                "due baby",
                "valentine's menus are already up everywhere",
                "valentine's day is next week huh",
            ),
            C(
                "person",
                "my other half got offered a job in Dublin, we're trying to work out if we move or go long distance",
                "dublin distance",
                "my partner bought a sourdough kit, the kitchen is all flour",
                "partner's acting a bit off tonight",
            ),
            C(
                "place",
                "grew up in Brum, still miss the balti place on the corner, best curry of my life",
                "balti curry",
                "Birmingham's trains are a mess today",
                "might pop up to Birmingham next week",
            ),
        ),
    ),
    User(
        "assoc14-en-2",
        "train",
        "en",
        "Ethan",
        "Zoe",
        (
            C(
                "place",
                "my uncle lives in the Big Easy, every visit he drags me to a jazz bar that's basically a shed",
                "jazz shed uncle",
                "saw a documentary about New Orleans and the hurricane",
                "work might send me to New Orleans",
            ),
            C(
                "person",
                "my mother's started online dating at 62, she sends me screenshots for approval",
                "dating screenshots approval",
                "mum made way too much lasagna again",
                "mum came round today",
            ),
            C(
                "place",
                "proposed to my fiancée at the top of Arthur's Seat, she said yes before i'd even finished",
                "proposed fiancée",
                "an Edinburgh comedian was on the radio this morning",
                "thinking of a weekend in Edinburgh",
            ),
            C(
                "person",
                "my best mate Robbie just opened a tattoo studio and he wants to practise on me first",
                "tattoo studio practise",
                "Rob sent me a terrible meme at midnight",
                "grabbing a pint with Rob tonight",
            ),
            C(
                "activity",
                "signed up for a sunday league side, i'm the oldest by ten years and it shows",
                "league oldest",
                "the footy was on at the pub, so loud",
                "footy in the morning, knees permitting",
            ),
            C(
                "date",
                "march 1st is one year since my mum's surgery, she's been clear ever since",
                "surgery clear",
                "st david's day parade is on at the castle apparently",
                "st david's day already next week",
            ),
            C(
                "person",
                "my stepdad got made redundant after twenty years at the factory, he's pretending he's fine",
                "redundant factory pretending",
                "my stepfather's got a new hobby, birdwatching",
                "had a long chat with my stepfather",
            ),
            C(
                "place",
                "spent a summer in the Windy City as a student, worked a hot dog stand by the lake",
                "summer hot dog",
                "Chicago's in the news for the snow",
                "a friend just moved to Chicago",
            ),
        ),
    ),
    User(
        "assoc14-en-3",
        "test",
        "en",
        "Priya",
        "Ali",
        (
            C(
                "place",
                "my cousin's getting married Down Under in april, flights are like two grand, i'm crying",
                "cousin married grand",
                "Australia's on the news again, bushfires",
                "been looking at flights to Australia",
            ),
            C(
                "person",
                "my nan is teaching herself the ukulele at 81, she's already better than me",
                "ukulele 81",
                "my grandmother sent me a card with a tenner in it",
                "visiting my grandmother on sunday",
            ),
            C(
                "place",
                "when i was little we lived near the Eiffel tower for a year, i still have a tiny keyring of it",
                "eiffel keyring",
                "there's a Paris themed cafe in town now",
                "going to Paris for work next week",
            ),
            C(
                "person",
                "my boss is leaving for a job at a charity and i'm gutted, she's the reason i stayed",
                "charity gutted",
                "my manager wore a christmas jumper in february lol",
                "had a 1:1 with my manager today",
            ),
            C(
                "activity",
                "joined a pickup hoops game at the park, a 15 year old dunked on me and i've never recovered",
                "pickup dunked",
                "basketball on tv kept me up late",
                "playing basketball tonight",
            ),
            C(
                "date",
                "shrove tuesday is my flatmate's leaving do, she's off to teach english in japan",
                "japan teach",
                "pancake day offers at the supermarket already",
                "pancake day next week!",
            ),
            C(
                "person",
                "hubby is training for an ironman, he eats six meals a day and smells like chlorine",
                "ironman chlorine meals",
                "my husband tried to fix the dishwasher, it's flooded now",
                "husband's away this week, house is too quiet",
            ),
            C(
                "place",
                "moving back to the big smoke in spring, found a flat above a bakery in Hackney",
                "bakery hackney",
                "London rents are in the news again",
                "heading down to London on friday",
            ),
        ),
    ),
    User(
        "assoc14-en-4",
        "test",
        "en",
        "Tom",
        "Nia",
        (
            C(
                "place",
                "my brother's stag do is in Sin City, i've been told to bring 'cash and no questions'",
                "stag cash",
                "Las Vegas was in some heist movie i watched",
                "my mate is off to Las Vegas tomorrow",
            ),
            C(
                "person",
                "grandpa had a fall last month, he's on a cane now and hates it",
                "cane fall",
                "grandad sent me a voice note that was 4 minutes of silence",
                "grandad's birthday on saturday",
            ),
            C(
                "place",
                "did the Great Wall hike with my uni friends, the steps nearly killed me, worth it for the view",
                "hike steps view",
                "a Beijing duck place opened in town",
                "my sister's moving to Beijing for work",
            ),
            C(
                "person",
                "my partner's little brother Jacob got into Oxford, first in the family to go to uni",
                "oxford jacob",
                "Jake ate all our cereal again",
                "Jake's crashing on our sofa this week",
            ),
            C(
                "activity",
                "picked up the bass again after ten years, my fingertips are wrecked",
                "fingertips wrecked",
                "a band played at the pub last night, so loud",
                "band practice tonight",
            ),
            C(
                "date",
                "january 25th is my dad's retirement party, i'm on slideshow duty",
                "retirement slideshow",
                "the pub's doing a burns night supper with haggis",
                "burns night is almost here",
            ),
            C(
                "person",
                "the missus has started a pottery business out of the shed, already sold twenty mugs",
                "pottery mugs business",
                "my wife bought another plant, we live in a jungle now",
                "my wife's birthday is coming up",
            ),
            C(
                "place",
                "my family's from the Emerald Isle, my aunt still runs a pub in Galway",
                "aunt galway",
                "Ireland won at the rugby, the office went wild",
                "thinking of a trip to Ireland",
            ),
        ),
    ),
]


def main() -> int:
    return save_pooled(
        OUT,
        (
            "Associative dev set 14 (branch assoc14, issue 28): eight users (four per language), 32 "
            "sessions over six weeks of small talk from associative_dev13's pools, eight cases each, most "
            "naming a place or a person by another word than B did (鹏城 → 深圳, 太后 → 我妈, the big "
            "apple → new york) or linked to B through a place or person in it (断桥 → 杭州, the "
            "colosseum → Rome); a look-alike repeating the mention's words 12-16 days after B, the "
            "mention an hour after the last session. Written by hand for this set (layout: "
            "perf/scenarios/associative_dev14_make.py). Train zh-1, zh-2, en-1, en-2; test zh-3, zh-4, "
            "en-3, en-4."
        ),
        USERS,
        14,
    )


if __name__ == "__main__":
    sys.exit(main())
