"""The Blight (rulebook "The Blight", "Crises > Blight Crises", BR-213..BR-218, BR-231..BR-238)
as pure functions of the boxes and the campaign state.

What the Blight does, and nothing more: in a Blight Crisis it hits ships (Imperial first,
then every player's Loyal ships), never buildings; it is Tough when harmed (2 hits per
step) and a destroyed token becomes the destroyer's Trophy; it ends Catapult moves at a
gate; at the Intermission it is repaired and destroys the buildings of systems it holds
alone. The rulebook gives it no other effect: it does not control systems, block
building, count toward control or touch resources, so nothing here does either.

Blight is placed from its supply of 24; when the supply is empty a token comes from the
player with the most Blight Trophies (BR-238). A Blight Trophy is a `Trophy` of owner
`BLIGHT` and kind "blight" in the destroyer's Trophies (so Warlord counts it like any).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from core.errors import BadParameter, IllegalAction
from core.seats import seat_name
from plugins.arcs.actions import Move
from plugins.arcs.battle import Roll
from plugins.arcs.chapter import return_city
from plugins.arcs.content import Box
from plugins.arcs.state import Building, Ships, Trophy
from plugins.blighted_reach.board import blight, has_loyal_pieces, imperial_ships
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.setup import SYMBOLS, cluster_systems
from plugins.blighted_reach.state import FREE, BlightedReachState, Pieces

BLIGHT = -3            # the owner of a Blight Trophy (FREE is -1, board.EMPIRE -2)
FRESH_HITS = 3         # hits a fresh Blight deals in its Blight Crisis (BR-213)
DAMAGED_HITS = 1       # ... and a damaged one
TOUGH = 2              # hits it takes to damage or destroy one Blight (BR-231)
IMPERIAL_PROTECTORS = "no_blight_crisis_in_empire_systems"  # the Steward's law (F108)


def _set(state: BlightedReachState, system: str, pieces: Pieces) -> None:
    """`state.blight` holds only systems with Blight."""
    if pieces.total > 0:
        state.blight[system] = pieces
    else:
        state.blight.pop(system, None)


def turn_order(state: BlightedReachState) -> list[int]:
    """Seats from the initiative holder clockwise (ruling G-1's order for ties and turns)."""
    n = len(state.players)
    return [(state.initiative + i) % n for i in range(n)]


def blight_trophies(state: BlightedReachState, seat: int) -> int:
    return sum(1 for t in state.players[seat].trophies if t.kind == "blight")


def gates(box: Box, state: BlightedReachState) -> list[str]:
    return [c.gate for c in box.map.clusters if c.gate in state.systems]


def has_ships(state: BlightedReachState, system: str) -> bool:
    """Any ship at all: a player's or the Empire's."""
    here = state.systems[system]
    return imperial_ships(state, system).total > 0 or any(s.total > 0 for s in here.ships)


# -- placing Blight (BR-238) -------------------------------------------------------------


def blight_source(state: BlightedReachState) -> int | None:
    """Where the next placed Blight comes from: None for the supply, else the seat with the
    most Blight Trophies (ties: the first in turn order, ruling G-1). Raises IllegalAction
    when there is none anywhere."""
    if state.blight_supply > 0:
        return None
    held = [(blight_trophies(state, s), -i, s) for i, s in enumerate(turn_order(state))]
    most = max(held)
    if most[0] == 0:
        raise IllegalAction("no Blight is left in the supply or among the Trophies")
    return most[2]


def take_blight(state: BlightedReachState) -> bool:
    """Take one token to place: from the supply, else from the Trophies of the player with
    the most Blight Trophies (BR-238). False when none is left anywhere: the placement is
    skipped (ruling G-3, the most that can be done)."""
    try:
        seat = blight_source(state)
    except IllegalAction:
        return False
    if seat is None:
        state.blight_supply -= 1
    else:
        trophies = state.players[seat].trophies
        trophies.pop(next(i for i, t in enumerate(trophies) if t.kind == "blight"))
    return True


def place_blight(state: BlightedReachState, system: str, damaged: bool = True) -> bool:
    """One Blight into `system`, damaged side up unless told otherwise."""
    if not take_blight(state):
        return False
    here = blight(state, system)
    _set(state, system, Pieces(fresh=here.fresh + (not damaged), damaged=here.damaged + damaged))
    return True


def return_blight_trophies(state: BlightedReachState) -> int:
    """Blight Trophies going home go to the Blight supply (Intermission C.1, or a Warlord
    clean-up). Reading: the Blight's 'owner' is its supply. Returns how many."""
    back = 0  # Reading: the Blight has no player to go home to, so it rejoins its supply
    for p in state.players:
        kept = [t for t in p.trophies if t.kind != "blight"]
        back += len(p.trophies) - len(kept)
        p.trophies = kept
    state.blight_supply += back
    return back


# -- spreading at Act II and III setup (BR-070..BR-072) ----------------------------------


def spread_to_empty_gates(box: Box, state: BlightedReachState) -> list[str]:
    """Step C: one damaged Blight on each gate with no Blight and no ship of anyone."""
    placed = []
    for gate in gates(box, state):
        if blight(state, gate).total == 0 and not has_ships(state, gate) and place_blight(state, gate):
            placed.append(gate)
    return placed


def spread_by_symbol(box: Box, state: BlightedReachState, symbol: str) -> list[str]:
    """Step D, after the event die showed `symbol` (campaign name: arrow/hex/moon): in
    each cluster its planet of that symbol gets one damaged Blight if it has none;
    if it has some, every Blight-free planet of that cluster gets one instead."""
    placed = []
    for cluster in box.map.clusters:
        planets = [p.id for p in cluster.planets if p.id in state.systems]
        rolled = [p.id for p in cluster.planets if p.symbol == SYMBOLS[symbol] and p.id in state.systems]
        if not rolled:
            continue
        targets = rolled if blight(state, rolled[0]).total == 0 else planets
        for planet in targets:
            if blight(state, planet).total == 0 and place_blight(state, planet):
                placed.append(planet)
    return placed


# -- Blight Looms (CC15) ---------------------------------------------------------------


def repair_blight_in_cluster(box: Box, state: BlightedReachState, cluster: int) -> list[str]:
    """Its Crisis, first part: every damaged Blight in the cluster turns fresh."""
    repaired = []
    for system in cluster_systems(box, cluster):
        here = blight(state, system)
        if here.damaged:
            _set(state, system, Pieces(fresh=here.total))
            repaired.append(system)
    return repaired


def blight_symbol_planets(box: Box, state: BlightedReachState, symbol: str) -> list[str]:
    """Its Crisis, second part: one damaged Blight on every planet of the rolled symbol,
    in every cluster, that has no Blight (BR-224)."""
    placed = []
    for cluster in box.map.clusters:
        for planet in cluster.planets:
            if (planet.symbol == SYMBOLS[symbol] and planet.id in state.systems
                    and blight(state, planet.id).total == 0 and place_blight(state, planet.id)):
                placed.append(planet.id)
    return placed


def _loyal_in_cluster(box: Box, state: BlightedReachState, seat: int, cluster: int) -> bool:
    return any(has_loyal_pieces(state, seat, s) for s in cluster_systems(box, cluster) if s in state.systems)


def options_destroy_damaged_blight(box: Box, state: BlightedReachState, seat: int) -> list[dict]:
    """When Secured (the securer decides): decline ({}), or a cluster where they have
    Loyal pieces and some damaged Blight stands."""
    out: list[dict] = [{}]
    for c in box.map.clusters:
        if _loyal_in_cluster(box, state, seat, c.id) and any(
                blight(state, s).damaged for s in cluster_systems(box, c.id)):
            out.append({"cluster": c.id})
    return out


def check_destroy_damaged_blight(box: Box, state: BlightedReachState, seat: int, cluster: int | None) -> None:
    if cluster is None:
        return
    if cluster not in [c.id for c in box.map.clusters]:
        raise BadParameter(f"there is no cluster {cluster}")
    if not _loyal_in_cluster(box, state, seat, cluster):
        raise IllegalAction(f"{seat_name(seat)} has no Loyal pieces in cluster {cluster}")


def destroy_damaged_blight_in_cluster(box: Box, state: BlightedReachState, seat: int, cluster: int | None) -> int:
    """Blight Looms When Secured: the securer destroys every damaged Blight in the chosen
    cluster (None: declined) and takes them as Trophies (BR-232). Returns how many."""
    check_destroy_damaged_blight(box, state, seat, cluster)
    if cluster is None:
        return 0
    taken = 0
    for system in cluster_systems(box, cluster):
        here = blight(state, system)
        if here.damaged:
            taken += here.damaged
            _set(state, system, Pieces(fresh=here.fresh))
    state.players[seat].trophies.extend([Trophy(owner=BLIGHT, kind="blight")] * taken)
    if taken:
        blight_harmed(state, seat)
    return taken


# -- the Blight Crisis (BR-213..BR-218) ------------------------------------------------


def crisis_hits(pieces: Pieces) -> int:
    """BR-213: 3 per fresh Blight, 1 per damaged."""
    return FRESH_HITS * pieces.fresh + DAMAGED_HITS * pieces.damaged


def hit_fresh_first(fresh: int, damaged: int, hits: int) -> tuple[int, int, int, int]:
    """BR-216: each hit goes to a fresh ship while one remains (damaging it), then
    destroys a damaged one. Returns (fresh, damaged, destroyed, hits used)."""
    damaging = min(hits, fresh)
    fresh, damaged = fresh - damaging, damaged + damaging
    destroying = min(hits - damaging, damaged)
    return fresh, damaged - destroying, destroying, damaging + destroying


# Rules that spare a system its Blight Crisis now (the Naturalist's Blight Society, paid for
# the Crises being resolved): fn(state, system) -> True to spare it. Empty: none spared.
CRISIS_SPARED: list = []


def crisis_exempt(cbox: CampaignBox, state: BlightedReachState, system: str) -> bool:
    """Imperial Protectors (F108), once in the rules booklet: no Blight Crisis where the
    Empire controls (a fresh Imperial ship); nor where a rule of `CRISIS_SPARED` spares it."""
    if any(rule(state, system) for rule in CRISIS_SPARED):
        return True
    cards = [c for slot in state.booklet for c in slot if c in cbox.fate_cards or c in cbox.court]
    protected = any(e.when == "always" and e.do == "handler" and e.handler == IMPERIAL_PROTECTORS
                    for c in cards for e in cbox.effects_of(c))
    return protected and imperial_ships(state, system).fresh > 0


def blight_crisis_systems(cbox: CampaignBox, state: BlightedReachState) -> list[str]:
    """Every system with Blight has one (BR-213), in map order; none are exempt unless
    Imperial Protectors is in the booklet."""
    return [s for s in state.systems if blight(state, s).total > 0 and not crisis_exempt(cbox, state, s)]


def blight_crisis(state: BlightedReachState, system: str) -> dict:
    """One system's Blight Crisis: no choice is made by anyone. Imperial ships take the
    hits first (BR-214); what remains hits every player's Loyal ships there, each player
    taking all of it (BR-215); fresh ships before damaged (BR-216). Destroyed ships go to
    their supplies (the Blight takes no Trophies); buildings are never hit (BR-218), so
    hits beyond the ships are lost. Returns what happened, for the flow's event."""
    hits = crisis_hits(blight(state, system))
    result: dict = {"system": system, "hits": hits, "imperial": None, "players": {}}
    imp = imperial_ships(state, system)
    left = hits
    if imp.total:
        fresh, damaged, destroyed, used = hit_fresh_first(imp.fresh, imp.damaged, hits)
        left -= used
        state.imperial_supply += destroyed
        if fresh + damaged:
            state.imperial[system] = Pieces(fresh=fresh, damaged=damaged)
        else:
            state.imperial.pop(system, None)
        result["imperial"] = {"before": [imp.fresh, imp.damaged], "after": [fresh, damaged], "destroyed": destroyed}
    here = state.systems[system]
    # Reading: "each remaining hit to the Loyal ships of every player" - every player
    # present takes all of what is left (the worked example: 1 left, 1 hit on each).
    for seat in turn_order(state):
        mine = here.ships_of(seat)
        others = [taker for taker in CRISIS_HIT_TAKERS if taker(state, seat, system, 0) is not None]
        if left <= 0 or (mine.total == 0 and not others):
            continue
        if others:
            result["players"][seat] = _hit_with_others(state, seat, system, left, others)
            continue
        f, d, gone, _ = hit_fresh_first(mine.fresh, mine.damaged, left)
        here.ships[seat] = Ships(fresh=f, damaged=d)
        state.players[seat].ships += gone
        result["players"][seat] = {"before": [mine.fresh, mine.damaged], "after": [f, d], "destroyed": gone}
    for after in AFTER_CRISIS:
        after(state, result)
    return result


# Rules that act on what one system's Blight Crisis destroyed (the Blight Speaker's Blight
# Hunger): fn(state, result) with `blight_crisis`'s report, the pieces already in their supplies.
AFTER_CRISIS: list = []


# Loyal ships kept outside the systems' `Ships` counts (a seat's Flagship, issue 19), filled by
# the module that keeps them: fn(state, seat, system, hits) -> the hits it takes (0 with nothing
# left to hit), or None when the seat has no such ship there (then `hits` is not applied).
CRISIS_HIT_TAKERS: list = []


def _hit_with_others(state: BlightedReachState, seat: int, system: str, hits: int, takers: list) -> dict:
    """BR-216 with such a ship, a fresh one taking hits only once no other fresh Loyal ship
    of its owner is left (BR-291): the other fresh ships are damaged first, then it takes
    what it can, then the damaged ships are destroyed.
    Reading: the Flagship stands among the fresh ships, last of them, as BR-216 and BR-291
    together read."""
    here = state.systems[system]
    mine = here.ships_of(seat)
    damaging = min(hits, mine.fresh)
    fresh, damaged, left = mine.fresh - damaging, mine.damaged + damaging, hits - damaging
    here.ships[seat] = Ships(fresh=fresh, damaged=damaged)
    taken = 0
    for taker in takers:
        used = taker(state, seat, system, left) if left > 0 else 0
        taken, left = taken + used, left - used
    destroying = min(left, damaged)
    here.ships[seat] = Ships(fresh=fresh, damaged=damaged - destroying)
    state.players[seat].ships += destroying
    return {"before": [mine.fresh, mine.damaged], "after": [fresh, damaged - destroying], "destroyed": destroying,
            "flagship_hits": taken}


def blight_crises(cbox: CampaignBox, state: BlightedReachState) -> list[dict]:
    """The Blight Crises, first of the Crises (BR-212). Systems do not affect each other."""
    return [blight_crisis(state, s) for s in blight_crisis_systems(cbox, state)]


# -- battling the Blight (BR-231..BR-236) ----------------------------------------------


@dataclass(frozen=True)
class BlightDefence:
    """What a battle roll does against the Blight as defender."""

    hits: int                # ship hits: they strike the Blight (BR-234)
    intercept_hits: int      # hits the attacker takes from intercepts: always 0 (BR-235)
    building_hits_lost: int  # building hits have no target (BR-234)


def defending_blight(state: BlightedReachState, system: str) -> Pieces:
    """BR-233: chosen as defender, every Blight in the system defends."""
    return blight(state, system)


def blight_defence(roll: Roll) -> BlightDefence:
    return BlightDefence(hits=roll.hit, intercept_hits=0, building_hits_lost=roll.building_hit)


@dataclass(frozen=True)
class BlightHits:
    """The attacker's split of hits over the defending Blight, in whole Tough steps."""

    damage_fresh: int = 0     # fresh Blight taking 2 hits: damaged
    destroy_fresh: int = 0    # fresh Blight taking 4 hits: destroyed
    destroy_damaged: int = 0  # damaged Blight taking 2 hits: destroyed

    @property
    def hits(self) -> int:
        return self.hits_at(TOUGH)

    def hits_at(self, tough: int) -> int:
        """The hits this split uses when each step takes `tough` hits."""
        return tough * (self.damage_fresh + 2 * self.destroy_fresh + self.destroy_damaged)

    @property
    def destroyed(self) -> int:
        return self.destroy_fresh + self.destroy_damaged


# Rules that make the Blight less Tough for one attacker (the Blight Speaker's Blight
# Hunters): fn(state, seat) -> hits per step for that seat, or None when the rule says nothing.
TOUGHNESS_RULES: list = []


def toughness(state: BlightedReachState, seat: int) -> int:
    """Hits one step of harm on a Blight takes from `seat`'s attack: 2 (BR-231) unless a
    rule of a card it holds says fewer."""
    found = [t for rule in TOUGHNESS_RULES if (t := rule(state, seat)) is not None]
    return min([TOUGH, *found])


def hits_that_land(pieces: Pieces, hits: int, tough: int = TOUGH) -> int:
    """BR-231: one hit does nothing, so only pairs count, up to what destroys every
    token. Reading: as every hit that can land must be assigned (ARCS-186), every pair
    that can land must: the attacker cannot spread single hits to waste them."""
    return tough * min(hits // tough, 2 * pieces.fresh + pieces.damaged)


def options_blight_hits(pieces: Pieces, hits: int, tough: int = TOUGH) -> list[dict]:
    """The splits the attacker (who decides, ARCS-183) may choose."""
    need = hits_that_land(pieces, hits, tough)  # Reading: whole pairs only, see hits_that_land
    out = []
    for df, xf, xd in product(range(pieces.fresh + 1), range(pieces.fresh + 1), range(pieces.damaged + 1)):
        split = BlightHits(df, xf, xd)
        if df + xf <= pieces.fresh and split.hits_at(tough) == need:
            out.append({"damage_fresh": df, "destroy_fresh": xf, "destroy_damaged": xd})
    return out


def check_blight_hits(pieces: Pieces, hits: int, split: BlightHits, tough: int = TOUGH) -> None:
    if min(split.damage_fresh, split.destroy_fresh, split.destroy_damaged) < 0:
        raise BadParameter("hit counts cannot be negative")
    if split.damage_fresh + split.destroy_fresh > pieces.fresh or split.destroy_damaged > pieces.damaged:
        raise BadParameter(f"only {pieces.fresh} fresh and {pieces.damaged} damaged Blight are there")
    need = hits_that_land(pieces, hits, tough)
    if split.hits_at(tough) != need:
        raise BadParameter(f"{need} of the {hits} hit(s) must land on the Blight, {tough} per step, "
                           f"not {split.hits_at(tough)}")


def apply_blight_hits(state: BlightedReachState, seat: int, system: str, hits: int, split: BlightHits) -> int:
    """Hit the Blight in `system` as `seat` split it (each step as Tough as it is for that
    seat, `toughness`); destroyed tokens become the seat's Trophies (BR-232). Returns the
    Trophies taken."""
    here = blight(state, system)
    check_blight_hits(here, hits, split, toughness(state, seat))
    fresh = here.fresh - split.damage_fresh - split.destroy_fresh
    damaged = here.damaged + split.damage_fresh - split.destroy_damaged
    _set(state, system, Pieces(fresh=fresh, damaged=damaged))
    state.players[seat].trophies.extend([Trophy(owner=BLIGHT, kind="blight")] * split.destroyed)
    if split.damage_fresh or split.destroyed:
        blight_harmed(state, seat)
    return split.destroyed


# Rules that watch a player damaging or destroying Blight (the Naturalist's Blight Society):
# fn(state, seat), told once for each action (a battle's hits, a card's effect) that did.
BLIGHT_HARMED: list = []


def blight_harmed(state: BlightedReachState, seat: int) -> None:
    for rule in BLIGHT_HARMED:
        rule(state, seat)


# -- Catapult moves (BR-237) -----------------------------------------------------------


def blight_stops_catapult(box: Box, state: BlightedReachState, system: str) -> bool:
    """A gate holding any Blight, fresh or damaged, ends a Catapult move entering it."""
    return system in box.systems and box.systems[system] is None and blight(state, system).total > 0


# Rules that let a seat's Catapult go on through Blighted gates (the Blight Speaker's Spore
# Ships): fn(state, seat) -> True when the Blight does not end that seat's Catapult moves.
CATAPULT_PAST_BLIGHT: list = []


def check_catapult_blight(box: Box, state: BlightedReachState, move: Move, seat: int = -1) -> None:
    """Refuse a move that goes on past a Blighted gate (the base move check covers the
    rest: planets and Rival-controlled gates), unless a card of the mover's lets it."""
    if seat >= 0 and any(rule(state, seat) for rule in CATAPULT_PAST_BLIGHT):
        return
    from plugins.blighted_reach.free_states import catapult_goes_on

    for i, step in enumerate(move.path[:-1]):
        if blight_stops_catapult(box, state, step) and not (seat >= 0 and catapult_goes_on(state, seat, move, i)):
            raise IllegalAction(f"entering {step}, which holds Blight, ends the move")


# -- the Intermission (BR-339, BR-342) -------------------------------------------------


def repair_all_blight(state: BlightedReachState) -> int:
    """Intermission D.1: every damaged Blight turns fresh. Returns how many."""
    repaired = sum(p.damaged for p in state.blight.values())
    state.blight = {s: Pieces(fresh=p.total) for s, p in state.blight.items()}
    return repaired


def destroy_buildings_under_blight(box: Box, state: BlightedReachState) -> list[dict]:
    """Intermission D.3: in each system with Blight and no ships, every building is
    destroyed: Loyal ones go home (a city to its owner's board, which may open a resource
    placement, ARCS-250), Free ones to their supplies. The Blight is no player: no
    Trophies, no Outrage."""
    gone = []
    for system, here in state.systems.items():
        if blight(state, system).total == 0 or has_ships(state, system) or not here.buildings:
            continue
        for b in here.buildings:
            return_building(box, state, b)
            gone.append({"system": system, "kind": b.kind, "owner": b.owner})
        here.buildings = []
    return gone


def return_building(box: Box, state: BlightedReachState, b: Building) -> None:
    """A building off the map with no Trophy taken: a Loyal one to its owner's board or
    supply, a Free one to the Free supply."""
    if b.owner == FREE:
        if b.kind == "city":
            state.free_city_supply += 1
        else:
            state.free_starport_supply += 1
    elif b.kind == "city":
        return_city(box, state, b.owner)
    else:
        state.players[b.owner].starports += 1
