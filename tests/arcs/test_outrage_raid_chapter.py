"""Outrage and Ransack, raiding with keys, and the end of a chapter (digest 7.9, 7.10, 11)."""
from __future__ import annotations

import pytest

from core.errors import BadParameter, IllegalAction
from plugins.arcs.actions import do_influence, refill_court
from plugins.arcs.chapter import clean_up, deal_chapter, game_over, return_city, score_chapter, winner
from plugins.arcs.content import default_box
from plugins.arcs.invariants import problems
from plugins.arcs.outrage import provoke_outrage, ransack, ransack_targets, steal_guild_card, steal_resource
from plugins.arcs.state import Marker, Trophy
from tests.arcs.flow_helpers import place_waiting
from tests.arcs.test_actions import bare, put

BOX = default_box()


def court_card(state, kind: str, suit: str | None = None) -> str:
    """Move a card of that kind (and suit) into the Court row's first place, for a test."""
    card = next(c for c in state.court_deck if BOX.court[c].kind == kind and (suit is None or BOX.court[c].suit == suit))
    state.court_deck.remove(card)
    old = state.court_row[0]
    state.court_deck.append(old)
    del state.court_agents[old]
    state.court_row[0] = card
    state.court_agents[card] = [0] * len(state.players)
    return card


def give_guild(state, seat: int, card: str) -> None:
    """Hand a Court card to a seat's play area, from the deck or the row (refilled)."""
    if card in state.court_row:
        refill_court(state, _leave_row(state, card))
    else:
        state.court_deck.remove(card)
    state.players[seat].guild.append(card)


def _leave_row(state, card: str) -> int:
    del state.court_agents[card]
    position = state.court_row.index(card)
    state.court_row[position] = ""
    return position


def test_provoke_outrage_ARCS_191_to_194():
    """ARCS-191: all tokens of the type and Guild cards of the suit are discarded, an agent
    covers the Outrage slot; ARCS-192: a Loyal card is kept; ARCS-193: again in the same type
    discards but places no second agent; ARCS-194: with no agent, a placeholder, replaced when
    an agent comes home."""
    state = bare()
    p = state.players[0]
    p.resources[:3] = ["fuel", "fuel", "relic"]
    state.supply["fuel"] -= 2
    state.supply["relic"] -= 1
    give_guild(state, 0, "BC06")  # Fuel Cartel: discarded
    give_guild(state, 0, "BC07")  # Loyal Pilots: kept
    provoke_outrage(BOX, state, 0, "fuel")
    assert p.resources[:3] == [None, None, "relic"] and p.guild == ["BC07"] and state.court_discard == ["BC06"]
    assert p.outrage == ["fuel"] and p.agents == 9
    p.resources[0] = "fuel"
    state.supply["fuel"] -= 1
    provoke_outrage(BOX, state, 0, "fuel")
    assert p.resources[0] is None and p.agents == 9
    card = state.court_row[0]
    for _ in range(9):
        do_influence(state, 0, card)
    provoke_outrage(BOX, state, 0, "weapon")
    assert p.outrage == ["fuel", "weapon"] and p.outrage_placeholders == ["weapon"]
    assert problems(BOX, state) == []


def test_ransack_ARCS_196_197():
    """ARCS-196: the destroyer takes a Court card holding an agent of the city's owner with no
    majority: Rival agents on it become Trophies, their own go home; ARCS-197: with no such
    card nothing happens."""
    state = bare()
    card = court_card(state, "guild")
    assert ransack_targets(state, 1) == []
    do_influence(state, 1, card)
    do_influence(state, 1, card)
    do_influence(state, 2, card)
    do_influence(state, 0, card)
    assert ransack_targets(state, 1) == [card]
    with pytest.raises(BadParameter):
        ransack(BOX, state, 0, 2, state.court_row[1])
    refill_court(state, ransack(BOX, state, 0, 1, card))
    p = state.players[0]
    assert [(t.owner, t.kind) for t in p.trophies] == [(1, "agent"), (1, "agent"), (2, "agent")]
    assert p.agents == 10 and card in p.guild
    assert problems(BOX, state) == []


def test_raiding_ARCS_200_to_203_and_sworn_guardians():
    """ARCS-200/201/212: each stolen item costs its raid cost in keys (slot 1 costs 3, slot 2
    costs 1; a Guild card its printed cost); ARCS-202: stolen goods go to the thief; Sworn
    Guardians blocks stealing the holder's other goods but may be stolen itself, and is then
    buried."""
    state = bare()
    victim = state.players[1]
    victim.resources[:2] = ["weapon", "psionic"]
    state.supply["weapon"] -= 1
    state.supply["psionic"] -= 1
    give_guild(state, 1, "BC13")  # raid cost 2
    with pytest.raises(IllegalAction):
        steal_resource(BOX, state, 0, 1, 0, keys=2)
    assert steal_resource(BOX, state, 0, 1, 1, keys=2) == 1
    place_waiting(state)
    assert state.players[0].resources[0] == "psionic" and victim.resources[1] is None
    assert steal_guild_card(BOX, state, 0, 1, "BC13", keys=3) == 1
    assert state.players[0].guild == ["BC13"]
    give_guild(state, 1, "BC22")  # Sworn Guardians, raid cost 1
    give_guild(state, 1, "BC24")
    with pytest.raises(IllegalAction):
        steal_resource(BOX, state, 0, 1, 0, keys=6)
    with pytest.raises(IllegalAction):
        steal_guild_card(BOX, state, 0, 1, "BC24", keys=6)
    assert steal_guild_card(BOX, state, 0, 1, "BC22", keys=6) == 5
    assert state.court_deck[-1] == "BC22" and "BC22" not in state.players[0].guild
    assert steal_guild_card(BOX, state, 0, 1, "BC24", keys=5) == 3
    with pytest.raises(BadParameter):
        steal_resource(BOX, state, 0, 1, 1, keys=5)
    assert problems(BOX, state) == []


def test_chapter_end_scoring_and_clean_up_ARCS_246_to_251():
    """ARCS-246: markers' ambitions are scored; ARCS-247: Warlord scored -> every Trophy home,
    Tyrant not scored -> Captives stay; ARCS-248/249: ships and agents to supplies, a city to
    the rightmost empty slot of its board; ARCS-250: a resource its slot no longer holds moves
    to an open slot or is discarded; ARCS-251: markers back and the lowest flipped."""
    state = bare()
    state.ambition_boxes["warlord"] = [Marker("A")]
    state.markers_available = [Marker("B"), Marker("C")]
    owner = state.players[1]
    put(state, "5.3", 1, buildings=[("city", False), ("city", False)])
    owner.cities_on_board[2] = False  # the third city out is seat 0's Trophy
    owner.resources = ["fuel", "relic", "material", "weapon", "psionic", None]
    for r in ("fuel", "relic", "material", "weapon", "psionic"):
        state.supply[r] -= 1
    state.players[0].trophies = [Trophy(owner=1, kind="city"), Trophy(owner=1, kind="ship"), Trophy(owner=2, kind="agent")]
    owner.ships -= 1
    state.players[0].captives = [2]
    state.players[2].agents -= 2
    gained, scored = score_chapter(BOX, state)
    assert scored == ["warlord"] and gained == {0: 5, 1: 0, 2: 0} and state.players[0].power == 5
    clean_up(BOX, state, scored)
    place_waiting(state)  # the owner's first listed choice: nothing moved, the covered token dropped
    assert state.players[0].trophies == [] and state.players[0].captives == [2]
    assert owner.cities_on_board == [False, False, True, True, True]
    assert owner.resources == ["fuel", "relic", "material", "weapon", None, None]
    assert state.supply["psionic"] == 5  # no open slot left for it: discarded
    assert [(m.id, m.flipped) for m in state.markers_available] == [("A", False), ("B", False), ("C", True)]
    assert all(v == [] for v in state.ambition_boxes.values())
    assert problems(BOX, state) == []


def test_return_city_with_room_rearranges_ARCS_250():
    """ARCS-250: a covered resource moves to an open empty slot when one is free."""
    state = bare()
    p = state.players[0]
    p.cities_on_board = [False, False, True, True, True]
    p.resources = ["fuel", None, None, "relic", None, None]
    return_city(BOX, state, 0)
    place_waiting(state)
    assert p.cities_on_board == [False, True, True, True, True] and p.resources == ["fuel", "relic", None, None, None, None]


def test_game_end_and_winner_ARCS_252_254():
    """ARCS-252: over at 27/30/33 Power for 4/3/2 players or after chapter 5; ARCS-254: most
    Power wins, a tie goes to the first in turn order from the initiative holder."""
    state = bare()  # 3 players
    state.players[1].power = 29
    assert not game_over(BOX, state)
    state.players[2].power = 30
    assert game_over(BOX, state)
    state.players[1].power = 30
    state.initiative = 2
    assert winner(state) == 2
    state.initiative = 0
    assert winner(state) == 1
    state.players[1].power = state.players[2].power = 3
    state.chapter = 5
    assert game_over(BOX, state)


def test_next_chapter_deal_ARCS_255_257():
    """ARCS-255: all the count's action cards reshuffled, 6 each, the rest face down; ARCS-257:
    the initiative holder keeps it."""
    state = bare()
    holder = state.initiative
    for hand in state.hands:
        state.action_discard.extend(hand)
    state.hands = [[] for _ in state.players]
    deal_chapter(BOX, state)
    assert [len(h) for h in state.hands] == [6, 6, 6] and len(state.action_discard) == 2
    assert state.chapter == 2 and state.initiative == holder
    assert problems(BOX, state) == []
