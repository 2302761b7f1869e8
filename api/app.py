"""The Starlette application: GraphQL (HTTP, Server-Sent Events, WebSocket), health, readiness, metrics."""
from __future__ import annotations

import contextlib
import gc
import json
import logging
import os
from pathlib import Path

import msgspec

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from cross_web import HTTPException
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.schema.exceptions import InvalidOperationTypeError
from strawberry.extensions import AddValidationRules, MaxAliasesLimiter, MaxTokensLimiter, ParserCache, QueryDepthLimiter
from strawberry.subscriptions import GRAPHQL_SSE_PROTOCOL, GRAPHQL_TRANSPORT_WS_PROTOCOL, GRAPHQL_WS_PROTOCOL

from api import logs
from api.graphiql import assets_route, offline_page
from api.db import Database
from api.fast_http import FastGraphQLHTTP
from schema.prepared import DocumentCache
from api.limits import LimitsMiddleware
from api.metrics import METRICS, RequestMetrics, watch_gc
from api.persisted import NO_STORE, PersistedQueries, PersistedQueryError, load_allow_list, without_persisted
from api.persisted_ws import PersistedTransportWSHandler, PersistedWSHandler
from api.referee import Referee
from api.service import TableService
from api.settings import Settings
from api.sse import StreamLimits, sse_transport
from api.auth import is_refused, refused_over_http, rejection_payload
from api.refusals import refuse
from api.tokens import bearer
from api.webhooks.dispatcher import Webhooks
from api.webhooks.registrations import Registrations
from api.client_views import client_view_routes
from core.plugins import Registry, default_registry
from schema.build import build_schema
from schema.context import from_connection_params
from schema.cost import CostLimits
from schema.validation import BoundedValidation, Verdicts
from schema.errors import UNAVAILABLE, UNAVAILABLE_TYPES, coded_rule

log = logging.getLogger("conclave.app")
PLAY_DIR = Path(__file__).resolve().parent / "static" / "play"  # the reference web client (no build step)


def make_store(settings: Settings, db: Database):
    if settings.redis_url:
        from api.live.redis_store import RedisStore

        return RedisStore(settings.redis_url, settings.redis_prefix, on_error=lambda exc: METRICS.redis_errors.inc(),
                          unjoined_ttl=settings.unjoined_ttl_seconds or None)
    from api.live.memory import MemoryStore

    return MemoryStore(db, unjoined_ttl=settings.unjoined_ttl_seconds or None)


def limit_rules(settings: Settings) -> list:
    """The depth and alias limits as validation rules, built once and shared: a rule class
    built per request would miss the validation cache every time (its key includes the
    rules), and re-validating is most of a small request's cost."""
    depth = QueryDepthLimiter(max_depth=settings.max_query_depth)
    aliases = MaxAliasesLimiter(max_alias_count=settings.max_aliases)
    return [*(coded_rule(rule, "QUERY_TOO_DEEP") for rule in depth.validation_rules),
            *(coded_rule(rule, "TOO_MANY_ALIASES") for rule in aliases.validation_rules)]


def verdicts_for(settings: Settings) -> Verdicts:
    return Verdicts(CostLimits(max_cost=settings.max_cost, max_repeats=settings.max_repeated_fields))


def schema_extensions(settings: Settings, rules: list | None = None, verdicts: Verdicts | None = None) -> list:
    """Strawberry's own limits and parser cache, and validation behind the cost limit
    (schema/validation.py). The parser cache is small: it holds whole documents by their
    text (13 KB of tokens is megabytes of AST), and the lean paths have their own."""
    rules = limit_rules(settings) if rules is None else rules
    verdicts = verdicts_for(settings) if verdicts is None else verdicts
    return [  # factories: strawberry builds a fresh extension object per request
        lambda: AddValidationRules(rules),
        lambda: MaxTokensLimiter(max_token_count=settings.max_tokens),
        lambda: ParserCache(maxsize=32),
        lambda: BoundedValidation(verdicts, settings.refusal_penalty),
    ]


def tune_gc() -> None:
    """Long-lived server: move start-up objects out of the collector's way, collect the young
    generation rarely and the older ones more rarely still. Under load most tracked objects a
    young collection finds alive are each table's newest state (until its next action) and
    in-flight requests and deliveries, so a collection's cost barely depends on how many
    objects were allocated since the last one: fewer collections cost less. Measured with
    benchmarks/api_load.py (200 tables x 5 subscribers, GC time from /metrics): (5000, 5,
    1000) spent 0.25 ms of CPU per action in the collector (0.16 of it in generation 1);
    (100000, 50, 1000) 0.06 ms; the collector off entirely, 0 (for comparison only: cycles
    would never be freed). CONCLAVE_GC=default | tuned | threshold:a,b,c chooses."""
    watch_gc()
    mode = os.environ.get("CONCLAVE_GC", "tuned")
    if mode == "default":
        return
    gc.collect()
    gc.freeze()
    if mode == "tuned":
        gc.set_threshold(100_000, 50, 1_000)
    elif mode.startswith("threshold:"):
        gc.set_threshold(*(int(x) for x in mode.split(":", 1)[1].split(",")))


class ConclaveGraphQL(GraphQL):
    graphql_transport_ws_handler_class = PersistedTransportWSHandler
    graphql_ws_handler_class = PersistedWSHandler

    def __init__(self, schema, holder: dict, persisted: PersistedQueries | None = None,
                 sse_keepalive: float = 15.0, **kw) -> None:
        # graphql-sse (api/sse.py) beside the two WebSocket protocols, with our keep-alive
        self.stream_transport_classes_by_protocol = {**self.stream_transport_classes_by_protocol,
                                                     GRAPHQL_SSE_PROTOCOL: sse_transport(sse_keepalive)}
        super().__init__(schema, subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL, GRAPHQL_WS_PROTOCOL,
                                                         GRAPHQL_SSE_PROTOCOL), **kw)
        self.holder = holder
        self.persisted = persisted or PersistedQueries()  # api/persisted.py: hashes to texts, the allow-list
        self._ide_html = offline_page()

    async def render_graphql_ide(self, request):
        """GraphiQL with its assets from this server (api/graphiql.py), never a CDN."""
        return HTMLResponse(self._ide_html)

    async def __call__(self, scope, receive, send):
        """HTTP as strawberry's view, but every refusal is a JSON error body with a code, and a
        token that names nobody is refused (api/auth.py)."""
        if scope["type"] != "http":
            return await super().__call__(scope, receive, send)
        request = Request(scope=scope, receive=receive)
        if await refused_over_http(self.holder["service"], bearer(request.headers.get("authorization")), send):
            return
        try:
            response = await self.run(request)
        except HTTPException as exc:
            return await refuse(send, exc.status_code, exc.reason)
        except PersistedQueryError as exc:
            return await refuse(send, exc.status, exc.message, exc.code, NO_STORE if exc.status == 200 else ())
        await response(scope, receive, send)

    async def execute_single(self, request, request_adapter, sub_response, context, root_value, request_data):
        """A mutation over GET - its text sent, or its persisted hash - is refused with 405,
        as GraphQL-over-HTTP says (strawberry says 400), and never executed."""
        try:
            return await super().execute_single(request, request_adapter, sub_response, context, root_value,
                                                request_data)
        except HTTPException as exc:
            if request_adapter.method == "GET" and isinstance(exc.__cause__, InvalidOperationTypeError):
                raise HTTPException(405, exc.reason) from exc.__cause__
            raise

    def should_render_graphql_ide(self, request) -> bool:
        """Not for a GET that carries a persisted query's hash and no text: Apollo clients
        send `Accept: */*`, which strawberry takes for a browser asking for GraphiQL."""
        return "extensions" not in request.query_params and super().should_render_graphql_ide(request)

    async def parse_http_body(self, request):
        """Strawberry's request data (GET's query parameters, POST's body) with a persisted
        query's hash resolved to its text, or refused (api/persisted.py). GET still runs
        queries only: strawberry refuses a mutation over GET once its text is known."""
        data = await super().parse_http_body(request)
        for item in data if isinstance(data, list) else (data,):
            item.query = self.persisted.resolve(item.query, item.extensions)
            item.extensions = without_persisted(item.extensions)
        return data

    def parse_json(self, data):
        """A request body must be a JSON object (or a batch, which the view refuses itself)."""
        parsed = super().parse_json(data)
        if not isinstance(parsed, (dict, list)):
            raise HTTPException(400, "a GraphQL request must be a JSON object")
        return parsed

    async def on_ws_connect(self, context):
        """`connection_init` with a token that names nobody is refused (close 4403 in
        graphql-transport-ws, `connection_error` in graphql-ws)."""
        token = context.get("token") or from_connection_params(context.get("connection_params"))
        try:
            refused = await is_refused(self.holder["service"], token)
        except UNAVAILABLE_TYPES:  # the token cannot be looked up now: refused, saying why
            raise ConnectionRejectionError(rejection_payload(UNAVAILABLE)) from None
        if refused:
            raise ConnectionRejectionError(rejection_payload())
        return await super().on_ws_connect(context)

    def decode_json(self, data):
        """A body that is not UTF-8 is a bad request (400), like malformed JSON, not a 500."""
        if isinstance(data, bytes):
            try:
                data = data.decode("utf-8")
            except UnicodeDecodeError:
                raise json.JSONDecodeError("request body is not UTF-8", "", 0) from None
        return json.loads(data)

    def encode_json(self, data) -> str:
        """msgspec encodes responses and subscription messages several times faster than json
        (text, not bytes: the WebSocket protocols carry JSON in text frames)."""
        return msgspec.json.encode(data).decode()

    async def get_context(self, request, response=None):
        return {"request": request, "response": response, "service": self.holder["service"],
                "token": bearer(request.headers.get("authorization"))}


def create_app(settings: Settings | None = None, registry: Registry | None = None) -> Starlette:
    settings = settings or Settings.from_env()
    registry = registry or default_registry(settings.content_packs)
    logs.configure(settings.log_json, settings.log_level)
    holder: dict = {}

    @contextlib.asynccontextmanager
    async def lifespan(app):
        db = Database(settings.database_url)
        store = make_store(settings, db)
        await store.start()
        holder["service"] = TableService(registry, store, db, settings)
        holder["store"], holder["db"] = store, db
        webhooks = holder["webhooks"] = Webhooks(holder["service"], db, settings)
        holder["service"].listeners.append(webhooks)
        holder["service"].webhooks = Registrations(holder["service"], webhooks)
        archived = await holder["service"].archive_pending()
        if archived:
            log.info("archived finished tables left from before", extra={"tables": archived})
        log.info("started", extra={"live_store": store.name, "database": db.engine.url.get_backend_name()})
        await webhooks.start()
        referee = Referee(holder["service"])  # applies the clocks' timeouts and absent seats' bot moves
        referee.start()
        tune_gc()
        try:
            yield
        finally:
            await referee.close()
            await webhooks.close()
            await holder["service"].close()
            await store.close()
            await db.aclose()

    rules = limit_rules(settings)
    verdicts = verdicts_for(settings)
    schema = build_schema(registry, schema_extensions(settings, rules, verdicts))
    schema.refusal_penalty = settings.refusal_penalty  # an event stream refused for its cost (schema/streaming.py)
    if settings.lean_paths:
        schema.documents = DocumentCache(schema, settings.max_tokens, rules, verdicts)
    persisted = PersistedQueries(
        settings.persisted_query_cache, settings.persisted_query_cache_chars, documents=schema.documents,
        allow=load_allow_list(settings.persisted_query_allowlist) if settings.persisted_query_allowlist else None)
    graphql = ConclaveGraphQL(schema, holder, persisted, sse_keepalive=settings.sse_keepalive_seconds)

    async def healthz(request: Request):
        return JSONResponse({"ok": True})

    async def readyz(request: Request):
        try:
            await holder["store"].ping()
            await holder["db"].ping()
        except Exception as exc:  # not ready: say why
            return JSONResponse({"ready": False, "error": str(exc)}, status_code=503)
        return JSONResponse({"ready": True, "live_store": holder["store"].name})

    async def metrics(request: Request):
        store = holder.get("store")
        if store is not None:
            METRICS.live_tables.set(len(await store.table_ids()))
        return Response(METRICS.render(), media_type="text/plain; version=0.0.4")

    async def home(request: Request):
        return RedirectResponse("/play/")

    routes = [
        Route("/", home),
        Route("/graphql", graphql, methods=["GET", "POST"]),
        WebSocketRoute("/graphql", graphql),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics),
        *client_view_routes(registry),  # before /play: its mount would answer their paths with 404
        Mount("/play", app=StaticFiles(directory=PLAY_DIR, html=True), name="play"),
        assets_route(),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    # innermost: the open event streams are counted once the rate limits let a request in
    app.add_middleware(StreamLimits, per_token=settings.sse_streams_per_token,
                       per_address=settings.sse_streams_per_address)
    if settings.lean_paths:  # within the limits and metrics, before Starlette's routing and the view
        app.add_middleware(FastGraphQLHTTP, schema=schema, holder=holder, documents=schema.documents,
                           penalty=settings.refusal_penalty, persisted=persisted)
    app.add_middleware(LimitsMiddleware, max_body=settings.max_body_bytes,
                       rate=settings.rate_per_second, burst=settings.rate_burst,
                       address_rate=settings.address_rate_per_second, address_burst=settings.address_burst)
    app.add_middleware(RequestMetrics)  # outermost: counts refused requests too
    app.state.holder = holder
    return app
