"""Cards that hold the resources their holder receives, without a limit (Arsenal Keepers'
Weapons, Green Vault's Material and Fuel, Well of Empathy's Psionic).

Each such card's module names it here with the resource types it takes; a rule that counts
"empty resource slots" for a resource (The Arbiter's gifts) reads them through
`unlimited_for`: by that card's FAQ, a card that holds resources has slots without limit for
its resource. Where a received token then goes is the card's own question or overflow rule
(`placing_flow.QUESTIONS`, the Well's keeping), not this module's.
"""
from __future__ import annotations

HOLDING_CARDS: dict[str, frozenset[str]] = {}


def holds(card: str, resources) -> None:
    """Register `card` as holding any number of `resources` for its holder."""
    HOLDING_CARDS[card] = frozenset(resources)


def unlimited_for(state, seat: int) -> frozenset[str]:
    """The resource types the seat has unlimited slots for: those its held cards hold."""
    player = state.players[seat]
    return frozenset(r for card in (*player.guild, *player.lore) for r in HOLDING_CARDS.get(card, ()))
