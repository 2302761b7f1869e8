"""The Pathfinder (FATE09, a B Fate) through the engine: an Act I with A Fates, its
Intermission giving a seat the Pathfinder, the Act II table created from the packed log
sheet (its Setup side answered through the engine), and Act III from Act II's sheet. Each
test names the card it plays (F9nn) and the checklist IDs it proves."""
from __future__ import annotations

import copy

import msgspec
import pytest

from core.engine import create_table, view, view_events
from core.state import Action
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as a table has them)
from plugins.arcs.setup import open_slots
from plugins.blighted_reach import campaign as sheet
from plugins.blighted_reach import fate_pathfinder as pf
from plugins.flagships.state import board_of, flagship_system, store
from tests.blighted_reach.c_fate_tables import refused, snapshot, sound
from tests.blighted_reach.campaign_tables import BOX, CBOX, act_one, b_fate_intermission, end_act
from tests.blighted_reach.empire_fate_tables import place_tokens, prompt_of, resolve_crises, resolve_fates
from tests.blighted_reach.flow_helpers import GAME, KeepFateBot, acts_two_and_three, options, play_checked
from tests.blighted_reach.test_fate_pacifist import all_outlaws, from_supply, ships_to, starport_to, turn

PATHFINDER = "FATE09"
A_FATES = ["FATE01", "FATE02", "FATE07", "FATE06"]  # Steward, Founder, Admiral, Partisan at Act I


def planets(state) -> dict[str, tuple[int, str]]:
    return pf.planets_in_play(BOX, state)


def _campaign_for(state, players: int) -> dict:
    log = sheet.to_json(sheet.pack_up(BOX, CBOX, state))
    return {"players": players, "acts_played": state.act, "log": copy.deepcopy(log), "finished": False,
            "winner": -1, "acts": []}


def answer_setup(t, flagship=None, secret=None, start: int = 20) -> None:
    """The Setup sides' questions: the Flagship's system (the first offered, or `flagship`),
    the Keeper's secret planet (the first offered, or `secret`), then the objective starts."""
    for _ in range(40):
        place_tokens(t)
        prompt = next((p for p in t.state.prompts if p.kind in ("place_flagship", "record_portal")), None)
        if prompt is None:
            break
        wanted = flagship if prompt.kind == "place_flagship" else secret
        key = "system" if prompt.kind == "place_flagship" else "planet"
        choice = next((o for o in prompt.options if o.params[key] == wanted), prompt.options[0])
        t.act(prompt.seat, choice)
    while any(p.kind == "objective_start" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "objective_start")
        t.act(p.seat, Action("objective_start", {"space": start}))
    place_tokens(t)


def act_two_state(players: int = 3, seed: int = 3, seat: int = 0):
    state = end_act(act_one(A_FATES[:players], seed))
    b_fate_intermission(state, seat, PATHFINDER)
    return state


def act_two_table(players: int = 3, seed: int = 3, seat: int = 0, secret=None, answer: bool = True):
    """The Act II table with the Pathfinder at `seat`, its Setup side answered (unless
    `answer` is False): the Flagship where its ships are, the Keeper's planet `secret`."""
    state = act_two_state(players, seed, seat)
    t = create_table(GAME, players, seed=seed, campaign=_campaign_for(state, players))
    if answer:
        answer_setup(t, secret=secret)
    return t


def keeper_seat(t) -> int:
    return pf.keeper(t.state)


# -- F901 Pathfinder Act II Setup --------------------------------------------------------


def test_F901_setup_grants_the_flagship_its_pieces_and_the_keepers_secret_BR_066_BR_265():
    """BR-066 (an Act's Fate setup side), BR-265 (a Flagship's owner's Loyal buildings
    become Free ones): the Pathfinder places its Flagship where its ships are, has a
    starport on the Slipstream Drive and a city on the Hull, gains Uncovering Clues; the
    player to its right (seat 2 of 3) records a planet in secret (a system that is no planet
    is refused) and holds Clues to the Portal; the marker starts on 8."""
    t = act_two_table(answer=False)
    s = t.state
    before = [(x, b.kind) for x, here in s.systems.items() for b in here.buildings if b.owner == 0]
    assert before
    flag = prompt_of(t, "place_flagship")
    assert flag.seat == 0
    t.act(0, flag.options[0])
    s = t.state
    ship = board_of(s, 0)
    assert ship.system == flag.options[0].params["system"]
    content = pf.flagship_content()
    assert ship.slots[content.slot_of("slipstream_drive")].upgrade.kind == "starport"
    assert ship.slots[content.slot_of("hull")].upgrade.kind == "city"
    assert not any(b.owner == 0 for here in s.systems.values() for b in here.buildings)
    assert "F902" in s.play_area[0]
    record = prompt_of(t, "record_portal")
    assert record.seat == 2 and "F903" in s.play_area[2]
    refused(t, 2, Action("record_portal", {"planet": "1G"}))
    secret = record.options[3].params["planet"]
    t.act(2, record.options[3])
    answer_setup(t)
    assert t.state.portal_secret == secret and t.state.objective_markers[0] == 8
    sound(t)


def test_F901_the_secret_planet_reaches_only_the_keeper_BR_053():
    """Hidden information: the recorded planet is in the Keeper's view and event only; the
    Pathfinder, the third seat and a spectator see neither the planet nor the prompt's
    options."""
    t = act_two_table(answer=False)
    t.act(0, prompt_of(t, "place_flagship").options[0])
    record = prompt_of(t, "record_portal")
    choice = record.options[2]
    for viewer in (0, 1, None):
        shown = view(t.rules, t.state, viewer)
        assert all("options" not in p for p in shown["prompts"] if p["kind"] == "record_portal")
    events = t.act(2, choice)
    secret = choice.params["planet"]
    assert view(t.rules, t.state, 2)["portal_secret"] == secret
    for viewer in (0, 1, None):
        assert view(t.rules, t.state, viewer)["portal_secret"] == ""
        seen = msgspec.json.encode(view_events(events, viewer)).decode()
        assert secret not in seen
    assert secret in msgspec.json.encode(view_events(events, 2)).decode()
    assert "portal_secret" not in type(t.state).visible


# -- F902 Uncovering Clues / F903 Clues to the Portal ------------------------------------------


def flagship_to(state, seat: int, system: str) -> None:
    """The Flagship arranged in `system` (as a Move would take it there)."""
    ship = board_of(state, seat)
    ship.system = system
    store(state, seat, ship)


def clear_row(state, seat: int) -> None:
    """The seat's resources back to the supply (a known row to arrange on)."""
    player = state.players[seat]
    for i, r in enumerate(player.resources):
        if r is not None:
            player.resources[i] = None
            state.supply[r] += 1


def foreign_resource(state, planet: str) -> str:
    """A resource type no planet of the planet's cluster has, with a token in the supply."""
    banned = pf.cluster_types(BOX, state, planet)
    return next(r for r in ("material", "fuel", "weapon", "relic", "psionic") if r not in banned and state.supply[r])


def planet_where(state, secret: str, side: str, empty: bool = True) -> str:
    """A planet of the map (not the secret one) whose Clue would show `side`, with no piece on
    it when `empty`."""
    for planet in sorted(planets(state)):
        here = state.systems[planet]
        busy = any(here.ships_of(x).total for x in range(len(state.players))) or here.buildings or planet in state.imperial
        if planet != secret and pf.clue_side(BOX, state, planet) == side and not (empty and busy):
            return planet
    raise AssertionError(f"no {side} planet")


def uncover_table(side: str, secret: str = "4.2"):
    """Act II, the Pathfinder (seat 0) leading, its Flagship at an empty planet whose Clue
    shows `side`, one resource it may spend in slot 0. Returns (table, planet, resource)."""
    t = act_two_table(secret=secret)
    s = t.state
    planet = planet_where(s, secret, side)
    flagship_to(s, 0, planet)
    clear_row(s, 0)
    resource = foreign_resource(s, planet)
    from_supply(s, 0, resource, 0)
    turn(t, 0, "MOB3")
    return t, planet, resource


def uncover(slot: int = 0) -> Action:
    return Action("act", {"act": "ability", "pay": -1, "card": "F902", "index": 0, "params": {"slot": slot}})


def test_F902_an_x_clue_and_the_planets_gains_resources_per_city_ships_per_starport():
    """The Pathfinder spends a resource of a type its cluster lacks; the Keeper's Clue is an
    "X" (wrong cluster, wrong symbol) and moves no marker; the planet's Free city gives 1
    resource of its type and seat 1's starport 2 ships. Spending a type of the cluster, or
    an empty slot, is refused."""
    from plugins.arcs.state import Building
    from plugins.blighted_reach.state import FREE

    t, planet, resource = uncover_table("x")
    s = t.state
    s.systems[planet].buildings.append(Building(kind="city", owner=FREE))
    s.free_city_supply -= 1
    starport_to(s, 1, planet)
    kind = BOX.systems[planet].type
    slot = next(i for i in open_slots(BOX, s.players[0]) if s.players[0].resources[i] is None)
    from_supply(s, 0, kind, slot)
    refused(t, 0, uncover(slot))
    refused(t, 0, uncover(5))
    marker, ships, supply = s.objective_markers[0], s.players[0].ships, s.supply[resource]
    events = t.act(0, uncover(0))
    place_tokens(t)
    s = t.state
    assert s.clues == {planet: "x"} and s.objective_markers[0] == marker
    assert s.supply[resource] >= supply and s.players[0].ships == ships - 2
    assert s.systems[planet].ships_of(0).fresh == 2
    gained = next(e for e in events if e.type == "clue_uncovered").data
    assert gained["resources"] == {kind: 1} and gained["side"] == "x"
    refused(t, 0, uncover(0))  # a Clue is there now
    sound(t)


def test_F901_a_check_clue_advances_one_but_never_completes_BR_086():
    """BR-086 (the marker moves toward 0): a "Check" Clue (right cluster or symbol) moves the
    Pathfinder's marker 1; on space 1 it does not move (a Clue cannot complete it)."""
    t, planet, resource = uncover_table("check")
    t.act(0, uncover(0))
    assert t.state.clues == {planet: "check"} and t.state.objective_markers[0] == 7
    t2, planet2, _ = uncover_table("check")
    t2.state.objective_markers[0] = 1
    t2.act(0, uncover(0))
    assert t2.state.clues == {planet2: "check"} and t2.state.objective_markers[0] == 1
    sound(t)
    sound(t2)


def test_F903_the_portal_is_found_at_the_recorded_planet_BR_086():
    """At the recorded planet the Keeper places the Portal token instead: every Clue, Clues to
    the Portal and Uncovering Clues are scrapped, and the marker advances 8 to 0 (complete);
    the planet is now public."""
    t = act_two_table(secret="4.2")
    s = t.state
    s.clues = {planet_where(s, "4.2", "x"): "x"}
    flagship_to(s, 0, "4.2")
    clear_row(s, 0)
    from_supply(s, 0, foreign_resource(s, "4.2"), 0)
    turn(t, 0, "MOB3")
    events = t.act(0, uncover(0))
    s = t.state
    assert s.portal == "4.2" and s.clues == {} and s.portal_secret == ""
    assert {"F902", "F903"} <= set(s.scrapped) and "F902" not in s.play_area[0]
    assert s.objective_markers[0] == 0
    assert any(e["type"] == "portal_found" and e["data"]["planet"] == "4.2" for e in view_events(events, 1))
    sound(t)


def test_F903_with_no_clue_left_the_keeper_moves_one_from_the_map():
    """The six Clues all on the map: the Keeper (seat 2) chooses which one moves to the new
    planet (its side computed anew); a planet holding no Clue is refused."""
    t, planet, resource = uncover_table("x")
    s = t.state
    others = [p for p in sorted(planets(s)) if p not in (planet, "4.2")][:6]
    s.clues = {p: pf.clue_side(BOX, s, p) for p in others}
    t.act(0, uncover(0))
    ask = prompt_of(t, "move_clue")
    assert ask.seat == 2 and {o.params["planet"] for o in ask.options} == set(others)
    refused(t, 2, Action("move_clue", {"planet": planet}))
    t.act(2, Action("move_clue", {"planet": others[0]}))
    s = t.state
    assert others[0] not in s.clues and s.clues[planet] == "x" and len(s.clues) == 6
    sound(t)


def test_F903_clue_events_show_sides_to_all_and_never_the_planet_recorded():
    """Hidden information: a Clue's side is public (everyone sees the event), the recorded
    planet never reaches the Pathfinder's, seat 1's or a spectator's view or events."""
    t, planet, resource = uncover_table("check")
    events = t.act(0, uncover(0))
    for viewer in (0, 1, None):
        shown = view_events(events, viewer)
        assert any(e["type"] == "clue_placed" and e["data"]["side"] == "check" for e in shown)
        assert view(t.rules, t.state, viewer)["portal_secret"] == ""
    assert view(t.rules, t.state, 2)["portal_secret"] == "4.2"


# -- F904 Pathfinder Act II Resolution ---------------------------------------------------------


def test_F904_completed_adds_call_to_pilgrimage_scraps_seekers_and_builds_anywhere_BR_331():
    """BR-331 (a Resolution's completed side): Call to Pilgrimage into the Court deck, Portal
    Seekers scrapped, and the Pathfinder builds one Upgrade or Armor whatever planet its
    Flagship is at (an Armor with no Upgrade under it refused)."""
    t = act_two_table(secret="4.2")
    s = t.state
    pf.portal_found(lambda *a, **k: None, s, 0, "4.2")
    flagship_to(s, 0, "1G")  # a gate: no planet type at all
    resolve_fates(t, [0, 0, 0])
    s = t.state
    assert "F905" in s.court_deck and "F906" in s.scrapped
    ask = prompt_of(t, "flagship_build")
    assert ask.seat == 0
    tractor = pf.flagship_content().slot_of("tractor_beam")
    refused(t, 0, Action("flagship_build", {"slot": tractor, "layer": "armor", "kind": "city"}))
    t.act(0, Action("flagship_build", {"slot": tractor, "layer": "upgrade", "kind": "starport"}))
    piece = board_of(t.state, 0).slots[tractor].upgrade
    assert piece is not None and piece.kind == "starport" and not piece.damaged
    sound(t)


def test_F904_failed_places_the_portal_and_scraps_the_clues_BR_332():
    """BR-332 (the failed side): Call to Pilgrimage scrapped, Portal Seekers into the Court
    deck, the Portal token on the recorded planet, every Clue, Uncovering Clues and Clues to
    the Portal scrapped."""
    t = act_two_table(secret="4.2")
    s = t.state
    s.clues = {planet_where(s, "4.2", "x"): "x"}
    resolve_fates(t, [5, 0, 0])
    s = t.state
    assert "F905" in s.scrapped and "F906" in s.court_deck
    assert s.portal == "4.2" and s.portal_secret == "" and s.clues == {}
    assert {"F902", "F903"} <= set(s.scrapped) and "F903" not in s.play_area[2]
    sound(t)


# -- Act III -------------------------------------------------------------------------------------


def act_three_table(players: int = 3, seed: int = 3, seat: int = 0, completed: bool = True, secret: str = "4.2"):
    """The Act III table after an Act II with the Pathfinder at `seat`: with `completed` the
    Portal found at `secret` (its Flagship's Upgrade from the Resolution built in the first
    place offered) and the Pathfinder kept; else its objective failed (it takes an A Fate,
    the Portal placed at `secret`, Portal Seekers in the Court deck). Others complete."""
    from tests.blighted_reach.campaign_tables import intermission

    t = act_two_table(players, seed, seat, secret=secret)
    state = end_act(t.state)
    state.prompts, state.stack, state.turn = [], [], None
    if completed:
        pf.portal_found(lambda *a, **k: None, state, seat, secret)
    state.objective_markers = [0] * players
    if not completed:
        state.objective_markers[seat] = 5
    intermission(state, picks={x: state.fates[x] for x in range(players) if completed or x != seat})
    for prompt in [p for p in state.prompts if p.kind == "flagship_build"]:
        pf.build_anywhere(state, prompt.seat, **prompt.options[0].params)
    state.prompts = []
    third = create_table(GAME, players, seed=seed, campaign=_campaign_for(state, players))
    answer_setup(third)
    return third


def test_F907_act_three_setup_gains_pilgrims_tucks_seekers_and_places_pilgrims_BR_066():
    """BR-066 (an Act's Fate setup side): Pilgrims gained, one Seek the Portal on the Court
    deck (or dealt from it), the other two under Pilgrims, a Pilgrim at each planet of the
    rolled symbol; the Portal and the Flagship are still where Act II left them."""
    t = act_three_table()
    s = t.state
    assert s.act == 3 and s.fates[0] == PATHFINDER and "F908" in s.play_area[0]
    assert "F909" in s.court_deck[:1] + s.court_row
    assert s.pilgrim_tucked == ["F910", "F911"]
    symbols = {planets(s)[p][1] for p in s.pilgrims}
    assert len(symbols) == 1 and set(s.pilgrims.values()) == {1}
    assert sorted(s.pilgrims) == sorted(p for p, (_, sym) in planets(s).items() if sym in symbols)
    assert s.portal == "4.2" and board_of(s, 0) is not None
    sound(t)


def pilgrims_table():
    """Act III, the Pathfinder (seat 0) leading, everyone an Outlaw; one Pilgrim arranged
    next to the Portal's system, 2 fresh ships of seat 0 at the Portal."""
    t = act_three_table()
    all_outlaws(t)
    s = t.state
    from plugins.arcs.reach import reach_for

    reach = reach_for(BOX, s.out_of_play)
    near = sorted(n for n in reach.neighbours[s.portal] if n in s.systems)[0]
    s.pilgrims = {near: 1}
    for x in range(len(s.players)):
        here = s.systems[s.portal].ships_of(x)
        s.players[x].ships += here.total
        s.systems[s.portal].ships[x].fresh = s.systems[s.portal].ships[x].damaged = 0
    if s.portal in s.imperial:
        s.imperial_supply += s.imperial.pop(s.portal).total
    ships_to(s, 0, s.portal, 2)
    return t, near


def pilgrim_uses(t, index: int) -> list[Action]:
    return [a for a in options(t, 0) if a.params.get("card") == "F908" and a.params.get("index") == index]


def test_F908_pilgrims_move_once_per_turn_into_a_system_the_holder_controls_BR_122():
    """Prelude: the Pilgrim moves one step into the Portal's system (seat 0 controls it); a
    system not next to it, or one seat 0 does not control, is refused; then no second move
    this turn. The Pilgrims are the holder's Loyal pieces (BR-122 reads Loyal pieces)."""
    from plugins.blighted_reach.board import has_loyal_pieces

    t, near = pilgrims_table()
    s = t.state
    assert has_loyal_pieces(s, 0, near) == (True) and not has_loyal_pieces(s, 1, near)
    turn(t, 0, "MOB3")
    far = next(x for x in sorted(t.state.systems) if x not in (near, t.state.portal))
    refused(t, 0, Action("act", {"act": "ability", "pay": -1, "card": "F908", "index": 1,
                                 "params": {"moves": [[near, far]]}}))
    moves = pilgrim_uses(t, 1)
    assert {"moves": [[near, t.state.portal]]} in [m.params["params"] for m in moves]
    t.act(0, Action("act", {"act": "ability", "pay": -1, "card": "F908", "index": 1,
                            "params": {"moves": [[near, t.state.portal]]}}))
    s = t.state
    assert s.pilgrims == {s.portal: 1} and pilgrim_uses(t, 1) == []
    sound(t)


def test_F908_use_the_portal_delivers_pilgrims_and_untucks_a_seek_the_portal():
    """Use the Portal (a Move pip): the Pilgrims in the Portal's system go onto the objective
    card, F910 goes from under Pilgrims onto the Court deck; without control it is refused."""
    t, near = pilgrims_table()
    s = t.state
    s.pilgrims = {s.portal: 2}
    turn(t, 0, "MOB3")
    use = next(a for a in options(t, 0) if a.params.get("card") == "F908" and a.params.get("index") == 2)
    t.act(0, use)
    s = t.state
    assert s.pilgrims == {} and s.pilgrims_delivered == 2
    assert s.court_deck[0] == "F910" and s.pilgrim_tucked == ["F911"]
    sound(t)
    t2, _ = pilgrims_table()
    ships_to(t2.state, 1, t2.state.portal, 3)  # seat 1 controls the Portal's system now
    turn(t2, 0, "MOB3")
    assert not [a for a in options(t2, 0) if a.params.get("card") == "F908" and a.params.get("index") == 2]
    refused(t2, 0, Action("act", {"act": "ability", "pay": 0, "card": "F908", "index": 2, "params": None}))


@pytest.mark.parametrize("delivered, control, gained", [(2, True, 4), (1, True, 2), (2, False, 2), (0, False, 0)])
def test_F907_see_the_pilgrims_delivered_scores_its_grand_ambitions_BR_099_BR_100(delivered, control, gained):
    """BR-099, BR-100 (grand ambitions at a chapter's end: one its lower value, both its
    higher): controlling the Portal, and more Pilgrims on the card than the chapter (1)."""
    from tests.blighted_reach.test_fate_pacifist import score_now

    t, near = pilgrims_table()
    s = t.state
    s.pilgrims_delivered = delivered
    s.pilgrims = {near: 1} if delivered < 6 else {}
    if not control:
        ships_to(s, 1, s.portal, 3)
    from plugins.blighted_reach import objectives

    assert objectives.goals_fulfilled(BOX, CBOX, s, 0) == (delivered > 1) + control
    power = s.players[0].power
    events = score_now(t)
    got = next((e.data["power"] for e in events if e.type == "grand_ambitions"), {})
    assert got.get("0", 0) == gained and t.state.players[0].power - power >= gained
    sound(t)


def test_F906_portal_seekers_gives_its_holder_a_grand_ambition_at_the_portal_BR_100():
    """With the Pathfinder's objective failed, Portal Seekers is in the Court deck and the
    Portal on the map: seat 1 holding it and controlling the Portal fulfils one more grand
    ambition (and gains its chapter's Power at the chapter's end); without control, or
    without the card, not."""
    from plugins.blighted_reach import objectives
    from plugins.blighted_reach.fate_steps import lift
    from tests.blighted_reach.test_fate_pacifist import score_now

    t = act_three_table(completed=False)
    s = t.state
    assert s.fates[0] != PATHFINDER and s.portal == "4.2" and "F906" in s.court_deck + s.court_row
    lift(s, "F906")
    s.players[1].guild.append("F906")
    all_outlaws(t)
    for x in range(3):
        s.players[x].ships += s.systems["4.2"].ships_of(x).total
        s.systems["4.2"].ships[x].fresh = s.systems["4.2"].ships[x].damaged = 0
    if "4.2" in s.imperial:
        s.imperial_supply += s.imperial.pop("4.2").total
    base = objectives.goals_fulfilled(BOX, CBOX, s, 1)
    ships_to(s, 1, "4.2", 2)
    assert objectives.goals_fulfilled(BOX, CBOX, s, 1) == base + 1
    s.players[1].guild.remove("F906")
    assert objectives.goals_fulfilled(BOX, CBOX, s, 1) == base
    s.players[1].guild.append("F906")
    power = s.players[1].power
    events = score_now(t)
    got = next((e.data["power"] for e in events if e.type == "grand_ambitions"), {})
    assert got.get("1", 0) >= 2 and t.state.players[1].power > power
    sound(t)


# -- F905 Call to Pilgrimage -------------------------------------------------------------------


def court_card(t, card: str) -> None:
    """The Fate Set card out of wherever it waits into the Court row's last place."""
    from plugins.blighted_reach.fate_steps import lift
    from tests.blighted_reach.empire_fate_tables import to_court

    if card in t.state.court_row:
        return
    lift(t.state, card)
    to_court(t, card)


def guilds(t, cards: dict[int, list[str]]) -> None:
    from plugins.blighted_reach.fate_steps import lift

    for seat, held in cards.items():
        for card in held:
            lift(t.state, card)
            t.state.players[seat].guild.append(card)


def answer_crises(t, picks: dict[int, dict]) -> None:
    while prompt_of(t, "crisis_choice") is not None:
        prompt = prompt_of(t, "crisis_choice")
        choice = next((o for o in prompt.options if o.params == picks.get(prompt.seat)), prompt.options[0])
        t.act(prompt.seat, choice)


def test_F905_call_to_pilgrimage_crisis_on_an_arrow_each_discards_a_guild_card():
    """The Crisis with an arrow rolled: each player in turn order discards one of its Guild
    cards (its choice; another seat's card refused); protected cards stay; with a moon
    nothing happens."""
    t = act_three_table()
    guilds(t, {1: ["CC04", "CC05"]})
    court_card(t, "F905")
    before = [list(p.guild) for p in t.state.players]
    resolve_crises(t, number=6, symbol="moon")
    assert [p.guild for p in t.state.players] == before and prompt_of(t, "crisis_choice") is None
    resolve_crises(t, number=6, symbol="arrow")
    first = prompt_of(t, "crisis_choice")
    other = next(c for x in range(3) if x != first.seat for c in before[x])
    refused(t, first.seat, Action(first.options[0].type, {"card": other}))
    answer_crises(t, {1: {"card": "CC05"}})
    s = t.state
    for seat in range(3):
        can_go = [c for c in before[seat] if not pf.protected(CBOX, c)]
        assert len(s.players[seat].guild) == len(before[seat]) - bool(can_go)
    assert "CC05" not in s.players[1].guild and "CC04" in s.players[1].guild and "CC05" in s.court_discard
    assert "F905" in s.court_row
    sound(t)


def test_F905_call_to_pilgrimage_secured_rivals_discard_every_guild_card_of_a_suit():
    """Secured: seat 1 names the Material suit of its Mining Interest; its Rivals (clockwise:
    seat 2, seat 0) discard every Material Guild card (seat 0 its Construction Union); Call to Pilgrimage is shuffled into
    the Court deck; a suit seat 1 holds none of is refused."""
    from tests.blighted_reach.empire_fate_tables import put_agent

    t = act_three_table()
    for seat in range(3):  # known Guild cards: their own aside
        for card in list(t.state.players[seat].guild):
            t.state.players[seat].guild.remove(card)
            t.state.court_deck.append(card)
    guilds(t, {0: ["CC02", "CC06"], 1: ["CC01", "CC04"], 2: ["CC05"]})
    court_card(t, "F905")
    turn(t, 1, "AGG3")
    put_agent(t, 1, "F905", 2)
    t.act(1, Action("act", {"act": "secure", "card": "F905"}))
    uses = [a for a in options(t, 1) if a.params.get("card") == "F905"]
    assert {u.params["params"]["suit"] for u in uses} >= {"material"}
    unheld = next(x for x in ("material", "fuel", "weapon", "relic", "psionic")
                  if x not in pf.guild_suits_held(t.state, 1))
    refused(t, 1, Action("use_ability", {"card": "F905", "index": 1, "params": {"suit": unheld}}))
    t.act(1, Action("use_ability", {"card": "F905", "index": 1, "params": {"suit": "material"}}))
    place_tokens(t)
    s = t.state
    assert s.players[0].guild == ["CC06"] and "CC02" in s.court_discard
    assert s.players[2].guild == ["CC05"] and s.players[1].guild == ["CC01", "CC04"]
    assert "F905" in s.court_deck
    sound(t)


# -- F909-F911 Seek the Portal -------------------------------------------------------------------


def test_F909_seek_the_portal_crisis_each_player_scraps_a_loyal_ship():
    """The Crisis: each player in turn order scraps one of its Loyal ships on the map (its
    choice), out of the campaign; the Flagship is never offered; the card stays."""
    t = act_three_table()
    court_card(t, "F909")
    s = t.state
    on_map = [sum(h.ships_of(x).total for h in s.systems.values()) for x in range(3)]
    supply = [p.ships for p in s.players]
    resolve_crises(t, number=6, symbol="moon")
    for prompt in [p for p in t.state.prompts if p.kind == "crisis_choice"]:
        assert all(o.params["system"] in t.state.systems for o in prompt.options)
    answer_crises(t, {})
    s = t.state
    now = [sum(h.ships_of(x).total for h in s.systems.values()) for x in range(3)]
    assert now == [n - 1 if n else 0 for n in on_map] and [p.ships for p in s.players] == supply
    assert sorted(s.scrapped_ships) == sorted(x for x in range(3) if on_map[x])
    assert board_of(s, 0) is not None and "F909" in s.court_row
    sound(t)


def test_F910_seek_the_portal_secured_scraps_ships_at_the_portal_for_two_power_each():
    """F910 (F909 reprinted) secured by seat 1 controlling the Portal's system: it scraps 2 of
    seat 2's ships there and gains 4 Power; the card is shuffled into the Court deck. More
    ships than are there are refused."""
    from tests.blighted_reach.empire_fate_tables import put_agent

    assert CBOX.effects_of("F910") == CBOX.effects_of("F909") == CBOX.effects_of("F911")
    t, near = pilgrims_table()
    s = t.state
    s.players[0].ships += s.systems[s.portal].ships[0].fresh
    s.systems[s.portal].ships[0].fresh = 0
    ships_to(s, 1, s.portal, 3)
    ships_to(s, 2, s.portal, 2)
    flagship_to(s, 0, near)
    court_card(t, "F910")
    turn(t, 1, "AGG3")
    put_agent(t, 1, "F910", 2)
    power = t.state.players[1].power
    t.act(1, Action("act", {"act": "secure", "card": "F910"}))
    portal = t.state.portal
    refused(t, 1, Action("use_ability", {"card": "F910", "index": 1, "params": {"ships": [[2, 3, 0]]}}))
    t.act(1, Action("use_ability", {"card": "F910", "index": 1, "params": {"ships": [[2, 2, 0]]}}))
    place_tokens(t)
    s = t.state
    assert s.systems[portal].ships_of(2).total == 0 and s.scrapped_ships.count(2) == 2
    assert s.players[1].power == power + 4 and "F910" in s.court_deck
    sound(t)


def test_F911_seek_the_portal_secured_without_the_portal_scraps_nothing():
    """F911 secured by a seat that does not control the Portal's system: only declining is
    offered; naming ships is refused."""
    from tests.blighted_reach.empire_fate_tables import put_agent

    t, near = pilgrims_table()
    court_card(t, "F911")
    turn(t, 1, "AGG3")
    put_agent(t, 1, "F911", 2)
    events = t.act(1, Action("act", {"act": "secure", "card": "F911"}))
    # the one answer there is (declining) is taken at once
    assert any(e.type == "ability" and e.data.get("card") == "F911" for e in events) or \
        [a.params["params"] for a in options(t, 1) if a.params.get("card") == "F911"] == [{"ships": []}]
    assert pf._scrap_candidates(pf.Env(t.state, BOX, None, lambda *a, **k: None), pf.Use(1, "F911", 1, None)) == \
        [{"ships": []}]
    refused(t, 1, Action("use_ability", {"card": "F911", "index": 1, "params": {"ships": [[0, 1, 0]]}}))
    assert t.state.systems[t.state.portal].ships_of(0).fresh == 2 and "F911" in t.state.court_deck
    sound(t)


# -- bots ----------------------------------------------------------------------------------------


class PathfinderBot:
    """KeepFateBot, but the Pathfinder takes its own cards' abilities whenever offered
    (Uncovering Clues, the Pilgrims' moves, Use the Portal), so bot games play them."""

    CARDS = ("F902", "F908")

    def __init__(self, seed: int, seat: int) -> None:
        self.bot, self.seat = KeepFateBot(seed, seat, PATHFINDER), seat

    def choose(self, table):
        seat, action = self.bot.choose(table)
        if seat == self.seat and action.type == "act":
            mine = [a for a in options(table, seat) if a.params.get("card") in self.CARDS]
            if mine:
                return seat, mine[0]
        return seat, action


@pytest.mark.parametrize("players, seed, seat", [(2, 1, 1), (3, 2, 0), (4, 3, 2)])
def test_bots_play_an_act_two_with_the_pathfinder(players, seed, seat):
    """The Pathfinder's Act II as it starts, bots to the Act's end (its Intermission
    included), invariants after every action."""
    t = act_two_table(players, seed, seat)
    assert t.state.fates[seat] == PATHFINDER
    assert play_checked(t, PathfinderBot(seed, seat)) > 0


@pytest.mark.parametrize("players, seed, seat", [(3, 2, 0)])
def test_bots_play_the_pathfinder_through_acts_two_and_three(players, seed, seat):
    """Act II with the Portal found at once (arranged through its rule), bots to the Act's end
    (the Pathfinder kept), Act III from the saved log sheet to the campaign's end."""
    t = act_two_table(players, seed, seat)
    pf.portal_found(lambda *a, **k: None, t.state, seat, t.state.portal_secret)

    def kept(third):
        assert third.state.fates[seat] == PATHFINDER and third.state.portal and "F908" in third.state.play_area[seat]

    bot = PathfinderBot(seed, seat)
    second = play_checked(t, bot)
    campaign = {"players": players, "acts_played": 1, "log": None, "finished": False, "winner": -1, "acts": []}
    t.rules.hook.conclave_campaign_save(state=t.state, campaign=campaign)
    third_table = create_table(GAME, players, seed=seed + 1, campaign=campaign)
    kept(third_table)
    assert second > 0 and play_checked(third_table, bot) > 0
