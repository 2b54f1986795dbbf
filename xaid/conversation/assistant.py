"""The companion never speaks as a generic assistant (issue 25 item 2, "always the companion's voice").

After the later-turn directive was shortened (session 16), the 1.5B answered "do you like rainy
days?" and "any good shows to binge this weekend?" as the chat model it was tuned to be: "As an AI
language model, …", "I don't have access to real-time streaming information". A friend who
remembers never says that, nor "How can I assist you today?". A sentence speaks as an assistant
when it says one of three things, read from how it is built rather than from a list of sentences:

- what the speaker is: itself as a kind of machine, said of the speaker ("As an AI…", "I'm just a
  language model", "Being a computer program", "作为一个AI语言模型", "我只是个机器人", "我是通义千问",
  "由阿里云开发"): a frame that names the speaker (as / being / since I'm / I am; 作为 / 身为 / 我是)
  followed by a kind of machine, with only the words that qualify such a kind between them ("a large
  language model", "一个人工智能助手"), so that "I'm a huge fan of machine learning" or "我是觉得这个
  模型不错" are not; or its training ("my knowledge cutoff", "我的知识截止到");
- what the speaker lacks as a machine does: its own negation ("I don't", "I can't", "I lack", "我没有",
  "我无法", "我不具备") followed, within the clause, by a faculty a program lacks (access, real-time
  information, the internet, browsing, feelings, emotions, a body, personal opinions, preferences or
  experiences; 实时信息, 上网, 情感, 个人感受, 自己的喜好, 身体, 味觉): "I don't have much to add", "I
  can't wait", "我也没法替你决定" and "我没办法陪你去" name no such faculty and pass;
- service: the offers of a help desk ("How can I help you?", "anything else I can help you with",
  any "assist", "feel free to ask if you have any other questions", "有什么可以帮您的", "为您服务",
  "需要帮助", "其他问题随时问我"). A friend's offer of one thing ("Want me to help you pick a
  recipe?", "要不要我帮你挑挑颜色？") and a friend's presence ("I'm here if you need me", "有事随时找
  我") pass.

When the user asked what the companion is ("are you a bot?", "do you have feelings?", "你是机器人
吗？", "你有身体吗？"), a plain answer ("Yeah, I'm an AI, but I remember what you tell me.") is honest,
not an assistant's voice: the first two are not read then, and service talk still is.

Rules, on text only, per sentence while the reply streams: a few regular expressions, no model.
"""

from __future__ import annotations

import re

# Kinds of machine the speaker may call itself, and the words that may qualify such a kind.
_KIND_EN = (
    r"(?:AI|A\.I\.|artificial intelligence|language model|LLM|model|chat ?bot|bot|robot|machine|"
    r"computer program|computer|program|software|assistant|Qwen)"
)
_QUALIFIER_EN = (
    r"(?:(?:large|big|small|artificial|virtual|digital|AI|A\.I\.|computer|chat|language|text-based|"
    r"conversational|helpful|friendly|simple|mere|automated|intelligent)[\s-]+)"
)
_SELF_EN = re.compile(
    r"\b(?:as|being|since I(?:'m| am)|because I(?:'m| am)|I(?:'m| am))\s+"
    r"(?:(?:just|only|merely|simply|basically|actually|really|still)\s+)?"
    r"(?:an?|the|your)?\s*" + _QUALIFIER_EN + r"{0,3}" + _KIND_EN + r"\b"
    r"|\bI(?:'m| am) Qwen\b"
    r"|\b(?:created|developed|made|trained|built) by (?:Alibaba|OpenAI|Anthropic|Google|Meta)\b"
    r"|\bknowledge cut-?off\b|\bmy (?:knowledge|training|programming)\b|\btraining data\b",
    re.I,
)
_KIND_ZH = r"(?:AI|人工智能|语言模型|大模型|模型|助手|助理|程序|机器人|机器|通义千问|千问|Qwen)"
_QUALIFIER_ZH = r"(?:一[个名款种位]|个|大型?|人工智能|AI|智能|语言|虚拟|聊天|对话|计算机|电脑|的)"
_SELF_ZH = re.compile(
    r"(?:作为|身为|我(?:只|只不过|不过|仅仅|就|也|本身)?是)"
    + _QUALIFIER_ZH
    + r"{0,4}"
    + _KIND_ZH
    + r"|(?:由|是)(?:阿里云|阿里巴巴|OpenAI)[^，。！？,]{0,4}(?:开发|创建|训练|打造|推出)"
    r"|我的(?:知识|训练数据|训练)|知识截止",
    re.I,
)

# The speaker's own negation, then a faculty a program lacks, in the same clause.
_NEG_EN = (
    r"\bI(?:\s+(?:really|actually|just|also|unfortunately))?\s+"
    r"(?:do not|don't|dont|can't|cant|cannot|can not|lack|have no|do not possess|don't possess|"
    r"won't be able to)\b"
    r"|\bI(?:'m| am)\s+(?:not (?:able to|capable of)|unable to|incapable of)\b"
)
_FACULTY_EN = (
    r"(?:access|real[- ]?time|live (?:data|information|updates)|internet|the web|online|brows\w*|"
    r"current (?:events|information|data)|up[- ]to[- ]date|"
    r"(?<!strong )(?<!hard )(?<!mixed )(?:feelings|emotions|opinions)|emotional|consciousness|"
    r"personal \w+|preferences|beliefs|experiences|physical|a body|senses|"
    r"(?:the )?(?:ability|capability|capacity) to)"
)
_LACKS_EN = re.compile(f"(?:{_NEG_EN})" + r"(?:[^,;:.!?]{0,60}?)\b" + _FACULTY_EN, re.I)
_EXPERIENCE_EN = re.compile(
    r"\bI\s+(?:do not|don't|can't|cannot)\s+(?:really\s+)?experience\b", re.I
)
_NEG_ZH = r"我(?:也|并|其实|本身)?(?:没有|没|无法|不能|不会|不具备|不具有|没办法|没法|不可能)"
_FACULTY_ZH = (
    r"(?:实时|最新的?(?:信息|数据|资讯)|上网|联网|互联网|浏览|情感|情绪|感情|感受|"
    r"个人的?(?:喜好|偏好|经历|经验|感受|观点|看法|意见|情感|体验)|"
    r"自己的(?:喜好|偏好|情感|感受|观点|看法)|偏好|喜好|身体|实体|味觉|意识|真实的(?:情绪|情感|感受))"
)
_LACKS_ZH = re.compile(_NEG_ZH + r"[^，。！？,!?；;]{0,12}?" + _FACULTY_ZH)

# A help desk's offers.
_SERVICE_EN = re.compile(
    r"\bassist(?:ance|ing|ed)?\b"
    r"|\bhow (?:can|may|could|might) I (?:help|be of)\b"
    r"|\bwhat can I (?:help you with|do for you)\b"
    r"|\banything (?:else )?(?:that )?I (?:can|could|may) help\b"
    r"|\b(?:need|want|require) anything else\b"
    r"|\bhelp you with (?:anything|any|that|whatever)\b"
    r"|\b(?:any|other|more|further|additional) questions\b[^.!?]{0,40}\b(?:ask|let me know|reach out)\b"
    r"|\b(?:ask|let me know)\b[^.!?]{0,30}\b(?:any|other|more|further|additional) questions\b"
    r"|\bI (?:can't|cannot|can not|am not able to|'m not able to|am unable to|'m unable to)\s+"
    r"(?:offer|provide|give)\s+(?:you\s+)?(?:\w+\s+){0,2}?(?:help|advice|opinions|information|"
    r"recommendations|support)\b"
    r"|\b(?:feel free|don't hesitate|do not hesitate) to (?:ask|reach out|let me know|contact)\b"
    r"|\b(?:happy|glad|pleased|here) to help you with\b",
    re.I,
)
_SERVICE_ZH = re.compile(
    r"有什么(?:我|事情?)?(?:可以|能|能够|需要)?(?:帮|为)(?:你|您|忙)"
    r"|(?:需要|提供)(?:什么|任何|一些)?帮助|帮助(?:你|您)的"
    r"|(?:为|帮)您|为你(?:服务|提供|解答)|(?:很高兴|乐意|愿意)为"
    r"|(?:其他|别的|任何|更多)的?(?:问题|疑问)[^。！？!?]{0,8}(?:问我|提问|咨询|告诉我|联系我|欢迎)"
    r"|随时(?:可以)?(?:问我|向我提问|咨询)|请问有什么"
)

# The user asks what the companion is: its kind, whether it is real, feels or has a body.
_ASKED_EN = re.compile(
    r"\b(?:are|r)\s+(?:you|u)\s+(?:\w+\s+){0,2}?(?:an?\s+)?(?:AI|A\.I\.|bot|chat ?bot|robot|machine|"
    r"program|computer|real|human|person|alive|sentient|conscious)\b"
    r"|\b(?:what|who) (?:are|r) (?:you|u)\b"
    r"|\b(?:do|can|could) (?:you|u) (?:\w+ )?(?:have|feel|get) (?:\w+ )?(?:feelings|emotions|a body|"
    r"sad|lonely|hurt)\b"
    r"|\b(?:is it|are you|it's|is this) (?:all |just )?(?:code|a bot|an AI|a program)\b",
    re.I,
)
_ASKED_ZH = re.compile(
    r"你(?:到底|究竟|真的|是不是)?(?:是不是|是|算)(?:一个|个)?"
    r"(?:真人|人类|人|AI|人工智能|机器人|机器|程序|谁|什么(?!时候|意思|时间))"
    r"|你(?:有|有没有)(?:感情|情感|感觉|身体|意识|情绪)"
    r"|你(?:会|会不会|能)(?:难过|伤心|开心|生气|孤单|寂寞|感受|哭)",
    re.I,
)


def asked_what_it_is(said: str) -> bool:
    """The user's message asks what the companion is ("are you a bot?", "你是机器人吗？")."""
    return bool(_ASKED_EN.search(said) or _ASKED_ZH.search(said))


def speaks_as_assistant(sentence: str, said: str = "") -> int | None:
    """Where ``sentence`` starts speaking as a generic assistant (the module docstring), or None;
    ``said``: the user's newest message (asked what the companion is, it may say so)."""
    rules: list[re.Pattern[str]] = [_SERVICE_EN, _SERVICE_ZH]
    if not asked_what_it_is(said):
        rules += (_SELF_EN, _SELF_ZH, _LACKS_EN, _LACKS_ZH, _EXPERIENCE_EN)
    found = [m.start() for rule in rules if (m := rule.search(sentence))]
    return min(found) if found else None


# The words any of those rules starts at or holds: the gate holds a sentence from the first of them
# to its end, so that "As an AI language model," is not sent before the rest shows what it is.
_CUES = re.compile(
    r"\b(?:as|being|since|AI|A\.I\.|artificial|language|model|LLM|bot|chatbot|robot|machine|"
    r"computer|program|software|assistant|Qwen|created|developed|trained|knowledge|training|"
    r"assist\w*|how|what|anything|help|questions|feel free|don't hesitate|do not hesitate|my)\b"
    r"|作为|身为|AI|人工智能|模型|助手|助理|程序|机器|千问|阿里|知识|帮|您|为你|问题|疑问|随时|请问|提供",
    re.I,
)


def cue(text: str) -> int | None:
    """Where the first word that could start assistant talk stands in ``text``, or None."""
    m = _CUES.search(text)
    return m.start() if m else None
