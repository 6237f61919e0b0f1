"""Balance report for Magic Lamp's authored components: heuristic bots against each other.

    python scripts/balance_magic_lamp.py --games 400 --players 4
    python scripts/balance_magic_lamp.py --games 400 --players 4 --components old.toml
    python scripts/balance_magic_lamp.py --games 400 --players 4 --plot docs/balance

Per chest: how often a die is placed on it, how often it is searched, the cards kept per
search (0 after a bust), the bust rate, and the points a search earns its drawer (their score
just after the search, talismans placed, minus just before). Per seat: the win rate (a shared
victory counts for every winner). And the mean game length in turns. Game ``i`` uses seed
``seed + i``; bots are seeded from the game seed and their seat, so runs are reproducible.
matplotlib is imported only with ``--plot``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arabesque.agents.registry import make_agent
from arabesque.core.game import GameState
from arabesque.core.registry import get_game
from arabesque.games.magic_lamp.components import CHESTS, CardKind
from arabesque.games.magic_lamp.rules import (
    MAJORITY_BONUS,
    protected_cards,
    score_breakdowns,
    stone_count,
)
from arabesque.games.magic_lamp.state import MagicLampState
from arabesque.sim.runner import play_game


@dataclass
class ChestStats:
    dice: int = 0  # dice placed on this chest
    faces: int = 0  # sum of the faces of the dice placed on it
    drawer_faces: int = 0  # sum of the faces of the dice that searched it
    searches: int = 0  # searches made (a drawer existed and the chest was not empty)
    busts: int = 0
    kept: int = 0  # cards kept over all searches
    points: int = 0  # drawers' score gains over all searches
    own_points: int = 0  # the part of it from cards and sets (majorities left out)
    final_points: float = 0.0  # what the cards kept by searches are worth at the end
    contested: int = 0  # searches with two dice or more on the chest


@dataclass
class Totals:
    games: int = 0
    turns: int = 0
    dice: int = 0
    wins: list[int] = field(default_factory=list)
    chests: list[ChestStats] = field(default_factory=lambda: [ChestStats() for _ in CHESTS])
    scores: list[int] = field(default_factory=list)


def _score(state: MagicLampState, player: int) -> tuple[int, int]:
    """(total score, the part from cards and jewelry sets)."""
    breakdown = score_breakdowns(state)[player]
    own = sum(v for k, v in breakdown.items() if k == "cards" or k.startswith("set_"))
    return sum(breakdown.values()), own


class _Tracker:
    """Follows one game's event log and attributes score changes to searches."""

    def __init__(self, totals: Totals) -> None:
        self.totals = totals
        self.seen = 0
        #: (chest, drawer, (score, cards-and-sets score) before) of the search under way
        self.open: tuple[int, int, tuple[int, int]] | None = None
        self.kept: list[list[int]] = [[] for _ in CHESTS]  # card ids kept by searches

    def _close(self, state: MagicLampState) -> None:
        if self.open is not None:
            chest, drawer, before = self.open
            after = _score(state, drawer)
            self.totals.chests[chest].points += after[0] - before[0]
            self.totals.chests[chest].own_points += after[1] - before[1]
            self.open = None

    def __call__(self, state: GameState, seat: int, action: int) -> None:
        del seat, action
        assert isinstance(state, MagicLampState)
        events = state.events
        for event in events[self.seen :]:
            kind, data = event.kind, event.data
            if kind == "reveal":
                for dice in data["dice"]:
                    for die in dice:
                        stats = self.totals.chests[CHESTS.index(die["chest"])]
                        stats.dice += 1
                        stats.faces += die["face"]
                        self.totals.dice += 1
            elif kind in ("search", "turn", "game_over"):
                # A search ends when the next one starts or the turn ends; its talismans are
                # placed by then.
                self._close(state)
                if kind == "search" and data["drawer"] is not None:
                    c = CHESTS.index(data["chest"])
                    if state.decks[c] or state.draw_ctx is not None:
                        stats = self.totals.chests[c]
                        stats.searches += 1
                        stats.contested += len(data["dice"]) > 1
                        stats.drawer_faces += next(
                            d["face"] for d in data["dice"] if d["player"] == data["drawer"]
                        )
                        self.open = (c, data["drawer"], _score(state, data["drawer"]))
            elif kind == "draw_kept":
                c = CHESTS.index(data["chest"])
                self.totals.chests[c].kept += data["count"]
                self.kept[c].extend(card["id"] for card in data["cards"])
            elif kind == "bust":
                self.totals.chests[CHESTS.index(data["chest"])].busts += 1
        self.seen = len(events)


def final_credit(state: MagicLampState) -> dict[int, float]:
    """What each held card is worth in the final score: 1 point (the Sorcerer 0), plus an
    equal share of a won majority among the stones and talismans counted for it, plus a
    third of a set bonus for each jewel of a complete set."""
    comp = state.comp
    credit: dict[int, float] = {}
    breakdowns = score_breakdowns(state)
    for p, held in enumerate(state.holdings):
        protected = protected_cards(state, p)
        counts = [stone_count(state, p, t) for t in range(len(comp.stone_types))]
        won = [breakdowns[p][f"majority_{name}"] > 0 for name in comp.stone_types]
        for cid in held:
            card = comp.cards[cid]
            value = 0.0 if card.kind is CardKind.SORCERER else 1.0
            stone = card.stone if card.kind is CardKind.STONE else state.talisman_on.get(cid)
            if stone is not None and stone >= 0 and won[stone]:
                value += MAJORITY_BONUS / counts[stone]
            if card.kind is CardKind.JEWEL and cid in protected:
                assert card.metal is not None
                value += comp.set_bonus[card.metal] / 3
            credit[cid] = value
    return credit


def _agent_seed(game_seed: int, seat: int) -> int:
    return random.Random(f"balance:{game_seed}:{seat}").getrandbits(63)


def run(
    games: int,
    players: int,
    agent: str,
    seed: int,
    components: str | None,
    my_precious: bool,
) -> Totals:
    spec = get_game("magic-lamp")
    params = spec.make_params(num_players=players, components=components, my_precious=my_precious)
    totals = Totals(wins=[0] * players)
    for i in range(games):
        game_seed = seed + i
        agents = [
            make_agent(agent, "magic-lamp", seed=_agent_seed(game_seed, s)) for s in range(players)
        ]
        tracker = _Tracker(totals)
        state = play_game(spec, params, agents, game_seed, on_action=tracker)
        assert isinstance(state, MagicLampState)
        tracker._close(state)
        credit = final_credit(state)
        for c, ids in enumerate(tracker.kept):
            totals.chests[c].final_points += sum(credit.get(cid, 0.0) for cid in ids)
        totals.games += 1
        totals.turns += state.turn
        for p, rank in enumerate(state.ranking()):
            totals.wins[p] += rank == 1
        totals.scores.extend(s.total for s in state.scores())
    return totals


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def summary(totals: Totals) -> dict[str, Any]:
    chests = {}
    for c, name in enumerate(CHESTS):
        st = totals.chests[c]
        s = max(1, st.searches)
        chests[name] = {
            "dice_share": st.dice / max(1, totals.dice),
            "mean_face": st.faces / max(1, st.dice),
            "mean_drawer_face": st.drawer_faces / s,
            "searches_per_game": st.searches / max(1, totals.games),
            "kept_per_search": st.kept / s,
            "bust_rate": st.busts / s,
            "points_per_search": st.points / s,
            "card_set_points_per_search": st.own_points / s,
            "final_points_per_search": st.final_points / s,
            "contested_share": st.contested / s,
        }
    n = len(totals.wins)
    return {
        "games": totals.games,
        "players": n,
        "mean_turns": totals.turns / max(1, totals.games),
        "mean_score": sum(totals.scores) / max(1, len(totals.scores)),
        "seat_win_rate": [w / max(1, totals.games) for w in totals.wins],
        "seat_win_ci95": [_wilson(w, totals.games) for w in totals.wins],
        "chests": chests,
    }


def print_summary(result: dict[str, Any]) -> None:
    print(
        f"{result['games']} games, {result['players']} players: "
        f"mean length {result['mean_turns']:.2f} turns, mean score {result['mean_score']:.1f}"
    )
    print(
        f"{'chest':8} {'dice%':>6} {'face':>5} {'srch/g':>7} {'d.face':>6} {'kept':>6} "
        f"{'bust%':>6} {'pts/srch':>9} {'c+s/srch':>9} {'final/srch':>10}"
    )
    for name, st in result["chests"].items():
        print(
            f"{name:8} {100 * st['dice_share']:6.1f} {st['mean_face']:5.2f} "
            f"{st['searches_per_game']:7.2f} {st['mean_drawer_face']:6.2f} "
            f"{st['kept_per_search']:6.2f} {100 * st['bust_rate']:6.1f} "
            f"{st['points_per_search']:9.2f} {st['card_set_points_per_search']:9.2f} "
            f"{st['final_points_per_search']:10.2f}"
        )
    rates = result["seat_win_rate"]
    cis = result["seat_win_ci95"]
    print(
        "seat win rates: "
        + ", ".join(
            f"{p}: {100 * r:.1f}% [{100 * lo:.0f}-{100 * hi:.0f}]"
            for p, (r, (lo, hi)) in enumerate(zip(rates, cis, strict=True))
        )
    )


def plot(results: dict[str, dict[str, Any]], out_dir: Path, stem: str) -> list[Path]:
    """Bar charts comparing runs (labels -> summaries): chests and seats."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    labels = list(results)
    metrics = [
        ("dice_share", "share of dice placed", 100.0, "%"),
        ("bust_rate", "bust rate", 100.0, "%"),
        ("kept_per_search", "cards kept per search", 1.0, ""),
        ("final_points_per_search", "final points per search", 1.0, ""),
    ]
    colours = {"bronze": "#b87333", "silver": "#a8a9ad", "gold": "#d4af37"}
    fig, axes = plt.subplots(1, len(metrics), figsize=(4.2 * len(metrics), 3.8))
    width = 0.8 / len(CHESTS)
    for ax, (key, title, scale, unit) in zip(axes, metrics, strict=True):
        for ci, name in enumerate(CHESTS):
            xs = [i + (ci - 1) * width for i in range(len(labels))]
            ys = [results[lab]["chests"][name][key] * scale for lab in labels]
            bars = ax.bar(xs, ys, width, label=name, color=colours[name], edgecolor="black")
            ax.bar_label(bars, fmt="%.1f" if scale == 1.0 else "%.0f", fontsize=7)
        ax.set_xticks(range(len(labels)), labels)
        ax.set_title(title + (f" ({unit})" if unit else ""))
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper right", ncols=3, fontsize=9)
    players = next(iter(results.values()))["players"]
    fig.suptitle(f"Magic Lamp chests, heuristic bots, {players} players", x=0.3)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    chest_png = out_dir / f"{stem}-chests.png"
    fig.savefig(chest_png, dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    n_labels = len(labels)
    width = 0.8 / n_labels
    for li, lab in enumerate(labels):
        rates = results[lab]["seat_win_rate"]
        cis = results[lab]["seat_win_ci95"]
        xs = [s + (li - (n_labels - 1) / 2) * width for s in range(len(rates))]
        ys = [100 * r for r in rates]
        err = [
            [100 * (r - lo) for r, (lo, _) in zip(rates, cis, strict=True)],
            [100 * (hi - r) for r, (_, hi) in zip(rates, cis, strict=True)],
        ]
        ax.bar(xs, ys, width, yerr=err, capsize=3, label=lab)
        fair = 100 / len(rates)
    ax.axhline(fair, color="black", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks(range(len(rates)), [f"seat {s}" for s in range(len(rates))])
    ax.set_ylabel("win rate (%), 95% interval")
    ax.set_title(f"Seat win rates, heuristic bots, {players} players")
    ax.legend(fontsize=8)
    fig.tight_layout()
    seat_png = out_dir / f"{stem}-seats.png"
    fig.savefig(seat_png, dpi=110)
    plt.close(fig)

    # Risk against reward: a safer chest should pay less.
    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    markers = "osD^v"
    for li, lab in enumerate(labels):
        chests = results[lab]["chests"]
        xs = [100 * chests[name]["bust_rate"] for name in CHESTS]
        ys = [chests[name]["final_points_per_search"] for name in CHESTS]
        ax.plot(xs, ys, color="grey", linewidth=1, zorder=1)
        for name, x, y in zip(CHESTS, xs, ys, strict=True):
            size = 40 + 600 * chests[name]["dice_share"]
            ax.scatter(
                x,
                y,
                s=size,
                color=colours[name],
                edgecolor="black",
                zorder=2,
                marker=markers[li % len(markers)],
            )
        ax.annotate(lab, (xs[-1], ys[-1]), textcoords="offset points", xytext=(8, -4))
    ax.set_xlabel("bust rate (%)")
    ax.set_ylabel("final points per search")
    ax.set_title(f"Risk and reward per chest ({players} players)\nmarker area: share of dice")
    fig.tight_layout()
    risk_png = out_dir / f"{stem}-risk.png"
    fig.savefig(risk_png, dpi=110)
    plt.close(fig)
    return [chest_png, seat_png, risk_png]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agent", default="heuristic", help="agent spec for every seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--components",
        action="append",
        help="components file (default: built-in); repeat to compare files side by side",
    )
    parser.add_argument("--label", action="append", help="a label per --components file")
    parser.add_argument("--my-precious", action="store_true", help="play the ring variant")
    parser.add_argument("--json", type=Path, help="also write the summaries as JSON here")
    parser.add_argument("--plot", type=Path, help="write PNG plots into this directory")
    parser.add_argument("--stem", default="magic-lamp", help="file name stem of the plots")
    parser.add_argument(
        "--from-json", type=Path, help="plot the summaries of an earlier --json, simulate nothing"
    )
    args = parser.parse_args(argv)
    if args.from_json:
        saved: dict[str, dict[str, Any]] = json.loads(args.from_json.read_text())
        for label, result in saved.items():
            print(f"== {label}")
            print_summary(result)
        for path in plot(saved, args.plot or Path("."), args.stem):
            print(f"wrote {path}")
        return 0

    files: list[str | None] = list(args.components) if args.components else [None]
    labels = args.label or [("built-in" if f is None else Path(f).stem) for f in files]
    if len(labels) != len(files):
        parser.error("give one --label per --components file")
    results: dict[str, dict[str, Any]] = {}
    for label, comp in zip(labels, files, strict=True):
        start = time.perf_counter()
        totals = run(args.games, args.players, args.agent, args.seed, comp, args.my_precious)
        result = summary(totals)
        result["seconds"] = time.perf_counter() - start
        results[label] = result
        print(f"== {label} ({result['seconds']:.1f} s)")
        print_summary(result)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    if args.plot:
        for path in plot(results, args.plot, args.stem):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
