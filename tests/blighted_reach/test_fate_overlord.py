"""The Overlord (FATE17, a C Fate) through the engine on Act III tables built from Acts I
and II: each test names the card it plays (F17nn) and the checklist IDs it proves."""
from __future__ import annotations

from core.state import Action
from plugins.arcs.content import box_for
from plugins.arcs.outrage import provoke_outrage
from plugins.blighted_reach import crises, event_flow
from plugins.blighted_reach.fate_overlord import LOSS
from tests.blighted_reach.c_fate_tables import (
    act_three_table, free_planet, prompt_of, refused, run_steps, score_now, sound, take_from_supply,
)

OVERLORD = "FATE17"


def overlord_table(players: int = 3, seed: int = 3):
    t = act_three_table({0: OVERLORD}, players, seed)
    assert t.state.fates[0] == OVERLORD and t.state.act == 3
    return t






def test_F1701_setup_side_gains_sycophants_books_the_edict_and_provokes_for_two_ships_BR_106():
    """Act III setup F: Sycophants gained, Reach Rejects Overlord in the booklet, then (no
    Outrage yet) the Overlord names a planet: Outrage of its type and 2 ships there, without
    Sycophants' own 2 ships; the final objective's marker then starts on 20 (BR-106)."""
    t = overlord_table()
    s = t.state
    assert "F1702" in s.players[0].guild and any("F1703" in slot for slot in s.booklet)
    assert s.players[0].outrage == []
    prompt = prompt_of(t, "overlord_outrage")
    assert prompt.seat == 0 and {"planet": ""} in [o.params for o in prompt.options]
    refused(t, 0, Action("overlord_outrage", {"planet": "1G"}))  # a gate is no planet
    planet = free_planet(t)
    kind = box_for(s).systems[planet].type
    ships = s.players[0].ships
    t.act(0, Action("overlord_outrage", {"planet": planet}))
    s = t.state
    assert s.players[0].outrage == [kind]
    assert s.systems[planet].ships[0].fresh == 2 and s.players[0].ships == ships - 2
    assert prompt_of(t, "sycophants") is None and s.sycophants_due == []
    assert s.objective_markers[0] == 20 and s.hands[0]
    sound(t)


def test_F1701_declining_the_setup_outrage_changes_nothing():
    t = overlord_table()
    t.act(0, Action("overlord_outrage", {"planet": ""}))
    s = t.state
    assert s.players[0].outrage == [] and s.objective_markers[0] == 20
    sound(t)






def test_F1701_final_objective_advances_for_outraged_types_held_and_controlled_and_wins_BR_107():
    """At the chapter's end: 1 space for the Outraged type whose resource the Overlord holds,
    2 for the Outraged type it controls a planet of; with the marker on 0 and Power at
    least 1 it wins the campaign at once (BR-107, BR-108)."""
    t = overlord_table()
    planet = free_planet(t)
    kind = box_for(t.state).systems[planet].type
    t.act(0, Action("overlord_outrage", {"planet": planet}))
    take_from_supply(t, 0, kind)
    s = t.state
    s.objective_markers[0] = 3
    s.players[0].power = max(s.players[0].power, 1)
    score_now(t)
    s = t.state
    assert s.objective_markers[0] == 0
    assert s.finished and s.result["campaign_winner"] == 0


def test_F1701_completed_objective_without_power_does_not_win_BR_107():
    t = overlord_table()
    planet = free_planet(t)
    t.act(0, Action("overlord_outrage", {"planet": planet}))
    s = t.state
    s.objective_markers[0] = 2
    s.players[0].power = 0
    for rival in (1, 2):
        s.players[rival].power = 0
    score_now(t)
    s = t.state
    assert s.objective_markers[0] == 0 and not s.finished  # 2 spaces for the controlled planet's type
    sound(t)


def weapon_dice(t) -> tuple[int, str]:
    """Crisis dice whose rolled planet is a Weapon planet."""
    box = box_for(t.state)
    return next((n, sym) for n in range(1, 7) for sym in ("arrow", "hex", "moon")
                if box.systems[crises.rolled_planet(box, crises.Dice(number=n, symbol=sym))].type == "weapon")


def into_court(t, card: str) -> None:
    s = t.state
    if card in s.court_deck:
        s.court_deck.remove(card)
    old = s.court_row[-1]
    s.court_deck.append(old)
    s.court_row[-1] = card
    s.court_agents[card] = s.court_agents.pop(old, [0] * len(s.players))


def outrage_spreads(t, card: str):
    number, symbol = weapon_dice(t)
    into_court(t, card)
    t.state.prompts = []
    return run_steps(t, (event_flow.court_crisis, {"card": card, "number": number, "symbol": symbol, "answers": {}}),
                     (event_flow.summit_offer, {"seat": 0, "via": "event"}))


def test_F1702_sycophants_kept_on_weapon_outrage_and_places_two_ships_once_per_turn():
    """Outrage Spreads (F613) makes everyone Provoke Weapon Outrage: the Overlord keeps
    Sycophants (a Weapon card) and is asked at once where 2 fresh ships go, at a Weapon
    planet; a second Provoking in the same turn places none."""
    t = overlord_table()
    t.act(0, Action("overlord_outrage", {"planet": ""}))
    outrage_spreads(t, "F613")
    s = t.state
    assert "weapon" in s.players[0].outrage and "F1702" in s.players[0].guild
    prompt = prompt_of(t, "sycophants")
    assert prompt is not None and prompt.seat == 0 and len(s.prompts) == 1  # asked before anything else
    box = box_for(s)
    other = next(p for p in sorted(s.systems) if box.systems[p] is not None and box.systems[p].type != "weapon")
    refused(t, 0, Action("sycophants", {"planet": other}))
    planet = next(o.params["planet"] for o in prompt.options if o.params["planet"])
    before = s.systems[planet].ships[0].fresh
    t.act(0, Action("sycophants", {"planet": planet}))
    s = t.state
    assert s.systems[planet].ships[0].fresh == before + 2 and s.sycophants_due == []
    assert s.prompts  # the flow it interrupted goes on
    sound(t)
    s.prompts = []
    outrage_spreads(t, "F614")  # the same turn (the round's end): no second placement
    assert prompt_of(t, "sycophants") is None and t.state.sycophants_due == []
    sound(t)


def test_F1702_declining_the_ships_places_none():
    t = overlord_table()
    t.act(0, Action("overlord_outrage", {"planet": ""}))
    outrage_spreads(t, "F613")
    ships = t.state.players[0].ships
    t.act(0, Action("sycophants", {"planet": ""}))
    assert t.state.players[0].ships == ships and t.state.sycophants_used == ""
    sound(t)


def test_F1702_prelude_discards_sycophants_to_place_three_ships_in_a_controlled_system():
    """Its Prelude (the base Skirmishers' rule): discard it to place 3 ships in a system the
    holder controls."""
    from tests.blighted_reach.flow_helpers import options, restart_round

    t = overlord_table()
    planet = free_planet(t)
    t.act(0, Action("overlord_outrage", {"planet": planet}))
    s = t.state
    hands = [list(h) for h in s.hands]
    restart_round(t, hands, initiative=0)
    lead = next(a for a in options(t, 0) if a.type == "lead")
    t.act(0, lead)
    if prompt_of(t, "declare"):
        t.act(0, Action("declare", {"ambition": ""}))
    uses = [a for a in options(t, 0) if a.type == "act" and a.params.get("act") == "ability"
            and a.params.get("card") == "F1702"]
    assert uses
    bad = Action("act", {**uses[0].params, "params": {"system": free_planet(t)}})
    refused(t, 0, bad)  # not a system the Overlord controls
    here = next(u for u in uses if u.params["params"].get("system") == planet)
    before = t.state.systems[planet].ships[0].fresh
    t.act(0, here)
    s = t.state
    assert s.systems[planet].ships[0].fresh == before + 3
    assert "F1702" not in s.players[0].guild and "F1702" in s.court_discard
    sound(t)


def test_F1703_reach_rejects_overlord_costs_power_by_outrage():
    """The Edict: 1 Outrage costs 1 Power, 2 cost 3, ... 5 cost 10, whoever is First Regent."""
    t = overlord_table()
    t.act(0, Action("overlord_outrage", {"planet": free_planet(t)}))
    edict = (event_flow.edict, {"card": "F1703", "do": "handler", "handler": "overlord_loses_power_by_outrage"})
    box = box_for(t.state)
    for count in (1, 2, 5):
        s = t.state
        for r in box.board.resources:
            if len(s.players[0].outrage) < count and r not in s.players[0].outrage:
                provoke_outrage(box, s, 0, r)
        s.sycophants_due = []
        power = s.players[0].power
        s.prompts = []
        run_steps(t, edict, (event_flow.summit_offer, {"seat": 0, "via": "event"}))
        assert t.state.players[0].power == power - LOSS[count]
    sound(t)


def test_FATE17_bot_campaigns_with_the_overlord_in_act_three_play_to_a_winner():
    """Random bots play whole campaigns (2 and 3 players) in which a seat takes the
    Overlord at Act II's Intermission: every Act ends, the campaign has a winner, and the
    invariants hold after every action."""
    from tests.blighted_reach.c_fate_campaigns import arranged_campaign

    for players, seed in ((2, 1), (3, 2)):
        run = arranged_campaign(players, seed, {0: OVERLORD})
        assert run["errors"] == [] and run["winner"] is not None
        assert run["act_three_fates"][0] == OVERLORD


def test_F1701_a_seat_with_a_flagship_may_resettle_first_BR_305():
    """A C Fate's Setup side begins "if you have a Flagship, you may Resettle": the Overlord,
    who kept a Flagship from Act II (granted at its end, carried by the log sheet), is asked
    first; Resettling clears the board and returns the Flagship to the supply
    (`flagships.resettle`, BR-305..BR-307), its placements asked next. A bad answer is
    refused and changes nothing."""
    from plugins.flagships.rules import grant
    from plugins.flagships.state import board_of
    from tests.blighted_reach.campaign_tables import BOX

    def flagship_for_seat_0(state):
        system = next(x for x in sorted(state.systems) if state.systems[x].ships_of(0).total)
        grant(BOX, state, 0, system)
        state.placing = []  # the cities it freed covered no token here (the first placement asked nothing)

    t = act_three_table({0: OVERLORD}, arrange=flagship_for_seat_0)
    assert board_of(t.state, 0) is not None
    prompt = prompt_of(t, "resettle")
    assert prompt is not None and prompt.seat == 0
    refused(t, 0, Action("resettle", {"resettle": "maybe"}))
    events = t.act(0, Action("resettle", {"resettle": True}))
    assert "flagship_resettled" in [e.type for e in events]
    assert board_of(t.state, 0) is None
    sound(t)
