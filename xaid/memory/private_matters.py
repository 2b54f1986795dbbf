"""Whether a matter someone told reads as private (a diagnosis, a debt, an arrest) or everyday.

People ask a companion to forget what is not theirs to share or what hurts: "the Marcus stuff, it's
his business", 阿杰那事你别记了，是他的隐私. When the person they name is in two matters, one
private and one everyday (his panic attacks; the donuts he brought), the request's other words are
often too vague to choose ("stuff", 那事, "his personal life"): under the multilingual embedder
"stepmom's health" is nearer "my stepmom made her lasagna" than "my stepmom found a lump", because
the name fills a short line. Before this the daemon forgot the donuts.

What a friend knows is what kind of matter each is. Two banks of prototypes, situations and not
phrasings, in both languages: private matters (an illness told in confidence, a debt kept from the
family, an arrest, a marriage coming apart, a miscarriage, a job lost in secret) and everyday
mentions of a person (a dinner cooked, a drill lent, a haircut, a promotion). A turn's lead is how
much nearer the first bank than the second (``meaning.Contrast``); a matter's is its turns' highest.

Read on the train halves of the forget dev sets that put a person in two matters (forgets_dev5, 6,
10, 12, 13, 14, 15 and 32): the everyday matters read at most +0.07, all but four below +0.03
(two of those four a mother in hospital, private after all), the private ones mostly from +0.05;
82 of 93 pairs lead the everyday one by more than 0.05
(``python -m perf forget_dev32``). Pure: the caller embeds the bank once (``Embeddings.bank``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..mood.meaning import Written

FITTED_ON = "use"  # the embedder the cuts were read under (embed/profiles.py)
CUT = 0.05  # a matter leading by this much or more reads private, by less everyday
PRIVATE_MARGIN = 0.1  # a private matter chosen over an everyday one leads it by this much

PRIVATE = (
    "she told me in confidence that she is seriously ill",
    "he has been secretly drowning in debt",
    "their marriage is falling apart",
    "he was arrested and the family is keeping it quiet",
    "she has depression and has been seeing a therapist",
    "he lost his job and hasn't told anyone",
    "she had a miscarriage",
    "he has a drinking problem again",
    "he got caught stealing money at work",
    "she is pregnant and hasn't told anyone yet",
    "he cheated on his partner",
    "she is being investigated for fraud",
    "她私下跟我说她查出了重病",
    "他欠了一大笔钱，一直瞒着家里",
    "他们俩的婚姻快撑不下去了",
    "他被警察带走了，家里人都不让说",
    "她有抑郁症，一直在看心理医生",
    "他被公司开除了，谁都没告诉",
    "她流产了",
    "他酗酒的毛病又犯了",
    "他在单位偷钱被抓了",
    "她怀孕了，还没告诉任何人",
    "他出轨了",
    "她因为诈骗被调查",
)
EVERYDAY = (
    "she cooked dinner for us and it was delicious",
    "he lent me his drill",
    "we went hiking together at the weekend",
    "she got a new haircut",
    "he recommended a good book",
    "we watched a movie at her place",
    "he helped me move the sofa",
    "she is coming to visit next week",
    "he beat me at cards again",
    "she brought snacks to the office",
    "he got promoted, well deserved",
    "we had coffee and talked about travelling",
    "她给我们做了顿饭，很好吃",
    "他借了我一把电钻",
    "周末我们一起去爬山了",
    "她剪了个新发型",
    "他推荐了一本好书",
    "在她家看了部电影",
    "他帮我搬了沙发",
    "她下周来玩",
    "他打牌又赢了我",
    "她带了零食来办公室",
    "他升职了，实至名归",
    "我们喝了咖啡，聊旅行",
)
BANK = Written(PRIVATE, EVERYDAY)


def private_one(leads: Sequence[float]) -> int:
    """Of a person's matters (``leads``: each matter's lead, the seed's first), the one private
    matter a request means when the seed's reads everyday; 0 (keep the seed's) when the seed's is
    not everyday, when none reads private, or when more than one does (which is for the request's
    words, or a question back, to say)."""
    if not leads or leads[0] >= CUT:
        return 0
    private = [
        k for k in range(1, len(leads)) if leads[k] >= CUT and leads[k] - leads[0] >= PRIVATE_MARGIN
    ]
    return private[0] if len(private) == 1 else 0
