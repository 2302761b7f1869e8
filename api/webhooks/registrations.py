"""What a seat's token may do with webhooks: register one for its table or its campaign,
list its own, remove its own. Never another seat's: a registration belongs to a seat of a
table (or to a seat number of a campaign), and only a token holding that seat reaches it -
another's is UNKNOWN_WEBHOOK, as if it did not exist."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

from api.db import WebhookRegistration
from api.webhooks import outbox
from api.webhooks.addresses import resolve
from api.webhooks.signing import new_secret
from schema.service import Rejected

if TYPE_CHECKING:
    from api.service import TableService
    from api.webhooks.dispatcher import Webhooks

MAX_PER_SEAT = 5
SCOPES = ("table", "campaign")


@dataclass(frozen=True)
class SeatOf:
    table_id: str
    campaign_id: str | None
    seat: int


class Registrations:
    def __init__(self, service: "TableService", webhooks: "Webhooks") -> None:
        self.service, self.webhooks, self.db = service, webhooks, webhooks.db

    async def seat_of(self, table_id: str, token: str | None) -> SeatOf:
        """The seat this token holds at this table, else a typed refusal."""
        loaded = await self.service.load(table_id, fresh=False)  # UNKNOWN_TABLE first
        owner = await self.service.owner(token)
        if owner is None:
            raise Rejected("UNAUTHORIZED", "webhooks need a seat token (Authorization: Bearer …)")
        if owner[0] != table_id or owner[1] is None:
            raise Rejected("FORBIDDEN", "this token does not hold a seat at this table")
        return SeatOf(table_id, loaded.meta.get("campaign_id"), owner[1])

    async def register(self, table_id: str, token: str | None, url: str,
                       scope: str = "table") -> tuple[WebhookRegistration, str]:
        """(the registration, its signing secret - shown this once). The URL's host must
        resolve to allowed addresses only (WEBHOOK_ADDRESS_REFUSED); the seat's open
        decisions are queued for it at once."""
        seat = await self.seat_of(table_id, token)
        if scope not in SCOPES:
            raise Rejected("BAD_SCOPE", f"a webhook's scope is one of {', '.join(SCOPES)}")
        if scope == "campaign" and not seat.campaign_id:
            raise Rejected("NO_CAMPAIGN", f"table {table_id} is not a campaign's game")
        await resolve(url, self.webhooks.allow)
        mine = await self.list(table_id, token)
        if len(mine) >= MAX_PER_SEAT:
            raise Rejected("WEBHOOK_LIMIT", f"a seat has at most {MAX_PER_SEAT} webhooks; remove one first")
        secret = new_secret()
        reg = WebhookRegistration(id="wh_" + uuid.uuid4().hex[:16], seat=seat.seat, url=url, secret=secret,
                                  table_id=table_id if scope == "table" else None,
                                  campaign_id=seat.campaign_id if scope == "campaign" else None)
        await self.db.write(lambda s: s.add(reg))
        await self.webhooks.queue_current(reg)
        return reg, secret

    async def list(self, table_id: str, token: str | None) -> list[WebhookRegistration]:
        seat = await self.seat_of(table_id, token)
        return await self.db.read(lambda s: outbox.owned(s, seat.table_id, seat.campaign_id, seat.seat))

    async def remove(self, table_id: str, token: str | None, registration_id: str) -> str:
        mine = {r.id for r in await self.list(table_id, token)}
        if registration_id not in mine:
            raise Rejected("UNKNOWN_WEBHOOK", f"this seat has no webhook {str(registration_id)[:40]!r}")
        await self.db.write(lambda s: outbox.remove(s, registration_id))
        return registration_id
