"""The schema's SDL, as exported to `schema.graphql`."""
from __future__ import annotations

from core.plugins import default_registry
from schema.build import build_schema


def sdl() -> str:
    return str(build_schema(default_registry())) + "\n"
