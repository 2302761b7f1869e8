"""Per client address: how fast it may create tables and how many of them may stand open.

Anyone could create tables without limit (2,500 in 4 s over one WebSocket), and the HTTP
rate limits (api/limits.py) never saw WebSocket mutations. The service asks here before
it creates a live table, whatever the transport. Like the rate limits, each server process
counts on its own (behind a load balancer, N processes allow N times the quota); the
address is the ASGI scope's client (behind a proxy, run uvicorn with `--proxy-headers` and
`--forwarded-allow-ips` so that it is the player's, not the proxy's).
"""
from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from api.limits import TokenBucket

PRUNE_EVERY = 1.0  # seconds: a table filled through another process, or expired, may count this long


class QuotaExceeded(Exception):
    """Refused: the message says which quota and its size."""


@dataclass(eq=False)  # slots are told apart by identity: two being opened are two
class Slot:
    """One table this address opened, or is opening (`table_id` None until it exists)."""

    table_id: str | None = None


@dataclass
class CreationQuota:
    per_minute: float
    burst: int
    max_open: int
    opened: dict[str, list[Slot]] = field(default_factory=dict)
    pruned: dict[str, float] = field(default_factory=dict)  # when each address's tables were last read
    max_addresses: int = 100_000

    def __post_init__(self) -> None:
        self.rate = TokenBucket(self.per_minute / 60.0, self.burst)

    async def reserve(self, address: str, is_open: Callable[[str], Awaitable[bool]],
                      seen_closed: Callable[[str], bool]) -> Slot:
        """A slot for one more table from `address`, or `QuotaExceeded`. The caller fills
        the slot with the new table's id, or `release`s it if the table was not created.
        `seen_closed` says from what this process already knows (no read) that a table is
        no longer open; `is_open` reads the store."""
        slots = self.opened.get(address, [])
        now = time.monotonic()
        if len(slots) >= self.max_open:  # seats taken through this process: known without a read
            for slot in list(slots):
                if slot.table_id is not None and seen_closed(slot.table_id):
                    self._forget(address, slot)
            slots = self.opened.get(address, [])
        if len(slots) >= self.max_open and now - self.pruned.get(address, -PRUNE_EVERY) >= PRUNE_EVERY:
            # at the quota: forget tables that filled, finished or expired (a read each, so at
            # most once a PRUNE_EVERY per address: a flood of refused creations reads nothing)
            self.pruned[address] = now
            for slot in list(slots):
                if slot.table_id is not None and not await is_open(slot.table_id):
                    self._forget(address, slot)
            slots = self.opened.get(address, [])
        if len(slots) >= self.max_open:
            raise QuotaExceeded(f"this address already has {len(slots)} open tables (at most {self.max_open}): "
                                "fill or finish one first, or wait for an unjoined one to expire")
        if not self.rate.allow(address):
            raise QuotaExceeded(f"too many tables created from this address (at most {self.per_minute:g} a "
                                f"minute, {self.burst} at once); try again later")
        if address not in self.opened and len(self.opened) >= self.max_addresses:
            self.opened = {a: s for a, s in self.opened.items() if s}  # bound memory: drop the empty
            self.pruned = {a: t for a, t in self.pruned.items() if now - t < PRUNE_EVERY}
        slot = Slot()
        self.opened.setdefault(address, []).append(slot)
        return slot

    def release(self, address: str, slot: Slot) -> None:
        self._forget(address, slot)

    def _forget(self, address: str, slot: Slot) -> None:
        slots = self.opened.get(address)
        if slots is not None and slot in slots:
            slots.remove(slot)
            if not slots:
                del self.opened[address]
