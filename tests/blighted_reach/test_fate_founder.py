"""The Founder (FATE02) through the engine: each test names the card it plays (F2nn) and the
checklist IDs it proves."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected, BadParameter, IllegalAction
from core.state import Action
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as a table has them)
from plugins.blighted_reach.state import FREE
from tests.blighted_reach.flow_helpers import options, ready, restart_round

FOUNDER = "FATE02"


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def refused(t, seat: int, action: Action, error=ActionRejected) -> None:
    before = snapshot(t)
    with pytest.raises(error):
        t.act(seat, action)
    assert snapshot(t) == before


def founder_table(players: int = 3, seed: int = 1):
    t = ready(players, seed, {0: FOUNDER})
    assert "F202" in t.state.players[0].guild
    return t


def lead_and_declare(t, seat: int = 0, card: str = "ADM4", ambition: str = "warlord"):
    n = len(t.state.players)
    others = [["AGG2", "MOB3"], ["CON2", "MOB2"], ["CON3", "AGG3"]][: n - 1]
    restart_round(t, [[card, "ADM2"] if s == seat else others[(s - seat - 1) % n] for s in range(n)], initiative=seat)
    t.act(seat, Action("lead", {"card": card}))
    t.act(seat, Action("declare", {"ambition": ambition}))


def parade_options(t, seat: int = 0) -> list[Action]:
    return [a for a in options(t, seat) if a.type == "use_ability" and a.params["card"] == "F202"]


def free_city_systems(t) -> list[str]:
    return sorted(s for s, here in t.state.systems.items()
                  if any(b.owner == FREE and b.kind == "city" for b in here.buildings))


def test_F202_parade_fleets_two_fresh_ships_at_a_free_city_on_declaring_BR_311():
    """BR-311: declaring an ambition, the holder may put 2 fresh ships at a Free city (any of
    them, offered one system each), from its supply."""
    t = founder_table()
    lead_and_declare(t)
    ships = [a for a in parade_options(t) if a.params["index"] == 0]
    assert sorted(a.params["params"]["system"] for a in ships) == free_city_systems(t)
    target = ships[0].params["params"]["system"]
    before = t.state.systems[target].ships[0]
    supply = t.state.players[0].ships
    t.act(0, ships[0])
    after = t.state.systems[target].ships[0]
    assert (after.fresh, after.damaged) == (before.fresh + 2, before.damaged)
    assert t.state.players[0].ships == supply - 2
    assert not [a for a in parade_options(t) if a.params["index"] == 0]  # once per declaration


def test_F202_then_a_regent_may_become_an_outlaw_BR_311_BR_097():
    """BR-311: after the ships, a Regent may turn Outlaw (BR-097: how the Founder becomes one);
    a First Regent leaving hands the tile on (BR-194)."""
    t = founder_table()
    t.state.first_regent = 0
    lead_and_declare(t)
    t.act(0, next(a for a in parade_options(t) if a.params["index"] == 0))
    outlaw = next(a for a in parade_options(t) if a.params["index"] == 1)
    t.act(0, outlaw)
    s = t.state
    assert s.titles[0] == "outlaw" and s.first_regent != 0 and s.titles[s.first_regent] == "regent"
    assert not parade_options(t)  # an Outlaw is offered no second turn


def test_F202_declining_the_ships_still_leaves_the_choice_and_an_outlaw_gets_no_offer_BR_311():
    """BR-311: the ships and leaving the Empire are each optional; an Outlaw declaring is
    offered only the ships."""
    t = founder_table()
    t.state.titles[0] = "outlaw"
    if t.state.first_regent == 0:
        t.state.first_regent = 1
    lead_and_declare(t)
    assert {a.params["index"] for a in parade_options(t)} == {0}
    t.act(0, Action("use_ability", {"card": "", "index": -1, "params": {}}))
    s = t.state
    assert s.turn is not None and s.turn.seat == 0 and not parade_options(t)


def test_F202_bad_choices_are_refused_and_change_nothing():
    t = founder_table()
    lead_and_declare(t)
    empty = next(s for s in sorted(t.state.systems) if s not in free_city_systems(t))
    refused(t, 0, Action("use_ability", {"card": "F202", "index": 0, "params": {"system": empty}}), IllegalAction)
    refused(t, 0, Action("use_ability", {"card": "F202", "index": 0, "params": {"system": "9Z"}}), BadParameter)
    refused(t, 0, Action("use_ability", {"card": "F202", "index": 0, "params": {"where": "1G"}}), BadParameter)
    refused(t, 1, Action("use_ability", {"card": "F202", "index": 0, "params": {"system": free_city_systems(t)[0]}}))


# -- the Resolution (F203) --------------------------------------------------------------------
def resolved(markers):
    from plugins.blighted_reach import intermission as im
    from plugins.blighted_reach.content import default_box
    from tests.blighted_reach.campaign_tables import PARTISAN, STEWARD, act_one, ctx, end_act

    state = end_act(act_one([FOUNDER, STEWARD, PARTISAN], 3))
    state.objective_markers = list(markers)
    im.resolve_fates(ctx(state), default_box())
    return state


def test_F203_completed_book_of_liberation_intrigues_and_unions_kept_for_F223_BR_328():
    """BR-328: the Founder's Act I Resolution, completed side."""
    from plugins.blighted_reach.content import default_box
    from plugins.blighted_reach.fate_steps import unplayed
    from tests.blighted_reach.campaign_tables import sound

    state = resolved([0, 0, 0])
    assert "F204" in state.players[0].lore
    assert {"F205", "F206", "F207"} <= set(state.court_deck)
    assert {"F208", "F209", "F210", "F211"} <= set(unplayed(default_box(), state, FOUNDER))
    assert "F202" in state.players[0].guild  # Parade Fleets stays
    sound(state)


def test_F203_failed_book_and_intrigues_scrapped_unions_to_the_court_deck_BR_328():
    """BR-328: the Founder's Act I Resolution, failed side."""
    from tests.blighted_reach.campaign_tables import sound

    state = resolved([4, 0, 0])
    assert {"F204", "F205", "F206", "F207"} <= set(state.scrapped)
    assert {"F208", "F209", "F210", "F211"} <= set(state.court_deck)
    assert state.fate_results[0] == "failed"
    sound(state)


# -- bot games ----------------------------------------------------------------------------------
def bot_table(players: int, seed: int, fate: str):
    from tests.blighted_reach.flow_helpers import table_holding

    return table_holding(players, seed, fate)


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 7), (3, 2), (3, 11), (4, 3), (4, 9)])
def test_bot_games_with_the_founder_finish_act_one_and_its_intermission(players, seed):
    """Random bots play Act I and its Intermission, the invariants checked after every action."""
    from tests.blighted_reach.flow_helpers import play_out

    t = bot_table(players, seed, FOUNDER)
    play_out(t, seed)
    s = t.state
    assert s.finished and s.act == 1 and s.intermission_done[-1] == "choose_fate"



# -- Act II (F212-F223) ---------------------------------------------------------------------------
def act_two_table(fates=(FOUNDER, "FATE06"), seed=3, starts=10):
    """A real Act II table: Act I set up with these Fates (campaign_tables), every objective
    completed and every Fate kept at its Intermission, the log sheet saved to a campaign, and
    the engine setting Act II up from it (the Setup sides run there); the unrecorded objective
    starts answered `starts`, a 2-player mulligan declined."""
    from core.engine import create_table
    from plugins.blighted_reach import campaign
    from plugins.blighted_reach.content import default_box
    from tests.blighted_reach.campaign_tables import BOX, act_one, end_act, intermission
    from tests.blighted_reach.flow_helpers import GAME

    state = end_act(act_one(list(fates), seed))
    state.objective_markers = [0] * len(fates)
    intermission(state, picks=dict(enumerate(fates)))
    log = campaign.pack_up(BOX, default_box(), state)
    camp = {"players": len(fates), "acts_played": 1, "log": campaign.to_json(log), "finished": False,
            "winner": -1, "acts": []}
    t = create_table(GAME, len(fates), seed=seed, campaign=camp)
    while any(p.kind == "objective_start" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "objective_start")
        t.act(p.seat, Action("objective_start", {"space": starts}))
    if any(p.kind == "mulligan" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "mulligan")
        t.act(p.seat, Action("mulligan", {"redraw": False}))
    assert t.state.act == 2
    return t


def test_F212_act_two_setup_commonwealth_marker_laws_armistices_tucked_member_titles():
    """F212: Founder of the Commonwealth gained; the marker on the Fate card; Commonwealth
    Ambition, Call for Armistice (the Armistices tucked under it) and Commonwealth Membership
    in the booklet; a Member title for every player."""
    from tests.blighted_reach.campaign_tables import sound
    from plugins.blighted_reach.fate_founder import members

    t = act_two_table((FOUNDER, "FATE06", "FATE01"))
    s = t.state
    assert "F213" in s.play_area[0] and s.commonwealth == "fate"
    assert ["F214"] in s.booklet and ["F215", "F216", "F217"] in s.booklet and ["F222"] in s.booklet
    assert [sorted(set(a) & {"F218", "F219", "F220", "F221"}) for a in s.play_area] == [["F218"], ["F219"], ["F220"]]
    assert members(s) == [0, 1, 2]
    sound(s)


def restart(t, hands, initiative=0):
    """`restart_round` with the undealt action deck counted among the cards to deal from."""
    s = t.state
    s.action_discard, s.action_deck = s.action_deck + s.action_discard, []
    restart_round(t, hands, initiative)


def declare_with_marker(t, card="ADM4", ambition="warlord"):
    """Seat 0 (the Founder) leads `card`, declares, and puts the Commonwealth marker on it."""
    n = len(t.state.players)
    others = [["AGG2", "MOB3"], ["CON2", "MOB2"], ["CON3", "AGG3"]][: n - 1]
    restart(t, [[card, "ADM2"], *others], initiative=0)
    t.act(0, Action("lead", {"card": card}))
    t.act(0, Action("declare", {"ambition": ambition}))
    marker = [a for a in options(t, 0) if a.type == "use_ability" and a.params["card"] == "F213"]
    assert marker, "the Founder of the Commonwealth is offered the marker"
    t.act(0, marker[0])


def test_F213_the_founder_puts_the_commonwealth_marker_on_the_declared_ambition():
    t = act_two_table()
    declare_with_marker(t)
    s = t.state
    assert s.commonwealth == "warlord"
    assert not [a for a in options(t, 0) if a.type == "use_ability" and a.params.get("card") == "F213"]


def score_now(t):
    from core.flow import Ctx, run
    from plugins.arcs.rounds import chapter_end

    s = t.state
    s.prompts, s.stack = [], []
    ctx = Ctx(s, t.rules)
    ctx.push(chapter_end)
    run(ctx)
    return ctx.events


def trophies(t, seat: int, count: int) -> None:
    from plugins.arcs.state import Trophy

    rival = (seat + 1) % len(t.state.players)
    for _ in range(count):
        t.state.players[seat].trophies.append(Trophy(owner=rival, kind="ship"))
        t.state.players[rival].ships -= 1


def test_F214_the_commonwealth_wins_and_divides_first_and_second_place_power():
    """The Members' Warlord counts combine; the Commonwealth's sole first divides first +
    second place's Power among the Members (remainder and city bonus dropped); F212's
    objective advances 2 per Member."""
    t = act_two_table((FOUNDER, "FATE06", "FATE01"))
    declare_with_marker(t)
    s = t.state
    trophies(t, 0, 1)
    trophies(t, 1, 1)
    power = [p.power for p in s.players]
    markers = list(s.objective_markers)
    from plugins.arcs.scoring import marker_values
    from plugins.blighted_reach.rules_box import rules_box
    first, second = marker_values(rules_box(), s.ambition_boxes["warlord"])
    score_now(t)
    s = t.state
    share = (first + second) // 3
    assert [p.power - q for p, q in zip(s.players, power)] == [share, share, share]
    assert s.objective_markers[0] == markers[0] - 2 * 3 - 0  # Distribute Power Fairly: 2 x 3 Members


def test_F214_a_non_member_winning_gains_double_and_a_tie_gains_nothing():
    from plugins.blighted_reach.fate_founder import MEMBER_TITLES, commonwealth_gains

    t = act_two_table((FOUNDER, "FATE06", "FATE01"))
    declare_with_marker(t)
    s = t.state
    title = next(c for c in s.play_area[2] if c in MEMBER_TITLES)  # seat 2 disgraced
    s.play_area[2].remove(title)
    s.scrapped.append(title)
    trophies(t, 2, 2)
    trophies(t, 0, 1)
    from plugins.arcs.scoring import city_bonus, marker_values
    from plugins.blighted_reach.rules_box import rules_box
    first, second = marker_values(rules_box(), s.ambition_boxes["warlord"])
    bonus = city_bonus(s.players[2], rules_box())
    assert commonwealth_gains(s) == {0: 0, 1: 0, 2: 2 * (first + second) + bonus}
    trophies(t, 1, 1)  # the Commonwealth now ties seat 2
    assert commonwealth_gains(s) == {0: 0, 1: 0, 2: 0}
    power = [p.power for p in s.players]
    score_now(t)
    assert [p.power for p in t.state.players] == power


def run_steps(t, *steps):
    """Run these steps on the table (its open prompts set aside), stopping at the first prompt."""
    from core.flow import Ctx, run
    from plugins.arcs.rounds import round_start

    ctx = Ctx(t.state, t.rules)
    t.state.prompts = []
    ctx.push_all([*steps, (round_start, {})])
    run(ctx)
    return ctx.events


def test_F215_call_for_armistice_the_least_powerful_member_attaches_an_armistice():
    from plugins.blighted_reach import event_flow
    from tests.blighted_reach.campaign_tables import sound

    t = act_two_table((FOUNDER, "FATE06", "FATE01"))
    s = t.state
    s.players[0].power, s.players[1].power, s.players[2].power = 5, 2, 7
    run_steps(t, (event_flow.edict, {"card": "F215", "do": "handler", "handler": "call_for_armistice"}))
    p = next(p for p in t.state.prompts if p.kind == "call_for_armistice")
    assert p.seat == 1
    host = next(c for c in t.state.court_row if c.startswith("CC") or c.startswith("F"))
    refused(t, 1, Action("armistice", {"armistice": "F216", "host": "NOPE"}))
    t.act(1, Action("armistice", {"armistice": "F216", "host": host}))
    s = t.state
    assert s.attached == {host: "F216"} and ["F215", "F217"] in s.booklet
    sound(s)


def test_F215_a_tie_for_least_power_skips_and_no_members_scraps_the_call():
    from plugins.blighted_reach import event_flow
    from plugins.blighted_reach.fate_founder import MEMBER_TITLES

    t = act_two_table((FOUNDER, "FATE06", "FATE01"))
    s = t.state
    s.players[0].power, s.players[1].power, s.players[2].power = 3, 3, 7
    run_steps(t, (event_flow.edict, {"card": "F215", "do": "handler", "handler": "call_for_armistice"}))
    assert not any(p.kind == "call_for_armistice" for p in t.state.prompts)
    s = t.state
    for area in s.play_area:
        for title in [c for c in area if c in MEMBER_TITLES]:
            area.remove(title)
            s.scrapped.append(title)
    run_steps(t, (event_flow.edict, {"card": "F215", "do": "handler", "handler": "call_for_armistice"}))
    s = t.state
    assert "F215" in s.scrapped and not any("F215" in slot for slot in s.booklet)


def test_F216_an_armistice_in_the_court_stops_members_harming_each_other_and_free_buildings():
    """The Armistice is no Law: ignoring the Truce Law does not lift it; non-Members and
    Crises are not bound; a Book of Liberation's holder never harms Free buildings (F204)."""
    from plugins.blighted_reach import empire
    from plugins.blighted_reach.fate_founder import MEMBER_TITLES

    t = act_two_table((FOUNDER, "FATE06", "FATE01"))
    s = t.state
    system = sorted(s.systems)[0]
    assert empire.may_harm(s, 0, 1, system, harm="defend") or s.titles[0] == s.titles[1] == "regent"
    s.attached[s.court_row[-1]] = "F216"
    s.booklet = [[c for c in slot if c != "F216"] for slot in s.booklet]
    with pytest.raises(IllegalAction):
        empire.check_harm(s, 0, 1, system, harm="defend", ignore_truce=True)
    with pytest.raises(IllegalAction):
        empire.check_harm(s, 1, "free", system, harm="destroy")
    empire.check_harm(s, 1, "free", system, harm="destroy", crisis=True)
    title = next(c for c in s.play_area[2] if c in MEMBER_TITLES)
    s.play_area[2].remove(title)
    s.scrapped.append(title)
    empire.check_harm(s, 2, "free", system, harm="destroy")  # a non-Member
    del s.attached[s.court_row[-1]]
    empire.check_harm(s, 1, "free", system, harm="destroy")
    s.players[1].lore.append("F204")
    with pytest.raises(IllegalAction):
        empire.check_harm(s, 1, "free", system, harm="hit")


def test_F216_securing_its_card_moves_every_agent_to_other_court_cards_and_tucks_it_back_BR_315():
    """BR-315: securing the card secures the Armistice attached to it, whose effect then moves the agents."""
    from tests.blighted_reach.campaign_tables import sound

    t = act_two_table((FOUNDER, "FATE06", "FATE01"))
    host = next(c for c in t.state.court_row[1:] if c)
    into_court(t, host, [2, 1, 0])
    s = t.state
    s.attached[host] = "F216"
    s.booklet = [[c for c in slot if c != "F216"] for slot in s.booklet]
    restart(t, [["AGG4", "ADM2"], ["CON2", "MOB2"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "AGG4"}))
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "secure", "card": host}))
    p = next(p for p in t.state.prompts if p.seat == 0)
    assert p.kind == "armistice_agent" and host not in [o.params["card"] for o in p.options]
    other = p.options[0].params["card"]
    before = list(t.state.court_agents[other])
    for _ in range(3):
        t.act(0, Action("place_agent", {"card": other}))
    s = t.state
    assert s.court_agents[other] == [before[0] + 2, before[1] + 1, before[2]]  # nobody captured
    assert host not in s.court_row and "F216" not in s.attached.values()
    assert ["F215", "F217", "F216"] in s.booklet and s.players[0].captives == []
    sound(s)


def into_court(t, card: str, agents=None) -> None:
    """Put `card` into the Court row (taken from the deck or row where it is), in place of the
    last card, which goes to the deck; `agents` on it (taken from their owners' supplies)."""
    s = t.state
    n = len(s.players)
    if card in s.court_row:
        at = s.court_row.index(card)
        s.court_row[at] = s.court_deck.pop(0)
        s.court_agents[s.court_row[at]] = s.court_agents.pop(card)
    if card in s.court_deck:
        s.court_deck.remove(card)
    old = s.court_row[-1]
    back = s.court_agents.pop(old, [0] * n)
    for owner, k in enumerate(back):
        s.players[owner].agents += k
    s.court_deck.append(old)
    s.court_row[-1] = card
    s.court_agents[card] = list(agents or [0] * n)
    for owner, k in enumerate(s.court_agents[card]):
        s.players[owner].agents -= k


def test_F205_political_intrigue_crisis_favors_pass_by_the_rolled_symbol():
    from plugins.blighted_reach import crises
    from plugins.arcs.content import box_for
    from plugins.blighted_reach.content import default_box

    t = act_two_table((FOUNDER, "FATE06", "FATE01"))
    into_court(t, "F205")
    s = t.state
    agents = [p.agents for p in s.players]
    crises.resolve_court_crisis(box_for(s), default_box(), s, "F205", crises.Dice(number=1, symbol="moon"))
    assert sorted(s.favors[0]) == [1, 2] and sorted(s.favors[1]) == [0, 2] and sorted(s.favors[2]) == [0, 1]
    assert [p.agents for p in s.players] == [a - 2 for a in agents]
    assert "F205" in s.court_deck and "F205" not in s.court_row  # buried
    s.favors = [[], [], []]
    for seat in range(3):
        s.players[seat].agents = agents[seat]
    into_court(t, "F205")
    crises.resolve_court_crisis(box_for(s), default_box(), s, "F205", crises.Dice(number=1, symbol="arrow"))
    assert s.favors == [[2], [0], [1]]  # each to the next seat in turn order


def test_F205_political_intrigue_secured_takes_a_favor_from_each_rival():
    from tests.blighted_reach.campaign_tables import sound

    t = act_two_table((FOUNDER, "FATE06", "FATE01"))
    into_court(t, "F206", [1, 0, 0])
    restart(t, [["AGG4", "ADM2"], ["CON2", "MOB2"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "AGG4"}))
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "secure", "card": "F206"}))
    s = t.state
    assert sorted(s.favors[0]) == [1, 2] and "F206" in s.court_discard
    sound(s)


# -- the Act II Resolution (F223) and Act III (F224-F227) ------------------------------------------
def act_two_state(fates=(FOUNDER, "FATE06", "FATE01"), seed=3):
    """Act II as the pure campaign functions set it up from Act I's log sheet (every Fate kept)."""
    from core.rng import Rng
    from plugins.blighted_reach import campaign
    from plugins.blighted_reach import later_acts as la
    from plugins.blighted_reach.content import default_box
    from tests.blighted_reach.campaign_tables import BOX, act_one, ctx, end_act, intermission, new_table

    cbox = default_box()
    state = end_act(act_one(list(fates), seed))
    state.objective_markers = [0] * len(fates)
    intermission(state, picks=dict(enumerate(fates)))
    log = campaign.pack_up(BOX, cbox, state)
    state = new_table(len(fates))
    la.set_up_later_act(BOX, cbox, state, log, Rng(state), lambda die, faces: "arrow" if die == "event" else 3)
    for seat in la.setup_order(state):
        la.apply_setup_side(ctx(state), cbox, seat)
    la.start_objectives(cbox, state, {s: 10 for s in range(len(fates))})
    la.start_first_chapter(cbox, state, Rng(state))
    return state


def act_two_resolved(markers):
    from plugins.blighted_reach import intermission as im
    from plugins.blighted_reach.content import default_box
    from tests.blighted_reach.campaign_tables import ctx, end_act

    state = end_act(act_two_state())
    state.objective_markers = list(markers)
    im.resolve_fates(ctx(state), default_box())
    return state


def test_F223_completed_spirit_of_freedom_gained_the_unions_scrapped_BR_328():
    """BR-328: the Founder's Act II Resolution, completed side."""
    from tests.blighted_reach.campaign_tables import sound

    state = act_two_resolved([0, 0, 0])
    assert "F224" in state.players[0].lore and {"F208", "F209", "F210", "F211"} <= set(state.scrapped)
    assert state.commonwealth == "fate" and "F213" in state.play_area[0]
    sound(state)


def test_F223_failed_the_founder_title_and_marker_scrapped_the_unions_to_the_court_deck_BR_328():
    """BR-328: the Founder's Act II Resolution, failed side."""
    from tests.blighted_reach.campaign_tables import sound

    state = act_two_resolved([6, 0, 0])
    assert {"F224", "F213"} <= set(state.scrapped) and "F213" not in state.play_area[0]
    assert state.commonwealth == "" and {"F208", "F209", "F210", "F211"} <= set(state.court_deck)
    sound(state)


def act_three_table(fates=(FOUNDER, "FATE06"), seed=3):
    """A real Act III table from Act II's log sheet (Act II set up by the pure functions, every
    objective completed, every Fate kept); by default the Founder and the Partisan alone."""
    from core.engine import create_table
    from plugins.blighted_reach import campaign
    from plugins.blighted_reach.content import default_box
    from tests.blighted_reach.campaign_tables import BOX, end_act, intermission
    from tests.blighted_reach.flow_helpers import GAME

    state = end_act(act_two_state(fates, seed))
    state.objective_markers = [0] * len(fates)
    intermission(state, picks=dict(enumerate(fates)))
    log = campaign.pack_up(BOX, default_box(), state)
    camp = {"players": len(fates), "acts_played": 2, "log": campaign.to_json(log), "finished": False,
            "winner": -1, "acts": []}
    t = create_table(GAME, len(fates), seed=seed, campaign=camp)
    while t.state.prompts and t.state.prompts[0].kind in ("objective_start", "mulligan"):
        p = t.state.prompts[0]
        t.act(p.seat, Action(p.kind, {"space": 10} if p.kind == "objective_start" else {"redraw": False}))
    assert t.state.act == 3
    return t


def test_F225_act_three_setup_the_mass_call_replaces_the_call_freedom_fighters_gained():
    from tests.blighted_reach.campaign_tables import sound

    t = act_three_table()
    s = t.state
    assert "F215" in s.scrapped and not any("F215" in slot for slot in s.booklet)
    assert any(slot[0] == "F226" for slot in s.booklet) and "F227" in s.players[0].guild
    assert "F224" in s.players[0].lore and s.commonwealth == "fate"  # carried from Act II
    sound(s)


def test_F226_the_mass_call_lets_the_least_powerful_member_then_the_founder_attach():
    from plugins.blighted_reach import event_flow
    from plugins.blighted_reach.fate_founder import tucked_armistices

    t = act_three_table()
    s = t.state
    assert sorted(tucked_armistices(s)) == ["F216", "F217"]
    s.players[0].power, s.players[1].power = 9, 1
    run_steps(t, (event_flow.edict, {"card": "F226", "do": "handler", "handler": "mass_call_for_armistice"}))
    hosts = [c for c in t.state.court_row if c]
    p = next(p for p in t.state.prompts if p.kind == "call_for_armistice")
    assert p.seat == 1
    t.act(1, Action("armistice", {"armistice": "F216", "host": hosts[0]}))
    p = next(p for p in t.state.prompts if p.kind == "call_for_armistice")
    assert p.seat == 0 and hosts[0] not in {o.params["host"] for o in p.options}
    t.act(0, Action("armistice", {"armistice": "F217", "host": hosts[1]}))
    assert t.state.attached == {hosts[0]: "F216", hosts[1]: "F217"}


def test_F224_spirit_of_freedom_secures_on_a_tie_with_a_non_member_only():
    from plugins.blighted_reach.fate_founder import MEMBER_TITLES

    t = act_three_table()
    s = t.state
    host = next(c for c in s.court_row[1:] if c)
    into_court(t, host, [2, 2])
    restart(t, [["AGG4", "ADM2"], ["CON2", "MOB2"]], initiative=0)
    t.act(0, Action("lead", {"card": "AGG4"}))
    t.act(0, Action("declare", {"ambition": ""}))
    refused(t, 0, Action("act", {"act": "secure", "card": host}), IllegalAction)  # tied with a Member
    s = t.state
    title = next(c for c in s.play_area[1] if c in MEMBER_TITLES)
    s.play_area[1].remove(title)
    s.scrapped.append(title)
    t.act(0, Action("act", {"act": "secure", "card": host}))
    s = t.state
    assert host not in s.court_row and s.players[0].captives.count(1) == 2


def test_F227_freedom_fighters_incite_revolt_destroys_damaged_rival_and_imperial_ships():
    from plugins.arcs.state import Building
    from plugins.blighted_reach.state import Pieces
    from tests.blighted_reach.campaign_tables import sound

    t = act_three_table()
    s = t.state
    system = next(x for x in sorted(s.systems) if "." in x and not s.systems[x].buildings and x not in s.imperial)
    s.systems[system].buildings.append(Building(kind="city", owner=FREE))
    s.free_city_supply -= 1
    for seat in (0, 1):
        s.systems[system].ships[seat].damaged += 1
        s.players[seat].ships -= 1
    s.imperial[system] = Pieces(fresh=1, damaged=2)
    s.imperial_supply -= 3
    ships = [p.ships for p in s.players]
    imperial = s.imperial_supply
    restart(t, [["AGG4", "ADM2"], ["CON2", "MOB2"]], initiative=0)
    t.act(0, Action("lead", {"card": "AGG4"}))
    t.act(0, Action("declare", {"ambition": ""}))
    revolt = [a for a in options(t, 0) if a.type == "act" and a.params.get("card") == "F227"]
    assert {a.params["params"]["system"] for a in revolt} == {system}
    refused(t, 0, Action("act", {"act": "ability", "card": "F227", "index": 0, "params": {"system": "1G"}}),
            IllegalAction)
    t.act(0, next(a for a in revolt if a.params["pay"] == -1))
    s = t.state
    here = s.systems[system]
    assert [x.damaged for x in here.ships] == [1, 0]  # the holder's own ships stay
    assert [p.ships for p in s.players] == [ships[0], ships[1] + 1]
    assert s.imperial[system] == Pieces(fresh=1, damaged=0) and s.imperial_supply == imperial + 2
    assert not any(p.trophies for p in s.players)
    sound(s)


def test_F225_secure_freedom_for_all_goals_the_commonwealth_won_and_freed_cities():
    """Grand ambitions: the Commonwealth won the Commonwealth ambition, and 3 (7) Free cities
    are controlled neither by the Empire nor by a non-Member."""
    from plugins.arcs.content import box_for
    from plugins.arcs.state import Building
    from plugins.blighted_reach import objectives as ob
    from plugins.blighted_reach.content import default_box
    from plugins.blighted_reach.fate_founder import _freed_cities

    t = act_three_table()
    declare_with_marker(t)
    s = t.state
    trophies(t, 0, 1 + len(s.ambition_tokens.get("warlord", [])))  # ahead of the 2-player phantom
    box, cbox = box_for(s), default_box()
    free = [x for x in sorted(s.systems) if "." in x and not s.systems[x].buildings and x not in s.imperial]
    have = _freed_cities(s)
    for system in free[: max(0, 3 - have)]:
        s.systems[system].buildings.append(Building(kind="city", owner=FREE))
        s.free_city_supply -= 1
    assert 3 <= _freed_cities(s) < 7
    assert ob.goals_fulfilled(box, cbox, s, 0) == 1
    for system in free[max(0, 3 - have): max(0, 7 - have)]:
        s.systems[system].buildings.append(Building(kind="city", owner=FREE))
        s.free_city_supply -= 1
    assert ob.goals_fulfilled(box, cbox, s, 0) == 2
    s.commonwealth = "fate"  # no Commonwealth ambition: neither goal
    assert ob.goals_fulfilled(box, cbox, s, 0) == 0


@pytest.mark.parametrize("fates,seed", [((FOUNDER, "FATE06"), 3), ((FOUNDER, "FATE06"), 5),
                                        ((FOUNDER, "FATE06", "FATE03"), 5),
                                        (("FATE05", FOUNDER, "FATE08", "FATE06"), 3)])
def test_bot_games_act_two_and_act_three_with_the_founder_and_the_partisan(fates, seed):
    """Random bots play a whole Act II (then its Intermission) and a whole Act III from real log
    sheets, the invariants checked after every action (2 to 4 players)."""
    from tests.blighted_reach.flow_helpers import play_out

    t = act_two_table(fates, seed=seed)
    play_out(t, seed)
    assert t.state.finished and t.state.act == 2 and t.state.intermission_done[-1] == "choose_fate"
    t = act_three_table(fates, seed=seed)
    play_out(t, seed)
    assert t.state.finished and t.state.act == 3


# -- the Members' privileges, Disgrace (F218-F222) and Book of Liberation's Build (F204) ---------
def planet_outside_empire(s, free: bool = False) -> str:
    """A planet the Empire does not control with an empty slot (and a Free city in it)."""
    from plugins.arcs.content import box_for
    from plugins.arcs.state import Building
    from plugins.blighted_reach import board

    box = box_for(s)
    system = next(x for x in sorted(s.systems) if box.systems[x] is not None and not board.empire_controls(s, x)
                  and len(s.systems[x].buildings) + (2 if free else 1) <= box.systems[x].slots
                  and not any(b.owner == FREE for b in s.systems[x].buildings))
    if free:
        s.systems[system].buildings.append(Building(kind="city", owner=FREE))
        s.free_city_supply -= 1
    return system


def test_F222_members_act_with_free_buildings_outside_the_empire_as_if_loyal():
    """A Member taxes a Free city and builds at it without controlling the system (the piece
    built placed fresh though a Rival controls there); a non-Member may not; in an
    Empire-controlled system the privilege does not apply."""
    from plugins.arcs import actions
    from plugins.arcs.content import box_for
    from plugins.blighted_reach import free_states
    from plugins.blighted_reach.fate_founder import MEMBER_TITLES
    from plugins.blighted_reach.state import Pieces

    t = act_two_table((FOUNDER, "FATE06", "FATE01"))
    s = t.state
    box = box_for(s)
    system = planet_outside_empire(s, free=True)
    city = len(s.systems[system].buildings) - 1
    s.systems[system].ships[2].fresh += 2  # seat 2 controls it
    s.players[2].ships -= 2
    free_states.check_free_tax(s, 1, system, city)  # seat 1: a Member, no control
    actions.check_build(box, s, 1, system, "starport", [])
    assert actions.do_build(s, 1, system, "starport", [])
    assert s.systems[system].buildings[-1].owner == 1 and not s.systems[system].buildings[-1].damaged
    title = next(c for c in s.play_area[1] if c in MEMBER_TITLES)
    s.play_area[1].remove(title)
    s.scrapped.append(title)
    s.systems[system].buildings.pop()  # the starport back
    s.players[1].starports += 1
    with pytest.raises(IllegalAction):
        free_states.check_free_tax(s, 1, system, city)  # no longer a Member, no control
    s.imperial[system] = Pieces(fresh=1)
    s.imperial_supply -= 1
    with pytest.raises(IllegalAction):
        free_states.check_free_tax(s, 0, system, city)  # the Empire controls: no privilege


def test_F218_a_member_choosing_the_free_states_where_a_free_city_stands_is_disgraced():
    from core.state import Event
    from plugins.blighted_reach.fate_founder import free_city_harmed, members

    t = act_two_table((FOUNDER, "FATE06", "FATE01"))
    s = t.state
    with_city = planet_outside_empire(s, free=True)
    plain = planet_outside_empire(s)
    battles = [Event(type="battle", data={"attacker": 1, "defender": FREE, "system": with_city}),
               Event(type="battle", data={"attacker": 2, "defender": FREE, "system": plain}),
               Event(type="battle", data={"attacker": 0, "defender": 2, "system": with_city})]
    assert free_city_harmed(s, battles) == [1]
    from plugins.blighted_reach.fate_founder import disgrace
    assert disgrace(s, 1) in {"F218", "F219", "F220", "F221"} and members(s) == [0, 2]
    assert free_city_harmed(s, battles) == []  # never a Member again


def test_F204_book_of_liberation_builds_a_free_city_and_clears_that_outrage():
    from plugins.arcs.content import box_for
    from tests.blighted_reach.campaign_tables import sound

    t = act_two_table((FOUNDER, "FATE06", "FATE01"))
    s = t.state
    assert "F204" in s.players[0].lore
    system = planet_outside_empire(s)
    kind = box_for(s).systems[system].type
    s.systems[system].ships[0].fresh += 1
    s.players[0].ships -= 1
    s.players[0].outrage = [kind]
    s.players[0].agents -= 1
    supply = s.free_city_supply
    restart(t, [["CON4", "ADM2"], ["AGG2", "MOB2"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "CON4"}))
    t.act(0, Action("declare", {"ambition": ""}))
    build = {"act": "ability", "card": "F204", "index": 1}
    refused(t, 0, Action("act", {**build, "params": {"system": "1G", "what": "city"}}), IllegalAction)
    refused(t, 0, Action("act", {**build, "params": {"system": "9Z", "what": "city"}}), BadParameter)
    refused(t, 0, Action("act", {**build, "params": {"system": system, "what": "ship"}}), BadParameter)
    t.act(0, Action("act", {**build, "params": {"system": system, "what": "city"}}))
    s = t.state
    assert s.systems[system].buildings[-1].owner == FREE and s.free_city_supply == supply - 1
    assert s.players[0].outrage == [] and s.turn.pips == 2  # a Build pip paid for it
    sound(s)


def test_F216_an_armistice_in_the_row_secured_itself_goes_back_under_the_call():
    from tests.blighted_reach.campaign_tables import sound

    t = act_two_table((FOUNDER, "FATE06", "FATE01"))
    s = t.state
    s.booklet = [[c for c in slot if c != "F217"] for slot in s.booklet]
    into_court(t, "F217", [2, 0, 0])
    restart(t, [["AGG4", "ADM2"], ["CON2", "MOB2"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "AGG4"}))
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "secure", "card": "F217"}))
    other = next(p for p in t.state.prompts if p.seat == 0).options[0].params["card"]
    t.act(0, Action("place_agent", {"card": other}))
    t.act(0, Action("place_agent", {"card": other}))
    s = t.state
    assert "F217" not in s.court_row and any("F217" in slot for slot in s.booklet) and all(s.court_row)
    assert s.turn.seat == 0
    sound(s)


def test_F213_the_marker_goes_back_to_the_fate_card_after_the_chapter():
    t = act_two_table()
    declare_with_marker(t)
    score_now(t)
    assert t.state.commonwealth == "fate" and t.state.chapter == 2


# -- the Act I objective through the engine (BR-095..BR-097, BR-310) ------------------------------
@pytest.mark.parametrize("players,start", [(2, 18), (3, 16), (4, 14)])
def test_F201_the_objective_starts_by_player_count_BR_095(players, start):
    """BR-095: 18, 16 or 14 for 2, 3 or 4 players."""
    t = founder_table(players)
    assert t.state.objective_markers[0] == start


def test_F201_an_outlaw_founder_advances_3_per_ambition_won_and_1_per_controlled_system_BR_096_BR_097():
    """Parade Fleets turns the Founder Outlaw (BR-311); at the chapter's end it advances 3 for
    the ambition it wins and 1 per system it controls (the Empire's control is not its own)."""
    from plugins.blighted_reach import board

    t = founder_table()
    lead_and_declare(t, ambition="warlord")
    t.act(0, next(a for a in parade_options(t) if a.params["index"] == 1))  # becomes an Outlaw
    s = t.state
    assert s.titles[0] == "outlaw"
    from plugins.arcs.state import Trophy
    s.players[0].trophies.append(Trophy(owner=1, kind="ship"))
    s.players[1].ships -= 1
    controlled = sum(board.controls_for_scoring(s, 0, x) for x in s.systems)
    marker = s.objective_markers[0]
    score_now(t)
    assert t.state.objective_markers[0] == max(0, marker - 3 - controlled)


def test_F202_parade_fleets_is_protected_yet_discarded_on_fuel_outrage_BR_310():
    """BR-310: Parade Fleets is protected, yet a Fuel Outrage discards it."""
    from plugins.arcs.content import box_for
    from plugins.arcs.outrage import provoke_outrage

    t = founder_table()
    s = t.state
    provoke_outrage(box_for(s), s, 0, "fuel")
    assert "F202" not in s.players[0].guild and "F202" in s.court_discard
