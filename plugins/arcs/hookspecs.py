"""Arcs' own extension points for its modules (`GameSpec.hookspecs`).

Setup protocol: the game lays out the map and the Court, then calls `arcs_setup_steps`
(modules push steps, e.g. the Leaders & Lore draft; they run before the game's own
starting-piece steps), then for each seat asks `arcs_place_starting_pieces` and places
the standard pieces itself unless a module answered True.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from core.hookspecs import hookspec

if TYPE_CHECKING:
    from core.flow import Ctx


@hookspec
def arcs_setup_steps(ctx: Ctx) -> None:
    """After the map and the Court are set up, before starting pieces are placed: push the
    module's setup steps (they run before the game's placement steps)."""


@hookspec(firstresult=True)
def arcs_place_starting_pieces(ctx: Ctx, seat: int) -> bool:
    """Place `seat`'s starting pieces and resources; return True when this module did, so
    the game does not place the standard ones. First True wins."""


# -- games built on the Arcs rules (the campaign): cards that are not base action cards ----
# The base rules ask these only for a card outside the base action deck (`plays.is_action_card`),
# so a base game never pays for them.
@hookspec(firstresult=True)
def arcs_follow_kinds(state, seat: int, card: str) -> list[str] | None:
    """How a card that is not a base action card may follow the lead (e.g. ["event"]); an
    empty list: it may not follow."""


@hookspec(firstresult=True)
def arcs_may_lead(state, seat: int, card: str) -> bool | None:
    """Whether a card that is not a base action card may be led."""


@hookspec(firstresult=True)
def arcs_may_seize_with(state, seat: int, card: str) -> bool | None:
    """Whether a card that is not a base action card may go face down to seize."""


@hookspec(firstresult=True)
def arcs_play_buys(state, seat: int, kind: str, card: str) -> tuple[int, list[str]] | None:
    """(actions, from which list) a play of such a card buys."""


@hookspec
def arcs_round_end(ctx: Ctx) -> None:
    """After the initiative check and the discard of a round: push what the round's end
    resolves (the campaign's events); it runs before the next round starts."""


@hookspec(firstresult=True)
def arcs_game_over(state) -> bool | None:
    """After a chapter's clean-up: whether the game ends now (None: the base rule)."""


@hookspec(firstresult=True)
def arcs_result(ctx: Ctx) -> dict | None:
    """The finished game's result (None: the base game's most-Power winner)."""


@hookspec(firstresult=True)
def arcs_take_court_card(ctx: Ctx, seat: int, card: str, rivals_to: str) -> bool | None:
    """A seat takes `card` from the Court (secure or ransack): return True when the game
    handled the whole take itself (the campaign's Imperial Council)."""


@hookspec(firstresult=True)
def arcs_chapter_deal(ctx: Ctx) -> bool | None:
    """Deal the next chapter's hands (after the clean-up, `state.chapter` not yet advanced):
    return True when the game dealt them itself."""


@hookspec(firstresult=True)
def arcs_mulligan(ctx: Ctx, seat: int) -> bool | None:
    """2 players, a chapter's start: offer `seat` (the player without initiative) the
    mulligan the game's own way; return True when it did."""


@hookspec
def arcs_chapter_scoring(ctx: Ctx) -> None:
    """A chapter's end, before the ambitions' Power is added (what a game reads of the
    scoring as it stands: the campaign's objectives)."""


@hookspec
def arcs_chapter_scored(ctx: Ctx) -> None:
    """A chapter's end, after the ambitions' Power is added and before the clean-up; what it
    pushes runs first."""


@hookspec(firstresult=True)
def arcs_game_ending(ctx: Ctx) -> bool | None:
    """The game is over by `arcs_game_over`: return True when the game runs its own ending
    steps (and finishes the table itself), instead of the base result."""


# -- the Founder (campaign Fate FATE02): an ambition scored its own way --
@hookspec(firstresult=True)
def arcs_ambition_gains(state, ambition: str, gains: dict[int, int]) -> dict[int, int] | None:
    """A chapter's end: one ambition's Power per seat as the base rules (and the Leaders) score
    it. Return what a game's own rule gives instead (the campaign's Commonwealth ambition);
    None keeps them."""


# -- the Partisan (campaign Fate FATE06): seizing by Provoking Outrage --
@hookspec(firstresult=True)
def arcs_seize_offer(ctx: Ctx, seat: int) -> bool | None:
    """`seat` just played a card and may seize (it lacks the initiative, nobody seized this
    round): offer the seize the game's own way (e.g. Provoking Outrage instead of a second card
    face down); True when it did, so the base offer is not made. Asked before the seat's hand
    is looked at: such a seize may need no card."""
