"""The ops of the 31 base Court cards (25 Guild, 6 Vox; digest section 15), registered into
`abilities.OPS`, and the small pure helpers through which the rules read the standing ones.

Each op checks every choice before it changes anything and raises a typed `ActionRejected`
for a choice the card does not allow. Where the supply runs short of ships to place, the
holder names where the ones left go (ARCS-276: as many as possible).

Conventions the flow shares with these ops: `action_discard[0]` is the top of the face-down
action discard pile and `[-1]` its bottom (cards drawn "from the bottom" come from the end;
discarded cards go on top); a Union waits in `state.unions` until `settle_unions` at round end.
"""
from __future__ import annotations

from collections import Counter
from types import SimpleNamespace
from typing import Callable, Literal

import msgspec

from core import chance as dice_chance
from core.errors import BadParameter, IllegalAction
from core.rng import Rng
from core.seats import seat_name
from plugins.arcs.abilities import Env, Use, modifiers, op, standing
from plugins.arcs.chapter import return_city
from plugins.arcs.content import Box
from plugins.arcs.control import controls
from plugins.arcs.discard import draw_bottom, take_back
from plugins.arcs.outrage import agent_returns, guarded, guild_card_guarded, provoke_outrage
from plugins.arcs.placing import gain, receive
from plugins.arcs.plays import declarable, next_marker
from plugins.arcs.setup import empty_slots, place_ships
from plugins.arcs.state import ArcsState, AttachedUnion, Marker, Trophy

Resource = Literal["material", "fuel", "weapon", "relic", "psionic"]
Ambition = Literal["tycoon", "tyrant", "warlord", "keeper", "empath"]

# Standing rules: no `apply`; the rules read them through `modifiers` and the helpers below
# (keep_card and steal_protection/bury_self are also read by outrage.py from the card data).
standing("keep_card", "spend_any_as", "prelude_despite_outrage", "hold_supply", "extra_dice",
         "steal_protection", "bury_self", "no_zero_marker")


class _Choice(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Base of every op's choices: unknown fields are refused."""


# -- helpers shared by the ops and the rules --------------------------------------------------
def rivals(state: ArcsState, seat: int) -> list[int]:
    return [s for s in range(len(state.players)) if s != seat]


def weapon_icons(box: Box, state: ArcsState, seat: int) -> int:
    """Weapon tokens plus Weapon-suit Guild cards the seat holds (Skirmishers, Court Enforcers)."""
    player = state.players[seat]
    return player.resources.count("weapon") + sum(box.court[c].suit == "weapon" for c in player.guild)


def extra_battle_dice(state: ArcsState, box: Box, seat: int, where: str) -> int:
    """How many more dice than attacking ships the seat may collect battling in system `where`
    (Gatekeepers: 2 more in a gate; a Leader's `extra_dice` with where "any" counts too)."""
    extra = 0
    for u in modifiers(state, box, seat, "extra_dice"):
        if u.ability.where == "any" or (u.ability.where == "gate" and where.endswith("G")):
            extra += u.ability.count
    return extra


def can_spend_as(state: ArcsState, box: Box, seat: int, token: str, wanted: str) -> bool:
    """Whether a held `token` may be spent as a `wanted` resource (the Loyal cards, ARCS-313)."""
    return token == wanted or any(u.ability.resource == wanted for u in modifiers(state, box, seat, "spend_any_as"))


def prelude_action_allowed(state: ArcsState, box: Box, seat: int, resource: str) -> bool:
    """ARCS-217: Outrage in a type blocks its Prelude action, unless a Loyal card of that type
    lets its holder ignore it (ARCS-313)."""
    if resource not in state.players[seat].outrage:
        return True
    return any(u.ability.resource == resource for u in modifiers(state, box, seat, "prelude_despite_outrage"))


def places_zero_marker(state: ArcsState, box: Box, seat: int, ambition: str) -> bool:
    """Declaring puts the zero marker on the lead card (ARCS-084) unless Secret Order spares it."""
    return not any(ambition in u.ability.ambitions for u in modifiers(state, box, seat, "no_zero_marker"))


def steal_protected(state: ArcsState, box: Box, seat: int) -> bool:
    """Sworn Guardians: Rivals cannot steal this seat's resources or its other Guild cards."""
    return guarded(box, state, seat)


def place_ambition_marker(box: Box, state: ArcsState, ambition: str) -> Marker:
    """Move the Available marker with the highest first-place value into `ambition`'s box (ARCS-084)."""
    marker = next_marker(box, state.markers_available)
    if marker is None:
        raise IllegalAction("no ambition marker is Available")  # ARCS-085
    state.markers_available.remove(marker)
    state.ambition_boxes[ambition].append(marker)
    return marker


def settle_unions(state: ArcsState) -> list[str]:
    """Round end (ARCS-314): each attached Union's holder takes its action card into hand (from
    the discard if the round's cards went there already) and the Union goes to the Court
    discard. Returns the action cards taken, which the flow must not discard."""
    taken = []
    for union in state.unions:
        take_back(state, union.action_card)
        state.hands[union.seat].append(union.action_card)
        if union.returns:
            state.players[union.seat].guild.append(union.card)
        else:
            state.court_discard.append(union.card)
        taken.append(union.action_card)
    state.unions = []
    return taken


def _chance(env: Env):
    """The flow's Ctx, or outside a flow a stand-in drawing from the table RNG with `env.emit`."""
    if env.chance is not None:
        return env.chance
    return SimpleNamespace(rng=Rng(env.state), emit=env.emit)


def _rival(state: ArcsState, seat: int, rival: int) -> None:
    if rival not in rivals(state, seat):
        raise BadParameter(f"{seat_name(rival)} is not a Rival of {seat_name(seat)}")


def _stealable_tokens(box: Box, state: ArcsState, victim: int, resource: str | None = None) -> list[int]:
    """The victim's slots a Rival may steal from (none under Sworn Guardians; tokens on a
    Cartel are not in slots, so never stealable: ARCS-218)."""
    if guarded(box, state, victim):
        return []
    return [i for i, r in enumerate(state.players[victim].resources) if r is not None and (resource is None or r == resource)]


def _stealable_guilds(box: Box, state: ArcsState, victim: int) -> list[str]:
    """Under Sworn Guardians only the Guardians themselves may go (`guild_card_guarded`)."""
    return [c for c in state.players[victim].guild if not guild_card_guarded(box, state, victim, c)]


def _steal_slot(box: Box, state: ArcsState, thief: int, victim: int, slot: int) -> str:
    player = state.players[victim]
    resource, player.resources[slot] = player.resources[slot], None  # ARCS-210: no rearranging for the victim
    receive(state, thief, resource)  # ARCS-202/209: the thief places it
    return resource


def _steal_guild(box: Box, state: ArcsState, thief: int, victim: int, card: str) -> bool:
    """Move a Guild card to the thief; a card that buries itself when stolen goes under the
    Court deck instead (BC22). Returns whether the thief kept it."""
    state.players[victim].guild.remove(card)
    if any(a.when == "stolen" and a.do == "bury_self" for a in box.court[card].abilities):
        state.court_deck.append(card)  # ARCS-286: the deck's last card
        return False
    state.players[thief].guild.append(card)
    return True


def _key(u: Use) -> str:
    return f"{u.card}:{u.index}"


# -- placing ships (BC08, BC12-15, BC26) ------------------------------------------------------
class PlaceShips(_Choice):
    system: str = ""           # where: controlled_system
    systems: list[str] = []    # each_gate / a cluster, when the supply is short: which get a ship


def _spread(env: Env, seat: int, targets: list[str], per: int, chosen: list[str]) -> list[str]:
    """The systems that get `per` ships each: all targets, or with too few ships in supply the
    ones the holder names (exactly as many as the supply allows)."""
    ships = env.state.players[seat].ships
    room = min(len(targets), ships // per)
    if room == len(targets):
        if chosen and sorted(chosen) != sorted(targets):
            raise BadParameter("every one of those systems gets a ship; name none")
        return targets
    if len(set(chosen)) != len(chosen) or not set(chosen) <= set(targets) or len(chosen) != room:
        raise BadParameter(f"only {ships} ship(s) in supply: name {room} distinct systems of {targets}")
    return chosen


def _gates(state: ArcsState) -> list[str]:
    return sorted(s for s in state.systems if s.endswith("G"))


def _controlled(state: ArcsState, seat: int) -> list[str]:
    return sorted(s for s in state.systems if controls(state, seat, s))


def _place_ships_candidates(env: Env, u: Use):
    if u.ability.where == "controlled_system":
        return [{"system": s} for s in _controlled(env.state, u.seat)]
    gates = _gates(env.state)
    room = min(len(gates), env.state.players[u.seat].ships // max(u.ability.count, 1))
    return [{}] if room == len(gates) else [{"systems": gates[:room]}]


def _place_ships_usable(env: Env, u: Use) -> bool:
    return u.ability.where != "controlled_system" or bool(_controlled(env.state, u.seat))


@op("place_ships", params=PlaceShips, candidates=_place_ships_candidates, usable=_place_ships_usable)
def do_place_ships(env: Env, u: Use, choice: PlaceShips) -> None:
    """Prison Wardens, Skirmishers, Court Enforcers, Loyal Marines: `count` ships into one
    system the holder controls. Gatekeepers: `count` ship(s) into every in-play gate."""
    state, ab = env.state, u.ability
    if ab.where == "controlled_system":
        if choice.systems:
            raise BadParameter("name one system")
        if choice.system not in state.systems:
            raise BadParameter(f"{choice.system!r} is not a system in play")
        if not controls(state, u.seat, choice.system):
            raise IllegalAction(f"{seat_name(u.seat)} does not control {choice.system}")
        placed = place_ships(state, choice.system, u.seat, ab.count)
        env.emit("ships_placed", seat=u.seat, card=u.card, systems={choice.system: placed})
        return
    if ab.where != "each_gate" or choice.system:
        raise BadParameter("these ships go to every gate")
    out = {g: place_ships(state, g, u.seat, ab.count) for g in _spread(env, u.seat, _gates(state), ab.count, choice.systems)}
    env.emit("ships_placed", seat=u.seat, card=u.card, systems=out)


class ClusterChoice(_Choice):
    cluster: int
    systems: list[str] = []


def _cluster_systems(env: Env, cluster: int) -> list[str]:
    return [s for s in sorted(env.state.systems) if env.box.cluster_of(s) == cluster]


def _mass_uprising_candidates(env: Env, u: Use):
    out = []
    for c in sorted({env.box.cluster_of(s) for s in env.state.systems}):
        systems = _cluster_systems(env, c)
        room = min(len(systems), env.state.players[u.seat].ships)
        out.append({"cluster": c} if room == len(systems) else {"cluster": c, "systems": systems[:room]})
    return out


@op("place_ship_each_system_of_cluster", params=ClusterChoice, candidates=_mass_uprising_candidates)
def do_mass_uprising(env: Env, u: Use, choice: ClusterChoice) -> None:
    """Mass Uprising (BC26): one ship in each system of a cluster in play."""
    systems = _cluster_systems(env, choice.cluster)
    if not systems:
        raise BadParameter(f"cluster {choice.cluster} is not in play")  # ARCS-037
    out = {s: place_ships(env.state, s, u.seat, 1) for s in _spread(env, u.seat, systems, 1, choice.systems)}
    _joined(env.state, u.seat, out)
    env.emit("ships_placed", seat=u.seat, card=u.card, systems=out)


def _joined(state: ArcsState, seat: int, placed: dict[str, int]) -> None:
    """Ships the attacker places in the battle system mid-battle (Mass Uprising by Ransack)
    are not attacking ships (card FAQ): the battle counts them apart (raiding, Repair Drones)."""
    b = state.battle
    if b is not None and b.attacker == seat:
        b.joined += placed.get(b.system, 0)


# -- gaining, stealing and discarding resources (BC02, BC03, BC06, BC09, BC20, BC23, BC24) -----
@op("gain")
def do_gain(env: Env, u: Use, _: None) -> None:
    """Gain `count` of a resource from the supply; an empty supply gives nothing (ARCS-207)."""
    got = sum(gain(env.state, u.seat, u.ability.resource) for _ in range(u.ability.count))
    env.emit("resources_gained", seat=u.seat, card=u.card, resources={u.ability.resource: got})


@op("gain_each")
def do_gain_each(env: Env, u: Use, _: None) -> None:
    """Elder Broker (BC23) Prelude: one of each listed resource, as far as supply and slots allow."""
    got = {r: int(gain(env.state, u.seat, r)) for r in u.ability.resources}
    env.emit("resources_gained", seat=u.seat, card=u.card, resources=got)


class StealFrom(_Choice):
    steal_from: list[int] = []  # one Rival seat per token stolen


def _fill_plan(env: Env, u: Use) -> tuple[int, int, dict[int, int]]:
    """(tokens from supply, tokens to steal, stealable per Rival) for filling the empty slots."""
    state, resource = env.state, u.ability.resource
    empty = len(empty_slots(env.box, state.players[u.seat]))
    from_supply = min(empty, state.supply.get(resource, 0))
    stealable = {r: len(_stealable_tokens(env.box, state, r, resource)) for r in rivals(state, u.seat)}
    return from_supply, min(empty - from_supply, sum(stealable.values())), stealable


def _fill_candidates(env: Env, u: Use):
    _, to_steal, stealable = _fill_plan(env, u)
    plan = [r for r, n in stealable.items() for _ in range(n)][:to_steal]
    return [{"steal_from": plan}]


@op("gain_to_fill_slots", params=StealFrom, candidates=_fill_candidates)
def do_gain_to_fill_slots(env: Env, u: Use, choice: StealFrom) -> None:
    """Mining Interest (BC02), Shipping Interest (BC09) Prelude: gain the resource until every
    empty open slot is filled; what the supply lacks is stolen from Rivals (the holder says
    from whom, one seat per token; Sworn Guardians protect)."""
    state, resource = env.state, u.ability.resource
    from_supply, to_steal, stealable = _fill_plan(env, u)
    for r in choice.steal_from:
        _rival(state, u.seat, r)
    if len(choice.steal_from) != to_steal:
        raise BadParameter(f"the supply falls {to_steal} short that Rivals can cover: name {to_steal} seat(s)")
    for r, n in Counter(choice.steal_from).items():
        if n > stealable[r]:
            raise IllegalAction(f"{seat_name(r)} has only {stealable[r]} {resource} that can be stolen")
    for _ in range(from_supply):
        gain(state, u.seat, resource)
    for r in choice.steal_from:
        _steal_slot(env.box, state, u.seat, r, _stealable_tokens(env.box, state, r, resource)[0])
    env.emit("resources_gained", seat=u.seat, card=u.card, resources={resource: from_supply},
             stolen_from=list(choice.steal_from))


class Victim(_Choice):
    rival: int


def _steal_candidates(env: Env, u: Use):
    return [{"rival": r} for r in rivals(env.state, u.seat)
            if _stealable_tokens(env.box, env.state, r, u.ability.resource)]


@op("steal", params=Victim, candidates=_steal_candidates, usable=lambda env, u: bool(_steal_candidates(env, u)))
def do_steal(env: Env, u: Use, choice: Victim) -> None:
    """Material/Fuel Cartel (BC03, BC06) Prelude: steal `count` of the resource from one Rival."""
    state, resource = env.state, u.ability.resource
    _rival(state, u.seat, choice.rival)
    slots = _stealable_tokens(env.box, state, choice.rival, resource)
    if len(slots) < u.ability.count:
        raise IllegalAction(f"{seat_name(choice.rival)} has no {resource} that can be stolen")
    for slot in slots[:u.ability.count]:
        _steal_slot(env.box, state, u.seat, choice.rival, slot)
    env.emit("resource_stolen", seat=u.seat, card=u.card, rival=choice.rival, resource=resource, count=u.ability.count)


@op("rivals_discard_all")
def do_rivals_discard_all(env: Env, u: Use, _: None) -> None:
    """Material/Fuel Cartel (BC03, BC06), after every chapter's scoring, mandatory (whether or
    not Tycoon was scored): every Rival returns all their tokens of that type to the supply."""
    resource, lost = u.ability.resource, {}
    for r in rivals(env.state, u.seat):
        player = env.state.players[r]
        lost[r] = player.resources.count(resource)
        player.resources = [None if x == resource else x for x in player.resources]
        env.state.supply[resource] += lost[r]
    env.emit("resources_discarded", card=u.card, resource=resource, by_seat=lost)


class Theft(_Choice):
    rival: int
    card: str = ""   # a Guild card to steal, or
    slot: int = -1   # the resource slot (0-based) to steal from


def _theft_candidates(env: Env, u: Use):
    out = []
    for r in rivals(env.state, u.seat):
        out += [{"rival": r, "card": c} for c in _stealable_guilds(env.box, env.state, r)]
        out += [{"rival": r, "slot": s} for s in _stealable_tokens(env.box, env.state, r)]
    return out


@op("steal_guild_or_resource", params=Theft, candidates=_theft_candidates,
    usable=lambda env, u: bool(_theft_candidates(env, u)))
def do_silver_tongues(env: Env, u: Use, choice: Theft) -> None:
    """Silver-Tongues (BC20) Prelude: steal one Guild card or one resource from a Rival."""
    state = env.state
    _rival(state, u.seat, choice.rival)
    if bool(choice.card) == (choice.slot >= 0):
        raise BadParameter("steal either one Guild card or one resource")
    if choice.card:
        _check_guild_theft(env, choice.rival, choice.card)
        kept = _steal_guild(env.box, state, u.seat, choice.rival, choice.card)
        env.emit("guild_stolen", seat=u.seat, rival=choice.rival, card=choice.card, buried=not kept)
        return
    if not 0 <= choice.slot < len(state.players[choice.rival].resources) or \
            state.players[choice.rival].resources[choice.slot] is None:
        raise BadParameter(f"{seat_name(choice.rival)} holds no resource in slot {choice.slot + 1}")
    if choice.slot not in _stealable_tokens(env.box, state, choice.rival):
        raise IllegalAction(f"{seat_name(choice.rival)}'s resources cannot be stolen")
    resource = _steal_slot(env.box, state, u.seat, choice.rival, choice.slot)
    env.emit("resource_stolen", seat=u.seat, card=u.card, rival=choice.rival, resource=resource, count=1)


def _check_guild_theft(env: Env, rival: int, card: str) -> None:
    if card not in env.state.players[rival].guild:
        raise BadParameter(f"{seat_name(rival)} holds no Guild card {card!r}")
    if card not in _stealable_guilds(env.box, env.state, rival):
        raise IllegalAction(f"{seat_name(rival)}'s other Guild cards cannot be stolen")


class TradeChoice(_Choice):
    system: str
    building: int
    give: int  # the slot (0-based) of the resource handed over


def _trade_options(env: Env, u: Use):
    state, me = env.state, env.state.players[u.seat]
    for system, here in sorted(state.systems.items()):
        if not controls(state, u.seat, system):
            continue
        for i, b in enumerate(here.buildings):
            if b.kind != "city" or b.owner == u.seat or b.owner < 0:  # < 0: no player's (a Free city)
                continue
            theirs = state.players[b.owner].resources
            if env.box.systems[system] is None or env.box.systems[system].type not in theirs:
                continue  # a city in a gate (Gate Stations) has no one type to trade
            for slot, r in enumerate(me.resources):
                if r is not None and r not in theirs:
                    yield {"system": system, "building": i, "give": slot}


@op("trade", params=TradeChoice, candidates=lambda env, u: list(_trade_options(env, u)),
    usable=lambda env, u: next(_trade_options(env, u), None) is not None)
def do_trade(env: Env, u: Use, choice: TradeChoice) -> None:
    """Elder Broker (BC23) Trade: at a Rival city in a system the holder controls, take one
    token of the city's type from that Rival and hand them one of a type they hold none of.
    Not a steal, so Sworn Guardians do not stop it (card FAQ)."""
    state = env.state
    here = state.systems.get(choice.system)
    if here is None or not 0 <= choice.building < len(here.buildings) or here.buildings[choice.building].kind != "city":
        raise BadParameter(f"there is no city {choice.building} in {choice.system!r}")
    owner = here.buildings[choice.building].owner
    if owner == u.seat:
        raise IllegalAction("Trade needs a Rival city")
    if not controls(state, u.seat, choice.system):
        raise IllegalAction(f"{seat_name(u.seat)} does not control {choice.system}")
    mine, theirs = state.players[u.seat].resources, state.players[owner].resources
    if env.box.systems[choice.system] is None:
        raise IllegalAction("Trade needs a city on a planet")
    wanted = env.box.systems[choice.system].type
    if wanted not in theirs:
        raise IllegalAction(f"{seat_name(owner)} holds no {wanted}")
    if not 0 <= choice.give < len(mine) or mine[choice.give] is None:
        raise BadParameter(f"slot {choice.give + 1} holds no resource to give")
    given = mine[choice.give]
    if given in theirs:
        raise IllegalAction(f"{seat_name(owner)} already has {given}: give a type they have none of")
    theirs[theirs.index(wanted)], mine[choice.give] = None, None  # ARCS-210: nothing else moves
    receive(state, u.seat, wanted)  # each side places what it receives (ARCS-209)
    receive(state, owner, given)
    env.emit("traded", seat=u.seat, rival=owner, took=wanted, gave=given)


class SlotChoice(_Choice):
    slot: int


def used_this_turn(env: Env, u: Use) -> list[str]:
    """Where a once-per-turn use is recorded: on the turn the holder is taking (kept with the
    table between its answers), else on the moment."""
    turn = env.state.turn
    return turn.used if turn is not None and turn.seat == u.seat else env.moment.used


@op("convert", params=SlotChoice,
    candidates=lambda env, u: [{"slot": i} for i, r in enumerate(env.state.players[u.seat].resources) if r],
    usable=lambda env, u: _key(u) not in used_this_turn(env, u) and any(env.state.players[u.seat].resources))
def do_convert(env: Env, u: Use, choice: SlotChoice) -> None:
    """Relic Fence (BC24) Prelude, once per turn: discard one held token, then gain a Relic."""
    player = env.state.players[u.seat]
    if u.ability.limit == "once_per_turn" and _key(u) in used_this_turn(env, u):
        raise IllegalAction(f"{u.card} was used this turn already")
    if not 0 <= choice.slot < len(player.resources) or player.resources[choice.slot] is None:
        raise BadParameter(f"slot {choice.slot + 1} holds no resource")
    dropped, player.resources[choice.slot] = player.resources[choice.slot], None
    env.state.supply[dropped] += 1
    got = gain(env.state, u.seat, u.ability.resource)
    used_this_turn(env, u).append(_key(u))
    env.emit("resource_converted", seat=u.seat, card=u.card, dropped=dropped, gained=u.ability.resource if got else None)


# -- Captives and the Court (BC12, BC14) ------------------------------------------------------
class ShipCaptives(msgspec.Struct, frozen=True):
    """A game built on Arcs may hold ships as Captives too, kept apart from the agents (the
    campaign's Happy Hosts, F1012). `held(state, seat)` names the owners of the seat's ship
    Captives ([] for a table it does not know); `take(state, seat, owner)` lifts one out of
    the seat's Captives; `send_home(state, owner)` puts a ship into its owner's supply."""

    held: Callable[[ArcsState, int], list[int]]
    take: Callable[[ArcsState, int, int], None]
    send_home: Callable[[ArcsState, int], None]


SHIP_CAPTIVES: list[ShipCaptives] = []


def ship_captives(state: ArcsState, seat: int) -> list[int]:
    """The owners of the seat's ship Captives under every registered rule (none in the base game)."""
    return [o for rule in SHIP_CAPTIVES for o in rule.held(state, seat)]


def _ship_rule(state: ArcsState, seat: int, owner: int) -> ShipCaptives:
    return next(r for r in SHIP_CAPTIVES if owner in r.held(state, seat))


class Pressgang(_Choice):
    captives: list[int]          # the owners of the agent captives sent home
    resources: list[Resource]    # one resource gained per captive (agents, then ships)
    ships: list[int] = []        # the owners of the ship captives sent home


def _have_captives(state: ArcsState, seat: int, owners: list[int], ships: list[int] = ()) -> None:
    if not owners and not ships:
        raise BadParameter("name at least one captive")
    for held, named, what in ((state.players[seat].captives, owners, "captive"),
                              (ship_captives(state, seat), ships, "ship captive")):
        have = Counter(held)
        for owner, n in Counter(named).items():
            if n > have[owner]:
                raise IllegalAction(f"{seat_name(seat)} holds {have[owner]} {what}(s) of {seat_name(owner)}, not {n}")


def _all_captives(state: ArcsState, seat: int) -> bool:
    return bool(state.players[seat].captives or ship_captives(state, seat))


def _pressgang_candidates(env: Env, u: Use) -> list[dict]:
    gainable = [r for r in env.box.board.resources if env.state.supply.get(r, 0) > 0]
    return ([{"captives": [c], "resources": [r]} for c in sorted(set(env.state.players[u.seat].captives)) for r in gainable]
            + [{"captives": [], "ships": [c], "resources": [r]} for c in sorted(set(ship_captives(env.state, u.seat)))
               for r in gainable])


@op("return_captives_for_resources", params=Pressgang, candidates=_pressgang_candidates,
    usable=lambda env, u: _all_captives(env.state, u.seat))
def do_pressgang(env: Env, u: Use, choice: Pressgang) -> None:
    """Prison Wardens (BC12) Pressgang: send captives home (agents and ships alike, to their
    owners' supplies) and gain one resource of the holder's choice for each."""
    state = env.state
    _have_captives(state, u.seat, choice.captives, choice.ships)
    if len(choice.resources) != len(choice.captives) + len(choice.ships):
        raise BadParameter("name one resource per captive returned")
    for r, n in Counter(choice.resources).items():
        if n > state.supply.get(r, 0):
            raise IllegalAction(f"the supply holds only {state.supply.get(r, 0)} {r}")
    for owner in choice.captives:
        state.players[u.seat].captives.remove(owner)
        agent_returns(state, owner)
    for owner in choice.ships:
        rule = _ship_rule(state, u.seat, owner)
        rule.take(state, u.seat, owner)
        rule.send_home(state, owner)
    got = [r for r in choice.resources if gain(state, u.seat, r)]
    env.emit("captives_returned", seat=u.seat, card=u.card, owners=list(choice.captives), gained=got,
             **({"ships": list(choice.ships)} if choice.ships else {}))


class Captives(_Choice):
    captives: list[int]
    ships: list[int] = []        # the owners of ship captives


def _execute_candidates(env: Env, u: Use) -> list[dict]:
    ships = ship_captives(env.state, u.seat)
    return [{"captives": list(env.state.players[u.seat].captives), **({"ships": ships} if ships else {})}]


@op("captives_to_trophies", params=Captives, candidates=_execute_candidates,
    usable=lambda env, u: _all_captives(env.state, u.seat))
def do_execute(env: Env, u: Use, choice: Captives) -> None:
    """Prison Wardens (BC12) Execute: move captives into the Trophies box (Tyrant to Warlord);
    a ship captive becomes a ship Trophy of its owner."""
    state = env.state
    player = state.players[u.seat]
    _have_captives(state, u.seat, choice.captives, choice.ships)
    for owner in choice.captives:
        player.captives.remove(owner)
        player.trophies.append(Trophy(owner=owner, kind="agent"))
    for owner in choice.ships:
        _ship_rule(state, u.seat, owner).take(state, u.seat, owner)
        player.trophies.append(Trophy(owner=owner, kind="ship"))
    env.emit("captives_executed", seat=u.seat, card=u.card, owners=list(choice.captives),
             **({"ships": list(choice.ships)} if choice.ships else {}))


class CourtChoice(_Choice):
    card: str


def _abductable(env: Env, u: Use) -> list[str]:
    icons = weapon_icons(env.box, env.state, u.seat)
    return [c for c in env.state.court_row if c and
            sum(n for s, n in enumerate(env.state.court_agents[c]) if s != u.seat) < icons]


@op("abduct", params=CourtChoice, candidates=lambda env, u: [{"card": c} for c in _abductable(env, u)],
    usable=lambda env, u: bool(_abductable(env, u)))
def do_abduct(env: Env, u: Use, choice: CourtChoice) -> None:
    """Court Enforcers (BC14) Abduct: capture every Rival agent on one Court card that holds
    fewer Rival agents than the holder has Weapon icons."""
    state = env.state
    if not choice.card or choice.card not in state.court_row:
        raise BadParameter(f"{choice.card!r} is not in the Court row")
    if choice.card not in _abductable(env, u):
        raise IllegalAction(f"{choice.card} holds too many Rival agents for {weapon_icons(env.box, state, u.seat)} Weapon icon(s)")
    agents = state.court_agents[choice.card]
    taken = []
    for s in rivals(state, u.seat):
        taken += [s] * agents[s]
        agents[s] = 0
    state.players[u.seat].captives.extend(taken)
    env.emit("agents_abducted", seat=u.seat, card=choice.card, owners=taken)


# -- battle (BC13) --------------------------------------------------------------------------
class Reroll(_Choice):
    dice: list[int]  # indices into the roll


def _reroll_limit(env: Env, u: Use) -> int:
    """Skirmishers: as many as the holder's Weapon icons; Seeker Torpedoes (L14): one per
    fresh Loyal attacking ship."""
    if u.ability.limit == "weapon_icons":
        return weapon_icons(env.box, env.state, u.seat)
    if u.ability.limit == "fresh_attacking_ships":
        b = env.state.battle
        return env.state.systems[b.system].ships_of(u.seat).fresh if b is not None and b.attacker == u.seat else 0
    return len(env.moment.roll)


def _rerollable(env: Env, u: Use) -> list[int]:
    return [i for i, (kind, _) in enumerate(env.moment.roll) if kind == u.ability.die]


@op("reroll", params=Reroll,
    candidates=lambda env, u: [{"dice": _rerollable(env, u)[:_reroll_limit(env, u)]}],
    usable=lambda env, u: _key(u) not in env.moment.used and bool(_rerollable(env, u)) and _reroll_limit(env, u) > 0)
def do_reroll(env: Env, u: Use, choice: Reroll) -> None:
    """Skirmishers (BC13), after the holder's battle roll, once per roll: reroll some skirmish
    dice, at most as many as the holder's Weapon icons; Seeker Torpedoes (L14) the same with
    assault dice, one per fresh attacking ship. The new faces replace the old."""
    if _key(u) in env.moment.used:
        raise IllegalAction(f"{u.card} was used on this roll already")
    if not choice.dice or len(set(choice.dice)) != len(choice.dice):
        raise BadParameter("name distinct dice to reroll")
    if not set(choice.dice) <= set(_rerollable(env, u)):
        raise BadParameter(f"only {u.ability.die} dice of this roll may be rerolled")
    if len(choice.dice) > _reroll_limit(env, u):
        raise IllegalAction(f"at most {_reroll_limit(env, u)} dice may be rerolled")
    faces = {k: [msgspec.to_builtins(f) for f in d.faces] for k, d in env.box.dice.items()}
    new = dice_chance.roll(_chance(env), u.seat, faces, [u.ability.die] * len(choice.dice), why=u.card)
    for i, face in zip(choice.dice, new):
        env.moment.roll[i] = face
    env.moment.used.append(_key(u))


# -- turn, initiative, declaring (BC16, BC17, BC25, BC27) ------------------------------------
def _check_can_seize(state: ArcsState, seat: int) -> None:
    if state.initiative == seat:
        raise IllegalAction("the initiative holder cannot seize")  # ARCS-102
    if state.seized:
        raise IllegalAction("the initiative was seized this round already")  # ARCS-103


def _seize(env: Env, seat: int) -> None:
    env.state.initiative, env.state.seized = seat, True
    env.emit("initiative_seized", seat=seat)


@op("seize_initiative",
    usable=lambda env, u: not env.moment.acted and env.state.initiative != u.seat and not env.state.seized)
def do_lattice_spies(env: Env, u: Use, _: None) -> None:
    """Lattice Spies (BC16) Prelude, before anything else: discard to seize the initiative."""
    if env.moment.acted:
        raise IllegalAction(f"{u.card} must be used before any other action")
    _check_can_seize(env.state, u.seat)
    _seize(env, u.seat)


class Redraw(_Choice):
    cards: list[str] = []  # hand cards discarded along with the Farseers


@op("redraw_from_discard_bottom", params=Redraw, candidates=lambda env, u: [{}])
def do_farseers_redraw(env: Env, u: Use, choice: Redraw) -> None:
    """Farseers (BC17) Prelude: discard it and any hand cards (face down, on top of the action
    discard), then draw as many cards, the Farseers counted, from the discard's bottom (the
    face-down pile's with Split Discard, ARCS-283)."""
    state, hand = env.state, env.state.hands[u.seat]
    if len(set(choice.cards)) != len(choice.cards) or not set(choice.cards) <= set(hand):
        raise BadParameter("discard distinct cards from your hand")
    for c in choice.cards:
        hand.remove(c)
    state.action_discard[:0] = choice.cards
    drawn = draw_bottom(_chance(env), state, len(choice.cards) + 1)
    hand.extend(drawn)
    env.emit("cards_redrawn", to=[u.seat], public={"seat": u.seat, "discarded": len(choice.cards), "drawn": len(drawn)},
             seat=u.seat, discarded=list(choice.cards), drawn=drawn)


def show_hand(env: Env, seat: int, rival: int) -> None:
    """Farseers when declaring: the Rival's hand, shown to the holder alone, before the swap choice."""
    _rival(env.state, seat, rival)
    env.emit("hand_shown", to=[seat], public={"seat": seat, "rival": rival},
             seat=seat, rival=rival, cards=list(env.state.hands[rival]))


class Swap(_Choice):
    rival: int
    give: str = ""
    take: str = ""


@op("inspect_and_swap", params=Swap, candidates=lambda env, u: [{"rival": r} for r in rivals(env.state, u.seat)])
def do_farseers_swap(env: Env, u: Use, choice: Swap) -> None:
    """Farseers (BC17) when declaring: after seeing one Rival's hand (`show_hand`), optionally
    swap one card with them. Candidates never list the Rival's cards (hidden information)."""
    state = env.state
    _rival(state, u.seat, choice.rival)
    mine, theirs = state.hands[u.seat], state.hands[choice.rival]
    if bool(choice.give) != bool(choice.take):
        raise BadParameter("a swap gives one card and takes one")
    if choice.give:
        if choice.give not in mine or choice.take not in theirs:
            raise BadParameter("give a card from your hand for one in theirs")
        mine.remove(choice.give)
        theirs.remove(choice.take)
        mine.append(choice.take)
        theirs.append(choice.give)
    env.emit("hands_swapped", to=[u.seat, choice.rival], public={"seat": u.seat, "rival": choice.rival,
             "swapped": bool(choice.give)}, seat=u.seat, rival=choice.rival, gave=choice.give, took=choice.take)


class Declare(_Choice):
    ambition: Ambition | Literal[""] = ""


# A game built on Arcs may forbid a seat some ambitions, however declared (the campaign's
# Ire of the Keepers): fn(state, seat, ambition) -> why it is refused, or "". Each answers ""
# for a table it does not know.
DECLARE_LIMITS: list = []


def declare_barred(state, seat: int, ambition: str) -> str:
    """Why a game's rule forbids the seat to declare `ambition` ("" when none does)."""
    for rule in DECLARE_LIMITS:
        reason = rule(state, seat, ambition)
        if reason:
            return reason
    return ""


def _may_declare(env: Env, seat: int) -> bool:
    """Generous (LEAD07) makes a Guild card the price of any declaration, a card's included
    (ARCS-124): without one the seat cannot declare."""
    return not modifiers(env.state, env.box, seat, "give_guild_to_lowest_power") or bool(env.state.players[seat].guild)


def _bards_options(env: Env, u: Use) -> list[str]:
    m = env.moment
    if m.play not in ("surpass", "pivot") or m.declared or m.acted or not m.played:
        return []
    if not _may_declare(env, u.seat):
        return []
    if not env.state.markers_available:
        return []
    return [a for a in declarable(env.box, m.played) if not declare_barred(env.state, u.seat, a)]


@op("declare_played", params=Declare, candidates=lambda env, u: [{"ambition": a} for a in _bards_options(env, u)],
    usable=lambda env, u: bool(_bards_options(env, u)))
def do_galactic_bards(env: Env, u: Use, choice: Declare) -> None:
    """Galactic Bards (BC25): Surpassing or Pivoting, before any action, if nobody declared this
    round, declare the played card's ambition (any one on a 7); no zero marker."""
    m = env.moment
    if m.play not in ("surpass", "pivot"):
        raise IllegalAction(f"{u.card} acts only on a Surpass or a Pivot")
    if m.declared:
        raise IllegalAction("an ambition was declared this round already")
    if m.acted:
        raise IllegalAction("declaring comes before any action")
    if not _may_declare(env, u.seat):
        raise IllegalAction("Generous: declaring costs a Guild card, and you hold none")
    options = declarable(env.box, m.played)
    if not options:
        raise IllegalAction("the played card shows no ambition")
    ambition = choice.ambition or (options[0] if len(options) == 1 else "")
    if ambition not in options:
        raise BadParameter(f"the played card declares {options}, not {choice.ambition!r}")
    reason = declare_barred(env.state, u.seat, ambition)
    if reason:
        raise IllegalAction(reason)
    marker = place_ambition_marker(env.box, env.state, ambition)
    m.declared, m.zero_marker = ambition, False
    env.emit("ambition_declared", seat=u.seat, ambition=ambition, marker=marker.id, card=u.card)


def _declare_any_candidates(env: Env, u: Use) -> list[dict]:
    can = bool(env.state.markers_available) and _may_declare(env, u.seat)
    ambitions = [{"ambition": a} for a in env.box.board.ambitions
                 if not declare_barred(env.state, u.seat, a)] if can else []
    return [{}] + ambitions if u.ability.when == "secured" else ambitions


@op("declare_any", params=Declare, candidates=_declare_any_candidates,
    usable=lambda env, u: u.ability.when == "secured" or bool(_declare_any_candidates(env, u)))
def do_populist_demands(env: Env, u: Use, choice: Declare) -> None:
    """Populist Demands (BC27) when secured: optionally declare any ambition, if a marker is
    Available. The card places no zero marker (it names no lead card); the moment records
    the declaration. A Prelude that discards its card to declare (the campaign's Lesser
    Regent) must name the ambition."""
    if not choice.ambition:
        if u.ability.when != "secured":
            raise BadParameter(f"{u.card}: name the ambition to declare")
        return
    if not _may_declare(env, u.seat):
        raise IllegalAction("Generous: declaring costs a Guild card, and you hold none")
    reason = declare_barred(env.state, u.seat, choice.ambition)
    if reason:
        raise IllegalAction(reason)
    marker = place_ambition_marker(env.box, env.state, choice.ambition)
    env.moment.declared = choice.ambition
    env.emit("ambition_declared", seat=u.seat, ambition=choice.ambition, marker=marker.id, card=u.card)


# -- unions (BC04, BC05, BC10, BC11) ----------------------------------------------------------
class AttachChoice(_Choice):
    card: str  # the face-up played action card


def _attachable(env: Env, u: Use) -> list[str]:
    suits = {c.id: c.suit for c in env.box.actions.cards}
    taken = {a.action_card for a in env.state.unions}
    return [c for c in env.moment.face_up if suits.get(c) == u.ability.suit and c not in taken]


@op("attach_union", params=AttachChoice, candidates=lambda env, u: [{"card": c} for c in _attachable(env, u)],
    usable=lambda env, u: bool(_attachable(env, u)))
def do_attach_union(env: Env, u: Use, choice: AttachChoice) -> None:
    """The Unions (BC04, BC05, BC10, BC11) Prelude: set the Union beside a face-up played
    action card of its suit; it leaves the play area (it can no longer be stolen) and at
    round end `settle_unions` gives the holder that card and discards the Union."""
    if choice.card not in _attachable(env, u):
        raise IllegalAction(f"{choice.card!r} is not a face-up played {u.ability.suit} card free for a Union")
    env.state.players[u.seat].guild.remove(u.card)
    env.state.unions.append(AttachedUnion(card=u.card, action_card=choice.card, seat=u.seat))
    env.emit("union_attached", seat=u.seat, card=u.card, action_card=choice.card)


# -- the other Vox cards (BC28-BC31) ------------------------------------------------------------
class OutrageChoice(_Choice):
    resource: Resource | Literal[""] = ""


@op("everyone_provokes_outrage", params=OutrageChoice,
    candidates=lambda env, u: [{}] + [{"resource": r} for r in env.box.board.resources])
def do_outrage_spreads(env: Env, u: Use, choice: OutrageChoice) -> None:
    """Outrage Spreads (BC28): optionally name a type; every player, the holder included and
    in turn order from them, Provokes Outrage of it (ARCS-191..194)."""
    if not choice.resource:
        return
    n = len(env.state.players)
    for i in range(n):
        provoke_outrage(env.box, env.state, (u.seat + i) % n, choice.resource)
    env.emit("outrage_spread", seat=u.seat, resource=choice.resource)


class ReturnCity(_Choice):
    system: str = ""
    building: int = -1
    seize: bool = False


def _returnable(env: Env, u: Use):
    for system, here in sorted(env.state.systems.items()):
        if controls(env.state, u.seat, system):
            for i, b in enumerate(here.buildings):
                if b.kind == "city":
                    yield system, i


def _song_candidates(env: Env, u: Use):
    can_seize = env.state.initiative != u.seat and not env.state.seized
    out = [{}]
    for system, i in _returnable(env, u):
        out.append({"system": system, "building": i, "seize": can_seize})
    return out


@op("return_city_then_seize", params=ReturnCity, candidates=_song_candidates)
def do_song_of_freedom(env: Env, u: Use, choice: ReturnCity) -> None:
    """Song of Freedom (BC29): optionally send one city (anyone's) in a system the holder
    controls back to its owner's board (not destroyed: no Outrage); having done so, the holder
    may seize the initiative if it can be seized (card FAQ: otherwise no seize)."""
    state = env.state
    if not choice.system:
        if choice.seize or choice.building != -1:
            raise BadParameter("seizing needs a city returned first")
        return
    here = state.systems.get(choice.system)
    if here is None or not 0 <= choice.building < len(here.buildings) or here.buildings[choice.building].kind != "city":
        raise BadParameter(f"there is no city {choice.building} in {choice.system!r}")
    if not controls(state, u.seat, choice.system):
        raise IllegalAction(f"{seat_name(u.seat)} does not control {choice.system}")
    if choice.seize:
        _check_can_seize(state, u.seat)
    from plugins.arcs.lore_ops import buildings_removed  # (lore_ops builds on this module)
    buildings_removed(state, choice.system, [choice.building])  # ARCS-141: the tax records follow
    owner = here.buildings.pop(choice.building).owner
    return_city(env.box, state, owner)  # its owner then places what it covered (ARCS-250)
    env.emit("city_returned", seat=u.seat, owner=owner, system=choice.system)
    if choice.seize:
        _seize(env, u.seat)


class GuildTheft(_Choice):
    rival: int = -1
    card: str = ""


@op("steal_guild", params=GuildTheft,
    candidates=lambda env, u: [{}] + [{"rival": r, "card": c} for r in rivals(env.state, u.seat)
                                      for c in _stealable_guilds(env.box, env.state, r)])
def do_guild_struggle_steal(env: Env, u: Use, choice: GuildTheft) -> None:
    """Guild Struggle (BC30), first part: optionally steal one Guild card from a Rival."""
    if choice.rival == -1 and not choice.card:
        return
    _rival(env.state, u.seat, choice.rival)
    _check_guild_theft(env, choice.rival, choice.card)
    kept = _steal_guild(env.box, env.state, u.seat, choice.rival, choice.card)
    env.emit("guild_stolen", seat=u.seat, rival=choice.rival, card=choice.card, buried=not kept)


@op("reshuffle_court_discard_guilds")
def do_guild_struggle_reshuffle(env: Env, u: Use, _: None) -> None:
    """Guild Struggle (BC30), second part: every Guild card in the Court discard goes into the
    Court deck, which is shuffled (publicly announced, order unseen)."""
    state = env.state
    guilds = [c for c in state.court_discard if env.box.court[c].kind == "guild"]
    state.court_discard = [c for c in state.court_discard if c not in guilds]
    state.court_deck.extend(guilds)
    dice_chance.shuffle(_chance(env), state.court_deck, "court deck")


@op("draw_discard_bottom")
def do_call_to_action(env: Env, u: Use, _: None) -> None:
    """Call to Action (BC31): draw the bottom card of the action discard pile (none if empty;
    the face-down pile's with Split Discard, ARCS-283)."""
    state = env.state
    drawn = draw_bottom(_chance(env), state, 1)
    state.hands[u.seat].extend(drawn)
    env.emit("cards_drawn", to=[u.seat], public={"seat": u.seat, "count": len(drawn)}, seat=u.seat, cards=drawn)
