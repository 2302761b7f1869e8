"""Seeded RNG and the state document."""
from core.rng import Rng, next_u64, seed_state
from core.bot import RandomBot
from core.engine import apply
from core.state import copy_state, encode_msgpack, encode_state
from core import create_table


class Holder:
    def __init__(self, seed):
        self.rng = seed_state(seed)


def test_same_seed_same_numbers_and_shuffles():
    a, b = Rng(Holder(7)), Rng(Holder(7))
    assert [a.below(100) for _ in range(50)] == [b.below(100) for _ in range(50)]
    xs, ys = list(range(30)), list(range(30))
    a.shuffle(xs)
    b.shuffle(ys)
    assert xs == ys and sorted(xs) == list(range(30)) and xs != list(range(30))


def test_different_seeds_differ_and_values_stay_in_range():
    a, b = Rng(Holder(1)), Rng(Holder(2))
    assert [a.below(1000) for _ in range(10)] != [b.below(1000) for _ in range(10)]
    r = Rng(Holder(3))
    seen = {r.randint(-1, 4) for _ in range(500)}
    assert seen == {-1, 0, 1, 2, 3, 4}


def test_rng_state_is_one_integer_in_the_table_state():
    t = create_table("new-capital", 2, seed=9)
    assert isinstance(t.state.rng, int) and 0 <= t.state.rng < 2**64
    value, nxt = next_u64(t.state.rng)
    assert nxt != t.state.rng


def test_copy_is_deep_and_encoding_canonical():
    t = create_table("new-capital", 3, seed=4)
    c = copy_state(t.state)
    assert encode_state(c) == encode_state(t.state)
    c.players[0].hand.append("x")
    assert "x" not in t.state.players[0].hand


def test_apply_from_the_states_stored_bytes_plays_the_same_game():
    """`apply(..., encoded=)` (the server keeps each state's msgpack bytes) copies from the
    bytes instead of the state: a whole game played both ways is byte-identical, and the
    input state is never modified either way."""
    for game, players, modules in (("new-capital", 4, []), ("queens-dilemma", 3, ["age-of-disorder"])):
        table = create_table(game, players, seed=11, modules=modules)
        plain, stored = table.state, table.state
        bot = RandomBot(11)
        for _ in range(150):
            if plain.finished:
                break
            table.state = plain
            seat, action = bot.choose(table)
            inputs, before = (plain, stored), encode_state(stored)
            plain, _ = apply(table.rules, plain, seat, action)
            stored, _ = apply(table.rules, stored, seat, action, encode_msgpack(stored))
            assert encode_state(stored) == encode_state(plain)
            assert [encode_state(s) for s in inputs] == [before, before]  # the inputs are untouched
