"""Typed GraphQL view of the Guildmasters module state."""
from __future__ import annotations

import strawberry


@strawberry.type
class GuildmastersState:
    module: str
    active: str | None
    discard: list[str]
    deck_count: int
    dealt: list[str] | None = strawberry.field(description="The two cards on offer: only their chooser sees them")
    dealt_count: int
    chooser: int | None


def from_view(m: dict) -> GuildmastersState:
    dealt = m["zones"]["dealt"]
    return GuildmastersState(module="guildmasters", active=m.get("active"), discard=m["zones"]["discard"],
                             deck_count=m["zones"]["deck"], dealt=dealt if isinstance(dealt, list) else None,
                             dealt_count=len(dealt) if isinstance(dealt, list) else dealt, chooser=m["chooser"])
