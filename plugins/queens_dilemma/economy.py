"""The Queen's Dilemma: paying Resources.

A forced payment (an effect makes a player lose Resources) may be paid in part or not at all:
each unit not paid is 1 Infamy (QD-277). A deliberate cost (Investment, Agenda, Pass Action,
Skill) must be paid in full or the action cannot be taken (QD-278). Whenever Resources are
spent, 2 Gold may stand in for 1 of any other Resource (QD-280), forced payments included
(QD-281 reading). Power is not a Resource.
"""
from __future__ import annotations

from itertools import islice

import msgspec

from core.decisions import DecisionTable
from core.errors import BadParameter
from core.flow import Ctx, StepTable
from core.seats import seat_name
from plugins.queens_dilemma.voting import RESOURCES

steps = StepTable("qde")
decisions = DecisionTable("qde")
GOLD_PER_UNIT = 2


def can_afford(resources: dict[str, int], cost: dict[str, int]) -> bool:
    """A deliberate cost: every unit paid, in kind or with 2 Gold per missing unit."""
    gold = resources.get("gold", 0) - cost.get("gold", 0)
    if gold < 0:
        return False
    missing = sum(max(0, n - resources.get(r, 0)) for r, n in cost.items() if r != "gold")
    return missing * GOLD_PER_UNIT <= gold


class ForcedPayment(msgspec.Struct, gc=False, forbid_unknown_fields=True):
    """How a forced loss is met: units paid in kind, Gold paid (2 per unit), units as Infamy."""

    resource: int
    gold: int
    infamy: int


def forced_payments(resources: dict[str, int], resource: str, amount: int):
    """Every way to meet a forced loss of `amount` `resource`: some in kind, some as Gold
    pairs (not for Gold itself), the rest as Infamy; fewest in kind first, then fewest pairs."""
    have = resources.get(resource, 0)
    gold = resources.get("gold", 0) if resource != "gold" else 0
    for in_kind in range(min(have, amount) + 1):
        for pairs in range(min(gold // GOLD_PER_UNIT, amount - in_kind) + 1):
            yield {"resource": in_kind, "gold": pairs * GOLD_PER_UNIT, "infamy": amount - in_kind - pairs}


@decisions.kind("forced_payment", answer="pay", params=ForcedPayment)
def forced_payment(state, seat: int, prompt, answer: ForcedPayment) -> None:
    """The parts add up to the loss; in kind and Gold no more than held (QD-277, QD-280, QD-281)."""
    resource, amount = prompt.args["resource"], prompt.args["amount"]
    held = state.councilors[seat].resources
    if min(answer.resource, answer.gold, answer.infamy) < 0:
        raise BadParameter("pay: no part of a payment is negative")
    if answer.gold % GOLD_PER_UNIT or (resource == "gold" and answer.gold):
        raise BadParameter(f"pay: Gold stands in {GOLD_PER_UNIT} for 1, and never for Gold itself")
    if answer.resource + answer.gold // GOLD_PER_UNIT + answer.infamy != amount:
        raise BadParameter(f"pay: the parts must add up to the {amount} {resource} lost")
    if answer.resource > held.get(resource, 0) or answer.gold > held.get("gold", 0):
        raise BadParameter(f"pay: {seat_name(seat)} does not hold that much {resource} or Gold")


@forced_payment.candidates
def _forced_payments(state, seat: int, prompt):
    yield from forced_payments(state.councilors[seat].resources, prompt.args["resource"], prompt.args["amount"])


@steps("forced")
def forced(ctx: Ctx, seat: int, resource: str, amount: int, reason: str = "") -> None:
    """Ask the player how to meet a forced loss (a forced choice is taken at once)."""
    assert resource in RESOURCES
    c = ctx.state.councilors[seat]
    ways = list(islice(forced_payments(c.resources, resource, amount), 2))
    if len(ways) == 1:
        paid(ctx, seat, ForcedPayment(**ways[0]), resource=resource, amount=amount)
        return
    ctx.prompt(seat, "forced_payment", [], paid, decision="qde.forced_payment",
               text=f"Lose {amount} {resource} ({reason}): pay, use 2 Gold per unit, or take Infamy",
               resource=resource, amount=amount)


@steps("paid")
def paid(ctx: Ctx, seat: int, params: ForcedPayment, resource: str, amount: int) -> None:
    c = ctx.state.councilors[seat]
    c.resources[resource] -= params.resource
    c.resources["gold"] -= params.gold
    c.infamy += params.infamy
    ctx.emit("forced_payment", seat=seat, resource=resource, amount=amount, paid=params.resource,
             gold=params.gold, infamy=params.infamy)


def tax(resources: dict[str, int], taxed: str) -> int:
    """End-of-game taxes: discard half of the taxed Resource, rounded up (5 -> 2 left,
    1 -> 0 left); none held, none paid; never Infamy, never Gold in its place (QD-253..257).
    Returns the amount discarded (the dict is changed in place)."""
    held = resources.get(taxed, 0)
    due = (held + 1) // 2
    resources[taxed] = held - due
    return due


def spend(resources: dict[str, int], cost: dict[str, int]) -> bool:
    """A deliberate cost (QD-278): paid in full or not at all, in kind first, then 2 Gold per
    missing unit (QD-280). Returns whether it was paid (the dict is changed only then)."""
    if not can_afford(resources, cost):
        return False
    for r, n in cost.items():
        own = min(resources.get(r, 0), n)
        resources[r] -= own
        if r != "gold":
            resources["gold"] -= GOLD_PER_UNIT * (n - own)
    return True


def investment(resources: dict[str, int], kind: str, bag: int, pay: bool) -> str:
    """An Investment of `kind` costs the Timeline's Bag value in that Resource (2 Gold per
    missing unit allowed), paid in full or not at all, never as Infamy: returns "success"
    when paid, "failure" otherwise (QD-241..245)."""
    return "success" if pay and spend(resources, {kind: bag}) else "failure"
