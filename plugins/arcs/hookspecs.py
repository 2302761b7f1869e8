"""Arcs' own extension points for its modules (`GameSpec.hookspecs`).

Setup protocol: the game lays out the map and the Court, then calls `arcs_setup_steps`
(modules push steps, e.g. the Leaders & Lore draft; they run before the game's own
starting-piece steps), then for each seat asks `arcs_place_starting_pieces` and places
the standard pieces itself unless a module answered True.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from core.hookspecs import hookspec

if TYPE_CHECKING:
    from core.flow import Ctx


@hookspec
def arcs_setup_steps(ctx: Ctx) -> None:
    """After the map and the Court are set up, before starting pieces are placed: push the
    module's setup steps (they run before the game's placement steps)."""


@hookspec(firstresult=True)
def arcs_place_starting_pieces(ctx: Ctx, seat: int) -> bool:
    """Place `seat`'s starting pieces and resources; return True when this module did, so
    the game does not place the standard ones. First True wins."""
