# ruff: noqa: E501  (hand-written lines of the set, kept whole)
"""Writes associative_dev10.json: eight users' six weeks of daily small talk with ten cases each.

``python perf/scenarios/associative_dev10_make.py`` rewrites the file (seeded, so the same bytes each
time). The B lines, look-alikes, mentions and small talk below were written by hand for this set
(branch assoc10, before any xaid/ change of it); the script only lays them out on a calendar and
checks that each answer word is said in B and nowhere else in that user's history.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from perf.scenarios.associative_make import Case, Line, User, add_session, record, save

OUT = Path(__file__).with_name("associative_dev10.json")
DAYS = 42


EN_TALK = [
    "it's raining sideways again, my umbrella gave up",
    "made pasta for the third night in a row, no regrets",
    "work was fine i guess. long meeting about a meeting",
    "couldn't sleep last night, scrolled till 2 like an idiot",
    "the bus was late AGAIN",
    "watched a really dumb movie and loved it",
    "my plant is finally growing a new leaf!!",
    "tired tired tired",
    "got a free coffee because the machine messed up my order lol",
    "laundry mountain is getting out of hand",
    "someone at work microwaved fish. war crime",
    "just finished a puzzle, 1000 pieces, took a week",
    "ordered takeaway, felt guilty, ate it anyway",
    "my hoodie came out of the wash pink. how",
    "quiet day. read a bit, napped a bit",
    "the heating in my flat is making that clanking noise",
    "went for a walk at lunch, it was actually sunny for once",
    "trying to drink more water, failing",
    "my phone battery dies at like 40% now, so annoying",
    "new season of that baking show is out, i'm obsessed",
    "headache all afternoon, better now",
    "cleaned the fridge. found a lemon from the before times",
    "had a weird dream about being late for an exam i don't even have",
    "my neighbour's cat sat on my windowsill for an hour",
    "did a big shop, spent way too much on snacks",
    "work inbox at 200 unread, i'm choosing to ignore it",
    "tried a yoga video, lasted 12 mins",
    "ugh mondays",
    "the sky was super pink tonight",
    "bought new socks. life changing honestly",
    "the wifi keeps dropping, might scream",
    "made soup, it's mostly carrots",
    "feeling kinda flat today, nothing bad, just meh",
    "finally replied to all my emails, hero behaviour",
    "there's roadworks outside since 7am, drilling",
    "started a new podcast about old shipwrecks, weirdly relaxing",
    "my back hurts from this chair",
    "had toast for dinner. adulting",
    "can't decide what to watch, scrolled for 40 mins",
    "got soaked walking home lol",
    "small win: unclogged the sink myself",
    "it's so windy the bins fell over",
    "feeling a bit better than yesterday tbh",
    "listened to an old album from school, nostalgia hit hard",
]
EN_REPLY = [
    "haha, fair enough",
    "oof, that sounds like a lot",
    "mm, tell me more?",
    "that's kind of lovely actually",
    "ugh, sorry. hope tomorrow's kinder",
    "small wins count!",
    "ha, classic",
    "i'm here if you want to vent",
    "sounds like a cozy evening",
    "honestly relatable",
    "oh no lol",
    "that's a good day then",
]
ZH_TALK = [
    "又下雨了，伞被吹翻了",
    "今天连着第三天吃面条，没办法太懒了",
    "上班好累，开了个很长的会讨论怎么开会",
    "昨晚又刷手机刷到两点，我是真的没救",
    "公交车又晚了二十分钟",
    "看了个很烂的电影，但是我笑得很开心",
    "我那盆绿萝终于长新叶子了！！",
    "困困困",
    "咖啡店做错了单，白送我一杯哈哈",
    "衣服堆成山了，周末必须洗",
    "同事在办公室微波炉热鱼，窒息",
    "拼完了一千片的拼图，花了一个星期",
    "点了外卖，有点负罪感，但还是吃光了",
    "白卫衣洗成粉色了，怎么回事",
    "今天很平静，看了会儿书，睡了个午觉",
    "暖气片又在咣咣响",
    "中午出去走了走，难得出太阳",
    "说好多喝水的，又忘了",
    "手机电量百分之四十就自动关机，气死",
    "那个烘焙综艺出新一季了，我好上头",
    "下午头疼，现在好点了",
    "清理了冰箱，翻出一个不知道什么时候的柠檬",
    "做梦梦见考试迟到，醒来发现我根本不用考试",
    "邻居家的猫在我窗台上坐了一个小时",
    "去超市大采购，零食买太多了",
    "工作邮箱两百封未读，假装没看见",
    "跟着视频做了会儿瑜伽，坚持了十二分钟",
    "周一好烦",
    "今晚的天是粉色的，好看",
    "买了新袜子，幸福感爆棚",
    "wifi一直断，我要疯了",
    "煮了个汤，基本全是胡萝卜",
    "今天有点emo，也没什么事，就是提不起劲",
    "终于把邮件都回完了，我真棒",
    "楼下从早上七点开始施工，电钻声",
    "最近在听一个讲沉船的播客，莫名很解压",
    "这椅子坐得我腰疼",
    "晚饭吃了两片吐司，成年人的生活",
    "选片子选了四十分钟，最后啥也没看",
    "走回家淋成落汤鸡了哈哈",
    "小小胜利：自己把下水道通了",
    "风大到把垃圾桶都吹倒了",
    "比昨天好一点了其实",
    "听了高中时候的歌单，回忆杀",
]
ZH_REPLY = [
    "哈哈，可以理解",
    "哎，听着好累",
    "嗯嗯，然后呢？",
    "这个还挺可爱的",
    "抱抱，希望明天好一点",
    "小胜利也是胜利！",
    "哈，太真实了",
    "想吐槽随时找我",
    "听起来是个舒服的晚上",
    "懂你",
    "啊这哈哈",
    "那今天还不错嘛",
]

C = Case
USERS = [
    User(
        "assoc10-en-1",
        "train",
        "en",
        "Hannah",
        "Remy",
        (
            C(
                "person",
                "my cousin Priya just got into vet school in Glasgow!! she's been trying for three years, so proud of her",
                "vet Glasgow proud",
                "Priya sent me a meme about cats at 2am lol",
                "Priya called me today, she sounded stressed",
            ),
            C(
                "activity",
                "signed up for pottery on thursdays. first bowl came out lopsided, the teacher called it 'rustic' haha",
                "lopsided rustic bowl",
                "the pottery studio got a new kiln apparently",
                "pottery tonight, wish me luck",
            ),
            C(
                "place",
                "went to that market on Fenwick Street, bought a ridiculous amount of olives and a tiny cactus. named him Gerald",
                "olives cactus Gerald",
                "traffic on Fenwick Street was insane this morning",
                "walking past Fenwick Street later",
            ),
            C(
                "date",
                "the 19th of march is my parents' 30th anniversary. me and my brother are secretly booking them a weekend in Bath",
                "anniversary secretly Bath",
                "dentist on the 19th of march, ugh",
                "can't believe the 19th of march is so close already",
            ),
            C(
                "person",
                "my boss Derek announced he's retiring in spring. he's honestly the only reason i stayed at this job",
                "retiring spring reason",
                "Derek wore the same tie three days in a row lmao",
                "had a one to one with Derek this afternoon",
            ),
            C(
                "activity",
                "started climbing at the bouldering gym. tore a callus on my ring finger the first week, worth it tho",
                "callus ring finger",
                "the climbing gym playlist is all 2000s pop",
                "going climbing with the new crew tmrw",
            ),
            C(
                "place",
                "grandma's old house in Whitby is getting sold. spent every summer there as a kid, the attic smelled like lavender",
                "attic lavender sold",
                "saw a documentary about Whitby, all about the abbey and vampires",
                "there's a cheap train to Whitby this weekend",
            ),
            C(
                "date",
                "march 3rd is my citizenship interview. been studying the history booklet every night, sooo nervous",
                "citizenship interview booklet",
                "gas bill is due march 3rd, noted",
                "march 3rd is creeping up on me",
            ),
            C(
                "person",
                "my neighbour Tomasz lost his dog last month, he still leaves the leash hanging by the door. broke my heart a bit",
                "dog leash hanging",
                "Tomasz is blasting polka music again lol",
                "bumped into Tomasz on the stairs",
            ),
            C(
                "activity",
                "i'm learning the cello off youtube and my landlord knocked to ask if someone was 'in pain' 😭",
                "youtube landlord pain",
                "bought new cello strings, pricey",
                "cello practice tonight, sorry neighbours",
            ),
        ),
    ),
    User(
        "assoc10-en-2",
        "train",
        "en",
        "Owen",
        "Juno",
        (
            C(
                "person",
                "my little sister Mia is doing an exchange year in Seoul from august, she's been learning korean off dramas",
                "exchange Seoul korean dramas",
                "Mia borrowed my charger and never gave it back",
                "Mia texted me out of nowhere today",
            ),
            C(
                "activity",
                "joined a five-a-side league. i'm goalkeeper because nobody else volunteered, we lost nine to two",
                "goalkeeper volunteered nine",
                "five-a-side got moved to the indoor pitch",
                "five-a-side tonight, here we go",
            ),
            C(
                "place",
                "the library on Carver Road is closing for renovation, that's where i studied for my whole degree. sat by the radiator every day",
                "renovation degree radiator",
                "parking near Carver Road is a nightmare",
                "gonna drive by Carver Road tomorrow",
            ),
            C(
                "date",
                "april 12th is my sobriety anniversary, two years. i don't really tell people but wanted you to know",
                "sobriety",
                "april 12th the band's playing in town i think",
                "april 12th is coming up, kind of a big day for me",
            ),
            C(
                "person",
                "my flatmate Ravi is proposing to his girlfriend at the planetarium, he made me swear to keep quiet",
                "proposing planetarium girlfriend",
                "Ravi burnt the toast again, smoke alarm went off",
                "Ravi was acting super jittery at breakfast",
            ),
            C(
                "activity",
                "started running again, couch to 5k. my shins are screaming, physio says it's shin splints",
                "shins physio splints",
                "running shoes on sale at the outlet",
                "went for a run this morning",
            ),
            C(
                "place",
                "my uncle runs a tiny bakery in Bristol. the cinnamon buns are legendary, he's up at 3am making them",
                "uncle bakery cinnamon",
                "Bristol's been in the news for the flooding",
                "heading to Bristol for work next week",
            ),
            C(
                "date",
                "the 28th is the anniversary of my dad passing, five years now. i usually drive to the coast that day",
                "dad passing coast",
                "payday is the 28th thank god",
                "the 28th is a friday huh",
            ),
            C(
                "person",
                "coach Barnes from school emailed me. he has cancer and he's organising a fundraiser walk",
                "cancer fundraiser",
                "saw a guy who looked exactly like coach Barnes at the gym",
                "been thinking about coach Barnes",
            ),
            C(
                "activity",
                "i've been baking sourdough, my starter is called Doughlene and she lives in the fridge",
                "starter Doughlene",
                "sourdough at the supermarket was 5 quid, daylight robbery",
                "baking sourdough this weekend",
            ),
        ),
    ),
    User(
        "assoc10-en-3",
        "test",
        "en",
        "Grace",
        "Tilly",
        (
            C(
                "person",
                "my best friend Jo is moving to Melbourne for a nursing job. we've been friends since we were like six",
                "Melbourne nursing",
                "Jo liked a post of mine from 2019 lmao",
                "facetimed Jo today",
            ),
            C(
                "activity",
                "started swimming at the lido before work. the water was 11 degrees, i actually screamed",
                "lido degrees screamed",
                "my swimming costume ripped at the seam",
                "swimming in the morning, brr",
            ),
            C(
                "place",
                "my aunt has a caravan in Tenby, we're going over easter and she said we can take the kayak out",
                "caravan easter kayak",
                "Tenby was on that travel show last night",
                "looking at the weather in Tenby",
            ),
            C(
                "date",
                "the 2nd of march is my first day at the new firm. they're putting me in tax, which i did NOT ask for",
                "firm tax",
                "bin day moved to the 2nd of march for some reason",
                "the 2nd of march is so close omg",
            ),
            C(
                "person",
                "grandad Alfie is getting his hip replaced, he's more worried about missing the darts final",
                "hip replaced darts",
                "Alfie rang to ask how whatsapp works. again",
                "Alfie's on my mind today",
            ),
            C(
                "activity",
                "knitting a scarf for my nephew, dropped a stitch somewhere and now there's a hole shaped like Italy",
                "nephew stitch Italy",
                "the knitting shop had a cat asleep in the window",
                "finally picked up the knitting again",
            ),
            C(
                "place",
                "went back to Leeds for the first time since uni. my old student house is a vape shop now lol",
                "student vape",
                "someone at work had their Leeds train cancelled",
                "might go up to Leeds in spring",
            ),
            C(
                "date",
                "st patrick's day is also my mum's birthday, so dad always forgets one or the other",
                "mum birthday forgets",
                "the pub near work is already advertising st patrick's day",
                "st patrick's day is coming up",
            ),
            C(
                "person",
                "my coworker Nadia is going on maternity leave, twins!! she's terrified and thrilled",
                "maternity twins thrilled",
                "Nadia brought in brownies",
                "Nadia sent me a photo today",
            ),
            C(
                "activity",
                "volunteering at the food bank on saturdays now. met a guy who used to be a chef at the Savoy",
                "chef Savoy",
                "the food bank needs more tins apparently",
                "food bank shift tomorrow",
            ),
        ),
    ),
    User(
        "assoc10-en-4",
        "test",
        "en",
        "Leo",
        "Bea",
        (
            C(
                "person",
                "my brother Sam got diagnosed with type 1 diabetes, at 34. he's handling it way better than me",
                "diabetes handling",
                "Sam's fantasy football team is dead last lol",
                "had dinner with Sam tonight",
            ),
            C(
                "activity",
                "joined the chess club at the pub. an 80 year old called Margaret destroyed me in twelve moves",
                "Margaret destroyed twelve",
                "chess on my phone is eating all my free time",
                "chess club again thursday",
            ),
            C(
                "place",
                "my ex and i used to drive to the lighthouse in Cromer every anniversary. went past it last week and had to pull over",
                "ex lighthouse pull",
                "apparently Cromer crab is a whole thing",
                "a friend invited me to Cromer",
            ),
            C(
                "date",
                "may 9th is my marathon in Edinburgh, first one ever. raised 600 for the mind charity so far",
                "marathon Edinburgh charity",
                "may 9th is also Kat's eurovision party",
                "may 9th feels really close now",
            ),
            C(
                "person",
                "my old teacher Mrs Okafor passed away. she's the one who got me into writing",
                "passed writing",
                "someone named their cafe Okafor's, made me smile",
                "found an old card from Mrs Okafor",
            ),
            C(
                "activity",
                "took on an allotment. inherited a shed full of spiders and some very angry rhubarb",
                "shed spiders rhubarb",
                "the allotment waiting list in the next town is 8 years lol",
                "off to the allotment after lunch",
            ),
            C(
                "place",
                "my girlfriend's family lives in Porto. meeting them in april and i know like four words of portuguese",
                "girlfriend family portuguese",
                "Porto won something at football, the office was loud",
                "flights to Porto went up",
            ),
            C(
                "date",
                "the 22nd of march is the court date for the deposit thing with my old landlord. got all the photos ready",
                "court deposit photos",
                "the 22nd of march is pizza night at work",
                "the 22nd of march again in my head, nerves",
            ),
            C(
                "person",
                "my mate Dylan quit his job to open a record shop, put all his savings into it",
                "record savings",
                "Dylan's beard is out of control",
                "Dylan invited me round tomorrow",
            ),
            C(
                "activity",
                "started boxing classes. the trainer said my left hook is 'polite' lmao",
                "trainer hook polite",
                "boxing on tv last night was a snooze",
                "boxing class tonight",
            ),
        ),
    ),
    User(
        "assoc10-zh-1",
        "train",
        "zh",
        "小林",
        "阿暖",
        (
            C(
                "person",
                "我表姐阿雯考上兽医了，在哈尔滨读，她说冬天零下三十度要冻成冰棍",
                "兽医 哈尔滨 冰棍",
                "阿雯又给我发了个猫猫表情包哈哈",
                "阿雯今天突然打电话给我",
            ),
            C(
                "activity",
                "报了个陶艺课，每周四晚上。第一个碗捏歪了，老师说很有艺术感哈哈",
                "捏歪 艺术感",
                "陶艺工作室好像换了个新窑",
                "今晚陶艺课，祝我好运",
            ),
            C(
                "place",
                "周末去了南锣鼓巷旁边的菜市场，买了一大堆橄榄，还有一个小仙人掌，取名叫老王",
                "橄榄 仙人掌 老王",
                "南锣鼓巷今天堵得要死",
                "下午路过南锣鼓巷",
            ),
            C(
                "date",
                "3月18号是我爸妈结婚三十周年，我跟我哥偷偷给他们订了去桂林的旅行",
                "结婚 桂林 偷偷",
                "3月18号要去洗牙，烦",
                "3月18号下个月就到了，好快",
            ),
            C(
                "person",
                "我们组长老周说他春天就退休了，说实话我留在这个公司就是因为他",
                "退休 春天",
                "老周今天又穿那件格子衬衫，连续三天了",
                "下午跟老周单独聊了一下",
            ),
            C(
                "activity",
                "开始去攀岩馆了，第一周无名指就磨出茧子，不过好上头",
                "无名指 茧子",
                "攀岩馆的歌单全是周杰伦老歌",
                "明天跟新认识的朋友去攀岩",
            ),
            C(
                "place",
                "外婆在绍兴的老房子要卖掉了。小时候每个暑假都在那儿，阁楼里一股樟木箱的味道",
                "阁楼 樟木 暑假",
                "电视上在放绍兴黄酒的纪录片",
                "这周末有去绍兴的便宜高铁票",
            ),
            C(
                "date",
                "4月2号是我的教资面试，每天晚上都在背那本小册子，紧张死了",
                "教资 面试 小册子",
                "4月2号好像是燃气费截止日",
                "4月2号越来越近了",
            ),
            C(
                "person",
                "楼下张叔上个月狗走丢了，他到现在还把狗绳挂在门口，看着好心酸",
                "狗绳 走丢 心酸",
                "张叔又在楼道里放京剧了哈哈",
                "楼梯上碰到张叔了",
            ),
            C(
                "activity",
                "跟着b站自学大提琴，房东来敲门问是不是有人在哭😭",
                "房东 敲门",
                "新买的大提琴弦好贵",
                "今晚练大提琴，邻居们对不起了",
            ),
        ),
    ),
    User(
        "assoc10-zh-2",
        "train",
        "zh",
        "大鹏",
        "小星",
        (
            C(
                "person",
                "我妹小雪八月要去首尔交换一年，最近天天刷韩剧，说是在学韩语",
                "首尔 交换 韩剧",
                "小雪把我充电器拿走了又没还",
                "小雪今天突然给我发微信",
            ),
            C(
                "activity",
                "加入了公司的五人制足球队，没人愿意当守门员就让我上了，结果输了九比二",
                "守门员 九比二",
                "五人制足球换到室内场地了",
                "今晚又要踢五人制",
            ),
            C(
                "place",
                "单位旁边那家西西弗书店要关了。我考研那一年基本天天泡在那儿，靠窗那个位置",
                "考研 靠窗",
                "西西弗书店门口停车难死了",
                "明天会路过西西弗",
            ),
            C(
                "date",
                "6月9号是我戒酒两周年，平时不跟人说，就想告诉你",
                "戒酒",
                "6月9号好像有个乐队来演出",
                "6月9号快到了，对我来说是个大日子",
            ),
            C(
                "person",
                "室友阿凯要在天文馆跟女朋友求婚，他让我发誓保密",
                "天文馆 求婚 保密",
                "阿凯又把面包烤糊了，烟雾报警器响了",
                "阿凯今天早饭的时候特别紧张",
            ),
            C(
                "activity",
                "重新开始跑步了，膝盖下面疼，理疗师说是胫骨骨膜炎",
                "理疗师 胫骨 骨膜炎",
                "跑步鞋在奥特莱斯打折",
                "早上去跑了一圈",
            ),
            C(
                "place",
                "我舅舅在厦门开了个小面包店，肉桂卷特别有名，他每天三点就起来揉面",
                "舅舅 肉桂卷 揉面",
                "厦门最近上新闻了，说是台风",
                "下周出差去厦门",
            ),
            C(
                "date",
                "28号是我爸走了五周年，每年那天我都会一个人去海边坐坐",
                "海边 坐坐",
                "28号发工资，终于",
                "28号是星期五吧",
            ),
            C(
                "person",
                "高中班主任老郑发邮件说他得了癌症，在组织一个公益徒步筹款",
                "癌症 徒步 筹款",
                "健身房看到一个人长得特别像老郑",
                "最近老想起老郑",
            ),
            C(
                "activity",
                "在家做酸面包，我的酵种取名叫发发，住在冰箱里",
                "酵种 发发",
                "超市的酸面包卖35一个，抢钱啊",
                "这周末又要做酸面包",
            ),
        ),
    ),
    User(
        "assoc10-zh-3",
        "test",
        "zh",
        "晓雯",
        "豆豆",
        (
            C(
                "person",
                "闺蜜小鹿要去墨尔本当护士了，我俩从幼儿园就认识，想到就想哭",
                "墨尔本 护士 幼儿园",
                "小鹿给我点赞了一条五年前的朋友圈哈哈哈",
                "今天跟小鹿视频了",
            ),
            C(
                "activity",
                "最近上班前去露天泳池游泳，水温才十一度，我下去直接尖叫",
                "露天 十一度 尖叫",
                "游泳馆门口新开了家奶茶店",
                "明早去游泳，冷死",
            ),
            C(
                "place",
                "我小姨在大理有个小院子，五一我们去住几天，她说可以骑她的电动车去洱海",
                "小院 五一 洱海",
                "大理又上热搜了，说是什么网红打卡点",
                "在看大理这几天的天气",
            ),
            C(
                "date",
                "3月2号去新公司报到，结果他们把我分到税务组了，我压根没申请过",
                "报到 税务",
                "小区通知3月2号停水一天",
                "3月2号好近啊",
            ),
            C(
                "person",
                "爷爷下周做髋关节手术，他最担心的居然是看不了象棋比赛",
                "髋关节 象棋",
                "爷爷又打电话问我微信怎么发语音",
                "今天一直在想爷爷",
            ),
            C(
                "activity",
                "给外甥织围巾，中间漏了一针，现在有个洞形状像意大利",
                "外甥 漏了 意大利",
                "织围巾的毛线又涨价了",
                "终于又开始织围巾了",
            ),
            C(
                "place",
                "回了趟武汉，大学时租的房子现在变成一家电子烟店了，笑死",
                "大学 电子烟",
                "同事去武汉出差，高铁停运了",
                "春天可能回武汉一趟",
            ),
            C(
                "date",
                "元宵节也是我妈生日，我爸每年都只记得一个",
                "生日 只记得",
                "超市已经在卖元宵节的汤圆了",
                "元宵节快到了",
            ),
            C(
                "person",
                "同事娜娜要休产假了，双胞胎！她说又怕又开心",
                "产假 双胞胎",
                "娜娜今天带了布朗尼来办公室",
                "娜娜今天发了张照片给我",
            ),
            C(
                "activity",
                "周六在社区食堂做志愿者，认识了一个以前在五星酒店当主厨的大叔",
                "五星 主厨 大叔",
                "社区食堂说缺人手洗碗",
                "明天社区食堂值班",
            ),
        ),
    ),
    User(
        "assoc10-zh-4",
        "test",
        "zh",
        "阿强",
        "橙子",
        (
            C(
                "person",
                "我哥查出来一型糖尿病，才三十四岁，他自己倒挺淡定，我比他还慌",
                "糖尿病 淡定",
                "我哥的梦幻足球队排倒数第一哈哈",
                "今晚跟我哥吃饭",
            ),
            C(
                "activity",
                "去小区棋社下象棋，一个八十岁的王奶奶十二步就把我将死了",
                "王奶奶 将死",
                "棋社换了新的空调，终于不冷了",
                "周四又要去棋社了",
            ),
            C(
                "place",
                "以前跟前任每年纪念日都去青岛看那个灯塔，上周开车路过，忍不住靠边停了一会儿",
                "前任 灯塔 靠边",
                "同事从青岛带了两箱啤酒回来",
                "朋友约我去青岛玩",
            ),
            C(
                "date",
                "5月9号是我第一次跑全马，在杭州，已经给公益项目筹了六百块",
                "全马 杭州 公益",
                "5月9号公司团建，吃火锅",
                "5月9号感觉好近了",
            ),
            C(
                "person",
                "初中语文刘老师去世了，是她让我开始写东西的",
                "去世 语文",
                "路边有家店叫刘老师面馆，笑了",
                "翻到一张刘老师写给我的贺卡",
            ),
            C(
                "activity",
                "租了块菜地，附送一个全是蜘蛛的小棚子，还有一丛长疯了的韭菜",
                "蜘蛛 棚子 韭菜",
                "隔壁镇的菜地要排队八年",
                "下午去菜地转转",
            ),
            C(
                "place",
                "女朋友家在成都，四月要去见她爸妈，我四川话一句都不会",
                "女朋友 四川话",
                "成都那边好像又有个小地震",
                "去成都的机票涨价了",
            ),
            C(
                "date",
                "3月22号是押金那个案子开庭，照片证据我都准备好了",
                "押金 开庭 照片",
                "3月22号公司有披萨日",
                "3月22号又在脑子里转，紧张",
            ),
            C(
                "person",
                "哥们阿飞辞职开了个黑胶唱片店，全部积蓄都砸进去了",
                "黑胶 积蓄",
                "阿飞的胡子长得跟野人一样",
                "阿飞叫我明天去他那儿坐坐",
            ),
            C(
                "activity",
                "开始上拳击课了，教练说我的左勾拳很有礼貌哈哈哈",
                "教练 左勾拳 礼貌",
                "昨晚电视上的拳击比赛好无聊",
                "今晚拳击课",
            ),
        ),
    ),
]


def sample(user: User, rng: random.Random) -> dict[str, object]:
    """Six weeks, one session a day: 3-5 small-talk lines, the case lines on their days."""
    talk, reply = (EN_TALK, EN_REPLY) if user.lang == "en" else (ZH_TALK, ZH_REPLY)
    said: dict[int, list[Line]] = {d: [] for d in range(DAYS)}
    b_days = sorted(rng.sample(range(1, 24), len(user.cases)))
    for index, (case, day) in enumerate(zip(user.cases, b_days, strict=True)):
        said[day].append((case.b, index))
        said[rng.randint(day + 7, DAYS - 2)].append((case.lookalike, None))
    conversation: dict[str, object] = {"speaker_a": user.name, "speaker_b": user.friend}
    evidence: dict[int, str] = {}
    for day in range(DAYS):
        lines: list[Line] = [(t, None) for t in rng.sample(talk, rng.randint(3, 5))]
        add_session(conversation, day + 1, day, user, lines, said[day], reply, rng, evidence)
    return record(user, conversation, evidence)


def write(out: Path, about: str, users: list[User], seed: int) -> int:
    """Lays ``users`` on the calendar (seeded) into ``out``; 1 when an answer word is not B's alone."""
    rng = random.Random(seed)
    return save(out, about, [sample(user, rng) for user in users])


def main() -> int:
    return write(
        OUT,
        (
            "Associative dev set 10 (branch assoc10, issue 28): eight users (four per language), six "
            "weeks of daily small talk (one session a day), ten cases each: a person, an activity, a "
            "place or a date mentioned; B said in the first weeks names it with words no other line has; "
            "a look-alike naming the same person, activity, place or date said 1-5 weeks after B; the "
            "mention asked an hour after the last session. Written by hand for this set (generated "
            "layout: perf/scenarios/associative_dev10_make.py). Train en-1, en-2, zh-1, zh-2; test the rest."
        ),
        USERS,
        10,
    )


if __name__ == "__main__":
    sys.exit(main())
