"""The Founder (FATE02): its Fate Set's rules that the card data cannot say.

Act I: Parade Fleets (F202) when its holder declares an ambition: 2 fresh ships at a Free
city, then a Regent may leave the Empire (`empire.become_outlaw`). The objective's advances
(F201: ambitions won and systems controlled while an Outlaw) are the board's generic counts.

Act II: the Commonwealth. Every player starts a Member (F218-F221); the Founder may put the
Commonwealth marker on an ambition it declares (F213), which then scores for the Members
together (F214, `arcs_ambition_gains`); the Calls for Armistice (F215, Act III's F226) let
a Member attach an Armistice (F216/F217) that stops Members harming each other and Free
buildings (`empire.HARM_LIMITS`) until it is secured with the card under it. Political
Intrigue (F205-F207) passes Favors. Book of Liberation (F204) keeps its holder from harming
Free buildings. Act III: Spirit of Freedom (F224) secures on ties with non-Members, Freedom
Fighters (F227) incite revolts at Free cities, and the grand ambitions count freed cities.
The Resolutions (F203, F223) are data the Fate machinery runs, with the marker's scrap.
"""
from __future__ import annotations

from typing import Literal

import msgspec

from core.errors import BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.state import Action
from plugins.arcs.abilities import Env, Use, harm_refused, op, pay_for_harm, standing
from plugins.arcs.actions import BUILD_STAND_INS, SECURE_WITHOUT_MAJORITY, builds_on_stand_in, has_loyal_piece
from plugins.arcs.outrage import agent_returns, clear_outrage
from plugins.arcs.scoring import PHANTOM, city_bonus, marker_values
from plugins.arcs.setup import place_ships
from plugins.blighted_reach import board, crises, empire, fates, free_states, objectives
from plugins.blighted_reach.campaign import CARRIED_FIELDS
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler
from plugins.blighted_reach.fate_steps import lift
from plugins.blighted_reach.favors import take_favor
from plugins.blighted_reach.intermission import INTERMISSION_HOOKS
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.state import FREE, BlightedReachState
from plugins.blighted_reach.tables import steps

GAME_ID = "blighted-reach"

FOUNDER = "FATE02"


# -- Parade Fleets (F202) -------------------------------------------------------------------
class FreeCityShips(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    system: str  # a system with a Free city


def free_city_systems(state) -> list[str]:
    """Every system with a Free city standing in it, whoever controls it."""
    return sorted(s for s, here in state.systems.items()
                  if any(b.owner == FREE and b.kind == "city" for b in here.buildings))


def _parade_usable(env: Env, u: Use) -> bool:
    return env.state.players[u.seat].ships > 0 and bool(free_city_systems(env.state))


@op("place_ships_at_free_cities", params=FreeCityShips, usable=_parade_usable,
    candidates=lambda env, u: [{"system": s} for s in free_city_systems(env.state)])
def parade_fleets_ships(env: Env, u: Use, choice: FreeCityShips) -> None:
    """Parade Fleets (F202), on declaring: `count` fresh ships at one Free city, as many as the
    supply holds (ARCS-276). The holder may decline (the declaration's offer)."""
    if choice.system not in env.state.systems:
        raise BadParameter(f"{choice.system!r} is not a system in play")
    if choice.system not in free_city_systems(env.state):
        raise IllegalAction(f"there is no Free city in {choice.system}")
    placed = place_ships(env.state, choice.system, u.seat, u.ability.count)
    env.emit("ships_placed", seat=u.seat, card=u.card, systems={choice.system: placed})


# Reading: "Then, if you are a Regent, you may become an Outlaw" is offered in the same
# declaration window as the ships, in either order: the ships do not depend on the title,
# and declining the ships does not forfeit leaving the Empire.
@op("regent_may_become_outlaw", usable=lambda env, u: board.is_regent(env.state, u.seat))
def parade_fleets_outlaw(env: Env, u: Use, _: None) -> None:
    """Parade Fleets (F202), on declaring: a Regent may leave the Empire (BR-311), as a
    Summit's caller does (BR-117: the First Regent tile and Trust pass on, BR-194/BR-195)."""
    if not board.is_regent(env.state, u.seat):
        raise IllegalAction("only a Regent can become an Outlaw")
    result = empire.become_outlaw(env.state, u.seat)
    env.emit("became_outlaw", seat=u.seat, card=u.card, first_regent=result["first_regent"],
             returned=result["returned"], power_lost=result["power_lost"])


# -- Act II: the Commonwealth (F212-F222) --------------------------------------------------
MEMBER_TITLES = ("F218", "F219", "F220", "F221")
CALLS_FOR_ARMISTICE = ("F215", "F226")
ARMISTICES = ("F216", "F217")
COMMONWEALTH_LAW = "F214"
COMMONWEALTH = -4  # the Commonwealth as one competitor for the Commonwealth ambition (no seat)


def members(state: BlightedReachState) -> list[int]:
    """The Members of the Commonwealth: the seats holding a Member title."""
    return [s for s, area in enumerate(state.play_area) if any(t in area for t in MEMBER_TITLES)]


def is_member(state: BlightedReachState, seat: int) -> bool:
    return seat in members(state)


@fates.handler("commonwealth_marker_on_fate_card")
def marker_on_fate_card(ctx, seat: int, card_id: str, effect) -> None:
    """F212: the Commonwealth Ambition marker starts on the Founder's Fate card."""
    ctx.state.commonwealth = "fate"
    ctx.emit("commonwealth_marker", seat=seat, at="fate", why=card_id)


def _lifted(state: BlightedReachState, effect) -> list[str]:
    return [c for c in (effect.cards if effect is not None else []) if lift(state, c)]


def armistice_slot(state: BlightedReachState) -> list[str] | None:
    """The booklet slot topped by a Call for Armistice (Act II's, or Act III's Mass Call)."""
    return next((slot for slot in state.booklet if slot and slot[0] in CALLS_FOR_ARMISTICE), None)


def tucked_armistices(state: BlightedReachState) -> list[str]:
    """The Armistices waiting in the booklet, under a Call for Armistice (or left there when a
    Call was scrapped: Act III's setup scraps Act II's Call and adds the Mass Call)."""
    return [c for slot in state.booklet for c in slot if c in ARMISTICES]


def tuck_under_call(state: BlightedReachState, cards: list[str]) -> None:
    """Armistices go under the Call for Armistice in its booklet slot (under no Call, a slot of
    their own)."""
    slot = armistice_slot(state)
    if slot is None:
        state.booklet.append(list(cards))
    else:
        slot.extend(cards)


@fates.handler("tuck_armistices")
def tuck_armistices(ctx, seat: int, card_id: str, effect) -> None:
    """F212: the two Armistices are tucked under Call for Armistice (F215), in the booklet."""
    cards = _lifted(ctx.state, effect)
    tuck_under_call(ctx.state, cards)
    ctx.emit("armistices_tucked", seat=seat, cards=cards, why=card_id)


@fates.handler("member_title_to_each_player")
def member_titles(ctx, seat: int, card_id: str, effect) -> None:
    """F212: every player, the Founder included, takes a Member of the Commonwealth title (the
    rest stay in the Fate Set)."""
    state: BlightedReachState = ctx.state
    cards = [c for c in (effect.cards if effect is not None else [])][: len(state.players)]
    for s, card in enumerate(cards):
        if lift(state, card):
            state.play_area[s].append(card)
    ctx.emit("member_titles", seats=list(range(len(cards))), cards=cards, why=card_id)


# The marker's declaration (F213) and the ambition it marks (F214).
def _marker_usable(env: Env, u: Use) -> bool:
    return env.state.commonwealth == "fate" and bool(env.moment.declared)


@op("commonwealth_marker_on_declared", usable=_marker_usable)
def commonwealth_marker_on_declared(env: Env, u: Use, _: None) -> None:
    """Founder of the Commonwealth (F213), on declaring: the Commonwealth Ambition marker may go
    from the Fate card onto the declared ambition's box."""
    if not _marker_usable(env, u):
        raise IllegalAction("the Commonwealth marker is not on your Fate card, or nothing was declared")
    env.state.commonwealth = env.moment.declared
    env.emit("commonwealth_marker", seat=u.seat, at=env.moment.declared, card=u.card)


def commonwealth_ambition(state: BlightedReachState) -> str:
    """The declared ambition the Commonwealth marker lies on ("" when none, or the law is gone)."""
    marked = state.commonwealth
    if marked in ("", "fate") or not state.ambition_boxes.get(marked):
        return ""
    return marked if any(COMMONWEALTH_LAW in slot for slot in state.booklet) else ""


def commonwealth_counts(state: BlightedReachState, ambition: str) -> dict[int, int]:
    """The competitors for the Commonwealth ambition: the Members' counts summed as one, each
    non-Member alone, and the 2-player phantom. Reading: a count is the campaign's own (with
    the First Regent's Trust, BR-261)."""
    box, cbox = rules_box(), campaign_box()
    mine = members(state)
    counts = {s: objectives.ambition_count(box, cbox, state, s, ambition)
              for s in range(len(state.players)) if s not in mine}
    if mine:
        counts[COMMONWEALTH] = sum(objectives.ambition_count(box, cbox, state, s, ambition) for s in mine)
    phantom = state.ambition_tokens.get(ambition)
    if len(state.players) == 2 and phantom is not None:
        counts[PHANTOM] = len(phantom)
    return counts


def commonwealth_winner(state: BlightedReachState) -> int | None:
    """Who wins the Commonwealth ambition now (sole first above 0): COMMONWEALTH, a non-Member
    seat, PHANTOM, or None (a tie, nobody, or no Commonwealth ambition)."""
    ambition = commonwealth_ambition(state)
    return objectives.sole_first(commonwealth_counts(state, ambition)) if ambition else None


def commonwealth_gains(state: BlightedReachState) -> dict[int, int]:
    """F214: only winning gives Power. The Commonwealth winning divides first + second place's
    Power evenly among the Members (remainder and city bonus dropped); a non-Member winning
    gains double first + second.
    Reading: the non-Member winner also gains its city bonus, which the card sets aside only
    for the Commonwealth."""
    box = rules_box()
    gains = {s: 0 for s in range(len(state.players))}
    winner = commonwealth_winner(state)
    if winner is None or winner == PHANTOM:
        return gains
    first, second = marker_values(box, state.ambition_boxes[commonwealth_ambition(state)])
    if winner == COMMONWEALTH:
        mine = members(state)
        for s in mine:
            gains[s] = (first + second) // len(mine)
    else:
        gains[winner] = 2 * (first + second) + city_bonus(state.players[winner], box)
    return gains


@hookimpl(specname="arcs_ambition_gains")
def commonwealth_scoring(state, ambition, gains):
    if state.game != GAME_ID or not ambition or ambition != commonwealth_ambition(state):
        return None
    return commonwealth_gains(state)


@hookimpl(specname="arcs_chapter_deal", tryfirst=True)  # before any rule that deals the hands itself
def commonwealth_marker_home(ctx):
    """The chapter is scored and cleaned up: the marker goes back to the Founder's Fate card
    (as the ambition markers go back to Available).
    Reading: the card says to keep the marker there; it leaves only for a declaration."""
    state = ctx.state
    if state.game == GAME_ID and state.commonwealth not in ("", "fate"):
        state.commonwealth = "fate"
    return None


def _marker_home_between_acts(state: BlightedReachState) -> None:
    if state.commonwealth not in ("", "fate"):
        state.commonwealth = "fate"


def _members_counted(box, cbox, state, seat, score, ambition) -> int:
    """F212 "Distribute Power Fairly": 2 per Member when the Commonwealth wins its ambition."""
    return len(members(state)) if commonwealth_winner(state) == COMMONWEALTH else 0


def _freed_cities(state: BlightedReachState) -> int:
    """F225: Free cities neither Empire-controlled nor controlled by a non-Member."""
    mine = members(state)
    out = 0
    for system, here in state.systems.items():
        who = board.controller(state, system)
        if who == board.EMPIRE or (isinstance(who, int) and who >= 0 and who not in mine):
            continue
        out += sum(b.owner == FREE and b.kind == "city" for b in here.buildings)
    return out


def _freedom_goal(cities: int):
    def goal(box, cbox, state, seat) -> bool:
        return commonwealth_winner(state) == COMMONWEALTH and _freed_cities(state) >= cities
    return goal


objectives.COUNT_RULES["commonwealth_member"] = _members_counted
objectives.GOAL_RULES["commonwealth_won_and_3_free_cities_free"] = _freedom_goal(3)
objectives.GOAL_RULES["commonwealth_won_and_7_free_cities_free"] = _freedom_goal(7)
INTERMISSION_HOOKS["clear_pieces"].append(_marker_home_between_acts)
CARRIED_FIELDS.append("commonwealth")


@fates.handler("scrap_commonwealth_marker")
def scrap_marker(ctx, seat: int, card_id: str, effect) -> None:
    """F223 failed: the Commonwealth Ambition marker leaves the campaign."""
    ctx.state.commonwealth = ""
    ctx.emit("commonwealth_marker", seat=seat, at="", why=card_id)


# -- Act II: Political Intrigue (F205-F207) ------------------------------------------------
# Reading: "left" is the next seat in turn order (clockwise), "right" the one before; with two
# players both are the one Rival, who then receives two Favors on a moon.
def _neighbours(state: BlightedReachState, seat: int, symbol: str) -> list[int]:
    n = len(state.players)
    left, right = (seat + 1) % n, (seat - 1) % n
    return {"arrow": [left], "hex": [right], "moon": [left, right]}.get(symbol, [])


def _intrigue_crisis(call) -> dict:
    """Each player gives a Favor (an agent from its supply onto the receiver's Fate card) to the
    neighbour(s) the event die's symbol names; one without agents left gives no more."""
    if call.dice is None:
        raise ValueError(f"{call.card}'s Crisis reads the event die, which is not rolled yet")
    state = call.state
    given = []
    for seat in crises.turn_order(state):
        for to in _neighbours(state, seat, call.dice.symbol):
            if to != seat and state.players[seat].agents > 0:
                take_favor(state, to, seat)
                given.append([seat, to])
    return {"event": "favors_given", "card": call.card, "given": given}


FATE_CRISIS_HANDLERS["favors_pass_by_rolled_symbol"] = CrisisHandler(apply=_intrigue_crisis)


@op("take_favor_from_each_rival")
def take_favor_from_each_rival(env: Env, u: Use, _: None) -> None:
    """Political Intrigue (F205) when secured: each Rival with an agent in supply gives the
    securer one as a Favor."""
    state = env.state
    taken = [r for r in range(len(state.players)) if r != u.seat and state.players[r].agents > 0]
    for r in taken:
        take_favor(state, u.seat, r)
    env.emit("favors_taken", seat=u.seat, card=u.card, rivals=taken)


# -- Act II: the Armistice (F215-F217), Act III: the Mass Call (F226) -------------------------
def armistices_in_court(state: BlightedReachState) -> list[str]:
    return [a for a in ARMISTICES if crises.in_court(state, a)]


def _armistice_limit(state: BlightedReachState, seat: int, target, system: str, harm: str) -> str:
    """F216: while an Armistice is in the Court, no Member harms another Member or a Free
    building (so no Member can be Disgraced meanwhile)."""
    if not armistices_in_court(state) or not is_member(state, seat):
        return ""
    if target == "free":
        return "the Armistice: Members of the Commonwealth harm no Free building"
    if isinstance(target, int) and target != seat and is_member(state, target):
        return "the Armistice: Members of the Commonwealth do not harm each other"
    return ""


def _liberation_limit(state: BlightedReachState, seat: int, target, system: str, harm: str) -> str:
    """Book of Liberation (F204): its holder cannot harm Free buildings."""
    if target == "free" and BOOK_OF_LIBERATION in state.players[seat].lore:
        return "Book of Liberation: you cannot harm Free buildings"
    return ""


BOOK_OF_LIBERATION = "F204"
empire.HARM_LIMITS.extend([_armistice_limit, _liberation_limit])


def least_powerful_member(state: BlightedReachState) -> int | None:
    """The Member with the least Power; None on a tie (or with no Member)."""
    mine = members(state)
    if not mine:
        return None
    low = min(state.players[s].power for s in mine)
    lowest = [s for s in mine if state.players[s].power == low]
    return lowest[0] if len(lowest) == 1 else None


def founder_seat(state: BlightedReachState) -> int | None:
    return next((s for s, f in enumerate(state.fates) if f == FOUNDER), None)


def _scrap_from_booklet(state: BlightedReachState, card: str) -> None:
    for slot in state.booklet:
        if card in slot:
            slot.remove(card)
    state.booklet = [slot for slot in state.booklet if slot]
    state.scrapped.append(card)


def _call(ctx, card_id: str, founder_too: bool) -> None:
    """A Call for Armistice: scrapped when there is no Member; else the least powerful Member
    (none on a tie), then under the Mass Call the Founder, may each attach one Armistice."""
    state: BlightedReachState = ctx.state
    if not members(state):
        _scrap_from_booklet(state, card_id)
        ctx.emit("edict_scrapped", card=card_id, why="no Member of the Commonwealth")
        return
    seats = [s for s in [least_powerful_member(state)] if s is not None]
    founder = founder_seat(state)
    if founder_too and founder is not None:
        seats.append(founder)
    if not seats:
        ctx.emit("edict_skipped", card=card_id, why="the least Power is tied among the Members")
    ctx.push(armistice_offer, card=card_id, seats=seats)


@fates.handler("call_for_armistice")
def call_for_armistice(ctx, seat: int, card_id: str, effect) -> None:
    """Edict F215 (Act II)."""
    _call(ctx, card_id, founder_too=False)


@fates.handler("mass_call_for_armistice")
def mass_call_for_armistice(ctx, seat: int, card_id: str, effect) -> None:
    """Edict F226 (Act III): as F215, then the Founder may do the same."""
    _call(ctx, card_id, founder_too=True)


def armistice_options(state: BlightedReachState) -> list[dict]:
    """An Armistice waiting in the booklet onto a Court card with nothing attached (the
    Council too), or nothing."""
    waiting = tucked_armistices(state)
    hosts = [c for c in state.court_row if c and c not in state.attached]
    return [{"armistice": "", "host": ""}] + [{"armistice": a, "host": h} for a in waiting for h in hosts]


@steps("armistice_offer")
def armistice_offer(ctx, card: str, seats: list):
    if not seats:
        return
    options = armistice_options(ctx.state)
    if len(options) > 1:
        ctx.prompt(seats[0], "call_for_armistice", [Action("armistice", o) for o in options],
                   resume=armistice_called, card=card, rest=list(seats[1:]))


@steps("armistice_called")
def armistice_called(ctx, seat, params, card: str, rest: list):
    armistice, host = params["armistice"], params["host"]
    state = ctx.state
    if armistice:
        for slot in state.booklet:
            if armistice in slot:
                slot.remove(armistice)
        state.booklet = [slot for slot in state.booklet if slot]
        state.attached[host] = armistice
        ctx.emit("armistice_attached", seat=seat, armistice=armistice, host=host, why=card)
    ctx.push(armistice_offer, card=card, seats=rest)


@hookimpl(specname="arcs_take_court_card", tryfirst=True)
def armistice_secured(ctx, seat, card, rivals_to):
    """F216 when secured (securing the card it is attached to secures it too, BR-315): before
    the card is taken, the securer places every agent on it onto other Court cards, one agent
    at a time (`armistice_agents`); the Armistice is tucked back under the Call for Armistice;
    then the card is taken as usual, with no agent left to capture. An Armistice in the row
    itself (slid down when its card left, BR-317, or dealt after an Intermission put it in
    the deck) is secured the same way, and goes back under the Call instead of being taken."""
    state = ctx.state
    if state.game != GAME_ID:
        return None
    if card in ARMISTICES and card in state.court_row:  # one in the row itself (slid down, or dealt)
        ctx.push(armistice_agents, seat=seat, host=card, armistice=card, rivals_to=rivals_to)
        return True
    if state.attached.get(card) not in ARMISTICES:
        return None
    armistice = state.attached.pop(card)
    ctx.push(armistice_agents, seat=seat, host=card, armistice=armistice, rivals_to=rivals_to)
    return True


def _agent_targets(state: BlightedReachState, host: str) -> list[str]:
    closed = type(state).closed_court_cards
    return [c for c in state.court_row if c and c != host and c not in closed]


@steps("armistice_agents")
def armistice_agents(ctx, seat: int, host: str, armistice: str, rivals_to: str):
    from plugins.arcs.court_flow import refill, take

    state = ctx.state
    agents = state.court_agents.get(host, [])
    owner = next((o for o, n in enumerate(agents) if n), None)
    targets = _agent_targets(state, host)
    if owner is not None and targets:
        ctx.prompt(seat, "armistice_agent", [Action("place_agent", {"card": c}) for c in targets],
                   resume=armistice_agent_placed, host=host, armistice=armistice, rivals_to=rivals_to, owner=owner)
        return
    if host == armistice:  # secured itself: it leaves the row for the booklet, its place refilled
        position = state.court_row.index(host)
        for owner, n in enumerate(state.court_agents.pop(host, [])):
            agent_returns(state, owner, n)  # Reading: with no other card to take them, they go home
        state.court_row[position] = ""
        refill(ctx, position)
        tuck_under_call(state, [armistice])
        ctx.emit("armistice_ended", seat=seat, armistice=armistice, host="")
        return
    tuck_under_call(state, [armistice])
    ctx.emit("armistice_ended", seat=seat, armistice=armistice, host=host)
    take(ctx, seat, host, rivals_to)  # Reading: with no other card to take them, agents left go as usual


@steps("armistice_agent_placed")
def armistice_agent_placed(ctx, seat, params, host: str, armistice: str, rivals_to: str, owner: int):
    state = ctx.state
    state.court_agents[host][owner] -= 1
    state.court_agents[params["card"]][owner] += 1
    ctx.emit("agent_moved", seat=seat, owner=owner, origin=host, onto=params["card"], why=armistice)
    ctx.push(armistice_agents, seat=seat, host=host, armistice=armistice, rivals_to=rivals_to)


# -- Act III: Spirit of Freedom (F224), Freedom Fighters (F227) ------------------------------
SPIRIT_OF_FREEDOM = "F224"


def secures_on_tie(state, seat: int, card: str) -> bool:
    """Spirit of Freedom (F224): its holder may secure a Court card where it is tied for the
    most agents (not zero) with a Rival who is not a Member.
    Reading: every Rival tied with it must be a non-Member (a tie with a Member still blocks)."""
    if getattr(state, "game", "") != GAME_ID or SPIRIT_OF_FREEDOM not in state.players[seat].lore:
        return False
    agents = state.court_agents[card]
    mine, most = agents[seat], max(agents)
    tied = [s for s, n in enumerate(agents) if s != seat and n == mine]
    return mine > 0 and mine == most and bool(tied) and not any(is_member(state, s) for s in tied)


SECURE_WITHOUT_MAJORITY.append(secures_on_tie)


class RevoltChoice(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    system: str


def _revolt_victims(state: BlightedReachState, seat: int, system: str) -> tuple[dict[int, int], int]:
    """The damaged ships Incite Revolt destroys there: each Rival's it may harm (the Truce Law
    ignored; an Armistice still holds), and the Imperial ones."""
    here = state.systems[system]
    rivals = {r: here.ships_of(r).damaged for r in range(len(state.players))
              if r != seat and here.ships_of(r).damaged
              and empire.may_harm(state, seat, r, system, harm="destroy", ignore_truce=True)}
    imperial = board.imperial_ships(state, system).damaged
    if imperial and not empire.may_harm(state, seat, "empire", system, harm="destroy", ignore_truce=True):
        imperial = 0
    return rivals, imperial


def revolt_systems(state: BlightedReachState, seat: int) -> list[str]:
    """Systems with a fresh Free city and damaged ships Incite Revolt would destroy."""
    out = []
    for system, here in sorted(state.systems.items()):
        if any(b.owner == FREE and b.kind == "city" and not b.damaged for b in here.buildings):
            rivals, imperial = _revolt_victims(state, seat, system)
            if (rivals or imperial) and not harm_refused(state, seat, revolt_harmed(system, rivals, imperial)):
                out.append(system)
    return out


def revolt_harmed(system: str, rivals: dict[int, int], imperial: int) -> dict[str, list]:
    """Whose pieces the revolt destroys, for a price a Fate puts on harm (`HARM_PRICES`)."""
    return {system: sorted(rivals) + (["empire"] if imperial else [])}


@op("incite_revolt", params=RevoltChoice, usable=lambda env, u: bool(revolt_systems(env.state, u.seat)),
    candidates=lambda env, u: [{"system": s} for s in revolt_systems(env.state, u.seat)])
def incite_revolt(env: Env, u: Use, choice: RevoltChoice) -> None:
    """Freedom Fighters (F227) Incite Revolt, a Battle: in a system with a fresh Free city every
    damaged Rival and Imperial ship is destroyed, the Truce Law ignored; no Trophies (the ships
    go home). Reading: the holder needs no ship there; the card names only the Free city."""
    state = env.state
    if choice.system not in state.systems:
        raise BadParameter(f"{choice.system!r} is not a system in play")
    if choice.system not in revolt_systems(state, u.seat):
        raise IllegalAction(f"Incite Revolt needs a fresh Free city and damaged ships to destroy in {choice.system}")
    rivals, imperial = _revolt_victims(state, u.seat, choice.system)
    pay_for_harm(env, u.seat, revolt_harmed(choice.system, rivals, imperial))
    here = state.systems[choice.system]
    for r, n in rivals.items():
        here.ships[r].damaged -= n
        board.destroyed_ships_home(state, r, n)
    if imperial:
        pieces = state.imperial[choice.system]
        pieces.damaged -= imperial
        board.destroyed_ships_home(state, board.EMPIRE, imperial)
        if not pieces.total:
            del state.imperial[choice.system]
    env.emit("revolt", seat=u.seat, card=u.card, system=choice.system, ships={str(r): n for r, n in rivals.items()},
             imperial=imperial)


# Standing rules (no use of their own): read where they apply, above and in the Empire's checks.
standing("armistice_agents_elsewhere",  # F216 when secured: `armistice_secured` takes it before its card
         "cannot_harm_free_buildings", "free_build_clears_outrage",
         "commonwealth_ambition", "armistice_truce", "commonwealth_member", "commonwealth_privileges",
         "secure_when_tied_with_non_member")


# -- Act II: the Members' privileges (F218-F222) and Disgrace ------------------------------
def _free_outside_empire(state: BlightedReachState, system: str) -> bool:
    return bool(board.free_buildings(state, system)) and not board.empire_controls(state, system)


def member_acts_with_free_buildings(state, seat: int, system: str) -> bool:
    """F218/F222: a Member acts with Free buildings the Empire does not control as if they
    were Loyal (tax, build ships and Catapult at Free starports, repair), control or not."""
    return getattr(state, "game", "") == GAME_ID and is_member(state, seat) and _free_outside_empire(state, system)


def member_builds_at_free_buildings(state, seat: int, system: str) -> bool:
    """F218/F222: a Member builds at such a Free building as at a Loyal piece (placed fresh)."""
    return member_acts_with_free_buildings(state, seat, system)


free_states.CONTROL_WAIVERS.append(member_acts_with_free_buildings)
BUILD_STAND_INS.append(member_builds_at_free_buildings)


def disgrace(state: BlightedReachState, seat: int) -> str:
    """F218: a Member who harms a Free city scraps its title, never to be a Member again."""
    title = next((t for t in MEMBER_TITLES if t in state.play_area[seat]), "")
    if title:
        state.play_area[seat].remove(title)
        state.scrapped.append(title)
    return title


def free_city_harmed(state: BlightedReachState, events) -> list[int]:
    """The Members who harmed a Free city in one action, read from its events: choosing the
    Free States as defender (a harm, BR-323) where a Free city stands, or stood until the
    battle destroyed it (the attacker then holds a Free city Trophy).
    Reading: a Free starport alone harmed is no Disgrace."""
    out = []
    for event in events:
        if event.type != "battle" or event.data.get("defender") != FREE:
            continue
        seat, system = event.data.get("attacker"), event.data.get("system")
        if not isinstance(seat, int) or not is_member(state, seat) or seat in out:
            continue
        stands = any(b.owner == FREE and b.kind == "city" for b in state.systems[system].buildings)
        taken = any(t.owner == FREE and t.kind == "city" for t in state.players[seat].trophies)
        if stands or taken:
            out.append(seat)
    return out


@hookimpl(specname="conclave_action_applied")
def founder_watch_disgrace(ctx, seat, action):
    state = ctx.state
    if state.game != GAME_ID or not state.play_area:
        return
    for member in free_city_harmed(state, ctx.events):
        title = disgrace(state, member)
        ctx.emit("disgraced", seat=member, title=title)


# -- Act II: Book of Liberation (F204) Build Free ------------------------------------------
class FreeBuild(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    system: str
    what: Literal["city", "starport"]


def _free_build_reason(state: BlightedReachState, seat: int, system: str, what: str) -> str:
    """Why the seat may not build a Free `what` in `system` ("" when it may): a planet slot,
    a Loyal piece there (ARCS-144, or a Member's Free building), no Empire control."""
    planet = rules_box().systems.get(system)
    if system not in state.systems or planet is None:
        return f"gates have no building slots ({system})"
    if board.empire_controls(state, system):
        return f"Book of Liberation builds no Free building where the Empire controls ({system})"
    if len(state.systems[system].buildings) >= planet.slots:
        return f"{system} has no empty building slot"
    if not has_loyal_piece(state, seat, system) and not builds_on_stand_in(state, seat, system):
        return f"building in {system} needs a Loyal piece there"
    return ""


def _free_build_options(env: Env, u: Use) -> list[dict]:
    return [{"system": s, "what": w} for s in sorted(env.state.systems) for w in ("city", "starport")
            if not _free_build_reason(env.state, u.seat, s, w)]


@op("build_free_buildings_outside_empire", params=FreeBuild, candidates=_free_build_options,
    usable=lambda env, u: bool(_free_build_options(env, u)))
def book_of_liberation_build(env: Env, u: Use, choice: FreeBuild) -> None:
    """Book of Liberation (F204), a Build: a Free city or starport instead of a Loyal one, where
    the holder could build and the Empire does not control (a proxy when that supply is out,
    BR-182); then the holder's Outrage of the planet's type is cleared.
    Reading: it is placed damaged where a Rival controls the system, as a Loyal one would be
    (ARCS-146); a Member building at a Free building places it fresh."""
    state = env.state
    if choice.system not in state.systems:
        raise BadParameter(f"{choice.system!r} is not a system in play")
    why = _free_build_reason(state, u.seat, choice.system, choice.what)
    if why:
        raise IllegalAction(why)
    here = state.systems[choice.system]
    owner = board.controller(state, choice.system)
    damaged = isinstance(owner, int) and owner >= 0 and owner != u.seat and not builds_on_stand_in(
        state, u.seat, choice.system)
    free_states.place_free_building(rules_box(), state, choice.system, choice.what, damaged=damaged)
    kind = rules_box().systems[choice.system].type
    cleared = []
    if kind in state.players[u.seat].outrage:
        clear_outrage(state, u.seat, kind)
        cleared.append(kind)
    env.emit("free_built", seat=u.seat, card=u.card, system=choice.system, what=choice.what, damaged=damaged,
             outrage_cleared=cleared, slots=len(here.buildings))
