"""The per-request checks: the token on TCP, Host against DNS rebinding, Origin against pages."""

from __future__ import annotations

from xaid.config import HttpConfig, HttpEndpoint
from xaid.server.http import guard
from xaid.server.http.token import ensure, matches

TCP = HttpEndpoint("tcp", host="127.0.0.1", port=8765)
UNIX = HttpEndpoint("unix", path="/run/xaid/xaid-http.sock")
AUTH = {"authorization": "Bearer xaid-t"}


def test_tcp_needs_the_token_and_a_local_host() -> None:
    cfg = HttpConfig()
    assert guard.check(cfg, TCP, {"host": "127.0.0.1:8765", **AUTH}, "xaid-t") is None
    assert guard.check(cfg, TCP, {"host": "localhost:8765", **AUTH}, "xaid-t") is None
    assert guard.check(cfg, TCP, {"host": "127.0.0.1:8765"}, "xaid-t").status == 401  # type: ignore[union-attr]
    wrong = {"host": "127.0.0.1", "authorization": "Bearer nope"}
    assert guard.check(cfg, TCP, wrong, "xaid-t").status == 401  # type: ignore[union-attr]
    rebinding = guard.check(cfg, TCP, {"host": "attacker.example:8765", **AUTH}, "xaid-t")
    assert rebinding is not None and rebinding.code == "host_not_allowed"
    named = HttpConfig(hosts=["companion.lan"])
    assert guard.check(named, TCP, {"host": "companion.lan:8765", **AUTH}, "xaid-t") is None
    v6 = HttpEndpoint("tcp", host="::1", port=1)
    assert guard.check(cfg, v6, {"host": "[::1]:1", **AUTH}, "xaid-t") is None


def test_origin_is_refused_unless_listed_on_any_listener() -> None:
    page = {"origin": "http://evil.example"}
    assert guard.check(HttpConfig(), UNIX, page, "t").code == "origin_not_allowed"  # type: ignore[union-attr]
    assert guard.check(HttpConfig(origins=["http://evil.example"]), UNIX, page, "t") is None
    assert guard.check(HttpConfig(), UNIX, {}, "t") is None  # a Unix socket needs no token


def test_the_token_file_is_private_and_stable(tmp_path: object) -> None:
    from pathlib import Path

    state = Path(str(tmp_path))
    first = ensure(state)
    assert first == ensure(state) and first.startswith("xaid-") and len(first) > 40
    assert (state / "http.token").stat().st_mode & 0o777 == 0o600
    assert matches(first, f"Bearer {first}") and matches(first, f"bearer {first}")
    assert not matches(first, first) and not matches(first, None) and not matches(first, "Bearer x")


def test_the_page_s_own_origin_passes_and_it_checks_its_token_itself() -> None:
    cfg = HttpConfig()
    own = {"host": "127.0.0.1:8765", "origin": "http://127.0.0.1:8765"}
    assert guard.check(cfg, TCP, own, "xaid-t", "/a/mia") is None  # the page answers 401 itself
    assert guard.check(cfg, TCP, {**own, **AUTH}, "xaid-t", "/v1/models") is None
    assert guard.check(cfg, TCP, own, "xaid-t", "/v1/models").status == 401  # type: ignore[union-attr]
    other_port = {"host": "127.0.0.1:8765", "origin": "http://127.0.0.1:9999", **AUTH}
    assert guard.check(cfg, TCP, other_port, "xaid-t", "/a/mia").code == "origin_not_allowed"  # type: ignore[union-attr]
    rebound = {"host": "evil.example:8765", "origin": "http://evil.example:8765"}
    assert guard.check(cfg, TCP, rebound, "xaid-t", "/").code == "host_not_allowed"  # type: ignore[union-attr]
    assert guard.is_api("/v1/chat/completions") and guard.is_api("/models")
    assert not guard.is_api("/") and not guard.is_api("/a/mia") and not guard.is_api("/v1x")


def test_signed_in_by_the_header_or_the_cookie_over_tcp_only() -> None:
    assert guard.signed_in(False, {}, "xaid-t")  # a Unix socket: the peer check decided
    assert guard.signed_in(True, AUTH, "xaid-t")
    assert guard.signed_in(True, {"cookie": "a=1; xaid_token=xaid-t; b=2"}, "xaid-t")
    assert not guard.signed_in(True, {"cookie": "xaid_token=xaid-x"}, "xaid-t")
    assert not guard.signed_in(True, {"cookie": "other=xaid-t"}, "xaid-t")
    assert not guard.signed_in(True, {}, "xaid-t")
    assert guard.same_site("http://localhost:1/a", {"host": "localhost:1"})
    assert not guard.same_site("http://localhost:2/a", {"host": "localhost:1"})
    assert not guard.same_site(None, {"host": "localhost:1"}) and not guard.same_site("null", {})
