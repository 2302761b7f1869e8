"""What each viewer sees of an Arcs table beyond the allow-listed fields: their own hand,
and only the sizes of what is secret (other hands, the decks, the face-down cards); and the
public facts a table view words things with (the hits being assigned, the values printed
on the ambition markers and the player boards)."""
from __future__ import annotations

from plugins.arcs.content import box_for
from plugins.arcs.state import ArcsState


def redact(state: ArcsState, viewer: int | None, view: dict) -> None:
    view["hand"] = list(state.hands[viewer]) if viewer is not None and viewer < len(state.hands) else None
    view["hand_counts"] = [len(h) for h in state.hands]
    view["action_deck_count"] = len(state.action_deck)
    view["action_discard_count"] = len(state.action_discard)
    view["court_deck_count"] = len(state.court_deck)
    view["facedown_count"] = len(state.facedown)
    view["hits_to_assign"] = hits_to_assign(state)
    board = box_for(state).board
    view["marker_values"] = {m.id: [m.first, m.second, m.flipped_first, m.flipped_second]
                             for m in board.ambition_markers}  # printed on the markers (ARCS-233)
    view["resource_slots"] = [[slot.raid_cost, slot.covered_by_city_slot]  # printed on the boards (ARCS-013)
                              for slot in board.resource_slots]


# The battle decisions whose prompt says whose pieces take how many hits: public battle facts
# (the roll is public) a table view needs to word the choice ("2 hits on Seat 2's ships").
HIT_DECISIONS = {"arcs.ship_hits": "ships", "arcs.building_hits": "buildings"}


def hits_to_assign(state: ArcsState) -> list[dict]:
    """The open hit assignments: who chooses, whose pieces, how many hits (ARCS-180/181)."""
    out = []
    for p in state.prompts:
        what = HIT_DECISIONS.get(p.decision)
        if what is None or state.battle is None:
            continue
        owner = p.args.get("owner", state.battle.defender) if what == "ships" else state.battle.defender
        out.append({"chooser": p.seat, "owner": owner, "hits": p.args.get("hits", 0), "pieces": what,
                    "system": state.battle.system})
    return out


# Events by which a card effect shows cards to their addressees alone: event type -> the
# data field naming the card(s). Farseers' look at a Rival's hand (BC17); campaign Fates add theirs.
SHOWING_EVENTS: dict[str, str] = {"hand_shown": "cards"}


def shown_to(events, viewer: int | None) -> set[str]:
    """Cards a card effect showed this viewer in these events (`SHOWING_EVENTS`)."""
    out: set[str] = set()
    for e in events:
        field = SHOWING_EVENTS.get(e.type)
        if field and e.to and viewer in e.to:
            named = e.data[field]
            out |= {named} if isinstance(named, str) else set(named)
    return out


def secrets(state: ArcsState, viewer: int | None, events) -> list[str]:
    """ARCS-281, ARCS-111: what no view or event of `viewer` may name: another seat's hand
    (but what a card just showed this viewer), the decks, the discard and the face-down cards.
    An id the viewer holds itself is no secret (the campaign's Event cards are copies of one)."""
    own = set(state.hands[viewer]) if viewer is not None and viewer < len(state.hands) else set()
    seen = own | (shown_to(events, viewer) if viewer is not None else set())
    others = [c for i, hand in enumerate(state.hands) if i != viewer for c in hand]
    return [c for c in [*others, *state.action_deck, *state.action_discard, *state.facedown, *state.court_deck]
            if c not in seen]
