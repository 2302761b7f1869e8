"""The campaign Court's own When Secured effects, as ops of the base op registry: the base
secure flow (`court_flow.offer` with the secured Vox card) asks for their choices like any
Vox card's, an optional part offering "nothing" among them.

- Song of Freedom (CC14, BR-030): a Loyal or Rival city in a system the securer controls
  becomes a Free city (the city back to its owner's board: replaced, not destroyed, so no
  Outrage); if one was, the securer may also seize the initiative.
- Blight Looms (CC15, F1311's reprint): every damaged Blight of a cluster where the securer
  has Loyal pieces is destroyed, taken as Trophies (`blight.destroy_damaged_blight_in_cluster`).
"""
from __future__ import annotations

from core.errors import BadParameter, IllegalAction
from plugins.arcs.abilities import Env, Use, op
from plugins.arcs.chapter import return_city
from plugins.arcs.control import controls
from plugins.arcs.court_ops import _Choice, _check_can_seize, _seize
from plugins.arcs.state import Building
from plugins.blighted_reach import blight
from plugins.blighted_reach.state import FREE


class FreeCity(_Choice):
    system: str = ""     # "" declines
    building: int = -1   # the city's index in the system's building slots
    seize: bool = False  # then seize the initiative


def _cities_to_free(env: Env, u: Use) -> list[tuple[str, int]]:
    """Player cities (the securer's or a Rival's) in systems the securer controls; none when
    the Free cities have run out (ruling G-3, as for the Crisis)."""
    state = env.state
    if state.free_city_supply <= 0:
        return []
    return [(s, i) for s, here in sorted(state.systems.items()) if controls(state, u.seat, s)
            for i, b in enumerate(here.buildings) if b.kind == "city" and b.owner >= 0]


def _may_seize(env: Env, seat: int) -> bool:
    return env.state.initiative != seat and not env.state.seized


def _song_candidates(env: Env, u: Use) -> list[dict]:
    out: list[dict] = [{}]
    for system, i in _cities_to_free(env, u):
        out.append({"system": system, "building": i})
        if _may_seize(env, u.seat):
            out.append({"system": system, "building": i, "seize": True})
    return out


@op("free_city_then_seize", params=FreeCity, candidates=_song_candidates)
def song_of_freedom(env: Env, u: Use, choice: FreeCity) -> None:
    """Song of Freedom (CC14) when secured (BR-030)."""
    if not choice.system:
        if choice.seize:
            raise IllegalAction("the initiative is seized only after freeing a city")
        return
    if (choice.system, choice.building) not in _cities_to_free(env, u):
        raise BadParameter(f"no player city {choice.building} in {choice.system!r} under your control to free")
    if choice.seize:
        _check_can_seize(env.state, u.seat)
    here = env.state.systems[choice.system]
    old = here.buildings[choice.building]
    here.buildings[choice.building] = Building(kind="city", owner=FREE, damaged=old.damaged)
    env.state.free_city_supply -= 1
    return_city(env.box, env.state, old.owner)
    env.emit("city_freed", seat=u.seat, card=u.card, system=choice.system, owner=old.owner)
    if choice.seize:
        _seize(env, u.seat)


class InCluster(_Choice):
    cluster: int = 0  # 0 declines


@op("destroy_damaged_blight_in_cluster", params=InCluster,
    candidates=lambda env, u: blight.options_destroy_damaged_blight(env.box, env.state, u.seat))
def blight_looms(env: Env, u: Use, choice: InCluster) -> None:
    """Blight Looms (CC15) when secured: the damaged Blight of one cluster, or none."""
    taken = blight.destroy_damaged_blight_in_cluster(env.box, env.state, u.seat, choice.cluster or None)
    if choice.cluster:
        env.emit("blight_destroyed", seat=u.seat, card=u.card, cluster=choice.cluster, destroyed=taken)
