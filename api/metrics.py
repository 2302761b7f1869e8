"""Prometheus metrics of one server process (`/metrics`)."""
from __future__ import annotations

import gc
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter("conclave_http_requests", "HTTP requests", ["path", "status"], registry=r)
        self.act_latency = Histogram("conclave_act_seconds", "Time to apply and commit one action",
                                     buckets=(.001, .002, .005, .01, .02, .05, .1, .2, .5, 1), registry=r)
        self.actions = Counter("conclave_actions", "Accepted actions", registry=r)
        self.rejections = Counter("conclave_rejections", "Refused requests", ["code"], registry=r)
        self.tables_created = Counter("conclave_tables_created", "Tables created", registry=r)
        self.webhook_deliveries = Counter("conclave_webhook_deliveries", "Webhook delivery attempts by outcome",
                                          ["outcome"], registry=r)
        self.live_tables = Gauge("conclave_live_tables", "Live tables in the store", registry=r)
        self.subscriptions = Gauge("conclave_open_subscriptions", "Open table subscriptions", registry=r)
        self.sse_streams = Gauge("conclave_open_sse_streams", "Open GraphQL-over-SSE streams (api/sse.py)", registry=r)
        updates = Counter("conclave_subscription_updates", "Subscription updates sent from a table's feed: written "
                          "in the feed's own step (direct) or by the subscription's task (queued)", ["way"],
                          registry=r)
        self.updates_direct, self.updates_queued = updates.labels("direct"), updates.labels("queued")
        self.archive_failures = Counter("conclave_archive_failures", "Failed attempts to archive a finished "
                                        "table to SQL (each is retried)", registry=r)
        self.archive_given_up = Counter("conclave_archive_given_up", "Finished tables whose archive failed for a "
                                        "reason retrying cannot fix (a value too wide for its column, a broken "
                                        "constraint, a schema mismatch): not retried until the next start-up",
                                        ["error"], registry=r)
        self.archive_seconds = Histogram("conclave_archive_seconds", "Time to archive a finished table to SQL",
                                         buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
                                         registry=r)
        self.redis_errors = Counter("conclave_redis_errors", "Redis errors", registry=r)
        self.rate_limited = Counter("conclave_rate_limited", "Requests refused by the rate limit", registry=r)
        self.gc_seconds = Counter("conclave_gc_seconds", "Time in the garbage collector", ["generation"], registry=r)
        self.gc_collections = Counter("conclave_gc_collections", "Garbage collections", ["generation"], registry=r)

    def render(self) -> bytes:
        return generate_latest(self.registry)


METRICS = Metrics()


_gc_started: list[float] = []


def _count_gc(phase: str, info: dict) -> None:
    if phase == "start":
        _gc_started[:] = [time.perf_counter()]
    elif _gc_started:
        generation = str(info["generation"])
        METRICS.gc_seconds.labels(generation).inc(time.perf_counter() - _gc_started[0])
        METRICS.gc_collections.labels(generation).inc()


def watch_gc() -> None:
    """Count the collector's runs and time by generation (`/metrics`): its share of the CPU
    under load decides the GC thresholds (benchmarks/api_load.py reports it). Once per
    process, however many apps it starts."""
    if _count_gc not in gc.callbacks:
        gc.callbacks.append(_count_gc)


class RequestMetrics:
    """ASGI middleware counting HTTP requests by route path and status."""

    KNOWN = {"/graphql", "/healthz", "/readyz", "/metrics"}

    def __init__(self, app) -> None:
        self.app = app
        self._counters: dict = {}  # (path, status) -> its counter; paths are the few KNOWN ones

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope.get("path", "")
        path = path if path in self.KNOWN else "other"
        status = {"code": 500}

        async def counting_send(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        finally:
            key = (path, status["code"])
            counter = self._counters.get(key)
            if counter is None:  # labels() looks the child up under a lock, per request
                counter = self._counters[key] = METRICS.requests.labels(path, str(status["code"]))
            counter.inc()
