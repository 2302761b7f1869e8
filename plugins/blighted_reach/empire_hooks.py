"""The Empire, the Free States and the Blight on the Arcs flow: the campaign's answers to the
base rules' `arcs_*` hooks (plugins/arcs/hookspecs.py, "the Empire (campaign)"), which the
`blighted-reach` plugin takes into its namespace. Only campaign tables register them.

What they do: a turn's Tax, Build, Repair, Move and Battle are checked and applied by the
Empire's laws (`empire`), the Free States' rules (`free_states`) and the Blight's
(`blight`) in place of the base checks, which know neither Imperial ships nor pieces of no
player; the battle's campaign part is `empire_battle`'s; the chapter clean-up returns the
Trophies of the Empire, the Free States and the Blight. The acting seat decides everything
asked here (ARCS-183 in battles); the Laws its cards let it ignore come from
`empire.laws_ignored`.
"""
from __future__ import annotations

from core.errors import ActionRejected, BadParameter, IllegalAction
from core.hookspecs import hookimpl
from plugins.arcs.actions import check_build, check_move, do_build
from plugins.arcs.battle import ships_present
from plugins.arcs.content import box_for as campaign_arcs_box
from plugins.arcs.control import CONTROL_READERS
from plugins.arcs.turn import (
    MAX_DICE_PER_KIND, Attack, Build, MoveShips, Repair, check_dice, dice_allowed, move_reach, reach_of, to_move,
)
from plugins.blighted_reach import blight as blight_rules
from plugins.blighted_reach import empire, empire_battle, free_states
from plugins.blighted_reach.blight import BLIGHT
from plugins.blighted_reach.board import (
    EMPIRE, blight, controls_on_turn, free_buildings, imperial_ships, is_regent,
)
from plugins.blighted_reach.board import controller as board_controller
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.empire import ImperialGroup
from plugins.blighted_reach.state import FREE, BlightedReachState, Pieces
from plugins.flagships import battle as flagship_battle
from plugins.flagships import engine as flagship

__all__ = [
    "arcs_check_tax", "arcs_check_build", "arcs_build", "arcs_check_repair", "arcs_repair", "arcs_check_move",
    "arcs_moved_along", "arcs_check_attack", "arcs_act_candidates", "arcs_battle_begun", "arcs_battle_resolve",
    "arcs_defender_present", "arcs_chapter_clean_up",
]
DEFENDERS = (EMPIRE, FREE, BLIGHT)  # the defenders of no seat, as `Attack.defender`


def _laws(state: BlightedReachState, seat: int) -> frozenset[str]:
    return empire.laws_ignored(campaign_box(), state, seat)


def card_control(state, seat: int, system: str, on_turn: bool) -> bool | None:
    """Control as a card's effect reads it on a campaign table: the Empire's where it
    controls, a Regent's there by the Presence Law on its own turn (BR-121..BR-125), else
    the base count. Reading: a card asking for "a system you control" is used on its
    holder's turn, so reads control on that turn, as Tax does; while a Rival acts (Gate
    Ports) an Empire-controlled system is no seat's."""
    if not isinstance(state, BlightedReachState):
        return None
    if not on_turn:
        return board_controller(state, system) == seat
    return controls_on_turn(state, seat, system, "presence" in _laws(state, seat))


CONTROL_READERS.append(card_control)


# -- Tax (BR-123, BR-133, BR-177, BR-184) ------------------------------------------------
@hookimpl
def arcs_check_tax(state, seat, system, building, taxed):
    """A Regent taxes the cities of an Empire system it has Loyal pieces in as its
    controller (the Presence Law), never a Rival Regent's where Imperial ships are (the Truce
    Law); a Free city needs control. The base `do_tax` then captures nobody for a Free city."""
    flagship.check_tax(campaign_arcs_box(state), state, seat, system, building, taxed, _tax_check(state, seat, system,
                                                                                                  building))
    return True


def _tax_check(state: BlightedReachState, seat: int, system: str, building: int):
    """The campaign's own check of this tax, for the turn's `taxed` list (a Control Array may
    allow what it refuses, `flagships.engine.check_tax`)."""
    laws = _laws(state, seat)
    return lambda taxed: empire.check_tax(state, seat, system, building, taxed, ignore_truce="truce" in laws,
                                          ignore_presence="presence" in laws)


def tax_by_control_array(state, seat: int, system: str, building: int) -> bool:
    """This tax stands by a Control Array alone: it takes no Captive (BR-302)."""
    return isinstance(state, BlightedReachState) and flagship.taxes_like_loyal(
        campaign_arcs_box(state), state, seat, system, building, _tax_check(state, seat, system, building))


# -- Build (ARCS-144..146, BR-122, BR-123, BR-126, BR-177) ------------------------------
def _loyal_port(state: BlightedReachState, seat: int, system: str, used: list) -> int | None:
    here = state.systems[system]
    return next((i for i, b in enumerate(here.buildings)
                 if b.owner == seat and b.kind == "starport" and [system, i] not in used), None)


def _free_port(state: BlightedReachState, seat: int, system: str, used: list) -> int:
    """The first Free starport of the system the seat may build a ship at now (BR-177)."""
    for i in free_buildings(state, system):
        if state.systems[system].buildings[i].kind != "starport":
            continue
        try:
            free_states.check_free_ship(state, seat, system, i, used)
        except ActionRejected:
            continue
        return i
    raise IllegalAction(f"building a ship needs a Loyal starport, or a Free one of a system you control, in {system}")


@hookimpl
def arcs_check_build(box, state, seat, system, what, starports_used, in_gate, off_slots, slot, layer):
    """A ship at a Loyal starport or at a Free starport of a controlled system (BR-177); a
    building where the seat has Loyal pieces or commands Imperial ships (BR-123). A seat
    with a Flagship builds by its rules first (`flagships.engine`)."""
    if flagship.check_build(box, state, seat, system, what, starports_used, in_gate, off_slots, slot, layer):
        return True
    if what == "ship":
        try:
            check_build(box, state, seat, system, what, starports_used)
        except IllegalAction:
            try:
                _free_port(state, seat, system, starports_used)
            except IllegalAction:
                if flagship.lent_ship_site(state, seat, system, starports_used) < 0:
                    raise
        return True
    present = None
    if what in ("city", "starport") and system in state.systems:
        present = empire.may_build_building_at(state, seat, system, "presence" in _laws(state, seat))
    check_build(box, state, seat, system, what, starports_used, in_gate=in_gate, off_slots=off_slots, present=present)
    return True


@hookimpl
def arcs_build(state, seat, system, what, starports_used, fresh, slot, layer):
    """Damaged where another (the Empire included) controls on the seat's turn: an Outlaw
    in an Empire system, not a Regent with Loyal pieces there (BR-126). A ship goes to a
    Loyal starport first, else to a Free one (where the seat controls: always fresh), else at
    another's Flagship it may use (Judge's Chosen); a seat with a Flagship builds on its
    board and at the Flagship first."""
    built = flagship.build(campaign_arcs_box(state), state, seat, system, what, starports_used, fresh, slot, layer,
                           "presence" in _laws(state, seat))
    if built is not None:
        return built
    damaged = not fresh and empire.builds_damaged(state, seat, system, "presence" in _laws(state, seat))
    if what == "ship" and _loyal_port(state, seat, system, starports_used) is None:
        try:
            port = _free_port(state, seat, system, starports_used)
        except IllegalAction:  # the check found another's Flagship to build at (Judge's Chosen)
            owner = flagship.lent_ship_site(state, seat, system, starports_used)
            return flagship.build_at_lent_flagship(state, seat, owner, starports_used, damaged)
        return free_states.build_free_ship(state, seat, system, port, starports_used)
    return do_build(state, seat, system, what, starports_used, fresh=fresh, damaged=damaged)


# -- Repair (BR-123, BR-177) --------------------------------------------------------------
IMPERIAL_SHIP = "imperial"  # `Repair.piece` naming a damaged Imperial ship


def _free_building(state: BlightedReachState, system: str, building: int | None) -> bool:
    here = state.systems.get(system)
    return (here is not None and building is not None and 0 <= building < len(here.buildings)
            and here.buildings[building].owner == FREE)


@hookimpl
def arcs_check_repair(state, seat, system, piece, building):
    if flagship.check_repair(state, seat, system, piece, building):  # an Upgrade or Armor (BR-277)
        return True
    if piece == IMPERIAL_SHIP:
        empire.check_repair_imperial(state, seat, system, "presence" in _laws(state, seat))
        return True
    if piece == "building" and _free_building(state, system, building):
        free_states.check_free_repair(state, seat, system, building)
        return True
    return None


@hookimpl
def arcs_repair(state, seat, system, piece, building):
    if flagship.repair(state, seat, system, piece, building):
        return True
    if piece == IMPERIAL_SHIP:
        empire.repair_imperial(state, seat, system, "presence" in _laws(state, seat))
        return True
    if piece == "building" and _free_building(state, system, building):
        free_states.repair_free_building(state, seat, system, building)
        return True
    return None


# -- Move (BR-127..BR-131, BR-177, BR-237) -----------------------------------------------
# Another seat's Loyal ships a seat may move or attack with (Judge's Chosen, `fate_judge`),
# named in the act's `judge_*` fields: each rule checks their part of the act (raising to
# refuse) and returns how many ships it names, 0 when the act names none. Empty lists (or a
# 0 from every rule) leave every check as it was.
MOVE_ALONG_CHECKS: list = []    # fn(box, state, reach, seat, act) -> int
# Fate rules a move must also pass (the Gate Wraith's Breaking Gates): fn(box, state, reach,
# seat, act), raising to refuse.
MOVE_CHECKS: list = []
ATTACK_ALONG_CHECKS: list = []  # fn(box, state, seat, act) -> int


def _group(act) -> ImperialGroup:
    return ImperialGroup(fresh=act.imperial_fresh, damaged=act.imperial_damaged,
                         drops=tuple(tuple(d) for d in act.imperial_drops))


@hookimpl
def arcs_check_move(box, state, reach, seat, act):
    """The Loyal ships by the base check (adjacency, ships, drops), its Catapult rules
    replaced by the campaign's: a Loyal or controlled Free starport to start from, the stops
    of the Empire, Regents and Outlaws for the group as it moves on each leg, and Blighted
    gates; then the Imperial ships moving along (command, the Movement Law). Another seat's
    ships named (`MOVE_ALONG_CHECKS`) are their rule's: a move of theirs alone is checked."""
    for rule in MOVE_CHECKS:
        rule(box, state, reach, seat, act)
    others = sum(rule(box, state, reach, seat, act) for rule in MOVE_ALONG_CHECKS)
    if others and not (act.fresh or act.damaged or act.flagship or act.imperial_fresh or act.imperial_damaged
                       or act.imperial_drops):
        return True
    laws = _laws(state, seat)
    move, group = to_move(act), _group(act)
    if act.flagship:
        flagship.check_move(box, state, reach, seat, act)
        if not (act.fresh or act.damaged):
            return True  # the Flagship alone: its own check is the whole of it

    def catapult(state_, seat_, move_):
        empire.check_catapult_path(state_, seat_, move_, group)
        blight_rules.check_catapult_blight(box, state_, move_, seat_)

    check_move(state, reach, seat, move, stops=catapult)
    empire.check_imperial_move(state, seat, move, group, "presence" in laws, "movement" in laws)
    return True


@hookimpl
def arcs_moved_along(ctx, seat, act):
    """The Imperial ships named in a checked move go along its path (before the Loyal
    ships leave, so command at the origin still holds); a Flagship named goes too."""
    if act.flagship:
        flagship.move(ctx.state, seat, act)
        ctx.emit("flagship_moved", seat=seat, origin=act.origin, system=act.path[-1])
    if not (act.imperial_fresh or act.imperial_damaged):
        return
    laws = _laws(ctx.state, seat)
    empire.apply_imperial_move(ctx.state, seat, to_move(act), _group(act), "presence" in laws, "movement" in laws)
    ctx.emit("imperial_moved", seat=seat, origin=act.origin, path=list(act.path), fresh=act.imperial_fresh,
             damaged=act.imperial_damaged)


# -- Battle (BR-132..BR-141, BR-180, BR-233) ---------------------------------------------
@hookimpl
def arcs_check_attack(box, state, seat, act):
    """A Loyal ship there (ARCS-168); a defender the Empire's rules allow (a Rival seat,
    the Empire for an Outlaw, the Free States, never one the Truce Law shields) or the Blight
    where it is; the Imperial ships joining a Regent's attack (BR-135); one die per attacking
    ship, Imperial ones included (ARCS-171); another seat's ships named join them
    (`ATTACK_ALONG_CHECKS`)."""
    others = sum(rule(box, state, seat, act) for rule in ATTACK_ALONG_CHECKS)
    return check_campaign_attack(box, state, seat, act, others)


def check_campaign_attack(box, state, seat: int, act, others: int = 0) -> bool:
    """`arcs_check_attack`'s check; `others`: another seat's ships already checked to join
    the attack (Judge's Chosen), which stand for Loyal ships there (its FAQ: an attack may be
    made with the Judge's ships alone) and bring their dice."""
    here = state.systems.get(act.system)
    if here is None:
        raise BadParameter(f"{act.system!r} is not a system in play")
    if ships_present(state, seat, act.system) + others == 0:  # a Flagship is a Loyal ship (BR-267)
        raise IllegalAction(f"battling in {act.system} needs a Loyal ship there")  # ARCS-168
    joining = Pieces(fresh=act.imperial_fresh, damaged=act.imperial_damaged)
    if min(joining.fresh, joining.damaged) < 0:
        raise BadParameter("ship counts cannot be negative")
    laws = _laws(state, seat)
    if act.defender == BLIGHT:
        if blight(state, act.system).total == 0:
            raise IllegalAction(f"no Blight is in {act.system}")
        if joining.total:  # the Imperial ships' part, as against any defender (BR-135)
            _check_joining(state, seat, act.system, joining, "presence" in laws)
    else:
        if act.defender < 0 and act.defender not in DEFENDERS:
            raise BadParameter("the defender is a Rival seat, the Free States (-1), the Empire (-2) "
                                      "or the Blight (-3)")
        empire.battle_sides(state, seat, empire_battle.target_of(act.defender), act.system, joining,
                            ignore_truce="truce" in laws, ignore_presence="presence" in laws)
    check_dice(box, state, seat, act.system, act.defender, act.assault, act.skirmish, act.raid,
               joining=joining.total + others)
    return True


def _check_joining(state: BlightedReachState, seat: int, system: str, joining: Pieces, ignore_presence: bool) -> None:
    empire.check_command(state, seat, system, ignore_presence)
    present = imperial_ships(state, system)
    if joining.fresh > present.fresh or joining.damaged > present.damaged:
        raise BadParameter(f"only {present.fresh} fresh and {present.damaged} damaged Imperial ships "
                                  f"are in {system}")


@hookimpl
def arcs_battle_begun(ctx, imperial_fresh, imperial_damaged):
    """Record the Imperial ships attacking with the Regent (BR-135); a new battle may raid
    the Free States again (BR-181)."""
    state = ctx.state
    state.battle_imperial = Pieces(fresh=imperial_fresh, damaged=imperial_damaged)
    free_states.clear_free_raid(state)
    if imperial_fresh or imperial_damaged:
        ctx.emit("imperial_attack", seat=state.battle.attacker, system=state.battle.system,
                 fresh=imperial_fresh, damaged=imperial_damaged)


@hookimpl
def arcs_battle_resolve(ctx):
    """A symbol striking a side with a Flagship board is the Flagship rules' (BR-282..BR-290);
    the rest the campaign's part, then the base flow's. A Fate's shield takes the
    attacker's hits first (`empire_battle.ATTACKER_SHIELDS`)."""
    if ctx.state.battle is not None:
        for shield in empire_battle.ATTACKER_SHIELDS:
            shield(ctx)
    if flagship_battle.resolve_flagships(ctx):
        return True
    return empire_battle.resolve_part(ctx)


@hookimpl
def arcs_defender_present(state, system, defender):
    if defender == EMPIRE:
        return imperial_ships(state, system).total > 0
    if defender == FREE:
        return bool(free_buildings(state, system))
    if defender == BLIGHT:
        return blight(state, system).total > 0
    return False


# -- candidates for bots and legalActions -------------------------------------------------
def _imperial_along(state: BlightedReachState, seat: int, system: str, loyal: int) -> tuple[int, int]:
    """As many Imperial ships as the Movement Law lets move with `loyal` ships, fresh first."""
    here = imperial_ships(state, system)
    n = min(here.total, loyal)
    return min(here.fresh, n), n - min(here.fresh, n)


@hookimpl
def arcs_act_candidates(box, state, seat, pay, kinds):
    """Answers only the campaign's pieces make possible: ships at Free starports, repairs
    of Imperial ships and Free buildings, moves with Imperial ships and from Free starports,
    battles with Imperial ships or against the Empire, the Free States and the Blight."""
    out: list = []
    presence = "presence" in _laws(state, seat)
    commanded = set(empire.commandable_systems(state, seat, presence)) if is_regent(state, seat) else set()
    mine = [s for s, here in state.systems.items() if here.ships_of(seat).total]
    out += flagship.candidates(box, state, seat, pay, kinds, Build, Repair, MoveShips, move_reach(box, state, seat))
    if "build" in kinds:
        for s in state.systems:
            if _loyal_port(state, seat, s, []) is None and any(
                    state.systems[s].buildings[i].kind == "starport" for i in free_buildings(state, s)):
                out.append(Build(pay=pay, system=s, what="ship"))
    if "repair" in kinds:
        for s in sorted(commanded):
            if imperial_ships(state, s).damaged:
                out.append(Repair(pay=pay, system=s, piece=IMPERIAL_SHIP))
        for s in state.systems:
            for i in free_buildings(state, s):
                if state.systems[s].buildings[i].damaged:
                    out.append(Repair(pay=pay, system=s, piece="building", building=i))
    if "move" in kinds:
        reach = reach_of(box, state)
        for s in mine:
            ships = state.systems[s].ships_of(seat)
            if s in commanded:
                f, d = _imperial_along(state, seat, s, ships.total)
                for nxt in sorted(reach.neighbours.get(s, ())):
                    out.append(MoveShips(pay=pay, origin=s, path=[nxt], fresh=ships.fresh, damaged=ships.damaged,
                                         imperial_fresh=f, imperial_damaged=d))
            if _loyal_port(state, seat, s, []) is None and free_states.catapult_origin(state, seat, s):
                for nxt in sorted(n for n in reach.neighbours.get(s, ()) if n.endswith("G")):
                    for far in sorted(reach.neighbours.get(nxt, ())):
                        if far != s:
                            out.append(MoveShips(pay=pay, origin=s, path=[nxt, far], fresh=ships.fresh,
                                                 damaged=ships.damaged))
    if "battle" in kinds:
        for s in mine:
            joining = imperial_ships(state, s) if s in commanded else Pieces()
            rivals = [r for r in range(len(state.players)) if r != seat]
            for defender in [*DEFENDERS, *rivals]:
                for imp in ([Pieces(), joining] if joining.total else [Pieces()]):
                    if defender >= 0 and not imp.total:
                        continue  # the base candidates have these
                    n = min(dice_allowed(box, state, seat, s, imp.total), 3 * MAX_DICE_PER_KIND)
                    a = min(n, MAX_DICE_PER_KIND)
                    out.append(Attack(pay=pay, system=s, defender=defender, assault=a, skirmish=min(n - a, 6),
                                      imperial_fresh=imp.fresh, imperial_damaged=imp.damaged))
                    if defender == FREE:  # raid dice hit buildings and bring keys
                        r = min(n, MAX_DICE_PER_KIND)
                        out.append(Attack(pay=pay, system=s, defender=defender, raid=r, assault=min(n - r, 6),
                                          imperial_fresh=imp.fresh, imperial_damaged=imp.damaged))
    return out


# -- the chapter's clean-up (Warlord: ARCS-247) -------------------------------------------
@hookimpl
def arcs_chapter_clean_up(ctx, scored):
    """Trophies of the Empire and the Free States to their supplies (a Free proxy first,
    BR-182), Blight Trophies to the Blight supply; the base clean-up returns the rest."""
    if "warlord" not in scored:
        return
    state = ctx.state
    blight_rules.return_blight_trophies(state)
    for player in state.players:
        player.trophies = [t for t in player.trophies if not (t.owner < 0 and empire.return_campaign_trophy(state, t))]
