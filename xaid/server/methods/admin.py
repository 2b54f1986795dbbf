"""admin.*: operating the daemon from a client — a consistent backup while it runs, and the HTTP
surface's token."""

from __future__ import annotations

import secrets
from typing import Any

import anyio
from xaiclient.wire import Busy

from ...config import listen_spec
from ...paths import state_dir
from ...store.backup import backup_file, temp_path
from ..dispatch import Call, method
from ..http import token as tokens

CHUNK = 256 * 1024  # well under the frame limit, with room for the envelope


@method("admin.backup")
async def backup(call: Call) -> dict[str, Any]:
    """Streams the snapshot as ``chunk`` events ({data: bytes}); the reply carries its size."""
    call.params.done()
    if call.app.backing_up:  # each one is a full copy of the database on disk while it streams
        raise Busy("a backup is already running; retry when it has finished")
    call.app.backing_up = True
    target = temp_path(call.app.db.path, secrets.token_hex(6))
    try:
        size = await anyio.to_thread.run_sync(backup_file, call.app.db.path, target)
        sent = 0
        async with await anyio.open_file(target, "rb") as f:
            while data := await f.read(CHUNK):
                await call.emit("chunk", {"data": data, "offset": sent})
                sent += len(data)
    finally:
        call.app.backing_up = False
        target.unlink(missing_ok=True)
    return {"bytes": size}


@method("admin.http_token")
async def http_token(call: Call) -> dict[str, Any]:
    """The bearer token of the HTTP surface's TCP listeners (``xaictl token``). Only a peer the
    allow-list admitted reaches this, the same trust as reading the token file itself."""
    call.params.done()
    cfg = call.app.config
    value = tokens.ensure(state_dir(cfg))
    return {"token": value, "listen": [str(e) for e in listen_spec(cfg.http.listen)]}
