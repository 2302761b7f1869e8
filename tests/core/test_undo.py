"""Taking back a misclick (issue 21, core/undo.py), played through the engine: a seat undoes
its own last action unless another seat acted since, or the action drew randomness or
showed some viewer what was hidden from it; every refusal has a typed code and changes
nothing, every viewer sees the undo, and a replay of a log with undos gives the engine's
state. The verdicts are checked against the actions' own events (a roll, a shuffle, a card
turned up), not against the mechanism that judges them."""
from __future__ import annotations

import random

import msgspec
import pytest

from core.bot import RandomBot
from core.engine import Table, create_table, replay, view, view_events
from core.errors import UndoRefused
from core.state import Action, encode_msgpack
from core.undo import NOTHING_TO_UNDO, UNDO_AFTER_CHANCE, UNDO_AFTER_REVEAL, UNDO_NOT_YOURS, refusal

UNDO = Action(type="undo")
GAMES = [("new-capital", 2), ("arcs", 3), ("queens-dilemma", 4)]

# Events that mean the action drew from the table's RNG.
CHANCE = {"roll", "shuffle", "reshuffle"}
# Events that mean the action turned up something hidden before, by game.
REVEALS = {
    "new-capital": {"row"},  # a Structure row refilled from its deck
    "arcs": {"court_revealed", "hand_shown"},
    "queens-dilemma": {"drafted"},  # the Investments passed on show the next seat new cards
}
# Events of actions that only move what everyone sees.
PLAIN = {
    "new-capital": {"bid", "diplomacy", "upgrade_token", "rebellion_removed"},
    "arcs": {"moved", "built", "taxed", "influenced", "declared", "seized", "passed", "spent"},
    "queens-dilemma": {"payment", "vote", "forced_payment"},
}


def fork(table: Table) -> Table:
    """A copy of the table to try an undo on (states are never changed in place)."""
    return Table(rules=table.rules, state=table.state, log=list(table.log), events=table.events,
                 before=table.before, last=table.last)


def state_bytes(state, version: int | None = None) -> bytes:
    data = msgspec.to_builtins(state)
    if version is not None:
        data["version"] = version
    return msgspec.msgpack.encode(data)


def kinds(events) -> set[str]:
    return {e.type for e in events} - {"action"}


def played(game: str, players: int, seed: int, limit: int = 400):
    """(table after each action, acting seat, that action's event kinds) of a random game."""
    table = create_table(game, players, seed=seed)
    bot = RandomBot(seed)
    for _ in range(limit):
        if table.state.finished:
            return
        seat, action = bot.choose(table)
        table.act(seat, action)
        yield table, seat, kinds(table.events)


@pytest.mark.parametrize("game,players", GAMES)
def test_undo_restores_the_state_before_at_the_next_version_and_every_viewer_sees_it(game, players):
    for table, seat, _kinds in played(game, players, seed=21):
        if refusal(table.rules, table.before, table.state, seat, table.last) is None:
            break
    else:
        pytest.fail(f"no action of {game} could be taken back")
    before, version = table.before, table.state.version
    events = table.act(seat, UNDO)
    assert table.state.version == version + 1
    assert state_bytes(table.state) == state_bytes(before, version + 1)  # exactly the earlier state
    for viewer in [*range(players), None]:
        (undo,) = [e for e in view_events(events, viewer) if e["type"] == "undo"]
        assert undo["data"] == {"seat": seat, "undone": version}
    # One step back only: a second undo is refused and changes nothing.
    with pytest.raises(UndoRefused) as refused:
        table.act(seat, UNDO)
    assert refused.value.code == NOTHING_TO_UNDO
    assert table.state.version == version + 1
    # The seat plays on from the restored state.
    assert table.legal(seat) or any(table.legal(s) for s in range(players))


@pytest.mark.parametrize("game,players", GAMES)
def test_only_the_seat_that_acted_last_may_take_it_back(game, players):
    checked = 0
    for table, seat, _kinds in played(game, players, seed=22, limit=60):
        for other in range(players):
            if other == seat:
                continue
            trial = fork(table)
            encoded = encode_msgpack(trial.state)
            with pytest.raises(UndoRefused) as refused:
                trial.act(other, UNDO)
            assert refused.value.code == UNDO_NOT_YOURS
            assert "Seat" in refused.value.message
            assert encode_msgpack(trial.state) == encoded and trial.log == table.log
            checked += 1
    assert checked > 50


def test_nothing_to_take_back_at_the_start_and_after_the_end():
    table = create_table("arcs", 3, seed=4)
    with pytest.raises(UndoRefused) as refused:
        table.act(0, UNDO)
    assert refused.value.code == NOTHING_TO_UNDO
    for table, seat, _kinds in played("new-capital", 1, seed=5, limit=5000):
        pass
    assert table.state.finished
    with pytest.raises(UndoRefused) as refused:
        table.act(seat, UNDO)
    assert refused.value.code == NOTHING_TO_UNDO


@pytest.mark.parametrize("game,players", GAMES)
def test_refused_after_randomness_or_a_reveal_and_accepted_for_plain_moves(game, players):
    """Every action of three random games asks for its take-back: one that rolled or shuffled
    is refused as chance, one that turned up a hidden card as chance or reveal (a refill
    may also reshuffle), one that only moved what everyone sees is accepted."""
    seen = {"chance": 0, "reveal": 0, "plain": 0}
    for seed in (31, 32, 33):
        for table, seat, events in played(game, players, seed=seed):
            trial = fork(table)
            try:
                trial.act(seat, UNDO)
                code = None
            except UndoRefused as exc:
                code = exc.code
                assert trial.state is table.state  # refused: nothing changed
            if events & CHANCE:
                assert code == UNDO_AFTER_CHANCE, (seed, table.state.version, events)
                seen["chance"] += 1
            elif events & REVEALS[game]:
                assert code in (UNDO_AFTER_CHANCE, UNDO_AFTER_REVEAL), (seed, table.state.version, events)
                seen["reveal"] += 1
            elif events and events <= PLAIN[game]:
                assert code is None, (seed, table.state.version, events, code)
                seen["plain"] += 1
    assert all(seen.values()), seen


@pytest.mark.parametrize("game,players", GAMES)
def test_a_replay_of_a_log_with_undos_gives_the_engines_state(game, players):
    table = create_table(game, players, seed=41)
    bot, rng = RandomBot(41), random.Random(41)
    undos = 0
    while not table.state.finished and len(table.log) < 600:
        seat, action = bot.choose(table)
        table.act(seat, action)
        if rng.random() < 0.5 and refusal(table.rules, table.before, table.state, seat, table.last) is None:
            table.act(seat, UNDO)
            undos += 1
    assert undos >= 10, undos
    again = replay(game, players, 41, table.log)
    assert encode_msgpack(again.state) == encode_msgpack(table.state)
    for viewer in [*range(players), None]:
        assert view(again.rules, again.state, viewer) == view(table.rules, table.state, viewer)
