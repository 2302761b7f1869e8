"""Real Act I tables for the Crises and Blight tests, and moves of pieces that keep every
count (pieces come from and go back to their supplies), so the invariants hold."""
from __future__ import annotations

import msgspec

from core.rng import Rng, seed_state
from core.state import Seat
from plugins.arcs.content import default_box as arcs_box
from plugins.arcs.state import Ships
from plugins.blighted_reach import setup as br
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.invariants import problems
from plugins.blighted_reach.state import BlightedReachState, Pieces

BOX, CBOX = arcs_box(), campaign_box()
LOTUS, DANE, MIKAH = 0, 1, 2  # the rulebook's three players


def fixed(number: int, symbol: str):
    return lambda die, faces: number if die == "number" else symbol


def played_table(n: int = 3, seed: int = 5, number: int = 1, symbol: str = "arrow") -> BlightedReachState:
    """Act I set up with the Imperial clusters `number` and the next, every starting
    placement made (each seat alternating city and starport), hands dealt."""
    state = BlightedReachState(game="blighted_reach", seats=[Seat(index=i) for i in range(n)], rng=seed_state(seed))
    br.set_up_act_one(BOX, CBOX, state, Rng(state), fixed(number, symbol))
    for seat in range(n):
        br.choose_fate(state, seat, state.fate_offers[seat][0])
    br.give_first_regent(state)
    while state.placement_order:
        system = next(s for s in sorted(state.imperial) if BOX.systems[s]
                      and len(state.systems[s].buildings) < BOX.systems[s].slots)
        br.place_start(BOX, CBOX, state, state.placement_order[0], system,
                       "city" if state.placements_done % 2 == 0 else "starport")
    br.deal_hands(CBOX, state, Rng(state))
    if n == 2:
        br.end_mulligan(state, 1 - state.initiative, Rng(state))
    assert_sound(state)
    return state


def assert_sound(state: BlightedReachState) -> None:
    assert problems(BOX, CBOX, state) == []


def snapshot(state: BlightedReachState) -> bytes:
    return msgspec.json.encode(state)


def set_ships(state: BlightedReachState, seat: int, system: str, fresh: int, damaged: int = 0) -> None:
    """The seat's ships in `system` become exactly these, from or back to its supply."""
    here = state.systems[system]
    state.players[seat].ships += here.ships[seat].total - fresh - damaged
    here.ships[seat] = Ships(fresh=fresh, damaged=damaged)


def set_imperial(state: BlightedReachState, system: str, fresh: int, damaged: int = 0) -> None:
    state.imperial_supply += state.imperial.get(system, Pieces()).total - fresh - damaged
    if fresh + damaged:
        state.imperial[system] = Pieces(fresh=fresh, damaged=damaged)
    else:
        state.imperial.pop(system, None)


def set_blight(state: BlightedReachState, system: str, fresh: int = 0, damaged: int = 0) -> None:
    state.blight_supply += state.blight.get(system, Pieces()).total - fresh - damaged
    if fresh + damaged:
        state.blight[system] = Pieces(fresh=fresh, damaged=damaged)
    else:
        state.blight.pop(system, None)


def clear(state: BlightedReachState, system: str) -> None:
    """No ships of anyone and no Blight left in the system."""
    for seat in range(len(state.players)):
        set_ships(state, seat, system, 0)
    set_imperial(state, system, 0)
    set_blight(state, system, 0)


def to_court(state: BlightedReachState, card: str, position: int) -> str:
    """Deal `card` from the Court deck into the row at `position`, the card there going to
    the deck's top (its agents home first). Returns the card it displaced."""
    old = state.court_row[position]
    for seat, k in enumerate(state.court_agents.pop(old)):
        state.players[seat].agents += k
    state.court_deck.remove(card)
    state.court_deck.insert(0, old)
    state.court_row[position] = card
    state.court_agents[card] = [0] * len(state.players)
    return old


def give_guild(state: BlightedReachState, seat: int, card: str) -> None:
    """A Court deck card into the seat's play area (as if secured earlier)."""
    state.court_deck.remove(card)
    state.players[seat].guild.append(card)


def put_agents(state: BlightedReachState, seat: int, card: str, n: int) -> None:
    state.players[seat].agents -= n
    state.court_agents[card][seat] += n


def give_fate_card(state: BlightedReachState, seat: int, card: str) -> None:
    """A Fate Set Guild or lore card into the seat's play area (as a Fate's setup gives it)."""
    pile = state.players[seat].guild if CBOX.fate_cards[card].kind == "guild" else state.players[seat].lore
    pile.append(card)


def fate_to_court(state: BlightedReachState, card: str, position: int) -> None:
    """A Fate Set Vox card dealt into the Court row (as one added to the Court deck would be)."""
    state.court_deck.insert(0, card)
    to_court(state, card, position)
