"""Seed commitments (src/arabesque/core/commitment.py; docs/fairness.md, "Verifiable deals")."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest

from arabesque.core import GameRecord, get_game
from arabesque.core.commitment import (
    VERSION,
    canonical,
    check,
    commit,
    commit_state,
    new_salt,
)


def _record(seed: int = 4) -> tuple[GameRecord, str, str]:
    spec = get_game("magic-lamp")
    state = spec.new_game(spec.make_params(num_players=3), seed=seed)
    salt = new_salt()
    digest = commit_state(state, salt)
    record: GameRecord = state.record()
    return record, digest, salt


def test_new_salt_is_32_random_hex_characters() -> None:
    salts = {new_salt() for _ in range(50)}
    assert len(salts) == 50
    assert all(re.fullmatch(r"[0-9a-f]{32}", s) for s in salts)


def test_the_canonical_encoding_is_documented_json() -> None:
    text = canonical("magic-lamp", {"b": 1, "a": None}, 2**63 - 1, None, "ab")
    # Sorted keys, no whitespace, the seed as a decimal string, the version tag.
    assert text == (
        b'{"arrangement":null,"game":"magic-lamp","params":{"a":null,"b":1},"salt":"ab",'
        b'"seed":"9223372036854775807","v":"' + VERSION.encode() + b'"}'
    )
    assert commit("magic-lamp", {"b": 1, "a": None}, 2**63 - 1, None, "ab") == (
        hashlib.sha256(text).hexdigest()
    )


def test_the_encoding_is_ascii_and_independent_of_key_order() -> None:
    a = canonical("g", {"x": "é", "y": [1, 2]}, 1, {"k": 1, "j": 2}, "s")
    b = canonical("g", {"y": [1, 2], "x": "é"}, 1, {"j": 2, "k": 1}, "s")
    assert a == b
    assert b"\\u00e9" in a
    json.loads(a)  # plain JSON


def test_every_field_is_committed() -> None:
    base: tuple[Any, ...] = ("g", {"p": 1}, 1, {"a": [1]}, "s")
    digest = commit(*base)
    for i, other in enumerate(["h", {"p": 2}, 2, {"a": [2]}, "t"]):
        changed = list(base)
        changed[i] = other
        assert commit(*changed) != digest
    assert commit("g", {"p": 1}, 1, None, "s") != digest


def test_a_seed_must_be_an_integer() -> None:
    with pytest.raises(TypeError):
        commit("g", {}, True, None, "s")


def test_a_record_checks_against_the_commitment_made_at_the_start() -> None:
    record, digest, salt = _record()
    assert check({"sha256": digest, "salt": salt}, record) is None
    # Played on and saved: the setup is unchanged, so it still matches.
    reloaded = GameRecord.loads(record.dumps())
    assert check({"sha256": digest, "salt": salt}, reloaded) is None


def test_another_seed_salt_or_deal_does_not_match() -> None:
    record, digest, salt = _record()
    assert "does not match" in str(check({"sha256": digest, "salt": new_salt()}, record))
    other, _, _ = _record(seed=5)
    assert "does not match" in str(check({"sha256": digest, "salt": salt}, other))
    assert record.arrangement is not None
    deck = record.arrangement["decks"]["gold"]
    deck[0], deck[1] = deck[1], deck[0]
    assert "does not match" in str(check({"sha256": digest, "salt": salt}, record))


@pytest.mark.parametrize(
    ("commitment", "says"),
    [
        ("abc", "must be {'sha256'"),
        ({"salt": "ab"}, "sha256 must be"),
        ({"sha256": "A" * 64, "salt": "ab"}, "sha256 must be"),
        ({"sha256": "a" * 63, "salt": "ab"}, "sha256 must be"),
        ({"sha256": "a" * 64}, "salt must be"),
        ({"sha256": "a" * 64, "salt": 5}, "salt must be"),
        ({"sha256": "a" * 64, "salt": "x" * 300}, "longer than"),
    ],
)
def test_malformed_commitments_are_explained(commitment: Any, says: str) -> None:
    record, _, _ = _record()
    assert says in str(check(commitment, record))
