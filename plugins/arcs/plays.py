"""Playing action cards in a round (digest section 5): how a card may follow the lead,
what it buys, what a lead may declare, which ambition marker a declaration takes, and who
holds the initiative after the round."""
from __future__ import annotations

from plugins.arcs.content import Box
from plugins.arcs.state import Marker


def lead_number(box: Box, lead: str, declared: bool) -> int:
    """The lead card's number for the rest of the round: 0 once an ambition is declared (ARCS-084)."""
    return 0 if declared else card(box, lead).number


SIDE = "/"  # a side of a double-sided action card is played as "<card>/<side>" (the campaign's Faithful cards)


def hand_id(played: str) -> str:
    """The card in hands and piles that a played id stands for (itself, or the card whose
    side it is): a double-sided card is one card everywhere but on the table."""
    return played.split(SIDE, 1)[0]


def card(box: Box, card_id: str):
    return next(c for c in box.actions.cards if c.id == card_id)


_ACTION_IDS: dict[int, tuple[Box, frozenset[str]]] = {}  # the box is kept: its id is never reused


def is_action_card(box: Box, card_id: str) -> bool:
    """Whether the card is one of the box's base action cards (a game built on Arcs may add
    others to the deck, the campaign's Event cards: the `arcs_*` card hooks decide those)."""
    known = _ACTION_IDS.get(id(box))
    if known is None:
        known = _ACTION_IDS[id(box)] = (box, frozenset(c.id for c in box.actions.cards))
    return card_id in known[1]


def follow_kinds(box: Box, lead: str, declared: bool, played: str) -> set[str]:
    """How `played` may follow `lead` (ARCS-091..096): Copy always (face down); Pivot with
    another suit; Surpass with the lead suit and a higher number than the lead's current one."""
    lead_card, mine = card(box, lead), card(box, played)
    kinds = {"copy"}
    if mine.suit != lead_card.suit:
        kinds.add("pivot")
    elif mine.number > lead_number(box, lead, declared):
        kinds.add("surpass")
    return kinds


def actions_bought(box: Box, kind: str, lead: str, played: str) -> tuple[int, list[str]]:
    """(how many actions, from which list) a play buys (ARCS-081, ARCS-091, ARCS-093, ARCS-094)."""
    lead_card, mine = card(box, lead), card(box, played)
    if kind in ("lead", "surpass"):
        return mine.pips, list(box.actions.suits[lead_card.suit])
    if kind == "copy":
        return 1, list(box.actions.suits[lead_card.suit])
    if kind == "pivot":
        return 1, list(box.actions.suits[mine.suit])
    raise ValueError(kind)


def declarable(box: Box, lead: str) -> list[str]:
    """The ambitions a lead card may declare (ARCS-083): none on a 1, its own on 2-6, any on a 7."""
    printed = box.actions.ambition_by_number[str(card(box, lead).number)]
    if printed is None:
        return []
    return list(box.board.ambitions) if printed == "any" else [printed]


def marker_value(box: Box, marker: Marker) -> int:
    data = next(m for m in box.board.ambition_markers if m.id == marker.id)
    return data.flipped_first if marker.flipped else data.first


def next_marker(box: Box, available: list[Marker]) -> Marker | None:
    """The Available marker a declaration takes: the highest first-place value (ARCS-084, ARCS-242)."""
    return max(available, key=lambda m: marker_value(box, m), default=None)


def flip_after_chapter(box: Box, markers: list[Marker]) -> list[Marker]:
    """ARCS-251: the unflipped marker with the lowest value turns to its higher side."""
    unflipped = [m for m in markers if not m.flipped]
    if not unflipped:
        return markers
    low = min(unflipped, key=lambda m: marker_value(box, m))
    return [Marker(id=m.id, flipped=True) if m is low else m for m in markers]


def initiative_after(holder: int, seized_by: int | None, surpasses: list[tuple[int, int]]) -> int:
    """ARCS-105..107: the seizer keeps it; else the highest Surpass number takes it; else the holder keeps it."""
    if seized_by is not None:
        return seized_by
    if surpasses:
        return max(surpasses, key=lambda s: s[1])[0]
    return holder
