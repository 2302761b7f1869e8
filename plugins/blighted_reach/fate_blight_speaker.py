"""The Blight Speaker (Fate 13, a B Fate: cards F1301-F1313): the rules its cards name that
the data cannot say.

Act II
- F1301 (setup): data gains Spore Ships; `scrap_ships_then_replenish` asks the seat for 2
  Loyal ships to scrap (each from its supply or a system of its choice, a damaged one there
  first), out of the campaign (`state.scrapped_ships`, carried between acts), then fills
  the fleet to 8 Loyal ships on the map as the Pacifist's step does (one ship per chosen
  system). The scrapping comes first: one handler keeps the printed order of the two steps.
  Its objective: per ambition won, 1 space per Blight in systems with the seat's Loyal ships
  (`COUNT_RULES["blight_with_loyal_ships"]`); 1 space per Blight placed by Spawn.
- F1302 Spore Ships: the holder's Catapult moves go on through Blighted gates
  (`blight.CATAPULT_PAST_BLIGHT`); Spawn, a Build: a fresh Blight in a system the holder
  controls is damaged and one damaged Blight is placed beside it (op `spawn_blight`).
- F1303 (Resolution): data only.
Act III
- F1304 Blight Fury: Move Blight (a Move: Blight from a system the holder controls to an
  adjacent one, never a Catapult), Repair Blight (a Repair: one damaged Blight there turns
  fresh), Anger (a Battle: the number die is rolled, then the holder may spend Psionic to
  turn it 1 per Psionic, wrapping 6 and 1; every system of that cluster has a Blight Crisis).
- F1305 Blight Hunters: its holder's attacks damage or destroy a Blight with 1 hit a step
  (`blight.TOUGHNESS_RULES`).
- F1306 Blight Reapers: Harvest, a Tax: a damaged Blight in a system the holder controls
  goes back to its supply (no Trophy) and the holder gains a resource of that planet's type
  (any type at a gate).
- F1307-F1309 Blight Purge: the Crisis gives each player 2 Power per Blight Trophy; when
  secured, the securer gains as much for theirs and every Rival's Blight Trophy goes back to
  the Blight supply.
- F1310 Blight Panic: the Crisis makes each player, in turn order, return one of its agents
  from the Court per Blight in systems with its Loyal buildings (they choose which cards);
  when secured, every damaged Blight of one cluster with the securer's Loyal pieces is
  destroyed, taken as Trophies (no declining: the card says no "may").
- F1311 Blight Looms: Blight Looms (CC15) reprinted; its rules are the campaign Court's.
- F1312 (setup): data gains Blight Hunger; the grand ambitions are `GOAL_RULES` here.
- F1313 Blight Hunger: ships (anyone's, Imperial too) destroyed by a Blight Crisis go onto
  it (`blight.AFTER_CRISIS`, `state.hunger`) while someone holds it; they count for its
  holder's second grand ambition and go back to their supplies at the chapter's clean-up,
  after the grand ambitions were scored.

A Flagship (the `flagships` rules) counts as Loyal ships for F1301's objective and beside the
Loyal buildings for F1310's Blight Panic.
"""
from __future__ import annotations

from itertools import combinations_with_replacement

import msgspec

from core.errors import BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.seats import seat_name
from core.state import Action
from plugins.arcs import placing
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.content import box_for
from plugins.arcs.turn import reach_of
from plugins.blighted_reach import blight as bl
from plugins.blighted_reach import fates, objectives
from plugins.blighted_reach.board import EMPIRE, blight, controls_on_turn, rivals
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.fate_pacifist import replenish_next
from plugins.blighted_reach.setup import chance_roll, cluster_systems
from plugins.blighted_reach.state import BlightedReachState, Pieces
from plugins.blighted_reach.tables import steps
from plugins.flagships.state import flagship_system

SPEAKER = "FATE13"
SPORE_SHIPS = "F1302"
FURY = "F1304"
HUNTERS = "F1305"
REAPERS = "F1306"
HUNGER = "F1313"
SCRAPPED = 2          # F1301: Loyal ships scrapped at the Act II setup
PURGE_POWER = 2       # F1307: Power per Blight Trophy
RESOURCES = ("material", "fuel", "weapon", "relic", "psionic")

# Standing rules read where they apply (the registries below), never used as an action.
standing("catapult_past_blight", "blight_hunters", "blight_hunger")


def _campaign(state) -> bool:
    return isinstance(state, BlightedReachState)


def holds(state: BlightedReachState, seat: int, card: str) -> bool:
    return 0 <= seat < len(state.players) and (card in state.players[seat].guild or card in state.players[seat].lore)


def holder_of(state: BlightedReachState, card: str) -> int:
    return next((s for s in range(len(state.players)) if holds(state, s, card)), -1)


def ships_elsewhere(state: BlightedReachState) -> list[tuple[int, str]]:
    """(owner, "ship") for each Loyal ship off the map and out of its supply: scrapped
    (F1301) or on Blight Hunger (F1313), for the invariants' piece count."""
    return [(owner, "ship") for owner in (*state.scrapped_ships, *state.hunger) if owner >= 0]


# -- F1301: scrap 2 Loyal ships, then replenish the fleet -------------------------------------


def scrap_options(state: BlightedReachState, seat: int) -> list[dict]:
    """Where a ship to scrap may come from: the supply, or a system with the seat's ships."""
    out = [{"where": "supply"}] if state.players[seat].ships > 0 else []
    return out + [{"where": s} for s in sorted(state.systems) if state.systems[s].ships_of(seat).total]


def scrap_ship(state: BlightedReachState, seat: int, where: str) -> None:
    """One Loyal ship out of the campaign. Reading: from a system, a damaged one goes first
    (the card leaves the choice of ship open; the damaged one is the one a player gives up)."""
    if where == "supply":
        state.players[seat].ships -= 1
    else:
        mine = state.systems[where].ships[seat]
        if mine.damaged:
            mine.damaged -= 1
        else:
            mine.fresh -= 1
    state.scrapped_ships.append(seat)


@fates.handler("scrap_ships_then_replenish")
def scrap_ships_then_replenish(ctx, seat: int, card_id: str, effect) -> None:
    """F1301 steps 2 and 3: 2 ships scrapped, then the fleet replenished to `count`."""
    ctx.push(scrap_next, seat=seat, left=SCRAPPED, target=effect.count, why=card_id)


@steps("speaker_scrap_next")
def scrap_next(ctx, seat: int, left: int, target: int, why: str):
    options = scrap_options(ctx.state, seat) if left > 0 else []
    if not options:
        ctx.push(replenish_next, seat=seat, target=target, used=[], why=why)
        return
    ctx.ask(seat, "scrap_ship", [Action("scrap_ship", o) for o in options], resume=scrap_chosen,
            left=left, target=target, why=why)


@steps("speaker_scrap_chosen")
def scrap_chosen(ctx, seat, params, left: int, target: int, why: str):
    scrap_ship(ctx.state, seat, params["where"])
    ctx.emit("ship_scrapped", seat=seat, where=params["where"], why=why)
    ctx.push(scrap_next, seat=seat, left=left - 1, target=target, why=why)


# -- F1301: the Act II objective --------------------------------------------------------------


def blight_with_loyal_ships(state: BlightedReachState, seat: int) -> int:
    """The Blight tokens in systems where the seat has Loyal ships, its Flagship among them
    (a fresh Loyal ship, BR-267)."""
    flagship = flagship_system(state, seat)
    return sum(blight(state, s).total for s, here in state.systems.items()
               if here.ships_of(seat).total or s == flagship)


objectives.COUNT_RULES["blight_with_loyal_ships"] = (
    lambda box, cbox, state, seat, score, ambition: blight_with_loyal_ships(state, seat))


def _objective_event(state: BlightedReachState, seat: int, per: str, count: int) -> None:
    if count > 0 and len(state.objective_markers) == len(state.players):
        objectives.advance_on_event(box_for(state), campaign_box(), state, per, count, seat=seat)


# -- F1302 Spore Ships ----------------------------------------------------------------------------

bl.CATAPULT_PAST_BLIGHT.append(lambda state, seat: _campaign(state) and holds(state, seat, SPORE_SHIPS))


class AtSystem(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    system: str


def blight_left(state: BlightedReachState) -> bool:
    """A Blight can still be placed (from the supply, else from Trophies, BR-238)."""
    return state.blight_supply > 0 or any(t.kind == "blight" for p in state.players for t in p.trophies)


def controlled_with_blight(state: BlightedReachState, seat: int, side: str) -> list[str]:
    """Systems the seat controls (on its turn) holding Blight of that side ("fresh",
    "damaged", or "any"). Reading: "Blight you control" is Blight in a system you control."""
    out = []
    for system in sorted(state.blight):
        here = blight(state, system)
        count = here.total if side == "any" else getattr(here, side)
        if count > 0 and system in state.systems and controls_on_turn(state, seat, system):
            out.append(system)
    return out


def spawn_sites(env: Env, u: Use) -> list[str]:
    return controlled_with_blight(env.state, u.seat, "fresh") if blight_left(env.state) else []


@op("spawn_blight", params=AtSystem, candidates=lambda env, u: [{"system": s} for s in spawn_sites(env, u)],
    usable=lambda env, u: _campaign(env.state) and bool(spawn_sites(env, u)))
def spawn_blight(env: Env, u: Use, choice: AtSystem) -> None:
    """Spawn: the fresh Blight is damaged, one damaged Blight joins it; the placement
    advances the Blight Speaker's objective."""
    state = env.state
    if choice.system not in spawn_sites(env, u):
        raise IllegalAction(f"no fresh Blight in {choice.system!r} under your control")
    here = blight(state, choice.system)
    state.blight[choice.system] = Pieces(fresh=here.fresh - 1, damaged=here.damaged + 1)
    placed = bl.place_blight(state, choice.system, damaged=True)
    env.emit("blight_spawned", seat=u.seat, card=u.card, system=choice.system, placed=placed)
    _objective_event(state, u.seat, "spore_blight_placed", int(placed))


# -- F1304 Blight Fury ----------------------------------------------------------------------------


class BlightMove(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    origin: str
    to: str
    fresh: int = 0
    damaged: int = 0


def _move_candidates(env: Env, u: Use) -> list[dict]:
    reach = reach_of(env.box, env.state)
    out = []
    for origin in controlled_with_blight(env.state, u.seat, "any"):
        here = blight(env.state, origin)
        for to in sorted(reach.neighbours.get(origin, ())):
            if to not in env.state.systems:
                continue
            out += [{"origin": origin, "to": to, "fresh": f, "damaged": d}
                    for f in range(here.fresh + 1) for d in range(here.damaged + 1) if f + d]
    return out


@op("move_blight", params=BlightMove, candidates=_move_candidates,
    usable=lambda env, u: _campaign(env.state) and bool(controlled_with_blight(env.state, u.seat, "any")))
def move_blight(env: Env, u: Use, choice: BlightMove) -> None:
    """A Move of Blight instead of ships: from a system the holder controls to an adjacent
    system. Reading: one step, as a Move without a Catapult; Blight and ships do not move
    together in one Move."""
    state = env.state
    if choice.origin not in controlled_with_blight(state, u.seat, "any"):
        raise IllegalAction(f"no Blight under your control in {choice.origin!r}")
    if choice.to not in state.systems or not reach_of(env.box, state).adjacent(choice.origin, choice.to):
        raise IllegalAction(f"{choice.to!r} is not adjacent to {choice.origin!r}")
    here = blight(state, choice.origin)
    if choice.fresh < 0 or choice.damaged < 0 or not choice.fresh + choice.damaged \
            or choice.fresh > here.fresh or choice.damaged > here.damaged:
        raise BadParameter(f"{choice.origin} holds {here.fresh} fresh and {here.damaged} damaged Blight")
    there = blight(state, choice.to)
    bl._set(state, choice.origin, Pieces(fresh=here.fresh - choice.fresh, damaged=here.damaged - choice.damaged))
    bl._set(state, choice.to, Pieces(fresh=there.fresh + choice.fresh, damaged=there.damaged + choice.damaged))
    env.emit("blight_moved", seat=u.seat, card=u.card, origin=choice.origin, into=choice.to,
             fresh=choice.fresh, damaged=choice.damaged)


@op("repair_blight", params=AtSystem,
    candidates=lambda env, u: [{"system": s} for s in controlled_with_blight(env.state, u.seat, "damaged")],
    usable=lambda env, u: _campaign(env.state) and bool(controlled_with_blight(env.state, u.seat, "damaged")))
def repair_blight(env: Env, u: Use, choice: AtSystem) -> None:
    """A Repair of one damaged Blight in a system the holder controls."""
    state = env.state
    if choice.system not in controlled_with_blight(state, u.seat, "damaged"):
        raise IllegalAction(f"no damaged Blight under your control in {choice.system!r}")
    here = blight(state, choice.system)
    state.blight[choice.system] = Pieces(fresh=here.fresh + 1, damaged=here.damaged - 1)
    env.emit("blight_repaired", seat=u.seat, card=u.card, systems=[choice.system])


def psionic_slots(state: BlightedReachState, seat: int) -> list[int]:
    return [i for i, r in enumerate(state.players[seat].resources) if r == "psionic"]


def turned(faces: list[int], rolled: int, shift: int) -> int:
    """The number die's face `shift` steps from `rolled`, wrapping past the ends (6 to 1)."""
    ordered = sorted(faces)
    return ordered[(ordered.index(rolled) + shift) % len(ordered)]


@op("anger", usable=lambda env, u: _campaign(env.state))
def anger(env: Env, u: Use, choice=None) -> None:
    """Anger: the number die is rolled; then the holder chooses how far to turn it, 1 per
    Psionic spent (`anger_turned`)."""
    ctx = env.chance
    if ctx is None:  # a trial of the action (its legality): the die is rolled only for real
        return
    rolled = int(chance_roll(ctx, "anger")("number", list(campaign_box().box.number_die)))
    env.emit("anger_rolled", seat=u.seat, card=u.card, number=rolled)
    ctx.push(anger_ask, seat=u.seat, rolled=rolled)


@steps("speaker_anger_ask")
def anger_ask(ctx, seat: int, rolled: int):
    most = len(psionic_slots(ctx.state, seat))
    options = [Action("anger_turn", {"shift": k}) for k in range(-most, most + 1)]
    ctx.ask(seat, "anger_turn", options, resume=anger_turned, rolled=rolled)


@steps("speaker_anger_turned")
def anger_turned(ctx, seat, params, rolled: int):
    """|shift| Psionic go back to the supply; each system of the cluster shown has a Blight
    Crisis (Imperial Protectors still sparing the Empire's systems)."""
    from plugins.blighted_reach.event_flow import announce

    state = ctx.state
    shift = int(params["shift"])
    for slot in psionic_slots(state, seat)[:abs(shift)]:
        state.players[seat].resources[slot] = None
        state.supply["psionic"] = state.supply.get("psionic", 0) + 1
    cluster = turned(list(campaign_box().box.number_die), rolled, shift)
    ctx.emit("anger", seat=seat, card=FURY, rolled=rolled, spent=abs(shift), cluster=cluster)
    box, cbox = box_for(state), campaign_box()
    systems = [s for s in cluster_systems(box, cluster) if s in state.systems and blight(state, s).total
               and not bl.crisis_exempt(cbox, state, s)]
    announce(ctx, [{"event": "blight_crisis", **bl.blight_crisis(state, s)} for s in systems])


# -- F1305 Blight Hunters -----------------------------------------------------------------------

bl.TOUGHNESS_RULES.append(lambda state, seat: 1 if _campaign(state) and holds(state, seat, HUNTERS) else None)


# -- F1306 Blight Reapers -----------------------------------------------------------------------


class Harvest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    system: str
    resource: str


def _harvest_kinds(env: Env, system: str) -> tuple[str, ...]:
    spec = env.box.systems.get(system)
    return RESOURCES if spec is None else (spec.type,)


def _harvest_candidates(env: Env, u: Use) -> list[dict]:
    return [{"system": s, "resource": r} for s in controlled_with_blight(env.state, u.seat, "damaged")
            for r in _harvest_kinds(env, s)]


@op("harvest_blight", params=Harvest, candidates=_harvest_candidates,
    usable=lambda env, u: _campaign(env.state) and bool(_harvest_candidates(env, u)))
def harvest_blight(env: Env, u: Use, choice: Harvest) -> None:
    """Harvest: the damaged Blight goes back to its supply, not into Trophies; the holder
    gains 1 resource of the planet's type, or of the type it names at a gate (none when that
    supply is empty)."""
    state = env.state
    if choice.system not in controlled_with_blight(state, u.seat, "damaged"):
        raise IllegalAction(f"no damaged Blight under your control in {choice.system!r}")
    if choice.resource not in _harvest_kinds(env, choice.system):
        raise BadParameter(f"Harvest in {choice.system} gains {'/'.join(_harvest_kinds(env, choice.system))}")
    here = blight(state, choice.system)
    bl._set(state, choice.system, Pieces(fresh=here.fresh, damaged=here.damaged - 1))
    state.blight_supply += 1
    gained = placing.gain(state, u.seat, choice.resource)
    env.emit("blight_harvested", seat=u.seat, card=u.card, system=choice.system,
             resource=choice.resource if gained else "")


# -- F1307 / F1308 / F1309 Blight Purge -------------------------------------------------------------


def _purge_crisis(call) -> dict:
    state = call.state
    gains = {str(s): PURGE_POWER * bl.blight_trophies(state, s) for s in objectives.turn_order(state)}
    for seat, power in gains.items():
        state.players[int(seat)].power += power
    return {"event": "power_gained", "card": call.card, "power": {s: p for s, p in gains.items() if p}}


@op("purge_blight_trophies", usable=lambda env, u: _campaign(env.state))
def purge_blight_trophies(env: Env, u: Use, choice=None) -> None:
    """Blight Purge when secured: 2 Power per Blight Trophy of the securer's; every Rival's
    Blight Trophy back to the Blight supply."""
    state = env.state
    power = PURGE_POWER * bl.blight_trophies(state, u.seat)
    state.players[u.seat].power += power
    back = 0
    for rival in rivals(state, u.seat):
        player = state.players[rival]
        kept = [t for t in player.trophies if t.kind != "blight"]
        back += len(player.trophies) - len(kept)
        player.trophies = kept
    state.blight_supply += back
    env.emit("blight_purged", seat=u.seat, card=u.card, power=power, returned=back)


# -- F1310 Blight Panic -------------------------------------------------------------------------------


def panic_owed(state: BlightedReachState, seat: int) -> int:
    """Blight in systems with the seat's Loyal buildings or its Flagship, capped by its agents
    in the Court."""
    flagship = flagship_system(state, seat)
    blighted = sum(blight(state, s).total for s, here in state.systems.items()
                   if s == flagship or any(b.owner == seat for b in here.buildings))
    in_court = sum(agents[seat] for card, agents in state.court_agents.items() if seat < len(agents))
    return min(blighted, in_court)


def panic_options(state: BlightedReachState, seat: int) -> list[dict]:
    """Which Court cards the seat takes its owed agents from (a card once per agent there)."""
    owed = panic_owed(state, seat)
    cards = sorted(c for c, agents in state.court_agents.items() if seat < len(agents) and agents[seat] > 0)
    out = []
    for pick in combinations_with_replacement(cards, owed):
        if all(pick.count(c) <= state.court_agents[c][seat] for c in set(pick)):
            out.append({"cards": list(pick)})
    return out


def _panic_decisions(call) -> list:
    from plugins.blighted_reach.crises import Decision

    return [Decision(seat, "blight_panic", call.card, panic_options(call.state, seat))
            for seat in objectives.turn_order(call.state) if panic_owed(call.state, seat)]


def _panic_check(call) -> None:
    for d in _panic_decisions(call):
        answer = call.answers.get(d.seat)
        if answer is None or {"cards": sorted(answer.get("cards", []))} not in d.options:
            raise BadParameter(f"{seat_name(d.seat)} must return {panic_owed(call.state, d.seat)} agent(s) "
                               f"from Court cards holding them")


def _panic_apply(call) -> dict:
    state = call.state
    returned: dict[str, list[str]] = {}
    for d in _panic_decisions(call):
        for card in call.answers[d.seat]["cards"]:
            state.court_agents[card][d.seat] -= 1
            state.players[d.seat].agents += 1
        returned[str(d.seat)] = list(call.answers[d.seat]["cards"])
    return {"event": "agents_returned", "card": call.card, "returned": returned}


class InCluster(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    cluster: int


def _panic_clusters(env: Env, u: Use) -> list[dict]:
    return [o for o in bl.options_destroy_damaged_blight(env.box, env.state, u.seat) if o]


@op("destroy_damaged_blight_in_a_cluster", params=InCluster, candidates=_panic_clusters,
    usable=lambda env, u: _campaign(env.state) and bool(_panic_clusters(env, u)))
def destroy_damaged_blight_in_a_cluster(env: Env, u: Use, choice: InCluster) -> None:
    """Blight Panic when secured: every damaged Blight of a cluster with the securer's Loyal
    pieces destroyed, as Trophies (no declining, unlike Blight Looms)."""
    if {"cluster": choice.cluster} not in _panic_clusters(env, u):
        raise IllegalAction(f"no damaged Blight in cluster {choice.cluster} where you have Loyal pieces")
    taken = bl.destroy_damaged_blight_in_cluster(env.box, env.state, u.seat, choice.cluster)
    env.emit("blight_destroyed", seat=u.seat, card=u.card, cluster=choice.cluster, destroyed=taken)


def _register_crises() -> None:
    from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler

    FATE_CRISIS_HANDLERS["power_per_blight_trophy"] = CrisisHandler(apply=_purge_crisis)
    FATE_CRISIS_HANDLERS["blight_panic_returns_agents"] = CrisisHandler(
        apply=_panic_apply, decisions=_panic_decisions, check=_panic_check)


_register_crises()


# -- F1312 Gorge the Blight with Bodies (the grand ambitions) -------------------------------------


def rival_wins_warlord(state: BlightedReachState, seat: int) -> bool:
    """A Rival of the seat would win Warlord as it is scored now (declared, sole first)."""
    if not state.ambition_boxes.get("warlord"):
        return False
    winner = objectives.sole_first(objectives.standings(box_for(state), campaign_box(), state, "warlord"))
    return winner in rivals(state, seat)


objectives.GOAL_RULES["no_rival_wins_warlord"] = lambda box, cbox, state, seat: not rival_wins_warlord(state, seat)
objectives.GOAL_RULES["blight_hunger_above_chapter"] = (
    lambda box, cbox, state, seat: holds(state, seat, HUNGER) and len(state.hunger) > state.chapter)


# -- F1313 Blight Hunger ------------------------------------------------------------------------------


def feed_hunger(state: BlightedReachState, result: dict) -> None:
    """After one system's Blight Crisis: the ships it destroyed (already in their supplies)
    go onto Blight Hunger while anyone holds it."""
    if not _campaign(state) or holder_of(state, HUNGER) < 0:
        return
    fed = 0
    imperial = (result.get("imperial") or {}).get("destroyed", 0)
    state.imperial_supply -= imperial
    state.hunger.extend([EMPIRE] * imperial)
    fed += imperial
    for seat, hit in result.get("players", {}).items():
        gone = hit.get("destroyed", 0)
        state.players[seat].ships -= gone
        state.hunger.extend([seat] * gone)
        fed += gone
    result["hunger"] = fed


bl.AFTER_CRISIS.append(feed_hunger)


@hookimpl(specname="arcs_chapter_clean_up")
def hunger_returns(ctx, scored):
    """After scoring (the grand ambitions counted them): every piece on Blight Hunger goes
    back to its owner's supply."""
    state = ctx.state
    if not _campaign(state) or not state.hunger:
        return
    for owner in state.hunger:
        if owner == EMPIRE:
            state.imperial_supply += 1
        else:
            state.players[owner].ships += 1
    ctx.emit("hunger_returned", card=HUNGER, count=len(state.hunger))
    state.hunger = []
