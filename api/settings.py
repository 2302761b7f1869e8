"""Server settings, read once from the environment."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from core.content import PackSetting, parse_pack_settings


def _int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def _float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value else default


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = None
    database_url: str = "sqlite:///conclave.sqlite3"
    redis_prefix: str = "conclave"
    max_query_depth: int = 12
    max_aliases: int = 30
    max_tokens: int = 4000
    max_body_bytes: int = 64 * 1024
    max_cost: int = 2000  # schema/cost.py: weighted fields, list multipliers, checked before validation
    max_repeated_fields: int = 10  # one response key at most this often in one selection set
    refusal_penalty: int = 100  # a request refused for its cost counts as this many at the address rate
    rate_per_second: float = 100.0   # per token, sustained
    rate_burst: int = 200
    address_rate_per_second: float = 1000.0  # per client address (many players share a NAT)
    address_burst: int = 2000
    creates_per_minute: float = 10.0  # createTable per client address, sustained
    create_burst: int = 20
    open_tables_per_address: int = 10  # tables not yet full nor finished, per creating address
    unjoined_ttl_seconds: int = 1800  # a table nobody has joined expires from the live store
    request_read_timeout: float = 10.0  # seconds for a request's headers and body to arrive
    finished_ttl_seconds: int = 3600  # finished tables expire from Redis after archiving
    log_json: bool = True
    log_level: str = "info"  # "debug" adds a line per accepted action
    sse_keepalive_seconds: float = 15.0  # a comment on every quiet event stream this often (api/sse.py)
    sse_streams_per_token: int = 100  # open event streams at once, per bearer token
    sse_streams_per_address: int = 1000  # and per client address
    lean_paths: bool = True  # api.fast_http and schema.streaming skip strawberry's per-request pipeline
    # A creator who chooses the seed knows every shuffle in advance: only for tests and
    # tournaments (CONCLAVE_ALLOW_CHOSEN_SEEDS=1), and such a table says so publicly.
    allow_chosen_seeds: bool = False
    # the operator's content packs, beside those plugins register (tables choose one by name)
    content_packs: tuple[PackSetting, ...] = ()
    # Turn notifications (api/webhooks/): which addresses a webhook may reach, after DNS
    # resolution - comma-separated networks (CIDR) and/or "public" (any globally routable
    # address); loopback only by default, so no registration can reach a private network.
    webhook_allow: str = "127.0.0.0/8,::1/128"
    webhook_retry_seconds: float = 5.0  # the first retry's delay; it doubles per failed attempt
    webhook_max_delay: float = 3600.0  # ... up to this
    webhook_max_attempts: int = 12  # then the delivery is given up (status "failed")
    webhook_timeout: float = 5.0  # seconds for a receiver to answer one POST
    webhook_lease_seconds: float = 30.0  # a claimed delivery whose sender died is claimed again after this
    webhook_poll_seconds: float = 0.5  # how often a process looks for due deliveries (others' too)
    # api/persisted.py: automatic persisted queries, one LRU per process (0 entries = off)
    persisted_query_cache: int = 1000
    persisted_query_cache_chars: int = 4_000_000  # the texts' total length, whatever their number
    persisted_query_allowlist: str | None = None  # a file of documents or hashes: only those run
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_env(cls) -> "Settings":
        return cls(
            redis_url=os.environ.get("REDIS_URL") or None,
            database_url=os.environ.get("DATABASE_URL") or "sqlite:///conclave.sqlite3",
            redis_prefix=os.environ.get("CONCLAVE_REDIS_PREFIX", "conclave"),
            max_query_depth=_int("CONCLAVE_MAX_QUERY_DEPTH", 12),
            max_aliases=_int("CONCLAVE_MAX_ALIASES", 30),
            max_tokens=_int("CONCLAVE_MAX_TOKENS", 4000),
            max_body_bytes=_int("CONCLAVE_MAX_BODY_BYTES", 64 * 1024),
            max_cost=_int("CONCLAVE_MAX_COST", 2000),
            max_repeated_fields=_int("CONCLAVE_MAX_REPEATED_FIELDS", 10),
            refusal_penalty=_int("CONCLAVE_REFUSAL_PENALTY", 100),
            rate_per_second=_float("CONCLAVE_RATE_PER_SECOND", 100.0),
            rate_burst=_int("CONCLAVE_RATE_BURST", 200),
            address_rate_per_second=_float("CONCLAVE_ADDRESS_RATE_PER_SECOND", 1000.0),
            address_burst=_int("CONCLAVE_ADDRESS_BURST", 2000),
            creates_per_minute=_float("CONCLAVE_CREATES_PER_MINUTE", 10.0),
            create_burst=_int("CONCLAVE_CREATE_BURST", 20),
            open_tables_per_address=_int("CONCLAVE_OPEN_TABLES_PER_ADDRESS", 10),
            unjoined_ttl_seconds=_int("CONCLAVE_UNJOINED_TTL", 1800),
            request_read_timeout=_float("CONCLAVE_REQUEST_READ_TIMEOUT", 10.0),
            finished_ttl_seconds=_int("CONCLAVE_FINISHED_TTL", 3600),
            log_json=os.environ.get("CONCLAVE_LOG_FORMAT", "json") == "json",
            log_level=os.environ.get("CONCLAVE_LOG_LEVEL", "info").lower(),
            sse_keepalive_seconds=_float("CONCLAVE_SSE_KEEPALIVE", 15.0),
            sse_streams_per_token=_int("CONCLAVE_SSE_STREAMS_PER_TOKEN", 100),
            sse_streams_per_address=_int("CONCLAVE_SSE_STREAMS_PER_ADDRESS", 1000),
            lean_paths=os.environ.get("CONCLAVE_LEAN_PATHS", "1") != "0",
            allow_chosen_seeds=os.environ.get("CONCLAVE_ALLOW_CHOSEN_SEEDS", "0") == "1",
            content_packs=parse_pack_settings(os.environ.get("CONCLAVE_CONTENT_PACKS", "")),
            webhook_allow=os.environ.get("CONCLAVE_WEBHOOK_ALLOW", "127.0.0.0/8,::1/128"),
            webhook_retry_seconds=_float("CONCLAVE_WEBHOOK_RETRY_SECONDS", 5.0),
            webhook_max_delay=_float("CONCLAVE_WEBHOOK_MAX_DELAY", 3600.0),
            webhook_max_attempts=_int("CONCLAVE_WEBHOOK_MAX_ATTEMPTS", 12),
            webhook_timeout=_float("CONCLAVE_WEBHOOK_TIMEOUT", 5.0),
            webhook_lease_seconds=_float("CONCLAVE_WEBHOOK_LEASE_SECONDS", 30.0),
            webhook_poll_seconds=_float("CONCLAVE_WEBHOOK_POLL_SECONDS", 0.5),
            persisted_query_cache=_int("CONCLAVE_PERSISTED_QUERY_CACHE", 1000),
            persisted_query_cache_chars=_int("CONCLAVE_PERSISTED_QUERY_CACHE_CHARS", 4_000_000),
            persisted_query_allowlist=os.environ.get("CONCLAVE_PERSISTED_QUERY_ALLOWLIST") or None,
        )
