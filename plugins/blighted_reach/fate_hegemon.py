"""The Hegemon (Fate 10, a B Fate: cards F1001-F1012): the rules its cards name that the
data cannot say.

Act II
- F1001 (setup): `hegemon_flagship` asks where the Flagship stands and grants it on the
  Flagship rules (`plugins.flagships.rules.grant`: the Hegemon's Loyal buildings on the map
  become Free ones), puts a fresh starport from its supply on the Defense Array and on the
  Slipstream Drive (`fate_flagship.seat_starports`), replenishes the fleet at the Flagship to
  6 Loyal ships on the map (the Flagship not counted), then asks for 4 Loyal ships to scrap
  (`fate_blight_speaker.scrap_ship`: out of the campaign, `state.scrapped_ships`);
  `collect_banners` takes the 8 Banner tokens; data gains Planting Banners and Song of the
  Banner and adds Banners of Hegemony to the booklet. Its objective: at each chapter's end
  1 per Banner on the map, and 1 per Banner again if the Hegemon won any ambition in the
  chapter (`COUNT_RULES`/`CONDITION_RULES` here).
- F1002 Planting Banners: the Banners are the holder's Loyal pieces (`board.LOYAL_TOKENS`);
  the Prelude op `plant_banner` (the Flagship at a planet with no Banner and no ship or
  building that is not Loyal; as often as the supply lasts). Without a Flagship the card is
  scrapped (`_watch_cards`, after every step).
- F1003 Banners of Hegemony (booklet): Banners are harmed like buildings: a lone Banner can
  be battled (it is a Loyal piece of the Hegemon, `empire.check_defender`), and building hits
  on the Hegemon where its Banner stands are split by the attacker over the Banner and its
  buildings (`banner_building_hits`, `empire_battle.BUILDING_HIT_RULES`; decision
  `br.banner_hits`): 1 hit damages a fresh Banner, a damaged one hit is destroyed, the
  attacker's Trophy (no Outrage: `strike_banner`). Outside battles: Fire Rifles (L02) may
  take the Hegemon as defender at a lone Banner and split its hits onto it like a building's
  (`banner_room`/`strike_banner` through `lore_ops.BUILDING_LIKE`, the firer's Trophy);
  the cards that destroy buildings with no Trophy reach it through
  `board.BUILDING_TOKENS_DESTROYED` (`destroy_banner`: back to the Hegemon's supply):
  Terror Strike (F620/F621) a damaged one at an Outraged planet (sparing the securer's);
  Breaking Worlds (F1103, and the Planet-Eater's F1111) removes the Banner of the broken
  planet onto its card (its FAQ; `board.BUILDING_TOKENS_TO_WORLDS`, `state.banners_on_worlds`: lost to
  the Hegemon), and a Banner may be planted again on a broken world (its FAQ). The other harm outside battles (Incite Revolt, the Steward's reprisals, the
  Crises that destroy damaged ships) strikes ships only. A damaged Banner is repaired by the
  Hegemon's `repair_banner` (a Repair; on F1002, the Hegemon's card, as the law names no
  action of its own); damaged Banners are destroyed in the Intermission with the damaged
  buildings, and a Banner with Blight and no ship in its system too (`intermission_banners`);
  Banner Trophies score 2 more Power each for their holder when Warlord is scored
  (`warlord_banner_power`, through the campaign's `arcs_ambition_gains`). Banners are never
  raided (raids take resources and cards, never pieces: nothing to write).
  Banner Trophies are `Trophy(owner=BANNER, kind="banner")`; returned (Warlord's clean-up,
  the Intermission) they go back to the Hegemon's supply, which is implicit: 8 less those on
  the map, in Trophies and scrapped (`banners_in_supply`).
- F1004 Song of the Banner: its holder's moves treat every two Banner planets as adjacent
  (`banner_links`, `turn.MOVE_LINKS`); Call Spirits (a Tax, once per turn: 2 resources of a
  Banner planet's type) and Call Bodies (a Build, once per turn: 2 fresh ships at a Banner).
- F1005 (Resolution): data (the cards), with `scrap_banners_off_map` (failed).
Act III
- F1006 Mind Managers: the Influence op `manipulate`: a Rival the holder has a Captive of
  (an agent, or a ship taken by Pacify) shows its hand to the holder alone (`hand_shown`,
  a showing event of the base secrets); the holder takes 1 card (`take_card`, its prompt
  names the Rival's cards to the holder only) and gives 1 card of its own (`give_card`); the
  card events go to those two seats, the others see only who swapped with whom.
- F1007/F1008 Prison Wardens: reprints of BC12 (the base rules' Pressgang and Execute).
- F1009/F1010 Against Hegemony: its Crisis buries it (data); when secured the op
  `take_banners_as_trophies`, then data discards it; with no Banner on the map both are
  scrapped wherever they are (`due_scraps`, after every step: `fate_steward.AROUND_STEPS`).
- F1011 (setup): data gains Happy Hosts; its grand ambitions are `GOAL_RULES` here: no Rival
  wins Tyrant as it is scored, more Banners on the map than the chapter.
- F1012 Happy Hosts: the Secure op `pacify` captures every damaged ship that is not the
  holder's in the systems it controls (`state.ship_captives`, kept by `ship_captives`, counted
  for Tyrant by `scoring.COUNT_EXTRAS`, home when Tyrant's Captives return:
  `ship_captives_return`); when Tyrant's Captives return, the holder keeps 1 per Banner it
  controls or nobody controls (`hosts_allowance`), those it chooses when it has more
  (`hosts_keep_question`, before the clean-up; agents through `chapter.CAPTIVES_KEPT`, ships
  through `ship_captives.KEPT`). A captured ship is a Captive wherever one counts: Mind
  Managers, Prison Wardens' Pressgang and Execute (BC12 and its reprints F1007/F1008, through
  `court_ops.SHIP_CAPTIVES`), Summits' Transfer Asset (`piece` "ship"), the War Demand (the
  Steward's Govern with Authority too), the Pacifist's, the Survivalist's and the Judge's
  cards (see `ship_captives` for what a ship Captive becomes when it leaves).
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.seats import seat_name
from core.state import Action
from plugins.arcs import placing
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.content import box_for
from plugins.arcs.setup import place_ships
from plugins.arcs.state import Trophy
from plugins.blighted_reach import board, fates, objectives, ship_captives
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import decisions, steps
from plugins.flagships import rules as flagship_rules
from plugins.flagships.state import board_of, flagship_system

HEGEMON = "FATE10"
PLANTING = "F1002"
BANNERS_LAW = "F1003"
SONG = "F1004"
MIND_MANAGERS = "F1006"
AGAINST = ("F1009", "F1010")
BANNER_TOKENS = 8
BANNER = -4              # the owner of a Banner Trophy (FREE -1, EMPIRE -2, BLIGHT -3)
FLEET = 6                # F1001 step 3: the fleet replenished to 6 Loyal ships on the map
SCRAPPED = 4             # F1001 step 4: 4 Loyal ships scrapped
SETUP_STARPORTS = ("defense_array", "slipstream_drive")  # F1001 step 2
SPIRITS, BODIES = 2, 2   # F1004: resources gained, ships placed
WARLORD_BONUS = 2        # F1003: Power per Banner Trophy when Warlord is scored

standing("banners_of_hegemony", "banners_are_loyal", "scrap_without_banners", "happy_hosts_keep_captives")


def _campaign(state) -> bool:
    return isinstance(state, BlightedReachState) and state.game == "blighted-reach"


def holder_of(state: BlightedReachState, card: str) -> int:
    """The seat holding a Fate Set card in its play area, Guild cards or Lore, -1 for nobody."""
    where = fates.where_is(state, card)
    return int(where.split(":")[1]) if where.split(":")[0] in ("play_area", "guild", "lore") else -1


def hegemon(state: BlightedReachState) -> int:
    """The Banners' owner: the holder of Planting Banners, else the seat playing the Hegemon."""
    seat = holder_of(state, PLANTING)
    if seat >= 0:
        return seat
    return state.fates.index(HEGEMON) if HEGEMON in state.fates else -1


# -- the Banner tokens ---------------------------------------------------------------------


def banner_trophies(state: BlightedReachState) -> int:
    return sum(t.kind == "banner" for p in state.players for t in p.trophies)


def banners_in_supply(state: BlightedReachState) -> int:
    """The Hegemon's Banners neither on the map, in a Trophies box, scrapped nor on Breaking Worlds."""
    return (state.banner_set - len(state.banners) - banner_trophies(state) - state.banners_scrapped
            - state.banners_on_worlds)


def hegemon_problems(box, state: BlightedReachState) -> list[str]:
    out = []
    if not 0 <= state.banner_set <= BANNER_TOKENS or banners_in_supply(state) < 0:
        out.append("the Banner tokens are not the Hegemon's eight")
    if any(box.systems.get(s) is None for s in state.banners) or set(state.banners) - set(state.systems):
        out.append("a Banner token off the planets of the map")
    return out


def _banner_loyal(state: BlightedReachState, seat: int, system: str) -> bool:
    return system in state.banners and seat == hegemon(state)


board.LOYAL_TOKENS.append(_banner_loyal)


# -- F1001 the setup: Flagship, starports, the fleet replenished, 4 ships scrapped ------------


@fates.handler("hegemon_flagship")
def hegemon_flagship(ctx, seat: int, card_id: str, effect) -> None:
    """Steps 1-4, in order: the Flagship (asked), its starports, the fleet replenished at it,
    then the 4 ships scrapped (asked one by one). A seat that already has a Flagship keeps it."""
    from plugins.blighted_reach.fate_flagship import grant_then

    grant_then(ctx, seat, card_id, flagship_setup_rest)


@steps("hegemon_flagship_setup_rest")
def flagship_setup_rest(ctx, seat: int, why: str):
    _after_flagship(ctx, seat, why)


def loyal_ships_on_map(state: BlightedReachState, seat: int) -> int:
    """The seat's Loyal ships on the map, its Flagship not counted."""
    return sum(here.ships_of(seat).total for here in state.systems.values())


def replenish_at_flagship(state: BlightedReachState, seat: int) -> int:
    """Step 3: below 6 Loyal ships on the map (the Flagship aside), ships from the supply at
    the Flagship until 6 (as many as the supply has, G-3). Returns the ships placed."""
    where = flagship_system(state, seat)
    short = FLEET - loyal_ships_on_map(state, seat)
    return place_ships(state, where, seat, short) if where and short > 0 else 0


def _after_flagship(ctx, seat: int, why: str) -> None:
    from plugins.blighted_reach.fate_flagship import seat_starports

    state = ctx.state
    ctx.emit("flagship_starports", seat=seat, upgrades=seat_starports(state, seat, SETUP_STARPORTS), why=why)
    placed = replenish_at_flagship(state, seat)
    ctx.emit("ships_placed", seat=seat, system=flagship_system(state, seat), count=placed, why=why)
    ctx.push(scrap_next, seat=seat, left=SCRAPPED, why=why)


@steps("hegemon_scrap_next")
def scrap_next(ctx, seat: int, left: int, why: str):
    """Step 4: "any 4 Loyal ships": each from the supply or a system of the Hegemon's choice.
    # Reading: as for the Blight Speaker's F1301, a ship in the supply is a Loyal ship too;
    # the Flagship is never one of them (it cannot leave the map, BR-267)."""
    from plugins.blighted_reach.fate_blight_speaker import scrap_options

    options = scrap_options(ctx.state, seat) if left > 0 else []
    if options:
        ctx.ask(seat, "scrap_ship", [Action("scrap_ship", o) for o in options], resume=scrap_chosen,
                left=left, why=why)


@steps("hegemon_scrap_chosen")
def scrap_chosen(ctx, seat, params, left: int, why: str):
    from plugins.blighted_reach.fate_blight_speaker import scrap_options, scrap_ship

    if params.get("where") not in [o["where"] for o in scrap_options(ctx.state, seat)]:
        raise BadParameter(f"no Loyal ship of yours at {params.get('where')!r}")
    scrap_ship(ctx.state, seat, params["where"])
    ctx.emit("ship_scrapped", seat=seat, where=params["where"], why=why)
    ctx.push(scrap_next, seat=seat, left=left - 1, why=why)


@fates.handler("collect_banners")
def collect_banners(ctx, seat: int, card_id: str, effect) -> None:
    """Step 5: the 8 Banner tokens into the Hegemon's supply (once: Act III keeps them)."""
    state = ctx.state
    if not state.banner_set:
        state.banner_set = BANNER_TOKENS
    ctx.emit("banners_collected", seat=seat, count=banners_in_supply(state), why=card_id)


# -- F1001 the objective ----------------------------------------------------------------------


def _won_an_ambition(box, cbox, state, seat, score=None, ambition="") -> bool:
    """The seat wins at least one ambition in the chapter being scored (read before the
    boxes are cleared, as `chapter_score` reads them)."""
    score = score if score is not None else objectives.chapter_score(box, cbox, state)
    return bool(score.won_by(seat))


objectives.COUNT_RULES["banner_on_map"] = lambda box, cbox, state, seat, score, ambition: len(state.banners)
objectives.CONDITION_RULES["won_an_ambition"] = _won_an_ambition


# -- F1002 Planting Banners: the Prelude ---------------------------------------------------------


def _only_loyal_there(state: BlightedReachState, seat: int, system: str) -> bool:
    """No ship or building in the system that is not the seat's Loyal one: no Rival's, no
    Imperial ship, no Free building, no other Flagship.
    # Reading: Blight is neither a ship nor a building, so it does not stop a Banner."""
    here = state.systems[system]
    if any(here.ships_of(s).total for s in range(len(state.players)) if s != seat):
        return False
    if board.imperial_ships(state, system).total or any(b.owner != seat for b in here.buildings):
        return False
    return set(flagship_rules.flagships_in(state, system)) <= {seat}


def banner_site(env: Env, seat: int) -> str:
    """The planet the seat's Flagship is at when a Banner may be planted there, else ""."""
    state = env.state
    where = flagship_system(state, seat)
    if not where or env.box.systems.get(where) is None or where in state.banners:
        return ""
    if seat != hegemon(state) or banners_in_supply(state) <= 0 or not _only_loyal_there(state, seat, where):
        return ""
    return where


@op("plant_banner", usable=lambda env, u: _campaign(env.state) and bool(banner_site(env, u.seat)))
def plant_banner(env: Env, u: Use, choice=None) -> None:
    """A fresh Banner from the supply at the Flagship's planet."""
    planet = banner_site(env, u.seat)
    if not planet:
        raise IllegalAction("no Banner can be planted at your Flagship's planet")
    env.state.banners[planet] = False
    env.emit("banner_planted", seat=u.seat, planet=planet, card=u.card)


# -- F1003 Banners of Hegemony: repair, the Intermission, Warlord --------------------------------------


class AtBanner(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    planet: str


def damaged_banners(state: BlightedReachState) -> list[str]:
    return sorted(p for p, damaged in state.banners.items() if damaged)


@op("repair_banner", params=AtBanner,
    candidates=lambda env, u: [{"planet": p} for p in damaged_banners(env.state)] if u.seat == hegemon(env.state) else [],
    usable=lambda env, u: _campaign(env.state) and u.seat == hegemon(env.state) and bool(damaged_banners(env.state)))
def repair_banner(env: Env, u: Use, choice: AtBanner) -> None:
    """A Repair of one damaged Banner (the Hegemon's piece, as a building of its own is).
    # Reading: a building is repaired by its owner wherever it stands (ARCS repair needs no
    # control), so any damaged Banner may be repaired by the Hegemon."""
    state = env.state
    if u.seat != hegemon(state):
        raise IllegalAction("only the Hegemon repairs its Banners")
    if not state.banners.get(choice.planet):
        raise BadParameter(f"no damaged Banner at {choice.planet!r}")
    state.banners[choice.planet] = False
    env.emit("repaired", seat=u.seat, system=choice.planet, piece="banner", card=u.card)


def intermission_banners(state: BlightedReachState) -> None:
    """Intermission D: damaged Banners are destroyed with the damaged buildings (BR-340),
    and a Banner whose system has Blight and no ship (BR-342); back to the supply, no
    Trophy (no player destroys them)."""
    for planet in list(state.banners):
        here = state.systems.get(planet)
        no_ships = here is None or not (any(s.total for s in here.ships) or board.imperial_ships(state, planet).total
                                        or flagship_rules.flagships_in(state, planet))
        if state.banners[planet] or (board.blight(state, planet).total and no_ships):
            del state.banners[planet]


def _register_intermission() -> None:
    from plugins.blighted_reach.intermission import INTERMISSION_HOOKS

    INTERMISSION_HOOKS["repair_and_destroy"].append(intermission_banners)


_register_intermission()
fates.WAITS.add("hegemon_flagship")  # the rest of F1001 once the Flagship and its steps are done


def warlord_banner_power(state: BlightedReachState, gains: dict[int, int]) -> dict[int, int]:
    """Warlord scored: 2 more Power per Banner Trophy to each holder, placed or not."""
    out = dict(gains)
    for seat, player in enumerate(state.players):
        extra = WARLORD_BONUS * sum(t.kind == "banner" for t in player.trophies)
        if extra:
            out[seat] = out.get(seat, 0) + extra
    return out


# -- F1004 Song of the Banner -------------------------------------------------------------------------


def _used_this_turn(state: BlightedReachState, what: str) -> bool:
    from plugins.blighted_reach.fate_overlord import turn_key

    return state.hegemon_turns.get(what) == turn_key(state)


def _mark_used(state: BlightedReachState, what: str) -> None:
    from plugins.blighted_reach.fate_overlord import turn_key

    state.hegemon_turns = {**state.hegemon_turns, what: turn_key(state)}


def _banner_candidates(what: str):
    def candidates(env: Env, u: Use) -> list[dict]:
        if _used_this_turn(env.state, what):
            return []
        return [{"planet": p} for p in sorted(env.state.banners)]
    return candidates


@op("call_spirits", params=AtBanner, candidates=_banner_candidates("call_spirits"),
    usable=lambda env, u: _campaign(env.state) and bool(_banner_candidates("call_spirits")(env, u)))
def call_spirits(env: Env, u: Use, choice: AtBanner) -> None:
    """Call Spirits (a Tax), once per turn: 2 resources of the type of a planet with a
    Banner (as many as the supply has, ARCS-207)."""
    state = env.state
    if _used_this_turn(state, "call_spirits"):
        raise IllegalAction("Call Spirits was used this turn already")
    if choice.planet not in state.banners:
        raise BadParameter(f"no Banner at {choice.planet!r}")
    kind = env.box.systems[choice.planet].type
    got = sum(placing.gain(state, u.seat, kind) for _ in range(SPIRITS))
    _mark_used(state, "call_spirits")
    env.emit("spirits_called", seat=u.seat, planet=choice.planet, resource=kind, count=got, card=u.card)


@op("call_bodies", params=AtBanner, candidates=_banner_candidates("call_bodies"),
    usable=lambda env, u: _campaign(env.state) and bool(_banner_candidates("call_bodies")(env, u)))
def call_bodies(env: Env, u: Use, choice: AtBanner) -> None:
    """Call Bodies (a Build), once per turn: 2 fresh ships at a Banner (as many as the
    supply has)."""
    state = env.state
    if _used_this_turn(state, "call_bodies"):
        raise IllegalAction("Call Bodies was used this turn already")
    if choice.planet not in state.banners:
        raise BadParameter(f"no Banner at {choice.planet!r}")
    placed = place_ships(state, choice.planet, u.seat, BODIES)
    _mark_used(state, "call_bodies")
    env.emit("bodies_called", seat=u.seat, planet=choice.planet, ships=placed, card=u.card)


# -- F1005 the Resolution -------------------------------------------------------------------------------


@fates.handler("scrap_banners_off_map")
def scrap_banners_off_map(ctx, seat: int, card_id: str, effect) -> None:
    """F1005 failed, step 3: every Banner not on the map (the supply's and the Trophies')
    leaves the campaign."""
    state = ctx.state
    for player in state.players:
        player.trophies = [t for t in player.trophies if t.kind != "banner"]
    count = state.banner_set - len(state.banners) - state.banners_scrapped
    state.banners_scrapped += count
    ctx.emit("banners_scrapped", seat=seat, count=count, why=card_id)


# -- F1006 Mind Managers: Manipulate ---------------------------------------------------------------------


class Rival(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    rival: int


def captive_owners(state: BlightedReachState, seat: int) -> set[int]:
    """The owners of the seat's Captives: agents, and ships taken by Pacify (F1012)."""
    return set(state.players[seat].captives) | set(state.ship_captives.get(str(seat), []))


def manipulable(state: BlightedReachState, seat: int) -> list[int]:
    """The Rivals the seat holds a Captive of."""
    return sorted(r for r in captive_owners(state, seat) if 0 <= r < len(state.players) and r != seat)


@op("manipulate", params=Rival, candidates=lambda env, u: [{"rival": r} for r in manipulable(env.state, u.seat)],
    usable=lambda env, u: _campaign(env.state) and bool(manipulable(env.state, u.seat)))
def manipulate(env: Env, u: Use, choice: Rival) -> None:
    """Manipulate (an Influence): the chosen Rival's hand is shown to the holder alone; then
    the holder takes 1 card of it and gives 1 card of its own hand (asked after this action,
    the Rival's cards named in the holder's prompt only)."""
    state = env.state
    if choice.rival not in manipulable(state, u.seat):
        raise IllegalAction(f"you hold no Captive of {seat_name(choice.rival)}")
    env.emit("hand_shown", to=[u.seat], public={"seat": u.seat, "rival": choice.rival},
             seat=u.seat, rival=choice.rival, cards=list(state.hands[choice.rival]), card=u.card)
    if env.chance is not None:  # (None on the check's trial copy: nothing follows there)
        env.chance.push(manipulate_take_ask, seat=u.seat, rival=choice.rival)


@steps("hegemon_manipulate_take_ask")
def manipulate_take_ask(ctx, seat: int, rival: int):
    options = [Action("take_card", {"card": c}) for c in sorted(set(ctx.state.hands[rival]))]
    if not options:
        ctx.push(manipulate_give_ask, seat=seat, rival=rival)
        return
    ctx.ask(seat, "take_card", options, resume=manipulate_taken, rival=rival)


@steps("hegemon_manipulate_taken")
def manipulate_taken(ctx, seat, params, rival: int):
    state = ctx.state
    card = params.get("card")
    if card not in state.hands[rival]:
        raise BadParameter(f"{card!r} is not in {seat_name(rival)}'s hand")
    state.hands[rival].remove(card)
    state.hands[seat].append(card)
    ctx.emit("card_taken", to=[seat, rival], public={"seat": seat, "rival": rival}, seat=seat, rival=rival, card=card)
    ctx.push(manipulate_give_ask, seat=seat, rival=rival)


@steps("hegemon_manipulate_give_ask")
def manipulate_give_ask(ctx, seat: int, rival: int):
    """"Then give any card from your hand": the card just taken may be given back."""
    options = [Action("give_card", {"card": c}) for c in sorted(set(ctx.state.hands[seat]))]
    if options:
        ctx.ask(seat, "give_card", options, resume=manipulate_given, rival=rival)


@steps("hegemon_manipulate_given")
def manipulate_given(ctx, seat, params, rival: int):
    state = ctx.state
    card = params.get("card")
    if card not in state.hands[seat]:
        raise BadParameter(f"{card!r} is not in your hand")
    state.hands[seat].remove(card)
    state.hands[rival].append(card)
    ctx.emit("card_given", to=[seat, rival], public={"seat": seat, "rival": rival}, seat=seat, rival=rival, card=card)


# -- F1009/F1010 Against Hegemony --------------------------------------------------------------------------


class Banners(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    planets: list[str] = []  # [] takes none


def controlled_banners(state: BlightedReachState, seat: int) -> list[str]:
    return sorted(p for p in state.banners if board.controls_on_turn(state, seat, p))


def _against_candidates(env: Env, u: Use) -> list[dict]:
    mine = controlled_banners(env.state, u.seat)
    return [{"planets": []}, *({"planets": [p]} for p in mine)] + ([{"planets": mine}] if len(mine) > 1 else [])


@op("take_banners_as_trophies", params=Banners, candidates=_against_candidates,
    usable=lambda env, u: _campaign(env.state))
def take_banners_as_trophies(env: Env, u: Use, choice: Banners) -> None:
    """When secured: any Banners in systems the securer controls leave the map as its
    Trophies (the Hegemon's own securing too: the card names no exception)."""
    state = env.state
    if len(set(choice.planets)) != len(choice.planets):
        raise BadParameter("name each Banner once")
    mine = controlled_banners(state, u.seat)
    if not set(choice.planets) <= set(mine):
        raise IllegalAction("take only Banners in systems you control")
    for planet in choice.planets:
        del state.banners[planet]
        state.players[u.seat].trophies.append(Trophy(owner=BANNER, kind="banner"))
    if choice.planets:
        env.emit("banners_taken", seat=u.seat, planets=list(choice.planets), card=u.card)


# -- standing scraps: Planting Banners without a Flagship, Against Hegemony without Banners ----------------


def due_scraps(state: BlightedReachState) -> list[str]:
    """Fate Set cards whose own text scraps them now: Planting Banners held with no Flagship;
    each Against Hegemony (outside a resolution in progress) once no Banner is on the map
    after the Banners were collected.
    # Reading: "Scrap this if ..." is a standing condition, read after every step."""
    from plugins.blighted_reach.fate_steps import place_of

    out = []
    seat = holder_of(state, PLANTING)
    if seat >= 0 and board_of(state, seat) is None:
        out.append(PLANTING)
    if state.banner_set and not state.banners:
        out += [c for c in AGAINST if place_of(state, c) not in ("", "scrapped", "resolving")]
    return out


def _scraps_note(state) -> None:
    return None


def _scraps_watch(ctx, noted) -> None:
    from plugins.blighted_reach.fate_steps import lift

    state = ctx.state
    if not _campaign(state) or not state.banner_set:
        return
    for card in due_scraps(state):
        if lift(state, card):
            state.scrapped.append(card)
            ctx.emit("card_scrapped", card=card, why="scrap_condition")


def _register_watch() -> None:
    from plugins.blighted_reach.fate_steward import AROUND_STEPS

    AROUND_STEPS.append((_scraps_note, _scraps_watch))


_register_watch()


# -- F1011 the grand ambitions --------------------------------------------------------------------------------


def rival_wins_tyrant(state: BlightedReachState, seat: int) -> bool:
    """A Rival of the seat wins Tyrant as it is scored now (declared, sole first)."""
    if not state.ambition_boxes.get("tyrant"):
        return False
    winner = objectives.sole_first(objectives.standings(box_for(state), campaign_box(), state, "tyrant"))
    return winner in board.rivals(state, seat)


objectives.GOAL_RULES["no_rival_wins_tyrant"] = lambda box, cbox, state, seat: not rival_wins_tyrant(state, seat)
objectives.GOAL_RULES["banners_on_map_above_chapter"] = (
    lambda box, cbox, state, seat: seat == hegemon(state) and len(state.banners) > state.chapter)


# -- F1012 Happy Hosts -----------------------------------------------------------------------------------------


def pacify_targets(state: BlightedReachState, seat: int) -> dict[str, dict[int, int]]:
    """system -> {owner: damaged ships} of every damaged ship that is not the seat's, in the
    systems the seat controls: Rivals' and Imperial ones (a Flagship is no ship to capture:
    it cannot leave the map, BR-267)."""
    out: dict[str, dict[int, int]] = {}
    for system in sorted(state.systems):
        if not board.controls_on_turn(state, seat, system):
            continue
        here = state.systems[system]
        found = {s: here.ships_of(s).damaged for s in range(len(state.players)) if s != seat and here.ships_of(s).damaged}
        if board.imperial_ships(state, system).damaged:
            found[board.EMPIRE] = board.imperial_ships(state, system).damaged
        if found:
            out[system] = found
    return out


@op("pacify", usable=lambda env, u: _campaign(env.state))
def pacify(env: Env, u: Use, choice=None) -> None:
    """Pacify (a Secure): every damaged non-Loyal ship in the systems the holder controls
    becomes its Captive (kept apart, `state.ship_captives`, and counted as Captives).
    # Reading: a captured ship is a Captive like an agent: it counts for Tyrant and goes
    # back to its owner's supply (the Empire's for an Imperial ship) when Captives return."""
    state = env.state
    taken = pacify_targets(state, u.seat)
    held = list(state.ship_captives.get(str(u.seat), []))
    for system, owners in taken.items():
        for owner, count in owners.items():
            if owner == board.EMPIRE:
                pieces = state.imperial[system]
                pieces.damaged -= count
                if not pieces.total:
                    del state.imperial[system]
            else:
                state.systems[system].ships[owner].damaged -= count
            held += [owner] * count
    state.ship_captives = {**state.ship_captives, str(u.seat): held}
    env.emit("ships_captured", seat=u.seat, card=u.card,
             ships={s: {str(o): n for o, n in owners.items()} for s, owners in taken.items()})


def ship_captives_of(state: BlightedReachState, seat: int) -> list[int]:
    return ship_captives.held(state, seat)


def _count_ship_captives(box, state, seat: int, ambition: str) -> int:
    """`scoring.COUNT_EXTRAS`: Tyrant counts the ships captured by Pacify."""
    return len(ship_captives_of(state, seat)) if ambition == "tyrant" else 0


def hosts_allowance(state: BlightedReachState, seat: int) -> int:
    """Happy Hosts: the Captives its holder may keep when Captives return in scoring, one per
    Banner it controls or nobody controls."""
    if not _campaign(state) or holder_of(state, "F1012") != seat:
        return 0
    return sum(board.controller(state, p) in (None, seat) for p in state.banners)


def hosts_tokens(state: BlightedReachState, seat: int) -> list[str]:
    """The seat's Captives, each named by kind and owner: "agent:<owner>", "ship:<owner>"."""
    return [*(f"agent:{o}" for o in state.players[seat].captives), *(f"ship:{o}" for o in ship_captives_of(state, seat))]


def kept_tokens(state: BlightedReachState, seat: int) -> list[str]:
    """The Captives Happy Hosts' holder keeps: all of them when they fit its allowance, else
    those it chose (`hosts_keep_question`); the first ones taken if it was never asked."""
    n, tokens = hosts_allowance(state, seat), hosts_tokens(state, seat)
    if n <= 0:
        return []
    if len(tokens) <= n:
        return tokens
    chosen, left = [], list(tokens)
    for token in state.hosts_kept:
        if token in left:
            left.remove(token)
            chosen.append(token)
    return chosen if len(chosen) == n else tokens[:n]


def agents_kept(state: BlightedReachState, seat: int) -> list[int] | None:
    """`chapter.CAPTIVES_KEPT`: the owners of the agent Captives Happy Hosts' holder keeps;
    None for a seat it keeps nothing for (the next rule's)."""
    if hosts_allowance(state, seat) <= 0:
        return None
    return [int(t.split(":")[1]) for t in kept_tokens(state, seat) if t.startswith("agent:")]


def ships_kept(state: BlightedReachState, seat: int) -> list[int] | None:
    """`ship_captives.KEPT`: the owners of the ship Captives Happy Hosts' holder keeps."""
    if hosts_allowance(state, seat) <= 0:
        return None
    return [int(t.split(":")[1]) for t in kept_tokens(state, seat) if t.startswith("ship:")]


def keep_options(state: BlightedReachState, seat: int) -> list[list[str]]:
    from itertools import combinations

    return [list(c) for c in sorted(set(combinations(sorted(hosts_tokens(state, seat)), hosts_allowance(state, seat))))]


@hookimpl(specname="arcs_chapter_scored")
def hosts_keep_question(ctx) -> None:
    """Tyrant declared and more Captives than Happy Hosts lets its holder keep: the holder
    chooses now (before the clean-up) which it keeps ("you may keep": it keeps as many as it
    may, which only helps it)."""
    state = ctx.state
    if not _campaign(state) or not state.ambition_boxes.get("tyrant"):
        return
    state.hosts_kept = []
    seat = holder_of(state, "F1012")
    if seat >= 0 and 0 < hosts_allowance(state, seat) < len(hosts_tokens(state, seat)):
        ctx.push(hosts_ask_keep, seat=seat)


@steps("hegemon_hosts_ask_keep")
def hosts_ask_keep(ctx, seat: int):
    options = [Action("keep_captives", {"captives": c}) for c in keep_options(ctx.state, seat)]
    ctx.ask(seat, "keep_captives", options, resume=hosts_kept_chosen)


@steps("hegemon_hosts_kept_chosen")
def hosts_kept_chosen(ctx, seat, params):
    if list(params.get("captives", [])) not in keep_options(ctx.state, seat):
        raise BadParameter("keep as many of your Captives as Happy Hosts allows, named as offered")
    ctx.state.hosts_kept = list(params["captives"])
    ctx.emit("captives_kept", seat=seat, captives=list(params["captives"]), card="F1012")


def _register_scoring() -> None:
    from plugins.arcs import chapter, court_ops, scoring

    court_ops.SHIP_CAPTIVES.append(court_ops.ShipCaptives(
        held=ship_captives.held, take=ship_captives.take, send_home=ship_captives.send_home))
    scoring.COUNT_EXTRAS.append(_count_ship_captives)
    chapter.CAPTIVES_KEPT.append(agents_kept)
    ship_captives.KEPT.append(ships_kept)


_register_scoring()


@hookimpl(specname="arcs_chapter_clean_up")
def ship_captives_return(ctx, scored):
    """Tyrant scored: the captured ships go back to their owners' supplies, but those a rule
    lets their holder keep (`ship_captives.KEPT`: Happy Hosts' `kept_tokens`, Vow of Survival)."""
    state = ctx.state
    if "tyrant" not in scored or not _campaign(state) or not state.ship_captives:
        return
    out = {}
    for key, owners in state.ship_captives.items():
        kept = ship_captives.kept(state, int(key))
        stay = []
        for owner in owners:
            if owner in kept:
                kept.remove(owner)
                stay.append(owner)
            elif owner == board.EMPIRE:
                state.imperial_supply += 1
            else:
                state.players[owner].ships += 1
        out[key] = stay
    ctx.emit("ship_captives_returned", kept={k: len(v) for k, v in out.items()})
    state.ship_captives = {k: v for k, v in out.items() if v}


def ships_elsewhere(state: BlightedReachState) -> list[tuple[int, str]]:
    """(owner, "ship") for each player's ship held as a Captive (the invariants' count)."""
    return [(o, "ship") for owners in state.ship_captives.values() for o in owners if o >= 0]


def imperial_captives(state: BlightedReachState) -> int:
    return sum(o == board.EMPIRE for owners in state.ship_captives.values() for o in owners)


# -- F1003 Banners of Hegemony: harmed like buildings, in battle and out of it ---------------------------------


def banner_room(state, system: str, owner: int) -> int:
    """The hits the Banner in `system` can still take as `owner`'s piece: 2 fresh, 1 damaged,
    0 where `owner` has no Banner."""
    if not _campaign(state) or system not in state.banners or owner != hegemon(state) or owner < 0:
        return 0
    return 1 if state.banners[system] else 2


def strike_banner(state: BlightedReachState, system: str, hits: int, taker: int = -1) -> bool:
    """Hits on the Banner in `system`, as on a building: 1 damages a fresh one; a damaged one
    hit, or a fresh one hit twice, is destroyed: the `taker`'s Trophy (no Outrage: a Banner is
    no city), or back to the Hegemon's supply when no player destroys it (`taker` -1).
    Returns whether it was destroyed."""
    if hits <= 0 or system not in state.banners:
        return False
    if state.banners[system] or hits >= 2:
        del state.banners[system]
        if taker >= 0:
            state.players[taker].trophies.append(Trophy(owner=BANNER, kind="banner"))
        return True
    state.banners[system] = True
    return False


def destroy_banner(state: BlightedReachState, system: str, damaged_only: bool = False, spare: int | None = None) -> bool:
    """A card's "destroy the buildings" reaching the Banner in `system` (nobody's Trophy: it
    goes back to the Hegemon's supply): every Banner, or with `damaged_only` a damaged one;
    none when `spare` is the Hegemon (a card sparing its user's own pieces)."""
    if system not in state.banners or (damaged_only and not state.banners[system]):
        return False
    if spare is not None and spare == hegemon(state):
        return False
    del state.banners[system]
    return True


board.BUILDING_TOKENS_DESTROYED.append(destroy_banner)


# Breaking Worlds removes the Banner of the planet it breaks onto its card (its FAQ): out of
# the Hegemon's reach for the rest of the campaign.
board.BUILDING_TOKENS_TO_WORLDS.append(("banner", "banners", "banners_on_worlds"))


def _register_rifles() -> None:
    from plugins.arcs import lore_ops

    lore_ops.BUILDING_LIKE.append(lore_ops.BuildingLike(
        room=banner_room, strike=lambda state, seat, system, owner, hits: strike_banner(state, system, hits, seat)))


_register_rifles()


class BannerSplit(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    banner: int  # building hits on the Banner; the rest go on to the defender's buildings


def _building_room(state: BlightedReachState, system: str, defender: int) -> int:
    return sum(1 if b.damaged else 2 for b in state.systems[system].buildings if b.owner == defender)


def _landing(state: BlightedReachState, hits: int) -> int:
    """The building hits that land: as many as the Banner and the defender's buildings can take."""
    b = state.battle
    return min(hits, _building_room(state, b.system, b.defender) + (1 if state.banners[b.system] else 2))


def banner_hit_range(state: BlightedReachState, hits: int) -> tuple[int, int]:
    """(fewest, most) building hits the Banner of the battle system takes: every hit that can
    land does, the Banner and the defender's buildings together."""
    b = state.battle
    need = _landing(state, hits)
    return max(0, need - _building_room(state, b.system, b.defender)), min(1 if state.banners[b.system] else 2, need)


def _banner_struck(state: BlightedReachState) -> bool:
    b = state.battle
    return b is not None and b.defender >= 0 and b.defender == hegemon(state) and b.system in state.banners


def banner_building_hits(ctx) -> bool:
    """`empire_battle.BUILDING_HIT_RULES`: building hits on the Hegemon where its Banner
    stands: the attacker splits them over the Banner and the Hegemon's buildings (as the base
    rules let the attacker place building hits), then the buildings' part is the base flow's."""
    state = ctx.state
    if not _banner_struck(state):
        return False
    b = state.battle
    hits, b.building_hit = b.building_hit, 0
    low, high = banner_hit_range(state, hits)
    if low == high:
        _hit_banner(ctx, hits, low)
    else:
        ctx.decide(b.attacker, "br.banner_hits", resume=banner_hits_done, hits=hits)
    return True


def _hit_banner(ctx, hits: int, on_banner: int) -> None:
    """The Banner takes its hits (`strike_banner`, the attacker's Trophy); the rest go on to
    the buildings by the base flow."""
    from plugins.arcs.battle_flow import building_hits, resolve

    state, b = ctx.state, ctx.state.battle
    rest = _landing(state, hits) - on_banner
    if on_banner:
        destroyed = strike_banner(state, b.system, on_banner, b.attacker)
        ctx.emit("banner_hit", system=b.system, owner=b.defender, hits=on_banner, destroyed=destroyed)
    if rest > 0:
        building_hits(ctx, rest)
    else:
        ctx.push(resolve)


def _register_battle() -> None:
    from plugins.blighted_reach.empire_battle import BUILDING_HIT_RULES

    BUILDING_HIT_RULES.append(banner_building_hits)


_register_battle()


@decisions.kind("banner_hits", answer="assign_banner_hits", params=BannerSplit,
                describe="Split the building hits over the Hegemon's Banner and its buildings.")
def check_banner_hits(state, seat, prompt, answer: BannerSplit):
    low, high = banner_hit_range(state, prompt.args["hits"])
    if isinstance(answer.banner, bool) or not low <= answer.banner <= high:
        raise BadParameter(f"the Banner takes {low} to {high} of the building hits")


@check_banner_hits.candidates
def _banner_hit_options(state, seat, prompt):
    low, high = banner_hit_range(state, prompt.args["hits"])
    for n in range(low, high + 1):
        yield {"banner": n}


@steps("hegemon_banner_hits_done")
def banner_hits_done(ctx, seat, params: BannerSplit, hits: int):
    _hit_banner(ctx, hits, params.banner)


# -- F1004 Song of the Banner: moves between Banners ---------------------------------------------------------


def banner_links(state, seat: int) -> list[tuple[str, str]]:
    """`turn.MOVE_LINKS`: for the holder of Song of the Banner, every two planets with
    Banners are adjacent for its moves (Loyal ships and its Flagship alike).
    # Reading: "as if they were adjacent" adds one step between them; everything else a move
    # checks (ships, Catapults through gates, the Empire's laws) is unchanged."""
    if not _campaign(state) or SONG not in state.players[seat].lore or len(state.banners) < 2:
        return []
    planets = sorted(state.banners)
    return [(a, b) for i, a in enumerate(planets) for b in planets[i + 1:]]


def _register_moves() -> None:
    from plugins.arcs import turn

    turn.MOVE_LINKS.append(banner_links)


_register_moves()
