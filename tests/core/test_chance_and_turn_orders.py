"""Dice, shuffles and picks announce themselves as public events and replay identically;
turn orders are plain functions of the table."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from core.chance import pick, roll, shuffle
from core.engine import view_events
from core.flow import Ctx
from core.rng import seed_state
from core.state import TableState
from core.turn_order import by_key, clockwise, counter_clockwise, next_around, next_in, next_lap

DICE = {"skirmish": ["hit", "hit", "hit", "", "", ""], "raid": ["2key+int", "key+self", "key+bhit", "bhit+self",
                                                             "bhit+self", "int"]}


def ctx(seed: int) -> Ctx:
    return Ctx(TableState(game="t", rng=seed_state(seed)), SimpleNamespace())


def test_dice_are_seeded_public_events():
    a, b = ctx(4), ctx(4)
    got = roll(a, 1, DICE, ["skirmish", "skirmish", "raid"], why="battle")
    assert got == roll(b, 1, DICE, ["skirmish", "skirmish", "raid"], why="battle")
    (event,) = a.events
    assert event.to is None and event.type == "roll" and event.data["seat"] == 1
    assert [d["shows"] for d in event.data["dice"]] == [DICE[k][f] for k, f in got]
    for viewer in (None, 0, 1):
        assert view_events(a.events, viewer)[0]["data"]["dice"] == event.data["dice"]
    faces = {f for seed in range(60) for _, f in roll(ctx(seed), 0, DICE, ["raid"])}
    assert faces == set(range(6))


def test_shuffles_say_what_and_how_many_never_the_order():
    c = ctx(9)
    deck = list(range(20))
    shuffle(c, deck, "action deck")
    assert sorted(deck) == list(range(20)) and deck != list(range(20))
    assert c.events[0].data == {"what": "action deck", "count": 20}
    assert pick(c, ["a", "b", "c"], "setup card") in "abc" and c.events[1].type == "random_pick"


def test_turn_orders():
    assert clockwise(2, 4) == [2, 3, 0, 1]
    assert clockwise(2, 4, skip=[3]) == [2, 0, 1]
    assert counter_clockwise(0, 4) == [0, 3, 2, 1]
    hegemony = {0: 5, 1: 2, 2: 5, 3: 1}
    assert by_key(range(4), hegemony.get) == [3, 1, 0, 2]
    assert by_key(range(4), hegemony.get, tie=lambda s: -s) == [3, 1, 2, 0]
    order = clockwise(1, 4)
    assert next_in(order, 1) == 2 and next_in(order, 0) is None
    seized = clockwise(3, 4)  # the initiative seized mid-round: the order is asked again
    assert next_in(seized, 3) == 0


def test_round_and_round_until_every_seat_passed():
    order = clockwise(2, 4)  # [2, 3, 0, 1]
    assert next_around(order, None, {0, 3}) == 3  # from the start seat, the first able one
    assert next_around(order, 3, {0, 3}) == 0
    assert next_around(order, 0, {0, 3}) == 3  # wraps past the start seat
    assert next_around(order, 1, {1}) == 1  # a lone able seat acts again
    assert next_around(order, 1, set()) is None  # everyone passed: the round is over
    walked, seat, able = [], None, {0, 1, 2, 3}
    while (seat := next_around(order, seat, able)) is not None:  # each passes on its second turn
        walked.append(seat)
        if walked.count(seat) == 2:
            able.discard(seat)
    assert walked == [2, 3, 0, 1, 2, 3, 0, 1]
    seized = clockwise(0, 4)  # the order asked again: the next seat follows the new order
    assert next_around(seized, 1, {0, 2}) == 2


def test_several_laps_of_an_order():
    order = clockwise(1, 3)  # [1, 2, 0]
    turns, cur = [], next_lap(order, None, 0, 2)
    while cur is not None:
        turns.append(cur)
        cur = next_lap(order, cur[0], cur[1], 2)
    assert turns == [(1, 1), (2, 1), (0, 1), (1, 2), (2, 2), (0, 2)]
    assert next_lap(order, None, 0, 0) is None and next_lap([], None, 0, 3) is None


def test_a_secret_pick_shows_what_was_picked_only_to_its_seats():
    c = ctx(5)
    got = pick(c, ["x", "y", "z"], "agenda", to=[2])
    (event,) = c.events
    assert view_events(c.events, 2)[0]["data"]["picked"] == got
    for viewer in (None, 0, 1):
        assert view_events(c.events, viewer)[0]["data"] == {"what": "agenda", "count": 3}


@pytest.mark.parametrize("game, players, modules", [
    ("new-capital", 4, ["guildmasters", "faction-heroes", "dilemmas"]),
    ("new-capital", 1, []),
    ("queens-dilemma", 5, ["age-of-disorder"]),
])
def test_every_random_draw_of_the_games_goes_through_core_chance(monkeypatch, game, players, modules):
    """The games draw no randomness of their own: every value the table's RNG gives comes
    through core.chance, so every die, shuffle and pick is announced as an event."""
    import sys

    from core import rng as rng_module
    from core.bot import play_game

    draws, outside = [0], []
    below = rng_module.Rng.below

    def watched(self, n):
        frame = sys._getframe(1)
        while frame.f_code.co_filename.endswith("core/rng.py"):
            frame = frame.f_back  # shuffle/choice inside the RNG itself: look at their caller
        draws[0] += 1
        if not frame.f_code.co_filename.endswith("core/chance.py"):
            outside.append(f"{frame.f_code.co_filename}:{frame.f_lineno}")
        return below(self, n)

    monkeypatch.setattr(rng_module.Rng, "below", watched)
    play_game(game, players, seed=7, modules=modules)
    assert draws[0] > 0 and outside == []
