"""The Intermission (steps A-F) on real Act I tables played to their end: each test names
the BR checklist IDs it proves. Refused steps raise a typed error and change nothing."""
from __future__ import annotations

import pytest

from core.errors import ActionRejected, BadParameter, IllegalAction, NotYourTurn
from core.rng import Rng
from plugins.arcs.state import Trophy
from plugins.blighted_reach import fates, favors
from plugins.blighted_reach import intermission as im
from plugins.blighted_reach.blight import BLIGHT
from plugins.blighted_reach.board import EMPIRE
from plugins.blighted_reach.fate_steps import RuleMissing, unplayed
from plugins.blighted_reach.state import FREE, BlightedReachState, Pieces
from tests.blighted_reach.campaign_tables import (
    ADMIRAL, ADVOCATE, BOX, CARETAKER, CBOX, FOUNDER, PARTISAN, STEWARD, act_one, clear_map, ctx,
    end_act, non_imperial_systems, put_building, put_ships, snapshot, sound,
)


def played(fates, markers, seed=3) -> BlightedReachState:
    """Act I played out: the objective markers where the act left them."""
    state = end_act(act_one(fates, seed))
    state.objective_markers = list(markers)
    return state


def through(state: BlightedReachState, last: str) -> BlightedReachState:
    """Run the Intermission's automatic steps up to and including `last`."""
    steps = {
        "resolve_fate": lambda: im.resolve_fates(ctx(state), CBOX),
        "clear_court": lambda: im.clear_court(CBOX, state),
        "clear_pieces": lambda: im.clear_pieces(BOX, CBOX, state),
        "repair_and_destroy": lambda: im.repair_and_destroy(BOX, CBOX, state),
        "shift_initiative_and_power": lambda: im.shift_initiative_and_power(CBOX, state),
    }
    for step, run in steps.items():
        run()
        if step == "repair_and_destroy":
            for seat in list(state.elimination_pending):
                im.place_after_elimination(BOX, CBOX, state, seat, "1G")
        if step == last:
            break
    return state


def refused(state, call, error=ActionRejected):
    before = snapshot(state)
    with pytest.raises(error):
        call()
    assert snapshot(state) == before


# -- the order of the steps -------------------------------------------------------------


def test_BR_327_steps_run_strictly_in_order_and_only_after_acts_one_and_two():
    """BR-327: each step refuses to run before the previous one, and none runs before the
    act is over or after Act III (BR-089); a refusal changes nothing."""
    state = played([STEWARD, ADMIRAL, FOUNDER], [0, 0, 0])
    assert im.STEPS == tuple(CBOX.campaign.intermission_steps)
    refused(state, lambda: im.clear_court(CBOX, state), IllegalAction)
    refused(state, lambda: im.shift_initiative_and_power(CBOX, state), IllegalAction)
    im.resolve_fates(ctx(state), CBOX)
    refused(state, lambda: im.resolve_fates(ctx(state), CBOX), IllegalAction)
    refused(state, lambda: im.clear_pieces(BOX, CBOX, state), IllegalAction)
    im.clear_court(CBOX, state)
    assert state.intermission_done == ["resolve_fate", "clear_court"]
    early = act_one([STEWARD, ADMIRAL, FOUNDER])
    early.chapter = 2
    refused(early, lambda: im.resolve_fates(ctx(early), CBOX), IllegalAction)
    late = played([STEWARD, ADMIRAL, FOUNDER], [0, 0, 0])
    late.act, late.chapter = 3, 4
    refused(late, lambda: im.resolve_fates(ctx(late), CBOX), IllegalAction)


# -- A. Resolve Fate --------------------------------------------------------------------


def test_BR_328_BR_331_steward_completed_resolution():
    """BR-331: Council Intrigue, Tax Collectors and Hunter Squads join the Court deck, (BR-328)
    Imperial Protectors the booklet; Empire Falls and the two Lesser Regents are scrapped."""
    state = played([STEWARD, ADMIRAL, FOUNDER], [0, 4, 6])
    deck = list(state.court_deck)
    state.objective_markers[1] = state.objective_markers[2] = 0  # everyone completed
    im.resolve_fates(ctx(state), CBOX)
    assert set(deck) <= set(state.court_deck)
    assert {"F105", "F106", "F107"} <= set(state.court_deck)
    assert ["F108"] in state.booklet
    assert {"F109", "F110", "F111"} <= set(state.scrapped)
    assert not {"F105", "F106", "F107", "F108", "F109", "F110", "F111"} & set(unplayed(CBOX, state, STEWARD))
    assert state.fate_results == ["completed"] * 3
    sound(state)


def test_BR_328_BR_332_steward_failed_resolution_takes_dealmakers_from_play():
    """BR-332: the four completed-side cards are scrapped; Empire Falls, the two Lesser (BR-328)
    Regents and Dealmakers (in the Steward's play area since setup) join the Court deck."""
    state = played([STEWARD, ADMIRAL, FOUNDER], [3, 0, 0])
    assert "F103" in state.players[0].guild
    im.resolve_fates(ctx(state), CBOX)
    assert {"F105", "F106", "F107", "F108"} <= set(state.scrapped)
    assert {"F109", "F110", "F111", "F103"} <= set(state.court_deck)
    assert "F103" not in state.players[0].guild and ["F108"] not in state.booklet
    assert state.fate_results[0] == "failed"
    sound(state)


def test_BR_090_BR_329_BR_330_dane_fails_on_five_with_two_power():
    """BR-330 (Dane): marker on 5, Power 2, failed: Power -3. BR-329/BR-090: the drop is the
    marker's space; a completed objective costs nothing."""
    state = played([STEWARD, ADMIRAL, FOUNDER], [0, 5, 0])
    state.players[0].power, state.players[1].power, state.players[2].power = 9, 2, 4
    results = im.resolve_fates(ctx(state), CBOX)
    assert results == {0: "completed", 1: "failed", 2: "completed"}
    assert [p.power for p in state.players] == [9, -3, 4]


def test_BR_328_founder_keeps_unions_behind_its_next_resolution():
    """BR-328: Founder completed: Book of Liberation gained (lore), the Political Intrigues
    to the Court deck, the four Unions kept in the Fate Set for the Act II Resolution."""
    state = played([FOUNDER, STEWARD, ADMIRAL], [0, 0, 0])
    im.resolve_fates(ctx(state), CBOX)
    assert "F204" in state.players[0].lore
    assert {"F205", "F206", "F207"} <= set(state.court_deck)
    assert {"F208", "F209", "F210", "F211"} <= set(unplayed(CBOX, state, FOUNDER))
    assert not {"F208", "F209", "F210", "F211"} & set(state.court_deck)


def test_BR_328_advocate_completed_sends_its_guild_overseers_to_the_court_deck():
    """BR-328: Advocate completed: its Guild Overseers (held since setup), the Liaisons and
    Diplomatic Fiasco to the Court deck; Guild Struggle scrapped."""
    state = played([ADVOCATE, PARTISAN, ADMIRAL], [0, 0, 0])
    assert "F403" in state.players[0].guild
    # Partisan's completed side is data; nobody fails, so no handler is needed.
    im.resolve_fates(ctx(state), CBOX)
    assert {"F403", "F405", "F406", "F407", "F408", "F409", "F410"} <= set(state.court_deck)
    assert "F411" in state.scrapped and "F403" not in state.players[0].guild


def test_BR_328_a_handler_step_dispatches_to_the_registry_and_is_missing_loudly(monkeypatch):
    """BR-328: a Resolution step the data names as a handler runs the registered rule; with
    none registered, step A refuses before any seat resolves (nothing changes)."""
    # The Caretaker's Act I setup places Golems by a handler too: a stand-in here, since
    # only the Resolution's dispatch is under test; its Resolution's rules are taken away.
    monkeypatch.setitem(fates.HANDLERS, "sleeping_golems_on_non_imperial_gates", lambda *a: None)
    for name in ("map_golems_to_hearth", "lore_per_player_to_court"):
        monkeypatch.delitem(fates.HANDLERS, name, raising=False)
    state = played([CARETAKER, STEWARD, ADMIRAL], [0, 0, 0])
    refused(state, lambda: im.resolve_fates(ctx(state), CBOX), RuleMissing)
    calls = []
    for name in ("map_golems_to_hearth", "lore_per_player_to_court"):
        monkeypatch.setitem(fates.HANDLERS, name, lambda ctx, seat, card, e, name=name: calls.append((name, seat)))
    im.resolve_fates(ctx(state), CBOX)
    assert calls == [("map_golems_to_hearth", 0), ("lore_per_player_to_court", 0)]
    assert "F502" in state.scrapped and {"F508", "F509", "F510", "F511"} <= set(state.court_deck)


def test_BR_328_a_fate_without_effect_data_is_refused(monkeypatch):
    """BR-328: a B Fate whose effects are not marked built (here the Pathfinder, for this
    test only: all sixteen are built) has its Resolution refused, not skipped."""
    import msgspec

    state = played([STEWARD, ADMIRAL, FOUNDER], [0, 0, 0])
    state.act = 2
    monkeypatch.setitem(CBOX.fates, "FATE09", msgspec.structs.replace(CBOX.fates["FATE09"], effects_complete=False))
    state.fates[1] = "FATE09"  # a B Fate played in Act II whose effects are not built
    refused(state, lambda: im.resolve_fates(ctx(state), CBOX), RuleMissing)


# -- B. Clear Court ---------------------------------------------------------------------


def test_BR_333_BR_334_BR_335_clear_court():
    """BR-333: every Court card but the Council back to the Court deck; BR-334: every agent
    in the Court (the Council's too) home; BR-335: the Court discard pile scrapped."""
    state = through(played([STEWARD, ADMIRAL, FOUNDER], [0, 0, 0]), "resolve_fate")
    row = [c for c in state.court_row[1:] if c]
    gone = row[0]  # secured, then discarded after its effect: its slot is empty
    state.court_row[state.court_row.index(gone)] = ""
    state.court_agents.pop(gone)
    state.court_discard = [gone, state.court_deck.pop()]
    discard = list(state.court_discard)
    for i, card in enumerate(c for c in state.court_row if c):
        state.court_agents[card][i % 3] += 2
        state.players[i % 3].agents -= 2
    agents = [p.agents for p in state.players]
    im.clear_court(CBOX, state)
    assert state.court_row == ["AID01A"] and state.court_agents == {"AID01A": [0, 0, 0]}
    assert set(row[1:]) <= set(state.court_deck) and gone not in state.court_deck
    assert [p.agents for p in state.players] == [agents[0] + 4, agents[1] + 2, agents[2] + 2]
    assert state.court_discard == [] and set(discard) <= set(state.scrapped)
    sound(state)


def test_BR_333_the_council_stays_on_either_side():
    """BR-333: the Imperial Council stays in the Court, Decided side up as well."""
    state = through(played([STEWARD, ADMIRAL, FOUNDER], [0, 0, 0]), "resolve_fate")
    state.court_row[0], state.council = "AID01B", "AID01B"
    state.court_agents["AID01B"] = state.court_agents.pop("AID01A")
    im.clear_court(CBOX, state)
    assert state.court_row == ["AID01B"]


# -- C. Clear Pieces --------------------------------------------------------------------


def test_BR_336_trophies_and_captives_go_home():
    """BR-336: Trophies (ships, starports, agents, cities; Free and Imperial pieces) and
    Captives return to their owners' supplies and boards."""
    state = through(played([STEWARD, ADMIRAL, FOUNDER], [0, 0, 0]), "clear_court")
    p0, p1, p2 = state.players
    p1.ships -= 2
    p2.starports -= 1
    p2.agents -= 1
    board = p1.cities_on_board
    board[board.index(True)] = False
    state.free_city_supply -= 1
    state.imperial_supply -= 1
    p0.trophies = [Trophy(1, "ship"), Trophy(1, "ship"), Trophy(2, "starport"), Trophy(2, "agent"),
                   Trophy(1, "city"), Trophy(FREE, "city"), Trophy(EMPIRE, "ship")]
    p0.captives = [1, 1]
    p1.agents -= 2
    before = (p1.ships, p2.starports, p2.agents, p1.agents, sum(p1.cities_on_board),
              state.free_city_supply, state.imperial_supply)
    im.clear_pieces(BOX, CBOX, state)
    after = (p1.ships, p2.starports, p2.agents, p1.agents, sum(p1.cities_on_board),
             state.free_city_supply, state.imperial_supply)
    assert after == (before[0] + 2, before[1] + 1, before[2] + 1, before[3] + 2, before[4] + 1,
                     before[5] + 1, before[6] + 1)
    assert p0.trophies == [] and p0.captives == []
    sound(state)


def test_BR_336_BR_337_blight_trophies_and_the_imperial_trust_return_to_their_supplies():
    """BR-336: a Blight Trophy goes back to the Blight supply; BR-337: the Imperial Trust on
    the First Regent tile goes back to the supply."""
    state = through(played([STEWARD, ADMIRAL, FOUNDER], [0, 0, 0]), "clear_court")
    system = next(s for s, p in state.blight.items() if p.damaged)  # a Blight the Admiral destroyed
    state.blight[system].damaged -= 1
    if not state.blight[system].total:
        del state.blight[system]
    state.players[1].trophies.append(Trophy(BLIGHT, "blight"))
    for r in ("relic", "psionic"):
        state.supply[r] -= 1
        state.trust.append(r)
    sound(state)
    blight_supply, supply = state.blight_supply, dict(state.supply)
    im.clear_pieces(BOX, CBOX, state)
    assert state.blight_supply == blight_supply + 1 and state.players[1].trophies == []
    assert state.trust == [] and state.supply["relic"] == supply["relic"] + 1
    assert state.supply["psionic"] == supply["psionic"] + 1
    sound(state)


def test_BR_338_two_players_ambition_box_resources_return():
    """BR-338: with 2 players the resources on the ambition boxes go back to the supply."""
    state = through(played([STEWARD, FOUNDER], [0, 0]), "clear_court")
    held = sum(len(t) for t in state.ambition_tokens.values())
    assert held == 6
    supply = sum(state.supply.values())
    im.clear_pieces(BOX, CBOX, state)
    assert all(t == [] for t in state.ambition_tokens.values())
    assert sum(state.supply.values()) == supply + 6
    sound(state)


def test_frozen_resources_hook_point_runs_at_clear_pieces(monkeypatch):
    """The hook point for frozen resources on other cards (a Fate's, not modelled yet): a
    hook under "clear_pieces" runs when step C finishes, not before."""
    state = through(played([STEWARD, ADMIRAL, FOUNDER], [0, 0, 0]), "clear_court")
    seen = []
    monkeypatch.setitem(im.INTERMISSION_HOOKS, "clear_pieces", [lambda s: seen.append(list(s.intermission_done))])
    im.clear_pieces(BOX, CBOX, state)
    assert seen == [["resolve_fate", "clear_court"]]
    assert state.intermission_done[-1] == "clear_pieces"


# -- D. Repair & Destroy ----------------------------------------------------------------


def arranged_for_d(seed=3) -> BlightedReachState:
    state = through(played([STEWARD, ADMIRAL, FOUNDER], [0, 0, 0], seed), "clear_pieces")
    clear_map(state)
    return state


def test_BR_339_BR_340_damaged_pieces_destroyed_and_blight_repaired():
    """BR-339: every damaged Blight turns fresh; BR-340: every damaged ship and building,
    Imperial and Free ones included, is destroyed (back to its supply or board)."""
    state = arranged_for_d()
    a = non_imperial_systems(state)[0]
    imperial = sorted(s for s in state.imperial if BOX.systems[s] is not None)[0]
    put_ships(state, 0, imperial, fresh=2, damaged=3)
    put_ships(state, 1, imperial, damaged=1)
    put_building(state, 0, imperial, "starport", damaged=True)
    put_building(state, 1, a, "city", damaged=True)
    put_ships(state, 1, a, fresh=1)
    state.imperial[imperial] = Pieces(fresh=1, damaged=1)
    state.imperial_supply -= 1
    free = next(x for x in non_imperial_systems(state) if any(y.owner == FREE for y in state.systems[x].buildings))
    for x in state.systems[free].buildings:
        x.damaged = True
    put_ships(state, 2, free, fresh=1)  # a ship there: only being damaged destroys them (not BR-342)
    blight_before = sum(p.total for p in state.blight.values())
    ships, cities, ports = state.players[0].ships, sum(state.players[1].cities_on_board), state.players[0].starports
    im.repair_and_destroy(BOX, CBOX, state)
    assert all(p.damaged == 0 for p in state.blight.values())
    assert sum(p.total for p in state.blight.values()) == blight_before
    assert state.systems[imperial].ships[0].fresh == 2 and state.systems[imperial].ships[0].damaged == 0
    assert state.players[0].ships == ships + 3 and state.systems[imperial].ships[1].total == 0
    assert state.imperial[imperial] == Pieces(fresh=1)
    assert state.players[0].starports == ports + 1 and sum(state.players[1].cities_on_board) == cities + 1
    assert state.systems[free].buildings == [] and state.systems[free].ships[2].fresh == 1
    sound(state)


def test_BR_342_buildings_in_blighted_systems_without_ships_are_destroyed():
    """BR-342: Blight and no ship of anyone's: every building goes; a ship (a Loyal one, or
    an Imperial one) protects them; Blight-free systems keep theirs."""
    state = arranged_for_d()
    bare, guarded, clean = non_imperial_systems(state)[:3]
    put_building(state, 0, bare, "city")
    put_building(state, 1, guarded, "starport")
    put_ships(state, 2, guarded, fresh=1)
    state.blight_supply += state.blight.pop(clean).total
    put_building(state, 2, clean, "city")
    imperial = sorted(s for s in state.imperial if BOX.systems[s] is not None)[0]
    state.blight[imperial] = Pieces(fresh=1)
    state.blight_supply -= 1
    kept = list(state.systems[imperial].buildings)
    im.repair_and_destroy(BOX, CBOX, state)
    assert not [x for x in state.systems[bare].buildings if x.owner == 0]
    assert [x.owner for x in state.systems[guarded].buildings if x.owner >= 0] == [1]
    assert [x.owner for x in state.systems[clean].buildings if x.owner >= 0] == [2]
    assert state.systems[imperial].buildings == kept
    sound(state)


def test_BR_343_a_player_left_with_nothing_places_three_ships_at_a_gate():
    """BR-343: no ship and no starport on the map: the seat places 3 fresh ships at a gate of
    its choice; refused choices change nothing; the step ends once all have placed."""
    state = arranged_for_d()
    for seat in (1, 2):
        put_ships(state, seat, "1G", fresh=1)
    pending = im.repair_and_destroy(BOX, CBOX, state)
    assert pending == [0] and "repair_and_destroy" not in state.intermission_done
    gates = [o["system"] for o in im.options_elimination(BOX, state, 0)]
    assert gates == sorted(f"{i}G" for i in range(1, 7)) and im.options_elimination(BOX, state, 1) == []
    refused(state, lambda: im.place_after_elimination(BOX, CBOX, state, 1, "2G"), NotYourTurn)
    refused(state, lambda: im.place_after_elimination(BOX, CBOX, state, 0, "2.1"), BadParameter)
    refused(state, lambda: im.shift_initiative_and_power(CBOX, state), IllegalAction)
    im.place_after_elimination(BOX, CBOX, state, 0, "4G")
    assert state.systems["4G"].ships[0].fresh == 3 and state.intermission_done[-1] == "repair_and_destroy"
    sound(state)


# -- E. Shift Initiative & Power --------------------------------------------------------


def test_BR_344_BR_345_BR_346_initiative_to_most_power_then_halving():
    """BR-346 (Lotus 7 -> 4, Dane -3 stays); BR-345: more than 1 loses half rounded down;
    BR-344: the initiative goes to the most Power."""
    state = through(played([STEWARD, ADMIRAL, FOUNDER, ADVOCATE], [0, 0, 0, 0]), "repair_and_destroy")
    for p, power in zip(state.players, (7, -3, 1, 2)):
        p.power = power
    state.initiative = 2
    im.shift_initiative_and_power(CBOX, state)
    assert [p.power for p in state.players] == [4, -3, 1, 1] and state.initiative == 0
    again = through(played([STEWARD, ADMIRAL, FOUNDER, ADVOCATE], [0, 0, 0, 0]), "repair_and_destroy")
    for p, power in zip(again.players, (11, 0, 10, 3)):
        p.power = power
    im.shift_initiative_and_power(CBOX, again)
    assert [p.power for p in again.players] == [6, 0, 5, 2] and again.initiative == 0


def test_BR_344_a_tie_for_most_power_goes_to_the_first_in_turn_order():
    """BR-344 with an unstated tie: the tied player first in turn order (G-1)."""
    state = through(played([STEWARD, ADMIRAL, FOUNDER], [0, 0, 0]), "repair_and_destroy")
    for p, power in zip(state.players, (8, 3, 8)):
        p.power = power
    state.initiative = 1
    im.shift_initiative_and_power(CBOX, state)
    assert state.initiative == 2 and [p.power for p in state.players] == [4, 2, 4]


def test_BR_347_two_players_trailing_by_fifteen_are_advised_to_concede():
    """BR-347: advice only, with 2 players, after halving."""
    state = through(played([STEWARD, FOUNDER], [0, 0]), "repair_and_destroy")
    state.players[0].power, state.players[1].power = 40, 9
    im.shift_initiative_and_power(CBOX, state)
    assert (state.players[0].power, state.players[1].power) == (20, 5)
    assert im.concede_advised(state) == [1]
    state.players[1].power = 6
    assert im.concede_advised(state) == []


# -- F. Choose Fate ---------------------------------------------------------------------


def to_f(fates, markers, act=1, seed=3):
    state = played(fates, markers, seed)
    if act == 2:
        state.act = 2
    return through(state, "shift_initiative_and_power")


def test_BR_080_BR_348_BR_349_offers_by_result_and_act():
    """BR-348: completed keeps its Fate and draws 1, failed draws 2 without it; BR-349/BR-080:
    B Fates after Act I. All drawn cards differ."""
    state = to_f([STEWARD, ADMIRAL, FOUNDER], [0, 4, 0])
    assert "later_fates" not in state.options  # the box's rule is the default (all sixteen built)
    im.offer_fates(CBOX, state)
    offers = state.fate_offers
    assert offers[0][0] == STEWARD and offers[2][0] == FOUNDER and ADMIRAL not in offers[1]
    drawn = [offers[0][1], *offers[1], offers[2][1]]
    assert len(set(drawn)) == 4 and all(CBOX.fates[f].letter == "B" for f in drawn)
    refused(state, lambda: im.offer_fates(CBOX, state), IllegalAction)


def test_BR_080_BR_349_c_fates_after_act_two():
    """BR-349/BR-080: after Act II the draw is from the C Fates."""
    state = played([STEWARD, ADMIRAL, FOUNDER], [0, 0, 0])
    state.act = 2
    state.objective_markers = [0, 2, 0]
    through(state, "shift_initiative_and_power")
    assert "later_fates" not in state.options  # the box's offer is the default (all sixteen built)
    im.offer_fates(CBOX, state)
    drawn = [state.fate_offers[0][1], *state.fate_offers[1], state.fate_offers[2][1]]
    assert all(CBOX.fates[f].letter == "C" for f in drawn)


def test_the_a_fates_option_draws_the_a_fates_nobody_plays():
    """The table option `later_fates: a-fates` (a house rule): the A Fates nobody keeps; a
    failed Fate is back in the box, but never offered to the seat that failed it."""
    state = to_f([STEWARD, ADMIRAL, FOUNDER], [0, 4, 0])
    state.options["later_fates"] = "a-fates"
    im.offer_fates(CBOX, state)
    drawn = [state.fate_offers[0][1], *state.fate_offers[1], state.fate_offers[2][1]]
    assert len(set(drawn)) == 4 and all(CBOX.fates[f].letter == "A" for f in drawn)
    assert not {STEWARD, FOUNDER} & set(drawn) and ADMIRAL not in state.fate_offers[1]


def test_BR_350_picks_are_secret_until_everyone_has_picked():
    """BR-350 / A-R7: each pick is secret (no view field shows picks or offers), the reveal
    waits for everyone, then all are shown at once; refused picks change nothing."""
    state = to_f([STEWARD, ADMIRAL, FOUNDER], [0, 4, 0])
    im.offer_fates(CBOX, state)
    assert "fate_picks" not in BlightedReachState.visible and "fate_offers" not in BlightedReachState.visible
    refused(state, lambda: im.pick_fate(state, 1, ADMIRAL), BadParameter)
    refused(state, lambda: im.reveal_fates(CBOX, state), IllegalAction)
    im.pick_fate(state, 2, state.fate_offers[2][1])
    assert im.picks_revealed(state) == ["", "", ""]
    refused(state, lambda: im.pick_fate(state, 2, FOUNDER), IllegalAction)
    assert [o["fate"] for o in im.options_fate(state, 0)] == state.fate_offers[0] and im.options_fate(state, 2) == []
    im.pick_fate(state, 0, STEWARD)
    refused(state, lambda: im.reveal_fates(CBOX, state), IllegalAction)
    im.pick_fate(state, 1, state.fate_offers[1][0])
    assert im.picks_revealed(state) == state.fate_picks
    picks = im.reveal_fates(CBOX, state)
    assert state.fates == picks and state.intermission_done == list(CBOX.campaign.intermission_steps)


def test_BR_351_a_new_fate_scraps_the_old_sets_rest_and_returns_favors():
    """BR-351: changing Fate returns the seat's Favors to their owners, scraps its old Set's
    cards not in play (cards in play stay), and the new Set is the new Fate's; a kept Fate
    keeps its Set."""
    state = to_f([STEWARD, ADMIRAL, FOUNDER], [0, 4, 0])
    favors.take_favor(state, 1, 0)
    favors.take_favor(state, 1, 2)
    favors.take_favor(state, 0, 1)
    agents = [p.agents for p in state.players]
    im.offer_fates(CBOX, state)
    old_set, steward_set = unplayed(CBOX, state, ADMIRAL), unplayed(CBOX, state, STEWARD)
    new = state.fate_offers[1][0]
    im.pick_fate(state, 0, STEWARD)
    im.pick_fate(state, 1, new)
    im.pick_fate(state, 2, FOUNDER)
    im.reveal_fates(CBOX, state)
    assert state.favors[1] == [] and state.favors[0] == [1]
    assert [p.agents for p in state.players] == [agents[0] + 1, agents[1], agents[2] + 1]
    assert old_set and set(old_set) <= set(state.scrapped) and "F702" in state.players[1].guild
    assert unplayed(CBOX, state, new) == [c.id for c in CBOX.fates[new].cards if c.kind not in ("setup", "resolution")]
    assert unplayed(CBOX, state, STEWARD) == steward_set and state.fates[0] == STEWARD
    assert [log[0].fate for log in state.act_log] == [STEWARD, ADMIRAL, FOUNDER]
    assert state.objective_markers == [-1, -1, -1]
    sound(state)


def test_BR_327_whole_intermission_then_pieces_still_add_up():
    """BR-327: all six steps in order on a 4-player table; every piece still accounted for."""
    state = to_f([ADVOCATE, PARTISAN, ADMIRAL, STEWARD], [0, 0, 3, 0], seed=11)
    im.offer_fates(CBOX, state, Rng(state))
    for seat in range(4):
        im.pick_fate(state, seat, state.fate_offers[seat][0])
    im.reveal_fates(CBOX, state)
    assert state.intermission_done == list(CBOX.campaign.intermission_steps)
    sound(state)
    assert all(not p.trophies and not p.captives for p in state.players)
    assert all(not x.damaged for here in state.systems.values() for x in here.buildings)
    assert all(p.damaged == 0 for p in state.blight.values())


def test_BR_328_admiral_failed_resolution_scraps_its_edict_from_the_booklet():
    """BR-328: Admiral failed: Use Imperial Foundries leaves the booklet for the scrap; Honor
    Guard and the Rogue Admirals are scrapped; Court Enforcers and Imperial Defectors join
    the Court deck."""
    state = played([ADMIRAL, STEWARD, FOUNDER], [2, 0, 0])
    assert ["F703"] in state.booklet
    im.resolve_fates(ctx(state), CBOX)
    assert ["F703"] not in state.booklet and {"F703", "F705", "F706", "F707"} <= set(state.scrapped)
    assert {"F708", "F709", "F710", "F711"} <= set(state.court_deck)
    assert state.players[0].power == -2
    sound(state)


def test_the_first_regent_tile_at_act_one_setup():
    """Act I Setup sides: the Steward takes the First Regent tile; the Admiral takes it only
    when the Steward is not in play; with neither, the initiative holder does."""
    with_steward = act_one([ADMIRAL, STEWARD, FOUNDER])
    assert with_steward.first_regent == 1
    without = act_one([ADMIRAL, FOUNDER, ADVOCATE])
    assert without.first_regent == 0
    neither = act_one([FOUNDER, ADVOCATE, PARTISAN])
    assert neither.first_regent == neither.initiative


def test_the_built_option_draws_the_built_later_fates_first_then_a_fates_nobody_keeps():
    """`later_fates: built`: after Act I the B Fates whose rules are built (the Blight Speaker,
    the Pacifist) are drawn first; the rest of the draw is A Fates nobody keeps; after Act
    II the built C Fates come first."""
    state = to_f([STEWARD, ADMIRAL, FOUNDER], [0, 4, 0])
    state.options["later_fates"] = "built"
    im.offer_fates(CBOX, state)
    drawn = [state.fate_offers[0][1], *state.fate_offers[1], state.fate_offers[2][1]]
    built_b = {f.id for f in CBOX.fates_by_letter("B") if f.effects_complete}
    # with more built B Fates than the draw holds, the draw is built ones only
    assert len(set(drawn)) == 4 and (built_b <= set(drawn) if len(built_b) <= 4 else set(drawn) <= built_b)
    assert all(CBOX.fates[f].letter == "A" for f in set(drawn) - built_b)
    assert not {STEWARD, FOUNDER} & (set(drawn) - built_b) and ADMIRAL not in state.fate_offers[1]
    state = played([STEWARD, ADMIRAL, FOUNDER], [0, 0, 0])
    state.act = 2
    state.objective_markers = [0, 2, 0]
    through(state, "shift_initiative_and_power")
    state.options["later_fates"] = "built"
    im.offer_fates(CBOX, state)
    drawn = [state.fate_offers[0][1], *state.fate_offers[1], state.fate_offers[2][1]]
    built_c = {f.id for f in CBOX.fates_by_letter("C") if f.effects_complete}
    assert len(built_c) >= 3  # the draw takes them all while they fit, else only built ones
    assert built_c <= set(drawn) if len(built_c) <= len(drawn) else set(drawn) <= built_c
    assert all(CBOX.fates[f].letter == "A" for f in set(drawn) - built_c)
