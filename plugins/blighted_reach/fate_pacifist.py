"""The Pacifist (Fate 14, a B Fate: cards F1401-F1412): the rules its cards name that the
data cannot say.

Act II
- F1401 (setup): data: the Pacifist clears its Outrage (`clear_own_outrage`, the Partisan's
  handler), gains Witnesses and Well of Empathy; `witnesses_at_weapon_planets` puts one
  Witness token (spyglass side) at each Weapon planet on the map; `replenish_fleet` asks
  for one ship per system until 8 Loyal ships stand on the map. Its objective: at each
  chapter's end 2 spaces with no Trophies and 1 with no Captives (`COUNT_RULES`), and 1 per
  Psionic the Pacifist spends in a Prelude while Empath is declared (`_watch_prelude`,
  around every step).
- F1402 Witnesses: the Prelude's `take_witness` (a Witness at a Psionic planet flips to
  Psionic and is taken; Empath may then be declared).
- F1403 Well of Empathy: Trophies the holder takes while defending in a battle go back to
  their owners and become 1 Psionic each (`_watch_defence`, around every step).
- F1404 (Resolution): data, with `witnesses_to_psionic_supply` (completed) and
  `scrap_witnesses_on_map` (failed).
Act III
- F1405 Psionic Liaisons: the Advocate's F409 reprinted (its rules are that module's).
- F1406/F1407 Itinerant Empaths: the Crisis `least_power_fills_psionic`; when secured the op
  `fill_psionic_slots` (no stealing: only what the supply has).
- F1408 (setup): data (the booklet, the reminder under the map); its grand ambitions are
  `GOAL_RULES` here. Its first step names `empathy_for_all_in_booklet`, the rule of F1409
  and F1410, which is not registered yet: the side is refused (RuleMissing) before
  anything changes, so a Pacifist taken again for Act III stops loudly.
- Not built yet: F1409/F1410 Empathy for All (Outrage on harming at a planet of a held
  resource type), F1411 Reconcile with the Outraged (the Forgive Negotiation), the
  Witnesses' movement (F1402's first two sentences) and the Well's holding of any number
  of Psionic at 2 keys each (F1403's second sentence).
- F1412 Rebuke of the Empaths (Edict handler `rebuke_of_the_empaths`).

Witness tokens: 4 in the Fate Set (`state.witnesses` holds those on the map by system;
`state.witness_psionic` counts those turned Psionic, which are resources beyond the box's
supply from then on, carried between acts).
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from core.state import Action
from plugins.arcs import placing
from plugins.arcs.abilities import Env, Use, op
from plugins.arcs.content import box_for
from plugins.arcs.court_ops import place_ambition_marker
from plugins.arcs.setup import place_ships
from plugins.blighted_reach import fates, objectives
from plugins.blighted_reach.board import rivals
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

PACIFIST = "FATE14"
WITNESSES = "F1402"
WELL = "F1403"
WITNESS_TOKENS = 4


# -- the Witness tokens --------------------------------------------------------------------


def planets_of(box, state: BlightedReachState, resource: str) -> list[str]:
    """The planets of that type on the map, in system order."""
    return [s for s in sorted(state.systems) if box.systems.get(s) is not None and box.systems[s].type == resource]


def witnesses_in_fate_set(state: BlightedReachState) -> int:
    return WITNESS_TOKENS - sum(state.witnesses.values()) - state.witness_psionic


def witness_problems(state: BlightedReachState) -> list[str]:
    """At most the 4 Witness tokens, none negative, only on systems of the map."""
    out = []
    if state.witness_psionic < 0 or any(n <= 0 for n in state.witnesses.values()) or witnesses_in_fate_set(state) < 0:
        out.append("the Witness tokens are not 4")
    if set(state.witnesses) - set(state.systems):
        out.append("a Witness in a system not on the map")
    return out


@fates.handler("witnesses_at_weapon_planets")
def witnesses_at_weapon_planets(ctx, seat: int, card_id: str, effect) -> None:
    """F1401: one Witness at each Weapon planet on the map (as many as the 4 tokens go).
    # Reading: with 2 players a Weapon planet out of play gets none; its token stays in the
    # Fate Set."""
    state = ctx.state
    placed = []
    for system in planets_of(box_for(state), state, "weapon"):
        if witnesses_in_fate_set(state) <= 0:
            break
        state.witnesses[system] = state.witnesses.get(system, 0) + 1
        placed.append(system)
    ctx.emit("witnesses_placed", seat=seat, systems=placed, why=card_id)


def witness_psionic_joins(state: BlightedReachState, count: int) -> None:
    """Witness tokens flip to their Psionic side: Psionic tokens in the supply from now on."""
    state.witness_psionic += count
    state.supply["psionic"] = state.supply.get("psionic", 0) + count


@fates.handler("witnesses_to_psionic_supply")
def witnesses_to_psionic_supply(ctx, seat: int, card_id: str, effect) -> None:
    """F1404 completed: every Witness on the map turns Psionic and joins the resource supply."""
    state = ctx.state
    count = sum(state.witnesses.values())
    state.witnesses = {}
    witness_psionic_joins(state, count)
    ctx.emit("witnesses_to_supply", seat=seat, count=count, why=card_id)


@fates.handler("scrap_witnesses_on_map")
def scrap_witnesses_on_map(ctx, seat: int, card_id: str, effect) -> None:
    """F1404 failed: every Witness on the map leaves the campaign (back in the Fate Set)."""
    count = sum(ctx.state.witnesses.values())
    ctx.state.witnesses = {}
    ctx.emit("witnesses_scrapped", seat=seat, count=count, why=card_id)


# -- F1401 step 4: replenish the fleet -----------------------------------------------------


def loyal_ships_on_map(state: BlightedReachState, seat: int) -> int:
    return sum(here.ships_of(seat).total for here in state.systems.values())


@fates.handler("replenish_fleet")
def replenish_fleet(ctx, seat: int, card_id: str, effect) -> None:
    """Below `count` Loyal ships on the map, the seat places one ship in each of systems it
    chooses until it has `count` (or its supply or the systems run out)."""
    ctx.push(replenish_next, seat=seat, target=effect.count, used=[], why=card_id)


def replenish_options(state: BlightedReachState, seat: int, target: int, used: list) -> list[str]:
    if loyal_ships_on_map(state, seat) >= target or state.players[seat].ships <= 0:
        return []
    return [s for s in sorted(state.systems) if s not in used]


@steps("pacifist_replenish_next")
def replenish_next(ctx, seat: int, target: int, used: list, why: str):
    options = replenish_options(ctx.state, seat, target, used)
    if not options:
        return
    ctx.ask(seat, "replenish_ship", [Action("replenish_ship", {"system": s}) for s in options],
            resume=replenish_placed, target=target, used=used, why=why)


@steps("pacifist_replenish_placed")
def replenish_placed(ctx, seat, params, target: int, used: list, why: str):
    system = params["system"]
    place_ships(ctx.state, system, seat, 1)
    ctx.emit("ships_placed", seat=seat, system=system, count=1, why=why)
    ctx.push(replenish_next, seat=seat, target=target, used=[*used, system], why=why)


# -- F1402 Witnesses: the Prelude ------------------------------------------------------------


class WitnessTaken(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    system: str
    declare: bool = False


def witness_sites(env: Env, u: Use) -> list[str]:
    """The Psionic planets with one of the holder's Witnesses.
    # Reading: every Witness is the Pacifist's Loyal piece, so "a Witness you control" is
    # any of them on the map."""
    state = env.state
    return [s for s in planets_of(env.box, state, "psionic") if state.witnesses.get(s, 0) > 0]


def _may_declare(env: Env) -> bool:
    """Empath can be declared with an Available marker (as any card that declares)."""
    return bool(env.state.markers_available)


def _witness_candidates(env: Env, u: Use) -> list[dict]:
    declares = [False, True] if _may_declare(env) else [False]
    return [{"system": s, "declare": d} for s in witness_sites(env, u) for d in declares]


@op("take_witness", params=WitnessTaken, candidates=_witness_candidates,
    usable=lambda env, u: isinstance(env.state, BlightedReachState) and bool(witness_sites(env, u)))
def take_witness(env: Env, u: Use, choice: WitnessTaken) -> None:
    """The Witness flips to its Psionic side and the holder takes it as a Psionic; then
    Empath may be declared."""
    state = env.state
    if choice.system not in witness_sites(env, u):
        raise IllegalAction(f"no Witness at a Psionic planet in {choice.system!r}")
    if choice.declare and not _may_declare(env):
        raise BadParameter("no ambition marker is Available to declare Empath")
    left = state.witnesses[choice.system] - 1
    if left:
        state.witnesses[choice.system] = left
    else:
        del state.witnesses[choice.system]
    witness_psionic_joins(state, 1)
    placing.gain(state, u.seat, "psionic")
    env.emit("witness_taken", seat=u.seat, system=choice.system, card=u.card)
    if choice.declare:
        marker = place_ambition_marker(env.box, state, "empath")
        env.moment.declared = "empath"
        env.emit("ambition_declared", seat=u.seat, ambition="empath", marker=marker.id, card=u.card)


# -- the Act II objective (F1401) --------------------------------------------------------------

objectives.COUNT_RULES["no_trophies_held"] = (
    lambda box, cbox, state, seat, score, ambition: int(not state.players[seat].trophies))
objectives.COUNT_RULES["no_captives_held"] = (
    lambda box, cbox, state, seat, score, ambition: int(not state.players[seat].captives))


def empath_declared(state: BlightedReachState) -> bool:
    return bool(state.ambition_boxes.get("empath"))


def _prelude_note(state: BlightedReachState):
    turn = state.turn
    if turn is None or not turn.prelude:
        return None
    return (turn.seat, turn.aside.count("psionic"))


def _watch_prelude(ctx, noted) -> None:
    """Psionic set aside in the Prelude of the same turn since the step began, while Empath
    is declared, advance that seat's objective counting them.
    # Reading: "while Empath is declared" is read when the Psionic is spent (after the step)."""
    state = ctx.state
    if noted is None or state.turn is None or state.turn.seat != noted[0]:
        return
    spent = state.turn.aside.count("psionic") - noted[1]
    if spent > 0 and empath_declared(state) and len(state.objective_markers) == len(state.players):
        objectives.advance_on_event(box_for(state), campaign_box(), state, "psionic_spent_in_prelude_with_empath",
                                    spent, seat=noted[0])


# -- F1403 Well of Empathy: Trophies taken defending --------------------------------------------


def well_holder(state: BlightedReachState) -> int:
    return next((s for s, p in enumerate(state.players) if WELL in p.lore), -1)


def _defence_note(state: BlightedReachState):
    b = state.battle
    holder = well_holder(state)
    if b is None or holder < 0 or b.defender != holder:
        return None
    return (holder, len(state.players[holder].trophies))


def return_trophy(state: BlightedReachState, trophy) -> None:
    """A Trophy goes back to its owner's supply (the Empire's, the Blight's, the Free States')."""
    from plugins.blighted_reach.board import EMPIRE
    from plugins.blighted_reach.invariants import BLIGHT_TROPHY
    from plugins.blighted_reach.state import FREE

    if trophy.kind == BLIGHT_TROPHY:
        state.blight_supply += 1
    elif trophy.owner == EMPIRE:
        state.imperial_supply += 1
    elif trophy.owner == FREE:
        if trophy.kind == "city":
            state.free_city_supply += 1
        else:
            state.free_starport_supply += 1
    else:
        player = state.players[trophy.owner]
        if trophy.kind == "ship":
            player.ships += 1
        elif trophy.kind == "starport":
            player.starports += 1
        elif trophy.kind == "agent":
            player.agents += 1
        else:  # a city returns to the owner's board, leftmost empty city slot first
            gap = next((i for i, on in enumerate(player.cities_on_board) if not on), None)
            if gap is not None:
                player.cities_on_board[gap] = True


def _watch_defence(ctx, noted) -> None:
    """The Well's holder, defending, took Trophies in this step: each goes back to its owner
    and the holder gains 1 Psionic for it.
    # Reading: a Free proxy Trophy (BR-182) or a returned city covering slots is outside
    # what a defender's hits take (ships only), so only ships are met here in practice."""
    if noted is None:
        return
    state = ctx.state
    holder, before = noted
    taken = state.players[holder].trophies[before:]
    if not taken:
        return
    del state.players[holder].trophies[before:]
    for trophy in taken:
        return_trophy(state, trophy)
    got = sum(placing.gain(state, holder, "psionic") for _ in taken)
    ctx.emit("trophies_returned", seat=holder, count=len(taken), psionic=got, why=WELL)


def _register_watch() -> None:
    from plugins.blighted_reach.fate_steward import AROUND_STEPS

    AROUND_STEPS.append((_prelude_note, _watch_prelude))
    AROUND_STEPS.append((_defence_note, _watch_defence))


_register_watch()


# -- F1406 / F1407 Itinerant Empaths -----------------------------------------------------------


def fill_with_psionic(state: BlightedReachState, seat: int) -> int:
    """Psionic from the supply into the seat's empty resource slots (the Golems it holds
    filling theirs). Returns how many it gained."""
    from plugins.blighted_reach.fate_caretaker import free_slots

    room = max(0, free_slots(box_for(state), state, seat))
    return sum(placing.gain(state, seat, "psionic") for _ in range(room))


def least_power(state: BlightedReachState) -> int:
    """The seat with the least Power; on a tie the first of them in turn order (a reading)."""
    order = objectives.turn_order(state)
    return min(order, key=lambda s: (state.players[s].power, order.index(s)))


def _empaths_crisis(call) -> dict:
    seat = least_power(call.state)
    return {"event": "psionic_gained", "card": call.card, "seat": seat, "count": fill_with_psionic(call.state, seat)}


@op("fill_psionic_slots", usable=lambda env, u: isinstance(env.state, BlightedReachState))
def fill_psionic_slots(env: Env, u: Use, choice=None) -> None:
    """Itinerant Empaths when secured: Psionic up to the securer's empty slots."""
    got = fill_with_psionic(env.state, u.seat)
    env.emit("resources_gained", seat=u.seat, card=u.card, resources={"psionic": got}, why="secured")


def _register_crises() -> None:
    from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler

    FATE_CRISIS_HANDLERS["least_power_fills_psionic"] = CrisisHandler(apply=_empaths_crisis)


_register_crises()


# -- F1408 Demonstrate Nonviolence (the grand ambitions) -------------------------------------


def psionic_held(state: BlightedReachState, seat: int) -> int:
    """The Psionic resources the seat has in its slots.
    # Reading: the First Regent's Imperial Trust is frozen and not the player's own, so it
    # is not counted for either side."""
    return state.players[seat].resources.count("psionic")


objectives.GOAL_RULES["no_trophies_or_captives"] = (
    lambda box, cbox, state, seat: not state.players[seat].trophies and not state.players[seat].captives)
objectives.GOAL_RULES["rivals_hold_more_psionic"] = (
    lambda box, cbox, state, seat: sum(psionic_held(state, r) for r in rivals(state, seat)) > psionic_held(state, seat))


# -- F1412 Rebuke of the Empaths ----------------------------------------------------------------


def rebuke(state: BlightedReachState) -> dict:
    """With Empath declared: each player's resources of its Outraged types go back to the
    supply, then each player without Psionic Outrage gains 1 Psionic. Frozen resources (the
    Trust, resources on cards) and Guild cards are untouched."""
    out: dict = {"discarded": {}, "gained": []}
    if not empath_declared(state):
        return out
    for seat in objectives.turn_order(state):
        player = state.players[seat]
        lost = []
        for i, r in enumerate(player.resources):
            if r is not None and r in player.outrage:
                player.resources[i] = None
                state.supply[r] = state.supply.get(r, 0) + 1
                lost.append(r)
        if lost:
            out["discarded"][str(seat)] = lost
    for seat in objectives.turn_order(state):
        if "psionic" not in state.players[seat].outrage and placing.gain(state, seat, "psionic"):
            out["gained"].append(seat)
    return out


@fates.handler("rebuke_of_the_empaths")
def rebuke_of_the_empaths(ctx, seat: int, card_id: str, effect) -> None:
    done = rebuke(ctx.state)
    ctx.emit("empaths_rebuke", card=card_id, declared=empath_declared(ctx.state), **done)

