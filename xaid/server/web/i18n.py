"""The page's words in English and Chinese, and which of the two a request gets.

One table: a key names a phrase, its value holds the English and the Chinese. A missing key is a
``KeyError`` at render time, which the tests see (every key is rendered in both languages there).
The language is the request's ``?lang=`` (kept in a cookie), else the cookie, else the first of
English or Chinese in ``Accept-Language``, else English.
"""

from __future__ import annotations

from typing import Literal

Lang = Literal["en", "zh"]
LANGS: tuple[Lang, ...] = ("en", "zh")

TEXT: dict[str, tuple[str, str]] = {
    "title": ("What your companion remembers", "你的陪伴者记得什么"),
    "agents": ("Companions", "陪伴者"),
    "no_agents": ("No companion yet.", "还没有陪伴者。"),
    "login": ("Sign in", "登录"),
    "login_help": (
        "Enter the token once (xaictl token prints it); this browser keeps it in a cookie.",
        "输入一次令牌（xaictl token 可打印）；浏览器会把它保存在 Cookie 里。",
    ),
    "token": ("Token", "令牌"),
    "bad_token": ("That token is not this daemon's.", "这个令牌不属于本守护进程。"),
    "logout": ("Sign out", "退出登录"),
    "profile": ("Profile", "个人画像"),
    "no_profile": (
        "No profile yet: it is written after a few conversations.",
        "还没有画像：几次对话之后才会写出。",
    ),
    "facts": ("Facts", "事实"),
    "no_facts": ("No facts yet.", "还没有事实。"),
    "status_current": ("current", "当前"),
    "status_superseded": ("superseded", "已被取代"),
    "status_deleted": ("no longer true", "已不成立"),
    "superseded_by": ("replaced by", "被取代为"),
    "episodes": ("Conversations by day", "按天的对话"),
    "no_episodes": ("No conversations remembered yet.", "还没有记住的对话。"),
    "highlights": ("Highlights", "要点"),
    "why": ("Why do you remember this?", "你为什么记得这个？"),
    "sources": ("Where it came from", "来源"),
    "no_sources": ("No source turns are kept for this memory.", "这条记忆没有保留来源对话。"),
    "gone": ("(this message is no longer kept)", "（这条消息已不再保存）"),
    "history": ("History", "历史"),
    "search": ("Search", "搜索"),
    "search_ph": ("What do you want to find?", "你想找什么？"),
    "results": ("Results", "结果"),
    "no_results": ("Nothing found.", "什么也没找到。"),
    "forget": ("Forget", "忘记"),
    "forget_one": ("Forget this", "忘记这条"),
    "forget_topic": ("Forget a topic", "忘记一个话题"),
    "forget_topic_ph": ("every memory that mentions…", "所有提到……的记忆"),
    "forget_all": ("Forget everything", "忘记全部"),
    "forget_all_confirm": (
        "This erases everything this companion remembers about you, and cannot be undone. Sure?",
        "这会抹去这个陪伴者记得的关于你的一切，且无法撤销。确定吗？",
    ),
    "confirm": ("Yes, forget everything", "是的，全部忘记"),
    "cancel": ("Cancel", "取消"),
    "confirm_one": ("Forget this memory?", "忘记这条记忆？"),
    "correct": ("Correct", "更正"),
    "correct_ph": ("what is true now, in your words", "用你的话写下现在的事实"),
    "by_user": ("you said so", "你亲自说的"),
    "export": ("Export everything", "导出全部"),
    "mood": ("How it thinks you have been (30 days)", "它觉得你最近怎么样（30 天）"),
    "tone_now": ("Right now", "现在"),
    "tone_neutral": (
        "No strong feeling noticed: an ordinary tone.",
        "没有察觉到明显的情绪：语气如常。",
    ),
    "valence": ("valence", "愉悦度"),
    "arousal": ("arousal", "激活度"),
    "fatigue": ("fatigue", "疲劳"),
    "confidence": ("confidence", "把握"),
    "axis_time": ("day (last 30 days)", "日期（最近 30 天）"),
    "axis_level": ("level", "程度"),
    "session": ("session", "会话"),
    "no_mood": ("No mood readings in the last 30 days.", "最近 30 天没有情绪记录。"),
    "band_very_low": ("very low", "非常低落"),
    "band_low": ("low", "低落"),
    "band_neutral": ("neutral", "平稳"),
    "band_good": ("in good spirits", "心情不错"),
    "band_tired": ("tired", "疲惫"),
    "band_exhausted": ("exhausted", "精疲力竭"),
    "band_none": ("rested", "不累"),
    "tense": ("tense", "紧张"),
    "spirits": ("Spirits", "情绪"),
    "energy": ("Energy", "精力"),
    "scheduler": ("What it means to bring up", "它打算提起的事"),
    "armed": ("Waiting to be asked about", "等着被问起的事"),
    "no_armed": ("Nothing is waiting.", "没有等待中的事。"),
    "window": ("between", "时间段"),
    "scene": ("kind", "类别"),
    "avoid": ("Don't bring this up", "别提这个"),
    "avoided": ("Never brought up", "永不提起"),
    "avoid_ph": ("a topic or word never to bring up", "永不提起的话题或词语"),
    "add": ("Add", "添加"),
    "remove": ("Remove", "移除"),
    "settings": ("Settings", "设置"),
    "enabled": ("suggestions on", "开启建议"),
    "quiet": ("quiet mode (keep track, never ask)", "安静模式（记着，但不主动问）"),
    "allow": (
        "only these topics (comma separated, empty: all)",
        "只限这些话题（逗号分隔，留空为全部）",
    ),
    "save": ("Save", "保存"),
    "suggested": ("Last suggestions", "最近的建议"),
    "no_suggested": ("Nothing suggested yet.", "还没有提出过建议。"),
    "feedback": ("Your feedback", "你的反馈"),
    "welcome": ("welcome", "欢迎"),
    "annoying": ("annoying", "打扰"),
    "engaged": ("talked about it", "聊过了"),
    "not_engaged": ("not taken up", "没有接话"),
    "back": ("Back", "返回"),
    "language": ("中文", "English"),
    "note_forgot": ("Forgotten: ", "已忘记："),
    "note_corrected": ("Corrected.", "已更正。"),
    "note_avoided": ("It will not be brought up.", "不会再提起。"),
    "note_saved": ("Saved.", "已保存。"),
    "note_feedback": ("Thank you for the feedback.", "谢谢你的反馈。"),
    "kind_fact": ("fact", "事实"),
    "kind_episode": ("conversation", "对话"),
    "kind_highlight": ("highlight", "要点"),
    "kind_utterance": ("words said", "说过的话"),
    "scene_plan": ("a plan", "计划"),
    "scene_worry": ("a worry", "担心的事"),
    "scene_emotion": ("a feeling", "心情"),
    "scene_manual": ("set by an app", "由应用设置"),
    "role_user": ("you", "你"),
    "role_assistant": ("companion", "陪伴者"),
    "role_system": ("system", "系统"),
    "role_tool": ("tool", "工具"),
    "role_None": ("?", "？"),
}


def t(lang: Lang, key: str) -> str:
    en, zh = TEXT[key]
    return zh if lang == "zh" else en


def _accepted(header: str) -> Lang | None:
    """The first of English or Chinese the browser lists, weighed by its q-values."""
    ranked: list[tuple[float, int, Lang]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        base = tag.strip().lower().split("-")[0]
        if base in LANGS and q > 0:
            ranked.append((-q, i, "zh" if base == "zh" else "en"))
    return min(ranked)[2] if ranked else None


def choose(asked: str | None, kept: str | None, accept_language: str) -> Lang:
    for given in (asked, kept):
        if given == "zh":
            return "zh"
        if given == "en":
            return "en"
    return _accepted(accept_language) or "en"
