"""What the 14 base Lore cards (L01-L14) and the 8 base Leaders (LEAD01-08) do.

Two kinds of effect live here:

* abilities a player *uses* (new actions, and choices offered at a trigger point) are ops
  registered in `abilities.OPS`; the flow offers them through `arcs.use_ability`;
* standing rules (a die more, a refusal, a changed score) are pure helpers that the rule
  functions of actions.py / battle.py / scoring.py call where they apply the rule.

A trigger point the flow reaches (a declaration, a Copy pip spent on battle, the end of a
battle, a move) opens a *window* for the seat (`open_window`); each held ability with that
trigger may then be used once, until the flow closes the window. Once-per-turn limits and
the cities taxed this turn are kept per turn (`turn`), cleared by `clear_turn` and renewed
whenever the chapter or round changes. Both live in this module's part of the state, so a
saved table carries them.
"""
from __future__ import annotations

from typing import Callable, Iterable

import msgspec

from core import chance
from core.errors import BadParameter, CannotAfford, IllegalAction
from core.seats import no_such_seat, seat_name
from plugins.arcs.abilities import Env, Use, harm_refused, held, modifiers, op, pay_for_harm
from plugins.arcs.actions import (
    Move, after_move, check_influence, check_move, check_tax, do_influence, do_move, move_notes,
)
from plugins.arcs.battle import ShipHits, apply_building_hits, apply_ship_hits, check_building_hits, \
    check_ship_hits, destroyed_indexes, total
from plugins.arcs.chapter import return_city
from plugins.arcs.content import Box
from plugins.arcs.court_ops import _chance, can_spend_as
from plugins.arcs.control import controlling_seat, controls
from plugins.arcs.reach import reach_for
from plugins.arcs.outrage import cover_outrage_slot
from plugins.arcs.scoring import PHANTOM, ambition_count, marker_values
from plugins.arcs.placing import gain
from plugins.arcs.setup import open_slots
from plugins.arcs.state import ArcsState, Building, Ships, Trophy

KEY = "leaders-and-lore"  # this module's part of `state.module_state`
MAX_DICE_PER_KIND = 6  # ARCS-172


# -- bookkeeping: windows and the turn ---------------------------------------------------
def _mine(state: ArcsState) -> dict:
    return state.module_state.setdefault(KEY, {})


def _tag(u: Use) -> str:
    return f"{u.card}:{u.index}"


def open_window(state: ArcsState, box: Box, seat: int, when: str, **facts) -> list[Use]:
    """A trigger point was reached: every held ability of the seat with trigger `when` may
    now be used once. `facts` are what the flow knows of the event (e.g. trophies_taken)."""
    uses = held(state, box, seat, when)
    windows = _mine(state).setdefault("windows", {}).setdefault(str(seat), {})
    windows[when] = {"open": [_tag(u) for u in uses], "facts": facts}
    return uses


def close_window(state: ArcsState, seat: int, when: str) -> None:
    _mine(state).get("windows", {}).get(str(seat), {}).pop(when, None)


def window(state: ArcsState, seat: int, when: str) -> dict | None:
    return state.module_state.get(KEY, {}).get("windows", {}).get(str(seat), {}).get(when)


def _in_window(env: Env, u: Use) -> bool:
    w = window(env.state, u.seat, u.ability.when)
    return w is not None and _tag(u) in w["open"]


def _spend_window(env: Env, u: Use) -> None:
    window(env.state, u.seat, u.ability.when)["open"].remove(_tag(u))


def turn(state: ArcsState, write: bool = False) -> dict:
    """This turn's record (once-per-turn uses, cities taxed), renewed with the chapter/round;
    a read (`write=False`) of a stale or missing record sees an empty one and stores nothing."""
    now = [state.chapter, state.round]
    record = state.module_state.get(KEY, {}).get("turn")
    if record is None or record.get("id") != now:
        record = {"id": now, "used": [], "taxed": {}}
        if write:
            _mine(state)["turn"] = record
    return record


def clear_turn(state: ArcsState) -> None:
    """The flow ends a turn: once-per-turn limits and taxed cities start afresh."""
    _mine(state).pop("turn", None)


def taxed_this_turn(state: ArcsState, seat: int) -> list[list]:
    """The (system, building) pairs `seat` taxed this turn (ARCS-141), shared with the flow's Tax."""
    return list(turn(state)["taxed"].get(str(seat), []))


def note_taxed(state: ArcsState, seat: int, system: str, building: int) -> None:
    turn(state, write=True)["taxed"].setdefault(str(seat), []).append([system, building])


def buildings_removed(state: ArcsState, system: str, removed: Iterable[int]) -> None:
    """Buildings left `system` mid-turn: the once-per-turn tax records (ARCS-141) name cities
    by their index there, so a removed city's record goes and the later ones shift down,
    still naming the same cities (the flow's Tax and Nurture's records alike)."""
    gone = sorted(set(removed))
    if not gone:
        return

    def shifted(records: list) -> list:
        return [[s, i if s != system else i - sum(g < i for g in gone)]
                for s, i in records if s != system or i not in gone]

    if state.turn is not None:
        state.turn.taxed = shifted(state.turn.taxed)
    record = state.module_state.get(KEY, {}).get("turn")
    if record is not None:
        for seat, records in record["taxed"].items():
            record["taxed"][seat] = shifted(records)


# A game built on Arcs may keep Loyal pieces off the map that its Lore still counts in a
# system (the campaign's Flagship board, counted in the Flagship's system). Each answers for
# a table it does not know with nothing, so a base game reads the map alone.
# fn(state, seat, system) -> the seat's Buildings counted there by Lore that looks for Loyal
# buildings in a system (Hidden Harbors, Gate Ports);
LOYAL_BUILDINGS_APART: list[Callable[[ArcsState, int, str], list]] = []
# fn(state, seat, system) -> dice such pieces there collect where Lore collects one die per
# fresh Loyal ship (Galactic Rifles).
FRESH_SHIP_DICE_APART: list[Callable[[ArcsState, int, str], int]] = []


def loyal_buildings_in(state: ArcsState, seat: int, system: str) -> list[Building]:
    """The seat's buildings Lore counts in the system: on the map, and any kept apart."""
    out = [b for b in state.systems[system].buildings if b.owner == seat]
    for source in LOYAL_BUILDINGS_APART:
        out += source(state, seat, system)
    return out


def fresh_ship_dice(state: ArcsState, seat: int, system: str) -> int:
    """Dice collected one per fresh Loyal ship in the system, pieces kept apart included."""
    return state.systems[system].ships_of(seat).fresh + sum(f(state, seat, system) for f in FRESH_SHIP_DICE_APART)


def holds(state: ArcsState, box: Box, seat: int, op_name: str) -> list[Use]:
    if seat < 0:  # a defender of no seat (a game built on Arcs: the Empire, the Free States) holds nothing
        return []
    return modifiers(state, box, seat, op_name)


def _reach(env: Env):
    return reach_for(env.box, env.state.out_of_play)


def _system(state: ArcsState, system: str):
    here = state.systems.get(system)
    if here is None:
        raise BadParameter(f"{system!r} is not a system in play")
    return here


def _seat(state: ArcsState, seat: int, what: str) -> None:
    if not 0 <= seat < len(state.players):
        raise BadParameter(f"the {what} seat: {no_such_seat(seat, len(state.players))}")


def _add_ships(state: ArcsState, system: str, seat: int, fresh: int = 0, damaged: int = 0) -> None:
    mine = state.systems[system].ships[seat]
    state.systems[system].ships[seat] = Ships(fresh=mine.fresh + fresh, damaged=mine.damaged + damaged)


# -- L01 Tool-Priests: Summon (Build) ---------------------------------------------------------
class AtSystem(msgspec.Struct, forbid_unknown_fields=True):
    system: str


def _summon_candidates(env: Env, u: Use):
    for name, here in sorted(env.state.systems.items()):
        if controls(env.state, u.seat, name) and any(b.kind == "city" for b in here.buildings):
            yield {"system": name}


def _summon_usable(env: Env, u: Use) -> bool:
    return [u.seat, _tag(u)] not in turn(env.state)["used"]


@op("build_ship_at_controlled_city", params=AtSystem, candidates=_summon_candidates, usable=_summon_usable)
def summon(env: Env, u: Use, p: AtSystem) -> None:
    """Once per turn, a ship at a city in a system the seat controls, whoever owns the city;
    it is placed fresh since the seat controls the system (ARCS-146). No ship left in supply:
    nothing is placed (ARCS-148)."""
    here = _system(env.state, p.system)
    if not any(b.kind == "city" for b in here.buildings):
        raise IllegalAction(f"there is no city in {p.system}")
    if not controls(env.state, u.seat, p.system):
        raise IllegalAction(f"Summon needs control of {p.system}")
    turn(env.state, write=True)["used"].append([u.seat, _tag(u)])
    player = env.state.players[u.seat]
    placed = player.ships > 0
    if placed:
        player.ships -= 1
        _add_ships(env.state, p.system, u.seat, fresh=1)
    env.emit("summon", seat=u.seat, system=p.system, placed=placed)


# -- L02 Galactic Rifles: Fire Rifles (Battle) ---------------------------------------------------
class Rifles(msgspec.Struct, forbid_unknown_fields=True):
    system: str
    target: str
    defender: int


def _rifle_candidates(env: Env, u: Use):
    reach = _reach(env)
    for name, here in sorted(env.state.systems.items()):
        if fresh_ship_dice(env.state, u.seat, name) == 0:
            continue
        for target in sorted(reach.neighbours.get(name, ())):
            for d in _defenders(env.state, target, u.seat):
                if not harm_refused(env.state, u.seat, {target: [d]}):  # a game's price on harm
                    yield {"system": name, "target": target, "defender": d}


class BuildingLike(msgspec.Struct, frozen=True):
    """A game built on Arcs may have pieces harmed as buildings are that are not in a
    system's buildings (the campaign's Banners, F1003). `room(state, system, owner)`: the hits
    such a piece of `owner`'s there can still take (0: none there); `strike(state, seat,
    system, owner, hits)`: those hits land on it, `seat` the player harming it (its Trophy)."""

    room: Callable[[ArcsState, str, int], int]
    strike: Callable[[ArcsState, int, str, int, int], object]


BUILDING_LIKE: list[BuildingLike] = []


def building_like_room(state: ArcsState, system: str, owner: int) -> int:
    """The hits `owner`'s pieces harmed like buildings in `system` can take (0 in the base game)."""
    return sum(rule.room(state, system, owner) for rule in BUILDING_LIKE)


def _defenders(state: ArcsState, system: str, seat: int) -> list[int]:
    here = state.systems[system]
    return [d for d in range(len(state.players)) if d != seat
            and (here.ships_of(d).total > 0 or any(b.owner == d for b in here.buildings)
                 or building_like_room(state, system, d) > 0)]


@op("fire_rifles", params=Rifles, candidates=_rifle_candidates)
def fire_rifles(env: Env, u: Use, p: Rifles) -> None:
    """One skirmish die per fresh Loyal ship in `system` (at most 6), at a defender in an
    adjacent system; each HIT is one hit on it, ships first. Battle modifiers do not apply
    (it is a new action, ARCS-122). The hits wait for the attacker's split (`assign_rifle_hits`)."""
    _system(env.state, p.system)
    _system(env.state, p.target)
    dice = min(fresh_ship_dice(env.state, u.seat, p.system), MAX_DICE_PER_KIND)
    if dice == 0:
        raise IllegalAction(f"Fire Rifles needs a fresh Loyal ship in {p.system}")
    if not _reach(env).adjacent(p.system, p.target):
        raise BadParameter(f"{p.target} does not border {p.system}")
    _seat(env.state, p.defender, "defending")
    if p.defender not in _defenders(env.state, p.target, u.seat):
        raise IllegalAction(f"{seat_name(p.defender)} has no piece in {p.target} to fire at")
    pay_for_harm(env, u.seat, {p.target: [p.defender]})  # nothing in the base game
    faces = {k: [msgspec.to_builtins(f) for f in d.faces] for k, d in env.box.dice.items()}
    rolled = chance.roll(_chance(env), u.seat, faces, ["skirmish"] * dice, why="fire_rifles")
    hits = total(env.box.dice, rolled).hit
    _mine(env.state)["rifle"] = {"seat": u.seat, "system": p.target, "defender": p.defender, "hits": hits}
    env.emit("fire_rifles", seat=u.seat, system=p.system, target=p.target, defender=p.defender, hits=hits)


def pending_rifle_hits(state: ArcsState) -> dict | None:
    return state.module_state.get(KEY, {}).get("rifle")


def rifle_token_range(state: ArcsState, left: int) -> tuple[int, int]:
    """(fewest, most) of the Rifles' hits left after the ships that go on the defender's
    pieces harmed like buildings (`BUILDING_LIKE`): every hit that can land does, on those
    and the defender's buildings together."""
    pending = pending_rifle_hits(state)
    here, defender = state.systems[pending["system"]], pending["defender"]
    capacity = sum(1 if b.damaged else 2 for b in here.buildings if b.owner == defender)
    room = building_like_room(state, pending["system"], defender)
    need = min(left, capacity + room)
    return max(0, need - capacity), min(room, need)


def assign_rifle_hits(state: ArcsState, seat: int, ships: ShipHits, buildings: dict[int, int],
                      tokens: int = 0) -> list[Building]:
    """The attacker's split of the Rifles' hits: every hit that can land on a ship does
    (ARCS-180), the rest on the defender's buildings, `tokens` of them on its pieces harmed
    like buildings (none in the base game). Destroyed pieces become the firer's Trophies
    (ARCS-187); the destroyed buildings are returned (a city: Outrage and Ransack follow,
    section 7.9)."""
    pending = pending_rifle_hits(state)
    if pending is None or pending["seat"] != seat:
        raise IllegalAction("no Fire Rifles hits are waiting for this seat")
    here, defender = state.systems[pending["system"]], pending["defender"]
    left = check_ship_hits(here.ships_of(defender), pending["hits"], ships)
    low, high = rifle_token_range(state, left)
    if isinstance(tokens, bool) or not low <= tokens <= high:
        raise BadParameter(f"{low} to {high} hit(s) go on the defender's pieces harmed like buildings, not {tokens}")
    check_building_hits(here.buildings, defender, left - tokens, buildings)
    here.ships[defender] = apply_ship_hits(here.ships[defender], ships)
    state.players[seat].trophies.extend([Trophy(owner=defender, kind="ship")] * ships.destroyed)
    buildings_removed(state, pending["system"], destroyed_indexes(here.buildings, buildings))
    here.buildings, destroyed = apply_building_hits(here.buildings, buildings)
    state.players[seat].trophies.extend(Trophy(owner=defender, kind=b.kind) for b in destroyed)
    for rule in BUILDING_LIKE:
        n = min(tokens, rule.room(state, pending["system"], defender))
        if n:
            rule.strike(state, seat, pending["system"], defender, n)
            tokens -= n
    del _mine(state)["rifle"]
    return destroyed


# -- L03 Sprinter Drives ------------------------------------------------------------------------
class Sprint(msgspec.Struct, forbid_unknown_fields=True):
    origin: str
    to: str
    fresh: int


def moved_fresh(move: Move) -> dict[str, int]:
    """Where the fresh ships of one move ended (after every Catapult step): the ones that may sprint."""
    landed: dict[str, int] = {}
    fresh = move.fresh
    for i, step in enumerate(move.path[:-1]):
        if move.drops and move.drops[i][0]:
            landed[step] = landed.get(step, 0) + move.drops[i][0]
            fresh -= move.drops[i][0]
    if fresh:
        landed[move.path[-1]] = landed.get(move.path[-1], 0) + fresh
    return landed


def moved_to(move: Move) -> list[str]:
    """Every system where ships of one move ended (fresh or damaged, after each Catapult drop)."""
    ended = [step for i, step in enumerate(move.path[:-1]) if move.drops and any(move.drops[i])]
    left = move.fresh + move.damaged - sum(f + d for f, d in move.drops[:len(move.path) - 1])
    if left > 0 and move.path[-1] not in ended:
        ended.append(move.path[-1])
    return ended


def move_facts(move: Move) -> dict:
    """What a "move" window knows of the move: where its fresh ships landed (L03), and its
    origin and every system its ships ended in (for a game's pieces that move along)."""
    return {"landed": moved_fresh(move), "origin": move.origin, "ended": moved_to(move)}


def open_move_window(state: ArcsState, box: Box, seat: int, move: Move) -> list[Use]:
    """After a move: its fresh ships may each move once more (L03)."""
    return open_window(state, box, seat, "move", landed=moved_fresh(move))


def _sprint_left(env: Env, u: Use) -> dict[str, int]:
    w = window(env.state, u.seat, "move")
    return {} if w is None else w["facts"].get("landed", {})


def _sprint_candidates(env: Env, u: Use):
    reach = _reach(env)
    for origin, n in sorted(_sprint_left(env, u).items()):
        n = min(n, env.state.systems[origin].ships_of(u.seat).fresh, move_limit(env.state, env.box, u.seat) or n)
        for to in sorted(reach.neighbours.get(origin, ())):
            for k in range(1, n + 1):
                yield {"origin": origin, "to": to, "fresh": k}


def _sprint_usable(env: Env, u: Use) -> bool:
    return any(n > 0 for n in _sprint_left(env, u).values())


@op("extra_move_fresh", params=Sprint, candidates=_sprint_candidates, usable=_sprint_usable)
def sprint(env: Env, u: Use, p: Sprint) -> None:
    """Fresh ships that just moved step once more into an adjacent system; damaged ones never
    do, and no ship sprints twice. Several groups may sprint from the same move."""
    left = _sprint_left(env, u)
    here = _system(env.state, p.origin)
    if p.fresh < 1:
        raise BadParameter("a sprint moves at least one ship")
    if p.fresh > left.get(p.origin, 0) or p.fresh > here.ships_of(u.seat).fresh:
        raise IllegalAction(f"only {min(left.get(p.origin, 0), here.ships_of(u.seat).fresh)} fresh ships "
                            f"that just moved may sprint from {p.origin}")
    check_move_limit(env.state, env.box, u.seat, p.fresh)
    reach = _reach(env)
    if p.to not in reach.systems or not reach.adjacent(p.origin, p.to):
        raise BadParameter(f"{p.to} does not border {p.origin}")
    before = gates_before(env.state, [p.to])
    step = Move(origin=p.origin, fresh=p.fresh, damaged=0, path=(p.to,))
    notes = move_notes(env.state, u.seat, step)
    do_move(env.state, u.seat, step)
    left[p.origin] -= p.fresh
    env.emit("sprint", seat=u.seat, origin=p.origin, into=p.to, fresh=p.fresh)
    capture_at_gates(env.state, env.box, u.seat, before, env.emit)
    after_move(env.chance, u.seat, step, notes)


# -- L04 Mirror Plating, L06 Signal Breaker, L12 Railgun Arrays, L14 Seeker Torpedoes ------------
def intercepts(state: ArcsState, box: Box, attacker: int, defender: int, rolled: int, dice: Iterable[str],
               all_fresh_at_start: bool) -> int:
    """The INT symbols that count: those rolled, less 1 when the attacker holds Signal Breaker
    and every attacking ship was fresh at the battle's start (L06), plus 1 when the defender
    holds Mirror Plating and any assault die was rolled (L04). Signal Breaker ignores only an
    intercept that was rolled, never the one Mirror Plating adds (the card library's FAQ)."""
    n = rolled
    if all_fresh_at_start:
        for u in holds(state, box, attacker, "ignore_intercept_if_all_fresh"):
            n -= u.ability.count
    n = max(n, 0)
    if holds(state, box, defender, "add_intercept_if_assault") and "assault" in list(dice):
        n += 1
    return n


def railgun_hits(state: ArcsState, box: Box, system: str, defender: int) -> int:
    """L12: before dice are collected the attacker takes 1 hit if the defender holds Railgun
    Arrays and has a fresh defending ship there (the attacker assigns it to their ships)."""
    if state.systems[system].ships_of(defender).fresh == 0:
        return 0
    return sum(u.ability.count for u in holds(state, box, defender, "attacker_takes_hit_if_fresh_defender"))


def reroll_limit(state: ArcsState, box: Box, attacker: int, system: str, die: str) -> int:
    """How many dice of kind `die` the attacker may reroll once after rolling: for Seeker
    Torpedoes (L14) one assault die per fresh Loyal attacking ship."""
    limit = 0
    for u in holds(state, box, attacker, "reroll"):
        if u.ability.die == die and u.ability.limit == "fresh_attacking_ships":
            limit += state.systems[system].ships_of(attacker).fresh
    return limit


def reroll(env: Env, attacker: int, system: str, rolled: list[tuple[str, int]], which: list[int]) -> list:
    """Reroll the assault dice at positions `which` of `rolled` (Seeker Torpedoes); refuses
    other dice, repeats and more than the limit before rolling anything."""
    limit = reroll_limit(env.state, env.box, attacker, system, "assault")
    if len(set(which)) != len(which) or any(not 0 <= i < len(rolled) for i in which):
        raise BadParameter("name each rolled die at most once, by its position")
    if any(rolled[i][0] != "assault" for i in which):
        raise IllegalAction("Seeker Torpedoes rerolls assault dice only")
    if len(which) > limit:
        raise IllegalAction(f"at most {limit} assault dice may be rerolled")
    faces = {k: [msgspec.to_builtins(f) for f in d.faces] for k, d in env.box.dice.items()}
    again = chance.roll(_chance(env), attacker, faces, ["assault"] * len(which), why="seeker_torpedoes")
    out = list(rolled)
    for i, new in zip(which, again):
        out[i] = new
    return out


# -- L05 Hidden Harbors ---------------------------------------------------------------------------
def builds_ships_fresh(state: ArcsState, box: Box, seat: int) -> bool:
    """L05: the seat's built ships are fresh even where another player controls the system
    (overriding ARCS-146 for ships only)."""
    return bool(holds(state, box, seat, "build_ships_fresh"))


def raid_dice_barred(state: ArcsState, box: Box, system: str, defender: int) -> bool:
    """L05: no raid dice against a defender holding Hidden Harbors with a fresh defending starport."""
    return bool(holds(state, box, defender, "no_raid_dice_with_fresh_starport")) and any(
        b.kind == "starport" and not b.damaged for b in loyal_buildings_in(state, defender, system))


# -- L07 Repair Drones ------------------------------------------------------------------------------
def repair_drones(state: ArcsState, box: Box, attacker: int, system: str, attacking: int | None = None) -> bool:
    """L07: after a battle the seat attacked in, one damaged Loyal attacking ship is repaired
    (if one is left; `attacking`: how many of the seat's ships there are attacking ones).
    True when a ship was repaired."""
    count = sum(u.ability.count for u in holds(state, box, attacker, "repair_attacking_ship"))
    mine = state.systems[system].ships_of(attacker)
    n = min(count, mine.damaged, mine.total if attacking is None else max(attacking, 0))
    if n:
        state.systems[system].ships[attacker] = Ships(fresh=mine.fresh + n, damaged=mine.damaged - n)
    return n > 0


# -- L08 Gate Ports, L11 Gate Stations, L09 Cloud Cities -----------------------------------------
def gate_build_allowed(state: ArcsState, box: Box, seat: int, system: str, kind: str) -> bool:
    """L08 / L11: a starport (Gate Ports) or a city (Gate Stations) may be built in a gate,
    at most one of that kind in each gate. The Loyal-piece rule (ARCS-144) still applies."""
    if box.systems.get(system, 0) is not None:
        return False
    if not any(u.ability.building == kind for u in holds(state, box, seat, "build_in_gates")):
        return False
    return not any(b.kind == kind for b in state.systems[system].buildings)


def gate_port_capture(state: ArcsState, box: Box, mover: int, gate: str, controller_before: int | None) -> int | None:
    """L08: Rival ships moved into a gate whose controller (checked before they entered, as
    for Catapult, ARCS-153) holds Gate Ports and has a fresh starport there: that controller
    captures one of the mover's agents, if one is in supply. Returns the captor."""
    holder = controller_before
    if holder is None or holder == mover or box.systems.get(gate, 0) is not None:
        return None
    if not holds(state, box, holder, "capture_agent_at_fresh_starport_gate"):
        return None
    if not any(b.kind == "starport" and not b.damaged for b in loyal_buildings_in(state, holder, gate)):
        return None
    if state.players[mover].agents <= 0:
        return None  # ARCS-140: pieces are limited to the box
    state.players[mover].agents -= 1
    state.players[holder].captives.append(mover)
    return holder


def gates_before(state: ArcsState, path: Iterable[str]) -> dict[str, int | None]:
    """Who controls each gate on a move's path before the ships enter (for Gate Ports)."""
    return {g: controlling_seat(state, g) for g in path if g.endswith("G")}


def capture_at_gates(state: ArcsState, box: Box, mover: int, before: dict, emit) -> None:
    """Gate Ports (L08) for every gate a move entered, whatever made the move (a pip, a Fuel,
    Tactical, Sprinter Drives: ARCS-123, a modifier of the Move inside other effects)."""
    for gate, holder in before.items():
        captor = gate_port_capture(state, box, mover, gate, holder)
        if captor is not None:
            emit("agent_captured", seat=captor, owner=mover, system=gate, why="gate_ports")


# A game's gates whose cities have types of their own (the campaign's Twisted Passage: Psionic):
# fn(state, box, gate) -> the types, or None to leave the gate to the base rule.
CITY_TYPES: list = []


def city_types(state: ArcsState, box: Box, system: str) -> list[str]:
    """The types a city in `system` has: its planet's; for a gate city (L11) the types of
    every planet of its cluster that holds a city (a taxer picks one; its destruction
    provokes Outrage of each)."""
    planet = box.systems[system]
    if planet is not None:
        return [planet.type]
    for rule in CITY_TYPES:
        found = rule(state, box, system)
        if found is not None:
            return found
    cluster = box.cluster_of(system)
    types = [p.type for c in box.map.clusters if c.id == cluster for p in c.planets
             if p.id in state.systems and any(b.kind == "city" for b in state.systems[p.id].buildings)]
    return sorted(set(types))


def cloud_city_allowed(state: ArcsState, box: Box, seat: int, system: str) -> bool:
    """L09: a city beyond a full planet's slots, at most one such city per planet."""
    planet = box.systems.get(system)
    if planet is None or not holds(state, box, seat, "build_city_off_slots"):
        return False
    return len(state.systems[system].buildings) == planet.slots


def pays_cloud_city(state: ArcsState, box: Box, seat: int, system: str, slot: int) -> bool:
    """Whether the token in `slot` pays L09's cost in `system`: the planet's type, or any
    token spent as that type by a Loyal card (ARCS-313)."""
    player = state.players[seat]
    return 0 <= slot < len(player.resources) and player.resources[slot] is not None \
        and can_spend_as(state, box, seat, player.resources[slot], box.systems[system].type)


def pay_cloud_city(state: ArcsState, box: Box, seat: int, system: str, slot: int) -> None:
    """L09's cost: spend 1 resource of the planet's type from the named slot (before building)."""
    wanted = box.systems[system].type
    player = state.players[seat]
    if not pays_cloud_city(state, box, seat, system, slot):
        raise CannotAfford(f"a Cloud City in {system} costs 1 {wanted}; slot {slot + 1} does not hold one")
    token, player.resources[slot] = player.resources[slot], None
    state.supply[token] += 1  # ARCS-213: the token itself goes back


# -- L10 Living Structures: Nurture (Build), Prune (Repair) --------------------------------------
class Nurture(msgspec.Struct, forbid_unknown_fields=True):
    system: str
    building: int
    resource: str = ""  # a gate city (L11): which of its types


def _nurture_candidates(env: Env, u: Use):
    for name, here in sorted(env.state.systems.items()):
        for i, b in enumerate(here.buildings):
            if b.kind == "city" and b.owner == u.seat:
                for r in city_types(env.state, env.box, name) or [""]:
                    params = {"system": name, "building": i, "resource": r if env.box.systems[name] is None else ""}
                    try:
                        _check_nurture(env, u, msgspec.convert(params, Nurture))
                    except (BadParameter, IllegalAction):
                        continue
                    yield params


def _check_nurture(env: Env, u: Use, p: Nurture) -> str | None:
    here = _system(env.state, p.system)
    if not 0 <= p.building < len(here.buildings) or here.buildings[p.building].kind != "city":
        raise BadParameter(f"there is no city {p.building} in {p.system}")
    if here.buildings[p.building].owner != u.seat:
        raise IllegalAction("Nurture taxes a Loyal city only")
    check_tax(env.state, u.seat, p.system, p.building, taxed_this_turn(env.state, u.seat))
    check_callow(env.state, env.box, u.seat, p.system, p.building)  # ARCS-123: tax modifiers apply
    types = city_types(env.state, env.box, p.system)
    if env.box.systems[p.system] is None:
        if p.resource not in types:
            raise BadParameter(f"this gate city yields one of {types}, not {p.resource!r}")
        return p.resource
    if p.resource:
        raise BadParameter("a planet city yields its planet's type; name no resource")
    return types[0]


@op("tax_loyal_city", params=Nurture, candidates=_nurture_candidates)
def nurture(env: Env, u: Use, p: Nurture) -> None:
    """Tax one Loyal city with a Build pip (a standard Tax inside a new action: tax modifiers
    and the once-per-turn limit per city apply, ARCS-123, ARCS-141)."""
    resource = _check_nurture(env, u, p)
    note_taxed(env.state, u.seat, p.system, p.building)
    gained = bool(resource) and gain(env.state, u.seat, resource)
    env.emit("tax", seat=u.seat, system=p.system, resource=resource if gained else None, via="nurture")


class Prune(msgspec.Struct, forbid_unknown_fields=True):
    system: str
    building: int


def _prune_candidates(env: Env, u: Use):
    for name, here in sorted(env.state.systems.items()):
        for i, b in enumerate(here.buildings):
            if b.owner == u.seat:
                try:
                    _check_prune(env, u, Prune(system=name, building=i))
                except (BadParameter, IllegalAction):
                    continue
                yield {"system": name, "building": i}


def _check_prune(env: Env, u: Use, p: Prune) -> Building:
    here = _system(env.state, p.system)
    if not 0 <= p.building < len(here.buildings) or here.buildings[p.building].owner != u.seat:
        raise BadParameter(f"building {p.building} in {p.system} is not a Loyal building")
    old = here.buildings[p.building]
    player = env.state.players[u.seat]
    if old.kind == "starport" and True not in player.cities_on_board:
        raise IllegalAction("no city is left on the board to replace the starport with")  # ARCS-277
    if old.kind == "city" and player.starports <= 0:
        raise IllegalAction("no starport is left in supply to replace the city with")
    return old


@op("swap_starport_city", params=Prune, candidates=_prune_candidates)
def prune(env: Env, u: Use, p: Prune) -> None:
    """Replace a Loyal starport by a Loyal city or the reverse, in the same spot and with the
    same damage (a replace, ARCS-277): the city comes from the board's leftmost slot and a
    returned one goes to the rightmost empty slot (ARCS-249/250)."""
    old = _check_prune(env, u, p)
    player = env.state.players[u.seat]
    here = env.state.systems[p.system]
    if old.kind == "starport":
        player.cities_on_board[player.cities_on_board.index(True)] = False
        player.starports += 1
        new = "city"
    else:
        player.starports -= 1
        return_city(env.box, env.state, u.seat)
        new = "starport"
    here.buildings[p.building] = Building(kind=new, owner=u.seat, damaged=old.damaged)
    env.emit("prune", seat=u.seat, system=p.system, was=old.kind, now=new)


# -- L13 Ancient Holdings ----------------------------------------------------------------------------
LORE_SLOT = 6  # index of the resource slot on Ancient Holdings, after the board's six


def grant_lore_slot(state: ArcsState, box: Box, seat: int) -> None:
    """L13: taking Ancient Holdings adds its slot to the holder's resource row."""
    player = state.players[seat]
    if holds(state, box, seat, "extra_resource_slot") and len(player.resources) == LORE_SLOT:
        player.resources.append(None)


def lore_open_slots(box: Box, state: ArcsState, seat: int) -> list[int]:
    """The seat's open slots with the Lore slot: always open, holding a normal resource."""
    player = state.players[seat]
    slots = open_slots(box, player)  # the board's open slots and any beyond them
    return slots + ([LORE_SLOT] if len(player.resources) > LORE_SLOT and LORE_SLOT not in slots else [])


def lore_empty_slots(box: Box, state: ArcsState, seat: int) -> list[int]:
    player = state.players[seat]
    return [i for i in lore_open_slots(box, state, seat) if player.resources[i] is None]


def slot_raid_cost(box: Box, state: ArcsState, seat: int, slot: int) -> int:
    """The keys a raid pays for the resource in `slot` (ARCS-212; 4 on Ancient Holdings)."""
    if slot == LORE_SLOT:
        return max((u.ability.raid_cost for u in holds(state, box, seat, "extra_resource_slot")), default=0)
    return box.board.resource_slots[slot].raid_cost


# -- LEAD01 Elder ------------------------------------------------------------------------------
class OnCard(msgspec.Struct, forbid_unknown_fields=True):
    card: str


def _influence_candidates(env: Env, u: Use):
    if env.state.players[u.seat].agents > 0:
        for c in env.state.court_row:
            if c:
                yield {"card": c}


def _beloved_usable(env: Env, u: Use) -> bool:
    w = window(env.state, u.seat, "after_defend")
    return _in_window(env, u) and bool(w["facts"].get("trophies_taken"))


@op("influence_if_trophies_taken", params=OnCard, candidates=_influence_candidates, usable=_beloved_usable)
def beloved(env: Env, u: Use, p: OnCard) -> None:
    """After defending in a battle where the attacker took a Trophy, the Elder may influence."""
    _influence_in_window(env, u, p.card)


def _influence_in_window(env: Env, u: Use, card: str) -> None:
    """One Influence an open window allows (Beloved, Charismatic), spending the window."""
    check_influence(env.state, u.seat, card)
    _spend_window(env, u)
    do_influence(env.state, u.seat, card)
    env.emit("influence", seat=u.seat, card=card, via=u.ability.name)


def ransack_barred(state: ArcsState, box: Box, owner: int, in_battle_against_owner: bool) -> bool:
    """Beloved: Rivals battling the Elder never Ransack the Court for its cities."""
    return in_battle_against_owner and bool(holds(state, box, owner, "rivals_cannot_ransack_you"))


def adjust_gains(box: Box, state: ArcsState, ambition: str, gains: dict[int, int]) -> dict[int, int]:
    """Just (LEAD01, Tyrant) and Violent (LEAD06, Empath): in that ambition the holder's
    outright first place earns only the second-place sum and no city bonus, and a second
    place earns nothing. A tie for first already earns the second-place sum (ARCS-237)."""
    markers = state.ambition_boxes.get(ambition, [])
    if not markers:
        return gains
    _, second = marker_values(box, markers)
    counts = {s: ambition_count(box, state, p, ambition) for s, p in enumerate(state.players)}
    phantom = state.ambition_tokens.get(ambition)
    if len(state.players) == 2 and phantom is not None:
        counts[PHANTOM] = len(phantom)
    placed = sorted({c for c in counts.values() if c > 0}, reverse=True)
    out = dict(gains)
    for seat in range(len(state.players)):
        if not any(ambition in u.ability.ambitions for u in holds(state, box, seat, "second_place_only")):
            continue
        mine = counts[seat]
        if mine == 0 or not placed:
            continue
        firsts = [s for s, c in counts.items() if c == placed[0]]
        if mine == placed[0] and len(firsts) == 1:
            out[seat] = second
        elif mine != placed[0] and len(firsts) == 1 and len(placed) > 1 and mine == placed[1]:
            out[seat] = 0
    return out


# -- LEAD02 Mystic, LEAD03 Fuel-Drinker -------------------------------------------------------
# New actions that contain a standard action (ARCS-123, ARCS-125): a "when you Copy or Pivot
# to X" ability triggers when the pip pays one of these for X.
CONTAINS = {"tax_loyal_city": "tax"}  # L10 Nurture: "tax a Loyal city"


def contained_action(op_name: str) -> str:
    return CONTAINS.get(op_name, "")


def copy_pivot_tax_bonus(state: ArcsState, box: Box, seat: int) -> list[str]:
    """Attuned / Insatiable: a Copy or Pivot pip spent on a tax also gains their resource
    (ARCS-125: never from a Prelude tax). Returns what was gained."""
    gained = []
    for u in held(state, box, seat, "copy_or_pivot_tax"):
        if u.ability.do == "gain":
            for _ in range(u.ability.count):
                if gain(state, seat, u.ability.resource):
                    gained.append(u.ability.resource)
    return gained


def start_outraged(state: ArcsState, box: Box, seat: int) -> list[str]:
    """Cryptic (a Leader's setup instruction, ARCS-265): agents from supply cover the named
    Outrage slots; nothing is discarded (nothing was provoked). Returns the types covered."""
    player, covered = state.players[seat], []
    for u in held(state, box, seat, "setup"):
        if u.ability.do != "start_outraged":
            continue
        for r in u.ability.resources:
            if r in player.outrage:
                continue
            cover_outrage_slot(player, r)
            covered.append(r)
    return covered


def lavish_due(u: Use, scored: list[str]) -> bool:
    """Lavish applies after this chapter's scoring only if one of its ambitions was scored."""
    return u.ability.do == "discard_all_if_scored" and bool(set(u.ability.ambitions) & set(scored))


def lavish_discard(state: ArcsState, u: Use) -> int:
    """Lavish, once due: the holder discards all their tokens of its resource; how many."""
    player, n = state.players[u.seat], 0
    for i, r in enumerate(player.resources):
        if r == u.ability.resource:
            player.resources[i] = None
            state.supply[r] += 1
            n += 1
    return n


def lavish(state: ArcsState, box: Box, scored: list[str]) -> dict[int, int]:
    """Lavish: after scoring, a holder discards all their Fuel if Tycoon was scored."""
    return {seat: lavish_discard(state, u) for seat in range(len(state.players))
            for u in held(state, box, seat, "after_scoring") if lavish_due(u, scored)}


# -- LEAD04 Upstart ------------------------------------------------------------------------
class AnyResource(msgspec.Struct, forbid_unknown_fields=True):
    resource: str


def _ambitious_candidates(env: Env, u: Use):
    for r in env.box.board.resources:
        if env.state.supply.get(r, 0) > 0:
            yield {"resource": r}


@op("gain_any", params=AnyResource, candidates=_ambitious_candidates, usable=_in_window)
def ambitious(env: Env, u: Use, p: AnyResource) -> None:
    """Ambitious: on declaring, gain any one resource (nothing if that supply is empty)."""
    if p.resource not in env.box.board.resources:
        raise BadParameter(f"{p.resource!r} is not a resource")
    _spend_window(env, u)
    gained = gain(env.state, u.seat, p.resource)
    env.emit("gain", seat=u.seat, resource=p.resource if gained else None, via=u.ability.name)


def check_callow(state: ArcsState, box: Box, seat: int, system: str, building: int) -> None:
    """Callow: the Upstart taxes a Loyal city only in a system it controls."""
    city = state.systems[system].buildings[building]
    if city.owner == seat and holds(state, box, seat, "tax_loyal_only_if_controlled") \
            and not controls(state, seat, system):
        raise IllegalAction(f"Callow: taxing your city in {system} needs control of {system}")


# -- LEAD05 Rebel ----------------------------------------------------------------------------
def extra_dice(state: ArcsState, box: Box, attacker: int) -> int:
    """Committed: the Rebel always collects 2 dice more in battle (beyond one per ship)."""
    return sum(u.ability.count for u in holds(state, box, attacker, "extra_dice")
               if u.ability.where == "any" and u.card in box.leaders)


def move_limit(state: ArcsState, box: Box, seat: int) -> int | None:
    limits = [u.ability.count for u in holds(state, box, seat, "move_at_most")]
    return min(limits) if limits else None


def check_move_limit(state: ArcsState, box: Box, seat: int, ships: int) -> None:
    """Disorganized: no move takes more than 2 ships."""
    limit = move_limit(state, box, seat)
    if limit is not None and ships > limit:
        raise IllegalAction(f"Disorganized: at most {limit} ships move at a time, not {ships}")


# -- LEAD06 Warrior: Tactical ------------------------------------------------------------------
class TacticalMove(msgspec.Struct, forbid_unknown_fields=True):
    origin: str
    path: list[str]
    fresh: int = 0
    damaged: int = 0
    drops: list[tuple[int, int]] = []


def _tactical_candidates(env: Env, u: Use):
    reach = _reach(env)
    limit = move_limit(env.state, env.box, u.seat)
    for name, here in sorted(env.state.systems.items()):
        mine = here.ships_of(u.seat)
        if mine.total == 0:
            continue
        for to in sorted(reach.neighbours.get(name, ())):
            fresh = min(mine.fresh, limit if limit is not None else mine.fresh)
            damaged = min(mine.damaged, (limit - fresh) if limit is not None else mine.damaged)
            yield {"origin": name, "path": [to], "fresh": fresh, "damaged": damaged}


@op("move_before_or_after", params=TacticalMove, candidates=_tactical_candidates, usable=_in_window)
def tactical(env: Env, u: Use, p: TacticalMove) -> None:
    """Tactical: when a Copy or Pivot pip battles, one Move before or after that battle (the
    flow keeps the window open across the battle and closes it after)."""
    move = Move(origin=p.origin, fresh=p.fresh, damaged=p.damaged, path=tuple(p.path), drops=tuple(p.drops))
    check_move(env.state, _reach(env), u.seat, move)
    check_move_limit(env.state, env.box, u.seat, p.fresh + p.damaged)
    _spend_window(env, u)
    before = gates_before(env.state, p.path)
    notes = move_notes(env.state, u.seat, move)
    do_move(env.state, u.seat, move)
    env.emit("move", seat=u.seat, origin=p.origin, path=list(p.path), via=u.ability.name)
    capture_at_gates(env.state, env.box, u.seat, before, env.emit)
    after_move(env.chance, u.seat, move, notes)


def tactical_move(params: dict) -> Move:
    """The Move a Tactical use made (its fresh ships may then sprint, L03)."""
    p = msgspec.convert(params, TacticalMove)
    return Move(origin=p.origin, fresh=p.fresh, damaged=p.damaged, path=tuple(p.path), drops=tuple(p.drops))


# -- LEAD07 Feastbringer ------------------------------------------------------------------------
@op("influence_before_or_after", params=OnCard, candidates=_influence_candidates, usable=_in_window)
def charismatic(env: Env, u: Use, p: OnCard) -> None:
    """Charismatic: when a Copy or Pivot pip secures, one Influence before or after it."""
    _influence_in_window(env, u, p.card)


def generous_recipient(state: ArcsState, box: Box, seat: int) -> int | None:
    """Generous: the Rival with the least Power (a tie goes to the first in turn order,
    ARCS-268), or None when the seat does not hold Generous."""
    if not holds(state, box, seat, "give_guild_to_lowest_power"):
        return None
    n = len(state.players)
    order = [(state.initiative + i) % n for i in range(n)]
    rivals = [s for s in order if s != seat]
    low = min(state.players[s].power for s in rivals)
    return next(s for s in rivals if state.players[s].power == low)


def can_declare(state: ArcsState, box: Box, seat: int) -> bool:
    """Generous makes a Guild card the price of declaring: without one the seat cannot declare."""
    return generous_recipient(state, box, seat) is None or bool(state.players[seat].guild)


def pay_generous(state: ArcsState, box: Box, seat: int, card: str) -> int | None:
    """Hand the named Guild card to the Generous recipient (part of declaring). Returns the recipient."""
    recipient = generous_recipient(state, box, seat)
    if recipient is None:
        return None
    if card not in state.players[seat].guild:
        raise BadParameter(f"{card!r} is not one of your Guild cards")
    state.players[seat].guild.remove(card)
    state.players[recipient].guild.append(card)
    return recipient


# -- LEAD08 Demagogue -------------------------------------------------------------------------
class OnCards(msgspec.Struct, forbid_unknown_fields=True):
    cards: list[str]


def _bold_candidates(env: Env, u: Use):
    row = [c for c in env.state.court_row if c][:env.state.players[u.seat].agents]
    if row:
        yield {"cards": row}
        for c in row[1:] if len(row) > 1 else []:
            yield {"cards": [c]}


@op("agent_on_each_court_card", params=OnCards, candidates=_bold_candidates, usable=_in_window)
def bold(env: Env, u: Use, p: OnCards) -> None:
    """Bold: on declaring, one agent on each of any number of distinct Court cards."""
    if not p.cards or len(set(p.cards)) != len(p.cards):
        raise BadParameter("name one or more different Court cards")
    for c in p.cards:
        if not c or c not in env.state.court_row:
            raise BadParameter(f"{c!r} is not in the Court row")
    if len(p.cards) > env.state.players[u.seat].agents:
        raise CannotAfford(f"{len(p.cards)} agents needed, {env.state.players[u.seat].agents} in supply")
    _spend_window(env, u)
    for c in p.cards:
        do_influence(env.state, u.seat, c)
    env.emit("influence", seat=u.seat, cards=list(p.cards), via=u.ability.name)


def check_paranoid(state: ArcsState, box: Box, seat: int, card: str) -> None:
    """Paranoid: no Secure of a Guild card holding just 1 Loyal agent (Vox cards and Ransack
    are unaffected)."""
    if box.court[card].kind == "guild" and state.court_agents[card][seat] == 1 \
            and holds(state, box, seat, "cannot_secure_guild_with_one_agent"):
        raise IllegalAction(f"Paranoid: securing the Guild card {card} needs more than 1 of your agents")


# -- which op each Lore / Leader ability is ---------------------------------------------------
# Ops whose effect is a standing rule (or part of a fixed procedure) rather than a use:
# the helper above that the rules call, by op name.
STANDING = {
    "add_intercept_if_assault": intercepts, "ignore_intercept_if_all_fresh": intercepts,
    "build_ships_fresh": builds_ships_fresh, "no_raid_dice_with_fresh_starport": raid_dice_barred,
    "repair_attacking_ship": repair_drones, "build_in_gates": gate_build_allowed,
    "capture_agent_at_fresh_starport_gate": gate_port_capture, "build_city_off_slots": cloud_city_allowed,
    "attacker_takes_hit_if_fresh_defender": railgun_hits, "extra_resource_slot": lore_open_slots,
    "reroll": reroll, "rivals_cannot_ransack_you": ransack_barred, "second_place_only": adjust_gains,
    "gain": copy_pivot_tax_bonus, "start_outraged": start_outraged, "discard_all_if_scored": lavish,
    "tax_loyal_only_if_controlled": check_callow, "extra_dice": extra_dice, "move_at_most": check_move_limit,
    "give_guild_to_lowest_power": pay_generous, "cannot_secure_guild_with_one_agent": check_paranoid,
}
