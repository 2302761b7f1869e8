"""The Flagship board's content (issue 19, first slice): the six Upgrade kinds, their build
planets and the aid cards that describe them, checked against the card library."""
from __future__ import annotations

import pytest

from core.errors import ContentError
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.flagships.content import DEFAULT_FILE, default_content, load
from tests.content_files import copy_folder, edit_json

CONTENT = default_content()

# Card library (blightedreach.yml @ d7595fe3): the Flagship Upgrades aid card, both sides,
# and the Upgrades each side describes.
LIBRARY_SIDES = {
    "AID10A": {"Slipstream Drive", "Tractor Beam", "Control Array"},
    "AID10B": {"Defense Array", "Ship Crane", "Hull"},
}


def test_BR_010_272_six_upgrade_slots_on_two_aid_sides_four_aid_cards():
    """BR-272: 6 Upgrade slots; BR-010: 4 Flagship Upgrade aid cards (the campaign box's
    count), the library's two sides naming the six Upgrades, three each."""
    assert len(CONTENT.upgrades) == 6
    sides = {}
    for u in CONTENT.upgrades:
        sides.setdefault(u.aid, set()).add(u.name)
    assert sides == LIBRARY_SIDES
    cbox = campaign_box()
    assert CONTENT.aid_cards == cbox.box.counts["flagship_upgrade_aids"] == 4
    assert {c.id for c in cbox.empire.cards if c.name == "Flagship Upgrades"} == set(LIBRARY_SIDES)


def test_BR_298_304_build_planets_upgrade_then_armor():
    """BR-298..BR-304: each Upgrade's planet type, then its Armor's."""
    planets = {u.name: (u.upgrade_planet, u.armor_planet) for u in CONTENT.upgrades}
    assert planets == {
        "Ship Crane": ("material", "fuel"),
        "Defense Array": ("weapon", "psionic"),
        "Slipstream Drive": ("fuel", "relic"),
        "Control Array": ("psionic", "material"),
        "Tractor Beam": ("relic", "weapon"),
        "Hull": ("any", "any"),
    }


def test_slot_order_puts_hull_rightmost_and_ship_limits():
    """BR-290's example: the first board hit on a defending Flagship lands on the Hull
    Armor, the rightmost of the top row; BR-269/BR-298: 1 ship per turn, 2 with Ship Crane."""
    assert CONTENT.upgrades[-1].id == "hull"
    assert [CONTENT.slot_of(u.id) for u in CONTENT.upgrades] == list(range(6))
    assert (CONTENT.ship_limit, CONTENT.ship_limit_with_crane) == (1, 2)


def test_a_board_without_six_distinct_slots_is_refused(tmp_path):
    folder = copy_folder(DEFAULT_FILE.parent, tmp_path, "content")
    edit_json(folder, DEFAULT_FILE.name, lambda d: d["upgrades"].pop())
    with pytest.raises(ContentError, match="6 distinct"):
        load(folder / DEFAULT_FILE.name)
