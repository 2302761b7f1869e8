"""The Conspirator (FATE23, a C Fate) through the engine on Act III tables built from Acts I
and II: each test names the card it plays (F23nn) and the checklist IDs it proves. The
Conspiracy tokens' colours are secret: the tests look at every other seat's view, the
spectator's and the events each of them receives."""
from __future__ import annotations

import json

import msgspec

from core.engine import view_events
from core.secrets import HiddenCheck
from core.errors import BadParameter, IllegalAction
from core.state import Action
from tests.blighted_reach.c_fate_tables import (
    act_three_table, declare_by_arrangement, prompt_of, refused, score_now, sound,
)
from tests.blighted_reach.flow_helpers import restart_round

CONSPIRATOR = "FATE23"
ME = 0
COLOURS = ("blue", "red", "yellow", "white")


def conspirator_table(players: int = 3, seed: int = 3):
    t = act_three_table({ME: CONSPIRATOR}, players, seed)
    assert t.state.fates[ME] == CONSPIRATOR and t.state.act == 3
    return t


def others(t) -> list[int | None]:
    """Every viewer but the Conspirator: the other seats and the spectator."""
    return [s for s in range(len(t.state.players)) if s != ME] + [None]


def secret_kept(t, events) -> None:
    """No viewer but the Conspirator sees a colour face down or in its supply, in the view or
    in the events; the Conspirator sees them all."""
    s = t.state
    for viewer in others(t):
        view = t.view(viewer)["conspiracies"]
        assert all(c == "" for tokens in view["boxes"].values() for c in tokens)
        assert view["supply"] == [] and view["supply_count"] == len(s.conspiracy_supply)
        assert "conspiracy_supply" not in t.view(viewer)  # the raw fields never reach a view
        for ev in view_events(events, viewer):
            if ev["type"] in ("conspiracy_placed", "action"):
                assert "colour" not in json.dumps(ev["data"]) and "conspiracy:" not in json.dumps(ev["data"]), ev
    mine = t.view(ME)["conspiracies"]
    assert mine["boxes"] == {a: [f"conspiracy:{c}" for c in cs] for a, cs in s.conspiracies.items()}
    assert mine["supply"] == sorted(f"conspiracy:{c}" for c in s.conspiracy_supply)
    check = HiddenCheck(t)  # the framework's own check: no face id reaches another viewer
    t.events = list(events)
    assert check(t) == []


def in_hands(t, hands: list[list[str]], initiative: int) -> None:
    """A new round with these hands (the cards fetched from the deck first)."""
    s = t.state
    for card in (c for h in hands for c in h):
        if card in s.action_deck:
            s.action_deck.remove(card)
            s.action_discard.append(card)
    restart_round(t, hands, initiative=initiative)


def lead_declaring(t, seat: int, card: str, ambition: str):
    """`seat` leads `card` and declares `ambition`; the Farseers look (if asked) is declined.
    Returns every event since the lead."""
    hands = [[card, "ADM6"] if x == seat else [["CON5", "MOB5"], ["AGG5", "ADM5"], ["CON6", "MOB6"]][x]
             for x in range(len(t.state.players))]
    in_hands(t, hands, initiative=seat)
    events = list(t.act(seat, Action("lead", {"card": card})))
    events += t.act(seat, Action("declare", {"ambition": ambition}))
    return events + decline_windows(t, seat)


def decline_windows(t, seat: int) -> list:
    """The declaration's own abilities (Farseers' look, the declare window) declined."""
    events = []
    for _ in range(5):
        if prompt_of(t, "farseers_look"):
            events += t.act(seat, Action("look", {"rival": -1}))
        elif any(p.seat == seat and p.kind == "arcs.use_ability" for p in t.state.prompts):
            events += t.act(seat, Action("use_ability", {"card": "", "index": -1, "params": {}}))
        else:
            break
    return events


def conspiracies_on(t, placed: dict[str, list[str]]) -> None:
    """Conspiracies from the supply onto boxes (an arranged board)."""
    s = t.state
    for ambition, colours in placed.items():
        for colour in colours:
            s.conspiracy_supply.remove(colour)
            s.conspiracies.setdefault(ambition, []).append(colour)


def test_F2301_setup_side_gains_farseers_and_conspiracies_collects_eight_tokens_and_books_two_laws_BR_106():
    """Act III setup F: Farseers (Guild) and Conspiracies (ability) gained, 2 Conspiracies of
    each of the four colours collected whatever the player count, Scoring and Foiling
    Conspiracies into the booklet; the final objective's marker starts on 9 with 3 players
    (BR-106). The supply's colours are the Conspirator's to see."""
    t = conspirator_table()
    s = t.state
    assert "F2302" in s.players[ME].guild and "F2303" in s.play_area[ME]
    assert any("F2304" in slot for slot in s.booklet) and any("F2305" in slot for slot in s.booklet)
    assert sorted(s.conspiracy_supply) == sorted(c for c in COLOURS for _ in range(2)) and s.conspiracies == {}
    assert s.objective_markers[ME] == 9
    secret_kept(t, [])
    sound(t)


def test_F2301_start_spaces_by_player_count():
    for players, start in ((2, 12), (4, 6)):
        t = conspirator_table(players)
        assert t.state.objective_markers[ME] == start
        assert len(t.state.conspiracy_supply) == 8  # 2 per colour even without 4 players


def test_F2303_declaring_places_a_face_down_conspiracy_instead_of_a_marker():
    """The Conspirator declares Warlord with a lead card: the marker goes back to the
    Available ones and it chooses the colour of the Conspiracy that goes face down into the
    Warlord box. Nobody else sees the colour, in the view or the events."""
    t = conspirator_table()
    available = [m.id for m in t.state.markers_available]
    events = lead_declaring(t, ME, "AGG4", "warlord")
    prompt = prompt_of(t, "conspiracy")
    assert prompt is not None and prompt.seat == ME
    assert sorted(o.params["colour"] for o in prompt.options) == sorted(COLOURS)
    s = t.state
    assert s.ambition_boxes["warlord"] == [] and [m.id for m in s.markers_available] == available
    refused(t, ME, Action("conspire", {"colour": "green"}))
    events += t.act(ME, Action("conspire", {"colour": "red"}))
    s = t.state
    assert s.conspiracies == {"warlord": ["red"]} and sorted(s.conspiracy_supply).count("red") == 1
    placed = [e for e in events if e.type == "conspiracy_placed"]
    assert placed and placed[0].to == [ME] and placed[0].data["face"] == "conspiracy:red"
    assert "face" not in placed[0].public
    secret_kept(t, events)
    sound(t)


def test_F2303_the_last_colour_is_placed_without_asking_and_none_left_forbids_declaring():
    """With one colour left the Conspiracy goes without a question; with none left the
    Conspirator may not declare at all (no declare prompt; a card's declaration is refused)."""
    t = conspirator_table()
    conspiracies_on(t, {"keeper": ["blue", "blue", "red", "red", "yellow", "yellow"], "tycoon": ["white"]})
    lead_declaring(t, ME, "AGG4", "warlord")
    s = t.state
    assert prompt_of(t, "conspiracy") is None and s.conspiracies["warlord"] == ["white"] and s.conspiracy_supply == []
    sound(t)
    hands = [["AGG3", "ADM6"], ["CON5", "MOB5"], ["AGG5", "ADM5"]]
    in_hands(t, hands, initiative=ME)
    t.act(ME, Action("lead", {"card": "AGG3"}))
    assert prompt_of(t, "declare") is None
    from plugins.arcs.court_ops import declare_barred
    assert declare_barred(t.state, ME, "tyrant") and not declare_barred(t.state, 1, "tyrant")


def test_F2303_refused_declaration_changes_nothing():
    t = conspirator_table()
    in_hands(t, [["AGG4", "ADM6"], ["CON5", "MOB5"], ["AGG5", "ADM5"]], initiative=ME)
    t.act(ME, Action("lead", {"card": "AGG4"}))
    refused(t, ME, Action("declare", {"ambition": "keeper"}))  # AGG4 declares Warlord only


def in_row(t, card: str, agents: dict[int, int]) -> int:
    """`card` into the Court row's last place with these agents on it (from their owners'
    supplies); the card it replaces back on the deck's top. Returns its place."""
    s = t.state
    for pile in (s.court_deck, s.court_discard):
        if card in pile:
            pile.remove(card)
    old = s.court_row[-1]
    for seat, n in enumerate(s.court_agents.pop(old)):
        s.players[seat].agents += n
    s.court_deck.insert(0, old)
    s.court_row[-1] = card
    s.court_agents[card] = [0] * len(s.players)
    for seat, n in agents.items():
        s.court_agents[card][seat] += n
        s.players[seat].agents -= n
    return len(s.court_row) - 1


def guild_card_in_deck(t) -> str:
    from plugins.blighted_reach.rules_box import rules_box

    return next(c for c in t.state.court_deck if rules_box().court[c].kind == "guild")


def secure_with(t, seat: int, card: str):
    hands = [["AGG3", "ADM6"] if x == seat else h for x, h in
             enumerate([["CON5", "MOB5"], ["AGG5", "ADM5"], ["CON6", "MOB6"]][:len(t.state.players)])]
    in_hands(t, hands, initiative=seat)
    t.act(seat, Action("lead", {"card": "AGG3"}))
    if prompt_of(t, "declare"):
        t.act(seat, Action("declare", {"ambition": ""}))
    return t.act(seat, Action("act", {"act": "secure", "card": card}))


def test_F2303_securing_may_refill_the_court_with_a_guild_card_to_place_a_conspiracy():
    """The Conspirator secures a Guild card: it is asked how the place is refilled; it puts
    its Farseers there (the deck untouched) and a Conspiracy into a box without a marker. A
    box holding a marker is not offered."""
    t = conspirator_table()
    card = guild_card_in_deck(t)
    place = in_row(t, card, {ME: 2})
    declare_by_arrangement(t, "tyrant")
    deck = list(t.state.court_deck)
    events = secure_with(t, ME, card)
    prompt = prompt_of(t, "conspiracy_refill")
    assert prompt is not None and prompt.seat == ME
    assert not any(o.params["ambition"] == "tyrant" for o in prompt.options)
    refused(t, ME, Action("conspiracy_refill", {"guild": "F2302", "ambition": "tyrant", "colour": "red"}))
    events += t.act(ME, Action("conspiracy_refill", {"guild": "F2302", "ambition": "keeper", "colour": "yellow"}))
    s = t.state
    assert s.court_row[place] == "F2302" and s.court_agents["F2302"] == [0, 0, 0]
    assert "F2302" not in s.players[ME].guild and card in s.players[ME].guild
    assert s.court_deck == deck and s.conspiracies == {"keeper": ["yellow"]}
    secret_kept(t, events)
    sound(t)


def test_F2303_declining_the_guild_refill_refills_from_the_deck():
    t = conspirator_table()
    card = guild_card_in_deck(t)
    place = in_row(t, card, {ME: 2})
    top = t.state.court_deck[0]
    secure_with(t, ME, card)
    t.act(ME, Action("conspiracy_refill", {"guild": "", "ambition": "", "colour": ""}))
    s = t.state
    assert s.court_row[place] == top and s.conspiracies == {}
    sound(t)


def test_F2304_scoring_reveals_the_scored_boxes_and_moves_the_marker_once():
    """After scoring: the Conspiracies on declared ambitions are revealed, each unrevealed one
    and each showing a first (or tied first) player advances 1, each other revealed one moves
    the marker 1 away; the revealed ones go back to the supply, the others stay face down."""
    from plugins.blighted_reach import fate_conspirator as fc

    t = conspirator_table()
    s = t.state
    declare_by_arrangement(t, "tycoon")
    first = fc.first_places(s, "tycoon")
    right = s.colours[min(first)] if first else "white"
    wrong = next(c for c in COLOURS if fc.colour_seat(s, c) not in first)
    conspiracies_on(t, {"tycoon": [right, wrong], "empath": ["blue"], "keeper": ["red"]})
    s.objective_markers[ME] = 9
    events = score_now(t)
    s = t.state
    revealed = next(e for e in events if e.type == "conspiracies_revealed")
    expected = 2 + (1 if first else -1) - 1
    assert revealed.to is None and revealed.data["revealed"] == {"tycoon": [right, wrong]}
    assert s.objective_markers[ME] == 9 - expected
    assert s.conspiracies == {"empath": ["blue"], "keeper": ["red"]}
    assert s.conspiracy_supply.count(right) + s.conspiracy_supply.count(wrong) >= 2
    sound(t)


def test_F2304_a_wrong_majority_moves_the_marker_away_from_zero():
    from plugins.blighted_reach import fate_conspirator as fc

    t = conspirator_table()
    s = t.state
    declare_by_arrangement(t, "warlord")
    first = fc.first_places(s, "warlord")
    wrong = [c for c in COLOURS if fc.colour_seat(s, c) not in first]
    conspiracies_on(t, {"warlord": [wrong[0], wrong[1]]})
    s.objective_markers[ME] = 5
    score_now(t)
    assert t.state.objective_markers[ME] == 7 and t.state.conspiracies == {}
    sound(t)


def test_F2304_unrevealed_conspiracies_complete_the_objective_and_win_BR_107():
    """Two Conspiracies on undeclared boxes with the marker on 2: it reaches 0 and the
    Conspirator, with Power, wins the campaign at the chapter's end (BR-107)."""
    t = conspirator_table()
    s = t.state
    conspiracies_on(t, {"keeper": ["blue"], "empath": ["red"]})
    s.objective_markers[ME] = 2
    s.players[ME].power = max(s.players[ME].power, 1)
    score_now(t)
    s = t.state
    assert s.objective_markers[ME] == 0 and s.finished and s.result["campaign_winner"] == ME


def test_F2305_a_rival_securing_a_card_with_conspirator_agents_may_guess_wrong_and_advance_it():
    """A Rival secures a card that held the Conspirator's agent: it may name a face-down
    Conspiracy and a colour; a wrong guess advances the Conspirator 1, the token stays."""
    t = conspirator_table()
    conspiracies_on(t, {"keeper": ["blue"]})
    card = guild_card_in_deck(t)
    in_row(t, card, {1: 2, ME: 1})
    t.state.objective_markers[ME] = 9
    secure_with(t, 1, card)
    prompt = prompt_of(t, "foil_conspiracy")
    assert prompt is not None and prompt.seat == 1
    refused(t, 1, Action("foil", {"ambition": "keeper", "index": 1, "colour": "blue"}))
    events = t.act(1, Action("foil", {"ambition": "keeper", "index": 0, "colour": "red"}))
    s = t.state
    assert s.objective_markers[ME] == 8 and s.conspiracies == {"keeper": ["blue"]}
    foiled = next(e for e in events if e.type == "conspiracy_foiled")
    assert foiled.data["right"] is False
    sound(t)


def test_F2305_a_right_guess_returns_the_conspiracy_to_the_conspirator():
    t = conspirator_table()
    conspiracies_on(t, {"keeper": ["blue", "white"]})
    card = guild_card_in_deck(t)
    in_row(t, card, {2: 2, ME: 1})
    secure_with(t, 2, card)
    t.act(2, Action("foil", {"ambition": "keeper", "index": 1, "colour": "white"}))
    s = t.state
    assert s.conspiracies == {"keeper": ["blue"]} and s.conspiracy_supply.count("white") == 2
    assert s.objective_markers[ME] == 9
    sound(t)


def test_F2305_no_guess_without_conspirator_agents_or_a_vox_card():
    t = conspirator_table()
    conspiracies_on(t, {"keeper": ["blue"]})
    card = guild_card_in_deck(t)
    in_row(t, card, {1: 2})
    secure_with(t, 1, card)
    assert prompt_of(t, "foil_conspiracy") is None
    sound(t)


def test_F2305_securing_a_vox_card_offers_the_guess():
    from plugins.blighted_reach.rules_box import rules_box

    t = conspirator_table()
    conspiracies_on(t, {"tyrant": ["yellow"]})
    vox = next(c for c in ("CC13", "CC12", "CC14") if rules_box().court[c].kind == "vox")
    in_row(t, vox, {1: 2})
    secure_with(t, 1, vox)
    for _ in range(6):  # the Vox card's own choices first, then the guess
        if prompt_of(t, "foil_conspiracy"):
            break
        p = next(p for p in t.state.prompts if p.blocking)
        t.act(p.seat, p.options[0])
    prompt = prompt_of(t, "foil_conspiracy")
    assert prompt is not None and prompt.seat == 1
    t.act(1, Action("foil", {"ambition": "tyrant", "index": 0, "colour": "yellow"}))
    assert t.state.conspiracies == {}
    sound(t)


def test_F2302_farseers_prelude_redraws_from_the_discard_bottom():
    """Farseers, the base Farseers' reprint (BC17): its Prelude discards it and hand cards
    to draw as many, the Farseers counted, from the action discard's bottom."""
    t = conspirator_table()
    in_hands(t, [["AGG3", "ADM6", "CON4"], ["CON5", "MOB5"], ["AGG5", "ADM5"]], initiative=ME)
    t.act(ME, Action("lead", {"card": "AGG3"}))
    if prompt_of(t, "declare"):
        t.act(ME, Action("declare", {"ambition": ""}))
    uses = [a for a in t.legal(ME) if a.params.get("act") == "ability" and a.params.get("card") == "F2302"]
    assert uses
    bottom = t.state.action_discard[-2:]
    use = Action("act", {**uses[0].params, "params": {"cards": ["ADM6"]}})
    t.act(ME, use)
    s = t.state
    assert "F2302" not in s.players[ME].guild and "ADM6" not in s.hands[ME]
    assert sorted(bottom) == sorted(c for c in s.hands[ME] if c in bottom) and len(s.hands[ME]) == 3
    sound(t)


def test_FATE23_bot_campaigns_with_the_conspirator_in_act_three_play_to_a_winner():
    """Random bots play whole campaigns (2 and 3 players) in which a seat takes the
    Conspirator at Act II's Intermission: every Act ends, the campaign has a winner, and the
    invariants (the 8 tokens among them) hold after every action."""
    from tests.blighted_reach.c_fate_campaigns import arranged_campaign

    for players, seed in ((2, 1), (3, 2)):
        run = arranged_campaign(players, seed, {0: CONSPIRATOR})
        assert run["errors"] == [] and run["winner"] is not None
        assert run["act_three_fates"][0] == CONSPIRATOR


def test_F2303_a_face_shown_to_another_viewer_would_be_caught():
    """The hidden-information check (`core.secrets`) knows the faces: the Conspirator's own
    view handed to a Rival or the spectator is a leak; the Conspirator's is not."""
    t = conspirator_table()
    conspiracies_on(t, {"keeper": ["red"]})
    check = HiddenCheck(t)
    real = t.view
    t.view = lambda viewer: {**real(viewer), "careless": real(ME)["conspiracies"]}
    found = check(t)
    assert any(p.startswith("Seat 2 sees 'conspiracy:red'") for p in found)
    assert any(p.startswith("a spectator sees 'conspiracy:red'") for p in found)
    assert not any(p.startswith("Seat 1 sees") for p in found)
