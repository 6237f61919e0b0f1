"""Game data by content: the texts of data files a game was built from, keyed by sha256.

A game whose params may name an external data file (magic-lamp's ``components``) registers
the file's text here when it reads it. A record then embeds that text (``setup.data``) and
names it in its params by content, ``"sha256:<hex>"``, instead of by path; the replayer
registers the embedded text before it builds the game. So a record replays on a machine
without the file, and a record never makes the replayer open a file (docs/records.md).

Texts read from local files (named by the user on the command line or in code) stay for the
life of the process. Texts embedded in records may come from strangers, so only the most
recently used ``MAX_EMBEDDED`` of them are kept: memory stays bounded however many records a
server replays.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict

#: The prefix of a params value that names game data by content.
REF_PREFIX = "sha256:"
#: The largest game data file (or embedded text) accepted, in bytes of UTF-8. The built-in
#: components file is about 16 KB; this leaves room for any real box and refuses absurd files.
MAX_DATA_BYTES = 1 << 20
#: How many texts embedded in records are kept (least recently used dropped first).
MAX_EMBEDDED = 64

_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")

_lock = threading.Lock()
_local: dict[str, str] = {}
_embedded: OrderedDict[str, str] = OrderedDict()


def digest_of(text: str) -> str:
    """The sha256 (hex) of ``text`` in UTF-8: the digest of the file it was read from.

    Raises ``UnicodeEncodeError`` for text that no file could hold (a lone surrogate)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def make_ref(digest: str) -> str:
    """The params value naming the data of ``digest``: ``"sha256:<hex>"``."""
    return REF_PREFIX + digest


def parse_ref(value: object) -> str | None:
    """The digest named by a ``"sha256:<64 hex digits>"`` value, else None (a path, null,
    or anything else)."""
    if not isinstance(value, str) or not value.startswith(REF_PREFIX):
        return None
    digest = value[len(REF_PREFIX) :]
    return digest if _HEX_DIGEST.fullmatch(digest) else None


def is_ref(value: object) -> bool:
    """Whether ``value`` is meant as a content reference (starts with ``sha256:``), well
    formed or not; a path never starts so."""
    return isinstance(value, str) and value.startswith(REF_PREFIX)


def register_local(text: str) -> str:
    """Keep the text of a local data file for the life of the process; returns its digest."""
    digest = digest_of(text)
    with _lock:
        _local[digest] = text
    return digest


def register_embedded(text: str) -> str:
    """Keep a text embedded in a record (bounded, least recently used dropped first);
    returns its digest. The caller has checked its size (``MAX_DATA_BYTES``)."""
    digest = digest_of(text)
    with _lock:
        if digest not in _local:
            _embedded[digest] = text
            _embedded.move_to_end(digest)
            while len(_embedded) > MAX_EMBEDDED:
                _embedded.popitem(last=False)
    return digest


def lookup(digest: str) -> str | None:
    """The registered text of ``digest``, or None."""
    with _lock:
        text = _local.get(digest)
        if text is None:
            text = _embedded.get(digest)
            if text is not None:
                _embedded.move_to_end(digest)
        return text
