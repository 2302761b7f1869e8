"""The end of the game: who wins, through every tie-break (QNC-056..060)."""
from __future__ import annotations

from plugins.new_capital.province import card_count
from plugins.new_capital.state import NewCapitalState


def honorary_position(state: NewCapitalState, seat: int) -> int | None:
    """1-based chart slot of the seat's Honorary Seal, or None."""
    for i, entry in enumerate(state.honorary_chart):
        if seat in entry.seats:
            return i + 1
    return None


def final_result(state: NewCapitalState, reason: str, solo_target: int | None = None) -> dict:
    """Most seals; then the earlier Honorary slot (holding beats not holding, QNC-057);
    tied in one slot: shared (QNC-059); no holder among them: most structure and leader
    cards (QNC-058); still tied: shared (QNC-060)."""
    seals = {p.seat: p.seals for p in state.players}
    if solo_target is not None:  # ruling QNC-R1: the solo player wins with the scenario's seals
        won = seals[0] >= solo_target
        return {"reason": reason, "winners": [0] if won else [], "shared": False, "decided_by": "solo",
                "solo": "win" if won else "loss", "target": solo_target,
                "seals": {"0": seals[0]}, "round": state.round}
    top = max(seals.values())
    tied = [s for s, n in seals.items() if n == top]
    decided_by = "seals"
    if len(tied) > 1:
        positions = {s: honorary_position(state, s) for s in tied}
        holders = [s for s in tied if positions[s] is not None]
        if holders:
            best = min(positions[s] for s in holders)
            tied = [s for s in holders if positions[s] == best]
            decided_by = "honorary"
        else:
            cards = {s: card_count(state.players[s]) for s in tied}
            most = max(cards.values())
            tied = [s for s in tied if cards[s] == most]
            decided_by = "cards"
    return {
        "reason": reason,
        "winners": sorted(tied),
        "shared": len(tied) > 1,
        "decided_by": decided_by,
        "seals": {str(s): n for s, n in seals.items()},
        "round": state.round,
    }
