"""Thin client for the xaid daemon: the wire codec, a blocking and an asyncio client, xaictl."""

from .client import AsyncClient, AsyncStream, Client, Stream
from .core import DaemonUnavailable, default_socket_path
from .wire import PROTOCOL_VERSION, ErrorCode, Event, XaiError

__all__ = [
    "PROTOCOL_VERSION",
    "AsyncClient",
    "AsyncStream",
    "Client",
    "DaemonUnavailable",
    "ErrorCode",
    "Event",
    "Stream",
    "XaiError",
    "default_socket_path",
]
__version__ = "0.1.0"
