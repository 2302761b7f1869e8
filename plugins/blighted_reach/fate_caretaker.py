"""The Caretaker (FATE05, cards F501-F521): the four Golems and the cards that find, wake,
spend and silence them.

A Golem is a token with a Sleeping side (no type shown) and an Awake side (its type:
warrior, protector, seeker or harvester). Each is in exactly one place
(`BlightedReachState.golems`): at a system on the map, on the Golem Hearth of the seat
holding it, among a seat's resources ("held"), or scrapped. The types of Sleeping Golems
are secret: views show them through `golem_view`.

Reading (Golems among resources): a Golem a player holds outside the Golem Hearth is kept
beside their resource row, not in one of its slots, so the base resource rules stay about
resources; where the card text asks for an empty resource slot (a spent Golem goes to a
Rival's empty slot), the held Golems are counted as filling slots.
"""
from __future__ import annotations

from core import chance
from plugins.blighted_reach import fates
from plugins.blighted_reach.state import BlightedReachState, Golem

GOLEMS = ("warrior", "protector", "seeker", "harvester")
HEARTH = "F503"   # Golem Hearth: holds any number of Golems
BEACON = "F502"   # Golem Beacon: Awaken (Influence)
SPEAKERS = "F504"  # Stone-Speakers
CARETAKER = "FATE05"


# -- places ------------------------------------------------------------------------------------
def on_map(system: str) -> str:
    return f"map:{system}"


def on_hearth(seat: int) -> str:
    return f"hearth:{seat}"


def held_by(seat: int) -> str:
    return f"held:{seat}"


SCRAPPED = "scrapped"


def seat_of(place: str) -> int:
    """The seat holding a Golem at `place` (Hearth or resources), -1 for the map or the scrap."""
    kind, _, rest = place.partition(":")
    return int(rest) if kind in ("hearth", "held") else -1


def system_of(place: str) -> str:
    kind, _, rest = place.partition(":")
    return rest if kind == "map" else ""


def golems_of(state: BlightedReachState, seat: int) -> list[str]:
    """The Golems `seat` has (on its Hearth or among its resources), in the types' order."""
    return [g for g in GOLEMS if g in state.golems and seat_of(state.golems[g].place) == seat]


def in_play(state: BlightedReachState) -> list[str]:
    """The Golems not scrapped (on the map or held)."""
    return [g for g in GOLEMS if g in state.golems and state.golems[g].place != SCRAPPED]


# -- Act I setup (F501) --------------------------------------------------------------------------
def gates_without_imperial_ships(box, state: BlightedReachState) -> list[str]:
    """The gate of each cluster where no Imperial ship stands, in cluster order."""
    imperial = {box.cluster_of(s) for s, p in state.imperial.items() if p.total}
    return [c.gate for c in box.map.clusters if c.id not in imperial]


@fates.handler("sleeping_golems_on_non_imperial_gates")
def place_sleeping_golems(ctx, seat: int, card_id: str, effect) -> None:
    """F501: the four Golem tokens shuffled face down, one Sleeping at the gate of each
    cluster without Imperial ships (four in Act I: two of six clusters are the Empire's).
    Reading: were there fewer such gates, the Golems left over stay off the map, scrapped;
    were there more, the first gates in cluster order get one each."""
    from plugins.arcs.content import box_for

    state: BlightedReachState = ctx.state
    tokens = list(GOLEMS)
    chance.shuffle(ctx, tokens, "Sleeping Golems")
    gates = gates_without_imperial_ships(box_for(state), state)
    places = {golem: on_map(gates[i]) if i < len(gates) else SCRAPPED for i, golem in enumerate(tokens)}
    state.golems = {golem: Golem(place=places[golem]) for golem in GOLEMS}  # kept in type order
    ctx.emit("golems_placed", seat=seat, card=card_id, gates=gates[:len(tokens)])


# -- views and invariants ------------------------------------------------------------------------
def golem_view(state: BlightedReachState, viewer: int | None) -> list[dict]:
    """Every Golem as `viewer` may see it: place and side always; the type once Awake, or
    to the seat holding it (a Sleeping Golem on the map shows no type to anyone)."""
    out = []
    for golem in GOLEMS:
        if golem not in state.golems:
            continue
        g = state.golems[golem]
        shown = g.awake or (viewer is not None and seat_of(g.place) == viewer)
        out.append({"place": g.place, "awake": g.awake, "type": golem if shown else ""})
    # Sleeping Golems on the map are listed by place only, in the map's order, so the list's
    # order does not give their types away.
    return sorted(out, key=lambda d: (d["type"] == "", d["place"], d["type"]))


def golem_problems(box, state: BlightedReachState) -> list[str]:
    """Each Golem in exactly one known place: all four once placed, on a real system or with a
    real seat, on a Golem Hearth only if that seat holds one."""
    out: list[str] = []
    if not state.golems:
        return out
    if sorted(state.golems) != sorted(GOLEMS):
        out.append(f"the Golems are not the four: {sorted(state.golems)}")
    n = len(state.players)
    for golem, g in state.golems.items():
        kind, _, rest = g.place.partition(":")
        if kind == "map":
            if rest not in state.systems:
                out.append(f"the {golem} Golem is at {rest!r}, not a system")
        elif kind in ("hearth", "held"):
            if not rest.isdigit() or int(rest) >= n:
                out.append(f"the {golem} Golem is with no seat ({g.place!r})")
            elif kind == "hearth" and HEARTH not in state.players[int(rest)].lore:
                out.append(f"the {golem} Golem is on the Golem Hearth of a seat without it")
        elif g.place != SCRAPPED:
            out.append(f"the {golem} Golem is nowhere known ({g.place!r})")
    return out
