"""The webhook part of the schema: a seat registers, lists and removes its turn
notifications (the server's side is api/webhooks/). Built by `build_schema` with its
`Rejected` type, and merged into its root types."""
# No `from __future__ import annotations`: strawberry must see real annotation objects.

import enum
from typing import Annotated, Protocol, Union

import strawberry
from graphql import GraphQLError
from strawberry.types import Info

from schema.context import service_of, token_of
from schema.errors import log_refusal
from schema.service import Rejected as ServiceRejected


class WebhookService(Protocol):
    """What the schema calls (api/webhooks/registrations.py implements it); each raises
    `Rejected` for what a client caused."""

    async def register(self, table_id: str, token: str | None, url: str, scope: str = "table"): ...

    async def list(self, table_id: str, token: str | None) -> list: ...

    async def remove(self, table_id: str, token: str | None, registration_id: str) -> str: ...


def webhooks_of(info: Info) -> WebhookService:
    return service_of(info).webhooks


@strawberry.enum(description="What a webhook hears of: the seat's own table, or its seat in every game of "
                             "the table's campaign (and each next game's start)")
class WebhookScope(enum.Enum):
    TABLE = "table"
    CAMPAIGN = "campaign"


@strawberry.type(description="A seat's webhook: the server POSTs a signed notice to `url` when the seat has a "
                             "new decision, when the game ends and when the campaign's next game starts")
class Webhook:
    id: str
    url: str
    scope: WebhookScope
    seat: int
    table_id: str | None
    campaign_id: str | None
    created_at: str


def webhook(reg) -> Webhook:
    return Webhook(id=reg.id, url=reg.url, scope=WebhookScope.TABLE if reg.table_id else WebhookScope.CAMPAIGN,
                   seat=reg.seat, table_id=reg.table_id, campaign_id=reg.campaign_id,
                   created_at=reg.created_at.isoformat())


@strawberry.type
class WebhookRegistered:
    webhook: Webhook
    secret: str = strawberry.field(description="Shown once: the HMAC-SHA256 key of the deliveries' signatures "
                                               "(README, Turn notifications)")


@strawberry.type
class WebhookRemoved:
    id: str


def root_types(Rejected: type) -> tuple[type, type]:
    """(Query part, Mutation part) for `strawberry.tools.merge_types`."""
    RegisterWebhookResult = Annotated[Union[WebhookRegistered, Rejected], strawberry.union("RegisterWebhookResult")]
    RemoveWebhookResult = Annotated[Union[WebhookRemoved, Rejected], strawberry.union("RemoveWebhookResult")]

    def refused(exc: ServiceRejected, field: str):
        log_refusal(exc.code, field, exc.message)
        return Rejected(code=exc.code, message=exc.message)

    @strawberry.type
    class WebhookQuery:
        @strawberry.field(description="This seat's webhooks (its token as Bearer): for the table, and for its "
                                      "campaign as this seat")
        async def webhooks(self, info: Info, table_id: str) -> list[Webhook]:
            try:
                return [webhook(r) for r in await webhooks_of(info).list(table_id, token_of(info))]
            except ServiceRejected as exc:
                raise GraphQLError(exc.message, extensions={"code": exc.code}) from None

    @strawberry.type
    class WebhookMutation:
        @strawberry.mutation(description="A seat (its token as Bearer) registers a webhook; the URL's host must "
                                         "resolve to addresses the operator allows (else WEBHOOK_ADDRESS_REFUSED)")
        async def register_webhook(self, info: Info, table_id: str, url: str,
                                   scope: WebhookScope = WebhookScope.TABLE) -> RegisterWebhookResult:
            try:
                reg, secret = await webhooks_of(info).register(table_id, token_of(info), url, scope.value)
            except ServiceRejected as exc:
                return refused(exc, "registerWebhook")
            return WebhookRegistered(webhook=webhook(reg), secret=secret)

        @strawberry.mutation(description="A seat removes one of its webhooks (what it had still to send is dropped)")
        async def remove_webhook(self, info: Info, table_id: str, id: str) -> RemoveWebhookResult:
            try:
                return WebhookRemoved(id=await webhooks_of(info).remove(table_id, token_of(info), id))
            except ServiceRejected as exc:
                return refused(exc, "removeWebhook")

    return WebhookQuery, WebhookMutation
