"""Balance report for Djinn's rules and authored components, with heuristic bots.

    python scripts/balance_djinn.py --games 200 --out docs/balance
    python scripts/balance_djinn.py --games 40 --only solo          # one part only
    python scripts/balance_djinn.py --from-json out.json --out docs/balance   # replot only
    python scripts/balance_djinn.py --from-json after.json --before before.json --out docs/balance

What it measures, for 2, 3 and 4 players with the heuristic bot in every seat:

* **Locations**: how often each location's action is taken (basic, special, own passage) per
  player and game, and how taking it relates to winning (the correlation of a player's uses
  with their win, and the mean uses of winners against the others);
* **favour variants**: one seat plays ``heuristic:favour=<location>`` (a bot that values that
  location more) against plain heuristic bots, on the same seeds as the plain games; a
  location is dominant if leaning on it wins clearly more than a fair share;
* **trophies and scoring cards**: how often each trophy row is claimed, and for each scoring
  card how often a player scores it when it is out;
* **length**: rounds and turns, the share of games cut by the round cap (ruling D14), and an
  estimate in minutes at the table;
* **seats**: win rate by turn order (the start player is drawn at random, so seat numbers and
  turn order differ) and by seat;
* **solo**: the bot's win rate against Tom with 15, 14, 13 and 12 cards in his deck.

Games are played by the sim package (``arabesque.sim.batch.run_games``) on ``--workers``
processes, which records each game; the records are then replayed here (with the event log)
to count what happened. Game ``i`` of a part uses seed ``--seed + i`` and every agent is seeded
from the game seed and its seat, so every number is reproducible. ``--budget`` bounds the run:
no new part starts after that many minutes. matplotlib is needed only for the plots.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from arabesque.core.records import GameRecord
from arabesque.core.registry import get_game
from arabesque.games.djinn.components import LOCATIONS
from arabesque.games.djinn.rules import condition_points
from arabesque.games.djinn.state import DjinnState
from arabesque.sim.batch import GameResult, record_path, run_games

GAME = "djinn"
PLAYER_COUNTS = (2, 3, 4)
SOLO_DECKS = (15, 14, 13, 12)
#: Table-time model for the minutes estimate (assumed; see docs/balance/djinn.md): a turn
#: costs a fixed part (moving the mage, the next player taking over) plus a part per choice
#: made, and a round-space turn with a catch costs more (counting strength, paying cards).
SECONDS_PER_TURN = 25.0
SECONDS_PER_CHOICE = 4.0
SECONDS_PER_CATCH = 20.0
SETUP_MINUTES = 5.0

console = Console(stderr=True)


@dataclass(frozen=True)
class Part:
    """One batch of games: a label, the player count, the agents and params."""

    label: str
    group: str
    players: int
    agents: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()


def parts(only: str | None, components: str | None = None, tag: str = "") -> list[Part]:
    out: list[Part] = []
    for n in PLAYER_COUNTS:
        out.append(Part(f"{n}p", "plain", n, ("heuristic",) * n))
    for n in PLAYER_COUNTS:
        for loc in LOCATIONS:
            agents = (f"heuristic:favour={loc}",) + ("heuristic",) * (n - 1)
            out.append(Part(f"{n}p-favour-{loc}", "favour", n, agents))
    for deck in SOLO_DECKS:
        out.append(Part(f"solo-{deck}", "solo", 1, ("heuristic",), (("tom_deck", deck),)))
    if only:
        out = [p for p in out if p.group == only or p.label == only]
    if components:
        # A components file under test: the same parts, labelled ``<part>@<tag>``.
        out = [
            Part(
                f"{p.label}@{tag}",
                p.group,
                p.players,
                p.agents,
                (*p.options, ("components", components)),
            )
            for p in out
        ]
    return out


# -- one game's facts ---------------------------------------------------------------------------


def game_facts(state: DjinnState) -> dict[str, Any]:
    """What the report needs of one finished game, read from its event log and end state."""
    n = state.num_players
    comp = state.comp
    uses = [[0] * len(LOCATIONS) for _ in range(n)]
    specials = [[0] * len(LOCATIONS) for _ in range(n)]
    forfeits = [0] * n
    trophies: list[tuple[int, int, int]] = []
    catches = 0
    capped = False
    turns = 0
    choices = 0
    for event in state.events:
        kind, data = event.kind, event.data
        if kind == "action":
            loc = LOCATIONS.index(data["location"])
            uses[data["seat"]][loc] += 1
            if data["special"]:
                specials[data["seat"]][loc] += 1
        elif kind == "forfeit":
            forfeits[data["seat"]] += 1
        elif kind == "trophy":
            t = comp.trophies[data["trophy"]]
            trophies.append((data["seat"], t.row, t.points))
        elif kind == "catch":
            catches += 1
        elif kind == "round_cap":
            capped = True
        elif kind == "end_turn":
            turns += 1
    choices = len(state.history)
    scoring = {
        comp.scoring_cards[c].name: [
            condition_points(state, p, comp.scoring_cards[c]) for p in range(n)
        ]
        for c in state.scoring
    }
    returns = state.returns()
    return {
        "players": n,
        "first": state.first,
        "rounds": state.round,
        "turns": turns,
        "choices": choices,
        "catches": catches,
        "capped": capped,
        "won": [r >= 1.0 for r in returns],
        "totals": [s.total for s in state.scores()],
        "breakdowns": [dict(s.breakdown) for s in state.scores()],
        "uses": uses,
        "specials": specials,
        "forfeits": forfeits,
        "trophies": trophies,
        "scoring": scoring,
        "tom_left": len(state.tom_deck) if n == 1 else None,
    }


def play_part(
    part: Part, games: int, seed: int, workers: int, advance: Callable[[], None]
) -> list[dict[str, Any]]:
    spec = get_game(GAME)
    params = spec.make_params(num_players=part.players, **dict(part.options))
    with tempfile.TemporaryDirectory(prefix="balance-djinn-") as folder:
        results: list[GameResult] = run_games(
            GAME,
            params,
            list(part.agents),
            games,
            seed,
            workers=workers,
            record_dir=folder,
            on_result=lambda _r: advance(),
        )
        facts = []
        for r in results:
            state = GameRecord.load(record_path(folder, r.seed)).replay()
            assert isinstance(state, DjinnState) and state.is_over
            facts.append(game_facts(state))
    return facts


# -- statistics ---------------------------------------------------------------------------------


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else 0.0


def minutes(fact: dict[str, Any]) -> float:
    seconds: float = (
        SECONDS_PER_TURN * int(fact["turns"])
        + SECONDS_PER_CHOICE * int(fact["choices"])
        + SECONDS_PER_CATCH * int(fact["catches"])
    )
    return SETUP_MINUTES + seconds / 60.0


def summarize_plain(facts: list[dict[str, Any]]) -> dict[str, Any]:
    n = facts[0]["players"]
    games = len(facts)
    per_player_uses = [0.0] * len(LOCATIONS)
    special_share = [0.0] * len(LOCATIONS)
    corr = []
    winners_mean = []
    others_mean = []
    for loc in range(len(LOCATIONS)):
        xs: list[float] = []
        ys: list[float] = []
        specials = 0
        for f in facts:
            for p in range(n):
                xs.append(float(f["uses"][p][loc]))
                ys.append(1.0 if f["won"][p] else 0.0)
                specials += f["specials"][p][loc]
        total = sum(xs)
        per_player_uses[loc] = total / len(xs)
        special_share[loc] = specials / total if total else 0.0
        corr.append(correlation(xs, ys))
        w = [x for x, y in zip(xs, ys, strict=True) if y]
        o = [x for x, y in zip(xs, ys, strict=True) if not y]
        winners_mean.append(sum(w) / max(1, len(w)))
        others_mean.append(sum(o) / max(1, len(o)))
    rows = [0, 0, 0]
    trophy_points = 0
    for f in facts:
        for _seat, row, pts in f["trophies"]:
            rows[row] += 1
            trophy_points += pts
    scoring: dict[str, dict[str, float]] = {}
    for f in facts:
        for name, pts in f["scoring"].items():
            entry = scoring.setdefault(name, {"games": 0, "players": 0, "scored": 0, "points": 0})
            entry["games"] += 1
            entry["players"] += n
            entry["scored"] += sum(1 for x in pts if x > 0)
            entry["points"] += sum(pts)
    for entry in scoring.values():
        entry["scored_rate"] = entry["scored"] / max(1, entry["players"])
        entry["mean_points"] = entry["points"] / max(1, entry["players"])
    order_wins = [0] * n
    seat_wins = [0] * n
    for f in facts:
        for p in range(n):
            if f["won"][p]:
                seat_wins[p] += 1
                order_wins[(p - f["first"]) % n] += 1
    rounds = [f["rounds"] for f in facts]
    mins = [minutes(f) for f in facts]
    breakdown: dict[str, float] = {}
    for f in facts:
        for b in f["breakdowns"]:
            for k, v in b.items():
                breakdown[k] = breakdown.get(k, 0.0) + v / (games * n)
    return {
        "games": games,
        "players": n,
        "uses_per_player_game": dict(zip(LOCATIONS, per_player_uses, strict=True)),
        "special_share": dict(zip(LOCATIONS, special_share, strict=True)),
        "use_win_correlation": dict(zip(LOCATIONS, corr, strict=True)),
        "uses_winners": dict(zip(LOCATIONS, winners_mean, strict=True)),
        "uses_others": dict(zip(LOCATIONS, others_mean, strict=True)),
        "forfeits_per_player_game": sum(sum(f["forfeits"]) for f in facts) / (games * n),
        "trophies_per_game_by_row": [r / games for r in rows],
        "trophy_players_share_by_row": [
            sum(
                1
                for f in facts
                for p in range(n)
                if any(s == p and r == row for s, r, _ in f["trophies"])
            )
            / (games * n)
            for row in range(3)
        ],
        "scoring_cards": scoring,
        "mean_rounds": sum(rounds) / games,
        "rounds_min": min(rounds),
        "rounds_max": max(rounds),
        "rounds_hist": {str(r): rounds.count(r) for r in sorted(set(rounds))},
        "mean_turns": sum(f["turns"] for f in facts) / games,
        "mean_choices": sum(f["choices"] for f in facts) / games,
        "mean_catches": sum(f["catches"] for f in facts) / games,
        "capped_share": sum(1 for f in facts if f["capped"]) / games,
        "mean_minutes": sum(mins) / games,
        "minutes_p10_p90": [sorted(mins)[games // 10], sorted(mins)[(9 * games) // 10]],
        "mean_score": sum(sum(f["totals"]) for f in facts) / (games * n),
        "mean_winner_score": sum(max(f["totals"]) for f in facts) / games,
        "score_breakdown": breakdown,
        "order_win_rate": [w / games for w in order_wins],
        "order_win_ci95": [wilson(w, games) for w in order_wins],
        "seat_win_rate": [w / games for w in seat_wins],
        "seat_win_ci95": [wilson(w, games) for w in seat_wins],
    }


def summarize_seat0(facts: list[dict[str, Any]]) -> dict[str, Any]:
    games = len(facts)
    wins = sum(1 for f in facts if f["won"][0])
    loc_uses = [sum(f["uses"][0][loc] for f in facts) / games for loc in range(len(LOCATIONS))]
    return {
        "games": games,
        "players": facts[0]["players"],
        "seat0_wins": wins,
        "seat0_win_rate": wins / games,
        "seat0_win_ci95": wilson(wins, games),
        "seat0_mean_score": sum(f["totals"][0] for f in facts) / games,
        "others_mean_score": sum(sum(f["totals"][1:]) for f in facts)
        / (games * max(1, facts[0]["players"] - 1)),
        "seat0_uses": dict(zip(LOCATIONS, loc_uses, strict=True)),
    }


def summarize_solo(facts: list[dict[str, Any]]) -> dict[str, Any]:
    games = len(facts)
    wins = sum(1 for f in facts if f["won"][0])
    won_facts = [f for f in facts if f["won"][0]]
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "win_ci95": wilson(wins, games),
        "mean_score": sum(f["totals"][0] for f in facts) / games,
        "mean_rounds": sum(f["rounds"] for f in facts) / games,
        "mean_tom_left_when_won": sum(f["tom_left"] for f in won_facts) / max(1, len(won_facts)),
    }


# -- printing and plots -------------------------------------------------------------------------


def print_report(result: dict[str, Any]) -> None:
    out = Console()
    for n in PLAYER_COUNTS:
        s = result.get(f"{n}p")
        if not s:
            continue
        out.print(
            f"[bold]{n} players[/], {s['games']} games: {s['mean_rounds']:.1f} rounds "
            f"({s['rounds_min']}-{s['rounds_max']}), {100 * s['capped_share']:.0f}% cut by the "
            f"round cap, ~{s['mean_minutes']:.0f} min; mean score {s['mean_score']:.1f}, "
            f"winner {s['mean_winner_score']:.1f}"
        )
        out.print(
            "  uses/player/game: "
            + ", ".join(f"{k} {v:.2f}" for k, v in s["uses_per_player_game"].items())
        )
        out.print(
            "  use-win correlation: "
            + ", ".join(f"{k} {v:+.2f}" for k, v in s["use_win_correlation"].items())
        )
        out.print(
            "  trophies/game by row: "
            + ", ".join(f"{v:.2f}" for v in s["trophies_per_game_by_row"])
            + "; win rate by turn order: "
            + ", ".join(f"{100 * v:.0f}%" for v in s["order_win_rate"])
        )
        for name, e in sorted(s["scoring_cards"].items()):
            out.print(
                f"  scoring card {name!r}: out in {e['games']} games, scored by "
                f"{100 * e['scored_rate']:.0f}% of players, {e['mean_points']:.1f} points each"
            )
        for loc in LOCATIONS:
            f = result.get(f"{n}p-favour-{loc}")
            if f:
                lo, hi = f["seat0_win_ci95"]
                out.print(
                    f"  favour {loc:12} seat 0 wins {100 * f['seat0_win_rate']:.0f}% "
                    f"[{100 * lo:.0f}-{100 * hi:.0f}] (fair {100 / n:.0f}%), score "
                    f"{f['seat0_mean_score']:.1f} vs {f['others_mean_score']:.1f}"
                )
    solo = sorted(k for k in result if k.startswith("solo-"))
    for key in solo:
        s = result[key]
        deck = key.split("-", 1)[1]
        if s:
            lo, hi = s["win_ci95"]
            out.print(
                f"solo, Tom's deck {deck}: won {s['wins']}/{s['games']} = "
                f"{100 * s['win_rate']:.1f}% [{100 * lo:.0f}-{100 * hi:.0f}], score "
                f"{s['mean_score']:.1f}, {s['mean_rounds']:.1f} turns"
            )


def plot(result: dict[str, Any], out_dir: Path, before: dict[str, Any] | None = None) -> list[Path]:
    """Write the PNG plots; ``before`` (an earlier run's summaries, e.g. on the data before a
    balance pass) is drawn over the favour and solo plots for comparison."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    counts = [n for n in PLAYER_COUNTS if f"{n}p" in result]

    if counts:
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
        width = 0.8 / len(counts)
        xs = range(len(LOCATIONS))
        for i, n in enumerate(counts):
            s = result[f"{n}p"]
            off = [x + (i - (len(counts) - 1) / 2) * width for x in xs]
            axes[0].bar(
                off,
                [s["uses_per_player_game"][loc] for loc in LOCATIONS],
                width,
                label=f"{n} players",
            )
            axes[1].bar(
                off,
                [s["use_win_correlation"][loc] for loc in LOCATIONS],
                width,
                label=f"{n} players",
            )
            fav = [result.get(f"{n}p-favour-{loc}") for loc in LOCATIONS]
            if all(fav):
                rates = [100 * f["seat0_win_rate"] for f in fav if f]
                err_lo = [100 * (f["seat0_win_rate"] - f["seat0_win_ci95"][0]) for f in fav if f]
                err_hi = [100 * (f["seat0_win_ci95"][1] - f["seat0_win_rate"]) for f in fav if f]
                axes[2].bar(
                    off,
                    rates,
                    width,
                    yerr=[err_lo, err_hi],
                    capsize=2,
                    label=f"{n} players (fair {100 / n:.0f}%)",
                )
                old = [(before or {}).get(f"{n}p-favour-{loc}") for loc in LOCATIONS]
                if all(old):
                    axes[2].scatter(
                        off,
                        [100 * f["seat0_win_rate"] for f in old if f],
                        marker="x",
                        color="black",
                        s=18,
                        zorder=3,
                        label="before balancing" if i == 0 else None,
                    )
                axes[2].hlines(
                    100 / n,
                    off[0] - width,
                    off[-1] + width,
                    colors="black",
                    linestyles="dashed",
                    linewidth=0.8,
                )
        axes[0].set_title("location actions per player and game")
        axes[1].set_title("correlation of a player's uses with winning")
        axes[1].axhline(0, color="black", linewidth=0.8)
        axes[2].set_title(
            "win rate of one bot favouring the location\n(95% interval; dashed: fair share)"
        )
        for ax in axes:
            ax.set_xticks(list(xs), LOCATIONS, rotation=25, fontsize=8)
            ax.legend(fontsize=7)
        axes[2].set_ylabel("%")
        fig.suptitle("Djinn locations, heuristic bots")
        fig.tight_layout()
        path = out_dir / "djinn-locations.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)

        fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
        data = []
        for n in counts:
            hist = {int(k): v for k, v in result[f"{n}p"]["rounds_hist"].items()}
            data.append([k for k in sorted(hist) for _ in range(hist[k])])
        axes[0].boxplot(data, showmeans=True)
        axes[0].set_xticks(range(1, len(counts) + 1), [f"{n} players" for n in counts])
        for i, n in enumerate(counts):
            s = result[f"{n}p"]
            axes[0].annotate(
                f"{s['mean_rounds']:.1f} rounds\n~{s['mean_minutes']:.0f} min",
                (i + 1, max(data[i])),
                textcoords="offset points",
                xytext=(0, 4),
                ha="center",
                fontsize=8,
            )
        axes[0].set_ylim(top=max(max(d) for d in data) + 10)
        axes[0].set_title("game length in rounds (box: quartiles, triangle: mean)")
        axes[0].set_ylabel("rounds")
        width = 0.8 / len(counts)
        for i, n in enumerate(counts):
            s = result[f"{n}p"]
            off = [r + (i - (len(counts) - 1) / 2) * width for r in range(3)]
            axes[1].bar(off, s["trophies_per_game_by_row"], width, label=f"{n} players")
        axes[1].set_xticks(range(3), ["row I", "row II", "row III"])
        axes[1].set_title("trophies claimed per game, by row")
        axes[1].legend(fontsize=8)
        names = sorted({k for n in counts for k in result[f"{n}p"]["scoring_cards"]})
        for i, n in enumerate(counts):
            sc = result[f"{n}p"]["scoring_cards"]
            off = [j + (i - (len(counts) - 1) / 2) * width for j in range(len(names))]
            axes[2].barh(
                off,
                [100 * sc.get(k, {}).get("scored_rate", 0.0) for k in names],
                width,
                label=f"{n} players",
            )
        axes[2].set_yticks(range(len(names)), names, fontsize=7)
        axes[2].set_xlabel("% of players scoring it when it is out")
        axes[2].set_title("scoring cards")
        axes[2].legend(fontsize=7)
        fig.tight_layout()
        path = out_dir / "djinn-length-trophies-scoring.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)

        fig, ax = plt.subplots(figsize=(6.5, 3.8))
        for i, n in enumerate(counts):
            s = result[f"{n}p"]
            rates = s["order_win_rate"]
            cis = s["order_win_ci95"]
            width = 0.8 / len(counts)
            xs2 = [k + (i - (len(counts) - 1) / 2) * width for k in range(n)]
            ax.bar(
                xs2,
                [100 * r for r in rates],
                width,
                yerr=[
                    [100 * (r - lo) for r, (lo, _) in zip(rates, cis, strict=True)],
                    [100 * (hi - r) for r, (_, hi) in zip(rates, cis, strict=True)],
                ],
                capsize=2,
                label=f"{n} players (fair {100 / n:.0f}%)",
            )
            old_seats = (before or {}).get(f"{n}p")
            if old_seats:
                ax.scatter(
                    xs2,
                    [100 * r for r in old_seats["order_win_rate"]],
                    marker="x",
                    color="black",
                    s=18,
                    zorder=3,
                    label="before balancing" if i == 0 else None,
                )
        ax.set_xticks(range(max(counts)), [f"{k + 1}." for k in range(max(counts))])
        ax.set_xlabel("place in turn order (1. = start player)")
        ax.set_ylabel("win rate (%), 95% interval")
        ax.set_title("Win rate by turn order, heuristic bots")
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = out_dir / "djinn-seats.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)

    tags = sorted({k.split("@", 1)[1] for k in result if k.startswith("solo-") and "@" in k})
    lines = [(result, "", "after balancing" if before else "authored data", "-")] + [
        (result, f"@{t}", t, "-") for t in tags
    ]
    if before:
        lines.append((before, "", "before balancing", "--"))
    if any(f"solo-{d}{suffix}" in result for d in SOLO_DECKS for _, suffix, _, _ in lines):
        fig, ax = plt.subplots(figsize=(6.0, 4.0))
        for source, suffix, name, style in lines:
            decks = [d for d in SOLO_DECKS if f"solo-{d}{suffix}" in source]
            if not decks:
                continue
            rates = [100 * source[f"solo-{d}{suffix}"]["win_rate"] for d in decks]
            cis = [source[f"solo-{d}{suffix}"]["win_ci95"] for d in decks]
            ax.errorbar(
                decks,
                rates,
                yerr=[
                    [r - 100 * lo for r, (lo, _) in zip(rates, cis, strict=True)],
                    [100 * hi - r for r, (_, hi) in zip(rates, cis, strict=True)],
                ],
                marker="o",
                capsize=3,
                linestyle=style,
                label=name,
            )
        ax.set_xticks(list(SOLO_DECKS))
        ax.invert_xaxis()
        ax.set_xlabel("cards in Tom's deck (fewer = meant to be harder)")
        ax.set_ylabel("heuristic bot's win rate (%), 95% interval")
        ax.set_ylim(0, 100)
        ax.set_title("Solo difficulty curve against Tom")
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = out_dir / "djinn-solo.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written


# -- main ---------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per plain and solo part")
    parser.add_argument(
        "--favour-games", type=int, default=None, help="games per favour part (default --games/2)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", help="one group (plain, favour, solo) or one part label")
    parser.add_argument("--components", help="a components TOML file to test (default built-in)")
    parser.add_argument("--tag", default="variant", help="label suffix for --components")
    parser.add_argument("--budget", type=float, default=20.0, help="minutes; no part starts later")
    parser.add_argument("--out", type=Path, help="write the PNG plots into this folder")
    parser.add_argument("--json", type=Path, help="write (merge) the summaries into this JSON file")
    parser.add_argument("--from-json", type=Path, help="print and plot an earlier --json only")
    parser.add_argument(
        "--before", type=Path, help="an earlier --json to draw over the plots (before/after)"
    )
    args = parser.parse_args(argv)
    before = json.loads(args.before.read_text()) if args.before else None

    if args.from_json:
        result: dict[str, Any] = json.loads(args.from_json.read_text())
        print_report(result)
        if args.out:
            for path in plot(result, args.out, before):
                console.print(f"wrote {path}")
        return 0

    result = {}
    if args.json and args.json.exists():
        result = json.loads(args.json.read_text())
    todo = parts(args.only, args.components, args.tag)
    favour_games = args.favour_games or max(1, args.games // 2)
    sizes = {p.label: favour_games if p.group == "favour" else args.games for p in todo}
    start = time.perf_counter()
    skipped: list[str] = []
    with Progress(
        TextColumn("{task.description:24}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        overall = progress.add_task("all parts", total=sum(sizes.values()))
        for part in todo:
            if (time.perf_counter() - start) / 60.0 > args.budget:
                skipped.append(part.label)
                continue
            games = sizes[part.label]
            task = progress.add_task(part.label, total=games)

            def advance(task: Any = task) -> None:
                progress.advance(task)
                progress.advance(overall)

            facts = play_part(part, games, args.seed, args.workers, advance)
            if part.group == "plain":
                result[part.label] = summarize_plain(facts)
            elif part.group == "favour":
                result[part.label] = summarize_seat0(facts)
            else:
                result[part.label] = summarize_solo(facts)
            result[part.label]["seconds"] = round(time.perf_counter() - start, 1)
            progress.remove_task(task)
    if skipped:
        console.print(f"[yellow]budget of {args.budget} min spent; skipped: {', '.join(skipped)}")
    print_report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    if args.out:
        for path in plot(result, args.out, before):
            console.print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
