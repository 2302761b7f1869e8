"""Questions about the campaign table that many rules ask: titles, the Empire's presence,
who controls a system. Pure reads of the state; the rules that change things live in
their own modules (Empire, Crises, Edicts, Intermission...)."""
from __future__ import annotations

from plugins.arcs.control import controller as base_controller
from plugins.blighted_reach.state import FREE, BlightedReachState, Pieces

EMPIRE = -2  # the controller of a system held by the Empire (FREE, -1, owns Free buildings)

# Rules that take the Imperial fleet out of a Regent's hands (the Admiral's Martial Law),
# filled by the Fates' modules: fn(state, seat) -> True when the seat may not command
# Imperial ships, does not control Empire-controlled systems on its turn, nor (as First
# Regent) for ambitions, objectives and events, and stops at Empire gates.
COMMAND_BARRED: list = []


def command_barred(state: BlightedReachState, seat: int) -> bool:
    return any(rule(state, seat) for rule in COMMAND_BARRED)


def is_regent(state: BlightedReachState, seat: int) -> bool:
    return state.titles[seat] == "regent"


def is_outlaw(state: BlightedReachState, seat: int) -> bool:
    return state.titles[seat] == "outlaw"


# Loyal ships that stand in a system outside its `Ships` counts (a seat's Flagship, issue 19),
# filled by the module that keeps them: fn(state, seat, system) -> the seat's fresh ones there.
# Empty answers leave every count as the base rules make it.
EXTRA_FRESH_SHIPS: list = []


def extra_fresh_ships(state: BlightedReachState, seat: int, system: str) -> int:
    return sum(rule(state, seat, system) for rule in EXTRA_FRESH_SHIPS)


def fresh_loyal_ships(state: BlightedReachState, seat: int, system: str) -> int:
    """The seat's fresh Loyal ships in the system, a Flagship standing there included (BR-267)."""
    return state.systems[system].ships_of(seat).fresh + extra_fresh_ships(state, seat, system)


def loyal_controller(state: BlightedReachState, system: str) -> int | None:
    """ARCS-130 over the seats' fresh Loyal ships: strictly the most. With no ship off the
    counts in play (no Flagship there) it is the base count itself."""
    extra = [extra_fresh_ships(state, s, system) for s in range(len(state.players))]
    if not any(extra):
        return base_controller(state.systems[system])
    counts = [state.systems[system].ships_of(s).fresh + n for s, n in enumerate(extra)]
    best = max(counts)
    return None if best == 0 or counts.count(best) > 1 else counts.index(best)


def regents(state: BlightedReachState) -> list[int]:
    return [s for s, t in enumerate(state.titles) if t == "regent"]


def outlaws(state: BlightedReachState) -> list[int]:
    return [s for s, t in enumerate(state.titles) if t == "outlaw"]


def rivals(state: BlightedReachState, seat: int) -> list[int]:
    return [s for s in range(len(state.players)) if s != seat]


def imperial_ships(state: BlightedReachState, system: str) -> Pieces:
    return state.imperial.get(system, Pieces())


def blight(state: BlightedReachState, system: str) -> Pieces:
    return state.blight.get(system, Pieces())


def empire_controls(state: BlightedReachState, system: str) -> bool:
    """BR-120: one fresh Imperial ship is enough, whatever Loyal ships stand there."""
    return imperial_ships(state, system).fresh > 0


# Tokens a Fate makes its holder's Loyal pieces (the Pathfinder's Pilgrims, F908):
# fn(state, seat, system) -> whether the seat has such a token there. Empty: only ships and
# buildings are Loyal pieces.
LOYAL_TOKENS: list = []


# Fate tokens harmed like buildings (the Hegemon's Banners, F1003), for the cards that
# destroy buildings outside battles and give nobody a Trophy (Breaking Worlds, Terror
# Strike): fn(state, system, damaged_only, spare) -> whether it destroyed one there (only a
# damaged one with `damaged_only`; none of `spare`'s own).
BUILDING_TOKENS_DESTROYED: list = []


# ... and for Breaking Worlds, which removes them onto its card (its FAQ: Banners and Bunkers
# are removed and added to the card): (kind, the state field of planet -> its token, the
# state field counting those on the card).
BUILDING_TOKENS_TO_WORLDS: list[tuple[str, str, str]] = []


def tokens_onto_worlds(state: BlightedReachState, system: str) -> list[str]:
    """Breaking Worlds reaching the tokens harmed like buildings on the planet it breaks: each
    leaves the map and is counted on the card; returns the kinds moved."""
    moved = []
    for kind, on_map, on_card in BUILDING_TOKENS_TO_WORLDS:
        tokens = getattr(state, on_map)
        if system in tokens:
            del tokens[system]
            setattr(state, on_card, getattr(state, on_card) + 1)
            moved.append(kind)
    return moved


def destroy_building_tokens(state: BlightedReachState, system: str, damaged_only: bool = False,
                            spare: int | None = None) -> bool:
    """A card's destruction of the buildings in `system` reaching the tokens harmed like them."""
    return any([rule(state, system, damaged_only, spare) for rule in BUILDING_TOKENS_DESTROYED])


def has_loyal_pieces(state: BlightedReachState, seat: int, system: str) -> bool:
    """Ships or buildings of the seat's own colour in the system (or a token a Fate makes Loyal)."""
    here = state.systems[system]
    return (here.ships_of(seat).total > 0 or any(b.owner == seat for b in here.buildings)
            or extra_fresh_ships(state, seat, system) > 0 or any(rule(state, seat, system) for rule in LOYAL_TOKENS))


def controller(state: BlightedReachState, system: str) -> int | None:
    """The Empire (`EMPIRE`) where it controls, else the base game's controller of the
    Loyal ships (a seat, or None)."""
    if empire_controls(state, system):
        return EMPIRE
    return loyal_controller(state, system)


def controls_for_scoring(state: BlightedReachState, seat: int, system: str) -> bool:
    """Control as ambitions, objectives and events count it: the First Regent counts every
    Empire-controlled system as theirs (BR-121)."""
    who = controller(state, system)
    return who == seat or (who == EMPIRE and seat == state.first_regent and is_regent(state, seat)
                           and not command_barred(state, seat))


def controls_on_turn(state: BlightedReachState, seat: int, system: str, ignore_presence: bool = False) -> bool:
    """Control during `seat`'s own turn: a Regent with Loyal pieces in an Empire-controlled
    system controls it (the Presence Law, BR-122); one that ignores the Presence Law
    (BR-125) controls every Empire-controlled system."""
    who = controller(state, system)
    if who == EMPIRE:
        # Reading: ignoring the Presence Law lifts its Loyal-pieces condition for this control
        # as well as for command (Imperial Authority's tax of any Empire city relies on it).
        return (is_regent(state, seat) and not command_barred(state, seat)
                and (ignore_presence or has_loyal_pieces(state, seat, system)))
    return who == seat


def free_buildings(state: BlightedReachState, system: str) -> list[int]:
    """Slot indexes of the Free cities and starports in the system."""
    return [i for i, b in enumerate(state.systems[system].buildings) if b.owner == FREE]


# -- destroyed ships going home ------------------------------------------------------------
# Rules that catch destroyed ships before they return to a supply (the Gate Wraith's The Dead
# Live): fn(state, owner, count) -> True when they took them (owner: a seat, or EMPIRE).
DESTROYED_SHIPS: list = []


def destroyed_ships_home(state: BlightedReachState, owner: int, count: int) -> None:
    """`count` destroyed ships of `owner` (a seat, or EMPIRE) go back to its supply, unless a
    rule in `DESTROYED_SHIPS` takes them elsewhere."""
    if count <= 0:
        return
    if any(rule(state, owner, count) for rule in DESTROYED_SHIPS):
        return
    if owner == EMPIRE:
        state.imperial_supply += count
    else:
        state.players[owner].ships += count
