"""The Empire's rules for Regents and Outlaws (rulebook "The Empire", BR-114..BR-141):
titles, commanding Imperial ships (the Presence Law), the Movement Law and Catapult stops,
the Truce Law, and who fights on which side of a battle.

Pure functions of the campaign state; the base Arcs move, battle, build and tax code reaches
them through hooks. Each `check_*` raises a typed `ActionRejected` and changes nothing; its
twin applies. The seat called `seat` (or `attacker`, `mover`) is the one acting, on its own
turn, and it makes every choice asked here: which Imperial ships join its move or attack,
which defender it battles. Laws a held card lets a seat ignore come in as flags
(`ignore_presence`, `ignore_movement`, `ignore_truce`); `laws_ignored` reads them off the
seat's cards.

Names: a battle target or defender is a seat, "empire" (the Imperial ships alone) or "free"
(the Free buildings). `board.EMPIRE` (-2) is the Empire as a system's controller and as the
owner of Imperial ship Trophies; `FREE` (-1) owns Free buildings.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Literal

from core.errors import ActionRejected, BadParameter, IllegalAction, UnknownSeat
from core.seats import no_such_seat, seat_name
from plugins.arcs.actions import Move
from plugins.arcs.state import Ships, Trophy
from plugins.blighted_reach import free_states
from plugins.blighted_reach.board import (
    EMPIRE,
    command_barred,
    controller,
    controls_on_turn,
    free_buildings,
    has_loyal_pieces,
    imperial_ships,
    is_outlaw,
    is_regent,
)
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.state import FREE, BlightedReachState, Pieces

Target = int | Literal["empire", "free"]
Harm = Literal["defend", "hit", "damage", "destroy"]
HARMS = ("defend", "hit", "damage", "destroy")  # BR-323: choosing as defender, hitting, damaging, destroying
LAWS = ("presence", "movement", "truce")


def _seat(state: BlightedReachState, seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise UnknownSeat(no_such_seat(seat, len(state.players)))


def _system(state: BlightedReachState, system: str) -> None:
    if system not in state.systems:
        raise BadParameter(f"{system!r} is not a system in play")


def _target(state: BlightedReachState, target: Target) -> None:
    if target in ("empire", "free"):
        return
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < len(state.players):
        raise BadParameter(f"{target!r} is not a seat, 'empire' or 'free'")


def laws_ignored(cbox: CampaignBox, state: BlightedReachState, seat: int) -> frozenset[str]:
    """The Laws the seat's Guild and Lore cards let it ignore (`ignore_laws` effects, such as
    Imperial Authority, Imperial Officers, Rogue Admirals)."""
    player = state.players[seat]
    known = set(cbox.court) | set(cbox.fate_cards)
    laws: set[str] = set()
    for card in [*player.guild, *player.lore]:
        if card in known:
            for effect in cbox.effects_of(card):
                if getattr(effect, "do", "") == "ignore_laws":
                    laws.update(getattr(effect, "laws", ()))
    return frozenset(laws)


# -- titles (BR-114..BR-119) ------------------------------------------------------------


def owes_imperial_demand(state: BlightedReachState, seat: int) -> bool:
    """BR-116: Outlaws never pay the Imperial Demand into the Trust; Regents may owe it."""
    return is_regent(state, seat)


def successor(state: BlightedReachState, seat: int) -> int:
    """Who takes the First Regent tile when `seat` leaves the Empire: the Regent with the
    most Power (BR-194), -1 when no other Regent is left.
    Reading: a tie is broken in turn order from the initiative holder, the base game's rule
    for ties that name no tiebreaker."""
    n = len(state.players)
    order = [(state.initiative + i) % n for i in range(n)]
    candidates = [s for s in order if s != seat and is_regent(state, s)]
    if not candidates:
        return -1
    best = max(state.players[s].power for s in candidates)
    return next(s for s in candidates if state.players[s].power == best)


def check_become_outlaw(state: BlightedReachState, seat: int) -> None:
    _seat(state, seat)
    if not is_regent(state, seat):
        raise IllegalAction("only a Regent can leave the Empire")


def become_outlaw(state: BlightedReachState, seat: int) -> dict:
    """Flip the seat's title to Outlaw (BR-117/BR-118: Leave the Empire, called by the
    Summit's caller; Fate cards such as Parade Fleets use it too). A leaving First Regent
    hands the tile with the whole Trust to `successor` (BR-194); with no Regent left the
    Trust goes back to the supply, the leaver loses 1 Power per resource (Power may go
    below 0) and nobody is First Regent (BR-195).
    Returns {"seat", "first_regent" (after), "returned" (Trust resources), "power_lost"}."""
    check_become_outlaw(state, seat)
    state.titles[seat] = "outlaw"
    returned: list[str] = []
    if state.first_regent == seat:
        heir = successor(state, seat)
        if heir >= 0:
            state.first_regent = heir
        else:
            returned, state.trust = list(state.trust), []
            for resource in returned:
                state.supply[resource] = state.supply.get(resource, 0) + 1
            state.players[seat].power -= len(returned)
            state.first_regent = -1
    return {"seat": seat, "first_regent": state.first_regent, "returned": returned, "power_lost": len(returned)}


def check_become_regent(state: BlightedReachState, seat: int) -> None:
    _seat(state, seat)
    if not is_outlaw(state, seat):
        raise IllegalAction("only an Outlaw can become a Regent")


def become_regent(state: BlightedReachState, seat: int) -> None:
    """Flip the seat's title to Regent (BR-119). When it may (the First Regent's consent or
    a returned Favor in a Summit, Invite to Empire, Revive the Empire) and whether it takes
    the First Regent tile are the Summit's rules; this is only the flip."""
    check_become_regent(state, seat)
    state.titles[seat] = "regent"


# -- control and command: the Presence Law (BR-120..BR-126) ------------------------------


def check_command(state: BlightedReachState, seat: int, system: str, ignore_presence: bool = False) -> None:
    """May the seat act with the Imperial ships in `system` now (move, repair, battle with
    them, build at them)? Only a Regent (BR-123), only where Imperial ships are, and only
    with a Loyal piece there (BR-124) unless it ignores the Presence Law (BR-125).
    Reading: command needs Imperial ships present, not Empire control, so a Regent may
    repair the damaged Imperial ships of a system the Empire no longer controls."""
    _seat(state, seat)
    _system(state, system)
    if not is_regent(state, seat):
        raise IllegalAction("Outlaws never command Imperial ships")
    if command_barred(state, seat):
        raise IllegalAction("Martial Law: without Imperial Officers or Rogue Admirals you cannot command the Imperial fleet")
    if imperial_ships(state, system).total <= 0:
        raise IllegalAction(f"no Imperial ship is in {system}")
    if not ignore_presence and not has_loyal_pieces(state, seat, system):
        raise IllegalAction(f"the Presence Law: commanding the Imperial ships in {system} needs a Loyal piece there")


def commands(state: BlightedReachState, seat: int, system: str, ignore_presence: bool = False) -> bool:
    try:
        check_command(state, seat, system, ignore_presence)
    except ActionRejected:
        return False
    return True


def commandable_systems(state: BlightedReachState, seat: int, ignore_presence: bool = False) -> list[str]:
    """Every system whose Imperial ships the seat commands now, for a prompt."""
    return [s for s in sorted(state.imperial) if commands(state, seat, s, ignore_presence)]


def builds_damaged(state: BlightedReachState, seat: int, system: str, ignore_presence: bool = False) -> bool:
    """ARCS-146 with the Empire: a piece the seat builds is damaged where anyone else
    controls on the seat's turn; the Presence Law makes an Empire system the Regent's own
    when it has Loyal pieces there (BR-122), so only Outlaws (and Regents without pieces
    there) build damaged in Empire systems (BR-126). The base `do_build` asks the base
    controller, which ignores the Empire: a campaign hook must ask this instead."""
    return controller(state, system) is not None and not controls_on_turn(state, seat, system, ignore_presence)


def may_build_building_at(state: BlightedReachState, seat: int, system: str, ignore_presence: bool = False) -> bool:
    """A city or starport needs a Loyal piece in the system (ARCS-144) or Imperial ships the
    seat commands (BR-123), which adds systems only when the Presence Law is ignored."""
    return has_loyal_pieces(state, seat, system) or commands(state, seat, system, ignore_presence)


def check_repair_imperial(state: BlightedReachState, seat: int, system: str, ignore_presence: bool = False) -> None:
    check_command(state, seat, system, ignore_presence)
    if imperial_ships(state, system).damaged <= 0:
        raise IllegalAction(f"no damaged Imperial ship is in {system}")


def repair_imperial(state: BlightedReachState, seat: int, system: str, ignore_presence: bool = False) -> None:
    """BR-123: a Regent's Repair action may stand up a damaged Imperial ship it commands."""
    check_repair_imperial(state, seat, system, ignore_presence)
    here = state.imperial[system]
    state.imperial[system] = Pieces(fresh=here.fresh + 1, damaged=here.damaged - 1)


# -- taxing (BR-123, BR-133, BR-184) -----------------------------------------------------


# Fate rules letting a seat tax a Rival (or Free) city without controlling its system (the
# Pirate's Smugglers, the Warden's Feudal Law): each `rule(state, seat, system, building)` returns True to allow it.
TAX_WITHOUT_CONTROL: list[Callable[[BlightedReachState, int, str, int], bool]] = []


def check_tax(state: BlightedReachState, seat: int, system: str, building: int, taxed: Iterable[list] = (),
              ignore_truce: bool = False, ignore_presence: bool = False) -> None:
    """The campaign's tax target check: a Loyal city always; a Rival's only with control of
    the system on the seat's turn (ARCS-137, the Presence Law's included: BR-123), never a
    Rival Regent's by a Regent where Imperial ships are (BR-133); a Free city with control
    (BR-177). `taxed`: the [system, building] pairs taxed this turn (ARCS-141). Who is
    captured is `free_states.tax_captive` (nobody for a Free city, BR-184)."""
    _seat(state, seat)
    _system(state, system)
    here = state.systems[system]
    if not 0 <= building < len(here.buildings) or here.buildings[building].kind != "city":
        raise BadParameter(f"there is no city {building} in {system}")
    owner = here.buildings[building].owner
    if owner == FREE:
        free_states.check_free_tax(state, seat, system, building, taxed, ignore_presence,
                                   without_control=any(rule(state, seat, system, building)
                                                       for rule in TAX_WITHOUT_CONTROL))
        return
    if [system, building] in list(taxed):
        raise IllegalAction(f"that city in {system} was taxed this turn already")
    if owner == seat:
        return
    if not controls_on_turn(state, seat, system, ignore_presence) and not any(
            rule(state, seat, system, building) for rule in TAX_WITHOUT_CONTROL):
        raise IllegalAction(f"taxing a Rival city needs control of {system}")
    if truce_protects(state, seat, owner, system) and not ignore_truce:
        raise IllegalAction(f"the Truce Law: no Regent taxes a Rival Regent where Imperial ships are ({system})")


# -- the Truce Law and harm (BR-132..BR-134, BR-323) -------------------------------------


def truce_protects(state: BlightedReachState, seat: int, target: Target, system: str) -> bool:
    """BR-133: a Regent's Rival Regent is shielded in a system holding any Imperial ship."""
    return (isinstance(target, int) and target != seat and is_regent(state, seat)
            and is_regent(state, target) and imperial_ships(state, system).total > 0)


# Fate rules that forbid a harm the Laws allow (the Founder's Armistice and Book of Liberation):
# each `limit(state, seat, target, system, harm)` returns why the harm is refused, or "".
HARM_LIMITS: list[Callable[[BlightedReachState, int, Target, str, str], str]] = []


def check_harm(state: BlightedReachState, seat: int, target: Target, system: str, *, harm: Harm = "hit",
               crisis: bool = False, attacking_imperial: bool = False, ignore_truce: bool = False) -> None:
    """May `seat` harm `target`'s pieces in `system`? Harm is choosing as defender, hitting,
    damaging or destroying (BR-323): the Truce Law treats them all alike.
    - `crisis`: the harm comes from a Crisis, which no Law limits (BR-134);
    - Outlaws harm anyone (BR-116); the Free States are harmed by anyone (BR-178);
    - a Regent never harms Imperial ships (BR-132) but for hits it assigns to the Imperial
      ships attacking on its own side (`attacking_imperial`: self-hits, intercepts);
    - a Regent never harms a Rival Regent where Imperial ships are (BR-133);
    - a Fate's rule in `HARM_LIMITS` may forbid it (outside Crises).
    `ignore_truce`: a card lets the seat ignore the Truce Law."""
    _seat(state, seat)
    _system(state, system)
    _target(state, target)
    if harm not in HARMS:
        raise BadParameter(f"{harm!r} is not a harm: {', '.join(HARMS)}")
    if attacking_imperial and (target != "empire" or harm == "defend"):
        raise BadParameter("only hits on one's own attacking Imperial ships are such hits")
    if crisis:
        return
    for limit in HARM_LIMITS:  # no Law: ignoring the Truce Law does not lift them
        why = limit(state, seat, target, system, harm)
        if why:
            raise IllegalAction(why)
    if ignore_truce or not is_regent(state, seat) or target == "free":
        return
    if target == "empire":
        if not attacking_imperial:
            raise IllegalAction("the Truce Law: Regents never harm Imperial ships")
        return
    if truce_protects(state, seat, target, system):
        raise IllegalAction(f"the Truce Law: no Regent harms a Rival Regent where Imperial ships are ({system})")


def may_harm(state: BlightedReachState, seat: int, target: Target, system: str, **kw) -> bool:
    try:
        check_harm(state, seat, target, system, **kw)
    except ActionRejected:
        return False
    return True


# -- movement: the Movement Law and Catapult stops (BR-127..BR-131) ---------------------


@dataclass(frozen=True)
class ImperialGroup:
    """The Imperial ships moving with a Loyal `Move` (same origin, same path, same time):
    `fresh` and `damaged` leave the origin; `drops[i]` = (fresh, damaged) left in path[i]
    on the way, as in `Move.drops`; whatever is still moving ends in the last system."""

    fresh: int = 0
    damaged: int = 0
    drops: tuple[tuple[int, int], ...] = ()

    @property
    def total(self) -> int:
        return self.fresh + self.damaged


def movement_legs(move: Move, imperial: ImperialGroup = ImperialGroup()) -> list[tuple[int, int]]:
    """(Loyal, Imperial) ships entering each system of the path, after the drops before it."""
    loyal, imp, legs = move.fresh + move.damaged, imperial.total, []
    for i in range(len(move.path)):
        legs.append((loyal, imp))
        loyal -= sum(move.drops[i]) if i < len(move.drops) else 0
        imp -= sum(imperial.drops[i]) if i < len(imperial.drops) else 0
    return legs


def check_movement_law(legs: Iterable[tuple[int, int]]) -> None:
    """BR-127: on every leg at most one Imperial ship per Loyal ship moving with it; so an
    Imperial ship never moves alone. `legs`: (Loyal, Imperial) moving into each system."""
    for i, (loyal, imp) in enumerate(legs):
        if min(loyal, imp) < 0:
            raise BadParameter("ship counts cannot be negative")
        if imp > loyal:
            raise IllegalAction(f"the Movement Law: leg {i + 1} moves {imp} Imperial ship(s) "
                                f"with only {loyal} Loyal ship(s)")


def catapult_stops(state: BlightedReachState, mover_seat: int, group_has_imperial: bool,
                   group_has_loyal: bool, gate: str) -> bool:
    """Does entering `gate` end this Catapult (control as it is just before entering,
    ARCS-153)? The mover's own or nobody's gate never does. An Empire gate stops Outlaws
    only (BR-129); a Regent's gate stops Outlaws and a Rival Regent's Loyal-only group, not
    Imperial-only or mixed groups (BR-130); an Outlaw's gate stops Regent and Imperial ships
    alike (BR-131), and, as in the base game, another Outlaw's ships."""
    _seat(state, mover_seat)
    _system(state, gate)
    if not (group_has_imperial or group_has_loyal):
        raise BadParameter("a moving group holds at least one ship")
    who = controller(state, gate)
    if who is None or who == mover_seat:
        return False
    if who == EMPIRE:  # and for a Regent under Martial Law, whose move the Empire's gates end too
        return group_has_loyal and (is_outlaw(state, mover_seat) or command_barred(state, mover_seat))
    if is_outlaw(state, who):
        return True
    if not group_has_loyal:
        return False
    return is_outlaw(state, mover_seat) or not group_has_imperial


def _check_drops(drops: tuple[tuple[int, int], ...], fresh: int, damaged: int, path_len: int) -> None:
    if len(drops) not in (0, path_len):
        raise BadParameter("Imperial drops give one (fresh, damaged) pair per system of the path")
    for i, (f, d) in enumerate(drops):
        if f < 0 or d < 0 or (i == path_len - 1 and (f, d) != (0, 0)):
            raise BadParameter("drops cannot be negative, and the last system takes every ship still moving")
        fresh, damaged = fresh - f, damaged - d
        if fresh < 0 or damaged < 0:
            raise BadParameter("more Imperial ships dropped than are moving")


def check_imperial_move(state: BlightedReachState, seat: int, move: Move, imperial: ImperialGroup,
                        ignore_presence: bool = False, ignore_movement: bool = False) -> None:
    """The Imperial part of a Regent's move: command at the origin (BR-123..BR-125), the
    ships there, drops that fit, and the Movement Law on every leg (BR-127, BR-128). The
    Loyal part (adjacency, out-of-play systems) stays the base `check_move`'s; the stops
    are `check_catapult_path`'s."""
    if min(imperial.fresh, imperial.damaged) < 0:
        raise BadParameter("ship counts cannot be negative")
    if imperial.total == 0:
        if any(f or d for f, d in imperial.drops):
            raise BadParameter("no Imperial ship moves, so none is dropped")
        return
    check_command(state, seat, move.origin, ignore_presence)
    here = imperial_ships(state, move.origin)
    if imperial.fresh > here.fresh or imperial.damaged > here.damaged:
        raise BadParameter(f"only {here.fresh} fresh and {here.damaged} damaged Imperial ships are in {move.origin}")
    if not move.path:
        raise BadParameter("a move goes to an adjacent system")
    _check_drops(imperial.drops, imperial.fresh, imperial.damaged, len(move.path))
    if not ignore_movement:
        check_movement_law(movement_legs(move, imperial))


def check_catapult_path(state: BlightedReachState, seat: int, move: Move,
                        imperial: ImperialGroup = ImperialGroup()) -> None:
    """The campaign's Catapult: it starts at a Loyal starport or a controlled Free starport
    (BR-177), and every system before the last is a gate whose entry does not end the move
    (`catapult_stops`, for the group as it is on that leg). The base `check_move` stops at
    any gate another seat controls by ships, ignoring the Empire: a campaign hook must use
    this check in its place."""
    if len(move.path) <= 1:
        return
    if not free_states.catapult_origin(state, seat, move.origin):
        raise IllegalAction("moving on past the first system needs a Loyal or a controlled Free starport")
    legs = movement_legs(move, imperial)
    for i, (step, (loyal, imp)) in enumerate(zip(move.path[:-1], legs[:-1])):
        _system(state, step)
        if "." in step:
            raise IllegalAction(f"entering the planet {step} ends the move")
        if free_states.catapult_goes_on(state, seat, move, i):
            continue
        if catapult_stops(state, seat, imp > 0, loyal > 0, step):
            raise IllegalAction(f"entering {step} ends the move")


def _add_imperial(state: BlightedReachState, system: str, fresh: int, damaged: int) -> None:
    here = imperial_ships(state, system)
    now = Pieces(fresh=here.fresh + fresh, damaged=here.damaged + damaged)
    if now.total:
        state.imperial[system] = now
    else:
        state.imperial.pop(system, None)


def apply_imperial_move(state: BlightedReachState, seat: int, move: Move, imperial: ImperialGroup,
                        ignore_presence: bool = False, ignore_movement: bool = False) -> None:
    """Move the Imperial ships along the Loyal move's path (the base `do_move` moves the
    Loyal ones)."""
    check_imperial_move(state, seat, move, imperial, ignore_presence, ignore_movement)
    if imperial.total == 0:
        return
    _add_imperial(state, move.origin, -imperial.fresh, -imperial.damaged)
    fresh, damaged = imperial.fresh, imperial.damaged
    for i, step in enumerate(move.path):
        f, d = imperial.drops[i] if imperial.drops else (0, 0)
        if i == len(move.path) - 1:
            f, d = fresh, damaged
        if f or d:
            _add_imperial(state, step, f, d)
        fresh, damaged = fresh - f, damaged - d


# -- battle sides (BR-135..BR-141, BR-180) -----------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a battle: whose (`who`: a seat, "empire" or "free"), its Loyal ships,
    the Imperial ships fighting with it and the building slots (indexes in the system)
    that defend. The base code's `ships_of(defender)` must not be used for "empire" or
    "free": a negative index would read the last seats' ships."""

    who: Target
    loyal: Ships = field(default_factory=Ships)
    imperial: Pieces = field(default_factory=Pieces)
    buildings: tuple[int, ...] = ()

    @property
    def ships(self) -> int:
        return self.loyal.total + self.imperial.total

    @property
    def fresh_ships(self) -> int:
        """What an intercept deals (ARCS-178): one hit per fresh ship; buildings never."""
        return self.loyal.fresh + self.imperial.fresh


def check_defender(state: BlightedReachState, attacker: int, defender: Target, system: str,
                   ignore_truce: bool = False) -> None:
    """The attacker's choice of defender: a Rival seat with pieces there (ARCS-169), the
    Empire where Imperial ships are, for an Outlaw only (BR-137), or the Free States where
    Free buildings stand (BR-180); and never one the Truce Law shields (BR-133).
    Reading: choosing the Empire is an Outlaw's option whatever Laws a Regent ignores."""
    _seat(state, attacker)
    _system(state, system)
    _target(state, defender)
    if defender == attacker:
        raise BadParameter("nobody battles themselves")
    if defender == "empire":
        if not is_outlaw(state, attacker):
            raise IllegalAction("only an Outlaw may choose the Empire as defender")
        if imperial_ships(state, system).total <= 0:
            raise IllegalAction(f"no Imperial ship is in {system}")
    elif defender == "free":
        if not free_buildings(state, system):
            raise IllegalAction(f"no Free building is in {system}")
    elif not has_loyal_pieces(state, defender, system):
        raise IllegalAction(f"{seat_name(defender)} has no piece in {system}")
    check_harm(state, attacker, defender, system, harm="defend", ignore_truce=ignore_truce)


def defender_options(state: BlightedReachState, attacker: int, system: str, ignore_truce: bool = False) -> list[dict]:
    """Every defender the attacker may choose in `system`: [{"defender": seat | "empire" |
    "free"}]. Whether the attacker may battle there at all (a Loyal ship, ARCS-168) is the
    base check's."""
    candidates: list[Target] = [s for s in range(len(state.players)) if s != attacker]
    out = []
    for defender in [*candidates, "empire", "free"]:
        try:
            check_defender(state, attacker, defender, system, ignore_truce)
        except ActionRejected:
            continue
        out.append({"defender": defender})
    return out


def battle_sides(state: BlightedReachState, attacker: int, defender: Target, system: str,
                 attacking_imperial: Pieces | None = None, ignore_truce: bool = False,
                 ignore_presence: bool = False) -> tuple[Side, Side]:
    """(attacking side, defending side). Every Loyal ship of the attacker attacks
    (ARCS-168); a Regent may add the Imperial ships there (BR-135): `attacking_imperial`,
    its choice, None for all of them. A defending Regent must add them all (BR-136); an
    Outlaw defends alone; the Empire defends with exactly its Imperial ships (BR-138); the
    Free States with every Free building there (BR-180).
    Reading: Imperial ships are never on both sides; when a Regent battles a Regent (only
    possible where the Truce Law is ignored or no Imperial ship is), the defender's duty
    wins and the attacker adds none."""
    check_defender(state, attacker, defender, system, ignore_truce)
    here = state.systems[system]
    present = imperial_ships(state, system)
    defending_regent = isinstance(defender, int) and is_regent(state, defender)
    if attacking_imperial is None:
        attacking_imperial = present if is_regent(state, attacker) and not defending_regent else Pieces()
    if attacking_imperial.total:
        if min(attacking_imperial.fresh, attacking_imperial.damaged) < 0:
            raise BadParameter("ship counts cannot be negative")
        check_command(state, attacker, system, ignore_presence)
        if defending_regent:
            raise IllegalAction("the Imperial ships here defend the Regent you attack")
        if attacking_imperial.fresh > present.fresh or attacking_imperial.damaged > present.damaged:
            raise BadParameter(f"only {present.fresh} fresh and {present.damaged} damaged Imperial ships "
                               f"are in {system}")
    mine = here.ships_of(attacker)
    attacking = Side(who=attacker, loyal=Ships(fresh=mine.fresh, damaged=mine.damaged), imperial=attacking_imperial)
    if defender == "empire":
        defending = Side(who="empire", imperial=present)
    elif defender == "free":
        defending = Side(who="free", buildings=tuple(free_buildings(state, system)))
    else:
        theirs = here.ships_of(defender)
        defending = Side(who=defender, loyal=Ships(fresh=theirs.fresh, damaged=theirs.damaged),
                         imperial=present if defending_regent else Pieces(),
                         buildings=tuple(i for i, b in enumerate(here.buildings) if b.owner == defender))
    return attacking, defending


def building_hits_allowed(state: BlightedReachState, defender: Target, system: str) -> bool:
    """May HITs go on the defending buildings now (ARCS-180: only once no defending ship is
    left)? A defending Regent's ships include the Imperial ships there, so they must all be
    destroyed first (BR-140); the Free States have no ships (BR-180); the Empire has no
    buildings.
    Reading: BR-140's icon is lost in the text; it is read as the HIT, since building hits
    (BHIT) strike buildings whatever ships remain (ARCS-181), which the campaign keeps."""
    _system(state, system)
    _target(state, defender)
    if defender == "empire":
        return False
    if defender == "free":
        return True
    ships = state.systems[system].ships_of(defender).total
    if is_regent(state, defender):
        ships += imperial_ships(state, system).total
    return ships == 0


# -- Trophies (BR-139, BR-179) -----------------------------------------------------------


def trophy_owner_for_outlaw_losses(state: BlightedReachState) -> int | None:
    """BR-139: the Outlaw's pieces destroyed battling the Empire are the First Regent's
    Trophies; with no First Regent, None: they go back to the Outlaw's supply."""
    if state.first_regent >= 0 and is_regent(state, state.first_regent):
        return state.first_regent
    return None


def trophy_taker(state: BlightedReachState, attacker: int, defender: Target,
                 side: Literal["attacking", "defending"]) -> int | None:
    """Who takes as Trophies the pieces destroyed on `side` of this battle (ARCS-187):
    defending pieces go to the attacker, attacking ones to the defending seat, to the First
    Regent when the Empire defends (BR-139), and to nobody when the Free States defend.
    None: the pieces go back to their owner's supply.
    Reading: the Free States keep no Trophies. Imperial ships are Trophies as
    `Trophy(owner=EMPIRE, kind="ship")`."""
    if side == "defending":
        return attacker
    if side != "attacking":
        raise BadParameter(f"{side!r} is not a battle side")
    if defender == "empire":
        return trophy_owner_for_outlaw_losses(state)
    if defender == "free":
        return None
    return defender


def return_campaign_trophy(state: BlightedReachState, trophy: Trophy) -> bool:
    """A returned Trophy of the Empire or the Free States goes to its supply (True); a
    player's piece is the base clean-up's (False). The base `clean_up` indexes players by
    the Trophy's owner, so these two must be taken out before it runs."""
    if trophy.owner == FREE:
        free_states.return_free_building(state, trophy.kind)
        return True
    if trophy.owner == EMPIRE:
        state.imperial_supply += 1
        return True
    if trophy.kind == "banner":  # the Hegemon's Banner (F1003): back to its supply, which is implicit
        return True
    return False
