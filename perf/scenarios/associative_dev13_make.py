# ruff: noqa: E501  (hand-written lines of the set, kept whole)
"""Writes associative_dev13.json: eight users' six weeks of small talk (32 sessions) with eight cases each.

``python perf/scenarios/associative_dev13_make.py`` rewrites the file (seeded). Why a set of its own:
held-out set 5 had xaid ten points under a plain hybrid RRF in Chinese (55.0 vs 65.0 %, dense alone
57.5) and even in English, on six weeks of daily small talk drawn from one large pool of everyday lines
per language, 32 sessions per user, B said in the first four weeks and a look-alike of the mention about
two weeks after it. This set has that shape, with its own lines: the cases, the mentions, the look-alikes
and half of the small talk were written by hand for it (branch assoc13, before any xaid/ change of it);
the other half of the small talk is associative_dev10's pool. In about half of the cases the mention
names the thing as B did (表姐, Finn), in the rest another way (潮汕 → 汕头, 冰城 → 哈尔滨, ukulele → uke,
Naples → Italy). The answer-word check is associative_dev10_make's.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from perf.scenarios.associative_dev10_make import EN_REPLY, EN_TALK, ZH_REPLY, ZH_TALK
from perf.scenarios.associative_make import Case as C
from perf.scenarios.associative_make import User, pooled_sample, save

OUT = Path(__file__).with_name("associative_dev13.json")

EN_MORE = [
    "my landlord finally fixed the boiler, only took three weeks",
    "ate cereal standing over the sink. peak living",
    "group chat has been arguing about a sandwich for an hour",
    "fell asleep on the sofa at 8:30 like a pensioner",
    "the self checkout kept saying unexpected item. there was no item",
    "did my taxes. well, opened the website",
    "overslept, missed the good train, got the sad train",
    "found a tenner in an old coat!!",
    "spent the evening reorganising my spice rack, don't judge",
    "my knee clicks every time i stand up now, is this 30",
    "made a proper breakfast for once, eggs and everything",
    "printer at work jammed and somehow it was my fault",
    "there's a pigeon that sits on my balcony every morning, i've named him Kevin",
    "tried a new coffee place, overpriced but cute",
    "my sister sent me 40 tiktoks, i've watched 3",
    "long day. just want to lie on the floor",
    "the lift in my building is broken again, 6 floors",
    "watered my plants and one of them is definitely dying",
    "kind of a nothing day honestly",
    "burnt the rice somehow. how do you burn rice",
    "the neighbours are having a party on a tuesday??",
    "finished a book for the first time in months, feel smart",
    "someone parked across my driveway AGAIN",
    "hair is doing something weird today, beanie it is",
    "had a nice chat with the lady at the corner shop",
    "it's freezing, wearing two jumpers indoors",
    "my laptop decided to update in the middle of a call",
    "went to bed early for once and still woke up tired",
    "i've had the same song stuck in my head since monday",
    "fridge is empty except for mustard and hope",
    "took the long way home just to listen to the rest of an album",
    "work drinks tonight, not sure i have the social battery",
    "cleaned the bathroom, feel like a new person",
    "train was so packed i had someone's elbow in my ear",
    "tried to fix a drawer, now it's worse",
    "the weather app lied to me, no umbrella, soaked",
    "had a really good sandwich at lunch, that's the update",
    "my mum called to ask how to send a photo. again",
    "my eyes are so dry from staring at screens all day",
    "nothing much, just tv and tea",
    "accidentally replied all to a work email, want to die",
    "bought flowers for myself, why not",
    "meal prepped for the week. it's all beige",
    "stayed in my pyjamas till 3pm, no regrets",
    "my wifi password is so long i gave up typing it on the tv",
]
ZH_MORE = [
    "外卖小哥送错了，我吃了别人的麻辣烫",
    "今天啥也没干，躺了一天",
    "楼上又在拖椅子，咯吱咯吱的",
    "早上挤地铁差点被挤扁",
    "泡面加了个蛋，满足",
    "加班到九点，饿过头了反而不饿了",
    "下楼取个快递，冻成狗",
    "新买的拖鞋有点磨脚",
    "打开冰箱发现只剩半瓶老干妈",
    "群里在吵周末吃啥，吵了一下午没结果",
    "今天天气还行，就是风大",
    "把房间收拾了一下，感觉自己又行了",
    "又买了一堆用不上的东西，手贱",
    "刷到一个猫的视频笑了好久",
    "早上闹钟没响，迟到了十分钟",
    "奶茶点了三分糖还是好甜",
    "电脑突然蓝屏，文档没保存，心态崩了",
    "今天地铁上有人外放，忍了一路",
    "晚饭凑合吃了点，懒得做",
    "洗了个热水澡，活过来了",
    "今天被夸了一句，开心到现在",
    "眼睛好干，盯屏幕盯一天了",
    "楼下新开了家包子铺，还挺好吃",
    "又失眠了，数羊数到三百只",
    "衣柜塞不下了，该断舍离了",
    "电梯坏了，爬了八楼，腿废了",
    "试了个新菜谱，翻车了",
    "今天没啥事，平平淡淡",
    "有人在群里发红包，抢到两毛",
    "快递又被放错柜子了",
    "外面下小雨，懒得出门",
    "中午睡过头了，下午整个人是懵的",
    "充电器又找不到了",
    "今天走了一万步，感觉自己好健康",
    "隔壁装修，电钻从早响到晚",
    "冬天被窝太难离开了",
    "头发又该剪了，乱成鸡窝",
    "买的水果放烂了，心疼",
    "下班路上看到一只橘猫，胖得像个球",
    "今天的会开了三个小时，屁用没有",
    "追的剧更新了，熬夜也要看",
    "又到月底了，钱包空空",
    "洗衣机洗完忘了晾，又得重洗",
    "发呆了一下午，什么也没想",
    "今天喝了三杯咖啡，心跳好快",
]
EN_FILLER = EN_TALK + EN_MORE
ZH_FILLER = ZH_TALK + ZH_MORE
EN_REPLIES = [*EN_REPLY, "mm, i hear you", "ha, nice", "ah okay", "that's fair"]
ZH_REPLIES = [*ZH_REPLY, "嗯嗯", "哈哈好", "这样啊", "可以可以"]

USERS = [
    User(
        "assoc13-zh-1",
        "train",
        "zh",
        "小鹿",
        "阿布",
        (
            C(
                "person",
                "我表姐离婚了，孩子归她，现在一个人带俩娃还得还房贷，想想都累",
                "离婚 房贷",
                "表姐又在朋友圈晒她烤的蛋糕，还挺像样",
                "表姐今天突然给我打电话",
            ),
            C(
                "activity",
                "报了个游泳班，教练说我蹬腿像青蛙抽筋，呛了好几口水",
                "青蛙 抽筋",
                "泳池今天换水，闭馆一天",
                "今晚又要去泳池了",
            ),
            C(
                "place",
                "老家潮汕的，我阿嬷做的牛肉丸全世界第一，每次回去都胖五斤",
                "牛肉丸 阿嬷",
                "汕头今天上新闻了，说台风要来",
                "过年要不要回汕头呢，纠结",
            ),
            C(
                "date",
                "3月18号答辩，导师说我数据还差一组，慌死",
                "答辩 导师 数据",
                "3月18号好像要降温，看了天气预报",
                "3月18号越来越近了",
            ),
            C(
                "person",
                "室友小敏要去支教一年，去云南山区，下个月就走了",
                "支教 云南 山区",
                "小敏把我的酸奶喝了，气",
                "小敏今天怪怪的，一直叹气",
            ),
            C(
                "activity",
                "最近在学咖啡拉花，拉了一礼拜全是一坨，像个土豆",
                "拉花 土豆",
                "咖啡豆又涨价了，喝不起了",
                "早上又在家折腾咖啡",
            ),
            C(
                "place",
                "公司楼下新开了个书店，老板是退休的物理老师，养了只猫叫牛顿",
                "物理 牛顿",
                "楼下书店门口在挖路，绕了一大圈",
                "下班去楼下书店坐坐",
            ),
            C(
                "date",
                "4月27号部门年会，我被抓去当主持，稿子一个字没写",
                "主持 稿子",
                "4月27号那周好像要调休",
                "4月27号一天天逼近，救命",
            ),
        ),
    ),
    User(
        "assoc13-zh-2",
        "train",
        "zh",
        "大刘",
        "小七",
        (
            C(
                "person",
                "我爸退休了闲不住，跑去小区当保安，说一个月还能挣两千",
                "保安 两千",
                "老爸学会刷短视频了，天天转发养生的",
                "老爸今天打电话来，聊了半小时",
            ),
            C(
                "activity",
                "开始玩飞盘了，周末在草坪上跑了一下午，晒黑了一个色号",
                "草坪 色号",
                "飞盘群里又在约局了",
                "明天约了飞盘",
            ),
            C(
                "place",
                "在冰城读了四年书，零下三十度，有次手贱舔了铁栏杆，舌头粘住了",
                "舌头 栏杆",
                "哈尔滨冰雪大世界又火了，刷到好多",
                "冬天想去趟哈尔滨",
            ),
            C(
                "date",
                "3月15号是我跟老婆领证三周年，想带她回第一次约会那家烧烤摊",
                "领证 烧烤摊",
                "3月15号又是打假的日子，等着看曝光",
                "3月15号快到了，有啥好主意没",
            ),
            C(
                "person",
                "组里新来的实习生阿凯，清华毕业的，结果连复印机都不会用",
                "清华 复印机",
                "阿凯今天请大家喝奶茶",
                "阿凯今天被老板骂了",
            ),
            C(
                "activity",
                "学车俩月了，科目二倒车入库挂了两次，教练说我是他带过最笨的",
                "倒车 入库 最笨",
                "驾校门口那家煎饼果子真好吃",
                "明天又要去练车",
            ),
            C(
                "place",
                "我姑在大理开了个民宿，院子里种满了三角梅，叫我过去住不要钱",
                "民宿 三角梅",
                "大理又上热搜了，说洱海边堵车",
                "五一想去大理躺平",
            ),
            C(
                "date",
                "3月22号我弟结婚，我当伴郎，还得替他挡酒",
                "伴郎 挡酒",
                "3月22号好像是个周日",
                "3月22号眼看就到了",
            ),
        ),
    ),
    User(
        "assoc13-zh-3",
        "test",
        "zh",
        "佳佳",
        "阿北",
        (
            C(
                "person",
                "闺蜜圆圆查出甲状腺结节，要做穿刺，她吓得哭了一晚上",
                "甲状腺 结节 穿刺",
                "圆圆又买了一堆盲盒，拆到隐藏款了",
                "圆圆今天约我吃饭",
            ),
            C(
                "activity",
                "报了个街舞班，一群初中生里就我一个社畜，跳得跟广播体操似的",
                "初中生 社畜",
                "舞蹈室空调坏了，热死",
                "今晚跳舞去",
            ),
            C(
                "place",
                "以前在杭州实习过半年，住西湖边一个老小区，每天骑车穿过苏堤上班",
                "苏堤 实习",
                "杭州的龙井今年好贵",
                "周末去杭州玩两天",
            ),
            C(
                "date",
                "4月12号雅思，口语还是一塌糊涂",
                "雅思 口语",
                "4月12号好像是个周日",
                "4月12号怎么这么快就要到了",
            ),
            C(
                "person",
                "我弟高三，最近天天跟我爸吵，说不想考大学要去打电竞",
                "高三 电竞",
                "我弟又长高了，快一米九了",
                "我弟今天给我发了条超长的微信",
            ),
            C(
                "activity",
                "开始学滑板，第一天就摔了个屁股墩，尾椎骨疼了一礼拜",
                "尾椎 屁股墩",
                "滑板店老板是个光头，超酷",
                "下班去广场玩滑板",
            ),
            C(
                "place",
                "奶奶家那边有条小河，小时候天天在河里摸螺蛳，一下午能炒一大盘",
                "螺蛳 一大盘",
                "奶奶家那边修了条新高速",
                "好想回奶奶家那边住几天",
            ),
            C(
                "date",
                "3月10号是我家仓鼠两岁生日，仓鼠也就活两三年，想想就难过",
                "仓鼠 两岁",
                "3月10号要交季度报告",
                "3月10号马上就到了",
            ),
        ),
    ),
    User(
        "assoc13-zh-4",
        "test",
        "zh",
        "老周",
        "小舟",
        (
            C(
                "person",
                "闺女在加拿大读研，上礼拜视频说找了个洋女婿，我跟她妈一宿没睡",
                "读研 洋女婿",
                "闺女寄了两瓶枫糖浆回来，甜得齁",
                "闺女今天给我打了视频",
            ),
            C(
                "activity",
                "跟老战友学摄影，买了个二手单反，拍了一百张全是虚的",
                "战友 单反",
                "公园里拍照的人比赏花的还多",
                "明天一早去公园拍照",
            ),
            C(
                "place",
                "年轻时候在乌鲁木齐当兵，馕泡羊肉汤，一顿能吃三个",
                "当兵 羊肉汤",
                "新疆的哈密瓜今年特别甜",
                "电视上在放新疆的节目",
            ),
            C(
                "date",
                "3月28号是我跟老伴结婚三十周年，珍珠婚，想给她打个金镯子",
                "珍珠 金镯子",
                "3月28号社区组织体检",
                "3月28号快到了，得抓紧",
            ),
            C(
                "person",
                "老同学老吴肝癌晚期了，上礼拜去医院看他，瘦得认不出来",
                "肝癌 认不出",
                "老吴他儿子结婚，请我喝喜酒",
                "又梦见老吴了",
            ),
            C(
                "activity",
                "在小区跟人学围棋，被一个小学生杀得片甲不留，丢人",
                "围棋 小学生 片甲",
                "棋牌室涨价了，一小时二十",
                "下午去下两盘棋",
            ),
            C(
                "place",
                "以前厂子在铁西，九几年下岗那阵，我在厂门口摆了三年修车摊",
                "下岗 修车摊",
                "沈阳今天下大雪，孙子发视频给我看",
                "想回沈阳看看老厂子",
            ),
            C(
                "date",
                "清明前后要给我爹迁坟，老家那块地要修路",
                "迁坟 修路",
                "清明小长假高速好像免费",
                "清明快到了",
            ),
        ),
    ),
    User(
        "assoc13-en-1",
        "train",
        "en",
        "Kayla",
        "Rowan",
        (
            C(
                "person",
                "my aunt Lorraine just told the whole family she's selling her house and moving onto a narrowboat lol",
                "narrowboat selling",
                "aunt Lorraine liked every single photo on my instagram at 1am",
                "aunt Lorraine rang me this morning",
            ),
            C(
                "activity",
                "started roller derby!! got knocked flat in my first jam, tailbone is purple",
                "derby tailbone purple",
                "my skates need new wheels already",
                "skating practice tonight",
            ),
            C(
                "place",
                "my best mate from school lives in Lisbon now, she teaches surfing and has a dog called Pastel",
                "surfing pastel",
                "Lisbon's all over my feed, everyone's going this year",
                "cheap flights to Lisbon in march, tempted",
            ),
            C(
                "date",
                "april 4th is my graduation, mum's already bought a hat for it which is terrifying",
                "graduation hat",
                "april 4th my phone contract ends i think",
                "april 4th feels really close now",
            ),
            C(
                "person",
                "my manager Priti is going part time to look after her dad, he's got early dementia",
                "dementia",
                "Priti brought in her homemade samosas, elite",
                "Priti was off today",
            ),
            C(
                "activity",
                "learning the ukulele from a book i found in a charity shop, my fingertips are raw",
                "charity fingertips raw",
                "uke string snapped mid song lol",
                "gonna practise the uke tonight",
            ),
            C(
                "place",
                "went back to my nan's old street in Hull, the chippy we went to every friday is a nail salon now",
                "chippy salon",
                "Hull was on some documentary last night",
                "driving up to Hull on sunday",
            ),
            C(
                "date",
                "the 21st is a year since i quit smoking, not a single one, not even drunk",
                "smoking quit drunk",
                "council tax comes out on the 21st, ugh",
                "the 21st is coming up",
            ),
        ),
    ),
    User(
        "assoc13-en-2",
        "train",
        "en",
        "Callum",
        "Bea",
        (
            C(
                "person",
                "my brother Finn got a job on an oil rig off Aberdeen, three weeks on three weeks off",
                "rig aberdeen",
                "Finn sent me a video of his cat falling off the sofa",
                "Finn's coming round for dinner",
            ),
            C(
                "activity",
                "joined a rowing club at the reservoir, first session i capsized and the coach just laughed",
                "capsized reservoir coach",
                "rowing club's doing a bake sale of all things",
                "early row tomorrow, 6am ugh",
            ),
            C(
                "place",
                "spent my gap year in Vancouver working at a ski lodge, saw a bear go through our rubbish",
                "lodge bear vancouver",
                "Canada's in the news for wildfires again",
                "thinking about going back to Canada someday",
            ),
            C(
                "date",
                "march 12th is my nephew's christening and i'm the godfather, apparently there are vows",
                "christening godfather vows",
                "march 12th the gym's shut for a refurb",
                "march 12th is sneaking up on me",
            ),
            C(
                "person",
                "our neighbour Mr Patel is ninety and still drives to his allotment every day in a tiny red car",
                "ninety allotment",
                "Mr Patel left a bag of chillies on our doorstep",
                "chatted to Mr Patel over the fence",
            ),
            C(
                "activity",
                "doing couch to 5k, week three nearly killed me, had to lie down in a bus shelter",
                "shelter",
                "new running app keeps shouting at me",
                "went for a jog before work",
            ),
            C(
                "place",
                "my grandad's from Cork, he always said he kissed the Blarney stone and that's why he never shuts up",
                "blarney kissed",
                "Cork's doing some food festival, saw an ad",
                "might finally visit Cork in the summer",
            ),
            C(
                "date",
                "end of march is my last day here, handed my notice in, going to a startup",
                "notice startup",
                "end of march the clocks go forward, lose an hour of sleep",
                "end of march can't come fast enough",
            ),
        ),
    ),
    User(
        "assoc13-en-3",
        "test",
        "en",
        "Holly",
        "Sage",
        (
            C(
                "person",
                "my flatmate Georgia is training to be a midwife, delivered her first baby on a night shift and cried in the car park",
                "midwife cried",
                "Georgia left her washing in the machine again",
                "Georgia just got home looking wrecked",
            ),
            C(
                "activity",
                "signed up for a life drawing class and the model turned out to be my old maths teacher",
                "maths",
                "bought a new sketchbook, the fancy kind",
                "drawing class tonight",
            ),
            C(
                "place",
                "my dad grew up in Naples, he says real pizza there costs four euros and everyone shouts",
                "naples euros shouts",
                "Italy's got some heatwave going on apparently",
                "looking at trips to Italy for my birthday",
            ),
            C(
                "date",
                "may 2nd is my driving test, second attempt, failed the first one on a roundabout",
                "roundabout attempt",
                "may 2nd is a bank holiday weekend isn't it",
                "may 2nd is getting scary close",
            ),
            C(
                "person",
                "my godson Ollie got diagnosed with type 1 diabetes, his mum's learning to do the injections",
                "diabetes injections",
                "Ollie drew me a picture of a shark with a hat",
                "Ollie's birthday party is on saturday",
            ),
            C(
                "activity",
                "i've started bell ringing at the church, you have to count like mad or the rope yanks you up",
                "bell rope church",
                "ringing practice got cancelled, the vicar's ill",
                "ringing practice tonight",
            ),
            C(
                "place",
                "my first job was at a hotel in Blackpool, the manager made us wear sequinned waistcoats",
                "sequinned waistcoats hotel",
                "Blackpool illuminations were on the news",
                "mates want a weekend in Blackpool",
            ),
            C(
                "date",
                "the 30th is a year since my mum's surgery, she's cancer free now, still can't believe it",
                "surgery cancer",
                "rent goes out on the 30th, brace",
                "the 30th is coming round again",
            ),
        ),
    ),
    User(
        "assoc13-en-4",
        "test",
        "en",
        "Ryan",
        "Wren",
        (
            C(
                "person",
                "my uncle Dev won six hundred quid at the pub quiz and spent the lot on a karaoke machine",
                "karaoke hundred",
                "uncle Dev sent the family group a blurry photo of a sunset",
                "uncle Dev's popping round later",
            ),
            C(
                "activity",
                "started boxing at the gym down the road, coach says my footwork is like a baby giraffe",
                "footwork giraffe",
                "boxing gloves stink already",
                "boxing after work",
            ),
            C(
                "place",
                "my girlfriend's family are from Galway, her dad plays the fiddle in a pub every thursday",
                "fiddle",
                "someone at work just got back from Galway",
                "meeting her parents in Galway next month",
            ),
            C(
                "date",
                "april 18th i find out if i got into the police, fitness test's done, interview went ok",
                "police fitness",
                "april 18th is my mate's stag do",
                "april 18th is doing my head in",
            ),
            C(
                "person",
                "my mate Kwame is moving back to Accra to help run his grandma's farm",
                "accra farm grandma",
                "Kwame's new haircut is a crime",
                "kwame messaged me out of nowhere",
            ),
            C(
                "activity",
                "went fishing with my dad, caught nothing for four hours then he got a pike on his first cast",
                "pike cast",
                "fishing shop's got a sale on rods",
                "off fishing this weekend",
            ),
            C(
                "place",
                "my old secondary school in Leicester is getting knocked down, they're building flats on the field",
                "knocked flats field",
                "Leicester won on saturday, lads were buzzing",
                "heading back to Leicester at easter",
            ),
            C(
                "date",
                "march 20th is my grandad's funeral, i said i'd read something and i can't even start it",
                "funeral",
                "march 20th is when we get bonuses apparently",
                "march 20th is in my head all day",
            ),
        ),
    ),
]


def save_pooled(out: Path, about: str, users: list[User], seed: int) -> int:
    """A set of ``users`` over this set's small-talk pools (one per language), written to ``out``:
    dev sets 13 onwards differ only in their cases, their seed and what they say about themselves."""
    rng = random.Random(seed)
    return save(
        out,
        about,
        [
            pooled_sample(
                user,
                rng,
                *((EN_FILLER, EN_REPLIES) if user.lang == "en" else (ZH_FILLER, ZH_REPLIES)),
            )
            for user in users
        ],
    )


def main() -> int:
    return save_pooled(
        OUT,
        (
            "Associative dev set 13 (branch assoc13, issue 28): eight users (four per language), 32 "
            "sessions over six weeks of small talk from one pool per language, eight cases each (a "
            "person, an activity, a place, a date): B said in the first four weeks, a look-alike sharing "
            "the mention's words 12-16 days after B, the mention an hour after the last session. Written "
            "by hand for this set (layout: perf/scenarios/associative_dev13_make.py). Train zh-1, zh-2, "
            "en-1, en-2; test zh-3, zh-4, en-3, en-4."
        ),
        USERS,
        13,
    )


if __name__ == "__main__":
    sys.exit(main())
