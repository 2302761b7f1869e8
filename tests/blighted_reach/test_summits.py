"""Summits on real Act I tables (3 players: Lotus 0, Dane 1, Mikah 2, as the rulebook's
examples): calling one, the Call to Order, Negotiation deals taken all at once when every
affected seat consents (through the kernel's consent groups), refusals typed and leaving the
state byte-identical, and the end of Negotiations (A-R6). Each test names the BR checklist
IDs it proves."""
from __future__ import annotations

from types import SimpleNamespace

import msgspec
import pytest

from core import groups
from core.errors import ActionRejected, BadParameter, CannotAfford, IllegalAction, NotYourTurn
from core.flow import Ctx, StepTable
from core.rng import Rng
from plugins.arcs.setup import place_building, take_resource
from plugins.arcs.state import Building, Trophy
from plugins.blighted_reach import setup as br
from plugins.blighted_reach import summits as sm
from plugins.blighted_reach.invariants import problems
from plugins.blighted_reach.summits import (CedeControl, DelegateAuthority, InviteToEmpire, PromiseFavor,
                                            Proposal, TransferAsset, TransferCard)
from tests.blighted_reach.test_act_one_setup import BOX, CBOX, place_all, table

LOTUS, DANE, MIKAH = 0, 1, 2
CARDS = "the Court, Council and lore cards are not each in exactly one place"


def ready(seed: int = 11, n: int = 3) -> object:
    """A table after Act I setup, Fates, placements and hands; Lotus has the initiative and
    the First Regent tile."""
    state = table(n, seed)
    for seat in range(n):
        br.choose_fate(state, seat, state.fate_offers[seat][0])
    place_all(state)
    br.give_first_regent(state)
    br.deal_hands(CBOX, state, Rng(state))
    state.initiative = state.first_regent = LOTUS
    assert problems(BOX, CBOX, state) == []
    return state


def summit(state, caller: int = LOTUS, via: str = "event", negotiate: bool = True):
    if via == "council":  # secured this round, back in the Court Decided side up
        state.council = state.court_row[0] = sm.DECIDED
        state.court_agents[sm.DECIDED] = state.court_agents.pop(sm.IN_SESSION)
        sm.call_summit(state, caller, event_played=True, council_securer=caller)
    else:
        state.initiative = caller
        sm.call_summit(state, caller, event_played=True)
    if negotiate:
        sm.start_negotiations(state, caller)
    return state


def snapshot(state) -> bytes:
    return msgspec.msgpack.encode(state)


def game_bytes(state) -> bytes:
    """The state without the kernel's prompts and groups: what a deal may change."""
    return msgspec.msgpack.encode(msgspec.structs.replace(state, prompts=[], groups=[], next_prompt_id=0))


def refused(error, fn, state, *args, **kwargs):
    before = snapshot(state)
    with pytest.raises(error):
        fn(*args, **kwargs)
    assert snapshot(state) == before


def ship_systems(state, seat: int) -> list[str]:
    return sorted(s for s, x in state.systems.items() if x.ships_of(seat).total > 0)


def ships_on_map(state, seat: int) -> int:
    return sum(x.ships_of(seat).total for x in state.systems.values())


def building(state, seat: int, kind: str) -> tuple[str, int]:
    return next((s, i) for s, x in sorted(state.systems.items()) for i, b in enumerate(x.buildings)
                if b.owner == seat and b.kind == kind)


def free_slot_system(state, avoid: str = "") -> str:
    return next(s for s, x in sorted(state.systems.items())
                if s != avoid and BOX.systems[s] is not None and len(x.buildings) < BOX.systems[s].slots)


def clear_ships(state, seat: int, system: str) -> None:
    """Send the seat's ships in `system` back to its supply (an arrangement)."""
    mine = state.systems[system].ships[seat]
    state.players[seat].ships += mine.total
    mine.fresh = mine.damaged = 0


def put_in_court(state, card: str, agents: dict[int, int]) -> None:
    """`card` into the Court row (swapped with a row card if it is in the deck), with agents."""
    if card not in state.court_row:
        out = state.court_row[1]
        i = state.court_deck.index(card)
        state.court_deck[i] = out
        state.court_row[1] = card
        back = state.court_agents.pop(out)
        for seat, n in enumerate(back):
            state.players[seat].agents += n
        state.court_agents[card] = [0] * len(state.players)
    for seat, n in agents.items():
        state.court_agents[card][seat] += n
        state.players[seat].agents -= n


def guild_from_deck(state, seat: int) -> str:
    card = next(c for c in state.court_deck if c in CBOX.court and CBOX.court[c].kind == "guild")
    state.court_deck.remove(card)
    state.players[seat].guild.append(card)
    return card


# -- calling a Summit ---------------------------------------------------------------------


def test_the_initiative_holder_may_call_after_an_event_BR_154_185():
    """BR-154: after a round with an Event card, the initiative holder (Lotus) may call the
    Summit, nobody else; BR-185: it opens with the Call to Order, Negotiations come after."""
    state = ready()
    assert sm.may_call_summit(state, event_played=True) == LOTUS
    assert sm.may_call_summit(state, event_played=False) == -1
    refused(NotYourTurn, sm.call_summit, state, state, DANE, event_played=True)
    refused(IllegalAction, sm.call_summit, state, state, LOTUS, event_played=False)
    sm.call_summit(state, LOTUS, event_played=True)
    assert (state.summit_caller, state.summit_via, state.summit_stage) == (LOTUS, "event", "call_to_order")
    refused(IllegalAction, sm.call_summit, state, state, LOTUS, event_played=True)  # one at a time
    refused(IllegalAction, sm.check_proposal, state, BOX, CBOX, state, Proposal(DANE, [PromiseFavor(DANE, LOTUS)]))
    sm.start_negotiations(state, LOTUS)
    assert state.summit_stage == "negotiations"


def test_the_councils_securer_calls_not_the_initiative_holder_BR_166():
    """BR-166: with the Council secured this round its securer decides whether to call."""
    state = ready()
    assert sm.may_call_summit(state, event_played=True, council_securer=MIKAH) == MIKAH
    refused(NotYourTurn, sm.call_summit, state, state, LOTUS, event_played=True, council_securer=MIKAH)
    sm.call_summit(state, MIKAH, event_played=False, council_securer=MIKAH)
    assert (state.summit_caller, state.summit_via) == (MIKAH, "council")


# -- the Call to Order ---------------------------------------------------------------------


def lotus_holds_danes_relic_favors(seed: int = 11):
    """Dane has a Relic in his 4th resource slot (raid cost 2; a second city of his opens
    it) and Lotus holds 2 of Dane's agents as Favors (from the Imperial Demand)."""
    state = ready(seed)
    place_building(state, free_slot_system(state), DANE, "city")
    assert take_resource(BOX, state, DANE, "relic", 3)
    assert sm.give_favor(state, LOTUS, DANE) and sm.give_favor(state, LOTUS, DANE)
    assert problems(BOX, CBOX, state) == []
    return state


def test_lotus_returns_two_of_danes_favors_for_a_relic_then_petitions_BR_186_188_189_190_191_192():
    """BR-190: Lotus called the Summit by securing the Council; returning 2 of Dane's Favors
    (BR-186: his agents on Lotus's Fate card) forces Dane to give Lotus the Relic, since its
    slot's raid cost is 2 (BR-189); no consent is asked (BR-188). BR-191/BR-192: Lotus
    then flips the Council to In Session, though the Council let them call."""
    state = summit(lotus_holds_danes_relic_favors(), LOTUS, via="council", negotiate=False)
    agents = state.players[DANE].agents
    relic = TransferAsset(DANE, LOTUS, "resource", slot=3)
    assert sm.favors_to_force(BOX, CBOX, state, LOTUS, relic) == {DANE: 2}
    events = sm.return_favors(BOX, CBOX, state, LOTUS, DANE, [relic])
    assert events[0]["resource"] == "relic"
    assert sm.favors_of(state, LOTUS) == [] and state.players[DANE].agents == agents + 2
    assert state.players[DANE].resources[3] is None
    assert [(w.seat, w.tokens) for w in state.placing] == [(LOTUS, ["relic"])]  # Lotus places it
    assert problems(BOX, CBOX, state) == []
    sm.petition_council(state, LOTUS)
    assert state.council == state.court_row[0] == sm.IN_SESSION and sm.IN_SESSION in state.court_agents
    assert problems(BOX, CBOX, state) == []
    refused(IllegalAction, sm.petition_council, state, state, LOTUS)  # already In Session


def test_forcing_a_resource_costs_its_raid_cost_BR_189():
    """BR-189: with 1 of Dane's Favors Lotus cannot force the 2-key Relic, but can force a
    resource from a 1-key slot; anything else costs 1 Favor (BR-188)."""
    state = lotus_holds_danes_relic_favors()
    sm.return_favor(state, LOTUS, DANE)
    summit(state, LOTUS, negotiate=False)
    refused(CannotAfford, sm.return_favors, state, BOX, CBOX, state, LOTUS, DANE,
            [TransferAsset(DANE, LOTUS, "resource", slot=3)])
    cheap = next(i for i, r in enumerate(state.players[DANE].resources) if r and BOX.board.resource_slots[i].raid_cost == 1)
    assert sm.favors_to_force(BOX, CBOX, state, LOTUS, TransferAsset(DANE, LOTUS, "resource", slot=cheap)) == {DANE: 1}
    assert sm.favors_to_force(BOX, CBOX, state, LOTUS, PromiseFavor(DANE, LOTUS)) == {DANE: 1}
    system = ship_systems(state, DANE)[0]
    assert sm.favors_to_force(BOX, CBOX, state, LOTUS, CedeControl(DANE, LOTUS, system, "ship")) == {DANE: 1}
    options = sm.options_forced(BOX, CBOX, state, LOTUS, DANE)
    assert {"part": msgspec.to_builtins(TransferAsset(DANE, LOTUS, "resource", slot=3)), "cost": {"1": 2}} not in options
    assert all(o["cost"] == {"1": 1} for o in options) and options


def test_forced_actions_are_the_rivals_and_target_the_caller_BR_188():
    """BR-188: the forced actions are the Rival's, affecting the caller; several may be
    forced at once for their summed cost; a Rival's Favors pay only for that Rival."""
    state = summit(lotus_holds_danes_relic_favors(), LOTUS, negotiate=False)
    system = ship_systems(state, LOTUS)[0]
    refused(IllegalAction, sm.return_favors, state, BOX, CBOX, state, LOTUS, DANE,
            [CedeControl(LOTUS, DANE, system, "ship")])
    refused(IllegalAction, sm.return_favors, state, BOX, CBOX, state, LOTUS, DANE, [PromiseFavor(DANE, MIKAH)])
    refused(CannotAfford, sm.return_favors, state, BOX, CBOX, state, LOTUS, MIKAH, [PromiseFavor(MIKAH, LOTUS)])
    refused(BadParameter, sm.return_favors, state, BOX, CBOX, state, LOTUS, DANE, [])
    dane_system = ship_systems(state, DANE)[0]
    ships = state.systems[dane_system].ships_of(DANE).total
    sm.return_favors(BOX, CBOX, state, LOTUS, DANE,
                     [PromiseFavor(DANE, LOTUS), CedeControl(DANE, LOTUS, dane_system, "ship")])
    assert sm.favors_of(state, LOTUS) == [DANE]  # 2 returned, 1 promised anew
    assert state.systems[dane_system].ships_of(DANE).total == ships - 1
    assert state.systems[dane_system].ships_of(LOTUS).fresh >= 1
    assert problems(BOX, CBOX, state) == []


def test_returned_favors_go_home_before_the_forced_actions():
    """Reading: the Favors are the price, paid first; so a Rival with no agent left can be
    forced to promise one, with the agent just returned."""
    state = ready()
    while state.players[DANE].agents:
        sm.give_favor(state, LOTUS, DANE)
    held = len(sm.favors_of(state, LOTUS))
    summit(state, LOTUS, negotiate=False)
    sm.return_favors(BOX, CBOX, state, LOTUS, DANE, [PromiseFavor(DANE, LOTUS)])
    assert len(sm.favors_of(state, LOTUS)) == held and state.players[DANE].agents == 0
    assert problems(BOX, CBOX, state) == []


def test_only_the_caller_takes_call_to_order_actions_any_number_of_them_BR_187():
    """BR-187: Dane may not act in Lotus's Call to Order; Lotus takes several actions,
    then none once Negotiations began."""
    state = summit(lotus_holds_danes_relic_favors(), LOTUS, via="council", negotiate=False)
    for fn in (sm.petition_council, sm.leave_the_empire, sm.start_negotiations):
        kwargs = {}
        refused(NotYourTurn, fn, state, state, DANE, **kwargs)
    refused(NotYourTurn, sm.return_favors, state, BOX, CBOX, state, DANE, LOTUS, [PromiseFavor(LOTUS, DANE)])
    kinds = [o["kind"] for o in sm.options_call_to_order(BOX, CBOX, state, LOTUS)]
    assert kinds == ["petition_council", "leave_the_empire", "return_favors", "start_negotiations"]
    assert sm.options_call_to_order(BOX, CBOX, state, DANE) == []
    sm.petition_council(state, LOTUS)
    sm.return_favors(BOX, CBOX, state, LOTUS, DANE, [PromiseFavor(DANE, LOTUS)])
    sm.leave_the_empire(state, LOTUS)
    sm.start_negotiations(state, LOTUS)
    refused(IllegalAction, sm.return_favors, state, BOX, CBOX, state, LOTUS, DANE, [PromiseFavor(DANE, LOTUS)])
    refused(IllegalAction, sm.petition_council, state, state, LOTUS)


def test_a_regent_leaves_the_empire_only_as_the_caller_BR_117_118_193():
    """BR-117/BR-118/BR-193: Dane, a Regent calling the Summit, flips to Outlaw with Leave
    the Empire; Lotus, not the caller, cannot; an Outlaw cannot leave again."""
    state = summit(ready(), DANE, negotiate=False)
    assert state.first_regent == LOTUS
    refused(NotYourTurn, sm.leave_the_empire, state, state, LOTUS)
    assert sm.leave_the_empire(state, DANE) == 0
    assert state.titles == ["regent", "outlaw", "regent"] and state.first_regent == LOTUS
    refused(IllegalAction, sm.leave_the_empire, state, state, DANE)


def test_the_first_regent_leaving_hands_the_tile_to_the_most_powerful_regent_BR_194():
    """BR-194: First Regent Lotus leaves; Mikah, the Regent with the most Power, takes the
    tile, and the Trust stays on it. On a tie the first in turn order from the initiative
    holder takes it (G-1)."""
    state = summit(ready(), LOTUS, negotiate=False)
    state.players[DANE].power, state.players[MIKAH].power = 3, 5
    for r in ("relic", "psionic"):
        state.supply[r] -= 1  # the Trust's tokens came from the supply
    state.trust = ["relic", "psionic"]
    assert sm.leave_the_empire(state, LOTUS) == 0
    assert state.first_regent == MIKAH and state.trust == ["relic", "psionic"] and state.titles[LOTUS] == "outlaw"
    tie = summit(ready(), LOTUS, negotiate=False)
    tie.players[DANE].power = tie.players[MIKAH].power = 4
    sm.leave_the_empire(tie, LOTUS)
    assert tie.first_regent == DANE  # Dane follows Lotus in turn order


def test_the_last_regent_leaving_empties_the_trust_BR_195_then_revive_BR_196():
    """BR-195: the First Regent leaves with no other Regent: the Trust's 2 resources go to
    the supply, they lose 2 Power (1 to -1), the tile goes to the supply. BR-196: Revive the Empire
    is refused while a Regent exists, and with none the caller becomes First Regent."""
    state = summit(ready(), LOTUS, negotiate=False)
    refused(IllegalAction, sm.revive_the_empire, state, state, LOTUS)
    state.titles[DANE] = state.titles[MIKAH] = "outlaw"
    state.players[LOTUS].power = 1
    supply = dict(state.supply)
    state.trust = ["relic", "fuel"]
    for r in state.trust:
        state.supply[r] -= 1  # the Trust's tokens came from the supply
    assert sm.leave_the_empire(state, LOTUS) == 2
    assert state.trust == [] and state.supply == supply and state.players[LOTUS].power == -1  # Power may go negative
    assert state.first_regent == -1 and state.titles == ["outlaw"] * 3
    sm.start_negotiations(state, LOTUS)
    sm.end_negotiations(state, LOTUS)
    summit(state, MIKAH, negotiate=False)
    assert "revive_the_empire" in [o["kind"] for o in sm.options_call_to_order(BOX, CBOX, state, MIKAH)]
    refused(NotYourTurn, sm.revive_the_empire, state, state, DANE)
    sm.revive_the_empire(state, MIKAH)
    assert state.titles[MIKAH] == "regent" and state.first_regent == MIKAH
    assert problems(BOX, CBOX, state) == []


# -- Negotiations ------------------------------------------------------------------------


def test_mikah_and_dane_trade_construction_union_for_two_ships_BR_202_207_208_209():
    """BR-209: Mikah proposes: Dane replaces 1 of his agents on Construction Union with
    hers (Delegate Authority, BR-202) and she replaces 2 of her ships with his (Cede Control).
    Only Dane's consent is needed; all of it happens at once (BR-208), every piece from and
    back to its owner's supply (BR-207)."""
    state = ready()
    put_in_court(state, "CC02", {DANE: 1})
    summit(state, LOTUS)
    system = ship_systems(state, MIKAH)[0]
    before = state.systems[system].ships_of(MIKAH).fresh
    danes = state.systems[system].ships_of(DANE).fresh
    assert before >= 2
    deal = Proposal(MIKAH, [DelegateAuthority(DANE, MIKAH, "CC02"),
                            CedeControl(MIKAH, DANE, system, "ship"), CedeControl(MIKAH, DANE, system, "ship")])
    assert sm.consents_needed(CBOX, state, deal) == [DANE]
    agents = (state.players[DANE].agents, state.players[MIKAH].agents)
    ships = (state.players[DANE].ships, state.players[MIKAH].ships)
    sm.apply_proposal(BOX, CBOX, state, deal)
    assert state.court_agents["CC02"][DANE] == 0 and state.court_agents["CC02"][MIKAH] == 1
    assert (state.players[DANE].agents, state.players[MIKAH].agents) == (agents[0] + 1, agents[1] - 1)
    assert state.systems[system].ships_of(MIKAH).fresh == before - 2
    assert state.systems[system].ships_of(DANE).fresh == danes + 2
    assert (state.players[DANE].ships, state.players[MIKAH].ships) == (ships[0] - 2, ships[1] + 2)
    assert problems(BOX, CBOX, state) == []


STEPS = StepTable("summit_test")


@STEPS("deal_accepted")
def deal_accepted(ctx, proposer, proposal):
    """What the flow's resume step does: the deal, checked again, all at once."""
    sm.apply_proposal(BOX, CBOX, ctx.state, sm.proposal_from(proposal))


def kernel(state) -> Ctx:
    return Ctx(state, SimpleNamespace(handlers={**groups.steps, **STEPS}, decisions={}))


def three_part_deal(state) -> Proposal:
    """Lotus gives Dane a resource, Dane promises Lotus a Favor, Mikah cedes Lotus a ship."""
    slot = next(i for i, r in enumerate(state.players[LOTUS].resources) if r)
    return Proposal(LOTUS, [TransferAsset(LOTUS, DANE, "resource", slot=slot), PromiseFavor(DANE, LOTUS),
                            CedeControl(MIKAH, LOTUS, ship_systems(state, MIKAH)[0], "ship")])


def test_a_three_part_deal_with_two_rivals_applies_only_when_both_consent_BR_198_208():
    """BR-198: the deal affects Dane and Mikah, so both must consent; through the kernel's
    consent group nothing moves while one has not accepted, then all three parts at once."""
    state = summit(ready(), LOTUS)
    deal = three_part_deal(state)
    sm.check_proposal(BOX, CBOX, state, deal)
    seats = sm.consents_needed(CBOX, state, deal)
    assert seats == [DANE, MIKAH]
    ctx = kernel(state)
    before = game_bytes(state)
    gid = groups.propose(ctx, LOTUS, seats, sm.proposal_data(deal), deal_accepted)
    assert sm.open_proposals(state) == 1
    groups.consented(ctx, seat=MIKAH, params={"accept": True}, group=gid)
    assert game_bytes(state) == before
    system = deal.parts[2].system
    lotus_ships, favors = state.systems[system].ships_of(LOTUS).fresh, len(sm.favors_of(state, LOTUS))
    groups.consented(ctx, seat=DANE, params={"accept": True}, group=gid)
    assert sm.open_proposals(state) == 0
    assert [(w.seat, len(w.tokens)) for w in state.placing] == [(DANE, 1)]
    assert len(sm.favors_of(state, LOTUS)) == favors + 1
    assert state.systems[system].ships_of(LOTUS).fresh == lotus_ships + 1
    assert problems(BOX, CBOX, state) == []


@pytest.mark.parametrize("how", ["decline", "withdraw"])
def test_a_declined_or_withdrawn_deal_changes_nothing_BR_198(how):
    """BR-198: one decline (after the other rival accepted) or the proposer's withdrawal
    drops the deal; the table is as before it was proposed."""
    state = summit(ready(), LOTUS)
    ctx = kernel(state)
    before = game_bytes(state)
    gid = groups.propose(ctx, LOTUS, [DANE, MIKAH], sm.proposal_data(three_part_deal(state)), deal_accepted)
    groups.consented(ctx, seat=DANE, params={"accept": True}, group=gid)
    if how == "decline":
        groups.consented(ctx, seat=MIKAH, params={"accept": False}, group=gid)
    else:
        groups.withdrawn(ctx, seat=LOTUS, params={}, group=gid)
    assert game_bytes(state) == before and state.groups == [] and state.prompts == []


def test_a_deal_that_no_longer_holds_when_accepted_is_refused_whole():
    """Between the proposal and the last consent Lotus spent the resource: the accepted deal
    is refused with a typed error and nothing of it happens."""
    state = summit(ready(), LOTUS)
    deal = three_part_deal(state)
    ctx = kernel(state)
    gid = groups.propose(ctx, LOTUS, [DANE, MIKAH], sm.proposal_data(deal), deal_accepted)
    groups.consented(ctx, seat=DANE, params={"accept": True}, group=gid)
    slot = deal.parts[0].slot
    state.supply[state.players[LOTUS].resources[slot]] += 1
    state.players[LOTUS].resources[slot] = None
    before = game_bytes(state)
    with pytest.raises(sm.NotHeld):
        groups.consented(ctx, seat=MIKAH, params={"accept": True}, group=gid)
    assert game_bytes(state) == before


def test_deals_of_any_seat_in_any_order_BR_197():
    """BR-197: after the Call to Order any seat proposes, as many deals as they like."""
    state = summit(ready(), LOTUS)
    sm.apply_proposal(BOX, CBOX, state, Proposal(MIKAH, [PromiseFavor(MIKAH, DANE)]))
    sm.apply_proposal(BOX, CBOX, state, Proposal(DANE, [PromiseFavor(DANE, LOTUS), PromiseFavor(MIKAH, LOTUS)]))
    sm.apply_proposal(BOX, CBOX, state, Proposal(LOTUS, [TransferAsset(LOTUS, MIKAH, "favor", owner=DANE)]))
    assert sm.favors_of(state, DANE) == [MIKAH] and sm.favors_of(state, LOTUS) == [MIKAH]
    assert sm.favors_of(state, MIKAH) == [DANE]
    assert problems(BOX, CBOX, state) == []


def test_promise_favor_puts_a_supply_agent_on_the_rivals_fate_card_BR_186_203():
    """BR-203/BR-186: the agent leaves Dane's supply and is a Favor Lotus holds; with no
    agent left in supply Dane cannot promise one."""
    state = summit(ready(), LOTUS)
    agents = state.players[DANE].agents
    sm.apply_proposal(BOX, CBOX, state, Proposal(LOTUS, [PromiseFavor(DANE, LOTUS)]))
    assert state.players[DANE].agents == agents - 1 and sm.favors_of(state, LOTUS) == [DANE]
    state.players[DANE].agents, spare = 0, state.players[DANE].agents
    state.players[MIKAH].captives += [DANE] * spare  # his other agents are Mikah's Captives
    refused(CannotAfford, sm.apply_proposal, state, BOX, CBOX, state, Proposal(LOTUS, [PromiseFavor(DANE, LOTUS)]))
    assert problems(BOX, CBOX, state) == []


def test_cede_control_keeps_the_side_and_the_rules_for_buildings_BR_199_200_201_207():
    """BR-199/BR-207: a damaged ship is replaced by a damaged Rival ship. BR-200: Dane's
    city is ceded only once none of his ships are in its system. BR-201: never his last
    city; with a second city he cedes one (damaged, so Mikah's is damaged), Mikah's comes
    off her board leftmost first, his goes back to the rightmost empty slot."""
    state = summit(ready(), LOTUS)
    system = ship_systems(state, DANE)[0]
    here = state.systems[system]
    here.ships[DANE].fresh -= 1
    here.ships[DANE].damaged += 1
    sm.apply_proposal(BOX, CBOX, state, Proposal(DANE, [CedeControl(DANE, MIKAH, system, "ship", damaged=True)]))
    assert here.ships_of(DANE).damaged == 0 and here.ships_of(MIKAH).damaged == 1
    city_system, slot = building(state, DANE, "city")
    cede = Proposal(MIKAH, [CedeControl(DANE, MIKAH, city_system, "city", slot=slot)])
    assert state.systems[city_system].ships_of(DANE).total > 0  # placed with it at setup
    refused(IllegalAction, sm.apply_proposal, state, BOX, CBOX, state, cede)
    clear_ships(state, DANE, city_system)
    refused(sm.LastPiece, sm.apply_proposal, state, BOX, CBOX, state, cede)
    place_building(state, free_slot_system(state, city_system), DANE, "city")
    state.systems[city_system].buildings[slot].damaged = True
    dane_board, mikah_board = list(state.players[DANE].cities_on_board), list(state.players[MIKAH].cities_on_board)
    sm.apply_proposal(BOX, CBOX, state, cede)
    assert state.systems[city_system].buildings[slot] == Building(kind="city", owner=MIKAH, damaged=True)
    assert state.players[MIKAH].cities_on_board == [False] * (mikah_board.count(False) + 1) + [True] * (4 - mikah_board.count(False))
    assert state.players[DANE].cities_on_board == [False, True, True, True, True] and dane_board[:2] == [False, False]
    assert problems(BOX, CBOX, state) == []


def test_the_last_ship_on_the_map_is_never_ceded_even_within_a_deal_BR_201_208():
    """BR-201 with BR-208: parts resolve in order; ceding Dane's two last ships refuses the
    whole deal at the second, and nothing of it happens."""
    state = summit(ready(), LOTUS)
    keep = ship_systems(state, DANE)[0]
    for s in ship_systems(state, DANE):
        if s != keep:
            clear_ships(state, DANE, s)
    here = state.systems[keep].ships[DANE]
    state.players[DANE].ships += here.total - 2
    here.fresh, here.damaged = 2, 0
    one = CedeControl(DANE, LOTUS, keep, "ship")
    refused(sm.LastPiece, sm.apply_proposal, state, BOX, CBOX, state, Proposal(LOTUS, [one, one]))
    sm.apply_proposal(BOX, CBOX, state, Proposal(LOTUS, [one]))
    assert ships_on_map(state, DANE) == 1
    refused(sm.LastPiece, sm.apply_proposal, state, BOX, CBOX, state, Proposal(LOTUS, [one]))
    assert problems(BOX, CBOX, state) == []


def test_transfer_asset_gives_captives_trophies_favors_and_resources_BR_204():
    """BR-204: Lotus gives Dane a Captive, Trophy or Favor of Mikah's, which he then holds,
    and Dane's own Captive, city Trophy and Favor, which go back to his supply and board;
    a resource waits for Dane to place it."""
    state = ready()
    for holder, owner in [(LOTUS, MIKAH), (LOTUS, DANE)]:
        state.players[owner].agents -= 2
        state.players[holder].captives.append(owner)
        sm.give_favor(state, holder, owner)
        state.players[owner].agents += 1
    city_system, slot = building(state, DANE, "city")
    place_building(state, free_slot_system(state), DANE, "city")  # his last city is not the one lost
    del state.systems[city_system].buildings[slot]
    state.players[LOTUS].trophies += [Trophy(owner=DANE, kind="city"), Trophy(owner=MIKAH, kind="ship")]
    state.players[MIKAH].ships -= 1
    assert problems(BOX, CBOX, state) == []
    summit(state, LOTUS)
    agents, board = state.players[DANE].agents, sum(state.players[DANE].cities_on_board)
    resource_slot = next(i for i, r in enumerate(state.players[LOTUS].resources) if r)
    token = state.players[LOTUS].resources[resource_slot]
    parts = [TransferAsset(LOTUS, DANE, "captive", owner=MIKAH), TransferAsset(LOTUS, DANE, "captive", owner=DANE),
             TransferAsset(LOTUS, DANE, "trophy", owner=MIKAH, piece="ship"),
             TransferAsset(LOTUS, DANE, "trophy", owner=DANE, piece="city"),
             TransferAsset(LOTUS, DANE, "favor", owner=MIKAH), TransferAsset(LOTUS, DANE, "favor", owner=DANE),
             TransferAsset(LOTUS, DANE, "resource", slot=resource_slot)]
    events = sm.apply_proposal(BOX, CBOX, state, Proposal(DANE, parts))
    assert [e.get("returned_home") for e in events] == [False, True, False, True, False, True, None]
    dane = state.players[DANE]
    assert dane.captives == [MIKAH] and dane.trophies == [Trophy(owner=MIKAH, kind="ship")]
    assert sm.favors_of(state, DANE) == [MIKAH] and dane.agents == agents + 2
    assert sum(dane.cities_on_board) == board + 1
    assert state.players[LOTUS].captives == [] and state.players[LOTUS].trophies == [] and sm.favors_of(state, LOTUS) == []
    assert [(w.seat, w.tokens) for w in state.placing] == [(DANE, [token])]
    assert problems(BOX, CBOX, state) == []


def test_cards_are_not_given_BR_205():
    """BR-205: Transfer Asset gives no cards: not a Guild card, not lore, not an action
    card from hand; and a Rival's card is not the giver's to give."""
    state = summit(ready(), LOTUS)
    card = guild_from_deck(state, DANE)
    lore = state.lore_deck[0]
    state.lore_deck.remove(lore)
    state.players[DANE].lore.append(lore)
    for bad, error in [(TransferCard(DANE, LOTUS, card), sm.NotTradeable), (TransferCard(DANE, LOTUS, lore), sm.NotTradeable),
                       (TransferCard(DANE, LOTUS, state.hands[DANE][0]), sm.NotTradeable),
                       (TransferCard(LOTUS, DANE, card), sm.NotHeld)]:
        refused(error, sm.apply_proposal, state, BOX, CBOX, state, Proposal(LOTUS, [bad]))
    assert not any(p["kind"] == "transfer_card" for p in sm.options_parts(BOX, CBOX, state, DANE, LOTUS))


def test_summit_cards_in_the_booklet_let_guild_cards_and_lore_be_given():
    """Guild Negotiations (F414) in the booklet: a Guild card can be given, with the
    Advocate's consent when the Advocate is in play; forcing it costs its raid cost, never a
    protected one. Knowledge Set Free (F514): lore can be given, never forced."""
    state = summit(ready(), LOTUS, negotiate=False)
    card = guild_from_deck(state, DANE)
    protected = "F202"  # Parade Fleets, protected
    state.players[DANE].guild.append(protected)
    lore = state.lore_deck.pop(0)
    state.players[DANE].lore.append(lore)
    state.booklet += [["F414"], ["F514"]]
    assert "FATE04" not in state.fates
    state.fates[MIKAH] = "FATE04"  # Mikah plays the Advocate
    for _ in range(2):
        sm.give_favor(state, LOTUS, DANE)
    give = Proposal(LOTUS, [TransferCard(DANE, LOTUS, card)])
    assert sm.consents_needed(CBOX, state, give) == [DANE, MIKAH]
    assert sm.favors_to_force(BOX, CBOX, state, LOTUS, TransferCard(DANE, LOTUS, card)) == {DANE: 2, MIKAH: 1}
    refused(CannotAfford, sm.return_favors, state, BOX, CBOX, state, LOTUS, DANE, [TransferCard(DANE, LOTUS, card)])
    refused(sm.NotTradeable, sm.return_favors, state, BOX, CBOX, state, LOTUS, DANE, [TransferCard(DANE, LOTUS, protected)])
    refused(sm.NotTradeable, sm.return_favors, state, BOX, CBOX, state, LOTUS, DANE, [TransferCard(DANE, LOTUS, lore)])
    sm.start_negotiations(state, LOTUS)
    sm.apply_proposal(BOX, CBOX, state, Proposal(DANE, [TransferCard(DANE, LOTUS, card), TransferCard(DANE, MIKAH, lore)]))
    assert card in state.players[LOTUS].guild and lore in state.players[MIKAH].lore
    assert card not in state.players[DANE].guild and lore not in state.players[DANE].lore
    assert sm.consents_needed(CBOX, state, Proposal(MIKAH, [TransferCard(LOTUS, MIKAH, card)])) == [LOTUS]


def test_invite_to_empire_only_by_the_first_regent_BR_119_206():
    """BR-206: only the First Regent (Lotus) flips an Outlaw (Dane) to Regent, with his
    consent (BR-119); Mikah cannot; a Regent cannot be invited. BR-119: Dane, calling a
    later Summit as an Outlaw, forces it by returning 1 of Lotus's Favors."""
    state = ready()
    state.titles[DANE] = "outlaw"
    summit(state, LOTUS)
    refused(IllegalAction, sm.apply_proposal, state, BOX, CBOX, state, Proposal(MIKAH, [InviteToEmpire(MIKAH, DANE)]))
    refused(IllegalAction, sm.apply_proposal, state, BOX, CBOX, state, Proposal(LOTUS, [InviteToEmpire(LOTUS, MIKAH)]))
    invite = Proposal(DANE, [InviteToEmpire(LOTUS, DANE)])
    assert sm.consents_needed(CBOX, state, invite) == [LOTUS]
    sm.apply_proposal(BOX, CBOX, state, invite)
    assert state.titles[DANE] == "regent"
    sm.end_negotiations(state, LOTUS)
    state.titles[DANE] = "outlaw"
    sm.give_favor(state, DANE, LOTUS)
    summit(state, DANE, negotiate=False)
    sm.return_favors(BOX, CBOX, state, DANE, LOTUS, [InviteToEmpire(LOTUS, DANE)])
    assert state.titles[DANE] == "regent" and sm.favors_of(state, DANE) == []
    assert problems(BOX, CBOX, state) == []


def test_the_imperial_trusts_resources_are_never_given():
    """The giving half of BR 260 / BR 319: a resource named on the Imperial Trust is refused
    as frozen, in a deal and when forced."""
    state = summit(ready(), LOTUS, negotiate=False)
    sm.give_favor(state, LOTUS, DANE)
    trust = TransferAsset(DANE, LOTUS, "resource", source="imperial_trust", resource="relic")
    refused(sm.Frozen, sm.return_favors, state, BOX, CBOX, state, LOTUS, DANE, [trust])
    sm.start_negotiations(state, LOTUS)
    refused(sm.Frozen, sm.apply_proposal, state, BOX, CBOX, state, Proposal(LOTUS, [trust]))


def bad_proposals(state) -> list[tuple[Proposal, type]]:
    system = ship_systems(state, DANE)[0]
    empty = next(i for i, r in enumerate(state.players[DANE].resources) if r is None)
    return [
        (Proposal(LOTUS, []), BadParameter),
        (Proposal(LOTUS, [PromiseFavor(LOTUS, LOTUS)]), BadParameter),
        (Proposal(LOTUS, [PromiseFavor(LOTUS, 7)]), BadParameter),
        (Proposal(LOTUS, [PromiseFavor(DANE, MIKAH)]), IllegalAction),  # not Lotus's deal
        (Proposal(LOTUS, [CedeControl(DANE, LOTUS, "nowhere", "ship")]), BadParameter),
        (Proposal(LOTUS, [CedeControl(DANE, LOTUS, system, "ship", damaged=True)]), sm.NotHeld),
        (Proposal(LOTUS, [CedeControl(DANE, LOTUS, system, "city", slot=9)]), BadParameter),
        (Proposal(LOTUS, [DelegateAuthority(DANE, LOTUS, state.court_row[1])]), sm.NotHeld),
        (Proposal(LOTUS, [DelegateAuthority(DANE, LOTUS, "CC99")]), BadParameter),
        (Proposal(LOTUS, [TransferAsset(DANE, LOTUS, "resource", slot=empty)]), sm.NotHeld),
        (Proposal(LOTUS, [TransferAsset(DANE, LOTUS, "captive", owner=MIKAH)]), sm.NotHeld),
        (Proposal(LOTUS, [TransferAsset(DANE, LOTUS, "favor", owner=MIKAH)]), sm.NotHeld),
        (Proposal(LOTUS, [TransferAsset(DANE, LOTUS, "trophy", owner=MIKAH, piece="ship")]), sm.NotHeld),
        (Proposal(LOTUS, [TransferAsset(DANE, LOTUS, "favor")]), BadParameter),
        (Proposal(LOTUS, [PromiseFavor(DANE, LOTUS), InviteToEmpire(DANE, LOTUS)]), IllegalAction),
    ]


def test_bad_proposals_are_refused_typed_and_change_nothing():
    """Each bad deal raises its typed error (all ActionRejected) and the state stays
    byte-identical; a good part before a bad one does not happen either."""
    state = summit(ready(), LOTUS)
    for proposal, error in bad_proposals(state):
        assert issubclass(error, ActionRejected)
        refused(error, sm.check_proposal, state, BOX, CBOX, state, proposal)
        refused(error, sm.apply_proposal, state, BOX, CBOX, state, proposal)


def test_proposals_travel_as_plain_data():
    """A consent group holds plain data: a proposal converts there and back unchanged;
    malformed data is a BadParameter."""
    state = summit(ready(), LOTUS)
    deal = three_part_deal(state)
    data = sm.proposal_data(deal)
    assert isinstance(data, dict) and data["parts"][0]["kind"] == "transfer_asset"
    assert sm.proposal_from(data) == deal
    with pytest.raises(BadParameter):
        sm.proposal_from({"proposer": 0, "parts": [{"kind": "steal_everything", "giver": 1, "receiver": 0}]})


def test_options_list_only_parts_that_would_be_accepted():
    """Every part `options_parts` offers is accepted alone. Dane (an Outlaw, holding a Guild
    card and an agent on Construction Union) may cede, delegate, promise and give, never a
    card or an invitation; Lotus, First Regent, may invite him."""
    state = ready()
    put_in_court(state, "CC02", {DANE: 1})
    guild_from_deck(state, DANE)
    state.titles[DANE] = "outlaw"
    summit(state, LOTUS)
    for giver, receiver in [(DANE, LOTUS), (LOTUS, DANE), (MIKAH, DANE)]:
        for option in sm.options_parts(BOX, CBOX, state, giver, receiver):
            sm.check_proposal(BOX, CBOX, state, Proposal(giver, [msgspec.convert(option, sm.Part)]))
    kinds = lambda g, r: {o["kind"] for o in sm.options_parts(BOX, CBOX, state, g, r)}
    assert kinds(DANE, LOTUS) == {"cede_control", "delegate_authority", "promise_favor", "transfer_asset"}
    assert "invite_to_empire" in kinds(LOTUS, DANE) and "invite_to_empire" not in kinds(MIKAH, DANE)
    delegations = [o for o in sm.options_parts(BOX, CBOX, state, DANE, LOTUS) if o["kind"] == "delegate_authority"]
    assert delegations == [{"kind": "delegate_authority", "giver": DANE, "receiver": LOTUS, "card": "CC02"}]


def test_negotiations_end_when_all_said_done_or_the_caller_ends_them_BR_210():
    """BR-210 as A-R6: Negotiations are over once every seat said "done" since the last
    completed deal (a deal clears them all); the caller may end them at any time with no
    deal open, nobody else; with a deal open they are not over."""
    state = summit(ready(), LOTUS)
    refused(NotYourTurn, sm.end_negotiations, state, state, DANE)
    sm.say_done(state, DANE)
    sm.say_done(state, MIKAH)
    assert not sm.negotiations_over(state)
    sm.apply_proposal(BOX, CBOX, state, Proposal(LOTUS, [PromiseFavor(DANE, LOTUS)]))
    assert state.summit_done == []
    for seat in (MIKAH, LOTUS, DANE):
        sm.say_done(state, seat)
    assert sm.negotiations_over(state)
    ctx = kernel(state)
    gid = groups.propose(ctx, LOTUS, [DANE], sm.proposal_data(Proposal(LOTUS, [PromiseFavor(DANE, LOTUS)])),
                         deal_accepted)
    assert not sm.negotiations_over(state)
    refused(IllegalAction, sm.end_negotiations, state, state, LOTUS)
    groups.withdrawn(ctx, seat=LOTUS, params={}, group=gid)
    sm.end_negotiations(state, LOTUS)
    assert (state.summit_caller, state.summit_stage, state.summit_done) == (-1, "", [])
    refused(IllegalAction, sm.say_done, state, state, DANE)
