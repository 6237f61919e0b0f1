"""The kernel's round trip of a TCP connection (Linux ``TCP_INFO``), for the lamp race.

The race credits each seat with its round trip measured by ping/pong (server/race.py). A
client can hold its pongs back to look farther away than it is; the kernel's own estimate of
the connection's round trip does not see that delay (the client's kernel acknowledges the
ping's bytes whatever its application does), so it bounds the credit. ``read(sock)`` returns
the kernel's minimum round trip (``tcpi_min_rtt``: a windowed minimum, which delayed ACKs do
not inflate) and its smoothed one (``tcpi_rtt``, logs only), or None where there is no such
thing (not Linux, not a TCP socket, an old kernel).

``READER`` is what the server calls; tests replace it with a stub that reports the round
trip a real network would have (delays added in user space on loopback leave the kernel's
round trip near 0).
"""

from __future__ import annotations

import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: ``struct tcp_info`` (linux/tcp.h): ``tcpi_rtt`` (µs) is the u32 at byte 68, and
#: ``tcpi_min_rtt`` (µs, since Linux 4.6) the u32 at byte 148.
_RTT_OFFSET = 68
_MIN_RTT_OFFSET = 148
_INFO_BYTES = 152
#: ``tcpi_min_rtt`` before any round trip was measured (``~0U``).
_UNKNOWN = 0xFFFFFFFF


@dataclass(frozen=True)
class KernelRtt:
    """The kernel's round trips of one connection, in ms."""

    min_ms: float
    smoothed_ms: float


def parse(info: bytes) -> KernelRtt | None:
    """``KernelRtt`` from the bytes of a ``getsockopt(TCP_INFO)``; None if too short (a kernel
    older than 4.6) or before any round trip was measured."""
    if len(info) < _INFO_BYTES:
        return None
    (rtt,) = struct.unpack_from("=I", info, _RTT_OFFSET)
    (min_rtt,) = struct.unpack_from("=I", info, _MIN_RTT_OFFSET)
    if min_rtt == _UNKNOWN or min_rtt == 0:
        return None
    return KernelRtt(min_ms=min_rtt / 1000.0, smoothed_ms=rtt / 1000.0)


def read_tcp_info(sock: Any) -> KernelRtt | None:
    """The kernel's round trips of ``sock`` (a socket, or asyncio's ``TransportSocket``), or
    None where the kernel does not say."""
    option = getattr(socket, "TCP_INFO", None)
    if sock is None or option is None:
        return None
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, option, 256)
    except (OSError, TypeError, ValueError, AttributeError):
        return None
    return parse(info) if isinstance(info, bytes) else None


#: The reader the server uses (tests swap in a stub).
READER: Callable[[Any], KernelRtt | None] = read_tcp_info


def read(sock: Any) -> KernelRtt | None:
    """``READER(sock)``."""
    return READER(sock)
