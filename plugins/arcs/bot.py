"""What the search bot needs from Arcs: how well a seat stands (`score`) and a redeal of
what a seat cannot see (`sample_hidden`).

The score follows the win condition (digest section 10, ARCS-242): Power, plus the Power the
declared ambitions would give if the chapter ended now (`scoring.score_ambition`: places,
ties, the city bonus), plus a little for what wins places and battles later: the counts
of the undeclared ambitions, ships and buildings on the map, action cards in hand (each is
a turn), resources and Guild cards; Outrage costs (ARCS-190)."""
from __future__ import annotations

import random

from core.determinize import redeal, rename_pending, whole
from plugins.arcs.content import box_for
from plugins.arcs.plays import SIDE
from plugins.arcs.scoring import ambition_count, score_ambition
from plugins.arcs.state import ArcsState

DECLARED = 0.8   # Power an ambition would give now: it may still change hands before scoring
UNDECLARED = 0.3  # per counted item of an ambition nobody declared yet
SHIP = 0.35
DAMAGED_SHIP = 0.15
CITY = 1.2
STARPORT = 0.6
CARD = 0.6
RESOURCE = 0.3
GUILD = 0.6
OUTRAGE = 0.8


def score(state: ArcsState, seat: int) -> float:
    box = box_for(state)
    p = state.players[seat]
    value = float(p.power)
    for ambition in box.board.ambitions:
        if state.ambition_boxes.get(ambition):
            value += DECLARED * score_ambition(box, state, ambition).get(seat, 0)
        else:
            value += UNDECLARED * ambition_count(box, state, p, ambition)
    for system in state.systems.values():
        ships = system.ships_of(seat)
        value += SHIP * ships.fresh + DAMAGED_SHIP * ships.damaged
        for b in system.buildings:
            if b.owner == seat:
                value += (CITY if b.kind == "city" else STARPORT) * (0.5 if b.damaged else 1.0)
    value += CARD * len(state.hands[seat]) if seat < len(state.hands) else 0.0
    value += RESOURCE * sum(1 for r in p.resources if r) + GUILD * len(p.guild)
    value -= OUTRAGE * len(p.outrage)
    return value


def sample_hidden(state: ArcsState, seat: int, rng: random.Random) -> bool:
    """Redeal what `seat` may not see (`views.secrets`): the other hands, the face-down
    discard, the deck and this round's face-down cards are one pool of action cards; the
    Court deck another. A pending step naming a face-down card names the card dealt there."""
    others = [hand for i, hand in enumerate(state.hands) if i != seat]
    facedown = [i for i, c in enumerate(state.facedown) if SIDE not in c]  # a side: the campaign's cards
    renamed = redeal(rng, [*whole(*others, state.action_deck, state.action_discard), (state.facedown, facedown)])
    renamed.update(redeal(rng, whole(state.court_deck)))
    rename_pending(state, renamed)
    return True
