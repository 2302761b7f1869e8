"""The Admiral (Fate 07, cards F701-F721): the rules its cards name that the data cannot
say.

Act I
- F701 (setup): data: Imperial Officers, the Use Imperial Foundries Edict into the
  booklet, the First Regent tile unless the Steward is in play.
- F702 Imperial Officers: ignores the Presence and Movement Laws (`ignore_laws`, read by
  `empire.laws_ignored`); buried while its holder is an Outlaw (`fate_steward.burying`).
- F703 Use Imperial Foundries (Edict handler `imperial_foundries`): whoever holds Imperial
  Officers may, for each of their starports, replace one of their ships in its system with
  an Imperial ship (steps `foundries_*`).
- The objective's "each Imperial ship anyone places" (`imperial_ships_placed`), reported by
  the rules that place them.
"""
from __future__ import annotations

from core.errors import BadParameter, IllegalAction
from core.state import Action
from plugins.arcs.content import box_for
from plugins.blighted_reach import fates, objectives
from plugins.blighted_reach.board import imperial_ships
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.state import BlightedReachState, Pieces
from plugins.blighted_reach.tables import steps

IMPERIAL_OFFICERS = "F702"


# -- the objective's event advances (BR-093) ------------------------------------------------


def imperial_ships_placed(state: BlightedReachState, count: int) -> dict[int, int]:
    """`count` Imperial ships were placed on the map by anyone: every objective counting
    them advances (the Admiral's, while a Regent winning an ambition). Returns the spaces
    moved per seat; nothing while the objective markers are not on the track."""
    if count <= 0 or len(state.objective_markers) != len(state.players):
        return {}
    return objectives.advance_on_event(box_for(state), campaign_box(), state, "imperial_ship_placed", count)


# -- F703 Use Imperial Foundries --------------------------------------------------------------


def officers_holder(state: BlightedReachState) -> int:
    """The seat holding Imperial Officers among its Guild cards, -1 for nobody."""
    return next((s for s, p in enumerate(state.players) if IMPERIAL_OFFICERS in p.guild), -1)


def loyal_starports(state: BlightedReachState, seat: int) -> list[list]:
    """[system, building] of each of the seat's starports on the map, in system order."""
    return [[s, i] for s in sorted(state.systems) for i, b in enumerate(state.systems[s].buildings)
            if b.owner == seat and b.kind == "starport"]


def foundry_options(state: BlightedReachState, seat: int, system: str) -> list[dict]:
    """For one starport in `system`: replace a fresh or a damaged Loyal ship there, or not.
    # Reading: the Imperial ship takes the side of the ship it replaces (a damaged ship
    # becomes a damaged Imperial ship); the Loyal ship returns to its owner's supply."""
    ships = state.systems[system].ships_of(seat)
    out: list[dict] = [{"replace": ""}]
    if state.imperial_supply > 0:
        out += [{"replace": side} for side, n in (("fresh", ships.fresh), ("damaged", ships.damaged)) if n > 0]
    return out


def check_foundry(state: BlightedReachState, seat: int, system: str, replace: str) -> None:
    if replace not in ("", "fresh", "damaged"):
        raise BadParameter(f"replace a 'fresh' or 'damaged' ship, or '' for none, not {replace!r}")
    if {"replace": replace} not in foundry_options(state, seat, system):
        raise IllegalAction(f"no {replace} Loyal ship of seat {seat} in {system} to replace with an Imperial ship")


def apply_foundry(state: BlightedReachState, seat: int, system: str, replace: str) -> bool:
    """One replacement (or none). Returns whether an Imperial ship was placed."""
    check_foundry(state, seat, system, replace)
    if not replace:
        return False
    here = state.systems[system].ships_of(seat)
    there = imperial_ships(state, system)
    if replace == "fresh":
        here.fresh -= 1
        state.imperial[system] = Pieces(fresh=there.fresh + 1, damaged=there.damaged)
    else:
        here.damaged -= 1
        state.imperial[system] = Pieces(fresh=there.fresh, damaged=there.damaged + 1)
    state.players[seat].ships += 1
    state.imperial_supply -= 1
    return True


@fates.handler("imperial_foundries")
def imperial_foundries(ctx, seat: int, card_id: str, effect) -> None:
    """The Edict: resolved by Imperial Officers' holder (whoever is First Regent), one
    starport at a time; nobody holding it, nothing happens."""
    holder = officers_holder(ctx.state)
    if holder < 0:
        ctx.emit("edict_lapsed", card=card_id, why="nobody holds Imperial Officers")
        return
    ctx.push(foundries_next, seat=holder, ports=loyal_starports(ctx.state, holder))


@steps("foundries_next")
def foundries_next(ctx, seat: int, ports: list):
    if not ports:
        return
    system = ports[0][0]
    options = foundry_options(ctx.state, seat, system)
    ctx.ask(seat, "imperial_foundry", [Action("imperial_foundry", {"system": system, **o}) for o in options],
            resume=foundry_chosen, rest=ports[1:])


@steps("foundry_chosen")
def foundry_chosen(ctx, seat, params, rest: list):
    state = ctx.state
    if apply_foundry(state, seat, params["system"], params["replace"]):
        ctx.emit("imperial_ship_replaced", seat=seat, system=params["system"], side=params["replace"])
        imperial_ships_placed(state, 1)
    ctx.push(foundries_next, seat=seat, ports=rest)
