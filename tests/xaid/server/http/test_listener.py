"""Where the HTTP surface listens: the default socket beside the CBOR one, explicit sockets and
ports, and what happens when one cannot be bound."""

from __future__ import annotations

import socket
import tempfile
from pathlib import Path

import pytest

from xaid.config import load
from xaid.server.http import listener
from xaid.server.listen import ListenError


def config(sock: Path, listen: str) -> object:
    return load(env={"XAID_SERVER_SOCKET": str(sock), "XAID_HTTP_LISTEN": listen})


def test_the_default_socket_sits_beside_the_cbor_one(tmp_path: Path) -> None:
    cfg = config(tmp_path / "run" / "xaid.sock", "unix:, tcp:127.0.0.1:0")
    doors = listener.bind(cfg, [])  # type: ignore[arg-type]
    try:
        unix, tcp = doors
        assert Path(unix.endpoint.path) == tmp_path / "run" / "xaid-http.sock"
        assert (tmp_path / "run" / "xaid-http.sock").stat().st_mode & 0o777 == 0o660
        assert not unix.needs_token and tcp.needs_token
        assert tcp.endpoint.port > 0 and tcp.endpoint.loopback  # port 0: the one the kernel chose
    finally:
        listener.close(doors)
    assert not (tmp_path / "run" / "xaid-http.sock").exists()


def test_a_default_socket_that_cannot_be_bound_is_skipped_an_explicit_one_stops_the_start() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        # a directory whose xaid.sock fits a Unix socket's 107 bytes and xaid-http.sock does not
        deep = Path(tmp) / ("d" * (105 - len(tmp) - len("/xaid.sock") - 1))
        deep.mkdir(mode=0o700)
        assert len(str(deep / "xaid.sock")) == 105 and len(str(deep / "xaid-http.sock")) == 110
        cfg = config(deep / "xaid.sock", "unix:")
        assert listener.bind(cfg, []) == []  # type: ignore[arg-type]
        with pytest.raises(ListenError):
            listener.bind(config(deep / "xaid.sock", f"unix:{deep / 'xaid-http.sock'}"), [])  # type: ignore[arg-type]


def test_a_port_in_use_stops_the_start(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(ListenError, match=f"tcp:127.0.0.1:{port}"):
            listener.bind(config(tmp_path / "xaid.sock", f"tcp:127.0.0.1:{port}"), [])  # type: ignore[arg-type]
