"""The webhook outbox in SQL: registrations and their deliveries, as the rest of the server's
durable data (SQLModel tables, an Alembic migration). SQL rather than Redis because every
deployment has the SQL database - the embedded default has no Redis - and a delivery must
outlive a restart in both.

- An event is queued with INSERT ... ON CONFLICT DO NOTHING on (registration, event id):
  queued once whoever queues it, however often (several processes, a re-queue at start-up).
- A sender claims a due row with a compare-and-set UPDATE (`lease_until` still in the past);
  only the process whose UPDATE changed the row sends it. A sender that dies mid-send leaves
  a lease that runs out, and the row is claimed again.
Functions here take a SQLModel session (run through `Database.write`/`read`)."""
from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import and_, delete, or_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, select

from api.db import WebhookDelivery, WebhookRegistration, now

CHUNK = 500  # ids per IN list


@dataclass(frozen=True)
class Event:
    """Something a seat is told about. `id` is the same wherever and however often it is
    made: a decision is its table's prompt id, so a decision is one event."""

    id: str
    kind: str  # decision | game_ended | game_started
    table_id: str
    campaign_id: str | None
    seat: int
    version: int


@dataclass(frozen=True)
class Claimed:
    registration_id: str
    event_id: str
    payload: dict
    attempts: int  # this one included
    url: str
    secret: str


def matching(session: Session, table_ids: set[str], campaign_ids: set[str]) -> list[WebhookRegistration]:
    """Registrations for any of these tables or campaigns."""
    out: list[WebhookRegistration] = []
    for ids, column in ((sorted(table_ids), WebhookRegistration.table_id),
                        (sorted(campaign_ids), WebhookRegistration.campaign_id)):
        for i in range(0, len(ids), CHUNK):
            out += session.exec(select(WebhookRegistration).where(column.in_(ids[i:i + CHUNK]))).all()
    return out


def applies(reg: WebhookRegistration, event: Event) -> bool:
    """Whether a registration hears of an event: its own seat, its table or its campaign."""
    if reg.seat != event.seat:
        return False
    if reg.table_id is not None:
        return reg.table_id == event.table_id
    return event.campaign_id is not None and reg.campaign_id == event.campaign_id


def payload(reg: WebhookRegistration, event: Event) -> dict:
    """What the receiver is told: where, whose, when, what kind - never any state (the
    receiver reads the table with the seat's own token)."""
    return {"eventId": event.id, "kind": event.kind, "tableId": event.table_id, "campaignId": event.campaign_id,
            "seat": event.seat, "version": event.version, "registrationId": reg.id}


def queue(session: Session, events: list[Event], registrations: list[WebhookRegistration] | None = None) -> int:
    """Queue each event for each registration it applies to; already queued ones stay as they
    are. Returns how many rows were offered."""
    if registrations is None:
        registrations = matching(session, {e.table_id for e in events},
                                 {e.campaign_id for e in events if e.campaign_id})
    at = time.time()
    rows = [{"registration_id": reg.id, "event_id": e.id, "payload": payload(reg, e), "status": "pending",
             "attempts": 0, "next_at": at, "lease_until": 0.0, "last_error": "", "created_at": now()}
            for e in events for reg in registrations if applies(reg, e)]
    if not rows:
        return 0
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    for i in range(0, len(rows), CHUNK):
        session.execute(dialect.insert(WebhookDelivery).values(rows[i:i + CHUNK]).on_conflict_do_nothing())
    return len(rows)


def claim(session: Session, lease_seconds: float, limit: int) -> list[Claimed]:
    """Claim up to `limit` due deliveries for this process: each row is claimed by one
    compare-and-set UPDATE that only succeeds while its lease is free."""
    at = time.time()
    due = session.exec(select(WebhookDelivery, WebhookRegistration)
                       .join(WebhookRegistration, WebhookRegistration.id == WebhookDelivery.registration_id)
                       .where(WebhookDelivery.status == "pending", WebhookDelivery.next_at <= at,
                              WebhookDelivery.lease_until <= at)
                       .order_by(WebhookDelivery.next_at).limit(limit)).all()
    out = []
    for delivery, reg in due:
        won = session.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.registration_id == delivery.registration_id,
                   WebhookDelivery.event_id == delivery.event_id, WebhookDelivery.status == "pending",
                   WebhookDelivery.lease_until <= at)
            .values(lease_until=at + lease_seconds, attempts=WebhookDelivery.attempts + 1)
            .execution_options(synchronize_session=False)).rowcount
        if won == 1:
            out.append(Claimed(delivery.registration_id, delivery.event_id, delivery.payload, delivery.attempts + 1,
                               reg.url, reg.secret))
    return out


def delivered(session: Session, item: Claimed) -> None:
    session.execute(update(WebhookDelivery)
                    .where(WebhookDelivery.registration_id == item.registration_id,
                           WebhookDelivery.event_id == item.event_id)
                    .values(status="delivered", lease_until=0.0, last_error="", delivered_at=now())
                    .execution_options(synchronize_session=False))


def failed(session: Session, item: Claimed, error: str, retry_at: float | None) -> None:
    """An attempt failed: due again at `retry_at`, or given up (None)."""
    values = {"lease_until": 0.0, "last_error": error[:500]}
    values.update({"status": "failed"} if retry_at is None else {"next_at": retry_at})
    session.execute(update(WebhookDelivery)
                    .where(WebhookDelivery.registration_id == item.registration_id,
                           WebhookDelivery.event_id == item.event_id)
                    .values(**values).execution_options(synchronize_session=False))


def owned(session: Session, table_id: str, campaign_id: str | None, seat: int) -> list[WebhookRegistration]:
    """A seat's registrations: for its table, and for its campaign as that seat."""
    scope = WebhookRegistration.table_id == table_id
    if campaign_id:
        scope = or_(scope, WebhookRegistration.campaign_id == campaign_id)
    return list(session.exec(select(WebhookRegistration).where(and_(scope, WebhookRegistration.seat == seat))
                             .order_by(WebhookRegistration.created_at)).all())


def remove(session: Session, registration_id: str) -> None:
    """A registration and whatever it had still to send."""
    session.execute(delete(WebhookDelivery).where(WebhookDelivery.registration_id == registration_id))
    session.execute(delete(WebhookRegistration).where(WebhookRegistration.id == registration_id))
