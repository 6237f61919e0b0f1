#!/usr/bin/env bash
# Compare Arabesque's random-playout speed with an anchor engine measured in the same run,
# alternating, both pinned to one core: OpenSpiel's pure-Python block dominoes, measured by
# scripts/anchor_block_dominoes.py (or, with ANCHOR_SCRIPT set, by the shared workspace's
# anchor_bench.py). Prints per-round figures, medians and the ratios.
#
#   python3 -m venv /tmp/anchors-venv && /tmp/anchors-venv/bin/pip install open-spiel==2.0.2
#   scripts/bench_vs_anchor.sh [GAME] [PLAYERS] [SECONDS] [ROUNDS]
set -euo pipefail
game=${1:-magic-lamp}
players=${2:-4}
seconds=${3:-5}
rounds=${4:-3}
anchor_py=${ANCHOR_PYTHON:-/tmp/anchors-venv/bin/python}
anchor_script=${ANCHOR_SCRIPT:-}
anchor=openspiel_py:python_block_dominoes
out=$(mktemp -d)

for r in $(seq 1 "$rounds"); do
  taskset -c 0 arabesque bench "$game" --players "$players" --seconds "$seconds" --json \
    > "$out/ours-$r.json"
  if [ -n "$anchor_script" ]; then
    taskset -c 0 "$anchor_py" "$anchor_script" --budget "$seconds" --only "$anchor" \
      --no-calibration --out "$out/anchor-$r.json" > "$out/anchor-$r.txt"
  else
    taskset -c 0 "$anchor_py" "$(dirname "$0")/anchor_block_dominoes.py" --seconds "$seconds" \
      > "$out/anchor-$r.txt"
  fi
done

python3 - "$out" "$rounds" "$game" "$players" <<'PY'
import json, statistics, sys
from pathlib import Path
out, rounds, game, players = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
ours, anchor, games, lengths = [], [], [], []
for r in range(1, rounds + 1):
    result = json.loads((out / f"ours-{r}.json").read_text())
    ours.append(result["steps_per_s"])
    games.append(result["games_per_s"])
    lengths.append(result["mean_game_length"])
    lines = [json.loads(l) for l in (out / f"anchor-{r}.txt").read_text().splitlines()
             if l.startswith("{")]
    anchor.append(next(l["steps_per_s"] for l in lines if "steps_per_s" in l))
ratios = [o / a for o, a in zip(ours, anchor)]
RATES = ("view_per_s", "view_delta_per_s", "observation_per_s", "search_copy_per_s",
         "determinize_per_s")
per_round = [json.loads((out / f"ours-{r}.json").read_text()) for r in range(1, rounds + 1)]
for name in RATES:
    values = [res[name] for res in per_round if name in res]
    if not values:
        continue
    to_steps = [res[name] / res["steps_per_s"] for res in per_round if name in res]
    to_anchor = [res[name] / a for res, a in zip(per_round, anchor) if name in res]
    print(f"{name}: per round {[round(x) for x in values]}; median "
          f"{statistics.median(values):.0f}; ratio to steps/s {statistics.median(to_steps):.2f}; "
          f"to the anchor's steps/s {statistics.median(to_anchor):.2f}")
print(f"{game} {players}p steps/s per round: {[round(x) for x in ours]}; "
      f"median {statistics.median(ours):.0f}")
print(f"{game} {players}p games/s per round: {[round(x, 1) for x in games]}; "
      f"median {statistics.median(games):.1f}; mean game length "
      f"{[round(x, 1) for x in lengths]}")
print(f"anchor python_block_dominoes steps/s: {[round(x) for x in anchor]}; "
      f"median {statistics.median(anchor):.0f}")
print(f"ratio ours/anchor per round: {[round(x, 2) for x in ratios]}; "
      f"median {statistics.median(ratios):.2f}")
PY
