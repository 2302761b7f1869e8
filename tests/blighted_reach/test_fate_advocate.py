"""The Advocate (FATE04, F401-F426) through the engine: Guild Investigators' Recover, Guild
Overseers' limit on Guild card actions and their When Secured, attached cards taken with
their host, the Act I objective's advances, the Resolutions, the Liaisons and Guild
Negotiations of Act II, the Guildmasters, Loyalty and Supremacy of Act III. Each test names
the cards (and BR checklist IDs) it proves."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected, IllegalAction
from core.state import Action
from tests.blighted_reach.fate_ma_tables import ADVOCATE, fated_table
from tests.blighted_reach.flow_helpers import options, restart_round

SEAT = 1  # the Advocate's seat in these tables


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def act(t, seat, act, **params):
    return t.act(seat, Action("act", {"act": act, **params}))


def give_row(t, seat, row):
    """Arrange the seat's resource row (the supply pays for it)."""
    s = t.state
    for r in s.players[seat].resources:
        if r:
            s.supply[r] += 1
    for r in row:
        if r:
            s.supply[r] -= 1
    s.players[seat].resources = list(row) + [None] * (6 - len(row))


def advocate_table(players: int = 3, seed: int = 1, markers: int = 20):
    t, _ = fated_table(players, seed, {SEAT: ADVOCATE})
    t.state.objective_markers = [markers] * players
    return t


def lead(t, card: str, ambition: str = ""):
    """The Advocate leads `card` (the others hold cards that cannot matter), declaring or not."""
    others = [["CON3", "ADM4"], ["AGG3", "CON4"], ["ADM3", "CON5"]]
    hands = [others[s] if s != SEAT else [card, "ADM6"] for s in range(len(t.state.players))]
    restart_round(t, hands, initiative=SEAT)
    t.act(SEAT, Action("lead", {"card": card}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(SEAT, Action("declare", {"ambition": ambition}))


def uses(t, seat=SEAT):
    return [(a.params["card"], a.params["index"]) for a in options(t, seat)
            if a.params.get("act") == "ability"]


def test_F401_setup_gives_the_advocate_investigators_and_overseers():
    t = advocate_table()
    assert t.state.players[SEAT].guild == ["F402", "F403"]


# -- Guild Overseers (F403) ------------------------------------------------------------------
def test_F403_overseers_forbid_guild_card_actions_unless_placing_in_a_declared_ambition():
    """No ambition declared: the holder's Guild card Prelude (Skirmishers' discard) and new
    action (Investigators' Recover) are neither offered nor taken; a refusal changes nothing."""
    t = advocate_table()
    _fix_court(t, guild=["CC05"], discard=["CC01"])
    lead(t, "MOB2")  # declines to declare: nothing declared this chapter
    assert uses(t) == []
    before = snapshot(t)
    system = next(s for s, h in t.state.systems.items() if h.ships_of(SEAT).total)
    with pytest.raises(IllegalAction):
        act(t, SEAT, "ability", card="CC05", index=1, params={"system": system})
    host = t.state.court_row[1]
    with pytest.raises(IllegalAction):
        act(t, SEAT, "ability", card="F402", index=0, params={"card": host})
    assert snapshot(t) == before


def _fix_court(t, guild: list[str] = (), discard: list[str] = ()):
    s = t.state
    for c in (*guild, *discard):
        for pile in (s.court_deck, s.court_discard):
            if c in pile:
                pile.remove(c)
        if c in s.court_row:
            raise AssertionError(f"{c} is in the Court row of this table")
    s.players[SEAT].guild.extend(guild)
    s.court_discard.extend(discard)


def test_F403_overseers_allow_guild_actions_while_placing_and_the_prelude_discard_advances_3():
    """Declaring Tycoon with the most Fuel puts the Advocate first: Skirmishers' Prelude (a
    Guild card discarding itself) is open, and using it advances the objective 3 (F401)."""
    t = advocate_table()
    _fix_court(t, guild=["CC05"])
    give_row(t, SEAT, ["fuel", "fuel"])
    lead(t, "MOB2", "tycoon")
    assert ("CC05", 1) in uses(t)
    system = next(s for s, h in t.state.systems.items() if h.ships_of(SEAT).total)
    act(t, SEAT, "ability", card="CC05", index=1, params={"system": system})
    s = t.state
    assert "CC05" in s.court_discard and "CC05" not in s.players[SEAT].guild
    assert s.objective_markers[SEAT] == 17


# -- Guild Investigators (F402) and attached cards (BR-314, BR-315) ----------------------------
def test_F402_recover_attaches_the_top_discarded_guild_to_an_unagented_court_card_and_advances_2_BR_314():
    """BR-314."""
    t = advocate_table()
    _fix_court(t, discard=["CC01", "CC11"])  # CC11 (a Vox card) lies on top of the Guild card
    give_row(t, SEAT, ["fuel", "fuel"])
    lead(t, "MOB2", "tycoon")
    host = t.state.court_row[1]
    assert ("F402", 0) in uses(t)
    pips = t.state.turn.pips
    act(t, SEAT, "ability", card="F402", index=0, params={"card": host})
    s = t.state
    assert s.attached == {host: "CC01"} and s.court_discard[-1] == "CC11"
    assert s.objective_markers[SEAT] == 18
    assert s.turn.pips == pips - 1  # a move pip paid for it


def test_F403_placing_is_judged_as_the_action_is_chosen_not_after_its_fuel_is_paid():
    """Reading (Guild Overseers): the Advocate's one Fuel puts it first in Tycoon, so Recover
    (F402) is offered; paid with that Fuel (a move pip in the Prelude) it is taken, though the
    Advocate no longer places once the Fuel is spent (a bot campaign was refused the action
    its legal actions offered: 3 players, seed 51, the Judge and the flagships module)."""
    t = advocate_table()
    _fix_court(t, discard=["CC01"])
    for seat in range(len(t.state.players)):
        give_row(t, seat, ["fuel"] if seat == SEAT else [])
    lead(t, "MOB2", "tycoon")
    host = t.state.court_row[1]
    assert ("F402", 0) in uses(t)
    act(t, SEAT, "ability", card="F402", index=0, params={"card": host}, pay=0)
    s = t.state
    assert s.attached == {host: "CC01"} and s.players[SEAT].resources[0] is None


def test_F402_recover_refuses_a_card_with_agents_or_an_attachment_unchanged_BR_314():
    """BR-314."""
    t = advocate_table()
    _fix_court(t, discard=["CC01", "CC04"])
    give_row(t, SEAT, ["fuel", "fuel"])
    lead(t, "MOB2", "tycoon")
    s = t.state
    agented, attached = s.court_row[1], s.court_row[2]
    s.court_agents[agented][0] = 1
    s.players[0].agents -= 1
    s.attached[attached] = "CC04"
    s.court_discard.remove("CC04")
    before = snapshot(t)
    for host in (agented, attached, "CC99"):
        with pytest.raises(ActionRejected):
            act(t, SEAT, "ability", card="F402", index=0, params={"card": host})
        assert snapshot(t) == before


def test_securing_a_court_card_takes_its_attached_guild_card_too_BR_315():
    """BR-315."""
    t = advocate_table()
    s = t.state
    host = s.court_row[1]
    _fix_court(t, discard=["CC01"])
    s.court_discard.remove("CC01")
    s.attached[host] = "CC01"
    s.court_agents[host][0] = 2
    s.players[0].agents -= 2
    hands = [["AGG2", "ADM6"], ["CON3", "ADM4"], ["ADM3", "CON5"]]
    restart_round(t, hands, initiative=0)
    t.act(0, Action("lead", {"card": "AGG2"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(0, Action("declare", {"ambition": ""}))
    act(t, 0, "secure", card=host)
    s = t.state
    assert "CC01" in s.players[0].guild and host not in s.court_row and s.attached == {}


def test_F402_without_overseers_recover_is_open_but_the_objective_does_not_advance():
    """The limit and the objective's advances both need the Overseers held (F401's only_if)."""
    t = advocate_table()
    _fix_court(t, discard=["CC01"])
    s = t.state
    s.players[SEAT].guild.remove("F403")
    s.court_deck.append("F403")
    lead(t, "MOB2")  # nothing declared
    host = t.state.court_row[1]
    act(t, SEAT, "ability", card="F402", index=0, params={"card": host})
    assert t.state.attached == {host: "CC01"} and t.state.objective_markers[SEAT] == 20


def test_F403_when_secured_takes_any_guild_card_from_the_court_deck_or_discard_and_shuffles():
    """Act II: Guild Overseers in the Court; its securer takes it and then one Guild card
    of their choice from the Court deck or discard (the deck shuffled)."""
    t = advocate_table()
    s = t.state
    s.players[SEAT].guild.remove("F403")
    replaced = s.court_row[1]
    s.court_deck.append(replaced)
    s.court_row[1] = "F403"
    s.court_agents["F403"] = s.court_agents.pop(replaced)
    s.court_agents["F403"][0] = 2
    s.players[0].agents -= 2
    _fix_court(t, discard=["CC10"])
    wanted = [c for c in s.court_deck if c in ("CC01", "CC02", "CC03", "CC04", "CC06", "CC08")][-1]  # not the refill
    restart_round(t, [["AGG2", "ADM6"], ["CON3", "ADM4"], ["ADM3", "CON5"]], initiative=0)
    t.act(0, Action("lead", {"card": "AGG2"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(0, Action("declare", {"ambition": ""}))
    act(t, 0, "secure", card="F403")
    offered = [a.params["params"]["card"] for a in options(t, 0) if a.type == "use_ability"]
    assert "CC10" in offered and wanted in offered
    assert not {"CC11", "CC12", "CC13", "CC14", "CC15"} & set(offered)  # Vox cards are no Guild cards
    before = snapshot(t)
    with pytest.raises(ActionRejected):  # not optional, and only a Guild card of those piles
        t.act(0, Action("use_ability", {"card": "", "index": -1, "params": {}}))
    with pytest.raises(ActionRejected):
        t.act(0, Action("use_ability", {"card": "F403", "index": 1, "params": {"card": "CC11"}}))
    assert snapshot(t) == before
    events = t.act(0, Action("use_ability", {"card": "F403", "index": 1, "params": {"card": wanted}}))
    s = t.state
    assert s.players[0].guild[-2:] == ["F403", wanted] and wanted not in s.court_deck
    assert "shuffle" in [e.type for e in events]


# -- the Act I Resolution (F404) ----------------------------------------------------------------
def played(chosen, markers, seed=3):
    from tests.blighted_reach.campaign_tables import act_one, end_act

    state = end_act(act_one(chosen, seed))
    state.objective_markers = list(markers)
    return state


def test_F404_failed_sends_only_the_liaisons_of_suits_the_advocate_leads_to_court_BR_328():
    """Failed: the Overseers go to the Court deck first (so they count for no suit); the (BR-328)
    Advocate leads Weapon (Skirmishers against none) but ties Psionic (Investigators against
    Dealmakers): only the Weapons Liaisons join the Court deck; the other Liaisons and
    Diplomatic Fiasco are scrapped; Guild Struggle joins the Court deck."""
    from plugins.blighted_reach import intermission as im
    from tests.blighted_reach.campaign_tables import CBOX as CB, ctx as flow_ctx, sound

    state = played([ADVOCATE, "FATE03", "FATE01"], [4, 0, 0])
    for pile in (state.court_deck, state.court_row):
        if "CC05" in pile:
            pile.remove("CC05")
    state.court_agents.pop("CC05", None)
    state.players[0].guild.append("CC05")
    im.resolve_fates(flow_ctx(state), CB)
    assert {"F403", "F407", "F411"} <= set(state.court_deck)
    assert {"F405", "F406", "F408", "F409", "F410"} <= set(state.scrapped)
    assert not {"F405", "F406", "F408", "F409"} & set(state.court_deck)
    assert "F403" not in state.players[0].guild
    sound(state)


# -- Act II (F405-F414) ---------------------------------------------------------------------------
def act_two(results=None, seed=3):
    from tests.blighted_reach.fate_ma_tables import later_act_table

    return later_act_table(["FATE03", ADVOCATE, "FATE01"], seed=seed, results=results)


def take_card(t, seat, card):
    """Give the seat a card from the Court deck or discard (as if it had been secured)."""
    s = t.state
    for pile in (s.court_deck, s.court_discard):
        if card in pile:
            pile.remove(card)
    if card in s.court_row:  # its place refilled from the deck, its agents home
        place = s.court_row.index(card)
        for owner, n in enumerate(s.court_agents.pop(card)):
            s.players[owner].agents += n
        s.court_row[place] = s.court_deck.pop(0)
        s.court_agents[s.court_row[place]] = [0] * len(s.players)
    s.players[seat].guild.append(card)


def run_steps(t, *steps):
    from core.flow import Ctx, run
    from plugins.arcs.rounds import round_start

    s = t.state
    s.prompts, s.stack, s.turn = [], [], None
    ctx = Ctx(s, t.rules)
    ctx.push(round_start)
    for step, args in reversed(steps):
        ctx.push(step, **args)
    run(ctx)
    return ctx.events


def test_F412_setup_adds_the_advocates_demand_and_guild_negotiations_to_the_booklet():
    t = act_two()
    assert ["F413"] in t.state.booklet and ["F414"] in t.state.booklet
    assert "F403" in t.state.court_deck or "F403" in t.state.court_row  # F404 completed: back in the Court


def test_F406_fuel_liaisons_copying_to_move_gains_a_fuel_BR_312():
    """BR-312."""
    t = act_two()
    take_card(t, SEAT, "F406")
    give_row(t, SEAT, [])
    restart_round(t, [["MOB2", "ADM6"], ["CON3", "ADM4"], ["ADM3", "CON5"]], initiative=0)
    t.act(0, Action("lead", {"card": "MOB2"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(0, Action("declare", {"ambition": ""}))
    act(t, 0, "done")
    t.act(SEAT, Action("play", {"card": "CON3", "kind": "copy"}))
    if any(p.kind == "seize" and p.seat == SEAT for p in t.state.prompts):
        t.act(SEAT, Action("seize", {"card": ""}))
    fuel = t.state.supply["fuel"]
    move = next(a for a in options(t, SEAT) if a.params.get("act") == "move" and a.params["pay"] == -1)
    events = t.act(SEAT, move)
    assert t.state.supply["fuel"] == fuel - 1
    assert any(e.type == "resources_gained" and e.data.get("card") == "F406" for e in events)


def test_F405_material_liaisons_prelude_attaches_it_and_declares_tycoon_BR_313_BR_314():
    """BR-313, BR-314."""
    t = act_two()
    take_card(t, SEAT, "F405")
    lead(t, "CON2")  # the lead declines to declare
    host = t.state.court_row[1]
    assert ("F405", 1) in uses(t)
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        act(t, SEAT, "ability", card="F405", index=1, params={"card": "CC99"})
    assert snapshot(t) == before
    act(t, SEAT, "ability", card="F405", index=1, params={"card": host})
    s = t.state
    assert s.attached[host] == "F405" and "F405" not in s.players[SEAT].guild
    assert s.ambition_boxes["tycoon"] and s.ambition_declared == "tycoon"


def test_F411_guild_struggle_crisis_each_passes_one_guild_card_left_and_buries_itself():
    t = act_two()
    s = t.state
    for card in ("CC01", "CC05", "CC06"):
        if card in s.court_row:
            pytest.skip(f"{card} lies in this table's Court row")
    take_card(t, 0, "CC01")
    take_card(t, 1, "CC05")
    take_card(t, 2, "CC06")
    s = t.state
    host = s.court_row[1]
    s.court_deck.append(host)
    s.court_row[1] = "F411"
    s.court_deck.remove("F411") if "F411" in s.court_deck else None
    s.court_agents["F411"] = s.court_agents.pop(host)
    events = run_steps(t, (event_flow_court_crisis(), {"card": "F411", "number": 1, "symbol": "arrow", "answers": {}}))
    s = t.state
    assert "CC06" in s.players[0].guild and "CC01" in s.players[1].guild and "CC05" in s.players[2].guild
    assert "F411" not in s.court_row and s.court_deck[-1] == "F411"
    assert "guilds_passed" in [e.type for e in events]


def event_flow_court_crisis():
    from plugins.blighted_reach import event_flow

    return event_flow.court_crisis


def test_F413_advocates_demand_takes_a_rival_guild_card_for_a_favor_or_a_favor_instead():
    from plugins.blighted_reach import event_flow

    t = act_two()
    run_steps(t, (event_flow.edict, {"card": "F413", "do": "handler", "handler": "advocates_demand"}))
    s = t.state
    demand = next(p for p in s.prompts if p.kind == "advocates_demand")
    assert demand.seat == SEAT
    named = [o.params for o in demand.options]
    assert {"rival": 0, "card": "F302"} in named  # protected, and no Psionic like the Advocate's
    assert all(o["card"] != "F103" for o in named)  # Dealmakers are Psionic, as the Investigators
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(SEAT, Action("advocates_demand", {"rival": 2, "card": "F302"}))
    assert snapshot(t) == before
    t.act(SEAT, Action("advocates_demand", {"rival": 0, "card": "F302"}))
    t.act(0, Action("answer_demand", {"give": "card"}))
    s = t.state
    assert "F302" in s.players[SEAT].guild and "F302" not in s.players[0].guild
    assert s.favors[0] == [SEAT]  # the Rival took 1 Favor from the Advocate
    take_card(t, 2, "CC05")  # a Weapon card: a suit the Advocate lacks
    run_steps(t, (event_flow.edict, {"card": "F413", "do": "handler", "handler": "advocates_demand"}))
    t.act(SEAT, Action("advocates_demand", {"rival": 2, "card": "CC05"}))
    agents = t.state.players[2].agents
    t.act(2, Action("answer_demand", {"give": "favor"}))
    s = t.state
    assert s.favors[SEAT] == [2] and s.players[2].agents == agents - 1 and "CC05" in s.players[2].guild


def test_F413_is_scrapped_when_the_advocate_is_not_in_play():
    from plugins.blighted_reach import event_flow

    t = act_two()
    t.state.fates[SEAT] = "FATE02"
    run_steps(t, (event_flow.edict, {"card": "F413", "do": "handler", "handler": "advocates_demand"}))
    assert "F413" in t.state.scrapped and ["F413"] not in t.state.booklet


def test_F414_guild_negotiations_giving_a_guild_card_needs_the_advocates_consent_BR_205():
    """BR-205."""
    t = act_two()
    take_card(t, 0, "CC01")
    restart_round(t, [["CON2", "ADM6"], ["EVENT", "MOB3"], ["EVENT", "AGG4"]], initiative=0)
    t.act(0, Action("lead", {"card": "CON2"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(0, Action("declare", {"ambition": ""}))
    act(t, 0, "done")
    for seat in (1, 2):
        t.act(seat, Action("play", {"card": "EVENT", "kind": "event"}))
        if any(p.kind == "seize" and p.seat == seat for p in t.state.prompts):
            t.act(seat, Action("seize", {"card": ""}))
        act(t, seat, "done")
    t.act(0, Action("call_summit", {"call": True}))
    t.act(0, Action("call_to_order", {"kind": "start_negotiations"}))
    t.act(0, Action("negotiate", {"move": "propose", "parts": [
        {"kind": "transfer_card", "giver": 0, "receiver": 2, "card": "CC01"}]}))
    assert sorted(p.seat for p in t.state.prompts if p.kind == "consent") == [SEAT, 2]
    for p in [p for p in t.state.prompts if p.kind == "consent"]:
        t.act(p.seat, Action("consent", {"proposal": p.group, "accept": True}))
    assert "CC01" in t.state.players[2].guild


# -- Act III (F416-F426) --------------------------------------------------------------------------
def act_three(seed=3):
    """A 2-player Act III (the Magnate at seat 0, the Advocate at SEAT 1), mulligan declined."""
    from tests.blighted_reach.fate_ma_tables import later_act_table

    t = later_act_table(["FATE03", ADVOCATE], seed=seed, act=3)
    for p in [p for p in t.state.prompts if p.kind == "mulligan"]:
        t.act(p.seat, Action("mulligan", {"redraw": False}))
    return t


def vox_in_court(t, card, agents: dict[int, int] = None):
    s = t.state
    for pile in (s.court_deck, s.court_discard, s.scrapped):
        if card in pile:
            pile.remove(card)
    old = s.court_row[1]
    s.court_deck.append(old)
    s.court_row[1] = card
    for owner, n in enumerate(s.court_agents.pop(old)):
        s.players[owner].agents += n
    s.court_agents[card] = [0] * len(s.players)
    for owner, n in (agents or {}).items():
        s.court_agents[card][owner] = n
        s.players[owner].agents -= n


def test_F423_setup_gains_guild_loyalty_adds_supremacy_and_keeps_its_reminder():
    t = act_three()
    s = t.state
    assert "F424" in s.players[SEAT].lore and ["F425"] in s.booklet and "F426" in s.play_area[SEAT]


def test_F425_guild_supremacy_counts_each_guild_card_twice_when_scoring():
    from plugins.arcs.scoring import ambition_count
    from plugins.blighted_reach.rules_box import rules_box

    t = act_three()
    s = t.state
    take_card(t, SEAT, "CC08")  # Silver-Tongues: Psionic
    player = s.players[SEAT]
    psionic_cards = sum(rules_box().court[c].suit == "psionic" for c in player.guild)
    tokens = player.resources.count("psionic")
    assert ambition_count(rules_box(), s, player, "empath") == tokens + 2 * psionic_cards
    s.booklet.remove(["F425"])
    assert ambition_count(rules_box(), s, player, "empath") == tokens + psionic_cards


def test_F424_guild_loyalty_keeps_the_guild_cards_on_provoking_outrage():
    from plugins.arcs.outrage import provoke_outrage
    from plugins.blighted_reach.rules_box import rules_box

    t = act_three()
    take_card(t, SEAT, "CC08")
    s = t.state
    provoke_outrage(rules_box(), s, SEAT, "psionic")
    assert "CC08" in s.players[SEAT].guild and "psionic" in s.players[SEAT].outrage
    take_card(t, 0, "CC04")
    provoke_outrage(rules_box(), t.state, 0, "fuel")  # the Magnate has no Loyalty: discarded
    assert "CC04" in t.state.court_discard


def test_F418_fuel_guildmasters_declaring_tycoon_steal_a_fuel_guild_card():
    t = act_three()
    take_card(t, SEAT, "F418")
    take_card(t, 0, "CC04")  # Shipping Interest: Fuel, unprotected (Merchant League is protected)
    restart_round(t, [["CON3", "ADM4"], ["MOB2", "ADM6"]], initiative=SEAT)
    t.act(SEAT, Action("lead", {"card": "MOB2"}))
    t.act(SEAT, Action("declare", {"ambition": "tycoon"}))
    offered = [a.params["params"] for a in options(t, SEAT) if a.type == "use_ability" and a.params["card"] == "F418"]
    assert offered == [{"rival": 0, "card": "CC04"}]  # not the protected Merchant League
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(SEAT, Action("use_ability", {"card": "F418", "index": 0, "params": {"rival": 0, "card": "F302"}}))
    assert snapshot(t) == before
    t.act(SEAT, Action("use_ability", {"card": "F418", "index": 0, "params": {"rival": 0, "card": "CC04"}}))
    assert "CC04" in t.state.players[SEAT].guild and "CC04" not in t.state.players[0].guild


def test_F417_guildmasters_of_another_ambition_are_not_offered():
    t = act_three()
    take_card(t, SEAT, "F419")  # Weapons Guildmasters: Warlord
    take_card(t, 0, "CC05")
    restart_round(t, [["CON3", "ADM4"], ["MOB2", "ADM6"]], initiative=SEAT)
    t.act(SEAT, Action("lead", {"card": "MOB2"}))
    t.act(SEAT, Action("declare", {"ambition": "tycoon"}))
    assert not [a for a in options(t, SEAT) if a.type == "use_ability" and a.params["card"] == "F419"]


def test_F416_guild_fair_crisis_each_player_secures_every_guild_card_it_can():
    from plugins.blighted_reach import event_flow

    t = act_three()
    s = t.state
    vox_in_court(t, "F416")
    guilds = [c for c in s.court_row if c.startswith("CC") and int(c[2:]) <= 10]
    if not guilds:
        pytest.skip("no Guild card in this Court row")
    card = guilds[0]
    s.court_agents[card][0] = 2
    s.court_agents[card][1] = 1
    s.players[0].agents -= 2
    s.players[1].agents -= 1
    run_steps(t, (event_flow.court_crisis, {"card": "F416", "number": 1, "symbol": "arrow", "answers": {}}))
    s = t.state
    assert card in s.players[0].guild and s.players[0].captives.count(1) == 1
    assert "F416" not in s.court_row and s.court_deck[-1] == "F416"


def test_F416_guild_fair_when_secured_sends_rival_agents_home_and_secures_all_it_can():
    t = act_three()
    s = t.state
    vox_in_court(t, "F416", {SEAT: 2})
    guilds = [c for c in s.court_row if c.startswith("CC") and int(c[2:]) <= 10]
    if not guilds:
        pytest.skip("no Guild card in this Court row")
    card = guilds[0]
    s.court_agents[card][SEAT] = 1
    s.court_agents[card][0] = 3
    s.players[SEAT].agents -= 1
    s.players[0].agents -= 3
    agents0 = s.players[0].agents
    restart_round(t, [["CON3", "ADM4"], ["AGG4", "ADM6"]], initiative=SEAT)
    t.act(SEAT, Action("lead", {"card": "AGG4"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(SEAT, Action("declare", {"ambition": ""}))
    act(t, SEAT, "secure", card="F416")
    s = t.state
    assert card in s.players[SEAT].guild and s.players[0].agents == agents0 + 3
    assert s.court_deck[-1] == "F416"


def test_F422_guilds_withdraw_crisis_on_hex_or_arrow_each_buries_a_guild_card():
    from plugins.blighted_reach import event_flow

    t = act_three()
    take_card(t, 0, "CC01")
    take_card(t, SEAT, "CC05")
    vox_in_court(t, "F422")
    run_steps(t, (event_flow.court_crisis, {"card": "F422", "number": 1, "symbol": "moon", "answers": {}}))
    assert "CC01" in t.state.players[0].guild and t.state.court_deck[-1] == "F422"  # a moon: only buried itself
    vox_in_court(t, "F422")
    run_steps(t, (event_flow.court_crisis, {"card": "F422", "number": 1, "symbol": "hex", "answers": {}}))
    s = t.state
    assert "CC01" not in s.players[0].guild and "CC05" not in s.players[SEAT].guild
    assert "F302" in s.players[0].guild and "F402" in s.players[SEAT].guild  # protected cards stay
    assert s.court_deck[-3:] in (["CC01", "CC05", "F422"], ["CC05", "CC01", "F422"])


def test_F422_guilds_withdraw_when_secured_each_rival_buries_a_guild_card_of_its_choice():
    t = act_three()
    take_card(t, 0, "CC01")
    take_card(t, 0, "CC04")
    vox_in_court(t, "F422", {SEAT: 2})
    restart_round(t, [["CON3", "ADM4"], ["AGG4", "ADM6"]], initiative=SEAT)
    t.act(SEAT, Action("lead", {"card": "AGG4"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(SEAT, Action("declare", {"ambition": ""}))
    act(t, SEAT, "secure", card="F422")
    prompt = next(p for p in t.state.prompts if p.kind == "bury_guild")
    assert prompt.seat == 0 and sorted(o.params["card"] for o in prompt.options) == ["CC01", "CC04"]
    with pytest.raises(ActionRejected):
        t.act(0, Action("bury_guild", {"card": "F302"}))
    t.act(0, Action("bury_guild", {"card": "CC04"}))
    s = t.state
    assert "CC04" in s.court_deck and "CC01" in s.players[0].guild and "F422" in s.court_deck


def test_F410_diplomatic_fiasco_when_secured_the_rivals_discard_guild_cards_down_to_their_agents_BR_230():
    """The securer's Rivals resolve the Crisis: a Rival with more Guild cards than agents in (BR-230)
    supply discards unprotected ones of its choice until they are equal (BR-229)."""
    t = act_two()
    for card in ("CC01", "CC04", "CC05"):
        take_card(t, 0, card)
    s = t.state
    for pile in (s.court_deck, s.court_discard):
        if "F410" in pile:
            pile.remove("F410")
    old = s.court_row[1]
    s.court_deck.append(old)
    s.court_row[1] = "F410"
    for owner, n in enumerate(s.court_agents.pop(old)):
        s.players[owner].agents += n
    s.court_agents["F410"] = [0, 2, 0]
    s.players[SEAT].agents -= 2
    away = s.players[0].agents - 2  # 4 Guild cards (Merchant League protected), 2 agents: discard 2
    s.court_agents[s.court_row[0]][0] += away  # the others stand on the Council
    s.players[0].agents -= away
    others = [["CON3", "ADM4"], ["AGG4", "ADM6"], ["ADM3", "CON5"]]
    restart_round(t, others, initiative=SEAT)
    t.act(SEAT, Action("lead", {"card": "AGG4"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(SEAT, Action("declare", {"ambition": ""}))
    agents0 = t.state.players[0].agents
    act(t, SEAT, "secure", card="F410")
    prompt = next(p for p in t.state.prompts if p.kind == "fiasco_discard")
    assert prompt.seat == 0
    assert all("F302" not in o.params["discard"] and len(o.params["discard"]) == 2 for o in prompt.options)
    with pytest.raises(ActionRejected):
        t.act(0, Action("fiasco_discard", {"discard": ["F302", "CC01"]}))
    t.act(0, Action("fiasco_discard", {"discard": ["CC01", "CC04"]}))
    s = t.state
    assert s.players[0].guild == ["F302", "CC05"] and {"CC01", "CC04"} <= set(s.court_discard)
    assert s.players[0].agents == agents0
    from tests.blighted_reach.campaign_tables import sound
    sound(s)


def test_F412_objective_counts_guild_suits_and_rivals_outnumbered_at_a_chapters_end():
    from plugins.blighted_reach import objectives
    from plugins.blighted_reach.rules_box import rules_box

    t = act_two()
    from plugins.blighted_reach.content import default_box

    take_card(t, SEAT, "CC01")  # Material, beside the Investigators' Psionic
    take_card(t, SEAT, "CC05")  # Weapon: 3 suits, and 3 Guild cards against the Rivals' 1 each
    s = t.state
    assert [len(p.guild) for p in s.players] == [1, 3, 1]
    before = s.objective_markers[SEAT]
    moved = objectives.advance_at_chapter_end(rules_box(), default_box(), s)
    assert moved[SEAT] == 3 + 2 and s.objective_markers[SEAT] == before - 5


def ended_act_two(markers):
    from tests.blighted_reach.campaign_tables import end_act

    t = act_two()
    state = end_act(t.state)
    state.objective_markers = list(markers)
    state.prompts, state.stack, state.turn = [], [], None
    return state


def test_F415_completed_brings_the_fair_and_guildmasters_and_failed_scraps_the_demand_BR_328():
    """BR-328."""
    from plugins.blighted_reach import intermission as im
    from tests.blighted_reach.campaign_tables import CBOX as CB, ctx as flow_ctx, sound

    state = ended_act_two([0, 0, 0])
    im.resolve_fates(flow_ctx(state), CB)
    assert {"F416", "F417", "F418", "F419", "F420", "F421"} <= set(state.court_deck)
    assert "F422" in state.scrapped and ["F413"] in state.booklet
    sound(state)
    state = ended_act_two([0, 5, 0])
    im.resolve_fates(flow_ctx(state), CB)
    assert {"F416", "F417", "F418", "F419", "F420", "F421", "F413"} <= set(state.scrapped)
    assert "F422" in state.court_deck and ["F413"] not in state.booklet
    sound(state)
