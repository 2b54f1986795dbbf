"""The memory page's HTML, one function per page, from the records of ``views`` (and search hits).

Everything goes through ``markup.el``, which escapes: a memory is the user's text. Every form that
changes something posts to the daemon's own origin with the per-session CSRF token (``site``), and
the style sheet and script are the daemon's own files (a Content-Security-Policy of ``'self'``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from itertools import groupby
from urllib.parse import quote, urlencode

from ...clock import zone
from ...memory.pack import Hit
from ...mood import tone
from ...store.agents import Agent
from ...store.memory import Fact
from ...store.recall import RecallItem
from .i18n import TEXT, Lang, t
from .markup import Markup, el, join
from .plot import mood_svg
from .views import Overview, Why

NOTES = frozenset({"forgot", "corrected", "avoided", "saved", "feedback"})


def when(ts_ms: int | None, fmt: str = "%Y-%m-%d %H:%M") -> str:
    return "" if ts_ms is None else datetime.fromtimestamp(ts_ms / 1000, zone()).strftime(fmt)


def agent_url(agent_id: str, rest: str = "") -> str:
    return f"/a/{quote(agent_id, safe='')}{rest}"


def document(
    lang: Lang, title: str, body: Markup, *, signed_out_form: Markup | None = None
) -> bytes:
    other: Lang = "en" if lang == "zh" else "zh"
    head = el(
        "head",
        el("meta", charset="utf-8"),
        el("meta", name="viewport", content="width=device-width, initial-scale=1"),
        el("title", title),
        el("link", rel="stylesheet", href="/web/style.css"),
        el("script", src="/web/app.js", defer=True),
    )
    bar = el(
        "header",
        el("h1", el("a", t(lang, "title"), href="/")),
        el("a", t(lang, "language"), href=f"?lang={other}", id="lang-switch", hreflang=other),
        signed_out_form,
    )
    page = el(
        "html", head, el("body", bar, el("main", body)), lang="zh-CN" if lang == "zh" else "en"
    )
    return ("<!doctype html>\n" + page).encode()


def post_form(
    action: str,
    csrf: str,
    fields: dict[str, str],
    label: str,
    *,
    confirm: str | None = None,
    danger: bool = False,
    extra: Markup | None = None,
    css: str = "inline",
) -> Markup:
    hidden = [el("input", type="hidden", name=k, value=v) for k, v in fields.items()]
    return el(
        "form",
        el("input", type="hidden", name="csrf", value=csrf),
        hidden,
        extra,
        el("button", label, type="submit", class_="danger" if danger else None),
        method="post",
        action=action,
        class_=css,
        data_confirm=confirm,
    )


def logout_form(lang: Lang, csrf: str) -> Markup:
    return post_form("/logout", csrf, {}, t(lang, "logout"))


def login(lang: Lang, error: bool) -> bytes:
    body = el(
        "section",
        el("h2", t(lang, "login")),
        el("p", t(lang, "login_help")),
        el("p", t(lang, "bad_token"), class_="error") if error else None,
        el(
            "form",
            el(
                "label",
                t(lang, "token"),
                " ",
                el(
                    "input",
                    type="password",
                    name="token",
                    id="token",
                    autocomplete="current-password",
                    required=True,
                ),
            ),
            el("button", t(lang, "login"), type="submit", id="login"),
            method="post",
            action="/login",
        ),
    )
    return document(lang, t(lang, "login"), body)


def agents(lang: Lang, found: Sequence[Agent], out: Markup | None) -> bytes:
    items = [
        el(
            "li",
            el("a", a.name or a.agent_id, href=agent_url(a.agent_id)),
            " ",
            el("span", a.agent_id, class_="meta"),
        )
        for a in found
    ]
    body = el(
        "section",
        el("h2", t(lang, "agents")),
        el("ul", items, class_="items") if items else el("p", t(lang, "no_agents")),
    )
    return document(lang, t(lang, "agents"), body, signed_out_form=out)


def _search_form(lang: Lang, agent_id: str, query: str = "") -> Markup:
    return el(
        "form",
        el(
            "input",
            type="search",
            name="q",
            value=query,
            placeholder=t(lang, "search_ph"),
            id="q",
            required=True,
        ),
        el("button", t(lang, "search"), type="submit", id="search"),
        method="get",
        action=agent_url(agent_id, "/search"),
        role="search",
    )


def _why_link(lang: Lang, agent_id: str, kind: str, item_id: int) -> Markup:
    href = agent_url(agent_id, "/why?" + urlencode({"id": f"{kind}:{item_id}"}))
    return el("a", t(lang, "why"), href=href, class_="why")


def _forget_one(lang: Lang, agent_id: str, csrf: str, kind: str, item_id: int) -> Markup:
    return post_form(
        agent_url(agent_id, "/forget"),
        csrf,
        {"id": f"{kind}:{item_id}"},
        t(lang, "forget_one"),
        confirm=t(lang, "confirm_one"),
        danger=True,
    )


def _fact(lang: Lang, agent_id: str, csrf: str, f: Fact, by_id: dict[int, Fact]) -> Markup:
    status = el("span", t(lang, f"status_{f.status}"), class_=f"status status-{f.status}")
    after: list[object] = []
    if f.superseded_by is not None:
        newer = by_id.get(f.superseded_by)
        after.append(
            el(
                "div",
                t(lang, "superseded_by"),
                " ",
                el("q", newer.text if newer else f"#{f.superseded_by}"),
                class_="meta",
            )
        )
    if f.decided_by == "user":
        after.append(el("span", t(lang, "by_user"), class_="meta"))
    actions: list[object] = [_why_link(lang, agent_id, "fact", f.fact_id), " "]
    if f.status == "current":
        actions.append(
            post_form(
                agent_url(agent_id, "/correct"),
                csrf,
                {"id": f"fact:{f.fact_id}"},
                t(lang, "correct"),
                extra=el(
                    "input",
                    type="text",
                    name="text",
                    placeholder=t(lang, "correct_ph"),
                    required=True,
                    maxlength=1000,
                ),
            )
        )
    actions.append(_forget_one(lang, agent_id, csrf, "fact", f.fact_id))
    return el(
        "li",
        status,
        " ",
        el("span", f.text, class_="text"),
        after,
        el("div", actions, class_="actions"),
        class_=f"fact {f.status}",
        id=f"fact-{f.fact_id}",
        data_status=f.status,
    )


def _episodes(lang: Lang, ov: Overview, csrf: str) -> Markup:
    if not ov.episodes:
        return el("p", t(lang, "no_episodes"))
    days = []
    for day, eps in groupby(ov.episodes, key=lambda e: when(e.ended_ms, "%Y-%m-%d")):
        items = [
            el(
                "li",
                el("span", when(e.ended_ms, "%H:%M"), class_="meta"),
                " ",
                el("span", e.summary, class_="text"),
                el("ul", [el("li", h) for h in e.highlights], class_="highlights")
                if e.highlights
                else None,
                el(
                    "div",
                    _why_link(lang, ov.agent.agent_id, "episode", e.episode_id),
                    " ",
                    _forget_one(lang, ov.agent.agent_id, csrf, "episode", e.episode_id),
                    class_="actions",
                ),
                id=f"episode-{e.episode_id}",
                class_="episode",
            )
            for e in eps
        ]
        days.append(el("li", el("h3", day), el("ul", items, class_="items")))
    return el("ul", days, class_="days")


def _tone(lang: Lang, ov: Overview) -> Markup:
    b = tone.bands(ov.mood)
    if b.neutral:
        return el("p", t(lang, "tone_now"), ": ", t(lang, "tone_neutral"), id="tone")
    words = [
        f"{t(lang, 'spirits')}: {t(lang, 'band_' + b.valence)}",
        f"{t(lang, 'energy')}: {t(lang, 'band_' + b.fatigue)}",
    ]
    if b.tension:
        words.append(t(lang, "tense"))
    return el("p", t(lang, "tone_now"), ": ", "; ".join(words), id="tone")


def _item(lang: Lang, agent_id: str, csrf: str, i: RecallItem, feedback: bool) -> Markup:
    scene = t(lang, f"scene_{i.scene}") if f"scene_{i.scene}" in TEXT else i.scene
    why: list[object] = [t(lang, "scene"), ": ", scene]
    if i.source_episode is not None:
        why += [" ", _why_link(lang, agent_id, "episode", i.source_episode)]
    parts: list[object] = [
        el("span", i.topic, class_="text"),
        el(
            "div",
            t(lang, "window"),
            " ",
            when(i.not_before),
            " – ",
            when(i.not_after),
            class_="meta",
        ),
        el("div", why, class_="meta"),
    ]
    if feedback:
        taken = None if i.engaged is None else t(lang, "engaged" if i.engaged else "not_engaged")
        parts.append(
            el(
                "div",
                when(i.pushed_ms),
                " ",
                taken,
                " ",
                t(lang, "feedback"),
                ": ",
                t(lang, i.feedback) if i.feedback else "—",
                class_="meta",
            )
        )
        parts += [
            post_form(
                agent_url(agent_id, "/feedback"),
                csrf,
                {"item": str(i.item_id), "feedback": v},
                t(lang, v),
            )
            for v in ("welcome", "annoying")
        ]
    parts.append(
        post_form(agent_url(agent_id, "/avoid"), csrf, {"item": str(i.item_id)}, t(lang, "avoid"))
    )
    return el("li", parts, id=f"item-{i.item_id}", class_="recall")


def _scheduler(lang: Lang, ov: Overview, csrf: str) -> Markup:
    a, s = ov.agent.agent_id, ov.settings
    armed = [_item(lang, a, csrf, i, False) for i in ov.armed]
    suggested = [_item(lang, a, csrf, i, True) for i in ov.suggested]
    avoided = [
        el(
            "li",
            el("span", w, class_="text"),
            " ",
            post_form(agent_url(a, "/avoid"), csrf, {"remove": w}, t(lang, "remove")),
        )
        for w in s.avoid
    ]
    settings = el(
        "form",
        el("input", type="hidden", name="csrf", value=csrf),
        el(
            "label",
            el("input", type="checkbox", name="enabled", value="1", checked=s.enabled),
            " ",
            t(lang, "enabled"),
        ),
        el("br"),
        el(
            "label",
            el("input", type="checkbox", name="quiet", value="1", checked=s.quiet),
            " ",
            t(lang, "quiet"),
        ),
        el("br"),
        el(
            "label",
            t(lang, "allow"),
            " ",
            el("input", type="text", name="allow", value=", ".join(s.allow)),
        ),
        el("br"),
        el("button", t(lang, "save"), type="submit"),
        method="post",
        action=agent_url(a, "/scheduler"),
        id="scheduler-settings",
    )
    add_avoid = post_form(
        agent_url(a, "/avoid"),
        csrf,
        {},
        t(lang, "add"),
        extra=el(
            "input",
            type="text",
            name="topic",
            placeholder=t(lang, "avoid_ph"),
            required=True,
            maxlength=200,
        ),
    )
    return el(
        "section",
        el("h2", t(lang, "scheduler")),
        el("h3", t(lang, "armed")),
        el("ul", armed, class_="items") if armed else el("p", t(lang, "no_armed")),
        el("h3", t(lang, "suggested")),
        el("ul", suggested, class_="items") if suggested else el("p", t(lang, "no_suggested")),
        el("h3", t(lang, "avoided")),
        el("ul", avoided, class_="items", id="avoided"),
        add_avoid,
        el("h3", t(lang, "settings")),
        settings,
        id="scheduler",
    )


def _note(lang: Lang, note: str | None, count: str | None) -> Markup | None:
    if note not in NOTES:
        return None
    return el(
        "p",
        t(lang, f"note_{note}"),
        count if count and count.isdigit() else "",
        class_="note",
        id="note",
    )


def overview(
    lang: Lang, ov: Overview, csrf: str, note: str | None, count: str | None, out: Markup | None
) -> bytes:
    a = ov.agent.agent_id
    by_id = {f.fact_id: f for f in ov.facts}
    facts = [
        _fact(lang, a, csrf, f, by_id)
        for f in sorted(ov.facts, key=lambda f: (f.status != "current", -f.fact_id))
    ]
    body = join(
        [
            _note(lang, note, count),
            el("h2", ov.agent.name or a),
            _search_form(lang, a),
            el(
                "section",
                el("h2", t(lang, "profile")),
                el("p", ov.persona.text if ov.persona else t(lang, "no_profile"), id="profile"),
            ),
            el(
                "section",
                el("h2", t(lang, "mood")),
                _tone(lang, ov),
                mood_svg(ov.readings, ov.sessions, ov.now_ms, lang),
                id="mood",
            ),
            el(
                "section",
                el("h2", t(lang, "facts")),
                el("ul", facts, class_="items", id="facts")
                if facts
                else el("p", t(lang, "no_facts")),
            ),
            el("section", el("h2", t(lang, "episodes")), _episodes(lang, ov, csrf), id="episodes"),
            _scheduler(lang, ov, csrf),
            el(
                "section",
                el("h2", t(lang, "forget")),
                post_form(
                    agent_url(a, "/forget"),
                    csrf,
                    {},
                    t(lang, "forget"),
                    danger=True,
                    extra=el(
                        "input",
                        type="text",
                        name="query",
                        placeholder=t(lang, "forget_topic_ph"),
                        required=True,
                        minlength=2,
                        maxlength=1000,
                        aria_label=t(lang, "forget_topic"),
                    ),
                    css="inline forget-topic",
                ),
                post_form(
                    agent_url(a, "/forget"),
                    csrf,
                    {"all": "1"},
                    t(lang, "forget_all"),
                    danger=True,
                    css="inline forget-all",
                ),
                " ",
                el(
                    "a",
                    t(lang, "export"),
                    href=agent_url(a, "/export"),
                    download=f"xaid-{a}.json",
                    id="export",
                ),
            ),
        ]
    )
    return document(lang, f"{t(lang, 'title')}: {ov.agent.name or a}", body, signed_out_form=out)


def search(
    lang: Lang, agent: Agent, query: str, hits: Iterable[Hit], csrf: str, out: Markup | None
) -> bytes:
    a = agent.agent_id
    items = [
        el(
            "li",
            el(
                "span",
                t(lang, f"kind_{h.kind}") if f"kind_{h.kind}" in TEXT else h.kind,
                class_="status",
            ),
            " ",
            el("span", h.text, class_="text"),
            " ",
            el("span", when(h.ts_ms), class_="meta"),
            el(
                "div",
                _why_link(lang, a, h.kind, h.id),
                " ",
                _forget_one(lang, a, csrf, h.kind, h.id),
                class_="actions",
            ),
            class_="hit",
            data_id=f"{h.kind}:{h.id}",
        )
        for h in hits
    ]
    body = join(
        [
            el("p", el("a", t(lang, "back"), href=agent_url(a))),
            _search_form(lang, a, query),
            el(
                "section",
                el("h2", t(lang, "results")),
                el("ul", items, class_="items", id="results")
                if items
                else el("p", t(lang, "no_results"), id="results"),
            ),
        ]
    )
    return document(lang, t(lang, "search"), body, signed_out_form=out)


def why(lang: Lang, agent: Agent, w: Why, csrf: str, out: Markup | None) -> bytes:
    a = agent.agent_id
    turns = [
        el(
            "li",
            el("span", t(lang, f"role_{u.role}"), class_="who"),
            " ",
            el("span", u.text if u.text is not None else t(lang, "gone"), class_="said"),
            " ",
            el("span", when(u.ts_ms), class_="meta"),
            class_="turn",
        )
        for u in w.turns
    ]
    history = [
        el("li", when(ts), " ", action, " ", el("q", text), " (", by, ")")
        for ts, action, text, by in w.history
    ]
    body = join(
        [
            el("p", el("a", t(lang, "back"), href=agent_url(a))),
            el("h2", t(lang, "why")),
            el("blockquote", w.text, id="memory-text"),
            el("p", t(lang, f"kind_{w.kind}"), " · ", when(w.ts_ms), class_="meta"),
            el(
                "section",
                el("h3", t(lang, "sources")),
                el("ul", turns, class_="items", id="sources")
                if turns
                else el("p", t(lang, "no_sources"), id="sources"),
            ),
            el("section", el("h3", t(lang, "history")), el("ul", history, class_="items"))
            if history
            else None,
            _forget_one(lang, a, csrf, w.kind, w.item_id),
        ]
    )
    return document(lang, t(lang, "why"), body, signed_out_form=out)


def confirm_all(lang: Lang, agent: Agent, csrf: str) -> bytes:
    a = agent.agent_id
    body = el(
        "section",
        el("h2", t(lang, "forget_all")),
        el("p", t(lang, "forget_all_confirm"), class_="error"),
        post_form(
            agent_url(a, "/forget"),
            csrf,
            {"all": "1", "confirm": a},
            t(lang, "confirm"),
            danger=True,
            css="inline confirm-all",
        ),
        " ",
        el("a", t(lang, "cancel"), href=agent_url(a)),
    )
    return document(lang, t(lang, "forget_all"), body)


def error(lang: Lang, status: int, message: str) -> bytes:
    body = el(
        "section",
        el("h2", str(status)),
        el("p", message, class_="error", id="error"),
        el("p", el("a", t(lang, "back"), href="/")),
    )
    return document(lang, str(status), body)
