"""Seeded randomness kept inside the table state.

The generator is splitmix64: its whole state is one 64-bit integer, so it serialises
with the table, copies for free, and replaying the same actions from the same seed
draws the same numbers. (Python's `random.Random` state is 625 words: too heavy to
copy on every action.)
"""
from __future__ import annotations

MASK64 = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """Mix a user seed into a well-spread initial state."""
    _, state = next_u64((seed * 0x9E3779B97F4A7C15) & MASK64)
    return state


def next_u64(state: int) -> tuple[int, int]:
    """Return (random 64-bit value, next state)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31), state


class Rng:
    """A view of the RNG state of one table; writes the advanced state back on each draw."""

    __slots__ = ("_holder",)

    def __init__(self, holder) -> None:
        # `holder` is any object with an int attribute `rng` (the table state).
        self._holder = holder

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) (Lemire's multiply-shift; bias below 2**-50 here)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        value, self._holder.rng = next_u64(self._holder.rng)
        return (value * n) >> 64

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi]."""
        return lo + self.below(hi - lo + 1)

    def choice(self, items):
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
