"""The lamp race's fairness over the network (src/arabesque/server/race.py), as a pure
simulation: no sockets, seeded randomness, times in ms of a simulated server clock.

Network model (docs/fairness.md, "The lamp race"): each leg of each message (ping down, pong
up, reveal down, press up) takes the client's base one-way time (half its round trip) plus
a jitter drawn uniformly from -30..+30 ms, independently per leg and never below 0; and 2%
of pongs are stalled by a further 300..1000 ms (a garbage-collection pause, a TCP
retransmission), which a plain mean would not survive. The server pings every second. Human
reactions are log-normal (median 600 ms, sigma 0.35, at least 150 ms), drawn independently
per player and race.
"""

from __future__ import annotations

import math
import random
from collections import deque
from dataclasses import dataclass, field

import pytest

from arabesque.core.decision import Reaction
from arabesque.games.magic_lamp.decisions import RACE_REACTION
from arabesque.server.race import (
    GRACE_MS,
    KERNEL_SLACK_MS,
    MAX_ALLOWANCE_MS,
    MAX_ONE_WAY_MS,
    MIN_PLAUSIBLE_MS,
    SUSPICIOUS_GAP_MS,
    SUSPICIOUS_SAMPLES,
    WINDOW_SAMPLES,
    LatencyEstimate,
    RaceTimer,
    credit_bound,
)

REACTION = RACE_REACTION
JITTER_MS = 30.0
STALL_RATE = 0.02
PING_EVERY_MS = 1000.0


@dataclass
class Client:
    """One simulated connection: its base round trip, and how long it holds each pong
    back on purpose (0 for an honest client)."""

    rtt_ms: float
    pong_delay_ms: float = 0.0
    jitter_ms: float = JITTER_MS
    #: The kernel's round-trip samples of the connection over its min_rtt window (Linux's
    #: tcp_min_rtt_wlen: 300 s, a ping a second).
    kernel: deque[float] = field(default_factory=lambda: deque(maxlen=300))

    def leg(self, rng: random.Random) -> float:
        return max(0.0, self.rtt_ms / 2 + rng.uniform(-self.jitter_ms, self.jitter_ms))

    def ping(self, rng: random.Random) -> float:
        """The round trip the server measures for one ping. The client's kernel acknowledges
        the ping when it arrives: the kernel's sample is the network's round trip, without
        the pong held back or the client's stall."""
        network = self.leg(rng) + self.leg(rng)
        self.kernel.append(network)
        rtt = network + self.pong_delay_ms
        if rng.random() < STALL_RATE:
            rtt += rng.uniform(300.0, 1000.0)
        return rtt

    def kernel_min(self) -> float:
        """``tcpi_min_rtt``: the least round trip in the window."""
        return min(self.kernel)


def sample(client: Client, est: LatencyEstimate, rng: random.Random, kernel: bool) -> None:
    """One ping and pong, and (``kernel``) the kernel's minimum round trip read with it."""
    est.add_sample(client.ping(rng))
    if kernel:
        est.kernel_round_trip(client.kernel_min())


def human_reaction(rng: random.Random) -> float:
    return max(150.0, math.exp(rng.gauss(math.log(600.0), 0.35)))


@dataclass
class RaceStats:
    counted: int = 0  # races whose true reactions differ by >= 50 ms
    faster_won: int = 0
    late_counted: int = 0  # presses received after the deadline that would have counted
    #: Per seat, recorded minus true reaction of every press (ms).
    errors: list[list[float]] = field(default_factory=list)


def simulate(
    races: int, seed: int, clients: list[Client], correct: bool = True, kernel: bool = False
) -> RaceStats:
    """Play ``races`` two-seat races, with a few seconds of pings between them; ``kernel``:
    the credit is bounded by the kernel's minimum round trip (the server holds the TCP
    connections), else by the fixed cap only (behind a proxy)."""
    rng = random.Random(seed)
    estimates = [LatencyEstimate() for _ in clients]
    none = LatencyEstimate()  # no correction at all, for the uncorrected comparison
    stats = RaceStats()
    stats.errors = [[] for _ in clients]
    now = 0.0
    for _ in range(WINDOW_SAMPLES):  # the connections' first seconds, before any race
        for client, est in zip(clients, estimates, strict=True):
            sample(client, est, rng, kernel)
        now += PING_EVERY_MS
    for _ in range(races):
        for _ in range(rng.randint(2, 5)):  # a turn's worth of pings between two races
            for client, est in zip(clients, estimates, strict=True):
                sample(client, est, rng, kernel)
            now += PING_EVERY_MS
        timer = RaceTimer(range(len(clients)), REACTION)
        truth = []
        received = []
        for seat, (client, est) in enumerate(zip(clients, estimates, strict=True)):
            sent = now + seat * 0.05  # frames written one after the other
            timer.revealed(seat, sent, est)
            reaction = human_reaction(rng)
            truth.append(reaction)
            received.append(sent + client.leg(rng) + reaction + client.leg(rng))
        for seat in sorted(range(len(clients)), key=received.__getitem__):
            ms = timer.pressed(seat, received[seat], estimates[seat] if correct else none)
            stats.errors[seat].append(ms - truth[seat])
        deadline = timer.deadline_ms()
        actions = timer.actions()
        for seat, at in enumerate(received):
            if at > deadline and actions[seat] != REACTION.none:
                stats.late_counted += 1
        if abs(truth[0] - truth[1]) >= 50.0:
            stats.counted += 1
            faster = 0 if truth[0] < truth[1] else 1
            # The engine breaks equal recorded times by its seeded RNG: count a tie as lost.
            if actions[faster] < actions[1 - faster]:
                stats.faster_won += 1
        now += 4000.0
    return stats


def test_the_faster_reaction_wins_95_percent_of_races_differing_by_50_ms() -> None:
    # 20 ms and 200 ms round trips, the near client first and then the far one first: the
    # correction must not favour either side.
    for clients in ([Client(20.0), Client(200.0)], [Client(200.0), Client(20.0)]):
        stats = simulate(3000, seed=7, clients=clients)
        rate = stats.faster_won / stats.counted
        assert stats.counted > 2000
        assert rate >= 0.95, f"faster reaction won {rate:.3f} of {stats.counted} races"
        assert stats.late_counted == 0


def test_without_the_correction_the_near_client_wins_races_it_should_lose() -> None:
    # The simulation is sensitive to what it measures: uncorrected, the 180 ms of extra round
    # trip costs the far client most close races.
    stats = simulate(2000, seed=7, clients=[Client(20.0), Client(200.0)], correct=False)
    assert stats.faster_won / stats.counted < 0.9


def test_a_client_slowing_its_pongs_gains_at_most_the_cap() -> None:
    rng = random.Random(3)
    honest, cheat = LatencyEstimate(), LatencyEstimate()
    for _ in range(WINDOW_SAMPLES):
        honest.add_sample(Client(20.0).ping(rng))
        cheat.add_sample(Client(20.0, pong_delay_ms=2000.0).ping(rng))
    assert cheat.one_way_ms == MAX_ONE_WAY_MS
    # The gain over telling the truth: the capped round trip minus the real one.
    assert cheat.round_trip_ms - honest.round_trip_ms <= 2 * MAX_ONE_WAY_MS - 20.0 + JITTER_MS


def test_with_the_kernel_bound_the_faster_reaction_still_wins() -> None:
    # The server holds the TCP connections: the credit is bounded by the kernel's minimum
    # round trip + KERNEL_SLACK_MS. In this model (±30 ms per leg) an honest connection's
    # median is ~55 ms above its minimum, so both seats are under-credited, the far one more
    # (the near one's legs are floored at 0): measured 99.07% and 99.23%, seed 7.
    for clients in ([Client(20.0), Client(200.0)], [Client(200.0), Client(20.0)]):
        stats = simulate(3000, seed=7, clients=clients, kernel=True)
        rate = stats.faster_won / stats.counted
        assert rate >= 0.95, f"faster reaction won {rate:.3f} of {stats.counted} races"
        assert stats.late_counted == 0


def _advantage_races(
    near: Client, far: Client, kernel: bool, advantage_ms: float, races: int, seed: int
) -> float:
    """The share of races the far player wins when it is ``advantage_ms`` faster, always."""
    rng = random.Random(seed)
    clients = [near, far]
    estimates = [LatencyEstimate(), LatencyEstimate()]
    for _ in range(WINDOW_SAMPLES):
        for client, est in zip(clients, estimates, strict=True):
            sample(client, est, rng, kernel)
    wins = 0
    for _ in range(races):
        for _ in range(rng.randint(2, 5)):
            for client, est in zip(clients, estimates, strict=True):
                sample(client, est, rng, kernel)
        timer = RaceTimer([0, 1], REACTION)
        base = human_reaction(rng)
        truth = [base + advantage_ms, base]
        for seat, (client, est) in enumerate(zip(clients, estimates, strict=True)):
            timer.revealed(seat, 0.0, est)
            timer.pressed(seat, client.leg(rng) + truth[seat] + client.leg(rng), est)
        actions = timer.actions()
        wins += actions[1] < actions[0]
    return wins / races


@pytest.mark.parametrize("far_ms", [20.0, 50.0, 100.0, 200.0])
def test_the_honest_far_player_wins_at_a_50_ms_advantage(far_ms: float) -> None:
    # Issue 17 §3: against a 20 ms player, a player 20-200 ms away who is always exactly
    # 50 ms faster wins, with the kernel bound, on connections whose round trip jitters by
    # ±30 ms (±15 ms per leg). (With ±30 ms per leg the far player's median is ~55 ms above
    # its best round trip, 35 ms over the slack, and the 50 ms advantage wins only ~67%:
    # docs/fairness.md, "Error bounds".)
    rate = _advantage_races(
        Client(20.0, jitter_ms=15.0), Client(far_ms, jitter_ms=15.0), True, 50.0, 1000, seed=5
    )
    assert rate >= 0.95, f"the far player won {rate:.3f} of its races"


@pytest.mark.parametrize("rtt_ms", [20.0, 100.0, 200.0])
@pytest.mark.parametrize("delay_ms", [50.0, 300.0, 2000.0])
def test_a_client_holding_its_pongs_back_gains_at_most_the_slack(
    rtt_ms: float, delay_ms: float
) -> None:
    rng = random.Random(3)
    liar, truthful = Client(rtt_ms, pong_delay_ms=delay_ms), Client(rtt_ms)
    cheat, honest = LatencyEstimate(), LatencyEstimate()
    for _ in range(3 * WINDOW_SAMPLES):
        sample(liar, cheat, rng, kernel=True)
        sample(truthful, honest, rng, kernel=True)
    true_rtt = rtt_ms  # the median of the network's round trips
    assert cheat.round_trip_ms - true_rtt <= KERNEL_SLACK_MS
    assert cheat.round_trip_ms <= honest.round_trip_ms + KERNEL_SLACK_MS
    if delay_ms >= SUSPICIOUS_GAP_MS + 2 * JITTER_MS:
        assert cheat.suspicious
    assert not honest.suspicious


def test_the_same_client_in_the_simulation_wins_its_races_without_the_kernel_bound() -> None:
    # The finding: 150 ms slower but holding pongs back 300 ms, the cheat wins.
    rng = random.Random(11)
    for kernel, most in ((False, 0.0), (True, 0.95)):
        liar, honest = Client(20.0, pong_delay_ms=300.0), Client(20.0)
        estimates = [LatencyEstimate(), LatencyEstimate()]
        for _ in range(WINDOW_SAMPLES):
            sample(liar, estimates[0], rng, kernel)
            sample(honest, estimates[1], rng, kernel)
        honest_wins = 0
        for _ in range(200):
            timer = RaceTimer([0, 1], REACTION)
            base = human_reaction(rng)
            for seat, (client, reaction) in enumerate(((liar, base + 150.0), (honest, base))):
                timer.revealed(seat, 0.0, estimates[seat])
                timer.pressed(seat, client.leg(rng) + reaction + client.leg(rng), estimates[seat])
            actions = timer.actions()
            honest_wins += actions[1] < actions[0]
        if kernel:
            assert honest_wins >= most * 200
        else:
            assert honest_wins < 20


# -- LatencyEstimate ---------------------------------------------------------------------------


def test_estimate_before_any_sample_is_zero() -> None:
    est = LatencyEstimate()
    assert (est.one_way_ms, est.round_trip_ms, est.samples) == (0.0, 0.0, 0)


def test_estimate_is_half_the_median_of_recent_round_trips() -> None:
    est = LatencyEstimate()
    for rtt in (100.0, 120.0, 5000.0, 110.0):  # one stalled pong among four
        est.add_sample(rtt)
    assert est.samples == 4
    assert est.round_trip_ms == pytest.approx(115.0)  # median of 100, 110, 120, 5000
    assert est.one_way_ms == pytest.approx(57.5)


def test_estimate_keeps_only_the_recent_window() -> None:
    est = LatencyEstimate()
    for _ in range(WINDOW_SAMPLES):
        est.add_sample(300.0)
    for _ in range(WINDOW_SAMPLES):
        est.add_sample(40.0)  # moved to a better network
    assert est.samples == WINDOW_SAMPLES
    assert est.round_trip_ms == 40.0


def test_estimate_is_capped() -> None:
    est = LatencyEstimate()
    est.add_sample(10_000.0)
    assert est.one_way_ms == MAX_ONE_WAY_MS
    assert est.raw_round_trip_ms == 10_000.0


def test_kernel_bound_limits_the_credit_and_unknown_means_the_fixed_bound() -> None:
    est = LatencyEstimate(max_round_trip_ms=400.0, slack_ms=20.0)
    est.add_sample(330.0)  # a 30 ms line, pongs held back 300 ms
    est.kernel_round_trip(30.0)
    assert not est.suspicious  # one sample: not yet worth a look
    est.kernel_round_trip(None)
    for _ in range(SUSPICIOUS_SAMPLES - 1):
        est.add_sample(330.0)
    assert est.round_trip_ms == 330.0  # no kernel reading: only the fixed bound
    est.kernel_round_trip(30.0, 75.0)
    assert (est.bound_ms, est.round_trip_ms, est.one_way_ms) == (50.0, 50.0, 25.0)
    assert est.gap_ms == 300.0 and est.suspicious
    assert "kernel min 30.0 ms, smoothed 75.0 ms" in est.describe()
    est.kernel_round_trip(None)  # the kernel stopped saying: back to the fixed bound
    assert est.round_trip_ms == 330.0 and est.gap_ms is None and not est.suspicious
    # An honest connection keeps its median when it is within the slack of its minimum.
    honest = LatencyEstimate(slack_ms=20.0)
    for rtt in (100.0, 110.0, 115.0):
        honest.add_sample(rtt)
    honest.kernel_round_trip(96.0)
    assert honest.round_trip_ms == 110.0 and not honest.suspicious
    # The fixed bound still applies under a large kernel round trip.
    far = LatencyEstimate(max_round_trip_ms=400.0)
    far.add_sample(600.0)
    far.kernel_round_trip(590.0)
    assert far.round_trip_ms == 400.0


def test_credit_bound() -> None:
    assert credit_bound(400.0, None, 20.0) == 400.0
    assert credit_bound(400.0, 10.0, 20.0) == 30.0
    assert credit_bound(400.0, 395.0, 20.0) == 400.0


@pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf])
def test_estimate_refuses_impossible_kernel_readings_and_settings(bad: float) -> None:
    with pytest.raises(ValueError, match="kernel round trip"):
        LatencyEstimate().kernel_round_trip(bad)
    with pytest.raises(ValueError, match="max_round_trip_ms"):
        LatencyEstimate(max_round_trip_ms=bad)
    with pytest.raises(ValueError, match="slack_ms"):
        LatencyEstimate(slack_ms=bad)


def test_race_records_each_press_correction_and_the_suspicious_seats() -> None:
    timer = RaceTimer([0, 1], REACTION)
    timer.revealed(0, 0.0)
    timer.revealed(1, 0.0)
    cheat = LatencyEstimate()
    for _ in range(SUSPICIOUS_SAMPLES):
        cheat.add_sample(320.0)
    cheat.kernel_round_trip(20.0)
    assert timer.pressed(0, 900.0, cheat) == pytest.approx(860.0)
    timer.pressed(1, 700.0, _latency(40.0))
    assert timer.suspicious() == {0}
    corrections = timer.corrections
    assert (corrections[0].pong_ms, corrections[0].kernel_min_ms) == (320.0, 20.0)
    assert corrections[0].credited_ms == 40.0 and corrections[0].suspicious
    assert corrections[1].kernel_min_ms is None and not corrections[1].suspicious


def test_kernel_bound_shortens_the_deadline() -> None:
    timer = RaceTimer([0], REACTION)
    est = LatencyEstimate()
    est.add_sample(380.0)
    est.kernel_round_trip(10.0)
    timer.revealed(0, 0.0, est)
    assert timer.deadline_ms() == pytest.approx(REACTION.window_ms + 30.0 + 5 + GRACE_MS)


@pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf])
def test_estimate_refuses_impossible_samples(bad: float) -> None:
    with pytest.raises(ValueError, match="round trip"):
        LatencyEstimate().add_sample(bad)


# -- RaceTimer ---------------------------------------------------------------------------------


def _latency(rtt: float) -> LatencyEstimate:
    est = LatencyEstimate()
    est.add_sample(rtt)
    return est


def test_press_is_corrected_by_the_round_trip() -> None:
    timer = RaceTimer([0, 1], REACTION)
    timer.revealed(0, 1000.0)
    assert timer.pressed(0, 1700.0, _latency(100.0)) == pytest.approx(600.0)
    assert timer.actions() == {0: REACTION.action_for(600.0), 1: REACTION.none}
    assert timer.reactions_ms == {0: pytest.approx(600.0)}


def test_second_press_is_ignored() -> None:
    timer = RaceTimer([0], REACTION)
    timer.revealed(0, 0.0)
    first = timer.pressed(0, 500.0, _latency(0.0))
    assert timer.pressed(0, 900.0, _latency(0.0)) == first == 500.0
    assert timer.actions() == {0: REACTION.action_for(500.0)}


def test_reaction_is_clamped_at_zero() -> None:
    timer = RaceTimer([0], REACTION)
    timer.revealed(0, 1000.0)
    # Received 50 ms after the reveal from a client 200 ms away: it pressed before it could
    # have seen anything.
    assert timer.pressed(0, 1050.0, _latency(200.0)) == 0.0
    assert timer.actions() == {0: REACTION.first}
    assert timer.implausible() == {0}


def test_silent_seats_get_no_reaction_and_the_race_is_not_done() -> None:
    timer = RaceTimer([0, 1, 2], REACTION)
    for seat in (0, 1, 2):
        timer.revealed(seat, 0.0)
    timer.pressed(1, 800.0, _latency(50.0))
    assert not timer.done
    assert timer.actions() == {0: REACTION.none, 1: REACTION.action_for(750.0), 2: REACTION.none}
    assert timer.implausible() == frozenset()


def test_bots_answer_directly_and_finish_the_race() -> None:
    timer = RaceTimer([0, 1], REACTION)
    timer.revealed(0, 0.0)
    bot_rub = REACTION.action_for(640.0)
    timer.answered(1, bot_rub)
    assert not timer.done
    timer.answered(0, REACTION.none)  # a human saying "no rub" explicitly
    assert timer.done
    timer.answered(1, REACTION.none)  # a second answer is ignored
    assert timer.pressed(1, 5000.0, _latency(0.0)) == 640.0
    assert timer.actions() == {0: REACTION.none, 1: bot_rub}


def test_answered_refuses_what_is_not_a_reaction() -> None:
    timer = RaceTimer([0], REACTION)
    with pytest.raises(ValueError, match="not a reaction"):
        timer.answered(0, REACTION.first - 1)


def test_unknown_seat_and_press_before_reveal_are_refused() -> None:
    timer = RaceTimer([0, 1], REACTION)
    with pytest.raises(ValueError, match="not in this race"):
        timer.revealed(5, 0.0)
    with pytest.raises(ValueError, match="before the race was revealed"):
        timer.pressed(0, 10.0, LatencyEstimate())
    with pytest.raises(ValueError, match="reveal it first"):
        timer.deadline_ms()


def test_deadline_allows_for_the_slowest_seat_and_is_bounded() -> None:
    reaction = Reaction(window_ms=3000, step_ms=10, first=0, none=301)
    timer = RaceTimer([0, 1, 2], reaction)
    timer.revealed(0, 1000.0, _latency(20.0))
    timer.revealed(1, 1001.0, _latency(180.0))
    assert timer.deadline_ms() == pytest.approx(1001.0 + 3000 + 180 + 5 + GRACE_MS)
    # A seat whose latency is unknown is waited for as if it were as far as can be.
    timer.revealed(2, 1002.0)
    unknown = 1002.0 + 3000 + 2 * MAX_ONE_WAY_MS + 5 + GRACE_MS
    assert timer.deadline_ms() == pytest.approx(unknown)
    assert unknown - 1002.0 - 3000 <= MAX_ALLOWANCE_MS


def test_a_press_arriving_at_the_deadline_is_the_slowest_that_counts() -> None:
    timer = RaceTimer([0], REACTION)
    est = _latency(120.0)
    timer.revealed(0, 0.0, est)
    exact = timer.deadline_ms() - GRACE_MS  # window + round trip + half a step
    timer.pressed(0, exact + 0.01, est)
    assert timer.actions() == {0: REACTION.none}
    timer = RaceTimer([0], REACTION)
    timer.revealed(0, 0.0, est)
    timer.pressed(0, exact - 0.01, est)
    assert timer.actions()[0] != REACTION.none


def test_plausibility_floor_is_below_human_reactions() -> None:
    assert MIN_PLAUSIBLE_MS < 150.0
