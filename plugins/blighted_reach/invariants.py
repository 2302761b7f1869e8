"""What must hold on a campaign table after Act I setup and each later step: the Empire's
ships, the Blight and the Free buildings within the box's numbers and each counted once,
the players' pieces as in the base game. Returns the problems found (empty when sound)."""
from __future__ import annotations

from collections import Counter

from plugins.arcs.content import Box
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.setup import COUNCIL, EVENT, action_deck
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
    out += _players(box, state)
    out += _cards(box, cbox, state)
    return out


def _players(box: Box, state: BlightedReachState) -> list[str]:
    """The base game's piece counts per seat, Trophies, Captives, Outrage and Favors included."""
    out = []
    per = box.board.pieces_per_player
    for seat, p in enumerate(state.players):
        ships = p.ships + sum(s.ships_of(seat).total for s in state.systems.values())
        mine = Counter(b.kind for s in state.systems.values() for b in s.buildings if b.owner == seat)
        taken = Counter(t.kind for q in state.players for t in q.trophies if t.owner == seat)
        agents = (p.agents + sum(a[seat] for a in state.court_agents.values()) + taken["agent"]
                  + sum(q.captives.count(seat) for q in state.players) + len(p.outrage) - len(p.outrage_placeholders)
                  + sum(f.count(seat) for f in state.favors))
        found = {"ships": ships + taken["ship"], "starports": p.starports + mine["starport"] + taken["starport"],
                 "cities": sum(p.cities_on_board) + mine["city"] + taken["city"], "agents": agents}
        out += [f"seat {seat} has {v} {k}, not {per[k]}" for k, v in found.items() if v != per[k]]
    for resource in box.board.resources:
        held = sum(p.resources.count(resource) for p in state.players)
        held += sum(w.tokens.count(resource) for w in state.placing)  # given, not yet placed
        held += sum(t.count(resource) for t in state.ambition_tokens.values())
        if held + state.supply.get(resource, 0) != box.board.supply_per_resource:
            out.append(f"{resource} tokens are not {box.board.supply_per_resource}")
    return out


def _cards(box: Box, cbox: CampaignBox, state: BlightedReachState) -> list[str]:
    out = []
    n = len(state.seats)
    actions = [*state.action_deck, *state.action_discard, *(c for h in state.hands for c in h)]
    if sorted(actions) != sorted(action_deck(box, cbox, n)):
        out.append("the action cards are not each in exactly one place")
    court = [*state.court_deck, *state.court_row, *state.lore_deck]
    expected = [*cbox.court, *box.lore, state.council]  # the Council named by its face-up side
    if sorted(court) != sorted(expected):
        out.append("the Court, Council and lore cards are not each in exactly one place")
    if state.council not in state.court_row[:1]:
        out.append("the Imperial Council is not the leftmost Court card")
    if EVENT in state.court_deck:
        out.append("an Event card is in the Court deck")
    return out
