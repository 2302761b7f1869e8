"""Faction Heroes: four face-up stacks of three heroes, one per faction; a player Favored by
a faction may recruit the top hero of its stack (QNC-207, QNC-216..221). The heroes are
leader cards of the content pack marked `"hero": true`; without this module they stay boxed."""
from __future__ import annotations

import sys
from pathlib import Path

from core import chance
from core.hookspecs import hookimpl
from core.plugins import ModuleSpec
from plugins.new_capital.content import pack_for
from plugins.new_capital.province import favored_factions

MODULE_ID = "faction-heroes"
MAX_HEROES = 2  # QNC-219


def stacks(state) -> dict[str, list[str]]:
    """Faction -> stack, the last card on top (face up, recruitable)."""
    return state.module_state[MODULE_ID]["zones"]


SPEC = ModuleSpec(
    id=MODULE_ID, game="new-capital", name="Faction Heroes", plugin=sys.modules[__name__],
    description="Powerful leaders, three per faction, recruitable only when Favored by their faction.",
    min_players=1, max_players=4,  # QNC-203
    client_view=Path(__file__).resolve().parent / "client",  # its part of the table view
)
enabled, mine = SPEC.enabled, SPEC.data


@hookimpl
def conclave_register_modules():
    return [SPEC]


@hookimpl
def conclave_setup(ctx):
    state = ctx.state
    if not enabled(state):
        return
    pack = pack_for(state.pack)
    zones = {}
    for faction in sorted(f.id for f in pack.board.factions):  # QNC-207: 4 stacks of 3, shuffled
        heroes = sorted(l.id for l in pack.leaders.values() if l.hero and l.faction == faction)
        if len(heroes) != 3:
            from core.errors import ContentError

            raise ContentError(f"faction {faction} needs 3 heroes in the pack, has {len(heroes)}")
        chance.shuffle(ctx, heroes, f"{faction} heroes")
        zones[faction] = heroes
        for h in heroes:
            state.box.remove(h)
    state.module_state[MODULE_ID] = {"zones": zones}


def heroes_of(state, seat: int) -> list[str]:
    pack = pack_for(state.pack)
    p = state.players[seat]
    return [c for col in p.columns for slot in col.slots for c in ([slot.leader] if slot.leader else []) + slot.flipped
            if pack.leaders[c].hero]


@hookimpl
def new_capital_recruit_options(state, seat):
    """QNC-216..219, 221: the top hero of each faction the player is Favored by, if they hold
    no hero of it yet and fewer than two in all."""
    if not enabled(state):
        return []
    pack = pack_for(state.pack)
    held = heroes_of(state, seat)
    if len(held) >= MAX_HEROES:
        return []
    held_factions = {pack.leaders[h].faction for h in held}
    return [stack[-1] for faction, stack in stacks(state).items()
            if stack and faction in favored_factions(pack, state.players[seat]) and faction not in held_factions]


@hookimpl
def new_capital_leader_taken(ctx, seat, card):
    if not enabled(ctx.state):
        return
    for faction, stack in stacks(ctx.state).items():
        if stack and stack[-1] == card:
            stack.pop()  # QNC-218: the card beneath becomes recruitable
            ctx.emit("hero_recruited", seat=seat, card=card, faction=faction,
                     next=stack[-1] if stack else None)


@hookimpl
def conclave_view(state, viewer, view):
    """A face-up stack shows its top card only."""
    if not enabled(state) or MODULE_ID not in view.get("module_state", {}):
        return
    m = view["module_state"][MODULE_ID]
    m["pools"] = {f: {"top": s[-1] if s else None, "count": len(s)} for f, s in m.pop("zones").items()}


@hookimpl
def conclave_graphql_module_types():
    from plugins.faction_heroes.graphql import FactionHeroesState, from_view

    return [(MODULE_ID, FactionHeroesState, from_view)]
