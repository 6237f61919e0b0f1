"""The Magic Lamp observer: what a seat may know, as a JSON view, a tensor and text."""

from __future__ import annotations

from typing import Any

from arabesque.core.observer import FloatArray, ObservationLayout, Observer
from arabesque.games.magic_lamp.state import MagicLampState


class MagicLampObserver(Observer[MagicLampState]):
    def declare(self, layout: ObservationLayout) -> None:
        layout.add("placeholder", 1, "to be designed")

    def view(self, state: MagicLampState, seat: int | None) -> dict[str, Any]:
        from arabesque.games.magic_lamp.view import build_view

        return build_view(state, seat)

    def fill(self, state: MagicLampState, seat: int | None, out: FloatArray) -> None:
        raise NotImplementedError

    def text(self, state: MagicLampState, seat: int | None) -> str:
        raise NotImplementedError
