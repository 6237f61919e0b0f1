"""A game's TOML data file (its components), read safely and known by content.

A game's params may name its data: None for the built-in file, a file path, or
``"sha256:<hex>"`` for a text registered by content (what a record embeds; core/gamedata.py).
``TomlDataFile`` holds the plumbing every such game shares: a bounded read of the file, its
registration by content, the bounded cache of texts that came from records, and the TOML
parse that refuses absurd nesting. The game supplies the default file and ``parse``, which
validates the parsed TOML and builds its components. Every refusal is a ``ComponentsError``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Generic, TypeVar

from arabesque.core import gamedata
from arabesque.core.errors import ComponentsError
from arabesque.core.limits import quote, read_at_most

T = TypeVar("T")

#: Parsed embedded data kept per game: as many as gamedata keeps texts, plus a few.
EMBEDDED_CACHE = gamedata.MAX_EMBEDDED + 8


@dataclass(frozen=True)
class Messages:
    """The wording of the loader's refusals, as ``str.format`` templates; a game may keep a
    shorter form. Fields: ``value`` (the quoted params value), ``file``, ``source`` (the
    name messages give the data), ``short`` (the digest's first 12 digits), ``limit``."""

    bad_ref: str = (
        "components {value} is not a content reference: expected 'sha256:' and 64 lower-case "
        "hex digits, or a file path, or null for the built-in set"
    )
    too_large: str = (
        "components file {file} is larger than {limit} bytes; components files hold at most "
        "{limit} bytes"
    )
    not_loaded: str = (
        "components sha256:{short}... are not loaded in this process; a record carries them "
        "in setup.data and registers them when it is replayed (GameRecord.replay); otherwise "
        "name a components file"
    )
    too_deep: str = (
        "{source}: tables and arrays nest more than {limit} levels deep; components files "
        "nest at most {limit}"
    )


def field(entry: Mapping[str, Any], key: str, kind: type, where: str, default: Any = ...) -> Any:
    """``entry[key]``, checked to be a ``kind`` (an int is never a bool); ``default`` when
    it is missing, or a refusal when no default is given."""
    if key not in entry:
        if default is ...:
            raise ComponentsError(f"{where}: missing {key!r}")
        return default
    value = entry[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ComponentsError(f"{where}: {key!r} must be an integer, got {quote(value)}")
    if not isinstance(value, kind):
        raise ComponentsError(f"{where}: {key!r} must be a {kind.__name__}, got {quote(value)}")
    return value


class TomlDataFile(Generic[T]):
    """One game's data loader: ``load(source)`` gives the parsed data (cached)."""

    def __init__(
        self,
        default_file: Path,
        parse: Callable[[Mapping[str, Any], str, str], T],
        *,
        max_bytes: int,
        max_nesting: int,
        messages: Messages = Messages(),
    ) -> None:
        self.default_file = default_file
        self.parse = parse
        self.max_bytes = max_bytes
        self.max_nesting = max_nesting
        self.messages = messages
        # A local file is read once per process (the cache is unbounded: records cannot
        # name files); data registered by content come from strangers, so that cache is
        # bounded.
        self.load_file = cache(self._load_file)
        self.load_embedded = lru_cache(maxsize=EMBEDDED_CACHE)(self._load_embedded)

    def load(self, source: str | None) -> T:
        """The data named by ``source``: None for the built-in file, a file path, or
        ``"sha256:<hex>"`` for data registered by content."""
        if source is None:
            return self.load_file(None)
        if gamedata.is_ref(source):
            digest = gamedata.parse_ref(source)
            if digest is None:
                raise ComponentsError(self.messages.bad_ref.format(value=quote(source)))
            return self.load_embedded(digest)
        return self.load_file(source)

    def parse_text(self, text: str, source: str, sha256: str) -> T:
        """Parse and validate TOML text (``source`` names it in messages)."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ComponentsError(f"{source} is not valid TOML: {exc}") from exc
        except RecursionError:
            # tomllib parses nested arrays and inline tables recursively: thousands of levels
            # exhaust the stack before any check on the parsed data could run.
            raise ComponentsError(
                self.messages.too_deep.format(source=source, limit=self.max_nesting)
            ) from None
        return self.parse(data, source, sha256)

    def _load_file(self, path: str | None) -> T:
        file = self.default_file if path is None else Path(path)
        try:
            raw = read_at_most(file, self.max_bytes)
        except OSError as exc:
            raise ComponentsError(f"cannot read components file {file}: {exc.strerror}") from exc
        if raw is None:
            raise ComponentsError(self.messages.too_large.format(file=file, limit=self.max_bytes))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ComponentsError(f"{file} is not valid TOML: {exc}") from exc
        # Kept by content, so a record of a game played with this file can embed it.
        digest = gamedata.register_local(text) if path is not None else gamedata.digest_of(text)
        return self.parse_text(text, "built-in" if path is None else str(path), digest)

    def _load_embedded(self, digest: str) -> T:
        text = gamedata.lookup(digest)
        if text is None:
            raise ComponentsError(self.messages.not_loaded.format(short=digest[:12]))
        return self.parse_text(text, f"embedded components sha256:{digest[:12]}...", digest)
