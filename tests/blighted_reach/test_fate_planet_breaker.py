"""The Planet Breaker (FATE11, a B Fate) through the engine: an Act I with A Fates, its
Intermission giving a seat the Planet Breaker, the Act II table created from the packed log
sheet (its Setup side answered through the engine). Each test names the card it plays
(F11nn) and the checklist IDs it proves."""
from __future__ import annotations

import pytest

from core.state import Action
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as a table has them)
from plugins.blighted_reach import fate_planet_breaker as pb
from plugins.blighted_reach import objectives
from plugins.flagships.state import board_of
from tests.blighted_reach.campaign_tables import BOX, CBOX, act_one, b_fate_intermission, end_act
from tests.blighted_reach.empire_fate_tables import prompt_of, resolve_crises, resolve_fates
from tests.blighted_reach.flow_helpers import GAME, KeepFateBot, options, play_checked
from tests.blighted_reach.test_fate_pacifist import all_outlaws, ships_to, starport_to, turn
from tests.blighted_reach.test_fate_pathfinder import _campaign_for, court_card, guilds, refused, sound

from core.engine import create_table
from plugins.blighted_reach.rules_box import rules_box

BREAKER = "FATE11"
A_FATES = ["FATE01", "FATE02", "FATE07", "FATE06"]


def answer_setup(t) -> None:
    from tests.blighted_reach.empire_fate_tables import place_tokens

    for _ in range(40):
        place_tokens(t)
        prompt = prompt_of(t, "place_flagship")
        if prompt is None:
            break
        t.act(prompt.seat, prompt.options[0])
    while prompt_of(t, "objective_start") is not None:
        p = prompt_of(t, "objective_start")
        t.act(p.seat, Action("objective_start", {"space": 12}))
    place_tokens(t)


def act_two_table(players: int = 3, seed: int = 3, seat: int = 0, answer: bool = True):
    state = end_act(act_one(A_FATES[:players], seed))
    b_fate_intermission(state, seat, BREAKER)
    t = create_table(GAME, players, seed=seed, campaign=_campaign_for(state, players))
    if answer:
        answer_setup(t)
    return t


def clear_planet(state, planet: str) -> None:
    """Nobody's pieces on the planet (ships home, buildings back to supplies, no Imperial ship)."""
    here = state.systems[planet]
    for x in range(len(state.players)):
        state.players[x].ships += here.ships_of(x).total
        if x < len(here.ships):
            here.ships[x].fresh = here.ships[x].damaged = 0
    for b in here.buildings:
        if b.owner >= 0:
            if b.kind == "city":
                board = state.players[b.owner].cities_on_board
                board[board.index(False)] = True
            else:
                state.players[b.owner].starports += 1
        elif b.kind == "city":
            state.free_city_supply += 1
        else:
            state.free_starport_supply += 1
    here.buildings = []
    if planet in state.imperial:
        state.imperial_supply += state.imperial.pop(planet).total
    if planet in state.blight:
        state.blight_supply += state.blight.pop(planet).total


def planet_of(state, kind: str | None = None, avoid=()) -> str:
    for p in pb.planets_on_map(state):
        if p in avoid or p in state.hammer_fragments or p in state.broken_worlds:
            continue
        if kind is None or BOX.systems[p].type == kind:
            return p
    raise AssertionError("no such planet")


def ability(card: str, index: int, params) -> Action:
    return Action("act", {"act": "ability", "pay": -1, "card": card, "index": index, "params": params})


def held_by_breaker(t, planet: str, ships: int = 2) -> None:
    clear_planet(t.state, planet)
    ships_to(t.state, 0, planet, ships)


# -- F1101 the Act II setup ----------------------------------------------------------------------


def test_F1101_setup_flagship_sycophants_fragments_and_the_tucked_cards_BR_066_BR_265():
    """BR-066 (an Act's Fate setup side), BR-265 (the Flagship granted): the Flagship placed
    where the Planet Breaker's ships are with a starport on its Slipstream Drive; Sycophants
    and Hammer Fragments gained; the Planet Hammer and the 5 Refugees tucked; a Fragment at
    each planet of the rolled symbol; the marker on 12."""
    t = act_two_table(answer=False)
    flag = prompt_of(t, "place_flagship")
    assert flag.seat == 0
    t.act(0, flag.options[0])
    answer_setup(t)
    s = t.state
    from plugins.flagships.content import default_content

    ship = board_of(s, 0)
    assert ship.slots[default_content().slot_of("slipstream_drive")].upgrade.kind == "starport"
    assert "F1102" in s.players[0].guild and "F1103" in s.play_area[0]
    assert s.hammer_tucked == ["F1104", "F1105", "F1106", "F1107", "F1108", "F1109"]
    assert s.hammer_fragments and len({BOX.systems[p].symbol for p in s.hammer_fragments}) == 1
    assert s.objective_markers[0] == 12
    sound(t)


# -- F1103 Hammer Fragments: Repair Hammer ------------------------------------------------------------


def repair_table():
    t = act_two_table()
    all_outlaws(t)
    s = t.state
    planet = s.hammer_fragments[0]
    held_by_breaker(t, planet)
    turn(t, 0, "CON3")
    return t, planet


def test_F1103_repair_hammer_takes_a_controlled_fragment_and_places_a_ship_BR_086():
    """Repair Hammer (a Repair pip): the Fragment goes onto the card, a fresh ship comes to its
    planet, the marker advances 1 (BR-086); a Fragment seat 0 does not control is refused."""
    t, planet = repair_table()
    s = t.state
    other = next((p for p in s.hammer_fragments if p != planet), None)
    if other is not None:
        clear_planet(s, other)
        ships_to(s, 1, other, 2)
        refused(t, 0, ability("F1103", 0, {"planet": other}))
    ships = s.systems[planet].ships_of(0).fresh
    t.act(0, ability("F1103", 0, {"planet": planet}))
    s = t.state
    assert planet not in s.hammer_fragments and s.fragments_repaired == 1
    assert s.systems[planet].ships_of(0).fresh == ships + 1 and s.objective_markers[0] == 11
    sound(t)


def test_F1103_the_sixth_fragment_makes_the_hammer_whole_and_gives_the_planet_hammer():
    """With 5 Fragments on the card, the sixth: the Planet Hammer untucked into seat 0's Lore,
    the tokens now Hammer tokens (6 in its supply), the card now Breaking Worlds."""
    t, planet = repair_table()
    s = t.state
    s.hammer_fragments = [planet]
    s.fragments_repaired = 5
    events = t.act(0, ability("F1103", 0, {"planet": planet}))
    s = t.state
    assert s.hammer_whole and "F1104" in s.players[0].lore and "F1104" not in s.hammer_tucked
    assert pb.hammer_tokens_free(s) == 6 and any(e.type == "planet_hammer_whole" for e in events)
    sound(t)


# -- F1104 Planet Hammer and F1103 Breaking Worlds -------------------------------------------------------


def hammer_table(kind: str = "weapon"):
    """Act II, the Hammer whole, seat 0 holding a planet of `kind` with 2 ships and a city of
    seat 1's there; seat 0 leads an Aggression card."""
    t = act_two_table()
    all_outlaws(t)
    s = t.state
    s.fragments_repaired = 6
    pb.hammer_whole(lambda *a, **k: None, s, 0)
    planet = planet_of(s, kind)
    held_by_breaker(t, planet, 3)
    starport_to(s, 1, planet)
    return t, planet


def test_F1104_prepare_places_the_hammer_token_at_a_controlled_planet():
    """Prepare (a Build pip) puts the Hammer token at a planet seat 0 controls; a planet it
    does not control is refused."""
    t, planet = hammer_table("weapon")
    turn(t, 0, "CON3")
    elsewhere = next(p for p in pb.planets_on_map(t.state) if not pb.board.controls_on_turn(t.state, 0, p))
    refused(t, 0, ability("F1104", 0, {"planet": elsewhere}))
    t.act(0, ability("F1104", 0, {"planet": planet}))
    assert t.state.hammer == planet and t.state.hammer_prepared == pb.turn_key(t.state)
    sound(t)


def test_F1104_break_world_not_in_a_turn_that_prepared_then_breaks_the_planet_BR_086():
    """Break World (a Battle pip) with the Hammer token at seat 0's planet: refused in a turn
    that Prepared; otherwise (no Rival ship there to battle) it breaks: every player Provokes
    its Outrage, the buildings go onto Breaking Worlds, Deadworld Refugees onto the Court
    deck, Weapon Guild cards in the Court scrapped, the marker 6 spaces."""
    t, planet = hammer_table("weapon")
    t.state.hammer = planet
    turn(t, 0, "AGG3")
    t.state.hammer_prepared = pb.turn_key(t.state)
    refused(t, 0, ability("F1104", 1, {}))
    t.state.hammer_prepared = ""
    s = t.state
    weapon_court = [c for c in s.court_row if c and c in pb.rules_box_court() and pb.rules_box_court()[c].suit == "weapon"]
    marker = s.objective_markers[0]
    t.act(0, ability("F1104", 1, {}))
    s = t.state
    assert s.hammer == "" and s.broken_worlds == [planet] and s.systems[planet].buildings == []
    assert [1, "starport"] in s.worlds_buildings
    assert all("weapon" in p.outrage for p in s.players)
    assert s.court_deck[0] == "F1107" or "F1107" in s.court_row
    assert all(c in s.scrapped for c in weapon_court)
    assert s.objective_markers[0] == max(0, marker - 6)
    sound(t)


def test_F1103_broken_worlds_have_no_building_slots():
    """A Broken World takes no building: seat 0's city build there is refused (state unchanged)."""
    t, planet = hammer_table("material")
    s = t.state
    s.systems[planet].buildings = []
    s.players[1].starports += 1
    s.broken_worlds = [planet]
    turn(t, 0, "CON3")
    refused(t, 0, Action("act", {"act": "build", "pay": 0, "system": planet, "what": "city"}))
    sound(t)


def test_F1103_a_rival_there_may_battle_first_and_declining_lets_the_world_break():
    """Break World with seat 1's ships at the planet: seat 1 is asked whether to battle the
    Planet Breaker there; declining, the planet breaks."""
    t, planet = hammer_table("fuel")
    s = t.state
    s.hammer = planet
    ships_to(s, 1, planet, 1)
    turn(t, 0, "AGG3")
    t.act(0, ability("F1104", 1, {}))
    ask = prompt_of(t, "battle_the_breaker")
    assert ask is not None and ask.seat == 1 and len(ask.options) > 1
    t.act(1, Action("battle_the_breaker", {"battle": False}))
    assert t.state.broken_worlds == [planet]
    sound(t)


def test_F1103_a_rival_battling_first_who_takes_the_planet_spares_the_world(monkeypatch):
    """Break World with seat 1's ships there: seat 1 battles the Planet Breaker first; its
    hits destroy the Breaker's ships, so the Breaker no longer controls the planet after the
    battles and the world is spared (no Broken World, its buildings stay)."""
    from tests.blighted_reach.test_fate_pacifist import rolls

    t, planet = hammer_table("fuel")
    s = t.state
    s.hammer = planet
    ships_to(s, 1, planet, 3)
    buildings = list(s.systems[planet].buildings)
    turn(t, 0, "AGG3")
    t.act(0, ability("F1104", 1, {}))
    ask = prompt_of(t, "battle_the_breaker")
    attack = max((a for a in ask.options if a.params.get("battle")), key=lambda a: a.params.get("assault", 0))
    assert attack.params["assault"] >= 2
    rolls(monkeypatch, [("assault", 0)] * attack.params["assault"])  # 2 hits a die
    t.act(1, attack)
    while any(p.seat in (0, 1) and p.kind.endswith("hits") for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind.endswith("hits"))
        t.act(p.seat, options(t, p.seat)[0])
    while any(p.kind not in ("arcs.act",) and p.seat == 1 for p in t.state.prompts):  # raid, trophies...
        p = next(p for p in t.state.prompts if p.seat == 1)
        t.act(1, options(t, 1)[0])
    s = t.state
    assert s.systems[planet].ships_of(0).total == 0
    assert s.broken_worlds == [] and s.hammer == planet  # spared: the token still unflipped there
    assert s.systems[planet].buildings == buildings and s.worlds_buildings == []
    sound(t)


# -- F1105-F1109 the Refugees -------------------------------------------------------------------------------


@pytest.mark.parametrize("card, kind", sorted((c, k) for k, c in pb.REFUGEES.items()))
def test_F1105_to_F1109_resettle_builds_a_free_city_clears_outrage_and_fills_slots(card, kind):
    """Resettle (a Build pip): seat 1, holding the Refugees and controlling a planet of their
    type, builds a Free city there, clears that Outrage, fills its empty slots with that
    resource, and the card goes back under Breaking Worlds. A planet of another type refused."""
    from plugins.arcs.outrage import provoke_outrage

    t = act_two_table()
    all_outlaws(t)
    s = t.state
    planet = planet_of(s, kind)
    clear_planet(s, planet)
    ships_to(s, 1, planet, 3)
    provoke_outrage(rules_box(), s, 1, kind)
    s.hammer_tucked.remove(card)
    guilds(t, {1: [card]})
    turn(t, 1, "CON3")
    wrong = planet_of(t.state, next(k for k in pb.REFUGEES if k != kind))
    refused(t, 1, ability(card, 1, {"planet": wrong}))
    t.act(1, ability(card, 1, {"planet": planet}))
    s = t.state
    assert any(b.kind == "city" and b.owner == -1 for b in s.systems[planet].buildings)
    assert kind not in s.players[1].outrage and card in s.hammer_tucked and card not in s.players[1].guild
    assert kind in s.players[1].resources
    sound(t)


def test_F1105_refugees_are_scrapped_beside_the_planet_hammer():
    """The Planet Hammer's holder holding a Refugee card scraps it after its action."""
    t, planet = hammer_table()
    s = t.state
    s.hammer_tucked.remove("F1105")
    guilds(t, {0: ["F1105"]})
    turn(t, 0, "CON3")
    t.act(0, ability("F1104", 0, {"planet": planet}))
    assert "F1105" in t.state.scrapped and "F1105" not in t.state.players[0].guild
    sound(t)


# -- F1110 the Resolution --------------------------------------------------------------------------------


def test_F1110_completed_scraps_the_planet_eater_and_keeps_breaking_worlds_BR_331():
    t, planet = hammer_table()
    s = t.state
    s.worlds_buildings = [[1, "starport"]]
    s.players[1].starports -= 1
    resolve_fates(t, [0, 0, 0])
    s = t.state
    assert "F1111" in s.scrapped and "F1103" in s.play_area[0] and s.worlds_buildings == [[1, "starport"]]
    sound(t)


def test_F1110_failed_adds_the_planet_eater_and_puts_breaking_worlds_in_the_supply_BR_332():
    t = act_two_table()
    resolve_fates(t, [5, 0, 0])
    s = t.state
    assert "F1111" in s.court_deck and s.hammer_whole and "F1104" in s.scrapped
    assert s.worlds_supply == ["F1103"] and "F1103" not in s.play_area[0]
    assert pb.hammer_tokens_free(s) == 6 and s.hammer_fragments == []
    sound(t)


# -- F1111 Planet-Eater Loose, F1112 the Act III objective -----------------------------------------------


def test_F1111_planet_eater_crisis_breaks_the_rolled_planet_on_the_same_symbol(monkeypatch):
    """The Crisis: the event die rolled again shows the same symbol: a Broken World token on the
    rolled planet, every player Provokes its Outrage, its buildings onto Breaking Worlds."""
    t = act_two_table()
    resolve_fates(t, [5, 0, 0])
    s = t.state
    s.prompts, s.stack, s.turn = [], [], None
    court_card(t, "F1111")
    symbols = list(CBOX.box.event_die_symbols)
    planet = pb.planets_on_map(s)[0]
    spec = BOX.systems[planet]
    symbol = next(k for k in ("arrow", "hex", "moon") if pb.SYMBOLS[k] == spec.symbol)
    cluster = next(c.id for c in BOX.map.clusters if any(p.id == planet for p in c.planets))
    face = symbols.index(symbol)
    monkeypatch.setattr(pb.chance, "roll", lambda ctx, seat, dice, which, why="": [("event", face)])
    resolve_crises(t, number=cluster, symbol=symbol)
    s = t.state
    assert planet in s.broken_worlds and s.systems[planet].buildings == []
    assert all(spec.type in p.outrage for p in s.players)
    sound(t)


def test_F1112_break_the_worlds_grand_ambitions_BR_099():
    """The goals: every player Outraged (no Rival winning Warlord), and more buildings on
    Breaking Worlds than the chapter."""
    t = act_two_table()
    s = t.state
    s.act, s.chapter = 3, 1
    s.worlds_buildings = [[-1, "city"], [-1, "city"]]
    s.free_city_supply -= 2
    goal_a = objectives.GOAL_RULES["no_rival_wins_warlord_and_everyone_outraged"]
    goal_b = objectives.GOAL_RULES["no_rival_wins_warlord_and_worlds_broken_above_chapter"]
    from plugins.arcs.outrage import provoke_outrage

    assert goal_b(BOX, CBOX, s, 0) and not goal_a(BOX, CBOX, s, 0)
    for x in range(3):
        provoke_outrage(rules_box(), s, x, "relic")
    assert goal_a(BOX, CBOX, s, 0)
    s.chapter = 2
    assert not goal_b(BOX, CBOX, s, 0)
    sound(t)


# -- bots ----------------------------------------------------------------------------------------


class BreakerBot:
    """KeepFateBot, but the Planet Breaker takes its cards' actions whenever offered."""

    CARDS = ("F1103", "F1104")

    def __init__(self, seed: int, seat: int) -> None:
        self.bot, self.seat = KeepFateBot(seed, seat, BREAKER), seat

    def choose(self, table):
        seat, action = self.bot.choose(table)
        if seat == self.seat and action.type == "act":
            mine = [a for a in options(table, seat) if a.params.get("card") in self.CARDS]
            if mine:
                return seat, mine[0]
        return seat, action


@pytest.mark.parametrize("players, seed, seat", [(3, 2, 0)])
def test_bots_play_an_act_two_with_the_planet_breaker(players, seed, seat):
    t = act_two_table(players, seed, seat)
    assert t.state.fates[seat] == BREAKER
    assert play_checked(t, BreakerBot(seed, seat)) > 0


@pytest.mark.parametrize("hit", [True, False])
def test_F1111_planet_eater_secured_hunts_with_a_die_per_agent(monkeypatch, hit):
    """When Secured with 3 of seat 1's agents on it: 3 skirmish dice; 3 hits gain 3 Power, the
    bottom action discard card, and bury the card; a miss leaves it in the Court with them."""
    from tests.blighted_reach.empire_fate_tables import put_agent

    t = act_two_table()
    resolve_fates(t, [5, 0, 0])
    s = t.state
    s.prompts, s.stack, s.turn = [], [], None
    s.action_discard = s.action_discard or ["ADM1"]
    court_card(t, "F1111")
    faces = BOX.dice["skirmish"].faces
    face = next(i for i, f in enumerate(faces) if (f.hit >= 1) == hit)
    monkeypatch.setattr(pb.chance, "roll", lambda ctx, seat, dice, which, why="": [("skirmish", face)] * len(which))
    turn(t, 1, "AGG3")
    put_agent(t, 1, "F1111", 3)
    power, bottom = t.state.players[1].power, t.state.action_discard[-1]
    t.act(1, Action("act", {"act": "secure", "pay": -1, "card": "F1111"}))
    while prompt_of(t, "ability") is not None and prompt_of(t, "ability").seat == 1:
        t.act(1, prompt_of(t, "ability").options[-1])
    s = t.state
    if hit:
        assert s.players[1].power == power + 3 and bottom in s.hands[1] and s.court_deck[-1] == "F1111"
    else:
        assert "F1111" in s.court_row and s.court_agents["F1111"][1] == 3
    sound(t)


def test_F1102_sycophants_kept_when_the_broken_world_provokes_outrage_places_two_ships():
    """The Planet Breaker's Sycophants (F1102, the Overlord's F1702 reprinted): breaking a Weapon
    world makes it Provoke Weapon Outrage; it keeps Sycophants and is asked where 2 fresh ships
    go, at a Weapon planet (a planet of another type refused)."""
    t, planet = hammer_table("weapon")
    t.state.hammer = planet
    turn(t, 0, "AGG3")
    assert "F1102" in t.state.players[0].guild
    t.act(0, ability("F1104", 1, {}))
    s = t.state
    prompt = next(p for p in s.prompts if p.kind == "sycophants")
    assert prompt.seat == 0 and "F1102" in s.players[0].guild and "weapon" in s.players[0].outrage
    box = rules_box()
    other = next(p for p in sorted(s.systems) if box.systems[p] is not None and box.systems[p].type != "weapon")
    refused(t, 0, Action("sycophants", {"planet": other}))
    target = next(o.params["planet"] for o in prompt.options if o.params["planet"])
    before = s.systems[target].ships[0].fresh
    t.act(0, Action("sycophants", {"planet": target}))
    assert t.state.systems[target].ships[0].fresh == before + 2
    sound(t)
