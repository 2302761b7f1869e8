"""The Survivalist (FATE18, a C Fate: Act III only): its Fate Set's rules that the card data
cannot say.

- F1801 Setup side: Resettle (`fate_c`), gain Vow of Survival (Lore) and Building Bunkers
  (an ability card, in the play area) with its 9 Bunker tokens (`state.bunker_supply`),
  Bunkers and Captive Release into the booklet. Objective side, the final objective: "Keep
  the People Safe", per ambition won, 1 space per Captive or per Bunker on the map, the
  lower (`COUNT_RULES["captive_or_bunker_fewer"]`); "Protect Against the Blight", 1 space
  per Blight Crisis in a planet holding a Bunker (`blight.AFTER_CRISIS`).
- F1802 Vow of Survival (Lore): its holder never declares Tyrant (`fate_c.IRE`); an
  ambition it wins gains it only the second place's Power (`vow_gains`, through the
  campaign's `arcs_ambition_gains`); when Tyrant is scored it keeps 1 Captive per Bunker on
  the map, chosen after scoring (`chapter.CAPTIVES_KEPT`).
- F1803 Building Bunkers (ability): Bunkers are the holder's Loyal pieces
  (`board.LOYAL_TOKENS`); Build Bunker, a Build: one a planet, where a city could be
  built (a Loyal piece there, or commanded Imperial ships), damaged where another controls,
  an agent of the supply scrapped and one of a Rival's supply captured. A Bunker is harmed
  like a building: building hits (and the hits the defending ships leave) may land on it,
  2 to damage it and 2 more to destroy it, never raided (it does not open raid dice), a
  destroyed one the attacker's Trophy, which then scraps one of the Survivalist's Captives.
- F1804 Bunkers (law): the same rules, told to everyone.
- F1805 Captive Release (Edict): in turn order, each player with more Power than the
  Survivalist whose agents are among its Captives may name a Bunker in a system it
  controls; the Survivalist returns all those Captives or Provokes Outrage of that planet's
  type.

Readings:
- Build Bunker needs an agent in the supply to scrap ("you must also scrap"); the capture
  is mandatory when some Rival has an agent in its supply.
- A damaged Bunker may be repaired with a Repair, as a building is (Repair Bunker).
- The 2 hits of a Bunker's step land together: an odd hit is lost unless a building takes it.
- A destroyed Bunker goes to the attacker's Trophies (as buildings do) and back to the
  Survivalist's supply when Warlord is scored; the attacker chooses which Captive to scrap.
- Captive Release: a player "controls" a Bunker where it controls its system (the Empire's
  systems are no seat's); a chooser may decline.
- Vow of Survival's second-place Power is the second-place sum alone, without the city bonus.
"""
from __future__ import annotations

from itertools import combinations

import msgspec

from core.errors import BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.state import Action
from plugins.arcs import chapter, scoring
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.battle_flow import BuildingSplit, apply_buildings, building_splits, resolve
from plugins.arcs.content import box_for
from plugins.arcs.outrage import agent_returns, provoke_outrage
from plugins.arcs.scoring import PHANTOM, marker_values
from plugins.arcs.state import Trophy
from plugins.blighted_reach import blight as bl
from plugins.blighted_reach import board, empire, fates, objectives, ship_captives
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.fate_c import IRE, is_campaign
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import decisions, steps

SURVIVALIST = "FATE18"
VOW = "F1802"
BUILDING_BUNKERS = "F1803"
BUNKER_TOKENS = 9
STEP = 2  # hits one step of harm on a Bunker takes (Tough)
TYRANT = "tyrant"

IRE[VOW] = (TYRANT, ())  # never declares Tyrant; taxes as usual
standing("second_place_power_for_wins", "keep_captives_per_bunker", "bunkers_are_loyal_pieces",
         "bunkers_tough_and_unraidable")


# Breaking Worlds removes the Bunker of the planet it breaks onto its card (its FAQ).
board.BUILDING_TOKENS_TO_WORLDS.append(("bunker", "bunkers", "bunkers_on_worlds"))


def bunker_owner(state) -> int:
    """The seat holding Building Bunkers (the Bunkers' owner), -1 when nobody does."""
    if not is_campaign(state):
        return -1
    return next((s for s, area in enumerate(state.play_area) if BUILDING_BUNKERS in area), -1)


def bunkers_on_map(state) -> int:
    return len(state.bunkers) if is_campaign(state) else 0


def vow_holder(state) -> int:
    return next((s for s, p in enumerate(state.players) if VOW in p.lore), -1) if is_campaign(state) else -1


def _laws(state, seat: int) -> frozenset[str]:
    return empire.laws_ignored(campaign_box(), state, seat)


# -- F1801 setup and the final objective ------------------------------------------------------
@fates.handler("collect_bunker_tokens")
def collect_bunker_tokens(ctx, seat: int, card_id: str, effect) -> None:
    ctx.state.bunker_supply = BUNKER_TOKENS
    ctx.emit("bunkers_collected", seat=seat, bunkers=BUNKER_TOKENS, why=card_id)


def safe_people(box, cbox, state, seat, score=None, ambition="") -> int:
    """Keep the People Safe: the Captives (agents, and ships taken by Pacify, F1012) or the
    Bunkers on the map, whichever is lower."""
    return min(ship_captives.count(state, seat), bunkers_on_map(state))


objectives.COUNT_RULES["captive_or_bunker_fewer"] = safe_people


def crisis_at_bunker(state, result: dict) -> None:
    """`blight.AFTER_CRISIS`: a Blight Crisis in a planet with a Bunker advances the
    Survivalist (Protect Against the Blight)."""
    owner = bunker_owner(state)
    if owner < 0 or result.get("system") not in state.bunkers:
        return
    objectives.advance_on_event(box_for(state), campaign_box(), state, "blight_crisis_at_bunker", 1, seat=owner)


bl.AFTER_CRISIS.append(crisis_at_bunker)


# -- F1803 Bunkers on the map: Loyal pieces, Build Bunker, Repair Bunker --------------------------
board.LOYAL_TOKENS.append(lambda state, seat, system: system in state.bunkers and bunker_owner(state) == seat)


class BunkerBuild(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    system: str
    capture: int = -1  # the Rival whose supply gives an agent to the Captives; -1 when none has one


def bunker_sites(env: Env, seat: int) -> list[str]:
    """Planets the seat may build a Bunker on now: none holding one, a city's conditions
    (a Loyal piece there or commanded Imperial ships), a token and an agent to scrap."""
    state = env.state
    if bunker_owner(state) != seat or state.bunker_supply <= 0 or state.players[seat].agents <= 0:
        return []
    presence = "presence" in _laws(state, seat)
    return [p for p in sorted(state.systems) if env.box.systems.get(p) is not None and p not in state.bunkers
            and empire.may_build_building_at(state, seat, p, presence)]


def capturable(state, seat: int) -> list[int]:
    return [r for r in board.rivals(state, seat) if state.players[r].agents > 0]


def _build_candidates(env: Env, u: Use) -> list[dict]:
    captures = capturable(env.state, u.seat) or [-1]
    return [{"system": s, "capture": r} for s in bunker_sites(env, u.seat) for r in captures]


@op("build_bunker", params=BunkerBuild, candidates=_build_candidates,
    usable=lambda env, u: bool(bunker_sites(env, u.seat)))
def build_bunker(env: Env, u: Use, choice: BunkerBuild) -> None:
    """Build Bunker: the token on the planet (damaged where another controls, ARCS-146 with
    the Empire), one agent of the supply scrapped, one of the named Rival's captured."""
    state, seat = env.state, u.seat
    if choice.system not in bunker_sites(env, seat):
        raise IllegalAction(f"you cannot build a Bunker in {choice.system!r} now")
    captures = capturable(state, seat)
    if (choice.capture not in captures) if captures else choice.capture != -1:
        raise BadParameter(f"capture an agent from one of {captures}" if captures else "no Rival has an agent to capture")
    damaged = empire.builds_damaged(state, seat, choice.system, "presence" in _laws(state, seat))
    state.bunker_supply -= 1
    state.bunkers[choice.system] = damaged
    state.players[seat].agents -= 1
    state.scrapped_agents.append(seat)
    if choice.capture >= 0:
        state.players[choice.capture].agents -= 1
        state.players[seat].captives.append(choice.capture)
    env.emit("bunker_built", seat=seat, card=u.card, system=choice.system, damaged=damaged, captured=choice.capture)


class AtPlanet(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    system: str


def damaged_bunkers(state, seat: int) -> list[str]:
    return sorted(p for p, damaged in state.bunkers.items() if damaged) if bunker_owner(state) == seat else []


@op("repair_bunker", params=AtPlanet,
    candidates=lambda env, u: [{"system": p} for p in damaged_bunkers(env.state, u.seat)],
    usable=lambda env, u: bool(damaged_bunkers(env.state, u.seat)))
def repair_bunker(env: Env, u: Use, choice: AtPlanet) -> None:
    """Repair Bunker (reading: a Bunker is repaired as a building is)."""
    if choice.system not in damaged_bunkers(env.state, u.seat):
        raise IllegalAction(f"no damaged Bunker of yours in {choice.system!r}")
    env.state.bunkers[choice.system] = False
    env.emit("bunker_repaired", seat=u.seat, card=u.card, system=choice.system)


# -- Bunkers in battle: harmed like buildings, Tough -------------------------------------------------
class BunkerSplit(msgspec.Struct, forbid_unknown_fields=True):
    """Building hits where the defender has a Bunker: `bunker` hits on it (0, 2 or 4: a step
    takes 2), the rest on the defending buildings by index (as `BuildingSplit`)."""

    bunker: int = 0
    buildings: dict[str, int] = {}


def _bunker_steps(damaged: bool) -> list[int]:
    return [0, STEP] if damaged else [0, STEP, 2 * STEP]


def bunker_splits(state, hits: int):
    """Every split the rules accept: as many hits land as can (ARCS-186), the Bunker's in
    whole steps, the buildings' as the base rules split them."""
    b = state.battle
    buildings = state.systems[b.system].buildings
    room = sum(1 if x.damaged else 2 for x in buildings if x.owner == b.defender)
    steps_ = [s for s in _bunker_steps(state.bunkers[b.system]) if s <= hits]
    need = max(s + min(hits - s, room) for s in steps_)
    for s in steps_:
        if s + min(hits - s, room) == need:
            for split in building_splits(buildings, b.defender, hits - s):
                yield BunkerSplit(bunker=s, buildings=split)


def check_bunker_split(state, hits: int, split: BunkerSplit) -> None:
    if split not in list(bunker_splits(state, hits)):
        raise BadParameter(f"{hits} hit(s): as many as can land must, a Bunker's 2 at a time")


def bunker_in_battle(state) -> bool:
    """Building hits are due on a defender with a Bunker in the battle system (its Flagship
    board, if it stands there with pieces, takes them first: BR-288)."""
    from plugins.flagships.battle import board_in_battle

    b = getattr(state, "battle", None)
    if not isinstance(state, BlightedReachState) or b is None or not b.building_hit:
        return False
    if b.self_hit or b.intercept or b.hit or b.defender < 0 or b.defender != bunker_owner(state):
        return False
    return b.system in state.bunkers and board_in_battle(state, b.defender) is None


@hookimpl(specname="arcs_battle_resolve", tryfirst=True)
def bunker_battle_resolve(ctx):
    """Building hits with a Bunker there: the attacker's split (one answer applied at once)."""
    state = ctx.state
    if not bunker_in_battle(state):
        return None
    hits, state.battle.building_hit = state.battle.building_hit, 0
    options = list(bunker_splits(state, hits))
    if len(options) == 1:
        apply_bunker_split(ctx, hits, options[0])
    else:
        ctx.decide(state.battle.attacker, "br.bunker_hits", resume=bunker_hits_done, hits=hits)
    return True


@decisions.kind("bunker_hits", answer="assign_bunker_hits", params=BunkerSplit,
                describe="Split the building hits over the defending Bunker (2 a step) and buildings.")
def check_bunker_hits(state, seat, prompt, answer: BunkerSplit):
    check_bunker_split(state, prompt.args["hits"], answer)


@check_bunker_hits.candidates
def _bunker_hit_options(state, seat, prompt):
    for split in bunker_splits(state, prompt.args["hits"]):
        yield msgspec.to_builtins(split)


@steps("survivalist_bunker_hits_done")
def bunker_hits_done(ctx, seat, params: BunkerSplit, hits: int):
    apply_bunker_split(ctx, hits, params)


def apply_bunker_split(ctx, hits: int, split: BunkerSplit) -> None:
    """The buildings' part by the base rules (Trophies, each city's Outrage and Ransack to
    come), then the Bunker's; a destroyed Bunker scraps a Captive of the Survivalist."""
    state = ctx.state
    check_bunker_split(state, hits, split)
    b = state.battle
    if split.buildings:
        apply_buildings(ctx, BuildingSplit(hits=dict(split.buildings)))
    ctx.push(resolve)
    if not split.bunker:
        return
    damaged = state.bunkers[b.system]
    if not damaged and split.bunker == STEP:
        state.bunkers[b.system] = True
        ctx.emit("bunker_hit", system=b.system, owner=b.defender, destroyed=False)
        return
    del state.bunkers[b.system]
    state.players[b.attacker].trophies.append(Trophy(owner=b.defender, kind="bunker"))
    ctx.emit("bunker_hit", system=b.system, owner=b.defender, destroyed=True)
    bunker_destroyed(ctx, b.attacker, b.defender)


def bunker_destroyed(ctx, destroyer: int, owner: int) -> None:
    """A Rival destroyed a Bunker: it scraps one of the Survivalist's Captives (its choice of
    which, when they are of several owners or kinds: agents, and ships taken by Pacify)."""
    choices = _scrap_choices(ctx.state, owner)
    if destroyer == owner or not choices:
        return
    if len(choices) == 1:
        scrap_captive(ctx, owner, choices[0]["owner"], destroyer, bool(choices[0].get("ship")))
        return
    ctx.ask(destroyer, "scrap_captive", [Action("scrap_captive", c) for c in choices],
            resume=captive_chosen, survivalist=owner)


def _scrap_choices(state, owner: int) -> list[dict]:
    return ([{"owner": k} for k in sorted(set(state.players[owner].captives))]
            + [{"owner": k, "ship": True} for k in sorted(set(ship_captives.held(state, owner)))])


@steps("survivalist_captive_chosen")
def captive_chosen(ctx, seat, params, survivalist: int):
    scrap_captive(ctx, survivalist, int(params["owner"]), seat, bool(params.get("ship")))


def scrap_captive(ctx, survivalist: int, captive: int, by: int, ship: bool = False) -> None:
    """The Captive leaves the campaign: an agent to the scrapped agents, a ship Captive
    (F1012) to the scrapped ships (the Empire's too)."""
    state = ctx.state
    if ship:
        ship_captives.take(state, survivalist, captive)
        state.scrapped_ships.append(captive)
    else:
        state.players[survivalist].captives.remove(captive)
        state.scrapped_agents.append(captive)
    ctx.emit("captive_scrapped", seat=survivalist, owner=captive, by=by, **({"ship": True} if ship else {}))


@hookimpl(specname="arcs_chapter_clean_up")
def bunker_trophies_home(ctx, scored: list) -> None:
    """Warlord scored: Bunker Trophies go back to the Survivalist's supply (before the base
    clean-up, which knows no Bunker)."""
    state = ctx.state
    if "warlord" not in scored or not is_campaign(state):
        return
    for player in state.players:
        back = [t for t in player.trophies if t.kind == "bunker"]
        if back:
            player.trophies = [t for t in player.trophies if t.kind != "bunker"]
            state.bunker_supply += len(back)


def bunker_problems(state) -> list[str]:
    """Every Bunker token is on the map, a Trophy or in the supply: 9 once collected."""
    trophies = sum(t.kind == "bunker" for p in state.players for t in p.trophies)
    total = len(state.bunkers) + trophies + state.bunker_supply + state.bunkers_on_worlds
    out = []
    if total not in (0, BUNKER_TOKENS):
        out.append(f"{total} Bunker tokens in play, not {BUNKER_TOKENS}")
    if any(p not in state.systems for p in state.bunkers):
        out.append("a Bunker stands outside the map")
    return out


# -- F1802 Vow of Survival ---------------------------------------------------------------------
def vow_gains(state, ambition: str, gains: dict[int, int]) -> dict[int, int] | None:
    """`arcs_ambition_gains`: the Vow's holder winning the ambition gains the second place's
    Power only (no first place, no city bonus)."""
    seat = vow_holder(state)
    markers = state.ambition_boxes.get(ambition) if seat >= 0 else None
    if not markers:
        return None
    box = box_for(state)
    counts = {s: scoring.ambition_count(box, state, p, ambition) for s, p in enumerate(state.players)}
    phantom = state.ambition_tokens.get(ambition)
    if len(state.players) == 2 and phantom is not None:
        counts[PHANTOM] = len(phantom)
    if objectives.sole_first(counts) != seat:
        return None
    return {**gains, seat: marker_values(box, markers)[1]}


def keep_count(state, seat: int) -> int:
    return bunkers_on_map(state) if seat == vow_holder(state) else 0


def _kept_tokens(state, seat: int) -> list[tuple[str, int]] | None:
    """The Captives (kind, owner) the Vow's holder keeps: 1 per Bunker on the map, those it
    chose (all of them when it has no more); None for a seat the Vow keeps nothing for."""
    n = keep_count(state, seat)
    if n <= 0:
        return None
    held = ship_captives.tokens(state, seat)
    if len(held) <= n:
        return held
    return [("agent", o) for o in state.captives_kept] + [("ship", o) for o in state.ship_captives_kept]


def kept_captives(state, seat: int) -> list[int] | None:
    """`chapter.CAPTIVES_KEPT`: the owners of the agent Captives the Vow's holder keeps."""
    kept = _kept_tokens(state, seat)
    return None if kept is None else [o for kind, o in kept if kind == "agent"]


def kept_ship_captives(state, seat: int) -> list[int] | None:
    """`ship_captives.KEPT`: the owners of the ship Captives (F1012) the Vow's holder keeps."""
    kept = _kept_tokens(state, seat)
    return None if kept is None else [o for kind, o in kept if kind == "ship"]


chapter.CAPTIVES_KEPT.append(kept_captives)
ship_captives.KEPT.append(kept_ship_captives)


def keep_choices(state, seat: int, n: int) -> list[dict]:
    """The different sets of `n` Captives one may keep: {"owners": agents' owners} and, when
    the seat holds ship Captives, "ships": the ships' owners."""
    out = []
    with_ships = bool(ship_captives.held(state, seat))
    for combo in sorted(set(combinations(sorted(ship_captives.tokens(state, seat)), n))):
        choice = {"owners": [o for kind, o in combo if kind == "agent"]}
        if with_ships:
            choice["ships"] = [o for kind, o in combo if kind == "ship"]
        out.append(choice)
    return out


@hookimpl(specname="arcs_chapter_scored")
def vow_keep_question(ctx) -> None:
    """Tyrant declared and more Captives than Bunkers: the Survivalist chooses now (before
    the clean-up) which it keeps."""
    state = ctx.state
    seat = vow_holder(state)
    if seat < 0 or not state.ambition_boxes.get(TYRANT):
        return
    n = keep_count(state, seat)
    state.captives_kept, state.ship_captives_kept = [], []
    if 0 < n < ship_captives.count(state, seat):
        ctx.push(ask_keep, seat=seat)


@steps("survivalist_ask_keep")
def ask_keep(ctx, seat: int):
    state = ctx.state
    options = [Action("keep_captives", c) for c in keep_choices(state, seat, keep_count(state, seat))]
    ctx.ask(seat, "keep_captives", options, resume=captives_chosen)


@steps("survivalist_captives_kept")
def captives_chosen(ctx, seat, params):
    ctx.state.captives_kept = list(params["owners"])
    ctx.state.ship_captives_kept = list(params.get("ships", []))
    ctx.emit("captives_kept", seat=seat, owners=list(params["owners"]),
             **({"ships": list(params["ships"])} if "ships" in params else {}))


# -- F1805 Captive Release -----------------------------------------------------------------------
@fates.handler("captive_release")
def captive_release(ctx, seat: int, card_id: str, effect) -> None:
    """In turn order from the initiative, each player with more Power than the Survivalist."""
    state = ctx.state
    owner = bunker_owner(state)
    if owner < 0:
        ctx.emit("edict_lapsed", card=card_id, why="no Survivalist")
        return
    order = [s for s in objectives.turn_order(state) if s != owner]
    ctx.push(release_next, order=order, survivalist=owner, card=card_id)


def release_bunkers(state, seat: int, survivalist: int) -> list[str]:
    """The Bunkers the player may name: its agents among the Survivalist's Captives, more
    Power than the Survivalist, the Bunker's system under its control."""
    if seat not in state.players[survivalist].captives and seat not in ship_captives.held(state, survivalist):
        return []
    if state.players[seat].power <= state.players[survivalist].power:
        return []
    return sorted(p for p in state.bunkers if board.controller(state, p) == seat)


@steps("survivalist_release_next")
def release_next(ctx, order: list, survivalist: int, card: str):
    state = ctx.state
    while order:
        seat, order = order[0], order[1:]
        sites = release_bunkers(state, seat, survivalist)
        if sites:
            ctx.push(release_next, order=order, survivalist=survivalist, card=card)
            options = [Action("captive_release", {"system": ""})] + [
                Action("captive_release", {"system": p}) for p in sites]
            ctx.ask(seat, "captive_release", options, resume=release_named, survivalist=survivalist, card=card)
            return


@steps("survivalist_release_named")
def release_named(ctx, seat, params, survivalist: int, card: str):
    system = params["system"]
    if not system:
        return
    ctx.emit("captive_release_named", seat=seat, system=system, card=card)
    options = [Action("release_or_outrage", {"choice": "release"}), Action("release_or_outrage", {"choice": "outrage"})]
    ctx.ask(survivalist, "release_or_outrage", options, resume=release_answered, releaser=seat, system=system)


@steps("survivalist_release_answered")
def release_answered(ctx, seat, params, releaser: int, system: str):
    """All of the releaser's agents among the Captives go home, or Outrage of the planet's type."""
    state = ctx.state
    if params["choice"] == "release":
        n = state.players[seat].captives.count(releaser)
        state.players[seat].captives = [c for c in state.players[seat].captives if c != releaser]
        agent_returns(state, releaser, n)
        ships = ship_captives.held(state, seat).count(releaser)  # its ships taken by Pacify (F1012) too
        for _ in range(ships):
            ship_captives.hand_over(state, seat, releaser, releaser)
        ctx.emit("captives_released", seat=seat, owner=releaser, count=n, **({"ships": ships} if ships else {}))
        return
    kind = box_for(state).systems[system].type
    provoke_outrage(box_for(state), state, seat, kind)
    ctx.emit("outrage_provoked", seat=seat, resources=[kind], why="F1805")
