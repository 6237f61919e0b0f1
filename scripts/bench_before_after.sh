#!/usr/bin/env bash
# Compare the engine's speed before and after a change, in one run: `arabesque bench` with the
# code of two source trees, alternating round by round, each pinned to one core, with the
# anchor engine (OpenSpiel's pure-Python block dominoes, scripts/anchor_block_dominoes.py)
# measured in the same rounds. Prints per-round steps/s, medians, and the ratios after/before
# (pair by pair, so drift of the machine's speed during the run cancels) and each to the anchor,
# then each tree's view rate: views/s, its ratio to the same run's steps/s, and µs per view.
#
#   git worktree add /tmp/before main~3          # the code before the change
#   python3 -m venv /tmp/anchors-venv && /tmp/anchors-venv/bin/pip install open-spiel==2.0.2
#   scripts/bench_before_after.sh /tmp/before/src src [SECONDS] [ROUNDS] [GAME:PLAYERS ...]
#
# Without the anchor's venv (ANCHOR_PYTHON) the anchor is skipped and only after/before is shown.
set -euo pipefail
before=$1
after=$2
seconds=${3:-5}
rounds=${4:-5}
shift $(( $# < 4 ? $# : 4 ))
configs=("$@")
[ ${#configs[@]} -eq 0 ] && configs=(magic-lamp:4 ali-baba:3 djinn:4)
anchor_py=${ANCHOR_PYTHON:-/tmp/anchors-venv/bin/python}
out=$(mktemp -d)

bench() { # tree game players file
  PYTHONPATH="$1" taskset -c 0 python3 -m arabesque bench "$2" --players "$3" \
    --seconds "$seconds" --json > "$4"
}
for r in $(seq 1 "$rounds"); do
  for config in "${configs[@]}"; do
    game=${config%:*}; players=${config#*:}
    bench "$before" "$game" "$players" "$out/before-$game-$r.json"
    bench "$after" "$game" "$players" "$out/after-$game-$r.json"
  done
  if [ -x "$anchor_py" ]; then
    taskset -c 0 "$anchor_py" "$(dirname "$0")/anchor_block_dominoes.py" --seconds "$seconds" \
      > "$out/anchor-$r.txt"
  fi
  echo "round $r of $rounds done" >&2
done

python3 - "$out" "$rounds" "${configs[@]}" <<'PY'
import json, statistics, sys
from pathlib import Path
out, rounds, configs = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
def steps(name):
    return json.loads((out / name).read_text())["steps_per_s"]
anchor = []
for r in range(1, rounds + 1):
    path = out / f"anchor-{r}.txt"
    if path.exists():
        lines = [json.loads(l) for l in path.read_text().splitlines() if l.startswith("{")]
        anchor.append(next(l["steps_per_s"] for l in lines if "steps_per_s" in l))
if anchor:
    print(f"anchor python_block_dominoes steps/s per round: {[round(x) for x in anchor]}; "
          f"median {statistics.median(anchor):.0f}")
for config in configs:
    game, players = config.split(":")
    before = [steps(f"before-{game}-{r}.json") for r in range(1, rounds + 1)]
    after = [steps(f"after-{game}-{r}.json") for r in range(1, rounds + 1)]
    ratios = [a / b for a, b in zip(after, before)]
    print(f"{game} {players}p steps/s before: {[round(x) for x in before]}; "
          f"median {statistics.median(before):.0f}")
    print(f"{game} {players}p steps/s after:  {[round(x) for x in after]}; "
          f"median {statistics.median(after):.0f}")
    line = (f"{game} {players}p after/before per round: {[round(x, 3) for x in ratios]}; "
            f"median {statistics.median(ratios):.3f}")
    if anchor:
        line += (f"; to the anchor: before {statistics.median(b / a for b, a in zip(before, anchor)):.2f},"
                 f" after {statistics.median(x / a for x, a in zip(after, anchor)):.2f}")
    print(line)
    # The views (state.view without its log, bench.RATES), as a ratio to the same run's steps/s.
    for tree in ("before", "after"):
        runs = [json.loads((out / f"{tree}-{game}-{r}.json").read_text()) for r in range(1, rounds + 1)]
        if "view_per_s" not in runs[0]:
            continue
        views = [d["view_per_s"] for d in runs]
        ratio = [d["ratios_to_steps"]["view_per_s"] for d in runs]
        print(f"{game} {players}p views {tree}: views/s median {statistics.median(views):.0f}, "
              f"ratio to steps/s {[round(x, 3) for x in ratio]} median {statistics.median(ratio):.3f}, "
              f"us/view median {statistics.median(1e6 / v for v in views):.1f}")
PY
rm -rf "$out"
