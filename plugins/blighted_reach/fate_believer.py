"""The Believer (FATE08, cards F801-F831): the nine Faithful action cards and the laws of
their Faith.

The Faithful cards (F804-F812, numbered "1" to "9") start in a public stack, the "9" on
top (`BlightedReachState.faithful_stack`, top first). From there they are attached to Court
cards (Spreading the Faith), secured into hands and played like action cards, each on one
of its two sides: Zeal (move, influence, battle, tax) or Wisdom (build, repair, secure).
"""
from __future__ import annotations

from plugins.blighted_reach import fates
from plugins.blighted_reach.state import BlightedReachState

BELIEVER = "FATE08"
FAITHFUL = ("F804", "F805", "F806", "F807", "F808", "F809", "F810", "F811", "F812")  # "1" .. "9"


def number(card: str) -> int:
    """A Faithful card's number: F804 is the "1", F812 the "9"."""
    return FAITHFUL.index(card) + 1


def is_faithful(card: str) -> bool:
    return card in FAITHFUL


# -- Act I setup (F801) --------------------------------------------------------------------------
@fates.handler("stack_faithful_cards_nine_on_top")
def stack_faithful_cards(ctx, seat: int, card_id: str, effect) -> None:
    """F801: the nine Faithful cards in number order, the "1" at the bottom and the "9" on
    top (the effect names them; the stack is public)."""
    state: BlightedReachState = ctx.state
    cards = list(effect.cards) if effect is not None and effect.cards else list(FAITHFUL)
    state.faithful_stack = sorted(cards, key=number, reverse=True)
    ctx.emit("faithful_stacked", seat=seat, card=card_id, stack=list(state.faithful_stack))


# -- invariants ----------------------------------------------------------------------------------
def places_of(state: BlightedReachState, card: str) -> list[str]:
    """Every place holding `card` (one, for a sound table; none before the Believer's setup)."""
    from plugins.arcs.plays import hand_id

    found = [name for name in ("faithful_stack", "court_deck", "court_discard", "resolving", "scrapped",
                               "action_deck", "action_discard", "action_discard_up", "facedown")
             for c in getattr(state, name) if hand_id(c) == card]
    found += ["court_row" for c in state.court_row if c == card]
    found += ["attached" for c in state.attached.values() if c == card]
    found += [f"hand:{s}" for s, hand in enumerate(state.hands) for c in hand if c == card]
    found += ["played" for p in state.plays if p.card and hand_id(p.card) == card]
    return found


def faithful_problems(state: BlightedReachState) -> list[str]:
    """Once any Faithful card is in play, all nine are, each in exactly one place."""
    where = {card: places_of(state, card) for card in FAITHFUL}
    if not any(where.values()):
        return []
    return [f"the Faithful card {card} is in {len(found)} places ({', '.join(found) or 'none'})"
            for card, found in where.items() if len(found) != 1]
