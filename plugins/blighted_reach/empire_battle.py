"""Battles with the campaign's pieces on the base Arcs battle flow (`plugins.arcs.battle_flow`):
the Imperial ships attacking with a Regent (BR-135) or defending one (BR-136) and the Empire
defending alone (BR-138), the Free States (BR-180, BR-181) and the Blight (BR-233..BR-235)
as defenders, and who takes the destroyed pieces (BR-139, BR-179, BR-232).

The base flow rolls and tallies the dice; before it resolves each symbol it asks
`arcs_battle_resolve`, and `resolve_part` answers for the symbols whose targets are the
campaign's: hits on a side holding Imperial ships, on the Blight, hits and keys against a
defender of no seat. Building hits, the Outrage of destroyed cities (a Free city's too,
BR-183) and the battle's end stay the base flow's. Every choice is the attacker's
(ARCS-183): how the hits on a side split over its Loyal and Imperial ships, how they fall on
the Blight, whether to raid the Free States.
"""
from __future__ import annotations

import msgspec

from core.errors import ActionRejected, BadParameter
from core.state import Action
from plugins.arcs.battle import ship_capacity, ships_present
from plugins.arcs.battle_flow import ShipSplit, resolve, ship_hits, splits
from plugins.arcs.content import box_for
from plugins.arcs.state import Ships, Trophy
from plugins.blighted_reach import blight as blight_rules
from plugins.blighted_reach import empire, free_states
from plugins.blighted_reach.blight import BLIGHT, BlightHits
from plugins.blighted_reach.board import EMPIRE, blight, destroyed_ships_home, imperial_ships, is_regent
from plugins.blighted_reach.state import FREE, BlightedReachState, Pieces
from plugins.blighted_reach.tables import decisions, steps

ATTACKING, DEFENDING = "attacking", "defending"


def target_of(defender: int) -> empire.Target:
    """The Empire rules' name of a defender: a seat, "empire" or "free" (the Blight has its own rules)."""
    return {EMPIRE: "empire", FREE: "free"}.get(defender, defender)


def campaign_battle(state: BlightedReachState) -> bool:
    """Does the battle being resolved touch the campaign's pieces now? A defender of no seat,
    Imperial ships or the Judge's ships (Judge's Chosen) attacking, or a Regent defending where Imperial ships are (BR-136)."""
    b = state.battle
    return (b.defender < 0 or state.battle_imperial.total > 0 or state.battle_judge.total > 0
            or state.battle_judge_flagship
            or (is_regent(state, b.defender) and imperial_ships(state, b.system).total > 0))


def side_ships(state: BlightedReachState, side: str) -> tuple[int | None, Ships, Pieces]:
    """(the seat whose Loyal ships are on the side, or None; those ships; the Imperial ships
    on the side). The defending Regent's are every Imperial ship there (BR-136), the Empire's
    exactly those (BR-138); the Free States and the Blight have no ships."""
    b = state.battle
    here = state.systems[b.system]
    if side == ATTACKING:
        return b.attacker, here.ships_of(b.attacker), state.battle_imperial
    if b.defender == EMPIRE:
        return None, Ships(), imperial_ships(state, b.system)
    if b.defender < 0:
        return None, Ships(), Pieces()
    present = imperial_ships(state, b.system) if is_regent(state, b.defender) else Pieces()
    return b.defender, here.ships_of(b.defender), present


def side_judge(state: BlightedReachState, side: str) -> Pieces:
    """The Judge's Loyal ships on the side: those the holder of Judge's Chosen added to its
    attack (F2404, `fate_judge`); they never join a defending side but the Judge's own."""
    return state.battle_judge if side == ATTACKING else Pieces()


def defending_fresh(state: BlightedReachState) -> int:
    """What an intercept deals: one hit per fresh defending ship, Imperial ones included
    (ARCS-178); the Free States and the Blight never intercept (BR-235)."""
    _, loyal, imperial = side_ships(state, DEFENDING)
    return loyal.fresh + imperial.fresh


class SideSplit(msgspec.Struct, forbid_unknown_fields=True):
    """Hits on one side's ships: on its Loyal ships, on its Imperial ships and on the Judge's
    ships attacking with it (Judge's Chosen), each as the base `ShipSplit` (fresh damaged,
    fresh destroyed, damaged destroyed)."""

    loyal: ShipSplit = msgspec.field(default_factory=ShipSplit)
    imperial: ShipSplit = msgspec.field(default_factory=ShipSplit)
    judge: ShipSplit = msgspec.field(default_factory=ShipSplit)


def _hits(split: ShipSplit) -> int:
    return split.damage_fresh + 2 * split.destroy_fresh + split.destroy_damaged


def side_splits(loyal: Ships, imperial: Pieces, hits: int, judge: Pieces = Pieces()):
    """Every split the rules accept: every hit that can land on the side's ships does
    (ARCS-186), spread over its Loyal, Imperial and attacking Judge's ships as the attacker
    likes."""
    need = min(hits, ship_capacity(loyal) + ship_capacity(imperial) + ship_capacity(judge))
    for on_judge in range(min(need, ship_capacity(judge)) + 1):
        for on_imperial in range(min(need - on_judge, ship_capacity(imperial)) + 1):
            on_loyal = need - on_imperial - on_judge
            if on_loyal > ship_capacity(loyal):
                continue
            for sj in splits(Ships(fresh=judge.fresh, damaged=judge.damaged), on_judge):
                for si in splits(Ships(fresh=imperial.fresh, damaged=imperial.damaged), on_imperial):
                    for sl in splits(loyal, on_loyal):
                        yield SideSplit(loyal=sl, imperial=si, judge=sj)


def check_side_split(loyal: Ships, imperial: Pieces, hits: int, split: SideSplit, judge: Pieces = Pieces()) -> None:
    for part, ships, name in ((split.loyal, loyal, "Loyal"), (split.imperial, imperial, "Imperial"),
                              (split.judge, judge, "of the Judge's")):
        if min(part.damage_fresh, part.destroy_fresh, part.destroy_damaged) < 0:
            raise BadParameter("hit counts cannot be negative")
        if part.damage_fresh + part.destroy_fresh > ships.fresh or part.destroy_damaged > ships.damaged:
            raise BadParameter(f"only {ships.fresh} fresh and {ships.damaged} damaged {name} ships are there")
    need = min(hits, ship_capacity(loyal) + ship_capacity(imperial) + ship_capacity(judge))
    landed = _hits(split.loyal) + _hits(split.imperial) + _hits(split.judge)
    if landed != need:
        raise BadParameter(f"{need} hit(s) must go to these ships, not {landed}")


def _after(fresh: int, damaged: int, split: ShipSplit) -> tuple[int, int, int]:
    """(fresh, damaged, destroyed) once the split is applied."""
    return (fresh - split.damage_fresh - split.destroy_fresh, damaged + split.damage_fresh - split.destroy_damaged,
            split.destroy_fresh + split.destroy_damaged)


def _set_imperial(state: BlightedReachState, system: str, fresh: int, damaged: int) -> None:
    if fresh + damaged:
        state.imperial[system] = Pieces(fresh=fresh, damaged=damaged)
    else:
        state.imperial.pop(system, None)


def taker_of(state: BlightedReachState, side: str) -> int | None:
    """Who takes the side's destroyed pieces as Trophies (ARCS-187, BR-139: see
    `empire.trophy_taker`), None: back to their supply.
    Reading: the Blight keeps no Trophies (its Crises take none either), so the attacker's
    ships it destroys go home."""
    b = state.battle
    if b.defender == BLIGHT:
        return b.attacker if side == DEFENDING else None
    return empire.trophy_taker(state, b.attacker, target_of(b.defender), side)


def apply_side(ctx, side: str, hits: int, split: SideSplit) -> None:
    """Damage and destroy on one side; the Loyal and Imperial ships destroyed go to
    `taker_of`'s Trophies (Imperial ones as Trophy(EMPIRE, "ship")) or home; hits on the
    defender beyond all its ships, Imperial ones included, go on to its buildings (BR-140)."""
    state, b = ctx.state, ctx.state.battle
    here = state.systems[b.system]
    owner, loyal, imperial = side_ships(state, side)
    judge = side_judge(state, side)
    check_side_split(loyal, imperial, hits, split, judge)
    taker = taker_of(state, side)
    destroyed = {"loyal": 0, "imperial": 0}
    if owner is not None:
        fresh, damaged, gone = _after(loyal.fresh, loyal.damaged, split.loyal)
        here.ships[owner] = Ships(fresh=fresh, damaged=damaged)
        destroyed["loyal"] = gone
        if taker is None:
            destroyed_ships_home(state, owner, gone)
        else:
            state.players[taker].trophies.extend([Trophy(owner=owner, kind="ship")] * gone)
    if imperial.total:
        fresh, damaged, gone = _after(imperial.fresh, imperial.damaged, split.imperial)
        before = imperial_ships(state, b.system)
        _set_imperial(state, b.system, before.fresh - imperial.fresh + fresh, before.damaged - imperial.damaged + damaged)
        if side == ATTACKING:
            state.battle_imperial = Pieces(fresh=fresh, damaged=damaged)
        destroyed["imperial"] = gone
        if taker is None:
            destroyed_ships_home(state, EMPIRE, gone)
        else:
            state.players[taker].trophies.extend([Trophy(owner=EMPIRE, kind="ship")] * gone)
    extra = {}
    if judge.total:
        extra = {"judge_damaged": split.judge.damage_fresh, "judge_destroyed": _apply_judge(state, judge, split.judge,
                                                                                          taker)}
    ctx.emit("ships_hit", system=b.system, owner=owner if owner is not None else EMPIRE,
             damaged=split.loyal.damage_fresh, destroyed=destroyed["loyal"],
             imperial_damaged=split.imperial.damage_fresh, imperial_destroyed=destroyed["imperial"], **extra)
    leftover = hits - min(hits, ship_capacity(loyal) + ship_capacity(imperial) + ship_capacity(judge))
    if side == DEFENDING and leftover and b.defender >= 0:
        b.building_hit += leftover


def _apply_judge(state: BlightedReachState, judge: Pieces, split: ShipSplit, taker: int | None) -> int:
    """The hits on the Judge's ships attacking with the holder of Judge's Chosen: taken off
    the Judge's ships there; destroyed ones become the taker's Trophies (the Judge's pieces)
    or go back to the Judge's supply. Returns how many were destroyed."""
    b, seat = state.battle, state.battle_judge_seat
    here = state.systems[b.system]
    fresh, damaged, gone = _after(judge.fresh, judge.damaged, split)
    now = here.ships_of(seat)
    here.ships[seat] = Ships(fresh=now.fresh - judge.fresh + fresh, damaged=now.damaged - judge.damaged + damaged)
    state.battle_judge = Pieces(fresh=fresh, damaged=damaged)
    if taker is None:
        destroyed_ships_home(state, seat, gone)
    else:
        state.players[taker].trophies.extend([Trophy(owner=seat, kind="ship")] * gone)
    return gone


def side_hits(ctx, side: str, hits: int) -> None:
    """Hits on one side: applied at once when only one split is possible, else the
    attacker's typed choice; then the battle resolves on. A side of Loyal ships alone facing
    (or being) a seat is the base flow's `ship_hits` (its Trophies go to a seat)."""
    state = ctx.state
    owner, loyal, imperial = side_ships(state, side)
    judge = side_judge(state, side)
    if not imperial.total and not judge.total and owner is not None and state.battle.defender >= 0:
        ship_hits(ctx, owner, hits)
        return
    options = list(side_splits(loyal, imperial, hits, judge))
    if len(options) == 1:
        apply_side(ctx, side, hits, options[0])
        ctx.push(resolve)
    else:
        ctx.decide(state.battle.attacker, "br.side_hits", resume=side_hits_done, side=side, hits=hits)


@decisions.kind("side_hits", answer="assign_side_hits", params=SideSplit,
                describe="Split the hits on one battle side over its Loyal and its Imperial ships.")
def check_side_hits(state, seat, prompt, answer: SideSplit):
    _, loyal, imperial = side_ships(state, prompt.args["side"])
    check_side_split(loyal, imperial, prompt.args["hits"], answer, side_judge(state, prompt.args["side"]))


@check_side_hits.candidates
def _side_hit_options(state, seat, prompt):
    _, loyal, imperial = side_ships(state, prompt.args["side"])
    judge = side_judge(state, prompt.args["side"])
    for split in side_splits(loyal, imperial, prompt.args["hits"], judge):
        answer = msgspec.to_builtins(split)
        if not judge.total:
            answer.pop("judge")  # no Judge's ship attacks: the answer names none
        yield answer


@steps("side_hits_done")
def side_hits_done(ctx, seat, params: SideSplit, side: str, hits: int):
    apply_side(ctx, side, hits, params)
    ctx.push(resolve)


# -- the Blight as defender (BR-231..BR-235) ----------------------------------------------
class BlightSplit(msgspec.Struct, forbid_unknown_fields=True):
    """The attacker's split of hits over the defending Blight (`blight.BlightHits`)."""

    damage_fresh: int = 0
    destroy_fresh: int = 0
    destroy_damaged: int = 0


def _blight_split(answer: BlightSplit) -> BlightHits:
    return BlightHits(answer.damage_fresh, answer.destroy_fresh, answer.destroy_damaged)


def apply_blight(ctx, hits: int, split: BlightSplit) -> None:
    state, b = ctx.state, ctx.state.battle
    taken = blight_rules.apply_blight_hits(state, b.attacker, b.system, hits, _blight_split(split))
    ctx.emit("blight_hit", system=b.system, seat=b.attacker, damaged=split.damage_fresh, destroyed=taken)


def blight_hits(ctx, hits: int) -> None:
    """Hits on the defending Blight (every Blight there, BR-233), two per step (BR-231)."""
    state = ctx.state
    tough = blight_rules.toughness(state, state.battle.attacker)
    options = blight_rules.options_blight_hits(blight(state, state.battle.system), hits, tough)
    if len(options) == 1:
        apply_blight(ctx, hits, BlightSplit(**options[0]))
        ctx.push(resolve)
    else:
        ctx.decide(state.battle.attacker, "br.blight_hits", resume=blight_hits_done, hits=hits)


@decisions.kind("blight_hits", answer="assign_blight_hits", params=BlightSplit,
                describe="Split the hits on the defending Blight, two hits per step.")
def check_blight_hits(state, seat, prompt, answer: BlightSplit):
    blight_rules.check_blight_hits(blight(state, state.battle.system), prompt.args["hits"], _blight_split(answer),
                                   blight_rules.toughness(state, state.battle.attacker))


@check_blight_hits.candidates
def _blight_hit_options(state, seat, prompt):
    return blight_rules.options_blight_hits(blight(state, state.battle.system), prompt.args["hits"],
                                            blight_rules.toughness(state, state.battle.attacker))


@steps("blight_hits_done")
def blight_hits_done(ctx, seat, params: BlightSplit, hits: int):
    apply_blight(ctx, hits, params)
    ctx.push(resolve)


# -- raiding the Free States (BR-181) ----------------------------------------------------
def free_raid_prompt(ctx) -> bool:
    """Offer the attacker the Free States' one resource for its keys; False when it cannot
    be had (no attacking ship left, no planet, no key enough, an empty supply)."""
    state, b = ctx.state, ctx.state.battle
    attacking = ships_present(state, b.attacker, b.system) - b.joined
    if attacking <= 0:
        return False
    try:
        free_states.check_free_raid(box_for(state), state, b.attacker, b.system, b.key)
    except ActionRejected:  # nothing to offer: the keys are lost (ARCS-204)
        return False
    ctx.prompt(b.attacker, "raid_free_states",
               [Action("raid_free_states", {"take": True}), Action("raid_free_states", {"take": False})],
               resume=free_raided)
    return True


@steps("free_raided")
def free_raided(ctx, seat, params):
    state, b = ctx.state, ctx.state.battle
    if params["take"]:
        free_states.raid_free_states(box_for(state), state, seat, b.system, b.key)
        ctx.emit("free_states_raided", seat=seat, system=b.system, resource=box_for(state).systems[b.system].type)
    b.key = 0  # one resource a battle (BR-181): the keys left are lost
    ctx.push(resolve)


# Fate pieces that building hits strike as they strike buildings (the Hegemon's Banners,
# F1003): fn(ctx) -> True when it resolved the battle's building hits (and pushed the rest).
BUILDING_HIT_RULES: list = []


# Fate pieces that take an attacker's hits before its ships (the Warden's Levy, F1612):
# fn(ctx) -> None, asked before each symbol resolves; it may lower the battle's self-hits
# and intercepts by the hits it took.
ATTACKER_SHIELDS: list = []


# -- the hook's answer ---------------------------------------------------------------------
def _ships_done(b) -> bool:
    """Only keys (or nothing) are left: no ship is hit any more in this battle."""
    return not (b.self_hit or b.intercept or b.hit or b.building_hit or b.cities)


def resolve_part(ctx) -> bool | None:
    """`arcs_battle_resolve`: resolve the next symbol here when its target is the
    campaign's (True), else leave it to the base flow (None). The order is the base one
    (ARCS-176): self-hits, intercepts, hits, building hits, cities, keys."""
    state = ctx.state
    b = state.battle
    if b is None:
        return None
    if b.building_hit and not (b.self_hit or b.intercept or b.hit) and any(rule(ctx) for rule in BUILDING_HIT_RULES):
        return True  # a Fate's piece struck like a building (the Hegemon's Banner)
    if not campaign_battle(state):
        if _ships_done(b):
            end_battle(state)
        return None
    if b.self_hit:  # ARCS-177: on the attacker's own ships, Imperial ones included (BR-132's exception)
        hits, b.self_hit = b.self_hit, 0
        side_hits(ctx, ATTACKING, hits)
        return True
    if b.intercept:  # ARCS-178: once, one hit per fresh defending ship
        b.intercept = 0
        hits = defending_fresh(state)
        if hits:
            side_hits(ctx, ATTACKING, hits)
        else:
            ctx.push(resolve)
        return True
    if b.hit:
        hits, b.hit = b.hit, 0
        if b.defender == FREE:  # no ships: every hit goes on to the Free buildings (BR-180)
            b.building_hit += hits
            ctx.push(resolve)
        elif b.defender == BLIGHT:
            blight_hits(ctx, hits)
        else:
            side_hits(ctx, DEFENDING, hits)
        return True
    if b.building_hit and b.defender in (EMPIRE, BLIGHT):  # no buildings (BR-234: the Blight ignores them)
        ctx.emit("building_hits_lost", system=b.system, hits=b.building_hit)
        b.building_hit = 0
        ctx.push(resolve)
        return True
    if b.building_hit or b.cities:
        return None  # by owner in the base flow: Free buildings too (BR-179, BR-183)
    if b.key and b.defender < 0:
        if b.defender == FREE and not state.free_raided and free_raid_prompt(ctx):
            return True
        b.key = 0  # nothing of the Empire's or the Blight's to raid: keys are lost
    end_battle(state)
    return None


def end_battle(state: BlightedReachState) -> None:
    """No ship is hit any more in this battle: its Imperial attackers and its raid of the
    Free States are forgotten (a raid still to come checks the battle's keys alone)."""
    state.battle_imperial = Pieces()
    free_states.clear_free_raid(state)
