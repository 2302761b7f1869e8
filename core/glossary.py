"""Glossaries: the names and texts a frontend shows for the ids in a viewer's view.

A game contributes `conclave_glossary(state, viewer, view)`: entries only for ids this
viewer may know (it is built from the redacted view), so a client can show cards by name
and effect text without reading content files, and without learning anything hidden.

An entry is {"name", "text", "kind"}, and `"public": true` for a face printed on the board
that no viewer is ever kept from (a Region, a system): the take-back check (`core.undo`)
counts every other named id a viewer could not see as hidden from it.
"""
from __future__ import annotations

from typing import Any


def strings_in(data: Any) -> set[str]:
    """Every string value (and dict key) anywhere in plain data."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            found.update(k for k in item if isinstance(k, str))
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def glossary_for(rules, state, viewer: int | None, view: dict) -> dict:
    """Every game's and module's glossary entries for the ids `view` names, merged."""
    out: dict = {}
    for part in rules.hook.conclave_glossary(state=state, viewer=viewer, view=view):
        out.update(part or {})
    return out
