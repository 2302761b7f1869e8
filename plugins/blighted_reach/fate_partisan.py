"""The Partisan (FATE06): its Fate Set's rules that the card data cannot say.

Act I: Informants (F602) Spy: the holder's highest-numbered action card to a Rival, then
theirs back. Partisan Seizing (F603; in Acts II and III the law F616 in the booklet, for
everyone): no seizing by a second card face down; instead, on playing a card, seize by
Provoking Outrage of a type not yet Outraged (`arcs_seize_offer`). The objective (F601)
advances each time the Partisan gets the initiative marker (`initiative_gains`, read after
every action from the events that moved the marker) and for ambitions won without Outrage in
what they count. The Resolution's failure clears the Partisan's Outrage.
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.seats import seat_name
from core.state import Action
from plugins.arcs import plays
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.content import box_for
from plugins.arcs.court_ops import used_this_turn
from plugins.arcs.lore_ops import buildings_removed
from plugins.arcs.outrage import clear_outrage, provoke_outrage
from plugins.arcs.scoring import ICONS
from plugins.blighted_reach import board, crises, fate_believer, fates, free_states, objectives
from plugins.blighted_reach.campaign import CARRIED_FIELDS
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler
from plugins.blighted_reach.intermission import INTERMISSION_HOOKS, return_piece
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

GAME_ID = "blighted-reach"
PARTISAN = "FATE06"
SEIZING_CARD = "F603"   # Partisan Seizing, the Partisan's own ability card (Act I)
SEIZING_LAW = "F616"    # Partisan Seizing as a law in the booklet (Acts II and III): everyone

# The resources an ambition counts, as the Partisan's "Appeal to Your Supporters" reads them:
# the base icons, and Warlord's Weapons (the card: Weapon Outrage stops a Warlord advance).
AMBITION_RESOURCES = {**ICONS, "warlord": ("weapon",), "tyrant": ()}

standing("seize_by_provoking_outrage", "scrap_and_clear_outrage_unless_partisan")


def _markers_set(state: BlightedReachState) -> bool:
    """Objective advances need the markers on the track (Act setup step D / G)."""
    return len(state.objective_markers) == len(state.players)


# -- Informants (F602): Spy ----------------------------------------------------------------
def card_number(card: str) -> int | None:
    """An action card's number (a base card's, or a Believer's Faithful card's, 1-9); None for
    a card without one. Reading: an Event card has no number, so it is never a Spy's
    "highest number"."""
    if fate_believer.is_faithful(card):
        return fate_believer.number(card)
    box = rules_box()
    if not plays.is_action_card(box, card):
        return None
    return plays.card(box, card).number


def highest(hand: list[str]) -> list[str]:
    """The hand's action cards of its highest number (several suits can tie)."""
    numbered = [(card_number(c), c) for c in hand]
    numbered = [(n, c) for n, c in numbered if n is not None]
    if not numbered:
        return []
    top = max(n for n, _ in numbered)
    return [c for n, c in numbered if n == top]


class Spy(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    rival: int
    card: str = ""  # which of the holder's tied highest cards to give ("" when only one)


def _key(u: Use) -> str:
    return f"{u.card}:{u.index}"


def _spy_candidates(env: Env, u: Use) -> list[dict]:
    mine = highest(env.state.hands[u.seat])
    rivals = [r for r in range(len(env.state.players)) if r != u.seat]
    if len(mine) == 1:
        return [{"rival": r} for r in rivals]
    return [{"rival": r, "card": c} for r in rivals for c in mine]


def _spy_usable(env: Env, u: Use) -> bool:
    return _key(u) not in used_this_turn(env, u) and bool(highest(env.state.hands[u.seat]))


@op("spy_swap_highest_cards", params=Spy, candidates=_spy_candidates, usable=_spy_usable)
def informants_spy(env: Env, u: Use, choice: Spy) -> None:
    """Informants (F602) Spy, an Influence, once per turn: the holder gives its highest-numbered
    action card (naming one of several tied) to a Rival, who then gives back its own highest,
    which may be that same card. A Rival with several tied chooses which (`spy_return`)."""
    state = env.state
    if _key(u) in used_this_turn(env, u):
        raise IllegalAction(f"{u.card} was used this turn already")
    if isinstance(choice.rival, bool) or not 0 <= choice.rival < len(state.players) or choice.rival == u.seat:
        raise BadParameter(f"{seat_name(choice.rival)} is not a Rival of {seat_name(u.seat)}")
    mine = highest(state.hands[u.seat])
    if not mine:
        raise IllegalAction("you hold no numbered action card to give")
    given = choice.card or (mine[0] if len(mine) == 1 else "")
    if given not in mine:
        raise BadParameter(f"give one of your highest cards {mine}, not {choice.card!r}")
    state.hands[u.seat].remove(given)
    state.hands[choice.rival].append(given)
    used_this_turn(env, u).append(_key(u))
    env.emit("spy_gave", to=[u.seat, choice.rival], public={"seat": u.seat, "rival": choice.rival},
             seat=u.seat, rival=choice.rival, card=given)
    theirs = highest(state.hands[choice.rival])
    if len(theirs) == 1:
        _give_back(env.emit, state, choice.rival, u.seat, theirs[0])
    elif env.chance is not None and hasattr(env.chance, "push"):  # in the flow: the Rival picks
        env.chance.push(spy_return, rival=choice.rival, spy=u.seat)


def _give_back(emit, state: BlightedReachState, rival: int, spy: int, card: str) -> None:
    state.hands[rival].remove(card)
    state.hands[spy].append(card)
    emit("spy_returned", to=[spy, rival], public={"seat": rival, "spy": spy}, seat=rival, spy=spy, card=card)


@steps("spy_return")
def spy_return(ctx, rival: int, spy: int):
    """The Spied Rival names which of its tied highest action cards goes back."""
    tied = highest(ctx.state.hands[rival])
    if not tied:
        return
    ctx.ask(rival, "spy_return", [Action("give", {"card": c}) for c in tied], resume=spy_returned, spy=spy)


@steps("spy_returned")
def spy_returned(ctx, seat, params, spy: int):
    _give_back(ctx.emit, ctx.state, seat, spy, params["card"])


# -- Partisan Seizing (F603, F616) --------------------------------------------------------
def seizes_by_outrage(state: BlightedReachState, seat: int) -> bool:
    """The Partisan holding its Seizing card, or anyone once the law is in the booklet."""
    holds = seat < len(state.play_area) and SEIZING_CARD in state.play_area[seat]
    return holds or any(SEIZING_LAW in slot for slot in state.booklet)


def outrage_seize_options(state: BlightedReachState, seat: int) -> list[str]:
    """The types the seat may Provoke to seize: those it is not Outraged in yet.
    Reading: "a non-Outraged resource" names a type; holding a token of it is not needed
    (Provoking discards whatever the seat has of it, possibly nothing)."""
    return [r for r in rules_box().board.resources if r not in state.players[seat].outrage]


@hookimpl(specname="arcs_seize_offer")
def partisan_seize_offer(ctx, seat: int):
    """Instead of a second card face down: Provoke Outrage of a type to seize, or not. A seat
    Outraged in every type has no way to seize on playing a card (other ways stay open)."""
    state = ctx.state
    if state.game != GAME_ID or not seizes_by_outrage(state, seat):
        return None
    types = outrage_seize_options(state, seat)
    if types:  # declining is the base offer's answer (no card), so a table answers either alike
        options = [Action("seize", {"card": ""})] + [Action("seize", {"outrage": r}) for r in types]
        ctx.prompt(seat, "seize", options, resume=seized_by_outrage)
    return True


@steps("seized_by_outrage")
def seized_by_outrage(ctx, seat, params):
    resource = params.get("outrage", "")
    if not resource:
        return
    state = ctx.state
    provoke_outrage(box_for(state), state, seat, resource)  # ARCS-191..194
    ctx.emit("outrage_provoked", seat=seat, resource=resource, why="seize")
    state.initiative, state.seized = seat, True  # no card goes face down beside the play
    ctx.emit("seized", seat=seat, how="outrage", resource=resource)


def scrap_seizing_unless_partisan(state: BlightedReachState) -> list[int]:
    """F603's own rule: held by a seat that is not the Partisan (its Fate changed between
    acts), the card is scrapped and that seat's Outrage all cleared. Returns those seats."""
    out = []
    for seat, area in enumerate(state.play_area):
        if SEIZING_CARD in area and (seat >= len(state.fates) or state.fates[seat] != PARTISAN):
            area.remove(SEIZING_CARD)
            state.scrapped.append(SEIZING_CARD)
            clear_all_outrage(state, seat)
            out.append(seat)
    return out


# The Fates are changed at the Intermission's last step: a former Partisan loses the card there.
INTERMISSION_HOOKS["choose_fate"].append(scrap_seizing_unless_partisan)
CARRIED_FIELDS.append("reminders")  # tucked reminders stay by the map into Act III (F603, the Admiral's F721)


def clear_all_outrage(state: BlightedReachState, seat: int) -> list[str]:
    cleared = list(state.players[seat].outrage)
    for resource in cleared:
        clear_outrage(state, seat, resource)
    return cleared


# -- the Resolution (F604) ------------------------------------------------------------------
@fates.handler("clear_own_outrage")
def resolution_clears_outrage(ctx, seat: int, card_id: str, effect) -> None:
    """F604 failed: the Partisan clears all its Outrage (agents home)."""
    cleared = clear_all_outrage(ctx.state, seat)
    ctx.emit("outrage_cleared", seat=seat, resources=cleared, why=card_id)


# -- the objectives (F601, F615) ------------------------------------------------------------
def _no_outrage_for(box, cbox, state, seat, score, ambition) -> bool:
    """F601 "Appeal to Your Supporters": none of the won ambition's resources Outraged.
    Reading: Tycoon counts Material and Fuel, so Outrage in either stops the advance."""
    return not set(AMBITION_RESOURCES.get(ambition, ())) & set(state.players[seat].outrage)


objectives.CONDITION_RULES["no_outrage_for_ambition"] = _no_outrage_for

# Events that move the initiative marker, and the field naming the seat that holds it after.
_HOLDER_EVENTS = {"seized": "seat", "initiative_seized": "seat", "initiative": "seat", "round_over": "initiative"}


def initiative_gains(state: BlightedReachState, events) -> tuple[list[int], list[int]]:
    """What one action did to the initiative marker, read from its events in order: the seats
    that got it ("in any way": a seize, a Surpass at round end, a pass or an empty hand
    moving it on) and the seats that played an action card while holding it. A move no event
    names (a pass) is seen by comparing the marker with the last holder seen."""
    current = state.initiative_seen if state.initiative_seen >= 0 else state.initiative
    gained, played = [], []
    for event in events:
        field = _HOLDER_EVENTS.get(event.type)
        if field is not None:
            new = event.data.get(field)
            if isinstance(new, int) and new != current:
                gained.append(new)
                current = new
        elif event.type == "played" and event.data.get("seat") == current:
            played.append(current)
    if state.initiative != current:
        gained.append(state.initiative)
    state.initiative_seen = state.initiative
    return gained, played


@hookimpl(specname="conclave_action_applied")
def partisan_watch_initiative(ctx, seat, action):
    """After every action: the "each time you get the initiative" (F601) and "each time you
    play while holding it" (F615) advances, F603's scrap for a holder no longer Partisan, and
    sown agents whose slot was taken or cleared sent home (F625)."""
    state = ctx.state
    if state.game != GAME_ID or not state.players:
        return
    first_look = state.initiative_seen < 0
    gained, played = initiative_gains(state, ctx.events)
    scrap_seizing_unless_partisan(state)
    settle_sown(state)
    if first_look or not _markers_set(state) or not all(state.fates):
        return
    box, cbox = box_for(state), campaign_box()
    for s in gained:
        objectives.advance_on_event(box, cbox, state, "initiative_gained", 1, seat=s)
    for s in played:
        objectives.advance_on_event(box, cbox, state, "initiative_play", 1, seat=s)


# -- Act II: People's Hero (F617) ----------------------------------------------------------
def guild_suit_count(state: BlightedReachState, seat: int, suit: str) -> int:
    court = rules_box().court
    return sum(court[c].suit == suit for c in state.players[seat].guild)


def heroic_outrage(state: BlightedReachState, seat: int) -> list[str]:
    """The seat's Outraged types in which it holds more Guild cards of that suit than each
    Rival (so at least one)."""
    rivals = [r for r in range(len(state.players)) if r != seat]
    return [r for r in state.players[seat].outrage
            if all(guild_suit_count(state, seat, r) > guild_suit_count(state, o, r) for o in rivals)]


class HeroChoice(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    resource: str


@op("clear_outrage_with_most_guilds_of_type", params=HeroChoice,
    candidates=lambda env, u: [{"resource": r} for r in heroic_outrage(env.state, u.seat)],
    usable=lambda env, u: bool(heroic_outrage(env.state, u.seat)))
def peoples_hero(env: Env, u: Use, choice: HeroChoice) -> None:
    """People's Hero (F617), on declaring: clear one Outrage whose suit the holder leads every
    Rival in Guild cards. The Act II objective (F615 "Burnish Your Image") then advances one
    per Guild card the holder has."""
    state = env.state
    if choice.resource not in state.players[u.seat].outrage:
        raise BadParameter(f"{seat_name(u.seat)} is not Outraged in {choice.resource!r}")
    if choice.resource not in heroic_outrage(state, u.seat):
        raise IllegalAction(f"clearing {choice.resource} Outrage needs more such Guild cards than each Rival")
    clear_outrage(state, u.seat, choice.resource)
    env.emit("outrage_cleared", seat=u.seat, resources=[choice.resource], why=u.card)
    if _markers_set(state):
        objectives.advance_on_event(env.box, campaign_box(), state, "guild_card_held",
                                    len(state.players[u.seat].guild), seat=u.seat, facts=("using_peoples_hero",))


# -- Act II: Outrage Spreads (F613, F614) Crisis -------------------------------------------
def _outrage_spreads_crisis(call) -> dict:
    """Every player, in turn order, Provokes Outrage of the rolled planet's type (BR-225)."""
    if call.dice is None:
        raise ValueError(f"{call.card}'s Crisis reads the dice, which are not rolled yet")
    planet = crises.rolled_planet(call.box, call.dice)
    resource = call.box.systems[planet].type
    for seat in crises.turn_order(call.state):
        provoke_outrage(rules_box(), call.state, seat, resource)
    return {"event": "outrage_spread", "card": call.card, "planet": planet, "resource": resource}


# -- Act III: Guilds Decry Terror (F619) ----------------------------------------------------
FIASCO = "CC13"  # Diplomatic Fiasco


@fates.handler("fiasco_onto_council")
def guilds_decry_terror(ctx, seat: int, card_id: str, effect) -> None:
    """Edict F619: Diplomatic Fiasco not in the Court and in the Court deck: it is taken out,
    attached to the Imperial Council, and the Council turns In Session.
    Reading: the card is searched for in the deck only (not elsewhere); a Council already
    holding an attached card cannot take a second one (BR-314), so Fiasco stays in the deck
    then, and the Council still turns In Session."""
    state: BlightedReachState = ctx.state
    if crises.in_court(state, FIASCO) or FIASCO not in state.court_deck:
        ctx.emit("edict_skipped", card=card_id, why="Diplomatic Fiasco is in the Court or not in the deck")
        return
    crises.flip_council_in_session(state)
    council = state.council
    attached = council not in state.attached and council in state.court_row
    if attached:
        state.court_deck.remove(FIASCO)
        state.attached[council] = FIASCO
    ctx.emit("fiasco_attached", card=card_id, attached=attached, council=council)


# -- Act III: Terror Strike (F620, F621) ----------------------------------------------------
def outraged_planets(state: BlightedReachState) -> list[str]:
    """The planets whose type is any player's Outrage."""
    types = {r for p in state.players for r in p.outrage}
    box = rules_box()
    return sorted(s for s in state.systems if box.systems[s] is not None and box.systems[s].type in types)


def destroy_damaged_pieces(state: BlightedReachState, system: str, spare: int | None = None) -> dict:
    """Every damaged ship and building in `system` destroyed, nobody's doing: each goes home
    to its owner or supply (no Trophies, no Outrage, no Ransack), but `spare`'s own pieces.
    Reading: "pieces" are ships and buildings (Loyal, Imperial and Free), not Blight tokens."""
    here = state.systems[system]
    ships = {}
    for seat, group in enumerate(here.ships):
        if seat != spare and group.damaged:
            ships[seat] = group.damaged
            board.destroyed_ships_home(state, seat, group.damaged)
            group.damaged = 0
    imperial = state.imperial.get(system)
    lost_imperial = imperial.damaged if imperial is not None else 0
    if lost_imperial:
        board.destroyed_ships_home(state, board.EMPIRE, lost_imperial)
        imperial.damaged = 0
        if not imperial.total:
            del state.imperial[system]
    gone = [i for i, b in enumerate(here.buildings) if b.damaged and b.owner != spare]
    removed = [here.buildings[i] for i in gone]
    buildings_removed(state, system, gone)
    here.buildings = [b for i, b in enumerate(here.buildings) if i not in gone]
    for b in removed:
        if b.owner < 0:
            free_states.return_free_building(state, b.kind)
        else:
            return_piece(rules_box(), state, b.owner, b.kind)
    banner = board.destroy_building_tokens(state, system, damaged_only=True, spare=spare)  # F1003: a Banner too
    return {"system": system, "ships": ships, "imperial": lost_imperial,
            "buildings": [[b.owner, b.kind] for b in removed], **({"banner": True} if banner else {})}


def terror_strike(state: BlightedReachState, spare: int | None = None) -> list[dict]:
    out = []
    for system in outraged_planets(state):
        done = destroy_damaged_pieces(state, system, spare)
        if done["ships"] or done["imperial"] or done["buildings"] or done.get("banner"):
            out.append(done)
    return out


def _terror_strike_crisis(call) -> dict:
    return {"event": "terror_strike", "card": call.card, "destroyed": terror_strike(call.state)}


@op("terror_strike_sparing_loyal")
def terror_strike_secured(env: Env, u: Use, _: None) -> None:
    """Terror Strike (F620) when secured: its Crisis, sparing the securer's own pieces."""
    env.emit("terror_strike", card=u.card, seat=u.seat, destroyed=terror_strike(env.state, spare=u.seat))


FATE_CRISIS_HANDLERS["everyone_outraged_by_rolled_planet"] = CrisisHandler(apply=_outrage_spreads_crisis)
FATE_CRISIS_HANDLERS["destroy_damaged_at_outraged_planets"] = CrisisHandler(apply=_terror_strike_crisis)


# -- Act III: Sower of Division (F625) ------------------------------------------------------
SOWER = "F625"


def sower_options(state: BlightedReachState, seat: int) -> list[dict]:
    """The Rivals' empty Outrage slots the seat may cover with one of its agents."""
    if state.players[seat].agents <= 0:
        return []
    return [{"rival": r, "resource": res} for r in range(len(state.players)) if r != seat
            for res in rules_box().board.resources if res not in state.players[r].outrage]


def surpassed_to_initiative(state: BlightedReachState, seat: int) -> bool:
    """At the round's end: the seat took the initiative by Surpassing (not by a seize; it did
    not lead the round holding it)."""
    return (not state.seized and state.initiative == seat and state.lead_seat != seat
            and any(s == seat for s, _ in state.surpasses))


@hookimpl(specname="arcs_round_end", trylast=True)
def sower_round_end(ctx):
    """Asked after the round's other round-end rules pushed theirs, so the offer comes first,
    at the initiative check (before the events)."""
    state = ctx.state
    if state.game != GAME_ID:
        return
    for seat, player in enumerate(state.players):
        if SOWER in player.lore and surpassed_to_initiative(state, seat) and sower_options(state, seat):
            ctx.push(sow_division, seat=seat)


@steps("sow_division")
def sow_division(ctx, seat: int):
    options = [Action("sow", o) for o in [{"rival": -1, "resource": ""}, *sower_options(ctx.state, seat)]]
    ctx.prompt(seat, "sow_division", options, resume=sown)


@steps("sown")
def sown(ctx, seat, params):
    """The agent covers the Rival's slot: the Rival is Outraged in that type with nothing
    discarded (it is no Provoking). The slot counts as a placeholder of the Rival's, so the
    Rival's own agents coming home may take it (ARCS-194), sending the sower's agent home."""
    rival, resource = params["rival"], params["resource"]
    if rival < 0:
        return
    state = ctx.state
    state.players[seat].agents -= 1
    target = state.players[rival]
    target.outrage.append(resource)
    target.outrage_placeholders.append(resource)
    state.sown.append([seat, rival, resource])
    ctx.emit("division_sown", seat=seat, rival=rival, resource=resource)


def settle_sown(state: BlightedReachState) -> list[list]:
    """A sown agent whose slot the Rival's own agent took, or whose Outrage was cleared, goes
    home to its owner. Returns the entries settled."""
    settled = []
    for entry in list(state.sown):  # a type is Outraged once at most, so its placeholder is this one
        sower, rival, resource = entry
        if resource not in state.players[rival].outrage_placeholders:
            state.sown.remove(entry)
            state.players[sower].agents += 1
            settled.append(entry)
    return settled
