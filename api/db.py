"""SQL storage (SQLModel): campaigns, finished game records with their action logs, and the
embedded mode's checkpoints of live tables. SQLite by default, PostgreSQL via DATABASE_URL;
the schema is created and changed only through Alembic migrations (api/migrations)."""
from __future__ import annotations

import asyncio
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, TypeVar

from sqlalchemy import JSON, BigInteger, Column, LargeBinary, event, false
from sqlalchemy.ext.asyncio import create_async_engine
from sqlmodel import Field, Session, SQLModel, create_engine, select
from sqlmodel.ext.asyncio.session import AsyncSession

T = TypeVar("T")


def now() -> datetime:
    return datetime.now(timezone.utc)


class Campaign(SQLModel, table=True):
    __tablename__ = "campaigns"
    id: str = Field(primary_key=True)
    game: str = Field(index=True)
    name: str = ""
    players: int = 0
    status: str = "active"
    state: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))  # the save tray
    modules: list = Field(default_factory=list, sa_column=Column(JSON, nullable=False, server_default="[]"))
    options: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}"))
    sessions: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # Why its last game's save failed for good ("" when none did): startNextGame answers
    # SAVE_FAILED with it until a save succeeds (api/archive_failures.py)
    save_error: str = Field(default="", sa_column_kwargs={"server_default": ""})
    created_at: datetime = Field(default_factory=now)


class CampaignSeat(SQLModel, table=True):
    __tablename__ = "campaign_seats"
    id: int | None = Field(default=None, primary_key=True)
    campaign_id: str = Field(foreign_key="campaigns.id", index=True)
    seat: int
    name: str = ""
    character: str = ""


class CampaignSave(SQLModel, table=True):
    """One save per finished session: the campaign state written back at the game's end."""

    __tablename__ = "campaign_saves"
    id: int | None = Field(default=None, primary_key=True)
    campaign_id: str = Field(foreign_key="campaigns.id", index=True)
    session: int
    table_id: str = ""
    state: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    saved_at: datetime = Field(default_factory=now)


# Column widths (migration 0004). Seeds are 63-bit (core/seeds.py) and versions count every
# action a table ever took: both are BIGINT, as SQLite's INTEGER already is. Player counts,
# seats and a campaign's sessions are small by the rules (a Queen's Dilemma campaign has 12
# games), and row ids grow with rows, not with any value a client sends: INTEGER.
def _bigint(**kw) -> Column:
    return Column(BigInteger, nullable=False, **kw)


class GameRecord(SQLModel, table=True):
    """A table's creation arguments and result: with its actions, enough to replay it
    (`conclave export` writes it in the format `conclave replay` reads)."""

    __tablename__ = "game_records"
    id: str = Field(primary_key=True)
    game: str = Field(index=True)
    modules: list = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    players: int
    seed: int = Field(sa_column=_bigint())
    seed_commitment: str = Field(default="", sa_column_kwargs={"server_default": ""})
    seed_chosen: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    options: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    campaign_at_start: dict | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    result: dict | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    campaign_id: str | None = Field(default=None, index=True)
    version: int = Field(default=0, sa_column=_bigint())
    created_at: datetime = Field(default_factory=now)
    finished_at: datetime | None = None


class GameAction(SQLModel, table=True):
    __tablename__ = "game_actions"
    game_id: str = Field(primary_key=True, foreign_key="game_records.id")
    version: int = Field(sa_column=_bigint(primary_key=True))
    seat: int
    action: dict = Field(sa_column=Column(JSON, nullable=False))
    at: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))  # the clock's time (ms)


class LiveCheckpoint(SQLModel, table=True):
    """Embedded mode: the latest snapshot of a live table (Redis holds this in Redis mode)."""

    __tablename__ = "live_tables"
    id: str = Field(primary_key=True)
    meta: dict = Field(sa_column=Column(JSON, nullable=False))
    version: int = Field(default=0, sa_column=_bigint())
    state: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    # the version `state` is at (None: `version`); the log has the rest
    state_version: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    finished: bool = False
    updated_at: datetime = Field(default_factory=now)


class LiveLogEntry(SQLModel, table=True):
    """Embedded mode: one accepted action (with its events) of a live table."""

    __tablename__ = "live_log"
    table_id: str = Field(primary_key=True)
    version: int = Field(sa_column=_bigint(primary_key=True))
    entry: dict = Field(sa_column=Column(JSON, nullable=False))


class WebhookRegistration(SQLModel, table=True):
    """A seat's webhook (api/webhooks/): for its table, or for its campaign (its seat in each
    of the campaign's games). The secret signs deliveries, so it is kept as given."""

    __tablename__ = "webhook_registrations"
    id: str = Field(primary_key=True)
    table_id: str | None = Field(default=None, index=True)
    campaign_id: str | None = Field(default=None, index=True)
    seat: int
    url: str
    secret: str
    created_at: datetime = Field(default_factory=now)


class WebhookDelivery(SQLModel, table=True):
    """The outbox: one row per (registration, event id), so an event is delivered once per
    registration however many processes saw it. `lease_until` is the compare-and-set a
    sender claims the row with; `next_at` when it is due (seconds since the epoch)."""

    __tablename__ = "webhook_deliveries"
    registration_id: str = Field(primary_key=True)
    event_id: str = Field(primary_key=True)
    payload: dict = Field(sa_column=Column(JSON, nullable=False))
    status: str = Field(default="pending", index=True)  # pending | delivered | failed
    attempts: int = 0
    next_at: float = Field(default=0.0, index=True)
    lease_until: float = 0.0
    last_error: str = ""
    created_at: datetime = Field(default_factory=now)
    delivered_at: datetime | None = None


MIGRATIONS = Path(__file__).parent / "migrations"


def migrate(url: str) -> None:
    """Bring the database to the newest schema (alembic upgrade head)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    command.upgrade(cfg, "head")


def make_engine(url: str):
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    if url.startswith("sqlite"):
        # timeout: how long a write waits for another process's write lock (this process writes
        # from its event loop, one write at a time)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(conn, _record):  # WAL: readers do not block the writer
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")  # as strict as PostgreSQL
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class Database:
    """A migrated database and short sessions on it. Writes go through `write`."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        # Where a write runs (benchmarks/api_load.py, at 1,000 actions/s). A thread is no place
        # for it: under a busy event loop a thread waits for the GIL after every call that
        # releases it, and holds it in turn. From threads, archiving a game took 2.1 s on
        # SQLite (racing writers also gave up on the file lock, "database is locked"), and on
        # PostgreSQL raised the delivery p99 from 21 to 54 ms.
        # - SQLite: on the event loop, in the caller's turn: a few local calls (an archived
        #   game ~3 ms, an embedded commit's checkpoint ~0.2 ms).
        # - PostgreSQL: on the event loop too, through the async driver (SQLAlchemy's asyncio
        #   extension runs the same session code, awaiting each round trip).
        self._inline = self.engine.url.get_backend_name() == "sqlite"
        self._async: tuple[asyncio.AbstractEventLoop, Any] | None = None  # (loop, AsyncEngine)
        for attempt in range(10):  # several processes may start at once on a new database
            try:
                migrate(str(self.engine.url.render_as_string(hide_password=False)))
                break
            except Exception:
                if attempt == 9:
                    raise
                time.sleep(0.3 * (attempt + 1))

    def session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    async def write(self, fn: Callable[[Session], T]) -> T:
        """`fn(session)` in one transaction, committed when it returns (see __init__ for where)."""
        return await self._run(fn, commit=True)

    async def read(self, fn: Callable[[Session], T]) -> T:
        """`fn(session)` on a session of its own, where writes run, for a request's reads."""
        return await self._run(fn, commit=False)

    async def _run(self, fn: Callable[[Session], T], commit: bool) -> T:
        if self._inline:
            with self.session() as s:
                out = fn(s)
                if commit:
                    s.commit()
                return out
        async with AsyncSession(self._async_engine(), expire_on_commit=False) as s:
            out = await s.run_sync(fn)
            if commit:
                await s.commit()
            return out

    def _async_engine(self):
        """This event loop's async engine (its connections belong to one loop)."""
        loop = asyncio.get_running_loop()
        if self._async is None or self._async[0] is not loop:
            self._async = (loop, create_async_engine(self.engine.url, pool_pre_ping=True))
        return self._async[1]

    async def aclose(self) -> None:
        """Release the connections."""
        if self._async is not None and self._async[0] is asyncio.get_running_loop():
            await self._async[1].dispose()
        self._async = None
        self.engine.dispose()

    def get(self, model, key) -> Any:
        with self.session() as s:
            return s.get(model, key)

    def all(self, statement) -> list:
        with self.session() as s:
            return list(s.exec(statement))

    async def ping(self) -> bool:
        return await self.read(lambda s: s.exec(select(1)).one() == 1)
