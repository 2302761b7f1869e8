"""The Founder (FATE02): its Fate Set's rules that the card data cannot say.

Act I: Parade Fleets (F202) when its holder declares an ambition: 2 fresh ships at a Free
city, then a Regent may leave the Empire (`empire.become_outlaw`). The objective's advances
(F201: ambitions won and systems controlled while an Outlaw) are the board's generic counts.
The Resolutions (F203, F223) are data the Fate machinery runs.
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from plugins.arcs.abilities import Env, Use, op
from plugins.arcs.setup import place_ships
from plugins.blighted_reach import board, empire
from plugins.blighted_reach.state import FREE

FOUNDER = "FATE02"


# -- Parade Fleets (F202) -------------------------------------------------------------------
class FreeCityShips(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    system: str  # a system with a Free city


def free_city_systems(state) -> list[str]:
    """Every system with a Free city standing in it, whoever controls it."""
    return sorted(s for s, here in state.systems.items()
                  if any(b.owner == FREE and b.kind == "city" for b in here.buildings))


def _parade_usable(env: Env, u: Use) -> bool:
    return env.state.players[u.seat].ships > 0 and bool(free_city_systems(env.state))


@op("place_ships_at_free_cities", params=FreeCityShips, usable=_parade_usable,
    candidates=lambda env, u: [{"system": s} for s in free_city_systems(env.state)])
def parade_fleets_ships(env: Env, u: Use, choice: FreeCityShips) -> None:
    """Parade Fleets (F202), on declaring: `count` fresh ships at one Free city, as many as the
    supply holds (ARCS-276). The holder may decline (the declaration's offer)."""
    if choice.system not in env.state.systems:
        raise BadParameter(f"{choice.system!r} is not a system in play")
    if choice.system not in free_city_systems(env.state):
        raise IllegalAction(f"there is no Free city in {choice.system}")
    placed = place_ships(env.state, choice.system, u.seat, u.ability.count)
    env.emit("ships_placed", seat=u.seat, card=u.card, systems={choice.system: placed})


# Reading: "Then, if you are a Regent, you may become an Outlaw" is offered in the same
# declaration window as the ships, in either order: the ships do not depend on the title,
# and declining the ships does not forfeit leaving the Empire.
@op("regent_may_become_outlaw", usable=lambda env, u: board.is_regent(env.state, u.seat))
def parade_fleets_outlaw(env: Env, u: Use, _: None) -> None:
    """Parade Fleets (F202), on declaring: a Regent may leave the Empire (BR-311), as a
    Summit's caller does (BR-117: the First Regent tile and Trust pass on, BR-194/BR-195)."""
    if not board.is_regent(env.state, u.seat):
        raise IllegalAction("only a Regent can become an Outlaw")
    result = empire.become_outlaw(env.state, u.seat)
    env.emit("became_outlaw", seat=u.seat, card=u.card, first_regent=result["first_regent"],
             returned=result["returned"], power_lost=result["power_lost"])
