"""English words the fact rules read: programming languages, demonyms, occupations, relatives,
events, conditions, and the verb forms the third-person rewrite needs.

Apart from the grammar (en and its rule modules) as mood/lexicon_en is apart from the mood
classifier: a word added here changes what is recognised, never how a clause is parsed.
Lower case unless a list says otherwise; the event, health and food lists are regex alternations.
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Lower-cased name → canonical spelling. Shared with the Chinese rules: people write "Python" in both.
PROGRAMMING_LANGUAGES = {
    s.lower(): s
    for s in (
        "Python", "Rust", "Go", "Golang", "Java", "JavaScript", "TypeScript", "C", "C++", "C#", "Ruby", "PHP", "Swift",
        "Kotlin", "Scala", "Haskell", "Elixir", "Erlang", "Clojure", "Lua", "Perl", "R", "Julia", "Dart", "Zig",
        "Nim", "OCaml", "F#", "Fortran", "COBOL", "MATLAB", "Objective-C", "Assembly", "SQL", "Bash", "Lisp",
        "Common Lisp", "Scheme", "Racket", "Prolog", "Crystal", "Solidity", "Elm", "Groovy", "Visual Basic", "Mojo",
        "Gleam", "V", "D", "Pascal", "Delphi", "Ada", "Smalltalk", "PowerShell", "Verilog", "VHDL",
    )
}  # fmt: skip
# Names that are words too: "I like Go" is the language only when written like a name.
CASED_LANGUAGES = frozenset(
    {"go", "r", "c", "v", "d", "ada", "crystal", "elm", "dart", "rust", "swift", "julia"}
)

DEMONYMS = _words(
    "chinese american british english french german japanese korean indian canadian australian italian spanish "
    "mexican brazilian russian dutch swedish norwegian danish finnish polish irish scottish welsh vietnamese thai "
    "filipino indonesian malaysian singaporean taiwanese turkish greek portuguese swiss austrian belgian israeli "
    "egyptian nigerian kenyan argentinian chilean colombian peruvian pakistani iranian ukrainian czech hungarian "
    "romanian cantonese"
)
OCCUPATIONS = _words(
    "engineer developer programmer coder designer teacher student nurse doctor physician lawyer accountant chef "
    "cook writer author artist musician scientist researcher professor lecturer manager consultant analyst "
    "architect pharmacist dentist therapist psychologist photographer journalist editor farmer driver pilot "
    "mechanic electrician plumber carpenter firefighter officer soldier cashier waiter waitress barista librarian "
    "translator salesperson entrepreneur founder freelancer intern postdoc veterinarian vet surgeon paramedic "
    "receptionist secretary clerk banker economist mathematician physicist chemist biologist sysadmin retiree "
    "homemaker tutor coach trainer actor actress singer dancer streamer youtuber illustrator animator "
    "technician scientist undergrad undergraduate phd midwife caregiver carer janitor cleaner baker butcher "
    "tailor hairdresser barber marketer recruiter director ceo cto cfo administrator admin volunteer"
)
NOT_NAMES = (
    _words(
        "sorry fine good ok okay back here home tired done busy ready sure going trying still also always never "
        "feeling sick bored hungry excited happy sad so just not very really glad afraid new in on at from with "
        "the a an gonna learning working thinking doing getting having looking coming leaving staying late early "
        "alone lost free single married divorced pregnant vegan vegetarian allergic later tomorrow tonight when if "
        "maybe sometime now again anytime whenever soon please crazy lazy old whatever anything"
    )
    | DEMONYMS
)
RELATIONS = {
    "sister": "sister", "sis": "sister", "brother": "brother", "bro": "brother",
    "mom": "mother", "mum": "mother", "mother": "mother", "mommy": "mother", "mama": "mother",
    "dad": "father", "father": "father", "daddy": "father", "papa": "father",
    "wife": "partner", "husband": "partner", "partner": "partner", "boyfriend": "partner", "girlfriend": "partner",
    "fiance": "partner", "fiancé": "partner", "fiancee": "partner", "fiancée": "partner",
    "friend": "friend", "boss": "boss", "manager": "boss", "son": "child", "daughter": "child", "kid": "child",
    "child": "child", "cat": "cat", "kitten": "cat", "dog": "dog", "puppy": "dog", "roommate": "roommate",
    "flatmate": "roommate", "coworker": "colleague", "colleague": "colleague", "grandma": "grandparent",
    "grandpa": "grandparent", "grandmother": "grandparent", "grandfather": "grandparent",
}  # fmt: skip
# Events worth remembering even without a when ("I have an exam"), and everyday ones that need one
# ("I have work tomorrow" is a plan, "I have a call" is just now).
BIG_EVENTS = (
    r"exam|test|interview|appointment|presentation|deadline|flight|surgery|operation|wedding|trip|"
    r"check-?up|recital|audition|defen[cs]e|viva|midterm|final|conference|date"
)
EVENTS = (
    rf"(?:{BIG_EVENTS}|meeting|call|class|party|concert|game|match|review|demo|dinner|lunch|shift|lecture|"
    r"session|visit|work|school|practice|training|rehearsal)s?"
)
HEALTH = r"(?:asthma|diabetes|epilepsy|migraines?|adhd|autism|depression|anxiety|insomnia|high blood pressure|celiac)"
DIET_FOODS = r"(?:meat|pork|beef|fish|seafood|dairy|eggs|gluten|animal products)"

ADVERBS = (
    "really",
    "also",
    "just",
    "still",
    "absolutely",
    "totally",
    "kinda",
    "kind of",
    "sort of",
    "actually",
    "genuinely",
    "truly",
    "seriously",
    "definitely",
    "mostly",
    "mainly",
    "usually",
    "generally",
    "primarily",
    "now",
    "currently",
    "honestly",
    "even",
    "quite",
    "so",
    "always",
    "especially",
    "particularly",
    "very much",
    "much",
    "sincerely",
    "simply",
    "secretly",
    "already",
    "recently",
    "finally",
    "pretty much",
    "mostly just",
    "do",
)
# Third person singular: the verbs that do not take -s, and those (past tenses, modals) that stay as they are.
IRREGULAR_THIRD = {
    "have": "has",
    "do": "does",
    "go": "goes",
    "am": "is",
    "be": "is",
    "don't": "doesn't",
    "dont": "doesn't",
}
UNCHANGED_VERBS = frozenset(
    {
        "quit",
        "left",
        "got",
        "went",
        "made",
        "had",
        "met",
        "came",
        "took",
        "saw",
        "began",
        "became",
        "bought",
        "brought",
        "thought",
        "told",
        "said",
        "felt",
        "found",
        "lost",
        "won",
        "sent",
        "spent",
        "built",
        "kept",
        "slept",
        "ran",
        "can",
        "can't",
        "cannot",
        "will",
        "won't",
        "would",
        "should",
        "could",
        "must",
        "might",
        "may",
        "did",
        "didn't",
        "was",
        "wasn't",
        "used",
        "never",
        "no",
    }
)
# Verbs of liking that say the opposite: "I hate X" is a negated like.
NEGATIVE_VERBS = frozenset(
    {"hate", "dislike", "detest", "loathe", "despise", "can't stand", "cannot stand", "can't bear"}
)
# "my favourite film is …" and "my favourite movie is …" are one subject.
CATEGORY_ALIASES = {
    "colour": "color",
    "film": "movie",
    "films": "movie",
    "movies": "movie",
    "foods": "food",
    "programming language": "programming_language",
    "language": "language",
    "band": "band",
    "tv show": "show",
    "show": "show",
    "series": "show",
    "books": "book",
    "songs": "song",
}
