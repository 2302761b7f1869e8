"""The Pathfinder (Fate 9, a B Fate: cards F901-F911): the rules its cards name that the
data cannot say.

Act II
- F901 (setup): `pathfinder_flagship` asks the Pathfinder where its Flagship stands and
  grants it on the Flagship rules (`plugins.flagships.rules.grant`: its Loyal buildings on
  the map become Free ones), then builds a fresh starport from its supply on the Slipstream
  Drive and a city from its board on the Hull; data gains Uncovering Clues;
  `record_portal_planet` asks the player to the Pathfinder's right (the Keeper) to record
  one planet in secret (`state.portal_secret`: its cluster and ID symbol); data gives the
  Keeper Clues to the Portal (`clues_to_the_keeper`, with the 6 Clue tokens and the Portal
  token, which stay implicit: the Keeper's supply is 6 less the Clues on the map). Its
  objective: 1 per "Check" Clue placed while the marker is above 1 (it cannot complete the
  objective) and 8 when the Portal token is placed (`place_clue`, reported as events).
- F902 Uncovering Clues: the Prelude op `uncover_clue` (the Flagship at a planet with no
  Clue, a resource of a type no planet of its cluster has spent): the Keeper's Clue is
  placed by the rules of F903 (`place_clue`); then 1 resource of the planet's type per city
  there and 2 ships per starport there.
- F903 Clues to the Portal: the placement itself (`clue_side`, `place_clue`): its side is
  computed from the secret, so nobody can place a false one; with no Clue left in the
  Keeper's supply the Keeper chooses one on the map to move (`clue_from_map`); at the
  recorded planet the Portal token is placed and every Clue, F902 and F903 are scrapped.
  The secret reaches the Keeper's view only (`portal_view`) and no event but the Keeper's.
- F904 (Resolution): data (the cards), with `flagship_build_anywhere` (completed: 1 Upgrade
  or Armor built, whatever planet the Flagship is at) and `portal_to_recorded_planet` and
  `scrap_clue_tokens` (failed).
Act III
- F905 Call to Pilgrimage: the Crisis `each_discards_a_guild` (on an arrow); when secured
  the op `rivals_discard_guild_suit`, then data shuffles it into the Court deck.
- F906 Portal Seekers: one more grand ambition fulfilled by its holder while it controls
  the Portal token (`objectives.EXTRA_GOALS`; two is still the most that scores).
- F907 (setup): data gains Pilgrims, puts one Seek the Portal on the Court deck;
  `tuck_under_pilgrims` keeps the other two under Pilgrims (`state.pilgrim_tucked`);
  `place_pilgrims` rolls the event die and puts a Pilgrim token at each planet of the
  rolled symbol on the map. Its grand ambitions are `GOAL_RULES` here.
- F908 Pilgrims: the Pilgrims are the holder's Loyal pieces (`board.LOYAL_TOKENS`); the
  Prelude op `move_pilgrims` (once per turn, each Pilgrim one step into a system the holder
  controls or its Flagship is in, all in one action); the new action `use_the_portal` (a
  Move).
- F909-F911 Seek the Portal: the Crisis `each_scraps_a_loyal_ship` and the secured op
  `scrap_ships_at_portal`; F910 and F911 reprint F909.

Tokens: 6 Clues (`state.clues`, planet -> side), the Portal (`state.portal`, carried between
acts), 6 Pilgrims (`state.pilgrims` on the map, `state.pilgrims_delivered` on the objective
card, the rest in the Fate Set).
"""
from __future__ import annotations

import msgspec

from core import chance
from core.errors import BadParameter, CannotAfford, IllegalAction
from core.seats import seat_name
from core.state import Action
from plugins.arcs import placing
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.content import box_for
from plugins.arcs.reach import reach_for
from plugins.arcs.setup import place_ships
from plugins.blighted_reach import board, fates, objectives
from plugins.blighted_reach.board import EMPIRE
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler, Decision, protected, turn_order
from plugins.blighted_reach.setup import SYMBOLS
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps
from plugins.flagships.content import default_content as flagship_content
from plugins.flagships.state import LAYERS, BoardPiece, board_of, flagship_system, store

PATHFINDER = "FATE09"
UNCOVERING = "F902"
CLUES_CARD = "F903"
PORTAL_SEEKERS = "F906"
PILGRIMS_CARD = "F908"
CLUE_TOKENS = 6
PILGRIM_TOKENS = 6
SHIPS_PER_STARPORT = 2
POWER_PER_SCRAPPED_SHIP = 2
SETUP_PIECES = (("slipstream_drive", "starport"), ("hull", "city"))  # F901 step 2

# Standing rules read where they apply (the clue placement, scoring, `board.has_loyal_pieces`).
standing("clues_to_the_portal", "portal_seekers", "pilgrims_are_loyal")


def _campaign(state) -> bool:
    return isinstance(state, BlightedReachState) and state.game == "blighted-reach"


def holder_of(state: BlightedReachState, card: str) -> int:
    """The seat holding a Fate Set card in its play area or Guild cards, -1 for nobody."""
    where = fates.where_is(state, card)
    return int(where.split(":")[1]) if where.split(":")[0] in ("play_area", "guild") else -1


def keeper(state: BlightedReachState) -> int:
    """The player who places the Clues: the holder of Clues to the Portal (-1 none)."""
    return holder_of(state, CLUES_CARD)


def right_of(state: BlightedReachState, seat: int) -> int:
    """The player to a seat's right: the one before it in turn order (ARCS-263: counter-clockwise)."""
    return (seat - 1) % len(state.players)


def planets_in_play(box, state: BlightedReachState) -> dict[str, tuple[int, str]]:
    """planet -> (its cluster, its ID symbol as the box names it), for the planets on the map."""
    return {p.id: (c.id, p.symbol) for c in box.map.clusters for p in c.planets if p.id in state.systems}


# -- the secret and who sees it -----------------------------------------------------------


def portal_view(state: BlightedReachState, viewer: int | None) -> str:
    """The planet the Keeper recorded, for the Keeper's own view only ("" for anyone else and
    for spectators)."""
    if viewer is None or not state.portal_secret or viewer != keeper(state):
        return ""
    return state.portal_secret


def pathfinder_problems(box, state: BlightedReachState) -> list[str]:
    """The Fate Set's tokens within their numbers, on planets (systems) of the map."""
    out = []
    planets = planets_in_play(box, state)
    if len(state.clues) > CLUE_TOKENS or any(side not in ("check", "x") for side in state.clues.values()):
        out.append("the Clue tokens are not the Pathfinder's six")
    if set(state.clues) - set(planets):
        out.append("a Clue token off the planets of the map")
    if state.portal and state.portal not in state.systems:
        out.append("the Portal token in a system not on the map")
    if state.portal_secret and state.portal_secret not in planets:
        out.append("the recorded Portal planet is no planet of the map")
    if any(n <= 0 for n in state.pilgrims.values()) or set(state.pilgrims) - set(state.systems):
        out.append("Pilgrim tokens off the map's systems")
    if state.pilgrims_delivered < 0 or sum(state.pilgrims.values()) + state.pilgrims_delivered > PILGRIM_TOKENS:
        out.append("the Pilgrim tokens are not six")
    return out


# -- F901 step 1-2: the Flagship, a starport on the Slipstream Drive, a city on the Hull -----


@fates.handler("pathfinder_flagship")
def pathfinder_flagship(ctx, seat: int, card_id: str, effect) -> None:
    """Step 1 and 2. A seat that already has a Flagship (the Flagships module on) keeps it.
    # Reading: as for the Pirate, the board's back (where the piece starts) is not in the
    # rules text: the piece joins the seat's ships (`fate_pirate.flagship_sites`)."""
    from plugins.blighted_reach.fate_flagship import grant_then

    grant_then(ctx, seat, card_id, flagship_setup_rest)


@steps("pathfinder_flagship_setup_rest")
def flagship_setup_rest(ctx, seat: int, why: str):
    _setup_pieces(ctx, seat, why)


def setup_pieces(state: BlightedReachState, seat: int) -> list[str]:
    """A fresh starport from the supply on the Slipstream Drive and a city from the player
    board (its leftmost, ARCS-144) on the Hull, each where its slot is empty and the piece is
    left (setup places them: the planet does not matter). Returns the Upgrades built."""
    ship, content, player = board_of(state, seat), flagship_content(), state.players[seat]
    built = []
    for upgrade, kind in SETUP_PIECES:
        slot = ship.slots[content.slot_of(upgrade)]
        if slot.upgrade is not None:
            continue
        if kind == "starport" and player.starports > 0:
            player.starports -= 1
        elif kind == "city" and True in player.cities_on_board:
            player.cities_on_board[player.cities_on_board.index(True)] = False
        else:
            continue
        slot.put("upgrade", BoardPiece(kind=kind))
        built.append(upgrade)
    store(state, seat, ship)
    return built


def _setup_pieces(ctx, seat: int, why: str) -> None:
    ctx.emit("flagship_upgrades_built", seat=seat, upgrades=setup_pieces(ctx.state, seat), why=why)


# -- F901 steps 4-5: the secret planet, the Keeper's card -------------------------------------


@fates.handler("record_portal_planet")
def record_portal_planet(ctx, seat: int, card_id: str, effect) -> None:
    """Step 4: the player to the Pathfinder's right records any one planet of the map (its
    cluster and ID symbol name exactly one planet), in secret."""
    state = ctx.state
    chooser = right_of(state, seat)
    options = [Action("record_portal", {"planet": p}) for p in sorted(planets_in_play(box_for(state), state))]
    ctx.ask(chooser, "record_portal", options, resume=portal_recorded, pathfinder=seat)


@steps("pathfinder_portal_recorded")
def portal_recorded(ctx, seat, params, pathfinder: int):
    state = ctx.state
    if params["planet"] not in planets_in_play(box_for(state), state):
        raise BadParameter(f"{params['planet']!r} is no planet of the map")
    state.portal_secret = params["planet"]
    ctx.emit("portal_recorded", to=[seat], public={"seat": seat, "pathfinder": pathfinder},
             seat=seat, pathfinder=pathfinder, planet=params["planet"])


@fates.handler("clues_to_the_keeper")
def clues_to_the_keeper(ctx, seat: int, card_id: str, effect) -> None:
    """Step 5: Clues to the Portal to the player to the right, with the 6 Clue tokens and
    the Portal token (their supply: what is not on the map)."""
    state = ctx.state
    chooser = right_of(state, seat)
    for card in (effect.cards if effect is not None else []):
        fates.gain(campaign_box(), state, chooser, card)
    ctx.emit("clues_given", seat=chooser, pathfinder=seat, cards=list(effect.cards if effect else []),
             clues=CLUE_TOKENS, why=card_id)


# -- F903 Clues to the Portal: placing a Clue -------------------------------------------------


def clue_side(box, state: BlightedReachState, planet: str) -> str:
    """What the Keeper places at the planet: "portal" at the recorded planet, "check" where
    the cluster or the ID symbol is the recorded one's, "x" where neither is."""
    planets = planets_in_play(box, state)
    if planet == state.portal_secret:
        return "portal"
    cluster, symbol = planets[planet]
    right_cluster, right_symbol = planets[state.portal_secret]
    return "check" if cluster == right_cluster or symbol == right_symbol else "x"


def clues_in_supply(state: BlightedReachState) -> int:
    return CLUE_TOKENS - len(state.clues) if keeper(state) >= 0 else 0


def portal_found(emit, state: BlightedReachState, pathfinder: int, planet: str) -> None:
    """The Portal token at the planet; every Clue, F903 and F902 scrapped; the objective 8."""
    from plugins.blighted_reach.fate_steps import lift

    state.portal, state.portal_secret, state.clues = planet, "", {}
    for card in (CLUES_CARD, UNCOVERING):
        if lift(state, card):
            state.scrapped.append(card)
    moved = objectives.advance_on_event(box_for(state), campaign_box(), state, "portal_placed", 1, seat=pathfinder)
    emit("portal_found", seat=pathfinder, planet=planet, moved=moved.get(pathfinder, 0))


def put_clue(emit, state: BlightedReachState, pathfinder: int, planet: str, side: str) -> None:
    """A Clue token on its side at the planet; a "Check" advances the Pathfinder 1 while its
    marker is above 1 (F901B: a Clue never completes the objective)."""
    state.clues[planet] = side
    moved = {}
    if side == "check" and state.objective_markers[pathfinder] > 1:
        moved = objectives.advance_on_event(box_for(state), campaign_box(), state, "check_clue_placed", 1,
                                            seat=pathfinder)
    emit("clue_placed", seat=keeper(state), pathfinder=pathfinder, planet=planet, side=side,
         moved=moved.get(pathfinder, 0))


def place_clue(env: Env, pathfinder: int, planet: str) -> str:
    """The Keeper's placement at the planet; with its supply empty the Keeper moves one of
    the Clues on the map there (its choice, asked after this action). Returns the side."""
    state = env.state
    side = clue_side(env.box, state, planet)
    if side == "portal":
        portal_found(env.emit, state, pathfinder, planet)
    elif clues_in_supply(state) > 0:
        put_clue(env.emit, state, pathfinder, planet, side)
    elif env.chance is not None and hasattr(env.chance, "push"):
        env.chance.push(clue_from_map_ask, seat=keeper(state), pathfinder=pathfinder, planet=planet, side=side)
    return side


@steps("pathfinder_clue_from_map_ask")
def clue_from_map_ask(ctx, seat: int, pathfinder: int, planet: str, side: str):
    options = [Action("move_clue", {"planet": p}) for p in sorted(ctx.state.clues) if p != planet]
    ctx.ask(seat, "move_clue", options, resume=clue_from_map, pathfinder=pathfinder, planet=planet, side=side)


@steps("pathfinder_clue_from_map")
def clue_from_map(ctx, seat, params, pathfinder: int, planet: str, side: str):
    state = ctx.state
    del state.clues[params["planet"]]
    ctx.emit("clue_taken", seat=seat, planet=params["planet"])
    put_clue(ctx.emit, state, pathfinder, planet, side)


# -- F902 Uncovering Clues: the Prelude ---------------------------------------------------------


class Uncover(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    slot: int  # the resource slot whose token is spent


def cluster_types(box, state: BlightedReachState, planet: str) -> set[str]:
    cluster = planets_in_play(box, state)[planet][0]
    return {p.type for c in box.map.clusters if c.id == cluster for p in c.planets if p.type}


def clue_site(env: Env, seat: int) -> str:
    """The planet the Flagship is at, when a Clue may go there ("" otherwise): a planet of the
    map with no Clue token, while someone holds Clues to the Portal with a recorded planet."""
    state = env.state
    where = flagship_system(state, seat)
    if not where or where not in planets_in_play(env.box, state) or where in state.clues:
        return ""
    return where if keeper(state) >= 0 and state.portal_secret else ""


def spendable_slots(env: Env, seat: int, planet: str) -> list[int]:
    """Slots holding a resource of a type no planet of the planet's cluster has; the first
    slot of each such type (which of two tokens of a type is spent changes nothing)."""
    banned, seen, out = cluster_types(env.box, env.state, planet), set(), []
    for i, r in enumerate(env.state.players[seat].resources):
        if r is not None and r not in banned and r not in seen:
            seen.add(r)
            out.append(i)
    return out


def _uncover_candidates(env: Env, u: Use) -> list[dict]:
    planet = clue_site(env, u.seat)
    return [{"slot": i} for i in spendable_slots(env, u.seat, planet)] if planet else []


@op("uncover_clue", params=Uncover, candidates=_uncover_candidates,
    usable=lambda env, u: _campaign(env.state) and bool(_uncover_candidates(env, u)))
def uncover_clue(env: Env, u: Use, choice: Uncover) -> None:
    """The resource goes back to the supply; the Keeper places a Clue at the Flagship's
    planet (F903); then 1 resource of the planet's type per city there and 2 ships per
    starport there, whoever owns them.
    # Reading: "for each city / starport there" counts every building at the planet, Loyal,
    # Rival's or Free, as the card names no owner."""
    state = env.state
    planet = clue_site(env, u.seat)
    if not planet:
        raise IllegalAction("the Flagship is at no planet where a Clue may be placed")
    player = state.players[u.seat]
    if isinstance(choice.slot, bool) or not 0 <= choice.slot < len(player.resources):
        raise BadParameter(f"no resource slot {choice.slot}")
    resource = player.resources[choice.slot]
    if resource is None:
        raise CannotAfford(f"resource slot {choice.slot} is empty")
    if resource in cluster_types(env.box, state, planet):
        raise IllegalAction(f"a planet of this cluster is a {resource} planet: spend another type")
    player.resources[choice.slot] = None
    state.supply[resource] = state.supply.get(resource, 0) + 1
    env.emit("resource_spent", seat=u.seat, resource=resource, card=u.card)
    side = place_clue(env, u.seat, planet)
    here = state.systems[planet]
    kind = env.box.systems[planet].type
    cities = sum(b.kind == "city" for b in here.buildings)
    starports = sum(b.kind == "starport" for b in here.buildings)
    got = sum(placing.gain(state, u.seat, kind) for _ in range(cities))
    ships = place_ships(state, planet, u.seat, SHIPS_PER_STARPORT * starports)
    env.emit("clue_uncovered", seat=u.seat, planet=planet, side=side, resources={kind: got}, ships=ships,
             card=u.card)


# -- F904 the Resolution --------------------------------------------------------------------------


def anywhere_options(state: BlightedReachState, seat: int) -> list[dict]:
    """Every Upgrade or Armor the seat could build on its board with the planet ignored: an
    empty slot, Armor only over a fresh Upgrade, the piece in its supply (a city on its board)."""
    ship, player = board_of(state, seat), state.players[seat]
    if ship is None:
        return []
    have = {"city": True in player.cities_on_board, "starport": player.starports > 0}
    out = []
    for index, slot in enumerate(ship.slots):
        for layer in LAYERS:
            if slot.piece(layer) is not None or (layer == "armor" and (slot.upgrade is None or slot.upgrade.damaged)):
                continue
            out += [{"slot": index, "layer": layer, "kind": k} for k in ("city", "starport") if have[k]]
    return out


def build_anywhere(state: BlightedReachState, seat: int, slot: int, layer: str, kind: str) -> None:
    """One piece built on the board as the Resolution allows, fresh.
    # Reading: the build ignores where the Flagship stands, so it ignores who controls that
    # system too (BR-275's damaged build is about building there): it is built fresh."""
    if {"slot": slot, "layer": layer, "kind": kind} not in anywhere_options(state, seat):
        raise IllegalAction(f"cannot build a {kind} as the {layer} of slot {slot}")
    ship, player = board_of(state, seat), state.players[seat]
    if kind == "city":
        player.cities_on_board[player.cities_on_board.index(True)] = False
    else:
        player.starports -= 1
    ship.slots[slot].put(layer, BoardPiece(kind=kind))
    store(state, seat, ship)


@fates.handler("flagship_build_anywhere")
def flagship_build_anywhere(ctx, seat: int, card_id: str, effect) -> None:
    """F904 completed, step 3: the Pathfinder builds 1 Upgrade or Armor (nothing when none
    can be built, G-3)."""
    options = anywhere_options(ctx.state, seat)
    if options:
        ctx.ask(seat, "flagship_build", [Action("flagship_build", o) for o in options], resume=built_anywhere,
                why=card_id)


@steps("pathfinder_built_anywhere")
def built_anywhere(ctx, seat, params, why: str):
    build_anywhere(ctx.state, seat, params["slot"], params["layer"], params["kind"])
    ctx.emit("flagship_built", seat=seat, why=why, **params)


@fates.handler("portal_to_recorded_planet")
def portal_to_recorded_planet(ctx, seat: int, card_id: str, effect) -> None:
    """F904 failed, step 3: the Portal token on the recorded planet, which everyone now sees."""
    state = ctx.state
    if state.portal_secret and not state.portal:
        state.portal = state.portal_secret
        ctx.emit("portal_placed", seat=seat, planet=state.portal, why=card_id)
    state.portal_secret = ""


@fates.handler("scrap_clue_tokens")
def scrap_clue_tokens(ctx, seat: int, card_id: str, effect) -> None:
    count = len(ctx.state.clues)
    ctx.state.clues = {}
    ctx.emit("clues_scrapped", seat=seat, count=count, why=card_id)


# -- F905 Call to Pilgrimage --------------------------------------------------------------------


def discardable(state: BlightedReachState, seat: int) -> list[str]:
    """The seat's Guild cards that can leave it (BR-309: not a protected one)."""
    return [c for c in state.players[seat].guild if not protected(campaign_box(), c)]


def _discard_guild(state: BlightedReachState, seat: int, card: str) -> None:
    state.players[seat].guild.remove(card)
    state.court_discard.append(card)


def _pilgrimage_decisions(call) -> list[Decision]:
    """Each player in turn order discards one of its Guild cards; one without any that can
    go discards nothing (G-3)."""
    return [Decision(s, "each_discards_a_guild", call.card, [{"card": c} for c in discardable(call.state, s)])
            for s in turn_order(call.state) if discardable(call.state, s)]


def _pilgrimage_check(call) -> None:
    for d in _pilgrimage_decisions(call):
        if len(d.options) > 1 and call.answers.get(d.seat) not in d.options:
            raise BadParameter(f"{seat_name(d.seat)} must discard one of its own Guild cards")


def _pilgrimage_apply(call) -> dict:
    out = {}
    for d in _pilgrimage_decisions(call):
        card = (call.answers.get(d.seat) or d.options[0])["card"]
        _discard_guild(call.state, d.seat, card)
        out[str(d.seat)] = card
    return {"event": "guilds_discarded", "card": call.card, "discarded": out}


class Suit(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    suit: str


def guild_suits_held(state: BlightedReachState, seat: int) -> list[str]:
    from plugins.blighted_reach.rules_box import rules_box

    return sorted({rules_box().court[c].suit for c in state.players[seat].guild} - {None})


@op("rivals_discard_guild_suit", params=Suit,
    candidates=lambda env, u: [{"suit": s} for s in guild_suits_held(env.state, u.seat)],
    usable=lambda env, u: _campaign(env.state) and bool(guild_suits_held(env.state, u.seat)))
def rivals_discard_guild_suit(env: Env, u: Use, choice: Suit) -> None:
    """The securer names a suit of a Guild card it has; clockwise from it, each Rival
    discards every Guild card of that suit it has (protected ones stay, BR-309)."""
    from plugins.blighted_reach.rules_box import rules_box

    state = env.state
    if choice.suit not in guild_suits_held(state, u.seat):
        raise IllegalAction(f"you have no Guild card of suit {choice.suit!r}")
    n, out = len(state.players), {}
    for rival in [(u.seat + i) % n for i in range(1, n)]:
        gone = [c for c in discardable(state, rival) if rules_box().court[c].suit == choice.suit]
        for card in gone:
            _discard_guild(state, rival, card)
        if gone:
            out[str(rival)] = gone
    env.emit("guilds_discarded", seat=u.seat, card=u.card, suit=choice.suit, discarded=out)


# -- F906 Portal Seekers, F907 the grand ambitions ------------------------------------------------


def controls_portal(state: BlightedReachState, seat: int) -> bool:
    """Control of the system holding the Portal token, as scoring counts it (BR-121)."""
    return bool(state.portal) and board.controls_for_scoring(state, seat, state.portal)


def _portal_seekers(box, cbox, state: BlightedReachState, seat: int) -> int:
    """Portal Seekers' holder fulfils one more grand ambition while it controls the Portal.
    # Reading: the card makes it a grand ambition of its holder's whatever the Fate (a C
    # Fate's holder too); the chapter's values still stop at both (BR-100)."""
    return int(state.act == 3 and PORTAL_SEEKERS in state.players[seat].guild and controls_portal(state, seat))


objectives.EXTRA_GOALS.append(_portal_seekers)
objectives.GOAL_RULES["controls_portal"] = lambda box, cbox, state, seat: controls_portal(state, seat)
objectives.GOAL_RULES["pilgrims_delivered_above_chapter"] = (
    lambda box, cbox, state, seat: seat == holder_of(state, PILGRIMS_CARD) and state.pilgrims_delivered > state.chapter)


# -- F907 setup: the Seek the Portal cards tucked, the Pilgrims placed -------------------------------


@fates.handler("tuck_under_pilgrims")
def tuck_under_pilgrims(ctx, seat: int, card_id: str, effect) -> None:
    from plugins.blighted_reach.fate_steps import lift

    state = ctx.state
    tucked = [c for c in (effect.cards if effect is not None else []) if lift(state, c)]
    state.pilgrim_tucked.extend(tucked)
    ctx.emit("cards_tucked", seat=seat, cards=tucked, under=PILGRIMS_CARD, why=card_id)


@fates.handler("place_pilgrims")
def place_pilgrims(ctx, seat: int, card_id: str, effect) -> None:
    """Step 4: the event die rolled; a Pilgrim at each planet of the rolled symbol on the map."""
    state = ctx.state
    symbols = list(campaign_box().box.event_die_symbols)
    (_, face), = chance.roll(ctx, seat, {"event": symbols}, ["event"], why=card_id)
    symbol = SYMBOLS[symbols[face]]
    placed = [p for p, (_, s) in sorted(planets_in_play(box_for(state), state).items()) if s == symbol]
    placed = placed[:PILGRIM_TOKENS - sum(state.pilgrims.values()) - state.pilgrims_delivered]
    for planet in placed:
        state.pilgrims[planet] = state.pilgrims.get(planet, 0) + 1
    ctx.emit("pilgrims_placed", seat=seat, symbol=symbols[face], systems=placed, why=card_id)


# -- F908 Pilgrims ----------------------------------------------------------------------------------


def _pilgrims_loyal(state: BlightedReachState, seat: int, system: str) -> bool:
    return bool(state.pilgrims.get(system)) and seat == holder_of(state, PILGRIMS_CARD)


board.LOYAL_TOKENS.append(_pilgrims_loyal)


class PilgrimMoves(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    moves: list[list[str]]  # [from, to] per Pilgrim moved


def pilgrim_destinations(env: Env, seat: int, origin: str) -> list[str]:
    """Systems next to `origin` that the seat controls on its turn or its Flagship is in."""
    reach = reach_for(env.box, env.state.out_of_play)
    flagship = flagship_system(env.state, seat)
    return sorted(s for s in reach.neighbours.get(origin, ()) if s in env.state.systems
                  and (s == flagship or board.controls_on_turn(env.state, seat, s)))


def _moved_this_turn(env: Env) -> bool:
    from plugins.blighted_reach.fate_overlord import turn_key

    return env.state.pilgrims_moved == turn_key(env.state)


def _pilgrim_candidates(env: Env, u: Use) -> list[dict]:
    """One Pilgrim to each place it may go; and every Pilgrim that can move, each to its
    first destination (the whole move in one action)."""
    if _moved_this_turn(env):
        return []
    singles, everyone = [], []
    for origin, count in sorted(env.state.pilgrims.items()):
        to = pilgrim_destinations(env, u.seat, origin)
        singles += [{"moves": [[origin, t]]} for t in to]
        if to:
            everyone += [[origin, to[0]]] * count
    return singles + ([{"moves": everyone}] if len(everyone) > 1 else [])


@op("move_pilgrims", params=PilgrimMoves, candidates=_pilgrim_candidates,
    usable=lambda env, u: _campaign(env.state) and bool(_pilgrim_candidates(env, u)))
def move_pilgrims(env: Env, u: Use, choice: PilgrimMoves) -> None:
    """Once per turn, each Pilgrim token at most once, one step each, into a system the holder
    controls or its Flagship is in; every destination is read before any Pilgrim moves.
    # Reading: "move" is one step to an adjacent system, as a ship's move is (ARCS-025)."""
    from plugins.blighted_reach.fate_overlord import turn_key

    state = env.state
    if _moved_this_turn(env):
        raise IllegalAction("the Pilgrims have moved this turn already")
    if not choice.moves:
        raise BadParameter("move at least one Pilgrim")
    leaving: dict[str, int] = {}
    for move in choice.moves:
        if len(move) != 2:
            raise BadParameter(f"a Pilgrim's move is [from, to], not {move!r}")
        origin, to = move
        leaving[origin] = leaving.get(origin, 0) + 1
        if leaving[origin] > state.pilgrims.get(origin, 0):
            raise IllegalAction(f"not that many Pilgrims in {origin!r}")
        if to not in pilgrim_destinations(env, u.seat, origin):
            raise IllegalAction(f"a Pilgrim cannot move from {origin!r} into {to!r}")
    for origin, to in choice.moves:
        state.pilgrims[origin] -= 1
        if not state.pilgrims[origin]:
            del state.pilgrims[origin]
        state.pilgrims[to] = state.pilgrims.get(to, 0) + 1
    state.pilgrims_moved = turn_key(state)
    env.emit("pilgrims_moved", seat=u.seat, moves=[list(m) for m in choice.moves], card=u.card)


def portal_usable(env: Env, seat: int) -> bool:
    return bool(env.state.portal) and board.controls_on_turn(env.state, seat, env.state.portal)


@op("use_the_portal", usable=lambda env, u: _campaign(env.state) and portal_usable(env, u.seat))
def use_the_portal(env: Env, u: Use, choice=None) -> None:
    """Use the Portal, a Move: controlling the Portal token, every Pilgrim in its system goes
    onto the objective card; a Seek the Portal card comes from under Pilgrims onto the Court
    deck. Reading: it may be taken with no Pilgrim there (the card asks only for control)."""
    state = env.state
    if not portal_usable(env, u.seat):
        raise IllegalAction("you do not control the Portal token's system")
    delivered = state.pilgrims.pop(state.portal, 0)
    state.pilgrims_delivered += delivered
    untucked = state.pilgrim_tucked.pop(0) if state.pilgrim_tucked else ""
    if untucked:
        state.court_deck.insert(0, untucked)
    env.emit("portal_used", seat=u.seat, card=u.card, pilgrims=delivered, total=state.pilgrims_delivered,
             untucked=untucked)


# -- F909-F911 Seek the Portal --------------------------------------------------------------------


def scrap_loyal_ship(state: BlightedReachState, seat: int, system: str, damaged: bool) -> None:
    """One Loyal ship off the map and out of the campaign (`scrapped_ships`)."""
    here = state.systems[system].ships[seat]
    if damaged:
        here.damaged -= 1
    else:
        here.fresh -= 1
    state.scrapped_ships.append(seat)


def ship_choices(state: BlightedReachState, seat: int) -> list[dict]:
    """Where the seat's Loyal ship to scrap may come from: each system, fresh or damaged
    (never the Flagship, which cannot leave the map, BR-267)."""
    out = []
    for system in sorted(state.systems):
        ships = state.systems[system].ships_of(seat)
        out += [{"system": system, "damaged": False}] if ships.fresh else []
        out += [{"system": system, "damaged": True}] if ships.damaged else []
    return out


def _seek_decisions(call) -> list[Decision]:
    return [Decision(s, "each_scraps_a_loyal_ship", call.card, ship_choices(call.state, s))
            for s in turn_order(call.state) if ship_choices(call.state, s)]


def _seek_check(call) -> None:
    for d in _seek_decisions(call):
        if len(d.options) > 1 and call.answers.get(d.seat) not in d.options:
            raise BadParameter(f"{seat_name(d.seat)} must scrap one of its Loyal ships on the map")


def _seek_apply(call) -> dict:
    out = {}
    for d in _seek_decisions(call):
        pick = call.answers.get(d.seat) or d.options[0]
        scrap_loyal_ship(call.state, d.seat, pick["system"], pick["damaged"])
        out[str(d.seat)] = pick["system"]
    return {"event": "ships_scrapped", "card": call.card, "scrapped": out}


FATE_CRISIS_HANDLERS["each_discards_a_guild"] = CrisisHandler(
    apply=_pilgrimage_apply, decisions=_pilgrimage_decisions, check=_pilgrimage_check)
FATE_CRISIS_HANDLERS["each_scraps_a_loyal_ship"] = CrisisHandler(
    apply=_seek_apply, decisions=_seek_decisions, check=_seek_check)


class Scrap(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    ships: list[list[int]] = []  # [owner (a seat, or -2 the Empire), fresh, damaged]; [] scraps none


def ships_at(state: BlightedReachState, system: str) -> dict[int, tuple[int, int]]:
    """owner -> (fresh, damaged) of every ship in the system, Loyal and Imperial (no Flagship)."""
    here = state.systems[system]
    out = {s: (here.ships_of(s).fresh, here.ships_of(s).damaged) for s in range(len(state.players))
           if here.ships_of(s).total}
    imperial = board.imperial_ships(state, system)
    if imperial.total:
        out[EMPIRE] = (imperial.fresh, imperial.damaged)
    return out


def _scrap_candidates(env: Env, u: Use) -> list[dict]:
    if not portal_usable(env, u.seat):
        return [{"ships": []}]
    there = ships_at(env.state, env.state.portal)
    everything = [[o, f, d] for o, (f, d) in sorted(there.items())]
    others = [[o, f, d] for o, f, d in everything if o != u.seat]
    out = [{"ships": []}, *({"ships": [row]} for row in others)]
    return out + ([{"ships": everything}] if everything and everything != others else [])


@op("scrap_ships_at_portal", params=Scrap, candidates=_scrap_candidates,
    usable=lambda env, u: _campaign(env.state))
def scrap_ships_at_portal(env: Env, u: Use, choice: Scrap) -> None:
    """Controlling the Portal token, the securer scraps any number of ships in its system,
    anyone's (the Empire's too), and gains 2 Power for each; without control, nothing.
    # Reading: scrapping is no attack, so the Truce and Empathy for All do not read it."""
    state = env.state
    if not choice.ships:
        return
    if not portal_usable(env, u.seat):
        raise IllegalAction("you do not control the Portal token's system")
    there = ships_at(state, state.portal)
    owners = [row[0] for row in choice.ships]
    if len(set(owners)) != len(owners):
        raise BadParameter("name each owner once")
    for row in choice.ships:
        if len(row) != 3 or row[0] not in there or min(row[1:]) < 0 or row[1] > there[row[0]][0] \
                or row[2] > there[row[0]][1]:
            raise BadParameter(f"no such ships in {state.portal}: {row!r}")
    count = 0
    for owner, fresh, damaged in choice.ships:
        if owner == EMPIRE:
            pieces = state.imperial[state.portal]
            pieces.fresh -= fresh
            pieces.damaged -= damaged
            if not pieces.total:
                del state.imperial[state.portal]
        else:
            here = state.systems[state.portal].ships[owner]
            here.fresh -= fresh
            here.damaged -= damaged
        state.scrapped_ships.extend([owner] * (fresh + damaged))
        count += fresh + damaged
    state.players[u.seat].power += POWER_PER_SCRAPPED_SHIP * count
    env.emit("ships_scrapped", seat=u.seat, card=u.card, system=state.portal,
             ships=[list(r) for r in choice.ships], power=POWER_PER_SCRAPPED_SHIP * count)
