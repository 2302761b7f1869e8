"""Shared set-up for the Court card tests: a really set-up table, cards put in a seat's
play area, and the refusal check (a typed error, and the state, moment and events untouched)."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected
from core.flow import Ctx
from core.rng import seed_state
from core.state import Seat, encode_state
from plugins.arcs import abilities
from plugins.arcs.abilities import Env, Moment, Use
from plugins.arcs.actions import refill_court
from plugins.arcs.content import default_box
from plugins.arcs.invariants import problems
from plugins.arcs.setup import set_up
from plugins.arcs.state import ArcsState

BOX = default_box()


def use(env: Env, u: Use, params) -> None:
    """An op, then what it gained placed as its owner's first listed choice (the leftmost
    empty slot; with no room, the new token dropped): the flow asks, a pure test cannot."""
    from tests.arcs.flow_helpers import place_waiting

    abilities.use(env, u, params)
    place_waiting(env.state)


def table(players: int = 3, seed: int = 1, card: str = "3SETUP01") -> ArcsState:
    state = ArcsState(game="arcs", seats=[Seat(index=i) for i in range(players)], rng=seed_state(seed))
    set_up(BOX, state, card)
    return state


def env_for(state: ArcsState, **moment) -> Env:
    ctx = Ctx(state, None)
    return Env(state=state, box=BOX, chance=ctx, emit=ctx.emit, moment=Moment(**moment))


def events(env: Env, kind: str) -> list:
    return [e for e in env.chance.events if e.type == kind]


def home(state: ArcsState, seat: int):
    """The seat's A/B/C systems on the table's setup card (ARCS-052)."""
    n = len(state.players)
    return BOX.setups[state.setup_card].positions[(seat - state.initiative) % n]


def grant(state: ArcsState, seat: int, card: str) -> None:
    """Put a Court card in the seat's play area (a Guild card) or in the resolving list (a Vox
    card the seat has just secured), from wherever it lies; a Court row gap is refilled."""
    if card in state.court_row:
        position = state.court_row.index(card)
        for owner, n in enumerate(state.court_agents.pop(card)):
            state.players[owner].agents += n
        state.court_row[position] = ""
        refill_court(state, position)
    elif card in state.court_deck:
        state.court_deck.remove(card)
    else:
        state.court_discard.remove(card)
    (state.players[seat].guild if BOX.court[card].kind == "guild" else state.resolving).append(card)


def give(state: ArcsState, seat: int, slot: int, resource: str | None) -> None:
    """Set one resource slot, the tokens coming from / going to the supply."""
    player = state.players[seat]
    if player.resources[slot] is not None:
        state.supply[player.resources[slot]] += 1
    player.resources[slot] = resource
    if resource is not None:
        state.supply[resource] -= 1


def ability(seat: int, card: str, op: str) -> Use:
    abilities = BOX.court[card].abilities
    index = next(i for i, a in enumerate(abilities) if a.do == op)
    return Use(seat=seat, card=card, index=index, ability=abilities[index])


def refused(env: Env, u: Use, params, error=ActionRejected) -> None:
    before, moment, seen = encode_state(env.state), msgspec.json.encode(env.moment), len(env.chance.events)
    with pytest.raises(error):
        use(env, u, params)
    assert encode_state(env.state) == before
    assert msgspec.json.encode(env.moment) == moment
    assert len(env.chance.events) == seen


def sound(state: ArcsState, in_play=()) -> None:
    assert problems(BOX, state, list(in_play)) == []
