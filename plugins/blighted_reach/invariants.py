"""What must hold on a campaign table after Act I setup and each later step: the Empire's
ships, the Blight and the Free buildings within the box's numbers and each counted once,
the players' pieces as in the base game. Returns the problems found (empty when sound)."""
from __future__ import annotations

from collections import Counter

from plugins.arcs.content import Box
from plugins.arcs.content import default_box as arcs_box
from plugins.arcs.invariants import problems as arcs_problems
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.setup import COUNCIL, EVENT
from plugins.blighted_reach.state import FREE, BlightedReachState


def problems(box: Box, cbox: CampaignBox, state: BlightedReachState) -> list[str]:
    out: list[str] = []
    counts = cbox.box.counts
    pieces = {
        "Imperial ships": (state.imperial, state.imperial_supply, counts["imperial_ships"]),
        "Blight": (state.blight, state.blight_supply, counts["blight"]),
    }
    for name, (where, supply, total) in pieces.items():
        if supply < 0 or any(p.fresh < 0 or p.damaged < 0 for p in where.values()):
            out.append(f"negative {name}")
        if supply + sum(p.total for p in where.values()) != total:
            out.append(f"{name} on the map and in supply are not {total}")
        if set(where) - set(state.systems):
            out.append(f"{name} in a system not on the map")
    free = Counter(b.kind for s in state.systems.values() for b in s.buildings if b.owner == FREE)
    if free["city"] + state.free_city_supply != counts["free_cities"] or state.free_city_supply < 0:
        out.append(f"Free cities are not {counts['free_cities']}")
    if free["starport"] + state.free_starport_supply != counts["free_starports"] or state.free_starport_supply < 0:
        out.append(f"Free starports are not {counts['free_starports']}")
    for system, s in state.systems.items():
        planet = box.systems[system]
        if len(s.buildings) > (planet.slots if planet is not None else 0):
            out.append(f"{system} holds more buildings than slots")
    out += arcs_problems(box, state, court=False)
    out += _cards(box, cbox, state)
    return out


def _cards(box: Box, cbox: CampaignBox, state: BlightedReachState) -> list[str]:
    """Every Court, Lore and Fate Set card in play is in one place; the campaign Court, the
    Council and the base Lore are always somewhere (Fate Set cards come and go)."""
    out = []
    places = [*state.court_deck, *(c for c in state.court_row if c), *state.court_discard, *state.resolving,
              *state.lore_deck, *state.scrapped, *(c for slot in state.booklet for c in slot),
              *(c for p in state.players for c in (*p.guild, *p.lore)), *(u.card for u in state.unions),
              *(c for area in state.play_area for c in area)]
    seen = Counter(places)
    twice = sorted(c for c, k in seen.items() if k > 1)
    if twice:
        out.append(f"cards in two places: {', '.join(twice)}")
    always = [*cbox.court, *arcs_box().lore]  # the base Lore; the Fate Sets' come and go
    if state.council == COUNCIL:
        always.append(COUNCIL)
    missing = sorted(c for c in always if c not in seen)
    if missing:
        out.append(f"cards missing from play: {', '.join(missing)}")
    if EVENT in places:
        out.append("an Event card is among the Court cards")
    return out
