"""Leaders & Lore setup (digest section 12): the draft rows, the draft order, what a seat
may pick, the Leader's starting layout in place of the standard one, and the Leaders'
setup instructions. Pure functions on `ArcsState` with a `Box`; the module plugin
(plugins/leaders_and_lore) turns them into prompts.
"""
from __future__ import annotations

from core.errors import BadParameter, IllegalAction
from core.seats import seat_name
from core.turn_order import clockwise, counter_clockwise
from plugins.arcs.content import Box
from plugins.arcs.lore_ops import grant_lore_slot, start_outraged
from plugins.arcs.setup import place_building, place_ships, take_resource
from plugins.arcs.state import ArcsState


def row_sizes(players: int, lore_per_player: int = 1) -> tuple[int, int]:
    """ARCS-262: (Leaders, Lore) face up: players + 1 each; ARCS-266: with two Lore each, one
    more Lore card per player."""
    return players + 1, players * lore_per_player + 1


def deal_rows(box: Box, players: int, shuffle, lore_per_player: int = 1) -> tuple[list[str], list[str]]:
    """Both rows from the shuffled Leader and Lore cards; `shuffle(items, what)` shuffles in
    place (core.chance.shuffle with the table's Ctx, a public event). The rest stay in the box."""
    leaders, lore = sorted(box.leaders), sorted(box.lore)
    shuffle(leaders, "leaders")
    shuffle(lore, "lore")
    n_leaders, n_lore = row_sizes(players, lore_per_player)
    return leaders[:n_leaders], lore[:n_lore]


def draft_order(state: ArcsState) -> list[int]:
    """ARCS-263: reverse turn order, from the seat to the initiative holder's right (seats
    run clockwise in turn order), so the holder picks last."""
    n = len(state.players)
    return counter_clockwise((state.initiative - 1) % n, n)


def picks_needed(state: ArcsState, lore_per_player: int = 1) -> int:
    """Every seat ends with 1 Leader and 1 Lore (2 in the variant)."""
    return len(state.players) * (1 + lore_per_player)


def picks_made(state: ArcsState) -> int:
    return sum((p.leader is not None) + len(p.lore) for p in state.players)


def next_picker(state: ArcsState, lore_per_player: int = 1) -> int | None:
    """Who picks now: the draft goes round in reverse turn order, one card a pick, until
    done (None). Every seat picks once a round, so the order never skips anyone."""
    made = picks_made(state)
    if made >= picks_needed(state, lore_per_player):
        return None
    return draft_order(state)[made % len(state.players)]


def allowed_picks(box: Box, state: ArcsState, seat: int, leaders: list[str], lore: list[str],
                  lore_per_player: int = 1) -> list[str]:
    """The row cards `seat` may take: a Leader if it has none, a Lore card while it holds fewer than its share."""
    player = state.players[seat]
    out = list(leaders) if player.leader is None else []
    if len(player.lore) < lore_per_player:
        out += lore
    return out


def check_pick(box: Box, state: ArcsState, seat: int, leaders: list[str], lore: list[str], card: str,
               lore_per_player: int = 1) -> None:
    """ARCS-263: one card from either row; never a second Leader, nor more Lore than the share."""
    if next_picker(state, lore_per_player) != seat:
        raise IllegalAction(f"{seat_name(seat)} does not pick now")
    if card not in leaders and card not in lore:
        raise BadParameter(f"{card!r} is not in the Leader or Lore row")
    player = state.players[seat]
    if card in leaders and player.leader is not None:
        raise IllegalAction(f"{seat_name(seat)} already has a Leader")
    if card in lore and len(player.lore) >= lore_per_player:
        raise IllegalAction(f"{seat_name(seat)} already has {lore_per_player} Lore card(s)")


def take_pick(box: Box, state: ArcsState, seat: int, leaders: list[str], lore: list[str], card: str) -> None:
    """Move a checked pick from its row to the seat (Ancient Holdings brings its slot, L13)."""
    player = state.players[seat]
    if card in leaders:
        leaders.remove(card)
        player.leader = card
    else:
        lore.remove(card)
        player.lore.append(card)
        grant_lore_slot(state, box, seat)


def place_layout(box: Box, state: ArcsState, seat: int) -> None:
    """ARCS-264/267: in place of the standard starting pieces, the seat's Leader's A, B and
    C boxes go to its setup-card A, B and C systems (every C system with 2 players, ruling
    A-R5), and its two printed resources to slots 1 and 2 in order."""
    player = state.players[seat]
    if player.leader is None:
        raise IllegalAction(f"{seat_name(seat)} has no Leader to lay out")
    leader = box.leaders[player.leader]
    n = len(state.players)
    spot = box.setups[state.setup_card].positions[(seat - state.initiative) % n]  # ARCS-052
    for placement, system in ((leader.a, spot.a), (leader.b, spot.b), *((leader.c, c) for c in spot.c)):
        place_ships(state, system, seat, placement.ships)
        if placement.building:
            place_building(state, system, seat, placement.building)
    for slot, resource in enumerate(leader.resources):
        take_resource(box, state, seat, resource, slot=slot)


def setup_instructions(box: Box, state: ArcsState) -> dict[int, list[str]]:
    """ARCS-265: after the whole draft, the Leaders' setup instructions in turn order (the
    Mystic's Cryptic Outrage). Returns what each seat did."""
    n = len(state.players)
    done = {}
    for seat in clockwise(state.initiative, n):
        covered = start_outraged(state, box, seat)
        if covered:
            done[seat] = covered
    return done
