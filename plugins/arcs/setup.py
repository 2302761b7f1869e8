"""Setting up a single-session game (digest section 3), from the box and the table's RNG.

What needs a player's decision (the 2-player mulligan, the Leaders & Lore draft) is left
to the flow; this builds everything up to the first of those.
"""
from __future__ import annotations

from core.rng import Rng
from plugins.arcs.content import Box, SetupCard
from plugins.arcs.state import ArcsState, Building, Marker, PlayerState, Ships, SystemState


def open_slots(box: Box, player: PlayerState) -> list[int]:
    """Indices of the resource slots no city covers (ARCS-211); a slot beyond the board's
    (Ancient Holdings, L13) is always open."""
    board = [i for i, slot in enumerate(box.board.resource_slots)
             if slot.covered_by_city_slot is None or not player.cities_on_board[slot.covered_by_city_slot - 1]]
    return board + list(range(len(box.board.resource_slots), len(player.resources)))


def empty_slots(box: Box, player: PlayerState) -> list[int]:
    """The open resource slots holding nothing, leftmost first."""
    return [i for i in open_slots(box, player) if player.resources[i] is None]


def take_resource(box: Box, state: ArcsState, seat: int, resource: str, slot: int) -> bool:
    """Setup only: one token from the supply into the slot the rules name (ARCS-057, a
    Leader's two, ARCS-264). Every later gain goes through `placing.gain`, the owner's choice."""
    player = state.players[seat]
    if state.supply.get(resource, 0) <= 0 or slot not in empty_slots(box, player):
        return False  # ARCS-207: the supply is finite
    player.resources[slot] = resource
    state.supply[resource] -= 1
    return True


# A game's rules sending pieces placed in a system elsewhere (the campaign's broken gates send
# them to the Twisted Passage): fn(state, system) -> where they go (`system` when nowhere else).
PLACE_AT: list = []


def placed_at(state: ArcsState, system: str) -> str:
    for rule in PLACE_AT:
        system = rule(state, system)
    return system


def place_ships(state: ArcsState, system: str, seat: int, count: int) -> int:
    """Place up to `count` fresh ships from the seat's supply (ARCS-276: as many as possible)."""
    system = placed_at(state, system)
    player = state.players[seat]
    n = min(count, player.ships)
    state.systems[system].ships[seat].fresh += n
    player.ships -= n
    return n


def place_building(state: ArcsState, system: str, seat: int, kind: str, damaged: bool = False) -> bool:
    """Place a city (the leftmost still on the board, ARCS-144/149) or a starport from the
    seat's supply; False when there is none left."""
    player = state.players[seat]
    if kind == "city":
        if True not in player.cities_on_board:
            return False
        player.cities_on_board[player.cities_on_board.index(True)] = False  # leftmost first (ARCS-144)
    else:
        if player.starports <= 0:
            return False
        player.starports -= 1
    state.systems[system].buildings.append(Building(kind=kind, owner=seat, damaged=damaged))
    return True


def choose_setup_card(box: Box, players: int, rng: Rng, wanted: str = "") -> SetupCard:
    """ARCS-047: one of the four cards for this count at random, or the one the table agreed."""
    cards = sorted((c for c in box.setups.values() if c.players == players), key=lambda c: c.id)
    if wanted:
        return box.setups[wanted]
    return cards[rng.below(len(cards))]


def place_starting_pieces(box: Box, state: ArcsState, seat: int) -> None:
    """ARCS-052..057: the standard pieces at the seat's setup-card positions and the two
    resources of its A and B systems' types in slots 1 and 2."""
    spot = box.setups[state.setup_card].positions[(seat - state.initiative) % len(state.players)]  # ARCS-052
    place_ships(state, spot.a, seat, 3)  # ARCS-053
    place_building(state, spot.a, seat, "city")
    place_ships(state, spot.b, seat, 3)  # ARCS-054
    place_building(state, spot.b, seat, "starport")
    for c in spot.c:  # ARCS-055
        place_ships(state, c, seat, 2)
    take_resource(box, state, seat, box.systems[spot.a].type, slot=0)  # ARCS-057
    take_resource(box, state, seat, box.systems[spot.b].type, slot=1)


def set_up(box: Box, state: ArcsState, setup_card: str = "", pieces: bool = True) -> None:
    """Fill a fresh `ArcsState` (seats and RNG already set) as standard setup leaves it;
    `pieces=False` leaves the starting pieces to the flow (a module may place others)."""
    rng = Rng(state)
    n = len(state.seats)
    state.initiative = rng.below(n)  # ARCS-041
    deck = box.action_deck(n)  # ARCS-042
    state.markers_available = [Marker(m.id) for m in box.board.ambition_markers]  # ARCS-043
    state.ambition_boxes = {a: [] for a in box.board.ambitions}
    state.chapter = 1  # ARCS-044
    court = sorted(box.court)
    rng.shuffle(court)
    row = box.board.court_row[str(n)]  # ARCS-046, ruling A-R2
    state.court_row, state.court_deck = court[:row], court[row:]
    state.court_agents = {c: [0] * n for c in state.court_row}
    card = choose_setup_card(box, n, rng, setup_card)
    state.setup_card, state.out_of_play = card.id, list(card.out_of_play)  # ARCS-048
    state.supply = {r: box.board.supply_per_resource for r in box.board.resources}
    for cluster in box.map.clusters:
        if cluster.id not in card.out_of_play:
            for system in (cluster.gate, *(p.id for p in cluster.planets)):
                state.systems[system] = SystemState(ships=[Ships() for _ in range(n)])
    if n == 2:  # ARCS-049: the covered planets' tokens leave the supply for the ambition boxes
        state.ambition_tokens = box.ambition_tokens(card.out_of_play)
        for tokens in state.ambition_tokens.values():
            for r in tokens:
                state.supply[r] -= 1
    state.players = [PlayerState() for _ in range(n)]  # ARCS-050, ARCS-051
    if pieces:
        for position in range(n):  # ARCS-052: position 1 holds the initiative
            place_starting_pieces(box, state, (state.initiative + position) % n)
    rng.shuffle(deck)
    state.hands = []
    for _ in state.players:  # ARCS-059
        state.hands.append(deck[:box.board.hand_size])
        deck = deck[box.board.hand_size:]
    rng.shuffle(deck)  # ARCS-061: the rest, shuffled, is the face-down discard pile
    state.action_discard, state.action_deck = deck, []
