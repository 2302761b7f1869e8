"""Turn clocks in the kernel (issue 21, core/clock.py), through real tables: the server's
timestamps charge each seat the time its decisions took (per decision, or from a bank with
an increment), a seat whose time is out may be taken over and may come back, a timeout
before the time is out is refused, and a replay with the same timestamps rebuilds the same
clocks. A table without a clock is exactly what it was."""
from __future__ import annotations

import pytest

from core.bot import RandomBot
from core.clock import KEY, deadline, expired, remaining_ms
from core.engine import active_seats, create_table, replay
from core.errors import BadOption, IllegalAction, UndoRefused
from core.state import Action, encode_msgpack

START, TIMEOUT, RESUME, AWAY = (Action(type=t) for t in ("clock_start", "timeout", "resume", "away"))


def clocked(mode: str, seconds: int, increment: int = 0, game: str = "arcs", players: int = 3):
    table = create_table(game, players, seed=7, options={"clock": mode, "clock_seconds": seconds,
                                                          "clock_increment": increment})
    table.act(0, START, at=1_000)
    return table


def test_a_table_without_a_clock_keeps_no_account_and_clock_options_never_reach_the_game():
    plain = create_table("arcs", 3, seed=7)
    assert KEY not in plain.state.module_state
    timed = create_table("arcs", 3, seed=7, options={"clock": "bank", "clock_seconds": 600})
    assert timed.state.options == plain.state.options  # the game's options only
    with pytest.raises(BadOption):
        create_table("arcs", 3, seed=7, options={"clock": "sometimes"})
    with pytest.raises(BadOption):
        create_table("arcs", 3, seed=7, options={"clock": "move", "clock_seconds": 7})
    with pytest.raises(IllegalAction):
        plain.act(0, START, at=1_000)


def test_per_decision_clock_charges_each_decision_and_starts_afresh():
    table = clocked("move", 10)
    clock = table.state.module_state[KEY]
    seat = active_seats(table.state)[0]
    assert clock["since"][seat] == 1_000 and remaining_ms(clock, seat, 4_000) == 7_000
    assert deadline(table.state) == 11_000
    action = table.legal(seat)[0]
    table.act(seat, action, at=4_000)
    clock = table.state.module_state[KEY]
    for s in active_seats(table.state):  # whoever decides next has the whole 10 s from 4.000
        assert clock["since"][s] == 4_000 and remaining_ms(clock, s, 4_000) == 10_000


def test_bank_clock_keeps_what_is_left_and_adds_the_increment():
    table = clocked("bank", 30, increment=5)
    seat = active_seats(table.state)[0]
    table.act(seat, table.legal(seat)[0], at=4_000)  # 3 s used, 5 s added
    assert table.state.module_state[KEY]["left_ms"][seat] == 32_000


def test_time_out_take_over_and_return():
    table = clocked("move", 10)
    seat = active_seats(table.state)[0]
    with pytest.raises(IllegalAction):
        table.act(seat, TIMEOUT, at=10_999)  # 1 ms early: refused, nothing changed
    assert expired(table.state, 10_999) == [] and expired(table.state, 11_000) == [seat]
    events = table.act(seat, TIMEOUT, at=11_000)
    assert [(e.type, e.data) for e in events] == [("taken_over", {"seat": seat, "by": "bot", "reason": "time"})]
    assert table.state.module_state[KEY]["away"][seat] is True
    assert expired(table.state, 99_000) == [] and deadline(table.state) is None  # a bot plays it now
    with pytest.raises(IllegalAction):
        table.act(seat, TIMEOUT, at=12_000)  # exactly once
    with pytest.raises(UndoRefused) as refused:
        table.act(seat, Action(type="undo"), at=12_000)  # a clock's table action is not the seat's to take back
    assert refused.value.code == "NOTHING_TO_UNDO"
    table.act(seat, RESUME, at=12_000)
    clock = table.state.module_state[KEY]
    assert clock["away"][seat] is False and remaining_ms(clock, seat, 12_000) == 10_000
    with pytest.raises(IllegalAction):
        table.act(seat, RESUME, at=12_500)  # not away any more


def test_a_replay_with_the_same_timestamps_rebuilds_the_same_clocks():
    table = clocked("bank", 120, increment=2, game="new-capital", players=2)
    bot = RandomBot(7)
    at = 1_000
    for _ in range(60):
        if table.state.finished:
            break
        seat, action = bot.choose(table)
        at += 700
        table.act(seat, action, at=at)
    table.act(1, AWAY, at=at + 1)
    again = replay("new-capital", 2, 7, table.log, options={"clock": "bank", "clock_seconds": 120,
                                                            "clock_increment": 2})
    assert encode_msgpack(again.state) == encode_msgpack(table.state)
    left = table.state.module_state[KEY]["left_ms"]
    assert any(v != 120_000 for v in left)  # time was charged
