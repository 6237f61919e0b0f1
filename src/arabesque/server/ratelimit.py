"""Rate limits per client address: a token bucket for each address, refused with 429.

``RateLimit(per_minute, burst)`` lets each key (a client address) make ``burst`` requests at
once, then ``per_minute`` a minute; ``take(key)`` spends one and says how long to wait when
none is left. ``limited(name)`` is the FastAPI dependency that applies the app's limit
``name`` (``app.state.limits``) to a route: the lobby's table creation and record uploads use
it, and so do hints (server/hints.py: a search each), with their own limit.

The client's address is the socket's peer, or what ``X-Forwarded-For`` names when the peer is
one of ``Settings.trusted_proxies`` (app.py puts uvicorn's ``ProxyHeadersMiddleware`` in
front of the app for that, so ``request.client`` is already the right address here).
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable

from fastapi import Request

from arabesque.server.errors import LobbyError

#: Buckets kept before the full ones (addresses quiet long enough) are forgotten.
PRUNE_AT = 10_000


class RateLimit:
    """A token bucket per key: ``burst`` tokens, refilled at ``per_minute`` a minute.

    ``per_minute`` 0 means no limit. ``clock`` (seconds, monotonic) is for tests.
    """

    def __init__(
        self,
        per_minute: float,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_second = per_minute / 60.0
        self.burst = float(burst)
        self.clock = clock
        #: key -> (tokens left, when they were counted)
        self._buckets: dict[str, tuple[float, float]] = {}
        self._pruned = -math.inf

    @property
    def enabled(self) -> bool:
        return self.per_second > 0

    def take(self, key: str) -> float | None:
        """Spend one token of ``key``'s bucket: None when there was one, else the seconds
        until there will be (nothing is spent then)."""
        if not self.enabled:
            return None
        now = self.clock()
        tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.per_second)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.per_second
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > PRUNE_AT and now - self._pruned >= 1.0:
            self._prune(now)  # at most once a second: a walk over every bucket
        return None

    def _prune(self, now: float) -> None:
        """Forget the buckets that have refilled (forgetting them changes nothing)."""
        self._pruned = now
        full = [
            key
            for key, (tokens, then) in self._buckets.items()
            if tokens + (now - then) * self.per_second >= self.burst
        ]
        for key in full:
            del self._buckets[key]


def client_address(request: Request) -> str:
    """The client's address (after the trusted proxies' ``X-Forwarded-For``, if any), as
    limits count it: an IPv6 address by its /64 network, which is what one customer
    usually gets (counting each address would let one client use millions)."""
    host = request.client.host if request.client is not None else "unknown"
    return limit_key(host)


def limit_key(host: str) -> str:
    """``host`` as the limits count it: IPv4 as is, IPv6 by its /64 network."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv4Address):
        return host
    if address.ipv4_mapped is not None:  # ::ffff:203.0.113.5 is 203.0.113.5
        return str(address.ipv4_mapped)
    return str(ipaddress.IPv6Network((address, 64), strict=False))


def limited(name: str, what: str) -> Callable[[Request], None]:
    """A FastAPI dependency that spends one token of the app's limit ``name`` for the
    client's address, or answers ``429 rate_limited`` with ``Retry-After`` (whole seconds).
    ``what`` names the requests counted, for the message ("tables created")."""

    def dependency(request: Request) -> None:
        limit: RateLimit = request.app.state.limits[name]
        wait = limit.take(client_address(request))
        if wait is not None:
            seconds = max(1, math.ceil(wait))
            per_minute = limit.per_second * 60
            raise LobbyError(
                429,
                "rate_limited",
                f"too many {what} from your address (at most {limit.burst:g} at once, then "
                f"{per_minute:g} a minute); try again in {seconds} s",
                headers={"Retry-After": str(seconds)},
            )

    return dependency
