"""Summits (rulebook "Summits", BR-185..BR-210; ruling A-R6) as pure functions of the two
boxes and the state.

A Summit is called at a round's end by the initiative holder after an Event card, or by
the Imperial Council's securer (BR-154, BR-166). Its caller first takes Call to Order
actions (Return Favors, Petition the Council, Leave or Revive the Empire; the Pacifist's
Forgive for a Psionic while F1411 is in the booklet), then everyone negotiates. A deal is a `Proposal`: Negotiation actions (its `parts`) taken together once
every seat they affect consents. The kernel's consent group (`core.groups.propose`) holds
it as plain data (`proposal_data` / `proposal_from`) and `apply_proposal` checks it again
when the last consent arrives, since the table may have changed while it waited. A
declined or withdrawn deal never reaches this module, so it changes nothing.

Who decides what: the seat `may_call_summit` names calls it or not; the caller alone takes
the Call to Order actions and moves on to Negotiations; any seat proposes a deal or says
"done"; the seats `consents_needed` lists accept or decline; the caller may end
Negotiations when no deal is open (A-R6).

Every `check_*` raises a typed `ActionRejected` and changes nothing; the function of the same
name without `check_` checks, then applies. Parts resolve in their listed order, each legal
where it resolves; a refused part refuses the whole deal (BR-208).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal

import msgspec

from core.errors import BadParameter, CannotAfford, IllegalAction, NotYourTurn
from core.seats import no_such_seat, seat_name
from core.state import copy_state
from plugins.arcs.chapter import return_city
from plugins.arcs.content import Box
from plugins.arcs.lore_ops import slot_raid_cost
from plugins.arcs.outrage import agent_returns
from plugins.arcs.placing import receive
from plugins.arcs.state import Building, Ships, Trophy
from plugins.blighted_reach import ship_captives
from plugins.blighted_reach.board import is_outlaw, is_regent, regents
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.empire import become_outlaw
from plugins.blighted_reach.favors import favor_row, favors_of, return_favor, take_favor

IN_SESSION, DECIDED = "AID01A", "AID01B"  # the Imperial Council's two sides
# The Summit cards of Fate Sets that add Negotiation actions, by their effect's handler.
GUILD_NEGOTIATIONS = "transfer_guild_support"   # F414: give Guild cards, the Advocate consenting
KNOWLEDGE_SET_FREE = "transfer_lore_and_golems"  # F514: give lore cards and Golems
FORGIVE = "forgive_negotiation"                  # F1411: take a Rival's Outrage as a Favor


# -- typed refusals ---------------------------------------------------------------------


class NotHeld(BadParameter):
    """The giver does not have the piece, resource, card or Favor the part names (a Rival's
    card included)."""

    code = "NOT_HELD"


class LastPiece(IllegalAction):
    """Cede Control would give away the giver's last city, starport or ship on the map (BR-201)."""

    code = "LAST_PIECE"


class Frozen(IllegalAction):
    """Frozen resources (the Imperial Trust's) can never be given (BR-260, BR-319)."""

    code = "FROZEN"


class NotTradeable(IllegalAction):
    """What no Negotiation action gives: cards, unless a Summit card in the booklet lets them
    be given (BR-205); or what Return Favors may not force."""

    code = "NOT_TRADEABLE"


# -- the Negotiation actions (BR-199..BR-206) --------------------------------------------
# `giver` takes the action, `receiver` is the Rival it affects (BR-198).


class CedeControl(msgspec.Struct, tag_field="kind", tag="cede_control", forbid_unknown_fields=True,
                  omit_defaults=True):
    """BR-199: one of the giver's Loyal pieces in `system` is replaced by the receiver's:
    a ship (its `damaged` side) or the building in building slot `slot`."""

    giver: int
    receiver: int
    system: str
    piece: Literal["ship", "city", "starport"]
    damaged: bool = False  # ships: which side is replaced (the new one shows the same, BR-207)
    slot: int = -1         # buildings: the index in the system's building slots


class DelegateAuthority(msgspec.Struct, tag_field="kind", tag="delegate_authority", forbid_unknown_fields=True):
    """BR-202: one of the giver's agents on Court card `card` is replaced by the receiver's."""

    giver: int
    receiver: int
    card: str


class PromiseFavor(msgspec.Struct, tag_field="kind", tag="promise_favor", forbid_unknown_fields=True):
    """BR-203: an agent from the giver's supply goes onto the receiver's Fate card as a Favor."""

    giver: int
    receiver: int


class TransferAsset(msgspec.Struct, tag_field="kind", tag="transfer_asset", forbid_unknown_fields=True,
                    omit_defaults=True):
    """BR-204: the giver gives one resource (from resource slot `slot`), Captive, Trophy or
    Favor (named by `owner`, and `piece` for a Trophy). The receiver's own piece goes back
    to their supply. A resource named on the Imperial Trust (`source`) is frozen (BR-260);
    one on a card of the giver's (`source` "card": `card`, and `resource` its type) is
    frozen too, but the one card holding resources, Merchant League (F302), lets Transfer
    Asset give them (BR-319). A Captive is an agent, or with `piece` "ship" a ship taken by
    Happy Hosts' Pacify (F1012, `ship_captives`)."""

    giver: int
    receiver: int
    asset: Literal["resource", "captive", "trophy", "favor"]
    slot: int = -1
    owner: int | None = None
    piece: Literal["", "ship", "city", "starport", "agent", "blight"] = ""  # "blight": a Blight Trophy (BR-232)
    source: Literal["board", "imperial_trust", "card"] = "board"
    resource: str = ""  # a resource held off the board: its type
    card: str = ""      # source "card": the card it sits on


class TransferCard(msgspec.Struct, tag_field="kind", tag="transfer_card", forbid_unknown_fields=True):
    """A card from the giver's play area: only a Guild card while Guild Negotiations (F414)
    is in the booklet, or a lore card while Knowledge Set Free (F514) is (BR-205)."""

    giver: int
    receiver: int
    card: str


class TransferGolem(msgspec.Struct, tag_field="kind", tag="transfer_golem", forbid_unknown_fields=True):
    """F514 (Knowledge Set Free in the booklet): the giver gives one of its Golems (by type)
    to the receiver, as it is (`fate_caretaker.give_golem`)."""

    giver: int
    receiver: int
    golem: str


class InviteToEmpire(msgspec.Struct, tag_field="kind", tag="invite_to_empire", forbid_unknown_fields=True):
    """BR-206: the First Regent (giver) flips the receiver's Outlaw title to Regent."""

    giver: int
    receiver: int


class ForgiveOutrage(msgspec.Struct, tag_field="kind", tag="forgive", forbid_unknown_fields=True):
    """F1411 (Reconcile with the Outraged in the booklet): the receiver forgives the giver's
    Outrage of `resource`: the agent covering that Outrage slot leaves it and lies on the
    receiver's Fate card as a Favor of the giver's."""

    giver: int
    receiver: int
    resource: str


class ShareRumor(msgspec.Struct, tag_field="kind", tag="share_rumor", forbid_unknown_fields=True):
    """F1212 (Sharing Rumors in the booklet): the receiver, a Rival of the Pirate as the giver
    is, puts an agent from its supply on the Rumor at `planet`, which carries the giver's
    agent; from then on it may see that Rumor (`fate_pirate_rumors.check_share`)."""

    giver: int
    receiver: int
    planet: str


Part = (CedeControl | DelegateAuthority | PromiseFavor | TransferAsset | TransferCard | TransferGolem | InviteToEmpire
        | ForgiveOutrage | ShareRumor)


class Proposal(msgspec.Struct, forbid_unknown_fields=True):
    """A deal (BR-208): `parts` taken at once when every seat `consents_needed` names accepts.
    Promises about later are free text and bind nobody (A-R6), so they are not parts."""

    proposer: int
    parts: list[Part]

    def parties(self) -> list[int]:
        return sorted({s for p in self.parts for s in (p.giver, p.receiver)})


def proposal_data(proposal: Proposal) -> dict:
    """The plain data a consent group holds (`PromptGroup.proposal`)."""
    return msgspec.to_builtins(proposal)


def proposal_from(data: dict) -> Proposal:
    """A proposal back from plain data (a prompt's answer, a consent group's `proposal`)."""
    try:
        return msgspec.convert(data, Proposal)
    except msgspec.ValidationError as error:
        raise BadParameter(f"not a proposal: {error}") from None


# -- Favors (BR-186) --------------------------------------------------------------------


def give_favor(state: BlightedReachState, holder: int, owner: int) -> bool:
    """An agent from `owner`'s supply becomes a Favor on `holder`'s Fate card (Promise
    Favor). False, and nothing moves, with no agent left."""
    if state.players[owner].agents <= 0:
        return False
    take_favor(state, holder, owner)
    return True


# -- the Summit's course ----------------------------------------------------------------


def may_call_summit(state: BlightedReachState, *, event_played: bool, council_securer: int = -1) -> int:
    """The seat that may call a Summit as this round ends, -1 for nobody. A Council secured
    this round is resolved instead of the Event cards, so its securer decides (BR-158,
    BR-166); otherwise the initiative holder, once the initiative check is done, if an
    Event card was played (BR-154). The state keeps neither fact: the round's flow passes them."""
    if council_securer >= 0:
        return council_securer
    return state.initiative if event_played else -1


def check_call_summit(state: BlightedReachState, seat: int, *, event_played: bool, council_securer: int = -1) -> None:
    if state.summit_caller >= 0:
        raise IllegalAction("a Summit is already being held")
    allowed = may_call_summit(state, event_played=event_played, council_securer=council_securer)
    if allowed < 0:
        raise IllegalAction("no Event card was played and the Council was not secured this round")
    if seat != allowed:
        raise NotYourTurn(f"only {seat_name(allowed)} may call the Summit")


def call_summit(state: BlightedReachState, seat: int, *, event_played: bool, council_securer: int = -1) -> None:
    """BR-185: the Summit opens with its Call to Order."""
    check_call_summit(state, seat, event_played=event_played, council_securer=council_securer)
    state.summit_caller = seat
    state.summit_via = "council" if council_securer >= 0 else "event"
    state.summit_stage = "call_to_order"
    state.summit_done = []


def _check_call_to_order(state: BlightedReachState, seat: int) -> None:
    """BR-187: only the caller acts, and only during the Call to Order."""
    if state.summit_caller < 0:
        raise IllegalAction("no Summit is being held")
    if state.summit_stage != "call_to_order":
        raise IllegalAction("the Call to Order is over")
    if seat != state.summit_caller:
        raise NotYourTurn("only the player who called the Summit takes Call to Order actions")


def check_petition_council(state: BlightedReachState, seat: int) -> None:
    _check_call_to_order(state, seat)
    if state.council != DECIDED:  # Reading: a flip that changes nothing is not offered
        raise IllegalAction("the Imperial Council is already In Session")


def petition_council(state: BlightedReachState, seat: int) -> None:
    """BR-191, BR-192: the Council flips to In Session, whatever let the caller call. The
    Court row names the Council by its face-up side, so its place (and agents) follow."""
    check_petition_council(state, seat)
    state.council = IN_SESSION
    if DECIDED in state.court_row:
        state.court_row[state.court_row.index(DECIDED)] = IN_SESSION
    if DECIDED in state.court_agents:
        state.court_agents[IN_SESSION] = state.court_agents.pop(DECIDED)


def check_leave_the_empire(state: BlightedReachState, seat: int) -> None:
    _check_call_to_order(state, seat)
    if not is_regent(state, seat):
        raise IllegalAction("only a Regent can leave the Empire")


def leave_the_empire(state: BlightedReachState, seat: int) -> int:
    """BR-193: the caller becomes an Outlaw (`empire.become_outlaw`: BR-117, BR-118, the
    First Regent tile and Trust to the most powerful Regent, BR-194, or back to the supply,
    BR-195). Returns the Power lost."""
    check_leave_the_empire(state, seat)
    return become_outlaw(state, seat)["power_lost"]


def check_revive_the_empire(state: BlightedReachState, seat: int) -> None:
    _check_call_to_order(state, seat)
    if regents(state):
        raise IllegalAction("the Empire can be revived only when there are no Regents")  # BR-196


def revive_the_empire(state: BlightedReachState, seat: int) -> None:
    """BR-196: with no Regents, the caller becomes a Regent and takes the First Regent tile."""
    check_revive_the_empire(state, seat)
    state.titles[seat] = "regent"
    state.first_regent = seat


def check_start_negotiations(state: BlightedReachState, seat: int) -> None:
    _check_call_to_order(state, seat)


def start_negotiations(state: BlightedReachState, seat: int) -> None:
    """BR-197: the caller ends the Call to Order; everyone may now negotiate."""
    check_start_negotiations(state, seat)
    state.summit_stage = "negotiations"
    state.summit_done = []


def options_call_to_order(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int) -> list[dict]:
    """What the caller may do now: each Call to Order action open to them (Return Favors
    once per Rival whose Favors they hold, with its forcible parts), then moving on."""
    if state.summit_stage != "call_to_order" or seat != state.summit_caller:
        return []
    out: list[dict] = []
    if state.council == DECIDED:
        out.append({"kind": "petition_council"})
    if is_regent(state, seat):
        out.append({"kind": "leave_the_empire"})
    if not regents(state):
        out.append({"kind": "revive_the_empire"})
    for rival in sorted(set(favors_of(state, seat))):
        forcible = options_forced(box, cbox, state, seat, rival)
        if forcible:
            out.append({"kind": "return_favors", "rival": rival, "favors": favors_of(state, seat).count(rival),
                        "parts": forcible})
    out += options_forgive(box, cbox, state, seat)
    out.append({"kind": "start_negotiations"})
    return out


# -- Return Favors (BR-188, BR-189) -----------------------------------------------------


# What a Fate's rules add to a deal: more seats whose consent it needs (the Monopolies'
# holders, F313-F319), fn(cbox, state, proposal) -> seats; and the Favors forcing a part
# then costs on top (fn(box, cbox, state, caller, part) -> {owner: Favors}, raising
# NotTradeable where it cannot be forced).
CONSENT_RULES: list[Callable[[CampaignBox, BlightedReachState, "Proposal"], set[int]]] = []
FORCE_COSTS: list[Callable[..., dict[int, int]]] = []


def favors_to_force(box: Box, cbox: CampaignBox, state: BlightedReachState, caller: int, part: Part) -> dict[int, int]:
    """The Favors the caller must return, by their owner, to force `part`: 1 by default;
    a resource costs its slot's raid cost (BR-189), a Guild card its raid cost (F414, whose
    Advocate, when a third seat, also needs 1 Favor of theirs returned to force consent);
    plus what the Fates' `FORCE_COSTS` add."""
    cost = _base_force_cost(box, cbox, state, caller, part)
    for rule in FORCE_COSTS:
        for owner, n in rule(box, cbox, state, caller, part).items():
            cost[owner] = cost.get(owner, 0) + n
    return cost


def _base_force_cost(box: Box, cbox: CampaignBox, state: BlightedReachState, caller: int, part: Part) -> dict[int, int]:
    rival = part.giver
    if isinstance(part, TransferAsset) and part.asset == "resource" and part.source == "board":
        holder = state.players[rival].resources
        if not 0 <= part.slot < len(holder) or holder[part.slot] is None:
            raise NotHeld(f"{seat_name(rival)} holds no resource in slot {part.slot + 1}")
        return {rival: slot_raid_cost(box, state, rival, part.slot)}
    if isinstance(part, TransferCard):
        kind, raid_cost, protected = _card_facts(box, cbox, state, part.giver, part.card)
        if kind == "lore":
            raise NotTradeable("giving lore cannot be forced with Favors")  # F514
        if protected:
            raise NotTradeable(f"{part.card} is protected: its giving cannot be forced")  # F414
        cost = {rival: raid_cost}
        # Reading: the Advocate's consent is forced per Guild card forced, 1 Favor each.
        advocate = _card_fate_seat(cbox, state, _booklet_card(cbox, state, GUILD_NEGOTIATIONS))
        if advocate >= 0 and advocate not in (caller, rival):
            cost[advocate] = 1
        return cost
    if isinstance(part, TransferGolem):  # F514: as many Favors as the Golem's raid cost
        from plugins.blighted_reach.fate_caretaker import GOLEM_RAID_COST

        return {rival: GOLEM_RAID_COST}
    return {rival: 1}


def check_return_favors(box: Box, cbox: CampaignBox, state: BlightedReachState, caller: int, rival: int,
                        parts: list[Part]) -> dict[int, int]:
    """Refuse a Return Favors the caller cannot pay or whose parts are not the Rival's
    actions targeting the caller (BR-188). Returns the Favors it costs, by owner.
    Reading: one Return Favors forces one Rival's actions, several at once if the caller
    pays for all; the caller may return Favors again, to the same or another Rival."""
    _check_call_to_order(state, caller)
    _check_seat(state, rival)
    if rival == caller:
        raise BadParameter("Favors are returned to a Rival")
    if not parts:
        raise BadParameter("Return Favors forces at least one Negotiation action")
    cost: dict[int, int] = {}
    for part in parts:
        if part.giver != rival or part.receiver != caller:
            raise IllegalAction(f"a forced action is {seat_name(rival)}'s, targeting the caller")
        for owner, n in favors_to_force(box, cbox, state, caller, part).items():
            cost[owner] = cost.get(owner, 0) + n
    for owner, n in cost.items():
        held = favors_of(state, caller).count(owner)
        if held < n:
            raise CannotAfford(f"forcing that costs {n} of {seat_name(owner)}'s Favors; you hold {held}")
    _run(box, cbox, copy_state(state), parts, paid=cost, caller=caller)
    return cost


def return_favors(box: Box, cbox: CampaignBox, state: BlightedReachState, caller: int, rival: int,
                  parts: list[Part]) -> list[dict]:
    """BR-188: the Favors go back to their owners' supplies first, then the Rival takes the
    forced actions at once, without being asked. Returns what happened, part by part."""
    cost = check_return_favors(box, cbox, state, caller, rival, parts)
    return _run(box, cbox, state, parts, paid=cost, caller=caller)


def options_forced(box: Box, cbox: CampaignBox, state: BlightedReachState, caller: int, rival: int) -> list[dict]:
    """Single actions the caller could force on `rival` with the Favors held: each part with
    its cost by Favor owner."""
    out = []
    for part in _candidates(box, cbox, state, rival, caller):
        try:
            cost = favors_to_force(box, cbox, state, caller, part)
            _check_part(box, cbox, state, part)
        except (BadParameter, IllegalAction, CannotAfford):
            continue
        if all(favors_of(state, caller).count(o) >= n for o, n in cost.items()):
            out.append({"part": msgspec.to_builtins(part), "cost": {str(o): n for o, n in cost.items()}})
    return out


# -- Negotiations (BR-197..BR-210) ------------------------------------------------------


def consents_needed(cbox: CampaignBox, state: BlightedReachState, proposal: Proposal) -> list[int]:
    """BR-198: every seat a part affects or that takes a part, but the proposer; a Guild
    card's giving also needs the Advocate's consent while Guild Negotiations is in the
    booklet and the Advocate is in play (F414); and the seats a Fate's `CONSENT_RULES` add."""
    seats = set(proposal.parties())
    if any(isinstance(p, TransferCard) and p.card in state.players[p.giver].guild for p in proposal.parts):
        advocate = _card_fate_seat(cbox, state, _booklet_card(cbox, state, GUILD_NEGOTIATIONS))
        if advocate >= 0:
            seats.add(advocate)
    for rule in CONSENT_RULES:
        seats |= rule(cbox, state, proposal)
    seats.discard(proposal.proposer)
    return sorted(seats)


def check_proposal(box: Box, cbox: CampaignBox, state: BlightedReachState, proposal: Proposal) -> None:
    """Refuse a deal that could not be resolved now, part after part (BR-208)."""
    _check_negotiating(state)
    _check_seat(state, proposal.proposer)
    if not proposal.parts:
        raise BadParameter("a deal has at least one Negotiation action")
    for part in proposal.parts:
        _check_seat(state, part.giver)
        _check_seat(state, part.receiver)
        if part.giver == part.receiver:
            raise BadParameter("each Negotiation action affects a Rival")  # BR-198
    # Reading: a proposer deals for themself; a deal they take no part in is not theirs to offer.
    if proposal.proposer not in proposal.parties():
        raise IllegalAction("you propose deals you take part in")
    _run(box, cbox, copy_state(state), proposal.parts)


def apply_proposal(box: Box, cbox: CampaignBox, state: BlightedReachState, proposal: Proposal) -> list[dict]:
    """Every part at once, once every seat consented (the flow calls this from the consent
    group's resume step). All or nothing: a refusal leaves the state as it was. A completed
    deal clears every "done" (A-R6). Returns what happened, part by part; resources given
    wait in `state.placing` for their receiver to place (ARCS-209)."""
    check_proposal(box, cbox, state, proposal)
    events = _run(box, cbox, state, proposal.parts)
    state.summit_done = []
    return events


def options_parts(box: Box, cbox: CampaignBox, state: BlightedReachState, giver: int, receiver: int) -> list[dict]:
    """Every single Negotiation action `giver` could take now affecting `receiver`: the
    building blocks a prompt offers for a proposal."""
    out = []
    for part in _candidates(box, cbox, state, giver, receiver):
        try:
            _check_part(box, cbox, state, part)
        except (BadParameter, IllegalAction, CannotAfford):
            continue
        out.append(msgspec.to_builtins(part))
    return out


def open_proposals(state: BlightedReachState) -> int:
    """Deals waiting for consents (the kernel's consent groups; only Summits open them)."""
    return sum(1 for g in state.groups if g.mode == "consent")


# -- moves a Fate adds to Negotiations ----------------------------------------------------


@dataclass(frozen=True)
class FateNegotiation:
    """A move a Fate's rules let a seat make in Negotiations on its turn, affecting no Rival
    (so nobody consents): the Magnate's export of 3 resources (F301). `options` lists the
    seat's legal choices (none when the move is not theirs); `check` refuses a bad one and
    changes nothing; `apply(ctx, seat, params)` makes it."""

    options: Callable[[Box, CampaignBox, BlightedReachState, int], list[dict]]
    check: Callable[[Box, CampaignBox, BlightedReachState, int, dict], None]
    apply: Callable[..., None]


# The move's name -> its rules; the Fates fill it.
FATE_NEGOTIATIONS: dict[str, FateNegotiation] = {}


def check_fate_negotiation(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int, name: str,
                           params: dict) -> FateNegotiation:
    _check_negotiating(state)
    _check_seat(state, seat)
    move = FATE_NEGOTIATIONS.get(name)
    if move is None:
        raise BadParameter(f"{name!r} is no Negotiation move")
    move.check(box, cbox, state, seat, params)
    return move


def check_say_done(state: BlightedReachState, seat: int) -> None:
    _check_negotiating(state)
    _check_seat(state, seat)


def say_done(state: BlightedReachState, seat: int) -> None:
    """A-R6: the seat has nothing more to negotiate, until a deal completes."""
    check_say_done(state, seat)
    if seat not in state.summit_done:
        state.summit_done.append(seat)


def negotiations_over(state: BlightedReachState) -> bool:
    """A-R6 (the engine's stand-in for BR-210's countdown): every seat said "done" since the
    last completed deal. Reading: "in turn" is each seat once, in any order (negotiating is
    freeform); a seat that said "done" may still propose. With a deal still waiting for
    consents they are not over."""
    return (state.summit_stage == "negotiations" and open_proposals(state) == 0
            and set(state.summit_done) >= set(range(len(state.players))))


def check_end_negotiations(state: BlightedReachState, seat: int) -> None:
    _check_negotiating(state)
    if seat != state.summit_caller:
        raise NotYourTurn("only the player who called the Summit ends Negotiations")
    if open_proposals(state):
        raise IllegalAction("a deal is still waiting for consents")


def end_negotiations(state: BlightedReachState, seat: int) -> None:
    """A-R6: the caller may end Negotiations whenever no deal is open; the Summit ends."""
    check_end_negotiations(state, seat)
    end_summit(state)


def end_summit(state: BlightedReachState) -> None:
    """BR-210: the Summit is over (when `negotiations_over`, or through `end_negotiations`)."""
    state.summit_caller, state.summit_via, state.summit_stage, state.summit_done = -1, "", "", []
    state.summit_lore_given = []  # F512B: what was given in this Summit is forgotten


def _check_negotiating(state: BlightedReachState) -> None:
    if state.summit_caller < 0:
        raise IllegalAction("no Summit is being held")
    if state.summit_stage != "negotiations":
        raise IllegalAction("Negotiations start after the Call to Order")  # BR-197


def _check_seat(state: BlightedReachState, seat: int) -> None:
    if not 0 <= seat < len(state.players):
        raise BadParameter(no_such_seat(seat, len(state.players)))


# -- resolving parts --------------------------------------------------------------------


def _run(box: Box, cbox: CampaignBox, state: BlightedReachState, parts: list[Part],
         paid: dict[int, int] | None = None, caller: int = -1) -> list[dict]:
    """Return the Favors paid (to force them), then check and resolve each part in order."""
    # Reading: "simultaneously" (BR-208) still means each part must be legal as it resolves,
    # in the order listed, so two parts cannot both give away a seat's last ship.
    # Reading: returned Favors are the price of Return Favors and are paid first, so the
    # forced Rival may use the agents that just came home.
    for owner, n in (paid or {}).items():
        for _ in range(n):
            return_favor(state, caller, owner)
    events = []
    for part in parts:
        _check_part(box, cbox, state, part)
        events.append(_apply_part(box, state, part))
    return events


def _check_part(box: Box, cbox: CampaignBox, state: BlightedReachState, part: Part) -> None:
    _check_seat(state, part.giver)
    _check_seat(state, part.receiver)
    if part.giver == part.receiver:
        raise BadParameter("each Negotiation action affects a Rival")
    giver, receiver = state.players[part.giver], state.players[part.receiver]
    if isinstance(part, CedeControl):
        _check_cede(state, part)
    elif isinstance(part, DelegateAuthority):
        # Reading: any card in the Court row, the Imperial Council included, Decided or not.
        if part.card not in state.court_row or part.card not in state.court_agents:
            raise BadParameter(f"{part.card} is not a card in the Court")
        if state.court_agents[part.card][part.giver] <= 0:
            raise NotHeld(f"{seat_name(part.giver)} has no agent on {part.card}")
        if receiver.agents <= 0:
            raise CannotAfford(f"{seat_name(part.receiver)} has no agent in supply")
    elif isinstance(part, PromiseFavor):
        if giver.agents <= 0:
            raise CannotAfford(f"{seat_name(part.giver)} has no agent in supply")
    elif isinstance(part, TransferAsset):
        _check_transfer(state, part)
    elif isinstance(part, TransferCard):
        kind, _, _ = _card_facts(box, cbox, state, part.giver, part.card)
        handler = GUILD_NEGOTIATIONS if kind == "guild" else KNOWLEDGE_SET_FREE
        if not _booklet_card(cbox, state, handler):
            raise NotTradeable("Transfer Asset gives no cards")  # BR-205
    elif isinstance(part, TransferGolem):
        from plugins.blighted_reach.fate_caretaker import check_give_golem

        if not _booklet_card(cbox, state, KNOWLEDGE_SET_FREE):
            raise NotTradeable("Golems are given only while Knowledge Set Free is in the booklet")  # F514
        check_give_golem(state, part.giver, part.golem)
    elif isinstance(part, ForgiveOutrage):
        _check_forgive(cbox, state, part)
    elif isinstance(part, ShareRumor):
        from plugins.blighted_reach.fate_pirate_rumors import check_share

        check_share(state, part.giver, part.receiver, part.planet)
    elif isinstance(part, InviteToEmpire):
        if part.giver != state.first_regent or not is_regent(state, part.giver):
            raise IllegalAction("only the First Regent invites to the Empire")  # BR-206
        if not is_outlaw(state, part.receiver):
            raise IllegalAction(f"{seat_name(part.receiver)} is not an Outlaw")


def _check_cede(state: BlightedReachState, part: CedeControl) -> None:
    here = state.systems.get(part.system)
    if here is None:
        raise BadParameter(f"{part.system} is not a system on the map")
    receiver = state.players[part.receiver]
    if part.piece == "ship":
        mine = here.ships_of(part.giver)
        if (mine.damaged if part.damaged else mine.fresh) <= 0:
            raise NotHeld(f"{seat_name(part.giver)} has no {'damaged' if part.damaged else 'fresh'} ship in {part.system}")
        if _ships_on_map(state, part.giver) <= 1:
            raise LastPiece("you cannot cede your last ship on the map")  # BR-201
        if receiver.ships <= 0:
            # Reading: a deal holds only actions that resolve at once (BR-208), so a missing
            # Rival piece refuses the part rather than doing what it can (G-3).
            raise CannotAfford(f"{seat_name(part.receiver)} has no ship in supply")
        return
    if not 0 <= part.slot < len(here.buildings):
        raise BadParameter(f"{part.system} has no building slot {part.slot}")
    building = here.buildings[part.slot]
    if building.owner != part.giver or building.kind != part.piece:
        raise NotHeld(f"slot {part.slot} of {part.system} holds no {part.piece} of {seat_name(part.giver)}")
    if here.ships_of(part.giver).total > 0:
        raise IllegalAction("a building is ceded only with none of your ships in its system")  # BR-200
    if _buildings_on_map(state, part.giver, part.piece) <= 1:
        raise LastPiece(f"you cannot cede your last {part.piece} on the map")  # BR-201
    if (part.piece == "city" and True not in receiver.cities_on_board) or (part.piece == "starport" and receiver.starports <= 0):
        raise CannotAfford(f"{seat_name(part.receiver)} has no {part.piece} left to place")


def _captives_of_kind(state: BlightedReachState, seat: int, piece: str) -> list[int]:
    """The owners of the seat's Captives of one kind: ships ("ship") or agents."""
    return ship_captives.held(state, seat) if piece == "ship" else list(state.players[seat].captives)


def _check_transfer(state: BlightedReachState, part: TransferAsset) -> None:
    giver = state.players[part.giver]
    if part.asset == "resource":
        if part.source == "imperial_trust":
            raise Frozen("the Imperial Trust's resources are frozen: they cannot be given")  # BR-260, BR-319
        if part.source == "card":  # Merchant League (F302): frozen but for Transfer Asset
            if part.card not in giver.guild:
                raise NotHeld(f"{part.card} is not in {seat_name(part.giver)}'s play area")
            if part.resource not in state.card_resources.get(part.card, []):
                raise NotHeld(f"{part.card} holds no {part.resource or 'resource'}")
            return
        if not 0 <= part.slot < len(giver.resources) or giver.resources[part.slot] is None:
            raise NotHeld(f"{seat_name(part.giver)} holds no resource in slot {part.slot + 1}")
        return
    if part.owner is None:
        raise BadParameter(f"name whose {part.asset} is given")
    if part.asset == "captive" and part.piece not in ("", "agent", "ship"):
        raise BadParameter("a Captive is an agent or a ship")
    if part.asset == "captive" and part.owner not in _captives_of_kind(state, part.giver, part.piece):
        raise NotHeld(f"{seat_name(part.giver)} holds no {part.piece or 'agent'} Captive of {seat_name(part.owner)}")
    if part.asset == "favor" and part.owner not in favors_of(state, part.giver):
        raise NotHeld(f"{seat_name(part.giver)} holds no Favor of {seat_name(part.owner)}")
    if part.asset == "trophy":
        if not part.piece:
            raise BadParameter("name the Trophy's piece")
        if Trophy(owner=part.owner, kind=part.piece) not in giver.trophies:
            raise NotHeld(f"{seat_name(part.giver)} holds no {part.piece} Trophy of {seat_name(part.owner)}")


def _apply_part(box: Box, state: BlightedReachState, part: Part) -> dict:
    """Resolve one part already checked; returns what happened."""
    event = msgspec.to_builtins(part)
    giver, receiver = state.players[part.giver], state.players[part.receiver]
    if isinstance(part, CedeControl):
        here = state.systems[part.system]
        if part.piece == "ship":  # BR-207: the old ship home, the new one from supply, same side
            side = "damaged" if part.damaged else "fresh"
            setattr(here.ships[part.giver], side, getattr(here.ships[part.giver], side) - 1)
            giver.ships += 1
            while len(here.ships) <= part.receiver:
                here.ships.append(Ships())
            setattr(here.ships[part.receiver], side, getattr(here.ships[part.receiver], side) + 1)
            receiver.ships -= 1
        else:
            old = here.buildings[part.slot]
            here.buildings[part.slot] = Building(kind=old.kind, owner=part.receiver, damaged=old.damaged)
            if old.kind == "city":  # a city comes off its owner's board, leftmost first (ARCS-144)
                receiver.cities_on_board[receiver.cities_on_board.index(True)] = False
                return_city(box, state, part.giver)  # ARCS-249/250: the rightmost empty slot
            else:
                receiver.starports -= 1
                giver.starports += 1
    elif isinstance(part, DelegateAuthority):
        agents = state.court_agents[part.card]
        agents[part.giver] -= 1
        agent_returns(state, part.giver)
        agents[part.receiver] += 1
        receiver.agents -= 1
    elif isinstance(part, PromiseFavor):
        give_favor(state, part.receiver, part.giver)
    elif isinstance(part, TransferAsset):
        _apply_transfer(box, state, part, event)
    elif isinstance(part, TransferCard):
        held = giver.guild if part.card in giver.guild else giver.lore
        held.remove(part.card)
        (receiver.guild if held is giver.guild else receiver.lore).append(part.card)
        if held is giver.lore:  # F512B: a lore card received counts unless given back
            from plugins.blighted_reach.fate_caretaker import lore_given

            lore_given(box, state, part.giver, part.receiver, part.card)
    elif isinstance(part, TransferGolem):
        from plugins.blighted_reach.fate_caretaker import give_golem

        give_golem(state, part.giver, part.receiver, part.golem)
    elif isinstance(part, InviteToEmpire):
        state.titles[part.receiver] = "regent"
    elif isinstance(part, ForgiveOutrage):
        giver.outrage.remove(part.resource)  # its agent goes from the Outrage slot to the Fate card
        favor_row(state, part.receiver).append(part.giver)
    elif isinstance(part, ShareRumor):
        from plugins.blighted_reach.fate_pirate_rumors import place_agent_on_rumor

        place_agent_on_rumor(state, part.receiver, part.planet)
    return event


def _apply_transfer(box: Box, state: BlightedReachState, part: TransferAsset, event: dict) -> None:
    giver, receiver = state.players[part.giver], state.players[part.receiver]
    if part.asset == "resource" and part.source == "card":
        on_card = state.card_resources[part.card]
        on_card.remove(part.resource)
        if not on_card:
            del state.card_resources[part.card]
        receive(state, part.receiver, part.resource)  # no longer frozen once given
        return
    if part.asset == "resource":
        token = giver.resources[part.slot]
        giver.resources[part.slot] = None  # ARCS-210: the giver rearranges nothing
        receive(state, part.receiver, token)  # the receiver places it (ARCS-209)
        event["resource"] = token
        return
    home = part.owner == part.receiver  # BR-204: their own piece goes back to their supply
    if part.asset == "captive" and part.piece == "ship":
        ship_captives.hand_over(state, part.giver, part.receiver, part.owner)
    elif part.asset in ("captive", "favor"):  # both are agents
        (giver.captives if part.asset == "captive" else favor_row(state, part.giver)).remove(part.owner)
        if home:
            agent_returns(state, part.receiver)
        elif part.asset == "captive":
            receiver.captives.append(part.owner)
        else:
            favor_row(state, part.receiver).append(part.owner)
    else:
        trophy = Trophy(owner=part.owner, kind=part.piece)
        giver.trophies.remove(trophy)
        if not home:
            receiver.trophies.append(trophy)
        elif part.piece == "ship":
            receiver.ships += 1
        elif part.piece == "starport":
            receiver.starports += 1
        elif part.piece == "agent":
            agent_returns(state, part.receiver)
        else:
            return_city(box, state, part.receiver)
    event["returned_home"] = home


# -- reading the table ------------------------------------------------------------------


def _ships_on_map(state: BlightedReachState, seat: int) -> int:
    return sum(s.ships_of(seat).total for s in state.systems.values())


def _buildings_on_map(state: BlightedReachState, seat: int, kind: str) -> int:
    return sum(1 for s in state.systems.values() for b in s.buildings if b.owner == seat and b.kind == kind)


def _booklet_card(cbox: CampaignBox, state: BlightedReachState, handler: str) -> str:
    """The Summit card in the booklet whose effect is `handler`, or ""."""
    cards = cbox.fate_cards
    for slot in state.booklet:
        for card in slot:
            if card in cards and cards[card].kind == "summit" and any(
                    e.handler == handler for e in cards[card].abilities):
                return card
    return ""


def _card_fate_seat(cbox: CampaignBox, state: BlightedReachState, card: str) -> int:
    """The seat playing the Fate whose Set holds `card`, -1 when that Fate is not in play."""
    if not card:
        return -1
    fate = next((f.id for f in cbox.fates.values() if any(c.id == card for c in f.cards)), "")
    return state.fates.index(fate) if fate and fate in state.fates else -1


def _card_facts(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int, card: str) -> tuple[str, int, bool]:
    """(kind, raid cost, protected) of a card in the seat's play area; refuses any other."""
    player = state.players[seat]
    if card in player.lore:
        return "lore", 0, False
    if card in player.guild:
        facts = cbox.court.get(card) or cbox.fate_cards.get(card) or box.court.get(card)
        return "guild", getattr(facts, "raid_cost", 0), bool(getattr(facts, "protected", False))
    if seat < len(state.hands) and card in state.hands[seat]:
        raise NotTradeable("action cards cannot be given in a Summit")
    raise NotHeld(f"{card} is not in {seat_name(seat)}'s play area")


def _candidates(box: Box, cbox: CampaignBox, state: BlightedReachState, giver: int, receiver: int) -> list[Part]:
    """Every part shape from `giver` to `receiver` worth checking (unchecked)."""
    player = state.players[giver]
    out: list[Part] = [ForgiveOutrage(giver, receiver, r) for r in sorted(set(player.outrage))]  # F1411 only
    out += [ShareRumor(giver, receiver, p) for p, owners in sorted(state.rumor_agents.items())
            if giver in owners]  # F1212 only
    for system, here in sorted(state.systems.items()):
        mine = here.ships_of(giver)
        if mine.fresh:
            out.append(CedeControl(giver, receiver, system, "ship"))
        if mine.damaged:
            out.append(CedeControl(giver, receiver, system, "ship", damaged=True))
        out += [CedeControl(giver, receiver, system, b.kind, slot=i)
                for i, b in enumerate(here.buildings) if b.owner == giver]
    out += [DelegateAuthority(giver, receiver, c) for c in state.court_row if c in state.court_agents]
    out.append(PromiseFavor(giver, receiver))
    out += [TransferAsset(giver, receiver, "resource", slot=i) for i, r in enumerate(player.resources) if r]
    out += [TransferAsset(giver, receiver, "resource", source="card", card=c, resource=r)
            for c in player.guild for r in sorted(set(state.card_resources.get(c, [])))]
    out += [TransferAsset(giver, receiver, "captive", owner=o) for o in sorted(set(player.captives))]
    out += [TransferAsset(giver, receiver, "captive", owner=o, piece="ship")
            for o in sorted(set(ship_captives.held(state, giver)))]
    out += [TransferAsset(giver, receiver, "favor", owner=o) for o in sorted(set(favors_of(state, giver)))]
    out += [TransferAsset(giver, receiver, "trophy", owner=o, piece=k)
            for o, k in sorted({(t.owner, t.kind) for t in player.trophies})]
    out += [TransferCard(giver, receiver, c) for c in [*player.guild, *player.lore]]
    from plugins.blighted_reach.fate_caretaker import golems_of

    out += [TransferGolem(giver, receiver, g) for g in golems_of(state, giver)]
    out.append(InviteToEmpire(giver, receiver))
    return out


# -- Forgive (F1411, Reconcile with the Outraged) -----------------------------------------


def _check_forgive(cbox: CampaignBox, state: BlightedReachState, part: ForgiveOutrage) -> None:
    """Forgive is a Negotiation action only while F1411 is in the booklet; the giver must be
    Outraged in that type, with an agent on the slot to become the Favor.
    Reading: an Outrage covered by a placeholder (no agent was left, ARCS-194) has no agent
    to take, so it cannot be forgiven."""
    if not _booklet_card(cbox, state, FORGIVE):
        raise NotTradeable("Forgive is a Negotiation action only with Reconcile with the Outraged in the booklet")
    outraged = state.players[part.giver]
    if part.resource not in outraged.outrage:
        raise NotHeld(f"{seat_name(part.giver)} has no {part.resource} Outrage")
    if part.resource in outraged.outrage_placeholders:
        raise NotHeld(f"no agent covers {seat_name(part.giver)}'s {part.resource} Outrage")


def _psionic_slot(state: BlightedReachState, seat: int) -> int:
    row = state.players[seat].resources
    return next((i for i, r in enumerate(row) if r == "psionic"), -1)


def _room_for(box: Box, state: BlightedReachState, seat: int) -> bool:
    from plugins.arcs.setup import open_slots

    player = state.players[seat]
    return any(player.resources[i] is None for i in open_slots(box, player))


def check_forgive(box: Box, cbox: CampaignBox, state: BlightedReachState, caller: int, rival: int,
                  resource: str) -> None:
    """F1411 in the Call to Order: the caller forgives a Rival without consent by giving it a
    Psionic from the caller's resource row; the Rival must have an empty slot to hold it.
    Reading: a Psionic Monopoly held by a third seat would have to consent, and the Call to
    Order asks nobody, so it is refused then (the caller holding it consents by acting)."""
    _check_call_to_order(state, caller)
    _check_seat(state, rival)
    if rival == caller:
        raise BadParameter("Forgive takes a Rival's Outrage")
    _check_forgive(cbox, state, ForgiveOutrage(rival, caller, resource))
    if _psionic_slot(state, caller) < 0:
        raise CannotAfford("forgiving without consent gives the Rival a Psionic: you have none")
    if not _room_for(box, state, rival):
        raise IllegalAction(f"{seat_name(rival)} has no empty resource slot to hold the Psionic")
    from plugins.blighted_reach.fate_magnate import monopoly_holder

    holder = monopoly_holder(state, "psionic")
    if holder >= 0 and holder != caller:
        raise IllegalAction("the Psionic Monopoly's holder would have to consent to giving the Psionic")


def forgive(box: Box, cbox: CampaignBox, state: BlightedReachState, caller: int, rival: int, resource: str,
            return_favor_now: bool = False) -> dict:
    """The Psionic goes to the Rival (placed as any resource given), and the Rival's Outrage
    becomes the caller's Favor; the caller may send that Favor straight home instead."""
    check_forgive(box, cbox, state, caller, rival, resource)
    slot = _psionic_slot(state, caller)
    state.players[caller].resources[slot] = None
    receive(state, rival, "psionic")
    _apply_part(box, state, ForgiveOutrage(rival, caller, resource))
    if return_favor_now:
        return_favor(state, caller, rival)
    return {"rival": rival, "resource": resource, "favor_returned": return_favor_now}


def options_forgive(box: Box, cbox: CampaignBox, state: BlightedReachState, caller: int) -> list[dict]:
    """Each Outrage of each Rival the caller could forgive now in the Call to Order."""
    out = []
    for rival in range(len(state.players)):
        for resource in sorted(set(state.players[rival].outrage)) if rival != caller else ():
            try:
                check_forgive(box, cbox, state, caller, rival, resource)
            except (BadParameter, IllegalAction, CannotAfford):
                continue
            out += [{"kind": "forgive", "rival": rival, "resource": resource, "return_favor": back}
                    for back in (False, True)]
    return out
