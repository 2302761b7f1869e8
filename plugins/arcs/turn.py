"""One turn's actions (digest sections 6-8) as typed answers: what a seat may do with the
pips of its played card and, in the Prelude, with its resources.

Every answer names how it is paid: `pay = -1` spends a pip; `pay = i` spends the resource in
slot i for its Prelude action (ARCS-214). `check_act` refuses what the rules refuse and
changes nothing; `pay_for` and the `do_*` effects of actions.py apply an answer that passed.
`candidates` lists complete answers for bots and legalActions (each one passes the check).
"""
from __future__ import annotations

from typing import Iterator

import msgspec

from core.errors import ActionRejected, BadParameter, IllegalAction, NotYourTurn
from core.seats import seat_name
from plugins.arcs import abilities
from plugins.arcs.actions import (
    Move, check_build, check_influence, check_move, check_repair, check_secure, check_tax,
)
from plugins.arcs.battle import raid_dice_open
from plugins.arcs.content import Box
from plugins.arcs import lore_ops
from plugins.arcs.court_ops import extra_battle_dice, prelude_action_allowed
from plugins.arcs.moments import env_for
from plugins.arcs.reach import Reach, reach_for
from plugins.arcs.state import ArcsState

MAX_DICE_PER_KIND = 6  # ARCS-172


class _Act(msgspec.Struct, tag_field="act", forbid_unknown_fields=True, kw_only=True):
    pay: int = -1  # -1: a pip of the played card; i: the resource in slot i, spent in the Prelude


class Tax(_Act, tag="tax", kw_only=True):
    system: str
    building: int
    resource: str = ""  # a city in a gate (Gate Stations): which of its types


class Build(_Act, tag="build", kw_only=True):
    system: str
    what: str  # city | starport | ship
    cost_slot: int = -1  # Cloud Cities: the slot of the resource paid for a city beyond the slots
    # A game built on Arcs may keep buildings on a player's own board (the campaign's Flagship,
    # `arcs_check_build`): the board's slot and its layer; the base rules refuse any.
    slot: int = -1
    layer: str = ""


class Repair(_Act, tag="repair", kw_only=True):
    system: str
    piece: str  # ship | building
    building: int = -1


class MoveShips(_Act, tag="move", kw_only=True):
    origin: str
    path: list[str]
    fresh: int = 0
    damaged: int = 0
    drops: list[tuple[int, int]] = []  # per system of the path: (fresh, damaged) left there (Catapult)
    # A game built on Arcs may let other ships move along (the campaign's Imperial ships,
    # `arcs_check_move`); the base rules refuse any.
    imperial_fresh: int = 0
    imperial_damaged: int = 0
    imperial_drops: list[tuple[int, int]] = []
    # ... and another seat's Loyal ships the mover may act with (the campaign's Judge's Chosen),
    # moving the same way; the base rules refuse any.
    judge_fresh: int = 0
    judge_damaged: int = 0
    judge_drops: list[tuple[int, int]] = []
    # ... and a ship kept outside the `Ships` counts (the campaign's Flagship), the mover's own
    # or that other seat's; the base refuses either.
    flagship: bool = False
    judge_flagship: bool = False


class Influence(_Act, tag="influence", kw_only=True):
    card: str


class Secure(_Act, tag="secure", kw_only=True):
    card: str


class Attack(_Act, tag="battle", kw_only=True):
    system: str
    defender: int  # a Rival seat; a game built on Arcs may allow owners below 0 (`arcs_check_attack`)
    assault: int = 0
    skirmish: int = 0
    raid: int = 0
    imperial_fresh: int = 0    # other ships joining the attack (the campaign's Imperial ships);
    imperial_damaged: int = 0  # the base rules refuse any
    judge_fresh: int = 0       # another seat's Loyal ships joining the attack (the campaign's
    judge_damaged: int = 0     # Judge's Chosen), its Flagship among them; the base rules
    judge_flagship: bool = False  # refuse any


class Spend(_Act, tag="spend", kw_only=True):
    """Spend a resource for nothing but its own Prelude effect (a Weapon's, ARCS-215) or for
    no effect at all (ARCS-220)."""


class UseAbility(_Act, tag="ability", kw_only=True):
    card: str
    index: int
    params: dict = {}


class Done(_Act, tag="done", kw_only=True):
    """End the turn; unused pips are lost (ARCS-081)."""


Act = Tax | Build | Repair | MoveShips | Influence | Secure | Attack | Spend | UseAbility | Done
KIND = {Tax: "tax", Build: "build", Repair: "repair", MoveShips: "move", Influence: "influence",
        Secure: "secure", Attack: "battle"}
PRELUDE_TRIGGERS = ("prelude", "prelude_discard", "prelude_first_discard")


_REACH: dict[tuple[int, tuple[int, ...]], Reach] = {}


# A game built on Arcs may reshape the map while a rule is in play (the campaign's Twisted
# Passage): fn(box, state, reach) -> the reach as the table reads it now (`reach` itself when
# the rule is not in play, so tables without it read the map unchanged).
MAP_RULES: list = []


def reach_of(box: Box, state: ArcsState) -> Reach:
    """The table's map: the box's with the out-of-play clusters gone (cached per box and
    out-of-play clusters: that part never changes in a game), then a game's `MAP_RULES`."""
    key = (id(box), tuple(state.out_of_play))
    found = _REACH.get(key)
    if found is None:
        found = _REACH[key] = reach_for(box, key[1])
    for rule in MAP_RULES:
        found = rule(box, state, found)
    return found


# A game built on Arcs may make systems adjacent for one seat's moves (the campaign's Song of
# the Banner): fn(state, seat) -> pairs of systems its moves treat as adjacent ([] for none).
MOVE_LINKS: list = []


def move_reach(box: Box, state: ArcsState, seat: int) -> Reach:
    """The map as the seat's moves read it: the table's, with the links a game's rule gives
    that seat (the same map when none does)."""
    reach = reach_of(box, state)
    links = [pair for rule in MOVE_LINKS for pair in rule(state, seat)]
    if not links:
        return reach
    neighbours = {s: set(n) for s, n in reach.neighbours.items()}
    for a, b in links:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    return Reach(systems=reach.systems, neighbours={s: frozenset(n) for s, n in neighbours.items()})


def prelude_buys(box: Box, state: ArcsState, seat: int, resource: str) -> list[str]:
    """The actions a resource spent in the Prelude buys: none when Outraged in it (ARCS-217)
    unless a Loyal card lifts that (ARCS-313); a Loyal card also lets any token be spent as
    its type (ARCS-313), so the token buys that type's actions too."""
    turn = state.turn
    types = [resource, *(u.ability.resource for u in abilities.modifiers(state, box, seat, "spend_any_as")
                         if u.ability.resource != resource)]
    out: list[str] = []
    for kind in types:
        if not prelude_action_allowed(state, box, seat, kind):
            continue
        bought = turn.lead_actions if kind == "psionic" else box.board.prelude_actions.get(kind, [])  # ARCS-214
        out += [a for a in bought if a not in out]
    return out


def act_kind(box: Box, state: ArcsState, seat: int, act) -> str | None:
    """The standard action an answer takes or replaces: a new action is paid as the action
    in its brackets (ARCS-120); a Prelude ability is paid by nothing."""
    if isinstance(act, UseAbility):
        use = find_use(box, state, seat, act.card, act.index, (*PRELUDE_TRIGGERS, "new_action"))
        return use.ability.action if use.ability.when == "new_action" else None
    return KIND.get(type(act))


def check_act(box: Box, state: ArcsState, seat: int, act, hook=None) -> None:
    """`hook`: the table's plugin hooks, through which a game built on Arcs checks the
    actions on its own pieces (`arcs_check_*`); None checks by the base rules alone."""
    turn = state.turn
    if turn is None or turn.seat != seat or state.battle is not None:
        raise NotYourTurn(f"{seat_name(seat)} is not taking a turn")
    if isinstance(act, Done):
        if act.pay != -1:
            raise BadParameter("ending the turn costs nothing")
        return
    kind = act_kind(box, state, seat, act)
    if act.pay >= 0 or isinstance(act, Spend):
        if not turn.prelude:
            raise IllegalAction("the Prelude closed when the first pip was spent")  # ARCS-114
        player = state.players[seat]
        if not 0 <= act.pay < len(player.resources) or player.resources[act.pay] is None:
            raise BadParameter(f"there is no resource in slot {act.pay + 1} to spend")
        if kind is not None and kind not in prelude_buys(box, state, seat, player.resources[act.pay]):
            raise IllegalAction(f"spending {player.resources[act.pay]} does not buy {kind}")
    elif kind is not None:
        if turn.pips <= 0:
            raise IllegalAction("no pip of the played card is left")
        if kind not in turn.actions and not (kind == "battle" and turn.weapon):
            raise IllegalAction(f"the played card's pips do not buy {kind}")
    if isinstance(act, Tax):
        taxed = turn.taxed + lore_ops.taxed_this_turn(state, seat)
        if hook is None or not hook.arcs_check_tax(state=state, seat=seat, system=act.system,
                                                   building=act.building, taxed=taxed):
            check_tax(state, seat, act.system, act.building, taxed)
        check_tax_lore(box, state, seat, act)
    elif isinstance(act, Build):
        check_build_lore(box, state, seat, act, hook)
    elif isinstance(act, Repair):
        building = None if act.building < 0 else act.building
        if hook is None or not hook.arcs_check_repair(state=state, seat=seat, system=act.system,
                                                      piece=act.piece, building=building):
            check_repair(state, seat, act.system, act.piece, building)
    elif isinstance(act, MoveShips):
        reach = move_reach(box, state, seat)
        if hook is None or not hook.arcs_check_move(box=box, state=state, reach=reach, seat=seat, act=act):
            if act.imperial_fresh or act.imperial_damaged or act.imperial_drops or act.flagship or other_ships(act):
                raise BadParameter("no other ships move along in this game")
            check_move(state, reach, seat, to_move(act))
        lore_ops.check_move_limit(state, box, seat, act.fresh + act.damaged)  # Disorganized
    elif isinstance(act, Influence):
        check_influence(state, seat, act.card)
    elif isinstance(act, Secure):
        check_secure(state, seat, act.card)
        lore_ops.check_paranoid(state, box, seat, act.card)
    elif isinstance(act, Attack):
        if hook is None or not hook.arcs_check_attack(box=box, state=state, seat=seat, act=act):
            check_attack(box, state, seat, act)
    elif isinstance(act, UseAbility):
        check_ability(box, state, seat, act)


# A game built on Arcs may refuse taxes its own rules forbid (the campaign's Closed
# Economy): fn(box, state, seat, system, building) raises an ActionRejected to refuse; each
# does nothing on a table it does not know.
TAX_CHECKS: list = []


def check_tax_lore(box: Box, state: ArcsState, seat: int, act: Tax) -> None:
    """Callow (the Upstart's Loyal cities only where it rules); a city in a gate yields one
    of its types, named by the taxer (Gate Stations); a planet city names none; and what a
    game's `TAX_CHECKS` refuse."""
    lore_ops.check_callow(state, box, seat, act.system, act.building)
    for rule in TAX_CHECKS:
        rule(box, state, seat, act.system, act.building)
    if box.systems[act.system] is None:
        types = lore_ops.city_types(state, box, act.system)
        if act.resource not in types and (types or act.resource):
            raise BadParameter(f"a city in {act.system} yields one of {types}, not {act.resource!r}")
    elif act.resource:
        raise BadParameter("a planet's city yields the planet's type; name none")


def check_build_lore(box: Box, state: ArcsState, seat: int, act: Build, hook=None) -> None:
    """Build with the Lore that changes where pieces go: a building in a gate (Gate Ports,
    Gate Stations), a city beyond a full planet's slots paid with its type (Cloud Cities)."""
    in_gate = box.systems.get(act.system, 0) is None and act.what in ("city", "starport") \
        and lore_ops.gate_build_allowed(state, box, seat, act.system, act.what)
    planet = box.systems.get(act.system)
    off_slots = act.what == "city" and planet is not None and lore_ops.cloud_city_allowed(state, box, seat, act.system)
    on_board = act.slot >= 0 or bool(act.layer)
    if hook is None or not hook.arcs_check_build(box=box, state=state, seat=seat, system=act.system, what=act.what,
                                                 starports_used=state.turn.starports_used, in_gate=in_gate,
                                                 off_slots=off_slots, slot=act.slot, layer=act.layer):
        if on_board:
            raise BadParameter("there is no board to build on in this game: name no slot or layer")
        check_build(box, state, seat, act.system, act.what, state.turn.starports_used, in_gate=in_gate,
                    off_slots=off_slots)
    if on_board:
        if act.cost_slot >= 0:
            raise BadParameter("a build on a board pays nothing beyond the Build")
        return
    full = planet is not None and act.what in ("city", "starport") and len(state.systems[act.system].buildings) >= planet.slots
    if full != (act.cost_slot >= 0):
        raise BadParameter("a Cloud City names the slot of the resource it costs; no other build does")
    if full:
        if act.cost_slot == act.pay:
            raise BadParameter("the token paying for the Build cannot also pay for the Cloud City")
        if not lore_ops.pays_cloud_city(state, box, seat, act.system, act.cost_slot):  # ARCS-313: a Loyal card's "as"
            raise IllegalAction(f"a city beyond the slots of {act.system} costs 1 {planet.type}")


def other_ships(act) -> bool:
    """Does a move or an attack name another seat's Loyal ships (`judge_*`)?"""
    return bool(act.judge_fresh or act.judge_damaged or getattr(act, "judge_drops", None)
                or getattr(act, "judge_flagship", False))


def to_move(act: MoveShips) -> Move:
    return Move(origin=act.origin, fresh=act.fresh, damaged=act.damaged, path=tuple(act.path),
                drops=tuple(tuple(d) for d in act.drops))


def dice_allowed(box: Box, state: ArcsState, seat: int, system: str, joining: int = 0) -> int:
    """One die per attacking ship (ARCS-171), plus what standing abilities add (Gatekeepers
    in a gate, the Rebel's Committed anywhere); `joining`: other ships attacking with the
    seat's (the campaign's Imperial ships)."""
    return (state.systems[system].ships_of(seat).total + joining + extra_battle_dice(state, box, seat, system)
            + sum(rule(state, seat, system) for rule in BATTLE_DICE))


# A game built on Arcs may give a seat's attack dice its own way (the campaign's Flagship, by
# the fresh starports on its board): fn(state, seat, system) -> dice added.
BATTLE_DICE: list = []


def check_attack(box: Box, state: ArcsState, seat: int, act: Attack) -> None:
    here = state.systems.get(act.system)
    if here is None:
        raise BadParameter(f"{act.system!r} is not a system in play")
    if here.ships_of(seat).total == 0:
        raise IllegalAction(f"battling in {act.system} needs a Loyal ship there")  # ARCS-168
    n = len(state.players)
    if not 0 <= act.defender < n or act.defender == seat:
        raise BadParameter("the defender is one Rival")
    if here.ships_of(act.defender).total == 0 and not any(b.owner == act.defender for b in here.buildings):
        raise IllegalAction(f"{seat_name(act.defender)} has no piece in {act.system}")  # ARCS-169
    if act.imperial_fresh or act.imperial_damaged or other_ships(act):
        raise BadParameter("no other ships join an attack in this game")
    check_dice(box, state, seat, act.system, act.defender, act.assault, act.skirmish, act.raid)


def check_dice(box: Box, state: ArcsState, seat: int, system: str, defender: int,
               assault: int, skirmish: int, raid: int, joining: int = 0) -> None:
    """The dice collected for a battle (ARCS-171..173), by the attacking ships there now
    (`joining`: as in `dice_allowed`)."""
    counts = (assault, skirmish, raid)
    if min(counts) < 0 or max(counts) > MAX_DICE_PER_KIND:
        raise BadParameter(f"0 to {MAX_DICE_PER_KIND} dice of each kind")
    if sum(counts) > dice_allowed(box, state, seat, system, joining):
        raise IllegalAction("at most one die per attacking ship")
    forced = lore_ops.extra_dice(state, box, seat)
    if sum(counts) < forced:  # ARCS-171 lets fewer be taken, but not the Rebel's 2 extra
        raise IllegalAction(f"Committed: the Rebel always collects {forced} extra dice")
    if raid and not raid_dice_open(state, system, defender, seat):
        raise IllegalAction("raid dice need a defending building here, or none anywhere")  # ARCS-173
    if raid and lore_ops.raid_dice_barred(state, box, system, defender):
        raise IllegalAction("no raid dice against Hidden Harbors' fresh starport")  # L05


def dice_choices(box: Box, state: ArcsState, seat: int, system: str, defender: int) -> list[dict]:
    """Every legal collection of dice for the attacking ships there now."""
    n = min(dice_allowed(box, state, seat, system), 3 * MAX_DICE_PER_KIND)
    out = []
    for a in range(min(n, MAX_DICE_PER_KIND) + 1):
        for k in range(min(n - a, MAX_DICE_PER_KIND) + 1):
            for r in range(min(n - a - k, MAX_DICE_PER_KIND) + 1):
                try:
                    check_dice(box, state, seat, system, defender, a, k, r)
                except ActionRejected:
                    continue
                out.append({"assault": a, "skirmish": k, "raid": r})
    return out


def find_use(box: Box, state: ArcsState, seat: int, card: str, index: int, triggers) -> abilities.Use:
    for when in triggers:
        for use in abilities.held(state, box, seat, when):
            if use.card == card and use.index == index:
                return use
    raise IllegalAction(f"{card} has no ability {index} to use now")


def check_ability(box: Box, state: ArcsState, seat: int, act: UseAbility) -> None:
    """A Prelude ability (free, in the Prelude, not from a card taken in this Prelude:
    ARCS-117) or a new action (paid as its standard action, checked by `check_act`); tried
    on a copy of the state, so a refusal changes nothing."""
    use = find_use(box, state, seat, act.card, act.index, (*PRELUDE_TRIGGERS, "new_action"))
    if use.ability.when != "new_action":
        if act.pay != -1:
            raise BadParameter("a Prelude ability is not paid for")
        if not state.turn.prelude:
            raise IllegalAction("the Prelude closed when the first pip was spent")  # ARCS-114
        if use.card in state.turn.gained:
            raise IllegalAction(f"{act.card} was taken in this Prelude: its Prelude abilities wait (ARCS-117)")
    trial = msgspec.convert(msgspec.to_builtins(state), type(state))
    for prepare in ABILITY_TRIALS:
        prepare(box, trial, seat, act)
    abilities.use(env_for(box, trial, seat=seat), use, act.params)


# A game built on Arcs may set the trial of a new action as its payment will leave the table
# (the campaign's Ceasefires count the Weapons left once one has paid): fn(box, trial, seat,
# act) changes the trial only. Empty: the trial is the table as it is.
ABILITY_TRIALS: list = []


# -- candidates -----------------------------------------------------------------------------
def candidates(box: Box, state: ArcsState, seat: int, hook=None) -> Iterator[dict]:
    """Complete answers the check accepts: every action kind the turn can pay for (and
    those a game built on Arcs adds through `hook`, `arcs_act_candidates`)."""
    for act in _raw(box, state, seat, hook):
        try:
            check_act(box, state, seat, act, hook)
        except ActionRejected:
            continue
        yield msgspec.to_builtins(act)


def _pays(box: Box, state: ArcsState, seat: int) -> list[tuple[int, set[str]]]:
    turn = state.turn
    out = []
    if turn.pips > 0:
        out.append((-1, set(turn.actions) | ({"battle"} if turn.weapon else set())))
    if turn.prelude:
        seen = set()
        for i, r in enumerate(state.players[seat].resources):
            if r is not None and r not in seen:
                seen.add(r)
                out.append((i, set(prelude_buys(box, state, seat, r))))
    return out


def _raw(box: Box, state: ArcsState, seat: int, hook=None):
    turn = state.turn
    mine = [s for s, here in state.systems.items() if here.ships_of(seat).total]
    reach = move_reach(box, state, seat)
    for pay, kinds in _pays(box, state, seat):
        if "tax" in kinds:
            for s, here in state.systems.items():
                for i, b in enumerate(here.buildings):
                    if b.kind == "city":
                        if box.systems[s] is None:
                            for r in lore_ops.city_types(state, box, s):
                                yield Tax(pay=pay, system=s, building=i, resource=r)
                        yield Tax(pay=pay, system=s, building=i)
        if "build" in kinds:
            for s, here in state.systems.items():
                yield Build(pay=pay, system=s, what="city")
                yield Build(pay=pay, system=s, what="starport")
                if "." in s:
                    for slot in range(len(state.players[seat].resources)):
                        if slot != pay and lore_ops.pays_cloud_city(state, box, seat, s, slot):
                            yield Build(pay=pay, system=s, what="city", cost_slot=slot)
                            break
                if any(b.owner == seat and b.kind == "starport" for b in here.buildings):
                    yield Build(pay=pay, system=s, what="ship")
        if "repair" in kinds:
            for s, here in state.systems.items():
                if here.ships_of(seat).damaged:
                    yield Repair(pay=pay, system=s, piece="ship")
                for i, b in enumerate(here.buildings):
                    if b.owner == seat and b.damaged:
                        yield Repair(pay=pay, system=s, piece="building", building=i)
        if "move" in kinds:
            for s in mine:
                ships = state.systems[s].ships_of(seat)
                for nxt in sorted(reach.neighbours.get(s, ())):
                    yield MoveShips(pay=pay, origin=s, path=[nxt], fresh=ships.fresh, damaged=ships.damaged)
                    if ships.fresh > 1:
                        yield MoveShips(pay=pay, origin=s, path=[nxt], fresh=1)
                    if any(b.owner == seat and b.kind == "starport" for b in state.systems[s].buildings) \
                            and nxt.endswith("G"):
                        for far in sorted(reach.neighbours.get(nxt, ())):
                            if far != s:
                                yield MoveShips(pay=pay, origin=s, path=[nxt, far], fresh=ships.fresh,
                                                damaged=ships.damaged)
        if "influence" in kinds:
            for card in state.court_row:
                if card:
                    yield Influence(pay=pay, card=card)
        if "secure" in kinds:
            for card in state.court_row:
                if card:
                    yield Secure(pay=pay, card=card)
        if "battle" in kinds:
            for s in mine:
                n = min(dice_allowed(box, state, seat, s), 3 * MAX_DICE_PER_KIND)
                for rival in range(len(state.players)):
                    if rival == seat:
                        continue
                    a = min(n, MAX_DICE_PER_KIND)
                    yield Attack(pay=pay, system=s, defender=rival, assault=a, skirmish=min(n - a, 6))
                    yield Attack(pay=pay, system=s, defender=rival, skirmish=min(n, 6))
                    r = min(n, MAX_DICE_PER_KIND)
                    yield Attack(pay=pay, system=s, defender=rival, raid=r, assault=min(n - r, 6))
                    if n > 1:
                        yield Attack(pay=pay, system=s, defender=rival, assault=n // 2, raid=min(n - n // 2, 6))
        if hook is not None:
            for more in hook.arcs_act_candidates(box=box, state=state, seat=seat, pay=pay, kinds=kinds):
                yield from more or ()
    if turn.prelude:
        for i, r in enumerate(state.players[seat].resources):  # a token spent as a Weapon (ARCS-215, ARCS-313)
            if r is not None and not turn.weapon and "battle_with_pips" in prelude_buys(box, state, seat, r):
                yield Spend(pay=i)
                break
        for when in PRELUDE_TRIGGERS:
            for use in abilities.held(state, box, seat, when):
                if use.card in turn.gained:
                    continue  # ARCS-117
                for params in abilities.candidates(env_for(box, state, seat=seat), use):
                    yield UseAbility(card=use.card, index=use.index, params=params)
    for pay, kinds in _pays(box, state, seat):
        for use in abilities.held(state, box, seat, "new_action"):
            if use.ability.action in kinds:
                for params in abilities.candidates(env_for(box, state, seat=seat), use):
                    yield UseAbility(pay=pay, card=use.card, index=use.index, params=params)
    yield Done()
