"""The Hegemon (FATE10, a B Fate) through the engine: an Act I with A Fates, its
Intermission giving a seat the Hegemon, the Act II table created from the packed log sheet
(its Setup side answered through the engine), and Act III from Act II's sheet. Each test
names the card it plays (F10nn) and the checklist IDs it proves; ships captured by Pacify
(F1012) are played as Captives wherever a Captive counts (Prison Wardens, Summits, the War
Demand, the Pacifist's counts), Banners harmed like buildings outside battles too (Fire
Rifles, Terror Strike, Breaking Worlds)."""
from __future__ import annotations

import copy

import msgspec
import pytest

from core.engine import create_table, view, view_events
from core.state import Action
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as a table has them)
from plugins.arcs.state import Ships, Trophy
from plugins.blighted_reach import campaign as sheet
from plugins.blighted_reach import fate_hegemon as hg
from plugins.flagships.content import default_content as flagship_content
from plugins.flagships.state import board_of, flagship_system, store
from tests.blighted_reach.c_fate_tables import refused, snapshot, sound
from tests.blighted_reach.campaign_tables import BOX, CBOX, act_one, b_fate_intermission, end_act
from tests.blighted_reach.empire_fate_tables import place_tokens, prompt_of, resolve_fates
from tests.blighted_reach.flow_helpers import KeepFateBot, options
from tests.blighted_reach.test_fate_pacifist import (
    advanced, all_outlaws, battle, empty_system, rolls, score_now, ships_to, starport_to, take_captive, take_trophy,
    turn,
)

GAME = "blighted-reach"
HEGEMON = "FATE10"
A_FATES = ["FATE01", "FATE02", "FATE07", "FATE06"]  # Steward, Founder, Admiral, Partisan at Act I


def _campaign_for(state, players: int, modules=None) -> dict:
    log = sheet.to_json(sheet.pack_up(BOX, CBOX, state))
    return {"players": players, "acts_played": state.act, "log": copy.deepcopy(log), "finished": False,
            "winner": -1, "acts": [], **({"modules": list(modules)} if modules else {})}


def answer_setup(t, start: int = 20) -> None:
    """The Setup sides' questions: the Flagship's system and the ships to scrap (the first
    offered each time), then the objective starts."""
    for _ in range(40):
        place_tokens(t)
        prompt = next((p for p in t.state.prompts if p.kind in ("place_flagship", "scrap_ship")), None)
        if prompt is None:
            break
        t.act(prompt.seat, prompt.options[0])
    while any(p.kind == "objective_start" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "objective_start")
        t.act(p.seat, Action("objective_start", {"space": start}))
    place_tokens(t)


def act_two_state(players: int = 3, seed: int = 3, seat: int = 0):
    state = end_act(act_one(A_FATES[:players], seed))
    b_fate_intermission(state, seat, HEGEMON)
    return state


def act_two_table(players: int = 3, seed: int = 3, seat: int = 0, answer: bool = True, modules=None):
    """The Act II table with the Hegemon at `seat` (and the optional `modules`, e.g. the
    Flagships), its Setup side answered unless `answer` is False."""
    state = act_two_state(players, seed, seat)
    t = create_table(GAME, players, seed=seed, campaign=_campaign_for(state, players, modules), modules=modules)
    if answer:
        answer_setup(t)
    return t


def loyal_ships(state, seat: int) -> int:
    return sum(here.ships_of(seat).total for here in state.systems.values())


def flagship_to(state, seat: int, system: str) -> None:
    """The Flagship arranged in `system` (as a Move would take it there)."""
    ship = board_of(state, seat)
    ship.system = system
    store(state, seat, ship)


def plant(state, planet: str, damaged: bool = False) -> None:
    """A Banner from the Hegemon's supply on the planet (as Planting Banners puts it)."""
    assert hg.banners_in_supply(state) > 0
    state.banners[planet] = damaged


def next_turn(t, seat: int, card: str) -> None:
    """`turn` again: the cards played this round to the discard first (the round is over)."""
    s = t.state
    s.action_discard.extend(p.card for p in s.plays if p.card)
    s.plays, s.lead = [], ""
    turn(t, seat, card)


def ability(card: str, index: int, params=None, pay: int = -1) -> Action:
    return Action("act", {"act": "ability", "pay": pay, "card": card, "index": index, "params": params or {}})


def uses(t, seat: int, card: str) -> list[Action]:
    return [a for a in options(t, seat) if a.params.get("card") == card]


# -- bots ----------------------------------------------------------------------------------------


class HegemonBot:
    """KeepFateBot, but the Hegemon takes its own cards' abilities whenever offered (plant a
    Banner, Call Spirits, Call Bodies, Manipulate, Pacify), so bot games play them."""

    CARDS = ("F1002", "F1004", "F1006", "F1012")

    def __init__(self, seed: int, seat: int) -> None:
        self.bot, self.seat = KeepFateBot(seed, seat, HEGEMON), seat

    def choose(self, table):
        seat, action = self.bot.choose(table)
        if seat == self.seat and action.type == "act":
            offered = options(table, seat)
            mine = [a for a in offered if a.params.get("card") in self.CARDS]
            if mine:
                return seat, mine[0]
            if action.params.get("act") == "move":  # the Flagship goes where Banners may stand
                flagship = [a for a in offered if a.params.get("act") == "move" and a.params.get("flagship")]
                if flagship:
                    return seat, flagship[len(flagship) // 2]
        return seat, action


def play_hidden_checked(t, bot, max_actions: int = 20_000) -> int:
    """`play_checked`, with the hidden-information check (`core.secrets`) after every action."""
    from core.secrets import HiddenCheck

    actions = 0
    while not t.state.finished:
        check = HiddenCheck(t)
        seat, action = bot.choose(t)
        t.act(seat, action)
        actions += 1
        problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
        assert problems == [], f"after action {actions}: {problems}"
        assert check(t) == [], f"after action {actions}"
        assert actions < max_actions
    return actions


def hegemon_campaign(players: int, seed: int, seat: int, modules=None) -> tuple[int, int]:
    """Act II with the Hegemon at `seat` (its marker one space from the end, so a chapter's
    end with a Banner on the map completes it), bots to the Act's end (its Intermission
    keeping the Hegemon); then Act III from the saved log sheet, bots to the campaign's end,
    the invariants and the hidden-information check after every action. Returns the actions
    of each Act."""
    t = act_two_table(players, seed, seat, modules=modules)
    t.state.objective_markers[seat] = 1
    bot = HegemonBot(seed, seat)
    second = play_hidden_checked(t, bot)
    campaign = {"players": players, "acts_played": 1, "log": None, "finished": False, "winner": -1, "acts": [],
                **({"modules": list(modules)} if modules else {})}
    t.rules.hook.conclave_campaign_save(state=t.state, campaign=campaign)
    third = create_table(GAME, players, seed=seed + 1, campaign=campaign, modules=modules)
    return second, play_hidden_checked(third, bot)


@pytest.mark.parametrize("players, seed, seat, modules", [(3, 2, 0, None), (2, 4, 1, ["flagships"])])
def test_bots_play_the_hegemon_through_acts_two_and_three(players, seed, seat, modules):
    second, third = hegemon_campaign(players, seed, seat, modules)
    assert second > 0 and third > 0


@pytest.mark.parametrize("players, seed, seat", [(3, 2, 0)])
def test_bots_play_an_act_two_with_the_hegemon(players, seed, seat):
    """The Hegemon's Act II as it starts, bots to the Act's end (its Intermission included),
    invariants and the hidden-information check after every action."""
    t = act_two_table(players, seed, seat)
    assert t.state.fates[seat] == HEGEMON
    assert play_hidden_checked(t, HegemonBot(seed, seat)) > 0


# -- F1001 Hegemon Act II Setup ------------------------------------------------------------------


def test_F1001_setup_flagship_starports_replenished_fleet_and_four_ships_scrapped_BR_074_BR_075_BR_265():
    """BR-074 (an Act's Fate setup side), BR-075 (the printed start space), BR-265 (a
    Flagship's owner's Loyal buildings become Free ones): the Hegemon places its Flagship,
    has fresh starports on its Defense Array and Slipstream Drive, fills its fleet at the Flagship to 6 Loyal ships on the map (3 taken
    off first), scraps 4 Loyal ships of its choice (a place with none refused), gains
    Planting Banners and Song of the Banner, collects 8 Banners; Banners of Hegemony is in
    the booklet; its marker starts on 14."""
    t = act_two_table(answer=False)
    s = t.state
    mine = [(x, b.kind) for x, here in s.systems.items() for b in here.buildings if b.owner == 0]
    assert mine
    taken = 0
    for here in s.systems.values():  # 3 Loyal ships off the map: the fleet is short
        while here.ships_of(0).fresh and taken < 3:
            here.ships[0].fresh -= 1
            s.players[0].ships += 1
            taken += 1
    short = loyal_ships(s, 0)
    ask = prompt_of(t, "place_flagship")
    assert ask.seat == 0
    t.act(0, ask.options[0])
    place_tokens(t)
    s = t.state
    where = ask.options[0].params["system"]
    assert flagship_system(s, 0) == where and short < 6 and loyal_ships(s, 0) == 6
    assert not any(b.owner == 0 for here in s.systems.values() for b in here.buildings)
    ship, content = board_of(s, 0), flagship_content()
    for upgrade in ("defense_array", "slipstream_drive"):
        piece = ship.slots[content.slot_of(upgrade)].upgrade
        assert piece is not None and piece.kind == "starport" and not piece.damaged
    empty = next(x for x in sorted(s.systems) if not s.systems[x].ships_of(0).total)
    refused(t, 0, Action("scrap_ship", {"where": empty}))
    supply = s.players[0].ships
    for _ in range(4):
        ask = prompt_of(t, "scrap_ship")
        assert ask.seat == 0
        t.act(0, ask.options[0])  # the supply first
    s = t.state
    assert s.scrapped_ships.count(0) == 4 and s.players[0].ships == supply - 4 and prompt_of(t, "scrap_ship") is None
    assert "F1002" in s.play_area[0] and "F1004" in s.players[0].lore and ["F1003"] in s.booklet
    assert s.banner_set == 8 and hg.banners_in_supply(s) == 8 and s.banners == {}
    answer_setup(t)
    assert t.state.objective_markers[0] == 14
    sound(t)


@pytest.mark.parametrize("won, spaces", [(False, 2), (True, 4)])
def test_F1001_objective_advances_per_banner_and_again_with_an_ambition_won_BR_086(won, spaces):
    """BR-086 (an advance moves the marker toward 0), at a chapter's end: 1 per Banner on the map (2 here), and 1 per
    Banner again when the Hegemon wins an ambition in the chapter (Tycoon, by Material)."""
    from tests.blighted_reach.c_fate_tables import clear_row, declare_by_arrangement, take_from_supply

    t = act_two_table()
    s = t.state
    a, b = [p for p in sorted(s.systems) if BOX.systems.get(p) is not None][:2]
    plant(s, a)
    plant(s, b)
    if won:
        for seat in range(3):
            clear_row(t, seat)
        take_from_supply(t, 0, "material", 2)
        declare_by_arrangement(t, "tycoon")
    start = t.state.objective_markers[0]
    events = score_now(t)
    assert advanced(events, 0) == spaces and t.state.objective_markers[0] == start - spaces
    sound(t)


# -- F1002 Planting Banners ----------------------------------------------------------------------


def banner_table():
    """Act II, the Hegemon (seat 0) leading, its Flagship at an empty planet. Returns (table,
    planet)."""
    t = act_two_table()
    planet = empty_system(t.state, range(3))
    flagship_to(t.state, 0, planet)
    turn(t, 0, "MOB3")
    return t, planet


def plant_use(t) -> Action:
    return next(a for a in uses(t, 0, "F1002") if a.params["index"] == 1)


def test_F1002_planting_banners_prelude_plants_at_the_flagships_planet():
    """The Prelude plants a fresh Banner at the Flagship's planet, a Loyal piece of the
    Hegemon (with its Flagship there it controls the planet); again there is refused
    (a Banner is there); at a planet with a Rival's ship it is not offered."""
    from plugins.blighted_reach import board

    t, planet = banner_table()
    t.act(0, plant_use(t))
    s = t.state
    assert s.banners == {planet: False} and hg.banners_in_supply(s) == 7
    assert board.has_loyal_pieces(s, 0, planet) and board.controller(s, planet) == 0
    assert not [a for a in uses(t, 0, "F1002") if a.params["index"] == 1]
    refused(t, 0, ability("F1002", 1))
    other = empty_system(s, range(3))
    ships_to(s, 1, other, 1)
    flagship_to(s, 0, other)
    assert not [a for a in uses(t, 0, "F1002") if a.params["index"] == 1]
    refused(t, 0, ability("F1002", 1))
    sound(t)


def test_F1002_a_banner_is_its_owners_loyal_piece_for_the_presence_law_BR_325_BR_326():
    """BR-325/BR-326: Planting Banners says Banners are Loyal, so a lone Banner is the
    Hegemon's piece (not a Rival's): a Regent Hegemon controls, on its turn, an
    Empire-controlled system where only its Banner stands (the Presence Law); with the Banner
    gone it does not."""
    from plugins.blighted_reach import board
    from plugins.blighted_reach.state import Pieces

    t = act_two_table()
    s = t.state
    planet = empty_system(s, range(3))
    plant(s, planet)
    s.imperial[planet] = Pieces(fresh=1)
    s.imperial_supply -= 1
    if s.titles[0] != "regent":
        from plugins.blighted_reach import empire

        empire.become_regent(s, 0)
    assert board.has_loyal_pieces(s, 0, planet) and not board.has_loyal_pieces(s, 1, planet)
    assert board.controls_on_turn(s, 0, planet)
    del s.banners[planet]
    assert not board.controls_on_turn(s, 0, planet)


def test_F1002_planting_banners_is_scrapped_without_a_flagship():
    """"Scrap this if you don't have a Flagship": the Flagship's board gone, the next step
    scraps Planting Banners."""
    t, planet = banner_table()
    store(t.state, 0, None)
    next_turn(t, 0, "MOB4")
    assert "F1002" in t.state.scrapped and "F1002" not in t.state.play_area[0]


# -- F1003 Banners of Hegemony ---------------------------------------------------------------------


def banner_under_attack():
    """Act II, everyone an Outlaw: a lone fresh Banner of the Hegemon (seat 0) where seat 1
    has 2 ships, seat 1 to act. Returns (table, planet)."""
    t = act_two_table()
    all_outlaws(t)
    s = t.state
    planet = empty_system(s, range(3))
    plant(s, planet)
    ships_to(s, 1, planet, 2)
    turn(t, 1, "AGG3")
    return t, planet


def test_F1003_a_banner_is_harmed_like_a_building_then_taken_as_a_trophy_BR_323(monkeypatch):
    """Banners of Hegemony (BR-323: a booklet law every player follows): a lone Banner can be
    battled; a hit beyond the Hegemon's (absent) ships damages it; the next battle's hit
    destroys it: the attacker's Trophy, no Outrage, the Hegemon's supply not refilled."""
    t, planet = banner_under_attack()
    rolls(monkeypatch, [("skirmish", 0)])
    battle(t, 1, planet, 0, skirmish=1)
    place_tokens(t)
    s = t.state
    assert s.banners == {planet: True} and s.players[1].trophies == []
    next_turn(t, 1, "AGG4")
    battle(t, 1, planet, 0, skirmish=1)
    place_tokens(t)
    s = t.state
    assert s.banners == {} and s.players[1].trophies == [Trophy(owner=hg.BANNER, kind="banner")]
    assert s.players[1].outrage == [] and hg.banners_in_supply(s) == 7
    sound(t)


def test_F1003_the_attacker_splits_building_hits_over_a_banner_and_a_building(monkeypatch):
    """Two building hits where the Hegemon has a Banner and a starport (arranged): the
    attacker chooses how many strike the Banner (more than it can take refused); the rest
    strike the starport."""
    t, planet = banner_under_attack()
    s = t.state
    starport_to(s, 0, planet)
    rolls(monkeypatch, [("assault", 0)])
    battle(t, 1, planet, 0, assault=1)
    ask = prompt_of(t, "br.banner_hits")
    assert ask is not None and ask.seat == 1
    refused(t, 1, Action("assign_banner_hits", {"banner": 3}))
    t.act(1, Action("assign_banner_hits", {"banner": 1}))
    place_tokens(t)
    s = t.state
    assert s.banners == {planet: True}
    assert [b.damaged for b in s.systems[planet].buildings if b.owner == 0] == [True]
    sound(t)


def test_F1003_banner_trophies_score_two_more_power_each_in_warlord_BR_099():
    """Warlord scored: its winner gains its place's Power and 2 more per Banner Trophy."""
    from plugins.blighted_reach import objectives
    from tests.blighted_reach.c_fate_tables import declare_by_arrangement

    t = act_two_table()
    s = t.state
    s.banner_set = 8
    s.players[1].trophies.extend([Trophy(owner=hg.BANNER, kind="banner")] * 2)
    declare_by_arrangement(t, "warlord")
    base = objectives.chapter_score(BOX, CBOX, s).gains["warlord"].get(1, 0)
    power = s.players[1].power
    score_now(t)
    s = t.state
    assert base > 0 and s.players[1].power == power + base + 4
    assert s.players[1].trophies == [] and hg.banners_in_supply(s) == 8  # back to the Hegemon's supply
    sound(t)


def test_F1003_a_damaged_banner_is_repaired_by_the_hegemon():
    """A Repair of the Hegemon's repairs its damaged Banner (a fresh one is not offered); a
    Rival cannot repair it."""
    t = act_two_table()
    s = t.state
    planet = empty_system(s, range(3))
    plant(s, planet, damaged=True)
    turn(t, 0, "ADM3")
    refused(t, 0, ability("F1002", 2, {"planet": "9.9"}))
    t.act(0, ability("F1002", 2, {"planet": planet}))
    assert t.state.banners == {planet: False}
    next_turn(t, 0, "ADM4")
    assert not [a for a in uses(t, 0, "F1002") if a.params["index"] == 2]
    sound(t)


def test_F1003_the_intermission_destroys_damaged_banners_and_those_blight_holds_BR_340_BR_342():
    """BR-340 (damaged pieces destroyed at the Intermission) and BR-342 (buildings with Blight
    and no ship destroyed): a damaged Banner goes, a fresh one with Blight and no ship goes, a
    fresh one with Blight and a ship stays; back to the Hegemon's supply, no Trophy."""
    from plugins.blighted_reach.state import Pieces
    from tests.blighted_reach.campaign_tables import intermission

    t = act_two_table()
    s = t.state
    free = [p for p in sorted(s.systems) if BOX.systems.get(p) is not None and not s.systems[p].buildings
            and not any(s.systems[p].ships_of(x).total for x in range(3))][:3]
    damaged, blighted, guarded = free
    plant(s, damaged, damaged=True)
    for planet in (blighted, guarded):
        plant(s, planet)
        s.blight[planet] = Pieces(fresh=1)
        s.blight_supply -= 1
    ships_to(s, 0, guarded, 1)
    state = end_act(s)
    state.prompts, state.stack, state.turn = [], [], None
    state.objective_markers = [0, 0, 0]
    intermission(state, picks={x: state.fates[x] for x in range(3)})
    assert state.banners == {guarded: False} and hg.banners_in_supply(state) == 7
    assert not any(t_.kind == "banner" for p in state.players for t_ in p.trophies)


# -- F1004 Song of the Banner ----------------------------------------------------------------------


def test_F1004_call_spirits_gains_two_resources_of_a_banner_planet_once_per_turn():
    """Call Spirits (a Tax): 2 resources of the Banner planet's type; a second use in the
    same turn is refused; a planet without a Banner is refused."""
    from tests.blighted_reach.c_fate_tables import clear_row

    t = act_two_table()
    s = t.state
    planet = empty_system(s, range(3))
    plant(s, planet)
    clear_row(t, 0)
    kind = BOX.systems[planet].type
    turn(t, 0, "ADM3")
    other = next(p for p in sorted(s.systems) if BOX.systems.get(p) is not None and p != planet)
    refused(t, 0, ability("F1004", 0, {"planet": other}))
    t.act(0, ability("F1004", 0, {"planet": planet}))
    place_tokens(t)
    assert t.state.players[0].resources.count(kind) == 2
    refused(t, 0, ability("F1004", 0, {"planet": planet}, pay=0))
    sound(t)


def test_F1004_call_bodies_places_two_fresh_ships_at_a_banner_once_per_turn():
    """Call Bodies (a Build): 2 fresh ships from the supply at a Banner; once per turn."""
    t = act_two_table()
    s = t.state
    planet = empty_system(s, range(3))
    plant(s, planet)
    turn(t, 0, "CON3")
    supply = t.state.players[0].ships
    t.act(0, ability("F1004", 1, {"planet": planet}))
    s = t.state
    assert s.systems[planet].ships_of(0).fresh == 2 and s.players[0].ships == supply - 2
    refused(t, 0, ability("F1004", 1, {"planet": planet}, pay=0))
    sound(t)


# -- F1005 Hegemon Act II Resolution ------------------------------------------------------------------


def test_F1005_completed_gains_mind_managers_adds_wardens_and_scraps_against_hegemony_BR_328():
    """BR-328 (each player resolves its Resolution card), completed side: Mind Managers gained, both Prison Wardens into
    the Court deck, both Against Hegemony scrapped; the Banners stay."""
    t = act_two_table()
    plant(t.state, empty_system(t.state, range(3)))
    resolve_fates(t, [0, 0, 0])
    s = t.state
    assert "F1006" in s.players[0].guild and {"F1007", "F1008"} <= set(s.court_deck)
    assert {"F1009", "F1010"} <= set(s.scrapped) and len(s.banners) == 1 and s.banners_scrapped == 0
    sound(t)


def test_F1005_failed_scraps_mind_managers_adds_four_cards_and_scraps_banners_off_the_map_BR_328():
    """BR-328 (each player resolves its Resolution card), failed side: Mind Managers scrapped, the Prison Wardens and Against
    Hegemony into the Court deck, every Banner not on the map (the supply's and a Rival's
    Trophy) scrapped; the one on the map stays."""
    t = act_two_table()
    s = t.state
    plant(s, empty_system(s, range(3)))
    s.players[1].trophies.append(Trophy(owner=hg.BANNER, kind="banner"))
    resolve_fates(t, [5, 0, 0])
    s = t.state
    assert "F1006" in s.scrapped and {"F1007", "F1008", "F1009", "F1010"} <= set(s.court_deck)
    assert len(s.banners) == 1 and s.banners_scrapped == 7 and hg.banners_in_supply(s) == 0
    assert not any(x.kind == "banner" for p in s.players for x in p.trophies)
    sound(t)


# -- Act III -------------------------------------------------------------------------------------------


def act_three_table(players: int = 3, seed: int = 3, seat: int = 0, completed: bool = True, banners: int = 2):
    """The Act III table after an Act II with the Hegemon at `seat`, `banners` Banners on
    empty planets of the map: with `completed` the Hegemon kept (its objective done), else
    its objective failed (it takes an A Fate). Others complete."""
    from tests.blighted_reach.campaign_tables import intermission

    t = act_two_table(players, seed, seat)
    state = end_act(t.state)
    state.prompts, state.stack, state.turn = [], [], None
    for _ in range(banners):  # a ship beside each: the Intermission's Blight spares it
        planet = empty_system(state, range(players))
        plant(state, planet)
        ships_to(state, seat, planet, 1)
    state.objective_markers = [0] * players
    if not completed:
        state.objective_markers[seat] = 5
    intermission(state, picks={x: state.fates[x] for x in range(players) if completed or x != seat})
    third = create_table(GAME, players, seed=seed, campaign=_campaign_for(state, players))
    answer_setup(third)
    return third


def test_F1011_act_three_setup_gains_happy_hosts_and_keeps_the_banners_BR_066_BR_074():
    """BR-066 (Act III continues from Act II's end state), BR-074 (the Fate's setup side):
    Happy Hosts gained (a protected Guild card); Mind Managers, Planting Banners and the
    Banners on the map carried from Act II."""
    t = act_three_table()
    s = t.state
    assert s.act == 3 and s.fates[0] == HEGEMON and "F1012" in s.players[0].guild
    assert "F1006" in s.players[0].guild and "F1002" in s.play_area[0] and len(s.banners) == 2
    assert s.banner_set == 8 and board_of(s, 0) is not None
    sound(t)


@pytest.mark.parametrize("banners, tyrant_rival, gained", [(2, False, 4), (1, False, 2), (2, True, 2), (1, True, 0)])
def test_F1011_form_one_body_one_mind_scores_its_grand_ambitions_BR_099_BR_100(banners, tyrant_rival, gained):
    """BR-099, BR-100 (grand ambitions: one its lower value, both its higher): no Rival wins
    Tyrant (undeclared, or won by a Rival with a Captive), and more Banners on the map than
    the chapter (1)."""
    from plugins.blighted_reach import objectives
    from tests.blighted_reach.c_fate_tables import declare_by_arrangement

    t = act_three_table(banners=banners)
    s = t.state
    if tyrant_rival:
        take_captive(s, 1, 2)
        declare_by_arrangement(t, "tyrant")
    assert objectives.goals_fulfilled(BOX, CBOX, s, 0) == (banners > 1) + (not tyrant_rival)
    events = score_now(t)
    got = next((e.data["power"] for e in events if e.type == "grand_ambitions"), {})
    assert got.get("0", 0) == gained
    sound(t)


# -- F1006 Mind Managers --------------------------------------------------------------------------------


def manipulate_table():
    """Act III, the Hegemon (seat 0, Mind Managers) holding a Captive of seat 1, leading an
    Administration card (Influence); known hands. Returns the table."""
    from tests.blighted_reach.flow_helpers import restart_round

    t = act_three_table()
    take_captive(t.state, 0, 1)
    restart_round(t, [["ADM3", "ADM6"], ["CON5", "MOB6"], ["CON6"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    if prompt_of(t, "declare") is not None:
        t.act(0, Action("declare", {"ambition": ""}))
    return t


def test_F1006_manipulate_shows_the_captives_owners_hand_to_the_holder_alone_and_swaps_a_card():
    """Manipulate (an Influence): only a Rival it holds a Captive of may be named (seat 2
    refused); seat 1's hand is shown to the Hegemon alone; it takes MOB6 and gives ADM6; seat
    2 and a spectator never see either card, in views or events."""
    from core.secrets import HiddenCheck

    t = manipulate_table()
    refused(t, 0, ability("F1006", 0, {"rival": 2}))
    check = HiddenCheck(t)
    events = t.act(0, ability("F1006", 0, {"rival": 1}))
    assert check(t) == []  # the game's own hidden-information check, every viewer
    shown = next(e for e in events if e.type == "hand_shown")
    assert shown.to == [0] and sorted(shown.data["cards"]) == ["CON5", "MOB6"]
    for viewer in (2, None):
        seen = msgspec.json.encode(view_events(events, viewer) + [view(t.rules, t.state, viewer)])
        assert b"CON5" not in seen and b"MOB6" not in seen
    take = prompt_of(t, "take_card")
    assert take.seat == 0 and sorted(o.params["card"] for o in take.options) == ["CON5", "MOB6"]
    assert b"MOB6" not in msgspec.json.encode(view(t.rules, t.state, 2)["prompts"])
    refused(t, 0, Action("take_card", {"card": "CON6"}))
    check = HiddenCheck(t)
    events = t.act(0, Action("take_card", {"card": "MOB6"}))
    assert check(t) == []
    check = HiddenCheck(t)
    given = t.act(0, Action("give_card", {"card": "ADM6"}))
    assert check(t) == []
    events += given
    s = t.state
    assert sorted(s.hands[0]) == ["MOB6"] and sorted(s.hands[1]) == ["ADM6", "CON5"]
    for viewer in (2, None):
        seen = msgspec.json.encode(view_events(events, viewer))
        assert b"MOB6" not in seen and b"ADM6" not in seen
    sound(t)


# -- F1007/F1008 Prison Wardens --------------------------------------------------------------------------


def test_F1007_F1008_prison_wardens_reprint_bc12_execute_moves_captives_to_trophies():
    """Both Prison Wardens play as the base BC12 (Pressgang, Execute, the Prelude's 3 ships);
    Execute (an Influence) moves the holder's Captives into its Trophies."""
    from plugins.arcs.content import default_box as arcs_box
    from plugins.blighted_reach.rules_box import rules_box

    assert rules_box().court["F1007"].abilities == rules_box().court["F1008"].abilities == arcs_box().court["BC12"].abilities
    t = manipulate_table()
    s = t.state
    from plugins.blighted_reach.fate_steps import lift

    lift(s, "F1007")
    s.players[0].guild.append("F1007")
    execute = [a for a in uses(t, 0, "F1007") if a.params["params"].get("count") or a.params["params"]]
    assert execute
    t.act(0, execute[-1])
    place_tokens(t)
    s = t.state
    assert s.players[0].captives == [] and Trophy(owner=1, kind="agent") in s.players[0].trophies
    sound(t)


# -- F1009/F1010 Against Hegemony ------------------------------------------------------------------------


def test_F1009_against_hegemony_secured_takes_controlled_banners_as_trophies():
    """When secured (seat 1, controlling a Banner's planet with its ships): it takes that Banner
    as a Trophy (a Banner it does not control refused); the card is discarded."""
    from tests.blighted_reach.empire_fate_tables import put_agent
    from tests.blighted_reach.test_fate_pathfinder import court_card

    t = act_three_table(completed=False)
    s = t.state
    assert {"F1009", "F1010"} <= set(s.court_deck + s.court_row)
    mine, other = sorted(s.banners)
    ships_to(s, 1, mine, 4)
    court_card(t, "F1009")
    turn(t, 1, "AGG3")
    put_agent(t, 1, "F1009", 3)
    t.act(1, Action("act", {"act": "secure", "card": "F1009"}))
    index = next(a.params["index"] for a in options(t, 1) if a.params.get("card") == "F1009")
    refused(t, 1, Action("use_ability", {"card": "F1009", "index": index, "params": {"planets": [other]}}))
    t.act(1, Action("use_ability", {"card": "F1009", "index": index, "params": {"planets": [mine]}}))
    place_tokens(t)
    s = t.state
    assert sorted(s.banners) == [other] and Trophy(owner=hg.BANNER, kind="banner") in s.players[1].trophies
    assert "F1009" in s.court_discard
    sound(t)


def test_F1010_against_hegemony_crisis_buries_it_and_no_banner_on_the_map_scraps_both():
    """F1010 (F1009 reprinted): its Crisis buries it (the Court deck's bottom); once no Banner
    is on the map, both Against Hegemony are scrapped wherever they wait."""
    from tests.blighted_reach.empire_fate_tables import resolve_crises
    from tests.blighted_reach.test_fate_pathfinder import court_card

    assert CBOX.effects_of("F1010") == CBOX.effects_of("F1009")
    t = act_three_table(completed=False)
    court_card(t, "F1010")
    resolve_crises(t, number=6, symbol="moon")
    s = t.state
    assert s.court_deck[-1] == "F1010" and "F1010" not in s.court_row
    s.banners = {}
    next_turn(t, 0, "MOB3")
    assert {"F1009", "F1010"} <= set(t.state.scrapped)
    sound(t)


# -- F1012 Happy Hosts -------------------------------------------------------------------------------------


def test_F1012_pacify_captures_damaged_rival_ships_it_controls_and_tyrant_counts_them():
    """Pacify (a Secure): in a system the Hegemon controls, seat 1's damaged ship is captured
    (its fresh one and the Hegemon's own damaged one stay); the Captive counts for Tyrant."""
    from plugins.arcs.scoring import ambition_count

    t = act_three_table()
    s = t.state
    planet = sorted(s.banners)[0]
    ships_to(s, 0, planet, 3)
    ships_to(s, 1, planet, 2)
    s.systems[planet].ships[1].fresh -= 1
    s.systems[planet].ships[1].damaged += 1
    s.systems[planet].ships[0].fresh -= 1
    s.systems[planet].ships[0].damaged += 1
    turn(t, 0, "AGG3")
    t.act(0, ability("F1012", 0))
    s = t.state
    assert s.ship_captives == {"0": [1]} and s.systems[planet].ships_of(1).fresh == 1
    assert s.systems[planet].ships_of(1).damaged == 0 and s.systems[planet].ships_of(0).damaged == 1
    assert ambition_count(BOX, s, s.players[0], "tyrant") == len(s.players[0].captives) + 1
    sound(t)


def test_F1012_happy_hosts_keeps_one_captive_per_banner_controlled_or_uncontrolled_when_tyrant_returns():
    """Tyrant scored: Happy Hosts' holder may keep 2 Captives (one Banner it controls, one
    nobody does; a Banner a Rival controls gives none); with 3 it chooses which, before the
    clean-up (a choice of 3 refused): it keeps seat 1's agent and one of seat 2's ships, the
    other ship goes home."""
    from tests.blighted_reach.c_fate_tables import declare_by_arrangement

    t = act_three_table(banners=3)
    s = t.state
    first, second, third = sorted(s.banners)
    s.players[0].ships += s.systems[second].ships[0].fresh
    s.systems[second].ships[0].fresh = 0  # nobody controls it: a Banner alone is no ship
    ships_to(s, 1, third, 4)
    take_captive(s, 0, 1)
    s.players[2].ships -= 2
    s.ship_captives = {"0": [2, 2]}
    declare_by_arrangement(t, "tyrant")
    assert hg.hosts_allowance(s, 0) == 2
    ships = s.players[2].ships
    score_now(t)
    ask = prompt_of(t, "keep_captives")
    assert ask is not None and ask.seat == 0
    assert sorted(map(tuple, (o.params["captives"] for o in ask.options))) == [
        ("agent:1", "ship:2"), ("ship:2", "ship:2")]
    refused(t, 0, Action("keep_captives", {"captives": ["agent:1", "ship:2", "ship:2"]}))
    t.act(0, Action("keep_captives", {"captives": ["agent:1", "ship:2"]}))
    s = t.state
    assert s.players[0].captives == [1] and s.ship_captives == {"0": [2]} and s.players[2].ships == ships + 1
    sound(t)



def test_F1004_song_of_the_banner_moves_between_banner_planets_as_if_adjacent_ARCS_025():
    """ARCS-025 (a move goes to an adjacent system), widened: the Hegemon's ships at one
    Banner move straight to a Banner in another cluster; without two Banners (or without
    Song of the Banner) the same move is refused."""
    from plugins.arcs.turn import reach_of

    t = act_two_table()
    s = t.state
    reach = reach_of(BOX, s)
    a = empty_system(s, range(3))
    b = next(p for p in sorted(s.systems) if BOX.systems.get(p) is not None and p != a and not reach.adjacent(a, p)
             and not s.systems[p].buildings and not any(s.systems[p].ships_of(x).total for x in range(3)))
    plant(s, a)
    ships_to(s, 0, a, 2)
    turn(t, 0, "MOB3")
    move = Action("act", {"act": "move", "pay": -1, "origin": a, "path": [b], "fresh": 2, "damaged": 0})
    refused(t, 0, move)  # one Banner only: no link yet
    plant(t.state, b)
    assert move.params | {"drops": [], "imperial_fresh": 0, "imperial_damaged": 0, "imperial_drops": [],
                          "flagship": False, "judge_fresh": 0, "judge_damaged": 0,
                          "judge_drops": [], "judge_flagship": False} in [x.params for x in options(t, 0)]
    t.act(0, move)
    s = t.state
    assert s.systems[b].ships_of(0).fresh == 2 and s.systems[a].ships_of(0).total == 0
    s.players[0].lore.remove("F1004")
    ships_to(s, 0, b, 1)
    refused(t, 0, Action("act", {"act": "move", "pay": 0, "origin": b, "path": [a], "fresh": 1, "damaged": 0}))
    s.players[0].lore.append("F1004")
    sound(t)


# -- F1012 ship Captives wherever a Captive counts ------------------------------------------------------------


def pacified_table():
    """Act III: the Hegemon (seat 0) Pacifies (F1012, through the engine) a system it controls
    holding a damaged ship of seat 1 and a damaged Imperial ship: both become its Captives.
    Returns the table."""
    from plugins.blighted_reach.state import Pieces

    t = act_three_table()
    s = t.state
    planet = sorted(s.banners)[0]
    ships_to(s, 0, planet, 2)  # 3 with the one beside the Banner: it controls the system
    ships_to(s, 1, planet, 1)
    s.systems[planet].ships[1].fresh -= 1
    s.systems[planet].ships[1].damaged += 1
    s.imperial_supply -= 1
    s.imperial[planet] = Pieces(damaged=1)
    turn(t, 0, "AGG3")
    t.act(0, ability("F1012", 0))
    assert sorted(t.state.ship_captives["0"]) == [hg.board.EMPIRE, 1]
    return t


def wardens(t, card: str = "F1007") -> None:
    from plugins.blighted_reach.fate_steps import lift

    lift(t.state, card)
    t.state.players[0].guild.append(card)


def test_F1007_pressgang_returns_a_ship_captive_to_its_owners_supply_for_a_resource():
    """Pressgang (a Build) on Prison Wardens F1007: the ship Pacify captured of seat 1 goes
    back to seat 1's supply and the Hegemon gains the resource it names; the Imperial one
    waits. Naming a ship Captive it does not hold (seat 2's) is refused."""
    t = pacified_table()
    wardens(t)
    next_turn(t, 0, "CON3")
    offered = [a.params["params"] for a in uses(t, 0, "F1007")]
    assert {"captives": [], "ships": [1], "resources": ["fuel"]} in offered
    refused(t, 0, ability("F1007", 0, {"captives": [], "ships": [2], "resources": ["fuel"]}))
    refused(t, 0, ability("F1007", 0, {"captives": [], "ships": [1], "resources": []}))
    s = t.state
    held = s.players[0].resources
    slot = max(i for i, r in enumerate(held) if r)
    s.supply[held[slot]] += 1  # an open slot for the gained resource (the open ones are full)
    held[slot] = None
    ships, fuel = s.players[1].ships, s.players[0].resources.count("fuel")
    t.act(0, ability("F1007", 0, {"captives": [], "ships": [1], "resources": ["fuel"]}))
    place_tokens(t)
    s = t.state
    assert s.players[1].ships == ships + 1 and s.ship_captives == {"0": [hg.board.EMPIRE]}
    assert s.players[0].resources.count("fuel") == fuel + 1
    sound(t)


def test_F1008_execute_moves_ship_captives_to_trophies_as_ship_trophies():
    """Execute (an Influence) on Prison Wardens F1008: both captured ships, seat 1's and the
    Empire's, become ship Trophies of their owners (Warlord counts them); no ship Captive is
    left."""
    t = pacified_table()
    wardens(t, "F1008")
    next_turn(t, 0, "ADM3")
    offered = [a.params["params"] for a in uses(t, 0, "F1008")]
    assert any(sorted(p.get("ships", [])) == sorted([1, hg.board.EMPIRE]) for p in offered)
    refused(t, 0, ability("F1008", 1, {"captives": [], "ships": [2]}))
    t.act(0, ability("F1008", 1, {"captives": [], "ships": [1, hg.board.EMPIRE]}))
    place_tokens(t)
    s = t.state
    assert s.ship_captives == {}
    assert Trophy(owner=1, kind="ship") in s.players[0].trophies
    assert Trophy(owner=hg.board.EMPIRE, kind="ship") in s.players[0].trophies
    sound(t)


def test_F1012_a_ship_captive_is_given_in_a_summit_and_goes_home_given_to_its_owner_BR_204():
    """BR-204 (Transfer Asset gives a Captive; the receiver's own piece goes back to its
    supply): the Hegemon gives the Empire's captured ship to seat 2 (now seat 2's Captive)
    and seat 1's ship to seat 1 (back to seat 1's supply); a ship Captive it does not hold
    is refused."""
    from tests.blighted_reach.test_fate_pacifist import summit

    t = pacified_table()
    s = t.state
    s.action_discard.extend(p.card for p in s.plays if p.card)  # the Pacify round is over
    s.plays, s.lead = [], ""
    summit(t)
    ship = {"kind": "transfer_asset", "giver": 0, "asset": "captive", "piece": "ship"}
    refused(t, 0, Action("negotiate", {"move": "propose", "parts": [{**ship, "receiver": 2, "owner": 2}]}))
    ships = t.state.players[1].ships
    t.act(0, Action("negotiate", {"move": "propose", "parts": [{**ship, "receiver": 2, "owner": hg.board.EMPIRE},
                                                               {**ship, "receiver": 1, "owner": 1}]}))
    for seat in (1, 2):
        consent = prompt_of(t, "consent")
        if consent is None:
            break
        t.act(consent.seat, Action("consent", {"proposal": consent.group, "accept": True}))
    s = t.state
    assert s.ship_captives == {"2": [hg.board.EMPIRE]} and s.players[1].ships == ships + 1
    sound(t)


def test_F1012_the_war_demand_takes_an_outlaws_ship_captive_never_a_regents_or_imperial_one_BR_246_BR_248():
    """BR-246 (War takes a Trophy or Captive, but no Regent's or Imperial piece), BR-248 (to
    the First Regent's Captives): of the Hegemon's ship Captives only the Outlaw's (seat 2)
    is offered beside its agent Captive; the First Regent (seat 1) takes it."""
    from plugins.blighted_reach import event_flow
    from tests.blighted_reach.c_fate_tables import run_steps
    from tests.blighted_reach.edict_tables import WAR, set_policy

    t = act_three_table()
    s = t.state
    set_policy(s, WAR)
    s.first_regent, s.titles = 1, ["regent", "regent", "outlaw"]
    s.players[1].ships -= 1
    s.players[2].ships -= 1
    s.imperial_supply -= 1
    s.ship_captives = {"0": [1, hg.board.EMPIRE, 2]}
    take_captive(s, 0, 2)
    s.prompts = []
    run_steps(t, (event_flow.demand, {"payer": 0}), (event_flow.summit_offer, {"seat": 0, "via": "event"}))
    prompt = prompt_of(t, "collect_demand")
    assert prompt.seat == 1
    assert sorted(map(str, (o.params for o in prompt.options))) == sorted(map(str, [{"captive": 0}, {"ship_captive": 2}]))
    refused(t, 1, Action("collect_demand", {"ship_captive": 0}))
    refused(t, 1, Action("collect_demand", {"ship_captive": 1}))
    t.act(1, Action("collect_demand", {"ship_captive": 2}))
    s = t.state
    assert s.ship_captives == {"0": [1, hg.board.EMPIRE], "1": [2]} and s.players[0].captives == [2]
    sound(t)


def test_F1012_the_stewards_war_demand_takes_an_outlaws_ship_captive_F124():
    """Govern with Authority at War (F124, the Steward's Policy): a Regent's ship Captive of
    an Outlaw's ship (seat 2's) is taken into the First Regent's Captives, as an agent
    Captive would be; the Empire's captured ship is spared."""
    from tests.blighted_reach import empire_fate_tables as et
    from tests.blighted_reach.test_fate_steward import _enforce

    t = et.empire_table()
    et.act_three_booklet(t, top="F124")
    s = t.state
    from plugins.blighted_reach import empire

    empire.become_outlaw(s, 2)
    s.players[2].ships -= 1
    s.imperial_supply -= 1
    s.ship_captives = {"1": [hg.board.EMPIRE, 2]}
    events = _enforce(t)
    collected = {e.data["payer"]: e.data for e in events if e.type == "demand_collected"}
    assert collected[1]["ship_captive"] == 2
    assert t.state.ship_captives == {"1": [hg.board.EMPIRE], "0": [2]}
    et.sound(t)


def test_F1012_a_ship_captive_is_a_captive_for_commit_to_pacifism_F1401_BR_097():
    """F1401 (1 space with no Captives): a ship Captive held (given by Happy Hosts' holder in
    a Summit, say) stops it as an agent Captive does."""
    from tests.blighted_reach.test_fate_pacifist import act_two_table as pacifist_table

    t = pacifist_table()
    s = t.state
    s.players[2].ships -= 1
    s.ship_captives = {"0": [2]}
    take_trophy(s, 0, 1)
    start = s.objective_markers[0]
    events = score_now(t)
    assert advanced(events, 0) == 0 and t.state.objective_markers[0] == start
    sound(t)



# -- F1003 a Banner harmed like a building outside battles ------------------------------------------------------


def rifles_at_banner(monkeypatch, hits: int, starport: bool = False):
    """Act III, everyone an Outlaw: a lone Banner of the Hegemon (seat 0; its ship there sent
    home), with `starport` one of its starports beside it; seat 1 holds Galactic Rifles (L02)
    with 2 fresh ships next door and fires them showing `hits` hits. Returns (table, planet)."""
    from plugins.arcs.turn import reach_of

    t = act_three_table()
    all_outlaws(t)
    s = t.state
    planet = sorted(s.banners)[0]
    s.players[0].ships += s.systems[planet].ships[0].total
    s.systems[planet].ships[0].fresh = s.systems[planet].ships[0].damaged = 0
    if starport:
        starport_to(s, 0, planet)
    origin = next(n for n in sorted(reach_of(BOX, s).neighbours.get(planet, ())) if n in s.systems
                  and not any(s.systems[n].ships_of(x).total for x in (0, 2)) and n not in s.imperial)
    ships_to(s, 1, origin, 2)
    s.lore_deck.remove("L02")
    s.players[1].lore.append("L02")
    turn(t, 1, "AGG3")
    rolls(monkeypatch, [("skirmish", 0 if i < hits else 5) for i in range(2)])
    t.act(1, Action("act", {"act": "ability", "pay": -1, "card": "L02", "index": 0,
                            "params": {"system": origin, "target": planet, "defender": 0}}))
    return t, planet


def test_F1003_fire_rifles_at_a_lone_banner_destroys_it_as_the_firers_trophy_BR_323(monkeypatch):
    """BR-323 (harm: choosing as defender, hitting, damaging, destroying): Fire Rifles (L02)
    may take the Hegemon as defender where only its Banner stands; 2 hits land on the Banner
    (fewer refused): destroyed, seat 1's Banner Trophy, no Outrage."""
    t, planet = rifles_at_banner(monkeypatch, hits=2)
    offered = [a for a in options(t, 1) if a.type == "assign_rifle_hits"]
    assert [o.params.get("tokens") for o in offered] == [2]
    refused(t, 1, Action("assign_rifle_hits", {"tokens": 1}))
    outrage = list(t.state.players[1].outrage)
    events = t.act(1, offered[0])
    s = t.state
    assert planet not in s.banners and Trophy(owner=hg.BANNER, kind="banner") in s.players[1].trophies
    assert s.players[1].outrage == outrage
    assert next(e for e in events if e.type == "rifle_hits").data["tokens"] == 2
    sound(t)


def test_F1003_fire_rifles_hits_are_split_over_a_banner_and_a_building(monkeypatch):
    """Beside a starport of the Hegemon's, the firer splits 2 hits over the Banner and the
    starport (2-0, 1-1, 0-2 offered); 1-1 damages both."""
    t, planet = rifles_at_banner(monkeypatch, hits=2, starport=True)
    offered = [a for a in options(t, 1) if a.type == "assign_rifle_hits"]
    assert sorted(o.params.get("tokens", 0) for o in offered) == [0, 1, 2]
    refused(t, 1, Action("assign_rifle_hits", {"buildings": {"0": 2}, "tokens": 1}))
    t.act(1, next(o for o in offered if o.params.get("tokens") == 1))
    s = t.state
    assert s.banners[planet] is True and [b.damaged for b in s.systems[planet].buildings if b.owner == 0] == [True]
    sound(t)


def test_F1003_terror_strike_destroys_a_damaged_banner_at_an_outraged_planet_not_a_fresh_one_F620():
    """Terror Strike's Crisis (F620: every damaged piece at planets of an Outraged type is
    destroyed, nobody's Trophy): the damaged Banner goes back to the Hegemon's supply; a fresh
    Banner at another such planet stays."""
    from plugins.blighted_reach import event_flow
    from plugins.blighted_reach.rules_box import rules_box
    from tests.blighted_reach.c_fate_tables import run_steps
    from tests.blighted_reach.test_fate_partisan import into_court

    t = act_three_table()
    s = t.state
    damaged, fresh = sorted(s.banners)
    s.banners[damaged] = True
    s.players[1].outrage = sorted({rules_box().systems[p].type for p in (damaged, fresh)})
    s.players[1].agents -= len(s.players[1].outrage)
    into_court(t, "F620")
    supply = hg.banners_in_supply(s)
    s.prompts = []
    run_steps(t, (event_flow.court_crisis, {"card": "F620", "number": 1, "symbol": "arrow", "answers": {}}),
              (event_flow.summit_offer, {"seat": 0, "via": "event"}))
    s = t.state
    assert sorted(s.banners) == [fresh] and hg.banners_in_supply(s) == supply + 1
    assert not any(x.kind == "banner" for p in s.players for x in p.trophies)
    sound(t)


def test_F1003_breaking_worlds_removes_a_banner_onto_its_card_F1103():
    """Breaking Worlds (F1103B, the Planet Breaker at seat 0, the Hegemon at seat 1): the
    world broken takes every building there and the Banner too onto the card, nobody's Trophy
    (the card's FAQ: Banners of Hegemony are removed and added to it): the Banner is lost to
    the Hegemon, not back in its supply; it counts as none of the card's buildings. A Banner
    may be planted again on the broken world (its FAQ)."""
    from plugins.blighted_reach import fate_planet_breaker as pb
    from tests.blighted_reach.test_fate_planet_breaker import held_by_breaker, planet_of

    state = end_act(act_one(A_FATES[:3], 3))
    b_fate_intermission(state, 0, "FATE11", others={1: HEGEMON})
    t = create_table(GAME, 3, seed=3, campaign=_campaign_for(state, 3))
    answer_setup(t)
    all_outlaws(t)
    s = t.state
    s.fragments_repaired = 6
    pb.hammer_whole(lambda *a, **k: None, s, 0)
    planet = planet_of(s, "weapon")
    held_by_breaker(t, planet, 3)
    starport_to(s, 1, planet)
    plant(s, planet)
    s.hammer = planet
    supply = hg.banners_in_supply(s)
    turn(t, 0, "AGG3")
    events = t.act(0, ability("F1104", 1, {}))
    s = t.state
    assert [e.data.get("tokens") for e in events if e.type == "world_broken"] == [["banner"]]
    assert s.broken_worlds == [planet] and s.systems[planet].buildings == [] and [1, "starport"] in s.worlds_buildings
    assert planet not in s.banners and hg.banners_in_supply(s) == supply and s.banners_on_worlds == 1
    assert not any(x.kind == "banner" for p in s.players for x in p.trophies)
    assert [1, "starport"] in s.worlds_buildings and not any(k == "banner" for _, k in s.worlds_buildings)
    sound(t)
    here = s.systems[planet]
    s.players[0].ships += here.ships[0].total  # the breaker's ships gone home: the world is empty
    here.ships[0] = Ships()
    flagship_to(s, 1, planet)
    for p in [p for p in t.state.prompts if p.kind == "sycophants"]:  # seat 0 holds Sycophants: no ships
        t.act(p.seat, next(o for o in p.options if o.params["planet"] == ""))
    next_turn(t, 1, "MOB4")
    t.act(1, next(a for a in uses(t, 1, "F1002") if a.params["index"] == 1))
    assert t.state.banners == {planet: False} and hg.banners_in_supply(t.state) == supply - 1
    sound(t)
