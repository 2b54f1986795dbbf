"""The memory page in a real browser: Debian's headless Chromium driven by Playwright (its own
browser download is never used). One browser and one seeded daemon for the module (a Chromium start
costs seconds on a small machine); each test has a fresh browser context, so no cookie carries over.
The tests touch different memories, so their order does not matter."""

from __future__ import annotations

import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Dialog, Page, sync_playwright

from testkit import png

from .conftest import XSS, Site, seed, start

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
if shutil.which(CHROMIUM) is None:  # .ci/run installs it (apt-get install chromium)
    pytest.skip(f"no {CHROMIUM}: apt-get install chromium chromium-driver", allow_module_level=True)


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    s = start(tmp_path_factory.mktemp("web") / "d")
    try:
        with s.client() as c:
            seed(c)
        yield s
    finally:
        s.daemon.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(locale="en-US", viewport={"width": 1000, "height": 900})
    try:
        yield ctx
    finally:
        ctx.close()


def _sign_in(page: Page, web: Site) -> None:
    first = page.goto(web.base + "/")
    assert first is not None and first.status == 401  # no cookie yet: refused, with the form
    page.fill("#token", web.token)
    page.click("#login")
    page.wait_for_url(web.base + "/")
    page.click("text=Mia")
    page.wait_for_selector("#facts")


def test_sign_in_search_provenance_and_the_mood_plot(web: Site, context: BrowserContext) -> None:
    page = context.new_page()
    _sign_in(page, web)
    labels = page.locator("#mood-plot .axis-label").all_text_contents()
    assert labels == ["day (last 30 days)", "level"]
    assert page.locator("#mood-plot polyline.series").count() == 4
    assert page.locator("#mood-plot .session-mark").count() == 2
    shot = page.locator("#mood-plot").screenshot()
    assert png.drawn(shot) > 2000  # lines, grid and labels, not a blank box
    page.fill("#q", "Anna")
    page.click("#search")
    page.wait_for_selector("#results li")
    hit = page.locator('#results li[data-id^="fact:"]').first
    assert "Anna" in hit.inner_text()
    hit.locator("a.why").click()
    page.wait_for_selector("#sources")
    assert "My sister Anna lives in Kyoto." in page.locator("#sources").inner_text()


def test_forget_an_item_and_it_is_gone_from_memory_search(
    web: Site, context: BrowserContext
) -> None:
    page = context.new_page()
    _sign_in(page, web)
    page.on("dialog", lambda d: d.accept())  # the script asks before a forget
    with web.client() as c:

        def facts_found() -> list[int]:
            found = c.call("memory.search", agent_id="mia", query="interview", kinds=["fact"])
            return [h["id"] for h in found["items"]]

        before = facts_found()
        assert before  # the interview is remembered as a fact
        row = page.locator(f"#fact-{before[0]}")
        row.locator("button:has-text('Forget this')").click()
        page.wait_for_selector("#note")
        assert page.locator(f"#fact-{before[0]}").count() == 0
        assert before[0] not in facts_found()


def test_correct_a_fact_in_chinese(web: Site, context: BrowserContext) -> None:
    page = context.new_page()
    _sign_in(page, web)
    with web.client() as c:
        facts = c.call("memory.list", agent_id="mia", kind="fact")["items"]
        old = next(f for f in facts if "小明" in f["text"])
        row = page.locator(f"#fact-{old['fact_id']}")
        row.locator("input[name=text]").fill("我弟弟小明现在住在成都。")
        row.locator("button:has-text('Correct')").click()
        page.wait_for_selector("#note")
        assert page.locator(f"#fact-{old['fact_id']}").get_attribute("data-status") == "superseded"
        facts = {
            f["fact_id"]: f
            for f in c.call("memory.list", agent_id="mia", kind="fact", status="all")["items"]
        }
        new = facts[facts[old["fact_id"]]["superseded_by"]]
        assert new["text"] == "我弟弟小明现在住在成都。" and new["status"] == "current"
        assert page.locator(f"#fact-{new['fact_id']}").get_attribute("data-status") == "current"


def test_refused_without_the_cookie_and_from_another_site(
    web: Site, context: BrowserContext, tmp_path: Path
) -> None:
    bare = context.request.get(web.base + "/a/mia")
    assert bare.status == 401
    page = context.new_page()
    _sign_in(page, web)
    csrf = page.locator("input[name=csrf]").first.get_attribute("value")
    # another site posts a form to the page's forget, with the real CSRF value even: refused
    attack = tmp_path / "attack.html"
    attack.write_text(
        f'<form id="f" method="post" action="{web.base}/a/mia/forget">'
        f'<input name="csrf" value="{csrf}"><input name="query" value="Anna"></form>'
        "<script>document.getElementById('f').submit()</script>"
    )
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=str(tmp_path), **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        evil = context.new_page()
        with evil.expect_response(lambda r: r.url.startswith(web.base)) as answer:
            evil.goto(f"http://127.0.0.1:{server.server_address[1]}/attack.html")
        assert answer.value.status == 403
    finally:
        server.shutdown()
        server.server_close()
    with web.client() as c:
        assert any(
            "Anna" in f["text"] for f in c.call("memory.list", agent_id="mia", kind="fact")["items"]
        )


def test_stored_script_stays_inert_and_the_page_speaks_chinese(browser: Browser, web: Site) -> None:
    ctx = browser.new_context(
        locale="zh-CN", extra_http_headers={"accept-language": "zh-CN,zh;q=0.9"}
    )
    try:
        page = ctx.new_page()
        dialogs: list[str] = []

        def seen(d: Dialog) -> None:
            dialogs.append(d.message)
            d.dismiss()

        page.on("dialog", seen)
        page.goto(web.base + "/")
        assert page.locator("#login").inner_text() == "登录"
        page.fill("#token", web.token)
        page.click("#login")
        page.wait_for_url(web.base + "/")
        page.goto(web.base + "/a/mia")
        assert page.locator("html").get_attribute("lang") == "zh-CN"
        assert "愉悦度" in page.locator("#mood").inner_text()
        assert page.locator("#mood-plot .axis-label").all_text_contents() == [
            "日期（最近 30 天）",
            "程度",
        ]
        assert XSS in page.locator("#episodes").inner_text()  # shown as the words it was
        assert page.locator("#episodes script, #episodes img").count() == 0
        assert dialogs == []
    finally:
        ctx.close()
