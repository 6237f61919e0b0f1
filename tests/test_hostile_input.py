"""Input from strangers: records, components files and action texts that a server would take.

Each hole an independent fuzz campaign found has a test here that would have caught it (deep
JSON, a 400-digit rub, a record naming /dev/zero as its components, ``count = 100000000``, a
TOML array nested 100,000 deep, stone names that records could not replay, a record of
another engine version), and hypothesis fuzzes records, components files and action texts:
whatever the input, the engine answers with a result or with its own typed error, never with
a crash, a hang or a silent difference.
"""

from __future__ import annotations

import copy
import json
import os
import random
import sys
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arabesque import __version__, cli
from arabesque.core import (
    ArabesqueError,
    ComponentsError,
    GameRecord,
    InvalidActionError,
    ParamsError,
    RecordError,
    gamedata,
    get_game,
)
from arabesque.core.conformance import random_playout
from arabesque.core.game import GameState
from arabesque.core.records import MAX_RECORD_BYTES, MAX_RECORD_NESTING
from arabesque.games.ali_baba.components import load_tiles
from arabesque.games.djinn.rules import dealing as djinn_dealing
from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import (
    DEFAULT_FILE,
    MAX_CARDS,
    MAX_FILE_BYTES,
    MAX_NESTING,
    load_components,
    parse_components_text,
)
from arabesque.sim import verify
from tests.scenarios import _custom_text, custom_components
from tests.test_magic_lamp_components import base, rename_stone, to_toml

ROOT = Path(__file__).resolve().parents[1]
ML = get_game("magic-lamp")
AB = get_game("ali-baba")
DJ = get_game("djinn")
ALI_BABA_TILES = ROOT / "src" / "arabesque" / "games" / "ali_baba" / "data" / "tiles.toml"

#: Fuzz settings: few examples each, so the whole file runs in a few seconds; a longer campaign
#: with fresh random inputs: ``FUZZ_EXAMPLES=2000 pytest tests/test_hostile_input.py -k fuzz``.
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")),
    deadline=None,
    derandomize="FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _record(game: str = "magic-lamp", seed: int = 3, **options: Any) -> GameRecord:
    spec = get_game(game)
    state = random_playout(spec, spec.make_params(num_players=2, **options), seed)
    record: GameRecord = state.record()
    return record


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _ref_components(text: str) -> str:
    """Components known by content (no file): the params value a record carries."""
    ref: str = gamedata.make_ref(gamedata.register_local(text))
    return ref


# -- 1. records: nesting and size ------------------------------------------------------------


def test_json_nested_1000_deep_is_a_record_error_naming_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = '{"format": "arabesque-record/1", "metadata": ' + '{"nest": ' * 1000 + "1" + "}" * 1001
    assert 10_000 < len(deep) < 13_000  # the campaign's 12 KB file
    with pytest.raises(RecordError, match=f"more than {MAX_RECORD_NESTING} levels deep"):
        GameRecord.loads(deep)
    path = tmp_path / "deep.json"
    path.write_text(deep, encoding="utf-8")
    with pytest.raises(RecordError, match=f"records nest at most {MAX_RECORD_NESTING}"):
        GameRecord.load(path)
    code, out, err = _cli(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert f"nest at most {MAX_RECORD_NESTING}" in err and err.count("\n") == 1


def test_json_far_deeper_than_python_can_parse_is_refused_the_same_way() -> None:
    with pytest.raises(RecordError, match="levels deep"):
        GameRecord.loads("[" * 100_000 + "]" * 100_000)


def test_a_parsed_record_built_in_code_is_bounded_too() -> None:
    data: Any = _record().to_json()
    nested: Any = []
    for _ in range(5000):
        nested = [nested]
    data["metadata"] = {"notes": nested}
    with pytest.raises(RecordError, match="levels deep"):
        GameRecord.from_json(data)
    # Nesting within the limit is fine in free-form metadata.
    shallow: Any = 1
    for _ in range(MAX_RECORD_NESTING - 3):
        shallow = [shallow]
    data["metadata"] = {"notes": shallow}
    GameRecord.from_json(data).replay()


def test_an_oversized_or_endless_record_file_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as file:
        file.truncate(MAX_RECORD_BYTES + 1)  # sparse: costs no disk
    with pytest.raises(RecordError, match=f"records hold at most {MAX_RECORD_BYTES} bytes"):
        GameRecord.load(big)
    if os.path.exists("/dev/zero"):
        start = time.perf_counter()
        with pytest.raises(RecordError, match="larger than"):
            GameRecord.load("/dev/zero")
        assert time.perf_counter() - start < 5


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b'{"game": "magic-lamp", "x": "\xff"}', "not valid JSON"),
        ('{"setup": {"seed": ' + "9" * 5000 + "}}", "not valid JSON"),
        ('{"setup": {"seed": NaN}}', "NaN is not JSON"),
        ("[1, 2]", "a record is a JSON object, got list"),
    ],
)
def test_bad_json_is_a_record_error(text: str | bytes, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.loads(text)


def test_messages_quote_hostile_values_briefly() -> None:
    data = _record().to_json()
    data["actions"][0] = {"player": 0, "action": 7, "junk": "x" * 100_000}
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(data)
    assert "step 1" in str(info.value) and len(str(info.value)) < 300


# -- 1. action texts -------------------------------------------------------------------------

HUGE_RUB = "rub 1" + "0" * 399


@pytest.mark.parametrize(
    "text",
    [
        HUGE_RUB,
        "rub 1" + "0" * 60 + "ms",  # short enough to parse, too many digits
        "card " + "9" * 5000,
        "set gold ٣",  # an Arabic-Indic digit: int() would read it
        "face ²",
        "target +1",
        "rub 3_000",
        "stone " + "ruby" * 50,
        "",
        "\x00",
    ],
)
def test_bad_magic_lamp_action_texts_are_invalid_action_errors(text: str) -> None:
    state = ML.new_game(ML.make_params(num_players=3), seed=1)
    with pytest.raises(InvalidActionError) as info:
        state.parse_action(text)
    assert len(str(info.value)) < 400


@pytest.mark.parametrize(
    "text",
    [
        "take " + "9" * 400,
        "take ²",
        "take ٣",
        "forbid " + "x" * 500,
        "steal 99999",
        "also take",
        "show",
    ],
)
def test_bad_ali_baba_action_texts_are_invalid_action_errors(text: str) -> None:
    state = AB.new_game(AB.make_params(num_players=3), seed=1)
    with pytest.raises(InvalidActionError) as info:
        state.parse_action(text)
    assert len(str(info.value)) < 400


def test_a_400_digit_rub_in_a_record_names_its_step() -> None:
    record = _record()
    seat = record.actions[0][0]
    record.actions[0] = (seat, HUGE_RUB)
    with pytest.raises(RecordError, match=r"^step 1 \(player \d, 'rub 1000"):
        record.replay()


# -- 2. a record never opens a file ----------------------------------------------------------


@pytest.mark.parametrize("path", ["/dev/zero", "__CUSTOM__", "relative/box.toml", ""])
def test_a_record_naming_a_components_path_is_refused(
    path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Even a readable, valid file is refused: a record from a stranger must not choose files.
    path = custom_components() if path == "__CUSTOM__" else path
    data = _record().to_json()
    data["params"]["components"] = path
    with pytest.raises(RecordError, match="a record may not name a file"):
        GameRecord.from_json(data).replay()
    file = tmp_path / "record.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = _cli(capsys, "replay", str(file))
    assert code == 2 and out == "" and "may not name a file" in err


def test_a_game_with_a_components_file_replays_where_the_file_is_gone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    box = tmp_path / "mybox.toml"
    box.write_text(_custom_text() + "\n# the box of a player who moved away\n", encoding="utf-8")
    spec = get_game("magic-lamp")
    played = random_playout(spec, spec.make_params(num_players=3, components=str(box)), 5)
    record = played.record()
    data = record.to_json()
    digest = gamedata.digest_of(box.read_text(encoding="utf-8"))
    assert data["params"]["components"] == f"sha256:{digest}"
    assert data["setup"]["data_sha256"] == digest
    assert data["setup"]["data"] == box.read_text(encoding="utf-8")
    assert str(box) not in json.dumps(data)
    saved = tmp_path / "game.json"
    record.save(saved)
    box.unlink()
    replayed = GameRecord.load(saved).replay()
    # Exact: the same state, and params equal although one names a path, the other a digest.
    assert replayed.fingerprint() == played.fingerprint()
    assert replayed.params == played.params and hash(replayed.params) == hash(played.params)
    assert replayed.record().to_json() == data
    code, out, _ = _cli(capsys, "replay", str(saved), "--json")
    assert code == 0 and json.loads(out)["scores"] == data["metadata"]["result"]["scores"]


def test_a_fresh_process_replays_an_embedded_record(tmp_path: Path) -> None:
    import subprocess

    record = _record(components=_ref_components(_custom_text() + "\n# fresh\n"))
    path = tmp_path / "game.json"
    record.save(path)
    proc = subprocess.run(
        [sys.executable, "-m", "arabesque", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["scores"] == record.metadata["result"]["scores"]


def _embedded() -> dict[str, Any]:
    data: dict[str, Any] = _record(
        components=_ref_components(_custom_text() + "\n# embedded\n")
    ).to_json()
    return data


EMBEDDING_ERRORS: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    (
        "data changed",
        lambda d: d["setup"].update(data=d["setup"]["data"] + "\n# edited\n"),
        "the embedded data was changed",
    ),
    (
        "data removed",
        lambda d: d["setup"].pop("data"),
        "embeds no setup.data",
    ),
    (
        "data without a reference",
        lambda d: d["params"].update(components=None),
        "params.components is null",
    ),
    (
        "a malformed reference",
        lambda d: d["params"].update(components="sha256:xyz"),
        "may not name a file",
    ),
    (
        "a reference to other data",
        lambda d: d["params"].update(components="sha256:" + "ab" * 32),
        "but setup.data has sha256",
    ),
    (
        "data that is not text",
        lambda d: d["setup"].update(data=["chest_cards"]),
        "must be the text of the game's data file",
    ),
    (
        "data past the size limit",
        lambda d: d["setup"].update(data="#" * (gamedata.MAX_DATA_BYTES + 1)),
        f"at most {gamedata.MAX_DATA_BYTES} bytes",
    ),
    (
        "data that is not UTF-8 text",
        lambda d: d["setup"].update(data="\ud800"),
        "lone surrogates",
    ),
]


@pytest.mark.parametrize(
    ("problem", "change", "message"), EMBEDDING_ERRORS, ids=[e[0] for e in EMBEDDING_ERRORS]
)
def test_embedded_data_is_checked(
    problem: str, change: Callable[[dict[str, Any]], Any], message: str
) -> None:
    data = _embedded()
    GameRecord.from_json(copy.deepcopy(data)).replay()  # intact, it replays
    change(data)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(data).replay()


def test_a_game_without_a_data_file_refuses_embedded_data() -> None:
    data = _record("ali-baba").to_json()
    data["setup"]["data"] = "x = 1\n"
    data["setup"].pop("data_sha256")
    with pytest.raises(RecordError, match="ali-baba reads no data file"):
        GameRecord.from_json(data).replay()


def test_embedded_components_registered_by_strangers_stay_bounded() -> None:
    texts = [f"# filler {i}\n" for i in range(gamedata.MAX_EMBEDDED + 5)]
    for text in texts:
        gamedata.register_embedded(text)
    assert gamedata.lookup(gamedata.digest_of(texts[0])) is None
    assert gamedata.lookup(gamedata.digest_of(texts[-1])) == texts[-1]
    # Texts of local files stay: a record of a game played with one can always embed it.
    assert gamedata.lookup(load_components(custom_components()).sha256) is not None


def test_unregistered_content_references_say_how_to_get_them() -> None:
    with pytest.raises(ComponentsError, match="not loaded in this process"):
        load_components("sha256:" + "cd" * 32)
    with pytest.raises(ComponentsError, match="64 lower-case hex digits"):
        load_components("sha256:not-hex")


# -- 3. bounds on components files ----------------------------------------------------------


def _load_text(text: str) -> Any:
    return parse_components_text(text, "test.toml", gamedata.digest_of(text))


def test_count_of_a_hundred_million_is_refused_at_once() -> None:
    data = base()
    data["chest_cards"][1]["count"] = 100_000_000
    start = time.perf_counter()
    with pytest.raises(ComponentsError, match=f"more than {MAX_CARDS} chest and starting cards"):
        _load_text(to_toml(data))
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize(
    ("section", "key"),
    [("starting_cards", "count"), ("lamp_cards", "copies")],
)
def test_other_counts_are_bounded_too(section: str, key: str) -> None:
    data = base()
    data[section][0][key] = 100_000_000
    with pytest.raises(ComponentsError, match="at most 1000"):
        _load_text(to_toml(data))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["chest_cards"][1].update(scorpions=10**18), "scorpions must be 0..9"),
        (lambda d: d["lamp_cards"][0].update(count=10**9), "count must be 0..100"),
        (lambda d: d["meta"]["set_bonus"].update(gold=10**12), "set bonus must be 0..1000"),
        (lambda d: d["lamp_cards"][0].update(name="W" * 5000), "at most 60 are accepted"),
        (lambda d: d["lamp_cards"][0].update(name="   "), "'name' is empty"),
        (lambda d: d["lamp_cards"][0].update(text="t" * 5000), "at most 1000 are accepted"),
    ],
)
def test_absurd_values_are_refused(change: Callable[[Any], Any], message: str) -> None:
    data = base()
    change(data)
    with pytest.raises(ComponentsError, match=message):
        _load_text(to_toml(data))


def test_a_toml_array_nested_100000_deep_is_a_components_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(ComponentsError, match=f"nest at most {MAX_NESTING}"):
        load_components(str(path))
    with pytest.raises(ComponentsError, match="nest at most"):
        load_tiles(str(path))


@pytest.mark.parametrize(
    "text",
    [
        "x = " + "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1),
        "x = " + "{a = " * 50 + "1" + "}" * 50,
        "[" + ".".join(["a"] * 5000) + "]\nb = 1\n",  # dotted keys: nested without brackets
    ],
    ids=["array just past the limit", "inline tables", "dotted table header"],
)
def test_any_nesting_past_the_limit_is_refused(text: str) -> None:
    with pytest.raises(ComponentsError, match=f"nest at most {MAX_NESTING}"):
        _load_text(text)


def test_an_oversized_components_file_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with big.open("wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(ComponentsError, match=f"at most {MAX_FILE_BYTES} bytes"):
        load_components(str(big))
    if os.path.exists("/dev/zero"):
        with pytest.raises(ComponentsError, match="larger than"):
            load_components("/dev/zero")


def test_ali_baba_tile_files_are_bounded(tmp_path: Path) -> None:
    text = ALI_BABA_TILES.read_text(encoding="utf-8")
    cases = [
        (text.replace("rows = 5", "rows = 100000", 1), "'rows' must be 1..10"),
        (text.replace("over = [2, 2]", 'over = ["a", 2]', 1), "two integers 0..10"),
        (text.replace('name = "carpet"', 'name = "flying carpet"', 1), "not one lower-case word"),
        (text.replace('name = "carpet"', 'name = "carpet\\t"', 1), None),  # stripped: fine
        (text.replace('name = "pink"', 'name = "12"', 1), "not one lower-case word"),
        (text.replace('name = "pink"', 'name = ""', 1), "not one lower-case word"),
    ]
    for i, (changed, message) in enumerate(cases):
        path = tmp_path / f"tiles-{i}.toml"
        path.write_text(changed, encoding="utf-8")
        if message is None:
            assert "carpet" in load_tiles(str(path)).kinds
        else:
            with pytest.raises(ComponentsError, match=message):
                load_tiles(str(path))


# -- 4. names in action texts ----------------------------------------------------------------


def _play_and_replay(components: str, seed: int = 2) -> GameState:
    """A random game with these components, and its record replayed: the same state."""
    played = random_playout(ML, ML.make_params(num_players=3, components=components), seed)
    replayed = GameRecord.from_json(json.loads(played.record().dumps())).replay()
    assert replayed.fingerprint() == played.fingerprint()
    return played


def test_stone_names_are_normalised_so_every_game_that_loads_replays() -> None:
    data = base()
    rename_stone(data, "ruby", "  Ruby ")
    rename_stone(data, "emerald", "EMERALD")
    comp = _load_text(to_toml(data))
    assert comp.stone_types[:2] == ("ruby", "emerald")
    ref = _ref_components(to_toml(data))
    state = ML.new_game(ML.make_params(num_players=3, components=ref), seed=1)
    for i in range(4):
        assert state.parse_action(state.action_to_str(A.stone(i))) == A.stone(i)
    _play_and_replay(ref)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("blue gem", "is not a single word"),
        ("", "is empty"),
        ("   ", "is empty"),
        ("ruby\tred", "is not a single word"),
        ("ruby:1", "contains ':'"),
        ("sorcerer", "is the name of another card kind"),
        ("Talisman", "is the name of another card kind"),
        ("x" * 25, "longer than 24 characters"),
        ("ru\x00by", "is not a single word"),
    ],
)
def test_stone_names_records_could_not_replay_are_refused(name: str, message: str) -> None:
    data = base()
    rename_stone(data, "diamond", name)
    with pytest.raises(ComponentsError, match=message):
        _load_text(to_toml(data))


def test_stone_names_equal_but_for_case_are_one_name_twice() -> None:
    data = base()
    data["meta"]["stone_types"] = ["ruby", "Ruby", "sapphire", "diamond"]
    with pytest.raises(ComponentsError, match="4 different names"):
        _load_text(to_toml(data))


# -- 5. records of another engine version -----------------------------------------------------


def test_a_record_of_another_compatibility_is_refused_naming_both_versions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _record().to_json()
    compat = get_game("magic-lamp").record_compat
    assert data["record_compat"] == compat
    data["engine_version"] = "9.4.1"
    data["record_compat"] = compat + 1
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(data).replay()
    message = str(info.value)
    assert "arabesque 9.4.1" in message and f"arabesque {__version__}" in message
    assert f"compatibility {compat + 1}" in message
    assert f"records of compatibility {compat} only" in message
    path = tmp_path / "future.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = _cli(capsys, "replay", str(path))
    assert code == 2 and out == "" and "arabesque 9.4.1" in err


def test_another_version_of_the_same_compatibility_replays_exactly_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _record()
    data = record.to_json()
    data["engine_version"] = "0.0.9"
    path = tmp_path / "older.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert GameRecord.load(path).replay().fingerprint() == record.replay().fingerprint()
    code, _, err = _cli(capsys, "replay", str(path), "--json")
    assert code == 0 and "0.0.9" in err and "the replay is exact" in err


def test_records_without_a_compatibility_predate_it_and_read_as_1() -> None:
    data = _record().to_json()
    del data["record_compat"]
    assert GameRecord.from_json(data).record_compat == 1
    for bad in ("1", True, 1.0, None, 0, -2):
        data["record_compat"] = bad
        with pytest.raises(RecordError, match="'record_compat' must be an integer"):
            GameRecord.from_json(data)


# -- 6. fuzzing -----------------------------------------------------------------------------

JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (keys and indices), the value's own included."""
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value[:6]):  # a few list entries are enough
            found += _paths(child, (*prefix, index))
    return found


def _mutate(data: Any, path: tuple[Any, ...], value: Any, delete: bool) -> Any:
    if not path:
        return value
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return data


def _fuzz_base(kind: str) -> dict[str, Any]:
    if kind == "embedded":
        return _embedded()
    data: dict[str, Any] = _record(kind).to_json()
    data["actions"] = data["actions"][:60]  # keep each replay short
    return data


_BASES: dict[str, dict[str, Any]] = {}


@FUZZ
@given(
    kind=st.sampled_from(["magic-lamp", "ali-baba", "djinn", "embedded"]),
    choice=st.data(),
    value=JSON_VALUES,
    delete=st.booleans(),
)
def test_fuzz_mutated_records_replay_or_raise_record_error(
    kind: str, choice: st.DataObject, value: Any, delete: bool
) -> None:
    if kind not in _BASES:
        _BASES[kind] = _fuzz_base(kind)
    data = copy.deepcopy(_BASES[kind])
    sections = ["params", "setup", "actions", "metadata", "format", "engine_version"]
    section = choice.draw(st.sampled_from(sections))
    path = choice.draw(st.sampled_from(_paths(data[section], (section,))))
    data = _mutate(data, path, value, delete)
    try:
        record = GameRecord.from_json(data)
        record.replay()
    except RecordError as exc:
        assert str(exc) and len(str(exc)) < 2000


@FUZZ
@given(text=st.text(max_size=200) | st.binary(max_size=200))
def test_fuzz_record_text_parses_or_raises_record_error(text: str | bytes) -> None:
    try:
        state = GameRecord.loads(text).replay()
    except RecordError as exc:
        assert str(exc)
    else:
        assert isinstance(state, GameState)


ACTION_WORDS = st.sampled_from(
    [
        *("set", "gold", "rub", "ms", "stone", "ruby", "card", "take", "also", "blue", "ring"),
        *("forbid", "show", "steal", "swap", "for", "face", "target", "9" * 30, "-1", "²", "٣"),
    ]
)
ACTION_TEXTS = st.text(max_size=40) | st.lists(ACTION_WORDS | st.text(max_size=6), max_size=4).map(
    " ".join
)


@FUZZ
@given(game=st.sampled_from(["magic-lamp", "ali-baba"]), text=ACTION_TEXTS)
def test_fuzz_action_texts_parse_or_raise_invalid_action_error(game: str, text: str) -> None:
    spec = get_game(game)
    state = spec.new_game(spec.make_params(num_players=3), seed=1)
    try:
        action = state.parse_action(text)
    except InvalidActionError:
        return
    assert 0 <= action < state.num_actions
    assert state.parse_action(state.action_to_str(action)) == action


COMPONENT_SECTIONS = ["meta", "chest_cards", "starting_cards", "lamp_cards"]
TOML_VALUES = st.recursive(
    st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.text(max_size=10)
    | st.sampled_from(["ruby", "Ruby ", "gold", "jewel", "stone", "any", "ward", "a b", ""]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["kind", "stone", "count", "x"]), inner, max_size=2)
    ),
    max_leaves=5,
)


@FUZZ
@given(choice=st.data(), value=TOML_VALUES, delete=st.booleans())
def test_fuzz_components_load_and_replay_or_raise_components_error(
    choice: st.DataObject, value: Any, delete: bool
) -> None:
    """Whatever a components file holds, it loads or is refused with a ComponentsError; and
    a file that loads gives games whose records replay exactly."""
    data = base()
    section = choice.draw(st.sampled_from(COMPONENT_SECTIONS))
    path = choice.draw(st.sampled_from(_paths(data[section], (section,))))
    data = _mutate(data, path, value, delete)
    try:
        text = to_toml(data)
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, TypeError, ValueError):
        return  # the test's writer cannot express it: nothing to learn
    try:
        _load_text(text)
    except ComponentsError as exc:
        assert str(exc)
        return
    try:
        _play_and_replay(_ref_components(text), seed=choice.draw(st.integers(0, 3)))
    except ArabesqueError as exc:
        # Loadable data the game itself refuses (too few starting cards for 3 players...)
        # says so with the engine's own error; anything else fails the test.
        assert str(exc)


@FUZZ
@given(text=st.text(max_size=300))
def test_fuzz_components_text_loads_or_raises_components_error(text: str) -> None:
    try:
        comp = _load_text(text)
    except ComponentsError as exc:
        assert str(exc)
    else:
        assert comp.num_cards <= MAX_CARDS


def test_the_default_files_load_within_the_limits() -> None:
    assert DEFAULT_FILE.stat().st_size < MAX_FILE_BYTES
    assert load_components().num_cards <= MAX_CARDS
    assert load_tiles().num_tiles == 60


# -- 7. Djinn arrangements --------------------------------------------------------------------


def _djinn_record(players: int = 2, seed: int = 5) -> dict[str, Any]:
    """A short Djinn game's record as JSON (a few random moves)."""
    params = DJ.make_params(num_players=players)
    state = DJ.new_game(params, seed=seed)
    rng = random.Random(seed)
    for _ in range(12):
        if state.is_over:
            break
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    data: dict[str, Any] = state.record().to_json()
    return data


@pytest.mark.parametrize("bad", [0, {}, 1.5, None, ["academy"], True])
def test_a_djinn_layout_holding_a_non_name_is_refused_as_bad_input(bad: Any) -> None:
    """A layout entry that is not a location name was a TypeError from sorted() in
    ``new_game``, ``GameRecord.replay`` and ``arabesque verify`` (the server answered 500)."""
    data = _djinn_record()
    data["setup"]["arrangement"]["layout"][3] = bad
    params = DJ.make_params(num_players=2)
    with pytest.raises(ParamsError, match="layout"):
        DJ.new_game(params, seed=5, arrangement=data["setup"]["arrangement"])
    with pytest.raises(RecordError, match="setup: bad Djinn arrangement: layout"):
        GameRecord.from_json(data).replay()
    result = verify.verify_record(GameRecord.from_json(data))
    assert result.failure is not None and "does not set up" in result.failure


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda a: a["djinn"].__setitem__("r1", ["boss", {}]), "djinn.r1"),
        (lambda a: a["djinn"].__setitem__("r1", "boss"), "djinn.r1"),
        (lambda a: a["removed_passages"].__setitem__(0, {}), "removed_passages"),
        (lambda a: a["removed_passages"].__setitem__(0, ["tavern"]), "removed_passages"),
        (lambda a: a["piles"][0].pop(), "the Mage piles"),
        (lambda a: a["chests"].pop(), "chests"),
        (lambda a: a["equipment"][1].pop(), "the equipment stacks"),
        (lambda a: a["trophies"][0].pop(), "trophy row"),
        (lambda a: a["scoring"].pop(), "scoring cards"),
        (lambda a: a["scoring_deck"].pop(), "scoring_deck"),
        (lambda a: a.__setitem__("first", 1.0), "first"),
        (lambda a: a.__setitem__("draft", []), "draft"),
        (lambda a: a["draft"].__setitem__("negative", [1.5]), "draft.negative"),
    ],
)
def test_every_djinn_arrangement_field_is_checked(
    change: Callable[[dict[str, Any]], Any], words: str
) -> None:
    """Types, lengths and completeness of each field: a wrong one is a ParamsError naming it
    (a missing Mage card, chest, equipment card, trophy or scoring card was accepted)."""
    params = DJ.make_params(num_players=2)
    arrangement: dict[str, Any] = DJ.new_game(params, seed=5).arrangement()
    change(arrangement)
    with pytest.raises(ParamsError, match=words):
        DJ.new_game(params, seed=5, arrangement=arrangement)


_DJINN_BASES: dict[int, dict[str, Any]] = {}


@FUZZ
@given(
    players=st.sampled_from([1, 2, 4]),
    choice=st.data(),
    value=JSON_VALUES | st.sampled_from([0, 1.5, {}, [], "boss", "source", "academy", -1, 99]),
    delete=st.booleans(),
)
def test_fuzz_djinn_arrangements_build_a_game_or_raise_params_error(
    players: int, choice: st.DataObject, value: Any, delete: bool
) -> None:
    """Any JSON value anywhere in a Djinn arrangement (a field, or a part of one): the game
    is built and plays, or the arrangement is refused with a ParamsError, nothing else."""
    if players not in _DJINN_BASES:
        _DJINN_BASES[players] = DJ.new_game(
            DJ.make_params(num_players=players), seed=7
        ).arrangement()
    data = copy.deepcopy(_DJINN_BASES[players])
    field = choice.draw(st.sampled_from(sorted(data)))
    path = choice.draw(st.sampled_from(_paths(data[field], (field,))))
    data = _mutate(data, path, value, delete)
    params = DJ.make_params(num_players=players)
    try:
        state = DJ.new_game(params, seed=7, arrangement=data)
    except ParamsError as exc:
        assert str(exc).startswith("bad Djinn arrangement: ")
        return
    rng = random.Random(0)
    for _ in range(30):  # an arrangement that is accepted is one the rules can play
        if state.is_over:
            break
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    # ... and that replays through a record.
    assert GameRecord.from_json(state.record().to_json()).replay().fingerprint() == (
        state.fingerprint()
    )


def test_djinn_arrangements_are_read_by_one_function() -> None:
    """The checks above go through ``read_arrangement``: a dealt arrangement comes back
    unchanged (so the checks refuse nothing the deal makes)."""
    for players in (1, 2, 3, 4):
        params = DJ.make_params(num_players=players)
        dealt = DJ.new_game(params, seed=players).arrangement()
        comp = djinn_dealing.load_components(None)
        assert djinn_dealing.read_arrangement(comp, params, dealt) == dealt
