"""Who may talk to the HTTP surface, decided per request before any route runs.

- TCP: ``Authorization: Bearer <token>`` on every request (a port has no peer credentials).
- Host: on TCP, only a name of this machine (localhost, 127.0.0.1, [::1], the address listened on,
  ``http.hosts``). A DNS-rebinding page reaches 127.0.0.1 under its own name; its Host gives it away.
- Origin: a browser names the page that makes the request; unless ``http.origins`` lists it, or
  it is the daemon's own page (the Origin names the very Host asked), the request is refused (a page
  must not use the user's companion behind their back). Clients that are not browsers send no Origin.
- The memory page (every path outside the OpenAI routes, ``server/web``) checks the token itself,
  from the header or its cookie, so that a browser without one gets the sign-in form: ``signed_in``.

Forwarded headers (``X-Forwarded-For``, ``Forwarded``) and the body's ``user`` field are never read:
identity is the connection's.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from ...config import HttpConfig, HttpEndpoint
from . import token as tokens

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})


@dataclass(frozen=True, slots=True)
class Refusal:
    status: int
    message: str
    code: str


def _host_name(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else host
    return host.rpartition(":")[0] if host.count(":") == 1 else host


API_PATHS = ("/v1/", "/models", "/chat/")
COOKIE = "xaid_token"


def is_api(path: str) -> bool:
    """The OpenAI-compatible routes (``routes``); every other path is the memory page's."""
    return path == "/v1" or path.startswith(API_PATHS)


def same_site(url: str | None, headers: dict[str, str]) -> bool:
    """Whether ``url`` (an Origin or a Referer) is a page of the very host and port asked."""
    if not url:
        return False
    parts = urlsplit(url)
    host = headers.get("host", "").strip().lower()
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc.lower() == host


def cookies(headers: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in headers.get("cookie", "").split(";"):
        name, eq, value = part.strip().partition("=")
        if eq and name not in out:
            out[name] = value
    return out


def signed_in(by_token: bool, headers: dict[str, str], token: str) -> bool:
    """On a Unix socket the peer check at accept decided; on TCP the token, as ``Authorization:
    Bearer`` or as the page's cookie (``HttpOnly``, ``SameSite=Strict``), in constant time."""
    if not by_token:
        return True
    if tokens.matches(token, headers.get("authorization")):
        return True
    return tokens.matches(token, "Bearer " + cookies(headers).get(COOKIE, ""))


def check(
    cfg: HttpConfig, endpoint: HttpEndpoint, headers: dict[str, str], token: str, path: str = "/v1/"
) -> Refusal | None:
    """None when the request may go on; else why not, as an HTTP status and an error code."""
    origin = headers.get("origin")
    if origin is not None and origin not in cfg.origins and not same_site(origin, headers):
        return Refusal(
            403,
            f"origin {origin!r} may not use xaid (http.origins lists the pages that may)",
            "origin_not_allowed",
        )
    if endpoint.kind != "tcp":
        return None
    allowed = LOCAL_HOSTS | {h.lower() for h in cfg.hosts} | {endpoint.host.lower()}
    if ":" in endpoint.host:
        allowed |= {f"[{endpoint.host.lower()}]"}
    if _host_name(headers.get("host", "")) not in allowed:
        return Refusal(
            403,
            f"host {headers.get('host', '')!r} is not this machine (http.hosts adds names)",
            "host_not_allowed",
        )
    if is_api(path) and not tokens.matches(token, headers.get("authorization")):
        return Refusal(
            401,
            "this listener needs 'Authorization: Bearer <token>' (xaictl token prints it)",
            "invalid_api_key",
        )
    return None
