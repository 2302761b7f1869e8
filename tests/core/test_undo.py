"""Undo (issue 21): a seat takes back its own last action while no other seat has acted
since and the action drew no randomness and revealed nothing hidden; otherwise `undo` is
refused with a typed code and changes nothing. An undo is itself logged, so a replay of a log
with undos rebuilds the engine's state; other seats see it as an event; no view ever holds
the kept state."""
from __future__ import annotations

import random

import pytest

from core.engine import apply, create_table, view, view_events
from core.errors import ActionRejected
from core.state import Action, encode_msgpack
from core.undo import HIDDEN_REVEALED, NOT_YOUR_ACTION, NOTHING_TO_UNDO, RANDOMNESS_DRAWN

UNDO = Action("undo")
GAMES = [("new-capital", 2), ("arcs", 3), ("queens-dilemma", 3)]


def acting_seats(table) -> list[int]:
    return sorted({p.seat for p in table.state.prompts if p.blocking}) or sorted({p.seat for p in table.state.prompts})


def refusal(table, seat) -> str | None:
    """The code `undo` by `seat` is refused with now (None: accepted), judged on the table as is."""
    before = encode_msgpack(table.state)
    try:
        apply(table.rules, table.state, seat, UNDO)
    except ActionRejected as exc:
        assert encode_msgpack(table.state) == before  # a refusal changes nothing
        return exc.code
    assert encode_msgpack(table.state) == before  # neither does an accepted one, on the input
    return None


def test_an_undo_restores_the_state_before_the_action_and_others_see_it():
    table = create_table("new-capital", 2, seed=3)
    rng = random.Random(3)
    restored = 0
    while restored < 5:
        seat = rng.choice(acting_seats(table))
        before = table.state
        table.act(seat, rng.choice(table.legal(seat)))
        if refusal(table, seat) is not None:
            continue
        version = table.state.version
        events = table.act(seat, UNDO)
        assert table.state.version == version + 1  # an undo is a new version, never a rewrite
        after = encode_msgpack(table.state)
        expected = before.__copy__()
        expected.version = version + 1
        expected.undo_point, expected.undo_seat, expected.undo_action = b"", -1, None
        assert after == encode_msgpack(expected)
        for other in range(2):  # every seat sees the undo, and which version it took back
            assert [e["data"] for e in view_events(events, other) if e["type"] == "undo"] == \
                [{"seat": seat, "undone": version}]
        assert refusal(table, seat) == NOTHING_TO_UNDO  # one step back only
        restored += 1


def test_only_the_seat_that_acted_last_may_take_it_back():
    table = create_table("new-capital", 2, seed=3)
    assert refusal(table, 0) == NOTHING_TO_UNDO  # nothing played yet
    seat = acting_seats(table)[0]
    table.act(seat, table.legal(seat)[0])
    assert refusal(table, 1 - seat) == NOT_YOUR_ACTION
    other = 1 - seat
    table.act(other, table.legal(other)[0])  # (the draft: both choose at once)
    assert refusal(table, seat) == NOT_YOUR_ACTION  # another seat has acted since


@pytest.mark.parametrize("game,players", GAMES)
def test_undo_is_refused_after_a_draw_a_shuffle_a_die_or_a_revealed_card(game, players):
    """The events an action caused say what it did; an undo after any of them is refused with
    the code naming why, and an undo after an action with none of them is accepted."""
    chance = {"shuffle", "reshuffle", "roll", "dice", "die_rolled"}
    hidden = {"draw", "reveal", "court_revealed", "drawn"}
    table = create_table(game, players, seed=8)
    rng = random.Random(8)
    seen = {"chance": 0, "hidden": 0, "accepted": 0}
    while not table.state.finished and len(table.log) < 500:
        seat = rng.choice(acting_seats(table))
        events = table.act(seat, rng.choice(table.legal(seat)))
        kinds = {e.type for e in events}
        code = refusal(table, seat)
        if kinds & chance:
            assert code == RANDOMNESS_DRAWN, (kinds, code)
            seen["chance"] += 1
        elif kinds & hidden:
            assert code in (HIDDEN_REVEALED, RANDOMNESS_DRAWN), (kinds, code)
            seen["hidden"] += 1
        elif code is None:
            seen["accepted"] += 1
    assert seen["chance"] and seen["accepted"], seen
    if game != "queens-dilemma":  # its draws are shuffles of the bag: chance
        assert seen["hidden"], seen


@pytest.mark.parametrize("game,players", GAMES)
def test_a_replay_of_a_log_with_undos_gives_the_engines_state(game, players):
    table = create_table(game, players, seed=4)
    rng = random.Random(4)
    undone = 0
    while not table.state.finished and len(table.log) < 400:
        if table.log and rng.random() < 0.35 and refusal(table, table.log[-1][0]) is None:
            table.act(table.log[-1][0], UNDO)
            undone += 1
            continue
        seat = rng.choice(acting_seats(table))
        table.act(seat, rng.choice(table.legal(seat)))
        for viewer in [*range(players), None]:  # the kept state (RNG, every hidden card) is in no view
            assert not {"undo_point", "undo_seat", "undo_action", "rng", "seed"} & set(view(table.rules, table.state, viewer))
    assert undone >= 10
    replay = create_table(game, players, seed=4)
    for seat, action in table.log:
        replay.act(seat, action)
    assert encode_msgpack(replay.state) == encode_msgpack(table.state)
