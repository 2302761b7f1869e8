"""The rules booklet (BR-112, BR-113): cards added in play whose rules bind everyone. It has
two sides, Edicts on one and Laws and Summit cards on the other. `state.booklet` keeps the
slots in the order cards arrived; each card's side follows from its kind, so views can show
either side. Adding a card yields a public announcement the flow publishes, since every
player must hear about the new rule.

# Reading: the booklet's slot count per side is not given by the rulebook or the card data,
# so a side never runs out (G-2) and the overflow to the other side never arises.
"""
from __future__ import annotations

from core.errors import IllegalAction
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.state import BlightedReachState

EDICT_SIDE = "edicts"
LAW_SIDE = "laws"
_SIDES = {"edict": EDICT_SIDE, "law": LAW_SIDE, "summit": LAW_SIDE}


def card_kind(cbox: CampaignBox, card: str) -> str:
    for c in cbox.empire.cards:
        if c.id == card:
            return c.kind
    found = cbox.fate_cards.get(card)
    return found.kind if found is not None else ""


def booklet_side(cbox: CampaignBox, card: str) -> str:
    """Which side a card goes on: Edicts, or Laws (with the Summit cards)."""
    side = _SIDES.get(card_kind(cbox, card))
    if side is None:
        raise IllegalAction(f"{card} is not an Edict, Law or Summit card")
    return side


def in_booklet(state: BlightedReachState, card: str) -> bool:
    return any(card in slot for slot in state.booklet)


def add_to_booklet(cbox: CampaignBox, state: BlightedReachState, card: str) -> dict:
    """Slide the card into a new slot on its side; return the announcement for all players."""
    side = booklet_side(cbox, card)
    if in_booklet(state, card):
        raise IllegalAction(f"{card} is already in the rules booklet")
    state.booklet.append([card])
    return {"type": "booklet_added", "card": card, "side": side, "slot": len(state.booklet) - 1}


def booklet_sides(cbox: CampaignBox, state: BlightedReachState) -> dict[str, list[list[str]]]:
    """The slots as the two sides show them, each in arrival order (a slot's side is its top card's)."""
    out: dict[str, list[list[str]]] = {EDICT_SIDE: [], LAW_SIDE: []}
    for slot in state.booklet:
        if slot:
            out[booklet_side(cbox, slot[0])].append(list(slot))
    return out
