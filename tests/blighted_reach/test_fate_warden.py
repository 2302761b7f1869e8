"""The Warden (FATE16, a B Fate) through the engine: an Act I with A Fates, its Intermission
giving a seat the Warden, the Act II table created from the packed log sheet, and Act III
from Act II's. Each test names the card it plays (F16nn) and the checklist IDs it proves."""
from __future__ import annotations

import pytest

from core.state import Action
from plugins.arcs.state import Building
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as a table has them)
from plugins.blighted_reach import fate_warden as wd
from plugins.blighted_reach.state import FiefSeat
from tests.blighted_reach.c_fate_tables import refused, sound
from tests.blighted_reach.campaign_tables import CBOX, act_one, b_fate_intermission, end_act
from tests.blighted_reach.empire_fate_tables import place_tokens, prompt_of, resolve_edicts, resolve_fates
from tests.blighted_reach.flow_helpers import KeepFateBot, acts_two_and_three, options, play_checked, restart_round
from tests.blighted_reach.test_fate_hegemon import ability, next_turn
from tests.blighted_reach.test_fate_pacifist import (
    A_FATES, _table_from, advanced, all_outlaws, battle, empty_system, loyal_ships, rolls, score_now, ships_to,
    turn,
)

WARDEN = "FATE16"


def act_two_table(players: int = 3, seed: int = 3, seat: int = 0, fates=None, modules=None):
    state = end_act(act_one((fates or A_FATES)[:players], seed))
    b_fate_intermission(state, seat, WARDEN)
    return _table_from(state, players, seed, 20, True, modules)


def act_three_table(players: int = 3, seed: int = 3, seat: int = 0, completed: bool = True, arrange=None):
    """Act III after an Act II with the Warden at `seat` (completed: it keeps its Fate);
    `arrange(state)` edits Act II's end before the Intermission."""
    from tests.blighted_reach.campaign_tables import intermission

    t = act_two_table(players, seed, seat)
    state = end_act(t.state)
    if arrange is not None:
        arrange(state)
    state.prompts, state.stack, state.turn = [], [], None
    state.objective_markers = [0] * players
    if not completed:
        state.objective_markers[seat] = 5
    intermission(state, picks={x: state.fates[x] for x in range(players) if completed or x != seat})
    return _table_from(state, players, seed, 20, True)


def city_to(state, seat: int, system: str) -> int:
    """A city from the seat's board onto the planet; its index there."""
    player = state.players[seat]
    player.cities_on_board[player.cities_on_board.index(True)] = False
    state.systems[system].buildings.append(Building(kind="city", owner=seat))
    return len(state.systems[system].buildings) - 1


def fief_site(state, seats=(0, 1, 2)) -> str:
    """A planet with no building in a cluster with no Seat."""
    for system in sorted(state.systems):
        spec = wd.rules_box().systems.get(system)
        here = state.systems[system]
        if spec is None or str(wd.cluster_of(system)) in state.fief_seats or here.buildings:
            continue
        return system
    raise AssertionError("no planet for a Fief")


def seat_at(state, seat: int, system: str) -> int:
    """The seat's city and the Seat above it (as Claim Fief leaves them)."""
    city_to(state, seat, system)
    cluster = wd.cluster_of(system)
    state.fief_seats = {**state.fief_seats, str(cluster): FiefSeat(system, seat)}
    wd.settle_titles(state)
    return cluster


def host(state) -> str:
    return wd.hosts(state)[0]


# -- F1601 the Act II setup and objective ---------------------------------------------------------


def test_F1601_setup_gains_claims_puts_the_laws_in_the_booklet_and_replenishes_to_eight_BR_066():
    """BR-066 (an Act's Fate setup side): Claims of Nobility gained, Seats & Fiefs and Feudal
    Law in the booklet, 8 Loyal ships on the map, no Seat on the map yet."""
    t = act_two_table()
    s = t.state
    assert s.fates[0] == WARDEN and "F1602" in s.players[0].lore
    booklet = [c for slot in s.booklet for c in slot]
    assert {"F1609", "F1610"} <= set(booklet)
    assert loyal_ships(s, 0) >= 8 and s.fief_seats == {}
    sound(t)


def test_F1601_objective_two_per_seat_controlled_one_per_city_in_its_fiefs_BR_097():
    """BR-097 (advances at a chapter's end): the Warden's Seat in a system it controls (2)
    and the 2 cities of that Fief (its own and a Rival's: 2)."""
    t = act_two_table()
    s = t.state
    planet = empty_system(s, (0, 1, 2))
    seat_at(s, 0, planet)
    ships_to(s, 0, planet, 2)
    other = next(p for p in wd.cluster_systems(s, wd.cluster_of(planet))
                 if p != planet and wd.rules_box().systems[p] is not None and not s.systems[p].buildings)
    city_to(s, 1, other)
    cities = len(wd.fief_cities(s, wd.cluster_of(planet)))
    start = s.objective_markers[0]
    events = score_now(t)
    assert advanced(events, 0) == 2 + cities and t.state.objective_markers[0] == start - 2 - cities
    sound(t)


# -- F1602 Claims of Nobility ------------------------------------------------------------------------


def claim_table():
    t = act_two_table()
    s = t.state
    planet = empty_system(s, (0, 1, 2))
    city_to(s, 0, planet)
    ships_to(s, 0, planet, 2)
    turn(t, 0, "ADM3")
    return t, planet


def test_F1602_claim_fief_attaches_the_card_and_places_the_seat_taking_the_lord_title():
    """Claim Fief (a Tax): Claims of Nobility goes above a Court card, the Seat above the
    Warden's city; the Warden is Lord of that cluster and holds its Lord title (F1603-F1608)."""
    t, planet = claim_table()
    card = host(t.state)
    t.act(0, ability("F1602", 1, {"card": card, "system": planet}))
    place_tokens(t)
    s = t.state
    cluster = wd.cluster_of(planet)
    assert s.attached[card] == "F1602" and "F1602" not in s.players[0].lore
    assert s.fief_seats[str(cluster)] == FiefSeat(planet, 0) and wd.lord_of(s, cluster) == 0
    assert wd.TITLES[cluster] in s.play_area[0]
    sound(t)


def test_F1602_claim_fief_refuses_a_city_not_yours_a_seated_cluster_and_a_card_not_in_the_court():
    """Refused with nothing changed: a system with no city of the claimer, a cluster with a
    Seat already, a host not in the Court."""
    t, planet = claim_table()
    s = t.state
    card = host(s)
    bare = empty_system(s, (0, 1, 2))
    refused(t, 0, ability("F1602", 1, {"card": card, "system": bare}))
    refused(t, 0, ability("F1602", 1, {"card": "NOPE", "system": planet}))
    other = next(p for p in wd.cluster_systems(s, wd.cluster_of(planet)) if p != planet
                 and wd.rules_box().systems[p] is not None)
    s.fief_seats = {str(wd.cluster_of(planet)): FiefSeat(other, 1)}
    refused(t, 0, ability("F1602", 1, {"card": card, "system": planet}))


def test_F1602_claims_travels_with_its_host_and_the_securer_may_claim():
    """The card attached above a Court card is taken by whoever secures the host (BR-315,
    the engine's secure): that Rival then holds Claims of Nobility and may Claim Fief."""
    t, planet = claim_table()
    card = host(t.state)
    t.act(0, ability("F1602", 1, {"card": card, "system": ""}))
    place_tokens(t)
    assert t.state.attached[card] == "F1602" and t.state.fief_seats == {}
    secure_with_majority(t, 1, card, again=True)
    for _ in range(10):  # the host's own choices, if it has any
        prompt = next((p for p in t.state.prompts if p.seat == 1 and p.kind != "arcs.act"), None)
        if prompt is None or "F1602" in t.state.players[1].lore:
            break
        t.act(1, options(t, 1)[0])
    assert "F1602" in t.state.players[1].lore and card not in t.state.attached
    sound(t)


# -- F1609 Seats & Fiefs -----------------------------------------------------------------------------


def test_F1609_vassals_are_rivals_with_a_loyal_city_in_the_fief():
    """A Rival with a city in the Lord's Fief is its Vassal there, one without is not."""
    t = act_two_table()
    s = t.state
    planet = empty_system(s, (0, 1, 2))
    cluster = seat_at(s, 0, planet)
    ships_to(s, 1, planet, 1)
    assert wd.vassals(s, cluster) == []
    city_to(s, 1, planet)
    assert wd.vassals(s, cluster) == [1]
    sound(t)


def test_F1609_F1610_the_seats_city_destroyed_returns_seat_and_title_lord_attacking_vassal_outraged(monkeypatch):
    """A Vassal (seat 1) battles its Lord (the Warden) in the Fief: Feudal Law puts Outrage
    of every city type of the Fief (one far from the battle too) on the attacker as the
    battle begins; the Seat's city destroyed, the Seat and its Lord title return (F1609)."""
    t = act_two_table()
    all_outlaws(t)
    s = t.state
    planet = empty_system(s, (0, 1, 2))
    cluster = seat_at(s, 0, planet)
    kind = wd.rules_box().systems[planet].type
    elsewhere = next(p for p in wd.cluster_systems(s, cluster) if wd.rules_box().systems[p] is not None
                     and wd.rules_box().systems[p].type != kind)
    city_to(s, 2, elsewhere)  # another city of the Fief, of another type, nowhere near the battle
    other = wd.rules_box().systems[elsewhere].type
    city_to(s, 1, planet)
    ships_to(s, 1, planet, 4)
    assert other not in s.players[1].outrage
    turn(t, 1, "AGG3")
    rolls(monkeypatch, [("raid", 2), ("raid", 2)])
    events = battle(t, 1, planet, 0, raid=2)
    feudal = next(e for e in events if e.type == "outrage_provoked" and e.data.get("why") == "F1610")
    assert feudal.data["seat"] == 1 and {kind, other} <= set(feudal.data["resources"])
    assert {kind, other} <= set(t.state.players[1].outrage)
    for _ in range(20):
        prompt = next((p for p in t.state.prompts if p.kind in ("assign_hits", "ship_hits", "building_hits",
                                                                 "ransack", "steal")), None)
        if prompt is None:
            break
        t.act(prompt.seat, options(t, prompt.seat)[0])
    place_tokens(t)
    s = t.state
    assert not any(b.owner == 0 and b.kind == "city" for b in s.systems[planet].buildings)
    assert str(cluster) not in s.fief_seats and wd.TITLES[cluster] not in s.play_area[0]
    assert wd.TITLES[cluster] not in s.scrapped  # back in the supply, for another Seat
    sound(t)


def test_F1609_F1610_a_rival_with_a_flagship_in_the_fief_is_a_vassal_and_outraged_attacking_its_lord(monkeypatch):
    """With the Flagships module: a Rival whose Flagship stands in the Warden's Fief (no city
    there) is its Vassal; battling the Warden there, it Provokes Outrage with the Fief's cities."""
    from plugins.flagships import rules as flagship_rules

    t = act_two_table(modules=["flagships"])
    all_outlaws(t)
    s = t.state
    planet = empty_system(s, (0, 1, 2))
    cluster = seat_at(s, 0, planet)
    kind = wd.rules_box().systems[planet].type
    assert wd.vassals(s, cluster) == []
    flagship_rules.grant(wd.rules_box(), s, 1, planet)
    assert wd.vassals(s, cluster) == [1]
    ships_to(s, 1, planet, 3)
    s.players[1].outrage = [r for r in s.players[1].outrage if r != kind]
    restart_round(t, [["ADM6"], ["AGG3"], ["CON6"]], initiative=1)
    place_tokens(t)  # the Flagship's grant sent seat 1's cities home: its tokens rearranged
    t.act(1, Action("lead", {"card": "AGG3"}))
    if prompt_of(t, "declare") is not None:
        t.act(1, Action("declare", {"ambition": ""}))
    rolls(monkeypatch, [("raid", 2)])
    events = battle(t, 1, planet, 0, raid=1)
    feudal = next(e for e in events if e.type == "outrage_provoked" and e.data.get("why") == "F1610")
    assert feudal.data["seat"] == 1 and kind in feudal.data["resources"]


# -- F1610 Feudal Law ---------------------------------------------------------------------------------


def test_F1610_a_lord_taxes_a_vassals_city_in_its_fief_without_control_taking_a_captive():
    """The Lord taxes a Rival's city in its Fief where it has no ship (a Captive taken); a
    seat that is not the Lord is refused that tax (ARCS-137)."""
    t = act_two_table()
    s = t.state
    planet = empty_system(s, (0, 1, 2))
    seat_at(s, 0, planet)
    city = city_to(s, 1, planet)
    ships_to(s, 1, planet, 1)
    turn(t, 2, "ADM3")
    refused(t, 2, Action("act", {"act": "tax", "pay": -1, "system": planet, "building": city}))
    next_turn(t, 0, "ADM4")
    captives = len(t.state.players[0].captives)
    t.act(0, Action("act", {"act": "tax", "pay": -1, "system": planet, "building": city}))
    place_tokens(t)
    assert len(t.state.players[0].captives) == captives + 1
    sound(t)


def test_F1610_vassal_destroying_a_rival_vassals_city_provokes_no_outrage(monkeypatch):
    """Two Vassals of the Warden's Fief: seat 1 battles seat 2 there and destroys its city;
    no Outrage for it (the card), and none from Feudal Law (no Lord is harmed)."""
    t = act_two_table()
    all_outlaws(t)
    s = t.state
    planet = empty_system(s, (0, 1, 2))
    elsewhere = next(p for p in wd.cluster_systems(s, wd.cluster_of(planet)) if p != planet
                     and wd.rules_box().systems[p] is not None)
    seat_at(s, 0, elsewhere)
    kind = wd.rules_box().systems[planet].type
    city_to(s, 2, planet)
    city_to(s, 1, planet)
    ships_to(s, 1, planet, 4)
    s.players[1].outrage = [r for r in s.players[1].outrage if r != kind]
    turn(t, 1, "AGG3")
    rolls(monkeypatch, [("raid", 2), ("raid", 2)])
    events = battle(t, 1, planet, 2, raid=2)
    for _ in range(20):
        prompt = next((p for p in t.state.prompts if p.kind in ("ransack", "steal", "assign_hits")), None)
        if prompt is None:
            break
        events += t.act(prompt.seat, options(t, prompt.seat)[0])
    place_tokens(t)
    s = t.state
    assert not any(b.owner == 2 for b in s.systems[planet].buildings)
    assert kind not in s.players[1].outrage and not any(e.type == "outrage" for e in events)
    sound(t)


# -- F1611 the Resolution -----------------------------------------------------------------------------


def test_F1611_completed_gains_the_levy_feasts_to_court_deck_reprints_scrapped_BR_331():
    """BR-331: completed: Warden's Levy gained, both Feast Days into the Court deck,
    Skirmishers and Sworn Guardians scrapped."""
    t = act_two_table()
    resolve_fates(t, [0, 0, 0])
    s = t.state
    assert "F1612" in s.players[0].lore and {"F1613", "F1614"} <= set(s.court_deck)
    assert {"F1615", "F1616"} <= set(s.scrapped)
    sound(t)


def test_F1611_failed_scraps_claims_and_the_seats_off_the_map_with_their_titles_BR_332():
    """BR-332: failed: Claims of Nobility scrapped, every Seat not on the map and its title
    scrapped (the one on the map kept), the Act III cards scrapped, the reprints to the deck."""
    t = act_two_table()
    s = t.state
    cluster = seat_at(s, 0, empty_system(s, (0, 1, 2)))
    resolve_fates(t, [5, 0, 0])
    s = t.state
    assert "F1602" in s.scrapped and "F1602" not in s.players[0].lore
    assert sorted(s.seats_scrapped) == [c for c in wd.CLUSTERS if c != cluster]
    assert wd.TITLES[cluster] not in s.scrapped and wd.TITLES[cluster] in s.play_area[0]
    assert {"F1612", "F1613", "F1614"} <= set(s.scrapped) and {"F1615", "F1616"} <= set(s.court_deck)
    sound(t)


# -- Act III ------------------------------------------------------------------------------------------


def test_F1617_act_three_setup_puts_the_courts_laws_in_the_booklet_and_keeps_the_seats_BR_066():
    """BR-066: Feudal Courts and Lords Gain Power in the booklet; the Seats placed in Act II
    stay on the map (the log sheet carries them) with the Lord's title."""
    holder = {}

    def arrange(state):
        planet = fief_site(state)
        gone = state.blight.pop(planet, None)  # no Blight there: the Intermission keeps the city
        state.blight_supply += (gone.fresh + gone.damaged) if gone else 0
        holder["cluster"] = seat_at(state, 0, planet)
        ships_to(state, 0, planet, 1)

    t = act_three_table(arrange=arrange)
    s = t.state
    booklet = [c for slot in s.booklet for c in slot]
    assert s.act == 3 and {"F1618", "F1619"} <= set(booklet)
    assert wd.lord_of(s, holder["cluster"]) == 0 and wd.TITLES[holder["cluster"]] in s.play_area[0]
    sound(t)


@pytest.mark.parametrize("rival_fief, gained", [(False, 1), (True, 0)])
def test_F1617_return_to_the_old_ways_scores_its_grand_ambitions_BR_099_BR_100(rival_fief, gained):
    """BR-099/BR-100: Lord of more Fiefs than each Rival (one Fief; a Rival with one too
    ties it); more Seats controlled than the chapter is not met with one Seat in chapter 1."""
    from plugins.blighted_reach import objectives

    t = act_three_table()
    s = t.state
    seat_at(s, 0, empty_system(s, (0, 1, 2)))
    if rival_fief:
        seat_at(s, 1, fief_site(s))
    grand_power = objectives.grand_ambition_power(CBOX, s.chapter, gained) if gained else 0
    events = score_now(t)
    grand = next((e.data["power"] for e in events if e.type == "grand_ambitions"), {})
    assert grand.get("0", 0) == grand_power


def edicts_until(t, done) -> list:
    """The Edicts through the engine, other seats' questions answered with their first
    option, until `done(events)`; the events."""
    events = resolve_edicts(t)
    for _ in range(20):
        if done(events):
            break
        waiting = next(p for p in t.state.prompts if p.decision != "arcs.place_resources")
        events += t.act(waiting.seat, options(t, waiting.seat)[0])
    assert done(events)
    return events


def test_F1619_lords_gain_power_gives_each_fiefs_lord_three_power():
    """Through the Edicts: each Fief's Lord gains 3 Power (two Fiefs: 6)."""
    t = act_three_table()
    s = t.state
    seat_at(s, 1, empty_system(s, (0, 1, 2)))
    seat_at(s, 1, fief_site(s))
    power = s.players[1].power
    events = edicts_until(t, lambda events: any(e.type == "lords_gain_power" for e in events))
    gained = [(e.data["seat"], e.data["power"]) for e in events if e.type == "lords_gain_power"]
    assert gained == [(1, 3), (1, 3)] and t.state.players[1].power >= power + 6


def test_F1613_feast_day_in_the_court_forbids_battling_a_rival_in_a_fief():
    """While a Feast Day is in the Court, a battle against a Rival in a Fief is refused with
    nothing changed; outside Fiefs it is not limited."""
    from plugins.blighted_reach import empire

    t = act_three_table()
    all_outlaws(t)
    s = t.state
    planet = empty_system(s, (0, 1, 2))
    seat_at(s, 0, planet)
    ships_to(s, 1, planet, 3)
    s.court_row[-1] = "F1613"
    assert empire.may_harm(s, 0, 1, planet) is False
    turn(t, 0, "AGG3")
    refused(t, 0, Action("act", {"act": "battle", "pay": -1, "system": planet, "defender": 1, "assault": 1}))
    s.court_row[-1] = ""
    assert empire.may_harm(s, 0, 1, planet) is True


def secure_with_majority(t, seat: int, card: str, pay_card: str = "AGG3", again: bool = False) -> list:
    """`seat` holds the majority of agents on `card` and secures it on its turn (`again`: a
    round was played already in the test)."""
    s = t.state
    s.court_agents[card] = [0] * len(s.players)
    s.court_agents[card][seat] = 1
    s.players[seat].agents -= 1
    (next_turn if again else turn)(t, seat, pay_card)
    return t.act(seat, Action("act", {"act": "secure", "pay": -1, "card": card}))


def test_F1613_feast_day_secured_replaces_a_rival_city_under_a_seat_with_the_securers():
    """When secured (the engine's secure): the Rival's city under the Seat goes back to its
    board, the securer's city stands there and the securer is the Fief's Lord with its
    title; the Feast Day is buried (the Court deck's bottom)."""
    from tests.blighted_reach.test_fate_pathfinder import court_card

    t = act_three_table()
    s = t.state
    planet = empty_system(s, (0, 1, 2))
    cluster = seat_at(s, 1, planet)
    court_card(t, "F1613")
    on_board = s.players[1].cities_on_board.count(True)
    secure_with_majority(t, 0, "F1613")
    refused(t, 0, Action("use_ability", {"card": "F1613", "index": 2, "params": {"cluster": 99}}))
    t.act(0, Action("use_ability", {"card": "F1613", "index": 2, "params": {"cluster": cluster}}))
    place_tokens(t)
    s = t.state
    assert wd.lord_of(s, cluster) == 0 and wd.TITLES[cluster] in s.play_area[0]
    assert wd.TITLES[cluster] not in s.play_area[1] and s.players[1].cities_on_board.count(True) == on_board + 1
    assert s.court_deck[-1] == "F1613"
    sound(t)


def crises_through(t, pick=lambda prompt: None) -> None:
    """An Event's Crises through the engine; each choice `pick(prompt)` leaves (None) is
    answered with the first option offered."""
    from tests.blighted_reach.empire_fate_tables import resolve_crises

    resolve_crises(t, number=6, symbol="moon")
    for _ in range(30):
        prompt = next((p for p in t.state.prompts if p.kind == "crisis_choice"), None)
        if prompt is None:
            break
        t.act(prompt.seat, pick(prompt) or prompt.options[0])
    place_tokens(t)


def test_F1614_feast_day_crisis_scraps_it_and_the_agents_on_it():
    """Its Crisis (an Event's Crises played through the engine): the card and its agents are
    scrapped."""
    from tests.blighted_reach.test_fate_pathfinder import court_card

    assert CBOX.effects_of("F1614") == CBOX.effects_of("F1613")
    t = act_three_table()
    court_card(t, "F1614")
    s = t.state
    s.court_agents["F1614"][1] += 2
    s.players[1].agents -= 2
    crises_through(t)
    s = t.state
    assert "F1614" in s.scrapped and "F1614" not in s.court_row and s.scrapped_agents.count(1) >= 2
    sound(t)


def test_F1602_crisis_makes_its_holder_claim_a_fief():
    """Its Crisis (through the engine's Crises): the holder must attach Claims of Nobility
    to a Court card, and places a Seat above its city in a system it controls."""
    t = act_two_table()
    s = t.state
    planet = empty_system(s, (0, 1, 2))
    city_to(s, 0, planet)
    ships_to(s, 0, planet, 6)  # enough to keep control through the Blight Crises' hits
    card = host(s)

    def claim(prompt):
        wanted = {"card": card, "system": planet}
        return next((o for o in prompt.options if o.params == wanted), None)

    crises_through(t, claim)
    s = t.state
    assert s.attached.get(card) == "F1602" and wd.lord_of(s, wd.cluster_of(planet)) == 0
    sound(t)


# -- F1612 Warden's Levy -------------------------------------------------------------------------------


def levy_table():
    """Act III: the Warden (seat 0) holds Warden's Levy and is Lord of a Fief where seat 1
    has a city (its Vassal)."""
    t = act_three_table()
    s = t.state
    planet = empty_system(s, (0, 1, 2))
    seat_at(s, 0, planet)
    city_to(s, 1, planet)
    return t, planet


def test_F1612_levy_takes_a_ship_from_a_vassal_once_per_fief():
    """Levy (a Tax): a ship from the Vassal's supply onto the card; a second one for the same
    single Fief is refused, as is a Rival that is no Vassal."""
    t, planet = levy_table()
    s = t.state
    assert "F1612" in s.players[0].lore
    ships = s.players[1].ships
    turn(t, 0, "ADM3")
    refused(t, 0, ability("F1612", 0, {"vassal": 2}))
    t.act(0, ability("F1612", 0, {"vassal": 1}))
    place_tokens(t)
    assert t.state.levy == [1] and t.state.players[1].ships == ships - 1
    refused(t, 0, ability("F1612", 0, {"vassal": 1}))
    sound(t)


def test_F1612_levy_ships_take_the_attackers_self_hits_first_and_go_home(monkeypatch):
    """The holder attacks (an Outlaw, a Rival outside Fiefs): the roll's self-hits fall on the
    Levy's ship first, back to its owner's supply, no Trophy; its own ships are untouched."""
    t, _ = levy_table()
    all_outlaws(t)
    s = t.state
    s.levy = [1]
    s.players[1].ships -= 1
    target = fief_site(s)
    ships_to(s, 0, target, 2)
    ships_to(s, 2, target, 1)
    turn(t, 0, "AGG3")
    rolls(monkeypatch, [("assault", 1)])  # the assault die's face 1: a hit and a self-hit
    home = t.state.players[1].ships
    battle(t, 0, target, 2, assault=1)
    for _ in range(10):
        prompt = next((p for p in t.state.prompts if p.seat == 0 and p.kind != "place_resources"), None)
        if prompt is None:
            break
        t.act(0, options(t, 0)[0])
    place_tokens(t)
    s = t.state
    assert s.levy == [] and s.players[1].ships == home + 1
    assert not any(tr.owner == 1 for p in s.players for tr in p.trophies)
    sound(t)


def test_F1612_the_levys_ships_go_home_when_nobody_holds_it():
    """Reading: Warden's Levy gone from its holder (scrapped here), the next step sends its
    ships back to their owners' supplies."""
    t, _ = levy_table()
    s = t.state
    s.levy = [1]
    s.players[1].ships -= 1
    ships = s.players[1].ships
    s.players[0].lore.remove("F1612")
    s.scrapped.append("F1612")
    turn(t, 0, "ADM3")
    assert t.state.levy == [] and t.state.players[1].ships == ships + 1
    sound(t)


# -- F1618 Feudal Courts ---------------------------------------------------------------------------------


def courts_table():
    """Act III with a Fief of the Warden (seat 0) where seat 1 is its Vassal (and no Feast
    Day in the Court)."""
    t = act_three_table()
    s = t.state
    for i, card in enumerate(s.court_row):
        if card in ("F1613", "F1614"):
            spare = next(c for c in s.court_deck if c not in ("F1613", "F1614"))
            s.court_deck.remove(spare)
            s.court_deck.append(card)
            s.court_row[i] = spare
            s.court_agents[spare] = s.court_agents.pop(card)
    planet = empty_system(s, (0, 1, 2))
    cluster = seat_at(s, 0, planet)
    city_to(s, 1, planet)
    return t, cluster


def empty_court_card(s) -> str:
    return next(c for c in s.court_row if c and not any(s.court_agents[c]) and c not in ("AID01A", "AID01B"))


def token_card(s, cluster: int, agents: list[int]) -> str:
    """An empty Court card given the Fief's Court token and these agents (from supplies)."""
    card = empty_court_card(s)
    s.court_tokens = {str(cluster): card}
    s.court_agents[card] = list(agents)
    for seat, n in enumerate(agents):
        s.players[seat].agents -= n
    return card


def test_F1618_influencing_an_empty_card_places_a_court_token_and_closes_it_to_others():
    """Influence (the engine's action) on an empty Court card: the Warden puts its Fief's
    Court token there; seat 2 (neither Lord nor Vassal there) is refused influencing it."""
    t, cluster = courts_table()
    s = t.state
    card = empty_court_card(s)
    turn(t, 0, "MOB3")
    t.act(0, Action("act", {"act": "influence", "pay": -1, "card": card}))
    prompt = next(p for p in t.state.prompts if p.kind == "court_token")
    assert {o.params["cluster"] for o in prompt.options} >= {0, cluster}
    t.act(0, Action("court_token", {"cluster": cluster}))
    assert t.state.court_tokens == {str(cluster): card}
    next_turn(t, 2, "MOB4")
    refused(t, 2, Action("act", {"act": "influence", "pay": -1, "card": card}))
    sound(t)


def test_F1618_the_lord_securing_returns_the_token_and_the_vassals_agents():
    """The Lord secures a card with its Fief's token: the token back to the supply, the
    Vassal's agent there home (not a Captive)."""
    t, cluster = courts_table()
    s = t.state
    card = token_card(s, cluster, [2, 1, 0])
    agents = s.players[1].agents
    turn(t, 0, "AGG3")
    t.act(0, Action("act", {"act": "secure", "pay": -1, "card": card}))
    place_tokens(t)
    s = t.state
    assert s.court_tokens == {} and s.players[1].agents == agents + 1 and 1 not in s.players[0].captives


def test_F1618_a_vassal_securing_leaves_the_token_on_the_refilled_card():
    t, cluster = courts_table()
    s = t.state
    card = token_card(s, cluster, [0, 1, 0])
    position = s.court_row.index(card)
    turn(t, 1, "AGG3")
    t.act(1, Action("act", {"act": "secure", "pay": -1, "card": card}))
    place_tokens(t)
    s = t.state
    assert s.court_row[position] != card and s.court_tokens == {str(cluster): s.court_row[position]}
    sound(t)


@pytest.mark.parametrize("in_fief", [False, True])
def test_F1618_ransack_takes_a_token_card_only_after_a_city_destroyed_in_its_fief(monkeypatch, in_fief):
    """Seat 2 destroys seat 1's city in battle (outside the Fief, or in it): the Ransack
    offers the card with the Fief's Court token only for the city destroyed in the Fief;
    the other card holding seat 1's agent always."""
    t, cluster = courts_table()
    all_outlaws(t)
    s = t.state
    card = token_card(s, cluster, [0, 1, 0])
    other = next(c for c in s.court_row if c and c != card and not any(s.court_agents[c])
                 and c not in ("AID01A", "AID01B"))
    s.court_agents[other][1] += 1
    s.players[1].agents -= 1
    if in_fief:
        target = next(p for p in wd.cluster_systems(s, cluster) if wd.rules_box().systems[p] is not None
                      and not s.systems[p].buildings)
    else:
        target = next(p for p in sorted(s.systems) if wd.cluster_of(p) != cluster
                      and wd.rules_box().systems[p] is not None and not s.systems[p].buildings)
    for x, ships in enumerate(s.systems[target].ships):  # no ship there before the battle's
        s.players[x].ships += ships.total
    s.systems[target].ships = []
    city_to(s, 1, target)
    ships_to(s, 2, target, 4)
    turn(t, 2, "AGG3")
    rolls(monkeypatch, [("raid", 2), ("raid", 2)])
    events = battle(t, 2, target, 1, raid=2)
    prompt = next((p for p in t.state.prompts if p.kind == "ransack"), None)
    if prompt is not None:
        offered = {o.params["card"] for o in prompt.options}
    else:  # a single card to ransack is taken at once
        offered = {e.data["card"] for e in events if e.type == "court_taken" and e.data["how"] == "ransack"}
    assert other in offered and (card in offered) == in_fief
    if not in_fief:
        assert card in t.state.court_row and t.state.court_tokens == {str(cluster): card}


def test_F1619_lords_gain_power_lets_the_lord_secure_its_token_card():
    """Through the Edicts: the Lord gains 3 Power, then secures the card holding its Fief's
    token (its majority there)."""
    t, cluster = courts_table()
    s = t.state
    card = token_card(s, cluster, [1, 0, 0])
    edicts_until(t, lambda events: any(p.kind == "lords_court" for p in t.state.prompts))
    prompt = next(p for p in t.state.prompts if p.kind == "lords_court")
    assert prompt.seat == 0
    assert {o.params["do"] for o in prompt.options} == {"", "influence", "secure"}
    refused(t, 0, Action("lords_court", {"do": "steal"}))
    t.act(0, Action("lords_court", {"do": "secure"}))
    assert card not in t.state.court_row and str(cluster) not in t.state.court_tokens


# -- F1615/F1616 the reprints ----------------------------------------------------------------------------


def test_F1615_F1616_are_skirmishers_and_sworn_guardians_reprinted_into_the_court_deck_on_failure():
    """Reprints of BC13 and BC22 (their abilities the base cards'); after a failed Act II they
    are in Act III's Court deck."""
    from plugins.arcs.content import default_box as arcs_box

    base = arcs_box().court
    assert CBOX.effects_of("F1615") == list(base["BC13"].abilities)
    assert CBOX.effects_of("F1616") == list(base["BC22"].abilities)
    t = act_three_table(completed=False)
    assert {"F1615", "F1616"} <= set(t.state.court_deck) | set(t.state.court_row)
    sound(t)


def test_F1610_a_lord_taxes_a_free_city_in_its_fief_without_control():
    """A Free city of the Fief, in a system where the Lord has no ship: taxed (no Captive)."""
    from plugins.blighted_reach.state import FREE

    t = act_two_table(fates=["FATE01", "FATE07", "FATE06"])  # no Founder: no Member taxes Free cities
    s = t.state
    planet = empty_system(s, (0, 1, 2))
    seat_at(s, 0, planet)
    other = next(p for p in wd.cluster_systems(s, wd.cluster_of(planet)) if p != planet
                 and wd.rules_box().systems[p] is not None and not s.systems[p].buildings)
    s.free_city_supply -= 1
    s.systems[other].buildings.append(Building(kind="city", owner=FREE))
    from plugins.blighted_reach import free_states

    ships_to(s, 1, other, 1)  # a Rival controls it
    rival = 2
    assert not free_states.acts_with_free_buildings(s, rival, other)
    turn(t, rival, "ADM3")
    tax = Action("act", {"act": "tax", "pay": -1, "system": other, "building": 0})
    refused(t, rival, tax)  # no Lord there, no control (nor a Commonwealth waiver)
    next_turn(t, 0, "ADM4")
    kind = wd.rules_box().systems[other].type
    held, supply = t.state.players[0].resources.count(kind), t.state.supply[kind]
    assert supply > 0
    events = t.act(0, tax)
    place_tokens(t)
    taxed = next(e for e in events if e.type == "taxed")
    assert taxed.data["seat"] == 0 and t.state.supply[kind] == supply - 1
    assert not taxed.data.get("captive")
    sound(t)


# -- bots ---------------------------------------------------------------------------------------------


def lords_everywhere(state) -> None:
    """Seats above the first player city of each cluster (as if claimed in Act II)."""
    for system, here in sorted(state.systems.items()):
        cluster = wd.cluster_of(system)
        owner = next((b.owner for b in here.buildings if b.kind == "city" and b.owner >= 0), -1)
        if owner >= 0 and str(cluster) not in state.fief_seats and cluster in wd.CLUSTERS:
            state.fief_seats = {**state.fief_seats, str(cluster): FiefSeat(system, owner)}
    wd.settle_titles(state)


@pytest.mark.parametrize("players, seed, seat", [(3, 2, 0), (4, 3, 2)])
def test_bots_play_act_three_with_the_warden_and_lords_in_fiefs(players, seed, seat):
    """Act III with the Warden kept (Feudal Courts, Lords Gain Power, the Levy, Feast Days),
    Lords arranged in every cluster with a city: random bots to the campaign's end."""
    t = act_three_table(players, seed, seat, arrange=lords_everywhere)
    assert t.state.fates[seat] == WARDEN and t.state.fief_seats
    assert play_checked(t, KeepFateBot(seed, seat, WARDEN)) > 0


@pytest.mark.parametrize("players, seed, seat", [(3, 2, 0), (2, 1, 1), (4, 3, 2)])
def test_bots_play_the_warden_through_acts_two_and_three(players, seed, seat):
    """Random bots (the Warden kept at `seat`) play Act II and Act III to the campaign's
    end, the invariants after every action."""
    t = act_two_table(players, seed, seat)
    assert t.state.fates[seat] == WARDEN
    second, third = acts_two_and_three(t, seed, seat, WARDEN)
    assert second > 0 and third > 0


@pytest.mark.parametrize("cluster", [1, 2, 3, 4, 5, 6])
def test_F1603_F1604_F1605_F1606_F1607_F1608_the_claimed_fief_gives_its_lord_title_and_its_tax(cluster):
    """Four players, so every cluster is in play: the Warden claims a Fief in `cluster` (Claim
    Fief through the engine) and takes that cluster's Lord title (F1603 for Cluster 1 ... F1608
    for Cluster 6), nobody else's; as its Lord it then taxes a Rival's city of that cluster
    where it has no ship, ignoring control, and takes a Captive."""
    from tests.blighted_reach.test_fate_planet_breaker import clear_planet

    t = act_two_table(players=4)
    s = t.state
    planets = [p for p in sorted(s.systems) if p.startswith(f"{cluster}.") and wd.rules_box().systems[p] is not None]
    assert len(planets) >= 2, f"cluster {cluster} is in play with 4 players"
    mine, theirs = planets[0], planets[1]
    for p in (mine, theirs):
        clear_planet(s, p)
    city_to(s, 0, mine)
    ships_to(s, 0, mine, 2)
    city = city_to(s, 1, theirs)
    ships_to(s, 1, theirs, 1)
    turn(t, 0, "ADM3")
    t.act(0, ability("F1602", 1, {"card": host(t.state), "system": mine}))
    place_tokens(t)
    s = t.state
    title = f"F16{cluster + 2:02d}"
    assert wd.TITLES[cluster] == title and title in s.play_area[0]
    assert [c for c in wd.TITLES.values() if any(c in area for area in s.play_area)] == [title]
    captives = len(s.players[0].captives)
    t.act(0, Action("act", {"act": "tax", "pay": -1, "system": theirs, "building": city}))
    place_tokens(t)
    assert len(t.state.players[0].captives) == captives + 1
    sound(t)
