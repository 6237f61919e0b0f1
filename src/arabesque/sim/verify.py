"""``arabesque verify RECORD``: re-run a downloaded game record and check that it is what it
claims to be.

The checks, in order; the first that fails is the answer (docs/fairness.md, "Verifiable
deals"; docs/records.md, "Verifying a record"):

1. the record loads (bounded: ``GameRecord.load``) and this engine replays its compatibility;
2. the deal is the one the seed produces: the game built from the record's arrangement has
   the arrangement a game built from the seed alone has. A record declaring a hand-written
   arrangement (``setup.dealt = "hand"``), or not saying (records written before the field)
   whose arrangement is not the seed's, fails unless hand-written deals are allowed;
3. every step is legal, replayed from the start;
4. the stored result (``metadata.result``) is the replayed one;
5. the commitment (``metadata.commitment``), when the record carries one, matches the game,
   params, seed and arrangement with the revealed salt, and (when the user gives it) is the
   hash published at the start.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arabesque import __version__
from arabesque.core import commitment as commitment_
from arabesque.core.errors import ArabesqueError, RecordError
from arabesque.core.game import GameState
from arabesque.core.limits import clip, quote
from arabesque.core.records import DEALT_HAND, DEALT_SEED, GameRecord
from arabesque.core.registry import get_game
from arabesque.core.scoring import winners

#: Exit status of a record that does not verify (a usage error is 2, as everywhere).
EXIT_NOT_VERIFIED = 1
#: Messages quote at most this much of a record.
_MAX_MESSAGE = 1000


@dataclass
class VerifyResult:
    """What ``verify_record`` found: ``failure`` is the first check that does not hold (None
    when all hold); ``checked`` lists what held, in order, in a few words each."""

    failure: str | None = None
    checked: list[str] = field(default_factory=list)
    #: The state after replaying every step (None when the replay did not get that far).
    final: GameState | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None

    def summary(self) -> str:
        """One line: ``verified: ...`` or ``NOT verified: <the failure>``."""
        if self.failure is not None:
            # One line whatever a game's error said: the first line of output is the answer.
            return "NOT verified: " + " ".join(self.failure.split())
        return "verified: " + "; ".join(self.checked)

    def to_json(self) -> dict[str, Any]:
        return {"verified": self.ok, "failure": self.failure, "checked": list(self.checked)}


def _first_difference(ours: Any, theirs: Any, path: str) -> str | None:
    """Where two JSON values first differ, as ``path: ours vs theirs`` words (None if
    equal). Lists are compared position by position, objects key by key (sorted)."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in sorted(set(ours) | set(theirs), key=str):
            where = f"{path}.{key}"
            if key not in ours:
                return f"{where} is missing from the record"
            if key not in theirs:
                return f"{where} is not part of the seed's deal"
            found = _first_difference(ours[key], theirs[key], where)
            if found is not None:
                return found
        return None
    if isinstance(ours, list) and isinstance(theirs, list):
        for i, (a, b) in enumerate(zip(ours, theirs, strict=False)):
            found = _first_difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        if len(ours) != len(theirs):
            return f"{path} holds {len(ours)} entries, the seed's deal {len(theirs)}"
        return None
    if ours == theirs and type(ours) is type(theirs):
        return None
    return f"{path} is {quote(ours)} in the record, {quote(theirs)} in the seed's deal"


def _result_words(state: GameState) -> str:
    if not state.is_over:
        return "game unfinished"
    totals = "/".join(str(s.total) for s in state.scores())
    won = winners(state.ranking())
    who = " and ".join(f"player {p}" for p in won)
    return f"final scores {totals}, {who} {'win' if len(won) > 1 else 'wins'}"


def verify_record(
    record: GameRecord, allow_hand: bool = False, expected_commitment: str | None = None
) -> VerifyResult:
    """Check ``record`` (already loaded) as the module docstring describes. Never raises for
    a bad record: whatever is wrong is the result's ``failure``.

    ``allow_hand``: accept a deal that is not the seed's (a hand-written scenario); the deal
    is then reported as not checked. ``expected_commitment``: the hash published when the
    game started; the record's commitment must be this one."""
    result = VerifyResult()
    try:
        _verify(record, allow_hand, expected_commitment, result)
    except (ArabesqueError, ValueError) as exc:
        # Every engine error is a ValueError subclass; what a hostile record can provoke
        # beyond them is a bug, and is left to surface as one.
        result.failure = clip(str(exc), _MAX_MESSAGE)
    return result


def _verify(
    record: GameRecord,
    allow_hand: bool,
    expected_commitment: str | None,
    result: VerifyResult,
) -> None:
    # 1. Replayable by this engine at all.
    try:
        record.check_compatible()
        state = record.initial_state()
    except RecordError as exc:
        result.failure = f"the record does not set up: {clip(str(exc), _MAX_MESSAGE)}"
        return
    players = state.num_players
    result.checked.append(f"{record.game}, {players} players, seed {record.seed}")
    if record.engine_version != __version__:
        result.checked.append(
            f"recorded by engine {clip(record.engine_version, 64)}, replayed by {__version__}"
        )

    # 2. The deal.
    deal = _check_deal(record, state, allow_hand)
    if deal.startswith("!"):
        result.failure = deal[1:]
        return
    result.checked.append(deal)

    # 3. Every step, from the start (the state built above has not moved).
    try:
        for _ in record.steps(state):
            pass
    except RecordError as exc:
        result.failure = f"a step is not legal: {clip(str(exc), _MAX_MESSAGE)}"
        return
    result.final = state
    result.checked.append(f"{len(record.actions)} steps legal")

    # 4. The stored result.
    mismatch = record.result_mismatch(state)
    if mismatch is not None:
        result.failure = f"the result is not the replayed one: {mismatch}"
        return
    stored = "result matches" if "result" in record.metadata else "no result stored"
    result.checked.append(f"{stored} ({_result_words(state)})")
    abandoned = record.metadata.get("abandoned")
    if isinstance(abandoned, dict) and not state.is_over:
        # A server table ended before the end (the host, or nobody left): no result to check.
        reason = clip(str(abandoned.get("reason", "")), 200)
        result.checked.append(f"abandoned before the end ({reason}): no winner")

    # 5. The commitment.
    held = record.metadata.get("commitment")
    if held is None:
        if expected_commitment is not None:
            result.failure = (
                f"the record carries no commitment (metadata.commitment), but "
                f"{quote(expected_commitment)} was published at the start"
            )
            return
        result.checked.append("no commitment to check")
        return
    why = commitment_.check(held, record)
    if why is not None:
        result.failure = why
        return
    digest = str(held["sha256"])
    if expected_commitment is not None and expected_commitment.strip().lower() != digest:
        result.failure = (
            f"the record's commitment {digest[:16]}... matches the record, but it is not "
            f"the one published at the start ({quote(expected_commitment)}): this is not "
            "that game, or its setup was replaced along with its commitment"
        )
        return
    published = " and is the one published" if expected_commitment is not None else ""
    result.checked.append(f"commitment {digest[:16]}... matches{published}")


def _check_deal(record: GameRecord, state: GameState, allow_hand: bool) -> str:
    """The words for the deal check; a failure starts with ``!``."""
    seed = record.seed
    if record.arrangement is None:
        # Nothing was arranged: the game was built from the seed alone.
        return "deal: the seed's (no arrangement stored)"
    dealt = get_game(record.game).new_game(state.params, seed=seed)
    difference = _first_difference(state.arrangement(), dealt.arrangement(), "arrangement")
    if difference is None:
        if record.dealt == DEALT_HAND:
            return "deal: the seed's (declared hand-written, but it is what the seed deals)"
        return "deal: the seed's"
    if record.dealt == DEALT_SEED:
        return (
            f"!the deal is not the one seed {seed} produces, though setup.dealt says the "
            f"seed dealt it: {difference}"
        )
    if allow_hand:
        return "deal: hand-written (allowed; not checked against the seed)"
    if record.dealt == DEALT_HAND:
        return (
            f"!the record declares a hand-written arrangement (setup.dealt = "
            f"{DEALT_HAND!r}), so its deal cannot be checked against the seed; pass "
            "--allow-hand to verify the rest (it proves nothing about a fair deal)"
        )
    return (
        f"!the deal is not the one seed {seed} produces ({difference}), and the record does "
        "not say it was written by hand (it has no setup.dealt, like every record written "
        "before the field existed); if it is a hand-written scenario, pass --allow-hand"
    )


# -- the command line ---------------------------------------------------------------------------


def add_verify_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``verify`` to ``arabesque``'s subcommands (``subparsers`` is what
    ``add_subparsers`` returned); its handler is ``cmd_verify``."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "verify",
        help="check that a game record is a legal game on the deal its seed produces",
        description="Re-run a game record and check, in order: it loads; its deal is the one "
        "its seed produces; every step is legal; its stored result is the replayed one; its "
        "commitment (if any) matches the revealed seed and salt. Exit status 0 and a "
        "'verified: ...' line when all hold; otherwise 1 and the first that does not.",
    )
    p.add_argument("file", type=Path, metavar="RECORD")
    p.add_argument(
        "--allow-hand",
        action="store_true",
        help="accept a deal written by hand (a scenario) instead of dealt by the seed; the "
        "deal is then not checked",
    )
    p.add_argument(
        "--commitment",
        metavar="SHA256",
        help="the commitment published when the game started: the record's must be this one",
    )
    p.add_argument("--json", action="store_true", help="print the outcome as one JSON object")
    p.set_defaults(handler=cmd_verify)
    return p


def cmd_verify(args: argparse.Namespace) -> int:
    """Verify ``args.file``; 0 when it verifies, ``EXIT_NOT_VERIFIED`` otherwise."""
    path: Path = args.file
    try:
        record = GameRecord.load(path)
    except RecordError as exc:
        result = VerifyResult(failure=f"the record does not load: {exc}")
    else:
        result = verify_record(
            record, allow_hand=args.allow_hand, expected_commitment=args.commitment
        )
    if args.json:
        print(json.dumps({"file": str(path), **result.to_json()}, indent=1))
    elif result.ok:
        print(f"{path}: {result.summary()}")
    else:
        print(f"arabesque verify: {path}: {result.summary()}", file=sys.stderr)
    return 0 if result.ok else EXIT_NOT_VERIFIED


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m arabesque.sim.verify RECORD``: the command without the rest of the CLI."""
    parser = argparse.ArgumentParser(prog="arabesque")
    add_verify_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["verify", *(sys.argv[1:] if argv is None else argv)])
    return cmd_verify(args)


if __name__ == "__main__":
    sys.exit(main())
