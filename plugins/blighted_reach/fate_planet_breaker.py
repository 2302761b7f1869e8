"""The Planet Breaker (Fate 11, a B Fate: cards F1101-F1112): the rules its cards name that
the data cannot say.

Act II
- F1101 (setup): `planet_breaker_flagship` asks where the Flagship stands, grants it on the
  Flagship rules and puts a fresh starport from the supply on its Slipstream Drive; data
  gains Sycophants and Hammer Fragments; `tuck_under_hammer_fragments` keeps the Planet
  Hammer and the 5 Refugees under Hammer Fragments (`state.hammer_tucked`);
  `place_hammer_fragments` rolls the event die and puts a Hammer Fragment token at each
  planet of the rolled symbol on the map. Its objective: 1 per Fragment taken from the map
  and 6 when Break World flips a Hammer token (`objectives.advance_on_event`).
- F1102 Sycophants: the Overlord's F1702 reprints it; its rules are `fate_overlord`'s.
- F1103 Hammer Fragments: the new action `repair_hammer` (a Repair): a Fragment on a planet
  the holder controls goes onto the card and a fresh ship comes to that planet; with all 6
  on the card `hammer_whole` gives the holder the Planet Hammer and flips the card to
  Breaking Worlds (`state.hammer_whole`), the Refugees staying under it. Breaking Worlds'
  own resolution is `break_planet` (after the Rivals' battles, `rival_battles`); its last
  line is the standing rule `broken_worlds_have_no_slots` (`arcs_check_build` here and
  `free_states.SLOTLESS`).
- F1104 Planet Hammer (Lore): the new actions `prepare_hammer` (a Build) and `break_world`
  (a Battle, not in a turn that Prepared).
- F1105-F1109 the Refugees: `resettle_refugees` (a Build) builds a Free city on a planet of
  the card's suit the holder controls, clears that Outrage, fills the empty slots with the
  suit's resource and tucks the card back under Breaking Worlds; `refugees_leave_the_hammer`
  scraps a Refugee card its holder holds beside the Planet Hammer (after each action).
- F1110 (Resolution): data, with `record_breaking_worlds` (completed: the buildings stay on
  the card, `state.worlds_buildings`, carried by the log sheet), `hammer_fragments_complete`
  and `breaking_worlds_to_supply` (failed: the card and the 6 Hammer tokens go to the
  general supply, `state.worlds_supply`, for Planet-Eater Loose).
Act III
- F1111 Planet-Eater Loose: the Crisis `planet_eater_crisis` (a second event-die roll, then
  `planet_eater_rolled`); when secured `hunt_the_planet_eater`.
- F1112 (setup): `breaking_worlds_restored` (the pieces are the state's already); its grand
  ambitions are `GOAL_RULES` here.

Tokens: 6 Hammer Fragment tokens (`state.hammer_fragments` on the map, `fragments_repaired`
on the card); once the Hammer is whole they are Hammer tokens: one at most on the map
(`state.hammer`), flipped ones are Broken World tokens (`state.broken_worlds`), the rest in
the Planet Breaker's supply (or the general supply, F1110 failed).

Readings (where the cards leave a choice):
- A token "you control" is one on a planet whose system the holder controls on its turn.
- Breaking Worlds' first line ("harms all buildings") names what the action does for rules
  that read harm; the buildings are destroyed by its step 2 only when the planet is held.
- The Rivals' battles are ordinary battles with their Loyal ships against the Planet Breaker
  there, each offered in turn order (any dice it may collect, or none: declined).
- A Flagship board's pieces stay on the board: step 2 destroys the planet's own buildings.
- A Broken World planet takes no new Hammer token (nothing is left to break there).
- Planet-Eater Loose: with the same symbol rolled, the Broken World token (from the supply's
  Hammer tokens, none when all are used, G-3) goes on the rolled planet and steps 1-4 of
  Breaking Worlds resolve, with no Planet Breaker to battle or to control the planet. When
  secured, the securer rolls one skirmish die per agent of its own that was on the card; on
  a miss the card goes back to its Court place and those agents back onto it (Rivals'
  agents captured by the secure stay captured).
"""
from __future__ import annotations

import msgspec

from core import chance
from core.errors import BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.state import Action
from plugins.arcs import placing
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.battle_flow import battle
from plugins.arcs.content import box_for
from plugins.arcs.outrage import clear_outrage, provoke_outrage
from plugins.arcs.setup import place_ships
from plugins.arcs.state import Building
from plugins.arcs.turn import Attack, check_attack, dice_choices
from plugins.blighted_reach import board, fates, free_states, objectives
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler, remove_from_court, rolled_planet
from plugins.blighted_reach.setup import SYMBOLS
from plugins.blighted_reach.state import FREE, BlightedReachState
from plugins.blighted_reach.tables import steps

PLANET_BREAKER = "FATE11"
FRAGMENTS_CARD = "F1103"  # Hammer Fragments / Breaking Worlds
PLANET_HAMMER = "F1104"
PLANET_EATER = "F1111"
REFUGEES = {"material": "F1105", "fuel": "F1106", "weapon": "F1107", "relic": "F1108", "psionic": "F1109"}
HAMMER_TOKENS = 6
HUNT_HITS = 3
HUNT_POWER = 3

standing("broken_worlds_have_no_slots", "refugees_leave_the_hammer")


def _campaign(state) -> bool:
    return isinstance(state, BlightedReachState) and state.game == "blighted-reach"


def fragments_holder(state: BlightedReachState) -> int:
    """The seat with Hammer Fragments / Breaking Worlds in its play area, -1 for nobody."""
    return next((s for s, area in enumerate(state.play_area) if FRAGMENTS_CARD in area), -1)


def hammer_holder(state: BlightedReachState) -> int:
    return next((s for s, p in enumerate(state.players) if PLANET_HAMMER in p.lore), -1)


def planet_type(state: BlightedReachState, planet: str) -> str | None:
    spec = box_for(state).systems.get(planet)
    return spec.type if spec is not None else None


def planets_on_map(state: BlightedReachState) -> list[str]:
    box = box_for(state)
    return [s for s in sorted(state.systems) if box.systems.get(s) is not None]


def hammer_tokens_free(state: BlightedReachState) -> int:
    """Hammer tokens off the map (in a supply): none before the Hammer is whole."""
    if not state.hammer_whole:
        return 0
    return HAMMER_TOKENS - len(state.broken_worlds) - (1 if state.hammer else 0)


def planet_breaker_problems(state: BlightedReachState) -> list[str]:
    """The 6 tokens are 6, on planets of the map; the Breaking Worlds buildings are pieces."""
    out = []
    planets = set(planets_on_map(state)) if state.systems else set()
    on_map = [*state.hammer_fragments, *state.broken_worlds, *([state.hammer] if state.hammer else [])]
    if set(on_map) - planets:
        out.append("a Hammer token off the planets of the map")
    if len(set(state.broken_worlds)) != len(state.broken_worlds) or state.hammer in state.broken_worlds:
        out.append("two Hammer tokens on one Broken World")
    if state.hammer_whole:
        if state.hammer_fragments or hammer_tokens_free(state) < 0:
            out.append("the Hammer tokens are not six")
    elif len(state.hammer_fragments) + state.fragments_repaired > HAMMER_TOKENS or state.fragments_repaired < 0:
        out.append("the Hammer Fragment tokens are not six")
    if any(len(b) != 2 or b[1] not in ("city", "starport") for b in state.worlds_buildings):
        out.append("something other than a building on Breaking Worlds")
    return out


def worlds_buildings_of(state: BlightedReachState) -> list[tuple[int, str]]:
    """(owner, kind) of the seats' buildings on Breaking Worlds, for the piece counts."""
    return [(int(o), str(k)) for o, k in state.worlds_buildings if int(o) >= 0]


def worlds_free_buildings(state: BlightedReachState, kind: str) -> int:
    return sum(1 for o, k in state.worlds_buildings if int(o) == FREE and k == kind)


# -- F1101 setup ------------------------------------------------------------------------------


@fates.handler("planet_breaker_flagship")
def planet_breaker_flagship(ctx, seat: int, card_id: str, effect) -> None:
    """Steps 1-2: the Flagship where the Planet Breaker's ships are (a seat that has one keeps
    it), then a fresh starport on its Slipstream Drive (`fate_pirate.flagship_sites`' reading)."""
    from plugins.blighted_reach.fate_flagship import grant_then

    grant_then(ctx, seat, card_id, flagship_setup_rest)


@steps("planet_breaker_flagship_setup_rest")
def flagship_setup_rest(ctx, seat: int, why: str):
    from plugins.blighted_reach.fate_flagship import seat_starports

    ctx.emit("flagship_starports", seat=seat, upgrades=seat_starports(ctx.state, seat, ("slipstream_drive",)), why=why)


@fates.handler("tuck_under_hammer_fragments")
def tuck_under_hammer_fragments(ctx, seat: int, card_id: str, effect) -> None:
    from plugins.blighted_reach.fate_steps import lift

    state = ctx.state
    tucked = [c for c in (effect.cards if effect is not None else []) if lift(state, c)]
    state.hammer_tucked.extend(tucked)
    ctx.emit("cards_tucked", seat=seat, cards=tucked, under=FRAGMENTS_CARD, why=card_id)


@fates.handler("place_hammer_fragments")
def place_hammer_fragments(ctx, seat: int, card_id: str, effect) -> None:
    """Steps 6-7: the event die rolled; a Fragment at each planet of that symbol on the map."""
    state = ctx.state
    symbols = list(campaign_box().box.event_die_symbols)
    (_, face), = chance.roll(ctx, seat, {"event": symbols}, ["event"], why=card_id)
    symbol = SYMBOLS[symbols[face]]
    box = box_for(state)
    placed = [p for p in planets_on_map(state) if box.systems[p].symbol == symbol]
    placed = placed[:HAMMER_TOKENS - len(state.hammer_fragments) - state.fragments_repaired]
    state.hammer_fragments.extend(placed)
    ctx.emit("hammer_fragments_placed", seat=seat, symbol=symbols[face], planets=placed, why=card_id)


# -- F1103 Hammer Fragments: Repair Hammer ---------------------------------------------------------


class AtPlanet(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    planet: str


def repairable(env: Env, seat: int) -> list[str]:
    state = env.state
    if fragments_holder(state) != seat or state.hammer_whole:
        return []
    return sorted({p for p in state.hammer_fragments if board.controls_on_turn(state, seat, p)})


@op("repair_hammer", params=AtPlanet, candidates=lambda env, u: [{"planet": p} for p in repairable(env, u.seat)],
    usable=lambda env, u: _campaign(env.state) and bool(repairable(env, u.seat)))
def repair_hammer(env: Env, u: Use, choice: AtPlanet) -> None:
    """A Fragment the holder controls onto the card, a fresh ship at its planet; the sixth
    makes the Hammer whole."""
    state = env.state
    if choice.planet not in repairable(env, u.seat):
        raise IllegalAction(f"no Hammer Fragment you control at {choice.planet!r}")
    state.hammer_fragments.remove(choice.planet)
    state.fragments_repaired += 1
    ships = place_ships(state, choice.planet, u.seat, 1)
    moved = objectives.advance_on_event(env.box, campaign_box(), state, "hammer_fragment_taken", 1, seat=u.seat)
    env.emit("hammer_fragment_repaired", seat=u.seat, card=u.card, planet=choice.planet, ships=ships,
             on_card=state.fragments_repaired, moved=moved.get(u.seat, 0))
    if state.fragments_repaired >= HAMMER_TOKENS:
        hammer_whole(env.emit, state, u.seat)


def hammer_whole(emit, state: BlightedReachState, seat: int) -> None:
    """All 6 Fragments: the Planet Hammer untucked and taken, the tokens now Hammer tokens,
    everyone warned, the card flipped to Breaking Worlds (the Refugees stay under it)."""
    if state.hammer_whole:
        return
    state.hammer_whole = True
    state.hammer_fragments = []
    state.fragments_repaired = HAMMER_TOKENS
    if PLANET_HAMMER in state.hammer_tucked:
        state.hammer_tucked.remove(PLANET_HAMMER)
        fates.gain(campaign_box(), state, seat, PLANET_HAMMER)
    emit("planet_hammer_whole", seat=seat, card=PLANET_HAMMER,
         warning="breaking a planet makes every player Provoke Outrage of its type")


# -- F1104 Planet Hammer: Prepare, Break World ----------------------------------------------------------


def turn_key(state: BlightedReachState) -> str:
    from plugins.blighted_reach.fate_overlord import turn_key as key

    return key(state)


def hammer_sites(env: Env, seat: int) -> list[str]:
    state = env.state
    if hammer_holder(state) != seat or not state.hammer_whole:
        return []
    if not state.hammer and hammer_tokens_free(state) <= 0:
        return []
    return [p for p in planets_on_map(state) if p not in state.broken_worlds and p != state.hammer
            and board.controls_on_turn(state, seat, p)]


@op("prepare_hammer", params=AtPlanet, candidates=lambda env, u: [{"planet": p} for p in hammer_sites(env, u.seat)],
    usable=lambda env, u: _campaign(env.state) and bool(hammer_sites(env, u.seat)))
def prepare_hammer(env: Env, u: Use, choice: AtPlanet) -> None:
    """A Hammer token at a planet the holder controls (one already on the map comes back first)."""
    state = env.state
    if choice.planet not in hammer_sites(env, u.seat):
        raise IllegalAction(f"you cannot place the Hammer token at {choice.planet!r}")
    returned = state.hammer
    state.hammer = choice.planet
    state.hammer_prepared = turn_key(state)
    env.emit("hammer_prepared", seat=u.seat, card=u.card, planet=choice.planet, returned=returned)


def may_break(env: Env, seat: int) -> bool:
    state = env.state
    return hammer_holder(state) == seat and bool(state.hammer) and state.hammer_prepared != turn_key(state)


@op("break_world", usable=lambda env, u: _campaign(env.state) and may_break(env, u.seat))
def break_world(env: Env, u: Use, choice=None) -> None:
    """Break World: Breaking Worlds resolves at the Hammer token's planet (not in a turn that
    Prepared): the Rivals' battles in turn order, then the breaking if the holder holds it."""
    state = env.state
    if not may_break(env, u.seat):
        raise IllegalAction("no Hammer token to break with, or you Prepared this turn")
    env.emit("break_world", seat=u.seat, card=u.card, planet=state.hammer)
    order = [s for s in objectives.turn_order(state) if s != u.seat]
    if env.chance is not None:  # (a trial run checks legality only: no flow to push onto)
        env.chance.push(rival_battles, breaker=u.seat, planet=state.hammer, order=order)


def battle_options(ctx, rival: int, breaker: int, planet: str) -> list[dict]:
    """The dice the Rival may collect to attack the Planet Breaker there, as an Attack action
    would be checked (the Empire's laws included)."""
    state, box = ctx.state, box_for(ctx.state)
    out = []
    for dice in dice_choices(box, state, rival, planet, breaker):
        if not sum(dice.values()):
            continue
        act = Attack(system=planet, defender=breaker, **dice)
        try:
            if not ctx.hook.arcs_check_attack(box=box, state=state, seat=rival, act=act):
                check_attack(box, state, rival, act)
        except (IllegalAction, BadParameter):
            continue
        except Exception as exc:  # other typed refusals (ActionRejected subclasses)
            from core.errors import ActionRejected

            if isinstance(exc, ActionRejected):
                continue
            raise
        out.append(dice)
    return out


@steps("planet_breaker_rival_battles")
def rival_battles(ctx, breaker: int, planet: str, order: list):
    """Each Rival in turn order may battle the Planet Breaker at the planet; then the breaking."""
    while order:
        rival, order = order[0], order[1:]
        options = battle_options(ctx, rival, breaker, planet)
        if options:
            ctx.push(rival_battles, breaker=breaker, planet=planet, order=order)
            actions = [Action("battle_the_breaker", {"battle": False})] + [
                Action("battle_the_breaker", {"battle": True, **o}) for o in options]
            ctx.ask(rival, "battle_the_breaker", actions, resume=rival_answered, breaker=breaker, planet=planet)
            return
    ctx.push(breaking_after_battles, breaker=breaker, planet=planet)


@steps("planet_breaker_rival_answered")
def rival_answered(ctx, seat, params, breaker: int, planet: str):
    if not params.get("battle"):
        ctx.emit("breaker_not_battled", seat=seat, breaker=breaker, planet=planet)
        return
    dice = {k: int(params.get(k, 0)) for k in ("assault", "skirmish", "raid")}
    ctx.push(battle, seat=seat, system=planet, defender=breaker, **dice)


@steps("planet_breaker_breaking")
def breaking_after_battles(ctx, breaker: int, planet: str):
    state = ctx.state
    if state.hammer != planet or not board.controls_on_turn(state, breaker, planet):
        ctx.emit("world_spared", seat=breaker, planet=planet)
        return
    state.hammer = ""
    break_planet(ctx.emit, state, planet, breaker)


# -- F1103 Breaking Worlds: the breaking itself -----------------------------------------------------------


def break_planet(emit, state: BlightedReachState, planet: str, breaker: int = -1) -> None:
    """The token flipped to Broken World; every player Provokes the planet type's Outrage;
    every building there onto the card (no Trophy, no Ransack); that type's Refugees from
    under the card onto the Court deck; that suit's Guild cards in the Court scrapped."""
    from plugins.arcs.lore_ops import buildings_removed

    box = box_for(state)
    kind = box.systems[planet].type
    if planet not in state.broken_worlds:
        state.broken_worlds.append(planet)
    for seat in objectives.turn_order(state):
        provoke_outrage(box, state, seat, kind)
    here = state.systems[planet]
    gone = list(here.buildings)
    buildings_removed(state, planet, range(len(gone)))
    here.buildings = []
    state.worlds_buildings.extend([b.owner, b.kind] for b in gone)
    # The FAQ: Banners of Hegemony (F1003) and Bunkers (F1803) there are removed and added to
    # this card too (no Trophy). Reading: they are no buildings, so the goals counting this
    # card's buildings do not count them.
    tokens = board.tokens_onto_worlds(state, planet)
    refugee = REFUGEES.get(kind, "")
    untucked = refugee if refugee in state.hammer_tucked else ""
    if untucked:
        state.hammer_tucked.remove(untucked)
        state.court_deck.insert(0, untucked)
    scrapped = scrap_court_guilds(state, kind)
    moved = {}
    if breaker >= 0:
        moved = objectives.advance_on_event(box, campaign_box(), state, "world_broken", 1, seat=breaker)
    emit("world_broken", seat=breaker, planet=planet, outrage=kind, buildings=[[b.owner, b.kind] for b in gone],
         refugees=untucked, scrapped=scrapped, moved=moved.get(breaker, 0), **({"tokens": tokens} if tokens else {}))


def scrap_court_guilds(state: BlightedReachState, suit: str) -> list[str]:
    """Every Guild card of the suit in the Court row now (agents home), scrapped."""
    from plugins.blighted_reach.rules_box import rules_box

    court = rules_box().court
    doomed = [c for c in state.court_row if c and c in court and court[c].kind == "guild" and court[c].suit == suit]
    for card in doomed:
        remove_from_court(state, card, "discard")
        state.court_discard.remove(card)
        state.scrapped.append(card)
    return doomed


def broken_world(state, seat, system) -> bool:
    return _campaign(state) and system in state.broken_worlds


free_states.SLOTLESS.append(lambda state, system: _campaign(state) and system in state.broken_worlds)


@hookimpl(specname="arcs_check_build", tryfirst=True)
def no_slots_on_broken_worlds(box, state, seat, system, what, starports_used, in_gate, off_slots, slot, layer):
    """Broken World planets have no building slots (a Flagship board's own slots are not the planet's)."""
    if what in ("city", "starport") and slot < 0 and not layer and broken_world(state, seat, system):
        raise IllegalAction(f"{system} is a Broken World: it has no building slots")
    return None


# -- F1105-F1109 the Refugees ----------------------------------------------------------------------


def refugee_suit(card: str) -> str:
    return next((k for k, c in REFUGEES.items() if c == card), "")


def resettle_sites(env: Env, seat: int, card: str) -> list[str]:
    state, kind = env.state, refugee_suit(card)
    if not kind or card not in state.players[seat].guild:
        return []
    out = []
    for p in planets_on_map(state):
        if env.box.systems[p].type != kind or not board.controls_on_turn(state, seat, p):
            continue
        try:
            free_states.check_place_free_building(env.box, state, p, "city")
        except (IllegalAction, BadParameter):
            continue
        out.append(p)
    return out


@op("resettle_refugees", params=AtPlanet,
    candidates=lambda env, u: [{"planet": p} for p in resettle_sites(env, u.seat, u.card)],
    usable=lambda env, u: _campaign(env.state) and bool(resettle_sites(env, u.seat, u.card)))
def resettle_refugees(env: Env, u: Use, choice: AtPlanet) -> None:
    """Resettle (a Build): a Free city on a planet of the card's suit the holder controls; that
    Outrage cleared; that resource up to the empty slots; the card back under Breaking Worlds."""
    from plugins.blighted_reach.fate_caretaker import free_slots

    state, kind = env.state, refugee_suit(u.card)
    if choice.planet not in resettle_sites(env, u.seat, u.card):
        raise IllegalAction(f"you cannot resettle these Refugees at {choice.planet!r}")
    free_states.place_free_building(env.box, state, choice.planet, "city")
    cleared = kind in state.players[u.seat].outrage
    if cleared:
        clear_outrage(state, u.seat, kind)
    room = max(0, free_slots(env.box, state, u.seat))
    gained = sum(placing.gain(state, u.seat, kind) for _ in range(room))
    state.players[u.seat].guild.remove(u.card)
    state.hammer_tucked.append(u.card)
    env.emit("refugees_resettled", seat=u.seat, card=u.card, planet=choice.planet, cleared=cleared,
             resources={kind: gained})


def scrap_refugees_beside_hammer(state: BlightedReachState) -> list[str]:
    """The Planet Hammer's holder scraps any Refugee card it holds."""
    seat = hammer_holder(state)
    if seat < 0:
        return []
    gone = [c for c in state.players[seat].guild if c in REFUGEES.values()]
    for card in gone:
        state.players[seat].guild.remove(card)
        state.scrapped.append(card)
    return gone


@hookimpl(specname="conclave_action_applied")
def planet_breaker_after_action(ctx, seat, action):
    if not _campaign(ctx.state):
        return
    gone = scrap_refugees_beside_hammer(ctx.state)
    if gone:
        ctx.emit("cards_scrapped", seat=hammer_holder(ctx.state), cards=gone, why=PLANET_HAMMER)


# -- F1110 the Resolution ------------------------------------------------------------------------------


@fates.handler("record_breaking_worlds")
def record_breaking_worlds(ctx, seat: int, card_id: str, effect) -> None:
    """Completed: the buildings on Breaking Worlds are written down (the log sheet carries them)."""
    ctx.emit("breaking_worlds_recorded", seat=seat, buildings=[list(b) for b in ctx.state.worlds_buildings],
             why=card_id)


@fates.handler("hammer_fragments_complete")
def hammer_fragments_complete(ctx, seat: int, card_id: str, effect) -> None:
    """Failed, step 2: what the card does with all 6 Fragments, if not done already."""
    hammer_whole(ctx.emit, ctx.state, seat)


@fates.handler("breaking_worlds_to_supply")
def breaking_worlds_to_supply(ctx, seat: int, card_id: str, effect) -> None:
    """Failed, step 3: Breaking Worlds (its Refugees under it) and the 6 Hammer tokens into the
    general supply, for Planet-Eater Loose (a token on the map comes back to it)."""
    from plugins.blighted_reach.fate_steps import lift

    state = ctx.state
    if lift(state, FRAGMENTS_CARD):
        state.worlds_supply.append(FRAGMENTS_CARD)
    state.hammer = ""
    ctx.emit("breaking_worlds_to_supply", seat=seat, tokens=hammer_tokens_free(state), why=card_id)


# -- F1111 Planet-Eater Loose ----------------------------------------------------------------------------


def _eater_crisis(call) -> dict:
    return {"event": "planet_eater_stirs", "card": call.card}


def _eater_then(call) -> list[tuple]:
    if call.dice is None:
        return []
    return [(planet_eater_rolled, {"number": call.dice.number, "symbol": call.dice.symbol})]


FATE_CRISIS_HANDLERS["planet_eater_crisis"] = CrisisHandler(apply=_eater_crisis, then=_eater_then)


@steps("planet_breaker_eater_rolled")
def planet_eater_rolled(ctx, number: int, symbol: str):
    """The event die again: the same symbol puts a Broken World token on the rolled planet
    (while one is left) and Breaking Worlds' steps resolve there."""
    from plugins.blighted_reach.crises import Dice

    state = ctx.state
    symbols = list(campaign_box().box.event_die_symbols)
    (_, face), = chance.roll(ctx, None, {"event": symbols}, ["event"], why=PLANET_EATER)
    again = symbols[face]
    if again != symbol:
        ctx.emit("planet_eater_missed", card=PLANET_EATER, symbol=again)
        return
    planet = rolled_planet(box_for(state), Dice(number=number, symbol=symbol))
    if planet not in state.systems or planet in state.broken_worlds or hammer_tokens_free(state) <= 0:
        ctx.emit("planet_eater_missed", card=PLANET_EATER, symbol=again, planet=planet)
        return
    break_planet(ctx.emit, state, planet)


def _hunt_candidates(env: Env, u: Use) -> list[dict]:
    return [{}]


@op("hunt_the_planet_eater", candidates=_hunt_candidates, usable=lambda env, u: _campaign(env.state))
def hunt_the_planet_eater(env: Env, u: Use, choice=None) -> None:
    """One skirmish die per agent of the securer's that was on the card: 3 hits or more gain
    3 Power and the bottom card of the action discard, and bury the card; else it stays."""
    state = env.state
    dice = state.vox_agents
    if env.chance is None:  # a trial run: nothing to check, the roll needs the flow
        return
    faces = [msgspec.to_builtins(f) for f in env.box.dice["skirmish"].faces]
    rolled = chance.roll(env.chance, u.seat, {"skirmish": faces}, ["skirmish"] * dice, why=u.card) if dice else []
    hits = sum(env.box.dice["skirmish"].faces[i].hit for _, i in rolled)
    if hits >= HUNT_HITS:
        state.players[u.seat].power += HUNT_POWER
        drawn = ""
        if state.action_discard:
            drawn = state.action_discard.pop()
            state.hands[u.seat].append(drawn)
        if u.card in state.resolving:
            state.resolving.remove(u.card)
            state.court_deck.append(u.card)  # buried: the bottom of the Court deck
        env.emit("planet_eater_hunted", seat=u.seat, card=u.card, hits=hits, power=HUNT_POWER, drew=bool(drawn))
        return
    if u.card in state.resolving:
        state.resolving.remove(u.card)
        state.court_deck.insert(0, u.card)  # the refill puts it back in its place
        state.eater_agents = [u.seat, dice]
    env.emit("planet_eater_escaped", seat=u.seat, card=u.card, hits=hits)


@hookimpl(specname="arcs_court_secured")
def eater_agents_back(ctx, seat: int, card: str, position: int) -> None:
    """A missed hunt: the hunter's agents go back onto Planet-Eater Loose, in its place again."""
    state = ctx.state
    if not _campaign(state) or not state.eater_agents:
        return
    hunter, count = state.eater_agents
    state.eater_agents = []
    if PLANET_EATER in state.court_row:
        count = min(count, state.players[hunter].agents)
        state.court_agents[PLANET_EATER][hunter] += count
        state.players[hunter].agents -= count


# -- F1112 Act III ---------------------------------------------------------------------------------------


@fates.handler("breaking_worlds_restored")
def breaking_worlds_restored(ctx, seat: int, card_id: str, effect) -> None:
    """Step 1-2: the recorded pieces are back on Breaking Worlds (the log sheet carried them);
    everyone is reminded that a Broken World token makes each player Provoke Outrage."""
    ctx.emit("breaking_worlds_restored", seat=seat, buildings=len(ctx.state.worlds_buildings),
             warning="placing a Broken World token makes each player Provoke Outrage of that planet's type",
             why=card_id)


def _no_rival_warlord(state: BlightedReachState, seat: int) -> bool:
    from plugins.blighted_reach.fate_blight_speaker import rival_wins_warlord

    return not rival_wins_warlord(state, seat)


def buildings_on_map(state: BlightedReachState) -> int:
    return sum(len(here.buildings) for here in state.systems.values())


objectives.GOAL_RULES["no_rival_wins_warlord_and_everyone_outraged"] = (
    lambda box, cbox, state, seat: _no_rival_warlord(state, seat) and all(p.outrage for p in state.players))
objectives.GOAL_RULES["no_rival_wins_warlord_and_worlds_broken_above_chapter"] = (
    lambda box, cbox, state, seat: _no_rival_warlord(state, seat)
    and (len(state.worlds_buildings) > state.chapter or buildings_on_map(state) == 0))


def rules_box_court() -> dict:
    """The Court cards as the rules read them (their suits), for the callers outside."""
    from plugins.blighted_reach.rules_box import rules_box

    return rules_box().court
