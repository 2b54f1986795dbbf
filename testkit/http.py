"""The daemon's HTTP surface as the tests reach it: its Unix socket, and the official ``openai``
SDK over that socket (3.x is built on httpx2, which takes a Unix-socket transport). Every client
made here is ``kept``: closed after the test (warnings are errors in the suite)."""

from __future__ import annotations

from pathlib import Path

import httpx2
import openai

from .closing import kept
from .inproc import InProcessDaemon


def http_socket(d: InProcessDaemon) -> Path:
    """The HTTP listener's default Unix socket, beside the CBOR one."""
    return d.socket.parent / "xaid-http.sock"


def openai_over_unix(d: InProcessDaemon, **headers: str) -> openai.OpenAI:
    """An SDK client on the daemon's HTTP socket; no retries, so a refusal is seen as it is."""
    transport = httpx2.HTTPTransport(uds=str(http_socket(d)))
    return kept(
        openai.OpenAI(
            base_url="http://localhost/v1",
            api_key="unused-on-a-unix-socket",
            http_client=kept(httpx2.Client(transport=transport)),
            default_headers=headers or None,
            max_retries=0,
        )
    )
