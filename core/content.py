"""Content files: JSON validated against msgspec schemas on load; named content packs.

A typed decode is the schema check (unknown fields, wrong types and missing fields are
refused) and every failure becomes a `ContentError` naming the file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import msgspec

from core.errors import ContentError, PluginError, UnknownPack

T = TypeVar("T")


def load_json(path: Path, schema: type[T]) -> T:
    """Decode `path` as `schema`, or raise `ContentError` saying which file and where."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ContentError(f"cannot read content file {path}: {exc.strerror}") from None
    try:
        return msgspec.json.decode(raw, type=schema)
    except msgspec.ValidationError as exc:
        raise ContentError(f"{path.name}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ContentError(f"{path.name}: not valid JSON ({exc})") from None


def require(condition: bool, message: str) -> None:
    """Cross-file checks that a schema alone cannot express."""
    if not condition:
        raise ContentError(message)


# -- named content packs ----------------------------------------------------------------
PACK_OPTION = "pack"  # the table option that names a content pack
_PACK_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,63}\Z")


@dataclass(frozen=True)
class PackSetting:
    """One operator-configured pack (`CONCLAVE_CONTENT_PACKS`): for `game`, or for every game
    that takes packs when `game` is None."""

    name: str
    folder: Path
    game: str | None = None


def parse_pack_settings(text: str) -> tuple[PackSetting, ...]:
    """`name=/folder,game:name=/folder,...` as `PackSetting`s; a malformed entry raises
    `ValueError` naming it (an operator's mistake stops the start, before any table)."""
    out = []
    for raw in text.split(","):
        entry = raw.strip()
        if not entry:
            continue
        key, sep, folder = entry.partition("=")
        game, _, name = key.strip().rpartition(":")
        if not sep or not folder.strip() or not _PACK_NAME.match(name):
            raise ValueError(f"CONCLAVE_CONTENT_PACKS: {entry!r} is not name=/folder or game:name=/folder "
                             "(names: lower-case letters, digits, '.', '_', '-')")
        out.append(PackSetting(name=name, folder=Path(folder.strip()), game=game or None))
    return tuple(out)


class ContentPacks:
    """The content packs a table may name, per game: name -> folder. Plugins register theirs
    (`conclave_content_packs`), the operator adds more; a table never names a folder."""

    def __init__(self) -> None:
        self._folders: dict[str, dict[str, Path]] = {}

    def add(self, game: str, name: str, folder: Path | str) -> None:
        if not isinstance(name, str) or not _PACK_NAME.match(name):
            raise PluginError(f"content pack name {name!r} for {game} is not a plain name")
        packs = self._folders.setdefault(game, {})
        if name in packs:
            raise PluginError(f"content pack {name!r} of {game} is registered twice")
        packs[name] = Path(folder)

    def names(self, game: str) -> tuple[str, ...]:
        return tuple(sorted(self._folders.get(game, {})))

    def folder(self, game: str, name: object) -> Path:
        """The folder of a registered pack. Anything else - an unknown name, a path, a value
        that is not a string - gets one and the same answer, which says nothing about the
        server's files."""
        folder = self._folders.get(game, {}).get(name) if isinstance(name, str) else None
        if folder is None:
            raise UnknownPack(f"option 'pack' names no registered content pack of {game} "
                              f"(registered: {', '.join(self.names(game)) or 'none'})")
        return folder
