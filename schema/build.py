"""The GraphQL schema, assembled from the installed game plugins.

Root types are built explicitly and passed to `strawberry.Schema`; per-game typed views
join the `GameState` union from `conclave_graphql_types`. Expected failures are data
(`… | Rejected`), not errors. Every table a client reads is that viewer's view: the seat
whose token it sent, or the public view. The service behind the resolvers arrives through
the GraphQL context (schema/context.py), as the interface schema/service.py declares.
"""
# No `from __future__ import annotations`: the types are built inside build_schema, so
# strawberry must see real annotation objects, not names it cannot resolve.

import time
from typing import Annotated, Any, AsyncIterator, Union

import strawberry
from graphql import GraphQLError
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.scalars import JSON
from strawberry.types import Info

from core import clock
from core.engine import active_seats, prompt_answers, view as core_view, view_events
from core.glossary import strings_in
from core.plugins import Registry
from core.seeds import commitment
from core.table_settings import kernel_options
from schema.context import address_of, service_of, token_of
from schema.cost import DEFAULT_PAGE, MAX_PAGE
from schema import hookspecs
from schema.errors import log_refusal
from schema.execution import FastExecutionContext
from schema.service import Loaded, Rejected as ServiceRejected
from schema.streaming import ConclaveSchema
from schema.webhooks import root_types as webhook_root_types
from strawberry.tools import merge_types

# Where the app serves a plugin's client view folder (api/app.py mounts the same paths).
CLIENT_VIEW_ROOT = "/play/views"


def client_view_url(kind: str, plugin_id: str) -> str:
    """The entry module of a game's ("game") or a module's ("module") client view."""
    return f"{CLIENT_VIEW_ROOT}/{kind}/{plugin_id}/view.js"



def build_schema(registry: Registry, extensions: list | None = None,
                 execution_context_class: type = FastExecutionContext) -> ConclaveSchema:
    registry.add_hookspecs(hookspecs)  # the plugins' GraphQL types are checked against this layer's specs
    contributed: dict[str, tuple[type, Any]] = {}
    for plugin_types in registry.hook.conclave_graphql_types():
        for game_id, gql_type, from_view in plugin_types:
            contributed[game_id] = (gql_type, from_view)

    module_types: dict[str, tuple[type, Any]] = {}
    for plugin_types in registry.hook.conclave_graphql_module_types():
        for module_id, gql_type, from_view in plugin_types:
            module_types[module_id] = (gql_type, from_view)

    @strawberry.type(description="A module without a typed view: its state as JSON.")
    class GenericModuleState:
        module: str
        json: JSON

    ModuleState = Annotated[Union[tuple([t for t, _ in module_types.values()] + [GenericModuleState])],
                            strawberry.union("ModuleState", description="The typed state of an enabled module")]

    @strawberry.type(description="Any game without a typed view: its view as JSON.")
    class GenericState:
        game: str
        json: JSON

    GameState = Annotated[Union[tuple([t for t, _ in contributed.values()] + [GenericState])],
                          strawberry.union("GameState", description="The typed view of a table, per game")]

    @strawberry.type
    class OptionInfo:
        name: str
        default: JSON | None  # null: the game decides (e.g. a recommended Character set)
        choices: list[JSON]
        description: str
        labels: list[str] = strawberry.field(description="A name for people per choice, in the order of `choices` "
                                                         "(empty: show the choices themselves)")
        shape: str = strawberry.field(description="How to offer it: \"\" one of `choices` (free text when there "
                                                  "are none), \"per-seat\" a list with one of `items` per seat, "
                                                  "\"seats\" a set of seat indexes")
        items: list[JSON] = strawberry.field(description="For \"per-seat\": the values each seat may take")
        item_labels: list[str] = strawberry.field(description="A name for people per item, in the order of `items`")

    @strawberry.type
    class ModuleInfo:
        id: str
        game: str
        name: str
        description: str
        min_players: int
        max_players: int
        incompatible_with: list[str]
        discouraged_with: list[str]
        client_view: str | None = strawberry.field(
            description="URL of the ES module adding this module's parts to the reference client's table view")

    @strawberry.type
    class GameInfo:
        id: str
        name: str
        description: str
        min_players: int
        max_players: int
        options: list[OptionInfo]
        modules: list[ModuleInfo]
        client_view: str | None = strawberry.field(
            description="URL of the ES module drawing this game's table in the reference client (null: its generic view)")

    @strawberry.type
    class Phase:
        name: str
        step: str
        round: int

    @strawberry.type
    class SeatInfo:
        seat: int
        name: str | None
        taken: bool

    @strawberry.type(description="One seat's turn clock (core/clock.py)")
    class SeatClock:
        seat: int
        remaining_ms: int
        running: bool
        away: bool = strawberry.field(description="The seat's player is away until they act {type: \"resume\"} "
                                                  "with the seat's token: a server-side bot plays for the seat, "
                                                  "or the game skips it (`skipped`)")
        timed: bool = strawberry.field(description="The table has a clock (false: only the host's away marks; "
                                                   "remainingMs means nothing then)")
        skipped: bool = strawberry.field(description="Away, and skipped as the game's rules treat an absent "
                                                     "player (table setting absent_seats: skip), not played by a bot")

    @strawberry.type(description="A complete action: send `type` and `params` back unchanged as `act`'s action.")
    class LegalAction:
        type: str
        params: JSON

    @strawberry.type
    class PromptInfo:
        id: int
        seat: int
        kind: str
        blocking: bool
        text: str
        options: list[LegalAction] | None = strawberry.field(description="Only for the viewer's own prompts")
        free_text: list[str] = strawberry.field(
            description="Parameters whose value is the player's own words: shown as \"\" in options, any short text accepted")
        decision: str | None = strawberry.field(
            default=None, description="A typed decision's kind: answers are judged by its rules, and options list "
                                      "at most 200 of the acceptable answers")

    def events_glossary(loaded: Loaded, viewer: int | None, view: dict, events: Any) -> dict:
        """Names and texts for the ids these (already redacted) events name: a log line can say
        which card was played even when the card has left every view since. The games judge
        what a viewer may know from its whole view (a Queen's Dilemma Agenda is named to its
        holder only), so they see the view with the events added; only the events' ids are kept."""
        named = strings_in(events)
        out: dict = {}
        for part in loaded.rules.hook.conclave_glossary(state=loaded.state, viewer=viewer,
                                                        view={**view, "__events__": events}):
            out.update({k: v for k, v in (part or {}).items() if k in named})
        return out

    @strawberry.type
    class LogEntry:
        _pool: strawberry.Private[Any]  # () -> the glossary of the whole log read (built once, on first ask)
        version: int
        seat: int
        action: LegalAction | None = strawberry.field(description="Only for the acting seat's own entries")
        events: JSON
        bot: bool = strawberry.field(default=False, description="A server-side bot played it for the seat "
                                                                "(its player away or out of time)")

        @strawberry.field(description="Names and texts for the ids this entry's events and action name: {id: {name, text, kind}}")
        def glossary(self) -> JSON:
            named = strings_in(self.named())
            return {k: v for k, v in self._pool().items() if k in named}

        def named(self) -> list:
            return [self.events, self.action.params if self.action else None]

    def log_entries(entries: list[dict], viewer: int | None, loaded: Loaded, view) -> list[LogEntry]:
        """The entries as `viewer` may read them, sharing one glossary: the games scan the view
        once per log read, not once per entry."""
        pool: dict = {}

        def glossary() -> dict:
            if "all" not in pool:
                pool["all"] = events_glossary(loaded, viewer, view(), [e.named() for e in out])
            return pool["all"]

        out = [log_entry(e, viewer, glossary) for e in entries]
        return out

    def log_entry(e: dict, viewer: int | None, pool) -> LogEntry:
        own = viewer is not None and e["seat"] == viewer
        return LogEntry(_pool=pool, version=e["version"], seat=e["seat"],
                        action=LegalAction(type=e["action"]["type"], params=e["action"].get("params", {})) if own else None,
                        events=view_events(e["events"], viewer), bot=bool(e.get("bot")))

    @strawberry.type
    class Table:
        _t: strawberry.Private[Loaded]
        _viewer: strawberry.Private[int | None]
        _view: strawberry.Private[dict | None] = None

        def _v(self) -> dict:
            if self._view is None:
                self._view = core_view(self._t.rules, self._t.state, self._viewer)
            return self._view

        @strawberry.field
        def id(self) -> str:
            return self._t.id

        @strawberry.field
        def game(self) -> str:
            return self._t.meta["game"]

        @strawberry.field
        def modules(self) -> list[str]:
            return self._t.meta["modules"]

        @strawberry.field(description="Advice on this table's configuration, e.g. modules not recommended together")
        def warnings(self) -> list[str]:
            return self._t.meta.get("warnings", [])

        @strawberry.field
        def status(self) -> str:
            return self._t.status

        @strawberry.field
        def version(self) -> int:
            return self._t.version

        @strawberry.field(description="The seat whose view this is; null for the public view")
        def viewer(self) -> int | None:
            return self._viewer

        @strawberry.field
        def phase(self) -> Phase:
            s = self._t.state
            return Phase(name=s.phase, step=s.step, round=s.round)

        @strawberry.field
        def active_seats(self) -> list[int]:
            return active_seats(self._t.state)

        @strawberry.field
        def seats(self) -> list[SeatInfo]:
            taken = self._t.meta.get("seats", {})
            return [SeatInfo(seat=i, name=(taken[i]["name"] if i in taken else None), taken=i in taken)
                    for i in range(self._t.meta["players"])]

        @strawberry.field
        def prompts(self) -> list[PromptInfo]:
            return [PromptInfo(id=p.id, seat=p.seat, kind=p.kind, blocking=p.blocking, text=p.prompt_text,
                               free_text=list(p.free_text), decision=p.decision or None,
                               options=[LegalAction(type=o.type, params=dict(o.params)) for o in self._answers(p)]
                               if p.seat == self._viewer else None)
                    for p in self._t.state.prompts]

        def _answers(self, prompt) -> list:
            return prompt_answers(self._t.rules, self._t.state, prompt)

        @strawberry.field(description="The viewer's legal actions: exactly the answers to its open prompts")
        def legal_actions(self) -> list[LegalAction]:
            if self._viewer is None:
                return []
            return [LegalAction(type=o.type, params=dict(o.params))
                    for p in self._t.state.prompts if p.seat == self._viewer for o in self._answers(p)]

        @strawberry.field(description="Each seat's turn clock (null: the table has no clock and no seat was ever "
                                      "marked away); remaining time as of this answer, running while the seat has "
                                      "a decision open, away while a bot plays for it or the game skips it")
        def clocks(self) -> list[SeatClock] | None:
            shown = clock.public(clock.account(self._t.state), int(time.time() * 1000))
            return None if shown is None else [SeatClock(**c) for c in shown]

        @strawberry.field(description="Whether the viewer may ask to take back its last action now (act with "
                                      "{type: \"undo\"}): its own, the last one played, drawing no "
                                      "randomness. Whether it showed anyone something hidden is judged when "
                                      "asked (refused with UNDO_AFTER_REVEAL)")
        async def can_undo(self, info: Info) -> bool:
            return await service_of(info).undo_refusal(self._t, self._viewer) is None

        @strawberry.field(description="Why the viewer may not take back its last action now: NOTHING_TO_UNDO, "
                                      "UNDO_NOT_YOURS or UNDO_AFTER_CHANCE; null when it may ask (see canUndo)")
        async def undo_refusal(self, info: Info) -> str | None:
            return await service_of(info).undo_refusal(self._t, self._viewer)

        @strawberry.field
        async def log(self, info: Info, after_version: int = 0) -> list[LogEntry]:
            entries = await service_of(info).log(self._t.id, after_version)
            return log_entries(entries, self._viewer, self._t, self._v)

        @strawberry.field(description="The campaign this table is a game of (startNextGame continues it), if any")
        def campaign_id(self) -> str | None:
            return self._t.meta.get("campaign_id")

        @strawberry.field
        def result(self) -> JSON | None:
            return self._t.state.result

        @strawberry.field(description="SHA-256 hex of \"conclave-seed-v1:<table id>:<seed in decimal>\", shown "
                                      "from the start; `seed` reveals the seed when the game is over")
        def seed_commitment(self) -> str:
            return commitment(self._t.id, self._t.meta["seed"])  # derived, never stored: one hash

        @strawberry.field(description="The table's seed (decimal: it may exceed GraphQL's Int), revealed once the "
                                      "game is over so anyone can check it against seedCommitment and replay the "
                                      "game (conclave replay); null until then")
        def seed(self) -> str | None:
            return str(self._t.meta["seed"]) if self._t.state.finished else None

        @strawberry.field(description="Whether the creator chose the seed (a server allowing it, for tests and "
                                      "tournaments): then they knew every shuffle in advance")
        def seed_chosen_by_creator(self) -> bool:
            return bool(self._t.meta.get("seed_chosen", False))

        @strawberry.field(description="The viewer's whole view of the state, as JSON")
        def state_json(self) -> JSON:
            return self._v()

        @strawberry.field(description="Names and texts for the ids in this viewer's view: {id: {name, text, kind}}")
        def glossary(self) -> JSON:
            out: dict = {}
            for part in self._t.rules.hook.conclave_glossary(state=self._t.state, viewer=self._viewer, view=self._v()):
                out.update(part or {})
            return out

        @strawberry.field(description="The state of each enabled module, as this viewer may see it")
        def module_states(self) -> list[ModuleState]:
            out = []
            for mid, data in self._v().get("module_state", {}).items():
                if mid in module_types:
                    out.append(module_types[mid][1](data))
                else:
                    out.append(GenericModuleState(module=mid, json=data))
            return out

        @strawberry.field
        def state(self) -> GameState:
            game = self._t.meta["game"]
            if game in contributed:
                return contributed[game][1](self._v())
            return GenericState(game=game, json=self._v())

    @strawberry.type
    class Rejected:
        code: str
        message: str

    @strawberry.type
    class ActRejected:
        code: str
        message: str

    @strawberry.type
    class ActOk:
        version: int
        table: Table

    @strawberry.type
    class CreateTableOk:
        table: Table
        host_token: str = strawberry.field(description="Shown once: it reserves seats (inviteSeat)")
        join_code: str = strawberry.field(description="Shown once: players need it (or an invitation) "
                                                      "to take a seat; the host's share link carries it")

    @strawberry.type(description="A seat reserved: its code takes that seat only (shown once)")
    class InviteOk:
        seat: int
        code: str

    @strawberry.type
    class JoinOk:
        seat: int
        seat_token: str
        table: Table

    @strawberry.type
    class TableUpdate:
        version: int
        events: JSON
        table: Table

        @strawberry.field(description="Names and texts for the ids this update's events name: {id: {name, text, kind}}")
        def glossary(self) -> JSON:
            return events_glossary(self.table._t, self.table._viewer, self.table._v(), self.events)

    @strawberry.type(description="A campaign: many games of one group. Its saved state may hold "
                                 "secrets (unopened content), so only standings are public.")
    class CampaignInfo:
        id: str
        game: str
        name: str
        players: int
        status: str
        modules: list[str]
        options: JSON
        sessions: int = strawberry.field(description="Games played to the end and saved")
        standings: JSON
        games: list[str] = strawberry.field(description="Ids of its finished games, oldest first")
        save_error: str | None = strawberry.field(
            default=None, description="Why its last game's save failed for a reason retrying cannot fix (then "
                                      "startNextGame answers SAVE_FAILED); null when no save failed so")

    def campaign_info(svc, c, games) -> CampaignInfo:
        return CampaignInfo(id=c.id, game=c.game, name=c.name, players=c.players, status=c.status,
                            modules=c.modules, options=c.options, sessions=c.sessions,
                            standings=svc.standings(c), games=games, save_error=c.save_error or None)

    @strawberry.input
    class CreateCampaignInput:
        game: str
        players: int
        name: str = ""
        modules: list[str] = strawberry.field(default_factory=list)
        options: JSON | None = None

    @strawberry.type
    class CampaignOk:
        campaign: CampaignInfo

    @strawberry.input
    class CreateTableInput:
        game: str
        players: int
        modules: list[str] = strawberry.field(default_factory=list)
        seed: int | None = strawberry.field(default=None, description="Only where the server allows chosen "
                                                                         "seeds (serverInfo), else SEED_NOT_ALLOWED")
        options: JSON | None = None
        campaign_id: str | None = None

    @strawberry.input
    class ActionInput:
        type: str
        params: JSON | None = None

    CreateTableResult = Annotated[Union[CreateTableOk, Rejected], strawberry.union("CreateTableResult")]
    JoinResult = Annotated[Union[JoinOk, Rejected], strawberry.union("JoinResult")]
    InviteResult = Annotated[Union[InviteOk, Rejected], strawberry.union("InviteResult")]
    ActResult = Annotated[Union[ActOk, ActRejected], strawberry.union("ActResult")]
    CampaignResult = Annotated[Union[CampaignOk, Rejected], strawberry.union("CampaignResult")]

    @strawberry.type(description="One page of tables; pass nextCursor as `after` for the next")
    class TablePage:
        tables: list[Table]
        next_cursor: str | None

    async def tables_page(info: Info, game, status, first: int, after) -> TablePage:
        try:
            found, cursor = await service_of(info).tables_page(game, status, first, after)
        except ServiceRejected as exc:
            raise GraphQLError(exc.message, extensions={"code": exc.code}) from None
        return TablePage(tables=[await table_for(info, t) for t in found], next_cursor=cursor)

    def refused(kind, exc: ServiceRejected, field: str):
        """A refusal as data, and its one log line (schema.errors)."""
        log_refusal(exc.code, field, exc.message)
        return kind(code=exc.code, message=exc.message)

    async def table_for(info: Info, loaded: Loaded) -> Table:
        return Table(_t=loaded, _viewer=await service_of(info).viewer_seat(loaded.id, token_of(info)))

    async def act_on(info, table_id: str, action_type: str, params, expected_version: int | None):
        svc = service_of(info)
        try:
            loaded = await svc.act(table_id, token_of(info), {"type": action_type, "params": params or {}},
                                   expected_version)
        except ServiceRejected as exc:  # (the service counts it)
            return refused(ActRejected, exc, "act")
        return ActOk(version=loaded.version, table=await table_for(info, loaded))

    async def act_as_coerced(_root, info, tableId: str, action: dict, expectedVersion: int | None = None):
        """`Mutation.act` for graphql-core's own call, on its arguments as it coerced them
        (`ActionInput` a dict): strawberry's per-call conversion of the arguments, walking
        their annotations, cost ~50 us of every action (benchmarks/api_load.py)."""
        return await act_on(info, tableId, action["type"], action.get("params"), expectedVersion)

    @strawberry.type(description="How this server is configured, as far as clients need to know")
    class ServerInfo:
        chosen_seeds_allowed: bool = strawberry.field(
            description="Whether createTable and startNextGame accept a chosen seed (else SEED_NOT_ALLOWED)")

    @strawberry.type
    class Query:
        @strawberry.field
        def server_info(self, info: Info) -> ServerInfo:
            return ServerInfo(chosen_seeds_allowed=service_of(info).settings.allow_chosen_seeds)

        @strawberry.field
        def games(self) -> list[GameInfo]:
            out = []
            for g in registry.games.values():
                mods = [ModuleInfo(id=m.id, game=m.game, name=m.name, description=m.description,
                                   min_players=m.min_players, max_players=m.max_players,
                                   incompatible_with=list(m.incompatible_with), discouraged_with=list(m.discouraged_with),
                                   client_view=client_view_url("module", m.id) if m.client_view else None)
                        for m in registry.modules.values() if m.game == g.id]
                opts = [OptionInfo(name=k, default=o.default, choices=list(o.choices), description=o.description,
                                   labels=list(o.labels), shape=o.shape, items=list(o.items),
                                   item_labels=list(o.item_labels))
                        for k, o in {**g.options, **kernel_options(g)}.items()]  # the kernel's: every table
                out.append(GameInfo(id=g.id, name=g.name, description=g.description, min_players=g.min_players,
                                    max_players=g.max_players, options=opts, modules=mods,
                                    client_view=client_view_url("game", g.id) if g.client_view else None))
            return out

        @strawberry.field
        async def table(self, info: Info, id: str) -> Table | None:
            try:
                return await table_for(info, await service_of(info).load(id))
            except ServiceRejected as exc:
                if exc.code == "CONTENT_UNAVAILABLE":  # it exists but cannot be read: say so
                    raise GraphQLError(exc.message, extensions={"code": exc.code}) from None
                return None

        @strawberry.field(description=f"Live tables in id order, one page: `first` (1-{MAX_PAGE}) after the cursor "
                                      "`after` (tablesPage gives the next cursor)")
        async def tables(self, info: Info, game: str | None = None, status: str | None = None,
                         first: int = DEFAULT_PAGE, after: str | None = None) -> list[Table]:
            return (await tables_page(info, game, status, first, after)).tables

        @strawberry.field(description="A page of live tables and the cursor of the next (null: the last page). "
                                      "A page holds at most `first` tables, fewer when a filter skips many.")
        async def tables_page(self, info: Info, game: str | None = None, status: str | None = None,
                              first: int = DEFAULT_PAGE, after: str | None = None) -> TablePage:
            return await tables_page(info, game, status, first, after)

        @strawberry.field
        async def campaign(self, info: Info, id: str) -> CampaignInfo | None:
            found = await service_of(info).campaign(id)
            if found is None:
                return None
            return campaign_info(service_of(info), *found)

    @strawberry.type
    class Mutation:
        @strawberry.mutation
        async def create_table(self, info: Info, input: CreateTableInput) -> CreateTableResult:
            svc = service_of(info)
            try:
                async with svc.creating(address_of(info)) as slot:
                    loaded, host, code = await svc.create_table(
                        input.game, input.players, seed=input.seed, modules=input.modules,
                        options=input.options, campaign_id=input.campaign_id)
                    if slot is not None:
                        slot.table_id = loaded.id
            except ServiceRejected as exc:
                return refused(Rejected, exc, "createTable")
            return CreateTableOk(table=Table(_t=loaded, _viewer=None), host_token=host, join_code=code)

        @strawberry.mutation(description="Start a campaign (its first game: startNextGame)")
        async def create_campaign(self, info: Info, input: CreateCampaignInput) -> CampaignResult:
            svc = service_of(info)
            try:
                c = await svc.create_campaign(input.game, input.players, input.name, input.modules, input.options)
            except ServiceRejected as exc:
                return refused(Rejected, exc, "createCampaign")
            return CampaignOk(campaign=campaign_info(svc, c, []))

        @strawberry.mutation(description="Create the campaign's next game as a live table, with the saved state loaded")
        async def start_next_game(self, info: Info, campaign_id: str, seed: int | None = None,
                                  modules: list[str] | None = None) -> CreateTableResult:
            """`modules` changes the campaign's modules, allowed only before its first game."""
            svc = service_of(info)
            try:
                async with svc.creating(address_of(info)) as slot:
                    loaded, host, code = await svc.start_next_game(campaign_id, seed, modules=modules)
                    if slot is not None:
                        slot.table_id = loaded.id
            except ServiceRejected as exc:
                return refused(Rejected, exc, "startNextGame")
            return CreateTableOk(table=Table(_t=loaded, _viewer=None), host_token=host, join_code=code)

        @strawberry.mutation(description="Take a seat with the table's join code, or with that seat's invitation")
        async def join_table(self, info: Info, table_id: str, seat: int, name: str = "",
                             code: str | None = None) -> JoinResult:
            try:
                token, loaded = await service_of(info).join(table_id, seat, name, code)
            except ServiceRejected as exc:
                return refused(Rejected, exc, "joinTable")
            return JoinOk(seat=seat, seat_token=token, table=Table(_t=loaded, _viewer=seat))

        @strawberry.mutation(description="The host (its token as Bearer) reserves a free seat: the code returned "
                                         "takes that seat only, and the join code no longer does")
        async def invite_seat(self, info: Info, table_id: str, seat: int) -> InviteResult:
            try:
                code = await service_of(info).invite(table_id, token_of(info), seat)
            except ServiceRejected as exc:
                return Rejected(code=exc.code, message=exc.message)
            return InviteOk(seat=seat, code=code)

        @strawberry.mutation
        async def act(self, info: Info, table_id: str, action: ActionInput,
                      expected_version: int | None = None) -> ActResult:
            return await act_on(info, table_id, action.type, action.params, expected_version)

        @strawberry.mutation(description="The host (its token as Bearer) marks a seat absent: a server-side bot "
                                         "plays for it, or the game skips it where the table's absent_seats "
                                         "setting asks and the rules allow, until its player acts "
                                         "{type: \"resume\"}")
        async def mark_absent(self, info: Info, table_id: str, seat: int) -> ActResult:
            svc = service_of(info)
            try:
                loaded = await svc.mark_away(table_id, token_of(info), seat)
            except ServiceRejected as exc:
                return refused(ActRejected, exc, "markAbsent")
            return ActOk(version=loaded.version, table=await table_for(info, loaded))

    @strawberry.type
    class Subscription:
        @strawberry.subscription
        async def table_updates(self, info: Info, table_id: str, after_version: int = 0) -> AsyncIterator[TableUpdate]:
            svc = service_of(info)
            await svc.load(table_id, fresh=False)  # an unknown table is refused before the stream starts
            viewer = await svc.viewer_seat(table_id, token_of(info))

            def update(entry: dict, loaded: Loaded) -> TableUpdate:
                return TableUpdate(version=entry["version"], events=view_events(entry["events"], viewer),
                                   table=Table(_t=loaded, _viewer=viewer))

            return svc.updates(table_id, after_version, update)

    WebhookQuery, WebhookMutation = webhook_root_types(Rejected)
    Query = merge_types("Query", (Query, WebhookQuery))
    Mutation = merge_types("Mutation", (Mutation, WebhookMutation))
    schema = ConclaveSchema(query=Query, mutation=Mutation, subscription=Subscription,
                            extensions=extensions or [], execution_context_class=execution_context_class)
    resolve_as_coerced(schema, "act", act_as_coerced)
    return schema


def resolve_as_coerced(schema: ConclaveSchema, mutation: str, resolver) -> None:
    """Let graphql-core call `resolver` for a mutation field directly, past strawberry's
    wrapper, when the field has nothing for that wrapper to do (no field extensions, no
    permission classes): `resolver` then takes the arguments as graphql-core coerces them."""
    field = schema._schema.mutation_type.fields[mutation]  # its GraphQL name
    definition = field.extensions[GraphQLCoreConverter.DEFINITION_BACKREF]
    if not definition.extensions and not definition.permission_classes:
        field.resolve = resolver
