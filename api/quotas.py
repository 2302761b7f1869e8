"""Per client address: how fast it may create tables and how many of them may stand open.

Anyone could create tables without limit (2,500 in 4 s over one WebSocket), and the HTTP
rate limits (api/limits.py) never saw WebSocket mutations. The service asks here before
it creates a live table, whatever the transport. Like the rate limits, each server process
counts on its own (behind a load balancer, N processes allow N times the quota); the
address is the ASGI scope's client (behind a proxy, run uvicorn with `--proxy-headers` and
`--forwarded-allow-ips` so that it is the player's, not the proxy's).
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from api.limits import TokenBucket


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
    max_addresses: int = 100_000

    def __post_init__(self) -> None:
        self.rate = TokenBucket(self.per_minute / 60.0, self.burst)

    async def reserve(self, address: str, is_open: Callable[[str], Awaitable[bool]]) -> Slot:
        """A slot for one more table from `address`, or `QuotaExceeded`. The caller fills
        the slot with the new table's id, or `release`s it if the table was not created."""
        for slot in list(self.opened.get(address, ())):  # forget tables that filled, finished or expired
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
