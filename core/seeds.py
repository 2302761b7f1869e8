"""Table seeds: drawn from a cryptographic source, committed to publicly, revealed at the end.

Whoever knows a table's seed knows every shuffle and draw in advance (the kernel's RNG is
seeded splitmix64, `core/rng.py`), so the server draws it with `secrets` and keeps it out of
every view. So that players can still check the dealing afterwards, each table shows from
its creation a commitment to its seed, and reveals the seed when the game is over:

    commitment = SHA-256 hex of the UTF-8 string  "conclave-seed-v1:" + table_id + ":" + decimal seed

`conclave replay` recomputes it. Seeds fit a signed 64-bit column (SQL BIGINT): 63 bits.
Pure functions beside the RNG they seed: the schema shows the commitment, the service
archives it and the CLI checks it, none of them through another.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

SEED_BITS = 63
SEED_MAX = (1 << SEED_BITS) - 1
COMMITMENT_PREFIX = "conclave-seed-v1:"


def draw_seed() -> int:
    """A fresh seed from the operating system's cryptographic source."""
    return secrets.randbits(SEED_BITS)


def commitment(table_id: str, seed: int) -> str:
    """The public commitment to a table's seed (the module docstring gives the string)."""
    return hashlib.sha256(f"{COMMITMENT_PREFIX}{table_id}:{seed}".encode()).hexdigest()


def matches(table_id: str, seed: int, claimed: str) -> bool:
    """Whether a revealed seed is the one `claimed` committed to."""
    return hmac.compare_digest(commitment(table_id, seed), claimed.lower())


def seed_problem(seed: object) -> str | None:
    """Why a chosen seed cannot be stored and replayed (None: it can)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        return f"a seed is a whole number, not {type(seed).__name__}"
    if not 0 <= seed <= SEED_MAX:
        return f"a seed is between 0 and {SEED_MAX} (2^63 - 1), not {seed}"
    return None
