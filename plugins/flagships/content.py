"""The Flagship board as data (`content/flagships.json`): the six Upgrade slots left to
right, each with the planet types its Upgrade and its Armor are built at, and the limits
on ships built at the Flagship. Facts and their sources are in the file's `note`."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import msgspec

from core.content import load_json, require

DEFAULT_FILE = Path(__file__).parent / "content" / "flagships.json"

PlanetType = Literal["material", "fuel", "weapon", "relic", "psionic", "any"]


class Upgrade(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    id: str
    name: str
    upgrade_planet: PlanetType   # where the Flagship must be to build the Upgrade
    armor_planet: PlanetType     # ... and to build its Armor
    aid: str                     # the aid card side that describes it


class FlagshipContent(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    note: str
    upgrades: tuple[Upgrade, ...]  # the board's slots, left to right
    ship_limit: int
    ship_limit_with_crane: int
    aid_cards: int

    def slot_of(self, upgrade: str) -> int:
        """The slot index of an Upgrade kind (its position on the board)."""
        for i, u in enumerate(self.upgrades):
            if u.id == upgrade:
                return i
        raise KeyError(upgrade)


def load(path: Path = DEFAULT_FILE) -> FlagshipContent:
    found = load_json(path, FlagshipContent)
    ids = [u.id for u in found.upgrades]
    require(len(ids) == 6 and len(set(ids)) == 6, f"{path.name}: the board has 6 distinct Upgrade slots")  # BR-272
    require(0 < found.ship_limit < found.ship_limit_with_crane, f"{path.name}: Ship Crane raises the ship limit")
    return found


@lru_cache(maxsize=2)
def default_content() -> FlagshipContent:
    return load()
