"""Writes associative_dev15.json: eight users' six weeks of small talk (32 sessions) with eight cases each.

``python perf/scenarios/associative_dev15_make.py`` rewrites the file (seeded). Why a set of its own:
held-out set 5 has xaid level with a plain hybrid RRF in Chinese (65.0 = 65.0 %), and what it still
misses is a mention the embedder puts far from B (cosine ~0.17): a person's name said another way
(阿珍 → 珍珍, 老周 → 周哥, Elizabeth → Liz, Bill → William), a kinship or role word said another way
(对象 → 男朋友, 老丈人 → 岳父, "my other half" → "my husband", "our kid" → "my little brother"), and
a city by its nickname (山城 → 重庆, 金陵 → 南京, the Granite City → Aberdeen). Per user three names,
three kinship or role words, two places; the look-alike, said 12-16 days after B, repeats the
mention's own word (the same name form, the same kinship word) so that the surface the mention shares
is with the wrong line. Some names follow a regular grammar (阿/小/老 + a name, a doubled character,
a surname + 哥/姐; an English short form inside the long one) and some do not (Bill/William,
Tony/Anthony, 军子/小军, 伟哥/大伟); some kinship words share a character and some nothing.
The cases, mentions and look-alikes were written by hand for this set (branch recall15, before any
xaid/ change of it); the small talk is associative_dev13's pools, the calendar
associative_make.pooled_sample. Train zh-1, zh-2, en-1, en-2; test zh-3, zh-4, en-3, en-4.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from perf.scenarios.associative_dev13_make import save_pooled
from perf.scenarios.associative_make import Case as C
from perf.scenarios.associative_make import User

OUT = Path(__file__).with_name("associative_dev15.json")

USERS = [
    User(
        "assoc15-zh-1",
        "train",
        "zh",
        "小满",
        "阿树",
        (
            C(
                "name",
                "我们部门的珍姐要休产假了，她手上那摊活儿估计全得甩给我，头大",
                "产假 头大",
                "阿珍今天请全组吃了蛋糕",
                "阿珍刚才在茶水间偷偷哭了",
            ),
            C(
                "kin",
                "我对象下个月过生日，想送他块表，看了一圈预算有点紧",
                "块表 预算",
                "男朋友说周末想去看那个新上的电影",
                "男朋友加班到现在还没回来",
            ),
            C(
                "place",
                "以前在山城读的大学，天天爬坡上课，四年下来小腿都练粗了",
                "爬坡 小腿",
                "网上买的重庆火锅底料到了，说是正宗的",
                "下周要去重庆出差",
            ),
            C(
                "name",
                "老周要辞职回老家开民宿了，我们几个轮番劝都劝不住",
                "民宿 劝不住",
                "周哥说他最近在减肥，晚饭只吃黄瓜",
                "周哥今天请我喝了杯咖啡",
            ),
            C(
                "kin",
                "我老丈人上周住院了，胆结石，还好手术挺顺利",
                "胆结石 顺利",
                "岳父又在家族群里转发养生文章",
                "岳父今天来我们家吃饭",
            ),
            C(
                "name",
                "婷婷考上研究生了，二战那么辛苦，总算熬出头了",
                "研究生 二战 熬出头",
                "小婷又换头像了，这回是只柯基",
                "小婷约我周六去逛街",
            ),
            C(
                "place",
                "第一次去魔都的时候在外滩被人忽悠着买了一束花，五十块",
                "外滩 一束花",
                "上海今天居然下雪了，好稀奇",
                "公司要派我去上海培训半个月",
            ),
            C(
                "kin",
                "我们头儿说年底给我升职，这饼画了两年了，不知道这回能不能吃上",
                "升职 画了",
                "领导说周五下午要开个会",
                "领导今天当着大家的面夸我了",
            ),
        ),
    ),
    User(
        "assoc15-zh-2",
        "train",
        "zh",
        "大鹏",
        "小鱼",
        (
            C(
                "name",
                "表妹妮妮九月要去英国读书了，她妈舍不得，哭了一晚上",
                "英国 读书",
                "小妮给我寄了张明信片，字写得歪歪扭扭",
                "小妮今天跟我视频了半天",
            ),
            C(
                "kin",
                "我家那位最近迷上钓鱼了，周末天不亮就出门，一条鱼都没带回来过",
                "钓鱼 天不亮",
                "老婆买了个新电饭煲，说煮饭特别香",
                "老婆今天跟我吵了一架",
            ),
            C(
                "place",
                "在金陵待了四年，最怀念学校门口那家鸭血粉丝汤",
                "鸭血 粉丝汤",
                "南京今天好像降温了，刷到好多人在晒雪",
                "下个月要去南京面试",
            ),
            C(
                "name",
                "阿强说他要结婚了，女方是他在驾校认识的教练",
                "驾校 教练",
                "强子又在朋友圈晒他那辆破车",
                "强子约我周末出去喝酒",
            ),
            C(
                "kin",
                "我儿子最近天天嚷着要养狗，说班上别人都有就他没有",
                "养狗 嚷着",
                "娃又感冒了，鼻涕流个不停",
                "娃今天在幼儿园被老师表扬了",
            ),
            C(
                "name",
                "隔壁的刘姐上周查出来甲状腺结节，吓得她好几晚睡不着",
                "甲状腺 结节",
                "刘大姐在楼道里跟快递小哥吵起来了",
                "刘大姐又给我送了一袋饺子",
            ),
            C(
                "place",
                "刚毕业那会儿在帝都住地下室，一个月八百，连个窗户都没有",
                "地下室 八百 窗户",
                "北京今天又刮沙尘暴了，朋友圈一片黄",
                "朋友说他在北京找了份工作",
            ),
            C(
                "kin",
                "车间主任下个月退休，带了我整整五年，说实话有点舍不得",
                "退休 整整",
                "头儿说这个月的奖金要晚几天发",
                "头儿今天心情好像不错",
            ),
        ),
    ),
    User(
        "assoc15-zh-3",
        "test",
        "zh",
        "晓雯",
        "豆豆",
        (
            C(
                "name",
                "小芸下个月结婚，让我给她当伴娘，我还得赶紧减肥",
                "伴娘 减肥",
                "芸芸发了张她家猫的照片，胖成球了",
                "芸芸今天把请帖发给我了",
            ),
            C(
                "kin",
                "我老公最近升职了，天天加班到十一点，我们快一个星期没好好说上话了",
                "升职 说上话",
                "我家那口子又把臭袜子扔沙发上了",
                "我家那口子今天难得早回来",
            ),
            C(
                "place",
                "上次去鹭岛，在曾厝垵从街头吃到街尾，回来胖了五斤",
                "曾厝垵 五斤",
                "厦门那边好像有台风要来",
                "下周要去厦门开会",
            ),
            C(
                "name",
                "部门新来的Kevin是海归，开会老是中英夹杂，大家都在憋笑",
                "海归 憋笑",
                "凯文给每个人都带了小零食",
                "凯文今天请假了",
            ),
            C(
                "kin",
                "我婆婆手腕骨折了，打着石膏还非要给我们包饺子",
                "骨折 石膏",
                "老公他妈给孩子买了一大堆零食",
                "老公他妈今天又过来了",
            ),
            C(
                "name",
                "大伟要去深圳创业了，把房子都卖了，胆子是真大",
                "创业 胆子",
                "阿伟在群里发了个红包，手慢没抢到",
                "阿伟今天突然给我打电话",
            ),
            C(
                "place",
                "大学在榕城读的，宿舍楼下有棵老榕树，夏天在底下乘凉特别舒服",
                "榕树 乘凉",
                "福州的鱼丸寄到了，真好吃",
                "下个月要去福州出差",
            ),
            C(
                "kin",
                "我们班主任怀孕了，下学期可能要换人带，家长群都炸了",
                "怀孕 炸了",
                "娃的老师布置的手工作业太难了",
                "娃的老师今天给我打电话了",
            ),
        ),
    ),
    User(
        "assoc15-zh-4",
        "test",
        "zh",
        "阿凯",
        "小雨",
        (
            C(
                "name",
                "军子下个月去当兵，走之前非要拉我们几个去爬一趟泰山",
                "当兵 泰山",
                "小军又找我借钱，说下个月还",
                "小军今天给我发了张穿军装的照片",
            ),
            C(
                "kin",
                "我外甥今年高考考了六百二，全家都高兴坏了",
                "高考 六百二",
                "我姐家那小子又打游戏打到半夜",
                "我姐家那小子今天跑我这儿来玩了",
            ),
            C(
                "place",
                "去年国庆去了趟津门，在海河边上听大爷们说相声，笑得肚子疼",
                "相声 肚子疼",
                "天津今天风好大，新闻说刮倒了好多树",
                "同事说周末去天津吃煎饼果子",
            ),
            C(
                "name",
                "老黄盘了个烧烤摊，天天晚上十点出摊，说比上班自在多了",
                "烧烤摊 自在",
                "黄哥在朋友圈发了张钓鱼的照片",
                "黄哥叫我晚上过去坐坐",
            ),
            C(
                "kin",
                "跟你说个事，我媳妇儿怀上了，才三个月，先别往外说",
                "怀上 往外",
                "老婆又网购了一堆东西，快递堆满门口",
                "老婆今天胃口特别差，啥都不想吃",
            ),
            C(
                "name",
                "阿珊跟她男朋友分了，谈了七年，说分就分",
                "七年 说分",
                "珊珊换了个新发型，短发还挺好看",
                "珊珊今晚找我喝酒，一直在哭",
            ),
            C(
                "place",
                "前年夏天在岛城喝了一袋散装啤酒，用塑料袋装的，第一次见",
                "散装 塑料袋",
                "青岛的海鲜好贵啊，看了眼价格就走了",
                "下个月可能要去青岛",
            ),
            C(
                "kin",
                "房东说年底要把房子收回去给他儿子结婚用，我又得找地方住了",
                "收回 儿子结婚",
                "包租婆在楼下晒了一院子被子",
                "包租婆今天又来敲门了",
            ),
        ),
    ),
    User(
        "assoc15-en-1",
        "train",
        "en",
        "Hannah",
        "Leo",
        (
            C(
                "name",
                "Elizabeth from book club just found out she's having twins, she's in total shock",
                "twins shock",
                "Liz sent me her banana bread recipe, it has chocolate chips in it",
                "Liz called me on my lunch break",
            ),
            C(
                "kin",
                "my other half's been made head chef at the restaurant!! he's over the moon",
                "chef moon",
                "my husband bought a new grill, the garden smells of smoke",
                "my husband got home at midnight again",
            ),
            C(
                "place",
                "my first job out of uni was in the Granite City, always cold but i loved walking by the harbour",
                "harbour uni",
                "Aberdeen was on the weather map again, snow",
                "might have an interview in Aberdeen",
            ),
            C(
                "name",
                "Matthew's band got a slot at a festival this summer, he's been practising every night",
                "slot festival",
                "Matt sent me a voice note, couldn't hear a word over the traffic",
                "Matt's coming round for dinner",
            ),
            C(
                "kin",
                "my little brother passed his driving test on the fourth go, the whole family is relieved",
                "driving fourth relieved",
                "our kid sent me a meme at 2am",
                "our kid's staying at mine this weekend",
            ),
            C(
                "name",
                "Katherine at work is moving to Canada in the summer, i'll be so lost without her",
                "canada lost",
                "Kate's had her hair cut really short, it suits her",
                "had coffee with Kate this morning",
            ),
            C(
                "place",
                "our honeymoon was in the city of love and it rained every single day, we didn't even care",
                "honeymoon rained",
                "Paris was on that travel show last night",
                "my friend's moving to Paris next month",
            ),
            C(
                "kin",
                "my line manager's going on maternity leave and they've asked me to cover for her",
                "maternity cover",
                "the boss brought in doughnuts for everyone",
                "the boss has been in a foul mood all week",
            ),
        ),
    ),
    User(
        "assoc15-en-2",
        "train",
        "en",
        "Connor",
        "Mia",
        (
            C(
                "name",
                "William's finally quit smoking after forty years, his doctor nearly cried",
                "smoking forty",
                "Bill's got a new hearing aid, he keeps whistling",
                "Bill's popping round later",
            ),
            C(
                "kin",
                "the missus has signed up for a marathon in october, she's never run further than the bus stop",
                "marathon october",
                "the wife's got a new phone and won't stop taking selfies",
                "the wife's been really quiet all evening",
            ),
            C(
                "place",
                "went to the Motor City last year for a mate's wedding, the car museum was brilliant",
                "museum wedding",
                "Detroit lost again, my flatmate's in mourning",
                "my cousin just got a job in Detroit",
            ),
            C(
                "name",
                "Sammy's been accepted on the paramedic course, she starts in september",
                "paramedic september",
                "Sam's car broke down on the motorway again",
                "Sam came over for a cuppa",
            ),
            C(
                "kin",
                "my grandad's been diagnosed with dementia, he called me by my dad's name yesterday",
                "dementia diagnosed",
                "gramps sent me a photo of his tomatoes, very proud",
                "gramps was in good spirits today",
            ),
            C(
                "name",
                "Jonathan's moving onto a narrowboat, says he's done paying rent",
                "narrowboat rent",
                "Jon texted asking if i'm free saturday",
                "Jon's birthday drinks are tonight",
            ),
            C(
                "place",
                "did my degree in the Steel City, i still put Henderson's relish on everything",
                "relish degree",
                "Sheffield was on the news, some flooding near the station",
                "heading up to Sheffield for the weekend",
            ),
            C(
                "kin",
                "my GP says my blood pressure's too high. i'm 31!!",
                "blood pressure",
                "the doctor's surgery never picks up the phone",
                "got a doctor's appointment tomorrow morning",
            ),
        ),
    ),
    User(
        "assoc15-en-3",
        "test",
        "en",
        "Grace",
        "Omar",
        (
            C(
                "name",
                "Alexandra's dog had seven puppies and she's desperate for me to take one",
                "puppies seven",
                "Lexi's started a podcast, nobody asked",
                "Lexi's coming over tonight",
            ),
            C(
                "kin",
                "my fella's been offered a transfer to the Glasgow office, six months minimum",
                "transfer glasgow",
                "my boyfriend finally cleaned the bathroom, miracles happen",
                "my boyfriend's been weird all day",
            ),
            C(
                "place",
                "my aunt lives in the Emerald City, every time we visit it pours and she swears it's unusual",
                "aunt unusual",
                "a Seattle coffee chain just opened near me",
                "work's sending me to Seattle in april",
            ),
            C(
                "name",
                "Christopher's wife left him and he's sleeping in his van for now",
                "van sleeping",
                "Chris posted another gym selfie",
                "bumped into Chris at the shops",
            ),
            C(
                "kin",
                "my mother-in-law is coming to stay for the whole of march, pray for me",
                "pray whole",
                "my husband's mum sent us a casserole, it was actually lovely",
                "my husband's mum rang again",
            ),
            C(
                "name",
                "Becca got the lead in the school play, she's been practising her lines in the car",
                "lead lines",
                "Rebecca lost another shoe at school, how",
                "Rebecca's parents evening is on thursday",
            ),
            C(
                "place",
                "did an exchange year in Beantown, the winters nearly broke me",
                "exchange winters",
                "the Boston marathon's on the telly",
                "my mate's flying out to Boston tomorrow",
            ),
            C(
                "kin",
                "my personal trainer's moving to Spain, no idea who's going to shout at me now",
                "spain shout",
                "my PT posted a video of a 200kg deadlift",
                "my PT's going to be so disappointed in me",
            ),
        ),
    ),
    User(
        "assoc15-en-4",
        "test",
        "en",
        "Jack",
        "Ruby",
        (
            C(
                "name",
                "Daniel finally proposed to Steph, took him seven years",
                "proposed steph",
                "Danny lost his keys again, third time this month",
                "Danny's buying the first round tonight",
            ),
            C(
                "kin",
                "my old dear's having her hip done next week, she's more worried about the dog than the op",
                "hip op",
                "mum's sent me another article about vitamins",
                "rang my mum on the way home",
            ),
            C(
                "place",
                "stag weekend in the Toon, i barely remember any of it",
                "stag barely",
                "Newcastle lost again, my dad's gutted",
                "the team's off to Newcastle for a conference",
            ),
            C(
                "name",
                "Margaret next door has been feeding the foxes and now there's eight of them in the garden",
                "foxes eight",
                "Maggie's hanging washing out in the rain again",
                "Maggie knocked on the door this afternoon",
            ),
            C(
                "kin",
                "the in-laws are coming for christmas and they've already started asking about grandkids",
                "grandkids",
                "my wife's parents sent us a hamper",
                "my wife's parents land tomorrow",
            ),
            C(
                "name",
                "Tony from five-a-side has torn his ACL, out for the whole season",
                "acl torn",
                "Anthony's organising a whip-round for the ref",
                "Anthony messaged the group chat",
            ),
            C(
                "place",
                "we rented a cottage in the Lakes last autumn, the walk up Helvellyn nearly finished me",
                "helvellyn cottage",
                "the Lake District's been flooded apparently",
                "thinking about a weekend in the Lake District",
            ),
            C(
                "kin",
                "the headteacher's stepping down after the ofsted report, the staffroom is chaos",
                "ofsted staffroom",
                "the head's put a new rota up",
                "the head called me into her office",
            ),
        ),
    ),
]


def main() -> int:
    return save_pooled(
        OUT,
        (
            "Associative dev set 15 (branch recall15, issue 28): eight users (four per language), 32 "
            "sessions over six weeks of small talk from associative_dev13's pools, eight cases each: "
            "three where the mention names a person another way than B did (珍姐 → 阿珍, 老周 → 周哥, "
            "Elizabeth → Liz, William → Bill), three a kinship or role word said another way (对象 → "
            "男朋友, 老丈人 → 岳父, my other half → my husband), two a city by its nickname (山城 → 重庆, "
            "the Granite City → Aberdeen); a look-alike repeating the mention's word 12-16 days after "
            "B, the mention an hour after the last session. Written by hand for this set (layout: "
            "perf/scenarios/associative_dev15_make.py). Train zh-1, zh-2, en-1, en-2; test zh-3, "
            "zh-4, en-3, en-4."
        ),
        USERS,
        15,
    )


if __name__ == "__main__":
    sys.exit(main())
