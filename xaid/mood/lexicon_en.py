"""English cues for the rule classifier, and the vocabulary both languages share (Cue and its profiles).

Words point at a handful of shared profiles so that "exhausted" and "精疲力尽" land on the same point and
the two languages cannot drift apart; what differs per word is the base strength beside it, because
"exhausted" says more than "tired" even though both point at fatigue. Strengths are calibrated against
the mood update, which lets a reading of intensity >= 0.7 linger for days and one under 0.45 fade by
morning: plain words sit near 0.55-0.65, strong ones at 0.8-0.9, hedges and "ok" well below.

Keys are lower case, tokens separated by single spaces, apostrophes ASCII; the classifier matches the
longest phrase first, so "not bad at all" wins over "not bad", which wins over the negator "not".
"""

from __future__ import annotations

from typing import NamedTuple


class Cue(NamedTuple):
    """Where a word points; how loudly it says so is the strength stored beside it."""

    valence: float  # -1..1
    arousal: float  # 0..1: activation above a resting baseline (0 = none, not "sleepy")
    fatigue: float  # 0..1


Entry = tuple[Cue, float]  # (direction, base strength 0..1)

# Shared profiles: each feeling at full strength.
TIRED = Cue(-0.3, 0.0, 1.0)
DRAINED = Cue(-0.5, 0.0, 1.0)  # worn out in spirit as well as body: burnt out, 心累
SLEEPY = Cue(-0.1, 0.0, 0.9)
SAD = Cue(-0.8, 0.2, 0.1)
CRYING = Cue(-0.85, 0.45, 0.1)
LONELY = Cue(-0.7, 0.1, 0.1)
HURT = Cue(-0.75, 0.35, 0.0)
ANGRY = Cue(-0.8, 0.9, 0.0)
ANNOYED = Cue(-0.6, 0.55, 0.0)
ANXIOUS = Cue(-0.6, 0.75, 0.05)
SCARED = Cue(-0.7, 0.8, 0.0)
STRESSED = Cue(-0.55, 0.65, 0.25)
SLEEPLESS = Cue(-0.4, 0.4, 0.6)  # could not sleep: tired and wound up at once
FAILURE = Cue(-0.65, 0.5, 0.05)  # something broke: a setback more than a feeling
JOY = Cue(0.8, 0.55, 0.0)
EXCITED = Cue(0.8, 0.9, 0.0)
LOVE = Cue(0.8, 0.45, 0.0)
GOOD = Cue(0.55, 0.25, 0.0)
AMUSED = Cue(0.55, 0.6, 0.0)
CALM = Cue(0.45, 0.0, 0.0)
FINE = Cue(0.15, 0.0, 0.0)  # "fine", 还行: a shrug on the bright side
REASSURING = Cue(0.2, 0.0, 0.0)  # "no problem", 没事: the speaker says all is well
NEUTRAL = Cue(0.05, 0.0, 0.0)  # "ok": a confident reading of "nothing much"
MEH = Cue(-0.1, 0.0, 0.1)
MILDLY_BAD = Cue(-0.35, 0.15, 0.0)  # "not great", 不太好
BORED = Cue(-0.35, 0.0, 0.25)
SIGH = Cue(-0.35, 0.0, 0.3)
NOT_TIRED = Cue(0.1, 0.0, 0.0)
GRIEF = Cue(-0.9, 0.25, 0.2)  # a death, a loss: heavy, quiet, draining
GRAVE = Cue(-0.85, 0.55, 0.1)  # grave news (a diagnosis): frightening as well as sad
CONFIDENT = Cue(0.5, 0.05, 0.0)  # sure of oneself: bright and settled, the opposite of anxious
OVERLOADED = Cue(-0.45, 0.5, 0.6)  # a day that was too much: "my head is exploding", 头都炸了

# How long a feeling lasts, as a multiple of the half-life its intensity gives it. Grief and grave
# news carry for days whatever the wording; an irritation or a shrug is gone sooner than a plain
# feeling of the same strength. Profiles not listed last as long as their intensity says.
PERSISTENCE: dict[Cue, float] = {
    GRIEF: 4.0,
    GRAVE: 4.0,
    ANNOYED: 0.5,
    MEH: 0.5,
    BORED: 0.5,
    SIGH: 0.6,
}

CUES: dict[str, Entry] = {
    # tiredness
    "tired": (TIRED, 0.6),
    "tiring": (TIRED, 0.5),
    "exhausted": (TIRED, 0.85),
    "exhausting": (TIRED, 0.7),
    "exhaustion": (TIRED, 0.8),
    "wiped out": (TIRED, 0.8),
    "worn out": (TIRED, 0.75),
    "knackered": (TIRED, 0.8),
    "dead on my feet": (TIRED, 0.85),
    "bone tired": (TIRED, 0.8),
    "running on empty": (DRAINED, 0.7),
    "fatigued": (TIRED, 0.7),
    "drained": (DRAINED, 0.75),
    "draining": (DRAINED, 0.6),
    "burnt out": (DRAINED, 0.85),
    "burned out": (DRAINED, 0.85),
    "burnout": (DRAINED, 0.8),
    "sleepy": (SLEEPY, 0.55),
    "yawning": (SLEEPY, 0.45),
    "no energy": (TIRED, 0.65),
    "sleep deprived": (TIRED, 0.75),
    "all nighter": (TIRED, 0.65),
    "can't sleep": (SLEEPLESS, 0.6),
    "couldn't sleep": (SLEEPLESS, 0.6),
    "barely slept": (TIRED, 0.65),
    "busy all day": (TIRED, 0.6),
    "swamped": (OVERLOADED, 0.55),
    "i'm fried": (OVERLOADED, 0.65),
    "head is exploding": (OVERLOADED, 0.75),
    "head is pounding": (OVERLOADED, 0.6),
    "head is about to explode": (OVERLOADED, 0.75),
    "head is spinning": (OVERLOADED, 0.65),
    "brain is fried": (OVERLOADED, 0.75),
    # loss and grave news
    "passed away": (GRIEF, 0.9),
    "died": (GRIEF, 0.85),
    "death": (GRIEF, 0.7),
    "funeral": (GRIEF, 0.75),
    # the rites after a death are the loss itself, never a plan to ask "how did it go" about
    # (morning11's test half: a dog's death, then "tomorrow we take her to be cremated")
    "cremation": (GRIEF, 0.75),
    "cremated": (GRIEF, 0.75),
    "memorial service": (GRIEF, 0.75),
    "burial": (GRIEF, 0.75),
    "grief": (GRIEF, 0.8),
    "grieving": (GRIEF, 0.85),
    "mourning": (GRIEF, 0.8),
    "miscarriage": (GRIEF, 0.9),
    # a death said as people say it gently: no word of dying, and meaning alone puts it beside a
    # stay in hospital (arm_dev23: "she slipped away this morning" read as near an illness as a death)
    "slipped away": (GRIEF, 0.85),
    "lost her fight": (GRIEF, 0.85),
    "lost his fight": (GRIEF, 0.85),
    "lost their fight": (GRIEF, 0.85),
    "lost her battle": (GRIEF, 0.85),
    "lost his battle": (GRIEF, 0.85),
    "lost their battle": (GRIEF, 0.85),
    "went to sleep for the last time": (GRIEF, 0.85),
    "closed her eyes for the last time": (GRIEF, 0.85),
    "closed his eyes for the last time": (GRIEF, 0.85),
    "breathed her last": (GRIEF, 0.85),
    "breathed his last": (GRIEF, 0.85),
    "rainbow bridge": (GRIEF, 0.85),
    "diagnosed with": (GRAVE, 0.8),
    "cancer": (GRAVE, 0.85),
    "tumor": (GRAVE, 0.8),
    "tumour": (GRAVE, 0.8),
    "terminally ill": (GRAVE, 0.9),
    # a diagnosis said by what it means, with no name of an illness the lists hold
    "no cure": (GRAVE, 0.85),
    "incurable": (GRAVE, 0.85),
    # sadness
    "sad": (SAD, 0.65),
    "sadder": (SAD, 0.7),
    "down": (SAD, 0.55),  # only after "feel", "so", ... (NEEDS_PREV): "sit down" is no feeling
    "lonely": (LONELY, 0.65),
    "so alone": (LONELY, 0.7),
    "all alone": (LONELY, 0.65),
    "pointless": (SAD, 0.7),
    "empty inside": (SAD, 0.75),
    "depressed": (SAD, 0.85),
    "depressing": (SAD, 0.65),
    "miserable": (SAD, 0.8),
    "unhappy": (SAD, 0.6),
    "heartbroken": (HURT, 0.9),
    "devastated": (HURT, 0.9),
    "hopeless": (SAD, 0.8),
    "gloomy": (SAD, 0.55),
    "upset": (HURT, 0.6),
    "hurt": (HURT, 0.55),
    "disappointed": (SAD, 0.55),
    "let down": (HURT, 0.55),
    "broke up": (HURT, 0.75),
    "cry": (CRYING, 0.65),
    "crying": (CRYING, 0.7),
    "cried": (CRYING, 0.7),
    "tears": (CRYING, 0.6),
    "miss you": (LONELY, 0.45),
    "missing you": (LONELY, 0.45),
    # anger, annoyance
    "annoyed": (ANNOYED, 0.55),
    "annoying": (ANNOYED, 0.5),
    "irritated": (ANNOYED, 0.55),
    "irritating": (ANNOYED, 0.5),
    "frustrated": (ANNOYED, 0.65),
    "frustrating": (ANNOYED, 0.6),
    "ugh": (ANNOYED, 0.4),
    "argh": (ANNOYED, 0.45),
    "sucks": (ANNOYED, 0.5),
    "fed up": (ANNOYED, 0.65),
    "sick of": (ANNOYED, 0.6),
    "sick and tired": (Cue(-0.6, 0.5, 0.5), 0.7),
    "angry": (ANGRY, 0.75),
    "mad": (ANGRY, 0.65),
    "pissed": (ANGRY, 0.75),
    "pissed off": (ANGRY, 0.8),
    "furious": (ANGRY, 0.9),
    "livid": (ANGRY, 0.9),
    "hate": (ANGRY, 0.6),
    "wtf": (ANGRY, 0.5),
    # anxiety, stress
    "worried": (ANXIOUS, 0.55),
    "worry": (ANXIOUS, 0.5),
    "worrying": (ANXIOUS, 0.55),
    "anxious": (ANXIOUS, 0.65),
    "anxiety": (ANXIOUS, 0.65),
    "nervous": (ANXIOUS, 0.55),
    "tense": (ANXIOUS, 0.5),
    "uneasy": (ANXIOUS, 0.45),
    "stressed": (STRESSED, 0.65),
    "stressed out": (STRESSED, 0.75),
    "stress": (STRESSED, 0.5),
    "stressful": (STRESSED, 0.55),
    "overwhelmed": (STRESSED, 0.75),
    "scared": (SCARED, 0.65),
    "afraid": (SCARED, 0.6),
    "terrified": (SCARED, 0.9),
    "panic": (SCARED, 0.75),
    "panicking": (SCARED, 0.8),
    "freaking out": (SCARED, 0.75),
    "freaked out": (SCARED, 0.7),
    "dreading": (ANXIOUS, 0.65),
    # joy, excitement
    "happy": (JOY, 0.65),
    "happier": (JOY, 0.65),
    "glad": (JOY, 0.55),
    "great": (GOOD, 0.6),
    "awesome": (JOY, 0.7),
    "amazing": (JOY, 0.75),
    "wonderful": (JOY, 0.7),
    "fantastic": (JOY, 0.75),
    "delighted": (JOY, 0.75),
    "proud": (JOY, 0.6),
    "grateful": (LOVE, 0.55),
    "love": (LOVE, 0.65),
    "loved": (LOVE, 0.6),
    "excited": (EXCITED, 0.7),
    "exciting": (EXCITED, 0.6),
    "thrilled": (EXCITED, 0.85),
    "ecstatic": (EXCITED, 0.9),
    "stoked": (EXCITED, 0.75),
    "pumped": (EXCITED, 0.7),
    "yay": (EXCITED, 0.6),
    "woohoo": (EXCITED, 0.65),
    "fun": (GOOD, 0.5),
    "good": (GOOD, 0.45),
    "nice": (GOOD, 0.4),
    "cool": (GOOD, 0.35),
    "lol": (AMUSED, 0.4),
    "haha": (AMUSED, 0.45),
    "hahaha": (AMUSED, 0.5),
    # calm, contentment
    "relaxed": (CALM, 0.55),
    "relaxing": (CALM, 0.5),
    "calm": (CALM, 0.5),
    "peaceful": (CALM, 0.6),
    "chill": (CALM, 0.45),
    "content": (CALM, 0.5),
    "cozy": (CALM, 0.5),
    "comfortable": (CALM, 0.45),
    "fine": (FINE, 0.4),
    # confidence
    "confident": (CONFIDENT, 0.6),
    "optimistic": (CONFIDENT, 0.55),
    "reassured": (CONFIDENT, 0.55),
    "relieved": (CALM, 0.6),
    "at ease": (CALM, 0.55),
    "self assured": (CONFIDENT, 0.6),
    "sure of myself": (CONFIDENT, 0.6),
    "i've got this": (CONFIDENT, 0.55),
    "i got this": (CONFIDENT, 0.55),
    "ready for it": (CONFIDENT, 0.5),
    # things going wrong
    "crashed": (FAILURE, 0.65),
    "crash": (FAILURE, 0.55),
    "crashing": (FAILURE, 0.6),
    "failed": (FAILURE, 0.65),
    "fail": (FAILURE, 0.55),
    "failing": (FAILURE, 0.6),
    "failure": (FAILURE, 0.6),
    "broke": (FAILURE, 0.55),
    "broken": (FAILURE, 0.55),
    "broke down": (FAILURE, 0.7),
    "messed up": (FAILURE, 0.6),
    "screwed up": (FAILURE, 0.65),
    "ruined": (FAILURE, 0.7),
    "rejected": (HURT, 0.65),
    "got fired": (HURT, 0.8),
    # neutral
    "ok": (NEUTRAL, 0.3),
    "okay": (NEUTRAL, 0.3),
    "alright": (NEUTRAL, 0.3),
    "meh": (MEH, 0.35),
    "bored": (BORED, 0.5),
    "boring": (BORED, 0.45),
    "sigh": (SIGH, 0.4),
}

# Fixed meanings: never flipped by a negator, though an intensifier may still scale them.
IDIOMS: dict[str, Entry] = {
    "not bad": (GOOD, 0.5),
    "not bad at all": (GOOD, 0.65),
    "not too bad": (GOOD, 0.45),
    "not so bad": (GOOD, 0.45),
    "no problem": (REASSURING, 0.35),
    "no problems": (REASSURING, 0.35),
    "no worries": (REASSURING, 0.35),
    "nothing to worry about": (CONFIDENT, 0.5),
    "no need to worry": (CONFIDENT, 0.5),
    "nothing to be afraid of": (CONFIDENT, 0.5),
    "nothing to be scared of": (CONFIDENT, 0.5),
    "not ok": (MILDLY_BAD, 0.5),
    "not okay": (MILDLY_BAD, 0.5),
    "not great": (MILDLY_BAD, 0.45),
    "not tired": (NOT_TIRED, 0.3),
    "never better": (JOY, 0.7),
    "couldn't be better": (JOY, 0.75),
    "couldn't be happier": (JOY, 0.85),
    "can't wait": (EXCITED, 0.7),
    "cant wait": (EXCITED, 0.7),
    "cannot wait": (EXCITED, 0.7),
    "can't stand": (ANNOYED, 0.65),
    "can't take it": (STRESSED, 0.75),
    "can't take it anymore": (STRESSED, 0.85),
    # "can't stop X" insists on X: not a denial
    "can't stop crying": (CRYING, 0.9),
    "cant stop crying": (CRYING, 0.9),
    "couldn't stop crying": (CRYING, 0.85),
    "can't stop worrying": (STRESSED, 0.75),
    "can't stop thinking about it": (STRESSED, 0.6),
}

# Phrases that contain a cue word but carry no feeling; matching them swallows the word.
IGNORED: frozenset[str] = frozenset(
    {
        "good morning",
        "good night",
        "good evening",
        "good afternoon",
        "good luck",
        "good job",
        "calm down",
        "sit down",
        "shut down",
        "crash course",
        "no doubt",
        "no idea",
        "feel free",
        "not sure",
        "never mind",
        "fine tuning",
        # things that die without anyone dying
        "phone died",
        "battery died",
        "laptop died",
        "car died",
        "engine died",
        "it died",
        "died down",
        "died laughing",
        "death metal",
    }
)

# A cue that means a feeling only right after one of these words ("I'm down" vs "go down").
_FEELING_LEAD = frozenset(
    {
        "feel",
        "feeling",
        "feels",
        "felt",
        "i'm",
        "im",
        "am",
        "was",
        "been",
        "being",
        "so",
        "really",
        "very",
        "pretty",
        "quite",
        "bit",
        "little",
        "kinda",
        "super",
        "too",
        "kind",
        "sort",
        "getting",
        "get",
    }
)
NEEDS_PREV: dict[str, frozenset[str]] = {"down": _FEELING_LEAD}

# Negators; the value is how fully they negate ("hardly happy" is a weaker denial than "not happy").
# Contractions ending in n't are negators without being listed.
NEGATORS: dict[str, float] = {
    "not": 1.0,
    "never": 1.0,
    "no": 1.0,
    "nor": 1.0,
    "without": 1.0,
    "cannot": 1.0,
    "dont": 1.0,
    "cant": 1.0,
    "wont": 1.0,
    "isnt": 1.0,
    "didnt": 1.0,
    "doesnt": 1.0,
    "wasnt": 1.0,
    "arent": 1.0,
    "aint": 1.0,
    "hardly": 0.7,
    "barely": 0.7,
    "not even a little": 1.0,
    "not even slightly": 1.0,
    "not the least bit": 1.0,
}

# Words after a denied feeling that insist on the denial ("not worried at all"): the multiplier is on
# the strength of what the denial leaves, so an emphatic "not anxious at all" reads as assurance.
EMPHATIC_DENIALS: dict[str, float] = {
    "at all": 1.4,
    "in the slightest": 1.4,
    "whatsoever": 1.4,
    "one bit": 1.3,
}

# Multipliers on the strength of the cue that follows; below 1 are down-toners.
INTENSIFIERS: dict[str, float] = {
    "so": 1.3,
    "really": 1.3,
    "very": 1.3,
    "extremely": 1.6,
    "totally": 1.4,
    "super": 1.4,
    "incredibly": 1.5,
    "completely": 1.4,
    "absolutely": 1.4,
    "utterly": 1.5,
    "too": 1.2,
    "quite": 1.1,
    "pretty": 1.15,
    "damn": 1.3,
    "fucking": 1.5,
    "freaking": 1.3,
    "truly": 1.3,
    "deeply": 1.4,
    "a bit": 0.6,
    "a little": 0.6,
    "a little bit": 0.55,
    "slightly": 0.55,
    "kind of": 0.65,
    "kinda": 0.65,
    "sort of": 0.65,
    "sorta": 0.65,
    "somewhat": 0.7,
    "a tad": 0.6,
}

# Boosters that follow the cue they strengthen ("tired af", "bored to death").
SUFFIX_BOOSTERS: dict[str, float] = {"af": 1.35, "as hell": 1.35, "as fuck": 1.4, "to death": 1.35}

# Words after which the speaker's real point begins; earlier feelings weigh less on valence.
CONTRASTS: frozenset[str] = frozenset({"but", "though", "however", "yet"})

# Words that open a conceded clause ("although I was nervous, ..."): the feeling up to the clause's
# end is granted, and what follows it is the point.
CONCESSIVES: frozenset[str] = frozenset({"although", "even though", "even if", "despite"})

# Words that open a consoling clause after the point ("failed again. at least the examiner was
# nice", "anyway lol, back to square one"): the silver lining a person puts after bad news, or the
# shrug that closes it. It is granted like a concession, not the point (classifier._conceded, and
# learned.point, which leaves it out of what the session ended on). A closed class of discourse
# markers, not feeling words: the lead's held-out misses had a consoling tail outweigh the news.
CONSOLERS: frozenset[str] = frozenset({"at least", "anyway", "anyways", "oh well"})

# Family and close people: "lost my mum", "外婆走了" say a death without a word for dying.
KIN: frozenset[str] = frozenset(
    {
        "mom",
        "mum",
        "mother",
        "dad",
        "father",
        "grandma",
        "grandmother",
        "grandpa",
        "grandfather",
        "granny",
        "nan",
        "nana",
        "gran",
        "grandad",
        "granddad",
        "brother",
        "sister",
        "son",
        "daughter",
        "wife",
        "husband",
        "partner",
        "uncle",
        "aunt",
        "cousin",
        "best friend",
        "baby",
        "dog",
        "cat",
    }
)

# Emoji, emoticons and stickers: faces.py (one table for the rules and the embedder's words).
