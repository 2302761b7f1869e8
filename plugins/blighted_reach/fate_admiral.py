"""The Admiral (Fate 07, cards F701-F721): the rules its cards name that the data cannot
say.

Act I
- F701 (setup): data: Imperial Officers, the Use Imperial Foundries Edict into the
  booklet, the First Regent tile unless the Steward is in play. Its objective's events:
  each Imperial ship anyone places (`imperial_ships_placed`, called by the rules placing
  them: Foundries, Requisition Ships, Rogue Admirals, Govern with Authority's Escalation),
  each Trophy taken in a battle with Imperial ships attacking (`_watch`, around every step).
- F702 Imperial Officers: ignores the Presence and Movement Laws (`ignore_laws`, read by
  `empire.laws_ignored`); buried while its holder is an Outlaw (`fate_steward.burying`).
- F703 Use Imperial Foundries (Edict handler `imperial_foundries`): whoever holds Imperial
  Officers may, for each of their starports, replace one of their ships in its system with
  an Imperial ship (steps `foundries_*`).
- F704 (Resolution): data.
Act II
- F705 Honor Guard: keeps Weapon Guild cards from thieves (`outrage.GUILD_GUARDS`).
- F706/F707 Rogue Admirals: all three Laws ignored; the Prelude's `place_imperial_ships`.
- F708/F709 (BC14's reprint): the base ops.
- F710/F711 (and F715/F716, the Steward's F118/F119) Imperial Defectors: the Crisis
  (`defect_rolled_cluster`) and the two secured choices.
- F712 (setup), F714 (Resolution): data; the Act II objective's events (Outlaws' pieces as
  Trophies in battle, Regents' agents captured) counted by `_watch`.
- F713 Command Chaos: the Crisis' attachment and Rogue Admirals' return; `influence_once`,
  `may_become_regent` when secured.
- F717/F718 Mass Uprising (BC26's reprint): its own Crisis, `destroy_every_damaged_ship`.
Act III
- F719 (setup): Martial Law to the booklet, its reminder (F721) under the map (the
  shared `tuck_reminder_under_map` handler of `fates`).
- F720 Martial Law: `board.COMMAND_BARRED` (command, control on a turn and for scoring,
  Catapult stops) for every Regent but the Admiral without Imperial Officers or Rogue
  Admirals. The grand ambitions are the objectives module's.
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from core.seats import seat_name
from core.state import Action
from plugins.arcs.abilities import Env, Use, modifiers, op, standing
from plugins.arcs.content import box_for
from plugins.arcs.outrage import GUILD_GUARDS
from plugins.blighted_reach import board, fates, objectives
from plugins.blighted_reach.board import COMMAND_BARRED, controls_on_turn, imperial_ships, is_outlaw
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.empire import laws_ignored
from plugins.blighted_reach.setup import cluster_systems
from plugins.blighted_reach.state import BlightedReachState, Pieces
from plugins.blighted_reach.tables import steps
from plugins.blighted_reach.trust import held_resources

IMPERIAL_OFFICERS = "F702"


# -- the objective's event advances (BR-093) ------------------------------------------------


def imperial_ships_placed(state: BlightedReachState, count: int) -> dict[int, int]:
    """`count` Imperial ships were placed on the map by anyone: every objective counting
    them advances (the Admiral's, while a Regent winning an ambition). Returns the spaces
    moved per seat; nothing while the objective markers are not on the track."""
    if count <= 0 or len(state.objective_markers) != len(state.players):
        return {}
    return objectives.advance_on_event(box_for(state), campaign_box(), state, "imperial_ship_placed", count)


# -- F703 Use Imperial Foundries --------------------------------------------------------------


def officers_holder(state: BlightedReachState) -> int:
    """The seat holding Imperial Officers among its Guild cards, -1 for nobody."""
    return next((s for s, p in enumerate(state.players) if IMPERIAL_OFFICERS in p.guild), -1)


def loyal_starports(state: BlightedReachState, seat: int) -> list[list]:
    """[system, building] of each of the seat's starports on the map, in system order."""
    return [[s, i] for s in sorted(state.systems) for i, b in enumerate(state.systems[s].buildings)
            if b.owner == seat and b.kind == "starport"]


def foundry_options(state: BlightedReachState, seat: int, system: str) -> list[dict]:
    """For one starport in `system`: replace a fresh or a damaged Loyal ship there, or not.
    # Reading: the Imperial ship takes the side of the ship it replaces (a damaged ship
    # becomes a damaged Imperial ship); the Loyal ship returns to its owner's supply."""
    ships = state.systems[system].ships_of(seat)
    out: list[dict] = [{"replace": ""}]
    if state.imperial_supply > 0:
        out += [{"replace": side} for side, n in (("fresh", ships.fresh), ("damaged", ships.damaged)) if n > 0]
    return out


def check_foundry(state: BlightedReachState, seat: int, system: str, replace: str) -> None:
    if replace not in ("", "fresh", "damaged"):
        raise BadParameter(f"replace a 'fresh' or 'damaged' ship, or '' for none, not {replace!r}")
    if {"replace": replace} not in foundry_options(state, seat, system):
        raise IllegalAction(f"no {replace} Loyal ship of {seat_name(seat)} in {system} to replace with an Imperial ship")


def apply_foundry(state: BlightedReachState, seat: int, system: str, replace: str) -> bool:
    """One replacement (or none). Returns whether an Imperial ship was placed."""
    check_foundry(state, seat, system, replace)
    if not replace:
        return False
    here = state.systems[system].ships_of(seat)
    there = imperial_ships(state, system)
    if replace == "fresh":
        here.fresh -= 1
        state.imperial[system] = Pieces(fresh=there.fresh + 1, damaged=there.damaged)
    else:
        here.damaged -= 1
        state.imperial[system] = Pieces(fresh=there.fresh, damaged=there.damaged + 1)
    state.players[seat].ships += 1
    state.imperial_supply -= 1
    return True


@fates.handler("imperial_foundries")
def imperial_foundries(ctx, seat: int, card_id: str, effect) -> None:
    """The Edict: resolved by Imperial Officers' holder (whoever is First Regent), one
    starport at a time; nobody holding it, nothing happens."""
    holder = officers_holder(ctx.state)
    if holder < 0:
        ctx.emit("edict_lapsed", card=card_id, why="nobody holds Imperial Officers")
        return
    ctx.push(foundries_next, seat=holder, ports=loyal_starports(ctx.state, holder))


@steps("foundries_next")
def foundries_next(ctx, seat: int, ports: list):
    if not ports:
        return
    system = ports[0][0]
    options = foundry_options(ctx.state, seat, system)
    ctx.ask(seat, "imperial_foundry", [Action("imperial_foundry", {"system": system, **o}) for o in options],
            resume=foundry_chosen, rest=ports[1:])


@steps("foundry_chosen")
def foundry_chosen(ctx, seat, params, rest: list):
    state = ctx.state
    if apply_foundry(state, seat, params["system"], params["replace"]):
        ctx.emit("imperial_ship_replaced", seat=seat, system=params["system"], side=params["replace"])
        imperial_ships_placed(state, 1)
    ctx.push(foundries_next, seat=seat, ports=rest)


# -- F705 Honor Guard: Weapon Guild cards kept while holding Weapons ------------------------

standing("weapon_guilds_safe_while_holding_weapons")


def honor_guarded(box, state, victim: int, card: str) -> bool:
    """`outrage.GUILD_GUARDS`: a Weapon Guild card of a seat with Honor Guard and a Weapon.
    # Reading: Weapons in the Imperial Trust count: the First Regent has them."""
    if not isinstance(state, BlightedReachState) or box.court[card].suit != "weapon":
        return False
    if not modifiers(state, box, victim, "weapon_guilds_safe_while_holding_weapons"):
        return False
    return "weapon" in held_resources(state, victim)


GUILD_GUARDS.append(honor_guarded)


# -- F706 / F707 Rogue Admirals: Imperial ships into a controlled system ---------------------


class AtSystem(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    system: str


def controlled_now(state: BlightedReachState, seat: int) -> list[str]:
    """The systems the seat controls on its turn (the Empire's Presence Law included, and
    lifted where its cards ignore it)."""
    presence = "presence" in laws_ignored(campaign_box(), state, seat)
    return sorted(s for s in state.systems if controls_on_turn(state, seat, s, presence))


def place_imperial(state: BlightedReachState, system: str, count: int) -> int:
    """Up to `count` fresh Imperial ships from the supply into the system. Returns how many."""
    n = max(0, min(count, state.imperial_supply))
    if n:
        here = imperial_ships(state, system)
        state.imperial[system] = Pieces(fresh=here.fresh + n, damaged=here.damaged)
        state.imperial_supply -= n
    return n


@op("place_imperial_ships", params=AtSystem,
    candidates=lambda env, u: [{"system": s} for s in controlled_now(env.state, u.seat)],
    usable=lambda env, u: bool(controlled_now(env.state, u.seat)))
def do_place_imperial_ships(env: Env, u: Use, choice: AtSystem) -> None:
    """Rogue Admirals' Prelude (discarding it): `count` Imperial ships into a system the
    holder controls, as many as the Imperial supply has."""
    state = env.state
    if choice.system not in controlled_now(state, u.seat):
        raise IllegalAction(f"{seat_name(u.seat)} does not control {choice.system!r}")
    placed = place_imperial(state, choice.system, u.ability.count)
    env.emit("imperial_ships_placed", seat=u.seat, card=u.card, system=choice.system, count=placed)
    imperial_ships_placed(state, placed)


# -- Imperial Defectors (F710, F711, F715, F716; the Steward's F118, F119) ------------------


def earliest_outlaw(state: BlightedReachState) -> int:
    """The Outlaw first in turn order from the initiative holder, -1 for none."""
    n = len(state.players)
    return next((s for s in ((state.initiative + i) % n for i in range(n)) if is_outlaw(state, s)), -1)


def defect(box, state: BlightedReachState, cluster: int) -> dict:
    """Every Imperial ship of the cluster becomes a ship of the earliest Outlaw, side kept.
    # Reading: with no Outlaw nothing defects; when the Outlaw's supply runs short, the ships
    # not replaced stay Imperial (gate first, then the planets in order)."""
    outlaw = earliest_outlaw(state)
    out: dict = {"cluster": cluster, "outlaw": outlaw, "systems": {}}
    if outlaw < 0:
        return out
    player = state.players[outlaw]
    for system in cluster_systems(box, cluster):
        here = imperial_ships(state, system)
        if not here.total or system not in state.systems:
            continue
        fresh = min(here.fresh, player.ships)
        damaged = min(here.damaged, player.ships - fresh)
        if not fresh + damaged:
            continue
        ships = state.systems[system].ships[outlaw]
        ships.fresh += fresh
        ships.damaged += damaged
        player.ships -= fresh + damaged
        state.imperial_supply += fresh + damaged
        left = Pieces(fresh=here.fresh - fresh, damaged=here.damaged - damaged)
        if left.total:
            state.imperial[system] = left
        else:
            del state.imperial[system]
        out["systems"][system] = [fresh, damaged]
    return out


def clusters_in_play(box, state: BlightedReachState) -> list[int]:
    return sorted({box.cluster_of(s) for s in state.systems})


def _defect_rolled(call) -> dict:
    dice = call.dice
    if dice is None:
        raise ValueError(f"{call.card}'s Crisis reads the number die, which is not rolled yet")
    return {"event": "imperial_ships_defected", "card": call.card, **defect(call.box, call.state, dice.number)}


class Defection(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """When secured: the cluster to resolve the Crisis in (0: none), and where the card goes
    ("discard", or "bury" when the card lets its securer choose)."""

    cluster: int = 0
    then: str = ""


def _bury_or_discard(state: BlightedReachState, card: str, then: str) -> None:
    """The secured card goes where its effect says (out of `resolving`, so the base rules'
    disposal leaves it there)."""
    state.resolving.remove(card)
    (state.court_deck if then == "bury" else state.court_discard).append(card)


def _defection_candidates(env: Env, u: Use, both: bool) -> list[dict]:
    clusters = clusters_in_play(env.box, env.state)
    if both:  # F118: resolve or not, then bury or discard
        return [{"cluster": c, "then": t} for c in [0, *clusters] for t in ("bury", "discard")]
    return [{"then": "discard"}] + [{"cluster": c} for c in clusters]


def _check_defection(env: Env, u: Use, choice: Defection, both: bool) -> None:
    if choice.cluster and choice.cluster not in clusters_in_play(env.box, env.state):
        raise BadParameter(f"cluster {choice.cluster} is not in play")
    if choice not in [Defection(**c) for c in _defection_candidates(env, u, both)]:
        raise BadParameter("choose a cluster or to discard the card" if not both
                           else "choose a cluster (or 0) and 'bury' or 'discard'")


@op("defect_chosen_cluster_or_discard", params=Defection,
    candidates=lambda env, u: _defection_candidates(env, u, both=False))
def do_defectors_secured(env: Env, u: Use, choice: Defection) -> None:
    """The Admiral's Imperial Defectors when secured: discard the card, or resolve its Crisis
    in a chosen cluster (the Imperial ships defect, and the card is buried as its Crisis
    says)."""
    _check_defection(env, u, choice, both=False)
    if choice.cluster:
        done = defect(env.box, env.state, choice.cluster)
        env.emit("imperial_ships_defected", seat=u.seat, card=u.card, **done)
        _bury_or_discard(env.state, u.card, "bury")
    else:
        _bury_or_discard(env.state, u.card, "discard")


@op("defect_chosen_cluster_then_bury_or_discard", params=Defection,
    candidates=lambda env, u: _defection_candidates(env, u, both=True))
def do_steward_defectors_secured(env: Env, u: Use, choice: Defection) -> None:
    """The Steward's Imperial Defectors (F118, F119) when secured: optionally resolve the
    Crisis in any cluster, then bury or discard the card."""
    _check_defection(env, u, choice, both=True)
    if choice.cluster:
        done = defect(env.box, env.state, choice.cluster)
        env.emit("imperial_ships_defected", seat=u.seat, card=u.card, **done)
    _bury_or_discard(env.state, u.card, choice.then)


# -- F713 Command Chaos -------------------------------------------------------------------


def _attach_officers(call) -> dict:
    """Imperial Officers, wherever it is in play (a player's Guild cards, the Court deck or
    discard), is attached above this card.
    # Reading: a scrapped or unplayed Imperial Officers, or this card already holding an
    # attached card (one at most, BR-314), attaches nothing."""
    from plugins.blighted_reach.fate_steps import lift, place_of

    state = call.state
    where = place_of(state, IMPERIAL_OFFICERS)
    if where in ("", "scrapped", "attached") or call.card in state.attached or call.card not in state.court_row:
        return {"event": "officers_attached", "card": call.card, "from": ""}
    lift(state, IMPERIAL_OFFICERS)
    state.attached[call.card] = IMPERIAL_OFFICERS
    return {"event": "officers_attached", "card": call.card, "from": where}


ROGUE_ADMIRALS = ("F706", "F707")


def _rogue_admirals_back(call) -> dict:
    """Every Rogue Admirals in the Court discard pile is shuffled into the Court deck."""
    from core.rng import Rng

    state = call.state
    back = [c for c in state.court_discard if c in ROGUE_ADMIRALS]
    for card in back:
        state.court_discard.remove(card)
        state.court_deck.append(card)
    if back:
        Rng(state).shuffle(state.court_deck)
    return {"event": "rogue_admirals_shuffled", "card": call.card, "cards": back}


class OnCard(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    card: str


def _influence_targets(env: Env, u: Use) -> list[str]:
    from plugins.blighted_reach.fate_steward import influence_options

    return influence_options(env.state, u.seat)


@op("influence_once", params=OnCard, candidates=lambda env, u: [{"card": c} for c in _influence_targets(env, u)],
    usable=lambda env, u: bool(_influence_targets(env, u)))
def do_influence_once(env: Env, u: Use, choice: OnCard) -> None:
    """Command Chaos when secured: one influence (an agent on a Court card)."""
    from plugins.blighted_reach import council

    if choice.card not in _influence_targets(env, u):
        raise IllegalAction(f"{choice.card!r} cannot be influenced now")
    council.influence(env.state, u.seat, choice.card)
    env.emit("influenced", seat=u.seat, card=choice.card, why=u.card)


class Become(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    regent: bool = False


@op("may_become_regent", params=Become, candidates=lambda env, u: [{"regent": False}, {"regent": True}],
    usable=lambda env, u: is_outlaw(env.state, u.seat))
def do_may_become_regent(env: Env, u: Use, choice: Become) -> None:
    """Command Chaos when secured: an Outlaw may become a Regent."""
    from plugins.blighted_reach import empire

    if choice.regent:
        empire.become_regent(env.state, u.seat)
        env.emit("title", seat=u.seat, title="regent", why=u.card)


# -- F717 / F718 Mass Uprising: the Crisis ---------------------------------------------------


def destroy_damaged_ships(state: BlightedReachState) -> dict:
    """Every damaged ship on the map is destroyed, every player's and the Empire's (back to
    their supplies: a Crisis takes no Trophy)."""
    lost: dict[str, int] = {}
    for system, here in state.systems.items():
        for seat, ships in enumerate(here.ships):
            if ships.damaged:
                board.destroyed_ships_home(state, seat, ships.damaged)
                lost[str(seat)] = lost.get(str(seat), 0) + ships.damaged
                ships.damaged = 0
    for system, here in list(state.imperial.items()):
        if here.damaged:
            board.destroyed_ships_home(state, board.EMPIRE, here.damaged)
            lost["imperial"] = lost.get("imperial", 0) + here.damaged
            if here.fresh:
                state.imperial[system] = Pieces(fresh=here.fresh)
            else:
                del state.imperial[system]
    return lost


def _register_crises() -> None:
    from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler

    FATE_CRISIS_HANDLERS["defect_rolled_cluster"] = CrisisHandler(apply=_defect_rolled)
    FATE_CRISIS_HANDLERS["attach_imperial_officers_here"] = CrisisHandler(apply=_attach_officers)
    FATE_CRISIS_HANDLERS["rogue_admirals_from_discard_to_court"] = CrisisHandler(apply=_rogue_admirals_back)
    FATE_CRISIS_HANDLERS["destroy_every_damaged_ship"] = CrisisHandler(
        apply=lambda call: {"event": "damaged_ships_destroyed", "card": call.card,
                            "lost": destroy_damaged_ships(call.state)})


_register_crises()


# -- F720 Martial Law ---------------------------------------------------------------------------

ADMIRAL = "FATE07"
MARTIAL_LAW = "F720"
EXEMPTING = ("F702", "F706", "F707")  # Imperial Officers, Rogue Admirals


def martial_law(state: BlightedReachState) -> bool:
    return any(MARTIAL_LAW in slot for slot in state.booklet)


def under_martial_law(state: BlightedReachState, seat: int) -> bool:
    """`board.COMMAND_BARRED`: Martial Law in the booklet binds every Regent but the Admiral
    who holds neither Imperial Officers nor Rogue Admirals."""
    if not isinstance(state, BlightedReachState) or not martial_law(state):
        return False
    if seat >= len(state.fates) or state.fates[seat] == ADMIRAL or state.titles[seat] != "regent":
        return False
    return not any(c in state.players[seat].guild for c in EXEMPTING)


COMMAND_BARRED.append(under_martial_law)


# -- the objectives' Trophies and Captives (BR-094; Act II's Foes and Rival Regents) ---------


def _holdings(state: BlightedReachState) -> list[tuple[list, dict[int, int]]]:
    """Per seat: its Trophies (a copy) and its Captives counted by owner."""
    out = []
    for p in state.players:
        counts: dict[int, int] = {}
        for owner in p.captives:
            counts[owner] = counts.get(owner, 0) + 1
        out.append((list(p.trophies), counts))
    return out


def _note(state: BlightedReachState):
    return {"holdings": _holdings(state), "battle": state.battle is not None, "navy": state.navy_battle,
            "titles": list(state.titles)}


def _advance(state: BlightedReachState, per: str, count: int, seat: int) -> None:
    if count > 0 and len(state.objective_markers) == len(state.players):
        objectives.advance_on_event(box_for(state), campaign_box(), state, per, count, seat=seat)


def _watch(ctx, noted) -> None:
    """After a step: Trophies a seat took in a battle (with Imperial ships attacking, and of
    Outlaws' pieces) and Regents' agents it captured advance the objectives counting them
    (the Admiral's, whose own conditions, such as being a Regent, are checked there).
    # Reading: a Captive or Trophy handed over from another box (the War Policy's Demand, a
    # Summit's deal) is not taken: only what no box held before counts; "in battle" is any
    # step while a battle is being fought, its last included."""
    state = ctx.state
    imperial = getattr(state, "battle_imperial", None)
    if state.battle is not None and imperial is not None and imperial.total and not state.navy_battle:
        state.navy_battle = True
    in_battle = noted["battle"] or state.battle is not None
    navy = noted["navy"] or state.navy_battle
    if state.battle is None:
        state.navy_battle = False
    if len(state.objective_markers) != len(state.players):
        return
    before = noted["holdings"]
    titles = noted["titles"]
    for seat, player in enumerate(state.players):
        if seat >= len(before):
            continue
        old_trophies, old_captives = before[seat]
        new = player.trophies[len(old_trophies):] if player.trophies[:len(old_trophies)] == old_trophies else []
        if in_battle and new:
            if navy:
                _advance(state, "trophy_with_imperial_attackers", len(new), seat)
            outlaw_pieces = sum(1 for t in new if 0 <= t.owner < len(titles) and titles[t.owner] == "outlaw")
            _advance(state, "outlaw_trophy", outlaw_pieces, seat)
        if state.summit_stage:
            continue  # pieces moved in a Summit are not captured
        captured = 0
        for owner in range(len(state.players)):
            gained = player.captives.count(owner) - old_captives.get(owner, 0)
            handed = sum(max(0, b[1].get(owner, 0) - state.players[s].captives.count(owner))
                         for s, b in enumerate(before) if s != seat)
            if gained > handed and owner < len(titles) and titles[owner] == "regent":
                captured += gained - handed
        _advance(state, "regent_agent_captured", captured, seat)


def _register_watch() -> None:
    from plugins.blighted_reach.fate_steward import AROUND_STEPS

    AROUND_STEPS.append((_note, _watch))


_register_watch()
