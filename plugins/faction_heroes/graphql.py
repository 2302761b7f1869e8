"""Typed GraphQL view of the Faction Heroes pools."""
from __future__ import annotations

import strawberry


@strawberry.type
class HeroPool:
    faction: str
    top: str | None
    count: int


@strawberry.type
class FactionHeroesState:
    module: str
    pools: list[HeroPool]


def from_view(m: dict) -> FactionHeroesState:
    return FactionHeroesState(module="faction-heroes",
                              pools=[HeroPool(faction=f, top=v["top"], count=v["count"]) for f, v in m["pools"].items()])
