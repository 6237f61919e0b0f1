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
from dataclasses import dataclass

import pytest

from arabesque.core.decision import Reaction
from arabesque.games.magic_lamp.decisions import RACE_REACTION
from arabesque.server.race import (
    GRACE_MS,
    MAX_ALLOWANCE_MS,
    MAX_ONE_WAY_MS,
    MIN_PLAUSIBLE_MS,
    WINDOW_SAMPLES,
    LatencyEstimate,
    RaceTimer,
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

    def leg(self, rng: random.Random) -> float:
        return max(0.0, self.rtt_ms / 2 + rng.uniform(-JITTER_MS, JITTER_MS))

    def ping(self, rng: random.Random) -> float:
        """The round trip the server measures for one ping."""
        rtt = self.leg(rng) + self.leg(rng) + self.pong_delay_ms
        if rng.random() < STALL_RATE:
            rtt += rng.uniform(300.0, 1000.0)
        return rtt


def human_reaction(rng: random.Random) -> float:
    return max(150.0, math.exp(rng.gauss(math.log(600.0), 0.35)))


@dataclass
class RaceStats:
    counted: int = 0  # races whose true reactions differ by >= 50 ms
    faster_won: int = 0
    late_counted: int = 0  # presses received after the deadline that would have counted


def simulate(races: int, seed: int, clients: list[Client], correct: bool = True) -> RaceStats:
    """Play ``races`` two-seat races, with a few seconds of pings between them."""
    rng = random.Random(seed)
    estimates = [LatencyEstimate() for _ in clients]
    none = LatencyEstimate()  # no correction at all, for the uncorrected comparison
    stats = RaceStats()
    now = 0.0
    for _ in range(WINDOW_SAMPLES):  # the connections' first seconds, before any race
        for client, est in zip(clients, estimates, strict=True):
            est.add_sample(client.ping(rng))
        now += PING_EVERY_MS
    for _ in range(races):
        for _ in range(rng.randint(2, 5)):  # a turn's worth of pings between two races
            for client, est in zip(clients, estimates, strict=True):
                est.add_sample(client.ping(rng))
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
            timer.pressed(seat, received[seat], estimates[seat] if correct else none)
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
