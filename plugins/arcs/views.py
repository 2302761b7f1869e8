"""What each viewer sees of an Arcs table beyond the allow-listed fields: their own hand,
and only the sizes of what is secret (other hands, the decks, the face-down cards)."""
from __future__ import annotations

from plugins.arcs.state import ArcsState


def redact(state: ArcsState, viewer: int | None, view: dict) -> None:
    view["hand"] = list(state.hands[viewer]) if viewer is not None and viewer < len(state.hands) else None
    view["hand_counts"] = [len(h) for h in state.hands]
    view["action_deck_count"] = len(state.action_deck)
    view["action_discard_count"] = len(state.action_discard)
    view["court_deck_count"] = len(state.court_deck)
    view["facedown_count"] = len(state.facedown)
