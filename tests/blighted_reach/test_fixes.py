"""Known Blighted Reach bugs, each proved fixed through the engine on an arranged table:
an Armistice (F216) on the In Session Imperial Council, protected Guild cards (BR-309) and
Guild Fair's secures (F416). Each test names the cards and checklist IDs it proves."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected
from core.state import Action
from plugins.arcs.state import Battle, Ships
from plugins.blighted_reach.council import DECIDED, IN_SESSION
from tests.blighted_reach.flow_helpers import options, restart_round
from tests.blighted_reach.test_fate_advocate import SEAT, act_three, take_card, vox_in_court
from tests.blighted_reach.test_fate_advocate import run_steps as advocate_run_steps
from tests.blighted_reach.test_fate_founder import FOUNDER, act_three_table, founder_table, restart
from tests.blighted_reach.test_fate_founder import run_steps as founder_run_steps


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def refused(t, seat: int, action: Action) -> None:
    """The action is refused with a typed error and the table is byte-identical after."""
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(seat, action)
    assert snapshot(t) == before


def sound(t) -> None:
    problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
    assert problems == []


# -- 1. an Armistice attached to the In Session Council (F216, F226) ----------------------------
def council_under_armistice():
    """Act III with the Founder (seat 0), the Steward and the Admiral, the Fates of the bot
    campaigns that stopped: the Mass Call (F226) lets the least powerful Member (seat 1)
    attach an Armistice to the In Session Council, the Founder declines to attach the other;
    then seat 0 has 2 agents on the Council and seat 1 has 1."""
    from plugins.blighted_reach import event_flow

    t = act_three_table((FOUNDER, "FATE01", "FATE07"))
    t.act(1, Action("authority_policy", {"card": "F124"}))  # the Steward's Act III setup choice
    s = t.state
    s.players[0].power, s.players[1].power, s.players[2].power = 5, 1, 7
    founder_run_steps(t, (event_flow.edict, {"card": "F226", "do": "handler", "handler": "mass_call_for_armistice"}))
    t.act(1, Action("armistice", {"armistice": "F216", "host": IN_SESSION}))
    t.act(0, Action("armistice", {"armistice": "", "host": ""}))
    s = t.state
    assert s.attached == {IN_SESSION: "F216"}
    for seat, n in ((0, 2), (1, 1)):
        s.court_agents[IN_SESSION][seat] += n
        s.players[seat].agents -= n
    return t


def test_F216_securing_the_in_session_council_under_an_armistice_BR_315_BR_164_BR_175():
    """BR-315: securing the Council secures the Armistice on it, whose When Secured places
    every agent from there (the securer's too) onto other Court cards, one at a time, never
    back on the Council; BR-164/BR-175: the Council is then secured all the same, flipped
    Decided and tucked, with nobody captured (no agent is left on it). The Armistice goes
    back under the Mass Call (F226). The secure was legal when chosen: it used to be checked
    again after the agents had left, and refused."""
    t = council_under_armistice()
    restart(t, [["AGG4", "ADM2"], ["CON2", "MOB2"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "AGG4"}))
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "secure", "card": IN_SESSION}))
    prompt = t.state.prompts[0]
    assert prompt.seat == 0 and prompt.kind == "armistice_agent"
    targets = [o.params["card"] for o in prompt.options]
    assert IN_SESSION not in targets and DECIDED not in targets
    refused(t, 0, Action("place_agent", {"card": IN_SESSION}))
    other = targets[0]
    before = list(t.state.court_agents[other])
    for _ in range(3):
        t.act(0, Action("place_agent", {"card": other}))
    s = t.state
    assert s.council == DECIDED and s.council_secured_by == 0
    assert IN_SESSION not in s.court_row and DECIDED not in s.court_row and all(s.court_row)
    assert s.court_agents[other] == [before[0] + 2, before[1] + 1, before[2]]
    assert s.players[0].captives == [] and s.attached == {}
    assert ["F226", "F216"] in s.booklet
    assert s.turn.seat == 0 and [p.kind for p in s.prompts] == ["arcs.act"]
    sound(t)


# -- 2. protected Guild cards are never stolen (BR-309) ------------------------------------------
def founder_with_a_guild(card: str = "CC01"):
    """Act I: the Founder (seat 0) holds Parade Fleets (F202, protected) and `card`
    (unprotected, 2 keys)."""
    t = founder_table()
    take_card(t, 0, card)
    return t


def raid_on_founder(t, keys: int):
    """Seat 1's battle against seat 0 reaches its raid with `keys` keys (two fresh ships of
    seat 1 where seat 0 has pieces)."""
    from core.flow import Ctx, run
    from plugins.arcs.battle_flow import resolve
    from plugins.arcs.rounds import round_start

    s = t.state
    system = next(x for x, here in sorted(s.systems.items())
                  if here.ships_of(0).total or any(b.owner == 0 for b in here.buildings))
    here = s.systems[system].ships[1]
    s.players[1].ships -= 2
    s.systems[system].ships[1] = Ships(fresh=here.fresh + 2, damaged=here.damaged)
    s.prompts, s.stack = [], []
    s.battle = Battle(attacker=1, defender=0, system=system, key=keys)
    ctx = Ctx(s, t.rules)
    ctx.push(round_start)
    ctx.push(resolve)
    run(ctx)


def test_F202_a_raid_never_steals_a_protected_guild_card_BR_309_BR_308():
    """BR-309, BR-308: Parade Fleets shows an X for its raid cost, read as 0 keys; a raid's
    keys still cannot take it (it used to be offered for 0). The unprotected Guild card is
    stolen for its raid cost as before."""
    t = founder_with_a_guild("CC01")
    raid_on_founder(t, keys=3)
    steals = [a.params for a in options(t, 1) if a.type == "steal"]
    assert {"card": "CC01"} in steals and {"card": "F202"} not in steals
    refused(t, 1, Action("steal", {"card": "F202"}))
    t.act(1, Action("steal", {"card": "CC01"}))
    s = t.state
    assert "CC01" in s.players[1].guild and s.players[0].guild == ["F202"] and s.battle.key == 1
    assert {"card": "F202"} not in [a.params for a in options(t, 1) if a.type == "steal"]
    refused(t, 1, Action("steal", {"card": "F202"}))
    sound(t)


def test_F202_silver_tongues_cannot_steal_a_protected_guild_card_BR_309():
    """BR-309: Silver-Tongues' Prelude (CC08) steals a Guild card or a resource, never a
    protected Guild card; the unprotected one still goes."""
    t = founder_with_a_guild("CC01")
    take_card(t, 1, "CC08")
    restart_round(t, [["CON3", "ADM4"], ["AGG4", "ADM2"], ["CON2", "MOB2"]], initiative=1)
    t.act(1, Action("lead", {"card": "AGG4"}))
    t.act(1, Action("declare", {"ambition": ""}))
    thefts = [a.params["params"] for a in options(t, 1) if a.params.get("card") == "CC08"]
    assert {"rival": 0, "card": "CC01"} in thefts and {"rival": 0, "card": "F202"} not in thefts
    steal = {"act": "ability", "pay": -1, "card": "CC08", "index": 0}
    refused(t, 1, Action("act", {**steal, "params": {"rival": 0, "card": "F202"}}))
    t.act(1, Action("act", {**steal, "params": {"rival": 0, "card": "CC01"}}))
    s = t.state
    assert s.players[0].guild == ["F202"] and "CC01" in s.players[1].guild
    sound(t)


# -- 3. Guild Fair's secures resolve When Secured effects (F416) ---------------------------------
def into_row(t, card: str, at: int, agents: dict[int, int]) -> None:
    """`card` (from the Court deck or discard) in Court place `at` with these agents (from
    their owners' supplies); the card there goes to the deck, its agents home."""
    s = t.state
    for pile in (s.court_deck, s.court_discard):
        if card in pile:
            pile.remove(card)
    old = s.court_row[at]
    s.court_deck.append(old)
    for owner, n in enumerate(s.court_agents.pop(old)):
        s.players[owner].agents += n
    s.court_row[at] = card
    s.court_agents[card] = [0] * len(s.players)
    for owner, n in agents.items():
        s.court_agents[card][owner] += n
        s.players[owner].agents -= n


def fair_table():
    """Act III (the Magnate at seat 0, the Advocate at SEAT): Guild Fair in the Court with 2
    of SEAT's agents; Guild Overseers (F403, a Guild card with a When Secured) beside it
    with one agent of each seat, Populist Demands (CC11, a Vox card) attached above it."""
    t = act_three()
    vox_in_court(t, "F416", {SEAT: 2})
    into_row(t, "F403", 2, {SEAT: 1, 0: 1})
    s = t.state
    for pile in (s.court_deck, s.court_discard):
        if "CC11" in pile:
            pile.remove("CC11")
    s.attached["F403"] = "CC11"
    return t


def test_F416_guild_fair_when_secured_resolves_the_secured_cards_when_secured_BR_315():
    """F416 When Secured: the Rival agent on Guild Overseers goes home, then the securer
    secures it as a secure action would: the Overseers' When Secured (F403: any Guild card
    of the Court deck or discard, not optional) and then that of the Vox card attached above
    it (BR-315: Populist Demands, CC11, may declare; then buried) are resolved, instead of
    skipped (and the attached Vox card discarded). Guild Fair is buried last."""
    t = fair_table()
    agents0 = t.state.players[0].agents
    restart_round(t, [["CON3", "ADM4"], ["AGG4", "ADM6"]], initiative=SEAT)
    t.act(SEAT, Action("lead", {"card": "AGG4"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(SEAT, Action("declare", {"ambition": ""}))
    t.act(SEAT, Action("act", {"act": "secure", "card": "F416"}))
    s = t.state
    assert s.players[0].agents == agents0 + 1 and s.players[SEAT].captives == []
    assert "F403" in s.players[SEAT].guild and "F403" not in s.court_row
    searched = [a.params["params"]["card"] for a in options(t, SEAT) if a.params.get("card") == "F403"]
    assert "CC10" in searched
    refused(t, SEAT, Action("use_ability", {"card": "", "index": -1, "params": {}}))  # not optional
    t.act(SEAT, Action("use_ability", {"card": "F403", "index": 1, "params": {"card": "CC10"}}))
    demands = [a.params["params"] for a in options(t, SEAT) if a.params.get("card") == "CC11"]
    assert {} in demands and {"ambition": "tycoon"} in demands
    t.act(SEAT, Action("use_ability", {"card": "CC11", "index": 1, "params": {}}))
    s = t.state
    assert s.players[SEAT].guild[-2:] == ["F403", "CC10"]
    assert s.court_deck[-2:] == ["CC11", "F416"] and "CC11" not in s.court_discard
    assert s.attached == {} and all(s.court_row) and [p.kind for p in s.prompts] == ["arcs.act"]
    sound(t)


def test_F416_guild_fair_crisis_secures_resolve_when_secured_effects_too():
    """F416's Crisis: each player in turn order secures every Guild card it can, as a secure
    does: seat 0 secures Guild Overseers (SEAT's agent captured) and resolves its When
    Secured (F403), then the attached Populist Demands' (BR-315)."""
    from plugins.blighted_reach import event_flow

    t = fair_table()
    s = t.state
    s.court_agents["F416"] = [0, 0]
    s.players[SEAT].agents += 2
    s.court_agents["F403"][0] += 1
    s.players[0].agents -= 1
    advocate_run_steps(t, (event_flow.court_crisis, {"card": "F416", "number": 1, "symbol": "arrow", "answers": {}}))
    s = t.state
    assert "F403" in s.players[0].guild and s.players[0].captives == [SEAT]
    assert [(p.seat, p.kind) for p in s.prompts] == [(0, "arcs.use_ability")]
    t.act(0, Action("use_ability", {"card": "F403", "index": 1, "params": {"card": "CC10"}}))
    t.act(0, Action("use_ability", {"card": "CC11", "index": 1, "params": {}}))
    s = t.state
    assert s.players[0].guild[-2:] == ["F403", "CC10"] and "F416" not in s.court_row
    assert s.court_deck[-1] == "CC11" and "F416" in s.court_deck
    sound(t)


# -- 4. the Monopolies in the supply when the Magnate takes another Fate (F312, BR-351) -----------
def test_F312_monopolies_in_the_supply_stay_there_when_the_magnate_changes_fate_BR_351():
    """The Magnate's Act II puts the five Monopolies (F313-F317) in the general supply, where
    they are in play though nobody's. At the Act's end the Magnate takes another Fate: BR-351
    scraps only the rest of the old Fate Set that is in no place, so the Monopolies stay in
    the supply, each card in one place (bot campaign 4p seed 1007 had them in the supply and
    scrapped at once)."""
    from tests.blighted_reach.test_fate_magnate import act_two
    from tests.blighted_reach.test_worked_examples import last_round

    t = act_two()
    monopolies = ["F313", "F314", "F315", "F316", "F317"]
    assert t.state.monopoly_supply == monopolies
    t.state.chapter = 3
    t.state.objective_markers[0] = 0  # completed: a failure would scrap the unheld Monopolies (F321)
    last_round(t, "CON2")
    while not t.state.finished:
        prompt = next((p for p in t.state.prompts if p.blocking), t.state.prompts[0])
        choice = prompt.options[0] if prompt.options else options(t, prompt.seat)[0]
        if prompt.kind == "choose_fate" and prompt.seat == 0:
            choice = next(o for o in prompt.options if o.params["fate"] != "FATE03")
        t.act(prompt.seat, choice)
    assert t.state.fates[0] != "FATE03"
    assert t.state.monopoly_supply == monopolies and not set(monopolies) & set(t.state.scrapped)
    sound(t)


# -- 5. a card attached above a secured card is never between places (BR-315) --------------------
def test_an_attached_lore_card_is_the_securers_at_once_while_the_hosts_when_secured_asks_BR_315():
    """BR-315: securing Guild Overseers (F403) with a lore card attached above it: while the
    Overseers' When Secured waits for its choice, the lore card is already in the securer's
    lore (it was on the stack only, in no place, and the invariants said it was missing:
    bot campaign 4p seed 27)."""
    t = act_three()
    into_row(t, "F403", 2, {SEAT: 2})
    s = t.state
    for pile in (s.court_deck, s.court_discard, s.lore_deck):
        if "L11" in pile:
            pile.remove("L11")
    s.attached["F403"] = "L11"
    sound(t)
    restart_round(t, [["CON3", "ADM4"], ["AGG4", "ADM6"]], initiative=SEAT)
    t.act(SEAT, Action("lead", {"card": "AGG4"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(SEAT, Action("declare", {"ambition": ""}))
    t.act(SEAT, Action("act", {"act": "secure", "card": "F403"}))
    s = t.state
    assert any(p.seat == SEAT and p.blocking and p.kind != "arcs.act" for p in s.prompts)  # the Overseers ask
    assert "L11" in s.players[SEAT].lore and "F403" in s.players[SEAT].guild
    sound(t)
