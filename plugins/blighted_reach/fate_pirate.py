"""The Pirate (FATE12, a B Fate, cards F1201-F1212): the rules its cards name that the data
cannot say.

Act II
- F1201 (setup): data gains the Pirate Hoard and Pirate Fleet; `pirate_flagship` asks the
  Pirate where its Flagship stands, grants it on the Flagship rules (`fate_flagship.grant_then`:
  its Loyal buildings on the map become Free ones; a seat with a Flagship keeps it), puts a fresh starport from its
  supply on the Tractor Beam and the Defense Array Upgrades, then replenishes the fleet: one
  ship on the gate of each cluster in play holding no Loyal ship of the Pirate (the Flagship
  is one). Its objective counts at each chapter's end (`COUNT_RULES`): the Hoard's resources,
  and the resource types the Hoard holds more of than each Rival has.
- F1202 Pirate Hoard: the Hoard's tokens are `state.card_resources["F1202"]`, so they count
  for ambitions (`fate_magnate._count_on_cards`) and Outrage never reaches them. A raid by
  the Hoard's holder may put each stolen resource on it (`hoard_slot` raid answers); a
  Rival's raid takes a Hoard token for 2 keys (`hoard` answers). The Prelude ability
  `hoard_to_board` moves one Hoard token into an empty slot, to be spent as any token.
- F1203 Pirate Fleet: its holder, attacking, may collect raid dice where the Raid Dice Limit
  bars them (`fleet_opens_raid_dice` on `arcs.battle.RAID_DICE_OPENERS`; a defending Tractor
  Beam still forbids them); such a battle is marked at its start (`fleet_raid`) and its raid
  then offers resources only, one per damaged defending ship (`fleet_raid_answers` on
  `arcs.battle_flow.RAID_ANSWER_RULES`, counting the battle's `stolen`).
- F1204 (Resolution): data (the cards), with `hoard_spent_then_kept` (completed: the Hoard's
  Fuel, Material and Relics spent for their Prelude actions, `fate_pirate_hoard`; then its
  tokens into the Pirate's empty slots, `keep_hoard_on_board`, the rest to the supply) and
  `hoard_to_supply` (failed).
Act III
- F1205 Pirate Smugglers: a Rival city may be taxed where the holder has any Loyal ship
  (`smugglers_tax` on `empire.TAX_WITHOUT_CONTROL`); such a tax without control takes no
  Captive (`smuggled_without_control`, read by the campaign's `arcs_tax_captures`).
- F1206 Call to Action: the Crisis `most_resources_draws_bottom_action` and the secured op
  `draw_bottom_action_card`; F1207 Silver-Tongues: BC20's reprint (the base ops).
- F1208-F1212, the Rumors of the Haven: `fate_pirate_rumors`.

The Flagship's own rules in play (building at it, its battles and control, its
Upgrades' benefits, keeping it into Act III) are the Flagship engine's (`plugins.flagships`).
"""
from __future__ import annotations

from collections import Counter

import msgspec

from core.errors import BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.seats import seat_name
from core.state import Action
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.battle import RAID_DICE_OPENERS, raid_dice_limit
from plugins.arcs.battle_flow import RAID_ANSWER_RULES
from plugins.arcs.content import box_for
from plugins.arcs.lore_ops import slot_raid_cost
from plugins.arcs.outrage import guarded
from plugins.arcs.placing import receive
from plugins.arcs.setup import open_slots, place_ships
from plugins.blighted_reach import fates, objectives
from plugins.blighted_reach.board import rivals
from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler
from plugins.blighted_reach.empire import TAX_WITHOUT_CONTROL
from plugins.blighted_reach.fate_flagship import flagship_sites, grant_then, seat_starports  # noqa: F401 (read here too)
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps
from plugins.blighted_reach.trust import held_resources
from plugins.flagships import rules as flagship_rules
from plugins.flagships.state import board_of

GAME_ID = "blighted-reach"
PIRATE = "FATE12"
HOARD = "F1202"
FLEET = "F1203"
SMUGGLERS = "F1205"
HOARD_RAID_COST = 2
SETUP_STARPORTS = ("tractor_beam", "defense_array")  # F1201 step 2

# Standing rules of F1203 and F1205, read where they apply (`fleet_opens_raid_dice`,
# `fleet_raid_answers`; `smugglers_tax`), never used as an action.
standing("pirate_fleet_raids", "smugglers_tax_any_loyal_ship")


def _campaign(state) -> bool:
    return getattr(state, "game", "") == GAME_ID and isinstance(state, BlightedReachState)


def hoard_holder(state: BlightedReachState) -> int:
    """The seat holding the Pirate Hoard among its Lore, -1 for nobody."""
    return next((s for s, p in enumerate(state.players) if HOARD in p.lore), -1)


def hoard(state: BlightedReachState) -> list[str]:
    return list(state.card_resources.get(HOARD, []))


def _hoard_add(state: BlightedReachState, resource: str) -> None:
    state.card_resources.setdefault(HOARD, []).append(resource)


def _hoard_take(state: BlightedReachState, resource: str) -> None:
    on = state.card_resources.get(HOARD, [])
    if resource not in on:
        raise IllegalAction(f"the Pirate Hoard holds no {resource}")
    on.remove(resource)
    if not on:
        del state.card_resources[HOARD]


# -- F1201 step 1-2: the Flagship, its two starports; step 4: the fleet replenished ------------


@fates.handler("pirate_flagship")
def pirate_flagship(ctx, seat: int, card_id: str, effect) -> None:
    ctx.push(flagship_ask, seat=seat, why=card_id)


@steps("pirate_flagship_ask")
def flagship_ask(ctx, seat: int, why: str):
    grant_then(ctx, seat, why, flagship_setup_rest)


@steps("pirate_flagship_setup_rest")
def flagship_setup_rest(ctx, seat: int, why: str):
    """Steps 2 and 4, once the Flagship stands: its two starports, then the fleet replenished."""
    placed = seat_starports(ctx.state, seat, SETUP_STARPORTS)
    ctx.emit("flagship_starports", seat=seat, upgrades=placed, why=why)
    gates = replenish_gates(ctx.state, seat)
    ctx.emit("ships_placed", seat=seat, systems=gates, count=len(gates), why=why)


def _has_loyal_ship(state: BlightedReachState, seat: int, systems: list[str]) -> bool:
    return any(state.systems[s].ships_of(seat).total or seat in flagship_rules.flagships_in(state, s)
               for s in systems)


def replenish_gates(state: BlightedReachState, seat: int) -> list[str]:
    """One ship from the supply on the gate of each cluster in play where the seat has no
    Loyal ship (its Flagship counts as one), in cluster order while the supply lasts."""
    box, out = box_for(state), []
    for cluster in box.map.clusters:
        systems = [s for s in (cluster.gate, *(p.id for p in cluster.planets)) if s in state.systems]
        if cluster.gate not in state.systems or _has_loyal_ship(state, seat, systems):
            continue
        if place_ships(state, cluster.gate, seat, 1):
            out.append(cluster.gate)
    return out


# -- F1201 objective: the Hoard's counts at each chapter's end -----------------------------------


def _resources_of(state: BlightedReachState, seat: int) -> Counter:
    """Every resource the seat has when resources are counted (BR-322: its row, the Trust for
    the First Regent, the tokens on its cards, the Hoard included)."""
    from plugins.blighted_reach.fate_magnate import on_cards

    return Counter(held_resources(state, seat) + on_cards(state, seat))


def hoard_types_ahead(state: BlightedReachState, seat: int) -> list[str]:
    """The resource types the Hoard holds more of than each Rival has (Guild cards not
    counted); with 2 players the ambition boxes' resources count as one more Rival."""
    on = Counter(hoard(state)) if seat == hoard_holder(state) else Counter()
    others = [_resources_of(state, r) for r in rivals(state, seat)]
    if len(state.players) == 2:
        others.append(Counter(r for tokens in state.ambition_tokens.values() for r in tokens))
    return sorted(r for r, n in on.items() if all(n > other[r] for other in others))


objectives.COUNT_RULES["hoard_resource"] = (
    lambda box, cbox, state, seat, score, ambition: len(hoard(state)) if seat == hoard_holder(state) else 0)
objectives.COUNT_RULES["hoard_type_ahead_of_rivals"] = (
    lambda box, cbox, state, seat, score, ambition: len(hoard_types_ahead(state, seat)))


# -- F1202 Pirate Hoard: raids into it and out of it ---------------------------------------------


def hoard_raid_options(state: BlightedReachState, thief: int, victim: int, keys: int) -> list[dict]:
    """Raid answers beside the base ones: the Hoard's holder may put a resource it steals on
    the Hoard (the base answer puts it on the board); a Rival may take a Hoard token for 2
    keys. Sworn Guardians keep the Hoard as they keep the holder's other resources."""
    box, holder = box_for(state), hoard_holder(state)
    if holder < 0:
        return []
    out: list[dict] = []
    if thief == holder and not guarded(box, state, victim):
        out += [{"hoard_slot": i} for i, r in enumerate(state.players[victim].resources)
                if r is not None and slot_raid_cost(box, state, victim, i) <= keys]
    if victim == holder and keys >= HOARD_RAID_COST and not guarded(box, state, victim):
        out += [{"hoard": r} for r in sorted(set(hoard(state)))]
    return out


@hookimpl(specname="arcs_raid_options")
def pirate_raid_options(state, thief, victim, keys):
    if not _campaign(state):
        return []
    return hoard_raid_options(state, thief, victim, keys)


@hookimpl(specname="arcs_raided")
def pirate_raided(ctx, thief, victim, params, keys):
    state = ctx.state
    if not _campaign(state) or not ({"hoard_slot", "hoard"} & set(params)):
        return None
    if params not in hoard_raid_options(state, thief, victim, keys):
        raise IllegalAction(f"that raid answer {params} is not open to {seat_name(thief)}")
    if "hoard_slot" in params:
        slot = params["hoard_slot"]
        resource = state.players[victim].resources[slot]
        state.players[victim].resources[slot] = None  # ARCS-210: the victim rearranges nothing
        _hoard_add(state, resource)
        ctx.emit("stolen", thief=thief, victim=victim, resource=resource, into="hoard")
        return keys - slot_raid_cost(box_for(state), state, victim, slot)
    resource = params["hoard"]
    _hoard_take(state, resource)
    receive(state, thief, resource)  # the thief places it (ARCS-202, ARCS-209)
    ctx.emit("stolen", thief=thief, victim=victim, resource=resource, source="hoard")
    return keys - HOARD_RAID_COST


class FromHoard(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    resource: str
    slot: int


def _to_board_candidates(env: Env, u: Use) -> list[dict]:
    state = env.state
    player = state.players[u.seat]
    empty = [i for i in open_slots(env.box, player) if player.resources[i] is None]
    return [{"resource": r, "slot": i} for r in sorted(set(hoard(state))) for i in empty[:1]]


@op("hoard_to_board", params=FromHoard, candidates=_to_board_candidates,
    usable=lambda env, u: bool(_to_board_candidates(env, u)))
def do_hoard_to_board(env: Env, u: Use, choice: FromHoard) -> None:
    """The Hoard's tokens may be spent: one is moved into an empty open slot of the holder's
    board, where the base rules spend it (its Prelude action) like any token.
    # Reading: spending straight off the card has no place in the base spending rules (they
    # pay from a slot), so the token first comes onto the board, in the Prelude."""
    state = env.state
    player = state.players[u.seat]
    if choice.resource not in hoard(state):
        raise IllegalAction(f"the Pirate Hoard holds no {choice.resource!r}")
    if choice.slot not in open_slots(env.box, player) or player.resources[choice.slot] is not None:
        raise BadParameter(f"slot {choice.slot} is not an empty open slot")
    _hoard_take(state, choice.resource)
    player.resources[choice.slot] = choice.resource
    env.emit("hoard_to_board", seat=u.seat, resource=choice.resource, slot=choice.slot)


# -- F1203 Pirate Fleet: raid dice with no defending building, then resources only ---------------


def _holds_fleet(state, seat: int) -> bool:
    return 0 <= seat < len(state.players) and FLEET in state.players[seat].guild


def fleet_opens_raid_dice(state, attacker: int, system: str, defender: int) -> bool:
    """For `arcs.battle.RAID_DICE_OPENERS`: the Fleet's holder, attacking, may collect raid
    dice though the defender has no building nor Flagship there. A defending Flagship with a
    Tractor Beam still forbids them (that Upgrade bars raid dice outright, BR-303).
    # Reading: only a seat defends with resources to steal, so Free and Imperial defenders
    # stay under the base limit."""
    if not _campaign(state) or not _holds_fleet(state, attacker) or not 0 <= defender < len(state.players):
        return False
    ship = board_of(state, defender)
    return not (ship is not None and ship.system == system and flagship_rules.has_upgrade(state, defender, "tractor_beam"))


RESOURCE_ANSWERS = frozenset({"slot", "hoard_slot", "hoard", "well"})  # raid answers that take a resource


def fleet_raid_answers(state, battle, answers: list) -> list:
    """For `arcs.battle_flow.RAID_ANSWER_RULES`: in a raid whose dice only the Fleet allowed,
    only resources may be stolen, one per damaged defending ship (counted when the raid is
    answered, after the hits)."""
    if not _campaign(state) or not state.fleet_raid:
        return answers
    if battle.stolen >= state.systems[battle.system].ships_of(battle.defender).damaged:
        return []
    return [a for a in answers if set(a.params) <= RESOURCE_ANSWERS and a.params]


@hookimpl(specname="arcs_battle_begun")
def fleet_battle_begun(ctx, imperial_fresh, imperial_damaged):
    """A battle begins: it is a Fleet raid if its attacker holds Pirate Fleet and the Raid Dice
    Limit alone would bar raid dice against this defender (read now, before buildings fall).
    # Reading: keys come only from raid dice, so the mark is harmless when none are collected."""
    state = ctx.state
    if not _campaign(state):
        return
    b = state.battle
    state.fleet_raid = (_holds_fleet(state, b.attacker) and 0 <= b.defender < len(state.players)
                        and not raid_dice_limit(state, b.system, b.defender))


for _registry, _rule in ((RAID_DICE_OPENERS, fleet_opens_raid_dice), (RAID_ANSWER_RULES, fleet_raid_answers)):
    if _rule not in _registry:
        _registry.append(_rule)


# -- F1204 the Resolution -------------------------------------------------------------------------


def _hoard_to_supply(state: BlightedReachState) -> list[str]:
    back = state.card_resources.pop(HOARD, [])
    for r in back:
        state.supply[r] = state.supply.get(r, 0) + 1
    return back


def keep_hoard_on_board(ctx, seat: int, card_id: str) -> None:
    """Completed, after the spends (`fate_pirate_hoard`): the Hoard's tokens go into the
    Pirate's empty open slots, left to right, as many as fit; the rest return to the supply.
    # Reading: "may place any" is taken as every token that fits (a token in a slot is
    # never worse than one in the supply between Acts), so the Intermission asks nothing."""
    state = ctx.state
    player = state.players[seat]
    kept = []
    for slot in [i for i in open_slots(box_for(state), player) if player.resources[i] is None]:
        left = hoard(state)
        if not left:
            break
        _hoard_take(state, left[0])
        player.resources[slot] = left[0]
        kept.append(left[0])
    ctx.emit("hoard_resolved", seat=seat, kept=kept, returned=_hoard_to_supply(state), why=card_id)


@fates.handler("hoard_to_supply")
def hoard_back_to_supply(ctx, seat: int, card_id: str, effect) -> None:
    """Failed: every Hoard token returns to the supply."""
    ctx.emit("hoard_resolved", seat=seat, kept=[], returned=_hoard_to_supply(ctx.state), why=card_id)


# -- F1205 Pirate Smugglers: taxing Rival cities with any Loyal ship ----------------------------------


def smugglers_tax(state, seat: int, system: str, building: int) -> bool:
    """For `empire.TAX_WITHOUT_CONTROL`: the Smugglers' holder may tax a Rival's city in a
    system where it has a Loyal ship (its Flagship is one), control or not. The Truce Law
    and once a turn per city still apply (the campaign check reads them apart)."""
    if not _campaign(state) or SMUGGLERS not in state.players[seat].guild:
        return False
    here = state.systems.get(system)
    if here is None or not 0 <= building < len(here.buildings):
        return False
    owner = here.buildings[building].owner
    return (0 <= owner < len(state.players) and owner != seat and here.buildings[building].kind == "city"
            and _has_loyal_ship(state, seat, [system]))


def smuggled_without_control(state, seat: int, system: str, building: int) -> bool:
    """This tax stands by the Smugglers alone (the seat does not control the system): it
    captures no agent."""
    from plugins.blighted_reach.content import default_box as campaign_box
    from plugins.blighted_reach.empire import controls_on_turn, laws_ignored

    if not smugglers_tax(state, seat, system, building):
        return False
    return not controls_on_turn(state, seat, system, "presence" in laws_ignored(campaign_box(), state, seat))


if smugglers_tax not in TAX_WITHOUT_CONTROL:
    TAX_WITHOUT_CONTROL.append(smugglers_tax)


# -- F1206 Call to Action ---------------------------------------------------------------------------


def draw_bottom_action(state: BlightedReachState, seat: int) -> str:
    """The bottom card of the action discard pile into the seat's hand ("" when it is empty)."""
    if not state.action_discard:
        return ""
    card = state.action_discard.pop(0)
    state.hands[seat].append(card)
    return card


def most_resources(state: BlightedReachState) -> int:
    """The seat with strictly the most resources (BR-322's count), -1 on a tie.
    # Reading: a tie for the most names nobody, so nobody draws."""
    counts = [sum(_resources_of(state, s).values()) for s in range(len(state.players))]
    best = max(counts, default=0)
    return counts.index(best) if counts.count(best) == 1 else -1


def _call_to_action_crisis(call) -> dict:
    state = call.state
    seat = most_resources(state)
    card = draw_bottom_action(state, seat) if seat >= 0 else ""
    public = {"card": call.card, "seat": seat}  # the card drawn is the drawer's alone (ARCS-281)
    return {"event": "bottom_action_drawn", **public, "drawn": card, "private_to": [seat] if seat >= 0 else None,
            "public_part": public if seat >= 0 else None}


FATE_CRISIS_HANDLERS["most_resources_draws_bottom_action"] = CrisisHandler(apply=_call_to_action_crisis)


class Nothing(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


@op("draw_bottom_action_card", params=Nothing, candidates=lambda env, u: [{}])
def do_draw_bottom_action(env: Env, u: Use, choice: Nothing) -> None:
    """Call to Action when secured: its securer draws the action discard pile's bottom card."""
    card = draw_bottom_action(env.state, u.seat)
    env.emit("bottom_action_drawn", to=[u.seat], public={"seat": u.seat}, seat=u.seat, drawn=card)
