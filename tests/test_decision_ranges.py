"""The compact JSON form of a numeric range of a decision's options (core/decision.py,
docs/protocol.md "Decisions"): what it says written out is exactly the decision, its round
trip through JSON, the Magic Lamp race and die settings sent with it, and views that stay
their reader's own now that the games copy their JSON from shared tables."""

from __future__ import annotations

import json
import random
from enum import IntEnum
from typing import Any

import pytest

from arabesque.core.decision import Decision, OptionRange, expand_options
from arabesque.core.registry import get_game
from arabesque.games.magic_lamp import actions as A


class Kind(IntEnum):
    PICK = 0


#: Options 3, then 10-14 worded from one template, then 20 (a side action).
RUN = OptionRange(start=10, stop=15, label="wait {n} s", text="wait {n}", n_start=5, n_step=5)
OPTIONS = (3, 10, 11, 12, 13, 14, 20)
LABELS = ("stop", "wait 5 s", "wait 10 s", "wait 15 s", "wait 20 s", "wait 25 s", "claim")
TEXTS = ["stop", "wait 5", "wait 10", "wait 15", "wait 20", "wait 25", "claim"]


def decision(**changes: Any) -> Decision:
    fields: dict[str, Any] = {
        "seat": 1,
        "kind": Kind.PICK,
        "options": OPTIONS,
        "prompt": "Pick",
        "labels": LABELS,
        "default": 3,
        "optional": (20,),
        "ranges": (RUN,),
    }
    fields.update(changes)
    return Decision(**fields)


def test_a_range_is_one_entry_and_writes_out_to_the_full_listing() -> None:
    ranged = decision()
    plain = decision(ranges=())
    assert ranged.listed == (3, 20)
    shown = ranged.to_json([TEXTS[0], TEXTS[-1]])
    assert shown["options"] == [
        {"action": 3, "label": "stop", "text": "stop"},
        {
            "range": {
                "start": 10,
                "stop": 15,
                "step": 1,
                "n_start": 5,
                "n_step": 5,
                "label": "wait {n} s",
                "text": "wait {n}",
            }
        },
        {"action": 20, "label": "claim", "text": "claim", "optional": True},
    ]
    # Through JSON and written out: byte for byte what the listing without ranges says.
    back = json.loads(json.dumps(shown))
    back["options"] = expand_options(back["options"])
    assert json.dumps(back) == json.dumps(plain.to_json(TEXTS))
    # Everything but the options is the same in both forms.
    assert {k: v for k, v in shown.items() if k != "options"} == {
        k: v for k, v in plain.to_json(TEXTS).items() if k != "options"
    }


def test_a_range_with_a_step_and_ranges_side_by_side() -> None:
    evens = OptionRange(start=0, stop=6, step=2, label="even {n}", text="e{n}")
    odds = OptionRange(start=7, stop=10, label="odd {n}", text="o{n}", n_start=7)
    options = (0, 2, 4, 7, 8, 9)
    labels = ("even 0", "even 1", "even 2", "odd 7", "odd 8", "odd 9")
    d = Decision(0, Kind.PICK, options, "p", labels, 0, ranges=(evens, odds))
    assert d.listed == ()
    shown = d.to_json([])["options"]
    assert len(shown) == 2
    assert expand_options(shown) == [
        {"action": a, "label": label, "text": label[0] + label.split()[1]}
        for a, label in zip(options, labels, strict=True)
    ]
    assert [evens.label_of(a) for a in evens.actions] == ["even 0", "even 1", "even 2"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"ranges": (OptionRange(11, 16, "wait {n} s", "wait {n}"),)}, "not a run"),
        ({"ranges": (OptionRange(4, 6, "wait {n} s", "wait {n}"),)}, "does not start"),
        ({"ranges": (RUN, RUN)}, "does not start"),
        ({"labels": ("stop", "wait 5 s", "wait 9 s", *LABELS[3:])}, "labels differ"),
        ({"optional": (12,)}, "optional"),
    ],
)
def test_a_range_that_does_not_say_what_the_options_say_is_refused(
    changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        decision(**changes)


def test_a_range_needs_a_template_and_an_order() -> None:
    with pytest.raises(ValueError, match="hold"):
        OptionRange(0, 3, "wait", "wait {n}")
    with pytest.raises(ValueError, match="start < stop"):
        OptionRange(3, 3, "wait {n}", "wait {n}")
    with pytest.raises(ValueError, match="step >= 1"):
        OptionRange(0, 3, "wait {n}", "wait {n}", step=0)


def test_texts_must_match_the_listed_options() -> None:
    with pytest.raises(ValueError, match="2 options listed one by one"):
        decision().to_json(TEXTS)


# -- Magic Lamp ----------------------------------------------------------------------------


def lamp_state_in(phase: str, players: int = 4, seed: int = 3) -> Any:
    spec = get_game("magic-lamp")
    state = spec.new_game(spec.make_params(num_players=players), seed=seed)
    rng = random.Random(seed)
    while state.view(None, include_log=False)["phase"] != phase:
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_the_lamp_race_is_sent_as_one_range_and_do_not_rub() -> None:
    state = lamp_state_in("race")
    seat = min(state.to_act())
    shown = state.view(seat, include_log=False)["decision"]
    assert shown["kind"] == "race" and shown["reaction"] is not None
    assert len(shown["options"]) == 2
    assert shown["options"][1] == {"action": A.NO_RUB, "label": "do not rub", "text": "no-rub"}
    options = expand_options(json.loads(json.dumps(shown))["options"])
    assert len(options) == 301
    assert options[0] == {"action": A.RUB_BASE, "label": "rub after 0 ms", "text": "rub 0ms"}
    assert options[299]["label"] == f"rub after {A.MAX_RUB_MS} ms"
    # Each written-out option is the engine's: its text parses back to its action.
    assert [state.parse_action(o["text"]) for o in options] == list(state.legal_actions(seat))
    d = state.decision(seat)
    assert [o["label"] for o in options] == list(d.labels)
    # A JSON view is far smaller than one entry per option.
    assert len(json.dumps(shown)) < 600


@pytest.mark.parametrize(("players", "ranges"), [(4, 3), (2, 3)])
def test_setting_a_die_is_a_range_of_faces_per_chest(players: int, ranges: int) -> None:
    state = lamp_state_in("setting", players)
    seat = min(state.to_act())
    shown = state.view(seat, include_log=False)["decision"]
    assert [o["range"]["label"] for o in shown["options"]][:ranges] == [
        "bronze chest, face {n}",
        "silver chest, face {n}",
        "gold chest, face {n}",
    ][:ranges]
    options = expand_options(shown["options"])
    assert [o["text"] for o in options[:6]] == [f"set bronze {f}" for f in range(1, 7)]
    assert [o["action"] for o in options] == list(state.legal_actions(seat))
    if players == 2:
        # The second die goes on another chest: two ranges left.
        state.apply(seat, options[0]["action"])
        second = state.view(seat, include_log=False)["decision"]
        assert [o["range"]["label"] for o in second["options"]] == [
            "silver chest, face {n}",
            "gold chest, face {n}",
        ]


# -- views stay their reader's -------------------------------------------------------------


def _scramble(value: Any) -> None:
    """Change every dict and list inside ``value`` in place (a careless reader)."""
    if isinstance(value, dict):
        for v in list(value.values()):
            _scramble(v)
        value["scrambled"] = True
    elif isinstance(value, list):
        for v in value:
            _scramble(v)
        value.append("scrambled")


@pytest.mark.parametrize(("game", "players"), [("djinn", 3), ("djinn", 1), ("magic-lamp", 4)])
def test_a_view_changed_by_its_reader_changes_no_other_view(game: str, players: int) -> None:
    """The views copy their JSON from tables built once per components: a reader changing
    everything in one view must not reach the next view (nor another game's)."""
    spec = get_game(game)
    params = spec.make_params(num_players=players)
    rng = random.Random(7)
    state = spec.new_game(params, seed=7)
    other = spec.new_game(params, seed=8)
    for step in range(60):
        if state.is_over:
            break
        seats: list[int | None] = [None, *range(players)]
        before = [json.dumps(state.view(s, include_log=False)) for s in seats]
        others = json.dumps(other.view(0, include_log=False))
        for s in seats:
            _scramble(state.view(s, include_log=False))
        assert [json.dumps(state.view(s, include_log=False)) for s in seats] == before, step
        assert json.dumps(other.view(0, include_log=False)) == others
        seat = rng.choice(sorted(state.to_act()))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
