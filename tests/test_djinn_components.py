"""The Djinn components loader: the authored set respects the published facts, every entry
has a provenance, bad files are refused, and a user's own file is embedded in records."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from arabesque.core.errors import ComponentsError
from arabesque.core.records import GameRecord
from arabesque.games.djinn.components import DEFAULT_FILE, catalog, load_components
from arabesque.games.djinn.params import DjinnParams
from tests.djinn_scenarios import SPEC


def test_the_authored_set_has_the_published_counts() -> None:
    comp = load_components()
    assert len(comp.chests) == 18 and len(comp.trophies) == 21
    assert len(comp.characters) == 20 and sum(c.positive for c in comp.characters) == 10
    assert comp.supply["bottles"] == 40 and comp.supply["coins"] == comp.supply["scrolls"] == 46
    assert {m.key for m in comp.mage_cards} == {True, False}
    assert all(1 <= m.power <= 3 for m in comp.mage_cards)
    assert sum(any(m.bonus) for m in comp.mage_cards) > len(comp.mage_cards) // 2


def test_every_entry_names_its_provenance() -> None:
    data = tomllib.loads(DEFAULT_FILE.read_text())
    for key, value in data.items():
        entries = value if isinstance(value, list) else [value]
        for entry in entries:
            if key in ("meta", "market"):
                continue
            assert entry["provenance"].split(":")[0].split()[0] in ("rulebook", "assumed"), key
    for entry in data["market"]["tents"] + data["market"]["sides"]:
        assert "provenance" in entry


def _variant(tmp_path: Path, old: str, new: str) -> str:
    text = DEFAULT_FILE.read_text()
    assert old in text
    path = tmp_path / "djinn.toml"
    path.write_text(text.replace(old, new, 1))
    return str(path)


def test_bad_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ComponentsError, match="provenance"):
        load_components(
            _variant(
                tmp_path,
                'provenance = "rulebook §Market (1 coin for 1 cork)"',
                'provenance = "guess"',
            )
        )
    with pytest.raises(ComponentsError, match="same shape"):
        load_components(_variant(tmp_path, '["s1", "r1"]', '["s1", "s2"]'))
    with pytest.raises(ComponentsError, match="unknown key"):
        load_components(_variant(tmp_path, "power = 3", "powr = 3"))


def test_a_users_file_plays_and_its_record_embeds_it(tmp_path: Path) -> None:
    path = _variant(tmp_path, "coins = 4\nactive_circles", "coins = 6\nactive_circles")
    params = DjinnParams(num_players=2, components=path, max_rounds=3)
    state = SPEC.new_game(params, seed=5)
    assert state.coins == [6, 6]
    rng = __import__("random").Random(1)
    while not state.is_over:
        (p,) = state.to_act()
        state.apply(p, rng.choice(state.legal_actions(p)))
    record = json.loads(json.dumps(state.record().to_json()))
    assert record["params"]["components"].startswith("sha256:") and record["setup"]["data"]
    again = GameRecord.from_json(record).replay()
    assert again.fingerprint() == state.fingerprint()
    assert catalog(path)["source"] == path
