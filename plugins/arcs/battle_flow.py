"""A battle as steps (digest 7.8-7.10): roll through core.chance, then resolve the symbols
in their fixed order (ARCS-176), each choice the attacker's (ARCS-183): self-hits and
intercepts on their own ships, hits on the defender's ships then buildings, each destroyed
city's Outrage and Ransack, then keys spent on raiding."""
from __future__ import annotations

import msgspec

from core import chance
from core.errors import BadParameter
from core.state import Action
from plugins.arcs.battle import (
    ShipHits, apply_building_hits, apply_ship_hits, check_building_hits, check_ship_hits, destroyed_indexes,
    ship_capacity, ships_present, total,
)
from plugins.arcs import lore_ops
from plugins.arcs.content import box_for
from plugins.arcs.court_flow import offer, offer_in_window, take
from plugins.arcs.outrage import (
    guarded, guild_card_guarded, provoke_outrage, ransack_targets, steal_guild_card, steal_resource,
)
from plugins.arcs.state import Battle, Ships, Trophy
from plugins.arcs.tables import decisions, steps
from plugins.arcs.turn import dice_choices


class ShipSplit(msgspec.Struct, forbid_unknown_fields=True):
    """Hits on one player's ships in the battle system: fresh ships damaged, fresh ships
    destroyed (two hits each), damaged ships destroyed (ARCS-128, ARCS-185)."""

    damage_fresh: int = 0
    destroy_fresh: int = 0
    destroy_damaged: int = 0


class BuildingSplit(msgspec.Struct, forbid_unknown_fields=True):
    """Hits per defending building, by its index in the system's buildings ("0", "1")."""

    hits: dict[str, int] = {}


def _faces(box):
    return {kind: [msgspec.to_builtins(f) for f in die.faces] for kind, die in box.dice.items()}


@steps("battle")
def battle(ctx, seat: int, system: str, defender: int, assault: int = 0, skirmish: int = 0, raid: int = 0,
           imperial_fresh: int = 0, imperial_damaged: int = 0, judge_fresh: int = 0, judge_damaged: int = 0,
           judge_flagship: bool = False):
    """ARCS-171..176: one roll of the collected dice; every symbol is then resolved in order.
    Railgun Arrays (L12) first hit the attacker before the dice are collected (the card FAQ:
    the attacker then chooses dice for the ships left). `imperial_*`: other ships joining
    the attack in a game built on Arcs (`arcs_battle_begun`); `judge_*`: another seat's Loyal
    ships joining it there (the same hook)."""
    state, box = ctx.state, box_for(ctx.state)
    here = state.systems[system]
    which = ["assault"] * assault + ["skirmish"] * skirmish + ["raid"] * raid
    ctx.emit("battle", attacker=seat, defender=defender, system=system)
    state.battle = Battle(attacker=seat, defender=defender, system=system, dice=which,
                          all_fresh=here.ships_of(seat).damaged == 0,
                          trophies_at_start=len(state.players[seat].trophies))
    ctx.hook.arcs_battle_begun(ctx=ctx, imperial_fresh=imperial_fresh, imperial_damaged=imperial_damaged,
                               judge_fresh=judge_fresh, judge_damaged=judge_damaged, judge_flagship=judge_flagship)
    railgun = lore_ops.railgun_hits(state, box, system, defender)
    ctx.push(roll_dice)
    if railgun:  # the hit comes before the dice are collected: they are chosen afterwards
        ctx.emit("railgun", attacker=seat, defender=defender, hits=railgun)
        ctx.push(collect_dice)
        ship_hits(ctx, seat, railgun, then=None)


@steps("collect_dice")
def collect_dice(ctx):
    """After Railgun Arrays' hit (L12) the attacker collects dice for the ships left (the
    battle's named dice are not yet collected then); none if no ship is left."""
    state, box = ctx.state, box_for(ctx.state)
    b = state.battle
    if not ships_present(state, b.attacker, b.system):
        b.dice = []
        return
    options = [Action("dice", d) for d in dice_choices(box, state, b.attacker, b.system, b.defender)]
    ctx.ask(b.attacker, "battle_dice", options, resume=dice_collected)


@steps("dice_collected")
def dice_collected(ctx, seat, params):
    b = ctx.state.battle
    b.dice = ["assault"] * params["assault"] + ["skirmish"] * params["skirmish"] + ["raid"] * params["raid"]


@steps("roll_dice")
def roll_dice(ctx):
    """The roll (public, through core.chance) of the dice collected; then the attacker's
    after-roll abilities (Skirmishers, Seeker Torpedoes) and the tally."""
    state, box = ctx.state, box_for(ctx.state)
    b = state.battle
    if not ships_present(state, b.attacker, b.system):
        b.dice = []
    b.roll = [tuple(f) for f in chance.roll(ctx, b.attacker, _faces(box), list(b.dice), why="battle")]
    ctx.push_all([(offer, {"seat": b.attacker, "when": "battle_roll"}), (tally, {})])


@steps("tally")
def tally(ctx):
    """The final roll's symbols; intercepts with Mirror Plating (L04) and Signal Breaker (L06)."""
    state, box = ctx.state, box_for(ctx.state)
    b = state.battle
    r = total(box.dice, [tuple(f) for f in b.roll])
    b.hit, b.building_hit, b.self_hit, b.key = r.hit, r.building_hit, r.self_hit, r.key
    b.intercept = lore_ops.intercepts(state, box, b.attacker, b.defender, r.intercept, b.dice, b.all_fresh)
    ctx.push(resolve)


@steps("resolve")
def resolve(ctx):
    if ctx.hook.arcs_battle_resolve(ctx=ctx):  # a game built on Arcs resolves its own pieces' part
        return
    state = ctx.state
    b = state.battle
    here = state.systems[b.system]
    if b.self_hit:  # ARCS-177
        hits, b.self_hit = b.self_hit, 0
        return ship_hits(ctx, b.attacker, hits)
    if b.intercept:  # ARCS-178/179: once, one hit per fresh defending ship
        b.intercept = 0
        return ship_hits(ctx, b.attacker, here.ships_of(b.defender).fresh)
    if b.hit:  # ARCS-180: ships first, the rest to buildings
        hits, b.hit = b.hit, 0
        return ship_hits(ctx, b.defender, hits)
    if b.building_hit:  # ARCS-181
        hits, b.building_hit = b.building_hit, 0
        return building_hits(ctx, hits)
    # ARCS-190, ARCS-198: Outrage then Ransack, city by city. ARCS-199 is UNCERTAIN (digest 18,
    # item 12): ruling A-R4, one city at a time; all stand on one planet, so order cannot matter.
    if b.cities:
        b.cities -= 1
        return city_destroyed(ctx)
    attacking = ships_present(state, b.attacker, b.system) - b.joined  # ships placed mid-battle do not attack
    if b.key and attacking > 0:  # ARCS-182
        return raid_prompt(ctx)
    state.battle = None  # ARCS-204: keys left are lost
    ctx.emit("battle_over", attacker=b.attacker, defender=b.defender, system=b.system)
    if lore_ops.repair_drones(state, box_for(state), b.attacker, b.system, attacking):  # L07
        ctx.emit("repaired", seat=b.attacker, system=b.system, piece="ship", why="repair_drones")
    took = len(state.players[b.attacker].trophies) > b.trophies_at_start
    defended = offer_in_window(b.defender, "after_defend", facts={"trophies_taken": took}) if b.defender >= 0 else []
    ctx.push_all([(offer, {"seat": b.attacker, "when": "after_attack"}), *defended])  # a defender < 0 is no seat


def splits(ships: Ships, hits: int):
    """Every split of `hits` over these ships that the rules accept (all that can land must)."""
    need = min(hits, ship_capacity(ships))
    for xf in range(ships.fresh + 1):
        for xd in range(ships.damaged + 1):
            df = need - 2 * xf - xd
            if 0 <= df and df + xf <= ships.fresh:
                yield ShipSplit(damage_fresh=df, destroy_fresh=xf, destroy_damaged=xd)


def ship_hits(ctx, owner: int, hits: int, then=resolve) -> None:
    """Hits on one side's ships: applied at once when only one split is possible, else the
    attacker's typed choice; `then` (resolve, or nothing before the roll) follows."""
    b = ctx.state.battle
    ships = ctx.state.systems[b.system].ships_of(owner)
    options = list(splits(ships, hits))
    if len(options) == 1:
        apply_ships(ctx, owner, hits, options[0])
        if then is not None:
            ctx.push(then)
    else:
        ctx.decide(b.attacker, "arcs.ship_hits", resume=ship_hits_done, owner=owner, hits=hits,
                   **({} if then is not None else {"then": False}))


@decisions.kind("ship_hits", answer="assign_hits", params=ShipSplit)
def check_ship_split(state, seat, prompt, answer: ShipSplit):
    """Split the hits over one player's ships in the battle system."""
    ships = state.systems[state.battle.system].ships_of(prompt.args["owner"])
    check_ship_hits(ships, prompt.args["hits"], ShipHits(answer.damage_fresh, answer.destroy_fresh,
                                                         answer.destroy_damaged))


@check_ship_split.candidates
def _ship_splits(state, seat, prompt):
    ships = state.systems[state.battle.system].ships_of(prompt.args["owner"])
    for split in splits(ships, prompt.args["hits"]):
        yield msgspec.to_builtins(split)


@steps("ship_hits_done")
def ship_hits_done(ctx, seat, params: ShipSplit, owner: int, hits: int, then: bool = True):
    apply_ships(ctx, owner, hits, params)
    if then:
        ctx.push(resolve)


def apply_ships(ctx, owner: int, hits: int, split: ShipSplit) -> None:
    """Damage and destroy; destroyed ships become the other side's Trophies (ARCS-187); hits
    on the defender beyond their ships go on to their buildings (ARCS-180)."""
    state, b = ctx.state, ctx.state.battle
    here = state.systems[b.system]
    ships = here.ships_of(owner)
    leftover = hits - min(hits, ship_capacity(ships))
    here.ships[owner] = apply_ship_hits(ships, ShipHits(split.damage_fresh, split.destroy_fresh, split.destroy_damaged))
    destroyed = split.destroy_fresh + split.destroy_damaged
    taker = b.defender if owner == b.attacker else b.attacker
    state.players[taker].trophies.extend([Trophy(owner=owner, kind="ship")] * destroyed)
    ctx.emit("ships_hit", system=b.system, owner=owner, damaged=split.damage_fresh, destroyed=destroyed)
    if owner == b.defender and leftover:
        b.building_hit += leftover


def building_splits(buildings, defender: int, hits: int):
    idx = [i for i, x in enumerate(buildings) if x.owner == defender]
    caps = [1 if buildings[i].damaged else 2 for i in idx]
    need = min(hits, sum(caps))

    def go(k, left, acc):
        if k == len(idx):
            if left == 0:
                yield dict(acc)
            return
        for n in range(0, min(caps[k], left) + 1):
            if n:
                acc[str(idx[k])] = n
            yield from go(k + 1, left - n, acc)
            acc.pop(str(idx[k]), None)

    yield from go(0, need, {})


def _int_keys(split: BuildingSplit) -> dict[int, int]:
    try:
        return {int(k): v for k, v in split.hits.items()}
    except ValueError:
        raise BadParameter("buildings are named by their index in the system") from None


def building_hits(ctx, hits: int) -> None:
    b = ctx.state.battle
    options = list(building_splits(ctx.state.systems[b.system].buildings, b.defender, hits))
    if len(options) == 1:
        apply_buildings(ctx, BuildingSplit(hits=options[0]))
        ctx.push(resolve)
    else:
        ctx.decide(b.attacker, "arcs.building_hits", resume=building_hits_done, hits=hits)


@decisions.kind("building_hits", answer="assign_building_hits", params=BuildingSplit)
def check_building_split(state, seat, prompt, answer: BuildingSplit):
    """Hits on the defending buildings: each at most what destroys it, every landing hit placed."""
    b = state.battle
    check_building_hits(state.systems[b.system].buildings, b.defender, prompt.args["hits"], _int_keys(answer))


@check_building_split.candidates
def _building_splits(state, seat, prompt):
    b = state.battle
    for split in building_splits(state.systems[b.system].buildings, b.defender, prompt.args["hits"]):
        yield {"hits": split}


@steps("building_hits_done")
def building_hits_done(ctx, seat, params: BuildingSplit, hits: int):
    apply_buildings(ctx, params)
    ctx.push(resolve)


def apply_buildings(ctx, split: BuildingSplit) -> None:
    state, b = ctx.state, ctx.state.battle
    here = state.systems[b.system]
    lore_ops.buildings_removed(state, b.system, destroyed_indexes(here.buildings, _int_keys(split)))  # ARCS-141
    here.buildings, destroyed = apply_building_hits(here.buildings, _int_keys(split))
    for x in destroyed:
        state.players[b.attacker].trophies.append(Trophy(owner=x.owner, kind=x.kind))
        b.cities += x.kind == "city"
    ctx.emit("buildings_hit", system=b.system, owner=b.defender, hits=split.hits,
             destroyed=[x.kind for x in destroyed])


def city_destroyed(ctx) -> None:
    """The battle's next destroyed city: its Outrage and Ransack, then the rest of the battle."""
    b = ctx.state.battle
    ctx.push(resolve)
    city_lost(ctx, b.attacker, b.defender, b.system)


# A game built on Arcs may spare a city's destroyer its Outrage (the campaign's Feudal Law:
# a Vassal destroying a Rival Vassal's city in their Fief): fn(state, attacker, owner, system)
# -> True to skip the Outrage; each answers False for a table it does not know.
OUTRAGE_SPARED: list = []

# ... and may narrow the cards a destroyed city lets its destroyer ransack (the campaign's
# Feudal Courts: a card with a Court token only for a city destroyed in that Fief):
# fn(state, attacker, system, card) -> False to bar it; each answers True for a table it does
# not know.
RANSACK_LIMITS: list = []


def city_lost(ctx, attacker: int, owner: int, system: str) -> None:
    """ARCS-191: Outrage of the planet's type on the attacker (a city in a gate: each of its
    types, Gate Stations); ARCS-196: then Ransack a Court card holding the city owner's agents
    (mandatory, the attacker picks which) unless the owner is the Elder (Beloved)."""
    state, box = ctx.state, box_for(ctx.state)
    spared = any(rule(state, attacker, owner, system) for rule in OUTRAGE_SPARED)
    for resource in [] if spared else lore_ops.city_types(state, box, system) or []:
        provoke_outrage(box, state, attacker, resource)
        ctx.emit("outrage", seat=attacker, resource=resource)
    ctx.hook.arcs_city_destroyed(ctx=ctx, attacker=attacker, owner=owner, system=system)
    if owner < 0 or lore_ops.ransack_barred(state, box, owner, True):  # owner < 0: a city of no player, no agents
        return
    targets = [c for c in ransack_targets(state, owner) if all(rule(state, attacker, system, c)
                                                               for rule in RANSACK_LIMITS)]
    if targets:
        ctx.ask(attacker, "ransack", [Action("ransack", {"card": c}) for c in targets], resume=ransacked)


@steps("ransacked")
def ransacked(ctx, seat, params):
    take(ctx, seat, params["card"], rivals_to="trophies")


def raid_options(state, box, thief: int, victim: int, keys: int) -> list[Action]:
    """ARCS-200/201: each resource or Guild card the keys left can pay for, then done."""
    out = []
    player = state.players[victim]
    if not guarded(box, state, victim):
        for slot, r in enumerate(player.resources):
            if r is not None and lore_ops.slot_raid_cost(box, state, victim, slot) <= keys:
                out.append(Action("steal", {"slot": slot}))
    for card in player.guild:
        if box.court[card].raid_cost <= keys and not guild_card_guarded(box, state, victim, card):
            out.append(Action("steal", {"card": card}))
    return [*out, Action("steal", {})]


# A game built on Arcs may narrow a raid's answers (the campaign's Pirate Fleet: resources
# only, so many): fn(state, battle, answers) -> the answers left ("done" is always kept).
RAID_ANSWER_RULES: list = []


def raid_prompt(ctx) -> None:
    state, b, box = ctx.state, ctx.state.battle, box_for(ctx.state)
    options = raid_options(state, box, b.attacker, b.defender, b.key)
    extra = [Action("steal", p) for found in ctx.hook.arcs_raid_options(
        state=state, thief=b.attacker, victim=b.defender, keys=b.key) for p in found]  # a game's own pieces
    steals = options[:-1] + extra
    for rule in RAID_ANSWER_RULES:
        steals = rule(state, b, steals)
    options = steals + options[-1:]
    if len(options) == 1:
        b.key = 0
        ctx.push(resolve)
        return
    ctx.prompt(b.attacker, "raid", options, resume=raided)


@steps("raided")
def raided(ctx, seat, params):
    state, b, box = ctx.state, ctx.state.battle, box_for(ctx.state)
    if "slot" in params:
        resource = state.players[b.defender].resources[params["slot"]]
        b.key = steal_resource(box, state, seat, b.defender, params["slot"], b.key)
        ctx.emit("stolen", thief=seat, victim=b.defender, resource=resource)
    elif "card" in params:
        b.key = steal_guild_card(box, state, seat, b.defender, params["card"], b.key)
        ctx.emit("stolen", thief=seat, victim=b.defender, card=params["card"])
    elif params:  # a piece of the game's own (the campaign's Golems)
        b.key = ctx.hook.arcs_raided(ctx=ctx, thief=seat, victim=b.defender, params=dict(params), keys=b.key)
    else:
        b.key = 0
    if params:
        b.stolen += 1
    ctx.push(resolve)


# -- Fire Rifles (L02): the firer splits the hits, then Outrage and Ransack per city -------
class RifleSplit(msgspec.Struct, forbid_unknown_fields=True):
    """The Rifles' hits: on the defender's ships first (as `ShipSplit`), the rest on its
    buildings by index, `tokens` on its pieces harmed like buildings (a game's: the
    campaign's Banners; none in the base game)."""

    ships: ShipSplit = msgspec.field(default_factory=ShipSplit)
    buildings: dict[str, int] = {}
    tokens: int = 0


def rifle_split(ctx, seat: int) -> None:
    ctx.decide(seat, "arcs.rifle_hits", resume=rifle_done)


def _rifle_options(state):
    pending = lore_ops.pending_rifle_hits(state)
    here = state.systems[pending["system"]]
    ships = here.ships_of(pending["defender"])
    for split in splits(ships, pending["hits"]):
        left = pending["hits"] - (split.damage_fresh + 2 * split.destroy_fresh + split.destroy_damaged)
        low, high = lore_ops.rifle_token_range(state, left)
        for tokens in range(low, high + 1):
            for b in building_splits(here.buildings, pending["defender"], left - tokens):
                yield RifleSplit(ships=split, buildings=b, tokens=tokens)


@decisions.kind("rifle_hits", answer="assign_rifle_hits", params=RifleSplit)
def check_rifle_split(state, seat, prompt, answer: RifleSplit):
    """Every Rifles hit that can land does: ships first, the rest on buildings (ARCS-180)."""
    trial = msgspec.convert(msgspec.to_builtins(state), type(state))
    _assign(trial, seat, answer)


@check_rifle_split.candidates
def _rifle_candidates(state, seat, prompt):
    for split in _rifle_options(state):
        option = msgspec.to_builtins(split)
        if not split.tokens:
            del option["tokens"]  # the base game's answers name none
        yield option


def _assign(state, seat: int, answer: RifleSplit):
    s = answer.ships
    return lore_ops.assign_rifle_hits(state, seat, ShipHits(s.damage_fresh, s.destroy_fresh, s.destroy_damaged),
                                      _int_keys(BuildingSplit(hits=answer.buildings)), answer.tokens)


@steps("rifle_done")
def rifle_done(ctx, seat, params: RifleSplit):
    state = ctx.state
    pending = dict(lore_ops.pending_rifle_hits(state))
    destroyed = _assign(state, seat, params)
    ctx.emit("rifle_hits", seat=seat, system=pending["system"], defender=pending["defender"],
             ships=msgspec.to_builtins(params.ships), destroyed=[b.kind for b in destroyed],
             **({"tokens": params.tokens} if params.tokens else {}))
    for b in destroyed:
        if b.kind == "city":
            ctx.push(city_lost_step, attacker=seat, owner=pending["defender"], system=pending["system"])


@steps("city_lost")
def city_lost_step(ctx, attacker: int, owner: int, system: str):
    city_lost(ctx, attacker, owner, system)
