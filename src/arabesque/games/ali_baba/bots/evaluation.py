"""What sets and effects are worth to the Ali Baba bot, in numbers.

The set-point formulas (a tile taken from the cave or stolen, gained or lost, given how many
of its kind a player holds, how many may still come and the share the player expects), the
rough values of effects whose place is not known yet, and the agent's ``Weights``. Pure
numbers: applying them to a view is the job of ``position`` and ``search``.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Rough effect values of a tile whose place (and so whose flips) is not known yet.
BLUE_GUESS = 2.0
GREEN_GUESS = 2.0
YELLOW_GUESS = 3.0
WHITE_GUESS = 1.5
#: Prior weight of "rivals show what helps the thief least" in the yellow estimate.
SHOW_PRIOR = 3.0


def set_gain(c: float, a: float, q: float, urgency: float = 1.0) -> float:
    """Set points expected from taking one tile of a kind from the cave, holding ``c`` of the
    kind, with ``a`` tiles of it (this one included) still able to come, of which the player
    expects a share ``q``.

    The expected set points of ``c + X`` tiles, X ~ Binomial(a, q), are
    ((c + aq)^2 + aq(1 - q) + c + aq) / 2. Taking the tile gains ``c + 1 + q(a - 1)`` over
    seeing it go to someone else (its marginal set points, 1/3/6/10/15/21 -> 1, 2, 3 ...,
    plus what it adds to the others expected), and only ``(1 - q)(c + aq + 1 - q)`` over
    leaving it for later, when it might come back; ``urgency`` is the chance it would not.
    """
    a = max(a, 1.0)
    later = (1.0 - q) * (c + a * q + 1.0 - q)
    now = c + 1.0 + q * (a - 1.0)
    return urgency * now + (1.0 - urgency) * later


def set_loss(c: float, a: float, q: float) -> float:
    """What a player holding ``c`` of a kind expects to lose when someone else takes one of
    the ``a`` tiles of the kind that could still come to it."""
    a = max(a, 1.0)
    return q * (c + a * q + 1.0 - q)


def steal_gain(c: float, a: float, q: float) -> float:
    """Set points of one more tile of a kind that does not come from the cave (a steal)."""
    return c + 1.0 + q * a


def steal_loss(c: float, a: float, q: float) -> float:
    """Set points a player holding ``c >= 1`` of a kind loses when one is stolen."""
    return c + q * a if c >= 1 else 0.0


@dataclass(frozen=True)
class Weights:
    """The agent's options (see ``HeuristicAgent``)."""

    denial: float
    leader: float
    tempo: float
    later: float
    hope: float
    focus: float
    urgency: float
    steal: float
