"""The memory page's routes: who may see it, which page a path is, and what a form post does.

Who: on a Unix socket the peer check at accept already decided (``exchange.admit``); on TCP the
token, from ``Authorization: Bearer`` or from the ``xaid_token`` cookie that ``POST /login`` sets
(``HttpOnly``: no script reads it; ``SameSite=Strict``: no other site's request carries it). Without
it a page answers 401 with the sign-in form.

A request that changes something (POST) must also come from this very page: its Origin (or, when a
browser sends none, its Referer) must name the host and port asked, and its form must carry the CSRF
token, an HMAC of the peer's identity under the daemon's secret token that only a page served here
can hold. Either missing is 403. ``guard`` has already refused a foreign Origin and a foreign Host
(DNS rebinding).

Which agent: the agents the connection may see, as on the OpenAI surface (every agent of this
daemon); the path names one of them, and nothing is read from a form field but that choice.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import parse_qs, quote, unquote

import apsw
from xaiclient.wire import XaiError

from ... import cpu
from ...app import App
from ...clock import at
from ...memory import correct as corrections
from ...memory.pack import Hit
from ...store import agents as agent_sql
from ...store import recall as recall_sql
from ...store.agents import Agent
from ...store.errors import StoreError
from ..dispatch import store_error
from ..http import guard
from ..http.exchange import Body, HttpRequest
from ..http.openai import HttpError
from ..methods import memory as memory_methods
from ..methods.memory import parse_item_id
from . import assets, i18n, pages, views
from .i18n import Lang
from .markup import Markup

HTML = b"text/html; charset=utf-8"
LANG_COOKIE = "xaid_lang"
COOKIE_DAYS = 30
SECURITY = (
    (
        "content-security-policy",
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    ),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "same-origin"),
    ("cache-control", "no-store"),
    ("x-frame-options", "DENY"),
)
ASSETS = {
    "/web/style.css": (assets.CSS.encode(), b"text/css; charset=utf-8"),
    "/web/app.js": (assets.JS.encode(), b"text/javascript; charset=utf-8"),
}
MAX_AVOID = 100


class Refused(Exception):
    """A page answer other than 2xx, shown as a page in the request's language."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class Request:
    """One request as the pages read it: the form or query, the language, the cookies."""

    def __init__(self, req: HttpRequest, token: str):
        self.req = req
        self.cookies = guard.cookies(req.headers)
        self.query = {k: v[0] for k, v in parse_qs(req.query, keep_blank_values=True).items()}
        form: dict[str, list[str]] = {}
        if req.method == "POST":
            try:
                form = parse_qs(
                    req.body.decode("utf-8"), keep_blank_values=True, max_num_fields=200
                )
            except (UnicodeDecodeError, ValueError):
                raise Refused(400, "the form is not UTF-8 form data") from None
        self.form = {k: v[0] for k, v in form.items()}
        asked = self.query.get("lang")
        self.lang: Lang = i18n.choose(
            asked, self.cookies.get(LANG_COOKIE), req.headers.get("accept-language", "")
        )
        self.headers: list[tuple[str, str]] = list(SECURITY)
        if asked in i18n.LANGS:
            self.headers.append(
                (
                    "set-cookie",
                    f"{LANG_COOKIE}={asked}; Path=/; SameSite=Strict; Max-Age={COOKIE_DAYS * 86400}",
                )
            )
        self.csrf = hmac.new(
            token.encode(), b"csrf\0" + req.peer.identity.encode(), hashlib.sha256
        ).hexdigest()[:40]


class Site:
    def __init__(self, token: str):
        self.token = token

    async def __call__(self, app: App, req: HttpRequest, out: Body) -> None:
        out.route = "web"
        path = req.path.rstrip("/") or "/"
        if path in ASSETS:
            out.route = "web asset"
            data, kind = ASSETS[path]
            await out.whole(
                200,
                data,
                kind,
                (("cache-control", "max-age=3600"), ("x-content-type-options", "nosniff")),
            )
            return
        try:
            r = Request(req, self.token)
        except Refused as exc:
            await out.whole(exc.status, pages.error("en", exc.status, exc.message), HTML, SECURITY)
            return
        try:
            await self._route(app, r, path, out)
        except Refused as exc:
            await self._page(out, r, exc.status, pages.error(r.lang, exc.status, exc.message))
        except XaiError as exc:
            await self._failed(out, r, HttpError.of(exc))
        except StoreError as exc:
            await self._failed(out, r, HttpError.of(store_error(exc)))

    async def _failed(self, out: Body, r: Request, exc: HttpError) -> None:
        await self._page(out, r, exc.status, pages.error(r.lang, exc.status, exc.message))

    async def _page(
        self, out: Body, r: Request, status: int, body: bytes, *more: tuple[str, str]
    ) -> None:
        await out.whole(status, body, HTML, (*r.headers, *more))

    async def _redirect(self, out: Body, r: Request, to: str, *more: tuple[str, str]) -> None:
        await out.whole(303, b"", HTML, (*r.headers, ("location", to), *more))

    def _from_here(self, r: Request) -> None:
        """A POST must come from this page: same-site Origin (or Referer) and the CSRF token."""
        h = r.req.headers
        source = h.get("origin") or h.get("referer")
        if not guard.same_site(source, h):
            raise Refused(403, "a change must come from this page (Origin or Referer of this host)")
        given = r.form.get("csrf") or h.get("x-csrf-token") or ""
        if not hmac.compare_digest(given.encode(), r.csrf.encode()):
            raise Refused(403, "the form's CSRF token is missing or wrong; reload the page")

    async def _route(self, app: App, r: Request, path: str, out: Body) -> None:
        method = r.req.method
        if path == "/login":
            out.route = "web login"
            await self._login(r, out)
            return
        by_token = r.req.peer.by_token
        if not guard.signed_in(by_token, r.req.headers, self.token):
            await self._page(
                out, r, 401, pages.login(r.lang, False), ("www-authenticate", 'Bearer realm="xaid"')
            )
            return
        signed_out = pages.logout_form(r.lang, r.csrf) if by_token else None
        if method == "POST":
            self._from_here(r)
        elif method != "GET":
            raise Refused(405, f"{method} is not allowed here")
        if path == "/logout" and method == "POST":
            await self._redirect(
                out,
                r,
                "/login",
                ("set-cookie", f"{guard.COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"),
            )
            return
        if path == "/" and method == "GET":
            out.route = "web agents"
            found = await app.db.run(agent_sql.list_all)
            await self._page(out, r, 200, pages.agents(r.lang, found, signed_out))
            return
        parts = path.split("/")
        if len(parts) < 3 or parts[1] != "a":
            raise Refused(404, f"no page {path!r}")
        agent = await app.db.run(agent_sql.get, unquote(parts[2]))
        if agent is None:
            raise Refused(404, f"no companion {unquote(parts[2])!r}")
        action = "/".join(parts[3:])
        handler = _GET.get(action) if method == "GET" else _POST.get(action)
        if handler is None:
            raise Refused(404, f"no page {path!r}")
        out.route = f"web {action or 'page'}"  # what stats counts it under: a page, never a path
        await handler(self, app, r, agent, out, signed_out)

    async def _login(self, r: Request, out: Body) -> None:
        if r.req.method == "GET":
            await self._page(out, r, 200, pages.login(r.lang, False))
            return
        if r.req.method != "POST":
            raise Refused(405, "use GET or POST on /login")
        h = r.req.headers
        if not guard.same_site(h.get("origin") or h.get("referer"), h):
            raise Refused(403, "sign in from this page (Origin or Referer of this host)")
        given = r.form.get("token", "").strip()
        if not guard.signed_in(True, {"authorization": f"Bearer {given}"}, self.token):
            await self._page(out, r, 401, pages.login(r.lang, True))
            return
        cookie = f"{guard.COOKIE}={given}; Path=/; HttpOnly; SameSite=Strict; Max-Age={COOKIE_DAYS * 86400}"
        await self._redirect(out, r, "/", ("set-cookie", cookie))

    # GET pages

    async def overview(
        self, app: App, r: Request, agent: Agent, out: Body, signed_out: Markup | None
    ) -> None:
        now = app.clock.now_ms()
        ov = await app.db.run(views.overview, agent, now, app.config)
        # a long memory is a page of some hundred kilobytes: built off the event loop (xaid.cpu)
        body = await cpu.run(
            pages.overview, r.lang, ov, r.csrf, r.query.get("note"), r.query.get("n"), signed_out
        )
        await self._page(out, r, 200, body)

    async def search(
        self, app: App, r: Request, agent: Agent, out: Body, signed_out: Markup | None
    ) -> None:
        query = r.query.get("q", "").strip()[:1000]
        hits: list[Hit] = []
        if query:
            hits, _ = await memory_methods.find(
                app, agent.agent_id, query, at(app.clock, None), k=20
            )
        body = await cpu.run(pages.search, r.lang, agent, query, hits, r.csrf, signed_out)
        await self._page(out, r, 200, body)

    async def why(
        self, app: App, r: Request, agent: Agent, out: Body, signed_out: Markup | None
    ) -> None:
        kind, number = _item_id(r.query.get("id", ""))
        found = await app.db.run(views.why, agent.agent_id, kind, number)
        if found is None:
            raise Refused(404, f"no memory {kind}:{number}")
        await self._page(out, r, 200, pages.why(r.lang, agent, found, r.csrf, signed_out))

    async def export(
        self, app: App, r: Request, agent: Agent, out: Body, signed_out: Markup | None
    ) -> None:
        data = await app.db.run(memory_methods.portable.export, agent.agent_id)
        body = await cpu.run(_json, data)
        name = quote(f"xaid-{agent.agent_id}.json", safe="")
        await out.whole(
            200,
            body,
            b"application/json",
            (*SECURITY, ("content-disposition", f"attachment; filename*=UTF-8''{name}")),
        )

    # POST actions: each ends in a redirect back to the agent's page (post/redirect/get)

    async def forget(
        self, app: App, r: Request, agent: Agent, out: Body, signed_out: Markup | None
    ) -> None:
        a = agent.agent_id
        if "id" in r.form:
            parse = _item_id(r.form["id"])
            if not await memory_methods.forget_item(app, a, f"{parse[0]}:{parse[1]}"):
                raise Refused(404, f"no memory {r.form['id']!r}")
            count = 1
        elif r.form.get("all") == "1":
            if r.form.get("confirm") != a:
                await self._page(out, r, 200, pages.confirm_all(r.lang, agent, r.csrf))
                return
            count = await memory_methods.forget_everything(app, a)
        else:
            query = r.form.get("query", "").strip()
            if len(query) < 2 or len(query) > 1000:
                raise Refused(400, "a topic to forget needs 2 to 1000 characters")
            count = await memory_methods.forget_topic(app, a, query)
        await self._redirect(out, r, pages.agent_url(a, f"?note=forgot&n={count}"))

    async def correct(
        self, app: App, r: Request, agent: Agent, out: Body, signed_out: Markup | None
    ) -> None:
        kind, number = _item_id(r.form.get("id", ""))
        text = " ".join(r.form.get("text", "").split())
        if kind != "fact" or not text or len(text) > corrections.MAX_TEXT:
            raise Refused(
                400,
                f"a correction names a fact and says it in 1 to {corrections.MAX_TEXT} characters",
            )
        vectors = await app.embeddings.embed_readable([text])
        now = app.clock.now_ms()
        try:
            await app.db.run(corrections.correct, agent.agent_id, number, text, vectors[0], now)
        except corrections.NotCurrent as exc:
            raise Refused(409, str(exc)) from None
        await self._redirect(out, r, pages.agent_url(agent.agent_id, "?note=corrected"))

    async def avoid(
        self, app: App, r: Request, agent: Agent, out: Body, signed_out: Markup | None
    ) -> None:
        """Don't bring this up: an armed item's topic (the item cancelled too) or words given, into
        the scheduler's ``avoid`` list; ``remove`` takes one out again."""
        a, gap = agent.agent_id, int(app.config.scheduler.min_gap_hours * 3_600_000)
        item = r.form.get("item")
        words = " ".join(r.form.get("topic", "").split())[:200]
        drop = r.form.get("remove")
        if item is not None and not item.isdigit():
            raise Refused(400, "'item' must be an item id")
        if item is None and drop is None and not words:
            raise Refused(400, "name a topic not to bring up")

        def run(conn: apsw.Connection) -> bool:
            s = recall_sql.settings(conn, a, gap)
            avoid = list(s.avoid)
            if item is not None:
                found = recall_sql.get(conn, a, int(item))
                if found is None:
                    return False
                avoid.append(found.topic)
                if found.state == "pending":
                    recall_sql.close(
                        conn, found.item_id, "cancelled", "the user asked not to bring it up"
                    )
            elif drop is not None:
                avoid = [w for w in avoid if w != drop]
            else:
                avoid.append(words)
            fresh = tuple(dict.fromkeys(w for w in avoid if w))[-MAX_AVOID:]
            recall_sql.save_settings(
                conn, a, recall_sql.Settings(s.enabled, s.quiet, s.min_gap_ms, s.allow, fresh)
            )
            return True

        if not await app.db.run(run):
            raise Refused(404, f"no scheduler item {item}")
        await self._redirect(out, r, pages.agent_url(a, "?note=avoided"))

    async def scheduler(
        self, app: App, r: Request, agent: Agent, out: Body, signed_out: Markup | None
    ) -> None:
        a, gap = agent.agent_id, int(app.config.scheduler.min_gap_hours * 3_600_000)
        allow = tuple(
            dict.fromkeys(
                w.strip()
                for w in r.form.get("allow", "").replace("，", ",").split(",")
                if w.strip()
            )
        )
        if len(allow) > 100 or any(len(w) > 200 for w in allow):
            raise Refused(400, "at most 100 topics of at most 200 characters")

        def run(conn: apsw.Connection) -> None:
            s = recall_sql.settings(conn, a, gap)
            new = recall_sql.Settings(
                "enabled" in r.form, "quiet" in r.form, s.min_gap_ms, allow, s.avoid
            )
            recall_sql.save_settings(conn, a, new)

        await app.db.run(run)
        await self._redirect(out, r, pages.agent_url(a, "?note=saved"))

    async def feedback(
        self, app: App, r: Request, agent: Agent, out: Body, signed_out: Markup | None
    ) -> None:
        a, item, verdict = agent.agent_id, r.form.get("item", ""), r.form.get("feedback")
        if not item.isdigit() or verdict not in ("welcome", "annoying"):
            raise Refused(400, "feedback names an item and is 'welcome' or 'annoying'")

        def run(conn: apsw.Connection) -> bool:
            found = recall_sql.get(conn, a, int(item))
            if found is None or found.pushed_ms is None:
                return False
            recall_sql.set_feedback(conn, found.item_id, verdict)
            return True

        if not await app.db.run(run):
            raise Refused(404, f"no suggestion {item}")
        await self._redirect(out, r, pages.agent_url(a, "?note=feedback"))


def _json(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=1).encode()


def _item_id(raw: str) -> tuple[str, int]:
    try:
        return parse_item_id(raw)
    except XaiError as exc:
        raise Refused(400, exc.message) from None


_GET = {"": Site.overview, "search": Site.search, "why": Site.why, "export": Site.export}
_POST = {
    "forget": Site.forget,
    "correct": Site.correct,
    "avoid": Site.avoid,
    "scheduler": Site.scheduler,
    "feedback": Site.feedback,
}
