"""Bounds on untrusted input: files read only up to a size, data nested only so deep.

Records, components files and action texts may come from strangers (a server takes them), so
each reader checks the size of its input before parsing it and the nesting right after, and
quotes bad values in its error messages in short form only. Callers turn a refusal into their
own error class (``RecordError``, ``ComponentsError``) with a message naming the limit.
"""

from __future__ import annotations

import reprlib
from pathlib import Path

#: How many characters of a bad value an error message quotes.
QUOTE_WIDTH = 80

_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = 60
_REPR.maxother = 60
_REPR.maxlong = 40
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 6


def read_at_most(path: str | Path, max_bytes: int) -> bytes | None:
    """The bytes of ``path``, or None when it holds more than ``max_bytes``.

    At most ``max_bytes + 1`` bytes are read, so a device or pipe that never ends
    (``/dev/zero``) costs no more than a file at the limit. ``OSError`` passes through.
    """
    with open(path, "rb") as file:
        data = file.read(max_bytes + 1)
    return None if len(data) > max_bytes else data


def deeper_than(value: object, limit: int) -> bool:
    """Whether lists, tuples and dicts in ``value`` nest more than ``limit`` levels deep
    (a scalar is depth 0, ``[]`` depth 1, ``[[1]]`` depth 2).

    The walk uses an explicit stack: a recursive one would overflow on the very input it is
    meant to refuse. It stops at the first container past the limit, so a cyclic structure
    is refused too instead of looping.
    """
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: list[object] = list(item.values())
        elif isinstance(item, (list, tuple)):
            children = list(item)
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def clip(text: str, width: int = QUOTE_WIDTH) -> str:
    """``text`` cut to ``width`` characters, marked with an ellipsis when cut."""
    return text if len(text) <= width else text[: width - 1] + "…"


def quote(value: object, width: int = QUOTE_WIDTH) -> str:
    """A short ``repr`` of ``value`` for an error message: bounded in depth and length,
    whatever the value (``reprlib``), and never raising."""
    try:
        text = _REPR.repr(value)
    except (ValueError, RecursionError):
        # repr of an int beyond Python's digit limit raises; name the type instead.
        text = f"<{type(value).__name__}>"
    return clip(text, width)
