"""The lamp race over the network: turning the server's receive times into reaction times.

Pure logic: no I/O, no asyncio, no clock. Every time is passed in, in milliseconds of the
server's monotonic clock (``time.monotonic() * 1000``), so the same code runs in the server
and in the simulation of tests/test_race_fairness.py. The method and its limits are
explained in docs/fairness.md, section "The lamp race".

A reaction time is measured on the server only: the reveal frame is written to a seat at
``sent``, travels down to the client (leg ``d``), the player reacts after ``r``, the press
travels up (leg ``u``) and is received at ``received``. So ``received - sent = d + r + u``,
and the server subtracts its estimate of ``d + u``, the seat's round trip, measured by
ping/pong on the same connection. Only the sum of the two legs matters, so an asymmetric
route (slow down, fast up) needs no special care. The two legs of *this* race jitter, and no
estimate can know by how much; the estimator only makes the correction the typical round
trip, robust to the outliers real connections have (a stalled pong, a retransmission).

A client can make its pongs *slower* (never faster: each ping carries a nonce), and would then
be credited with time it did not take. So the credit is also bounded by a measurement the
client cannot inflate selectively: the kernel's minimum TCP round trip of the connection
(``TCP_INFO``'s ``tcpi_min_rtt``, read by server/tcpinfo.py) plus ``KERNEL_SLACK_MS``, when
the server holds the player's TCP connection itself; behind a reverse proxy, a configured
fixed bound (settings ``race_kernel_rtt`` and ``race_max_rtt_ms``, docs/deploy.md).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from arabesque.core.decision import Reaction

#: Round-trip samples kept per connection. At one ping a second this is the last 16 s: long
#: enough that a few slow pongs (or pongs slowed on purpose around one race) hardly move the
#: median, short enough to follow a connection that really changes (Wi-Fi to mobile).
WINDOW_SAMPLES = 16
#: The largest one-way latency corrected for by default (the fixed bound is twice this, a
#: setting: ``race_max_rtt_ms``). A client that slows its pongs looks farther away; without
#: the kernel's round trip (behind a proxy) this cap is all that bounds its gain (a client
#: on a 20 ms line could gain 2 * 200 - 20 = 380 ms). Honest clients farther than this
#: (geostationary satellite, about 300 ms one-way) are under-corrected by the excess.
MAX_ONE_WAY_MS = 200.0
#: Whatever the estimates say, the race never waits more than this after a seat's window.
MAX_ALLOWANCE_MS = 1000.0
#: Extra wait past a seat's exact allowance: its estimate may rise between the reveal and
#: the press (a new ping sample), and the event loop needs a moment to read the frame.
GRACE_MS = 50.0
#: A corrected reaction faster than this is not a human reacting to what was shown; it is
#: kept (and clamped at 0) but reported by ``RaceTimer.implausible`` for review, since it is
#: what a client faking a long round trip, or guessing, produces.
MIN_PLAUSIBLE_MS = 100.0
#: How far above the kernel's minimum TCP round trip the credited round trip may go. It is
#: the most a client gains by holding its pongs back (the kernel's measurement does not see
#: that delay), and the jitter an honest connection keeps credit for: a connection whose
#: median round trip is more than this above its best one is under-corrected by the excess.
KERNEL_SLACK_MS = 20.0
#: A pong median this far above the kernel's round trip is logged and recorded for review:
#: more than jitter and the event loops explain (a client holding its pongs back, or a
#: stalled client process).
SUSPICIOUS_GAP_MS = 100.0
#: ... once the median has this many samples behind it (a pong or two delayed by the
#: server's own busy event loop is not worth a look).
SUSPICIOUS_SAMPLES = WINDOW_SAMPLES // 2


class LatencyEstimate:
    """One connection's round-trip estimate, fed by the server's ping/pong.

    The estimate is the median of the last ``WINDOW_SAMPLES`` round trips, capped at
    ``bound_ms``. Why the median: the race's own two legs are a fresh draw from
    the same distribution as a ping's, so the fair correction is that distribution's centre;
    the median is that centre without being dragged by upward outliers (a pong stalled by a
    garbage-collection pause or a TCP retransmission), which a mean is. The minimum would be
    robust too, but it subtracts the *best* round trip, so it penalises a jittery connection
    by its typical jitter while a steady one loses nothing: unfair between seats. Round trips
    cannot be faked shorter than they are (a pong cannot answer a ping before it arrives,
    when the ping carries an unpredictable nonce), only longer, which the bound limits.

    The bound (``bound_ms``) is ``max_round_trip_ms`` (by default ``2 * MAX_ONE_WAY_MS``)
    and, once ``kernel_round_trip`` has been given the kernel's minimum TCP round trip of the
    connection, at most that plus ``slack_ms``: holding pongs back then gains at most
    ``slack_ms``.
    """

    __slots__ = ("_recent", "kernel_min_ms", "kernel_rtt_ms", "max_round_trip_ms", "slack_ms")

    def __init__(
        self,
        max_round_trip_ms: float = 2 * MAX_ONE_WAY_MS,
        slack_ms: float = KERNEL_SLACK_MS,
    ) -> None:
        if not (math.isfinite(max_round_trip_ms) and max_round_trip_ms >= 0):
            raise ValueError(f"max_round_trip_ms must be >= 0, got {max_round_trip_ms!r}")
        if not (math.isfinite(slack_ms) and slack_ms >= 0):
            raise ValueError(f"slack_ms must be >= 0, got {slack_ms!r}")
        self._recent: deque[float] = deque(maxlen=WINDOW_SAMPLES)
        self.max_round_trip_ms = float(max_round_trip_ms)
        self.slack_ms = float(slack_ms)
        #: The kernel's minimum TCP round trip of the connection (None: not known, then
        #: only ``max_round_trip_ms`` bounds the credit).
        self.kernel_min_ms: float | None = None
        #: The kernel's smoothed TCP round trip, for logs only (delayed ACKs inflate it).
        self.kernel_rtt_ms: float | None = None

    def add_sample(self, rtt_ms: float) -> None:
        """Record one round trip: the server's receive time of a pong minus the time it
        wrote the ping (both server clock)."""
        if not math.isfinite(rtt_ms) or rtt_ms < 0:
            raise ValueError(f"a round trip is a finite number of ms >= 0, got {rtt_ms!r}")
        self._recent.append(float(rtt_ms))

    def kernel_round_trip(self, min_rtt_ms: float | None, rtt_ms: float | None = None) -> None:
        """The kernel's TCP round trips of the connection, read with a pong: its minimum
        (``tcpi_min_rtt``, which delayed ACKs do not inflate) bounds the credit; the smoothed
        one (``tcpi_rtt``) is kept for the logs. None: unknown (the bound is then the fixed
        one again)."""
        for value in (min_rtt_ms, rtt_ms):
            if value is not None and not (math.isfinite(value) and value >= 0):
                raise ValueError(f"a kernel round trip is a number of ms >= 0, got {value!r}")
        self.kernel_min_ms = None if min_rtt_ms is None else float(min_rtt_ms)
        self.kernel_rtt_ms = None if rtt_ms is None else float(rtt_ms)

    @property
    def samples(self) -> int:
        """Round trips recorded so far (the window keeps the last ``WINDOW_SAMPLES``)."""
        return len(self._recent)

    @property
    def raw_round_trip_ms(self) -> float:
        """The median of the recent round trips, unbounded (0.0 before any sample): for
        display and logs, never for correcting."""
        if not self._recent:
            return 0.0
        ordered = sorted(self._recent)
        mid = len(ordered) // 2
        if len(ordered) % 2:
            return ordered[mid]
        return (ordered[mid - 1] + ordered[mid]) / 2

    @property
    def bound_ms(self) -> float:
        """The largest round trip credited: ``max_round_trip_ms``, and at most the kernel's
        minimum round trip + ``slack_ms`` when that is known."""
        return credit_bound(self.max_round_trip_ms, self.kernel_min_ms, self.slack_ms)

    @property
    def round_trip_ms(self) -> float:
        """The correction subtracted from a reaction: the median round trip, at most
        ``bound_ms``."""
        return min(self.raw_round_trip_ms, self.bound_ms)

    @property
    def one_way_ms(self) -> float:
        """The correction applied to each of this client's two receive times: the reveal
        reached the client this long after it was written, and the press left the client
        this long before it was received: half of ``round_trip_ms``; 0.0 before any
        sample."""
        return self.round_trip_ms / 2

    @property
    def gap_ms(self) -> float | None:
        """How far the pongs' median round trip is above the kernel's minimum (None when
        the kernel's is not known): jitter for an honest connection, more for a client that
        holds its pongs back."""
        if self.kernel_min_ms is None or not self._recent:
            return None
        return self.raw_round_trip_ms - self.kernel_min_ms

    @property
    def suspicious(self) -> bool:
        """The pongs' median (of at least ``SUSPICIOUS_SAMPLES``) is slower than the kernel's
        round trip by more than ``SUSPICIOUS_GAP_MS``: worth a log line and a look."""
        gap = self.gap_ms
        return self.samples >= SUSPICIOUS_SAMPLES and gap is not None and gap > SUSPICIOUS_GAP_MS

    def describe(self) -> str:
        """The estimate in words, for logs."""
        kernel = (
            "unknown"
            if self.kernel_min_ms is None
            else f"min {self.kernel_min_ms:.1f} ms"
            + ("" if self.kernel_rtt_ms is None else f", smoothed {self.kernel_rtt_ms:.1f} ms")
        )
        return (
            f"pong median {self.raw_round_trip_ms:.1f} ms over {self.samples} samples, "
            f"kernel {kernel}, credited {self.round_trip_ms:.1f} ms"
        )


def credit_bound(max_round_trip_ms: float, kernel_min_ms: float | None, slack_ms: float) -> float:
    """The largest round trip a seat is credited with: the fixed bound, and at most the
    kernel's minimum TCP round trip + ``slack_ms`` when the kernel's is known."""
    if kernel_min_ms is None:
        return max_round_trip_ms
    return min(max_round_trip_ms, kernel_min_ms + slack_ms)


@dataclass(frozen=True)
class Correction:
    """What one seat's press was corrected by, kept for review: the pongs' median round
    trip, the kernel's minimum round trip (None: unknown), the round trip credited."""

    pong_ms: float
    kernel_min_ms: float | None
    credited_ms: float
    suspicious: bool


class RaceTimer:
    """One real-time decision across seats: who was shown it when, who answered what.

    Humans' answers come from ``pressed`` (the server's receive time, corrected by the
    seat's latency); bots', and a human's explicit "no", from ``answered``. A seat that never
    answers gets ``reaction.none``. The race closes when ``done`` or at ``deadline_ms()``.
    """

    def __init__(self, seats: Iterable[int], reaction: Reaction) -> None:
        self.reaction = reaction
        self.seats: tuple[int, ...] = tuple(sorted(set(seats)))
        if not self.seats:
            raise ValueError("a race needs at least one seat")
        self._sent: dict[int, float] = {}
        #: Per revealed seat, how long past its window the race waits for its press.
        self._allowance: dict[int, float] = {}
        self._ms: dict[int, float] = {}
        self._actions: dict[int, int] = {}
        self._corrections: dict[int, Correction] = {}

    def _check_seat(self, seat: int) -> None:
        if seat not in self.seats:
            raise ValueError(f"seat {seat!r} is not in this race (seats {list(self.seats)})")

    def revealed(self, seat: int, sent_ms: float, latency: LatencyEstimate | None = None) -> None:
        """The reveal frame was written to ``seat`` at server time ``sent_ms``.

        ``latency`` (optional) is the seat's estimate, used only for the deadline: without
        it the race waits for the largest correction there can be. A second call for the
        same seat is ignored: the race started for it at the first frame."""
        self._check_seat(seat)
        if not math.isfinite(sent_ms):
            raise ValueError(f"sent_ms must be a finite time, got {sent_ms!r}")
        if seat in self._sent:
            return
        self._sent[seat] = sent_ms
        # A press received later than sent + window + correction + step/2 is slower than the
        # window once corrected, so it would count as no reaction anyway: waiting for the
        # correction (plus the rounding half-step and a grace) is exactly enough.
        correction = 2 * MAX_ONE_WAY_MS if latency is None else latency.round_trip_ms
        wait = correction + self.reaction.step_ms / 2 + GRACE_MS
        self._allowance[seat] = min(wait, MAX_ALLOWANCE_MS)

    def pressed(self, seat: int, received_ms: float, latency: LatencyEstimate) -> float:
        """``seat`` pressed; the server received it at ``received_ms``. Returns the reaction
        time recorded for the seat: received - sent - the seat's round trip, at least 0.
        A seat that already answered keeps its first answer, whose time is returned (inf for a
        seat that answered "no reaction")."""
        self._check_seat(seat)
        if not math.isfinite(received_ms):
            raise ValueError(f"received_ms must be a finite time, got {received_ms!r}")
        if seat in self._actions:
            # The first press decides: a second one (key repeat, a double click, a client
            # retrying) must not replace it, least of all with a later time.
            first = self._ms.get(seat)
            if first is None:  # answered directly: its action's time, inf for no reaction
                recorded = self.reaction.ms_of(self._actions[seat])
                return math.inf if recorded is None else float(recorded)
            return first
        sent = self._sent.get(seat)
        if sent is None:
            raise ValueError(
                f"seat {seat} pressed before the race was revealed to it; call revealed() "
                "when the reveal frame is written"
            )
        credited = latency.round_trip_ms
        ms = max(0.0, received_ms - sent - credited)
        self._corrections[seat] = Correction(
            latency.raw_round_trip_ms, latency.kernel_min_ms, credited, latency.suspicious
        )
        self._ms[seat] = ms
        self._actions[seat] = self.reaction.action_for(ms)
        return ms

    def answered(self, seat: int, action: int) -> None:
        """``seat`` answered with ``action`` directly: a bot's rub from its reaction
        profile, or a human's explicit "no reaction" (``reaction.none``). Ignored when the
        seat already answered."""
        self._check_seat(seat)
        reaction = self.reaction
        last = reaction.first + reaction.window_ms // reaction.step_ms
        if action != reaction.none and not reaction.first <= action <= last:
            raise ValueError(
                f"action {action!r} is not a reaction: expected {reaction.none} (none) or "
                f"{reaction.first}..{last}"
            )
        if seat in self._actions:
            return
        self._actions[seat] = action

    def deadline_ms(self) -> float:
        """The server time at which the race closes: the latest, over the revealed seats, of
        reveal + window + that seat's allowance (its round trip, the rounding half-step and
        ``GRACE_MS``, at most ``MAX_ALLOWANCE_MS``). Seats never revealed (bots, who answer
        at once) are not waited for. Raises ValueError before any reveal."""
        if not self._sent:
            raise ValueError("no seat has been shown the race yet; reveal it first")
        window = self.reaction.window_ms
        return max(sent + window + self._allowance[s] for s, sent in self._sent.items())

    @property
    def done(self) -> bool:
        """Every seat answered (pressed or answered): no need to wait for the deadline."""
        return len(self._actions) == len(self.seats)

    def actions(self) -> dict[int, int]:
        """The action of every seat, in seat order: what it pressed or answered, and
        ``reaction.none`` for a seat that did neither."""
        return {s: self._actions.get(s, self.reaction.none) for s in self.seats}

    @property
    def reactions_ms(self) -> Mapping[int, float]:
        """The corrected reaction time of each seat that pressed (for logs and review)."""
        return dict(self._ms)

    @property
    def corrections(self) -> Mapping[int, Correction]:
        """What each seat that pressed was corrected by (for logs and review)."""
        return dict(self._corrections)

    def suspicious(self) -> frozenset[int]:
        """Seats whose pongs were much slower than the kernel's round trip of their
        connection when they pressed (``LatencyEstimate.suspicious``): the credit was bounded,
        but the gap is worth a look."""
        return frozenset(s for s, c in self._corrections.items() if c.suspicious)

    def implausible(self) -> frozenset[int]:
        """Seats whose corrected reaction is under ``MIN_PLAUSIBLE_MS``: faster than a
        human reacts to what was shown. The race still counts them; this is for review
        (a client faking a long round trip, or pressing before seeing)."""
        return frozenset(s for s, ms in self._ms.items() if ms < MIN_PLAUSIBLE_MS)
