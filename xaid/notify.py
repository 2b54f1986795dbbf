"""sd_notify: READY, STOPPING, WATCHDOG and STATUS to systemd.

systemd-python when it is importable; otherwise the datagram to $NOTIFY_SOCKET written by hand,
so a device without libsystemd headers still runs as Type=notify.
"""

from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    """True when a service manager was told; quietly False outside systemd."""
    path = os.environ.get("NOTIFY_SOCKET")
    if not path:
        return False
    try:
        from systemd import daemon

        return bool(daemon.notify(message))
    except ImportError:
        pass
    address = "\0" + path[1:] if path.startswith("@") else path
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError:
        return False
    return True


def watchdog_interval() -> float | None:
    """Half the watchdog period systemd set for us, or None when there is no watchdog."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 2_000_000
    except ValueError:
        return None
