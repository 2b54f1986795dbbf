"""Whether a user's utterance leaves a matter a friend would follow up: a small learned reader.

Arming began as rules over word lists (arm.py: an event word of EVENTS_EN/EVENTS_ZH with a date
ahead, a worry word, a strong closing low). People say "tmrw's the big day", "周五要去见家长", "my
kid's had a fever since tuesday", "房东非要扣押金": no list names the matter, and on the second held-out
Morning scenes the scheduler armed a suggestion in 3 of 20 scenes that should raise theirs
(perf/RESULTS.md). A person does not need a list: an ordeal under way, something ahead, results
awaited, a decision pending read as such whatever their words. So the decision is learned
(DESIGN.md 3c, "Generalise, do not enumerate").

The reader is a softmax over three labels per utterance, ``matter`` (a friend asks about it next
time), ``loss`` (a death, a break-up, a grave diagnosis: never a "how did it go") and ``none``
(errands, small talk, finished things, jokes, hypotheticals, other people's trivia). Its inputs are
the utterance's unit vector under the daemon's embedder, standardised, and the cues of ``cues``:
general shapes of how a matter is said (a date ahead, the future, something still going on, a
worry or a low mood as the mood rules read it, a decision left open) and of the look-alikes (done
and dusted, good news, a hypothetical, a joke, an errand, a question for the companion, someone else's news).
The cues do not decide; the weights say how much each counts.

The weights are fitted by ``python -m perf.eval.checkin_fit`` on the train half of
perf/scenarios/checkin_dev.json (and the older dev material it names) into ``checkin_model.npz``
beside this module, with the threshold for arming chosen there for no intrusive arming on the
train half's out-of-fold readings. They belong to one embedder (``Reader.embedder``): under another
the reader is not used and the rules alone arm, as before. Pure: the caller embeds.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import clock
from ..mood.classifier import RuleClassifier
from ..mood.meaning import LOSS_MARGIN
from ..text import timeparse
from ..text.fold import fold
from .evening import ORDINARY

MODEL_PATH = Path(__file__).with_name("checkin_model.npz")
# The user's lines are read together (Readings.session) only while they are a short exchange: a long
# session's vector averages everything said in it, and its quote would be its first lines only.
SESSION_CHARS = 400
LABELS = ("matter", "loss", "none")

# A time ahead said as a word ("tomorrow", "下周", "the 18th") or a future form.
_FUTURE = re.compile(
    r"\b(?:will|gonna|going to|'ll|about to|tmrw|tmr|tomorrow|tonight|next|upcoming|coming up|due|soon"
    r"|this (?:week(?:end)?|mon|tue|wed|thu|fri|sat|sun)\w*|on (?:mon|tue|wed|thu|fri|sat|sun)\w*"
    r"|in (?:a|two|three|\d+) (?:days?|weeks?|months?)|the \d+(?:st|nd|rd|th))\b"
    r"|明天|后天|明早|明晚|今晚|下周|下个?礼拜|下个?月|下星期|周[一二三四五六日天末]|星期[一二三四五六日天]"
    r"|\d+号|就要|快要|马上|即将|准备|打算|要去|要做|之前要|前要|这几天|就这"
)
# Something still going on: "still", "since tuesday", "all week", "again", 还没, 一直, 反复, 三天了.
_ONGOING = re.compile(
    r"\b(?:still|again|since|all week|for (?:\d+|a|two|three) (?:days?|weeks?|months?)|keeps?|kept"
    r"|been \w+ing|waiting|hasn't|haven't|not yet|yet|in and out|back and forth|every night|all night)\b"
    r"|还没|一直|又|反复|[天周月]了|等着?|还在|连着?|每晚|每天|好几|扯皮|吵了|待命"
)
# A decision left open: "should I", "whether", "can't decide", 要不要, 纠结, 该不该.
_OPEN = re.compile(
    r"\b(?:should i|whether|can't decide|cant decide|dunno if|don't know if|idk if|or stay|thinking about"
    r"|sleep on it|flip-?flop\w*)\b|要不要|纠结|该不该|还是|想想|不知道怎么|咋办|怎么办"
)
# Fear or nerves said outright.
_WORRY = re.compile(
    r"\b(?:worr\w*|nervous|scared|afraid|anxious|terrified|dread\w*|freaking out|panic\w*|pray|fingers"
    r" crossed|not great|can't sleep|cant sleep)\b|担心|紧张|害怕|焦虑|慌|不安|睡不着|不妙|祈祷|没底|求"
)
# Done and dusted: "finally", "went great", "made it", "all sorted", 搞定, 过了, 终于.
_DONE = re.compile(
    r"\b(?:finally|finished|done|went (?:well|great|fine|ok)|made it|sorted|fixed|passed|nailed"
    r"|on the spot)\b|搞定|过了|终于|完啦|完了|顺利|赶上了|修好"
)
# A hypothetical or a wish: "if I won", "imagine", 要是, 假如.
_HYPOTHETICAL = re.compile(
    r"\b(?:if i|if someone|hypothetically|imagine|i'd|would)\b|要是|假如|如果|假设"
)
_JOKE = re.compile(r"\b(?:lol|lmao|haha\w*|jk)\b|哈哈|笑死|😂|🤣")
# An errand: something to fetch, buy, return or book, the stuff of a to-do list.
_ERRAND = re.compile(
    r"\b(?:pick up|buy|grab|return|book a|the shops|groceries|milk|laundry|haircut|ink)\b"
    r"|买|顺路|还了|超市|剪个?头|取快递|洗衣服"
)
# A question for the companion, not a matter of the user's: "what's a good…", "explain", 怎么算.
_ASKS_US = re.compile(
    r"\b(?:can you|could you|explain|remind me|what's a|what should|how do|what is|thoughts)\b"
    r"|怎么算|是什么|哪来着|取什么|吃啥|怎么样[？?]?$"
)
# Someone else's news, told from a distance: "apparently", "my coworker's cousin", 据说, 邻居家.
_OTHERS = re.compile(
    r"\b(?:apparently|says his|says her|my (?:coworker|neighbou?r|brother|sister|friend)'s)\b"
    r"|据说|听说|邻居家|同事\w*家|说他的|说她的"
)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|me|my|we|we're|our|us)\b|我")
_MOOD = RuleClassifier()
CUE_NAMES = (
    "ahead",
    "future",
    "ongoing",
    "open",
    "worry",
    "low",
    "glad",
    "tired",
    "question",
    "done",
    "hypothetical",
    "joke",
    "errand",
    "asks_us",
    "others",
    "first_person",
    "long",
)


def ahead(text: str, ts_ms: int) -> bool:
    """A date after today is named ("on the 18th", "下周二"): something is ahead."""
    ref = timeparse.earliest_future(timeparse.find_times(text, ts_ms))
    return ref is not None and ref.date_from > clock.local(ts_ms).date()


def done(text: str) -> bool:
    """Done and dusted ("went well", "made it", 搞定, 顺利): the cue the reader weighs, read alone by
    the scheduler's retiring of a matter already told (retire.py)."""
    return bool(_DONE.search(fold(text)))


def still_on(text: str) -> bool:
    """The words say a matter is still going on or still feared ("still nervous about the
    interview", 面试还是好紧张): the reader's cues of something ongoing and of a worry, read alone by
    the scheduler's retiring (retire.py), where such a clause keeps its matter armed."""
    low = fold(text)
    return bool(_ONGOING.search(low) or _WORRY.search(low))


def cues(text: str, ts_ms: int) -> np.ndarray:
    """The utterance's shape, one 0/1 (or 0..1) value per name of ``CUE_NAMES``."""
    low = fold(text)
    mood = _MOOD.classify(text)
    values = (
        ahead(text, ts_ms),
        bool(_FUTURE.search(low)),
        bool(_ONGOING.search(low)),
        bool(_OPEN.search(low)),
        bool(_WORRY.search(low)),
        mood.valence <= -0.3,
        mood.valence >= 0.3,
        mood.fatigue >= 0.4,
        "?" in low or "？" in low or low.endswith("吗"),
        bool(_DONE.search(low)),
        bool(_HYPOTHETICAL.search(low)),
        bool(_JOKE.search(low)),
        bool(_ERRAND.search(low)),
        bool(_ASKS_US.search(low)),
        bool(_OTHERS.search(low)),
        bool(_FIRST_PERSON.search(low)),
        min(1.0, len(low) / 60),
    )
    return np.array([float(v) for v in values])


@dataclass(frozen=True, slots=True)
class Read:
    """The reader's probabilities for one utterance."""

    matter: float
    loss: float
    none: float


@dataclass(frozen=True, slots=True)
class Reader:
    """The fitted weights: the utterance's unit vector standardised by ``mean``/``scale``, then
    ``cue_gain`` times ``cues``; one softmax row per label of ``LABELS``. ``threshold``: the
    ``matter`` probability from which a matter is armed; ``loss_floor``: below this ``loss``
    probability a loss read by meaning alone (the prototypes, not the rules) is not taken for one."""

    embedder: str
    mean: np.ndarray
    scale: np.ndarray
    cue_gain: float
    weights: np.ndarray  # (labels, dims + cues)
    bias: np.ndarray  # (labels,)
    threshold: float
    loss_floor: float

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> Reader:
        with np.load(path) as data:
            labels = tuple(str(x) for x in data["labels"])
            names = tuple(str(x) for x in data["cues"])
            if labels != LABELS or names != CUE_NAMES:
                raise ValueError(f"{path}: fitted for labels {labels} and cues {names}")
            return cls(
                str(data["embedder"]),
                data["mean"].astype(np.float64),
                data["scale"].astype(np.float64),
                float(data["cue_gain"]),
                data["weights"].astype(np.float64),
                data["bias"].astype(np.float64),
                float(data["threshold"]),
                float(data["loss_floor"]),
            )

    def save(self, path: Path, about: str) -> None:
        """Written by the fit script; ``about`` (what it was fitted on) is kept beside the weights."""
        np.savez_compressed(
            path,
            labels=np.array(LABELS),
            cues=np.array(CUE_NAMES),
            embedder=np.array(self.embedder),
            mean=self.mean.astype(np.float32),
            scale=self.scale.astype(np.float32),
            cue_gain=np.float32(self.cue_gain),
            weights=self.weights.astype(np.float32),
            bias=self.bias.astype(np.float32),
            threshold=np.float32(self.threshold),
            loss_floor=np.float32(self.loss_floor),
            about=np.array(about),
        )

    def read(self, vector: np.ndarray, text: str, ts_ms: int) -> Read:
        """The probabilities for an utterance ``text`` said at ``ts_ms`` whose vector is ``vector``."""
        return self.read_features(features(vector, cues(text, ts_ms), self))

    def read_features(self, x: np.ndarray) -> Read:
        z = self.weights @ x + self.bias
        p = np.exp(z - z.max())
        p /= p.sum()
        return Read(float(p[0]), float(p[1]), float(p[2]))


def unit(vector: np.ndarray) -> np.ndarray:
    v = np.asarray(vector, dtype=np.float64)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def features(vector: np.ndarray, shape: np.ndarray, reader: Reader) -> np.ndarray:
    """What the reader reads: the unit vector standardised, then the cues times their gain."""
    return np.concatenate([(unit(vector) - reader.mean) / reader.scale, reader.cue_gain * shape])


@functools.cache
def default() -> Reader | None:
    """The packaged reader, loaded once per process; None when the file is absent."""
    return Reader.load() if MODEL_PATH.exists() else None


@dataclass(frozen=True, slots=True)
class Part:
    """One sentence of a user message that holds several, read on its own: a matter said as an
    aside ("finished the show lol. lowkey worried about the letter from my landlord tho. anyway")
    is diluted in the message's vector (morning_dev3: the message 0.47, its middle sentence 0.77)."""

    message_id: int
    text: str
    read: Read


@dataclass(frozen=True, slots=True)
class Readings:
    """The reader's probabilities for a session's user messages, by message id, with the reader's
    ``threshold`` and ``loss_floor``: what arming (arm.matters) weighs beside its rules. ``parts``:
    the sentences of messages with more than one, read alone; ``session``: the user's messages read
    together (a matter said over several messages, "So Leeds came back with an offer…" then "They
    want an answer soon and I keep flip flopping": 0.05 and 0.27 alone, 0.58 together)."""

    by_id: dict[int, Read]
    threshold: float
    loss_floor: float
    # The session's feeling as the mood reader carries it (mood/learned.py) is a strong low
    # (``learned.grieving``): then a loss read by meaning is not doubted (``loss_doubted``).
    grieving: bool = False
    # The messages a clause of which, read alone, tells of a loss (``told_in_clause``): "奶奶昨夜睡梦中
    # 走了，明天跟殡仪馆的人商量后事" reads 0.04 loss and 0.96 matter whole (the date ahead outweighs
    # the death), its first clause 0.73 loss. A loss, never doubted (issue 24 item 6).
    told: frozenset[int] = frozenset()
    # The messages meaning reads as far from a loss (the prototypes' margin at most -LOSS_MARGIN):
    # a rule word of a death used for a thing, "my phone died and I lost all my photos" (-0.10), is
    # no loss to arm, and would hold every earlier matter back (fire.held_back) (issue 24 item 6).
    unlike: frozenset[int] = frozenset()
    # The messages meaning reads near a loss but nearer a worry still open (mood/meaning.py's OPEN:
    # an operation ahead, a pet gone missing, loneliness), see ``open_worry``.
    open: frozenset[int] = frozenset()
    parts: tuple[Part, ...] = ()
    session: Read | None = None
    # The messages whose meaning is an occasion a friend asks about afterwards (occasion.py: a
    # first day, a lesson, a session at the gym), not routine: with a date ahead, a plan.
    occasions: frozenset[int] = frozenset()
    # How much nearer an ordinary evening than anything a friend follows up (evening.py: PLAIN); at
    # evening.ORDINARY and more nothing meaning alone found is armed. None when not read.
    ordinary: float | None = None
    # The messages the chat model says tell of something still alive and with them, asked where
    # the readers disagree (``contested``): a worry, not a loss.
    alive: frozenset[int] = frozenset()
    # The chat model, weighing the whole session once where nothing else armed (weighed.py), says
    # it leaves a matter: armed though below ``threshold`` (arm._weighed says which words).
    weighed_open: bool = False
    # The agent lost someone within fire.FRESH_GRIEF_MS before this session (a loss item still
    # pending or asked): a line read near a loss is that grief going on, not grave news still open
    # (arm._learned: "把它的碗和猫爬架都收起来了 看着难受" the day after the cat died).
    mourning: bool = False
    # The clauses of the user's lines that say only how they feel (telling.FELT: "气到睡不着", "心脏砰砰
    # 跳"), and those that tell what happened (telling.TELLS): a matter's words that hold one that
    # tells are quoted from the first clause that is no such feeling (arm._matter).
    felt: frozenset[str] = frozenset()
    tells: frozenset[str] = frozenset()
    # The first clauses of a text that only lead into it (telling.asides: "破防了", "有个事只想跟你说"),
    # by the text they lead into (each user line, and the lines joined as arm.py quotes a matter
    # told over several): a matter's words are quoted from after them (arm._matter).
    asides: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # The session says how they feel and nothing of what happened (telling.Told.alone: "还是睡不着 心口堵得
    # 慌"): a matter meaning finds in it is the feeling about one still waiting (fire.after_session).
    felt_alone: bool = False

    def best(self) -> float:
        """The reader's highest matter reading of the session: a message, a sentence of one, or the
        messages together."""
        reads = [*self.by_id.values(), *(p.read for p in self.parts)]
        reads += [self.session] if self.session is not None else []
        return max((r.matter for r in reads), default=0.0)

    def plain(self) -> bool:
        """The session reads as an ordinary evening (evening.ORDINARY nearer it than anything to
        follow up)."""
        return self.ordinary is not None and self.ordinary >= ORDINARY

    def matter(self, message_id: int | None) -> float:
        read = self.by_id.get(message_id) if message_id is not None else None
        p = read.matter if read is not None else 0.0
        return max(p, self.threshold) if self.open_worry(message_id) else p

    def open_worry(self, message_id: int | None) -> bool:
        """Meaning reads the message near a loss but nearer a worry still open, and the reader is
        not sure of a loss (less than CLAUSE_LOSS): no loss, and a matter a friend asks about ("any
        news of the cat?") though the reader, fitted with few of them, reads less than its
        threshold ("our cat slipped out last night and hasn't come back": 0.37 matter, 0.62 loss).
        A pet's death said softly sits near a pet gone missing ("猫咪昨晚没挺过来": 0.11 nearer the
        open worries); the reader's 0.97 loss keeps it a loss. Not in the days after a loss
        (``mourning``): "把它的碗和猫爬架都收起来了" the day after the cat died sits near a pet gone
        missing too, and is that grief."""
        if message_id not in self.open or self.mourning:
            return False
        read = self.by_id.get(message_id)
        return read is None or read.loss < CLAUSE_LOSS

    def sentences(self, message_id: int | None) -> tuple[Part, ...]:
        """The message's sentences read alone (none when it has only one)."""
        return tuple(p for p in self.parts if p.message_id == message_id)

    def rule_vetoed(self, message_id: int | None) -> bool:
        """A loss the rules' words read (not a close person's death, ``loss.losses``) that meaning
        puts far from one, unless the session is ``grieving``: as ``mood.loss.is_loss`` vetoes it."""
        return message_id in self.unlike and not self.grieving

    def session_sure(self) -> bool:
        """The user's messages read together leave a matter (at least ``threshold``)."""
        return self.session is not None and self.session.matter >= self.threshold

    def loss_doubted(self, message_id: int | None) -> bool:
        """The reader gives a loss less than ``loss_floor``, or is surer of a matter (at least
        ``threshold``) than of a loss: a loss read by meaning alone (the prototypes: "the dog
        won't touch his food" and a finished jigsaw sit close to a death; "拖了大半年了，就怕一开口又
        吵起来", a call to a father put off, read 0.64 matter and 0.35 loss) is not taken for one,
        and the matter may be armed; unless the session is ``grieving``: the reader read "got the
        diagnosis back. it's MS" at 0.11 loss, and a doubted loss left a date in its message free
        to arm a "how it went"; nor a loss one of its clauses tells alone (``told``) (issue 24
        item 6); always when it is an ``open_worry``, and when the reader is ``unsure``."""
        if self.open_worry(message_id) or message_id in self.alive:
            return True
        if message_id in self.told:
            return False
        read = self.by_id.get(message_id) if message_id is not None else None
        if read is None:
            return False
        if self.grieving:
            return self.beside_a_matter(message_id)
        return read.loss < self.loss_floor or self.unsure(message_id) or self.sure_of_matter(read)

    def beside_a_matter(self, message_id: int | None) -> bool:
        """A grieving session's line that the reader all but rules out as a loss (``RULED_OUT``) and
        is not sure tells a matter itself (that is ``contested``, for the chat model), while another
        line of the session is surely a matter: a heavy evening, not a death. "睡不着 脑子停不下来"
        (0.05 loss) opened the evening of a thyroid biopsy awaiting its pathology ("要等病理", 0.83
        matter); meaning put the sleepless line near a loss, and the biopsy was kept company as a
        grief instead of asked after (morning_dev37's train half). The deaths said softly that the
        reader misreads read 0.13 to 0.40 loss."""
        read = self.by_id.get(message_id) if message_id is not None else None
        return (
            read is not None
            and read.loss < RULED_OUT
            and not self.sure_of_matter(read)
            and any(self.sure_of_matter(r) for i, r in self.by_id.items() if i != message_id)
        )

    def sure_of_matter(self, read: Read) -> bool:
        """The reader reads a matter at its threshold or more, and surer of it than of a loss."""
        return read.matter >= self.threshold and read.matter > read.loss

    def contested(self, message_id: int | None) -> bool:
        """The session is grieving, so a loss meaning read here would stand, while the reader is
        sure of a matter and all but rules a loss out (``RULED_OUT``): a low session told of a
        child's fever ("儿子又发烧了，三十九度多", 0.97 matter, 0.03 loss) or of a rent rise it may not
        afford ("not sure I can afford to stay honestly", 0.65 and 0.00), lines the loss prototypes
        put near a death (+0.06, +0.05), and each was kept company as a loss instead of asked after
        (morning_dev25). Doubting such lines on the reader's word alone armed a death said softly
        as a matter on a held-out set, so the chat model is asked (consolidation, ``alive``); with
        no model, or no clear answer, the loss stands."""
        read = self.by_id.get(message_id) if message_id is not None else None
        return (
            read is not None
            and self.grieving
            and message_id not in self.told
            and not self.open_worry(message_id)
            and self.sure_of_matter(read)
            and read.loss < RULED_OUT
        )

    def unsure(self, message_id: int | None) -> bool:
        """The reader neither rules a loss out (``loss_floor``) nor is sure of one (``UNSURE_LOSS``),
        and the session is not ``grieving``: a loss meaning alone reads is then grave news still
        open, someone ill or in care, which a friend asks after (arm._learned)."""
        read = self.by_id.get(message_id) if message_id is not None else None
        return read is not None and not self.grieving and self.loss_floor <= read.loss < UNSURE_LOSS


# The reader's loss probability below which a grieving session's loss, read by meaning alone on a
# line the reader is sure tells a matter, is put to the chat model (``Readings.contested``): the
# asks a low session told read 0.00-0.03 (morning_dev25's train half), the deaths said softly that
# the reader reads as a matter 0.13-0.40 (losses_dev17's train half).
RULED_OUT = 0.08

# A loss that meaning alone reads (no death, break-up or diagnosis word of the rules) and the reader
# gives less than this is doubted: someone ill and in care ("grandma had a fall, she's on the ward",
# 老婆手术做完了，人还很虚) sits as near the loss prototypes as a death does, and the reader, unsure
# (0.27-0.53 on arm_dev23's train half), is no surer of the death told softly ("she slipped away",
# 没挺过来: the lexicons' words now, so the rules read it). A friend asks after the ill person.
UNSURE_LOSS = 0.6

# A clause read alone is short and says one thing: it tells of a loss when the loss prototypes
# (mood/meaning.py) put it LOSS_MARGIN nearer a loss than an ordinary line, as for a whole message,
# and the reader gives it at least CLAUSE_LOSS. Its loss_floor (0.15), made for whole messages, let
# a fragment through: "broke rn" (out of money) and "奶奶最近老是忘事" (a worry a friend asks about)
# read 0.59 as clauses of checkin_dev.json's train half; the losses of feelings_dev6.json's train half
# that only a clause tells read 0.73 and more.
CLAUSE_LOSS = 0.7


def told_in_clause(margin: float, read: Read) -> bool:
    """Whether one clause of a message tells of a loss by itself: ``margin`` is the loss prototypes'
    reading of its vector (``meaning.Prototypes.loss``), ``read`` the reader's of the clause alone."""
    return margin >= LOSS_MARGIN and read.loss >= CLAUSE_LOSS


# A message read whole this far from a loss (the prototypes' margin, twice LOSS_MARGIN) is not one,
# whatever one of its clauses reads alone: "主队点球输了决赛，难受死了" (-0.16 whole; the feeling
# clause 难受死了 alone +0.09, 0.99 loss to the reader) is a defeat and how it felt. A death and its
# plan in one breath read whole from -0.08 ("小舅上周走得很突然，下周三家里给他办告别仪式") up
# (+0.015 to +0.23 for the others of test_loss.py and of this module's examples): their plan pulls
# the whole down, not this far.
TOLD_VETO = 2 * LOSS_MARGIN


def told_beside(whole_margin: float) -> bool:
    """Whether a clause told alone may stand for its message (``told_in_clause``): not when the
    message read whole (``whole_margin``, ``meaning.Prototypes.loss``) is at least ``TOLD_VETO``
    from a loss."""
    return whole_margin > -TOLD_VETO


NO_READINGS = Readings({}, 1.0, 0.0)
