"""Verifiable deals: a hash commitment to a game's setup, published before play.

At the start of a game the server publishes ``commit(...)``: the SHA-256 of the game id, the
params, the seed, the initial arrangement and a random salt. The seed and salt stay secret
until the game ends, when the record reveals them (``metadata["commitment"] = {"sha256":
..., "salt": ...}``). Anyone holding the record recomputes the hash with ``check``: if it
matches, the deal the record replays is the one fixed before the first move. What this does
and does not prove: docs/fairness.md, section "Verifiable deals".

The encoding is canonical so that any language can recompute it: JSON with sorted keys, no
whitespace, ASCII only (``\\uXXXX`` escapes), no NaN, of an object holding exactly the
committed fields and the tag ``"v": "arabesque-commitment/1"``. The seed is written as a
decimal *string*: seeds go up to 2**63, and JavaScript's JSON reads numbers as doubles,
which round integers past 2**53 — a browser would hash a different seed.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from arabesque.core.limits import quote

if TYPE_CHECKING:
    from arabesque.core.game import GameState
    from arabesque.core.records import GameRecord

#: The scheme's tag, part of the hashed object: a later scheme gets a new tag, so a hash
#: made one way is never checked another.
VERSION = "arabesque-commitment/1"
#: Salt bytes from ``new_salt`` (hex: twice as many characters). 128 bits: the seed alone
#: may be guessable (small, sequential, a date), and the arrangement follows from it, so
#: without a salt the hash could be inverted by trying seeds.
SALT_BYTES = 16
#: The longest salt ``check`` accepts (a record may come from anyone).
MAX_SALT_CHARS = 256

_HEX64 = re.compile(r"[0-9a-f]{64}")


def new_salt() -> str:
    """A fresh random salt: 32 hex characters from the operating system's CSPRNG."""
    return secrets.token_hex(SALT_BYTES)


def canonical(
    game: str, params: Mapping[str, Any], seed: int, arrangement: Mapping[str, Any] | None,
    salt: str,
) -> bytes:
    """The exact bytes that are hashed (see the module docstring)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed is an integer, got {type(seed).__name__}")
    body = {
        "v": VERSION,
        "game": game,
        "params": dict(params),
        "seed": str(seed),
        "arrangement": None if arrangement is None else dict(arrangement),
        "salt": salt,
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)
    return text.encode("ascii")


def commit(
    game: str, params: Mapping[str, Any], seed: int, arrangement: Mapping[str, Any] | None,
    salt: str,
) -> str:
    """The commitment: lowercase hex SHA-256 of ``canonical(...)``.

    Commit to what the record will store: ``params`` as the record writes them (a data file
    named by content, ``"sha256:<hex>"``, never a path) and the full ``arrangement``.
    ``commit_state`` does this from a fresh game."""
    return hashlib.sha256(canonical(game, params, seed, arrangement, salt)).hexdigest()


def commit_state(state: GameState, salt: str) -> str:
    """The commitment to a game about to start, over exactly the fields its record will
    store (taken from ``GameRecord.from_state``, so params and arrangement are in their
    record form)."""
    from arabesque.core.records import GameRecord

    record = GameRecord.from_state(state)
    return commit(record.game, record.params, record.seed, record.arrangement, salt)


def check(commitment: Any, record: GameRecord) -> str | None:
    """Why ``commitment`` (``{"sha256": hex, "salt": salt}``, as a record's
    ``metadata["commitment"]`` holds it) does not match ``record``'s game, params, seed and
    arrangement; None when it matches. Never raises on a malformed commitment: it says what
    is wrong with it."""
    if not isinstance(commitment, Mapping):
        return (
            "metadata.commitment must be {'sha256': ..., 'salt': ...}, got "
            f"{quote(commitment)}"
        )
    digest, salt = commitment.get("sha256"), commitment.get("salt")
    if not isinstance(digest, str) or not _HEX64.fullmatch(digest):
        return (
            "metadata.commitment.sha256 must be the 64 lowercase hex characters of a SHA-256, "
            f"got {quote(digest)}"
        )
    if not isinstance(salt, str) or not salt:
        return (
            "metadata.commitment.salt must be the salt revealed at the end of the game (a "
            f"string), got {quote(salt)}"
        )
    if len(salt) > MAX_SALT_CHARS:
        return f"metadata.commitment.salt is longer than {MAX_SALT_CHARS} characters"
    try:
        actual = commit(record.game, record.params, record.seed, record.arrangement, salt)
    except (TypeError, ValueError) as exc:
        # Only reachable for records built in code (a loaded record is plain JSON).
        return f"cannot hash the record's setup for the commitment: {exc}"
    if actual != digest:
        return (
            f"the commitment does not match: the game, params, seed and arrangement with the "
            f"revealed salt hash to {actual[:16]}..., but the commitment published at the "
            f"start is {digest[:16]}... (the deal or the salt differs from what was committed)"
        )
    return None
