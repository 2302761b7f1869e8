"""The Warden's Act III (Fate 16, cards F1612-F1619): the rules its cards name that the data
cannot say (Act II and the Lords, Fiefs and Vassals: `fate_warden`).

- F1613/F1614 Feast Day (vox): while one is in the Court no player harms another's pieces in
  a Fief (`feast_day_limit` on `empire.HARM_LIMITS`: battles and cards' harm alike, never a
  Crisis); its Crisis scraps it with the agents on it (`scrap_self_and_agents`); when
  secured the op `feast_day_replace` may replace a Rival city under a Seat with a Loyal one
  (the Seat and its Fief pass to the securer), then data buries it.
- F1615/F1616: reprints of BC13 and BC22 (data).
- F1617 (setup): `collect_court_tokens` (the 6 Court tokens in the supply), data puts Feudal
  Courts and Lords Gain Power in the booklet. Its grand ambitions (`GOAL_RULES`): Lord of
  more Fiefs than each Rival; more Seats controlled than the current chapter.
- F1619 Lords Gain Power (edict `lords_gain_power`): each Fief's Lord gains 3 Power, from
  Cluster 1 on.

Not built yet (the Fate stays `effects_complete: false`): F1612 Warden's Levy (Levy as a
Tax, the Vassals' ships on the card taking hits first in its holder's attacks); F1618
Feudal Courts (placing Court tokens when influencing, the Lord-or-Vassal limit on
influencing and securing such cards, the Lord's and the Vassal's secures, the Ransack
limit); so F1619's "may influence or secure the card with the Fief's Court token" never
arises (no Court token is ever placed).
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.chapter import return_city
from plugins.arcs.state import Building
from plugins.blighted_reach import empire, fates, objectives
from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler
from plugins.blighted_reach.fate_c import is_campaign
from plugins.blighted_reach.fate_warden import CLUSTERS, cluster_of, fiefs_of, lord_of, seats_controlled, settle_titles
from plugins.blighted_reach.state import BlightedReachState, FiefSeat

FEAST_DAYS = ("F1613", "F1614")
LORD_POWER = 3

standing("feast_day_truce")  # read by `feast_day_limit` wherever harm is checked


# -- F1617 the setup and the grand ambitions ----------------------------------------------------


@fates.handler("collect_court_tokens")
def collect_court_tokens(ctx, seat: int, card_id: str, effect) -> None:
    """The 6 Court tokens lie in the general supply by the Court (none on a card yet)."""
    ctx.state.court_tokens = {}
    ctx.emit("court_tokens_collected", seat=seat, count=len(CLUSTERS), why=card_id)


def more_fiefs_than_each_rival(state: BlightedReachState, seat: int) -> bool:
    mine = len(fiefs_of(state, seat))
    return all(mine > len(fiefs_of(state, r)) for r in range(len(state.players)) if r != seat)


objectives.GOAL_RULES["more_fiefs_than_each_rival"] = (
    lambda box, cbox, state, seat: more_fiefs_than_each_rival(state, seat))
objectives.GOAL_RULES["more_seats_than_chapter"] = (
    lambda box, cbox, state, seat: seats_controlled(state, seat) > state.chapter)


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
    return [int(c) for c, s in sorted(state.fief_seats.items()) if s.owner not in (seat,) and s.owner >= 0]


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
        raise BadParameter(f"no Rival city with a Seat to replace in cluster {choice.cluster}")
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


# -- F1619 Lords Gain Power ------------------------------------------------------------------------


@fates.handler("lords_gain_power")
def lords_gain_power(ctx, seat: int, card_id: str, effect) -> None:
    """Each Fief in turn from Cluster 1: its Lord gains 3 Power."""
    state = ctx.state
    gains: dict[str, int] = {}
    for cluster in CLUSTERS:
        lord = lord_of(state, cluster)
        if lord >= 0:
            state.players[lord].power += LORD_POWER
            gains[str(lord)] = gains.get(str(lord), 0) + LORD_POWER
    ctx.emit("lords_gain_power", card=card_id, power=gains)
