"""The Pirate's Act III (FATE12, cards F1208-F1212): the Rumors of the Pirate Haven.

Four Rumor tokens lie face down on four planets: two True ones, "cluster" (its planet's
cluster is the Haven's) and "symbol" (its planet's ID symbol is the Haven's), and two False.
Their faces are HIDDEN information: `state.rumors` (planet -> face) is not in the state's
`visible` fields; every view gets `rumor_view`, which shows a face only to the Pirate, to a
seat with a Loyal agent on that Rumor, or to all once it is face up (`rumors_up`). The
agents on Rumors (`rumor_agents`, public) come from their owners' supplies.

- F1208 (setup): data shuffles F1209/F1210 into the Court deck and puts F1211/F1212 in the
  booklet; `place_rumors` asks the Pirate, four times, for a planet and a face among those
  left (the order of the placements tells nobody which face went where; only the Pirate
  sees the face in the event). Its grand ambitions (`GOAL_RULES`): the Hoard holds 2 or more
  resources and no Rival piece / a Loyal piece is in the Haven's system. At the end of Act
  III (`haven_guess_steps`, before the last grand ambitions score and the winner) each
  Rival in turn order may name one planet it controls; the True Rumors are revealed; a
  Rival who named the Haven gains 10 Power and the Pirate loses 10, else the Pirate gains 10.
- F1209/F1210 Rumors Spread: the Crisis `rumors_spread` (in the rolled cluster every Rumor
  face up, their agents home; the card is discarded only if one was flipped) and the secured
  op `agent_on_rumor` (an agent on a Rumor in a system with the securer's Loyal pieces).
- F1211 Rumors of the Haven (law): peeking (`rumor_view`); after a battle in which the
  attacker stole anything from the Pirate it may place 1 agent on a Rumor without its own
  agent (`rumor_after_theft`, on `arcs_battle_resolve`).
- F1212 Sharing Rumors (summit): the deal part `summits.ShareRumor`, checked and applied here.

Readings: the grand ambitions' "choose to declare truthfully" is taken as counting each goal
when it is true (a declaration is the only way to score it, and it scores only when true;
the score announces no more than the declaration would). Power lost at the guess may go
below 0, as a failed objective's does (BR-090).
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, CannotAfford, IllegalAction
from core.hookspecs import hookimpl
from core.seats import seat_name
from core.state import Action
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.content import box_for
from plugins.arcs.outrage import agent_returns
from plugins.blighted_reach import fates, objectives
from plugins.blighted_reach.blight import turn_order
from plugins.blighted_reach.board import controls_for_scoring, has_loyal_pieces
from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler, _remove_self
from plugins.blighted_reach.setup import cluster_systems
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

PIRATE = "FATE12"
HAVEN_LAW = "F1211"
SHARING = "F1212"
FACES = ("cluster", "symbol", "false", "false")  # the four Rumor tokens (F1208 step 2)
TRUE_FACES = ("cluster", "symbol")
GUESS_POWER = 10

# Standing rules read where they apply (views, the battle hook, `summits`), never used as an action.
standing("rumors_of_the_haven", "share_rumor_negotiation")


def _campaign(state) -> bool:
    return isinstance(state, BlightedReachState) and state.game == "blighted-reach"


def pirate_seat(state: BlightedReachState) -> int:
    """The seat playing the Pirate (-1 none)."""
    return state.fates.index(PIRATE) if PIRATE in state.fates else -1


def rivals_of_pirate(state: BlightedReachState) -> list[int]:
    pirate = pirate_seat(state)
    return [s for s in range(len(state.players)) if s != pirate] if pirate >= 0 else []


def in_booklet(state: BlightedReachState, card: str) -> bool:
    return any(card in slot for slot in state.booklet)


# -- where the Haven is, and who may see a Rumor ----------------------------------------------


def _planets(box):
    return {p.id: (c.id, p.symbol) for c in box.map.clusters for p in c.planets}


def haven(box, state: BlightedReachState) -> str:
    """The Haven planet the True Rumors point to ("" while they are not both placed): in the
    cluster of the "cluster" Rumor's planet, with the ID symbol of the "symbol" Rumor's."""
    where = {face: planet for planet, face in state.rumors.items() if face in TRUE_FACES}
    if set(where) != set(TRUE_FACES):
        return ""
    planets = _planets(box)
    cluster, symbol = planets[where["cluster"]][0], planets[where["symbol"]][1]
    return next((p for p, (c, s) in sorted(planets.items()) if c == cluster and s == symbol and p in state.systems), "")


def may_see(state: BlightedReachState, viewer: int | None, planet: str) -> bool:
    """The Pirate peeks at every Rumor; a Rival at one carrying its Loyal agent (F1211,
    F1212); everybody at a face-up one."""
    if planet in state.rumors_up:
        return True
    if viewer is None or not 0 <= viewer < len(state.players):
        return False
    return viewer == pirate_seat(state) or viewer in state.rumor_agents.get(planet, [])


def rumor_view(state: BlightedReachState, viewer: int | None) -> list[dict]:
    """Every Rumor token as `viewer` may see it: its planet, whether it is face up, the
    agents on it, and its face only where `may_see` allows ("" otherwise)."""
    return [{"planet": p, "up": p in state.rumors_up, "agents": list(state.rumor_agents.get(p, [])),
             "face": state.rumors[p] if may_see(state, viewer, p) else ""} for p in sorted(state.rumors)]


def rumor_agent_owners(state: BlightedReachState) -> list[int]:
    """The owners of the agents on Rumors (for the pieces' count)."""
    return [o for owners in state.rumor_agents.values() for o in owners]


def rumor_problems(box, state: BlightedReachState) -> list[str]:
    """At most the four tokens, each on a planet in play, their faces the set's; agents only
    on Rumors, one per seat each; face-up ones among them."""
    out = []
    faces = sorted(state.rumors.values())
    if any(faces.count(f) > FACES.count(f) for f in set(faces)) or any(f not in FACES for f in faces):
        out.append(f"the Rumor tokens are not the Pirate's four: {faces}")
    planets = _planets(box)
    out += [f"a Rumor lies on {p!r}, no planet in play" for p in state.rumors if p not in planets or p not in state.systems]
    out += [f"agents lie on {p!r}, which holds no Rumor" for p in state.rumor_agents if p not in state.rumors]
    out += [f"{seat_name(o)} has two agents on the Rumor at {p}" for p, owners in state.rumor_agents.items()
            for o in set(owners) if owners.count(o) > 1]
    out += [f"the face-up Rumor at {p!r} is no Rumor" for p in state.rumors_up if p not in state.rumors]
    return out


# -- F1208 step 2: the Pirate places the four tokens ---------------------------------------------


def faces_left(state: BlightedReachState) -> list[str]:
    left = list(FACES)
    for face in state.rumors.values():
        left.remove(face)
    return left


def rumor_sites(box, state: BlightedReachState) -> list[str]:
    """The planets in play holding no Rumor yet."""
    return [p for p in sorted(_planets(box)) if p in state.systems and p not in state.rumors]


@fates.handler("place_rumors")
def place_rumors(ctx, seat: int, card_id: str, effect) -> None:
    ctx.push(rumor_ask, seat=seat, why=card_id)


@steps("pirate_rumor_ask")
def rumor_ask(ctx, seat: int, why: str):
    state = ctx.state
    left, sites = sorted(set(faces_left(state))), rumor_sites(box_for(state), state)
    if not left or not sites:
        return
    options = [Action("place_rumor", {"planet": p, "face": f}) for f in left for p in sites]
    ctx.ask(seat, "place_rumor", options, resume=rumor_placed, why=why)


@steps("pirate_rumor_placed")
def rumor_placed(ctx, seat, params, why: str):
    state = ctx.state
    state.rumors[params["planet"]] = params["face"]
    ctx.emit("rumor_placed", to=[seat], public={"seat": seat, "planet": params["planet"]},
             seat=seat, planet=params["planet"], face=params["face"])
    ctx.push(rumor_ask, seat=seat, why=why)


# -- F1208 the grand ambitions ---------------------------------------------------------------------


def _hoard_of_two(state: BlightedReachState, seat: int) -> bool:
    from plugins.blighted_reach.fate_pirate import hoard, hoard_holder

    return seat == hoard_holder(state) and len(hoard(state)) >= 2


def no_rival_at_haven(box, cbox, state: BlightedReachState, seat: int) -> bool:
    where = haven(box, state)
    return (_hoard_of_two(state, seat) and bool(where)
            and not any(has_loyal_pieces(state, r, where) for r in range(len(state.players)) if r != seat))


def loyal_at_haven(box, cbox, state: BlightedReachState, seat: int) -> bool:
    where = haven(box, state)
    return _hoard_of_two(state, seat) and bool(where) and has_loyal_pieces(state, seat, where)


objectives.GOAL_RULES["hoard_of_two_no_rival_at_haven"] = no_rival_at_haven
objectives.GOAL_RULES["hoard_of_two_loyal_at_haven"] = loyal_at_haven


# -- F1208 the guess at the end of Act III -------------------------------------------------------


def haven_guess_steps(state: BlightedReachState) -> list:
    """After Act III's last chapter, while the Haven is hidden on the map: each Rival's guess
    in turn order, then the reveal (before the grand ambitions score and the winner)."""
    from plugins.blighted_reach.content import default_box as campaign_box

    if state.act != 3 or not state.rumors or pirate_seat(state) < 0 or not objectives.act_over(campaign_box(), state):
        return []
    order = [s for s in turn_order(state) if s != pirate_seat(state)]
    return [*((guess_ask, {"seat": s}) for s in order), (haven_revealed, {})]


def guess_sites(state: BlightedReachState, seat: int) -> list[str]:
    """The planets the seat controls (as scoring counts control)."""
    box = box_for(state)
    return [p for p in sorted(_planets(box)) if p in state.systems and controls_for_scoring(state, seat, p)]


@steps("pirate_guess_ask")
def guess_ask(ctx, seat: int):
    options = [Action("guess_haven", {"planet": p}) for p in ["", *guess_sites(ctx.state, seat)]]
    ctx.ask(seat, "guess_haven", options, resume=guessed)


@steps("pirate_guessed")
def guessed(ctx, seat, params):
    state = ctx.state
    if params["planet"]:
        state.haven_guesses.append([seat, params["planet"]])
    ctx.emit("haven_guessed", seat=seat, planet=params["planet"])


@steps("pirate_haven_revealed")
def haven_revealed(ctx):
    """The True Rumors face up; 10 Power to each Rival who named the Haven and 10 off the
    Pirate, or 10 to the Pirate if nobody did."""
    state = ctx.state
    where, pirate = haven(box_for(state), state), pirate_seat(state)
    for planet, face in sorted(state.rumors.items()):
        if face in TRUE_FACES and planet not in state.rumors_up:
            state.rumors_up.append(planet)
    found = sorted({s for s, p in state.haven_guesses if p == where})
    for seat in found:
        state.players[seat].power += GUESS_POWER
    pirate_player = state.players[pirate]
    pirate_player.power += -GUESS_POWER if found else GUESS_POWER
    ctx.emit("haven_revealed", haven=where, found=found, power=[p.power for p in state.players],
             rumors={p: f for p, f in sorted(state.rumors.items()) if f in TRUE_FACES})


# -- F1209/F1210 Rumors Spread -----------------------------------------------------------------------


def _spread(call) -> list[dict]:
    state = call.state
    cluster = set(cluster_systems(call.box, call.dice.number)) if call.dice is not None else set()
    here = [p for p in sorted(state.rumors) if p in cluster]
    flipped = [p for p in here if p not in state.rumors_up]
    state.rumors_up += flipped
    returned = []
    for planet in here:
        for owner in state.rumor_agents.pop(planet, []):
            agent_returns(state, owner)
            returned.append(owner)
    out = [{"event": "rumors_spread", "card": call.card, "flipped": {p: state.rumors[p] for p in flipped},
            "returned": returned}]
    if flipped:
        out.append(_remove_self(call, "discard"))
    return out


FATE_CRISIS_HANDLERS["rumors_spread"] = CrisisHandler(apply=_spread)


def place_agent_on_rumor(state: BlightedReachState, seat: int, planet: str) -> None:
    """An agent from the seat's supply onto the Rumor (refused: no Rumor, one of its agents
    already there, or no agent in supply)."""
    if planet not in state.rumors:
        raise BadParameter(f"no Rumor lies on {planet!r}")
    if seat in state.rumor_agents.get(planet, []):
        raise IllegalAction(f"{seat_name(seat)} has an agent on the Rumor at {planet} already")
    if state.players[seat].agents <= 0:
        raise CannotAfford(f"{seat_name(seat)} has no agent in supply")
    state.players[seat].agents -= 1
    state.rumor_agents.setdefault(planet, []).append(seat)


def _agent_spots(state: BlightedReachState, seat: int, need_loyal: bool) -> list[str]:
    if state.players[seat].agents <= 0:
        return []
    return [p for p in sorted(state.rumors) if seat not in state.rumor_agents.get(p, [])
            and (not need_loyal or has_loyal_pieces(state, seat, p))]


class OnRumor(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    planet: str = ""  # "" declines


@op("agent_on_rumor", params=OnRumor,
    candidates=lambda env, u: [{"planet": ""}, *({"planet": p} for p in _agent_spots(env.state, u.seat, True))])
def agent_on_rumor(env: Env, u: Use, choice: OnRumor) -> None:
    """Rumors Spread when secured: an agent on a Rumor where the securer has Loyal pieces, or none."""
    if not choice.planet:
        return
    if choice.planet not in _agent_spots(env.state, u.seat, True):
        raise IllegalAction(f"no Rumor at {choice.planet!r} with your Loyal pieces to place an agent on")
    place_agent_on_rumor(env.state, u.seat, choice.planet)
    env.emit("agent_on_rumor", seat=u.seat, card=u.card, planet=choice.planet)


# -- F1211: after stealing from the Pirate in battle ------------------------------------------------


def _raid_over(state, b) -> bool:
    from plugins.arcs.battle import ships_present

    if b.self_hit or b.intercept or b.hit or b.building_hit or b.cities:
        return False
    return not b.key or ships_present(state, b.attacker, b.system) - b.joined <= 0


@hookimpl(specname="arcs_battle_resolve")
def rumor_after_theft(ctx):
    """Once a battle's raid is over: an attacker that stole anything from the Pirate while
    Rumors of the Haven is in the booklet may place 1 agent on a Rumor without its agent."""
    state = ctx.state
    b = getattr(state, "battle", None)
    if (not _campaign(state) or b is None or state.rumor_offered or not b.stolen
            or b.defender != pirate_seat(state) or not in_booklet(state, HAVEN_LAW) or not _raid_over(state, b)):
        return None
    state.rumor_offered = True
    spots = _agent_spots(state, b.attacker, False)
    if not spots:
        return None
    options = [Action("agent_on_rumor", {"planet": p}) for p in ["", *spots]]
    from plugins.arcs.battle_flow import resolve

    ctx.push(resolve)
    ctx.ask(b.attacker, "agent_on_rumor", options, resume=theft_agent_placed)
    return True


@steps("pirate_theft_agent_placed")
def theft_agent_placed(ctx, seat, params):
    if params["planet"]:
        place_agent_on_rumor(ctx.state, seat, params["planet"])
        ctx.emit("agent_on_rumor", seat=seat, planet=params["planet"], why=HAVEN_LAW)


@hookimpl(specname="arcs_battle_begun")
def rumor_battle_begun(ctx, imperial_fresh, imperial_damaged):
    if _campaign(ctx.state) and ctx.state.rumor_offered:
        ctx.state.rumor_offered = False


# -- F1212 Share Rumor (checked and applied for `summits`) -------------------------------------------


def check_share(state: BlightedReachState, giver: int, receiver: int, planet: str) -> None:
    """Both are Rivals of the Pirate, Sharing Rumors is in the booklet, the giver's agent is
    on the Rumor and the receiver has none there and an agent in supply."""
    if not in_booklet(state, SHARING):
        raise IllegalAction("Share Rumor is a Negotiation action only with Sharing Rumors in the booklet")
    rivals = rivals_of_pirate(state)
    if giver not in rivals or receiver not in rivals:
        raise IllegalAction("only the Pirate's Rivals share Rumors")
    if planet not in state.rumors:
        raise BadParameter(f"no Rumor lies on {planet!r}")
    if giver not in state.rumor_agents.get(planet, []):
        raise BadParameter(f"{seat_name(giver)} has no agent on the Rumor at {planet}")
    if receiver in state.rumor_agents.get(planet, []):
        raise IllegalAction(f"{seat_name(receiver)} has an agent on the Rumor at {planet} already")
    if state.players[receiver].agents <= 0:
        raise CannotAfford(f"{seat_name(receiver)} has no agent in supply")


def share_spots(state: BlightedReachState, giver: int, receiver: int) -> list[str]:
    """The Rumors the giver could share with the receiver now."""
    out = []
    for planet in sorted(state.rumors):
        try:
            check_share(state, giver, receiver, planet)
        except (IllegalAction, BadParameter, CannotAfford):
            continue
        out.append(planet)
    return out
