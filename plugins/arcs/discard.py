"""Where played action cards go, and how cards are drawn back from the action discard.

By default every played card goes face down onto one pile (ARCS-108, ARCS-111), so nobody
can look back through it. With the Split Discard variant (table option `split_discard`,
ARCS-283) the cards played face up go onto a public pile of their own (`action_discard_up`)
and only the face-down ones (Copies, seize cards) onto the secret pile; effects that draw
"from the action discard" draw from the face-down pile, the two piles shuffled together
first when it holds too few. Both piles go back into the deck at the chapter's deal.

Order convention (shared with court_ops): index 0 is the top, the end is the bottom.
"""
from __future__ import annotations

from core import chance
from plugins.arcs.plays import hand_id
from plugins.arcs.state import ArcsState


def split_discard(state: ArcsState) -> bool:
    return bool(state.options.get("split_discard", False))


def discard_round(state: ArcsState) -> None:
    """Round end (ARCS-108): the round's face-up plays and face-down cards onto the pile(s),
    on top."""
    face_up = [hand_id(p.card) for p in state.plays if p.card]  # a side played: its card
    facedown = [hand_id(c) for c in state.facedown]
    if split_discard(state):
        state.action_discard_up[:0] = face_up
        state.action_discard[:0] = facedown
    else:
        state.action_discard[:0] = face_up + facedown


def take_back(state: ArcsState, card: str) -> None:
    """Take one played card back out of whichever discard pile it went to (a Union's card)."""
    for pile in (state.action_discard, state.action_discard_up):
        if card in pile:
            pile.remove(card)
            return


def draw_bottom(rolls, state: ArcsState, count: int) -> list[str]:
    """Draw up to `count` cards from the bottom of the face-down pile. With Split Discard, a
    face-down pile smaller than `count` first takes the face-up pile and is shuffled
    (`rolls`: the Ctx, or the ops' stand-in, the shuffle goes through)."""
    if split_discard(state) and len(state.action_discard) < count and state.action_discard_up:
        state.action_discard.extend(state.action_discard_up)
        state.action_discard_up = []
        chance.shuffle(rolls, state.action_discard, "action discard")
    return [state.action_discard.pop() for _ in range(min(count, len(state.action_discard)))]


def reset_for_deal(state: ArcsState) -> None:
    """The chapter's deal takes every action card back (ARCS-255): both piles empty."""
    state.action_discard = []
    state.action_discard_up = []
