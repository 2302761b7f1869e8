"""Content files: JSON validated against msgspec schemas on load.

A typed decode is the schema check (unknown fields, wrong types and missing fields are
refused) and every failure becomes a `ContentError` naming the file.
"""
from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import msgspec

from core.errors import ContentError

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
