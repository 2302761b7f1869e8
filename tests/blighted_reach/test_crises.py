"""The Crises (BR-212..BR-229 and the campaign Court's Crisis texts CC11-CC15) on real
Act I tables: Lotus, Dane and Mikah (seats 0-2) after their starting placements, the
Empire in clusters 1 and 2, damaged Blight everywhere else. Court cards are dealt into the
row from the Court deck; Fate Set cards are given as their Fates would. Fate rules are not
written yet: where a test needs one it registers a recording stand-in for that test only.
Each test names the checklist IDs it proves; refused choices leave the state unchanged."""
from __future__ import annotations

import pytest

from core.errors import BadParameter, IllegalAction
from plugins.arcs.setup import place_building
from plugins.arcs.state import Building, Marker, Ships
from plugins.blighted_reach import crises as cr
from plugins.blighted_reach.crises import CrisisHandler, Dice
from plugins.blighted_reach.setup import cluster_systems
from plugins.blighted_reach.state import FREE, Pieces

from tests.blighted_reach.crisis_tables import (
    BOX, CBOX, DANE, LOTUS, MIKAH, assert_sound, fate_to_court, give_fate_card, give_guild, played_table,
    put_agents, set_blight, snapshot, to_court,
)


def no_roll(die, faces):
    raise AssertionError(f"the {die} die must not be rolled")


def vox_in_row(state) -> list[str]:
    return [c for c in state.court_row if cr.is_vox(CBOX, c)]


def court_with(state, *cards: str) -> None:
    """The row holds exactly these Vox cards at positions 1.. (no other Vox card)."""
    for i, card in enumerate(cards, start=1):
        if card in state.court_row:
            state.court_row.remove(card)
            state.court_row.insert(i, card)
        else:
            to_court(state, card, i)
    for i, c in enumerate(state.court_row):
        if cr.is_vox(CBOX, c) and c not in cards:
            guild = next(x for x in state.court_deck if x in CBOX.court and CBOX.court[x].kind == "guild"
                         and x not in state.court_row)
            to_court(state, guild, i)
    assert vox_in_row(state) == list(cards)
    assert_sound(state)


@pytest.fixture
def handlers(monkeypatch):
    """Register recording stand-ins for named Fate rules, this test only."""
    calls: list[tuple[str, str, int]] = []

    def register(name: str, apply=None):
        def record(call):
            calls.append((name, call.card, call.holder))
            return apply(call) if apply else None
        monkeypatch.setitem(cr.FATE_CRISIS_HANDLERS, name, CrisisHandler(apply=record))
    register.calls = calls
    return register


# -- the order of the Crises -------------------------------------------------------


def test_crises_resolve_blight_then_fate_then_court_BR_212(handlers):
    """BR-212: a Blight Crisis at 1.1 (Lotus's ships), Dane's Merchant League (a Fate
    Crisis) and Blight Looms in the Court (rolled cluster 3): when the Fate Crisis runs, the
    Blight has hit already and Blight Looms has not yet repaired cluster 3; afterwards it has."""
    state = played_table()
    court_with(state, "CC15")
    give_fate_card(state, DANE, "F302")
    set_blight(state, "1.1", fresh=1)
    seen = {}

    def look(call):
        seen["lotus"] = state.systems["1.1"].ships[LOTUS]
        seen["3.1"] = state.blight["3.1"]
    handlers("discard_merchant_league", look)
    events = cr.resolve_crises(BOX, CBOX, state, no_roll, Dice(3, "moon", "crisis"))
    assert seen == {"lotus": Ships(fresh=2, damaged=1), "3.1": Pieces(damaged=1)}
    assert state.blight["3.1"] == Pieces(fresh=1)
    kinds = [e["event"] for e in events]
    assert kinds.index("fate_crisis") > max(i for i, k in enumerate(kinds) if k == "blight_crisis")
    assert kinds.index("court_crisis") > kinds.index("fate_crisis")
    assert_sound(state)


def test_fate_crises_in_turn_order_BR_219(handlers, monkeypatch):
    """BR-219: every held card with Crisis text resolves, in turn order from the
    initiative holder: Mikah's Golem Hearth (lore) then Dane's Merchant League (Guild)
    with Mikah leading; the reverse with Dane leading. An unwritten rule refuses to run
    (the two Fates' rules are taken out for this test, as if not written yet)."""
    for name in ("discard_merchant_league", "wake_held_golems"):
        monkeypatch.delitem(cr.FATE_CRISIS_HANDLERS, name, raising=False)
    state = played_table()
    give_fate_card(state, DANE, "F302")
    give_fate_card(state, MIKAH, "F503")
    state.initiative = MIKAH
    assert cr.fate_crisis_cards(CBOX, state) == [(MIKAH, "F503"), (DANE, "F302")]
    state.initiative = DANE
    assert cr.fate_crisis_cards(CBOX, state) == [(DANE, "F302"), (MIKAH, "F503")]
    before = snapshot(state)
    with pytest.raises(cr.MissingCrisisHandler):
        cr.resolve_fate_crisis(BOX, CBOX, state, DANE, "F302", None)
    assert snapshot(state) == before
    court_with(state)
    assert cr.missing_crisis_handlers(BOX, CBOX, state) == ["discard_merchant_league", "wake_held_golems"]
    handlers("discard_merchant_league")
    handlers("wake_held_golems")
    assert cr.missing_crisis_handlers(BOX, CBOX, state) == []
    cr.resolve_crises(BOX, CBOX, state, lambda die, faces: faces[0])
    assert handlers.calls == [("discard_merchant_league", "F302", DANE), ("wake_held_golems", "F503", MIKAH)]


# -- the dice ------------------------------------------------------------------------


def test_court_crises_reuse_the_event_roll_else_roll_both_dice_BR_220():
    """BR-220: after an Event card's roll the Court Crises read it (no die rolled); after
    the Council both dice are rolled, the number die and the event die."""
    state = played_table()
    dice = cr.roll_court_dice(CBOX, state, no_roll, Dice(4, "hex", "crisis"))
    assert dice == Dice(4, "hex", "crisis") and state.crisis_roll == {"number": "4", "symbol": "hex"}
    rolled = []

    def roll(die, faces):
        rolled.append(die)
        return faces[-1]
    dice = cr.roll_court_dice(CBOX, state, roll)
    assert rolled == ["number", "event"] and (dice.number, dice.symbol) == (6, "moon")
    assert state.crisis_roll == {"number": "6", "symbol": "moon"}


def test_rolled_cluster_symbol_and_planet_BR_223_BR_224_BR_225():
    """BR-223: the number die's cluster; BR-224: every planet of the symbol, all six
    clusters; BR-225: the rolled cluster's planet of the rolled symbol."""
    dice = Dice(5, "hex")
    assert cr.rolled_cluster(BOX, dice) == ["5G", "5.1", "5.2", "5.3"]
    assert cr.rolled_symbol_planets(BOX, dice) == ["1.3", "2.3", "3.3", "4.3", "5.3", "6.3"]
    assert cr.rolled_symbol_planets(BOX, Dice(1, "moon")) == [f"{c}.2" for c in range(1, 7)]
    assert cr.rolled_planet(BOX, dice) == "5.3" and cr.rolled_planet(BOX, Dice(2, "arrow")) == "2.1"


def test_if_symbol_was_rolled_reads_only_the_symbol_BR_226(handlers):
    """BR-226: Empire Falls acts only if the arrow was rolled, whichever face (Crisis or
    Edict) the event die showed; with the moon it does nothing."""
    state = played_table()
    fate_to_court(state, "F109", 1)
    handlers("empire_falls")
    cr.resolve_court_crisis(BOX, CBOX, state, "F109", Dice(2, "moon", "crisis"))
    assert handlers.calls == []
    cr.resolve_court_crisis(BOX, CBOX, state, "F109", Dice(2, "arrow", "edict"))
    assert handlers.calls == [("empire_falls", "F109", -1)]


# -- which Court cards, in which order ---------------------------------------------


def test_vox_cards_resolve_left_to_right_BR_221():
    """BR-221: Populist Demands left of Blight Looms resolves first; Guild cards and the
    Council have no Crisis."""
    state = played_table()
    court_with(state, "CC11", "CC15")
    assert cr.court_crisis_cards(BOX, CBOX, state) == ["CC11", "CC15"]
    court_with(state, "CC15", "CC11")
    events = cr.resolve_crises(BOX, CBOX, state, no_roll, Dice(3, "arrow"))
    assert [e["card"] for e in events if e["event"] == "court_crisis"] == ["CC15", "CC11"]
    assert_sound(state)


def test_an_attached_vox_card_resolves_first_and_slides_down_BR_222_BR_317():
    """BR-222: Populist Demands attached above Blight Looms resolves before it; BR-317:
    when Blight Looms buries itself, the attached card slides into its place and takes
    its agents (Lotus's 2), nothing is drawn."""
    state = played_table()
    court_with(state, "CC15")
    state.court_deck.remove("CC11")
    state.attached["CC15"] = "CC11"
    put_agents(state, LOTUS, "CC15", 2)
    assert_sound(state)
    assert cr.court_crisis_cards(BOX, CBOX, state) == ["CC11", "CC15"]
    deck = list(state.court_deck)
    events = cr.resolve_crises(BOX, CBOX, state, no_roll, Dice(3, "arrow"))
    assert [e["card"] for e in events if e["event"] == "court_crisis"] == ["CC11", "CC15"]
    assert state.court_row[1] == "CC11" and state.court_agents["CC11"] == [2, 0, 0]
    assert state.attached == {} and state.court_deck == deck + ["CC15"]
    assert_sound(state)


def test_removing_an_attached_card_leaves_its_host_BR_318():
    """BR-318: an attached card leaving the Court changes nothing about its host, and no
    card is drawn."""
    state = played_table()
    court_with(state, "CC14")
    state.court_deck.remove("CC12")
    state.attached["CC14"] = "CC12"
    row, deck = list(state.court_row), list(state.court_deck)
    cr.resolve_court_crisis(BOX, CBOX, state, "CC12", Dice(1, "arrow"))  # Council Intrigue buries itself
    assert state.court_row == row and state.attached == {} and state.court_deck == deck + ["CC12"]
    assert_sound(state)


def test_a_removed_card_sends_agents_home_and_is_refilled_BR_227_BR_228():
    """BR-227: Blight Looms leaves: Dane's 3 and Mikah's 1 agents go home and the Court
    deck's top card takes its place; BR-228: it lies at the bottom of the Court deck."""
    state = played_table()
    court_with(state, "CC15")
    put_agents(state, DANE, "CC15", 3)
    put_agents(state, MIKAH, "CC15", 1)
    agents = [p.agents for p in state.players]
    top = state.court_deck[0]
    cr.resolve_court_crisis(BOX, CBOX, state, "CC15", Dice(4, "hex"))
    assert [p.agents for p in state.players] == [agents[0], agents[1] + 3, agents[2] + 1]
    assert state.court_row[1] == top and state.court_agents[top] == [0, 0, 0]
    assert state.court_deck[-1] == "CC15" and "CC15" not in state.court_agents
    assert_sound(state)


def test_the_council_cannot_be_removed():
    state = played_table()
    with pytest.raises(IllegalAction):
        cr.remove_from_court(state, cr.IN_SESSION, "bury")


# -- the campaign Court's Crises ---------------------------------------------------


def test_populist_demands_returns_the_top_declared_marker_BR_024():
    """BR-024: with markers declared on Tycoon (5) and Warlord (3), the 5 goes back to
    Available; next time the 3; none declared, nothing. The card stays in the Court."""
    state = played_table()
    court_with(state, "CC11")
    a, b = (next(m for m in state.markers_available if m.id == x) for x in "AB")
    state.markers_available = [m for m in state.markers_available if m not in (a, b)]
    state.ambition_boxes["tycoon"].append(a)
    state.ambition_boxes["warlord"].append(b)
    events = cr.resolve_court_crisis(BOX, CBOX, state, "CC11", Dice(1, "arrow"))
    assert events[-1]["marker"] == "A" and state.ambition_boxes["tycoon"] == []
    assert Marker("A") in state.markers_available
    cr.resolve_court_crisis(BOX, CBOX, state, "CC11", Dice(1, "arrow"))
    assert state.ambition_boxes["warlord"] == [] and len(state.markers_available) == 3
    assert cr.resolve_court_crisis(BOX, CBOX, state, "CC11", Dice(1, "arrow"))[-1]["marker"] is None
    assert "CC11" in state.court_row


def test_populist_demands_reads_the_markers_flipped_side():
    """A flipped B (6) outranks an unflipped A (5)."""
    state = played_table()
    court_with(state, "CC11")
    state.markers_available = [Marker("C")]
    state.ambition_boxes["keeper"] = [Marker("A")]
    state.ambition_boxes["empath"] = [Marker("B", flipped=True)]
    cr.resolve_court_crisis(BOX, CBOX, state, "CC11", Dice(1, "arrow"))
    assert state.ambition_boxes["empath"] == [] and Marker("B", flipped=True) in state.markers_available


def test_council_intrigue_flips_the_council_and_moves_agents_to_it():
    """CC12's Crisis: the Council (returned Decided) turns In Session, the agents on
    Council Intrigue (Lotus 2, Mikah 1) move onto it, and the card is buried (BR-228)."""
    state = played_table()
    court_with(state, "CC12")
    state.court_row[0], state.council = cr.DECIDED, cr.DECIDED
    state.court_agents[cr.DECIDED] = state.court_agents.pop(cr.IN_SESSION)
    put_agents(state, LOTUS, "CC12", 2)
    put_agents(state, MIKAH, "CC12", 1)
    assert_sound(state)
    top = state.court_deck[0]
    cr.resolve_court_crisis(BOX, CBOX, state, "CC12", Dice(1, "arrow"))
    assert state.council == cr.IN_SESSION and state.court_row[0] == cr.IN_SESSION
    assert state.court_agents[cr.IN_SESSION] == [2, 0, 1]
    assert state.court_row[1] == top and state.court_deck[-1] == "CC12"
    assert_sound(state)


def test_diplomatic_fiasco_discards_guilds_down_to_agents_BR_229():
    """BR-229, in turn order: Lotus holds 3 Guild cards and 2 agents: she chooses one to
    discard; Dane holds Merchant League (protected) and Mining Interest with no agents: the
    protected card counts but stays, so only Mining Interest goes; Mikah has no excess.
    Then the card is buried and the agents on it (Dane's) come home."""
    state = played_table()
    court_with(state, "CC13")
    state.initiative = LOTUS
    for card in ("CC01", "CC02", "CC03"):
        give_guild(state, LOTUS, card)
    give_fate_card(state, DANE, "F302")
    give_guild(state, DANE, "CC04")
    put_agents(state, LOTUS, state.court_row[2], 8)
    put_agents(state, DANE, state.court_row[2], 8)
    put_agents(state, DANE, "CC13", 2)
    assert_sound(state)
    decisions = cr.court_crisis_decisions(BOX, CBOX, state, "CC13", Dice(1, "arrow"))
    assert [(d.seat, len(d.options)) for d in decisions] == [(LOTUS, 3), (DANE, 1)]
    assert decisions[1].options == [{"discard": ["CC04"]}]
    for bad in ({LOTUS: {"discard": ["CC01", "CC02"]}}, {LOTUS: {"discard": ["CC09"]}}, {}):
        before = snapshot(state)
        with pytest.raises(BadParameter):
            cr.resolve_court_crisis(BOX, CBOX, state, "CC13", Dice(1, "arrow"), bad)
        assert snapshot(state) == before
    cr.resolve_court_crisis(BOX, CBOX, state, "CC13", Dice(1, "arrow"), {LOTUS: {"discard": ["CC02"]}})
    assert state.players[LOTUS].guild == ["CC01", "CC03"] and state.players[DANE].guild == ["F302"]
    assert state.court_discard[-2:] == ["CC02", "CC04"] and state.court_deck[-1] == "CC13"
    assert state.players[DANE].agents == 2
    assert_sound(state)


def test_a_protected_guild_card_is_never_discarded_BR_229():
    """BR-229: told to discard Merchant League (protected), the answer is refused."""
    state = played_table()
    court_with(state, "CC13")
    give_fate_card(state, MIKAH, "F302")
    give_guild(state, MIKAH, "CC04")
    give_guild(state, MIKAH, "CC07")
    put_agents(state, MIKAH, state.court_row[2], 9)
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        cr.resolve_court_crisis(BOX, CBOX, state, "CC13", Dice(1, "arrow"), {MIKAH: {"discard": ["F302", "CC04"]}})
    assert snapshot(state) == before


def test_song_of_freedom_the_most_power_frees_a_city_BR_029():
    """BR-029: Dane has the most Power and chooses which of his cities becomes a Free city:
    the damaged one at 1.3 stays damaged, his city goes back to his board; a city that is
    not his is refused. The card stays in the Court."""
    state = played_table()
    court_with(state, "CC14")
    state.players[DANE].power, state.players[MIKAH].power = 5, 3
    here = state.systems["1.3"]
    i = next(k for k, b in enumerate(here.buildings) if b.owner == DANE and b.kind == "city")
    here.buildings[i] = Building(kind="city", owner=DANE, damaged=True)
    decisions = cr.court_crisis_decisions(BOX, CBOX, state, "CC14", Dice(1, "arrow"))
    assert [d.seat for d in decisions] == [DANE] and {"system": "1.3", "building": i} in decisions[0].options
    lotus_city = next({"system": s, "building": k} for s, x in state.systems.items()
                      for k, b in enumerate(x.buildings) if b.owner == LOTUS and b.kind == "city")
    before = snapshot(state)
    with pytest.raises(BadParameter):
        cr.resolve_court_crisis(BOX, CBOX, state, "CC14", Dice(1, "arrow"), {DANE: lotus_city})
    assert snapshot(state) == before
    free, board = state.free_city_supply, sum(state.players[DANE].cities_on_board)
    cr.resolve_court_crisis(BOX, CBOX, state, "CC14", Dice(1, "arrow"), {DANE: {"system": "1.3", "building": i}})
    assert here.buildings[i] == Building(kind="city", owner=FREE, damaged=True)
    assert state.free_city_supply == free - 1 and sum(state.players[DANE].cities_on_board) == board + 1
    assert "CC14" in state.court_row
    assert_sound(state)


def test_song_of_freedom_power_tie_goes_to_turn_order_BR_029():
    """BR-029 with tied Power (ruling G-1): the first of the tied in turn order decides;
    with a single city the choice is made for them."""
    state = played_table()
    court_with(state, "CC14")
    state.players[LOTUS].power = state.players[MIKAH].power = 4
    state.initiative = MIKAH
    decisions = cr.court_crisis_decisions(BOX, CBOX, state, "CC14", Dice(1, "arrow"))
    assert [d.seat for d in decisions] == [MIKAH] and len(decisions[0].options) == 1
    cr.resolve_court_crisis(BOX, CBOX, state, "CC14", Dice(1, "arrow"))
    assert not any(b.owner == MIKAH and b.kind == "city" for s in state.systems.values() for b in s.buildings)
    assert_sound(state)


def test_blight_looms_repairs_the_rolled_cluster_and_blights_the_symbol():
    """CC15's Crisis with cluster 4 and the moon rolled: cluster 4's Blight all turns
    fresh; every moon planet without Blight (1.2, 2.2 in the Empire's clusters) gets one
    damaged Blight, the others already have some; the card is buried (BR-228)."""
    state = played_table()
    court_with(state, "CC15")
    supply = state.blight_supply
    cr.resolve_court_crisis(BOX, CBOX, state, "CC15", Dice(4, "moon", "crisis"))
    assert all(state.blight[s] == Pieces(fresh=1) for s in cluster_systems(BOX, 4))
    assert state.blight["1.2"] == state.blight["2.2"] == Pieces(damaged=1)
    assert state.blight["3.2"] == Pieces(damaged=1) and state.blight_supply == supply - 2
    assert state.court_deck[-1] == "CC15" and "CC15" not in state.court_row
    assert_sound(state)


def test_the_full_crises_with_choices_through_a_chooser():
    """resolve_crises asks each Decision of the seat named in it: Song of Freedom's city of
    Dane (most Power, two cities), nothing else; without a chooser that choice is refused
    and the city stays his."""
    for choose in (None, "last"):
        state = played_table()
        court_with(state, "CC14", "CC15")
        state.players[DANE].power = 9
        place_building(state, "3.2", DANE, "city")
        asked = []

        def chooser(d):
            asked.append((d.seat, d.op))
            return d.options[-1]
        if choose is None:
            with pytest.raises(ValueError):
                cr.resolve_crises(BOX, CBOX, state, lambda die, faces: faces[0])
            assert state.systems["3.2"].buildings == [Building(kind="city", owner=DANE)]
            continue
        cr.resolve_crises(BOX, CBOX, state, lambda die, faces: faces[0], choose=chooser)
        assert asked == [(DANE, "most_power_frees_city")]
        assert state.systems["3.2"].buildings == [Building(kind="city", owner=FREE)]
        assert state.crisis_roll == {"number": "1", "symbol": "arrow"}
        assert_sound(state)
