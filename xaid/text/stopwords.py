"""Words too common to say what a text is about, for keyword search and for the words that show a
matter came up again.

English function words go by the word; Chinese has no spaces, so what is left out there is a pair
of characters that holds a particle, a pronoun or "very" (see ``cjk.pairs``).
"""

from __future__ import annotations

# Words that would make every memory match every query; BM25 weighs them low but not to zero.
ENGLISH = frozenset({
    'a', 'about', 'also', 'am', 'an', 'and', 'are', 'as', 'at', 'be', 'been', 'being', 'but', 'by', 'can', 'could',
    'd', 'did', 'do', 'does', 'for', 'from', 'had', 'has', 'have', 'he', 'her', 'his', 'how', 'i', "i'm", 'in',
    'into', 'is', 'it', 'its', 'just', 'll', 'm', 'me', 'my', 'not', 'of', 'on', 'only', 'or', 'our', 'over',
    'own', 're', 'really', 's', 'same', 'she', 'should', 'so', 't', 'than', 'that', 'the', 'their', 'them', 'then',
    'there', 'these', 'they', 'this', 'those', 'to', 'too', 'up', 've', 'very', 'was', 'we', 'were', 'what',
    'when', 'where', 'which', 'who', 'why', 'will', 'with', 'would', 'you', 'your', 'yours',
})

# Characters that make a pair meaningless as a search word (particles, pronouns, "very").
CJK_PAIR = frozenset("的了很我你他她它们是在有就都也还吗呢吧啊呀么什哪怎谁几个这那一不没")
