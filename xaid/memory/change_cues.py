"""Does a statement read as a change of the user's own life, now? Read by a small, general set of
cues of tense and change in English and Chinese, never by a list of subjects.

"I take the tram to work these days", "gave up coffee", "no longer", "咖啡我戒了", "改学吉他",
"不续了", "已经吃素半年了": what these share is not what they are about but how they are said, as a
change or as the present replacing something. Which earlier statement they replace is found by
meaning elsewhere (xaid.memory.supersede); here only the words of the new statement are read.

The same words also say when a statement is *not* a change of the user's: an addition ("also",
"too", 又, 也) or both kept at once ("rotating between the two", 两台换着用), a hypothetical or a
plan ("if", "thinking about", 如果, 打算), past narration with nothing about now ("when I was a
kid", 小时候), someone else's change ("my brother switched", 我哥现在改喝…), one occasion ("tonight
… instead", 今天…换了, unless it lasts: "quit", "from now on", 现在), a bounded stretch ("for now",
"until it reopens", 先停了, 等…再), or the same value said again ("still at Camden", 还是在望京).
A cue counts only in a clause that is the user's (an "I"/"we"/我, or no subject at
all, as Chinese often says it), and no blocker in the statement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text import cjk, stopwords
from ..text.clauses import clauses
from .rules import extract

# Words that say "this changed": a verb of ending, leaving or replacing, or "instead".
_STRONG_EN = re.compile(
    r"(?<![a-z'])(?:switched|switching|swapped|quit|quitting|gave up|given up|giving up|no longer|"
    r"(?:not|n't|never)\b[^.,;!?]{0,40}\b(?:anymore|any more|any longer)|anymore|any more|moved|"
    r"left|leaving|replaced|instead|stopped|changed|transferred|retrained|traded|sold|dropped|cancel+ed|"
    r"got rid of|done with|broke up|split up|on hold|put [^.,;!?]{0,20} away|for good|went (?:vegan|"
    r"vegetarian)|converted|upgraded|turned|deleted|uninstalled|unsubscribed|lapsed|no more|"
    r"(?:took|taken|taking) over|(?:went|gone|going|moved|switched) back to|(?:not|never) going back|"
    # leaving a job as people say it, as 辞/离职/交了辞呈 say it in Chinese
    r"resign(?:ed|ing)?|handed in (?:my|our|his|her) notice|(?:gave|given|put in) (?:my |our )?notice|"
    r"my last day (?:at|was)|"
    # back to the earlier one as a state: "I'm back to paper books", "we're back on the bus"
    r"(?:i'm|i am|we're|we are) back (?:to|on)|"
    # the new one in place of the old: "on my lunch break rather than at dawn", "ported my number
    # over to Three", "moved everything over to"
    r"rather than|[a-z]+ed (?:[a-z']+ ){0,3}over to|"
    # a change said as its reason or its date: "since I moved to Porto the commute is nothing"
    # (not the conversation's own gap: "since we talked", "since we chatted last")
    r"since (?:i|we)(?:'ve| have)? (?!talked|chatted|texted|messaged|emailed|skyped)[a-z]+ed)(?![a-z'])",
    re.I,
)
# Words that say "as things are now": a replacement said in the present, weaker alone.
_NOW_EN = re.compile(
    r"(?<![a-z'])(?:now|these days|nowadays|currently|at the moment|at present|lately|new|finally|"
    r"since (?:the|last|then)|all about|"
    # a state of the user's with the day or month it began: "since Monday I'm at Fernwood"
    r"since (?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|may|june|"
    r"july|august|september|october|november|december),? (?:i|we)(?:'[a-z]+)?|"
    r"anymore|the old (?:one|thing|place|[a-z]+)|"
    # a state with its start: "insured with Direct Line from this month", "ever since", "as of May"
    r"from (?:this|next) (?:week|month|year)|from now on|ever since|as of|"
    # a stretch of months up to now: "these last couple of months" (weeks are too short for a habit)
    r"(?:these|the) (?:past|last) (?:few |couple of |two |three )?months)(?![a-z'])",
    re.I,
)
_STRONG_ZH = re.compile(
    # 换 as in 转换插头 (an adapter) or 交换 (an exchange) names no switch
    r"改|(?<![转交])换|不再|戒|辞|搬|离开|离职|转行|转学|转[到成去为网投]|跳槽|放弃|分手|分了|卖了|卖掉|不续|没续|"
    r"调到|挪到|迁|退了|不干了|"
    # 不…了 is a quit (不骑了, 咖啡不喝了); not when 不 sits inside a verb and its complement, the
    # potential form (离不开, 受不了, 吃不消: "can't do without", a state that goes on)
    r"(?<![离少舍受忘睡吃看用买])不[^，。！？；,了]{1,4}了|没再|告别|迷上|取消|卸了|卸载|"
    # made into something else (弄成了博士茶, 变成, 搞成), the new one in place of the old (而不是)
    r"(?:弄|搞|变)成|而不是|"
    # a change said as its reason or its date: 自从搬家以后…, 公交涨价以后我就…了
    r"自从|(?:以后|之后)[^，。！？；,]{0,4}就"
)
_NOW_ZH = re.compile(
    r"现在|如今|最近|目前|这些天|这阵子|这段时间|已经[^，。！？；,]{0,8}了|终于|开始|"
    # the former value named as former: 旧车送人了, 之前那家太贵了
    rf"旧(?:的)?[{cjk.IDEOGRAPHS}]|(?:之前|原来)那[个家位张辆台部款]|"
    # only or all of it now (新闻基本只看它了, 外卖全在美团点了), long since (饭盒早就收起来了), a
    # start (从这个月起)
    r"(?:只|全)[^，。！？；,]{0,8}了|早就[^，。！？；,]{0,8}了|从(?:这|下)个?(?:月|周|星期|礼拜)|"
    r"(?:这|下)个?(?:月|周|星期|礼拜)(?:起|开始)|"
    # a stretch of months up to now, long enough for a habit: 这几个月, 近半年来 (not 这半个月, 这两周)
    r"(?:这|近)(?:几|两)个月|(?:这|近)(?:几|两|半)年"
)
_FIRST_EN = re.compile(
    r"(?<![a-z'])(?:i|i'm|i've|i'd|i'll|we|we're|we've|we'd|us|me)(?![a-z'])", re.I
)
_OTHER_EN = re.compile(
    r"^\W*(?:(?:my|our)\s+(?P<who>(?:[a-z'-]+\s+){0,2}[a-z'-]+)|he|she|they|he's|she's|they're)(?![a-z'])",
    re.I,
)
# The one the user talks to, or a congratulation, opening a clause: their news, not the user's
# change (session 28: on LoCoMo's chats "Congrats on the trophy! … finally …" made earlier lines
# history).
_SECOND = re.compile(
    r"^\W*(?:you(?:'re|'ve|'d)?|your\s+[a-z'-]+|congrats|congratulations|well done|way to go)"
    r"(?![a-z'])|^\W*(?:你|您|恭喜|祝贺)",
    re.I,
)
# Family words that name one person without "my" ("Dad's obsessed with the new kebab shop"); the
# other people words need a "my" (a bare "friend" or "boss" is rarely a clause's subject).
_FAMILY = frozenset(
    {"dad", "daddy", "mum", "mom", "mommy", "mama", "papa", "grandma", "grandpa", "sis", "bro"}
)
_BARE_EN = re.compile(r"^\W*([a-z]+)(?:'s\b|\s+(?!and\b|or\b|i\b))", re.I)
_OTHER_ZH = re.compile(
    rf"^\W*(?:他|她|他们|她们)|^\W*(?:我们的|我们|我的|我)?(?P<who>[{cjk.IDEOGRAPHS}]{{1,3}})"
)
# The characters of kinship: 我表哥, 我堂姐, 我小姨 are the user's relatives whoever the list names.
_KIN_ZH = re.compile(r"[哥姐弟妹爸妈叔姨舅姑婶嫂伯姥]")
# Another household named by where it lives or by its family name (隔壁老李家改用净水器了, 邻居, 老王家):
# their change, not the user's.
# A place alone (楼下新开了家面馆, 隔壁开了家店) is no one: only a person there counts.
_NEIGHBOUR_ZH = re.compile(
    rf"^(?:邻居|(?:隔壁|对门|楼上|楼下)的?(?:[老小][{cjk.IDEOGRAPHS}]|邻居|家|大[爷妈叔姐哥])|"
    rf"[老小][{cjk.IDEOGRAPHS}]家)"
)
# "Now" as the time of remembering, not of a state ("现在想起来还难受", "looking back now"): the
# story stays in the past.
_RECALLING = re.compile(
    r"(?<![a-z'])(?:now that i think|thinking back|looking back(?: now)?|now i think about it)(?![a-z'])|"
    r"现在(?:想起来|回想|想想|回头看|说起来)",
    re.I,
)
# Not a change of the user's: an addition, a hypothetical or a plan.
_ADDITION = re.compile(
    # "too" adds at a clause's end ("a puppy too"); before a word it is a degree ("too pricey")
    r"(?<![a-z'])(?:also|too(?=\s*(?:[,.;!?]|$))|as well|another|in addition|on top of)(?![a-z'])|"
    # 多了 adds when a count follows (多了一只猫); after a word of feeling it compares (开心多了, 轻多了)
    r"又|也|另外|还有|多了(?=[一两二三四五六七八九十几个只位件台辆份条])|"
    # 还 before a deed done (还报了个瑜伽课, 还迷上了): one more, beside what was; not 还是, 还在, 还没
    r"还(?![是在没不有要会能得可行好挺真])[^，。！？；,]{0,8}了",
    re.I,
)
# Something done on the side of what is (顺便在学西班牙语, "doing Spanish on the side"): beside the
# earlier one whatever else the words say, a "no longer" too (点个tapas已经不慌了 is the new one's
# progress, not an end of the old).
_ASIDE = re.compile(r"(?<![a-z'])on the side(?![a-z'])|顺便|顺带|捎带", re.I)
_UNREAL = re.compile(
    r"(?<![a-z'])(?:if|unless|would|'d love|suppose|maybe|might|thinking (?:about|of)|considering|"
    r"planning|plan to|hope to|want to|next (?:year|month|week)|someday|one day|tomorrow|gonna|"
    r"(?:am|'m|are|'re|is|'s) going to (?!the |a |an |my |our ))(?![a-z'])|"
    # 以后 is the future at a clause's start or after a person ("我以后想…"); after an event it is
    # "after" (减肥成功以后)
    r"如果|要是|假如|假设|万一|考虑|打算|准备|想要|可能|也许|明年|下个月|明天|下周|将来|"
    # an indefinite time ahead (哪天地铁修到家门口我就不骑了) or another life (下辈子): never yet
    r"哪天|哪一天|有朝一日|总有一天|到时候|下辈子|"
    r"(?:^|[，。！？；,\s]|[我你他她]们?)以后(?!都|就|再也)|"
    # a condition said after its clause (房租再涨的话), a guess (估计得搬, 说不定, 或许), a weighing
    # (琢磨着, 寻思, 盘算, 纠结要不要), a wish (好想搬去, 真想换, 巴不得): none has happened
    r"的话|要不是|估计|说不定|或许|琢磨|寻思|盘算|纠结|要不要|希望|但愿|巴不得|恨不得|"
    r"(?:好|真|很|特|超|挺|老|总|我|也|还|一直|点)想(?![起到过法念象必通开])|差点|差一点|险些|"
    # a want said with its subject dropped, at a clause's start (想把安卓换成iPhone，…又回来了), or an
    # intent that did not hold (本想转行, 本来想搬, 原本打算)
    r"(?:^|[，。！？；,\s])想(?![起到过法念象必通开了来])|(?:本|原|原本|本来)想|"
    r"过(?:[一两几]个?)?(?:天|周|阵子|段时间)|回头|改天|"
    r"(?<![a-z'])(?:i wish|wish i|hoping|i hope|'d like to|would like to|dream(?:ing)? of|wanna|"
    r"tempted|debating|almost|nearly|in another life|in an ideal world)(?![a-z'])",
    re.I,
)
# A clause whose subject is an indefinite quantity announces news without naming what changed ("A
# lot's changed since last time", "Lots has been going on since then!", 最近发生了好多事): an opener
# of chat, not a change of anything said before (session 28: on LoCoMo's chats such openers made
# earlier greetings and plans history).
_ANNOUNCES = re.compile(
    r"^\W*(?:(?:so |oh |wow,? |well,? )?(?:a lot|lots|so much|much|tons|loads|everything|a bunch)"
    r"(?:'s| has| have| is| of (?:stuff|things))?\s+(?:been |happened|changed|going|new|happening)|"
    r"(?:最近|这阵子|这段时间)?(?:发生了|变了)?(?:好多|很多|太多)(?:事|变化)|(?:一切|什么)都变了)",
    re.I,
)
_TELLS_AFTER = re.compile(r"\s[-–—]+\s|[:：—]\s*")
# Not a lasting change: a one-off or a try ("for once I took the bus", 就这一次, 试了一次).
_ONCE = re.compile(
    r"(?<![a-z'])(?:for once|just this once|this one time|(?:tried|gave) [^.,;!?]{0,30} (?:once|a go|a try)|"
    # a deed of this very moment on a thing just named ("Calling her now.", "Doing it now."): the
    # "now" of an act, not of how things are (session 28: thanks lines on the companion set)
    r"[a-z]+ing (?:it|her|him|them|that|this) (?:right )?now)"
    r"(?![a-z'])|这一次|就这一次|破例|试了一次|试了一下|偶尔|现在就|这就去|马上就?去",
    re.I,
)
# A lapse of memory or a reminder ("forgot to book the pitch", "don't forget to remind me", 我把做饭
# 那事儿忘得一干二净, 别忘了提醒我): about doing something or not, never a new value of anything said
# before (issue 24: such a look-alike made an older session history). "Forgot to tell you, I've
# switched…" announces a change late and still reads as one.
_LAPSE = re.compile(
    r"(?<![a-z'])(?:forg[eo]t+(?:en)?|remind me)(?![a-z'])(?!\s+to\s+(?:tell|mention|say))|"
    r"忘(?![了记]?(?:说|告诉|跟你说|提))|提醒我",
    re.I,
)
# A change denied ("he's never going to change his mind", 永远不会改主意, 没换): nothing changed.
# 不会再 is a change ("我不会再喝了": quit), so it is not denied.
_DENIED = re.compile(
    r"(?<![a-z'])(?:(?:never|not|n't) (?:going to|gonna) change|won't change|never change[sd]?|"
    # "not upgrading though", "didn't switch", "won't be moving"
    r"(?:not|n't|never) (?:be )?(?:switch|upgrad|chang|swap|replac)[a-z]*)(?![a-z'])|"
    r"(?:不会|不可能|没有?|不肯)(?!再)[^，。！？；,]{0,2}[改换]",
    re.I,
)
# Both kept at once, however the switching between them is said ("alongside the climbing",
# "rotating between the two", 两台换着用): the earlier one is still in use.
_BOTH = re.compile(
    r"(?<![a-z'])(?:alongside|both|the two|between them|rotat[a-z]+|alternat[a-z]+)(?![a-z'])|"
    r"轮着|轮流|两[个支台辆家部张款样]?(?:都|一起|换着|轮)",
    re.I,
)
# A state for a bounded stretch only ("at my mum's while they fix the boiler", "the train for now,
# till friday", 咖啡先停了, 等…再回去): the usual comes back after it, so nothing is replaced. "This
# month" alone does not bound ("made six frogs this month" reports a new habit).
_BOUNDED = re.compile(
    r"(?<![a-z'])(?:for now|"
    r"for the (?:next|coming) [a-z0-9 ]{1,20}(?:days|weeks|months)|for (?:a|the) (?:few|couple of) "
    r"(?:days|weeks)|(?:till|until|til) (?:it|they|the|friday|monday|[a-z]+day|next|i|we|easter|"
    r"christmas|[0-9])|while (?:they|it|the|my|our|i'm|we're))(?![a-z'])|"
    r"暂时|等[^，。！？；,]{1,12}再|"
    r"[^，。！？；,]{0,6}前只能|先[^，。！？；,]{0,6}(?:停|不|用|去|住|坐)",
    re.I,
)
# One occasion, not a habit ("tonight I caught the other bulletin instead", 今晚换了个台): an
# occasion-bound "instead" or 换 is what happened once. Unless the words say it lasts (a state now,
# "anymore", 以后都, 再也) or the change cannot be undone by tomorrow (quit, sold, moved out; 辞, 卖).
_OCCASION = re.compile(
    r"(?<![a-z'])(?:today|tonight|this (?:morning|afternoon|evening|weekend|time)|yesterday|last night|"
    r"last weekend)(?![a-z'])|"
    r"今天|今晚|今早|今儿|昨天|昨晚|刚才|这个?周末|上个?周末|这次|这回|那次",
    re.I,
)
_LASTS = re.compile(
    r"(?<![a-z'])(?:now|these days|nowadays|anymore|any more|no longer|for good|from now on|"
    r"quit|sold|gave up|moved (?:out|house|flat|to)|broke up|resigned|handed in)(?![a-z'])|"
    r"现在|如今|以后都|再也|不再|从此|辞|卖|戒|搬家|搬到|分手|离职",
    re.I,
)
# The same thing said again ("yep still in Shoreditch", 还是在漕河泾, 照旧): a continuation restates
# the earlier value, whatever else the message goes on about ("the coffee machine finally got fixed").
_STILL = re.compile(
    r"(?<![a-z'])(?:still|as always|as usual|same as ever|same old)(?![a-z'])|"
    r"还是(?![^，。！？；,]{0,12}[吗吧呢？?])|还在|依然|依旧|仍然|照旧|照样|老样子|"
    # the same thing renewed, nothing new named ("换了条新的", "got a new one"): a worn part or a
    # broken one replaced by its like is not a new value
    r"换了?一?[个条只台张块件双部辆把副支]?新的(?=$|[，。！？；,.!?\s])|"
    r"(?<![a-z'])(?:got|bought|ordered|getting) a new one(?=$|[,.;!?\s]*$)",
    re.I,
)
# Someone's words quoted ("my friend said “I switched to Android”"): not the user's own change.
# Single quotes count after a word of saying ("keeps saying 'you should quit teaching'"), where an
# apostrophe cannot open them.
_QUOTED = re.compile(
    r"“[^”]*”|\"[^\"]*\"|「[^」]*」|‘[^’]*’|"
    r"(?<![a-z'])(?:say|says|said|saying|ask|asks|asked|asking|joke|jokes|joked|joking|goes|went|"
    r"tell|tells|told|telling|text|texted|wrote|reckons?)(?: me| us)?[,:]?\s+'[^']+'(?![a-z])",
    re.I,
)
# Advice, not a deed: "you should quit teaching", "I ought to switch" (not "should've": a change
# done late, "switched to Monzo, should've done it years ago").
_ADVICE = re.compile(r"(?<![a-z'])(?:should(?!'ve| have)|ought to)(?![a-z'])", re.I)
# An offer or a push to change, declined: "Waterstones offered me a role in Oxford but I said no",
# 4S店一直劝我置换新车，我没答应. The change words there are the offer's, and the user kept what was.
# Both must be there: "said no to sugar" alone is a quit.
_OFFER = re.compile(
    r"(?<![a-z'])(?:offered|offering|offers|tried to (?:talk|get|sell|convince|persuade|sign)|"
    r"trying to (?:talk|get|sell|convince|persuade|sign)|wanted me to|asked (?:me|if i) |"
    r"invited me|pitched|rang|called me|headhunt[a-z]*|recruiter)(?![a-z'])|"
    r"劝我|让我|推了|推荐|邀请|打电话|问我要不要|给我介绍|挖我|猎头|(?:想|要)(?:把|让|请|调)我",
    re.I,
)
_REFUSED = re.compile(
    r"(?<![a-z'])(?:said no|say no|saying no|turned (?:it|them|him|her|that|the [a-z]+ )?down|"
    r"turn(?:ed|ing)? (?:it |them |the offer |that )?down|i declined|declined (?:it|the|their|his|her|an?)|"
    r"(?:told|tell) (?:them|him|her|the [a-z]+) (?:i'm |i was |i am )?not interested|no thanks|"
    r"no thank you|passed on (?:it|that|the)|keeping (?:it|mine)|kept mine)(?![a-z'])|"
    r"拒了|拒绝|婉拒|回绝|没答应|没同意|不答应|不同意|没接受|不接受|说不用|挂了电话",
    re.I,
)
# A first go or a trial of something new, not yet a habit ("tried matcha for the first time", 试用了
# 一天, 尝了尝): unless the words say it lasts ("now", 现在, "quit").
_TRIAL = re.compile(
    r"(?<![a-z'])(?:for the first time|first time (?:trying|having)|free trial|on (?:a|the) trial|"
    r"trial (?:day|week|class|lesson|session))(?![a-z'])|"
    r"第一次|头一回|试用|试了试|尝了尝|尝了一下|尝鲜|体验了一下|体验课",
    re.I,
)
# A change had before, as experience (换过一次, 搬过三次家): what happened, not how things are now,
# even beside a "now" (扫地机器人已经用了两年，刷子换过一次).
_HAD = re.compile(r"(?:改|换|搬|转)过")
# Past experience told as a story: a verb with the experiential 过 (做过临时工，三天就辞了; 在北京待过一年),
# not 过 as a verb's own result (年检过了), a direction (过来) or in a word (不过, 难过, 经过).
_EXPERIENCED = re.compile(
    rf"(?<![不难经通超错路度越穿跨])(?<=[{cjk.IDEOGRAPHS}])过(?![了来去年日节])"
)


def _experienced(parts: list[str]) -> bool:
    """A clause up to the change's own tells an experience (做过临时工，三天就辞了): the change is
    part of that story. Not "not since" (自从改喝燕麦拿铁，胃就没再疼过: 没…过 is what has not
    happened since the change, which is a consequence, not a story)."""
    return any(_EXPERIENCED.search(p) and "没" not in p for p in parts)


# A change verb closed by 的 (两千块卖掉的, 去年搬来的): the 是…的 form tells when or how a past
# event happened, not that something changed now.
_EVENT_TOLD = re.compile(r"^[掉走来去完出]?的\W*$")
_PAST = re.compile(
    r"(?<![a-z'])(?:when i was|as a (?:kid|child|teen)|years ago|back then|in the old days|"
    r"growing up|used to|back (?:in|when)|in (?:high school|college|uni|university|grad school)|"
    r"at (?:uni|university|college)|as a student|in my (?:teens|twenties|thirties)|"
    # a time before a life stage: "before uni I worked in a call centre", "before I met Sam"
    r"before (?:uni|university|college|grad school|(?:the )?kids|i (?:met|moved|had|got|started|was))|"
    # a story remembered ("remember when I was temping…") or the first of a kind ("my first car was")
    r"remember when|remember that time|my first [a-z]+ (?:was|were))"
    r"(?![a-z'])|"
    # 想起, 记得: a story remembered; 第一辆车是…: the first of a kind, told as the past
    r"想起|记得|第一[辆个份台部只家][^，。！？；,]{0,4}是|"
    r"小时候|那时候|当年|以前(?![的那])|上学的时候|年轻的时候|那年|那会儿|岁的时候|曾经|当时|那阵子|"
    r"那几年|(?:大学|高中|初中|小学|读书|上学|毕业|研究生)(?:的时候|那会|时)",
    re.I,
)


@dataclass(frozen=True, slots=True)
class ChangeReading:
    """How a statement reads: ``cue`` the words that make it a change or a present replacement
    (None: it reads as neither), ``strong`` when they name the change itself ("quit", 换成), and
    ``blocked`` why it cannot replace anything of the user's ("addition", "unreal", "advice",
    "refused", "lapse", "once", "trial", "temporary", "restated", "past", "someone_else"), else
    None."""

    cue: str | None
    strong: bool
    blocked: str | None
    # what the clause of a present cue opens with, before the cue ("豆豆" in "豆豆现在胖得跟个球似的",
    # "Luna is" in "Luna is now sleeping on my keyboard"); empty for a named change
    topic: str = ""
    # the clause of the cue, and a clause beside a named change that says something again
    # ("还是做前端" after "我从星海辞职了"): what it restates is held, unless the change names it
    clause: str = ""
    restates: str = ""

    @property
    def change(self) -> bool:
        return self.cue is not None and self.blocked is None


def _someone_else(clause: str) -> bool:
    """The clause's subject is another person: "my brother switched…", "she moved", 我哥现在改…,
    or the one the user talks to ("You finally moved to Leeds!", "Congrats on the new job!", 恭喜你
    换了新工作)."""
    if _SECOND.match(clause) and not (_FIRST_EN.search(clause) or "我" in clause):
        return True  # unless the user is in it too: "Your advice worked: I switched to tea"
    if cjk_clause(clause):
        m = _OTHER_ZH.match(clause)
        if m is None:
            return False
        who = m.group("who")
        if who is not None and _NEIGHBOUR_ZH.match(clause[m.start("who") :]):
            return True
        # 我哥 says 哥哥 in one character: a doubled kin word counts from its first; and after 我
        # any kin word a list may not hold is known by its kin character (我表哥, 我小姨, 我二舅)
        return (
            who is None
            or any(who.startswith(p) for p in extract.PEOPLE)
            or who[0] * 2 in extract.PEOPLE
            or (clause.lstrip()[:1] == "我" and bool(_KIN_ZH.search(who[:2])))
        )
    m = _OTHER_EN.match(clause)
    if m is None:
        # a family word standing alone as the subject: "Dad's obsessed with…", "mum switched…"
        first = _BARE_EN.match(clause)
        return first is not None and first.group(1).lower() in _FAMILY
    who = m.group("who")
    # a possessive names the person too: "my sister's wedding is…" is the sister's news
    return who is None or any(
        w in extract.PEOPLE or w.rstrip("s") in extract.PEOPLE
        for w in who.lower().replace("’", "'").replace("'s", "").split()
    )


def cjk_clause(clause: str) -> bool:
    return cjk.has(clause)


def _users(clause: str) -> bool | None:
    """Whose the clause is: True the user's (an "I"/"we"/我), False someone else's, None when it
    names no subject (the clause goes on with the one before: "my sister quit and does spin now")."""
    if _someone_else(clause):
        return False
    if cjk_clause(clause):
        return True if "我" in clause else None
    if _FIRST_EN.search(clause):
        return True
    # "my flatmate went carnivore": a "my X" the people list does not name is taken for a person
    # (precision first: "my art goes on Bluesky now" is missed, someone else's news is not taken)
    return False if _OTHER_EN.match(clause) else None


# The speaker alone, cut from a subject of two at its "and": "me and my partner moved to York" is
# read as "me" and "my partner moved to York", which is the user's move too (updates_dev33).
_ME_ALONE = re.compile(r"^\W*(?:me|i|myself)\W*$", re.I)


def _owners(clauses: list[str]) -> list[bool]:
    """Each clause's owner: its own subject, else the previous clause's, else the speaker (Chinese
    often says no subject at all: "钢琴不学了"); the speaker with someone ("me and my partner") is
    the speaker."""
    out: list[bool] = []
    for i, clause in enumerate(clauses):
        mine = True if i and _ME_ALONE.match(clauses[i - 1]) else _users(clause)
        out.append(mine if mine is not None else (out[-1] if out else True))
    return out


def owned(clause: str) -> bool | None:
    """Whose one clause is by its own words: the user's (True), someone else's (False), or None
    when it names no one (xaid.memory.thing_news reads what else its subject may be)."""
    return _users(clause)


def unquoted(text: str) -> str:
    """The text without the words it quotes (someone else's words are not the user's change)."""
    return _QUOTED.sub(" ", text)


# The cue patterns, read by xaid.memory.thing_news for the clause that holds them.
STRONG_EN, NOW_EN, STRONG_ZH, NOW_ZH = _STRONG_EN, _NOW_EN, _STRONG_ZH, _NOW_ZH


def read(text: str) -> ChangeReading:
    """The change reading of one user statement."""
    text = _QUOTED.sub(" ", text)
    cue: str | None = None
    strong = False
    topic = ""
    parts = clauses(text)
    done_at: int | None = None  # the clause of a strong cue told as done
    cue_at = 0  # the clause of the cue read
    for at, (clause, users) in enumerate(zip(parts, _owners(parts), strict=True)):
        if _ANNOUNCES.match(clause):
            # "a lot has changed since we talked": news to come, nothing named changed; what follows
            # a dash or a colon is the news itself ("A lot's happened - I quit my job!")
            told = _TELLS_AFTER.split(clause, maxsplit=1)
            if len(told) < 2:
                continue
            clause = told[1]
        zh = cjk_clause(clause)
        s = (_STRONG_ZH if zh else _STRONG_EN).search(clause)
        if s is not None and zh and _EVENT_TOLD.match(clause[s.end() :]):
            s = None  # 两千块卖掉的: when a past event happened, not a change now
        n = (_NOW_ZH if zh else _NOW_EN).search(clause)
        if s is None and n is None:
            continue
        if not users:
            continue
        if s is not None and not strong:
            cue, strong, topic, cue_at = s.group(), True, "", at
            done_at = at if _done(clause, s) else None
        elif cue is None and n is not None and not _compares(clause, n):
            cue, topic, cue_at = n.group(), clause[: n.start()], at
    if cue is None:
        return ChangeReading(None, False, None)
    present = _RECALLING.sub(" ", text)
    now = bool(_NOW_EN.search(present) or _NOW_ZH.search(present))
    if _unreal(text, parts, done_at) or _DENIED.search(text):
        return ChangeReading(cue, strong, "unreal")
    if blocked := _not_done(text):
        return ChangeReading(cue, strong, blocked)
    if _LAPSE.search(text):
        return ChangeReading(cue, strong, "lapse")
    if (_ADDITION.search(text) and not strong) or _BOTH.search(text) or _ASIDE.search(text):
        return ChangeReading(cue, strong, "addition")
    if _ONCE.search(text) or (_OCCASION.search(text) and not _LASTS.search(text)):
        return ChangeReading(cue, strong, "once")
    if _TRIAL.search(text) and not _LASTS.search(text):
        return ChangeReading(cue, strong, "trial")
    if _BOUNDED.search(text):
        return ChangeReading(cue, strong, "temporary")
    still_at = next((i for i, c in enumerate(parts) if _STILL.search(c)), None)
    if still_at is not None and (done_at is None or still_at == done_at):
        return ChangeReading(cue, strong, "restated")
    if (_PAST.search(text) and not now) or _HAD.search(text):
        return ChangeReading(cue, strong, "past")
    if not now and _experienced(parts[: cue_at + 1]):
        return ChangeReading(cue, strong, "past")
    # beside a change named and told as done in a clause of its own, a "still" restates something
    # else ("我从星海辞职了……还是做前端": the kind of work); the pairing holds what it restates
    restates = parts[still_at] if still_at is not None else ""
    return ChangeReading(cue, strong, None, topic, parts[cue_at], restates)


# A change told as done: a Chinese clause with 了 after its change word (瑜伽课调到周四早上了), an
# English change word in the past ("moved", "sold", "gave up").
_PAST_CUE_EN = re.compile(
    r"(?:ed|left|sold|quit|gave up|given up|got rid of|broke up|split up)$", re.I
)
# What makes a later clause's words a condition on the change rather than what follows from it.
_CONDITION = re.compile(r"(?<![a-z'])(?:if|unless)(?![a-z'])|如果|要是|假如|假设|万一|的话", re.I)


# A present word whose clause compares ("现在排练强度大多了", "parking is way easier now") tells how
# something is by degree, not a new value of what the user said: the choir with a new conductor is
# still the user's choir. Only a bare present cue is read so; a named change still is one.
_COMPARED = re.compile(
    r"(?<![a-z'])(?:way|much|so much|a lot|loads|far|even) (?:[a-z]+er|more|less|better|worse)"
    r"(?![a-z'])|(?<![a-z'])(?:better|worse) than(?![a-z'])|[多些]了|得多|越来越|比以前|比原来",
    re.I,
)
# The end of the one an earlier statement named: a pet dies, a shop closes, a doctor retires, a
# phone is stolen ("Biscuit passed away in the spring", 饼干春天走了). That statement is then no
# longer true, whoever's deed it was and whether or not a new value follows.
_BARE_NOW = re.compile(r"now|these days|nowadays|现在|如今|目前|最近|这些天|这阵子|这段时间", re.I)


def _compares(clause: str, cue: re.Match[str]) -> bool:
    """The clause's present word is a bare "now" and the clause compares: how something is
    by degree. The former named as former ("比之前那家轻多了") still says the user changed."""
    return bool(_BARE_NOW.fullmatch(cue.group()) and _COMPARED.search(clause))


_ENDED = re.compile(
    r"(?<![a-z'])(?:died|passed away|passed on|(?:was|got) put (?:down|to sleep)|(?:was|got) stolen|"
    r"went bust|closed down|shut down|(?:closed|shut) for good|retired)(?![a-z'])|"
    r"走了|去世|过世|没了|死了|不在了|被偷了|丢了|倒闭|关门了|退休了",
    re.I,
)
_TITLE = re.compile(r"^(?:dr|mr|mrs|ms|miss)\.?\s+", re.I)


def ended(text: str, earlier: str) -> bool:
    """A clause of the statement opens with a name the earlier statement gave (after "my", "the",
    我家的, a title) and tells that one's end, not for a bounded stretch ("the pool is shut for two
    weeks"): the earlier statement is history."""
    text = unquoted(text)
    if _BOUNDED.search(text):
        return False
    known = _known(earlier)
    for clause in clauses(text):
        opening = _TITLE.sub("", _OWNER.sub("", clause.casefold(), count=1).lstrip())
        for name in known:
            if not opening.startswith(name):
                continue
            rest = opening[len(name) :].replace("’", "'")
            if (name.isascii() and rest[:1].isalpha()) or rest.startswith(("'s", "的")):
                continue  # another word, or something of that one's ("Biscuit's vet died")
            if _ENDED.search(rest):
                return True
    return False


def _done(clause: str, cue: re.Match[str]) -> bool:
    if cjk_clause(clause):
        return "了" in clause[cue.start() :]
    return bool(_PAST_CUE_EN.search(cue.group()))


def _unreal(text: str, parts: list[str], done_at: int | None) -> bool:
    """Whether the statement's words of the unreal (a plan, a wish, a condition) touch its change.
    After a change told as done, a later clause's future is what follows from it, not a plan for
    it ("瑜伽课调到周四早上了，以后得六点半起": the class did move; "sold the car, gonna bus it
    from tomorrow"); a condition said after it still makes it one ("I'd switch, if…")."""
    if done_at is None:
        return bool(_UNREAL.search(text))
    return any(
        _UNREAL.search(clause) and (at <= done_at or _CONDITION.search(clause))
        for at, clause in enumerate(parts)
    )


def _not_done(text: str) -> str | None:
    """Why the change words are not the user's deed though the clause is theirs: advice ("you
    should quit teaching", the words of whoever gives it) or an offer the user declined
    ("they offered me X, I said no", 劝我换…我没答应)."""
    if _ADVICE.search(text):
        return "advice"
    if _OFFER.search(text) and _REFUSED.search(text):
        return "refused"
    return None


# The user as the doer of a change verb: nothing before it in its clause but time words, or an
# I/we/我 ("Sold my violin", "we finally packed up and left", 上个月我退了).
_DOER = re.compile(
    r"^\W*$|(?<![a-z'])(?:i|we|i've|we've|i'm|we're|i'd|we'd)(?![a-z'])|我(?!们的|的|家)|"
    r"^\W*(?:上个?月|上周|去年|今年|前阵子|前几天|最近|后来|刚|已经|早就|终于)\W*$",
    re.I,
)
# What may stand between a verb of change and its object: "left leeds", "sold my violin", "closed
# the old account", "done with arsenal", "cancelled all my subscriptions".
_DETERMINERS = re.compile(
    r"^(?:\s+(?:my|our|the|all|of|a|an|his|her|their|old|whole|that|this|it))*\s+"
)


def changed(text: str) -> list[str]:
    """What the user's own named change acts on: the words right after the verb when the user is
    its subject ("we finally packed up and left leeds last month" → "leeds last", "cancelled my gym
    membership" → "gym membership", 我上个月退了健身卡 → 健身卡). Not the thing a clause opens with
    (楼下面包房换老板了: the bakery's own news, no change of the user's). Empty when the statement is
    no change of the user's or names none."""
    reading = read(text)
    if not reading.change or not reading.strong:
        return []
    out: list[str] = []
    parts = clauses(_QUOTED.sub(" ", text))
    for clause, users in zip(parts, _owners(parts), strict=True):
        if not users:
            continue
        zh = cjk_clause(clause)
        for m in (_STRONG_ZH if zh else _STRONG_EN).finditer(clause):
            if not _DOER.search(clause[: m.start()]):
                continue
            if zh:
                out.append(clause[m.end() : m.end() + 6])
            else:
                rest = clause[m.end() :]
                lead = _DETERMINERS.match(rest)
                out.append(" ".join(rest[lead.end() if lead else 0 :].split()[:2]))
    return [o for o in out if o.strip()]


# The bare words of "now" in Chinese (现在, 最近, 已经…了): they date a statement, they name no change.
_TIME_ZH = re.compile(r"现在|如今|最近|目前|这些天|这阵子|这段时间|已经")
_HABIT_ZH = re.compile(r"都|全|只|基本|一般|平时|每天|天天")
# What a Chinese statement opens with before its own topic: the speaker or the household.
_OPENING_ZH = re.compile(r"^\W*(?:我们家的?|我家的?|我们的?|我的?)")
# Where a change leads: "moved to Toronto", "switched back to Spotify"; 搬到上海, 换回安卓
_DESTINATION_EN = re.compile(
    r"(?<![a-z])(?:moved|moving|came|went|switched|going) (?:back )?to\s+(?:the\s+)?([A-Z][A-Za-z0-9'-]+)"
)
# a move or a going back only: 改成/换成 are followed as often by when (改成每天喝…) as by what
_DESTINATION_ZH = re.compile(rf"(?:搬到|搬回|搬来|回到|换回|改回)([{cjk.IDEOGRAPHS}]{{2}})")
_OWNER = re.compile(r"^\W*(?:(?:my|our|the)\s+|我们?家的?|我的)", re.I)
# A being named in a statement: 叫豆豆, 名叫大黄, "named Rolo", "called Pip", and a name set beside its
# noun ("my cat Luna", "our dog Biscuit", "my son Leo").
_NAMED = re.compile(
    rf"(?:叫做?|名叫|名字是)(?P<zh>[{cjk.IDEOGRAPHS}]{{2}})|(?<![a-z])(?:named|called)\s+(?P<en>[A-Z][a-z'-]+)|"
    r"(?<![A-Za-z])(?:[Mm]y|[Oo]ur)\s+(?:[a-z]+\s+){1,2}(?P<app>[A-Z][a-z'-]+)"
)


def names(text: str) -> set[str]:
    """The names a statement gives to someone or something of the user's (a pet, a child)."""
    found = {
        (m.group("zh") or m.group("en") or m.group("app")).casefold() for m in _NAMED.finditer(text)
    }
    return {n for n in found if not n.isascii() or (len(n) > 2 and n not in stopwords.ENGLISH)}


def describes(text: str, earlier: str) -> bool:
    """The statement's present words are about the very one the earlier statement named or had
    ("豆豆现在胖得跟个球似的" after "我养了一只柯基叫豆豆", "Luna is now sleeping on my keyboard" after
    "My cat Luna is a tabby", "望京这边现在房租涨得离谱" after "我住在望京"): it tells how that one is
    now, so the earlier statement still holds. Only a bare present cue with that one before it
    counts; a named change ("Sam moved away") still replaces. Or the change leads to what the
    earlier statement already holds ("I moved to Toronto from Calgary" after "I live in Toronto",
    搬到上海三年了 after 我住在上海): the same value said again."""
    reading = read(text)
    if reading.strong:
        return _arrives_at_earlier(text, earlier)
    if not reading.topic or reading.cue is None:
        return False
    topic = reading.topic.casefold()
    if cjk.has(topic) and _TIME_ZH.match(reading.cue):
        # Chinese says the topic first: "望京这边现在房租涨得离谱", "鹦鹉最近学会说你好了". When the
        # topic is what the earlier statement said the user has or uses (not its own opening
        # topic: 我在字节上班, 我养了两只鹦鹉), the words tell how that one is now. The earlier
        # statement's opening topic (我们家电费是用支付宝交的 → 电费现在走微信了, 我早饭吃油条 →
        # 早饭现在吃包子了) names the kind, and the rest gives it a new value; so does a habit said
        # anew (视频现在基本都在抖音刷了, 外卖现在都在美团点: all, only, mostly).
        held = _OPENING_ZH.sub("", earlier.strip(" 。！？.!?"), count=1)
        value = set(cjk.pairs(held[1:], stopwords.CJK_PAIR))
        shared = value & set(cjk.pairs(topic, stopwords.CJK_PAIR))
        rest = text[text.find(reading.cue) :]
        if shared and not _HABIT_ZH.search(re.split(r"[，。！？；,!?;]", rest)[0]):
            return True
    # a name opens the clause: "Luna is now…", "Pepper's now…", 豆豆现在… (after 我家的, "my")
    opening = _OWNER.sub("", topic.replace("’", "'"), count=1).lstrip()
    return any(
        (opening.startswith(n) and not opening[len(n) :][:1].isalpha())
        or (not n.isascii() and opening.startswith(n))
        for n in _known(earlier)
    )


def _known(earlier: str) -> set[str]:
    """The names the earlier statement gave or wrote, without a possessive 's."""
    return {name.removesuffix("'s") for name in names(earlier) | _proper(earlier)}


def _arrives_at_earlier(text: str, earlier: str) -> bool:
    """A change whose destination the earlier statement already names ("moved to Toronto" after
    "I live in Toronto"; 搬到上海 after 我住在上海): nothing of it changed."""
    known = _known(earlier)
    for m in _DESTINATION_EN.finditer(text):
        if m.group(1).casefold() in known:
            return True
    held = set(cjk.pairs(_OPENING_ZH.sub("", earlier, count=1), stopwords.CJK_PAIR))
    return any(m.group(1) in held for m in _DESTINATION_ZH.finditer(text))


def _proper(text: str) -> set[str]:
    """The words an English statement writes capitalised after its first word: the names of what
    the user has or uses ("I work at Amazon", "I drive a Subaru Outback")."""
    found = re.findall(r"(?<=[a-z0-9,] )([A-Z][A-Za-z0-9'-]+)", text)
    return {w.casefold() for w in found if w.casefold() not in stopwords.ENGLISH and len(w) > 2}


def reads_other(text: str) -> str | None:
    """Why a statement with no cue of its own cannot replace the user's earlier one either (the same
    blockers, for the pairs the model is asked about): None when nothing blocks it."""
    text = _QUOTED.sub(" ", text)
    if _ONCE.search(text) or (_OCCASION.search(text) and not _LASTS.search(text)):
        return "once"
    if _BOUNDED.search(text):
        return "temporary"
    if _STILL.search(text):
        return "restated"
    if _UNREAL.search(text) or _DENIED.search(text):
        return "unreal"
    if blocked := _not_done(text):
        return blocked
    if _TRIAL.search(text) and not _LASTS.search(text):
        return "trial"
    if _LAPSE.search(text):
        return "lapse"
    if _ADDITION.search(text) or _BOTH.search(text) or _ASIDE.search(text):
        return "addition"
    if _PAST.search(text) or _HAD.search(text):
        return "past"
    if not _NOW_ZH.search(text) and _experienced(clauses(text)):
        return "past"
    if not any(_owners(clauses(text))):
        return "someone_else"
    return None


# When one thing happened, said of it: "yesterday", "last Friday", "the other day", 昨天, 上周末.
_DATED = re.compile(
    r"(?<![a-z'])(?:last (?:week|month|year|(?:mon|tue|tues|wed|wednes|thu|thur|thurs|fri|sat|satur|sun)"
    r"(?:day)?|summer|spring|autumn|fall|winter)|the other (?:day|night|week)|"
    r"(?:a|two|three|few|couple of) (?:days|weeks) ago|on (?:mon|tues|wednes|thurs|fri|satur|sun)day)"
    r"(?![a-z'])|"
    r"前天|前几天|上周|上个?星期|上个?礼拜|上个?月|去年|那天|周[一二三四五六日末]那天",
    re.I,
)
# A habit or a standing state, which a date does not bind: "every", "usually", 每, 平时, 经常.
_HABIT = re.compile(
    r"(?<![a-z'])(?:every|usually|always|normally|most (?:days|weeks|mornings|evenings|nights)|"
    r"each (?:day|week|morning)|often|regularly|"
    # a weekday or a part of the day in the plural recurs: "on Wednesday nights", "Sundays"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days|mornings|afternoons|evenings|nights|weekends)"
    r"(?![a-z'])|每|平时|一般|经常|常常|总是|一直|通常",
    re.I,
)


def episode(text: str) -> bool:
    """The statement tells one happening with its day ("I went to a support group yesterday",
    "we had a picnic at the lake last Friday", 昨天去看了个画展): a record of that day, which nothing
    said later makes untrue, so no later statement replaces it. Not when the user's own clause names
    a change (a move or a quit dates the state it begins: "moved to Leeds last month", 上个月搬到杭州
    了) or it is a habit ("every Friday"). A word of now beside the day ("did something new last
    weekend", "lately") still tells the happening: LoCoMo's chats are full of them."""
    if not (_OCCASION.search(text) or _DATED.search(text)) or _HABIT.search(text):
        return False
    reading = read(text)
    return not (reading.change and reading.strong)


# A correction of what was just said: "actually", "scratch that", "wait no", 不对, 说错了, 其实.
_CORRECTION = re.compile(
    r"(?<![a-z'])(?:actually|scratch that|wait,? no|i mean|correction|not anymore)(?![a-z'])|"
    r"不对|说错了|其实|更正|纠正一下",
    re.I,
)


def corrects(text: str) -> bool:
    """The statement corrects or updates what the speaker said a moment ago (within one session
    that, or a named change, is what makes an earlier statement history)."""
    return bool(_CORRECTION.search(text))
