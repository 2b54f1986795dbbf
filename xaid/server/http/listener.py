"""Where the HTTP surface listens: systemd's ``http`` socket, or the ``http.listen`` list bound here.

A Unix socket gets the CBOR socket's protection (a private directory, the socket's mode, the
SO_PEERCRED allow-list at accept); a TCP socket has none of that, so every request on it must carry
the token (``guard``), and a non-loopback address is bound only when the user wrote it out.
"""

from __future__ import annotations

import logging
import socket
from dataclasses import dataclass
from pathlib import Path

from ...config import Config, HttpEndpoint, listen_spec
from ...paths import socket_path
from ..listen import HTTP_FD_NAME, ListenError, bind_unix

log = logging.getLogger(__name__)
DEFAULT_NAME = "xaid-http.sock"


@dataclass(frozen=True, slots=True)
class Listener:
    sock: socket.socket
    endpoint: HttpEndpoint
    created: Path | None = None  # a socket file we made, removed at stop

    @property
    def needs_token(self) -> bool:
        return self.endpoint.kind == "tcp"


def default_path(cfg: Config) -> Path:
    """Beside the CBOR socket, so the same directory (and its mode) guards both."""
    return socket_path(cfg).parent / DEFAULT_NAME


def _endpoint_of(sock: socket.socket) -> HttpEndpoint:
    if sock.family == socket.AF_UNIX:
        name = sock.getsockname()
        return HttpEndpoint("unix", path=name if isinstance(name, str) else "")
    host, port = sock.getsockname()[:2]
    return HttpEndpoint("tcp", host=host, port=port)


def _bind_tcp(endpoint: HttpEndpoint) -> socket.socket:
    family = socket.AF_INET6 if ":" in endpoint.host else socket.AF_INET
    try:
        sock = socket.create_server((endpoint.host, endpoint.port), family=family, backlog=128)
    except OSError as exc:
        raise ListenError(f"cannot listen on {endpoint}: {exc.strerror or exc}") from None
    if not endpoint.loopback:
        log.warning(
            "the HTTP surface listens on %s, beyond this machine: every request needs the token",
            endpoint,
        )
    return sock


def bind(cfg: Config, activated: list[tuple[str, socket.socket]]) -> list[Listener]:
    """The HTTP listeners: systemd's (FileDescriptorName=http) when it passed any, else our own."""
    if socks := [sock for name, sock in activated if name == HTTP_FD_NAME]:
        log.info("using %d HTTP socket(s) from systemd", len(socks))
        return [Listener(sock, _endpoint_of(sock)) for sock in socks]
    out: list[Listener] = []
    try:
        for endpoint in listen_spec(cfg.http.listen):
            if endpoint.kind == "unix":
                path = Path(endpoint.path) if endpoint.path else default_path(cfg)
                try:
                    sock = bind_unix(path, int(cfg.server.socket_mode, 8))
                except ListenError as exc:
                    if endpoint.path:  # a socket the user asked for: not having it stops the start
                        raise
                    # the default one only: the CBOR socket (the native door) is up, so serve on
                    log.warning("no HTTP surface on the default socket: %s", exc)
                    continue
                out.append(Listener(sock, HttpEndpoint("unix", path=str(path)), path))
            else:
                sock = _bind_tcp(endpoint)  # port 0: the kernel's choice, logged as bound
                out.append(
                    Listener(
                        sock, HttpEndpoint("tcp", host=endpoint.host, port=sock.getsockname()[1])
                    )
                )
    except BaseException:
        close(out)
        raise
    return out


def close(listeners: list[Listener]) -> None:
    for listener in listeners:
        listener.sock.close()
        if listener.created is not None:
            listener.created.unlink(missing_ok=True)
