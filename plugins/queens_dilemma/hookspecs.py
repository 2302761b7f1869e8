"""Extension points of The Queen's Dilemma for its modules (and its own Legacy cards)."""
from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("conclave")


@hookspec
def qd_pass_options(state, seat: int, kind: str) -> list:
    """Special Pass Actions (kind "pass_action") or Pass Bonuses ("pass_bonus") open to
    `seat` now, as complete actions. Read-only: a voting turn's typed decision asks it when
    an answer is judged or listed (there is no flow then)."""


@hookspec
def qd_passed(ctx, seat: int, params: dict) -> None:
    """`seat` just passed with `params` (its Pass Action): resolve a special one and offer a
    Pass Bonus (schedule steps; they run before the next voting turn)."""


@hookspec
def qd_campaign_setup(ctx) -> None:
    """The one-time "Before Your First Game" setup is ending (Envelope 00 is scheduled):
    a module adds its content now, the only moment it may (QD-067)."""


@hookspec
def qd_payment_made(ctx, seats: list) -> None:
    """A bargaining payment moved Resources between `seats`: bring any open decision whose
    options depend on a Treasury up to date."""
