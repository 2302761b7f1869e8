"""The Edicts (BR-239..BR-259): when an event or the Council resolves them, every Edict in
the rules booklet acts, lowest edict number first. The box's Edicts are Guild Envoys Depart
(00, 2 players) and Govern the Imperial Reach (03), a stack of three Policy cards whose top
one is the Imperial Policy; Fates add more (their effects are named handlers).

The flow runs them as explicit steps:

    for step in resolve_edicts(cbox, state):
        "bury_unagented_guilds"   -> guild_envoys_depart(box, cbox, state)
        "enforce_or_change_policy" (the First Regent decides):
            options_govern / check_govern / apply_govern
            if it returned "enforce":
                for payer in demand_payers(cbox, state):           # the First Regent decides each
                    options_demand / check_demand / apply_demand   # (skip a payer with no options)
                options_imperial_action / check_imperial_action / apply_imperial_action
        "handler"                 -> the Fate module's function named step.handler

Every choice is the First Regent's (`chooser`): which piece each Regent pays, whether a
Regent with nothing and no agents becomes an Outlaw, where requisitioned ships go and, when
Weapons run short, who gets them. A refused choice raises a typed error and changes nothing.
"""
from __future__ import annotations

from itertools import combinations

import msgspec

from core.errors import BadParameter, IllegalAction, NotYourTurn
from core.seats import seat_name
from plugins.arcs.actions import refill_court
from plugins.arcs.content import Box
from plugins.arcs.placing import gain, receive
from plugins.blighted_reach import ship_captives
from plugins.blighted_reach.board import EMPIRE, empire_controls, is_regent, regents
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.content import CampaignCard, Policy
from plugins.blighted_reach.favors import take_favor
from plugins.blighted_reach.state import BlightedReachState, Pieces
from plugins.blighted_reach.trust import add_to_trust, take_from_trust

ENVOYS_OP = "bury_unagented_guilds"
GOVERN_OP = "enforce_or_change_policy"

# Fate Edicts and the Govern stack (filled by the Fates' modules): handlers that are a
# Govern stack's own Edict (Act III's Govern with Authority), and handlers that resolve the
# Govern stack in its place (Imperial Quorum): while one of those is in force, the Govern
# Edict itself is skipped and the replacing Edict resolves at its number.
GOVERN_HANDLERS: set[str] = set()
REPLACES_GOVERN: set[str] = set()


class EdictStep(msgspec.Struct, frozen=True):
    """One Edict to resolve: the card, its edict number (None when the data has none), the
    booklet slot it stands in, and what it does (an op, or `handler` naming a function)."""

    card: str
    number: int | None
    slot: int
    do: str
    handler: str = ""


# -- which Edicts, in which order (BR-239, BR-240) --------------------------------------


def _edict_card(cbox: CampaignBox, card: str):
    for c in cbox.empire.cards:
        if c.id == card:
            return c if c.kind == "edict" else None
    found = cbox.fate_cards.get(card)
    return found if found is not None and found.kind == "edict" else None


def edict_number(cbox: CampaignBox, card: str) -> int | None:
    """The printed edict number; the Fate Sets' Edicts carry none in the data yet."""
    found = _edict_card(cbox, card)
    return found.edict_number if isinstance(found, CampaignCard) else None


def resolve_edicts(cbox: CampaignBox, state: BlightedReachState) -> list[EdictStep]:
    """The Edicts to resolve now, in order (BR-239). Only a slot's top card is in force (the
    Govern stack shows one Policy). An Edict for other player counts is skipped.
    # Reading: an Edict whose number the data lacks resolves after the numbered ones, in
    # booklet order; equal numbers keep booklet order."""
    n = len(state.players)
    found = []
    for slot, cards in enumerate(state.booklet):
        if not cards:
            continue
        card = _edict_card(cbox, cards[0])
        if card is None:
            continue
        if isinstance(card, CampaignCard) and card.players and n not in card.players:
            continue
        ability = next((a for a in card.abilities if a.when == "edict"), None)
        if ability is None:
            continue
        number = edict_number(cbox, card.id)
        found.append(EdictStep(card=card.id, number=number, slot=slot, do=ability.do, handler=ability.handler))
    governs = [s for s in found if s.do == GOVERN_OP or s.handler in GOVERN_HANDLERS]
    replacing = [s for s in found if s.handler in REPLACES_GOVERN]
    if governs and replacing:
        found = [s for s in found if s not in governs and s not in replacing]
        found += [msgspec.structs.replace(s, number=governs[0].number, slot=governs[0].slot) for s in replacing]
    return sorted(found, key=lambda s: (s.number is None, s.number or 0, s.slot))


# -- Guild Envoys Depart, edict 00 (BR-256, BR-257) -------------------------------------


def is_guild_card(box: Box, cbox: CampaignBox, card: str) -> bool:
    """Guild cards only: not Vox, lore, the Council or any other kind (BR-256)."""
    for source in (cbox.court, cbox.fate_cards, box.court):
        if card in source:
            return source[card].kind == "guild"
    return False


def guild_envoys_depart(box: Box, cbox: CampaignBox, state: BlightedReachState) -> list[str]:
    """Bury (to the Court deck's bottom) every Guild card in the Court row with no agent of
    anyone on it, then refill the emptied places from the deck's top, left to right.
    Returns the buried cards.
    # Reading: several buried at once go under the deck left to right, all before the
    # refill; so the deck always has enough, and a short deck brings buried cards back."""
    buried = [c for c in state.court_row
              if c and is_guild_card(box, cbox, c) and not any(state.court_agents.get(c, []))]
    places = []
    for card in buried:
        place = state.court_row.index(card)
        state.court_row[place] = ""
        state.court_agents.pop(card, None)
        state.court_deck.append(card)
        places.append(place)
    for place in sorted(places):
        refill_court(state, place)  # (a card with a When Drawn effect notes it there)
    return buried


# -- Govern the Imperial Reach, edict 03 (BR-241..BR-243) -------------------------------


def policies(cbox: CampaignBox) -> dict[str, Policy]:
    return {p.id: p for p in cbox.empire.policies}


def govern_slot(cbox: CampaignBox, state: BlightedReachState) -> int | None:
    """The booklet slot holding the Govern stack (its top card is a Policy)."""
    known = policies(cbox)
    return next((i for i, cards in enumerate(state.booklet) if cards and cards[0] in known), None)


def current_policy(cbox: CampaignBox, state: BlightedReachState) -> Policy | None:
    slot = govern_slot(cbox, state)
    return None if slot is None else policies(cbox)[state.booklet[slot][0]]


def _first_regent(state: BlightedReachState, chooser: int) -> int:
    fr = state.first_regent
    if fr < 0:
        raise IllegalAction("nobody holds the First Regent tile")
    if chooser != fr:
        raise NotYourTurn(f"the First Regent ({seat_name(fr)}) decides")
    return fr


# Choices a Fate forbids the First Regent (Oath of Peace, F1502: no War Policy):
# fn(state, first_regent, choice) -> True to forbid it. Empty: every choice stands.
GOVERN_LIMITS: list = []


def govern_barred(state: BlightedReachState, chooser: int, choice: dict) -> bool:
    """Whether a Fate's rule forbids `chooser` this Govern choice ({'enforce': True} or
    {'change': card}), whoever chooses (the First Regent, or a Quorum's Regent)."""
    return any(rule(state, chooser, choice) for rule in GOVERN_LIMITS)


def options_govern(cbox: CampaignBox, state: BlightedReachState) -> list[dict]:
    """The First Regent enforces the Policy on top, or puts another Policy card on top.
    # Reading: with nobody holding the First Regent tile nobody governs: no options, the
    # Edict does nothing."""
    slot = govern_slot(cbox, state)
    if slot is None or state.first_regent < 0:
        return []
    out = [{"enforce": True}] + [{"change": card} for card in state.booklet[slot][1:]]
    return [c for c in out if not govern_barred(state, state.first_regent, c)]


def check_govern(cbox: CampaignBox, state: BlightedReachState, chooser: int, choice: dict) -> None:
    _first_regent(state, chooser)
    if set(choice) not in ({"enforce"}, {"change"}):
        raise BadParameter("choose {'enforce': true} or {'change': <Policy card>}")
    if choice not in options_govern(cbox, state):
        raise IllegalAction(f"{choice} is not a choice: enforce the Policy or put another Policy on top")


def apply_govern(cbox: CampaignBox, state: BlightedReachState, chooser: int, choice: dict) -> str:
    """Returns "enforce": the flow goes on to the Demand, then the Imperial Action, which is
    not optional (BR-242); or "change": the chosen card goes on top of the other two, which
    keep their order, and the new Policy is not enforced now (BR-243)."""
    check_govern(cbox, state, chooser, choice)
    if "enforce" in choice:
        return "enforce"
    change_policy(cbox, state, choice["change"])
    return "change"


def change_policy(cbox: CampaignBox, state: BlightedReachState, card: str) -> None:
    slot = govern_slot(cbox, state)
    if slot is None or card not in state.booklet[slot]:
        raise IllegalAction(f"{card} is not in the Govern stack")
    stack = state.booklet[slot]
    stack.remove(card)
    stack.insert(0, card)


# -- Collect Imperial Demand (BR-244..BR-251, BR-116) -----------------------------------


def demand_payers(cbox: CampaignBox, state: BlightedReachState) -> list[int]:
    """Who pays, in the order the First Regent collects: each Rival Regent in turn order
    from the initiative holder (G-1), then the First Regent's own resource when the Policy
    demands from every Regent (Peace, Escalation). Outlaws never pay (BR-116)."""
    policy, fr = current_policy(cbox, state), state.first_regent
    if policy is None or fr < 0:
        return []
    n = len(state.players)
    order = [(state.initiative + i) % n for i in range(n)]
    payers = [s for s in order if s != fr and is_regent(state, s)]
    return payers + ([fr] if policy.demand_from == "each_regent" else [])


def _eligible(state: BlightedReachState, owner: int) -> bool:
    """War takes no Regent's and no Imperial piece (BR-246): a seat's piece only while that
    seat is an Outlaw, never the Empire's; the Free States' (and any other owner's) are fine."""
    if 0 <= owner < len(state.players):
        return not is_regent(state, owner)
    return owner != EMPIRE


def options_demand(box: Box, cbox: CampaignBox, state: BlightedReachState, payer: int) -> list[dict]:
    """What the First Regent may take from `payer` (empty: nothing is owed or possible).
    {"slot": i} a demanded resource from slot i (to the Trust); {"trophy": i} / {"captive": i}
    / {"ship_captive": i} an entry of the payer's boxes (War); {"favor": true} an agent from their supply when they
    have nothing demanded; {"outlaw": true|false} when they have no agent either (the First
    Regent may make them an Outlaw). The First Regent's own payment is a resource or nothing."""
    policy, fr = current_policy(cbox, state), state.first_regent
    if policy is None or payer not in demand_payers(cbox, state):
        return []
    player = state.players[payer]
    out: list[dict] = []
    if policy.demand_resources:
        out = [{"slot": i} for i, r in enumerate(player.resources) if r in policy.demand_resources]
    if "trophy" in policy.demand_pieces:
        out += [{"trophy": i} for i, t in enumerate(player.trophies) if _eligible(state, t.owner)]
    if "captive" in policy.demand_pieces:
        out += [{"captive": i} for i, owner in enumerate(player.captives) if _eligible(state, owner)]
        out += [{"ship_captive": i} for i, owner in enumerate(ship_captives.held(state, payer))
                if _eligible(state, owner)]  # a ship taken by Happy Hosts' Pacify (F1012) is a Captive too
    if out or payer == fr:
        return out
    if player.agents > 0:
        return [{"favor": True}]
    return [{"outlaw": True}, {"outlaw": False}]


_DEMAND_KEYS = ({"slot"}, {"trophy"}, {"captive"}, {"ship_captive"}, {"favor"}, {"outlaw"})


def check_demand(box: Box, cbox: CampaignBox, state: BlightedReachState, chooser: int, payer: int,
                 choice: dict) -> None:
    _first_regent(state, chooser)
    if set(choice) not in _DEMAND_KEYS:
        raise BadParameter("choose one of slot, trophy, captive, ship_captive, favor or outlaw")
    if payer not in demand_payers(cbox, state):
        raise IllegalAction(f"{seat_name(payer)} owes no Imperial Demand")
    if choice not in options_demand(box, cbox, state, payer):
        raise IllegalAction(f"{choice} is not what {seat_name(payer)} can pay under this Policy")


def apply_demand(box: Box, cbox: CampaignBox, state: BlightedReachState, chooser: int, payer: int,
                 choice: dict) -> dict:
    """Take the payment: a resource onto the First Regent tile (the Trust, BR-247), a Trophy
    or Captive into the First Regent's boxes (BR-248), an agent as a Favor (BR-249), or the
    payer's title flipped to Outlaw (BR-250). Returns what happened."""
    check_demand(box, cbox, state, chooser, payer, choice)
    fr, player = state.first_regent, state.players[payer]
    if "slot" in choice:
        resource = player.resources[choice["slot"]]
        player.resources[choice["slot"]] = None
        add_to_trust(state, resource)
        return {"payer": payer, "trust": resource}
    if "trophy" in choice:
        trophy = player.trophies.pop(choice["trophy"])
        state.players[fr].trophies.append(trophy)
        return {"payer": payer, "trophy": [trophy.owner, trophy.kind]}
    if "captive" in choice:
        owner = player.captives.pop(choice["captive"])
        state.players[fr].captives.append(owner)
        return {"payer": payer, "captive": owner}
    if "ship_captive" in choice:
        return {"payer": payer, "ship_captive": move_ship_captive(state, payer, fr, choice["ship_captive"])}
    if "favor" in choice:
        take_favor(state, fr, payer)
        return {"payer": payer, "favor": True}
    if choice["outlaw"]:
        state.titles[payer] = "outlaw"
    return {"payer": payer, "outlaw": bool(choice["outlaw"])}


def move_ship_captive(state: BlightedReachState, payer: int, taker: int, index: int) -> int:
    """The payer's ship Captive at `index` into the taker's Captives box; returns its owner."""
    owner = ship_captives.held(state, payer)[index]
    ship_captives.hand_over(state, payer, taker, owner)  # (War takes no Regent's piece: never the taker's own)
    return owner


# -- Take Imperial Action (BR-252..BR-255) ----------------------------------------------


def celebration_power(box: Box, state: BlightedReachState, seat: int) -> int:
    """The bonus Power printed on the seat's uncovered city slots (BR-252)."""
    cities = state.players[seat].cities_on_board
    return sum(power for slot, power in box.board.city_slot_bonus.items() if not cities[int(slot) - 1])


def requisition_systems(state: BlightedReachState) -> list[str]:
    """Where Requisition Ships may put its ships: an Empire-controlled system, or, if the
    Empire controls none, a system with a Loyal starport of the First Regent's.
    # Reading: "Loyal" is the First Regent's, the player taking the action."""
    controlled = sorted(s for s in state.imperial if empire_controls(state, s))
    if controlled:
        return controlled
    fr = state.first_regent
    return sorted(s for s, here in state.systems.items()
                  if any(b.owner == fr and b.kind == "starport" for b in here.buildings))


def _regents_in_order(state: BlightedReachState) -> list[int]:
    n = len(state.players)
    return [s for s in ((state.initiative + i) % n for i in range(n)) if s in regents(state)]


def weapons_available(state: BlightedReachState) -> int:
    return state.supply.get("weapon", 0) + state.trust.count("weapon")


def options_imperial_action(box: Box, cbox: CampaignBox, state: BlightedReachState) -> list[dict]:
    """The First Regent's choices for the Policy's Imperial Action. [{}] when nothing is to
    choose (Celebrate Regency; Weapons for every Regent; no ship or no place for one)."""
    policy = current_policy(cbox, state)
    if policy is None or state.first_regent < 0:
        return []
    if policy.action == "requisition_ships":
        where = requisition_systems(state) if state.imperial_supply > 0 else []
        return [{"system": s} for s in where] or [{}]
    if policy.action == "distribute_arms":
        getting, available = _regents_in_order(state), weapons_available(state)
        if available >= len(getting):
            return [{}]
        return [{"regents": list(c)} for c in combinations(getting, available)]
    return [{}]


def check_imperial_action(box: Box, cbox: CampaignBox, state: BlightedReachState, chooser: int,
                          choice: dict) -> None:
    _first_regent(state, chooser)
    if set(choice) - {"system", "regents"}:
        raise BadParameter("the Imperial Action takes a system or a list of Regents")
    if "regents" in choice:
        wanted = choice["regents"]
        if not isinstance(wanted, list) or not all(isinstance(r, int) for r in wanted):
            raise BadParameter("regents: a list of seats")
        order = _regents_in_order(state)
        if len(set(wanted)) == len(wanted) and all(r in order for r in wanted):
            choice = {"regents": [r for r in order if r in wanted]}  # any order names the same Regents
    if choice not in options_imperial_action(box, cbox, state):
        raise IllegalAction(f"{choice} is not a choice for this Imperial Action")


def apply_imperial_action(box: Box, cbox: CampaignBox, state: BlightedReachState, chooser: int,
                          choice: dict) -> dict:
    """Celebrate Regency (Peace): each Regent gains its uncovered city slots' bonus Power.
    Requisition Ships (Escalation): the Policy's count of fresh Imperial ships into the
    chosen system, as many as the supply has (G-3). Distribute Arms (War): 1 Weapon to each
    (chosen) Regent, from the supply and, once it is empty, from the Trust; the Weapons wait for
    their new owners to place them. Returns what happened."""
    check_imperial_action(box, cbox, state, chooser, choice)
    policy = current_policy(cbox, state)
    if policy.action == "celebrate_regency":
        gains = {s: celebration_power(box, state, s) for s in _regents_in_order(state)}
        for seat, power in gains.items():
            state.players[seat].power += power
        return {"power": gains}
    if policy.action == "requisition_ships":
        if "system" not in choice:
            return {"placed": 0}
        count = min(policy.action_count, state.imperial_supply)
        here = state.imperial.get(choice["system"], Pieces())
        state.imperial[choice["system"]] = Pieces(fresh=here.fresh + count, damaged=here.damaged)
        state.imperial_supply -= count
        return {"placed": count, "system": choice["system"]}
    order = _regents_in_order(state)
    getting = [r for r in order if r in choice.get("regents", order)]
    given: dict[int, str] = {}
    for seat in getting:
        if gain(state, seat, "weapon"):
            given[seat] = "supply"
        elif "weapon" in state.trust:
            take_from_trust(state, "weapon")
            receive(state, seat, "weapon")
            given[seat] = "trust"
    return {"weapons": given}
