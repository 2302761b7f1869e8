"""Extension points The Queen's New Capital offers its modules (added with `add_hookspecs`).

Each fires inside a phase, at the moment the rulebook's modules act. `ctx` is the running
`core.flow.Ctx`; implementations may push steps or open prompts.
"""
from __future__ import annotations

from core.hookspecs import hookspec


@hookspec
def new_capital_after_development_draw(ctx) -> None:
    """Round Anatomy step 2: every player has drawn 6 cards, no card is played yet
    (Guildmasters deal the first player two cards here)."""


@hookspec
def new_capital_before_crisis_reveal(ctx) -> None:
    """Round Anatomy step 17, right before step 18 reveals the next Crisis card
    (Dilemmas reveal and vote here). Not fired in the final round."""


@hookspec
def new_capital_leader_recruited(ctx, seat: int, leader: str, column: int, slot: int) -> None:
    """A leader was placed in `seat`'s province (after any alignment bonus)."""


@hookspec
def new_capital_recruit_options(state, seat: int) -> list:
    """Extra leaders `seat` may recruit besides the common pool (e.g. Faction Heroes):
    return a list of leader ids."""


@hookspec
def new_capital_refresh(ctx) -> None:
    """Refresh phase, after the new Crisis card and the board-action reset, before the die
    passes (solo mode's extra Scout)."""


@hookspec
def new_capital_effect_blocked(state, seat: int, effect: dict, source: str) -> bool:
    """Return True to cancel `effect` (a Guildmaster restriction). Never consulted for
    crisis rewards (`source == "reward"`) or track bonuses (`source == "track"`), which
    no effect may block (FAQ)."""


@hookspec
def new_capital_modifiers(state) -> list:
    """Rule changes in force now, as `(modifier_id, modifier)` pairs where `modifier` is a
    `content.Modifier` as plain data (an active Guildmaster, a lasting Dilemma outcome).
    The game applies them at its own extension points (see `content.Modifier`)."""


@hookspec
def new_capital_leader_taken(ctx, seat: int, card: str) -> None:
    """A leader offered by `new_capital_recruit_options` (not from the common pool) was
    recruited: the module takes it out of its own stack."""
