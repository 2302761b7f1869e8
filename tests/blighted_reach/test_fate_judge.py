"""The Judge (FATE24, a C Fate) through the engine on Act III tables built from Acts I and
II: each test names the card it plays (F24nn) and the checklist IDs it proves.

The Judge's Fate is not complete yet (Judge's Chosen's rules for its holder are not built),
so `effects_complete` is false in fates.json and a table refuses to set it up; these tests
mark it complete for themselves only (the `complete` fixture) to play the cards built."""
from __future__ import annotations

import msgspec
import pytest

from core.flow import Ctx, run
from core.state import Action
from plugins.arcs.battle_flow import resolve
from plugins.arcs.rounds import round_start
from plugins.arcs.setup import open_slots, place_ships
from plugins.arcs.state import Battle, Trophy
from plugins.arcs.content import box_for
from plugins.blighted_reach import event_flow
from plugins.blighted_reach.content import default_box
from tests.blighted_reach.c_fate_tables import (
    act_three_table, clear_row, declare_by_arrangement, prompt_of, refused, run_steps, score_now, sound,
    take_from_supply,
)
from tests.blighted_reach.flow_helpers import options

JUDGE = "FATE24"
ME = 0


@pytest.fixture
def complete(monkeypatch):
    """The Judge's Fate marked complete for this test only (see the module docstring)."""
    cbox = default_box()
    monkeypatch.setitem(cbox.fates, JUDGE, msgspec.structs.replace(cbox.fates[JUDGE], effects_complete=True))


def judge_table(players: int = 3, seed: int = 3):
    t = act_three_table({ME: JUDGE}, players, seed)
    assert t.state.fates[ME] == JUDGE and t.state.act == 3
    return t


def score_declining_gifts(t):
    """The chapter's end, The Arbiter's gifts (asked first) declined."""
    events = score_now(t)
    if prompt_of(t, "arbiter_give"):
        events += t.act(ME, Action("arbiter_give", {"rival": -1, "piece": ""}))
    return events


def test_FATE24_is_refused_while_its_cards_are_not_all_built():
    """Judge's Chosen's rules are not built: the Fate stays incomplete and a table cannot set
    it up (the rule missing is named, nothing is played silently wrong)."""
    from plugins.blighted_reach.fate_steps import RuleMissing

    assert default_box().fates[JUDGE].effects_complete is False
    with pytest.raises(RuleMissing):
        judge_table()


def test_F2401_setup_side_gains_three_cards_books_the_edict_and_starts_on_6_BR_106(complete):
    """Act III setup F: Vow of Fairness (Lore), The Arbiter (Guild) and Judge's Chosen (title)
    gained, Judge Sets Agenda in the booklet; the final objective starts on 6 whatever the
    player count (BR-106)."""
    for players in (2, 3, 4):
        t = judge_table(players)
        s = t.state
        assert "F2402" in s.players[ME].lore and "F2403" in s.players[ME].guild and "F2404" in s.play_area[ME]
        assert any("F2405" in slot for slot in s.booklet)
        assert s.objective_markers[ME] == 6
        sound(t)


def counts(t, ambition: str) -> dict[int, int]:
    from plugins.blighted_reach import objectives

    return objectives.standings(box_for(t.state), default_box(), t.state, ambition)


def tie_on_top(t, ambition: str, resources: dict[int, str]) -> None:
    """Resources from the supply (seat -> its type) until those seats share the ambition's
    first place alone."""
    top = max(counts(t, ambition).values()) + 1
    for seat, resource in resources.items():
        take_from_supply(t, seat, resource, top - counts(t, ambition)[seat])
    assert {s for s, n in counts(t, ambition).items() if n == top} == set(resources)


def test_F2401_each_declared_ambition_tied_for_first_advances_1_at_the_chapter_end_BR_107(complete):
    """Tycoon declared with two Rivals tied for first, Keeper declared with one seat alone on
    top: 1 space. With the marker on 1 and Power the Judge wins the campaign at once (BR-107)."""
    t = judge_table()
    s = t.state
    for seat in range(3):
        clear_row(t, seat)
    tie_on_top(t, "tycoon", {1: "material", 2: "fuel"})
    tie_on_top(t, "keeper", {ME: "relic"})
    declare_by_arrangement(t, "tycoon")
    declare_by_arrangement(t, "keeper")
    s.objective_markers[ME] = 3
    score_declining_gifts(t)
    assert t.state.objective_markers[ME] == 2 and not t.state.finished
    sound(t)
    t = judge_table()
    s = t.state
    for seat in range(3):
        clear_row(t, seat)
    tie_on_top(t, "tycoon", {1: "fuel", 2: "material"})
    declare_by_arrangement(t, "tycoon")
    s.objective_markers[ME] = 1
    s.players[ME].power = max(s.players[ME].power, 1)
    score_declining_gifts(t)
    s = t.state
    assert s.objective_markers[ME] == 0 and s.finished and s.result["campaign_winner"] == ME


def test_F2401_an_undeclared_tie_does_not_count(complete):
    t = judge_table()
    for seat in range(3):
        clear_row(t, seat)
    tie_on_top(t, "keeper", {1: "relic", 2: "relic"})  # tied, but Keeper not declared
    t.state.objective_markers[ME] = 3
    score_declining_gifts(t)
    assert t.state.objective_markers[ME] == 3


def raid(t, attacker: int, defender: int, system: str, keys: int):
    """A battle at its raid: the attacker holds `keys` keys against the defender there."""
    s = t.state
    for seat in (attacker, defender):
        place_ships(s, system, seat, 1)
    s.prompts, s.stack = [], []
    s.battle = Battle(attacker=attacker, defender=defender, system=system, key=keys)
    run_ctx = Ctx(s, t.rules)
    run_ctx.push(round_start)
    run_ctx.push(resolve)
    run(run_ctx)


def trophies_and_captives(t) -> None:
    """The Judge holds a ship of seat 1 and one of seat 2 as Trophies, an agent of seat 2 as a
    Captive (taken from their supplies)."""
    s = t.state
    for owner in (1, 2):
        s.players[owner].ships -= 1
        s.players[ME].trophies.append(Trophy(owner=owner, kind="ship"))
    s.players[2].agents -= 1
    s.players[ME].captives.append(2)


def test_F2402_a_raid_steals_the_judges_trophies_and_captives_for_one_key_each(complete):
    """A Rival raiding the Judge may take its Trophies and Captives, 1 key each: its own ship
    goes back to its supply, another's ship and a Rival's agent become its Trophy / Captive."""
    t = judge_table()
    trophies_and_captives(t)
    raid(t, 1, ME, "1.1", keys=2)
    ships = t.state.players[1].ships
    steals = [a.params for a in options(t, 1) if a.type == "steal"]
    assert {"vow_trophy": "1:ship"} in steals and {"vow_trophy": "2:ship"} in steals and {"vow_captive": 2} in steals
    refused(t, 1, Action("steal", {"vow_captive": 1}))  # no Captive of seat 1's
    t.act(1, Action("steal", {"vow_trophy": "1:ship"}))
    s = t.state
    assert s.players[1].ships == ships + 1 and Trophy(owner=1, kind="ship") not in s.players[ME].trophies
    t.act(1, Action("steal", {"vow_captive": 2}))
    s = t.state
    assert s.players[1].captives[-1] == 2 and s.players[ME].captives == []
    sound(t)


def test_F2402_without_a_key_or_from_a_player_without_the_vow_nothing_is_offered(complete):
    t = judge_table()
    trophies_and_captives(t)
    s = t.state
    s.players[1].trophies.append(Trophy(owner=2, kind="ship"))
    s.players[2].ships -= 1
    raid(t, 2, 1, "1.1", keys=2)  # seat 1 holds no Vow of Fairness
    assert not any("vow_trophy" in a.params for a in options(t, 2) if a.type == "steal")
    raid(t, 1, ME, "1.1", keys=0)
    assert not any(a.type == "steal" and "vow_trophy" in a.params for a in options(t, 1))


def fill_but(t, seat: int, empty: int) -> None:
    """The seat's row filled from the supply but for `empty` open slots."""
    s = t.state
    clear_row(t, seat)
    free = len(open_slots(box_for(s), s.players[seat]))
    take_from_supply(t, seat, "weapon", free - empty)


def test_F2403_the_arbiter_gives_pieces_at_the_start_of_scoring_up_to_each_rivals_empty_slots(complete):
    """At the start of the chapter's scoring the Arbiter's holder is asked first: a Trophy of
    seat 1's own ship goes back to its supply (seat 1 had 2 empty slots: 1 left), a resource to
    seat 2 (its one empty slot): seat 2 is then offered nothing more; done, the chapter is
    scored (once: no second offer)."""
    t = judge_table()
    trophies_and_captives(t)
    fill_but(t, 1, 2)
    fill_but(t, 2, 1)
    clear_row(t, ME)
    take_from_supply(t, ME, "relic")
    s = t.state
    ships = s.players[1].ships
    events = score_now(t)
    assert "scored" not in [e.type for e in events]
    prompt = prompt_of(t, "arbiter_give")
    assert prompt is not None and prompt.seat == ME
    t.act(ME, Action("arbiter_give", {"rival": 1, "piece": "trophy:1:ship"}))
    assert t.state.players[1].ships == ships + 1
    t.act(ME, Action("arbiter_give", {"rival": 2, "piece": "resource:relic"}))
    while any(p.kind == "arcs.place_resources" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "arcs.place_resources")
        t.act(p.seat, options(t, p.seat)[0])
    s = t.state
    assert "relic" in s.players[2].resources and "relic" not in s.players[ME].resources
    prompt = prompt_of(t, "arbiter_give")
    assert prompt is not None and not any(o.params["rival"] == 2 for o in prompt.options)
    refused(t, ME, Action("arbiter_give", {"rival": 2, "piece": "captive:2"}))
    events = t.act(ME, Action("arbiter_give", {"rival": -1, "piece": ""}))
    assert "scored" in [e.type for e in events] and prompt_of(t, "arbiter_give") is None
    sound(t)


def agenda(t):
    t.state.prompts = []
    return run_steps(t, (event_flow.edict, {"card": "F2405", "do": "handler", "handler": "judge_sets_agenda"}),
                     (event_flow.summit_offer, {"seat": ME, "via": "event"}))


def test_F2405_judge_sets_agenda_declares_with_any_marker_for_its_second_place_and_passes_the_title(complete):
    """The Edict: the Judge declares Keeper with an Available marker of its choice (not only
    the highest) and loses that marker's second-place Power; then Judge's Chosen comes back to
    it and it must give it to a Rival; next time the title comes back from that Rival."""
    from plugins.arcs.scoring import marker_values

    t = judge_table()
    s = t.state
    low = min(s.markers_available, key=lambda m: marker_values(box_for(s), [m])[0])
    power = s.players[ME].power
    agenda(t)
    prompt = prompt_of(t, "judge_declare")
    assert prompt is not None and prompt.seat == ME
    refused(t, ME, Action("judge_declare", {"ambition": "keeper", "marker": "Z"}))
    t.act(ME, Action("judge_declare", {"ambition": "keeper", "marker": low.id}))
    s = t.state
    assert [m.id for m in s.ambition_boxes["keeper"]] == [low.id]
    assert s.players[ME].power == power - marker_values(box_for(s), [low])[1]
    assert prompt_of(t, "judge_chosen").seat == ME
    refused(t, ME, Action("give_title", {"rival": ME}))
    t.act(ME, Action("give_title", {"rival": 2}))
    assert "F2404" in t.state.play_area[2] and "F2404" not in t.state.play_area[ME]
    sound(t)
    agenda(t)
    t.act(ME, Action("judge_declare", {"ambition": "", "marker": ""}))
    t.act(ME, Action("give_title", {"rival": 1}))
    s = t.state
    assert "F2404" in s.play_area[1] and "F2404" not in s.play_area[2]
    sound(t)


def test_FATE24_bot_campaigns_with_the_judge_in_act_three_play_to_a_winner(complete):
    """Random bots play whole campaigns in which a seat takes the Judge at Act II's
    Intermission (its Fate marked complete here): every Act ends, the campaign has a winner,
    and the invariants hold after every action."""
    from tests.blighted_reach.c_fate_campaigns import arranged_campaign

    for players, seed in ((2, 1), (3, 2)):
        run = arranged_campaign(players, seed, {0: JUDGE})
        assert run["errors"] == [] and run["winner"] is not None
        assert run["act_three_fates"][0] == JUDGE
