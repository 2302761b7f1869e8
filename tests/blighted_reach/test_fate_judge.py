"""The Judge (FATE24, a C Fate) through the engine on Act III tables built from Acts I and
II: each test names the card it plays (F24nn) and the checklist IDs it proves.

Seed 3, 3 players: every seat is a Regent, the Imperial ships stand in clusters 2 and 3, so
the Judge's Chosen tests play in cluster 1, which has no Imperial ship."""
from __future__ import annotations

import msgspec
import pytest

import core.chance
from core.errors import BadParameter, IllegalAction
from core.flow import Ctx, run
from core.state import Action
from plugins.arcs.battle_flow import resolve
from plugins.arcs.rounds import round_start
from plugins.arcs.setup import open_slots, place_ships
from plugins.arcs.turn import reach_of
from plugins.arcs.state import Battle, Ships, Trophy
from plugins.arcs.content import box_for
from plugins.blighted_reach import event_flow
from plugins.blighted_reach.board import controller
from plugins.blighted_reach.content import default_box
from plugins.blighted_reach.state import Pieces
from tests.blighted_reach.campaign_tables import put_building, put_ships
from tests.blighted_reach.c_fate_tables import (
    act_three_table, clear_row, declare_by_arrangement, prompt_of, refused, run_steps, score_now, sound,
    take_from_supply,
)
from tests.blighted_reach.flow_helpers import options, restart_round

JUDGE = "FATE24"
ME = 0


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


def test_FATE24_an_incomplete_fate_is_refused_at_setup(monkeypatch):
    """A Fate marked incomplete (here the Judge's, for this test only) is refused: its setup
    names the rule missing, nothing is played silently wrong."""
    from plugins.blighted_reach.fate_steps import RuleMissing

    cbox = default_box()
    monkeypatch.setitem(cbox.fates, JUDGE, msgspec.structs.replace(cbox.fates[JUDGE], effects_complete=False))
    with pytest.raises(RuleMissing):
        judge_table()


def test_F2401_setup_side_gains_three_cards_books_the_edict_and_starts_on_6_BR_106():
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


def test_F2401_each_declared_ambition_tied_for_first_advances_1_at_the_chapter_end_BR_107():
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


def test_F2401_an_undeclared_tie_does_not_count():
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


def test_F2402_a_raid_steals_the_judges_trophies_and_captives_for_one_key_each():
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


def test_F2402_without_a_key_or_from_a_player_without_the_vow_nothing_is_offered():
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


def test_F2403_the_arbiter_gives_pieces_at_the_start_of_scoring_resources_up_to_empty_slots():
    """At the start of the chapter's scoring the Arbiter's holder is asked first: a Trophy of
    seat 1's own ship goes back to its supply, a Relic to seat 2 (its one empty slot). Seat 2
    is then offered no more resources, but still Trophies and Captives (the card's FAQ: the
    slots limit only resources): its own agent, given back, goes home. Done, the chapter is
    scored (once: no second offer)."""
    t = judge_table()
    trophies_and_captives(t)
    fill_but(t, 1, 2)
    fill_but(t, 2, 1)
    clear_row(t, ME)
    take_from_supply(t, ME, "relic", 2)
    s = t.state
    ships, agents = s.players[1].ships, s.players[2].agents
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
    assert s.players[2].resources.count("relic") == 1 and s.players[ME].resources.count("relic") == 1
    prompt = prompt_of(t, "arbiter_give")
    to_two = {o.params["piece"] for o in prompt.options if o.params["rival"] == 2}
    assert to_two == {"trophy:2:ship", "captive:2"}
    assert {"rival": 1, "piece": "resource:relic"} in [o.params for o in prompt.options]
    refused(t, ME, Action("arbiter_give", {"rival": 2, "piece": "resource:relic"}))
    t.act(ME, Action("arbiter_give", {"rival": 2, "piece": "captive:2"}))
    assert t.state.players[2].agents == agents + 1 and t.state.players[ME].captives == []
    events = t.act(ME, Action("arbiter_give", {"rival": -1, "piece": ""}))
    assert "scored" in [e.type for e in events] and prompt_of(t, "arbiter_give") is None
    sound(t)


def test_F2403_a_card_that_holds_a_resource_gives_a_rival_unlimited_slots_for_it():
    """The Arbiter's FAQ: a card that holds resources has slots without limit for its
    resource. Seat 2 has no empty slot but holds Arsenal Keepers (F1503, holds Weapons): it is
    offered both of the Judge's Weapons (each kept on the card through the Keepers' own
    question) and never a Relic; seat 1, with one empty slot, still takes one resource only."""
    t = judge_table()
    s = t.state
    for seat, kind in ((1, "material"), (2, "fuel")):
        clear_row(t, seat)
        free = len(open_slots(box_for(s), s.players[seat]))
        take_from_supply(t, seat, kind, free - (seat == 1))
    clear_row(t, ME)
    take_from_supply(t, ME, "weapon", 2)
    take_from_supply(t, ME, "relic", 1)
    t.state.players[2].guild.append("F1503")
    score_now(t)
    prompt = prompt_of(t, "arbiter_give")
    to_two = {o.params["piece"] for o in prompt.options if o.params["rival"] == 2}
    assert "resource:weapon" in to_two and "resource:relic" not in to_two
    for _ in range(2):
        t.act(ME, Action("arbiter_give", {"rival": 2, "piece": "resource:weapon"}))
        assert prompt_of(t, "arsenal_keepers").seat == 2
        t.act(2, Action("arsenal_keepers", {"keep": True}))
    s = t.state
    assert s.card_resources["F1503"] == ["weapon", "weapon"] and "weapon" not in s.players[ME].resources
    refused(t, ME, Action("arbiter_give", {"rival": 2, "piece": "resource:relic"}))
    t.act(ME, Action("arbiter_give", {"rival": 1, "piece": "resource:relic"}))
    while any(p.kind == "arcs.place_resources" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "arcs.place_resources")
        t.act(p.seat, options(t, p.seat)[0])
    assert prompt_of(t, "arbiter_give") is None or not any(
        o.params["rival"] == 1 and o.params["piece"].startswith("resource:") for o in prompt_of(t, "arbiter_give").options)
    sound(t)


def agenda(t):
    t.state.prompts = []
    return run_steps(t, (event_flow.edict, {"card": "F2405", "do": "handler", "handler": "judge_sets_agenda"}),
                     (event_flow.summit_offer, {"seat": ME, "via": "event"}))


def test_F2405_judge_sets_agenda_declares_with_any_marker_for_its_second_place_and_passes_the_title():
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


def test_FATE24_bot_campaigns_with_the_judge_in_act_three_play_to_a_winner():
    """Random bots play whole campaigns in which a seat takes the Judge at Act II's
    Intermission (one with the flagships module: the Judge's Flagship in the Chosen's hands):
    every Act ends, the campaign has a winner, and the invariants hold after every action."""
    from tests.blighted_reach.c_fate_campaigns import arranged_campaign

    for players, seed, modules in ((2, 1, ()), (3, 2, ()), (3, 51, ("flagships",))):
        run = arranged_campaign(players, seed, {0: JUDGE}, modules=modules)
        assert run["errors"] == [] and run["winner"] is not None
        assert run["act_three_fates"][0] == JUDGE


# -- F2404 Judge's Chosen ----------------------------------------------------------------------
CHOSEN, VICTIM = 1, 2  # seat 1 holds Judge's Chosen (the Edict gives it), seat 2 is attacked
HOME = "1.1"           # a planet of cluster 1: no Imperial ship, next to its gate 1G


def give_chosen(t, rival: int = CHOSEN) -> None:
    """Judge Sets Agenda played through its Edict: nothing declared, the title given to `rival`."""
    agenda(t)
    t.act(ME, Action("judge_declare", {"ambition": "", "marker": ""}))
    t.act(ME, Action("give_title", {"rival": rival}))
    assert "F2404" in t.state.play_area[rival]


def turn(t, seat: int, card: str = "AGG3") -> None:
    """A new round led by `seat` with an Aggression card (Battle, Move, Secure); the others
    hold a card each; nothing declared."""
    s = t.state
    s.action_discard.extend([*(p.card for p in s.plays if p.card), *s.facedown])
    s.plays, s.facedown, s.queue, s.surpasses, s.turn, s.battle = [], [], [], [], None, None
    s.lead, s.lead_seat, s.declared = "", -1, False
    spare = iter(c for c in ("ADM6", "CON6", "MOB6", "ADM5") if c != card)
    restart_round(t, [[card] if x == seat else [next(spare)] for x in range(len(s.players))], initiative=seat)
    t.act(seat, Action("lead", {"card": card}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(seat, Action("declare", {"ambition": ""}))
    assert t.state.turn is not None and t.state.turn.seat == seat


def rolls(monkeypatch, faces) -> None:
    """The battle roll shows these (die, face) pairs: assault 1 = 2 hits and a self-hit,
    assault 5 blank."""
    def roll(ctx, seat, dice, which, why=""):
        ctx.emit("roll", seat=seat, why=why, dice=[{"die": d, "face": f} for d, f in faces])
        return list(faces)
    monkeypatch.setattr(core.chance, "roll", roll)


def chosen_table():
    t = judge_table()
    give_chosen(t)
    put_ships(t.state, ME, HOME, fresh=2)
    return t


def test_F2404_the_chosen_moves_the_judges_ships_which_never_give_it_control():
    """The holder of Judge's Chosen moves 2 of the Judge's ships from 1.1 into the gate 1G
    with its own pip: they are still the Judge's (1G is the Judge's, not the mover's). More
    ships than are there, the Judge naming its ships as a Rival's, or a Rival without the
    title: refused, nothing changed."""
    t = chosen_table()
    move = {"act": "move", "origin": HOME, "path": ["1G"], "judge_fresh": 2}
    turn(t, VICTIM)  # no title: refused
    refused(t, VICTIM, Action("act", move), BadParameter)
    turn(t, ME)      # the Judge is no Rival of itself
    refused(t, ME, Action("act", move), BadParameter)
    turn(t, CHOSEN)
    refused(t, CHOSEN, Action("act", {**move, "judge_fresh": 3}), BadParameter)
    pips = t.state.turn.pips
    events = t.act(CHOSEN, Action("act", move))
    s = t.state
    assert s.systems["1G"].ships[ME] == Ships(fresh=2) and s.systems[HOME].ships[ME].total == 0
    assert s.systems["1G"].ships[CHOSEN].total == 0 and s.turn.pips == pips - 1
    assert controller(s, "1G") == ME  # the Judge's ships add to the Judge's control, not the mover's
    moved = [e for e in events if e.type == "judge_ships_moved"]
    assert len(moved) == 1 and moved[0].data["judge"] == ME
    assert not any(e.type == "moved" for e in events)  # no ship of the mover's own moved
    sound(t)


def test_F2404_the_chosen_moves_the_judges_flagship_alone_or_with_the_judges_ships():
    """The card's FAQ: the Judge's Flagship is the Judge's Loyal ship, so the Chosen may move
    it (checked as the Judge's own Flagship move: one step, nothing dropped); it stays the
    Judge's and gives the mover no control. The Judge naming its own Flagship this way, or a
    Rival without the title: refused, nothing changed."""
    from plugins.flagships.state import Flagship, flagship_system, store

    t = chosen_table()
    store(t.state, ME, Flagship(system=HOME))  # an empty board: the Judge's cities stay where they are
    alone = {"act": "move", "origin": HOME, "path": ["1G"], "judge_flagship": True}
    turn(t, VICTIM)
    refused(t, VICTIM, Action("act", alone), BadParameter)
    turn(t, CHOSEN)
    assert any(a.params.get("judge_flagship") for a in options(t, CHOSEN))
    refused(t, CHOSEN, Action("act", {**alone, "origin": "1.2"}), BadParameter)
    refused(t, CHOSEN, Action("act", {**alone, "judge_fresh": 2, "judge_drops": [[1, 0]]}), BadParameter)
    events = t.act(CHOSEN, Action("act", {**alone, "judge_fresh": 1}))
    s = t.state
    assert flagship_system(s, ME) == "1G" and s.systems["1G"].ships[ME] == Ships(fresh=1)
    assert s.systems[HOME].ships[ME] == Ships(fresh=1) and controller(s, "1G") == ME
    assert [e.data["by"] for e in events if e.type == "flagship_moved"] == [CHOSEN]
    t.act(CHOSEN, Action("act", {"act": "move", "origin": "1G", "path": [HOME], "judge_flagship": True}))
    assert flagship_system(t.state, ME) == HOME and t.state.systems["1G"].ships[ME] == Ships(fresh=1)
    sound(t)


def test_F2404_the_chosen_moves_its_own_ships_and_the_judges_together():
    """One move takes the holder's ship and the Judge's two ships along the same path."""
    t = chosen_table()
    put_ships(t.state, CHOSEN, HOME, fresh=1)
    turn(t, CHOSEN)
    t.act(CHOSEN, Action("act", {"act": "move", "origin": HOME, "path": ["1G"], "fresh": 1, "judge_fresh": 2}))
    s = t.state
    assert s.systems["1G"].ships[ME] == Ships(fresh=2) and s.systems["1G"].ships[CHOSEN] == Ships(fresh=1)
    sound(t)


def test_F2404_the_chosen_adds_the_judges_ships_to_an_attack_their_dice_and_hits(monkeypatch):
    """The holder (1 ship in 1.1) attacks seat 2 (2 ships) with the Judge's 2 ships added:
    three dice, where its own ship alone allows one. The self-hit is the attacker's to put on
    the Judge's ship; the 2 hits destroy a defending ship, the holder's Trophy. The Judge's
    ships never join an attack on the Judge."""
    t = chosen_table()
    s = t.state
    put_ships(s, CHOSEN, HOME, fresh=1)
    put_ships(s, VICTIM, HOME, fresh=2)
    turn(t, CHOSEN)
    attack = {"act": "battle", "system": HOME, "defender": VICTIM, "assault": 3}
    refused(t, CHOSEN, Action("act", attack), IllegalAction)  # one die for its one ship
    refused(t, CHOSEN, Action("act", {**attack, "defender": ME, "assault": 1, "judge_fresh": 2}), IllegalAction)
    refused(t, CHOSEN, Action("act", {**attack, "judge_fresh": 3}), BadParameter)
    rolls(monkeypatch, [("assault", 1), ("assault", 5), ("assault", 5)])
    events = t.act(CHOSEN, Action("act", {**attack, "judge_fresh": 2}))
    assert any(e.type == "judge_ships_attack" and e.data["fresh"] == 2 for e in events)
    p = next(p for p in t.state.prompts if p.seat == CHOSEN)
    assert p.decision == "br.side_hits" and p.args == {"side": "attacking", "hits": 1}
    refused(t, CHOSEN, Action("assign_side_hits", {"judge": {"damage_fresh": 2}}), BadParameter)
    t.act(CHOSEN, Action("assign_side_hits", {"judge": {"damage_fresh": 1}}))
    s = t.state
    assert s.systems[HOME].ships[ME] == Ships(fresh=1, damaged=1) and s.systems[HOME].ships[CHOSEN] == Ships(fresh=1)
    if s.prompts and s.prompts[0].decision == "arcs.ship_hits":  # 2 hits on 2 fresh ships: destroy one
        t.act(CHOSEN, Action("assign_hits", {"destroy_fresh": 1}))
    s = t.state
    assert s.systems[HOME].ships[VICTIM] == Ships(fresh=1)
    assert s.players[CHOSEN].trophies == [Trophy(owner=VICTIM, kind="ship")]
    assert s.battle is None
    sound(t)


def judges_flagship_at_home(t) -> None:
    """The Judge's Flagship in 1.1, a fresh starport on its first Upgrade slot and a damaged
    one on its second (both from the Judge's supply): it attacks with 1 die (BR-283)."""
    from plugins.flagships.state import BoardPiece, Flagship, Slot, store

    s = t.state
    slots = [Slot(upgrade=BoardPiece("starport")), Slot(upgrade=BoardPiece("starport", damaged=True))]
    store(s, ME, Flagship(system=HOME, slots=slots + [Slot() for _ in range(4)]))
    s.players[ME].starports -= 2


def test_F2404_the_chosen_attacks_with_the_judges_flagship_and_splits_hits_onto_its_board(monkeypatch):
    """The card's FAQ: the Judge's Flagship is the Judge's Loyal ship, so the holder may add it
    to an attack: its dice (1, for its one fresh starport) join the Judge's ship's. The
    self-hit is the holder's to place: on the Judge's ship or the Judge's board (`judge_board`);
    put on the board it destroys the damaged starport, a Trophy of the defender's (BR-279). A
    board of the holder's own it has none of, more dice than ships, or the Flagship named
    where it is not: refused, nothing changed."""
    from plugins.flagships.state import board_of

    t = chosen_table()
    judges_flagship_at_home(t)
    put_ships(t.state, VICTIM, HOME, fresh=2)
    turn(t, CHOSEN)
    attack = {"act": "battle", "system": HOME, "defender": VICTIM, "assault": 2, "judge_fresh": 1,
              "judge_flagship": True}
    assert any(a.params.get("judge_flagship") and a.params.get("system") == HOME for a in options(t, CHOSEN))
    refused(t, CHOSEN, Action("act", {**attack, "assault": 3}), IllegalAction)
    refused(t, CHOSEN, Action("act", {**attack, "system": "1G"}), BadParameter)
    rolls(monkeypatch, [("assault", 1), ("assault", 5)])
    events = t.act(CHOSEN, Action("act", attack))
    assert any(e.type == "judge_ships_attack" and e.data["flagship"] for e in events)
    p = next(p for p in t.state.prompts if p.seat == CHOSEN)
    assert p.decision == "br.flagship_hits"
    answers = [a.params for a in options(t, CHOSEN)]
    assert {"loyal": {"damage_fresh": 0, "destroy_fresh": 0, "destroy_damaged": 0},
            "imperial": {"damage_fresh": 0, "destroy_fresh": 0, "destroy_damaged": 0}, "board": [],
            "judge": {"damage_fresh": 0, "destroy_fresh": 0, "destroy_damaged": 0}, "judge_board": [1]} in answers
    refused(t, CHOSEN, Action("assign_flagship_hits", {"board": [1]}), BadParameter)
    refused(t, CHOSEN, Action("assign_flagship_hits", {"judge_board": [1, 0]}), BadParameter)
    t.act(CHOSEN, Action("assign_flagship_hits", {"judge_board": [1]}))
    s = t.state
    assert board_of(s, ME).slots[1].upgrade is None and board_of(s, ME).slots[0].upgrade is not None
    assert Trophy(owner=ME, kind="starport") in s.players[VICTIM].trophies
    assert s.systems[HOME].ships[ME] == Ships(fresh=2)  # the Judge's ships took no hit
    if s.prompts and s.prompts[0].decision == "arcs.ship_hits":
        t.act(CHOSEN, Action("assign_hits", {"destroy_fresh": 1}))
    s = t.state
    assert s.systems[HOME].ships[VICTIM] == Ships(fresh=1) and s.battle is None
    assert s.players[CHOSEN].trophies == [Trophy(owner=VICTIM, kind="ship")]
    sound(t)


def test_F2404_the_chosen_taxes_with_the_judges_control_array_BR_302():
    """The card's FAQ: the holder may tax with the Judge's Flagship's Control Array: with it in
    the gate 1G, the holder taxes a city of cluster 1 it does not control as if Loyal, the
    resource its own, taking no Captive (BR-302). A Rival without the title: refused."""
    from plugins.flagships.state import Flagship, store
    from tests.flagships.tables import put

    t = chosen_table()
    s = t.state
    store(s, ME, Flagship(system="1G"))
    put(s, ME, "control_array", "upgrade", "city")
    system = HOME  # the Judge's 2 ships control it
    put_building(s, ME, system, "city")
    city = len(s.systems[system].buildings) - 1
    assert controller(s, system) == ME
    turn(t, VICTIM, "ADM3")
    refused(t, VICTIM, Action("act", {"act": "tax", "system": system, "building": city}), IllegalAction)
    turn(t, CHOSEN, "ADM3")
    clear_row(t, CHOSEN)
    t.act(CHOSEN, Action("act", {"act": "tax", "system": system, "building": city}))
    while any(p.kind == "arcs.place_resources" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "arcs.place_resources")
        t.act(p.seat, options(t, p.seat)[0])
    s = t.state
    assert s.turn.taxed == [[system, city]] and s.players[CHOSEN].captives == []
    assert any(r is not None for r in s.players[CHOSEN].resources)
    refused(t, CHOSEN, Action("act", {"act": "tax", "system": system, "building": city}), IllegalAction)
    sound(t)


def test_F2404_the_chosen_builds_its_ships_at_the_judges_flagship_within_its_limit():
    """The card's FAQ: the holder may build ships at the Judge's Flagship: with no starport of
    its own in 1.1, it builds a ship of its own supply there, damaged as the Judge controls 1.1
    (ARCS-146); a second one the same turn passes the Flagship's limit (1 without a Ship
    Crane, BR-269): refused. A Rival without the title: refused."""
    from plugins.flagships.state import Flagship, store

    t = chosen_table()
    s = t.state
    store(s, ME, Flagship(system=HOME))
    assert controller(s, HOME) == ME
    build = Action("act", {"act": "build", "system": HOME, "what": "ship"})
    turn(t, VICTIM, "CON3")
    refused(t, VICTIM, build, IllegalAction)
    turn(t, CHOSEN, "CON3")
    assert any(a.params.get("what") == "ship" and a.params.get("system") == HOME for a in options(t, CHOSEN))
    ships, judges = t.state.players[CHOSEN].ships, t.state.players[ME].ships
    t.act(CHOSEN, build)
    s = t.state
    assert s.systems[HOME].ships[CHOSEN] == Ships(damaged=1) and s.players[CHOSEN].ships == ships - 1
    assert s.players[ME].ships == judges  # the Judge's supply untouched
    refused(t, CHOSEN, build, IllegalAction)
    sound(t)


def test_F2404_the_chosen_catapults_with_the_judges_slipstream_drive_once_a_turn_BR_300():
    """The card's FAQ: the holder may Catapult with the Judge's Flagship: its Slipstream Drive
    takes, in the holder's Prelude and for no pip, the Judge's Flagship alone (or the Judge's
    ships beside it) through a gate, once a turn (BR-300). A Rival without the title holds no
    such ability; the Judge's ships are offered too; a second Catapult that turn: refused."""
    from core.engine import legal_actions
    from plugins.flagships.state import Flagship, board_of, store
    from tests.flagships.tables import put

    from tests.blighted_reach.crisis_tables import set_blight

    t = chosen_table()
    store(t.state, ME, Flagship(system=HOME))
    put(t.state, ME, "slipstream_drive", "upgrade", "city")
    set_blight(t.state, "1G", 0)  # a Blighted gate would end the Catapult there

    def listed(seat):
        return [a.params for a in legal_actions(t.state, seat, t.rules) if a.params.get("card") == "F2404"]

    turn(t, VICTIM, "ADM3")
    assert listed(VICTIM) == []
    turn(t, CHOSEN, "ADM3")
    offers = listed(CHOSEN)
    alone = next(o for o in offers if "fresh" not in o["params"] and len(o["params"]["path"]) == 2)
    assert any(o["params"].get("fresh") == 2 for o in offers)  # the Judge's two ships beside it
    pips = t.state.turn.pips
    events = t.act(CHOSEN, Action("act", alone))
    s = t.state
    assert board_of(s, ME).system == alone["params"]["path"][-1] and s.turn.pips == pips
    assert s.systems[HOME].ships[ME] == Ships(fresh=2)
    assert [e.data["by"] for e in events if e.type == "slipstream_catapult"] == [CHOSEN]
    back = {**alone, "params": {"path": list(reversed(alone["params"]["path"][:-1])) + [HOME]}}
    refused(t, CHOSEN, Action("act", back), IllegalAction)  # once a turn
    sound(t)


def test_F2404_an_attack_by_the_judges_ships_alone_gives_the_defender_their_trophies(monkeypatch):
    """The card's FAQ: the holder, with no ship of its own in 1.1, attacks with the Judge's 2
    ships alone (two dice). Two self-hits: it destroys one of them, which becomes seat 2's
    Trophy (a piece of the Judge's); 4 hits destroy seat 2's 2 ships, the holder's Trophies."""
    t = chosen_table()
    put_ships(t.state, VICTIM, HOME, fresh=2)
    turn(t, CHOSEN)
    attack = {"act": "battle", "system": HOME, "defender": VICTIM, "assault": 2, "judge_fresh": 2}
    refused(t, CHOSEN, Action("act", {**attack, "assault": 3}), IllegalAction)
    refused(t, CHOSEN, Action("act", {**attack, "judge_fresh": 0}), IllegalAction)  # no ship of its own
    rolls(monkeypatch, [("assault", 1), ("assault", 1)])
    t.act(CHOSEN, Action("act", attack))
    assert next(p for p in t.state.prompts if p.seat == CHOSEN).args == {"side": "attacking", "hits": 2}
    t.act(CHOSEN, Action("assign_side_hits", {"judge": {"destroy_fresh": 1}}))
    s = t.state
    assert s.systems[HOME].ships[ME] == Ships(fresh=1)
    assert s.players[VICTIM].trophies == [Trophy(owner=ME, kind="ship")]
    assert s.systems[HOME].ships[VICTIM].total == 0
    assert s.players[CHOSEN].trophies == [Trophy(owner=VICTIM, kind="ship")] * 2
    assert s.battle is None
    sound(t)


def test_F2404_the_holders_legal_actions_offer_the_judges_ships_but_never_against_the_judge():
    """legalActions (the bots' candidates) list moves of the Judge's ships and attacks with
    them for the holder, none on the Judge; nobody else is offered them."""
    t = chosen_table()
    put_ships(t.state, VICTIM, HOME, fresh=1)
    turn(t, CHOSEN)
    listed = [a.params for a in options(t, CHOSEN) if a.type == "act"]
    assert any(p["act"] == "move" and p["judge_fresh"] == 2 and p["origin"] == HOME for p in listed)
    battles = [p for p in listed if p["act"] == "battle" and p["judge_fresh"]]
    defenders = {p["defender"] for p in battles}
    assert VICTIM in defenders and ME not in defenders
    turn(t, VICTIM)
    assert not any(a.params.get("judge_fresh") for a in options(t, VICTIM) if a.type == "act")


def test_F2404_gate_ports_capture_the_judges_agent_when_the_chosen_moves_its_ships_in():
    """The card's FAQ: the Judge's ships moved by the holder into a gate whose controller has
    Gate Ports (L08) and a fresh starport there lose the Judge an agent, not the mover."""
    from tests.blighted_reach.campaign_tables import put_building

    t = chosen_table()
    s = t.state
    for pile in (s.court_deck, s.court_discard, s.lore_deck):  # the base Lore card to seat 2
        if "L08" in pile:
            pile.remove("L08")
    assert "L08" not in s.court_row
    s.players[VICTIM].lore.append("L08")
    put_ships(s, VICTIM, "1G", fresh=3)
    put_building(s, VICTIM, "1G", "starport")
    judge_agents, mover_agents = s.players[ME].agents, s.players[CHOSEN].agents
    turn(t, CHOSEN)
    events = t.act(CHOSEN, Action("act", {"act": "move", "origin": HOME, "path": ["1G"], "judge_fresh": 1}))
    captured = [e.data for e in events if e.type == "agent_captured"]
    s = t.state
    assert captured == [{"seat": VICTIM, "owner": ME, "system": "1G", "why": "gate_ports"}]
    assert s.players[ME].agents == judge_agents - 1 and s.players[CHOSEN].agents == mover_agents
    assert s.players[VICTIM].captives[-1] == ME
    sound(t)


def test_F2404_the_judges_ships_catapult_from_the_judges_starport_only():
    """Reading (module docstring): a move of the Judge's ships is the Judge's own move. With
    only the mover's starport in 1.1 they cannot go on past 1G; with the Judge's there, they
    Catapult through 1G (its Blight removed) on to the next gate."""
    from tests.blighted_reach.campaign_tables import put_building

    t = chosen_table()
    s = t.state
    s.blight_supply += s.blight.pop("1G").total  # 1G's Blight back to its supply: it would end a Catapult
    reach = reach_of(box_for(s), s)
    far = sorted(g for g in reach.neighbours["1G"] if g.endswith("G") and g not in s.imperial)[0]
    put_building(s, CHOSEN, HOME, "starport")
    move = {"act": "move", "origin": HOME, "path": ["1G", far], "judge_fresh": 2}
    turn(t, CHOSEN)
    refused(t, CHOSEN, Action("act", move), IllegalAction)
    put_building(t.state, ME, HOME, "starport")
    turn(t, CHOSEN)
    t.act(CHOSEN, Action("act", move))
    assert t.state.systems[far].ships[ME] == Ships(fresh=2)
    sound(t)


def test_F2404_a_regent_holder_attacks_with_its_own_imperial_and_the_judges_ships(monkeypatch):
    """BR-135 with Judge's Chosen: the holder, a Regent (seat 2, the Admiral, whom Martial Law
    does not bar), attacks the Outlaw seat 1 in 2.1 with its ship, an Imperial ship and one
    of the Judge's: three dice. Its self-hit may go on any of the three groups (the
    attacker's split, ARCS-183): here the Imperial ship is damaged."""
    from plugins.blighted_reach import empire

    CHOSEN, VICTIM = 2, 1
    t = judge_table()
    give_chosen(t, CHOSEN)
    s = t.state
    empire.become_outlaw(s, VICTIM)
    assert s.imperial["2.1"].fresh >= 1 and s.systems["2.1"].ships[ME].fresh >= 1
    judge_before, imperial_before = s.systems["2.1"].ships[ME], s.imperial["2.1"]
    put_ships(s, CHOSEN, "2.1", fresh=1)
    put_ships(s, VICTIM, "2.1", fresh=1)
    turn(t, CHOSEN)
    attack = {"act": "battle", "system": "2.1", "defender": VICTIM, "assault": 3, "imperial_fresh": 1}
    refused(t, CHOSEN, Action("act", attack), IllegalAction)  # two ships: two dice
    rolls(monkeypatch, [("assault", 1), ("assault", 5), ("assault", 5)])
    t.act(CHOSEN, Action("act", {**attack, "judge_fresh": 1}))
    p = next(p for p in t.state.prompts if p.seat == CHOSEN)
    assert p.decision == "br.side_hits" and p.args == {"side": "attacking", "hits": 1}
    answers = [a.params for a in options(t, CHOSEN)]
    assert len(answers) == 3 and {"loyal": {"damage_fresh": 1, "destroy_fresh": 0, "destroy_damaged": 0},
                                  "imperial": {"damage_fresh": 0, "destroy_fresh": 0, "destroy_damaged": 0},
                                  "judge": {"damage_fresh": 0, "destroy_fresh": 0, "destroy_damaged": 0}} in answers
    t.act(CHOSEN, Action("assign_side_hits", {"imperial": {"damage_fresh": 1}}))
    s = t.state
    assert s.imperial["2.1"] == Pieces(fresh=imperial_before.fresh - 1, damaged=imperial_before.damaged + 1)
    assert s.systems["2.1"].ships[ME] == judge_before and s.systems["2.1"].ships[VICTIM].total == 0
    assert s.players[CHOSEN].trophies == [Trophy(owner=VICTIM, kind="ship")]
    sound(t)


def test_F2404_the_judges_ships_alone_still_raid_for_the_holder(monkeypatch):
    """The Judge's ships are the holder's attacking ships to the battle's end: attacking with
    them alone a seat whose city stands in 1.1, the keys rolled let the holder raid that
    seat's resources (ARCS-182 needs attacking ships left: the Judge's count)."""
    from tests.blighted_reach.campaign_tables import put_building

    t = chosen_table()
    s = t.state
    put_building(s, VICTIM, HOME, "city")
    clear_row(t, VICTIM)
    take_from_supply(t, VICTIM, "fuel")
    turn(t, CHOSEN)
    rolls(monkeypatch, [("raid", 0), ("raid", 0)])  # 4 keys; the intercepts meet no defending ship
    t.act(CHOSEN, Action("act", {"act": "battle", "system": HOME, "defender": VICTIM, "raid": 2, "judge_fresh": 2}))
    steals = [a.params for a in options(t, CHOSEN) if a.type == "steal"]
    slot = t.state.players[VICTIM].resources.index("fuel")
    assert {"slot": slot} in steals
    fuel = t.state.players[CHOSEN].resources.count("fuel")
    t.act(CHOSEN, Action("steal", {"slot": slot}))
    while any(p.decision == "arcs.place_resources" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.decision == "arcs.place_resources")
        t.act(p.seat, options(t, p.seat)[0])
    s = t.state
    assert "fuel" not in s.players[VICTIM].resources and s.players[CHOSEN].resources.count("fuel") == fuel + 1
    sound(t)


def test_F2404_bots_play_act_three_out_with_the_judges_flagship_in_the_chosens_hands():
    """The Judge's Flagship with a Slipstream Drive, a Control Array, a Hull and a Defense
    Array, Judge's Chosen held: random bots play Act III to its end, the invariants after
    every action; the holder's moves and attacks with the Judge's Flagship come up and pass."""
    from core.bot import RandomBot
    from plugins.flagships.state import Flagship, store
    from tests.flagships.tables import put

    used = 0
    for seed in range(3):
        t = chosen_table()
        store(t.state, ME, Flagship(system=HOME))
        for slot, kind in (("slipstream_drive", "city"), ("control_array", "city"), ("hull", "starport"),
                           ("defense_array", "starport")):
            put(t.state, ME, slot, "upgrade", kind)
        turn(t, CHOSEN)
        bot, actions = RandomBot(seed), 0
        while not t.state.finished:
            seat, action = bot.choose(t)
            events = t.act(seat, action)
            used += sum(1 for e in events if (e.type == "flagship_moved" and "by" in e.data)
                        or (e.type == "judge_ships_attack" and e.data.get("flagship")))
            sound(t)
            actions += 1
            assert actions < 5_000
    assert used > 0


def test_F2402_F1012_a_raid_steals_the_judges_ship_captives_too():
    """Ships held as Captives (taken by Happy Hosts' Pacify, F1012, and handed to the Judge)
    are Captives the Vow lets a raider steal, 1 key each: seat 1's own ship goes back to its
    supply, seat 2's becomes seat 1's ship Captive; one the Judge does not hold is refused."""
    t = judge_table()
    s = t.state
    s.players[1].ships -= 1
    s.players[2].ships -= 1
    s.ship_captives = {str(ME): [1, 2]}
    raid(t, 1, ME, "1.1", keys=2)
    ships = t.state.players[1].ships
    steals = [a.params for a in options(t, 1) if a.type == "steal"]
    assert {"vow_ship_captive": 1} in steals and {"vow_ship_captive": 2} in steals
    refused(t, 1, Action("steal", {"vow_ship_captive": ME}))
    t.act(1, Action("steal", {"vow_ship_captive": 1}))
    assert t.state.players[1].ships == ships + 1 and t.state.ship_captives == {str(ME): [2]}
    t.act(1, Action("steal", {"vow_ship_captive": 2}))
    assert t.state.ship_captives == {"1": [2]}
    sound(t)


def test_F2403_F1012_the_arbiter_gives_a_ship_captive_home_to_its_owner():
    """The Arbiter's gifts at the start of scoring offer the ship Captives too (F1012's
    Pacify): seat 1's ship given to seat 1 goes back to its supply."""
    t = judge_table()
    s = t.state
    s.players[1].ships -= 1
    s.ship_captives = {str(ME): [1]}
    ships = s.players[1].ships
    score_now(t)
    prompt = prompt_of(t, "arbiter_give")
    assert {"rival": 1, "piece": "ship_captive:1"} in [o.params for o in prompt.options]
    t.act(ME, Action("arbiter_give", {"rival": 1, "piece": "ship_captive:1"}))
    assert t.state.players[1].ships == ships + 1 and t.state.ship_captives == {}
    sound(t)
