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
  Psionic and is taken; Empath may then be declared); after each of the holder's moves,
  `witnesses_follow` (the "move" window) takes Witnesses from the move's origin along to
  a system its ships ended in (for a Catapult, any of its stops).
- F1403 Well of Empathy: Trophies the holder takes while defending in a battle go back to
  their owners and become 1 Psionic each (`_watch_defence`, around every step); Psionic the
  holder could not fit in its slots stays on the card (`state.card_resources`, after each
  action), counted as the holder's, raided at 2 keys each (`arcs_raid_options`).
- F1404 (Resolution): data, with `witnesses_to_psionic_supply` (completed) and
  `scrap_witnesses_on_map` (failed).
Act III
- F1405 Psionic Liaisons: the Advocate's F409 reprinted (its rules are that module's).
- F1406/F1407 Itinerant Empaths: the Crisis `least_power_fills_psionic`; when secured the op
  `fill_psionic_slots` (no stealing: only what the supply has).
- F1408 (setup): data (Empathy for All and the two Summit/Edict cards into the booklet, the
  reminder under the map); its grand ambitions are `GOAL_RULES` here.
- F1409/F1410 Empathy for All (in the booklet): a battle's attacker holding a resource of
  the battle planet's type Provokes Outrage of it once the hits are dealt, before raiding
  (`empathy_in_battle`, on `arcs_battle_resolve`); harm outside battles by cards (Incite
  Revolt, the Rifles, the Steward's reprisals) likewise after the action (`empathy_watch`).
- F1411 Reconcile with the Outraged: the Forgive Negotiation action and its Call to Order
  form (`summits.ForgiveOutrage`, `summits.forgive`).
- F1412 Rebuke of the Empaths (Edict handler `rebuke_of_the_empaths`).

Witness tokens: 4 in the Fate Set (`state.witnesses` holds those on the map by system;
`state.witness_psionic` counts those turned Psionic, which are resources beyond the box's
supply from then on, carried between acts).
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.state import Action
from plugins.arcs import placing
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.content import box_for
from plugins.arcs.court_ops import place_ambition_marker
from plugins.arcs.setup import place_ships
from plugins.blighted_reach import card_slots, fates, objectives, ship_captives
from plugins.blighted_reach.board import rivals
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

PACIFIST = "FATE14"
WITNESSES = "F1402"
WELL = "F1403"
EMPATHY = "F1409"
WITNESS_TOKENS = 4
WELL_RAID_COST = 2

# Standing rules read where they apply (below and in `summits`), never used as an action.
standing("empathy_for_all", "forgive_negotiation")


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
    lambda box, cbox, state, seat, score, ambition: int(not ship_captives.any_captives(state, seat)))


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
    """The Psionic resources the seat has: in its slots and on its cards (the Well's, BR-322).
    # Reading: the First Regent's Imperial Trust is frozen and not the player's own, so it
    # is not counted for either side."""
    from plugins.blighted_reach.fate_magnate import on_cards

    return state.players[seat].resources.count("psionic") + on_cards(state, seat).count("psionic")


objectives.GOAL_RULES["no_trophies_or_captives"] = (
    lambda box, cbox, state, seat: not state.players[seat].trophies and not ship_captives.any_captives(state, seat))
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



# -- F1402 Witnesses moving with the holder's ships ----------------------------------------------


class WitnessesFollow(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    to: str
    count: int


def _move_facts(env: Env, u: Use) -> dict:
    from plugins.arcs.lore_ops import window

    w = window(env.state, u.seat, u.ability.when)
    return {} if w is None or f"{u.card}:{u.index}" not in w["open"] else w["facts"]


def _followers(env: Env, u: Use) -> tuple[str, int, list[str]]:
    """(origin, Witnesses there, systems the move's ships ended in) of the move just made."""
    facts = _move_facts(env, u)
    origin = facts.get("origin", "")
    return origin, env.state.witnesses.get(origin, 0), [s for s in facts.get("ended", []) if s != origin]


def _follow_candidates(env: Env, u: Use) -> list[dict]:
    origin, here, ended = _followers(env, u)
    return [{"to": s, "count": k} for s in ended for k in range(1, here + 1)]


@op("witnesses_follow", params=WitnessesFollow, candidates=_follow_candidates,
    usable=lambda env, u: isinstance(env.state, BlightedReachState) and bool(_follow_candidates(env, u)))
def witnesses_follow(env: Env, u: Use, choice: WitnessesFollow) -> None:
    """After the holder moves ships, Witnesses in the move's origin may go along to a system
    those ships ended in; a Catapult's Witnesses may stop at any system its ships stopped in.
    # Reading: a Witness moves only with ships (a Move takes at least one ship), all the
    # followers of one move to one system, once per move."""
    from plugins.arcs.lore_ops import window

    origin, here, ended = _followers(env, u)
    if choice.to not in ended:
        raise IllegalAction(f"no ship of that move ended in {choice.to!r}")
    if not 1 <= choice.count <= here:
        raise BadParameter(f"{here} Witness(es) can follow from {origin}, not {choice.count}")
    window(env.state, u.seat, u.ability.when)["open"].remove(f"{u.card}:{u.index}")
    state = env.state
    if here == choice.count:
        del state.witnesses[origin]
    else:
        state.witnesses[origin] = here - choice.count
    state.witnesses[choice.to] = state.witnesses.get(choice.to, 0) + choice.count
    env.emit("witnesses_moved", seat=u.seat, origin=origin, into=choice.to, count=choice.count, card=u.card)


# -- F1403 Well of Empathy: the Psionic it holds -----------------------------------------------


def on_the_well(state: BlightedReachState) -> int:
    return state.card_resources.get(WELL, []).count("psionic")


def _psionic_left_out(ctx, holder: int) -> int:
    """Psionic the holder's placements in this action sent back to the supply for want of room."""
    return sum(e.data.get("discarded", {}).get("psionic", 0) for e in ctx.events
               if e.type == "resources_placed" and e.data.get("seat") == holder)


def well_keeps(ctx) -> int:
    """The Psionic the Well's holder could not fit stays on the Well (out of the supply again).
    # Reading: "may hold any number" is read as the Well catching what the slots cannot
    # hold; Psionic on it is held (it counts for Empath and the Act III goal) but is in no
    # slot, so it is not spent."""
    state = ctx.state
    holder = well_holder(state)
    if holder < 0 or "clear_pieces" in state.intermission_done:
        return 0  # the Intermission has cleared the cards for the next Act: nothing stays on one
    kept = min(_psionic_left_out(ctx, holder), state.supply.get("psionic", 0))
    if kept > 0:
        state.supply["psionic"] -= kept
        state.card_resources.setdefault(WELL, []).extend(["psionic"] * kept)
        ctx.emit("resources_on_card", seat=holder, card=WELL, resources=["psionic"] * kept)
    return kept


card_slots.holds(WELL, ["psionic"])


@hookimpl(specname="arcs_raid_options")
def well_raid_options(state, thief, victim, keys):
    from plugins.arcs.outrage import guarded

    if not isinstance(state, BlightedReachState) or victim < 0 or well_holder(state) != victim:
        return []
    if keys < WELL_RAID_COST or not on_the_well(state) or guarded(box_for(state), state, victim):
        return []
    return [{"well": "psionic"}]


@hookimpl(specname="arcs_raided")
def well_raided(ctx, thief, victim, params, keys):
    state = ctx.state
    if not isinstance(state, BlightedReachState) or "well" not in params:
        return None
    if {"well": "psionic"} not in well_raid_options(state, thief, victim, keys):
        raise IllegalAction(f"no Psionic on Well of Empathy for {keys} keys")
    held = state.card_resources[WELL]
    held.remove("psionic")
    if not held:
        del state.card_resources[WELL]
    placing.receive(state, thief, "psionic")
    ctx.emit("stolen", thief=thief, victim=victim, resource="psionic", card=WELL)
    return keys - WELL_RAID_COST


# -- F1409 / F1410 Empathy for All ----------------------------------------------------------------


def empathy_in_force(state: BlightedReachState) -> bool:
    return any(EMPATHY in slot for slot in state.booklet)


def has_resource(state: BlightedReachState, seat: int, resource: str) -> bool:
    """Everything the seat has counts: its row, its cards' resources, the Trust it holds (BR-322)."""
    from plugins.blighted_reach.fate_magnate import on_cards
    from plugins.blighted_reach.trust import held_resources

    return resource in held_resources(state, seat) or resource in on_cards(state, seat)


def harm_provokes(ctx, seat: int, system: str) -> str:
    """Empathy for All: harm at a planet of a type the harmer has Provokes Outrage of that
    type. Returns the type provoked, "" for none (a gate, no such resource, the law absent)."""
    from plugins.arcs.outrage import provoke_outrage

    state = ctx.state
    if not isinstance(seat, int) or not 0 <= seat < len(state.players) or not empathy_in_force(state):
        return ""
    spec = box_for(state).systems.get(system)
    kind = spec.type if spec is not None else None
    if not kind or not has_resource(state, seat, kind):
        return ""
    provoke_outrage(box_for(state), state, seat, kind)
    ctx.emit("outrage", seat=seat, resource=kind, system=system, why=EMPATHY)
    return kind


@hookimpl(specname="arcs_battle_begun")
def empathy_battle_begun(ctx, imperial_fresh, imperial_damaged):
    """A new battle: Empathy for All has not been applied in it yet."""
    if isinstance(ctx.state, BlightedReachState) and ctx.state.empathy_battle:
        ctx.state.empathy_battle = False


@hookimpl(specname="arcs_battle_resolve", tryfirst=True)
def empathy_in_battle(ctx):
    """Once per battle, when no hit is left to deal (cities' Outrage and Ransack done) and
    before the keys: the attacker chose a defender there, a harm (BR-323).
    # Reading: every hit of a battle comes from the attacker's roll, so only the attacker
    # harms in it."""
    state = ctx.state
    b = getattr(state, "battle", None)
    if not isinstance(state, BlightedReachState) or b is None or state.empathy_battle or not empathy_in_force(state):
        return None
    if b.self_hit or b.intercept or b.hit or b.building_hit or b.cities:
        return None
    state.empathy_battle = True
    harm_provokes(ctx, b.attacker, b.system)
    return None


def _harmed_systems(event) -> list[str]:
    """The systems a card's harm outside a battle touched, by its event (none for others)."""
    data = event.data
    if event.type in ("revolt", "rifle_hits"):
        return [data.get("system", "")]
    if event.type == "navy_reprisal":
        return sorted(data.get("destroyed", {}))
    if event.type == "imperial_ships_hit":
        return sorted(data.get("hits", {}))
    return []


def empathy_watch(ctx) -> None:
    """After an action: each harm a card did outside a battle, by a seat (a Crisis names
    none), Provokes as Empathy for All says; once per seat and system."""
    done = {(e.data.get("seat"), e.data.get("system")) for e in ctx.events
            if e.type == "outrage" and e.data.get("why") == EMPATHY}
    for event in list(ctx.events):
        seat = event.data.get("seat")
        if not isinstance(seat, int):
            continue
        for system in _harmed_systems(event):
            if (seat, system) not in done:
                done.add((seat, system))
                harm_provokes(ctx, seat, system)


@hookimpl(specname="conclave_action_applied")
def pacifist_after_action(ctx, seat, action):
    """After each action: Empathy for All's harm outside battles, then the Well's keeping
    (whoever holds the card, whatever Fate they play now)."""
    state = ctx.state
    if not isinstance(state, BlightedReachState):
        return
    if empathy_in_force(state):
        empathy_watch(ctx)
    well_keeps(ctx)
