"""The Queen's Dilemma: paying Resources.

A forced payment (an effect makes a player lose Resources) may be paid in part or not at all:
each unit not paid is 1 Infamy (QD-277). A deliberate cost (Investment, Agenda, Pass Action,
Skill) must be paid in full or the action cannot be taken (QD-278). Whenever Resources are
spent, 2 Gold may stand in for 1 of any other Resource (QD-280), forced payments included
(QD-281 reading). Power is not a Resource.
"""
from __future__ import annotations

from core.flow import Ctx, StepTable
from core.state import Action
from plugins.queens_dilemma.voting import RESOURCES

steps = StepTable("qde")
GOLD_PER_UNIT = 2


def can_afford(resources: dict[str, int], cost: dict[str, int]) -> bool:
    """A deliberate cost: every unit paid, in kind or with 2 Gold per missing unit."""
    gold = resources.get("gold", 0) - cost.get("gold", 0)
    if gold < 0:
        return False
    missing = sum(max(0, n - resources.get(r, 0)) for r, n in cost.items() if r != "gold")
    return missing * GOLD_PER_UNIT <= gold


def forced_payment_options(resources: dict[str, int], resource: str, amount: int) -> list[Action]:
    """Every way to meet a forced loss of `amount` `resource`: some in kind, some as Gold
    pairs (not for Gold itself), the rest as Infamy."""
    have = resources.get(resource, 0)
    gold = resources.get("gold", 0) if resource != "gold" else 0
    out = []
    for in_kind in range(min(have, amount) + 1):
        for pairs in range(min(gold // GOLD_PER_UNIT, amount - in_kind) + 1):
            out.append(Action("pay", {"resource": in_kind, "gold": pairs * GOLD_PER_UNIT,
                                      "infamy": amount - in_kind - pairs}))
    return out


@steps("forced")
def forced(ctx: Ctx, seat: int, resource: str, amount: int, reason: str = "") -> None:
    """Ask the player how to meet a forced loss (a forced choice is taken at once)."""
    assert resource in RESOURCES
    c = ctx.state.councilors[seat]
    ctx.ask(seat, "forced_payment", forced_payment_options(c.resources, resource, amount), "qde.paid",
            text=f"Lose {amount} {resource} ({reason}): pay, use 2 Gold per unit, or take Infamy",
            resource=resource, amount=amount)


@steps("paid")
def paid(ctx: Ctx, seat: int, params: dict, resource: str, amount: int) -> None:
    c = ctx.state.councilors[seat]
    c.resources[resource] -= params["resource"]
    c.resources["gold"] -= params["gold"]
    c.infamy += params["infamy"]
    ctx.emit("forced_payment", seat=seat, resource=resource, amount=amount, paid=params["resource"],
             gold=params["gold"], infamy=params["infamy"])


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
