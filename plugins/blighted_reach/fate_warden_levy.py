"""The Warden's Act III cards a player holds or secures (Fate 16): Warden's Levy (F1612) and
the Feast Days (F1613/F1614). The Lords, Fiefs and Vassals they read are `fate_warden`'s.

- F1612 Warden's Levy (lore): Levy (a Tax, op `levy`): 1 ship from a Vassal's supply onto the
  card (`state.levy`), at most 1 of that Vassal's per Fief where the holder is its Lord. When
  the holder attacks, the ships on the card take its hits first (`levy_shield` on
  `empire_battle.ATTACKER_SHIELDS`: self-hits, then an intercept's), each destroyed ship
  back to its owner's supply, never a Trophy; nobody holding the card, its ships go home
  (`levy_disbanded`). Levying is no harm (Feudal Law's note).
- F1613/F1614 Feast Day (vox): while one is in the Court no player harms another's pieces in
  a Fief (`feast_day_limit` on `empire.HARM_LIMITS`: battles and cards' harm alike, never a
  Crisis); its Crisis scraps it with the agents on it (`scrap_self_and_agents`); when
  secured the op `feast_day_replace` may replace a Rival city under a Seat with a Loyal one
  (the Seat and its Fief pass to the securer), then data buries it.

Readings (beside their rules): a ship on the Levy takes one hit and is destroyed (the card
holds no damaged ships); a Levy's ships are not attacking ships (no dice, no control).
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from core.seats import seat_name
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.chapter import return_city
from plugins.arcs.state import Building
from plugins.blighted_reach import empire, empire_battle
from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler
from plugins.blighted_reach.fate_c import is_campaign
from plugins.blighted_reach.fate_warden import cluster_of, fiefs_of, lord_of, settle_titles, vassals
from plugins.blighted_reach.state import BlightedReachState, FiefSeat

LEVY = "F1612"
FEAST_DAYS = ("F1613", "F1614")

standing("feast_day_truce")  # read by `feast_day_limit` wherever harm is checked
standing("levy_takes_hits_first")  # read by `levy_shield` as a battle resolves


# -- F1612 Warden's Levy ---------------------------------------------------------------------------


class Levied(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    vassal: int  # the Vassal whose ship is levied


def levy_room(state: BlightedReachState, seat: int, vassal: int) -> int:
    """How many more of the Vassal's ships the card may hold: 1 per Fief where the holder is
    its Lord, less those on it."""
    bound = sum(vassal in vassals(state, c) for c in fiefs_of(state, seat))
    return bound - state.levy.count(vassal)


def leviable(state: BlightedReachState, seat: int) -> list[int]:
    return [v for v in range(len(state.players)) if v != seat and state.players[v].ships > 0
            and levy_room(state, seat, v) > 0]


@op("levy", params=Levied, candidates=lambda env, u: [{"vassal": v} for v in leviable(env.state, u.seat)],
    usable=lambda env, u: is_campaign(env.state) and bool(leviable(env.state, u.seat)))
def levy(env: Env, u: Use, choice: Levied) -> None:
    """F1612 Levy (a Tax): a ship from the Vassal's supply onto the card."""
    state = env.state
    if choice.vassal not in leviable(state, u.seat):
        raise BadParameter(f"{seat_name(choice.vassal)} owes you no ship now (not your Vassal, none left, or its "
                           "ships on the Levy already)")
    state.players[choice.vassal].ships -= 1
    state.levy = [*state.levy, choice.vassal]
    env.emit("levy_raised", seat=u.seat, card=u.card, vassal=choice.vassal)


def levy_holder(state) -> int:
    return next((s for s, p in enumerate(state.players) if LEVY in p.lore), -1)


def _levy_takes(state: BlightedReachState, hits: int) -> list[int]:
    """The Levy's ships destroyed by `hits` (one hit each), back to their owners' supplies."""
    lost, state.levy = state.levy[:hits], state.levy[hits:]
    for owner in lost:
        state.players[owner].ships += 1
    return lost


def levy_shield(ctx) -> None:
    """`empire_battle.ATTACKER_SHIELDS`: the holder attacking, its self-hits and then an
    intercept's hits fall on the Levy's ships first.
    # Reading: an intercept's hits (one per fresh defending ship) become hits on the attacker
    # at once here, so the Levy can take them; the attacker's ships take the rest."""
    state = ctx.state
    b = state.battle
    if not isinstance(state, BlightedReachState) or not state.levy or levy_holder(state) != b.attacker:
        return
    if b.intercept and not b.self_hit:
        b.intercept = 0
        b.self_hit = empire_battle.defending_fresh(state)
    if b.self_hit:
        lost = _levy_takes(state, b.self_hit)
        b.self_hit -= len(lost)
        ctx.emit("levy_hit", seat=b.attacker, system=b.system, owners=lost, why=LEVY)


empire_battle.ATTACKER_SHIELDS.append(levy_shield)


def levy_ships(state: BlightedReachState) -> list[tuple[int, str]]:
    """(owner, "ship") for each ship on the Levy, for the invariants' piece count."""
    return [(o, "ship") for o in getattr(state, "levy", [])]


def levy_disbanded(ctx, noted=None) -> None:
    """After every step: with nobody holding Warden's Levy (scrapped, discarded...), the
    ships on it go back to their owners' supplies.
    # Reading: the card holds them for its holder alone."""
    state = ctx.state
    if not is_campaign(state) or not state.levy or levy_holder(state) >= 0:
        return
    owners = _levy_takes(state, len(state.levy))
    ctx.emit("levy_disbanded", owners=owners, why=LEVY)


def _register_watch() -> None:
    from plugins.blighted_reach.fate_steward import AROUND_STEPS

    AROUND_STEPS.append((lambda state: None, levy_disbanded))


_register_watch()


def levy_problems(state: BlightedReachState) -> list[str]:
    if state.levy and levy_holder(state) < 0:
        return ["ships are on Warden's Levy but nobody holds it"]
    return []


# -- F1613/F1614 Feast Day ------------------------------------------------------------------------


def feast_day_limit(state, seat: int, target, system: str, harm: str) -> str:
    """`empire.HARM_LIMITS`: no player harms another player's pieces in a Fief while a Feast
    Day is in the Court.
    # Reading: "each other" is the players: the Empire, the Free States and the Blight may
    # still be harmed there."""
    if not is_campaign(state) or not isinstance(target, int) or target < 0 or target == seat:
        return ""
    if not any(c in state.court_row for c in FEAST_DAYS) or lord_of(state, cluster_of(system)) < 0:
        return ""
    return f"Feast Day: players cannot harm each other in a Fief ({system})"


empire.HARM_LIMITS.append(feast_day_limit)


def _scrap_feast(call) -> dict:
    from plugins.blighted_reach.fate_caretaker import scrap_court_guild

    owners = scrap_court_guild(call.state, call.card)
    return {"event": "card_scrapped", "card": call.card, "agents": owners}


FATE_CRISIS_HANDLERS["scrap_self_and_agents"] = CrisisHandler(apply=_scrap_feast)


class SeatCity(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    cluster: int = 0   # the Fief whose Seat's Rival city is replaced; 0 declines


def replaceable(state: BlightedReachState, seat: int) -> list[int]:
    """Fiefs whose Seat stands on a Rival's city, while the securer has a city on its board."""
    if True not in state.players[seat].cities_on_board:
        return []
    return [int(c) for c, s in sorted(state.fief_seats.items()) if s.owner != seat and s.owner >= 0]


@op("feast_day_replace", params=SeatCity,
    candidates=lambda env, u: [{"cluster": 0}] + [{"cluster": c} for c in replaceable(env.state, u.seat)])
def feast_day_replace(env: Env, u: Use, choice: SeatCity) -> None:
    """Feast Day when secured: the Rival city under a Seat goes back to its owner's board
    and a city from the securer's board stands there (a replace: no Outrage, the damage
    kept); the Seat stays, so the securer is that Fief's Lord."""
    if not choice.cluster:
        return
    state = env.state
    if choice.cluster not in replaceable(state, u.seat):
        raise IllegalAction(f"no Rival city with a Seat to replace in cluster {choice.cluster}")
    seat_token = state.fief_seats[str(choice.cluster)]
    here = state.systems[seat_token.system]
    i = next(i for i, b in enumerate(here.buildings) if b.kind == "city" and b.owner == seat_token.owner)
    old = here.buildings[i]
    player = state.players[u.seat]
    player.cities_on_board[player.cities_on_board.index(True)] = False
    here.buildings[i] = Building(kind="city", owner=u.seat, damaged=old.damaged)
    return_city(env.box, state, old.owner)
    state.fief_seats = {**state.fief_seats, str(choice.cluster): FiefSeat(seat_token.system, u.seat)}
    settle_titles(state)
    env.emit("seat_city_replaced", seat=u.seat, card=u.card, cluster=choice.cluster, owner=old.owner)
