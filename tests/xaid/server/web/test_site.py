"""The memory page over real HTTP, without a browser: who may see it (401 and the sign-in form),
who may change it (same-origin Origin or Referer and the CSRF token, else 403), and that each
action reaches the daemon's own services (checked over the CBOR socket). Real daemon, real
database; the provider is the scripted one (what is shown is what the daemon kept)."""

from __future__ import annotations

import json
import re

import httpx
from xaiclient import Client

from testkit.closing import kept
from testkit.http import http_socket

from .conftest import XSS, Site


def _client(site: Site, **headers: str) -> httpx.Client:
    return kept(httpx.Client(base_url=site.base, headers=headers, follow_redirects=False))


def _signed_in(site: Site, **headers: str) -> httpx.Client:
    h = _client(site, **headers)
    r = h.post("/login", data={"token": site.token}, headers={"origin": site.base})
    assert r.status_code == 303 and r.headers["location"] == "/"
    return h


def _csrf(h: httpx.Client, path: str = "/a/mia") -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', h.get(path).text)
    assert found
    return found.group(1)


def _facts(c: Client) -> list[dict[str, object]]:
    return list(c.call("memory.list", agent_id="mia", kind="fact", status="all")["items"])


def test_without_the_token_every_page_is_401_with_the_sign_in_form(site: Site) -> None:
    h = _client(site)
    for path in ("/", "/a/mia", "/a/mia/search?q=Anna", "/a/mia/why?id=fact:1", "/a/mia/export"):
        r = h.get(path)
        assert r.status_code == 401, path
        assert 'name="token"' in r.text and "Anna" not in r.text
    assert h.get("/", headers={"authorization": "Bearer nope"}).status_code == 401
    assert h.get("/", headers={"authorization": f"Bearer {site.token}"}).status_code == 200
    assert h.get("/", headers={"cookie": f"xaid_token={site.token}"}).status_code == 200
    # the cookie is the page's: the OpenAI routes still want the header
    assert h.get("/v1/models", headers={"cookie": f"xaid_token={site.token}"}).status_code == 401
    assert h.get("/web/style.css").status_code == 200  # no secret in the style sheet


def test_sign_in_sets_a_strict_http_only_cookie_and_refuses_a_wrong_token(site: Site) -> None:
    h = _client(site)
    wrong = h.post("/login", data={"token": "xaid-guess"}, headers={"origin": site.base})
    assert wrong.status_code == 401 and "xaid_token" not in wrong.headers.get("set-cookie", "")
    foreign = h.post(
        "/login", data={"token": site.token}, headers={"origin": "http://evil.example"}
    )
    assert foreign.status_code == 403
    assert h.post("/login", data={"token": site.token}).status_code == 403  # no Origin, no Referer
    r = h.post("/login", data={"token": site.token}, headers={"referer": site.base + "/login"})
    assert r.status_code == 303
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"xaid_token={site.token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert "content-security-policy" in r.headers


def test_a_change_needs_this_origin_and_the_csrf_token(site: Site) -> None:
    h = _signed_in(site)
    csrf = _csrf(h)
    with site.client() as c:
        before = _facts(c)
        form = {"query": "Kyoto"}
        assert h.post("/a/mia/forget", data=form, headers={"origin": site.base}).status_code == 403
        bad = {**form, "csrf": "0" * 40}
        assert h.post("/a/mia/forget", data=bad, headers={"origin": site.base}).status_code == 403
        good = {**form, "csrf": csrf}
        evil = h.post("/a/mia/forget", data=good, headers={"origin": "http://evil.example"})
        assert evil.status_code == 403
        other_port = h.post(
            "/a/mia/forget", data=good, headers={"origin": "http://127.0.0.1:1"}
        )  # same site, other origin: the cookie would come along, the Origin gives it away
        assert other_port.status_code == 403
        assert h.post("/a/mia/forget", data=good).status_code == 403  # neither Origin nor Referer
        assert _facts(c) == before  # nothing refused was forgotten
        ok = h.post("/a/mia/forget", data=good, headers={"referer": site.base + "/a/mia"})
        assert ok.status_code == 303 and "note=forgot" in ok.headers["location"]
        assert not c.memory_search("mia", "Kyoto")["items"] or all(
            "kyoto" not in str(i["text"]).lower() for i in c.memory_search("mia", "Kyoto")["items"]
        )


def test_on_the_unix_socket_the_peer_check_is_the_sign_in(site: Site) -> None:
    uds = kept(httpx.Client(transport=httpx.HTTPTransport(uds=str(http_socket(site.daemon)))))
    r = uds.get("http://localhost/a/mia")
    assert r.status_code == 200 and "Mia" in r.text and 'name="token"' not in r.text


def test_forget_everything_asks_first_then_erases_all(site: Site) -> None:
    h = _signed_in(site)
    csrf = _csrf(h)
    o = {"origin": site.base}
    with site.client() as c:
        asked = h.post("/a/mia/forget", data={"csrf": csrf, "all": "1"}, headers=o)
        assert asked.status_code == 200 and 'name="confirm"' in asked.text
        assert _facts(c)  # asking erased nothing
        wrong = h.post("/a/mia/forget", data={"csrf": csrf, "all": "1", "confirm": "x"}, headers=o)
        assert wrong.status_code == 200 and _facts(c)
        done = h.post("/a/mia/forget", data={"csrf": csrf, "all": "1", "confirm": "mia"}, headers=o)
        assert done.status_code == 303
        assert _facts(c) == []
        assert c.memory_search("mia", "Anna")["items"] == []
        assert c.memory_search("mia", "杭州")["items"] == []


def test_a_correction_is_the_users_own_fact_and_supersedes_the_old(site: Site) -> None:
    h = _signed_in(site)
    csrf = _csrf(h)
    with site.client() as c:
        for old_words, new_words in (
            ("Anna", "My sister Anna moved to Osaka."),
            ("小明", "我弟弟小明搬到上海了。"),
        ):
            old = next(
                f for f in _facts(c) if old_words in str(f["text"]) and f["status"] == "current"
            )
            form = {"csrf": csrf, "id": f"fact:{old['fact_id']}", "text": new_words}
            r = h.post("/a/mia/correct", data=form, headers={"origin": site.base})
            assert r.status_code == 303
            facts = {f["fact_id"]: f for f in _facts(c)}
            was = facts[old["fact_id"]]
            assert was["status"] == "superseded"
            new = facts[was["superseded_by"]]
            assert new["text"] == new_words and new["status"] == "current"
            assert new["decided_by"] == "user"
            again = h.post("/a/mia/correct", data=form, headers={"origin": site.base})
            assert again.status_code == 409  # the old fact is no longer current
        page = h.get("/a/mia").text
        assert "Osaka" in page and "上海" in page


def test_dont_bring_this_up_cancels_the_item_and_keeps_the_topic_out(site: Site) -> None:
    h = _signed_in(site)
    csrf = _csrf(h)
    with site.client() as c:
        armed = c.call("scheduler.list", agent_id="mia")["items"]
        item = next(i for i in armed if "interview" in i["topic"])
        r = h.post(
            "/a/mia/avoid",
            data={"csrf": csrf, "item": str(item["item_id"])},
            headers={"origin": site.base},
        )
        assert r.status_code == 303
        assert (
            c.call("scheduler.list", agent_id="mia", states=["cancelled"])["items"][0]["item_id"]
            == item["item_id"]
        )
        avoid = c.call("scheduler.config", agent_id="mia")["avoid"]
        assert avoid == [item["topic"]]
        form = {"csrf": csrf, "topic": "牙医"}
        assert h.post("/a/mia/avoid", data=form, headers={"origin": site.base}).status_code == 303
        exported = c.call("memory.export", agent_id="mia")["scheduler"]["settings"]
        assert exported["avoid"] == [item["topic"], "牙医"]
        gone = {"csrf": csrf, "remove": "牙医"}
        assert h.post("/a/mia/avoid", data=gone, headers={"origin": site.base}).status_code == 303
        assert c.call("scheduler.config", agent_id="mia")["avoid"] == [item["topic"]]


def test_stored_markup_is_shown_as_words(site: Site) -> None:
    h = _signed_in(site)
    for path in ("/a/mia", "/a/mia/search?q=typed+form"):
        page = h.get(path).text
        assert "&lt;script&gt;alert(&quot;xss&quot;)&lt;/script&gt;" in page, path
        assert XSS not in page and "<img src=x" not in page


def test_chinese_by_accept_language_or_by_choice(site: Site) -> None:
    zh = _signed_in(site, **{"accept-language": "zh-CN,zh;q=0.9,en;q=0.5"})
    page = zh.get("/a/mia").text
    assert '<html lang="zh-CN">' in page and "事实" in page and "愉悦度" in page
    en = zh.get("/a/mia?lang=en")
    assert '<html lang="en">' in en.text and "xaid_lang=en" in en.headers["set-cookie"]
    assert '<html lang="en">' in zh.get("/a/mia").text  # the choice is kept in a cookie


def test_export_downloads_everything(site: Site) -> None:
    h = _signed_in(site)
    r = h.get("/a/mia/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = r.json()
    with site.client() as c:
        assert data == c.call("memory.export", agent_id="mia")


def test_unknown_pages_and_agents_are_404_pages(site: Site) -> None:
    h = _signed_in(site)
    assert h.get("/a/nobody").status_code == 404
    assert h.get("/a/mia/nothing").status_code == 404
    assert h.get("/a/mia/why?id=fact:999").status_code == 404
    assert h.get("/a/mia/why?id=bogus").status_code == 400
    api = h.get("/v1/nothing", headers={"authorization": f"Bearer {site.token}"})
    assert api.status_code == 404 and api.json()["error"]["code"] == "unknown_url"  # the API's own


def test_provenance_of_an_imported_memory_reads_the_kept_turns(site: Site) -> None:
    """An import brings turns without a transcript: "why" finds them by their refs in the kept
    utterances, the same place a pruned transcript leaves them."""
    line = {
        "session_id": "old-chat",
        "started_ms": 1_700_000_000_000,
        "ended_ms": 1_700_000_600_000,
        "summary": "They talked about the garden.",
        "refs": ["m-1"],
        "utterances": [
            {"role": "user", "text": "我在阳台上种了番茄。", "ts": 1_700_000_000_000, "ref": "m-1"},
            {
                "role": "assistant",
                "text": "Tomatoes on a balcony!",
                "ts": 1_700_000_001_000,
                "ref": "m-2",
            },
        ],
    }
    fact = {
        "subject": "user.garden",
        "kind": "misc",
        "text": "用户在阳台上种番茄。",
        "refs": ["m-1", "m-9"],
    }
    h = _signed_in(site)
    with site.client() as c:
        c.agent_create("ana")
        c.call(
            "memory.import",
            agent_id="ana",
            files={"a.jsonl": json.dumps(line) + "\n"},
            facts=[fact],
        )
        fact_id = next(
            f["fact_id"] for f in c.call("memory.list", agent_id="ana", kind="fact")["items"]
        )
        episode_id = c.call("memory.list", agent_id="ana", kind="episode")["items"][0]["episode_id"]
        stats_before = c.stats()["methods"].get("http web why", {}).get("calls", 0)
    page = h.get(f"/a/ana/why?id=fact:{fact_id}").text
    sources = page[page.index('id="sources"') :]
    assert "我在阳台上种了番茄。" in sources
    assert "(this message is no longer kept)" in sources  # m-9: named by the fact, kept nowhere
    assert "我在阳台上种了番茄。" in h.get(f"/a/ana/why?id=episode:{episode_id}").text
    with site.client() as c:
        assert c.stats()["methods"]["http web why"]["calls"] == stats_before + 2
